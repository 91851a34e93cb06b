//! One tick of a crowd of 1,000 agents (each following its own corridor path, ORCA against its
//! neighbours and the walls near it): on a generated 100k-triangle mesh, and on the navmesh of
//! the 512×512 MovingAI map `random512-10-0`. Each measured tick starts from the same state,
//! 40 ticks into the run. Run: `cargo bench --bench crowd` (the map is read from
//! `../shared/testdata/movingai`).

use criterion::{Criterion, criterion_group, criterion_main};
use navlab_core::crowd::{Crowd, CrowdSettings};
use navlab_core::navmesh::NavMesh;
use navlab_core::navmesh::generate::{GridMeshSpec, jittered_grid};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

const AGENTS: usize = 1000;

/// A crowd of 1,000 agents on `mesh`, 40 ticks in.
fn crowd_on(mesh: NavMesh) -> Crowd {
    let mesh = Arc::new(mesh);
    let specs = Crowd::random_specs(&mesh, AGENTS, 0.3, 1.2, 3);
    assert_eq!(specs.len(), AGENTS);
    let mut crowd = Crowd::new(mesh, specs, CrowdSettings::default());
    crowd.run(40);
    crowd
}

/// Times one tick of `crowd`, each from the same state.
fn bench_tick(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    crowd: &Crowd,
) {
    group.bench_function(name, |b| {
        b.iter_batched(
            || crowd.clone(),
            |mut crowd| {
                crowd.step();
                black_box(crowd)
            },
            criterion::BatchSize::LargeInput,
        )
    });
}

fn tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("crowd_tick");
    group.sample_size(20);
    let mesh = jittered_grid(GridMeshSpec::with_about(100_000, 7));
    bench_tick(
        &mut group,
        "1000 agents, 100k-triangle mesh",
        &crowd_on(mesh),
    );
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/testdata/movingai/random512-10-0.map");
    match navlab_core::grid::movingai::load_map(&path) {
        Ok(map) => {
            let mesh = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0)
                .expect("a navmesh of the map");
            eprintln!("random512-10-0: {} triangles", mesh.triangles().len());
            bench_tick(
                &mut group,
                "1000 agents, random512-10-0's navmesh",
                &crowd_on(mesh),
            );
        }
        Err(_) => eprintln!("SKIPPED: ../shared/testdata/movingai/random512-10-0.map is absent"),
    }
    group.finish();
}

criterion_group!(benches, tick);
criterion_main!(benches);
