//! The desktop window (eframe/egui): panels around the navmesh scene, files, persistence and
//! screenshots. Cross-cutting actions are collected as [`Command`]s during a frame and applied
//! after it.

pub mod camera;
pub mod files;
pub mod navmesh_scene;
pub mod playback;
pub mod screenshot;
pub mod timeline;

use crate::assets;
use crate::navmesh::Plane;
use files::{FileDialogs, RecentFiles};
use navmesh_scene::{MeshSource, NavmeshScene, NavmeshSettings};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Settings kept between runs (eframe persistence). Panel sizes are kept by egui itself.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct AppSettings {
    /// The last file opened, reopened at start.
    pub last_file: Option<PathBuf>,
    /// Recently opened files, newest first.
    pub recent: RecentFiles,
    /// The navmesh scene's options.
    pub navmesh: NavmeshSettings,
    /// Playback speed (steps per second).
    pub speed: Option<f64>,
}

/// Something to do after the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Ask for a file with the open dialog.
    OpenDialog,
    /// Load a mesh file.
    Load(PathBuf),
    /// Load a built-in mesh.
    LoadEmbedded(usize),
    /// Load the current file again from disk.
    Reload,
}

/// The application.
pub struct NavlabApp {
    /// Persisted settings.
    pub settings: AppSettings,
    /// The navmesh scene.
    pub scene: NavmeshScene,
    /// The last error, shown until dismissed.
    pub error: Option<String>,
    /// A short confirmation shown in the status bar.
    pub notice: Option<String>,
    commands: Vec<Command>,
    dialogs: Box<dyn FileDialogs>,
    /// Set in screenshot mode.
    pub screenshot: Option<screenshot::ScreenshotPlan>,
    show_help: bool,
}

impl NavlabApp {
    /// The app with `settings` (e.g. restored from storage) on the embedded default scene, or on
    /// the settings' last file when it still loads.
    pub fn new(settings: AppSettings, dialogs: Box<dyn FileDialogs>) -> Self {
        let mut scene = NavmeshScene::embedded(assets::ROOMS, settings.navmesh.clone());
        if let Some(speed) = settings.speed {
            scene.playback.speed = speed;
        }
        let mut app = Self {
            settings,
            scene,
            error: None,
            notice: None,
            commands: Vec::new(),
            dialogs,
            screenshot: None,
            show_help: false,
        };
        if let Some(last) = app.settings.last_file.clone() {
            app.load_file(last);
            // A last file that no longer loads is not worth an error at start.
            app.error = None;
        }
        app
    }

    /// Queues a command for after the frame.
    pub fn command(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// Loads a mesh file into the scene; on failure the current mesh stays and the error shows.
    pub fn load_file(&mut self, path: PathBuf) {
        let source = MeshSource::File(path.clone());
        match self.scene.load(&source) {
            Ok(mesh) => {
                self.scene.set_mesh(mesh, source);
                self.settings.recent.add(path.clone());
                self.settings.last_file = Some(path);
                self.error = None;
                self.notice = Some(format!("Opened {}", self.scene.source.name()));
            }
            Err(message) => {
                self.error = Some(message);
            }
        }
    }

    fn apply_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            match command {
                Command::OpenDialog => {
                    if let Some(path) = self.dialogs.pick_mesh() {
                        self.load_file(path);
                    }
                }
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
                            Err(message) => self.error = Some(message),
                        }
                    }
                }
                Command::Reload => {
                    let source = self.scene.source.clone();
                    match self.scene.load(&source) {
                        Ok(mesh) => {
                            let (start, goal) = (self.scene.start, self.scene.goal);
                            self.scene.mesh = mesh;
                            self.scene.start = start;
                            self.scene.goal = goal;
                            self.scene.rerun();
                            self.error = None;
                            self.notice = Some("Reloaded".to_string());
                        }
                        Err(message) => self.error = Some(message),
                    }
                }
            }
        }
    }

    fn shortcuts(&mut self, ui: &egui::Ui) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let open = KeyboardShortcut::new(Modifiers::COMMAND, Key::O);
        let reload = KeyboardShortcut::new(Modifiers::NONE, Key::F5);
        let (open, reload) =
            ui.input_mut(|i| (i.consume_shortcut(&open), i.consume_shortcut(&reload)));
        if open {
            self.command(Command::OpenDialog);
        }
        if reload {
            self.command(Command::Reload);
        }
        if !ui.ctx().egui_wants_keyboard_input() && ui.input(|i| i.key_pressed(Key::F)) {
            self.scene.fit_view();
        }
    }

    /// One frame of the whole window, inside `ui` (the root of the window or of a test).
    pub fn frame_ui(&mut self, ui: &mut egui::Ui) {
        // Dropped files: open the first.
        let dropped: Vec<PathBuf> = ui.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        if let Some(path) = dropped.into_iter().next() {
            self.command(Command::Load(path));
        }
        self.shortcuts(ui);
        let len = self.scene.timeline.len();
        self.scene.playback.keyboard(ui, len);
        let dt = f64::from(ui.input(|i| i.stable_dt)).min(0.1);
        self.scene.playback.tick(dt, len);
        self.scene.sync_replay();

        egui::Panel::top("menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_ui(ui));
        egui::Panel::bottom("playback").show(ui, |ui| {
            let len = self.scene.timeline.len();
            self.scene.playback.bar_ui(ui, len);
        });
        egui::Panel::left("controls")
            .resizable(true)
            .default_size(250.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.controls_ui(ui));
            });
        egui::Panel::right("event_log")
            .resizable(true)
            .default_size(330.0)
            .show(ui, |ui| {
                ui.heading("Steps");
                self.scene.event_log_ui(ui);
            });
        egui::CentralPanel::no_frame().show(ui, |ui| {
            if let Some(error) = self.error.clone() {
                let dismissed = error_banner_ui(ui, &error);
                if dismissed {
                    self.error = None;
                }
            }
            self.scene.canvas_ui(ui);
        });
        self.scene.sync_replay();
        self.settings.navmesh = self.scene.settings.clone();
        self.settings.speed = Some(self.scene.playback.speed);
        if self.show_help {
            egui::Window::new("Keyboard and mouse")
                .open(&mut self.show_help)
                .show(ui.ctx(), help_ui);
        }
        self.apply_commands();
        if self.scene.playback.playing {
            ui.ctx().request_repaint();
        }
        if let Some(plan) = &mut self.screenshot {
            plan.frame(ui.ctx(), &mut self.scene);
        }
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui
                    .button("Open…")
                    .on_hover_text("Ctrl+O · OBJ or Polyanya .mesh")
                    .clicked()
                {
                    self.command(Command::OpenDialog);
                }
                if ui.button("Reload").on_hover_text("F5").clicked() {
                    self.command(Command::Reload);
                }
                ui.menu_button("Recent", |ui| {
                    if self.settings.recent.is_empty() {
                        ui.label("(none yet)");
                    }
                    for path in self.settings.recent.paths().to_vec() {
                        if ui.button(path.display().to_string()).clicked() {
                            self.command(Command::Load(path));
                        }
                    }
                });
                ui.menu_button("Built-in meshes", |ui| {
                    for (i, scene) in assets::ALL.iter().enumerate() {
                        if ui.button(scene.name).clicked() {
                            self.command(Command::LoadEmbedded(i));
                        }
                    }
                });
            });
            ui.menu_button("View", |ui| {
                if ui.button("Fit to view").on_hover_text("F").clicked() {
                    self.scene.fit_view();
                }
            });
            if ui.button("Help").clicked() {
                self.show_help = true;
            }
            ui.separator();
            ui.label(self.scene.source.name());
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
        ui.horizontal(|ui| {
            match self.scene.hover_world {
                Some(p) => ui.monospace(format!("x {:>9.3}  z {:>9.3}", p.x, p.y)),
                None => ui.monospace("x        —  z        —"),
            };
            ui.separator();
            let s = &self.scene;
            ui.label(format!(
                "{}: {} triangles, {} islands",
                s.source.name(),
                s.mesh.triangles().len(),
                s.mesh.island_count()
            ));
            ui.separator();
            ui.label(format!(
                "step {} / {}",
                s.playback.cursor.min(s.timeline.len()),
                s.timeline.len()
            ));
            if let Some(notice) = &self.notice {
                ui.separator();
                ui.label(notice);
            }
        });
    }
}

/// A red banner with the error and a close button; returns true when dismissed.
fn error_banner_ui(ui: &mut egui::Ui, error: &str) -> bool {
    let mut dismissed = false;
    egui::Frame::new()
        .fill(egui::Color32::from_rgb(120, 30, 30))
        .inner_margin(8.0)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.colored_label(egui::Color32::WHITE, format!("Could not open: {error}"));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.button("Dismiss").clicked() {
                        dismissed = true;
                    }
                });
            });
            ui.colored_label(
                egui::Color32::from_gray(220),
                "The mesh shown before is still open.",
            );
        });
    dismissed
}

fn help_ui(ui: &mut egui::Ui) {
    egui::Grid::new("help").num_columns(2).show(ui, |ui| {
        for (keys, what) in [
            ("Left click", "set the start"),
            ("Right click / Shift+click", "set the goal"),
            ("Drag S or G", "move it; the search re-runs live"),
            ("Drag elsewhere", "pan"),
            ("Wheel / pinch", "zoom at the cursor"),
            ("F", "fit the mesh to the view"),
            ("Space", "play / pause"),
            ("Left / Right arrow", "step back / forward"),
            ("Home / End", "first / last step"),
            ("Ctrl+O", "open a mesh (or drop a file on the window)"),
            ("F5", "reload the file"),
        ] {
            ui.strong(keys);
            ui.label(what);
            ui.end_row();
        }
    });
}

impl eframe::App for NavlabApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame_ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_none() {
            eframe::set_value(storage, eframe::APP_KEY, &self.settings);
        }
    }
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
}

/// Opens the window; returns when it closes.
pub fn run_native(launch: LaunchOptions) -> Result<(), String> {
    let size = launch.size.unwrap_or([1280.0, 800.0]);
    let screenshot_mode = launch.screenshot.is_some();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("navlab")
            .with_inner_size(size)
            .with_drag_and_drop(true),
        persist_window: !screenshot_mode,
        ..Default::default()
    };
    eframe::run_native(
        "navlab",
        options,
        Box::new(move |cc| {
            // Screenshots and explicit files must not depend on what was saved last time.
            let restored: AppSettings = if screenshot_mode || launch.file.is_some() {
                AppSettings::default()
            } else {
                cc.storage
                    .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                    .unwrap_or_default()
            };
            let mut app = NavlabApp::new(restored, Box::new(files::NativeDialogs));
            if let Some(file) = launch.file {
                app.load_file(file);
            }
            if launch.start.is_some() || launch.goal.is_some() {
                if let Some(start) = launch.start {
                    app.scene.start = start;
                }
                if let Some(goal) = launch.goal {
                    app.scene.goal = goal;
                }
                app.scene.playback.cursor = 0;
                app.scene.rerun();
            }
            app.screenshot = launch.screenshot;
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| e.to_string())
}
