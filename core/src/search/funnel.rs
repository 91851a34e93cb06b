//! String pulling through a corridor with the
//! [simple stupid funnel algorithm](http://digestingduck.blogspot.com/2010/03/simple-stupid-funnel-algorithm.html):
//! the shortest path from `start` to `goal` that crosses each portal in order.
//!
//! Conventions: coordinates are counter-clockwise positive; a portal's `left` and `right` ends
//! are as seen facing the direction of travel. Decisions use exact orientation tests, so
//! collinear points, zero-width portals and start or goal on a portal or vertex are decided
//! consistently instead of by a tolerance.

use crate::geom::{Vec2, orient};
use crate::search::events::Observer;
use serde::Serialize;

/// An edge the path must cross, with its ends as seen facing the direction of travel.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Portal {
    /// The end on the traveller's left.
    pub left: Vec2,
    /// The end on the traveller's right.
    pub right: Vec2,
}

/// Which side of the funnel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The left side (apex → left point).
    Left,
    /// The right side (apex → right point).
    Right,
}

/// The funnel at one moment: its apex and the end points of its two sides.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FunnelState {
    /// Where the funnel starts: the start point or the last corner.
    pub apex: Vec2,
    /// End of the left side.
    pub left: Vec2,
    /// End of the right side.
    pub right: Vec2,
    /// Portal whose end is the apex (`None`: the apex is the start point).
    pub apex_portal: Option<usize>,
    /// Portal that last narrowed the left side (`None`: not since the apex moved).
    pub left_portal: Option<usize>,
    /// Portal that last narrowed the right side (`None`: not since the apex moved).
    pub right_portal: Option<usize>,
}

/// One step of the funnel algorithm.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FunnelEvent {
    /// The funnel opened at the start point.
    Started {
        /// The initial (closed) funnel.
        state: FunnelState,
    },
    /// A portal is examined; `state` is the funnel before it changes anything.
    PortalConsidered {
        /// Index of the portal.
        portal: usize,
        /// The funnel before this portal.
        state: FunnelState,
    },
    /// A side moved inward to the portal's end; `state` is the funnel after.
    Narrowed {
        /// Index of the portal.
        portal: usize,
        /// The side that moved.
        side: Side,
        /// The funnel after narrowing.
        state: FunnelState,
    },
    /// A portal end lies outside a side, so that side does not change.
    Kept {
        /// Index of the portal.
        portal: usize,
        /// The side that stays.
        side: Side,
    },
    /// A portal end crossed over the opposite side: that side's end is a corner of the path; the
    /// apex moves there and scanning restarts after the portal that set it.
    Corner {
        /// Index of the portal whose end crossed over.
        portal: usize,
        /// The side whose end crossed (the corner is the *other* side's end).
        crossing_side: Side,
        /// The corner added to the path.
        corner: Vec2,
        /// Scanning resumes with the portal after this one (`None`: from the first portal).
        restart_after: Option<usize>,
        /// The funnel after the restart (closed at the new apex).
        state: FunnelState,
    },
    /// The last portal was processed; the path is complete.
    Done {
        /// Number of waypoints (start and goal included).
        waypoints: usize,
        /// Total length.
        length: f64,
    },
}

impl FunnelEvent {
    /// One plain sentence saying what this step did, for a teacher's screen or a log.
    pub fn explain(&self) -> String {
        let side = |s: Side| match s {
            Side::Left => "left",
            Side::Right => "right",
        };
        let other = |s: Side| match s {
            Side::Left => "right",
            Side::Right => "left",
        };
        match self {
            FunnelEvent::Started { state } => {
                format!("funnel opens at the start {}", state.apex)
            }
            FunnelEvent::PortalConsidered { portal, .. } => {
                format!("portal {portal}: examine its ends")
            }
            FunnelEvent::Narrowed {
                portal,
                side: s,
                state,
            } => {
                let end = match s {
                    Side::Left => state.left,
                    Side::Right => state.right,
                };
                format!(
                    "portal {portal}: {} end {end} is inside the funnel, so the {} side narrows to it",
                    side(*s),
                    side(*s)
                )
            }
            FunnelEvent::Kept { portal, side: s } => format!(
                "portal {portal}: {} end lies outside the funnel, so the {} side stays",
                side(*s),
                side(*s)
            ),
            FunnelEvent::Corner {
                portal,
                crossing_side,
                corner,
                restart_after,
                ..
            } => {
                let restart = match restart_after {
                    Some(p) => format!("restart after portal {p}"),
                    None => "restart from the first portal".to_string(),
                };
                format!(
                    "portal {portal}: {} end crosses the {} side — corner at {corner}; {restart}",
                    side(*crossing_side),
                    other(*crossing_side)
                )
            }
            FunnelEvent::Done { waypoints, length } => {
                format!("goal reached: {waypoints} waypoints, length {length:.3}")
            }
        }
    }
}

/// Pulls the string through `portals` from `start` to `goal` and returns the waypoints, start and
/// goal included. `portals` should end with the degenerate goal portal `(goal, goal)`; if it does
/// not, one is added so that the goal is always reached.
///
/// ```
/// use navlab_core::geom::Vec2;
/// use navlab_core::search::funnel::{string_pull, Portal};
/// use navlab_core::search::NoObserver;
/// // A doorway at x = 1 between y = 1 and y = 2; the straight line from (0,0) to (2,0) misses it.
/// let door = Portal { left: Vec2::new(1.0, 2.0), right: Vec2::new(1.0, 1.0) };
/// let path = string_pull(Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), &[door], &mut NoObserver);
/// assert_eq!(path, vec![Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), Vec2::new(2.0, 0.0)]);
/// ```
pub fn string_pull<O: Observer<FunnelEvent>>(
    start: Vec2,
    goal: Vec2,
    portals: &[Portal],
    observer: &mut O,
) -> Vec<Vec2> {
    let goal_portal = Portal {
        left: goal,
        right: goal,
    };
    let needs_goal = portals.last() != Some(&goal_portal);
    let portal_at = |i: usize| -> Portal {
        match portals.get(i) {
            Some(p) => *p,
            None => goal_portal,
        }
    };
    let count = portals.len() + usize::from(needs_goal);

    let mut path = vec![start];
    let mut state = FunnelState {
        apex: start,
        left: start,
        right: start,
        apex_portal: None,
        left_portal: None,
        right_portal: None,
    };
    observer.event(FunnelEvent::Started { state });

    // `next` is the index of the next portal to examine.
    let mut next = 0usize;
    while next < count {
        let i = next;
        next += 1;
        let Portal { left, right } = portal_at(i);
        observer.event(FunnelEvent::PortalConsidered { portal: i, state });

        // Right side: does the portal's right end narrow the funnel (lie left of or on apex→right)?
        if orient(state.apex, state.right, right) >= 0.0 {
            if state.apex == state.right || !left_of_or_on_ray(state.apex, state.left, right) {
                state.right = right;
                state.right_portal = Some(i);
                observer.event(FunnelEvent::Narrowed {
                    portal: i,
                    side: Side::Right,
                    state,
                });
            } else {
                // The right end crossed the left side: the left end is a corner.
                let corner = state.left;
                let restart_after = state.left_portal;
                push_corner(&mut path, corner);
                state = closed_funnel(corner, restart_after);
                observer.event(FunnelEvent::Corner {
                    portal: i,
                    crossing_side: Side::Right,
                    corner,
                    restart_after,
                    state,
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
        if orient(state.apex, state.left, left) <= 0.0 {
            if state.apex == state.left || !right_of_or_on_ray(state.apex, state.right, left) {
                state.left = left;
                state.left_portal = Some(i);
                observer.event(FunnelEvent::Narrowed {
                    portal: i,
                    side: Side::Left,
                    state,
                });
            } else {
                let corner = state.right;
                let restart_after = state.right_portal;
                push_corner(&mut path, corner);
                state = closed_funnel(corner, restart_after);
                observer.event(FunnelEvent::Corner {
                    portal: i,
                    crossing_side: Side::Left,
                    corner,
                    restart_after,
                    state,
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
    push_corner(&mut path, goal);
    if path.len() == 1 {
        // Start and goal coincide: a path of one point would hide the goal; keep both.
        path.push(goal);
    }
    observer.event(FunnelEvent::Done {
        waypoints: path.len(),
        length: path_length(&path),
    });
    path
}

/// True when `p` is strictly left of the line `apex → side`, or on the ray from `apex` through
/// `side` (not behind the apex). The ray matters when the apex lies on a portal: the two sides
/// then point in opposite directions along one line, and a point on the line behind the apex
/// has not crossed anything.
///
/// A point equal to `side` itself only touches the side: the funnel closes to zero width there
/// and the corner, if one is needed, is emitted when a later portal crosses it. This keeps the
/// goal portal `(goal, goal)` from being reported as a corner.
fn left_of_or_on_ray(apex: Vec2, side: Vec2, p: Vec2) -> bool {
    if p == side {
        return false;
    }
    let o = orient(apex, side, p);
    o > 0.0 || (o == 0.0 && (side - apex).dot(p - apex) > 0.0)
}

/// Mirror image of [`left_of_or_on_ray`].
fn right_of_or_on_ray(apex: Vec2, side: Vec2, p: Vec2) -> bool {
    if p == side {
        return false;
    }
    let o = orient(apex, side, p);
    o < 0.0 || (o == 0.0 && (side - apex).dot(p - apex) > 0.0)
}

fn closed_funnel(apex: Vec2, apex_portal: Option<usize>) -> FunnelState {
    FunnelState {
        apex,
        left: apex,
        right: apex,
        apex_portal,
        left_portal: apex_portal,
        right_portal: apex_portal,
    }
}

/// Appends a corner unless it repeats the previous point (the funnel can pivot on one vertex
/// over several portals). When the previous corner lies exactly on the straight line from the
/// one before it to the new corner (the string runs along a wall through collinear vertices),
/// it was no turn at all and is replaced.
fn push_corner(path: &mut Vec<Vec2>, corner: Vec2) {
    if path.last() == Some(&corner) {
        return;
    }
    if let [.., before, last] = path.as_slice()
        && orient(*before, *last, corner) == 0.0
        && (*last - *before).dot(corner - *last) > 0.0
    {
        path.pop();
    }
    path.push(corner);
}

/// The total length of a polyline (0 for one point or none).
pub fn path_length(points: &[Vec2]) -> f64 {
    // A fold from +0: `sum` of nothing is -0, which prints as "-0.0000".
    points
        .windows(2)
        .fold(0.0, |length, w| length + w[0].distance(w[1]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoObserver;

    fn p(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn straight_corridor_gives_start_and_goal_only() {
        // Travel along +x through portals spanning y in [-1, 1]; left is +y.
        let portals: Vec<Portal> = (1..5)
            .map(|x| Portal {
                left: p(x as f64, 1.0),
                right: p(x as f64, -1.0),
            })
            .collect();
        let path = string_pull(p(0.0, 0.0), p(5.0, 0.0), &portals, &mut NoObserver);
        assert_eq!(path, vec![p(0.0, 0.0), p(5.0, 0.0)]);
    }

    #[test]
    fn start_equal_to_goal_gives_two_equal_points() {
        let path = string_pull(p(1.0, 1.0), p(1.0, 1.0), &[], &mut NoObserver);
        assert_eq!(path, vec![p(1.0, 1.0), p(1.0, 1.0)]);
    }

    #[test]
    fn corner_events_report_the_restart_portal() {
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
        let mut trace = Vec::new();
        let path = string_pull(p(0.0, 0.0), p(3.0, 0.0), &portals, &mut trace);
        assert_eq!(
            path,
            vec![p(0.0, 0.0), p(1.0, 1.0), p(2.0, 1.0), p(3.0, 0.0)]
        );
        let corners: Vec<_> = trace
            .iter()
            .filter_map(|e| match e {
                FunnelEvent::Corner {
                    corner,
                    restart_after,
                    ..
                } => Some((*corner, *restart_after)),
                _ => None,
            })
            .collect();
        assert_eq!(
            corners,
            vec![(p(1.0, 1.0), Some(0)), (p(2.0, 1.0), Some(1))]
        );
        assert!(matches!(
            trace.last(),
            Some(FunnelEvent::Done { waypoints: 4, .. })
        ));
    }
}
