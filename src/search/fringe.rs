//! Compute a shortest path using [Fringe Search](https://en.wikipedia.org/wiki/Fringe_search)
//! (Björnsson, Enzenberger, Holte and Schaeffer, 2005) — the "improved A*/IDA*" of the seed
//! paper (Suzhou 2012): an unsorted *now* list processed in order, children inserted right after
//! the node being expanded; a node whose `f` exceeds the threshold moves to the *later* list;
//! when *now* runs out, *later* becomes *now* and the threshold rises to the smallest `f` that
//! exceeded it. Costs found so far are cached between passes, so nothing is re-searched from
//! the start.

use super::events::{Observer, SearchEvent, SearchResult};
use super::pass_limit;
use std::collections::VecDeque;

/// What Fringe Search keeps per node, together so that one cache line serves a visit: cost so
/// far (infinite: never reached), heuristic, parent, and the version that list entries must
/// carry to be current (older entries were superseded by a cheaper route).
#[derive(Clone, Copy)]
struct FringeRecord {
    g: f64,
    h: f64,
    parent: u32,
    version: u32,
}

const UNSEEN: FringeRecord = FringeRecord {
    g: f64::INFINITY,
    h: 0.0,
    parent: u32::MAX,
    version: 0,
};

/// Per-node memory of Fringe Search, reusable between searches on graphs of the same size.
#[derive(Default)]
pub struct FringeScratch {
    nodes: Vec<FringeRecord>,
    touched: Vec<u32>,
    now: VecDeque<(u32, u32)>,
    later: VecDeque<(u32, u32)>,
    children: Vec<(usize, f64)>,
}

impl FringeScratch {
    fn prepare(&mut self, node_count: usize) {
        if self.nodes.len() != node_count {
            self.nodes = vec![UNSEEN; node_count];
        } else {
            for &n in &self.touched {
                self.nodes[n as usize] = UNSEEN;
            }
        }
        self.touched.clear();
        self.now.clear();
        self.later.clear();
    }
}

/// Shortest path from `start` to a node satisfying `is_goal`; arguments as for
/// [`astar`](super::astar()). Optimal with an admissible heuristic.
///
/// ```
/// use navlab::search::{fringe, NoObserver};
/// let grid = |n: usize, out: &mut Vec<(usize, f64)>| {
///     let (x, y) = (n % 4, n / 4);
///     if x > 0 { out.push((n - 1, 1.0)) }
///     if x < 3 { out.push((n + 1, 1.0)) }
///     if y > 0 { out.push((n - 4, 1.0)) }
///     if y < 3 { out.push((n + 4, 1.0)) }
/// };
/// let manhattan = |n: usize| ((3 - n % 4) + (3 - n / 4)) as f64;
/// let result = fringe(16, 0, grid, manhattan, |n| n == 15, &mut NoObserver);
/// assert_eq!(result.cost, 6.0);
/// ```
pub fn fringe<S, H, G, O>(
    node_count: usize,
    start: usize,
    successors: S,
    heuristic: H,
    is_goal: G,
    observer: &mut O,
) -> SearchResult
where
    S: FnMut(usize, &mut Vec<(usize, f64)>),
    H: FnMut(usize) -> f64,
    G: FnMut(usize) -> bool,
    O: Observer<SearchEvent>,
{
    let mut scratch = FringeScratch::default();
    fringe_with_scratch(
        &mut scratch,
        node_count,
        start,
        successors,
        heuristic,
        is_goal,
        observer,
    )
}

/// [`fringe`] reusing `scratch` between calls.
pub fn fringe_with_scratch<S, H, G, O>(
    scratch: &mut FringeScratch,
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
    if start >= node_count || node_count >= u32::MAX as usize {
        observer.event(SearchEvent::Finished {
            outcome: result.outcome,
        });
        return result;
    }
    scratch.prepare(node_count);
    let FringeScratch {
        nodes,
        touched,
        now,
        later,
        children,
    } = scratch;

    let h_start = heuristic(start);
    nodes[start] = FringeRecord {
        g: 0.0,
        h: h_start,
        parent: u32::MAX,
        version: 1,
    };
    touched.push(start as u32);
    now.push_back((start as u32, 1));
    observer.event(SearchEvent::Opened {
        node: start,
        parent: None,
        g: 0.0,
        h: h_start,
    });
    let mut threshold = h_start;
    let mut iteration = 1;
    observer.event(SearchEvent::IterationStarted {
        iteration,
        threshold,
    });
    'passes: loop {
        let limit = pass_limit(threshold);
        let mut smallest_above = f64::INFINITY;
        while let Some((node, entry_version)) = now.pop_front() {
            let node = node as usize;
            let record = nodes[node];
            if record.version != entry_version {
                continue; // superseded by a cheaper route
            }
            let f = record.g + record.h;
            if f > limit {
                smallest_above = smallest_above.min(f);
                later.push_back((node as u32, entry_version));
                observer.event(SearchEvent::Deferred { node, f });
                continue;
            }
            result.expanded += 1;
            observer.event(SearchEvent::Expanded {
                node,
                g: record.g,
                h: record.h,
            });
            if is_goal(node) {
                result.found(node, record.g, |n| nodes[n].parent);
                break 'passes;
            }
            // Leaves the lists (its entry is consumed); a cheaper route later re-inserts it.
            nodes[node].version = record.version.wrapping_add(1);
            children.clear();
            successors(node, children);
            // Children go right after this node, in their natural order.
            for &(child, step) in children.iter().rev() {
                let Some(next) = nodes.get_mut(child) else {
                    continue;
                };
                let new_g = record.g + step;
                if new_g >= next.g {
                    continue;
                }
                let first = next.g.is_infinite();
                if first {
                    next.h = heuristic(child);
                    touched.push(child as u32);
                }
                next.g = new_g;
                next.parent = node as u32;
                next.version = next.version.wrapping_add(1);
                now.push_front((child as u32, next.version));
                let h_child = next.h;
                if first {
                    observer.event(SearchEvent::Opened {
                        node: child,
                        parent: Some(node),
                        g: new_g,
                        h: h_child,
                    });
                } else {
                    observer.event(SearchEvent::Improved {
                        node: child,
                        parent: node,
                        g: new_g,
                        h: h_child,
                    });
                }
            }
            result.peak_memory = result.peak_memory.max(now.len() + later.len());
        }
        if later.is_empty() {
            break;
        }
        threshold = smallest_above;
        iteration += 1;
        observer.event(SearchEvent::IterationStarted {
            iteration,
            threshold,
        });
        std::mem::swap(now, later);
    }
    observer.event(SearchEvent::Finished {
        outcome: result.outcome,
    });
    result
}
