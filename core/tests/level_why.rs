//! "Why is there no navmesh here?" on small levels made to miss one rule by a little, and to
//! keep it by a little: the stage named, the margin measured, and the suggested change, applied
//! and built again, keeps the ground.

mod common;
use common::levels::Level;
use navlab_core::level::{BuildSettings, Reason, Setting, Stage, Why, build_navmesh, why};

/// The answer at `at` on `floor` (from the bottom; the top one when `None`).
fn ask(level: &Level, at: [f64; 2], floor: Option<usize>) -> Why {
    why(
        &level.positions,
        &level.faces,
        &BuildSettings::default(),
        at,
        floor,
    )
    .expect("builds")
}

/// Whether the ground at `at` and `height` is on the navmesh built with `settings`, as the test
/// sees it: a polygon of the built mesh over the point, about that high.
fn on_navmesh(level: &Level, settings: &BuildSettings, at: [f64; 2], height: f64) -> bool {
    let Ok(built) = build_navmesh(&level.positions, &level.faces, settings) else {
        return false;
    };
    let Ok(mesh) = built.into_navmesh() else {
        return false;
    };
    let point = navlab_core::geom::Vec2::new(at[0], at[1]);
    mesh.triangles_at(point).into_iter().any(|t| {
        mesh.height_at(t, point)
            .is_some_and(|y| (y - height).abs() <= settings.agent_max_climb + 0.4)
    })
}

/// `answer` names `stage`, and its suggestion, applied, keeps the ground.
fn the_suggestion_keeps_it(level: &Level, answer: &Why, stage: Stage, setting: Setting) {
    assert_eq!(answer.stage, Some(stage), "{}", answer.sentence());
    let suggestion = answer
        .suggestion
        .unwrap_or_else(|| panic!("no suggestion: {}", answer.sentence()));
    assert_eq!(suggestion.setting, setting, "{}", answer.sentence());
    let defaults = BuildSettings::default();
    let height = answer.height.expect("a surface");
    assert!(
        !on_navmesh(level, &defaults, answer.at, height),
        "kept before: {}",
        answer.sentence()
    );
    assert!(
        on_navmesh(level, &suggestion.applied(&defaults), answer.at, height),
        "not kept after {}: {}",
        suggestion.sentence(),
        answer.sentence()
    );
}

/// A floor of 12 × 12 with its top at y = 0.
fn floor() -> Level {
    let mut level = Level::default();
    level.add_box([0.0, -0.5, 0.0], [12.0, 0.0, 12.0]);
    level
}

#[test]
fn a_ramp_just_steeper_than_the_agent_walks_is_too_steep_and_just_under_is_kept() {
    let ramp = |degrees| {
        let mut level = Level::default();
        level.add_ramp([0.0, 0.0], [12.0, 12.0], 0.0, degrees);
        level
    };
    let steep = ramp(46.0);
    let answer = ask(&steep, [6.0, 6.0], None);
    let Reason::TooSteep { degrees, max } = answer.reason else {
        panic!("{}", answer.sentence());
    };
    assert!(
        (degrees - 46.0).abs() < 1e-6 && max == 45.0,
        "{}",
        answer.sentence()
    );
    the_suggestion_keeps_it(&steep, &answer, Stage::Triangles, Setting::MaxSlope);
    assert!(
        answer
            .suggestion
            .is_some_and(|s| s.to > 46.0 && s.to < 47.5)
    );
    assert!(ask(&ramp(44.0), [6.0, 6.0], None).is_kept());
}

#[test]
fn a_ceiling_just_under_the_agents_height_is_too_low_and_just_over_is_kept() {
    let ceiling = |bottom: f64| {
        let mut level = floor();
        level.add_box([3.0, bottom, 3.0], [9.0, bottom + 0.5, 9.0]);
        level
    };
    let low = ceiling(1.8);
    let answer = ask(&low, [6.0, 6.0], Some(0));
    let Reason::LowCeiling {
        clearance,
        grid_clearance,
        agent_height,
    } = answer.reason
    else {
        panic!("{}", answer.sentence());
    };
    // The faces are 1.8 apart; on the grid the floor's top rounds up a cell and the ceiling
    // down: 1.6 to 1.8.
    assert!((clearance - 1.8).abs() < 1e-9, "{}", answer.sentence());
    assert!(
        (1.55..=1.85).contains(&grid_clearance) && agent_height == 2.0,
        "{}",
        answer.sentence()
    );
    the_suggestion_keeps_it(&low, &answer, Stage::LowCeilings, Setting::AgentHeight);
    assert!(ask(&ceiling(2.3), [6.0, 6.0], Some(0)).is_kept());
    // The ceiling's own top is a surface of its own, and kept.
    assert_eq!(ask(&low, [6.0, 6.0], None).surfaces.len(), 2);
}

#[test]
fn a_step_just_higher_than_the_climb_is_a_ledge_and_just_lower_is_kept() {
    let step = |rise: f64| {
        let mut level = Level::default();
        level.add_box([0.0, -0.5, 0.0], [6.0, 0.0, 12.0]);
        level.add_box([6.0, -0.5, 0.0], [12.0, rise, 12.0]);
        level
    };
    let high = step(1.1);
    // On the upper floor, in the cell at its edge.
    let answer = ask(&high, [6.15, 6.0], None);
    let Reason::Ledge { drop, max_climb } = answer.reason else {
        panic!("{}", answer.sentence());
    };
    assert!(
        (0.95..=1.25).contains(&drop) && max_climb == 0.9,
        "{}",
        answer.sentence()
    );
    the_suggestion_keeps_it(&high, &answer, Stage::Ledges, Setting::MaxClimb);
    assert!(ask(&step(0.7), [6.15, 6.0], None).is_kept());
}

#[test]
fn a_gap_narrower_than_the_agent_is_eroded_and_a_wider_one_is_kept() {
    let gap = |width: f64| {
        let mut level = floor();
        level.add_box([5.7, 0.0, 0.0], [6.3, 3.0, 5.4]);
        level.add_box([5.7, 0.0, 5.4 + width], [6.3, 3.0, 12.0]);
        level
    };
    let narrow = gap(0.9);
    let answer = ask(&narrow, [6.0, 5.85], None);
    let Reason::NearWall { distance, radius } = answer.reason else {
        panic!("{}", answer.sentence());
    };
    // The walls are 0.45 away; the cells beside them are taken by the walls' faces.
    assert!(
        distance <= 0.45 + 1e-9 && radius == 0.6,
        "{}",
        answer.sentence()
    );
    the_suggestion_keeps_it(&narrow, &answer, Stage::Erosion, Setting::AgentRadius);
    assert!(ask(&gap(2.4), [6.0, 6.6], None).is_kept());
}

#[test]
fn a_platform_smaller_than_the_least_region_is_dropped_and_a_larger_one_is_kept() {
    let platform = |side: f64| {
        let mut level = Level::default();
        level.add_box([0.0, -0.5, 0.0], [side, 0.0, side]);
        level
    };
    let small = platform(3.6);
    let middle = [1.8, 1.8];
    let answer = ask(&small, middle, None);
    let Reason::SmallRegion { area, min_area } = answer.reason else {
        panic!("{}", answer.sentence());
    };
    assert!(
        area < min_area && (min_area / (64.0 * 0.09) - 1.0).abs() < 1e-6,
        "{}",
        answer.sentence()
    );
    the_suggestion_keeps_it(&small, &answer, Stage::Regions, Setting::RegionMinSize);
    assert!(ask(&platform(4.8), [2.4, 2.4], None).is_kept());
}

#[test]
fn off_the_faces_there_is_no_ground_and_a_kept_spot_names_its_polygon() {
    let level = floor();
    let outside = ask(&level, [20.0, 20.0], None);
    assert_eq!(outside.reason, Reason::NoGround);
    assert_eq!(outside.stage, None);
    let kept = ask(&level, [6.0, 6.0], None);
    assert!(
        matches!(kept.reason, Reason::Kept { island: 0, .. }),
        "{}",
        kept.sentence()
    );
    assert_eq!(
        ask(&level, [6.0, 6.0], Some(3)).reason,
        Reason::NoSuchSurface { surfaces: 1 }
    );
}

#[test]
fn a_face_wound_the_other_way_faces_down_and_no_slope_keeps_it() {
    // A floor whose corners run clockwise seen from above.
    let level = Level {
        positions: vec![
            [0.0, 0.0, 0.0],
            [10.0, 0.0, 0.0],
            [10.0, 0.0, 10.0],
            [0.0, 0.0, 10.0],
        ],
        faces: vec![vec![1, 2, 3, 0]],
    };
    let answer = ask(&level, [5.0, 5.0], None);
    assert_eq!(answer.reason, Reason::FacesDown, "{}", answer.sentence());
    assert_eq!(answer.suggestion, None);
}

#[test]
fn the_built_in_level_shows_each_reason_where_its_spots_say() {
    let level = navlab_core::assets::PROVING_GROUND.read().expect("reads");
    let settings = BuildSettings::default();
    let (_, record) =
        navlab_core::level::build_recorded(&level.positions, &level.polygons, &settings)
            .expect("builds");
    let answer = |spot: &str| {
        let (at, floor) = navlab_core::assets::PROVING_GROUND
            .spot(spot)
            .expect("a spot");
        navlab_core::level::explain(
            &level.positions,
            &level.polygons,
            &settings,
            &record,
            at,
            floor,
        )
    };
    assert_eq!(
        record.island_count(),
        2,
        "the stairs join the floors; the platform is apart"
    );
    for kept in [
        "the stairs",
        "the upper floor",
        "under the upper floor",
        "the platform",
    ] {
        assert!(answer(kept).is_kept(), "{}", answer(kept).sentence());
    }
    for (spot, stage, setting) in [
        ("the steep ramp", Stage::Triangles, Setting::MaxSlope),
        (
            "under the low beam",
            Stage::LowCeilings,
            Setting::AgentHeight,
        ),
        ("the narrow gap", Stage::Erosion, Setting::AgentRadius),
        ("the small ledge", Stage::Regions, Setting::RegionMinSize),
    ] {
        let why = answer(spot);
        assert_eq!(why.stage, Some(stage), "{spot}: {}", why.sentence());
        assert_eq!(
            why.suggestion.map(|s| s.setting),
            Some(setting),
            "{}",
            why.sentence()
        );
    }
}
