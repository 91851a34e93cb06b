//! The documents: opening and saving tile maps and meshes (through the file dialogs, or a
//! typed path where there are none), following their files on disk, keeping unsaved map edits
//! for recovery after a crash, and the commands that do all this after a frame.

use super::file_kinds::{Opens, opens_as};
use super::file_watch::FileWatch;
use super::files::Picked;
use super::navmesh_scene::MeshSource;
use super::path_prompt::{PathPrompt, PromptPurpose};
use super::{Command, NavlabApp, OPEN_FAILED, SAVE_FAILED, SceneKind, picture, recovery};
use crate::words::count;
use std::path::PathBuf;

/// Banner wording for edits saved beside a mesh that cannot be used.
const EDITS_NOT_RESTORED: (&str, &str) = (
    "Could not restore the saved edits",
    "The mesh is open as saved; its obstacles and doors are not editable.",
);

/// Banner wording for a recovery file that does not read.
const RECOVERY_FAILED: (&str, &str) = (
    "Could not read the edits kept from the last session",
    "The file is left as it is.",
);

/// What to look for beside a mesh just read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Beside {
    /// Its `NAME.edits.json` (a file read from disk).
    EditsFile,
    /// Nothing (a file given as bytes has no folder).
    Nothing,
}

/// The files of the documents shown, watched for changes on disk.
#[derive(Default)]
pub(super) struct Watches {
    mesh: Option<FileWatch>,
    map: Option<FileWatch>,
}

impl NavlabApp {
    /// Applies the commands queued during the frame.
    pub(super) fn apply_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            match command {
                Command::OpenDialog => match self.dialogs.pick_mesh() {
                    Picked::Path(path) => self.open_mesh_file(path),
                    Picked::NoDialog => self.prompt_for_open(true),
                    Picked::Cancelled => {}
                },
                Command::OpenPathPrompt => self.prompt_for_open(false),
                Command::Load(path) => self.open_mesh_file(path),
                Command::LoadEmbedded(i) => self.load_embedded(i),
                Command::OpenMapDialog => match self.dialogs.pick_map() {
                    Picked::Path(path) => self.open_map_file(path),
                    Picked::NoDialog => self.prompt_for_open(true),
                    Picked::Cancelled => {}
                },
                Command::LoadMap(path) => self.open_map_file(path),
                Command::OpenLevelDialog => match self.dialogs.pick_level() {
                    Picked::Path(path) => self.open_level_file(&path),
                    Picked::NoDialog => {
                        let start = self.working_folder().join("");
                        self.prompt_for_path(PromptPurpose::OpenLevel, start, true);
                    }
                    Picked::Cancelled => {}
                },
                Command::LoadLevel(path) => self.open_level_file(&path),
                Command::SaveLevelNavmesh => {
                    let stem = super::files::file_stem(&self.scenes.level.level().name);
                    match self.dialogs.save_mesh(&format!("{stem}.nav.obj")) {
                        Picked::Path(path) => {
                            self.save_level_navmesh_to(path);
                        }
                        Picked::NoDialog => {
                            let start = self.working_folder().join(format!("{stem}.nav.obj"));
                            self.prompt_for_path(PromptPurpose::SaveLevelNavmesh, start, true);
                        }
                        Picked::Cancelled => {}
                    }
                }
                Command::SaveCrowdRun => {
                    let stem = super::files::file_stem(&self.scenes.navmesh.mesh_name());
                    let suggested = format!("{stem}.crowd.trace.json");
                    match self.dialogs.save_crowd_run(&suggested) {
                        Picked::Path(path) => self.save_crowd_run_to(&path),
                        Picked::NoDialog => {
                            let start = self.working_folder().join(&suggested);
                            self.prompt_for_path(PromptPurpose::SaveCrowdRun, start, true);
                        }
                        Picked::Cancelled => {}
                    }
                }
                Command::CompareTraceDialog => match self.dialogs.pick_trace() {
                    Picked::Path(path) => self.compare_trace(&path),
                    Picked::NoDialog => {
                        let start = self.working_folder().join("");
                        self.prompt_for_path(PromptPurpose::OpenTrace, start, true);
                    }
                    Picked::Cancelled => {}
                },
                Command::SaveLesson => {
                    let stem = super::files::file_stem(&self.scene().picture_name(&self.map));
                    let suggested = format!("{}.navlab", stem.trim_end_matches(".png"));
                    match self.dialogs.save_lesson(&suggested) {
                        Picked::Path(path) => self.save_lesson_reporting(&path),
                        Picked::NoDialog => {
                            let start = self.working_folder().join(&suggested);
                            self.prompt_for_path(PromptPurpose::SaveLesson, start, true);
                        }
                        Picked::Cancelled => {}
                    }
                }
                Command::OpenRecovered => self.open_recovered(),
                Command::OpenUpload(upload) => self.open_upload_now(upload),
                Command::NewMap(w, h) => {
                    if let Some(map) = crate::grid::TileMap::new(w, h) {
                        self.replace_map(map, None);
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

    /// Shows built-in mesh `i`.
    fn load_embedded(&mut self, i: usize) {
        let Some(scene) = crate::assets::ALL.get(i).copied() else {
            return;
        };
        let source = MeshSource::Embedded(scene);
        let navmesh = &mut self.scenes.navmesh;
        if navmesh.origin.source != source {
            navmesh.forget_read_options();
        }
        match navmesh.load(&source) {
            Ok(mesh) => {
                navmesh.set_mesh(mesh, source);
                self.settings.last_file = None;
                self.banner.error = None;
            }
            Err(message) => self.fail(OPEN_FAILED, message),
        }
    }

    /// Opens the first edits offered from the last session, still unsaved.
    fn open_recovered(&mut self) {
        let Some(offer) = self.recovered.pop_front() else {
            return;
        };
        self.show_recovered(offer.recovered.clone());
        // Still unsaved: kept in this window's own file before the old one goes (if that
        // fails, the old one stays for the next start).
        self.keep_unsaved_edits_then_dismiss(vec![offer]);
    }

    /// Shows edits kept from an earlier session (a recovery file, a browser's storage), not
    /// saved yet.
    pub(super) fn show_recovered(&mut self, recovered: recovery::Recovered) {
        if let Some(map) = recovered.map {
            self.replace_map(map, recovered.file);
            self.map.mark_unsaved();
            self.settings.scene = SceneKind::TileMap;
        }
        if let Some(mesh) = recovered.mesh {
            let source = match mesh.file {
                Some(file) => MeshSource::File(file),
                None => MeshSource::Generated(mesh.name),
            };
            let navmesh = &mut self.scenes.navmesh;
            navmesh.set_mesh(mesh.editor.base().as_ref().clone(), source);
            navmesh.open_editor(mesh.editor);
            // Unsaved: what is on disk has none of these edits.
            navmesh.edit.saved = Default::default();
            self.settings.scene = SceneKind::Navmesh;
        }
        self.kept = None;
        self.notice = Some("Last session's edits opened; not saved yet".into());
    }

    /// Puts `map` (from `file`) in the map document, forgetting its history; the map scenes
    /// start over on it.
    pub fn replace_map(&mut self, map: crate::grid::TileMap, file: Option<PathBuf>) {
        self.map.replace(map, file);
        self.scenes.tile_map.follow(&self.map);
    }

    /// Keeps unsaved map edits in `recovery` from now on, and offers back what windows that are
    /// gone left beside it.
    pub fn with_recovery(mut self, recovery: recovery::Recovery) -> Self {
        let (offers, errors) = recovery.take_offers();
        self.recovered = offers.into();
        if !errors.is_empty() {
            self.fail(RECOVERY_FAILED, errors.join("\n"));
        }
        self.keeper = Some(recovery::Keeper::start(recovery));
        self
    }

    /// Writes the tile map to this window's recovery file (on a worker thread) when it has
    /// unsaved edits not kept yet, and removes the file when there are none (saved or
    /// discarded). Called with eframe's periodic save and on exit; other windows' files, and
    /// edits waiting to be offered, are never touched.
    pub fn keep_unsaved_edits(&mut self) {
        self.keep_unsaved_edits_then_dismiss(Vec::new());
    }

    /// [`keep_unsaved_edits`](Self::keep_unsaved_edits), then removes `offers` (whose edits
    /// the window holds now) once that worked.
    pub(super) fn keep_unsaved_edits_then_dismiss(&mut self, offers: Vec<recovery::Offer>) {
        let Some(keeper) = &self.keeper else {
            return;
        };
        if keeper.take_failure() {
            self.kept = None; // try again
        }
        let Some(work) = self.unsaved_work() else {
            // Also a copy opened from the last session and saved since.
            self.kept = None;
            keeper.clear(offers);
            return;
        };
        let now = self.unsaved_state();
        if self.kept == Some(now) && offers.is_empty() {
            return;
        }
        keeper.store_work(work, offers);
        self.kept = Some(now);
    }

    /// The edits not saved yet, if there are any.
    pub(super) fn unsaved_work(&self) -> Option<recovery::UnsavedWork> {
        let navmesh = &self.scenes.navmesh;
        let mesh_edited = navmesh.has_unsaved_edits();
        if !self.map.dirty && !mesh_edited {
            return None;
        }
        Some(recovery::UnsavedWork {
            map: self
                .map
                .dirty
                .then(|| (self.map.map.clone(), self.map.file.clone())),
            mesh: mesh_edited.then(|| recovery::RecoveredMesh {
                editor: navmesh.editor().clone(),
                file: match &navmesh.origin.source {
                    MeshSource::File(file) => Some(file.clone()),
                    _ => None,
                },
                name: navmesh.origin.source.name(),
            }),
        })
    }

    /// Where the unsaved work stands: the map's revision and costs when it is unsaved, the
    /// mesh's edit count when it is; what was last kept is compared with this.
    pub(super) fn unsaved_state(&self) -> super::UnsavedState {
        super::UnsavedState {
            map: self
                .map
                .dirty
                .then(|| (self.map.revision(), self.map.map.costs)),
            mesh: self
                .scenes
                .navmesh
                .has_unsaved_edits()
                .then(|| self.scenes.navmesh.edit_revision()),
        }
    }

    /// Waits until the edits handed to the recovery worker are written (on exit, and for tests).
    pub fn wait_until_edits_kept(&self) {
        if let Some(keeper) = &self.keeper {
            keeper.flush();
        }
    }

    /// Loads the mesh's file again, keeping start, goal and view; on failure the mesh shown
    /// stays and the error shows. Returns true when it loaded.
    pub(super) fn reload_mesh_file(&mut self) -> bool {
        let navmesh = &mut self.scenes.navmesh;
        let source = navmesh.origin.source.clone();
        match navmesh.load(&source) {
            Ok(mesh) => {
                navmesh.reload_mesh(mesh);
                self.banner.error = None;
                self.watches.mesh = None; // watched again from this version
                if let MeshSource::File(path) = source {
                    self.restore_saved_edits(&path);
                }
                true
            }
            Err(message) => {
                self.fail(OPEN_FAILED, message);
                false
            }
        }
    }

    /// Follows the mesh's and the map's files on disk (when the setting is on): a file written
    /// again is loaded again — unless what is shown has unsaved changes, which are never
    /// replaced; the status bar then says the file changed.
    pub(super) fn follow_files_on_disk(&mut self, ui: &egui::Ui) {
        use super::file_watch::{LOOK_EVERY, follow};
        if !self.settings.reload_changed_files {
            self.watches = Watches::default();
            return;
        }
        let now = ui.input(|i| i.time);
        let mesh_file = match &self.scenes.navmesh.origin.source {
            MeshSource::File(path) => Some(path.as_path()),
            _ => None,
        };
        follow(&mut self.watches.mesh, mesh_file, now);
        follow(&mut self.watches.map, self.map.file.as_deref(), now);
        if self.watches.mesh.as_mut().is_some_and(|w| w.changed(now)) {
            let name = self.scenes.navmesh.origin.source.name();
            if self.scenes.navmesh.has_unsaved_edits() {
                self.notice = Some(format!(
                    "{name} changed on disk; Reload (F5) shows it (asks about your edits first)"
                ));
            } else if self.scenes.navmesh.origin.unsaved_repair {
                self.notice = Some(format!(
                    "{name} changed on disk; Reload (F5) shows it (the repair is not saved)"
                ));
            } else if self.reload_mesh_file() {
                self.notice = Some(format!("{name} changed on disk: reloaded"));
            }
        }
        if self.watches.map.as_mut().is_some_and(|w| w.changed(now)) {
            let name = self.map.name();
            if self.map.dirty {
                self.notice = Some(format!(
                    "{name} changed on disk; Reload map (F5) loads it (asks about your edits first)"
                ));
            } else if self.reload_map_file() {
                self.notice = Some(format!("{name} changed on disk: reloaded"));
            }
        }
        if self.watches.mesh.is_some() || self.watches.map.is_some() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(LOOK_EVERY));
        }
    }

    /// Loads the map's file again after it changed on disk, keeping start and goal where they
    /// are still passable, and the view when the size is the same. Returns true when it loaded.
    fn reload_map_file(&mut self) -> bool {
        let Some(path) = self.map.file.clone() else {
            return false;
        };
        let scene = &self.scenes.tile_map;
        let (start, goal, camera) = (scene.start, scene.goal, scene.camera);
        let size = (self.map.map.width(), self.map.map.height());
        if !self.load_map(path) {
            return false;
        }
        let (map, scene) = (&self.map, &mut self.scenes.tile_map);
        if (map.map.width(), map.map.height()) == size {
            scene.camera = camera;
        }
        if map.map.is_passable(start) && map.map.is_passable(goal) {
            scene.start = start;
            scene.goal = goal;
            scene.rerun(map);
        }
        true
    }

    /// Loads a tile map; on failure the current map stays and the error shows. Returns true
    /// when it loaded.
    pub fn load_map(&mut self, path: PathBuf) -> bool {
        let path = absolute(path);
        let loaded = read_map(&path);
        self.show_map(path, loaded)
    }

    /// Shows a map read from `path` (see [`read_map`]), or its error; true when it opened.
    pub(super) fn show_map(
        &mut self,
        path: PathBuf,
        loaded: Result<(crate::grid::TileMap, String), String>,
    ) -> bool {
        match loaded {
            Ok((map, notice)) => {
                self.replace_map(map, Some(path.clone()));
                self.watches.map = None; // watched again from this version
                self.settings.recent.add(path.clone());
                self.settings.last_map = Some(path);
                self.banner.error = None;
                self.notice = Some(notice);
                true
            }
            Err(e) => {
                self.fail(OPEN_FAILED, e);
                false
            }
        }
    }

    /// Saves the tile map to `path` (atomically); returns true on success.
    pub fn save_map_to(&mut self, path: PathBuf) -> bool {
        let path = absolute(path);
        let written = crate::grid::movingai::file_text(&self.map.map, &path)
            .and_then(|text| super::files::write_file(&path, text.as_bytes()));
        match written {
            Ok(()) => {
                self.map.saved_as(path.clone());
                self.settings.last_map = Some(path.clone());
                self.watches.map = None; // our own write is no change
                self.notice = Some(if self.costs_lost_in(&path) {
                    format!(
                        "Saved {}; its tile costs are not in it (a MovingAI .map has none): \
                         Save as… a .json keeps them",
                        crate::input::shown(&path)
                    )
                } else {
                    format!("Saved {}", crate::input::shown(&path))
                });
                true
            }
            Err(e) => {
                self.fail(SAVE_FAILED, e);
                false
            }
        }
    }

    /// True when saving the tile map to `path` would drop its tile costs: they are not the
    /// defaults and the file is not navlab's `.json`.
    pub(super) fn costs_lost_in(&self, path: &std::path::Path) -> bool {
        let json = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"));
        !json && self.map.map.costs != crate::grid::TileCosts::default()
    }

    pub(super) fn save_map(&mut self, ask: bool) -> bool {
        // navlab does not write Tiled files: an imported map is saved under a new name; nor
        // does Save quietly drop edited tile costs into a .map: it asks, suggesting a .json.
        let target = match (&self.map.file, ask) {
            (Some(path), false)
                if !crate::grid::tiled::is_tiled_path(path) && !self.costs_lost_in(path) =>
            {
                (Picked::Path(path.clone()), path.clone())
            }
            (Some(path), _) => {
                let stem = path
                    .file_stem()
                    .map_or("map".into(), |s| s.to_string_lossy());
                let suggested = path.with_file_name(format!("{stem}.json"));
                (self.dialogs.save_map(&format!("{stem}.json")), suggested)
            }
            (None, _) => (
                self.dialogs.save_map("map.json"),
                self.working_folder().join("map.json"),
            ),
        };
        match target {
            (Picked::Path(path), _) => self.save_map_to(path),
            (Picked::NoDialog, suggested) => {
                self.prompt_for_path(PromptPurpose::SaveMap, suggested, true);
                false
            }
            (Picked::Cancelled, _) => false,
        }
    }

    /// Where a typed relative path is read from (and new files are suggested).
    pub(super) fn working_folder(&self) -> PathBuf {
        std::env::current_dir().unwrap_or_default()
    }

    /// Shows the path prompt for `purpose`, starting from `start`.
    pub(super) fn prompt_for_path(
        &mut self,
        purpose: PromptPurpose,
        start: PathBuf,
        no_dialog: bool,
    ) {
        self.path_prompt = Some(PathPrompt::new(
            purpose,
            start.display().to_string(),
            no_dialog,
        ));
    }

    /// Asks for a path to open in the app's own window, starting in the folder of the file
    /// opened last.
    pub(super) fn prompt_for_open(&mut self, no_dialog: bool) {
        let folder = self
            .settings
            .recent
            .paths()
            .first()
            .and_then(|p| p.parent())
            .filter(|folder| folder.is_dir())
            .map_or_else(|| self.working_folder(), |folder| folder.to_path_buf());
        // Ends with a separator, so that typing goes on with a name.
        let start = folder.join("");
        self.prompt_for_path(PromptPurpose::Open, start, no_dialog);
    }

    /// Opens `path` as a tile map or a mesh by its extension, showing the scene it belongs to
    /// (as for a dropped file).
    pub fn open_path(&mut self, path: PathBuf) {
        match opens_as(&path) {
            Ok(Opens::Map) => {
                if self.settings.scene == SceneKind::Navmesh {
                    self.settings.scene = SceneKind::TileMap;
                }
                self.command(Command::LoadMap(path));
            }
            Ok(Opens::Mesh) => {
                self.settings.scene = SceneKind::Navmesh;
                self.command(Command::Load(path));
            }
            Ok(Opens::Lesson) => {
                if let Err(message) = self.open_lesson(&path) {
                    self.fail(OPEN_FAILED, message);
                }
            }
            Ok(Opens::CrowdRun) => {
                if let Err(message) = self.open_crowd_run(&path) {
                    self.fail(OPEN_FAILED, message);
                }
            }
            // The scene shown stays: an image dropped by mistake is not a reason to leave it.
            Err(refusal) => self.fail(OPEN_FAILED, refusal),
        }
    }

    /// Opens a file given as bytes (a browser's picker or drop): a trace to compare, or by its
    /// name's extension a mesh, a map or a lesson, asking first about unsaved edits it would
    /// replace.
    pub fn open_upload(&mut self, upload: super::files::Upload) {
        match upload.purpose {
            super::files::UploadPurpose::Trace => self.open_upload_now(upload),
            super::files::UploadPurpose::Open => self.command(Command::OpenUpload(upload)),
        }
    }

    /// [`open_upload`](Self::open_upload), with nothing left to ask; on failure what is shown
    /// stays and the banner says why.
    fn open_upload_now(&mut self, upload: super::files::Upload) {
        // The name is a stranger's: its label has no control characters, no folders, and is
        // not too long (its end, the extension, kept).
        let name = crate::input::file_label(std::path::Path::new(&upload.name));
        let bytes = match upload.bytes {
            Ok(bytes) => bytes,
            Err(message) => return self.fail(OPEN_FAILED, format!("{name}: {message}")),
        };
        let path = PathBuf::from(&name);
        if upload.purpose == super::files::UploadPurpose::Trace {
            let cells = self.map.map.width() * self.map.map.height();
            match crate::search::posthoc::parse(&bytes, &name, cells) {
                Ok(events) => self.show_trace(name, events),
                Err(message) => self.fail(OPEN_FAILED, message),
            }
            return;
        }
        match opens_as(&path) {
            Ok(Opens::Lesson) => match self.open_lesson_bytes(&bytes, &name, None) {
                Ok(()) => self.notice = Some(format!("Opened the lesson {name}")),
                Err(message) => self.fail(OPEN_FAILED, message),
            },
            Ok(Opens::CrowdRun) => {
                if let Err(message) = self.open_crowd_run_bytes(&bytes, &name) {
                    self.fail(OPEN_FAILED, message);
                }
            }
            Ok(Opens::Map) => {
                let loaded = read_map_bytes(&bytes, &name);
                if self.show_map(path, loaded) && self.settings.scene == SceneKind::Navmesh {
                    self.settings.scene = SceneKind::TileMap;
                }
            }
            Ok(Opens::Mesh) => {
                self.scenes.navmesh.read_options_for(&path);
                let read = self.scenes.navmesh.settings.read_options();
                let loaded = crate::navmesh::NavMesh::read_bytes(&bytes, &name, read)
                    .map_err(|e| e.to_string());
                if loaded.is_ok() {
                    self.settings.scene = SceneKind::Navmesh;
                }
                // Given as bytes: there is no folder to find its edits file in.
                self.show_mesh_file(path, loaded, Beside::Nothing);
            }
            Err(refusal) => self.fail(OPEN_FAILED, refusal),
        }
    }

    /// Reads the Posthoc trace at `path` on the tile map searched and replays it beside our
    /// run; a trace that is broken or names a cell the map does not have is refused with its
    /// line.
    pub fn compare_trace(&mut self, path: &std::path::Path) {
        let cells = self.map.map.width() * self.map.map.height();
        match crate::search::posthoc::read(path, cells) {
            Ok(events) => self.show_trace(crate::input::file_label(path), events),
            Err(message) => self.fail(OPEN_FAILED, message),
        }
    }

    /// Replays a trace named `name` beside our run of the tile map's query.
    fn show_trace(&mut self, name: String, events: Vec<crate::search::SearchEvent>) {
        self.settings.scene = SceneKind::TileMap;
        let grid = &mut self.scenes.tile_map;
        grid.wait_for_search();
        grid.replay_trace(name, events);
    }

    /// Loads a mesh file into the scene; on failure the current mesh stays and the error shows.
    pub fn load_file(&mut self, path: PathBuf) {
        let path = absolute(path);
        let read = self.scenes.navmesh.settings.read_options();
        let loaded = crate::navmesh::NavMesh::load_with(&path, read).map_err(|e| e.to_string());
        self.show_mesh_file(path, loaded, Beside::EditsFile);
    }

    /// Shows a mesh read from `path`, or its error; with the edits saved beside it when it
    /// was read from disk.
    pub(super) fn show_mesh_file(
        &mut self,
        path: PathBuf,
        loaded: Result<crate::navmesh::NavMesh, String>,
        beside: Beside,
    ) {
        let source = MeshSource::File(path.clone());
        let navmesh = &mut self.scenes.navmesh;
        match loaded {
            Ok(mesh) => {
                navmesh.set_mesh(mesh, source);
                self.watches.mesh = None; // watched again from this version
                self.settings.recent.add(path.clone());
                self.banner.error = None;
                self.notice = Some(format!("Opened {}", navmesh.origin.source.name()));
                if beside == Beside::EditsFile {
                    self.restore_saved_edits(&path);
                }
                self.settings.last_file = Some(path);
            }
            Err(message) => {
                self.fail(OPEN_FAILED, message);
            }
        }
    }

    /// Makes the mesh just opened from `path` editable again with the edits saved beside it
    /// (`NAME.edits.json`), if there are any; when they do not fit the mesh it stays as
    /// saved and the banner says why.
    fn restore_saved_edits(&mut self, path: &std::path::Path) {
        use crate::navmesh::edit::saved;
        let navmesh = &mut self.scenes.navmesh;
        match saved::read_beside(path, navmesh.mesh()) {
            Ok(Some(editor)) => {
                let shapes = editor.shapes().len();
                let painted = editor.edits().painted.len();
                navmesh.open_editor(editor);
                self.notice = Some(format!(
                    "Opened {} with its edits: {} and {} painted, editable (Undo starts here)",
                    navmesh.origin.source.name(),
                    count(shapes, "shape"),
                    count(painted, "triangle")
                ));
            }
            Ok(None) => {}
            Err(error) => self.fail(EDITS_NOT_RESTORED, error.to_string()),
        }
    }

    /// Asks where, then writes the mesh shown, atomically: OBJ, or a Polyanya mesh for a
    /// `.mesh` name (a repaired one is suggested as `NAME-repaired.obj`); returns true when it
    /// was written.
    pub fn save_mesh_as(&mut self) -> bool {
        let name = self.scenes.navmesh.origin.source.name();
        // "rooms.obj (built in)", "arena.map as a navmesh": the first word's file stem.
        let stem = name
            .split_whitespace()
            .next()
            .and_then(|first| std::path::Path::new(first).file_stem())
            .map_or("mesh".into(), |s| s.to_string_lossy());
        let repaired = self.scenes.navmesh.diagnostics.repaired.is_some();
        let suggested = if repaired {
            format!("{stem}-repaired.obj")
        } else {
            format!("{stem}.obj")
        };
        match self.dialogs.save_mesh(&suggested) {
            Picked::Path(path) => self.save_mesh_to(path),
            Picked::NoDialog => {
                let start = match &self.scenes.navmesh.origin.source {
                    MeshSource::File(file) => file.with_file_name(&suggested),
                    _ => self.working_folder().join(&suggested),
                };
                self.prompt_for_path(PromptPurpose::SaveMesh, start, true);
                false
            }
            Picked::Cancelled => false,
        }
    }

    /// Writes the mesh shown to `path`, atomically: OBJ, or a Polyanya mesh for a `.mesh` name;
    /// returns true when it was written.
    pub fn save_mesh_to(&mut self, path: PathBuf) -> bool {
        let path = absolute(path);
        let name = self.scenes.navmesh.origin.source.name();
        let repaired = self.scenes.navmesh.diagnostics.repaired.is_some();
        let comment = if repaired {
            format!("{name}, repaired by navlab (near-duplicates welded, T-junctions split)")
        } else {
            format!("{name}, saved by navlab")
        };
        let written = self
            .scenes
            .navmesh
            .mesh()
            .to_file_text(&path, &comment, Default::default())
            .map_err(|e| format!("{}: {e}", crate::input::shown(&path)));
        // A Polyanya mesh is flat convex polygons: the edits could not be matched to it again.
        let keeps_edits = !crate::navmesh::polyanya::is_polyanya_path(&path);
        let editor = self.scenes.navmesh.editor();
        let written = written.and_then(|text| match keeps_edits {
            // A browser downloads the mesh, and its edits as a second file when there are any.
            true if super::IN_BROWSER => {
                super::files::write_file(&path, text.as_bytes())?;
                match editor.edits().is_empty() {
                    true => Ok(()),
                    false => super::files::write_file(
                        &crate::navmesh::edit::saved::path_beside(&path),
                        crate::navmesh::edit::saved::to_json(editor, Some(text.as_bytes()))
                            .as_bytes(),
                    ),
                }
            }
            true => {
                crate::navmesh::edit::saved::save_with_edits(&path, text.as_bytes(), Some(editor))
            }
            false => super::files::write_file(&path, text.as_bytes()),
        });
        match written {
            Ok(()) => {
                if self.watches.mesh.as_ref().is_some_and(|w| w.path() == path) {
                    self.watches.mesh = None; // our own write is no change
                }
                self.scenes.navmesh.origin.unsaved_repair = false;
                self.scenes.navmesh.mark_edits_saved();
                // Saved as an OBJ, the mesh shown is that file now (the title, Reload and the
                // file watch follow it); a Polyanya mesh is an export (flat, no edits). A save
                // made to go on with an action waiting on the unsaved-changes question keeps a
                // copy: the action replaces or reads again the file shown.
                if keeps_edits && !super::IN_BROWSER && self.pending.is_none() {
                    self.scenes.navmesh.origin.source = MeshSource::File(path.clone());
                    self.watches.mesh = None;
                    self.settings.recent.add(path.clone());
                    self.settings.last_file = Some(path.clone());
                }
                self.notice = Some(if crate::navmesh::polyanya::is_polyanya_path(&path) {
                    // As `navlab convert` warns: what one flat layer cannot hold.
                    use crate::navmesh::diagnose::FindingKind;
                    let report = self
                        .scenes
                        .navmesh
                        .diagnostics
                        .report(self.scenes.navmesh.view.mesh());
                    let overlaps = report
                        .get(FindingKind::Overlap)
                        .map_or(0, |finding| finding.items.len());
                    let warning = if overlaps > 0 {
                        format!(
                            "; warning: {} in the plane, which Polyanya cannot tell apart \
                             (see Diagnostics)",
                            count(overlaps, "overlap")
                        )
                    } else {
                        String::new()
                    };
                    format!(
                        "Saved {} as a Polyanya mesh: convex polygons, flat (heights left \
                         out){warning}; the window goes on showing {name}",
                        crate::input::shown(&path)
                    )
                } else if !self.scenes.navmesh.editor().edits().is_empty() {
                    format!(
                        "Saved {}, its obstacles and doors kept in {} to edit again",
                        crate::input::shown(&path),
                        crate::input::file_label(&crate::navmesh::edit::saved::path_beside(&path))
                    )
                } else {
                    format!("Saved {}", crate::input::shown(&path))
                });
                true
            }
            Err(error) => {
                self.fail(SAVE_FAILED, error);
                false
            }
        }
    }
}

/// Reads the tile map at `path`: the map and what to say of it (for a Tiled map, which layers
/// became walls), or the error naming the file.
pub(super) fn read_map(path: &std::path::Path) -> Result<(crate::grid::TileMap, String), String> {
    use crate::grid::{movingai, tiled};
    let loaded = if tiled::is_tiled_path(path) {
        tiled::load(path).map(describe_import)
    } else {
        movingai::load_any(path).map(|map| (map, "Map opened".to_string()))
    };
    loaded.map_err(|e| e.to_string())
}

/// Reads a tile map's bytes (given by a browser) named `name`, as [`read_map`] reads a file.
fn read_map_bytes(bytes: &[u8], name: &str) -> Result<(crate::grid::TileMap, String), String> {
    use crate::grid::{movingai, tiled};
    let loaded = if tiled::is_tiled_path(std::path::Path::new(name)) {
        tiled::parse(bytes, name).map(describe_import)
    } else {
        movingai::parse_any(bytes, name).map(|map| (map, "Map opened".to_string()))
    };
    loaded.map_err(|e| e.to_string())
}

/// A Tiled import's map, and what to say of it: which layers became walls.
fn describe_import(import: crate::grid::tiled::TiledImport) -> (crate::grid::TileMap, String) {
    let walls = match import.wall_sources() {
        sources if sources.is_empty() => "no walls".to_string(),
        sources => format!("walls from {sources}"),
    };
    let terrain = import
        .terrain_summary()
        .map_or(String::new(), |t| format!(", {t}"));
    let notice = format!("Imported from Tiled: {walls}{terrain}; Save writes .map or .json");
    (import.map, notice)
}

/// `path` made absolute, without `..` (`../maps/a.map` run from `/home/me/x` is
/// `/home/me/maps/a.map`): the recent list, the last file (reopened at start) and the pursuit's
/// placements must still name it when navlab next starts in another folder. A file not written
/// yet is named in its folder's real path.
pub(super) fn absolute(path: PathBuf) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(&path) {
        return real;
    }
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => std::path::Path::new("."),
    };
    match (std::fs::canonicalize(folder), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => std::path::absolute(&path).unwrap_or(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_kept_absolute_and_without_dot_dot() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = std::fs::canonicalize(dir.path()).expect("real");
        std::fs::create_dir(real.join("maps")).expect("folder");
        std::fs::write(real.join("maps/a.map"), "x").expect("write");
        let roundabout = real.join("maps/../maps/./a.map");
        assert_eq!(absolute(roundabout), real.join("maps/a.map"));
        // Not written yet: its folder's real path and its name.
        assert_eq!(absolute(real.join("maps/../b.map")), real.join("b.map"));
        // Relative: against the working folder.
        let here = std::env::current_dir().expect("cwd");
        let name = absolute(PathBuf::from("no-such-file-here.map"));
        assert_eq!(
            name,
            std::fs::canonicalize(here)
                .expect("real")
                .join("no-such-file-here.map")
        );
        assert!(name.is_absolute());
    }
}
