//! Any bytes as a MovingAI map, a navlab JSON map, a Tiled map or a scenario file: parsing
//! must answer or refuse, never panic; a small map that parses is also searched (A*, Fringe
//! Search and Dijkstra must agree on the cost) and built into a navmesh.
#![no_main]

use libfuzzer_sys::fuzz_target;
use navlab::grid::movingai::{parse_map, parse_navlab_json, parse_scenarios};
use navlab::grid::search::grid_search;
use navlab::grid::tiled::{parse_tmj, parse_tmx};
use navlab::grid::{Connectivity, GridAlgorithm, Heuristic, TileMap};
use navlab::navmesh::from_map::navmesh_from_map;
use navlab::search::NoObserver;

fuzz_target!(|data: &[u8]| {
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
    if let Some(map) = map.filter(|map| map.cell_count() <= 4096) {
        search_and_build(&map);
    }
});

fn search_and_build(map: &TileMap) {
    let passable: Vec<usize> = (0..map.cell_count())
        .filter(|&i| map.is_passable(map.cell(i)))
        .collect();
    if let (Some(&first), Some(&last)) = (passable.first(), passable.last()) {
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
