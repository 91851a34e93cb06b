//! Files: MovingAI benchmark `.map` (read and write) and `.scen` (read), and navlab's own map
//! format (JSON, keeps custom costs). Saving is atomic: a temporary file, then a rename.
//!
//! `.map` characters: `.` and `G` grass, `S` sand, `W` water, `T` and `@` wall, `O` hole.
//! MovingAI itself treats `W` (water) and `O` (out of bounds) as blocked; here water is
//! swimmable and `O` is a hole, as in the pursuit article. The benchmark maps use only `.`, `T`
//! and `@`, so their answers are unchanged.

use super::map::{Cell, MapError, TileMap, read_map_file};
use super::tiles::{Tile, TileCosts};
use crate::input::json_lines::{json_array_string_lines, json_key_line};
use crate::input::{MAX_MAP_BYTES, MAX_SCENARIO_BYTES};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Reads a `.map` file.
pub fn load_map(path: &Path) -> Result<TileMap, MapError> {
    let (bytes, file) = read_map_file(path, MAX_MAP_BYTES, "a tile map")?;
    parse_map(&bytes, &file)
}

/// Parses `.map` text; `file` names it in errors.
pub fn parse_map(bytes: &[u8], file: &str) -> Result<TileMap, MapError> {
    let syntax = |line: usize, message: String| MapError::Syntax {
        file: file.to_string(),
        line,
        message,
    };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        syntax(line, "not a text file".to_string())
    })?;
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r')).enumerate();
    let mut header = |word: &str| -> Result<(usize, String), MapError> {
        let (i, line) = lines
            .next()
            .ok_or_else(|| syntax(1, format!("the file ends before the `{word}` line")))?;
        let mut parts = line.split_whitespace();
        if parts.next() != Some(word) {
            return Err(syntax(
                i + 1,
                format!(
                    "expected `{word} …`, found {}: not a MovingAI map",
                    crate::input::quoted(line)
                ),
            ));
        }
        Ok((i + 1, parts.collect::<Vec<_>>().join(" ")))
    };
    let (_, kind) = header("type")?;
    if kind != "octile" {
        return Err(syntax(
            1,
            format!(
                "map type {} is not supported (octile is)",
                crate::input::quoted(&kind)
            ),
        ));
    }
    let mut dimension = |word: &str| -> Result<usize, MapError> {
        let (line, value) = header(word)?;
        match value.parse::<usize>() {
            Ok(n) if (1..=super::map::MAX_SIDE).contains(&n) => Ok(n),
            _ => Err(syntax(
                line,
                format!(
                    "{word} {} is not a size from 1 to {}",
                    crate::input::quoted(&value),
                    super::map::MAX_SIDE
                ),
            )),
        }
    };
    let height = dimension("height")?;
    let width = dimension("width")?;
    header("map")?;
    let mut rows = Vec::with_capacity(height);
    for (i, line) in lines.by_ref() {
        if rows.len() == height {
            if line.trim().is_empty() {
                continue;
            }
            return Err(syntax(
                i + 1,
                format!("more than the {height} rows the header announces"),
            ));
        }
        rows.push(parse_row(line, width, "the header says").map_err(|m| syntax(i + 1, m))?);
    }
    if rows.len() != height {
        return Err(MapError::Invalid {
            file: file.to_string(),
            message: format!("{} rows, the header says {height}", rows.len()),
        });
    }
    TileMap::from_rows(rows).ok_or_else(|| MapError::Invalid {
        file: file.to_string(),
        message: "the map is empty".to_string(),
    })
}

/// One row of tiles, exactly `width` long; the error says what is wrong (`says` names where
/// the width comes from).
fn parse_row(text: &str, width: usize, says: &str) -> Result<Vec<Tile>, String> {
    let row: Vec<Tile> = text
        .chars()
        .enumerate()
        .map(|(x, c)| {
            Tile::from_char(c).ok_or_else(|| {
                format!(
                    "unknown tile {} in column {x}",
                    crate::input::quoted(&c.to_string())
                )
            })
        })
        .collect::<Result<_, _>>()?;
    if row.len() != width {
        return Err(format!("row has {} tiles, {says} {width}", row.len()));
    }
    Ok(row)
}

/// The `.map` text of a map (custom costs are not kept: use [`to_navlab_json`] for that).
pub fn to_map_text(map: &TileMap) -> String {
    let mut out = format!(
        "type octile\nheight {}\nwidth {}\nmap\n",
        map.height(),
        map.width()
    );
    for row in map.tiles().chunks(map.width()) {
        out.extend(row.iter().map(|t| t.to_char()));
        out.push('\n');
    }
    out
}

/// One scenario of a `.scen` file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenario {
    /// Difficulty bucket.
    pub bucket: u32,
    /// The map named in the file (a relative path; match on the file name).
    pub map: String,
    /// The size of that map as listed: columns, rows.
    pub map_size: (usize, usize),
    /// Start cell.
    pub start: Cell,
    /// Goal cell.
    pub goal: Cell,
    /// The optimal length listed (6 significant digits).
    pub optimal: f64,
    /// 1-based line in the file.
    pub line: usize,
}

/// Reads a `.scen` file.
pub fn load_scenarios(path: &Path) -> Result<Vec<Scenario>, MapError> {
    let (bytes, file) = read_map_file(path, MAX_SCENARIO_BYTES, "a scenario file")?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let line = bytes
            .get(..e.valid_up_to())
            .map_or(0, |valid| valid.iter().filter(|&&b| b == b'\n').count())
            + 1;
        MapError::Syntax {
            file: file.clone(),
            line,
            message: "not a text file".to_string(),
        }
    })?;
    parse_scenarios(text, &file)
}

/// Parses `.scen` text (`version 1`, then bucket, map, width, height, start x, start y, goal x,
/// goal y, optimal length; blank lines skipped).
pub fn parse_scenarios(text: &str, file: &str) -> Result<Vec<Scenario>, MapError> {
    let syntax = |line: usize, message: String| MapError::Syntax {
        file: file.to_string(),
        line,
        message,
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || (i == 0 && line.starts_with("version")) {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 9 {
            return Err(syntax(
                i + 1,
                format!("expected 9 fields, found {}", f.len()),
            ));
        }
        let int = |k: usize| -> Result<usize, MapError> {
            f[k].parse().map_err(|_| {
                syntax(
                    i + 1,
                    format!("{} is not a whole number", crate::input::quoted(f[k])),
                )
            })
        };
        let optimal: f64 = f[8]
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| {
                syntax(
                    i + 1,
                    format!("{} is not a length", crate::input::quoted(f[8])),
                )
            })?;
        let bucket = f[0].parse().map_err(|_| {
            syntax(
                i + 1,
                format!(
                    "bucket {} is not a whole number up to {}",
                    crate::input::quoted(f[0]),
                    u32::MAX
                ),
            )
        })?;
        out.push(Scenario {
            bucket,
            map: f[1].to_string(),
            map_size: (int(2)?, int(3)?),
            start: (int(4)?, int(5)?),
            goal: (int(6)?, int(7)?),
            optimal,
            line: i + 1,
        });
    }
    Ok(out)
}

/// True when `got` matches a length printed with 6 significant digits: within one unit in the
/// 6th significant digit (see `../shared/testdata/SOURCES.md` for why half a unit is not enough).
pub fn matches_six_digits(got: f64, want: f64) -> bool {
    if want == 0.0 {
        return got.abs() < 1e-9;
    }
    let unit = 10f64.powf((want.abs().log10()).floor() - 5.0);
    (got - want).abs() <= unit * (1.0 + 1e-9)
}

/// navlab's own map file.
#[derive(Debug, Serialize, Deserialize)]
struct NavlabMapFile {
    navlab_map: u32,
    width: usize,
    height: usize,
    costs: TileCosts,
    rows: Vec<String>,
}

/// The map as navlab JSON (keeps custom costs).
pub fn to_navlab_json(map: &TileMap) -> String {
    let file = NavlabMapFile {
        navlab_map: 1,
        width: map.width(),
        height: map.height(),
        costs: map.costs,
        rows: map
            .tiles()
            .chunks(map.width())
            .map(|r| r.iter().map(|t| t.to_char()).collect())
            .collect(),
    };
    serde_json::to_string_pretty(&file).unwrap_or_default()
}

/// Reads navlab JSON.
pub fn parse_navlab_json(bytes: &[u8], file: &str) -> Result<TileMap, MapError> {
    let invalid = |message: String| MapError::Invalid {
        file: file.to_string(),
        message,
    };
    let parsed: NavlabMapFile = serde_json::from_slice(bytes).map_err(|e| MapError::Syntax {
        file: file.to_string(),
        line: e.line(),
        message: format!("not a navlab map: {}", crate::input::json_problem(&e)),
    })?;
    if parsed.navlab_map != 1 {
        return Err(invalid(format!(
            "format version {} is not supported",
            parsed.navlab_map
        )));
    }
    if !parsed.costs.are_valid() {
        let range = TileCosts::RANGE;
        return Err(invalid(format!(
            "tile costs must be numbers from {} to {}",
            range.start(),
            crate::words::thousands_decimal(*range.end(), 0)
        )));
    }
    // serde has no positions for values: find the lines of the fields again, for messages.
    let text = String::from_utf8_lossy(bytes);
    let at = |line: Option<usize>, message: String| MapError::at(file, line, message);
    for (word, value) in [("width", parsed.width), ("height", parsed.height)] {
        if !(1..=super::map::MAX_SIDE).contains(&value) {
            return Err(at(
                json_key_line(&text, word),
                format!(
                    "{word} {value} is not a size from 1 to {}",
                    super::map::MAX_SIDE
                ),
            ));
        }
    }
    if parsed.rows.len() != parsed.height {
        return Err(at(
            json_key_line(&text, "rows"),
            format!(
                "{} rows, `height` says {}",
                parsed.rows.len(),
                parsed.height
            ),
        ));
    }
    let rows = parsed
        .rows
        .iter()
        .enumerate()
        .map(|(y, row)| {
            parse_row(row, parsed.width, "`width` says").map_err(|m| {
                // The line is looked up only for the message.
                let line = json_array_string_lines(&text, "rows").get(y).copied();
                at(line, format!("row {y}: {m}"))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut map =
        TileMap::from_rows(rows).ok_or_else(|| invalid("the map is empty".to_string()))?;
    map.costs = parsed.costs;
    Ok(map)
}

/// Loads a map by extension: `.json` is navlab's format, `.tmx`/`.tmj` a Tiled import (see
/// [`super::tiled`]), anything else MovingAI `.map`.
pub fn load_any(path: &Path) -> Result<TileMap, MapError> {
    if super::tiled::is_tiled_path(path) {
        return super::tiled::load(path).map(|import| import.map);
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        let (bytes, file) = read_map_file(path, MAX_MAP_BYTES, "a tile map")?;
        parse_navlab_json(&bytes, &file)
    } else {
        load_map(path)
    }
}

/// Reads a map file's bytes already in memory (given by a browser, say) as [`load_any`] reads
/// a file, by the extension of `file` (which names it in errors), with the same limits.
pub fn parse_any(bytes: &[u8], file: &str) -> Result<TileMap, MapError> {
    let path = Path::new(file);
    if super::tiled::is_tiled_path(path) {
        return super::tiled::parse(bytes, file).map(|import| import.map);
    }
    crate::input::check_size(bytes, MAX_MAP_BYTES, "a tile map").map_err(|e| {
        MapError::Invalid {
            file: file.to_string(),
            message: e.to_string(),
        }
    })?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        parse_navlab_json(bytes, file)
    } else {
        parse_map(bytes, file)
    }
}

/// Saves by extension (see [`file_text`]), atomically: the text goes to a temporary file
/// beside the target, which is then renamed over it.
pub fn save_any(map: &TileMap, path: &Path) -> Result<(), String> {
    let text = file_text(map, path)?;
    crate::atomic::write_atomically(path, text.as_bytes())
}

/// The map as the text of a file named `path`, by extension: `.json` is navlab's format with
/// costs, `.tmx`/`.tmj` are refused, anything else is a MovingAI `.map`.
pub fn file_text(map: &TileMap, path: &Path) -> Result<String, String> {
    if super::tiled::is_tiled_path(path) {
        return Err(format!(
            "{}: navlab does not write Tiled files (it would lose the layers); save as .map or .json",
            crate::input::shown(path)
        ));
    }
    let text = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        to_navlab_json(map)
    } else {
        to_map_text(map)
    };
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_text_round_trips() {
        let text = "type octile\nheight 2\nwidth 3\nmap\n.SW\n@O.\n";
        let map = parse_map(text.as_bytes(), "t.map").expect("parses");
        assert_eq!(map.get((1, 0)), Some(Tile::Sand));
        assert_eq!(map.get((1, 1)), Some(Tile::Hole));
        assert_eq!(to_map_text(&map), text);
        let mut custom = map.clone();
        custom.costs.sand = 5.5;
        let json = to_navlab_json(&custom);
        assert_eq!(
            parse_navlab_json(json.as_bytes(), "t.json").expect("json"),
            custom
        );
    }

    #[test]
    fn bad_maps_name_the_line() {
        for (text, line) in [
            ("type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n", 6),
            ("type octile\nheight 2\nwidth 3\nmap\n...\n..\n", 6),
            ("type octile\nheight nine\nwidth 3\nmap\n", 2),
            ("hello\n", 1),
        ] {
            let err = parse_map(text.as_bytes(), "bad.map").expect_err("rejected");
            assert!(
                err.to_string().starts_with(&format!("bad.map:{line}:")),
                "{err}"
            );
        }
        assert!(parse_map(b"type octile\nheight 3\nwidth 3\nmap\n...\n", "short.map").is_err());
    }

    #[test]
    fn bad_navlab_json_names_the_line_of_the_field_or_row() {
        let costs = r#""costs": {"grass": 1, "sand": 2, "water": 3}"#;
        for (text, line, says) in [
            (
                format!(
                    "{{\n\"navlab_map\": 1,\n\"width\": 3,\n\"height\": 2,\n{costs},\n\"rows\": [\n\"...\",\n\".x.\"\n]}}"
                ),
                8,
                "row 1: unknown tile `x` in column 1",
            ),
            (
                format!(
                    "{{\"navlab_map\": 1, \"width\": 3, \"height\": 2, {costs},\n\"rows\": [\"...\",\n\n\"..\"]}}"
                ),
                4,
                "row 1: row has 2 tiles, `width` says 3",
            ),
            // A row holding a line break is one row, not two.
            (
                format!(
                    "{{\"navlab_map\": 1, \"width\": 3, \"height\": 2, {costs},\n\"rows\": [\"...\\n...\"]}}"
                ),
                2,
                "1 rows, `height` says 2",
            ),
            (
                format!(
                    "{{\"navlab_map\": 1,\n\"width\": 0, \"height\": 1, {costs}, \"rows\": [\"\"]}}"
                ),
                2,
                "width 0 is not a size",
            ),
        ] {
            let err = parse_navlab_json(text.as_bytes(), "bad.json").expect_err(&text);
            let message = err.to_string();
            assert!(
                message.starts_with(&format!("bad.json:{line}: {says}")),
                "{message}\nfor\n{text}"
            );
        }
    }

    #[test]
    fn scenarios_parse_and_bad_lines_are_named() {
        let good = "version 1\n\n3\tarena.map\t49\t49\t1\t2\t30\t40\t45.52691193\n";
        let scens = parse_scenarios(good, "ok.scen").expect("parsed");
        assert_eq!(scens.len(), 1);
        let s = &scens[0];
        assert_eq!(
            (s.bucket, s.map.as_str(), s.map_size),
            (3, "arena.map", (49, 49))
        );
        assert_eq!((s.start, s.goal, s.line), ((1, 2), (30, 40), 3));
        assert!((s.optimal - 45.52691193).abs() < 1e-12);
        for (text, line, says) in [
            (
                "version 1\n0 a.map 4 4 0 0 1\n",
                2,
                "expected 9 fields, found 7",
            ),
            (
                "version 1\n0 a.map 4 4 0 -1 1 1 2\n",
                2,
                "`-1` is not a whole number",
            ),
            ("0 a.map 4 4 0 0 1 1 inf\n", 1, "`inf` is not a length"),
            (
                "0 a.map 4 4 0 0 1 1 1\n4294967296 a.map 4 4 0 0 1 1 1\n",
                2,
                "bucket `4294967296`",
            ),
        ] {
            let err = parse_scenarios(text, "bad.scen").expect_err("rejected");
            let err = err.to_string();
            assert!(err.starts_with(&format!("bad.scen:{line}:")), "{err}");
            assert!(err.contains(says), "{err}");
        }
    }

    #[test]
    fn six_digit_tolerance_is_one_unit_in_the_last_digit() {
        assert!(matches_six_digits(230.764502, 230.764));
        assert!(matches_six_digits(3.414213, 3.41421));
        assert!(!matches_six_digits(3.41423, 3.41421));
        assert!(matches_six_digits(4786.0, 4786.0));
    }
}
