//! "Build navmesh": the tile map's passable tiles triangulated on a worker thread, and the mesh
//! shown in the navmesh view from the map's start to its goal.

use super::latest_worker::LatestWorker;
use super::navmesh_scene::MeshSource;
use super::{NavlabApp, SceneKind};
use crate::grid::{Cell, TileMap};
use crate::navmesh::NavMesh;
use crate::words::count;

/// Banner wording for a map that gave no mesh.
const BUILD_FAILED: (&str, &str) = (
    "Could not build a navmesh",
    "The map and the mesh shown before are unchanged.",
);

/// A navmesh build for the worker thread, with what to do with its result.
pub(super) struct MeshBuild {
    map: TileMap,
    agent_radius: f64,
    /// The mesh's name ("MAP as a navmesh").
    name: String,
    /// The map's start and goal when the build started.
    endpoints: (Cell, Cell),
}

/// A finished build: the mesh (or why not), its name and the map's start and goal.
pub(super) struct BuiltMesh {
    mesh: Result<NavMesh, String>,
    name: String,
    endpoints: (Cell, Cell),
}

impl MeshBuild {
    fn run(self) -> BuiltMesh {
        let mesh = crate::navmesh::from_map::navmesh_from_map(&self.map, self.agent_radius)
            .map_err(|e| e.to_string());
        BuiltMesh {
            mesh,
            name: self.name,
            endpoints: self.endpoints,
        }
    }
}

/// Builds on a worker thread; a build outdated by a newer one, or by a mesh opened meanwhile,
/// is dropped.
pub(super) struct MeshBuilder {
    worker: LatestWorker<MeshBuild, BuiltMesh>,
    /// Counts the builds started.
    builds: u64,
}

impl Default for MeshBuilder {
    fn default() -> Self {
        Self {
            worker: LatestWorker::new("navlab mesh build", MeshBuild::run),
            builds: 0,
        }
    }
}

impl MeshBuilder {
    /// True while a build runs.
    pub(super) fn is_busy(&self) -> bool {
        self.worker.is_busy()
    }

    /// Drops the build running (another mesh was asked for).
    pub(super) fn forget(&mut self) {
        self.worker.forget();
    }
}

impl NavlabApp {
    /// What a mesh built from the map is called (with the agent radius, when there is one).
    fn built_mesh_name(&self) -> String {
        let map = self.map.name();
        let radius = self.scenes.tile_map.settings.agent_radius;
        match crate::navmesh::from_map::agent_radius_used(radius) {
            r if r > 0.0 => format!("{map} as a navmesh (agent radius {r})"),
            _ => format!("{map} as a navmesh"),
        }
    }

    /// The build of the current map, start and goal.
    fn mesh_build_job(&self) -> MeshBuild {
        let scene = &self.scenes.tile_map;
        MeshBuild {
            map: self.map.map.clone(),
            agent_radius: scene.settings.agent_radius,
            name: self.built_mesh_name(),
            endpoints: (scene.start, scene.goal),
        }
    }

    /// Triangulates the tile map's passable tiles and shows the mesh in the navmesh view, from
    /// the map's start to its goal; on failure everything stays as it was. Synchronous (at
    /// launch); the window builds on a worker thread ([`NavlabApp::start_mesh_build`]).
    pub fn build_mesh_from_map(&mut self) {
        let built = self.mesh_build_job().run();
        self.show_built_mesh(built);
    }

    /// Starts building the navmesh of the tile map on a worker thread; the window keeps
    /// drawing (a spinner says so) and shows the mesh when it is done. Opening another mesh
    /// meanwhile drops the build.
    pub fn start_mesh_build(&mut self) {
        self.mesh_build.builds += 1;
        let job = self.mesh_build_job();
        let generation = self.mesh_build.builds;
        if let Some(built) = self
            .mesh_build
            .worker
            .answer_or_submit(generation, job, true)
        {
            // No thread to run it: it ran here.
            self.show_built_mesh(built);
        }
    }

    /// True while a navmesh is being built.
    pub fn is_building_mesh(&self) -> bool {
        self.mesh_build.is_busy()
    }

    /// Shows a finished build; returns true while one is still running.
    pub(super) fn poll_mesh_build(&mut self) -> bool {
        if let Some(built) = self.mesh_build.worker.take() {
            self.show_built_mesh(built);
        }
        self.is_building_mesh()
    }

    fn show_built_mesh(&mut self, built: BuiltMesh) {
        let mesh = match built.mesh {
            Ok(mesh) => mesh,
            Err(error) => return self.fail(BUILD_FAILED, error),
        };
        let summary = mesh.summary();
        // Tile (x, y) is the square [x, x+1] × [y, y+1] of the mesh: start at tile centres,
        // moved onto the mesh when an agent radius keeps it off them (near a wall).
        let on_mesh = |(x, y): Cell| {
            mesh.locate(crate::geom::Vec2::new(x as f64 + 0.5, y as f64 + 0.5))
                .map(|location| location.point)
        };
        let (start, goal) = built.endpoints;
        let endpoints = on_mesh(start).zip(on_mesh(goal));
        self.scenes
            .navmesh
            .set_mesh_at(mesh, MeshSource::Generated(built.name), endpoints);
        self.settings.scene = SceneKind::Navmesh;
        self.settings.last_file = None;
        self.banner.error = None;
        self.notice = Some(format!(
            "Built from the map: {}, {}; File > Save mesh as… keeps it",
            count(summary.triangles, "triangle"),
            count(summary.islands, "island")
        ));
    }
}
