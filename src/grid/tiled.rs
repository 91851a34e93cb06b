//! Import maps made in the [Tiled](https://www.mapeditor.org) editor (`.tmx` XML, `.tmj` JSON):
//! the cells its collision layers fill become walls, every other cell grass.
//!
//! A collision layer is a tile layer with a true bool property named `solid`, `collision`,
//! `collides`, `blocked` or `wall` (any case); when no layer has one, layers whose name holds
//! `collision`, `solid`, `wall` or `obstacle` are used. Hidden layers count (collision layers
//! are often hidden), layers in groups too. Orthogonal, finite maps only, with layer data as CSV,
//! XML `<tile>` elements (TMX) or an array (TMJ); base64 data is refused with how to re-save.
//! navlab does not write Tiled files: save an imported map as `.map` or `.json`.

use super::map::{MAX_SIDE, MapError, TileMap};
use super::tiles::Tile;
use serde::Deserialize;
use std::path::Path;

/// Tiled keeps flip and rotation flags in a gid's top bits; the rest is the tile.
const GID_MASK: u32 = 0x0FFF_FFFF;

/// Property names that make a layer a collision layer when true.
const SOLID_PROPERTIES: [&str; 5] = ["solid", "collision", "collides", "blocked", "wall"];
/// Words in a layer's name that make it a collision layer when no layer has such a property.
const SOLID_NAMES: [&str; 4] = ["collision", "solid", "wall", "obstacle"];

/// A Tiled map as navlab reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct TiledImport {
    /// The map: walls where collision layers have tiles, grass elsewhere.
    pub map: TileMap,
    /// The names of the layers that became walls.
    pub wall_layers: Vec<String>,
}

/// True for the extensions this module reads (`tmx`, `tmj`, any case).
pub fn is_tiled_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tmx") || e.eq_ignore_ascii_case("tmj"))
}

/// Reads a `.tmx` or `.tmj` file (by extension).
pub fn load(path: &Path) -> Result<TiledImport, MapError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| MapError::Invalid {
        file: file.clone(),
        message: format!("cannot read the file: {e}"),
    })?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tmj"))
    {
        parse_tmj(&bytes, &file)
    } else {
        parse_tmx(&bytes, &file)
    }
}

/// One tile layer: its name, whether a property marks it solid, its gids (row-major) and the
/// line it starts on (TMX only).
struct Layer {
    name: String,
    solid: bool,
    gids: Vec<u32>,
    line: Option<usize>,
}

/// Parses Tiled XML; `file` names it in errors.
pub fn parse_tmx(bytes: &[u8], file: &str) -> Result<TiledImport, MapError> {
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
    let doc = roxmltree::Document::parse(text)
        .map_err(|e| syntax(e.pos().row as usize, format!("not valid XML: {e}")))?;
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
                    format!("map {name} `{value}` is not a size from 1 to {MAX_SIDE}"),
                )
            })
    };
    let (width, height) = (size("width")?, size("height")?);

    let mut layers = Vec::new();
    let mut pending: Vec<roxmltree::Node> = root.children().filter(|n| n.is_element()).collect();
    pending.reverse();
    while let Some(node) = pending.pop() {
        match node.tag_name().name() {
            "group" => {
                let mut inner: Vec<_> = node.children().filter(|n| n.is_element()).collect();
                inner.reverse();
                pending.extend(inner);
            }
            "layer" => {
                let name = node.attribute("name").unwrap_or("").to_string();
                let solid = node
                    .children()
                    .filter(|n| n.has_tag_name("properties"))
                    .flat_map(|p| p.children().filter(|n| n.has_tag_name("property")))
                    .any(|p| {
                        p.attribute("name").is_some_and(is_solid_property)
                            && p.attribute("value")
                                .is_some_and(|v| v.eq_ignore_ascii_case("true"))
                    });
                let data = node
                    .children()
                    .find(|n| n.has_tag_name("data"))
                    .ok_or_else(|| {
                        syntax(line_of(node), format!("layer `{name}` has no <data>"))
                    })?;
                let at = line_of(data);
                let gids = match data.attribute("encoding") {
                    Some("csv") => parse_csv(data.text().unwrap_or(""))
                        .map_err(|m| syntax(at, format!("layer `{name}`: {m}")))?,
                    None => data
                        .children()
                        .filter(|n| n.has_tag_name("tile"))
                        .map(|t| t.attribute("gid").unwrap_or("0").parse::<u32>())
                        .collect::<Result<_, _>>()
                        .map_err(|_| {
                            syntax(at, format!("layer `{name}`: a tile gid is not a number"))
                        })?,
                    Some(other) => return Err(syntax(at, unsupported_encoding(&name, other))),
                };
                layers.push(Layer {
                    name,
                    solid,
                    gids,
                    line: Some(at),
                });
            }
            _ => {}
        }
    }
    map_from_layers(width, height, layers, file)
}

/// Tiled JSON, as far as navlab reads it.
#[derive(Deserialize)]
struct TmjMap {
    width: usize,
    height: usize,
    #[serde(default)]
    infinite: bool,
    #[serde(default = "orthogonal")]
    orientation: String,
    #[serde(default)]
    layers: Vec<TmjLayer>,
}

fn orthogonal() -> String {
    "orthogonal".to_string()
}

#[derive(Deserialize)]
struct TmjLayer {
    #[serde(default)]
    name: String,
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    data: Option<serde_json::Value>,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    properties: Vec<TmjProperty>,
    #[serde(default)]
    layers: Vec<TmjLayer>,
}

#[derive(Deserialize)]
struct TmjProperty {
    name: String,
    #[serde(default)]
    value: serde_json::Value,
}

/// Parses Tiled JSON; `file` names it in errors.
pub fn parse_tmj(bytes: &[u8], file: &str) -> Result<TiledImport, MapError> {
    let invalid = |message: String| MapError::Invalid {
        file: file.to_string(),
        message,
    };
    let parsed: TmjMap = serde_json::from_slice(bytes).map_err(|e| MapError::Syntax {
        file: file.to_string(),
        line: e.line(),
        message: format!("not a Tiled JSON map: {e}"),
    })?;
    check_shape(&parsed.orientation, parsed.infinite).map_err(invalid)?;
    for (name, value) in [("width", parsed.width), ("height", parsed.height)] {
        if !(1..=MAX_SIDE).contains(&value) {
            return Err(invalid(format!(
                "map {name} {value} is not a size from 1 to {MAX_SIDE}"
            )));
        }
    }
    let mut layers = Vec::new();
    let mut pending: Vec<&TmjLayer> = parsed.layers.iter().rev().collect();
    while let Some(layer) = pending.pop() {
        match layer.kind.as_str() {
            "group" => pending.extend(layer.layers.iter().rev()),
            "tilelayer" => {
                let name = &layer.name;
                if let Some(encoding) = &layer.encoding
                    && encoding != "csv"
                {
                    return Err(invalid(unsupported_encoding(name, encoding)));
                }
                let gids = match &layer.data {
                    Some(serde_json::Value::Array(cells)) => cells
                        .iter()
                        .map(|c| c.as_u64().and_then(|g| u32::try_from(g).ok()))
                        .collect::<Option<Vec<u32>>>()
                        .ok_or_else(|| {
                            invalid(format!("layer `{name}`: a tile gid is not a number"))
                        })?,
                    _ => return Err(invalid(format!("layer `{name}` has no data array"))),
                };
                let solid = layer.properties.iter().any(|p| {
                    is_solid_property(&p.name) && p.value == serde_json::Value::Bool(true)
                });
                layers.push(Layer {
                    name: name.clone(),
                    solid,
                    gids,
                    line: None,
                });
            }
            _ => {}
        }
    }
    map_from_layers(parsed.width, parsed.height, layers, file)
}

/// Orthogonal and finite, or why not.
fn check_shape(orientation: &str, infinite: bool) -> Result<(), String> {
    if orientation != "orthogonal" {
        return Err(format!(
            "{orientation} maps are not supported: navlab's tiles are squares (orthogonal)"
        ));
    }
    if infinite {
        return Err(
            "infinite maps are not supported: in Tiled, untick Map > Map Properties > Infinite"
                .to_string(),
        );
    }
    Ok(())
}

fn unsupported_encoding(layer: &str, encoding: &str) -> String {
    format!(
        "layer `{layer}`: {encoding} data is not supported; in Tiled set Map > Map Properties > \
         Tile Layer Format to CSV and save again"
    )
}

fn is_solid_property(name: &str) -> bool {
    SOLID_PROPERTIES
        .iter()
        .any(|p| name.eq_ignore_ascii_case(p))
}

/// Comma-separated gids (whitespace and line breaks allowed).
fn parse_csv(text: &str) -> Result<Vec<u32>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<u32>()
                .map_err(|_| format!("`{s}` is not a tile gid"))
        })
        .collect()
}

/// Walls where the collision layers have a tile.
fn map_from_layers(
    width: usize,
    height: usize,
    layers: Vec<Layer>,
    file: &str,
) -> Result<TiledImport, MapError> {
    let by_property = layers.iter().any(|l| l.solid);
    let chosen: Vec<&Layer> = layers
        .iter()
        .filter(|l| {
            if by_property {
                l.solid
            } else {
                let name = l.name.to_lowercase();
                SOLID_NAMES.iter().any(|w| name.contains(w))
            }
        })
        .collect();
    if chosen.is_empty() {
        let names: Vec<&str> = layers.iter().map(|l| l.name.as_str()).collect();
        return Err(MapError::Invalid {
            file: file.to_string(),
            message: format!(
                "no collision layer among the tile layers ({}): in Tiled, give the layer whose \
                 tiles block movement the bool property `solid` set to true",
                if names.is_empty() {
                    "there are none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        });
    }
    let mut map = TileMap::new(width, height).ok_or_else(|| MapError::Invalid {
        file: file.to_string(),
        message: format!("a {width} × {height} map is not allowed"),
    })?;
    for layer in &chosen {
        if layer.gids.len() != width * height {
            let message = format!(
                "layer `{}` has {} cells, the map {} × {} = {}",
                layer.name,
                layer.gids.len(),
                width,
                height,
                width * height
            );
            return Err(match layer.line {
                Some(line) => MapError::Syntax {
                    file: file.to_string(),
                    line,
                    message,
                },
                None => MapError::Invalid {
                    file: file.to_string(),
                    message,
                },
            });
        }
        for (i, &gid) in layer.gids.iter().enumerate() {
            if gid & GID_MASK != 0 {
                map.set((i % width, i / width), Tile::Wall);
            }
        }
    }
    Ok(TiledImport {
        map,
        wall_layers: chosen.iter().map(|l| l.name.clone()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmx(layers: &str) -> String {
        format!(
            "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"3\" height=\"2\" \
             infinite=\"0\">\n{layers}\n</map>\n"
        )
    }

    #[test]
    fn a_solid_layer_becomes_walls_with_flip_flags_ignored() {
        let text = tmx(
            "<layer name=\"Ground\"><data encoding=\"csv\">1,1,1,1,1,1</data></layer>\n\
             <layer name=\"Blocks\"><properties><property name=\"Solid\" type=\"bool\" \
             value=\"true\"/></properties><data encoding=\"csv\">\n0,2147483653,0,\n0,0,7\n\
             </data></layer>",
        );
        let import = parse_tmx(text.as_bytes(), "t.tmx").expect("imports");
        assert_eq!(import.wall_layers, ["Blocks"]);
        let walls: Vec<_> = (0..6)
            .filter(|&i| import.map.tiles()[i] == Tile::Wall)
            .collect();
        assert_eq!(walls, [1, 5]);
    }

    #[test]
    fn without_properties_a_layer_named_for_collision_is_used_and_xml_tiles_read() {
        let text = tmx(
            "<group name=\"g\"><layer name=\"Wall tiles\"><data><tile gid=\"3\"/><tile/>\
             <tile/><tile/><tile/><tile gid=\"1\"/></data></layer></group>",
        );
        let import = parse_tmx(text.as_bytes(), "t.tmx").expect("imports");
        assert_eq!(import.wall_layers, ["Wall tiles"]);
        assert_eq!(import.map.get((0, 0)), Some(Tile::Wall));
        assert_eq!(import.map.get((2, 1)), Some(Tile::Wall));
        assert_eq!(import.map.passable_count(), 4);
    }

    #[test]
    fn what_cannot_be_read_is_said_with_the_line() {
        for (text, line, says) in [
            (
                tmx("<layer name=\"Collision\">\n<data encoding=\"base64\">AAAA</data></layer>"),
                4,
                "base64 data is not supported",
            ),
            (
                tmx("<layer name=\"Collision\">\n<data encoding=\"csv\">1,2</data></layer>"),
                4,
                "has 2 cells, the map 3 × 2 = 6",
            ),
            (
                tmx("<layer name=\"Ground\"><data encoding=\"csv\">0,0,0,0,0,0</data></layer>"),
                0,
                "no collision layer among the tile layers (Ground)",
            ),
            (
                "<map orientation=\"isometric\" width=\"2\" height=\"2\"/>".to_string(),
                1,
                "isometric maps are not supported",
            ),
            ("<map><layer></map>".to_string(), 1, "not valid XML"),
        ] {
            let error = parse_tmx(text.as_bytes(), "bad.tmx")
                .expect_err(&text)
                .to_string();
            let expected = if line > 0 {
                format!("bad.tmx:{line}: ")
            } else {
                "bad.tmx: ".to_string()
            };
            assert!(error.starts_with(&expected), "{error}");
            assert!(error.contains(says), "{error}");
        }
    }
}
