//! D\* Lite in the lab: an agent walks its path across the map while the user paints, and each
//! edit is repaired from where the agent stands rather than searched again from scratch. The
//! repair's steps become the search shown (each cell made inconsistent, each taken from the
//! open list, with its key), beside what a fresh A\* from the agent would have expanded.

use super::jobs::{CappedRecorder, SearchDone};
use crate::grid::dstar_lite::DStarLite;
use crate::grid::{Cell, Connectivity, GridAlgorithm, GridPath, TileMap};
use crate::search::WorkLimit;

/// The largest map the lab keeps a D\* Lite search for (g and rhs of every cell, worked out on
/// the window's thread): 512 K cells, about 20 MB.
pub const WALK_MAX_CELLS: usize = 1 << 19;

/// The agent's pace: cells a second.
pub const STEPS_PER_SECOND: f64 = 4.0;

/// What the last repair did, against a fresh A\* from the same cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RepairReport {
    /// Cells whose tile changed.
    pub edited: usize,
    /// Cells D\* Lite took from its open list (made consistent, or raised).
    pub expanded: usize,
    /// Look-aheads (rhs) it worked out again.
    pub updated: usize,
    /// Cells a fresh A\* (octile estimate) from the agent to the goal expands on the new map.
    pub fresh_astar: usize,
    /// Where the agent stood.
    pub from: Cell,
    /// The repaired path's cost (`None`: no path).
    pub cost: Option<f64>,
}

/// An agent walking a path D\* Lite keeps up to date.
#[derive(Debug, Clone)]
pub struct DStarWalk {
    search: DStarLite,
    /// True while the agent walks (it waits where no path leads on).
    pub walking: bool,
    /// Seconds since its last step.
    since_step: f64,
    /// The cells it has stood on, from the start.
    trail: Vec<Cell>,
    /// What the last repair did (`None` before the first edit).
    pub last_repair: Option<RepairReport>,
}

impl DStarWalk {
    /// An agent at `start` with its path to `goal` worked out; `None` when the map is larger than
    /// [`WALK_MAX_CELLS`] or either cell is off it.
    pub fn new(map: &TileMap, start: Cell, goal: Cell, connectivity: Connectivity) -> Option<Self> {
        if map.cell_count() > WALK_MAX_CELLS {
            return None;
        }
        let mut search = DStarLite::new(map, start, goal, connectivity)?;
        search.compute();
        Some(Self {
            search,
            walking: false,
            since_step: 0.0,
            trail: vec![start],
            last_repair: None,
        })
    }

    /// Where the agent stands.
    pub fn agent(&self) -> Cell {
        self.search.start()
    }

    /// The cells it has stood on, from the start, the agent's cell last.
    pub fn trail(&self) -> &[Cell] {
        &self.trail
    }

    /// Its path on to the goal, with its cost (`None`: none).
    pub fn path(&self) -> Option<(Vec<Cell>, f64)> {
        self.search.path()
    }

    /// True once the agent stands on the goal.
    pub fn arrived(&self) -> bool {
        self.search.start() == self.search.goal()
    }

    /// True when the map is the one the search knows but for its tiles — the same size and tile
    /// costs: an edit it can repair.
    pub fn can_repair(&self, map: &TileMap) -> bool {
        let known = self.search.map();
        known.width() == map.width() && known.height() == map.height() && known.costs == map.costs
    }

    /// Time passes: the agent takes the steps due at [`STEPS_PER_SECOND`] while walking, and
    /// stops at the goal. Returns true when it moved.
    pub fn tick(&mut self, dt: f64) -> bool {
        if !self.walking {
            return false;
        }
        // A long frame (a window hidden a while) does not make it jump ahead.
        self.since_step += dt.clamp(0.0, 0.5);
        let mut moved = false;
        while self.since_step >= 1.0 / STEPS_PER_SECOND {
            self.since_step -= 1.0 / STEPS_PER_SECOND;
            if !self.step() {
                // No way on: it waits (an edit may open one).
                self.since_step = 0.0;
                break;
            }
            moved = true;
        }
        if self.arrived() {
            self.walking = false;
        }
        moved
    }

    /// One step along the path; false at the goal or where there is no path.
    pub fn step(&mut self) -> bool {
        if self.arrived() {
            return false;
        }
        let Some(next) = self.path().and_then(|(path, _)| path.get(1).copied()) else {
            return false;
        };
        self.search.move_to(next);
        self.trail.push(next);
        true
    }

    /// Takes the tiles of `map` (the same size) that differ from the ones the search knows and
    /// repairs the path from the agent, recording the steps as a search to show; the report of
    /// what it did is kept in [`last_repair`](Self::last_repair). `work_limit` bounds the
    /// repair as it bounds the lab's searches.
    pub fn repair(&mut self, map: &TileMap, work_limit: u64) -> SearchDone {
        let mut recorder = CappedRecorder::new();
        let changed: Vec<Cell> = (0..map.cell_count())
            .filter(|&i| map.tiles().get(i) != self.search.map().tiles().get(i))
            .map(|i| map.cell(i))
            .collect();
        for &cell in &changed {
            if let Some(tile) = map.get(cell) {
                self.search.set_tile_with(cell, tile, &mut recorder);
            }
        }
        let repaired = self
            .search
            .compute_to_end(&mut WorkLimit::new(&mut recorder, work_limit));
        let cost = repaired.path.as_ref().map(|(_, cost)| *cost);
        self.last_repair = Some(RepairReport {
            edited: changed.len(),
            expanded: repaired.work.expanded,
            updated: repaired.work.updated,
            fresh_astar: self.search.fresh_astar_expansions(work_limit),
            from: self.agent(),
            cost,
        });
        let result = GridPath {
            outcome: repaired.outcome,
            path: repaired.path.map(|(path, _)| path).unwrap_or_default(),
            cost: cost.unwrap_or(f64::INFINITY),
            expanded: repaired.work.expanded,
            peak_memory: self.search.valued_cells(),
        };
        recorder.done(result, GridAlgorithm::DStarLite)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;
    use crate::search::{SearchEvent, SearchOutcome};

    /// A wall across the path ahead of the walking agent: the repaired path goes round it from
    /// where the agent stands, costs what a fresh A* finds, and the repair is recorded with its
    /// edit first and its end last.
    #[test]
    fn a_wall_ahead_is_repaired_from_where_the_agent_stands() {
        let map =
            TileMap::from_ascii("..........\n..........\n..........\n..........").expect("a map");
        let mut walk = DStarWalk::new(&map, (0, 1), (9, 1), Connectivity::Eight).expect("small");
        walk.walking = true;
        assert!(walk.tick(0.5), "two steps at four a second");
        assert_eq!(walk.trail().len(), 3);
        let agent = walk.agent();
        let mut edited = map.clone();
        for y in 0..3 {
            edited.set((5, y), Tile::Wall);
        }
        let done = walk.repair(&edited, 0);
        assert!(matches!(
            done.events.first(),
            Some(SearchEvent::Edited { .. })
        ));
        assert!(matches!(
            done.events.last(),
            Some(SearchEvent::Finished {
                outcome: SearchOutcome::Found,
                ..
            })
        ));
        let report = walk.last_repair.expect("a report");
        assert_eq!((report.edited, report.from), (3, agent));
        let fresh = edited.path(agent, (9, 1));
        assert!((done.result.cost - fresh.cost).abs() < 1e-9);
        assert_eq!(done.result.path.first(), Some(&agent));
        assert!(!done.result.path.iter().any(|&(x, y)| x == 5 && y < 3));
        // A long frame does not make it jump ahead: two steps at most.
        let before = walk.trail().len();
        assert!(walk.tick(100.0));
        assert_eq!(walk.trail().len(), before + 2);
        // It walks on round the wall to the goal.
        for _ in 0..40 {
            walk.tick(0.25);
        }
        assert!(walk.arrived() && !walk.walking);
        assert_eq!(walk.trail().last(), Some(&(9, 1)));
    }

    /// Walled in, the agent waits; opened again, it goes on.
    #[test]
    fn with_no_way_on_the_agent_waits() {
        let map = TileMap::from_ascii(".....\n.....\n.....").expect("a map");
        let mut walk = DStarWalk::new(&map, (0, 1), (4, 1), Connectivity::Eight).expect("small");
        let mut walled = map.clone();
        for y in 0..3 {
            walled.set((2, y), Tile::Wall);
        }
        let done = walk.repair(&walled, 0);
        assert_eq!(done.result.outcome, SearchOutcome::Unreachable);
        walk.walking = true;
        assert!(!walk.tick(1.0));
        assert_eq!(walk.agent(), (0, 1));
        let done = walk.repair(&map, 0);
        assert_eq!(done.result.outcome, SearchOutcome::Found);
        assert!(walk.tick(1.0));
    }
}
