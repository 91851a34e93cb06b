//! Opening a large file on a worker thread, so that the window keeps drawing while a mesh of a
//! million triangles or a map of millions of tiles is read; small files open at once.

use super::latest_worker::LatestWorker;
use super::{NavlabApp, documents};
use crate::grid::TileMap;
use crate::navmesh::NavMesh;
use std::path::PathBuf;

/// Files at least this large are opened on the worker (a mesh file of 4 MiB takes about a
/// tenth of a second to read and build).
pub const IN_BACKGROUND_BYTES: u64 = 4 << 20;

/// A file to read on the worker.
pub(super) enum LoadJob {
    /// A mesh, read with `read`.
    Mesh {
        path: PathBuf,
        read: crate::navmesh::ReadOptions,
    },
    /// A tile map.
    Map { path: PathBuf },
}

/// What the worker read.
pub(super) enum Loaded {
    /// A mesh, or why not.
    Mesh(PathBuf, Box<Result<NavMesh, String>>),
    /// A map and what to say of it, or why not.
    Map(PathBuf, Result<(TileMap, String), String>),
}

impl LoadJob {
    fn run(self) -> Loaded {
        match self {
            LoadJob::Mesh { path, read } => {
                let mesh = NavMesh::load_with(&path, read).map_err(|e| e.to_string());
                Loaded::Mesh(path, Box::new(mesh))
            }
            LoadJob::Map { path } => {
                let map = documents::read_map(&path);
                Loaded::Map(path, map)
            }
        }
    }
}

/// Reads files on a worker thread; the newest file asked for wins.
pub(super) struct Loader {
    worker: LatestWorker<LoadJob, Loaded>,
    loads: u64,
    /// The name of the file being read, for the status bar.
    opening: Option<String>,
    /// The map's revision when a map began to be read: edits made since are not replaced.
    map_revision: u64,
}

impl Default for Loader {
    fn default() -> Self {
        Self {
            worker: LatestWorker::new("navlab file reader", LoadJob::run),
            loads: 0,
            opening: None,
            map_revision: 0,
        }
    }
}

/// True when the file at `path` is large enough to be read on the worker.
fn is_large(path: &std::path::Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() >= IN_BACKGROUND_BYTES)
}

impl NavlabApp {
    /// Opens the mesh at `path`: at once when it is small, on the worker when it is large (what
    /// is shown stays until it is read).
    pub(super) fn open_mesh_file(&mut self, path: PathBuf) {
        let path = documents::absolute(path);
        if super::lesson::is_lesson_path(&path) {
            if let Err(message) = self.open_lesson(&path) {
                self.fail(super::OPEN_FAILED, message);
            }
            return;
        }
        self.scenes.navmesh.read_options_for(&path);
        if !is_large(&path) {
            return self.load_file(path);
        }
        let read = self.scenes.navmesh.settings.read_options();
        self.read_in_background(LoadJob::Mesh { path, read });
    }

    /// Opens the tile map at `path`, as [`open_mesh_file`](Self::open_mesh_file) does a mesh.
    pub(super) fn open_map_file(&mut self, path: PathBuf) {
        let path = documents::absolute(path);
        if !is_large(&path) {
            self.load_map(path);
            return;
        }
        self.read_in_background(LoadJob::Map { path });
    }

    fn read_in_background(&mut self, job: LoadJob) {
        let (LoadJob::Mesh { path, .. } | LoadJob::Map { path }) = &job;
        self.loader.opening = Some(crate::input::file_label(path));
        self.loader.map_revision = self.map.revision();
        self.loader.loads += 1;
        let generation = self.loader.loads;
        if let Some(loaded) = self.loader.worker.answer_or_submit(generation, job, true) {
            // No thread to run it: it ran here.
            self.show_loaded(loaded);
        }
    }

    /// Shows a file the worker has read; true while one is being read.
    pub(super) fn poll_loading(&mut self) -> bool {
        if let Some(loaded) = self.loader.worker.take() {
            self.show_loaded(loaded);
        }
        self.is_loading()
    }

    /// True while a file is being read on the worker.
    pub fn is_loading(&self) -> bool {
        self.loader.worker.is_busy()
    }

    /// The name of the file being read, while one is.
    pub(super) fn opening(&self) -> Option<&str> {
        self.loader.opening.as_deref().filter(|_| self.is_loading())
    }

    /// Waits (up to a minute) for the file being read and shows it: for tests.
    pub fn wait_for_loading(&mut self) {
        if let Some(loaded) = self.loader.worker.wait(std::time::Duration::from_secs(60)) {
            self.show_loaded(loaded);
        }
    }

    fn show_loaded(&mut self, loaded: Loaded) {
        self.loader.opening = None;
        match loaded {
            Loaded::Mesh(path, mesh) => {
                self.show_mesh_file(path, *mesh, documents::Beside::EditsFile)
            }
            // Edits made while it was read are never replaced unasked.
            Loaded::Map(path, Ok(_))
                if self.map.dirty && self.map.revision() != self.loader.map_revision =>
            {
                self.notice = Some(format!(
                    "{} was not opened: the map was edited while it was read (save or discard \
                     the edits, then open it again)",
                    crate::input::file_label(&path)
                ));
            }
            Loaded::Map(path, map) => {
                self.show_map(path, map);
            }
        }
    }
}
