//! Compute a path with the fewest steps using
//! [breadth-first search](https://en.wikipedia.org/wiki/Breadth-first_search). Step costs are
//! ignored for the choice (the path is not the cheapest on weighted terrain) but added up for the
//! reported cost.

use super::events::{Observer, SearchEvent, SearchOutcome, SearchResult};
use std::collections::VecDeque;

/// Fewest-steps path from `start` to a node satisfying `is_goal`; `successors` as for
/// [`astar`](super::astar()).
///
/// ```
/// use navlab_core::search::{bfs, NoObserver};
/// let result = bfs(3, 0, |n, out: &mut Vec<(usize, f64)>| {
///     if n == 0 { out.push((1, 5.0)); out.push((2, 1.0)) }
///     if n == 2 { out.push((1, 1.0)) }
/// }, |n| n == 1, &mut NoObserver);
/// assert_eq!(result.path, vec![0, 1]); // one step, though it costs 5
/// assert_eq!(result.cost, 5.0);
/// ```
pub fn bfs<S, G, O>(
    node_count: usize,
    start: usize,
    mut successors: S,
    mut is_goal: G,
    observer: &mut O,
) -> SearchResult
where
    S: FnMut(usize, &mut Vec<(usize, f64)>),
    G: FnMut(usize) -> bool,
    O: Observer<SearchEvent>,
{
    let mut result = SearchResult::not_found();
    if start >= node_count {
        observer.event(SearchEvent::Finished {
            outcome: result.outcome,
            cost: result.cost,
        });
        return result;
    }
    // Zeroed memory (resident only where the search writes): `g` and `parent` are read only
    // for nodes `seen` says were reached, whatever the costs add up to (a sum may overflow to
    // infinity).
    let mut g = vec![0.0f64; node_count];
    let mut seen = vec![false; node_count];
    let mut parent = vec![0u32; node_count];
    parent[start] = u32::MAX;
    let mut queue = VecDeque::new();
    let mut out = Vec::new();
    g[start] = 0.0;
    seen[start] = true;
    queue.push_back(start);
    observer.event(SearchEvent::Opened {
        node: start,
        parent: None,
        g: 0.0,
        h: 0.0,
    });
    let mut closed = 0usize;
    while let Some(node) = queue.pop_front() {
        result.expanded += 1;
        closed += 1;
        observer.event(SearchEvent::Expanded {
            node,
            g: g[node],
            h: 0.0,
        });
        if is_goal(node) {
            result.found(node, g[node], |n| parent[n]);
            break;
        }
        if observer.stop() {
            result.outcome = SearchOutcome::BudgetExceeded;
            break;
        }
        out.clear();
        successors(node, &mut out);
        for &(next, step) in &out {
            if let Some(seen) = seen.get_mut(next).filter(|seen| !**seen) {
                *seen = true;
                g[next] = g[node] + step;
                parent[next] = node as u32;
                queue.push_back(next);
                observer.event(SearchEvent::Opened {
                    node: next,
                    parent: Some(node),
                    g: g[next],
                    h: 0.0,
                });
            }
        }
        result.peak_memory = result.peak_memory.max(queue.len() + closed);
    }
    observer.event(SearchEvent::Finished {
        outcome: result.outcome,
        cost: result.cost,
    });
    result
}
