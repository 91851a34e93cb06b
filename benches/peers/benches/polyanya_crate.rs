//! navlab's Polyanya against the `polyanya` crate (vleue, 0.18) on the same meshes and the same
//! queries, each called as its own users call it: the mesh loaded once, then one call per
//! query that locates both points and returns the path.
//!
//! * navlab: `NavMesh::load(file, Plane::Xy)`, then `anyangle::shortest_path(&mesh, a, b,
//!   &mut NoObserver)`.
//! * the crate: `Mesh::try_from(PolyanyaFile::from_file(file))` (which bakes its point index and
//!   islands, as the crate does by default), then `mesh.path(a, b)`.
//!
//! Before anything is timed, both must agree on every length (1e-3 relative: the crate works in
//! `f32`). The meshes: the Polyanya arena meshes from `../shared/testdata` (its 160 scenario
//! pairs), and the Aurora meshes the crate ships in its package (a StarCraft map, 34,816
//! triangles; every tenth of its scenarios) and the Iron Harvest game mesh (3,860 triangles;
//! every tenth of its scenarios), read from Cargo's copy of the crate. A mesh that is not there
//! is skipped with a message.
//!
//! Run: `cargo bench --manifest-path benches/peers/Cargo.toml`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use navlab_core::geom::Vec2;
use navlab_core::navmesh::anyangle::{SearchFaces, shortest_path, shortest_path_walking};
use navlab_core::navmesh::{NavMesh, Plane};
use navlab_core::search::NoObserver;
use polyanya::{Mesh, PolyanyaFile};
use std::hint::black_box;
use std::path::{Path, PathBuf};

#[path = "common/crate_files.rs"]
mod crate_files;
use crate_files::from_crate;

#[path = "common/rounds.rs"]
mod rounds;
use rounds::print_alternating_ratio;

fn testdata(rel: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/testdata")
        .join(rel);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("SKIPPED: {} is absent", path.display());
        None
    }
}

/// Start and goal of each line of a MovingAI-style scenario file, every `step`th line.
fn scenario_pairs(path: &Path, step: usize) -> Vec<(f64, f64, f64, f64)> {
    let text = std::fs::read_to_string(path).expect("scenarios read");
    text.lines()
        .skip(1)
        .step_by(step)
        .filter_map(|line| {
            let f: Vec<f64> = line
                .split_whitespace()
                .skip(4)
                .take(4)
                .filter_map(|x| x.parse().ok())
                .collect();
            (f.len() == 4).then(|| (f[0], f[1], f[2], f[3]))
        })
        .collect()
}

/// The arena pairs, from `arena.anyangle.csv`.
fn arena_pairs() -> Option<Vec<(f64, f64, f64, f64)>> {
    let text = std::fs::read_to_string(testdata("meshes/polyanya/arena.anyangle.csv")?).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("bucket"))
            .filter_map(|l| {
                let f: Vec<f64> = l.split(',').filter_map(|x| x.trim().parse().ok()).collect();
                (f.len() >= 5).then(|| (f[1], f[2], f[3], f[4]))
            })
            .collect(),
    )
}

fn compare(c: &mut Criterion, name: &str, file: &Path, pairs: &[(f64, f64, f64, f64)]) {
    let ours = NavMesh::load(file, Plane::Xy).expect("navlab loads the mesh");
    let theirs: Mesh = PolyanyaFile::from_file(file.to_str().expect("a UTF-8 path"))
        .try_into()
        .expect("the crate loads the mesh");
    let ours_pairs: Vec<(Vec2, Vec2)> = pairs
        .iter()
        .map(|&(a, b, c, d)| (Vec2::new(a, b), Vec2::new(c, d)))
        .collect();
    let their_pairs: Vec<(glam::Vec2, glam::Vec2)> = pairs
        .iter()
        .map(|&(a, b, c, d)| {
            (
                glam::Vec2::new(a as f32, b as f32),
                glam::Vec2::new(c as f32, d as f32),
            )
        })
        .collect();
    let mut compared = 0;
    // Search nodes made walking the triangles and walking the convex polygons.
    let mut nodes = [0, 0];
    for (&(a, b), &(ta, tb)) in ours_pairs.iter().zip(&their_pairs) {
        let mine = shortest_path(&ours, a, b, &mut NoObserver);
        if let (Some(s), Some(t)) = (ours.locate(a), ours.locate(b)) {
            for (count, walk) in nodes
                .iter_mut()
                .zip([SearchFaces::Triangles, SearchFaces::Polygons])
            {
                *count += shortest_path_walking(&ours, s, t, walk, &mut NoObserver).nodes_pushed;
            }
        }
        let Some(path) = theirs.path(ta, tb) else {
            assert!(
                !mine.is_found(),
                "{name}: {a} → {b}: the crate finds no path"
            );
            continue;
        };
        let theirs_length = f64::from(path.length);
        assert!(
            (mine.length - theirs_length).abs() <= 1e-3 * theirs_length.max(1.0),
            "{name}: {a} → {b}: navlab {} against the crate's {theirs_length}",
            mine.length
        );
        compared += 1;
    }
    eprintln!(
        "{name}: {} triangles searched as {} convex polygons, {} pairs, {compared} lengths agree; \
         {} search nodes on the triangles, {} on the polygons",
        ours.triangles().len(),
        ours.merged_faces().len(),
        pairs.len(),
        nodes[0],
        nodes[1]
    );
    let ours_round = || {
        for &(a, b) in &ours_pairs {
            black_box(shortest_path(&ours, a, b, &mut NoObserver));
        }
    };
    let theirs_round = || {
        for &(a, b) in &their_pairs {
            black_box(theirs.path(a, b));
        }
    };
    print_alternating_ratio(name, &ours_round, &theirs_round, 0.05);
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    let per = format!("per {} queries", pairs.len());
    group.bench_function(BenchmarkId::new("navlab", &per), |bench| {
        bench.iter(|| {
            for &(a, b) in &ours_pairs {
                black_box(shortest_path(&ours, a, b, &mut NoObserver));
            }
        })
    });
    group.bench_function(BenchmarkId::new("polyanya crate", &per), |bench| {
        bench.iter(|| {
            for &(a, b) in &their_pairs {
                black_box(theirs.path(a, b));
            }
        })
    });
    group.finish();
}

fn arena(c: &mut Criterion) {
    let Some(pairs) = arena_pairs() else {
        return;
    };
    for file in ["arena.mesh", "arena-merged.mesh"] {
        if let Some(path) = testdata(&format!("meshes/polyanya/{file}")) {
            compare(c, &format!("peer_{file}"), &path, &pairs);
        }
    }
}

fn aurora(c: &mut Criterion) {
    let Some(scenarios) = from_crate("scenarios/aurora.scen") else {
        return;
    };
    let pairs = scenario_pairs(&scenarios, 10);
    for file in ["aurora.mesh", "aurora-merged.mesh"] {
        if let Some(path) = from_crate(&format!("meshes/v2/{file}")) {
            compare(c, &format!("peer_{file}"), &path, &pairs);
        }
    }
}

/// The Iron Harvest game mesh the crate ships (Polyanya v3, 3,860 triangles) and every tenth
/// of its scenarios.
fn iron_harvest(c: &mut Criterion) {
    let Some(scenarios) = from_crate("meshes/v3/scene_mp_2p_01.mesh.scen") else {
        return;
    };
    let pairs = scenario_pairs(&scenarios, 10);
    if let Some(path) = from_crate("meshes/v3/scene_mp_2p_01.mesh") {
        compare(c, "peer_scene_mp_2p_01.mesh", &path, &pairs);
    }
}

criterion_group!(benches, arena, aurora, iron_harvest);
criterion_main!(benches);
