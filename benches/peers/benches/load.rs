//! Reading a Polyanya `.mesh` file, navlab against the `polyanya` crate (vleue, 0.18), each
//! called as its users call it to have a mesh ready for queries:
//!
//! * navlab: `NavMesh::load(file, Plane::Xy)` (reads, welds, triangulates, shares edges, links
//!   neighbours, finds islands, indexes the triangles for point location, and checks the file's
//!   neighbour lists against its polygons).
//! * the crate: `Mesh::try_from(PolyanyaFile::from_file(file))`, which also bakes (its
//!   point-location tree and islands, as the crate does by default).
//!
//! The meshes: the generated 100k- and 300k-triangle meshes of the navmesh bench written as
//! `.mesh` files (one polygon per triangle) into the system's temporary folder, and the Aurora
//! mesh the crate ships. Besides criterion's times, each load's peak of heap bytes in use is
//! printed, measured by a counting allocator around the system's (both loads pay it alike), and
//! the median ratio of eleven alternating rounds.
//!
//! Run: `cargo bench --manifest-path benches/peers/Cargo.toml --bench load`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use navlab_core::navmesh::generate::{GridMeshSpec, jittered_grid};
use navlab_core::navmesh::polyanya::{PolygonShape, to_polyanya};
use navlab_core::navmesh::{NavMesh, Plane};
use polyanya::{Mesh, PolyanyaFile};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

#[path = "common/crate_files.rs"]
mod crate_files;
use crate_files::from_crate;

#[path = "common/rounds.rs"]
mod rounds;
use rounds::print_alternating_ratio;

/// The system allocator, counting the bytes in use and their highest mark.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(p, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            if new_size >= layout.size() {
                let grown = new_size - layout.size();
                let now = IN_USE.fetch_add(grown, Ordering::Relaxed) + grown;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The highest number of heap bytes in use while `run` ran, above what was in use before, and
/// what it returned (kept until after the measure, so that its drop is not counted).
fn peak_of<T>(run: impl FnOnce() -> T) -> (usize, T) {
    let before = IN_USE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let kept = run();
    (PEAK.load(Ordering::Relaxed) - before, kept)
}

fn navlab_load(file: &Path) -> NavMesh {
    NavMesh::load(file, Plane::Xy).expect("navlab loads the mesh")
}

fn crate_load(file: &Path) -> Mesh {
    PolyanyaFile::from_file(file.to_str().expect("a UTF-8 path"))
        .try_into()
        .expect("the crate loads the mesh")
}

fn compare(c: &mut Criterion, name: &str, file: &Path) {
    let (ours_bytes, ours) = peak_of(|| navlab_load(file));
    let (theirs_bytes, theirs) = peak_of(|| crate_load(file));
    eprintln!(
        "{name}: {} triangles; peak heap while loading: navlab {:.1} MB, the crate {:.1} MB \
         ({} polygons)",
        ours.triangles().len(),
        ours_bytes as f64 / 1e6,
        theirs_bytes as f64 / 1e6,
        theirs
            .layers
            .iter()
            .map(|l| l.polygons.len())
            .sum::<usize>(),
    );
    drop((ours, theirs));
    print_alternating_ratio(
        name,
        &|| drop(black_box(navlab_load(file))),
        &|| drop(black_box(crate_load(file))),
        0.2,
    );
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("navlab", "load"), |b| {
        b.iter(|| navlab_load(file))
    });
    group.bench_function(BenchmarkId::new("polyanya crate", "load + bake"), |b| {
        b.iter(|| crate_load(file))
    });
    group.finish();
}

/// A generated mesh of about `triangles` triangles written as a `.mesh` file of triangles.
fn generated(triangles: usize) -> PathBuf {
    let mesh = jittered_grid(GridMeshSpec::with_about(triangles, 7));
    let text = to_polyanya(&mesh, PolygonShape::Triangles).expect("a flat mesh writes");
    let path = std::env::temp_dir().join(format!(
        "navlab-load-bench-{}k-{}.mesh",
        triangles / 1000,
        std::process::id()
    ));
    std::fs::write(&path, text).expect("the temporary folder takes the mesh");
    path
}

fn loads(c: &mut Criterion) {
    for triangles in [100_000, 300_000] {
        let path = generated(triangles);
        compare(c, &format!("load_{}k", triangles / 1000), &path);
        let _ = std::fs::remove_file(&path);
    }
    if let Some(path) = from_crate("meshes/v2/aurora.mesh") {
        compare(c, "load_aurora.mesh", &path);
    }
}

criterion_group!(benches, loads);
criterion_main!(benches);
