//! The recorded steps at which each node was expanded, so that a view can say when a cell or a
//! triangle was expanded and jump to that step.

use super::events::SearchEvent;

/// For every node, the steps of a recording that expanded it, in order. Step `k` is
/// `events[k - 1]` (step 0 is before the first event), as the playback bars count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpansionSteps {
    /// (node, step), sorted by node, then step.
    pairs: Vec<(usize, usize)>,
}

impl ExpansionSteps {
    /// Indexes the `Expanded` events of `events`.
    pub fn new(events: &[SearchEvent]) -> Self {
        let mut pairs: Vec<(usize, usize)> = events
            .iter()
            .enumerate()
            .filter_map(|(i, event)| match *event {
                SearchEvent::Expanded { node, .. } => Some((node, i + 1)),
                _ => None,
            })
            .collect();
        // No two pairs are equal (one step, one event), so an unstable sort orders them fully.
        pairs.sort_unstable();
        Self { pairs }
    }

    /// The steps that expanded `node`, earliest first (empty: never expanded).
    pub fn of(&self, node: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        let first = self.pairs.partition_point(|&(n, _)| n < node);
        let end = self.pairs.partition_point(|&(n, _)| n <= node);
        self.pairs
            .get(first..end)
            .unwrap_or_default()
            .iter()
            .map(|&(_, step)| step)
    }

    /// The first step after `step` that expands `node`, or, when there is none, the first
    /// that does (going round); `None` when `node` was never expanded.
    pub fn next_after(&self, node: usize, step: usize) -> Option<usize> {
        let mut steps = self.of(node);
        let first = steps.next()?;
        if first > step {
            return Some(first);
        }
        Some(steps.find(|&s| s > step).unwrap_or(first))
    }

    /// How many expansions are indexed.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// True when nothing was expanded.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::idastar;

    fn expanded(node: usize) -> SearchEvent {
        SearchEvent::Expanded {
            node,
            g: 0.0,
            h: 0.0,
        }
    }

    #[test]
    fn each_node_lists_the_steps_that_expanded_it_in_order() {
        let opened = SearchEvent::Opened {
            node: 7,
            parent: None,
            g: 0.0,
            h: 0.0,
        };
        let events = [opened, expanded(7), expanded(3), opened, expanded(7)];
        let index = ExpansionSteps::new(&events);
        assert_eq!(index.of(7).collect::<Vec<_>>(), [2, 5]);
        assert_eq!(index.of(3).collect::<Vec<_>>(), [3]);
        assert_eq!(index.of(4).count(), 0);
        assert_eq!(index.len(), 3);
        assert_eq!(index.next_after(7, 0), Some(2));
        assert_eq!(index.next_after(7, 2), Some(5));
        // Past its last expansion, round to its first.
        assert_eq!(index.next_after(7, 5), Some(2));
        assert_eq!(index.next_after(3, 4), Some(3));
        assert_eq!(index.next_after(4, 0), None);
        assert!(ExpansionSteps::new(&[]).is_empty());
    }

    /// Against a real recording, where IDA* expands nodes again pass after pass: every step
    /// the index names for a node is an expansion of it, and every expansion is named once.
    #[test]
    fn an_idastar_recording_is_indexed_exactly() {
        use crate::search::WallMaze;
        let (nodes, goal) = (WallMaze::NODES, WallMaze::GOAL);
        let (grid, manhattan) = (WallMaze::successors(), WallMaze::estimate());
        let mut events = Vec::new();
        let result = idastar(
            nodes,
            0,
            &grid,
            manhattan,
            |n| n == goal,
            10_000,
            &mut events,
        );
        assert!(result.cost.is_finite());
        let index = ExpansionSteps::new(&events);
        let mut named = 0;
        for node in 0..nodes {
            let steps: Vec<usize> = index.of(node).collect();
            assert!(steps.windows(2).all(|pair| pair[0] < pair[1]));
            for &step in &steps {
                assert!(
                    matches!(events[step - 1], SearchEvent::Expanded { node: n, .. } if n == node)
                );
            }
            named += steps.len();
        }
        let expansions = events
            .iter()
            .filter(|e| matches!(e, SearchEvent::Expanded { .. }))
            .count();
        assert_eq!(named, expansions);
        assert!(
            (0..nodes).any(|n| index.of(n).len() > 1),
            "IDA* expands some node again"
        );
    }
}
