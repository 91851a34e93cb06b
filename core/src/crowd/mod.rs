//! A crowd on a navmesh: agents with a radius, a preferred and a top speed, each following its
//! own path (A\* and the funnel for its radius, [`find_path`]) and keeping clear of the others
//! and of the walls by ORCA ([`avoidance`]). Fixed time steps; every agent decides from the
//! same state of the tick before (so the order they are listed in changes nothing), then all
//! move. Deterministic: the same agents, mesh and settings give the same run, bit for bit.
//!
//! Each tick an agent
//! 1. heads for the next corner of its path at its preferred speed (slowing to stop on the
//!    goal), taking the corner after once it is within its radius of it; once arrived it
//!    heads for its goal still, so that it steps aside for others and comes back;
//! 2. takes the new velocity ORCA allows nearest that, from its neighbours (the nearest within
//!    [`AvoidanceSettings::neighbour_distance`]) and the walls it could reach within
//!    [`AvoidanceSettings::wall_time_horizon`];
//! 3. moves, staying on the mesh; when it has strayed from its path (farther than
//!    [`CrowdSettings::stray_distance`] from the stretch it follows) it finds a path again
//!    from where it stands.
//!
//! The mesh can change mid-run ([`Crowd::change_mesh`]: a door closed): from that tick on
//! the crowd moves on the new mesh, every agent finding its path again.
//!
//! The run is recorded as the state of every agent at every tick ([`Frame`]); what ORCA did
//! for one agent at one tick is worked out again from the frame before when asked
//! ([`Crowd::explain`]), the same as it was.

pub mod avoidance;
pub mod run_file;

use crate::geom::{Vec2, closest_point_on_segment};
use crate::navmesh::{NavMesh, PathStatus, QueryOptions, TriId, find_path};
use crate::search::NoObserver;
pub use avoidance::{AvoidanceSettings, Body, Decision, HalfPlane, Source};
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One agent: where it starts and goes, its size and speeds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AgentSpec {
    /// Where it starts.
    pub start: Vec2,
    /// Where it goes.
    pub goal: Vec2,
    /// Its radius.
    pub radius: f64,
    /// The speed it walks at when nothing is in its way.
    pub preferred_speed: f64,
    /// Its top speed (to get out of the way).
    pub max_speed: f64,
}

/// Where random agents start and end ([`Crowd::random_specs_in`]): each within a box (its
/// lowest and highest corner), or anywhere on the mesh.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Placement {
    /// The box the starts lie in.
    pub starts: Option<[Vec2; 2]>,
    /// The box the goals lie in.
    pub goals: Option<[Vec2; 2]>,
}

/// How the crowd moves.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CrowdSettings {
    /// A tick's length (seconds).
    pub time_step: f64,
    /// The avoidance's settings.
    pub avoidance: AvoidanceSettings,
    /// False: agents follow their paths and walk through each other (walls still hold them).
    pub avoid: bool,
    /// An agent farther than this from the stretch of path it follows finds a path again.
    pub stray_distance: f64,
    /// The agents avoid each other as if their radii were this share larger, so that when a
    /// dense crowd leaves no velocity clear of everyone (ORCA then moves every neighbour's
    /// half-plane out evenly) they still seldom touch.
    pub personal_space: f64,
    /// An agent that has not come this much nearer its goal within [`Self::stuck_ticks`]
    /// ticks is stuck.
    pub stuck_progress: f64,
    /// See [`Self::stuck_progress`].
    pub stuck_ticks: usize,
}

impl Default for CrowdSettings {
    fn default() -> Self {
        Self {
            time_step: 0.05,
            avoidance: AvoidanceSettings::default(),
            avoid: true,
            personal_space: 0.1,
            stray_distance: 1.0,
            stuck_progress: 0.25,
            stuck_ticks: 100,
        }
    }
}

/// Why an agent does not get on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stuck {
    /// No path for its radius from where it stands to its goal.
    NoPath,
    /// No velocity kept clear of every neighbour and wall: it took the least bad one.
    NoAllowedVelocity,
    /// It found a path again and again without getting nearer.
    Replanning,
    /// Its new paths go one way round, then the other, then the first again (two corridors in
    /// turn) without getting nearer.
    Oscillating,
    /// Others are in its way: it has not got nearer its goal for a while.
    Blocked,
}

impl Stuck {
    /// The reason in words.
    pub fn sentence(self) -> &'static str {
        match self {
            Stuck::NoPath => "no path for its radius from where it stands",
            Stuck::NoAllowedVelocity => {
                "no velocity keeps clear of every neighbour and wall: it takes the least bad"
            }
            Stuck::Replanning => "it finds a path again and again without getting nearer",
            Stuck::Oscillating => {
                "its paths go one way round and then the other, back and forth between two corridors, without getting nearer"
            }
            Stuck::Blocked => "others are in its way: it has not got nearer its goal for a while",
        }
    }
}

/// Why an agent has no path for its radius ([`Crowd::why_no_path`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NoPath {
    /// The agent's radius.
    pub radius: f64,
    /// The largest radius that could go from where it stands to its goal (0: no route).
    pub widest: f64,
    /// The middle of the portal that stops a larger agent on the widest route (none when an
    /// end with too little room, or the want of any route, stops it).
    pub portal: Option<Vec2>,
}

impl NoPath {
    /// In words: "the narrowest portal of its widest way, at (12.40, 3.00), lets through a
    /// radius of 0.25; it has 0.30".
    pub fn sentence(&self) -> String {
        let d = |v: f64| format!("{v:.2}");
        match self.portal {
            _ if self.widest <= 0.0 => {
                "there is no way from where it stands to its goal".to_owned()
            }
            Some(p) => format!(
                "the narrowest portal of its widest way, at ({}, {}), lets through a radius of {}; it has {}",
                d(p.x),
                d(p.y),
                d(self.widest),
                d(self.radius)
            ),
            None => format!(
                "where it stands or its goal has room for a radius of {} only; it has {}",
                d(self.widest),
                d(self.radius)
            ),
        }
    }
}

/// One agent at one tick.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentState {
    /// Where it is.
    pub position: Vec2,
    /// How it moved in the last tick.
    pub velocity: Vec2,
    /// The velocity it wanted in the last tick.
    pub preferred: Vec2,
    /// The path it follows (its points, start first).
    #[serde(serialize_with = "points")]
    pub path: Arc<Vec<Vec2>>,
    /// The point of the path it heads for.
    pub next: usize,
    /// The tick it arrived at, once it has.
    pub arrived: Option<usize>,
    /// Why it is stuck, when it is.
    pub stuck: Option<Stuck>,
    /// True when in the last tick no velocity kept clear of every neighbour and wall.
    pub fallback: bool,
    /// How many times it has found a path again.
    pub replans: usize,
    /// The corner of the mesh its last two paths turned round first (the way round it took;
    /// none when the path went straight to the goal), the latest first.
    pub routes: [Option<Vec2>; 2],
    /// How many times a new path went back to the way round of the path before the last
    /// (back and forth between two corridors).
    pub switches: usize,
}

/// Every agent at one tick.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Frame {
    /// The tick (0: the start).
    pub tick: usize,
    /// The agents, in the order given.
    pub agents: Vec<AgentState>,
}

/// A crowd on a mesh, recorded tick by tick.
#[derive(Debug, Clone)]
pub struct Crowd {
    /// The mesh and its walls, each from the tick it came in at (a door closed mid-run): the
    /// tick after frame `t` is decided on the last one from `t` or before.
    grounds: Vec<(usize, Arc<Ground>)>,
    specs: Vec<AgentSpec>,
    settings: CrowdSettings,
    frames: Vec<Frame>,
}

/// A mesh with its walls, for the crowd.
#[derive(Debug)]
struct Ground {
    mesh: Arc<NavMesh>,
    /// The walls (border edges), the mesh on the left of each.
    walls: Vec<(Vec2, Vec2)>,
    tree: rstar::RTree<rstar::primitives::GeomWithData<rstar::primitives::Line<[f64; 2]>, usize>>,
}

impl Ground {
    fn of(mesh: Arc<NavMesh>) -> Self {
        let walls: Vec<(Vec2, Vec2)> = mesh
            .edges()
            .iter()
            .filter(|e| e.is_border())
            .filter_map(|e| {
                // Oriented with the mesh on the left: as its triangle (counter-clockwise) has it.
                let &t = e.triangles.first()?;
                let tri = mesh.triangles().get(t)?;
                let [a, b] = e.vertices;
                let forward =
                    (0..3).any(|k| tri.vertices[k] == a && tri.vertices[(k + 1) % 3] == b);
                let (a, b) = if forward { (a, b) } else { (b, a) };
                Some((*mesh.vertices().get(a)?, *mesh.vertices().get(b)?))
            })
            .collect();
        let tree = rstar::RTree::bulk_load(
            walls
                .iter()
                .enumerate()
                .map(|(k, &(a, b))| {
                    rstar::primitives::GeomWithData::new(
                        rstar::primitives::Line::new([a.x, a.y], [b.x, b.y]),
                        k,
                    )
                })
                .collect(),
        );
        Self { mesh, walls, tree }
    }
}

/// Two agents closer than the sum of their radii by more than this share of it overlap.
pub const OVERLAP_TOLERANCE: f64 = 0.05;

impl Crowd {
    /// A crowd of `specs` on `mesh`, at tick 0: each agent at its start (on the mesh) with its
    /// path.
    pub fn new(mesh: Arc<NavMesh>, specs: Vec<AgentSpec>, settings: CrowdSettings) -> Self {
        let mut crowd = Self {
            grounds: vec![(0, Arc::new(Ground::of(mesh)))],
            specs,
            settings,
            frames: Vec::new(),
        };
        let agents = crowd
            .specs
            .iter()
            .map(|spec| {
                let position = crowd
                    .ground(0)
                    .mesh
                    .locate(spec.start)
                    .map_or(spec.start, |l| l.point);
                let mut state = AgentState {
                    position,
                    velocity: Vec2::default(),
                    preferred: Vec2::default(),
                    path: Arc::new(Vec::new()),
                    next: 0,
                    arrived: None,
                    stuck: None,
                    fallback: false,
                    replans: 0,
                    routes: [None; 2],
                    switches: 0,
                };
                crowd.plan(&crowd.ground(0).mesh, spec, &mut state);
                state
            })
            .collect();
        crowd.frames.push(Frame { tick: 0, agents });
        crowd
    }

    /// `count` agents of `radius` at random starts and goals on `mesh` (seeded): every start
    /// and goal with room for the radius, on one island, no two starts (nor goals) nearer than
    /// three radii. Fewer when there is not room for as many.
    pub fn random_specs(
        mesh: &NavMesh,
        count: usize,
        radius: f64,
        speed: f64,
        seed: u64,
    ) -> Vec<AgentSpec> {
        Self::random_specs_in(mesh, count, radius, speed, seed, Placement::default())
    }

    /// [`random_specs`](Self::random_specs) with the starts, the goals or both within a box.
    pub fn random_specs_in(
        mesh: &NavMesh,
        count: usize,
        radius: f64,
        speed: f64,
        seed: u64,
        placement: Placement,
    ) -> Vec<AgentSpec> {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let clearance = mesh.clearance();
        // The triangles that meet a box (or all), with their areas summed for a weighted pick.
        let weighted = |within: Option<[Vec2; 2]>| -> (Vec<TriId>, Vec<f64>) {
            let mut ids = Vec::new();
            let mut sums = Vec::new();
            let mut sum = 0.0;
            for (t, tri) in mesh.triangles().iter().enumerate() {
                if let Some([lo, hi]) = within {
                    let c = mesh.corners(t);
                    let (x0, x1) = (
                        c[0].x.min(c[1].x).min(c[2].x),
                        c[0].x.max(c[1].x).max(c[2].x),
                    );
                    let (y0, y1) = (
                        c[0].y.min(c[1].y).min(c[2].y),
                        c[0].y.max(c[1].y).max(c[2].y),
                    );
                    if x1 < lo.x || x0 > hi.x || y1 < lo.y || y0 > hi.y {
                        continue;
                    }
                }
                sum += tri.area;
                ids.push(t);
                sums.push(sum);
            }
            (ids, sums)
        };
        let point = |rng: &mut rand_pcg::Pcg64,
                     (ids, sums): &(Vec<TriId>, Vec<f64>),
                     within: Option<[Vec2; 2]>|
         -> Option<(Vec2, TriId)> {
            let total = sums.last().copied()?;
            for _ in 0..400 {
                let pick = rng.random::<f64>() * total;
                let k = sums
                    .partition_point(|&a| a < pick)
                    .min(ids.len().checked_sub(1)?);
                let t = *ids.get(k)?;
                let [a, b, c] = mesh.corners(t);
                let (mut u, mut v) = (rng.random::<f64>(), rng.random::<f64>());
                if u + v > 1.0 {
                    (u, v) = (1.0 - u, 1.0 - v);
                }
                let p = a + (b - a) * u + (c - a) * v;
                let inside = within.is_none_or(|[lo, hi]| {
                    (lo.x..=hi.x).contains(&p.x) && (lo.y..=hi.y).contains(&p.y)
                });
                if inside && clearance.room(t, p) >= radius {
                    return Some((p, t));
                }
            }
            None
        };
        let (from, to) = (weighted(placement.starts), weighted(placement.goals));
        let (mut starts, mut goals): (Vec<Vec2>, Vec<Vec2>) = (Vec::new(), Vec::new());
        let mut specs = Vec::new();
        let apart = 3.0 * radius;
        for _ in 0..count * 20 {
            if specs.len() == count {
                break;
            }
            let (Some((s, ts)), Some((g, tg))) = (
                point(&mut rng, &from, placement.starts),
                point(&mut rng, &to, placement.goals),
            ) else {
                break;
            };
            if mesh.island_of(ts) != mesh.island_of(tg)
                || starts.iter().any(|q: &Vec2| q.distance(s) < apart)
                || goals.iter().any(|q: &Vec2| q.distance(g) < apart)
            {
                continue;
            }
            starts.push(s);
            goals.push(g);
            specs.push(AgentSpec {
                start: s,
                goal: g,
                radius,
                preferred_speed: speed,
                max_speed: speed * 1.5,
            });
        }
        specs
    }

    /// The mesh now (the last one given).
    pub fn mesh(&self) -> &Arc<NavMesh> {
        &self.ground(usize::MAX).mesh
    }

    /// The mesh and walls the tick after frame `tick` is decided on.
    fn ground(&self, tick: usize) -> &Ground {
        &self.grounds[self.ground_index(tick)].1
    }

    /// Which of the grounds the tick after frame `tick` is decided on.
    fn ground_index(&self, tick: usize) -> usize {
        // There is always the first, from tick 0.
        self.grounds
            .partition_point(|(from, _)| *from <= tick)
            .max(1)
            - 1
    }

    /// The ticks at which the mesh changed ([`change_mesh`](Self::change_mesh)), first to last.
    pub fn mesh_changes(&self) -> Vec<usize> {
        self.grounds.iter().skip(1).map(|(t, _)| *t).collect()
    }

    /// Changes the mesh from frame `tick` on (a door closed or opened, an obstacle cut): the
    /// frames after it are dropped (the run goes on from there), every agent is put back on
    /// the new mesh where it stood (or at the nearest point of it), and every agent not
    /// arrived finds a path again from there.
    pub fn change_mesh(&mut self, mesh: Arc<NavMesh>, tick: usize) {
        let tick = tick.min(self.current().tick);
        self.frames.truncate(tick + 1);
        self.grounds.retain(|(from, _)| *from < tick || *from == 0);
        let ground = Arc::new(Ground::of(mesh));
        if tick == 0 {
            self.grounds = vec![(0, Arc::clone(&ground))];
        } else {
            self.grounds.push((tick, Arc::clone(&ground)));
        }
        let Some(mut frame) = self.frames.pop() else {
            return;
        };
        for (spec, state) in self.specs.iter().zip(frame.agents.iter_mut()) {
            if let Some(at) = ground.mesh.locate(state.position) {
                state.position = at.point;
            }
            if state.arrived.is_none() {
                state.replans += 1;
                self.plan(&ground.mesh, spec, state);
            }
        }
        self.frames.push(frame);
    }

    /// The agents as given.
    pub fn specs(&self) -> &[AgentSpec] {
        &self.specs
    }

    /// The settings.
    pub fn settings(&self) -> &CrowdSettings {
        &self.settings
    }

    /// The walls of the mesh the tick after frame `tick` is decided on (its border edges,
    /// the mesh on the left of each), as [`Source::Wall`] numbers them.
    pub fn walls(&self, tick: usize) -> &[(Vec2, Vec2)] {
        &self.ground(tick).walls
    }

    /// Every tick so far, tick 0 first.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The last tick.
    pub fn current(&self) -> &Frame {
        // There is always tick 0.
        &self.frames[self.frames.len() - 1]
    }

    /// True when every agent has arrived or is stuck for want of a path.
    pub fn finished(&self) -> bool {
        self.current()
            .agents
            .iter()
            .all(|a| a.arrived.is_some() || a.stuck == Some(Stuck::NoPath))
    }

    /// A path for `spec`'s radius from where `state` stands to its goal on `mesh`.
    /// Where an agent stands with less room than its radius (a door closed against it), the
    /// path is found for a point: the avoidance keeps it off the walls, and it finds a path
    /// for its radius again once it strays from that one.
    fn plan(&self, mesh: &NavMesh, spec: &AgentSpec, state: &mut AgentState) {
        let cramped = mesh
            .locate(state.position)
            .is_some_and(|at| mesh.clearance().room(at.triangle, at.point) < spec.radius);
        let options = QueryOptions {
            cost: crate::navmesh::CostModel::Straight,
            radius: if cramped { 0.0 } else { spec.radius },
            ..QueryOptions::default()
        };
        let path = find_path(
            mesh,
            state.position,
            spec.goal,
            options,
            &mut NoObserver,
            &mut NoObserver,
        );
        match path {
            Some(path) if path.status != PathStatus::Unreachable => {
                // The way round: the corner of the mesh it turns round first.
                let route = path.arcs.first().map(|arc| arc.centre).or_else(|| {
                    (path.waypoints.len() > 2)
                        .then(|| path.waypoints.get(1).copied())
                        .flatten()
                });
                let (points, _) = path.traced();
                let [last, before] = state.routes;
                if route.is_some() && route != last && route == before {
                    state.switches += 1;
                }
                state.routes = [route, last];
                state.path = Arc::new(points);
                state.next = 1.min(state.path.len().saturating_sub(1));
                if state.stuck == Some(Stuck::NoPath) {
                    state.stuck = None;
                }
            }
            _ => {
                state.path = Arc::new(vec![state.position]);
                state.next = 0;
                state.stuck = Some(Stuck::NoPath);
            }
        }
    }

    /// The velocity agent `k` of `frame` wants: toward its next corner at its preferred speed,
    /// slowing to stop on its goal; and the corner it heads for.
    fn preferred(
        &self,
        k: usize,
        tick: usize,
        spec: &AgentSpec,
        state: &AgentState,
    ) -> (Vec2, usize) {
        if state.stuck == Some(Stuck::NoPath) {
            return (Vec2::default(), state.next);
        }
        let mut next = state.next;
        let last = state.path.len().saturating_sub(1);
        if state.arrived.is_some() {
            // Arrived: it stays on its goal, stepping aside for others and back again.
            let to = spec.goal - state.position;
            let distance = to.length();
            if distance == 0.0 {
                return (Vec2::default(), next);
            }
            let speed = spec.preferred_speed.min(distance / self.settings.time_step);
            return (to * (speed / distance), next);
        }
        while next < last
            && state
                .path
                .get(next)
                .is_some_and(|c| c.distance(state.position) <= spec.radius.max(1e-6))
        {
            next += 1;
        }
        let Some(&corner) = state.path.get(next) else {
            return (Vec2::default(), next);
        };
        let to = corner - state.position;
        let distance = to.length();
        if distance == 0.0 {
            return (Vec2::default(), next);
        }
        let speed = if next == last {
            spec.preferred_speed.min(distance / self.settings.time_step)
        } else {
            spec.preferred_speed
        };
        // Turned by a hair, differently for every agent and tick: agents set out in perfect
        // symmetry (a ring crossing to the far side) would otherwise all stop in the middle.
        let turn = 1e-3 * (unit_hash(k as u64, tick as u64) - 0.5);
        let (sin, cos) = turn.sin_cos();
        let heading = to * (speed / distance);
        (
            Vec2::new(
                heading.x * cos - heading.y * sin,
                heading.x * sin + heading.y * cos,
            ),
            next,
        )
    }

    /// The neighbours of agent `k` in `frame` (the nearest first, then by number).
    fn neighbours(&self, frame: &Frame, grid: &Grid, k: usize) -> Vec<(usize, Body)> {
        let Some(me) = frame.agents.get(k) else {
            return Vec::new();
        };
        let reach = self.settings.avoidance.neighbour_distance;
        let mut near: Vec<(f64, usize)> = grid
            .near(me.position, reach)
            .filter(|&j| j != k)
            .filter_map(|j| {
                let d = frame.agents.get(j)?.position.distance(me.position);
                (d <= reach).then_some((d, j))
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        near.truncate(self.settings.avoidance.max_neighbours);
        near.into_iter()
            .filter_map(|(_, j)| {
                let other = frame.agents.get(j)?;
                Some((
                    j,
                    Body {
                        position: other.position,
                        velocity: other.velocity,
                        radius: self.specs.get(j)?.radius * (1.0 + self.settings.personal_space),
                    },
                ))
            })
            .collect()
    }

    /// The walls agent `spec` at `state` could reach within the walls' time horizon.
    fn walls_near(
        ground: &Ground,
        settings: &CrowdSettings,
        spec: &AgentSpec,
        state: &AgentState,
    ) -> Vec<(usize, Vec2, Vec2)> {
        let reach = settings.avoidance.wall_time_horizon * spec.max_speed + spec.radius;
        let p = state.position;
        let envelope =
            rstar::AABB::from_corners([p.x - reach, p.y - reach], [p.x + reach, p.y + reach]);
        let mut near: Vec<(usize, Vec2, Vec2)> = ground
            .tree
            .locate_in_envelope_intersecting(&envelope)
            .filter_map(|w| {
                let &(a, b) = ground.walls.get(w.data)?;
                (closest_point_on_segment(a, b, p).distance(p) <= reach).then_some((w.data, a, b))
            })
            .collect();
        near.sort_by_key(|w| w.0);
        near
    }

    /// The avoidance for agent `k` at the tick after `frame`.
    fn avoidance<'a>(
        &self,
        frame: &Frame,
        k: usize,
        neighbours: &'a [(usize, Body)],
        walls: &'a [(usize, Vec2, Vec2)],
    ) -> Option<avoidance::Avoidance<'a>> {
        let (spec, state) = (self.specs.get(k)?, frame.agents.get(k)?);
        Some(avoidance::Avoidance {
            body: Body {
                position: state.position,
                velocity: state.velocity,
                radius: spec.radius * (1.0 + self.settings.personal_space),
            },
            wall_margin: spec.radius,
            neighbours,
            walls,
            max_speed: spec.max_speed,
            time_step: self.settings.time_step,
            settings: self.settings.avoidance,
        })
    }

    /// One tick: every agent decides from the last frame, then all move. Returns the new frame.
    pub fn step(&mut self) -> &Frame {
        let frame = self.current();
        let grid = Grid::of(frame, self.settings.avoidance.neighbour_distance);
        let dt = self.settings.time_step;
        let tick = frame.tick + 1;
        let ground = self.ground(frame.tick);
        let mut agents = Vec::with_capacity(frame.agents.len());
        for (k, (spec, state)) in self.specs.iter().zip(&frame.agents).enumerate() {
            let mut next_state = state.clone();
            let (preferred, next) = self.preferred(k, tick, spec, state);
            next_state.next = next;
            next_state.preferred = preferred;
            let (velocity, fallback) = if self.settings.avoid {
                let neighbours = self.neighbours(frame, &grid, k);
                let walls = Self::walls_near(ground, &self.settings, spec, state);
                match self.avoidance(frame, k, &neighbours, &walls) {
                    Some(a) => a.decide(preferred),
                    None => (preferred, false),
                }
            } else {
                (preferred, false)
            };
            next_state.velocity = velocity;
            next_state.fallback = fallback;
            // Stay on the mesh: a move that would leave it stops at the edge of it.
            let wanted = state.position + velocity * dt;
            next_state.position = match ground.mesh.locate(wanted) {
                Some(at) if !at.snapped => wanted,
                Some(at) => at.point,
                None => state.position,
            };
            agents.push(next_state);
        }
        // Two agents at one point would be turned apart at random by the avoidance: the later
        // one is moved a hair along the x axis (never happens but by exact coincidence).
        let mut seen: std::collections::HashMap<[u64; 2], usize> = Default::default();
        for agent in &mut agents {
            while seen
                .insert([agent.position.x.to_bits(), agent.position.y.to_bits()], 0)
                .is_some()
            {
                agent.position.x = next_up(agent.position.x);
            }
        }
        let earlier = tick
            .checked_sub(self.settings.stuck_ticks)
            .and_then(|t| self.frames.get(t));
        for (k, (spec, state)) in self.specs.iter().zip(agents.iter_mut()).enumerate() {
            let before = earlier.and_then(|f| f.agents.get(k));
            self.settle(spec, state, before, tick);
        }
        self.frames.push(Frame { tick, agents });
        self.current()
    }

    /// After moving: arrival, straying (a new path), progress since `before` (the agent
    /// [`CrowdSettings::stuck_ticks`] ago) and being stuck.
    fn settle(
        &self,
        spec: &AgentSpec,
        state: &mut AgentState,
        before: Option<&AgentState>,
        tick: usize,
    ) {
        if state.arrived.is_some() {
            return;
        }
        let to_goal = state.position.distance(spec.goal);
        if to_goal <= (0.25 * spec.radius).max(1e-6) {
            state.arrived = Some(tick);
            state.stuck = None;
            return;
        }
        // The stretch followed: from the corner before the next to the next.
        let stretch = match (
            state.path.get(state.next.saturating_sub(1)),
            state.path.get(state.next),
        ) {
            (Some(&a), Some(&b)) => {
                Some(closest_point_on_segment(a, b, state.position).distance(state.position))
            }
            _ => None,
        };
        if stretch.is_some_and(|d| d > self.settings.stray_distance) {
            state.replans += 1;
            self.plan(&self.ground(tick).mesh, spec, state);
        }
        if state.stuck == Some(Stuck::NoPath) {
            return;
        }
        let gained = before.map(|b| b.position.distance(spec.goal) - to_goal);
        // Counted over the same ticks as the progress.
        let replans = before.map_or(0, |b| state.replans.saturating_sub(b.replans));
        let switches = before.map_or(0, |b| state.switches.saturating_sub(b.switches));
        state.stuck = if gained.is_some_and(|g| g < self.settings.stuck_progress) {
            Some(if state.fallback {
                Stuck::NoAllowedVelocity
            } else if switches >= 2 {
                Stuck::Oscillating
            } else if replans >= 3 {
                Stuck::Replanning
            } else {
                Stuck::Blocked
            })
        } else {
            None
        };
    }

    /// Why agent `k` has no path at frame `tick` ([`Stuck::NoPath`]): the widest route from
    /// where it stands to its goal on the mesh of that tick, and what limits it (the narrowest
    /// portal of that route, every other route having one at most as wide; an end with less
    /// room; or no route at all). `None` when the agent has a path or the tick is not recorded.
    pub fn why_no_path(&self, tick: usize, k: usize) -> Option<NoPath> {
        let state = self.frames.get(tick)?.agents.get(k)?;
        if state.stuck != Some(Stuck::NoPath) {
            return None;
        }
        let spec = self.specs.get(k)?;
        let mesh = &self.ground(tick).mesh;
        let (Some(from), Some(to)) = (mesh.locate(state.position), mesh.locate(spec.goal)) else {
            return Some(NoPath {
                radius: spec.radius,
                widest: 0.0,
                portal: None,
            });
        };
        let route = crate::navmesh::widest::widest_route(mesh, &from, &to);
        let portal = match route.limit {
            crate::navmesh::widest::RouteLimit::Portal(e) => {
                let edge = mesh.edges().get(e)?;
                let [a, b] = edge.vertices.map(|v| mesh.vertices().get(v).copied());
                Some((a? + b?) * 0.5)
            }
            _ => None,
        };
        Some(NoPath {
            radius: spec.radius,
            widest: route.radius,
            portal,
        })
    }

    /// Runs up to `ticks` ticks, stopping early when [`finished`](Self::finished).
    pub fn run(&mut self, ticks: usize) {
        for _ in 0..ticks {
            if self.finished() {
                break;
            }
            self.step();
        }
    }

    /// What ORCA did for agent `k` in the tick that led to frame `tick` (1 or more), worked out
    /// again from the frame before: its half-planes, each named, its preferred and chosen
    /// velocity. `None` for an agent or tick not recorded, or when avoidance is off.
    pub fn explain(&self, tick: usize, k: usize) -> Option<Decision> {
        let before = self.frames.get(tick.checked_sub(1)?)?;
        let spec = self.specs.get(k)?;
        let state = before.agents.get(k)?;
        if !self.settings.avoid {
            return None;
        }
        let grid = Grid::of(before, self.settings.avoidance.neighbour_distance);
        let neighbours = self.neighbours(before, &grid, k);
        let walls = Self::walls_near(self.ground(before.tick), &self.settings, spec, state);
        let (preferred, _) = self.preferred(k, tick, spec, state);
        Some(
            self.avoidance(before, k, &neighbours, &walls)?
                .explain(preferred),
        )
    }

    /// Pairs of agents overlapping in frame `tick` by more than [`OVERLAP_TOLERANCE`] of the
    /// sum of their radii: (first, second, how far apart they are).
    pub fn overlaps(&self, tick: usize) -> Vec<(usize, usize, f64)> {
        let Some(frame) = self.frames.get(tick) else {
            return Vec::new();
        };
        let reach = self.specs.iter().map(|s| s.radius).fold(0.0, f64::max) * 2.0;
        let grid = Grid::of(frame, reach.max(1e-9));
        let mut out = Vec::new();
        for (i, a) in frame.agents.iter().enumerate() {
            for j in grid.near(a.position, reach) {
                let (Some(b), Some(si), Some(sj)) =
                    (frame.agents.get(j), self.specs.get(i), self.specs.get(j))
                else {
                    continue;
                };
                let d = a.position.distance(b.position);
                if j > i && d < (si.radius + sj.radius) * (1.0 - OVERLAP_TOLERANCE) {
                    out.push((i, j, d));
                }
            }
        }
        out
    }
}

/// A shared list of points, written as a list.
fn points<S: serde::Serializer>(points: &Arc<Vec<Vec2>>, out: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(points.as_slice(), out)
}

/// A number in [0, 1) from two numbers, always the same for the same two (SplitMix64).
fn unit_hash(a: u64, b: u64) -> f64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// The next float above `x`.
fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let bits = x.to_bits();
    f64::from_bits(if x > 0.0 { bits + 1 } else { bits - 1 })
}

/// The agents of a frame in square cells, for their neighbours.
struct Grid {
    cell: f64,
    cells: std::collections::HashMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    fn of(frame: &Frame, cell: f64) -> Self {
        let cell = if cell.is_finite() && cell > 0.0 {
            cell
        } else {
            1.0
        };
        let mut cells: std::collections::HashMap<(i64, i64), Vec<usize>> = Default::default();
        for (k, a) in frame.agents.iter().enumerate() {
            cells
                .entry(Self::key(cell, a.position))
                .or_default()
                .push(k);
        }
        Self { cell, cells }
    }

    fn key(cell: f64, p: Vec2) -> (i64, i64) {
        ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64)
    }

    /// The agents in the cells within `reach` of `p`, by number.
    fn near(&self, p: Vec2, reach: f64) -> impl Iterator<Item = usize> + '_ {
        let (x0, y0) = Self::key(self.cell, p - Vec2::new(reach, reach));
        let (x1, y1) = Self::key(self.cell, p + Vec2::new(reach, reach));
        let mut out: Vec<usize> = Vec::new();
        for x in x0..=x1 {
            for y in y0..=y1 {
                if let Some(list) = self.cells.get(&(x, y)) {
                    out.extend(list);
                }
            }
        }
        out.sort_unstable();
        out.into_iter()
    }
}
