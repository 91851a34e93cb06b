//! The edits kept beside a saved mesh, in `NAME.edits.json`: the mesh as it was before any
//! edit and the shapes and paint on it, so that opening the saved mesh again makes its
//! obstacles, doors and areas editable (a closed door's surface comes back when it opens).

use super::{Edits, MeshEditor};
use crate::navmesh::{NavMesh, Plane, obj};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The format's version; a file of a newer one is refused.
pub const VERSION: u32 = 1;

/// What the file beside `NAME` is called: `NAME.edits.json`.
pub fn path_beside(mesh_path: &Path) -> PathBuf {
    let mut name = mesh_path.file_name().unwrap_or_default().to_os_string();
    name.push(".edits.json");
    mesh_path.with_file_name(name)
}

/// The file's content.
#[derive(Serialize, Deserialize)]
struct Stored {
    /// [`VERSION`].
    navlab_edits: u32,
    /// The plane the unedited mesh lies in.
    plane: Plane,
    /// Triangles and walkable area of the edited mesh, to tell whether the mesh file beside is
    /// still the one saved with these edits.
    triangles: usize,
    area: f64,
    /// The unedited mesh's area type names, in order (the edits name areas by index).
    area_names: Vec<String>,
    /// The unedited mesh as OBJ text.
    base: String,
    /// The edits.
    edits: Edits,
}

/// Why the edits beside a mesh could not be used (the mesh itself opens as saved).
#[derive(Debug, thiserror::Error)]
pub enum SavedEditsError {
    /// The file does not read or does not parse.
    #[error("{file}: {message}")]
    Unreadable {
        /// The edits file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A newer navlab wrote it.
    #[error("{file}: made by a newer navlab (edits format {version}; this one reads {VERSION})")]
    Newer {
        /// The edits file.
        file: String,
        /// Its version.
        version: u32,
    },
    /// The mesh file is not the one saved with these edits.
    #[error(
        "{file}: these edits were saved with another version of {mesh} (it has changed since); {mesh} opens as saved, without them"
    )]
    Mismatch {
        /// The edits file.
        file: String,
        /// The mesh file's name.
        mesh: String,
    },
}

/// The text of the edits file for `editor`'s edits.
pub fn to_json(editor: &MeshEditor) -> String {
    let base = editor.base();
    let mesh = editor.mesh();
    let stored = Stored {
        navlab_edits: VERSION,
        // The base is written Y up (see RawMesh::to_obj), whatever plane it was read in.
        plane: Plane::Xz,
        triangles: mesh.triangles().len(),
        area: total_area(mesh),
        area_names: base.area_names().to_vec(),
        base: base.raw().to_obj("the mesh before navlab's edits"),
        edits: editor.edits().clone(),
    };
    // Plain data: serialising it cannot fail.
    serde_json::to_string(&stored).unwrap_or_default()
}

/// Keeps `editor`'s edits beside `mesh_path` (atomically), or removes an old edits file there
/// when there are none (it would describe another mesh).
pub fn write_beside(mesh_path: &Path, editor: &MeshEditor) -> Result<(), String> {
    let path = path_beside(mesh_path);
    if editor.edits().is_empty() {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(format!("{}: cannot remove: {e}", path.display()))
            }
            _ => Ok(()),
        };
    }
    crate::atomic::write_atomically(&path, to_json(editor).as_bytes())
}

/// The editor for `opened` (read from `mesh_path`) with the edits kept beside it: `None` when
/// there is no edits file. The file is checked against the mesh: its unedited mesh with its
/// edits must give the mesh opened.
pub fn read_beside(
    mesh_path: &Path,
    opened: &NavMesh,
) -> Result<Option<MeshEditor>, SavedEditsError> {
    let path = path_beside(mesh_path);
    let file = path.display().to_string();
    let unreadable = |message: String| SavedEditsError::Unreadable {
        file: file.clone(),
        message,
    };
    let limit = 2 * crate::input::MAX_MESH_BYTES;
    let bytes = match crate::input::read_file(&path, limit, "an edits file") {
        Ok(bytes) => bytes,
        Err(crate::input::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(e) => return Err(unreadable(e.to_string())),
    };
    let (editor, stored) = parse(&bytes, &file)?;
    drop(bytes);
    let mesh_name = mesh_path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let (edited, area) = (editor.mesh(), total_area(opened));
    let near = |x: f64| (x - area).abs() <= 1e-9 * area.abs().max(1.0);
    let same_area = near(total_area(edited)) && near(stored.area);
    if edited.triangles().len() != opened.triangles().len()
        || stored.triangles != opened.triangles().len()
        || !same_area
    {
        return Err(SavedEditsError::Mismatch {
            file,
            mesh: crate::input::printable(&mesh_name),
        });
    }
    Ok(Some(editor))
}

/// The editor that edits file text `text` describes (the unedited mesh with its edits
/// applied); `file` names it in errors.
pub fn from_json(text: &[u8], file: &str) -> Result<MeshEditor, SavedEditsError> {
    parse(text, file).map(|(editor, _)| editor)
}

/// The editor and what else the file says.
fn parse(bytes: &[u8], file: &str) -> Result<(MeshEditor, Checks), SavedEditsError> {
    let unreadable = |message: String| SavedEditsError::Unreadable {
        file: file.to_string(),
        message,
    };
    // The version first, so that a newer file is named as such, not as malformed.
    #[derive(Deserialize)]
    struct Version {
        navlab_edits: u32,
    }
    let version = serde_json::from_slice::<Version>(bytes)
        .map_err(|e| unreadable(crate::input::json_problem(&e)))?
        .navlab_edits;
    if version > VERSION {
        return Err(SavedEditsError::Newer {
            file: file.to_string(),
            version,
        });
    }
    let stored: Stored =
        serde_json::from_slice(bytes).map_err(|e| unreadable(crate::input::json_problem(&e)))?;
    // Edits files of older navlabs hold an XY mesh's base as XY (plane "xy").
    let base = obj::parse(stored.base.as_bytes(), file, stored.plane)
        .map_err(|e| unreadable(format!("its unedited mesh does not load: {e}")))?;
    if base.area_names() != stored.area_names.as_slice() {
        return Err(unreadable(
            "its unedited mesh's area types are not the ones its edits name".into(),
        ));
    }
    let checks = Checks {
        triangles: stored.triangles,
        area: stored.area,
    };
    let editor = MeshEditor::with_edits(Arc::new(base), stored.edits)
        .map_err(|e| unreadable(format!("its edits do not apply: {e}")))?;
    Ok((editor, checks))
}

/// What an edits file says of the edited mesh, to check it against the mesh beside.
struct Checks {
    triangles: usize,
    area: f64,
}

/// The walkable area of `mesh`.
fn total_area(mesh: &NavMesh) -> f64 {
    mesh.triangles().iter().map(|t| t.area).sum()
}
