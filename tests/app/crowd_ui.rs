//! The Crowd tab, driven headlessly: start a crowd, play it on the playback bar (which plays
//! the crowd while the tab is shown), step back, click an agent and see its velocity space — the sentence naming what bound it, and the half-planes shown being
//! the ones its velocity satisfies.

use crate::common;
use common::{app, harness};
use egui_kittest::kittest::Queryable;
use navlab::crowd::Source;

#[test]
fn start_a_crowd_play_it_step_back_and_take_one_agent_apart() {
    let mut h = harness(app());
    h.get_by_label("Crowd").click();
    h.run_steps(2);
    h.get_by_label("Start the crowd").click();
    h.run_steps(2);
    let lab = &h.state().scenes.navmesh.crowd;
    let agents = lab.crowd.as_ref().expect("a crowd").specs().len();
    assert_eq!(agents, lab.count);
    assert_eq!(lab.shown, 0);
    // The canvas caption, the status bar and the bar speak of the crowd's ticks.
    let caption = h.state().scenes.navmesh.current_explanation();
    assert!(caption.starts_with("Crowd ready: press Play"), "{caption}");
    assert!(h.query_by_label("tick 0 / 0 so far").is_some());
    assert!(
        h.query_all_by_label("Tick").next().is_some(),
        "the bar counts ticks"
    );
    // Play: the ticks go on.
    h.get_by_label("Play").click();
    for _ in 0..30 {
        h.step();
    }
    h.get_by_label("Pause").click();
    h.run_steps(2);
    let played = h.state().scenes.navmesh.crowd.shown;
    assert!(played > 5, "played to tick {played}");
    // A tick back, then on again: the recorded frame, not a new run.
    let before = the_crowd(&h).frames()[played - 1].clone();
    h.get_by_label("Step back").click();
    h.run_steps(2);
    let lab = &h.state().scenes.navmesh.crowd;
    assert_eq!(lab.shown, played - 1);
    assert_eq!(
        lab.crowd.as_ref().expect("a crowd").frames()[played - 1],
        before
    );
    // Click an agent that is moving: its velocity space.
    let crowd = lab.crowd.as_ref().expect("a crowd");
    let frame = &crowd.frames()[lab.shown];
    let k = frame
        .agents
        .iter()
        .position(|a| a.arrived.is_none() && a.velocity.length() > 0.1)
        .expect("an agent on its way");
    let at = frame.agents[k].position;
    common::click_world(&mut h, at, egui::PointerButton::Primary);
    h.run_steps(2);
    let lab = &h.state().scenes.navmesh.crowd;
    assert_eq!(lab.selected, Some(k), "the agent clicked is selected");
    let decision = lab.decision().expect("what it decided");
    let sentence = navlab::app::navmesh_scene::crowd::CrowdLab::sentence(k, &decision);
    assert!(
        sentence.starts_with(&format!("Agent {} wanted", k + 1)),
        "{sentence}"
    );
    let wanted = format!("Agent {} wanted", k + 1);
    assert!(
        h.query_by_label_contains(&wanted).is_some(),
        "the sentence is shown"
    );
    assert!(
        h.query_by_label("agent's half-plane (A)").is_some(),
        "the velocity space's legend"
    );
    // Its half-planes: the velocity it took lies in each (the agents' moved out by the
    // relaxation reported); the agent clicked is not among its own neighbours.
    assert_eq!(decision.chosen, frame_velocity(&h, k));
    for (source, half) in &decision.half_planes {
        let slack = match source {
            Source::Agent(j) => {
                assert_ne!(*j, k);
                decision.relaxed
            }
            Source::Wall(_) => 0.0,
        };
        if !decision.fallback {
            assert!(half.depth(decision.chosen) >= -slack - 1e-4, "{source:?}");
        }
    }
    // Playing on from a tick stepped back keeps the record.
    h.get_by_label("Step forward").click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.navmesh.crowd.shown, played);
}

/// The velocity agent `k` took in the tick shown.
fn frame_velocity(
    h: &egui_kittest::Harness<'_, navlab::app::NavlabApp>,
    k: usize,
) -> navlab::geom::Vec2 {
    let lab = &h.state().scenes.navmesh.crowd;
    lab.crowd.as_ref().expect("a crowd").frames()[lab.shown].agents[k].velocity
}

/// An obstacle cut while the crowd runs: the crowd goes on from the tick shown on the edited
/// mesh (every agent with a path again), the tab says so, and no agent walks into it.
#[test]
fn an_edit_while_the_crowd_runs_makes_it_find_its_paths_again() {
    use navlab::geom::Vec2;
    use navlab::navmesh::edit::{Shape, ShapeKind};
    let mut h = harness(app());
    h.get_by_label("Crowd").click();
    h.run_steps(2);
    h.get_by_label("Start the crowd").click();
    h.run_steps(2);
    h.get_by_label("Step forward").click();
    h.run_steps(2);
    let tick = h.state().scenes.navmesh.crowd.shown;
    assert_eq!(tick, 1);
    // A block in the middle of the first room.
    let (lo, hi) = (Vec2::new(2.0, 2.0), Vec2::new(3.0, 3.0));
    let block = Shape::rectangle(lo, hi, ShapeKind::Obstacle).expect("shape");
    h.state_mut()
        .scenes
        .navmesh
        .edit_mesh(|editor| editor.add_shape(block))
        .expect("cut");
    h.run_steps(2);
    let lab = &h.state().scenes.navmesh.crowd;
    let crowd = lab.crowd.as_ref().expect("the crowd goes on");
    assert_eq!(crowd.mesh_changes(), vec![tick]);
    assert!(std::sync::Arc::ptr_eq(
        crowd.mesh(),
        h.state().scenes.navmesh.view.mesh()
    ));
    let notice = format!("The mesh changed at tick {tick}");
    assert!(
        h.query_by_label_contains(&notice).is_some(),
        "the tab says so"
    );
    h.get_by_label("Play").click();
    for _ in 0..40 {
        h.step();
    }
    let crowd = the_crowd(&h);
    assert!(crowd.current().tick > tick + 5);
    for frame in crowd.frames().iter().skip(tick + 1) {
        for agent in &frame.agents {
            let p = agent.position;
            let inside =
                p.x > lo.x + 1e-6 && p.x < hi.x - 1e-6 && p.y > lo.y + 1e-6 && p.y < hi.y - 1e-6;
            assert!(
                !inside,
                "tick {}: an agent inside the block at {p}",
                frame.tick
            );
        }
    }
}

/// Agents placed by clicking: with Place agents by clicking on, a left click puts a start and
/// a right click its goal; the crowd started holds them first (here no random ones), and they
/// walk to the goals clicked.
#[test]
fn agents_placed_by_clicking_walk_to_the_goals_clicked() {
    let mut h = harness(app());
    h.get_by_label("Crowd").click();
    h.run_steps(2);
    h.get_by_label("Place agents by clicking").click();
    h.run_steps(2);
    let (start, goal) = {
        let query = &h.state().scenes.navmesh.query;
        (query.start, query.goal)
    };
    use egui::PointerButton::{Primary, Secondary};
    // A start and its goal, then one the other way.
    for (p, button) in [
        (start, Primary),
        (goal, Secondary),
        (goal, Primary),
        (start, Secondary),
    ] {
        common::click_world(&mut h, p, button);
        h.run_steps(1);
    }
    h.run_steps(2);
    let lab = &h.state().scenes.navmesh.crowd;
    assert_eq!(lab.placed.len(), 2, "{:?}", lab.placed);
    // The query's start and goal did not move: the clicks were the crowd's.
    assert_eq!(h.state().scenes.navmesh.query.start, start);
    h.state_mut().scenes.navmesh.crowd.count = 0;
    h.run_steps(1);
    h.get_by_label("Start the crowd").click();
    h.run_steps(2);
    let crowd = the_crowd(&h);
    assert_eq!(crowd.specs().len(), 2);
    let near = |a: navlab::geom::Vec2, b: navlab::geom::Vec2| a.distance(b) < 0.05;
    assert!(near(crowd.specs()[0].start, start) && near(crowd.specs()[0].goal, goal));
    assert!(near(crowd.specs()[1].start, goal) && near(crowd.specs()[1].goal, start));
    h.state_mut().scenes.navmesh.crowd.show(2000);
    let crowd = the_crowd(&h);
    assert!(
        crowd.current().agents.iter().all(|a| a.arrived.is_some()),
        "both arrive"
    );
}

/// Save crowd run (the button in the Crowd tab) writes a run file; opening it (as a dropped
/// file or `navlab open --crowd-run` would) replays it on the mesh and says it lands on every
/// recorded position; a broken file is refused with its name and line, the crowd shown kept.
#[test]
fn save_a_crowd_run_and_open_it_again() {
    use egui_kittest::Harness;
    use navlab::app::files::ScriptedDialogs;
    use navlab::app::{AppSettings, NavlabApp};
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("rush.crowd.trace.json");
    let dialogs = ScriptedDialogs {
        answers: std::collections::VecDeque::from([Some(out.clone())]),
        ..Default::default()
    };
    let app = NavlabApp::new(AppSettings::default(), Box::new(dialogs));
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
    h.run_steps(2);
    h.get_by_label("Crowd").click();
    h.run_steps(2);
    h.get_by_label("Start the crowd").click();
    h.run_steps(2);
    h.state_mut().scenes.navmesh.crowd.show(60);
    h.run_steps(1);
    h.get_by_label("Save crowd run…").click();
    h.run_steps(2);
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(
        notice.starts_with("Saved the crowd's run"),
        "{notice:?} {:?}",
        h.state().error()
    );
    let recorded: Vec<navlab::crowd::Frame> = the_crowd(&h).frames().to_vec();
    // Another crowd, then the file opened: the run saved, replayed.
    let lab = &mut h.state_mut().scenes.navmesh.crowd;
    lab.seed = 99;
    lab.count = 3;
    let mesh = std::sync::Arc::clone(h.state().scenes.navmesh.mesh());
    h.state_mut().scenes.navmesh.crowd.start(&mesh);
    h.state_mut().open_path(out.clone());
    h.run_steps(2);
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    let lab = &h.state().scenes.navmesh.crowd;
    let crowd = lab.crowd.as_ref().expect("the run replayed");
    assert_eq!(crowd.frames().get(..recorded.len()), Some(&recorded[..]));
    let notice = lab.notice.clone().unwrap_or_default();
    assert!(notice.contains("every position as recorded"), "{notice}");
    assert!(
        h.query_by_label_contains("every position as recorded")
            .is_some()
    );
    // A broken run file: refused with its name and line, the replay still shown.
    let broken = dir.path().join("broken.crowd.json");
    std::fs::write(&broken, "{\n\"navlab_crowd\": [\n").expect("write");
    h.state_mut().open_path(broken);
    h.run_steps(2);
    let error = h.state().error().unwrap_or_default().to_owned();
    assert!(
        error.contains("broken.crowd.json") && error.contains("line"),
        "{error}"
    );
    let lab = &h.state().scenes.navmesh.crowd;
    assert_eq!(
        lab.crowd.as_ref().map(|c| c.specs().len()),
        Some(recorded[0].agents.len())
    );
}

/// `navlab crowd --trace` writes a run that `navlab open MESH --crowd-run FILE` replays in the
/// window: every recorded position met, shown at the tick asked for with the agent asked for.
#[test]
fn a_run_traced_on_the_command_line_opens_in_the_window() {
    use navlab::cli::OpenArgs;
    let dir = tempfile::tempdir().expect("temp");
    let run = dir.path().join("doors.crowd.trace.json");
    let doors = common::repo_path("assets/doors.obj");
    let (code, _, stderr) = common::navlab(&[
        "crowd",
        doors.to_str().expect("utf-8"),
        "--agents",
        "12",
        "--ticks",
        "120",
        "--trace",
        run.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let mut app = app();
    let report = app.apply_launch(
        &OpenArgs {
            file: Some(doors),
            crowd_run: Some(run),
            crowd_tick: 40,
            crowd_agent: Some(3),
            ..Default::default()
        }
        .launch(),
    );
    assert!(report.open_failed.is_none(), "{:?}", report.open_failed);
    let lab = &app.scenes.navmesh.crowd;
    assert_eq!(lab.shown, 40);
    assert_eq!(lab.selected, Some(2));
    assert_eq!(lab.crowd.as_ref().map(|c| c.specs().len()), Some(12));
    let notice = lab.notice.clone().unwrap_or_default();
    assert!(notice.contains("every position as recorded"), "{notice}");
    assert!(notice.contains("recorded on doors.obj"), "{notice}");
}

/// The crowd the window shows.
fn the_crowd<'h>(
    h: &'h egui_kittest::Harness<'_, navlab::app::NavlabApp>,
) -> &'h navlab::crowd::Crowd {
    h.state()
        .scenes
        .navmesh
        .crowd
        .crowd
        .as_ref()
        .expect("a crowd")
}
