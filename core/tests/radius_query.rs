//! Paths for an agent's radius on random maps' meshes, against brute force and the exact
//! search: every path kept at least the radius from every wall of its island (sampled along
//! its segments and arcs, measured over every wall); never shorter than the exact shortest path
//! on the mesh shrunk by a little less than the radius (whose free space holds every point with
//! that much room, so its length is a lower bound), which in turn is the visibility graph's
//! shortest path there; a goal reachable for a radius reachable for a smaller one; with radius 0
//! the query is the point query.

mod common;
use common::visibility;
use navlab_core::geom::{Vec2, closest_point_on_segment};
use navlab_core::navmesh::anyangle::shortest_path;
use navlab_core::navmesh::radius::shrink;
use navlab_core::navmesh::{CostModel, NavMesh, Path, PathStatus, QueryOptions, find_path};
use navlab_core::search::NoObserver;
use navlab_core::search::round_funnel::{RoundPortal, round_string_pull};
use proptest::prelude::*;

fn walls_of_island(mesh: &NavMesh, island: usize) -> Vec<[Vec2; 2]> {
    mesh.edges()
        .iter()
        .filter(|e| e.is_border() && mesh.island_of(e.triangles[0]) == island)
        .map(|e| e.vertices.map(|v| mesh.vertices()[v]))
        .collect()
}

fn room(walls: &[[Vec2; 2]], p: Vec2) -> f64 {
    walls
        .iter()
        .map(|&[a, b]| closest_point_on_segment(a, b, p).distance(p))
        .fold(f64::INFINITY, f64::min)
}

fn query(mesh: &NavMesh, from: Vec2, to: Vec2, cost: CostModel, radius: f64) -> Path {
    let options = QueryOptions {
        cost,
        radius,
        ..QueryOptions::default()
    };
    find_path(mesh, from, to, options, &mut NoObserver, &mut NoObserver).expect("finite points")
}

/// The least room along `path`: its straight pieces and its arcs sampled every `step` (points
/// on the arcs themselves, not chords).
fn least_room(walls: &[[Vec2; 2]], path: &Path, step: f64) -> (f64, Vec2) {
    let mut least = (f64::INFINITY, Vec2::new(0.0, 0.0));
    for (k, pair) in path.waypoints.windows(2).enumerate() {
        let arc = path.arcs.iter().find(|a| a.start == k);
        let long = arc.map_or(pair[0].distance(pair[1]), |a| a.length());
        let n = ((long / step).ceil() as usize).max(1);
        for j in 0..=n {
            let t = j as f64 / n as f64;
            let p = arc.map_or(pair[0].lerp(pair[1], t), |a| a.at(pair[0], t));
            let r = room(walls, p);
            if r < least.0 {
                least = (r, p);
            }
        }
    }
    least
}

fn check(mesh: &NavMesh, from: Vec2, to: Vec2, radius: f64, cost: CostModel, oracle: bool) {
    let (Some(a), Some(_)) = (mesh.locate(from), mesh.locate(to)) else {
        return;
    };
    let island = mesh.island_of(a.triangle);
    let walls = walls_of_island(mesh, island);
    let size = {
        let b = mesh.bounds();
        (b.max.x - b.min.x).max(b.max.y - b.min.y)
    };
    let path = query(mesh, from, to, cost, radius);
    let point = query(mesh, from, to, cost, 0.0);
    // With every radius 0 the round funnel pulls the point funnel's path.
    let zero: Vec<RoundPortal> = point
        .portals
        .iter()
        .map(|&portal| RoundPortal {
            portal,
            left_radius: 0.0,
            right_radius: 0.0,
        })
        .collect();
    if point.status != PathStatus::Unreachable {
        let pull = round_string_pull(point.start.point, point.goal.point, &zero, &mut NoObserver);
        assert_eq!(pull.points, point.waypoints);
        assert!(pull.arcs.is_empty());
    }
    if path.status == PathStatus::Unreachable {
        return;
    }
    assert_eq!(path.radius, radius);
    // Reachable for every smaller radius.
    for smaller in [0.0, radius / 2.0] {
        assert_ne!(
            query(mesh, from, to, cost, smaller).status,
            PathStatus::Unreachable,
            "{from} to {to}: reachable for {radius}, not for {smaller}"
        );
    }
    // Room all along it.
    let (least, at) = least_room(&walls, &path, size / 2000.0);
    assert!(
        least >= radius - 1e-7 * size,
        "{from} to {to} for radius {radius}: {at} has room {least} ({path:?})"
    );
    // Each arc turns round its corner at the radius, from one waypoint to the next.
    for arc in &path.arcs {
        for p in [path.waypoints[arc.start], path.waypoints[arc.start + 1]] {
            assert!((p.distance(arc.centre) - radius).abs() < 1e-9 * size);
        }
    }
    // Not shorter than the exact path on the mesh shrunk a little less than the radius: its
    // caps are 16-sided polygons round circles of that radius, inside the circles of the
    // radius asked, so its free space holds every point the agent's centre may reach.
    let under = radius * (std::f64::consts::PI / 16.0).cos() * (1.0 - 1e-6);
    let shrunk = shrink(mesh, under).expect("room is left: the path found has some");
    let exact = shortest_path(&shrunk.mesh, from, to, &mut NoObserver);
    assert!(
        exact.length.is_finite(),
        "the exact search reaches the goal"
    );
    let exact = exact.length;
    // The exact search on the shrunk mesh is the visibility graph's shortest path there (for
    // one pair a map: the graph is slow on the shrunk meshes' many corners).
    let want = if oracle {
        visibility::oracle(&shrunk.mesh, from, to)
    } else {
        exact
    };
    assert!(
        (exact - want).abs() <= 1e-9 * want.max(1.0),
        "{from} to {to} shrunk by {under}: Polyanya {exact}, the visibility graph {want}"
    );
    assert!(
        path.length >= exact - 1e-9 * size,
        "{from} to {to} for radius {radius}: {} shorter than the exact {exact}",
        path.length
    );
    // A point's path is never longer in the same corridor... and never longer than the disc's.
    assert!(point.length <= path.length + 1e-9 * size);
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases_or(32),
        ..ProptestConfig::default()
    })]

    /// Between the centres of the largest discs of random triangles (points with room).
    #[test]
    fn paths_for_a_radius_keep_it_and_are_no_shorter_than_the_exact_one(
        map in common::tile_maps(4..9),
        picks in prop::collection::vec(0.0f64..1.0, 6),
        radius in prop::sample::select(vec![0.15, 0.3, 0.45]),
        cost in prop::sample::select(vec![CostModel::Centroid, CostModel::Midpoint, CostModel::Straight]),
    ) {
        let Ok(mesh) = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
            return Ok(());
        };
        let n = mesh.triangles().len();
        let centre = |u: f64| {
            let t = ((u * n as f64) as usize).min(n - 1);
            mesh.clearance().triangle_centre(t).expect("a centre")
        };
        for (k, pair) in picks.chunks(2).enumerate() {
            check(&mesh, centre(pair[0]), centre(pair[1]), radius, cost, k == 0);
        }
    }
}

/// With radius 0 the query is the point query, field for field.
#[test]
fn radius_zero_is_the_point_query() {
    let scene = navlab_core::assets::ROOMS;
    let mesh = scene.read(Default::default()).expect("built-in mesh");
    let (from, to) = (scene.start_point(), scene.goal_point());
    let plain = find_path(
        &mesh,
        from,
        to,
        QueryOptions::default(),
        &mut NoObserver,
        &mut NoObserver,
    );
    assert_eq!(
        Some(query(&mesh, from, to, CostModel::Centroid, 0.0)),
        plain
    );
}

/// Where the corridor query finds a path for a radius the exact search does too; where the
/// exact search does, the corridor query almost always does (it can miss one where the
/// corridor A* chose is too narrow between portals: about 1 in 250 on these maps).
#[test]
fn the_corridor_query_misses_few_goals_the_exact_search_reaches() {
    use proptest::strategy::{Strategy, ValueTree};
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut both, mut exact_only) = (0, 0);
    for _ in 0..common::cases_or(120) {
        let map = common::tile_maps(4..12)
            .new_tree(&mut runner)
            .expect("a map")
            .current();
        let Ok(mesh) = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
            continue;
        };
        let n = mesh.triangles().len();
        let clearance = mesh.clearance();
        for radius in [0.15, 0.3, 0.45] {
            let Ok(shrunk) = shrink(&mesh, radius) else {
                continue;
            };
            for k in 0..6 {
                let (s, g) = ((k * 7919) % n, (k * 104_729 + 13) % n);
                let (Some(a), Some(b)) =
                    (clearance.triangle_centre(s), clearance.triangle_centre(g))
                else {
                    continue;
                };
                if clearance.room(s, a) < radius || clearance.room(g, b) < radius {
                    continue;
                }
                let corridor = query(&mesh, a, b, CostModel::Straight, radius).status
                    != PathStatus::Unreachable;
                let exact = shortest_path(&shrunk.mesh, a, b, &mut NoObserver)
                    .length
                    .is_finite();
                assert!(
                    !corridor || exact,
                    "{a} to {b} for {radius}: only the corridor query"
                );
                both += usize::from(corridor && exact);
                exact_only += usize::from(exact && !corridor);
            }
        }
    }
    assert!(both > 500, "too few pairs: {both}");
    assert!(
        exact_only * 100 <= both,
        "the corridor query missed {exact_only} of {} goals",
        both + exact_only
    );
}

/// Recast's `level.nav.obj` has islands whose floors overlap (a bridge over a floor, stairs):
/// shrunk floor by floor and joined again where the floors meet, so that wherever the corridor
/// query finds a path for a radius the exact search does too, and the exact path keeps the
/// radius from every wall that counts on the floor it is on (followed over the surface).
#[test]
fn stacked_floors_are_shrunk_floor_by_floor_and_joined() {
    let Some(path) = common::testdata("meshes/obj/level.nav.obj") else {
        eprintln!("skipped: ../shared/testdata/meshes/obj/level.nav.obj is absent");
        return;
    };
    let mesh = NavMesh::load(&path, navlab_core::navmesh::Plane::Xz).expect("loads");
    let radius = 0.1;
    let clearance = mesh.clearance();
    let n = mesh.triangles().len();
    let bounds = mesh.bounds();
    let size = bounds.min.distance(bounds.max);
    let (mut both, mut checked) = (0, 0);
    for k in 0..4000 {
        let (s, g) = ((k * 7919) % n, (k * 104_729 + 17) % n);
        if mesh.island_of(s) != mesh.island_of(g) {
            continue;
        }
        let (Some(a), Some(b)) = (clearance.triangle_centre(s), clearance.triangle_centre(g))
        else {
            continue;
        };
        if clearance.room(s, a) < radius || clearance.room(g, b) < radius {
            continue;
        }
        let (Some(la), Some(lb)) = (mesh.locate(a), mesh.locate(b)) else {
            continue;
        };
        if la.triangle != s || lb.triangle != g {
            // A centre under another floor: the query would start on that one.
            continue;
        }
        checked += 1;
        let corridor = query(&mesh, a, b, CostModel::Straight, radius);
        let exact =
            navlab_core::navmesh::radius::shortest_path_for_radius_located(&mesh, la, lb, radius)
                .expect("shrunk, stacked floors too");
        if corridor.status == PathStatus::Unreachable {
            continue;
        }
        assert!(
            exact.is_found(),
            "{a} to {b}: only the corridor query finds a path"
        );
        both += 1;
        // Followed over the surface from the start's triangle: at every sampled point the
        // floor it is on has room for the radius.
        let tolerance = 1e-9 * size;
        let mut on = vec![la.triangle];
        for pair in exact.waypoints.windows(2) {
            let (p, q) = (pair[0], pair[1]);
            let over = common::surface::passed_over(&mesh, &on, p, q, tolerance);
            let holding = |x: Vec2| -> Vec<usize> {
                over.iter()
                    .copied()
                    .filter(|&u| {
                        common::visibility::distance_to_triangle(mesh.corners(u), x) <= tolerance
                    })
                    .collect()
            };
            for k in 0..=20 {
                let x = p.lerp(q, k as f64 / 20.0);
                let room = holding(x)
                    .iter()
                    .map(|&u| clearance.room(u, x))
                    .fold(f64::NEG_INFINITY, f64::max);
                assert!(
                    room >= radius * (1.0 - 1e-6),
                    "{a} to {b}: room {room} at {x}"
                );
            }
            on = holding(q);
            assert!(
                !on.is_empty(),
                "{a} to {b}: the path leaves the mesh at {q}"
            );
        }
    }
    eprintln!("{checked} pairs, {both} with paths");
    assert!(
        checked > 20 && both > 10,
        "{checked} pairs, {both} with paths"
    );
}

/// A corner the funnel takes because a later corner's tangent runs inside its circle, but that
/// the path then passes without touching (it would turn round it the wrong way), is no corner:
/// the path runs straight, as for a point, and the goal reachable for a larger radius is
/// reachable for this one.
#[test]
fn a_corner_passed_clear_is_not_turned_round() {
    let map = common::walled_map(&["......", "....##", "......", "...#.."]);
    let mesh = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0).expect("a mesh");
    let (a, b) = (Vec2::new(2.4, 3.4), Vec2::new(3.586, 2.414));
    let larger = query(&mesh, a, b, CostModel::Centroid, 0.15);
    assert_eq!(larger.status, PathStatus::Found);
    // The straight line passes 0.076 from the wall's corner at (3, 3).
    let path = query(&mesh, a, b, CostModel::Centroid, 0.075);
    assert_eq!(path.status, PathStatus::Found);
    assert_eq!(path.waypoints, vec![a, b]);
    assert!(path.arcs.is_empty());
}
