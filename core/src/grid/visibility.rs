//! The visibility graph of a tile map, the paper's third way to partition a scene: its nodes are
//! the convex corners of the walls, linked when they see each other; A* over it from the start to
//! the goal gives the shortest path at any angle (the terrain's costs aside: every passable tile
//! counts as ground).
//!
//! Only links a shortest path can use are kept: a path bends around a corner only along lines
//! that touch the wall there without entering it, so a link must be such a line at both ends.

use super::free_segment::{HalfPoint, open, point_is_free, segment_is_free};
use super::map::TileMap;
use crate::search::{AStarScratch, Observer, SearchEvent, SearchOutcome, astar_with_scratch};

/// The most wall corners a visibility graph is built for: linking them costs time in the square
/// of their number (2,500 corners: about a second on a 512² map).
pub const MAX_CORNERS: usize = 2_500;

/// Why there is no visibility graph.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VisibilityError {
    /// Too many corners to link in reasonable time.
    #[error(
        "the walls have {corners} convex corners; a visibility graph is built for at most {limit} (fewer, larger obstacles suit it)"
    )]
    TooManyCorners {
        /// Corners found.
        corners: usize,
        /// [`MAX_CORNERS`].
        limit: usize,
    },
}

/// A convex corner of the walls: a grid point with exactly one of its four cells blocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Corner {
    at: HalfPoint,
    /// Signs of the direction from the point to the blocked cell's centre.
    toward_wall: (i64, i64),
}

impl Corner {
    /// True when the line through the corner with direction `d` touches the blocked cell
    /// without entering it.
    fn is_tangent(&self, d: (i64, i64)) -> bool {
        d.0 * d.1 * self.toward_wall.0 * self.toward_wall.1 <= 0
    }
}

/// The corners of a map's walls and the links between those that see each other.
#[derive(Debug, Clone)]
pub struct VisibilityGraph {
    corners: Vec<Corner>,
    links: Vec<Vec<(u32, f64)>>,
    link_count: usize,
}

/// A shortest path found on a visibility graph.
#[derive(Debug, Clone, PartialEq)]
pub struct VisibilityPath {
    /// How the search ended.
    pub outcome: SearchOutcome,
    /// Start, the corners it bends around, goal (empty unless found).
    pub points: Vec<HalfPoint>,
    /// Length of `points` in map units (infinite unless found).
    pub length: f64,
    /// Nodes expanded by A*.
    pub expanded: usize,
    /// Largest number of nodes held at once in A*'s open and closed lists.
    pub peak_memory: usize,
}

impl VisibilityGraph {
    /// Finds the convex corners of `map`'s walls (the map's edge counts as wall) and links every
    /// pair that sees each other along a line touching both corners' walls.
    pub fn build(map: &TileMap) -> Result<Self, VisibilityError> {
        let (corners, count) = convex_corners(map, MAX_CORNERS);
        if count > MAX_CORNERS {
            return Err(VisibilityError::TooManyCorners {
                corners: count,
                limit: MAX_CORNERS,
            });
        }
        let mut links = vec![Vec::new(); corners.len()];
        let mut link_count = 0;
        for (i, a) in corners.iter().enumerate() {
            for (j, b) in corners.iter().enumerate().skip(i + 1) {
                let d = (b.at.x2 - a.at.x2, b.at.y2 - a.at.y2);
                if a.is_tangent(d) && b.is_tangent(d) && segment_is_free(map, a.at, b.at) {
                    let length = a.at.distance(b.at);
                    links[i].push((j as u32, length));
                    links[j].push((i as u32, length));
                    link_count += 1;
                }
            }
        }
        Ok(Self {
            corners,
            links,
            link_count,
        })
    }

    /// Number of corners (the graph's nodes).
    pub fn corner_count(&self) -> usize {
        self.corners.len()
    }

    /// Number of links between corners.
    pub fn link_count(&self) -> usize {
        self.link_count
    }

    /// Corner `i` (the graph's node `i`).
    pub fn corner(&self, i: usize) -> Option<HalfPoint> {
        self.corners.get(i).map(|c| c.at)
    }

    /// The corners.
    pub fn corners(&self) -> impl Iterator<Item = HalfPoint> + '_ {
        self.corners.iter().map(|c| c.at)
    }

    /// Every link once, as its two ends.
    pub fn links(&self) -> impl Iterator<Item = (HalfPoint, HalfPoint)> + '_ {
        self.links.iter().enumerate().flat_map(move |(i, out)| {
            out.iter()
                .filter(move |&&(j, _)| j as usize > i)
                .map(move |&(j, _)| (self.corners[i].at, self.corners[j as usize].at))
        })
    }

    /// The shortest path from `from` to `to` on `map` (the map the graph was built from),
    /// found by A* over the corners plus the two points, which link to every corner they see.
    /// Node ids in the events are corner indices, then the start, then the goal.
    pub fn find_path<O: Observer<SearchEvent>>(
        &self,
        map: &TileMap,
        from: HalfPoint,
        to: HalfPoint,
        observer: &mut O,
    ) -> VisibilityPath {
        let corner_count = self.corners.len();
        let (start, goal) = (corner_count, corner_count + 1);
        if !point_is_free(map, from) || !point_is_free(map, to) {
            observer.event(SearchEvent::Finished {
                outcome: SearchOutcome::Unreachable,
                cost: f64::INFINITY,
            });
            return VisibilityPath {
                outcome: SearchOutcome::Unreachable,
                points: Vec::new(),
                length: f64::INFINITY,
                expanded: 0,
                peak_memory: 0,
            };
        }
        let seen_from = |p: HalfPoint| -> Vec<(u32, f64)> {
            self.corners
                .iter()
                .enumerate()
                .filter(|(_, c)| {
                    c.at != p
                        && c.is_tangent((c.at.x2 - p.x2, c.at.y2 - p.y2))
                        && segment_is_free(map, p, c.at)
                })
                .map(|(i, c)| (i as u32, p.distance(c.at)))
                .collect()
        };
        let from_start = seen_from(from);
        let mut to_goal = vec![None; corner_count];
        for (i, d) in seen_from(to) {
            to_goal[i as usize] = Some(d);
        }
        let direct = segment_is_free(map, from, to).then(|| from.distance(to));
        let point = |n: usize| match n {
            n if n == start => from,
            n if n == goal => to,
            n => self.corners[n].at,
        };
        let successors = |n: usize, out: &mut Vec<(usize, f64)>| {
            if n == start {
                out.extend(from_start.iter().map(|&(j, d)| (j as usize, d)));
                out.extend(direct.map(|d| (goal, d)));
            } else if n < corner_count {
                out.extend(self.links[n].iter().map(|&(j, d)| (j as usize, d)));
                out.extend(to_goal[n].map(|d| (goal, d)));
            }
        };
        let mut scratch = AStarScratch::default();
        let result = astar_with_scratch(
            &mut scratch,
            corner_count + 2,
            start,
            successors,
            |n| point(n).distance(to),
            |n| n == goal,
            observer,
        );
        VisibilityPath {
            outcome: result.outcome,
            points: result.path.iter().map(|&n| point(n)).collect(),
            length: result.cost,
            expanded: result.expanded,
            peak_memory: result.peak_memory,
        }
    }
}

/// The grid points with exactly one blocked cell among their four, in row-major order: the first
/// `keep` of them, and how many there are.
fn convex_corners(map: &TileMap, keep: usize) -> (Vec<Corner>, usize) {
    let (w, h) = (map.width() as i64, map.height() as i64);
    let mut corners = Vec::new();
    let mut count = 0;
    for y in 0..=h {
        for x in 0..=w {
            let around = [
                ((-1, -1), open(map, x - 1, y - 1)),
                ((1, -1), open(map, x, y - 1)),
                ((-1, 1), open(map, x - 1, y)),
                ((1, 1), open(map, x, y)),
            ];
            let mut blocked = around.iter().filter(|(_, is_open)| !is_open);
            if let (Some(&(toward_wall, _)), None) = (blocked.next(), blocked.next()) {
                count += 1;
                if corners.len() < keep {
                    corners.push(Corner {
                        at: HalfPoint::corner(x, y),
                        toward_wall,
                    });
                }
            }
        }
    }
    (corners, count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoObserver;

    fn map(rows: &str) -> TileMap {
        TileMap::from_ascii(rows).expect("map")
    }

    #[test]
    fn a_single_wall_has_four_corners_linked_around_it() {
        let m = map(".....\n.....\n..@..\n.....\n.....");
        let graph = VisibilityGraph::build(&m).expect("graph");
        assert_eq!(graph.corner_count(), 4);
        // Its four sides; the diagonals cross the wall.
        assert_eq!(graph.link_count(), 4);
    }

    #[test]
    fn the_path_bends_round_a_wall_at_its_corners() {
        let m = map(".....\n..@..\n..@..\n..@..\n.....");
        let graph = VisibilityGraph::build(&m).expect("graph");
        let path = graph.find_path(
            &m,
            HalfPoint::centre((0, 2)),
            HalfPoint::centre((4, 2)),
            &mut NoObserver,
        );
        assert_eq!(path.outcome, SearchOutcome::Found);
        // Round the top or the bottom: two corners, symmetric length.
        assert_eq!(path.points.len(), 4);
        let expected = 2.0 * 1.5f64.hypot(1.5) + 1.0;
        assert!((path.length - expected).abs() < 1e-12, "{}", path.length);
    }

    #[test]
    fn walls_cut_off_a_point_and_off_the_map_is_unreachable() {
        let m = map("..@..\n..@..");
        let graph = VisibilityGraph::build(&m).expect("graph");
        let centre = HalfPoint::centre;
        let cut_off = graph.find_path(&m, centre((0, 0)), centre((4, 1)), &mut NoObserver);
        assert_eq!(cut_off.outcome, SearchOutcome::Unreachable);
        let on_wall = graph.find_path(&m, centre((0, 0)), centre((2, 1)), &mut NoObserver);
        assert_eq!(on_wall.outcome, SearchOutcome::Unreachable);
    }
}
