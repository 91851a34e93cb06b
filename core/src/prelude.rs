//! What most programs need, in one `use navlab_core::prelude::*;`: meshes and how they are read
//! and built, path queries and their answers, tile maps and their searches, and the observer
//! that receives a search's steps.

pub use crate::geom::Vec2;
pub use crate::grid::movingai::parse_map;
pub use crate::grid::{Cell, Connectivity, GridAlgorithm, GridPath, Heuristic, MapError, TileMap};
pub use crate::navmesh::anyangle::OptimalPath;
pub use crate::navmesh::areas::{AreaCostError, AreaCosts};
pub use crate::navmesh::{
    BuildError, BuildOptions, CostModel, LoadError, Location, NavMesh, Path, PathStatus, Plane,
    Query, QueryOptions, RawMesh, ReadOptions, TriId,
};
pub use crate::search::funnel::FunnelEvent;
pub use crate::search::{NoObserver, Observer, SearchEvent, SearchOutcome};
