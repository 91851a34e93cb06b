//! Saving without ever leaving a half-written file or touching another one: the bytes go to a
//! new temporary file beside the target, created under a name no other file has (so a link
//! planted beside the target, or a second save running at the same moment, is never written
//! through), flushed to disk, given the target's permissions, and renamed over the target;
//! then the folder is flushed, so that the rename survives a power cut. A target that is a
//! symbolic link is saved where the link points, and the link stays.
//!
//! Only a regular file (or a name not taken yet) is replaced that way. What else a save may be
//! given is decided by what it is ([`Destination`]): `-` and the standard output's names
//! (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`) stream to standard output — they name an
//! open stream, perhaps a file opened for appending, never a file to replace; a pipe (FIFO) or
//! a character device such as `/dev/null` is written through, and stays what it is; a folder,
//! a socket, a block device or another open descriptor is refused, naming it.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Where a save of a path goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (`-`, `/dev/stdout` and their kin).
    StandardOutput,
    /// Standard error (`/dev/stderr`, `/dev/fd/2`).
    StandardError,
    /// A pipe or a character device, written through (opened for writing, never replaced).
    Through(PathBuf),
    /// A regular file, or a name not taken yet: replaced atomically.
    Replace(PathBuf),
}

/// Where a save of `path` goes, or why nothing can be saved there (in words, naming it).
pub fn destination(path: &Path) -> Result<Destination, String> {
    let refuse = |what: &str| format!("{}: cannot save: {what}", crate::input::shown(path));
    if path.as_os_str() == "-" {
        return Ok(Destination::StandardOutput);
    }
    let target = resolve_links(path).map_err(|e| refuse(&e.to_string()))?;
    let target = match target {
        Resolved::Stream(1) => return Ok(Destination::StandardOutput),
        Resolved::Stream(2) => return Ok(Destination::StandardError),
        Resolved::Stream(n) => {
            return Err(refuse(&format!(
                "it names open descriptor {n}; navlab writes only to standard output and \
                 standard error that way"
            )));
        }
        Resolved::Path(target) => target,
    };
    let meta = match std::fs::metadata(&target) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Destination::Replace(target));
        }
        Err(e) => return Err(refuse(&e.to_string())),
    };
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(Destination::Replace(target));
    }
    if kind.is_dir() {
        return Err(refuse("it is a folder"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() || kind.is_char_device() {
            return Ok(Destination::Through(target));
        }
        if kind.is_socket() {
            return Err(refuse("it is a socket"));
        }
        if kind.is_block_device() {
            return Err(refuse("it is a block device (a disk)"));
        }
    }
    Err(refuse("it is not a regular file"))
}

/// Writes `bytes` as the file at `path`, as its [`Destination`] says: atomically for a
/// regular file or a new name (see the module's description). On failure the target is as it
/// was, and the error names it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("{}: cannot save: {e}", crate::input::shown(path));
    match destination(path)? {
        Destination::StandardOutput => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(fail)
        }
        Destination::StandardError => {
            let mut out = std::io::stderr().lock();
            out.write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(fail)
        }
        Destination::Through(target) => write_through(&target, bytes).map_err(fail),
        Destination::Replace(target) => replace(&target, bytes).map_err(fail),
    }
}

/// Writes `bytes` into the pipe or device at `target` (opened as found, neither created nor
/// truncated). Should it have become a regular file since it was looked at, it is replaced as
/// one instead.
fn write_through(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).open(target)?;
    if file.metadata()?.is_file() {
        return replace(target, bytes);
    }
    file.write_all(bytes)?;
    file.flush()
}

/// Replaces the regular file (or new name) `target` atomically.
fn replace(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
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
    let kept = std::fs::metadata(target).ok().map(|m| m.permissions());
    #[cfg(unix)]
    if kept.is_none() {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut file = builder.tempfile_in(&folder)?;
    if let Some(permissions) = kept {
        file.as_file().set_permissions(permissions)?;
    }
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(target).map_err(|e| e.error)?;
    sync_folder(&folder)
}

/// What a chain of links ends at.
enum Resolved {
    /// A path that is not a link (or does not exist yet).
    Path(PathBuf),
    /// An open descriptor of this process, by number.
    Stream(u32),
}

/// The descriptor `path` names when it is one of this process's open streams
/// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, `/proc/PID/fd/N` of this
/// process).
fn open_stream(path: &Path) -> Option<u32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        "/dev/stdin" => return Some(0),
        _ => {}
    }
    let own = format!("/proc/{}/fd/", std::process::id());
    let number = [
        "/dev/fd/",
        "/proc/self/fd/",
        "/proc/thread-self/fd/",
        own.as_str(),
    ]
    .iter()
    .find_map(|prefix| text.strip_prefix(prefix))?;
    number.parse().ok()
}

/// The file a save of `path` writes: `path` itself, or, when it is a symbolic link, what the
/// link (and any link it names) points to — or the open stream a step of the chain names
/// ([`open_stream`]). A path that does not exist yet is itself.
fn resolve_links(path: &Path) -> std::io::Result<Resolved> {
    let mut target = path.to_path_buf();
    // A chain of links ends, unless it loops: the system's own limit is about forty.
    for _ in 0..40 {
        if let Some(n) = open_stream(&target) {
            return Ok(Resolved::Stream(n));
        }
        match std::fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&target)?;
                target = match target.parent() {
                    Some(folder) if next.is_relative() => folder.join(next),
                    _ => next,
                };
            }
            _ => return Ok(Resolved::Path(target)),
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
