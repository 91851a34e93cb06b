//! The navmesh view's editor: tools that draw obstacles, doors and area shapes on the canvas,
//! select, move, resize and delete them, open and close doors and paint area types; what they
//! draw; undo and redo. The panel with the tools and the area costs is `edit_panel.rs`.

use super::NavmeshScene;
use crate::app::camera::View;
use crate::geom::Vec2;
use crate::navmesh::areas::{AreaCosts, AreaId};
use crate::navmesh::edit::{EditError, Edits, MeshEditor, Shape, ShapeKind};
use crate::search::NodeStatus;
use egui::{Color32, Pos2, Shape as Paint, Stroke, Ui, vec2};

/// What a left click or drag on the canvas does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tool {
    /// Place the start and goal, drag them, pan.
    #[default]
    Navigate,
    /// Select shapes, move them, resize one by its corners, delete them.
    Select,
    /// Drag a rectangle.
    Rectangle,
    /// Drag a circle out from its centre.
    Circle,
    /// Click a polygon's corners.
    Polygon,
    /// Paint triangles with an area type.
    Paint,
    /// Open or close a door with a click.
    Doors,
    /// Place off-mesh links: click the start, click the end; drag an end; click one to
    /// select it.
    Link,
}

impl Tool {
    /// Every tool, in the panel's order.
    pub const ALL: [Tool; 8] = [
        Tool::Navigate,
        Tool::Select,
        Tool::Rectangle,
        Tool::Circle,
        Tool::Polygon,
        Tool::Paint,
        Tool::Doors,
        Tool::Link,
    ];

    /// Its name on the panel.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Navigate => "Start/goal",
            Tool::Select => "Select",
            Tool::Rectangle => "Rectangle",
            Tool::Circle => "Circle",
            Tool::Polygon => "Polygon",
            Tool::Paint => "Paint",
            Tool::Doors => "Doors",
            Tool::Link => "Link",
        }
    }

    /// Its key (as the scene's key table gives it).
    pub fn key(self) -> Option<egui::Key> {
        crate::app::keys::key_of(super::KEYS, &super::MeshKey::Tool(self))
    }

    /// What it does, for its tooltip.
    pub fn about(self) -> &'static str {
        match self {
            Tool::Navigate => {
                "Click: start, right click: goal, drag S or G to move them, drag elsewhere to pan"
            }
            Tool::Select => {
                "Click a shape to select it (Shift+click: several), drag to move, drag a corner handle to resize, Delete to remove"
            }
            Tool::Rectangle => "Drag a rectangle from corner to corner",
            Tool::Circle => "Drag a circle out from its centre (a polygon of the sides set below)",
            Tool::Polygon => {
                "Click the corners; Enter, a double click or a click on the first corner closes it; Backspace takes the last corner back; Escape drops it"
            }
            Tool::Paint => "Click or drag over triangles to give them the area type chosen below",
            Tool::Doors => "Click a door to open or close it (O does it with any tool)",
            Tool::Link => {
                "Click a link's start, then its end (a jump, drop, ladder or teleport the searches may take); drag an end to move it; click a link to select it, Delete removes it"
            }
        }
    }
}

/// What the drawing tools make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DrawAs {
    /// An obstacle: the surface it covers is removed.
    #[default]
    Obstacle,
    /// A door, drawn closed.
    Door,
    /// An area of the chosen type, the mesh split along its outline.
    Area,
}

/// A drag in progress.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Gesture {
    /// A rectangle from `from` to the pointer.
    Rectangle { from: Vec2, to: Vec2 },
    /// A circle about `centre` through the pointer.
    Circle { centre: Vec2, through: Vec2 },
    /// The selected shapes, as they were, moved by the pointer's travel from `from`.
    Move {
        from: Vec2,
        originals: Vec<(usize, Shape)>,
    },
    /// One shape stretched from the corner opposite `fixed` to the pointer.
    Resize {
        index: usize,
        original: Shape,
        fixed: Vec2,
    },
    /// A stroke of paint.
    Paint,
    /// An end of link `index` (of the edits') dragged: its end when `end`, else its start.
    LinkEnd {
        index: usize,
        end: bool,
        original: crate::navmesh::links::OffMeshLink,
    },
}

/// The editor's state in the view (the mesh and its edits are in [`MeshEditor`]).
#[derive(Debug, Clone)]
pub struct EditState {
    /// The tool in hand.
    pub tool: Tool,
    /// What the drawing tools make.
    pub draw_as: DrawAs,
    /// The area type painted and given to area shapes.
    pub area: AreaId,
    /// Sides of the polygon a circle becomes.
    pub circle_sides: usize,
    /// The shapes selected, by index.
    pub selected: Vec<usize>,
    /// The corners of the polygon being drawn.
    pub polygon: Vec<Vec2>,
    pub(super) gesture: Option<Gesture>,
    /// What crossing each area type costs.
    pub costs: AreaCosts,
    /// The Link tool's settings and the link selected.
    pub link: super::links::LinkTool,
    /// The edits as last saved or opened: the mesh is unsaved when they differ.
    pub saved: Edits,
    /// Bumped by every change of the edited mesh.
    pub revision: u64,
}

impl Default for EditState {
    fn default() -> Self {
        Self {
            tool: Tool::default(),
            draw_as: DrawAs::default(),
            area: 2, // mud
            circle_sides: crate::navmesh::edit::shape::DEFAULT_CIRCLE_SIDES,
            selected: Vec::new(),
            polygon: Vec::new(),
            gesture: None,
            costs: AreaCosts::default(),
            link: super::links::LinkTool::default(),
            saved: Edits::default(),
            revision: 0,
        }
    }
}

/// How close (in pixels) a click must be to a corner handle or an outline to grab it.
const GRAB: f32 = 8.0;

impl NavmeshScene {
    /// The editor of the mesh shown.
    pub fn editor(&self) -> &MeshEditor {
        self.view.editor()
    }

    /// True when the mesh has edits not saved.
    pub fn has_unsaved_edits(&self) -> bool {
        self.view.editor().edits() != &self.edit.saved
    }

    /// How many edits have changed the mesh since the scene began (the recovery file is kept
    /// up to date by it).
    pub fn edit_revision(&self) -> u64 {
        self.edit.revision
    }

    /// Counts the edits shown as saved (they were written, or the user let them go).
    pub fn mark_edits_saved(&mut self) {
        self.edit.saved = self.view.editor().edits().clone();
    }

    /// Changes the mesh through its editor, then shows the edited mesh and searches it again;
    /// a refused edit leaves everything as it was and says why in the status bar.
    pub fn edit_mesh<R>(
        &mut self,
        edit: impl FnOnce(&mut MeshEditor) -> Result<R, EditError>,
    ) -> Option<R> {
        let (answer, changed) = self.view.edit(edit);
        let shapes = self.view.editor().shapes().len();
        self.edit.selected.retain(|&i| i < shapes);
        match answer {
            Ok(answer) => {
                if changed {
                    self.after_edit();
                }
                Some(answer)
            }
            Err(error) => {
                self.screen.pending_notice = Some(format!("Not changed: {error}"));
                None
            }
        }
    }

    /// Undoes the last edit of the mesh; false when there was none.
    pub fn undo_edit(&mut self) -> bool {
        self.edit.gesture = None;
        self.edit_mesh(|editor| Ok(editor.undo())).unwrap_or(false)
    }

    /// Makes the last undone edit again; false when there was none.
    pub fn redo_edit(&mut self) -> bool {
        self.edit.gesture = None;
        self.edit_mesh(|editor| Ok(editor.redo())).unwrap_or(false)
    }

    /// What follows a change of the edited mesh: its counts, outline and checks, and the
    /// search on it.
    fn after_edit(&mut self) {
        self.edit.revision += 1;
        // As after moving the start: the new answer shown whole (the steps can be replayed).
        self.query.playback.cursor = usize::MAX;
        self.query.playback.playing = false;
        self.diagnostics.invalidate();
        if self.view.mesh().triangles().len() >= super::jobs::BACKGROUND_TRIANGLES {
            // The last path stays, drawn faintly, until the new search answers; the old
            // search's triangles are not this mesh's.
            self.query.previous_path = self
                .query
                .timeline
                .path
                .as_ref()
                .map(|p| p.traced().0)
                .or(self.query.previous_path.take());
            self.query.timeline = Default::default();
            self.query.replay =
                crate::navmesh::timeline::TimelineReplay::new(self.view.mesh().triangles().len());
        }
        self.rerun();
    }

    /// The shape a drawing tool makes from `corners`, on the floor under `at`.
    fn new_shape(
        &self,
        make: Result<Shape, crate::navmesh::edit::ShapeError>,
    ) -> Result<Shape, EditError> {
        let kind = match self.edit.draw_as {
            DrawAs::Obstacle => ShapeKind::Obstacle,
            DrawAs::Door => ShapeKind::Door { open: false },
            DrawAs::Area => ShapeKind::Area {
                area: self.edit.area,
            },
        };
        let mut shape = make?;
        shape.kind = kind;
        Ok(self.on_floor(shape))
    }

    /// `shape` tied to the floor under its first corner when floors are stacked there (its
    /// centre or a corner has more than one triangle under it); otherwise it cuts whatever is
    /// under it.
    fn on_floor(&self, shape: Shape) -> Shape {
        let base = self.view.editor().base();
        let corners = shape.corners();
        let (lo, hi) = shape.bounds();
        let stacked = corners
            .iter()
            .copied()
            .chain([lo.midpoint(hi)])
            .any(|p| base.triangles_at(p).len() > 1);
        if !stacked {
            return shape;
        }
        let floor = corners
            .first()
            .and_then(|&p| self.view.editor().base_triangle_under(p))
            .or_else(|| base.triangle_at(lo.midpoint(hi)));
        shape.on_floor(floor)
    }

    /// Adds a drawn shape and selects it.
    fn add_drawn(&mut self, make: Result<Shape, crate::navmesh::edit::ShapeError>) {
        match self.new_shape(make) {
            Ok(shape) => {
                if let Some(index) = self.edit_mesh(|editor| editor.add_shape(shape)) {
                    self.edit.selected = vec![index];
                }
            }
            Err(error) => self.screen.pending_notice = Some(format!("Not drawn: {error}")),
        }
    }

    /// Opens or closes the door under `p`; true when there was one.
    pub fn toggle_door_at(&mut self, p: Vec2, tolerance: f64) -> bool {
        let door = self.view.editor().shapes().iter().rposition(|s| {
            matches!(s.kind, ShapeKind::Door { .. })
                && (s.contains(p) || s.distance_to_outline(p) <= tolerance)
        });
        match door {
            Some(index) => {
                self.edit_mesh(|editor| editor.toggle_door(index));
                true
            }
            None => false,
        }
    }

    /// Removes the selected shapes.
    pub fn delete_selected(&mut self) {
        if self.edit.selected.is_empty() {
            return;
        }
        let selected = std::mem::take(&mut self.edit.selected);
        self.edit_mesh(|editor| editor.remove_shapes(&selected));
    }

    /// The tool keys, Delete, Enter, Backspace, O and Escape (not while typing).
    pub(super) fn edit_keys(&mut self, ui: &Ui, pointer: Option<Vec2>, tolerance: f64) {
        use super::MeshKey;
        for key in crate::app::keys::pressed(ui, super::KEYS) {
            match key {
                MeshKey::Tool(tool) => self.choose_tool(tool),
                MeshKey::Escape if !self.edit.polygon.is_empty() => self.edit.polygon.clear(),
                MeshKey::Escape if self.edit.link.pending.is_some() => {
                    self.edit.link.pending = None;
                }
                MeshKey::Escape if self.edit.tool != Tool::Navigate => {
                    self.choose_tool(Tool::Navigate)
                }
                MeshKey::ClosePolygon if self.edit.tool == Tool::Polygon => self.close_polygon(),
                MeshKey::Backspace if !self.edit.polygon.is_empty() => {
                    self.edit.polygon.pop();
                }
                MeshKey::Delete | MeshKey::Backspace if self.edit.tool == Tool::Link => {
                    self.delete_selected_link();
                }
                MeshKey::Delete | MeshKey::Backspace => self.delete_selected(),
                MeshKey::Door => {
                    if let Some(p) = pointer {
                        self.toggle_door_at(p, tolerance);
                    }
                }
                _ => {}
            }
        }
    }

    /// Takes `tool` in hand, dropping a polygon half drawn.
    pub fn choose_tool(&mut self, tool: Tool) {
        if tool != self.edit.tool {
            self.edit.polygon.clear();
            self.edit.link.pending = None;
            self.edit.gesture = None;
        }
        self.edit.tool = tool;
    }

    /// Closes the polygon being drawn into a shape.
    fn close_polygon(&mut self) {
        let corners = std::mem::take(&mut self.edit.polygon);
        if corners.len() >= 3 {
            self.add_drawn(Shape::polygon(&corners, ShapeKind::Obstacle));
        }
    }

    /// A click or drag with an editing tool; false for the start/goal tool (the caller
    /// handles those).
    pub(super) fn edit_input(&mut self, ui: &Ui, response: &egui::Response, view: View) -> bool {
        if self.edit.tool == Tool::Navigate {
            return false;
        }
        let world = |pos: Pos2| view.world_from_screen(pos);
        let tolerance = f64::from(GRAB) / view.camera.scale;
        let press = ui
            .input(|i| i.pointer.press_origin())
            .or(response.interact_pointer_pos());
        let pointer = response.interact_pointer_pos();
        let primary = ui.input(|i| i.pointer.primary_down() || i.pointer.primary_released());

        if response.drag_started()
            && primary
            && let Some(press) = press
        {
            let at = world(press);
            self.edit.gesture = match self.edit.tool {
                Tool::Rectangle => Some(Gesture::Rectangle { from: at, to: at }),
                Tool::Circle => Some(Gesture::Circle {
                    centre: at,
                    through: at,
                }),
                Tool::Select => self.grab(press, view),
                Tool::Paint => {
                    self.view.begin_drag();
                    Some(Gesture::Paint)
                }
                Tool::Link => self.link_end_at(press, view).map(|(index, original, end)| {
                    self.view.begin_drag();
                    self.edit.link.selected = Some(index);
                    Gesture::LinkEnd {
                        index,
                        end,
                        original,
                    }
                }),
                _ => None,
            };
            if matches!(
                self.edit.gesture,
                Some(Gesture::Move { .. } | Gesture::Resize { .. })
            ) {
                self.view.begin_drag();
            }
        }
        if response.dragged()
            && let Some(pos) = pointer
        {
            let at = world(pos);
            match self.edit.gesture.clone() {
                Some(Gesture::Rectangle { from, .. }) => {
                    self.edit.gesture = Some(Gesture::Rectangle { from, to: at });
                }
                Some(Gesture::Circle { centre, .. }) => {
                    self.edit.gesture = Some(Gesture::Circle {
                        centre,
                        through: at,
                    });
                }
                Some(Gesture::Move { from, originals }) => {
                    let offset = at - from;
                    let moved: Vec<(usize, Shape)> = originals
                        .iter()
                        .map(|(i, s)| (*i, s.moved(offset)))
                        .collect();
                    self.edit_mesh(|editor| editor.drag_shapes(&moved));
                }
                Some(Gesture::Resize {
                    index,
                    original,
                    fixed,
                }) => {
                    let resized = original.fitted(fixed, at);
                    self.edit_mesh(|editor| editor.drag_shape(index, resized));
                }
                Some(Gesture::Paint) => {
                    let area = self.edit.area;
                    self.edit_mesh(|editor| editor.paint_stroke(&[at], area));
                }
                Some(Gesture::LinkEnd {
                    index,
                    end,
                    original,
                }) => {
                    // An end goes only where the mesh is.
                    if self.view.mesh().triangle_at(at).is_some() {
                        let mut link = original;
                        if end {
                            link.to = at;
                        } else {
                            link.from = at;
                        }
                        self.edit_mesh(|editor| editor.drag_link(index, link));
                    }
                }
                None => self.screen.camera.pan(response.drag_delta()),
            }
        }
        if response.drag_stopped() {
            match self.edit.gesture.take() {
                Some(Gesture::Rectangle { from, to }) => {
                    self.add_drawn(Shape::rectangle(from, to, ShapeKind::Obstacle));
                }
                Some(Gesture::Circle { centre, through }) => {
                    let sides = self.edit.circle_sides;
                    self.add_drawn(Shape::circle(
                        centre,
                        centre.distance(through),
                        sides,
                        ShapeKind::Obstacle,
                    ));
                }
                Some(
                    Gesture::Move { .. }
                    | Gesture::Resize { .. }
                    | Gesture::Paint
                    | Gesture::LinkEnd { .. },
                ) => {
                    self.view.end_drag();
                }
                None => {}
            }
        }
        if response.clicked()
            && let Some(pos) = pointer
        {
            let at = world(pos);
            let shift = ui.input(|i| i.modifiers.shift);
            match self.edit.tool {
                Tool::Select => {
                    let hit = self.view.editor().shape_at(at, tolerance);
                    match (hit, shift) {
                        (Some(i), true) => {
                            if let Some(k) = self.edit.selected.iter().position(|&s| s == i) {
                                self.edit.selected.remove(k);
                            } else {
                                self.edit.selected.push(i);
                            }
                        }
                        (Some(i), false) => self.edit.selected = vec![i],
                        (None, true) => {}
                        (None, false) => self.edit.selected.clear(),
                    }
                }
                Tool::Polygon => {
                    let closes = self.edit.polygon.len() >= 3
                        && self.edit.polygon.first().is_some_and(|&first| {
                            view.screen_from_world(first).distance(pos) < GRAB
                        });
                    if closes {
                        self.close_polygon();
                    } else {
                        self.edit.polygon.push(at);
                    }
                }
                Tool::Paint => {
                    let area = self.edit.area;
                    self.edit_mesh(|editor| editor.paint(&[at], area));
                }
                Tool::Doors => {
                    if !self.toggle_door_at(at, tolerance) {
                        self.screen.pending_notice =
                            Some("No door there: draw one with \"Draw as: door\"".into());
                    }
                }
                Tool::Link => self.link_click(pos, at, view),
                Tool::Navigate | Tool::Rectangle | Tool::Circle => {}
            }
        }
        if response.double_clicked() && self.edit.tool == Tool::Polygon {
            // The double click's second click added a corner where the first did.
            self.edit
                .polygon
                .dedup_by(|a, b| a.distance(*b) < tolerance);
            self.close_polygon();
        }
        self.edit_keys(ui, response.hover_pos().map(world), tolerance);
        true
    }

    /// What a press at `press` in the Select tool takes hold of: a corner handle of the one
    /// selected shape, or a shape (selected first, if it was not).
    fn grab(&mut self, press: Pos2, view: View) -> Option<Gesture> {
        let at = view.world_from_screen(press);
        if let [index] = self.edit.selected[..]
            && let Some(shape) = self.view.editor().shapes().get(index)
        {
            let (lo, hi) = shape.bounds();
            let corners = [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)];
            if let Some(k) = corners
                .iter()
                .position(|&c| view.screen_from_world(c).distance(press) < GRAB)
            {
                return Some(Gesture::Resize {
                    index,
                    original: shape.clone(),
                    fixed: corners[(k + 2) % 4],
                });
            }
        }
        let tolerance = f64::from(GRAB) / view.camera.scale;
        let hit = self.view.editor().shape_at(at, tolerance)?;
        if !self.edit.selected.contains(&hit) {
            self.edit.selected = vec![hit];
        }
        let originals = self
            .edit
            .selected
            .iter()
            .filter_map(|&i| Some((i, self.view.editor().shapes().get(i)?.clone())))
            .collect();
        Some(Gesture::Move {
            from: at,
            originals,
        })
    }

    /// Draws the shapes, the selection, what is being drawn and the last path while the new
    /// one is searched for.
    pub(super) fn paint_edits(&self, painter: &egui::Painter, view: View, pointer: Option<Pos2>) {
        let s = |p: Vec2| view.screen_from_world(p);
        if self.query.timeline.path.is_none()
            && let Some(previous) = &self.query.previous_path
        {
            let points: Vec<Pos2> = previous.iter().map(|&p| s(p)).collect();
            painter.add(Paint::line(
                points,
                Stroke::new(3.0, super::canvas::PATH.gamma_multiply(0.45)),
            ));
        }
        for (i, shape) in self.view.editor().shapes().iter().enumerate() {
            let ring: Vec<Pos2> = shape.corners().into_iter().map(s).collect();
            let (fill, stroke) = shape_look(shape, self.view.editor().base().area_names());
            if fill != Color32::TRANSPARENT {
                fill_polygon(painter, &shape.corners(), view, fill);
            }
            if matches!(shape.kind, ShapeKind::Door { open: true }) {
                let mut closed = ring.clone();
                if let Some(&first) = ring.first() {
                    closed.push(first);
                }
                crate::app::clipped::dashed_line(painter, &closed, stroke, 6.0, 4.0);
            } else {
                painter.add(Paint::closed_line(ring.clone(), stroke));
            }
            if self.edit.selected.contains(&i) {
                painter.add(Paint::closed_line(ring, Stroke::new(1.5, Color32::WHITE)));
                if self.edit.selected.len() == 1 {
                    let (lo, hi) = shape.bounds();
                    for c in [lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)] {
                        let r = egui::Rect::from_center_size(s(c), vec2(8.0, 8.0));
                        painter.rect_filled(r, 1.0, Color32::WHITE);
                        painter.rect_stroke(
                            r,
                            1.0,
                            Stroke::new(1.0, Color32::BLACK),
                            egui::StrokeKind::Inside,
                        );
                    }
                }
            }
        }
        let preview = Stroke::new(2.0, Color32::WHITE);
        match &self.edit.gesture {
            Some(Gesture::Rectangle { from, to }) => {
                let r = egui::Rect::from_two_pos(s(*from), s(*to));
                painter.rect_stroke(r, 0.0, preview, egui::StrokeKind::Middle);
            }
            Some(Gesture::Circle { centre, through }) => {
                painter.circle_stroke(s(*centre), s(*centre).distance(s(*through)), preview);
            }
            _ => {}
        }
        if !self.edit.polygon.is_empty() {
            let mut points: Vec<Pos2> = self.edit.polygon.iter().map(|&p| s(p)).collect();
            if let Some(pointer) = pointer {
                points.push(pointer);
            }
            painter.add(Paint::line(points.clone(), preview));
            for p in &points[..self.edit.polygon.len()] {
                painter.circle_filled(*p, 3.5, Color32::WHITE);
            }
            if let Some(first) = points.first() {
                painter.circle_stroke(*first, GRAB, Stroke::new(1.0, Color32::WHITE));
            }
        }
    }

    /// The legend's rows: each area type and kind of shape on the mesh, with its look, and the
    /// heat map's bands when it is shown.
    pub fn legend(&self) -> Vec<LegendRow> {
        let names = self.view.mesh().area_names();
        let present = self.view.areas_present();
        let mut rows: Vec<(Color32, Stroke, bool, String)> = Vec::new();
        for (a, name) in names.iter().enumerate() {
            if a > 0 && present & (1 << a) != 0 {
                let cost = self.edit.costs.of(a as AreaId);
                rows.push((
                    area_colour(a as AreaId, name),
                    Stroke::NONE,
                    false,
                    format!("{name}  × {}", crate::words::short_number(cost)),
                ));
            }
        }
        let shapes = self.view.editor().shapes();
        for (kind, label) in [
            (ShapeKind::Obstacle, "obstacle"),
            (ShapeKind::Door { open: false }, "door, closed"),
            (ShapeKind::Door { open: true }, "door, open"),
        ] {
            if shapes.iter().any(|s| s.kind == kind) {
                let probe = Shape {
                    outline: Vec::new(),
                    kind,
                    floor: None,
                };
                let (fill, stroke) = shape_look(&probe, names);
                rows.push((
                    fill,
                    stroke,
                    kind == ShapeKind::Door { open: true },
                    label.into(),
                ));
            }
        }
        if let Some(shrunk) = &self.view.mesh().raw().shrunk {
            rows.push((
                Color32::TRANSPARENT,
                Stroke::new(1.5, Color32::from_rgba_unmultiplied(230, 230, 240, 90)),
                false,
                format!(
                    "walls before the mesh was shrunk by {}",
                    crate::words::readable(shrunk.radius)
                ),
            ));
            if !shrunk.closed.is_empty() {
                rows.push((
                    Color32::from_rgb(240, 70, 70),
                    Stroke::NONE,
                    false,
                    "passage closed for the agent".into(),
                ));
            }
        }
        if self.settings.display.height_colours {
            for (colour, text) in self.height_legend() {
                rows.push((colour, Stroke::NONE, false, text));
            }
        }
        if !self.view.mesh().raw().dropped_polygons.is_empty() {
            rows.push((
                Color32::from_rgba_unmultiplied(140, 140, 150, 60),
                Stroke::NONE,
                false,
                "left out: too steep or facing down".into(),
            ));
        }
        if self.diagnostics.quality.heat_shown() {
            for (_, colour, text) in super::quality::HEAT_BANDS {
                rows.push((colour, Stroke::NONE, false, text.into()));
            }
        }
        let mut rows: Vec<LegendRow> = rows
            .into_iter()
            .map(|(fill, stroke, dashed, text)| LegendRow {
                fill,
                stroke,
                dashed,
                text,
                mark: None,
            })
            .collect();
        // Each kind of link present: its arc's colour.
        let links = self.view.mesh().links();
        for kind in crate::navmesh::links::LinkKind::ALL {
            if links.iter().any(|l| l.kind == kind) {
                rows.push(LegendRow::line(
                    super::links::link_colour(kind),
                    2.0,
                    format!("{} link: arrows its way, label number: cost", kind.name()),
                ));
            }
        }
        if let Some(walk) = &self.walk {
            rows.extend(walk.legend());
        }
        // The mesh's own lines, under everything else.
        use super::canvas::{BORDER, EDGE, NON_MANIFOLD};
        if self.view.summary().border_edges > 0 {
            rows.push(LegendRow::line(BORDER, 2.0, "wall: the mesh's border"));
        }
        if self.settings.display.edges {
            rows.push(LegendRow::line(EDGE, 1.0, "edge between two triangles"));
        }
        if self.view.summary().non_manifold_edges > 0 {
            rows.push(LegendRow::line(
                NON_MANIFOLD,
                3.0,
                "edge of three or more triangles",
            ));
        }
        rows
    }

    /// The legend of what the canvas shows (those present), in the corner of the canvas where
    /// it hides no marker, not the caption, and the least of the mesh.
    pub(super) fn paint_legend(
        &self,
        painter: &egui::Painter,
        view: crate::app::camera::View,
        caption: egui::Rect,
    ) -> Option<egui::Rect> {
        let mut rows = self.search_legend();
        rows.extend(self.legend());
        let mut marks = vec![
            view.screen_from_world(self.query.start),
            view.screen_from_world(self.query.goal),
        ];
        if let Some(path) = &self.query.timeline.path {
            marks.push(view.screen_from_world(path.start.point));
            marks.push(view.screen_from_world(path.goal.point));
        }
        if let Some(agent) = self.walk.as_ref().and_then(|walk| walk.agent()) {
            marks.push(view.screen_from_world(agent.position));
        }
        // The funnel being narrowed: its apex and sides' ends, and the portal examined.
        let funnel = &self.query.replay.funnel;
        if !funnel.done {
            if let Some(f) = funnel.funnel {
                marks.extend([f.apex, f.left, f.right].map(|p| view.screen_from_world(p)));
            }
            let portal = funnel
                .portal
                .and_then(|i| self.query.timeline.path.as_ref()?.portals.get(i));
            if let Some(portal) = portal {
                marks.extend([portal.left, portal.right].map(|p| view.screen_from_world(p)));
            }
        }
        // The paths, and the outline where the corridor left the shortest route.
        let screen = |points: &[Vec2]| -> Vec<Pos2> {
            points.iter().map(|&p| view.screen_from_world(p)).collect()
        };
        let mut lines = Vec::new();
        if let Some(path) = &self.query.timeline.path {
            lines.push(screen(&path.traced().0));
        }
        if let Some(optimal) = &self.query.timeline.optimal {
            lines.push(screen(&optimal.waypoints));
        }
        // The obstacles, doors and areas drawn on the mesh: the user's own work.
        for shape in self.view.editor().shapes() {
            let mut outline: Vec<Vec2> = shape
                .outline
                .iter()
                .map(|&[x, y]| Vec2::new(x, y))
                .collect();
            outline.extend(outline.first().copied());
            lines.push(screen(&outline));
        }
        if let Some(d) = self.query.gap.as_ref().and_then(|gap| gap.divergence)
            && d.triangle < self.view.mesh().triangles().len()
        {
            let [a, b, c] = self.view.mesh().corners(d.triangle);
            lines.push(screen(&[a, b, c, a]));
        }
        // The triangles the search has coloured (on any floor) count more than plain ground.
        let shows = |at: Pos2| {
            let holding = self.view.mesh().triangles_at(view.world_from_screen(at));
            if holding
                .iter()
                .any(|&t| self.query.replay.search.status(t) != NodeStatus::Unseen)
            {
                3
            } else {
                u32::from(!holding.is_empty())
            }
        };
        let keep = crate::app::legend::KeepClear {
            marks: &marks,
            taken: &[caption],
            lines: &lines,
            shows: &shows,
        };
        crate::app::legend::paint_legend(painter, view.rect, &rows, &keep)
    }
}

pub use crate::app::legend::LegendRow;

/// The colour an area type is drawn in (ground: none).
pub fn area_colour(area: AreaId, name: &str) -> Color32 {
    match name {
        "ground" => Color32::TRANSPARENT,
        "road" => Color32::from_rgb(170, 170, 150),
        "mud" => Color32::from_rgb(150, 100, 50),
        "water" => Color32::from_rgb(50, 120, 220),
        _ => {
            const OTHERS: [Color32; 6] = [
                Color32::from_rgb(200, 90, 200),
                Color32::from_rgb(90, 200, 200),
                Color32::from_rgb(220, 200, 70),
                Color32::from_rgb(120, 200, 90),
                Color32::from_rgb(230, 120, 90),
                Color32::from_rgb(140, 140, 240),
            ];
            OTHERS[usize::from(area) % OTHERS.len()]
        }
    }
}

/// How a shape is drawn: its fill and its outline.
fn shape_look(shape: &Shape, names: &[String]) -> (Color32, Stroke) {
    match shape.kind {
        ShapeKind::Obstacle => (
            Color32::from_rgba_unmultiplied(200, 60, 60, 60),
            Stroke::new(2.0, Color32::from_rgb(235, 80, 80)),
        ),
        ShapeKind::Door { open: false } => (
            Color32::from_rgba_unmultiplied(240, 160, 40, 90),
            Stroke::new(2.5, Color32::from_rgb(245, 170, 50)),
        ),
        ShapeKind::Door { open: true } => (
            Color32::TRANSPARENT,
            Stroke::new(2.0, Color32::from_rgb(120, 230, 140)),
        ),
        ShapeKind::Area { area } => {
            let name = names.get(usize::from(area)).map_or("", String::as_str);
            (
                Color32::TRANSPARENT,
                Stroke::new(1.5, area_colour(area, name)),
            )
        }
    }
}

/// Fills a simple polygon (any shape, not only convex) by its triangulation.
fn fill_polygon(painter: &egui::Painter, corners: &[Vec2], view: View, fill: Color32) {
    let mut mesh = egui::Mesh::default();
    for &p in corners {
        mesh.colored_vertex(view.screen_from_world(p), fill);
    }
    for [a, b, c] in crate::geom::triangulate_polygon(corners) {
        mesh.add_triangle(a as u32, b as u32, c as u32);
    }
    painter.add(Paint::mesh(mesh));
}
