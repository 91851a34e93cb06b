//! navlab: a lab for navigation meshes and pathfinding.
//!
//! The library holds the algorithms as plain code that reports each step as an event:
//! [`navmesh`] loads meshes and answers path queries (A* over triangles, portals, funnel),
//! [`search`] holds the generic, instrumented algorithms, [`geom`] the exact geometry under them.
//! The `navlab` binary exposes them on the command line and in a desktop window ([`app`], the
//! only module that uses egui).

pub mod app;
pub mod assets;
pub mod atomic;
pub mod cli;
pub mod clock;
pub mod geom;
pub mod grid;
pub mod input;
pub mod navmesh;
pub mod partitions;
pub mod pursuit;
pub mod search;
pub mod words;
