//! Which line of Polyanya's pseudocode (`navlab pseudocode polyanya`) each of its steps runs,
//! with the values it touches.

use super::anyangle::{PolyanyaEvent, PruneReason};
use crate::search::pseudocode::LitLine;

/// The line `event` runs; `started` is true once a node has been taken (the start's own nodes
/// are pushed before).
pub fn polyanya_step(event: &PolyanyaEvent, started: bool) -> LitLine {
    let point = |p: crate::geom::Vec2| format!("({:.2}, {:.2})", p.x, p.y);
    match event {
        PolyanyaEvent::Pushed {
            node,
            root,
            into,
            g,
            h,
            observable,
            ..
        } => {
            let line = match (started, observable) {
                (false, _) => 1,
                (true, true) => 8,
                (true, false) => 10,
            };
            LitLine::new(line)
                .with("node", node.to_string())
                .with("root", point(*root))
                .with("into", format!("triangle {into}"))
                .number("g", *g)
                .number("h", *h)
                .number("f", g + h)
        }
        PolyanyaEvent::Popped { node, f } => {
            LitLine::new(3).with("n", node.to_string()).number("f", *f)
        }
        PolyanyaEvent::Followed { node, f } => {
            LitLine::new(4).with("n", node.to_string()).number("f", *f)
        }
        PolyanyaEvent::Expanded {
            node,
            observable,
            non_observable,
        } => LitLine::new(13)
            .with("n", node.to_string())
            .with("observable", observable.to_string())
            .with("turning", non_observable.to_string()),
        PolyanyaEvent::Turned { vertex, at, g } => LitLine::new(9)
            .with("c", format!("vertex {vertex} {}", point(*at)))
            .number("g(c)", *g),
        PolyanyaEvent::Pruned { node, reason } => {
            let lit = LitLine::new(11);
            let lit = match node {
                Some(n) => lit.with("n", n.to_string()),
                None => lit,
            };
            match reason {
                PruneReason::RootReachedCheaper => lit.with("why", "root reached more cheaply"),
                PruneReason::DeadEnd { triangle } => {
                    lit.with("why", format!("triangle {triangle} leads nowhere"))
                }
                PruneReason::LinkCrossedCheaper { link } => {
                    lit.with("why", format!("link {link} crossed already"))
                }
            }
        }
        PolyanyaEvent::LinkReached { link, at, g, f, .. } => LitLine::new(12)
            .with("link", link.to_string())
            .with("s", point(*at))
            .number("g(s)", *g)
            .number("g(e) + h", *f),
        PolyanyaEvent::LinkCrossed { link, to, g, .. } => LitLine::new(6)
            .with("link", link.to_string())
            .with("e", point(*to))
            .number("g(e)", *g),
        PolyanyaEvent::GoalReached { length } => LitLine::new(5).number("length", *length),
        PolyanyaEvent::Exhausted { .. } => LitLine::new(14),
        PolyanyaEvent::OverBudget => LitLine::new(15),
    }
}
