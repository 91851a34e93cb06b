//! Choosing files: the open dialog behind a trait (so tests never open a real one) and the
//! recent-files list.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Duration;

/// What a file dialog gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picked {
    /// The user chose this file.
    Path(PathBuf),
    /// The user closed the dialog without choosing.
    Cancelled,
    /// No dialog was shown: the desktop has none to offer (the app asks for a typed path).
    NoDialog,
}

/// Asks the user for files. The app calls it only through its commands, never from a test.
pub trait FileDialogs {
    /// A mesh file to open.
    fn pick_mesh(&mut self) -> Picked;
    /// A tile map to open.
    fn pick_map(&mut self) -> Picked;
    /// Level geometry (an OBJ) to open in the level view.
    fn pick_level(&mut self) -> Picked {
        Picked::NoDialog
    }
    /// Where to save a tile map.
    fn save_map(&mut self, suggested: &str) -> Picked;
    /// Where to save a mesh (OBJ, or Polyanya `.mesh`).
    fn save_mesh(&mut self, suggested: &str) -> Picked;
    /// Where to save a picture of the window (PNG).
    fn save_picture(&mut self, suggested: &str) -> Picked;
    /// Where to save a lesson (`.navlab`).
    fn save_lesson(&mut self, suggested: &str) -> Picked;
    /// Where to save an animation (`.gif`).
    fn save_animation(&mut self, suggested: &str) -> Picked;
    /// A search trace (Posthoc's format) to replay.
    fn pick_trace(&mut self) -> Picked;
    /// Where to save a crowd's run (`.crowd.trace.json`).
    fn save_crowd_run(&mut self, suggested: &str) -> Picked;
    /// Files given since the last call (a browser's picker answers later, with the file's
    /// bytes, not a path), each with what it was asked for.
    fn uploads(&mut self) -> Vec<Upload> {
        Vec::new()
    }
    /// Reads a dropped file's bytes to come through [`uploads`](Self::uploads), when they
    /// are read that way (a browser); false when the file is opened by its path.
    fn read_dropped(&mut self, _file: &egui::DroppedFileHandle) -> bool {
        false
    }
}

/// A file given as bytes (by a browser's picker or a drop in a browser), not as a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    /// The file's name (no folder: a browser does not tell it).
    pub name: String,
    /// Its bytes, or why they were not read (a file over every limit is not read at all).
    pub bytes: Result<Vec<u8>, String>,
    /// What it was asked for.
    pub purpose: UploadPurpose,
}

/// What a file given as bytes is opened as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadPurpose {
    /// By its extension, as a dropped file: a mesh, a map or a lesson.
    Open,
    /// A search trace to compare with.
    Trace,
}

/// Writes `bytes` as the file at `path`: atomically on a desktop (see [`crate::atomic`]); in a
/// browser, as a download named as the file.
pub fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        crate::atomic::write_atomically(path, bytes)
    }
    #[cfg(target_arch = "wasm32")]
    {
        let name = path
            .file_name()
            .map_or_else(|| "download".into(), |n| n.to_string_lossy().into_owned());
        super::web::download(&name, bytes)
    }
}

/// The system's dialogs, through [`rfd`].
#[cfg(not(target_arch = "wasm32"))]
pub struct NativeDialogs;

#[cfg(not(target_arch = "wasm32"))]
/// A dialog that answers sooner than this was never on screen: no one cancels that fast. rfd's
/// XDG-portal backend answers "nothing chosen" at once when the desktop has no file-chooser
/// portal, and says no more (rfd issue #119), so the time is the only sign.
const NO_DIALOG_WITHIN: Duration = Duration::from_millis(250);

#[cfg(not(target_arch = "wasm32"))]
/// Runs a dialog and tells a cancel from a dialog that never appeared.
fn timed(dialog: impl FnOnce() -> Option<PathBuf>) -> Picked {
    let started = crate::clock::now();
    match dialog() {
        Some(path) => Picked::Path(path),
        None if started.elapsed() < NO_DIALOG_WITHIN => Picked::NoDialog,
        None => Picked::Cancelled,
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl FileDialogs for NativeDialogs {
    fn pick_mesh(&mut self) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Open a navigation mesh")
                .add_filter("Navigation meshes and lessons", &["obj", "mesh", "navlab"])
                .add_filter("Wavefront OBJ", &["obj"])
                .add_filter("Polyanya mesh", &["mesh"])
                .pick_file()
        })
    }

    fn pick_level(&mut self) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Open level geometry")
                .add_filter("Wavefront OBJ (Y up)", &["obj"])
                .pick_file()
        })
    }

    fn pick_map(&mut self) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Open a tile map")
                .add_filter("Tile maps", &["map", "json", "tmx", "tmj"])
                .add_filter(
                    "Tiled maps (imported: collision layers become walls)",
                    &["tmx", "tmj"],
                )
                .pick_file()
        })
    }

    fn save_map(&mut self, suggested: &str) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Save the tile map")
                .set_file_name(suggested)
                .add_filter("navlab map (keeps tile costs)", &["json"])
                .add_filter("MovingAI map", &["map"])
                .save_file()
        })
    }

    fn save_mesh(&mut self, suggested: &str) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Save the mesh")
                .set_file_name(suggested)
                .add_filter("Wavefront OBJ", &["obj"])
                .add_filter("Polyanya mesh (flat)", &["mesh"])
                .save_file()
        })
    }

    fn save_picture(&mut self, suggested: &str) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Save a picture of the window")
                .set_file_name(suggested)
                .add_filter("PNG image", &["png"])
                .save_file()
        })
    }

    fn save_lesson(&mut self, suggested: &str) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Save a lesson")
                .set_file_name(suggested)
                .add_filter("navlab lesson", &["navlab"])
                .save_file()
        })
    }

    fn pick_trace(&mut self) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Replay a search trace")
                .add_filter("Posthoc trace (JSON)", &["json", "yaml"])
                .pick_file()
        })
    }

    fn save_crowd_run(&mut self, suggested: &str) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Save the crowd's run")
                .set_file_name(suggested)
                .add_filter("navlab crowd run (a Posthoc trace)", &["json"])
                .save_file()
        })
    }

    fn save_animation(&mut self, suggested: &str) -> Picked {
        timed(|| {
            rfd::FileDialog::new()
                .set_title("Save the animation")
                .set_file_name(suggested)
                .add_filter("GIF animation", &["gif"])
                .save_file()
        })
    }
}

/// Dialogs that answer from a list (for tests and scripted runs).
#[derive(Debug, Default)]
pub struct ScriptedDialogs {
    /// Answers, first one first; `None` means "cancelled".
    pub answers: std::collections::VecDeque<Option<PathBuf>>,
    /// Behave as a desktop without file dialogs: every request answers [`Picked::NoDialog`].
    pub no_dialog: bool,
}

impl ScriptedDialogs {
    fn next(&mut self) -> Picked {
        if self.no_dialog {
            return Picked::NoDialog;
        }
        match self.answers.pop_front().flatten() {
            Some(path) => Picked::Path(path),
            None => Picked::Cancelled,
        }
    }
}

impl FileDialogs for ScriptedDialogs {
    fn pick_mesh(&mut self) -> Picked {
        self.next()
    }

    fn pick_level(&mut self) -> Picked {
        self.next()
    }

    fn pick_map(&mut self) -> Picked {
        self.next()
    }

    fn save_map(&mut self, _suggested: &str) -> Picked {
        self.next()
    }

    fn save_mesh(&mut self, _suggested: &str) -> Picked {
        self.next()
    }

    fn save_lesson(&mut self, _suggested: &str) -> Picked {
        self.next()
    }

    fn save_animation(&mut self, _suggested: &str) -> Picked {
        self.next()
    }

    fn pick_trace(&mut self) -> Picked {
        self.next()
    }

    fn save_crowd_run(&mut self, _suggested: &str) -> Picked {
        self.next()
    }

    fn save_picture(&mut self, _suggested: &str) -> Picked {
        self.next()
    }
}

/// True when `path` is not a PNG's name (pictures are written as PNG only).
pub fn not_png(path: &std::path::Path) -> bool {
    !path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("png"))
}

/// The file stem of a document's name ("rooms.obj (built in)", "arena.map as a navmesh":
/// the first word's stem), for a picture's name.
pub fn file_stem(name: &str) -> String {
    std::path::Path::new(name.split_whitespace().next().unwrap_or("navlab"))
        .file_stem()
        .map_or_else(
            || "navlab".to_string(),
            |s| s.to_string_lossy().into_owned(),
        )
}

/// Recently opened files, newest first, at most [`RecentFiles::MAX`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RecentFiles(Vec<PathBuf>);

impl RecentFiles {
    /// How many are kept.
    pub const MAX: usize = 8;

    /// Puts `path` first, removing an older mention.
    pub fn add(&mut self, path: PathBuf) {
        self.0.retain(|p| p != &path);
        self.0.insert(0, path);
        self.0.truncate(Self::MAX);
    }

    /// The paths, newest first.
    pub fn paths(&self) -> &[PathBuf] {
        &self.0
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_keep_the_newest_first_without_repeats() {
        let mut recent = RecentFiles::default();
        for i in 0..10 {
            recent.add(PathBuf::from(format!("{i}.obj")));
        }
        recent.add(PathBuf::from("5.obj"));
        assert_eq!(recent.paths().len(), RecentFiles::MAX);
        assert_eq!(recent.paths()[0], PathBuf::from("5.obj"));
        assert_eq!(recent.paths()[1], PathBuf::from("9.obj"));
        let fives = recent.paths().iter().filter(|p| p.as_os_str() == "5.obj");
        assert_eq!(fives.count(), 1);
    }

    #[test]
    fn only_png_names_take_pictures() {
        assert!(!not_png(std::path::Path::new("a/step-3.png")));
        assert!(!not_png(std::path::Path::new("STEP.PNG")));
        assert!(not_png(std::path::Path::new("step.jpg")));
        assert!(not_png(std::path::Path::new("step")));
    }
}
