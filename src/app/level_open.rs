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
                self.scenes.level.set_level(LevelGeometry {
                    name: crate::input::file_label(&path),
                    path: Some(path),
                    positions: raw.positions,
                    faces: raw.polygons,
                });
                self.settings.scene = SceneKind::Level;
                self.banner.error = None;
            }
            Err(error) => self.fail(OPEN_FAILED, error.to_string()),
        }
    }

    /// Shows the navmesh built from the level in the navmesh view.
    pub(super) fn open_level_navmesh(&mut self) {
        let level = &self.scenes.level;
        match level.navmesh() {
            Ok(mesh) => {
                let name = format!("{} built by Recast's stages", level.level().name);
                let summary = mesh.summary();
                self.scenes
                    .navmesh
                    .set_mesh(mesh, MeshSource::Generated(name));
                self.settings.scene = SceneKind::Navmesh;
                self.settings.last_file = None;
                self.banner.error = None;
                self.notice = Some(format!(
                    "The level's navmesh: {} triangles, {} islands; File > Save mesh as… keeps it",
                    summary.triangles, summary.islands
                ));
            }
            Err(error) => self.fail(NO_NAVMESH, error),
        }
    }
}
