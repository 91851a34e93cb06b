//! The open list as a search's recorded events leave it at any step, in the order the search
//! will expand it: what a teacher shows to explain why the next node is the next.

use super::NodeMap;
use super::events::{ExpansionOrder, SearchEvent};

/// One open node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrontierEntry {
    /// The node.
    pub node: usize,
    /// Cost from the start.
    pub g: f64,
    /// Heuristic estimate to the goal.
    pub h: f64,
    /// When it entered (or re-entered, cheaper) the open list: 0 for the first.
    pub pushed: u64,
    /// Entered with exactly the `f` of the node then being expanded: [`astar`](super::astar())
    /// keeps such entries out of its heap and expands them first, newest first.
    pub level: bool,
    /// D\* Lite's key `[k1; k2]` (`None` for the other searches): `g` holds `k2`, `h` holds
    /// `k1 − k2`.
    pub key: Option<[f64; 2]>,
}

impl FrontierEntry {
    /// The estimated total cost `g + h`, computed as the searches compute it.
    pub fn f(&self) -> f64 {
        self.g + self.h
    }
}

/// The open nodes after the events applied so far.
#[derive(Debug, Clone, Default)]
pub struct Frontier {
    open: NodeMap<FrontierEntry>,
    pushes: u64,
    /// The `f` key of the node expanded last.
    expanding: Option<u64>,
    /// A bidirectional search's other half: its open nodes and the `f` key it expanded last,
    /// set aside while this half expands.
    other: Option<Box<(NodeMap<FrontierEntry>, Option<u64>)>>,
    /// True while a bidirectional search's backward half is the one kept in `open`.
    backward: bool,
}

/// `f` as the open list's integer key orders it (see [`astar`](super::astar())).
fn f_key(f: f64) -> u64 {
    f.max(0.0).to_bits()
}

impl Frontier {
    /// An empty open list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one event into account: opened and improved nodes enter the list (an improved one
    /// as a new entry), expanded ones leave it. A bidirectional search's turn to its other half
    /// sets this half's list aside and shows the other's.
    pub fn apply(&mut self, event: &SearchEvent) {
        match *event {
            SearchEvent::Turned { backward, .. } if backward != self.backward => {
                let (open, expanding) = self.other.take().map(|other| *other).unwrap_or_default();
                let this_open = std::mem::replace(&mut self.open, open);
                let this_expanding = std::mem::replace(&mut self.expanding, expanding);
                self.other = Some(Box::new((this_open, this_expanding)));
                self.backward = backward;
            }
            SearchEvent::Opened { node, g, h, .. } | SearchEvent::Improved { node, g, h, .. } => {
                let pushed = self.pushes;
                self.pushes += 1;
                let level = self.expanding == Some(f_key(g + h));
                let entry = FrontierEntry {
                    node,
                    g,
                    h,
                    pushed,
                    level,
                    key: None,
                };
                self.open.insert(node, entry);
            }
            SearchEvent::Inconsistent { node, k1, k2, .. } => {
                let pushed = self.pushes;
                self.pushes += 1;
                let entry = FrontierEntry {
                    node,
                    g: k2,
                    h: k1 - k2,
                    pushed,
                    level: false,
                    key: Some([k1, k2]),
                };
                self.open.insert(node, entry);
            }
            SearchEvent::Raised { node, .. } | SearchEvent::Consistent { node, .. } => {
                self.open.remove(&node);
            }
            SearchEvent::Expanded { node, g, h } => {
                let f = self.open.remove(&node).map_or(g + h, |entry| entry.f());
                self.expanding = Some(f_key(f));
            }
            _ => {}
        }
    }

    /// True while the list shown is a bidirectional search's backward half's (the other half's
    /// is set aside).
    pub fn is_backward(&self) -> bool {
        self.backward
    }

    /// How many nodes the other half of a bidirectional search has open (0 for other searches).
    pub fn other_len(&self) -> usize {
        self.other.as_ref().map_or(0, |other| other.0.len())
    }

    /// The open nodes, in no order (for drawing them all; [`next`](Self::next) orders them).
    pub fn entries(&self) -> impl Iterator<Item = &FrontierEntry> {
        self.open.values()
    }

    /// How many nodes are open.
    pub fn len(&self) -> usize {
        self.open.len()
    }

    /// True when no node is open.
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// The first `n` open nodes in the order a search expanding by `order` takes them, as
    /// [`astar`](super::astar()) (A*, and Dijkstra with `h` = 0) and [`bfs`](super::bfs())
    /// do: for A* and Dijkstra the entries that came with exactly the `f` being expanded
    /// (newest first), then the lowest `f` (`g` for Dijkstra), newest first among equals; by
    /// [`ExpansionOrder::LowestFNewest`] the lowest `f`, newest first among equals; for
    /// breadth-first search the oldest; by [`ExpansionOrder::LowestKey`] (D\* Lite) the lowest
    /// key, part by part, newest first among equals. `None` for the threshold searches (IDA*,
    /// Fringe Search), which take nodes in list or depth order, not by a key.
    pub fn next(&self, order: ExpansionOrder, n: usize) -> Option<Vec<FrontierEntry>> {
        type Compare = fn(&FrontierEntry, &FrontierEntry) -> std::cmp::Ordering;
        let compare: Compare = match order {
            ExpansionOrder::LowestFNewest => |a, b| {
                f_key(a.f())
                    .cmp(&f_key(b.f()))
                    .then(b.pushed.cmp(&a.pushed))
            },
            ExpansionOrder::LowestF | ExpansionOrder::LowestG => |a, b| {
                b.level
                    .cmp(&a.level)
                    .then(f_key(a.f()).cmp(&f_key(b.f())))
                    .then(b.pushed.cmp(&a.pushed))
            },
            ExpansionOrder::Oldest => |a, b| a.pushed.cmp(&b.pushed),
            // Greedy best-first search: the lowest h, newest first among equals.
            ExpansionOrder::LowestH => {
                |a, b| f_key(a.h).cmp(&f_key(b.h)).then(b.pushed.cmp(&a.pushed))
            }
            ExpansionOrder::LowestKey => |a, b| {
                let key = |e: &FrontierEntry| e.key.unwrap_or([e.f(), e.g]);
                let (ka, kb) = (key(a), key(b));
                ka[0]
                    .total_cmp(&kb[0])
                    .then(ka[1].total_cmp(&kb[1]))
                    .then(b.pushed.cmp(&a.pushed))
            },
            ExpansionOrder::WithinThreshold => return None,
        };
        // The best `n` in one pass, without copying the whole list (the window asks every frame).
        let mut best: Vec<FrontierEntry> = Vec::with_capacity(n + 1);
        for entry in self.open.values() {
            if best.len() == n && best.last().is_none_or(|last| compare(entry, last).is_ge()) {
                continue;
            }
            let at = best.partition_point(|b| compare(b, entry).is_lt());
            best.insert(at, *entry);
            best.truncate(n);
        }
        Some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opened(node: usize, g: f64, h: f64) -> SearchEvent {
        SearchEvent::Opened {
            node,
            parent: None,
            g,
            h,
        }
    }

    #[test]
    fn lowest_f_first_and_the_newest_among_equals() {
        let mut frontier = Frontier::new();
        for event in [
            opened(1, 1.0, 4.0),
            opened(2, 2.0, 3.0),
            opened(3, 0.5, 9.0),
            opened(4, 3.0, 1.0),
        ] {
            frontier.apply(&event);
        }
        fn nodes(frontier: &Frontier, order: ExpansionOrder, n: usize) -> Vec<usize> {
            frontier
                .next(order, n)
                .expect("ordered")
                .iter()
                .map(|e| e.node)
                .collect()
        }
        assert_eq!(nodes(&frontier, ExpansionOrder::LowestF, 9), [4, 2, 1, 3]);
        assert_eq!(nodes(&frontier, ExpansionOrder::LowestF, 2), [4, 2]);
        assert_eq!(nodes(&frontier, ExpansionOrder::Oldest, 9), [1, 2, 3, 4]);
        assert!(frontier.next(ExpansionOrder::WithinThreshold, 9).is_none());

        // An improvement re-enters the node as the newest; an expansion takes it out.
        frontier.apply(&SearchEvent::Improved {
            node: 1,
            parent: 2,
            g: 0.5,
            h: 4.0,
        });
        assert_eq!(nodes(&frontier, ExpansionOrder::LowestF, 9), [4, 1, 2, 3]);
        assert_eq!(nodes(&frontier, ExpansionOrder::Oldest, 9), [2, 3, 4, 1]);
        frontier.apply(&SearchEvent::Expanded {
            node: 4,
            g: 3.0,
            h: 1.0,
        });
        assert_eq!(nodes(&frontier, ExpansionOrder::LowestF, 9), [1, 2, 3]);
        assert_eq!(frontier.len(), 3);
    }

    #[test]
    fn entries_with_the_f_being_expanded_come_first_as_in_astar() {
        let mut frontier = Frontier::new();
        frontier.apply(&opened(0, 0.0, 5.0));
        frontier.apply(&SearchEvent::Expanded {
            node: 0,
            g: 0.0,
            h: 5.0,
        });
        // Exactly the f being expanded: A* takes it before anything in its heap, even an f a
        // hair lower that came later (float noise in sums).
        frontier.apply(&opened(1, 1.0, 4.0));
        frontier.apply(&opened(2, 1.0, 4.0 - 1e-12));
        frontier.apply(&opened(3, 1.0, 7.0));
        let first = frontier.next(ExpansionOrder::LowestF, 3).expect("ordered");
        let nodes: Vec<usize> = first.iter().map(|e| e.node).collect();
        assert_eq!(nodes, [1, 2, 3]);
        assert!(first[0].level && !first[1].level);
        // Dijkstra is A* with h = 0: lowest g, by the same rule.
        let mut dijkstra = Frontier::new();
        for (node, g) in [(5, 2.0), (6, 1.0), (7, 1.0)] {
            dijkstra.apply(&opened(node, g, 0.0));
        }
        let nodes: Vec<usize> = dijkstra
            .next(ExpansionOrder::LowestG, 3)
            .expect("ordered")
            .iter()
            .map(|e| e.node)
            .collect();
        assert_eq!(nodes, [7, 6, 5]);
    }
}
