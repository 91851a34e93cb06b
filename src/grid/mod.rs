//! Tile maps: terrain with costs, MovingAI `.map`/`.scen` files, the app's own format and Tiled
//! imports, and search on the grid with the same instrumented algorithms as the navmesh.

pub mod bresenham;
mod json_lines;
pub mod map;
pub mod movingai;
pub mod search;
pub mod tiled;
mod tiled_objects;
pub mod tiles;

pub use map::{Cell, Connectivity, MapError, TileMap};
pub use search::{GridAlgorithm, GridPath, Heuristic, grid_search};
pub use tiles::{Tile, TileCosts};
