//! String pulling for a disc: the shortest way for the centre of an agent of some radius
//! through a corridor's portals, keeping that radius from every portal end that lies on a
//! wall. Each such end is a circle; the funnel's sides are lines tangent to the circles instead
//! of lines through points, and the path is made of tangent segments and arcs round the corners
//! it turns at (the modified funnel of Demyen and Buro's triangulation A\*).
//!
//! An end with radius 0 (a vertex in the open, the start, the goal) is a point, as in
//! [`string_pull`](super::funnel::string_pull); with every radius 0 the two give the same path.
//! The funnel is the same algorithm with one change: the direction from the apex to a portal end
//! is the tangent from the apex's circle to the end's circle, on the sides the path keeps them
//! (a left end on the traveller's left, a right end on the right). Directions are compared with
//! floating-point cross products, not exact orientation tests: tangents are not exact anyway.
//!
//! Where two circles on opposite sides overlap no line passes between them: the corridor is
//! too narrow there for the disc, and the answer says so ([`RoundPull::pinched`]).

use crate::geom::Vec2;
use crate::search::events::Observer;
use crate::search::funnel::{FunnelEvent, FunnelState, Portal, Side};
use serde::Serialize;

/// A portal whose ends keep a distance: each end's circle radius (0 for an end the path may
/// touch).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RoundPortal {
    /// The portal's ends.
    pub portal: Portal,
    /// How far the path keeps from the left end.
    pub left_radius: f64,
    /// How far the path keeps from the right end.
    pub right_radius: f64,
}

/// An arc of the path round a corner it turns at.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PathArc {
    /// The arc runs from `points[start]` to `points[start + 1]` of its path.
    pub start: usize,
    /// The corner it turns round.
    pub centre: Vec2,
    /// Its radius.
    pub radius: f64,
    /// The angle it turns through, in radians: positive counter-clockwise (a turn to the left),
    /// negative clockwise.
    pub sweep: f64,
}

impl PathArc {
    /// Its length.
    pub fn length(&self) -> f64 {
        self.radius * self.sweep.abs()
    }

    /// The point a share `t` (0 to 1) of the way along it.
    pub fn at(&self, from: Vec2, t: f64) -> Vec2 {
        self.centre + (from - self.centre).rotated(self.sweep * t)
    }
}

/// A path pulled through round portals: points joined by straight segments, except where an
/// arc says the path turns round a corner between two of them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundPull {
    /// Start, the tangent points in order, goal.
    pub points: Vec<Vec2>,
    /// The arcs, in order along the path.
    pub arcs: Vec<PathArc>,
    /// Its length: the straight pieces plus the arcs.
    pub length: f64,
    /// True when two corners on opposite sides are closer than their radii together, so that
    /// no line keeps both distances: the path drawn passes too near one of them.
    pub pinched: bool,
}

impl RoundPull {
    /// The path as a polyline, each arc drawn as chords of at most `max_turn` radians each
    /// (points on the arc). For drawing and walking.
    pub fn polyline(&self, max_turn: f64) -> Vec<Vec2> {
        traced(&self.points, &self.arcs, max_turn).0
    }
}

/// The stretches of `points` with `arcs` (as [`RoundPull`] has them), in order: each from one
/// point to the next, with the arc it runs along (`None`: straight).
pub fn pieces<'a>(
    points: &'a [Vec2],
    arcs: &'a [PathArc],
) -> impl Iterator<Item = (Vec2, Vec2, Option<&'a PathArc>)> + 'a {
    let mut arcs = arcs.iter().peekable();
    points.windows(2).enumerate().map(move |(k, pair)| {
        while arcs.next_if(|a| a.start < k).is_some() {}
        (pair[0], pair[1], arcs.next_if(|a| a.start == k))
    })
}

/// `points` with `arcs` as a polyline, each arc in chords of at most `max_turn` radians (points
/// on the arc), and where each of `points` is in it.
pub fn traced(points: &[Vec2], arcs: &[PathArc], max_turn: f64) -> (Vec<Vec2>, Vec<usize>) {
    let step = if max_turn.is_finite() && max_turn > 1e-3 {
        max_turn
    } else {
        0.1
    };
    let mut out = Vec::with_capacity(points.len());
    let mut index = Vec::with_capacity(points.len());
    for (from, _, arc) in pieces(points, arcs) {
        index.push(out.len());
        out.push(from);
        if let Some(arc) = arc {
            let count = ((arc.sweep.abs() / step).ceil() as usize).clamp(1, 720);
            out.extend((1..count).map(|j| arc.at(from, j as f64 / count as f64)));
        }
    }
    if let Some(&last) = points.last() {
        index.push(out.len());
        out.push(last);
    }
    (out, index)
}

/// The length of `points` with `arcs`: straight between points, along the arc where one is.
pub fn round_length(points: &[Vec2], arcs: &[PathArc]) -> f64 {
    pieces(points, arcs).fold(0.0, |length, (a, b, arc)| {
        length + arc.map_or_else(|| a.distance(b), PathArc::length)
    })
}

/// A corner the funnel may turn at: a point, how far the path keeps from it, and on which side
/// of the path it lies (+1 left, -1 right, 0 for a point the path runs through).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Corner {
    point: Vec2,
    radius: f64,
    side: f64,
}

impl Corner {
    fn point(point: Vec2) -> Self {
        Self {
            point,
            radius: 0.0,
            side: 0.0,
        }
    }

    /// Signed offset along the path's right-hand normal: a left corner is passed on its right.
    fn offset(self) -> f64 {
        self.side * self.radius
    }

    /// Where a path heading `direction` (unit) touches this corner's circle.
    fn touch(self, direction: Vec2) -> Vec2 {
        self.point + right_normal(direction) * self.offset()
    }

    fn same(self, other: Corner) -> bool {
        self.point == other.point && self.offset() == other.offset()
    }
}

fn right_normal(d: Vec2) -> Vec2 {
    Vec2::new(d.y, -d.x)
}

/// The unit direction of the line tangent to `from`'s and `to`'s circles on their sides, and
/// the length between the touching points; `None` when they are one corner. The length is 0
/// (and the direction the nearest there is) when the circles overlap so that no such line
/// exists.
///
/// With `w` the vector between centres and `m` the difference of their signed offsets, the
/// line's direction `d` and length `t` satisfy `w = t d - m n(d)` (`n` the right-hand normal),
/// so as complex numbers `w = (t + i m) d`: `t = sqrt(|w|² - m²)` and `d = w (t - i m) / |w|²`.
fn tangent(from: Corner, to: Corner) -> Option<(Vec2, f64, bool)> {
    if from.same(to) {
        return None;
    }
    let w = to.point - from.point;
    let m = to.offset() - from.offset();
    let w2 = w.dot(w);
    if w2 == 0.0 {
        return None;
    }
    let t2 = w2 - m * m;
    let pinched = t2 < 0.0;
    let t = t2.max(0.0).sqrt();
    let d = Vec2::new(w.x * t + w.y * m, w.y * t - w.x * m) * (1.0 / w2);
    let d = d.normalized_or_zero();
    Some((d, t, pinched))
}

/// The funnel's state as [`FunnelState`] reports it (corner points, not tangent points).
#[derive(Debug, Clone, Copy)]
struct Round {
    apex: Corner,
    left: Corner,
    right: Corner,
    apex_portal: Option<usize>,
    left_portal: Option<usize>,
    right_portal: Option<usize>,
}

impl Round {
    fn closed(apex: Corner, apex_portal: Option<usize>) -> Self {
        Self {
            apex,
            left: apex,
            right: apex,
            apex_portal,
            left_portal: apex_portal,
            right_portal: apex_portal,
        }
    }

    fn state(&self) -> FunnelState {
        FunnelState {
            apex: self.apex.point,
            left: self.left.point,
            right: self.right.point,
            apex_portal: self.apex_portal,
            left_portal: self.left_portal,
            right_portal: self.right_portal,
        }
    }

    fn direction(&self, to: Corner) -> Option<Vec2> {
        tangent(self.apex, to).map(|(d, _, _)| d)
    }

    /// The cross and dot products of the directions from the apex to `a` and to `b` (`None`
    /// when either is the apex). Between points (every radius 0) the exact orientation test
    /// the point funnel uses, so that the two agree on points in a line.
    fn compare(&self, a: Corner, b: Corner) -> Option<(f64, f64)> {
        if self.apex.radius == 0.0 && a.radius == 0.0 && b.radius == 0.0 {
            let apex = self.apex.point;
            if a.point == apex || b.point == apex {
                return None;
            }
            return Some((
                crate::geom::orient(apex, a.point, b.point),
                (a.point - apex).dot(b.point - apex),
            ));
        }
        let (da, db) = (self.direction(a)?, self.direction(b)?);
        Some((da.cross(db), da.dot(db)))
    }
}

/// Pulls the string for a disc through `portals` from `start` to `goal` (see the module's
/// documentation), reporting each step to `observer` as [`string_pull`](super::funnel::string_pull)
/// does (with the corners' points). A last portal `(goal, goal)` is added when missing.
///
/// ```
/// use navlab_core::geom::Vec2;
/// use navlab_core::search::funnel::Portal;
/// use navlab_core::search::round_funnel::{RoundPortal, round_string_pull};
/// use navlab_core::search::NoObserver;
/// // A doorway at x = 1 from y = 1 (a wall's end) to y = 3: from (0, 0) to (2, 0) the path
/// // climbs to it and turns round the wall's end on an arc of radius 0.5.
/// let door = RoundPortal {
///     portal: Portal { left: Vec2::new(1.0, 3.0), right: Vec2::new(1.0, 1.0) },
///     left_radius: 0.0,
///     right_radius: 0.5,
/// };
/// let pull = round_string_pull(Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), &[door], &mut NoObserver);
/// assert_eq!(pull.arcs.len(), 1);
/// assert!((pull.arcs[0].centre.distance(Vec2::new(1.0, 1.0))) < 1e-12);
/// assert!(pull.length > 2.0 * 2f64.sqrt());
/// ```
pub fn round_string_pull<O: Observer<FunnelEvent>>(
    start: Vec2,
    goal: Vec2,
    portals: &[RoundPortal],
    observer: &mut O,
) -> RoundPull {
    let goal_portal = RoundPortal {
        portal: Portal {
            left: goal,
            right: goal,
        },
        left_radius: 0.0,
        right_radius: 0.0,
    };
    let needs_goal = portals.last().map(|p| p.portal) != Some(goal_portal.portal);
    let count = portals.len() + usize::from(needs_goal);
    let corners_of = |i: usize| -> (Corner, Corner) {
        let p = portals.get(i).copied().unwrap_or(goal_portal);
        let end = |point: Vec2, radius: f64, side: f64| {
            if radius > 0.0 && radius.is_finite() {
                Corner {
                    point,
                    radius,
                    side,
                }
            } else {
                Corner::point(point)
            }
        };
        (
            end(p.portal.left, p.left_radius, 1.0),
            end(p.portal.right, p.right_radius, -1.0),
        )
    };

    let mut corners = vec![Corner::point(start)];
    let mut funnel = Round::closed(Corner::point(start), None);
    observer.event(FunnelEvent::Started {
        state: funnel.state(),
    });
    let mut next = 0usize;
    let mut pinched = false;
    // Each corner restarts the scan after the portal that set it, which is before the one that
    // crossed; a bound keeps a float disagreement from looping.
    let mut budget = count.saturating_mul(count).saturating_add(16);
    while next < count && budget > 0 {
        budget -= 1;
        let i = next;
        next += 1;
        let (left, right) = corners_of(i);
        observer.event(FunnelEvent::PortalConsidered {
            portal: i,
            state: funnel.state(),
        });

        // Right side: does the portal's right end narrow the funnel?
        if narrows(&funnel, funnel.right, right, 1.0) {
            if funnel.apex.same(funnel.right) || !crosses(&funnel, funnel.left, right, 1.0) {
                funnel.right = right;
                funnel.right_portal = Some(i);
                observer.event(FunnelEvent::Narrowed {
                    portal: i,
                    side: Side::Right,
                    state: funnel.state(),
                });
            } else {
                let corner = funnel.left;
                let restart_after = funnel.left_portal;
                corners.push(corner);
                funnel = Round::closed(corner, restart_after);
                observer.event(FunnelEvent::Corner {
                    portal: i,
                    crossing_side: Side::Right,
                    corner: corner.point,
                    restart_after,
                    state: funnel.state(),
                });
                next = restart_after.map_or(0, |p| p + 1);
                continue;
            }
        } else {
            observer.event(FunnelEvent::Kept {
                portal: i,
                side: Side::Right,
            });
        }

        // Left side, the mirror image.
        pinched |= left.point.distance(right.point) < left.radius + right.radius;
        if narrows(&funnel, funnel.left, left, -1.0) {
            if funnel.apex.same(funnel.left) || !crosses(&funnel, funnel.right, left, -1.0) {
                funnel.left = left;
                funnel.left_portal = Some(i);
                observer.event(FunnelEvent::Narrowed {
                    portal: i,
                    side: Side::Left,
                    state: funnel.state(),
                });
            } else {
                let corner = funnel.right;
                let restart_after = funnel.right_portal;
                corners.push(corner);
                funnel = Round::closed(corner, restart_after);
                observer.event(FunnelEvent::Corner {
                    portal: i,
                    crossing_side: Side::Left,
                    corner: corner.point,
                    restart_after,
                    state: funnel.state(),
                });
                next = restart_after.map_or(0, |p| p + 1);
                continue;
            }
        } else {
            observer.event(FunnelEvent::Kept {
                portal: i,
                side: Side::Left,
            });
        }
    }
    corners.push(Corner::point(goal));
    let mut pull = lay_out(&corners);
    pull.pinched |= pinched;
    observer.event(FunnelEvent::Done {
        waypoints: pull.points.len(),
        length: pull.length,
    });
    pull
}

/// True when `candidate` narrows the side now ending at `side_end`: its tangent lies on the
/// inner side of that side's (`sign` 1 for the right side: to its left; -1 for the left side:
/// to its right), or on it, or the side is closed at the apex.
fn narrows(funnel: &Round, side_end: Corner, candidate: Corner, sign: f64) -> bool {
    match funnel.compare(side_end, candidate) {
        Some((cross, _)) => sign * cross >= 0.0,
        None => true,
    }
}

/// True when `candidate` crosses the opposite side, ending at `other_end` (`sign` 1 when the
/// candidate is a right end and the other side the left: strictly left of it, or along it).
/// A circle blocks only what runs into it: a candidate past the side's tangent but nearer than
/// the circle (the circle reaching beyond its portal) does not cross it.
fn crosses(funnel: &Round, other_end: Corner, candidate: Corner, sign: f64) -> bool {
    if candidate.same(other_end) {
        return false;
    }
    let beyond = match funnel.compare(other_end, candidate) {
        Some((cross, dot)) => {
            let c = sign * cross;
            c > 0.0 || (c == 0.0 && dot > 0.0)
        }
        None => false,
    };
    if !beyond || other_end.radius <= 0.0 {
        return beyond;
    }
    // Short of the circle: the way to the candidate ends before it comes alongside the
    // circle's centre, and clear of the circle.
    match tangent(funnel.apex, candidate) {
        Some((d, _, _)) => {
            let (a, b) = (funnel.apex.touch(d), candidate.touch(d));
            let along = (b - a).dot(other_end.point - a);
            let short =
                along >= (b - a).dot(b - a) && b.distance(other_end.point) >= other_end.radius;
            !short
        }
        None => true,
    }
}

/// The path through `corners` (start, the corners turned at, goal): tangent segments between
/// consecutive circles and arcs round each.
fn lay_out(corners: &[Corner]) -> RoundPull {
    // Corners repeated (the funnel can pivot on one over several portals) are one.
    let mut kept: Vec<Corner> = Vec::with_capacity(corners.len());
    // A point corner exactly on the straight line between two points was no turn at all (as
    // in the point funnel).
    for &c in corners {
        if kept.last().is_some_and(|last| last.same(c)) {
            continue;
        }
        if let [.., before, last] = kept.as_slice()
            && before.radius == 0.0
            && last.radius == 0.0
            && c.radius == 0.0
            && crate::geom::orient(before.point, last.point, c.point) == 0.0
            && (last.point - before.point).dot(c.point - last.point) > 0.0
        {
            kept.pop();
        }
        kept.push(c);
    }
    // A corner the path turns round the wrong way (left of a corner it keeps on its left) was
    // no corner at all: the funnel took it for one because the tangent to a later corner ran
    // inside its circle, but the path that came of it passes it without touching. Dropping
    // it straightens the path away from that circle; repeat until every turn is the right way.
    while let Some(k) = (1..kept.len().saturating_sub(1)).find(|&k| {
        let (before, corner, after) = (kept[k - 1], kept[k], kept[k + 1]);
        match (tangent(before, corner), tangent(corner, after)) {
            (Some((d_in, _, _)), Some((d_out, _, _))) => {
                corner.side * d_in.cross(d_out) < -1e-12 && d_in.dot(d_out) > 0.0
            }
            _ => false,
        }
    }) {
        kept.remove(k);
    }
    let mut points = Vec::with_capacity(2 * kept.len());
    let mut arcs = Vec::new();
    let mut pinched = false;
    let mut arriving: Option<Vec2> = None;
    for (k, pair) in kept.windows(2).enumerate() {
        let (from, to) = (pair[0], pair[1]);
        let Some((d, _, tight)) = tangent(from, to) else {
            continue;
        };
        pinched |= tight;
        let leave = from.touch(d);
        if k == 0 {
            points.push(leave);
        } else if let Some(incoming) = arriving
            && from.radius > 0.0
        {
            let sweep = turn(incoming, d, from.side);
            if sweep.abs() > 1e-12 {
                arcs.push(PathArc {
                    start: points.len().saturating_sub(1),
                    centre: from.point,
                    radius: from.radius,
                    sweep,
                });
                points.push(leave);
            }
        }
        points.push(to.touch(d));
        arriving = Some(d);
    }
    if points.is_empty() {
        points.extend(kept.first().map(|c| c.point));
    }
    if points.len() == 1 {
        // Start and goal coincide: keep both, as the point funnel does.
        points.push(points[0]);
    }
    let length = round_length(&points, &arcs);
    RoundPull {
        points,
        arcs,
        length,
        pinched,
    }
}

/// The signed angle a path turns through from heading `from` to heading `to` round a corner
/// on side `side` (+1 left: counter-clockwise, 0 to 2π; -1 right: clockwise, 0 to -2π).
fn turn(from: Vec2, to: Vec2, side: f64) -> f64 {
    let angle = from.cross(to).atan2(from.dot(to));
    let tau = std::f64::consts::TAU;
    if side > 0.0 {
        if angle < -1e-9 {
            angle + tau
        } else {
            angle.max(0.0)
        }
    } else if angle > 1e-9 {
        angle - tau
    } else {
        angle.min(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoObserver;
    use crate::search::funnel::string_pull;

    fn p(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    fn round(portals: &[Portal], radius: f64) -> Vec<RoundPortal> {
        portals
            .iter()
            .map(|&portal| RoundPortal {
                portal,
                left_radius: radius,
                right_radius: radius,
            })
            .collect()
    }

    #[test]
    fn with_no_radius_it_is_the_point_funnel() {
        let portals = [
            Portal {
                left: p(1.0, 2.0),
                right: p(1.0, 1.0),
            },
            Portal {
                left: p(2.0, 2.0),
                right: p(2.0, 1.0),
            },
        ];
        let (start, goal) = (p(0.0, 0.0), p(3.0, 0.0));
        let pull = round_string_pull(start, goal, &round(&portals, 0.0), &mut NoObserver);
        assert_eq!(
            pull.points,
            string_pull(start, goal, &portals, &mut NoObserver)
        );
        assert!(pull.arcs.is_empty());
    }

    #[test]
    fn a_corner_is_rounded_at_its_radius() {
        // A doorway at x = 1 above a wall ending at (1, 1): from (0, 0) to (2, 0) the path
        // climbs to the wall's end, turns round it and comes down.
        let portals = [Portal {
            left: p(1.0, 5.0),
            right: p(1.0, 1.0),
        }];
        let (start, goal) = (p(0.0, 0.0), p(2.0, 0.0));
        let r = 0.5;
        let pull = round_string_pull(start, goal, &round(&portals, r), &mut NoObserver);
        assert!(!pull.pinched);
        assert_eq!(pull.arcs.len(), 1);
        let arc = pull.arcs[0];
        assert_eq!(arc.centre, p(1.0, 1.0));
        assert!(arc.sweep < 0.0, "a right corner turns clockwise");
        // Tangent from (0, 0) to a circle of radius r at distance √2: length √(2 - r²), heading
        // asin(r / √2) above the 45° to the centre; the same down to (2, 0), so the arc turns
        // through 90° and twice that angle.
        let tangent = (2.0 - r * r).sqrt();
        let half = (r / 2f64.sqrt()).asin();
        let sweep = std::f64::consts::FRAC_PI_2 + 2.0 * half;
        assert!((arc.sweep + sweep).abs() < 1e-12);
        let expected = 2.0 * tangent + r * sweep;
        assert!((pull.length - expected).abs() < 1e-12, "{}", pull.length);
        for q in pull.polyline(0.01) {
            assert!(q.distance(p(1.0, 1.0)) >= r - 1e-9);
        }
    }

    #[test]
    fn circles_on_opposite_sides_that_overlap_pinch() {
        // A gap of 0.6 between two wall ends: a disc of radius 0.4 does not pass.
        let portals = [Portal {
            left: p(1.0, 0.3),
            right: p(1.0, -0.3),
        }];
        let pull = round_string_pull(
            p(0.0, 0.0),
            p(2.0, 0.0),
            &round(&portals, 0.4),
            &mut NoObserver,
        );
        assert!(pull.pinched);
        let pull = round_string_pull(
            p(0.0, 0.0),
            p(2.0, 0.0),
            &round(&portals, 0.25),
            &mut NoObserver,
        );
        assert!(!pull.pinched);
        assert!((pull.length - 2.0).abs() < 1e-12);
    }
}
