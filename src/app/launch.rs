//! Starting the window: what `navlab open` asked for, as a list of [`LaunchAction`]s applied to a
//! new window in order, and the native window itself.

use super::navmesh_scene::SideTab;
use super::{NavlabApp, OPEN_FAILED, SceneKind, file_kinds};
use crate::geom::Vec2;
use crate::grid::{AlgorithmKind, Cell, Connectivity, Heuristic};
use crate::navmesh::CostModel;
use crate::partitions::Partition;
use std::path::PathBuf;

/// How to start the window: what to do first, and how the window itself looks.
#[derive(Debug, Default)]
pub struct Launch {
    /// What to open and show, in order.
    pub actions: Vec<LaunchAction>,
    /// Window size in points.
    pub size: Option<[f32; 2]>,
    /// The colour theme (egui keeps it for the next runs).
    pub theme: Option<egui::ThemePreference>,
}

impl Launch {
    /// True when the launch names a file or a map: then what was saved last time (the last
    /// file, the last map) is not opened.
    #[cfg(not(target_arch = "wasm32"))]
    fn names_a_file(&self) -> bool {
        self.actions
            .iter()
            .any(|action| matches!(action, LaunchAction::Open(_)))
    }
}

/// A crowd the command line starts ([`LaunchAction::Crowd`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LaunchCrowd {
    /// How many agents.
    pub count: usize,
    /// The seed of their starts and goals.
    pub seed: u64,
    /// Their radius.
    pub radius: f64,
    /// Where they start and end.
    pub placement: crate::crowd::Placement,
    /// The tick shown.
    pub tick: usize,
    /// The agent taken apart (from 0).
    pub agent: Option<usize>,
}

/// One thing to do as the window starts.
#[derive(Debug, Clone, PartialEq)]
pub enum LaunchAction {
    /// Open a file as a mesh or a tile map, by its extension (refused by name when it is
    /// neither, as a dropped file is).
    Open(PathBuf),
    /// Open a tile map in the tile-map scene.
    OpenMap(PathBuf),
    /// Show a scene.
    Show(SceneKind),
    /// Put the map's start and goal on these cells (x = column, y = row), each when it is a
    /// passable cell of the map.
    PlaceOnMap {
        /// The start.
        start: Option<Vec2>,
        /// The goal.
        goal: Option<Vec2>,
    },
    /// Put the mesh's start and goal at these points (world x, z).
    PlaceOnMesh {
        /// The start.
        start: Option<Vec2>,
        /// The goal.
        goal: Option<Vec2>,
    },
    /// Search options replacing the saved ones.
    Search(LaunchSearch),
    /// Run the comparison of every grid algorithm.
    Compare,
    /// Open the Partitions window with this partition drawn.
    Partitions(Partition),
    /// The agent radius a navmesh is built for (tiles).
    AgentRadius(f64),
    /// Build a navmesh from the map and show it.
    BuildMesh,
    /// Read meshes keeping only the faces within this many degrees of up.
    MaxSlope(f64),
    /// Read meshes shrunk for an agent of this radius.
    MeshAgentRadius(f64),
    /// Show the Diagnostics tab with islands coloured and the first error selected.
    Diagnostics,
    /// Measure corridor paths against the shortest over this many random pairs, and show the
    /// heat map (Diagnostics tab).
    Quality(usize),
    /// Colour the mesh by clearance; above 0, grey what holds no disc of this radius.
    Clearance(f64),
    /// More agents of these radii on the navmesh, each with its own path.
    Agents(Vec<f64>),
    /// A crowd on the navmesh, shown at a tick (the Crowd tab).
    Crowd(LaunchCrowd),
    /// What the tile map's grass, sand and water cost.
    TileCosts(crate::grid::TileCosts),
    /// Show the crowd (a run reopened) at this tick, this agent taken apart (from 0).
    CrowdAt {
        /// The tick.
        tick: usize,
        /// The agent.
        agent: Option<usize>,
    },
    /// Walk the navmesh path at once (a picture shows the whole walk).
    Walk,
    /// Tile map: the lockstep view on, with this second search beside the first.
    Lockstep(crate::app::tile_map_scene::lockstep::SecondSearch),
    /// Tile map, D* Lite: its agent walks this many steps, then these tiles are painted (one
    /// edit) and the path repaired from where it stands.
    RepairWalk {
        /// Steps walked first.
        steps: usize,
        /// The tiles painted then.
        paint: Vec<(crate::grid::Cell, crate::grid::Tile)>,
    },
    /// Search for the shortest path too, as the navmesh view's third phase.
    Optimal,
    /// Put off-mesh links on the mesh shown, as edits (each as `--link` writes it).
    Links(Vec<String>),
    /// Show the level view, on this level geometry (the built-in level when `None`).
    OpenLevel(Option<PathBuf>),
    /// In the level view, ask why the ground at this point (x, z) is or is not on the
    /// navmesh: the surface from the bottom, or the top one.
    AskWhy(Vec2, Option<usize>),
    /// In the level view, draw the cross-section along this line.
    Section(Vec2, Vec2),
}

/// Search options given at launch; each replaces the saved setting only when given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LaunchSearch {
    /// Tile map: the algorithm animated.
    pub algorithm: Option<AlgorithmKind>,
    /// Tile map: the heuristic.
    pub heuristic: Option<Heuristic>,
    /// Tile map: A*'s weight.
    pub weight: Option<f64>,
    /// Tile map: IDA*'s node budget.
    pub budget: Option<usize>,
    /// Tile map: moves.
    pub connectivity: Option<Connectivity>,
    /// Navmesh: the step cost model.
    pub cost: Option<CostModel>,
}

/// What the launch options could not do.
#[derive(Debug, Default, PartialEq)]
pub struct LaunchReport {
    /// Options that could not apply; the window opens anyway.
    pub warnings: Vec<String>,
    /// Why the file or map given could not be opened (the window shows what it had instead).
    pub open_failed: Option<String>,
}

/// Why `navlab open` did not run.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// No window could be made (no display, no graphics).
    #[error("cannot open the window: {0}")]
    Window(String),
}

impl NavlabApp {
    /// Applies the launch's actions to a new window's state, in order. Reports options that
    /// could not apply and a file that could not be opened (the window opens anyway, on what
    /// it had).
    pub fn apply_launch(&mut self, launch: &Launch) -> LaunchReport {
        if launch.theme.is_some() {
            self.launch_theme = launch.theme;
        }
        let mut report = LaunchReport::default();
        let mut failed = Vec::new();
        for action in &launch.actions {
            if let Err(message) = self.launch_action(action, &mut report.warnings) {
                failed.push(message);
            }
        }
        report.open_failed = (!failed.is_empty()).then(|| failed.join("; "));
        report
    }

    /// Does one launch action; a file that did not open is the error.
    fn launch_action(
        &mut self,
        action: &LaunchAction,
        warnings: &mut Vec<String>,
    ) -> Result<(), String> {
        match action {
            // The file opens as a dropped one does: a map in the tile-map view, a mesh in the
            // navmesh view, anything else refused by name (the scene shown stays).
            LaunchAction::Open(file) => match file_kinds::opens_as(file) {
                Ok(file_kinds::Opens::Map) => {
                    self.settings.scene = SceneKind::TileMap;
                    self.opened(|app| app.load_map(file.clone()))?;
                }
                Ok(file_kinds::Opens::Mesh) => {
                    self.opened(|app| {
                        app.load_file(file.clone());
                        app.banner.error.is_none()
                    })?;
                }
                Ok(file_kinds::Opens::Lesson) => {
                    if let Err(message) = self.open_lesson(file) {
                        self.fail(OPEN_FAILED, message.clone());
                        return Err(message);
                    }
                }
                Ok(file_kinds::Opens::CrowdRun) => {
                    if let Err(message) = self.open_crowd_run(file) {
                        self.fail(OPEN_FAILED, message.clone());
                        return Err(message);
                    }
                }
                Err(refusal) => {
                    self.fail(OPEN_FAILED, refusal.clone());
                    return Err(refusal);
                }
            },
            LaunchAction::OpenMap(map) => {
                self.settings.scene = SceneKind::TileMap;
                self.opened(|app| app.load_map(map.clone()))?;
            }
            LaunchAction::Show(kind) => {
                self.settings.scene = *kind;
                if *kind == SceneKind::Pursuit {
                    self.scenes.pursuit.sync_map(&self.map);
                }
            }
            LaunchAction::PlaceOnMap { start, goal } => self.place_on_map(*start, *goal, warnings),
            LaunchAction::PlaceOnMesh { start, goal } => {
                self.scenes.navmesh.place(*start, *goal);
            }
            LaunchAction::Links(texts) => {
                let names = self.scenes.navmesh.mesh().area_names().to_vec();
                for (k, text) in texts.iter().enumerate() {
                    match crate::navmesh::links::parse_link(text, &names) {
                        Ok(link) => {
                            self.scenes
                                .navmesh
                                .edit_mesh(|editor| editor.add_link(link));
                        }
                        Err(error) => warnings.push(format!("--link number {}: {error}", k + 1)),
                    }
                }
            }
            LaunchAction::Search(search) => self.launch_search(search),
            LaunchAction::Compare => self.scenes.tile_map.compare(),
            LaunchAction::Partitions(partition) => {
                let scene = &mut self.scenes.tile_map;
                scene.partitions.open = true;
                scene.partitions.shown = *partition;
                scene.poll_partitions(&self.map);
                scene.partitions.wait(std::time::Duration::from_secs(600));
            }
            LaunchAction::AgentRadius(radius) => {
                self.scenes.tile_map.settings.agent_radius = *radius;
            }
            LaunchAction::BuildMesh => self.build_mesh_from_map(),
            LaunchAction::MaxSlope(degrees) => {
                self.scenes.navmesh.settings.max_slope = Some(*degrees);
            }
            LaunchAction::MeshAgentRadius(radius) => {
                self.scenes.navmesh.settings.agent_radius = Some(*radius);
            }
            LaunchAction::Diagnostics => self.scenes.navmesh.show_diagnostics(),
            LaunchAction::Quality(pairs) => self.scenes.navmesh.measure_quality(*pairs),
            LaunchAction::Clearance(radius) => {
                let navmesh = &mut self.scenes.navmesh;
                navmesh.settings.display.clearance_colours = true;
                navmesh.settings.display.height_colours = false;
                navmesh.settings.display.fit_radius = *radius;
                navmesh.wait_for_clearance();
                navmesh.rerun();
            }
            LaunchAction::TileCosts(costs) => {
                self.map.set_costs(*costs);
            }
            LaunchAction::CrowdAt { tick, agent } => {
                let lab = &mut self.scenes.navmesh.crowd;
                lab.show(*tick);
                lab.selected = *agent;
            }
            LaunchAction::Crowd(launch) => {
                let navmesh = &mut self.scenes.navmesh;
                navmesh.screen.side_tab = crate::app::navmesh_scene::SideTab::Crowd;
                let lab = &mut navmesh.crowd;
                lab.count = launch.count;
                lab.seed = launch.seed;
                lab.radius = launch.radius;
                lab.placement = launch.placement;
                let mesh = std::sync::Arc::clone(navmesh.view.mesh());
                let lab = &mut navmesh.crowd;
                lab.start(&mesh);
                lab.show(launch.tick);
                lab.selected = launch.agent;
            }
            LaunchAction::Agents(radii) => {
                let navmesh = &mut self.scenes.navmesh;
                navmesh.settings.display.agents = radii
                    .iter()
                    .copied()
                    .take(crate::app::navmesh_scene::agents::MAX_AGENTS)
                    .collect();
                navmesh.wait_for_clearance();
                navmesh.wait_for_query();
                navmesh.refresh_agents();
            }
            LaunchAction::OpenLevel(file) => {
                self.settings.scene = SceneKind::Level;
                if let Some(file) = file {
                    self.opened(|app| {
                        app.open_level_file(file);
                        app.banner.error.is_none()
                    })?;
                }
            }
            LaunchAction::AskWhy(at, floor) => {
                let level = &mut self.scenes.level;
                level.ask([at.x, at.y], *floor);
                level.wait_for_build();
            }
            LaunchAction::Section(a, b) => self.scenes.level.set_section(Some([*a, *b])),
            LaunchAction::Optimal => {
                let navmesh = &mut self.scenes.navmesh;
                navmesh.settings.optimal = true;
                navmesh.rerun();
            }
            LaunchAction::Lockstep(second) => {
                let grid = &mut self.scenes.tile_map;
                grid.follow(&self.map);
                grid.settings.second = *second;
                grid.set_lockstep(true, &self.map);
            }
            LaunchAction::RepairWalk { steps, paint } => {
                let grid = &mut self.scenes.tile_map;
                grid.follow(&self.map);
                let Some(walk) = grid.walk.as_mut() else {
                    warnings.push(
                        "--walk-steps and --paint walk D* Lite's agent: add --algo dstar-lite (maps of up to 512 K cells)"
                            .to_string(),
                    );
                    return Ok(());
                };
                for _ in 0..*steps {
                    if !walk.step() {
                        break;
                    }
                }
                for &((x, y), tile) in paint {
                    if self.map.map.get((x, y)).is_none() {
                        warnings.push(format!(
                            "--paint {x},{y}: off the map ({} columns × {} rows)",
                            self.map.map.width(),
                            self.map.map.height()
                        ));
                    } else {
                        self.map.paint_tile((x, y), tile);
                    }
                }
                self.map.end_stroke();
                self.scenes.tile_map.follow(&self.map);
            }
            LaunchAction::Walk => {
                let navmesh = &mut self.scenes.navmesh;
                navmesh.wait_for_query();
                navmesh.query.playback.cursor = navmesh.query.timeline.len();
                navmesh.sync_replay();
                navmesh.toggle_walk();
                if navmesh.walk.is_none() && navmesh.agents.walks.iter().all(Option::is_none) {
                    warnings.push("--walk: there is no path to walk".to_string());
                }
            }
        }
        Ok(())
    }

    /// Runs `open`, which returns true when its file opened; else the error it showed.
    fn opened(&mut self, open: impl FnOnce(&mut Self) -> bool) -> Result<(), String> {
        if open(self) {
            Ok(())
        } else {
            Err(self.banner.error.clone().unwrap_or_default())
        }
    }

    /// Search options replacing the saved ones, each when given; a large mesh is then queried
    /// on the worker, and what follows (a walk, a screenshot's step) is of its answer.
    fn launch_search(&mut self, search: &LaunchSearch) {
        let scene = &mut self.scenes.tile_map;
        let mut settings = scene.settings();
        settings.algorithm = search.algorithm.unwrap_or(settings.algorithm);
        settings.heuristic = search.heuristic.unwrap_or(settings.heuristic);
        settings.weight = search.weight.unwrap_or(settings.weight);
        settings.budget = search.budget.unwrap_or(settings.budget);
        settings.connectivity = search.connectivity.unwrap_or(settings.connectivity);
        if settings != scene.settings() {
            scene.apply_settings(&settings, &self.map);
        }
        let navmesh = &mut self.scenes.navmesh;
        if let Some(cost) = search.cost
            && cost != navmesh.settings.cost
        {
            navmesh.settings.cost = cost;
            navmesh.rerun();
        }
        navmesh.wait_for_query();
    }

    /// Puts the map's start and goal on the cells given (x = column, y = row), when they are
    /// passable cells of the map; says why not otherwise.
    fn place_on_map(
        &mut self,
        start: Option<Vec2>,
        goal: Option<Vec2>,
        warnings: &mut Vec<String>,
    ) {
        let map = &self.map.map;
        let mut cell_of = |point: Option<Vec2>, what: &str| -> Option<Cell> {
            let p = point?;
            let whole = p.x >= 0.0 && p.y >= 0.0 && p.x.fract() == 0.0 && p.y.fract() == 0.0;
            let cell = (p.x as usize, p.y as usize);
            if whole && map.is_passable(cell) {
                Some(cell)
            } else {
                warnings.push(format!(
                    "{what} {},{} is not a passable cell of the {} × {} map (x = column, y = row, from 0); it stays where it was",
                    p.x,
                    p.y,
                    map.width(),
                    map.height()
                ));
                None
            }
        };
        let (start, goal) = (cell_of(start, "--from"), cell_of(goal, "--to"));
        if start.is_none() && goal.is_none() {
            return;
        }
        let scene = &mut self.scenes.tile_map;
        if let Some(cell) = start {
            scene.start = cell;
        }
        if let Some(cell) = goal {
            scene.goal = cell;
        }
        scene.playback.cursor = 0;
        scene.rerun(&self.map);
    }

    /// Shows the Diagnostics tab of the navmesh view.
    pub fn show_mesh_diagnostics(&mut self) {
        self.settings.scene = SceneKind::Navmesh;
        self.scenes.navmesh.screen.side_tab = SideTab::Diagnostics;
    }
}

/// In the browser build the window is the page's: there is no native window to open.
#[cfg(target_arch = "wasm32")]
pub fn run_native(_launch: Launch) -> Result<(), LaunchError> {
    Err(LaunchError::Window(
        "the browser build runs in its web page (web/build)".to_string(),
    ))
}

/// Opens the window; returns when it closes.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_native(launch: Launch) -> Result<(), LaunchError> {
    use super::{AppSettings, files, icon, recovery};
    let size = launch.size.unwrap_or([1280.0, 800.0]);
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("navlab")
            .with_app_id("navlab")
            .with_icon(icon::app_icon())
            .with_inner_size(size)
            .with_drag_and_drop(true),
        ..Default::default()
    };
    eframe::run_native(
        "navlab",
        options,
        Box::new(move |cc| {
            // Explicit files must not depend on what was saved last time.
            let restored: AppSettings = if launch.names_a_file() {
                AppSettings::default()
            } else {
                cc.storage
                    .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                    .unwrap_or_default()
            };
            let mut app = NavlabApp::new(restored, Box::new(files::NativeDialogs));
            if let Some(recovery) = recovery::Recovery::in_app_data() {
                app = app.with_recovery(recovery);
            }
            let report = app.apply_launch(&launch);
            for warning in &report.warnings {
                eprintln!(
                    "{}",
                    crate::input::printable(&format!("warning: {warning}"))
                );
            }
            if let Some(message) = report.open_failed {
                eprintln!(
                    "{}",
                    crate::input::printable(&format!(
                        "error: could not open {message} (the window shows what it had)"
                    ))
                );
            }
            // Asked for: eframe restores the size the window had last time otherwise.
            if launch.size.is_some() {
                app.window_size = Some(egui::Vec2::from(size));
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|error| LaunchError::Window(error.to_string()))
}
