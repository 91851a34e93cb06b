//! A W×H tile map with 4- or 8-connected movement. Diagonal steps cost √2 × the entered tile's
//! cost and never cut a corner: both orthogonal neighbours must be passable (the MovingAI rule).

use super::tiles::{Tile, TileCosts};
use serde::{Deserialize, Serialize};

/// A cell: x = column, y = row, 0-based from the top-left (as MovingAI).
pub type Cell = (usize, usize);

/// How agents may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Connectivity {
    /// Up, down, left, right.
    Four,
    /// Also diagonally, without cutting corners.
    #[default]
    Eight,
}

/// Why a map could not be made or read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MapError {
    /// A syntax or content problem at a line.
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A problem not tied to one line.
    #[error("{file}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
}

/// The bytes of a map file, at most `limit` of them (see [`crate::input`]), and its name for
/// messages; an error naming it when it cannot be read.
pub(crate) fn read_map_file(
    path: &std::path::Path,
    limit: u64,
    what: &'static str,
) -> Result<(Vec<u8>, String), MapError> {
    let file = crate::input::shown(path);
    match crate::input::read_file(path, limit, what) {
        Ok(bytes) => Ok((bytes, file)),
        Err(e) => Err(MapError::Invalid {
            file,
            message: e.to_string(),
        }),
    }
}

impl MapError {
    /// A problem in `file`, at `line` when it is known.
    pub fn at(file: &str, line: Option<usize>, message: String) -> Self {
        let file = file.to_string();
        match line {
            Some(line) => Self::Syntax {
                file,
                line,
                message,
            },
            None => Self::Invalid { file, message },
        }
    }
}

/// Largest side accepted, so a corrupt header cannot ask for gigabytes.
pub const MAX_SIDE: usize = 8192;

/// A tile map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TileMap {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    /// Entry costs of the passable tiles.
    pub costs: TileCosts,
}

impl TileMap {
    /// A map of `width` × `height` grass tiles (each side 1..=[`MAX_SIDE`]).
    pub fn new(width: usize, height: usize) -> Option<Self> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return None;
        }
        Some(Self {
            width,
            height,
            tiles: vec![Tile::Grass; width * height],
            costs: TileCosts::default(),
        })
    }

    /// Makes a map from rows of tiles (all rows the same length).
    pub fn from_rows(rows: Vec<Vec<Tile>>) -> Option<Self> {
        let height = rows.len();
        let width = rows.first()?.len();
        if rows.iter().any(|r| r.len() != width) {
            return None;
        }
        let mut map = Self::new(width, height)?;
        map.tiles = rows.into_iter().flatten().collect();
        Some(map)
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells (`width × height`): node ids are `y * width + x`.
    pub fn cell_count(&self) -> usize {
        self.tiles.len()
    }

    /// The node id of a cell.
    pub fn index(&self, (x, y): Cell) -> usize {
        y * self.width + x
    }

    /// The cell of a node id.
    pub fn cell(&self, index: usize) -> Cell {
        (index % self.width, index / self.width)
    }

    /// True when the cell is on the map.
    pub fn contains(&self, (x, y): Cell) -> bool {
        x < self.width && y < self.height
    }

    /// The tile at a cell, `None` off the map.
    pub fn get(&self, cell: Cell) -> Option<Tile> {
        self.contains(cell).then(|| self.tiles[self.index(cell)])
    }

    /// The tile at signed coordinates, `None` off the map.
    pub fn get_signed(&self, x: i64, y: i64) -> Option<Tile> {
        if x < 0 || y < 0 {
            return None;
        }
        self.get((x as usize, y as usize))
    }

    /// Sets a tile; returns the previous one, or `None` when the cell is off the map.
    pub fn set(&mut self, cell: Cell, tile: Tile) -> Option<Tile> {
        if !self.contains(cell) {
            return None;
        }
        let i = self.index(cell);
        Some(std::mem::replace(&mut self.tiles[i], tile))
    }

    /// True when the cell is on the map and can be stood on.
    pub fn is_passable(&self, cell: Cell) -> bool {
        self.get(cell).is_some_and(Tile::is_passable)
    }

    /// All tiles, row by row.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Number of passable cells.
    pub fn passable_count(&self) -> usize {
        self.tiles.iter().filter(|t| t.is_passable()).count()
    }

    /// Pushes the neighbours of node `index` reachable in one step, with their step costs.
    #[inline]
    pub fn successors(
        &self,
        index: usize,
        connectivity: Connectivity,
        out: &mut Vec<(usize, f64)>,
    ) {
        self.for_each_move(index, connectivity, |next, cost| out.push((next, cost)));
    }

    /// Calls `visit(next, cost)` for each neighbour of node `index` reachable in one step: the
    /// four sides, then (8 directions) the diagonals whose two sides are open, so that no move
    /// cuts a blocked corner.
    #[inline]
    pub fn for_each_move(
        &self,
        index: usize,
        connectivity: Connectivity,
        mut visit: impl FnMut(usize, f64),
    ) {
        let (w, h) = (self.width, self.height);
        let (x, y) = (index % w, index / w);
        let passable = |i: usize| self.tiles[i].is_passable();
        let cost = |i: usize| self.costs.of(self.tiles[i]).unwrap_or(f64::INFINITY);
        let left = x > 0 && passable(index - 1);
        let right = x + 1 < w && passable(index + 1);
        let up = y > 0 && passable(index - w);
        let down = y + 1 < h && passable(index + w);
        if left {
            visit(index - 1, cost(index - 1));
        }
        if right {
            visit(index + 1, cost(index + 1));
        }
        if up {
            visit(index - w, cost(index - w));
        }
        if down {
            visit(index + w, cost(index + w));
        }
        if connectivity == Connectivity::Eight {
            const SQRT2: f64 = std::f64::consts::SQRT_2;
            if up && left && passable(index - w - 1) {
                visit(index - w - 1, SQRT2 * cost(index - w - 1));
            }
            if up && right && passable(index - w + 1) {
                visit(index - w + 1, SQRT2 * cost(index - w + 1));
            }
            if down && left && passable(index + w - 1) {
                visit(index + w - 1, SQRT2 * cost(index + w - 1));
            }
            if down && right && passable(index + w + 1) {
                visit(index + w + 1, SQRT2 * cost(index + w + 1));
            }
        }
    }

    /// Calls `visit(previous, cost)` for each neighbour of node `index` that can step into it,
    /// with what that step costs (entering `index`): the moves of [`for_each_move`] read
    /// backward, for searches from the goal.
    ///
    /// [`for_each_move`]: Self::for_each_move
    #[inline]
    pub fn for_each_move_into(
        &self,
        index: usize,
        connectivity: Connectivity,
        mut visit: impl FnMut(usize, f64),
    ) {
        let w = self.width;
        let Some(&tile) = self.tiles.get(index) else {
            return;
        };
        let enter = self.costs.of(tile).unwrap_or(f64::INFINITY);
        self.for_each_move(index, connectivity, |previous, _| {
            let diagonal = previous % w != index % w && previous / w != index / w;
            visit(
                previous,
                if diagonal {
                    std::f64::consts::SQRT_2 * enter
                } else {
                    enter
                },
            );
        });
    }

    /// The cells of the same tile as `cell` that can be reached from it in side steps (what
    /// a fill replaces), in the order found; empty for a cell off the map.
    pub fn region_of(&self, cell: Cell) -> Vec<Cell> {
        let Some(tile) = self.get(cell) else {
            return Vec::new();
        };
        let mut seen = vec![false; self.cell_count()];
        seen[self.index(cell)] = true;
        let mut region = vec![cell];
        let mut next = 0;
        while let Some(&(x, y)) = region.get(next) {
            next += 1;
            let sides = [
                x.checked_sub(1).map(|x| (x, y)),
                Some((x + 1, y)),
                y.checked_sub(1).map(|y| (x, y)),
                Some((x, y + 1)),
            ];
            for side in sides.into_iter().flatten() {
                if self.get(side) == Some(tile) {
                    let i = self.index(side);
                    if !seen[i] {
                        seen[i] = true;
                        region.push(side);
                    }
                }
            }
        }
        region
    }

    /// Parses an ASCII picture (MovingAI characters, one row per line) — for tests and
    /// examples.
    pub fn from_ascii(text: &str) -> Option<Self> {
        let rows: Option<Vec<Vec<Tile>>> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| l.chars().map(Tile::from_char).collect())
            .collect();
        Self::from_rows(rows?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonals_never_cut_a_blocked_corner() {
        let map = TileMap::from_ascii(
            "...\n\
             .@.\n\
             ...",
        )
        .expect("map");
        let mut out = Vec::new();
        map.successors(map.index((0, 0)), Connectivity::Eight, &mut out);
        let cells: Vec<Cell> = out.iter().map(|&(i, _)| map.cell(i)).collect();
        assert_eq!(cells, vec![(1, 0), (0, 1)], "no diagonal past the wall");
        out.clear();
        map.successors(map.index((1, 0)), Connectivity::Eight, &mut out);
        assert_eq!(out.len(), 2, "left and right only");
    }

    #[test]
    fn a_region_is_the_same_tile_reached_by_side_steps() {
        let map = TileMap::from_ascii(
            "..@S\n\
             .@.S\n\
             @..S",
        )
        .expect("map");
        let mut region = map.region_of((2, 1));
        region.sort_unstable();
        assert_eq!(
            region,
            [(1, 2), (2, 1), (2, 2)],
            "not across the diagonal to (0, 0)"
        );
        let mut top_left = map.region_of((0, 0));
        top_left.sort_unstable();
        assert_eq!(top_left, [(0, 0), (0, 1), (1, 0)]);
        assert_eq!(map.region_of((3, 0)).len(), 3);
        assert!(map.region_of((4, 0)).is_empty());
    }

    #[test]
    fn step_costs_follow_the_entered_tile() {
        let map = TileMap::from_ascii("..\nSW").expect("map");
        let mut out = Vec::new();
        map.successors(map.index((0, 0)), Connectivity::Eight, &mut out);
        let cost_to = |c: Cell| {
            out.iter()
                .find(|&&(i, _)| map.cell(i) == c)
                .map(|&(_, k)| k)
        };
        assert_eq!(cost_to((1, 0)), Some(1.0));
        assert_eq!(cost_to((0, 1)), Some(2.0));
        assert_eq!(cost_to((1, 1)), Some(3.0 * std::f64::consts::SQRT_2));
        out.clear();
        map.successors(map.index((0, 0)), Connectivity::Four, &mut out);
        assert_eq!(out.len(), 2);
    }
}
