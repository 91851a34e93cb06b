//! Two recorded searches of the same query on one timeline counted in expansions: position `k`
//! shows each search after its `k`-th expansion (the successors it opened included, its next
//! expansion not yet), a search that has ended showing its end; the last position shows both
//! ended. Where they first take different nodes is found as a Posthoc comparison finds it
//! ([`posthoc::first_difference`](super::posthoc::first_difference)), so the window's lockstep
//! view and `navlab grid --against` agree.

use super::events::SearchEvent;

/// Which of the two searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The first search (the one animated).
    First,
    /// The second, set beside it.
    Second,
}

impl Side {
    fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

/// The two searches' steps aligned by expansions.
#[derive(Debug, Clone, PartialEq)]
pub struct Lockstep {
    /// For each search, the step index of each of its expansions, in order.
    stops: [Vec<usize>; 2],
    /// Each search's number of steps.
    lens: [usize; 2],
    first_difference: Option<(usize, Option<usize>, Option<usize>)>,
}

impl Lockstep {
    /// The timeline of `first` and `second`, each a search's recorded steps.
    ///
    /// ```
    /// use navlab_core::search::lockstep::{Lockstep, Side};
    /// use navlab_core::search::SearchEvent;
    ///
    /// let open = |node| SearchEvent::Opened { node, parent: None, g: 0.0, h: 0.0 };
    /// let expand = |node| SearchEvent::Expanded { node, g: 0.0, h: 0.0 };
    /// let a = [open(0), expand(0), open(1), expand(1)];
    /// let b = [open(0), expand(0), open(2), expand(2), expand(1)];
    /// let lockstep = Lockstep::new(&a, &b);
    /// assert_eq!(lockstep.len(), 3);
    /// // After one expansion each: the first shows its steps up to its second expansion.
    /// assert_eq!(lockstep.step(Side::First, 1), 3);
    /// // At the end, each search's end.
    /// assert_eq!(lockstep.step(Side::Second, 3), 5);
    /// assert_eq!(lockstep.first_difference(), Some((2, Some(1), Some(2))));
    /// ```
    pub fn new(first: &[SearchEvent], second: &[SearchEvent]) -> Self {
        let stops = |events: &[SearchEvent]| {
            events
                .iter()
                .enumerate()
                .filter(|(_, e)| matches!(e, SearchEvent::Expanded { .. }))
                .map(|(i, _)| i)
                .collect::<Vec<usize>>()
        };
        Self {
            stops: [stops(first), stops(second)],
            lens: [first.len(), second.len()],
            first_difference: super::posthoc::first_difference(first, second),
        }
    }

    /// The last position: the larger number of expansions (each position from 0 to it is a
    /// step of the timeline).
    pub fn len(&self) -> usize {
        self.stops[0].len().max(self.stops[1].len())
    }

    /// True when neither search expanded anything.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many steps of search `side` position `k` shows: up to its `k + 1`-th expansion, or
    /// all of them once it has made `k` or fewer.
    pub fn step(&self, side: Side, k: usize) -> usize {
        let i = side.index();
        self.stops[i].get(k).copied().unwrap_or(self.lens[i])
    }

    /// Expansions search `side` has made at position `k`.
    pub fn expansions(&self, side: Side, k: usize) -> usize {
        k.min(self.stops[side.index()].len())
    }

    /// The position at which the first search shows `step` steps or just fewer: its expansions
    /// before that step (where a view turning lockstep on starts).
    pub fn position_of(&self, step: usize) -> usize {
        if step >= self.lens[0] {
            return self.len();
        }
        self.stops[0].partition_point(|&s| s < step)
    }

    /// The first expansion (from 1) at which the two take different nodes, with each one's
    /// node there (`None`: that search had ended); `None` when they expand the same nodes in
    /// the same order. It is shown at the position of that number.
    pub fn first_difference(&self) -> Option<(usize, Option<usize>, Option<usize>)> {
        self.first_difference
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Connectivity, GridAlgorithm, Heuristic, TileMap, grid_search};
    use crate::search::SearchReplay;

    fn run(map: &TileMap, algorithm: GridAlgorithm) -> Vec<SearchEvent> {
        let mut events = Vec::new();
        grid_search(
            map,
            (0, 0),
            (9, 5),
            algorithm,
            Connectivity::Eight,
            &mut events,
        );
        events
    }

    /// A* against JPS on a map of one cost: at every position each replay has made exactly
    /// that many expansions (or all of its own) and its node just expanded is its k-th; the
    /// last position shows both ended; a view's step maps back to its position.
    #[test]
    fn every_position_shows_each_search_after_as_many_expansions() {
        let map = TileMap::from_ascii(
            "..........\n...@@@....\n.....@....\n.....@....\n..........\n..........",
        )
        .expect("a map");
        let astar = run(
            &map,
            GridAlgorithm::AStar {
                heuristic: Heuristic::Octile,
                weight: 1.0,
            },
        );
        let jps = run(&map, GridAlgorithm::Jps);
        let lockstep = Lockstep::new(&astar, &jps);
        let expanded = |events: &[SearchEvent]| super::super::posthoc::expansions(events);
        let (a, b) = (expanded(&astar), expanded(&jps));
        assert_eq!(lockstep.len(), a.len().max(b.len()));
        assert!(
            lockstep.first_difference().is_some(),
            "JPS skips cells A* takes"
        );
        for (side, events, nodes) in [(Side::First, &astar, &a), (Side::Second, &jps, &b)] {
            let mut replay = SearchReplay::new(
                map.cell_count(),
                crate::search::ListKind::Open,
                crate::search::NodesShown::Searched,
            );
            for k in 0..=lockstep.len() {
                let step = lockstep.step(side, k);
                replay.seek(events, step);
                let done = expanded(&events[..step]).len();
                assert_eq!(done, lockstep.expansions(side, k));
                assert_eq!(done, k.min(nodes.len()));
                // Its last expansion reaches the goal: that position shows its end.
                if k > 0 && k < nodes.len() {
                    assert_eq!(replay.current(), Some(nodes[k - 1]), "{side:?} at {k}");
                }
            }
            assert_eq!(lockstep.step(side, lockstep.len()), events.len());
        }
        for k in 0..=lockstep.len() {
            let back = lockstep.position_of(lockstep.step(Side::First, k));
            assert_eq!(back, if k < a.len() { k } else { lockstep.len() });
        }
        // A search beside itself never differs.
        assert_eq!(Lockstep::new(&astar, &astar).first_difference(), None);
    }
}
