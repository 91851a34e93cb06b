//! Wavefront OBJ navmeshes: `f a/b/c` forms, negative indices, quads and n-gons, normals and
//! uvs (a face's normals only tell which way it faces), comments, several objects (merged) and
//! text that is not UTF-8 outside the numbers are all accepted.
//!
//! One pass over the bytes, line by line: every limit of [`crate::input`] is kept as it is
//! met, every error names its line, and vertices keep the file's numbering. (The `tobj` crate,
//! which parses OBJ for rendering, numbers vertices by first use in each object, names no line
//! in its errors and has read the whole file before a limit could be checked; it serves as the
//! oracle of this reader's tests.)

use super::{LoadError, NavMesh, Plane, RawMesh, ReadOptions};
use std::path::Path;

/// Loads an OBJ file (at most [`MAX_MESH_BYTES`](crate::input::MAX_MESH_BYTES)).
pub fn load(path: &Path, plane: Plane) -> Result<NavMesh, LoadError> {
    let file = crate::input::shown(path);
    let raw = load_raw(path, plane)?;
    NavMesh::from_read(raw, &file, ReadOptions::default())
}

/// The polygons of an OBJ file as it has them (see [`load`]).
pub fn load_raw(path: &Path, plane: Plane) -> Result<RawMesh, LoadError> {
    // The file's bytes are gone before the mesh is built: one copy of the mesh at a time.
    let (bytes, file) = super::read_mesh_file(path)?;
    read_polygons(&bytes, &file, plane)
}

/// Parses OBJ text; `file` names it in error messages.
pub fn parse(bytes: &[u8], file: &str, plane: Plane) -> Result<NavMesh, LoadError> {
    let raw = read_polygons(bytes, file, plane)?;
    NavMesh::from_read(raw, file, ReadOptions::default())
}

/// The polygons of OBJ text as it has them; `file` names it in error messages.
pub fn parse_raw(bytes: &[u8], file: &str, plane: Plane) -> Result<RawMesh, LoadError> {
    read_polygons(bytes, file, plane)
}

/// The positions and polygons of OBJ text, vertices numbered as in the file; an error naming
/// the line of the first problem, or of the first limit passed (see [`crate::input`]).
fn read_polygons(bytes: &[u8], file: &str, plane: Plane) -> Result<RawMesh, LoadError> {
    let syntax = |line: usize, message: String| LoadError::Syntax {
        file: file.to_string(),
        line,
        message,
    };
    let mut reader = Reader::default();
    let mut lines = 0;
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        lines = i + 1;
        reader
            .line(line)
            .map_err(|message| syntax(i + 1, message))?;
    }
    if reader.polygons.is_empty() {
        let message = if reader.positions.is_empty() {
            "no vertices (`v x y z`) or faces (`f a b c`): is this an OBJ file?"
        } else {
            "vertices but no faces (`f a b c`): a navmesh needs faces"
        };
        return Err(syntax(lines.max(1), message.to_string()));
    }
    let mut raw = RawMesh::new(reader.positions, reader.polygons, plane);
    raw.normals = reader.any_normals.then_some(reader.agreement);
    if reader.areas.iter().any(|&a| a != 0) {
        raw.polygon_areas = reader.areas;
    }
    raw.area_names = reader.area_names;
    Ok(raw)
}

/// The prefix of a group or material name that gives its faces an area type.
pub const AREA_PREFIX: &str = "area:";

/// What is read so far.
struct Reader {
    positions: Vec<[f64; 3]>,
    /// The file's vertex normals (`vn`): only which way each face faces is taken from them.
    normals: Vec<[f64; 3]>,
    polygons: Vec<Vec<usize>>,
    /// Each polygon's area type.
    areas: Vec<super::areas::AreaId>,
    area_names: Vec<String>,
    /// The area type of faces from here on: set by `g`, `o` and `usemtl` lines.
    area: super::areas::AreaId,
    /// Triangles the faces so far make.
    triangles: usize,
    /// How the faces' winding agrees with their corners' normals, when any face has them.
    agreement: super::walkable::NormalAgreement,
    any_normals: bool,
    /// The corners of the face being read, and their normals.
    corners: Vec<usize>,
    corner_normals: Vec<Option<usize>>,
}

impl Default for Reader {
    fn default() -> Self {
        Self {
            positions: Vec::new(),
            normals: Vec::new(),
            polygons: Vec::new(),
            areas: Vec::new(),
            area_names: super::areas::built_in_names(),
            area: 0,
            triangles: 0,
            agreement: Default::default(),
            any_normals: false,
            corners: Vec::new(),
            corner_normals: Vec::new(),
        }
    }
}

/// The number `token` is, when it is one (its text never goes into a message).
fn number(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// A 1-based (or, negative, relative) index of an element among `count` read so far, 0-based;
/// `Err` for a token that is not a non-zero integer, `Ok(None)` when there is no such element.
fn index(token: &[u8], count: usize) -> Result<Option<usize>, ()> {
    let i: i64 = std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse().ok())
        .ok_or(())?;
    let i = match i {
        0 => return Err(()),
        i if i > 0 => i - 1,
        i => i64::try_from(count).map_err(|_| ())? + i,
    };
    Ok(usize::try_from(i).ok().filter(|&i| i < count))
}

impl Reader {
    /// Reads one line (without its `\n`); the message when it is wrong.
    fn line(&mut self, line: &[u8]) -> Result<(), String> {
        let mut tokens = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty());
        match tokens.next() {
            Some(b"v") => self.vertex(tokens),
            Some(b"vn") => {
                let mut normal = [0.0; 3];
                for (c, token) in normal.iter_mut().zip(tokens) {
                    *c = number(token).filter(|x| x.is_finite()).unwrap_or(0.0);
                }
                self.normals.push(normal);
                Ok(())
            }
            Some(b"f") => self.face(tokens),
            Some(b"g" | b"o" | b"usemtl") => self.group(tokens.next().unwrap_or_default()),
            // Texture coordinates, lines, points, smoothing, materials' files, comments.
            _ => Ok(()),
        }
    }

    /// `v x y z [w]` (or `v x y z r g b`: colours are left out).
    fn vertex<'a>(&mut self, tokens: impl Iterator<Item = &'a [u8]>) -> Result<(), String> {
        use crate::input::{MAX_COORDINATE, MAX_VERTICES};
        use crate::words::thousands;
        if self.positions.len() == MAX_VERTICES {
            return Err(format!(
                "more than {} vertices, the most navlab reads of a mesh",
                thousands(MAX_VERTICES)
            ));
        }
        // At most seven values (x y z, then w or a colour): counted, not collected.
        let mut slots: [&[u8]; 7] = [&[]; 7];
        let mut count = 0;
        for (slot, token) in slots.iter_mut().zip(tokens) {
            *slot = token;
            count += 1;
        }
        let values = &slots[..count];
        let mut position = [0.0; 3];
        for (c, token) in position.iter_mut().zip(values) {
            *c = number(token).ok_or(
                "not a valid OBJ: position parse error (a vertex is `v x y z`, three numbers)",
            )?;
        }
        if values.len() < 3 {
            return Err(
                "not a valid OBJ: position parse error (a vertex is `v x y z`, three numbers)"
                    .to_string(),
            );
        }
        if let [_, _, _, w] = values {
            let w = number(w).ok_or("not a valid OBJ: position parse error (`v x y z w`)")?;
            if w == 0.0 {
                return Err("not a valid OBJ: a vertex scaled by w = 0".to_string());
            }
            position = position.map(|c| c / w);
        }
        for (c, token) in position.iter().zip(values) {
            let shown = || crate::input::quoted(&String::from_utf8_lossy(token));
            if !c.is_finite() {
                return Err(format!(
                    "vertex coordinate {} is not a finite number",
                    shown()
                ));
            }
            if c.abs() > MAX_COORDINATE {
                return Err(format!(
                    "vertex coordinate {} is beyond ±{MAX_COORDINATE:e}, the largest navlab \
                     takes (a mesh must fit in that box)",
                    shown()
                ));
            }
        }
        self.positions.push(position);
        Ok(())
    }

    /// `f a b c …`, each corner `a`, `a/t`, `a//n` or `a/t/n`: the positions make the polygon
    /// (a face of fewer than three corners is a point or a line, left out), the normals say
    /// which way it faces. A normal or uv that is not there is left out (common in
    /// hand-edited files); a position that is not there is an error.
    fn face<'a>(&mut self, tokens: impl Iterator<Item = &'a [u8]>) -> Result<(), String> {
        use crate::input::{MAX_POLYGON_CORNERS, MAX_TRIANGLES};
        use crate::words::thousands;
        const PARSE: &str =
            "not a valid OBJ: face parse error (faces are `f a b c`, 1-based indices)";
        self.corners.clear();
        self.corner_normals.clear();
        let mut tokens = tokens.enumerate();
        while let Some((k, token)) = tokens.next() {
            if k == MAX_POLYGON_CORNERS {
                // Counted to the end only for the message.
                return Err(format!(
                    "a face of {} corners, more than the {} navlab triangulates",
                    thousands(k + 1 + tokens.count()),
                    thousands(MAX_POLYGON_CORNERS)
                ));
            }
            let mut parts = token.split(|&b| b == b'/');
            let position = index(parts.next().unwrap_or_default(), self.positions.len())
                .map_err(|()| PARSE)?
                .ok_or("not a valid OBJ: face vertex index out of bounds")?;
            let normal = match parts.nth(1) {
                Some(n) if !n.is_empty() => index(n, self.normals.len()).map_err(|()| PARSE)?,
                _ => None,
            };
            self.corners.push(position);
            self.corner_normals.push(normal);
        }
        if self.corners.len() < 3 {
            return Ok(());
        }
        self.triangles += self.corners.len() - 2;
        if self.triangles > MAX_TRIANGLES {
            return Err(format!(
                "the faces so far make more than {} triangles, the most navlab builds a mesh of",
                thousands(MAX_TRIANGLES)
            ));
        }
        self.weigh_normals();
        self.polygons.push(self.corners.clone());
        self.areas.push(self.area);
        Ok(())
    }

    /// Adds the face read to the agreement of windings and normals, when every corner has a
    /// normal.
    fn weigh_normals(&mut self) {
        let given = self
            .corner_normals
            .iter()
            .try_fold([0.0; 3], |s: [f64; 3], &n| {
                let v = self.normals.get(n?)?;
                Some([s[0] + v[0], s[1] + v[1], s[2] + v[2]])
            });
        let Some(given) = given else {
            return;
        };
        let Some(winding) = super::walkable::face_normal(&self.positions, &self.corners) else {
            return;
        };
        let dot = winding[0] * given[0] + winding[1] * given[1] + winding[2] * given[2];
        let area = 0.5
            * (winding[0] * winding[0] + winding[1] * winding[1] + winding[2] * winding[2]).sqrt();
        if dot > 0.0 {
            self.agreement.agree += area;
            self.any_normals = true;
        } else if dot < 0.0 {
            self.agreement.disagree += area;
            self.any_normals = true;
        }
    }

    /// `g NAME`, `o NAME` or `usemtl NAME`: faces from here on are of the area type `area:TYPE`
    /// names, or ground. Names must be [valid](super::areas::is_valid_name); at most
    /// [`MAX_AREA_TYPES`](super::areas::MAX_AREA_TYPES) in all.
    fn group(&mut self, name: &[u8]) -> Result<(), String> {
        use super::areas::{MAX_AREA_TYPES, intern, is_valid_name};
        self.area = match name.strip_prefix(AREA_PREFIX.as_bytes()) {
            None => 0,
            Some(area) => {
                let area = std::str::from_utf8(area)
                    .ok()
                    .filter(|a| is_valid_name(a))
                    .ok_or_else(|| {
                        "an area name (after `area:`) is 1 to 32 letters, digits, `_` or `-`"
                            .to_string()
                    })?;
                intern(&mut self.area_names, area).ok_or_else(|| {
                    format!("more than {MAX_AREA_TYPES} area types (built-in ones included)")
                })?
            }
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One line of a random OBJ file that `tobj` reads too.
    #[derive(Debug, Clone)]
    enum Line {
        Vertex([i16; 3]),
        Normal,
        Uv,
        /// Corners as (index choice, form): the index is taken modulo the vertices so far and
        /// written absolute or relative; the form adds a uv, a normal or both.
        Face(Vec<(usize, bool, u8)>),
        Group(u8),
        Comment,
    }

    fn line() -> impl Strategy<Value = Line> {
        prop_oneof![
            3 => any::<[i16; 3]>().prop_map(Line::Vertex),
            1 => Just(Line::Normal),
            1 => Just(Line::Uv),
            3 => proptest::collection::vec((any::<usize>(), any::<bool>(), 0u8..4), 3..7)
                .prop_map(Line::Face),
            1 => (0u8..4).prop_map(Line::Group),
            1 => Just(Line::Comment),
        ]
    }

    /// The text of `lines`, with a first normal and uv so that every face may name them.
    fn text(lines: &[Line]) -> String {
        let mut out = String::from("# made by a test\nvn 0 1 0\nvt 0 0\n");
        let mut vertices = 0usize;
        for line in lines {
            match line {
                Line::Vertex([x, y, z]) => {
                    vertices += 1;
                    out += &format!("v {} {}.5 {}\n", x, y, z);
                }
                Line::Normal => out += "vn 0 0 1\n",
                Line::Uv => out += "vt 0.5 0.5\n",
                Line::Face(corners) if vertices > 0 => {
                    out += "f";
                    for &(choice, relative, form) in corners {
                        let k = choice % vertices;
                        let index = if relative {
                            format!("-{}", vertices - k)
                        } else {
                            format!("{}", k + 1)
                        };
                        out += &match form {
                            0 => format!(" {index}"),
                            1 => format!(" {index}/1"),
                            2 => format!(" {index}//1"),
                            _ => format!(" {index}/1/1"),
                        };
                    }
                    out += "\n";
                }
                Line::Face(_) => {}
                Line::Group(g) => out += &format!("o part{g}\n"),
                Line::Comment => out += "# a comment\n",
            }
        }
        out
    }

    proptest! {
        #[test]
        fn polygons_are_those_tobj_reads(lines in proptest::collection::vec(line(), 0..40)) {
            let text = text(&lines);
            let ours = parse_raw(text.as_bytes(), "random.obj", Plane::Xz);
            let options = tobj::LoadOptions {
                single_index: false,
                triangulate: false,
                ignore_points: true,
                ignore_lines: true,
            };
            let theirs = tobj::load_obj_buf(&mut text.as_bytes(), &options, |_| {
                Err(tobj::LoadError::OpenFileFailed)
            });
            // Each polygon as the positions of its corners, in file order.
            let mut expected: Vec<Vec<[f64; 3]>> = Vec::new();
            if let Ok((models, _)) = &theirs {
                for model in models {
                    let mesh = &model.mesh;
                    let mut at = 0;
                    // No arities: every face is a triangle.
                    let arities = if mesh.face_arities.is_empty() {
                        vec![3; mesh.indices.len() / 3]
                    } else {
                        mesh.face_arities.clone()
                    };
                    for arity in arities {
                        let face = &mesh.indices[at..at + arity as usize];
                        expected.push(
                            face.iter()
                                .map(|&i| {
                                    let p = &mesh.positions[3 * i as usize..3 * i as usize + 3];
                                    [p[0], p[1], p[2]]
                                })
                                .collect(),
                        );
                        at += arity as usize;
                    }
                }
            }
            match ours {
                Ok(raw) => {
                    let got: Vec<Vec<[f64; 3]>> = raw
                        .polygons
                        .iter()
                        .map(|p| p.iter().map(|&i| raw.positions[i]).collect())
                        .collect();
                    prop_assert!(theirs.is_ok(), "tobj refuses what navlab reads");
                    prop_assert_eq!(got, expected);
                }
                // No faces (navlab needs some); tobj reads such a file as empty.
                Err(_) => prop_assert!(expected.is_empty()),
            }
        }
    }

    #[test]
    fn errors_name_the_line_and_limits_are_kept_as_met() {
        let cases: [(&str, usize, &str); 7] = [
            (
                "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n",
                4,
                "index out of bounds",
            ),
            (
                "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 0 1\n",
                3,
                "index out of bounds",
            ),
            ("v 0 0 0\nv 1 x 0\n", 2, "position parse error"),
            ("v 0 0\n", 1, "position parse error"),
            (
                "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 0\n",
                4,
                "face parse error",
            ),
            ("v 0 0 0\nv 1 0 inf\n", 2, "not a finite number"),
            (
                "v 0 0 0\nv 1 0 0\nv 0 0 1\ng area:lava!\nf 1 2 3\n",
                4,
                "area name",
            ),
        ];
        for (text, line, words) in cases {
            let error = parse_raw(text.as_bytes(), "t.obj", Plane::Xz).expect_err(text);
            let message = error.to_string();
            assert!(
                message.starts_with(&format!("t.obj:{line}: ")),
                "{text:?}: {message}"
            );
            assert!(message.contains(words), "{text:?}: {message}");
        }
    }

    #[test]
    fn a_normal_that_is_not_there_is_left_out_and_windings_are_weighed() {
        // Wound clockwise seen from above (down in XZ) against an up normal; the last face names
        // a normal that is not there and is read without it.
        let text = "v 0 0 0\nv 1 0 0\nv 0 0 1\nvn 0 1 0\nf 1//1 2//1 3//1\nf 1//1 3//1 2//7\n";
        let raw = parse_raw(text.as_bytes(), "n.obj", Plane::Xz).expect("reads");
        assert_eq!(raw.polygons, [vec![0, 1, 2], vec![0, 2, 1]]);
        let agreement = raw.normals.expect("normals given");
        assert_eq!((agreement.agree, agreement.disagree), (0.0, 0.5));
    }
}
