//! The tile-map scene: paint terrain, place start and goal, run any of the grid searches step
//! by step (two side by side in lockstep; D\* Lite with an agent walking while the map is
//! painted), and compare all of them on the same map. The map itself is the window's
//! [`MapDocument`], shared with the pursuit scene; this scene follows its revisions.

mod canvas;
pub mod comparison;
mod controls;
pub mod jobs;
pub mod lockstep;
pub mod partitions;
mod steps;
pub mod trace;
pub mod walk;

use super::camera::{CanvasCamera, View};
use super::commands::UiCommand;
use super::keys::KeyRow;
use super::latest_worker::LatestWorker;
use super::playback::Playback;
use super::scene::{Scene, SceneSetup, Shared};
use super::screenshot::Steps;
use crate::grid::compare::ComparisonRow;
use crate::grid::search::DEFAULT_IDA_BUDGET;
use crate::grid::{
    AlgorithmKind, Cell, Connectivity, GridAlgorithm, Heuristic, MapDocument, SearchTuning, Tile,
    TileMap,
};
use crate::navmesh::from_map::MAX_AGENT_RADIUS;
use comparison::{ComparisonJob, comparison_rows};
use jobs::{BACKGROUND_WORK, SearchDone, SearchJob};
use partitions::PartitionsView;
use std::sync::Arc;
pub use steps::RecordedSearch;

/// What a click on the map does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Paint one tile kind (click or drag a stroke).
    Paint(Tile),
    /// Fill a rectangle (drag from corner to corner).
    Rectangle(Tile),
    /// Fill the clicked cell's region: the cells of its tile reached by side steps.
    Fill(Tile),
    /// Place the start.
    Start,
    /// Place the goal.
    Goal,
}

/// The start or the goal of the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// The start cell.
    Start,
    /// The goal cell.
    Goal,
}

/// The lab's options kept between runs.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TileMapSettings {
    /// Algorithm animated.
    pub algorithm: AlgorithmKind,
    /// Heuristic.
    pub heuristic: Heuristic,
    /// A* weight.
    pub weight: f64,
    /// IDA* budget.
    pub budget: usize,
    /// Moves.
    pub connectivity: Connectivity,
    /// Playback speed.
    pub speed: f64,
    /// The agent radius a navmesh is built for, in tiles.
    pub agent_radius: f64,
    /// The step list shows only expansions, pass starts and the end.
    pub expansions_only: bool,
    /// The comparison's table and charts are hidden, leaving its heading row.
    pub comparison_hidden: bool,
    /// The canvas's legend of the search's colours.
    pub legend: bool,
    /// JPS+'s jump distances drawn in each cell (while JPS+ is chosen, zoomed in enough).
    pub jump_distances: bool,
    /// A second search is run and shown beside the first, in lockstep.
    pub lockstep: bool,
    /// The second search of the lockstep view.
    pub second: lockstep::SecondSearch,
}

impl Default for TileMapSettings {
    fn default() -> Self {
        Self {
            algorithm: AlgorithmKind::AStar,
            heuristic: Heuristic::Octile,
            weight: 1.0,
            budget: DEFAULT_IDA_BUDGET,
            connectivity: Connectivity::Eight,
            speed: Playback::default().speed,
            agent_radius: 0.0,
            expansions_only: false,
            comparison_hidden: false,
            legend: true,
            jump_distances: false,
            lockstep: false,
            second: lockstep::SecondSearch::default(),
        }
    }
}

impl TileMapSettings {
    /// The same options, each within its range: what a lesson, a share link or a settings
    /// file holds (written by hand sometimes, or by a stranger) goes through here.
    pub fn clamped(&self) -> Self {
        let finite_or = |x: f64, default: f64| if x.is_finite() { x } else { default };
        let speed = crate::app::playback::SPEED_RANGE;
        Self {
            weight: finite_or(self.weight, 1.0).clamp(0.0, 5.0),
            budget: self.budget.clamp(1_000, 10_000_000),
            agent_radius: finite_or(self.agent_radius, 0.0).clamp(0.0, MAX_AGENT_RADIUS),
            speed: finite_or(self.speed, Playback::default().speed)
                .clamp(*speed.start(), *speed.end()),
            ..self.clone()
        }
    }

    /// The estimate, A*'s weight and IDA*'s budget.
    pub fn tuning(&self) -> SearchTuning {
        SearchTuning {
            heuristic: self.heuristic,
            weight: self.weight,
            budget: self.budget,
        }
    }
}

/// The tile-map scene's state.
pub struct TileMapScene {
    /// The options: algorithm, heuristic, weight, budget, moves, agent radius, list folding.
    pub settings: TileMapSettings,
    /// Start cell.
    pub start: Cell,
    /// Goal cell.
    pub goal: Cell,
    /// The click tool.
    pub tool: Tool,
    /// The search shown: its recorded steps, its answer and the state at the playback cursor.
    pub search: RecordedSearch,
    /// Playback.
    pub playback: Playback,
    /// The comparison of every algorithm, once run.
    pub comparison: Option<Vec<ComparisonRow>>,
    /// The Partitions window: the paper's four partitions of this map, compared.
    pub partitions: PartitionsView,
    /// The view: fitted to the map until the user pans or zooms.
    pub camera: CanvasCamera,
    /// Where the canvas was drawn last frame.
    pub canvas_rect: Option<Rect>,
    /// Where the legend was drawn at the last frame (`None` when hidden).
    pub legend_rect: Option<Rect>,
    /// Cell under the pointer.
    pub hover: Option<Cell>,
    /// The start or goal marker being dragged.
    pub dragging: Option<Endpoint>,
    /// The map as the search shown (or being run) was asked about: shared with the jobs.
    searched_map: Arc<TileMap>,
    /// The document's map and revision this scene follows.
    seen: (u64, u64),
    /// Runs large searches off the UI thread.
    searcher: LatestWorker<SearchJob, SearchDone>,
    /// Runs comparisons in the background.
    comparer: LatestWorker<ComparisonJob, Vec<ComparisonRow>>,
    /// Bumped whenever the map, start, goal or options change (outdates a search or a
    /// comparison running in the background).
    generation: u64,
    /// Where the playback cursor goes when the search on the worker is answered.
    resume_cursor: Option<usize>,
    /// Set when the step list should scroll to the cursor.
    follow_log: bool,
    /// Another program's search replayed in place of ours, while it is.
    pub imported: Option<trace::ImportedTrace>,
    /// The cell painted last in the current drag, so that the next one joins it with a line.
    stroke_last: Option<Cell>,
    /// Where the rectangle being dragged started.
    rect_anchor: Option<Cell>,
    /// What the agent radius leaves out of the passable tiles, shaded on the canvas: for which
    /// map revision and radius it was computed, and the rectangles.
    clearance: (u64, f64, Vec<[f64; 4]>),
    /// Whether every open tile of the map costs the same (JPS's condition), and for which map
    /// revision: asked by the panel every frame, worked out once per edit (it reads every tile).
    one_tile_cost: Option<(u64, bool)>,
    /// JPS+'s jump tables of the map for drawing their numbers, and for which map revision
    /// (`None` inside: the map's tiles cost differently, or it is too large for them).
    jump_tables: Option<(u64, Option<crate::grid::jps_plus::JpsPlusGrid>)>,
    /// D* Lite's walking agent and the search it keeps (`None` unless D* Lite is chosen, on a
    /// map of at most [`walk::WALK_MAX_CELLS`] cells, out of lockstep).
    pub walk: Option<walk::DStarWalk>,
    /// The lockstep view's second search (its steps and replay), once answered.
    pub second: Option<RecordedSearch>,
    /// The two searches aligned by expansions (while the lockstep view is on).
    pub lockstep: Option<lockstep::LockstepView>,
    /// Runs the second search off the UI thread when it is large.
    second_searcher: LatestWorker<SearchJob, SearchDone>,
}

use egui::{Key, Rect};

/// The built-in map: two rooms, a pond, a sand beach and a hole, 32 × 22.
pub fn default_map() -> TileMap {
    let art = "\
................................
................................
..@@@@@@@@@@@@......SSSS........
..@..........@.....SSWWWSS......
..@..........@....SSWWWWWSS.....
..@..........@....SSWWWWWSS.....
..@..........@.....SSWWWSS......
..@..........@......SSSSS.......
..@@@@@@..@@@@..................
................................
.............................O..
..........@@@@@@@@@@@@@@........
..........@............@........
..........@............@........
..........@...OO.......@........
..........@...OO.......@........
..........@............@........
..........@@@@@@..@@@@@@........
................................
....SSSSSSSSSS..................
................................
................................";
    TileMap::from_ascii(art).expect("the built-in map is a valid picture")
}

/// Names the texture the tile-map canvas draws a zoomed-out map with.
pub fn tiles_texture_id() -> egui::Id {
    egui::Id::unique("tile map tiles")
}

impl TileMapScene {
    /// A scene on `map`'s map, start top-left and goal bottom-right (first and last passable
    /// cells), searched.
    pub fn new(settings: &TileMapSettings, map: &MapDocument) -> Self {
        let settings = settings.clamped();
        let (start, goal) = default_cells(&map.map);
        let chosen = settings.algorithm.with(settings.tuning());
        let mut scene = Self {
            playback: Playback::at_speed(settings.speed),
            settings,
            start,
            goal,
            tool: Tool::Paint(Tile::Wall),
            search: RecordedSearch::new(map.map.cell_count(), chosen),
            comparison: None,
            partitions: PartitionsView::default(),
            camera: CanvasCamera::default(),
            canvas_rect: None,
            legend_rect: None,
            hover: None,
            dragging: None,
            searched_map: Arc::new(map.map.clone()),
            seen: (map.maps(), map.revision()),
            searcher: LatestWorker::new("navlab grid search", SearchJob::run),
            comparer: LatestWorker::new("navlab comparison", |job| comparison_rows(&job)),
            generation: 0,
            resume_cursor: None,
            follow_log: true,
            imported: None,
            stroke_last: None,
            rect_anchor: None,
            clearance: (0, 0.0, Vec::new()),
            one_tile_cost: None,
            jump_tables: None,
            walk: None,
            second: None,
            lockstep: None,
            second_searcher: LatestWorker::new("navlab second grid search", SearchJob::run),
        };
        scene.rerun(map);
        scene
    }

    /// The options to keep between runs.
    pub fn settings(&self) -> TileMapSettings {
        TileMapSettings {
            speed: self.playback.speed,
            ..self.settings.clone()
        }
    }

    /// Takes `settings` (clamped to their ranges) and searches again.
    pub fn apply_settings(&mut self, settings: &TileMapSettings, map: &MapDocument) {
        self.settings = settings.clamped();
        self.playback.speed = self.settings.speed;
        self.rerun(map);
    }

    /// Catches up with the document: a new map starts over (start and goal at its first and
    /// last passable cells, the view refitted, the last search forgotten); an edit, once its
    /// stroke has ended, is searched again.
    pub fn follow(&mut self, map: &MapDocument) {
        if self.seen.0 != map.maps() {
            self.start_over(map);
        } else if self.seen.1 != map.revision() && !map.is_painting() && !self.repair_walk(map) {
            self.rerun(map);
        }
    }

    /// The map was edited here: D* Lite's agent repairs its path, or the search runs again.
    pub(super) fn map_edited(&mut self, map: &MapDocument) {
        if !self.repair_walk(map) {
            self.rerun(map);
        }
    }

    /// With D* Lite's agent on the map, an edit is repaired from where the agent stands rather
    /// than searched again: the repair's steps become the search shown, at its end. False (and
    /// nothing done) when there is no agent or the map changed in more than its tiles.
    fn repair_walk(&mut self, map: &MapDocument) -> bool {
        if self.settings.algorithm != AlgorithmKind::DStarLite {
            return false;
        }
        let Some(walk) = self.walk.as_mut().filter(|w| w.can_repair(&map.map)) else {
            return false;
        };
        let done = walk.repair(&map.map, crate::grid::search::DEFAULT_WORK_LIMIT);
        self.imported = None;
        self.seen = (map.maps(), map.revision());
        self.searched_map = Arc::new(map.map.clone());
        self.comparison = None;
        self.generation += 1;
        self.comparer.forget();
        self.searcher.forget();
        self.resume_cursor = Some(usize::MAX);
        self.show_search(done);
        true
    }

    /// D* Lite's agent walks or stops (a new walk from the start once it has arrived).
    pub fn toggle_walk(&mut self, map: &MapDocument) {
        if self.walk.as_ref().is_some_and(|w| w.arrived()) {
            self.rerun(map);
        }
        if let Some(walk) = self.walk.as_mut() {
            walk.walking = !walk.walking;
        }
    }

    /// Starts over on the document's new map.
    fn start_over(&mut self, map: &MapDocument) {
        let (start, goal) = default_cells(&map.map);
        self.start = start;
        self.goal = goal;
        self.camera.fit_next_frame();
        self.comparison = None;
        self.partitions.clear();
        self.playback.cursor = 0;
        // The last search was of another map: forget it rather than show it over this one
        // while a large map is searched on the worker. Its replay holds no cells until the
        // new search's answer comes (a replay of the largest map is a gigabyte; the search's
        // working memory is as large, and the two need not be held at once).
        self.search = RecordedSearch::new(0, self.algorithm());
        self.rerun(map);
    }

    /// The algorithm `kind` with the scene's settings.
    pub fn grid_algorithm(&self, kind: AlgorithmKind) -> GridAlgorithm {
        kind.with(self.settings.tuning())
    }

    /// The algorithm animated, with its settings.
    pub fn algorithm(&self) -> GridAlgorithm {
        self.grid_algorithm(self.settings.algorithm)
    }

    /// Runs the selected algorithm again on the document's map, recording its steps: here for
    /// small searches, on the worker thread for large ones (see [`BACKGROUND_WORK`]), whose
    /// answer [`TileMapScene::poll_search`] shows when it arrives; until then the last answer
    /// stays.
    pub fn rerun(&mut self, map: &MapDocument) {
        // A new run of ours replaces a trace being replayed.
        self.imported = None;
        self.seen = (map.maps(), map.revision());
        if *self.searched_map != map.map {
            self.searched_map = Arc::new(map.map.clone());
        }
        self.comparison = None;
        self.generation += 1;
        self.comparer.forget();
        let job = SearchJob {
            map: Arc::clone(&self.searched_map),
            start: self.start,
            goal: self.goal,
            algorithm: self.algorithm(),
            connectivity: self.settings.connectivity,
        };
        let in_background = job.expected_work() > BACKGROUND_WORK;
        self.run_second();
        // D* Lite's agent starts again from the start, its path worked out afresh.
        self.walk = (self.settings.algorithm == AlgorithmKind::DStarLite
            && !self.settings.lockstep)
            .then(|| {
                walk::DStarWalk::new(&map.map, self.start, self.goal, self.settings.connectivity)
            })
            .flatten();
        match self
            .searcher
            .answer_or_submit(self.generation, job, in_background)
        {
            Some(done) => self.show_search(done),
            None => {
                // The cursor may ask for the end (usize::MAX): kept for the new steps.
                self.resume_cursor = Some(self.playback.cursor);
                self.playback.cursor = self.playback.cursor.min(self.search.events.len());
            }
        }
    }

    /// Shows a finished search: its steps replace the recorded ones, the replay keeps its step.
    fn show_search(&mut self, done: SearchDone) {
        let cursor = self.resume_cursor.take().unwrap_or(self.playback.cursor);
        let shown = self.search.shown + 1;
        // The last search's per-cell replay goes before the new one is made: on the largest
        // maps each is hundreds of megabytes.
        self.search = RecordedSearch::new(0, self.algorithm());
        self.search = RecordedSearch::of(done, self.searched_map.cell_count(), shown);
        self.align_lockstep();
        self.playback.cursor = cursor.min(self.timeline_len());
        self.sync_replay();
    }

    /// Runs the lockstep view's second search (here when small, on its worker when large), or
    /// forgets it when the view is off.
    fn run_second(&mut self) {
        self.lockstep = None;
        if !self.settings.lockstep || self.searched_map.cell_count() > lockstep::LOCKSTEP_MAX_CELLS
        {
            self.second = None;
            self.second_searcher.forget();
            return;
        }
        let job = SearchJob {
            map: Arc::clone(&self.searched_map),
            start: self.start,
            goal: self.goal,
            algorithm: self.second_algorithm(),
            connectivity: self.settings.connectivity,
        };
        let in_background = job.expected_work() > BACKGROUND_WORK;
        if let Some(done) =
            self.second_searcher
                .answer_or_submit(self.generation, job, in_background)
        {
            self.show_second(done);
        }
    }

    /// Shows the second search's answer beside the first.
    fn show_second(&mut self, done: SearchDone) {
        let shown = self.second.as_ref().map_or(0, |s| s.shown) + 1;
        self.second = None;
        self.second = Some(RecordedSearch::of(
            done,
            self.searched_map.cell_count(),
            shown,
        ));
        self.align_lockstep();
    }

    /// Shows the worker's answer if it has arrived; returns true while it is still searching.
    pub fn poll_search(&mut self) -> bool {
        if let Some(done) = self.searcher.take() {
            self.show_search(done);
        }
        if let Some(done) = self.second_searcher.take() {
            self.show_second(done);
        }
        self.is_searching()
    }

    /// Waits (up to a minute) for the worker's answer and shows it: for screenshots and tests.
    pub fn wait_for_search(&mut self) {
        if let Some(done) = self.searcher.wait(std::time::Duration::from_secs(60)) {
            self.show_search(done);
        }
        if let Some(done) = self
            .second_searcher
            .wait(std::time::Duration::from_secs(60))
        {
            self.show_second(done);
        }
    }

    /// True while a search runs on the worker; the last answer is shown meanwhile.
    pub fn is_searching(&self) -> bool {
        self.searcher.is_busy() || self.second_searcher.is_busy()
    }

    /// Moves the replay to the playback cursor (both replays, in lockstep).
    pub fn sync_replay(&mut self) {
        if self.seek_lockstep(self.playback.cursor) {
            return;
        }
        if self.search.replay.cursor() != self.playback.cursor.min(self.search.events.len()) {
            self.follow_log = true;
        }
        self.search.seek(self.playback.cursor);
    }

    /// Puts the start or the goal on `cell` and shows the new search at its end.
    pub fn place(&mut self, endpoint: Endpoint, cell: Cell, map: &MapDocument) {
        match endpoint {
            Endpoint::Start => self.start = cell,
            Endpoint::Goal => self.goal = cell,
        }
        self.playback.cursor = usize::MAX;
        self.rerun(map);
    }

    /// Runs every algorithm now and shows the table (blocks until done; the button uses
    /// [`TileMapScene::compare_in_background`]).
    pub fn compare(&mut self) {
        self.comparer.forget();
        self.comparison = Some(comparison_rows(&self.comparison_job()));
    }

    /// Starts the comparison on a worker thread; the table appears when it is done (see
    /// [`TileMapScene::poll_comparison`]), so IDA* with a large budget never freezes the
    /// window. An edit meanwhile outdates it.
    pub fn compare_in_background(&mut self) {
        // Asked for, so shown.
        self.settings.comparison_hidden = false;
        let job = self.comparison_job();
        if let Some(rows) = self.comparer.answer_or_submit(self.generation, job, true) {
            // No thread to run it: it ran here.
            self.comparison = Some(rows);
        }
    }

    /// Takes a finished background comparison; returns true while one is still running.
    pub fn poll_comparison(&mut self) -> bool {
        if let Some(rows) = self.comparer.take() {
            self.comparison = Some(rows);
        }
        self.is_comparing()
    }

    /// True while a comparison runs in the background.
    pub fn is_comparing(&self) -> bool {
        self.comparer.is_busy()
    }

    fn comparison_job(&self) -> ComparisonJob {
        ComparisonJob {
            map: Arc::clone(&self.searched_map),
            start: self.start,
            goal: self.goal,
            connectivity: self.settings.connectivity,
            algorithms: AlgorithmKind::ALL
                .iter()
                .map(|&kind| self.grid_algorithm(kind))
                .collect(),
        }
    }

    /// Keeps the Partitions window's comparison up to date with the map, S and G; true while
    /// one is being worked on.
    pub fn poll_partitions(&mut self, map: &MapDocument) -> bool {
        let ends = (self.start, self.goal);
        self.partitions
            .follow(&map.map, map.revision(), ends, self.settings.connectivity)
    }

    /// The canvas view of the last frame.
    pub fn last_view(&self) -> Option<View> {
        Some(View {
            camera: self.camera.get()?,
            rect: self.canvas_rect?,
        })
    }

    /// What the step shown has made of `cell`, as its tooltip says: open, expanded, in
    /// Fringe's later list or cut off by IDA* (`None`: not reached yet, or off the map).
    pub fn cell_state(&self, cell: Cell) -> Option<&'static str> {
        let map = &self.searched_map;
        map.get(cell)
            .and_then(|_| self.search.state_words(map.index(cell)))
    }
}

impl SceneSetup for TileMapScene {
    type Settings = TileMapSettings;

    fn with_settings(settings: &TileMapSettings, map: &MapDocument) -> Self {
        Self::new(settings, map)
    }

    fn settings(&self, _map: &MapDocument) -> TileMapSettings {
        TileMapScene::settings(self)
    }
}

/// What a key of the tile-map scene asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapKey {
    /// Paint with the tile at this place of the palette.
    Tile(usize),
    /// Fill rectangles, or paint freely again.
    Rectangle,
    /// Fill regions, or paint freely again.
    Fill,
    /// Compare every algorithm.
    Compare,
    /// The lockstep view on or off.
    Lockstep,
    /// D* Lite's agent walks or stops.
    Walk,
    /// Open or close the Partitions window.
    Partitions,
    /// The previous pass of IDA* or Fringe.
    PreviousPass,
    /// The next pass.
    NextPass,
    /// The step that expands the cell under the pointer (again: the next one).
    Expansion,
    /// In lockstep, the expansion where the two searches first differ.
    FirstDifference,
}

/// The tile-map scene's mouse actions and palette keys, for the help window.
const PAINTING: &[KeyRow<MapKey>] = &[
    KeyRow::mouse("Left click / drag", "paint with the selected tile"),
    KeyRow::mouse("Right click / Shift+click", "set the goal"),
    KeyRow::mouse("Drag S or G", "move it; the search re-runs live"),
    KeyRow::mouse("Right or middle drag", "pan"),
    KeyRow::mouse("Wheel / pinch", "zoom at the cursor"),
    KeyRow {
        shown: "1 – 5",
        does: "paint grass, sand, water, wall, hole",
        keys: &[
            (Key::Num1, MapKey::Tile(0)),
            (Key::Num2, MapKey::Tile(1)),
            (Key::Num3, MapKey::Tile(2)),
            (Key::Num4, MapKey::Tile(3)),
            (Key::Num5, MapKey::Tile(4)),
        ],
    },
    KeyRow {
        shown: "R",
        does: "fill rectangles / paint freely",
        keys: &[(Key::R, MapKey::Rectangle)],
    },
    KeyRow {
        shown: "G",
        does: "fill regions / paint freely",
        keys: &[(Key::G, MapKey::Fill)],
    },
    KeyRow {
        shown: "C",
        does: "compare all the algorithms on this map, start and goal",
        keys: &[(Key::C, MapKey::Compare)],
    },
    KeyRow {
        shown: "P",
        does: "the Partitions window: grid, quadtree, visibility graph, navmesh",
        keys: &[(Key::P, MapKey::Partitions)],
    },
    KeyRow {
        shown: "L",
        does: "lockstep: a second search beside this one, expansion by expansion",
        keys: &[(Key::L, MapKey::Lockstep)],
    },
    KeyRow {
        shown: "W",
        does: "D* Lite: the agent walks its path / stops (paint ahead of it to see the repair)",
        keys: &[(Key::W, MapKey::Walk)],
    },
];

/// The tile-map scene's replay keys (after the playback's).
const REPLAY: &[KeyRow<MapKey>] = &[
    KeyRow {
        shown: "Page Up / Page Down",
        does: "previous / next pass of IDA* or Fringe",
        keys: &[
            (Key::PageUp, MapKey::PreviousPass),
            (Key::PageDown, MapKey::NextPass),
        ],
    },
    KeyRow {
        shown: "E",
        does: "go to the step that expands the cell under the pointer (again: the next one)",
        keys: &[(Key::E, MapKey::Expansion)],
    },
    KeyRow {
        shown: "D",
        does: "lockstep: go to the expansion where the two searches first differ",
        keys: &[(Key::D, MapKey::FirstDifference)],
    },
];

impl Scene for TileMapScene {
    fn name(&self) -> &'static str {
        "Tile map"
    }

    fn about(&self) -> &'static str {
        "Edit terrain; eleven grid searches step by step, two in lockstep, compared"
    }

    fn document(&self, map: &MapDocument) -> (String, Option<&'static str>) {
        (map.name(), map.dirty.then_some("unsaved"))
    }

    fn commands(&self) -> &'static [UiCommand] {
        &[
            UiCommand::NewMap,
            UiCommand::OpenMap,
            UiCommand::SaveMap,
            UiCommand::SaveMapAs,
            UiCommand::ReloadMap,
            UiCommand::BuildMesh,
            UiCommand::CompareTrace,
            UiCommand::Undo,
            UiCommand::Redo,
        ]
    }

    fn tick(&mut self, ui: &egui::Ui, shared: &mut Shared, dt: f64) -> bool {
        self.follow(shared.map);
        if !ui.ctx().egui_wants_keyboard_input() {
            self.palette_keys(ui, shared.map);
        }
        let searching = self.poll_search();
        let len = self.timeline_len();
        self.playback.keyboard(ui, len);
        self.replay_keys(ui);
        self.playback.tick(dt, len);
        self.sync_replay();
        let walking = self.walk.as_mut().is_some_and(|walk| {
            walk.tick(dt);
            walk.walking
        });
        let comparing = self.poll_comparison();
        let partitioning = self.poll_partitions(shared.map);
        self.playback.playing || comparing || searching || partitioning || walking
    }

    fn panels_ui(&mut self, ui: &mut egui::Ui, shared: &mut Shared) {
        egui::Panel::bottom("grid_playback").show(ui, |ui| {
            if !self.lockstep_bar_ui(ui) {
                let len = self.search.events.len();
                self.playback.bar_ui(ui, len);
            }
        });
        // As tall as its content, but the charts shrink to keep it within half of what is
        // left, so that a small window keeps room for the map.
        let most = (ui.available_height() * 0.5).max(160.0);
        egui::Panel::bottom("comparison")
            .resizable(false)
            .show(ui, |ui| self.comparison_ui(ui, most));
        egui::Panel::right("grid_event_log")
            .resizable(true)
            .default_size(super::scene::side_panel_width(ui, 300.0))
            .show(ui, |ui| {
                if self.settings.lockstep {
                    egui::ScrollArea::vertical().show(ui, |ui| self.lockstep_panel_ui(ui));
                    return;
                }
                self.trace_strip_ui(ui);
                let mut clicked = None;
                super::playback::pseudocode_area(ui, |ui| {
                    clicked = self.pseudocode_ui(ui);
                });
                super::playback::above_steps(ui, |ui| self.frontier_ui(ui));
                if let Some(line) = clicked {
                    self.go_to_line(line);
                }
                ui.separator();
                ui.heading("Steps");
                self.event_log_ui(ui);
            });
        egui::Panel::left("grid_controls")
            .resizable(true)
            .default_size(super::scene::side_panel_width(ui, 290.0))
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.controls_ui(ui, shared));
            });
    }

    fn canvas_ui(&mut self, ui: &mut egui::Ui, shared: &mut Shared) {
        TileMapScene::canvas_ui(self, ui, shared.map);
    }

    fn windows_ui(&mut self, ctx: &egui::Context, _shared: &mut Shared) {
        let canvas = self.canvas_rect;
        self.partitions.window_ui(ctx, canvas);
    }

    fn status_ui(&self, ui: &mut egui::Ui, map: &MapDocument) {
        use crate::words::thousands;
        match self.hover {
            Some((x, y)) => ui.monospace(format!("cell {x:>4},{y:>4}")),
            None => ui.monospace("cell    —,   —"),
        };
        ui.separator();
        let map = &map.map;
        ui.label(format!(
            "{} × {} tiles, {} passable",
            map.width(),
            map.height(),
            thousands(map.passable_count())
        ));
        ui.separator();
        let len = self.timeline_len();
        let unit = if self.active_lockstep().is_some() {
            "expansion"
        } else {
            "step"
        };
        ui.label(format!(
            "{unit} {} / {}",
            thousands(self.playback.cursor.min(len)),
            thousands(len)
        ));
    }

    fn picture_name(&self, map: &MapDocument) -> String {
        format!(
            "{}-step-{}.png",
            super::files::file_stem(&map.name()),
            self.playback.cursor
        )
    }

    fn canvas_area(&self) -> Option<egui::Rect> {
        self.canvas_rect
    }

    fn legend_rows(&self) -> Vec<crate::app::legend::LegendRow> {
        self.legend()
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        use crate::app::keys::help;
        help(PAINTING)
            .chain(help(crate::app::playback::KEYS))
            .chain(help(REPLAY))
            .collect()
    }

    fn fit_view(&mut self) {
        self.camera.fit_next_frame();
    }
}

/// A large map is searched on the worker: a picture is of its answer.
impl Steps for TileMapScene {
    fn step_counts(&self) -> (usize, usize) {
        let len = self.timeline_len();
        (len, len)
    }

    fn shown_step(&self) -> usize {
        self.playback.cursor.min(self.timeline_len())
    }

    fn show_step(&mut self, k: usize) {
        self.wait_for_search();
        self.playback.playing = false;
        self.playback.cursor = k;
        self.sync_replay();
    }
}

/// The first and the last passable cells of `map` (the top-left cell when none is).
fn default_cells(map: &TileMap) -> (Cell, Cell) {
    let passable = |&i: &usize| map.tiles().get(i).is_some_and(|t| t.is_passable());
    let mut cells = (0..map.cell_count()).filter(passable);
    let first = cells.next().map_or((0, 0), |i| map.cell(i));
    let last = (0..map.cell_count())
        .rev()
        .find(passable)
        .map_or(first, |i| map.cell(i));
    (first, last)
}
