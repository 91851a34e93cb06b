//! The tile-map canvas: painting, filling and placing S and G with the pointer, and drawing the
//! map with the search replayed over it, the path, the agent radius's shading and the
//! Partitions overlay.

use super::{Endpoint, TileMapScene, Tool, tiles_texture_id};
use crate::app::brush::{StrokeFrom, stroke_cells, stroke_within_frame};
use crate::app::camera::{View, paint_tag};
use crate::app::tile_paint::{TileContent, content_key, paint_tiles, tile_color};
use crate::geom::Vec2;
use crate::grid::{Cell, MapDocument};
use crate::navmesh::Bounds;
use crate::search::{NodeStatus, SearchEvent};
use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Ui};

/// The pointer's buttons this frame: Shift held, the primary pressed on the canvas, the
/// primary down anywhere.
#[derive(Debug, Clone, Copy)]
struct Buttons {
    shift: bool,
    primary: bool,
    primary_down: bool,
}

impl TileMapScene {
    /// Ends the stroke being painted into `map`: one undo step, searched again (or repaired).
    fn end_stroke(&mut self, map: &mut MapDocument) {
        if map.end_stroke() {
            self.map_edited(map);
        }
    }

    /// What the selected tool does with this frame's pointer: paint, fill, place.
    fn tool_input(
        &mut self,
        ui: &Ui,
        response: &egui::Response,
        map: &mut MapDocument,
        cell_at: impl Fn(Pos2) -> Option<Cell> + Copy,
        buttons: Buttons,
    ) {
        let pointer = response.interact_pointer_pos();
        // A whole press, its moves and its release can reach egui in one frame (after a slow
        // one, such as a search re-run on a large map): egui then reports no drag at all.
        let in_one_frame: Option<Vec<Cell>> = stroke_within_frame(ui, response)
            .map(|points| points.into_iter().filter_map(cell_at).collect());
        match self.tool {
            Tool::Paint(tile) if !buttons.shift && in_one_frame.is_some() => {
                let mut last = None;
                for cell in in_one_frame.into_iter().flatten() {
                    for c in stroke_cells(last.map(StrokeFrom::Painted), cell) {
                        map.paint_tile(c, tile);
                    }
                    last = Some(cell);
                }
                self.stroke_last = None;
                self.end_stroke(map);
            }
            Tool::Rectangle(tile)
                if let Some([a, .., b]) = in_one_frame.as_deref()
                    && a != b =>
            {
                self.rect_anchor = None;
                if map.fill_rectangle(*a, *b, tile) {
                    self.map_edited(map);
                }
            }
            Tool::Paint(tile) => {
                if (buttons.primary || response.clicked())
                    && let Some(cell) = pointer.and_then(cell_at)
                {
                    if buttons.shift && map.map.is_passable(cell) {
                        self.place(Endpoint::Goal, cell, map);
                    } else if !buttons.shift {
                        // The pointer can cross several cells between two frames.
                        let pressed = ui.input(|i| i.pointer.press_origin()).and_then(cell_at);
                        for c in stroke_cells(StrokeFrom::new(self.stroke_last, pressed), cell) {
                            map.paint_tile(c, tile);
                        }
                        self.stroke_last = Some(cell);
                    }
                }
                if !buttons.primary_down {
                    self.stroke_last = None;
                    self.end_stroke(map);
                }
            }
            Tool::Rectangle(tile) => {
                if response.drag_started() {
                    // Where the button went down: the drag is noticed a few points later,
                    // possibly over the next cell.
                    let origin = ui.input(|i| i.pointer.press_origin()).or(pointer);
                    self.rect_anchor = origin.and_then(cell_at);
                }
                if response.drag_stopped()
                    && let (Some(a), Some(b)) = (self.rect_anchor.take(), pointer.and_then(cell_at))
                    && map.fill_rectangle(a, b, tile)
                {
                    self.map_edited(map);
                }
                if response.clicked()
                    && let Some(cell) = pointer.and_then(cell_at)
                    && map.paint(cell, tile)
                {
                    self.map_edited(map);
                }
            }
            Tool::Fill(tile) => {
                if response.clicked()
                    && let Some(cell) = pointer.and_then(cell_at)
                    && map.fill(cell, tile)
                {
                    self.map_edited(map);
                }
            }
            Tool::Start | Tool::Goal => {
                if response.clicked()
                    && let Some(cell) = pointer.and_then(cell_at)
                    && map.map.is_passable(cell)
                {
                    let endpoint = if self.tool == Tool::Start {
                        Endpoint::Start
                    } else {
                        Endpoint::Goal
                    };
                    self.place(endpoint, cell, map);
                }
            }
        }
    }

    /// The map canvas.
    pub fn canvas_ui(&mut self, ui: &mut Ui, map: &mut MapDocument) {
        self.follow(map);
        if self.active_lockstep().is_some() {
            self.lockstep_canvas_ui(ui, map);
            return;
        }
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Tile map canvas"));
        let rect = response.rect;
        self.canvas_rect = Some(rect);
        let (map_w, map_h) = (map.map.width(), map.map.height());
        let bounds = Bounds {
            min: Vec2::new(0.0, 0.0),
            max: Vec2::new(map_w as f64, map_h as f64),
        };
        let camera = self.camera.for_canvas(bounds, rect);
        let view = View { camera, rect };
        painter.rect_filled(rect, 0.0, Color32::from_rgb(24, 26, 31));
        let cell_at = move |pos: Pos2| -> Option<Cell> {
            let w = view.world_from_screen(pos);
            (w.x >= 0.0 && w.y >= 0.0)
                .then_some((w.x as usize, w.y as usize))
                .filter(|&(x, y)| x < map_w && y < map_h)
        };
        self.hover = response.hover_pos().and_then(cell_at);

        // Editing and placing.
        let pointer = response.interact_pointer_pos();
        let shift = ui.input(|i| i.modifiers.shift);
        if response.secondary_clicked()
            && let Some(cell) = pointer.and_then(cell_at)
            && map.map.is_passable(cell)
        {
            self.place(Endpoint::Goal, cell, map);
        }
        let primary_down = ui.input(|i| i.pointer.primary_down());
        let primary = response.is_pointer_button_down_on() && primary_down;
        // A press on S or G grabs it, whatever the tool (as in the navmesh view): dragging moves
        // it over passable cells and the search re-runs live; nothing is painted. The marker is
        // grabbed anywhere it is drawn, however small the cells are (on a large map a cell is a
        // pixel, the marker several).
        let marker_centre = |cell: Cell| {
            view.screen_from_world(Vec2::new(cell.0 as f64 + 0.5, cell.1 as f64 + 0.5))
        };
        let grab = marker_radius(view) + 2.0;
        let over_marker = |pos: Option<Pos2>| {
            let pos = pos?;
            // In the marker's cell, or within the marker as drawn.
            let near = |cell: Cell| {
                if cell_at(pos) == Some(cell) {
                    0.0
                } else {
                    pos.distance(marker_centre(cell))
                }
            };
            let (start, goal) = (near(self.start), near(self.goal));
            match (start <= grab, goal <= grab) {
                (true, true) if goal < start => Some(Endpoint::Goal),
                (true, _) => Some(Endpoint::Start),
                (false, true) => Some(Endpoint::Goal),
                (false, false) => None,
            }
        };
        if ui.input(|i| i.pointer.primary_pressed()) && response.hovered() && !shift {
            let pressed = ui.input(|i| i.pointer.press_origin());
            self.dragging = over_marker(pressed);
        }
        if self.dragging.is_some() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
        } else if over_marker(response.hover_pos()).is_some() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grab);
        }
        if let Some(endpoint) = self.dragging {
            let under = ui.input(|i| i.pointer.interact_pos()).and_then(cell_at);
            if let Some(cell) = under.filter(|&c| map.map.is_passable(c)) {
                let at = match endpoint {
                    Endpoint::Start => self.start,
                    Endpoint::Goal => self.goal,
                };
                if at != cell {
                    self.place(endpoint, cell, map);
                }
            }
            if !primary_down {
                self.dragging = None;
            }
        } else {
            let buttons = Buttons {
                shift,
                primary,
                primary_down,
            };
            self.tool_input(ui, &response, map, cell_at, buttons);
        }
        // Pan with the middle or right button held (a right click without moving sets the goal).
        if response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Secondary)
        {
            self.camera.pan(response.drag_delta());
        }
        self.camera.zoom_with_wheel(ui, &response);
        self.sync_replay();
        self.refresh_clearance(map);
        self.refresh_jump_tables(map, view);
        self.paint_map(&painter, view, map);
        self.partitions.paint_overlay(&painter, view);
        // The rectangle being dragged, filled on release.
        if let (Tool::Rectangle(tile), Some(a), Some(b)) = (
            self.tool,
            self.rect_anchor,
            response.interact_pointer_pos().and_then(cell_at),
        ) && response.dragged()
        {
            let (x0, x1) = (a.0.min(b.0), a.0.max(b.0) + 1);
            let (y0, y1) = (a.1.min(b.1), a.1.max(b.1) + 1);
            let area = Rect::from_two_pos(
                view.screen_from_world(Vec2::new(x0 as f64, y0 as f64)),
                view.screen_from_world(Vec2::new(x1 as f64, y1 as f64)),
            );
            painter.rect_filled(area, 0.0, tile_color(tile).gamma_multiply(0.6));
            painter.rect_stroke(
                area,
                0.0,
                Stroke::new(2.0, Color32::YELLOW),
                egui::StrokeKind::Outside,
            );
            let size = format!("{} × {}", x1 - x0, y1 - y0);
            paint_tag(
                &painter,
                area.right_bottom() + egui::vec2(6.0, 22.0),
                size,
                Color32::WHITE,
            );
        }
        if let Some(cell) = self.hover {
            let _ = response.on_hover_ui_at_pointer(|ui| self.cell_tooltip_ui(ui, map, cell));
        }
        let caption = crate::app::camera::paint_caption(&painter, rect, self.current_explanation());
        self.legend_rect = None;
        if self.settings.legend {
            // Off S and G, the caption, and as much of the map as it can.
            let marks = [marker_centre(self.start), marker_centre(self.goal)];
            let shows = |at: Pos2| u32::from(cell_at(at).is_some());
            let keep = crate::app::legend::KeepClear {
                marks: &marks,
                taken: &[caption],
                lines: &[],
                shows: &shows,
            };
            self.legend_rect =
                crate::app::legend::paint_legend(&painter, rect, &self.legend(), &keep);
        }
    }

    /// The legend's rows for the search shown, in its algorithm's words: BFS, Dijkstra and A*
    /// open and closed cells, Fringe Search's now and later lists, IDA*'s path and the cells
    /// it cut off.
    pub fn legend(&self) -> Vec<crate::app::legend::LegendRow> {
        use crate::app::legend::LegendRow;
        use crate::grid::AlgorithmKind;
        // The algorithm whose steps are drawn (another may be searching meanwhile).
        let kind = self.search.algorithm.kind();
        let mut rows = Vec::new();
        match kind {
            AlgorithmKind::Fringe => {
                rows.push(LegendRow::fill(OPEN, "now list"));
                rows.push(LegendRow::fill(LATER, "later list: the next pass"));
            }
            AlgorithmKind::IdaStar => {
                rows.push(LegendRow::line(IDA_PATH, 3.0, "the path it holds"));
                rows.push(LegendRow::fill(LATER, "cut off in this pass"));
            }
            AlgorithmKind::Bfs => rows.push(LegendRow::fill(OPEN, "in the queue")),
            AlgorithmKind::BestFirst => {
                rows.push(LegendRow::fill(OPEN, "open: lowest h expanded first"))
            }
            AlgorithmKind::Dijkstra | AlgorithmKind::AStar | AlgorithmKind::ThetaStar => {
                rows.push(LegendRow::fill(OPEN, "open: the frontier"))
            }
            AlgorithmKind::Bidirectional => {
                rows.push(LegendRow::fill(OPEN, "open, forward half (from S)"));
                rows.push(LegendRow::fill(BACK_OPEN, "open, backward half (from G)"));
                rows.push(LegendRow::fill(BACK_CLOSED, "expanded, backward half"));
            }
            AlgorithmKind::DStarLite => {
                rows.push(LegendRow::fill(
                    OPEN,
                    "inconsistent (g ≠ rhs): open, by key",
                ));
                rows.push(LegendRow::line(EDITED, 2.0, "tile changed (this repair)"));
            }
            AlgorithmKind::Jps | AlgorithmKind::JpsPlus => {
                rows.push(LegendRow::fill(OPEN, "open: jump points found"));
                rows.push(LegendRow::line(SCAN, 2.0, "a scan of this expansion"));
                rows.push(LegendRow::line(SCAN_BLOCKED, 2.0, "a scan that met a wall"));
                rows.push(LegendRow::line(
                    FORCED,
                    2.0,
                    "forced neighbour (ringed), its wall (crossed)",
                ));
            }
        }
        rows.push(LegendRow::fill(
            CLOSED,
            match kind {
                AlgorithmKind::IdaStar => "expanded (brighter: again)",
                AlgorithmKind::Bidirectional => "expanded, forward half",
                AlgorithmKind::DStarLite => "taken from the open list: g worked out",
                _ => "expanded",
            },
        ));
        rows.push(LegendRow::fill(
            CURRENT,
            if kind == AlgorithmKind::DStarLite {
                "taken at this step"
            } else {
                "expanded at this step"
            },
        ));
        if self.walk.is_some() {
            rows.push(LegendRow::fill(AGENT, "the agent (A), its path on"));
            rows.push(LegendRow::line(TRAIL, 2.0, "where it has walked"));
        }
        if self.settings.jump_distances && self.settings.algorithm == AlgorithmKind::JpsPlus {
            rows.push(LegendRow::fill(
                JUMP_TO_POINT,
                "n: steps to the next jump point that way",
            ));
            rows.push(LegendRow::fill(
                JUMP_TO_WALL,
                "−n: open steps before a wall",
            ));
        }
        if self.search.replay.is_finished() {
            rows.push(LegendRow::line(FOUND_PATH, 3.0, "path found"));
        }
        rows
    }

    fn cell_tooltip_ui(&self, ui: &mut Ui, map: &MapDocument, cell: Cell) {
        // Short lines, each one line: the tooltip grows to fit them rather than wrapping them to
        // the width it had for the last cell it showed.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        let tile = map.map.get(cell).unwrap_or_default();
        ui.label(format!("cell {},{}: {}", cell.0, cell.1, tile.name()));
        let i = map.map.index(cell);
        let d_star_lite = self.search.algorithm.kind() == crate::grid::AlgorithmKind::DStarLite;
        if let Some((g, h)) = self.search.replay.costs(i) {
            if !d_star_lite {
                ui.label(format!("g {g:.3}   h {h:.3}   f {:.3}", g + h));
            } else if self.search.replay.status(i) == NodeStatus::Open {
                ui.label(format!("key [{:.3}; {g:.3}]", g + h));
            } else {
                ui.label(format!("g {g:.3}: its cost to the goal"));
            }
            if let Some(words) = self.search.state_words(i) {
                ui.label(words);
            }
        }
        // When the recorded search expands it, seen from any step, so it can be jumped to.
        if !self.search.events.is_empty() && tile.is_passable() {
            crate::app::playback::expansion_tooltip_ui(
                ui,
                self.search.expansion_steps(),
                i,
                self.playback.cursor,
                self.search.left_out > 0,
            );
        }
    }

    /// Recomputes the shaded clearance when the map or the agent radius changed (not in the
    /// middle of a paint stroke: ~17 ms on a 512² map would slow the brush).
    fn refresh_clearance(&mut self, map: &MapDocument) {
        if map.is_painting() {
            return;
        }
        let (revision, radius, _) = self.clearance;
        let agent_radius = self.settings.agent_radius;
        if revision != map.revision() || radius != agent_radius {
            let rects = crate::navmesh::from_map::too_close_for_agent(&map.map, agent_radius);
            self.clearance = (map.revision(), agent_radius, rects);
        }
    }

    /// True when JPS+'s numbers are to be drawn: asked for, JPS+ chosen, and cells large
    /// enough to hold eight numbers.
    fn shows_jump_distances(&self, view: View) -> bool {
        self.settings.jump_distances
            && self.settings.algorithm == crate::grid::AlgorithmKind::JpsPlus
            && view.camera.scale >= JUMP_NUMBERS_MIN_CELL
    }

    /// Builds JPS+'s tables for the numbers drawn when they are shown and the map changed (not
    /// in the middle of a paint stroke).
    fn refresh_jump_tables(&mut self, map: &MapDocument, view: View) {
        if map.is_painting() || !self.shows_jump_distances(view) {
            return;
        }
        if self.jump_tables.as_ref().map(|(r, _)| *r) != Some(map.revision()) {
            let tables = crate::grid::jps_plus::JpsPlusGrid::new(&map.map);
            self.jump_tables = Some((map.revision(), tables));
        }
    }

    /// JPS+'s table in each open cell seen: for each of the eight directions, placed towards
    /// it, the steps to the next jump point (bright) or minus the open steps before a wall
    /// (dim), over a dark square so that they read on any tile.
    fn paint_jump_distances(&self, painter: &egui::Painter, view: View, document: &MapDocument) {
        use crate::grid::jps_plus::DIRECTIONS;
        if !self.shows_jump_distances(view) {
            return;
        }
        let Some((revision, Some(tables))) = &self.jump_tables else {
            return;
        };
        if *revision != document.revision() {
            return;
        }
        let (w, h) = tables.size();
        let visible = view.visible_world();
        let x0 = visible.min.x.floor().max(0.0) as usize;
        let y0 = visible.min.y.floor().max(0.0) as usize;
        let x1 = (visible.max.x.ceil().max(0.0) as usize).min(w);
        let y1 = (visible.max.y.ceil().max(0.0) as usize).min(h);
        let font = egui::FontId::monospace((view.camera.scale as f32 * 0.17).clamp(7.0, 13.0));
        for y in y0..y1 {
            for x in x0..x1 {
                if tables.distance((x, y), (1, 0)).is_none() {
                    continue;
                }
                let cell = Rect::from_min_max(
                    view.screen_from_world(Vec2::new(x as f64, y as f64)),
                    view.screen_from_world(Vec2::new(x as f64 + 1.0, y as f64 + 1.0)),
                );
                // A rim of the cell's own colour (its tile, or the search's mark) stays seen.
                painter.rect_filled(cell.shrink(cell.width() * 0.1), 3.0, JUMP_BACKING);
                for d in DIRECTIONS {
                    let Some(n) = tables.distance((x, y), d) else {
                        continue;
                    };
                    let at =
                        cell.center() + egui::vec2(d.0 as f32, d.1 as f32) * cell.width() * 0.31;
                    let colour = if n > 0 { JUMP_TO_POINT } else { JUMP_TO_WALL };
                    painter.text(
                        at,
                        egui::Align2::CENTER_CENTER,
                        n.to_string(),
                        font.clone(),
                        colour,
                    );
                }
            }
        }
    }

    /// The passable ground an agent of the chosen radius cannot reach, shaded.
    fn paint_clearance(&self, painter: &egui::Painter, view: View) {
        let visible = view.visible_world();
        let fill = Color32::from_rgba_unmultiplied(255, 40, 120, 120);
        let mut mesh = egui::Mesh::default();
        for &[x0, y0, x1, y1] in &self.clearance.2 {
            if x1 < visible.min.x || x0 > visible.max.x || y1 < visible.min.y || y0 > visible.max.y
            {
                continue;
            }
            let a = view.screen_from_world(Vec2::new(x0, y0));
            let b = view.screen_from_world(Vec2::new(x1, y1));
            mesh.add_colored_rect(Rect::from_min_max(a, b), fill);
        }
        painter.add(Shape::mesh(mesh));
    }

    fn paint_map(&self, painter: &egui::Painter, view: View, document: &MapDocument) {
        self.paint_search(painter, view, document, &self.search, tiles_texture_id());
        self.paint_walk(painter, view);
    }

    /// `search` over the map at its replay's step: the cells it has marked, its path, the cell
    /// it takes next, S and G (and JPS+'s jump distances, when shown, over the cells). `texture`
    /// names the texture the marked map is kept in.
    pub(super) fn paint_search(
        &self,
        painter: &egui::Painter,
        view: View,
        document: &MapDocument,
        search: &super::RecordedSearch,
        texture: egui::Id,
    ) {
        let map = &document.map;
        let replay = &search.replay;
        let result = search.result.as_ref();
        let path_cells: std::collections::HashSet<Cell> = if replay.is_finished() {
            result.iter().flat_map(|r| r.path.iter().copied()).collect()
        } else {
            Default::default()
        };
        // The overlay follows the search shown and the replay's step: a step changes the cells
        // its events name (and the node being expanded), until the last shows the path.
        let events = &search.events;
        let changed = |a: usize, b: usize| -> Option<Vec<Cell>> {
            let between = events.get(a.min(b)..a.max(b))?;
            let mut cells = Vec::with_capacity(between.len());
            for event in between {
                match *event {
                    SearchEvent::Opened { node, .. }
                    | SearchEvent::Improved { node, .. }
                    | SearchEvent::Expanded { node, .. }
                    | SearchEvent::Deferred { node, .. }
                    | SearchEvent::CutOff { node, .. } => cells.push(map.cell(node)),
                    SearchEvent::Jumped { from, to, .. } => {
                        cells.push(map.cell(from));
                        cells.push(map.cell(to));
                    }
                    SearchEvent::Finished { .. } => return None,
                    SearchEvent::Met { node, .. }
                    | SearchEvent::Inconsistent { node, .. }
                    | SearchEvent::Raised { node, .. }
                    | SearchEvent::Consistent { node, .. }
                    | SearchEvent::Edited { node } => cells.push(map.cell(node)),
                    SearchEvent::IterationStarted { .. }
                    | SearchEvent::Backtracked { .. }
                    | SearchEvent::Turned { .. } => {}
                }
            }
            Some(cells)
        };
        let content = TileContent {
            key: content_key((search.shown, document.revision())),
            step: replay.cursor(),
            marked: replay.current().map(|i| map.cell(i)).into_iter().collect(),
            changed: &changed,
        };
        paint_tiles(painter, view, map, texture, Some(content), |(x, y)| {
            let i = map.index((x, y));
            if replay.current() == Some(i) {
                Some(CURRENT)
            } else if path_cells.contains(&(x, y)) {
                Some(PATH_CELL)
            } else {
                let backward = replay.reached_backward(i);
                match replay.status(i) {
                    NodeStatus::Open if backward => Some(BACK_OPEN),
                    NodeStatus::Open => Some(OPEN),
                    NodeStatus::Later => Some(LATER),
                    NodeStatus::Closed if backward => Some(BACK_CLOSED),
                    NodeStatus::Closed => {
                        let times = replay.expansions(i).min(6) as u8;
                        Some(Color32::from_rgb(
                            CLOSED.r(),
                            CLOSED.g(),
                            CLOSED.b().saturating_add(times * 10),
                        ))
                    }
                    NodeStatus::Unseen => None,
                }
            }
        });
        self.paint_clearance(painter, view);
        if let Some(path) = replay.ida_path().filter(|_| !replay.is_finished()) {
            // IDA*'s path: everything it remembers.
            let width = map.width().max(1);
            let points: Vec<Pos2> = path
                .nodes()
                .iter()
                .map(|p| {
                    let (x, y) = (p.node % width, p.node / width);
                    view.screen_from_world(Vec2::new(x as f64 + 0.5, y as f64 + 0.5))
                })
                .collect();
            painter.add(egui::Shape::line(points, Stroke::new(3.0, IDA_PATH)));
        }
        self.paint_jump_distances(painter, view, document);
        paint_scans(painter, view, search, map.width());
        paint_keys(painter, view, search, map.width());
        if let Some(next) = search.next_to_expand(map) {
            let cell = cell_rect(view, next);
            painter.rect_stroke(
                cell.expand(1.0),
                0.0,
                Stroke::new(2.0, Color32::WHITE),
                egui::StrokeKind::Outside,
            );
        }
        if replay.is_finished()
            && self.walk.is_none()
            && let Some(r) = result
        {
            let points: Vec<Pos2> = r
                .path
                .iter()
                .map(|&(x, y)| view.screen_from_world(Vec2::new(x as f64 + 0.5, y as f64 + 0.5)))
                .collect();
            painter.add(Shape::line(points, Stroke::new(3.0, FOUND_PATH)));
        }
        let radius = marker_radius(view);
        for (cell, color, label) in [
            (self.start, Color32::from_rgb(120, 230, 140), "S"),
            (self.goal, Color32::from_rgb(250, 110, 110), "G"),
        ] {
            let at = view.screen_from_world(Vec2::new(cell.0 as f64 + 0.5, cell.1 as f64 + 0.5));
            painter.circle_filled(at, radius, color);
            painter.text(
                at,
                egui::Align2::CENTER_CENTER,
                label,
                egui::FontId::proportional(radius * 1.2),
                Color32::BLACK,
            );
        }
    }
}

impl TileMapScene {
    /// D* Lite's agent: where it has walked (a thin line), its path on from where it stands
    /// (the path's colour) and itself, a disc marked A; with the cells whose tiles the repair
    /// shown took in outlined.
    fn paint_walk(&self, painter: &egui::Painter, view: View) {
        let Some(walk) = &self.walk else {
            return;
        };
        let centre =
            |(x, y): Cell| view.screen_from_world(Vec2::new(x as f64 + 0.5, y as f64 + 0.5));
        let width = self.searched_map.width().max(1);
        let upto = self.search.replay.cursor().min(self.search.events.len());
        for event in self.search.events.get(..upto).unwrap_or_default() {
            if let SearchEvent::Edited { node } = *event {
                painter.rect_stroke(
                    cell_rect(view, (node % width, node / width)).shrink(1.0),
                    0.0,
                    Stroke::new(2.0, EDITED),
                    egui::StrokeKind::Inside,
                );
            }
        }
        let trail: Vec<Pos2> = walk.trail().iter().map(|&c| centre(c)).collect();
        painter.add(Shape::line(trail, Stroke::new(2.0, TRAIL)));
        if self.search.replay.is_finished()
            && let Some((path, _)) = walk.path()
        {
            let points: Vec<Pos2> = path.iter().map(|&c| centre(c)).collect();
            painter.add(Shape::line(points, Stroke::new(3.0, FOUND_PATH)));
        }
        let radius = marker_radius(view);
        let at = centre(walk.agent());
        painter.circle_filled(at, radius, AGENT);
        painter.circle_stroke(at, radius, Stroke::new(1.5, Color32::BLACK));
        painter.text(
            at,
            egui::Align2::CENTER_CENTER,
            "A",
            egui::FontId::proportional(radius * 1.2),
            Color32::BLACK,
        );
    }
}

/// D* Lite's keys in the cells of its open list at the step shown, `k1` over `k2`, once the
/// cells are large enough to hold them.
fn paint_keys(painter: &egui::Painter, view: View, search: &super::RecordedSearch, width: usize) {
    if search.algorithm.kind() != crate::grid::AlgorithmKind::DStarLite
        || view.camera.scale < JUMP_NUMBERS_MIN_CELL
    {
        return;
    }
    let Some(frontier) = search.replay.frontier() else {
        return;
    };
    let width = width.max(1);
    let size = (view.camera.scale as f32 * 0.22).clamp(8.0, 14.0);
    let visible = painter.clip_rect();
    // In no order: each is drawn in its own cell (ordering them all would cost every frame).
    for entry in frontier.entries() {
        let Some([k1, k2]) = entry.key else {
            continue;
        };
        let cell = cell_rect(view, (entry.node % width, entry.node / width));
        if !visible.intersects(cell) {
            continue;
        }
        painter.rect_filled(cell.shrink(2.0), 2.0, JUMP_BACKING);
        painter.text(
            cell.center(),
            egui::Align2::CENTER_CENTER,
            format!("{k1:.1}\n{k2:.1}"),
            egui::FontId::monospace(size),
            Color32::WHITE,
        );
    }
}

/// Jump Point Search's scans of the expansion shown (from its expansion to the step shown):
/// each as an arrow from the jump point to where it stopped, a forced neighbour ringed and
/// the wall that forces it crossed.
fn paint_scans(painter: &egui::Painter, view: View, search: &super::RecordedSearch, width: usize) {
    use crate::search::JumpStop;
    if !matches!(
        search.algorithm.kind(),
        crate::grid::AlgorithmKind::Jps | crate::grid::AlgorithmKind::JpsPlus
    ) {
        return;
    }
    let events = &search.events;
    let upto = search.replay.cursor().min(events.len());
    let Some(recent) = events.get(..upto) else {
        return;
    };
    let since = recent
        .iter()
        .rposition(|e| matches!(e, SearchEvent::Expanded { .. }))
        .map_or(0, |k| k + 1);
    let width = width.max(1);
    let centre = |i: usize| {
        view.screen_from_world(Vec2::new(
            (i % width) as f64 + 0.5,
            (i / width) as f64 + 0.5,
        ))
    };
    let size = (view.camera.scale as f32 * 0.35).clamp(3.0, 10.0);
    for event in recent.get(since..).unwrap_or_default() {
        let SearchEvent::Jumped { from, to, stop, .. } = *event else {
            continue;
        };
        let colour = if stop == JumpStop::Blocked {
            SCAN_BLOCKED
        } else {
            SCAN
        };
        let (a, b) = (centre(from), centre(to));
        let stroke = Stroke::new(2.0, colour);
        painter.line_segment([a, b], stroke);
        // A head of a fixed size (egui's arrow scales its head with the length).
        let along = (b - a).normalized();
        if along.is_finite() {
            let back = b - along * size * 1.4;
            let across = egui::vec2(-along.y, along.x) * size * 0.7;
            painter.line_segment([b, back + across], stroke);
            painter.line_segment([b, back - across], stroke);
        }
        if let JumpStop::Forced { forced, wall } = stop {
            painter.circle_stroke(centre(forced), size, Stroke::new(2.0, FORCED));
            let w = centre(wall);
            let d = egui::vec2(size, size) * 0.8;
            painter.line_segment([w - d, w + d], Stroke::new(2.0, FORCED));
            painter.line_segment(
                [w + egui::vec2(d.x, -d.y), w - egui::vec2(d.x, -d.y)],
                Stroke::new(2.0, FORCED),
            );
        }
    }
}

/// Where `cell` is on the screen.
fn cell_rect(view: View, (x, y): Cell) -> Rect {
    Rect::from_min_max(
        view.screen_from_world(Vec2::new(x as f64, y as f64)),
        view.screen_from_world(Vec2::new(x as f64 + 1.0, y as f64 + 1.0)),
    )
}

/// The radius the start and goal markers are drawn with: most of a cell, at least a few pixels
/// so that they can be seen (and grabbed) on a large map.
fn marker_radius(view: View) -> f32 {
    (view.camera.scale as f32 * 0.4).clamp(5.0, 14.0)
}

/// The cell size, in pixels, from which JPS+'s eight numbers a cell are drawn.
pub(super) const JUMP_NUMBERS_MIN_CELL: f64 = 36.0;
/// Behind a cell's JPS+ numbers.
const JUMP_BACKING: Color32 = Color32::from_rgba_premultiplied(0, 0, 0, 170);
/// A JPS+ number naming a jump point.
const JUMP_TO_POINT: Color32 = Color32::from_rgb(170, 255, 150);
/// A JPS+ number naming a wall.
const JUMP_TO_WALL: Color32 = Color32::from_rgb(165, 165, 175);

/// A cell the search has open (or in Fringe's now list).
const OPEN: Color32 = Color32::from_rgb(222, 170, 52);
/// A cell a bidirectional search's backward half has open.
const BACK_OPEN: Color32 = Color32::from_rgb(120, 220, 200);
/// A cell a bidirectional search's backward half has expanded.
const BACK_CLOSED: Color32 = Color32::from_rgb(40, 120, 110);
/// D* Lite's agent.
const AGENT: Color32 = Color32::from_rgb(110, 200, 255);
/// Where D* Lite's agent has walked.
const TRAIL: Color32 = Color32::from_rgb(200, 200, 210);
/// A cell whose tile the repair shown took in.
const EDITED: Color32 = Color32::from_rgb(255, 80, 220);
/// A cell in Fringe's later list, or cut off by IDA* in this pass.
const LATER: Color32 = Color32::from_rgb(190, 120, 220);
/// An expanded cell (brighter each time IDA* expands it again).
const CLOSED: Color32 = Color32::from_rgb(64, 112, 186);
/// The cell expanded at the shown step.
const CURRENT: Color32 = Color32::from_rgb(226, 72, 72);
/// A cell of the path found.
const PATH_CELL: Color32 = Color32::from_rgb(255, 150, 40);
/// The path found, drawn through the cells' centres.
const FOUND_PATH: Color32 = Color32::from_rgb(255, 230, 120);
/// IDA*'s path (its stack).
const IDA_PATH: Color32 = Color32::from_rgb(250, 110, 200);
/// A scan of Jump Point Search that found a jump point, one that met a wall, and a forced
/// neighbour with its wall.
const SCAN: Color32 = Color32::from_rgb(120, 230, 255);
const SCAN_BLOCKED: Color32 = Color32::from_rgb(150, 150, 160);
const FORCED: Color32 = Color32::from_rgb(255, 90, 200);
