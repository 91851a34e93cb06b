//! Tiled's JSON maps (`.tmj`) and tilesets (`.tsj`), read into the layers
//! [`map_from_layers`] turns into a map.

use super::layers::{NO_TILE_SIZE, map_from_layers};
use super::objects::{ObjectShape, Outline};
use super::*;

/// Tiled JSON, as far as navlab reads it.
#[derive(Deserialize)]
pub(super) struct TmjMap {
    width: usize,
    height: usize,
    #[serde(default)]
    infinite: bool,
    #[serde(default = "orthogonal")]
    orientation: String,
    #[serde(default)]
    layers: Vec<TmjLayer>,
    #[serde(default)]
    tilesets: Vec<TmjTileset>,
    #[serde(default)]
    tilewidth: f64,
    #[serde(default)]
    tileheight: f64,
}

/// A tileset in Tiled JSON: embedded (its tiles) or external (`source`).
#[derive(Deserialize)]
pub(super) struct TmjTileset {
    #[serde(default)]
    firstgid: u32,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    tiles: Vec<TmjTile>,
}

#[derive(Deserialize)]
pub(super) struct TmjTile {
    id: u32,
    #[serde(default)]
    properties: Vec<TmjProperty>,
    /// Its class (Tiled 1.9 and later).
    #[serde(default)]
    class: Option<String>,
    /// Its class before Tiled 1.9.
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

impl TmjTileset {
    /// What the tileset says of its tiles (see [`tile_kinds_in_tsx`]).
    pub(super) fn tile_kinds(&self) -> Result<Vec<(u32, Tile)>, String> {
        let mut kinds = Vec::new();
        for tile in &self.tiles {
            let kind = if any_solid(&tile.properties) {
                Some(Tile::Wall)
            } else if let Some(value) = json_terrain(&tile.properties) {
                Some(terrain_named(value, &format!("tile {}", tile.id))?)
            } else {
                terrain_of_class(tile.class.as_deref().or(tile.kind.as_deref()))
            };
            kinds.extend(kind.map(|kind| (tile.id, kind)));
        }
        Ok(kinds)
    }
}

/// The value of a JSON `terrain` property, if there is one (a non-string value reads as its
/// JSON text, which names no terrain).
pub(super) fn json_terrain(properties: &[TmjProperty]) -> Option<&str> {
    properties
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(TERRAIN_PROPERTY))
        .map(|p| p.value.as_str().unwrap_or("(not a string)"))
}

pub(super) fn any_solid(properties: &[TmjProperty]) -> bool {
    properties
        .iter()
        .any(|p| is_solid_property(&p.name) && p.value == serde_json::Value::Bool(true))
}

pub(super) fn orthogonal() -> String {
    "orthogonal".to_string()
}

#[derive(Deserialize)]
pub(super) struct TmjLayer {
    #[serde(default)]
    name: String,
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    data: Option<TmjData>,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    compression: Option<String>,
    #[serde(default)]
    properties: Vec<TmjProperty>,
    #[serde(default)]
    layers: Vec<TmjLayer>,
    #[serde(default)]
    objects: Vec<TmjObject>,
    #[serde(default)]
    offsetx: f64,
    #[serde(default)]
    offsety: f64,
    #[serde(default)]
    class: Option<String>,
}

/// A tile layer's `data`: an array of gids, read straight into numbers (not into JSON values,
/// which take twenty times the room), or base64 text.
pub(super) enum TmjData {
    /// The array.
    Gids(Vec<u32>),
    /// An array with something else than a gid in it.
    NotGids,
    /// Base64 text (maybe compressed).
    Text(String),
}

impl<'de> Deserialize<'de> for TmjData {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = TmjData;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of tile gids or base64 text")
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<TmjData, E> {
                Ok(TmjData::Text(text.to_string()))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<TmjData, A::Error> {
                let mut gids = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 20));
                let mut all_gids = true;
                while let Some(value) = seq.next_element::<Gid>()? {
                    match value {
                        Gid(Some(gid)) if all_gids => gids.push(gid),
                        _ => all_gids = false,
                    }
                }
                Ok(if all_gids {
                    TmjData::Gids(gids)
                } else {
                    TmjData::NotGids
                })
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// One element of a gid array: a gid, or `None` for anything else (read and dropped).
struct Gid(Option<u32>);

impl<'de> Deserialize<'de> for Gid {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Gid;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a tile gid")
            }

            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Gid, E> {
                Ok(Gid(u32::try_from(n).ok()))
            }

            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Gid, E> {
                Ok(Gid(u32::try_from(n).ok()))
            }

            fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Gid, E> {
                Ok(Gid(None))
            }

            fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Gid, E> {
                Ok(Gid(None))
            }

            fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Gid, E> {
                Ok(Gid(None))
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<Gid, E> {
                Ok(Gid(None))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Gid, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Gid(None))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Gid, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Gid(None))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// An object in Tiled JSON; its kind is told by which of the optional fields it has.
#[derive(Deserialize)]
pub(super) struct TmjObject {
    #[serde(default)]
    x: f64,
    #[serde(default)]
    y: f64,
    #[serde(default)]
    width: f64,
    #[serde(default)]
    height: f64,
    #[serde(default)]
    rotation: f64,
    #[serde(default)]
    ellipse: bool,
    #[serde(default)]
    point: bool,
    #[serde(default)]
    polygon: Option<Vec<TmjPoint>>,
    #[serde(default)]
    polyline: Option<serde_json::Value>,
    #[serde(default)]
    text: Option<serde_json::Value>,
    #[serde(default)]
    gid: Option<serde_json::Value>,
    #[serde(default)]
    template: Option<String>,
    #[serde(default)]
    properties: Vec<TmjProperty>,
}

#[derive(Deserialize)]
pub(super) struct TmjPoint {
    x: f64,
    y: f64,
}

impl TmjObject {
    /// The object's area; `None` for points, polylines and text, which enclose none.
    fn shape(&self) -> Result<Option<ObjectShape>, String> {
        let (width, height) = (self.width, self.height);
        let outline = if self.point || self.polyline.is_some() || self.text.is_some() {
            return Ok(None);
        } else if let Some(points) = &self.polygon {
            if points.len() < 3 {
                return Err(format!(
                    "a polygon needs 3 points, one has {}",
                    points.len()
                ));
            }
            Outline::Polygon(points.iter().map(|p| (p.x, p.y)).collect())
        } else if self.ellipse {
            Outline::Ellipse { width, height }
        } else if self.gid.is_some() {
            Outline::Tile { width, height }
        } else {
            Outline::Rectangle { width, height }
        };
        Ok(Some(ObjectShape {
            x: self.x,
            y: self.y,
            rotation: self.rotation,
            outline,
        }))
    }
}

#[derive(Deserialize)]
pub(super) struct TmjProperty {
    name: String,
    #[serde(default)]
    value: serde_json::Value,
}

/// Parses Tiled JSON; `file` names it in errors. External tilesets cannot be read from bytes
/// alone: use [`load`].
pub fn parse_tmj(bytes: &[u8], file: &str) -> Result<TiledImport, MapError> {
    parse_tmj_in(bytes, file, None)
}

/// [`parse_tmj`], reading external tilesets from `dir`.
pub(super) fn parse_tmj_in(
    bytes: &[u8],
    file: &str,
    dir: Option<&Path>,
) -> Result<TiledImport, MapError> {
    let mut parsed: TmjMap = serde_json::from_slice(bytes).map_err(|e| MapError::Syntax {
        file: file.to_string(),
        line: e.line(),
        message: format!("not a Tiled JSON map: {}", crate::input::json_problem(&e)),
    })?;
    // serde has no positions for values: the lines are found again in the text, and only for
    // a message (a large map's data would make that a second pass over it).
    let text = String::from_utf8_lossy(bytes);
    let at = |line: Option<usize>, message: String| MapError::at(file, line, message);
    let layer_lines = std::cell::OnceCell::new();
    let line_of_layer_at = |order: usize| {
        layer_lines
            .get_or_init(|| json_nested_object_lines(&text, "layers"))
            .get(order)
            .copied()
    };
    check_shape(&parsed.orientation, parsed.infinite).map_err(|message| {
        let key = if parsed.infinite && parsed.orientation == "orthogonal" {
            "infinite"
        } else {
            "orientation"
        };
        at(json_key_line(&text, key), message)
    })?;
    for (name, value) in [("width", parsed.width), ("height", parsed.height)] {
        if !(1..=MAX_SIDE).contains(&value) {
            return Err(at(
                json_key_line(&text, name),
                format!("map {name} {value} is not a size from 1 to {MAX_SIDE}"),
            ));
        }
    }
    let mut tile_kinds = TileKinds::new();
    for (i, tileset) in parsed.tilesets.iter().enumerate() {
        let kinds = match &tileset.source {
            Some(source) => external_tileset(source, dir),
            None => tileset.tile_kinds(),
        }
        .map_err(|message| {
            let lines = json_nested_object_lines(&text, "tilesets");
            at(lines.get(i).copied(), message)
        })?;
        tile_kinds.extend(
            kinds
                .into_iter()
                .filter_map(|(id, kind)| Some((tileset.firstgid.checked_add(id)?, kind))),
        );
    }
    // Every tile layer is counted before any is decoded (as for XML), in the file's depth-first
    // order of layers, which is also how their lines are looked up.
    let mut budget = TileBudget::new();
    let mut counting: Vec<&TmjLayer> = parsed.layers.iter().rev().collect();
    let mut order = 0;
    while let Some(layer) = counting.pop() {
        if layer.kind == "tilelayer" {
            budget
                .take_layer(parsed.width * parsed.height)
                .map_err(|m| at(line_of_layer_at(order), m))?;
        }
        counting.extend(layer.layers.iter().rev());
        order += 1;
    }
    let mut layers = Vec::new();
    // Layers are taken depth first, in the order of the file, as their lines are listed.
    // Each layer with the offset of the groups around it.
    let mut pending: Vec<(TmjLayer, (f64, f64))> = std::mem::take(&mut parsed.layers)
        .into_iter()
        .rev()
        .map(|l| (l, (0.0, 0.0)))
        .collect();
    let mut taken = 0;
    while let Some((mut layer, around)) = pending.pop() {
        let order = taken;
        taken += 1;
        let invalid = |message: String| at(line_of_layer_at(order), message);
        let offset = (around.0 + layer.offsetx, around.1 + layer.offsety);
        match layer.kind.as_str() {
            "group" => {
                let inner = std::mem::take(&mut layer.layers);
                pending.extend(inner.into_iter().rev().map(|l| (l, offset)));
            }
            "tilelayer" => {
                let name = &layer.name;
                let shown = crate::input::quoted(name);
                let gids = match layer.data.take() {
                    Some(TmjData::Text(text)) if layer.encoding.as_deref() == Some("base64") => {
                        decode_base64(
                            &text,
                            layer.compression.as_deref().unwrap_or(""),
                            parsed.width * parsed.height,
                        )
                        .map_err(|m| invalid(format!("layer {shown}: {m}")))?
                    }
                    Some(TmjData::Gids(gids)) => gids,
                    Some(TmjData::NotGids) => {
                        return Err(invalid(format!(
                            "layer {shown}: a tile gid is not a number"
                        )));
                    }
                    _ => return Err(invalid(format!("layer {shown} has no data array"))),
                };
                let solid = any_solid(&layer.properties);
                let terrain = match json_terrain(&layer.properties) {
                    Some(value) => {
                        Some(terrain_named(value, &format!("layer {shown}")).map_err(invalid)?)
                    }
                    None => terrain_of_class(layer.class.as_deref()),
                };
                layers.push(Layer {
                    name: name.clone(),
                    solid,
                    terrain,
                    content: Content::Tiles(gids),
                    line: None,
                    order,
                    offset,
                });
            }
            "objectgroup" => {
                let objects = layer
                    .objects
                    .iter()
                    .map(|o| {
                        Ok(LayerObject {
                            area: o.shape().map_err(|m| {
                                invalid(format!("layer {}: {m}", crate::input::quoted(&layer.name)))
                            })?,
                            solid: any_solid(&o.properties),
                            template: o.template.clone(),
                            line: None,
                        })
                    })
                    .collect::<Result<_, _>>()?;
                layers.push(Layer {
                    name: layer.name.clone(),
                    solid: any_solid(&layer.properties),
                    terrain: None,
                    content: Content::Objects(objects),
                    line: None,
                    order,
                    offset,
                });
            }
            _ => {}
        }
    }
    let line_of_layer = |layer: &Layer| line_of_layer_at(layer.order);
    map_from_layers(
        (parsed.width, parsed.height),
        [parsed.tilewidth, parsed.tileheight],
        layers,
        &tile_kinds,
        (file, &line_of_layer),
    )
    .map_err(|e| match e {
        MapError::Invalid { message, .. } if message.starts_with(NO_TILE_SIZE) => {
            at(json_key_line(&text, "tilewidth"), message)
        }
        other => other,
    })
}
