//! Fringe Search's *now* and *later* lists as its recorded events leave them at any step, in the
//! order [`fringe`](super::fringe()) visits them: which node comes next, and whether it will be
//! expanded (its `f` is within the threshold) or put off to the next pass.

use super::NodeMap;
use super::events::SearchEvent;
use super::pass_limit;

/// An entry of the lists: a node and the version of its costs it was inserted with (a cheaper
/// route found later makes it stale, and the search skips it).
type Entry = (usize, u32);

/// The latest costs of a listed node.
#[derive(Debug, Clone, Copy)]
struct Costs {
    g: f64,
    h: f64,
    version: u32,
}

/// One entry of the *now* list, as the panel shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NowEntry {
    /// The node.
    pub node: usize,
    /// Cost from the start.
    pub g: f64,
    /// Heuristic estimate to the goal.
    pub h: f64,
    /// Its `f` is above the threshold: the visit will move it to the *later* list.
    pub deferred: bool,
}

impl NowEntry {
    /// The estimated total cost `g + h`.
    pub fn f(&self) -> f64 {
        self.g + self.h
    }
}

/// The lists after the events applied so far.
#[derive(Debug, Clone, Default)]
pub struct FringeLists {
    /// The pass's own list, read from `cursor`.
    now: Vec<Entry>,
    cursor: usize,
    /// Children inserted during the pass, a stack: the newest come first, right after the node
    /// being expanded.
    inserted: Vec<Entry>,
    later: Vec<Entry>,
    costs: NodeMap<Costs>,
    threshold: f64,
    /// The smallest `f` put off this pass: the next pass's threshold.
    smallest_deferred: Option<f64>,
}

impl FringeLists {
    /// Empty lists.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one event of Fringe Search into account.
    pub fn apply(&mut self, event: &SearchEvent) {
        match *event {
            SearchEvent::Opened { node, g, h, .. } | SearchEvent::Improved { node, g, h, .. } => {
                let costs = self.costs.entry(node).or_insert(Costs { g, h, version: 0 });
                costs.g = g;
                costs.h = h;
                costs.version = costs.version.wrapping_add(1);
                self.inserted.push((node, costs.version));
            }
            SearchEvent::Expanded { node, .. } => {
                self.take_head();
                // Its entry is consumed; a cheaper route re-inserts it.
                if let Some(costs) = self.costs.get_mut(&node) {
                    costs.version = costs.version.wrapping_add(1);
                }
            }
            SearchEvent::Deferred { f, .. } => {
                if let Some(entry) = self.take_head() {
                    self.later.push(entry);
                }
                self.smallest_deferred = Some(self.smallest_deferred.map_or(f, |s| s.min(f)));
            }
            SearchEvent::IterationStarted { threshold, .. } => {
                self.threshold = threshold;
                self.smallest_deferred = None;
                // A new pass: what was put off is the list now (the first pass starts with
                // the start alone).
                if !self.later.is_empty() {
                    let rest: Vec<Entry> = self.remaining().collect();
                    self.now = std::mem::take(&mut self.later);
                    self.now.extend(rest);
                    self.cursor = 0;
                    self.inserted.clear();
                }
            }
            SearchEvent::Finished { .. }
            | SearchEvent::Backtracked { .. }
            | SearchEvent::CutOff { .. }
            | SearchEvent::Turned { .. }
            | SearchEvent::Met { .. }
            | SearchEvent::Jumped { .. }
            | SearchEvent::Inconsistent { .. }
            | SearchEvent::Raised { .. }
            | SearchEvent::Consistent { .. }
            | SearchEvent::Edited { .. } => {}
        }
    }

    /// The threshold of the pass.
    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    /// The first `n` current entries of the *now* list, in the order the search visits them.
    pub fn next(&self, n: usize) -> Vec<NowEntry> {
        let limit = pass_limit(self.threshold);
        self.remaining()
            .take(n)
            .filter_map(|(node, _)| {
                let costs = self.costs.get(&node)?;
                Some(NowEntry {
                    node,
                    g: costs.g,
                    h: costs.h,
                    deferred: costs.g + costs.h > limit,
                })
            })
            .collect()
    }

    /// Current entries in the *now* list.
    pub fn now_len(&self) -> usize {
        self.remaining().count()
    }

    /// The next pass's threshold as it stands: the smallest `f` put off so far this pass. As
    /// in the paper it counts entries put off and then superseded by a cheaper route, so it can
    /// be below every `f` left in the *later* list (the next pass then expands nothing at first).
    pub fn next_threshold(&self) -> Option<f64> {
        self.smallest_deferred
    }

    /// Current entries in the *later* list, and the smallest `f` among them.
    pub fn later_summary(&self) -> (usize, Option<f64>) {
        let mut count = 0;
        let mut smallest: Option<f64> = None;
        for &(node, version) in &self.later {
            if let Some(costs) = self.costs.get(&node)
                && costs.version == version
            {
                count += 1;
                let f = costs.g + costs.h;
                smallest = Some(smallest.map_or(f, |s| s.min(f)));
            }
        }
        (count, smallest)
    }

    /// The current entries still to visit this pass, in order.
    fn remaining(&self) -> impl Iterator<Item = Entry> + '_ {
        let own = self.now.get(self.cursor..).unwrap_or_default();
        self.inserted
            .iter()
            .rev()
            .chain(own)
            .copied()
            .filter(|&entry| self.is_current(entry))
    }

    fn is_current(&self, (node, version): Entry) -> bool {
        self.costs
            .get(&node)
            .is_some_and(|costs| costs.version == version)
    }

    /// Removes and returns the first current entry (the stale ones before it go too).
    fn take_head(&mut self) -> Option<Entry> {
        loop {
            let entry = if let Some(entry) = self.inserted.pop() {
                entry
            } else {
                let entry = *self.now.get(self.cursor)?;
                self.cursor += 1;
                entry
            };
            if self.is_current(entry) {
                return Some(entry);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{NoObserver, fringe};

    /// Before every visit the replayed lists name the node visited and whether it is expanded
    /// or put off, on a small grid with a wall the estimate does not see.
    #[test]
    fn the_head_of_now_is_the_next_visit() {
        use crate::search::WallMaze;
        let (nodes, goal) = (WallMaze::NODES, WallMaze::GOAL);
        let (grid, manhattan) = (WallMaze::successors(), WallMaze::estimate());
        let mut trace = Vec::new();
        let result = fringe(nodes, 0, &grid, manhattan, |n| n == goal, &mut trace);
        assert!(result.cost.is_finite());
        let plain = fringe(nodes, 0, &grid, manhattan, |n| n == goal, &mut NoObserver);
        assert_eq!(plain.cost, result.cost);
        let mut lists = FringeLists::new();
        let (mut expanded, mut deferred) = (0, 0);
        for event in &trace {
            match *event {
                SearchEvent::Expanded { node, .. } => {
                    let head = lists.next(1);
                    assert_eq!(
                        head.first().map(|e| (e.node, e.deferred)),
                        Some((node, false))
                    );
                    expanded += 1;
                }
                SearchEvent::Deferred { node, f } => {
                    let head = lists.next(1);
                    assert_eq!(
                        head.first().map(|e| (e.node, e.deferred)),
                        Some((node, true))
                    );
                    assert_eq!(head.first().map(NowEntry::f), Some(f));
                    deferred += 1;
                }
                SearchEvent::IterationStarted { iteration, .. } if iteration > 1 => {
                    assert_eq!(lists.now_len(), 0, "a pass ends when now is done");
                    let next = lists.next_threshold();
                    lists.apply(event);
                    assert_eq!(Some(lists.threshold()), next, "the smallest f put off");
                    continue;
                }
                _ => {}
            }
            lists.apply(event);
        }
        assert!(expanded > 10 && deferred > 0, "{expanded} {deferred}");
    }
}
