#![doc = include_str!("../README.md")]

pub mod assets;
pub mod atomic;
pub mod clock;
pub mod crowd;
pub mod geom;
pub mod grid;
pub mod input;
#[cfg(feature = "level")]
pub mod level;
pub mod navmesh;
pub mod partitions;
pub mod prelude;
pub mod pursuit;
pub mod search;
pub mod words;
