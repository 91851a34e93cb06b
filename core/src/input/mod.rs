//! Files from strangers: the most navlab reads of each kind of file, and the reader that keeps
//! to it. Only regular files are read (not a folder, a device such as `/dev/zero`, or a pipe,
//! which would never end), and never more than the kind's limit, so no file can make navlab
//! read without end or run out of memory. Every limit a user can meet is here.

pub(crate) mod json_lines;

use std::io::Read;
use std::path::Path;

/// The most bytes read of a mesh file (OBJ or Polyanya): a mesh of [`MAX_TRIANGLES`] written
/// with normals, uvs and comments fits many times over.
pub const MAX_MESH_BYTES: u64 = 128 << 20;

/// The most triangles in a mesh (after its polygons are triangulated): a 16 MB OBJ of bare
/// triangles, which every command reads, checks and converts in a few seconds and under half
/// a gigabyte. Larger meshes are refused before they are built.
pub const MAX_TRIANGLES: usize = 500_000;

/// The most vertices a mesh file may list: three for each of [`MAX_TRIANGLES`].
pub const MAX_VERTICES: usize = 3 * MAX_TRIANGLES;

/// The most corners of one polygon of a mesh file. Exporters write n-gons of a few dozen
/// corners; a face larger than this is refused.
pub const MAX_POLYGON_CORNERS: usize = 4_096;

/// The largest coordinate of a mesh vertex, in either direction. Beyond it a mesh of ordinary
/// size next to it would lose its precision (and welding would merge it away).
pub const MAX_COORDINATE: f64 = 1e9;

/// The most bytes read of a tile map (`.map`, navlab `.json`): a map of the largest side,
/// [`crate::grid::map::MAX_SIDE`] × `MAX_SIDE`, and its header.
pub const MAX_MAP_BYTES: u64 = 80 << 20;

/// The most bytes read of a Tiled map (`.tmx`, `.tmj`) or of one of its tilesets.
pub const MAX_TILED_BYTES: u64 = 64 << 20;

/// The most tiles decoded from all the layers of a Tiled map together: one layer of the
/// largest side, or sixteen of 2048 × 2048. Compressed layers are inflated only this far.
pub const MAX_TILED_TILES: usize = 1 << 26;

/// The most bytes read of a MovingAI scenario file (`.scen`): the benchmarks' largest is well
/// under a tenth of it.
pub const MAX_SCENARIO_BYTES: u64 = 16 << 20;

/// The most bytes read of a lesson file (`.navlab`), whose mesh or map may be inside it.
pub const MAX_LESSON_BYTES: u64 = 64 << 20;

/// The most bytes read of a search trace (Posthoc's format) to compare with.
pub const MAX_TRACE_BYTES: u64 = 256 << 20;

/// The most bytes of a search trace written as YAML (slower to read than JSON: about 25 MB a
/// second, so that this much reads in a few seconds).
pub const MAX_YAML_TRACE_BYTES: u64 = 128 << 20;

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A folder, a device or a pipe.
    #[error("not a file (a folder, a device or a pipe): navlab reads only regular files")]
    NotAFile,
    /// Over the limit for its kind.
    #[error("larger than {limit}, the most navlab reads of {what}")]
    TooLarge {
        /// The limit, in words ("128 MiB").
        limit: String,
        /// What kind of file ("a mesh file").
        what: &'static str,
    },
    /// The system could not read it.
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
}

/// Reads the regular file at `path`, at most `limit` bytes of it; `what` names the kind of
/// file in the error ("a mesh file"). A symbolic link is followed to what it names.
pub fn read_file(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    // Before opening: opening a pipe waits for a writer, for ever if there is none.
    if !std::fs::metadata(path)?.is_file() {
        return Err(ReadError::NotAFile);
    }
    let file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(ReadError::NotAFile);
    }
    let too_large = || ReadError::TooLarge {
        limit: bytes_in_words(limit),
        what,
    };
    if metadata.len() > limit {
        return Err(too_large());
    }
    // The file may grow while it is read: read one byte past the limit to tell.
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Checks bytes already in memory (a file given by a browser, say) against the limit for
/// their kind, as [`read_file`] checks a file; `what` names the kind ("a mesh file").
pub fn check_size(bytes: &[u8], limit: u64, what: &'static str) -> Result<(), ReadError> {
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            limit: bytes_in_words(limit),
            what,
        });
    }
    Ok(())
}

/// The most characters of a file's text an error message quotes.
pub const QUOTED_CHARS: usize = 40;

/// Text from a file, quoted for a message: between backticks, its control characters written
/// as escapes (so that a file cannot send a terminal its escape sequences), and cut after
/// [`QUOTED_CHARS`] characters.
pub fn quoted(text: &str) -> String {
    let mut out = String::from("`");
    for (i, c) in text.chars().enumerate() {
        if i == QUOTED_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

/// The most characters of a file's name a message shows; a longer name keeps its start and its
/// end (the file's own name), joined by `…`.
pub const SHOWN_PATH_CHARS: usize = 160;

/// A file's name for titles and messages, as [`shown`] writes it (the whole path when it has
/// no name).
pub fn file_label(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| shown(path), |n| shown(Path::new(n)))
}

/// A file's name as a message shows it: on one line (every control character, line breaks
/// too, written as an escape, so that a name cannot forge a second line or reach the
/// terminal) and at most [`SHOWN_PATH_CHARS`] characters. Every message that names a file
/// names it this way.
pub fn shown(path: &Path) -> String {
    let text = path.to_string_lossy();
    let escaped: Vec<String> = text
        .chars()
        .map(|c| match c.is_control() {
            true => c.escape_default().collect(),
            false => c.to_string(),
        })
        .collect();
    if escaped.len() <= SHOWN_PATH_CHARS {
        return escaped.concat();
    }
    let tail = SHOWN_PATH_CHARS * 3 / 4;
    let head = SHOWN_PATH_CHARS - tail - 1;
    let mut out = escaped[..head].concat();
    out.push('…');
    out.push_str(&escaped[escaped.len() - tail..].concat());
    out
}

/// `text` with its control characters written as escapes, but for line breaks and tabs: for a
/// message that names a file, its layers or objects, before it reaches a terminal.
pub fn printable(text: &str) -> String {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                c.escape_default().collect()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// What starts a message navlab writes itself about a value beyond a limit (never holding the
/// file's text), which [`json_problem`] repeats without it.
pub const BEYOND_LIMIT: &str = "beyond a limit: ";

/// What is wrong with a JSON file, in words that quote none of it (serde's own message quotes
/// the value it did not expect, however long), with the line and column.
pub fn json_problem(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let message = error.to_string();
    let what = match error.classify() {
        Category::Io => "it cannot be read".to_string(),
        Category::Eof => "the file ends early".to_string(),
        Category::Syntax => "broken JSON".to_string(),
        // serde names a field missing by the name navlab gave it: that may be said.
        Category::Data if message.starts_with("missing field") => message
            .split(" at line ")
            .next()
            .unwrap_or("a value is missing")
            .to_string(),
        Category::Data if message.starts_with(BEYOND_LIMIT) => message
            .trim_start_matches(BEYOND_LIMIT)
            .split(" at line ")
            .next()
            .unwrap_or("a value beyond a limit")
            .to_string(),
        Category::Data => "a value of the wrong kind".to_string(),
    };
    format!("{what} (line {}, column {})", error.line(), error.column())
}

/// A size in bytes in words: "64 MiB", "512 KiB", "100 bytes".
pub fn bytes_in_words(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_within_the_limit_is_read_whole_and_one_over_it_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("ten.txt");
        std::fs::write(&path, b"0123456789").expect("write");
        assert_eq!(read_file(&path, 10, "a test").expect("read"), b"0123456789");
        let error = read_file(&path, 9, "a test").expect_err("too large");
        assert!(matches!(error, ReadError::TooLarge { .. }), "{error}");
        assert_eq!(
            error.to_string(),
            "larger than 9 bytes, the most navlab reads of a test"
        );
    }

    #[test]
    fn folders_and_devices_are_not_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let error = read_file(dir.path(), 1 << 20, "a test").expect_err("a folder");
        assert!(matches!(error, ReadError::NotAFile), "{error}");
        if Path::new("/dev/zero").exists() {
            let error = read_file(Path::new("/dev/zero"), 1 << 20, "a test").expect_err("device");
            assert!(matches!(error, ReadError::NotAFile), "{error}");
        }
        let missing = read_file(&dir.path().join("none"), 10, "a test").expect_err("missing");
        assert!(matches!(missing, ReadError::Io(_)), "{missing}");
    }

    #[test]
    fn quoted_text_cannot_reach_the_terminal_and_stays_short() {
        assert_eq!(quoted("abc"), "`abc`");
        assert_eq!(quoted("\u{1b}[31mred"), "`\\u{1b}[31mred`");
        let long = "x".repeat(100);
        assert_eq!(quoted(&long).chars().count(), QUOTED_CHARS + 3);
        assert_eq!(printable("layer\u{7}\tname\n"), "layer\\u{7}\tname\n");
    }

    #[test]
    fn a_file_name_is_shown_on_one_line_and_short() {
        let forged = Path::new("map\nerror: your disk is full\u{1b}[2J.map");
        let said = shown(forged);
        assert!(!said.contains('\n') && !said.contains('\u{1b}'), "{said}");
        assert!(
            said.contains("map\\nerror") && said.ends_with(".map"),
            "{said}"
        );
        let deep = format!("/{}/level.obj", "folder/".repeat(700));
        let said = shown(Path::new(&deep));
        assert_eq!(said.chars().count(), SHOWN_PATH_CHARS);
        assert!(
            said.starts_with("/folder/") && said.ends_with("/level.obj"),
            "{said}"
        );
        assert_eq!(shown(Path::new("plain.obj")), "plain.obj");
    }

    #[test]
    fn a_json_problem_quotes_nothing_of_the_file() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Size {
            width: u32,
        }
        let secret = serde_json::from_str::<Size>(r#"{"width": "my secret value"}"#)
            .expect_err("a string for a number");
        let said = json_problem(&secret);
        assert!(!said.contains("secret"), "{said}");
        assert!(
            said.contains("wrong kind") && said.contains("line 1"),
            "{said}"
        );
        let missing = serde_json::from_str::<Size>("{}").expect_err("no width");
        assert!(json_problem(&missing).starts_with("missing field `width`"));
    }

    #[test]
    fn sizes_read_as_words() {
        assert_eq!(bytes_in_words(128 << 20), "128 MiB");
        assert_eq!(bytes_in_words(512 << 10), "512 KiB");
        assert_eq!(bytes_in_words(1000), "1000 bytes");
    }
}
