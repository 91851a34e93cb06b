//! The walkable surface of level geometry: the faces whose normal is within a maximum slope of
//! up, as Recast decides it (the normal by the file's winding, right-hand rule), so that walls,
//! ceilings and undersides are left out before the mesh is built.
//!
//! Up is +Y for meshes in the XZ plane and +Z for those in the XY plane. A file wound the other
//! way (an exporter that winds clockwise, or mirrors) is read as if flipped first: one whose
//! winding disagrees with its own vertex normals, or, without them, whose faces nearly all face
//! down (under 1 % of the area within the slope faces up).

use super::{Plane, RawMesh};
use serde::Serialize;

/// The steepest slope a face may have and still be walked on, in degrees from up, that navlab
/// suggests for level geometry (Recast's default).
pub const SUGGESTED_MAX_SLOPE: f64 = 45.0;

/// Below this share of the up-facing area (among the faces within the slope either way up) a
/// file is read as wound the other way.
const FLIP_BELOW: f64 = 0.01;

/// Above this share of steep or down-facing area a mesh looks like level geometry rather than a
/// navmesh.
const LEVEL_GEOMETRY_ABOVE: f64 = 0.5;

/// What the filter kept and left out, in faces, the triangles they make, and surface area (in
/// 3D, as the file has it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct WalkableSummary {
    /// The steepest slope kept, in degrees from up (`None`: the filter was not applied, every
    /// face kept).
    pub max_slope: Option<f64>,
    /// True when the file was read as wound the other way (its faces nearly all face down).
    pub flipped: bool,
    /// Faces kept.
    pub walkable_faces: usize,
    /// Triangles they make (a face of n corners makes n − 2).
    pub walkable_triangles: usize,
    /// Their area.
    pub walkable_area: f64,
    /// Faces left out.
    pub dropped_faces: usize,
    /// Triangles they make.
    pub dropped_triangles: usize,
    /// Their area.
    pub dropped_area: f64,
}

/// The up direction of a plane's meshes.
pub fn up(plane: Plane) -> [f64; 3] {
    match plane {
        Plane::Xz => [0.0, 1.0, 0.0],
        Plane::Xy => [0.0, 0.0, 1.0],
    }
}

/// The face's normal by its winding (right-hand rule, Newell's method), twice its area long;
/// `None` when a corner is missing.
pub fn face_normal(positions: &[[f64; 3]], face: &[usize]) -> Option<[f64; 3]> {
    let mut n = [0.0; 3];
    for (k, &i) in face.iter().enumerate() {
        let a = positions.get(i)?;
        let b = positions.get(*face.get((k + 1) % face.len())?)?;
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    Some(n)
}

fn length(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// How the faces' winding agrees with the vertex normals a file gives them (`vn`), in area.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct NormalAgreement {
    /// Area of the faces whose winding normal points the way their vertex normals do.
    pub agree: f64,
    /// Area of the faces whose winding normal points against them.
    pub disagree: f64,
}

/// Each face's area and the cosine of its normal's angle with up (0 for a face of no area).
fn faces(raw: &RawMesh) -> Vec<(f64, f64)> {
    let up = up(raw.plane);
    raw.polygons
        .iter()
        .map(|face| {
            let n = face_normal(&raw.positions, face).unwrap_or([0.0; 3]);
            let twice = length(n);
            if twice > 0.0 && twice.is_finite() {
                (twice / 2.0, dot(n, up) / twice)
            } else {
                (0.0, 0.0)
            }
        })
        .collect()
}

/// The share of a mesh's area that is steeper than [`SUGGESTED_MAX_SLOPE`] or faces down,
/// taking the file's winding and, when nearly everything faces down, the other one: above one
/// half, the mesh looks like level geometry (walls, ceilings) rather than a navmesh.
pub fn steep_share(raw: &RawMesh) -> f64 {
    let faces = faces(raw);
    let total: f64 = faces.iter().map(|&(a, _)| a).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let cos_max = SUGGESTED_MAX_SLOPE.to_radians().cos();
    let flipped = flips(raw, &faces, cos_max);
    let (up, down) = within_slope(&faces, cos_max);
    let kept = if flipped { down } else { up };
    (1.0 - kept / total).clamp(0.0, 1.0)
}

/// True when a mesh looks like level geometry rather than a navmesh (see [`steep_share`]).
pub fn looks_like_level_geometry(raw: &RawMesh) -> bool {
    steep_share(raw) > LEVEL_GEOMETRY_ABOVE
}

/// The area within the slope facing up, and facing down.
fn within_slope(faces: &[(f64, f64)], cos_max: f64) -> (f64, f64) {
    let mut up = 0.0;
    let mut down = 0.0;
    for &(area, cos) in faces {
        if cos >= cos_max {
            up += area;
        } else if -cos >= cos_max {
            down += area;
        }
    }
    (up, down)
}

/// True when the mesh is wound the other way. Where the file gives vertex normals (`vn`) for
/// most of its area, they decide: it is flipped when its winding disagrees with them over more
/// area than it agrees (a mirroring exporter keeps the normals and reverses the winding).
/// Otherwise it is flipped when nearly all its area within the slope faces down: under
/// [`FLIP_BELOW`] faces up.
fn flips(raw: &RawMesh, faces: &[(f64, f64)], cos_max: f64) -> bool {
    let total: f64 = faces.iter().map(|&(a, _)| a).sum();
    if let Some(normals) = raw.normals
        && normals.agree + normals.disagree >= 0.5 * total
    {
        return normals.disagree > normals.agree;
    }
    let (up, down) = within_slope(faces, cos_max);
    down > 0.0 && up < FLIP_BELOW * (up + down)
}

/// Leaves out of `raw` the faces steeper than `max_slope` degrees from up (and those facing
/// down), keeping them in [`RawMesh::dropped_polygons`]; returns what it kept and left out.
/// Faces with no area are kept (the builder drops and counts them).
pub fn keep_walkable(raw: &mut RawMesh, max_slope: f64) -> WalkableSummary {
    let max_slope = if max_slope.is_finite() {
        max_slope.clamp(0.0, 90.0)
    } else {
        90.0
    };
    let faces = faces(raw);
    let cos_max = max_slope.to_radians().cos();
    let flipped = flips(raw, &faces, cos_max);
    let sign = if flipped { -1.0 } else { 1.0 };
    let mut summary = WalkableSummary {
        max_slope: Some(max_slope),
        flipped,
        ..WalkableSummary::default()
    };
    let polygons = std::mem::take(&mut raw.polygons);
    let areas = std::mem::take(&mut raw.polygon_areas);
    let mut kept_areas = Vec::with_capacity(areas.len());
    for (k, (face, (area, cos))) in polygons.into_iter().zip(faces).enumerate() {
        let triangles = face.len().saturating_sub(2);
        // A face of no area has no normal: the builder decides about it.
        if area == 0.0 || sign * cos >= cos_max {
            summary.walkable_faces += 1;
            summary.walkable_triangles += triangles;
            summary.walkable_area += area;
            raw.polygons.push(face);
            if let Some(&a) = areas.get(k) {
                kept_areas.push(a);
            }
        } else {
            summary.dropped_faces += 1;
            summary.dropped_triangles += triangles;
            summary.dropped_area += area;
            raw.dropped_polygons.push(face);
        }
    }
    if !areas.is_empty() {
        raw.polygon_areas = kept_areas;
    }
    raw.walkable = Some(summary);
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4 × 3 × 4 box room in the XZ plane (Y up) as OBJ text: floor, ceiling and four walls,
    /// each a quad with its vertex normals pointing into the room, wound to agree with them
    /// (`clockwise` false) or against them, as a mirroring exporter writes it.
    pub(crate) fn box_room(clockwise: bool) -> String {
        let mut text = String::from(
            "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nv 0 3 0\nv 4 3 0\nv 4 3 4\nv 0 3 4\n",
        );
        // Into the room: floor up, ceiling down, walls inward.
        text.push_str("vn 0 1 0\nvn 0 -1 0\nvn 0 0 1\nvn -1 0 0\nvn 0 0 -1\nvn 1 0 0\n");
        // Wound counter-clockwise about those normals.
        let faces: [([usize; 4], usize); 6] = [
            ([1, 4, 3, 2], 1),
            ([5, 6, 7, 8], 2),
            ([1, 2, 6, 5], 3),
            ([2, 3, 7, 6], 4),
            ([3, 4, 8, 7], 5),
            ([4, 1, 5, 8], 6),
        ];
        for (mut face, normal) in faces {
            if clockwise {
                face.reverse();
            }
            text.push('f');
            for v in face {
                text.push_str(&format!(" {v}//{normal}"));
            }
            text.push('\n');
        }
        text
    }

    #[test]
    fn a_box_room_keeps_its_floor_whichever_way_it_is_wound() {
        for clockwise in [false, true] {
            let text = box_room(clockwise);
            let mut raw = crate::navmesh::obj::parse_raw(text.as_bytes(), "room.obj", Plane::Xz)
                .expect("room");
            assert!(looks_like_level_geometry(&raw), "clockwise {clockwise}");
            let summary = keep_walkable(&mut raw, 45.0);
            assert_eq!(summary.flipped, clockwise);
            assert_eq!(summary.walkable_faces, 1, "clockwise {clockwise}");
            assert_eq!(summary.walkable_area, 16.0);
            assert_eq!(summary.dropped_faces, 5);
            assert_eq!(summary.dropped_area, 16.0 + 4.0 * 12.0);
            assert_eq!(summary.walkable_triangles, 2);
            assert_eq!(summary.dropped_triangles, 10);
            let floor = &raw.polygons[0];
            assert!(floor.iter().all(|&v| raw.positions[v][1] == 0.0));
            assert_eq!(raw.dropped_polygons.len(), 5);
        }
    }

    #[test]
    fn without_normals_a_file_wound_clockwise_throughout_is_flipped() {
        // Two floor quads, both wound clockwise seen from above (normal −Y), no `vn`.
        let positions = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0],
            [2.0, 0.0, 0.0],
            [2.0, 0.0, 1.0],
        ];
        let mut raw = RawMesh::new(
            positions,
            vec![vec![0, 1, 2, 3], vec![1, 4, 5, 2]],
            Plane::Xz,
        );
        assert!(!looks_like_level_geometry(&raw));
        let summary = keep_walkable(&mut raw, 30.0);
        assert!(summary.flipped);
        assert_eq!(summary.walkable_faces, 2);
        assert_eq!(summary.dropped_faces, 0);
    }
}
