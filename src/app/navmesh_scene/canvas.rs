//! The navmesh canvas: clicks and drags that place the start and goal or pan, the wheel's
//! zoom, and the mesh painted with the search and the funnel replayed over it.

use super::{Drag, NavmeshScene};
use crate::app::camera::{View, paint_tag};
use crate::geom::Vec2;
use crate::navmesh::{NavMesh, TriId};
use crate::search::NodeStatus;
use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Ui, vec2};

impl NavmeshScene {
    /// The canvas: paints the mesh and the replayed state, and handles clicks, drags and zoom.
    pub fn canvas_ui(&mut self, ui: &mut Ui) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Navmesh canvas"));
        let rect = response.rect;
        self.canvas_rect = Some(rect);
        let camera = self.camera.for_canvas(self.mesh.bounds(), rect);
        let view = View { camera, rect };
        painter.rect_filled(rect, 0.0, Color32::from_rgb(24, 26, 31));

        self.handle_input(ui, &response, view);
        let view = View {
            camera: self.camera.get().unwrap_or(camera),
            rect,
        };
        self.paint(&painter, view);
        self.paint_edits(&painter, view, response.hover_pos());
        let caption = crate::app::camera::paint_caption(&painter, rect, self.current_explanation());
        self.legend_rect = if self.settings.display.legend {
            self.paint_legend(&painter, view, caption)
        } else {
            None
        };

        if let Some(pointer) = response.hover_pos() {
            let world = view.world_from_screen(pointer);
            self.hover_world = Some(world);
            // Where floors overlap, the topmost one's triangle (the one a click picks).
            if let Some(top) = self.mesh.floors_at(world).first() {
                let _ = response.on_hover_ui_at_pointer(|ui| {
                    self.triangle_tooltip_ui(ui, top.triangle);
                });
            }
        } else {
            self.hover_world = None;
        }
    }

    fn triangle_tooltip_ui(&self, ui: &mut Ui, t: TriId) {
        // Short lines, each one line: the tooltip grows to fit them rather than wrapping them to
        // the width it had for the last triangle it showed.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        let tri = &self.mesh.triangles()[t];
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
        let area = self.mesh.area_type(t);
        let name = self
            .mesh
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
        let r = &self.replay.search;
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
        if !self.timeline.is_empty() {
            crate::app::playback::expansion_tooltip_ui(
                ui,
                self.timeline.expansion_steps(),
                t,
                self.playback.cursor,
                false,
            );
        }
    }
    fn handle_input(&mut self, ui: &Ui, response: &egui::Response, view: View) {
        if response.dragged_by(egui::PointerButton::Middle) {
            self.camera.pan(response.drag_delta());
        }
        if self.edit_input(ui, response, view) {
            if response.secondary_clicked()
                && let Some(pos) = response.interact_pointer_pos()
            {
                self.set_goal(view.world_from_screen(pos));
            }
            self.camera.zoom_with_wheel(ui, response);
            return;
        }
        let tolerance = 8.0 / view.camera.scale;
        self.edit_keys(
            ui,
            response.hover_pos().map(|p| view.world_from_screen(p)),
            tolerance,
        );
        let rect = view.rect;
        let start_screen = view.screen_from_world(self.start);
        let goal_screen = view.screen_from_world(self.goal);
        let grab = 12.0;
        if response.drag_started() {
            // Where the button went down (the drag is noticed a few points later).
            let press = ui
                .input(|i| i.pointer.press_origin())
                .or(response.interact_pointer_pos())
                .unwrap_or(rect.center());
            self.drag = Some(if press.distance(start_screen) < grab {
                Drag::Start
            } else if press.distance(goal_screen) < grab {
                Drag::Goal
            } else {
                Drag::Pan
            });
        }
        if response.dragged_by(egui::PointerButton::Primary) {
            match self.drag {
                Some(Drag::Start) | Some(Drag::Goal) => {
                    if let Some(pos) = response.interact_pointer_pos() {
                        let world = view.world_from_screen(pos);
                        // A drag keeps the floor (and follows it up ramps and stairs).
                        let end = if self.drag == Some(Drag::Start) {
                            super::floors::End::Start
                        } else {
                            super::floors::End::Goal
                        };
                        self.put_end(end, world, true);
                    }
                }
                _ => {
                    self.camera.pan(response.drag_delta());
                }
            }
        }
        if response.drag_stopped() {
            self.drag = None;
        }
        let shift = ui.input(|i| i.modifiers.shift);
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            let world = view.world_from_screen(pos);
            if shift {
                self.set_goal(world);
            } else {
                self.set_start(world);
            }
        }
        if response.secondary_clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            self.set_goal(view.world_from_screen(pos));
        }
        self.camera.zoom_with_wheel(ui, response);
    }

    /// Paints everything in one pass of batched meshes.
    pub fn paint(&self, painter: &egui::Painter, view: View) {
        let mesh = &self.mesh;
        // Only the vertices a line is drawn to are put on screen here; the fill does its own.
        let vertices = mesh.vertices();
        let screen = |v: usize| view.screen_from_world(vertices[v]);
        // The fill is built again only when what it shows changed (see `FillKey`); a step of
        // the replay recolours the triangles it changed.
        let key = self.fill_key(view);
        let shown = self.replay_shown();
        let fill = {
            let mut cache = self
                .fill_cache
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let kept = match cache.as_mut().filter(|cached| cached.key == key) {
                Some(cached) if cached.shown == shown => true,
                Some(cached) if cached.shown.same_but_statuses(&shown) => {
                    self.recolour(cached, shown.clone());
                    true
                }
                _ => false,
            };
            match cache.as_ref().filter(|_| kept) {
                Some(cached) => {
                    #[cfg(debug_assertions)]
                    {
                        let fresh = self.build_fill(view);
                        assert!(
                            *cached.fill == fresh.mesh,
                            "a kept fill must be this frame's"
                        );
                        assert!(
                            *cached.lines == fresh.lines,
                            "kept edges must be this frame's"
                        );
                        assert_eq!(
                            cached.outlines.as_deref(),
                            fresh.outlines.as_ref(),
                            "kept area outlines must be this frame's"
                        );
                    }
                    cached.clone()
                }
                None => {
                    let built = self.build_fill(view);
                    let fill = CachedFill {
                        key,
                        shown,
                        fill: std::sync::Arc::new(built.mesh),
                        lines: std::sync::Arc::new(built.lines),
                        outlines: built.outlines.map(std::sync::Arc::new),
                        visible: std::sync::Arc::new(built.visible),
                        slot_of: std::sync::Arc::new(built.slot_of),
                        largest_area: built.largest_area,
                    };
                    *cache = Some(fill.clone());
                    fill
                }
            }
        };
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
        self.paint_markers(painter, view);
        if let Some(walk) = &self.walk {
            walk.paint(painter, view);
        }
        self.diagnostics.paint_selection(painter, view, mesh);
    }

    /// The key of the fill this frame shows in `view`.
    fn fill_key(&self, view: View) -> FillKey {
        FillKey {
            mesh: std::sync::Arc::as_ptr(&self.mesh) as usize,
            triangles: self.mesh.triangles().len(),
            vertices: self.mesh.vertices().len(),
            revision: self.edit.revision,
            draw_order: self.draw_order.len(),
            camera: [
                view.camera.center[0],
                view.camera.center[1],
                view.camera.scale,
            ],
            rect: view.rect,
            height_colours: self.settings.display.height_colours,
            edges: self.settings.display.edges,
            colour_islands: self.diagnostics.colour_islands,
            heat: self.diagnostics.quality.heat_fingerprint(),
        }
    }

    /// What the fill shows of the replayed search this frame.
    fn replay_shown(&self) -> ReplayShown {
        let replay = &self.replay;
        ReplayShown {
            statuses: replay.search.statuses().to_vec(),
            current: replay.current(),
            finished: replay.search.is_finished(),
            optimal_phase: replay.in_optimal_phase(),
            corridor: self
                .timeline
                .path
                .as_ref()
                .map(|path| path.corridor.clone())
                .unwrap_or_default(),
        }
    }

    /// Brings `cached` to `shown`, which differs from what it shows only in some triangles'
    /// statuses and the triangle being expanded: those triangles are coloured again in place.
    fn recolour(&self, cached: &mut CachedFill, shown: ReplayShown) {
        let mut changed: Vec<TriId> = cached
            .shown
            .statuses
            .iter()
            .zip(&shown.statuses)
            .enumerate()
            .filter(|(_, (was, is))| was != is)
            .map(|(t, _)| t)
            .collect();
        changed.extend(cached.shown.current);
        changed.extend(shown.current);
        cached.shown = shown;
        if self.settings.display.height_colours {
            return; // the fill is coloured by height, whatever the search
        }
        let area_colours = self.area_colours();
        let fill = std::sync::Arc::make_mut(&mut cached.fill);
        for t in changed {
            let Some(&k) = cached.slot_of.get(t).filter(|&&k| k != u32::MAX) else {
                continue; // not in view
            };
            let in_corridor = cached.shown.finished && cached.shown.corridor.contains(&t);
            let colour = self.fill_colour(t, in_corridor, &area_colours);
            let first = 3 * k as usize;
            for vertex in fill.vertices.iter_mut().skip(first).take(3) {
                vertex.color = colour;
            }
        }
    }

    /// The area types' colours, by area id (ground has none: transparent).
    fn area_colours(&self) -> Vec<Color32> {
        self.mesh
            .area_names()
            .iter()
            .enumerate()
            .map(|(a, name)| super::area_colour(a as u8, name))
            .collect()
    }

    /// The colour triangle `t` is filled with (unless heights colour the fill): its island,
    /// its heat, the search's colour for it, or its area's, the search's mixed with its area's.
    fn fill_colour(&self, t: TriId, in_corridor: bool, area_colours: &[Color32]) -> Color32 {
        let heat = self.diagnostics.quality.heat(t);
        let color = if self.diagnostics.colour_islands {
            super::diagnostics::island_colour(self.mesh.island_of(t))
        } else if let Some(excess) = heat {
            super::quality::heat_colour(excess)
        } else if self.replay.current() == Some(t) {
            CURRENT
        } else if in_corridor {
            CORRIDOR
        } else if self.replay.in_optimal_phase() {
            // A*'s frontier is not the subject once Polyanya searches.
            UNSEEN
        } else {
            match self.replay.search.status(t) {
                NodeStatus::Open => OPEN,
                NodeStatus::Closed => CLOSED,
                _ => UNSEEN,
            }
        };
        let area = area_colours
            .get(usize::from(self.mesh.area_type(t)))
            .copied()
            .unwrap_or(Color32::TRANSPARENT);
        if area == Color32::TRANSPARENT || self.diagnostics.colour_islands || heat.is_some() {
            color
        } else if color == UNSEEN {
            area
        } else {
            mix(color, area, 0.3)
        }
    }

    /// The mesh's fill as this frame shows it: each triangle in view in its search, area,
    /// island, heat or height colour, lowest floor first, and the triangles in view.
    fn build_fill(&self, view: View) -> BuiltFill {
        let mesh = &self.mesh;
        let visible = view.visible_world();
        let vertices = mesh.vertices();
        let screen: Vec<Pos2> = vertices
            .iter()
            .map(|&v| view.screen_from_world(v))
            .collect();
        let in_view = |corners: [u32; 3]| {
            let [a, b, c] = corners.map(|v| vertices.get(v as usize).copied().unwrap_or_default());
            let (min_x, max_x) = (a.x.min(b.x).min(c.x), a.x.max(b.x).max(c.x));
            let (min_y, max_y) = (a.y.min(b.y).min(c.y), a.y.max(b.y).max(c.y));
            max_x >= visible.min.x
                && min_x <= visible.max.x
                && max_y >= visible.min.y
                && min_y <= visible.max.y
        };
        // Lowest floor first, so that the higher is seen where floors overlap; read front to
        // back with each triangle's corners beside it.
        let made_now;
        let order = if self.draw_order.len() == mesh.triangles().len() {
            &self.draw_order
        } else {
            made_now = super::floors::draw_order(mesh);
            &made_now
        };
        let visible_draw: Vec<super::floors::DrawTriangle> = order
            .iter()
            .copied()
            .filter(|&[_, a, b, c]| in_view([a, b, c]))
            .collect();
        let visible_tris: Vec<TriId> = visible_draw.iter().map(|d| d[0] as usize).collect();
        let heights = self.settings.display.height_colours.then(|| {
            let [low, high] = mesh.height_span();
            let span = (high - low).max(f64::MIN_POSITIVE);
            mesh.heights()
                .iter()
                .map(|h| super::floors::height_colour((h - low) / span))
                .collect::<Vec<Color32>>()
        });

        // Which triangles the corridor holds (shown once A* has finished).
        let path = self.timeline.path.as_ref();
        let mut in_corridor = vec![false; mesh.triangles().len()];
        if self.replay.search.is_finished()
            && let Some(path) = path
        {
            for &t in &path.corridor {
                if let Some(flag) = in_corridor.get_mut(t) {
                    *flag = true;
                }
            }
        }

        let area_colours = self.area_colours();
        // Fills.
        let mut fill = egui::Mesh::default();
        fill.reserve_triangles(visible_tris.len());
        fill.reserve_vertices(visible_tris.len() * 3);
        for &[t, a, b, c] in &visible_draw {
            let t = t as usize;
            let color = self.fill_colour(t, in_corridor[t], &area_colours);
            let i = fill.vertices.len() as u32;
            for v in [a, b, c].map(|v| v as usize) {
                let color = match &heights {
                    Some(by_height) => by_height.get(v).copied().unwrap_or(color),
                    None => color,
                };
                fill.colored_vertex(screen.get(v).copied().unwrap_or(Pos2::ZERO), color);
            }
            fill.add_triangle(i, i + 1, i + 2);
        }
        let largest_area = visible_tris
            .iter()
            .filter_map(|&t| mesh.triangles().get(t))
            .map(|t| t.area)
            .fold(0.0, f64::max);
        let mut slot_of = vec![u32::MAX; mesh.triangles().len()];
        for (k, &t) in visible_tris.iter().enumerate() {
            if let Some(slot) = slot_of.get_mut(t) {
                *slot = k as u32;
            }
        }
        let lines = self.build_lines(view, &visible_tris);
        let outlines = self.build_area_outlines(view, &visible_tris);
        BuiltFill {
            mesh: fill,
            lines,
            outlines,
            visible: visible_tris,
            slot_of,
            largest_area,
        }
    }

    /// The mesh's edges in view: every edge when zoomed in enough to see them, borders and
    /// non-manifold edges always.
    fn build_lines(&self, view: View, visible_tris: &[TriId]) -> egui::Mesh {
        let mesh = &self.mesh;
        let vertices = mesh.vertices();
        let screen = |v: usize| view.screen_from_world(vertices[v]);
        let mean_edge_px = mean_edge_length(mesh) * view.camera.scale;
        let draw_all = self.settings.display.edges && mean_edge_px > 4.0;
        let mut lines = egui::Mesh::default();
        let mut push_edge = |e: usize| {
            let edge = &mesh.edges()[e];
            let [a, b] = edge.vertices.map(screen);
            if edge.is_non_manifold() {
                push_segment(&mut lines, a, b, 3.0, NON_MANIFOLD);
            } else if edge.is_border() {
                push_segment(&mut lines, a, b, 2.0, BORDER);
            } else {
                push_segment(&mut lines, a, b, 1.0, EDGE);
            }
        };
        if draw_all {
            let mut edge_seen = vec![false; mesh.edges().len()];
            for &t in visible_tris {
                for e in mesh.triangles()[t].edges {
                    if !std::mem::replace(&mut edge_seen[e], true) {
                        push_edge(e);
                    }
                }
            }
        } else {
            let clip = view.rect.expand(4.0);
            for &e in &self.outline_edges {
                let [a, b] = mesh.edges()[e].vertices.map(screen);
                if clip.intersects(Rect::from_two_pos(a, b)) {
                    push_edge(e);
                }
            }
        }
        lines
    }

    /// The outline of each area in view (its edges to another area type or to a wall), in its
    /// colour, drawn over the search's; none when islands are coloured or the mesh has one
    /// area type.
    fn build_area_outlines(&self, view: View, visible_tris: &[TriId]) -> Option<egui::Mesh> {
        if self.diagnostics.colour_islands || self.areas_present <= 1 {
            return None;
        }
        let mesh = &self.mesh;
        let vertices = mesh.vertices();
        let screen = |v: usize| view.screen_from_world(vertices[v]);
        let area_colours = self.area_colours();
        let mut outline = egui::Mesh::default();
        for &t in visible_tris {
            let own = mesh.area_type(t);
            let Some(&colour) = area_colours.get(usize::from(own)) else {
                continue;
            };
            if colour == Color32::TRANSPARENT {
                continue;
            }
            for (k, &e) in mesh.triangles()[t].edges.iter().enumerate() {
                let edge = &mesh.edges()[e];
                let same = edge.triangles.len() == 2
                    && edge.triangles.iter().all(|&u| mesh.area_type(u) == own);
                if !same {
                    let [a, b] = [k, (k + 1) % 3].map(|i| screen(mesh.triangles()[t].vertices[i]));
                    push_segment(&mut outline, a, b, 3.0, colour);
                }
            }
        }
        Some(outline)
    }

    /// For a mesh shrunk for an agent's radius: the walls as they were, faint, and a × where a
    /// passage closed.
    fn paint_shrunk(&self, painter: &egui::Painter, view: View) {
        let Some(summary) = &self.mesh.raw().shrunk else {
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
        let raw = self.mesh.raw();
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
        let tris = self.mesh.triangles();
        let px = |area: f64| (area.sqrt() * view.camera.scale) as f32;
        if display.parent_arrows && px(largest_area) >= 14.0 {
            let mut arrows = egui::Mesh::default();
            for &t in visible {
                let Some(p) = self
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
                    match self.replay.search.visit_number(t) {
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
        let Some(path) = &self.timeline.path else {
            return;
        };
        let r = &self.replay.funnel;
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
            let points: Vec<Pos2> = path.waypoints.iter().map(|&p| s(p)).collect();
            painter.add(Shape::line(points.clone(), Stroke::new(4.0, PATH)));
            for p in points {
                painter.circle_filled(p, 4.0, PATH);
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
        let Some(path) = &self.timeline.path else {
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
            let count = self.mesh.island_count();
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
        if d.height_colours || self.diagnostics.quality.heat_shown() || self.timeline.is_empty() {
            return rows;
        }
        let funnel = &self.replay.funnel;
        if self.replay.in_optimal_phase() {
            rows.push(LegendRow::fill(CORRIDOR, "corridor A* chose"));
            rows.push(LegendRow::line(PATH, 4.0, "corridor path (the funnel's)"));
            rows.extend(self.optimal_legend());
        } else if !self.replay.search.is_finished() {
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
        let statuses = self.replay.search.statuses();
        let mut in_corridor = vec![false; statuses.len()];
        for &t in self.timeline.path.iter().flat_map(|p| &p.corridor) {
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
        self.timeline
            .path
            .as_ref()
            .map_or(usize::MAX, |p| p.start.triangle)
    }
}

const UNSEEN: Color32 = Color32::from_rgb(62, 70, 84);
const OPEN: Color32 = Color32::from_rgb(222, 170, 52);
const CLOSED: Color32 = Color32::from_rgb(64, 112, 186);
const CURRENT: Color32 = Color32::from_rgb(226, 72, 72);
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
/// What the canvas's fill shows apart from the replayed search: the mesh (its address, size
/// and edit revision), the view, the colouring asked for, and a fingerprint of the heat map.
/// Under an unchanged key the fill of the last frame is kept, recoloured where the search
/// changed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct FillKey {
    mesh: usize,
    triangles: usize,
    vertices: usize,
    revision: u64,
    draw_order: usize,
    camera: [f64; 3],
    rect: Rect,
    height_colours: bool,
    edges: bool,
    colour_islands: bool,
    heat: Option<u64>,
}

/// What the fill shows of the replayed search.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ReplayShown {
    statuses: Vec<NodeStatus>,
    current: Option<TriId>,
    finished: bool,
    optimal_phase: bool,
    corridor: Vec<TriId>,
}

impl ReplayShown {
    /// True when `other` differs from this at most in statuses and the triangle expanded
    /// (what one step of A* changes), over the same triangles.
    fn same_but_statuses(&self, other: &Self) -> bool {
        self.statuses.len() == other.statuses.len()
            && self.finished == other.finished
            && self.optimal_phase == other.optimal_phase
            && self.corridor == other.corridor
    }
}

/// A fill built for one key, kept for the frames after it.
#[derive(Debug, Clone)]
pub(super) struct CachedFill {
    key: FillKey,
    shown: ReplayShown,
    fill: std::sync::Arc<egui::Mesh>,
    /// The edges drawn over it, and the areas' outlines.
    lines: std::sync::Arc<egui::Mesh>,
    outlines: Option<std::sync::Arc<egui::Mesh>>,
    /// The triangles in view, lowest floor first.
    visible: std::sync::Arc<Vec<TriId>>,
    /// Each triangle's place among them (`u32::MAX` when out of view): its corners are the
    /// fill's vertices from three times that.
    slot_of: std::sync::Arc<Vec<u32>>,
    /// The area of the largest of them.
    largest_area: f64,
}

/// A fill and the triangles in view.
struct BuiltFill {
    mesh: egui::Mesh,
    lines: egui::Mesh,
    outlines: Option<egui::Mesh>,
    visible: Vec<TriId>,
    slot_of: Vec<u32>,
    largest_area: f64,
}

/// Where a fingerprint starts.
pub(super) const FINGERPRINT_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// Folds `x` into the fingerprint `h` (FNV-1a over whole words): cheap, and any change of one
/// word changes the result.
pub(super) fn fingerprint(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0000_0100_0000_01b3)
}

fn mix(a: Color32, b: Color32, t: f32) -> Color32 {
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

fn mean_edge_length(mesh: &NavMesh) -> f64 {
    let b = mesh.bounds();
    let area = ((b.max.x - b.min.x) * (b.max.y - b.min.y)).max(f64::MIN_POSITIVE);
    (area / mesh.triangles().len().max(1) as f64).sqrt()
}
