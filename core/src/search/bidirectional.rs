//! Bidirectional A\*: one A\* forward from the start towards the goal and one backward from the
//! goal towards the start, each with its own open list and estimate, taking turns.
//!
//! **Which half expands next**: the one whose open list is smaller (Pohl's cardinality rule),
//! the forward one on a tie.
//!
//! **When to stop** (the part that is easy to get wrong): whenever a half reaches a node the
//! other half has reached, the two paths through it make a candidate, and μ is the cheapest
//! candidate so far. Meeting is not enough — the first meeting is often not on a cheapest path.
//! The search stops when the lowest `f` of either open list is at least μ. With consistent
//! estimates that is safe: a path cheaper than μ would have an open node of the forward half
//! on it whose `f = g + h` is at most the path's cost, so below μ — and likewise in the
//! backward half. So once either half's lowest `f` reaches μ, no path cheaper than μ is left,
//! and the candidate of cost μ is a cheapest path. It also stops, with no path, when either
//! open list is empty and no candidate was found.
//!
//! Ties are broken deterministically, as [`astar`](super::astar()) breaks them: within a half,
//! lowest `f`, then the node opened (or made cheaper) last.
//!
//! Each turn from one half to the other is reported as [`SearchEvent::Turned`] (the steps after
//! it are that half's), each cheaper meeting as [`SearchEvent::Met`].

use super::events::{Observer, SearchEvent, SearchOutcome, SearchResult};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A node's record, all zero when neither half has reached it (so that the records of a large
/// graph cost memory only where touched): the bits of `g` forward and backward, then the
/// parents plus one (0: not reached; `u32::MAX`: reached, no parent), then the halves that
/// expanded it (bit 0 forward, bit 1 backward).
type Record = [u64; 4];

const NO_PARENT: u32 = u32::MAX;

/// An open-list entry of one half: lowest `f` first, then newest; with its `g`, to tell an
/// entry left behind by a cheaper one.
type Entry = (Reverse<u64>, u64, u64, u32);

/// Bidirectional A\* from `start` to `goal` in a graph of `node_count` nodes.
/// `successors(node, out)` pushes `(next, cost of the step node → next)`;
/// `predecessors(node, out)` pushes `(previous, cost of the step previous → node)` (the same
/// steps read backward); `to_goal(node)` and `to_start(node)` are consistent estimates of the
/// cost from `node` to the goal and from the start to `node`.
///
/// ```
/// use navlab_core::search::{bidirectional_astar, NoObserver, SearchOutcome};
/// // A line graph 0 - 1 - 2 - 3 - 4 with unit steps.
/// let line = |n: usize, out: &mut Vec<(usize, f64)>| {
///     if n > 0 { out.push((n - 1, 1.0)) }
///     if n < 4 { out.push((n + 1, 1.0)) }
/// };
/// let found = bidirectional_astar(
///     5, 0, 4, line, line,
///     |n| (4 - n) as f64,
///     |n| n as f64,
///     &mut NoObserver,
/// );
/// assert_eq!(found.outcome, SearchOutcome::Found);
/// assert_eq!(found.path, vec![0, 1, 2, 3, 4]);
/// assert_eq!(found.cost, 4.0);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn bidirectional_astar<S, P, HG, HS, O>(
    node_count: usize,
    start: usize,
    goal: usize,
    mut successors: S,
    mut predecessors: P,
    mut to_goal: HG,
    mut to_start: HS,
    observer: &mut O,
) -> SearchResult
where
    S: FnMut(usize, &mut Vec<(usize, f64)>),
    P: FnMut(usize, &mut Vec<(usize, f64)>),
    HG: FnMut(usize) -> f64,
    HS: FnMut(usize) -> f64,
    O: Observer<SearchEvent>,
{
    let mut result = SearchResult::not_found();
    if start >= node_count || goal >= node_count || node_count >= NO_PARENT as usize {
        observer.event(SearchEvent::Finished {
            outcome: SearchOutcome::Unreachable,
            cost: f64::INFINITY,
        });
        return result;
    }
    let mut records: Vec<Record> = vec![[0; 4]; node_count];
    let g_of = |r: &Record, side: usize| f64::from_bits(r[side]);
    let parent_of = |r: &Record, side: usize| ((r[2] >> (32 * side)) & 0xFFFF_FFFF) as u32;
    let set = |r: &mut Record, side: usize, g: f64, parent: u32| {
        r[side] = g.to_bits();
        let stored = if parent == NO_PARENT {
            NO_PARENT
        } else {
            parent + 1
        };
        r[2] = (r[2] & !(0xFFFF_FFFF << (32 * side))) | (u64::from(stored) << (32 * side));
    };
    let reached = |r: &Record, side: usize| parent_of(r, side) != 0;
    let closed = |r: &Record, side: usize| r[3] & (1 << side) != 0;

    let mut heaps: [BinaryHeap<Entry>; 2] = [BinaryHeap::new(), BinaryHeap::new()];
    let mut open = [0usize; 2];
    let mut closed_count = 0usize;
    let mut order = 0u64;
    let key = |f: f64| Reverse(f.max(0.0).to_bits());
    let mut push =
        |heaps: &mut [BinaryHeap<Entry>; 2], side: usize, node: usize, g: f64, h: f64| {
            order += 1;
            heaps[side].push((key(g + h), order, g.max(0.0).to_bits(), node as u32));
        };

    // The two ends, each open in its half.
    let h_start = to_goal(start);
    set(&mut records[start], 0, 0.0, NO_PARENT);
    push(&mut heaps, 0, start, 0.0, h_start);
    open[0] = 1;
    observer.event(SearchEvent::Opened {
        node: start,
        parent: None,
        g: 0.0,
        h: h_start,
    });
    let mut side = 1;
    observer.event(SearchEvent::Turned {
        backward: true,
        open: 0,
        other: 1,
    });
    let h_goal = to_start(goal);
    set(&mut records[goal], 1, 0.0, NO_PARENT);
    push(&mut heaps, 1, goal, 0.0, h_goal);
    open[1] = 1;
    observer.event(SearchEvent::Opened {
        node: goal,
        parent: None,
        g: 0.0,
        h: h_goal,
    });
    result.peak_memory = 2;
    // The cheapest meeting so far: its cost μ and node.
    let (mut mu, mut meet) = (f64::INFINITY, None);
    if start == goal {
        (mu, meet) = (0.0, Some(start));
        observer.event(SearchEvent::Met {
            node: start,
            cost: 0.0,
        });
    }
    let mut out = Vec::new();
    loop {
        // Drop entries left behind by a cheaper one, or of expanded nodes.
        for s in 0..2 {
            while let Some(&(_, _, g_bits, node)) = heaps[s].peek() {
                let r = &records[node as usize];
                if closed(r, s) || r[s] != g_bits {
                    heaps[s].pop();
                } else {
                    break;
                }
            }
        }
        let lowest_f = |s: usize| {
            heaps[s]
                .peek()
                .map_or(f64::INFINITY, |e| f64::from_bits(e.0.0))
        };
        let (f_forward, f_backward) = (lowest_f(0), lowest_f(1));
        if f_forward.max(f_backward) >= mu || f_forward.is_infinite() || f_backward.is_infinite() {
            break;
        }
        let next_side = usize::from(open[1] < open[0]);
        if next_side != side {
            side = next_side;
            observer.event(SearchEvent::Turned {
                backward: side == 1,
                open: open[side],
                other: open[1 - side],
            });
        }
        let Some((_, _, g_bits, node)) = heaps[side].pop() else {
            break;
        };
        let node = node as usize;
        let g = f64::from_bits(g_bits);
        records[node][3] |= 1 << side;
        open[side] -= 1;
        closed_count += 1;
        result.expanded += 1;
        let h = if side == 0 {
            to_goal(node)
        } else {
            to_start(node)
        };
        observer.event(SearchEvent::Expanded { node, g, h });
        if observer.stop() {
            result.outcome = SearchOutcome::BudgetExceeded;
            observer.event(SearchEvent::Finished {
                outcome: result.outcome,
                cost: f64::INFINITY,
            });
            return result;
        }
        out.clear();
        if side == 0 {
            successors(node, &mut out);
        } else {
            predecessors(node, &mut out);
        }
        for &(next, step) in &out {
            let Some(r) = records.get(next) else {
                continue;
            };
            if closed(r, side) {
                continue;
            }
            let g_next = g + step;
            let first = !reached(r, side);
            if !first && g_next >= g_of(r, side) {
                continue;
            }
            let h = if side == 0 {
                to_goal(next)
            } else {
                to_start(next)
            };
            set(&mut records[next], side, g_next, node as u32);
            push(&mut heaps, side, next, g_next, h);
            if first {
                open[side] += 1;
                observer.event(SearchEvent::Opened {
                    node: next,
                    parent: Some(node),
                    g: g_next,
                    h,
                });
            } else {
                observer.event(SearchEvent::Improved {
                    node: next,
                    parent: node,
                    g: g_next,
                    h,
                });
            }
            let r = &records[next];
            if reached(r, 1 - side) {
                let through = g_next + g_of(r, 1 - side);
                if through < mu {
                    (mu, meet) = (through, Some(next));
                    observer.event(SearchEvent::Met {
                        node: next,
                        cost: through,
                    });
                }
            }
        }
        result.peak_memory = result.peak_memory.max(open[0] + open[1] + closed_count);
    }
    if let Some(meet) = meet {
        // Forward parents from the meeting back to the start, then backward ones to the goal.
        let mut path = vec![meet];
        let mut at = meet;
        while let Some(p) = records.get(at).map(|r| parent_of(r, 0)) {
            if p == NO_PARENT || p == 0 {
                break;
            }
            at = (p - 1) as usize;
            path.push(at);
        }
        path.reverse();
        at = meet;
        while let Some(p) = records.get(at).map(|r| parent_of(r, 1)) {
            if p == NO_PARENT || p == 0 {
                break;
            }
            at = (p - 1) as usize;
            path.push(at);
        }
        result.outcome = SearchOutcome::Found;
        result.path = path;
        result.cost = mu;
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

    /// Start 0, goal 4: the route 0 - 1 - 4 costs 6, the route 0 - 2 - 3 - 4 costs 4. The
    /// halves meet first at 1 (the backward half's first expansion reaches it), on the dearer
    /// route; stopping there would answer 6.
    #[test]
    fn the_first_meeting_is_not_the_answer_when_a_cheaper_path_is_left() {
        let edges = [
            (0, 1, 3.0),
            (1, 4, 3.0),
            (0, 2, 1.0),
            (2, 3, 2.0),
            (3, 4, 1.0),
        ];
        let neighbours = |n: usize, out: &mut Vec<(usize, f64)>| {
            for &(a, b, c) in &edges {
                if a == n {
                    out.push((b, c));
                } else if b == n {
                    out.push((a, c));
                }
            }
        };
        let mut events = Vec::new();
        let found = bidirectional_astar(
            5,
            0,
            4,
            neighbours,
            neighbours,
            |_| 0.0,
            |_| 0.0,
            &mut events,
        );
        assert_eq!(found.outcome, SearchOutcome::Found);
        assert_eq!(found.cost, 4.0);
        assert_eq!(found.path, vec![0, 2, 3, 4]);
        let meetings: Vec<(usize, f64)> = events
            .iter()
            .filter_map(|e| match *e {
                SearchEvent::Met { node, cost } => Some((node, cost)),
                _ => None,
            })
            .collect();
        assert_eq!(meetings, vec![(1, 6.0), (3, 4.0)]);
    }

    #[test]
    fn no_path_between_two_islands_and_the_start_as_goal() {
        let pairs = |n: usize, out: &mut Vec<(usize, f64)>| out.push((n ^ 1, 1.0));
        let none = bidirectional_astar(
            4,
            0,
            3,
            pairs,
            pairs,
            |_| 0.0,
            |_| 0.0,
            &mut crate::search::NoObserver,
        );
        assert_eq!(none.outcome, SearchOutcome::Unreachable);
        assert!(none.path.is_empty());
        let here = bidirectional_astar(
            4,
            2,
            2,
            pairs,
            pairs,
            |_| 0.0,
            |_| 0.0,
            &mut crate::search::NoObserver,
        );
        assert_eq!(
            (here.outcome, here.cost, here.path),
            (SearchOutcome::Found, 0.0, vec![2])
        );
    }
}
