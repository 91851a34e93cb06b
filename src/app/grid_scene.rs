//! The tile-map scene: paint terrain, place start and goal, run BFS, Dijkstra, A*, IDA* or
//! Fringe Search step by step, and compare all of them on the same map.

use super::camera::{CanvasCamera, View, paint_tag};
use super::grid_query::{
    BACKGROUND_WORK, MAX_RECORDED_STEPS, SearchDone, SearchJob, left_out_note,
};
use super::latest_worker::LatestWorker;
use super::partitions_view::PartitionsView;
use super::playback::Playback;
pub use super::tile_paint::tile_color;
use super::tile_paint::{content_key, paint_tiles};
use crate::geom::Vec2;
pub use crate::grid::compare::ComparisonRow;
use crate::grid::search::DEFAULT_IDA_BUDGET;
use crate::grid::{Cell, Connectivity, GridAlgorithm, GridPath, Heuristic, Tile, TileMap};
use crate::navmesh::Bounds;
use crate::navmesh::from_map::MAX_AGENT_RADIUS;
use crate::search::{ExpansionSteps, FringeLists, IdaPath, SearchEvent, SearchOutcome};
use comparison::{ComparisonJob, comparison_rows};
use egui::{Color32, Pos2, Rect, Sense, Shape, Stroke, Ui};
use std::path::PathBuf;

pub(crate) mod comparison;

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

/// Which algorithm the animation shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AlgorithmKind {
    /// Breadth-first search.
    Bfs,
    /// Dijkstra.
    Dijkstra,
    /// A*.
    AStar,
    /// IDA*.
    IdaStar,
    /// Fringe Search.
    Fringe,
}

impl AlgorithmKind {
    /// All, in menu order.
    pub const ALL: [AlgorithmKind; 5] = [
        AlgorithmKind::Bfs,
        AlgorithmKind::Dijkstra,
        AlgorithmKind::AStar,
        AlgorithmKind::IdaStar,
        AlgorithmKind::Fringe,
    ];

    /// Menu name.
    pub fn name(self) -> &'static str {
        match self {
            AlgorithmKind::Bfs => "BFS",
            AlgorithmKind::Dijkstra => "Dijkstra",
            AlgorithmKind::AStar => "A*",
            AlgorithmKind::IdaStar => "IDA*",
            AlgorithmKind::Fringe => "Fringe",
        }
    }
}

/// The lab's options kept between runs.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct GridSettings {
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
}

impl Default for GridSettings {
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
        }
    }
}

/// One tile change (for undo).
#[derive(Debug, Clone, PartialEq)]
struct TileChange {
    cell: Cell,
    before: Tile,
    after: Tile,
}

/// Where a cell stands in the replayed search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum CellStatus {
    #[default]
    Unseen,
    Open,
    /// Waiting for a pass with a higher threshold: in Fringe's later list, or cut off by IDA*
    /// (and not entered yet).
    Later,
    Closed,
}

/// The tile-map scene's state.
pub struct GridScene {
    /// The map being edited.
    pub map: TileMap,
    /// Where it was loaded from or saved to.
    pub file: Option<PathBuf>,
    /// Unsaved edits.
    pub dirty: bool,
    /// Start cell.
    pub start: Cell,
    /// Goal cell.
    pub goal: Cell,
    /// The click tool.
    pub tool: Tool,
    /// The algorithm animated.
    pub algorithm: AlgorithmKind,
    /// Heuristic for A*, IDA*, Fringe.
    pub heuristic: Heuristic,
    /// A* weight.
    pub weight: f64,
    /// IDA* budget.
    pub budget: usize,
    /// Moves.
    pub connectivity: Connectivity,
    /// The agent radius "Build navmesh" keeps clear of walls, in tiles (0: the tiles as they
    /// are).
    pub agent_radius: f64,
    /// What that radius leaves out of the passable tiles, shaded on the canvas: for which map
    /// revision and radius it was computed, and the rectangles.
    clearance: (u64, f64, Vec<[f64; 4]>),
    /// Recorded events of the current search.
    pub events: Vec<SearchEvent>,
    /// Its answer.
    pub result: Option<GridPath>,
    /// Playback.
    pub playback: Playback,
    /// The comparison of every algorithm, once run.
    pub comparison: Option<Vec<ComparisonRow>>,
    /// Runs comparisons in the background.
    comparer: LatestWorker<ComparisonJob, Vec<ComparisonRow>>,
    /// Bumped whenever the map, start, goal or options change (outdates a search or a
    /// comparison running in the background).
    generation: u64,
    /// The view: fitted to the map until the user pans or zooms.
    pub camera: CanvasCamera,
    /// Where the canvas was drawn last frame.
    pub canvas_rect: Option<Rect>,
    /// Counts map changes (edits, undo, redo, loads), so other scenes can follow the map.
    pub revision: u64,
    /// Cell under the pointer.
    pub hover: Option<Cell>,
    /// Set when the step list should scroll to the cursor.
    follow_log: bool,
    undo: Vec<Vec<TileChange>>,
    redo: Vec<Vec<TileChange>>,
    stroke: Vec<TileChange>,
    /// The cell painted last in the current drag, so that the next one joins it with a line.
    stroke_last: Option<Cell>,
    rect_anchor: Option<Cell>,
    /// The start or goal marker being dragged.
    pub dragging: Option<Endpoint>,
    replay: GridReplay,
    /// Runs large searches off the UI thread.
    searcher: LatestWorker<SearchJob, SearchDone>,
    /// Where the playback cursor goes when the search on the worker is answered.
    resume_cursor: Option<usize>,
    /// Counts the searches shown, so that the canvas redraws the overlay when one arrives.
    shown: u64,
    /// Steps the shown search took after the recorded ones (before its last, `Finished`).
    steps_left_out: usize,
    /// The last pass that started among those steps: the pass the search ended in.
    last_pass_left_out: Option<(usize, f64)>,
    /// The recorded steps that start a pass (IDA*, Fringe Search), in order.
    pass_starts: Vec<usize>,
    /// The step list shows only expansions (and pass starts and the end).
    pub expansions_only: bool,
    /// The comparison shows only its heading row, giving the map and the steps the room.
    pub comparison_hidden: bool,
    /// The steps it then lists, found when first asked for.
    expansion_rows: std::cell::OnceCell<Vec<usize>>,
    /// The recorded steps that expanded each cell, for the cell's tooltip and the E key:
    /// indexed when first asked for (a search re-run as S or G is dragged never is).
    expansion_steps: std::cell::OnceCell<ExpansionSteps>,
    /// The Partitions window: the paper's four partitions of this map, compared.
    pub partitions: PartitionsView,
}

/// The start or the goal of the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// The start cell.
    Start,
    /// The goal cell.
    Goal,
}

#[derive(Debug, Clone, Default)]
struct GridReplay {
    cursor: usize,
    status: Vec<CellStatus>,
    expansions: Vec<u32>,
    g: Vec<f32>,
    h: Vec<f32>,
    current: Option<usize>,
    iteration: usize,
    threshold: f64,
    finished: Option<SearchOutcome>,
    /// The open list as the events so far leave it.
    frontier: crate::search::Frontier,
    /// Fringe Search's now and later lists, when the search replayed is one.
    fringe: Option<FringeLists>,
    /// IDA*'s path, when the search replayed is IDA*.
    ida: Option<IdaPath>,
    /// The cells the steps so far changed, so that going back resets only those (a 2048² map
    /// has 4 M cells, a search may touch a few thousand).
    touched: Vec<usize>,
}

/// What the replay keeps besides the cells: the open list, Fringe's lists or IDA*'s path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReplayLists {
    Open,
    Fringe,
    IdaPath,
}

impl ReplayLists {
    fn of(algorithm: AlgorithmKind) -> Self {
        match algorithm {
            AlgorithmKind::Fringe => ReplayLists::Fringe,
            AlgorithmKind::IdaStar => ReplayLists::IdaPath,
            _ => ReplayLists::Open,
        }
    }
}

impl GridReplay {
    /// The state before any step of a search on `cells` cells, keeping `lists`.
    fn new(cells: usize, lists: ReplayLists) -> Self {
        Self {
            status: vec![CellStatus::Unseen; cells],
            expansions: vec![0; cells],
            g: vec![f32::NAN; cells],
            h: vec![f32::NAN; cells],
            fringe: (lists == ReplayLists::Fringe).then(FringeLists::new),
            ida: (lists == ReplayLists::IdaPath).then(IdaPath::new),
            ..Self::default()
        }
    }

    /// What the step shown has made of cell `i`, in words (`None`: nothing yet).
    fn state_words(&self, i: usize) -> Option<&'static str> {
        match (self.status.get(i)?, self.lists()) {
            (CellStatus::Unseen, _) => None,
            (CellStatus::Open, _) => Some("open"),
            (CellStatus::Closed, _) => Some("expanded"),
            (CellStatus::Later, ReplayLists::IdaPath) => {
                Some("cut off: its f was over the threshold, not entered yet")
            }
            (CellStatus::Later, _) => Some("in the later list: waits for the next pass"),
        }
    }

    fn lists(&self) -> ReplayLists {
        match (&self.fringe, &self.ida) {
            (Some(_), _) => ReplayLists::Fringe,
            (_, Some(_)) => ReplayLists::IdaPath,
            _ => ReplayLists::Open,
        }
    }

    fn seek(&mut self, events: &[SearchEvent], cursor: usize, cells: usize) {
        let cursor = cursor.min(events.len());
        if self.status.len() != cells {
            *self = GridReplay::new(cells, self.lists());
        } else if cursor < self.cursor {
            self.restart();
        }
        while self.cursor < cursor {
            self.apply(&events[self.cursor]);
            self.cursor += 1;
        }
    }

    /// Back to the state before any step, resetting only the cells touched.
    fn restart(&mut self) {
        for &i in &self.touched {
            self.status[i] = CellStatus::Unseen;
            self.expansions[i] = 0;
            self.g[i] = f32::NAN;
            self.h[i] = f32::NAN;
        }
        self.touched.clear();
        self.cursor = 0;
        self.current = None;
        self.iteration = 0;
        self.threshold = 0.0;
        self.finished = None;
        self.frontier = crate::search::Frontier::new();
        if let Some(lists) = &mut self.fringe {
            *lists = FringeLists::new();
        }
        if let Some(path) = &mut self.ida {
            *path = IdaPath::new();
        }
    }

    fn apply(&mut self, event: &SearchEvent) {
        // Fringe Search shows its own lists instead of the open list, IDA* its path.
        match (&mut self.fringe, &mut self.ida) {
            (Some(lists), _) => lists.apply(event),
            (_, Some(path)) => path.apply(event),
            _ => self.frontier.apply(event),
        }
        let n = self.status.len();
        if let SearchEvent::Opened { node, .. }
        | SearchEvent::Improved { node, .. }
        | SearchEvent::Expanded { node, .. }
        | SearchEvent::Deferred { node, .. }
        | SearchEvent::CutOff { node, .. } = *event
            && node < n
            && self.status[node] == CellStatus::Unseen
        {
            self.touched.push(node);
        }
        match *event {
            SearchEvent::Opened { node, g, h, .. } | SearchEvent::Improved { node, g, h, .. }
                if node < n =>
            {
                self.status[node] = CellStatus::Open;
                self.g[node] = g as f32;
                self.h[node] = h as f32;
            }
            SearchEvent::Expanded { node, g, h } if node < n => {
                self.status[node] = CellStatus::Closed;
                self.expansions[node] += 1;
                self.g[node] = g as f32;
                self.h[node] = h as f32;
                self.current = Some(node);
            }
            SearchEvent::Deferred { node, .. } if node < n => {
                self.status[node] = CellStatus::Later;
            }
            // A cell expanded before keeps its closed shade (and its costs from then); one cut
            // off again shows its latest costs.
            SearchEvent::CutOff { node, g, h }
                if node < n && self.status[node] != CellStatus::Closed =>
            {
                self.status[node] = CellStatus::Later;
                self.g[node] = g as f32;
                self.h[node] = h as f32;
            }
            SearchEvent::Backtracked { .. } => {
                // IDA* goes on from the node it backed up to.
                self.current = self
                    .ida
                    .as_ref()
                    .and_then(|p| p.nodes().last())
                    .map(|p| p.node);
            }
            SearchEvent::IterationStarted {
                iteration,
                threshold,
                ..
            } => {
                self.iteration = iteration;
                self.threshold = threshold;
            }
            SearchEvent::Finished { outcome, .. } => {
                self.finished = Some(outcome);
                self.current = None;
            }
            _ => {}
        }
    }
}

/// Names the texture the tile-map canvas draws a zoomed-out map with.
pub fn tiles_texture_id() -> egui::Id {
    egui::Id::unique("tile map tiles")
}

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

impl Default for GridScene {
    fn default() -> Self {
        Self::new(default_map())
    }
}

impl GridScene {
    /// A scene on `map`, start top-left and goal bottom-right (first passable cells).
    pub fn new(map: TileMap) -> Self {
        let (start, goal) = default_cells(&map);
        let mut scene = Self {
            map,
            file: None,
            dirty: false,
            start,
            goal,
            tool: Tool::Paint(Tile::Wall),
            algorithm: AlgorithmKind::AStar,
            heuristic: Heuristic::Octile,
            weight: 1.0,
            budget: DEFAULT_IDA_BUDGET,
            connectivity: Connectivity::Eight,
            agent_radius: 0.0,
            clearance: (0, 0.0, Vec::new()),
            events: Vec::new(),
            steps_left_out: 0,
            last_pass_left_out: None,
            pass_starts: Vec::new(),
            expansion_steps: Default::default(),
            expansions_only: false,
            comparison_hidden: false,
            expansion_rows: Default::default(),
            result: None,
            playback: Playback::default(),
            comparison: None,
            comparer: LatestWorker::new("navlab comparison", |job| comparison_rows(&job)),
            generation: 0,
            camera: CanvasCamera::default(),
            canvas_rect: None,
            revision: 0,
            hover: None,
            follow_log: true,
            undo: Vec::new(),
            redo: Vec::new(),
            stroke: Vec::new(),
            stroke_last: None,
            rect_anchor: None,
            dragging: None,
            replay: GridReplay::default(),
            searcher: LatestWorker::new("navlab grid search", SearchJob::run),
            resume_cursor: None,
            shown: 0,
            partitions: PartitionsView::default(),
        };
        scene.rerun();
        scene
    }

    /// The options to keep between runs.
    pub fn settings(&self) -> GridSettings {
        GridSettings {
            algorithm: self.algorithm,
            heuristic: self.heuristic,
            weight: self.weight,
            budget: self.budget,
            connectivity: self.connectivity,
            speed: self.playback.speed,
            agent_radius: self.agent_radius,
            expansions_only: self.expansions_only,
            comparison_hidden: self.comparison_hidden,
        }
    }

    /// Applies saved options and re-runs the search.
    pub fn apply_settings(&mut self, settings: &GridSettings) {
        self.algorithm = settings.algorithm;
        self.heuristic = settings.heuristic;
        self.weight = if settings.weight.is_finite() {
            settings.weight.clamp(0.0, 5.0)
        } else {
            1.0
        };
        self.budget = settings.budget.clamp(1_000, 10_000_000);
        self.connectivity = settings.connectivity;
        self.playback.speed = settings.speed;
        self.expansions_only = settings.expansions_only;
        self.comparison_hidden = settings.comparison_hidden;
        self.agent_radius = if settings.agent_radius.is_finite() {
            settings.agent_radius.clamp(0.0, MAX_AGENT_RADIUS)
        } else {
            0.0
        };
        self.rerun();
    }

    /// Replaces the map (after a load or "new"), forgetting history.
    pub fn set_map(&mut self, map: TileMap, file: Option<PathBuf>) {
        let (start, goal) = default_cells(&map);
        self.map = map;
        self.revision += 1;
        self.file = file;
        self.dirty = false;
        self.start = start;
        self.goal = goal;
        self.undo.clear();
        self.redo.clear();
        self.camera.fit_next_frame();
        self.comparison = None;
        self.partitions.clear();
        self.playback.cursor = 0;
        // The last search was of another map: forget it rather than show it over this one
        // while a large map is searched on the worker.
        self.events.clear();
        self.steps_left_out = 0;
        self.last_pass_left_out = None;
        self.pass_starts.clear();
        self.expansion_steps = Default::default();
        self.expansion_rows = Default::default();
        self.result = None;
        self.replay = GridReplay::new(self.map.cell_count(), ReplayLists::Open);
        self.shown += 1;
        self.rerun();
    }

    /// The algorithm with the scene's settings.
    pub fn grid_algorithm(&self, kind: AlgorithmKind) -> GridAlgorithm {
        match kind {
            AlgorithmKind::Bfs => GridAlgorithm::Bfs,
            AlgorithmKind::Dijkstra => GridAlgorithm::Dijkstra,
            AlgorithmKind::AStar => GridAlgorithm::AStar {
                heuristic: self.heuristic,
                weight: self.weight,
            },
            AlgorithmKind::IdaStar => GridAlgorithm::IdaStar {
                heuristic: self.heuristic,
                budget: self.budget,
            },
            AlgorithmKind::Fringe => GridAlgorithm::Fringe {
                heuristic: self.heuristic,
            },
        }
    }

    /// Runs the selected algorithm again, recording its steps: here for small searches, on the
    /// worker thread for large ones (see [`BACKGROUND_WORK`]), whose answer
    /// [`GridScene::poll_search`] shows when it arrives; until then the last answer stays.
    pub fn rerun(&mut self) {
        self.comparison = None;
        self.generation += 1;
        self.comparer.forget();
        let job = SearchJob {
            map: self.map.clone(),
            start: self.start,
            goal: self.goal,
            algorithm: self.grid_algorithm(self.algorithm),
            connectivity: self.connectivity,
        };
        let in_background = job.expected_work() > BACKGROUND_WORK;
        match self
            .searcher
            .answer_or_submit(self.generation, job, in_background)
        {
            Some(done) => self.show_search(done),
            None => {
                // The cursor may ask for the end (usize::MAX): kept for the new steps.
                self.resume_cursor = Some(self.playback.cursor);
                self.playback.cursor = self.playback.cursor.min(self.events.len());
            }
        }
    }

    /// Shows a finished search: its steps replace the recorded ones, the replay keeps its step.
    fn show_search(&mut self, done: SearchDone) {
        self.events = done.events;
        // Step k shows events[k - 1].
        self.pass_starts = self
            .events
            .iter()
            .enumerate()
            .filter(|(_, event)| starts_a_pass(event))
            .map(|(i, _)| i + 1)
            .collect();
        self.expansion_steps = Default::default();
        self.expansion_rows = Default::default();
        self.steps_left_out = done.left_out;
        self.last_pass_left_out = done.last_pass_left_out;
        self.result = Some(done.result);
        self.shown += 1;
        let cursor = self.resume_cursor.take().unwrap_or(self.playback.cursor);
        self.playback.cursor = cursor.min(self.events.len());
        let lists = ReplayLists::of(self.algorithm);
        self.replay = GridReplay::new(self.map.cell_count(), lists);
        self.replay
            .seek(&self.events, self.playback.cursor, self.map.cell_count());
    }

    /// Shows the worker's answer if it has arrived; returns true while it is still searching.
    pub fn poll_search(&mut self) -> bool {
        if let Some(done) = self.searcher.take() {
            self.show_search(done);
        }
        self.is_searching()
    }

    /// Waits (up to a minute) for the worker's answer and shows it: for screenshots and tests.
    pub fn wait_for_search(&mut self) {
        if let Some(done) = self.searcher.wait(std::time::Duration::from_secs(60)) {
            self.show_search(done);
        }
    }

    /// True while a search runs on the worker; the last answer is shown meanwhile.
    pub fn is_searching(&self) -> bool {
        self.searcher.is_busy()
    }

    /// Moves the replay to the playback cursor.
    pub fn sync_replay(&mut self) {
        if self.replay.cursor != self.playback.cursor.min(self.events.len()) {
            self.follow_log = true;
        }
        self.replay
            .seek(&self.events, self.playback.cursor, self.map.cell_count());
    }

    /// The sentence of recorded step `k` (1-based); see [`step_sentence`].
    fn step_sentence(&self, k: usize) -> String {
        step_sentence(
            &self.events,
            self.steps_left_out,
            self.grid_algorithm(self.algorithm),
            self.map.width(),
            k,
        )
    }

    /// The step that starts the first pass after the shown step (`None`: no later pass is
    /// recorded).
    fn next_pass_step(&self) -> Option<usize> {
        super::playback::next_start(&self.pass_starts, self.playback.cursor)
    }

    /// The step that starts the pass the shown step is in, or the pass before when the shown
    /// step starts one (`None`: no earlier pass).
    fn previous_pass_step(&self) -> Option<usize> {
        super::playback::previous_start(&self.pass_starts, self.playback.cursor)
    }

    /// Shows the step `step` (pausing), scrolling the step list to it.
    fn jump_to(&mut self, step: Option<usize>) {
        if let Some(step) = step {
            self.playback.playing = false;
            self.playback.cursor = step;
            self.follow_log = true;
        }
    }

    /// The step that next expands `cell` after the shown step, or its first expansion when
    /// none comes later (`None`: never expanded in the recorded steps).
    fn next_expansion_of(&self, cell: Cell) -> Option<usize> {
        self.expansion_steps()
            .next_after(self.map.index(cell), self.playback.cursor)
    }

    /// The steps that expanded each cell in the recorded search.
    fn expansion_steps(&self) -> &ExpansionSteps {
        self.expansion_steps
            .get_or_init(|| ExpansionSteps::new(&self.events))
    }

    /// Page Up / Page Down: the previous / next pass of IDA* or Fringe Search; E: the step that
    /// expands the cell under the pointer (again: its next expansion).
    pub fn replay_keys(&mut self, ui: &Ui) {
        match super::playback::page_key_pressed(ui) {
            Some(true) => self.jump_to(self.next_pass_step()),
            Some(false) => self.jump_to(self.previous_pass_step()),
            None => {}
        }
        if super::playback::expansion_key_pressed(ui) {
            self.jump_to(self.hover.and_then(|cell| self.next_expansion_of(cell)));
        }
    }

    /// The recorded steps, one line each; clicking one jumps there.
    pub fn event_log_ui(&mut self, ui: &mut Ui) {
        if self.steps_left_out > 0 {
            ui.label(
                egui::RichText::new(format!(
                    "Only the first {} steps are recorded: {} more came before the last one.",
                    crate::words::thousands(MAX_RECORDED_STEPS),
                    crate::words::thousands(self.steps_left_out)
                ))
                .color(ui.visuals().warn_fg_color),
            )
            .on_hover_text("The answer and the counts are the whole search's; only the animation stops early. A smaller node budget, or a start and goal closer together, records every step.");
        }
        let passes = matches!(
            self.algorithm,
            AlgorithmKind::IdaStar | AlgorithmKind::Fringe
        );
        let changed = ui
            .checkbox(&mut self.expansions_only, "Expansions only")
            .on_hover_text(if passes {
                "List only the steps that expand a cell, start a pass, or end the search (the playback still goes through every step)"
            } else {
                "List only the steps that expand a cell or end the search (the playback still goes through every step)"
            })
            .changed();
        if changed {
            self.follow_log = true;
        }
        let listed = self.expansions_only.then(|| {
            self.expansion_rows
                .get_or_init(|| expansion_rows(&self.events))
                .as_slice()
        });
        let (events, left_out) = (&self.events, self.steps_left_out);
        let (algorithm, width) = (self.grid_algorithm(self.algorithm), self.map.width());
        let jumped = super::playback::event_log_ui(
            ui,
            &mut self.playback,
            events.len(),
            listed,
            &mut self.follow_log,
            |k| step_sentence(events, left_out, algorithm, width, k),
        );
        if jumped {
            self.sync_replay();
        }
    }

    /// Keeps the Partitions window's comparison up to date with the map, S and G; true while
    /// one is being worked on.
    pub fn poll_partitions(&mut self) -> bool {
        let ends = (self.start, self.goal);
        self.partitions
            .follow(&self.map, self.revision, ends, self.connectivity)
    }

    /// Paints one tile as part of the current stroke (one undo step, ended by
    /// [`GridScene::end_stroke`]).
    pub fn paint_tile(&mut self, cell: Cell, tile: Tile) {
        if let Some(before) = self.map.get(cell)
            && before != tile
        {
            self.map.set(cell, tile);
            self.revision += 1;
            self.stroke.push(TileChange {
                cell,
                before,
                after: tile,
            });
        }
    }

    /// Paints one tile as a complete edit (one undo step); returns true when it changed.
    pub fn paint(&mut self, cell: Cell, tile: Tile) -> bool {
        self.paint_tile(cell, tile);
        self.end_stroke()
    }

    /// Ends the current stroke: it becomes one undo step; returns true when it changed anything.
    pub fn end_stroke(&mut self) -> bool {
        if self.stroke.is_empty() {
            return false;
        }
        self.undo.push(std::mem::take(&mut self.stroke));
        self.redo.clear();
        self.dirty = true;
        self.rerun();
        true
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) -> bool {
        let Some(edit) = self.undo.pop() else {
            return false;
        };
        for change in edit.iter().rev() {
            self.map.set(change.cell, change.before);
        }
        self.revision += 1;
        self.redo.push(edit);
        self.dirty = true;
        self.rerun();
        true
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) -> bool {
        let Some(edit) = self.redo.pop() else {
            return false;
        };
        for change in &edit {
            self.map.set(change.cell, change.after);
        }
        self.revision += 1;
        self.undo.push(edit);
        self.dirty = true;
        self.rerun();
        true
    }

    /// True when there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True when there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The canvas view of the last frame.
    pub fn last_view(&self) -> Option<View> {
        Some(View {
            camera: self.camera.get()?,
            rect: self.canvas_rect?,
        })
    }

    /// Undo/redo keys. Returns nothing; edits rerun the search.
    pub fn keyboard(&mut self, ui: &Ui) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let redo_shift = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        // The longer shortcut first, so Ctrl+Shift+Z is not taken for Ctrl+Z.
        let (r1, r2, u) = ui.input_mut(|i| {
            (
                i.consume_shortcut(&redo_shift),
                i.consume_shortcut(&redo_y),
                i.consume_shortcut(&undo),
            )
        });
        if r1 || r2 {
            self.redo();
        }
        if u {
            self.undo();
        }
    }

    /// The tile the brush paints with (wall while placing the start or goal).
    pub fn brush_tile(&self) -> Tile {
        match self.tool {
            Tool::Paint(tile) | Tool::Rectangle(tile) | Tool::Fill(tile) => tile,
            Tool::Start | Tool::Goal => Tile::Wall,
        }
    }

    /// Selects the tile to paint with, keeping the rectangle or fill mode if one is on.
    pub fn choose_tile(&mut self, tile: Tile) {
        self.tool = match self.tool {
            Tool::Rectangle(_) => Tool::Rectangle(tile),
            Tool::Fill(_) => Tool::Fill(tile),
            _ => Tool::Paint(tile),
        };
    }

    /// Switches between filling rectangles and painting freely, with the same tile.
    pub fn toggle_rectangle(&mut self) {
        self.tool = match self.tool {
            Tool::Rectangle(tile) => Tool::Paint(tile),
            _ => Tool::Rectangle(self.brush_tile()),
        };
    }

    /// Switches between filling regions and painting freely, with the same tile.
    pub fn toggle_fill(&mut self) {
        self.tool = match self.tool {
            Tool::Fill(tile) => Tool::Paint(tile),
            _ => Tool::Fill(self.brush_tile()),
        };
    }

    /// Fills the region of `cell` (see [`TileMap::region_of`]) with `tile`, as one edit;
    /// returns true when it changed anything.
    pub fn fill(&mut self, cell: Cell, tile: Tile) -> bool {
        for c in self.map.region_of(cell) {
            self.paint_tile(c, tile);
        }
        self.end_stroke()
    }

    /// The palette's keys, for when no text field has the keyboard: 1–5 choose the tile (in
    /// the palette's order), R switches rectangle filling on and off, G region filling.
    pub fn palette_keys(&mut self, ui: &Ui) {
        use egui::Key;
        let keys = [Key::Num1, Key::Num2, Key::Num3, Key::Num4, Key::Num5];
        let (chosen, rectangle, fill, partitions, compare) = ui.input(|i| {
            let plain = i.modifiers.is_none();
            (
                keys.iter()
                    .position(|&k| plain && i.key_pressed(k))
                    .and_then(|k| Tile::ALL.get(k).copied()),
                plain && i.key_pressed(Key::R),
                plain && i.key_pressed(Key::G),
                plain && i.key_pressed(Key::P),
                plain && i.key_pressed(Key::C),
            )
        });
        if compare && !self.is_comparing() {
            self.compare_in_background();
        }
        if partitions {
            self.partitions.open = !self.partitions.open;
        }
        if let Some(tile) = chosen {
            self.choose_tile(tile);
        }
        if rectangle {
            self.toggle_rectangle();
        }
        if fill {
            self.toggle_fill();
        }
    }

    /// Palette, algorithm and its settings.
    pub fn controls_ui(&mut self, ui: &mut Ui) {
        ui.label("Paint");
        ui.horizontal_wrapped(|ui| {
            for (key, tile) in Tile::ALL.into_iter().enumerate() {
                let selected =
                    !matches!(self.tool, Tool::Start | Tool::Goal) && self.brush_tile() == tile;
                if ui
                    .add(tile_button(tile, selected))
                    .on_hover_text(format!("{} (key {})", tile_help(tile), key + 1))
                    .clicked()
                {
                    self.choose_tile(tile);
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            if ui
                .selectable_label(matches!(self.tool, Tool::Rectangle(_)), "Rectangle")
                .on_hover_text(
                    "Drag from corner to corner to fill with the selected tile (R; again to paint freely)",
                )
                .clicked()
            {
                self.toggle_rectangle();
            }
            if ui
                .selectable_label(matches!(self.tool, Tool::Fill(_)), "Fill")
                .on_hover_text(
                    "Click to fill the cell's region (its tile, reached by side steps) with the selected tile (G; again to paint freely)",
                )
                .clicked()
            {
                self.toggle_fill();
            }
            if ui
                .selectable_label(self.tool == Tool::Start, "Place start")
                .on_hover_text("Click a cell to put the start there")
                .clicked()
            {
                self.tool = Tool::Start;
            }
            if ui
                .selectable_label(self.tool == Tool::Goal, "Place goal")
                .clicked()
            {
                self.tool = Tool::Goal;
            }
        });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.can_undo(), egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z")
                .clicked()
            {
                self.undo();
            }
            if ui
                .add_enabled(self.can_redo(), egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Shift+Z or Ctrl+Y")
                .clicked()
            {
                self.redo();
            }
        });
        ui.separator();
        let mut changed = false;
        ui.label("Algorithm");
        ui.horizontal_wrapped(|ui| {
            for kind in AlgorithmKind::ALL {
                changed |= ui
                    .radio_value(&mut self.algorithm, kind, kind.name())
                    .changed();
            }
        });
        let uses_heuristic =
            !matches!(self.algorithm, AlgorithmKind::Bfs | AlgorithmKind::Dijkstra);
        ui.add_enabled_ui(uses_heuristic, |ui| {
            egui::ComboBox::from_label("Heuristic")
                .selected_text(self.heuristic.name())
                .show_ui(ui, |ui| {
                    for h in Heuristic::ALL {
                        changed |= ui
                            .selectable_value(&mut self.heuristic, h, h.name())
                            .changed();
                    }
                });
        });
        if self.algorithm == AlgorithmKind::AStar {
            changed |= ui
                .add(egui::Slider::new(&mut self.weight, 0.0..=5.0).text("Weight"))
                .on_hover_text("1 = optimal; above 1 greedier, faster, not optimal")
                .changed();
        }
        if self.algorithm == AlgorithmKind::IdaStar {
            changed |= ui
                .add(
                    super::playback::grouped_digits(
                        egui::Slider::new(&mut self.budget, 1_000..=10_000_000).logarithmic(true),
                    )
                    .text("Node budget"),
                )
                .on_hover_text("IDA* gives up after this many expansions, and says so")
                .changed();
        }
        ui.horizontal(|ui| {
            ui.label("Moves");
            changed |= ui
                .radio_value(&mut self.connectivity, Connectivity::Eight, "8 directions")
                .changed();
            changed |= ui
                .radio_value(&mut self.connectivity, Connectivity::Four, "4 directions")
                .changed();
        });
        ui.label("Tile costs");
        let mut costs = self.map.costs;
        for (label, value) in [
            ("Grass", &mut costs.grass),
            ("Sand", &mut costs.sand),
            ("Water", &mut costs.water),
        ] {
            changed |= ui
                .add(egui::Slider::new(value, 0.1..=10.0).text(format!("{label} cost")))
                .changed();
        }
        if costs != self.map.costs && costs.are_valid() {
            self.map.costs = costs;
            self.dirty = true;
        }
        if changed {
            self.rerun();
        }
        ui.separator();
        self.stats_ui(ui);
    }

    /// The open list at the shown step, in the order the algorithm takes it: why the next cell
    /// is the next. Fringe Search shows its now and later lists instead, IDA* its path.
    pub fn frontier_ui(&self, ui: &mut Ui) {
        let width = self.map.width().max(1);
        let name = |node: usize| format!("{},{}", node % width, node / width);
        let finished = self.replay.finished.is_some();
        if let Some(lists) = &self.replay.fringe {
            super::playback::fringe_lists_ui(ui, lists, finished, name);
            return;
        }
        if let Some(path) = &self.replay.ida {
            super::playback::ida_path_ui(ui, path, self.replay.threshold, finished, name);
            return;
        }
        let no_list = match self.algorithm {
            AlgorithmKind::IdaStar => {
                "IDA* keeps no open list: it goes depth first, as deep as the threshold allows."
            }
            _ => "Fringe Search's lists show once its search is replayed.",
        };
        super::playback::open_list_ui(
            ui,
            &self.replay.frontier,
            self.grid_algorithm(self.algorithm).expansion_order(),
            finished,
            (no_list, ""),
            name,
        );
    }

    /// The cell the search takes next while it is being replayed: the open list's head, or
    /// for Fringe Search the head of its now list (visited next, to be expanded or put off).
    pub fn next_to_expand(&self) -> Option<Cell> {
        if self.replay.finished.is_some() {
            return None;
        }
        if let Some(lists) = &self.replay.fringe {
            return lists.next(1).first().map(|entry| self.map.cell(entry.node));
        }
        let order = self.grid_algorithm(self.algorithm).expansion_order();
        let next = self.replay.frontier.next(order, 1)?;
        next.first().map(|entry| self.map.cell(entry.node))
    }

    /// What the step shown has made of `cell`, as its tooltip says: open, expanded, in
    /// Fringe's later list or cut off by IDA* (`None`: not reached yet, or off the map).
    pub fn cell_state(&self, cell: Cell) -> Option<&'static str> {
        self.map
            .get(cell)
            .and_then(|_| self.replay.state_words(self.map.index(cell)))
    }

    fn stats_ui(&mut self, ui: &mut Ui) {
        if self.is_searching() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Searching…")
                    .on_hover_text("Large searches run in the background; the last answer stays on the map until the new one is ready");
            });
        }
        let mut jump = None;
        if let Some(r) = &self.result {
            egui::Grid::new("grid_stats").num_columns(2).show(ui, |ui| {
                ui.label("Status");
                ui.label(match r.outcome {
                    SearchOutcome::Found => "found",
                    SearchOutcome::Unreachable => "unreachable",
                    SearchOutcome::BudgetExceeded => "budget exceeded",
                });
                ui.end_row();
                ui.label("Path cost");
                ui.label(if r.cost.is_finite() {
                    format!("{:.3}", r.cost)
                } else {
                    "—".to_string()
                });
                ui.end_row();
                ui.label("Expanded");
                ui.label(crate::words::thousands(r.expanded));
                ui.end_row();
                ui.label("Peak memory");
                ui.label(format!("{} nodes", crate::words::thousands(r.peak_memory)));
                ui.end_row();
                // At the end, the pass the search ended in, even if the steps recorded stop in
                // an earlier one; else the shown step's.
                let at_end = self.playback.cursor >= self.events.len();
                let pass = match self.last_pass_left_out.filter(|_| at_end) {
                    Some(last) => Some((
                        last,
                        "The pass the search ended in; the recorded steps stop in an earlier one",
                    )),
                    None => (self.replay.iteration > 0).then_some((
                        (self.replay.iteration, self.replay.threshold),
                        "The pass at the shown step and its threshold",
                    )),
                };
                if let Some(((iteration, threshold), tip)) = pass {
                    ui.label("Pass / threshold");
                    ui.label(format!(
                        "{} / {}",
                        crate::words::thousands(iteration),
                        crate::words::thousands_decimal(threshold, 2)
                    ))
                    .on_hover_text(tip);
                    ui.end_row();
                }
            });
            if !self.pass_starts.is_empty() {
                let (previous, next) = (self.previous_pass_step(), self.next_pass_step());
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(
                            previous.is_some(),
                            egui::Button::new("Previous pass").small(),
                        )
                        .on_hover_text(
                            "Back to where this pass started, or the one before (Page Up)",
                        )
                        .clicked()
                    {
                        jump = previous;
                    }
                    if ui
                        .add_enabled(next.is_some(), egui::Button::new("Next pass").small())
                        .on_hover_text("On to where the next pass starts (Page Down)")
                        .clicked()
                    {
                        jump = next;
                    }
                });
            }
            if ui
                .add_enabled(!self.is_searching(), egui::Button::new("Copy path").small())
                .on_hover_text(
                    "Copy the answer as `navlab grid --json` prints it: the path's cells (x, y), cost, counts",
                )
                .on_disabled_hover_text("The search is still running")
                .clicked()
            {
                ui.ctx().copy_text(r.to_json().to_string());
            }
        }
        self.jump_to(jump);
    }

    /// The sentence for the step just taken.
    pub fn current_explanation(&self) -> String {
        match self.playback.cursor.min(self.events.len()) {
            0 => format!(
                "Ready: {} from {:?} to {:?}. Press Play (Space). Left click paints, right click sets the goal.",
                self.algorithm.name(),
                self.start,
                self.goal
            ),
            k => self.step_sentence(k),
        }
    }

    /// What the selected tool does with this frame's pointer: paint, fill, place.
    fn tool_input(
        &mut self,
        ui: &Ui,
        response: &egui::Response,
        cell_at: impl Fn(Pos2) -> Option<Cell> + Copy,
        (shift, primary, primary_down): (bool, bool, bool),
    ) {
        let pointer = response.interact_pointer_pos();
        // A whole press, its moves and its release can reach egui in one frame (after a slow
        // one, such as a search re-run on a large map): egui then reports no drag at all.
        let in_one_frame: Option<Vec<Cell>> = stroke_within_frame(ui, response)
            .map(|points| points.into_iter().filter_map(cell_at).collect());
        match self.tool {
            Tool::Paint(tile) if !shift && in_one_frame.is_some() => {
                let mut last = None;
                for cell in in_one_frame.into_iter().flatten() {
                    for c in stroke_cells(last.map(StrokeFrom::Painted), cell) {
                        self.paint_tile(c, tile);
                    }
                    last = Some(cell);
                }
                self.stroke_last = None;
                self.end_stroke();
            }
            Tool::Rectangle(tile)
                if let Some([a, .., b]) = in_one_frame.as_deref()
                    && a != b =>
            {
                for y in a.1.min(b.1)..=a.1.max(b.1) {
                    for x in a.0.min(b.0)..=a.0.max(b.0) {
                        self.paint_tile((x, y), tile);
                    }
                }
                self.rect_anchor = None;
                self.end_stroke();
            }
            Tool::Paint(tile) => {
                if (primary || response.clicked())
                    && let Some(cell) = pointer.and_then(cell_at)
                {
                    if shift && self.map.is_passable(cell) {
                        self.goal = cell;
                        self.playback.cursor = usize::MAX;
                        self.rerun();
                    } else if !shift {
                        // The pointer can cross several cells between two frames.
                        let pressed = ui.input(|i| i.pointer.press_origin()).and_then(cell_at);
                        for c in stroke_cells(StrokeFrom::new(self.stroke_last, pressed), cell) {
                            self.paint_tile(c, tile);
                        }
                        self.stroke_last = Some(cell);
                    }
                }
                if !primary_down {
                    self.stroke_last = None;
                    self.end_stroke();
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
                {
                    for y in a.1.min(b.1)..=a.1.max(b.1) {
                        for x in a.0.min(b.0)..=a.0.max(b.0) {
                            self.paint_tile((x, y), tile);
                        }
                    }
                    self.end_stroke();
                }
                if response.clicked()
                    && let Some(cell) = pointer.and_then(cell_at)
                {
                    self.paint(cell, tile);
                }
            }
            Tool::Fill(tile) => {
                if response.clicked()
                    && let Some(cell) = pointer.and_then(cell_at)
                {
                    self.fill(cell, tile);
                }
            }
            Tool::Start | Tool::Goal => {
                if response.clicked()
                    && let Some(cell) = pointer.and_then(cell_at)
                    && self.map.is_passable(cell)
                {
                    if self.tool == Tool::Start {
                        self.start = cell;
                    } else {
                        self.goal = cell;
                    }
                    self.playback.cursor = usize::MAX;
                    self.rerun();
                }
            }
        }
    }

    /// The map canvas.
    pub fn canvas_ui(&mut self, ui: &mut Ui) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Tile map canvas"));
        let rect = response.rect;
        self.canvas_rect = Some(rect);
        let bounds = Bounds {
            min: Vec2::new(0.0, 0.0),
            max: Vec2::new(self.map.width() as f64, self.map.height() as f64),
        };
        let camera = self.camera.for_canvas(bounds, rect);
        let view = View { camera, rect };
        painter.rect_filled(rect, 0.0, Color32::from_rgb(24, 26, 31));
        let (map_w, map_h) = (self.map.width(), self.map.height());
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
            && self.map.is_passable(cell)
        {
            self.goal = cell;
            self.playback.cursor = usize::MAX;
            self.rerun();
        }
        let primary_down = ui.input(|i| i.pointer.primary_down());
        let primary = response.is_pointer_button_down_on() && primary_down;
        // A press on S or G grabs it, whatever the tool (as in the navmesh view): dragging moves
        // it over passable cells and the search re-runs live; nothing is painted.
        let over_marker = |cell: Option<Cell>| match cell {
            Some(c) if c == self.start => Some(Endpoint::Start),
            Some(c) if c == self.goal => Some(Endpoint::Goal),
            _ => None,
        };
        if ui.input(|i| i.pointer.primary_pressed()) && response.hovered() && !shift {
            let pressed = ui.input(|i| i.pointer.press_origin()).and_then(cell_at);
            self.dragging = over_marker(pressed);
        }
        if self.dragging.is_some() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
        } else if over_marker(self.hover).is_some() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grab);
        }
        if let Some(endpoint) = self.dragging {
            let under = ui.input(|i| i.pointer.interact_pos()).and_then(cell_at);
            if let Some(cell) = under.filter(|&c| self.map.is_passable(c)) {
                let moved = match endpoint {
                    Endpoint::Start => std::mem::replace(&mut self.start, cell) != cell,
                    Endpoint::Goal => std::mem::replace(&mut self.goal, cell) != cell,
                };
                if moved {
                    self.playback.cursor = usize::MAX;
                    self.rerun();
                }
            }
            if !primary_down {
                self.dragging = None;
            }
        } else {
            self.tool_input(ui, &response, cell_at, (shift, primary, primary_down));
        }
        // Pan with the middle or right button held (a right click without moving sets the goal).
        if response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Secondary)
        {
            self.camera.pan(response.drag_delta());
        }
        self.camera.zoom_with_wheel(ui, &response);
        self.sync_replay();
        self.refresh_clearance();
        self.paint_map(&painter, view);
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
            let _ = response.on_hover_ui_at_pointer(|ui| self.cell_tooltip_ui(ui, cell));
        }
        super::camera::paint_caption(&painter, rect, self.current_explanation());
    }

    fn cell_tooltip_ui(&self, ui: &mut Ui, cell: Cell) {
        // Short lines, each one line: the tooltip grows to fit them rather than wrapping them to
        // the width it had for the last cell it showed.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        let tile = self.map.get(cell).unwrap_or_default();
        ui.label(format!("cell {},{}: {}", cell.0, cell.1, tile.name()));
        let i = self.map.index(cell);
        if let (Some(&g), Some(&h)) = (self.replay.g.get(i), self.replay.h.get(i))
            && !g.is_nan()
        {
            ui.label(format!("g {g:.3}   h {h:.3}   f {:.3}", g + h));
            if let Some(words) = self.replay.state_words(i) {
                ui.label(words);
            }
        }
        // When the recorded search expands it, seen from any step, so it can be jumped to.
        if !self.events.is_empty() && tile.is_passable() {
            super::playback::expansion_tooltip_ui(
                ui,
                self.expansion_steps(),
                i,
                self.playback.cursor,
                self.steps_left_out > 0,
            );
        }
    }

    /// Recomputes the shaded clearance when the map or the agent radius changed (not in the
    /// middle of a paint stroke: ~17 ms on a 512² map would slow the brush).
    fn refresh_clearance(&mut self) {
        if !self.stroke.is_empty() {
            return;
        }
        let (revision, radius, _) = self.clearance;
        if revision != self.revision || radius != self.agent_radius {
            let rects = crate::navmesh::from_map::too_close_for_agent(&self.map, self.agent_radius);
            self.clearance = (self.revision, self.agent_radius, rects);
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

    fn paint_map(&self, painter: &egui::Painter, view: View) {
        let map = &self.map;
        let path_cells: std::collections::HashSet<Cell> = if self.replay.finished.is_some() {
            self.result
                .iter()
                .flat_map(|r| r.path.iter().copied())
                .collect()
        } else {
            Default::default()
        };
        // The overlay follows the search shown and the replay's step.
        let content = content_key((self.shown, self.revision, self.replay.cursor));
        paint_tiles(
            painter,
            view,
            map,
            tiles_texture_id(),
            Some(content),
            |(x, y)| {
                let i = map.index((x, y));
                if self.replay.current == Some(i) {
                    Some(Color32::from_rgb(226, 72, 72))
                } else if path_cells.contains(&(x, y)) {
                    Some(Color32::from_rgb(255, 150, 40))
                } else {
                    match self.replay.status.get(i) {
                        Some(CellStatus::Open) => Some(Color32::from_rgb(222, 170, 52)),
                        Some(CellStatus::Later) => Some(Color32::from_rgb(190, 120, 220)),
                        Some(CellStatus::Closed) => {
                            let times = self.replay.expansions[i].min(6) as u8;
                            Some(Color32::from_rgb(64, 112, 186u8.saturating_add(times * 10)))
                        }
                        _ => None,
                    }
                }
            },
        );
        self.paint_clearance(painter, view);
        if let Some(path) = &self.replay.ida
            && self.replay.finished.is_none()
        {
            // IDA*'s path: everything it remembers.
            let width = self.map.width().max(1);
            let points: Vec<Pos2> = path
                .nodes()
                .iter()
                .map(|p| {
                    let (x, y) = (p.node % width, p.node / width);
                    view.screen_from_world(Vec2::new(x as f64 + 0.5, y as f64 + 0.5))
                })
                .collect();
            painter.add(egui::Shape::line(
                points,
                Stroke::new(3.0, Color32::from_rgb(250, 110, 200)),
            ));
        }
        if let Some((x, y)) = self.next_to_expand() {
            let cell = Rect::from_min_max(
                view.screen_from_world(Vec2::new(x as f64, y as f64)),
                view.screen_from_world(Vec2::new(x as f64 + 1.0, y as f64 + 1.0)),
            );
            painter.rect_stroke(
                cell.expand(1.0),
                0.0,
                Stroke::new(2.0, Color32::WHITE),
                egui::StrokeKind::Outside,
            );
        }
        if self.replay.finished.is_some()
            && let Some(r) = &self.result
        {
            let points: Vec<Pos2> = r
                .path
                .iter()
                .map(|&(x, y)| view.screen_from_world(Vec2::new(x as f64 + 0.5, y as f64 + 0.5)))
                .collect();
            painter.add(Shape::line(
                points,
                Stroke::new(3.0, Color32::from_rgb(255, 230, 120)),
            ));
        }
        let radius = (view.camera.scale as f32 * 0.4).clamp(4.0, 14.0);
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

/// True for the step that starts a pass (IDA*, Fringe Search).
fn starts_a_pass(event: &SearchEvent) -> bool {
    matches!(event, SearchEvent::IterationStarted { .. })
}

/// The steps of `events` that expand a node, start a pass or end the search: what the step
/// list shows with "Expansions only" (step `k` is `events[k - 1]`).
fn expansion_rows(events: &[SearchEvent]) -> Vec<usize> {
    events
        .iter()
        .enumerate()
        .filter(|(_, event)| {
            matches!(
                event,
                SearchEvent::Expanded { .. }
                    | SearchEvent::IterationStarted { .. }
                    | SearchEvent::Finished { .. }
            )
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// The sentence of recorded step `k` (1-based) of `events`; the last one says first how many
/// steps before it were `left_out` of the recording, if any were.
fn step_sentence(
    events: &[SearchEvent],
    left_out: usize,
    algorithm: GridAlgorithm,
    width: usize,
    k: usize,
) -> String {
    let Some(event) = k.checked_sub(1).and_then(|i| events.get(i)) else {
        return String::new();
    };
    let sentence = algorithm.explain(event, width);
    if k == events.len() {
        format!("{}{sentence}", left_out_note(left_out))
    } else {
        sentence
    }
}

fn default_cells(map: &TileMap) -> (Cell, Cell) {
    let passable: Vec<usize> = (0..map.cell_count())
        .filter(|&i| map.tiles()[i].is_passable())
        .collect();
    let first = passable.first().map_or((0, 0), |&i| map.cell(i));
    let last = passable.last().map_or((0, 0), |&i| map.cell(i));
    (first, last)
}

/// Where a brush stroke goes on from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrokeFrom {
    /// The cell painted last in this stroke.
    Painted(Cell),
    /// A new stroke, from the cell the button went down on (the press and the first moves can
    /// arrive in one frame: the pointer is then already further on).
    Pressed(Cell),
}

impl StrokeFrom {
    /// A stroke going on from `last`, else a new one from the cell `pressed` on (else from the
    /// pointer's cell itself).
    pub fn new(last: Option<Cell>, pressed: Option<Cell>) -> Option<Self> {
        last.map(Self::Painted).or(pressed.map(Self::Pressed))
    }
}

/// The pointer's positions in a primary press that began and ended within this frame's input
/// (press, moves, release), when it began on `canvas` (not on a window over it).
pub fn stroke_within_frame(ui: &Ui, canvas: &egui::Response) -> Option<Vec<Pos2>> {
    let path = ui.input(|input| {
        let mut path: Option<Vec<Pos2>> = None;
        for event in &input.events {
            match *event {
                egui::Event::PointerButton {
                    pos,
                    button: egui::PointerButton::Primary,
                    pressed,
                    ..
                } => {
                    if pressed {
                        path = Some(vec![pos]);
                    } else if let Some(mut points) = path.take() {
                        points.push(pos);
                        return Some(points);
                    }
                }
                egui::Event::PointerMoved(pos) => {
                    if let Some(points) = &mut path {
                        points.push(pos);
                    }
                }
                _ => {}
            }
        }
        None
    })?;
    let first = *path.first()?;
    let on_canvas =
        canvas.rect.contains(first) && ui.ctx().layer_id_at(first) == Some(canvas.layer_id);
    on_canvas.then_some(path)
}

/// The cells a brush drawn to `cell` covers: a Bresenham line from `from` (without its first
/// cell when that one is already painted), or `cell` alone when the stroke starts there.
pub fn stroke_cells(from: Option<StrokeFrom>, cell: Cell) -> impl Iterator<Item = Cell> {
    let signed = |(x, y): Cell| (x as i64, y as i64);
    let (start, skip) = match from {
        Some(StrokeFrom::Painted(last)) => (last, last != cell),
        Some(StrokeFrom::Pressed(pressed)) => (pressed, false),
        None => (cell, false),
    };
    crate::grid::bresenham::Line::new(signed(start), signed(cell))
        .skip(usize::from(skip))
        .filter_map(|(x, y)| Some((usize::try_from(x).ok()?, usize::try_from(y).ok()?)))
}

/// A palette button: the tile's colour and name, outlined when it is the one chosen.
pub fn tile_button(tile: Tile, selected: bool) -> egui::Button<'static> {
    let ink = if matches!(tile, Tile::Wall | Tile::Hole) {
        Color32::WHITE
    } else {
        Color32::BLACK
    };
    egui::Button::new(egui::RichText::new(tile.name()).color(ink))
        .fill(tile_color(tile))
        .stroke(if selected {
            Stroke::new(2.5, Color32::YELLOW)
        } else {
            Stroke::NONE
        })
        .selected(selected)
}

fn tile_help(tile: Tile) -> &'static str {
    match tile {
        Tile::Grass => "Grass: walkable (cost 1 by default)",
        Tile::Sand => "Sand: walkable, slow (cost 2 by default)",
        Tile::Water => "Water: swimmable (cost 3 by default)",
        Tile::Wall => "Wall: blocks movement and sight",
        Tile::Hole => "Hole: blocks movement, not sight",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search recorded only in part says so on its last step and in the step list's note,
    /// and the panel's pass is the one the search ended in, not the last recorded.
    #[test]
    fn a_search_recorded_in_part_says_what_was_left_out() {
        let mut scene = GridScene::new(default_map());
        scene.algorithm = AlgorithmKind::Fringe;
        scene.rerun();
        scene.wait_for_search();
        let whole = scene.events.clone();
        assert_eq!(scene.steps_left_out, 0);
        let last = scene.step_sentence(whole.len());
        assert!(!last.contains("not recorded"), "{last}");

        let job = SearchJob {
            map: scene.map.clone(),
            start: scene.start,
            goal: scene.goal,
            algorithm: scene.grid_algorithm(scene.algorithm),
            connectivity: scene.connectivity,
        };
        scene.show_search(job.run_recording(50));
        assert_eq!(scene.events.len(), 51);
        assert_eq!(scene.steps_left_out, whole.len() - 51);
        let sentence = scene.step_sentence(51);
        assert!(
            sentence.starts_with(&left_out_note(whole.len() - 51)) && sentence.contains("found"),
            "{sentence}"
        );
        assert_eq!(
            scene.step_sentence(50),
            scene
                .grid_algorithm(scene.algorithm)
                .explain(&whole[49], scene.map.width())
        );
        let passes = whole
            .iter()
            .filter(|e| matches!(e, SearchEvent::IterationStarted { .. }))
            .count();
        assert_eq!(scene.last_pass_left_out.map(|(pass, _)| pass), Some(passes));
        scene.playback.cursor = scene.events.len();
        assert!(scene.current_explanation().contains("not recorded"));
    }

    /// Going back resets only the cells the steps touched: the state equals a replay from the
    /// start, for A* (open list), Fringe Search (its lists) and IDA* (its path), at every few
    /// steps back.
    #[test]
    fn going_back_equals_replaying_from_the_start() {
        let map = default_map();
        let (start, goal) = default_cells(&map);
        for (algorithm, lists) in [
            (
                GridAlgorithm::AStar {
                    heuristic: Heuristic::Octile,
                    weight: 1.0,
                },
                ReplayLists::Open,
            ),
            (
                GridAlgorithm::Fringe {
                    heuristic: Heuristic::Octile,
                },
                ReplayLists::Fringe,
            ),
            (
                GridAlgorithm::IdaStar {
                    heuristic: Heuristic::Octile,
                    budget: 20_000,
                },
                ReplayLists::IdaPath,
            ),
        ] {
            let mut events = Vec::new();
            crate::grid::grid_search(
                &map,
                start,
                goal,
                algorithm,
                Connectivity::Eight,
                &mut events,
            );
            let cells = map.cell_count();
            let mut replay = GridReplay::new(cells, lists);
            replay.seek(&events, events.len(), cells);
            for back in (0..events.len()).rev().step_by(37) {
                replay.seek(&events, back, cells);
                let mut fresh = GridReplay::new(cells, lists);
                fresh.seek(&events, back, cells);
                assert_eq!(replay.status, fresh.status, "step {back}");
                assert_eq!(replay.expansions, fresh.expansions);
                let same = |a: &[f32], b: &[f32]| {
                    a.iter()
                        .zip(b)
                        .all(|(x, y)| x == y || (x.is_nan() && y.is_nan()))
                };
                assert!(same(&replay.g, &fresh.g) && same(&replay.h, &fresh.h));
                assert_eq!(
                    (replay.current, replay.finished),
                    (fresh.current, fresh.finished)
                );
                assert_eq!(
                    replay
                        .frontier
                        .next(crate::search::ExpansionOrder::LowestF, 6),
                    fresh
                        .frontier
                        .next(crate::search::ExpansionOrder::LowestF, 6)
                );
                let fringe = |r: &GridReplay| r.fringe.as_ref().map(|l| (l.next(6), l.now_len()));
                assert_eq!(fringe(&replay), fringe(&fresh));
                let ida = |r: &GridReplay| r.ida.as_ref().map(|p| p.nodes().to_vec());
                assert_eq!(ida(&replay), ida(&fresh));
                // And on again to the end.
                replay.seek(&events, events.len(), cells);
            }
        }
    }

    #[test]
    fn a_stroke_joins_its_cells_without_repainting_the_last() {
        let cells = |from, cell| stroke_cells(from, cell).collect::<Vec<_>>();
        assert_eq!(cells(None, (4, 2)), [(4, 2)]);
        let painted = |c| Some(StrokeFrom::Painted(c));
        assert_eq!(cells(painted((4, 2)), (4, 2)), [(4, 2)]);
        // A new stroke whose first frame is already two cells on starts where it was pressed.
        let pressed = Some(StrokeFrom::Pressed((2, 2)));
        assert_eq!(cells(pressed, (4, 2)), [(2, 2), (3, 2), (4, 2)]);
        assert_eq!(
            StrokeFrom::new(Some((1, 1)), Some((2, 2))),
            painted((1, 1)),
            "going on"
        );
        let joined = cells(painted((0, 0)), (5, 2));
        assert_eq!(joined.first(), Some(&(1, 0)));
        assert_eq!(joined.last(), Some(&(5, 2)));
        let mut at = (0usize, 0usize);
        for &c in &joined {
            assert!(
                c.0.abs_diff(at.0) <= 1 && c.1.abs_diff(at.1) <= 1,
                "{joined:?}"
            );
            at = c;
        }
    }
}
