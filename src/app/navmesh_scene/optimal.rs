//! The navmesh view's third phase: Polyanya's intervals and roots as the search grows, its open
//! list, and the comparison of the shortest path with the corridor path.

use super::NavmeshScene;
use crate::app::camera::View;
use egui::{Color32, Pos2, Shape, Stroke, Ui};

/// The shortest path and the intervals of Polyanya's open nodes.
pub(super) const OPTIMAL: Color32 = Color32::from_rgb(80, 220, 240);
/// Intervals already taken from the open list (lighter than the mesh's edges).
const TAKEN: Color32 = Color32::from_rgb(196, 200, 214);
/// The corridor's triangles the shortest path does not enter.
const OFF_ROUTE: Color32 = Color32::from_rgba_premultiplied(70, 16, 48, 80);
/// The triangle where the corridor left the shortest route.
const DIVERGED: Color32 = Color32::from_rgb(240, 80, 220);

/// `top` (premultiplied) painted over the opaque `under`.
fn over(top: Color32, under: Color32) -> Color32 {
    let keep = 1.0 - f32::from(top.a()) / 255.0;
    let channel = |t: u8, u: u8| (f32::from(t) + f32::from(u) * keep).round().min(255.0) as u8;
    Color32::from_rgb(
        channel(top.r(), under.r()),
        channel(top.g(), under.g()),
        channel(top.b(), under.b()),
    )
}

/// How many open nodes the list shows.
const OPEN_SHOWN: usize = 12;

/// When the corridor path and the shortest path cross different links, a sentence saying so.
fn links_differ(
    corridor: &[crate::navmesh::links::PathSegment],
    shortest: &[crate::navmesh::links::PathSegment],
) -> Option<String> {
    let crossed = |segments: &[crate::navmesh::links::PathSegment]| -> Vec<usize> {
        segments.iter().filter_map(|s| Some(s.link?.link)).collect()
    };
    let (a, b) = (crossed(corridor), crossed(shortest));
    if a == b {
        return None;
    }
    let words = |links: &[usize]| match links {
        [] => "no link".to_string(),
        [one] => format!("link {one}"),
        many => format!(
            "links {}",
            many.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Some(format!(
        "The two differ in their links: the corridor path crosses {}, the shortest path {}.          A* chose its corridor by the step-cost model's estimates, which price the walk to a          link and on from it otherwise than the funnel walks it.",
        words(&a),
        words(&b)
    ))
}

impl NavmeshScene {
    /// True once the shown step is past the end of Polyanya's search.
    fn optimal_done(&self) -> bool {
        self.query.replay.in_optimal_phase() && self.query.replay.optimal.done
    }

    /// The comparison, above the steps: both lengths, the gap and why, once Polyanya's search
    /// has been replayed to its end.
    pub(super) fn optimal_ui(&self, ui: &mut Ui) {
        if !self.settings.optimal {
            return;
        }
        let Some(optimal) = &self.query.timeline.optimal else {
            return;
        };
        ui.strong("Shortest path");
        if self.query.replay.in_optimal_phase() && !self.query.replay.optimal.done {
            ui.label(
                "Polyanya is searching: intervals still open (cyan) and taken (light grey), the node \
                 just taken (white) with dashed lines from its root, and the corners the path may \
                 turn at (dots).",
            );
            ui.separator();
            return;
        }
        if !self.optimal_done() {
            ui.label("Step on past the funnel (Page Down) to watch Polyanya search for it.");
            ui.separator();
            return;
        }
        match &self.query.gap {
            Some(gap) => {
                egui::Grid::new("gap_numbers")
                    .num_columns(2)
                    .show(ui, |ui| {
                        ui.label("Length, corridor path");
                        ui.label(format!("{:.3}", gap.corridor_length));
                        ui.end_row();
                        ui.label("Length, shortest path");
                        ui.label(format!("{:.3}", gap.optimal_length));
                        ui.end_row();
                        ui.label("Gap");
                        ui.label(format!("{:.2} % longer", 100.0 * gap.excess()));
                        ui.end_row();
                        if let Some((corridor, shortest)) = gap.area_costs {
                            ui.label("Cost, corridor path")
                                .on_hover_text("Its length with each stretch × its area's cost");
                            ui.label(format!("{corridor:.3}"));
                            ui.end_row();
                            ui.label("Cost, shortest path").on_hover_text(
                                "Polyanya finds the shortest path by distance and ignores area \
                                 costs: this is what it costs under them",
                            );
                            ui.label(format!("{shortest:.3}"));
                            ui.end_row();
                        }
                        ui.label("Search nodes");
                        ui.label(optimal.nodes_pushed.to_string());
                        ui.end_row();
                    });
                ui.label(gap.explain(self.settings.cost));
                if let Some(path) = &self.query.timeline.path
                    && let Some(words) = links_differ(&path.segments, &optimal.segments)
                {
                    ui.label(words);
                }
            }
            None if optimal.over_budget => {
                ui.label("Polyanya stopped at its node budget without reaching the goal.");
            }
            None if optimal.connected => {
                ui.label(
                    "Polyanya found no path, though the start and the goal are joined by \
                     triangles sharing edges (A*'s corridor is one way): the mesh folds over \
                     itself or has sliver faces there, which a shortest-path search in the plane \
                     cannot follow. Level geometry read whole has its walls and ceilings as \
                     faces: Walkable only (left panel) keeps its floors.",
                );
            }
            None => {
                ui.label("There is no path: the goal is on another island.");
            }
        }
        if self.query.timeline.optimal_steps_cut {
            ui.weak(format!(
                "Only the first {} steps are kept; the answer is the whole search's.",
                crate::words::thousands(crate::navmesh::timeline::MAX_OPTIMAL_STEPS)
            ));
        }
        ui.separator();
    }

    /// Polyanya's open list at the shown step, lowest f first.
    pub(super) fn optimal_open_list_ui(&self, ui: &mut Ui) {
        let open = self.query.replay.optimal.open_list(OPEN_SHOWN);
        let total = self
            .query
            .replay
            .optimal
            .nodes
            .iter()
            .filter(|n| n.open)
            .count();
        ui.label(format!(
            "Open list: {} (root, interval) nodes, lowest f first",
            total
        ))
        .on_hover_text(
            "A node is a root (the start, or a corner the path turns at) and an interval of an edge \
             it sees; g is the length to the root, h the shortest way from the root through the \
             interval to the goal",
        );
        egui::Grid::new("optimal_open")
            .num_columns(4)
            .striped(true)
            .show(ui, |ui| {
                for heading in ["node", "f", "g", "h"] {
                    ui.strong(heading);
                }
                ui.end_row();
                for (id, node) in open {
                    ui.label(format!("{id} into {}", node.into));
                    ui.monospace(format!("{:.2}", node.f()));
                    ui.monospace(format!("{:.2}", node.g));
                    ui.monospace(format!("{:.2}", node.h));
                    ui.end_row();
                }
            });
    }

    /// The legend's rows for Polyanya's phase: its intervals and roots while it searches; the
    /// shortest path, the corridor's triangles off it and where A\* left it at its end.
    pub(super) fn optimal_legend(&self) -> Vec<crate::app::legend::LegendRow> {
        use crate::app::legend::LegendRow;
        let mut rows = Vec::new();
        let r = &self.query.replay.optimal;
        if r.done {
            if self
                .query
                .timeline
                .optimal
                .as_ref()
                .is_some_and(|o| o.is_found())
            {
                rows.push(LegendRow::line(OPTIMAL, 3.5, "shortest path (Polyanya)").dashed());
            }
            if let Some(gap) = &self.query.gap {
                if !gap.off_route.is_empty() {
                    rows.push(LegendRow::fill(
                        over(OFF_ROUTE, super::canvas::CORRIDOR),
                        "corridor off the shortest route",
                    ));
                }
                if gap.divergence.is_some() && gap.excess() > 1e-9 {
                    rows.push(LegendRow::line(
                        DIVERGED,
                        3.0,
                        "where A* left the shortest route",
                    ));
                }
            }
        } else {
            rows.push(LegendRow::line(OPTIMAL, 2.5, "interval still open"));
            rows.push(LegendRow::line(TAKEN, 2.0, "interval taken"));
            rows.push(LegendRow::line(
                Color32::WHITE,
                4.0,
                "node just taken, from its root",
            ));
            rows.push(LegendRow::fill(
                OPTIMAL,
                "root: a corner the path may turn at",
            ));
        }
        rows
    }

    /// Polyanya's search on the canvas: while it runs, the intervals (open bright, taken grey)
    /// with the current node's cone from its root, and the roots; at its end, the corridor's
    /// off-route triangles shaded, the triangle where it left the shortest route outlined, and
    /// the shortest path over the corridor path.
    pub(super) fn paint_optimal(&self, painter: &egui::Painter, view: View) {
        if !self.query.replay.in_optimal_phase() {
            return;
        }
        let s = |p: crate::geom::Vec2| view.screen_from_world(p);
        let r = &self.query.replay.optimal;
        if r.done
            && let Some(gap) = &self.query.gap
        {
            let mut shade = egui::Mesh::default();
            for &t in &gap.off_route {
                if t < self.view.mesh().triangles().len() {
                    let i = shade.vertices.len() as u32;
                    for p in self.view.mesh().corners(t) {
                        shade.colored_vertex(s(p), OFF_ROUTE);
                    }
                    shade.add_triangle(i, i + 1, i + 2);
                }
            }
            painter.add(Shape::mesh(shade));
            if let Some(d) = gap.divergence.filter(|_| gap.excess() > 1e-9)
                && d.triangle < self.view.mesh().triangles().len()
            {
                let corners: Vec<Pos2> = self.view.mesh().corners(d.triangle).map(s).to_vec();
                painter.add(Shape::closed_line(corners, Stroke::new(3.0, DIVERGED)));
            }
        }
        if !r.done {
            let mut lines = egui::Mesh::default();
            for (k, node) in r.nodes.iter().enumerate() {
                let (width, colour) = if Some(k) == r.current {
                    (4.0, Color32::WHITE)
                } else if node.open {
                    (2.5, OPTIMAL)
                } else {
                    (2.0, TAKEN)
                };
                super::canvas::push_segment(&mut lines, s(node.right), s(node.left), width, colour);
            }
            painter.add(Shape::mesh(lines));
            if let Some(node) = r.current.and_then(|k| r.nodes.get(k)) {
                let cone = Stroke::new(1.5, Color32::from_white_alpha(160));
                crate::app::clipped::dashed_line(
                    painter,
                    &[s(node.root), s(node.right)],
                    cone,
                    5.0,
                    4.0,
                );
                crate::app::clipped::dashed_line(
                    painter,
                    &[s(node.root), s(node.left)],
                    cone,
                    5.0,
                    4.0,
                );
                painter.circle_stroke(s(node.root), 7.0, Stroke::new(2.0, Color32::WHITE));
            }
        }
        for &root in &r.roots {
            painter.circle_filled(s(root), 4.0, OPTIMAL);
        }
        if r.done
            && let Some(optimal) = &self.query.timeline.optimal
            && optimal.is_found()
        {
            let points: Vec<Pos2> = optimal.waypoints.iter().map(|&p| s(p)).collect();
            for piece in super::links::path_pieces(&points, &optimal.segments) {
                crate::app::clipped::dashed_line(
                    painter,
                    &piece,
                    Stroke::new(3.5, OPTIMAL),
                    10.0,
                    5.0,
                );
            }
            for p in points {
                painter.circle_filled(p, 4.0, OPTIMAL);
            }
        }
    }
}
