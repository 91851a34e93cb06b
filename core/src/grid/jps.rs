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
//! Straight scans read the map 64 cells at a time, as Harabor & Grastien's later "block-based"
//! JPS does (ICAPS 2014): each row and each column is kept as bits (1: open), and a scan finds
//! the first cell of a word that is blocked, is the goal, or has a forced neighbour with a few
//! shifts and a count of trailing (or leading) zeros. [`JpsGrid`] holds those bits, built once
//! per map.
//!
//! The search is A\* ([`astar_with_parents`]) over the jump points, so its open list, ties and
//! counts are A\*'s. Each scan is reported as a [`SearchEvent::Jumped`] when the observer
//! [wants detail](Observer::wants_detail).

use super::map::{Cell, TileMap};
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

/// Lines of cells as bits (1: open): line `l`'s word `k` holds its cells `64k` to `64k + 63`.
/// Off the lines, and past their end, every cell is blocked.
#[derive(Debug, Clone)]
struct Lines {
    words: usize,
    count: i64,
    len: i64,
    bits: Vec<u64>,
}

/// Why a scan along a line stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    /// The next cell is blocked (or off the map).
    Blocked,
    /// The goal.
    Goal,
    /// A forced neighbour on the line before (-1) or after (+1).
    Forced(i64),
}

impl Lines {
    fn new(count: usize, len: usize) -> Self {
        let words = len.div_ceil(64).max(1);
        Self {
            words,
            count: count as i64,
            len: len as i64,
            bits: vec![0; words * count],
        }
    }

    fn set(&mut self, line: usize, pos: usize) {
        if let Some(word) = self.bits.get_mut(line * self.words + pos / 64) {
            *word |= 1 << (pos % 64);
        }
    }

    #[inline]
    fn word(&self, line: i64, k: i64) -> u64 {
        if line < 0 || line >= self.count || k < 0 || k >= self.words as i64 {
            return 0;
        }
        self.bits
            .get((line * self.words as i64 + k) as usize)
            .copied()
            .unwrap_or(0)
    }

    #[inline]
    fn open(&self, line: i64, pos: i64) -> bool {
        pos >= 0 && pos < self.len && (self.word(line, pos >> 6) >> (pos & 63)) & 1 == 1
    }

    /// Scans along `line` from `from` (not included), forward or backward: where the scan
    /// stops and why. It stops at a cell that is the goal (`goal`, a position on this line)
    /// or has a forced neighbour — an open cell on the line beside whose own cell before it
    /// (on the side the scan comes from) is blocked — and before a blocked cell (returning the
    /// last open one, which is `from` when the first step is blocked).
    fn scan(&self, line: i64, from: i64, forward: bool, goal: Option<i64>) -> (i64, Found) {
        if forward {
            let start = from + 1;
            let mut k = start >> 6;
            loop {
                let here = self.word(line, k);
                let (a, b) = (self.word(line - 1, k), self.word(line + 1, k));
                let a_before = (a << 1) | (self.word(line - 1, k - 1) >> 63);
                let b_before = (b << 1) | (self.word(line + 1, k - 1) >> 63);
                let mut stops = !here | (a & !a_before) | (b & !b_before);
                if let Some(g) = goal.filter(|&g| g >> 6 == k && g >= start) {
                    stops |= 1 << (g & 63);
                }
                if k == start >> 6 {
                    stops &= u64::MAX << (start & 63);
                }
                if stops != 0 {
                    let p = (k << 6) + i64::from(stops.trailing_zeros());
                    return self.classify(line, p, p - 1, goal);
                }
                k += 1;
            }
        } else {
            let start = from - 1;
            if start < 0 {
                return (from, Found::Blocked);
            }
            let mut k = start >> 6;
            loop {
                if k < 0 {
                    // The cell before position 0 is off the map.
                    return (0, Found::Blocked);
                }
                let here = self.word(line, k);
                let (a, b) = (self.word(line - 1, k), self.word(line + 1, k));
                let a_after = (a >> 1) | (self.word(line - 1, k + 1) << 63);
                let b_after = (b >> 1) | (self.word(line + 1, k + 1) << 63);
                let mut stops = !here | (a & !a_after) | (b & !b_after);
                if let Some(g) = goal.filter(|&g| g >> 6 == k && g <= start) {
                    stops |= 1 << (g & 63);
                }
                if k == start >> 6 {
                    stops &= u64::MAX >> (63 - (start & 63));
                }
                if stops != 0 {
                    let p = (k << 6) + 63 - i64::from(stops.leading_zeros());
                    return self.classify(line, p, p + 1, goal);
                }
                k -= 1;
            }
        }
    }

    /// What stopped a scan at `p` (`before`: the cell the scan came from).
    fn classify(&self, line: i64, p: i64, before: i64, goal: Option<i64>) -> (i64, Found) {
        if !self.open(line, p) {
            return (before, Found::Blocked);
        }
        if goal == Some(p) {
            return (p, Found::Goal);
        }
        for side in [-1, 1] {
            if self.open(line + side, p) && !self.open(line + side, before) {
                return (p, Found::Forced(side));
            }
        }
        // Not reached: a stop is blocked, the goal or forced. Treated as blocked.
        (before, Found::Blocked)
    }
}

/// A map as Jump Point Search reads it: its open cells as bits by rows and by columns, and
/// what entering an open tile costs. Build it once per map (it reads every tile) and search
/// it as often as wanted; the map's later edits are not seen.
///
/// ```
/// use navlab_core::grid::jps::JpsGrid;
/// use navlab_core::search::{AStarScratch, NoObserver, SearchOutcome};
///
/// let map = navlab_core::grid::movingai::parse_map(
///     b"type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n",
///     "example.map",
/// )?;
/// let grid = JpsGrid::new(&map).expect("one tile cost");
/// let found = grid.search(&mut AStarScratch::default(), (0, 1), (3, 1), &mut NoObserver);
/// assert_eq!(found.outcome, SearchOutcome::Found);
/// assert!((found.cost - 5.0).abs() < 1e-9);
/// // Jump points only; `fill_in` gives every cell.
/// assert_eq!(grid.fill_in(&found.path).len(), 6);
/// # Ok::<(), navlab_core::grid::MapError>(())
/// ```
#[derive(Debug, Clone)]
pub struct JpsGrid {
    width: usize,
    height: usize,
    step: f64,
    rows: Lines,
    columns: Lines,
}

impl JpsGrid {
    /// The grid of `map`, or `None` when its open tiles do not all cost the same (JPS's pruning
    /// would not hold).
    pub fn new(map: &TileMap) -> Option<Self> {
        let step = uniform_cost(map)?;
        let (width, height) = (map.width(), map.height());
        let mut rows = Lines::new(height, width);
        let mut columns = Lines::new(width, height);
        for (i, tile) in map.tiles().iter().enumerate() {
            if tile.is_passable() {
                let (x, y) = (i % width, i / width);
                rows.set(y, x);
                columns.set(x, y);
            }
        }
        Some(Self {
            width,
            height,
            step,
            rows,
            columns,
        })
    }

    /// What entering an open tile costs.
    pub fn step_cost(&self) -> f64 {
        self.step
    }

    /// The map's width and height in cells.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    #[inline]
    pub(super) fn open(&self, x: i64, y: i64) -> bool {
        self.rows.open(y, x)
    }

    #[inline]
    pub(super) fn index(&self, (x, y): (i64, i64)) -> usize {
        (y * self.width as i64 + x) as usize
    }

    fn cell(&self, i: usize) -> (i64, i64) {
        ((i % self.width) as i64, (i / self.width) as i64)
    }

    /// Scans straight from `from` (not included) in direction `d` towards `goal`: the jump
    /// point found and why, or the last open cell and [`JumpStop::Blocked`].
    fn scan_straight(
        &self,
        from: (i64, i64),
        d: (i64, i64),
        goal: (i64, i64),
    ) -> ((i64, i64), JumpStop) {
        let (end, found) = if d.1 == 0 {
            let on_line = (goal.1 == from.1).then_some(goal.0);
            let (x, found) = self.rows.scan(from.1, from.0, d.0 > 0, on_line);
            ((x, from.1), found)
        } else {
            let on_line = (goal.0 == from.0).then_some(goal.1);
            let (y, found) = self.columns.scan(from.0, from.1, d.1 > 0, on_line);
            ((from.0, y), found)
        };
        let stop = match found {
            Found::Blocked => JumpStop::Blocked,
            Found::Goal => JumpStop::Goal,
            Found::Forced(side) => {
                // The side across the direction: rows' lines are y, columns' are x.
                let across = if d.1 == 0 { (0, side) } else { (side, 0) };
                let forced = (end.0 + across.0, end.1 + across.1);
                let wall = (forced.0 - d.0, forced.1 - d.1);
                JumpStop::Forced {
                    forced: self.index(forced),
                    wall: self.index(wall),
                }
            }
        };
        (end, stop)
    }

    /// Scans diagonally from `from` (not included) in direction `d`, each step looking straight
    /// along both sides.
    fn scan_diagonal(
        &self,
        from: (i64, i64),
        d: (i64, i64),
        goal: (i64, i64),
    ) -> ((i64, i64), JumpStop) {
        let mut at = from;
        loop {
            let next = (at.0 + d.0, at.1 + d.1);
            // No corner cutting: both sides of the diagonal step open.
            if !(self.open(next.0, next.1) && self.open(next.0, at.1) && self.open(at.0, next.1)) {
                return (at, JumpStop::Blocked);
            }
            at = next;
            if at == goal {
                return (at, JumpStop::Goal);
            }
            for side in [(d.0, 0), (0, d.1)] {
                let (end, stop) = self.scan_straight(at, side, goal);
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

    /// JPS from `start` to `goal` (cells), with the octile estimate: the path lists the jump
    /// points (node ids `y * width + x`), consecutive ones joined by a straight or diagonal
    /// line of cells ([`fill_in`](Self::fill_in) gives every cell). A start or goal off the
    /// map or blocked is unreachable.
    pub fn search<O: Observer<SearchEvent>>(
        &self,
        scratch: &mut AStarScratch,
        start: Cell,
        goal: Cell,
        observer: &mut O,
    ) -> SearchResult {
        self.search_by(scratch, start, goal, observer, |at, d, goal, _| {
            let (end, stop) = if d.0 != 0 && d.1 != 0 {
                self.scan_diagonal(at, d, goal)
            } else {
                self.scan_straight(at, d, goal)
            };
            (end, stop != JumpStop::Blocked, Some(stop))
        })
    }

    /// A\* over the jump points from `start` to `goal`, each direction kept at a jump point
    /// followed by `follow(at, direction, goal, detail)`: where it ends, whether that is a
    /// jump point (else a wall ended it), and, when `detail` asks (the observer wants the
    /// scans), why it stopped. JPS scans; JPS+ reads its tables.
    pub(super) fn search_by<O, F>(
        &self,
        scratch: &mut AStarScratch,
        start: Cell,
        goal: Cell,
        observer: &mut O,
        mut follow: F,
    ) -> SearchResult
    where
        O: Observer<SearchEvent>,
        F: FnMut((i64, i64), (i64, i64), (i64, i64), bool) -> ((i64, i64), bool, Option<JumpStop>),
    {
        let on_map = |(x, y): Cell| x < self.width && y < self.height;
        let open = |(x, y): Cell| self.open(x as i64, y as i64);
        if !(on_map(start) && on_map(goal) && open(start) && open(goal)) {
            observer.event(SearchEvent::Finished {
                outcome: crate::search::SearchOutcome::Unreachable,
                cost: f64::INFINITY,
            });
            return SearchResult::not_found();
        }
        let goal_cell = (goal.0 as i64, goal.1 as i64);
        let goal_node = self.index(goal_cell);
        let detail = observer.wants_detail();
        // The scans of an expansion, reported before the jump points they open.
        let scans: RefCell<Vec<SearchEvent>> = RefCell::new(Vec::new());
        let mut directions = Vec::with_capacity(8);
        let step = self.step;
        let successors = |node: usize, parent: Option<usize>, out: &mut Vec<(usize, f64)>| {
            let at = self.cell(node);
            self.directions(at, parent.map(|p| self.cell(p)), &mut directions);
            for &d in &directions {
                let (end, found, stop) = follow(at, d, goal_cell, detail);
                if let Some(stop) = stop.filter(|_| detail && end != at) {
                    scans.borrow_mut().push(SearchEvent::Jumped {
                        from: node,
                        to: self.index(end),
                        dx: d.0 as i8,
                        dy: d.1 as i8,
                        stop,
                    });
                }
                if found {
                    out.push((self.index(end), step * line_length(at, end)));
                }
            }
        };
        let heuristic = |i: usize| {
            let (x, y) = self.cell(i);
            step * octile((x - goal_cell.0).abs(), (y - goal_cell.1).abs())
        };
        let mut reporter = ScansFirst {
            scans: &scans,
            inner: observer,
        };
        astar_with_parents(
            scratch,
            self.width * self.height,
            self.index((start.0 as i64, start.1 as i64)),
            successors,
            heuristic,
            |i| i == goal_node,
            &mut reporter,
        )
    }

    /// The node ids of every cell of a path of jump points, in order (consecutive jump points
    /// lie on a straight or diagonal line).
    pub fn fill_in(&self, jump_points: &[usize]) -> Vec<usize> {
        // As many cells as the steps between the jump points, and the last: one allocation.
        let steps: usize = jump_points
            .windows(2)
            .map(|pair| {
                let (a, b) = (self.cell(pair[0]), self.cell(pair[1]));
                (b.0 - a.0).unsigned_abs().max((b.1 - a.1).unsigned_abs()) as usize
            })
            .sum();
        let mut cells = Vec::with_capacity(steps + 1);
        for pair in jump_points.windows(2) {
            let (a, b) = (self.cell(pair[0]), self.cell(pair[1]));
            let mut at = a;
            while at != b {
                cells.push(self.index(at));
                at = (at.0 + (b.0 - at.0).signum(), at.1 + (b.1 - at.1).signum());
            }
        }
        if let Some(&last) = jump_points.last() {
            cells.push(last);
        }
        cells
    }
}

/// The octile distance of a step of `dx` across and `dy` down (`max + (√2 − 1)·min`, as
/// [`Heuristic::Octile`](crate::grid::Heuristic::Octile) has it).
fn octile(dx: i64, dy: i64) -> f64 {
    let (long, short) = (dx.max(dy) as f64, dx.min(dy) as f64);
    long + (std::f64::consts::SQRT_2 - 1.0) * short
}

/// The octile length of a straight or diagonal line of cells from `a` to `b`.
fn line_length(a: (i64, i64), b: (i64, i64)) -> f64 {
    octile((b.0 - a.0).abs(), (b.1 - a.1).abs())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;

    /// The straight scan cell by cell, as the rules say it: the oracle for the bit scans.
    fn scan_by_cells(
        map: &TileMap,
        from: (i64, i64),
        d: (i64, i64),
        goal: (i64, i64),
    ) -> ((i64, i64), JumpStop) {
        let open = |x: i64, y: i64| x >= 0 && y >= 0 && map.is_passable((x as usize, y as usize));
        let index = |(x, y): (i64, i64)| (y as usize) * map.width() + x as usize;
        let mut at = from;
        loop {
            let next = (at.0 + d.0, at.1 + d.1);
            if !open(next.0, next.1) {
                return (at, JumpStop::Blocked);
            }
            at = next;
            if at == goal {
                return (at, JumpStop::Goal);
            }
            // The sides in the order the bit scan tries them: the line before, then after.
            for side in [-1, 1] {
                let across = if d.1 == 0 { (0, side) } else { (side, 0) };
                let beside = (at.0 + across.0, at.1 + across.1);
                let behind = (beside.0 - d.0, beside.1 - d.1);
                if open(beside.0, beside.1) && !open(behind.0, behind.1) {
                    return (
                        at,
                        JumpStop::Forced {
                            forced: index(beside),
                            wall: index(behind),
                        },
                    );
                }
            }
        }
    }

    /// A map of `width` × `height` with walls where a small generator says, seeded.
    fn random_map(width: usize, height: usize, seed: u64, density: u64) -> TileMap {
        let mut map = TileMap::new(width, height).expect("a size");
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for y in 0..height {
            for x in 0..width {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state % 100 < density {
                    map.set((x, y), Tile::Wall);
                }
            }
        }
        map
    }

    #[test]
    fn bit_scans_stop_where_cell_by_cell_scans_do() {
        // Widths around the word size, so that scans cross words and end at every offset.
        for (width, height, seed) in [(5, 4, 1), (63, 3, 2), (64, 5, 3), (65, 4, 4), (130, 70, 5)] {
            for density in [0, 10, 35] {
                let map = random_map(width, height, seed, density);
                let grid = JpsGrid::new(&map).expect("one cost");
                let goal = ((width / 2) as i64, (height / 2) as i64);
                for y in 0..height as i64 {
                    for x in 0..width as i64 {
                        if !map.is_passable((x as usize, y as usize)) {
                            continue;
                        }
                        for d in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                            assert_eq!(
                                grid.scan_straight((x, y), d, goal),
                                scan_by_cells(&map, (x, y), d, goal),
                                "{width}×{height} density {density}: from ({x}, {y}) along {d:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}
