//! Saving without ever leaving a half-written file or touching another one: the bytes go to a
//! new temporary file beside the target, created under a name no other file has (so a link
//! planted beside the target, or a second save running at the same moment, is never written
//! through), flushed to disk, given the target's permissions, and renamed over the target;
//! then the folder is flushed, so that the rename survives a power cut. A target that is a
//! symbolic link is saved where the link points, and the link stays.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically (see the module's description). On failure the target
/// is as it was, and the error names it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("{}: cannot save: {e}", path.display());
    let target = resolve_links(path).map_err(fail)?;
    let folder = match target.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".navlab-tmp");
    // The target's permissions, exactly (an owner-only file stays owner-only); a new file gets
    // what the system gives new files (read and write, less the user's umask).
    let kept = std::fs::metadata(&target).ok().map(|m| m.permissions());
    #[cfg(unix)]
    if kept.is_none() {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut file = builder.tempfile_in(&folder).map_err(fail)?;
    if let Some(permissions) = kept {
        file.as_file().set_permissions(permissions).map_err(fail)?;
    }
    file.write_all(bytes).map_err(fail)?;
    file.as_file().sync_all().map_err(fail)?;
    file.persist(&target).map_err(|e| fail(e.error))?;
    sync_folder(&folder).map_err(fail)
}

/// The file a save of `path` writes: `path` itself, or, when it is a symbolic link, what the
/// link (and any link it names) points to. A path that does not exist yet is itself.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut target = path.to_path_buf();
    // A chain of links ends, unless it loops: the system's own limit is about forty.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&target)?;
                target = match target.parent() {
                    Some(folder) if next.is_relative() => folder.join(next),
                    _ => next,
                };
            }
            _ => return Ok(target),
        }
    }
    Err(std::io::Error::other("too many symbolic links"))
}

/// Flushes the folder's entries, so that a rename in it is on disk.
fn sync_folder(folder: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(folder)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = folder;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_replaces_the_file_and_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("map.json");
        std::fs::write(&path, "old").expect("write");
        write_atomically(&path, b"new").expect("saved");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["map.json"]);
    }

    #[test]
    fn a_save_into_a_missing_folder_fails_naming_the_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("no/such/folder/map.json");
        let error = write_atomically(&path, b"x").expect_err("no folder");
        assert!(
            error.contains("map.json") && error.contains("cannot save"),
            "{error}"
        );
    }
}
