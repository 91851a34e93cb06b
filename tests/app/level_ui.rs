//! The level view driven headlessly with egui_kittest: the built-in level opened, its stages
//! stepped, a cross-section drawn, a spot under the low beam asked about and the suggested change
//! applied, and the navmesh opened in the navmesh view with a path up the stairs.

use crate::common;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use navlab::app::files::ScriptedDialogs;
use navlab::app::{AppSettings, NavlabApp, SceneKind};
use navlab::geom::Vec2;
use navlab::level::{Reason, Stage};

fn harness() -> Harness<'static, NavlabApp> {
    let app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
    h.run_steps(2);
    h.get_by_label("Level").click();
    h.run_steps(3);
    assert_eq!(h.state().settings.scene, SceneKind::Level);
    h
}

fn screen(h: &Harness<'_, NavlabApp>, world: Vec2) -> egui::Pos2 {
    let view = h.state().scenes.level.last_view().expect("canvas drawn");
    view.screen_from_world(world)
}

#[test]
fn step_the_stages_draw_a_section_ask_why_apply_and_walk_up_the_stairs() {
    let mut h = harness();
    let level = &h.state().scenes.level;
    assert!(level.level().name.contains("proving-ground.obj"));
    assert!(level.built().is_some(), "{:?}", level.error());
    // The stages, one by one from the start: each names itself in the caption's words.
    h.get_by_label("Restart").click();
    h.run_steps(1);
    assert_eq!(h.state().scenes.level.stage(), None);
    for stage in Stage::ALL {
        h.get_by_label("Step forward").click();
        h.run_steps(1);
        assert_eq!(h.state().scenes.level.stage(), Some(stage));
        assert!(
            h.query_all_by_label_contains(stage.title()).count() >= 2,
            "{stage:?}: the caption and the list"
        );
    }

    // A cross-section dragged across the low beam with the cross-section tool.
    h.get_by_label("Cross-section (X)").click();
    h.run_steps(3);
    let (from, to) = (
        screen(&h, Vec2::new(1.0, 12.0)),
        screen(&h, Vec2::new(8.0, 12.0)),
    );
    common::drag_screen(&mut h, (from, to), egui::PointerButton::Primary, 6, |_| {});
    let [a, b] = h.state().scenes.level.section().expect("a section");
    assert!(
        a.distance(Vec2::new(1.0, 12.0)) < 0.1 && b.distance(Vec2::new(8.0, 12.0)) < 0.1,
        "{a} {b}"
    );
    assert!(h.query_by_label("Cross-section").is_some());
    // A quick stroke whose press, moves and release reach the window in one frame.
    let path = [
        screen(&h, Vec2::new(2.0, 10.0)),
        screen(&h, Vec2::new(5.0, 10.0)),
        screen(&h, Vec2::new(9.0, 10.0)),
    ];
    common::pointer_in_one_frame(&mut h, &path, true);
    h.run_steps(1);
    let [a, b] = h.state().scenes.level.section().expect("a section");
    assert!(
        a.distance(Vec2::new(2.0, 10.0)) < 0.1 && b.distance(Vec2::new(9.0, 10.0)) < 0.1,
        "{a} {b}"
    );

    // Under the beam: with the height cut below the beam's top, the click asks about the floor.
    h.get_by_label("Why? (W)").click();
    h.get_by_label("Show only up to a height").click();
    h.run_steps(2);
    h.state_mut().scenes.level.set_cut(Some(1.0));
    h.run_steps(1);
    let at = screen(&h, Vec2::new(3.75, 12.0));
    common::click_screen(&mut h, at, egui::PointerButton::Primary);
    h.run_steps(2);
    let why = h.state().scenes.level.why().cloned().expect("an answer");
    assert_eq!(why.stage, Some(Stage::LowCeilings), "{}", why.sentence());
    assert!(matches!(why.reason, Reason::LowCeiling { .. }));
    let suggestion = why.suggestion.expect("a change that keeps it");
    let apply = format!("Apply: {} (A)", suggestion.sentence());
    h.get_by_label(&apply).click();
    h.run_steps(2);
    let level = &h.state().scenes.level;
    assert_eq!(level.build_settings().agent_height, suggestion.to);
    assert!(
        level.why().is_some_and(|why| why.is_kept()),
        "{:?}",
        level.why()
    );

    // The navmesh in the navmesh view: a path from the ground up the stairs to the upper floor.
    h.get_by_label("Open in navmesh view").click();
    h.run_steps(3);
    assert_eq!(h.state().settings.scene, SceneKind::Navmesh);

    let navmesh = &mut h.state_mut().scenes.navmesh;
    navmesh.place(Some(Vec2::new(1.0, 1.0)), Some(Vec2::new(20.0, 4.0)));
    navmesh.wait_for_query();
    h.run_steps(2);
    let navmesh = &h.state().scenes.navmesh;
    let path = navmesh
        .query
        .timeline
        .path
        .as_ref()
        .expect("a path up the stairs");
    // The floors, the platform, and (the agent now 1.4 tall) the inside of the platform's
    // box, 1.5 high: Recast rasterises faces, not solids.
    assert_eq!(navmesh.mesh().island_count(), 3);
    // Up the stairs: the path passes over the steps (x 8 to 14, z under 2.5).
    let over_the_stairs = path.waypoints.windows(2).any(|w| {
        (0..=20).any(|k| {
            let p = w[0] + (w[1] - w[0]) * (f64::from(k) / 20.0);
            (9.0..13.0).contains(&p.x) && p.y < 2.5
        })
    });
    assert!(over_the_stairs, "{:?}", path.waypoints);
}

/// The links found on the built-in level: counted in the panel, each point tried drawn at the
/// last stage with what it is on hover, none when they are not looked for; carried into the
/// navmesh view, where a path from the ground jumps up onto the platform (which no walk
/// reaches), and undone in one step.
#[test]
fn the_links_found_on_the_level_are_shown_and_taken_into_the_navmesh_view() {
    let mut h = harness();
    let level = &h.state().scenes.level;
    assert_eq!(level.stage(), Some(Stage::Detail));
    let found = level.found_links().expect("links looked for");
    let kept = found.links();
    assert!(!kept.is_empty());
    assert!(found.candidates.iter().any(|c| c.verdict.is_err()));
    let label = format!("{} links kept", kept.len());
    assert!(
        h.query_all_by_label_contains(&label).count() >= 1,
        "{label}"
    );
    assert!(
        h.query_all_by_label_contains("left out, no landing")
            .count()
            >= 1
    );
    // A kept link's middle, hovered: the tooltip names it.
    let link = &kept[0];
    let middle = screen(&h, link.from.lerp(link.to, 0.5));
    let view = h.state().scenes.level.last_view().expect("drawn");
    let arc = navlab::app::navmesh_scene::links::arc_points(
        view.screen_from_world(link.from),
        view.screen_from_world(link.to),
    );
    let on_arc = arc[arc.len() / 2];
    assert!(on_arc.distance(middle) < 200.0);
    h.hover_at(on_arc);
    h.run_steps(40);
    let name = format!("{} link 0", link.kind.name());
    assert!(
        h.query_all_by_label_contains(&name).count() >= 1,
        "the tooltip names {name}"
    );

    h.get_by_label("Look for jumps and drops").click();
    h.run_steps(2);
    assert!(h.state().scenes.level.found_links().is_none());
    h.get_by_label("Look for jumps and drops").click();
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.level.links_found(),
        kept,
        "the same links again"
    );

    h.get_by_label("Open in navmesh view").click();
    h.run_steps(3);
    assert_eq!(h.state().settings.scene, SceneKind::Navmesh);
    assert_eq!(h.state().scenes.navmesh.mesh().links(), kept.as_slice());
    let (ground, platform) = (Vec2::new(1.0, 1.0), Vec2::new(4.0, 4.5));
    let navmesh = &mut h.state_mut().scenes.navmesh;
    navmesh.place(Some(ground), Some(platform));
    navmesh.wait_for_query();
    h.run_steps(2);
    let path = h.state().scenes.navmesh.query.timeline.path.clone();
    let path = path.expect("a path");
    assert_eq!(path.status, navlab::navmesh::PathStatus::Found);
    assert!(path.crosses_links(), "up onto the platform by a link");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(1);
    let navmesh = &mut h.state_mut().scenes.navmesh;
    navmesh.wait_for_query();
    assert!(navmesh.mesh().links().is_empty(), "undone in one step");
    h.run_steps(2);
    let path = h.state().scenes.navmesh.query.timeline.path.clone();
    assert!(
        path.is_none_or(|p| p.status != navlab::navmesh::PathStatus::Found),
        "no walk reaches the platform"
    );
}

#[test]
fn an_area_dragged_on_the_level_marks_its_ground_and_a_button_removes_it() {
    let mut h = harness();
    h.get_by_label("Area (M)").click();
    h.run_steps(2);
    h.get_by_label("water").click();
    h.run_steps(2);
    let (from, to) = (
        screen(&h, Vec2::new(1.0, 4.0)),
        screen(&h, Vec2::new(6.0, 8.0)),
    );
    common::drag_screen(&mut h, (from, to), egui::PointerButton::Primary, 6, |_| {});
    let level = &h.state().scenes.level;
    let volumes = level.volumes();
    assert_eq!(volumes.len(), 1);
    assert_eq!(volumes[0].area, "water");
    let record = &level.built().expect("built").record;
    let water = record
        .polygons
        .area_names
        .iter()
        .position(|n| n == "water")
        .expect("water named");
    assert!(
        record
            .polygons
            .polygon_areas
            .iter()
            .any(|&a| usize::from(a) == water),
        "a water polygon"
    );
    h.get_by_label("Remove").click();
    h.run_steps(2);
    let level = &h.state().scenes.level;
    assert!(level.volumes().is_empty());
    assert!(
        level
            .built()
            .is_some_and(|b| b.record.polygons.polygon_areas.iter().all(|&a| a == 0))
    );
}

#[test]
fn the_level_is_built_when_its_view_is_first_shown() {
    let app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    assert!(app.scenes.level.built().is_none(), "not built at start");
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
    h.run_steps(2);
    assert!(
        h.state().scenes.level.built().is_none(),
        "the navmesh view does not build it"
    );
    h.get_by_label("Level").click();
    h.run_steps(3);
    assert!(h.state().scenes.level.built().is_some());
}
