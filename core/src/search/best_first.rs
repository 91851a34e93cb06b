//! Greedy best-first search: always expand the open node that looks nearest the goal (the
//! lowest `h`), ignoring what it cost to get there. It finds a path whenever one exists (every
//! reachable node is expanded at most once), usually after few expansions, but not the
//! cheapest: the cost so far never enters the choice, and a node is kept with the parent it
//! was first reached from.
//!
//! Ties are broken deterministically: lowest `h`, then the node opened last.

use super::events::{Observer, SearchEvent, SearchOutcome, SearchResult};
use std::collections::BinaryHeap;

/// What the search knows of a node: not reached, open (with its parent and cost so far), or
/// expanded.
#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Unseen,
    Open { parent: u32, g: f64 },
    Closed { parent: u32, g: f64 },
}

const NO_PARENT: u32 = u32::MAX;

/// Greedy best-first search from `start` to a node satisfying `is_goal` in a graph of
/// `node_count` nodes; `successors(node, out)` pushes `(neighbour, step_cost)` pairs,
/// `heuristic(node)` estimates the distance to the goal. The path's cost is the sum of its
/// steps; it is not, in general, the cheapest.
///
/// ```
/// use navlab_core::search::{best_first, NoObserver, SearchOutcome};
/// // A line graph 0 - 1 - 2 - 3 with unit steps.
/// let result = best_first(
///     4,
///     0,
///     |n, out: &mut Vec<(usize, f64)>| {
///         if n > 0 { out.push((n - 1, 1.0)) }
///         if n < 3 { out.push((n + 1, 1.0)) }
///     },
///     |n| (3 - n) as f64,
///     |n| n == 3,
///     &mut NoObserver,
/// );
/// assert_eq!(result.outcome, SearchOutcome::Found);
/// assert_eq!(result.path, vec![0, 1, 2, 3]);
/// ```
pub fn best_first<S, H, G, O>(
    node_count: usize,
    start: usize,
    mut successors: S,
    mut heuristic: H,
    mut is_goal: G,
    observer: &mut O,
) -> SearchResult
where
    S: FnMut(usize, &mut Vec<(usize, f64)>),
    H: FnMut(usize) -> f64,
    G: FnMut(usize) -> bool,
    O: Observer<SearchEvent>,
{
    let mut result = SearchResult::not_found();
    if start >= node_count || node_count >= NO_PARENT as usize {
        observer.event(SearchEvent::Finished {
            outcome: SearchOutcome::Unreachable,
            cost: f64::INFINITY,
        });
        return result;
    }
    let mut states = vec![State::Unseen; node_count];
    // Max-heap of (the bits of -h ordered as numbers, insertion order, node): the lowest h
    // first (`h` is non-negative, so its bits order like the number), the newest among equals.
    let mut heap: BinaryHeap<(std::cmp::Reverse<u64>, u64, u32)> = BinaryHeap::new();
    let key = |h: f64| std::cmp::Reverse(h.max(0.0).to_bits());
    let mut order = 0u64;
    let h0 = heuristic(start);
    states[start] = State::Open {
        parent: NO_PARENT,
        g: 0.0,
    };
    heap.push((key(h0), order, start as u32));
    observer.event(SearchEvent::Opened {
        node: start,
        parent: None,
        g: 0.0,
        h: h0,
    });
    let (mut open, mut closed) = (1usize, 0usize);
    result.peak_memory = 1;
    let mut out = Vec::new();
    while let Some((std::cmp::Reverse(h_bits), _, node)) = heap.pop() {
        let node = node as usize;
        let Some(&State::Open { parent, g }) = states.get(node) else {
            continue;
        };
        states[node] = State::Closed { parent, g };
        open -= 1;
        closed += 1;
        result.expanded += 1;
        observer.event(SearchEvent::Expanded {
            node,
            g,
            h: f64::from_bits(h_bits),
        });
        if is_goal(node) {
            result.found(node, g, |n| match states.get(n) {
                Some(State::Closed { parent, .. } | State::Open { parent, .. }) => *parent,
                _ => NO_PARENT,
            });
            break;
        }
        if observer.stop() {
            result.outcome = SearchOutcome::BudgetExceeded;
            break;
        }
        out.clear();
        successors(node, &mut out);
        for &(next, step) in &out {
            if states.get(next) != Some(&State::Unseen) {
                continue;
            }
            let g_next = g + step;
            let h = heuristic(next);
            states[next] = State::Open {
                parent: node as u32,
                g: g_next,
            };
            order += 1;
            heap.push((key(h), order, next as u32));
            open += 1;
            observer.event(SearchEvent::Opened {
                node: next,
                parent: Some(node),
                g: g_next,
                h,
            });
        }
        result.peak_memory = result.peak_memory.max(open + closed);
    }
    observer.event(SearchEvent::Finished {
        outcome: result.outcome,
        cost: result.cost,
    });
    result
}
