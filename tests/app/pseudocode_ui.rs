//! The pseudocode panel in the window, driven headlessly: the line of the shown step lit at
//! successive steps of A* on the tile map, Fringe Search's lines, a click on a line going to
//! the next step that runs it, and the funnel's listing in the navmesh view.

use crate::common;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use navlab::app::NavlabApp;
use navlab::search::pseudocode::Listing;

fn harness() -> Harness<'static, NavlabApp> {
    common::harness(common::app())
}

/// The number of line `n`, lit.
fn lit(n: usize) -> String {
    format!("▶ {n:>2}  ")
}

/// The text of line `n` of `listing`.
fn body(listing: Listing, n: usize) -> &'static str {
    listing.lines()[n - 1].trim_start()
}

fn step(h: &mut Harness<'static, NavlabApp>) {
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(2);
}

#[test]
fn the_tile_map_lights_the_line_of_each_step_and_a_click_finds_the_next() {
    let mut h = harness();
    h.get_by_label("Tile map").click();
    h.run_steps(3);
    h.get_by_label("A*").click();
    h.run_steps(2);
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    // Before the first step nothing is lit.
    assert!(h.query_by_label_contains("▶").is_none());
    // The start gets its priority, then is taken, then its neighbours are relaxed.
    step(&mut h);
    h.get_by_label(&lit(3));
    step(&mut h);
    h.get_by_label(&lit(5));
    h.get_by_label_contains("d(s, v) = 0.00, h(v) = ");
    step(&mut h);
    h.get_by_label(&lit(11));
    assert!(h.query_by_label(&lit(5)).is_none(), "one line lit");
    // The listing is the one `navlab pseudocode astar` prints.
    h.get_by_label("A* · navlab pseudocode astar");
    // A click on line 5 goes to the next step that takes a node.
    let before = h.state().scenes.tile_map.playback.cursor;
    h.get_by_label(body(Listing::AStar, 5)).click_accesskit();
    h.run_steps(2);
    let scene = &h.state().scenes.tile_map;
    assert!(scene.playback.cursor > before);
    let (listing, shown) = scene.pseudocode_lit();
    assert_eq!(listing, Listing::AStar);
    assert_eq!(shown.map(|l| l.line), Some(5));
    h.get_by_label(&lit(5));

    // Fringe Search: its own listing, the threshold on line 2 after the start.
    h.get_by_label("Fringe").click();
    h.run_steps(2);
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    step(&mut h);
    step(&mut h);
    h.get_by_label(&lit(2));
    h.get_by_label_contains("pass = 1, threshold = ");
}

#[test]
fn the_navmesh_view_shows_a_star_then_the_funnel() {
    let mut h = harness();
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    step(&mut h);
    h.get_by_label(&lit(3));
    // The funnel's first step: its listing, line 1.
    h.get_by_label("Funnel").click();
    h.run_steps(2);
    h.get_by_label(&lit(1));
    // A click on "right = r" goes to the next step that narrows the right side.
    h.get_by_label(body(Listing::Funnel, 4)).click_accesskit();
    h.run_steps(2);
    let scene = &h.state().scenes.navmesh;
    assert_eq!(
        scene
            .pseudocode_lit()
            .and_then(|(_, lit)| lit)
            .map(|l| l.line),
        Some(4)
    );
    h.get_by_label(&lit(4));
}

/// Each canvas has a legend in its algorithm's words, toggled by its Legend box, and the help
/// lists the same rows.
#[test]
fn legends_follow_the_algorithm_toggle_and_are_in_the_help() {
    let mut h = harness();
    let texts = |rows: Vec<navlab::app::legend::LegendRow>| -> Vec<String> {
        rows.into_iter().map(|r| r.text).collect()
    };
    // The navmesh view while A* searches, then at the end.
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    step(&mut h);
    let rows = texts(h.state().scenes.navmesh.search_legend());
    assert!(rows.contains(&"open: the frontier".to_string()), "{rows:?}");
    h.key_press(egui::Key::End);
    h.run_steps(2);
    let rows = texts(h.state().scenes.navmesh.search_legend());
    assert_eq!(
        rows,
        [
            "corridor",
            "expanded by A*, off the corridor",
            "left open by A*",
            "path",
            "triangle id, as the steps name it"
        ]
    );
    // The tile map: Fringe Search's lists; the box turns the legend off and on.
    h.get_by_label("Tile map").click();
    h.run_steps(3);
    h.get_by_label("Fringe").click();
    h.run_steps(2);
    let rows = texts(h.state().scenes.tile_map.legend());
    assert!(rows.contains(&"now list".to_string()), "{rows:?}");
    assert!(h.state().scenes.tile_map.settings.legend);
    h.get_by_label("Legend").click();
    h.run_steps(1);
    assert!(!h.state().scenes.tile_map.settings.legend);
    h.get_by_label("IDA*").click();
    h.run_steps(2);
    // IDA* searches on the worker; its legend comes with its steps.
    h.state_mut().scenes.tile_map.wait_for_search();
    h.run_steps(1);
    let rows = texts(h.state().scenes.tile_map.legend());
    assert!(
        rows.contains(&"cut off in this pass".to_string()),
        "{rows:?}"
    );
    // The pursuit: its rays listed only while drawn.
    h.get_by_label("Pursuit").click();
    h.run_steps(3);
    let rows = texts(h.state().scenes.pursuit.legend());
    assert!(
        rows.contains(&"ray to the kitten: blocked".to_string()),
        "{rows:?}"
    );
    h.get_by_label("Show rays").click();
    h.run_steps(1);
    let rows = texts(h.state().scenes.pursuit.legend());
    assert!(!rows.iter().any(|r| r.starts_with("ray")), "{rows:?}");
    // The help lists every scene's colours.
    h.key_press(egui::Key::F1);
    h.run_steps(2);
    h.get_by_label("smell trail (fades with age)");
    h.get_by_label("cut off in this pass");
}

/// The pursuit's rules: the newest event's line lit; a click on a line runs the simulation
/// until a mob does what it says, and lights it.
#[test]
fn the_pursuit_lights_its_rules_and_runs_to_a_line() {
    let mut h = harness();
    h.get_by_label("Pursuit").click();
    h.run_steps(3);
    h.state_mut().scenes.pursuit.step();
    h.run_steps(2);
    // On the built-in map the kitten starts out of both mobs' sight, its trail not laid yet.
    let lit_line = |h: &Harness<'static, NavlabApp>| {
        h.state()
            .scenes
            .pursuit
            .lit_event()
            .map(|e| e.pursuit_line().line)
    };
    assert_eq!(lit_line(&h), Some(6), "{:?}", h.state().scenes.pursuit.log);
    h.get_by_label(&lit(6));
    // Caught, tracking the scent, chasing: each run to, in a seeded, fixed-step simulation.
    for line in [8, 5, 3] {
        let before = h.state().scenes.pursuit.log.len();
        h.get_by_label(body(Listing::Pursuit, line))
            .click_accesskit();
        h.run_steps(2);
        assert_eq!(lit_line(&h), Some(line));
        h.get_by_label(&lit(line));
        assert!(h.state().scenes.pursuit.log.len() > before, "it ran");
    }
}

/// The lit line is kept in view: at every step of A* on the tile map (whose "shorter way"
/// steps light line 11, below the panel's fold in a small window), the lit line is in sight,
/// not scrolled out of the pseudocode's area.
#[test]
fn the_lit_line_stays_in_view_at_every_step() {
    let mut h = Harness::builder()
        .with_size(egui::vec2(1024.0, 600.0))
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), common::app());
    h.run_steps(2);
    h.get_by_label("Tile map").click();
    h.run_steps(3);
    h.get_by_label("A*").click();
    h.run_steps(2);
    h.key_press(egui::Key::Home);
    h.run_steps(2);
    let mut lines_seen = std::collections::BTreeSet::new();
    for _ in 0..60 {
        step(&mut h);
        let (listing, lit_line) = h.state().scenes.tile_map.pseudocode_lit();
        let Some(line) = lit_line.map(|l| l.line) else {
            continue;
        };
        assert_eq!(listing, Listing::AStar);
        // Between the menu bar and the step list's heading, below the scrolling areas: in
        // sight, not scrolled above or below them.
        let lit_rect = h.get_by_label(&lit(line)).rect();
        let menu = h.get_by_label("File").rect();
        let steps = h.get_by_label("Steps").rect();
        assert!(
            lit_rect.top() >= menu.bottom() && lit_rect.bottom() <= steps.top(),
            "line {line} at {lit_rect:?}, out of sight between {menu:?} and {steps:?}"
        );
        lines_seen.insert(line);
    }
    assert!(lines_seen.contains(&11), "{lines_seen:?}");
}
