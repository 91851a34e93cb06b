//! The vocabulary a search uses to report its steps, and the observer that receives them.
//!
//! Benchmarks pass [`NoObserver`], whose empty `event` is inlined away, so the code that is taught
//! and the code that is timed are the same.

use serde::Serialize;

/// Receives the steps of an algorithm as they happen.
pub trait Observer<E> {
    /// Called once per step, in order.
    fn event(&mut self, event: E);
}

/// An observer that ignores everything; it costs nothing once inlined.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoObserver;

impl<E> Observer<E> for NoObserver {
    #[inline(always)]
    fn event(&mut self, _event: E) {}
}

/// Records every event, in order: the trace the app replays.
impl<E> Observer<E> for Vec<E> {
    fn event(&mut self, event: E) {
        self.push(event);
    }
}

/// Adapts a closure into an observer.
pub struct FnObserver<F>(pub F);

impl<E, F: FnMut(E)> Observer<E> for FnObserver<F> {
    fn event(&mut self, event: E) {
        (self.0)(event)
    }
}

/// One step of a best-first search. `g` is the cost from the start (`cost`), `h` the heuristic
/// estimate to the goal, and `f = g + h` the estimated total.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SearchEvent {
    /// A node entered the open list for the first time.
    Opened {
        /// The node.
        node: usize,
        /// The node it was reached from (`None` for the start).
        parent: Option<usize>,
        /// Cost from the start.
        g: f64,
        /// Heuristic estimate to the goal.
        h: f64,
    },
    /// A node already open was reached by a cheaper route.
    Improved {
        /// The node.
        node: usize,
        /// Its new parent.
        parent: usize,
        /// The new, lower cost from the start.
        g: f64,
        /// Heuristic estimate to the goal.
        h: f64,
    },
    /// A node left the open list and its successors were examined.
    Expanded {
        /// The node.
        node: usize,
        /// Cost from the start.
        g: f64,
        /// Heuristic estimate to the goal.
        h: f64,
    },
    /// The search ended.
    Finished {
        /// How it ended.
        outcome: SearchOutcome,
    },
}

impl SearchEvent {
    /// One plain sentence saying what this step did; `name` names a node (e.g. "triangle 7").
    pub fn explain(&self, name: impl Fn(usize) -> String) -> String {
        match *self {
            SearchEvent::Opened {
                node,
                parent: None,
                g,
                h,
            } => format!(
                "open {} (the start): g = {g:.2}, h = {h:.2}, f = {:.2}",
                name(node),
                g + h
            ),
            SearchEvent::Opened {
                node,
                parent: Some(parent),
                g,
                h,
            } => format!(
                "open {} from {}: g = {g:.2}, h = {h:.2}, f = {:.2}",
                name(node),
                name(parent),
                g + h
            ),
            SearchEvent::Improved { node, parent, g, h } => format!(
                "shorter way to {} through {}: g = {g:.2}, f = {:.2}",
                name(node),
                name(parent),
                g + h
            ),
            SearchEvent::Expanded { node, g, h } => format!(
                "expand {} (lowest f = {:.2}, g = {g:.2})",
                name(node),
                g + h
            ),
            SearchEvent::Finished {
                outcome: SearchOutcome::Found,
            } => "goal reached".to_string(),
            SearchEvent::Finished {
                outcome: SearchOutcome::Unreachable,
            } => "open list empty: the goal cannot be reached".to_string(),
        }
    }
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchOutcome {
    /// The goal was reached.
    Found,
    /// Every reachable node was expanded without reaching the goal.
    Unreachable,
}

/// What a search returns.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// How the search ended.
    pub outcome: SearchOutcome,
    /// Nodes from the start to the goal, both included (empty unless found).
    pub path: Vec<usize>,
    /// Cost of `path` (infinite unless found).
    pub cost: f64,
    /// How many nodes were expanded.
    pub expanded: usize,
    /// The largest number of nodes held at once in the open and closed lists.
    pub peak_memory: usize,
}
