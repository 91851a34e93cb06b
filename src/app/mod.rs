//! The desktop window (eframe/egui): a shell around the scenes. The shell keeps what the scenes
//! share — the menus, the documents (the mesh's file, the tile map), the error banner, the
//! commands, persistence and pictures — and gives each frame to the scene shown (see
//! [`scenes`]). Actions are collected as commands during a frame and applied after it.

pub mod animation;
pub mod brush;
pub mod camera;
pub mod chart_marks;
pub mod clipped;
pub mod commands;
mod dialogs;
mod documents;
pub mod file_kinds;
pub mod file_watch;
pub mod files;
pub mod headless;
pub mod icon;
pub mod ink;
pub mod keys;
pub mod latest_worker;
pub mod launch;
pub mod legend;
pub mod lesson;
mod level_open;
mod level_scene;
pub mod loading;
mod menus;
mod mesh_build;
pub mod navmesh_scene;
pub mod path_prompt;
pub mod picture;
pub mod playback;
pub mod pseudocode_panel;
pub mod pursuit_scene;
pub mod recovery;
pub mod scene;
pub mod scenes;
pub mod screenshot;
pub mod share;
pub mod software_render;
pub mod tile_map_scene;
pub mod tile_paint;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use commands::{Command, UiCommand};
pub use launch::{Launch, LaunchAction, LaunchError, LaunchReport, LaunchSearch, run_native};
pub use scene::{Banner, Scene, SceneSetup, Shared, side_panel_width};
pub use scenes::{SceneKind, SceneSettings, Scenes};

use crate::grid::MapDocument;
use files::{FileDialogs, RecentFiles};
use path_prompt::PathPrompt;
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
    /// The scene shown.
    pub scene: SceneKind,
    /// Each scene's options.
    pub scenes: SceneSettings,
    /// Load the mesh or map file again when it changes on disk (an exporter wrote it again).
    pub reload_changed_files: bool,
    /// Where navlab's web page is published: links made with Copy link open it.
    pub web_address: Option<String>,
}

impl Default for AppSettings {
    fn default() -> Self {
        Self {
            last_file: None,
            last_map: None,
            recent: RecentFiles::default(),
            scene: SceneKind::default(),
            scenes: SceneSettings::default(),
            reload_changed_files: true,
            web_address: None,
        }
    }
}

/// Banner wording for a file that did not open.
const OPEN_FAILED: (&str, &str) = ("Could not open", "What was shown before is still open.");
/// Banner wording for a save that failed (saves are atomic: the target is untouched).
const SAVE_FAILED: (&str, &str) = (
    "Could not save",
    "Nothing was overwritten and nothing is lost: the work is still here.",
);
/// How often eframe saves the settings, and with them once more any unsaved map edits (they
/// are written to the recovery file half a second after they are made, see
/// [`recovery::KeepSchedule`]).
const KEEP_EDITS_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Where the unsaved work stands, to tell whether the recovery file holds the latest: the
/// map's revision and costs (when it is unsaved) and the mesh's edit count (when it is).
#[derive(Debug, Clone, Copy, PartialEq)]
struct UnsavedState {
    map: Option<(u64, crate::grid::TileCosts)>,
    mesh: Option<u64>,
}

/// A document with changes that are not saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unsaved {
    /// The tile map has edits.
    Map,
    /// The mesh shown was repaired in memory.
    RepairedMesh,
    /// The mesh shown has edits (obstacles, doors, areas).
    EditedMesh,
}

/// The app's own small windows and what they hold.
#[derive(Default)]
struct Windows {
    /// The New map window's size fields, while it is open.
    new_map_size: Option<(usize, usize)>,
    /// The keyboard help is shown.
    help: bool,
    /// A picture waiting for its typed path (no file dialog on this desktop).
    picture_to_save: Option<std::sync::Arc<egui::ColorImage>>,
    /// The Export animation window's fields, while it is open.
    export_form: Option<animation::ExportForm>,
    /// An animation waiting for its typed path.
    export_to_save: Option<animation::ExportForm>,
    /// An animation being recorded.
    export_job: Option<animation::ExportJob>,
    /// The Copy link window's address field, while it asks where the web page is.
    link_address: Option<String>,
}

/// The application.
pub struct NavlabApp {
    /// Persisted settings.
    pub settings: AppSettings,
    /// The scenes; [`AppSettings::scene`] says which is shown.
    pub scenes: Scenes,
    /// The tile map the map scenes show and edit.
    pub map: MapDocument,
    /// The error banner.
    pub banner: Banner,
    /// A short confirmation shown in the status bar.
    pub notice: Option<String>,
    /// A command waiting for the user to say what to do with unsaved edits.
    pub pending: Option<Command>,
    /// Commands to apply after the frame.
    commands: Vec<Command>,
    /// Commands the scene asked for during the frame.
    asked: Vec<UiCommand>,
    dialogs: Box<dyn FileDialogs>,
    windows: Windows,
    /// The window asking for a typed path (no file dialog on this desktop, or Ctrl+L).
    pub path_prompt: Option<PathPrompt>,
    /// A window size to ask for at the first frame (`--size`): eframe
    /// restores the size the window had last time, which must not win over either.
    window_size: Option<egui::Vec2>,
    /// The window's size in points at the last frame (an exported animation's size).
    content_size: [usize; 2],
    /// A theme to give egui at the first frame (`--theme`). Otherwise
    /// the theme is egui's own option, which egui keeps between runs.
    launch_theme: Option<egui::ThemePreference>,
    /// Closing is allowed (the unsaved-edits question was answered).
    allow_close: bool,
    quit_requested: bool,
    /// The window title last sent (sent again only when it changes).
    shown_title: Option<String>,
    /// Keeps unsaved map edits in this window's recovery file, on a worker thread (none in
    /// tests unless given).
    keeper: Option<recovery::Keeper>,
    /// The map revision and costs last kept there.
    kept: Option<UnsavedState>,
    /// When the edits not kept yet are written.
    keep_schedule: recovery::KeepSchedule,
    /// Edits windows that are gone left unsaved, offered one at a time until the user opens
    /// or discards each.
    pub recovered: std::collections::VecDeque<recovery::Offer>,
    /// Builds navmeshes from the map on a worker thread.
    mesh_build: mesh_build::MeshBuilder,
    /// Watches the mesh's file and the map's file for changes on disk.
    watches: documents::Watches,
    /// Takes pictures of the window (Save picture, Copy picture).
    pictures: picture::PictureTaker,
    /// Reads large files on a worker thread.
    loader: loading::Loader,
    /// The address of the web page the window runs in (in a browser).
    pub page_address: Option<String>,
    /// Text to put on the clipboard at the end of the frame.
    to_clipboard: Option<String>,
    /// Where the menu bar drew each scene's switch at the last frame (for a browser test).
    pub scene_tabs: Vec<(SceneKind, egui::Rect)>,
}

/// True in the browser build, where there are no paths, no threads and no file dialogs of the
/// system: files come as bytes and saves go out as downloads.
pub const IN_BROWSER: bool = cfg!(target_arch = "wasm32");

impl NavlabApp {
    /// The app with `settings` (e.g. restored from storage) on the embedded default scene, or on
    /// the settings' last file and map when they still load.
    pub fn new(settings: AppSettings, dialogs: Box<dyn FileDialogs>) -> Self {
        let map = MapDocument::new(tile_map_scene::default_map(), None);
        let scenes = Scenes::new(&settings.scenes, &map);
        let mut app = Self {
            settings,
            scenes,
            map,
            banner: Banner::default(),
            notice: None,
            pending: None,
            commands: Vec::new(),
            asked: Vec::new(),
            dialogs,
            windows: Windows::default(),
            path_prompt: None,
            window_size: None,
            content_size: [1280, 800],
            launch_theme: None,
            allow_close: false,
            quit_requested: false,
            shown_title: None,
            keeper: None,
            kept: None,
            keep_schedule: recovery::KeepSchedule::default(),
            recovered: Default::default(),
            mesh_build: mesh_build::MeshBuilder::default(),
            watches: documents::Watches::default(),
            pictures: picture::PictureTaker::default(),
            loader: loading::Loader::default(),
            page_address: None,
            to_clipboard: None,
            scene_tabs: Vec::new(),
        };
        if let Some(last) = app.settings.last_file.clone() {
            app.load_file(last);
        }
        if let Some(last) = app.settings.last_map.clone() {
            app.load_map(last);
        }
        // A last file that no longer loads is not worth an error at start.
        app.banner.error = None;
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
                self.mesh_build.forget();
            }
            self.commands.push(command);
        }
    }

    /// What `command` would throw away unsaved, if anything (the map first).
    fn unsaved_for(&self, command: &Command) -> Option<Unsaved> {
        if command.replaces_map() && self.map.dirty {
            Some(Unsaved::Map)
        } else if command.replaces_mesh() && self.scenes.navmesh.has_unsaved_edits() {
            Some(Unsaved::EditedMesh)
        } else if command.replaces_mesh() && self.scenes.navmesh.origin.unsaved_repair {
            Some(Unsaved::RepairedMesh)
        } else {
            None
        }
    }

    /// Shows an error banner; `context` says what failed and what is still there.
    fn fail(&mut self, context: (&'static str, &'static str), message: String) {
        self.banner.fail(context, message);
    }

    /// The last error shown and not dismissed.
    pub fn error(&self) -> Option<&str> {
        self.banner.error.as_deref()
    }

    /// The commands every scene offers, whose keys work everywhere.
    const EVERYWHERE: [UiCommand; 9] = [
        UiCommand::OpenPath,
        UiCommand::SavePicture,
        UiCommand::CopyPicture,
        UiCommand::SaveLesson,
        UiCommand::CopyLink,
        UiCommand::ExportAnimation,
        UiCommand::Quit,
        UiCommand::FitView,
        UiCommand::Help,
    ];

    /// True when `command`'s keys work in the scene shown.
    fn keys_work(&self, command: UiCommand) -> bool {
        if IN_BROWSER && !command.in_browser() {
            return false;
        }
        Self::EVERYWHERE.contains(&command) || self.scene().commands().contains(&command)
    }

    /// True while the scene shown plays its steps (or, in the pursuit, its simulation).
    pub fn is_playing(&self) -> bool {
        match self.settings.scene {
            SceneKind::Navmesh => self.scenes.navmesh.query.playback.playing,
            SceneKind::TileMap => self.scenes.tile_map.playback.playing,
            SceneKind::Pursuit => self.scenes.pursuit.playing,
            SceneKind::Level => self.scenes.level.is_playing(),
        }
    }

    /// The scene shown.
    pub fn scene(&self) -> &dyn Scene {
        self.scenes.get(self.settings.scene)
    }

    /// The scene shown, with what the scenes share, for one part of the frame.
    fn scene_and_shared(&mut self) -> (&mut dyn Scene, Shared<'_>) {
        let building_mesh = self.mesh_build.is_busy();
        let scene = self.scenes.get_mut(self.settings.scene);
        let history = scene.history(&self.map);
        let shared = Shared {
            map: &mut self.map,
            asked: &mut self.asked,
            banner: &mut self.banner,
            notice: &mut self.notice,
            building_mesh,
            history,
        };
        (scene, shared)
    }

    /// Runs `command`, asked for by a button, a menu item or its keys.
    pub fn run(&mut self, command: UiCommand) {
        match command {
            UiCommand::NewMap => self.ask_new_map_size(),
            UiCommand::OpenMap => self.command(Command::OpenMapDialog),
            UiCommand::OpenLevel => self.command(Command::OpenLevelDialog),
            UiCommand::OpenLevelNavmesh => self.open_level_navmesh(),
            UiCommand::SaveLevelNavmesh => self.command(Command::SaveLevelNavmesh),
            UiCommand::SaveCrowdRun => self.command(Command::SaveCrowdRun),
            UiCommand::SaveMap => self.command(Command::SaveMap),
            UiCommand::SaveMapAs => self.command(Command::SaveMapAs),
            UiCommand::ReloadMap => {
                // The map's file again (unsaved edits are asked about first).
                if let Some(file) = self.map.file.clone() {
                    self.command(Command::LoadMap(file));
                }
            }
            UiCommand::BuildMesh => {
                if !self.is_building_mesh() {
                    self.command(Command::BuildMeshFromMap);
                }
            }
            UiCommand::Undo | UiCommand::Redo => {
                let redo = command == UiCommand::Redo;
                if !self.scenes.get_mut(self.settings.scene).undo_own(redo) {
                    self.edit_map(if redo {
                        MapDocument::redo
                    } else {
                        MapDocument::undo
                    });
                }
            }
            UiCommand::OpenMesh => self.command(Command::OpenDialog),
            UiCommand::ReloadMesh => self.command(Command::Reload),
            UiCommand::SaveMeshAs => {
                self.save_mesh_as();
            }
            UiCommand::OpenPath => self.command(Command::OpenPathPrompt),
            UiCommand::SavePicture => self.command(Command::SavePicture),
            UiCommand::CopyPicture => self.command(Command::CopyPicture),
            UiCommand::SaveLesson => self.command(Command::SaveLesson),
            UiCommand::CopyLink => self.copy_link(),
            UiCommand::ExportAnimation => self.open_export_form(),
            UiCommand::CompareTrace => self.command(Command::CompareTraceDialog),
            UiCommand::Quit => self.command(Command::Quit),
            UiCommand::FitView => {
                for &kind in Scenes::ALL {
                    self.scenes.get_mut(kind).fit_view();
                }
            }
            UiCommand::Help => self.windows.help = !self.windows.help,
        }
    }

    /// Changes the tile map with `edit` (say, a paint), as a view of it would: the views that
    /// follow the map see the change at once. Returns what `edit` returned.
    pub fn edit_map<R>(&mut self, edit: impl FnOnce(&mut MapDocument) -> R) -> R {
        let answer = edit(&mut self.map);
        self.scenes.tile_map.follow(&self.map);
        answer
    }

    /// Paints one tile of the map as a complete edit (one undo step), as a click with the brush
    /// does; returns true when it changed.
    pub fn paint(&mut self, cell: crate::grid::Cell, tile: crate::grid::Tile) -> bool {
        self.edit_map(|map| map.paint(cell, tile))
    }

    /// The keys of the commands offered here this frame, one loop over every command.
    fn shortcuts(&mut self, ui: &egui::Ui) {
        let offered: Vec<UiCommand> = UiCommand::ALL
            .into_iter()
            .filter(|&command| self.keys_work(command))
            .collect();
        for command in commands::pressed(ui, &offered) {
            self.run(command);
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
        // Dropped files: open the first, as a map or a mesh by extension (a browser gives its
        // bytes later, not a path).
        let dropped = ui.input(|i| i.raw.dropped_files.first().cloned());
        if let Some(file) = dropped
            && !self.dialogs.read_dropped(&file)
            && !file.path().as_os_str().is_empty()
        {
            self.open_path(file.path().to_path_buf());
        }
        for upload in self.dialogs.uploads() {
            self.open_upload(upload);
        }
        dialogs::drop_preview_ui(ui.ctx());
        let content = ui.ctx().content_rect().size();
        self.content_size = [content.x.round() as usize, content.y.round() as usize];
        if self.poll_export() {
            // Here, a frame of the animation is recorded each time the window draws.
            let wait = if IN_BROWSER { 0 } else { 100 };
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(wait));
        }
        // Escape closes the help first (taken here, so the scene does not act on it too).
        if self.windows.help
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape))
        {
            self.windows.help = false;
        }
        self.shortcuts(ui);
        self.follow_files_on_disk(ui);
        let dt = f64::from(ui.input(|i| i.stable_dt)).min(0.1);
        let building = self.poll_mesh_build() | self.poll_loading();
        let moving = {
            let (scene, mut shared) = self.scene_and_shared();
            scene.tick(ui, &mut shared, dt)
        };
        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        {
            let shown = self.settings.scene;
            let (scene, mut shared) = self.scene_and_shared();
            scene.panels_ui(ui, &mut shared);
            egui::CentralPanel::no_frame().show(ui, |ui| {
                dialogs::error_ui(ui, shared.banner, shown);
                scene.canvas_ui(ui, &mut shared);
            });
            scene.windows_ui(ui.ctx(), &mut shared);
        }
        for command in std::mem::take(&mut self.asked) {
            self.run(command);
        }
        self.settings.scenes = self.scenes.settings(&self.map);
        self.windows_ui(ui.ctx());
        self.apply_commands();
        self.keep_edits_soon(ui.ctx());
        let title = self.window_title();
        if self.shown_title.as_ref() != Some(&title) {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shown_title = Some(title);
        }
        self.take_pictures(ui.ctx());
        if let Some(text) = self.to_clipboard.take() {
            ui.ctx().copy_text(text);
        }
        if self.quit_requested {
            self.quit_requested = false;
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if moving || building {
            ui.ctx().request_repaint();
        }
    }

    /// Writes edits not kept yet to the recovery file (on its worker) shortly after they are
    /// made, waking an idle window for it.
    fn keep_edits_soon(&mut self, ctx: &egui::Context) {
        if self.keeper.is_none() {
            return;
        }
        let now = self.unsaved_state();
        let unkept = (now.map.is_some() || now.mesh.is_some()) && self.kept != Some(now);
        let now = ctx.input(|i| i.time);
        if self.keep_schedule.due(unkept, now) {
            self.keep_unsaved_edits();
        }
        if let Some(wait) = self.keep_schedule.wait(now) {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(wait));
        }
    }

    /// The status bar: Cancel while an animation records, the scene's part, then the last
    /// notice.
    fn status_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            // First, where it stays put: the scene's part changes width as the pointer moves
            // (the point under it), and the button must not move away from the pointer.
            if self.windows.export_job.is_some() {
                if ui
                    .button("Cancel")
                    .on_hover_text("Stop recording the animation; nothing is written")
                    .clicked()
                {
                    self.cancel_export();
                }
                ui.separator();
            }
            self.scene().status_ui(ui, &self.map);
            if let Some(name) = self.opening() {
                ui.separator();
                ui.spinner();
                ui.label(format!("opening {name}…"));
            }
            if let Some(notice) = &self.notice {
                ui.separator();
                ui.label(notice);
            }
        });
    }

    /// The window's title: the document of the scene shown, `*` when it has unsaved changes
    /// (as in the menu bar), then the app's name.
    pub fn window_title(&self) -> String {
        let (name, unsaved) = self.document();
        format!(
            "{name}{} — navlab",
            if unsaved.is_some() { "*" } else { "" }
        )
    }

    /// The document of the scene shown: its name and its unsaved note.
    fn document(&self) -> (String, Option<&'static str>) {
        self.scene().document(&self.map)
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
        eframe::set_value(storage, eframe::APP_KEY, &self.settings);
        self.keep_unsaved_edits();
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
}
