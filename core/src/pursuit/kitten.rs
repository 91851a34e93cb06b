//! The kitten: driven by the keys, by clicks or a route (grid A* paths between the points), or
//! by a seeded autopilot that wanders to random reachable tiles.

use super::body::{BODY_HALF, Body};
use super::steering::arrive;
use crate::geom::Vec2;
use crate::grid::{Connectivity, GridAlgorithm, Heuristic, TileMap, grid_search};
use crate::search::NoObserver;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Who moves the kitten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KittenControl {
    /// It stands still.
    Still,
    /// The arrow keys or WASD.
    Keys,
    /// It walks to the clicked points (or a scripted route), then stands still.
    Route,
    /// Autopilot: it walks to random reachable tiles nearby (seeded).
    #[default]
    Wander,
}

/// How far the autopilot looks for its next goal, tiles.
const WANDER_REACH: i64 = 10;

/// The kitten.
#[derive(Debug, Clone)]
pub struct Kitten {
    /// Its body.
    pub body: Body,
    /// Who moves it.
    pub control: KittenControl,
    /// Direction asked by the keys (any length; zero when none is held).
    pub keys: Vec2,
    /// The path being walked (tile centres, ending on the goal).
    pub path: Vec<Vec2>,
    /// Index of the next path point.
    pub path_index: usize,
    route: VecDeque<Vec2>,
    rng: Pcg64Mcg,
}

impl Kitten {
    /// A kitten at rest at `at`, its autopilot seeded with `seed`.
    pub fn new(at: Vec2, seed: u64, max_speed: f64, max_acceleration: f64) -> Self {
        Self {
            body: Body::new(at, max_speed, max_acceleration),
            control: KittenControl::default(),
            keys: Vec2::default(),
            path: Vec::new(),
            path_index: 0,
            route: VecDeque::new(),
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }

    /// Walks to each point in turn (each leg an A* path on the grid), then stands still.
    /// Points that cannot be reached are skipped.
    pub fn set_route(&mut self, map: &TileMap, points: &[Vec2]) {
        self.control = KittenControl::Route;
        self.route = points.iter().copied().collect();
        self.path.clear();
        self.path_index = 0;
        self.next_leg(map);
    }

    /// Click to move: walks to `goal` if it can be reached; returns false otherwise.
    pub fn go_to(&mut self, map: &TileMap, goal: Vec2) -> bool {
        match plan(map, self.body.position, goal) {
            Some(path) => {
                self.control = KittenControl::Route;
                self.route.clear();
                self.path = path;
                self.path_index = 0;
                true
            }
            None => false,
        }
    }

    /// Plans the current leg again (after the map changed under the path).
    pub fn replan(&mut self, map: &TileMap) {
        if let Some(&goal) = self.path.last() {
            match plan(map, self.body.position, goal) {
                Some(path) => {
                    self.path = path;
                    self.path_index = 0;
                }
                None => self.path.clear(),
            }
        }
    }

    fn next_leg(&mut self, map: &TileMap) {
        while let Some(goal) = self.route.pop_front() {
            if let Some(path) = plan(map, self.body.position, goal) {
                self.path = path;
                self.path_index = 0;
                return;
            }
        }
        self.path.clear();
        self.path_index = 0;
    }

    fn pick_wander_goal(&mut self, map: &TileMap) {
        let (cx, cy) = (
            self.body.position.x.floor() as i64,
            self.body.position.y.floor() as i64,
        );
        for _ in 0..20 {
            let x = cx + self.rng.random_range(-WANDER_REACH..=WANDER_REACH);
            let y = cy + self.rng.random_range(-WANDER_REACH..=WANDER_REACH);
            if (x, y) == (cx, cy) || !map.get_signed(x, y).is_some_and(|t| t.is_passable()) {
                continue;
            }
            let goal = Vec2::new(x as f64 + 0.5, y as f64 + 0.5);
            if let Some(path) = plan(map, self.body.position, goal) {
                self.path = path;
                self.path_index = 0;
                return;
            }
        }
    }

    /// The acceleration for this step.
    pub fn steer(&mut self, map: &TileMap) -> Vec2 {
        let cap = self.body.speed_cap(map);
        match self.control {
            KittenControl::Still => arrive(&self.body, self.body.position, cap, 1.0),
            KittenControl::Keys => {
                let target = self.body.position + self.keys.normalized_or_zero() * 10.0;
                if self.keys.length() < 1e-9 {
                    arrive(&self.body, self.body.position, cap, 1.0)
                } else {
                    arrive(&self.body, target, cap, 0.0)
                }
            }
            KittenControl::Route | KittenControl::Wander => {
                if self.path_index >= self.path.len() {
                    if self.control == KittenControl::Wander {
                        self.pick_wander_goal(map);
                    } else {
                        self.next_leg(map);
                    }
                }
                self.follow(cap)
            }
        }
    }

    fn follow(&mut self, cap: f64) -> Vec2 {
        let last = self.path.len().saturating_sub(1);
        while self.path_index < last
            && self.body.position.distance(self.path[self.path_index]) < 0.3
        {
            self.path_index += 1;
        }
        match self.path.get(self.path_index) {
            Some(&point) if self.path_index == last => {
                if self.body.position.distance(point) < 0.05 && self.body.velocity.length() < 0.05 {
                    self.path_index = self.path.len();
                }
                arrive(&self.body, point, cap, 0.8)
            }
            Some(&point) => arrive(&self.body, point, cap, 0.0),
            None => arrive(&self.body, self.body.position, cap, 1.0),
        }
    }
}

/// The tile centres of an A* path (8-connected, no corner cutting) from `from` to `to`, ending
/// exactly on `to` moved inside its tile far enough that the body fits. `None` when `to`'s tile
/// cannot be reached.
pub fn plan(map: &TileMap, from: Vec2, to: Vec2) -> Option<Vec<Vec2>> {
    let cell = |p: Vec2| -> Option<(usize, usize)> {
        let (x, y) = (p.x.floor(), p.y.floor());
        (x >= 0.0 && y >= 0.0 && p.is_finite()).then_some((x as usize, y as usize))
    };
    let (start, goal) = (cell(from)?, cell(to)?);
    let found = grid_search(
        map,
        start,
        goal,
        GridAlgorithm::AStar {
            heuristic: Heuristic::Octile,
            weight: 1.0,
        },
        Connectivity::Eight,
        &mut NoObserver,
    );
    if found.path.is_empty() {
        return None;
    }
    let mut points: Vec<Vec2> = found
        .path
        .iter()
        .skip(1)
        .map(|&(x, y)| Vec2::new(x as f64 + 0.5, y as f64 + 0.5))
        .collect();
    points.pop();
    points.push(inside_tile(to));
    Some(points)
}

/// `p` moved inside its own tile so that a body centred there lies within the tile.
pub fn inside_tile(p: Vec2) -> Vec2 {
    let margin = BODY_HALF + 1e-3;
    let clamp = |v: f64| {
        let base = v.floor();
        v.clamp(base + margin, base + 1.0 - margin)
    };
    Vec2::new(clamp(p.x), clamp(p.y))
}
