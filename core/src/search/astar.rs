//! Compute a shortest path using the [A* search algorithm](https://en.wikipedia.org/wiki/A*_search_algorithm),
//! generic over the graph: the navmesh search and the grid search both call this one function.
//!
//! Ties are broken deterministically: lowest `f` first, then the node inserted last (the deeper
//! one, nearer the goal); a successor whose `f` equals the `f` being expanded is expanded next
//! without going through the heap at all, which on grids saves most heap operations.
//!
//! The open list is a binary heap of 16-byte entries ordered by integer keys: `f` is non-negative,
//! so its IEEE bit pattern sorts like the number. An improved node is pushed again and its older
//! entry skipped when popped ("lazy deletion").

use super::events::{Observer, SearchEvent, SearchOutcome, SearchResult};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

const NO_PARENT: u32 = u32::MAX;

/// What the search knows about one node, in 16 bytes so that four share a cache line: the bits
/// of its cost so far, then its parent plus one (0: none) in the low half of the second word
/// and the insertion number of its newest open entry in the high half (0: never reached;
/// `CLOSED` once expanded). Older entries of the node in the heap are stale. All zero for a
/// node not reached, so that the array starts as zeroed memory, which the system hands out
/// page by page as the search first writes to it: a search that reaches a few thousand nodes
/// of a 67-million-cell map holds a few pages, not a gigabyte.
type NodeRecord = [u64; 2];

const CLOSED: u32 = u32::MAX;

fn record(g: f64, parent: u32, latest: u32) -> NodeRecord {
    [
        g.to_bits(),
        u64::from(parent.wrapping_add(1)) | (u64::from(latest) << 32),
    ]
}

fn cost(record: &NodeRecord) -> f64 {
    f64::from_bits(record[0])
}

fn parent(record: &NodeRecord) -> u32 {
    (record[1] as u32).wrapping_sub(1)
}

fn latest(record: &NodeRecord) -> u32 {
    (record[1] >> 32) as u32
}

fn set_latest(record: &mut NodeRecord, latest: u32) {
    record[1] = (record[1] & u64::from(u32::MAX)) | (u64::from(latest) << 32);
}

/// Per-node working memory of a search, reusable between searches on graphs of the same size so
/// that repeated queries do not allocate.
#[derive(Default)]
pub struct AStarScratch {
    nodes: Vec<NodeRecord>,
    /// The nodes reached, to reset before the next search, while they are at most
    /// [`Self::touched_cap`]; past it the next search clears the whole array instead.
    touched: Vec<u32>,
    reset_all: bool,
    heap: BinaryHeap<OpenEntry>,
    /// Open nodes whose `f` equals the `f` being expanded: they are minimal too, so they skip
    /// the heap (last in, first out).
    level: Vec<OpenEntry>,
    successors: Vec<(usize, f64)>,
}

impl AStarScratch {
    /// The most nodes [`Self::touched`] lists: a quarter of the graph, and at least a million
    /// (searches that reach fewer are reset node by node; clearing the whole array after each
    /// of many small searches would cost more than the searches).
    fn touched_cap(&self) -> usize {
        (self.nodes.len() / 4).max(1 << 20)
    }

    /// Working memory for graphs of `node_count` nodes.
    pub fn new(node_count: usize) -> Self {
        let mut scratch = Self::default();
        scratch.prepare(node_count);
        scratch
    }

    fn prepare(&mut self, node_count: usize) {
        if self.nodes.len() != node_count {
            // Zeroed memory, resident page by page as it is written; the old array is freed
            // before the new one is asked for.
            self.nodes = Vec::new();
            self.nodes = vec![[0; 2]; node_count];
        } else if self.reset_all {
            self.nodes.fill([0; 2]);
        } else {
            for &n in &self.touched {
                if let Some(record) = self.nodes.get_mut(n as usize) {
                    *record = [0; 2];
                }
            }
        }
        self.reset_all = false;
        self.touched.clear();
        self.heap.clear();
        self.level.clear();
    }
}

/// An entry of the open list (16 bytes); ordered so that the max-heap pops the best entry.
/// One 128-bit key compares in two instructions: the bits of `f` (non-negative, so they order
/// like the number) in the high half, then `!order` (among equal `f`, the entry inserted last
/// comes first: it is the deeper one, nearer the goal), then the node.
#[derive(PartialEq, Eq)]
struct OpenEntry {
    key: u128,
}

impl OpenEntry {
    fn new(f: f64, order: u32, node: u32) -> Self {
        // `max` keeps the bit trick valid for -0.0 and maps NaN to 0.
        let f = u128::from(f.max(0.0).to_bits());
        Self {
            key: (f << 64) | (u128::from(!order) << 32) | u128::from(node),
        }
    }

    fn f_bits(&self) -> u64 {
        (self.key >> 64) as u64
    }

    fn order(&self) -> u32 {
        !((self.key >> 32) as u32)
    }

    fn node(&self) -> u32 {
        self.key as u32
    }
}

impl PartialOrd for OpenEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OpenEntry {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        // Smallest key first.
        other.key.cmp(&self.key)
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
/// use navlab_core::search::{astar, NoObserver, SearchOutcome};
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
    astar_with_parents(
        scratch,
        node_count,
        start,
        |node, _, out: &mut Vec<(usize, f64)>| successors(node, out),
        heuristic,
        is_goal,
        observer,
    )
}

/// [`astar_with_scratch`] for graphs whose steps from a node depend on how the node was
/// reached: `successors(node, parent, out)` is told the node's parent on its cheapest known
/// path (`None` for the start). Called once per node, when it is expanded, so a search may
/// keep per-node state of its own (a position chosen from the parent's, say) and read the
/// parent's, which was expanded before.
pub fn astar_with_parents<S, H, G, O>(
    scratch: &mut AStarScratch,
    node_count: usize,
    start: usize,
    mut successors: S,
    mut heuristic: H,
    mut is_goal: G,
    observer: &mut O,
) -> SearchResult
where
    S: FnMut(usize, Option<usize>, &mut Vec<(usize, f64)>),
    H: FnMut(usize) -> f64,
    G: FnMut(usize) -> bool,
    O: Observer<SearchEvent>,
{
    scratch.prepare(node_count);
    let mut result = SearchResult::not_found();
    if start >= node_count || node_count > NO_PARENT as usize {
        observer.event(SearchEvent::Finished {
            outcome: SearchOutcome::Unreachable,
            cost: f64::INFINITY,
        });
        return result;
    }
    let cap = scratch.touched_cap();
    let AStarScratch {
        nodes,
        touched,
        reset_all,
        heap,
        level,
        successors: out,
    } = scratch;
    // Notes a node reached, for the reset before the next search.
    let mut touch = |node: usize| {
        if !*reset_all {
            if touched.len() >= cap {
                *reset_all = true;
                *touched = Vec::new();
            } else {
                touched.push(node as u32);
            }
        }
    };

    // Insertion numbers start at 1 (0 means "never pushed"); CLOSED is never reached because
    // a graph with u32::MAX - 1 pushes would not fit in memory here.
    let mut order = 1u32;
    let h0 = heuristic(start);
    nodes[start] = record(0.0, NO_PARENT, order);
    touch(start);
    heap.push(OpenEntry::new(h0, order, start as u32));
    observer.event(SearchEvent::Opened {
        node: start,
        parent: None,
        g: 0.0,
        h: h0,
    });
    let mut open_count = 1usize;
    let mut closed_count = 0usize;
    result.peak_memory = 1;

    while let Some(entry) = level.pop().or_else(|| heap.pop()) {
        let node = entry.node() as usize;
        let Some(at) = nodes.get_mut(node) else {
            continue;
        };
        if latest(at) != entry.order() {
            continue; // closed, or a stale entry left behind by an improvement
        }
        set_latest(at, CLOSED);
        let g_node = cost(at);
        let parent_node = parent(at);
        open_count -= 1;
        closed_count += 1;
        result.expanded += 1;
        observer.event(SearchEvent::Expanded {
            node,
            g: g_node,
            h: f64::from_bits(entry.f_bits()) - g_node,
        });
        if is_goal(node) {
            result.found(node, g_node, |n| parent(&nodes[n]));
            break;
        }
        if observer.stop() {
            result.outcome = SearchOutcome::BudgetExceeded;
            break;
        }
        out.clear();
        successors(
            node,
            (parent_node != NO_PARENT).then_some(parent_node as usize),
            out,
        );
        for &(next, step) in out.iter() {
            let Some(at) = nodes.get_mut(next) else {
                continue;
            };
            let seen = latest(at);
            if seen == CLOSED {
                continue;
            }
            let new_g = g_node + step;
            let first_visit = seen == 0;
            if !first_visit && new_g >= cost(at) {
                continue;
            }
            let h_next = heuristic(next);
            order = order.wrapping_add(1);
            *at = record(new_g, node as u32, order);
            let entry_next = OpenEntry::new(new_g + h_next, order, next as u32);
            // Equal f: as good as anything open, so expand it next without the heap (common on
            // grids when walking straight at the goal).
            if entry_next.f_bits() == entry.f_bits() {
                level.push(entry_next);
            } else {
                heap.push(entry_next);
            }
            if first_visit {
                touch(next);
                open_count += 1;
                observer.event(SearchEvent::Opened {
                    node: next,
                    parent: Some(node),
                    g: new_g,
                    h: h_next,
                });
            } else {
                observer.event(SearchEvent::Improved {
                    node: next,
                    parent: node,
                    g: new_g,
                    h: h_next,
                });
            }
        }
        result.peak_memory = result.peak_memory.max(open_count + closed_count);
    }
    observer.event(SearchEvent::Finished {
        outcome: result.outcome,
        cost: result.cost,
    });
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NoObserver;

    /// A search that reaches more nodes than the reset list holds clears the whole array for
    /// the next one, which then finds what a fresh scratch finds.
    #[test]
    fn a_scratch_reused_after_a_search_past_the_reset_list_is_as_fresh() {
        let n = (1 << 20) + 1000;
        let line = |node: usize, out: &mut Vec<(usize, f64)>| {
            if node + 1 < n {
                out.push((node + 1, 1.0));
            }
            if node > 0 {
                out.push((node - 1, 1.0));
            }
        };
        let mut scratch = AStarScratch::new(n);
        let far = astar_with_scratch(
            &mut scratch,
            n,
            0,
            line,
            |_| 0.0,
            |v| v == n - 1,
            &mut NoObserver,
        );
        assert_eq!(far.cost, (n - 1) as f64);
        assert!(scratch.reset_all, "past the list");
        let again = astar_with_scratch(
            &mut scratch,
            n,
            10,
            line,
            |_| 0.0,
            |v| v == 4,
            &mut NoObserver,
        );
        let fresh = astar(n, 10, line, |_| 0.0, |v| v == 4, &mut NoObserver);
        assert_eq!(
            (again.cost, &again.path, again.expanded),
            (fresh.cost, &fresh.path, fresh.expanded)
        );
        assert!(!scratch.reset_all);
    }

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
                outcome: SearchOutcome::Found,
                cost: 7.0,
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
