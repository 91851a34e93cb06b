//! The navmesh view's query as a job, recorded for replay: run here for small meshes, on a
//! [`LatestWorker`](crate::app::latest_worker::LatestWorker) for large ones, so that dragging
//! the start or goal stays smooth (a query across a 100k-triangle mesh takes 30 ms, 80 ms with
//! edge midpoints).

use crate::geom::Vec2;
use crate::navmesh::timeline::Timeline;
use crate::navmesh::{NavMesh, QueryOptions};
use std::sync::Arc;

/// Meshes with at least this many triangles are queried on the worker (about 12 ms a query
/// across the mesh).
pub const BACKGROUND_TRIANGLES: usize = 40_000;

/// One query, owned so that it can run on another thread.
#[derive(Debug, Clone)]
pub struct QueryJob {
    /// The mesh (shared, not copied).
    pub mesh: Arc<NavMesh>,
    /// Start point as asked for.
    pub start: Vec2,
    /// Goal point as asked for.
    pub goal: Vec2,
    /// The height of the floor the start is on, where floors overlap (`None`: the topmost).
    pub start_height: Option<f64>,
    /// The height of the floor the goal is on, where floors overlap (`None`: the topmost).
    pub goal_height: Option<f64>,
    /// Cost model and heuristic weight.
    pub options: QueryOptions,
    /// Also search for the shortest path (Polyanya), recorded as a third phase.
    pub optimal: bool,
    /// The last mesh whose clearance was worked out: for an agent's radius, the clearance of
    /// this mesh (an edit of it) is carried from it, worked out again only near the edit.
    pub clearance_from: Option<Arc<NavMesh>>,
}

impl QueryJob {
    /// Runs the query here, recording A*'s steps (on its own nodes too, with edge midpoints)
    /// and the funnel's, then Polyanya's when asked.
    pub fn run(self) -> Timeline {
        let mesh = &self.mesh;
        if let Some(before) = self
            .clearance_from
            .as_ref()
            .filter(|_| self.options.radius > 0.0)
        {
            mesh.clearance_after_edit(before);
        }
        let ends = mesh
            .locate_near_height(self.start, self.start_height)
            .zip(mesh.locate_near_height(self.goal, self.goal_height));
        let Some((start, goal)) = ends else {
            // A point that is not finite: nothing to search.
            return Timeline::record(mesh, self.start, self.goal, self.options);
        };
        let timeline = Timeline::record_located(mesh, start, goal, self.options);
        let radius = self.options.radius;
        if self.optimal && radius > 0.0 {
            // For an agent's radius: the exact search on the mesh shrunk by it, not replayed
            // (its faces are the shrunk mesh's).
            match crate::navmesh::radius::shortest_path_for_radius_located(
                mesh, start, goal, radius,
            ) {
                Ok(optimal) => timeline.with_optimal_path(optimal),
                Err(_) => timeline,
            }
        } else if self.optimal {
            timeline.with_optimal_located(mesh, start, goal)
        } else {
            timeline
        }
    }
}
