//! The mesh shown, held once: its editor (the mesh as opened, the edits, the edited mesh, which
//! is the one shown) and what the canvas and the panels work out from it (the counts, the area
//! types present, the outline, the painting order, the last frame's fill). One constructor makes
//! them all, and makes them again whenever an edit changes the mesh, so none can be stale.

use super::fill::CachedFill;
use super::floors::DrawTriangle;
use crate::navmesh::edit::{EditError, MeshEditor};
use crate::navmesh::{MeshSummary, NavMesh};
use std::sync::{Arc, Mutex};

/// The mesh shown and what is worked out from it.
pub struct MeshView {
    editor: MeshEditor,
    derived: Derived,
}

/// What is worked out from the mesh shown.
struct Derived {
    summary: MeshSummary,
    /// The area types some triangle has (bit k for type k).
    areas_present: u32,
    /// Border and non-manifold edges, drawn even when the others are too dense to draw.
    outline_edges: Vec<usize>,
    /// The triangles in painting order (lowest floor first), with their corners.
    draw_order: Vec<DrawTriangle>,
    /// The canvas's fill of the last frame, for the next while nothing it shows changes.
    fill_cache: Mutex<Option<CachedFill>>,
}

impl Derived {
    fn of(mesh: &NavMesh) -> Self {
        Self {
            summary: mesh.summary(),
            areas_present: mesh.area_types_present(),
            outline_edges: super::canvas::outline_edges(mesh),
            draw_order: super::floors::draw_order(mesh),
            fill_cache: Mutex::new(None),
        }
    }
}

impl MeshView {
    /// The view of `editor`'s edited mesh, everything worked out from it.
    pub fn new(editor: MeshEditor) -> Self {
        Self {
            derived: Derived::of(editor.mesh()),
            editor,
        }
    }

    /// The mesh shown (shared with a query running on the worker).
    pub fn mesh(&self) -> &Arc<NavMesh> {
        self.editor.mesh()
    }

    /// The editor: the mesh as opened, its edits, the edited mesh.
    pub fn editor(&self) -> &MeshEditor {
        &self.editor
    }

    /// The mesh's counts.
    pub fn summary(&self) -> &MeshSummary {
        &self.derived.summary
    }

    /// The area types some triangle has (bit k for type k).
    pub fn areas_present(&self) -> u32 {
        self.derived.areas_present
    }

    /// Border and non-manifold edges.
    pub fn outline_edges(&self) -> &[usize] {
        &self.derived.outline_edges
    }

    /// The triangles in painting order.
    pub fn draw_order(&self) -> &[DrawTriangle] {
        &self.derived.draw_order
    }

    /// The canvas's fill of the last frame.
    pub(super) fn fill_cache(&self) -> &Mutex<Option<CachedFill>> {
        &self.derived.fill_cache
    }

    /// Starts an undo step for a drag or a paint stroke (see [`MeshEditor::begin_drag`]).
    pub fn begin_drag(&mut self) {
        self.editor.begin_drag();
    }

    /// Ends a drag (see [`MeshEditor::end_drag`]).
    pub fn end_drag(&mut self) {
        self.editor.end_drag();
    }

    /// Changes the mesh through its editor (in place, when a query on the worker does not hold
    /// it), then works out again what depends on it when its edits changed: true then.
    pub fn edit<R>(
        &mut self,
        edit: impl FnOnce(&mut MeshEditor) -> Result<R, EditError>,
    ) -> (Result<R, EditError>, bool) {
        let before = self.editor.edits().clone();
        let answer = edit(&mut self.editor);
        let changed = self.editor.edits() != &before;
        if changed {
            self.derived = Derived::of(self.editor.mesh());
        }
        (answer, changed)
    }
}
