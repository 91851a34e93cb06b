//! Tiled's XML maps (`.tmx`) and tilesets (`.tsx`): layers, objects, tilesets embedded or
//! beside the map, read into the layers [`map_from_layers`] turns into a map.

use super::layers::{NO_TILE_SIZE, map_from_layers};
use super::objects::{ObjectShape, Outline};
use super::*;

/// Parses Tiled XML; `file` names it in errors. External tilesets cannot be read from bytes
/// alone: use [`load`].
pub fn parse_tmx(bytes: &[u8], file: &str) -> Result<TiledImport, MapError> {
    parse_tmx_in(bytes, file, None)
}

/// [`parse_tmx`], reading external tilesets from `dir`.
pub(super) fn parse_tmx_in(
    bytes: &[u8],
    file: &str,
    dir: Option<&Path>,
) -> Result<TiledImport, MapError> {
    let syntax = |line: usize, message: String| MapError::Syntax {
        file: file.to_string(),
        line,
        message,
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes
            .get(..e.valid_up_to())
            .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
            + 1;
        syntax(line, "not a text file".to_string())
    })?;
    let doc = roxmltree::Document::parse(text).map_err(|e| {
        let said = crate::input::printable(&e.to_string());
        syntax(e.pos().row as usize, format!("not valid XML: {said}"))
    })?;
    let line_of = |node: roxmltree::Node| doc.text_pos_at(node.range().start).row as usize;
    let root = doc.root_element();
    if !root.has_tag_name("map") {
        return Err(syntax(
            line_of(root),
            format!(
                "expected a <map> element, found <{}>",
                root.tag_name().name()
            ),
        ));
    }
    check_shape(
        root.attribute("orientation").unwrap_or("orthogonal"),
        root.attribute("infinite") == Some("1"),
    )
    .map_err(|m| syntax(line_of(root), m))?;
    let size = |name: &str| -> Result<usize, MapError> {
        let value = root.attribute(name).unwrap_or("");
        value
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_SIDE).contains(n))
            .ok_or_else(|| {
                syntax(
                    line_of(root),
                    format!(
                        "map {name} {} is not a size from 1 to {MAX_SIDE}",
                        crate::input::quoted(value)
                    ),
                )
            })
    };
    let (width, height) = (size("width")?, size("height")?);

    let mut tile_kinds = TileKinds::new();
    for tileset in root.children().filter(|n| n.has_tag_name("tileset")) {
        let at = line_of(tileset);
        let first: u32 = tileset
            .attribute("firstgid")
            .and_then(|g| g.parse().ok())
            .ok_or_else(|| syntax(at, "a tileset has no firstgid".to_string()))?;
        let kinds = match tileset.attribute("source") {
            Some(source) => external_tileset(source, dir),
            None => tile_kinds_in_tsx(tileset),
        }
        .map_err(|m| syntax(at, m))?;
        tile_kinds.extend(
            kinds
                .into_iter()
                .filter_map(|(id, kind)| Some((first.checked_add(id)?, kind))),
        );
    }
    // Every tile layer is counted before any is decoded: a map of too many is refused at
    // once, whatever its layers would inflate to.
    let mut budget = TileBudget::new();
    for layer in root.descendants().filter(|n| n.has_tag_name("layer")) {
        budget
            .take_layer(width * height)
            .map_err(|m| syntax(line_of(layer), m))?;
    }
    let mut layers = Vec::new();
    // Each node with the offset of the groups around it.
    let mut pending: Vec<(roxmltree::Node, (f64, f64))> = root
        .children()
        .filter(|n| n.is_element())
        .map(|n| (n, (0.0, 0.0)))
        .collect();
    pending.reverse();
    while let Some((node, around)) = pending.pop() {
        let offset = tmx_offset(node, around).map_err(|m| syntax(line_of(node), m))?;
        match node.tag_name().name() {
            "group" => {
                let mut inner: Vec<_> = node
                    .children()
                    .filter(|n| n.is_element())
                    .map(|n| (n, offset))
                    .collect();
                inner.reverse();
                pending.extend(inner);
            }
            "layer" => {
                let name = node.attribute("name").unwrap_or("").to_string();
                let shown = crate::input::quoted(&name);
                let solid = has_solid_property(node);
                let terrain = match xml_property(node, TERRAIN_PROPERTY) {
                    Some(value) => Some(
                        terrain_named(value, &format!("layer {shown}"))
                            .map_err(|m| syntax(line_of(node), m))?,
                    ),
                    None => terrain_of_class(node.attribute("class")),
                };
                let data = node
                    .children()
                    .find(|n| n.has_tag_name("data"))
                    .ok_or_else(|| syntax(line_of(node), format!("layer {shown} has no <data>")))?;
                let at = line_of(data);
                let gids = match data.attribute("encoding") {
                    Some("csv") => parse_csv(data.text().unwrap_or(""))
                        .map_err(|m| syntax(at, format!("layer {shown}: {m}")))?,
                    Some("base64") => decode_base64(
                        data.text().unwrap_or(""),
                        data.attribute("compression").unwrap_or(""),
                        width * height,
                    )
                    .map_err(|m| syntax(at, format!("layer {shown}: {m}")))?,
                    None => data
                        .children()
                        .filter(|n| n.has_tag_name("tile"))
                        .map(|t| t.attribute("gid").unwrap_or("0").parse::<u32>())
                        .collect::<Result<_, _>>()
                        .map_err(|_| {
                            syntax(at, format!("layer {shown}: a tile gid is not a number"))
                        })?,
                    Some(other) => return Err(syntax(at, unsupported_encoding(&name, other))),
                };
                layers.push(Layer {
                    name,
                    solid,
                    terrain,
                    content: Content::Tiles(gids),
                    line: Some(at),
                    order: 0,
                    offset,
                });
            }
            "objectgroup" => {
                let objects = node
                    .children()
                    .filter(|n| n.has_tag_name("object"))
                    .map(|object| {
                        let line = line_of(object);
                        Ok(LayerObject {
                            area: tmx_object(object).map_err(|m| syntax(line, m))?,
                            solid: has_solid_property(object),
                            template: object.attribute("template").map(str::to_string),
                            line: Some(line),
                        })
                    })
                    .collect::<Result<_, _>>()?;
                layers.push(Layer {
                    name: node.attribute("name").unwrap_or("").to_string(),
                    solid: has_solid_property(node),
                    terrain: None,
                    content: Content::Objects(objects),
                    line: Some(line_of(node)),
                    order: 0,
                    offset,
                });
            }
            _ => {}
        }
    }
    let tile_size = ["tilewidth", "tileheight"].map(|a| {
        root.attribute(a)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    });
    let line_of_layer = |layer: &Layer| layer.line;
    map_from_layers(
        (width, height),
        tile_size,
        layers,
        &tile_kinds,
        (file, &line_of_layer),
    )
    .map_err(|e| match e {
        MapError::Invalid { message, .. } if message.starts_with(NO_TILE_SIZE) => {
            syntax(line_of(root), message)
        }
        other => other,
    })
}

/// A TMX layer's or group's offset in pixels added to `around`, that of the groups it is in.
pub(super) fn tmx_offset(node: roxmltree::Node, around: (f64, f64)) -> Result<(f64, f64), String> {
    let read = |name: &str| match node.attribute(name) {
        None => Ok(0.0),
        Some(text) => text
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("{name} {} is not a number", crate::input::quoted(text))),
    };
    Ok((around.0 + read("offsetx")?, around.1 + read("offsety")?))
}

/// A TMX `<object>` as an area; `None` for points, polylines and text, which enclose none.
pub(super) fn tmx_object(object: roxmltree::Node) -> Result<Option<ObjectShape>, String> {
    let number = |name: &str| -> Result<f64, String> {
        match object.attribute(name) {
            None => Ok(0.0),
            Some(v) => v
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .ok_or_else(|| {
                    format!(
                        "object attribute {name} {} is not a number",
                        crate::input::quoted(v)
                    )
                }),
        }
    };
    let (x, y, width, height) = (
        number("x")?,
        number("y")?,
        number("width")?,
        number("height")?,
    );
    let child = |tag: &str| object.children().find(|n| n.has_tag_name(tag));
    let outline =
        if child("point").is_some() || child("polyline").is_some() || child("text").is_some() {
            return Ok(None);
        } else if let Some(polygon) = child("polygon") {
            Outline::Polygon(parse_points(polygon.attribute("points").unwrap_or(""))?)
        } else if child("ellipse").is_some() {
            Outline::Ellipse { width, height }
        } else if object.attribute("gid").is_some() {
            Outline::Tile { width, height }
        } else {
            Outline::Rectangle { width, height }
        };
    Ok(Some(ObjectShape {
        x,
        y,
        rotation: number("rotation")?,
        outline,
    }))
}

/// A TMX polygon's `points`: `x,y` pairs separated by spaces.
pub(super) fn parse_points(text: &str) -> Result<Vec<(f64, f64)>, String> {
    let points = text
        .split_whitespace()
        .map(|pair| {
            let (x, y) = pair.split_once(',')?;
            let (x, y) = (x.trim().parse::<f64>().ok()?, y.trim().parse::<f64>().ok()?);
            (x.is_finite() && y.is_finite()).then_some((x, y))
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            format!(
                "polygon points {} are not x,y pairs of numbers",
                crate::input::quoted(text)
            )
        })?;
    if points.len() < 3 {
        return Err(format!(
            "a polygon needs 3 points, {} has {}",
            crate::input::quoted(text),
            points.len()
        ));
    }
    Ok(points)
}

/// True when an XML element's `<properties>` hold a true solid-like property.
pub(super) fn has_solid_property(node: roxmltree::Node) -> bool {
    node.children()
        .filter(|n| n.has_tag_name("properties"))
        .flat_map(|p| p.children().filter(|n| n.has_tag_name("property")))
        .any(|p| {
            p.attribute("name").is_some_and(is_solid_property)
                && p.attribute("value")
                    .is_some_and(|v| v.eq_ignore_ascii_case("true"))
        })
}

/// The value of an XML element's property `name` (any case), if it has one.
pub(super) fn xml_property<'a>(node: roxmltree::Node<'a, 'a>, name: &str) -> Option<&'a str> {
    node.children()
        .filter(|n| n.has_tag_name("properties"))
        .flat_map(|p| p.children().filter(|n| n.has_tag_name("property")))
        .find(|p| {
            p.attribute("name")
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
        .and_then(|p| p.attribute("value").or_else(|| p.text()))
}

/// The tiles a `<tileset>` element says something of: walls (marked solid), and terrains (a
/// `terrain` property, else the tile's class — `type` before Tiled 1.9), by id.
pub(super) fn tile_kinds_in_tsx(tileset: roxmltree::Node) -> Result<Vec<(u32, Tile)>, String> {
    let mut kinds = Vec::new();
    for tile in tileset.children().filter(|n| n.has_tag_name("tile")) {
        let Some(id) = tile.attribute("id").and_then(|id| id.parse::<u32>().ok()) else {
            continue;
        };
        let kind = if has_solid_property(tile) {
            Some(Tile::Wall)
        } else if let Some(value) = xml_property(tile, TERRAIN_PROPERTY) {
            Some(terrain_named(value, &format!("tile {id}"))?)
        } else {
            terrain_of_class(tile.attribute("class").or_else(|| tile.attribute("type")))
        };
        kinds.extend(kind.map(|kind| (id, kind)));
    }
    Ok(kinds)
}
