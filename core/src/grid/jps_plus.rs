//! JPS+ (Rabin, *Game AI Pro 2*, 2015): Jump Point Search with every jump worked out before
//! the search.
//!
//! JPS ([`super::jps`]) scans the map from each jump point it expands. On a map that does not
//! change those scans give the same answer every time, so JPS+ does them once for every open
//! cell and every one of the eight directions and keeps a number: going that way from the cell,
//! how many steps to the next jump point (positive), or, when there is none before a wall or
//! the map's edge, minus the number of open steps before it (zero: blocked at once). Going
//! straight, the jump point is the first cell with a forced neighbour; going diagonally, the
//! first cell from which the straight distance along either side is positive.
//!
//! The search is JPS's with a table read in place of each scan. The goal is not in the table
//! (it changes with every query): going straight, a goal on the line ahead no farther than the
//! number is reached directly; going diagonally towards a goal whose row or column the
//! diagonal meets no farther than the number, the cell where it meets it is a jump point (a
//! *target* jump point: from it a straight jump can reach the goal).
//!
//! The tables take 16 bytes a cell, so they are built only for maps of up to
//! [`JPS_PLUS_MAX_CELLS`] cells.

use super::jps::JpsGrid;
use super::map::{Cell, TileMap};
use crate::search::{AStarScratch, JumpStop, Observer, SearchEvent, SearchResult};

/// The most cells of a map JPS+ builds its tables for: 2²² (2,048 × 2,048), 64 MiB of tables.
pub const JPS_PLUS_MAX_CELLS: usize = 1 << 22;

/// The eight directions in the tables' order: east, west, south, north (y grows downward),
/// then south-east, north-east, south-west, north-west.
pub const DIRECTIONS: [(i64, i64); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The position of direction `d` in [`DIRECTIONS`].
#[inline]
fn slot(d: (i64, i64)) -> usize {
    match d {
        (1, 0) => 0,
        (-1, 0) => 1,
        (0, 1) => 2,
        (0, -1) => 3,
        (1, 1) => 4,
        (1, -1) => 5,
        (-1, 1) => 6,
        _ => 7,
    }
}

/// A map with JPS+'s jump distances: built once per map (it reads every cell eight times), then
/// searched as often as wanted; the map's later edits are not seen.
///
/// ```
/// use navlab_core::grid::jps_plus::JpsPlusGrid;
/// use navlab_core::search::{AStarScratch, NoObserver, SearchOutcome};
///
/// let map = navlab_core::grid::movingai::parse_map(
///     b"type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n",
///     "example.map",
/// )?;
/// let grid = JpsPlusGrid::new(&map).expect("one tile cost, a small map");
/// // From (0, 1) going east: a wall after no step.
/// assert_eq!(grid.distance((0, 1), (1, 0)), Some(0));
/// let found = grid.search(&mut AStarScratch::default(), (0, 1), (3, 1), &mut NoObserver);
/// assert_eq!(found.outcome, SearchOutcome::Found);
/// assert!((found.cost - 5.0).abs() < 1e-9);
/// # Ok::<(), navlab_core::grid::MapError>(())
/// ```
#[derive(Debug, Clone)]
pub struct JpsPlusGrid {
    grid: JpsGrid,
    /// Per cell, per direction of [`DIRECTIONS`]: steps to the next jump point (positive), or
    /// minus the open steps before a wall.
    jumps: Vec<[i16; 8]>,
}

impl JpsPlusGrid {
    /// The tables of `map`, or `None` when its open tiles do not all cost the same (JPS's
    /// pruning would not hold) or it has more than [`JPS_PLUS_MAX_CELLS`] cells.
    pub fn new(map: &TileMap) -> Option<Self> {
        if map.cell_count() > JPS_PLUS_MAX_CELLS {
            return None;
        }
        let grid = JpsGrid::new(map)?;
        let (width, height) = grid.size();
        let mut jumps = vec![[0i16; 8]; width * height];
        let (w, h) = (width as i64, height as i64);
        let at = |x: i64, y: i64| (y * w + x) as usize;
        // The positions 0..n in the order a sweep against step `s` takes them (the next cell
        // that way is always done first).
        let against = |n: i64, s: i64| -> Vec<i64> {
            if s > 0 {
                (0..n).rev().collect()
            } else {
                (0..n).collect()
            }
        };
        // Straight: sweep each line against the direction, so the next cell is known first.
        for d in &DIRECTIONS[..4] {
            let k = slot(*d);
            let (xs, ys) = (against(w, d.0), against(h, d.1));
            for &y in &ys {
                for &x in &xs {
                    if !grid.open(x, y) {
                        continue;
                    }
                    let next = (x + d.0, y + d.1);
                    let value = if !grid.open(next.0, next.1) {
                        0
                    } else if forced_at(&grid, next, *d).is_some() {
                        1
                    } else {
                        step_on(jumps[at(next.0, next.1)][k])
                    };
                    jumps[at(x, y)][k] = value;
                }
            }
        }
        // Diagonal: the straight distances of the next cell are all known.
        for d in &DIRECTIONS[4..] {
            let k = slot(*d);
            let (along_x, along_y) = (slot((d.0, 0)), slot((0, d.1)));
            let (xs, ys) = (against(w, d.0), against(h, d.1));
            for &y in &ys {
                for &x in &xs {
                    if !grid.open(x, y) {
                        continue;
                    }
                    let next = (x + d.0, y + d.1);
                    let value = if !(grid.open(next.0, next.1)
                        && grid.open(next.0, y)
                        && grid.open(x, next.1))
                    {
                        0
                    } else {
                        let there = jumps[at(next.0, next.1)];
                        if there[along_x] > 0 || there[along_y] > 0 {
                            1
                        } else {
                            step_on(there[k])
                        }
                    };
                    jumps[at(x, y)][k] = value;
                }
            }
        }
        Some(Self { grid, jumps })
    }

    /// The map's width and height in cells.
    pub fn size(&self) -> (usize, usize) {
        self.grid.size()
    }

    /// What entering an open tile costs.
    pub fn step_cost(&self) -> f64 {
        self.grid.step_cost()
    }

    /// The table's number for `cell` going `direction` (each of its two parts -1, 0 or 1, not
    /// both 0): steps to the next jump point when positive, else minus the open steps before a
    /// wall; `None` off the map or on a blocked cell.
    pub fn distance(&self, cell: Cell, direction: (i64, i64)) -> Option<i16> {
        let (x, y) = (cell.0 as i64, cell.1 as i64);
        if !self.grid.open(x, y) || direction == (0, 0) {
            return None;
        }
        let d = (direction.0.signum(), direction.1.signum());
        self.jumps
            .get(self.grid.index((x, y)))
            .map(|row| row[slot(d)])
    }

    /// Every open cell's eight numbers, in [`DIRECTIONS`]' order, row by row (blocked cells'
    /// are zero).
    pub fn distances(&self) -> &[[i16; 8]] {
        &self.jumps
    }

    /// JPS+ from `start` to `goal`, with the octile estimate: as [`JpsGrid::search`], the path
    /// lists the jump points ([`fill_in`](Self::fill_in) gives every cell). Each jump read from
    /// the tables is reported as a [`SearchEvent::Jumped`] when the observer wants detail.
    pub fn search<O: Observer<SearchEvent>>(
        &self,
        scratch: &mut AStarScratch,
        start: Cell,
        goal: Cell,
        observer: &mut O,
    ) -> SearchResult {
        self.grid
            .search_by(scratch, start, goal, observer, |at, d, goal, detail| {
                let (end, land) = self.jump(at, d, self.number(at, d), goal);
                let stop = detail.then(|| self.stop(end, d, land, goal));
                (end, land != Land::Wall, stop)
            })
    }

    /// The table's number for open cell `at` going `d`.
    #[inline]
    fn number(&self, at: (i64, i64), d: (i64, i64)) -> i16 {
        self.jumps
            .get(self.grid.index(at))
            .map_or(0, |row| row[slot(d)])
    }

    /// Where a jump from `at` going `d` ends, with the table's number `n` for it, and what it
    /// lands on.
    #[inline]
    fn jump(&self, at: (i64, i64), d: (i64, i64), n: i16, goal: (i64, i64)) -> ((i64, i64), Land) {
        let reach = i64::from(n).abs();
        let to = |k: i64| (at.0 + d.0 * k, at.1 + d.1 * k);
        let (gx, gy) = (goal.0 - at.0, goal.1 - at.1);
        let goal_within = if d.0 == 0 || d.1 == 0 {
            // The goal on the line ahead.
            if d.1 == 0 {
                (gy == 0 && gx.signum() == d.0).then_some(gx.abs())
            } else {
                (gx == 0 && gy.signum() == d.1).then_some(gy.abs())
            }
        } else {
            // The goal's row or column, met going diagonally.
            (gx.signum() == d.0 && gy.signum() == d.1).then(|| gx.abs().min(gy.abs()))
        };
        if let Some(k) = goal_within.filter(|&k| k <= reach) {
            let end = to(k);
            return (
                end,
                if end == goal {
                    Land::Goal
                } else {
                    Land::GoalLine
                },
            );
        }
        (to(reach), if n > 0 { Land::JumpPoint } else { Land::Wall })
    }

    /// Why a jump from going `d` stopped at `end`, landing on `land`, in the search's words:
    /// the forced neighbour and its wall, or the jump point a diagonal turns for.
    fn stop(&self, end: (i64, i64), d: (i64, i64), land: Land, goal: (i64, i64)) -> JumpStop {
        match land {
            Land::Goal => JumpStop::Goal,
            Land::GoalLine => JumpStop::GoalLine {
                goal: self.grid.index(goal),
            },
            Land::Wall => JumpStop::Blocked,
            Land::JumpPoint if d.0 == 0 || d.1 == 0 => match forced_at(&self.grid, end, d) {
                Some((forced, wall)) => JumpStop::Forced {
                    forced: self.grid.index(forced),
                    wall: self.grid.index(wall),
                },
                None => JumpStop::Blocked,
            },
            Land::JumpPoint => {
                // The straight jump from the end that finds a jump point (the side along x
                // first, as JPS scans).
                for side in [(d.0, 0), (0, d.1)] {
                    let m = i64::from(self.number(end, side));
                    if m > 0 {
                        let ahead = (end.0 + side.0 * m, end.1 + side.1 * m);
                        return JumpStop::Turn {
                            ahead: self.grid.index(ahead),
                        };
                    }
                }
                JumpStop::Blocked
            }
        }
    }

    /// The node ids of every cell of a path of jump points, in order.
    pub fn fill_in(&self, jump_points: &[usize]) -> Vec<usize> {
        self.grid.fill_in(jump_points)
    }
}

/// What a jump lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Land {
    /// The goal.
    Goal,
    /// The goal's row or column, met going diagonally (a target jump point).
    GoalLine,
    /// The jump point the table names.
    JumpPoint,
    /// The last open cell before a wall: nothing this way.
    Wall,
}

/// The next number along a run, from the number of the cell after: one step farther from the
/// jump point (positive) or the wall (zero or negative).
#[inline]
fn step_on(next: i16) -> i16 {
    if next > 0 {
        next.saturating_add(1)
    } else {
        next.saturating_sub(1)
    }
}

/// The forced neighbour of `cell` reached going straight along `d`, and the wall that makes it
/// (the side before the scan's line first, as JPS's scans look).
fn forced_at(grid: &JpsGrid, cell: (i64, i64), d: (i64, i64)) -> Option<((i64, i64), (i64, i64))> {
    for side in [-1, 1] {
        let across = if d.1 == 0 { (0, side) } else { (side, 0) };
        let beside = (cell.0 + across.0, cell.1 + across.1);
        let behind = (beside.0 - d.0, beside.1 - d.1);
        if grid.open(beside.0, beside.1) && !grid.open(behind.0, behind.1) {
            return Some((beside, behind));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;

    /// The number for one cell and direction, walked cell by cell as the definition says.
    fn walked(map: &TileMap, from: (i64, i64), d: (i64, i64)) -> i16 {
        let open = |x: i64, y: i64| x >= 0 && y >= 0 && map.is_passable((x as usize, y as usize));
        let forced = |c: (i64, i64), d: (i64, i64)| {
            [-1, 1].iter().any(|&side| {
                let across = if d.1 == 0 { (0, side) } else { (side, 0) };
                let beside = (c.0 + across.0, c.1 + across.1);
                open(beside.0, beside.1) && !open(beside.0 - d.0, beside.1 - d.1)
            })
        };
        let straight_finds = |c: (i64, i64), d: (i64, i64)| {
            let mut at = c;
            loop {
                let next = (at.0 + d.0, at.1 + d.1);
                if !open(next.0, next.1) {
                    return false;
                }
                if forced(next, d) {
                    return true;
                }
                at = next;
            }
        };
        let mut at = from;
        let mut steps = 0i16;
        loop {
            let next = (at.0 + d.0, at.1 + d.1);
            let can = open(next.0, next.1)
                && (d.0 == 0 || d.1 == 0 || (open(next.0, at.1) && open(at.0, next.1)));
            if !can {
                return -steps;
            }
            steps += 1;
            at = next;
            let stops = if d.0 == 0 || d.1 == 0 {
                forced(at, d)
            } else {
                straight_finds(at, (d.0, 0)) || straight_finds(at, (0, d.1))
            };
            if stops {
                return steps;
            }
        }
    }

    #[test]
    fn the_tables_hold_what_walking_each_direction_finds() {
        for (width, height, seed) in [(7, 5, 1u64), (40, 30, 2), (65, 9, 3)] {
            for density in [0, 12, 30] {
                let mut map = TileMap::new(width, height).expect("a size");
                let mut state = seed * 7_919 + density;
                for y in 0..height {
                    for x in 0..width {
                        state = state
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1);
                        if (state >> 33) % 100 < density {
                            map.set((x, y), Tile::Wall);
                        }
                    }
                }
                let grid = JpsPlusGrid::new(&map).expect("one cost");
                for y in 0..height {
                    for x in 0..width {
                        if !map.is_passable((x, y)) {
                            assert_eq!(grid.distance((x, y), (1, 0)), None);
                            continue;
                        }
                        for d in DIRECTIONS {
                            assert_eq!(
                                grid.distance((x, y), d),
                                Some(walked(&map, (x as i64, y as i64), d)),
                                "{width}×{height} density {density}: ({x}, {y}) going {d:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
