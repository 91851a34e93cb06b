//! The navmesh view's shortest-path phase, driven headlessly: switched on, stepped through
//! Polyanya's search with its open list, and the comparison with the corridor path at the end.

use crate::common;
use common::harness;
use egui_kittest::kittest::Queryable;
use navlab::app::files::ScriptedDialogs;
use navlab::app::navmesh_scene::NavmeshScene;
use navlab::app::{AppSettings, NavlabApp};
use navlab::geom::Vec2;

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
    let optimal_start = h.state().scenes.navmesh.query.timeline.optimal_start();
    assert_eq!(
        optimal_start,
        h.state().scenes.navmesh.query.timeline.len(),
        "off by default"
    );
    h.get_by_label("Shortest path too (Polyanya)").click();
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    assert!(scene.settings.optimal);
    let timeline = &scene.query.timeline;
    assert!(timeline.len() > timeline.optimal_start(), "a third phase");
    // Go to its first step, then step on: the open list shows f, g and h.
    h.get_by_label("Shortest").click();
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.navmesh.query.playback.cursor,
        h.state().scenes.navmesh.query.timeline.optimal_start() + 1
    );
    for _ in 0..5 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(1);
    }
    assert!(h.state().scenes.navmesh.query.replay.in_optimal_phase());
    assert!(
        !h.state()
            .scenes
            .navmesh
            .query
            .replay
            .optimal
            .nodes
            .is_empty()
    );
    // The pseudocode is Polyanya's now, a line of it lit.
    h.get_by_label_contains("navlab pseudocode polyanya");
    let (listing, lit) = h
        .state()
        .scenes
        .navmesh
        .pseudocode_lit()
        .expect("a listing");
    assert_eq!(listing, navlab::search::pseudocode::Listing::Polyanya);
    assert!(lit.is_some_and(|l| (1..=13).contains(&l.line)));
    h.get_by_label_contains("Open list:");
    h.get_by_label("f");
    // The end: both lengths and the gap, as the library computes them.
    h.key_press(egui::Key::End);
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    assert!(scene.query.replay.optimal.done);
    let gap = scene.query.gap.clone().expect("both paths");
    assert!(gap.excess() > 0.3, "the long way round: {}", gap.excess());
    // The corridor's length is in the query's numbers too.
    assert!(
        h.query_all_by_label(&format!("{:.3}", gap.corridor_length))
            .count()
            >= 1
    );
    h.get_by_label(&format!("{:.3}", gap.optimal_length));
    h.get_by_label(&format!("{:.2} % longer", 100.0 * gap.excess()));
    let divergence = gap
        .divergence
        .expect("the corridor left the shortest route");
    h.get_by_label_contains(&format!("took triangle {}", divergence.triangle));
    // Stepping back into A* leaves the comparison (it belongs to the phase's end).
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    assert!(!h.state().scenes.navmesh.query.replay.in_optimal_phase());
    assert!(h.query_by_label("Gap").is_none());
}

/// The Diagnostics tab measures corridor paths against the shortest on the whole mesh: the
/// numbers are the library's for the same pairs, the start triangles of the pairs get the heat
/// map's colours (and the legend its bands), and a click on a worst pair opens it with the
/// shortest path searched too, at the end of the timeline where the comparison is.
#[test]
fn the_diagnostics_tab_measures_corridor_paths_and_opens_the_worst_pair() {
    use navlab::navmesh::quality::{QualityOptions, measure};
    let mut h = harness(app_on_hole());
    h.get_by_label("Diagnostics").click();
    h.run_steps(2);
    h.get_by_label("Measure corridor paths").click();
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    let options = QualityOptions {
        queries: 200,
        seed: 1,
        cost: scene.settings.cost,
        weight: scene.settings.heuristic_weight,
        ..QualityOptions::default()
    };
    let want = measure(scene.mesh(), options);
    let (got, _) = scene.diagnostics.quality.report.as_ref().expect("measured");
    assert_eq!(got.pairs, want.pairs);
    h.get_by_label_contains(&format!(
        "by {:.2} % on average",
        100.0 * want.mean_excess()
    ));
    // The heat map colours each start triangle by its worst detour.
    let worst = want.worst(1)[0];
    let heat = scene.diagnostics.quality.heat(worst.from_triangle);
    assert_eq!(heat, Some(worst.excess()));
    assert!(scene.legend().iter().any(|row| row.text == "10 % or more"));
    // Open the worst pair: start and goal there, the comparison at the end.
    let label = format!("+{:.2} %", 100.0 * worst.excess());
    h.get_by_label_contains(&label).click();
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    assert_eq!(
        (scene.query.start, scene.query.goal),
        (worst.from, worst.to)
    );
    assert!(scene.settings.optimal);
    assert_eq!(scene.query.playback.cursor, scene.query.timeline.len());
    let gap = scene.query.gap.clone().expect("both paths searched");
    assert!((gap.optimal_length - worst.optimal).abs() < 1e-9);
    assert!((gap.corridor_length - worst.corridor).abs() < 1e-9);
    h.get_by_label(&format!("{:.3}", gap.optimal_length));
}

/// Mud painted over the shortest route: Polyanya's path still walks through it (it finds
/// the shortest by distance), A* goes round. The comparison prices both paths under the
/// areas, says that the shortest path ignores them, and does not blame A*'s step costs for
/// the gap the mud made.
#[test]
fn with_area_costs_the_gap_is_explained_in_one_currency() {
    use navlab::navmesh::edit::{Shape, ShapeKind};
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    let scene = &mut app.scenes.navmesh;
    scene.settings.optimal = true;
    let mud = scene
        .mesh()
        .area_names()
        .iter()
        .position(|n| n == "mud")
        .expect("mud") as u8;
    scene.edit.costs.set(mud, 100.0).expect("a cost");
    let band = Shape::rectangle(
        Vec2::new(5.0, -6.5),
        Vec2::new(10.0, -3.0),
        ShapeKind::Area { area: mud },
    )
    .expect("shape");
    scene
        .edit_mesh(|editor| editor.add_shape(band))
        .expect("painted");
    scene.place(Some(Vec2::new(1.0, 1.0)), Some(Vec2::new(5.0, -7.0)));
    scene.wait_for_query();
    let gap = scene.query.gap.as_ref().expect("both paths found");
    let (corridor_cost, shortest_cost) = gap.area_costs.expect("priced under the areas");
    assert!(
        gap.excess() > 0.01,
        "A* went round the mud: {}",
        gap.excess()
    );
    assert!(
        corridor_cost < shortest_cost,
        "{corridor_cost} < {shortest_cost}: the shortest path walks through the mud"
    );
    let words = gap.explain(scene.settings.cost);
    assert!(words.contains("Polyanya ignores area costs"), "{words}");
    assert!(words.contains("the areas made the gap"), "{words}");
    assert!(!words.contains("left the shortest route"), "{words}");

    // The command line says the same of `path --optimal`.
    let (code, out, _) = common::navlab(&[
        "path",
        common::repo_path("assets/rooms.obj")
            .to_str()
            .expect("utf-8"),
        "--from",
        "1,1",
        "--to",
        "5,-7",
        "--area",
        "mud=5,-6.5,10,-3",
        "--area-cost",
        "mud=100",
        "--optimal",
        "--json",
    ]);
    assert_eq!(code, Some(0));
    let answer: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(answer["ignores_area_costs"], true);
    let (length, cost) = (
        answer["length"].as_f64().expect("length"),
        answer["area_cost"].as_f64().expect("area_cost"),
    );
    assert!(
        (cost - shortest_cost).abs() < 1e-6 && cost > length,
        "{cost} {length}"
    );
}
