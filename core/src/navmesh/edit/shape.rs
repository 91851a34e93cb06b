//! The shapes a user cuts into a mesh: obstacles, doors and areas, each a simple polygon
//! (rectangles and circles become polygons), checked before use.

use crate::geom::{Vec2, orient, polygon_area2, triangle_contains};
use crate::navmesh::TriId;
use crate::navmesh::areas::AreaId;
use serde::{Deserialize, Serialize};

/// The most corners one shape may have.
pub const MAX_SHAPE_CORNERS: usize = 256;

/// Sides of a circle drawn without saying how many.
pub const DEFAULT_CIRCLE_SIDES: usize = 16;

/// What a shape does to the mesh under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ShapeKind {
    /// Removes the walkable surface it covers.
    Obstacle,
    /// An obstacle that can be opened: closed it removes what it covers, open it does not.
    Door {
        /// Whether agents may pass.
        open: bool,
    },
    /// Gives the surface it covers an area type (the mesh is split along its outline).
    Area {
        /// The area type.
        area: AreaId,
    },
}

impl ShapeKind {
    /// True when the shape removes what it covers.
    pub fn blocks(self) -> bool {
        matches!(self, ShapeKind::Obstacle | ShapeKind::Door { open: false })
    }
}

/// A shape on the mesh.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    /// The outline, counter-clockwise, simple, at least three corners.
    pub outline: Vec<Vec2Data>,
    /// What it does.
    #[serde(flatten)]
    pub kind: ShapeKind,
    /// A triangle of the unedited mesh on the floor the shape was drawn on: the shape cuts only
    /// the triangles connected to it (the floors above and below stay). `None` cuts every
    /// floor under it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<TriId>,
}

/// A point as the shape files store it: `[x, z]`.
pub type Vec2Data = [f64; 2];

/// Why a shape cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// Fewer than three distinct corners.
    #[error("a shape needs at least three corners, this one has {0}")]
    TooFewCorners(usize),
    /// More than [`MAX_SHAPE_CORNERS`].
    #[error("a shape may have at most {MAX_SHAPE_CORNERS} corners, this one has {0}")]
    TooManyCorners(usize),
    /// A coordinate is NaN, infinite or beyond [`crate::input::MAX_COORDINATE`].
    #[error("corner {0} is not a finite coordinate within ±1e9")]
    NotFinite(usize),
    /// Two edges cross or touch where they should not.
    #[error("the outline crosses itself (edges {0} and {1})")]
    SelfIntersecting(usize, usize),
    /// All corners on one line.
    #[error("the shape has no area")]
    NoArea,
    /// A circle of zero, negative or non-finite radius, or too few sides.
    #[error("a circle needs a positive radius and 3 to {MAX_SHAPE_CORNERS} sides")]
    BadCircle,
}

impl Shape {
    /// A shape from its corners (either winding), checked and stored counter-clockwise.
    pub fn polygon(corners: &[Vec2], kind: ShapeKind) -> Result<Shape, ShapeError> {
        let outline = checked_outline(corners)?;
        Ok(Shape {
            outline: outline.iter().map(|p| [p.x, p.y]).collect(),
            kind,
            floor: None,
        })
    }

    /// The rectangle with opposite corners `a` and `b`.
    pub fn rectangle(a: Vec2, b: Vec2, kind: ShapeKind) -> Result<Shape, ShapeError> {
        let (lo, hi) = (
            Vec2::new(a.x.min(b.x), a.y.min(b.y)),
            Vec2::new(a.x.max(b.x), a.y.max(b.y)),
        );
        Self::polygon(
            &[lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)],
            kind,
        )
    }

    /// The regular polygon of `sides` corners on the circle around `centre` of `radius`.
    pub fn circle(
        centre: Vec2,
        radius: f64,
        sides: usize,
        kind: ShapeKind,
    ) -> Result<Shape, ShapeError> {
        if !(radius.is_finite() && radius > 0.0 && (3..=MAX_SHAPE_CORNERS).contains(&sides)) {
            return Err(ShapeError::BadCircle);
        }
        let corners: Vec<Vec2> = (0..sides)
            .map(|k| {
                let angle = std::f64::consts::TAU * k as f64 / sides as f64;
                Vec2::new(
                    centre.x + radius * angle.cos(),
                    centre.y + radius * angle.sin(),
                )
            })
            .collect();
        Self::polygon(&corners, kind)
    }

    /// The same shape on floor `floor`.
    pub fn on_floor(mut self, floor: Option<TriId>) -> Shape {
        self.floor = floor;
        self
    }

    /// The corners as points.
    pub fn corners(&self) -> Vec<Vec2> {
        self.outline.iter().map(|&[x, y]| Vec2::new(x, y)).collect()
    }

    /// The shape moved by `offset`.
    pub fn moved(&self, offset: Vec2) -> Shape {
        Shape {
            outline: self
                .outline
                .iter()
                .map(|&[x, y]| [x + offset.x, y + offset.y])
                .collect(),
            ..self.clone()
        }
    }

    /// The shape scaled about its bounding box's centre, by `sx` across and `sy` down (both
    /// positive).
    pub fn scaled(&self, sx: f64, sy: f64) -> Shape {
        let (lo, hi) = self.bounds();
        let c = lo.midpoint(hi);
        Shape {
            outline: self
                .outline
                .iter()
                .map(|&[x, y]| [c.x + (x - c.x) * sx, c.y + (y - c.y) * sy])
                .collect(),
            ..self.clone()
        }
    }

    /// The shape stretched so that its bounding box becomes `lo`..`hi` (each side at least
    /// `1e-6`; a box given inside out is turned the right way).
    pub fn fitted(&self, lo: Vec2, hi: Vec2) -> Shape {
        let (from_lo, from_hi) = self.bounds();
        let (lo, hi) = (
            Vec2::new(lo.x.min(hi.x), lo.y.min(hi.y)),
            Vec2::new(lo.x.max(hi.x), lo.y.max(hi.y)),
        );
        let hi = Vec2::new(hi.x.max(lo.x + 1e-6), hi.y.max(lo.y + 1e-6));
        let map = |v: f64, a: f64, b: f64, c: f64, d: f64| {
            if b > a {
                c + (v - a) / (b - a) * (d - c)
            } else {
                c
            }
        };
        Shape {
            outline: self
                .outline
                .iter()
                .map(|&[x, y]| {
                    [
                        map(x, from_lo.x, from_hi.x, lo.x, hi.x),
                        map(y, from_lo.y, from_hi.y, lo.y, hi.y),
                    ]
                })
                .collect(),
            ..self.clone()
        }
    }

    /// The distance from `p` to the nearest point of the outline.
    pub fn distance_to_outline(&self, p: Vec2) -> f64 {
        let ring = self.corners();
        (0..ring.len())
            .map(|i| {
                crate::geom::closest_point_on_segment(ring[i], ring[(i + 1) % ring.len()], p)
                    .distance(p)
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// Lowest and highest corner of the bounding box.
    pub fn bounds(&self) -> (Vec2, Vec2) {
        let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
        let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &[x, y] in &self.outline {
            lo = Vec2::new(lo.x.min(x), lo.y.min(y));
            hi = Vec2::new(hi.x.max(x), hi.y.max(y));
        }
        (lo, hi)
    }

    /// The area it covers.
    pub fn area(&self) -> f64 {
        polygon_area2(&self.corners()).abs() / 2.0
    }

    /// True when `p` is strictly inside.
    pub fn contains(&self, p: Vec2) -> bool {
        point_in_polygon(&self.corners(), p)
    }

    /// The shape as checked again (after a file or a move), counter-clockwise.
    pub fn checked(&self) -> Result<Shape, ShapeError> {
        Ok(Shape {
            outline: checked_outline(&self.corners())?
                .iter()
                .map(|p| [p.x, p.y])
                .collect(),
            ..self.clone()
        })
    }
}

/// The corners without repeats, counter-clockwise, or why they are not a simple polygon.
fn checked_outline(corners: &[Vec2]) -> Result<Vec<Vec2>, ShapeError> {
    if corners.len() > MAX_SHAPE_CORNERS {
        return Err(ShapeError::TooManyCorners(corners.len()));
    }
    if let Some(k) = corners
        .iter()
        .position(|p| !p.is_finite() || p.x.abs() > 1e9 || p.y.abs() > 1e9)
    {
        return Err(ShapeError::NotFinite(k));
    }
    let mut ring: Vec<Vec2> = corners.to_vec();
    ring.dedup();
    while ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    if ring.len() < 3 {
        return Err(ShapeError::TooFewCorners(ring.len()));
    }
    let n = ring.len();
    for i in 0..n {
        for j in i + 1..n {
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            let (c, d) = (ring[j], ring[(j + 1) % n]);
            let bad = if adjacent {
                // Neighbouring edges share one corner; they may not fold back over each other.
                let (shared, p, q) = if j == i + 1 { (b, a, d) } else { (a, b, c) };
                orient(p, shared, q) == 0.0 && (p - shared).dot(q - shared) > 0.0
            } else {
                segments_touch(a, b, c, d)
            };
            if bad {
                return Err(ShapeError::SelfIntersecting(i, j));
            }
        }
    }
    let area2 = polygon_area2(&ring);
    if area2 == 0.0 || !area2.is_finite() {
        return Err(ShapeError::NoArea);
    }
    if area2 < 0.0 {
        ring.reverse();
    }
    Ok(ring)
}

/// True when closed segments `ab` and `cd` share a point (exact).
pub(crate) fn segments_touch(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    // Segments whose boxes are apart cannot touch (most pairs of a large ring's edges): no
    // orientation test needed.
    if a.x.max(b.x) < c.x.min(d.x)
        || c.x.max(d.x) < a.x.min(b.x)
        || a.y.max(b.y) < c.y.min(d.y)
        || c.y.max(d.y) < a.y.min(b.y)
    {
        return false;
    }
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0))
        && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))
    {
        return true;
    }
    let on = |p: Vec2, q: Vec2, r: Vec2| {
        r.x >= p.x.min(q.x) && r.x <= p.x.max(q.x) && r.y >= p.y.min(q.y) && r.y <= p.y.max(q.y)
    };
    (o1 == 0.0 && on(a, b, c))
        || (o2 == 0.0 && on(a, b, d))
        || (o3 == 0.0 && on(c, d, a))
        || (o4 == 0.0 && on(c, d, b))
}

/// True when `p` is strictly inside the simple polygon `ring` (either winding); a point on
/// the outline is not inside.
pub fn point_in_polygon(ring: &[Vec2], p: Vec2) -> bool {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if orient(a, b, p) == 0.0
            && p.x >= a.x.min(b.x)
            && p.x <= a.x.max(b.x)
            && p.y >= a.y.min(b.y)
            && p.y <= a.y.max(b.y)
        {
            return false;
        }
        if (a.y > p.y) != (b.y > p.y) {
            // Which side of the edge p lies on, exactly, decides the crossing.
            let upward = b.y > a.y;
            let left = orient(a, b, p) > 0.0;
            if left == upward {
                inside = !inside;
            }
        }
    }
    inside
}

/// True when the closed polygon `ring` and the closed counter-clockwise triangle share a point.
pub(crate) fn polygon_touches_triangle(ring: &[Vec2], [a, b, c]: [Vec2; 3]) -> bool {
    if ring.iter().any(|&p| triangle_contains(a, b, c, p)) {
        return true;
    }
    if [a, b, c].iter().any(|&p| point_in_polygon(ring, p)) {
        return true;
    }
    let n = ring.len();
    (0..n).any(|i| {
        let (p, q) = (ring[i], ring[(i + 1) % n]);
        segments_touch(p, q, a, b) || segments_touch(p, q, b, c) || segments_touch(p, q, c, a)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn outlines_are_stored_counter_clockwise() {
        let cw = [v(0.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(1.0, 0.0)];
        let shape = Shape::polygon(&cw, ShapeKind::Obstacle).expect("simple");
        assert!(polygon_area2(&shape.corners()) > 0.0);
        assert_eq!(shape.area(), 1.0);
    }

    #[test]
    fn bad_outlines_are_refused() {
        let bow_tie = [v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)];
        assert!(matches!(
            Shape::polygon(&bow_tie, ShapeKind::Obstacle),
            Err(ShapeError::SelfIntersecting(..))
        ));
        let line = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)];
        assert!(Shape::polygon(&line, ShapeKind::Obstacle).is_err());
        let two = [v(0.0, 0.0), v(1.0, 0.0), v(0.0, 0.0)];
        assert_eq!(
            Shape::polygon(&two, ShapeKind::Obstacle),
            Err(ShapeError::TooFewCorners(2))
        );
        let nan = [v(0.0, 0.0), v(f64::NAN, 0.0), v(0.0, 1.0)];
        assert_eq!(
            Shape::polygon(&nan, ShapeKind::Obstacle),
            Err(ShapeError::NotFinite(1))
        );
        assert_eq!(
            Shape::circle(v(0.0, 0.0), 0.0, 8, ShapeKind::Obstacle),
            Err(ShapeError::BadCircle)
        );
    }

    #[test]
    fn points_inside_and_on_the_outline() {
        let l = [
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 1.0),
            v(1.0, 1.0),
            v(1.0, 2.0),
            v(0.0, 2.0),
        ];
        assert!(point_in_polygon(&l, v(0.5, 1.5)));
        assert!(point_in_polygon(&l, v(1.5, 0.5)));
        assert!(!point_in_polygon(&l, v(1.5, 1.5)));
        assert!(!point_in_polygon(&l, v(1.0, 1.5)), "on the outline");
        assert!(!point_in_polygon(&l, v(0.0, 0.0)), "a corner");
    }

    #[test]
    fn touching_counts_the_boundary() {
        let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
        let apart = [v(2.0, 0.0), v(3.0, 0.0), v(2.0, 1.0)];
        let corner = [v(1.0, 1.0), v(2.0, 1.0), v(1.0, 2.0)];
        let around = [v(-5.0, -5.0), v(5.0, -5.0), v(0.0, 5.0)];
        assert!(!polygon_touches_triangle(&square, apart));
        assert!(polygon_touches_triangle(&square, corner));
        assert!(polygon_touches_triangle(&square, around));
    }
}
