//! A navigation mesh: triangles in the plane with shared edges (an edge keeps a *list* of
//! triangles, so stairs passing over a floor work), adjacency, islands and a spatial index.

mod build;
pub mod diagnose;
pub mod from_map;
pub mod generate;
pub mod locate;
mod merge;
pub mod obj;
pub mod polyanya;
mod polyanya_write;
pub mod query;
pub mod timeline;
pub mod walk;

pub use build::{BuildError, BuildOptions, BuildReport};
pub use locate::Location;
pub use query::{
    CostModel, MidpointState, MidpointStates, Path, PathStatus, QueryOptions, explain_search_step,
    find_path, find_path_with_states,
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
#[derive(Debug)]
pub struct NavMesh {
    pub(crate) vertices: Vec<Vec2>,
    pub(crate) heights: Vec<f64>,
    pub(crate) triangles: Vec<Triangle>,
    pub(crate) edges: Vec<Edge>,
    pub(crate) neighbours: Vec<Vec<(TriId, EdgeId)>>,
    pub(crate) island_of: Vec<usize>,
    pub(crate) island_count: usize,
    pub(crate) bounds: Bounds,
    pub(crate) index: locate::TriangleIndex,
    pub(crate) report: BuildReport,
    pub(crate) raw: std::sync::Arc<RawMesh>,
}

/// The polygons of a mesh as given (read from a file or generated), before welding,
/// triangulation and repair: what the diagnostics inspect and what a repair rewrites.
#[derive(Debug, Clone, PartialEq)]
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
        }
    }

    /// The mesh as Wavefront OBJ text (positions as stored, faces 1-based), e.g. to save a
    /// repaired mesh. Meshes in the XY plane keep their coordinates (open them with XY).
    pub fn to_obj(&self, comment: &str) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for line in comment.lines() {
            let _ = writeln!(out, "# {line}");
        }
        for p in &self.positions {
            let _ = writeln!(out, "v {} {} {}", p[0], p[1], p[2]);
        }
        for poly in self.polygons.iter().filter(|p| p.len() >= 3) {
            out.push('f');
            for v in poly {
                let _ = write!(out, " {}", v + 1);
            }
            out.push('\n');
        }
        out
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
    pub fn load(path: &FsPath, plane: Plane) -> Result<NavMesh, LoadError> {
        if polyanya::is_polyanya_path(path) {
            polyanya::load(path)
        } else {
            obj::load(path, plane)
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
            Ok(self.raw.to_obj(comment))
        }
    }

    /// The polygons this mesh was built from.
    pub fn raw(&self) -> &RawMesh {
        &self.raw
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

    /// Triangles reachable from `tri` across one edge, with that edge.
    pub fn neighbours(&self, tri: TriId) -> &[(TriId, EdgeId)] {
        self.neighbours.get(tri).map_or(&[], Vec::as_slice)
    }

    /// The corners of a triangle in the plane, counter-clockwise.
    pub fn corners(&self, tri: TriId) -> [Vec2; 3] {
        let t = &self.triangles[tri];
        t.vertices.map(|v| self.vertices[v])
    }

    /// The island (connected component) that holds `tri`.
    pub fn island_of(&self, tri: TriId) -> usize {
        self.island_of[tri]
    }

    /// How many islands (connected components) the mesh has.
    pub fn island_count(&self) -> usize {
        self.island_count
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
            vertices: self.vertices.len(),
            triangles: self.triangles.len(),
            edges: self.edges.len(),
            border_edges: self.edges.iter().filter(|e| e.is_border()).count(),
            non_manifold_edges: self.non_manifold_edges().count(),
            islands: self.island_count,
            bounds: self.bounds,
            height_range: [
                self.heights.iter().copied().fold(f64::INFINITY, f64::min),
                self.heights
                    .iter()
                    .copied()
                    .fold(f64::NEG_INFINITY, f64::max),
            ],
            area: self.triangles.iter().map(|t| t.area).sum(),
            build: self.report.clone(),
        }
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
}
