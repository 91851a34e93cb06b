//! What kind of document a file is, told by its name: what the window opens it as. Known to
//! the commands (which files a menu entry takes), the drop hint and the loader alike.

use std::path::Path;

/// The extension of lesson files.
pub const EXTENSION: &str = "navlab";

/// True for a lesson file's name.
pub fn is_lesson_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(EXTENSION))
}

/// What a file opens as in the window, told by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opens {
    /// A tile map, in the tile-map view.
    Map,
    /// A navmesh, in the navmesh view.
    Mesh,
    /// A lesson: its view, documents and options.
    Lesson,
    /// A crowd's run (`.crowd.json`, `.crowd.trace.json`): replayed on the navmesh shown.
    CrowdRun,
}

/// What the window opens `path` as, or why not: it is neither a mesh nor a map.
pub fn opens_as(path: &std::path::Path) -> Result<Opens, String> {
    if is_lesson_path(path) {
        Ok(Opens::Lesson)
    } else if crate::crowd::run_file::is_run_path(path) {
        Ok(Opens::CrowdRun)
    } else if crate::grid::is_map_path(path) {
        Ok(Opens::Map)
    } else if crate::navmesh::is_mesh_path(path) {
        Ok(Opens::Mesh)
    } else {
        Err(format!(
            "{}: navlab opens meshes (.obj, .mesh), tile maps (.map, .json, .tmx, .tmj), lessons (.navlab) and crowd runs (.crowd.json)",
            crate::input::shown(path)
        ))
    }
}
