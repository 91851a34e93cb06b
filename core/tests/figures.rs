//! Hand-made figures with answers worked out on paper.

mod common;
use common::*;
use navlab_core::navmesh::{CostModel, NavMesh, PathStatus, Plane, QueryOptions, find_path};
use navlab_core::search::NoObserver;
use navlab_core::search::funnel::FunnelEvent;

fn query(
    mesh: &NavMesh,
    from: navlab_core::geom::Vec2,
    to: navlab_core::geom::Vec2,
) -> navlab_core::navmesh::Path {
    let path = find_path(
        mesh,
        from,
        to,
        QueryOptions::default(),
        &mut NoObserver,
        &mut NoObserver,
    )
    .expect("finite points");
    if path.status != PathStatus::Unreachable {
        check_path_invariants(mesh, &path);
    }
    path
}

#[test]
fn straight_corridor_gives_two_waypoints() {
    let cells: Vec<(i32, i32)> = (0..10).map(|x| (x, 0)).collect();
    let mesh = cells_mesh(&cells);
    let path = query(&mesh, p(0.5, 0.5), p(9.5, 0.25));
    assert_eq!(path.status, PathStatus::Found);
    assert_eq!(path.waypoints, vec![p(0.5, 0.5), p(9.5, 0.25)]);
    assert!(path.corridor.len() >= 10);
}

#[test]
fn zig_zag_corridor_hugs_each_wall_corner() {
    // A bump: right along row 0, up column 2, right along row 2, down column 4, right along
    // row 0. The wall block under the bump is x in [3,4], y in [0,2]; the walls beside it are
    // x in [0,2] and [5,7] for y in [1,3]. The taut string touches (2,1), (3,2), (4,2), (5,1).
    let mesh = cells_mesh(&[
        (0, 0),
        (1, 0),
        (2, 0),
        (2, 1),
        (2, 2),
        (3, 2),
        (4, 2),
        (4, 1),
        (4, 0),
        (5, 0),
        (6, 0),
    ]);
    let path = query(&mesh, p(0.5, 0.5), p(6.5, 0.5));
    assert_eq!(path.status, PathStatus::Found);
    let corners = [p(2.0, 1.0), p(3.0, 2.0), p(4.0, 2.0), p(5.0, 1.0)];
    let mut want = vec![p(0.5, 0.5)];
    want.extend(corners);
    want.push(p(6.5, 0.5));
    assert_eq!(path.waypoints, want);
    assert_close(
        path.length,
        2.0 * (1.5f64.hypot(0.5) + 2f64.sqrt()) + 1.0,
        1e-12,
    );
}

#[test]
fn path_goes_around_an_obstacle_touching_its_corner() {
    // hole.obj: 10 x 10 floor with [3,7] x [3,7] removed (XZ plane).
    let mesh = NavMesh::load(&repo_path("assets/hole.obj"), Plane::Xz).expect("asset loads");
    assert_eq!(mesh.island_count(), 1);
    let path = query(&mesh, p(1.0, 1.0), p(9.0, 9.0));
    assert_eq!(path.status, PathStatus::Found);
    // Symmetric: either (7,3) or (3,7) is the single corner.
    assert_eq!(path.waypoints.len(), 3);
    let corner = path.waypoints[1];
    assert!(
        corner == p(7.0, 3.0) || corner == p(3.0, 7.0),
        "corner {corner}"
    );
    assert_close(path.length, 2.0 * (36.0f64 + 4.0).sqrt(), 1e-12);
}

/// The figure of seed 004 (Suzhou 2012): a chain of convex polygons crossed through edges E1..,
/// where the funnel finds one corner (the paper's a6) when a new portal end falls outside the
/// opposite side. Reconstructed as a corridor of quads running east, then turning north (a left
/// turn) around the wall corner (6, 2): the corner is a *left* end, crossed by a right end.
#[test]
fn seed_004_figure_turns_once_at_the_wall_corner() {
    let points = [
        (0.0, 0.0), // 0
        (3.0, 0.0), // 1
        (6.0, 0.0), // 2
        (8.0, 0.0), // 3
        (0.0, 2.0), // 4
        (3.0, 2.0), // 5
        (6.0, 2.0), // 6: the wall corner
        (8.0, 2.0), // 7
        (6.0, 5.0), // 8
        (8.0, 5.0), // 9
        (6.0, 8.0), // 10
        (8.0, 8.0), // 11
    ];
    // P1, P2, P3 along the bottom; P6 the corner; P7, P9 going up. Counter-clockwise quads.
    let polys: [&[usize]; 5] = [
        &[0, 1, 5, 4],
        &[1, 2, 6, 5],
        &[2, 3, 7, 6],
        &[6, 7, 9, 8],
        &[8, 9, 11, 10],
    ];
    let mesh = mesh_2d(&points, &polys);
    let mut funnel_trace = Vec::new();
    let path = find_path(
        &mesh,
        p(0.5, 1.0),
        p(7.0, 7.5),
        QueryOptions::default(),
        &mut NoObserver,
        &mut funnel_trace,
    )
    .expect("finite");
    check_path_invariants(&mesh, &path);
    assert_eq!(path.waypoints, vec![p(0.5, 1.0), p(6.0, 2.0), p(7.0, 7.5)]);
    // Exactly one corner event, at the wall corner; the goal is not reported as a corner.
    let corners: Vec<_> = funnel_trace
        .iter()
        .filter_map(|e| match e {
            FunnelEvent::Corner {
                corner,
                crossing_side,
                ..
            } => Some((*corner, *crossing_side)),
            _ => None,
        })
        .collect();
    assert_eq!(
        corners,
        vec![(p(6.0, 2.0), navlab_core::search::funnel::Side::Right)]
    );
}

#[test]
fn doorway_between_rooms_is_used() {
    let mesh = NavMesh::load(&repo_path("assets/rooms.obj"), Plane::Xz).expect("asset loads");
    assert_eq!(mesh.island_count(), 1);
    // From room A's south-west to room C, through both doors.
    let path = query(&mesh, p(1.0, 1.0), p(5.0, -7.0));
    assert_eq!(path.status, PathStatus::Found);
    // It must pass the two doors: x in [6,8] at z in [4,5], then x in [12,13] at z in [-2,0].
    assert!(
        path.waypoints.contains(&p(6.0, 4.0)),
        "{:?}",
        path.waypoints
    );
    assert!(path.waypoints.contains(&p(12.0, -2.0)) || path.waypoints.contains(&p(12.0, 0.0)));
}

#[test]
fn stairs_edge_shared_by_three_triangles_connects_all_three() {
    let mesh = NavMesh::load(&repo_path("assets/stairs.obj"), Plane::Xz).expect("asset loads");
    let nm: Vec<_> = mesh.non_manifold_edges().collect();
    assert_eq!(nm.len(), 1);
    let edge = &mesh.edges()[nm[0]];
    assert_eq!(edge.triangles.len(), 3);
    // Each of the three triangles lists the other two as neighbours across that edge.
    for &t in &edge.triangles {
        let across: Vec<_> = mesh
            .neighbours(t)
            .iter()
            .filter(|&&(_, e)| e == nm[0])
            .map(|&(n, _)| n)
            .collect();
        assert_eq!(across.len(), 2);
    }
    // From the floor before the stairs to the floor leading out from under them.
    let path = query(&mesh, p(1.0, 1.0), p(4.5, 7.0));
    assert_eq!(path.status, PathStatus::Found);
}

#[test]
fn separate_islands_are_unreachable_not_an_error() {
    let mesh = cells_mesh(&[(0, 0), (1, 0), (5, 0)]);
    assert_eq!(mesh.island_count(), 2);
    let path = query(&mesh, p(0.5, 0.5), p(5.5, 0.5));
    assert_eq!(path.status, PathStatus::Unreachable);
    assert!(path.waypoints.is_empty() && path.corridor.is_empty());
    assert!(path.expanded >= 4, "A* explored the start's island");
}

#[test]
fn off_mesh_points_snap_and_say_so() {
    let mesh = cells_mesh(&[(0, 0), (1, 0)]);
    let path = query(&mesh, p(-1.0, 0.5), p(1.5, 3.0));
    assert_eq!(path.status, PathStatus::Snapped);
    assert!(path.start.snapped && path.goal.snapped);
    assert_eq!(path.start.point, p(0.0, 0.5));
    assert_close(path.goal.point.x, 1.5, 1e-12);
    assert_close(path.goal.point.y, 1.0, 1e-9);
}

#[test]
fn midpoint_cost_model_finds_the_same_shape_in_a_simple_corridor() {
    let cells: Vec<(i32, i32)> = (0..6).map(|x| (x, 0)).collect();
    let mesh = cells_mesh(&cells);
    let options = QueryOptions {
        cost: CostModel::Midpoint,
        ..QueryOptions::default()
    };
    let path = find_path(
        &mesh,
        p(0.2, 0.2),
        p(5.8, 0.8),
        options,
        &mut NoObserver,
        &mut NoObserver,
    )
    .expect("finite");
    check_path_invariants(&mesh, &path);
    assert_eq!(path.waypoints, vec![p(0.2, 0.2), p(5.8, 0.8)]);
    // The corridor cost runs from the start to the goal through edge midpoints, so it is at
    // least the straight distance.
    assert!(path.corridor_cost >= p(0.2, 0.2).distance(p(5.8, 0.8)));
}
