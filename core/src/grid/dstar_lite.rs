//! D\* Lite (Koenig & Likhachev, AAAI 2002): a cheapest path kept up to date while the map
//! changes under an agent walking it.
//!
//! The search runs backward, from the goal: `g(s)` is the cost from cell `s` to the goal as
//! last worked out, and `rhs(s)` the one-step look-ahead, the least over the moves out of `s`
//! of the step's cost plus `g` of where it lands (0 at the goal). A cell with `g ≠ rhs` is
//! *inconsistent* and waits in the open list under the key
//! `[min(g, rhs) + h(start, s) + km; min(g, rhs)]`, smallest first. Working out the path takes
//! inconsistent cells until the agent's own cell is consistent and no key in the list is below
//! its key: an over-consistent cell (`g > rhs`, it got cheaper) takes `g = rhs` and tells the
//! cells that move into it; an under-consistent one (`g < rhs`, it got dearer) forgets its `g`
//! (∞) and is looked at again, with those cells.
//!
//! After an edit only the cells whose moves changed are brought up to date, and the search
//! takes only the inconsistency that spreads from them — usually far fewer cells than a new
//! A\* would expand. The agent's moves are folded into `km` (the heuristic's shift since the
//! start), so keys already in the list stay lower bounds without being worked out again.
//! LPA\* is the same with a fixed start (`km` stays 0).
//!
//! Moves and costs are the grid's ([`TileMap::for_each_move`]): eight directions (or four),
//! no corner cutting, entering a tile costing its tile cost (√2 of it diagonally). The
//! estimate is the octile (or Manhattan) distance times the cheapest tile cost.

use super::map::{Cell, Connectivity, TileMap};
use super::tiles::Tile;
use crate::search::{NoObserver, Observer, SearchEvent, SearchOutcome};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A key of the open list: compared by its first part, then its second.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Key(f64, f64);

impl Key {
    /// True when this key is below `other`: by the first part, or, where the first parts are
    /// equal, the second. Parts within a rounding error of each other (1e-9 of their size) are
    /// equal: the same sum taken in another order (`g + h + km`) can differ in its last bit, and
    /// a cell whose key should tie with the agent's on the first part and win on the second was
    /// left inconsistent, its stale `g` on the path.
    fn less(self, other: Key) -> bool {
        let near = |a: f64, b: f64| {
            a == b
                || (a.is_finite()
                    && b.is_finite()
                    && (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0))
        };
        if near(self.0, other.0) {
            self.1 < other.1 && !near(self.1, other.1)
        } else {
            self.0 < other.0
        }
    }
}

/// An open-list entry (a max-heap of reversed keys); `stamp` tells an entry left behind by a
/// later insertion of the same cell.
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: Key,
    stamp: u32,
    node: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // Smallest key first, then the cell inserted last.
        other
            .key
            .0
            .total_cmp(&self.key.0)
            .then(other.key.1.total_cmp(&self.key.1))
            .then(self.stamp.cmp(&other.stamp))
    }
}

/// What one working-out of the path did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Repair {
    /// Cells taken from the open list and made consistent (or reset), counted each time.
    pub expanded: usize,
    /// Cells whose `rhs` was worked out again (by the edits before it, too).
    pub updated: usize,
    /// True when the observer asked it to stop ([`Observer::stop`]) before the path was
    /// worked out.
    pub gave_up: bool,
}

/// D\* Lite on a tile map: the agent's cell, the goal, and every cell's `g` and `rhs`.
///
/// ```
/// use navlab_core::grid::dstar_lite::DStarLite;
/// use navlab_core::grid::{Connectivity, Tile};
///
/// let map = navlab_core::grid::movingai::parse_map(
///     b"type octile\nheight 3\nwidth 5\nmap\n.....\n.....\n.....\n",
///     "example.map",
/// )?;
/// let mut search = DStarLite::new(&map, (0, 1), (4, 1), Connectivity::Eight).expect("on the map");
/// search.compute();
/// assert_eq!(search.path().map(|(_, cost)| cost), Some(4.0));
/// // The agent takes a step; a wall goes up in front of it; the path is repaired: round the
/// // wall without cutting its corners, 3 steps and a diagonal.
/// search.move_to((1, 1));
/// search.set_tile((2, 1), Tile::Wall);
/// let repair = search.compute();
/// let (path, cost) = search.path().expect("a way round");
/// assert_eq!(path.first(), Some(&(1, 1)));
/// assert!((cost - (3.0 + std::f64::consts::SQRT_2)).abs() < 1e-12);
/// assert!(repair.expanded > 0);
/// # Ok::<(), navlab_core::grid::MapError>(())
/// ```
#[derive(Debug, Clone)]
pub struct DStarLite {
    map: TileMap,
    connectivity: Connectivity,
    start: usize,
    goal: usize,
    /// Where the agent stood when the map last changed (what `km` has been shifted to).
    last: usize,
    km: f64,
    g: Vec<f64>,
    rhs: Vec<f64>,
    /// The stamp of a cell's entry in the open list (0: not in it).
    queued: Vec<u32>,
    open: BinaryHeap<Entry>,
    stamp: u32,
    scale: f64,
    /// True once the goal's entry in the open list has been reported to an observer.
    reported_goal: bool,
    /// Look-aheads worked out by edits since the last working-out (counted in its repair).
    edit_updates: usize,
}

impl DStarLite {
    /// A D\* Lite search on (a copy of) `map` from `start` to `goal`, not yet worked out (call
    /// [`compute`](Self::compute)). `None` when either cell is off the map.
    pub fn new(map: &TileMap, start: Cell, goal: Cell, connectivity: Connectivity) -> Option<Self> {
        if map.get(start).is_none() || map.get(goal).is_none() {
            return None;
        }
        let n = map.cell_count();
        let (s, t) = (map.index(start), map.index(goal));
        let mut search = Self {
            map: map.clone(),
            connectivity,
            start: s,
            goal: t,
            last: s,
            km: 0.0,
            g: vec![f64::INFINITY; n],
            rhs: vec![f64::INFINITY; n],
            queued: vec![0; n],
            open: BinaryHeap::new(),
            stamp: 0,
            scale: map.costs.cheapest(),
            reported_goal: false,
            edit_updates: 0,
        };
        if map.is_passable(goal) {
            search.rhs[t] = 0.0;
            let key = search.key(t);
            search.push(t, key);
        }
        Some(search)
    }

    /// The map as the search knows it.
    pub fn map(&self) -> &TileMap {
        &self.map
    }

    /// The agent's cell.
    pub fn start(&self) -> Cell {
        self.map.cell(self.start)
    }

    /// The goal.
    pub fn goal(&self) -> Cell {
        self.map.cell(self.goal)
    }

    /// `g` of `cell`: its cost to the goal as last worked out (∞: none known).
    pub fn g(&self, cell: Cell) -> f64 {
        self.g
            .get(self.map.index(cell))
            .copied()
            .unwrap_or(f64::INFINITY)
    }

    /// `rhs` of `cell`: its one-step look-ahead.
    pub fn rhs(&self, cell: Cell) -> f64 {
        self.rhs
            .get(self.map.index(cell))
            .copied()
            .unwrap_or(f64::INFINITY)
    }

    /// The cells waiting in the open list (inconsistent), in no order.
    pub fn inconsistent(&self) -> Vec<Cell> {
        (0..self.queued.len())
            .filter(|&i| self.queued[i] != 0)
            .map(|i| self.map.cell(i))
            .collect()
    }

    /// How many cells have a value (a finite `g` or `rhs`): the memory the search uses.
    pub fn valued_cells(&self) -> usize {
        self.g
            .iter()
            .zip(&self.rhs)
            .filter(|(g, rhs)| g.is_finite() || rhs.is_finite())
            .count()
    }

    /// The connectivity searched with.
    pub fn connectivity(&self) -> Connectivity {
        self.connectivity
    }

    fn estimate(&self, a: usize, b: usize) -> f64 {
        let w = self.map.width();
        let (dx, dy) = (
            (a % w).abs_diff(b % w) as f64,
            (a / w).abs_diff(b / w) as f64,
        );
        let d = match self.connectivity {
            Connectivity::Eight => dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy),
            Connectivity::Four => dx + dy,
        };
        self.scale * d
    }

    fn key(&self, s: usize) -> Key {
        let m = self.g[s].min(self.rhs[s]);
        Key(m + self.estimate(self.start, s) + self.km, m)
    }

    fn push(&mut self, s: usize, key: Key) {
        self.stamp = self.stamp.wrapping_add(1).max(1);
        self.queued[s] = self.stamp;
        self.open.push(Entry {
            key,
            stamp: self.stamp,
            node: s as u32,
        });
    }

    /// The smallest key in the open list, dropping entries left behind.
    fn top_key(&mut self) -> Option<Key> {
        while let Some(top) = self.open.peek() {
            if self.queued[top.node as usize] == top.stamp {
                return Some(top.key);
            }
            self.open.pop();
        }
        None
    }

    /// `rhs` worked out again for `u`, and `u` put in the open list or taken out of it as it
    /// is inconsistent or not (reported to `observer` when it goes in, or comes out).
    fn update<O: Observer<SearchEvent>>(
        &mut self,
        u: usize,
        repair: &mut Repair,
        observer: &mut O,
    ) {
        repair.updated += 1;
        let passable = self.map.tiles().get(u).is_some_and(|t| t.is_passable());
        let mut best = f64::INFINITY;
        if u == self.goal {
            if passable {
                best = 0.0;
            }
        } else if passable {
            let g = &self.g;
            self.map.for_each_move(u, self.connectivity, |next, cost| {
                best = best.min(cost + g[next]);
            });
        }
        self.rhs[u] = best;
        let was_queued = self.queued[u] != 0;
        self.queued[u] = 0;
        if self.g[u] != self.rhs[u] {
            let key = self.key(u);
            self.push(u, key);
            self.report_key(u, key, false, observer);
        } else if was_queued {
            observer.event(SearchEvent::Consistent {
                node: u,
                g: self.g[u],
            });
        }
    }

    fn report_key<O: Observer<SearchEvent>>(
        &self,
        u: usize,
        key: Key,
        stale: bool,
        observer: &mut O,
    ) {
        observer.event(SearchEvent::Inconsistent {
            node: u,
            g: self.g[u],
            rhs: self.rhs[u],
            k1: key.0,
            k2: key.1,
            stale,
        });
    }

    /// The cells with a move into `u`.
    fn predecessors(&self, u: usize, out: &mut Vec<usize>) {
        out.clear();
        self.map
            .for_each_move_into(u, self.connectivity, |previous, _| out.push(previous));
    }

    /// Works the path out: takes inconsistent cells until the agent's cell is consistent and no
    /// key is below its own. Returns what it did.
    pub fn compute(&mut self) -> Repair {
        self.compute_with(&mut NoObserver)
    }

    /// [`compute`](Self::compute), reporting each step to `observer`: a cell taken that got
    /// cheaper as [`SearchEvent::Expanded`] (`g` its new cost to the goal, `g + h` its key's
    /// first part), one that got dearer as [`SearchEvent::Raised`], each cell put in the open
    /// list (again) as [`SearchEvent::Inconsistent`] with its key, each taken out without being
    /// expanded as [`SearchEvent::Consistent`]. The first call reports the goal going in.
    /// Stops early, with [`Repair::gave_up`], when the observer says so after an expansion.
    pub fn compute_with<O: Observer<SearchEvent>>(&mut self, observer: &mut O) -> Repair {
        let mut repair = Repair {
            updated: std::mem::take(&mut self.edit_updates),
            ..Repair::default()
        };
        if !self.reported_goal {
            self.reported_goal = true;
            if self.queued[self.goal] != 0 {
                let key = self.key(self.goal);
                self.report_key(self.goal, key, false, observer);
            }
        }
        let mut around = Vec::with_capacity(8);
        while let Some(top) = self.top_key() {
            let start_key = self.key(self.start);
            if !top.less(start_key) && self.rhs[self.start] == self.g[self.start] {
                break;
            }
            let Some(entry) = self.open.pop() else {
                break;
            };
            let u = entry.node as usize;
            self.queued[u] = 0;
            let fresh = self.key(u);
            if entry.key.less(fresh) {
                self.push(u, fresh);
                self.report_key(u, fresh, true, observer);
                continue;
            }
            repair.expanded += 1;
            self.predecessors(u, &mut around);
            if self.g[u] > self.rhs[u] {
                self.g[u] = self.rhs[u];
                observer.event(SearchEvent::Expanded {
                    node: u,
                    g: self.g[u],
                    h: self.estimate(self.start, u) + self.km,
                });
            } else {
                observer.event(SearchEvent::Raised {
                    node: u,
                    g: self.g[u],
                });
                self.g[u] = f64::INFINITY;
                around.push(u);
            }
            for &s in &around {
                self.update(s, &mut repair, observer);
            }
            if observer.stop() {
                repair.gave_up = true;
                break;
            }
        }
        repair
    }

    /// The agent steps to `cell` (normally on its path): nothing is worked out again; the next
    /// edit shifts the keys (`km`) by the distance from where the agent stood at the last one.
    pub fn move_to(&mut self, cell: Cell) {
        if self.map.get(cell).is_some() {
            self.start = self.map.index(cell);
        }
    }

    /// `cell` becomes `tile`: the cells whose moves that changes (the cell and its eight
    /// neighbours, whose diagonal steps past it may open or close) are brought up to date.
    /// Call [`compute`](Self::compute) to repair the path. Returns false (and changes nothing)
    /// for a cell off the map or no change.
    pub fn set_tile(&mut self, cell: Cell, tile: Tile) -> bool {
        self.set_tile_with(cell, tile, &mut NoObserver)
    }

    /// [`set_tile`](Self::set_tile), reporting the edit ([`SearchEvent::Edited`]) and the cells
    /// it puts in the open list or takes out of it to `observer`.
    pub fn set_tile_with<O: Observer<SearchEvent>>(
        &mut self,
        cell: Cell,
        tile: Tile,
        observer: &mut O,
    ) -> bool {
        if self.map.get(cell).is_none_or(|t| t == tile) {
            return false;
        }
        observer.event(SearchEvent::Edited {
            node: self.map.index(cell),
        });
        self.km += self.estimate(self.last, self.start);
        self.last = self.start;
        self.map.set(cell, tile);
        let mut repair = Repair::default();
        let (x, y) = (cell.0 as i64, cell.1 as i64);
        for dy in -1..=1 {
            for dx in -1..=1 {
                if let Some(next) = self
                    .map
                    .get_signed(x + dx, y + dy)
                    .map(|_| self.map.index(((x + dx) as usize, (y + dy) as usize)))
                {
                    self.update(next, &mut repair, observer);
                }
            }
        }
        self.edit_updates += repair.updated;
        true
    }

    /// The path from the agent's cell to the goal by `g` (each step to the neighbour with the
    /// least step cost plus `g`, the first in move order among equals), and its cost; `None`
    /// when the agent's `g` is ∞ (no path).
    pub fn path(&self) -> Option<(Vec<Cell>, f64)> {
        if !self.g[self.start].is_finite() {
            return None;
        }
        let mut path = vec![self.map.cell(self.start)];
        let mut at = self.start;
        let mut cost = 0.0;
        while at != self.goal {
            let mut best: Option<(f64, usize, f64)> = None;
            self.map.for_each_move(at, self.connectivity, |next, step| {
                let through = step + self.g[next];
                if best.is_none_or(|(b, _, _)| through < b) {
                    best = Some((through, next, step));
                }
            });
            let (through, next, step) = best?;
            if !through.is_finite() || path.len() > self.g.len() {
                return None;
            }
            cost += step;
            at = next;
            path.push(self.map.cell(at));
        }
        Some((path, cost))
    }
}

/// One D\* Lite search from `start` to `goal` on `map`, reported to `observer` and ended with
/// [`SearchEvent::Finished`]: its first working-out, a backward search from the goal that stops
/// once the start is consistent (what the lab shows before any edit). Node ids are
/// `y * width + x`; `expanded` counts the cells taken from the open list, `peak_memory` the
/// cells given a value.
pub fn dstar_lite_search<O: Observer<SearchEvent>>(
    map: &TileMap,
    start: Cell,
    goal: Cell,
    connectivity: Connectivity,
    observer: &mut O,
) -> crate::search::SearchResult {
    use crate::search::SearchResult;
    let Some(mut search) = DStarLite::new(map, start, goal, connectivity) else {
        let none = SearchResult::not_found();
        observer.event(SearchEvent::Finished {
            outcome: none.outcome,
            cost: none.cost,
        });
        return none;
    };
    let repaired = search.compute_to_end(observer);
    let (path, cost) = repaired.path.unwrap_or_default();
    SearchResult {
        outcome: repaired.outcome,
        path: path.iter().map(|&c| map.index(c)).collect(),
        cost: if repaired.outcome == SearchOutcome::Found {
            cost
        } else {
            f64::INFINITY
        },
        expanded: repaired.work.expanded,
        peak_memory: search.valued_cells(),
    }
}

/// A working-out to its end: what it did, how it ended and the path it left.
#[derive(Debug, Clone, PartialEq)]
pub struct Repaired {
    /// What it did.
    pub work: Repair,
    /// Found, unreachable (the agent's `g` is ∞) or over budget (the observer stopped it).
    pub outcome: SearchOutcome,
    /// The path from the agent and its cost, when found.
    pub path: Option<(Vec<Cell>, f64)>,
}

impl DStarLite {
    /// [`compute_with`](Self::compute_with), then the path, ending the report with
    /// [`SearchEvent::Finished`].
    pub fn compute_to_end<O: Observer<SearchEvent>>(&mut self, observer: &mut O) -> Repaired {
        let work = self.compute_with(observer);
        let path = self.path().filter(|_| !work.gave_up);
        let outcome = match (&path, work.gave_up) {
            (_, true) => SearchOutcome::BudgetExceeded,
            (Some(_), false) => SearchOutcome::Found,
            (None, false) => SearchOutcome::Unreachable,
        };
        let cost = path.as_ref().map_or(f64::INFINITY, |(_, cost)| *cost);
        observer.event(SearchEvent::Finished { outcome, cost });
        Repaired {
            work,
            outcome,
            path,
        }
    }

    /// The cells a fresh A\* (the same moves, the octile or Manhattan estimate) from the agent
    /// to the goal expands on the map as the search knows it, giving up after `work_limit`
    /// visits (0: never): what a repair is set beside.
    pub fn fresh_astar_expansions(&self, work_limit: u64) -> usize {
        let heuristic = match self.connectivity {
            Connectivity::Eight => super::Heuristic::Octile,
            Connectivity::Four => super::Heuristic::Manhattan,
        };
        super::grid_search(
            &self.map,
            self.start(),
            self.goal(),
            super::GridAlgorithm::AStar {
                heuristic,
                weight: 1.0,
            },
            self.connectivity,
            &mut crate::search::WorkLimit::new(&mut NoObserver, work_limit),
        )
        .expanded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{GridAlgorithm, grid_search};
    use crate::search::{NoObserver, SearchOutcome};

    /// The agent two steps along, a hole put on its path: the cell before the hole gets dearer,
    /// and its key ties with the agent's on the first part (`2.41 + 2.83 + 1.41` against
    /// `5.24 + 0 + 1.41`, one bit apart as summed) and is below it on the second. Taking those
    /// parts as different leaves that cell inconsistent and loses the path.
    #[test]
    fn a_key_tied_with_the_agents_but_for_rounding_is_still_taken() {
        let art = ".....S..\n.S.OOO.O\n.@.O.O.@\nS.@...S.\n.O......\nW...S.@.\nWS.S.SW@\n@..O.@W@\n..O..WSW\n...@@O..\nOSW.O.W.\n...SO.WO\nSS@@OWO.";
        let mut map = TileMap::from_ascii(art).expect("a map");
        let goal = (4, 7);
        let mut search = DStarLite::new(&map, (0, 8), goal, Connectivity::Eight).expect("on it");
        search.compute();
        let (path, _) = search.path().expect("a path");
        assert_eq!(
            path.get(5),
            Some(&(4, 6)),
            "the path passes the cell made a hole"
        );
        search.move_to(path[2]);
        search.set_tile((4, 6), Tile::Hole);
        map.set((4, 6), Tile::Hole);
        search.compute();
        let oracle = grid_search(
            &map,
            search.start(),
            goal,
            GridAlgorithm::Dijkstra,
            Connectivity::Eight,
            &mut NoObserver,
        );
        assert_eq!(oracle.outcome, SearchOutcome::Found);
        let (_, cost) = search.path().expect("the way round");
        assert!(
            (cost - oracle.cost).abs() < 1e-9,
            "{cost} vs {}",
            oracle.cost
        );
    }
}
