//! Jump Point Search (Harabor & Grastien, AAAI 2011) under MovingAI's rules: eight directions,
//! no diagonal step past a blocked side, every open tile costing the same.
//!
//! On such a grid many cheapest paths tie, and A\* expands every cell of the ties. JPS keeps one
//! of them: from a node reached going one way it scans on in that way (and, going diagonally,
//! straight along both sides at every step) without putting cells on the open list, until the
//! scan meets the goal or a cell where some open neighbour can be reached more cheaply only
//! through it — a *forced* neighbour, made by a wall beside the cell the scan came from. Those
//! cells, the *jump points*, are the only ones A\* sees; the step from one to the next is a
//! straight or diagonal line, costing its octile length.
//!
//! Without corner cutting the rules are these. Going straight (east, say), a cell is a jump
//! point when the cell above (or below) it is open and the cell above (below) the one before is
//! blocked: the step from the cell before to the one above would cut that wall. Going
//! diagonally there are no forced neighbours (a diagonal step needs both sides open), but a
//! cell is a jump point when a straight scan from it along either side finds one. From a jump
//! point reached going straight the search goes on that way and towards each forced neighbour
//! (to it, and diagonally past it); reached diagonally, it goes on diagonally and straight
//! along both sides.
//!
//! The search is [`astar_with_parents`] over the jump points, so its open list, ties and counts
//! are A\*'s. Each scan is reported as a [`SearchEvent::Jumped`] when the observer
//! [wants detail](Observer::wants_detail).

use super::map::TileMap;
use crate::search::{
    AStarScratch, JumpStop, Observer, SearchEvent, SearchResult, astar::astar_with_parents,
};
use std::cell::RefCell;

/// The cost of entering every open tile of `map`, when they all cost the same (JPS's
/// condition); `None` when open tiles of different costs are on it.
pub fn uniform_cost(map: &TileMap) -> Option<f64> {
    let mut kinds = [false; 5];
    for tile in map.tiles() {
        kinds[*tile as usize] = true;
    }
    let mut cost = None;
    for tile in crate::grid::Tile::ALL {
        if !kinds[tile as usize] || !tile.is_passable() {
            continue;
        }
        let c = map.costs.of(tile)?;
        match cost {
            None => cost = Some(c),
            Some(other) if other != c => return None,
            Some(_) => {}
        }
    }
    Some(cost.unwrap_or(1.0))
}

/// The grid as the scans read it: open cells by signed coordinates, off the map blocked.
struct Grid<'a> {
    map: &'a TileMap,
    width: i64,
    height: i64,
    goal: (i64, i64),
}

impl Grid<'_> {
    #[inline]
    fn open(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && x < self.width
            && y < self.height
            && self
                .map
                .tiles()
                .get((y * self.width + x) as usize)
                .is_some_and(|t| t.is_passable())
    }

    #[inline]
    fn index(&self, (x, y): (i64, i64)) -> usize {
        (y * self.width + x) as usize
    }

    /// Why `(x, y)`, reached going straight (`dx`, `dy`), is a jump point for a forced
    /// neighbour: the open cell beside it and the wall beside the cell before.
    #[inline]
    fn forced(&self, (x, y): (i64, i64), (dx, dy): (i64, i64)) -> Option<((i64, i64), (i64, i64))> {
        // The two sides across the direction.
        let (sx, sy) = (dy, dx);
        for side in [1, -1] {
            let beside = (x + sx * side, y + sy * side);
            let behind = (beside.0 - dx, beside.1 - dy);
            if self.open(beside.0, beside.1) && !self.open(behind.0, behind.1) {
                return Some((beside, behind));
            }
        }
        None
    }

    /// Scans straight from `from` (not included) in direction `d`: the jump point found and
    /// why, or the last open cell and [`JumpStop::Blocked`].
    fn scan_straight(&self, from: (i64, i64), d: (i64, i64)) -> ((i64, i64), JumpStop) {
        let mut at = from;
        loop {
            let next = (at.0 + d.0, at.1 + d.1);
            if !self.open(next.0, next.1) {
                return (at, JumpStop::Blocked);
            }
            at = next;
            if at == self.goal {
                return (at, JumpStop::Goal);
            }
            if let Some((forced, wall)) = self.forced(at, d) {
                return (
                    at,
                    JumpStop::Forced {
                        forced: self.index(forced),
                        wall: self.index(wall),
                    },
                );
            }
        }
    }

    /// Scans diagonally from `from` (not included) in direction `d`, each step looking straight
    /// along both sides.
    fn scan_diagonal(&self, from: (i64, i64), d: (i64, i64)) -> ((i64, i64), JumpStop) {
        let mut at = from;
        loop {
            let next = (at.0 + d.0, at.1 + d.1);
            // No corner cutting: both sides of the diagonal step open.
            if !(self.open(next.0, next.1) && self.open(next.0, at.1) && self.open(at.0, next.1)) {
                return (at, JumpStop::Blocked);
            }
            at = next;
            if at == self.goal {
                return (at, JumpStop::Goal);
            }
            for side in [(d.0, 0), (0, d.1)] {
                let (end, stop) = self.scan_straight(at, side);
                if stop != JumpStop::Blocked {
                    return (
                        at,
                        JumpStop::Turn {
                            ahead: self.index(end),
                        },
                    );
                }
            }
        }
    }

    /// The directions to scan from `at`, reached from `parent` (every one from the start).
    fn directions(&self, at: (i64, i64), parent: Option<(i64, i64)>, out: &mut Vec<(i64, i64)>) {
        out.clear();
        let Some(p) = parent else {
            out.extend([
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ]);
            return;
        };
        let d = ((at.0 - p.0).signum(), (at.1 - p.1).signum());
        if d.0 != 0 && d.1 != 0 {
            out.extend([(d.0, 0), (0, d.1), d]);
            return;
        }
        out.push(d);
        let (sx, sy) = (d.1, d.0);
        for side in [1, -1] {
            let beside = (at.0 + sx * side, at.1 + sy * side);
            let behind = (beside.0 - d.0, beside.1 - d.1);
            if self.open(beside.0, beside.1) && !self.open(behind.0, behind.1) {
                let across = (sx * side, sy * side);
                out.push(across);
                out.push((d.0 + across.0, d.1 + across.1));
            }
        }
    }
}

/// The octile length of a straight or diagonal line of cells from `a` to `b`.
fn line_length(a: (i64, i64), b: (i64, i64)) -> f64 {
    let (dx, dy) = ((b.0 - a.0).abs(), (b.1 - a.1).abs());
    let (long, short) = (dx.max(dy) as f64, dx.min(dy) as f64);
    long - short + short * std::f64::consts::SQRT_2
}

/// Runs JPS from node `start` to node `goal` (ids `y * width + x`) on `map`, whose open tiles
/// each cost `step` to enter ([`uniform_cost`]), with the octile estimate. The path returned
/// lists the jump points (consecutive ones joined by a straight or diagonal line of cells).
pub(crate) fn jps<O: Observer<SearchEvent>>(
    scratch: &mut AStarScratch,
    map: &TileMap,
    start: usize,
    goal: usize,
    step: f64,
    observer: &mut O,
) -> SearchResult {
    let width = map.width();
    let cell = |i: usize| ((i % width) as i64, (i / width) as i64);
    let grid = Grid {
        map,
        width: width as i64,
        height: map.height() as i64,
        goal: cell(goal),
    };
    let detail = observer.wants_detail();
    // The scans of an expansion, reported before the jump points they open.
    let scans: RefCell<Vec<SearchEvent>> = RefCell::new(Vec::new());
    let mut directions = Vec::with_capacity(8);
    let successors = |node: usize, parent: Option<usize>, out: &mut Vec<(usize, f64)>| {
        let at = cell(node);
        grid.directions(at, parent.map(cell), &mut directions);
        for &d in &directions {
            let (end, stop) = if d.0 != 0 && d.1 != 0 {
                grid.scan_diagonal(at, d)
            } else {
                grid.scan_straight(at, d)
            };
            if detail && end != at {
                scans.borrow_mut().push(SearchEvent::Jumped {
                    from: node,
                    to: grid.index(end),
                    dx: d.0 as i8,
                    dy: d.1 as i8,
                    stop,
                });
            }
            if stop != JumpStop::Blocked {
                out.push((grid.index(end), step * line_length(at, end)));
            }
        }
    };
    let goal_cell = map.cell(goal);
    let heuristic =
        |i: usize| step * crate::grid::Heuristic::Octile.distance(map.cell(i), goal_cell);
    let mut reporter = ScansFirst {
        scans: &scans,
        inner: observer,
    };
    astar_with_parents(
        scratch,
        map.cell_count(),
        start,
        successors,
        heuristic,
        |i| i == goal,
        &mut reporter,
    )
}

/// Passes the scans an expansion made on before the next step of the search (the jump points
/// they open).
struct ScansFirst<'a, O> {
    scans: &'a RefCell<Vec<SearchEvent>>,
    inner: &'a mut O,
}

impl<O: Observer<SearchEvent>> Observer<SearchEvent> for ScansFirst<'_, O> {
    fn event(&mut self, event: SearchEvent) {
        for scan in self.scans.borrow_mut().drain(..) {
            self.inner.event(scan);
        }
        self.inner.event(event);
    }

    fn stop(&self) -> bool {
        self.inner.stop()
    }

    fn wants_detail(&self) -> bool {
        self.inner.wants_detail()
    }
}

/// The cells of a path of jump points, every cell between consecutive ones filled in.
pub(crate) fn fill_in(map: &TileMap, jump_points: &[usize]) -> Vec<usize> {
    let width = map.width();
    let mut cells = Vec::with_capacity(jump_points.len());
    for pair in jump_points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (ax, ay) = ((a % width) as i64, (a / width) as i64);
        let (bx, by) = ((b % width) as i64, (b / width) as i64);
        let (dx, dy) = ((bx - ax).signum(), (by - ay).signum());
        let (mut x, mut y) = (ax, ay);
        while (x, y) != (bx, by) {
            cells.push((y * width as i64 + x) as usize);
            x += dx;
            y += dy;
        }
    }
    if let Some(&last) = jump_points.last() {
        cells.push(last);
    }
    cells
}
