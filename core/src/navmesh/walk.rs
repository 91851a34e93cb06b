//! Walking a path, as the NPC of “A* on a navigation mesh” does: an agent heads for one corner
//! after another at a steady speed, turning at a bounded rate, and takes the next corner once it is within a radius
//! of the current one (0.5 m in that lesson), so it rounds corners instead of stopping on them. It
//! slows when a corner is too near for its turn (turning on the spot at a right angle or more)
//! and near the goal, where it stops exactly. Fixed time steps, so a walk is the same every
//! time. A path that crosses off-mesh links ([`walk_path`]) is walked piece by piece, and each
//! link crossed as its kind says: a jump faster than walking, a drop faster still, a ladder
//! climbed slowly, a teleport at once.

use crate::geom::Vec2;
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

/// Steps a walk takes at most, whatever the options (a crawl or a tiny step would otherwise
/// run for ever): 600,000, ten thousand seconds at 60 steps a second.
pub const MAX_STEPS: usize = 600_000;

/// How the agent walks.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WalkOptions {
    /// Top speed, units per second.
    pub speed: f64,
    /// Fastest turn, radians per second.
    pub turn_rate: f64,
    /// The next corner is taken once the agent is this close to the current one.
    pub corner_radius: f64,
    /// Seconds per step.
    pub step: f64,
}

impl Default for WalkOptions {
    fn default() -> Self {
        Self {
            speed: 2.0,
            turn_rate: 4.0,
            corner_radius: 0.5,
            step: 1.0 / 60.0,
        }
    }
}

/// Where the agent is after a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AgentState {
    /// Position.
    pub position: Vec2,
    /// Heading, radians from the +x axis towards +y.
    pub heading: f64,
    /// The waypoint it heads for.
    pub target: usize,
}

/// Something that happened on the walk, at a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WalkEvent {
    /// Within the corner radius of waypoint `corner`: it heads for the next one now.
    CornerTaken {
        /// The waypoint left behind.
        corner: usize,
        /// How far from it the agent turned away.
        distance: f64,
    },
    /// At the start of an off-mesh link: crossing it now.
    LinkStarted {
        /// The link's number.
        link: usize,
        /// What it is.
        kind: super::links::LinkKind,
    },
    /// On the goal.
    Arrived,
    /// Not there after three times the time the path takes at top speed (plus ten seconds),
    /// or after [`MAX_STEPS`]: the walk stops.
    GaveUp,
}

/// A whole walk, one state per step (the first is the start).
#[derive(Debug, Clone, PartialEq)]
pub struct Walk {
    /// The options it was walked with.
    pub options: WalkOptions,
    /// The state after each step; `states[0]` is the start.
    pub states: Vec<AgentState>,
    /// What happened, with the index of the state it happened at.
    pub events: Vec<(usize, WalkEvent)>,
    /// The states on off-mesh links, a range for each link crossed (what lies under them is
    /// not walked: they are not off the mesh).
    pub link_spans: Vec<std::ops::Range<usize>>,
}

impl Walk {
    /// Seconds from the start to the last state.
    pub fn duration(&self) -> f64 {
        self.states.len().saturating_sub(1) as f64 * self.options.step
    }

    /// True when the agent reached the goal.
    pub fn arrived(&self) -> bool {
        self.events
            .iter()
            .any(|(_, event)| *event == WalkEvent::Arrived)
    }

    /// Distance walked up to state `k` (the whole walk for the last state).
    pub fn distance_to(&self, k: usize) -> f64 {
        let end = k.saturating_add(1).min(self.states.len());
        // A fold from +0: `sum` of nothing is -0.
        self.states[..end].windows(2).fold(0.0, |walked, w| {
            walked + w[0].position.distance(w[1].position)
        })
    }
}

impl Walk {
    /// The walk for scripts: whether it arrived, how long it took and walked, how long it spent
    /// off `mesh` (see [`off_mesh`]), each corner taken (waypoint index, distance, time) and
    /// the options.
    pub fn to_json(&self, mesh: &super::NavMesh) -> serde_json::Value {
        let off = off_mesh(mesh, self);
        let corners: Vec<serde_json::Value> = self
            .events
            .iter()
            .filter_map(|&(k, event)| match event {
                WalkEvent::CornerTaken { corner, distance } => Some(serde_json::json!({
                    "corner": corner,
                    "distance": distance,
                    "time": k as f64 * self.options.step,
                })),
                _ => None,
            })
            .collect();
        serde_json::json!({
            "arrived": self.arrived(),
            "seconds": self.duration(),
            "walked": self.distance_to(usize::MAX),
            "off_mesh_seconds": off.iter().filter(|&&o| o).count() as f64 * self.options.step,
            "corners": corners,
            "options": {
                "speed": self.options.speed,
                "turn_rate": self.options.turn_rate,
                "corner_radius": self.options.corner_radius,
                "step": self.options.step,
            },
        })
    }

    /// One sentence per event, with its time: where each corner of `waypoints` (the path
    /// walked) was left, and the end.
    pub fn event_lines(&self, waypoints: &[Vec2]) -> Vec<String> {
        let radius = self.options.corner_radius;
        self.events
            .iter()
            .map(|&(k, event)| {
                let time = k as f64 * self.options.step;
                match event {
                    WalkEvent::CornerTaken { corner, distance } => {
                        let at = waypoints.get(corner).copied().unwrap_or_default();
                        format!(
                            "{time:.2} s: within {distance:.2} of corner {corner} {at} (the corner radius is {radius:.2}): head for the next"
                        )
                    }
                    WalkEvent::LinkStarted { link, kind } => format!(
                        "{time:.2} s: at the start of the {} link {link}: {}",
                        kind.name(),
                        crossing_words(kind)
                    ),
                    WalkEvent::Arrived => format!("{time:.2} s: on the goal"),
                    WalkEvent::GaveUp => format!("{time:.2} s: not at the goal in time: stopped"),
                }
            })
            .collect()
    }

    /// The walk in one line, as `navlab path --walk` prints it.
    pub fn describe(&self, mesh: &super::NavMesh) -> String {
        let off = off_mesh(mesh, self).iter().filter(|&&o| o).count() as f64 * self.options.step;
        let end = if self.arrived() {
            "arrived"
        } else {
            "stopped short of the goal"
        };
        let off = if off > 0.0 {
            format!("off the mesh for {off:.2} s (corners cut through walls)")
        } else {
            "never off the mesh".to_string()
        };
        format!(
            "walk: {end} after {:.2} s, {:.3} walked, {off}",
            self.duration(),
            self.distance_to(usize::MAX)
        )
    }
}

/// `options`, each that is not a usable number (positive; the corner radius may be 0) its
/// default.
fn usable(options: WalkOptions) -> WalkOptions {
    let defaults = WalkOptions::default();
    let positive = |v: f64, default: f64| if v.is_finite() && v > 0.0 { v } else { default };
    WalkOptions {
        speed: positive(options.speed, defaults.speed),
        turn_rate: positive(options.turn_rate, defaults.turn_rate),
        corner_radius: if options.corner_radius.is_finite() && options.corner_radius >= 0.0 {
            options.corner_radius
        } else {
            defaults.corner_radius
        },
        step: positive(options.step, defaults.step),
    }
}

/// How the agent crosses a link of `kind`, in words.
fn crossing_words(kind: super::links::LinkKind) -> &'static str {
    use super::links::LinkKind;
    match kind {
        LinkKind::Jump => "jumps across",
        LinkKind::Drop => "drops down",
        LinkKind::Ladder => "climbs the ladder, slowly",
        LinkKind::Teleport => "is there at once",
        LinkKind::Custom => "crosses it",
    }
}

/// How fast the agent crosses a link of `kind`, as a multiple of its walking speed (`None`: at
/// once).
pub fn link_speed(kind: super::links::LinkKind) -> Option<f64> {
    use super::links::LinkKind;
    match kind {
        LinkKind::Jump => Some(1.5),
        LinkKind::Drop => Some(2.0),
        LinkKind::Ladder => Some(0.35),
        LinkKind::Teleport => None,
        LinkKind::Custom => Some(1.0),
    }
}

/// Walks a path that may cross off-mesh links: each walked segment as [`walk`] walks it, each
/// link crossed in a straight line at its kind's speed ([`link_speed`]), its start an event.
/// Without links, [`walk`] itself.
pub fn walk_path(
    waypoints: &[Vec2],
    segments: &[super::links::PathSegment],
    options: WalkOptions,
) -> Walk {
    if segments.iter().all(|s| s.link.is_none()) {
        return walk(waypoints, options);
    }
    let mut whole = Walk {
        options: usable(options),
        states: Vec::new(),
        events: Vec::new(),
        link_spans: Vec::new(),
    };
    let sofar = &mut whole;
    for segment in segments {
        let Some(part) = waypoints.get(segment.first..=segment.last) else {
            continue;
        };
        if sofar.states.len() >= MAX_STEPS {
            break;
        }
        match segment.link {
            None => {
                let piece = walk(part, options);
                let offset = sofar.states.len().saturating_sub(1);
                let skip = usize::from(!sofar.states.is_empty());
                sofar
                    .states
                    .extend(piece.states.iter().skip(skip).map(|s| AgentState {
                        target: s.target + segment.first,
                        ..*s
                    }));
                for &(k, event) in &piece.events {
                    let event = match event {
                        WalkEvent::CornerTaken { corner, distance } => WalkEvent::CornerTaken {
                            corner: corner + segment.first,
                            distance,
                        },
                        // A piece that ends at a link's start is not the goal.
                        WalkEvent::Arrived if segment.last + 1 < waypoints.len() => continue,
                        other => other,
                    };
                    sofar.events.push((k + offset, event));
                }
                if !piece.arrived() {
                    break;
                }
            }
            Some(link) => {
                let (Some(&from), Some(&to)) = (part.first(), part.last()) else {
                    continue;
                };
                if sofar.states.is_empty() {
                    sofar.states.push(AgentState {
                        position: from,
                        heading: 0.0,
                        target: segment.last,
                    });
                }
                let at = sofar.states.len() - 1;
                sofar.events.push((
                    at,
                    WalkEvent::LinkStarted {
                        link: link.link,
                        kind: link.kind,
                    },
                ));
                let dt = sofar.options.step;
                let heading = if to == from {
                    sofar.states[at].heading
                } else {
                    (to.y - from.y).atan2(to.x - from.x)
                };
                let steps = match link_speed(link.kind) {
                    Some(factor) => {
                        let seconds = from.distance(to) / (sofar.options.speed * factor);
                        ((seconds / dt).ceil() as usize).clamp(1, MAX_STEPS)
                    }
                    None => 1,
                };
                for k in 1..=steps {
                    sofar.states.push(AgentState {
                        position: from.lerp(to, k as f64 / steps as f64),
                        heading,
                        target: segment.last,
                    });
                }
                sofar.link_spans.push(at + 1..sofar.states.len());
            }
        }
    }
    if !whole.arrived() && !whole.events.iter().any(|(_, e)| *e == WalkEvent::GaveUp) {
        whole
            .events
            .push((whole.states.len().saturating_sub(1), WalkEvent::GaveUp));
    }
    whole
}

/// For each state of `walk`: the kind of the link it is crossing and how far across (0 to 1,
/// by state); `None` while it walks.
pub fn on_links(walk: &Walk) -> Vec<Option<(super::links::LinkKind, f64)>> {
    let mut out = vec![None; walk.states.len()];
    let kinds = walk.events.iter().filter_map(|&(_, e)| match e {
        WalkEvent::LinkStarted { kind, .. } => Some(kind),
        _ => None,
    });
    for (span, kind) in walk.link_spans.iter().zip(kinds) {
        let n = span.len().max(1) as f64;
        for (i, k) in span.clone().enumerate() {
            if let Some(slot) = out.get_mut(k) {
                *slot = Some((kind, (i + 1) as f64 / n));
            }
        }
    }
    out
}

/// The angle `a` brought into (-π, π].
fn wrap(a: f64) -> f64 {
    let a = a.rem_euclid(2.0 * PI);
    if a > PI { a - 2.0 * PI } else { a }
}

/// Walks `waypoints` (a path's corners, start first, goal last) with `options`. Options that
/// are not positive numbers fall back to the defaults.
pub fn walk(waypoints: &[Vec2], options: WalkOptions) -> Walk {
    let options = usable(options);
    let WalkOptions {
        speed,
        turn_rate,
        corner_radius,
        step: dt,
    } = options;
    let mut walk = Walk {
        options,
        states: Vec::new(),
        events: Vec::new(),
        link_spans: Vec::new(),
    };
    let Some(&start) = waypoints.first() else {
        return walk;
    };
    let goal_index = waypoints.len() - 1;
    let first_target = waypoints
        .iter()
        .position(|&w| w != start)
        .unwrap_or(goal_index);
    let towards = |from: Vec2, to: Vec2| (to.y - from.y).atan2(to.x - from.x);
    let mut state = AgentState {
        position: start,
        heading: towards(start, waypoints[first_target]),
        target: first_target.max(1).min(goal_index),
    };
    walk.states.push(state);
    if goal_index == 0 || waypoints.iter().all(|&w| w == start) {
        walk.events.push((0, WalkEvent::Arrived));
        return walk;
    }
    // Near the goal the agent slows in proportion to the distance left (never below a tenth of
    // its speed), so that its turning circle shrinks as it closes in and it stops on the goal.
    let slow_radius = 2.0 * speed / turn_rate;
    let length = crate::search::funnel::path_length(waypoints);
    let most_steps = (((3.0 * length / speed + 10.0) / dt).ceil() as usize).min(MAX_STEPS);
    for k in 1..=most_steps {
        // Take every corner already within reach (several when corners bunch up).
        while state.target < goal_index {
            let distance = state.position.distance(waypoints[state.target]);
            if distance > corner_radius {
                break;
            }
            walk.events.push((
                k - 1,
                WalkEvent::CornerTaken {
                    corner: state.target,
                    distance,
                },
            ));
            state.target += 1;
        }
        let target = waypoints[state.target];
        let left = state.position.distance(target);
        let mut v = speed;
        if state.target == goal_index {
            v = (speed * left / slow_radius).clamp(0.1 * speed, speed);
        }
        let bearing = towards(state.position, target);
        let off = wrap(bearing - state.heading).abs();
        // Never faster than lets its tightest turn still pass through the target (the arc
        // tangent to its heading through the target has radius left / (2 sin off)), so it
        // never circles a corner it cannot reach; at a right angle or more it turns on the spot.
        v = if off >= PI / 2.0 {
            0.0
        } else if off > 0.0 {
            v.min(turn_rate * left / (2.0 * off.sin()))
        } else {
            v
        };
        let most = turn_rate * dt;
        state.heading = wrap(state.heading + wrap(bearing - state.heading).clamp(-most, most));
        let reach = v * dt;
        if left <= reach {
            // Onto the corner or the goal (a shorter step).
            state.position = target;
        } else {
            let ahead = Vec2::new(state.heading.cos(), state.heading.sin());
            state.position = state.position + ahead * reach;
        }
        walk.states.push(state);
        if state.target == goal_index && state.position == target {
            walk.events.push((k, WalkEvent::Arrived));
            return walk;
        }
    }
    walk.events.push((walk.states.len() - 1, WalkEvent::GaveUp));
    walk
}

/// Per state of `walk`: true where the agent is measurably outside `mesh` (cutting a corner
/// through a wall; not while it crosses an off-mesh link). Walking along a border, as funnel paths do, puts it a rounding error either
/// side of the border: that is not outside.
pub fn off_mesh(mesh: &super::NavMesh, walk: &Walk) -> Vec<bool> {
    let bounds = mesh.bounds();
    let tolerance = 1e-6 * (1.0 + bounds.min.distance(bounds.max));
    let on_link = |k: usize| walk.link_spans.iter().any(|span| span.contains(&k));
    walk.states
        .iter()
        .enumerate()
        .map(|(k, s)| {
            !on_link(k)
                && mesh.triangle_at(s.position).is_none()
                && mesh
                    .locate(s.position)
                    .is_none_or(|at| at.point.distance(s.position) > tolerance)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_path_is_walked_at_top_speed_and_ends_on_the_goal() {
        let path = [Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0)];
        let walk = walk(&path, WalkOptions::default());
        assert!(walk.arrived());
        assert_eq!(walk.states.last().map(|s| s.position), Some(path[1]));
        // 10 m at 2 m/s, slowing over the last 1 m: a little over 5 s.
        assert!(
            walk.duration() > 5.0 && walk.duration() < 6.5,
            "{}",
            walk.duration()
        );
        assert!((walk.distance_to(walk.states.len()) - 10.0).abs() < 1e-9);
    }

    #[test]
    fn corners_are_taken_in_order_within_the_radius() {
        let path = [
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 4.0),
            Vec2::new(0.0, 4.0),
        ];
        let options = WalkOptions::default();
        let walk = walk(&path, options);
        assert!(walk.arrived());
        let corners: Vec<usize> = walk
            .events
            .iter()
            .filter_map(|(_, e)| match *e {
                WalkEvent::CornerTaken { corner, distance } => {
                    assert!(distance <= options.corner_radius);
                    Some(corner)
                }
                _ => None,
            })
            .collect();
        assert_eq!(corners, vec![1, 2]);
    }

    #[test]
    fn a_crawl_stops_after_the_most_steps() {
        let path = [Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0)];
        let options = WalkOptions {
            speed: 1e-12,
            ..WalkOptions::default()
        };
        let walk = walk(&path, options);
        assert_eq!(walk.events.last().map(|e| e.1), Some(WalkEvent::GaveUp));
        assert_eq!(walk.states.len(), MAX_STEPS + 1);
    }

    #[test]
    fn nothing_to_walk_is_arrived_at_once() {
        let here = Vec2::new(1.0, 2.0);
        for path in [vec![here], vec![here, here]] {
            let walk = walk(&path, WalkOptions::default());
            assert!(walk.arrived());
            assert_eq!(walk.states.len(), 1);
        }
        assert!(walk(&[], WalkOptions::default()).states.is_empty());
    }

    #[test]
    fn a_path_with_links_is_walked_across_them_at_their_kinds_speeds() {
        use crate::navmesh::links::{LinkKind, LinkUse, PathSegment};
        let path = [
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 4.0),
            Vec2::new(8.0, 4.0),
        ];
        let crossing = |kind| PathSegment {
            first: 1,
            last: 2,
            link: Some(LinkUse {
                link: 0,
                reversed: false,
                kind,
                cost: 4.0,
            }),
        };
        let seconds_on_link = |kind| {
            let segments = [
                PathSegment::walk(0, 1),
                crossing(kind),
                PathSegment::walk(2, 3),
            ];
            let walked = walk_path(&path, &segments, WalkOptions::default());
            assert!(walked.arrived(), "{kind:?}");
            assert_eq!(walked.states.last().map(|s| s.position), Some(path[3]));
            let on = on_links(&walked);
            assert_eq!(on.len(), walked.states.len());
            let lines = walked.event_lines(&path);
            assert!(lines.iter().any(|l| l.contains(kind.name())), "{lines:?}");
            on.iter().filter(|o| o.is_some()).count() as f64 * walked.options.step
        };
        // 4 units at 2 units a second: 2 s walking; a ladder slower, a jump faster, a
        // teleport a single step.
        let (ladder, jump, teleport) = (
            seconds_on_link(LinkKind::Ladder),
            seconds_on_link(LinkKind::Jump),
            seconds_on_link(LinkKind::Teleport),
        );
        assert!(ladder > 5.0 && jump < 2.0 && teleport <= 1.0 / 60.0 + 1e-12);
        // Without links, the walk itself.
        let plain = [PathSegment::walk(0, 3)];
        assert_eq!(
            walk_path(&path, &plain, WalkOptions::default()),
            walk(&path, WalkOptions::default())
        );
    }

    #[test]
    fn wrap_keeps_angles_in_one_turn() {
        for a in [-7.0, -PI, -1.0, 0.0, 1.0, PI, 4.0, 13.0] {
            let w = wrap(a);
            assert!(w > -PI - 1e-12 && w <= PI + 1e-12, "{a} {w}");
            let turns = (a - w) / (2.0 * PI);
            assert!((turns - turns.round()).abs() < 1e-9, "{a} {w}");
        }
    }
}
