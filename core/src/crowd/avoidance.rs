//! One agent's local avoidance at one tick: ORCA (reciprocal n-body collision avoidance, van
//! den Berg, Guy, Lin and Manocha 2011) through [`dodgy_2d`], the Rust port of RVO2. Each
//! neighbour and each wall near the agent gives a half-plane of the velocities that do not
//! meet it within the time horizon; the new velocity is the allowed one nearest the preferred
//! velocity, no faster than the agent's top speed.
//!
//! Every wall is handed over as an obstacle of its own (one edge, its solid side outward of the
//! mesh), so a wall gives at most one half-plane and each half-plane can be named: neighbours'
//! come last, one each, in the order given; a wall's is found by asking for that wall alone
//! (in [`Avoidance::explain`]), which gives the same line, as the crate works out each
//! obstacle's lines on their own.
//!
//! `dodgy_2d` turns two agents at exactly one point apart in a random direction (from the
//! thread's generator); the crowd never lets that happen (see `Crowd::step`), so a run is the
//! same every time.

use crate::geom::Vec2;
use std::borrow::Cow;

/// A half-plane of allowed velocities: those on the left of the directed line through `point`
/// along `direction` (a unit vector), or on it.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct HalfPlane {
    /// A point of the line (a velocity).
    pub point: Vec2,
    /// The line's direction (unit length); allowed velocities lie to its left.
    pub direction: Vec2,
}

impl HalfPlane {
    /// How far `v` lies inside the half-plane (negative: outside, by that much).
    pub fn depth(&self, v: Vec2) -> f64 {
        self.direction.cross(v - self.point)
    }
}

/// Where a half-plane comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "id")]
pub enum Source {
    /// Another agent (its number).
    Agent(usize),
    /// A wall (its number in the crowd's wall list).
    Wall(usize),
}

/// What the avoidance gave one agent at one tick.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Decision {
    /// The velocity it wanted.
    pub preferred: Vec2,
    /// The velocity it took.
    pub chosen: Vec2,
    /// The half-planes, each with where it comes from (walls first, then agents).
    pub half_planes: Vec<(Source, HalfPlane)>,
    /// True when no velocity kept clear of the walls: their half-planes were taken as if the
    /// agent stood still (and may still be left).
    pub fallback: bool,
    /// How far every agent's half-plane was moved out for some velocity to lie in all of them
    /// (0 when one did): the chosen velocity lies in each moved out by this much.
    pub relaxed: f64,
}

impl Decision {
    /// The half-planes the chosen velocity lies on (within `tolerance`; the agents' moved out
    /// by [`relaxed`](Self::relaxed)): those that bound it.
    pub fn binding(&self, tolerance: f64) -> Vec<Source> {
        self.half_planes
            .iter()
            .filter(|(s, h)| {
                let slack = match s {
                    Source::Agent(_) => self.relaxed,
                    Source::Wall(_) => 0.0,
                };
                (h.depth(self.chosen) + slack).abs() <= tolerance
            })
            .map(|(s, _)| *s)
            .collect()
    }
}

/// The settings of the avoidance, the same for every agent.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AvoidanceSettings {
    /// How far ahead in time other agents are avoided (seconds).
    pub time_horizon: f64,
    /// How far ahead in time walls are avoided (seconds).
    pub wall_time_horizon: f64,
    /// Agents nearer than this are neighbours.
    pub neighbour_distance: f64,
    /// At most this many neighbours are taken (the nearest).
    pub max_neighbours: usize,
}

impl Default for AvoidanceSettings {
    fn default() -> Self {
        Self {
            time_horizon: 1.0,
            wall_time_horizon: 0.5,
            neighbour_distance: 4.0,
            max_neighbours: 10,
        }
    }
}

/// One agent as the avoidance sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Where it is.
    pub position: Vec2,
    /// How it moves.
    pub velocity: Vec2,
    /// Its radius.
    pub radius: f64,
}

/// The avoidance for one agent at one tick: the agent, its neighbours and the walls near it.
pub struct Avoidance<'a> {
    /// The agent.
    pub body: Body,
    /// Its neighbours, each with its number.
    pub neighbours: &'a [(usize, Body)],
    /// The walls near it, each with its number: from, to (the mesh on the left going from
    /// `from` to `to`).
    pub walls: &'a [(usize, Vec2, Vec2)],
    /// How far it keeps from walls (its radius).
    pub wall_margin: f64,
    /// Its top speed.
    pub max_speed: f64,
    /// The tick's length (seconds).
    pub time_step: f64,
    /// The settings.
    pub settings: AvoidanceSettings,
}

fn to_dodgy(v: Vec2) -> dodgy_2d::Vec2 {
    dodgy_2d::Vec2::new(v.x as f32, v.y as f32)
}

fn from_dodgy(v: dodgy_2d::Vec2) -> Vec2 {
    Vec2::new(f64::from(v.x), f64::from(v.y))
}

fn agent(body: &Body) -> dodgy_2d::Agent {
    dodgy_2d::Agent {
        position: to_dodgy(body.position),
        velocity: to_dodgy(body.velocity),
        radius: body.radius as f32,
        avoidance_responsibility: 1.0,
    }
}

/// A wall as an obstacle: solid on the left of the crate's edge, so from `to` to `from`.
fn obstacle(from: Vec2, to: Vec2) -> dodgy_2d::Obstacle {
    dodgy_2d::Obstacle::Open {
        vertices: vec![to_dodgy(to), to_dodgy(from)],
    }
}

fn half_plane(line: &dodgy_2d::debug::Line) -> HalfPlane {
    HalfPlane {
        point: from_dodgy(line.point),
        direction: from_dodgy(line.direction),
    }
}

/// Below this (a velocity), a half-plane left by the chosen velocity is rounding, not a
/// relaxation.
const RELAXED: f64 = 1e-4;

/// How far the chosen velocity lies outside the last `agents` half-planes (the agents'), at
/// most (0 when inside all).
fn relaxation(lines: &[dodgy_2d::debug::Line], agents: usize, chosen: Vec2) -> f64 {
    lines
        .iter()
        .skip(lines.len().saturating_sub(agents))
        .map(|l| -half_plane(l).depth(chosen))
        .fold(0.0, f64::max)
}

impl Avoidance<'_> {
    fn options(&self) -> dodgy_2d::AvoidanceOptions {
        dodgy_2d::AvoidanceOptions {
            obstacle_margin: self.wall_margin as f32,
            time_horizon: self.settings.time_horizon as f32,
            obstacle_time_horizon: self.settings.wall_time_horizon as f32,
        }
    }

    /// The crate's answer for `preferred`: the new velocity, and the lines with whether the
    /// fallback was taken.
    fn solve(&self, preferred: Vec2) -> (Vec2, Vec<dodgy_2d::debug::Line>, bool) {
        let me = agent(&self.body);
        let neighbours: Vec<Cow<'_, dodgy_2d::Agent>> = self
            .neighbours
            .iter()
            .map(|(_, b)| Cow::Owned(agent(b)))
            .collect();
        let obstacles: Vec<Cow<'_, dodgy_2d::Obstacle>> = self
            .walls
            .iter()
            .map(|&(_, a, b)| Cow::Owned(obstacle(a, b)))
            .collect();
        let (chosen, debug) = me.compute_avoiding_velocity_with_debug(
            &neighbours,
            &obstacles,
            to_dodgy(preferred),
            self.max_speed as f32,
            self.time_step as f32,
            &self.options(),
        );
        let (lines, fallback) = match debug {
            dodgy_2d::debug::DebugData::Satisfied { constraints } => (constraints, false),
            dodgy_2d::debug::DebugData::Fallback {
                fallback_constraints,
                ..
            } => (fallback_constraints, true),
        };
        (from_dodgy(chosen), lines, fallback)
    }

    /// The new velocity for `preferred`, and whether it could not keep clear of everything
    /// (the walls' fallback taken, or the agents' half-planes moved out).
    pub fn decide(&self, preferred: Vec2) -> (Vec2, bool) {
        let (chosen, lines, fallback) = self.solve(preferred);
        let relaxed = relaxation(&lines, self.neighbours.len(), chosen);
        (chosen, fallback || relaxed > RELAXED)
    }

    /// [`decide`](Self::decide) taken apart: the new velocity with every half-plane that made
    /// it and where each comes from.
    pub fn explain(&self, preferred: Vec2) -> Decision {
        let (chosen, lines, fallback) = self.solve(preferred);
        let walls = lines.len().saturating_sub(self.neighbours.len());
        let mut half_planes = Vec::with_capacity(lines.len());
        // The walls' lines in order, each matched to the wall that gives it alone.
        let mut wall_lines = lines.iter().take(walls).peekable();
        for &(id, a, b) in self.walls {
            let Some(line) = wall_lines.peek() else {
                break;
            };
            if self
                .wall_lines(a, b, fallback)
                .iter()
                .any(|l| l.point == line.point && l.direction == line.direction)
            {
                half_planes.push((Source::Wall(id), half_plane(line)));
                wall_lines.next();
            }
        }
        for (line, (id, _)) in lines.iter().skip(walls).zip(self.neighbours) {
            half_planes.push((Source::Agent(*id), half_plane(line)));
        }
        Decision {
            preferred,
            chosen,
            relaxed: relaxation(&lines, self.neighbours.len(), chosen),
            half_planes,
            fallback,
        }
    }

    /// The lines of one wall alone (as the agent stands, or at rest for the fallback).
    fn wall_lines(&self, a: Vec2, b: Vec2, at_rest: bool) -> Vec<dodgy_2d::debug::Line> {
        let mut me = agent(&self.body);
        if at_rest {
            me.velocity = dodgy_2d::Vec2::ZERO;
        }
        let wall = [Cow::Owned(obstacle(a, b))];
        // Far from every velocity: the wall's lines are all that bound it, and with
        // nothing else the program is solved, so its lines come back as they are.
        let (_, debug) = me.compute_avoiding_velocity_with_debug(
            &[],
            &wall,
            dodgy_2d::Vec2::ZERO,
            self.max_speed as f32,
            self.time_step as f32,
            &self.options(),
        );
        match debug {
            dodgy_2d::debug::DebugData::Satisfied { constraints } => constraints,
            dodgy_2d::debug::DebugData::Fallback {
                original_constraints,
                fallback_constraints,
            } => {
                if at_rest {
                    fallback_constraints
                } else {
                    original_constraints
                }
            }
        }
    }
}
