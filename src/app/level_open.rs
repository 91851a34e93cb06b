//! Opening level geometry in the level view, and the navmesh built from it in the navmesh view.

use super::level_scene::LevelGeometry;
use super::navmesh_scene::MeshSource;
use super::{NavlabApp, OPEN_FAILED, SceneKind};
use std::path::Path;

/// What the banner says when the level's navmesh cannot be shown.
const NO_NAVMESH: (&str, &str) = (
    "No navmesh to show",
    "The navmesh view shows what it showed before.",
);

impl NavlabApp {
    /// Reads level geometry (an OBJ, Y up) and shows it in the level view, built with the
    /// view's parameters; an unreadable file leaves the level shown before.
    pub fn open_level_file(&mut self, path: &Path) {
        let path = super::documents::absolute(path.to_path_buf());
        match crate::navmesh::obj::load_raw(&path, crate::navmesh::Plane::Xz) {
            Ok(raw) => {
                self.scenes.level.set_level(LevelGeometry::new(
                    crate::input::file_label(&path),
                    Some(path),
                    raw.positions,
                    raw.polygons,
                ));
                self.settings.scene = SceneKind::Level;
                self.banner.error = None;
            }
            Err(error) => self.fail(OPEN_FAILED, error.to_string()),
        }
    }

    /// Writes the navmesh built from the level to `path` (OBJ, or a Polyanya mesh for a `.mesh`
    /// name), and beside it its recipe: a lesson of the level view (`NAME.navlab`) naming the
    /// level, its parameters and areas, which opens to build it again. True when both were
    /// written; an error goes to the banner.
    pub fn save_level_navmesh_to(&mut self, path: std::path::PathBuf) -> bool {
        let path = super::documents::absolute(path);
        let recipe = path.with_extension(super::lesson::EXTENSION);
        let written = self.scenes.level.navmesh().and_then(|mesh| {
            let comment = format!(
                "{}, built by navlab (Recast's stages): the detail mesh; its recipe is {}",
                self.scenes.level.level().name,
                crate::input::file_label(&recipe)
            );
            let text = mesh
                .to_file_text(&path, &comment, Default::default())
                .map_err(|e| format!("{}: {e}", crate::input::shown(&path)))?;
            super::files::write_file(&path, text.as_bytes())?;
            let lesson = self.level_recipe(&recipe)?;
            let text = serde_json::to_string_pretty(&lesson).map_err(|e| e.to_string())?;
            super::files::write_file(&recipe, text.as_bytes())
        });
        match written {
            Ok(()) => {
                self.notice = Some(format!(
                    "Saved the navmesh as {} and its recipe as {} (Open… it to build again)",
                    crate::input::shown(&path),
                    crate::input::file_label(&recipe)
                ));
                true
            }
            Err(error) => {
                self.fail(super::SAVE_FAILED, error);
                false
            }
        }
    }

    /// Shows the navmesh built from the level in the navmesh view.
    pub(super) fn open_level_navmesh(&mut self) {
        let level = &self.scenes.level;
        match level.navmesh() {
            Ok(mesh) => {
                let name = format!("{} built by Recast's stages", level.level().name);
                let summary = mesh.summary();
                let links = level.links_found();
                self.scenes
                    .navmesh
                    .set_mesh(mesh, MeshSource::Generated(name));
                // The links found are edits of the mesh: undone in one step, saved beside it.
                let count = links.len();
                let linked = count == 0
                    || self
                        .scenes
                        .navmesh
                        .edit_mesh(|editor| editor.add_links(links))
                        .is_some();
                self.settings.scene = SceneKind::Navmesh;
                self.settings.last_file = None;
                self.banner.error = None;
                let links = match (count, linked) {
                    (0, _) => String::new(),
                    (n, true) => format!(
                        " and {n} off-mesh link{} found on it (Undo removes them)",
                        if n == 1 { "" } else { "s" }
                    ),
                    (_, false) => " (the links found could not be placed on it)".to_owned(),
                };
                self.notice = Some(format!(
                    "The level's navmesh: {} triangles, {} islands{links}; File > Save mesh as… keeps it",
                    summary.triangles, summary.islands
                ));
            }
            Err(error) => self.fail(NO_NAVMESH, error),
        }
    }
}
