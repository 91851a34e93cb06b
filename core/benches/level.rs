//! Building a navmesh from level geometry: Recast's demo level (`nav_test.obj`, from
//! `../shared/testdata`) and a generated level of 100,000 triangles (a ground with 8,400 boxes of
//! seeded sizes and heights), with RecastDemo's defaults, the whole build from the level's
//! triangles to the polygons and the detail mesh. Run: `cargo bench --bench level --features level`
//! (at the root, where the app turns the feature on: `cargo bench --bench level`).

use criterion::{Criterion, criterion_group, criterion_main};
use navlab_core::level::{BuildSettings, build_navmesh};
use navlab_core::navmesh::{Plane, obj};
use std::path::PathBuf;

/// A ground of 240 × 240 with a grid of boxes (seeded sizes and heights, some too high to
/// climb, some low enough to step on): 12 triangles a box.
fn generated_level(boxes_per_side: usize) -> (Vec<[f64; 3]>, Vec<Vec<usize>>) {
    let mut positions = Vec::new();
    let mut faces = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut add_box = |min: [f64; 3], max: [f64; 3]| {
        let [x0, y0, z0] = min;
        let [x1, y1, z1] = max;
        let base = positions.len();
        positions.extend([
            [x0, y0, z0],
            [x1, y0, z0],
            [x1, y0, z1],
            [x0, y0, z1],
            [x0, y1, z0],
            [x1, y1, z0],
            [x1, y1, z1],
            [x0, y1, z1],
        ]);
        for quad in [
            [4, 7, 6, 5],
            [0, 1, 2, 3],
            [0, 3, 7, 4],
            [1, 5, 6, 2],
            [0, 4, 5, 1],
            [3, 2, 6, 7],
        ] {
            faces.push(vec![base + quad[0], base + quad[1], base + quad[2]]);
            faces.push(vec![base + quad[0], base + quad[2], base + quad[3]]);
        }
    };
    let side = 240.0;
    add_box([0.0, -0.5, 0.0], [side, 0.0, side]);
    let pitch = side / boxes_per_side as f64;
    for i in 0..boxes_per_side {
        for j in 0..boxes_per_side {
            let (w, d) = (0.6 + 0.4 * pitch * random(), 0.6 + 0.4 * pitch * random());
            let height = 0.3 + 3.0 * random();
            let (x, z) = (i as f64 * pitch + 0.1, j as f64 * pitch + 0.1);
            add_box([x, 0.0, z], [x + w, height, z + d]);
        }
    }
    (positions, faces)
}

fn generated(c: &mut Criterion) {
    let (positions, faces) = generated_level(92);
    let triangles = faces.len();
    assert!(triangles >= 100_000, "{triangles} triangles");
    let settings = BuildSettings::default();
    let mut group = c.benchmark_group("level_build_generated");
    group.sample_size(10);
    group.bench_function("100k triangles", |b| {
        b.iter(|| build_navmesh(&positions, &faces, &settings).expect("builds"))
    });
    group.finish();
}

fn level(c: &mut Criterion) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/testdata/meshes/obj/nav_test.obj");
    let Ok(level) = obj::load_raw(&path, Plane::Xz) else {
        eprintln!(
            "SKIPPED: {} is absent (see ../shared/testdata/SOURCES.md)",
            path.display()
        );
        return;
    };
    let settings = BuildSettings::default();
    c.bench_function("level_build_nav_test", |b| {
        b.iter(|| build_navmesh(&level.positions, &level.polygons, &settings).expect("builds"))
    });
}

criterion_group!(benches, level, generated);
criterion_main!(benches);
