//! A tile map being edited: the map, the file it belongs to, whether it has unsaved edits, and
//! its history of strokes for undo and redo. The views that show a map (the editor, the
//! pursuit) share one document and follow its revision.

use super::map::{Cell, TileMap};
use super::tiles::{Tile, TileCosts};
use std::path::PathBuf;

/// One tile changed by an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TileChange {
    cell: Cell,
    before: Tile,
    after: Tile,
}

/// A tile map with its file and its edit history.
#[derive(Debug, Clone)]
pub struct MapDocument {
    /// The map. Change it through the methods below, which count revisions and keep the
    /// history; a change made directly is seen by nobody until the next one.
    pub map: TileMap,
    /// Where it was loaded from or saved to (`None`: never saved).
    pub file: Option<PathBuf>,
    /// Edits not saved yet.
    pub dirty: bool,
    /// How many edits the undo history held when the map was last saved (or opened): undoing or
    /// redoing back to it leaves nothing unsaved. `None` when that state cannot come back.
    saved_depth: Option<usize>,
    /// The costs changed since the map was saved (they are not in the history).
    costs_changed: bool,
    revision: u64,
    maps: u64,
    undo: Vec<Vec<TileChange>>,
    redo: Vec<Vec<TileChange>>,
    stroke: Vec<TileChange>,
}

impl MapDocument {
    /// `map`, from `file`, with nothing to undo.
    pub fn new(map: TileMap, file: Option<PathBuf>) -> Self {
        Self {
            map,
            file,
            dirty: false,
            saved_depth: Some(0),
            costs_changed: false,
            revision: 0,
            maps: 0,
            undo: Vec::new(),
            redo: Vec::new(),
            stroke: Vec::new(),
        }
    }

    /// The map's name for titles and messages: its file's name, or "untitled map" before it
    /// is saved.
    pub fn name(&self) -> String {
        match self.file.as_deref() {
            Some(file) => file.file_name().map_or_else(
                || crate::input::shown(file),
                |name| crate::input::shown(std::path::Path::new(name)),
            ),
            None => "untitled map".to_string(),
        }
    }

    /// Counts every change of the map: edits, undo, redo, costs, a new map. A view that shows
    /// the map compares it with the revision it last drew.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Counts the maps this document has held (opened, new, recovered): a view starts over
    /// when it changes, and follows edits while it does not.
    pub fn maps(&self) -> u64 {
        self.maps
    }

    /// Replaces the map (opened, new, recovered), forgetting its history; unsaved edits are
    /// the caller's to keep or drop first.
    pub fn replace(&mut self, map: TileMap, file: Option<PathBuf>) {
        self.map = map;
        self.file = file;
        self.dirty = false;
        self.saved_depth = Some(0);
        self.costs_changed = false;
        self.undo.clear();
        self.redo.clear();
        self.stroke.clear();
        self.revision += 1;
        self.maps += 1;
    }

    /// The map was written to `file`: it has no unsaved edits now.
    pub fn saved_as(&mut self, file: PathBuf) {
        self.end_stroke();
        self.file = Some(file);
        self.dirty = false;
        self.saved_depth = Some(self.undo.len());
        self.costs_changed = false;
    }

    /// The map holds edits that were never saved (recovered after a crash): no undo or redo
    /// brings back a saved state.
    pub fn mark_unsaved(&mut self) {
        self.dirty = true;
        self.saved_depth = None;
    }

    /// After undo or redo: unsaved unless back where the map was saved.
    fn dirty_after_history(&mut self) {
        self.dirty = self.costs_changed || self.saved_depth != Some(self.undo.len());
    }

    /// Paints one tile as part of the current stroke (one undo step, ended by
    /// [`end_stroke`](Self::end_stroke)); returns true when the tile changed.
    pub fn paint_tile(&mut self, cell: Cell, tile: Tile) -> bool {
        match self.map.get(cell) {
            Some(before) if before != tile => {
                self.map.set(cell, tile);
                self.revision += 1;
                self.stroke.push(TileChange {
                    cell,
                    before,
                    after: tile,
                });
                true
            }
            _ => false,
        }
    }

    /// True while a stroke is being painted (tiles changed since the last
    /// [`end_stroke`](Self::end_stroke)).
    pub fn is_painting(&self) -> bool {
        !self.stroke.is_empty()
    }

    /// Ends the current stroke: it becomes one undo step; returns true when it changed
    /// anything.
    pub fn end_stroke(&mut self) -> bool {
        if self.stroke.is_empty() {
            return false;
        }
        // A saved state among the edits undone goes with them.
        if self.saved_depth.is_some_and(|d| d > self.undo.len()) {
            self.saved_depth = None;
        }
        self.undo.push(std::mem::take(&mut self.stroke));
        self.redo.clear();
        self.dirty = true;
        true
    }

    /// Paints one tile as a complete edit (one undo step); returns true when it changed.
    pub fn paint(&mut self, cell: Cell, tile: Tile) -> bool {
        self.paint_tile(cell, tile);
        self.end_stroke()
    }

    /// Fills the rectangle with corners `a` and `b` (both included) with `tile`, as one edit;
    /// returns true when it changed anything.
    pub fn fill_rectangle(&mut self, a: Cell, b: Cell, tile: Tile) -> bool {
        for y in a.1.min(b.1)..=a.1.max(b.1) {
            for x in a.0.min(b.0)..=a.0.max(b.0) {
                self.paint_tile((x, y), tile);
            }
        }
        self.end_stroke()
    }

    /// Fills the region of `cell` (see [`TileMap::region_of`]) with `tile`, as one edit;
    /// returns true when it changed anything.
    pub fn fill(&mut self, cell: Cell, tile: Tile) -> bool {
        for c in self.map.region_of(cell) {
            self.paint_tile(c, tile);
        }
        self.end_stroke()
    }

    /// Sets the tile costs (valid ones only); returns true when they changed. Costs are not
    /// part of the undo history.
    pub fn set_costs(&mut self, costs: TileCosts) -> bool {
        if costs == self.map.costs || !costs.are_valid() {
            return false;
        }
        self.map.costs = costs;
        self.revision += 1;
        self.dirty = true;
        self.costs_changed = true;
        true
    }

    /// Undoes the last edit (ending a stroke in progress first); returns true when there was
    /// one.
    pub fn undo(&mut self) -> bool {
        self.end_stroke();
        let Some(edit) = self.undo.pop() else {
            return false;
        };
        for change in edit.iter().rev() {
            self.map.set(change.cell, change.before);
        }
        self.revision += 1;
        self.redo.push(edit);
        self.dirty_after_history();
        true
    }

    /// Redoes the last edit undone; returns true when there was one.
    pub fn redo(&mut self) -> bool {
        let Some(edit) = self.redo.pop() else {
            return false;
        };
        for change in &edit {
            self.map.set(change.cell, change.after);
        }
        self.revision += 1;
        self.undo.push(edit);
        self.dirty_after_history();
        true
    }

    /// True when there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty() || !self.stroke.is_empty()
    }

    /// True when there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document() -> MapDocument {
        MapDocument::new(TileMap::new(4, 3).expect("map"), None)
    }

    #[test]
    fn a_stroke_is_one_edit_that_undo_and_redo_take_back_and_give_again() {
        let mut doc = document();
        let before = doc.map.clone();
        assert!(doc.paint_tile((0, 0), Tile::Wall));
        assert!(doc.paint_tile((1, 0), Tile::Wall));
        assert!(!doc.paint_tile((1, 0), Tile::Wall), "no change");
        assert!(!doc.paint_tile((9, 9), Tile::Wall), "off the map");
        assert!(doc.is_painting() && !doc.dirty);
        assert!(doc.end_stroke());
        assert!(doc.dirty && !doc.is_painting());
        let painted = doc.map.clone();
        assert!(doc.undo());
        assert_eq!(doc.map, before);
        assert!(!doc.undo(), "one edit");
        assert!(doc.redo());
        assert_eq!(doc.map, painted);
        assert!(!doc.redo());
    }

    #[test]
    fn every_change_counts_a_revision_and_a_new_map_counts_a_map() {
        let mut doc = document();
        let mut last = doc.revision();
        let mut changed = |doc: &MapDocument| {
            let now = doc.revision();
            let moved = now > last;
            last = now;
            moved
        };
        doc.paint((2, 2), Tile::Sand);
        assert!(changed(&doc));
        doc.fill_rectangle((0, 0), (1, 1), Tile::Water);
        assert!(changed(&doc));
        doc.fill((3, 0), Tile::Grass);
        assert!(!changed(&doc), "grass on grass changes nothing");
        let costs = TileCosts {
            sand: 4.5,
            ..doc.map.costs
        };
        assert!(doc.set_costs(costs));
        assert!(changed(&doc));
        assert!(
            !doc.set_costs(TileCosts {
                sand: -1.0,
                ..costs
            }),
            "invalid"
        );
        doc.undo();
        assert!(changed(&doc));
        let maps = doc.maps();
        doc.replace(TileMap::new(2, 2).expect("map"), Some("b.map".into()));
        assert!(changed(&doc));
        assert_eq!(doc.maps(), maps + 1);
        assert!(!doc.dirty && !doc.can_undo() && !doc.can_redo());
    }

    #[test]
    fn undo_and_redo_back_to_the_saved_state_leave_nothing_unsaved() {
        let mut doc = document();
        doc.paint((0, 0), Tile::Wall);
        assert!(doc.dirty);
        assert!(doc.undo());
        assert!(!doc.dirty, "back to the map as opened");
        assert!(doc.redo());
        assert!(doc.dirty);
        doc.saved_as("a.map".into());
        doc.paint((1, 0), Tile::Sand);
        assert!(doc.undo());
        assert!(!doc.dirty, "back to the map as saved");
        assert!(doc.undo());
        assert!(doc.dirty, "before the save");
        // A new edit here drops the saved state from the history: it cannot come back.
        doc.paint((2, 0), Tile::Water);
        assert!(doc.undo());
        assert!(doc.dirty);
        // Costs are not in the history: changed, the map stays unsaved whatever is undone.
        doc.saved_as("a.map".into());
        let costs = TileCosts {
            sand: 4.5,
            ..doc.map.costs
        };
        doc.paint((3, 0), Tile::Sand);
        assert!(doc.set_costs(costs));
        assert!(doc.undo());
        assert!(doc.dirty);
        // Recovered edits were never saved.
        doc.replace(TileMap::new(2, 2).expect("map"), None);
        doc.mark_unsaved();
        doc.paint((0, 0), Tile::Wall);
        assert!(doc.undo());
        assert!(doc.dirty);
    }

    #[test]
    fn a_map_is_named_by_its_file_or_untitled() {
        let mut doc = document();
        assert_eq!(doc.name(), "untitled map");
        doc.saved_as("maps/arena.map".into());
        assert_eq!(doc.name(), "arena.map");
    }

    #[test]
    fn a_rectangle_and_a_region_fill_as_one_edit_each() {
        let mut doc = document();
        assert!(doc.fill_rectangle((2, 1), (0, 0), Tile::Wall));
        let walls = doc.map.tiles().iter().filter(|&&t| t == Tile::Wall).count();
        assert_eq!(walls, 6);
        // The grass left is one region: filled at once.
        assert!(doc.fill((3, 2), Tile::Sand));
        assert!(doc.map.tiles().iter().all(|&t| t != Tile::Grass));
        assert!(doc.undo());
        assert_eq!(
            doc.map
                .tiles()
                .iter()
                .filter(|&&t| t == Tile::Grass)
                .count(),
            6
        );
    }
}
