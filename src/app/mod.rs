//! The desktop window (eframe/egui): panels around the navmesh scene, files, persistence and
//! screenshots. Cross-cutting actions are collected as [`Command`]s during a frame and applied
//! after it.

pub mod camera;
pub mod chart_marks;
pub mod diagnostics_panel;
mod dialogs;
mod documents;
pub mod file_watch;
pub mod files;
pub mod grid_query;
pub mod grid_scene;
pub mod icon;
pub mod ink;
pub mod latest_worker;
mod menus;
pub mod mesh_query;
pub mod navmesh_scene;
pub mod partitions_view;
pub mod path_prompt;
pub mod picture;
pub mod playback;
pub mod pursuit_scene;
pub mod recovery;
pub mod screenshot;
pub mod tile_paint;
pub mod timeline;
pub mod walk_playback;

use crate::assets;
use crate::navmesh::Plane;
use crate::words::{count, thousands};
use files::{FileDialogs, Picked, RecentFiles};
use grid_scene::GridScene;
use latest_worker::LatestWorker;
use navmesh_scene::{MeshSource, NavmeshScene, NavmeshSettings};
use path_prompt::PathPrompt;
use pursuit_scene::PursuitScene;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Settings kept between runs (eframe persistence). Panel sizes are kept by egui itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct AppSettings {
    /// The last mesh file opened, reopened at start.
    pub last_file: Option<PathBuf>,
    /// The last tile map opened or saved, reopened at start.
    pub last_map: Option<PathBuf>,
    /// Recently opened files, newest first.
    pub recent: RecentFiles,
    /// The navmesh scene's options.
    pub navmesh: NavmeshSettings,
    /// Playback speed (steps per second).
    pub speed: Option<f64>,
    /// The scene shown.
    pub scene: SceneKind,
    /// The tile-map lab's options.
    pub grid: grid_scene::GridSettings,
    /// The pursuit scene's options.
    pub pursuit: pursuit_scene::PursuitSettings,
    /// Load the mesh or map file again when it changes on disk (an exporter wrote it again).
    pub reload_changed_files: bool,
}

impl Default for AppSettings {
    fn default() -> Self {
        Self {
            last_file: None,
            last_map: None,
            recent: RecentFiles::default(),
            navmesh: NavmeshSettings::default(),
            speed: None,
            scene: SceneKind::default(),
            grid: grid_scene::GridSettings::default(),
            pursuit: pursuit_scene::PursuitSettings::default(),
            reload_changed_files: true,
        }
    }
}

/// The scenes of the lab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SceneKind {
    /// Navigation meshes: A* over triangles and the funnel.
    #[default]
    Navmesh,
    /// Tile maps: the editor and the grid search lab.
    TileMap,
    /// A mob hunts the kitten on the tile map by sight and smell.
    Pursuit,
}

impl SceneKind {
    /// True for the scenes that show (and edit) the tile map.
    pub fn uses_map(self) -> bool {
        matches!(self, SceneKind::TileMap | SceneKind::Pursuit)
    }
}

/// Banner wording for a file that did not open.
const OPEN_FAILED: (&str, &str) = ("Could not open", "What was shown before is still open.");
/// Banner wording for a save that failed (saves are atomic: the target is untouched).
const SAVE_FAILED: (&str, &str) = (
    "Could not save",
    "Nothing was overwritten and nothing is lost: the work is still here.",
);
/// How often unsaved map edits are written to the recovery file (with eframe's settings).
const KEEP_EDITS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);
/// Banner wording for a recovery file that does not read.
const RECOVERY_FAILED: (&str, &str) = (
    "Could not read the edits kept from the last session",
    "The file is left as it is.",
);
/// Banner wording for a repair that went wrong.
const REPAIR_FAILED: (&str, &str) = ("Could not repair", "The mesh shown is unchanged.");
/// What "Build navmesh" does, for its tooltips.
const BUILD_MESH_TIP: &str = "Triangulate the passable tiles (a constrained Delaunay triangulation of their outline, one unit per tile) and open the mesh in the Navmesh view, from this map's start to its goal. Tile costs are not kept. (Ctrl+B)";
/// What the agent radius does, for its tooltips.
const AGENT_RADIUS_TIP: &str = "The navmesh keeps this far from every wall, hole and the map's edge (along each axis), so an agent's centre can go anywhere on it; in eighths of a tile. 0 covers the passable tiles exactly. Used by Build navmesh; the map shades in pink the ground it leaves out.";
/// Banner wording for a map that gave no mesh.
const BUILD_FAILED: (&str, &str) = (
    "Could not build a navmesh",
    "The map and the mesh shown before are unchanged.",
);

/// Something to do after the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Ask for a file with the open dialog.
    OpenDialog,
    /// Ask for a path to open, typed in the app's own window.
    OpenPathPrompt,
    /// Load a mesh file.
    Load(PathBuf),
    /// Load a built-in mesh.
    LoadEmbedded(usize),
    /// Load the current file again from disk.
    Reload,
    /// Ask for a tile map with the open dialog.
    OpenMapDialog,
    /// Load a tile map.
    LoadMap(PathBuf),
    /// Start a new grass map of this size.
    NewMap(usize, usize),
    /// Save the tile map to its file (asks where if it has none).
    SaveMap,
    /// Save the tile map under a new name.
    SaveMapAs,
    /// Triangulate the tile map's passable tiles and show the mesh in the navmesh view.
    BuildMeshFromMap,
    /// Open the edits kept from the last session (see [`recovery`]).
    OpenRecovered,
    /// Close the window.
    Quit,
    /// Write a picture of the window to a PNG file (asks where).
    SavePicture,
    /// Put a picture of the window on the clipboard.
    CopyPicture,
}

impl Command {
    /// True for commands that would throw away the tile map's unsaved edits.
    fn replaces_map(&self) -> bool {
        matches!(
            self,
            Command::OpenMapDialog
                | Command::LoadMap(_)
                | Command::NewMap(..)
                | Command::OpenRecovered
                | Command::Quit
        )
    }

    /// True for commands that would throw away the mesh shown (and an unsaved repair of it).
    fn replaces_mesh(&self) -> bool {
        matches!(
            self,
            Command::OpenDialog
                | Command::Load(_)
                | Command::LoadEmbedded(_)
                | Command::Reload
                | Command::BuildMeshFromMap
                | Command::Quit
        )
    }
}

/// A document with changes that are not saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unsaved {
    /// The tile map has edits.
    Map,
    /// The mesh shown was repaired in memory.
    RepairedMesh,
}

/// The application.
pub struct NavlabApp {
    /// Persisted settings.
    pub settings: AppSettings,
    /// The navmesh scene.
    pub scene: NavmeshScene,
    /// The tile-map scene.
    pub grid: GridScene,
    /// The pursuit scene (on the tile-map scene's map).
    pub pursuit: PursuitScene,
    /// A command waiting for the user to say what to do with unsaved edits.
    pub pending: Option<Command>,
    new_map_size: Option<(usize, usize)>,
    allow_close: bool,
    /// The last error, shown until dismissed.
    pub error: Option<String>,
    /// What failed (the banner's first words) and what is still there (its second line).
    error_context: (&'static str, &'static str),
    /// A short confirmation shown in the status bar.
    pub notice: Option<String>,
    commands: Vec<Command>,
    dialogs: Box<dyn FileDialogs>,
    /// Set in screenshot mode.
    pub screenshot: Option<screenshot::ScreenshotPlan>,
    /// A window size to ask for at the first frame (`--size`, or a screenshot's size): eframe
    /// restores the size the window had last time, which must not win over either.
    window_size: Option<egui::Vec2>,
    /// A theme to give egui at the first frame (`--theme`, or a screenshot's dark). Otherwise
    /// the theme is egui's own option, which egui keeps between runs.
    launch_theme: Option<egui::ThemePreference>,
    show_help: bool,
    quit_requested: bool,
    /// The window title last sent (sent again only when it changes).
    shown_title: Option<String>,
    /// Keeps unsaved map edits in this window's recovery file, on a worker thread (none in
    /// tests unless given).
    keeper: Option<recovery::Keeper>,
    /// The map revision and costs last kept there.
    kept: Option<(u64, crate::grid::TileCosts)>,
    /// Edits windows that are gone left unsaved, offered one at a time until the user opens
    /// or discards each.
    pub recovered: std::collections::VecDeque<recovery::Offer>,
    /// Builds navmeshes from the map on a worker thread.
    mesh_builder: LatestWorker<MeshBuild, BuiltMesh>,
    /// Counts the builds started (a build outdated by a newer one, or by a mesh opened
    /// meanwhile, is dropped).
    builds: u64,
    /// The window asking for a typed path (no file dialog on this desktop, or Ctrl+L).
    pub path_prompt: Option<PathPrompt>,
    /// Watches the mesh's file and the map's file for changes on disk.
    mesh_watch: Option<file_watch::FileWatch>,
    map_watch: Option<file_watch::FileWatch>,
    /// Takes pictures of the window (Save picture, Copy picture).
    pictures: picture::PictureTaker,
    /// A picture waiting for its typed path (no file dialog on this desktop).
    picture_to_save: Option<std::sync::Arc<egui::ColorImage>>,
}

/// A navmesh build for the worker thread, with what to do with its result.
struct MeshBuild {
    map: crate::grid::TileMap,
    agent_radius: f64,
    /// The mesh's name ("MAP as a navmesh").
    name: String,
    /// The map's start and goal when the build started.
    endpoints: (crate::grid::Cell, crate::grid::Cell),
}

/// A finished build: the mesh (or why not), its name and the map's start and goal.
type BuiltMesh = (
    Result<crate::navmesh::NavMesh, String>,
    String,
    (crate::grid::Cell, crate::grid::Cell),
);

impl MeshBuild {
    fn run(self) -> BuiltMesh {
        let built = crate::navmesh::from_map::navmesh_from_map(&self.map, self.agent_radius)
            .map_err(|e| e.to_string());
        (built, self.name, self.endpoints)
    }
}

impl NavlabApp {
    /// The app with `settings` (e.g. restored from storage) on the embedded default scene, or on
    /// the settings' last file when it still loads.
    pub fn new(settings: AppSettings, dialogs: Box<dyn FileDialogs>) -> Self {
        let mut scene = NavmeshScene::embedded(assets::ROOMS, settings.navmesh.clone());
        if let Some(speed) = settings.speed {
            scene.playback.speed = speed;
        }
        let grid = GridScene::default();
        let pursuit = PursuitScene::new(grid.map.clone(), settings.pursuit.clone());
        let mut app = Self {
            settings,
            scene,
            grid,
            pursuit,
            pending: None,
            new_map_size: None,
            allow_close: false,
            error: None,
            error_context: OPEN_FAILED,
            notice: None,
            commands: Vec::new(),
            dialogs,
            screenshot: None,
            window_size: None,
            launch_theme: None,
            show_help: false,
            quit_requested: false,
            mesh_builder: LatestWorker::new("navlab mesh build", MeshBuild::run),
            builds: 0,
            path_prompt: None,
            shown_title: None,
            keeper: None,
            kept: None,
            recovered: Default::default(),
            mesh_watch: None,
            map_watch: None,
            pictures: picture::PictureTaker::default(),
            picture_to_save: None,
        };
        let grid_settings = app.settings.grid.clone();
        app.grid.apply_settings(&grid_settings);
        if let Some(last) = app.settings.last_file.clone() {
            app.load_file(last);
        }
        if let Some(last) = app.settings.last_map.clone() {
            app.load_map(last);
        }
        // A last file that no longer loads is not worth an error at start.
        app.error = None;
        app
    }

    /// Queues a command for after the frame. Commands that would drop unsaved map edits or an
    /// unsaved repair wait for the user's answer first.
    pub fn command(&mut self, command: Command) {
        if self.unsaved_for(&command).is_some() {
            self.pending = Some(command);
        } else {
            // A mesh asked for after a build started wins: the build's result would otherwise
            // arrive later and replace it.
            if command.replaces_mesh() && command != Command::BuildMeshFromMap {
                self.mesh_builder.forget();
            }
            self.commands.push(command);
        }
    }

    /// What `command` would throw away unsaved, if anything (the map first).
    fn unsaved_for(&self, command: &Command) -> Option<Unsaved> {
        if command.replaces_map() && self.grid.dirty {
            Some(Unsaved::Map)
        } else if command.replaces_mesh() && self.scene.unsaved_repair {
            Some(Unsaved::RepairedMesh)
        } else {
            None
        }
    }

    /// Shows an error banner; `context` says what failed and what is still there.
    fn fail(&mut self, context: (&'static str, &'static str), message: String) {
        self.error_context = context;
        self.error = Some(message);
    }

    fn apply_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            match command {
                Command::OpenDialog => match self.dialogs.pick_mesh() {
                    Picked::Path(path) => self.load_file(path),
                    Picked::NoDialog => self.prompt_for_open(true),
                    Picked::Cancelled => {}
                },
                Command::OpenPathPrompt => self.prompt_for_open(false),
                Command::Load(path) => self.load_file(path),
                Command::LoadEmbedded(i) => {
                    if let Some(scene) = assets::ALL.get(i).copied() {
                        let source = MeshSource::Embedded(scene);
                        match self.scene.load(&source) {
                            Ok(mesh) => {
                                self.scene.set_mesh(mesh, source);
                                self.settings.last_file = None;
                                self.error = None;
                            }
                            Err(message) => self.fail(OPEN_FAILED, message),
                        }
                    }
                }
                Command::OpenMapDialog => match self.dialogs.pick_map() {
                    Picked::Path(path) => {
                        self.load_map(path);
                    }
                    Picked::NoDialog => self.prompt_for_open(true),
                    Picked::Cancelled => {}
                },
                Command::LoadMap(path) => {
                    self.load_map(path);
                }
                Command::OpenRecovered => {
                    if let Some(offer) = self.recovered.pop_front() {
                        let recovered = offer.recovered.clone();
                        self.grid.set_map(recovered.map, recovered.file);
                        self.grid.dirty = true;
                        self.kept = None;
                        self.settings.scene = SceneKind::TileMap;
                        self.notice = Some("Last session's edits opened; not saved yet".into());
                        // Still unsaved: kept in this window's own file before the old one
                        // goes (if that fails, the old one stays for the next start).
                        self.keep_unsaved_edits_then_dismiss(vec![offer]);
                    }
                }
                Command::NewMap(w, h) => {
                    if let Some(map) = crate::grid::TileMap::new(w, h) {
                        self.grid.set_map(map, None);
                        self.settings.last_map = None;
                    }
                }
                Command::SaveMap => {
                    self.save_map(false);
                }
                Command::SaveMapAs => {
                    self.save_map(true);
                }
                Command::BuildMeshFromMap => self.start_mesh_build(),
                Command::Quit => {
                    self.allow_close = true;
                    self.quit_requested = true;
                }
                Command::SavePicture => {
                    self.pictures.ask(picture::PictureUse::Save);
                }
                Command::CopyPicture => {
                    self.pictures.ask(picture::PictureUse::Copy);
                }
                Command::Reload => {
                    if self.reload_mesh_file() {
                        self.notice = Some("Reloaded".to_string());
                    }
                }
            }
        }
    }

    fn shortcuts(&mut self, ui: &egui::Ui) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let open = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
        let reload = KeyboardShortcut::new(Modifiers::NONE, Key::F5);
        let save_as = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
        let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
        let build = KeyboardShortcut::new(Modifiers::COMMAND, Key::B);
        let open_path = KeyboardShortcut::new(Modifiers::COMMAND, Key::L);
        let new_map = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
        let quit = KeyboardShortcut::new(Modifiers::COMMAND, Key::Q);
        let save_picture = KeyboardShortcut::new(Modifiers::NONE, Key::F12);
        let copy_picture = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::C);
        // Ctrl+Shift+S first, so that it is not taken for Ctrl+S.
        let (open, reload, save_as, save, build, open_path, new_map, quit) = ui.input_mut(|i| {
            (
                i.consume_shortcut(&open),
                i.consume_shortcut(&reload),
                i.consume_shortcut(&save_as),
                i.consume_shortcut(&save),
                i.consume_shortcut(&build),
                i.consume_shortcut(&open_path),
                i.consume_shortcut(&new_map),
                i.consume_shortcut(&quit),
            )
        });
        let (save_picture, copy_picture) = ui.input_mut(|i| {
            (
                i.consume_shortcut(&save_picture),
                i.consume_shortcut(&copy_picture),
            )
        });
        if quit {
            self.command(Command::Quit);
        }
        if save_picture {
            self.command(Command::SavePicture);
        }
        if copy_picture {
            self.command(Command::CopyPicture);
        }
        if open_path {
            self.command(Command::OpenPathPrompt);
        }
        if ui.input(|i| i.key_pressed(Key::F1)) {
            self.show_help = !self.show_help;
        }
        let grid = self.settings.scene.uses_map();
        if open {
            self.command(if grid {
                Command::OpenMapDialog
            } else {
                Command::OpenDialog
            });
        }
        if save_as && grid {
            self.command(Command::SaveMapAs);
        } else if save && grid {
            self.command(Command::SaveMap);
        }
        if new_map && grid {
            self.ask_new_map_size();
        }
        if reload {
            if !grid {
                self.command(Command::Reload);
            } else if let Some(file) = self.grid.file.clone() {
                // The map's file again (unsaved edits are asked about first).
                self.command(Command::LoadMap(file));
            }
        }
        if build && self.settings.scene == SceneKind::TileMap && !self.is_building_mesh() {
            self.command(Command::BuildMeshFromMap);
        }
        if grid {
            self.grid.keyboard(ui);
        }
        if self.settings.scene == SceneKind::TileMap && !ui.ctx().egui_wants_keyboard_input() {
            self.grid.palette_keys(ui);
        }
        if self.settings.scene == SceneKind::Navmesh
            && !ui.ctx().egui_wants_keyboard_input()
            && ui.input(|i| i.key_pressed(Key::W))
        {
            self.scene.toggle_walk();
        }
        if !ui.ctx().egui_wants_keyboard_input() && ui.input(|i| i.key_pressed(Key::F)) {
            self.scene.fit_view();
            self.grid.camera.fit_next_frame();
            self.pursuit.camera.fit_next_frame();
        }
    }

    /// One frame of the whole window, inside `ui` (the root of the window or of a test).
    pub fn frame_ui(&mut self, ui: &mut egui::Ui) {
        if let Some(theme) = self.launch_theme.take() {
            ui.ctx().set_theme(theme);
        }
        // Closing with unsaved map edits or an unsaved repair asks first.
        if ui.input(|i| i.viewport().close_requested())
            && self.unsaved_for(&Command::Quit).is_some()
            && !self.allow_close
        {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Command::Quit);
        }
        // Dropped files: open the first, as a map or a mesh by extension.
        let dropped: Vec<PathBuf> = ui.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.open_path(path);
        }
        dialogs::drop_preview_ui(ui.ctx());
        self.shortcuts(ui);
        self.follow_files_on_disk(ui);
        let dt = f64::from(ui.input(|i| i.stable_dt)).min(0.1);
        let building = self.poll_mesh_build();
        let playing = building
            || match self.settings.scene {
                SceneKind::Navmesh => {
                    let querying = self.scene.poll_query();
                    let len = self.scene.timeline.len();
                    self.scene.playback.keyboard(ui, len);
                    self.scene.replay_keys(ui);
                    self.scene.playback.tick(dt, len);
                    self.scene.sync_replay();
                    let walking = self.scene.tick_walk(dt);
                    self.scene.playback.playing || walking || querying
                }
                SceneKind::TileMap => {
                    let searching = self.grid.poll_search();
                    let len = self.grid.events.len();
                    self.grid.playback.keyboard(ui, len);
                    self.grid.replay_keys(ui);
                    self.grid.playback.tick(dt, len);
                    self.grid.sync_replay();
                    let comparing = self.grid.poll_comparison();
                    let partitioning = self.grid.poll_partitions();
                    self.grid.playback.playing || comparing || searching || partitioning
                }
                SceneKind::Pursuit => {
                    self.pursuit.sync_map(&self.grid);
                    self.pursuit.keyboard(ui);
                    self.pursuit.tick(dt);
                    self.pursuit.playing
                }
            };

        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        match self.settings.scene {
            SceneKind::Navmesh => self.navmesh_panels(ui),
            SceneKind::TileMap => self.grid_panels(ui),
            SceneKind::Pursuit => self.pursuit_panels(ui),
        }
        self.settings.pursuit = self.pursuit.kept_settings(&self.grid);
        self.settings.navmesh = self.scene.settings.clone();
        self.settings.speed = Some(self.scene.playback.speed);
        self.settings.grid = self.grid.settings();
        if self.show_help {
            // Taller than a small window: it scrolls rather than running off the screen.
            let room = ui.ctx().content_rect().height() - 80.0;
            egui::Window::new("Keyboard and mouse")
                .open(&mut self.show_help)
                .vscroll(true)
                .default_height(room.max(200.0))
                .max_height(room.max(200.0))
                .show(ui.ctx(), dialogs::help_ui);
        }
        self.unsaved_dialog_ui(ui.ctx());
        self.new_map_dialog_ui(ui.ctx());
        self.path_prompt_ui(ui.ctx());
        self.recovered_ui(ui.ctx());
        self.apply_commands();
        // eframe saves (and so keeps edits) only after a frame: an idle window with edits not
        // kept yet wakes up for it.
        if self.keeper.is_some()
            && self.grid.dirty
            && self.kept != Some((self.grid.revision, self.grid.map.costs))
        {
            ui.ctx()
                .request_repaint_after(KEEP_EDITS_EVERY + std::time::Duration::from_secs(1));
        }
        let title = self.window_title();
        if self.shown_title.as_ref() != Some(&title) {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shown_title = Some(title);
        }
        self.take_pictures(ui.ctx());
        if self.quit_requested {
            self.quit_requested = false;
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if playing {
            ui.ctx().request_repaint();
        }
        if let Some(plan) = &mut self.screenshot {
            match self.settings.scene {
                SceneKind::Navmesh => plan.frame(ui.ctx(), &mut self.scene),
                SceneKind::TileMap => plan.frame(ui.ctx(), &mut self.grid),
                SceneKind::Pursuit => plan.frame(ui.ctx(), &mut self.pursuit),
            }
        }
    }

    fn navmesh_panels(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("playback").show(ui, |ui| {
            let len = self.scene.timeline.len();
            self.scene.playback.bar_ui(ui, len);
        });
        egui::Panel::left("controls")
            .resizable(true)
            .default_size(side_panel_width(ui, 250.0))
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.controls_ui(ui));
            });
        let mut diagnostics_action = None;
        egui::Panel::right("event_log")
            .resizable(true)
            .default_size(side_panel_width(ui, 330.0))
            .show(ui, |ui| {
                use navmesh_scene::SideTab;
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut self.scene.side_tab, SideTab::Steps, "Steps")
                        .on_hover_text("The recorded steps of A* and the funnel");
                    ui.selectable_value(
                        &mut self.scene.side_tab,
                        SideTab::Diagnostics,
                        "Diagnostics",
                    )
                    .on_hover_text("What is wrong with this mesh: islands, seams, T-junctions…");
                });
                ui.separator();
                match self.scene.side_tab {
                    SideTab::Steps => {
                        playback::above_steps(ui, |ui| self.scene.frontier_ui(ui));
                        ui.separator();
                        self.scene.event_log_ui(ui);
                    }
                    SideTab::Diagnostics => diagnostics_action = self.scene.diagnostics_ui(ui),
                }
            });
        match diagnostics_action {
            Some(diagnostics_panel::DiagnosticsAction::Repair) => self.repair_mesh(),
            Some(diagnostics_panel::DiagnosticsAction::SaveRepaired) => {
                self.save_mesh_as();
            }
            _ => {}
        }
        egui::CentralPanel::no_frame().show(ui, |ui| {
            self.error_ui(ui);
            self.scene.canvas_ui(ui);
        });
        self.scene.sync_replay();
    }

    /// Welds near-duplicates and fixes T-junctions in the mesh shown (in memory), keeping start,
    /// goal and view, and checks it again.
    pub fn repair_mesh(&mut self) {
        use crate::navmesh::diagnose::{CheckOptions, repair};
        let colour_islands = self.scene.diagnostics.colour_islands;
        let (fixed, summary) = repair(self.scene.mesh.raw(), &CheckOptions::default());
        match fixed.build() {
            Ok(mesh) => {
                self.scene.reload_mesh(mesh);
                self.scene.unsaved_repair = true;
                self.scene.diagnostics.repaired = Some(summary);
                self.scene.diagnostics.colour_islands = colour_islands;
                self.notice = Some(format!(
                    "Repaired in memory: {}, {}; F5 reloads the file",
                    count(summary.welded, "weld"),
                    count(summary.split, "split")
                ));
            }
            Err(error) => self.fail(
                REPAIR_FAILED,
                format!("the repair made an unusable mesh: {error}"),
            ),
        }
    }

    /// The window's title: the document of the scene shown, `*` when it has unsaved changes
    /// (as in the menu bar), then the app's name.
    pub fn window_title(&self) -> String {
        let (name, unsaved) = match self.settings.scene {
            SceneKind::Navmesh => (self.scene.source.name(), self.scene.unsaved_repair),
            SceneKind::TileMap | SceneKind::Pursuit => (self.map_name(), self.grid.dirty),
        };
        format!("{name}{} — navlab", if unsaved { "*" } else { "" })
    }

    /// The tile map's file name, or "untitled map".
    fn map_name(&self) -> String {
        self.grid
            .file
            .as_deref()
            .map_or("untitled map".to_string(), files::file_label)
    }

    /// What a mesh built from the map is called (with the agent radius, when there is one).
    fn built_mesh_name(&self) -> String {
        match crate::navmesh::from_map::agent_radius_used(self.grid.agent_radius) {
            r if r > 0.0 => format!("{} as a navmesh (agent radius {r})", self.map_name()),
            _ => format!("{} as a navmesh", self.map_name()),
        }
    }

    /// Triangulates the tile map's passable tiles and shows the mesh in the navmesh view, from
    /// the map's start to its goal; on failure everything stays as it was. Synchronous (at
    /// launch); the window builds on a worker thread ([`NavlabApp::start_mesh_build`]).
    pub fn build_mesh_from_map(&mut self) {
        let (built, name, endpoints) = self.mesh_build_job().run();
        self.show_built_mesh(built, name, endpoints);
    }

    /// Starts building the navmesh of the tile map on a worker thread; the window keeps
    /// drawing (a spinner says so) and shows the mesh when it is done. Opening another mesh
    /// meanwhile drops the build.
    pub fn start_mesh_build(&mut self) {
        self.builds += 1;
        let job = self.mesh_build_job();
        if let Some((built, name, endpoints)) =
            self.mesh_builder.answer_or_submit(self.builds, job, true)
        {
            // No thread to run it: it ran here.
            self.show_built_mesh(built, name, endpoints);
        }
    }

    /// The build of the current map, start and goal.
    fn mesh_build_job(&self) -> MeshBuild {
        MeshBuild {
            map: self.grid.map.clone(),
            agent_radius: self.grid.agent_radius,
            name: self.built_mesh_name(),
            endpoints: (self.grid.start, self.grid.goal),
        }
    }

    /// True while a navmesh is being built.
    pub fn is_building_mesh(&self) -> bool {
        self.mesh_builder.is_busy()
    }

    /// Shows a finished build; returns true while one is still running.
    fn poll_mesh_build(&mut self) -> bool {
        if let Some((built, name, endpoints)) = self.mesh_builder.take() {
            self.show_built_mesh(built, name, endpoints);
        }
        self.is_building_mesh()
    }

    fn show_built_mesh(
        &mut self,
        built: Result<crate::navmesh::NavMesh, String>,
        name: String,
        (start_cell, goal_cell): (crate::grid::Cell, crate::grid::Cell),
    ) {
        let mesh = match built {
            Ok(mesh) => mesh,
            Err(error) => return self.fail(BUILD_FAILED, error),
        };
        let summary = mesh.summary();
        // Tile (x, y) is the square [x, x+1] × [y, y+1] of the mesh: start at tile centres,
        // moved onto the mesh when an agent radius keeps it off them (near a wall).
        let on_mesh = |(x, y): crate::grid::Cell| {
            mesh.locate(crate::geom::Vec2::new(x as f64 + 0.5, y as f64 + 0.5))
                .map(|location| location.point)
        };
        let endpoints = on_mesh(start_cell).zip(on_mesh(goal_cell));
        self.scene
            .set_mesh_at(mesh, MeshSource::Generated(name), endpoints);
        self.settings.scene = SceneKind::Navmesh;
        self.settings.last_file = None;
        self.error = None;
        self.notice = Some(format!(
            "Built from the map: {}, {}; File > Save mesh as… keeps it",
            count(summary.triangles, "triangle"),
            count(summary.islands, "island")
        ));
    }

    fn grid_panels(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("grid_playback").show(ui, |ui| {
            let len = self.grid.events.len();
            self.grid.playback.bar_ui(ui, len);
        });
        // As tall as its content, but the charts shrink to keep it within half of what is
        // left, so that a small window keeps room for the map.
        let most = (ui.available_height() * 0.5).max(160.0);
        egui::Panel::bottom("comparison")
            .resizable(false)
            .show(ui, |ui| {
                self.grid.comparison_ui(ui, most);
            });
        egui::Panel::right("grid_event_log")
            .resizable(true)
            .default_size(side_panel_width(ui, 300.0))
            .show(ui, |ui| {
                playback::above_steps(ui, |ui| self.grid.frontier_ui(ui));
                ui.separator();
                ui.heading("Steps");
                self.grid.event_log_ui(ui);
            });
        egui::Panel::left("grid_controls")
            .resizable(true)
            .default_size(side_panel_width(ui, 290.0))
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.horizontal(|ui| {
                        if ui
                            .button("New…")
                            .on_hover_text("A new grass map of any size (Ctrl+N)")
                            .clicked()
                        {
                            self.ask_new_map_size();
                        }
                        if ui
                            .button("Open…")
                            .on_hover_text("Open a MovingAI .map, a navlab .json or a Tiled .tmx/.tmj (Ctrl+O)")
                            .clicked()
                        {
                            self.command(Command::OpenMapDialog);
                        }
                        if ui
                            .button("Save")
                            .on_hover_text("Save (Ctrl+S); .json keeps tile costs")
                            .clicked()
                        {
                            self.command(Command::SaveMap);
                        }
                        if ui
                            .button("Save as…")
                            .on_hover_text("Save under a new name (Ctrl+Shift+S)")
                            .clicked()
                        {
                            self.command(Command::SaveMapAs);
                        }
                    });
                    ui.horizontal(|ui| {
                        let building = self.is_building_mesh();
                        if ui
                            .add_enabled(!building, egui::Button::new("Build navmesh"))
                            .on_hover_text(BUILD_MESH_TIP)
                            .clicked()
                        {
                            self.command(Command::BuildMeshFromMap);
                        }
                        if building {
                            ui.spinner();
                            ui.label("building…");
                        }
                        if ui
                            .selectable_label(self.grid.partitions.open, "Partitions")
                            .on_hover_text(
                                "The paper's four partitions of this map (grid, quadtree, visibility graph, navmesh) searched from S to G and compared, the chosen one drawn over the map (P)",
                            )
                            .clicked()
                        {
                            self.grid.partitions.open = !self.grid.partitions.open;
                        }
                    });
                    ui.horizontal(|ui| {
                        use crate::navmesh::from_map::AGENT_RADIUS_STEP;
                        ui.add(
                            egui::Slider::new(&mut self.grid.agent_radius, 0.0..=8.0)
                                .step_by(AGENT_RADIUS_STEP)
                                .text("Agent radius"),
                        )
                        .on_hover_text(AGENT_RADIUS_TIP);
                    });
                    ui.separator();
                    self.grid.controls_ui(ui);
                });
            });
        egui::CentralPanel::no_frame().show(ui, |ui| {
            self.error_ui(ui);
            self.grid.canvas_ui(ui);
        });
        let canvas = self.grid.canvas_rect;
        self.grid.partitions.window_ui(ui.ctx(), canvas);
    }

    fn pursuit_panels(&mut self, ui: &mut egui::Ui) {
        egui::Panel::right("pursuit_log")
            .resizable(true)
            .default_size(side_panel_width(ui, 320.0))
            .show(ui, |ui| {
                ui.heading("What happened");
                let map_file = match (&self.grid.file, self.grid.dirty) {
                    (Some(file), false) => Ok(file.as_path()),
                    (Some(_), true) => {
                        Err("The map has unsaved edits: save it first (Ctrl+S in the Tile map view), so the command reads what you see")
                    }
                    (None, _) => {
                        Err("The map is not in a file: save it first (Tile map → Save as…), so the command can read it")
                    }
                };
                self.pursuit.log_ui(ui, map_file);
            });
        egui::Panel::left("pursuit_controls")
            .resizable(true)
            .default_size(side_panel_width(ui, 290.0))
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.pursuit.controls_ui(ui));
            });
        egui::CentralPanel::no_frame().show(ui, |ui| {
            self.error_ui(ui);
            self.pursuit.canvas_ui(ui, &mut self.grid);
        });
    }

    fn controls_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if ui.button("Open…").on_hover_text("Open an OBJ or Polyanya .mesh (Ctrl+O); you can also drop a file on the window").clicked() {
                self.command(Command::OpenDialog);
            }
            if ui.button("Reload").on_hover_text("Load the file again from disk (F5)").clicked() {
                self.command(Command::Reload);
            }
            if ui.button("Fit").on_hover_text("Show the whole mesh (F)").clicked() {
                self.scene.fit_view();
            }
        });
        ui.horizontal(|ui| {
            ui.label("Plane");
            let before = self.scene.settings.plane;
            ui.radio_value(&mut self.scene.settings.plane, Plane::Xz, "XZ")
                .on_hover_text("Y-up 3D files: the ground is XZ");
            ui.radio_value(&mut self.scene.settings.plane, Plane::Xy, "XY")
                .on_hover_text("Meshes authored in 2D");
            if before != self.scene.settings.plane
                && matches!(self.scene.source, MeshSource::File(_))
            {
                self.command(Command::Reload);
            }
        });
        ui.separator();
        self.scene.controls_ui(ui);
        ui.separator();
        self.scene.stats_ui(ui);
    }

    fn status_ui(&mut self, ui: &mut egui::Ui) {
        if self.settings.scene == SceneKind::Pursuit {
            ui.horizontal(|ui| {
                let w = &self.pursuit.world;
                ui.monospace(format!("t {:8.2} s", w.time()));
                ui.separator();
                ui.label(format!(
                    "{} × {} tiles · trail {} points · {} mobs · {}",
                    w.map().width(),
                    w.map().height(),
                    w.trail.len(),
                    w.mobs.len(),
                    if self.pursuit.playing {
                        "running"
                    } else {
                        "paused"
                    }
                ));
                if let Some(notice) = &self.notice {
                    ui.separator();
                    ui.label(notice);
                }
            });
            return;
        }
        if self.settings.scene == SceneKind::TileMap {
            ui.horizontal(|ui| {
                match self.grid.hover {
                    Some((x, y)) => ui.monospace(format!("cell {x:>4},{y:>4}")),
                    None => ui.monospace("cell    —,   —"),
                };
                ui.separator();
                let g = &self.grid;
                ui.label(format!(
                    "{} × {} tiles, {} passable",
                    g.map.width(),
                    g.map.height(),
                    thousands(g.map.passable_count())
                ));
                ui.separator();
                ui.label(format!(
                    "step {} / {}",
                    thousands(g.playback.cursor.min(g.events.len())),
                    thousands(g.events.len())
                ));
                if let Some(notice) = &self.notice {
                    ui.separator();
                    ui.label(notice);
                }
            });
            return;
        }
        ui.horizontal(|ui| {
            match self.scene.hover_world {
                Some(p) => ui.monospace(format!("x {:>9.3}  z {:>9.3}", p.x, p.y)),
                None => ui.monospace("x        —  z        —"),
            };
            ui.separator();
            let s = &self.scene;
            ui.label(format!(
                "{}: {}, {}",
                s.source.name(),
                count(s.mesh.triangles().len(), "triangle"),
                count(s.mesh.island_count(), "island")
            ));
            ui.separator();
            ui.label(format!(
                "step {} / {}",
                thousands(s.playback.cursor.min(s.timeline.len())),
                thousands(s.timeline.len())
            ));
            if let Some(notice) = &self.notice {
                ui.separator();
                ui.label(notice);
            }
        });
    }
}

impl eframe::App for NavlabApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        if let Some(size) = self.window_size.take() {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::InnerSize(size));
        }
        self.frame_ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_none() {
            eframe::set_value(storage, eframe::APP_KEY, &self.settings);
            self.keep_unsaved_edits();
        }
    }

    /// The last edits handed to the recovery worker (at the save just before) are written
    /// before the process ends.
    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.wait_until_edits_kept();
    }

    /// Unsaved edits are kept for recovery at each save: more often than eframe's 30 s.
    fn auto_save_interval(&self) -> std::time::Duration {
        KEEP_EDITS_EVERY
    }

    /// A screenshot run leaves the user's panel layout as it was.
    fn persist_egui_memory(&self) -> bool {
        self.screenshot.is_none()
    }
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
    /// A screenshot's file or map could not be opened: the picture would show something else.
    #[error("could not open {0}; no screenshot written")]
    Open(String),
}

/// How to start the window.
#[derive(Debug, Default)]
pub struct LaunchOptions {
    /// A mesh to open instead of the default scene.
    pub file: Option<PathBuf>,
    /// Start and goal to place (world x, z).
    pub start: Option<crate::geom::Vec2>,
    /// Goal to place.
    pub goal: Option<crate::geom::Vec2>,
    /// Save a PNG of the window at a step and exit.
    pub screenshot: Option<screenshot::ScreenshotPlan>,
    /// Window size in points.
    pub size: Option<[f32; 2]>,
    /// Open the tile-map scene on this map.
    pub map: Option<PathBuf>,
    /// Run the comparison at start (tile-map scene).
    pub compare: bool,
    /// Open the pursuit scene (on `map` or the built-in map).
    pub pursuit: bool,
    /// Show the Diagnostics tab with islands coloured (navmesh scene).
    pub diagnostics: bool,
    /// Build a navmesh from the map and show it (navmesh scene).
    pub build_mesh: bool,
    /// The agent radius for `build_mesh` (tiles).
    pub agent_radius: Option<f64>,
    /// Search options replacing the saved ones.
    pub search: LaunchSearch,
    /// Walk the navmesh path at once (a screenshot shows the whole walk).
    pub walk: bool,
    /// Open the Partitions window with this partition drawn (tile-map scene).
    pub partitions: Option<crate::partitions::Partition>,
    /// The colour theme (egui keeps it for the next runs).
    pub theme: Option<egui::ThemePreference>,
}

/// Search options given at launch; each replaces the saved setting only when given.
#[derive(Debug, Clone, Default)]
pub struct LaunchSearch {
    /// Tile map: the algorithm animated.
    pub algorithm: Option<grid_scene::AlgorithmKind>,
    /// Tile map: the heuristic.
    pub heuristic: Option<crate::grid::Heuristic>,
    /// Tile map: A*'s weight.
    pub weight: Option<f64>,
    /// Tile map: IDA*'s node budget.
    pub budget: Option<usize>,
    /// Tile map: moves.
    pub connectivity: Option<crate::grid::Connectivity>,
    /// Navmesh: the step cost model.
    pub cost: Option<crate::navmesh::CostModel>,
}

/// A side panel's first width: `default` in a window 1,280 points wide, in proportion in a
/// narrower one (at least 160), so that a small window keeps room for the canvas. egui keeps
/// the width the user drags it to.
fn side_panel_width(ui: &egui::Ui, default: f32) -> f32 {
    let window = ui.ctx().content_rect().width();
    default.min(window * default / 1280.0).max(160.0)
}

impl NavlabApp {
    /// Applies the command line's launch options to a new window's state: the file or map to
    /// open, start and goal (a mesh's X,Z, or a map's cell when a map is shown), search
    /// options, the comparison, a navmesh built from the map, the diagnostics, the scene.
    /// Reports options that could not apply and a file that could not be opened (the window
    /// opens anyway, on what it had).
    pub fn apply_launch(&mut self, launch: &LaunchOptions) -> LaunchReport {
        let mut warnings = Vec::new();
        let mut open_failed = Vec::new();
        if launch.theme.is_some() {
            self.launch_theme = launch.theme;
        }
        let opens = launch.file.as_deref().map(documents::opens_as);
        let map_file = matches!(opens, Some(Ok(documents::Opens::Map)));
        // The file opens as a dropped one does: a map in the tile-map view, a mesh in the
        // navmesh view, anything else refused by name (the scene shown stays).
        match (&launch.file, opens) {
            (Some(file), Some(Ok(documents::Opens::Map))) => {
                self.settings.scene = SceneKind::TileMap;
                self.load_map(file.clone());
            }
            (Some(file), Some(Ok(documents::Opens::Mesh))) => self.load_file(file.clone()),
            (_, Some(Err(refusal))) => self.fail(OPEN_FAILED, refusal),
            _ => {}
        }
        // Each load clears the error on success and sets it on failure.
        open_failed.extend(launch.file.as_ref().and(self.error.clone()));
        if let Some(map) = &launch.map {
            self.settings.scene = SceneKind::TileMap;
            if !self.load_map(map.clone()) {
                open_failed.extend(self.error.clone());
            }
        } else if launch.compare || launch.partitions.is_some() {
            self.settings.scene = SceneKind::TileMap;
        }
        let on_map = map_file
            || launch.map.is_some()
            || launch.compare
            || launch.partitions.is_some()
            || launch.pursuit
            || launch.build_mesh;
        if on_map {
            self.place_on_map(launch.start, launch.goal, &mut warnings);
        } else if launch.start.is_some() || launch.goal.is_some() {
            if let Some(start) = launch.start {
                self.scene.start = start;
            }
            if let Some(goal) = launch.goal {
                self.scene.goal = goal;
            }
            self.scene.playback.cursor = 0;
            self.scene.rerun();
        }
        let search = &launch.search;
        let mut grid = self.grid.settings();
        grid.algorithm = search.algorithm.unwrap_or(grid.algorithm);
        grid.heuristic = search.heuristic.unwrap_or(grid.heuristic);
        grid.weight = search.weight.unwrap_or(grid.weight);
        grid.budget = search.budget.unwrap_or(grid.budget);
        grid.connectivity = search.connectivity.unwrap_or(grid.connectivity);
        if grid != self.grid.settings() {
            self.grid.apply_settings(&grid);
        }
        if let Some(cost) = search.cost
            && cost != self.scene.settings.cost
        {
            self.scene.settings.cost = cost;
            self.scene.rerun();
        }
        // A large mesh is queried on the worker: what follows (the walk, a screenshot's step)
        // is of its answer.
        self.scene.wait_for_query();
        if launch.compare {
            self.grid.compare();
        }
        if let Some(partition) = launch.partitions {
            self.grid.partitions.open = true;
            self.grid.partitions.shown = partition;
            self.grid.poll_partitions();
            self.grid
                .partitions
                .wait(std::time::Duration::from_secs(600));
        }
        if let Some(radius) = launch.agent_radius {
            self.grid.agent_radius = radius;
        }
        if launch.build_mesh {
            self.build_mesh_from_map();
        }
        if launch.diagnostics {
            let scene = &mut self.scene;
            scene.side_tab = navmesh_scene::SideTab::Diagnostics;
            scene.diagnostics.colour_islands = true;
            // Highlight the first error, so a screenshot shows one.
            let first_error = scene
                .diagnostics
                .report(&scene.mesh)
                .findings
                .iter()
                .find(|f| f.severity == crate::navmesh::diagnose::Severity::Error)
                .map(|f| f.kind);
            if let Some(kind) = first_error {
                scene.diagnostics.select(&scene.mesh, kind, 0);
            }
        }
        if launch.pursuit {
            self.settings.scene = SceneKind::Pursuit;
            self.pursuit.sync_map(&self.grid);
        }
        if launch.walk {
            let scene = &mut self.scene;
            scene.playback.cursor = scene.timeline.len();
            scene.sync_replay();
            scene.toggle_walk();
            match &mut scene.walk {
                // A picture of the whole walk.
                Some(walk) if launch.screenshot.is_some() => {
                    walk.time = walk.walk.duration();
                    walk.playing = false;
                }
                Some(_) => {}
                None => warnings.push("--walk: there is no path to walk".to_string()),
            }
        }
        LaunchReport {
            warnings,
            open_failed: (!open_failed.is_empty()).then(|| open_failed.join("; ")),
        }
    }

    /// Puts the map's start and goal on the cells given (x = column, y = row), when they are
    /// passable cells of the map; says why not otherwise.
    fn place_on_map(
        &mut self,
        start: Option<crate::geom::Vec2>,
        goal: Option<crate::geom::Vec2>,
        warnings: &mut Vec<String>,
    ) {
        let map = &self.grid.map;
        let mut cell_of = |point: Option<crate::geom::Vec2>, what: &str| {
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
        if let Some(cell) = start {
            self.grid.start = cell;
        }
        if let Some(cell) = goal {
            self.grid.goal = cell;
        }
        self.grid.playback.cursor = 0;
        self.grid.rerun();
    }
}

/// Opens the window; returns when it closes.
pub fn run_native(launch: LaunchOptions) -> Result<(), LaunchError> {
    let size = launch.size.unwrap_or([1280.0, 800.0]);
    let screenshot_mode = launch.screenshot.is_some();
    let screenshot_storage = screenshot_mode.then(|| {
        std::env::temp_dir().join(format!("navlab-screenshot-{}.ron", std::process::id()))
    });
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("navlab")
            .with_app_id("navlab")
            .with_icon(icon::app_icon())
            .with_inner_size(size)
            .with_drag_and_drop(true),
        persist_window: !screenshot_mode,
        // A screenshot starts from nothing saved: eframe restores the last window size even
        // with `persist_window` off, and the panels take their first widths from it before the
        // window is given the picture's size (a picture after a run in a small window had
        // narrower side panels). Its storage is a file of its own, removed afterwards.
        persistence_path: screenshot_storage.clone(),
        ..Default::default()
    };
    let outcome = eframe::run_native(
        "navlab",
        options,
        Box::new(move |cc| {
            // Explicit files must not depend on what was saved last time (a screenshot's
            // storage, its own, holds nothing).
            let restored: AppSettings = if launch.file.is_some() {
                AppSettings::default()
            } else {
                cc.storage
                    .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                    .unwrap_or_default()
            };
            let mut app = NavlabApp::new(restored, Box::new(files::NativeDialogs));
            // Screenshots neither keep nor offer edits.
            if !screenshot_mode && let Some(recovery) = recovery::Recovery::in_app_data() {
                app = app.with_recovery(recovery);
            }
            let report = app.apply_launch(&launch);
            for warning in &report.warnings {
                eprintln!("warning: {warning}");
            }
            if let Some(message) = report.open_failed {
                if screenshot_mode {
                    return Err(Box::new(LaunchError::Open(message)));
                }
                eprintln!("error: could not open {message} (the window shows what it had)");
            }
            // Asked for, or a screenshot's (the same picture on every machine).
            if launch.size.is_some() || screenshot_mode {
                app.window_size = Some(egui::Vec2::from(size));
            }
            // A picture is the same whatever the desktop prefers, unless a theme is asked for.
            if screenshot_mode && launch.theme.is_none() {
                app.launch_theme = Some(egui::ThemePreference::Dark);
            }
            app.screenshot = launch
                .screenshot
                .map(|plan| plan.at_size(egui::Vec2::from(size)));
            Ok(Box::new(app))
        }),
    )
    .map_err(|error| match error {
        eframe::Error::AppCreation(inner) => match inner.downcast::<LaunchError>() {
            Ok(launch_error) => *launch_error,
            Err(other) => LaunchError::Window(other.to_string()),
        },
        other => LaunchError::Window(other.to_string()),
    });
    if let Some(file) = screenshot_storage {
        // Absent when nothing was saved.
        let _ = std::fs::remove_file(file);
    }
    outcome
}
