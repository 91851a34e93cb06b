//! Whether a straight segment between two points of a tile map stays on walkable ground, decided
//! exactly (integer arithmetic, no sampling): the test behind the visibility graph and the
//! smoothing of grid and quadtree paths.
//!
//! Cell (x, y) is the square [x, x+1] × [y, y+1]. Walkable ground is the closed union of the
//! passable squares, except that two passable squares touching only at a corner do not connect
//! there (the no-corner-cutting rule of the grid search): a segment may run along a wall or touch
//! its corner, never enter it, and never squeeze between two walls that meet at a corner.

use super::map::{Cell, TileMap};
use crate::geom::Vec2;

/// A point on a tile map whose coordinates are whole multiples of half a cell: cell corners and
/// cell centres, exactly. Stored doubled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HalfPoint {
    /// Twice the x coordinate.
    pub x2: i64,
    /// Twice the y coordinate.
    pub y2: i64,
}

impl HalfPoint {
    /// The centre of `cell`.
    pub fn centre((x, y): Cell) -> Self {
        Self {
            x2: 2 * x as i64 + 1,
            y2: 2 * y as i64 + 1,
        }
    }

    /// The grid corner at column line `x`, row line `y` (the top-left corner of cell (x, y)).
    pub fn corner(x: i64, y: i64) -> Self {
        Self {
            x2: 2 * x,
            y2: 2 * y,
        }
    }

    /// The point in map units.
    pub fn to_vec2(self) -> Vec2 {
        Vec2::new(self.x2 as f64 / 2.0, self.y2 as f64 / 2.0)
    }

    /// Distance to `other` in map units.
    pub fn distance(self, other: HalfPoint) -> f64 {
        let (dx, dy) = ((other.x2 - self.x2) as f64, (other.y2 - self.y2) as f64);
        dx.hypot(dy) / 2.0
    }
}

/// True when the cell at signed coordinates is on the map and passable (off the map is wall).
pub(crate) fn open(map: &TileMap, x: i64, y: i64) -> bool {
    map.get_signed(x, y).is_some_and(|t| t.is_passable())
}

/// True when grid corner (x, y) joins two passable cells only diagonally, the two others being
/// blocked: nothing passes through it.
pub fn is_pinch(map: &TileMap, x: i64, y: i64) -> bool {
    let (ul, ur) = (open(map, x - 1, y - 1), open(map, x, y - 1));
    let (dl, dr) = (open(map, x - 1, y), open(map, x, y));
    (ul && dr && !ur && !dl) || (ur && dl && !ul && !dr)
}

/// True when `p` lies on walkable ground: in or on the border of a passable cell.
pub fn point_is_free(map: &TileMap, p: HalfPoint) -> bool {
    // The cells whose closed square holds p: one, two or four of them.
    let xs = cells_at(p.x2);
    let ys = cells_at(p.y2);
    xs.iter()
        .flatten()
        .any(|&x| ys.iter().flatten().any(|&y| open(map, x, y)))
}

/// The cells (in one axis) whose closed extent holds doubled coordinate `v`.
fn cells_at(v: i64) -> [Option<i64>; 2] {
    if v.rem_euclid(2) == 1 {
        [Some(v.div_euclid(2)), None]
    } else {
        [Some(v / 2 - 1), Some(v / 2)]
    }
}

/// True when the segment from `a` to `b` stays on walkable ground (see the module docs). Costs
/// time in proportion to the number of cells the segment crosses.
pub fn segment_is_free(map: &TileMap, a: HalfPoint, b: HalfPoint) -> bool {
    if a == b {
        return point_is_free(map, a);
    }
    if !point_is_free(map, a) || !point_is_free(map, b) {
        return false;
    }
    if a.x2 != b.x2 {
        strips_are_free(a, b, |x, y| open(map, x, y), |x, y| is_pinch(map, x, y))
    } else {
        // A vertical segment: the same walk with the axes swapped.
        let swap = |p: HalfPoint| HalfPoint { x2: p.y2, y2: p.x2 };
        strips_are_free(
            swap(a),
            swap(b),
            |x, y| open(map, y, x),
            |x, y| is_pinch(map, y, x),
        )
    }
}

/// `points` with every point skipped that the one before can pass by in a straight line: from
/// each kept point the path goes straight to the last of the following points it still sees
/// (every segment of a path checked in order). The smoothing a grid or quadtree path needs;
/// each segment of the result is free if every segment of `points` is.
pub fn pull_straight(map: &TileMap, points: &[HalfPoint]) -> Vec<HalfPoint> {
    let Some(&first) = points.first() else {
        return Vec::new();
    };
    let mut kept = vec![first];
    let mut from = 0;
    while from + 1 < points.len() {
        let mut to = from + 1;
        while to + 1 < points.len() && segment_is_free(map, points[from], points[to + 1]) {
            to += 1;
        }
        kept.push(points[to]);
        from = to;
    }
    kept
}

/// Length of the polyline through `points`, in map units.
pub fn polyline_length(points: &[HalfPoint]) -> f64 {
    // A fold from +0: `sum` of nothing is -0.
    points
        .windows(2)
        .fold(0.0, |length, p| length + p[0].distance(p[1]))
}

/// The walk for a segment that is not vertical: column strip by column strip, the cells whose
/// inside the segment crosses must be open, a segment along a row line needs an open cell on
/// one side, and every grid corner it passes through must not be a pinch.
fn strips_are_free(
    a: HalfPoint,
    b: HalfPoint,
    open: impl Fn(i64, i64) -> bool,
    pinch: impl Fn(i64, i64) -> bool,
) -> bool {
    let (a, b) = if a.x2 < b.x2 { (a, b) } else { (b, a) };
    let (dx, dy) = (b.x2 - a.x2, b.y2 - a.y2);
    // y at doubled abscissa X, times dx (exact).
    let y_times_dx = |x: i64| a.y2 * dx + (x - a.x2) * dy;
    let first_column = a.x2.div_euclid(2);
    let last_column = (b.x2 - 1).div_euclid(2);
    for column in first_column..=last_column {
        let left = a.x2.max(2 * column);
        let right = b.x2.min(2 * column + 2);
        if left >= right {
            continue;
        }
        if dy == 0 {
            if a.y2.rem_euclid(2) == 1 {
                if !open(column, a.y2.div_euclid(2)) {
                    return false;
                }
            } else {
                let row = a.y2 / 2;
                if !open(column, row - 1) && !open(column, row) {
                    return false;
                }
            }
            continue;
        }
        let (y0, y1) = (y_times_dx(left), y_times_dx(right));
        let (low, high) = (y0.min(y1), y0.max(y1));
        let cell_height = 2 * dx;
        let first_row = low.div_euclid(cell_height);
        let last_row = (high + cell_height - 1).div_euclid(cell_height) - 1;
        for row in first_row..=last_row {
            if !open(column, row) {
                return false;
            }
        }
    }
    // Grid corners strictly between the ends.
    let first_line = a.x2.div_euclid(2) + 1;
    let last_line = (b.x2 - 1).div_euclid(2);
    for line in first_line..=last_line {
        let y = y_times_dx(2 * line);
        if y.rem_euclid(2 * dx) == 0 && pinch(line, y.div_euclid(2 * dx)) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(rows: &str) -> TileMap {
        TileMap::from_ascii(rows).expect("map")
    }

    fn free(m: &TileMap, a: (i64, i64), b: (i64, i64)) -> bool {
        let p = |(x, y): (i64, i64)| HalfPoint { x2: x, y2: y };
        let forward = segment_is_free(m, p(a), p(b));
        assert_eq!(forward, segment_is_free(m, p(b), p(a)), "{a:?} {b:?}");
        forward
    }

    #[test]
    fn a_wall_blocks_a_segment_through_it_but_not_one_along_it() {
        let m = map("...\n.@.\n...");
        // Centre of (0,1) to centre of (2,1), doubled: through the wall.
        assert!(!free(&m, (1, 3), (5, 3)));
        // Along the wall's top side, from corner (0,1) to corner (3,1).
        assert!(free(&m, (0, 2), (6, 2)));
        // Up to the wall's corner on a diagonal, and on through its inside.
        assert!(free(&m, (1, 1), (2, 2)));
        assert!(!free(&m, (1, 1), (5, 5)));
        // Vertical, along the wall's left side and through it.
        assert!(free(&m, (2, 0), (2, 6)));
        assert!(!free(&m, (3, 1), (3, 5)));
    }

    #[test]
    fn two_walls_meeting_at_a_corner_let_nothing_through() {
        let m = map(".@\n@.");
        assert!(is_pinch(&m, 1, 1));
        // Centre to centre across the pinch, and along either grid line through it.
        assert!(!free(&m, (1, 1), (3, 3)));
        assert!(!free(&m, (0, 2), (4, 2)));
        assert!(!free(&m, (2, 0), (2, 4)));
        // Up to the pinch point itself is fine.
        assert!(free(&m, (1, 1), (2, 2)));
    }

    #[test]
    fn the_edge_of_the_map_is_a_wall() {
        let m = map("..\n..");
        assert!(free(&m, (0, 0), (4, 0)));
        assert!(free(&m, (0, 0), (4, 4)));
        assert!(!free(&m, (0, 0), (6, 0)));
        assert!(!point_is_free(&m, HalfPoint { x2: -1, y2: 1 }));
    }

    #[test]
    fn a_shallow_segment_checks_every_cell_it_crosses() {
        // The segment from the centre of (0,0) to the centre of (4,1) crosses (2,0) or (2,1)
        // near the middle: rows change at x = 2.5.
        let m = map(".....\n..@..");
        assert!(!free(&m, (1, 1), (9, 3)));
        let m = map("..@..\n.....");
        assert!(!free(&m, (1, 1), (9, 3)));
        // Walls just beside the line, on either side.
        let m = map("...@.\n.@...");
        assert!(free(&m, (1, 1), (9, 3)));
    }
}
