//! Any bytes as an OBJ (either plane) or a Polyanya mesh: parsing, the diagnostics, the repair
//! and path queries across the mesh must answer or refuse, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use navlab::geom::Vec2;
use navlab::navmesh::diagnose::{CheckOptions, check, check_raw, repair};
use navlab::navmesh::query::{CostModel, QueryOptions, find_path};
use navlab::navmesh::{Plane, obj, polyanya};
use navlab::search::NoObserver;

fuzz_target!(|data: &[u8]| {
    let Some((&format, bytes)) = data.split_first() else {
        return;
    };
    let parsed = match format % 3 {
        0 => obj::parse(bytes, "fuzz.obj", Plane::Xz),
        1 => obj::parse(bytes, "fuzz.obj", Plane::Xy),
        _ => polyanya::parse(bytes, "fuzz.mesh"),
    };
    let Ok(mesh) = parsed else {
        return;
    };
    let options = CheckOptions::default();
    let _ = check(&mesh, &options);
    let (repaired, _) = repair(mesh.raw(), &options);
    let _ = check_raw(&repaired, &options);
    let b = mesh.bounds();
    let mid = Vec2::new((b.min.x + b.max.x) / 2.0, (b.min.y + b.max.y) / 2.0);
    for (from, to) in [(b.min, b.max), (mid, b.max), (b.max, b.min)] {
        for cost in [CostModel::Centroid, CostModel::Midpoint] {
            let options = QueryOptions {
                cost,
                ..QueryOptions::default()
            };
            let _ = find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver);
        }
    }
});
