//! The pursuit scene as a library: a mob hunts the kitten on a tile map by line of sight and by
//! a decaying smell trail (after the gdx-ai "pursue with smell trails" article), stepped at a
//! fixed rate with a seeded RNG so every run replays exactly.

pub mod body;
pub mod kitten;
pub mod mob;
pub mod steering;
pub mod trail;

pub use body::{BODY_HALF, Body};
pub use kitten::{Kitten, KittenControl};
pub use mob::{Mob, MobState, Sight, TrailChoice};
pub use trail::{SmellTrail, TrailPoint};

use crate::geom::Vec2;
use crate::grid::{Cell, Tile, TileMap};
use crate::search::Observer;
use serde::{Deserialize, Serialize};

/// Simulation steps per second (fixed, whatever the frame rate).
pub const TICKS_PER_SECOND: u32 = 60;
/// Seconds per step.
pub const DT: f64 = 1.0 / TICKS_PER_SECOND as f64;
/// Seconds a mob stays put at home after a catch.
pub const REST_AFTER_CATCH: f64 = 0.5;

/// The scene's options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PursuitConfig {
    /// Seeds the kitten's autopilot.
    pub seed: u64,
    /// Seconds a trail point lasts.
    pub decay: f64,
    /// Tiles walked between two trail points.
    pub trail_spacing: f64,
    /// Which visible trail point a mob takes.
    pub trail_choice: TrailChoice,
    /// The fix: whiskers steer mobs off walls and tiles stop them. Off, mobs move like the
    /// article's and can end up inside a wall.
    pub avoid_walls: bool,
    /// Mobs keep clear of each other by ORCA ([`crate::crowd::avoidance`]): each mob's
    /// steered velocity is the one it wants, and it takes the velocity nearest that which
    /// meets no other mob within a second. The article's rules are unchanged; off (the
    /// default), mobs run through each other as in the article.
    pub avoid_mobs: bool,
    /// Centre distance at which a mob catches the kitten, tiles.
    pub catch_radius: f64,
    /// Kitten top speed, tiles per second.
    pub kitten_speed: f64,
    /// Kitten acceleration limit, tiles per second².
    pub kitten_acceleration: f64,
    /// Mob top speed, tiles per second.
    pub mob_speed: f64,
    /// Mob acceleration limit, tiles per second².
    pub mob_acceleration: f64,
}

impl Default for PursuitConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            decay: 20.0,
            trail_spacing: 0.5,
            trail_choice: TrailChoice::Freshest,
            avoid_walls: true,
            avoid_mobs: false,
            catch_radius: 0.6,
            kitten_speed: 3.0,
            kitten_acceleration: 20.0,
            mob_speed: 3.5,
            mob_acceleration: 8.0,
        }
    }
}

impl PursuitConfig {
    /// The options with every number within what the simulation is made for (a value that is
    /// not a number takes the default): what a lesson from a stranger or a damaged settings
    /// file gets, so that no option can stall or break the simulation. Times and distances
    /// are in seconds and tiles.
    pub fn clamped(&self) -> Self {
        let default = Self::default();
        let within = |value: f64, low: f64, high: f64, fallback: f64| {
            if value.is_nan() {
                fallback
            } else {
                value.clamp(low, high)
            }
        };
        Self {
            seed: self.seed,
            decay: within(self.decay, 0.1, 3600.0, default.decay),
            trail_spacing: within(self.trail_spacing, 0.05, 10.0, default.trail_spacing),
            trail_choice: self.trail_choice,
            avoid_walls: self.avoid_walls,
            avoid_mobs: self.avoid_mobs,
            catch_radius: within(self.catch_radius, 0.05, 10.0, default.catch_radius),
            kitten_speed: within(self.kitten_speed, 0.1, 50.0, default.kitten_speed),
            kitten_acceleration: within(
                self.kitten_acceleration,
                0.1,
                1000.0,
                default.kitten_acceleration,
            ),
            mob_speed: within(self.mob_speed, 0.1, 50.0, default.mob_speed),
            mob_acceleration: within(self.mob_acceleration, 0.1, 1000.0, default.mob_acceleration),
        }
    }
}

/// Something that happened during a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PursuitEvent {
    /// A mob's state changed (or was first set).
    StateChanged {
        /// Which mob.
        mob: usize,
        /// When, seconds.
        time: f64,
        /// The new state.
        state: MobState,
    },
    /// A mob reached the kitten; it goes home.
    Caught {
        /// Which mob.
        mob: usize,
        /// When, seconds.
        time: f64,
    },
    /// A mob's centre entered a wall or hole tile (only without avoidance).
    EnteredBlockedTile {
        /// Which mob.
        mob: usize,
        /// When, seconds.
        time: f64,
        /// The tile.
        cell: (i64, i64),
    },
}

impl PursuitEvent {
    /// The line of the pursuit's rules (`navlab pseudocode pursuit`) this event comes from,
    /// with the mob and the time.
    pub fn pursuit_line(&self) -> crate::search::pseudocode::LitLine {
        use crate::search::pseudocode::LitLine;
        let (line, mob, time) = match *self {
            PursuitEvent::StateChanged { mob, time, state } => (
                match state {
                    MobState::Chasing => 3,
                    MobState::Tracking => 5,
                    MobState::Lost => 6,
                },
                mob,
                time,
            ),
            PursuitEvent::Caught { mob, time } => (8, mob, time),
            PursuitEvent::EnteredBlockedTile { mob, time, .. } => (7, mob, time),
        };
        LitLine::new(line)
            .with("mob", (mob + 1).to_string())
            .with("t", format!("{time:.2} s"))
    }

    /// One line for the event log.
    pub fn explain(&self) -> String {
        match *self {
            PursuitEvent::StateChanged { mob, time, state } => {
                let what = match state {
                    MobState::Chasing => "sees the kitten: chasing it (rule 1)",
                    MobState::Tracking => {
                        "cannot see the kitten but sees its trail: tracking the scent (rule 2)"
                    }
                    MobState::Lost => "sees neither kitten nor trail: stops, trail lost (rule 3)",
                };
                format!("{time:7.2} s  mob {}: {what}", mob + 1)
            }
            PursuitEvent::Caught { mob, time } => {
                format!(
                    "{time:7.2} s  mob {}: caught the kitten! back home",
                    mob + 1
                )
            }
            PursuitEvent::EnteredBlockedTile { mob, time, cell } => format!(
                "{time:7.2} s  mob {}: walked into the blocked tile {},{}: every ray now starts in it",
                mob + 1,
                cell.0,
                cell.1
            ),
        }
    }
}

/// Why an agent cannot be put somewhere.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlaceError {
    /// Outside the map.
    #[error("{0} is outside the map")]
    OffMap(Vec2),
    /// On a wall or hole.
    #[error("{0} is on a {1} tile")]
    Blocked(Vec2, String),
}

/// Where an agent asked to stand at `p` goes: inside `p`'s tile, moved in just enough that its
/// body overlaps no neighbouring wall or hole. Fails on blocked or off-map tiles.
pub fn placement(map: &TileMap, p: Vec2) -> Result<Vec2, PlaceError> {
    if !p.is_finite() || p.x < 0.0 || p.y < 0.0 {
        return Err(PlaceError::OffMap(p));
    }
    let tile = map
        .get((p.x.floor() as usize, p.y.floor() as usize))
        .ok_or(PlaceError::OffMap(p))?;
    if !tile.is_passable() {
        return Err(PlaceError::Blocked(p, tile.name().to_lowercase()));
    }
    if body::overlaps_blocked(map, p, BODY_HALF) {
        Ok(kitten::inside_tile(p))
    } else {
        Ok(p)
    }
}

/// The world: map, kitten, trail and mobs, and the clock.
#[derive(Debug, Clone)]
pub struct World {
    map: TileMap,
    map_revision: u64,
    /// The options (changes take effect at the next step).
    pub config: PursuitConfig,
    tick: u64,
    /// The kitten.
    pub kitten: Kitten,
    /// Its smell trail.
    pub trail: SmellTrail,
    /// The mobs, in the order added.
    pub mobs: Vec<Mob>,
}

impl World {
    /// A world on `map` with the kitten at `kitten` (see [`placement`]) and no mobs.
    pub fn new(map: TileMap, config: PursuitConfig, kitten: Vec2) -> Result<Self, PlaceError> {
        let at = placement(&map, kitten)?;
        Ok(Self {
            kitten: Kitten::new(
                at,
                config.seed,
                config.kitten_speed,
                config.kitten_acceleration,
            ),
            trail: SmellTrail::new(config.trail_spacing, config.decay),
            map,
            map_revision: 0,
            config,
            tick: 0,
            mobs: Vec::new(),
        })
    }

    /// Adds a mob at `at`; returns its index.
    pub fn add_mob(&mut self, at: Vec2) -> Result<usize, PlaceError> {
        let at = placement(&self.map, at)?;
        self.mobs.push(Mob::new(
            at,
            self.config.mob_speed,
            self.config.mob_acceleration,
        ));
        Ok(self.mobs.len() - 1)
    }

    /// Removes mob `i` (if there is one).
    pub fn remove_mob(&mut self, i: usize) -> Option<Mob> {
        (i < self.mobs.len()).then(|| self.mobs.remove(i))
    }

    /// Drops every mob's visibility cache (the next step tests every ray afresh; benchmarks
    /// use it to measure the cold cost).
    pub fn forget_sight(&mut self) {
        for mob in &mut self.mobs {
            mob.forget_sight();
        }
    }

    /// The map.
    pub fn map(&self) -> &TileMap {
        &self.map
    }

    /// Counts map changes (visibility caches key on it).
    pub fn map_revision(&self) -> u64 {
        self.map_revision
    }

    /// Seconds simulated.
    pub fn time(&self) -> f64 {
        self.tick as f64 * DT
    }

    /// Steps simulated.
    pub fn ticks(&self) -> u64 {
        self.tick
    }

    /// True when a body at `p` would overlap `cell`.
    fn body_overlaps(p: Vec2, cell: Cell) -> bool {
        let (x, y) = (cell.0 as f64, cell.1 as f64);
        p.x + BODY_HALF > x
            && p.x - BODY_HALF < x + 1.0
            && p.y + BODY_HALF > y
            && p.y - BODY_HALF < y + 1.0
    }

    /// Paints a tile while the scene runs. A tile that blocks movement is refused where an
    /// agent stands (it would be buried); returns false then.
    pub fn set_tile(&mut self, cell: Cell, tile: Tile) -> bool {
        if self.map.get(cell).is_none() {
            return false;
        }
        if !tile.is_passable() {
            let bodies = std::iter::once(self.kitten.body.position)
                .chain(self.mobs.iter().map(|m| m.body.position));
            if bodies.into_iter().any(|p| Self::body_overlaps(p, cell)) {
                return false;
            }
        }
        if self.map.set(cell, tile) != Some(tile) {
            self.map_revision += 1;
            self.kitten.replan(&self.map);
        }
        true
    }

    /// Replaces the map (e.g. after undo in the editor). Agents whose body would overlap a
    /// blocked tile move to the nearest free tile centre; returns false when there is none.
    pub fn replace_map(&mut self, map: TileMap) -> bool {
        self.map = map;
        self.map_revision += 1;
        let mut ok = true;
        let mut bodies: Vec<&mut Body> = std::iter::once(&mut self.kitten.body)
            .chain(self.mobs.iter_mut().map(|m| &mut m.body))
            .collect();
        for body in bodies.iter_mut() {
            if body::overlaps_blocked(&self.map, body.position, BODY_HALF) {
                match nearest_free_centre(&self.map, body.position) {
                    Some(p) => {
                        body.position = p;
                        body.velocity = Vec2::default();
                    }
                    None => ok = false,
                }
            }
        }
        for mob in &mut self.mobs {
            if body::overlaps_blocked(&self.map, mob.home, BODY_HALF) {
                mob.home = mob.body.position;
            }
        }
        self.kitten.replan(&self.map);
        ok
    }

    /// One fixed step: the kitten moves and drops scent, old scent fades, then each mob applies
    /// the rules, steers, moves, and may catch the kitten.
    pub fn step<O: Observer<PursuitEvent>>(&mut self, observer: &mut O) {
        self.tick += 1;
        let now = self.time();
        self.trail.decay = self.config.decay;
        self.trail.spacing = self.config.trail_spacing;

        let accel = self.kitten.steer(&self.map);
        self.kitten.body.integrate(&self.map, accel, DT, true);
        self.trail.drop_if_moved(self.kitten.body.position, now);
        self.trail.expire(now);

        let kitten = self.kitten.body.position;
        // With mobs avoiding each other, every mob's velocity is decided from where all of
        // them are before any moves.
        let bodies: Vec<(Vec2, Vec2)> = self
            .mobs
            .iter()
            .map(|m| (m.body.position, m.body.velocity))
            .collect();
        for (i, mob) in self.mobs.iter_mut().enumerate() {
            mob.body.max_speed = self.config.mob_speed;
            mob.body.max_acceleration = self.config.mob_acceleration;
            if let Some(state) = mob.think(
                &self.map,
                self.map_revision,
                kitten,
                &self.trail,
                self.config.trail_choice,
                now,
            ) {
                observer.event(PursuitEvent::StateChanged {
                    mob: i,
                    time: now,
                    state,
                });
            }
            if now < mob.resting_until {
                // Just scored and sent home: it catches its breath (so a kitten standing at a
                // mob's home is not caught sixty times a second).
                continue;
            }
            let was_inside = mob.entered_blocked_tile;
            let others = if self.config.avoid_mobs {
                bodies
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &b)| b)
                    .collect()
            } else {
                Vec::new()
            };
            mob.act_among(&self.map, self.config.avoid_walls, &others, DT);
            if mob.entered_blocked_tile && !was_inside {
                observer.event(PursuitEvent::EnteredBlockedTile {
                    mob: i,
                    time: now,
                    cell: mob::cell_of(mob.body.position),
                });
            }
            if mob.body.position.distance(kitten) <= self.config.catch_radius {
                mob.catches += 1;
                mob.caught_at.get_or_insert(now);
                mob.go_home();
                mob.resting_until = now + REST_AFTER_CATCH;
                observer.event(PursuitEvent::Caught { mob: i, time: now });
            }
        }
    }

    /// Runs whole steps until `seconds` have been simulated in total.
    pub fn run_until<O: Observer<PursuitEvent>>(&mut self, seconds: f64, observer: &mut O) {
        let end = (seconds * TICKS_PER_SECOND as f64).round().max(0.0) as u64;
        while self.tick < end {
            self.step(observer);
        }
    }
}

/// The centre of the passable tile nearest to `p` (breadth-first over tiles) whose body fits.
fn nearest_free_centre(map: &TileMap, p: Vec2) -> Option<Vec2> {
    let start = (
        (p.x.floor().max(0.0) as usize).min(map.width() - 1),
        (p.y.floor().max(0.0) as usize).min(map.height() - 1),
    );
    let mut seen = vec![false; map.cell_count()];
    let mut queue = std::collections::VecDeque::from([start]);
    seen[map.index(start)] = true;
    while let Some((x, y)) = queue.pop_front() {
        if map.is_passable((x, y)) {
            return Some(Vec2::new(x as f64 + 0.5, y as f64 + 0.5));
        }
        let neighbours = [
            (x.wrapping_sub(1), y),
            (x + 1, y),
            (x, y.wrapping_sub(1)),
            (x, y + 1),
        ];
        for n in neighbours {
            if map.contains(n) && !seen[map.index(n)] {
                seen[map.index(n)] = true;
                queue.push_back(n);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoObserver;

    #[test]
    fn clamped_options_keep_the_defaults_and_bound_the_rest() {
        let default = PursuitConfig::default();
        assert_eq!(default.clamped(), default);
        let wild = PursuitConfig {
            decay: f64::NAN,
            trail_spacing: 0.0,
            catch_radius: -1.0,
            kitten_speed: f64::INFINITY,
            kitten_acceleration: 1e300,
            mob_speed: f64::NEG_INFINITY,
            mob_acceleration: 0.0,
            ..default.clone()
        };
        let tamed = wild.clamped();
        assert_eq!(tamed.decay, default.decay);
        assert_eq!(tamed.trail_spacing, 0.05);
        assert_eq!(tamed.catch_radius, 0.05);
        assert_eq!(tamed.kitten_speed, 50.0);
        assert_eq!(tamed.kitten_acceleration, 1000.0);
        assert_eq!(tamed.mob_speed, 0.1);
        assert_eq!(tamed.mob_acceleration, 0.1);
        // At its bounds the simulation still runs, everyone on the map.
        for config in [
            tamed,
            PursuitConfig {
                decay: 3600.0,
                ..wild.clamped()
            },
        ] {
            let map = TileMap::new(12, 9).expect("size");
            let mut world = World::new(map, config, Vec2::new(6.5, 4.5)).expect("placed");
            world.add_mob(Vec2::new(1.5, 1.5)).expect("placed");
            for _ in 0..600 {
                world.step(&mut NoObserver);
            }
            let inside = |p: Vec2| (0.0..=12.0).contains(&p.x) && (0.0..=9.0).contains(&p.y);
            assert!(inside(world.kitten.body.position));
            assert!(world.mobs.iter().all(|m| inside(m.body.position)));
        }
    }
}
