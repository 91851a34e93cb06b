//! Plane geometry in `f64`: points, exact orientation tests (Shewchuk's predicates via
//! [`robust`](https://docs.rs/robust)), closest points, segment tests and polygon triangulation.

use serde::{Deserialize, Serialize};
use std::ops::{Add, Mul, Sub};

/// A point or vector in the navigation plane.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Vec2 {
    /// First plane coordinate (world X).
    pub x: f64,
    /// Second plane coordinate (world Z for XZ meshes, Y for XY meshes).
    pub y: f64,
}

impl From<[f64; 2]> for Vec2 {
    fn from([x, y]: [f64; 2]) -> Self {
        Self { x, y }
    }
}

impl From<(f64, f64)> for Vec2 {
    fn from((x, y): (f64, f64)) -> Self {
        Self { x, y }
    }
}

impl From<Vec2> for [f64; 2] {
    fn from(p: Vec2) -> Self {
        [p.x, p.y]
    }
}

impl Vec2 {
    /// Makes a point from its two coordinates.
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// The 2D cross product (z of the 3D cross product).
    #[inline]
    pub fn cross(self, other: Vec2) -> f64 {
        self.x * other.y - self.y * other.x
    }

    /// The dot product.
    #[inline]
    pub fn dot(self, other: Vec2) -> f64 {
        self.x * other.x + self.y * other.y
    }

    /// Euclidean length: the square root of the squares' sum, several times faster than
    /// `hypot`, which it falls back to where the squares overflow or underflow.
    #[inline]
    pub fn length(self) -> f64 {
        let squared = self.dot(self);
        if squared.is_finite() && squared >= f64::MIN_POSITIVE {
            squared.sqrt()
        } else {
            self.x.hypot(self.y)
        }
    }

    /// Euclidean distance to `other`.
    #[inline]
    pub fn distance(self, other: Vec2) -> f64 {
        (self - other).length()
    }

    /// Squared Euclidean distance to `other`.
    #[inline]
    pub fn distance_squared(self, other: Vec2) -> f64 {
        let d = self - other;
        d.dot(d)
    }

    /// The point halfway between `self` and `other`.
    #[inline]
    pub fn midpoint(self, other: Vec2) -> Vec2 {
        Vec2::new((self.x + other.x) * 0.5, (self.y + other.y) * 0.5)
    }

    /// `self + (other - self) * t`.
    #[inline]
    pub fn lerp(self, other: Vec2, t: f64) -> Vec2 {
        self + (other - self) * t
    }

    /// True when both coordinates are finite.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// The vector scaled to length 1, or zero when it is (nearly) zero.
    pub fn normalized_or_zero(self) -> Vec2 {
        let len = self.length();
        if len > 1e-12 {
            self * (1.0 / len)
        } else {
            Vec2::default()
        }
    }

    /// The vector shortened to at most `max` (direction kept).
    pub fn clamp_length(self, max: f64) -> Vec2 {
        let len = self.length();
        if len > max && len > 0.0 {
            self * (max / len)
        } else {
            self
        }
    }

    /// The vector turned by `angle` radians counter-clockwise (in a y-down view: clockwise).
    pub fn rotated(self, angle: f64) -> Vec2 {
        let (s, c) = angle.sin_cos();
        Vec2::new(self.x * c - self.y * s, self.x * s + self.y * c)
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn mul(self, s: f64) -> Vec2 {
        Vec2::new(self.x * s, self.y * s)
    }
}

impl std::fmt::Display for Vec2 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::words::decimal;
        write!(f, "({}, {})", decimal(self.x, 3), decimal(self.y, 3))
    }
}

/// Exact orientation of `c` relative to the directed line `a → b`: positive when `c` is to the
/// left (counter-clockwise), negative when to the right, exactly zero when collinear.
#[inline]
pub fn orient(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let coord = |p: Vec2| robust::Coord { x: p.x, y: p.y };
    robust::orient2d(coord(a), coord(b), coord(c))
}

/// Twice the signed area of triangle `abc` (positive when counter-clockwise), computed in plain
/// floating point; use [`orient`] for decisions.
pub fn signed_area2(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    (b - a).cross(c - a)
}

/// True when `p` lies inside the counter-clockwise triangle `abc` or on its boundary (exact).
pub fn triangle_contains(a: Vec2, b: Vec2, c: Vec2, p: Vec2) -> bool {
    orient(a, b, p) >= 0.0 && orient(b, c, p) >= 0.0 && orient(c, a, p) >= 0.0
}

/// The point of segment `ab` closest to `p`.
pub fn closest_point_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.dot(ab);
    if len2 <= 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a.lerp(b, t)
}

/// The point of the counter-clockwise triangle `abc` (interior included) closest to `p`.
pub fn closest_point_on_triangle(a: Vec2, b: Vec2, c: Vec2, p: Vec2) -> Vec2 {
    if triangle_contains(a, b, c, p) {
        return p;
    }
    [
        closest_point_on_segment(a, b, p),
        closest_point_on_segment(b, c, p),
        closest_point_on_segment(c, a, p),
    ]
    .into_iter()
    .min_by(|u, v| u.distance_squared(p).total_cmp(&v.distance_squared(p)))
    .unwrap_or(a)
}

/// Where segment `p → q` meets segment `a → b`, as the parameter along `a → b` (0 at `a`, 1 at
/// `b`), or `None` when they do not meet. A proper crossing is decided by exact orientation
/// tests; otherwise an end point of one lying within `tolerance` (world units) of the other
/// counts as touching, which handles collinear and nearly parallel segments stably.
pub fn segment_crossing_param(p: Vec2, q: Vec2, a: Vec2, b: Vec2, tolerance: f64) -> Option<f64> {
    let (oa, ob) = (orient(p, q, a), orient(p, q, b));
    let (op, oq) = (orient(a, b, p), orient(a, b, q));
    let straddles = |x: f64, y: f64| (x > 0.0 && y < 0.0) || (x < 0.0 && y > 0.0);
    if straddles(oa, ob) && straddles(op, oq) {
        // `oa` and `ob` are proportional to the signed distances of a and b from line p→q.
        return Some((oa / (oa - ob)).clamp(0.0, 1.0));
    }
    let candidates = [
        (a, 0.0, closest_point_on_segment(p, q, a)),
        (b, 1.0, closest_point_on_segment(p, q, b)),
        (p, param_on(a, b, p), closest_point_on_segment(a, b, p)),
        (q, param_on(a, b, q), closest_point_on_segment(a, b, q)),
    ];
    candidates
        .into_iter()
        .filter(|(point, _, nearest)| point.distance(*nearest) <= tolerance)
        .map(|(_, u, _)| u.clamp(0.0, 1.0))
        .next()
}

fn param_on(a: Vec2, b: Vec2, p: Vec2) -> f64 {
    let ab = b - a;
    let len2 = ab.dot(ab);
    if len2 <= 0.0 {
        0.0
    } else {
        (p - a).dot(ab) / len2
    }
}

/// Twice the signed area of a polygon (positive when counter-clockwise).
pub fn polygon_area2(points: &[Vec2]) -> f64 {
    let n = points.len();
    (0..n).map(|i| points[i].cross(points[(i + 1) % n])).sum()
}

/// Splits a simple polygon (either winding, convex or not) into well-shaped triangles: a
/// constrained Delaunay triangulation ([`spade`]) of its outline, keeping the triangles inside.
/// Falls back to [`ear_clip`] when the outline repeats a point or crosses itself.
///
/// Returns index triples into `points`, each counter-clockwise.
pub fn triangulate_polygon(points: &[Vec2]) -> Vec<[usize; 3]> {
    let n = points.len();
    if n < 3 {
        return Vec::new();
    }
    if n == 3 {
        return vec![ccw_triple(points, [0, 1, 2])];
    }
    constrained_delaunay(points).unwrap_or_else(|| ear_clip(points))
}

fn constrained_delaunay(points: &[Vec2]) -> Option<Vec<[usize; 3]>> {
    use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};
    let n = points.len();
    let vertices: Vec<Point2<f64>> = points.iter().map(|p| Point2::new(p.x, p.y)).collect();
    let edges: Vec<[usize; 2]> = (0..n).map(|i| [i, (i + 1) % n]).collect();
    let mut conflict = false;
    let cdt =
        ConstrainedDelaunayTriangulation::<Point2<f64>>::try_bulk_load_cdt(vertices, edges, |_| {
            conflict = true
        })
        .ok()?;
    if conflict || cdt.num_vertices() != n {
        return None;
    }
    let triangles: Vec<[usize; 3]> = cdt
        .inner_faces()
        .map(|face| face.vertices().map(|v| v.fix().index()))
        .filter(|&[a, b, c]| {
            let centroid = Vec2::new(
                (points[a].x + points[b].x + points[c].x) / 3.0,
                (points[a].y + points[b].y + points[c].y) / 3.0,
            );
            polygon_contains(points, centroid)
        })
        .map(|t| ccw_triple(points, t))
        .collect();
    (triangles.len() == n - 2).then_some(triangles)
}

/// Even-odd test: is `p` inside the polygon?
fn polygon_contains(points: &[Vec2], p: Vec2) -> bool {
    let n = points.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Splits a simple polygon (either winding, convex or not) into triangles by ear clipping.
///
/// Among the ears available at each step the best-shaped one is cut (largest area relative to
/// its squared perimeter), so runs of collinear vertices, common in exported navmeshes, are
/// joined to the far side instead of forming zero-area slivers.
///
/// Returns index triples into `points`, each counter-clockwise. Polygons with fewer than three
/// points, or whose remaining part has no ear (self-intersecting input), give the triangles found
/// so far: the caller reports what was dropped.
pub fn ear_clip(points: &[Vec2]) -> Vec<[usize; 3]> {
    let n = points.len();
    if n < 3 {
        return Vec::new();
    }
    if n == 3 {
        return vec![ccw_triple(points, [0, 1, 2])];
    }
    // Work on a counter-clockwise list of indices.
    let mut ring: Vec<usize> = (0..n).collect();
    if polygon_area2(points) < 0.0 {
        ring.reverse();
    }
    let mut triangles = Vec::with_capacity(n - 2);
    while ring.len() > 3 {
        let m = ring.len();
        let mut best: Option<(f64, usize)> = None;
        for i in 0..m {
            let (ip, ic, inext) = (ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]);
            let (a, b, c) = (points[ip], points[ic], points[inext]);
            if orient(a, b, c) <= 0.0 {
                continue;
            }
            let empty = ring.iter().all(|&k| {
                k == ip || k == ic || k == inext || !triangle_contains(a, b, c, points[k])
            });
            if !empty {
                continue;
            }
            let perimeter2 = a.distance_squared(b) + b.distance_squared(c) + c.distance_squared(a);
            let quality = signed_area2(a, b, c) / perimeter2.max(f64::MIN_POSITIVE);
            if best.is_none_or(|(q, _)| quality > q) {
                best = Some((quality, i));
            }
        }
        let Some((_, i)) = best else {
            break; // no ear: the polygon is not simple
        };
        let m = ring.len();
        triangles.push([ring[(i + m - 1) % m], ring[i], ring[(i + 1) % m]]);
        ring.remove(i);
    }
    if ring.len() == 3 {
        triangles.push(ccw_triple(points, [ring[0], ring[1], ring[2]]));
    }
    triangles
}

fn ccw_triple(points: &[Vec2], [a, b, c]: [usize; 3]) -> [usize; 3] {
    if orient(points[a], points[b], points[c]) < 0.0 {
        [a, c, b]
    } else {
        [a, b, c]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_is_exact_for_nearly_collinear_points() {
        let a = Vec2::new(0.5, 0.5);
        let b = Vec2::new(12.0, 12.0);
        let c = Vec2::new(24.0, 24.0);
        assert_eq!(orient(a, b, c), 0.0);
        assert!(orient(a, b, Vec2::new(24.0, 24.000000000001)) > 0.0);
    }

    #[test]
    fn triangle_contains_its_corners_and_edges_but_not_outside_points() {
        let (a, b, c) = (
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(0.0, 2.0),
        );
        assert!(triangle_contains(a, b, c, a));
        assert!(triangle_contains(a, b, c, Vec2::new(1.0, 1.0)));
        assert!(!triangle_contains(a, b, c, Vec2::new(1.0, 1.0 + 1e-15)));
    }

    #[test]
    fn ear_clipping_covers_a_concave_polygon_exactly() {
        // An L shape, clockwise, area 3.
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 2.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(2.0, 0.0),
        ];
        for tris in [triangulate_polygon(&pts), ear_clip(&pts)] {
            assert_eq!(tris.len(), 4);
            let area: f64 = tris
                .iter()
                .map(|t| signed_area2(pts[t[0]], pts[t[1]], pts[t[2]]) / 2.0)
                .sum();
            assert!((area - 3.0).abs() < 1e-12);
            assert!(
                tris.iter()
                    .all(|t| orient(pts[t[0]], pts[t[1]], pts[t[2]]) > 0.0)
            );
        }
    }

    #[test]
    fn ear_clipping_joins_collinear_runs_to_the_far_side() {
        // A triangle-shaped polygon whose bottom edge holds three extra collinear vertices.
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(3.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(2.0, 3.0),
        ];
        for tris in [triangulate_polygon(&pts), ear_clip(&pts)] {
            assert_eq!(tris.len(), 4);
            for t in &tris {
                assert!(t.contains(&5), "every triangle reaches the apex: {tris:?}");
            }
        }
    }

    #[test]
    fn crossing_param_finds_the_meeting_point() {
        let u = segment_crossing_param(
            Vec2::new(1.0, -1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            1e-9,
        );
        assert_eq!(u, Some(0.25));
        assert_eq!(
            segment_crossing_param(
                Vec2::new(5.0, -1.0),
                Vec2::new(5.0, 1.0),
                Vec2::new(0.0, 0.0),
                Vec2::new(4.0, 0.0),
                1e-9
            ),
            None
        );
    }
}
