//! The widest route against brute force on random maps' meshes: its radius is the largest
//! portal clearance at which the start and goal are still joined by portals at least that wide
//! (a search of the portals above each threshold, written here), less the room at the ends;
//! no route joins them through portals wider than the portal it names (that portal is the
//! narrowest on every route); its triangles are a route through portals at least as wide.

mod common;
use navlab_core::geom::Vec2;
use navlab_core::navmesh::NavMesh;
use navlab_core::navmesh::widest::{RouteLimit, widest_route};
use proptest::prelude::*;

/// Whether triangles `s` and `g` are joined through portals of clearance above `at`
/// (`strictly`) or at least `at`.
fn joined(mesh: &NavMesh, s: usize, g: usize, at: f64, strictly: bool) -> bool {
    let clearance = mesh.clearance();
    let mut seen = vec![false; mesh.triangles().len()];
    let mut stack = vec![s];
    seen[s] = true;
    while let Some(t) = stack.pop() {
        if t == g {
            return true;
        }
        for &(n, e) in mesh.neighbours(t) {
            let c = clearance.portal(e);
            let wide = if strictly { c > at } else { c >= at };
            if wide && !seen[n] {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    false
}

fn check(mesh: &NavMesh, from: Vec2, to: Vec2) {
    let (Some(a), Some(b)) = (mesh.locate(from), mesh.locate(to)) else {
        return;
    };
    let route = widest_route(mesh, &a, &b);
    let clearance = mesh.clearance();
    if mesh.island_of(a.triangle) != mesh.island_of(b.triangle) {
        assert_eq!(route.limit, RouteLimit::NoRoute);
        assert!(route.triangles.is_empty());
        return;
    }
    // Brute force: the largest portal clearance (or none needed) at which they are joined.
    let mut levels: Vec<f64> = clearance.portals().to_vec();
    levels.push(f64::INFINITY);
    levels.sort_by(f64::total_cmp);
    let through = if a.triangle == b.triangle {
        f64::INFINITY
    } else {
        levels
            .iter()
            .rev()
            .copied()
            .find(|&c| joined(mesh, a.triangle, b.triangle, c, false))
            .expect("joined at clearance 0")
    };
    let ends = clearance
        .room(a.triangle, a.point)
        .min(clearance.room(b.triangle, b.point));
    let want = through.min(ends);
    assert_eq!(route.radius, want, "{from} to {to}: {route:?}");
    // The route: from the start's triangle to the goal's, through portals at least that wide.
    assert_eq!(route.triangles.first(), Some(&a.triangle));
    assert_eq!(route.triangles.last(), Some(&b.triangle));
    for pair in route.triangles.windows(2) {
        let edge = mesh
            .neighbours(pair[0])
            .iter()
            .find(|&&(n, _)| n == pair[1])
            .map(|&(_, e)| e)
            .expect("neighbours");
        assert!(clearance.portal(edge) >= route.radius);
    }
    if let RouteLimit::Portal(edge) = route.limit {
        let c = clearance.portal(edge);
        assert_eq!(c, route.radius);
        // No route through portals all wider: it is the narrowest on every route.
        assert!(
            !joined(mesh, a.triangle, b.triangle, c, true),
            "{from} to {to}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases_or(64),
        ..ProptestConfig::default()
    })]

    /// Between the centres of the largest discs of random triangles (so that the ends seldom
    /// limit the route) and between random points.
    #[test]
    fn the_widest_route_is_the_brute_force_bottleneck(
        map in common::tile_maps(4..9),
        picks in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 4),
    ) {
        let Ok(mesh) = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
            return Ok(());
        };
        let b = mesh.bounds();
        let at = |(u, v): (f64, f64)| {
            Vec2::new(b.min.x + u * (b.max.x - b.min.x), b.min.y + v * (b.max.y - b.min.y))
        };
        let n = mesh.triangles().len();
        let centre = |(u, _): (f64, f64)| {
            let t = ((u * n as f64) as usize).min(n - 1);
            mesh.clearance().triangle_centre(t).expect("a centre")
        };
        for pair in picks.chunks(2) {
            check(&mesh, centre(pair[0]), centre(pair[1]));
            check(&mesh, at(pair[0]), at(pair[1]));
        }
    }
}

/// Two rooms joined by a doorway one unit wide: the largest agent through has radius 0.5,
/// and the doorway is what stops a larger one.
#[test]
fn a_doorway_sets_the_largest_agent_between_two_rooms() {
    let mesh = common::mesh_2d(
        &[
            (0.0, 0.0),
            (6.0, 0.0),
            (6.0, 2.5),
            (6.0, 3.5),
            (6.0, 6.0),
            (0.0, 6.0),
            (7.0, 0.0),
            (13.0, 0.0),
            (13.0, 6.0),
            (7.0, 6.0),
            (7.0, 3.5),
            (7.0, 2.5),
        ],
        &[&[0, 1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11], &[2, 11, 10, 3]],
    );
    let (a, b) = (
        mesh.locate(Vec2::new(3.0, 3.0)).expect("a"),
        mesh.locate(Vec2::new(10.0, 3.0)).expect("b"),
    );
    let route = widest_route(&mesh, &a, &b);
    common::assert_close(route.radius, 0.5, 1e-12);
    let RouteLimit::Portal(edge) = route.limit else {
        panic!("{route:?}");
    };
    let centre = mesh.clearance().portal_centre(edge).expect("a centre");
    assert!((6.0..=7.0).contains(&centre.x), "{centre}");
    // Near a wall, the start itself is the limit.
    let near = mesh.locate(Vec2::new(0.2, 3.0)).expect("near the wall");
    let route = widest_route(&mesh, &near, &b);
    assert_eq!(route.limit, RouteLimit::Start);
    common::assert_close(route.radius, 0.2, 1e-12);
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases_or(12),
        ..ProptestConfig::default()
    })]

    /// The largest radius against a bisection over the radius by the exact search on the mesh
    /// shrunk by it: the bisection's answer is never above the widest route's (the shrunk mesh
    /// has less room than there is), and at least its share cos(π/16) (the shrunk mesh's caps
    /// are 16-sided polygons drawn round the circles, so it holds every point with room
    /// radius / cos(π/16)).
    #[test]
    fn the_largest_radius_agrees_with_a_bisection_by_the_exact_search(
        map in common::tile_maps(4..8),
        picks in prop::collection::vec(0.0f64..1.0, 4),
    ) {
        let Ok(mesh) = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
            return Ok(());
        };
        let n = mesh.triangles().len();
        let centre = |u: f64| {
            let t = ((u * n as f64) as usize).min(n - 1);
            mesh.clearance().triangle_centre(t).expect("a centre")
        };
        for pair in picks.chunks(2) {
            let (from, to) = (centre(pair[0]), centre(pair[1]));
            let (Some(a), Some(b)) = (mesh.locate(from), mesh.locate(to)) else {
                continue;
            };
            let route = widest_route(&mesh, &a, &b);
            if !(route.radius.is_finite() && route.radius > 0.0) {
                continue;
            }
            let reaches = |r: f64| {
                navlab_core::navmesh::radius::shortest_path_for_radius(&mesh, from, to, r)
                    .is_ok_and(|p| p.is_found())
            };
            let (mut lo, mut hi) = (0.0, 2.0 * route.radius);
            if reaches(hi) {
                lo = hi;
            }
            while hi - lo > 1e-7 * route.radius {
                let mid = 0.5 * (lo + hi);
                if reaches(mid) { lo = mid } else { hi = mid }
            }
            let share = (std::f64::consts::PI / 16.0).cos();
            prop_assert!(
                lo <= route.radius * (1.0 + 1e-6),
                "{from} to {to}: the bisection {lo} above the widest route's {}",
                route.radius
            );
            prop_assert!(
                lo >= route.radius * share * (1.0 - 1e-6),
                "{from} to {to}: the bisection {lo} below cos(π/16) of the widest route's {}",
                route.radius
            );
        }
    }
}
