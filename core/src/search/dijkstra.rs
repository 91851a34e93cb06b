//! Compute a cheapest path using [Dijkstra's algorithm](https://en.wikipedia.org/wiki/Dijkstra%27s_algorithm):
//! A* with a zero heuristic, so it expands nodes in order of their cost from the start.

use super::astar::astar;
use super::events::{Observer, SearchEvent, SearchResult};

/// Cheapest path from `start` to a node satisfying `is_goal`; same arguments as
/// [`astar`](super::astar()) without the heuristic.
///
/// ```
/// use navlab_core::search::{dijkstra, NoObserver};
/// let result = dijkstra(3, 0, |n, out: &mut Vec<(usize, f64)>| {
///     if n == 0 { out.push((1, 5.0)); out.push((2, 1.0)) }
///     if n == 2 { out.push((1, 1.0)) }
/// }, |n| n == 1, &mut NoObserver);
/// assert_eq!(result.path, vec![0, 2, 1]);
/// assert_eq!(result.cost, 2.0);
/// ```
pub fn dijkstra<S, G, O>(
    node_count: usize,
    start: usize,
    successors: S,
    is_goal: G,
    observer: &mut O,
) -> SearchResult
where
    S: FnMut(usize, &mut Vec<(usize, f64)>),
    G: FnMut(usize) -> bool,
    O: Observer<SearchEvent>,
{
    astar(node_count, start, successors, |_| 0.0, is_goal, observer)
}
