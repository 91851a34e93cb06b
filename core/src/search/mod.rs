//! Search algorithms over any graph whose nodes are dense indices, reporting every step as an
//! event so that a user interface can record and replay them.

pub mod astar;
pub mod best_first;
pub mod bfs;
pub mod bidirectional;
pub mod dijkstra;
pub mod events;
pub mod expansion_steps;
pub mod fringe;
pub mod fringe_lists;
pub mod frontier;
pub mod funnel;
pub mod ida_path;
pub mod idastar;
pub mod lockstep;
pub mod posthoc;
pub mod pseudocode;
pub mod replay;
pub mod round_funnel;

pub use astar::{AStarScratch, astar, astar_with_scratch};
pub use best_first::best_first;
pub use bfs::bfs;
pub use bidirectional::bidirectional_astar;
pub use dijkstra::dijkstra;
pub use events::{
    ExpansionOrder, JumpStop, MAX_RECORDED_STEPS, NoObserver, Observer, SearchEvent, SearchOutcome,
    SearchResult, WorkLimit, compass,
};
pub use expansion_steps::ExpansionSteps;
pub use fringe::{FringeScratch, fringe, fringe_with_scratch};
pub use fringe_lists::{FringeLists, NowEntry};
pub use frontier::{Frontier, FrontierEntry};
pub use ida_path::{IdaPath, PathNode};
pub use idastar::idastar;
pub use replay::{ListKind, NodeStatus, NodesShown, ReplayList, Revision, SearchReplay};

/// A map keyed by node id for the replays ([`Frontier`], [`FringeLists`]): node ids are dense
/// integers, so one multiplication hashes them well; std's SipHash cost more than the rest of a
/// replay step.
pub(crate) type NodeMap<V> =
    std::collections::HashMap<usize, V, std::hash::BuildHasherDefault<NodeHasher>>;

/// Fibonacci hashing of a node id (see [`NodeMap`]).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct NodeHasher(u64);

impl std::hash::Hasher for NodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The largest `f` a threshold pass (IDA*, Fringe Search) accepts: the threshold plus a small
/// tolerance, so float noise in sums of the same costs taken in another order cannot start an
/// extra pass. One rule for both algorithms, so they agree on what a pass contains.
pub(crate) fn pass_limit(threshold: f64) -> f64 {
    threshold + 1e-9 * threshold.abs().max(1.0)
}

/// The replays' small test maze: 7 × 5 unit steps, a wall down column 3 from the top but for
/// its last row, searched from node 0 (top left) to node 6 (top right), so the estimate is far
/// too low near the wall.
#[cfg(test)]
pub(crate) struct WallMaze;

#[cfg(test)]
impl WallMaze {
    const WIDTH: usize = 7;
    /// Its nodes.
    pub const NODES: usize = 35;
    /// The node searched for.
    pub const GOAL: usize = 6;

    /// Its successors.
    pub fn successors() -> impl Fn(usize, &mut Vec<(usize, f64)>) {
        let w = Self::WIDTH;
        walled_grid(w, Self::NODES / w, move |n| n % w == 3 && n / w < 4)
    }

    /// The Manhattan distance to the goal.
    pub fn estimate() -> impl Fn(usize) -> f64 + Copy {
        manhattan_to(Self::WIDTH, Self::GOAL)
    }
}

/// The Manhattan distance to `goal` on a grid `w` nodes wide: the estimate the replays' unit
/// tests search [`walled_grid`] with.
#[cfg(test)]
pub(crate) fn manhattan_to(w: usize, goal: usize) -> impl Fn(usize) -> f64 + Copy {
    move |n: usize| ((n % w).abs_diff(goal % w) + (n / w).abs_diff(goal / w)) as f64
}

/// A `w × h` grid of unit steps (4 directions) without the nodes `wall` names: the small maze
/// the replays' unit tests search.
#[cfg(test)]
pub(crate) fn walled_grid(
    w: usize,
    h: usize,
    wall: impl Fn(usize) -> bool,
) -> impl Fn(usize, &mut Vec<(usize, f64)>) {
    move |n: usize, out: &mut Vec<(usize, f64)>| {
        let (x, y) = (n % w, n / w);
        let mut push = |m: usize| {
            if !wall(m) {
                out.push((m, 1.0));
            }
        };
        if x > 0 {
            push(n - 1);
        }
        if x + 1 < w {
            push(n + 1);
        }
        if y > 0 {
            push(n - w);
        }
        if y + 1 < h {
            push(n + w);
        }
    }
}
