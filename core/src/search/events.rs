//! The vocabulary a search uses to report its steps, and the observer that receives them.
//!
//! Benchmarks pass [`NoObserver`], whose empty `event` is inlined away, so the code that is taught
//! and the code that is timed are the same.

use serde::Serialize;

/// Receives the steps of an algorithm as they happen.
pub trait Observer<E> {
    /// Called once per step, in order.
    fn event(&mut self, event: E);

    /// Whether the search should give up now. The grid searches (A*, Dijkstra, BFS, Fringe)
    /// ask after each expansion that did not reach the goal (Fringe also before each pass), and
    /// a search that gives up ends with [`SearchOutcome::BudgetExceeded`]. Never, unless an
    /// observer says otherwise.
    #[inline(always)]
    fn stop(&self) -> bool {
        false
    }

    /// Whether the observer wants the steps a search reports only to explain itself (Jump
    /// Point Search's scans), which cost time to work out. True unless it ignores every step.
    #[inline(always)]
    fn wants_detail(&self) -> bool {
        true
    }

    /// Work a search did besides its steps, in visits (see [`WorkLimit`]): Theta\*'s sight
    /// checks, which walk the cells between two centres, charge one visit for every
    /// [`SIGHT_CELLS_PER_VISIT`] cells walked. Ignored unless an observer counts it.
    #[inline(always)]
    fn spend(&mut self, _visits: u64) {}
}

/// Cells a sight check walks for one visit of work ([`Observer::spend`]): about what one
/// expansion's eight moves cost.
pub const SIGHT_CELLS_PER_VISIT: u64 = 16;

/// Steps a recording keeps at most: the window's animation and the CLI's `--steps`,
/// `--trace` and `--against` (a search may take hundreds of millions).
pub const MAX_RECORDED_STEPS: usize = 1_000_000;

/// An observer that ignores everything; it costs nothing once inlined.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoObserver;

impl<E> Observer<E> for NoObserver {
    #[inline(always)]
    fn event(&mut self, _event: E) {}

    #[inline(always)]
    fn wants_detail(&self) -> bool {
        false
    }
}

/// Records every event, in order: the trace the app replays.
impl<E> Observer<E> for Vec<E> {
    fn event(&mut self, event: E) {
        self.push(event);
    }
}

/// Sends every event to two observers, first one then the other.
pub struct Both<'a, A, B>(pub &'a mut A, pub &'a mut B);

impl<E: Clone, A: Observer<E>, B: Observer<E>> Observer<E> for Both<'_, A, B> {
    fn event(&mut self, event: E) {
        self.0.event(event.clone());
        self.1.event(event);
    }

    fn stop(&self) -> bool {
        self.0.stop() || self.1.stop()
    }

    fn wants_detail(&self) -> bool {
        self.0.wants_detail() || self.1.wants_detail()
    }

    fn spend(&mut self, visits: u64) {
        self.0.spend(visits);
        self.1.spend(visits);
    }
}

/// Passes every step on to another observer and stops the search once it has done a number of
/// visits: the budget that keeps one search on a huge map within seconds and memory. A visit is
/// a node expanded, or an entry put off for a later pass (Fringe can put off thousands of
/// entries for every node it expands, and that is where its time goes), or the work a search
/// reports besides ([`Observer::spend`]: Theta\*'s sight checks). A*, Dijkstra and BFS
/// stop after exactly the budget's expansions; Fringe also asks at the start of each pass, so
/// it may go past the budget by one pass's list.
pub struct WorkLimit<'a, O> {
    inner: &'a mut O,
    left: u64,
}

impl<'a, O> WorkLimit<'a, O> {
    /// Stops after `limit` visits; 0 never stops.
    pub fn new(inner: &'a mut O, limit: u64) -> Self {
        Self {
            inner,
            left: if limit == 0 { u64::MAX } else { limit },
        }
    }
}

impl<O: Observer<SearchEvent>> Observer<SearchEvent> for WorkLimit<'_, O> {
    fn event(&mut self, event: SearchEvent) {
        if matches!(
            event,
            SearchEvent::Expanded { .. }
                | SearchEvent::Deferred { .. }
                | SearchEvent::Raised { .. }
        ) {
            self.left = self.left.saturating_sub(1);
        }
        self.inner.event(event);
    }

    fn stop(&self) -> bool {
        self.left == 0 || self.inner.stop()
    }

    fn wants_detail(&self) -> bool {
        self.inner.wants_detail()
    }

    fn spend(&mut self, visits: u64) {
        self.left = self.left.saturating_sub(visits);
        self.inner.spend(visits);
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
    /// IDA* and Fringe Search: a new pass starts with a higher threshold on `f`.
    IterationStarted {
        /// 1-based pass number.
        iteration: usize,
        /// Nodes with `f` above this wait for the next pass.
        threshold: f64,
        /// True for IDA*, which searches again from the start; false for Fringe Search, whose
        /// *later* list becomes the *now* list.
        from_start: bool,
    },
    /// Fringe Search: a node's `f` exceeds the threshold, so it moves to the *later* list.
    Deferred {
        /// The node.
        node: usize,
        /// Its estimated total cost.
        f: f64,
    },
    /// IDA*: a child of the node at the end of the current path has `f` above the threshold,
    /// so this pass does not enter it; a later pass, with a higher threshold, may. A pass's
    /// cut-off children are its contour: what Fringe Search would keep in its *later* list
    /// and IDA* finds again from the start.
    CutOff {
        /// The child.
        node: usize,
        /// Its cost from the start along the current path.
        g: f64,
        /// Its heuristic estimate to the goal.
        h: f64,
    },
    /// IDA*: every child of the node at the end of the current path has been tried, so the
    /// depth-first search backs up past it (it leaves the path). Together with `Expanded`
    /// (which puts a node at the end of the path) this gives the path at every step.
    Backtracked {
        /// The node.
        node: usize,
        /// The smallest `f` among its children that were over the threshold (`None`: none
        /// was). The smallest over a pass's back-ups is the next pass's threshold.
        cut_off: Option<f64>,
    },
    /// Jump Point Search: a scan from a jump point in one direction (`dx`, `dy`, each -1, 0
    /// or 1; y grows downward) ended at `to`, for the reason `stop`.
    Jumped {
        /// The jump point scanned from.
        from: usize,
        /// Where the scan ended: the jump point found, or the last open cell before a wall or
        /// the map's edge.
        to: usize,
        /// The direction across.
        dx: i8,
        /// The direction down.
        dy: i8,
        /// Why it stopped there.
        stop: JumpStop,
    },
    /// Bidirectional search: from this step on, the half named expands (it has the smaller open
    /// list, or the first turn: the backward half opens the goal).
    Turned {
        /// True for the backward half (from the goal), false for the forward one.
        backward: bool,
        /// How many nodes that half has open.
        open: usize,
        /// How many the other half has open.
        other: usize,
    },
    /// Bidirectional search: the half expanding reached `node`, which the other half had
    /// reached, and the path through it is the cheapest found so far.
    Met {
        /// Where the halves meet.
        node: usize,
        /// The path's cost through it (μ).
        cost: f64,
    },
    /// D\* Lite: `node` is inconsistent — its cost to the goal as last worked out (`g`)
    /// differs from its one-step look-ahead (`rhs`) — and waits in the open list under the key
    /// `[k1; k2]` (`k1 = min(g, rhs) + h + km`, `k2 = min(g, rhs)`), lowest first.
    Inconsistent {
        /// The node.
        node: usize,
        /// Its cost to the goal as last worked out (∞: none).
        g: f64,
        /// Its look-ahead: the least step cost plus `g` over its moves (∞: none).
        rhs: f64,
        /// The key's first part.
        k1: f64,
        /// The key's second part.
        k2: f64,
        /// True when it was taken with a key gone out of date (the agent has moved since it
        /// went in) and goes back with its key worked out again.
        stale: bool,
    },
    /// D\* Lite: `node`, taken from the open list with the lowest key, was under-consistent (it
    /// got dearer: `g` below `rhs`), so its `g` is forgotten (∞) and it and the nodes with a
    /// move into it are looked at again.
    Raised {
        /// The node.
        node: usize,
        /// The `g` it had.
        g: f64,
    },
    /// D\* Lite: `node`'s look-ahead, worked out again, equals its `g`: it is consistent and
    /// leaves the open list.
    Consistent {
        /// The node.
        node: usize,
        /// Its cost to the goal (∞: none).
        g: f64,
    },
    /// D\* Lite: the map changed at `node`; its moves and those of its neighbours changed, so
    /// their look-aheads are worked out again.
    Edited {
        /// The node.
        node: usize,
    },
    /// The search ended.
    Finished {
        /// How it ended.
        outcome: SearchOutcome,
        /// The cost of the path found (the goal's g); infinite unless found.
        cost: f64,
    },
}

/// Why a scan of Jump Point Search stopped ([`SearchEvent::Jumped`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JumpStop {
    /// It reached the goal: a jump point.
    Goal,
    /// A forced neighbour: the wall `wall`, beside the cell the scan came from, means the open
    /// cell `forced` beside this one is reached more cheaply through it: a jump point.
    Forced {
        /// The open cell beside the jump point.
        forced: usize,
        /// The blocked cell beside the one before.
        wall: usize,
    },
    /// A diagonal scan stopped because a straight scan from here finds the jump point `ahead`.
    Turn {
        /// The jump point the straight scan found.
        ahead: usize,
    },
    /// JPS+: a diagonal jump stopped where it meets the goal's row or column, from which a
    /// straight jump may reach `goal` (a *target* jump point).
    GoalLine {
        /// The goal.
        goal: usize,
    },
    /// A wall or the map's edge: nothing to jump to this way.
    Blocked,
}

/// The compass name of a grid direction (y grows downward, so -1 is north).
pub fn compass(dx: i8, dy: i8) -> &'static str {
    match (dx.signum(), dy.signum()) {
        (1, 0) => "east",
        (-1, 0) => "west",
        (0, -1) => "north",
        (0, 1) => "south",
        (1, -1) => "north-east",
        (-1, -1) => "north-west",
        (1, 1) => "south-east",
        (-1, 1) => "south-west",
        _ => "nowhere",
    }
}

/// A cost as a sentence gives it: two decimals, or ∞.
fn cost_text(cost: f64) -> String {
    if cost.is_finite() {
        format!("{cost:.2}")
    } else {
        "∞".to_owned()
    }
}

/// Which node a search expands next: what the explanation of an expansion gives as the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpansionOrder {
    /// The open node with the lowest f = g + h (A*).
    LowestF,
    /// The open node with the lowest f, the newest among equals, with no first pick of the
    /// nodes opened at the `f` being expanded (a half of bidirectional A*; Theta\*, whose `f`
    /// can fall from one expansion to the next).
    LowestFNewest,
    /// The open node with the lowest g (Dijkstra).
    LowestG,
    /// The node that has waited longest (breadth-first search).
    Oldest,
    /// The open node with the lowest h, the estimate alone (greedy best-first search).
    LowestH,
    /// The next node in order whose f is within the threshold (IDA*, Fringe Search).
    WithinThreshold,
    /// The open node with the lowest key `[k1; k2]`, by `k1`, then `k2`, the newest among
    /// equals (D\* Lite).
    LowestKey,
}

impl SearchEvent {
    /// [`explain`](Self::explain), with the reason an expanded node was the one to expand, as
    /// the algorithm chooses (`order`).
    pub fn explain_in(&self, order: ExpansionOrder, name: impl Fn(usize) -> String) -> String {
        let SearchEvent::Expanded { node, g, h } = *self else {
            return self.explain(name);
        };
        let node = name(node);
        match order {
            ExpansionOrder::LowestF | ExpansionOrder::LowestFNewest => format!(
                "expand {node}, the open one with the lowest f (f = {:.2}, g = {g:.2})",
                g + h
            ),
            ExpansionOrder::LowestG => {
                format!("expand {node}, the open one with the lowest g (g = {g:.2})")
            }
            ExpansionOrder::Oldest => {
                format!("expand {node}, the one that has waited longest (g = {g:.2})")
            }
            ExpansionOrder::LowestH => format!(
                "expand {node}, the open one that looks nearest the goal: the lowest h (h = {h:.2}; g = {g:.2} plays no part)"
            ),
            ExpansionOrder::WithinThreshold => format!(
                "expand {node}, next in order with f = {:.2} within the threshold (g = {g:.2})",
                g + h
            ),
            ExpansionOrder::LowestKey => format!(
                "take {node}, the lowest key [{:.2}; {g:.2}]: it got cheaper (its look-ahead rhs is below its g), so g = rhs = {g:.2}; look again at the cells with a move into it",
                g + h
            ),
        }
    }

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
            // Neutral on why this node: A* and Dijkstra take the lowest f, IDA* and Fringe the
            // next one within the threshold, BFS the oldest.
            SearchEvent::Expanded { node, g, h } => {
                format!("expand {} (f = {:.2}, g = {g:.2})", name(node), g + h)
            }
            SearchEvent::Finished {
                outcome: SearchOutcome::Found,
                cost,
            } => format!("goal reached: the path found costs {cost:.2}"),
            SearchEvent::Finished {
                outcome: SearchOutcome::Unreachable,
                ..
            } => "nothing left to expand: the goal cannot be reached".to_string(),
            SearchEvent::Finished {
                outcome: SearchOutcome::BudgetExceeded,
                ..
            } => "the budget is used up: the search gives up with no answer".to_string(),
            SearchEvent::IterationStarted {
                iteration: 1,
                threshold,
                ..
            } => format!("pass 1: threshold f = {threshold:.2}, the start's estimate"),
            SearchEvent::IterationStarted {
                iteration,
                threshold,
                from_start,
            } => format!(
                "pass {iteration}: threshold raised to f = {threshold:.2}, the smallest f above the last one; {}",
                if from_start {
                    "search again from the start"
                } else {
                    "the later list becomes the now list"
                }
            ),
            SearchEvent::Jumped {
                from,
                to,
                dx,
                dy,
                stop,
            } => {
                let way = compass(dx, dy);
                match stop {
                    JumpStop::Goal => format!(
                        "scan {way} from {} reaches the goal at {}: a jump point",
                        name(from),
                        name(to)
                    ),
                    JumpStop::Forced { forced, wall } => format!(
                        "scan {way} from {} stops at {}: a forced neighbour at {} (the wall at {} opens a shorter way through {}): a jump point",
                        name(from),
                        name(to),
                        name(forced),
                        name(wall),
                        name(to)
                    ),
                    JumpStop::Turn { ahead } => format!(
                        "scan {way} from {} stops at {}: a straight scan from it finds the jump point {}: a jump point",
                        name(from),
                        name(to),
                        name(ahead)
                    ),
                    JumpStop::GoalLine { goal } => format!(
                        "jump {way} from {} stops at {}: in line with the goal {}, a straight jump from it may reach the goal: a jump point",
                        name(from),
                        name(to),
                        name(goal)
                    ),
                    JumpStop::Blocked => format!(
                        "scan {way} from {} ends at {}: a wall or the edge beyond, no jump point this way",
                        name(from),
                        name(to)
                    ),
                }
            }
            SearchEvent::Deferred { node, f } => format!(
                "{} has f = {f:.2} above the threshold: move it to the later list",
                name(node)
            ),
            SearchEvent::CutOff { node, g, h } => format!(
                "{}: f = {:.2} is above the threshold, so it is cut off: not entered this pass (g = {g:.2}, h = {h:.2})",
                name(node),
                g + h
            ),
            SearchEvent::Backtracked { node, cut_off } => format!(
                "{}: no child left within the threshold, so back up: it leaves the path{}",
                name(node),
                match cut_off {
                    Some(f) => format!(" (its children over it: smallest f = {f:.2})"),
                    None => String::new(),
                }
            ),
            SearchEvent::Turned {
                backward,
                open,
                other,
            } => {
                let (this, that) = if backward {
                    ("backward (from the goal)", "forward")
                } else {
                    ("forward (from the start)", "backward")
                };
                if open == 0 {
                    format!("turn to the {this} half: it opens its end")
                } else if open == other {
                    format!(
                        "turn to the {this} half: the open lists are as long ({open} each), and the forward half goes on a tie"
                    )
                } else {
                    format!(
                        "turn to the {this} half: its open list is the smaller ({open} against the {that} half's {other})"
                    )
                }
            }
            SearchEvent::Inconsistent {
                node,
                k1,
                k2,
                stale: true,
                ..
            } => format!(
                "{}'s key went up since it went in (the agent has moved): back into the open list with the key [{}; {}]",
                name(node),
                cost_text(k1),
                cost_text(k2)
            ),
            SearchEvent::Inconsistent {
                node,
                g,
                rhs,
                k1,
                k2,
                stale: false,
            } => format!(
                "{} is inconsistent (g = {}, its look-ahead rhs = {}): into the open list with the key [{}; {}]",
                name(node),
                cost_text(g),
                cost_text(rhs),
                cost_text(k1),
                cost_text(k2)
            ),
            SearchEvent::Raised { node, g } => format!(
                "take {}, the lowest key: it got dearer (g = {g:.2} is below its look-ahead rhs), so forget its g (∞) and look again at it and at the cells with a move into it",
                name(node)
            ),
            SearchEvent::Consistent { node, g } => format!(
                "{}'s look-ahead rhs equals its g = {}: consistent, out of the open list",
                name(node),
                cost_text(g)
            ),
            SearchEvent::Edited { node } => format!(
                "the map changed at {}: work out again the look-ahead rhs of it and of its neighbours, whose moves changed with it",
                name(node)
            ),
            SearchEvent::Met { node, cost } => format!(
                "the halves meet at {}: a path of cost μ = {cost:.2} through it, the cheapest so far; the search stops once either open list's lowest f is at least μ",
                name(node)
            ),
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
    /// The search gave up after its node budget (IDA*): no answer either way.
    BudgetExceeded,
}

impl SearchOutcome {
    /// The name scripts see: `found`, `unreachable` or `budget_exceeded`.
    pub fn name(self) -> &'static str {
        match self {
            SearchOutcome::Found => "found",
            SearchOutcome::Unreachable => "unreachable",
            SearchOutcome::BudgetExceeded => "budget_exceeded",
        }
    }
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

impl SearchResult {
    /// A result before anything was found: no path, infinite cost, nothing counted.
    pub fn not_found() -> Self {
        Self {
            outcome: SearchOutcome::Unreachable,
            path: Vec::new(),
            cost: f64::INFINITY,
            expanded: 0,
            peak_memory: 0,
        }
    }

    /// Records that `goal` was reached at `cost`, following `parent` links back to the start
    /// (`u32::MAX` ends the chain).
    pub fn found(&mut self, goal: usize, cost: f64, parent: impl Fn(usize) -> u32) {
        self.outcome = SearchOutcome::Found;
        self.cost = cost;
        self.path.clear();
        let mut n = goal as u32;
        while n != u32::MAX {
            self.path.push(n as usize);
            n = parent(n as usize);
        }
        self.path.reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_expansion_gives_the_algorithm_s_reason() {
        let name = |n: usize| format!("cell {n}");
        let expanded = SearchEvent::Expanded {
            node: 3,
            g: 2.0,
            h: 1.5,
        };
        let say = |order| expanded.explain_in(order, name);
        assert_eq!(
            say(ExpansionOrder::LowestF),
            "expand cell 3, the open one with the lowest f (f = 3.50, g = 2.00)"
        );
        assert!(say(ExpansionOrder::LowestG).contains("lowest g (g = 2.00)"));
        assert!(say(ExpansionOrder::Oldest).contains("waited longest"));
        assert!(say(ExpansionOrder::WithinThreshold).contains("f = 3.50 within the threshold"));
        // Other steps read as without an order.
        let opened = SearchEvent::Deferred { node: 1, f: 4.0 };
        assert_eq!(
            opened.explain_in(ExpansionOrder::LowestF, name),
            opened.explain(name)
        );
    }

    #[test]
    fn a_new_pass_says_where_the_search_goes_on() {
        let name = |n: usize| format!("cell {n}");
        let pass = |iteration, from_start| SearchEvent::IterationStarted {
            iteration,
            threshold: 5.5,
            from_start,
        };
        assert_eq!(
            pass(1, true).explain(name),
            "pass 1: threshold f = 5.50, the start's estimate"
        );
        assert!(
            pass(2, true)
                .explain(name)
                .ends_with("; search again from the start")
        );
        assert!(
            pass(2, false)
                .explain(name)
                .ends_with("; the later list becomes the now list")
        );
    }

    /// Every search that honours [`Observer::stop`] gives up once its visits reach the budget
    /// (A*, Dijkstra and BFS exactly there; Fringe within one pass's list), says so, and keeps
    /// what it would find when the budget is enough.
    #[test]
    fn a_work_limit_stops_each_search_at_its_budget() {
        use crate::search::{WallMaze, astar, bfs, dijkstra, fringe};
        type Run = fn(&mut dyn FnMut(SearchEvent), u64) -> SearchResult;
        let runs: [(&str, Run, usize); 4] = [
            (
                "A*",
                |record, limit| {
                    let mut inner = FnObserver(record);
                    let mut observer = WorkLimit::new(&mut inner, limit);
                    let (s, h) = (WallMaze::successors(), WallMaze::estimate());
                    astar(
                        WallMaze::NODES,
                        0,
                        s,
                        h,
                        |n| n == WallMaze::GOAL,
                        &mut observer,
                    )
                },
                0,
            ),
            (
                "Dijkstra",
                |record, limit| {
                    let mut inner = FnObserver(record);
                    let mut observer = WorkLimit::new(&mut inner, limit);
                    let s = WallMaze::successors();
                    dijkstra(
                        WallMaze::NODES,
                        0,
                        s,
                        |n| n == WallMaze::GOAL,
                        &mut observer,
                    )
                },
                0,
            ),
            (
                "BFS",
                |record, limit| {
                    let mut inner = FnObserver(record);
                    let mut observer = WorkLimit::new(&mut inner, limit);
                    let s = WallMaze::successors();
                    bfs(
                        WallMaze::NODES,
                        0,
                        s,
                        |n| n == WallMaze::GOAL,
                        &mut observer,
                    )
                },
                0,
            ),
            (
                "Fringe",
                |record, limit| {
                    let mut inner = FnObserver(record);
                    let mut observer = WorkLimit::new(&mut inner, limit);
                    let (s, h) = (WallMaze::successors(), WallMaze::estimate());
                    fringe(
                        WallMaze::NODES,
                        0,
                        s,
                        h,
                        |n| n == WallMaze::GOAL,
                        &mut observer,
                    )
                },
                WallMaze::NODES,
            ),
        ];
        let is_visit = |event: &SearchEvent| {
            matches!(
                event,
                SearchEvent::Expanded { .. } | SearchEvent::Deferred { .. }
            )
        };
        for (name, run, overshoot) in runs {
            let mut visits = 0;
            let free = run(&mut |event| visits += usize::from(is_visit(&event)), 0);
            assert_eq!(free.outcome, SearchOutcome::Found, "{name}");
            assert!(free.expanded > 3, "{name}: the maze needs work");
            let enough = run(&mut |_| {}, visits as u64);
            assert_eq!(
                enough, free,
                "{name}: a budget of exactly the visits it needs"
            );
            let budget = free.expanded / 2;
            let (mut visited, mut last) = (0, None);
            let short = run(
                &mut |event| {
                    visited += usize::from(is_visit(&event));
                    last = Some(event);
                },
                budget as u64,
            );
            assert_eq!(short.outcome, SearchOutcome::BudgetExceeded, "{name}");
            assert!(
                (budget..=budget + overshoot).contains(&visited),
                "{name}: {visited} visits on a budget of {budget}"
            );
            assert!(short.path.is_empty() && short.cost.is_infinite(), "{name}");
            assert_eq!(
                last,
                Some(SearchEvent::Finished {
                    outcome: SearchOutcome::BudgetExceeded,
                    cost: f64::INFINITY
                }),
                "{name}: the last step says why it ended"
            );
        }
    }
}
