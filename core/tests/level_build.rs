//! Building a navmesh from level geometry, against Recast's own build of its demo level
//! (`../shared/testdata/meshes/obj/nav_test.obj`, the numbers `SOURCES.md` lists).

mod common;
use navlab_core::geom::Vec2;
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
    // A wall seen edge on: no cell of the grid under it.
    let edge_on = [[0.0, 0.0, 7.14], [0.0, 0.0, 7.13], [0.0, 0.0, 7.22]];
    let error =
        build_navmesh(&edge_on, &[vec![0, 1, 2]], &BuildSettings::default()).expect_err("no floor");
    assert!(matches!(error, LevelError::NoFloor { .. }), "{error}");
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

#[test]
fn a_floor_round_a_pillar_builds_with_the_pillar_as_a_hole() {
    // Recast's contours give the floor an outline and the pillar's hole; the hole is joined to
    // the outline by a diagonal, or no polygon could be made of it.
    let mut level = common::levels::Level::default();
    level.add_box([0.0, -0.5, 0.0], [12.0, 0.0, 12.0]);
    level.add_box([3.0, 0.0, 3.0], [9.0, 3.0, 9.0]);
    let built =
        build_navmesh(&level.positions, &level.faces, &BuildSettings::default()).expect("builds");
    assert_eq!(built.counts.holes_left_out, 0);
    let mesh = built.into_navmesh().expect("a navmesh");
    // The floor round the pillar, the pillar's top, and the floor inside the pillar: Recast
    // rasterises faces, not solids, and a closed box's inside is room enough to stand in.
    assert_eq!(mesh.island_count(), 3, "{:?}", mesh.island_areas());
    let at = |x, z| {
        !mesh
            .triangles_at(navlab_core::geom::Vec2::new(x, z))
            .is_empty()
    };
    let ring = mesh.island_of(mesh.triangles_at(navlab_core::geom::Vec2::new(6.0, 1.5))[0]);
    let inside = mesh.triangles_at(navlab_core::geom::Vec2::new(6.0, 6.0));
    assert!(
        inside.iter().all(|&t| mesh.island_of(t) != ring),
        "the ring does not cover the pillar"
    );
    assert!(at(6.0, 1.5) && at(1.5, 6.0) && at(10.5, 6.0) && at(6.0, 10.5));
    // The floor less a radius from its edges, less the pillar grown by a radius, within a cell.
    let area = island_areas(&mesh)[0];
    let outer = |grow: f64| (12.0 - 2.0 * (0.6 + grow)).powi(2);
    let pillar = |grow: f64| (6.0 + 2.0 * (0.6 + grow)).powi(2);
    assert!(
        (outer(0.3) - pillar(0.3)..=outer(-0.3) - pillar(-0.3)).contains(&area),
        "area {area}"
    );
}

#[test]
fn the_record_of_a_build_agrees_with_the_build_stage_by_stage() {
    let mut level = common::levels::Level::default();
    level.add_box([0.0, -0.5, 0.0], [12.0, 0.0, 12.0]);
    level.add_box([3.0, 0.0, 3.0], [9.0, 1.7, 9.0]);
    level.add_ramp([12.0, 0.0], [18.0, 4.0], 0.0, 20.0);
    let settings = BuildSettings::default();
    let (built, record) =
        navlab_core::level::build_recorded(&level.positions, &level.faces, &settings)
            .expect("builds");
    let plain = build_navmesh(&level.positions, &level.faces, &settings).expect("builds");
    assert_eq!(record.polygons, plain.polygons);
    assert_eq!(built.polygons, plain.polygons);
    let counts = built.counts;
    assert_eq!(record.grid, counts.grid);
    assert_eq!(record.triangles.len(), counts.input_triangles);
    assert_eq!(record.compact.len(), counts.compact_spans);
    // The compact field is the spans walkable after the last filter; the low hanging filter
    // only adds, the ledge and low ceiling filters only take away.
    assert_eq!(record.walkable_spans(3), record.compact.len());
    assert!(record.walkable_spans(0) <= record.walkable_spans(1));
    assert!(record.walkable_spans(1) >= record.walkable_spans(2));
    assert!(record.walkable_spans(2) >= record.walkable_spans(3));
    let cells = usize::from(record.grid[0]) * usize::from(record.grid[1]);
    assert_eq!(record.span_columns.len(), cells + 1);
    assert_eq!(record.compact_columns.len(), cells + 1);
    // Every compact span stands on a heightfield span's top in its cell, and its neighbours
    // are in the next cells over.
    for (i, span) in record.compact.iter().enumerate() {
        let (x, z) = record.compact_cell(i).expect("a cell");
        assert!(
            record
                .spans_of(x, z)
                .any(|(_, s)| s.max == span.y && s.walkable[3])
        );
        for (d, &n) in span.neighbours.iter().enumerate() {
            if n != navlab_core::level::NO_NEIGHBOUR {
                let (nx, nz) = record.compact_cell(n as usize).expect("a cell");
                let (dx, dz) = navlab_core::level::DIRECTIONS[d];
                assert_eq!(
                    (i32::from(nx), i32::from(nz)),
                    (i32::from(x) + dx, i32::from(z) + dz)
                );
            }
        }
    }
    // The floor with the ramp off its side, and the box's top (a step of 1.7 is no climb).
    assert_eq!(record.island_count(), 2, "{:?}", record.polygon_islands);
    assert_eq!(
        record.milliseconds.len(),
        navlab_core::level::Stage::ALL.len()
    );
    for stage in navlab_core::level::Stage::ALL {
        let sentence = stage.sentence(&record, &settings);
        assert!(sentence.ends_with('.') && sentence.chars().any(|c| c.is_ascii_digit()));
        assert!(stage.pseudocode_lines().end <= navlab_core::level::PSEUDOCODE.len());
    }
}

#[test]
fn a_marked_volume_gives_its_ground_an_area_type_that_a_search_pays_for() {
    let mut level = common::levels::Level::default();
    level.add_box([0.0, -0.5, 0.0], [20.0, 0.0, 10.0]);
    let mud = navlab_core::level::MarkedVolume {
        points: vec![[8.0, -1.0], [12.0, -1.0], [12.0, 7.0], [8.0, 7.0]],
        min_y: -1.0,
        max_y: 1.0,
        area: "mud".into(),
    };
    let (built, record) = navlab_core::level::build_marked(
        &level.positions,
        &level.faces,
        std::slice::from_ref(&mud),
        &BuildSettings::default(),
    )
    .expect("builds");
    assert!(record.polygons.polygon_areas.contains(&2), "a mud polygon");
    let mesh = built.into_navmesh().expect("a navmesh");
    let names = mesh.area_names();
    let mud_id = names.iter().position(|n| n == "mud").expect("mud named");
    for (t, triangle) in mesh.triangles().iter().enumerate() {
        let c = triangle.centroid;
        let inside = (8.5..11.5).contains(&c.x) && c.y < 6.5;
        let outside = !(7.5..12.5).contains(&c.x) || c.y > 7.5;
        let area = usize::from(mesh.area_type(t));
        if inside {
            assert_eq!(area, mud_id, "triangle {t} at {c}");
        } else if outside {
            assert_eq!(area, 0, "triangle {t} at {c}");
        }
    }
    // Mud as dear as ground: the path goes across it; ten times dearer: round by the clear side.
    let (from, to) = (Vec2::new(2.0, 1.5), Vec2::new(18.0, 1.5));
    let across = mesh
        .query()
        .area_cost("mud", 1.0)
        .expect("mud is an area")
        .path(from, to)
        .expect("a path");
    let is_mud = |t: &usize| usize::from(mesh.area_type(*t)) == mud_id;
    assert!(
        across.corridor.iter().any(is_mud),
        "straight across the mud: {:?} {:?}",
        across.waypoints,
        across
            .corridor
            .iter()
            .map(|&t| (mesh.triangles()[t].centroid, mesh.area_type(t)))
            .collect::<Vec<_>>()
    );
    let round = mesh
        .query()
        .area_cost("mud", 10.0)
        .expect("mud is an area")
        .path(from, to)
        .expect("a path");
    let muddy: Vec<Vec2> = round
        .corridor
        .iter()
        .filter(|t| is_mud(t))
        .map(|&t| mesh.triangles()[t].centroid)
        .collect();
    assert!(muddy.is_empty(), "{:?} through {muddy:?}", round.waypoints);
    assert!(
        round.waypoints.iter().any(|p| p.y > 6.5),
        "{:?}",
        round.waypoints
    );
    // A volume with no area, or named ground, is refused by name.
    for bad in [
        navlab_core::level::MarkedVolume {
            points: vec![[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]],
            ..mud.clone()
        },
        navlab_core::level::MarkedVolume {
            area: "ground".into(),
            ..mud.clone()
        },
        navlab_core::level::MarkedVolume {
            min_y: 2.0,
            ..mud.clone()
        },
    ] {
        let error = navlab_core::level::build_marked(
            &level.positions,
            &level.faces,
            &[bad],
            &BuildSettings::default(),
        )
        .expect_err("refused");
        assert!(matches!(error, LevelError::Volume { .. }), "{error}");
    }
}
