//! Grid search on the MovingAI maps: our A*, Fringe Search and Jump Point Search, and the
//! `pathfinding` crate's `astar` and `fringe`, on the same scenarios, same moves and same
//! heuristic; building a navmesh from each map; and the four partitions of each map built and
//! searched. Run: `cargo bench --bench grid` (reads `../shared/testdata/movingai`).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use navlab_core::grid::movingai::{Scenario, load_map, load_scenarios, matches_six_digits};
use navlab_core::grid::search::{GridScratch, grid_search_with_scratch};
use navlab_core::grid::{Connectivity, GridAlgorithm, Heuristic, TileMap};
use navlab_core::search::NoObserver;
use ordered_float::OrderedFloat;
use std::hint::black_box;
use std::path::PathBuf;

const ASTAR: GridAlgorithm = GridAlgorithm::AStar {
    heuristic: Heuristic::Octile,
    weight: 1.0,
};
const FRINGE: GridAlgorithm = GridAlgorithm::Fringe {
    heuristic: Heuristic::Octile,
};

fn data(name: &str) -> Option<(TileMap, Vec<Scenario>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata/movingai");
    let map = load_map(&dir.join(name)).ok()?;
    let scen = load_scenarios(&dir.join(format!("{name}.scen"))).ok()?;
    Some((map, scen))
}

fn octile(map: &TileMap, i: usize, goal: usize) -> f64 {
    Heuristic::Octile.distance(map.cell(i), map.cell(goal))
}

/// The moves from a node in the form the `pathfinding` crate takes, as a careful user writes
/// them: the (at most eight) moves in an array on the stack, handed over as its iterator, so
/// that no node allocates.
type Moves = std::iter::Take<std::array::IntoIter<(usize, OrderedFloat<f64>), 8>>;

fn crate_successors(map: &TileMap) -> impl FnMut(&usize) -> Moves + '_ {
    move |&n| {
        let mut moves = [(0, OrderedFloat(0.0)); 8];
        let mut len = 0;
        map.for_each_move(n, Connectivity::Eight, |next, cost| {
            if let Some(slot) = moves.get_mut(len) {
                *slot = (next, OrderedFloat(cost));
                len += 1;
            }
        });
        moves.into_iter().take(len)
    }
}

fn crate_astar(map: &TileMap, s: &Scenario) -> Option<f64> {
    let (start, goal) = (map.index(s.start), map.index(s.goal));
    pathfinding::prelude::astar(
        &start,
        crate_successors(map),
        |&n| OrderedFloat(octile(map, n, goal)),
        |&n| n == goal,
    )
    .map(|(_, c)| c.0)
}

fn crate_fringe(map: &TileMap, s: &Scenario) -> Option<f64> {
    let (start, goal) = (map.index(s.start), map.index(s.goal));
    pathfinding::prelude::fringe(
        &start,
        crate_successors(map),
        |&n| OrderedFloat(octile(map, n, goal)),
        |&n| n == goal,
    )
    .map(|(_, c)| c.0)
}

fn grid(c: &mut Criterion) {
    for (name, every) in [
        ("arena.map", 1),
        ("random512-10-0.map", 10),
        ("maze512-4-0.map", 200),
    ] {
        let Some((map, all)) = data(name) else {
            eprintln!("SKIPPED: ../shared/testdata/movingai/{name} is absent");
            continue;
        };
        let scenarios: Vec<Scenario> = all.into_iter().step_by(every).collect();
        let mut scratch = GridScratch::default();
        // Everyone must get every listed length right before anyone is timed.
        for s in &scenarios {
            for algorithm in [ASTAR, FRINGE, GridAlgorithm::Jps] {
                let r = grid_search_with_scratch(
                    &mut scratch,
                    &map,
                    s.start,
                    s.goal,
                    algorithm,
                    Connectivity::Eight,
                    &mut NoObserver,
                );
                assert!(
                    matches_six_digits(r.cost, s.optimal),
                    "{name} line {}",
                    s.line
                );
            }
            let a = crate_astar(&map, s).expect("path");
            let f = crate_fringe(&map, s).expect("path");
            assert!(matches_six_digits(a, s.optimal) && matches_six_digits(f, s.optimal));
        }
        let mut group = c.benchmark_group(format!("grid_{name}_{}_scenarios", scenarios.len()));
        group.sample_size(10);
        for (label, algorithm) in [
            ("navlab_astar", ASTAR),
            ("navlab_fringe", FRINGE),
            (
                "navlab_jps_building_its_grid_each_query",
                GridAlgorithm::Jps,
            ),
        ] {
            group.bench_function(BenchmarkId::from_parameter(label), |b| {
                b.iter(|| {
                    for s in &scenarios {
                        black_box(grid_search_with_scratch(
                            &mut scratch,
                            &map,
                            s.start,
                            s.goal,
                            algorithm,
                            Connectivity::Eight,
                            &mut NoObserver,
                        ));
                    }
                })
            });
        }
        // JPS as a game calls it: the map's bit rows and columns built once, then searched.
        let jps = navlab_core::grid::jps::JpsGrid::new(&map).expect("one tile cost");
        let mut astar_scratch = navlab_core::search::AStarScratch::default();
        group.bench_function(BenchmarkId::from_parameter("navlab_jps"), |b| {
            b.iter(|| {
                for s in &scenarios {
                    let found = jps.search(&mut astar_scratch, s.start, s.goal, &mut NoObserver);
                    black_box(jps.fill_in(&found.path));
                }
            })
        });
        group.bench_function(BenchmarkId::from_parameter("navlab_jps_grid_build"), |b| {
            b.iter(|| black_box(navlab_core::grid::jps::JpsGrid::new(&map)))
        });
        // JPS+ likewise: its jump tables built once (timed on their own), then searched.
        let jps_plus = navlab_core::grid::jps_plus::JpsPlusGrid::new(&map).expect("tables");
        for s in &scenarios {
            let found = jps_plus.search(&mut astar_scratch, s.start, s.goal, &mut NoObserver);
            assert!(
                matches_six_digits(found.cost, s.optimal),
                "JPS+ {name} line {}",
                s.line
            );
        }
        group.bench_function(BenchmarkId::from_parameter("navlab_jps_plus"), |b| {
            b.iter(|| {
                for s in &scenarios {
                    let found =
                        jps_plus.search(&mut astar_scratch, s.start, s.goal, &mut NoObserver);
                    black_box(jps_plus.fill_in(&found.path));
                }
            })
        });
        group.bench_function(
            BenchmarkId::from_parameter("navlab_jps_plus_tables_build"),
            |b| b.iter(|| black_box(navlab_core::grid::jps_plus::JpsPlusGrid::new(&map))),
        );
        group.bench_function(BenchmarkId::from_parameter("pathfinding_astar"), |b| {
            b.iter(|| {
                for s in &scenarios {
                    black_box(crate_astar(&map, s));
                }
            })
        });
        group.bench_function(BenchmarkId::from_parameter("pathfinding_fringe"), |b| {
            b.iter(|| {
                for s in &scenarios {
                    black_box(crate_fringe(&map, s));
                }
            })
        });
        group.finish();
    }
}

/// Building a navmesh from each map (outline, constrained Delaunay triangulation, refinement,
/// the mesh builder), after checking it covers the map's passable tiles.
fn mesh_from_map(c: &mut Criterion) {
    use navlab_core::navmesh::from_map::navmesh_from_map;
    let mut group = c.benchmark_group("navmesh_from_map");
    group.sample_size(10);
    for name in ["arena.map", "maze512-4-0.map", "random512-10-0.map"] {
        let Some((map, _)) = data(name) else {
            eprintln!("SKIPPED: ../shared/testdata/movingai/{name} is absent");
            continue;
        };
        let mesh = navmesh_from_map(&map, 0.0).expect("a mesh");
        assert!((mesh.summary().area - map.passable_count() as f64).abs() < 1e-6);
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| black_box(navmesh_from_map(&map, 0.0)))
        });
    }
    group.finish();
}

/// The Partitions window's work on each map: building the four partitions (what an edit
/// costs) and searching them for a scenario of the last bucket (what a move of S or G costs),
/// after checking the grid's path has the listed optimal length.
fn partitions(c: &mut Criterion) {
    use navlab_core::partitions::{build_partitions, search_partitions};
    let mut group = c.benchmark_group("partitions");
    group.sample_size(10);
    for name in ["arena.map", "maze512-4-0.map", "random512-10-0.map"] {
        let Some((map, scenarios)) = data(name) else {
            eprintln!("SKIPPED: ../shared/testdata/movingai/{name} is absent");
            continue;
        };
        let Some(s) = scenarios.last() else {
            continue;
        };
        let built = build_partitions(&map, Connectivity::Eight);
        let comparison = search_partitions(built.clone(), &map, s.start, s.goal);
        let grid = comparison.results.first().expect("the grid's result");
        assert!(matches_six_digits(grid.raw_length(), s.optimal), "{name}");
        group.bench_function(BenchmarkId::new("build", name), |b| {
            b.iter(|| black_box(build_partitions(&map, Connectivity::Eight)))
        });
        group.bench_function(BenchmarkId::new("search", name), |b| {
            b.iter(|| black_box(search_partitions(built.clone(), &map, s.start, s.goal)))
        });
    }
    group.finish();
}

criterion_group!(benches, grid, mesh_from_map, partitions);
criterion_main!(benches);
