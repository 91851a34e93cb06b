//! The geometry of Polyanya's cones ([`super::anyangle`]): a cone from a root through an
//! interval, the part of a face's side inside it, where a side of it crosses a segment, and the
//! estimate from a root through an interval to the goal.

use super::VertId;
use crate::geom::{Vec2, orient, signed_area2};

/// A line through two exact points (a vertex, a root or the start), the first to the second: a
/// side of a cone. Points where the interval is cut are rounded, so the cone is never taken
/// from them.
pub(super) type Line = (Vec2, Vec2);

/// True when `p` lies in the closed cone between its sides.
pub(super) fn in_cone(right: Line, left: Line, p: Vec2) -> bool {
    orient(right.0, right.1, p) >= 0.0 && orient(left.0, left.1, p) <= 0.0
}

/// Where a point lies against a cone's sides: [`orient`] of the point against each.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sides {
    pub(super) right: f64,
    pub(super) left: f64,
}

/// The part of the far edge `u`→`v` inside the cone between `right_side` and `left_side` (the edge may leave
/// the cone on either side), given where its ends lie against the cone's sides: its right end
/// and left end as seen from the root, each with its vertex when it is one; `None` when no part
/// of positive length is.
#[allow(clippy::type_complexity)]
pub(super) fn project(
    (right_side, left_side): (Line, Line),
    ((pu, u), at_u): ((Vec2, VertId), Sides),
    ((pv, v), at_v): ((Vec2, VertId), Sides),
) -> Option<(Vec2, Option<u32>, Vec2, Option<u32>)> {
    // The part on the inner side of each side (left of the right one, right of the left one),
    // as a range of the way from u (0) to v (1).
    let clip = |line: Line, (su, sv): (f64, f64)| -> Option<(f64, f64)> {
        match (su >= 0.0, sv >= 0.0) {
            (true, true) => Some((0.0, 1.0)),
            (false, false) => None,
            (true, false) => Some((0.0, crossing(line, pu, pv))),
            (false, true) => Some((crossing(line, pu, pv), 1.0)),
        }
    };
    let (r0, r1) = clip(right_side, (at_u.right, at_v.right))?;
    let (l0, l1) = clip(left_side, (-at_u.left, -at_v.left))?;
    let (mut start, mut end) = (r0.max(l0), r1.min(l1));
    if end <= start {
        // The fractions are rounded; the signs are exact. Each side keeps a part of positive
        // length unless the one end it keeps lies on it, and two such parts always overlap:
        // both sides pass through the root, and an edge beyond the interval that leaves the
        // cone on one side and enters on the other crosses it in front of the root. So a cone
        // a rounding error wide (a side grazing a corner that is flat only to rounding) still
        // goes on, as an interval a rounding error long.
        let keeps_length = |(su, sv): (f64, f64)| match (su >= 0.0, sv >= 0.0) {
            (true, true) => true,
            (true, false) => su > 0.0,
            (false, true) => sv > 0.0,
            (false, false) => false,
        };
        let right = keeps_length((at_u.right, at_v.right));
        let left = keeps_length((-at_u.left, -at_v.left));
        if !(right && left) {
            return None;
        }
        let at = (0.5 * (start + end)).clamp(0.0, 1.0);
        (start, end) = (at, at);
    }
    let (right_end, right_vertex) = if start == 0.0 {
        (pu, Some(u as u32))
    } else {
        (pu.lerp(pv, start), None)
    };
    let (left_end, left_vertex) = if end == 1.0 {
        (pv, Some(v as u32))
    } else {
        (pu.lerp(pv, end), None)
    };
    Some((right_end, right_vertex, left_end, left_vertex))
}

/// Where `line` crosses the segment `a`→`b`, as a fraction of the way from `a` (clamped to the
/// segment).
pub(super) fn crossing((root, through): Line, a: Vec2, b: Vec2) -> f64 {
    let d = through - root;
    let e = b - a;
    let denominator = d.cross(e);
    if denominator == 0.0 {
        return 0.0;
    }
    ((root - a).cross(d) / -denominator).clamp(0.0, 1.0)
}

/// The shortest way from `root` through the interval `right`..`left` to `goal` (the goal
/// mirrored across the interval's line when it lies on the root's side).
pub(super) fn estimate(root: Vec2, right: Vec2, left: Vec2, goal: Vec2) -> f64 {
    // Plain arithmetic, not exact predicates: near a tie the alternatives differ by rounding.
    let orient = signed_area2;
    let side = |p: Vec2| orient(right, left, p);
    let goal = if side(goal) != 0.0 && (side(goal) > 0.0) == (side(root) > 0.0) {
        mirror(goal, right, left)
    } else {
        goal
    };
    let (o1, o2) = (orient(root, goal, right), orient(root, goal, left));
    let crosses = (o1 <= 0.0 && o2 >= 0.0) || (o1 >= 0.0 && o2 <= 0.0);
    // A square root, not `hypot`: the estimate only orders the search (the lengths reported
    // are measured apart from it), and it is the hottest arithmetic of a query.
    let d = |a: Vec2, b: Vec2| (a - b).dot(a - b).sqrt();
    if crosses {
        d(root, goal)
    } else {
        (d(root, right) + d(right, goal)).min(d(root, left) + d(left, goal))
    }
}

/// `p` mirrored across the line through `a` and `b`.
fn mirror(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let d = b - a;
    let len2 = d.dot(d);
    if len2 == 0.0 {
        return p;
    }
    let foot = a + d * ((p - a).dot(d) / len2);
    foot * 2.0 - p
}
