//! The navmesh canvas: clicks and drags that place the start and goal or pan, the wheel's
//! zoom, and the mesh painted with the search and the funnel replayed over it.

use super::{Drag, NavmeshScene};
use crate::app::camera::{View, paint_tag};
use crate::geom::Vec2;
use crate::navmesh::{NavMesh, TriId};
use crate::search::NodeStatus;
use egui::{Color32, Pos2, Sense, Shape, Stroke, Ui, vec2};

impl NavmeshScene {
    /// The canvas: paints the mesh and the replayed state, and handles clicks, drags and zoom.
    pub fn canvas_ui(&mut self, ui: &mut Ui) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Navmesh canvas"));
        let rect = response.rect;
        self.screen.canvas_rect = Some(rect);
        let camera = self
            .screen
            .camera
            .for_canvas(self.view.mesh().bounds(), rect);
        let view = View { camera, rect };
        painter.rect_filled(rect, 0.0, Color32::from_rgb(24, 26, 31));

        self.handle_input(ui, &response, view);
        let view = View {
            camera: self.screen.camera.get().unwrap_or(camera),
            rect,
        };
        self.paint(&painter, view);
        self.paint_edits(&painter, view, response.hover_pos());
        self.paint_links(&painter, view, response.hover_pos());
        self.paint_limiting_portal(&painter, view);
        let caption = crate::app::camera::paint_caption(&painter, rect, self.current_explanation());
        self.screen.legend_rect = if self.settings.display.legend {
            self.paint_legend(&painter, view, caption)
        } else {
            None
        };

        if let Some(pointer) = response.hover_pos() {
            let world = view.world_from_screen(pointer);
            self.screen.hover_world = Some(world);
            // A link, or where floors overlap, the topmost one's triangle (the one a click
            // picks).
            if let Some(text) = self.link_tooltip(pointer, view) {
                let _ = response.on_hover_text_at_pointer(text);
            } else if let Some(top) = self.view.mesh().floors_at(world).first() {
                let _ = response.on_hover_ui_at_pointer(|ui| {
                    self.triangle_tooltip_ui(ui, top.triangle);
                });
            }
        } else {
            self.screen.hover_world = None;
        }
    }

    fn triangle_tooltip_ui(&self, ui: &mut Ui, t: TriId) {
        // Short lines, each one line: the tooltip grows to fit them rather than wrapping them to
        // the width it had for the last triangle it showed.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        let tri = &self.view.mesh().triangles()[t];
        ui.label(format!("triangle {t}"));
        ui.label(format!("centroid {}", tri.centroid));
        let floors = self.hover_floors();
        if let Some(top) = floors.first() {
            ui.label(format!("height {:.3} at the pointer", top.height));
        }
        if floors.len() > 1 {
            let below: Vec<String> = floors[1..]
                .iter()
                .map(|f| format!("{:.3}", f.height))
                .collect();
            ui.label(format!(
                "{} floors here: this, the topmost; below at height {}",
                floors.len(),
                below.join(", ")
            ));
        }
        ui.label(format!("area {:.3}", tri.area));
        if let Some(words) = self.clearance_words(t) {
            ui.label(words);
        }
        let area = self.view.mesh().area_type(t);
        let name = self
            .view
            .mesh()
            .area_names()
            .get(usize::from(area))
            .map_or("ground", String::as_str);
        ui.label(format!(
            "{name}: a step across costs its length × {}",
            crate::words::short_number(self.edit.costs.of(area))
        ));
        if let Some(excess) = self.diagnostics.quality.heat(t) {
            ui.label(format!(
                "worst detour of the pairs measured from here: {:.2} %",
                100.0 * excess
            ));
        }
        let r = &self.query.replay.search;
        if let Some((g, h)) = r.costs(t) {
            ui.label(format!("g {g:.3}   h {h:.3}   f {:.3}", g + h));
            match r.parent(t) {
                Some(p) => ui.label(format!("parent: triangle {p}")),
                None => ui.label("parent: none (start)"),
            };
            let status = match r.status(t) {
                NodeStatus::Open => "open (frontier)".to_string(),
                NodeStatus::Closed => {
                    format!("closed, visit #{}", r.visit_number(t).unwrap_or(0))
                }
                _ => "unseen".to_string(),
            };
            ui.label(status);
        }
        if !self.query.timeline.is_empty() {
            crate::app::playback::expansion_tooltip_ui(
                ui,
                self.query.timeline.expansion_steps(),
                t,
                self.query.playback.cursor,
                false,
            );
        }
    }
    fn handle_input(&mut self, ui: &Ui, response: &egui::Response, view: View) {
        if response.dragged_by(egui::PointerButton::Middle) {
            self.screen.camera.pan(response.drag_delta());
        }
        if self.edit_input(ui, response, view) {
            if response.secondary_clicked()
                && let Some(pos) = response.interact_pointer_pos()
            {
                self.set_goal(view.world_from_screen(pos));
            }
            self.screen.camera.zoom_with_wheel(ui, response);
            return;
        }
        let tolerance = 8.0 / view.camera.scale;
        self.edit_keys(
            ui,
            response.hover_pos().map(|p| view.world_from_screen(p)),
            tolerance,
        );
        let rect = view.rect;
        let start_screen = view.screen_from_world(self.query.start);
        let goal_screen = view.screen_from_world(self.query.goal);
        let grab = 12.0;
        if response.drag_started() {
            // Where the button went down (the drag is noticed a few points later).
            let press = ui
                .input(|i| i.pointer.press_origin())
                .or(response.interact_pointer_pos())
                .unwrap_or(rect.center());
            self.screen.drag = Some(if press.distance(start_screen) < grab {
                Drag::Start
            } else if press.distance(goal_screen) < grab {
                Drag::Goal
            } else {
                Drag::Pan
            });
        }
        if response.dragged_by(egui::PointerButton::Primary) {
            match self.screen.drag {
                Some(Drag::Start) | Some(Drag::Goal) => {
                    if let Some(pos) = response.interact_pointer_pos() {
                        let world = view.world_from_screen(pos);
                        // A drag keeps the floor (and follows it up ramps and stairs).
                        let end = if self.screen.drag == Some(Drag::Start) {
                            super::floors::End::Start
                        } else {
                            super::floors::End::Goal
                        };
                        self.put_end(end, world, true);
                    }
                }
                _ => {
                    self.screen.camera.pan(response.drag_delta());
                }
            }
        }
        if response.drag_stopped() {
            self.screen.drag = None;
        }
        let shift = ui.input(|i| i.modifiers.shift);
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            let world = view.world_from_screen(pos);
            if self.crowd_click(world, false) {
                // An agent of the crowd placed or selected.
            } else if shift {
                self.set_goal(world);
            } else {
                self.set_start(world);
            }
        }
        if response.secondary_clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            let world = view.world_from_screen(pos);
            if !self.crowd_click(world, true) {
                self.set_goal(world);
            }
        }
        self.screen.camera.zoom_with_wheel(ui, response);
    }

    /// Paints everything in one pass of batched meshes.
    pub fn paint(&self, painter: &egui::Painter, view: View) {
        let mesh = self.view.mesh();
        // Only the vertices a line is drawn to are put on screen here; the fill does its own.
        let vertices = mesh.vertices();
        let screen = |v: usize| view.screen_from_world(vertices[v]);
        let fill = self.kept_fill(view);
        let visible_tris: &[TriId] = &fill.visible;

        // Faces the walkable filter left out, faint, under the mesh.
        self.paint_dropped(painter, view);
        painter.add(Shape::Mesh(std::sync::Arc::clone(&fill.fill)));

        painter.add(Shape::Mesh(std::sync::Arc::clone(&fill.lines)));
        // The triangle A* expands next, outlined in dashes over the edges (a wall is a solid
        // white line).
        if let Some(next) = self.next_to_expand()
            && let Some(triangle) = mesh.triangles().get(next)
        {
            let mut corners: Vec<Pos2> = triangle.vertices.iter().map(|&v| screen(v)).collect();
            corners.push(corners[0]);
            crate::app::clipped::dashed_line(painter, &corners, Stroke::new(2.5, NEXT), 6.0, 4.0);
        }
        if let Some(outlines) = &fill.outlines {
            painter.add(Shape::Mesh(std::sync::Arc::clone(outlines)));
        }

        self.paint_shrunk(painter, view);
        self.paint_search_details(painter, view, visible_tris, fill.largest_area);
        self.paint_funnel(painter, view);
        self.paint_optimal(painter, view);
        self.paint_agents(painter, view);
        self.paint_crowd(painter, view);
        self.paint_markers(painter, view);
        if let Some(walk) = &self.walk {
            walk.paint(painter, view);
        }
        self.diagnostics.paint_selection(painter, view, mesh);
    }

    /// For a mesh shrunk for an agent's radius: the walls as they were, faint, and a × where a
    /// passage closed.
    fn paint_shrunk(&self, painter: &egui::Painter, view: View) {
        let Some(summary) = &self.view.mesh().raw().shrunk else {
            return;
        };
        let mut lines = egui::Mesh::default();
        let faint = Color32::from_rgba_unmultiplied(230, 230, 240, 90);
        for [a, b] in &summary.walls_before {
            push_segment(
                &mut lines,
                view.screen_from_world(*a),
                view.screen_from_world(*b),
                1.5,
                faint,
            );
        }
        painter.add(Shape::mesh(lines));
        let red = Color32::from_rgb(240, 70, 70);
        for passage in &summary.closed {
            let c = view.screen_from_world(passage.at);
            let r = 7.0;
            painter.line_segment([c + vec2(-r, -r), c + vec2(r, r)], Stroke::new(3.0, red));
            painter.line_segment([c + vec2(-r, r), c + vec2(r, -r)], Stroke::new(3.0, red));
            painter.circle_stroke(c, r + 4.0, Stroke::new(1.5, red));
        }
    }

    /// The faces the walkable filter left out (walls, ceilings), faint grey.
    fn paint_dropped(&self, painter: &egui::Painter, view: View) {
        let raw = self.view.mesh().raw();
        if raw.dropped_polygons.is_empty() {
            return;
        }
        let fill = Color32::from_rgba_unmultiplied(140, 140, 150, 28);
        let line = Color32::from_rgba_unmultiplied(160, 160, 170, 60);
        let mut shapes = egui::Mesh::default();
        let mut outline = egui::Mesh::default();
        for face in &raw.dropped_polygons {
            let ring: Vec<Pos2> = face
                .iter()
                .filter_map(|&v| raw.positions.get(v))
                .map(|&p| view.screen_from_world(raw.plane.project(p).0))
                .collect();
            if ring.len() < 3 {
                continue;
            }
            let first = shapes.vertices.len() as u32;
            for &p in &ring {
                shapes.colored_vertex(p, fill);
            }
            for k in 1..ring.len() as u32 - 1 {
                shapes.add_triangle(first, first + k, first + k + 1);
            }
            for k in 0..ring.len() {
                push_segment(&mut outline, ring[k], ring[(k + 1) % ring.len()], 1.0, line);
            }
        }
        painter.add(Shape::mesh(shapes));
        painter.add(Shape::mesh(outline));
    }

    /// Parent arrows and labels over the triangles in view (`visible`, the largest of area
    /// `largest_area`) that are big enough on screen to hold them.
    fn paint_search_details(
        &self,
        painter: &egui::Painter,
        view: View,
        visible: &[TriId],
        largest_area: f64,
    ) {
        let display = &self.settings.display;
        let tris = self.view.mesh().triangles();
        let px = |area: f64| (area.sqrt() * view.camera.scale) as f32;
        if display.parent_arrows && px(largest_area) >= 14.0 {
            let mut arrows = egui::Mesh::default();
            for &t in visible {
                let Some(p) = self
                    .query
                    .replay
                    .search
                    .parent(t)
                    .filter(|_| px(tris[t].area) >= 14.0)
                else {
                    continue;
                };
                let Some(parent) = tris.get(p) else {
                    continue;
                };
                let from = view.screen_from_world(tris[t].centroid);
                let to = view.screen_from_world(parent.centroid);
                let tip = from + (to - from) * 0.6;
                push_segment(&mut arrows, from, tip, 1.5, ARROW);
                let dir = (to - from).normalized();
                let side = vec2(-dir.y, dir.x);
                push_segment(&mut arrows, tip, tip - dir * 6.0 + side * 4.0, 1.5, ARROW);
                push_segment(&mut arrows, tip, tip - dir * 6.0 - side * 4.0, 1.5, ARROW);
            }
            painter.add(Shape::mesh(arrows));
        }
        if (display.visit_numbers || display.triangle_ids) && px(largest_area) >= 18.0 {
            let mut labels = 0;
            for &t in visible {
                if px(tris[t].area) < 18.0 {
                    continue;
                }
                // Ids as the steps name triangles; visits as ordinals, never mistaken for ids.
                let label = if display.triangle_ids {
                    t.to_string()
                } else {
                    match self.query.replay.search.visit_number(t) {
                        Some(n) if n > 0 => format!("#{n}"),
                        _ => continue,
                    }
                };
                labels += 1;
                if labels > 1500 {
                    break;
                }
                painter.text(
                    view.screen_from_world(tris[t].centroid),
                    egui::Align2::CENTER_CENTER,
                    label,
                    egui::FontId::proportional(11.0),
                    Color32::WHITE,
                );
            }
        }
    }

    fn paint_funnel(&self, painter: &egui::Painter, view: View) {
        let Some(path) = &self.query.timeline.path else {
            return;
        };
        let r = &self.query.replay.funnel;
        if r.funnel.is_none() {
            return;
        }
        let s = |p: Vec2| view.screen_from_world(p);
        if self.settings.display.portals && !r.done {
            for (i, portal) in path.portals.iter().enumerate() {
                let current = r.portal == Some(i);
                let (width, color) = if current {
                    (3.0, Color32::WHITE)
                } else {
                    (1.0, Color32::from_gray(150))
                };
                painter.line_segment([s(portal.left), s(portal.right)], Stroke::new(width, color));
                painter.circle_filled(s(portal.left), if current { 5.0 } else { 3.0 }, LEFT);
                painter.circle_filled(s(portal.right), if current { 5.0 } else { 3.0 }, RIGHT);
                // Its number at its middle, as the steps name it ("restart after portal 7"),
                // where the portal is long enough on screen to hold it.
                let (a, b) = (s(portal.left), s(portal.right));
                if current || a.distance(b) >= 16.0 {
                    painter.text(
                        a + (b - a) * 0.5,
                        egui::Align2::CENTER_CENTER,
                        i.to_string(),
                        egui::FontId::monospace(if current { 13.0 } else { 10.0 }),
                        if current {
                            Color32::WHITE
                        } else {
                            Color32::from_gray(190)
                        },
                    );
                }
                if current {
                    paint_tag(painter, s(portal.left) + vec2(6.0, -6.0), "L".into(), LEFT);
                    paint_tag(
                        painter,
                        s(portal.right) + vec2(6.0, -6.0),
                        "R".into(),
                        RIGHT,
                    );
                }
            }
        }
        if r.done {
            let (traced, segments) = path.traced();
            let points: Vec<Pos2> = traced.iter().map(|&p| s(p)).collect();
            for piece in super::links::path_pieces(&points, &segments) {
                painter.add(Shape::line(piece, Stroke::new(4.0, PATH)));
            }
            for &p in &path.waypoints {
                painter.circle_filled(s(p), 4.0, PATH);
            }
            return;
        }
        if r.corners.len() > 1 {
            let points: Vec<Pos2> = r.corners.iter().map(|&p| s(p)).collect();
            painter.add(Shape::line(points, Stroke::new(3.0, PATH)));
        }
        if let Some(f) = r.funnel {
            painter.line_segment([s(f.apex), s(f.left)], Stroke::new(2.5, LEFT));
            painter.line_segment([s(f.apex), s(f.right)], Stroke::new(2.5, RIGHT));
            painter.circle_filled(s(f.apex), 6.0, APEX);
            paint_tag(painter, s(f.apex) + vec2(8.0, 20.0), "apex".into(), APEX);
        }
    }

    fn paint_markers(&self, painter: &egui::Painter, view: View) {
        let Some(path) = &self.query.timeline.path else {
            return;
        };
        for (loc, color, label) in [(&path.start, START, "S"), (&path.goal, GOAL, "G")] {
            let at = view.screen_from_world(loc.point);
            if loc.snapped {
                let asked = view.screen_from_world(loc.requested);
                crate::app::clipped::dashed_line(
                    painter,
                    &[asked, at],
                    Stroke::new(1.5, color),
                    4.0,
                    3.0,
                );
                painter.circle_stroke(asked, 6.0, Stroke::new(1.5, color));
            }
            painter.circle_filled(at, 9.0, color);
            painter.text(
                at,
                egui::Align2::CENTER_CENTER,
                label,
                egui::FontId::proportional(12.0),
                Color32::BLACK,
            );
        }
    }
}

impl NavmeshScene {
    /// The legend's rows for what the fill and the search draw at the shown step: the islands
    /// or the heights when they colour the mesh; A\*'s triangles while it searches, then the
    /// corridor and the funnel, then the path, then Polyanya's search and the two paths; and
    /// what the numbers on the triangles are.
    pub fn search_legend(&self) -> Vec<crate::app::legend::LegendRow> {
        use crate::app::legend::LegendRow;
        let mut rows = Vec::new();
        let d = &self.settings.display;
        if self.diagnostics.colour_islands {
            /// Islands listed by colour; the rest counted.
            const LISTED: usize = 5;
            let count = self.view.mesh().island_count();
            for island in 0..count.min(LISTED) {
                let text = if island == 0 && count > 1 {
                    "island 1, the most triangles".to_string()
                } else {
                    format!("island {}", island + 1)
                };
                rows.push(LegendRow::fill(
                    super::diagnostics::island_colour(island),
                    text,
                ));
            }
            if count > LISTED {
                rows.push(LegendRow::label(
                    "…",
                    format!("{} more islands", count - LISTED),
                ));
            }
            return rows;
        }
        rows.extend(self.clearance_legend());
        rows.extend(self.agents_legend());
        if d.height_colours
            || d.clearance_colours
            || self.diagnostics.quality.heat_shown()
            || self.query.timeline.is_empty()
        {
            return rows;
        }
        let funnel = &self.query.replay.funnel;
        if self.query.replay.in_optimal_phase() {
            rows.push(LegendRow::fill(CORRIDOR, "corridor A* chose"));
            rows.push(LegendRow::line(PATH, 4.0, "corridor path (the funnel's)"));
            rows.extend(self.optimal_legend());
        } else if !self.query.replay.search.is_finished() {
            rows.push(LegendRow::fill(OPEN, "open: the frontier"));
            rows.push(LegendRow::fill(CLOSED, "closed: expanded"));
            rows.push(LegendRow::fill(CURRENT, "expanded at this step"));
            if self.next_to_expand().is_some() {
                rows.push(LegendRow::line(NEXT, 2.5, "to expand next").dashed());
            }
        } else if funnel.done {
            rows.push(LegendRow::fill(CORRIDOR, "corridor"));
            rows.extend(self.searched_legend());
            rows.push(LegendRow::line(PATH, 4.0, "path"));
        } else {
            rows.push(LegendRow::fill(CORRIDOR, "corridor"));
            rows.extend(self.searched_legend());
            if funnel.funnel.is_some() {
                rows.push(LegendRow::fill(APEX, "apex"));
                rows.push(LegendRow::line(LEFT, 2.5, "funnel's left side"));
                rows.push(LegendRow::line(RIGHT, 2.5, "funnel's right side"));
                if d.portals {
                    rows.push(LegendRow::line(
                        Color32::WHITE,
                        3.0,
                        "portal examined (numbered)",
                    ));
                }
                rows.push(LegendRow::line(PATH, 3.0, "path so far"));
            }
        }
        if d.triangle_ids {
            rows.push(LegendRow::label("12", "triangle id, as the steps name it"));
        } else if d.visit_numbers
            && self
                .query
                .replay
                .search
                .visit_number(self.start_triangle())
                .is_some()
        {
            rows.push(LegendRow::label("#3", "the 3rd triangle A* expanded"));
        }
        rows
    }

    /// Once A\* has finished, the rows of what it left outside the corridor: the triangles it
    /// expanded and those it left open (when there are any).
    fn searched_legend(&self) -> Vec<crate::app::legend::LegendRow> {
        use crate::app::legend::LegendRow;
        let statuses = self.query.replay.search.statuses();
        let mut in_corridor = vec![false; statuses.len()];
        for &t in self.query.timeline.path.iter().flat_map(|p| &p.corridor) {
            if let Some(flag) = in_corridor.get_mut(t) {
                *flag = true;
            }
        }
        let (mut closed, mut open) = (false, false);
        for (status, corridor) in statuses.iter().zip(&in_corridor) {
            match status {
                NodeStatus::Closed if !corridor => closed = true,
                NodeStatus::Open if !corridor => open = true,
                _ => {}
            }
        }
        let mut rows = Vec::new();
        if closed {
            rows.push(LegendRow::fill(CLOSED, "expanded by A*, off the corridor"));
        }
        if open {
            rows.push(LegendRow::fill(OPEN, "left open by A*"));
        }
        rows
    }

    /// The triangle the start is in, when there is a path.
    fn start_triangle(&self) -> TriId {
        self.query
            .timeline
            .path
            .as_ref()
            .map_or(usize::MAX, |p| p.start.triangle)
    }
}

pub(super) const UNSEEN: Color32 = Color32::from_rgb(62, 70, 84);
pub(super) const OPEN: Color32 = Color32::from_rgb(222, 170, 52);
pub(super) const CLOSED: Color32 = Color32::from_rgb(64, 112, 186);
pub(super) const CURRENT: Color32 = Color32::from_rgb(226, 72, 72);
pub(super) const CORRIDOR: Color32 = Color32::from_rgb(72, 160, 104);
pub(super) const EDGE: Color32 = Color32::from_rgb(110, 120, 138);
pub(super) const BORDER: Color32 = Color32::from_rgb(220, 222, 230);
pub(super) const NON_MANIFOLD: Color32 = Color32::from_rgb(232, 64, 206);
/// The outline of the triangle A\* expands next.
const NEXT: Color32 = Color32::WHITE;
const ARROW: Color32 = Color32::from_rgb(240, 240, 240);
const LEFT: Color32 = Color32::from_rgb(90, 220, 120);
const RIGHT: Color32 = Color32::from_rgb(240, 90, 90);
const APEX: Color32 = Color32::from_rgb(250, 230, 80);
pub(super) const PATH: Color32 = Color32::from_rgb(255, 150, 40);
const START: Color32 = Color32::from_rgb(120, 230, 140);
const GOAL: Color32 = Color32::from_rgb(250, 110, 110);

/// `a` with a share `t` of `b` mixed in.
pub(super) fn mix(a: Color32, b: Color32, t: f32) -> Color32 {
    let m = |x: u8, y: u8| (f32::from(x) * (1.0 - t) + f32::from(y) * t).round() as u8;
    Color32::from_rgb(m(a.r(), b.r()), m(a.g(), b.g()), m(a.b(), b.b()))
}

/// Adds a segment as a thin quad to a batched mesh.
pub(super) fn push_segment(mesh: &mut egui::Mesh, a: Pos2, b: Pos2, width: f32, color: Color32) {
    let d = b - a;
    let len = d.length();
    if len <= f32::EPSILON || !len.is_finite() {
        return;
    }
    let n = vec2(-d.y, d.x) / len * (width / 2.0);
    let i = mesh.vertices.len() as u32;
    mesh.colored_vertex(a + n, color);
    mesh.colored_vertex(b + n, color);
    mesh.colored_vertex(b - n, color);
    mesh.colored_vertex(a - n, color);
    mesh.add_triangle(i, i + 1, i + 2);
    mesh.add_triangle(i, i + 2, i + 3);
}

/// Border and non-manifold edges (the outline that is always drawn).
pub(super) fn outline_edges(mesh: &NavMesh) -> Vec<usize> {
    (0..mesh.edges().len())
        .filter(|&e| {
            let edge = &mesh.edges()[e];
            edge.is_border() || edge.is_non_manifold()
        })
        .collect()
}

pub(super) fn mean_edge_length(mesh: &NavMesh) -> f64 {
    let b = mesh.bounds();
    let area = ((b.max.x - b.min.x) * (b.max.y - b.min.y)).max(f64::MIN_POSITIVE);
    (area / mesh.triangles().len().max(1) as f64).sqrt()
}
