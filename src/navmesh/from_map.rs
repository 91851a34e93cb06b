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
        "the map's outline has {corners} corners, more than the {limit} a mesh is built from here \
         (a mesh that size would take gigabytes): split the map or simplify its walls"
    )]
    TooDetailed {
        /// Corners on the outline.
        corners: usize,
        /// The most allowed.
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
    let segments = outline(map, passable);

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
        return Err(FromMapError::TooDetailed {
            corners: corners.len(),
            limit: max_corners,
        });
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
/// touch no other side, so segments meet only at their ends.
fn outline(map: &TileMap, passable: impl Fn(i64, i64) -> bool) -> Vec<(Corner, Corner)> {
    let (w, h) = (map.width() as i64, map.height() as i64);
    let mut sides: Vec<(Corner, Corner)> = Vec::new();
    let corner = |x: i64, y: i64| (x as u32, y as u32);
    // Horizontal sides on line y, between rows y-1 and y.
    for y in 0..=h {
        for x in 0..w {
            if passable(x, y - 1) != passable(x, y) {
                sides.push((corner(x, y), corner(x + 1, y)));
            }
        }
    }
    // Vertical sides on line x, between columns x-1 and x.
    for x in 0..=w {
        for y in 0..h {
            if passable(x - 1, y) != passable(x, y) {
                sides.push((corner(x, y), corner(x, y + 1)));
            }
        }
    }
    let mut degree: HashMap<Corner, u8> = HashMap::new();
    for &(a, b) in &sides {
        *degree.entry(a).or_default() += 1;
        *degree.entry(b).or_default() += 1;
    }
    // A corner where exactly two collinear sides meet is not needed: join through it. The
    // sides were pushed in order along each line, so a run is a stretch of consecutive sides.
    let through = |c: Corner| degree.get(&c) == Some(&2);
    let mut segments: Vec<(Corner, Corner)> = Vec::new();
    for side in sides {
        match segments.last_mut() {
            Some(last) if last.1 == side.0 && through(side.0) && collinear(*last, side) => {
                last.1 = side.1;
            }
            _ => segments.push(side),
        }
    }
    segments
}

/// True when two sides, the second starting where the first ends, run in the same direction.
fn collinear((a, b): (Corner, Corner), (c, d): (Corner, Corner)) -> bool {
    debug_assert_eq!(b, c);
    (a.0 == b.0 && c.0 == d.0) || (a.1 == b.1 && c.1 == d.1)
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
        assert_eq!(
            raw_mesh_with_limit(&map, corners - 1).err(),
            Some(FromMapError::TooDetailed {
                corners,
                limit: corners - 1
            })
        );
    }
}
