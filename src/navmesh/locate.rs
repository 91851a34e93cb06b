//! Point location: which triangle holds a point, through an R-tree ([`rstar`]) of triangle
//! bounding boxes and an exact orientation test; points off the mesh snap to the nearest point on
//! it.

use super::{NavMesh, TriId, Triangle};
use crate::geom::{Vec2, closest_point_on_triangle, signed_area2, triangle_contains};
use rstar::{AABB, PointDistance, RTree, RTreeObject};
use serde::Serialize;

/// Where a point lies on the mesh.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Location {
    /// The triangle that holds `point`.
    pub triangle: TriId,
    /// The point asked for.
    pub requested: Vec2,
    /// The point used: `requested` itself, or the nearest point on the mesh when it was off.
    pub point: Vec2,
    /// True when `requested` was off the mesh and was moved to `point`.
    pub snapped: bool,
}

#[derive(Debug, Clone)]
struct IndexedTriangle {
    id: TriId,
    corners: [Vec2; 3],
}

impl RTreeObject for IndexedTriangle {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        let [a, b, c] = self.corners;
        AABB::from_corners(
            [a.x.min(b.x).min(c.x), a.y.min(b.y).min(c.y)],
            [a.x.max(b.x).max(c.x), a.y.max(b.y).max(c.y)],
        )
    }
}

impl PointDistance for IndexedTriangle {
    fn distance_2(&self, point: &[f64; 2]) -> f64 {
        let p = Vec2::new(point[0], point[1]);
        let [a, b, c] = self.corners;
        closest_point_on_triangle(a, b, c, p).distance_squared(p)
    }

    fn contains_point(&self, point: &[f64; 2]) -> bool {
        let [a, b, c] = self.corners;
        triangle_contains(a, b, c, Vec2::new(point[0], point[1]))
    }
}

/// Spatial index over a mesh's triangles.
#[derive(Debug)]
pub(crate) struct TriangleIndex {
    tree: RTree<IndexedTriangle>,
}

impl TriangleIndex {
    pub(crate) fn new(vertices: &[Vec2], triangles: &[Triangle]) -> Self {
        let items = triangles
            .iter()
            .enumerate()
            .map(|(id, t)| IndexedTriangle {
                id,
                corners: t.vertices.map(|v| vertices[v]),
            })
            .collect();
        Self {
            tree: RTree::bulk_load(items),
        }
    }
}

impl NavMesh {
    /// The triangle holding `p` (on its boundary counts), or `None` when `p` is off the mesh.
    /// Where several triangles hold it (a shared edge or vertex, or overlapping layers), the
    /// lowest id wins, so the answer is deterministic.
    pub fn triangle_at(&self, p: Vec2) -> Option<TriId> {
        if !p.is_finite() {
            return None;
        }
        self.index
            .tree
            .locate_all_at_point(&[p.x, p.y])
            .map(|t| t.id)
            .min()
    }

    /// Every triangle holding `p`, lowest id first.
    pub fn triangles_at(&self, p: Vec2) -> Vec<TriId> {
        let mut ids: Vec<TriId> = self
            .index
            .tree
            .locate_all_at_point(&[p.x, p.y])
            .map(|t| t.id)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Locates `p`, snapping it to the nearest point on the mesh when it is off. Returns `None`
    /// only for a non-finite point.
    pub fn locate(&self, p: Vec2) -> Option<Location> {
        if !p.is_finite() {
            return None;
        }
        if let Some(triangle) = self.triangle_at(p) {
            return Some(Location {
                triangle,
                requested: p,
                point: p,
                snapped: false,
            });
        }
        let nearest = self.index.tree.nearest_neighbor(&[p.x, p.y])?;
        let [a, b, c] = nearest.corners;
        let closest = closest_point_on_triangle(a, b, c, p);
        // The closest point lies on the triangle's boundary, where rounding can put it a hair
        // outside. Prefer it as is (in this triangle or the one across the edge); otherwise
        // pull it towards the centroid by the smallest step the exact test accepts.
        let (triangle, point) = if triangle_contains(a, b, c, closest) {
            (nearest.id, closest)
        } else if let Some(other) = self.triangle_at(closest) {
            (other, closest)
        } else {
            let centroid = self.triangles[nearest.id].centroid;
            let candidates = [1e-15, 1e-12, 1e-9, 1e-6, 1e-3]
                .into_iter()
                .map(|t| closest.lerp(centroid, t))
                .chain([a, b, c, centroid]);
            let pulled = candidates
                .filter(|&q| triangle_contains(a, b, c, q))
                .min_by(|u, v| u.distance_squared(p).total_cmp(&v.distance_squared(p)))
                .unwrap_or(a);
            (nearest.id, pulled)
        };
        Some(Location {
            triangle,
            requested: p,
            point,
            snapped: true,
        })
    }

    /// The seed's method, kept as a baseline for benchmarks: scan every triangle and accept `p`
    /// when the areas of the three sub-triangles it makes sum to the triangle's area within 0.1 %.
    pub fn triangle_at_linear_scan(&self, p: Vec2) -> Option<TriId> {
        (0..self.triangles.len()).find(|&t| {
            let [a, b, c] = self.corners(t);
            let parts = (signed_area2(p, a, b).abs()
                + signed_area2(p, b, c).abs()
                + signed_area2(p, c, a).abs())
                / 2.0;
            parts <= self.triangles[t].area * 1.001
        })
    }
}
