//! A navigation mesh: triangles in the plane with shared edges (an edge keeps a *list* of
//! triangles, so stairs passing over a floor work), adjacency, islands and a spatial index.

pub mod adjacency;
pub mod anyangle;
pub mod areas;
mod build;
pub mod clearance;
pub mod diagnose;
pub mod edit;
pub mod faces;
pub mod fans;
pub(crate) mod floor_walls;
pub mod from_map;
pub mod gap;
pub mod generate;
mod island_update;
pub mod link_choice;
pub mod links;
pub mod locate;
mod merge;
pub mod obj;
mod patch;
mod path_query;
pub mod polyanya;
mod polyanya_cone;
pub mod polyanya_events;
pub mod polyanya_lines;
mod polyanya_write;
pub mod quality;
pub mod query;
pub mod radius;
pub mod scenarios;
pub mod timeline;
mod vertex_pairs;
pub mod walk;
pub mod walkable;
pub mod widest;

pub use build::{BuildError, BuildOptions, BuildReport};
pub use locate::{Floor, Location};
pub use path_query::Query;
pub use query::{
    CostModel, EdgeState, EdgeStates, Path, PathStatus, QueryOptions, explain_search_step,
    find_path, find_path_located, find_path_with_states,
};

use crate::geom::Vec2;
use serde::{Deserialize, Serialize};
use std::path::Path as FsPath;

/// Index of a triangle in [`NavMesh::triangles`].
pub type TriId = usize;
/// Index of a vertex in [`NavMesh::vertices`].
pub type VertId = usize;
/// Index of an edge in [`NavMesh::edges`].
pub type EdgeId = usize;

/// Which world plane the mesh lies in; the other coordinate is its height.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Plane {
    /// Ground plane of Y-up 3D files (Blender, most engines): plane coordinates (x, z), height y.
    #[default]
    Xz,
    /// Meshes authored in 2D: plane coordinates (x, y), height z.
    Xy,
}

impl Plane {
    /// Splits a 3D position into its plane point and its height.
    pub fn project(self, [x, y, z]: [f64; 3]) -> (Vec2, f64) {
        match self {
            Plane::Xz => (Vec2::new(x, z), y),
            Plane::Xy => (Vec2::new(x, y), z),
        }
    }

    /// The 3D position of a plane point at a height: the inverse of [`project`](Self::project).
    pub fn unproject(self, p: Vec2, height: f64) -> [f64; 3] {
        match self {
            Plane::Xz => [p.x, height, p.y],
            Plane::Xy => [p.x, p.y, height],
        }
    }

    /// The other plane.
    pub fn other(self) -> Plane {
        match self {
            Plane::Xz => Plane::Xy,
            Plane::Xy => Plane::Xz,
        }
    }

    /// Its name as the command line writes it: "xz" or "xy".
    pub fn name(self) -> &'static str {
        match self {
            Plane::Xz => "xz",
            Plane::Xy => "xy",
        }
    }
}

/// A triangle of the mesh, stored counter-clockwise in the plane.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Triangle {
    /// Its corners, counter-clockwise.
    pub vertices: [VertId; 3],
    /// `edges[k]` joins `vertices[k]` and `vertices[(k + 1) % 3]`.
    pub edges: [EdgeId; 3],
    /// The centre of mass.
    pub centroid: Vec2,
    /// Area in the plane (positive).
    pub area: f64,
}

/// An edge and every triangle that has it: one for a border, two inside the mesh, three or more
/// where surfaces meet (stairs over a floor).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Edge {
    /// Its end points (lower id first).
    pub vertices: [VertId; 2],
    /// The triangles that have this edge.
    pub triangles: Vec<TriId>,
}

impl Edge {
    /// True for an edge on the mesh border (a wall).
    pub fn is_border(&self) -> bool {
        self.triangles.len() == 1
    }

    /// True for an edge shared by three or more triangles.
    pub fn is_non_manifold(&self) -> bool {
        self.triangles.len() > 2
    }
}

/// Axis-aligned bounds in the plane.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Bounds {
    /// Lowest corner.
    pub min: Vec2,
    /// Highest corner.
    pub max: Vec2,
}

/// A navigation mesh ready for queries.
#[derive(Debug, Clone)]
pub struct NavMesh {
    pub(crate) vertices: Vec<Vec2>,
    pub(crate) heights: Vec<f64>,
    pub(crate) triangles: Vec<Triangle>,
    pub(crate) edges: Vec<Edge>,
    pub(crate) neighbours: Vec<Vec<(TriId, EdgeId)>>,
    pub(crate) island_of: Vec<usize>,
    pub(crate) island_count: usize,
    /// Each island's size and lowest triangle, by island number: what numbers the islands.
    pub(crate) island_tally: Vec<island_update::IslandTally>,
    pub(crate) bounds: Bounds,
    pub(crate) index: locate::TriangleIndex,
    pub(crate) report: BuildReport,
    pub(crate) plane: Plane,
    /// The area type of each triangle.
    pub(crate) area_types: Vec<areas::AreaId>,
    /// The names of the area types, by id (the built-in ones first).
    pub(crate) area_names: Vec<String>,
    /// The polygons the mesh was built from; made from the triangles when first asked for on a
    /// mesh that was edited.
    pub(crate) raw: std::sync::OnceLock<std::sync::Arc<RawMesh>>,
    /// The triangles round each vertex in surfaces, and the vertices a wall meets; made when
    /// first asked for.
    pub(crate) fans: std::sync::OnceLock<fans::VertexFans>,
    /// Each triangle's corners and neighbours in one record; made when first asked for.
    pub(crate) adjacency: std::sync::OnceLock<adjacency::Adjacency>,
    /// The triangles merged into convex faces, for the exact search; made when first asked
    /// for.
    pub(crate) merged_faces: std::sync::OnceLock<faces::Faces>,
    /// Every triangle a face of its own, for a search shown triangle by triangle; made when
    /// first asked for.
    pub(crate) triangle_faces: std::sync::OnceLock<faces::Faces>,
    /// The area types present, a bit each; made when first asked for.
    pub(crate) areas_present: std::sync::OnceLock<u32>,
    /// The lowest and highest vertex height; made when first asked for.
    pub(crate) height_span: std::sync::OnceLock<[f64; 2]>,
    /// Its off-mesh links.
    pub(crate) links: Vec<links::OffMeshLink>,
    /// The links' ends on the triangles; made when first asked for.
    pub(crate) placed_links: std::sync::OnceLock<links::PlacedLinks>,
    /// Every portal's and triangle's clearance; made when first asked for.
    pub(crate) clearance: std::sync::OnceLock<std::sync::Arc<clearance::Clearance>>,
    /// The mesh shrunk for the last few agent radii asked for.
    pub(crate) shrunk: radius::ShrinkCache,
}

/// The polygons of a mesh as given (read from a file or generated), before welding,
/// triangulation and repair: what the diagnostics inspect and what a repair rewrites.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RawMesh {
    /// 3D positions.
    pub positions: Vec<[f64; 3]>,
    /// Polygons as lists of indices into `positions`, in file order.
    pub polygons: Vec<Vec<usize>>,
    /// The plane the mesh is projected onto.
    pub plane: Plane,
    /// The file's own (0-based) number of each position, when the reader renumbered them (an
    /// OBJ reader numbers vertices by first use); empty when they are the same.
    pub vertex_ids: Vec<usize>,
    /// Where a Polyanya file's own neighbour lists disagree with its polygons (empty for
    /// other formats, and once the polygons are rewritten).
    pub neighbour_list_problems: Vec<polyanya::ListProblem>,
    /// The area type of each polygon, by id into `area_names`; empty when all are ground.
    pub polygon_areas: Vec<areas::AreaId>,
    /// The names of the area types (the built-in ones first).
    pub area_names: Vec<String>,
    /// Faces the walkable filter left out (too steep, or facing down), as lists of indices into
    /// `positions`: not part of the mesh, drawn faintly.
    pub dropped_polygons: Vec<Vec<usize>>,
    /// What the walkable filter kept and left out, when it was applied.
    pub walkable: Option<walkable::WalkableSummary>,
    /// How the faces' winding agrees with the file's vertex normals, when it gives them.
    pub normals: Option<walkable::NormalAgreement>,
    /// For a mesh shrunk for an agent's radius: what the shrinking did.
    pub shrunk: Option<radius::ShrinkSummary>,
    /// True when the file is flat in the plane it was asked to be read in and was read in the
    /// other one (see [`NavMesh::from_read`]).
    pub plane_from_file: bool,
    /// The file's [`walkable::steep_share`], measured as read, before the walkable filter or
    /// an agent's radius changed the polygons (`None`: measure these polygons).
    pub file_steep_share: Option<f64>,
}

impl RawMesh {
    /// Polygons over positions numbered as in their file.
    pub fn new(positions: Vec<[f64; 3]>, polygons: Vec<Vec<usize>>, plane: Plane) -> Self {
        Self {
            positions,
            polygons,
            plane,
            vertex_ids: Vec::new(),
            neighbour_list_problems: Vec::new(),
            polygon_areas: Vec::new(),
            area_names: areas::built_in_names(),
            dropped_polygons: Vec::new(),
            walkable: None,
            normals: None,
            shrunk: None,
            plane_from_file: false,
            file_steep_share: None,
        }
    }

    /// The area type of polygon `k` (ground when none was given).
    pub fn polygon_area(&self, k: usize) -> areas::AreaId {
        self.polygon_areas.get(k).copied().unwrap_or(0)
    }

    /// The mesh as Wavefront OBJ text, Y up as every exporter writes it (faces 1-based), e.g.
    /// to save a repaired mesh: it reads back in the XZ plane with the same plane coordinates.
    /// A mesh in the XY plane is written with its y as z and its height as y, each face's
    /// corners in reverse order so that its normal still points up.
    pub fn to_obj(&self, comment: &str) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for line in comment.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let swapped = self.plane == Plane::Xy;
        if swapped {
            let _ = writeln!(
                out,
                "# Y up: the XY plane's (x, y) are (x, z) here, its heights y; read in the XZ plane"
            );
        }
        for &p in &self.positions {
            let (point, height) = self.plane.project(p);
            let [x, y, z] = Plane::Xz.unproject(point, height);
            let _ = writeln!(out, "v {x} {y} {z}");
        }
        // Area types as groups `g area:NAME`, written only when some polygon is not ground.
        let with_areas = self.polygon_areas.iter().any(|&a| a != 0);
        let mut group = None;
        for (k, poly) in self
            .polygons
            .iter()
            .enumerate()
            .filter(|(_, p)| p.len() >= 3)
        {
            let area = self.polygon_area(k);
            if with_areas && group != Some(area) {
                let name = self
                    .area_names
                    .get(usize::from(area))
                    .map_or("ground", String::as_str);
                let _ = writeln!(out, "g area:{name}");
                group = Some(area);
            }
            out.push('f');
            let corners: Box<dyn Iterator<Item = &usize>> = if swapped {
                Box::new(poly.iter().rev())
            } else {
                Box::new(poly.iter())
            };
            for v in corners {
                let _ = write!(out, " {}", v + 1);
            }
            out.push('\n');
        }
        out
    }

    /// True when no polygon has area in `plane` (every one is a line or a point there, to
    /// within a trillionth of the mesh's size squared).
    pub fn is_flat_in(&self, plane: Plane) -> bool {
        let projected = |v: usize| self.positions.get(v).map(|&p| plane.project(p).0);
        let (mut lo, mut hi) = (Vec2::new(f64::MAX, f64::MAX), Vec2::new(f64::MIN, f64::MIN));
        for &p in &self.positions {
            let q = plane.project(p).0;
            lo = Vec2::new(lo.x.min(q.x), lo.y.min(q.y));
            hi = Vec2::new(hi.x.max(q.x), hi.y.max(q.y));
        }
        let size = (hi.x - lo.x).max(hi.y - lo.y);
        if !(size.is_finite() && size > 0.0) {
            return true;
        }
        let tiny = 1e-12 * size * size;
        !self.polygons.iter().any(|polygon| {
            let ring: Vec<Vec2> = polygon.iter().filter_map(|&v| projected(v)).collect();
            let twice_area: f64 = (0..ring.len())
                .map(|k| ring[k].cross(ring[(k + 1) % ring.len()]))
                .sum();
            twice_area.abs() > tiny
        })
    }

    /// The file's number for position `v`.
    pub fn vertex_id(&self, v: usize) -> usize {
        self.vertex_ids.get(v).copied().unwrap_or(v)
    }

    /// Builds the navigation mesh with the default welding.
    pub fn build(&self) -> Result<NavMesh, BuildError> {
        NavMesh::from_polygons(
            &self.positions,
            &self.polygons,
            BuildOptions {
                plane: self.plane,
                ..BuildOptions::default()
            },
        )
    }
}

/// A mesh in the XY plane from 2D points and polygons, for unit tests.
#[cfg(test)]
pub(crate) fn flat_test_mesh(points: &[[f64; 2]], polygons: &[Vec<usize>]) -> NavMesh {
    let positions: Vec<[f64; 3]> = points.iter().map(|&[x, y]| [x, y, 0.0]).collect();
    let options = BuildOptions {
        plane: Plane::Xy,
        ..BuildOptions::default()
    };
    NavMesh::from_polygons(&positions, polygons, options).expect("builds")
}

/// How a mesh file is read.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ReadOptions {
    /// The plane an OBJ mesh lies in (Polyanya meshes are always XY).
    pub plane: Plane,
    /// Keep only the faces within this many degrees of up (see [`walkable`]); `None`: every
    /// face.
    pub max_slope: Option<f64>,
    /// Shrink the mesh for an agent of this radius (see [`radius`]); `None`: as it is.
    pub agent_radius: Option<f64>,
}

/// The bytes of the mesh file at `path` (a regular file, at most
/// [`MAX_MESH_BYTES`](crate::input::MAX_MESH_BYTES)) and its name for messages.
fn read_mesh_file(path: &FsPath) -> Result<(Vec<u8>, String), LoadError> {
    let file = crate::input::shown(path);
    match crate::input::read_file(path, crate::input::MAX_MESH_BYTES, "a mesh file") {
        Ok(bytes) => Ok((bytes, file)),
        Err(source) => Err(LoadError::Read { file, source }),
    }
}

/// True for a path the window opens as a mesh: `.obj` or `.mesh` (any case).
pub fn is_mesh_path(path: &FsPath) -> bool {
    polyanya::is_polyanya_path(path)
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("obj"))
}

impl NavMesh {
    /// Loads a mesh file, choosing the format by extension: `.mesh` is Polyanya, anything else
    /// Wavefront OBJ.
    ///
    /// ```
    /// use navlab_core::prelude::*;
    ///
    /// let folder = tempfile::tempdir()?;
    /// let file = folder.path().join("floor.obj");
    /// std::fs::write(&file, "v 0 0 0\nv 4 0 0\nv 4 0 4\nv 0 0 4\nf 1 2 3 4\n")?;
    /// let mesh = NavMesh::load(&file, Plane::Xz)?;
    /// assert_eq!(mesh.triangles().len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(path: &FsPath, plane: Plane) -> Result<NavMesh, LoadError> {
        Self::load_with(
            path,
            ReadOptions {
                plane,
                ..ReadOptions::default()
            },
        )
    }

    /// Loads a mesh file as [`load`](Self::load) does, keeping only its walkable faces when
    /// `options` gives a maximum slope.
    pub fn load_with(path: &FsPath, options: ReadOptions) -> Result<NavMesh, LoadError> {
        let raw = if polyanya::is_polyanya_path(path) {
            polyanya::load_raw(path)?
        } else {
            obj::load_raw(path, options.plane)?
        };
        Self::from_read(raw, &crate::input::shown(path), options)
    }

    /// Reads a mesh file's bytes already in memory (given by a browser, say), as
    /// [`load_with`](Self::load_with) reads a file: the format by the extension of `file`
    /// (which names it in errors), the same limits.
    pub fn read_bytes(
        bytes: &[u8],
        file: &str,
        options: ReadOptions,
    ) -> Result<NavMesh, LoadError> {
        crate::input::check_size(bytes, crate::input::MAX_MESH_BYTES, "a mesh file").map_err(
            |source| LoadError::Read {
                file: file.to_string(),
                source,
            },
        )?;
        let raw = if polyanya::is_polyanya_path(FsPath::new(file)) {
            polyanya::parse_raw(bytes, file)?
        } else {
            obj::parse_raw(bytes, file, options.plane)?
        };
        Self::from_read(raw, file, options)
    }

    /// Builds the mesh of a file's polygons (`file` names it in errors), keeping only the
    /// walkable faces when `options` gives a maximum slope. Polyanya meshes are always in the
    /// XY plane.
    pub fn from_read(
        mut raw: RawMesh,
        file: &str,
        options: ReadOptions,
    ) -> Result<NavMesh, LoadError> {
        // A flat 2D mesh written the other way (Y up for an XY mesh, or the reverse) has no
        // area at all in the plane asked for: it is read in the one it lies in.
        if raw.is_flat_in(raw.plane) && !raw.is_flat_in(raw.plane.other()) {
            raw.plane = raw.plane.other();
            raw.plane_from_file = true;
        }
        if options.max_slope.is_some() || options.agent_radius.is_some() {
            raw.file_steep_share = Some(walkable::steep_share(&raw));
        }
        if let Some(max_slope) = options.max_slope {
            walkable::keep_walkable(&mut raw, max_slope);
        }
        let plane = raw.plane;
        let mesh = NavMesh::from_raw(
            raw,
            BuildOptions {
                plane,
                ..BuildOptions::default()
            },
        )
        .map_err(|source| LoadError::Build {
            file: file.to_string(),
            source,
        })?;
        match options.agent_radius {
            Some(radius) => radius::shrink(&mesh, radius)
                .map(|shrunk| shrunk.mesh)
                .map_err(|source| LoadError::Shrink {
                    file: file.to_string(),
                    source,
                }),
            None => Ok(mesh),
        }
    }

    /// The mesh as the text of a file named `path`, by extension as for [`load`](Self::load):
    /// a Polyanya mesh of `shape` polygons (format 2, the plane's coordinates; see
    /// [`polyanya::to_polyanya`]) or Wavefront OBJ of the polygons as given, headed by
    /// `comment`.
    pub fn to_file_text(
        &self,
        path: &FsPath,
        comment: &str,
        shape: polyanya::PolygonShape,
    ) -> Result<String, polyanya::WriteError> {
        if polyanya::is_polyanya_path(path) {
            polyanya::to_polyanya(self, shape)
        } else {
            Ok(self.raw().to_obj(comment))
        }
    }

    /// The polygons this mesh was built from (for an edited mesh: its triangles, over the
    /// vertices they use).
    pub fn raw(&self) -> &RawMesh {
        self.shared_raw()
    }

    /// [`raw`](Self::raw), shared (for a worker thread).
    pub fn shared_raw(&self) -> &std::sync::Arc<RawMesh> {
        self.raw
            .get_or_init(|| std::sync::Arc::new(self.triangles_as_raw()))
    }

    /// The triangles as polygons over the vertices they use, with their area types.
    fn triangles_as_raw(&self) -> RawMesh {
        let plane = self.plane;
        let mut renumber = vec![usize::MAX; self.vertices.len()];
        let mut positions = Vec::new();
        let mut polygons = Vec::with_capacity(self.triangles.len());
        for t in &self.triangles {
            let corners = t.vertices.map(|v| {
                if renumber[v] == usize::MAX {
                    renumber[v] = positions.len();
                    positions.push(plane.unproject(self.vertices[v], self.heights[v]));
                }
                renumber[v]
            });
            polygons.push(corners.to_vec());
        }
        let mut raw = RawMesh::new(positions, polygons, plane);
        raw.polygon_areas = self.area_types.clone();
        raw.area_names = self.area_names.clone();
        raw
    }

    /// The area type of triangle `tri` (ground for an id past the mesh).
    pub fn area_type(&self, tri: TriId) -> areas::AreaId {
        self.area_types.get(tri).copied().unwrap_or(0)
    }

    /// The area type of every triangle, by triangle id.
    pub fn area_types(&self) -> &[areas::AreaId] {
        &self.area_types
    }

    /// The area types some triangle has: bit k for area type k.
    pub fn area_types_present(&self) -> u32 {
        *self.areas_present.get_or_init(|| {
            self.area_types.iter().fold(0, |bits, &a| {
                bits | 1u32.checked_shl(u32::from(a)).unwrap_or(0)
            })
        })
    }

    /// Drops what is made from the triangles on first use (after they changed).
    pub(crate) fn forget_derived(&mut self) {
        self.raw = std::sync::OnceLock::new();
        self.fans = std::sync::OnceLock::new();
        self.adjacency = std::sync::OnceLock::new();
        self.merged_faces = std::sync::OnceLock::new();
        self.triangle_faces = std::sync::OnceLock::new();
        self.areas_present = std::sync::OnceLock::new();
        self.height_span = std::sync::OnceLock::new();
        self.placed_links = std::sync::OnceLock::new();
        self.clearance = std::sync::OnceLock::new();
        self.shrunk = radius::ShrinkCache::default();
    }

    /// Its off-mesh links.
    pub fn links(&self) -> &[links::OffMeshLink] {
        &self.links
    }

    /// Replaces its off-mesh links, refusing a list with a link that cannot be searched or
    /// with more than [`links::MAX_LINKS`] (the mesh keeps its links then).
    pub fn set_links(&mut self, links: Vec<links::OffMeshLink>) -> Result<(), links::LinkError> {
        links::check_links(&links)?;
        self.links = links;
        self.placed_links = std::sync::OnceLock::new();
        Ok(())
    }

    /// The same mesh with `links` (see [`NavMesh::set_links`]).
    pub fn with_links(mut self, links: Vec<links::OffMeshLink>) -> Result<Self, links::LinkError> {
        self.set_links(links)?;
        Ok(self)
    }

    /// Its links' ends placed on its triangles.
    pub fn placed_links(&self) -> &links::PlacedLinks {
        self.placed_links
            .get_or_init(|| links::PlacedLinks::new(self, &self.links))
    }

    /// The clearance of every portal and triangle (see [`clearance`]), worked out on first
    /// use and kept until the triangles change.
    pub fn clearance(&self) -> &std::sync::Arc<clearance::Clearance> {
        self.clearance
            .get_or_init(|| std::sync::Arc::new(clearance::Clearance::of(self)))
    }

    /// The mesh shrunk for an agent of `radius` ([`radius::shrink`]), made on first use for
    /// that radius and kept (for the last few radii) until the triangles change.
    pub fn shrunk_for(
        &self,
        radius: f64,
    ) -> Result<std::sync::Arc<radius::Shrunk>, radius::ShrinkError> {
        self.shrunk
            .get_or_make(radius, || radius::shrink(self, radius))
    }

    /// The clearance (as [`NavMesh::clearance`]) of a mesh made by editing `before`: when
    /// `before`'s clearance was worked out, only what is near the walls the edit changed is
    /// worked out again ([`clearance::Clearance::updated`]).
    pub fn clearance_after_edit(&self, before: &NavMesh) -> &std::sync::Arc<clearance::Clearance> {
        self.clearance.get_or_init(|| {
            let updated = before.clearance_if_made().map(|old| {
                let snapshot = clearance::ClearanceSnapshot::of(before, old);
                clearance::Clearance::updated(&snapshot, self).0
            });
            std::sync::Arc::new(updated.unwrap_or_else(|| clearance::Clearance::of(self)))
        })
    }

    /// The clearance, when it has been worked out (see [`NavMesh::clearance`]).
    pub fn clearance_if_made(&self) -> Option<&std::sync::Arc<clearance::Clearance>> {
        self.clearance.get()
    }

    /// The names of the area types, by [`areas::AreaId`] (the built-in ones first).
    pub fn area_names(&self) -> &[String] {
        &self.area_names
    }

    /// The plane the mesh lies in.
    pub fn plane(&self) -> Plane {
        self.plane
    }

    /// How many vertices the triangles use (an edited mesh keeps vertices it no longer uses).
    pub fn used_vertex_count(&self) -> usize {
        let mut used = vec![false; self.vertices.len()];
        for t in &self.triangles {
            for &v in &t.vertices {
                used[v] = true;
            }
        }
        used.iter().filter(|&&u| u).count()
    }

    /// Vertex positions in the plane.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Vertex heights (the coordinate dropped by the projection), for display.
    pub fn heights(&self) -> &[f64] {
        &self.heights
    }

    /// The triangles.
    pub fn triangles(&self) -> &[Triangle] {
        &self.triangles
    }

    /// The edges.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// True when a wall meets vertex `v` (an edge of it with one triangle, or more than two):
    /// the only vertices a shortest path can turn at.
    pub fn is_wall_vertex(&self, v: VertId) -> bool {
        self.fans().is_corner(v)
    }

    /// The triangles round each vertex, in surfaces (made on first use).
    pub fn fans(&self) -> &fans::VertexFans {
        self.fans.get_or_init(|| fans::VertexFans::new(self))
    }

    /// Each triangle's corners and neighbours in one record (made on first use).
    pub fn adjacency(&self) -> &adjacency::Adjacency {
        self.adjacency
            .get_or_init(|| adjacency::Adjacency::new(self))
    }

    /// The triangles merged into convex polygons, the faces [`anyangle::shortest_path`] walks
    /// (made on first use).
    pub fn merged_faces(&self) -> &faces::Faces {
        self.merged_faces.get_or_init(|| faces::Faces::merged(self))
    }

    /// Every triangle a face of its own (made on first use): the faces of a search shown
    /// triangle by triangle.
    pub fn triangle_faces(&self) -> &faces::Faces {
        self.triangle_faces
            .get_or_init(|| faces::Faces::triangles(self))
    }

    /// Triangles reachable from `tri` across one edge, with that edge.
    pub fn neighbours(&self, tri: TriId) -> &[(TriId, EdgeId)] {
        self.neighbours.get(tri).map_or(&[], Vec::as_slice)
    }

    /// The corners of a triangle in the plane, counter-clockwise.
    pub fn corners(&self, tri: TriId) -> [Vec2; 3] {
        let t = &self.triangles[tri];
        t.vertices.map(|v| self.vertices[v])
    }

    /// The island (connected component) that holds `tri`, from 0: the largest (most
    /// triangles) is 0, ties in the order of their lowest triangle. People see it plus one, as
    /// `navlab check` and the Diagnostics tab number islands.
    pub fn island_of(&self, tri: TriId) -> usize {
        self.island_of[tri]
    }

    /// How many islands (connected components) the mesh has.
    pub fn island_count(&self) -> usize {
        self.island_count
    }

    /// Each island's area in the plane, by island number.
    pub fn island_areas(&self) -> Vec<f64> {
        let mut areas = vec![0.0; self.island_count];
        for (t, triangle) in self.triangles.iter().enumerate() {
            if let Some(area) = areas.get_mut(self.island_of(t)) {
                *area += triangle.area;
            }
        }
        areas
    }

    /// Bounds of the vertices in the plane.
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    /// What the builder welded, dropped and repaired.
    pub fn report(&self) -> &BuildReport {
        &self.report
    }

    /// Edges shared by three or more triangles.
    pub fn non_manifold_edges(&self) -> impl Iterator<Item = EdgeId> + '_ {
        (0..self.edges.len()).filter(|&e| self.edges[e].is_non_manifold())
    }

    /// The edge shared by two triangles, if any.
    pub fn shared_edge(&self, a: TriId, b: TriId) -> Option<EdgeId> {
        self.neighbours(a)
            .iter()
            .find(|&&(n, _)| n == b)
            .map(|&(_, e)| e)
    }

    /// A summary for `navlab info`.
    pub fn summary(&self) -> MeshSummary {
        MeshSummary {
            vertices: self.used_vertex_count(),
            triangles: self.triangles.len(),
            edges: self.edges.len(),
            border_edges: self.edges.iter().filter(|e| e.is_border()).count(),
            non_manifold_edges: self.non_manifold_edges().count(),
            islands: self.island_count,
            bounds: self.bounds,
            height_range: self.height_span(),
            area: self.triangles.iter().map(|t| t.area).sum(),
            build: self.report.clone(),
            walkable: self.walkable_summary(),
            level_geometry_share: self
                .raw()
                .file_steep_share
                .unwrap_or_else(|| walkable::steep_share(self.raw())),
            agent_radius: self.raw().shrunk.clone(),
            plane: self.plane,
            plane_from_file: self.raw().plane_from_file,
        }
    }

    /// What the walkable filter kept and left out; without the filter, every face of the file
    /// as kept.
    pub fn walkable_summary(&self) -> walkable::WalkableSummary {
        let raw = self.raw();
        raw.walkable.unwrap_or_else(|| {
            let mut all = walkable::WalkableSummary::default();
            for face in &raw.polygons {
                all.walkable_faces += 1;
                all.walkable_triangles += face.len().saturating_sub(2);
                let n = walkable::face_normal(&raw.positions, face).unwrap_or_default();
                all.walkable_area += 0.5 * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            }
            all
        })
    }
}

/// Counts describing a mesh.
#[derive(Debug, Clone, Serialize)]
pub struct MeshSummary {
    /// Vertices after welding.
    pub vertices: usize,
    /// Triangles after dropping degenerate ones.
    pub triangles: usize,
    /// Distinct edges.
    pub edges: usize,
    /// Edges with one triangle (walls).
    pub border_edges: usize,
    /// Edges with three or more triangles.
    pub non_manifold_edges: usize,
    /// Connected components.
    pub islands: usize,
    /// Bounds in the plane.
    pub bounds: Bounds,
    /// Lowest and highest height.
    pub height_range: [f64; 2],
    /// Total walkable area in the plane.
    pub area: f64,
    /// What the builder changed.
    pub build: BuildReport,
    /// What the walkable filter kept and left out (with no filter, every face kept).
    #[serde(flatten)]
    pub walkable: walkable::WalkableSummary,
    /// The share of the file's area that is steeper than 45° or faces down: over one half, it
    /// looks like level geometry rather than a navmesh.
    pub level_geometry_share: f64,
    /// For a mesh shrunk for an agent's radius: what the shrinking did.
    pub agent_radius: Option<radius::ShrinkSummary>,
    /// The plane the mesh lies in.
    pub plane: Plane,
    /// True when the file was flat in the plane asked for and was read in this one.
    pub plane_from_file: bool,
}

/// Why a mesh file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read, or was not read (not a file, too large).
    #[error("{file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        source: crate::input::ReadError,
    },
    /// A line could not be understood.
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file parsed but does not describe a usable mesh.
    #[error("{file}: {source}")]
    Build {
        /// The file.
        file: String,
        /// What is wrong.
        source: BuildError,
    },
    /// The mesh could not be shrunk for the agent's radius asked for.
    #[error("{file}: {source}")]
    Shrink {
        /// The file.
        file: String,
        /// What is wrong.
        source: radius::ShrinkError,
    },
}
