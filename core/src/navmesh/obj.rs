//! Wavefront OBJ navmeshes, read with [`tobj`]: `f a/b/c` forms, negative indices, quads and
//! n-gons, normals and uvs (ignored), comments and several objects (merged) are all accepted.

use super::{LoadError, NavMesh, Plane, RawMesh, ReadOptions};
use std::io::{BufRead, Read};
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
/// the line of the first problem, and of the first limit passed (see [`crate::input`]).
fn read_polygons(bytes: &[u8], file: &str, plane: Plane) -> Result<RawMesh, LoadError> {
    let syntax = |line: usize, message: String| LoadError::Syntax {
        file: file.to_string(),
        line,
        message,
    };
    check_limits(bytes).map_err(|(line, message)| syntax(line, message))?;
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: true,
        ignore_lines: true,
    };
    // Navigation needs positions only: keep just the position index of each face corner, so a
    // dangling normal or uv reference (common in hand-edited files) does not reject the mesh.
    let original = bytes;
    let bytes = &positions_only_faces(bytes);
    let mut reader = LineCountingReader::new(bytes);
    let loaded = tobj::load_obj_buf(&mut reader, &options, |_| {
        // Materials do not matter to navigation; never open .mtl files.
        Err(tobj::LoadError::OpenFileFailed)
    });
    let models = match loaded {
        Ok((models, _materials)) => models,
        Err(error) => {
            let line = match error {
                tobj::LoadError::FaceVertexOutOfBounds => find_out_of_range_face(bytes),
                _ => None,
            }
            .unwrap_or_else(|| reader.current_line());
            let hint = match error {
                tobj::LoadError::ReadError => " (is this a text file?)",
                tobj::LoadError::FaceParseError => " (faces are `f a b c`, 1-based indices)",
                _ => "",
            };
            return Err(syntax(line, format!("not a valid OBJ: {error}{hint}")));
        }
    };

    let mut positions: Vec<[f64; 3]> = Vec::new();
    let mut polygons: Vec<Vec<usize>> = Vec::new();
    for model in models {
        let mesh = model.mesh;
        let base = positions.len();
        positions.extend(mesh.positions.chunks_exact(3).map(|c| [c[0], c[1], c[2]]));
        let mut offset = 0usize;
        let arities: Vec<usize> = if mesh.face_arities.is_empty() {
            vec![3; mesh.indices.len() / 3]
        } else {
            mesh.face_arities.iter().map(|&a| a as usize).collect()
        };
        for arity in arities {
            let Some(face) = mesh.indices.get(offset..offset + arity) else {
                break;
            };
            polygons.push(face.iter().map(|&i| base + i as usize).collect());
            offset += arity;
        }
    }
    if polygons.is_empty() {
        let message = if positions.is_empty() {
            "no vertices (`v x y z`) or faces (`f a b c`): is this an OBJ file?"
        } else {
            "vertices but no faces (`f a b c`): a navmesh needs faces"
        };
        return Err(syntax(reader.current_line(), message.to_string()));
    }
    let mut raw = RawMesh::new(positions, polygons, plane);
    raw.vertex_ids = file_vertex_ids(bytes, &raw);
    raw.normals = normal_agreement(original);
    read_areas(bytes, &mut raw).map_err(|(line, message)| syntax(line, message))?;
    Ok(raw)
}

/// How the faces' winding (right-hand rule) agrees with the vertex normals the file gives their
/// corners (`f a//n`, `f a/t/n`), in area; `None` when no face has normals at every corner.
/// Read apart from the parser, which keeps positions only; faces naming a vertex or normal that
/// is not there are skipped.
fn normal_agreement(bytes: &[u8]) -> Option<super::walkable::NormalAgreement> {
    if !bytes.windows(3).any(|w| w == b"vn ") {
        return None;
    }
    let parse3 = |tokens: &mut dyn Iterator<Item = &[u8]>| -> Option<[f64; 3]> {
        let mut c = [0.0; 3];
        for x in &mut c {
            *x = std::str::from_utf8(tokens.next()?).ok()?.parse().ok()?;
        }
        Some(c)
    };
    let index = |word: &[u8], count: usize| -> Option<usize> {
        let i: i64 = std::str::from_utf8(word).ok()?.parse().ok()?;
        let i = if i < 0 { count as i64 + i } else { i - 1 };
        usize::try_from(i).ok().filter(|&i| i < count)
    };
    let (mut positions, mut normals): (Vec<[f64; 3]>, Vec<[f64; 3]>) = (Vec::new(), Vec::new());
    let mut agreement = super::walkable::NormalAgreement::default();
    let mut any = false;
    for line in bytes.split(|&b| b == b'\n') {
        let mut tokens = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty());
        match tokens.next() {
            Some(b"v") => positions.push(parse3(&mut tokens).unwrap_or([0.0; 3])),
            Some(b"vn") => normals.push(parse3(&mut tokens).unwrap_or([0.0; 3])),
            Some(b"f") => {
                let corners: Option<Vec<(usize, usize)>> = tokens
                    .map(|word| {
                        let mut parts = word.split(|&b| b == b'/');
                        let p = index(parts.next()?, positions.len())?;
                        let n = index(parts.nth(1)?, normals.len())?;
                        Some((p, n))
                    })
                    .collect();
                let Some(corners) = corners.filter(|c| c.len() >= 3) else {
                    continue;
                };
                let face: Vec<usize> = corners.iter().map(|&(p, _)| p).collect();
                let Some(winding) = super::walkable::face_normal(&positions, &face) else {
                    continue;
                };
                let given = corners.iter().fold([0.0; 3], |s, &(_, n)| {
                    let v = normals.get(n).copied().unwrap_or_default();
                    [s[0] + v[0], s[1] + v[1], s[2] + v[2]]
                });
                let dot = winding[0] * given[0] + winding[1] * given[1] + winding[2] * given[2];
                let area = 0.5
                    * (winding[0] * winding[0] + winding[1] * winding[1] + winding[2] * winding[2])
                        .sqrt();
                if dot > 0.0 {
                    agreement.agree += area;
                    any = true;
                } else if dot < 0.0 {
                    agreement.disagree += area;
                    any = true;
                }
            }
            _ => {}
        }
    }
    any.then_some(agreement)
}

/// The prefix of a group or material name that gives its faces an area type.
pub const AREA_PREFIX: &str = "area:";

/// Area types from `g area:NAME` and `usemtl area:NAME` lines: each face takes the area of
/// the latest such line before it (a group or material without the prefix sets ground). Names
/// must be [valid](super::areas::is_valid_name); at most
/// [`MAX_AREA_TYPES`](super::areas::MAX_AREA_TYPES) in all.
fn read_areas(bytes: &[u8], raw: &mut RawMesh) -> Result<(), (usize, String)> {
    use super::areas::{MAX_AREA_TYPES, intern, is_valid_name};
    if !bytes
        .windows(AREA_PREFIX.len())
        .any(|w| w == AREA_PREFIX.as_bytes())
    {
        return Ok(());
    }
    let text = String::from_utf8_lossy(bytes);
    let mut current = 0;
    let mut areas = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut tokens = line.split_whitespace();
        match tokens.next() {
            Some("g" | "o" | "usemtl") => {
                let name = tokens.next().unwrap_or("");
                current = match name.strip_prefix(AREA_PREFIX) {
                    None => 0,
                    Some(area) if !is_valid_name(area) => {
                        return Err((
                            i + 1,
                            "an area name (after `area:`) is 1 to 32 letters, digits, `_` or `-`"
                                .to_string(),
                        ));
                    }
                    Some(area) => intern(&mut raw.area_names, area).ok_or_else(|| {
                        (
                            i + 1,
                            format!(
                                "more than {MAX_AREA_TYPES} area types (built-in ones included)"
                            ),
                        )
                    })?,
                };
            }
            Some("f") if tokens.clone().count() >= 3 => areas.push(current),
            _ => {}
        }
    }
    // Faces the reader kept are the face lines of three or more corners, in order.
    if areas.len() == raw.polygons.len() && areas.iter().any(|&a| a != 0) {
        raw.polygon_areas = areas;
    }
    Ok(())
}

/// The reader numbers vertices by first use in each object; reports should use the file's
/// numbers, so they are mapped back through the faces (both lists are in file order). Empty
/// when the two do not line up.
fn file_vertex_ids(bytes: &[u8], raw: &RawMesh) -> Vec<usize> {
    let file_faces = file_face_indices(bytes);
    let same_shape = file_faces.len() == raw.polygons.len()
        && file_faces
            .iter()
            .zip(&raw.polygons)
            .all(|(f, p)| f.len() == p.len());
    if !same_shape {
        return Vec::new();
    }
    let mut ids = vec![usize::MAX; raw.positions.len()];
    for (file_face, poly) in file_faces.iter().zip(&raw.polygons) {
        for (&file_id, &v) in file_face.iter().zip(poly) {
            if let Some(slot) = ids.get_mut(v) {
                *slot = file_id;
            }
        }
    }
    if ids.iter().all(|&id| id != usize::MAX) {
        ids
    } else {
        Vec::new()
    }
}

/// Every face line: its 1-based line number, the number of vertices read before it, and each
/// corner as a 0-based vertex number (relative indices resolved; out of range when the file is
/// wrong), or `None` for a token that is not a non-zero integer.
fn face_lines(bytes: &[u8]) -> Vec<(usize, i64, Vec<Option<i64>>)> {
    let text = String::from_utf8_lossy(bytes);
    let mut vertex_count: i64 = 0;
    let mut faces = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut tokens = line.split_whitespace();
        match tokens.next() {
            Some("v") => vertex_count += 1,
            Some("f") => {
                let corners = tokens
                    .map(|token| {
                        let k: i64 = token.split('/').next()?.parse().ok()?;
                        match k {
                            0 => None,
                            k if k > 0 => Some(k - 1),
                            k => Some(vertex_count + k),
                        }
                    })
                    .collect();
                faces.push((i + 1, vertex_count, corners));
            }
            _ => {}
        }
    }
    faces
}

/// The 0-based file vertex numbers of each face with three or more corners, in file order.
/// A face with an unreadable index gets an empty list.
fn file_face_indices(bytes: &[u8]) -> Vec<Vec<usize>> {
    face_lines(bytes)
        .into_iter()
        .map(|(_, _, corners)| {
            corners
                .into_iter()
                .map(|c| usize::try_from(c?).ok())
                .collect::<Option<Vec<usize>>>()
                .unwrap_or_default()
        })
        .filter(|corners| corners.len() >= 3)
        .collect()
}

/// Rewrites `f a/b/c ...` lines as `f a ...`, line for line (line numbers are unchanged).
fn positions_only_faces(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let trimmed = line.trim_ascii_start();
        let is_face = trimmed.starts_with(b"f ") || trimmed.starts_with(b"f\t");
        if !is_face || !line.contains(&b'/') {
            out.extend_from_slice(line);
            continue;
        }
        let mut in_suffix = false;
        for &b in line {
            match b {
                b'/' => in_suffix = true,
                b' ' | b'\t' | b'\r' | b'\n' => {
                    in_suffix = false;
                    out.push(b);
                }
                _ if in_suffix => {}
                _ => out.push(b),
            }
        }
    }
    out
}

/// A first pass over the file, before it is parsed: the line of the first vertex with a
/// coordinate that is not a finite number (the parser would take NaN) or is beyond
/// [`MAX_COORDINATE`](crate::input::MAX_COORDINATE), of the vertex past
/// [`MAX_VERTICES`](crate::input::MAX_VERTICES), of a face of more than
/// [`MAX_POLYGON_CORNERS`](crate::input::MAX_POLYGON_CORNERS) corners, or of the face that
/// takes the mesh past [`MAX_TRIANGLES`](crate::input::MAX_TRIANGLES); with what is wrong.
fn check_limits(bytes: &[u8]) -> Result<(), (usize, String)> {
    use crate::input::{MAX_COORDINATE, MAX_POLYGON_CORNERS, MAX_TRIANGLES, MAX_VERTICES};
    use crate::words::thousands;
    let (mut vertices, mut triangles) = (0usize, 0usize);
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let mut tokens = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty());
        match tokens.next() {
            Some(b"v") => {
                vertices += 1;
                if vertices > MAX_VERTICES {
                    return Err((
                        i + 1,
                        format!(
                            "more than {} vertices, the most navlab reads of a mesh",
                            thousands(MAX_VERTICES)
                        ),
                    ));
                }
                for token in tokens {
                    let Some(value) = std::str::from_utf8(token)
                        .ok()
                        .and_then(|t| t.parse::<f64>().ok())
                    else {
                        // Not a number: the parser says so itself.
                        continue;
                    };
                    let shown = || crate::input::quoted(&String::from_utf8_lossy(token));
                    if !value.is_finite() {
                        return Err((
                            i + 1,
                            format!("vertex coordinate {} is not a finite number", shown()),
                        ));
                    }
                    if value.abs() > MAX_COORDINATE {
                        return Err((
                            i + 1,
                            format!(
                                "vertex coordinate {} is beyond ±{MAX_COORDINATE:e}, the \
                                 largest navlab takes (a mesh must fit in that box)",
                                shown()
                            ),
                        ));
                    }
                }
            }
            Some(b"f") => {
                let corners = tokens.count();
                if corners > MAX_POLYGON_CORNERS {
                    return Err((
                        i + 1,
                        format!(
                            "a face of {} corners, more than the {} navlab triangulates",
                            thousands(corners),
                            thousands(MAX_POLYGON_CORNERS)
                        ),
                    ));
                }
                triangles += corners.saturating_sub(2);
                if triangles > MAX_TRIANGLES {
                    return Err((
                        i + 1,
                        format!(
                            "the faces so far make more than {} triangles, the most navlab \
                             builds a mesh of",
                            thousands(MAX_TRIANGLES)
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Finds the line of the first face naming a vertex that does not exist (yet). Tokens that are
/// not numbers are left to the parser, which reports them itself.
fn find_out_of_range_face(bytes: &[u8]) -> Option<usize> {
    face_lines(bytes)
        .into_iter()
        .find(|(_, count, corners)| corners.iter().flatten().any(|&c| c < 0 || c >= *count))
        .map(|(line, _, _)| line)
}

/// A reader that knows which line it is on, so parser errors can name it.
struct LineCountingReader<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl<'a> LineCountingReader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, position: 0 }
    }

    /// The 1-based line holding the last byte handed out.
    fn current_line(&self) -> usize {
        let end = self.position.saturating_sub(1).min(self.bytes.len());
        self.bytes
            .get(..end)
            .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
            + 1
    }
}

impl Read for LineCountingReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for LineCountingReader<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        Ok(self.bytes.get(self.position..).unwrap_or(&[]))
    }

    fn consume(&mut self, amount: usize) {
        self.position = (self.position + amount).min(self.bytes.len());
    }
}
