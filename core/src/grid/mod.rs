//! Tile maps: terrain with costs, MovingAI `.map`/`.scen` files, the app's own format and Tiled
//! imports, and search on the grid with the same instrumented algorithms as the navmesh.

pub mod bresenham;
pub mod compare;
pub mod document;
pub mod dstar_lite;
pub mod free_segment;
pub mod jps;
pub mod jps_plus;
pub mod map;
pub mod movingai;
pub mod quadtree;
pub mod search;
pub mod theta;
pub mod tiled;
pub mod tiles;
pub mod visibility;

pub use document::MapDocument;
pub use map::{Cell, Connectivity, MapError, TileMap};
pub use search::{AlgorithmKind, GridAlgorithm, GridPath, Heuristic, SearchTuning, grid_search};
pub use tiles::{Tile, TileCosts};

/// True for the extensions of the tile maps navlab reads (`.map`, navlab `.json`, Tiled
/// `.tmx`/`.tmj`, any case); meshes are `.obj` and `.mesh`. The app opens a file in its view by
/// this, and the CLI names the right command when given the other kind.
pub fn is_map_path(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| {
        ["map", "json", "tmx", "tmj"]
            .iter()
            .any(|m| e.eq_ignore_ascii_case(m))
    })
}
