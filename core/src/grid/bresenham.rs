//! Lines of sight on a tile map: the tiles a ray crosses, by
//! [Bresenham's line algorithm](https://en.wikipedia.org/wiki/Bresenham%27s_line_algorithm)
//! (as in the pursuit article), and whether a wall blocks it.

use super::map::TileMap;

/// The cells of the line from `from` to `to`, both included, in order. Works in every octant;
/// a zero-length line is the one cell. Coordinates may lie off the map (the caller decides what
/// that means).
pub fn line(from: (i64, i64), to: (i64, i64)) -> Vec<(i64, i64)> {
    Line::new(from, to).collect()
}

/// The cells of a Bresenham line as an iterator (no allocation), from `from` to `to` inclusive.
#[derive(Debug, Clone)]
pub struct Line {
    x: i64,
    y: i64,
    to: (i64, i64),
    dx: i64,
    dy: i64,
    sx: i64,
    sy: i64,
    err: i64,
    done: bool,
}

impl Line {
    /// The line from `from` to `to`.
    pub fn new(from: (i64, i64), to: (i64, i64)) -> Self {
        let dx = (to.0 - from.0).abs();
        let dy = -(to.1 - from.1).abs();
        Self {
            x: from.0,
            y: from.1,
            to,
            dx,
            dy,
            sx: if from.0 < to.0 { 1 } else { -1 },
            sy: if from.1 < to.1 { 1 } else { -1 },
            err: dx + dy,
            done: false,
        }
    }
}

impl Iterator for Line {
    type Item = (i64, i64);

    fn next(&mut self) -> Option<(i64, i64)> {
        if self.done {
            return None;
        }
        let cell = (self.x, self.y);
        if cell == self.to {
            self.done = true;
            return Some(cell);
        }
        let e2 = 2 * self.err;
        if e2 >= self.dy {
            self.err += self.dy;
            self.x += self.sx;
        }
        if e2 <= self.dx {
            self.err += self.dx;
            self.y += self.sy;
        }
        Some(cell)
    }
}

/// The first cell on the line from `from` to `to` whose tile blocks sight (a wall), or `None`
/// when the ray is clear. Cells off the map block. Holes and water do not.
pub fn first_blocking(map: &TileMap, from: (i64, i64), to: (i64, i64)) -> Option<(i64, i64)> {
    Line::new(from, to).find(|&(x, y)| map.get_signed(x, y).is_none_or(|t| t.blocks_sight()))
}

/// True when nothing blocks the line from `from` to `to`.
pub fn has_line_of_sight(map: &TileMap, from: (i64, i64), to: (i64, i64)) -> bool {
    first_blocking(map, from, to).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;

    #[test]
    fn zero_length_is_one_cell() {
        assert_eq!(line((3, 4), (3, 4)), vec![(3, 4)]);
    }

    #[test]
    fn shallow_and_steep_lines_by_hand() {
        // Shallow, first octant: (0,0) to (5,2).
        assert_eq!(
            line((0, 0), (5, 2)),
            vec![(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 2)]
        );
        // Steep: (0,0) to (2,5).
        assert_eq!(
            line((0, 0), (2, 5)),
            vec![(0, 0), (0, 1), (1, 2), (1, 3), (2, 4), (2, 5)]
        );
        // Straight and diagonal.
        assert_eq!(line((2, 1), (2, 4)), vec![(2, 1), (2, 2), (2, 3), (2, 4)]);
        assert_eq!(
            line((0, 0), (-3, -3)),
            vec![(0, 0), (-1, -1), (-2, -2), (-3, -3)]
        );
    }

    #[test]
    fn every_octant_gives_a_connected_line_from_end_to_end() {
        for (dx, dy) in [
            (5, 2),
            (2, 5),
            (-2, 5),
            (-5, 2),
            (-5, -2),
            (-2, -5),
            (2, -5),
            (5, -2),
        ] {
            let cells = line((10, 10), (10 + dx, 10 + dy));
            assert_eq!(cells.first(), Some(&(10, 10)));
            assert_eq!(cells.last(), Some(&(10 + dx, 10 + dy)));
            assert_eq!(
                cells.len() as i64,
                dx.abs().max(dy.abs()) + 1,
                "one cell per major step"
            );
            for w in cells.windows(2) {
                let (a, b) = (w[0], w[1]);
                assert!((a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1);
            }
            // Reversed, the same number of cells.
            assert_eq!(line((10 + dx, 10 + dy), (10, 10)).len(), cells.len());
        }
    }

    #[test]
    fn a_ray_is_blocked_exactly_when_a_wall_is_on_it() {
        let mut map = TileMap::new(12, 12).expect("map");
        map.set((6, 6), Tile::Hole);
        map.set((7, 7), Tile::Water);
        assert!(
            has_line_of_sight(&map, (1, 1), (10, 10)),
            "holes and water do not block"
        );
        for x in 0..12 {
            for y in 0..12 {
                let mut walled = map.clone();
                walled.set((x, y), Tile::Wall);
                let on_line = line((1, 1), (10, 4)).contains(&(x as i64, y as i64));
                assert_eq!(
                    !has_line_of_sight(&walled, (1, 1), (10, 4)),
                    on_line,
                    "wall at ({x},{y})"
                );
            }
        }
        assert_eq!(
            first_blocking(&map, (1, 1), (15, 1)),
            Some((12, 1)),
            "off the map blocks"
        );
    }
}
