//! The funnel's known edge cases: start or goal on a portal or a vertex, collinear points,
//! zero-width portals, float-noise seams, start and goal in one triangle.

mod common;
use common::*;
use navlab_core::navmesh::{
    BuildOptions, CostModel, NavMesh, PathStatus, Plane, QueryOptions, find_path,
};
use navlab_core::search::NoObserver;
use navlab_core::search::funnel::{Portal, string_pull};

fn every_model(
    mesh: &NavMesh,
    from: navlab_core::geom::Vec2,
    to: navlab_core::geom::Vec2,
) -> Vec<navlab_core::navmesh::Path> {
    [
        CostModel::Centroid,
        CostModel::Midpoint,
        CostModel::Straight,
    ]
    .into_iter()
    .map(|cost| {
        let options = QueryOptions {
            cost,
            ..QueryOptions::default()
        };
        let path =
            find_path(mesh, from, to, options, &mut NoObserver, &mut NoObserver).expect("finite");
        assert_ne!(path.status, PathStatus::Unreachable);
        check_path_invariants(mesh, &path);
        path
    })
    .collect()
}

fn row(n: i32) -> NavMesh {
    let cells: Vec<(i32, i32)> = (0..n).map(|x| (x, 0)).collect();
    cells_mesh(&cells)
}

#[test]
fn start_on_a_portal_inside_the_corridor() {
    // (1, 0.5) lies on the edge between cells 0 and 1; (0.5, 0.5) on a cell's diagonal.
    for start in [p(1.0, 0.5), p(0.5, 0.5)] {
        for path in every_model(&row(5), start, p(4.5, 0.5)) {
            assert_eq!(path.waypoints, vec![start, p(4.5, 0.5)]);
        }
    }
}

#[test]
fn goal_on_a_portal() {
    for path in every_model(&row(5), p(0.2, 0.2), p(3.0, 0.7)) {
        assert_eq!(path.waypoints, vec![p(0.2, 0.2), p(3.0, 0.7)]);
    }
}

#[test]
fn start_and_goal_on_vertices() {
    // Vertices shared by several triangles, on the border and inside an L-shaped corridor.
    let mesh = cells_mesh(&[(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]);
    for (from, to) in [
        (p(0.0, 0.0), p(3.0, 3.0)),
        (p(1.0, 1.0), p(2.0, 3.0)),
        (p(2.0, 1.0), p(3.0, 0.0)),
        (p(3.0, 3.0), p(0.0, 1.0)),
    ] {
        for path in every_model(&mesh, from, to) {
            // The inner corner (2,1) is the only possible corner.
            for corner in &path.waypoints[1..path.waypoints.len() - 1] {
                assert_eq!(*corner, p(2.0, 1.0), "{:?}", path.waypoints);
            }
        }
    }
}

#[test]
fn start_on_the_corner_the_path_turns_around() {
    let mesh = cells_mesh(&[(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]);
    for path in every_model(&mesh, p(2.0, 1.0), p(0.5, 0.5)) {
        assert_eq!(path.waypoints, vec![p(2.0, 1.0), p(0.5, 0.5)]);
    }
    for path in every_model(&mesh, p(0.5, 0.5), p(2.5, 2.5)) {
        assert_eq!(path.waypoints, vec![p(0.5, 0.5), p(2.0, 1.0), p(2.5, 2.5)]);
    }
}

#[test]
fn path_along_the_border_with_collinear_portal_ends() {
    // Start and goal on the bottom border: every portal's right end is collinear with them.
    for path in every_model(&row(6), p(0.0, 0.0), p(6.0, 0.0)) {
        assert_eq!(path.waypoints, vec![p(0.0, 0.0), p(6.0, 0.0)]);
        assert_close(path.length, 6.0, 1e-12);
    }
    // And along the top border, in the other direction.
    for path in every_model(&row(6), p(5.5, 1.0), p(0.5, 1.0)) {
        assert_eq!(path.waypoints, vec![p(5.5, 1.0), p(0.5, 1.0)]);
    }
}

#[test]
fn zero_width_portal_forces_the_path_through_the_pinch() {
    let portals = [
        Portal {
            left: p(1.0, 1.0),
            right: p(1.0, -1.0),
        },
        Portal {
            left: p(2.0, 0.5),
            right: p(2.0, 0.5),
        },
        Portal {
            left: p(3.0, 1.0),
            right: p(3.0, -1.0),
        },
    ];
    let path = string_pull(p(0.0, -0.5), p(4.0, -0.5), &portals, &mut NoObserver);
    assert_eq!(path, vec![p(0.0, -0.5), p(2.0, 0.5), p(4.0, -0.5)]);
}

#[test]
fn float_noise_seam_is_welded_so_the_halves_connect() {
    // Two squares whose shared edge differs by 1e-9 in x: a classic exporter seam.
    let positions = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0],
        [1.0 + 1e-9, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 0.0, 1.0],
        [1.0 - 1e-9, 0.0, 1.0],
    ];
    let polygons = vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]];
    let mesh =
        NavMesh::from_polygons(&positions, &polygons, BuildOptions::default()).expect("builds");
    assert_eq!(mesh.report().welded_vertices, 2);
    assert_eq!(mesh.island_count(), 1);
    for path in every_model(&mesh, p(0.2, 0.5), p(1.8, 0.5)) {
        assert_eq!(path.waypoints.len(), 2);
    }
    // With welding switched off the seam splits the mesh in two.
    let unwelded = NavMesh::from_polygons(
        &positions,
        &polygons,
        BuildOptions {
            plane: Plane::Xz,
            relative_weld_tolerance: 0.0,
        },
    )
    .expect("builds");
    assert_eq!(unwelded.island_count(), 2);
}

#[test]
fn start_and_goal_in_one_triangle() {
    let mesh = mesh_2d(&[(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)], &[&[0, 1, 2]]);
    for path in every_model(&mesh, p(0.5, 0.5), p(2.0, 1.0)) {
        assert_eq!(path.corridor, vec![0]);
        assert_eq!(path.waypoints, vec![p(0.5, 0.5), p(2.0, 1.0)]);
        assert_eq!(path.portals.len(), 1, "only the goal portal");
    }
}

#[test]
fn start_equal_to_goal() {
    for path in every_model(&row(3), p(1.5, 0.5), p(1.5, 0.5)) {
        assert_eq!(path.length, 0.0);
        assert_eq!(path.waypoints, vec![p(1.5, 0.5), p(1.5, 0.5)]);
    }
}

#[test]
fn u_turn_emits_both_corners_of_the_wall_end() {
    // Up column 0, across the top, down column 2: the wall (1,0)-(1,1) sits in the middle.
    let mesh = cells_mesh(&[(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)]);
    for path in every_model(&mesh, p(0.5, 0.5), p(2.5, 0.5)) {
        assert_eq!(
            path.waypoints,
            vec![p(0.5, 0.5), p(1.0, 2.0), p(2.0, 2.0), p(2.5, 0.5)]
        );
    }
}
