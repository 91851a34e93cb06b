//! What each stage of a level's build made, kept for drawing the stages and for answering why a
//! spot has no navmesh: the triangles' walkable marks, every span of the heightfield with its
//! walkable flag after each filter, the compact field's spans (erosion, distance, region), the
//! contours raw and simplified, the polygons with their islands and the detail triangles, all in
//! world units where they are shapes, in cells where they are the grid's.

use super::stages::Stage;
use crate::navmesh::RawMesh;

/// No neighbour across a side of a compact span.
pub const NO_NEIGHBOUR: u32 = u32::MAX;

/// The grid's steps for Recast's four directions (0: −x, 1: +z, 2: +x, 3: −z).
pub const DIRECTIONS: [(i32, i32); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// One span of the heightfield: solid from `min` to `max` (in cell heights above the grid's
/// floor), its top walkable or not after rasterising and after each filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordedSpan {
    /// The bottom, in cell heights.
    pub min: u16,
    /// The top, in cell heights: the floor an agent would stand on.
    pub max: u16,
    /// Walkable after rasterising, after the low hanging obstacles filter, after the ledge
    /// filter and after the low ceiling filter.
    pub walkable: [bool; 4],
}

/// One span of the compact field: a walkable floor and the room above it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordedCompactSpan {
    /// The floor, in cell heights.
    pub y: u16,
    /// The room above it, in cell heights (255: open).
    pub clearance: u8,
    /// Its neighbours in Recast's four directions, as indices into the compact spans
    /// ([`NO_NEIGHBOUR`] where the agent cannot step across).
    pub neighbours: [u32; 4],
    /// Still walkable after the erosion by the agent's radius.
    pub kept_by_erosion: bool,
    /// The distance field's value (two per cell to the nearest border, blurred).
    pub distance: u16,
    /// Its region after the watershed (0: none, dropped or eroded).
    pub region: u16,
}

/// A contour: the outline of one region, in world units.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedContour {
    /// The region it outlines.
    pub region: u16,
    /// Its corners (x, y, z).
    pub points: Vec<[f64; 3]>,
}

/// What a build made, stage by stage.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BuildRecord {
    /// The grid's corner: the level's smallest x, y and z.
    pub origin: [f64; 3],
    /// The cell size (x and z).
    pub cell_size: f64,
    /// The cell height (y).
    pub cell_height: f64,
    /// Cells across (x) and deep (z).
    pub grid: [u16; 2],
    /// The level's vertices (x, y, z).
    pub positions: Vec<[f64; 3]>,
    /// The level's triangles, as the build read them.
    pub triangles: Vec<[u32; 3]>,
    /// Each triangle walkable (not steeper than the agent's slope, and facing up).
    pub walkable_triangles: Vec<bool>,
    /// The heightfield's spans, column by column (x fastest), each column bottom up.
    pub spans: Vec<RecordedSpan>,
    /// Where each column's spans start in `spans`, one more than there are cells.
    pub span_columns: Vec<u32>,
    /// The compact field's spans, column by column, each column bottom up.
    pub compact: Vec<RecordedCompactSpan>,
    /// Where each column's compact spans start, one more than there are cells.
    pub compact_columns: Vec<u32>,
    /// The largest value of the distance field.
    pub max_distance: u16,
    /// The contours as traced along the cells.
    pub raw_contours: Vec<RecordedContour>,
    /// The contours simplified.
    pub contours: Vec<RecordedContour>,
    /// The polygons, in world units.
    pub polygons: RawMesh,
    /// The island of each polygon (polygons sharing an edge are on one island).
    pub polygon_islands: Vec<usize>,
    /// The detail mesh's triangles, in world units.
    pub detail: Vec<[[f64; 3]; 3]>,
    /// The same as a mesh with shared corners: the navmesh to search.
    pub detail_mesh: RawMesh,
    /// Milliseconds each stage took, in [`Stage::ALL`]'s order.
    pub milliseconds: Vec<f64>,
}

impl BuildRecord {
    /// The cell (x, z) that holds the world point (x, z), if it is on the grid.
    pub fn cell_at(&self, x: f64, z: f64) -> Option<(u16, u16)> {
        let cx = ((x - self.origin[0]) / self.cell_size).floor();
        let cz = ((z - self.origin[2]) / self.cell_size).floor();
        let inside = |value: f64, cells: u16| value >= 0.0 && value < f64::from(cells);
        (inside(cx, self.grid[0]) && inside(cz, self.grid[1])).then_some((cx as u16, cz as u16))
    }

    /// The index of cell (x, z) in the columns.
    pub fn cell_index(&self, x: u16, z: u16) -> usize {
        usize::from(z) * usize::from(self.grid[0]) + usize::from(x)
    }

    /// The heightfield's spans of cell (x, z), bottom up, with their indices.
    pub fn spans_of(&self, x: u16, z: u16) -> impl Iterator<Item = (usize, &RecordedSpan)> {
        self.column(&self.span_columns, self.cell_index(x, z))
            .filter_map(|i| self.spans.get(i).map(|span| (i, span)))
    }

    /// The compact spans of cell (x, z), bottom up, with their indices.
    pub fn compact_of(
        &self,
        x: u16,
        z: u16,
    ) -> impl Iterator<Item = (usize, &RecordedCompactSpan)> {
        self.column(&self.compact_columns, self.cell_index(x, z))
            .filter_map(|i| self.compact.get(i).map(|span| (i, span)))
    }

    /// The cell (x, z) of a compact span.
    pub fn compact_cell(&self, index: usize) -> Option<(u16, u16)> {
        let cell = self
            .compact_columns
            .partition_point(|&start| start as usize <= index)
            .checked_sub(1)?;
        let width = usize::from(self.grid[0]).max(1);
        Some(((cell % width) as u16, (cell / width) as u16))
    }

    fn column(&self, starts: &[u32], cell: usize) -> std::ops::Range<usize> {
        match (starts.get(cell), starts.get(cell + 1)) {
            (Some(&start), Some(&end)) => start as usize..end as usize,
            _ => 0..0,
        }
    }

    /// A height in cell heights as a world y.
    pub fn world_y(&self, cells: u16) -> f64 {
        self.origin[1] + f64::from(cells) * self.cell_height
    }

    /// The world rectangle of cell (x, z): its smallest and largest x and z.
    pub fn cell_rect(&self, x: u16, z: u16) -> [f64; 4] {
        let x0 = self.origin[0] + f64::from(x) * self.cell_size;
        let z0 = self.origin[2] + f64::from(z) * self.cell_size;
        [x0, z0, x0 + self.cell_size, z0 + self.cell_size]
    }

    /// How long a stage took, in milliseconds.
    pub fn stage_milliseconds(&self, stage: Stage) -> f64 {
        self.milliseconds
            .get(stage.index())
            .copied()
            .unwrap_or_default()
    }

    /// The heightfield's spans walkable after `filter` (0: rasterised, 1–3: after each filter).
    pub fn walkable_spans(&self, filter: usize) -> usize {
        self.spans
            .iter()
            .filter(|span| span.walkable.get(filter).copied().unwrap_or(false))
            .count()
    }

    /// How many islands the polygons make.
    pub fn island_count(&self) -> usize {
        self.polygon_islands
            .iter()
            .max()
            .map_or(0, |&last| last + 1)
    }
}

/// The island of each polygon: polygons that share an edge are on one island; islands are
/// numbered by their first polygon.
pub(super) fn polygon_islands(mesh: &RawMesh) -> Vec<usize> {
    let count = mesh.polygons.len();
    let mut parent: Vec<usize> = (0..count).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut edges: std::collections::HashMap<(usize, usize), usize> = Default::default();
    for (p, polygon) in mesh.polygons.iter().enumerate() {
        for (i, &a) in polygon.iter().enumerate() {
            let b = polygon[(i + 1) % polygon.len()];
            match edges.entry((a.min(b), a.max(b))) {
                std::collections::hash_map::Entry::Occupied(other) => {
                    let (ra, rb) = (root(&mut parent, p), root(&mut parent, *other.get()));
                    parent[ra.max(rb)] = ra.min(rb);
                }
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(p);
                }
            }
        }
    }
    let mut numbers = vec![usize::MAX; count];
    let mut islands = Vec::with_capacity(count);
    let mut next = 0;
    for p in 0..count {
        let r = root(&mut parent, p);
        if numbers[r] == usize::MAX {
            numbers[r] = next;
            next += 1;
        }
        islands.push(numbers[r]);
    }
    islands
}
