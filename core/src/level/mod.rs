//! From level geometry to an agent's navmesh: Recast's build (through `rerecast`, a Rust port of
//! Recast) with RecastDemo's parameters, stage by stage, each stage's counts and time kept.
//! The result is a [`RawMesh`](crate::navmesh::RawMesh) like any file's: A\*, the funnel,
//! Polyanya, the diagnostics and the editor take it as they take any other.

mod auto_links;
mod build;
mod detail_ground;
mod holes;
mod record;
mod settings;
mod stages;
mod why;

pub use auto_links::{
    LinkCandidate, LinkSearch, Rejection, find_links, kept_candidates, kept_links,
};
pub use build::{
    LevelBuild, StageCounts, build_marked, build_navmesh, build_recorded, raw_navmesh,
};
pub use record::{
    BuildRecord, DIRECTIONS, NO_NEIGHBOUR, RecordedCompactSpan, RecordedContour, RecordedSpan,
};
pub use settings::{
    BuildSettings, CellSettings, LevelError, MAX_GRID_CELLS, MAX_VOLUMES, MarkedVolume, convex_hull,
};
pub use stages::{PSEUDOCODE, Stage};
pub use why::{Reason, Setting, Suggestion, Why, explain, surface_heights, why};
