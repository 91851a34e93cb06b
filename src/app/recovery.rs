//! Unsaved edits — of the tile map and of the mesh — kept in a recovery file while the window
//! is open, and offered back at the next start when navlab ended without saving or discarding
//! them (a crash, a kill); one file per window, so windows open side by side never take or
//! remove each other's.

use crate::grid::TileMap;
use crate::grid::movingai::{parse_navlab_json, to_navlab_json};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::path::{Path, PathBuf};

/// Recovery files are named `unsaved-map-ID.json`, each with `unsaved-map-ID.lock` beside it.
const PREFIX: &str = "unsaved-map";

/// This window's recovery file, in a folder other navlab windows share. Each window writes
/// only its own file and holds an exclusive lock on the file's `.lock` companion while it is
/// open; the system releases the lock when the process ends, however it ends. A file whose lock
/// is free was left by a window that is gone: those are the ones offered back.
#[derive(Debug)]
pub struct Recovery {
    path: PathBuf,
    lock_path: PathBuf,
    /// Held (locked) for as long as this window lives.
    _lock: File,
}

/// What a recovery file holds.
#[derive(Serialize, Deserialize)]
struct Stored {
    /// The map's own file, if it had one.
    #[serde(default)]
    file: Option<PathBuf>,
    /// The map, as navlab's `.json` (tiles and costs), when it has unsaved edits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    map: Option<String>,
    /// The mesh, when it has unsaved edits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mesh: Option<StoredMesh>,
}

/// A mesh's unsaved edits in a recovery file.
#[derive(Serialize, Deserialize)]
struct StoredMesh {
    /// The mesh's file, if it came from one.
    file: Option<PathBuf>,
    /// Its name in the window.
    name: String,
    /// The mesh before the edits and the edits, as a `NAME.edits.json` holds them.
    edits: String,
}

/// Unsaved work to keep: the map, the mesh, or both.
#[derive(Debug, Clone, Default)]
pub struct UnsavedWork {
    /// The map with unsaved edits and the file it came from.
    pub map: Option<(TileMap, Option<PathBuf>)>,
    /// The mesh with unsaved edits.
    pub mesh: Option<RecoveredMesh>,
}

/// A mesh with unsaved edits.
#[derive(Debug, Clone)]
pub struct RecoveredMesh {
    /// The mesh as opened, with the edits made.
    pub editor: crate::navmesh::edit::MeshEditor,
    /// The mesh's file, if it came from one.
    pub file: Option<PathBuf>,
    /// Its name in the window ("rooms.obj (built in)").
    pub name: String,
}

/// Edits found in a recovery file at start.
#[derive(Debug, Clone)]
pub struct Recovered {
    /// The map with the edits, if it had unsaved ones.
    pub map: Option<TileMap>,
    /// The file the map had been opened from or saved to, if any.
    pub file: Option<PathBuf>,
    /// The mesh with the edits, if it had unsaved ones.
    pub mesh: Option<RecoveredMesh>,
}

impl Recovered {
    /// What the edits are of, for the question that offers them: "edits to lake.map (64 × 64
    /// tiles) and to rooms.obj (built in) (3 shapes)".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(map) = &self.map {
            let name = self
                .file
                .as_deref()
                .map_or("an untitled map".to_string(), crate::input::file_label);
            parts.push(format!("{name} ({} × {} tiles)", map.width(), map.height()));
        }
        if let Some(mesh) = &self.mesh {
            let edits = mesh.editor.edits();
            // What there is of each kind of edit: "3 shapes, 2 links".
            let mut kinds = Vec::new();
            if !edits.shapes.is_empty() {
                kinds.push(crate::words::count(edits.shapes.len(), "shape"));
            }
            if !edits.painted.is_empty() {
                kinds.push(format!(
                    "{} painted",
                    crate::words::count(edits.painted.len(), "triangle")
                ));
            }
            if !edits.links.is_empty() {
                kinds.push(crate::words::count(edits.links.len(), "off-mesh link"));
            }
            if kinds.is_empty() {
                kinds.push("no edits left".to_owned());
            }
            parts.push(format!("the mesh {} ({})", mesh.name, kinds.join(", ")));
        }
        parts.join(" and to ")
    }
}

/// Edits a window that is gone left unsaved, claimed by this window (no other window offers
/// them meanwhile) until the user opens or discards them.
#[derive(Debug)]
pub struct Offer {
    /// The edits.
    pub recovered: Recovered,
    path: PathBuf,
    lock_path: PathBuf,
    _lock: File,
}

impl Offer {
    /// Removes the offered file: its edits were discarded, or are kept by this window now.
    pub fn dismiss(self) {
        // Another failure than "already gone" leaves a stale offer for the next start: no harm.
        let _ = std::fs::remove_file(&self.path);
        let _ = std::fs::remove_file(&self.lock_path);
    }
}

impl Recovery {
    /// A new recovery file for this window in `dir` (created if missing), claimed at once.
    pub fn in_dir(dir: &Path) -> Result<Self, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", crate::input::shown(dir)))?;
        let since_epoch = crate::clock::system_now()
            .duration_since(web_time::UNIX_EPOCH)
            .unwrap_or_default();
        // The process id alone could come back after a crash; with the time it cannot.
        let id = format!(
            "{}-{}{:09}",
            std::process::id(),
            since_epoch.as_secs(),
            since_epoch.subsec_nanos()
        );
        let path = dir.join(format!("{PREFIX}-{id}.json"));
        let lock_path = path.with_extension("lock");
        let lock = claim(&lock_path)
            .map_err(|e| format!("{}: {e}", crate::input::shown(&lock_path)))?
            .ok_or_else(|| {
                format!(
                    "{}: locked by another window",
                    crate::input::shown(&lock_path)
                )
            })?;
        Ok(Self {
            path,
            lock_path,
            _lock: lock,
        })
    }

    /// This window's recovery file beside eframe's own settings, where the platform keeps app
    /// data.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn in_app_data() -> Option<Self> {
        let dir = eframe::storage_dir("navlab")?;
        Self::in_dir(&dir)
            .map_err(|e| {
                eprintln!(
                    "{}",
                    crate::input::printable(&format!(
                        "navlab: unsaved edits will not be kept: {e}"
                    ))
                )
            })
            .ok()
    }

    /// Keeps `map` (opened from `file`) until it is saved or discarded; atomically, so a crash
    /// while writing leaves the previous copy.
    pub fn store(&self, map: &TileMap, file: Option<&Path>) -> Result<(), String> {
        self.store_work(&UnsavedWork {
            map: Some((map.clone(), file.map(Path::to_path_buf))),
            mesh: None,
        })
    }

    /// Keeps `work` until it is saved or discarded; atomically, as [`store`](Self::store).
    pub fn store_work(&self, work: &UnsavedWork) -> Result<(), String> {
        let text = work_text(work)?;
        crate::atomic::write_atomically(&self.path, text.as_bytes())
    }

    /// Forgets the kept edits (they were saved or discarded).
    pub fn clear(&self) {
        // Nothing there is the usual case; any other failure leaves a stale offer, no harm.
        let _ = std::fs::remove_file(&self.path);
    }

    /// The edits windows that are gone left in this folder (newest first), each claimed for
    /// this window, and the files among them that do not read, as errors (those files stay,
    /// for the user to look at). Files of windows still open are not touched.
    pub fn take_offers(&self) -> (Vec<Offer>, Vec<String>) {
        let Some(dir) = self.path.parent() else {
            return (Vec::new(), Vec::new());
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return (Vec::new(), Vec::new());
        };
        let mut found: Vec<(std::time::SystemTime, PathBuf)> = entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| *path != self.path && is_recovery_file(path))
            .map(|path| {
                let modified = std::fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                (modified, path)
            })
            .collect();
        found.sort_by(|a, b| b.cmp(a));
        let mut offers = Vec::new();
        let mut errors = Vec::new();
        for (_, path) in found {
            let lock_path = path.with_extension("lock");
            // A lock that is held (or cannot be taken) belongs to a window still open.
            let Ok(Some(lock)) = claim(&lock_path) else {
                continue;
            };
            match read(&path) {
                Some(Ok(recovered)) => offers.push(Offer {
                    recovered,
                    path,
                    lock_path,
                    _lock: lock,
                }),
                Some(Err(message)) => errors.push(message),
                // Saved or discarded by its window just now (the lock file may be one this
                // search just created).
                None => {
                    let _ = std::fs::remove_file(&lock_path);
                }
            }
        }
        remove_stale_locks(dir);
        (offers, errors)
    }

    /// Where the file is, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Recovery {
    /// A window closing with nothing to keep leaves no files; with edits kept (the process is
    /// ending without an answer about them) the file stays and its lock is freed.
    fn drop(&mut self) {
        if !self.path.exists() {
            let _ = std::fs::remove_file(&self.lock_path);
        }
    }
}

/// Writes this window's recovery file on a worker thread, so keeping a large map (0.5 s for
/// 8192 × 8192) never stalls the window. Jobs run in the order given; when several wait, only
/// the last write or removal is done. Dropping the keeper waits for the work given.
pub struct Keeper {
    jobs: Option<std::sync::mpsc::Sender<Job>>,
    worker: Option<std::thread::JoinHandle<()>>,
    failed: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

enum Job {
    /// Keep this work; then, if that worked, remove these offers.
    Store(Box<UnsavedWork>, Vec<Offer>),
    /// Nothing to keep (saved or discarded); remove these offers too.
    Clear(Vec<Offer>),
    /// Answer once everything before is done.
    Flush(std::sync::mpsc::Sender<()>),
}

impl Keeper {
    /// Starts the worker that owns `recovery`.
    pub fn start(recovery: Recovery) -> Self {
        let (jobs, received) = std::sync::mpsc::channel::<Job>();
        let failed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let report = failed.clone();
        let worker = std::thread::Builder::new()
            .name("navlab-recovery".into())
            .spawn(move || {
                while let Ok(first) = received.recv() {
                    // Fold what waits into one write or removal, keeping every offer to remove
                    // and every flush to answer after it.
                    let mut last = None;
                    let mut offers = Vec::new();
                    let mut flushes = Vec::new();
                    for job in std::iter::once(first).chain(received.try_iter()) {
                        match job {
                            Job::Store(work, done) => {
                                offers.extend(done);
                                last = Some(Some(work));
                            }
                            Job::Clear(done) => {
                                offers.extend(done);
                                last = Some(None);
                            }
                            Job::Flush(answer) => flushes.push(answer),
                        }
                    }
                    let kept = match last {
                        Some(Some(work)) => recovery.store_work(&work),
                        Some(None) => {
                            recovery.clear();
                            Ok(())
                        }
                        None => Ok(()),
                    };
                    match kept {
                        // The offers' edits are kept here now (or were saved or discarded).
                        Ok(()) => offers.into_iter().for_each(Offer::dismiss),
                        // Not worth a banner: the edits are still in the window, and the
                        // offers stay for the next start: their locks are freed now, before a
                        // flush is answered (dropped later, a start right after the flush
                        // could find them still held and skip them).
                        Err(message) => {
                            eprintln!(
                                "{}",
                                crate::input::printable(&format!(
                                    "navlab: could not keep unsaved edits: {message}"
                                ))
                            );
                            report.store(true, std::sync::atomic::Ordering::Relaxed);
                            drop(offers);
                        }
                    }
                    for answer in flushes {
                        let _ = answer.send(());
                    }
                }
            })
            .map_err(|e| {
                eprintln!(
                    "{}",
                    crate::input::printable(&format!(
                        "navlab: unsaved edits will not be kept: {e}"
                    ))
                )
            })
            .ok();
        Self {
            jobs: worker.as_ref().map(|_| jobs),
            worker,
            failed,
        }
    }

    /// Keeps a copy of `map` (opened from `file`), then removes `offers`, whose edits it holds.
    pub fn store(&self, map: TileMap, file: Option<PathBuf>, offers: Vec<Offer>) {
        let work = UnsavedWork {
            map: Some((map, file)),
            mesh: None,
        };
        self.store_work(work, offers);
    }

    /// Keeps a copy of `work`, then removes `offers`, whose edits it holds.
    pub fn store_work(&self, work: UnsavedWork, offers: Vec<Offer>) {
        self.send(Job::Store(Box::new(work), offers));
    }

    /// Removes the kept copy (saved or discarded) and `offers`.
    pub fn clear(&self, offers: Vec<Offer>) {
        self.send(Job::Clear(offers));
    }

    /// True once after a write failed (to try again).
    pub fn take_failure(&self) -> bool {
        self.failed
            .swap(false, std::sync::atomic::Ordering::Relaxed)
    }

    /// Waits until the work given so far is done.
    pub fn flush(&self) {
        let (answer, done) = std::sync::mpsc::channel();
        self.send(Job::Flush(answer));
        let _ = done.recv();
    }

    fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // The worker only stops when the keeper drops the sender.
            let _ = jobs.send(job);
        }
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// `unsaved-map.json` (navlab before per-window files) or `unsaved-map-ID.json`.
fn is_recovery_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.strip_prefix(PREFIX)
        .and_then(|rest| rest.strip_suffix(".json"))
        .is_some_and(|id| id.is_empty() || id.starts_with('-'))
}

/// Removes the lock files windows that are gone left without edits (a crash or a kill of a
/// window with nothing to keep). Only those over a minute old: a window starting this moment
/// has created its lock file but may not hold it yet.
fn remove_stale_locks(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|entry| entry.path()) {
        let is_lock = path.extension().is_some_and(|e| e == "lock")
            && is_recovery_file(&path.with_extension("json"));
        let old = std::fs::metadata(&path)
            .and_then(|m| m.modified())
            .is_ok_and(|modified| {
                // The file's own clock (a browser has no files to get here).
                modified
                    .elapsed()
                    .is_ok_and(|age| age >= std::time::Duration::from_secs(60))
            });
        if is_lock && old && !path.with_extension("json").exists() {
            // Free (its window is gone) and still without edits: nobody needs it.
            if let Ok(Some(_held)) = claim(&path)
                && !path.with_extension("json").exists()
            {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// Opens (creating if missing) and locks `lock_path` for this process: `None` when another
/// process holds it. On a filesystem that cannot lock files the file counts as free: windows
/// there cannot tell each other apart (as before per-window locks), but edits are still kept.
fn claim(lock_path: &Path) -> std::io::Result<Option<File>> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_path)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
            Ok(Some(file))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

/// The text of a recovery file keeping `work` (also what a browser keeps in its storage).
pub fn work_text(work: &UnsavedWork) -> Result<String, String> {
    let stored = Stored {
        file: work.map.as_ref().and_then(|(_, file)| file.clone()),
        map: work.map.as_ref().map(|(map, _)| to_navlab_json(map)),
        mesh: work.mesh.as_ref().map(|mesh| StoredMesh {
            file: mesh.file.clone(),
            name: mesh.name.clone(),
            edits: crate::navmesh::edit::saved::to_json(&mesh.editor, None),
        }),
    };
    serde_json::to_string(&stored).map_err(|e| e.to_string())
}

/// The edits in recovery file `path`, `None` if it is gone, an error naming it if it does not
/// read.
fn read(path: &Path) -> Option<Result<Recovered, String>> {
    let name = crate::input::shown(path);
    // A map as navlab JSON and a mesh as OBJ, inside the recovery file's own JSON (their
    // quotes escaped).
    let limit = 2 * (crate::input::MAX_MAP_BYTES + crate::input::MAX_MESH_BYTES);
    let bytes = match crate::input::read_file(path, limit, "a recovery file") {
        Ok(bytes) => bytes,
        Err(crate::input::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return None;
        }
        Err(e) => return Some(Err(format!("{name}: {e}"))),
    };
    Some(parse(&bytes, &name))
}

/// The edits in a recovery file's bytes (or what a browser kept), `name` naming them in errors.
pub fn parse(bytes: &[u8], name: &str) -> Result<Recovered, String> {
    serde_json::from_slice::<Stored>(bytes)
        .map_err(|e| format!("{name}: {}", crate::input::json_problem(&e)))
        .and_then(|stored| {
            let map = match &stored.map {
                Some(text) => {
                    Some(parse_navlab_json(text.as_bytes(), name).map_err(|e| e.to_string())?)
                }
                None => None,
            };
            let mesh = match stored.mesh {
                Some(mesh) => Some(RecoveredMesh {
                    editor: crate::navmesh::edit::saved::from_json(mesh.edits.as_bytes(), name)
                        .map_err(|e| e.to_string())?,
                    file: mesh.file,
                    name: crate::input::printable(&mesh.name),
                }),
                None => None,
            };
            if map.is_none() && mesh.is_none() {
                return Err(format!("{name}: holds no edits"));
            }
            Ok(Recovered {
                map,
                file: stored.file,
                mesh,
            })
        })
}

/// When edits not kept yet are written to the recovery file: [`KeepSchedule::AFTER`] seconds
/// after the first of them, however many follow (a long run of edits is kept as it goes, not
/// once it stops), so that at most that much work is lost to a crash.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeepSchedule {
    /// When the first edit not kept yet was seen.
    since: Option<f64>,
}

impl KeepSchedule {
    /// Seconds from the first edit not kept to its write.
    pub const AFTER: f64 = 0.5;

    /// Called each frame at time `now` (seconds), with whether there are edits not kept yet;
    /// true when they are due to be written now.
    pub fn due(&mut self, unkept: bool, now: f64) -> bool {
        match (unkept, self.since) {
            (false, _) => {
                self.since = None;
                false
            }
            (true, None) => {
                self.since = Some(now);
                false
            }
            (true, Some(since)) if now - since >= Self::AFTER => {
                self.since = None;
                true
            }
            (true, Some(_)) => false,
        }
    }

    /// Seconds until the edits waiting are due (`None`: none wait).
    pub fn wait(&self, now: f64) -> Option<f64> {
        self.since.map(|since| (since + Self::AFTER - now).max(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Edits are written half a second after the first of them, even while more keep coming,
    /// and the schedule forgets them once they are saved or discarded.
    #[test]
    fn edits_are_kept_half_a_second_after_the_first_whatever_follows() {
        let mut schedule = KeepSchedule::default();
        assert!(!schedule.due(false, 0.0));
        assert_eq!(schedule.wait(0.0), None);
        assert!(!schedule.due(true, 1.0), "the first edit starts the wait");
        let wait = schedule.wait(1.2).expect("waiting");
        assert!((wait - 0.3).abs() < 1e-9, "{wait}");
        // Edits every tenth of a second: still written at 1.5.
        for t in [1.1, 1.2, 1.3, 1.4] {
            assert!(!schedule.due(true, t), "{t}");
        }
        assert!(schedule.due(true, 1.5), "due half a second after the first");
        assert!(!schedule.due(true, 1.6), "the next edits wait again");
        assert!(schedule.due(true, 2.1));
        assert!(!schedule.due(true, 3.0));
        assert!(!schedule.due(false, 3.2), "saved meanwhile");
        assert!(!schedule.due(true, 3.3), "a new wait");
        assert!(schedule.due(true, 3.8));
    }
    /// The question names each kind of edit there is, and only those: links too.
    #[test]
    fn the_edits_offered_are_named_by_kind() {
        use crate::navmesh::edit::MeshEditor;
        use crate::navmesh::links::OffMeshLink;
        let mesh = crate::navmesh::obj::parse(
            crate::assets::ROOMS.obj,
            crate::assets::ROOMS.name,
            crate::navmesh::Plane::Xz,
        )
        .expect("parses");
        let mut editor = MeshEditor::new(std::sync::Arc::new(mesh));
        let link = OffMeshLink::new(
            crate::geom::Vec2::new(2.0, 0.5),
            crate::geom::Vec2::new(5.0, -5.5),
        );
        editor.add_links(vec![link.clone(), link]).expect("placed");
        let recovered = Recovered {
            map: None,
            file: None,
            mesh: Some(RecoveredMesh {
                editor,
                file: None,
                name: "rooms.obj (built in)".into(),
            }),
        };
        assert_eq!(
            recovered.describe(),
            "the mesh rooms.obj (built in) (2 off-mesh links)"
        );
    }

    use crate::grid::Tile;

    fn edited_map() -> TileMap {
        let mut map = TileMap::new(5, 3).expect("map");
        map.set((2, 1), Tile::Water);
        map.costs.water = 7.5;
        map
    }

    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn edits_are_offered_once_their_window_is_gone_and_not_before() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = dir.path().join("sub");
        let first = Recovery::in_dir(&folder).expect("first window");
        let map = edited_map();
        let file = dir.path().join("lake.map");
        first.store(&map, Some(&file)).expect("stored");

        // A second window while the first is open: nothing offered, nothing touched.
        let second = Recovery::in_dir(&folder).expect("second window");
        let (offers, errors) = second.take_offers();
        assert!(offers.is_empty() && errors.is_empty());
        assert!(first.path().is_file());
        second.clear();
        assert!(first.path().is_file(), "a window clears only its own file");

        // The first window dies with its edits kept: the next window is offered them, and
        // while it holds the offer no other window is.
        let kept = first.path().to_path_buf();
        drop(first);
        assert!(kept.is_file());
        let third = Recovery::in_dir(&folder).expect("third window");
        let (offers, errors) = third.take_offers();
        assert!(errors.is_empty(), "{errors:?}");
        let [offer] = <[Offer; 1]>::try_from(offers).expect("one offer");
        assert_eq!(offer.recovered.map, Some(map));
        assert_eq!(offer.recovered.file, Some(file));
        assert!(offer.recovered.mesh.is_none());
        let (others, _) = second.take_offers();
        assert!(others.is_empty(), "claimed by the third window");
        offer.dismiss();
        assert!(!kept.exists());

        // Windows that close with nothing kept leave no files behind.
        drop((second, third));
        assert!(files_in(&folder).is_empty(), "{:?}", files_in(&folder));
    }

    #[test]
    fn a_damaged_file_is_an_error_and_stays() {
        let dir = tempfile::tempdir().expect("temp dir");
        let damaged = dir.path().join("unsaved-map-1-2.json");
        std::fs::write(&damaged, "{ not json").expect("write");
        let window = Recovery::in_dir(dir.path()).expect("window");
        let (offers, errors) = window.take_offers();
        assert!(offers.is_empty());
        let [error] = errors.as_slice() else {
            panic!("one error: {errors:?}")
        };
        assert!(error.contains("unsaved-map-1-2.json"), "{error}");
        assert!(damaged.is_file());
    }

    #[test]
    fn the_single_file_of_earlier_versions_is_offered_too() {
        let dir = tempfile::tempdir().expect("temp dir");
        let earlier = Recovery::in_dir(dir.path()).expect("window");
        earlier.store(&edited_map(), None).expect("stored");
        let legacy = dir.path().join("unsaved-map.json");
        std::fs::rename(earlier.path(), &legacy).expect("renamed");
        drop(earlier);
        // Files that only look alike are left alone.
        std::fs::write(dir.path().join("unsaved-mapping.json"), "{}").expect("write");
        let window = Recovery::in_dir(dir.path()).expect("window");
        let (offers, errors) = window.take_offers();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(offers.len(), 1);
        assert_eq!(offers[0].recovered.map, Some(edited_map()));
    }

    #[test]
    fn the_keeper_removes_offers_only_once_their_edits_are_kept_and_writes_the_last_state() {
        let dir = tempfile::tempdir().expect("temp dir");
        let gone = Recovery::in_dir(dir.path()).expect("a window");
        gone.store(&edited_map(), None).expect("stored");
        let orphan = gone.path().to_path_buf();
        drop(gone);
        let window = Recovery::in_dir(dir.path()).expect("this window");
        let own = window.path().to_path_buf();
        let (offers, _) = window.take_offers();
        assert_eq!(offers.len(), 1);

        // Keeping fails (a folder where the file goes): the offer stays for the next start.
        std::fs::create_dir(&own).expect("in the way");
        let keeper = Keeper::start(window);
        keeper.store(edited_map(), None, offers);
        keeper.flush();
        assert!(keeper.take_failure());
        assert!(!keeper.take_failure(), "reported once");
        assert!(orphan.is_file());

        // It works: the offer goes, and of the jobs given at once the last state is kept.
        std::fs::remove_dir(&own).expect("out of the way");
        let (offers, _) = Recovery::in_dir(dir.path()).expect("w").take_offers();
        assert_eq!(offers.len(), 1, "offered again");
        let mut last = TileMap::new(2, 2).expect("map");
        last.set((1, 1), Tile::Sand);
        keeper.store(edited_map(), None, offers);
        keeper.clear(Vec::new());
        keeper.store(last.clone(), None, Vec::new());
        keeper.flush();
        assert!(!keeper.take_failure());
        assert!(!orphan.exists(), "its edits are kept here now");
        assert_eq!(read(&own).expect("kept").expect("reads").map, Some(last));
        keeper.clear(Vec::new());
        drop(keeper); // waits for the work given
        assert!(!own.exists());
    }

    #[test]
    fn lock_files_left_without_edits_are_removed_once_old() {
        let dir = tempfile::tempdir().expect("temp dir");
        let hour_ago = crate::clock::system_now() - std::time::Duration::from_secs(3600);
        let age = |path: &Path| {
            let file = File::options().write(true).open(path).expect("opens");
            file.set_modified(hour_ago).expect("aged");
        };
        // Left by a killed window with nothing kept (nobody holds it), an hour ago.
        let stale = dir.path().join("unsaved-map-1-2.lock");
        std::fs::write(&stale, "").expect("written");
        age(&stale);
        // Just created by a window starting now (not held yet).
        let starting = dir.path().join("unsaved-map-3-4.lock");
        std::fs::write(&starting, "").expect("written");
        // A window open for an hour, and another file that only looks alike.
        let open = Recovery::in_dir(dir.path()).expect("a window still open");
        age(&open.lock_path);
        let other = dir.path().join("unsaved-mapping.lock");
        std::fs::write(&other, "").expect("written");
        age(&other);

        let window = Recovery::in_dir(dir.path()).expect("a new window");
        let _ = window.take_offers();
        assert!(!stale.exists(), "removed");
        assert!(starting.exists(), "too young to tell");
        assert!(open.lock_path.exists() && window.lock_path.exists());
        assert!(other.exists());
    }
}
