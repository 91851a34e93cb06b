//! Notices when a file shown (the mesh, the tile map) changes on disk — an exporter writing it
//! again — by looking at its modification time and length twice a second.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Seconds between looks at the file.
pub const LOOK_EVERY: f64 = 0.5;

/// What tells two versions of a file apart without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
}

impl Stamp {
    /// The file's stamp now; `None` when it cannot be read (removed, for instance).
    fn of(path: &Path) -> Option<Self> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Self {
            modified: meta.modified().ok(),
            len: meta.len(),
        })
    }
}

/// Watches one file by polling (no platform watcher: one `stat` twice a second is nothing).
#[derive(Debug, Clone)]
pub struct FileWatch {
    path: PathBuf,
    /// The version the window shows.
    shown: Option<Stamp>,
    /// The version found at the last look.
    seen: Option<Stamp>,
    /// When to look next (seconds, on the clock `changed` is given).
    next_look: f64,
}

impl FileWatch {
    /// Watches `path`, whose present version is the one shown; `now` is the time in seconds.
    pub fn new(path: PathBuf, now: f64) -> Self {
        let stamp = Stamp::of(&path);
        Self {
            path,
            shown: stamp,
            seen: stamp,
            next_look: now + LOOK_EVERY,
        }
    }

    /// The file watched.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Looks at the file when it is time to; true (once per new version) when it differs from
    /// the version shown and has not changed since the last look, so that a file still being
    /// written is not read half-way. A removed file is no change: it may be written again.
    pub fn changed(&mut self, now: f64) -> bool {
        if now < self.next_look {
            return false;
        }
        self.next_look = now + LOOK_EVERY;
        let stamp = Stamp::of(&self.path);
        let settled = stamp == self.seen;
        self.seen = stamp;
        if settled && stamp.is_some() && stamp != self.shown {
            self.shown = stamp;
            true
        } else {
            false
        }
    }
}

/// Keeps `watch` on `file`: a new watch when the file is another one, none without a file.
pub fn follow(watch: &mut Option<FileWatch>, file: Option<&Path>, now: f64) {
    match file {
        Some(path) if watch.as_ref().is_some_and(|w| w.path() == path) => {}
        Some(path) => *watch = Some(FileWatch::new(path.to_path_buf(), now)),
        None => *watch = None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Writes `text` and moves the modification time on, as a later write would (file systems
    /// with coarse times could otherwise give two writes the same one).
    fn write(path: &Path, text: &str, age: u64) {
        std::fs::write(path, text).expect("write");
        let file = std::fs::File::options()
            .write(true)
            .open(path)
            .expect("open");
        let time = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000 + age);
        file.set_modified(time).expect("set time");
    }

    #[test]
    fn a_change_is_reported_once_it_has_settled_and_only_once() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("mesh.obj");
        write(&path, "v 0 0 0\n", 0);
        let mut watch = FileWatch::new(path.clone(), 0.0);
        assert!(!watch.changed(1.0), "nothing changed");
        write(&path, "v 0 0 0\nv 1 0 0\n", 1);
        assert!(!watch.changed(1.2), "not time to look yet");
        assert!(
            !watch.changed(1.5),
            "just changed: it may still be being written"
        );
        assert!(watch.changed(2.0), "the same at the next look: reported");
        assert!(!watch.changed(2.5), "reported once");
        assert!(!watch.changed(3.0));
    }

    #[test]
    fn a_file_written_in_two_goes_is_reported_after_the_last() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("map.map");
        write(&path, "type octile\n", 0);
        let mut watch = FileWatch::new(path.clone(), 0.0);
        write(&path, "type octile\nheight 1\n", 1);
        assert!(!watch.changed(0.5));
        write(&path, "type octile\nheight 1\nwidth 1\nmap\n.\n", 2);
        assert!(!watch.changed(1.0), "changed again since the last look");
        assert!(watch.changed(1.5));
    }

    #[test]
    fn a_removed_file_is_no_change_until_it_is_written_again() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("mesh.obj");
        write(&path, "v 0 0 0\n", 0);
        let mut watch = FileWatch::new(path.clone(), 0.0);
        std::fs::remove_file(&path).expect("remove");
        assert!(!watch.changed(0.5));
        assert!(!watch.changed(1.0));
        write(&path, "v 0 0 0\nv 2 0 0\n", 3);
        assert!(!watch.changed(1.5));
        assert!(watch.changed(2.0));
    }

    #[test]
    fn follow_watches_the_file_shown() {
        let mut watch = None;
        follow(&mut watch, Some(Path::new("/a.obj")), 0.0);
        assert_eq!(
            watch.as_ref().map(FileWatch::path),
            Some(Path::new("/a.obj"))
        );
        let kept = watch.as_ref().map(|w| w.next_look);
        follow(&mut watch, Some(Path::new("/a.obj")), 5.0);
        assert_eq!(watch.as_ref().map(|w| w.next_look), kept, "the same watch");
        follow(&mut watch, Some(Path::new("/b.obj")), 5.0);
        assert_eq!(
            watch.as_ref().map(FileWatch::path),
            Some(Path::new("/b.obj"))
        );
        follow(&mut watch, None, 6.0);
        assert!(watch.is_none());
    }
}
