//! Clearance against brute force: every portal's and triangle's clearance is reached at the
//! point given (its room there, measured here, equals it) and no point of the portal or
//! triangle has more room — sampled densely, then each of the best samples climbed to its local
//! maximum — to 1e-6 of the mesh's size. The room is measured in the plane to every wall of the
//! island, or, on an island whose floors overlap, over the surface (`common::surface`: the
//! nearest wall a straight line from the point reaches without leaving the mesh). On the
//! built-in meshes (stairs.obj's floors overlap), Recast's `level.nav.obj` (stacked floors,
//! ramps) and random maps' meshes.

mod common;
use common::testdata;
use navlab_core::geom::{Vec2, closest_point_on_segment};
use navlab_core::navmesh::clearance::Clearance;
use navlab_core::navmesh::{NavMesh, Plane};
use proptest::prelude::*;

/// Each island's walls, every one of them.
fn walls_by_island(mesh: &NavMesh) -> Vec<Vec<[Vec2; 2]>> {
    let mut out = vec![Vec::new(); mesh.island_count()];
    for edge in mesh.edges().iter().filter(|e| e.is_border()) {
        let t = edge.triangles[0];
        let [a, b] = edge.vertices.map(|v| mesh.vertices()[v]);
        out[mesh.island_of(t)].push([a, b]);
    }
    out
}

fn room_in_plane(walls: &[[Vec2; 2]], p: Vec2) -> f64 {
    walls
        .iter()
        .map(|&[a, b]| closest_point_on_segment(a, b, p).distance(p))
        .fold(f64::INFINITY, f64::min)
}

/// How the room at a point is measured: in the plane to every wall of an island (a mesh whose
/// floors do not overlap), or over the surface (see `common::surface`).
#[derive(Clone, Copy)]
enum Oracle {
    Plane,
    Surface,
}

/// The room at `p`, a point of the triangles `from`.
fn room(
    mesh: &NavMesh,
    walls: &[Vec<[Vec2; 2]>],
    edges: &[common::surface::IslandWalls],
    oracle: Oracle,
    from: &[usize],
    p: Vec2,
) -> f64 {
    let island = mesh.island_of(from[0]);
    match oracle {
        Oracle::Plane => room_in_plane(&walls[island], p),
        Oracle::Surface => {
            let b = mesh.bounds();
            let tolerance = 1e-9 * b.min.distance(b.max).max(1.0);
            common::surface::room(mesh, &edges[island], from, p, tolerance)
        }
    }
}

/// The most room on the segment from `a` to `b`: samples, then the best ten climbed.
fn sampled_on_segment(room: impl Fn(Vec2) -> f64, a: Vec2, b: Vec2, costly: bool) -> f64 {
    let (n, climbs) = if costly { (100, 4) } else { (400, 10) };
    let f = |t: f64| room(a.lerp(b, t.clamp(0.0, 1.0)));
    let mut samples: Vec<(f64, f64)> = (0..=n)
        .map(|k| {
            let t = k as f64 / n as f64;
            (f(t), t)
        })
        .collect();
    samples.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut best = f64::NEG_INFINITY;
    for &(mut value, mut t) in samples.iter().take(climbs) {
        let mut step = 1.0 / n as f64;
        while step > 1e-13 {
            let mut moved = false;
            for next in [t - step, t + step] {
                let next = next.clamp(0.0, 1.0);
                let v = f(next);
                if v > value {
                    (value, t, moved) = (v, next, true);
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        best = best.max(value);
    }
    best
}

/// The most room in the triangle `abc`: barycentric samples, then the best ten climbed.
fn sampled_in_triangle(room: impl Fn(Vec2) -> f64, [a, b, c]: [Vec2; 3], costly: bool) -> f64 {
    let (n, climbs) = if costly { (20, 4) } else { (40, 10) };
    let at = |u: f64, v: f64| {
        let (u, v) = (u.clamp(0.0, 1.0), v.clamp(0.0, 1.0));
        let (u, v) = if u + v > 1.0 {
            (u / (u + v), v / (u + v))
        } else {
            (u, v)
        };
        a + (b - a) * u + (c - a) * v
    };
    let f = |u: f64, v: f64| room(at(u, v));
    let mut samples = Vec::new();
    for i in 0..=n {
        for j in 0..=n - i {
            let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
            samples.push((f(u, v), u, v));
        }
    }
    samples.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut best = f64::NEG_INFINITY;
    for &(mut value, mut u, mut v) in samples.iter().take(climbs) {
        let mut step = 1.0 / n as f64;
        while step > 1e-13 {
            let mut moved = false;
            for (du, dv) in [
                (step, 0.0),
                (-step, 0.0),
                (0.0, step),
                (0.0, -step),
                (step, -step),
                (-step, step),
                (step, step),
                (-step, -step),
            ] {
                let val = f(u + du, v + dv);
                if val > value {
                    let (nu, nv) = ((u + du).clamp(0.0, 1.0), (v + dv).clamp(0.0, 1.0));
                    let (nu, nv) = if nu + nv > 1.0 {
                        (nu / (nu + nv), nv / (nu + nv))
                    } else {
                        (nu, nv)
                    };
                    (value, u, v, moved) = (val, nu, nv, true);
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        best = best.max(value);
    }
    best
}

/// Checks every portal and triangle of `mesh` against brute force (`every`: each k-th only);
/// on an island whose floors overlap, with the room measured over the surface.
fn check(name: &str, mesh: &NavMesh, every: usize) {
    let stacked = common::surface::stacked_islands(mesh);
    let oracle = |t: usize| {
        if stacked[mesh.island_of(t)] {
            Oracle::Surface
        } else {
            Oracle::Plane
        }
    };
    let clearance = Clearance::of(mesh);
    let walls = walls_by_island(mesh);
    let edges: Vec<_> = (0..mesh.island_count())
        .map(|island| common::surface::island_walls(mesh, island))
        .collect();
    let bounds = mesh.bounds();
    let size = bounds.min.distance(bounds.max).max(1e-9);
    let tolerance = 1e-6 * size;
    for (e, edge) in mesh.edges().iter().enumerate().step_by(every) {
        let got = clearance.portal(e);
        if edge.is_border() {
            assert_eq!(got, 0.0, "{name}: wall {e}");
            continue;
        }
        let room = |p: Vec2| {
            room(
                mesh,
                &walls,
                &edges,
                oracle(edge.triangles[0]),
                &edge.triangles,
                p,
            )
        };
        let [a, b] = edge.vertices.map(|v| mesh.vertices()[v]);
        let at = clearance.portal_centre(e).expect("a centre");
        let on = closest_point_on_segment(a, b, at).distance(at);
        assert!(
            on < 1e-9 * size,
            "{name}: portal {e}: centre {at} off it by {on}"
        );
        let there = room(at);
        assert!(
            (there - got).abs() < 1e-9 * size,
            "{name}: portal {e}: {got} claimed, {there} at its centre"
        );
        let costly = matches!(oracle(edge.triangles[0]), Oracle::Surface);
        let sampled = sampled_on_segment(room, a, b, costly);
        assert!(
            sampled <= got + tolerance,
            "{name}: portal {e} ({a} to {b}): sampling finds {sampled}, more than {got}"
        );
    }
    for (t, triangle) in mesh.triangles().iter().enumerate().step_by(every) {
        let got = clearance.triangle(t);
        let room = |p: Vec2| room(mesh, &walls, &edges, oracle(t), &[t], p);
        let corners = triangle.vertices.map(|v| mesh.vertices()[v]);
        let at = clearance.triangle_centre(t).expect("a centre");
        let [a, b, c] = corners;
        let inside = navlab_core::geom::closest_point_on_triangle(a, b, c, at).distance(at);
        assert!(
            inside < 1e-9 * size,
            "{name}: triangle {t}: centre {at} outside by {inside}"
        );
        let there = room(at);
        assert!(
            (there - got).abs() < 1e-9 * size,
            "{name}: triangle {t}: {got} claimed, {there} at its centre"
        );
        let costly = matches!(oracle(t), Oracle::Surface);
        let sampled = sampled_in_triangle(room, corners, costly);
        assert!(
            sampled <= got + tolerance,
            "{name}: triangle {t}: sampling finds {sampled}, more than {got}"
        );
        // A triangle holds at least the room of its edges' widest points.
        for e in triangle.edges {
            assert!(
                clearance.portal(e) <= got + 1e-12,
                "{name}: triangle {t}, edge {e}"
            );
        }
    }
}

#[test]
fn the_built_in_meshes_clearance_is_the_sampled_maximum() {
    for scene in navlab_core::assets::ALL {
        let mesh =
            navlab_core::navmesh::obj::parse(scene.obj, scene.name, Plane::Xz).expect("parses");
        check(scene.name, &mesh, 1);
    }
}

#[test]
fn recasts_export_with_stacked_floors_clearance_is_the_sampled_maximum() {
    let Some(path) = testdata("meshes/obj/level.nav.obj") else {
        return;
    };
    let mesh = NavMesh::load(&path, Plane::Xz).expect("loads");
    check("level.nav.obj", &mesh, 1);
}

/// A corridor two wide: every portal across it has clearance one (the disc touching both
/// walls), wherever it crosses; a square room's centre holds a disc of half its side.
#[test]
fn a_corridor_and_a_room_have_the_clearance_their_shape_says() {
    let corridor = common::mesh_2d(
        &[(0.0, 0.0), (10.0, 0.0), (10.0, 2.0), (0.0, 2.0)],
        &[&[0, 1, 2, 3]],
    );
    let clearance = Clearance::of(&corridor);
    for (e, edge) in corridor.edges().iter().enumerate() {
        if !edge.is_border() {
            common::assert_close(clearance.portal(e), 1.0, 1e-12);
        }
    }
    let room = common::mesh_2d(
        &[(0.0, 0.0), (6.0, 0.0), (6.0, 6.0), (0.0, 6.0)],
        &[&[0, 1, 2, 3]],
    );
    let clearance = Clearance::of(&room);
    let widest = clearance.triangles().iter().copied().fold(0.0, f64::max);
    common::assert_close(widest, 3.0, 1e-12);
}

/// A round room drawn with many sides: at its centre every wall is equally near, more than
/// the Voronoi step tries; the widest disc is still the room's inner radius (to 1e-6), and a
/// room of 500 sides is worked out as well (the search is bounded).
#[test]
fn a_round_room_holds_a_disc_of_its_inner_radius() {
    for sides in [64usize, 500] {
        let radius = 10.0;
        let mut points = vec![(0.0, 0.0)];
        points.extend((0..sides).map(|k| {
            let a = std::f64::consts::TAU * k as f64 / sides as f64;
            (radius * a.cos(), radius * a.sin())
        }));
        // A fan round the centre.
        let fans: Vec<Vec<usize>> = (0..sides)
            .map(|k| vec![0, 1 + k, 1 + (k + 1) % sides])
            .collect();
        let polygons: Vec<&[usize]> = fans.iter().map(Vec::as_slice).collect();
        let mesh = common::mesh_2d(&points, &polygons);
        let clearance = Clearance::of(&mesh);
        let widest = clearance.triangles().iter().copied().fold(0.0, f64::max);
        assert_eq!(clearance.widest(), widest);
        let inner = radius * (std::f64::consts::PI / sides as f64).cos();
        assert!(
            (widest - inner).abs() < 1e-6 * radius,
            "{sides} sides: {widest} against {inner}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases_or(24),
        ..ProptestConfig::default()
    })]

    /// Random maps' meshes: walls in steps, narrow gaps, holes.
    #[test]
    fn random_maps_clearance_is_the_sampled_maximum(map in common::tile_maps(4..12)) {
        let Ok(mesh) = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
            return Ok(());
        };
        check("a random map", &mesh, 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases_or(24),
        ..ProptestConfig::default()
    })]

    /// Clearance carried through an edit: after obstacles are cut from a random map's mesh
    /// (one by one, the last taken away again), the clearance worked out only near the walls
    /// that changed is the whole mesh's worked out afresh, portal by portal and triangle by
    /// triangle; and less was worked out than the whole.
    #[test]
    fn clearance_after_an_edit_is_the_clearance_worked_out_afresh(
        map in common::tile_maps(6..12),
        boxes in prop::collection::vec((0.05f64..0.9, 0.05f64..0.9, 0.05f64..0.3, 0.05f64..0.3), 1..4),
    ) {
        use navlab_core::navmesh::clearance::ClearanceSnapshot;
        use navlab_core::navmesh::edit::{MeshEditor, Shape, ShapeKind};
        use std::sync::Arc;
        let Ok(base) = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
            return Ok(());
        };
        let b = base.bounds();
        let size = (b.max.x - b.min.x).max(b.max.y - b.min.y);
        let at = |u: f64, v: f64| Vec2::new(b.min.x + u * (b.max.x - b.min.x), b.min.y + v * (b.max.y - b.min.y));
        let mut editor = MeshEditor::new(Arc::new(base));
        let mut before = Arc::clone(editor.mesh());
        before.clearance();
        let check = |editor: &MeshEditor, before: &Arc<NavMesh>| -> Arc<NavMesh> {
            let mesh = Arc::clone(editor.mesh());
            let snapshot = ClearanceSnapshot::of(before, before.clearance());
            let (carried, again) = Clearance::updated(&snapshot, &mesh);
            let fresh = Clearance::of(&mesh);
            for (e, (&x, &y)) in carried.portals().iter().zip(fresh.portals()).enumerate() {
                assert!((x - y).abs() <= 1e-9 * size, "portal {e}: {x} carried, {y} afresh");
            }
            for (t, (&x, &y)) in carried.triangles().iter().zip(fresh.triangles()).enumerate() {
                assert!(
                    x == y || (x - y).abs() <= 1e-9 * size,
                    "triangle {t}: {x} carried, {y} afresh"
                );
            }
            assert!(again <= mesh.edges().len() + mesh.triangles().len());
            mesh.clearance_after_edit(before);
            mesh
        };
        for &(u, v, w, h) in &boxes {
            let shape = Shape::rectangle(at(u, v), at((u + w).min(0.98), (v + h).min(0.98)), ShapeKind::Obstacle)
                .expect("a rectangle");
            if editor.add_shape(shape).is_err() {
                continue;
            }
            before = check(&editor, &before);
        }
        if editor.undo() {
            check(&editor, &before);
        }
    }
}

/// An obstacle cut in one corner of a large room leaves the clearance of the far side as it
/// was: only what is near the walls that changed is worked out again.
#[test]
fn an_edit_works_out_again_only_what_is_near_it() {
    use navlab_core::navmesh::clearance::ClearanceSnapshot;
    use navlab_core::navmesh::edit::{MeshEditor, Shape, ShapeKind};
    use std::sync::Arc;
    let rows: Vec<String> = (0..40)
        .map(|y| {
            (0..40)
                .map(|x| {
                    if (x + 3 * y) % 11 == 0 && x % 2 == 0 {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let base = navlab_core::navmesh::from_map::navmesh_from_map(&common::walled_map(&rows), 0.0)
        .expect("a mesh");
    let mut editor = MeshEditor::new(Arc::new(base));
    let before = Arc::clone(editor.mesh());
    before.clearance();
    editor
        .add_shape(
            Shape::rectangle(
                Vec2::new(1.2, 1.2),
                Vec2::new(2.6, 2.4),
                ShapeKind::Obstacle,
            )
            .expect("a rectangle"),
        )
        .expect("cut");
    let mesh = Arc::clone(editor.mesh());
    let (_, again) = Clearance::updated(&ClearanceSnapshot::of(&before, before.clearance()), &mesh);
    let all = mesh.edges().len() + mesh.triangles().len();
    assert!(again * 10 < all, "{again} of {all} worked out again");
}

/// On `stairs.obj` the floor passes under the landing into a room beside it: the landing's
/// walls lie over that passage in the plane but are not on the floor's surface, so the passage
/// (two wide between the room's walls) has clearance 1 and an agent of radius 0.5 walks under
/// the landing, by the corridor query and by the exact search.
#[test]
fn the_walls_of_a_floor_above_do_not_narrow_the_floor_below() {
    let scene = navlab_core::assets::ALL
        .iter()
        .find(|s| s.name == "stairs.obj")
        .expect("the stairs scene");
    let mesh = navlab_core::navmesh::obj::parse(scene.obj, scene.name, Plane::Xz).expect("parses");
    let clearance = Clearance::of(&mesh);
    let under = mesh
        .edges()
        .iter()
        .position(|e| {
            let [a, b] = e.vertices.map(|v| mesh.vertices()[v]);
            let ends = [(a.x, a.y), (b.x, b.y)];
            ends.contains(&(2.0, 6.0)) && ends.contains(&(2.0, 8.0)) && !e.is_border()
        })
        .expect("the passage under the landing");
    common::assert_close(clearance.portal(under), 1.0, 1e-12);
    let (from, to) = (Vec2::new(1.0, 1.0), Vec2::new(4.0, 7.0));
    let options = navlab_core::navmesh::QueryOptions {
        radius: 0.5,
        ..Default::default()
    };
    let path = navlab_core::navmesh::find_path(
        &mesh,
        from,
        to,
        options,
        &mut navlab_core::search::NoObserver,
        &mut navlab_core::search::NoObserver,
    )
    .expect("finite points");
    assert_eq!(path.status, navlab_core::navmesh::PathStatus::Found);
    let exact = navlab_core::navmesh::radius::shortest_path_for_radius(&mesh, from, to, 0.5)
        .expect("shrunk");
    assert!(exact.is_found());
}
