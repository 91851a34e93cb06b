//! The real app driven headlessly with egui_kittest: buttons by label, clicks on the canvas,
//! keyboard, the event log, files that fail to load.

use crate::common;
use common::harness;
use common::{click_world, drag_screen};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use navlab::app::files::ScriptedDialogs;
use navlab::app::{AppSettings, Command, NavlabApp, SceneKind};
use navlab::geom::Vec2;
use std::collections::VecDeque;
use std::path::PathBuf;

fn app_with_dialog_answers(answers: Vec<Option<PathBuf>>) -> NavlabApp {
    NavlabApp::new(
        AppSettings::default(),
        Box::new(ScriptedDialogs {
            answers: VecDeque::from(answers),
            ..Default::default()
        }),
    )
}

/// The app on a desktop with no file dialogs: every Open or Save asks for a typed path.
fn app_without_file_dialogs() -> NavlabApp {
    NavlabApp::new(
        AppSettings::default(),
        Box::new(ScriptedDialogs {
            no_dialog: true,
            ..Default::default()
        }),
    )
}

fn cursor(h: &Harness<'_, NavlabApp>) -> usize {
    h.state().scenes.navmesh.query.playback.cursor
}

#[test]
fn opens_on_the_default_scene_ready_at_step_zero() {
    let h = harness(app_with_dialog_answers(vec![]));
    let scene = &h.state().scenes.navmesh;
    assert!(scene.origin.source.name().contains("rooms.obj"));
    assert_eq!(cursor(&h), 0);
    assert!(scene.query.timeline.len() > 20);
    assert!(scene.query.timeline.path.is_some());
    h.get_by_label("Navmesh canvas");
    h.get_by_label("0. ready: start and goal placed");
}

#[test]
fn step_forward_step_back_end_and_restart_move_the_shown_step() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.get_by_label("Step forward").click();
    h.run_steps(2);
    h.get_by_label("Step forward").click();
    h.run_steps(2);
    assert_eq!(cursor(&h), 2);
    assert_eq!(h.state().scenes.navmesh.query.replay.cursor(), 2);
    h.get_by_label("Step back").click();
    h.run_steps(2);
    assert_eq!(cursor(&h), 1);
    h.get_by_label("End").click();
    h.run_steps(2);
    let len = h.state().scenes.navmesh.query.timeline.len();
    assert_eq!(cursor(&h), len);
    assert!(
        h.state().scenes.navmesh.query.replay.funnel.done,
        "the final path is shown"
    );
    h.get_by_label("Restart").click();
    h.run_steps(2);
    assert_eq!(cursor(&h), 0);
}

#[test]
fn play_advances_and_pause_stops() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.get_by_label("Play").click();
    h.run_steps(30);
    let after_play = cursor(&h);
    assert!(after_play > 0, "playing moved the cursor");
    assert!(h.state().scenes.navmesh.query.playback.playing);
    h.get_by_label("Pause").click();
    h.run_steps(2);
    let paused_at = cursor(&h);
    h.run_steps(30);
    assert_eq!(cursor(&h), paused_at);
    assert!(!h.state().scenes.navmesh.query.playback.playing);
}

#[test]
fn keyboard_steps_plays_and_jumps() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(1);
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(1);
    assert_eq!(cursor(&h), 2);
    h.key_press(egui::Key::ArrowLeft);
    h.run_steps(1);
    assert_eq!(cursor(&h), 1);
    h.key_press(egui::Key::End);
    h.run_steps(1);
    assert_eq!(cursor(&h), h.state().scenes.navmesh.query.timeline.len());
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    assert_eq!(cursor(&h), 0);
    h.key_press(egui::Key::Space);
    h.run_steps(1);
    assert!(h.state().scenes.navmesh.query.playback.playing);
}

#[test]
fn clicking_the_canvas_sets_start_and_right_click_sets_goal() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    // Room B of the rooms mesh: x 8..14, z 0..6.
    let new_start = Vec2::new(10.0, 2.0);
    click_world(&mut h, new_start, egui::PointerButton::Primary);
    let start = h.state().scenes.navmesh.query.start;
    assert!(start.distance(new_start) < 0.1, "start {start}");
    let path = h
        .state()
        .scenes
        .navmesh
        .query
        .timeline
        .path
        .clone()
        .expect("path");
    assert!(path.start.point.distance(new_start) < 0.1);
    // The goal, in room A.
    let new_goal = Vec2::new(2.0, 5.0);
    click_world(&mut h, new_goal, egui::PointerButton::Secondary);
    let goal = h.state().scenes.navmesh.query.goal;
    assert!(goal.distance(new_goal) < 0.1, "goal {goal}");
    // The new answer is shown at once.
    assert_eq!(cursor(&h), h.state().scenes.navmesh.query.timeline.len());
}

#[test]
fn clicking_an_event_log_row_jumps_there() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    let label = format!(
        "5. {}",
        h.state().scenes.navmesh.query.timeline.steps()[4].explain()
    );
    h.get_by_label(&label).click();
    h.run_steps(2);
    assert_eq!(cursor(&h), 5);
    assert_eq!(h.state().scenes.navmesh.query.replay.cursor(), 5);
}

/// End scrolls the step list to its last row, which then stays put. A scroll target past the
/// list's end made egui spring back over the following frames at the pace of the clock: the
/// list bounced at every jump to the end, and screenshots differed from run to run.
#[test]
fn end_shows_the_last_step_row_and_the_list_stays_still() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    let steps = h.state().scenes.navmesh.query.timeline.steps();
    let last = steps.len();
    let label = format!(
        "{}. {}",
        navlab::words::thousands(last),
        steps[last - 1].explain()
    );
    h.key_press(egui::Key::End);
    h.run_steps(1);
    let at_jump = h.get_by_label(&label).rect();
    h.run_steps(30);
    let settled = h.get_by_label(&label).rect();
    assert_eq!(at_jump, settled, "the list moved after the jump");
    let bar = h.get_by_label("Restart").rect();
    assert!(
        settled.max.y <= bar.min.y,
        "the last row ({settled:?}) is below the list, behind the playback bar ({bar:?})"
    );
}

#[test]
fn a_bad_file_shows_an_error_and_keeps_the_old_mesh() {
    let dir = tempfile::tempdir().expect("temp");
    let bad = dir.path().join("broken.obj");
    std::fs::write(&bad, "v 0 0 0\nf 1 2 3\n").expect("write");
    let mut h = harness(app_with_dialog_answers(vec![Some(bad), None]));
    let triangles = h.state().scenes.navmesh.mesh().triangles().len();
    h.get_by_label("Open…").click();
    h.run_steps(3);
    assert!(h.state().error().is_some_and(|e| e.contains("broken.obj")));
    h.get_by_label_contains("Could not open");
    assert_eq!(h.state().scenes.navmesh.mesh().triangles().len(), triangles);
    assert!(
        h.state()
            .scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("rooms.obj")
    );
    // Copy puts the whole message on the clipboard.
    let copied = common::click_and_copied(&mut h, "Copy");
    assert!(
        copied
            .iter()
            .any(|t| t.starts_with("Could not open") && t.contains("broken.obj")),
        "{copied:?}"
    );
    h.run_steps(1);
    h.get_by_label("Dismiss").click();
    h.run_steps(2);
    assert!(h.state().banner.error.is_none());
    // A cancelled dialog changes nothing.
    h.get_by_label("Open…").click();
    h.run_steps(2);
    assert!(h.state().banner.error.is_none());
    assert_eq!(h.state().scenes.navmesh.mesh().triangles().len(), triangles);
}

#[test]
fn a_good_file_opens_and_goes_into_recent_files() {
    let maze = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/maze.obj");
    let mut h = harness(app_with_dialog_answers(vec![Some(maze.clone())]));
    h.get_by_label("Open…").click();
    h.run_steps(3);
    let app = h.state();
    assert!(app.banner.error.is_none());
    assert_eq!(app.scenes.navmesh.mesh().triangles().len(), 96);
    assert_eq!(app.settings.recent.paths().first(), Some(&maze));
    assert_eq!(app.settings.last_file.as_ref(), Some(&maze));
    assert_eq!(
        app.scenes.navmesh.query.playback.cursor, 0,
        "animation ready on the new mesh"
    );
}

#[test]
fn changing_the_cost_model_reruns_the_search() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    let before = h.state().scenes.navmesh.query.timeline.len();
    h.get_by_label("Edge midpoints").click();
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.navmesh.settings.cost,
        navlab::navmesh::CostModel::Midpoint
    );
    assert_ne!(h.state().scenes.navmesh.query.timeline.len(), before);
}

#[test]
fn smoke_every_panel_and_scene_runs_headless() {
    let mut app = app_with_dialog_answers(vec![]);
    app.scenes.navmesh.settings.display.parent_arrows = true;
    let mut h = harness(app);
    h.get_by_label("Help").click();
    h.run_steps(2);
    h.get_by_label("Keyboard and mouse");
    for i in 0..navlab::assets::ALL.len() {
        h.state_mut().command(Command::LoadEmbedded(i));
        h.run_steps(2);
        let len = h.state().scenes.navmesh.query.timeline.len();
        for k in [0, len / 3, len / 2, len.saturating_sub(1), len] {
            h.state_mut().scenes.navmesh.query.playback.cursor = k;
            h.run_steps(1);
            assert_eq!(h.state().scenes.navmesh.query.replay.cursor(), k);
        }
        h.get_by_label("Fit").click();
        h.run_steps(1);
    }
    // Hovering the canvas shows coordinates in the status bar (the help, which can cover the
    // canvas, closed first).
    h.key_press(egui::Key::F1);
    h.run_steps(2);
    assert!(h.query_by_label("Keyboard and mouse").is_none());
    let view = h.state().scenes.navmesh.last_view().expect("drawn");
    h.hover_at(view.rect.center());
    h.run_steps(2);
    assert!(h.state().scenes.navmesh.screen.hover_world.is_some());
}

#[test]
fn dragging_the_start_marker_moves_it_and_reruns_live() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    let view = h.state().scenes.navmesh.last_view().expect("drawn");
    let from = view.screen_from_world(h.state().scenes.navmesh.query.start);
    let target = Vec2::new(3.0, 3.0); // still in room A
    let to = view.screen_from_world(target);
    let mut timelines = Vec::new();
    drag_screen(&mut h, (from, to), egui::PointerButton::Primary, 10, |h| {
        let path = h
            .state()
            .scenes
            .navmesh
            .query
            .timeline
            .path
            .clone()
            .expect("path");
        timelines.push(path.start.point);
    });
    let start = h.state().scenes.navmesh.query.start;
    assert!(start.distance(target) < 0.1, "start {start}");
    // The query was re-run while dragging, not only at the end.
    timelines.dedup();
    assert!(timelines.len() >= 5, "{timelines:?}");
    // Dragging a marker does not pan the view.
    let after = h.state().scenes.navmesh.last_view().expect("drawn");
    assert_eq!(after.camera, view.camera);

    // A quick flick: the pointer is already off the marker when egui calls it a drag. The
    // marker under the press is still the one that moves.
    let from = view.screen_from_world(h.state().scenes.navmesh.query.start);
    let target = Vec2::new(2.0, 4.0);
    let to = view.screen_from_world(target);
    assert!(from.distance(to) > 30.0);
    drag_screen(&mut h, (from, to), egui::PointerButton::Primary, 1, |_| {});
    let start = h.state().scenes.navmesh.query.start;
    assert!(start.distance(target) < 0.1, "start {start}");
    assert_eq!(
        h.state().scenes.navmesh.last_view().expect("drawn").camera,
        view.camera
    );
}

#[test]
fn without_a_file_dialog_the_mesh_is_saved_to_a_typed_path() {
    let dir = tempfile::tempdir().expect("temp");
    let mut h = harness(app_without_file_dialogs());
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Save mesh as…").click();
    h.run_steps(2);
    h.get_by_label_contains("No file dialog appeared");
    let prompt = h.state().path_prompt.as_ref().expect("asks where");
    assert!(
        prompt.text.ends_with("rooms.obj"),
        "suggests {}",
        prompt.text
    );
    let target = dir.path().join("rooms.mesh");
    common::replace_text(&mut h, "Path", &target.display().to_string());
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert!(h.state().path_prompt.is_none());
    h.get_by_label_contains("as a Polyanya mesh");
    let saved = navlab::navmesh::NavMesh::load(&target, navlab::navmesh::Plane::Xz)
        .expect("the saved mesh loads");
    let shown = &h.state().scenes.navmesh.mesh();
    let area = |m: &navlab::navmesh::NavMesh| m.summary().area;
    common::assert_close(area(&saved), area(shown), 1e-9);
}

#[test]
fn f1_shows_and_hides_the_keyboard_help() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    assert!(h.query_by_label("Keyboard and mouse").is_none());
    h.key_press(egui::Key::F1);
    h.run_steps(2);
    h.get_by_label("Keyboard and mouse");
    h.get_by_label("Ctrl+L");
    h.key_press(egui::Key::F1);
    h.run_steps(2);
    assert!(h.query_by_label("Keyboard and mouse").is_none());
    // Escape closes it too, and only it: the scene's tool stays as it was.
    h.key_press(egui::Key::F1);
    h.run_steps(2);
    h.get_by_label("Keyboard and mouse");
    h.key_press(egui::Key::R);
    h.run_steps(1);
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.query_by_label("Keyboard and mouse").is_none());
    assert_eq!(
        h.state().scenes.navmesh.edit.tool,
        navlab::app::navmesh_scene::Tool::Rectangle
    );
}

/// In a small window the help scrolls instead of running off the bottom of the screen.
#[test]
fn the_keyboard_help_fits_a_small_window() {
    let mut h = Harness::builder()
        .with_size(egui::vec2(900.0, 480.0))
        .build_ui_state(
            |ui, app: &mut NavlabApp| app.frame_ui(ui),
            app_with_dialog_answers(vec![]),
        );
    h.run_steps(2);
    h.key_press(egui::Key::F1);
    h.run_steps(3);
    // The window holding the help's title: all of it on the screen.
    use egui_kittest::kittest::NodeT;
    let title = h.get_by_label("Keyboard and mouse");
    let mut node = title.accesskit_node();
    while node.role() != egui::accesskit::Role::Window {
        node = node.parent().expect("the title is inside a window");
    }
    let area = node.bounding_box().expect("laid out");
    assert!(area.y0 >= 0.0 && area.y1 <= 480.0, "{area:?}");
    // Its last line is still there, further down the scroll.
    h.get_by_label("this list");
}

#[test]
fn saving_an_overlapping_mesh_as_polyanya_warns_as_convert_does() {
    // Two floors, one above the other: they overlap in the plane.
    let dir = tempfile::tempdir().expect("temp");
    let floors = dir.path().join("floors.obj");
    std::fs::write(
        &floors,
        "v 0 0 0\nv 4 0 0\nv 0 0 4\nv 1 3 1\nv 5 3 1\nv 1 3 5\nf 1 3 2\nf 4 6 5\n",
    )
    .expect("write");
    let out = dir.path().join("floors.mesh");
    let mut h = harness(app_with_dialog_answers(vec![
        Some(floors),
        Some(out.clone()),
    ]));
    h.get_by_label("Open…").click();
    h.run_steps(3);
    assert!(
        h.state().banner.error.is_none(),
        "{:?}",
        h.state().banner.error
    );
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Save mesh as…").click();
    h.run_steps(2);
    assert!(out.is_file(), "written all the same");
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(
        notice.contains("as a Polyanya mesh") && notice.contains("warning: 1 overlap"),
        "{notice}"
    );
}

#[test]
fn copy_steps_puts_every_explained_step_on_the_clipboard() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    let copied = common::click_and_copied(&mut h, "Copy steps");
    let [text] = copied.as_slice() else {
        panic!("one copy: {copied:?}")
    };
    let scene = &h.state().scenes.navmesh;
    let steps = scene.query.timeline.steps();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), steps.len() + 1);
    assert_eq!(lines[0], "0. ready: start and goal placed");
    for (k, step) in steps.iter().enumerate() {
        assert_eq!(lines[k + 1], format!("{}. {}", k + 1, step.explain()));
    }
}

/// Copy path copies what `navlab path --json` prints for the same mesh, start and goal: the
/// command line is the oracle.
#[test]
fn copy_path_copies_what_the_path_command_prints() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    let copied = common::click_and_copied(&mut h, "Copy path");
    let [text] = copied.as_slice() else {
        panic!("one copy: {copied:?}")
    };
    let copied: serde_json::Value = serde_json::from_str(text).expect("json");
    let scene = &h.state().scenes.navmesh;
    assert!(scene.origin.source.name().contains("rooms.obj"));
    let rooms = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/rooms.obj");
    let point = |p: Vec2| format!("{},{}", p.x, p.y);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_navlab"))
        .args(["path", rooms, "--from", &point(scene.query.start), "--to"])
        .arg(point(scene.query.goal))
        .arg("--json")
        .output()
        .expect("runs");
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(copied, printed);
    assert_eq!(copied["status"], "found");
    assert!(copied["waypoints"].as_array().expect("waypoints").len() > 2);
}

/// The numbers on the canvas's triangles: by default every triangle's id, as the caption and
/// the steps name them (at a step that expands triangle t, the triangle drawn in the colour
/// of "expanded at this step" reads t); or the visit order (#1, #2, … on expanded
/// triangles only); or none.
#[test]
fn triangles_are_numbered_by_id_as_the_steps_name_them_or_by_visit() {
    use navlab::navmesh::timeline::Step;
    use navlab::search::SearchEvent;
    /// The labels on the canvas with where they are drawn.
    fn canvas_labels(h: &Harness<'_, NavlabApp>) -> Vec<(String, egui::Pos2)> {
        let canvas = h.state().scenes.navmesh.last_view().expect("drawn").rect;
        h.output()
            .shapes
            .iter()
            .filter_map(|clipped| match &clipped.shape {
                egui::epaint::Shape::Text(text) if canvas.contains(text.pos) => {
                    let label = text.galley.text().to_string();
                    let centre = text.pos + text.galley.rect.center().to_vec2();
                    Some((label, centre))
                }
                _ => None,
            })
            .collect()
    }
    fn numbers(h: &Harness<'_, NavlabApp>, prefix: &str) -> Vec<usize> {
        let mut numbers: Vec<usize> = canvas_labels(h)
            .iter()
            .filter_map(|(label, _)| label.strip_prefix(prefix)?.parse().ok())
            .collect();
        numbers.sort_unstable();
        numbers
    }
    let mut h = harness(app_with_dialog_answers(vec![]));
    assert!(h.state().settings.scenes.navmesh.display.triangle_ids);
    // The legend shows a label as an example: only the triangles' are counted.
    h.get_by_label("Legend").click();
    h.run_steps(2);
    let triangles = h.state().scenes.navmesh.mesh().triangles().len();
    let ids = numbers(&h, "");
    assert_eq!(
        ids,
        (0..triangles).collect::<Vec<_>>(),
        "every triangle by id, once"
    );

    // Step until A* expands some triangle: the label at that triangle's centroid is the
    // number the caption names.
    let mut checked = 0;
    for _ in 0..40 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(2);
        let scene = &h.state().scenes.navmesh;
        let shown = scene.query.playback.cursor;
        let Some(Step::Search(SearchEvent::Expanded { node, .. })) = shown
            .checked_sub(1)
            .and_then(|k| scene.query.timeline.steps().get(k))
            .cloned()
        else {
            continue;
        };
        let caption = scene.current_explanation();
        assert!(
            caption.contains(&format!("expand triangle {node},")),
            "{caption}"
        );
        let view = scene.last_view().expect("drawn");
        let centroid = view.screen_from_world(scene.mesh().triangles()[node].centroid);
        let (label, _) = canvas_labels(&h)
            .into_iter()
            .min_by(|a, b| a.1.distance(centroid).total_cmp(&b.1.distance(centroid)))
            .expect("labels");
        assert_eq!(label, node.to_string(), "the expanded triangle's label");
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");

    h.get_by_label("visit order").click();
    h.key_press(egui::Key::End);
    h.run_steps(2);
    let expanded = h
        .state()
        .scenes
        .navmesh
        .query
        .timeline
        .path
        .as_ref()
        .expect("path")
        .expanded;
    let visits = numbers(&h, "#");
    assert!(!visits.is_empty());
    assert!(
        visits.iter().all(|&n| (1..=expanded).contains(&n)),
        "{visits:?}"
    );
    assert!(
        canvas_labels(&h)
            .iter()
            .all(|(label, _)| label.parse::<usize>().is_err()),
        "a visit is never drawn as a bare number, which would read as an id"
    );

    h.get_by_label("none").click();
    h.run_steps(2);
    assert!(numbers(&h, "").is_empty() && numbers(&h, "#").is_empty());
}

/// The open list above the steps names, at every step of A*, the triangle expanded next (the
/// recorded steps are the oracle); with edge midpoints it says why it shows none.
#[test]
fn the_open_list_shows_the_triangle_expanded_next() {
    use navlab::navmesh::timeline::Step;
    use navlab::search::SearchEvent;
    let mut h = harness(app_with_dialog_answers(vec![]));
    let mut checked = 0;
    for _ in 0..30 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(1);
        let scene = &h.state().scenes.navmesh;
        let next = scene.query.timeline.steps().get(cursor(&h)).cloned();
        if let Some(Step::Search(SearchEvent::Expanded { node, .. })) = next {
            assert_eq!(scene.next_to_expand(), Some(node));
            h.get_by_label(&format!("triangle {node}"));
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");

    // With edge midpoints the list is of A*'s states, "12 from 7"; the query's own trace on
    // them (recorded here) is the oracle.
    h.get_by_label("Edge midpoints").click();
    h.run_steps(2);
    h.get_by_label_contains("once per edge it entered by");
    let scene = &h.state().scenes.navmesh;
    let options = navlab::navmesh::QueryOptions {
        cost: navlab::navmesh::CostModel::Midpoint,
        heuristic_weight: scene.settings.heuristic_weight,
        ..navlab::navmesh::QueryOptions::default()
    };
    let mut states = Vec::new();
    let path = navlab::navmesh::find_path_with_states(
        scene.mesh(),
        scene.query.start,
        scene.query.goal,
        options,
        &mut navlab::search::NoObserver,
        &mut states,
        &mut navlab::search::NoObserver,
    )
    .expect("a path");
    let layout = navlab::navmesh::EdgeStates::new(scene.mesh(), &path.start, &path.goal);
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    let mut checked = 0;
    for _ in 0..30 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(1);
        let scene = &h.state().scenes.navmesh;
        if let Some(SearchEvent::Expanded { node, .. }) = states.get(cursor(&h)).copied() {
            assert_eq!(
                scene.next_to_expand(),
                Some(layout.triangle_of(scene.mesh(), node))
            );
            let name = layout.name(scene.mesh(), node);
            assert!(
                name.contains(" from ") || name.starts_with("start"),
                "{name}"
            );
            h.get_by_label(&name);
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
}

/// A level designer exports the mesh again: the window loads it again by itself (start and
/// goal kept), shows a half-written file's error while keeping the mesh, never replaces an
/// unsaved repair, does not take its own save for a change, and stops when the setting is off.
#[test]
fn a_mesh_file_written_again_is_loaded_again() {
    // A 4 × 2 rectangle as two triangles, then as four (the same floor).
    let two = "v 0 0 0\nv 4 0 0\nv 4 0 2\nv 0 0 2\nf 1 2 3\nf 1 3 4\n";
    let four = "v 0 0 0\nv 4 0 0\nv 4 0 2\nv 0 0 2\nv 2 0 1\nf 1 2 5\nf 2 3 5\nf 3 4 5\nf 4 1 5\n";
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("export.obj");
    common::export(&path, two, 0);
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.state_mut().command(Command::Load(path.clone()));
    h.run_steps(2);
    assert_eq!(h.state().scenes.navmesh.mesh().triangles().len(), 2);
    let (start, goal) = (Vec2::new(0.5, 0.5), Vec2::new(3.5, 1.5));
    {
        let scene = &mut h.state_mut().scenes.navmesh;
        scene.query.start = start;
        scene.query.goal = goal;
        scene.rerun();
    }
    // Frames are a quarter of a second apart: a change is seen within a second.
    h.run_steps(6);
    assert!(
        h.state()
            .notice
            .as_deref()
            .is_none_or(|n| !n.contains("changed"))
    );

    common::export(&path, four, 10);
    h.run_steps(6);
    let app = h.state();
    assert_eq!(app.scenes.navmesh.mesh().triangles().len(), 4);
    assert_eq!(
        (
            app.scenes.navmesh.query.start,
            app.scenes.navmesh.query.goal
        ),
        (start, goal)
    );
    assert!(
        app.notice
            .as_deref()
            .is_some_and(|n| n.contains("export.obj changed on disk: reloaded"))
    );

    // Half-written: the error names the file, the mesh shown stays; the rest of the write
    // loads.
    common::export(&path, "v 0 0 0\nv 4 0 0\nf 1 2 3\n", 20);
    h.run_steps(6);
    assert!(h.state().error().is_some_and(|e| e.contains("export.obj")));
    assert_eq!(h.state().scenes.navmesh.mesh().triangles().len(), 4);
    common::export(&path, two, 30);
    h.run_steps(6);
    assert!(h.state().banner.error.is_none());
    assert_eq!(h.state().scenes.navmesh.mesh().triangles().len(), 2);

    // An unsaved repair is never replaced: the status bar says the file changed.
    h.state_mut().scenes.navmesh.origin.unsaved_repair = true;
    common::export(&path, four, 40);
    h.run_steps(6);
    assert_eq!(h.state().scenes.navmesh.mesh().triangles().len(), 2);
    assert!(
        h.state()
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("Reload (F5) shows it"))
    );
    h.state_mut().scenes.navmesh.origin.unsaved_repair = false;

    // Saving over the file is no change to load.
    assert!(h.state_mut().save_mesh_to(path.clone()));
    h.run_steps(6);
    assert!(
        h.state()
            .notice
            .as_deref()
            .is_some_and(|n| n.starts_with("Saved"))
    );

    // Off: nothing is loaded.
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Reload files changed on disk").click();
    h.run_steps(1);
    assert!(!h.state().settings.reload_changed_files);
    common::export(&path, four, 50);
    h.run_steps(6);
    assert_eq!(h.state().scenes.navmesh.mesh().triangles().len(), 2);
}

/// W walks the path as the seed's NPC does: the agent ends on the goal, never faster than its
/// top speed, pauses and resumes with W, and is dropped when the path changes.
#[test]
fn w_walks_the_agent_along_the_path_to_the_goal() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.key_press(egui::Key::End);
    h.run_steps(1);
    h.get_by_label("Walk the path").click();
    h.run_steps(4);
    let time = |h: &Harness<'_, NavlabApp>| h.state().scenes.navmesh.walk.as_ref().map(|w| w.time);
    let walking = time(&h).expect("walking");
    assert!(walking > 0.0);
    h.get_by_label("Stop walking");
    assert!(
        h.state()
            .scenes
            .navmesh
            .current_explanation()
            .starts_with("walk: ")
    );

    // W pauses: the time stands still; W again goes on.
    h.key_press(egui::Key::W);
    h.run_steps(1);
    let paused = time(&h);
    h.run_steps(4);
    assert_eq!(time(&h), paused);
    h.key_press(egui::Key::W);
    h.run_steps(4);
    assert!(time(&h) > paused);

    // A frame advances the walk by a tenth of a second at most: rooms.obj's takes 13 s.
    for _ in 0..400 {
        if h.state()
            .scenes
            .navmesh
            .walk
            .as_ref()
            .is_some_and(|w| w.finished())
        {
            break;
        }
        h.run_steps(1);
    }
    let scene = &h.state().scenes.navmesh;
    let walk = scene.walk.as_ref().expect("walked");
    let path = scene.query.timeline.path.as_ref().expect("a path");
    assert!(walk.finished() && walk.walk.arrived());
    assert_eq!(walk.agent().map(|a| a.position), Some(path.goal.point));
    let speed = scene.settings.walk.speed;
    assert!(walk.walk.duration() >= walk.walk.distance_to(usize::MAX) / speed - 1e-9);
    assert!(
        scene.current_explanation().contains("arrived"),
        "{}",
        scene.current_explanation()
    );
    h.get_by_label("Walk the path");

    // A new goal is a new path: the walk goes.
    click_world(&mut h, Vec2::new(2.0, 2.0), egui::PointerButton::Secondary);
    assert!(h.state().scenes.navmesh.walk.is_none());
}

/// `navlab open --walk` sets the agent off at once, after the whole search and funnel.
#[test]
fn the_walk_launch_option_starts_the_agent() {
    let mut app = app_with_dialog_answers(vec![]);
    let report = app.apply_launch(
        &navlab::cli::OpenArgs {
            walk: true,
            ..Default::default()
        }
        .launch(),
    );
    assert_eq!(report, navlab::app::LaunchReport::default());
    assert_eq!(
        app.scenes.navmesh.query.playback.cursor,
        app.scenes.navmesh.query.timeline.len()
    );
    assert!(
        app.scenes
            .navmesh
            .walk
            .as_ref()
            .is_some_and(|w| w.playing && w.time == 0.0)
    );
}

/// A file dropped on the window, as the desktop hands it over.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// Two frames with `paths` dragged over the window (the desktop says so every frame; an egui
/// area is measured in its first frame and shown from the next).
fn hover_files(h: &mut Harness<'_, NavlabApp>, paths: &[&std::path::Path]) {
    for _ in 0..2 {
        h.input_mut().hovered_files = paths
            .iter()
            .map(|path| egui::HoveredFile {
                path: Some(path.to_path_buf()),
                mime: String::new(),
            })
            .collect();
        h.step();
    }
}

/// One frame in which `path` is dropped on the window, and one to show what it did.
fn drop_file(h: &mut Harness<'_, NavlabApp>, path: &std::path::Path) {
    h.input_mut().dropped_files = vec![std::sync::Arc::new(Dropped(path.to_path_buf()))];
    h.run_steps(2);
}

/// Files dragged over the window say what a drop would open, and where; a drop opens a map in
/// the tile-map view and a mesh in the navmesh view, refuses a file of neither kind with a
/// clear error (keeping the scene), and asks first before replacing unsaved map edits.
#[test]
fn files_dragged_over_and_dropped_on_the_window() {
    let dir = tempfile::tempdir().expect("temp");
    let map = dir.path().join("tiny.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n").expect("write");
    let picture = dir.path().join("photo.png");
    std::fs::write(&picture, b"not a mesh").expect("write");
    let maze = common::repo_path("assets/maze.obj");
    let mut h = harness(app_with_dialog_answers(vec![]));

    hover_files(&mut h, &[&map, &picture]);
    h.get_by_label("Drop to open tiny.map in the tile-map view (the first of 2 files)");
    hover_files(&mut h, &[&maze]);
    h.get_by_label("Drop to open maze.obj in the navmesh view");
    hover_files(&mut h, &[&picture]);
    h.get_by_label_contains("photo.png: navlab opens meshes (.obj, .mesh), tile maps");
    hover_files(&mut h, &[]);
    h.run_steps(1);
    assert!(
        h.query_by_label_contains("Drop to open").is_none(),
        "gone once the drag leaves"
    );

    drop_file(&mut h, &map);
    assert_eq!(h.state().settings.scene, SceneKind::TileMap);
    assert_eq!(
        (h.state().map.map.width(), h.state().map.map.height()),
        (3, 2)
    );
    assert_eq!(h.state().banner.error, None);

    // Neither a mesh nor a map: said so, and the tile-map view stays with its map.
    drop_file(&mut h, &picture);
    assert_eq!(h.state().settings.scene, SceneKind::TileMap);
    assert_eq!(h.state().map.map.width(), 3);
    let error = h.state().banner.error.clone().unwrap_or_default();
    assert!(error.contains("photo.png: navlab opens meshes"), "{error}");

    drop_file(&mut h, &maze);
    assert_eq!(h.state().settings.scene, SceneKind::Navmesh);
    assert!(
        h.state()
            .scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("maze.obj")
    );

    // Unsaved edits to the map: dropping it again asks before replacing them.
    h.state_mut().paint((0, 0), navlab::grid::Tile::Water);
    assert!(h.state().map.dirty);
    drop_file(&mut h, &map);
    h.get_by_label("Unsaved changes");
    assert_eq!(
        h.state().map.map.get((0, 0)),
        Some(navlab::grid::Tile::Water)
    );
}

/// Runs frames until the window asks for a picture of itself: that request, and whether the
/// File menu was still on screen in the frame that asked.
fn picture_request(h: &mut Harness<'_, NavlabApp>) -> (egui::ScreenshotCallback, bool) {
    for _ in 0..6 {
        h.step();
        let request = h
            .output()
            .viewport_output
            .values()
            .flat_map(|viewport| viewport.commands.iter())
            .find_map(|command| match command {
                egui::ViewportCommand::Screenshot(callback) => Some(callback.clone()),
                _ => None,
            });
        if let Some(request) = request {
            return (request, h.query_by_label("Save picture…").is_some());
        }
    }
    panic!("no picture of the window asked for");
}

/// Queues one key-down event: one frame handles it (`key_press` queues several events, and
/// `step` runs a frame for each, of which only the last one's output can be read).
fn press_once(h: &Harness<'_, NavlabApp>, modifiers: egui::Modifiers, key: egui::Key) {
    h.event(egui::Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers,
    });
}

/// A small picture with a known first pixel, standing in for the window's.
fn stand_in_picture() -> std::sync::Arc<egui::ColorImage> {
    let mut image = egui::ColorImage::filled([4, 3], egui::Color32::from_rgb(10, 200, 30));
    image.pixels[1] = egui::Color32::from_rgb(250, 5, 60);
    std::sync::Arc::new(image)
}

/// The PNG at `path`.
fn read_png(path: &std::path::Path) -> egui::ColorImage {
    let bytes = std::fs::read(path).expect("written");
    navlab::app::screenshot::decode_png(&bytes).expect("a PNG")
}

/// File → Save picture… captures the window once its menu has closed and writes it where the
/// dialog says, as PNG, leaving no temporary file.
#[test]
fn save_picture_writes_the_window_as_a_png() {
    let dir = tempfile::tempdir().expect("temp");
    let target = dir.path().join("slide.png");
    let mut h = harness(app_with_dialog_answers(vec![Some(target.clone())]));
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Save picture…").click();
    let (request, menu_shown) = picture_request(&mut h);
    assert!(!menu_shown, "a picture of the window, not of its menu");
    request.complete(stand_in_picture());
    h.run_steps(2);
    assert_eq!(h.state().banner.error, None);
    let written = read_png(&target);
    assert_eq!(written.size, [4, 3]);
    assert_eq!(written, *stand_in_picture());
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|entry| entry.expect("entry").file_name())
        .collect();
    assert_eq!(names, ["slide.png"]);
    h.get_by_label_contains("Saved a picture of the window (4 × 3)");
}

/// Ctrl+Shift+C puts the picture on the clipboard; F12 without a file dialog asks for a typed
/// path, refuses a name that is not a PNG's, and saves under a .png one.
#[test]
fn copy_picture_and_a_typed_path_for_save_picture() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    press_once(
        &h,
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::C,
    );
    let (request, _) = picture_request(&mut h);
    let picture = stand_in_picture();
    request.complete(std::sync::Arc::clone(&picture));
    h.step();
    let copied: Vec<_> = h
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|command| match command {
            egui::OutputCommand::CopyImage(image) => Some(image.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(copied, [(*picture).clone()]);
    h.run_steps(1);
    h.get_by_label_contains("Copied a picture of the window");

    let dir = tempfile::tempdir().expect("temp");
    let mut h = harness(app_without_file_dialogs());
    press_once(&h, egui::Modifiers::NONE, egui::Key::F12);
    let (request, _) = picture_request(&mut h);
    request.complete(stand_in_picture());
    // The frame that takes it opens the prompt; the next ones lay it out.
    h.run_steps(3);
    h.get_by_label_contains("A PNG of the window as it was when asked for");
    let prompt = h.state().path_prompt.as_ref().expect("asks where");
    assert!(prompt.text.ends_with("rooms-step-0.png"), "{}", prompt.text);
    let jpeg = dir.path().join("slide.jpg");
    common::replace_text(&mut h, "Path", &jpeg.display().to_string());
    h.get_by_label("Save").click();
    h.run_steps(2);
    h.get_by_label_contains("is not a .png name");
    assert!(!jpeg.exists());
    let target = dir.path().join("slide");
    common::replace_text(&mut h, "Path", &target.display().to_string());
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert!(h.state().path_prompt.is_none());
    assert_eq!(read_png(&target.with_extension("png")).size, [4, 3]);
}

/// A file given at launch that does not load is reported with its name and line (for
/// `navlab open` to say so, and in screenshot mode to write no picture of something else);
/// the window keeps what it showed, with the error in its banner.
#[test]
fn a_launch_file_that_fails_to_open_is_reported() {
    use navlab::app::LaunchReport;
    use navlab::cli::OpenArgs;
    let dir = tempfile::tempdir().expect("temp");
    let broken = dir.path().join("broken.obj");
    std::fs::write(&broken, "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 7\n").expect("write");
    let mut app = app_with_dialog_answers(vec![]);
    let report = app.apply_launch(
        &OpenArgs {
            file: Some(broken.clone()),
            ..Default::default()
        }
        .launch(),
    );
    let message = report.open_failed.expect("reported");
    assert!(message.contains("broken.obj:4"), "{message}");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert!(
        app.scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("rooms.obj"),
        "kept"
    );
    assert_eq!(app.banner.error.as_deref(), Some(message.as_str()));

    // A missing map beside a mesh that loads: only the map is reported.
    let missing = dir.path().join("missing.map");
    let mut app = app_with_dialog_answers(vec![]);
    let report = app.apply_launch(
        &OpenArgs {
            file: Some(common::repo_path("assets/maze.obj")),
            map: Some(missing),
            ..Default::default()
        }
        .launch(),
    );
    let message = report.open_failed.expect("reported");
    assert!(
        message.contains("missing.map") && !message.contains("maze.obj"),
        "{message}"
    );
    assert!(app.scenes.navmesh.origin.source.name().contains("maze.obj"));

    // A file that is neither a mesh nor a map is refused by name, as a dropped one is, and
    // not read as OBJ (a picture is not a mesh with a parse error on line 1).
    let picture = dir.path().join("level.png");
    std::fs::write(&picture, "\u{89}PNG\r\n").expect("write");
    let mut app = app_with_dialog_answers(vec![]);
    let report = app.apply_launch(
        &OpenArgs {
            file: Some(picture),
            ..Default::default()
        }
        .launch(),
    );
    let message = report.open_failed.expect("reported");
    assert!(
        message.contains("level.png") && message.contains("navlab opens meshes"),
        "{message}"
    );
    assert!(
        app.scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("rooms.obj"),
        "kept"
    );
    assert_eq!(app.settings.scene, SceneKind::Navmesh);

    // No file, or one that loads: nothing to report.
    let mut app = app_with_dialog_answers(vec![]);
    assert_eq!(
        app.apply_launch(&OpenArgs::default().launch()),
        LaunchReport::default()
    );
    let report = app.apply_launch(
        &OpenArgs {
            file: Some(common::repo_path("assets/maze.obj")),
            ..Default::default()
        }
        .launch(),
    );
    assert_eq!(report, LaunchReport::default());
}

/// A large mesh is queried on the worker thread: the last mesh's path is never drawn over it,
/// moves of the goal made while it searches win (the answer equals a query of the goal as it
/// is now), and the new path shows at its end, as a drag's does.
#[test]
fn a_large_mesh_is_queried_in_the_background_and_the_newest_goal_wins() {
    use navlab::app::navmesh_scene::MeshSource;
    use navlab::app::navmesh_scene::jobs::BACKGROUND_TRIANGLES;
    use navlab::navmesh::generate::{GridMeshSpec, jittered_grid};
    let mesh = jittered_grid(GridMeshSpec::with_about(BACKGROUND_TRIANGLES + 2_000, 5));
    assert!(mesh.triangles().len() >= BACKGROUND_TRIANGLES);
    let bounds = mesh.bounds();
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.state_mut()
        .scenes
        .navmesh
        .set_mesh(mesh, MeshSource::Generated("large".into()));
    let scene = &h.state().scenes.navmesh;
    assert!(scene.is_querying());
    assert!(
        scene.query.timeline.path.is_none(),
        "nothing of the last mesh"
    );
    let corner = |u: f64, v: f64| {
        Vec2::new(
            bounds.min.x + u * (bounds.max.x - bounds.min.x),
            bounds.min.y + v * (bounds.max.y - bounds.min.y),
        )
    };
    for k in 1..=4 {
        h.state_mut()
            .scenes
            .navmesh
            .set_goal(corner(0.9, 0.2 * k as f64));
    }
    for _ in 0..6000 {
        if !h.state().scenes.navmesh.is_querying() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
    let scene = &h.state().scenes.navmesh;
    assert!(!scene.is_querying(), "answered within a minute");
    let shown = scene.query.timeline.path.as_ref().expect("a path");
    let options = navlab::navmesh::QueryOptions {
        cost: scene.settings.cost,
        heuristic_weight: scene.settings.heuristic_weight,
        ..navlab::navmesh::QueryOptions::default()
    };
    let direct = navlab::navmesh::find_path(
        scene.mesh(),
        scene.query.start,
        corner(0.9, 0.8),
        options,
        &mut navlab::search::NoObserver,
        &mut navlab::search::NoObserver,
    )
    .expect("a path");
    assert_eq!(shown.waypoints, direct.waypoints);
    assert_eq!(shown.corridor, direct.corridor);
    assert_eq!(
        scene.query.playback.cursor,
        scene.query.timeline.len(),
        "shown at its end"
    );
}

/// Walking from the middle of the search shows the whole path first; stepping back into the
/// search leaves the walk.
#[test]
fn a_walk_shows_the_whole_path_and_stepping_back_leaves_it() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    for _ in 0..5 {
        h.key_press(egui::Key::ArrowRight);
    }
    h.run_steps(1);
    assert_eq!(cursor(&h), 5);
    h.key_press(egui::Key::W);
    h.run_steps(2);
    let len = h.state().scenes.navmesh.query.timeline.len();
    assert_eq!(cursor(&h), len, "the whole path shown");
    assert!(h.state().scenes.navmesh.walk.is_some());
    h.key_press(egui::Key::ArrowLeft);
    h.run_steps(1);
    assert_eq!(cursor(&h), len - 1);
    assert!(h.state().scenes.navmesh.walk.is_none());
    assert!(
        !h.state()
            .scenes
            .navmesh
            .current_explanation()
            .starts_with("walk")
    );
}

/// A triangle's tooltip says at which steps A* expanded it, and E jumps there — with edge
/// midpoints A* expands a triangle once per edge it was entered by, so E goes on to the next
/// expansion and then round to the first. The timeline's steps are the oracle.
#[test]
fn e_jumps_to_the_steps_that_expand_the_triangle_under_the_pointer() {
    use navlab::navmesh::timeline::Step;
    use navlab::search::SearchEvent;
    use navlab::words::{expanded_at, thousands};
    let mut h = harness(app_with_dialog_answers(vec![]));
    let expansions = |h: &Harness<'_, NavlabApp>| {
        let mut by_triangle = std::collections::BTreeMap::<usize, Vec<usize>>::new();
        for (i, step) in h
            .state()
            .scenes
            .navmesh
            .query
            .timeline
            .steps()
            .iter()
            .enumerate()
        {
            if let Step::Search(SearchEvent::Expanded { node, .. }) = *step {
                by_triangle.entry(node).or_default().push(i + 1);
            }
        }
        by_triangle
    };
    let hover_triangle = |h: &mut Harness<'_, NavlabApp>, t: usize| {
        let scene = &h.state().scenes.navmesh;
        let centroid = scene.mesh().triangles()[t].centroid;
        let pos = scene
            .last_view()
            .expect("drawn")
            .screen_from_world(centroid);
        h.hover_at(pos);
        h.run_steps(40);
    };
    let press_e = |h: &mut Harness<'_, NavlabApp>| {
        h.key_press(egui::Key::E);
        h.run_steps(1);
    };
    // With centroids, each triangle is expanded once.
    let (t, steps) = expansions(&h)
        .into_iter()
        .nth(3)
        .expect("A* expands triangles");
    assert_eq!(steps.len(), 1);
    hover_triangle(&mut h, t);
    h.get_by_label(&expanded_at(&steps));
    h.get_by_label(&format!("E: go to step {}", thousands(steps[0])));
    press_e(&mut h);
    assert_eq!(cursor(&h), steps[0]);
    h.get_by_label_contains(&format!("{}. A*: expand triangle {t}", steps[0]));

    h.get_by_label("Edge midpoints").click();
    h.run_steps(2);
    // From the first step, E goes to the triangle's first expansion, then each later one.
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    let (t, steps) = expansions(&h)
        .into_iter()
        .find(|(_, steps)| steps.len() >= 2)
        .expect("with midpoints A* expands some triangle twice on rooms.obj");
    hover_triangle(&mut h, t);
    h.get_by_label(&expanded_at(&steps));
    for &step in steps.iter().chain(&steps[..1]) {
        press_e(&mut h);
        assert_eq!(cursor(&h), step);
    }
    assert!(!h.state().scenes.navmesh.query.playback.playing);
}

/// Page Down goes to where the next phase starts (A*'s first step, the funnel's) and Page Up
/// back to where the phase shown starts, or the one before; the Go to buttons jump to either.
/// The timeline is the oracle.
#[test]
fn page_keys_and_go_to_jump_between_a_star_and_the_funnel() {
    use navlab::navmesh::timeline::Step;
    let mut h = harness(app_with_dialog_answers(vec![]));
    let steps = h.state().scenes.navmesh.query.timeline.steps().to_vec();
    let funnel = 1 + steps
        .iter()
        .position(|s| matches!(s, Step::Funnel(_)))
        .expect("the default query has a funnel");
    assert!(funnel > 2);
    let press = |h: &mut Harness<'_, NavlabApp>, key| {
        h.key_press(key);
        h.run_steps(1);
    };
    // From before the first step: A*'s first step, then the funnel's.
    press(&mut h, egui::Key::PageDown);
    assert_eq!(cursor(&h), 1);
    press(&mut h, egui::Key::PageDown);
    assert_eq!(cursor(&h), funnel);
    h.get_by_label(&format!("{funnel}. {}", steps[funnel - 1].explain()));
    // No later phase.
    press(&mut h, egui::Key::PageDown);
    assert_eq!(cursor(&h), funnel);
    // Within the funnel, back to its start; at its start, back to A*'s first step.
    press(&mut h, egui::Key::ArrowRight);
    press(&mut h, egui::Key::ArrowRight);
    press(&mut h, egui::Key::PageUp);
    assert_eq!(cursor(&h), funnel);
    press(&mut h, egui::Key::PageUp);
    assert_eq!(cursor(&h), 1);
    h.get_by_label(&format!("1. {}", steps[0].explain()));
    h.get_by_label("Funnel").click();
    h.run_steps(2);
    assert_eq!(cursor(&h), funnel);
    h.get_by_label("A*").click();
    h.run_steps(2);
    assert_eq!(cursor(&h), 1);
    assert!(!h.state().scenes.navmesh.query.playback.playing);
}

/// View → Theme switches the panels between light and dark and keeps the choice as egui's
/// option (which egui saves); a theme given at launch (`navlab open --theme`) is that option
/// too, and a launch without one leaves the option as it was.
#[test]
fn view_menu_switches_the_theme_and_keeps_it() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Light").click();
    h.run_steps(2);
    let preference = |h: &Harness<'_, NavlabApp>| h.ctx.options(|o| o.theme_preference);
    assert_eq!(preference(&h), egui::ThemePreference::Light);
    assert!(h.ctx.theme() == egui::Theme::Light, "the panels are light");

    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Dark").click();
    h.run_steps(2);
    assert_eq!(preference(&h), egui::ThemePreference::Dark);
    assert!(h.ctx.theme() == egui::Theme::Dark);

    let mut app = app_with_dialog_answers(vec![]);
    app.apply_launch(
        &navlab::cli::OpenArgs {
            theme: Some(navlab::cli::args::ThemeArg::Light),
            ..Default::default()
        }
        .launch(),
    );
    let mut h = harness(app);
    assert!(h.ctx.theme() == egui::Theme::Light, "launched light");
    // A file given at launch (no --theme) keeps the theme chosen before.
    h.state_mut()
        .apply_launch(&navlab::cli::OpenArgs::default().launch());
    h.run_steps(2);
    assert_eq!(preference(&h), egui::ThemePreference::Light);
}

/// View → Interface size makes the whole window larger or smaller through egui's zoom (which
/// egui keeps with its options), says how large it is, and Ctrl+0 brings it back; the layout
/// follows (the canvas has fewer points to fill).
#[test]
fn view_menu_makes_the_interface_larger_and_ctrl_0_resets_it() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    let canvas =
        |h: &Harness<'_, NavlabApp>| h.state().scenes.navmesh.last_view().expect("drawn").rect;
    let before = canvas(&h);
    for _ in 0..2 {
        h.get_by_label("View").click();
        h.run_steps(2);
        h.get_by_label("Larger").click();
        h.run_steps(3);
    }
    assert!(
        (h.ctx.zoom_factor() - 1.2).abs() < 1e-6,
        "{}",
        h.ctx.zoom_factor()
    );
    assert!(
        canvas(&h).width() < before.width() - 50.0,
        "the same window holds fewer points"
    );
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("120 %");
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    press_once(&h, egui::Modifiers::COMMAND, egui::Key::Num0);
    h.run_steps(3);
    assert_eq!(h.ctx.zoom_factor(), 1.0);
    assert!((canvas(&h).width() - before.width()).abs() < 1.0);
}

/// The Copy buttons (steps, path, table, report, picture) reach the desktop's clipboard only
/// through eframe's `clipboard` feature; with `default-features = false` it is off, and each
/// copy then stayed inside the window — as it did, unnoticed, until the sixteenth session
/// (egui's copy commands, which the other tests read, are sent either way).
#[test]
fn the_window_is_built_with_the_desktop_clipboard() {
    let manifest = include_str!("../../Cargo.toml");
    let eframe = manifest
        .lines()
        .find(|line| line.trim_start().starts_with("eframe"))
        .expect("eframe is a dependency");
    let defaults_off = eframe.contains("default-features = false");
    assert!(
        !defaults_off || eframe.contains("\"clipboard\""),
        "eframe without its clipboard feature: {eframe}"
    );
}

/// Reading options belong to the file they were chosen for: opening another file starts with
/// no walkable filter and no agent radius, the same file read again keeps them.
#[test]
fn walkable_only_and_the_agent_radius_do_not_follow_into_another_file() {
    let rooms = common::repo_path("assets/rooms.obj");
    let hole = common::repo_path("assets/hole.obj");
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.state_mut().command(Command::Load(rooms.clone()));
    h.run_steps(2);
    {
        let settings = &mut h.state_mut().scenes.navmesh.settings;
        settings.max_slope = Some(30.0);
        settings.agent_radius = Some(0.2);
    }
    h.state_mut().command(Command::Reload);
    h.run_steps(2);
    let scene = &h.state().scenes.navmesh;
    assert!(
        scene.mesh().summary().agent_radius.is_some(),
        "the same file keeps its radius"
    );
    assert_eq!(scene.settings.max_slope, Some(30.0));
    h.state_mut().command(Command::Load(hole));
    h.run_steps(2);
    let scene = &h.state().scenes.navmesh;
    assert_eq!(scene.origin.source.name(), "hole.obj");
    assert_eq!(scene.settings.max_slope, None);
    assert_eq!(scene.settings.agent_radius, None);
    assert!(scene.mesh().summary().agent_radius.is_none());
}

/// After the file is read again (F5) the new search is shown whole, not at the old step
/// number in the middle of A*.
#[test]
fn a_reload_shows_the_new_answer_at_its_last_step() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.state_mut()
        .command(Command::Load(common::repo_path("assets/rooms.obj")));
    h.run_steps(2);
    {
        let scene = &mut h.state_mut().scenes.navmesh;
        scene.query.playback.cursor = 10;
        scene.sync_replay();
    }
    h.state_mut().command(Command::Reload);
    h.run_steps(2);
    let scene = &h.state().scenes.navmesh;
    assert_eq!(scene.query.playback.cursor, scene.query.timeline.len());
}

/// Choosing the other plane reads the file again — but not over unsaved edits, which it
/// would lose: the plane stays, the edits stay, and the status bar says why.
#[test]
fn switching_the_plane_keeps_unsaved_edits() {
    use navlab::navmesh::Plane;
    use navlab::navmesh::edit::{Shape, ShapeKind};
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.state_mut()
        .command(Command::Load(common::repo_path("assets/rooms.obj")));
    h.run_steps(2);
    let wall = Shape::rectangle(
        Vec2::new(9.0, 1.5),
        Vec2::new(11.0, 3.5),
        ShapeKind::Obstacle,
    )
    .expect("shape");
    h.state_mut()
        .scenes
        .navmesh
        .edit_mesh(|editor| editor.add_shape(wall))
        .expect("cut");
    h.run_steps(1);
    h.get_by_label("XY").click();
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    assert_eq!(scene.settings.plane, Plane::Xz, "the plane stays");
    assert!(
        scene.has_unsaved_edits() && scene.editor().can_undo(),
        "the edits stay"
    );
    h.get_by_label_contains("Not read in the XY plane: the mesh has unsaved edits");
    // Undone, the file is read again in the plane chosen (rooms.obj, flat in XY, is read
    // in XZ all the same, and says so).
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert!(!h.state().scenes.navmesh.has_unsaved_edits());
    h.get_by_label("XY").click();
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    assert_eq!(scene.mesh().plane(), Plane::Xz);
    assert!(scene.mesh().summary().plane_from_file);
    h.get_by_label_contains("It is flat in the XY plane");
}

/// After Save mesh as… the window shows the file it saved: the title names it (it kept the
/// old name), Reload reads it.
#[test]
fn save_mesh_as_makes_the_saved_file_the_document_shown() {
    let dir = tempfile::tempdir().expect("temp");
    let target = dir.path().join("mine.obj");
    let mut h = harness(app_with_dialog_answers(vec![Some(target.clone())]));
    h.state_mut()
        .command(Command::Load(common::repo_path("assets/rooms.obj")));
    h.run_steps(2);
    assert!(h.state().window_title().starts_with("rooms.obj"));
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Save mesh as…").click();
    h.run_steps(3);
    assert_eq!(h.state().error(), None);
    let title = h.state().window_title();
    assert!(title.starts_with("mine.obj"), "{title}");
    assert_eq!(
        h.state().scenes.navmesh.origin.source,
        navlab::app::navmesh_scene::MeshSource::File(target)
    );
}

/// Measures are shown as a person reads them: the agent radius in the legend to three
/// significant digits, not "0.9873929023700001".
#[test]
fn the_agent_radius_in_the_legend_is_read_to_three_digits() {
    let mut h = harness(app_with_dialog_answers(vec![]));
    h.state_mut()
        .command(Command::Load(common::repo_path("assets/rooms.obj")));
    h.run_steps(2);
    h.state_mut().scenes.navmesh.settings.agent_radius = Some(0.287_392_902_370_000_1);
    h.state_mut().command(Command::Reload);
    h.run_steps(2);
    let rows: Vec<String> = h
        .state()
        .scenes
        .navmesh
        .legend()
        .into_iter()
        .map(|row| row.text)
        .collect();
    assert!(
        rows.iter()
            .any(|r| r == "walls before the mesh was shrunk by 0.287"),
        "{rows:?}"
    );
}

/// The plane radio shows the plane the mesh was read in: XY for a Polyanya mesh, whatever the
/// setting, and cannot be switched there.
#[test]
fn the_plane_shown_is_the_one_the_mesh_was_read_in() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("square.mesh");
    std::fs::write(
        &path,
        "mesh\n2\n4 1\n0 0 1 0\n4 0 1 0\n4 4 1 0\n0 4 1 0\n4 0 1 2 3 -1 -1 -1 -1\n",
    )
    .expect("written");
    let mut app = common::app();
    app.open_path(path);
    let mut h = harness(app);
    h.run_steps(4);
    assert_eq!(
        h.state().scenes.navmesh.mesh().plane(),
        navlab::navmesh::Plane::Xy
    );
    use egui::accesskit::Toggled;
    use egui_kittest::kittest::NodeT;
    let xy = h.get_by_label("XY");
    assert_eq!(xy.accesskit_node().toggled(), Some(Toggled::True));
    assert!(
        xy.accesskit_node().is_disabled(),
        "a Polyanya mesh is XY only"
    );
    let xz = h.get_by_label("XZ");
    assert_eq!(xz.accesskit_node().toggled(), Some(Toggled::False));
}
