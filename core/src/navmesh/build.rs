//! Builds a [`NavMesh`] from polygons: weld coincident vertices, triangulate, drop degenerate and
//! duplicate triangles, share edges, link neighbours, find islands and index the triangles.

use super::{Bounds, Edge, EdgeId, NavMesh, Plane, TriId, Triangle, locate::TriangleIndex};
use crate::geom::{Vec2, orient, signed_area2, triangulate_polygon};
use serde::Serialize;
use std::collections::HashMap;

/// How to build a mesh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuildOptions {
    /// The world plane the mesh lies in.
    pub plane: Plane,
    /// Vertices closer than this (in 3D, relative to the size of the mesh's bounding box) are
    /// merged into one. `0.0` merges only exactly equal positions.
    pub relative_weld_tolerance: f64,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            plane: Plane::Xz,
            relative_weld_tolerance: 1e-6,
        }
    }
}

/// What the builder changed on the way in; none of it is an error.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BuildReport {
    /// Polygons in the input.
    pub input_polygons: usize,
    /// Vertices in the input.
    pub input_vertices: usize,
    /// Vertices merged into another one (duplicates and float-noise seams).
    pub welded_vertices: usize,
    /// The absolute weld distance used.
    pub weld_tolerance: f64,
    /// Polygons with more than three corners that were split into triangles.
    pub triangulated_polygons: usize,
    /// Triangles with zero area in the plane up to rounding (including vertical faces), dropped.
    pub degenerate_triangles: usize,
    /// Triangles repeating another one's three corners, dropped.
    pub duplicate_triangles: usize,
    /// Input vertices no triangle uses.
    pub unused_vertices: usize,
}

/// Why polygons do not make a usable mesh.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// Nothing walkable remains.
    #[error("the mesh has no triangles with area in the {0} plane")]
    Empty(&'static str),
    /// A polygon names a vertex that does not exist.
    #[error("polygon {polygon} uses vertex {vertex}, but there are only {count} vertices")]
    VertexOutOfRange {
        /// Index of the polygon.
        polygon: usize,
        /// The vertex index it names.
        vertex: usize,
        /// How many vertices there are.
        count: usize,
    },
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {0} has a coordinate that is not a finite number")]
    NonFinite(usize),
    /// More triangles than [`crate::input::MAX_TRIANGLES`].
    #[error(
        "{} triangles, more than the {} navlab builds a mesh of",
        crate::words::thousands(*.0),
        crate::words::thousands(crate::input::MAX_TRIANGLES)
    )]
    TooLarge(usize),
}

impl NavMesh {
    /// Builds a mesh from 3D positions and polygons (lists of indices into `positions`).
    pub fn from_polygons(
        positions: &[[f64; 3]],
        polygons: &[Vec<usize>],
        options: BuildOptions,
    ) -> Result<NavMesh, BuildError> {
        let raw = super::RawMesh::new(positions.to_vec(), polygons.to_vec(), options.plane);
        Self::from_raw(raw, options)
    }

    /// Builds a mesh from the polygons of a file, which the mesh keeps (for the diagnostics)
    /// without a copy. The plane is `options`' (the raw mesh's is set to it).
    pub fn from_raw(mut raw: super::RawMesh, options: BuildOptions) -> Result<NavMesh, BuildError> {
        raw.plane = options.plane;
        let (positions, polygons) = (&raw.positions, &raw.polygons);
        let mut report = BuildReport {
            input_polygons: polygons.len(),
            input_vertices: positions.len(),
            ..BuildReport::default()
        };
        if let Some(bad) = positions
            .iter()
            .position(|p| p.iter().any(|c| !c.is_finite()))
        {
            return Err(BuildError::NonFinite(bad));
        }
        for (polygon, poly) in polygons.iter().enumerate() {
            if let Some(&vertex) = poly.iter().find(|&&v| v >= positions.len()) {
                return Err(BuildError::VertexOutOfRange {
                    polygon,
                    vertex,
                    count: positions.len(),
                });
            }
        }

        let (weld_map, welded_positions, tolerance) =
            weld(positions, options.relative_weld_tolerance);
        report.weld_tolerance = tolerance;
        report.welded_vertices = positions.len() - welded_positions.len();

        let projected: Vec<(Vec2, f64)> = welded_positions
            .iter()
            .map(|&p| options.plane.project(p))
            .collect();
        let plane_points: Vec<Vec2> = projected.iter().map(|&(p, _)| p).collect();

        // Triangulate every polygon (after welding, so repeated corners collapse).
        let mut corner_triples: Vec<[usize; 3]> = Vec::new();
        let mut triple_areas: Vec<super::areas::AreaId> = Vec::new();
        let mut points: Vec<Vec2> = Vec::new();
        let mut ring: Vec<usize> = Vec::new();
        for (polygon, poly) in polygons.iter().enumerate() {
            ring.clear();
            ring.extend(poly.iter().map(|&v| weld_map[v]));
            ring.dedup();
            while ring.len() > 1 && ring.first() == ring.last() {
                ring.pop();
            }
            if poly.len() > 3 {
                report.triangulated_polygons += 1;
            }
            if ring.len() < 3 {
                report.degenerate_triangles += 1;
                continue;
            }
            let mut add = |tri: [usize; 3], report: &mut BuildReport| {
                let (pa, pb, pc) = (
                    plane_points[tri[0]],
                    plane_points[tri[1]],
                    plane_points[tri[2]],
                );
                if tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || is_sliver(pa, pb, pc)
                {
                    report.degenerate_triangles += 1;
                    return;
                }
                corner_triples.push(if orient(pa, pb, pc) > 0.0 {
                    tri
                } else {
                    [tri[0], tri[2], tri[1]]
                });
                triple_areas.push(raw.polygon_area(polygon));
            };
            if let [a, b, c] = ring[..] {
                add([a, b, c], &mut report);
                continue;
            }
            points.clear();
            points.extend(ring.iter().map(|&v| plane_points[v]));
            let local = triangulate_polygon(&points);
            let expected = ring.len() - 2;
            if local.len() < expected {
                report.degenerate_triangles += expected - local.len();
            }
            for [a, b, c] in local {
                add([ring[a], ring[b], ring[c]], &mut report);
            }
        }
        // A triangle repeating an earlier one's corners goes.
        let repeats = repeated_triangles(&corner_triples, plane_points.len())
            .ok_or(BuildError::TooLarge(corner_triples.len()))?;
        report.duplicate_triangles = repeats.iter().filter(|&&r| r).count();
        if report.duplicate_triangles > 0 {
            (corner_triples, triple_areas) = corner_triples
                .into_iter()
                .zip(triple_areas)
                .zip(&repeats)
                .filter(|&(_, &repeated)| !repeated)
                .map(|(kept, _)| kept)
                .unzip();
        }
        drop(repeats);
        // What only triangulating needed goes before the mesh takes its room.
        drop(weld_map);
        if corner_triples.is_empty() {
            return Err(BuildError::Empty(match options.plane {
                Plane::Xz => "XZ",
                Plane::Xy => "XY",
            }));
        }
        if corner_triples.len() > crate::input::MAX_TRIANGLES {
            return Err(BuildError::TooLarge(corner_triples.len()));
        }

        // Keep only used vertices, renumbered in first-use order.
        let mut renumber = vec![usize::MAX; plane_points.len()];
        let mut vertices = Vec::new();
        let mut heights = Vec::new();
        for tri in &mut corner_triples {
            for v in tri.iter_mut() {
                if renumber[*v] == usize::MAX {
                    renumber[*v] = vertices.len();
                    vertices.push(projected[*v].0);
                    heights.push(projected[*v].1);
                }
                *v = renumber[*v];
            }
        }
        report.unused_vertices = welded_positions.len() - vertices.len();
        drop((renumber, projected, plane_points, welded_positions));

        // Shared edges (numbered in the order the triangles first use them) and triangles.
        let sides: Vec<[u32; 2]> = corner_triples
            .iter()
            .flat_map(|t| [[t[0], t[1]], [t[1], t[2]], [t[2], t[0]]])
            .map(|side| side.map(|v| v as u32))
            .collect();
        let groups = super::vertex_pairs::PairGroups::new(&sides, vertices.len())
            .ok_or(BuildError::TooLarge(corner_triples.len()))?;
        drop(sides);
        let members = groups.members();
        let edges: Vec<Edge> = (0..groups.count)
            .map(|g| {
                let listed = members.get(g);
                let first = listed.first().map_or(0, |&h| h as usize);
                let (t, k) = (first / 3, first % 3);
                let (a, b) = (corner_triples[t][k], corner_triples[t][(k + 1) % 3]);
                Edge {
                    vertices: [a.min(b), a.max(b)],
                    triangles: listed.iter().map(|&h| h as usize / 3).collect(),
                }
            })
            .collect();
        drop(members);
        let triangles: Vec<Triangle> = corner_triples
            .iter()
            .enumerate()
            .map(|(id, &verts)| {
                let tri_edges = [0, 1, 2].map(|k| groups.group[3 * id + k] as usize);
                let [a, b, c] = verts.map(|v| vertices[v]);
                Triangle {
                    vertices: verts,
                    edges: tri_edges,
                    centroid: Vec2::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0),
                    area: signed_area2(a, b, c).abs() / 2.0,
                }
            })
            .collect();
        drop((groups, corner_triples));
        let mut neighbours: Vec<Vec<(TriId, EdgeId)>> =
            triangles.iter().map(|_| Vec::with_capacity(3)).collect();
        for (e, edge) in edges.iter().enumerate() {
            for &t in &edge.triangles {
                for &n in &edge.triangles {
                    if n != t {
                        neighbours[t].push((n, e));
                    }
                }
            }
        }

        let (island_of, island_count) = islands(&neighbours);
        let bounds = bounds_of(&vertices);
        let index = TriangleIndex::new(&vertices, &triangles);
        Ok(NavMesh {
            vertices,
            heights,
            triangles,
            edges,
            neighbours,
            island_tally: super::island_update::island_tallies(&island_of, island_count),
            island_of,
            island_count,
            bounds,
            index,
            report,
            plane: options.plane,
            area_types: triple_areas,
            area_names: raw.area_names.clone(),
            raw: std::sync::OnceLock::from(std::sync::Arc::new(raw)),
            fans: std::sync::OnceLock::new(),
            adjacency: std::sync::OnceLock::new(),
            merged_faces: std::sync::OnceLock::new(),
            triangle_faces: std::sync::OnceLock::new(),
            areas_present: std::sync::OnceLock::new(),
            height_span: std::sync::OnceLock::new(),
            links: Vec::new(),
            placed_links: std::sync::OnceLock::new(),
            clearance: std::sync::OnceLock::new(),
            shrunk: super::radius::ShrinkCache::default(),
        })
    }
}

/// The largest side of the positions' bounding box (0 when empty or not finite): what welding
/// and the diagnostics' tolerances are relative to.
pub(crate) fn largest_side(positions: &[[f64; 3]]) -> f64 {
    let (lo, hi) = bounding_box(positions);
    let side = (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f64::max);
    if side.is_finite() { side } else { 0.0 }
}

/// The lowest and highest corner of the positions' bounding box (infinite when empty).
fn bounding_box(positions: &[[f64; 3]]) -> ([f64; 3], [f64; 3]) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in positions {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    (lo, hi)
}

/// For each triangle, true when an earlier one has the same three corners (in any order):
/// triangles listed by their lowest corner, then compared within each list. `None` for too
/// many triangles.
fn repeated_triangles(triples: &[[usize; 3]], vertex_count: usize) -> Option<Vec<bool>> {
    let sorted: Vec<[usize; 3]> = triples
        .iter()
        .map(|&t| {
            let mut key = t;
            key.sort_unstable();
            key
        })
        .collect();
    let mut by_lowest =
        super::vertex_pairs::Buckets::by_key(sorted.iter().map(|k| k[0]), vertex_count)?;
    let mut repeated = vec![false; triples.len()];
    for v in 0..vertex_count {
        // Stable: of equal triangles, the earliest first.
        let bucket = by_lowest.get_mut(v);
        bucket.sort_by_key(|&i| sorted[i as usize]);
        for pair in bucket.windows(2) {
            if sorted[pair[0] as usize] == sorted[pair[1] as usize] {
                repeated[pair[1] as usize] = true;
            }
        }
    }
    Some(repeated)
}

/// Merges positions closer than the tolerance (relative to the bounding box), keeping the first.
/// Returns the old→new index map, the kept positions and the absolute tolerance used.
pub(crate) fn weld(positions: &[[f64; 3]], relative: f64) -> (Vec<usize>, Vec<[f64; 3]>, f64) {
    let extent = largest_side(positions);
    let tolerance = if extent > 0.0 { relative * extent } else { 0.0 };
    let mut map = Vec::with_capacity(positions.len());
    let mut kept: Vec<[f64; 3]> = Vec::new();
    if tolerance == 0.0 {
        let mut exact: HashMap<[u64; 3], usize> = HashMap::new();
        for p in positions {
            let key = p.map(|c| (c + 0.0).to_bits());
            let id = *exact.entry(key).or_insert_with(|| {
                kept.push(*p);
                kept.len() - 1
            });
            map.push(id);
        }
        return (map, kept, 0.0);
    }
    // A hash grid of cells a few tolerances wide, measured from the lowest corner, each
    // listing the kept positions in it (a chain through `next`): a position within the
    // tolerance of one is in its own cell, or in the next cell along an axis where it lies near
    // that side, so one or a few cells are looked at; kept positions are a tolerance apart, so
    // a cell holds a bounded number of them.
    const CELL_IN_TOLERANCES: f64 = 16.0;
    let cell = tolerance * CELL_IN_TOLERANCES;
    let (lo, _) = bounding_box(positions);
    let mut head: HashMap<[i64; 3], u32> = HashMap::new();
    let mut next: Vec<u32> = Vec::new();
    const END: u32 = u32::MAX;
    let tol2 = tolerance * tolerance;
    for p in positions {
        let at = [0, 1, 2].map(|k| (p[k] - lo[k]) / cell);
        let home = at.map(|c| c.floor() as i64);
        // Per axis: the home cell, and the one beyond the side the position is near (with a
        // margin of a tolerance for rounding); there is nothing below the lowest corner.
        let reach = |k: usize| -> &'static [i64] {
            let offset = (at[k] - home[k] as f64) * CELL_IN_TOLERANCES;
            if offset <= 2.0 && home[k] > 0 {
                &[0, -1]
            } else if CELL_IN_TOLERANCES - offset <= 2.0 {
                &[0, 1]
            } else {
                &[0]
            }
        };
        let mut found: Option<usize> = None;
        for &dx in reach(0) {
            for &dy in reach(1) {
                for &dz in reach(2) {
                    let key = [home[0] + dx, home[1] + dy, home[2] + dz];
                    let mut k = head.get(&key).copied().unwrap_or(END);
                    while k != END {
                        let q = kept[k as usize];
                        let d2 = (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>();
                        if d2 <= tol2 && found.is_none_or(|f| (k as usize) < f) {
                            found = Some(k as usize);
                        }
                        k = next[k as usize];
                    }
                }
            }
        }
        let id = found.unwrap_or_else(|| {
            let id = kept.len();
            kept.push(*p);
            next.push(head.insert(home, id as u32).unwrap_or(END));
            id
        });
        map.push(id);
    }
    (map, kept, tolerance)
}

/// True for a triangle with no area in the plane, up to rounding: exactly collinear corners, or
/// an area below 1e-12 of its longest edge squared (vertices that were collinear before the
/// exporter rounded them).
pub(crate) fn is_sliver(a: Vec2, b: Vec2, c: Vec2) -> bool {
    if orient(a, b, c) == 0.0 {
        return true;
    }
    let longest2 = a
        .distance_squared(b)
        .max(b.distance_squared(c))
        .max(c.distance_squared(a));
    signed_area2(a, b, c).abs() <= 1e-12 * longest2
}

/// Each triangle's island and how many there are, the islands numbered as `navlab check`
/// numbers them: the largest (most triangles) first, ties by their lowest triangle id.
pub(crate) fn islands(neighbours: &[Vec<(TriId, EdgeId)>]) -> (Vec<usize>, usize) {
    let mut island_of = vec![usize::MAX; neighbours.len()];
    let mut count = 0;
    let mut stack = Vec::new();
    for seed in 0..neighbours.len() {
        if island_of[seed] != usize::MAX {
            continue;
        }
        island_of[seed] = count;
        stack.push(seed);
        while let Some(t) = stack.pop() {
            for &(n, _) in &neighbours[t] {
                if island_of[n] == usize::MAX {
                    island_of[n] = count;
                    stack.push(n);
                }
            }
        }
        count += 1;
    }
    // Found in order of their lowest triangle: sizes decide, then that order.
    let mut sizes = vec![0usize; count];
    for &i in &island_of {
        sizes[i] += 1;
    }
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(sizes[i]), i));
    let mut number = vec![0usize; count];
    for (n, &i) in order.iter().enumerate() {
        number[i] = n;
    }
    for i in &mut island_of {
        *i = number[*i];
    }
    (island_of, count)
}

fn bounds_of(points: &[Vec2]) -> Bounds {
    let mut min = Vec2::new(f64::INFINITY, f64::INFINITY);
    let mut max = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in points {
        min = Vec2::new(min.x.min(p.x), min.y.min(p.y));
        max = Vec2::new(max.x.max(p.x), max.y.max(p.y));
    }
    Bounds { min, max }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Welding by brute force: each position goes to the earliest kept one within the
    /// tolerance, or is kept.
    fn weld_by_scan(positions: &[[f64; 3]], tolerance: f64) -> Vec<usize> {
        let mut kept: Vec<[f64; 3]> = Vec::new();
        positions
            .iter()
            .map(|p| {
                let near = kept.iter().position(|q| {
                    (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>() <= tolerance * tolerance
                });
                near.unwrap_or_else(|| {
                    kept.push(*p);
                    kept.len() - 1
                })
            })
            .collect()
    }

    proptest! {
        /// Clusters of positions a fraction of a tolerance to a few tolerances apart, across
        /// the weld grid's cell sides, flat and not: the grid welds as the scan does.
        #[test]
        fn welding_agrees_with_a_scan_of_every_kept_position(
            centres in proptest::collection::vec((0u32..4, 0u32..4, 0u32..2), 1..12),
            offsets in proptest::collection::vec((-3.0f64..3.0, -3.0f64..3.0, -3.0f64..3.0), 1..60),
            flat in any::<bool>(),
        ) {
            // The box is 1000 across, so the tolerance is 1e-3; a centre every 0.016 puts
            // clusters on the weld grid's cell sides.
            let mut positions = vec![[0.0, 0.0, 0.0], [1000.0, 1000.0, if flat { 0.0 } else { 1000.0 }]];
            for (k, (dx, dy, dz)) in offsets.iter().enumerate() {
                let (cx, cy, cz) = centres[k % centres.len()];
                let z = if flat { 0.0 } else { 500.0 + f64::from(cz) * 0.016 + dz * 1e-3 };
                positions.push([
                    500.0 + f64::from(cx) * 0.016 + dx * 1e-3,
                    500.0 + f64::from(cy) * 0.016 + dy * 1e-3,
                    z,
                ]);
            }
            let (map, kept, tolerance) = weld(&positions, 1e-6);
            prop_assert_eq!(tolerance, 1e-3);
            let want = weld_by_scan(&positions, tolerance);
            prop_assert_eq!(&map, &want);
            prop_assert_eq!(kept.len(), want.iter().max().map_or(0, |m| m + 1));
        }
    }

    proptest! {
        /// Against a scan of every earlier triangle's corners.
        #[test]
        fn repeated_triangles_agree_with_a_scan(
            triples in proptest::collection::vec((0usize..6, 0usize..6, 0usize..6), 0..80)
        ) {
            let triples: Vec<[usize; 3]> = triples.into_iter().map(|(a, b, c)| [a, b, c]).collect();
            let corners = |t: [usize; 3]| {
                let mut key = t;
                key.sort_unstable();
                key
            };
            let want: Vec<bool> = (0..triples.len())
                .map(|i| triples[..i].iter().any(|&t| corners(t) == corners(triples[i])))
                .collect();
            prop_assert_eq!(repeated_triangles(&triples, 6), Some(want));
        }
    }

    #[test]
    fn repeated_triangles_are_found_in_any_corner_order_and_the_first_stays() {
        let triples = [
            [0, 1, 2],
            [2, 3, 0],
            [1, 2, 0],
            [0, 2, 3],
            [4, 1, 2],
            [2, 0, 1],
        ];
        assert_eq!(
            repeated_triangles(&triples, 5).expect("in range"),
            [false, false, true, true, false, true]
        );
    }
}
