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
    /// The CRC-32 of the mesh file's bytes as saved with these edits (files of older navlabs
    /// have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mesh_crc32: Option<u32>,
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

/// The text of the edits file for `editor`'s edits, beside the mesh file `mesh_bytes` (none
/// when the edits are kept apart from any mesh file, as in the recovery file).
pub fn to_json(editor: &MeshEditor, mesh_bytes: Option<&[u8]>) -> String {
    let base = editor.base();
    let mesh = editor.mesh();
    let stored = Stored {
        navlab_edits: VERSION,
        // The base is written Y up (see RawMesh::to_obj), whatever plane it was read in.
        plane: Plane::Xz,
        triangles: mesh.triangles().len(),
        mesh_crc32: mesh_bytes.map(crc32fast::hash),
        area: total_area(mesh),
        area_names: base.area_names().to_vec(),
        base: base.raw().to_obj("the mesh before navlab's edits"),
        edits: editor.edits().clone(),
    };
    // Plain data: serialising it cannot fail.
    serde_json::to_string(&stored).unwrap_or_default()
}

/// Saves the mesh file `mesh_bytes` at `mesh_path` and `editor`'s edits beside it, as one
/// save: both are written (each atomically) while this process holds a lock on their folder,
/// so that saves of the same name at the same moment leave a mesh and an edits file from the
/// same save; and the edits file holds the mesh file's CRC-32, so that edits that do not
/// belong to the mesh beside them are told. With no edits (or no editor), an old edits file
/// there is removed (it would describe another mesh). An output that is not a file a folder
/// holds — standard output, a pipe, a device — gets the mesh alone.
pub fn save_with_edits(
    mesh_path: &Path,
    mesh_bytes: &[u8],
    editor: Option<&MeshEditor>,
) -> Result<(), String> {
    use crate::atomic::{Destination, destination, write_atomically};
    let Destination::Replace(target) = destination(mesh_path)? else {
        return write_atomically(mesh_path, mesh_bytes);
    };
    let _lock = lock_folder(&target, false)
        .map_err(|e| format!("{}: cannot save: {e}", crate::input::shown(mesh_path)))?;
    write_atomically(&target, mesh_bytes)?;
    let path = path_beside(&target);
    match editor.filter(|editor| !editor.edits().is_empty()) {
        Some(editor) => write_atomically(&path, to_json(editor, Some(mesh_bytes)).as_bytes())
            .map_err(|e| format!("the mesh was saved, its edits were not: {e}")),
        None => match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!(
                "{}: cannot remove: {e}",
                crate::input::shown(&path)
            )),
            _ => Ok(()),
        },
    }
}

/// Holds a lock on the folder that holds `file` (released when dropped), exclusive while a
/// mesh and its edits are saved, `shared` while they are read: saves in that folder take
/// turns, and a read never meets half of one. (Unix only; elsewhere the CRC-32 alone tells.)
fn lock_folder(file: &Path, shared: bool) -> std::io::Result<Option<std::fs::File>> {
    #[cfg(unix)]
    {
        let folder = match file.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        let handle = std::fs::File::open(folder)?;
        match shared {
            true => handle.lock_shared()?,
            false => handle.lock()?,
        }
        Ok(Some(handle))
    }
    #[cfg(not(unix))]
    {
        let _ = (file, shared);
        Ok(None)
    }
}

/// The editor for `opened` (read from `mesh_path`) with the edits kept beside it: `None` when
/// there is no edits file. The file is checked against the mesh: its unedited mesh with its
/// edits must give the mesh opened.
pub fn read_beside(
    mesh_path: &Path,
    opened: &NavMesh,
) -> Result<Option<MeshEditor>, SavedEditsError> {
    let path = path_beside(mesh_path);
    let file = crate::input::shown(&path);
    let unreadable = |message: String| SavedEditsError::Unreadable {
        file: file.clone(),
        message,
    };
    let _shared = lock_folder(&path, true);
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
    let same_bytes = stored.mesh_crc32.is_none_or(|crc| {
        crate::input::read_file(mesh_path, crate::input::MAX_MESH_BYTES, "a mesh file")
            .is_ok_and(|bytes| crc32fast::hash(&bytes) == crc)
    });
    if edited.triangles().len() != opened.triangles().len()
        || stored.triangles != opened.triangles().len()
        || !same_area
        || !same_bytes
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
        mesh_crc32: stored.mesh_crc32,
        area: stored.area,
    };
    let editor = MeshEditor::with_edits(Arc::new(base), stored.edits)
        .map_err(|e| unreadable(format!("its edits do not apply: {e}")))?;
    Ok((editor, checks))
}

/// What an edits file says of the edited mesh, to check it against the mesh beside.
struct Checks {
    triangles: usize,
    mesh_crc32: Option<u32>,
    area: f64,
}

/// The walkable area of `mesh`.
fn total_area(mesh: &NavMesh) -> f64 {
    mesh.triangles().iter().map(|t| t.area).sum()
}
