//! Point location, path queries and edits on a generated 100k-triangle mesh; point location
//! against the linear scan of “A* on a navigation mesh” as the baseline; queries on a mesh
//! with 100 off-mesh links far from their paths against the same queries without links; the
//! clearance of every portal and triangle; paths for an agent's radius. Run:
//! `cargo bench --bench navmesh`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use navlab_core::geom::Vec2;
use navlab_core::navmesh::generate::{GridMeshSpec, jittered_grid};
use navlab_core::navmesh::{CostModel, NavMesh, PathStatus, QueryOptions, find_path};
use navlab_core::search::{NoObserver, Observer};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;

#[path = "../../benches/common/ratio.rs"]
mod ratio;
use ratio::print_ratio;

fn mesh_100k() -> NavMesh {
    let mesh = jittered_grid(GridMeshSpec::with_about(100_000, 7));
    assert!(
        mesh.triangles().len() >= 100_000,
        "{}",
        mesh.triangles().len()
    );
    assert_eq!(mesh.island_count(), 1);
    mesh
}

fn random_points(mesh: &NavMesh, n: usize, seed: u64) -> Vec<Vec2> {
    let b = mesh.bounds();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            Vec2::new(
                rng.random_range(b.min.x..b.max.x),
                rng.random_range(b.min.y..b.max.y),
            )
        })
        .collect()
}

fn point_location(c: &mut Criterion) {
    let mesh = mesh_100k();
    let points = random_points(&mesh, 200, 1);
    // Same answers where the exact test finds a triangle (the area sums' slack accepts a superset).
    for &p in &points {
        if mesh.triangle_at(p).is_some() {
            assert!(mesh.triangle_at_linear_scan(p).is_some());
        }
    }
    let mut group = c.benchmark_group("point_location_100k");
    group.sample_size(10);
    group.bench_function("grid_index_exact (per 200 points)", |b| {
        b.iter(|| {
            for &p in &points {
                black_box(mesh.triangle_at(black_box(p)));
            }
        })
    });
    group.bench_function("linear_scan_area_sums (per 200 points)", |b| {
        b.iter(|| {
            for &p in &points {
                black_box(mesh.triangle_at_linear_scan(black_box(p)));
            }
        })
    });
    group.bench_function("locate_with_snap (per 200 points)", |b| {
        b.iter(|| {
            for &p in &points {
                black_box(mesh.locate(black_box(p)));
            }
        })
    });
    group.finish();
}

/// Counts events: the cheapest observer that still does something per step.
struct CountingObserver(u64);
impl<E> Observer<E> for CountingObserver {
    fn event(&mut self, _event: E) {
        self.0 = black_box(self.0 + 1);
    }
}

fn path_queries(c: &mut Criterion) {
    let mesh = mesh_100k();
    let tris = mesh.triangles();
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    let pairs: Vec<(Vec2, Vec2)> = (0..20)
        .map(|_| {
            let a = rng.random_range(0..tris.len());
            let b = rng.random_range(0..tris.len());
            (tris[a].centroid, tris[b].centroid)
        })
        .collect();
    let mut group = c.benchmark_group("path_query_100k");
    group.sample_size(10);
    for cost in [CostModel::Centroid, CostModel::Midpoint] {
        let options = QueryOptions {
            cost,
            ..QueryOptions::default()
        };
        for &(a, b) in &pairs {
            let path =
                find_path(&mesh, a, b, options, &mut NoObserver, &mut NoObserver).expect("finite");
            assert_eq!(path.status, PathStatus::Found);
        }
        group.bench_with_input(
            BenchmarkId::new("no_observer (per 20 queries)", format!("{cost:?}")),
            &options,
            |bench, &options| {
                bench.iter(|| {
                    for &(a, b) in &pairs {
                        black_box(find_path(
                            &mesh,
                            a,
                            b,
                            options,
                            &mut NoObserver,
                            &mut NoObserver,
                        ));
                    }
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("counting_observer (per 20 queries)", format!("{cost:?}")),
            &options,
            |bench, &options| {
                bench.iter(|| {
                    let mut search = CountingObserver(0);
                    let mut funnel = CountingObserver(0);
                    for &(a, b) in &pairs {
                        black_box(find_path(&mesh, a, b, options, &mut search, &mut funnel));
                    }
                    black_box(search.0 + funnel.0)
                })
            },
        );
    }
    // The exact shortest path between the same pairs.
    for &(a, b) in &pairs {
        let optimal = navlab_core::navmesh::anyangle::shortest_path(&mesh, a, b, &mut NoObserver);
        assert!(optimal.is_found());
    }
    group.bench_function("polyanya, no observer (per 20 queries)", |bench| {
        bench.iter(|| {
            for &(a, b) in &pairs {
                black_box(navlab_core::navmesh::anyangle::shortest_path(
                    &mesh,
                    a,
                    b,
                    &mut NoObserver,
                ));
            }
        })
    });
    group.finish();
}

/// The whole diagnostics pass on the 100k-triangle mesh (what opening the Diagnostics tab costs).
fn diagnostics(c: &mut Criterion) {
    use navlab_core::navmesh::diagnose::{CheckOptions, check};
    let mesh = mesh_100k();
    let report = check(&mesh, &CheckOptions::default());
    assert_eq!(report.islands, mesh.island_count());
    let mut group = c.benchmark_group("diagnostics_100k");
    group.sample_size(10);
    group.bench_function("check", |b| {
        b.iter(|| check(&mesh, &CheckOptions::default()))
    });
    group.finish();
}

/// An editor of a generated mesh of about `triangles` triangles holding one 3 × 2-cell
/// rectangle at its centre, that rectangle, and a door (closed) 20 cells to its left.
fn edited(
    triangles: usize,
) -> (
    navlab_core::navmesh::edit::MeshEditor,
    navlab_core::navmesh::edit::Shape,
    usize,
    f64,
) {
    use navlab_core::navmesh::edit::{MeshEditor, Shape, ShapeKind};
    use std::sync::Arc;
    let mesh = jittered_grid(GridMeshSpec::with_about(triangles, 7));
    let b = mesh.bounds();
    let centre = b.min.midpoint(b.max);
    let cell = ((b.max.x - b.min.x) * (b.max.y - b.min.y) / (triangles as f64 / 2.0)).sqrt();
    let rect = Shape::rectangle(
        centre,
        centre + Vec2::new(3.0 * cell, 2.0 * cell),
        ShapeKind::Obstacle,
    )
    .expect("rectangle");
    let before = mesh.triangles().len();
    let mut editor = MeshEditor::new(Arc::new(mesh));
    editor.add_shape(rect.clone()).expect("cut");
    assert_ne!(editor.mesh().triangles().len(), before);
    let door = Shape::rectangle(
        centre - Vec2::new(20.0 * cell, 0.0),
        centre - Vec2::new(18.0 * cell, -3.0 * cell),
        ShapeKind::Door { open: false },
    )
    .expect("door");
    let door = editor.add_shape(door).expect("door");
    (editor, rect, door, cell)
}

/// One obstacle edit: a 3 × 2-cell rectangle moved to a new place (the triangles under its old
/// and new places rebuilt, the rest of the mesh patched in place), and a door opened or
/// closed (each iteration toggles it once, so that iterations alternate opening and closing);
/// on the 100k-triangle mesh and, as the floor, on a 10k one (an edit's cost should not grow
/// with the mesh).
fn edits(c: &mut Criterion) {
    let mut group = c.benchmark_group("mesh_edit");
    group.sample_size(20);
    for (triangles, name) in [(100_000, "100k"), (10_000, "10k")] {
        let (mut editor, rect, door, cell) = edited(triangles);
        let offsets: Vec<Vec2> = (0..16)
            .map(|k| Vec2::new((k % 4) as f64 * 0.37 * cell, (k / 4) as f64 * 0.29 * cell))
            .collect();
        let mut k = 0;
        group.bench_function(format!("move one obstacle, {name}"), |bench| {
            bench.iter(|| {
                k = (k + 1) % offsets.len();
                editor.drag_shape(0, rect.moved(offsets[k])).expect("moved");
            })
        });
        group.bench_function(format!("open or close a door, {name}"), |bench| {
            bench.iter(|| editor.toggle_door(door).expect("toggled"))
        });
    }
    group.finish();
    for what in ["move one obstacle", "open or close a door"] {
        print_ratio(
            "mesh_edit",
            &format!("{what}, 100k"),
            &format!("{what}, 10k"),
            1.5,
        );
    }
}

/// The same 20 queries (in the mesh's left half) on the 100k mesh without links and with 100
/// jump links in its right-most tenth, far from every path: what links cost a query that does
/// not come near them (the goal: within 10 %).
fn far_links(c: &mut Criterion) {
    use navlab_core::navmesh::anyangle::shortest_path;
    use navlab_core::navmesh::links::OffMeshLink;
    let plain = mesh_100k();
    let b = plain.bounds();
    let (w, h) = (b.max.x - b.min.x, b.max.y - b.min.y);
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let mut at = |x0: f64, x1: f64| {
        Vec2::new(
            b.min.x + w * rng.random_range(x0..x1),
            b.min.y + h * rng.random_range(0.05..0.95),
        )
    };
    let pairs: Vec<(Vec2, Vec2)> = (0..20).map(|_| (at(0.05, 0.45), at(0.05, 0.45))).collect();
    let links: Vec<OffMeshLink> = (0..100)
        .map(|_| {
            let from = at(0.92, 0.97);
            OffMeshLink::new(from, from + Vec2::new(w * 0.02, h * 0.01))
        })
        .collect();
    let linked = plain.clone().with_links(links).expect("links");
    let mut group = c.benchmark_group("links_100k");
    group.sample_size(10);
    for (name, mesh) in [("no links", &plain), ("100 far links", &linked)] {
        for &(a, b) in &pairs {
            let path = find_path(
                mesh,
                a,
                b,
                QueryOptions::default(),
                &mut NoObserver,
                &mut NoObserver,
            )
            .expect("finite");
            assert_eq!(path.status, PathStatus::Found);
            assert!(!path.crosses_links());
        }
        group.bench_function(format!("corridor path, {name} (per 20 queries)"), |bench| {
            bench.iter(|| {
                for &(a, b) in &pairs {
                    black_box(find_path(
                        mesh,
                        a,
                        b,
                        QueryOptions::default(),
                        &mut NoObserver,
                        &mut NoObserver,
                    ));
                }
            })
        });
        group.bench_function(format!("polyanya, {name} (per 20 queries)"), |bench| {
            bench.iter(|| {
                for &(a, b) in &pairs {
                    black_box(shortest_path(mesh, a, b, &mut NoObserver));
                }
            })
        });
    }
    group.finish();
    for what in ["corridor path", "polyanya"] {
        print_ratio(
            "links_100k",
            &format!("{what}, 100 far links (per 20 queries)"),
            &format!("{what}, no links (per 20 queries)"),
            1.1,
        );
    }
}

/// The clearance of every portal and triangle of the 100k-triangle mesh (computed once per
/// mesh), and of the mesh of a MovingAI map with many walls when the test data is there.
fn clearance(c: &mut Criterion) {
    use navlab_core::navmesh::clearance::Clearance;
    let mesh = mesh_100k();
    let mut group = c.benchmark_group("clearance");
    group.sample_size(10);
    group.bench_function("every portal and triangle, 100k", |b| {
        b.iter(|| black_box(Clearance::of(&mesh)))
    });
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/testdata/movingai/random512-10-0.map");
    match navlab_core::grid::movingai::load_map(&map) {
        Ok(map) => {
            let mesh = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0)
                .expect("a mesh of the map");
            group.bench_function(
                format!(
                    "every portal and triangle, random512-10-0 ({} triangles)",
                    mesh.triangles().len()
                ),
                |b| b.iter(|| black_box(Clearance::of(&mesh))),
            );
        }
        Err(error) => eprintln!("skipping the map's clearance: {error}"),
    }
    // After an edit: a door opened on the 100k mesh, the clearance carried from the mesh's
    // before it (its snapshot taken, then only what is near the walls that changed worked out
    // again).
    {
        use navlab_core::navmesh::clearance::ClearanceSnapshot;
        let (mut editor, _, door, _) = edited(100_000);
        let before = std::sync::Arc::clone(editor.mesh());
        before.clearance();
        editor.toggle_door(door).expect("toggled");
        let after = std::sync::Arc::clone(editor.mesh());
        let (_, again) =
            Clearance::updated(&ClearanceSnapshot::of(&before, before.clearance()), &after);
        eprintln!(
            "a door toggled: {again} of {} portals and triangles worked out again",
            after.edges().len() + after.triangles().len()
        );
        group.bench_function(
            "after a door is toggled, 100k (carried through the edit)",
            |b| {
                b.iter(|| {
                    let snapshot = ClearanceSnapshot::of(&before, before.clearance());
                    black_box(Clearance::updated(&snapshot, &after))
                })
            },
        );
    }
    group.finish();
}

/// Paths for an agent's radius on the 100k-triangle mesh: corridor queries for radius 0 and for
/// a radius between the same pairs (the clearance worked out before: once per mesh); the exact
/// path for the radius the first time (the mesh shrunk by it, then kept) and later.
fn radius_queries(c: &mut Criterion) {
    use navlab_core::navmesh::radius::shortest_path_for_radius;
    let mesh = mesh_100k();
    let radius = 0.3 * mesh.clearance().widest();
    let tris = mesh.triangles();
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    let mut pairs: Vec<(Vec2, Vec2)> = Vec::new();
    while pairs.len() < 20 {
        let a = rng.random_range(0..tris.len());
        let b = rng.random_range(0..tris.len());
        let (Some(p), Some(q)) = (
            mesh.clearance().triangle_centre(a),
            mesh.clearance().triangle_centre(b),
        ) else {
            continue;
        };
        let options = QueryOptions {
            radius,
            ..QueryOptions::default()
        };
        // Pairs both searches answer for the radius (a centre with barely the radius of room
        // can lie between a circle and the polygon drawn round it, off the shrunk mesh).
        if find_path(&mesh, p, q, options, &mut NoObserver, &mut NoObserver)
            .is_some_and(|path| path.status == PathStatus::Found)
            && shortest_path_for_radius(&mesh, p, q, radius).is_ok_and(|path| path.is_found())
        {
            pairs.push((p, q));
        }
    }
    let mut group = c.benchmark_group("radius_100k");
    group.sample_size(10);
    for (name, r) in [("radius 0", 0.0), ("a radius", radius)] {
        let options = QueryOptions {
            cost: CostModel::Midpoint,
            radius: r,
            ..QueryOptions::default()
        };
        group.bench_function(format!("corridor path, {name} (per 20 queries)"), |bench| {
            bench.iter(|| {
                for &(a, b) in &pairs {
                    black_box(find_path(
                        &mesh,
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
    let (a, b) = pairs[0];
    group.bench_function(
        "exact path, first at a new radius (shrink, then search)",
        |bench| {
            bench.iter_batched(
                || mesh.clone(),
                |fresh| black_box(shortest_path_for_radius(&fresh, a, b, radius)),
                criterion::BatchSize::LargeInput,
            )
        },
    );
    assert!(
        shortest_path_for_radius(&mesh, a, b, radius).is_ok_and(|p| p.is_found()),
        "the exact path for the radius"
    );
    group.bench_function(
        "exact path, later at that radius (per 20 queries)",
        |bench| {
            bench.iter(|| {
                for &(a, b) in &pairs {
                    black_box(shortest_path_for_radius(&mesh, a, b, radius).ok());
                }
            })
        },
    );
    group.finish();
}

criterion_group!(
    benches,
    point_location,
    path_queries,
    diagnostics,
    edits,
    far_links,
    clearance,
    radius_queries
);
criterion_main!(benches);
