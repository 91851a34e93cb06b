//! An agent's radius on any navmesh: the walkable region of each island shrunk by the radius
//! (the region less a capsule round every wall, with [`i_overlay`]), then triangulated again
//! with the same refined constrained Delaunay triangulation the map builder uses ([`spade`]).
//! Where the agent no longer fits through, an island falls apart: the passages that closed are
//! marked between the pieces.
//!
//! The capsules are polygons drawn round the exact ones (their rounded ends circumscribed), so
//! every point left is at least the radius from every wall. An island whose triangles overlap
//! in the plane (stacked floors) is not one flat shape: it is shrunk floor by floor and the
//! floors joined again where they meet (see `shrink_stacked`); a floor's room counts only the
//! walls reached over it, as the clearance measures it.

use super::{NavMesh, RawMesh, TriId};
use crate::geom::{Vec2, triangle_contains};
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::simplify::SimplifyShape;
use i_overlay::float::single::SingleFloatOverlay;
use serde::Serialize;

/// Sides of the polygon drawn round each wall end's circle.
const CAP_SIDES: usize = 16;

/// The largest radius asked for, as a share of the mesh's size (more leaves nothing).
const MAX_RADIUS_SHARE: f64 = 0.5;

/// A mesh shrunk for an agent's radius.
#[derive(Debug, Clone)]
pub struct Shrunk {
    /// The mesh an agent's centre may cross (its [`RawMesh::shrunk`] says how it was made).
    pub mesh: NavMesh,
    /// What the shrinking did.
    pub summary: ShrinkSummary,
}

/// What shrinking a mesh for an agent's radius did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ShrinkSummary {
    /// The radius.
    pub radius: f64,
    /// The original mesh's walkable area in the plane.
    pub area_before: f64,
    /// The original mesh's walls (its edges with one triangle), to draw it under the shrunk one.
    #[serde(skip)]
    pub walls_before: Vec<[Vec2; 2]>,
    /// Where passages closed: between two pieces an island fell into, joined through the
    /// island, the midpoint of their nearest points, and how far apart the pieces are.
    pub closed: Vec<ClosedPassage>,
    /// Islands of the original mesh whose triangles overlap in the plane (stacked floors),
    /// shrunk floor by floor; numbered from 1, the most triangles first, as `navlab check`
    /// numbers them.
    pub stacked: Vec<usize>,
    /// Islands with no room left for the agent (numbered as `stacked`).
    pub vanished: Vec<usize>,
}

/// A passage the agent no longer fits through.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ClosedPassage {
    /// Between the two pieces' nearest points.
    pub at: Vec2,
    /// How far apart the pieces are there.
    pub gap: f64,
}

/// Why a mesh was not shrunk.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShrinkError {
    /// The radius is not a positive number below half the mesh's size.
    #[error("an agent radius is a number above 0 and below half the mesh's size ({limit:.3})")]
    BadRadius {
        /// The largest radius this mesh takes.
        limit: f64,
    },
    /// Nothing of the mesh is left.
    #[error("no room is left for an agent of radius {radius}: every part of the mesh is narrower")]
    NoRoom {
        /// The radius asked for.
        radius: f64,
    },
    /// The shrunk region could not be triangulated.
    #[error("the shrunk mesh could not be built: {0}")]
    Build(String),
}

/// The shortest path for the centre of an agent of `radius` from `start` to `goal` on `mesh`:
/// the exact search ([`shortest_path_located`](super::anyangle::shortest_path_located)) on the
/// mesh shrunk by the radius ([`NavMesh::shrunk_for`], kept per radius), every point of it at
/// least the radius from every wall. No path when the start or the goal has less room than the
/// radius or is off the shrunk mesh (they are not moved), or they are apart for that radius.
///
/// The shrunk mesh's rounded wall ends are polygons drawn round the circles, so the path is at
/// most a few hundredths of the radius longer, at each corner it turns round, than the true
/// shortest path for a disc (never shorter).
pub fn shortest_path_for_radius(
    mesh: &NavMesh,
    start: Vec2,
    goal: Vec2,
    radius: f64,
) -> Result<super::anyangle::OptimalPath, ShrinkError> {
    match (mesh.locate(start), mesh.locate(goal)) {
        (Some(s), Some(g)) => shortest_path_for_radius_located(mesh, s, g, radius),
        _ => Ok(super::anyangle::not_found()),
    }
}

/// [`shortest_path_for_radius`] between two located points: where floors are stacked, each end
/// is on the shrunk mesh's floor at the height of the triangle it was located on.
pub fn shortest_path_for_radius_located(
    mesh: &NavMesh,
    s: super::Location,
    g: super::Location,
    radius: f64,
) -> Result<super::anyangle::OptimalPath, ShrinkError> {
    let clearance = mesh.clearance();
    if s.triangle >= mesh.triangles().len()
        || g.triangle >= mesh.triangles().len()
        || mesh.island_of(s.triangle) != mesh.island_of(g.triangle)
        || clearance.room(s.triangle, s.point) < radius
        || clearance.room(g.triangle, g.point) < radius
    {
        return Ok(super::anyangle::not_found());
    }
    let shrunk = mesh.shrunk_for(radius)?;
    // On the shrunk mesh as they are, on their own floor: a point in the sliver between a
    // circle and the polygon drawn round it is not moved to some other piece, nor to a floor
    // above or below (the shrunk floor taken is nearer in height to the end's own floor than
    // to any other floor of the mesh there; heights differ a little, the shrunk floors being
    // triangulated again).
    let on_shrunk = |at: &super::Location| {
        let height = mesh.height_at(at.triangle, at.point)?;
        let there = shrunk.mesh.locate_near_height(at.point, Some(height))?;
        let taken = shrunk.mesh.height_at(there.triangle, there.point)?;
        let own = (taken - height).abs();
        let nearer_other = mesh.floors_at(at.point).iter().any(|f| {
            (f.height - height).abs() > 1e-6 * (1.0 + height.abs())
                && (f.height - taken).abs() < own
        });
        (!there.snapped && !nearer_other).then_some(there)
    };
    match (on_shrunk(&s), on_shrunk(&g)) {
        (Some(a), Some(b)) => Ok(super::anyangle::shortest_path_located(
            &shrunk.mesh,
            a,
            b,
            &mut crate::search::NoObserver,
        )),
        _ => Ok(super::anyangle::not_found()),
    }
}

/// How many radii a mesh keeps its shrunk meshes for.
const CACHED_RADII: usize = 4;

/// A mesh's shrunk meshes for the last few radii asked for (see [`NavMesh::shrunk_for`]); a
/// copy of the mesh starts with none.
#[derive(Default)]
pub struct ShrinkCache {
    kept: std::sync::Mutex<Vec<(u64, ShrinkAnswer)>>,
}

/// What shrinking for one radius gave.
type ShrinkAnswer = Result<std::sync::Arc<Shrunk>, ShrinkError>;

impl ShrinkCache {
    /// The answer for `radius`, made with `make` when not kept.
    pub(crate) fn get_or_make(
        &self,
        radius: f64,
        make: impl FnOnce() -> Result<Shrunk, ShrinkError>,
    ) -> Result<std::sync::Arc<Shrunk>, ShrinkError> {
        let key = radius.to_bits();
        let found = self
            .kept
            .lock()
            .ok()
            .and_then(|kept| kept.iter().find(|(k, _)| *k == key).map(|(_, a)| a.clone()));
        if let Some(answer) = found {
            return answer;
        }
        // Made without the lock held: another thread asking meanwhile makes its own.
        let answer = make().map(std::sync::Arc::new);
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= CACHED_RADII {
                kept.drain(..1);
            }
            kept.push((key, answer.clone()));
        }
        answer
    }
}

impl Clone for ShrinkCache {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for ShrinkCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let radii: Vec<f64> = self
            .kept
            .lock()
            .map(|kept| kept.iter().map(|(k, _)| f64::from_bits(*k)).collect())
            .unwrap_or_default();
        f.debug_struct("ShrinkCache")
            .field("radii", &radii)
            .finish()
    }
}

/// `mesh` shrunk by `radius` (see the module's description).
pub fn shrink(mesh: &NavMesh, radius: f64) -> Result<Shrunk, ShrinkError> {
    let bounds = mesh.bounds();
    let size = (bounds.max.x - bounds.min.x).max(bounds.max.y - bounds.min.y);
    let limit = MAX_RADIUS_SHARE * size;
    if !(radius.is_finite() && radius > 0.0 && radius < limit) {
        return Err(ShrinkError::BadRadius { limit });
    }
    let plane = mesh.plane();
    let mut positions: Vec<[f64; 3]> = Vec::new();
    let mut polygons: Vec<Vec<usize>> = Vec::new();
    let mut areas: Vec<super::areas::AreaId> = Vec::new();
    let mut shrunk = ShrinkSummary {
        radius,
        area_before: mesh.triangles().iter().map(|t| t.area).sum(),
        walls_before: mesh
            .edges()
            .iter()
            .filter(|e| e.triangles.len() == 1)
            .map(|e| e.vertices.map(|v| mesh.vertices()[v]))
            .collect(),
        ..ShrinkSummary::default()
    };
    let mut by_island: Vec<Vec<TriId>> = vec![Vec::new(); mesh.island_count()];
    for t in 0..mesh.triangles().len() {
        if let Some(list) = by_island.get_mut(mesh.island_of(t)) {
            list.push(t);
        }
    }
    for (island, triangles) in by_island.iter().enumerate() {
        let region = region_of(mesh, triangles);
        let area: f64 = triangles.iter().map(|&t| mesh.triangles()[t].area).sum();
        if (shapes_area(&region) - area).abs() > 1e-9 * area.max(1.0) {
            // Stacked floors: shrunk floor by floor, the floors joined where they meet.
            shrunk.stacked.push(island + 1);
            let mut out = Pieces {
                positions: &mut positions,
                polygons: &mut polygons,
                areas: &mut areas,
            };
            if !shrink_stacked(mesh, triangles, radius, &mut out)? {
                shrunk.vanished.push(island + 1);
            }
            continue;
        }
        let walls = capsules(mesh, triangles, radius);
        let left: Vec<Vec<Vec<[f64; 2]>>> =
            region.overlay_as::<i64>(&walls, OverlayRule::Difference, FillRule::NonZero);
        if left.is_empty() {
            shrunk.vanished.push(island + 1);
            continue;
        }
        let lookup = Lookup::new(mesh, triangles);
        for shape in &left {
            let (points, faces) = triangulate(shape, true).map_err(ShrinkError::Build)?;
            let first = positions.len();
            for &p in &points {
                let height = lookup.height_at(p).unwrap_or(0.0);
                positions.push(plane.unproject(p, height));
            }
            for [a, b, c] in faces {
                let centre = (points[a] + points[b] + points[c]) * (1.0 / 3.0);
                areas.push(lookup.find(centre).map_or(0, |t| mesh.area_type(t)));
                polygons.push(vec![first + a, first + b, first + c]);
            }
        }
        shrunk.closed.extend(closed_passages(&region, &left));
    }
    if polygons.is_empty() {
        return Err(ShrinkError::NoRoom { radius });
    }
    let mut raw = RawMesh::new(positions, polygons, plane);
    raw.area_names = mesh.area_names().to_vec();
    raw.polygon_areas = areas;
    raw.shrunk = Some(shrunk.clone());
    // What the file held and the walkable filter kept stays what it was.
    let before = mesh.raw();
    raw.walkable = Some(mesh.walkable_summary());
    raw.file_steep_share = Some(
        before
            .file_steep_share
            .unwrap_or_else(|| super::walkable::steep_share(before)),
    );
    raw.plane_from_file = before.plane_from_file;
    let mesh = NavMesh::from_raw(
        raw,
        super::BuildOptions {
            plane,
            // Vertices of different pieces never coincide by chance: weld only equal ones.
            relative_weld_tolerance: 0.0,
        },
    )
    .map_err(|e| ShrinkError::Build(e.to_string()))?;
    Ok(Shrunk {
        mesh,
        summary: shrunk,
    })
}

/// Where a shrunk mesh's polygons go: 3D positions, polygons over them, an area type each.
struct Pieces<'a> {
    positions: &'a mut Vec<[f64; 3]>,
    polygons: &'a mut Vec<Vec<usize>>,
    areas: &'a mut Vec<super::areas::AreaId>,
}

/// Shrinks an island whose floors overlap in the plane: its triangles are split into layers
/// none of whose triangles overlap (grown from a triangle across its neighbours), each layer's
/// region less the capsules of the walls that count on its floors (a triangle less only its
/// own where a wall of another floor passes near it, as the clearance measures the room; see
/// `floor_walls`) is triangulated on its own, and the layers meet again where they
/// met: every layer is clipped on one integer grid, so a seam's points are the same on both
/// sides, they are triangulated without points added, and a point on a seam takes its height
/// along the seam. False when nothing is left.
fn shrink_stacked(
    mesh: &NavMesh,
    triangles: &[TriId],
    radius: f64,
    out: &mut Pieces<'_>,
) -> Result<bool, ShrinkError> {
    use i_overlay::core::overlay::ShapeType;
    use i_overlay::float::overlay::FloatOverlay;
    use i_overlay::i_float::adapter::FloatPointAdapter;
    let plane = mesh.plane();
    // Each triangle's walls: those it reaches over its floor (a wall of a floor above or
    // below does not count).
    let mut floor_walls: std::collections::HashMap<TriId, Vec<[usize; 2]>> = Default::default();
    for &t in triangles {
        let (walls, most) = super::clearance::floor_walls_in(mesh, t);
        // Where every point is nearer a wall than the radius, nothing is left.
        if most >= radius {
            let mut walls: Vec<[usize; 2]> = walls
                .into_iter()
                .map(|[a, b]| if a < b { [a, b] } else { [b, a] })
                .collect();
            walls.sort_unstable();
            floor_walls.insert(t, walls);
        }
    }
    let all_walls = capsules(mesh, triangles, radius);
    let contours: Vec<Vec<[f64; 2]>> = triangles
        .iter()
        .map(|&t| mesh.corners(t).iter().map(|p| [p.x, p.y]).collect())
        .collect();
    let adapter = FloatPointAdapter::<[f64; 2], i64>::with_iter_conservative(
        contours.iter().chain(&all_walls).flatten(),
    );
    let layers = layers_of(mesh, triangles);
    let seams = seams_of(mesh, triangles, &layers);
    let bounds = mesh.bounds();
    let near = 1e-9
        * (bounds.max.x - bounds.min.x)
            .max(bounds.max.y - bounds.min.y)
            .max(1.0);
    let corners_of =
        |t: TriId| -> Vec<[f64; 2]> { mesh.corners(t).iter().map(|p| [p.x, p.y]).collect() };
    let difference =
        |subject: &[Vec<[f64; 2]>], clip: &[Vec<[f64; 2]>]| -> Vec<Vec<Vec<[f64; 2]>>> {
            FloatOverlay::with_adapter(adapter.clone(), 4 * (subject.len() + clip.len()))
                .unsafe_add_source(&subject, ShapeType::Subject)
                .unsafe_add_source(&clip, ShapeType::Clip)
                .overlay(OverlayRule::Difference, FillRule::NonZero)
        };
    let mut any = false;
    for layer in &layers {
        let kept: Vec<TriId> = layer
            .iter()
            .copied()
            .filter(|t| floor_walls.contains_key(t))
            .collect();
        // The walls of the layer's floors; a triangle near one that does not count for it
        // (a floor above or below) is cut on its own.
        let mut layer_walls: Vec<[usize; 2]> = kept
            .iter()
            .filter_map(|t| floor_walls.get(t))
            .flatten()
            .copied()
            .collect();
        layer_walls.sort_unstable();
        layer_walls.dedup();
        let reach = radius / (std::f64::consts::PI / CAP_SIDES as f64).cos();
        let (plain, own): (Vec<TriId>, Vec<TriId>) = kept.iter().partition(|&&t| {
            let mine = floor_walls.get(&t).map_or(&[][..], Vec::as_slice);
            let corners = mesh.corners(t);
            !layer_walls.iter().any(|w| {
                mine.binary_search(w).is_err() && {
                    let [a, b] = w.map(|v| mesh.vertices()[v]);
                    super::floor_walls::segment_to_triangle(a, b, &corners) <= reach
                }
            })
        });
        let subject: Vec<Vec<[f64; 2]>> = plain.iter().map(|&t| corners_of(t)).collect();
        let mut left = difference(&subject, &capsules_of(mesh, &layer_walls, radius));
        if !own.is_empty() {
            let mut pieces: Vec<Vec<[f64; 2]>> = left.into_iter().flatten().collect();
            for &t in &own {
                let mine = floor_walls.get(&t).map_or(&[][..], Vec::as_slice);
                pieces.extend(
                    difference(&[corners_of(t)], &capsules_of(mesh, mine, radius))
                        .into_iter()
                        .flatten(),
                );
            }
            left = FloatOverlay::with_adapter(adapter.clone(), 4 * pieces.len())
                .unsafe_add_source(&pieces, ShapeType::Subject)
                .overlay(OverlayRule::Subject, FillRule::NonZero);
        }
        let lookup = Lookup::new(mesh, layer);
        for shape in &left {
            let (points, faces) = triangulate(shape, false).map_err(ShrinkError::Build)?;
            let first = out.positions.len();
            for &p in &points {
                let height = seams
                    .height_near(p, near)
                    .or_else(|| lookup.height_at(p))
                    .unwrap_or(0.0);
                out.positions.push(plane.unproject(p, height));
            }
            for [a, b, c] in faces {
                let centre = (points[a] + points[b] + points[c]) * (1.0 / 3.0);
                out.areas
                    .push(lookup.find(centre).map_or(0, |t| mesh.area_type(t)));
                out.polygons.push(vec![first + a, first + b, first + c]);
                any = true;
            }
        }
    }
    Ok(any)
}

/// An island's triangles in layers none of whose triangles overlap in the plane: each grown
/// from the lowest triangle left across shared edges, taking a neighbour unless it overlaps a
/// triangle the layer has.
fn layers_of(mesh: &NavMesh, triangles: &[TriId]) -> Vec<Vec<TriId>> {
    use rstar::RTreeObject;
    use rstar::primitives::{GeomWithData, Rectangle};
    let mut layer_of: std::collections::HashMap<TriId, usize> = Default::default();
    let in_island: std::collections::HashSet<TriId> = triangles.iter().copied().collect();
    let aabb = |t: TriId| {
        let [a, b, c] = mesh.corners(t);
        Rectangle::from_corners(
            [a.x.min(b.x).min(c.x), a.y.min(b.y).min(c.y)],
            [a.x.max(b.x).max(c.x), a.y.max(b.y).max(c.y)],
        )
    };
    let mut layers = Vec::new();
    for &seed in triangles {
        if layer_of.contains_key(&seed) {
            continue;
        }
        let k = layers.len();
        let mut tree: rstar::RTree<GeomWithData<Rectangle<[f64; 2]>, TriId>> = rstar::RTree::new();
        let mut members = vec![seed];
        layer_of.insert(seed, k);
        tree.insert(GeomWithData::new(aabb(seed), seed));
        let mut stack = vec![seed];
        while let Some(t) = stack.pop() {
            for &(n, _) in mesh.neighbours(t) {
                if layer_of.contains_key(&n) || !in_island.contains(&n) {
                    continue;
                }
                let corners = mesh.corners(n);
                let overlaps = tree
                    .locate_in_envelope_intersecting(&aabb(n).envelope())
                    .any(|other| {
                        super::floor_walls::interiors_overlap(corners, mesh.corners(other.data))
                    });
                if overlaps {
                    continue;
                }
                layer_of.insert(n, k);
                tree.insert(GeomWithData::new(aabb(n), n));
                members.push(n);
                stack.push(n);
            }
        }
        layers.push(members);
    }
    layers
}

/// The edges where two layers of an island meet, for the heights of the points on them.
struct Seams {
    tree:
        rstar::RTree<rstar::primitives::GeomWithData<rstar::primitives::Line<[f64; 2]>, [f64; 2]>>,
}

fn seams_of(mesh: &NavMesh, triangles: &[TriId], layers: &[Vec<TriId>]) -> Seams {
    use rstar::primitives::{GeomWithData, Line};
    let mut layer_of: std::collections::HashMap<TriId, usize> = Default::default();
    for (k, layer) in layers.iter().enumerate() {
        for &t in layer {
            layer_of.insert(t, k);
        }
    }
    let mut seams = Vec::new();
    for &t in triangles {
        for &(n, e) in mesh.neighbours(t) {
            let (Some(a), Some(b)) = (layer_of.get(&t), layer_of.get(&n)) else {
                continue;
            };
            if a < b {
                // Its ends in a fixed order (the lower first), with their heights, so that a point
                // on it takes the same height from either side.
                let [u, v] = mesh.edges()[e].vertices;
                let (u, v) = if (mesh.vertices()[u].x, mesh.vertices()[u].y)
                    <= (mesh.vertices()[v].x, mesh.vertices()[v].y)
                {
                    (u, v)
                } else {
                    (v, u)
                };
                let (p, q) = (mesh.vertices()[u], mesh.vertices()[v]);
                seams.push(GeomWithData::new(
                    Line::new([p.x, p.y], [q.x, q.y]),
                    [mesh.heights()[u], mesh.heights()[v]],
                ));
            }
        }
    }
    Seams {
        tree: rstar::RTree::bulk_load(seams),
    }
}

impl Seams {
    /// The height at `p` along the seam within `near` of it, if one is.
    fn height_near(&self, p: Vec2, near: f64) -> Option<f64> {
        use rstar::PointDistance;
        let seam = self.tree.nearest_neighbor(&[p.x, p.y])?;
        if seam.geom().distance_2(&[p.x, p.y]) > near * near {
            return None;
        }
        let (a, b) = (Vec2::from(seam.geom().from), Vec2::from(seam.geom().to));
        let d = b - a;
        let t = if d.dot(d) > 0.0 {
            ((p - a).dot(d) / d.dot(d)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        Some(seam.data[0] + t * (seam.data[1] - seam.data[0]))
    }
}

/// The union of an island's triangles in the plane.
fn region_of(mesh: &NavMesh, triangles: &[TriId]) -> Vec<Vec<Vec<[f64; 2]>>> {
    let contours: Vec<Vec<[f64; 2]>> = triangles
        .iter()
        .map(|&t| mesh.corners(t).iter().map(|p| [p.x, p.y]).collect())
        .collect();
    contours.simplify_shape_as::<i64>(FillRule::NonZero)
}

fn shapes_area(shapes: &[Vec<Vec<[f64; 2]>>]) -> f64 {
    shapes
        .iter()
        .flatten()
        .map(|ring| {
            let mut twice = 0.0;
            for k in 0..ring.len() {
                let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
                twice += a[0] * b[1] - a[1] * b[0];
            }
            twice / 2.0
        })
        .sum()
}

/// A polygon round each wall of the island (its edges with one triangle) that holds every point
/// within `radius` of the wall: a rectangle along it and a circumscribed polygon round each end.
fn capsules(mesh: &NavMesh, triangles: &[TriId], radius: f64) -> Vec<Vec<[f64; 2]>> {
    let mut walls: Vec<usize> = triangles
        .iter()
        .flat_map(|&t| mesh.triangles()[t].edges)
        .filter(|&e| mesh.edges()[e].triangles.len() == 1)
        .collect();
    walls.sort_unstable();
    walls.dedup();
    let walls: Vec<[usize; 2]> = walls.iter().map(|&e| mesh.edges()[e].vertices).collect();
    capsules_of(mesh, &walls, radius)
}

/// A polygon round each of `walls` (vertex pairs) that holds every point within `radius` of
/// it: a rectangle along it and a circumscribed polygon round each end.
fn capsules_of(mesh: &NavMesh, walls: &[[usize; 2]], radius: f64) -> Vec<Vec<[f64; 2]>> {
    let mut ends: Vec<usize> = walls.iter().flatten().copied().collect();
    ends.sort_unstable();
    ends.dedup();
    let mut out = Vec::with_capacity(walls.len() + ends.len());
    for wall in walls {
        let [a, b] = wall.map(|v| mesh.vertices()[v]);
        let d = b - a;
        let length = d.length();
        if length == 0.0 {
            continue;
        }
        let n = Vec2::new(-d.y, d.x) * (radius / length);
        out.push(
            [a + n, a - n, b - n, b + n]
                .iter()
                .map(|p| [p.x, p.y])
                .collect(),
        );
    }
    // The polygon's sides touch the circle: its corners are a little further out.
    let corner = radius / (std::f64::consts::PI / CAP_SIDES as f64).cos();
    for &v in &ends {
        let c = mesh.vertices()[v];
        out.push(
            (0..CAP_SIDES)
                .map(|k| {
                    let angle = std::f64::consts::TAU * k as f64 / CAP_SIDES as f64;
                    [c.x + corner * angle.cos(), c.y + corner * angle.sin()]
                })
                .collect(),
        );
    }
    out
}

/// Triangulates one shape (an outer contour and its holes): its points and its triangles
/// (counter-clockwise), refined as the map builder's are when `refine` (else no point added).
#[allow(clippy::type_complexity)]
fn triangulate(
    shape: &[Vec<[f64; 2]>],
    refine: bool,
) -> Result<(Vec<Vec2>, Vec<[usize; 3]>), String> {
    use spade::{
        AngleLimit, ConstrainedDelaunayTriangulation, Point2, RefinementParameters, Triangulation,
    };
    let mut points: Vec<Point2<f64>> = Vec::new();
    let mut edges: Vec<[usize; 2]> = Vec::new();
    for ring in shape {
        let first = points.len();
        for (k, p) in ring.iter().enumerate() {
            points.push(Point2::new(p[0], p[1]));
            edges.push([first + k, first + (k + 1) % ring.len()]);
        }
    }
    let count = points.len();
    let mut crossing = false;
    let mut cdt =
        ConstrainedDelaunayTriangulation::<Point2<f64>>::try_bulk_load_cdt(points, edges, |_| {
            crossing = true
        })
        .map_err(|e| format!("{e:?}"))?;
    if crossing {
        return Err("the shrunk outline crosses itself".to_string());
    }
    if refine {
        cdt.refine(
            RefinementParameters::new()
                .exclude_outer_faces(true)
                .with_angle_limit(AngleLimit::from_deg(super::from_map::MIN_ANGLE_DEGREES))
                .with_max_additional_vertices(4 * count + 64),
        );
    }
    let out: Vec<Vec2> = cdt
        .vertices()
        .map(|v| Vec2::new(v.position().x, v.position().y))
        .collect();
    let mut faces = Vec::new();
    for face in cdt.inner_faces() {
        let [a, b, c] = face.vertices().map(|v| v.fix().index());
        let (pa, pb, pc) = (out[a], out[b], out[c]);
        if !inside_shape(shape, (pa + pb + pc) * (1.0 / 3.0)) {
            continue;
        }
        faces.push(if (pb - pa).cross(pc - pa) > 0.0 {
            [a, b, c]
        } else {
            [a, c, b]
        });
    }
    Ok((out, faces))
}

/// True when `p` is inside the shape (inside its outer contour and no hole): an odd number of
/// its edges lie to the right along a ray.
fn inside_shape(shape: &[Vec<[f64; 2]>], p: Vec2) -> bool {
    let mut inside = false;
    for ring in shape {
        for k in 0..ring.len() {
            let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
            if (a[1] > p.y) != (b[1] > p.y) {
                let x = a[0] + (p.y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
                if x > p.x {
                    inside = !inside;
                }
            }
        }
    }
    inside
}

/// Between each pair of pieces an island fell into that were joined through the island's
/// walkable region (the segment between their nearest points runs over it, and over no other
/// piece), a mark at the middle of that segment.
fn closed_passages(
    region: &[Vec<Vec<[f64; 2]>>],
    pieces: &[Vec<Vec<[f64; 2]>>],
) -> Vec<ClosedPassage> {
    let in_region = |p: Vec2| region.iter().any(|shape| inside_shape(shape, p));
    let mut found = Vec::new();
    for i in 0..pieces.len() {
        for j in i + 1..pieces.len() {
            let mut best: Option<(f64, Vec2, Vec2)> = None;
            for a in pieces[i].iter().flatten() {
                for b in pieces[j].iter().flatten() {
                    let (pa, pb) = (Vec2::new(a[0], a[1]), Vec2::new(b[0], b[1]));
                    let d = pa.distance(pb);
                    if best.is_none_or(|(bd, _, _)| d < bd) {
                        best = Some((d, pa, pb));
                    }
                }
            }
            let Some((gap, pa, pb)) = best else {
                continue;
            };
            let joined = (1..16).all(|k| {
                let p = pa.lerp(pb, f64::from(k) / 16.0);
                in_region(p)
                    && pieces
                        .iter()
                        .enumerate()
                        .all(|(n, piece)| n == i || n == j || !inside_shape(piece, p))
            });
            if joined {
                found.push(ClosedPassage {
                    at: pa.midpoint(pb),
                    gap,
                });
            }
        }
    }
    found
}

/// Finds points in an island's triangles.
struct Lookup<'m> {
    mesh: &'m NavMesh,
    tree: rstar::RTree<
        rstar::primitives::GeomWithData<rstar::primitives::Rectangle<[f64; 2]>, TriId>,
    >,
}

impl<'m> Lookup<'m> {
    fn new(mesh: &'m NavMesh, triangles: &[TriId]) -> Self {
        let boxes = triangles
            .iter()
            .map(|&t| {
                let [a, b, c] = mesh.corners(t);
                rstar::primitives::GeomWithData::new(
                    rstar::primitives::Rectangle::from_corners(
                        [a.x.min(b.x).min(c.x), a.y.min(b.y).min(c.y)],
                        [a.x.max(b.x).max(c.x), a.y.max(b.y).max(c.y)],
                    ),
                    t,
                )
            })
            .collect();
        Self {
            mesh,
            tree: rstar::RTree::bulk_load(boxes),
        }
    }

    /// The island's triangle holding `p`, or else the one nearest it.
    fn find(&self, p: Vec2) -> Option<TriId> {
        let point = [p.x, p.y];
        let holding = self
            .tree
            .locate_all_at_point(&point)
            .map(|g| g.data)
            .find(|&t| {
                let [a, b, c] = self.mesh.corners(t);
                triangle_contains(a, b, c, p)
            });
        holding.or_else(|| self.tree.nearest_neighbor(&point).map(|g| g.data))
    }

    /// The height of the island's surface at `p` (interpolated across its triangle).
    fn height_at(&self, p: Vec2) -> Option<f64> {
        let t = self.find(p)?;
        let tri = &self.mesh.triangles()[t];
        let [a, b, c] = self.mesh.corners(t);
        let [ha, hb, hc] = tri.vertices.map(|v| self.mesh.heights()[v]);
        let det = (b - a).cross(c - a);
        if det == 0.0 {
            return Some((ha + hb + hc) / 3.0);
        }
        let u = (p - a).cross(c - a) / det;
        let v = (b - a).cross(p - a) / det;
        Some(ha + u * (hb - ha) + v * (hc - ha))
    }
}
