//! Which walls count on a mesh whose floors overlap in the plane (stairs over a floor, a
//! bridge): a point's room is its distance to the nearest wall it reaches by going straight
//! over the surface, so a wall of the floor underneath (or above) does not count where the
//! floor passes over it.
//!
//! On a floor that overlaps nothing this is every wall of the island: the segment from a point
//! to its nearest wall point never leaves the surface (any wall it crossed would be nearer). On
//! stacked floors the walls that count for a triangle are gathered across the surface: from the
//! triangle across every edge within a reach of it, taking the walls of the triangles reached
//! but not of one that overlaps another reached (a straight way never passes over one place
//! twice; the nearer is kept). The straight way from a point of the triangle to any wall within
//! the reach crosses only edges within the reach, so once the most room in the triangle
//! measured from the gathered walls is no more than the reach, every wall that can be a
//! point's nearest is among them (`floor_walls_in` in the clearance module finds the least
//! such reach). Where the surface within the reach comes round over itself (a spiral tighter
//! than the room) the nearer floor is the one taken.

use super::clearance::segment_to_segment;
use super::{NavMesh, TriId};
use crate::geom::{Vec2, orient, triangle_contains};

/// Per island of `mesh`: true when two of its triangles overlap in the plane.
pub(crate) fn stacked_islands(mesh: &NavMesh) -> Vec<bool> {
    let mut stacked = vec![false; mesh.island_count()];
    if mesh.triangles().is_empty() {
        return stacked;
    }
    let tree = mesh.tree();
    for t in 0..mesh.triangles().len() {
        let island = mesh.island_of(t);
        if stacked.get(island).copied().unwrap_or(true) {
            continue;
        }
        let corners = mesh.corners(t);
        let (lo, hi) = super::clearance::box_of(&corners);
        let envelope = rstar::AABB::from_corners([lo.x, lo.y], [hi.x, hi.y]);
        let overlaps = tree
            .locate_in_envelope_intersecting(&envelope)
            .any(|other| {
                other.id != t
                    && mesh.island_of(other.id) == island
                    && interiors_overlap(corners, other.corners)
            });
        if overlaps && let Some(flag) = stacked.get_mut(island) {
            *flag = true;
        }
    }
    stacked
}

/// The walls (border edges, as vertex pairs) of the triangles reached from `t` across edges
/// within `reach` of it, the nearer edges first, leaving out a triangle that overlaps one
/// already reached in the plane (a floor above or below: a straight way over the surface never
/// passes over the same place twice).
pub(crate) fn walls_reached(mesh: &NavMesh, t: TriId, reach: f64) -> Vec<[usize; 2]> {
    use rstar::primitives::{GeomWithData, Rectangle};
    use std::cmp::Reverse;
    let corners = mesh.corners(t);
    let rectangle = |c: &[Vec2; 3]| {
        let (lo, hi) = super::clearance::box_of(c);
        Rectangle::from_corners([lo.x, lo.y], [hi.x, hi.y])
    };
    let mut taken: rstar::RTree<GeomWithData<Rectangle<[f64; 2]>, TriId>> = rstar::RTree::new();
    let mut seen = std::collections::HashSet::from([t]);
    // Distances are never negative, so their bits order as they do.
    let mut queue = std::collections::BinaryHeap::from([Reverse((0u64, t))]);
    let mut walls = Vec::new();
    while let Some(Reverse((_, u))) = queue.pop() {
        let Some(triangle) = mesh.triangles().get(u) else {
            continue;
        };
        let here = mesh.corners(u);
        let envelope = rstar::RTreeObject::envelope(&rectangle(&here));
        if taken
            .locate_in_envelope_intersecting(&envelope)
            .any(|other| interiors_overlap(here, mesh.corners(other.data)))
        {
            continue;
        }
        taken.insert(GeomWithData::new(rectangle(&here), u));
        for &e in &triangle.edges {
            let Some(edge) = mesh.edges().get(e) else {
                continue;
            };
            if edge.is_border() {
                walls.push(e);
                continue;
            }
            let [a, b] = edge.vertices.map(|v| mesh.vertices()[v]);
            let distance = segment_to_triangle(a, b, &corners);
            if distance > reach {
                continue;
            }
            for &n in &edge.triangles {
                if seen.insert(n) {
                    queue.push(Reverse((distance.max(0.0).to_bits(), n)));
                }
            }
        }
    }
    walls.sort_unstable();
    walls.dedup();
    walls.iter().map(|&e| mesh.edges()[e].vertices).collect()
}

/// The distance from segment `ab` to the triangle `corners` (0 when it enters it).
pub(crate) fn segment_to_triangle(a: Vec2, b: Vec2, corners: &[Vec2; 3]) -> f64 {
    let [p, q, r] = *corners;
    if triangle_contains(p, q, r, a) || triangle_contains(p, r, q, a) {
        return 0.0;
    }
    (0..3)
        .map(|k| segment_to_segment(a, b, corners[k], corners[(k + 1) % 3]))
        .fold(f64::INFINITY, f64::min)
}

/// True when two counter-clockwise triangles share more than edges or corners: no side of
/// either has the other wholly on its outer side (or on it).
pub(crate) fn interiors_overlap(a: [Vec2; 3], b: [Vec2; 3]) -> bool {
    let separates = |t: [Vec2; 3], other: [Vec2; 3]| {
        (0..3).any(|k| {
            let (p, q) = (t[k], t[(k + 1) % 3]);
            other.iter().all(|&x| orient(p, q, x) <= 0.0)
        })
    };
    !(separates(a, b) || separates(b, a))
}
