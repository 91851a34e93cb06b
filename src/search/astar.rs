//! Compute a shortest path using the [A* search algorithm](https://en.wikipedia.org/wiki/A*_search_algorithm),
//! generic over the graph: the navmesh search and the grid search both call this one function.
//!
//! Ties are broken deterministically: lowest `f` first, then lowest `h` (the node nearer the goal),
//! then the node that entered the open list first.

use super::events::{Observer, SearchEvent, SearchOutcome, SearchResult};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

const NO_PARENT: u32 = u32::MAX;

#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeState {
    New,
    Open,
    Closed,
}

/// Per-node working memory of a search, reusable between searches on graphs of the same size so
/// that repeated queries do not allocate.
#[derive(Default)]
pub struct AStarScratch {
    g: Vec<f64>,
    parent: Vec<u32>,
    state: Vec<NodeState>,
    touched: Vec<u32>,
    heap: BinaryHeap<OpenEntry>,
    successors: Vec<(usize, f64)>,
}

impl AStarScratch {
    /// Working memory for graphs of `node_count` nodes.
    pub fn new(node_count: usize) -> Self {
        let mut scratch = Self::default();
        scratch.prepare(node_count);
        scratch
    }

    fn prepare(&mut self, node_count: usize) {
        if self.g.len() != node_count {
            self.g = vec![f64::INFINITY; node_count];
            self.parent = vec![NO_PARENT; node_count];
            self.state = vec![NodeState::New; node_count];
            self.touched.clear();
        } else {
            for &n in &self.touched {
                let n = n as usize;
                self.g[n] = f64::INFINITY;
                self.parent[n] = NO_PARENT;
                self.state[n] = NodeState::New;
            }
            self.touched.clear();
        }
        self.heap.clear();
    }
}

/// An entry of the open list; ordered so that the max-heap pops the best entry.
struct OpenEntry {
    f: f64,
    h: f64,
    order: u64,
    node: u32,
    g: f64,
}

impl PartialEq for OpenEntry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for OpenEntry {}
impl PartialOrd for OpenEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OpenEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then_with(|| other.h.total_cmp(&self.h))
            .then_with(|| other.order.cmp(&self.order))
    }
}

/// Finds a cheapest path from `start` to a node satisfying `is_goal` in a graph of `node_count`
/// nodes numbered `0..node_count`.
///
/// * `successors(node, out)` pushes `(neighbour, step_cost)` pairs onto `out` (costs ≥ 0);
/// * `heuristic(node)` estimates the remaining cost; with an admissible and consistent heuristic
///   the returned path is optimal;
/// * every step is reported to `observer` (pass [`NoObserver`](super::NoObserver) for none).
///
/// ```
/// use navlab::search::{astar, NoObserver, SearchOutcome};
/// // A line graph 0 - 1 - 2 - 3 with unit steps.
/// let result = astar(
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
/// assert_eq!(result.cost, 3.0);
/// ```
pub fn astar<S, H, G, O>(
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
    let mut scratch = AStarScratch::default();
    astar_with_scratch(
        &mut scratch,
        node_count,
        start,
        successors,
        heuristic,
        is_goal,
        observer,
    )
}

/// [`astar`] reusing `scratch` between calls (no allocation once warmed up).
pub fn astar_with_scratch<S, H, G, O>(
    scratch: &mut AStarScratch,
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
    scratch.prepare(node_count);
    let mut result = SearchResult {
        outcome: SearchOutcome::Unreachable,
        path: Vec::new(),
        cost: f64::INFINITY,
        expanded: 0,
        peak_memory: 0,
    };
    if start >= node_count || node_count > NO_PARENT as usize {
        observer.event(SearchEvent::Finished {
            outcome: SearchOutcome::Unreachable,
        });
        return result;
    }
    let AStarScratch {
        g,
        parent,
        state,
        touched,
        heap,
        successors: out,
    } = scratch;

    let mut order = 0u64;
    let h0 = heuristic(start);
    g[start] = 0.0;
    state[start] = NodeState::Open;
    touched.push(start as u32);
    heap.push(OpenEntry {
        f: h0,
        h: h0,
        order,
        node: start as u32,
        g: 0.0,
    });
    observer.event(SearchEvent::Opened {
        node: start,
        parent: None,
        g: 0.0,
        h: h0,
    });
    let mut open_count = 1usize;
    let mut closed_count = 0usize;
    result.peak_memory = 1;

    while let Some(entry) = heap.pop() {
        let node = entry.node as usize;
        if state[node] == NodeState::Closed || entry.g > g[node] {
            continue; // a stale entry left behind by an improvement
        }
        state[node] = NodeState::Closed;
        open_count -= 1;
        closed_count += 1;
        result.expanded += 1;
        observer.event(SearchEvent::Expanded {
            node,
            g: entry.g,
            h: entry.h,
        });
        if is_goal(node) {
            result.outcome = SearchOutcome::Found;
            result.cost = entry.g;
            let mut n = node as u32;
            while n != NO_PARENT {
                result.path.push(n as usize);
                n = parent[n as usize];
            }
            result.path.reverse();
            break;
        }
        out.clear();
        successors(node, out);
        for &(next, step) in out.iter() {
            if next >= node_count || state[next] == NodeState::Closed {
                continue;
            }
            let new_g = entry.g + step;
            if new_g >= g[next] {
                continue;
            }
            let first_visit = state[next] == NodeState::New;
            let h = heuristic(next);
            g[next] = new_g;
            parent[next] = node as u32;
            order += 1;
            heap.push(OpenEntry {
                f: new_g + h,
                h,
                order,
                node: next as u32,
                g: new_g,
            });
            if first_visit {
                state[next] = NodeState::Open;
                touched.push(next as u32);
                open_count += 1;
                observer.event(SearchEvent::Opened {
                    node: next,
                    parent: Some(node),
                    g: new_g,
                    h,
                });
            } else {
                observer.event(SearchEvent::Improved {
                    node: next,
                    parent: node,
                    g: new_g,
                    h,
                });
            }
        }
        result.peak_memory = result.peak_memory.max(open_count + closed_count);
    }
    observer.event(SearchEvent::Finished {
        outcome: result.outcome,
    });
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoObserver;

    fn grid_successors(w: usize, h: usize) -> impl FnMut(usize, &mut Vec<(usize, f64)>) {
        move |n, out| {
            let (x, y) = (n % w, n / w);
            if x > 0 {
                out.push((n - 1, 1.0));
            }
            if x + 1 < w {
                out.push((n + 1, 1.0));
            }
            if y > 0 {
                out.push((n - w, 1.0));
            }
            if y + 1 < h {
                out.push((n + w, 1.0));
            }
        }
    }

    #[test]
    fn finds_manhattan_distance_on_an_open_grid_and_reports_every_step() {
        let (w, h) = (5, 4);
        let goal = w * h - 1;
        let mut trace = Vec::new();
        let result = astar(
            w * h,
            0,
            grid_successors(w, h),
            |n| ((w - 1 - n % w) + (h - 1 - n / w)) as f64,
            |n| n == goal,
            &mut trace,
        );
        assert_eq!(result.outcome, SearchOutcome::Found);
        assert_eq!(result.cost, 7.0);
        assert_eq!(result.path.len(), 8);
        let expanded = trace
            .iter()
            .filter(|e| matches!(e, SearchEvent::Expanded { .. }))
            .count();
        assert_eq!(expanded, result.expanded);
        assert_eq!(
            trace.last(),
            Some(&SearchEvent::Finished {
                outcome: SearchOutcome::Found
            })
        );
    }

    #[test]
    fn reports_unreachable_when_the_goal_is_cut_off() {
        let result = astar(
            3,
            0,
            |n, out: &mut Vec<(usize, f64)>| {
                if n == 0 {
                    out.push((1, 1.0));
                }
            },
            |_| 0.0,
            |n| n == 2,
            &mut NoObserver,
        );
        assert_eq!(result.outcome, SearchOutcome::Unreachable);
        assert!(result.path.is_empty());
        assert_eq!(result.expanded, 2);
    }

    #[test]
    fn scratch_reuse_gives_the_same_answers() {
        let (w, h) = (6, 6);
        let mut scratch = AStarScratch::new(w * h);
        for goal in [35, 7, 20, 35] {
            let fresh = astar(
                w * h,
                0,
                grid_successors(w, h),
                |_| 0.0,
                |n| n == goal,
                &mut NoObserver,
            );
            let reused = astar_with_scratch(
                &mut scratch,
                w * h,
                0,
                grid_successors(w, h),
                |_| 0.0,
                |n| n == goal,
                &mut NoObserver,
            );
            assert_eq!(fresh, reused);
        }
    }
}
