//! Building a navmesh from level geometry: Recast's demo level (`nav_test.obj`, from
//! `../shared/testdata`) with RecastDemo's defaults, the whole build from the level's triangles
//! to the polygons and the detail mesh. Run: `cargo bench --bench level --features level`
//! (at the root, where the app turns the feature on: `cargo bench --bench level`).

use criterion::{Criterion, criterion_group, criterion_main};
use navlab_core::level::{BuildSettings, build_navmesh};
use navlab_core::navmesh::{Plane, obj};
use std::path::PathBuf;

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

criterion_group!(benches, level);
criterion_main!(benches);
