//! Editing a navigation mesh: obstacles, doors and area shapes cut into it, triangles painted
//! with area types, every edit undoable. Only the triangles a change touches are rebuilt.

mod cut;
pub mod saved;
pub mod shape;

pub use cut::CutError;
pub use shape::{Shape, ShapeError, ShapeKind};

use super::areas::AreaId;
use super::links::{LinkError, OffMeshLink};
use super::patch::Corner;
use super::{NavMesh, TriId};
use crate::geom::Vec2;
use cut::{Pieces, cut_cluster};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// The most shapes one mesh may carry.
pub const MAX_SHAPES: usize = 1000;

/// What the user has done to a mesh: the shapes on it and the area type of each of its own
/// triangles. The edited mesh is a function of this and the unedited mesh.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Edits {
    /// The shapes, in the order drawn.
    pub shapes: Vec<Shape>,
    /// Triangles of the unedited mesh painted with an area type other than their own:
    /// `(triangle, area)`, sorted by triangle.
    #[serde(default)]
    pub painted: Vec<(TriId, AreaId)>,
    /// Off-mesh links added (after the unedited mesh's own, numbered on from them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<OffMeshLink>,
}

impl Edits {
    /// True when nothing was changed.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty() && self.painted.is_empty() && self.links.is_empty()
    }
}

/// Why an edit was refused (the mesh is unchanged).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EditError {
    /// The shape is not a simple polygon.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// The surface under it could not be cut.
    #[error(transparent)]
    Cut(#[from] CutError),
    /// No shape with this index.
    #[error("there is no shape {0}")]
    NoSuchShape(usize),
    /// More than [`MAX_SHAPES`].
    #[error("a mesh may carry at most {MAX_SHAPES} shapes")]
    TooManyShapes,
    /// An area type the mesh does not have.
    #[error("there is no area type {0}")]
    NoSuchArea(AreaId),
    /// A painted triangle the unedited mesh does not have.
    #[error("there is no triangle {0} to paint")]
    NoSuchTriangle(TriId),
    /// A floor triangle the unedited mesh does not have.
    #[error("the shape's floor, triangle {0}, is not on this mesh")]
    NoSuchFloor(TriId),
    /// A link that cannot be searched, or too many.
    #[error(transparent)]
    Link(#[from] LinkError),
    /// No link with this number among the edits'.
    #[error("there is no link {0}")]
    NoSuchLink(usize),
}

/// A cluster of triangles of the unedited mesh that shapes touch, and the triangles that stand
/// for it in the edited mesh.
#[derive(Debug, Clone)]
struct Cluster {
    /// Triangles of the unedited mesh, sorted.
    base: Vec<TriId>,
    /// What it was cut with: the shapes over it and the area types of its triangles.
    key: ClusterKey,
    /// Ids of its new triangles in the edited mesh.
    slots: Vec<TriId>,
}

#[derive(Debug, Clone, PartialEq)]
struct ClusterKey {
    shapes: Vec<Shape>,
    areas: Vec<AreaId>,
}

/// Where a triangle of the edited mesh comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// A triangle of the unedited mesh, unchanged.
    Base(TriId),
    /// One of the new triangles of the cluster with this index.
    Cut(usize),
}

/// A mesh being edited: the unedited mesh, the edits, the edited mesh, and the undo history.
#[derive(Debug, Clone)]
pub struct MeshEditor {
    base: Arc<NavMesh>,
    edits: Edits,
    mesh: Arc<NavMesh>,
    /// The triangles each shape touches, by shape index.
    touched: Vec<Vec<TriId>>,
    clusters: Vec<Cluster>,
    origin: Vec<Origin>,
    /// For each triangle of the unedited mesh, its id in the edited one when it is there
    /// unchanged.
    slot_of_base: Vec<Option<TriId>>,
    undo: Vec<Edits>,
    redo: Vec<Edits>,
}

impl MeshEditor {
    /// Starts editing `base` with no edits.
    pub fn new(base: Arc<NavMesh>) -> Self {
        let n = base.triangles.len();
        Self {
            mesh: Arc::clone(&base),
            base,
            edits: Edits::default(),
            touched: Vec::new(),
            clusters: Vec::new(),
            origin: (0..n).map(Origin::Base).collect(),
            slot_of_base: (0..n).map(Some).collect(),
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// Starts editing `base` with `edits` already made (from a file); not undoable.
    pub fn with_edits(base: Arc<NavMesh>, edits: Edits) -> Result<Self, EditError> {
        let mut editor = Self::new(base);
        editor.apply(edits)?;
        Ok(editor)
    }

    /// The edited mesh.
    pub fn mesh(&self) -> &Arc<NavMesh> {
        &self.mesh
    }

    /// The mesh before any edit.
    pub fn base(&self) -> &Arc<NavMesh> {
        &self.base
    }

    /// The edits made.
    pub fn edits(&self) -> &Edits {
        &self.edits
    }

    /// The shapes on the mesh.
    pub fn shapes(&self) -> &[Shape] {
        &self.edits.shapes
    }

    /// True when an edit can be undone / redone.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True when an undone edit can be made again.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Adds a shape; returns its index.
    pub fn add_shape(&mut self, shape: Shape) -> Result<usize, EditError> {
        let mut edits = self.edits.clone();
        if edits.shapes.len() >= MAX_SHAPES {
            return Err(EditError::TooManyShapes);
        }
        edits.shapes.push(shape);
        self.commit(edits)?;
        Ok(self.edits.shapes.len() - 1)
    }

    /// Adds several shapes as one edit (one undo step, one cut of what they touch); returns
    /// their indices. The count is checked before any work (see `apply`).
    pub fn add_shapes(&mut self, shapes: Vec<Shape>) -> Result<std::ops::Range<usize>, EditError> {
        let first = self.edits.shapes.len();
        let mut edits = self.edits.clone();
        edits.shapes.extend(shapes);
        self.commit(edits)?;
        Ok(first..self.edits.shapes.len())
    }

    /// Replaces shape `index` (a move, a resize, a door opened or closed).
    pub fn replace_shape(&mut self, index: usize, shape: Shape) -> Result<(), EditError> {
        let mut edits = self.edits.clone();
        let slot = edits
            .shapes
            .get_mut(index)
            .ok_or(EditError::NoSuchShape(index))?;
        *slot = shape;
        self.commit(edits)
    }

    /// Changes shape `index` without a new undo step (the steps of one drag: the drag's first
    /// change made the step).
    pub fn drag_shape(&mut self, index: usize, shape: Shape) -> Result<(), EditError> {
        self.drag_shapes(&[(index, shape)])
    }

    /// Changes several shapes at once without a new undo step (shapes dragged together).
    pub fn drag_shapes(&mut self, changes: &[(usize, Shape)]) -> Result<(), EditError> {
        let mut edits = self.edits.clone();
        for (index, shape) in changes {
            let slot = edits
                .shapes
                .get_mut(*index)
                .ok_or(EditError::NoSuchShape(*index))?;
            *slot = shape.clone();
        }
        self.apply(edits)
    }

    /// The topmost shape (the last drawn) whose outline holds `p`, or whose outline passes
    /// within `tolerance` of it.
    pub fn shape_at(&self, p: Vec2, tolerance: f64) -> Option<usize> {
        self.edits
            .shapes
            .iter()
            .rposition(|shape| shape.contains(p) || shape.distance_to_outline(p) <= tolerance)
    }

    /// Removes the shapes at `indices`.
    pub fn remove_shapes(&mut self, indices: &[usize]) -> Result<(), EditError> {
        let mut edits = self.edits.clone();
        if let Some(&bad) = indices.iter().find(|&&i| i >= edits.shapes.len()) {
            return Err(EditError::NoSuchShape(bad));
        }
        let mut k = 0;
        edits.shapes.retain(|_| {
            k += 1;
            !indices.contains(&(k - 1))
        });
        self.commit(edits)
    }

    /// The links added by the edits (the mesh's own come first in [`NavMesh::links`]).
    pub fn links(&self) -> &[OffMeshLink] {
        &self.edits.links
    }

    /// How many links the unedited mesh has: the number of the first added link on the
    /// edited mesh.
    pub fn base_link_count(&self) -> usize {
        self.base.links.len()
    }

    /// Adds a link; returns its number among the edits' links.
    pub fn add_link(&mut self, link: OffMeshLink) -> Result<usize, EditError> {
        let mut edits = self.edits.clone();
        edits.links.push(link);
        self.commit(edits)?;
        Ok(self.edits.links.len() - 1)
    }

    /// Adds several links as one edit (one undo step); returns their numbers among the
    /// edits' links.
    pub fn add_links(
        &mut self,
        links: Vec<OffMeshLink>,
    ) -> Result<std::ops::Range<usize>, EditError> {
        let first = self.edits.links.len();
        let mut edits = self.edits.clone();
        edits.links.extend(links);
        self.commit(edits)?;
        Ok(first..self.edits.links.len())
    }

    /// Replaces link `index` of the edits' (its ends moved, its kind, cost or way changed).
    pub fn replace_link(&mut self, index: usize, link: OffMeshLink) -> Result<(), EditError> {
        let edits = self.with_link(index, link)?;
        self.commit(edits)
    }

    /// Changes link `index` without a new undo step (the steps of a drag of one of its ends).
    pub fn drag_link(&mut self, index: usize, link: OffMeshLink) -> Result<(), EditError> {
        let edits = self.with_link(index, link)?;
        self.apply(edits)
    }

    fn with_link(&self, index: usize, link: OffMeshLink) -> Result<Edits, EditError> {
        let mut edits = self.edits.clone();
        let slot = edits
            .links
            .get_mut(index)
            .ok_or(EditError::NoSuchLink(index))?;
        *slot = link;
        Ok(edits)
    }

    /// Removes link `index` of the edits'.
    pub fn remove_link(&mut self, index: usize) -> Result<(), EditError> {
        let mut edits = self.edits.clone();
        if index >= edits.links.len() {
            return Err(EditError::NoSuchLink(index));
        }
        edits.links.remove(index);
        self.commit(edits)
    }

    /// Opens a closed door or closes an open one.
    pub fn toggle_door(&mut self, index: usize) -> Result<(), EditError> {
        let mut shape = self
            .edits
            .shapes
            .get(index)
            .cloned()
            .ok_or(EditError::NoSuchShape(index))?;
        if let ShapeKind::Door { open } = shape.kind {
            shape.kind = ShapeKind::Door { open: !open };
        }
        self.replace_shape(index, shape)
    }

    /// Paints the triangles of the unedited mesh under `points` with `area` (one undo step).
    /// Returns how many triangles changed.
    pub fn paint(&mut self, points: &[Vec2], area: AreaId) -> Result<usize, EditError> {
        let (edits, changed) = self.painted(points, area)?;
        if changed > 0 {
            self.commit(edits)?;
        }
        Ok(changed)
    }

    /// [`paint`](Self::paint) without a new undo step: a stroke of paint after
    /// [`begin_drag`](Self::begin_drag).
    pub fn paint_stroke(&mut self, points: &[Vec2], area: AreaId) -> Result<usize, EditError> {
        let (edits, changed) = self.painted(points, area)?;
        if changed > 0 {
            self.apply(edits)?;
        }
        Ok(changed)
    }

    /// The edits with the triangles under `points` painted `area`, and how many changed.
    fn painted(&self, points: &[Vec2], area: AreaId) -> Result<(Edits, usize), EditError> {
        if usize::from(area) >= self.base.area_names.len() {
            return Err(EditError::NoSuchArea(area));
        }
        let mut edits = self.edits.clone();
        let mut changed = 0;
        for &p in points {
            let Some(t) = self.base_triangle_under(p) else {
                continue;
            };
            let own = self.base.area_type(t);
            let entry = edits.painted.binary_search_by_key(&t, |&(x, _)| x);
            let current = match entry {
                Ok(k) => edits.painted[k].1,
                Err(_) => own,
            };
            if current == area {
                continue;
            }
            changed += 1;
            match (entry, area == own) {
                (Ok(k), true) => {
                    edits.painted.remove(k);
                }
                (Ok(k), false) => edits.painted[k].1 = area,
                (Err(k), false) => edits.painted.insert(k, (t, area)),
                (Err(_), true) => {}
            }
        }
        Ok((edits, changed))
    }

    /// Undoes the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.step_through_history(true)
    }

    /// Makes the last undone edit again; false when there is none.
    pub fn redo(&mut self) -> bool {
        self.step_through_history(false)
    }

    /// Takes the edits from the top of the undo (`back`) or redo history, the edits shown going
    /// onto the other one.
    fn step_through_history(&mut self, back: bool) -> bool {
        let from = if back { &mut self.undo } else { &mut self.redo };
        let Some(edits) = from.pop() else {
            return false;
        };
        let now = self.edits.clone();
        if self.apply(edits).is_err() {
            return false;
        }
        let to = if back { &mut self.redo } else { &mut self.undo };
        to.push(now);
        true
    }

    /// Starts an undo step for changes that follow through [`drag_shape`](Self::drag_shape),
    /// [`drag_shapes`](Self::drag_shapes) or [`paint_stroke`](Self::paint_stroke).
    pub fn begin_drag(&mut self) {
        self.undo.push(self.edits.clone());
        self.redo.clear();
    }

    /// Ends a drag: a drag that changed nothing leaves no undo step.
    pub fn end_drag(&mut self) {
        if self.undo.last() == Some(&self.edits) {
            self.undo.pop();
        }
    }

    /// The triangle of the unedited mesh under `p`: on the floor of the edited triangle there,
    /// when the edited mesh has one.
    pub fn base_triangle_under(&self, p: Vec2) -> Option<TriId> {
        let edited = self.mesh.triangle_at(p)?;
        match self.origin.get(edited)? {
            Origin::Base(t) => Some(*t),
            Origin::Cut(c) => {
                let cluster = self.clusters.get(*c)?;
                self.base
                    .triangles_at(p)
                    .into_iter()
                    .find(|t| cluster.base.binary_search(t).is_ok())
            }
        }
    }

    /// Replaces the edits with `edits` as one undo step.
    fn commit(&mut self, edits: Edits) -> Result<(), EditError> {
        let before = self.edits.clone();
        self.apply(edits)?;
        self.undo.push(before);
        self.redo.clear();
        Ok(())
    }

    /// Makes the edited mesh the one `edits` describe, rebuilding only the clusters that
    /// changed. On an error nothing changes.
    fn apply(&mut self, edits: Edits) -> Result<(), EditError> {
        if edits.shapes.len() > MAX_SHAPES {
            return Err(EditError::TooManyShapes);
        }
        // The edited mesh's links: the unedited mesh's, then the edits'.
        let mut all_links = self.base.links.clone();
        all_links.extend(edits.links.iter().cloned());
        crate::navmesh::links::check_links(&all_links)?;
        let links = edits.links;
        // A shape already on the mesh was checked when it came; the others are checked now.
        let shapes: Vec<Shape> = edits
            .shapes
            .iter()
            .map(|s| match self.edits.shapes.contains(s) {
                true => Ok(s.clone()),
                false => s.checked(),
            })
            .collect::<Result<_, _>>()?;
        let names = self.base.area_names.len();
        for shape in &shapes {
            if let ShapeKind::Area { area } = shape.kind
                && usize::from(area) >= names
            {
                return Err(EditError::NoSuchArea(area));
            }
            if let Some(f) = shape.floor
                && f >= self.base.triangles.len()
            {
                return Err(EditError::NoSuchFloor(f));
            }
        }
        // Paint as a file may give it: in any order, repeated, out of range.
        let mut painted = edits.painted;
        painted.sort_by_key(|&(t, _)| t);
        painted.dedup_by_key(|&mut (t, _)| t);
        for &(t, area) in &painted {
            if t >= self.base.triangles.len() {
                return Err(EditError::NoSuchTriangle(t));
            }
            if usize::from(area) >= names {
                return Err(EditError::NoSuchArea(area));
            }
        }
        painted.retain(|&(t, area)| self.base.area_types.get(t) != Some(&area));
        let edits = Edits {
            shapes,
            painted,
            links,
        };
        if edits.shapes.is_empty() && edits.painted.is_empty() {
            *self = Self {
                undo: std::mem::take(&mut self.undo),
                redo: std::mem::take(&mut self.redo),
                ..Self::new(Arc::clone(&self.base))
            };
            if !edits.links.is_empty() {
                Arc::make_mut(&mut self.mesh).set_links(all_links)?;
            }
            self.edits = edits;
            return Ok(());
        }

        let base = &self.base;
        // Every step below works on what the shapes touch and what they touched before, never
        // on the whole mesh: a drag on a big mesh costs what the shape covers.
        let area_of = |t: TriId| match edits.painted.binary_search_by_key(&t, |&(x, _)| x) {
            Ok(k) => edits.painted[k].1,
            Err(_) => base.area_types.get(t).copied().unwrap_or(0),
        };
        // Reuse the touched sets of shapes that did not change.
        let touched: Vec<Vec<TriId>> = edits
            .shapes
            .iter()
            .map(|s| {
                self.edits
                    .shapes
                    .iter()
                    .position(|old| old == s)
                    .and_then(|k| self.touched.get(k).cloned())
                    .unwrap_or_else(|| touched_by(base, s))
            })
            .collect();

        // Clusters: triangles touched by any shape, connected across edges. `member` holds
        // every touched triangle, with its cluster once it has one.
        const UNGROUPED: usize = usize::MAX;
        let mut member: HashMap<TriId, usize> =
            touched.iter().flatten().map(|&t| (t, UNGROUPED)).collect();
        let mut shapes_of: Vec<Vec<usize>> = Vec::new();
        let mut groups: Vec<Vec<TriId>> = Vec::new();
        for list in &touched {
            for &seed in list {
                if member.get(&seed) != Some(&UNGROUPED) {
                    continue;
                }
                let g = groups.len();
                let mut group = vec![seed];
                member.insert(seed, g);
                let mut k = 0;
                while k < group.len() {
                    let t = group[k];
                    k += 1;
                    for &(n, _) in base.neighbours(t) {
                        if let Some(slot) = member.get_mut(&n)
                            && *slot == UNGROUPED
                        {
                            *slot = g;
                            group.push(n);
                        }
                    }
                }
                group.sort_unstable();
                groups.push(group);
                shapes_of.push(Vec::new());
            }
        }
        for (s, list) in touched.iter().enumerate() {
            for &t in list {
                if let Some(shapes) = member.get(&t).and_then(|&g| shapes_of.get_mut(g))
                    && shapes.last() != Some(&s)
                {
                    shapes.push(s);
                }
            }
        }
        for list in &mut shapes_of {
            list.sort_unstable();
            list.dedup();
        }

        // Cut the clusters that are new or changed; keep the others as they are.
        let mut next_clusters: Vec<Cluster> = Vec::with_capacity(groups.len());
        let mut fresh: Vec<(usize, Pieces)> = Vec::new();
        let mut kept_old: Vec<bool> = vec![false; self.clusters.len()];
        // Old cluster indices → new, for the origins of the triangles kept.
        let mut renumber_cluster = vec![usize::MAX; self.clusters.len()];
        for (group, shape_ids) in groups.into_iter().zip(shapes_of) {
            let key = ClusterKey {
                shapes: shape_ids.iter().map(|&s| edits.shapes[s].clone()).collect(),
                areas: group.iter().map(|&t| area_of(t)).collect(),
            };
            let old = self
                .clusters
                .iter()
                .enumerate()
                .position(|(k, c)| !kept_old[k] && c.base == group && c.key == key);
            match old {
                Some(k) => {
                    kept_old[k] = true;
                    renumber_cluster[k] = next_clusters.len();
                    next_clusters.push(Cluster {
                        base: group,
                        key,
                        slots: self.clusters[k].slots.clone(),
                    });
                }
                None => {
                    let refs: Vec<&Shape> = key.shapes.iter().collect();
                    let pieces = cut_cluster(base, &group, &key.areas, &refs)?;
                    fresh.push((next_clusters.len(), pieces));
                    next_clusters.push(Cluster {
                        base: group,
                        key,
                        slots: Vec::new(),
                    });
                }
            }
        }

        // What leaves the edited mesh: triangles of clusters that went, and unchanged
        // triangles that are now in a cluster. What comes back: triangles of the old clusters
        // that no cluster holds any more, and the new clusters' triangles.
        let mut removed: Vec<TriId> = Vec::new();
        for (k, cluster) in self.clusters.iter().enumerate() {
            if !kept_old[k] {
                removed.extend(&cluster.slots);
            }
        }
        let mut clustered: Vec<TriId> = member.keys().copied().collect();
        clustered.sort_unstable();
        for &t in &clustered {
            if let Some(&Some(slot)) = self.slot_of_base.get(t) {
                removed.push(slot);
            }
        }
        let mut restored: Vec<TriId> = self
            .clusters
            .iter()
            .flat_map(|c| c.base.iter().copied())
            .filter(|t| !member.contains_key(t))
            .collect();
        restored.sort_unstable();
        let mut vertices: Vec<(Vec2, f64)> = Vec::new();
        let mut added: Vec<([Corner; 3], AreaId)> = Vec::new();
        let mut added_origin: Vec<Origin> = Vec::new();
        for &t in &restored {
            let corners = base.triangles[t].vertices.map(Corner::Old);
            added.push((corners, area_of(t)));
            added_origin.push(Origin::Base(t));
        }
        for (c, pieces) in &fresh {
            let offset = vertices.len();
            vertices.extend(&pieces.vertices);
            for &(corners, area) in &pieces.triangles {
                let corners = corners.map(|x| match x {
                    Corner::New(k) => Corner::New(offset + k),
                    old => old,
                });
                added.push((corners, area));
                added_origin.push(Origin::Cut(*c));
            }
        }

        let mesh = Arc::make_mut(&mut self.mesh);
        let renumbering = mesh.replace_triangles(&removed, &vertices, &added);

        // Book-keeping: where each edited triangle comes from, and where each triangle of the
        // unedited mesh is in the edited one. Kept clusters get their new indices first; the
        // triangles added and moved then overwrite their ids' entries.
        let origin = &mut self.origin;
        let slot_of_base = &mut self.slot_of_base;
        for (k, cluster) in self.clusters.iter().enumerate() {
            if let Some(&c) = renumber_cluster.get(k).filter(|&&c| c != usize::MAX) {
                for &slot in &cluster.slots {
                    if let Some(o) = origin.get_mut(slot) {
                        *o = Origin::Cut(c);
                    }
                }
            }
        }
        for &t in &clustered {
            if let Some(slot) = slot_of_base.get_mut(t) {
                *slot = None;
            }
        }
        for (&id, &o) in renumbering.added.iter().zip(&added_origin) {
            if id >= origin.len() {
                origin.resize(id + 1, Origin::Base(0));
            }
            origin[id] = o;
        }
        let mut moved: HashMap<TriId, TriId> = HashMap::new();
        for &(from, to) in &renumbering.moved {
            origin[to] = origin[from];
            moved.insert(from, to);
        }
        origin.truncate(mesh.triangles.len());
        let placed = renumbering
            .added
            .iter()
            .chain(renumbering.moved.iter().map(|(_, to)| to));
        for &id in placed {
            if let Some(Origin::Base(t)) = origin.get(id).copied()
                && let Some(slot) = slot_of_base.get_mut(t)
            {
                *slot = Some(id);
            }
        }
        for (&id, o) in renumbering.added.iter().zip(&added_origin) {
            if let Origin::Cut(c) = *o
                && let Some(cluster) = next_clusters.get_mut(c)
            {
                cluster.slots.push(id);
            }
        }
        for cluster in &mut next_clusters {
            for slot in &mut cluster.slots {
                *slot = moved.get(slot).copied().unwrap_or(*slot);
            }
            cluster.slots.sort_unstable();
        }
        debug_assert!(next_clusters.iter().enumerate().all(|(c, cluster)| {
            cluster
                .slots
                .iter()
                .all(|&s| origin.get(s) == Some(&Origin::Cut(c)))
        }));
        // Painted areas of unchanged triangles whose paint changed (cluster triangles carry
        // theirs from the cut, restored ones from `added`).
        let mut repainted: Vec<TriId> = self
            .edits
            .painted
            .iter()
            .chain(&edits.painted)
            .map(|&(t, _)| t)
            .collect();
        repainted.sort_unstable();
        repainted.dedup();
        for t in repainted {
            if let Some(&Some(slot)) = slot_of_base.get(t)
                && let Some(x) = mesh.area_types.get_mut(slot)
            {
                *x = area_of(t);
            }
        }
        mesh.forget_derived();
        mesh.set_links(all_links)?;
        self.clusters = next_clusters;
        self.touched = touched;
        self.edits = edits;
        Ok(())
    }
}

/// The triangles of `mesh` that `shape` touches (boundary included): on the shape's floor only,
/// when it has one (the touched triangles connected to it).
fn touched_by(mesh: &NavMesh, shape: &Shape) -> Vec<TriId> {
    let ring = shape.corners();
    let (lo, hi) = shape.bounds();
    let envelope = rstar::AABB::from_corners([lo.x, lo.y], [hi.x, hi.y]);
    let mut touched: Vec<TriId> = mesh
        .tree()
        .locate_in_envelope_intersecting(&envelope)
        .filter(|item| shape::polygon_touches_triangle(&ring, item.corners))
        .map(|item| item.id)
        .collect();
    touched.sort_unstable();
    let Some(floor) = shape.floor else {
        return touched;
    };
    if touched.binary_search(&floor).is_err() {
        return touched;
    }
    // Only what connects to the floor triangle through touched triangles.
    let mut reached = vec![floor];
    let mut seen = std::collections::HashSet::from([floor]);
    let mut k = 0;
    while k < reached.len() {
        let t = reached[k];
        k += 1;
        for &(n, _) in mesh.neighbours(t) {
            if touched.binary_search(&n).is_ok() && seen.insert(n) {
                reached.push(n);
            }
        }
    }
    reached.sort_unstable();
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::generate::{GridMeshSpec, jittered_grid};
    use rand::{Rng, SeedableRng};

    /// The mesh's triangles as corner coordinates (in a fixed order) with their area types,
    /// sorted: the mesh whatever ids its triangles have.
    fn canonical(mesh: &NavMesh) -> Vec<([[u64; 2]; 3], AreaId)> {
        let mut all: Vec<_> = (0..mesh.triangles.len())
            .map(|t| {
                let mut corners = mesh.corners(t).map(|p| [p.x.to_bits(), p.y.to_bits()]);
                corners.sort_unstable();
                (corners, mesh.area_type(t))
            })
            .collect();
        all.sort_unstable();
        all
    }

    /// What the editor keeps about where each triangle comes from agrees with the mesh.
    fn assert_book_kept(editor: &MeshEditor, what: &str) {
        let (mesh, base) = (&editor.mesh, &editor.base);
        assert_eq!(editor.origin.len(), mesh.triangles.len(), "{what}: origins");
        let painted = |t: TriId| match editor.edits.painted.binary_search_by_key(&t, |p| p.0) {
            Ok(k) => editor.edits.painted[k].1,
            Err(_) => base.area_type(t),
        };
        for (id, origin) in editor.origin.iter().enumerate() {
            match *origin {
                Origin::Base(t) => {
                    assert_eq!(editor.slot_of_base[t], Some(id), "{what}: slot of {t}");
                    assert_eq!(mesh.corners(id), base.corners(t), "{what}: triangle {id}");
                    assert_eq!(mesh.area_type(id), painted(t), "{what}: area of {id}");
                }
                Origin::Cut(c) => assert!(
                    editor.clusters[c].slots.binary_search(&id).is_ok(),
                    "{what}: {id} in cluster {c}"
                ),
            }
        }
        for (t, slot) in editor.slot_of_base.iter().enumerate() {
            if slot.is_none() {
                assert!(
                    editor
                        .clusters
                        .iter()
                        .any(|c| c.base.binary_search(&t).is_ok()),
                    "{what}: {t} is gone but in no cluster"
                );
            }
        }
        let slots: usize = editor.clusters.iter().map(|c| c.slots.len()).sum();
        let kept = editor.slot_of_base.iter().flatten().count();
        assert_eq!(
            slots + kept,
            mesh.triangles.len(),
            "{what}: every triangle once"
        );
    }

    /// Random edits of small meshes — shapes added, dragged, removed, doors opened and closed,
    /// triangles painted, steps undone and made again — leave the mesh that making the same
    /// edits at once on the unedited mesh gives, and the editor's record of where each
    /// triangle comes from true.
    #[test]
    fn an_edited_mesh_is_the_one_its_edits_make_at_once() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        for seed in 0..12 {
            let mesh = jittered_grid(GridMeshSpec {
                columns: 12 + seed as usize % 4,
                rows: 9 + seed as usize % 5,
                jitter: 0.2,
                hole_chance: 0.3,
                seed,
            });
            let b = mesh.bounds();
            let base = Arc::new(mesh);
            let mut editor = MeshEditor::new(Arc::clone(&base));
            let point = |rng: &mut rand_pcg::Pcg64| {
                Vec2::new(
                    rng.random_range(b.min.x..b.max.x),
                    rng.random_range(b.min.y..b.max.y),
                )
            };
            for step in 0..30 {
                let what = format!("mesh {seed}, step {step}");
                let a = point(&mut rng);
                let corner = a + Vec2::new(rng.random_range(0.3..3.0), rng.random_range(0.3..3.0));
                let kind = match rng.random_range(0..3) {
                    0 => ShapeKind::Obstacle,
                    1 => ShapeKind::Door { open: false },
                    _ => ShapeKind::Area { area: 2 },
                };
                let count = editor.shapes().len();
                match rng.random_range(0..8) {
                    0 if count > 0 => {
                        let k = rng.random_range(0..count);
                        let offset = (point(&mut rng) - point(&mut rng)) * 0.2;
                        let moved = editor.shapes()[k].moved(offset);
                        let _ = editor.drag_shape(k, moved);
                    }
                    1 if count > 0 => {
                        let _ = editor.toggle_door(rng.random_range(0..count));
                    }
                    2 if count > 0 => {
                        let _ = editor.remove_shapes(&[rng.random_range(0..count)]);
                    }
                    3 => {
                        let points: Vec<Vec2> = (0..6).map(|_| point(&mut rng)).collect();
                        let _ = editor.paint(&points, rng.random_range(0..3));
                    }
                    4 => {
                        editor.undo();
                    }
                    5 => {
                        editor.redo();
                    }
                    _ => {
                        if let Ok(shape) = Shape::rectangle(a, corner, kind) {
                            let _ = editor.add_shape(shape);
                        }
                    }
                }
                assert_book_kept(&editor, &what);
                let at_once = MeshEditor::with_edits(Arc::clone(&base), editor.edits.clone())
                    .expect("the same edits apply at once");
                assert_eq!(canonical(&editor.mesh), canonical(&at_once.mesh), "{what}");
                assert_eq!(
                    editor.mesh.island_count, at_once.mesh.island_count,
                    "{what}"
                );
            }
        }
    }
}
