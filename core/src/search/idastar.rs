//! Compute a shortest path using [IDA*](https://en.wikipedia.org/wiki/Iterative_deepening_A*):
//! depth-first passes bounded by a threshold on `f`, the threshold rising each pass to the
//! smallest `f` that exceeded it. Little memory (the current path), more time (nodes are
//! expanded again in every pass). Each expansion puts a node at the end of the path and each
//! backtrack takes it off, so the events give the path at every step; each child over the
//! threshold is reported as cut off, so they also give the pass's contour. A node budget keeps
//! it from running for ever: over budget is an outcome, never a wrong answer.

use super::events::{Observer, SearchEvent, SearchOutcome, SearchResult};
use super::pass_limit;

/// Shortest path from `start` to a node satisfying `is_goal`, expanding at most `budget` nodes
/// in all passes together. Arguments as for [`astar`](super::astar()).
///
/// ```
/// use navlab_core::search::{idastar, NoObserver, SearchOutcome};
/// let line = |n: usize, out: &mut Vec<(usize, f64)>| {
///     if n > 0 { out.push((n - 1, 1.0)) }
///     if n < 9 { out.push((n + 1, 1.0)) }
/// };
/// let found = idastar(10, 0, line, |n| (9 - n) as f64, |n| n == 9, 1000, &mut NoObserver);
/// assert_eq!((found.outcome, found.cost), (SearchOutcome::Found, 9.0));
/// let gave_up = idastar(10, 0, line, |_| 0.0, |n| n == 9, 20, &mut NoObserver);
/// assert_eq!(gave_up.outcome, SearchOutcome::BudgetExceeded);
/// ```
pub fn idastar<S, H, G, O>(
    node_count: usize,
    start: usize,
    mut successors: S,
    mut heuristic: H,
    mut is_goal: G,
    budget: usize,
    observer: &mut O,
) -> SearchResult
where
    S: FnMut(usize, &mut Vec<(usize, f64)>),
    H: FnMut(usize) -> f64,
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
    struct Frame {
        node: usize,
        g: f64,
        children: Vec<(usize, f64)>,
        next: usize,
        /// The smallest `f` of its children cut off so far.
        cut_off: f64,
    }
    let mut on_path = vec![false; node_count];
    let mut threshold = heuristic(start);
    let mut iteration = 0;
    'passes: loop {
        iteration += 1;
        observer.event(SearchEvent::IterationStarted {
            iteration,
            threshold,
            from_start: true,
        });
        let limit = pass_limit(threshold);
        let mut smallest_above = f64::INFINITY;
        let mut stack: Vec<Frame> = Vec::new();
        // Expand the start (each pass does so again, within the budget like every expansion).
        if result.expanded >= budget {
            result.outcome = SearchOutcome::BudgetExceeded;
            break 'passes;
        }
        let h0 = heuristic(start);
        result.expanded += 1;
        observer.event(SearchEvent::Expanded {
            node: start,
            g: 0.0,
            h: h0,
        });
        if is_goal(start) {
            result.outcome = SearchOutcome::Found;
            result.cost = 0.0;
            result.path = vec![start];
            result.peak_memory = result.peak_memory.max(1);
            break 'passes;
        }
        let mut children = Vec::new();
        successors(start, &mut children);
        on_path[start] = true;
        stack.push(Frame {
            node: start,
            g: 0.0,
            children,
            next: 0,
            cut_off: f64::INFINITY,
        });
        while let Some(frame) = stack.last_mut() {
            let Some(&(child, step)) = frame.children.get(frame.next) else {
                on_path[frame.node] = false;
                observer.event(SearchEvent::Backtracked {
                    node: frame.node,
                    cut_off: frame.cut_off.is_finite().then_some(frame.cut_off),
                });
                stack.pop();
                continue;
            };
            frame.next += 1;
            if child >= node_count || on_path[child] {
                continue;
            }
            let g = frame.g + step;
            let h = heuristic(child);
            if g + h > limit {
                smallest_above = smallest_above.min(g + h);
                frame.cut_off = frame.cut_off.min(g + h);
                observer.event(SearchEvent::CutOff { node: child, g, h });
                continue;
            }
            if result.expanded >= budget {
                result.outcome = SearchOutcome::BudgetExceeded;
                break 'passes;
            }
            result.expanded += 1;
            observer.event(SearchEvent::Expanded { node: child, g, h });
            if is_goal(child) {
                result.outcome = SearchOutcome::Found;
                result.cost = g;
                result.path = stack.iter().map(|f| f.node).chain([child]).collect();
                result.peak_memory = result.peak_memory.max(stack.len() + 1);
                break 'passes;
            }
            let mut children = Vec::new();
            successors(child, &mut children);
            on_path[child] = true;
            stack.push(Frame {
                node: child,
                g,
                children,
                next: 0,
                cut_off: f64::INFINITY,
            });
            result.peak_memory = result.peak_memory.max(stack.len());
        }
        if smallest_above.is_infinite() {
            break; // nothing was cut off: every reachable node was seen
        }
        threshold = smallest_above;
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

    /// Every budget is kept to the expansion, the start of each pass included: below what the
    /// search needs it gives up (and says so), from there on it finds the same answer.
    #[test]
    fn no_budget_is_ever_overspent() {
        use crate::search::WallMaze;
        let (nodes, goal) = (WallMaze::NODES, WallMaze::GOAL);
        let (grid, manhattan) = (WallMaze::successors(), WallMaze::estimate());
        let search = |budget| {
            idastar(
                nodes,
                0,
                &grid,
                manhattan,
                |n| n == goal,
                budget,
                &mut NoObserver,
            )
        };
        let full = search(usize::MAX);
        assert_eq!(full.outcome, SearchOutcome::Found);
        assert!(full.expanded > 10);
        for budget in 0..full.expanded + 3 {
            let r = search(budget);
            assert!(
                r.expanded <= budget,
                "budget {budget}: {} expanded",
                r.expanded
            );
            if budget < full.expanded {
                assert_eq!(r.outcome, SearchOutcome::BudgetExceeded, "budget {budget}");
                assert!(r.path.is_empty());
            } else {
                assert_eq!(
                    (r.outcome, r.cost, r.expanded),
                    (full.outcome, full.cost, full.expanded)
                );
            }
        }
    }
}
