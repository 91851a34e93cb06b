//! What the `mesh_files` fuzz target does with one input, shared with `core/tests/malformed.rs` so
//! that CI compiles it and runs it on proptest's inputs.

use navlab_core::geom::Vec2;
use navlab_core::navmesh::diagnose::{CheckOptions, check, check_raw, repair};
use navlab_core::navmesh::query::{CostModel, QueryOptions, find_path};
use navlab_core::navmesh::{NavMesh, Plane, obj, polyanya};
use navlab_core::search::NoObserver;

/// The first byte chooses the format (OBJ in the XZ plane, OBJ in the XY plane, Polyanya), the
/// rest is the file. A mesh that loads is checked, repaired and checked again, and queried
/// across its bounds with both cost models: any of them may refuse, none may panic.
pub fn mesh_file(data: &[u8]) {
    let Some((&format, bytes)) = data.split_first() else {
        return;
    };
    let parsed = match format % 3 {
        0 => obj::parse(bytes, "fuzz.obj", Plane::Xz),
        1 => obj::parse(bytes, "fuzz.obj", Plane::Xy),
        _ => polyanya::parse(bytes, "fuzz.mesh"),
    };
    if let Ok(mesh) = parsed {
        check_mesh(&mesh);
    }
}

/// [`mesh_file`] on a whole file on disk, read as every reader reads one: as OBJ in both
/// planes and as Polyanya. A folder, a device or a pipe is refused, never read.
pub fn mesh_path(path: &std::path::Path) {
    for mesh in [
        NavMesh::load(path, Plane::Xz),
        NavMesh::load(path, Plane::Xy),
        polyanya::load(path),
    ]
    .into_iter()
    .flatten()
    {
        check_mesh(&mesh);
    }
}

/// A mesh that loaded is checked, repaired and checked again, and queried across its bounds.
fn check_mesh(mesh: &NavMesh) {
    let options = CheckOptions::default();
    let _ = check(mesh, &options);
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
            let _ = find_path(mesh, from, to, options, &mut NoObserver, &mut NoObserver);
        }
    }
}
