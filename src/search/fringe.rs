//! Compute a shortest path using [Fringe Search](https://en.wikipedia.org/wiki/Fringe_search)
//! (Björnsson, Enzenberger, Holte and Schaeffer, 2005) — the "improved A*/IDA*" of the seed
//! paper (Suzhou 2012): an unsorted *now* list processed in order, children inserted right after
//! the node being expanded; a node whose `f` exceeds the threshold moves to the *later* list;
//! when *now* runs out, *later* becomes *now* and the threshold rises to the smallest `f` that
//! exceeded it. Costs found so far are cached between passes, so nothing is re-searched from
//! the start.

use super::events::{Observer, SearchEvent, SearchOutcome, SearchResult};
use std::collections::VecDeque;

fn above(f: f64, threshold: f64) -> bool {
    f > threshold + 1e-9 * threshold.abs().max(1.0)
}

/// Per-node memory of Fringe Search, reusable between searches on graphs of the same size.
#[derive(Default)]
pub struct FringeScratch {
    g: Vec<f64>,
    h: Vec<f64>,
    parent: Vec<u32>,
    /// Entries of a node in the lists are valid only if they carry its current version.
    version: Vec<u32>,
    touched: Vec<u32>,
    now: VecDeque<(u32, u32)>,
    later: VecDeque<(u32, u32)>,
    children: Vec<(usize, f64)>,
}

impl FringeScratch {
    fn prepare(&mut self, node_count: usize) {
        if self.g.len() != node_count {
            self.g = vec![f64::INFINITY; node_count];
            self.h = vec![f64::NAN; node_count];
            self.parent = vec![u32::MAX; node_count];
            self.version = vec![0; node_count];
        } else {
            for &n in &self.touched {
                let n = n as usize;
                self.g[n] = f64::INFINITY;
                self.h[n] = f64::NAN;
                self.parent[n] = u32::MAX;
                self.version[n] = 0;
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
    let mut result = SearchResult {
        outcome: SearchOutcome::Unreachable,
        path: Vec::new(),
        cost: f64::INFINITY,
        expanded: 0,
        peak_memory: 0,
    };
    if start >= node_count || node_count >= u32::MAX as usize {
        observer.event(SearchEvent::Finished {
            outcome: result.outcome,
        });
        return result;
    }
    scratch.prepare(node_count);
    let FringeScratch {
        g,
        h,
        parent,
        version,
        touched,
        now,
        later,
        children,
    } = scratch;

    let h_start = heuristic(start);
    g[start] = 0.0;
    h[start] = h_start;
    version[start] = 1;
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
        let mut smallest_above = f64::INFINITY;
        while let Some((node, entry_version)) = now.pop_front() {
            let node = node as usize;
            if version[node] != entry_version {
                continue; // superseded by a cheaper route
            }
            let f = g[node] + h[node];
            if above(f, threshold) {
                smallest_above = smallest_above.min(f);
                later.push_back((node as u32, entry_version));
                observer.event(SearchEvent::Deferred { node, f });
                continue;
            }
            result.expanded += 1;
            observer.event(SearchEvent::Expanded {
                node,
                g: g[node],
                h: h[node],
            });
            if is_goal(node) {
                result.outcome = SearchOutcome::Found;
                result.cost = g[node];
                let mut n = node as u32;
                while n != u32::MAX {
                    result.path.push(n as usize);
                    n = parent[n as usize];
                }
                result.path.reverse();
                break 'passes;
            }
            // Leaves the lists (its entry is consumed); a cheaper route later re-inserts it.
            version[node] = version[node].wrapping_add(1);
            children.clear();
            successors(node, children);
            // Children go right after this node, in their natural order.
            for &(child, step) in children.iter().rev() {
                if child >= node_count {
                    continue;
                }
                let new_g = g[node] + step;
                if new_g >= g[child] {
                    continue;
                }
                let first = g[child].is_infinite();
                if first {
                    h[child] = heuristic(child);
                    touched.push(child as u32);
                }
                g[child] = new_g;
                parent[child] = node as u32;
                version[child] = version[child].wrapping_add(1);
                now.push_front((child as u32, version[child]));
                if first {
                    observer.event(SearchEvent::Opened {
                        node: child,
                        parent: Some(node),
                        g: new_g,
                        h: h[child],
                    });
                } else {
                    observer.event(SearchEvent::Improved {
                        node: child,
                        parent: node,
                        g: new_g,
                        h: h[child],
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
