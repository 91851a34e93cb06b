//! A mob and the pursuit article's three rules, checked every steering update: (1) if a
//! Bresenham ray to the kitten crosses no wall, seek the kitten; (2) else seek the first trail
//! point it can see; (3) else stop — the trail is lost.

use super::body::{Body, blocks_movement};
use super::steering::{Whisker, avoid_walls, brake, seek};
use super::trail::{SmellTrail, TrailPoint};
use crate::geom::Vec2;
use crate::grid::TileMap;
use crate::grid::bresenham::has_line_of_sight;
use serde::{Deserialize, Serialize};

/// The radius of a mob's body for the avoidance between mobs: round the corners of its
/// square (0.6 tiles wide), in tiles.
pub const MOB_RADIUS: f64 = 0.43;

/// How far ahead in time a mob keeps clear of the others (seconds).
pub const MOB_TIME_HORIZON: f64 = 1.0;

/// Other mobs farther than this (tiles) do not count for the avoidance.
pub const MOB_NEIGHBOUR_DISTANCE: f64 = 4.0;

/// What a mob is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MobState {
    /// It sees the kitten and runs at it (rule 1).
    Chasing,
    /// It follows a trail point it sees (rule 2).
    Tracking,
    /// It sees neither and stops (rule 3).
    Lost,
}

impl MobState {
    /// The word used in reports.
    pub fn name(self) -> &'static str {
        match self {
            MobState::Chasing => "chasing",
            MobState::Tracking => "tracking",
            MobState::Lost => "lost",
        }
    }
}

/// Which visible trail point rule 2 takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrailChoice {
    /// The most recently dropped point it can see: cuts corners, closes in fastest.
    #[default]
    Freshest,
    /// The oldest point it can see: what the article's loop over its trail does; the mob
    /// retraces the kitten's whole route.
    Oldest,
}

/// What a mob's rays found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sight {
    /// The kitten is in sight.
    Kitten,
    /// This trail point (by id) is the one chosen.
    Trail(u64),
    /// Nothing in sight.
    Nothing,
}

/// The tile containing `p`.
pub fn cell_of(p: Vec2) -> (i64, i64) {
    (p.x.floor() as i64, p.y.floor() as i64)
}

/// The three rules evaluated from scratch (the reference the cached version is tested against).
pub fn look(
    map: &TileMap,
    from: Vec2,
    kitten: Vec2,
    trail: &SmellTrail,
    choice: TrailChoice,
) -> Sight {
    let c = cell_of(from);
    if has_line_of_sight(map, c, cell_of(kitten)) {
        return Sight::Kitten;
    }
    let visible = |p: &&TrailPoint| has_line_of_sight(map, c, cell_of(p.position));
    let found = match choice {
        TrailChoice::Freshest => trail.points().iter().rev().find(visible),
        TrailChoice::Oldest => trail.points().iter().find(visible),
    };
    found.map_or(Sight::Nothing, |p| Sight::Trail(p.seq))
}

/// What a mob learnt about visibility from its current tile. Visibility between two tiles
/// only changes when the map does, so while the mob stays in one tile each trail point is
/// tested once, and the kitten only when it changes tile.
#[derive(Debug, Clone, Default, PartialEq)]
struct SightCache {
    key: Option<((i64, i64), u64, TrailChoice)>,
    kitten: Option<((i64, i64), bool)>,
    /// Freshest: every living point from `scanned_to` down that is newer than `best` is
    /// hidden. Oldest: every living point before `best` (or before `scanned_to`) is hidden.
    scanned_to: u64,
    best: Option<u64>,
}

impl SightCache {
    fn look(
        &mut self,
        map: &TileMap,
        map_revision: u64,
        from: (i64, i64),
        kitten: (i64, i64),
        trail: &SmellTrail,
        choice: TrailChoice,
    ) -> Sight {
        let key = Some((from, map_revision, choice));
        if self.key != key {
            *self = SightCache {
                key,
                kitten: None,
                scanned_to: trail.oldest_seq(),
                best: None,
            };
        }
        let kitten_visible = match self.kitten {
            Some((cell, visible)) if cell == kitten => visible,
            _ => {
                let visible = has_line_of_sight(map, from, kitten);
                self.kitten = Some((kitten, visible));
                visible
            }
        };
        if kitten_visible {
            return Sight::Kitten;
        }
        let visible = |seq: u64| {
            trail
                .get(seq)
                .is_some_and(|p| has_line_of_sight(map, from, cell_of(p.position)))
        };
        let end = trail.next_seq();
        let start = self.scanned_to.max(trail.oldest_seq());
        match choice {
            TrailChoice::Freshest => {
                if self.best.is_some_and(|b| trail.get(b).is_none()) {
                    // Points die oldest first: everything older than it is gone too.
                    self.best = None;
                }
                if let Some(seq) = (start..end).rev().find(|&s| visible(s)) {
                    self.best = Some(seq);
                }
                self.scanned_to = end;
            }
            TrailChoice::Oldest => {
                if self.best.is_none_or(|b| trail.get(b).is_none()) {
                    self.best = (start..end).find(|&s| visible(s));
                    self.scanned_to = self.best.map_or(end, |b| b + 1);
                }
            }
        }
        self.best.map_or(Sight::Nothing, Sight::Trail)
    }
}

/// A mob.
#[derive(Debug, Clone, PartialEq)]
pub struct Mob {
    /// Its body.
    pub body: Body,
    /// Where it started; it goes back there after each catch.
    pub home: Vec2,
    /// What it did at the last update.
    pub state: MobState,
    /// What its rays found at the last update.
    pub sight: Sight,
    /// The point it steered towards at the last update.
    pub target: Option<Vec2>,
    /// Times it caught the kitten.
    pub catches: u32,
    /// Time of the first catch, seconds.
    pub caught_at: Option<f64>,
    /// First time it lost the trail, seconds.
    pub lost_at: Option<f64>,
    /// Every change of state, with its time (the first entry is its state at the start).
    pub timeline: Vec<(f64, MobState)>,
    /// True once its centre has been inside a wall or hole tile (only without avoidance).
    pub entered_blocked_tile: bool,
    /// The avoidance whiskers of the last update (empty without avoidance).
    pub whiskers: Vec<Whisker>,
    /// Simulation time until which it rests at home after a catch.
    pub resting_until: f64,
    cache: SightCache,
}

impl Mob {
    /// A mob at rest at `home`.
    pub fn new(home: Vec2, max_speed: f64, max_acceleration: f64) -> Self {
        Self {
            body: Body::new(home, max_speed, max_acceleration),
            home,
            state: MobState::Lost,
            sight: Sight::Nothing,
            target: None,
            catches: 0,
            caught_at: None,
            lost_at: None,
            timeline: Vec::new(),
            entered_blocked_tile: false,
            whiskers: Vec::new(),
            resting_until: 0.0,
            cache: SightCache::default(),
        }
    }

    /// Applies the three rules; returns the new state when it changed (or on the first call).
    pub fn think(
        &mut self,
        map: &TileMap,
        map_revision: u64,
        kitten: Vec2,
        trail: &SmellTrail,
        choice: TrailChoice,
        now: f64,
    ) -> Option<MobState> {
        let from = cell_of(self.body.position);
        self.sight = self
            .cache
            .look(map, map_revision, from, cell_of(kitten), trail, choice);
        let (state, target) = match self.sight {
            Sight::Kitten => (MobState::Chasing, Some(kitten)),
            Sight::Trail(seq) => (MobState::Tracking, trail.get(seq).map(|p| p.position)),
            Sight::Nothing => (MobState::Lost, None),
        };
        self.target = target;
        let changed = self.timeline.is_empty() || state != self.state;
        self.state = state;
        if !changed {
            return None;
        }
        self.timeline.push((now, state));
        if state == MobState::Lost && self.lost_at.is_none() {
            self.lost_at = Some(now);
        }
        Some(state)
    }

    /// Steers by the state found by [`Mob::think`] and moves one step. With `avoidance` the
    /// whiskers are blended with the pursuit and tiles stop the body; without, the mob moves
    /// like the article's, straight through anything.
    pub fn act(&mut self, map: &TileMap, avoidance: bool, dt: f64) {
        self.act_among(map, avoidance, &[], dt);
    }

    /// [`Mob::act`], keeping clear of `others` (position and velocity of each other mob, as
    /// they were before this step) by ORCA: the velocity the steering would give is the one
    /// the mob wants, and it takes the velocity nearest that which meets none of them within
    /// [`MOB_TIME_HORIZON`] (its acceleration then changed to reach it). Mobs farther than
    /// [`MOB_NEIGHBOUR_DISTANCE`] do not count.
    pub fn act_among(&mut self, map: &TileMap, avoidance: bool, others: &[(Vec2, Vec2)], dt: f64) {
        let pursuit = match self.target {
            Some(target) => seek(&self.body, target),
            None => brake(&self.body, dt),
        };
        let acceleration = if avoidance && self.target.is_some() {
            let (push, whiskers) = avoid_walls(map, &self.body, pursuit);
            // Reuses the vector: this runs for every mob at every step.
            self.whiskers.clear();
            self.whiskers.extend(whiskers);
            // Avoidance counts double, so near a wall it wins over the pursuit.
            pursuit + push * 2.0
        } else {
            self.whiskers.clear();
            pursuit
        };
        let acceleration = self.clear_of(others, acceleration, dt);
        self.body.integrate(map, acceleration, dt, avoidance);
        let (x, y) = cell_of(self.body.position);
        if blocks_movement(map, x, y) {
            self.entered_blocked_tile = true;
        }
    }

    /// The acceleration that takes the mob to the velocity ORCA allows nearest the one
    /// `acceleration` would give, among `others` (unchanged with none near).
    fn clear_of(&self, others: &[(Vec2, Vec2)], acceleration: Vec2, dt: f64) -> Vec2 {
        use crate::crowd::avoidance::{Avoidance, AvoidanceSettings, Body};
        let me = self.body.position;
        let mut near: Vec<(f64, usize, Body)> = others
            .iter()
            .enumerate()
            .filter_map(|(k, &(position, velocity))| {
                let d = position.distance(me);
                // Two mobs at one point cannot be told apart (the avoidance would turn them
                // at random): they pass through each other.
                (d <= MOB_NEIGHBOUR_DISTANCE && d > 0.0).then_some((
                    d,
                    k,
                    Body {
                        position,
                        velocity,
                        radius: MOB_RADIUS,
                    },
                ))
            })
            .collect();
        if near.is_empty() || dt <= 0.0 || !dt.is_finite() {
            return acceleration;
        }
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let neighbours: Vec<(usize, Body)> = near.into_iter().map(|(_, k, b)| (k, b)).collect();
        let mut wanted = self.body.velocity + acceleration * dt;
        let top = self.body.max_speed;
        if wanted.length() > top && wanted.length() > 0.0 {
            wanted = wanted * (top / wanted.length());
        }
        let avoidance = Avoidance {
            body: Body {
                position: me,
                velocity: self.body.velocity,
                radius: MOB_RADIUS,
            },
            neighbours: &neighbours,
            walls: &[],
            wall_margin: MOB_RADIUS,
            max_speed: top,
            time_step: dt,
            settings: AvoidanceSettings {
                time_horizon: MOB_TIME_HORIZON,
                ..AvoidanceSettings::default()
            },
        };
        let (velocity, _) = avoidance.decide(wanted);
        (velocity - self.body.velocity) * (1.0 / dt)
    }

    /// Sends the mob home at rest and forgets what it saw (after a catch).
    pub fn go_home(&mut self) {
        self.body.position = self.home;
        self.body.velocity = Vec2::default();
        self.cache = SightCache::default();
    }

    /// Forgets cached visibility (after the trail or the options were replaced).
    pub fn forget_sight(&mut self) {
        self.cache = SightCache::default();
    }
}
