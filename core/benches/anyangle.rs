//! The exact shortest path (Polyanya) against the corridor query (A* over triangles with each
//! cost model, then the funnel) on the same pairs: the 160 scenario pairs of the Polyanya arena mesh, random pairs
//! on a CDT of a 512 × 512 MovingAI maze, and on a generated 100k-triangle mesh. No observer.
//! Run: `cargo bench --bench anyangle`. The meshes from `../shared/testdata` are skipped with a
//! message when absent.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use navlab_core::geom::Vec2;
use navlab_core::navmesh::anyangle::shortest_path;
use navlab_core::navmesh::generate::{GridMeshSpec, jittered_grid};
use navlab_core::navmesh::{CostModel, NavMesh, Plane, QueryOptions, find_path};
use navlab_core::search::NoObserver;
use navlab_core::search::funnel::string_pull;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;
use std::path::PathBuf;

fn testdata(rel: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/testdata")
        .join(rel);
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "SKIPPED: {} is absent (see ../shared/testdata/SOURCES.md)",
            path.display()
        );
        None
    }
}

/// The arena scenario pairs, from `arena.anyangle.csv`.
fn arena_pairs() -> Option<Vec<(Vec2, Vec2)>> {
    let text = std::fs::read_to_string(testdata("meshes/polyanya/arena.anyangle.csv")?).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("bucket"))
            .filter_map(|l| {
                let f: Vec<f64> = l.split(',').filter_map(|x| x.trim().parse().ok()).collect();
                (f.len() >= 5).then(|| (Vec2::new(f[1], f[2]), Vec2::new(f[3], f[4])))
            })
            .collect(),
    )
}

/// Random pairs of triangle centroids on one island.
fn random_pairs(mesh: &NavMesh, n: usize, seed: u64) -> Vec<(Vec2, Vec2)> {
    let tris = mesh.triangles();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pairs = Vec::new();
    while pairs.len() < n {
        let a = rng.random_range(0..tris.len());
        let b = rng.random_range(0..tris.len());
        if mesh.island_of(a) == mesh.island_of(b) {
            pairs.push((tris[a].centroid, tris[b].centroid));
        }
    }
    pairs
}

/// The corridor models timed, each with its heuristic weight.
const MODELS: [(CostModel, f64); 4] = [
    (CostModel::Centroid, 1.0),
    (CostModel::Midpoint, 1.0),
    (CostModel::Straight, 1.0),
    (CostModel::Straight, 1.02),
];

fn model_name((cost, weight): (CostModel, f64)) -> String {
    if weight == 1.0 {
        format!("corridor {cost:?}")
    } else {
        format!("corridor {cost:?} weight {weight}")
    }
}

fn compare(c: &mut Criterion, name: &str, mesh: &NavMesh, pairs: &[(Vec2, Vec2)]) {
    let shortest: Vec<f64> = pairs
        .iter()
        .map(|&(a, b)| {
            let path = shortest_path(mesh, a, b, &mut NoObserver);
            assert!(path.is_found(), "{a} → {b}");
            path.length
        })
        .collect();
    // How much longer each model's corridor paths are on these very pairs (printed, not timed).
    for (cost, heuristic_weight) in MODELS {
        let options = QueryOptions {
            cost,
            heuristic_weight,
            ..QueryOptions::default()
        };
        let excess: f64 = pairs
            .iter()
            .zip(&shortest)
            .map(|(&(a, b), &best)| {
                let path = find_path(mesh, a, b, options, &mut NoObserver, &mut NoObserver)
                    .expect("finite points");
                (path.length / best - 1.0).max(0.0)
            })
            .sum();
        eprintln!(
            "{name}: {}: corridor paths {:.2} % longer than the shortest on average",
            model_name((cost, heuristic_weight)),
            100.0 * excess / pairs.len() as f64
        );
    }
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    let per = format!("per {} queries", pairs.len());
    group.bench_function(BenchmarkId::new("polyanya", &per), |bench| {
        bench.iter(|| {
            for &(a, b) in pairs {
                black_box(shortest_path(mesh, a, b, &mut NoObserver));
            }
        })
    });
    for (cost, heuristic_weight) in MODELS {
        let options = QueryOptions {
            cost,
            heuristic_weight,
            ..QueryOptions::default()
        };
        let name = model_name((cost, heuristic_weight));
        group.bench_function(BenchmarkId::new(name, &per), |bench| {
            bench.iter(|| {
                for &(a, b) in pairs {
                    black_box(find_path(
                        mesh,
                        a,
                        b,
                        options,
                        &mut NoObserver,
                        &mut NoObserver,
                    ));
                }
            })
        });
    }
    // What any corridor query costs however its corridor is found: locating both points and
    // pulling the string through the corridor's portals (here the straight model's, given).
    let portals: Vec<_> = pairs
        .iter()
        .map(|&(a, b)| {
            let options = QueryOptions {
                cost: CostModel::Straight,
                ..QueryOptions::default()
            };
            find_path(mesh, a, b, options, &mut NoObserver, &mut NoObserver)
                .map(|p| p.portals)
                .unwrap_or_default()
        })
        .collect();
    group.bench_function(
        BenchmarkId::new("corridor given: locate and funnel only", &per),
        |bench| {
            bench.iter(|| {
                for (&(a, b), portals) in pairs.iter().zip(&portals) {
                    let (Some(s), Some(t)) = (mesh.locate(a), mesh.locate(b)) else {
                        continue;
                    };
                    black_box(string_pull(s.point, t.point, portals, &mut NoObserver));
                }
            })
        },
    );
    group.finish();
}

fn arena(c: &mut Criterion) {
    let (Some(path), Some(pairs)) = (testdata("meshes/polyanya/arena.mesh"), arena_pairs()) else {
        return;
    };
    let mesh = NavMesh::load(&path, Plane::Xy).expect("arena.mesh loads");
    compare(c, "optimal_arena", &mesh, &pairs);
}

fn maze(c: &mut Criterion) {
    let Some(path) = testdata("movingai/maze512-4-0.map") else {
        return;
    };
    let map = navlab_core::grid::movingai::load_map(&path).expect("maze loads");
    let mesh = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0).expect("maze meshes");
    compare(c, "optimal_maze512", &mesh, &random_pairs(&mesh, 20, 3));
}

fn generated(c: &mut Criterion) {
    let mesh = jittered_grid(GridMeshSpec::with_about(100_000, 7));
    compare(c, "optimal_100k", &mesh, &random_pairs(&mesh, 20, 2));
}

criterion_group!(benches, arena, maze, generated);
criterion_main!(benches);
