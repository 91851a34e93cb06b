//! The state a search's recorded events add up to at any step — each node's status, costs,
//! parent and visit number, the node just expanded, the pass, the outcome and the lists the
//! algorithm keeps — replayed forward step by step and back by starting over. Every view that
//! animates a search draws from this one type.

use super::events::{SearchEvent, SearchOutcome};
use super::fringe_lists::FringeLists;
use super::frontier::Frontier;
use super::ida_path::IdaPath;

/// Where a node stands at some step of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NodeStatus {
    /// Not reached yet.
    #[default]
    Unseen,
    /// In the open list (the frontier).
    Open,
    /// Waiting for a pass with a higher threshold: in Fringe Search's *later* list, or cut off
    /// by IDA* (and not entered yet).
    Later,
    /// Expanded.
    Closed,
}

/// What the replay keeps besides the nodes: the list the algorithm takes its next node from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    /// An open list (A\*, Dijkstra, BFS): [`Frontier`].
    Open,
    /// Fringe Search's *now* and *later* lists: [`FringeLists`].
    Fringe,
    /// IDA\*'s path from the start: [`IdaPath`].
    IdaPath,
}

/// The list kept, replayed from the same events as the nodes.
#[derive(Debug, Clone)]
pub enum ReplayList {
    /// See [`ListKind::Open`].
    Open(Frontier),
    /// See [`ListKind::Fringe`].
    Fringe(FringeLists),
    /// See [`ListKind::IdaPath`].
    IdaPath(IdaPath),
}

impl ReplayList {
    fn new(kind: ListKind) -> Self {
        match kind {
            ListKind::Open => ReplayList::Open(Frontier::new()),
            ListKind::Fringe => ReplayList::Fringe(FringeLists::new()),
            ListKind::IdaPath => ReplayList::IdaPath(IdaPath::new()),
        }
    }

    /// Which kind of list this is.
    pub fn kind(&self) -> ListKind {
        match self {
            ReplayList::Open(_) => ListKind::Open,
            ReplayList::Fringe(_) => ListKind::Fringe,
            ReplayList::IdaPath(_) => ListKind::IdaPath,
        }
    }

    fn apply(&mut self, event: &SearchEvent) {
        match self {
            ReplayList::Open(frontier) => frontier.apply(event),
            ReplayList::Fringe(lists) => lists.apply(event),
            ReplayList::IdaPath(path) => path.apply(event),
        }
    }
}

/// How the nodes shown relate to the nodes the search worked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodesShown {
    /// Each node shown is a node of the search: its latest event decides its state (a node
    /// Fringe Search reaches again more cheaply is open again; one IDA\* expands in every pass
    /// counts every expansion).
    Searched,
    /// Each node shown gathers several of the search's nodes (a triangle is entered once by
    /// each of its edges when A\* measures steps between edge midpoints): it keeps the state the
    /// first of them gave it — opened once, improved only while open, closed by its first
    /// expansion.
    Gathered,
}

/// Marks a missing parent.
const NO_PARENT: u32 = u32::MAX;

/// The state after the first `cursor` events of a search on `0..node_count`.
#[derive(Debug, Clone)]
pub struct SearchReplay {
    cursor: usize,
    shown: NodesShown,
    status: Vec<NodeStatus>,
    /// How many times each node was expanded (saturating).
    expansions: Vec<u16>,
    g: Vec<f32>,
    h: Vec<f32>,
    parent: Vec<u32>,
    /// 1-based order of each node's first expansion (0: not expanded).
    visit: Vec<u32>,
    /// Nodes expanded at least once.
    visited: u32,
    current: Option<usize>,
    iteration: usize,
    threshold: f64,
    outcome: Option<SearchOutcome>,
    list: ReplayList,
    /// The nodes the events so far changed, so that starting over resets only those (a 2048²
    /// map has 4 M cells, a search may touch a few thousand).
    touched: Vec<usize>,
    /// This replay's own number (a clone gets a new one).
    origin: Origin,
    /// How many times the state changed (steps applied, restarts).
    changes: u64,
    /// A bidirectional search's half each node was last reached or expanded by (true:
    /// backward); empty until the search first turns.
    backward: Vec<bool>,
    /// True while a bidirectional search's backward half is expanding.
    backward_now: bool,
}

/// A number no other replay has: drawn from one counter when a replay is made or cloned.
#[derive(Debug, PartialEq, Eq)]
struct Origin(u64);

impl Origin {
    fn new() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Self(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for Origin {
    /// A clone goes its own way from here, so it is numbered apart.
    fn clone(&self) -> Self {
        Self::new()
    }
}

/// Which state a replay shows: see [`SearchReplay::revision`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Revision {
    origin: u64,
    changes: u64,
}

impl SearchReplay {
    /// The state before any step of a search on `node_count` nodes, keeping the `list` the
    /// algorithm uses.
    pub fn new(node_count: usize, list: ListKind, shown: NodesShown) -> Self {
        Self {
            cursor: 0,
            shown,
            status: vec![NodeStatus::Unseen; node_count],
            expansions: vec![0; node_count],
            g: vec![f32::NAN; node_count],
            h: vec![f32::NAN; node_count],
            parent: vec![NO_PARENT; node_count],
            visit: vec![0; node_count],
            visited: 0,
            current: None,
            iteration: 0,
            threshold: 0.0,
            outcome: None,
            list: ReplayList::new(list),
            touched: Vec::new(),
            origin: Origin::new(),
            changes: 0,
            backward: Vec::new(),
            backward_now: false,
        }
    }

    /// Which state this is: it changes whenever the state does (a step applied, a restart)
    /// and is never another replay's (a clone has its own), so an equal revision means the
    /// same state. What a view compares to know, without reading every node, that nothing
    /// changed since it last drew.
    pub fn revision(&self) -> Revision {
        Revision {
            origin: self.origin.0,
            changes: self.changes,
        }
    }

    /// How many events have been applied: the step shown.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// How many nodes the replay has room for.
    pub fn node_count(&self) -> usize {
        self.status.len()
    }

    /// Moves to step `k` of `events` (clamped to their number): forward by applying the events
    /// after the step shown, back by starting over.
    pub fn seek(&mut self, events: &[SearchEvent], k: usize) {
        let k = k.min(events.len());
        if k < self.cursor {
            self.restart();
        }
        while let Some(event) = events.get(self.cursor).filter(|_| self.cursor < k) {
            self.apply(event);
        }
    }

    /// Back to the state before any step, resetting only the nodes touched.
    pub fn restart(&mut self) {
        for &i in &self.touched {
            self.status[i] = NodeStatus::Unseen;
            self.expansions[i] = 0;
            self.g[i] = f32::NAN;
            self.h[i] = f32::NAN;
            self.parent[i] = NO_PARENT;
            self.visit[i] = 0;
        }
        self.touched.clear();
        self.backward.clear();
        self.backward_now = false;
        self.cursor = 0;
        self.visited = 0;
        self.current = None;
        self.iteration = 0;
        self.threshold = 0.0;
        self.outcome = None;
        self.list = ReplayList::new(self.list.kind());
        self.changes += 1;
    }

    /// Applies the next event.
    pub fn apply(&mut self, event: &SearchEvent) {
        self.apply_with_list(event, event);
    }

    /// Applies the next event, `event` to the nodes shown and `on_list` — the same step on the
    /// search's own nodes, when the nodes shown gather them — to the list.
    pub fn apply_with_list(&mut self, event: &SearchEvent, on_list: &SearchEvent) {
        // The list first: IDA*'s node to go on from after a back-up is its path's last.
        self.list.apply(on_list);
        self.apply_to_nodes(event);
        self.cursor += 1;
        self.changes += 1;
    }

    fn apply_to_nodes(&mut self, event: &SearchEvent) {
        let gathered = self.shown == NodesShown::Gathered;
        if let SearchEvent::Opened { node, .. }
        | SearchEvent::Improved { node, .. }
        | SearchEvent::Expanded { node, .. } = *event
            && let Some(side) = self.backward.get_mut(node)
        {
            *side = self.backward_now;
        }
        match *event {
            SearchEvent::Turned { backward, .. } => {
                if self.backward.is_empty() {
                    self.backward = vec![false; self.status.len()];
                }
                self.backward_now = backward;
            }
            SearchEvent::Opened { node, parent, g, h }
                if self.has(node) && (!gathered || self.status[node] == NodeStatus::Unseen) =>
            {
                self.touch(node);
                self.status[node] = NodeStatus::Open;
                self.set_costs(node, parent, g, h);
            }
            SearchEvent::Improved { node, parent, g, h }
                if self.has(node) && (!gathered || self.status[node] == NodeStatus::Open) =>
            {
                self.touch(node);
                self.status[node] = NodeStatus::Open;
                self.set_costs(node, Some(parent), g, h);
            }
            SearchEvent::Expanded { node, g, h } if self.has(node) => {
                let first = self.visit[node] == 0;
                if !gathered || first {
                    self.touch(node);
                    self.status[node] = NodeStatus::Closed;
                    self.expansions[node] = self.expansions[node].saturating_add(1);
                    self.g[node] = g as f32;
                    self.h[node] = h as f32;
                    if first {
                        self.visited += 1;
                        self.visit[node] = self.visited;
                    }
                }
                self.current = Some(node);
            }
            // D* Lite: an inconsistent cell waits in the open list under its key (f shows k1).
            SearchEvent::Inconsistent { node, k1, k2, .. } if self.has(node) => {
                self.touch(node);
                self.status[node] = NodeStatus::Open;
                self.set_costs(node, None, k2, k1 - k2);
            }
            // Taken from the open list like an expansion; what it becomes follows at once.
            SearchEvent::Raised { node, .. } if self.has(node) => {
                self.touch(node);
                self.status[node] = NodeStatus::Closed;
                self.expansions[node] = self.expansions[node].saturating_add(1);
                if self.visit[node] == 0 {
                    self.visited += 1;
                    self.visit[node] = self.visited;
                }
                self.current = Some(node);
            }
            SearchEvent::Consistent { node, g } if self.has(node) => {
                self.touch(node);
                self.status[node] = if g.is_finite() {
                    NodeStatus::Closed
                } else {
                    NodeStatus::Unseen
                };
                self.g[node] = g as f32;
            }
            SearchEvent::Deferred { node, .. } if self.has(node) => {
                self.touch(node);
                self.status[node] = NodeStatus::Later;
            }
            // A node expanded before keeps its closed shade (and its costs from then); one cut
            // off again shows its latest costs.
            SearchEvent::CutOff { node, g, h }
                if self.has(node) && self.status[node] != NodeStatus::Closed =>
            {
                self.touch(node);
                self.status[node] = NodeStatus::Later;
                self.g[node] = g as f32;
                self.h[node] = h as f32;
            }
            SearchEvent::Backtracked { .. } => {
                // IDA* goes on from the node it backed up to.
                self.current = match &self.list {
                    ReplayList::IdaPath(path) => path.nodes().last().map(|p| p.node),
                    _ => None,
                };
            }
            SearchEvent::IterationStarted {
                iteration,
                threshold,
                ..
            } => {
                self.iteration = iteration;
                self.threshold = threshold;
            }
            SearchEvent::Finished { outcome, .. } => {
                self.outcome = Some(outcome);
                self.current = None;
            }
            _ => {}
        }
    }

    fn has(&self, node: usize) -> bool {
        node < self.status.len()
    }

    /// Remembers that `node` changes (once).
    fn touch(&mut self, node: usize) {
        let untouched = self.status[node] == NodeStatus::Unseen
            && self.expansions[node] == 0
            && self.g[node].is_nan()
            && self.h[node].is_nan();
        if untouched {
            self.touched.push(node);
        }
    }

    fn set_costs(&mut self, node: usize, parent: Option<usize>, g: f64, h: f64) {
        self.g[node] = g as f32;
        self.h[node] = h as f32;
        self.parent[node] = parent
            .and_then(|p| u32::try_from(p).ok())
            .unwrap_or(NO_PARENT);
    }

    /// True when a bidirectional search's backward half (from the goal) last reached or
    /// expanded `node`.
    pub fn reached_backward(&self, node: usize) -> bool {
        self.backward.get(node).copied().unwrap_or(false)
    }

    /// True while a bidirectional search's backward half is the one expanding.
    pub fn backward_now(&self) -> bool {
        self.backward_now
    }

    /// Where `node` stands (`Unseen` for a node out of range).
    pub fn status(&self, node: usize) -> NodeStatus {
        self.status.get(node).copied().unwrap_or_default()
    }

    /// Every node's status, by node.
    pub fn statuses(&self) -> &[NodeStatus] {
        &self.status
    }

    /// The cost from the start and the estimate to the goal the latest event gave `node`
    /// (`None`: not reached yet).
    pub fn costs(&self, node: usize) -> Option<(f32, f32)> {
        let (g, h) = (*self.g.get(node)?, *self.h.get(node)?);
        (!g.is_nan()).then_some((g, h))
    }

    /// The node `node` was reached from (`None`: the start, or not reached).
    pub fn parent(&self, node: usize) -> Option<usize> {
        self.parent
            .get(node)
            .filter(|&&p| p != NO_PARENT)
            .map(|&p| p as usize)
    }

    /// When `node` was first expanded, counting from 1 (`None`: not yet).
    pub fn visit_number(&self, node: usize) -> Option<u32> {
        self.visit.get(node).copied().filter(|&n| n > 0)
    }

    /// How many times `node` has been expanded (IDA\* expands a node once per pass that reaches
    /// it; 65,535 at most).
    pub fn expansions(&self, node: usize) -> u32 {
        self.expansions.get(node).map_or(0, |&n| u32::from(n))
    }

    /// The node the latest step expanded (for IDA\* after a back-up: the node it goes on
    /// from); `None` before the first expansion and once the search has finished.
    pub fn current(&self) -> Option<usize> {
        self.current
    }

    /// The pass of IDA\* or Fringe Search at the step shown, from 1 (0: not started or none).
    pub fn iteration(&self) -> usize {
        self.iteration
    }

    /// That pass's threshold on `f`.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// How the search ended, once it has.
    pub fn outcome(&self) -> Option<SearchOutcome> {
        self.outcome
    }

    /// True once the search has finished.
    pub fn is_finished(&self) -> bool {
        self.outcome.is_some()
    }

    /// The list the algorithm keeps, at the step shown.
    pub fn list(&self) -> &ReplayList {
        &self.list
    }

    /// The open list, when the algorithm keeps one.
    pub fn frontier(&self) -> Option<&Frontier> {
        match &self.list {
            ReplayList::Open(frontier) => Some(frontier),
            _ => None,
        }
    }

    /// Fringe Search's lists, when the search replayed is one.
    pub fn fringe_lists(&self) -> Option<&FringeLists> {
        match &self.list {
            ReplayList::Fringe(lists) => Some(lists),
            _ => None,
        }
    }

    /// IDA\*'s path, when the search replayed is IDA\*.
    pub fn ida_path(&self) -> Option<&IdaPath> {
        match &self.list {
            ReplayList::IdaPath(path) => Some(path),
            _ => None,
        }
    }

    /// True when `other` shows the same nodes and the same step's search state (the lists are
    /// compared by what a view reads of them: the next entries and their sizes).
    pub fn same_state(&self, other: &SearchReplay) -> bool {
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        self.cursor == other.cursor
            && self.status == other.status
            && self.expansions == other.expansions
            && bits(&self.g) == bits(&other.g)
            && bits(&self.h) == bits(&other.h)
            && self.parent == other.parent
            && self.visit == other.visit
            && self.current == other.current
            && self.iteration == other.iteration
            && self.threshold.to_bits() == other.threshold.to_bits()
            && self.outcome == other.outcome
            && same_list(&self.list, &other.list)
    }
}

/// True when two replayed lists read the same to a view.
fn same_list(a: &ReplayList, b: &ReplayList) -> bool {
    use super::events::ExpansionOrder;
    const SHOWN: usize = 64;
    match (a, b) {
        (ReplayList::Open(a), ReplayList::Open(b)) => {
            a.len() == b.len()
                && [
                    ExpansionOrder::LowestF,
                    ExpansionOrder::LowestFNewest,
                    ExpansionOrder::LowestG,
                    ExpansionOrder::Oldest,
                    ExpansionOrder::LowestH,
                ]
                .into_iter()
                .all(|order| a.next(order, SHOWN) == b.next(order, SHOWN))
        }
        (ReplayList::Fringe(a), ReplayList::Fringe(b)) => {
            a.next(SHOWN) == b.next(SHOWN) && a.now_len() == b.now_len()
        }
        (ReplayList::IdaPath(a), ReplayList::IdaPath(b)) => a.nodes() == b.nodes(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{WallMaze, astar, fringe, idastar};

    fn recorded(list: ListKind) -> Vec<SearchEvent> {
        let mut events = Vec::new();
        let goal = |n| n == WallMaze::GOAL;
        match list {
            ListKind::Open => {
                astar(
                    WallMaze::NODES,
                    0,
                    WallMaze::successors(),
                    WallMaze::estimate(),
                    goal,
                    &mut events,
                );
            }
            ListKind::Fringe => {
                fringe(
                    WallMaze::NODES,
                    0,
                    WallMaze::successors(),
                    WallMaze::estimate(),
                    goal,
                    &mut events,
                );
            }
            ListKind::IdaPath => {
                idastar(
                    WallMaze::NODES,
                    0,
                    WallMaze::successors(),
                    WallMaze::estimate(),
                    goal,
                    10_000,
                    &mut events,
                );
            }
        }
        events
    }

    /// Going back (starting over, resetting the nodes touched) gives the state of a replay
    /// that only ever went forward, for each kind of list.
    #[test]
    fn going_back_gives_the_state_of_going_forward() {
        for list in [ListKind::Open, ListKind::Fringe, ListKind::IdaPath] {
            let events = recorded(list);
            let mut replay = SearchReplay::new(WallMaze::NODES, list, NodesShown::Searched);
            replay.seek(&events, events.len());
            for k in (0..=events.len()).rev() {
                replay.seek(&events, k);
                let mut fresh = SearchReplay::new(WallMaze::NODES, list, NodesShown::Searched);
                fresh.seek(&events, k);
                assert!(replay.same_state(&fresh), "{list:?}, step {k}");
                replay.seek(&events, events.len());
            }
        }
    }

    /// Every state has a revision of its own: every step, every restart, every new replay
    /// and every clone (which goes its own way from there).
    #[test]
    fn a_revision_changes_with_every_state_and_is_never_shared() {
        let events = recorded(ListKind::Open);
        let mut replay = SearchReplay::new(WallMaze::NODES, ListKind::Open, NodesShown::Searched);
        let other = SearchReplay::new(WallMaze::NODES, ListKind::Open, NodesShown::Searched);
        let mut seen = vec![replay.revision(), other.revision()];
        for k in 1..=events.len() {
            replay.seek(&events, k);
            seen.push(replay.revision());
        }
        let mut copy = replay.clone();
        assert!(copy.same_state(&replay));
        seen.push(copy.revision());
        replay.seek(&events, 2);
        seen.push(replay.revision());
        copy.seek(&events, 2);
        seen.push(copy.revision());
        assert!(replay.same_state(&copy));
        let count = seen.len();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), count, "no revision repeats");
    }

    /// Gathered nodes keep their first state; searched nodes follow their latest event.
    #[test]
    fn gathered_nodes_keep_the_state_their_first_search_node_gave_them() {
        let events = [
            SearchEvent::Opened {
                node: 0,
                parent: None,
                g: 0.0,
                h: 2.0,
            },
            SearchEvent::Expanded {
                node: 0,
                g: 0.0,
                h: 2.0,
            },
            SearchEvent::Improved {
                node: 0,
                parent: 1,
                g: 0.5,
                h: 2.0,
            },
        ];
        let mut gathered = SearchReplay::new(2, ListKind::Open, NodesShown::Gathered);
        gathered.seek(&events, 3);
        assert_eq!(gathered.status(0), NodeStatus::Closed);
        assert_eq!(gathered.costs(0), Some((0.0, 2.0)));
        assert_eq!(gathered.visit_number(0), Some(1));
        let mut searched = SearchReplay::new(2, ListKind::Open, NodesShown::Searched);
        searched.seek(&events, 3);
        assert_eq!(searched.status(0), NodeStatus::Open);
        assert_eq!(searched.parent(0), Some(1));
        assert_eq!(searched.costs(0), Some((0.5, 2.0)));
        assert_eq!(searched.status(7), NodeStatus::Unseen, "out of range");
    }

    /// The end state agrees with the search's answer: its outcome, the nodes it expanded, a
    /// parent chain from the goal to the start.
    #[test]
    fn the_end_state_agrees_with_the_answer() {
        let mut events = Vec::new();
        let result = astar(
            WallMaze::NODES,
            0,
            WallMaze::successors(),
            WallMaze::estimate(),
            |n| n == WallMaze::GOAL,
            &mut events,
        );
        let mut replay = SearchReplay::new(WallMaze::NODES, ListKind::Open, NodesShown::Searched);
        replay.seek(&events, usize::MAX);
        assert_eq!(replay.outcome(), Some(result.outcome));
        let closed = (0..WallMaze::NODES)
            .filter(|&n| replay.status(n) == NodeStatus::Closed)
            .count();
        assert_eq!(closed, result.expanded);
        let mut chain = vec![WallMaze::GOAL];
        while let Some(p) = chain.last().and_then(|&n| replay.parent(n)) {
            chain.push(p);
        }
        chain.reverse();
        assert_eq!(chain, result.path);
        assert_eq!(replay.current(), None, "finished");
    }
}
