//! The query on the mesh shown: its start and goal and the floor each is on, the steps the
//! searches recorded and the state replayed at the playback's cursor, the worker that runs it
//! on a large mesh, and what it found last.

use super::floors::FloorChoice;
use super::jobs::QueryJob;
use crate::app::latest_worker::LatestWorker;
use crate::app::playback::Playback;
use crate::geom::Vec2;
use crate::navmesh::timeline::{Timeline, TimelineReplay};

/// A query and its replay.
pub struct PathQuery {
    /// Start point as asked for (world).
    pub start: Vec2,
    /// Goal point as asked for (world).
    pub goal: Vec2,
    /// Which floor the start and goal are on, where floors overlap.
    pub floors: FloorChoice,
    /// The recorded steps of the current query.
    pub timeline: Timeline,
    /// The state at the playback cursor.
    pub replay: TimelineReplay,
    /// Playback position and speed.
    pub playback: Playback,
    /// Runs queries on large meshes off the UI thread.
    pub(super) querier: LatestWorker<QueryJob, Timeline>,
    /// Bumped by every query asked for; the worker's answer to an older one is dropped.
    pub(super) generation: u64,
    /// Where the playback cursor goes when the worker's answer arrives.
    pub(super) resume_cursor: Option<usize>,
    /// The last path, drawn faintly after an edit of a large mesh until the new one arrives.
    pub(super) previous_path: Option<Vec<Vec2>>,
    /// How the corridor path compares with the shortest path, when both were searched.
    pub gap: Option<crate::navmesh::gap::Gap>,
    /// The agent's radius the last query was asked for: when the setting differs, the query
    /// runs again.
    pub(super) radius_asked: f64,
}

impl PathQuery {
    /// A query from `start` to `goal` not run yet, played back by `playback`.
    pub fn new(start: Vec2, goal: Vec2, playback: Playback) -> Self {
        Self {
            start,
            goal,
            floors: FloorChoice::default(),
            timeline: Timeline::default(),
            replay: TimelineReplay::default(),
            playback,
            querier: LatestWorker::new("navlab mesh query", QueryJob::run),
            generation: 0,
            resume_cursor: None,
            previous_path: None,
            gap: None,
            radius_asked: 0.0,
        }
    }
}
