//! A crowd's run file: Posthoc reads it as a trace (version, a view, typed events, one tick
//! event per frame), navlab reads it back and the replay lands on every recorded position; a
//! stranger's file is refused with where and why, before anything runs.

use navlab_core::crowd::run_file::{self, RunFileError};
use navlab_core::crowd::{Crowd, CrowdSettings};
use navlab_core::navmesh::NavMesh;
use serde_json::{Value, json};
use std::sync::Arc;

fn scene(name: &str) -> Arc<NavMesh> {
    let scene = navlab_core::assets::ALL
        .iter()
        .find(|s| s.name == name)
        .expect("a built-in scene");
    Arc::new(
        navlab_core::navmesh::obj::parse(scene.obj, scene.name, navlab_core::navmesh::Plane::Xz)
            .expect("parses"),
    )
}

fn recorded_run() -> (Arc<NavMesh>, Crowd, Value) {
    let mesh = scene("doors.obj");
    let specs = Crowd::random_specs(&mesh, 12, 0.25, 1.2, 3);
    assert_eq!(specs.len(), 12);
    let mut crowd = Crowd::new(Arc::clone(&mesh), specs, CrowdSettings::default());
    crowd.run(150);
    let file = run_file::write(&crowd, "doors.obj");
    (mesh, crowd, file)
}

#[test]
fn a_run_file_is_a_posthoc_trace_with_a_tick_event_per_frame() {
    let (mesh, crowd, file) = recorded_run();
    assert_eq!(file["version"], "1.4.0");
    assert!(
        file["views"]["main"]
            .as_array()
            .is_some_and(|v| v.len() == 2)
    );
    let events = file["events"].as_array().expect("events");
    assert!(
        events
            .iter()
            .all(|e| e["type"].is_string() && e["id"].is_string())
    );
    let ticks: Vec<&Value> = events.iter().filter(|e| e["type"] == "tick").collect();
    assert_eq!(ticks.len(), crowd.frames().len());
    let walls = events.iter().filter(|e| e["type"] == "wall").count();
    let borders = mesh.edges().iter().filter(|e| e.is_border()).count();
    assert_eq!(walls, borders);
    for (event, frame) in ticks.iter().zip(crowd.frames()) {
        assert_eq!(
            event["agents"].as_array().map(Vec::len),
            Some(frame.agents.len())
        );
    }
}

#[test]
fn a_run_read_back_replays_onto_every_recorded_position() {
    let (mesh, crowd, file) = recorded_run();
    let run = run_file::read(file.to_string().as_bytes()).expect("reads");
    assert_eq!(run.specs, crowd.specs());
    assert_eq!(&run.settings, crowd.settings());
    assert_eq!(run.positions.len(), crowd.frames().len());
    for (at, frame) in run.positions.iter().zip(crowd.frames()) {
        for (p, agent) in at.iter().zip(&frame.agents) {
            assert_eq!(p.x.to_bits(), agent.position.x.to_bits());
            assert_eq!(p.y.to_bits(), agent.position.y.to_bits());
        }
    }
    let (replayed, difference) = run_file::replay(Arc::clone(&mesh), &run);
    assert_eq!(
        difference,
        None,
        "{}",
        run_file::replay_sentence(&run, difference)
    );
    assert_eq!(replayed.frames(), crowd.frames());
}

#[test]
fn a_replay_that_leaves_the_recording_says_where() {
    let (mesh, _, file) = recorded_run();
    let run = run_file::read(file.to_string().as_bytes()).expect("reads");
    // A replay that stops early (its crowd all home) leaves the recording where it stops.
    let short = {
        let mut crowd = Crowd::new(Arc::clone(&mesh), run.specs.clone(), run.settings);
        crowd.run(1);
        crowd
    };
    let ended = run_file::first_difference(&short, &run).expect("ends early");
    assert_eq!(ended.tick, 2);
    assert!(run_file::replay_sentence(&run, Some(ended)).contains("ends at tick 1"));
    // One recorded position moved: that tick and that agent, by that much.
    let mut moved = run.clone();
    if let Some(p) = moved.positions.get_mut(40).and_then(|t| t.get_mut(5)) {
        p.x += 0.01;
    }
    let (_, difference) = run_file::replay(mesh, &moved);
    let difference = difference.expect("differs");
    assert_eq!((difference.tick, difference.agent), (40, 5));
    assert!((difference.distance - 0.01).abs() < 1e-9);
    let sentence = run_file::replay_sentence(&moved, Some(difference));
    assert!(
        sentence.contains("tick 40") && sentence.contains("agent 6"),
        "{sentence}"
    );
}

#[test]
fn a_strangers_file_is_refused_with_where_and_why() {
    let (_, _, file) = recorded_run();
    let refused =
        |value: &Value| run_file::read(value.to_string().as_bytes()).expect_err("refused");
    // Not JSON: the line and column.
    let error = run_file::read(b"{\n  \"events\": [\n    oops\n").expect_err("not JSON");
    assert!(
        matches!(error, RunFileError::Json { line: 3, .. }),
        "{error}"
    );
    assert!(!error.to_string().contains("oops"), "{error}");
    // A search trace, or no section.
    let search = json!({"version": "1.4.0", "events": [{"type": "source", "id": 0}]});
    assert_eq!(refused(&search), RunFileError::NotARun);
    // Values out of range, named.
    type Change = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Change)> = vec![
        (
            "agent 3",
            Box::new(|f| f["navlab_crowd"]["agents"][2]["radius"] = json!(-1.0)),
        ),
        (
            "agent 1",
            Box::new(|f| f["navlab_crowd"]["agents"][0]["start"]["x"] = json!(1e300)),
        ),
        (
            "agent 2",
            Box::new(|f| f["navlab_crowd"]["agents"][1]["max_speed"] = json!(0.5)),
        ),
        (
            "time_step",
            Box::new(|f| f["navlab_crowd"]["settings"]["time_step"] = json!(0.0)),
        ),
        (
            "max_neighbours",
            Box::new(|f| {
                f["navlab_crowd"]["settings"]["avoidance"]["max_neighbours"] = json!(1_000_000)
            }),
        ),
        (
            "1 to 10000 agents",
            Box::new(|f| f["navlab_crowd"]["agents"] = json!([])),
        ),
        (
            "mesh changed",
            Box::new(|f| f["navlab_crowd"]["mesh_changes"] = json!([4])),
        ),
        (
            "records 11 agents",
            Box::new(|f| {
                if let Some(agents) = f["events"]
                    .as_array_mut()
                    .and_then(|e| e.iter_mut().rev().find(|e| e["type"] == "tick"))
                    .and_then(|e| e["agents"].as_array_mut())
                {
                    agents.pop();
                }
            }),
        ),
        (
            "where tick",
            Box::new(|f| {
                if let Some(events) = f["events"].as_array_mut() {
                    let at = events
                        .iter()
                        .position(|e| e["type"] == "tick")
                        .expect("a tick");
                    events.remove(at + 1);
                }
            }),
        ),
    ];
    for (said, change) in cases {
        let mut bad = file.clone();
        change(&mut bad);
        let error = refused(&bad);
        assert!(matches!(error, RunFileError::Invalid(_)), "{said}: {error}");
        assert!(error.to_string().contains(said), "{said}: {error}");
    }
}

#[test]
fn run_files_are_told_by_name() {
    use std::path::Path;
    assert!(run_file::is_run_path(Path::new("rush.crowd.trace.json")));
    assert!(run_file::is_run_path(Path::new("dir/Rush.CROWD.json")));
    assert!(!run_file::is_run_path(Path::new("map.json")));
    assert!(!run_file::is_run_path(Path::new("search.trace.json")));
}
