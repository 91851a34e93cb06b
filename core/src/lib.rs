//! navlab-core: navigation meshes and pathfinding as a library, with no window.
//!
//! The algorithms are plain code that reports each step as an event: [`navmesh`] loads meshes
//! and answers path queries (A* over triangles, portals and the funnel, Polyanya's exact
//! shortest path), diagnoses and repairs them and edits them; [`search`] holds the generic,
//! instrumented searches; [`grid`] tile maps and their searches; [`pursuit`] the pursuit by
//! sight and smell trail; [`partitions`] the four partitions of a map; [`geom`] the exact
//! geometry under them all. The `navlab` crate puts them in a window and on the command line.

pub mod assets;
pub mod atomic;
pub mod clock;
pub mod geom;
pub mod grid;
pub mod input;
pub mod navmesh;
pub mod partitions;
pub mod pursuit;
pub mod search;
pub mod words;
