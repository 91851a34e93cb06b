//! Mesh scenario files (the Polyanya / ShortestPathLab format): `version 1`, then one query per
//! line, `bucket mesh width height sx sy gx gy length`, whitespace-separated, with real
//! coordinates (a length of -1: no path).

use crate::geom::Vec2;
use crate::input::{MAX_COORDINATE, MAX_SCENARIO_BYTES, ReadError, read_file};
use std::path::Path;

/// One query of a mesh scenario file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshScenario {
    /// Its line in the file (from 1).
    pub line: usize,
    /// The bucket number the file gives.
    pub bucket: u32,
    /// Start.
    pub start: Vec2,
    /// Goal.
    pub goal: Vec2,
    /// The listed length; `None` where the file says there is no path (a negative length).
    pub length: Option<f64>,
}

/// The most queries one file may hold.
pub const MAX_MESH_SCENARIOS: usize = 1_000_000;

/// Why a mesh scenario file was refused.
#[derive(Debug, thiserror::Error)]
pub enum MeshScenarioError {
    /// It could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// It is not a mesh scenario file, or a line is malformed.
    #[error("{file} line {line}: {problem}")]
    Format {
        /// The file.
        file: String,
        /// The line (from 1).
        line: usize,
        /// What is wrong, in words (never the line's own text).
        problem: &'static str,
    },
}

/// Reads a mesh scenario file (at most [`MAX_SCENARIO_BYTES`], a regular file).
pub fn load(path: &Path) -> Result<Vec<MeshScenario>, MeshScenarioError> {
    let bytes = read_file(path, MAX_SCENARIO_BYTES, "scenario file")?;
    parse(&String::from_utf8_lossy(&bytes), &crate::input::shown(path))
}

/// Parses the text of a mesh scenario file named `file` (for errors).
pub fn parse(text: &str, file: &str) -> Result<Vec<MeshScenario>, MeshScenarioError> {
    let error = |line: usize, problem: &'static str| MeshScenarioError::Format {
        file: crate::input::printable(file),
        line,
        problem,
    };
    let mut lines = text.lines().enumerate().map(|(k, l)| (k + 1, l.trim()));
    let header = lines.by_ref().find(|(_, l)| !l.is_empty());
    match header {
        Some((_, l)) if l.split_whitespace().collect::<Vec<_>>() == ["version", "1"] => {}
        Some((line, _)) => return Err(error(line, "expected the header `version 1`")),
        None => return Err(error(1, "empty: expected the header `version 1`")),
    }
    let mut scenarios = Vec::new();
    for (line, text) in lines {
        if text.is_empty() {
            continue;
        }
        if scenarios.len() >= MAX_MESH_SCENARIOS {
            return Err(error(
                line,
                "more queries than a scenario file may hold (1,000,000)",
            ));
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 9 {
            return Err(error(
                line,
                "expected 9 fields: bucket mesh width height sx sy gx gy length",
            ));
        }
        let bucket = fields[0]
            .parse::<u32>()
            .map_err(|_| error(line, "the bucket is not a whole number"))?;
        let number = |k: usize| -> Result<f64, MeshScenarioError> {
            let x = fields[k]
                .parse::<f64>()
                .map_err(|_| error(line, "a coordinate or the length is not a number"))?;
            if x.is_finite() && x.abs() <= MAX_COORDINATE {
                Ok(x)
            } else {
                Err(error(line, "a coordinate or the length is out of range"))
            }
        };
        let length = number(8)?;
        scenarios.push(MeshScenario {
            line,
            bucket,
            start: Vec2::new(number(4)?, number(5)?),
            goal: Vec2::new(number(6)?, number(7)?),
            length: (length >= 0.0).then_some(length),
        });
    }
    Ok(scenarios)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_queries_and_names_the_bad_line() {
        let text = "version 1\n0\tm.mesh\t2\t2\t0\t0\t0.5\t0.5\t0.75\n1 m 2 2 1 1 1 1 -1\n";
        let s = parse(text, "a.scen").expect("parses");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].goal, Vec2::new(0.5, 0.5));
        assert_eq!(s[0].length, Some(0.75));
        assert_eq!((s[1].line, s[1].bucket, s[1].length), (3, 1, None));
        let bad = parse("version 1\n0 m 2 2 x 0 1 1 1\n", "b.scen").expect_err("bad");
        assert_eq!(
            bad.to_string(),
            "b.scen line 2: a coordinate or the length is not a number"
        );
        assert!(parse("version 2\n", "c.scen").is_err());
        assert!(parse("version 1\n0 m 2 2 nan 0 1 1 1\n", "d.scen").is_err());
        assert!(parse("version 1\n0 m 2 2 0 0 1 1\n", "e.scen").is_err());
    }
}
