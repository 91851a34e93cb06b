//! Building a navmesh from level geometry, against Recast's own build of its demo level
//! (`../shared/testdata/meshes/obj/nav_test.obj`, the numbers `SOURCES.md` lists).

mod common;
use navlab_core::level::{BuildSettings, LevelError, build_navmesh};
use navlab_core::navmesh::{NavMesh, Plane, obj};

/// The islands' plan areas, largest first.
fn island_areas(mesh: &NavMesh) -> Vec<f64> {
    let mut areas = mesh.island_areas();
    areas.sort_by(|a, b| b.total_cmp(a));
    areas
}

#[test]
fn recasts_demo_level_builds_as_recast_builds_it() {
    let Some(path) = common::testdata("meshes/obj/nav_test.obj") else {
        return;
    };
    let level = obj::load_raw(&path, Plane::Xz).expect("the level reads");
    let built = build_navmesh(&level.positions, &level.polygons, &BuildSettings::default())
        .expect("builds");
    let counts = built.counts;
    // Recast: a 305 × 258 grid, 56,795 walkable spans, 155 polygons, 349 vertices.
    assert_eq!(counts.grid, [305, 258]);
    assert!(counts.compact_spans.abs_diff(56_795) <= 56, "{counts:?}");
    assert!(counts.polygons.abs_diff(155) <= 3, "{counts:?}");
    assert!(counts.vertices.abs_diff(349) <= 5, "{counts:?}");
    let mesh = built.into_navmesh().expect("a navmesh");
    let areas = island_areas(&mesh);
    assert_eq!(areas.len(), 17, "islands: {areas:?}");
    let total: f64 = areas.iter().sum();
    assert!((total / 4002.03 - 1.0).abs() < 0.005, "plan area {total}");
    for (got, want) in areas.iter().zip([1675.89, 959.63, 843.89]) {
        assert!(
            (got / want - 1.0).abs() < 0.01,
            "island {got} against {want}"
        );
    }
}

#[test]
fn the_same_level_at_a_fifth_of_the_scale_builds_the_same_islands() {
    let Some(path) = common::testdata("meshes/obj/level.obj") else {
        return;
    };
    let level = obj::load_raw(&path, Plane::Xz).expect("the level reads");
    let d = BuildSettings::default();
    // World units scaled by 0.2; what is counted in cells stays.
    let scaled = BuildSettings {
        cell_size: d.cell_size * 0.2,
        cell_height: d.cell_height * 0.2,
        agent_height: d.agent_height * 0.2,
        agent_radius: d.agent_radius * 0.2,
        agent_max_climb: d.agent_max_climb * 0.2,
        edge_max_len: d.edge_max_len * 0.2,
        ..d
    };
    let built = build_navmesh(&level.positions, &level.polygons, &scaled).expect("builds");
    let mesh = built.into_navmesh().expect("a navmesh");
    let areas = island_areas(&mesh);
    assert_eq!(areas.len(), 17, "islands: {areas:?}");
    let total: f64 = areas.iter().sum();
    assert!(
        (total / (4002.03 * 0.04) - 1.0).abs() < 0.01,
        "plan area {total}"
    );
}

#[test]
fn parameters_out_of_range_and_grids_too_large_are_refused() {
    let square = [
        [0.0, 0.0, 0.0],
        [10.0, 0.0, 0.0],
        [10.0, 0.0, 10.0],
        [0.0, 0.0, 10.0],
    ];
    let faces = [vec![0, 3, 2, 1]];
    for settings in [
        BuildSettings {
            cell_size: 0.0,
            ..BuildSettings::default()
        },
        BuildSettings {
            cell_height: f64::NAN,
            ..BuildSettings::default()
        },
        BuildSettings {
            agent_max_slope: 90.0,
            ..BuildSettings::default()
        },
        BuildSettings {
            verts_per_poly: 2,
            ..BuildSettings::default()
        },
        BuildSettings {
            region_min_size: 300,
            ..BuildSettings::default()
        },
        BuildSettings {
            agent_height: 1e9,
            ..BuildSettings::default()
        },
    ] {
        let error = build_navmesh(&square, &faces, &settings).expect_err("refused");
        assert!(matches!(error, LevelError::Parameter { .. }), "{error}");
    }
    // 2 km square at RecastDemo's 0.3 cells: 6,667 × 6,667 cells.
    let vast = square.map(|[x, y, z]| [x * 200.0, y, z * 200.0]);
    let error =
        build_navmesh(&vast, &faces, &BuildSettings::default()).expect_err("too many cells");
    assert!(matches!(error, LevelError::GridTooLarge { .. }), "{error}");
    assert!(error.to_string().contains("raise the cell size"), "{error}");
    assert!(matches!(
        build_navmesh(&square, &[], &BuildSettings::default()),
        Err(LevelError::Empty)
    ));
}

#[test]
fn a_flat_floor_builds_one_polygon_island_kept_a_radius_from_its_edges() {
    // A 10 × 10 floor wound so that it faces up (Y).
    let square = [
        [0.0, 0.0, 0.0],
        [10.0, 0.0, 0.0],
        [10.0, 0.0, 10.0],
        [0.0, 0.0, 10.0],
    ];
    let built =
        build_navmesh(&square, &[vec![0, 3, 2, 1]], &BuildSettings::default()).expect("builds");
    let mesh = built.into_navmesh().expect("a navmesh");
    assert_eq!(mesh.island_count(), 1);
    let b = mesh.bounds();
    // Eroded by the radius (0.6, two cells of 0.3) from each side of the floor: the polygon's
    // edge runs along the kept cells' outer sides, so a cell more at most, never a cell less.
    for margin in [b.min.x, b.min.y, 10.0 - b.max.x, 10.0 - b.max.y] {
        assert!(
            (0.6 - 0.3 - 1e-6..=0.6 + 2.0 * 0.3 + 1e-6).contains(&margin),
            "{b:?}"
        );
    }
}
