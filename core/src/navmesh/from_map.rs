//! Build a navigation mesh from a tile map: a constrained Delaunay triangulation ([`spade`]) of
//! the outline of the passable tiles, keeping the triangles that lie on them.
//!
//! Tile `(x, y)` covers the square `[x, x+1] × [y, y+1]` of the plane; the mesh is written in
//! the XZ plane (position `[x, 0, y]`), so plane coordinates are tile coordinates. Every
//! passable tile (grass, sand, water) is walkable; their costs are not kept — a navmesh has one
//! cost per distance. Tiles that touch only at a corner do not connect, as on the grid (no
//! corner cutting): the mesh's islands are the map's 4-connected regions.
//!
//! With an agent radius `r` the mesh is where the agent's *centre* may go: at least `r` from
//! every blocked tile and from the map's edge along each axis (blocked tiles grow into squares
//! `r` larger on every side; a square agent of half-side `r` fits anywhere on the mesh, a round
//! one of radius `r` with a little to spare near the outer corners of walls). The outline is
//! then drawn on the cells between the lines where those squares begin and end.

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
    /// No place is far enough from the walls and the map's edge for the agent.
    #[error(
        "no place on the map is {radius} tiles clear of every wall and the map's edge: an agent that size fits nowhere"
    )]
    NoRoom {
        /// The agent radius asked for.
        radius: f64,
    },
    /// The agent radius is not a number from 0 to [`MAX_AGENT_RADIUS`].
    #[error("agent radius {radius} is not a number from 0 to {MAX_AGENT_RADIUS} tiles")]
    BadRadius {
        /// The radius given.
        radius: f64,
    },
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

/// The largest agent radius accepted, in tiles.
pub const MAX_AGENT_RADIUS: f64 = 16.0;

/// Agent radii are rounded to a multiple of this: every part of the mesh is then at least a
/// quarter tile wide (finer strips would only be slivers and near-duplicate vertices), and the
/// sides of grown squares that should meet get exactly equal coordinates.
pub const AGENT_RADIUS_STEP: f64 = 1.0 / 8.0;

/// The radius a mesh is built for when `agent_radius` is asked: the nearest multiple of
/// [`AGENT_RADIUS_STEP`].
pub fn agent_radius_used(agent_radius: f64) -> f64 {
    (agent_radius / AGENT_RADIUS_STEP).round() * AGENT_RADIUS_STEP
}

/// A grid point: the corner of a cell (for radius 0, of a tile).
type Corner = (u32, u32);

/// The smallest angle the refinement aims for; the diagnostics call triangles under 5° needles.
pub const MIN_ANGLE_DEGREES: f64 = 20.0;

/// The triangulated passable area of `map` for an agent of radius `agent_radius` (0: the
/// passable tiles themselves), as polygons ready to build or save. Beyond the corners of the
/// outline, points are added (on the outline too) until no triangle has an angle under
/// [`MIN_ANGLE_DEGREES`]: a few more triangles, no slivers.
pub fn raw_mesh_from_map(map: &TileMap, agent_radius: f64) -> Result<RawMesh, FromMapError> {
    raw_mesh_with_limit(map, agent_radius, MAX_CORNERS)
}

fn raw_mesh_with_limit(
    map: &TileMap,
    agent_radius: f64,
    max_corners: usize,
) -> Result<RawMesh, FromMapError> {
    if !(0.0..=MAX_AGENT_RADIUS).contains(&agent_radius) {
        return Err(FromMapError::BadRadius {
            radius: agent_radius,
        });
    }
    if map.passable_count() == 0 {
        return Err(FromMapError::NothingPassable);
    }
    let radius = agent_radius_used(agent_radius);
    let cells = Cells::eroded(map, radius, false);
    if !cells.walkable.iter().any(|&w| w) {
        return Err(FromMapError::NoRoom {
            radius: agent_radius,
        });
    }
    let passable = |x: i64, y: i64| cells.is_walkable(x, y);
    // Every corner ends at least two segments and at most four, so more than twice the allowed
    // corners in segments is too many corners whatever they turn out to be.
    let too_detailed = FromMapError::TooDetailed { limit: max_corners };
    let Some(segments) = outline(
        cells.width(),
        cells.height(),
        passable,
        max_corners.saturating_mul(2),
    ) else {
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
        .map(|&(x, y)| Point2::new(cells.xs[x as usize], cells.ys[y as usize]))
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

    // Constraints follow cell sides (refinement only splits them), so a triangle lies wholly on
    // walkable cells or wholly on the rest (or outside the grid): its centroid's cell decides.
    let at = |v: spade::handles::FixedVertexHandle| {
        let p = cdt.vertex(v).position();
        Vec2::new(p.x, p.y)
    };
    let mut polygons = Vec::new();
    for face in cdt.inner_faces() {
        let [a, b, c] = face.vertices().map(|v| v.fix());
        let centroid = (at(a) + at(b) + at(c)) * (1.0 / 3.0);
        if cells.is_walkable_at(centroid) {
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

/// Where an agent of `agent_radius` cannot stand although the tiles there are passable: within
/// the radius of a blocked tile or of the map's edge — what a mesh built for that radius leaves
/// out. Non-overlapping rectangles `[x0, y0, x1, y1]` in tile coordinates; none for radius 0.
pub fn too_close_for_agent(map: &TileMap, agent_radius: f64) -> Vec<[f64; 4]> {
    if !(0.0..=MAX_AGENT_RADIUS).contains(&agent_radius) {
        return Vec::new();
    }
    let radius = agent_radius_used(agent_radius);
    if radius <= 0.0 {
        return Vec::new();
    }
    let passable = |x: f64, y: f64| {
        map.get((x.floor() as usize, y.floor() as usize))
            .is_some_and(|t| t.is_passable())
    };
    let mut rects = Vec::new();
    // The cells that are not walkable though their tile is passable, merged along rows.
    let cells = Cells::eroded(map, radius, true);
    for j in 0..cells.height() {
        let (cy0, cy1) = (cells.ys[j], cells.ys[j + 1]);
        let mut run: Option<f64> = None;
        for i in 0..=cells.width() {
            let lost = i < cells.width() && !cells.is_walkable(i as i64, j as i64) && {
                let (cx0, cx1) = (cells.xs[i], cells.xs[i + 1]);
                passable((cx0 + cx1) / 2.0, (cy0 + cy1) / 2.0)
            };
            match (lost, run) {
                (true, None) => run = Some(cells.xs[i]),
                (false, Some(start)) => {
                    rects.push([start, cy0, cells.xs[i], cy1]);
                    run = None;
                }
                _ => {}
            }
        }
    }
    rects
}

/// [`raw_mesh_from_map`], built.
pub fn navmesh_from_map(map: &TileMap, agent_radius: f64) -> Result<NavMesh, FromMapError> {
    raw_mesh_from_map(map, agent_radius)?
        .build()
        .map_err(|e| FromMapError::Triangulation(e.to_string()))
}

/// The cells of a map the outline is drawn on, between grid lines at any coordinates: for
/// radius 0 the tiles; otherwise the strips between the lines where the grown squares of
/// blocked tiles and the band along the map's edge begin and end, so that each cell is wholly
/// walkable or wholly not.
struct Cells {
    /// The x of each vertical grid line, increasing.
    xs: Vec<f64>,
    /// The y of each horizontal grid line, increasing.
    ys: Vec<f64>,
    /// Row-major, `(xs.len() - 1) × (ys.len() - 1)`.
    walkable: Vec<bool>,
}

impl Cells {
    /// The cells of the whole map for an agent of `radius`; with `tile_lines` the tiles' own
    /// sides are cell sides too, so that every cell also lies on one tile (the walkable area is
    /// the same).
    fn eroded(map: &TileMap, radius: f64, tile_lines: bool) -> Self {
        let (w, h) = (map.width(), map.height());
        if radius <= 0.0 {
            return Self {
                xs: (0..=w).map(|x| x as f64).collect(),
                ys: (0..=h).map(|y| y as f64).collect(),
                walkable: map.tiles().iter().map(|t| t.is_passable()).collect(),
            };
        }
        let lines = |n: usize| -> Vec<f64> {
            let end = n as f64;
            let tile = if tile_lines { 0.0 } else { radius };
            let mut xs: Vec<f64> = (0..=n)
                .flat_map(|i| [i as f64 - radius, i as f64 - tile, i as f64 + radius])
                .chain([0.0, end])
                .filter(|&x| (0.0..=end).contains(&x))
                .collect();
            xs.sort_by(f64::total_cmp);
            xs.dedup();
            xs
        };
        let (xs, ys) = (lines(w), lines(h));
        // The agent's centre stays `radius` inside the map's edge.
        let inside = |c: f64, n: usize| radius < c && c < n as f64 - radius;
        // Blocked tiles counted over every rectangle at once (prefix sums).
        let mut blocked = vec![0u32; (w + 1) * (h + 1)];
        for y in 0..h {
            for x in 0..w {
                let here = u32::from(!map.get((x, y)).is_some_and(|t| t.is_passable()));
                blocked[(y + 1) * (w + 1) + x + 1] =
                    here + blocked[y * (w + 1) + x + 1] + blocked[(y + 1) * (w + 1) + x]
                        - blocked[y * (w + 1) + x];
            }
        }
        // Tiles whose grown square covers coordinate c on one axis: t - r < c < t + 1 + r.
        let tiles_around = |c: f64, n: usize| {
            let first = ((c - 1.0 - radius).floor() + 1.0).max(0.0) as usize;
            let last = ((c + radius).ceil() - 1.0).min(n as f64 - 1.0);
            (
                first,
                if last < 0.0 {
                    None
                } else {
                    Some(last as usize)
                },
            )
        };
        let (cw, ch) = (xs.len().saturating_sub(1), ys.len().saturating_sub(1));
        let mut walkable = Vec::with_capacity(cw * ch);
        for j in 0..ch {
            let cy = (ys[j] + ys[j + 1]) / 2.0;
            let (y0, y1) = tiles_around(cy, h);
            for i in 0..cw {
                let cx = (xs[i] + xs[i + 1]) / 2.0;
                if !(inside(cx, w) && inside(cy, h)) {
                    walkable.push(false);
                    continue;
                }
                let (x0, x1) = tiles_around(cx, w);
                let count = match (x1, y1) {
                    (Some(x1), Some(y1)) if x0 <= x1 && y0 <= y1 => {
                        blocked[(y1 + 1) * (w + 1) + x1 + 1] + blocked[y0 * (w + 1) + x0]
                            - blocked[y0 * (w + 1) + x1 + 1]
                            - blocked[(y1 + 1) * (w + 1) + x0]
                    }
                    _ => 0,
                };
                walkable.push(count == 0);
            }
        }
        Self { xs, ys, walkable }
    }

    fn width(&self) -> usize {
        self.xs.len().saturating_sub(1)
    }

    fn height(&self) -> usize {
        self.ys.len().saturating_sub(1)
    }

    /// Cell `(x, y)` is walkable (false off the grid).
    fn is_walkable(&self, x: i64, y: i64) -> bool {
        match (usize::try_from(x), usize::try_from(y)) {
            (Ok(x), Ok(y)) if x < self.width() && y < self.height() => self
                .walkable
                .get(y * self.width() + x)
                .copied()
                .unwrap_or(false),
            _ => false,
        }
    }

    /// The cell holding point `p` is walkable (false outside the grid).
    fn is_walkable_at(&self, p: Vec2) -> bool {
        let cell = |lines: &[f64], c: f64| lines.partition_point(|&l| l <= c) as i64 - 1;
        self.is_walkable(cell(&self.xs, p.x), cell(&self.ys, p.y))
    }
}

/// The sides between walkable cells and the rest (other cells or off the grid), as segments
/// between cell corners: unit sides joined into the longest straight runs whose inner corners
/// touch no other side, so segments meet only at their ends. Built run by run along each grid
/// line, in memory proportional to the result; `None` as soon as there are more than
/// `max_segments`.
fn outline(
    width: usize,
    height: usize,
    passable: impl Fn(i64, i64) -> bool,
    max_segments: usize,
) -> Option<Vec<(Corner, Corner)>> {
    let (w, h) = (width as i64, height as i64);
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
        assert!(raw_mesh_with_limit(&map, 0.0, corners).is_ok());
        for limit in [corners - 1, corners / 2, 1] {
            assert_eq!(
                raw_mesh_with_limit(&map, 0.0, limit).err(),
                Some(FromMapError::TooDetailed { limit })
            );
        }
    }
}
