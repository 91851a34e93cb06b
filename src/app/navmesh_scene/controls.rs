//! The navmesh scene's panels: on the left the file buttons, the plane, the cost model and
//! heuristic weight, what to draw, the walk's options and the query's numbers with the open
//! list's chart; on the right the Steps and Diagnostics tabs.

use super::{NavmeshScene, SideTab};
use crate::app::commands::UiCommand;
use crate::app::scene::Shared;
use crate::geom::Vec2;
use crate::navmesh::{CostModel, PathStatus, Plane};
use egui::Ui;

impl NavmeshScene {
    /// The left panel.
    pub(super) fn controls_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        ui.horizontal(|ui| {
            shared.button(ui, UiCommand::OpenMesh);
            shared.button(ui, UiCommand::ReloadMesh);
            if UiCommand::FitView.panel_button(ui, true) {
                self.fit_view();
            }
        });
        ui.horizontal(|ui| {
            // The plane the mesh was read in: a Polyanya mesh is always XY, and a file flat in
            // the plane asked for is read in the other.
            let shown = self.view.mesh().plane();
            let polyanya = matches!(&self.origin.source, super::MeshSource::File(path)
                if crate::navmesh::polyanya::is_polyanya_path(path));
            let label = ui.label("Plane");
            if self.view.mesh().raw().plane_from_file {
                label.on_hover_text(format!(
                    "Read in {}: the file is flat in {}",
                    shown.name().to_uppercase(),
                    shown.other().name().to_uppercase()
                ));
            }
            let mut plane = shown;
            ui.add_enabled_ui(!polyanya, |ui| {
                ui.radio_value(&mut plane, Plane::Xz, "XZ")
                    .on_hover_text("Y-up 3D files: the ground is XZ")
                    .on_disabled_hover_text("A Polyanya mesh is always in the XY plane");
                ui.radio_value(&mut plane, Plane::Xy, "XY")
                    .on_hover_text("Meshes authored in 2D")
                    .on_disabled_hover_text("A Polyanya mesh is always in the XY plane");
            });
            if plane != shown {
                self.switch_plane(plane, shared);
            }
        });
        let shaped = self.settings.max_slope.is_some() || self.settings.agent_radius.is_some();
        let reread = egui::CollapsingHeader::new("Walkable area")
            .id_salt("walkable_area")
            .default_open(shaped)
            .show(ui, |ui| {
                self.walkable_controls_ui(ui) | self.agent_radius_controls_ui(ui)
            })
            .body_returned
            .unwrap_or(false);
        if reread {
            shared.ask(UiCommand::ReloadMesh);
        }
        ui.separator();
        self.edit_controls_ui(ui, shared);
        ui.separator();
        self.query_controls_ui(ui);
        self.area_costs_ui(ui);
        ui.separator();
        self.stats_ui(ui);
    }

    /// The right panel: the recorded steps with the open list above them, or the diagnostics.
    pub(super) fn side_panel_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.screen.side_tab, SideTab::Steps, "Steps")
                .on_hover_text("The recorded steps of A* and the funnel");
            ui.selectable_value(
                &mut self.screen.side_tab,
                SideTab::Diagnostics,
                "Diagnostics",
            )
            .on_hover_text("What is wrong with this mesh: islands, seams, T-junctions…");
            ui.selectable_value(&mut self.screen.side_tab, SideTab::Crowd, "Crowd")
                .on_hover_text(
                    "Many agents on this mesh keeping clear of each other (ORCA), step by step",
                );
        });
        ui.separator();
        match self.screen.side_tab {
            SideTab::Steps => {
                self.optimal_ui(ui);
                self.link_verdicts_ui(ui);
                let mut clicked = None;
                crate::app::playback::pseudocode_area(ui, |ui| {
                    clicked = self.pseudocode_ui(ui);
                });
                crate::app::playback::above_steps(ui, |ui| {
                    if self.query.replay.in_optimal_phase() {
                        self.optimal_open_list_ui(ui);
                    } else {
                        self.frontier_ui(ui);
                    }
                });
                if let Some(line) = clicked {
                    self.go_to_line(line);
                }
                ui.separator();
                self.event_log_ui(ui);
            }
            SideTab::Diagnostics => {
                let measured = egui::CollapsingHeader::new("Corridor paths against the shortest")
                    .id_salt("corridor_quality")
                    .default_open(true)
                    .show(ui, |ui| {
                        let model = (
                            self.settings.cost,
                            self.settings.heuristic_weight,
                            self.settings.display.fit_radius,
                        );
                        self.diagnostics.quality.ui(ui, self.view.mesh(), model)
                    });
                if let Some(super::quality::QualityAction::ShowPair { from, to }) =
                    measured.body_returned.flatten()
                {
                    self.show_pair(from, to);
                }
                ui.separator();
                self.diagnostics_ui(ui, shared);
            }
            SideTab::Crowd => {
                egui::ScrollArea::vertical()
                    .id_salt("crowd_tab")
                    .show(ui, |ui| self.crowd_ui(ui, shared));
            }
        }
    }

    /// Reads mesh files in `plane` from now on, and the mesh's file again in it — but not
    /// over unsaved edits, which reading the file again would lose: the status bar says so
    /// and the plane stays.
    fn switch_plane(&mut self, plane: Plane, shared: &mut Shared) {
        let from_file = matches!(self.origin.source, super::MeshSource::File(_));
        if from_file && self.has_unsaved_edits() {
            self.screen.pending_notice = Some(format!(
                "Not read in the {} plane: the mesh has unsaved edits, which reading its file \
                 again would lose. Save them (File menu, Save mesh as…) or undo them first.",
                plane.name().to_uppercase()
            ));
            return;
        }
        self.settings.plane = plane;
        if from_file {
            self.screen.pending_notice = Some(format!(
                "Read again in the {} plane (the undo history starts over)",
                plane.name().to_uppercase()
            ));
            shared.ask(UiCommand::ReloadMesh);
        }
    }

    /// The walkable filter: on or off, and its slope. Returns true when the mesh should be
    /// read again.
    fn walkable_controls_ui(&mut self, ui: &mut Ui) -> bool {
        use crate::navmesh::walkable::SUGGESTED_MAX_SLOPE;
        let before = self.settings.max_slope;
        let mut on = before.is_some();
        let mut reload = false;
        ui.horizontal(|ui| {
            reload |= ui
                .checkbox(&mut on, "Walkable only")
                .on_hover_text(
                    "Keep only the faces within the slope of up, by their winding (walls, \
                     ceilings and undersides of level geometry left out, drawn faintly); a file \
                     wound the other way is read flipped",
                )
                .changed();
            let mut slope = before.unwrap_or(SUGGESTED_MAX_SLOPE);
            let response = ui
                .add_enabled(
                    on,
                    egui::Slider::new(&mut slope, 0.0..=89.0)
                        .suffix("°")
                        .fixed_decimals(0),
                )
                .on_hover_text("The steepest slope walked on, in degrees from up (Recast: 45°)");
            // Read again once a drag ends, not at every step of it.
            reload |= response.drag_stopped() || (response.changed() && !response.dragged());
            self.settings.max_slope = on.then_some(slope);
        });
        reload
    }

    /// The agent's radius the mesh is shrunk by: on or off, and how much. Returns true when
    /// the mesh should be read again.
    fn agent_radius_controls_ui(&mut self, ui: &mut Ui) -> bool {
        let before = self.settings.agent_radius;
        let mut on = before.is_some();
        let mut reload = false;
        let size = {
            let b = self.view.mesh().bounds();
            (b.max.x - b.min.x).max(b.max.y - b.min.y).max(1e-6)
        };
        ui.horizontal(|ui| {
            let checkbox = ui.checkbox(&mut on, "Shrink by a radius").on_hover_text(
                "Shrink the mesh so that an agent's centre keeps this far from every wall \
                     (the walls as they were drawn faintly); passages too narrow close and are \
                     marked. Without shrinking, the Agent radius under the display options keeps \
                     a radius at query time, for any radius on the one mesh",
            );
            reload |= checkbox.changed();
            // A hundredth of the mesh, to two significant digits: a number a person reads.
            let mut radius = before.unwrap_or_else(|| {
                let rough = size / 100.0;
                let unit = 10f64.powi(rough.log10().floor() as i32 - 1);
                (rough / unit).round() * unit
            });
            let response = ui
                .add_enabled(
                    on,
                    egui::DragValue::new(&mut radius)
                        .range(size * 1e-4..=size * 0.25)
                        .speed(size / 1000.0)
                        .max_decimals(3),
                )
                .labelled_by(checkbox.id);
            reload |= response.drag_stopped() || (response.changed() && !response.dragged());
            self.settings.agent_radius = on.then_some(radius);
        });
        if let Some(summary) = &self.view.mesh().raw().shrunk {
            let mut text = format!(
                "{:.1} % of the area left",
                100.0 * self.view.summary().area / summary.area_before.max(f64::MIN_POSITIVE)
            );
            if !summary.closed.is_empty() {
                text.push_str(&format!(
                    "; {} closed (marked ×)",
                    crate::words::count(summary.closed.len(), "passage")
                ));
            }
            if !summary.stacked.is_empty() {
                text.push_str(&format!(
                    "; {} with stacked floors shrunk floor by floor",
                    crate::words::count(summary.stacked.len(), "island")
                ));
            }
            ui.label(egui::RichText::new(text).weak());
        }
        reload
    }

    /// Opens a measured pair: start and goal there, the shortest path searched too, the
    /// comparison shown.
    pub fn show_pair(&mut self, from: Vec2, to: Vec2) {
        self.settings.optimal = true;
        self.query.start = from;
        self.query.goal = to;
        self.query.floors = super::floors::FloorChoice::default();
        // The end of the new timeline: the comparison.
        self.query.playback.cursor = usize::MAX;
        self.query.playback.playing = false;
        self.rerun();
        self.screen.side_tab = SideTab::Steps;
    }

    /// The findings part of the Diagnostics tab.
    fn diagnostics_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        use super::diagnostics::DiagnosticsAction;
        match self.diagnostics.ui(ui, self.view.mesh()) {
            Some(DiagnosticsAction::Focus { at, extent }) => self.focus(at, extent),
            Some(DiagnosticsAction::Repair) => self.repair(shared.notice, shared.banner),
            Some(DiagnosticsAction::SaveRepaired) => shared.ask(UiCommand::SaveMeshAs),
            None => {}
        }
    }

    /// Cost model, heuristic weight, display toggles and the walk's options.
    fn query_controls_ui(&mut self, ui: &mut Ui) {
        let mut changed = false;
        ui.label("Step cost");
        changed |= ui
            .radio_value(
                &mut self.settings.cost,
                CostModel::Centroid,
                "Centroid to centroid",
            )
            .on_hover_text(
                "As in “A* on a navigation mesh”: A* measures steps between triangle centres",
            )
            .changed();
        changed |= ui
            .radio_value(
                &mut self.settings.cost,
                CostModel::Midpoint,
                "Edge midpoints",
            )
            .on_hover_text(
                "From the start through the midpoints of the edges crossed, the shortest such \
                 route (Detour measures steps between midpoints too, but keeps one per polygon, \
                 so it can choose another corridor)",
            )
            .changed();
        changed |= ui
            .radio_value(
                &mut self.settings.cost,
                CostModel::Straight,
                "Straight for the goal",
            )
            .on_hover_text(
                "Each edge crossed where the line from the last crossing to the goal crosses it \
                 (or at its end nearer that line): close to the shortest path on open ground, \
                 fooled by mazes",
            )
            .changed();
        changed |= ui
            .add(
                egui::Slider::new(&mut self.settings.heuristic_weight, 0.0..=3.0)
                    .text("Heuristic weight"),
            )
            .on_hover_text("1 = A*, 0 = Dijkstra, above 1 = greedier (not optimal)")
            .changed();
        changed |= ui
            .checkbox(&mut self.settings.optimal, "Shortest path too (Polyanya)")
            .on_hover_text(
                "After A* and the funnel, search for the true shortest path (Polyanya) as a third \
                 phase, then draw both paths and explain the gap",
            )
            .changed();
        if changed {
            self.rerun();
        }
        ui.separator();
        let d = &mut self.settings.display;
        ui.checkbox(&mut d.edges, "Edges")
            .on_hover_text("Draw every edge; borders and non-manifold edges are always drawn");
        ui.horizontal(|ui| {
            ui.label("Numbers");
            if ui
                .radio(d.triangle_ids, "ids")
                .on_hover_text("Label every triangle with its id, as the steps name them")
                .clicked()
            {
                (d.visit_numbers, d.triangle_ids) = (false, true);
            }
            if ui
                .radio(d.visit_numbers && !d.triangle_ids, "visit order")
                .on_hover_text(
                    "Label expanded triangles #1, #2, … in the order A* expanded them (the \
                     steps name triangles by id; a triangle's tooltip gives both)",
                )
                .clicked()
            {
                (d.visit_numbers, d.triangle_ids) = (true, false);
            }
            if ui
                .radio(!d.visit_numbers && !d.triangle_ids, "none")
                .on_hover_text("No numbers on the triangles")
                .clicked()
            {
                (d.visit_numbers, d.triangle_ids) = (false, false);
            }
        });
        ui.checkbox(&mut d.parent_arrows, "Parent arrows")
            .on_hover_text("Arrows from each reached triangle to the one it was reached from");
        ui.checkbox(&mut d.portals, "Portals")
            .on_hover_text("The corridor's portals, left end green, right end red");
        let heights = self.view.mesh().height_span();
        ui.add_enabled(
            heights[1] > heights[0],
            egui::Checkbox::new(&mut d.height_colours, "Colour by height"),
        )
        .on_hover_text(
            "Fill the mesh by height, low blue to high yellow (the legend gives the heights); where floors overlap, the higher is drawn on top",
        )
        .on_disabled_hover_text("The mesh is flat: every vertex at one height");
        if d.height_colours {
            d.clearance_colours = false;
        }
        ui.checkbox(&mut d.legend, "Legend")
            .on_hover_text("What the colours and marks on the canvas mean, at its bottom left");
        self.clearance_ui(ui);
        ui.separator();
        self.walk_controls_ui(ui);
    }

    /// Walk the path (W): an agent goes corner to corner, taking the next corner within the
    /// corner radius and turning at a bounded rate, as the NPC of “A* on a navigation mesh” does.
    fn walk_controls_ui(&mut self, ui: &mut Ui) {
        let can_walk = self
            .query
            .timeline
            .path
            .as_ref()
            .is_some_and(|p| p.waypoints.len() >= 2);
        let label = if self.walk.as_ref().is_some_and(|w| w.playing) {
            "Stop walking"
        } else {
            "Walk the path"
        };
        if ui
            .add_enabled(can_walk, egui::Button::new(label))
            .on_hover_text("An agent walks the path corner to corner, turning smoothly (W)")
            .on_disabled_hover_text("No path to walk")
            .clicked()
        {
            self.toggle_walk();
        }
        let w = &mut self.settings.walk;
        let mut changed = false;
        changed |= ui
            .add(egui::Slider::new(&mut w.corner_radius, 0.0..=2.0).text("Corner radius"))
            .on_hover_text("The next corner is taken once the agent is this close (0.5 in “A* on a navigation mesh”); larger rounds corners wider")
            .changed();
        changed |= ui
            .add(
                egui::Slider::new(&mut w.speed, 0.5..=6.0)
                    .suffix("/s")
                    .text("Walk speed"),
            )
            .on_hover_text("Units per second (metres, for a mesh modelled in metres)")
            .changed();
        changed |= ui
            .add(
                egui::Slider::new(&mut w.turn_rate, 1.0..=12.0)
                    .suffix(" rad/s")
                    .text("Turn rate"),
            )
            .on_hover_text("Radians per second (4 is about 230 degrees a second): lower turns wider and cuts corners more")
            .changed();
        if changed && self.walk.is_some() {
            self.start_walk();
        }
    }

    /// Numbers about the mesh and the current query, and the open-list chart.
    fn stats_ui(&mut self, ui: &mut Ui) {
        let s = self.view.summary();
        egui::Grid::new("mesh_stats").num_columns(2).show(ui, |ui| {
            ui.label("Triangles");
            ui.label(s.triangles.to_string());
            ui.end_row();
            ui.label("Islands");
            ui.label(s.islands.to_string());
            ui.end_row();
            ui.label("Non-manifold edges");
            ui.label(s.non_manifold_edges.to_string());
            ui.end_row();
            if let Some(path) = &self.query.timeline.path {
                ui.label("Status");
                ui.label(match path.status {
                    PathStatus::Found => "found",
                    PathStatus::Snapped => "found (snapped)",
                    PathStatus::Unreachable => "unreachable",
                });
                ui.end_row();
                ui.label("Triangles expanded");
                ui.label(path.expanded.to_string());
                ui.end_row();
                ui.label("Corridor");
                ui.label(format!("{} triangles", path.corridor.len()));
                ui.end_row();
                ui.label("Path length");
                ui.label(if path.length.is_finite() {
                    format!("{:.3}", path.length)
                } else {
                    "—".to_string()
                });
                ui.end_row();
                ui.label("Straight line");
                ui.label(format!("{:.3}", path.start.point.distance(path.goal.point)));
                ui.end_row();
                if path.crosses_links() {
                    ui.label("Path cost").on_hover_text(
                        "The length of its walks plus what the links it crosses cost",
                    );
                    ui.label(format!("{:.3}", path.cost));
                    ui.end_row();
                }
            }
        });
        if self.is_querying() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Searching…").on_hover_text(
                    "Large meshes are searched in the background; the last answer stays until the new one is ready",
                );
            });
        }
        if let Some(path) = &self.query.timeline.path
            && ui
                .add_enabled(!self.is_querying(), egui::Button::new("Copy path").small())
                .on_hover_text(
                    "Copy the answer as `navlab path --json` prints it: waypoints (x, z), corridor, length",
                )
                .clicked()
        {
            ui.ctx().copy_text(path.to_json().to_string());
        }
        ui.add_space(6.0);
        ui.label("Open list size per A* step");
        let columns = (ui.available_width() * ui.ctx().pixels_per_point()).max(1.0) as usize;
        // Worked out again only for other sizes or another width.
        let sizes = self.query.timeline.open_sizes_shared();
        let points = match &self.screen.open_chart {
            Some((at, points))
                if at.columns == columns && std::sync::Arc::ptr_eq(&at.sizes, sizes) =>
            {
                points.clone()
            }
            _ => {
                let points = crate::app::chart_marks::decimated_series(sizes, columns);
                let key = OpenChartKey {
                    columns,
                    sizes: sizes.clone(),
                };
                self.screen.open_chart = Some((key, points.clone()));
                points
            }
        };
        let cursor = self
            .query
            .playback
            .cursor
            .min(self.query.timeline.search_steps()) as f64;
        use crate::app::chart_marks::{MARK_SPACING, round_marks};
        egui_plot::Plot::new("open_list_plot")
            .height(120.0)
            .allow_scroll(false)
            .allow_zoom(false)
            .allow_drag(false)
            .show_x(true)
            .grid_spacing(MARK_SPACING..=300.0)
            .x_grid_spacer(|input| round_marks(&input, 80.0))
            .y_grid_spacer(|input| round_marks(&input, 30.0))
            .show(ui, |plot| {
                plot.line(egui_plot::Line::new("open list", points));
                plot.vline(egui_plot::VLine::new("step", cursor));
            });
    }
}

impl NavmeshScene {
    /// Why the shortest path takes or leaves each link near the query, a sentence each
    /// (worked out once per mesh revision, start and goal; not on meshes of more than
    /// 50,000 triangles, where each sentence is several exact searches).
    pub(super) fn link_verdicts_ui(&mut self, ui: &mut Ui) {
        const MOST_TRIANGLES: usize = 50_000;
        let mesh = self.view.mesh();
        let Some(path) = &self.query.timeline.path else {
            return;
        };
        if mesh.links().is_empty() || mesh.triangles().len() > MOST_TRIANGLES {
            return;
        }
        let (start, goal) = (path.start, path.goal);
        let key = (
            self.edit.revision,
            [
                start.point.x.to_bits(),
                start.point.y.to_bits(),
                goal.point.x.to_bits(),
                goal.point.y.to_bits(),
            ],
        );
        let sentences = match &self.screen.link_verdicts {
            Some((at, sentences)) if *at == key => sentences.clone(),
            _ => {
                let sentences: Vec<String> =
                    crate::navmesh::link_choice::weigh_links(mesh, start, goal)
                        .iter()
                        .map(|v| v.sentence())
                        .collect();
                self.screen.link_verdicts = Some((key, sentences.clone()));
                sentences
            }
        };
        if sentences.is_empty() {
            return;
        }
        ui.strong("Links").on_hover_text(
            "Why the shortest path (Polyanya) takes or leaves each link near the query: its cost against the way round",
        );
        for sentence in sentences {
            ui.label(egui::RichText::new(sentence).small());
        }
        ui.separator();
    }
}

/// What the open-list chart's points were worked out for: a width in pixels and the sizes
/// (held, so that no other sizes can be at the same address while the key is kept).
#[derive(Debug, Clone)]
pub(super) struct OpenChartKey {
    columns: usize,
    sizes: std::sync::Arc<[u32]>,
}
