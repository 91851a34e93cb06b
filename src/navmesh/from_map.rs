//! Build a navigation mesh from a tile map: a constrained Delaunay triangulation ([`spade`]) of
//! the outline of the passable tiles, keeping the triangles that lie on them.
//!
//! Tile `(x, y)` covers the square `[x, x+1] × [y, y+1]` of the plane; the mesh is written in
//! the XZ plane (position `[x, 0, y]`), so plane coordinates are tile coordinates. Every
//! passable tile (grass, sand, water) is walkable; their costs are not kept — a navmesh has one
//! cost per distance. Tiles that touch only at a corner do not connect, as on the grid (no
//! corner cutting): the mesh's islands are the map's 4-connected regions.

use super::{NavMesh, Plane, RawMesh};
use crate::geom::Vec2;
use crate::grid::TileMap;
use std::collections::HashMap;
use thiserror::Error;

/// Why a map gives no mesh.
#[derive(Debug, Error, PartialEq)]
pub enum FromMapError {
    /// Every tile blocks movement.
    #[error("the map has no passable tile: there is nothing to walk on")]
    NothingPassable,
    /// The outline has more corners than a triangulation may take here (memory).
    #[error(
        "the map's outline has more than {limit} corners, the most a mesh is built from here (a \
         mesh that size would take gigabytes): split the map or simplify its walls"
    )]
    TooDetailed {
        /// The most corners allowed.
        limit: usize,
    },
    /// The triangulation or the mesh builder refused the outline (a bug if it happens).
    #[error("could not triangulate the map's outline: {0}")]
    Triangulation(String),
}

/// The most outline corners a mesh is built from: about a 1,800 × 1,800 map with 10 % scattered
/// single-tile obstacles (a 2048² one has 1.3 M corners and took 23 s and 2.3 GB here). Bigger
/// outlines are refused with [`FromMapError::TooDetailed`] rather than risking the process (and
/// with it the unsaved edits of the map).
pub const MAX_CORNERS: usize = 1_000_000;

/// A grid point: a tile corner.
type Corner = (u32, u32);

/// The smallest angle the refinement aims for; the diagnostics call triangles under 5° needles.
pub const MIN_ANGLE_DEGREES: f64 = 20.0;

/// The triangulated passable area of `map`, as polygons ready to build or save. Beyond the tile
/// corners of the outline, points are added (on the outline too) until no triangle has an angle
/// under [`MIN_ANGLE_DEGREES`]: a few more triangles, no slivers.
pub fn raw_mesh_from_map(map: &TileMap) -> Result<RawMesh, FromMapError> {
    raw_mesh_with_limit(map, MAX_CORNERS)
}

fn raw_mesh_with_limit(map: &TileMap, max_corners: usize) -> Result<RawMesh, FromMapError> {
    let passable = |x: i64, y: i64| {
        usize::try_from(x)
            .ok()
            .zip(usize::try_from(y).ok())
            .and_then(|cell| map.get(cell))
            .is_some_and(|tile| tile.is_passable())
    };
    if map.passable_count() == 0 {
        return Err(FromMapError::NothingPassable);
    }
    // Every corner ends at least two segments and at most four, so more than twice the allowed
    // corners in segments is too many corners whatever they turn out to be.
    let too_detailed = FromMapError::TooDetailed { limit: max_corners };
    let Some(segments) = outline(map, passable, max_corners.saturating_mul(2)) else {
        return Err(too_detailed);
    };

    // Number the segments' ends; only corners on the outline are needed.
    let mut ids: HashMap<Corner, usize> = HashMap::new();
    let mut corners: Vec<Corner> = Vec::new();
    let mut id = |corner: Corner| {
        *ids.entry(corner).or_insert_with(|| {
            corners.push(corner);
            corners.len() - 1
        })
    };
    let edges: Vec<[usize; 2]> = segments.iter().map(|&(a, b)| [id(a), id(b)]).collect();
    if corners.len() > max_corners {
        return Err(too_detailed);
    }

    use spade::{
        AngleLimit, ConstrainedDelaunayTriangulation, Point2, RefinementParameters, Triangulation,
    };
    let points: Vec<Point2<f64>> = corners
        .iter()
        .map(|&(x, y)| Point2::new(f64::from(x), f64::from(y)))
        .collect();
    let mut crossing = false;
    let mut cdt =
        ConstrainedDelaunayTriangulation::<Point2<f64>>::try_bulk_load_cdt(points, edges, |_| {
            crossing = true
        })
        .map_err(|e| FromMapError::Triangulation(format!("{e:?}")))?;
    if crossing || cdt.num_vertices() != corners.len() {
        return Err(FromMapError::Triangulation(
            "outline segments cross or repeat a corner".to_string(),
        ));
    }
    // Only faces inside the outline count (odd winding: passable areas, not walls or holes);
    // the vertex budget guarantees the end even where the angle cannot be reached.
    cdt.refine(
        RefinementParameters::new()
            .exclude_outer_faces(true)
            .with_angle_limit(AngleLimit::from_deg(MIN_ANGLE_DEGREES))
            .with_max_additional_vertices(4 * corners.len() + 64),
    );

    // Constraints follow tile sides (refinement only splits them), so a triangle lies wholly on
    // passable tiles or wholly on blocked ones (or outside the map): its centroid's tile decides.
    let at = |v: spade::handles::FixedVertexHandle| {
        let p = cdt.vertex(v).position();
        Vec2::new(p.x, p.y)
    };
    let mut polygons = Vec::new();
    for face in cdt.inner_faces() {
        let [a, b, c] = face.vertices().map(|v| v.fix());
        let centroid = (at(a) + at(b) + at(c)) * (1.0 / 3.0);
        if passable(centroid.x.floor() as i64, centroid.y.floor() as i64) {
            // Counter-clockwise in the plane, like the meshes the loader reads.
            let turn = (at(b) - at(a)).cross(at(c) - at(a));
            let [a, b, c] = [a, b, c].map(|v| v.index());
            polygons.push(if turn > 0.0 {
                vec![a, b, c]
            } else {
                vec![a, c, b]
            });
        }
    }
    let positions = cdt
        .vertices()
        .map(|v| [v.position().x, 0.0, v.position().y])
        .collect();
    Ok(RawMesh::new(positions, polygons, Plane::Xz))
}

/// [`raw_mesh_from_map`], built.
pub fn navmesh_from_map(map: &TileMap) -> Result<NavMesh, FromMapError> {
    raw_mesh_from_map(map)?
        .build()
        .map_err(|e| FromMapError::Triangulation(e.to_string()))
}

/// The sides between passable tiles and the rest (blocked tiles or off the map), as segments
/// between tile corners: unit sides joined into the longest straight runs whose inner corners
/// touch no other side, so segments meet only at their ends. Built run by run along each grid
/// line, in memory proportional to the result; `None` as soon as there are more than
/// `max_segments`.
fn outline(
    map: &TileMap,
    passable: impl Fn(i64, i64) -> bool,
    max_segments: usize,
) -> Option<Vec<(Corner, Corner)>> {
    let (w, h) = (map.width() as i64, map.height() as i64);
    // The side from corner (x, y) to (x+1, y), between rows y-1 and y.
    let horizontal = |x: i64, y: i64| passable(x, y - 1) != passable(x, y);
    // The side from corner (x, y) to (x, y+1), between columns x-1 and x.
    let vertical = |x: i64, y: i64| passable(x - 1, y) != passable(x, y);
    let corner = |x: i64, y: i64| (x as u32, y as u32);
    let mut segments: Vec<(Corner, Corner)> = Vec::new();
    // Runs along line y: through corner (x, y) while the next side continues and no vertical
    // side meets it there.
    for y in 0..=h {
        let mut x = 0;
        while x < w {
            if !horizontal(x, y) {
                x += 1;
                continue;
            }
            let start = x;
            x += 1;
            while x < w && horizontal(x, y) && !vertical(x, y - 1) && !vertical(x, y) {
                x += 1;
            }
            segments.push((corner(start, y), corner(x, y)));
        }
        if segments.len() > max_segments {
            return None;
        }
    }
    for x in 0..=w {
        let mut y = 0;
        while y < h {
            if !vertical(x, y) {
                y += 1;
                continue;
            }
            let start = y;
            y += 1;
            while y < h && vertical(x, y) && !horizontal(x - 1, y) && !horizontal(x, y) {
                y += 1;
            }
            segments.push((corner(x, start), corner(x, y)));
        }
        if segments.len() > max_segments {
            return None;
        }
    }
    Some(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_whose_outline_is_too_detailed_is_refused_before_triangulating() {
        // Six passable tiles apart from each other, four corners each.
        let map = TileMap::from_ascii(".@.@.\n@@@@@\n.@.@.").expect("map");
        let corners = 6 * 4;
        assert!(raw_mesh_with_limit(&map, corners).is_ok());
        for limit in [corners - 1, corners / 2, 1] {
            assert_eq!(
                raw_mesh_with_limit(&map, limit).err(),
                Some(FromMapError::TooDetailed { limit })
            );
        }
    }
}
