//! The steps Polyanya reports ([`super::anyangle`]), and the sentence that explains each in a
//! step list.

use super::VertId;
use super::faces::FaceId;
use super::links::LinkKind;
use crate::geom::Vec2;

/// One step of the search, for a view or a trace.
#[derive(Debug, Clone, PartialEq)]
pub enum PolyanyaEvent {
    /// A search node was made: its root, its interval (right and left end as seen from the
    /// root), the face it leads into, and its costs.
    Pushed {
        /// The node's number.
        node: usize,
        /// Its root.
        root: Vec2,
        /// The interval's right end.
        right: Vec2,
        /// The interval's left end.
        left: Vec2,
        /// The face beyond the interval (a triangle, when the search walks triangles).
        into: FaceId,
        /// Length of the path to the root.
        g: f64,
        /// The estimate from the root through the interval to the goal.
        h: f64,
        /// True when the root is the parent's (seen straight through); false for a new root.
        observable: bool,
    },
    /// The open node with the lowest f was taken.
    Popped {
        /// The node.
        node: usize,
        /// Its f.
        f: f64,
    },
    /// The node just expanded had this one successor and no goal: it is expanded at once,
    /// without going through the open list.
    Followed {
        /// The node.
        node: usize,
        /// Its f.
        f: f64,
    },
    /// What expanding a node made.
    Expanded {
        /// The node.
        node: usize,
        /// Successors with the same root.
        observable: usize,
        /// Successors from a vertex the path turns at.
        non_observable: usize,
    },
    /// A vertex became a root (the path may turn there), at this length from the start.
    Turned {
        /// The vertex.
        vertex: VertId,
        /// Where it is.
        at: Vec2,
        /// Length of the path to it.
        g: f64,
    },
    /// The start of an off-mesh link was reached from a root: the way across it waits in the
    /// open list, at its cost to the link's end plus the estimate from there.
    LinkReached {
        /// The link's number.
        link: usize,
        /// What it is.
        kind: LinkKind,
        /// True when it is crossed from its end back to its start.
        reversed: bool,
        /// Where it starts.
        at: Vec2,
        /// Length of the path to its start.
        g: f64,
        /// The cost at its end plus the estimate from there to the goal.
        f: f64,
    },
    /// An off-mesh link was crossed: its end is a new root, the path's cost there `g`.
    LinkCrossed {
        /// The link's number.
        link: usize,
        /// What it is.
        kind: LinkKind,
        /// True when crossed from its end back to its start.
        reversed: bool,
        /// Where it ends.
        to: Vec2,
        /// The path's cost at its end.
        g: f64,
    },
    /// Work not done, and why.
    Pruned {
        /// The node, when one was taken.
        node: Option<usize>,
        /// Why.
        reason: PruneReason,
    },
    /// The goal was reached by a path of this length (the search is over); on a mesh with
    /// off-mesh links, of this cost (the length of its walks plus the cost of its links).
    GoalReached {
        /// The path's length.
        length: f64,
    },
    /// The open list ran empty without reaching the goal.
    Exhausted {
        /// Whether the start and the goal are on one island (their triangles joined through
        /// shared edges): then the search lost its way (the mesh folds over itself or has
        /// sliver faces there), rather than the goal being out of reach.
        connected: bool,
    },
    /// The search made [`super::anyangle::node_budget`] nodes without reaching the goal and stopped.
    OverBudget,
}

/// Why the search left something out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PruneReason {
    /// A vertex was already a root at a shorter length: turning there again cannot help.
    RootReachedCheaper,
    /// The interval leads into a face with no way on but back, and no goal: no node is made.
    DeadEnd {
        /// The face (a triangle, when the search walks triangles).
        triangle: FaceId,
    },
    /// An off-mesh link was crossed already, at a lower cost.
    LinkCrossedCheaper {
        /// The link's number.
        link: usize,
    },
}

impl PolyanyaEvent {
    /// One plain sentence for a step list.
    pub fn explain(&self) -> String {
        match self {
            PolyanyaEvent::Pushed {
                node,
                root,
                right,
                left,
                into,
                g,
                h,
                observable,
            } => {
                let kind = if *observable {
                    "seen straight from its root"
                } else {
                    "seen from a new root"
                };
                format!(
                    "push node {node}: root {root}, interval {right} to {left} into triangle {into}, {kind} (g = {g:.2}, h = {h:.2}, f = {:.2})",
                    g + h
                )
            }
            PolyanyaEvent::Popped { node, f } => {
                format!("take node {node}, the open one with the lowest f ({f:.2})")
            }
            PolyanyaEvent::Followed { node, f } => format!(
                "node {node} is the only way on (f = {f:.2}): projected at once, without the open list"
            ),
            PolyanyaEvent::Expanded {
                node,
                observable,
                non_observable,
            } => format!(
                "node {node} projected across its triangle: {observable} seen straight, {non_observable} round a corner"
            ),
            PolyanyaEvent::Turned { vertex, at, g } => format!(
                "vertex {vertex} at {at} becomes a root: the path may turn there (g = {g:.2})"
            ),
            PolyanyaEvent::LinkReached {
                link,
                kind,
                reversed,
                at,
                g,
                f,
            } => {
                let back = if *reversed { ", back" } else { "" };
                format!(
                    "the {} link {link}{back} starts at {at}, reached with g = {g:.2}: crossing it waits in the open list (f = {f:.2})",
                    kind.name()
                )
            }
            PolyanyaEvent::LinkCrossed {
                link,
                kind,
                reversed,
                to,
                g,
            } => {
                let back = if *reversed { " back" } else { "" };
                format!(
                    "cross the {} link {link}{back} to {to}: its end becomes a root (g = {g:.2})",
                    kind.name()
                )
            }
            PolyanyaEvent::Pruned { node, reason } => match reason {
                PruneReason::LinkCrossedCheaper { link } => {
                    format!("prune: link {link} was crossed already at a lower cost")
                }
                PruneReason::RootReachedCheaper => {
                    let what = node.map_or("a vertex".to_string(), |n| format!("node {n}"));
                    format!("prune {what}: its root was reached more cheaply")
                }
                PruneReason::DeadEnd { triangle } => {
                    format!(
                        "prune: triangle {triangle} is a dead end (no way on, no goal), not entered"
                    )
                }
            },
            PolyanyaEvent::GoalReached { length } => {
                format!("goal reached: the shortest path is {length:.3} long")
            }
            PolyanyaEvent::Exhausted { connected: false } => {
                "no node left: the goal is on another island, it cannot be reached".to_string()
            }
            PolyanyaEvent::Exhausted { connected: true } => "no node left, though the start and \
                the goal are joined by triangles sharing edges: the mesh folds over itself or has \
                sliver faces there, which a shortest-path search in the plane cannot follow"
                .to_string(),
            PolyanyaEvent::OverBudget => {
                "stopped: the search made more nodes than a mesh this size can need".to_string()
            }
        }
    }
}
