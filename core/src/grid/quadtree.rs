//! The quadtree of a tile map, the paper's second way to partition a scene: squares split in
//! four until each holds one kind of tile. A* runs over the passable squares from centre to
//! centre, so the path zigzags through big squares and wants smoothing afterwards.

use super::free_segment::HalfPoint;
use super::map::{Cell, TileMap};
use super::tiles::Tile;
use crate::search::{AStarScratch, Observer, SearchEvent, SearchOutcome, astar_with_scratch};

/// A leaf of the quadtree: a square of cells of one kind of tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Square {
    /// Column of the top-left cell.
    pub x: usize,
    /// Row of the top-left cell.
    pub y: usize,
    /// Side in cells (a power of two).
    pub size: usize,
    /// The tile every cell of the square holds.
    pub tile: Tile,
}

impl Square {
    /// The centre of the square.
    pub fn centre(&self) -> HalfPoint {
        HalfPoint {
            x2: (2 * self.x + self.size) as i64,
            y2: (2 * self.y + self.size) as i64,
        }
    }
}

/// The most squares a quadtree is built with: some 100 MB, a fraction of a second.
pub const MAX_SQUARES: usize = 1_000_000;

/// The squares of a map and which passable squares share a side.
#[derive(Debug, Clone)]
pub struct QuadTree {
    squares: Vec<Square>,
    square_of_cell: Vec<u32>,
    neighbours: Vec<Vec<u32>>,
    link_count: usize,
}

/// A path found on a quadtree.
#[derive(Debug, Clone, PartialEq)]
pub struct QuadTreePath {
    /// How the search ended.
    pub outcome: SearchOutcome,
    /// The squares from the start's to the goal's (indices into [`QuadTree::squares`]).
    pub squares: Vec<usize>,
    /// The start cell's centre, the centres of the squares in turn, the goal cell's centre;
    /// when both cells are in one square, just the two cell centres.
    pub points: Vec<HalfPoint>,
    /// Cost of `points`: each stretch weighed by the cost of the tiles it crosses.
    pub cost: f64,
    /// Squares expanded by A*.
    pub expanded: usize,
    /// Largest number of squares held at once in A*'s open and closed lists.
    pub peak_memory: usize,
}

impl QuadTree {
    /// Splits `map`, framed in the smallest power-of-two square holding it, until every square
    /// lies on the map and holds one kind of tile; refused past [`MAX_SQUARES`] squares.
    pub fn build(map: &TileMap) -> Result<Self, String> {
        let (w, h) = (map.width(), map.height());
        let side = w.max(h).next_power_of_two();
        let mut squares = Vec::new();
        let mut square_of_cell = vec![u32::MAX; map.cell_count()];
        let mut pending = vec![(0usize, 0usize, side)];
        while let Some((x, y, size)) = pending.pop() {
            if x >= w || y >= h {
                continue;
            }
            let inside = x + size <= w && y + size <= h;
            let tile = map.get((x, y));
            let uniform = inside
                && (y..y + size).all(|row| (x..x + size).all(|col| map.get((col, row)) == tile));
            match tile {
                Some(tile) if uniform => {
                    let id = squares.len() as u32;
                    for row in y..y + size {
                        for col in x..x + size {
                            square_of_cell[map.index((col, row))] = id;
                        }
                    }
                    squares.push(Square { x, y, size, tile });
                    if squares.len() > MAX_SQUARES {
                        return Err(format!(
                            "the map splits into more than {} squares, the most a quadtree is \
                             built from here (fewer, larger areas of one kind of tile suit it)",
                            crate::words::thousands(MAX_SQUARES)
                        ));
                    }
                }
                _ => {
                    // Not uniform or not inside: a square of one cell is both, so size >= 2.
                    let half = size / 2;
                    // Pushed in reverse so that squares come out top-left first.
                    pending.push((x + half, y + half, half));
                    pending.push((x, y + half, half));
                    pending.push((x + half, y, half));
                    pending.push((x, y, half));
                }
            }
        }
        let mut neighbours = vec![Vec::new(); squares.len()];
        let mut link_count = 0;
        for (id, square) in squares.iter().enumerate() {
            if !square.tile.is_passable() {
                continue;
            }
            let out = &mut neighbours[id];
            let (x, y, s) = (square.x as i64, square.y as i64, square.size as i64);
            let sides = (0..s).flat_map(|i| {
                [
                    (x + i, y - 1),
                    (x + i, y + s),
                    (x - 1, y + i),
                    (x + s, y + i),
                ]
            });
            for (cx, cy) in sides {
                if cx < 0 || cy < 0 || cx >= w as i64 || cy >= h as i64 {
                    continue;
                }
                let other = square_of_cell[map.index((cx as usize, cy as usize))];
                if squares[other as usize].tile.is_passable() {
                    out.push(other);
                }
            }
            out.sort_unstable();
            out.dedup();
            link_count += out.len();
        }
        Ok(Self {
            squares,
            square_of_cell,
            neighbours,
            link_count: link_count / 2,
        })
    }

    /// Every square, blocked ones included, top-left first.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// Number of passable squares (the graph's nodes).
    pub fn passable_count(&self) -> usize {
        self.squares.iter().filter(|s| s.tile.is_passable()).count()
    }

    /// Number of pairs of passable squares sharing a side.
    pub fn link_count(&self) -> usize {
        self.link_count
    }

    /// The square holding `cell`, if it is on the map.
    pub fn square_at(&self, map: &TileMap, cell: Cell) -> Option<usize> {
        map.contains(cell)
            .then(|| self.square_of_cell.get(map.index(cell)).copied())
            .flatten()
            .map(|id| id as usize)
    }

    /// A* from the square of `from` to the square of `to` over passable squares sharing a
    /// side; a step from centre to centre costs its length in each square times that square's
    /// tile cost. `map` is the map the tree was built from. Node ids in the events are squares.
    pub fn find_path<O: Observer<SearchEvent>>(
        &self,
        map: &TileMap,
        from: Cell,
        to: Cell,
        observer: &mut O,
    ) -> QuadTreePath {
        let cost_of = |id: usize| map.costs.of(self.squares[id].tile).unwrap_or(f64::INFINITY);
        let ends = (self.square_at(map, from), self.square_at(map, to));
        let (Some(start), Some(goal)) = ends else {
            return self.unreachable(observer);
        };
        if !map.is_passable(from) || !map.is_passable(to) {
            return self.unreachable(observer);
        }
        let goal_centre = self.squares[goal].centre();
        let successors = |n: usize, out: &mut Vec<(usize, f64)>| {
            let a = &self.squares[n];
            for &m in &self.neighbours[n] {
                let b = &self.squares[m as usize];
                // The step crosses the shared side after a/(a+b) of its length.
                let in_a = a.size as f64 / (a.size + b.size) as f64;
                let cost = in_a * cost_of(n) + (1.0 - in_a) * cost_of(m as usize);
                out.push((m as usize, cost * a.centre().distance(b.centre())));
            }
        };
        let cheapest = map.costs.cheapest();
        let mut scratch = AStarScratch::default();
        let result = astar_with_scratch(
            &mut scratch,
            self.squares.len(),
            start,
            successors,
            |n| cheapest * self.squares[n].centre().distance(goal_centre),
            |n| n == goal,
            observer,
        );
        if result.outcome != SearchOutcome::Found {
            return QuadTreePath {
                outcome: result.outcome,
                squares: Vec::new(),
                points: Vec::new(),
                cost: f64::INFINITY,
                expanded: result.expanded,
                peak_memory: result.peak_memory,
            };
        }
        let (from_point, to_point) = (HalfPoint::centre(from), HalfPoint::centre(to));
        let (points, cost) = if start == goal {
            // A square is convex and of one tile: the straight step stays inside it.
            (
                vec![from_point, to_point],
                cost_of(start) * from_point.distance(to_point),
            )
        } else {
            let mut points = vec![from_point];
            points.extend(result.path.iter().map(|&n| self.squares[n].centre()));
            points.push(to_point);
            // The search's cost plus the stretches from the start cell and to the goal cell,
            // each inside one square.
            let cost = result.cost
                + cost_of(start) * from_point.distance(self.squares[start].centre())
                + cost_of(goal) * goal_centre.distance(to_point);
            (points, cost)
        };
        QuadTreePath {
            outcome: SearchOutcome::Found,
            squares: result.path,
            points,
            cost,
            expanded: result.expanded,
            peak_memory: result.peak_memory,
        }
    }

    fn unreachable<O: Observer<SearchEvent>>(&self, observer: &mut O) -> QuadTreePath {
        observer.event(SearchEvent::Finished {
            outcome: SearchOutcome::Unreachable,
            cost: f64::INFINITY,
        });
        QuadTreePath {
            outcome: SearchOutcome::Unreachable,
            squares: Vec::new(),
            points: Vec::new(),
            cost: f64::INFINITY,
            expanded: 0,
            peak_memory: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoObserver;

    #[test]
    fn an_empty_square_map_is_one_square_and_a_wall_splits_it() {
        let empty = TileMap::new(8, 8).expect("map");
        let tree = QuadTree::build(&empty).expect("small");
        assert_eq!(tree.squares().len(), 1);
        assert_eq!(tree.squares()[0].size, 8);

        let mut walled = empty.clone();
        walled.set((0, 0), Tile::Wall);
        let tree = QuadTree::build(&walled).expect("small");
        // 8 -> four 4s; the top-left 4 -> four 2s; the top-left 2 -> four 1s.
        assert_eq!(tree.squares().len(), 3 + 3 + 4);
        assert_eq!(tree.passable_count(), 9);
    }

    #[test]
    fn a_map_that_is_not_a_power_of_two_is_covered_exactly() {
        let map = TileMap::new(5, 3).expect("map");
        let tree = QuadTree::build(&map).expect("small");
        let area: usize = tree.squares().iter().map(|s| s.size * s.size).sum();
        assert_eq!(area, 15);
    }

    #[test]
    fn a_path_runs_through_squares_that_share_sides() {
        let map = TileMap::from_ascii("........\n...@@...\n...@@...\n........").expect("map");
        let tree = QuadTree::build(&map).expect("small");
        let path = tree.find_path(&map, (0, 2), (7, 2), &mut NoObserver);
        assert_eq!(path.outcome, SearchOutcome::Found);
        for pair in path.squares.windows(2) {
            assert!(tree.neighbours[pair[0]].contains(&(pair[1] as u32)));
        }
        assert_eq!(path.points.first(), Some(&HalfPoint::centre((0, 2))));
        assert_eq!(path.points.last(), Some(&HalfPoint::centre((7, 2))));
    }
}
