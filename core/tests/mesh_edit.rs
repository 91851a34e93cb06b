//! Editing meshes: obstacles, doors and area types checked against geometric oracles — areas
//! by clipping each triangle, overlap by clipping, paths by their geometry, A* against
//! Dijkstra — and the edited mesh against one built from scratch from the same triangles.

mod common;

use common::testdata;
use navlab_core::geom::Vec2;
use navlab_core::navmesh::areas::AreaCosts;
use navlab_core::navmesh::edit::{EditError, Edits, MeshEditor, Shape, ShapeKind};
use navlab_core::navmesh::generate::{GridMeshSpec, jittered_grid};
use navlab_core::navmesh::{
    BuildOptions, CostModel, NavMesh, PathStatus, Plane, QueryOptions, find_path, obj,
};
use navlab_core::search::NoObserver;
use proptest::prelude::*;
use std::sync::Arc;

// ---------- oracles ----------

fn cross(o: Vec2, a: Vec2, b: Vec2) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

fn polygon_area(ring: &[Vec2]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| ring[i].x * ring[(i + 1) % n].y - ring[(i + 1) % n].x * ring[i].y)
        .sum::<f64>()
        / 2.0
}

/// Sutherland–Hodgman: `subject` (any simple polygon) clipped by a convex counter-clockwise
/// polygon. The area of the result is the area of the intersection.
fn clip(subject: &[Vec2], convex: &[Vec2]) -> Vec<Vec2> {
    let mut out = subject.to_vec();
    for i in 0..convex.len() {
        let (a, b) = (convex[i], convex[(i + 1) % convex.len()]);
        let input = std::mem::take(&mut out);
        if input.is_empty() {
            break;
        }
        for j in 0..input.len() {
            let (p, q) = (input[j], input[(j + 1) % input.len()]);
            let (dp, dq) = (cross(a, b, p), cross(a, b, q));
            if dp >= 0.0 {
                out.push(p);
            }
            if (dp >= 0.0) != (dq >= 0.0) {
                let t = dp / (dp - dq);
                out.push(Vec2::new(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t));
            }
        }
    }
    out
}

fn overlap_with_triangle(shape: &[Vec2], tri: [Vec2; 3]) -> f64 {
    polygon_area(&clip(shape, &tri)).abs()
}

fn mesh_area(mesh: &NavMesh) -> f64 {
    mesh.triangles().iter().map(|t| t.area).sum()
}

fn overlap_with_mesh(shape: &Shape, mesh: &NavMesh) -> f64 {
    let ring = shape.corners();
    (0..mesh.triangles().len())
        .map(|t| overlap_with_triangle(&ring, mesh.corners(t)))
        .sum()
}

fn close(a: f64, b: f64, relative: f64) -> bool {
    (a - b).abs() <= relative * a.abs().max(b.abs()).max(1.0)
}

/// Every triangle of the mesh, as its corners' positions sorted, with its neighbours the same
/// way: a description that does not depend on ids.
type Corners = Vec<[u64; 2]>;

fn canonical(mesh: &NavMesh) -> Vec<(Corners, Vec<Corners>, u8)> {
    let key = |t: usize| {
        let mut k: Vec<[u64; 2]> = mesh
            .corners(t)
            .iter()
            .map(|p| [p.x.to_bits(), p.y.to_bits()])
            .collect();
        k.sort_unstable();
        k
    };
    let mut all: Vec<_> = (0..mesh.triangles().len())
        .map(|t| {
            let mut n: Vec<_> = mesh.neighbours(t).iter().map(|&(n, _)| key(n)).collect();
            n.sort_unstable();
            (key(t), n, mesh.area_type(t))
        })
        .collect();
    all.sort_unstable();
    all
}

/// The edited mesh rebuilt from its own triangles, with nothing welded.
fn rebuilt(mesh: &NavMesh) -> NavMesh {
    let raw = mesh.raw().clone();
    NavMesh::from_raw(
        raw,
        BuildOptions {
            plane: Plane::Xz,
            relative_weld_tolerance: 0.0,
        },
    )
    .expect("an edited mesh builds")
}

fn assert_consistent(mesh: &NavMesh) {
    let fresh = rebuilt(mesh);
    assert_eq!(canonical(mesh), canonical(&fresh), "edited ≠ rebuilt");
    assert_eq!(mesh.island_count(), fresh.island_count());
    for t in 0..mesh.triangles().len() {
        let c = mesh.triangles()[t].centroid;
        assert!(
            mesh.triangle_at(c).is_some(),
            "triangle {t} not found by its centroid"
        );
    }
}

fn assert_nothing_under(mesh: &NavMesh, shape: &Shape) {
    let ring = shape.corners();
    for t in 0..mesh.triangles().len() {
        let inside = overlap_with_triangle(&ring, mesh.corners(t));
        assert!(
            inside <= 1e-9 * mesh.triangles()[t].area.max(1e-12),
            "triangle {t} overlaps the obstacle by {inside}"
        );
    }
}

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn built_in(name: &str) -> Arc<NavMesh> {
    let scene = navlab_core::assets::ALL
        .into_iter()
        .find(|s| s.name == name)
        .expect("built-in scene");
    Arc::new(obj::parse(scene.obj, scene.name, Plane::Xz).expect("parses"))
}

/// A flat floor of `w` × `h` unit squares in the XZ plane, minus the cells `skip` says.
fn floor(w: usize, h: usize, skip: impl Fn(usize, usize) -> bool) -> Arc<NavMesh> {
    let mut positions = Vec::new();
    for z in 0..=h {
        for x in 0..=w {
            positions.push([x as f64, 0.0, z as f64]);
        }
    }
    let id = |x: usize, z: usize| z * (w + 1) + x;
    let mut polygons = Vec::new();
    for z in 0..h {
        for x in 0..w {
            if !skip(x, z) {
                polygons.push(vec![id(x, z), id(x + 1, z), id(x + 1, z + 1), id(x, z + 1)]);
            }
        }
    }
    Arc::new(
        NavMesh::from_polygons(&positions, &polygons, BuildOptions::default()).expect("builds"),
    )
}

fn path(
    mesh: &NavMesh,
    from: Vec2,
    to: Vec2,
    costs: AreaCosts,
    weight: f64,
) -> navlab_core::navmesh::Path {
    let options = QueryOptions {
        cost: CostModel::Centroid,
        heuristic_weight: weight,
        area_costs: costs,
        radius: 0.0,
    };
    find_path(mesh, from, to, options, &mut NoObserver, &mut NoObserver).expect("finite")
}

/// True when the polyline enters the interior of `shape`, sampled finely.
fn enters(waypoints: &[Vec2], shape: &Shape) -> bool {
    waypoints.windows(2).any(|w| {
        (1..200).any(|k| {
            let p = w[0].lerp(w[1], k as f64 / 200.0);
            shape.contains(p) && {
                // Far enough inside not to be the outline itself.
                let ring = shape.corners();
                (0..ring.len()).all(|i| {
                    let q = navlab_core::geom::closest_point_on_segment(
                        ring[i],
                        ring[(i + 1) % ring.len()],
                        p,
                    );
                    q.distance(p) > 1e-6
                })
            }
        })
    })
}

// ---------- tests ----------

#[test]
fn a_cut_removes_exactly_the_overlap_and_nothing_under_it_remains() {
    for name in ["rooms.obj", "maze.obj", "hole.obj", "stairs.obj"] {
        let base = built_in(name);
        let b = base.bounds();
        let (w, h) = (b.max.x - b.min.x, b.max.y - b.min.y);
        let rect = Shape::rectangle(
            v(b.min.x + 0.31 * w, b.min.y + 0.27 * h),
            v(b.min.x + 0.58 * w, b.min.y + 0.61 * h),
            ShapeKind::Obstacle,
        )
        .expect("rectangle");
        let circle = Shape::circle(
            v(b.min.x + 0.8 * w, b.min.y + 0.2 * h),
            0.12 * w.min(h),
            12,
            ShapeKind::Obstacle,
        )
        .expect("circle");
        let mut editor = MeshEditor::new(Arc::clone(&base));
        for shape in [rect, circle] {
            let before = Arc::clone(editor.mesh());
            let expected = mesh_area(&before) - overlap_with_mesh(&shape, &before);
            match editor.add_shape(shape.clone()) {
                Ok(_) => {}
                Err(EditError::Cut(e)) => {
                    // Stacked floors connected under the shape are refused, never cut wrongly.
                    assert_eq!(name, "stairs.obj", "{e}");
                    continue;
                }
                Err(e) => panic!("{name}: {e}"),
            }
            let after = editor.mesh();
            assert!(
                close(mesh_area(after), expected, 1e-9),
                "{name}: area {} after the cut, expected {expected}",
                mesh_area(after)
            );
            assert_nothing_under(after, &shape);
            assert_consistent(after);
        }
    }
}

#[test]
fn paths_go_around_obstacles_and_stay_on_the_mesh() {
    let base = floor(20, 10, |_, _| false);
    let wall = Shape::polygon(
        &[
            v(9.0, -1.0),
            v(11.0, -1.0),
            v(11.0, 8.5),
            v(10.0, 9.0),
            v(9.0, 8.5),
        ],
        ShapeKind::Obstacle,
    )
    .expect("wall");
    let mut editor = MeshEditor::new(base);
    editor.add_shape(wall.clone()).expect("cut");
    let mesh = editor.mesh();
    let p = path(mesh, v(2.0, 2.0), v(18.0, 2.0), AreaCosts::default(), 1.0);
    assert_eq!(p.status, PathStatus::Found);
    assert!(!enters(&p.waypoints, &wall), "{:?}", p.waypoints);
    // No path is shorter than the string pulled taut over the wall's top corners.
    let taut = [
        v(2.0, 2.0),
        v(9.0, 8.5),
        v(10.0, 9.0),
        v(11.0, 8.5),
        v(18.0, 2.0),
    ];
    let shortest: f64 = taut.windows(2).map(|w| w[0].distance(w[1])).sum();
    assert!(
        p.length >= shortest - 1e-9,
        "{} is shorter than {shortest}",
        p.length
    );
    for w in p.waypoints.windows(2) {
        for k in 0..=50 {
            let q = w[0].lerp(w[1], k as f64 / 50.0);
            // Along the outline itself, rounding may put a point a hair off.
            let on = mesh.locate(q).expect("finite");
            assert!(on.point.distance(q) <= 1e-9, "{q} is off the mesh");
        }
    }
}

#[test]
fn a_closed_door_disconnects_two_rooms_and_opening_it_reconnects_them() {
    // Two 5 × 5 rooms joined by a corridor one cell wide at z = 2.
    let base = floor(11, 5, |x, z| x == 5 && z != 2);
    let door =
        Shape::rectangle(v(5.2, 1.5), v(5.8, 3.5), ShapeKind::Door { open: false }).expect("door");
    let mut editor = MeshEditor::new(Arc::clone(&base));
    let (from, to) = (v(1.0, 1.0), v(10.0, 4.0));
    assert_eq!(
        path(&base, from, to, AreaCosts::default(), 1.0).status,
        PathStatus::Found
    );
    let index = editor.add_shape(door).expect("door");
    assert_eq!(
        path(editor.mesh(), from, to, AreaCosts::default(), 1.0).status,
        PathStatus::Unreachable
    );
    assert_eq!(editor.mesh().island_count(), 2);
    editor.toggle_door(index).expect("opens");
    let open = path(editor.mesh(), from, to, AreaCosts::default(), 1.0);
    assert_eq!(open.status, PathStatus::Found);
    assert!(close(
        open.length,
        path(&base, from, to, AreaCosts::default(), 1.0).length,
        1e-9
    ));
    editor.toggle_door(index).expect("closes");
    assert_eq!(
        path(editor.mesh(), from, to, AreaCosts::default(), 1.0).status,
        PathStatus::Unreachable
    );
}

#[test]
fn mud_is_crossed_when_cheap_and_gone_around_when_dear() {
    // A 12 × 12 room; a band of mud across it from x = 0 to 9, z = 5 to 7; a way round at x > 9.
    let base = floor(12, 12, |_, _| false);
    let mud_id = 2; // built-in "mud"
    assert_eq!(base.area_names()[usize::from(mud_id)], "mud");
    let band = Shape::rectangle(v(-1.0, 5.0), v(9.0, 7.0), ShapeKind::Area { area: mud_id })
        .expect("band");
    let mut editor = MeshEditor::new(base);
    editor.add_shape(band.clone()).expect("painted");
    let mesh = editor.mesh();
    let (from, to) = (v(2.0, 1.0), v(2.0, 11.0));
    let mut costs = AreaCosts::for_names(mesh.area_names());
    costs.set(mud_id, 1.0).expect("in range");
    let cheap = path(mesh, from, to, costs, 1.0);
    assert!(enters(&cheap.waypoints, &band), "mud at cost 1 is crossed");
    assert!(close(cheap.length, 10.0, 1e-6), "{}", cheap.length);
    costs.set(mud_id, 10.0).expect("in range");
    let dear = path(mesh, from, to, costs, 1.0);
    assert!(
        !enters(&dear.waypoints, &band),
        "mud at cost 10 is avoided: {:?}",
        dear.waypoints
    );
    assert!(dear.length > 14.0);
    // Every mesh triangle in the band has the mud type, every other one ground.
    for t in 0..mesh.triangles().len() {
        let c = mesh.triangles()[t].centroid;
        let expected = if band.contains(c) { mud_id } else { 0 };
        assert_eq!(mesh.area_type(t), expected, "triangle {t} at {c}");
    }
}

#[test]
fn undo_after_many_edits_restores_the_original_mesh_exactly() {
    let base = built_in("rooms.obj");
    let mut editor = MeshEditor::new(Arc::clone(&base));
    let b = base.bounds();
    let c = b.min.midpoint(b.max);
    let s1 = Shape::rectangle(c, c + v(1.0, 1.5), ShapeKind::Obstacle).expect("s1");
    let index = editor.add_shape(s1.clone()).expect("add");
    editor
        .replace_shape(index, s1.moved(v(0.7, -0.4)))
        .expect("move");
    editor
        .add_shape(
            Shape::circle(c - v(1.0, 1.0), 0.8, 10, ShapeKind::Door { open: false }).expect("door"),
        )
        .expect("door");
    editor.toggle_door(1).expect("toggle");
    editor.paint(&[v(1.0, 1.0)], 3).expect("paint");
    editor.remove_shapes(&[0]).expect("remove");
    let edited = canonical(editor.mesh());
    let mut steps = 0;
    while editor.undo() {
        steps += 1;
    }
    assert_eq!(steps, 6);
    let mesh = editor.mesh();
    assert_eq!(mesh.vertices(), base.vertices());
    assert_eq!(mesh.triangles(), base.triangles());
    assert_eq!(mesh.area_types(), base.area_types());
    while editor.redo() {}
    assert_eq!(
        canonical(editor.mesh()),
        edited,
        "redo all restores the edited mesh"
    );
}

#[test]
fn an_obstacle_cuts_only_the_floor_it_was_drawn_on() {
    let Some(file) = testdata("meshes/obj/level.nav.obj") else {
        return;
    };
    let base = Arc::new(NavMesh::load(&file, Plane::Xz).expect("loads"));
    // A point with two floors over it.
    let (point, floors) = (0..base.triangles().len())
        .map(|t| base.triangles()[t].centroid)
        .map(|p| (p, base.triangles_at(p)))
        .find(|(_, ts)| {
            ts.len() >= 2 && base.island_of(ts[0]) == base.island_of(ts[1]) || ts.len() >= 2
        })
        .expect("level.nav.obj has stacked floors");
    let picked = floors[0];
    let shape = Shape::circle(point, 0.2, 8, ShapeKind::Obstacle)
        .expect("circle")
        .on_floor(Some(picked));
    let mut editor = MeshEditor::new(Arc::clone(&base));
    editor.add_shape(shape.clone()).expect("cut");
    let mesh = editor.mesh();
    // The floor picked has a hole at the point; the other floor is still there.
    let heights_at = |m: &NavMesh| -> Vec<u64> {
        let mut hs: Vec<u64> = m
            .triangles_at(point)
            .iter()
            .map(|&t| {
                let tri = &m.triangles()[t];
                let h: f64 = tri.vertices.iter().map(|&v| m.heights()[v]).sum::<f64>() / 3.0;
                (h * 100.0).round() as u64
            })
            .collect();
        hs.sort_unstable();
        hs.dedup();
        hs
    };
    let before = heights_at(&base);
    let after = heights_at(mesh);
    assert!(
        after.len() < before.len(),
        "one floor cut: {before:?} → {after:?}"
    );
    assert!(!after.is_empty(), "the other floor stays");
    assert_consistent(mesh);
}

#[test]
fn an_edited_mesh_saves_with_its_areas_and_loads_back_the_same() {
    let base = floor(6, 6, |_, _| false);
    let mut editor = MeshEditor::new(base);
    editor
        .add_shape(Shape::rectangle(v(1.0, 1.0), v(2.5, 4.0), ShapeKind::Obstacle).expect("r"))
        .expect("cut");
    editor
        .add_shape(
            Shape::rectangle(v(3.0, 0.0), v(6.0, 2.0), ShapeKind::Area { area: 3 }).expect("w"),
        )
        .expect("water");
    let text = editor.mesh().raw().to_obj("test");
    assert!(text.contains("g area:water"));
    let loaded = obj::parse(text.as_bytes(), "saved.obj", Plane::Xz).expect("loads");
    assert!(close(mesh_area(&loaded), mesh_area(editor.mesh()), 1e-12));
    let water = |m: &NavMesh| -> f64 {
        (0..m.triangles().len())
            .filter(|&t| m.area_names()[usize::from(m.area_type(t))] == "water")
            .map(|t| m.triangles()[t].area)
            .sum()
    };
    assert!(close(water(&loaded), 6.0, 1e-12), "{}", water(&loaded));
    assert!(close(water(editor.mesh()), 6.0, 1e-12));
}

#[test]
fn bad_shapes_are_refused_and_leave_the_mesh_alone() {
    let base = floor(4, 4, |_, _| false);
    let mut editor = MeshEditor::new(Arc::clone(&base));
    assert!(Shape::polygon(&[v(0.0, 0.0), v(1.0, 1.0)], ShapeKind::Obstacle).is_err());
    assert!(matches!(
        editor.replace_shape(
            3,
            Shape::rectangle(v(0.0, 0.0), v(1.0, 1.0), ShapeKind::Obstacle).expect("r")
        ),
        Err(EditError::NoSuchShape(3))
    ));
    let bow_tie = Shape {
        outline: vec![[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [0.0, 2.0]],
        kind: ShapeKind::Obstacle,
        floor: None,
    };
    assert!(editor.add_shape(bow_tie).is_err());
    assert!(Arc::ptr_eq(editor.mesh(), &base));
    assert!(!editor.can_undo());
}

// ---------- properties ----------

fn arb_shape() -> impl Strategy<Value = (Vec<(f64, f64)>, bool)> {
    (
        prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 3..8),
        any::<bool>(),
    )
}

/// A star-shaped polygon around a centre from random radii (always simple), or a rectangle.
fn shape_in(
    mesh: &NavMesh,
    points: &[(f64, f64)],
    rectangle: bool,
    kind: ShapeKind,
) -> Option<Shape> {
    let b = mesh.bounds();
    let (w, h) = (b.max.x - b.min.x, b.max.y - b.min.y);
    let at = |(u, t): (f64, f64)| {
        v(
            b.min.x - 0.1 * w + 1.2 * u * w,
            b.min.y - 0.1 * h + 1.2 * t * h,
        )
    };
    if rectangle {
        return Shape::rectangle(at(points[0]), at(points[1]), kind).ok();
    }
    let centre = at(points[0]);
    let n = points.len() - 1;
    let corners: Vec<Vec2> = points[1..]
        .iter()
        .enumerate()
        .map(|(k, &(r, _))| {
            let angle = std::f64::consts::TAU * k as f64 / n as f64;
            let radius = (0.05 + 0.3 * r) * w.min(h);
            centre + v(angle.cos(), angle.sin()) * radius
        })
        .collect();
    Shape::polygon(&corners, kind).ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_cuts_never_panic_and_keep_the_area_identity(
        scene in 0usize..4,
        shapes in prop::collection::vec(arb_shape(), 1..4),
    ) {
        let name = ["rooms.obj", "maze.obj", "hole.obj", "stairs.obj"][scene];
        let base = built_in(name);
        let mut editor = MeshEditor::new(Arc::clone(&base));
        for (points, rectangle) in &shapes {
            let Some(shape) = shape_in(&base, points, *rectangle, ShapeKind::Obstacle) else { continue };
            let before = Arc::clone(editor.mesh());
            let expected = mesh_area(&before) - overlap_with_mesh(&shape, &before);
            match editor.add_shape(shape.clone()) {
                Ok(_) => {
                    prop_assert!(close(mesh_area(editor.mesh()), expected, 1e-9),
                        "{name}: {} vs {expected}", mesh_area(editor.mesh()));
                    assert_nothing_under(editor.mesh(), &shape);
                }
                Err(EditError::Cut(_)) => prop_assert!(Arc::ptr_eq(editor.mesh(), &before)),
                Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
            }
        }
        assert_consistent(editor.mesh());
    }

    #[test]
    fn astar_costs_what_dijkstra_costs_over_areas_and_obstacles(
        seed in 0u64..1000,
        shapes in prop::collection::vec((arb_shape(), 0u8..4, 0u8..3), 1..5),
        costs in prop::collection::vec(0.1f64..20.0, 4),
        ends in (0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0),
        midpoint in any::<bool>(),
    ) {
        let base = Arc::new(jittered_grid(GridMeshSpec { columns: 10, rows: 8, seed, ..GridMeshSpec::with_about(160, seed) }));
        let mut editor = MeshEditor::new(Arc::clone(&base));
        for ((points, rectangle), area, what) in &shapes {
            let kind = match what {
                0 => ShapeKind::Obstacle,
                1 => ShapeKind::Door { open: *area % 2 == 0 },
                _ => ShapeKind::Area { area: *area },
            };
            if let Some(shape) = shape_in(&base, points, *rectangle, kind) {
                let _ = editor.add_shape(shape);
            }
        }
        let mesh = editor.mesh();
        // Obstacles over the whole mesh leave nothing to search on.
        prop_assume!(!mesh.triangles().is_empty());
        let mut area_costs = AreaCosts::default();
        for (k, &c) in costs.iter().enumerate() {
            area_costs.set(k as u8, c).expect("in range");
        }
        let b = mesh.bounds();
        let at = |u: f64, t: f64| v(b.min.x + u * (b.max.x - b.min.x), b.min.y + t * (b.max.y - b.min.y));
        let (from, to) = (at(ends.0, ends.1), at(ends.2, ends.3));
        let cost = if midpoint { CostModel::Midpoint } else { CostModel::Centroid };
        let run = |weight: f64| {
            let options = QueryOptions { cost, heuristic_weight: weight, area_costs, radius: 0.0 };
            find_path(mesh, from, to, options, &mut NoObserver, &mut NoObserver).expect("finite")
        };
        let (astar, dijkstra) = (run(1.0), run(0.0));
        prop_assert_eq!(astar.status, dijkstra.status);
        if astar.status != PathStatus::Unreachable {
            prop_assert!(close(astar.corridor_cost, dijkstra.corridor_cost, 1e-9),
                "A* {} vs Dijkstra {}", astar.corridor_cost, dijkstra.corridor_cost);
        }
    }
}

#[test]
fn random_cuts_into_a_level_keep_the_area_identity() {
    let Some(file) = testdata("meshes/obj/level.nav.obj") else {
        return;
    };
    let base = Arc::new(NavMesh::load(&file, Plane::Xz).expect("loads"));
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 24,
        ..ProptestConfig::default()
    });
    runner
        .run(
            &(arb_shape(), any::<bool>()),
            |((points, rectangle), on_floor)| {
                let Some(mut shape) = shape_in(&base, &points, rectangle, ShapeKind::Obstacle)
                else {
                    return Ok(());
                };
                let (lo, hi) = shape.bounds();
                if on_floor {
                    shape = shape.on_floor(base.triangle_at(lo.midpoint(hi)));
                }
                let mut editor = MeshEditor::new(Arc::clone(&base));
                match editor.add_shape(shape.clone()) {
                    Ok(_) if shape.floor.is_none() => {
                        let expected = mesh_area(&base) - overlap_with_mesh(&shape, &base);
                        prop_assert!(close(mesh_area(editor.mesh()), expected, 1e-9));
                    }
                    Ok(_) => prop_assert!(mesh_area(editor.mesh()) < mesh_area(&base) + 1e-9),
                    Err(EditError::Cut(_)) => {}
                    Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
                }
                Ok(())
            },
        )
        .expect("property holds");
}

#[test]
fn edits_round_trip_through_json() {
    let edits = Edits {
        shapes: vec![
            Shape::rectangle(v(0.0, 0.0), v(1.0, 2.0), ShapeKind::Door { open: true }).expect("r"),
            Shape::circle(v(3.0, 3.0), 1.0, 6, ShapeKind::Area { area: 2 }).expect("c"),
        ],
        painted: vec![(4, 1)],
        links: vec![
            navlab_core::navmesh::links::OffMeshLink::new(v(0.5, 0.5), v(2.0, 3.0))
                .kind(navlab_core::navmesh::links::LinkKind::Drop)
                .one_way(),
        ],
    };
    let text = serde_json::to_string(&edits).expect("serializes");
    let back: Edits = serde_json::from_str(&text).expect("parses");
    assert_eq!(back, edits);
}

/// The edits written beside a saved mesh bring back the same edited mesh — its triangles,
/// their areas, the shapes — editable (a door saved closed opens again).
#[test]
fn edits_saved_beside_a_mesh_reopen_it_editable() {
    use navlab_core::navmesh::edit::saved;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut editor = MeshEditor::new(built_in("rooms.obj"));
    editor
        .add_shape(Shape::rectangle(v(9.0, 1.5), v(11.0, 3.5), ShapeKind::Obstacle).expect("r"))
        .expect("obstacle");
    let door = editor
        .add_shape(
            Shape::rectangle(
                v(12.0, -1.2),
                v(13.0, -0.8),
                ShapeKind::Door { open: false },
            )
            .expect("d"),
        )
        .expect("door");
    editor
        .add_shape(
            Shape::rectangle(v(5.0, -6.5), v(10.0, -3.0), ShapeKind::Area { area: 2 }).expect("m"),
        )
        .expect("mud");
    editor.paint(&[v(1.0, 1.0)], 1).expect("road");
    let path = dir.path().join("rooms-edited.obj");
    let obj = editor.mesh().raw().to_obj("test");
    saved::save_with_edits(&path, obj.as_bytes(), Some(&editor)).expect("saved");

    let opened = NavMesh::load(&path, Plane::Xz).expect("mesh loads");
    let mut back = saved::read_beside(&path, &opened)
        .expect("edits read")
        .expect("edits found");
    assert_eq!(back.edits(), editor.edits());
    assert_eq!(canonical(back.mesh()), canonical(editor.mesh()));
    assert_eq!(
        canonical(back.mesh()),
        canonical(&opened),
        "as the file says"
    );
    let mud = |m: &NavMesh| -> f64 {
        (0..m.triangles().len())
            .filter(|&t| m.area_type(t) == 2)
            .map(|t| m.triangles()[t].area)
            .sum()
    };
    assert!(
        close(mud(back.mesh()), 5.0 * 3.5, 1e-9),
        "{}",
        mud(back.mesh())
    );
    assert!(!back.can_undo(), "history starts at the saved state");
    // The closed door's surface comes back from the unedited mesh.
    back.toggle_door(door).expect("opens");
    assert!(close(
        mesh_area(back.mesh()),
        mesh_area(editor.mesh()) + 0.4,
        1e-9
    ));

    // No edits: an old edits file beside the name goes.
    let unedited = MeshEditor::new(built_in("rooms.obj"));
    saved::save_with_edits(&path, obj.as_bytes(), Some(&unedited)).expect("removed");
    assert!(!saved::path_beside(&path).exists());
}

/// Edits beside a mesh that has changed since, of a newer navlab, or damaged, are refused with
/// the edits file's name; none is no error.
#[test]
fn edits_that_do_not_fit_their_mesh_are_refused() {
    use navlab_core::navmesh::edit::saved::{self, SavedEditsError};
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("room.obj");
    let base = built_in("rooms.obj");
    std::fs::write(&path, base.raw().to_obj("test")).expect("mesh written");
    assert!(matches!(saved::read_beside(&path, &base), Ok(None)));

    let mut editor = MeshEditor::new(Arc::clone(&base));
    editor
        .add_shape(Shape::rectangle(v(1.0, 1.0), v(2.0, 2.0), ShapeKind::Obstacle).expect("r"))
        .expect("cut");
    let edited = editor.mesh().raw().to_obj("test");
    saved::save_with_edits(&path, edited.as_bytes(), Some(&editor)).expect("saved");
    std::fs::write(&path, base.raw().to_obj("test")).expect("mesh written");
    // The mesh file is the unedited one: the edits were saved with another version of it.
    let error = saved::read_beside(&path, &base).expect_err("mismatch");
    assert!(matches!(error, SavedEditsError::Mismatch { .. }), "{error}");
    assert!(error.to_string().contains("room.obj.edits.json"), "{error}");

    let beside = saved::path_beside(&path);
    let text = std::fs::read_to_string(&beside).expect("reads");
    let newer = text.replacen("\"navlab_edits\":1", "\"navlab_edits\":7", 1);
    std::fs::write(&beside, newer).expect("written");
    let error = saved::read_beside(&path, editor.mesh()).expect_err("newer");
    assert!(
        matches!(error, SavedEditsError::Newer { version: 7, .. }),
        "{error}"
    );

    for bad in [
        "not json at all \u{1b}[31m".to_string(),
        text.replacen("\"painted\":[]", "\"painted\":[[99999,2]]", 1),
        text.replacen("\"base\":\"", "\"base\":\"f 1 2 999\\n", 1),
    ] {
        std::fs::write(&beside, &bad).expect("written");
        let error = saved::read_beside(&path, editor.mesh()).expect_err("damaged");
        let message = error.to_string();
        assert!(
            matches!(error, SavedEditsError::Unreadable { .. }),
            "{message}"
        );
        assert!(message.contains("room.obj.edits.json"), "{message}");
        assert!(
            !message.contains('\u{1b}'),
            "no control characters: {message}"
        );
    }
}

/// `navlab check` and the Diagnostics tab on an edited mesh: the cut adds no finding of any
/// kind the unedited mesh did not have as many of (obstacles placed so that no island splits),
/// no error and no broken connection. Needle warnings are the one exception: the cut keeps
/// the edges it shares with the triangles it leaves and the shapes' own sides, and a corner
/// near one of those makes a thin triangle the refinement may not split.
#[test]
fn a_cut_mesh_checks_as_clean_as_the_mesh_it_was_cut_from() {
    use navlab_core::navmesh::diagnose::{CheckOptions, check};
    let counts = |mesh: &NavMesh| -> Vec<(String, usize)> {
        check(mesh, &CheckOptions::default())
            .findings
            .iter()
            .map(|f| (format!("{:?}", f.kind), f.count))
            .collect()
    };
    let cases: Vec<(Arc<NavMesh>, Vec<Shape>)> = vec![
        (
            built_in("rooms.obj"),
            vec![
                Shape::rectangle(v(9.0, 1.5), v(11.0, 3.5), ShapeKind::Obstacle).expect("r"),
                Shape::circle(v(13.0, -5.0), 1.0, 16, ShapeKind::Obstacle).expect("c"),
                Shape::rectangle(v(5.0, -6.5), v(10.0, -3.0), ShapeKind::Area { area: 2 })
                    .expect("a"),
            ],
        ),
        (
            floor(12, 8, |x, z| (4..6).contains(&x) && z < 5),
            vec![
                Shape::polygon(
                    &[v(1.0, 1.0), v(3.0, 1.5), v(2.0, 3.0)],
                    ShapeKind::Obstacle,
                )
                .expect("p"),
                Shape::circle(v(9.0, 4.0), 1.7, 24, ShapeKind::Obstacle).expect("c"),
                Shape::rectangle(v(0.5, 5.5), v(11.5, 7.0), ShapeKind::Area { area: 3 })
                    .expect("w"),
            ],
        ),
    ];
    for (base, shapes) in cases {
        let before = counts(&base);
        let mut editor = MeshEditor::new(Arc::clone(&base));
        for shape in shapes {
            editor.add_shape(shape).expect("cut");
        }
        assert_eq!(editor.mesh().island_count(), base.island_count());
        let after = counts(editor.mesh());
        for (kind, n) in &after {
            if kind == "NeedleTriangle" {
                continue;
            }
            let was = before.iter().find(|(k, _)| k == kind).map_or(0, |x| x.1);
            assert!(
                *n <= was,
                "{kind}: {n} after the cut, {was} before; {after:?}"
            );
        }
    }
}
