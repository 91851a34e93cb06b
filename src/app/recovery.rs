//! Unsaved tile-map edits kept in a recovery file while the window is open, and offered back
//! at the next start when navlab ended without saving or discarding them (a crash, a kill).

use crate::grid::TileMap;
use crate::grid::movingai::{parse_navlab_json, to_navlab_json};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The recovery file of one installation.
#[derive(Debug, Clone)]
pub struct Recovery {
    path: PathBuf,
}

/// What the recovery file holds.
#[derive(Serialize, Deserialize)]
struct Stored {
    /// The map's own file, if it had one.
    file: Option<PathBuf>,
    /// The map, as navlab's `.json` (tiles and costs).
    map: String,
}

/// Edits found in the recovery file at start.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovered {
    /// The map with the edits.
    pub map: TileMap,
    /// The file it had been opened from or saved to, if any.
    pub file: Option<PathBuf>,
}

impl Recovery {
    /// The recovery file at `path`.
    pub fn at(path: PathBuf) -> Self {
        Self { path }
    }

    /// The recovery file beside eframe's own settings, where the platform keeps app data.
    pub fn in_app_data() -> Option<Self> {
        eframe::storage_dir("navlab").map(|dir| Self::at(dir.join("unsaved-map.json")))
    }

    /// Keeps `map` (opened from `file`) until it is saved or discarded; atomically, so a crash
    /// while writing leaves the previous copy.
    pub fn store(&self, map: &TileMap, file: Option<&Path>) -> Result<(), String> {
        let stored = Stored {
            file: file.map(Path::to_path_buf),
            map: to_navlab_json(map),
        };
        let text = serde_json::to_string(&stored).map_err(|e| e.to_string())?;
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        crate::atomic::write_atomically(&self.path, text.as_bytes())
    }

    /// Forgets the kept edits (they were saved or discarded).
    pub fn clear(&self) {
        // Nothing there is the usual case; any other failure leaves a stale offer, no harm.
        let _ = std::fs::remove_file(&self.path);
    }

    /// The kept edits, if the last session left some; a file that does not read is an error
    /// (and stays, for the user to look at).
    pub fn take_offer(&self) -> Option<Result<Recovered, String>> {
        let bytes = std::fs::read(&self.path).ok()?;
        let name = self.path.display().to_string();
        let read = serde_json::from_slice::<Stored>(&bytes)
            .map_err(|e| format!("{name}: {e}"))
            .and_then(|stored| {
                parse_navlab_json(stored.map.as_bytes(), &name)
                    .map(|map| Recovered {
                        map,
                        file: stored.file,
                    })
                    .map_err(|e| e.to_string())
            });
        Some(read)
    }

    /// Where the file is, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;

    #[test]
    fn stored_edits_come_back_until_cleared() {
        let dir = tempfile::tempdir().expect("temp dir");
        let recovery = Recovery::at(dir.path().join("sub").join("unsaved-map.json"));
        assert!(recovery.take_offer().is_none(), "nothing kept yet");
        let mut map = TileMap::new(5, 3).expect("map");
        map.set((2, 1), Tile::Water);
        map.costs.water = 7.5;
        let file = dir.path().join("lake.map");
        recovery.store(&map, Some(&file)).expect("stored");
        let offer = recovery.take_offer().expect("offered").expect("reads");
        assert_eq!(
            offer,
            Recovered {
                map,
                file: Some(file)
            }
        );
        recovery.clear();
        assert!(recovery.take_offer().is_none());
        // A damaged file is an error, not a panic nor silence.
        std::fs::write(recovery.path(), "{ not json").expect("write");
        assert!(recovery.take_offer().expect("offered").is_err());
    }
}
