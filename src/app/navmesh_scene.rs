//! The navmesh scene: a loaded mesh, a start and a goal, the recorded A* and funnel steps, and
//! the canvas that replays them. Controls, canvas, stats and event log are separate `*_ui`
//! functions; the app arranges them in panels.

use super::camera::{Camera, CanvasCamera, View, paint_tag};
use super::latest_worker::LatestWorker;
use super::mesh_query::{BACKGROUND_TRIANGLES, QueryJob};
use super::playback::Playback;
use super::timeline::{Replay, Timeline, TriangleStatus};
use super::walk_playback::WalkPlayback;
use crate::assets::{self, EmbeddedScene};
use crate::geom::Vec2;
use crate::navmesh::walk::WalkOptions;
use crate::navmesh::{
    CostModel, MidpointStates, NavMesh, PathStatus, Plane, QueryOptions, TriId, obj,
};
use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Ui, vec2};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// Where the current mesh came from.
#[derive(Debug, Clone, PartialEq)]
pub enum MeshSource {
    /// Compiled into the program.
    Embedded(EmbeddedScene),
    /// A file on disk.
    File(PathBuf),
    /// Made by a generator (benchmarks, tests); cannot be reloaded.
    Generated(String),
}

impl MeshSource {
    /// A short name for titles.
    pub fn name(&self) -> String {
        match self {
            MeshSource::Embedded(scene) => format!("{} (built in)", scene.name),
            MeshSource::File(path) => super::files::file_label(path),
            MeshSource::Generated(name) => name.clone(),
        }
    }
}

/// What to draw; persisted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DisplayOptions {
    /// Draw every edge (borders and non-manifold edges are always drawn).
    pub edges: bool,
    /// Number closed triangles in visit order.
    pub visit_numbers: bool,
    /// Label every triangle with its id (as the captions name them), instead of visit numbers.
    pub triangle_ids: bool,
    /// Arrows from each reached triangle to its parent.
    pub parent_arrows: bool,
    /// The corridor's portals during the funnel.
    pub portals: bool,
}

impl Default for DisplayOptions {
    fn default() -> Self {
        Self {
            edges: true,
            visit_numbers: true,
            triangle_ids: false,
            parent_arrows: false,
            portals: true,
        }
    }
}

/// The scene's persisted settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NavmeshSettings {
    /// A* step cost model.
    pub cost: CostModel,
    /// Heuristic weight (1 = A*, 0 = Dijkstra, more = greedier).
    pub heuristic_weight: f64,
    /// Plane OBJ files are projected onto.
    pub plane: Plane,
    /// Display toggles.
    pub display: DisplayOptions,
    /// How the agent walks the path.
    pub walk: WalkOptions,
}

impl Default for NavmeshSettings {
    fn default() -> Self {
        Self {
            cost: CostModel::Centroid,
            heuristic_weight: 1.0,
            plane: Plane::Xz,
            display: DisplayOptions::default(),
            walk: WalkOptions::default(),
        }
    }
}

/// Which marker a drag moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Drag {
    Start,
    Goal,
    Pan,
}

/// The navmesh scene's state.
pub struct NavmeshScene {
    /// Persisted settings.
    pub settings: NavmeshSettings,
    /// The mesh shown (shared with a query running on the worker).
    pub mesh: Arc<NavMesh>,
    /// Its counts, computed once per mesh (not every frame).
    summary: crate::navmesh::MeshSummary,
    /// Border and non-manifold edges, drawn even when the others are too dense to draw.
    outline_edges: Vec<usize>,
    /// Where it came from.
    pub source: MeshSource,
    /// Start point as asked for (world).
    pub start: Vec2,
    /// Goal point as asked for (world).
    pub goal: Vec2,
    /// The recorded steps of the current query.
    pub timeline: Timeline,
    /// The state at the playback cursor.
    pub replay: Replay,
    /// Playback position and speed.
    pub playback: Playback,
    /// The view: fitted to the mesh until the user pans or zooms.
    pub camera: CanvasCamera,
    drag: Option<Drag>,
    /// World position under the pointer, for the status bar.
    pub hover_world: Option<Vec2>,
    /// Set when the event log should scroll to the cursor.
    follow_log: bool,
    /// Where the canvas was drawn last frame.
    pub canvas_rect: Option<Rect>,
    /// The Diagnostics tab's state.
    pub diagnostics: super::diagnostics_panel::Diagnostics,
    /// Which tab the right panel shows.
    pub side_tab: SideTab,
    /// The mesh shown was repaired in memory and not saved since: replacing it asks first.
    pub unsaved_repair: bool,
    /// The agent walking the path, once asked for (dropped when the path changes).
    pub walk: Option<WalkPlayback>,
    /// Runs queries on large meshes off the UI thread.
    querier: LatestWorker<QueryJob, Timeline>,
    /// Bumped by every query asked for; the worker's answer to an older one is dropped.
    generation: u64,
    /// Where the playback cursor goes when the worker's answer arrives.
    resume_cursor: Option<usize>,
}

/// The tabs of the navmesh view's right panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SideTab {
    /// The recorded steps.
    #[default]
    Steps,
    /// What is wrong with the mesh.
    Diagnostics,
}

impl NavmeshScene {
    /// The scene on an embedded mesh, with its start and goal placed and the animation ready.
    pub fn embedded(scene: EmbeddedScene, settings: NavmeshSettings) -> Self {
        // The embedded meshes are tested to load; an empty fallback keeps this infallible.
        let mesh = obj::parse(scene.obj, scene.name, Plane::Xz)
            .or_else(|_| obj::parse(assets::ROOMS.obj, assets::ROOMS.name, Plane::Xz))
            .expect("the embedded meshes load");
        let mut this = Self {
            settings,
            summary: mesh.summary(),
            outline_edges: outline_edges(&mesh),
            mesh: Arc::new(mesh),
            source: MeshSource::Embedded(scene),
            start: Vec2::new(scene.start.0, scene.start.1),
            goal: Vec2::new(scene.goal.0, scene.goal.1),
            timeline: Timeline::default(),
            replay: Replay::default(),
            playback: Playback::default(),
            camera: CanvasCamera::default(),
            drag: None,
            hover_world: None,
            follow_log: true,
            canvas_rect: None,
            diagnostics: Default::default(),
            side_tab: SideTab::default(),
            unsaved_repair: false,
            walk: None,
            querier: LatestWorker::new("navlab mesh query", QueryJob::run),
            generation: 0,
            resume_cursor: None,
        };
        this.rerun();
        this
    }

    /// Loads a mesh from `source` with the current plane, without touching the scene.
    pub fn load(&self, source: &MeshSource) -> Result<NavMesh, String> {
        match source {
            MeshSource::Embedded(scene) => {
                obj::parse(scene.obj, scene.name, Plane::Xz).map_err(|e| e.to_string())
            }
            MeshSource::File(path) => {
                NavMesh::load(path, self.settings.plane).map_err(|e| e.to_string())
            }
            MeshSource::Generated(name) => {
                Err(format!("{name} was generated; there is no file to reload"))
            }
        }
    }

    /// Replaces the mesh: start and goal move to the source's defaults (or two far-apart points
    /// of the largest island), the view refits, and the animation is ready at step 0.
    pub fn set_mesh(&mut self, mesh: NavMesh, source: MeshSource) {
        self.set_mesh_at(mesh, source, None);
    }

    /// [`NavmeshScene::set_mesh`] with start and goal given (`None`: the source's defaults), so
    /// the search runs once, between them.
    pub fn set_mesh_at(
        &mut self,
        mesh: NavMesh,
        source: MeshSource,
        endpoints: Option<(Vec2, Vec2)>,
    ) {
        let (start, goal) = endpoints.unwrap_or_else(|| match &source {
            MeshSource::Embedded(scene) => (
                Vec2::new(scene.start.0, scene.start.1),
                Vec2::new(scene.goal.0, scene.goal.1),
            ),
            MeshSource::File(_) | MeshSource::Generated(_) => default_endpoints(&mesh),
        });
        self.replace_mesh(mesh);
        self.source = source;
        self.start = start;
        self.goal = goal;
        self.camera.fit_next_frame();
        self.playback.cursor = 0;
        self.playback.playing = false;
        self.rerun();
    }

    /// Replaces the mesh with a new version of the same file, keeping start, goal and view.
    pub fn reload_mesh(&mut self, mesh: NavMesh) {
        self.replace_mesh(mesh);
        self.rerun();
    }

    /// Takes `mesh` as the one shown, forgetting what was worked out on the last one (its
    /// query, while a large mesh's runs on the worker, would name other triangles).
    fn replace_mesh(&mut self, mesh: NavMesh) {
        self.summary = mesh.summary();
        self.outline_edges = outline_edges(&mesh);
        self.timeline = Timeline::default();
        self.replay = Replay::new(mesh.triangles().len());
        self.mesh = Arc::new(mesh);
        self.diagnostics.invalidate();
        self.unsaved_repair = false;
    }

    /// Runs the query again (after the mesh, an end point or an option changed), recording its
    /// steps: here for small meshes, on the worker for large ones (see
    /// [`BACKGROUND_TRIANGLES`]), whose answer [`NavmeshScene::poll_query`] shows when it
    /// arrives; until then the last answer stays.
    pub fn rerun(&mut self) {
        self.walk = None;
        self.generation += 1;
        let job = QueryJob {
            mesh: Arc::clone(&self.mesh),
            start: self.start,
            goal: self.goal,
            options: QueryOptions {
                cost: self.settings.cost,
                heuristic_weight: self.settings.heuristic_weight,
            },
        };
        let in_background = self.mesh.triangles().len() >= BACKGROUND_TRIANGLES;
        match self
            .querier
            .answer_or_submit(self.generation, job, in_background)
        {
            Some(timeline) => self.show_query(timeline),
            None => {
                // The cursor may ask for the end (usize::MAX): kept for the new steps.
                self.resume_cursor = Some(self.playback.cursor);
                self.playback.cursor = self.playback.cursor.min(self.timeline.len());
            }
        }
    }

    /// Shows a finished query: its steps replace the recorded ones, the replay keeps its step.
    fn show_query(&mut self, timeline: Timeline) {
        self.timeline = timeline;
        self.walk = None;
        self.replay = Replay::new(self.mesh.triangles().len());
        let cursor = self.resume_cursor.take().unwrap_or(self.playback.cursor);
        self.playback.cursor = cursor.min(self.timeline.len());
        self.replay.seek(&self.timeline, self.playback.cursor);
        self.follow_log = true;
    }

    /// Shows the worker's answer if it has arrived; returns true while it is still querying.
    pub fn poll_query(&mut self) -> bool {
        if let Some(timeline) = self.querier.take() {
            self.show_query(timeline);
        }
        self.is_querying()
    }

    /// Waits (up to a minute) for the worker's answer and shows it: for screenshots, launch
    /// options and tests.
    pub fn wait_for_query(&mut self) {
        if let Some(timeline) = self.querier.wait(std::time::Duration::from_secs(60)) {
            self.show_query(timeline);
        }
    }

    /// True while a query runs on the worker; the last answer is shown meanwhile.
    pub fn is_querying(&self) -> bool {
        self.querier.is_busy()
    }

    /// Moves the replay to the playback cursor.
    pub fn sync_replay(&mut self) {
        if self.replay.cursor() != self.playback.cursor {
            // Stepping back into the search leaves the walk (it walks the whole path).
            if self.playback.cursor < self.timeline.len() {
                self.walk = None;
            }
            self.replay.seek(&self.timeline, self.playback.cursor);
            self.follow_log = true;
        }
    }

    /// Sets the start and shows the new answer at once (the animation can be replayed).
    pub fn set_start(&mut self, p: Vec2) {
        self.start = p;
        self.playback.cursor = usize::MAX;
        self.playback.playing = false;
        self.rerun();
    }

    /// Sets the goal and shows the new answer at once.
    pub fn set_goal(&mut self, p: Vec2) {
        self.goal = p;
        self.playback.cursor = usize::MAX;
        self.playback.playing = false;
        self.rerun();
    }

    /// The canvas view of the last frame (for tests and tools that click on world points).
    pub fn last_view(&self) -> Option<View> {
        Some(View {
            camera: self.camera.get()?,
            rect: self.canvas_rect?,
        })
    }

    /// Refits the view on the next frame.
    pub fn fit_view(&mut self) {
        self.camera.fit_next_frame();
    }

    /// Centres the view on `at`, zoomed so that `extent` world units fill about 60 % of it.
    pub fn focus(&mut self, at: Vec2, extent: f64) {
        let rect = self
            .canvas_rect
            .unwrap_or(Rect::from_min_size(Pos2::ZERO, egui::vec2(800.0, 600.0)));
        let side = f64::from(rect.width().min(rect.height()));
        let scale = side * 0.6 / extent.max(1e-9);
        self.camera.set(Camera {
            center: [at.x, at.y],
            scale: if scale.is_finite() { scale } else { 20.0 },
        });
    }

    /// The Diagnostics tab; returns what the app should do (repair or save), having moved the
    /// view itself when a finding was clicked.
    pub fn diagnostics_ui(
        &mut self,
        ui: &mut Ui,
    ) -> Option<super::diagnostics_panel::DiagnosticsAction> {
        use super::diagnostics_panel::DiagnosticsAction;
        match self.diagnostics.ui(ui, &self.mesh) {
            Some(DiagnosticsAction::Focus { at, extent }) => {
                self.focus(at, extent);
                None
            }
            other => other,
        }
    }

    /// Cost model, heuristic weight and display toggles.
    pub fn controls_ui(&mut self, ui: &mut Ui) -> bool {
        let mut changed = false;
        ui.label("Step cost");
        changed |= ui
            .radio_value(
                &mut self.settings.cost,
                CostModel::Centroid,
                "Centroid to centroid",
            )
            .on_hover_text("As in the seed article: A* measures steps between triangle centres")
            .changed();
        changed |= ui
            .radio_value(
                &mut self.settings.cost,
                CostModel::Midpoint,
                "Edge midpoints",
            )
            .on_hover_text("As Detour: from the start through the midpoints of the edges crossed")
            .changed();
        changed |= ui
            .add(
                egui::Slider::new(&mut self.settings.heuristic_weight, 0.0..=3.0)
                    .text("Heuristic weight"),
            )
            .on_hover_text("1 = A*, 0 = Dijkstra, above 1 = greedier (not optimal)")
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
                .radio(d.visit_numbers && !d.triangle_ids, "visits")
                .on_hover_text("Number expanded triangles in the order A* expanded them")
                .clicked()
            {
                (d.visit_numbers, d.triangle_ids) = (true, false);
            }
            if ui
                .radio(d.triangle_ids, "ids")
                .on_hover_text("Label every triangle with its id, as the steps name them")
                .clicked()
            {
                (d.visit_numbers, d.triangle_ids) = (false, true);
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
        ui.separator();
        self.walk_controls_ui(ui);
        changed
    }

    /// Walk the path (W): an agent goes corner to corner, taking the next corner within the
    /// corner radius and turning at a bounded rate, as the seed's NPC does.
    fn walk_controls_ui(&mut self, ui: &mut Ui) {
        let can_walk = self
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
            .on_hover_text("The next corner is taken once the agent is this close (0.5 in the seed); larger rounds corners wider")
            .changed();
        changed |= ui
            .add(
                egui::Slider::new(&mut w.speed, 0.5..=6.0)
                    .suffix("/s")
                    .text("Walk speed"),
            )
            .on_hover_text("Units (metres in the seed) per second")
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

    /// Starts the agent on the path (again from the start once it has finished), or pauses it.
    pub fn toggle_walk(&mut self) {
        match &mut self.walk {
            Some(walk) if walk.playing => walk.playing = false,
            Some(walk) if !walk.finished() => walk.playing = true,
            _ => self.start_walk(),
        }
    }

    /// Walks the current path from its start, the replay at its end (the whole path shown).
    fn start_walk(&mut self) {
        self.playback.cursor = self.timeline.len();
        self.playback.playing = false;
        self.sync_replay();
        self.walk = self
            .timeline
            .path
            .as_ref()
            .filter(|p| p.waypoints.len() >= 2)
            .map(|p| WalkPlayback::new(&self.mesh, &p.waypoints, self.settings.walk));
    }

    /// Advances the walk by `dt` seconds; true while the agent walks.
    pub fn tick_walk(&mut self, dt: f64) -> bool {
        self.walk.as_mut().is_some_and(|w| w.tick(dt))
    }

    /// Numbers about the mesh and the current query, and the open-list chart.
    pub fn stats_ui(&mut self, ui: &mut Ui) {
        let s = &self.summary;
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
            if let Some(path) = &self.timeline.path {
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
        if let Some(path) = &self.timeline.path
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
        let points: Vec<[f64; 2]> = self
            .timeline
            .open_sizes()
            .iter()
            .enumerate()
            .map(|(i, &n)| [(i + 1) as f64, f64::from(n)])
            .collect();
        let cursor = self.playback.cursor.min(self.timeline.search_steps()) as f64;
        use super::chart_marks::{MARK_SPACING, round_marks};
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

    /// A*'s open list at the shown step, in the order A* takes it: triangles (centroid model),
    /// or with edge midpoints A*'s (triangle, entry edge) states, named "12 from 7".
    pub fn frontier_ui(&self, ui: &mut Ui) {
        let states = self.midpoint_states();
        let mesh = &self.mesh;
        let note = if states.is_some() {
            "With edge midpoints A* keeps a triangle once per edge it entered by: \"12 from 7\" is \
             triangle 12 entered from 7, at their shared edge's midpoint."
        } else {
            ""
        };
        super::playback::open_list_ui(
            ui,
            &self.replay.frontier,
            crate::search::ExpansionOrder::LowestF,
            self.replay.search_outcome.is_some(),
            ("", note),
            |node| match states {
                Some(states) => states.name(mesh, node),
                None => format!("triangle {node}"),
            },
        );
    }

    /// The midpoint model's states of the query shown (`None` for the centroid model, whose
    /// nodes are the triangles).
    fn midpoint_states(&self) -> Option<MidpointStates> {
        if self.settings.cost != CostModel::Midpoint {
            return None;
        }
        let path = self.timeline.path.as_ref()?;
        Some(MidpointStates::new(&self.mesh, &path.start, &path.goal))
    }

    /// The triangle A* expands next, while its search is being replayed.
    pub fn next_to_expand(&self) -> Option<TriId> {
        if self.replay.search_outcome.is_some() {
            return None;
        }
        let next = self
            .replay
            .frontier
            .next(crate::search::ExpansionOrder::LowestF, 1)?;
        let node = next.first()?.node;
        Some(match self.midpoint_states() {
            Some(states) => states.triangle_of(node),
            None => node,
        })
    }

    /// The steps that begin a phase: A*'s first and the funnel's first (step `k` shows the
    /// timeline's step `k - 1`).
    fn phase_starts(&self) -> Vec<usize> {
        let (len, search) = (self.timeline.len(), self.timeline.search_steps());
        let mut starts = Vec::new();
        if search > 0 {
            starts.push(1);
        }
        if len > search {
            starts.push(search + 1);
        }
        starts
    }

    /// Shows step `step`, paused (the step list follows).
    fn jump_to(&mut self, step: Option<usize>) {
        if let Some(step) = step {
            self.playback.playing = false;
            self.playback.cursor = step;
        }
    }

    /// Page Up / Page Down: back to where A* or the funnel starts, on to where the funnel
    /// starts; E: the step that expands the triangle under the pointer.
    pub fn replay_keys(&mut self, ui: &Ui) {
        let starts = self.phase_starts();
        let cursor = self.playback.cursor;
        match super::playback::page_key_pressed(ui) {
            Some(true) => self.jump_to(super::playback::next_start(&starts, cursor)),
            Some(false) => self.jump_to(super::playback::previous_start(&starts, cursor)),
            None => {}
        }
        if super::playback::expansion_key_pressed(ui) {
            let hovered = self.hover_world.and_then(|p| self.mesh.triangle_at(p));
            self.jump_to(hovered.and_then(|t| self.next_expansion_of(t)));
        }
    }

    /// The list of recorded steps; clicking one jumps there.
    pub fn event_log_ui(&mut self, ui: &mut Ui) {
        let starts = self.phase_starts();
        if starts.len() == 2 {
            ui.horizontal(|ui| {
                ui.label("Go to");
                if ui
                    .small_button("A*")
                    .on_hover_text("The first step of A* (Page Up)")
                    .clicked()
                {
                    self.jump_to(starts.first().copied());
                }
                if ui
                    .small_button("Funnel")
                    .on_hover_text(
                        "The first step of the funnel, once A* has found the corridor (Page Down)",
                    )
                    .clicked()
                {
                    self.jump_to(starts.get(1).copied());
                }
            });
        }
        let steps = self.timeline.steps();
        let jumped = super::playback::event_log_ui(
            ui,
            &mut self.playback,
            steps.len(),
            None,
            &mut self.follow_log,
            |k| steps[k - 1].explain(),
        );
        if jumped {
            self.sync_replay();
        }
    }

    /// The sentence for the step just taken, for the canvas caption.
    pub fn current_explanation(&self) -> String {
        if let Some(walk) = &self.walk {
            return walk.caption();
        }
        match self.playback.cursor.min(self.timeline.len()) {
            0 => "Ready: press Play (Space) or step (Right arrow). Left click: start, right click: goal."
                .to_string(),
            k => self.timeline.steps()[k - 1].explain(),
        }
    }

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
        super::camera::paint_caption(&painter, rect, self.current_explanation());

        if let Some(pointer) = response.hover_pos() {
            let world = view.world_from_screen(pointer);
            self.hover_world = Some(world);
            if let Some(t) = self.mesh.triangle_at(world) {
                let _ = response.on_hover_ui_at_pointer(|ui| self.triangle_tooltip_ui(ui, t));
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
        ui.label(format!("area {:.3}", tri.area));
        let r = &self.replay;
        if let (Some(&g), Some(&h)) = (r.g.get(t), r.h.get(t))
            && !g.is_nan()
        {
            ui.label(format!("g {g:.3}   h {h:.3}   f {:.3}", g + h));
            match r.parent.get(t) {
                Some(&p) if p != u32::MAX => ui.label(format!("parent: triangle {p}")),
                _ => ui.label("parent: none (start)"),
            };
            let status = match r.status.get(t) {
                Some(TriangleStatus::Open) => "open (frontier)".to_string(),
                Some(TriangleStatus::Closed) => format!("closed, visit #{}", r.visit_order[t]),
                _ => "unseen".to_string(),
            };
            ui.label(status);
        }
        if !self.timeline.is_empty() {
            super::playback::expansion_tooltip_ui(
                ui,
                self.timeline.expansion_steps(),
                t,
                self.playback.cursor,
                false,
            );
        }
    }

    /// The step that next expands triangle `t` after the shown step, or its first expansion
    /// when none comes later (`None`: A* never expanded it).
    fn next_expansion_of(&self, t: TriId) -> Option<usize> {
        self.timeline
            .expansion_steps()
            .next_after(t, self.playback.cursor)
    }

    fn handle_input(&mut self, ui: &Ui, response: &egui::Response, view: View) {
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
        if response.dragged() {
            match self.drag {
                Some(Drag::Start) | Some(Drag::Goal) => {
                    if let Some(pos) = response.interact_pointer_pos() {
                        let world = view.world_from_screen(pos);
                        if self.drag == Some(Drag::Start) {
                            self.set_start(world);
                        } else {
                            self.set_goal(world);
                        }
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
        let visible = view.visible_world();
        let vertices = mesh.vertices();
        let screen: Vec<Pos2> = vertices
            .iter()
            .map(|&v| view.screen_from_world(v))
            .collect();
        let in_view = |t: TriId| {
            let [a, b, c] = mesh.triangles()[t].vertices.map(|v| vertices[v]);
            let (min_x, max_x) = (a.x.min(b.x).min(c.x), a.x.max(b.x).max(c.x));
            let (min_y, max_y) = (a.y.min(b.y).min(c.y), a.y.max(b.y).max(c.y));
            max_x >= visible.min.x
                && min_x <= visible.max.x
                && max_y >= visible.min.y
                && min_y <= visible.max.y
        };
        let visible_tris: Vec<TriId> = (0..mesh.triangles().len())
            .filter(|&t| in_view(t))
            .collect();

        // Which triangles the corridor holds (shown once A* has finished).
        let path = self.timeline.path.as_ref();
        let mut in_corridor = vec![false; mesh.triangles().len()];
        if self.replay.search_outcome.is_some()
            && let Some(path) = path
        {
            for &t in &path.corridor {
                if let Some(flag) = in_corridor.get_mut(t) {
                    *flag = true;
                }
            }
        }

        // Fills.
        let mut fill = egui::Mesh::default();
        fill.reserve_triangles(visible_tris.len());
        fill.reserve_vertices(visible_tris.len() * 3);
        for &t in &visible_tris {
            let color = if self.diagnostics.colour_islands {
                super::diagnostics_panel::island_colour(mesh.island_of(t))
            } else if self.replay.current == Some(t) {
                CURRENT
            } else if in_corridor[t] {
                CORRIDOR
            } else {
                match self.replay.status.get(t) {
                    Some(TriangleStatus::Open) => OPEN,
                    Some(TriangleStatus::Closed) => CLOSED,
                    _ => UNSEEN,
                }
            };
            let i = fill.vertices.len() as u32;
            for v in mesh.triangles()[t].vertices {
                fill.colored_vertex(screen[v], color);
            }
            fill.add_triangle(i, i + 1, i + 2);
        }
        painter.add(Shape::mesh(fill));
        // The triangle A* expands next, outlined.
        if let Some(next) = self.next_to_expand()
            && let Some(triangle) = mesh.triangles().get(next)
        {
            let corners: Vec<Pos2> = triangle.vertices.iter().map(|&v| screen[v]).collect();
            painter.add(Shape::closed_line(
                corners,
                Stroke::new(2.5, Color32::WHITE),
            ));
        }

        // Edges: every edge when zoomed in enough to see them, borders and non-manifold always.
        let mean_edge_px = mean_edge_length(mesh) * view.camera.scale;
        let draw_all = self.settings.display.edges && mean_edge_px > 4.0;
        let mut lines = egui::Mesh::default();
        let mut push_edge = |e: usize| {
            let edge = &mesh.edges()[e];
            let [a, b] = edge.vertices.map(|v| screen[v]);
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
            for &t in &visible_tris {
                for e in mesh.triangles()[t].edges {
                    if !std::mem::replace(&mut edge_seen[e], true) {
                        push_edge(e);
                    }
                }
            }
        } else {
            let clip = view.rect.expand(4.0);
            for &e in &self.outline_edges {
                let [a, b] = mesh.edges()[e].vertices.map(|v| screen[v]);
                if clip.intersects(Rect::from_two_pos(a, b)) {
                    push_edge(e);
                }
            }
        }
        painter.add(Shape::mesh(lines));

        self.paint_search_details(painter, view, &visible_tris);
        self.paint_funnel(painter, view);
        self.paint_markers(painter, view);
        if let Some(walk) = &self.walk {
            walk.paint(painter, view);
        }
        self.diagnostics.paint_selection(painter, view, mesh);
    }

    fn paint_search_details(&self, painter: &egui::Painter, view: View, visible: &[TriId]) {
        let display = &self.settings.display;
        let tris = self.mesh.triangles();
        let px = |t: TriId| (tris[t].area.sqrt() * view.camera.scale) as f32;
        if display.parent_arrows {
            let mut arrows = egui::Mesh::default();
            for &t in visible {
                let p = self.replay.parent[t];
                if p == u32::MAX || px(t) < 14.0 {
                    continue;
                }
                let from = view.screen_from_world(tris[t].centroid);
                let to = view.screen_from_world(tris[p as usize].centroid);
                let tip = from + (to - from) * 0.6;
                push_segment(&mut arrows, from, tip, 1.5, ARROW);
                let dir = (to - from).normalized();
                let side = vec2(-dir.y, dir.x);
                push_segment(&mut arrows, tip, tip - dir * 6.0 + side * 4.0, 1.5, ARROW);
                push_segment(&mut arrows, tip, tip - dir * 6.0 - side * 4.0, 1.5, ARROW);
            }
            painter.add(Shape::mesh(arrows));
        }
        if display.visit_numbers || display.triangle_ids {
            let mut labels = 0;
            for &t in visible {
                let label = if display.triangle_ids {
                    t
                } else {
                    self.replay.visit_order[t] as usize
                };
                let unvisited = !display.triangle_ids && label == 0;
                if unvisited || px(t) < 18.0 {
                    continue;
                }
                labels += 1;
                if labels > 1500 {
                    break;
                }
                painter.text(
                    view.screen_from_world(tris[t].centroid),
                    egui::Align2::CENTER_CENTER,
                    label.to_string(),
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
        let r = &self.replay;
        if r.funnel.is_none() {
            return;
        }
        let s = |p: Vec2| view.screen_from_world(p);
        if self.settings.display.portals && !r.funnel_done {
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
        if r.funnel_done {
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
                painter.add(Shape::dashed_line(
                    &[asked, at],
                    Stroke::new(1.5, color),
                    4.0,
                    3.0,
                ));
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

const UNSEEN: Color32 = Color32::from_rgb(62, 70, 84);
const OPEN: Color32 = Color32::from_rgb(222, 170, 52);
const CLOSED: Color32 = Color32::from_rgb(64, 112, 186);
const CURRENT: Color32 = Color32::from_rgb(226, 72, 72);
const CORRIDOR: Color32 = Color32::from_rgb(72, 160, 104);
const EDGE: Color32 = Color32::from_rgb(110, 120, 138);
const BORDER: Color32 = Color32::from_rgb(220, 222, 230);
const NON_MANIFOLD: Color32 = Color32::from_rgb(232, 64, 206);
const ARROW: Color32 = Color32::from_rgb(240, 240, 240);
const LEFT: Color32 = Color32::from_rgb(90, 220, 120);
const RIGHT: Color32 = Color32::from_rgb(240, 90, 90);
const APEX: Color32 = Color32::from_rgb(250, 230, 80);
const PATH: Color32 = Color32::from_rgb(255, 150, 40);
const START: Color32 = Color32::from_rgb(120, 230, 140);
const GOAL: Color32 = Color32::from_rgb(250, 110, 110);

/// Adds a segment as a thin quad to a batched mesh.
fn push_segment(mesh: &mut egui::Mesh, a: Pos2, b: Pos2, width: f32, color: Color32) {
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
fn outline_edges(mesh: &NavMesh) -> Vec<usize> {
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

/// Two far-apart points on the largest island: the centroid of its first triangle and the
/// centroid farthest from it.
pub fn default_endpoints(mesh: &NavMesh) -> (Vec2, Vec2) {
    let mut sizes = vec![0usize; mesh.island_count()];
    for t in 0..mesh.triangles().len() {
        sizes[mesh.island_of(t)] += 1;
    }
    let largest = (0..sizes.len()).max_by_key(|&i| sizes[i]).unwrap_or(0);
    let tris = mesh.triangles();
    let members: Vec<TriId> = (0..tris.len())
        .filter(|&t| mesh.island_of(t) == largest)
        .collect();
    let Some(&first) = members.first() else {
        return (Vec2::default(), Vec2::default());
    };
    let a = tris[first].centroid;
    let b = members
        .iter()
        .map(|&t| tris[t].centroid)
        .max_by(|u, v| u.distance(a).total_cmp(&v.distance(a)))
        .unwrap_or(a);
    (a, b)
}
