//! Point location: which triangle holds a point, through a uniform grid of triangle ids (or,
//! where triangles are too uneven for a grid, an R-tree from [`rstar`]) and an exact orientation
//! test; points off the mesh snap to the nearest point on it through the R-tree.

use super::{NavMesh, TriId, Triangle};
use crate::geom::{Vec2, closest_point_on_triangle, signed_area2, triangle_contains};
use rstar::{AABB, PointDistance, RTree, RTreeObject};
use serde::Serialize;

/// Where a point lies on the mesh.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Location {
    /// The triangle that holds `point`.
    pub triangle: TriId,
    /// The point asked for.
    pub requested: Vec2,
    /// The point used: `requested` itself, or the nearest point on the mesh when it was off.
    pub point: Vec2,
    /// True when `requested` was off the mesh and was moved to `point`.
    pub snapped: bool,
}

/// One floor at a point of the plane: where stacked surfaces overlap (a multi-level mesh),
/// each holds the point at its own height.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Floor {
    /// A triangle of this floor holding the point.
    pub triangle: TriId,
    /// The floor's height at the point.
    pub height: f64,
}

/// The lowest and highest corner of a triangle's bounding box.
fn triangle_box([a, b, c]: &[Vec2; 3]) -> (Vec2, Vec2) {
    (
        Vec2::new(a.x.min(b.x).min(c.x), a.y.min(b.y).min(c.y)),
        Vec2::new(a.x.max(b.x).max(c.x), a.y.max(b.y).max(c.y)),
    )
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct IndexedTriangle {
    pub(crate) id: TriId,
    pub(crate) corners: [Vec2; 3],
}

impl RTreeObject for IndexedTriangle {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        let (lo, hi) = triangle_box(&self.corners);
        AABB::from_corners([lo.x, lo.y], [hi.x, hi.y])
    }
}

impl PointDistance for IndexedTriangle {
    fn distance_2(&self, point: &[f64; 2]) -> f64 {
        let p = Vec2::new(point[0], point[1]);
        let [a, b, c] = self.corners;
        closest_point_on_triangle(a, b, c, p).distance_squared(p)
    }

    fn contains_point(&self, point: &[f64; 2]) -> bool {
        let [a, b, c] = self.corners;
        triangle_contains(a, b, c, Vec2::new(point[0], point[1]))
    }
}

/// Spatial index over a mesh's triangles: the uniform grid answers which triangles hold a
/// point; the R-tree (for the nearest triangle to a point off the mesh, for the triangles in a
/// box, and for meshes too uneven for the grid) is built when first asked for.
#[derive(Debug, Clone)]
pub(crate) struct TriangleIndex {
    tree: std::sync::OnceLock<RTree<IndexedTriangle>>,
    pub(crate) grid: Option<CellGrid>,
}

impl TriangleIndex {
    pub(crate) fn new(vertices: &[Vec2], triangles: &[Triangle]) -> Self {
        let grid = CellGrid::new(vertices, triangles);
        let tree = std::sync::OnceLock::new();
        if grid.is_none() {
            let _ = tree.set(tree_of(vertices, triangles));
        }
        Self { tree, grid }
    }
}

/// The R-tree of `triangles`, loaded in bulk.
fn tree_of(vertices: &[Vec2], triangles: &[Triangle]) -> RTree<IndexedTriangle> {
    RTree::bulk_load(
        triangles
            .iter()
            .enumerate()
            .map(|(id, t)| IndexedTriangle {
                id,
                corners: t.vertices.map(|v| vertices[v]),
            })
            .collect(),
    )
}

impl NavMesh {
    /// The R-tree of the triangles, built when first asked for.
    pub(crate) fn tree(&self) -> &RTree<IndexedTriangle> {
        self.index
            .tree
            .get_or_init(|| tree_of(&self.vertices, &self.triangles))
    }

    /// The R-tree to change along with the triangles, when it has been built (otherwise it is
    /// built from the triangles as they are when first asked for).
    pub(crate) fn tree_if_built(&mut self) -> Option<&mut RTree<IndexedTriangle>> {
        self.index.tree.get_mut()
    }
}

/// A uniform grid over the mesh bounds, each cell listing the triangles whose bounding box
/// overlaps it (compressed: one offsets array, one ids array). About one cell per triangle, so a
/// query tests a handful of triangles.
#[derive(Debug, Clone)]
pub(crate) struct CellGrid {
    origin: Vec2,
    inverse_cell: f64,
    columns: usize,
    rows: usize,
    offsets: Vec<u32>,
    ids: Vec<u32>,
    corners: Vec<[Vec2; 3]>,
}

impl CellGrid {
    /// Builds the grid, or `None` when the triangles are so uneven in size that the grid would
    /// hold more than 16 entries per triangle (the R-tree then answers alone).
    fn new(vertices: &[Vec2], triangles: &[Triangle]) -> Option<Self> {
        let corners: Vec<[Vec2; 3]> = triangles
            .iter()
            .map(|t| t.vertices.map(|v| vertices[v]))
            .collect();
        let n = corners.len();
        if n == 0 || n >= u32::MAX as usize / 16 {
            return None;
        }
        let mut min = Vec2::new(f64::INFINITY, f64::INFINITY);
        let mut max = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for triangle in &corners {
            let (lo, hi) = triangle_box(triangle);
            min = Vec2::new(min.x.min(lo.x), min.y.min(lo.y));
            max = Vec2::new(max.x.max(hi.x), max.y.max(hi.y));
        }
        let (width, height) = (max.x - min.x, max.y - min.y);
        if !(width.is_finite() && height.is_finite()) || width <= 0.0 || height <= 0.0 {
            return None;
        }
        let cell = (width * height / n as f64).sqrt();
        let columns = ((width / cell).ceil() as usize).clamp(1, 1 << 15);
        let rows = ((height / cell).ceil() as usize).clamp(1, 1 << 15);
        let inverse_cell = 1.0 / cell;
        let cell_range = |lo: f64, hi: f64, origin: f64, count: usize| {
            let a = ((lo - origin) * inverse_cell).floor().max(0.0) as usize;
            let b = ((hi - origin) * inverse_cell).floor().max(0.0) as usize;
            (a.min(count - 1), b.min(count - 1))
        };
        let budget = 16 * n;
        let mut counts = vec![0u32; columns * rows + 1];
        let mut total = 0usize;
        // The cells a triangle's bounding box covers: its columns and its rows.
        let span = |triangle: &[Vec2; 3]| {
            let (lo, hi) = triangle_box(triangle);
            (
                cell_range(lo.x, hi.x, min.x, columns),
                cell_range(lo.y, hi.y, min.y, rows),
            )
        };
        for triangle in &corners {
            let ((x0, x1), (y0, y1)) = span(triangle);
            total += (x1 - x0 + 1) * (y1 - y0 + 1);
            if total > budget {
                return None;
            }
            for y in y0..=y1 {
                for x in x0..=x1 {
                    counts[y * columns + x + 1] += 1;
                }
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let offsets = counts;
        let mut fill = offsets.clone();
        let mut ids = vec![0u32; total];
        // Triangles go in id order, so each cell's list is sorted by id.
        for (id, triangle) in corners.iter().enumerate() {
            let ((x0, x1), (y0, y1)) = span(triangle);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let slot = &mut fill[y * columns + x];
                    ids[*slot as usize] = id as u32;
                    *slot += 1;
                }
            }
        }
        Some(Self {
            origin: min,
            inverse_cell,
            columns,
            rows,
            offsets,
            ids,
            corners,
        })
    }

    /// The lowest-id triangle holding `p`.
    fn triangle_at(&self, p: Vec2) -> Option<TriId> {
        self.triangles_at(p).next()
    }

    /// The triangles holding `p`, lowest id first.
    fn triangles_at(&self, p: Vec2) -> impl Iterator<Item = TriId> + '_ {
        let fx = (p.x - self.origin.x) * self.inverse_cell;
        let fy = (p.y - self.origin.y) * self.inverse_cell;
        // A point exactly on the far bounds belongs to the last cell.
        let cell = cell_index(fx, self.columns)
            .zip(cell_index(fy, self.rows))
            .map(|(x, y)| y * self.columns + x);
        let listed = cell.map_or(&[][..], |cell| {
            &self.ids[self.offsets[cell] as usize..self.offsets[cell + 1] as usize]
        });
        listed.iter().map(|&id| id as usize).filter(move |&id| {
            let [a, b, c] = self.corners[id];
            triangle_contains(a, b, c, p)
        })
    }
}

fn cell_index(f: f64, count: usize) -> Option<usize> {
    if f.is_nan() || f < 0.0 {
        return None;
    }
    let i = f as usize;
    if i < count {
        Some(i)
    } else if f <= count as f64 {
        Some(count - 1)
    } else {
        None
    }
}

/// Which of `floors` (topmost first) is nearest `height`: its index, the topmost without a
/// height; `None` when there is no floor.
pub fn nearest_floor(floors: &[Floor], height: Option<f64>) -> Option<usize> {
    match height.filter(|h| h.is_finite()) {
        Some(h) => (0..floors.len()).min_by(|&a, &b| {
            (floors[a].height - h)
                .abs()
                .total_cmp(&(floors[b].height - h).abs())
        }),
        None => (!floors.is_empty()).then_some(0),
    }
}

impl NavMesh {
    /// The triangle holding `p` (on its boundary counts), or `None` when `p` is off the mesh.
    /// Where several triangles hold it (a shared edge or vertex, or overlapping layers), the
    /// lowest id wins, so the answer is deterministic.
    pub fn triangle_at(&self, p: Vec2) -> Option<TriId> {
        if !p.is_finite() {
            return None;
        }
        if let Some(grid) = &self.index.grid {
            return grid.triangle_at(p);
        }
        self.tree()
            .locate_all_at_point(&[p.x, p.y])
            .map(|t| t.id)
            .min()
    }

    /// Every triangle holding `p`, lowest id first.
    pub fn triangles_at(&self, p: Vec2) -> Vec<TriId> {
        if let Some(grid) = &self.index.grid {
            return grid.triangles_at(p).collect();
        }
        let mut ids: Vec<TriId> = self
            .tree()
            .locate_all_at_point(&[p.x, p.y])
            .map(|t| t.id)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The height of triangle `tri` at `p` (its corners' heights interpolated over the plane;
    /// their mean for a triangle with no area), or `None` for an unknown triangle.
    pub fn height_at(&self, tri: TriId, p: Vec2) -> Option<f64> {
        let t = self.triangles.get(tri)?;
        let [a, b, c] = t.vertices.map(|v| self.vertices[v]);
        let [ha, hb, hc] = t
            .vertices
            .map(|v| self.heights.get(v).copied().unwrap_or(0.0));
        let area = signed_area2(a, b, c);
        let height = if area.abs() > 0.0 {
            let (wa, wb) = (signed_area2(p, b, c) / area, signed_area2(a, p, c) / area);
            wa * ha + wb * hb + (1.0 - wa - wb) * hc
        } else {
            (ha + hb + hc) / 3.0
        };
        Some(if height.is_finite() {
            height
        } else {
            (ha + hb + hc) / 3.0
        })
    }

    /// The floors holding `p`, topmost first: one entry per surface (the triangles that meet
    /// at `p` on one surface, at one height, count once, the lowest id standing for them).
    pub fn floors_at(&self, p: Vec2) -> Vec<Floor> {
        let mut floors: Vec<Floor> = self
            .triangles_at(p)
            .into_iter()
            .filter_map(|triangle| {
                Some(Floor {
                    triangle,
                    height: self.height_at(triangle, p)?,
                })
            })
            .collect();
        floors.sort_by(|a, b| {
            b.height
                .total_cmp(&a.height)
                .then(a.triangle.cmp(&b.triangle))
        });
        // Heights of one surface at one point agree to rounding; floors are farther apart.
        let [low, high] = self.height_span();
        let same = 1e-9 * (high - low).abs().max(1.0);
        let mut kept: Vec<Floor> = Vec::with_capacity(floors.len());
        for floor in floors {
            match kept.last_mut() {
                Some(last) if (last.height - floor.height).abs() <= same => {
                    last.triangle = last.triangle.min(floor.triangle);
                }
                _ => kept.push(floor),
            }
        }
        kept
    }

    /// Locates `p` on the floor whose height there is nearest `height` (the topmost without
    /// one), snapping to the nearest point on the mesh when `p` is off it, as
    /// [`locate`](Self::locate) does. `None` only for a non-finite point.
    pub fn locate_near_height(&self, p: Vec2, height: Option<f64>) -> Option<Location> {
        let floors = self.floors_at(p);
        match nearest_floor(&floors, height).and_then(|k| floors.get(k)) {
            Some(floor) => Some(Location {
                triangle: floor.triangle,
                requested: p,
                point: p,
                snapped: false,
            }),
            None => self.locate(p),
        }
    }

    /// The lowest and highest vertex height (both 0 for a mesh with no vertices); worked out
    /// once, as [`floors_at`](Self::floors_at) asks for it at every point it is given.
    pub fn height_span(&self) -> [f64; 2] {
        *self.height_span.get_or_init(|| {
            let low = self.heights.iter().copied().fold(f64::INFINITY, f64::min);
            let high = self
                .heights
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
            if low <= high { [low, high] } else { [0.0, 0.0] }
        })
    }

    /// Locates `p`, snapping it to the nearest point on the mesh when it is off. Returns `None`
    /// only for a non-finite point.
    pub fn locate(&self, p: Vec2) -> Option<Location> {
        if !p.is_finite() {
            return None;
        }
        if let Some(triangle) = self.triangle_at(p) {
            return Some(Location {
                triangle,
                requested: p,
                point: p,
                snapped: false,
            });
        }
        let nearest = self.tree().nearest_neighbor(&[p.x, p.y])?;
        let [a, b, c] = nearest.corners;
        let closest = closest_point_on_triangle(a, b, c, p);
        // The closest point lies on the triangle's boundary, where rounding can put it a hair
        // outside. Prefer it as is (in this triangle or the one across the edge); otherwise
        // pull it towards the centroid by the smallest step the exact test accepts.
        let (triangle, point) = if triangle_contains(a, b, c, closest) {
            (nearest.id, closest)
        } else if let Some(other) = self.triangle_at(closest) {
            (other, closest)
        } else {
            let centroid = self.triangles[nearest.id].centroid;
            let candidates = [1e-15, 1e-12, 1e-9, 1e-6, 1e-3]
                .into_iter()
                .map(|t| closest.lerp(centroid, t))
                .chain([a, b, c, centroid]);
            let pulled = candidates
                .filter(|&q| triangle_contains(a, b, c, q))
                .min_by(|u, v| u.distance_squared(p).total_cmp(&v.distance_squared(p)))
                .unwrap_or(a);
            (nearest.id, pulled)
        };
        Some(Location {
            triangle,
            requested: p,
            point,
            snapped: true,
        })
    }

    /// The method of “A* on a navigation mesh”, kept as a baseline for benchmarks: scan every triangle and accept `p`
    /// when the areas of the three sub-triangles it makes sum to the triangle's area within 0.1 %.
    pub fn triangle_at_linear_scan(&self, p: Vec2) -> Option<TriId> {
        (0..self.triangles.len()).find(|&t| {
            let [a, b, c] = self.corners(t);
            let parts = (signed_area2(p, a, b).abs()
                + signed_area2(p, b, c).abs()
                + signed_area2(p, c, a).abs())
                / 2.0;
            parts <= self.triangles[t].area * 1.001
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::geom::Vec2;
    use crate::navmesh::{BuildOptions, NavMesh, Plane};

    /// A fan of long thin triangles overwhelms a uniform grid; the R-tree must answer instead,
    /// with the same results.
    #[test]
    fn uneven_fans_fall_back_to_the_rtree() {
        let n = 400;
        let mut positions = vec![[0.0, 0.0, 0.0]];
        for i in 0..=n {
            let angle = std::f64::consts::FRAC_PI_2 * i as f64 / n as f64;
            positions.push([1000.0 * angle.cos(), 1000.0 * angle.sin(), 0.0]);
        }
        let polygons: Vec<Vec<usize>> = (1..=n).map(|i| vec![0, i, i + 1]).collect();
        let options = BuildOptions {
            plane: Plane::Xy,
            ..BuildOptions::default()
        };
        let mesh = NavMesh::from_polygons(&positions, &polygons, options).expect("builds");
        assert!(mesh.index.grid.is_none());
        for &(x, y) in &[(10.0, 10.0), (500.0, 1.0), (1.0, 900.0), (800.0, 800.0)] {
            let p = Vec2::new(x, y);
            let brute = (0..mesh.triangles().len()).find(|&t| {
                let [a, b, c] = mesh.corners(t);
                crate::geom::triangle_contains(a, b, c, p)
            });
            assert_eq!(mesh.triangle_at(p), brute);
        }
    }

    #[test]
    fn points_on_the_far_bounds_are_found() {
        let positions = [
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 0.0, 2.0],
            [0.0, 0.0, 2.0],
        ];
        let mesh = NavMesh::from_polygons(&positions, &[vec![0, 1, 2, 3]], BuildOptions::default())
            .expect("builds");
        for (x, y) in [(2.0, 2.0), (2.0, 0.0), (0.0, 2.0), (0.0, 0.0), (2.0, 1.0)] {
            assert!(mesh.triangle_at(Vec2::new(x, y)).is_some(), "({x}, {y})");
        }
        assert!(mesh.triangle_at(Vec2::new(2.0 + 1e-12, 1.0)).is_none());
    }
}
