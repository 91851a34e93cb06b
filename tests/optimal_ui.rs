//! The navmesh view's shortest-path phase, driven headlessly: switched on, stepped through
//! Polyanya's search with its open list, and the comparison with the corridor path at the end.

mod common;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use navlab::app::files::ScriptedDialogs;
use navlab::app::navmesh_scene::NavmeshScene;
use navlab::app::{AppSettings, NavlabApp};
use navlab::geom::Vec2;

fn harness(app: NavlabApp) -> Harness<'static, NavlabApp> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
    harness.run_steps(2);
    harness
}

/// hole.obj between two points where A* and the funnel go the long way round the hole.
fn app_on_hole() -> NavlabApp {
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    let settings = app.scenes.navmesh.settings.clone();
    app.scenes.navmesh = NavmeshScene::embedded(navlab::assets::HOLE, settings);
    app.scenes
        .navmesh
        .place(Some(Vec2::new(3.866, 2.379)), Some(Vec2::new(3.567, 9.393)));
    app
}

#[test]
fn the_shortest_path_phase_steps_through_polyanya_and_compares_the_paths() {
    let mut h = harness(app_on_hole());
    let optimal_start = h.state().scenes.navmesh.timeline.optimal_start();
    assert_eq!(
        optimal_start,
        h.state().scenes.navmesh.timeline.len(),
        "off by default"
    );
    h.get_by_label("Shortest path too (Polyanya)").click();
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    assert!(scene.settings.optimal);
    let timeline = &scene.timeline;
    assert!(timeline.len() > timeline.optimal_start(), "a third phase");
    // Go to its first step, then step on: the open list shows f, g and h.
    h.get_by_label("Shortest").click();
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.navmesh.playback.cursor,
        h.state().scenes.navmesh.timeline.optimal_start() + 1
    );
    for _ in 0..5 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(1);
    }
    assert!(h.state().scenes.navmesh.replay.in_optimal_phase());
    assert!(!h.state().scenes.navmesh.replay.optimal.nodes.is_empty());
    h.get_by_label_contains("Open list:");
    h.get_by_label("f");
    // The end: both lengths and the gap, as the library computes them.
    h.key_press(egui::Key::End);
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    assert!(scene.replay.optimal.done);
    let gap = scene.gap.clone().expect("both paths");
    assert!(gap.excess() > 0.3, "the long way round: {}", gap.excess());
    // The corridor's length is in the query's numbers too.
    assert!(
        h.query_all_by_label(&format!("{:.3}", gap.corridor_length))
            .count()
            >= 1
    );
    h.get_by_label(&format!("{:.3}", gap.optimal_length));
    h.get_by_label(&format!("{:.2} %", 100.0 * gap.excess()));
    let divergence = gap
        .divergence
        .expect("the corridor left the shortest route");
    h.get_by_label_contains(&format!("took triangle {}", divergence.triangle));
    // Stepping back into A* leaves the comparison (it belongs to the phase's end).
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    assert!(!h.state().scenes.navmesh.replay.in_optimal_phase());
    assert!(h.query_by_label("Gap").is_none());
}
