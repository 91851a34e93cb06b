//! Polyanya `.mesh` files, [format version 2 and 3](https://github.com/vleue/polyanya): 2D convex
//! polygons (triangulated here) with coordinates taken as the plane's x and y. Neighbour lists
//! in the file are not trusted: adjacency is rebuilt from shared vertices, and the diagnostics
//! report where the file's lists disagree with its polygons. Meshes are written by
//! [`to_polyanya`].

pub use super::polyanya_write::{PolygonShape, WriteError, to_polyanya};
use super::{LoadError, NavMesh, Plane, ReadOptions};
use std::path::Path;

/// True for a path whose extension is `.mesh` (any case).
pub fn is_polyanya_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mesh"))
}

/// Loads a `.mesh` file.
pub fn load(path: &Path) -> Result<NavMesh, LoadError> {
    let file = crate::input::shown(path);
    NavMesh::from_read(load_raw(path)?, &file, ReadOptions::default())
}

/// The polygons of a `.mesh` file as it has them (see [`load`]).
pub fn load_raw(path: &Path) -> Result<super::RawMesh, LoadError> {
    let (bytes, file) = super::read_mesh_file(path)?;
    parse_raw(&bytes, &file)
}

/// The whitespace-separated tokens of a text, each with the line it is on, read one at a
/// time (a list of them all would take many times the file's size). ASCII whitespace
/// separates; the text is UTF-8, so a cut there never splits a character.
struct Tokens<'a> {
    file: &'a str,
    text: &'a str,
    /// Where the next token is looked for.
    at: usize,
    /// The line `at` is on (at the end: the last line).
    line: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str, file: &'a str) -> Self {
        Self {
            file,
            text,
            at: 0,
            line: 1,
        }
    }

    /// The next token and its line.
    fn next_token(&mut self) -> Option<(&'a str, usize)> {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.at) {
            if !b.is_ascii_whitespace() {
                break;
            }
            // A newline ending the text starts no line (as `str::lines` counts them).
            if b == b'\n' && self.at + 1 < bytes.len() {
                self.line += 1;
            }
            self.at += 1;
        }
        let start = self.at;
        while bytes.get(self.at).is_some_and(|b| !b.is_ascii_whitespace()) {
            self.at += 1;
        }
        let token = self.text.get(start..self.at).filter(|t| !t.is_empty())?;
        Some((token, self.line))
    }

    fn error(&self, line: usize, message: String) -> LoadError {
        LoadError::Syntax {
            file: self.file.to_string(),
            line,
            message,
        }
    }

    fn word(&mut self, what: &str) -> Result<(&'a str, usize), LoadError> {
        match self.next_token() {
            Some(item) => Ok(item),
            None => Err(self.error(
                self.line,
                format!("the file ends where {what} was expected"),
            )),
        }
    }

    fn parse<T: std::str::FromStr>(&mut self, what: &str) -> Result<(T, usize), LoadError> {
        let (token, line) = self.word(what)?;
        token.parse().map(|v| (v, line)).map_err(|_| {
            self.error(
                line,
                format!("expected {what}, found {}", crate::input::quoted(token)),
            )
        })
    }

    /// A count, at most `limit` (the most navlab reads, see [`crate::input`]).
    fn count(&mut self, what: &str, limit: usize) -> Result<usize, LoadError> {
        self.count_at(what, limit).map(|(n, _)| n)
    }

    /// [`count`](Self::count), with the line it is on.
    fn count_at(&mut self, what: &str, limit: usize) -> Result<(usize, usize), LoadError> {
        let (n, line) = self.parse::<usize>(what)?;
        if n > limit {
            return Err(self.error(
                line,
                format!(
                    "{what} {}, more than the {} navlab reads",
                    crate::words::thousands(n),
                    crate::words::thousands(limit)
                ),
            ));
        }
        Ok((n, line))
    }

    /// A coordinate: a finite number within [`MAX_COORDINATE`](crate::input::MAX_COORDINATE).
    fn coordinate(&mut self, what: &str) -> Result<f64, LoadError> {
        self.coordinate_at(what).map(|(v, _)| v)
    }

    /// [`coordinate`](Self::coordinate), with the line it is on.
    fn coordinate_at(&mut self, what: &str) -> Result<(f64, usize), LoadError> {
        let (v, line) = self.parse::<f64>(what)?;
        if !v.is_finite() {
            return Err(self.error(line, format!("{what} is not a finite number")));
        }
        if v.abs() > crate::input::MAX_COORDINATE {
            return Err(self.error(
                line,
                format!(
                    "{what} is beyond ±{:e}, the largest navlab takes",
                    crate::input::MAX_COORDINATE
                ),
            ));
        }
        Ok((v, line))
    }
}

/// Parses `.mesh` text; `file` names it in error messages.
pub fn parse(bytes: &[u8], file: &str) -> Result<NavMesh, LoadError> {
    NavMesh::from_read(parse_raw(bytes, file)?, file, ReadOptions::default())
}

/// The polygons of `.mesh` text as it has them; `file` names it in error messages.
pub fn parse_raw(bytes: &[u8], file: &str) -> Result<super::RawMesh, LoadError> {
    let text = std::str::from_utf8(bytes).map_err(|e| LoadError::Syntax {
        file: file.to_string(),
        line: bytes
            .get(..e.valid_up_to())
            .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
            + 1,
        message: "not a text file".to_string(),
    })?;
    let mut tokens = Tokens::new(text, file);
    let (magic, line) = tokens.word("the word `mesh`")?;
    if magic != "mesh" {
        return Err(tokens.error(
            line,
            format!(
                "expected the word `mesh`, found {}: not a Polyanya mesh",
                crate::input::quoted(magic)
            ),
        ));
    }
    let (version, line) = tokens.parse::<u32>("the format version")?;
    use crate::input::{MAX_POLYGON_CORNERS, MAX_TRIANGLES, MAX_VERTICES};
    // A polygon makes at least one triangle; one of n corners makes n - 2.
    let mut triangles = 0usize;
    let mut add_triangles = |tokens: &Tokens, corners: usize, line: usize| {
        triangles += corners.saturating_sub(2);
        if triangles > MAX_TRIANGLES {
            return Err(tokens.error(
                line,
                format!(
                    "the polygons so far make more than {} triangles, the most navlab builds \
                     a mesh of",
                    crate::words::thousands(MAX_TRIANGLES)
                ),
            ));
        }
        Ok(())
    };
    let mut positions = Vec::new();
    let mut polygons = Vec::new();
    let mut lists = DeclaredLists::default();
    match version {
        2 => {
            let vertex_count = tokens.count("the vertex count", MAX_VERTICES)?;
            let polygon_count = tokens.count("the polygon count", MAX_TRIANGLES)?;
            for _ in 0..vertex_count {
                let (x, line) = tokens.coordinate_at("a vertex x")?;
                let y = tokens.coordinate("a vertex y")?;
                let n = tokens.count("a vertex's neighbour count", MAX_POLYGON_CORNERS)?;
                for _ in 0..n {
                    lists
                        .vertices
                        .values
                        .push(tokens.parse::<i64>("a neighbouring polygon")?.0);
                }
                positions.push([x, y, 0.0]);
                lists.vertices.end_list(line);
            }
            for _ in 0..polygon_count {
                let (n, line) = tokens.count_at("a polygon's vertex count", MAX_POLYGON_CORNERS)?;
                add_triangles(&tokens, n, line)?;
                let mut poly = Vec::with_capacity(n);
                for _ in 0..n {
                    poly.push(vertex_index(&mut tokens, vertex_count, 0)?);
                }
                for _ in 0..n {
                    lists
                        .polygons
                        .values
                        .push(tokens.parse::<i64>("a neighbouring polygon")?.0);
                }
                polygons.push(poly);
                lists.polygons.end_list(line);
            }
        }
        3 => {
            let vertex_count = tokens.count("the vertex count", MAX_VERTICES)?;
            let face_count = tokens.count("the face count", MAX_TRIANGLES)?;
            for _ in 0..vertex_count {
                let x = tokens.coordinate("a vertex x")?;
                let y = tokens.coordinate("a vertex y")?;
                positions.push([x, y, 0.0]);
            }
            for _ in 0..face_count {
                let (traversable, line) = tokens.parse::<i64>("a face's traversable flag")?;
                let n = tokens.count("a face's vertex count", MAX_POLYGON_CORNERS)?;
                add_triangles(&tokens, n, line)?;
                let mut poly = Vec::with_capacity(n);
                for _ in 0..n {
                    poly.push(vertex_index(&mut tokens, vertex_count, 1)?);
                }
                for _ in 0..n {
                    tokens.parse::<i64>("a neighbouring face")?;
                }
                if traversable == 1 {
                    polygons.push(poly);
                }
            }
        }
        other => {
            return Err(tokens.error(
                line,
                format!("mesh format version {other} is not supported (2 and 3 are)"),
            ));
        }
    }
    if let Some((extra, line)) = tokens.next_token() {
        return Err(tokens.error(
            line,
            format!(
                "unexpected {} after the last polygon",
                crate::input::quoted(extra)
            ),
        ));
    }
    let mut raw = super::RawMesh::new(positions, polygons, Plane::Xy);
    if version == 2 {
        raw.neighbour_list_problems = lists.problems(&raw.polygons, raw.positions.len());
    }
    drop(lists);
    Ok(raw)
}

/// What a version 2 file says is next to what: per vertex the polygons around it, per polygon
/// the one across each edge; each with the line it is on.
#[derive(Default)]
struct DeclaredLists {
    vertices: Lists,
    polygons: Lists,
}

/// Lists of numbers one after another, each with the line it is on.
#[derive(Default)]
struct Lists {
    values: Vec<i64>,
    /// List `k` is `values[end[k - 1]..end[k]]` (from 0 for the first).
    end: Vec<usize>,
    line: Vec<usize>,
}

impl Lists {
    /// Closes the list whose values were pushed since the last one.
    fn end_list(&mut self, line: usize) {
        self.end.push(self.values.len());
        self.line.push(line);
    }

    /// List `k` and its line.
    fn get(&self, k: usize) -> (&[i64], usize) {
        let start = k.checked_sub(1).map_or(0, |j| self.end[j]);
        (&self.values[start..self.end[k]], self.line[k])
    }

    fn len(&self) -> usize {
        self.end.len()
    }
}

/// A place where a Polyanya file's neighbour lists disagree with its polygons. Polyanya reads
/// these lists; navlab rebuilds adjacency from shared vertices, so only a check sees them.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ListProblem {
    /// The line of the vertex or polygon whose list is wrong.
    pub line: usize,
    /// The polygon (0-based, file order), when a polygon's list is wrong.
    pub polygon: Option<usize>,
    /// The vertex (0-based), when a vertex's list is wrong.
    pub vertex: Option<usize>,
    /// What is wrong, in words.
    pub message: String,
}

impl DeclaredLists {
    /// Compares the lists with the polygons: `p[i]` must be the polygon sharing the edge
    /// `v[i-1]`–`v[i]` (-1 when none does), and each vertex must list every polygon it is a
    /// corner of, with one -1 per gap between them (the format's description; the order of a
    /// vertex's list is not checked, as Polyanya does not use it).
    fn problems(&self, polygons: &[Vec<usize>], vertex_count: usize) -> Vec<ListProblem> {
        // Every polygon side, in order: side `i` of polygon `p` joins `p[i - 1]` and `p[i]`.
        let mut first_side = Vec::with_capacity(polygons.len() + 1);
        let mut sides: Vec<[u32; 2]> = Vec::new();
        let mut polygon_of: Vec<u32> = Vec::new();
        for (p, poly) in polygons.iter().enumerate() {
            first_side.push(sides.len());
            let n = poly.len();
            for i in 0..n {
                sides.push([poly[(i + n - 1) % n] as u32, poly[i] as u32]);
                polygon_of.push(p as u32);
            }
        }
        first_side.push(sides.len());
        let Some(groups) = super::vertex_pairs::PairGroups::new(&sides, vertex_count) else {
            return Vec::new();
        };
        let members = groups.members();
        // The polygons sharing a side's edge, by the side's place in `sides`.
        let sharing = |side: usize| members.get(groups.group[side] as usize);
        let name = |q: i64| {
            if q < 0 {
                "-1 (a wall)".to_string()
            } else {
                format!("polygon {q}")
            }
        };
        let mut problems = Vec::new();
        for (p, poly) in polygons.iter().enumerate().take(self.polygons.len()) {
            let (across, line) = self.polygons.get(p);
            let n = poly.len();
            for (i, &listed) in across.iter().enumerate().take(n) {
                let side = first_side[p] + i;
                let [u, v] = sides[side].map(|c| c as usize);
                let expected = match sharing(side) {
                    [a, b] => {
                        let (a, b) = (polygon_of[*a as usize], polygon_of[*b as usize]);
                        (if a as usize == p { b } else { a }) as i64
                    }
                    [_] => -1,
                    // Three or more: the diagnostics report the edge itself.
                    _ => continue,
                };
                if listed != expected {
                    problems.push(ListProblem {
                        line,
                        polygon: Some(p),
                        vertex: None,
                        message: format!(
                            "polygon {p} lists {} across its edge {u}–{v}, where the polygons \
                             give {}",
                            name(listed),
                            name(expected)
                        ),
                    });
                }
            }
        }
        // The corners at each vertex, as sides ending there, in polygon order.
        let Some(corners) = super::vertex_pairs::Buckets::by_key(
            sides.iter().map(|side| side[1] as usize),
            vertex_count,
        ) else {
            return problems;
        };
        let mut listed: Vec<i64> = Vec::new();
        let mut corner: Vec<i64> = Vec::new();
        for v in 0..vertex_count.min(self.vertices.len()) {
            let (around, line) = self.vertices.get(v);
            let at_v = corners.get(v);
            listed.clear();
            listed.extend(around.iter().copied().filter(|&q| q >= 0));
            listed.sort_unstable();
            corner.clear();
            corner.extend(at_v.iter().map(|&k| i64::from(polygon_of[k as usize])));
            // Each gap is bounded by two wall edges at this vertex: the side ending at the
            // corner and the one leaving it.
            let walls: usize = at_v
                .iter()
                .map(|&k| {
                    let k = k as usize;
                    let p = polygon_of[k] as usize;
                    let leaving = if k + 1 == first_side[p + 1] {
                        first_side[p]
                    } else {
                        k + 1
                    };
                    usize::from(sharing(k).len() == 1) + usize::from(sharing(leaving).len() == 1)
                })
                .sum();
            let gaps = around.iter().filter(|&&q| q < 0).count();
            let problem = if listed != corner {
                Some(format!(
                    "vertex {v} lists the polygons {listed:?}, but it is a corner of {corner:?}"
                ))
            } else if gaps != walls / 2 && !corner.is_empty() {
                Some(format!(
                    "vertex {v} lists {} (-1), but the polygons around it leave {}",
                    crate::words::count(gaps, "gap"),
                    walls / 2
                ))
            } else {
                None
            };
            if let Some(message) = problem {
                problems.push(ListProblem {
                    line,
                    polygon: None,
                    vertex: Some(v),
                    message,
                });
            }
        }
        problems
    }
}

fn vertex_index(tokens: &mut Tokens, count: usize, first: usize) -> Result<usize, LoadError> {
    let (index, line) = tokens.parse::<usize>("a vertex index")?;
    match index.checked_sub(first) {
        Some(i) if i < count => Ok(i),
        _ => Err(tokens.error(
            line,
            format!(
                "vertex index {index} is out of range ({first}..{} allowed)",
                count + first
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::flat_test_mesh;

    #[test]
    fn the_square_of_the_format_description_is_written_with_both_neighbour_lists() {
        // Two triangles over a square; the diagonal joins (1.5, 0) and (0, 1.5).
        let mesh = flat_test_mesh(
            &[[0.0, 0.0], [1.5, 0.0], [1.5, 1.5], [0.0, 1.5]],
            &[vec![0, 1, 3], vec![1, 2, 3]],
        );
        let text = to_polyanya(&mesh, PolygonShape::Triangles).expect("writes");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[..3], ["mesh", "2", "4 2"]);
        // The corners where both triangles meet list them and one gap; the others one each.
        let counts: Vec<&str> = lines[3..7]
            .iter()
            .map(|l| l.split_whitespace().nth(2).expect("count"))
            .collect();
        assert_eq!(counts.iter().filter(|&&c| c == "3").count(), 2, "{text}");
        assert_eq!(counts.iter().filter(|&&c| c == "2").count(), 2, "{text}");
        // Each triangle has one neighbour (the other) and two walls.
        for line in &lines[7..] {
            let p: Vec<i64> = line
                .split_whitespace()
                .skip(4)
                .map(|t| t.parse().expect("number"))
                .collect();
            assert_eq!(p.iter().filter(|&&q| q == -1).count(), 2, "{line}");
        }
        let back = parse(text.as_bytes(), "square.mesh").expect("reads back");
        assert_eq!(back.triangles().len(), 2);
        assert_eq!(back.summary().area, 2.25);
    }

    /// The square of the format description, with its lists as given there.
    const SQUARE: &str = "mesh\n2\n4 2\n0 0 2 0 -1\n1.5 0 3 0 1 -1\n1.5 1.5 2 1 -1\n0 1.5 3 -1 1 0\n3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";

    #[test]
    fn neighbour_lists_that_disagree_with_the_polygons_are_found_with_their_lines() {
        let problems = |text: &str| {
            parse(text.as_bytes(), "square.mesh")
                .expect("reads")
                .raw()
                .neighbour_list_problems
                .clone()
        };
        assert_eq!(problems(SQUARE), []);
        // Polygon 0 (line 8) says its diagonal is a wall; vertex 3 (line 7) forgets polygon 1
        // and vertex 2 (line 6) lists no gap.
        let broken = SQUARE
            .replace("3 0 1 3 -1 -1 1\n", "3 0 1 3 -1 -1 -1\n")
            .replace("0 1.5 3 -1 1 0\n", "0 1.5 2 -1 0\n")
            .replace("1.5 1.5 2 1 -1\n", "1.5 1.5 1 1\n");
        let found = problems(&broken);
        let lines: Vec<(usize, Option<usize>, Option<usize>)> = found
            .iter()
            .map(|p| (p.line, p.polygon, p.vertex))
            .collect();
        assert_eq!(
            lines,
            [(8, Some(0), None), (6, None, Some(2)), (7, None, Some(3))],
            "{found:#?}"
        );
        assert!(
            found[0].message.contains(
                "lists -1 (a wall) across its edge 1–3, where the polygons give polygon 1"
            ),
            "{}",
            found[0].message
        );
        assert!(
            found[1]
                .message
                .contains("lists 0 gaps (-1), but the polygons around it leave 1"),
            "{}",
            found[1].message
        );
        assert!(
            found[2]
                .message
                .contains("lists the polygons [0], but it is a corner of [0, 1]"),
            "{}",
            found[2].message
        );
        // A mesh we write has none.
        let written = to_polyanya(
            &parse(broken.as_bytes(), "b.mesh").expect("reads"),
            PolygonShape::Convex,
        )
        .expect("writes");
        assert_eq!(problems(&written), []);
    }

    #[test]
    fn an_edge_with_three_triangles_is_refused() {
        let mesh = flat_test_mesh(
            &[[0.0, 0.0], [1.0, 0.0], [0.5, 1.0], [0.5, -1.0], [0.5, 2.0]],
            &[vec![0, 1, 2], vec![1, 0, 3], vec![0, 1, 4]],
        );
        let error = to_polyanya(&mesh, PolygonShape::Convex).expect_err("not flat");
        assert!(
            matches!(error, WriteError::NonManifold { count: 3, .. }),
            "{error}"
        );
        let message = error.to_string();
        assert!(
            message.contains("between (0.000, 0.000) and (1.000, 0.000)"),
            "{message}"
        );
        assert!(message.contains("save as OBJ"), "{message}");
    }
}
