//! What the `map_files` fuzz target does with one input, shared with `core/tests/malformed.rs` so
//! that CI compiles it and runs it on proptest's inputs.

use navlab_core::grid::movingai::{parse_map, parse_navlab_json, parse_scenarios};
use navlab_core::grid::search::grid_search;
use navlab_core::grid::tiled::{parse_tmj, parse_tmx};
use navlab_core::grid::{Connectivity, GridAlgorithm, Heuristic, TileMap};
use navlab_core::navmesh::from_map::navmesh_from_map;
use navlab_core::search::NoObserver;

/// The most cells of a map that loads for it to be searched and built too (a fuzzer's input
/// can declare a huge map; parsing it is what is tested then).
const SEARCHED_CELLS: usize = 4096;

/// The first byte chooses the format (`.map`, navlab `.json`, `.tmx`, `.tmj`, `.scen`), the
/// rest is the file. Parsing may refuse, never panic; a small map that loads is searched from
/// its first passable cell to its last, where A* and Fringe Search must cost what Dijkstra
/// costs (8 and 4 directions), and built into a navmesh with and without an agent radius.
pub fn map_file(data: &[u8]) {
    let Some((&format, bytes)) = data.split_first() else {
        return;
    };
    let map = match format % 5 {
        0 => parse_map(bytes, "fuzz.map").ok(),
        1 => parse_navlab_json(bytes, "fuzz.json").ok(),
        2 => parse_tmx(bytes, "fuzz.tmx").ok().map(|import| import.map),
        3 => parse_tmj(bytes, "fuzz.tmj").ok().map(|import| import.map),
        _ => {
            let _ = parse_scenarios(&String::from_utf8_lossy(bytes), "fuzz.scen");
            None
        }
    };
    if let Some(map) = map.filter(|map| map.cell_count() <= SEARCHED_CELLS) {
        search_and_build(&map);
    }
}

/// [`map_file`] on a whole file on disk, read as every map reader reads one (`.map`, navlab
/// `.json` or Tiled by its name, MovingAI `.map` whatever its name, `.scen`). A folder, a device
/// or a pipe is refused, never read.
pub fn map_path(path: &std::path::Path) {
    use navlab_core::grid::movingai::{load_any, load_map, load_scenarios};
    for map in [load_any(path).ok(), load_map(path).ok()]
        .into_iter()
        .flatten()
    {
        if map.cell_count() <= SEARCHED_CELLS {
            search_and_build(&map);
        }
    }
    let _ = load_scenarios(path);
}

fn search_and_build(map: &TileMap) {
    let passable = |&i: &usize| map.is_passable(map.cell(i));
    let cells = 0..map.cell_count();
    if let (Some(first), Some(last)) = (cells.clone().find(passable), cells.rev().find(passable)) {
        let (start, goal) = (map.cell(first), map.cell(last));
        for connectivity in [Connectivity::Eight, Connectivity::Four] {
            let cost = |algorithm| {
                grid_search(map, start, goal, algorithm, connectivity, &mut NoObserver).cost
            };
            let dijkstra = cost(GridAlgorithm::Dijkstra);
            let heuristic = Heuristic::Octile;
            for other in [
                GridAlgorithm::AStar {
                    heuristic,
                    weight: 1.0,
                },
                GridAlgorithm::Fringe { heuristic },
            ] {
                let found = cost(other);
                let agree = (found.is_infinite() && dijkstra.is_infinite())
                    || (found - dijkstra).abs() <= 1e-9 * dijkstra.max(1.0);
                assert!(agree, "{} found {found}, Dijkstra {dijkstra}", other.name());
            }
        }
    }
    for radius in [0.0, 0.5] {
        let _ = navmesh_from_map(map, radius);
    }
}
