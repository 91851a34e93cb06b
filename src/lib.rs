//! navlab: a lab for navigation meshes and pathfinding.
//!
//! The algorithms live in the `navlab-core` crate, which has no window; their modules are
//! re-exported here under the same names. The `navlab` binary exposes them on the command line
//! ([`cli`]) and in a desktop and browser window ([`app`], the only module that uses egui).

pub mod app;
pub mod cli;

pub use navlab_core::{
    assets, atomic, clock, crowd, geom, grid, input, level, navmesh, partitions, pursuit, search,
    words,
};
