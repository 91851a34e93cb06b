//! Search algorithms over any graph whose nodes are dense indices, reporting every step as an
//! event so that a user interface can record and replay them.

pub mod astar;
pub mod bfs;
pub mod dijkstra;
pub mod events;
pub mod fringe;
pub mod fringe_lists;
pub mod frontier;
pub mod funnel;
pub mod idastar;

pub use astar::{AStarScratch, astar, astar_with_scratch};
pub use bfs::bfs;
pub use dijkstra::dijkstra;
pub use events::{ExpansionOrder, NoObserver, Observer, SearchEvent, SearchOutcome, SearchResult};
pub use fringe::{FringeScratch, fringe, fringe_with_scratch};
pub use fringe_lists::{FringeLists, NowEntry};
pub use frontier::{Frontier, FrontierEntry};
pub use idastar::idastar;

/// The largest `f` a threshold pass (IDA*, Fringe Search) accepts: the threshold plus a small
/// tolerance, so float noise in sums of the same costs taken in another order cannot start an
/// extra pass. One rule for both algorithms, so they agree on what a pass contains.
pub(crate) fn pass_limit(threshold: f64) -> f64 {
    threshold + 1e-9 * threshold.abs().max(1.0)
}
