//! IDA*'s current path — the only memory it keeps — as its recorded events leave it at any
//! step: each expansion puts a node at the end of the path, each backtrack takes it off, and
//! a pass starts again from the start with an empty path.

use super::NodeMap;
use super::events::SearchEvent;

/// A node on the path, with its costs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PathNode {
    /// The node.
    pub node: usize,
    /// Cost from the start along the path.
    pub g: f64,
    /// Heuristic estimate to the goal.
    pub h: f64,
}

impl PathNode {
    /// The estimated total cost `g + h`.
    pub fn f(&self) -> f64 {
        self.g + self.h
    }
}

/// The path after the events applied so far.
#[derive(Debug, Clone, Default)]
pub struct IdaPath {
    path: Vec<PathNode>,
    /// The smallest `f` cut off by the pass's back-ups so far.
    cut_off: Option<f64>,
    /// How many times a child was cut off so far this pass.
    cut_offs: usize,
    /// The different nodes among them (a set: the values are empty).
    cut_nodes: NodeMap<()>,
}

impl IdaPath {
    /// No path yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes one event of IDA* into account.
    pub fn apply(&mut self, event: &SearchEvent) {
        match *event {
            SearchEvent::IterationStarted { .. } => {
                self.path.clear();
                self.cut_off = None;
                self.cut_offs = 0;
                self.cut_nodes.clear();
            }
            SearchEvent::CutOff { node, .. } => {
                self.cut_offs += 1;
                self.cut_nodes.insert(node, ());
            }
            SearchEvent::Expanded { node, g, h } => self.path.push(PathNode { node, g, h }),
            SearchEvent::Backtracked { node, cut_off }
                if self.path.last().is_some_and(|last| last.node == node) =>
            {
                self.path.pop();
                if let Some(f) = cut_off {
                    self.cut_off = Some(self.cut_off.map_or(f, |c| c.min(f)));
                }
            }
            _ => {}
        }
    }

    /// From the start to the node expanded last.
    pub fn nodes(&self) -> &[PathNode] {
        &self.path
    }

    /// How many times this pass has cut a child off so far (IDA* keeps no record of what it
    /// saw, so a node reached along several paths is cut off each time).
    pub fn cut_offs(&self) -> usize {
        self.cut_offs
    }

    /// How many different nodes this pass has cut off so far: the pass's contour, what a
    /// Fringe Search would keep in its later list.
    pub fn cut_off_nodes(&self) -> usize {
        self.cut_nodes.len()
    }

    /// The smallest `f` cut off in this pass by the nodes backed up from so far: once the
    /// pass is over (the start backed up from too), the next pass's threshold.
    pub fn next_threshold(&self) -> Option<f64> {
        self.cut_off
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{NoObserver, idastar};

    /// On a small grid with a wall the estimate does not see: before every expansion the
    /// path's last node is a neighbour of the node expanded, one step cheaper; each backtrack
    /// takes off the path's last node; and at the goal the path is the answer.
    #[test]
    fn the_path_is_the_depth_first_stack() {
        let (w, h) = (6usize, 5usize);
        let grid = crate::search::walled_grid(w, h, |n| n % w == 2 && n / w < 4);
        let goal = 5;
        let manhattan = crate::search::manhattan_to(w, goal);
        let mut trace = Vec::new();
        let result = idastar(
            w * h,
            0,
            &grid,
            manhattan,
            |n| n == goal,
            100_000,
            &mut trace,
        );
        let plain = idastar(
            w * h,
            0,
            &grid,
            manhattan,
            |n| n == goal,
            100_000,
            &mut NoObserver,
        );
        assert_eq!((result.cost, &result.path), (plain.cost, &plain.path));
        let mut path = IdaPath::new();
        let (mut backtracks, mut cut_offs) = (0, Vec::new());
        for event in &trace {
            match *event {
                SearchEvent::IterationStarted { .. } => {
                    assert_eq!(path.cut_offs(), cut_offs.len(), "the pass's cut-offs");
                    cut_offs.sort_unstable();
                    cut_offs.dedup();
                    assert_eq!(
                        path.cut_off_nodes(),
                        cut_offs.len(),
                        "the pass's cells cut off"
                    );
                    cut_offs.clear();
                }
                SearchEvent::CutOff { node, .. } => cut_offs.push(node),
                SearchEvent::Expanded { node, g, .. } => {
                    if let Some(last) = path.nodes().last() {
                        let mut next = Vec::new();
                        grid(last.node, &mut next);
                        assert!(
                            next.iter()
                                .any(|&(m, step)| m == node && last.g + step == g)
                        );
                    } else {
                        assert_eq!(node, 0, "a pass starts at the start");
                    }
                }
                SearchEvent::Backtracked { node, .. } => {
                    assert_eq!(path.nodes().last().map(|p| p.node), Some(node));
                    backtracks += 1;
                }
                _ => {}
            }
            path.apply(event);
        }
        let ends: Vec<usize> = path.nodes().iter().map(|p| p.node).collect();
        assert_eq!(ends, result.path);
        assert!(backtracks > 10, "{backtracks}");
    }
}
