//! Opening and saving tile maps and meshes (through the file dialogs, or a typed path where
//! there are none), and keeping unsaved map edits for recovery after a crash.

use super::files::Picked;
use super::navmesh_scene::MeshSource;
use super::path_prompt::{PathPrompt, PromptPurpose};
use super::{Command, NavlabApp, OPEN_FAILED, RECOVERY_FAILED, SAVE_FAILED, SceneKind, recovery};
use crate::words::count;
use std::path::PathBuf;

impl NavlabApp {
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
        if !self.grid.dirty {
            // Also a copy opened from the last session and saved since.
            self.kept = None;
            keeper.clear(offers);
            return;
        }
        let now = (self.grid.revision, self.grid.map.costs);
        if self.kept == Some(now) && offers.is_empty() {
            return;
        }
        keeper.store(self.grid.map.clone(), self.grid.file.clone(), offers);
        self.kept = Some(now);
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
        let source = self.scene.source.clone();
        match self.scene.load(&source) {
            Ok(mesh) => {
                self.scene.reload_mesh(mesh);
                self.error = None;
                self.mesh_watch = None; // watched again from this version
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
        if !self.settings.reload_changed_files || self.screenshot.is_some() {
            self.mesh_watch = None;
            self.map_watch = None;
            return;
        }
        let now = ui.input(|i| i.time);
        let mesh_file = match &self.scene.source {
            MeshSource::File(path) => Some(path.as_path()),
            _ => None,
        };
        follow(&mut self.mesh_watch, mesh_file, now);
        follow(&mut self.map_watch, self.grid.file.as_deref(), now);
        if self.mesh_watch.as_mut().is_some_and(|w| w.changed(now)) {
            let name = self.scene.source.name();
            if self.scene.unsaved_repair {
                self.notice = Some(format!(
                    "{name} changed on disk; Reload (F5) shows it (the repair is not saved)"
                ));
            } else if self.reload_mesh_file() {
                self.notice = Some(format!("{name} changed on disk: reloaded"));
            }
        }
        if self.map_watch.as_mut().is_some_and(|w| w.changed(now)) {
            let name = self.map_name();
            if self.grid.dirty {
                self.notice = Some(format!(
                    "{name} changed on disk; Reload map (F5) loads it (asks about your edits first)"
                ));
            } else if self.reload_map_file() {
                self.notice = Some(format!("{name} changed on disk: reloaded"));
            }
        }
        if self.mesh_watch.is_some() || self.map_watch.is_some() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(LOOK_EVERY));
        }
    }

    /// Loads the map's file again after it changed on disk, keeping start and goal where they
    /// are still passable, and the view when the size is the same. Returns true when it loaded.
    fn reload_map_file(&mut self) -> bool {
        let Some(path) = self.grid.file.clone() else {
            return false;
        };
        let (start, goal, size) = (
            self.grid.start,
            self.grid.goal,
            (self.grid.map.width(), self.grid.map.height()),
        );
        let camera = self.grid.camera;
        if !self.load_map(path) {
            return false;
        }
        let grid = &mut self.grid;
        if (grid.map.width(), grid.map.height()) == size {
            grid.camera = camera;
        }
        if grid.map.is_passable(start) && grid.map.is_passable(goal) {
            grid.start = start;
            grid.goal = goal;
            grid.rerun();
        }
        true
    }

    /// Loads a tile map; on failure the current map stays and the error shows. Returns true
    /// when it loaded.
    pub fn load_map(&mut self, path: PathBuf) -> bool {
        let path = absolute(path);
        use crate::grid::{movingai, tiled};
        // A Tiled map is imported: say which layers became walls.
        let loaded = if tiled::is_tiled_path(&path) {
            tiled::load(&path).map(|import| {
                let walls = match import.wall_sources() {
                    sources if sources.is_empty() => "no walls".to_string(),
                    sources => format!("walls from {sources}"),
                };
                let terrain = import
                    .terrain_summary()
                    .map_or(String::new(), |t| format!(", {t}"));
                let notice =
                    format!("Imported from Tiled: {walls}{terrain}; Save writes .map or .json");
                (import.map, notice)
            })
        } else {
            movingai::load_any(&path).map(|map| (map, "Map opened".to_string()))
        };
        match loaded {
            Ok((map, notice)) => {
                self.grid.set_map(map, Some(path.clone()));
                self.map_watch = None; // watched again from this version
                self.settings.recent.add(path.clone());
                self.settings.last_map = Some(path);
                self.error = None;
                self.notice = Some(notice);
                true
            }
            Err(e) => {
                self.fail(OPEN_FAILED, e.to_string());
                false
            }
        }
    }

    /// Saves the tile map to `path` (atomically); returns true on success.
    pub fn save_map_to(&mut self, path: PathBuf) -> bool {
        let path = absolute(path);
        match crate::grid::movingai::save_any(&self.grid.map, &path) {
            Ok(()) => {
                self.grid.file = Some(path.clone());
                self.settings.last_map = Some(path.clone());
                self.grid.dirty = false;
                self.map_watch = None; // our own write is no change
                self.notice = Some(if self.costs_lost_in(&path) {
                    format!(
                        "Saved {}; its tile costs are not in it (a MovingAI .map has none): \
                         Save as… a .json keeps them",
                        path.display()
                    )
                } else {
                    format!("Saved {}", path.display())
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
        !json && self.grid.map.costs != crate::grid::TileCosts::default()
    }

    pub(super) fn save_map(&mut self, ask: bool) -> bool {
        // navlab does not write Tiled files: an imported map is saved under a new name; nor
        // does Save quietly drop edited tile costs into a .map: it asks, suggesting a .json.
        let target = match (&self.grid.file, ask) {
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
                if !self.settings.scene.uses_map() {
                    self.settings.scene = SceneKind::TileMap;
                }
                self.command(Command::LoadMap(path));
            }
            Ok(Opens::Mesh) => {
                self.settings.scene = SceneKind::Navmesh;
                self.command(Command::Load(path));
            }
            // The scene shown stays: an image dropped by mistake is not a reason to leave it.
            Err(refusal) => self.fail(OPEN_FAILED, refusal),
        }
    }

    /// Loads a mesh file into the scene; on failure the current mesh stays and the error shows.
    pub fn load_file(&mut self, path: PathBuf) {
        let path = absolute(path);
        let source = MeshSource::File(path.clone());
        match self.scene.load(&source) {
            Ok(mesh) => {
                self.scene.set_mesh(mesh, source);
                self.mesh_watch = None; // watched again from this version
                self.settings.recent.add(path.clone());
                self.settings.last_file = Some(path);
                self.error = None;
                self.notice = Some(format!("Opened {}", self.scene.source.name()));
            }
            Err(message) => {
                self.fail(OPEN_FAILED, message);
            }
        }
    }

    /// Asks where, then writes the mesh shown, atomically: OBJ, or a Polyanya mesh for a
    /// `.mesh` name (a repaired one is suggested as `NAME-repaired.obj`); returns true when it
    /// was written.
    pub fn save_mesh_as(&mut self) -> bool {
        let name = self.scene.source.name();
        // "rooms.obj (built in)", "arena.map as a navmesh": the first word's file stem.
        let stem = name
            .split_whitespace()
            .next()
            .and_then(|first| std::path::Path::new(first).file_stem())
            .map_or("mesh".into(), |s| s.to_string_lossy());
        let repaired = self.scene.diagnostics.repaired.is_some();
        let suggested = if repaired {
            format!("{stem}-repaired.obj")
        } else {
            format!("{stem}.obj")
        };
        match self.dialogs.save_mesh(&suggested) {
            Picked::Path(path) => self.save_mesh_to(path),
            Picked::NoDialog => {
                let start = match &self.scene.source {
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
        let name = self.scene.source.name();
        let repaired = self.scene.diagnostics.repaired.is_some();
        let comment = if repaired {
            format!("{name}, repaired by navlab (near-duplicates welded, T-junctions split)")
        } else {
            format!("{name}, saved by navlab")
        };
        let written = self
            .scene
            .mesh
            .to_file_text(&path, &comment, Default::default())
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|text| crate::atomic::write_atomically(&path, text.as_bytes()));
        match written {
            Ok(()) => {
                if self.mesh_watch.as_ref().is_some_and(|w| w.path() == path) {
                    self.mesh_watch = None; // our own write is no change
                }
                self.scene.unsaved_repair = false;
                self.notice = Some(if crate::navmesh::polyanya::is_polyanya_path(&path) {
                    // As `navlab convert` warns: what one flat layer cannot hold.
                    use crate::navmesh::diagnose::FindingKind;
                    let report = self.scene.diagnostics.report(&self.scene.mesh);
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
                         out){warning}",
                        path.display()
                    )
                } else {
                    format!("Saved {}", path.display())
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

/// What a file opens as in the window, told by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Opens {
    /// A tile map, in the tile-map view.
    Map,
    /// A navmesh, in the navmesh view.
    Mesh,
}

/// What the window opens `path` as, or why not: it is neither a mesh nor a map.
pub(super) fn opens_as(path: &std::path::Path) -> Result<Opens, String> {
    if crate::grid::is_map_path(path) {
        Ok(Opens::Map)
    } else if crate::navmesh::is_mesh_path(path) {
        Ok(Opens::Mesh)
    } else {
        Err(format!(
            "{}: navlab opens meshes (.obj, .mesh) and tile maps (.map, .json, .tmx, .tmj)",
            path.display()
        ))
    }
}

/// `path` made absolute, without `..` (`../maps/a.map` run from `/home/me/x` is
/// `/home/me/maps/a.map`): the recent list, the last file (reopened at start) and the pursuit's
/// placements must still name it when navlab next starts in another folder. A file not written
/// yet is named in its folder's real path.
fn absolute(path: PathBuf) -> PathBuf {
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
