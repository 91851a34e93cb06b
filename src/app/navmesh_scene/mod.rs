//! The navmesh scene: a loaded mesh, a start and a goal, the recorded A* and funnel steps, and
//! the canvas that replays them; the Diagnostics tab beside the steps; an agent walking the
//! path.

pub mod agents;
mod canvas;
pub mod clearance;
mod controls;
pub mod crowd;
pub mod diagnostics;
mod edit_panel;
mod editing;
mod fill;
pub mod floors;
pub mod jobs;
mod keys;
pub mod links;
pub mod mesh_view;
mod optimal;
pub mod path_query;
pub mod quality;
pub mod screen;
mod steps;
pub mod walk;

use super::camera::{Camera, View};
use super::commands::UiCommand;
use super::playback::Playback;
use super::scene::{Banner, Scene, SceneSetup, Shared};
use super::screenshot::Steps;
use crate::assets::{self, EmbeddedScene};
use crate::geom::Vec2;
use crate::grid::MapDocument;
use crate::navmesh::timeline::{Timeline, TimelineReplay};
use crate::navmesh::walk::WalkOptions;
use crate::navmesh::{CostModel, NavMesh, Plane, QueryOptions, TriId};
use egui::{Pos2, Rect};
use jobs::{BACKGROUND_TRIANGLES, QueryJob};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use walk::WalkPlayback;

pub use editing::{DrawAs, EditState, Tool, area_colour};
use keys::MOUSE;
pub use keys::{KEYS, MeshKey};

/// Where the current mesh came from.
#[derive(Debug, Clone, PartialEq)]
pub enum MeshSource {
    /// Compiled into the program.
    Embedded(EmbeddedScene),
    /// A file on disk.
    File(PathBuf),
    /// Made by a generator (benchmarks, tests, a map); cannot be reloaded.
    Generated(String),
}

impl MeshSource {
    /// A short name for titles.
    pub fn name(&self) -> String {
        match self {
            MeshSource::Embedded(scene) => format!("{} (built in)", scene.name),
            MeshSource::File(path) => crate::input::file_label(path),
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
    /// Label expanded triangles by their place in the visit order (#1, #2, …).
    pub visit_numbers: bool,
    /// Label every triangle with its id (as the captions and steps name them); the default.
    pub triangle_ids: bool,
    /// Arrows from each reached triangle to its parent.
    pub parent_arrows: bool,
    /// The corridor's portals during the funnel.
    pub portals: bool,
    /// The legend of area types and shapes.
    pub legend: bool,
    /// Fill the mesh by height instead of the search's colours.
    pub height_colours: bool,
    /// Fill the mesh by each triangle's clearance instead of the search's colours.
    pub clearance_colours: bool,
    /// The agent's radius: the query keeps it from the walls, and what holds no disc of it is
    /// greyed (0: a point).
    pub fit_radius: f64,
    /// More agents' radii, each with its own path (see [`agents`]).
    pub agents: Vec<f64>,
}

impl Default for DisplayOptions {
    fn default() -> Self {
        Self {
            edges: true,
            visit_numbers: false,
            triangle_ids: true,
            parent_arrows: false,
            portals: true,
            legend: true,
            height_colours: false,
            clearance_colours: false,
            fit_radius: 0.0,
            agents: Vec::new(),
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
    /// Keep only faces within this many degrees of up when reading a mesh (`None`: all).
    pub max_slope: Option<f64>,
    /// Shrink meshes read for an agent of this radius (`None`: as they are).
    pub agent_radius: Option<f64>,
    /// Display toggles.
    pub display: DisplayOptions,
    /// How the agent walks the path.
    pub walk: WalkOptions,
    /// Playback speed (steps per second).
    pub speed: f64,
    /// Also search for the shortest path (Polyanya), as a third phase, and compare.
    pub optimal: bool,
}

impl Default for NavmeshSettings {
    fn default() -> Self {
        Self {
            cost: CostModel::Centroid,
            heuristic_weight: 1.0,
            plane: Plane::Xz,
            max_slope: None,
            agent_radius: None,
            display: DisplayOptions::default(),
            walk: WalkOptions::default(),
            speed: Playback::default().speed,
            optimal: false,
        }
    }
}

impl NavmeshSettings {
    /// The same options, each within its range: what a lesson, a share link or a settings
    /// file holds (written by hand sometimes, or by a stranger) goes through here.
    pub fn clamped(&self) -> Self {
        let finite_or = |x: f64, default: f64| if x.is_finite() { x } else { default };
        let defaults = Self::default();
        let (walk, usual) = (self.walk, defaults.walk);
        let speed = crate::app::playback::SPEED_RANGE;
        Self {
            heuristic_weight: finite_or(self.heuristic_weight, 1.0).clamp(0.0, 5.0),
            max_slope: self
                .max_slope
                .filter(|s| s.is_finite())
                .map(|s| s.clamp(0.0, 90.0)),
            agent_radius: self.agent_radius.filter(|r| r.is_finite() && *r > 0.0),
            speed: finite_or(self.speed, defaults.speed).clamp(*speed.start(), *speed.end()),
            walk: crate::navmesh::walk::WalkOptions {
                speed: finite_or(walk.speed, usual.speed).clamp(0.01, 100.0),
                turn_rate: finite_or(walk.turn_rate, usual.turn_rate).clamp(0.01, 100.0),
                corner_radius: finite_or(walk.corner_radius, usual.corner_radius).clamp(0.0, 100.0),
                step: finite_or(walk.step, usual.step).clamp(1e-3, 1.0),
            },
            ..self.clone()
        }
    }

    /// How mesh files are read with these settings.
    pub fn read_options(&self) -> crate::navmesh::ReadOptions {
        crate::navmesh::ReadOptions {
            plane: self.plane,
            max_slope: self.max_slope,
            agent_radius: self.agent_radius,
        }
    }
}

/// What the view says about a mesh just read, above the canvas until dismissed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MeshAdvice {
    /// Read whole, it looks like level geometry: this share of its area is steep or faces
    /// down.
    LevelGeometry(f64),
    /// The walkable filter read it as wound the other way.
    Flipped,
    /// It is flat in the plane asked for: it was read in this one.
    OtherPlane(Plane),
}

/// Which marker a drag moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Drag {
    Start,
    Goal,
    Pan,
}

/// The tabs of the navmesh view's right panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SideTab {
    /// The recorded steps.
    #[default]
    Steps,
    /// What is wrong with the mesh.
    Diagnostics,
    /// A crowd on the mesh.
    Crowd,
}

/// Where the mesh shown comes from, and what is to be said of it.
pub struct MeshOrigin {
    /// Where it came from.
    pub source: MeshSource,
    /// The mesh shown was repaired in memory and not saved since: replacing it asks first.
    pub unsaved_repair: bool,
    /// What to say about the mesh just read (dismissable).
    pub advice: Option<MeshAdvice>,
}

/// The navmesh scene's state.
pub struct NavmeshScene {
    /// Persisted settings.
    pub settings: NavmeshSettings,
    /// The mesh shown, its editor and what is worked out from it.
    pub view: mesh_view::MeshView,
    /// The query: start, goal, its recorded steps, the playback and the worker.
    pub query: path_query::PathQuery,
    /// Where the mesh comes from, and what is to be said of it.
    pub origin: MeshOrigin,
    /// What the window keeps of the scene between frames: camera, pointer, drag, tabs.
    pub screen: screen::Screen,
    /// The Diagnostics tab's state.
    pub diagnostics: diagnostics::Diagnostics,
    /// The agent walking the path, once asked for (dropped when the path changes).
    pub walk: Option<WalkPlayback>,
    /// More agents of other sizes, their paths and walks.
    pub agents: agents::Agents,
    /// The Crowd tab: its run and the agent taken apart.
    pub crowd: crowd::CrowdLab,
    /// The editing tools' state.
    pub edit: EditState,
}

/// What to say about a mesh with this summary: that it looks like level geometry (read
/// whole), or that the walkable filter read it flipped.
fn advice_for(summary: &crate::navmesh::MeshSummary) -> Option<MeshAdvice> {
    if summary.plane_from_file {
        Some(MeshAdvice::OtherPlane(summary.plane))
    } else if summary.walkable.max_slope.is_some() {
        summary.walkable.flipped.then_some(MeshAdvice::Flipped)
    } else {
        (summary.level_geometry_share > 0.5)
            .then_some(MeshAdvice::LevelGeometry(summary.level_geometry_share))
    }
}

/// Banner wording for a repair that went wrong.
const REPAIR_FAILED: (&str, &str) = ("Could not repair", "The mesh shown is unchanged.");

impl NavmeshScene {
    /// The scene on the built-in default mesh, its start and goal placed and the animation
    /// ready.
    pub fn new(settings: NavmeshSettings) -> Self {
        Self::embedded(assets::ROOMS, settings)
    }

    /// The scene on an embedded mesh, with its start and goal placed and the animation ready.
    pub fn embedded(scene: EmbeddedScene, settings: NavmeshSettings) -> Self {
        let settings = settings.clamped();
        // The embedded meshes are tested to load, with any options; the plain default one
        // keeps this infallible.
        let mesh = scene
            .read(settings.read_options())
            .or_else(|_| assets::ROOMS.read(Default::default()))
            .expect("the embedded meshes load");
        let playback = Playback::at_speed(settings.speed);
        let edit = EditState {
            costs: crate::navmesh::areas::AreaCosts::for_names(mesh.area_names()),
            ..EditState::default()
        };
        let editor = crate::navmesh::edit::MeshEditor::new(Arc::new(mesh));
        let mut this = Self {
            settings,
            view: mesh_view::MeshView::new(editor),
            query: path_query::PathQuery::new(scene.start_point(), scene.goal_point(), playback),
            edit,
            origin: MeshOrigin {
                source: MeshSource::Embedded(scene),
                unsaved_repair: false,
                advice: None,
            },
            screen: screen::Screen::default(),
            diagnostics: Default::default(),
            walk: None,
            agents: agents::Agents::default(),
            crowd: crowd::CrowdLab::default(),
        };
        this.rerun();
        this
    }

    /// The name of the mesh shown, for titles and files saved of it.
    pub fn mesh_name(&self) -> String {
        self.origin.source.name()
    }

    /// The mesh shown (the editor's edited mesh).
    pub fn mesh(&self) -> &Arc<NavMesh> {
        self.view.mesh()
    }

    /// The options to keep between runs.
    pub fn settings(&self) -> NavmeshSettings {
        NavmeshSettings {
            speed: self.query.playback.speed,
            ..self.settings.clone()
        }
    }

    /// Loads a mesh from `source` with the current plane, without touching the scene.
    pub fn load(&self, source: &MeshSource) -> Result<NavMesh, String> {
        match source {
            MeshSource::Embedded(scene) => scene
                .read(self.settings.read_options())
                .map_err(|e| e.to_string()),
            MeshSource::File(path) => {
                NavMesh::load_with(path, self.settings.read_options()).map_err(|e| e.to_string())
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
            MeshSource::Embedded(scene) => (scene.start_point(), scene.goal_point()),
            MeshSource::File(_) | MeshSource::Generated(_) => default_endpoints(&mesh),
        });
        self.replace_mesh(mesh);
        self.origin.source = source;
        self.query.start = start;
        self.query.goal = goal;
        self.query.floors = floors::FloorChoice::default();
        // Another mesh shows its own search, not the last one's island colours.
        self.diagnostics.colour_islands = false;
        self.screen.camera.fit_next_frame();
        self.query.playback.cursor = 0;
        self.query.playback.playing = false;
        self.rerun();
    }

    /// Replaces the mesh with a new version of the same file, keeping start, goal and view;
    /// the new answer is shown whole (the old step number would be of another search).
    pub fn reload_mesh(&mut self, mesh: NavMesh) {
        self.replace_mesh(mesh);
        self.query.playback.cursor = usize::MAX;
        self.query.playback.playing = false;
        self.rerun();
    }

    /// Before another file is read: its reading starts with no walkable filter and no agent
    /// radius (they were chosen for the file shown; a level's strip offers the filter again).
    /// The same file keeps them.
    pub fn read_options_for(&mut self, next: &std::path::Path) {
        if !matches!(&self.origin.source, MeshSource::File(shown) if shown == next) {
            self.forget_read_options();
        }
    }

    /// No walkable filter and no agent radius for the next mesh read.
    pub fn forget_read_options(&mut self) {
        self.settings.max_slope = None;
        self.settings.agent_radius = None;
    }

    /// Takes `mesh` as the one shown, forgetting what was worked out on the last one (its
    /// query, while a large mesh's runs on the worker, would name other triangles).
    fn replace_mesh(&mut self, mesh: NavMesh) {
        self.take_editor(crate::navmesh::edit::MeshEditor::new(Arc::new(mesh)));
    }

    /// Shows `editor`'s mesh, its edits counted as saved (as opened from a file), keeping the
    /// tools in hand.
    fn take_editor(&mut self, editor: crate::navmesh::edit::MeshEditor) {
        let saved = editor.edits().clone();
        self.view = mesh_view::MeshView::new(editor);
        let mesh = Arc::clone(self.view.mesh());
        self.origin.advice = advice_for(self.view.summary());
        if self.view.summary().plane_from_file {
            // The plane it lies in, as the radio buttons show it.
            self.settings.plane = self.view.summary().plane;
        }
        self.query.timeline = Timeline::default();
        self.query.replay = TimelineReplay::new(mesh.triangles().len());
        self.query.previous_path = None;
        // A crowd ran on the mesh before: its settings stay, the run goes.
        self.crowd.crowd = None;
        self.crowd.playback.playing = false;
        self.crowd.selected = None;
        self.edit = EditState {
            tool: self.edit.tool,
            draw_as: self.edit.draw_as,
            area: self.edit.area,
            circle_sides: self.edit.circle_sides,
            costs: crate::navmesh::areas::AreaCosts::for_names(mesh.area_names()),
            saved,
            // Still counting up: the recovery file must see a new mesh's edits as new.
            revision: self.edit.revision + 1,
            ..EditState::default()
        };
        self.diagnostics.invalidate();
        self.origin.unsaved_repair = false;
    }

    /// Shows `editor` (a mesh and its edits, opened from a file) in place of the mesh shown,
    /// keeping start, goal and view.
    pub fn open_editor(&mut self, editor: crate::navmesh::edit::MeshEditor) {
        self.take_editor(editor);
        self.rerun();
    }

    /// Welds near-duplicates and fixes T-junctions in the mesh shown (in memory), keeping start,
    /// goal and view, and checks it again; says what it did in `notice`, or why not in
    /// `banner`.
    pub fn repair(&mut self, notice: &mut Option<String>, banner: &mut Banner) {
        use crate::navmesh::diagnose::{CheckOptions, repair};
        use crate::words::count;
        let colour_islands = self.diagnostics.colour_islands;
        let (fixed, summary) = repair(self.view.mesh().raw(), &CheckOptions::default());
        match fixed.build() {
            Ok(mesh) => {
                self.reload_mesh(mesh);
                self.origin.unsaved_repair = true;
                self.diagnostics.repaired = Some(summary);
                self.diagnostics.colour_islands = colour_islands;
                *notice = Some(format!(
                    "Repaired in memory: {}, {}; F5 reloads the file",
                    count(summary.welded, "weld"),
                    count(summary.split, "split")
                ));
            }
            Err(error) => banner.fail(
                REPAIR_FAILED,
                format!("the repair made an unusable mesh: {error}"),
            ),
        }
    }

    /// The strip above the canvas that says what the mesh just read looks like, with what to
    /// do about it; returns true when the mesh should be read again (the filter switched on).
    fn advice_ui(&mut self, ui: &mut egui::Ui) -> bool {
        use crate::navmesh::walkable::SUGGESTED_MAX_SLOPE;
        let Some(advice) = self.origin.advice else {
            return false;
        };
        let (mut reload, mut dismiss) = (false, false);
        egui::Frame::new()
            .fill(egui::Color32::from_rgb(70, 60, 20))
            .inner_margin(8.0)
            .show(ui, |ui| {
                let text = match advice {
                    MeshAdvice::LevelGeometry(share) => format!(
                        "This looks like level geometry, not a navmesh: {:.0} % of its area is \
                         steeper than {SUGGESTED_MAX_SLOPE}° or faces down (walls, ceilings, \
                         undersides). Keep only its walkable faces?",
                        100.0 * share
                    ),
                    MeshAdvice::Flipped => "Its faces are wound the other way (against its \
                        vertex normals, or nearly all facing down): read flipped, so that its \
                        floors face up."
                        .to_string(),
                    MeshAdvice::OtherPlane(plane) => format!(
                        "It is flat in the {} plane (no face has area there): read in the {} \
                         plane, where it lies.",
                        plane.other().name().to_uppercase(),
                        plane.name().to_uppercase()
                    ),
                };
                ui.add(
                    egui::Label::new(egui::RichText::new(text).color(egui::Color32::WHITE)).wrap(),
                );
                ui.horizontal(|ui| {
                    if matches!(advice, MeshAdvice::LevelGeometry(_))
                        && ui
                            .button(format!("Walkable only ({SUGGESTED_MAX_SLOPE}°)"))
                            .on_hover_text("Read the file again keeping the faces within the slope")
                            .clicked()
                    {
                        self.settings.max_slope = Some(SUGGESTED_MAX_SLOPE);
                        reload = true;
                    }
                    dismiss = ui.button("Dismiss").clicked();
                });
            });
        if dismiss || reload {
            self.origin.advice = None;
        }
        reload
    }

    /// Shows the Diagnostics tab and measures corridor paths against the shortest over `pairs`
    /// random pairs with the step cost chosen, waiting for the answer (for launch options and
    /// screenshots).
    pub fn measure_quality(&mut self, pairs: usize) {
        self.screen.side_tab = SideTab::Diagnostics;
        let quality = &mut self.diagnostics.quality;
        quality.queries = pairs;
        let options = crate::navmesh::quality::QualityOptions {
            queries: pairs,
            seed: 1,
            cost: self.settings.cost,
            weight: self.settings.heuristic_weight,
            radius: self.settings.display.fit_radius,
        };
        quality.measure(self.view.mesh(), options);
        quality.wait(self.view.mesh().triangles().len());
    }

    /// Shows the Diagnostics tab with islands coloured and the first error selected, so that a
    /// picture shows one.
    pub fn show_diagnostics(&mut self) {
        self.screen.side_tab = SideTab::Diagnostics;
        self.diagnostics.colour_islands = true;
        let first_error = self
            .diagnostics
            .report(self.view.mesh())
            .findings
            .iter()
            .find(|f| f.severity == crate::navmesh::diagnose::Severity::Error)
            .map(|f| f.kind);
        if let Some(kind) = first_error {
            self.diagnostics.select(self.view.mesh(), kind, 0);
        }
    }

    /// Runs the query again (after the mesh, an end point or an option changed), recording its
    /// steps: here for small meshes, on the worker for large ones (see
    /// [`BACKGROUND_TRIANGLES`]), whose answer [`NavmeshScene::poll_query`] shows when it
    /// arrives; until then the last answer stays.
    pub fn rerun(&mut self) {
        self.walk = None;
        self.query.generation += 1;
        self.query.radius_asked = self.settings.display.fit_radius;
        let job = QueryJob {
            mesh: Arc::clone(self.view.mesh()),
            start: self.query.start,
            goal: self.query.goal,
            start_height: self.query.floors.start,
            goal_height: self.query.floors.goal,
            options: QueryOptions {
                cost: self.settings.cost,
                heuristic_weight: self.settings.heuristic_weight,
                area_costs: self.edit.costs,
                radius: self.settings.display.fit_radius,
            },
            optimal: self.settings.optimal,
            clearance_from: self.screen.clearance_jobs.last_mesh(),
        };
        let in_background = self.view.mesh().triangles().len() >= BACKGROUND_TRIANGLES;
        match self
            .query
            .querier
            .answer_or_submit(self.query.generation, job, in_background)
        {
            Some(timeline) => self.show_query(timeline),
            None => {
                // The cursor may ask for the end (usize::MAX): kept for the new steps.
                self.query.resume_cursor = Some(self.query.playback.cursor);
                self.query.playback.cursor =
                    self.query.playback.cursor.min(self.query.timeline.len());
            }
        }
    }

    /// Shows a finished query: its steps replace the recorded ones, the replay keeps its step.
    fn show_query(&mut self, timeline: Timeline) {
        self.query.gap = match (&timeline.path, &timeline.optimal) {
            (Some(path), Some(optimal)) if path.length.is_finite() && optimal.is_found() => {
                let search = timeline.search_events();
                Some(crate::navmesh::gap::compare(
                    self.view.mesh(),
                    path,
                    optimal,
                    &search,
                    &self.edit.costs,
                ))
            }
            _ => None,
        };
        self.query.timeline = timeline;
        self.query.previous_path = None;
        self.walk = None;
        self.query.replay = TimelineReplay::new(self.view.mesh().triangles().len());
        let cursor = self
            .query
            .resume_cursor
            .take()
            .unwrap_or(self.query.playback.cursor);
        self.query.playback.cursor = cursor.min(self.query.timeline.len());
        self.query
            .replay
            .seek(&self.query.timeline, self.query.playback.cursor);
        self.screen.follow_log = true;
    }

    /// Shows the worker's answer if it has arrived; returns true while it is still querying.
    pub fn poll_query(&mut self) -> bool {
        if let Some(timeline) = self.query.querier.take() {
            self.show_query(timeline);
        }
        self.is_querying()
    }

    /// Waits (up to a minute) for the worker's answer and shows it: for screenshots, launch
    /// options and tests.
    pub fn wait_for_query(&mut self) {
        if let Some(timeline) = self.query.querier.wait(std::time::Duration::from_secs(60)) {
            self.show_query(timeline);
        }
    }

    /// True while a query runs on the worker; the last answer is shown meanwhile.
    pub fn is_querying(&self) -> bool {
        self.query.querier.is_busy()
    }

    /// Moves the replay to the playback cursor.
    pub fn sync_replay(&mut self) {
        if self.query.replay.cursor() != self.query.playback.cursor {
            // Stepping back into the search leaves the walk (it walks the whole path).
            if self.query.playback.cursor < self.query.timeline.len() {
                self.walk = None;
            }
            self.query
                .replay
                .seek(&self.query.timeline, self.query.playback.cursor);
            self.screen.follow_log = true;
        }
    }

    /// Sets the start and shows the new answer at once (the animation can be replayed).
    pub fn set_start(&mut self, p: Vec2) {
        self.put_end(floors::End::Start, p, false);
    }

    /// Sets the goal and shows the new answer at once.
    pub fn set_goal(&mut self, p: Vec2) {
        self.put_end(floors::End::Goal, p, false);
    }

    /// Puts the start and the goal where asked, and searches once.
    pub fn place(&mut self, start: Option<Vec2>, goal: Option<Vec2>) {
        if let Some(start) = start {
            self.query.start = start;
            self.query.floors.start = None;
        }
        if let Some(goal) = goal {
            self.query.goal = goal;
            self.query.floors.goal = None;
        }
        self.query.playback.cursor = 0;
        self.rerun();
    }

    /// The canvas view of the last frame (for tests and tools that click on world points).
    pub fn last_view(&self) -> Option<View> {
        Some(View {
            camera: self.screen.camera.get()?,
            rect: self.screen.canvas_rect?,
        })
    }

    /// Refits the view on the next frame.
    pub fn fit_view(&mut self) {
        self.screen.camera.fit_next_frame();
    }

    /// Centres the view on `at`, zoomed so that `extent` world units fill about 60 % of it.
    pub fn focus(&mut self, at: Vec2, extent: f64) {
        let rect = self
            .screen
            .canvas_rect
            .unwrap_or(Rect::from_min_size(Pos2::ZERO, egui::vec2(800.0, 600.0)));
        let side = f64::from(rect.width().min(rect.height()));
        let scale = side * 0.6 / extent.max(1e-9);
        self.screen.camera.set(Camera {
            center: [at.x, at.y],
            scale: if scale.is_finite() { scale } else { 20.0 },
        });
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
        self.query.playback.cursor = self.query.timeline.len();
        self.query.playback.playing = false;
        self.sync_replay();
        self.walk = self
            .query
            .timeline
            .path
            .as_ref()
            .filter(|p| p.waypoints.len() >= 2)
            .map(|p| {
                let (points, segments) = p.traced();
                WalkPlayback::new(self.view.mesh(), &points, &segments, self.settings.walk)
            });
        self.start_agent_walks();
    }

    /// Advances the walk by `dt` seconds; true while the agent walks.
    pub fn tick_walk(&mut self, dt: f64) -> bool {
        let mut walking = self.walk.as_mut().is_some_and(|w| w.tick(dt));
        for walk in self.agents.walks.iter_mut().flatten() {
            walking |= walk.tick(dt);
        }
        walking
    }
}

impl SceneSetup for NavmeshScene {
    type Settings = NavmeshSettings;

    fn with_settings(settings: &NavmeshSettings, _map: &MapDocument) -> Self {
        Self::new(settings.clone())
    }

    fn settings(&self, _map: &MapDocument) -> NavmeshSettings {
        NavmeshScene::settings(self)
    }
}

impl Scene for NavmeshScene {
    fn name(&self) -> &'static str {
        "Navmesh"
    }

    fn about(&self) -> &'static str {
        "A* over triangles and the funnel"
    }

    fn document(&self, _map: &MapDocument) -> (String, Option<&'static str>) {
        let note = if self.has_unsaved_edits() {
            Some("edited, unsaved")
        } else {
            self.origin.unsaved_repair.then_some("repaired, unsaved")
        };
        (self.origin.source.name(), note)
    }

    fn commands(&self) -> &'static [UiCommand] {
        &[
            UiCommand::OpenMesh,
            UiCommand::ReloadMesh,
            UiCommand::SaveMeshAs,
            UiCommand::SaveCrowdRun,
            UiCommand::Undo,
            UiCommand::Redo,
        ]
    }

    fn undo_own(&mut self, redo: bool) -> bool {
        if redo {
            self.redo_edit();
        } else {
            self.undo_edit();
        }
        // The mesh's edits are the scene's own: the map is not undone from here.
        true
    }

    fn history(&self, _map: &MapDocument) -> (bool, bool) {
        (self.view.editor().can_undo(), self.view.editor().can_redo())
    }

    fn tick(&mut self, ui: &egui::Ui, _shared: &mut Shared, dt: f64) -> bool {
        let keys = crate::app::keys::pressed(ui, KEYS);
        for &key in &keys {
            match key {
                MeshKey::Walk => self.toggle_walk(),
                MeshKey::FloorDown => {
                    self.next_floor_down();
                }
                _ => {}
            }
        }
        if self.settings.display.fit_radius.to_bits() != self.query.radius_asked.to_bits() {
            // The agent's radius changed (the slider, a lesson, the command line).
            self.rerun();
        }
        let querying = self.poll_query() | self.poll_clearance();
        self.refresh_agents();
        let len = self.query.timeline.len();
        let crowd_bar = self.crowd_has_the_bar();
        if !crowd_bar {
            self.query.playback.keyboard(ui, len);
            self.replay_keys(&keys);
        }
        self.query.playback.tick(dt, len);
        self.sync_replay();
        let walking = self.tick_walk(dt);
        let crowding = self.tick_crowd(ui, dt, crowd_bar);
        self.query.playback.playing || walking || querying || crowding
    }

    fn panels_ui(&mut self, ui: &mut egui::Ui, shared: &mut Shared) {
        egui::Panel::bottom("playback").show(ui, |ui| {
            if self.crowd_has_the_bar() {
                self.crowd_bar_ui(ui);
            } else {
                let len = self.query.timeline.len();
                self.query.playback.bar_ui(ui, len);
            }
        });
        egui::Panel::left("controls")
            .resizable(true)
            .default_size(super::scene::side_panel_width(ui, 250.0))
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.controls_ui(ui, shared));
            });
        egui::Panel::right("event_log")
            .resizable(true)
            .default_size(super::scene::side_panel_width(ui, 330.0))
            .show(ui, |ui| self.side_panel_ui(ui, shared));
    }

    fn canvas_ui(&mut self, ui: &mut egui::Ui, shared: &mut Shared) {
        if self.advice_ui(ui) {
            shared.ask(UiCommand::ReloadMesh);
        }
        NavmeshScene::canvas_ui(self, ui);
        if let Some(notice) = self.screen.pending_notice.take() {
            *shared.notice = Some(notice);
        }
    }

    fn windows_ui(&mut self, _ctx: &egui::Context, _shared: &mut Shared) {
        self.sync_replay();
    }

    fn status_ui(&self, ui: &mut egui::Ui, _map: &MapDocument) {
        use crate::words::{count, thousands};
        match self.screen.hover_world {
            Some(p) => ui.monospace(format!("x {:>9.3}  z {:>9.3}", p.x, p.y)),
            None => ui.monospace("x        —  z        —"),
        };
        // The height under the pointer (the topmost floor's), and how many floors are there.
        let floors = self.hover_floors();
        if let Some(top) = floors.first() {
            ui.monospace(format!("height {:>8.3}", top.height));
            if floors.len() > 1 {
                ui.label(format!("({} floors here)", floors.len()));
            }
        }
        let floor_words = self.floor_status();
        if !floor_words.is_empty() {
            ui.separator();
            ui.label(floor_words);
        }
        ui.separator();
        ui.label(format!(
            "{}: {}, {}",
            self.origin.source.name(),
            count(self.view.mesh().triangles().len(), "triangle"),
            count(self.view.mesh().island_count(), "island")
        ));
        ui.separator();
        if let (true, Some(crowd)) = (self.crowd_has_the_bar(), &self.crowd.crowd) {
            ui.label(format!(
                "tick {} / {}{}",
                thousands(self.crowd.shown),
                thousands(crowd.current().tick),
                if crowd.finished() { "" } else { " so far" }
            ));
        } else {
            ui.label(format!(
                "step {} / {}",
                thousands(self.query.playback.cursor.min(self.query.timeline.len())),
                thousands(self.query.timeline.len())
            ));
        }
    }

    fn picture_name(&self, _map: &MapDocument) -> String {
        format!(
            "{}-step-{}.png",
            super::files::file_stem(&self.origin.source.name()),
            self.query.playback.cursor
        )
    }

    fn canvas_area(&self) -> Option<egui::Rect> {
        self.screen.canvas_rect
    }

    fn legend_rows(&self) -> Vec<crate::app::legend::LegendRow> {
        let mut rows = self.search_legend();
        rows.extend(self.legend());
        rows
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        use crate::app::keys::help;
        help(MOUSE)
            .chain(help(crate::app::playback::KEYS))
            .chain(help(KEYS))
            .collect()
    }

    fn fit_view(&mut self) {
        NavmeshScene::fit_view(self);
    }
}

/// A large mesh is searched on the worker: a picture is of its answer.
impl Steps for NavmeshScene {
    fn step_counts(&self) -> (usize, usize) {
        (
            self.query.timeline.search_steps(),
            self.query.timeline.len(),
        )
    }

    fn shown_step(&self) -> usize {
        self.query.playback.cursor.min(self.query.timeline.len())
    }

    fn optimal_start(&self) -> usize {
        self.query.timeline.optimal_start()
    }

    fn show_step(&mut self, k: usize) {
        self.wait_for_query();
        self.query.playback.playing = false;
        self.query.playback.cursor = k;
        self.sync_replay();
    }
}

/// Two far-apart points on the largest island: the centroid of its first triangle and the
/// centroid farthest from it.
pub fn default_endpoints(mesh: &NavMesh) -> (Vec2, Vec2) {
    let mut sizes = vec![0usize; mesh.island_count()];
    for t in 0..mesh.triangles().len() {
        if let Some(size) = sizes.get_mut(mesh.island_of(t)) {
            *size += 1;
        }
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
