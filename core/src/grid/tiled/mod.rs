//! Import maps made in the [Tiled](https://www.mapeditor.org) editor (`.tmx` XML, `.tmj` JSON):
//! the cells its collision layers fill become walls, the others take the terrain their tiles
//! name (else grass).
//!
//! A collision layer is a tile or object layer with a true bool property named `solid`,
//! `collision`, `collides`, `blocked` or `wall` (any case); when no layer has one, layers whose
//! name holds `collision`, `solid`, `wall` or `obstacle` are used. Tiles given such a property
//! in their tileset (embedded, or an external `.tsx`/`.tsj` beside the map) are walls in every
//! layer, objects given it in every object layer. An object walls the cells whose centres its
//! area covers (rectangles, ellipses, polygons and tile objects, rotated as in Tiled).
//! A tile's terrain is its class (`type` before Tiled 1.9) or its string property `terrain`
//! when that names a tile (grass, sand, water, wall, hole, any case); a tile layer's `terrain`
//! property (else its class) gives one to all its tiles that have none. Later layers cover earlier ones; walls
//! cover terrain. Layer and group offsets move what they hold (tile layers by whole tiles).
//! Hidden layers count (collision layers are often hidden), layers in groups too. Orthogonal,
//! finite maps only, with layer data as CSV, XML `<tile>` elements (TMX), an array (TMJ) or
//! base64 (plain, zlib, gzip or zstd; other compressions are refused with how to re-save).
//! navlab does not write
//! Tiled files: save an imported map as `.map` or `.json`.

mod layers;
mod objects;
mod tmj;
mod tmx;

pub use tmj::parse_tmj;
pub use tmx::parse_tmx;

use super::map::{MAX_SIDE, MapError, TileMap, read_map_file};
use super::tiles::Tile;
use crate::input::json_lines::{json_key_line, json_nested_object_lines};
use crate::words::count;
use objects::ObjectShape;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use tmj::TmjTileset;
use tmx::tile_kinds_in_tsx;

/// Tiled keeps flip and rotation flags in a gid's top bits; the rest is the tile.
const GID_MASK: u32 = 0x0FFF_FFFF;

/// Property names that make a layer a collision layer when true.
const SOLID_PROPERTIES: [&str; 5] = ["solid", "collision", "collides", "blocked", "wall"];
/// Words in a layer's name that make it a collision layer when no layer has such a property.
const SOLID_NAMES: [&str; 4] = ["collision", "solid", "wall", "obstacle"];
/// The string property naming a tile's or a tile layer's terrain.
const TERRAIN_PROPERTY: &str = "terrain";

/// What the tilesets say of their tiles, by gid: a wall (marked solid) or a terrain.
type TileKinds = BTreeMap<u32, Tile>;

/// A Tiled map as navlab reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct TiledImport {
    /// The map: walls where collision layers or solid tiles are, grass elsewhere.
    pub map: TileMap,
    /// The names of the layers that became walls.
    pub wall_layers: Vec<String>,
    /// How many kinds of tile marked solid in a tileset are placed on the map (walls wherever
    /// they are).
    pub solid_tiles: usize,
    /// How many objects marked solid themselves, outside collision layers, became walls.
    pub solid_objects: usize,
    /// How many cells took a terrain (sand, water, hole, grass) from their tile's class or
    /// `terrain` property, or their layer's `terrain` property.
    pub terrain_cells: usize,
}

impl TiledImport {
    /// Where the walls came from, for messages: "layer Walls", "3 tiles marked solid in the
    /// tileset", or both joined by "and".
    pub fn wall_sources(&self) -> String {
        let mut parts = Vec::new();
        if !self.wall_layers.is_empty() {
            let names = crate::input::printable(&self.wall_layers.join(", "));
            parts.push(format!("layer {names}"));
        }
        if self.solid_tiles > 0 {
            parts.push(format!(
                "{} marked solid in the tileset",
                count(self.solid_tiles, "tile")
            ));
        }
        if self.solid_objects > 0 {
            parts.push(format!(
                "{} marked solid",
                count(self.solid_objects, "object")
            ));
        }
        parts.join(" and ")
    }

    /// What was read besides walls, for messages: "terrain for 40 cells", or nothing.
    pub fn terrain_summary(&self) -> Option<String> {
        (self.terrain_cells > 0)
            .then(|| format!("terrain for {}", count(self.terrain_cells, "cell")))
    }
}

/// True for the extensions this module reads (`tmx`, `tmj`, any case).
pub fn is_tiled_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tmx") || e.eq_ignore_ascii_case("tmj"))
}

/// Reads a `.tmx` or `.tmj` file (by extension).
pub fn load(path: &Path) -> Result<TiledImport, MapError> {
    let (bytes, file) = read_map_file(path, crate::input::MAX_TILED_BYTES, "a Tiled map")?;
    let dir = path.parent();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tmj"))
    {
        tmj::parse_tmj_in(&bytes, &file, dir)
    } else {
        tmx::parse_tmx_in(&bytes, &file, dir)
    }
}

/// Reads a `.tmx` or `.tmj` file's bytes already in memory (by the extension of `file`, which
/// names it in errors), with the limits of [`load`]. With no folder to look in, a tileset in a
/// file of its own is refused by name.
pub fn parse(bytes: &[u8], file: &str) -> Result<TiledImport, MapError> {
    crate::input::check_size(bytes, crate::input::MAX_TILED_BYTES, "a Tiled map").map_err(|e| {
        MapError::Invalid {
            file: file.to_string(),
            message: e.to_string(),
        }
    })?;
    if Path::new(file)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tmj"))
    {
        tmj::parse_tmj_in(bytes, file, None)
    } else {
        tmx::parse_tmx_in(bytes, file, None)
    }
}

/// One layer: its name, whether a property marks it solid, what it holds, and where it is:
/// the line it starts on when known as it is read (TMX), else its place in the file's
/// depth-first order of layers, groups included (TMJ: the line is looked up from it when an
/// error needs it).
struct Layer {
    name: String,
    solid: bool,
    /// The terrain its `terrain` property (else its class) gives its tiles.
    terrain: Option<Tile>,
    content: Content,
    line: Option<usize>,
    order: usize,
    /// Its offset in pixels, with those of the groups it is in (Tiled's `offsetx`, `offsety`).
    offset: (f64, f64),
}

/// What a layer holds.
enum Content {
    /// A tile layer's gids, row-major.
    Tiles(Vec<u32>),
    /// An object layer's objects.
    Objects(Vec<LayerObject>),
}

/// An object of an object layer.
struct LayerObject {
    /// Its area; `None` for points, polylines and text, which enclose none.
    area: Option<ObjectShape>,
    /// Marked solid itself.
    solid: bool,
    /// The template file its shape comes from (templates are not read).
    template: Option<String>,
    /// The line it is on (TMX; else its layer's).
    line: Option<usize>,
}

impl Layer {
    fn gids(&self) -> &[u32] {
        match &self.content {
            Content::Tiles(gids) => gids,
            Content::Objects(_) => &[],
        }
    }
}

/// What is left of the tiles the layers of one map may hold together
/// ([`crate::input::MAX_TILED_TILES`]): each tile layer takes the map's size before it is
/// decoded, so that no layer, compressed or not, is inflated past it.
pub(super) struct TileBudget(usize);

impl TileBudget {
    pub(super) fn new() -> Self {
        Self(crate::input::MAX_TILED_TILES)
    }

    /// Takes one more tile layer of `cells` cells, or says why not.
    pub(super) fn take_layer(&mut self, cells: usize) -> Result<(), String> {
        match self.0.checked_sub(cells) {
            Some(left) => {
                self.0 = left;
                Ok(())
            }
            None => Err(format!(
                "the tile layers hold more than {} tiles in all (each layer is the map's width \
                 × height), the most navlab reads of a map",
                crate::words::thousands(crate::input::MAX_TILED_TILES)
            )),
        }
    }
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
        "layer {}: {} data is not supported; in Tiled set Map > Map Properties > \
         Tile Layer Format to CSV and save again",
        crate::input::quoted(layer),
        crate::input::quoted(encoding)
    )
}

/// Gids stored as base64 of little-endian 32-bit numbers, maybe zlib- or gzip-compressed;
/// `cells` is how many the map needs (more is an error, and bounds the decompression).
fn decode_base64(text: &str, compression: &str, cells: usize) -> Result<Vec<u32>, String> {
    use base64::Engine;
    use std::io::Read;
    let packed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(packed)
        .map_err(|e| format!("the base64 data is broken: {e}"))?;
    let limit = (cells as u64 + 1) * 4;
    let mut raw = Vec::new();
    let inflated = match compression {
        "" => {
            raw = bytes;
            Ok(0)
        }
        "zlib" => flate2::read::ZlibDecoder::new(bytes.as_slice())
            .take(limit)
            .read_to_end(&mut raw),
        "gzip" => flate2::read::GzDecoder::new(bytes.as_slice())
            .take(limit)
            .read_to_end(&mut raw),
        "zstd" => ruzstd::decoding::StreamingDecoder::new(bytes.as_slice())
            .map_err(std::io::Error::other)
            .and_then(|decoder| decoder.take(limit).read_to_end(&mut raw)),
        other => {
            return Err(format!(
                "{other} compression is not supported; in Tiled set Map > Map Properties > Tile \
                 Layer Format to CSV or Base64 (zlib) and save again"
            ));
        }
    };
    inflated.map_err(|e| format!("the {compression} data is broken: {e}"))?;
    if raw.len() % 4 != 0 {
        return Err(format!(
            "{} bytes of tile data is not a whole number of 4-byte gids",
            raw.len()
        ));
    }
    Ok(raw
        .chunks_exact(4)
        .filter_map(|b| b.try_into().ok().map(u32::from_le_bytes))
        .collect())
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
                .map_err(|_| format!("{} is not a tile gid", crate::input::quoted(s)))
        })
        .collect()
}

/// The terrain a `terrain` property names, or why it names none (`what` says whose it is).
fn terrain_named(value: &str, what: &str) -> Result<Tile, String> {
    Tile::from_name(value).ok_or_else(|| {
        format!(
            "the terrain {} of {what} is not one of grass, sand, water, wall, hole (as a \
             tile's class or its `terrain` property)",
            crate::input::quoted(value)
        )
    })
}

/// What a tile's class says of it: a terrain when it is a tile's name, else nothing (classes
/// have other uses: "Chest", "Door").
fn terrain_of_class(class: Option<&str>) -> Option<Tile> {
    class.and_then(Tile::from_name)
}

/// What an external tileset file (`.tsx` XML, else `.tsj` or `.json`), named relative to the
/// map's folder `dir`, says of its tiles (see [`tile_kinds_in_tsx`]). Only a tileset in that
/// folder or below it is read, and only by a tileset's extension: a map shared by a stranger
/// cannot make navlab read other files. What a tileset holds is never quoted in an error.
fn external_tileset(source: &str, dir: Option<&Path>) -> Result<Vec<(u32, Tile)>, String> {
    let shown = crate::input::quoted(source);
    let Some(dir) = dir else {
        return Err(format!(
            "the external tileset {shown} can only be read when the map is opened from a file"
        ));
    };
    let outside = || {
        format!(
            "the external tileset {shown} is outside the map's folder: navlab reads tilesets \
             in the map's folder or below it (in Tiled, keep the tileset beside the map)"
        )
    };
    let relative = Path::new(source);
    let plain = relative.components().all(|c| {
        matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    });
    if !plain {
        return Err(outside());
    }
    let extension = Path::new(source)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let xml = match extension.as_deref() {
        Some("tsx") => true,
        Some("tsj" | "json") => false,
        _ => {
            return Err(format!(
                "the external tileset {shown} is not a .tsx, .tsj or .json file: navlab reads \
                 only tilesets"
            ));
        }
    };
    // Links are followed to where they lead, which must be in the folder too.
    let folder = std::fs::canonicalize(dir).map_err(|_| outside())?;
    let path = std::fs::canonicalize(folder.join(relative))
        .map_err(|_| format!("the external tileset {shown} is not in the map's folder"))?;
    if !path.starts_with(&folder) {
        return Err(outside());
    }
    let bytes = crate::input::read_file(&path, crate::input::MAX_TILED_BYTES, "a tileset")
        .map_err(|e| format!("the external tileset {shown}: {e}"))?;
    let broken = |why: &str| format!("the external tileset {shown} is not a valid tileset: {why}");
    let kinds = if xml {
        let text = std::str::from_utf8(&bytes).map_err(|_| broken("not text"))?;
        let doc = roxmltree::Document::parse(text)
            .map_err(|e| broken(&format!("broken XML at line {}", e.pos().row)))?;
        tile_kinds_in_tsx(doc.root_element())
    } else {
        let tileset: TmjTileset = serde_json::from_slice(&bytes)
            .map_err(|e| broken(&format!("not the JSON of a tileset at line {}", e.line())))?;
        tileset.tile_kinds()
    };
    // Its own words may quote it: only what kind of problem it is leaves this function.
    kinds.map_err(|_| broken("a tile's terrain names no tile (grass, sand, water, wall or hole)"))
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

    /// The map as rows of `#` (wall) and `.`.
    fn picture(map: &TileMap) -> Vec<String> {
        (0..map.height())
            .map(|y| {
                (0..map.width())
                    .map(|x| {
                        if map.get((x, y)) == Some(Tile::Wall) {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn objects_in_collision_layers_and_objects_marked_solid_are_walls_in_both_formats() {
        let solid =
            "<properties><property name=\"solid\" type=\"bool\" value=\"true\"/></properties>";
        let xml = format!(
            "<map orientation=\"orthogonal\" width=\"6\" height=\"4\" tilewidth=\"16\" tileheight=\"16\">
<layer name=\"Ground\"><data encoding=\"csv\">{zeros}</data></layer>
<objectgroup name=\"Collision\">
 <object id=\"1\" x=\"0\" y=\"0\" width=\"32\" height=\"16\"/>
 <object id=\"2\" x=\"64\" y=\"0\" width=\"32\" height=\"32\"><ellipse/></object>
 <object id=\"3\" x=\"0\" y=\"32\"><polygon points=\"0,0 48,0 0,32\"/></object>
 <object id=\"4\" x=\"90\" y=\"50\"><point/></object>
 <object id=\"5\" x=\"96\" y=\"48\" width=\"32\" height=\"16\" rotation=\"180\"/>
</objectgroup>
<objectgroup name=\"Props\">
 <object id=\"6\" x=\"48\" y=\"48\" width=\"16\" height=\"16\">{solid}</object>
 <object id=\"7\" x=\"32\" y=\"16\" width=\"16\" height=\"16\"/>
</objectgroup>
</map>",
            zeros = ["0"; 24].join(",")
        );
        let json = format!(
            r#"{{"width": 6, "height": 4, "tilewidth": 16, "tileheight": 16, "layers": [
  {{"name": "Ground", "type": "tilelayer", "data": [{zeros}]}},
  {{"name": "Collision", "type": "objectgroup", "objects": [
    {{"x": 0, "y": 0, "width": 32, "height": 16}},
    {{"x": 64, "y": 0, "width": 32, "height": 32, "ellipse": true}},
    {{"x": 0, "y": 32, "polygon": [{{"x": 0, "y": 0}}, {{"x": 48, "y": 0}}, {{"x": 0, "y": 32}}]}},
    {{"x": 90, "y": 50, "point": true}},
    {{"x": 96, "y": 48, "width": 32, "height": 16, "rotation": 180}}]}},
  {{"name": "Props", "type": "objectgroup", "objects": [
    {{"x": 48, "y": 48, "width": 16, "height": 16,
      "properties": [{{"name": "solid", "type": "bool", "value": true}}]}},
    {{"x": 32, "y": 16, "width": 16, "height": 16}}]}}]}}"#,
            zeros = ["0"; 24].join(",")
        );
        let from_xml = parse_tmx(xml.as_bytes(), "objects.tmx").expect("tmx");
        let from_json = parse_tmj(json.as_bytes(), "objects.tmj").expect("tmj");
        assert_eq!(
            picture(&from_xml.map),
            ["##..##", "....##", "##..##", "#..#.."],
            "rectangle, ellipse, polygon, turned rectangle; the point encloses nothing"
        );
        assert_eq!(from_json, from_xml);
        assert_eq!(from_xml.wall_layers, ["Collision"]);
        assert_eq!(from_xml.solid_objects, 1);
        assert_eq!(
            from_xml.wall_sources(),
            "layer Collision and 1 object marked solid"
        );
    }

    #[test]
    fn layer_and_group_offsets_move_walls_in_both_formats() {
        // A group offset by one tile right holds a tile layer offset one tile down and an object
        // layer offset by half a tile; a tile layer offset beyond the map walls nothing there.
        let xml = "<map orientation=\"orthogonal\" width=\"4\" height=\"3\" tilewidth=\"16\" tileheight=\"16\">
<group name=\"Level\" offsetx=\"16\">
 <layer name=\"Collision\" offsety=\"16\"><data encoding=\"csv\">1,0,0,1,0,0,0,0,0,0,0,0</data></layer>
 <objectgroup name=\"Collision shapes\" offsetx=\"4\" offsety=\"-8\">
  <object id=\"1\" x=\"0\" y=\"40\" width=\"16\" height=\"16\"/>
 </objectgroup>
</group>
</map>";
        let json = r#"{"width": 4, "height": 3, "tilewidth": 16, "tileheight": 16, "layers": [
  {"name": "Level", "type": "group", "offsetx": 16, "layers": [
    {"name": "Collision", "type": "tilelayer", "offsety": 16,
     "data": [1,0,0,1,0,0,0,0,0,0,0,0]},
    {"name": "Collision shapes", "type": "objectgroup", "offsetx": 4, "offsety": -8,
     "objects": [{"x": 0, "y": 40, "width": 16, "height": 16}]}]}]}"#;
        let from_xml = parse_tmx(xml.as_bytes(), "offsets.tmx").expect("tmx");
        let from_json = parse_tmj(json.as_bytes(), "offsets.tmj").expect("tmj");
        // The tile at (0, 0) lands on (1, 1); the one at (3, 0) would be at (4, 1), off the map.
        // The square spans x 20–36, y 32–48: it holds the centre of cell (1, 2) only.
        assert_eq!(picture(&from_xml.map), ["....", ".#..", ".#.."]);
        assert_eq!(from_json, from_xml);
    }

    #[test]
    fn a_tile_layer_offset_by_part_of_a_tile_is_an_error_with_its_line() {
        let xml = "<map orientation=\"orthogonal\" width=\"2\" height=\"1\" tilewidth=\"16\" tileheight=\"16\">
<layer name=\"Decor\" offsetx=\"8\"><data encoding=\"csv\">1,1</data></layer>
<layer name=\"Walls\" offsetx=\"8\">
<data encoding=\"csv\">1,0</data></layer>
</map>";
        let error = parse_tmx(xml.as_bytes(), "half.tmx").expect_err("half a tile");
        let text = error.to_string();
        assert!(text.contains("half.tmx:4"), "{text}");
        assert!(text.contains("`Walls` is offset by 8 × 0 px"), "{text}");
        // A layer that walls nothing (Decor) may be offset by anything; an unreadable offset
        // is an error on its own line.
        let unreadable = xml.replace(
            "</map>",
            "<layer name=\"Bad\" offsety=\"x\"><data encoding=\"csv\">0,0</data></layer>\n</map>",
        );
        let text = parse_tmx(unreadable.as_bytes(), "half.tmx")
            .expect_err("not a number")
            .to_string();
        assert!(
            text.contains("half.tmx:5") && text.contains("offsety `x`"),
            "{text}"
        );
        let json = r#"{"width": 2, "height": 1, "tilewidth": 16, "tileheight": 16, "layers": [
  {"name": "Walls", "type": "tilelayer", "offsetx": 8, "data": [1, 0]}]}"#;
        let text = parse_tmj(json.as_bytes(), "half.tmj")
            .expect_err("half a tile")
            .to_string();
        assert!(text.contains("half.tmj:2"), "{text}");
    }

    #[test]
    fn objects_that_cannot_be_placed_are_errors_with_the_line() {
        let map = |size: &str, objects: &str| {
            format!(
                "<map orientation=\"orthogonal\" width=\"2\" height=\"2\"{size}>\n<objectgroup name=\"Walls\">\n{objects}</objectgroup>\n</map>"
            )
        };
        for (text, line, says) in [
            (
                map(
                    " tilewidth=\"8\" tileheight=\"8\"",
                    "<object x=\"0\" y=\"0\"><polygon points=\"0,0 8,x 0,8\"/></object>\n",
                ),
                3,
                "polygon points `0,0 8,x 0,8` are not x,y pairs",
            ),
            (
                map(
                    " tilewidth=\"8\" tileheight=\"8\"",
                    "<object x=\"0\" y=\"0\"><polygon points=\"0,0 8,8\"/></object>\n",
                ),
                3,
                "a polygon needs 3 points",
            ),
            (
                map(
                    " tilewidth=\"8\" tileheight=\"8\"",
                    "\n<object x=\"zero\" y=\"0\" width=\"8\" height=\"8\"/>\n",
                ),
                4,
                "object attribute x `zero` is not a number",
            ),
            (
                map("", "<object x=\"0\" y=\"0\" width=\"8\" height=\"8\"/>\n"),
                1,
                "the map's tile size (tilewidth × tileheight) is missing",
            ),
            (
                map(
                    " tilewidth=\"8\" tileheight=\"8\"",
                    "<object x=\"0\" y=\"0\"/>\n<object template=\"rock.tx\" x=\"8\" y=\"8\"/>\n",
                ),
                4,
                "takes its shape from the template `rock.tx`",
            ),
        ] {
            let error = parse_tmx(text.as_bytes(), "o.tmx")
                .expect_err(&text)
                .to_string();
            assert!(error.starts_with(&format!("o.tmx:{line}: ")), "{error}");
            assert!(error.contains(says), "{error}");
        }
        let json = "{\"width\": 2, \"height\": 2, \"tilewidth\": 8, \"tileheight\": 8, \"layers\": [\n{\"name\": \"Walls\", \"type\": \"objectgroup\", \"objects\": [{\"polygon\": [{\"x\": 0, \"y\": 0}]}]}]}";
        let error = parse_tmj(json.as_bytes(), "o.tmj")
            .expect_err("2 points")
            .to_string();
        assert!(
            error.starts_with("o.tmj:2: layer `Walls`: a polygon needs 3 points"),
            "{error}"
        );
        let no_size = "{\"width\": 2, \"height\": 2, \"layers\": [\n{\"name\": \"Walls\", \"type\": \"objectgroup\", \"objects\": [{\"width\": 8, \"height\": 8}]}]}";
        let error = parse_tmj(no_size.as_bytes(), "o.tmj")
            .expect_err("no size")
            .to_string();
        assert!(error.starts_with("o.tmj: the map's tile size"), "{error}");
    }

    #[test]
    fn tiles_marked_solid_in_a_tileset_are_walls_in_any_layer() {
        // Tile id 4 of a tileset starting at gid 10 is solid: gid 14, also flipped.
        let tileset = "<tileset firstgid=\"10\" name=\"t\"><tile id=\"4\"><properties>\
                       <property name=\"collides\" type=\"bool\" value=\"true\"/>\
                       </properties></tile><tile id=\"5\"/></tileset>";
        let text = tmx(&format!(
            "{tileset}<layer name=\"Ground\"><data encoding=\"csv\">\
             14,15,10,0,0,2147483662</data></layer>"
        ));
        let import = parse_tmx(text.as_bytes(), "t.tmx").expect("imports");
        assert_eq!(import.wall_layers, Vec::<String>::new());
        assert_eq!(import.solid_tiles, 1);
        assert_eq!(import.wall_sources(), "1 tile marked solid in the tileset");
        let walls: Vec<_> = (0..6)
            .filter(|&i| import.map.tiles()[i] == Tile::Wall)
            .collect();
        assert_eq!(walls, [0, 5]);

        // The same from JSON, with an external tileset read beside the map.
        let dir = std::env::temp_dir().join(format!("navlab-tiled-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(
            dir.join("walls.tsx"),
            tileset.replace(" firstgid=\"10\"", ""),
        )
        .expect("write tsx");
        let json = "{\"width\": 3, \"height\": 2, \"tilesets\": [{\"firstgid\": 10, \
                    \"source\": \"walls.tsx\"}], \"layers\": [{\"type\": \"tilelayer\", \
                    \"name\": \"Ground\", \"data\": [14, 15, 10, 0, 0, 2147483662]}]}";
        let map_path = dir.join("m.tmj");
        std::fs::write(&map_path, json).expect("write tmj");
        let loaded = load(&map_path).expect("loads with its tileset");
        assert_eq!(loaded.map, import.map);
        // From bytes alone the external tileset cannot be found: said, not guessed.
        let error = parse_tmj(json.as_bytes(), "m.tmj")
            .expect_err("external")
            .to_string();
        assert!(error.contains("external tileset `walls.tsx`"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The map as rows of MovingAI characters (`.` grass, `S`, `W`, `@`, `O`).
    fn rows(map: &TileMap) -> Vec<String> {
        (0..map.height())
            .map(|y| {
                (0..map.width())
                    .map(|x| map.get((x, y)).map_or('?', Tile::to_char))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn tiles_and_layers_name_their_terrain_and_walls_cover_it_in_both_formats() {
        // Tileset (gid 1 + id): 0 class Water, 1 `terrain` property "sand", 2 type "Hole" (the
        // name before Tiled 1.9), 3 class Chest (not a terrain), 4 class Water but solid: a wall.
        let xml = "<map orientation=\"orthogonal\" width=\"4\" height=\"3\" tilewidth=\"16\" tileheight=\"16\">
<tileset firstgid=\"1\" name=\"t\">
 <tile id=\"0\" class=\"Water\"/>
 <tile id=\"1\"><properties><property name=\"terrain\" value=\"sand\"/></properties></tile>
 <tile id=\"2\" type=\"Hole\"/>
 <tile id=\"3\" class=\"Chest\"/>
 <tile id=\"4\" class=\"Water\"><properties><property name=\"solid\" type=\"bool\" value=\"true\"/></properties></tile>
</tileset>
<layer name=\"Ground\"><data encoding=\"csv\">1,2,3,4,5,0,0,0,0,0,0,0</data></layer>
<layer name=\"Lake\" class=\"water\">
<data encoding=\"csv\">0,0,0,0,0,9,9,0,4,0,2,0</data></layer>
<layer name=\"Collision\"><data encoding=\"csv\">0,0,0,0,0,0,9,0,0,0,0,0</data></layer>
</map>";
        let json = r#"{"width": 4, "height": 3, "tilewidth": 16, "tileheight": 16,
 "tilesets": [{"firstgid": 1, "tiles": [
   {"id": 0, "class": "Water"},
   {"id": 1, "properties": [{"name": "terrain", "type": "string", "value": "sand"}]},
   {"id": 2, "type": "Hole"},
   {"id": 3, "class": "Chest"},
   {"id": 4, "class": "Water", "properties": [{"name": "solid", "type": "bool", "value": true}]}]}],
 "layers": [
  {"name": "Ground", "type": "tilelayer", "data": [1,2,3,4,5,0,0,0,0,0,0,0]},
  {"name": "Lake", "type": "tilelayer", "data": [0,0,0,0,0,9,9,0,4,0,2,0],
   "properties": [{"name": "terrain", "type": "string", "value": "Water"}]},
  {"name": "Collision", "type": "tilelayer", "data": [0,0,0,0,0,0,9,0,0,0,0,0]}]}"#;
        let from_xml = parse_tmx(xml.as_bytes(), "terrain.tmx").expect("tmx");
        let from_json = parse_tmj(json.as_bytes(), "terrain.tmj").expect("tmj");
        // Row 0: water, sand, hole, a chest (grass: no terrain, nor has its layer). Row 1: the
        // solid tile, then the Lake layer's water, one cell of it under the collision layer's
        // wall. Row 2: in the Lake layer the chest takes the layer's water, the sand tile keeps
        // its own terrain.
        assert_eq!(rows(&from_xml.map), ["WSO.", "@W@.", "W.S."]);
        assert_eq!(from_json, from_xml);
        assert_eq!(from_xml.wall_layers, ["Collision"]);
        assert_eq!(from_xml.solid_tiles, 1);
        assert_eq!(
            from_xml.terrain_summary().as_deref(),
            Some("terrain for 7 cells")
        );
    }

    #[test]
    fn a_terrain_that_names_no_tile_is_an_error_with_its_line() {
        let xml = "<map orientation=\"orthogonal\" width=\"1\" height=\"1\">
<layer name=\"Lava\">
<properties><property name=\"terrain\" value=\"lava\"/></properties>
<data encoding=\"csv\">1</data></layer>
</map>";
        let text = parse_tmx(xml.as_bytes(), "lava.tmx")
            .expect_err("lava")
            .to_string();
        assert!(
            text.contains("lava.tmx:2") && text.contains("`lava` of layer `Lava`"),
            "{text}"
        );
        let json = r#"{"width": 1, "height": 1, "tilesets": [{"firstgid": 1, "tiles": [
  {"id": 0, "properties": [{"name": "terrain", "value": 3}]}]}],
 "layers": [{"name": "G", "type": "tilelayer", "data": [1]}]}"#;
        let text = parse_tmj(json.as_bytes(), "lava.tmj")
            .expect_err("a number")
            .to_string();
        assert!(
            text.contains("lava.tmj:1") && text.contains("of tile 0"),
            "{text}"
        );
    }

    /// Gids as Tiled writes them in base64, compressed as asked.
    fn base64_of(gids: &[u32], compression: &str) -> String {
        use base64::Engine;
        use std::io::Write;
        let raw: Vec<u8> = gids.iter().flat_map(|g| g.to_le_bytes()).collect();
        let packed = match compression {
            "zlib" => {
                let mut z = flate2::write::ZlibEncoder::new(Vec::new(), Default::default());
                z.write_all(&raw).expect("in memory");
                z.finish().expect("in memory")
            }
            "gzip" => {
                let mut z = flate2::write::GzEncoder::new(Vec::new(), Default::default());
                z.write_all(&raw).expect("in memory");
                z.finish().expect("in memory")
            }
            // Made by the reference implementation (`zstd -19`, v1.5.4) from the gids of
            // `base64_layers_read_plain_zlib_gzip_and_zstd_in_both_formats`.
            "zstd" => {
                assert_eq!(gids, [0, 9, 0, 0, 0x4000_0001, 0], "the one zstd sample");
                return "KLUv/SQYpQAAcAAAAAAJAAEAAEAAAAAAAQAbKAIoX9Sc".to_string();
            }
            _ => raw,
        };
        base64::engine::general_purpose::STANDARD.encode(packed)
    }

    #[test]
    fn base64_layers_read_plain_zlib_gzip_and_zstd_in_both_formats() {
        let gids = [0, 9, 0, 0, 0x4000_0001, 0];
        for compression in ["", "zlib", "gzip", "zstd"] {
            let data = base64_of(&gids, compression);
            let xml = tmx(&format!(
                "<layer name=\"Collision\"><data encoding=\"base64\" \
                 compression=\"{compression}\">\n   {data}\n</data></layer>"
            ));
            let json = format!(
                "{{\"width\": 3, \"height\": 2, \"orientation\": \"orthogonal\", \"layers\": \
                 [{{\"type\": \"tilelayer\", \"name\": \"Collision\", \"encoding\": \
                 \"base64\", \"compression\": \"{compression}\", \"data\": \"{data}\"}}]}}"
            );
            for import in [
                parse_tmx(xml.as_bytes(), "b.tmx").expect(compression),
                parse_tmj(json.as_bytes(), "b.tmj").expect(compression),
            ] {
                let walls: Vec<usize> = (0..6)
                    .filter(|&i| import.map.tiles()[i] == Tile::Wall)
                    .collect();
                assert_eq!(walls, [1, 4], "{compression}");
            }
        }
        // Broken data and unknown compression say so; too much data is refused, not inflated.
        let too_many = base64_of(&[1; 600], "zlib");
        for (data, compression, says) in [
            ("!!!", "", "the base64 data is broken"),
            (
                base64_of(&gids, "zlib").as_str(),
                "lz4",
                "lz4 compression is not supported",
            ),
            (
                base64_of(&gids, "zlib").as_str(),
                "zstd",
                "the zstd data is broken",
            ),
            ("AAAA", "zlib", "the zlib data is broken"),
            (too_many.as_str(), "zlib", "has 7 cells, the map 3 × 2 = 6"),
        ] {
            let xml = tmx(&format!(
                "<layer name=\"Collision\">\n<data encoding=\"base64\" \
                 compression=\"{compression}\">{data}</data></layer>"
            ));
            let error = parse_tmx(xml.as_bytes(), "b.tmx")
                .expect_err(says)
                .to_string();
            assert!(
                error.starts_with("b.tmx:4: ") && error.contains(says),
                "{error}"
            );
        }
    }

    #[test]
    fn what_cannot_be_read_is_said_with_the_line() {
        for (text, line, says) in [
            (
                tmx("<layer name=\"Collision\">\n<data encoding=\"binary\">AAAA</data></layer>"),
                4,
                "`binary` data is not supported",
            ),
            (
                tmx("<layer name=\"Collision\">\n<data encoding=\"csv\">1,2</data></layer>"),
                4,
                "has 2 cells, the map 3 × 2 = 6",
            ),
            (
                tmx("<layer name=\"Ground\"><data encoding=\"csv\">0,0,0,0,0,0</data></layer>"),
                0,
                "no collision layer among the tile and object layers (`Ground`)",
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

    #[test]
    fn tiled_json_errors_name_the_line_of_the_layer_or_field() {
        let map = |fields: &str, layers: &str| {
            format!(
                "{{\"width\": 3, \"height\": 2,{fields}\n\"tilesets\": [],\n\"layers\": [{layers}]}}"
            )
        };
        let ground = "\n{\"name\": \"Ground\", \"type\": \"tilelayer\", \"data\": [0,0,0,0,0,0]}";
        for (text, line, says) in [
            (
                map(
                    "",
                    &format!(
                        "{ground},\n{{\"name\": \"Walls\", \"type\": \"tilelayer\", \"data\": [1, 2]}}"
                    ),
                ),
                5,
                "layer `Walls` has 2 cells, the map 3 × 2 = 6",
            ),
            (
                map(
                    "",
                    &format!(
                        "{ground},\n{{\"type\": \"group\", \"layers\": [\n{{\"type\": \"objectgroup\"}},\n{{\"name\": \"Walls\", \"type\": \"tilelayer\", \"data\": [1, -2, 0, 0, 0, 0]}}]}}"
                    ),
                ),
                7,
                "layer `Walls`: a tile gid is not a number",
            ),
            (
                map(
                    "",
                    "\n{\"name\": \"Walls\", \"type\": \"tilelayer\", \"encoding\": \"base64\", \"compression\": \"zstd\", \"data\": \"AAAA\"}",
                ),
                4,
                "the zstd data is broken",
            ),
            (
                map("\n\"orientation\": \"hexagonal\",", ""),
                2,
                "hexagonal maps",
            ),
            (map("\n\n\"infinite\": true,", ""), 3, "infinite maps"),
            (
                "{\"width\": 3,\n\"height\": 0, \"layers\": []}".to_string(),
                2,
                "map height 0 is not a size",
            ),
            (
                map("", ground),
                0,
                "no collision layer among the tile and object layers (`Ground`)",
            ),
        ] {
            let error = parse_tmj(text.as_bytes(), "bad.tmj")
                .expect_err(&text)
                .to_string();
            let expected = if line > 0 {
                format!("bad.tmj:{line}: ")
            } else {
                "bad.tmj: ".to_string()
            };
            assert!(error.starts_with(&expected), "{error}\n{text}");
            assert!(error.contains(says), "{error}");
        }
        let external = "{\"width\": 1, \"height\": 1, \"layers\": [],\n\"tilesets\": [{\"firstgid\": 1},\n {\"firstgid\": 5, \"source\": \"missing.tsj\"}]}";
        let error = parse_tmj(external.as_bytes(), "t.tmj")
            .expect_err("no tileset")
            .to_string();
        assert!(error.starts_with("t.tmj:3: "), "{error}");
    }
}
