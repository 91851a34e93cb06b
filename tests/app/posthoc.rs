//! Search traces in Posthoc's format: written by `grid --trace` and `path --trace` in the shape
//! Posthoc's own sample traces have (a `version`, `views.main` drawing each event from its
//! fields, `events` with `type`, `id`, `pId`, `g`, `f`), read back into the same steps, compared
//! with another run's trace, and refused with the line when broken.

use crate::common;
use common::navlab;
use navlab::grid::{AlgorithmKind, Connectivity, SearchTuning, TileMap, grid_search};
use navlab::search::SearchEvent;
use navlab::search::posthoc::{NodeShape, export, first_difference, import};
use serde_json::{Value, json};

fn map() -> TileMap {
    common::walled_map(&["......", ".####.", "....#.", ".##.#.", "......"])
}

fn events_of(trace: &Value) -> &Vec<Value> {
    trace["events"].as_array().expect("events")
}

#[test]
fn an_exported_trace_has_posthocs_shape_and_reads_back_into_the_same_steps() {
    let map = map();
    let width = map.width();
    for kind in AlgorithmKind::ALL {
        let mut steps = Vec::new();
        let result = grid_search(
            &map,
            (0, 0),
            (5, 4),
            kind.with(SearchTuning::default()),
            Connectivity::Eight,
            &mut steps,
        );
        let trace = export(
            &steps,
            (0, map.index((5, 4))),
            NodeShape::Cell,
            |i| json!({"x": i % width, "y": i / width}),
        );
        assert_eq!(trace["version"], "1.4.0");
        assert_eq!(trace["views"]["main"][0]["$"], "rect");
        let events = events_of(&trace);
        assert_eq!(events[0]["type"], "source");
        assert_eq!(events[1]["type"], "destination");
        for event in events {
            assert!(event["type"].is_string(), "{event}");
            if ["generating", "updating", "expanding", "closing", "end"]
                .contains(&event["type"].as_str().unwrap_or(""))
            {
                for field in ["id", "g", "f", "x", "y"] {
                    assert!(!event[field].is_null(), "{field} in {event}");
                }
                assert!(event.get("pId").is_some(), "{event}");
            }
        }
        let expanding = events.iter().filter(|e| e["type"] == "expanding").count();
        assert_eq!(expanding, result.expanded, "{}", kind.name());
        // Every expansion is closed once (IDA* closes a node each time it backs up past it).
        let closing = events.iter().filter(|e| e["type"] == "closing").count();
        assert!(closing <= expanding);
        // Read back: the same expansions, the same nodes reached with the same costs.
        let text = serde_json::to_string_pretty(&trace).expect("json");
        let back = import(&text, map.width() * map.height()).expect("reads back");
        assert_eq!(first_difference(&steps, &back), None, "{}", kind.name());
        let reached = |s: &[SearchEvent]| -> Vec<(usize, u64)> {
            s.iter()
                .filter_map(|e| match e {
                    SearchEvent::Opened { node, g, .. } | SearchEvent::Improved { node, g, .. } => {
                        Some((*node, g.to_bits()))
                    }
                    _ => None,
                })
                .collect()
        };
        assert_eq!(reached(&steps), reached(&back), "{}", kind.name());
    }
}

#[test]
fn grid_writes_a_trace_and_compares_with_another_runs() {
    let dir = tempfile::tempdir().expect("temp");
    let map_file = dir.path().join("small.map");
    let rows = ["......", ".####.", "....#.", ".##.#.", "......"];
    std::fs::write(
        &map_file,
        format!(
            "type octile\nheight 5\nwidth 6\nmap\n{}\n",
            rows.join("\n").replace('#', "@")
        ),
    )
    .expect("map written");
    let map_name = map_file.to_str().expect("utf-8");
    let ours = dir.path().join("ours.trace.json");
    let ours_name = ours.to_str().expect("utf-8");
    let query = ["grid", map_name, "--from", "0,0", "--to", "5,4"];
    let (code, stdout, stderr) = navlab(&[&query[..], &["--trace", ours_name, "--json"]].concat());
    assert_eq!(code, Some(0), "{stderr}");
    let answer: Value = serde_json::from_str(&stdout).expect("json");
    let trace: Value = serde_json::from_slice(&std::fs::read(&ours).expect("trace")).expect("json");
    let expanding = events_of(&trace)
        .iter()
        .filter(|e| e["type"] == "expanding")
        .count();
    assert_eq!(expanding as u64, answer["expanded"].as_u64().expect("n"));
    // Our own trace against our own run: the same.
    let (code, _, stderr) = navlab(&[&query[..], &["--against", ours_name]].concat());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("the same"), "{stderr}");
    // Another program's run: its third and fourth expansions the other way round.
    let mut theirs = trace.clone();
    let events = theirs["events"].as_array_mut().expect("events");
    let expansions: Vec<usize> = (0..events.len())
        .filter(|&k| events[k]["type"] == "expanding")
        .collect();
    let (a, b) = (expansions[2], expansions[3]);
    let (first, second) = (events[a]["id"].clone(), events[b]["id"].clone());
    events[a]["id"] = second;
    events[b]["id"] = first.clone();
    let theirs_file = dir.path().join("theirs.trace.json");
    std::fs::write(
        &theirs_file,
        serde_json::to_string_pretty(&theirs).expect("json"),
    )
    .expect("w");
    let (code, _, stderr) = navlab(
        &[
            &query[..],
            &["--against", theirs_file.to_str().expect("utf-8")],
        ]
        .concat(),
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("first different expansion: #3"), "{stderr}");
    // A broken file and an unknown id: refused with the line.
    let broken = dir.path().join("broken.trace.json");
    std::fs::write(
        &broken,
        "{\n \"events\": [\n  {\"type\": \"expanding\", \"id\": 1},\n  {\"type\": oops}\n ]\n}\n",
    )
    .expect("w");
    let (code, _, stderr) =
        navlab(&[&query[..], &["--against", broken.to_str().expect("utf-8")]].concat());
    assert_eq!(code, Some(2));
    assert!(stderr.contains("broken.trace.json:4:"), "{stderr}");
    let unknown = dir.path().join("unknown.trace.json");
    std::fs::write(
        &unknown,
        "{\n \"events\": [\n  {\"type\": \"source\", \"id\": 0},\n  {\"type\": \"expanding\", \"id\": 999}\n ]\n}\n",
    )
    .expect("w");
    let (code, _, stderr) =
        navlab(&[&query[..], &["--against", unknown.to_str().expect("utf-8")]].concat());
    assert_eq!(code, Some(2));
    assert!(stderr.contains("unknown.trace.json:4:"), "{stderr}");
    assert!(stderr.contains("not a node"), "{stderr}");
}

#[test]
fn path_writes_the_triangles_as_polygons_then_the_funnel() {
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("rooms.trace.json");
    let rooms = common::repo_path("assets/rooms.obj");
    let (code, stdout, stderr) = navlab(&[
        "path",
        rooms.to_str().expect("utf-8"),
        "--from",
        "1,1",
        "--to",
        "5,-7",
        "--trace",
        out.to_str().expect("utf-8"),
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let answer: Value = serde_json::from_str(&stdout).expect("json");
    let trace: Value = serde_json::from_slice(&std::fs::read(&out).expect("trace")).expect("json");
    assert_eq!(trace["views"]["main"][0]["$"], "polygon");
    let events = events_of(&trace);
    let expanding: Vec<&Value> = events.iter().filter(|e| e["type"] == "expanding").collect();
    assert_eq!(
        expanding.len() as u64,
        answer["expanded"].as_u64().expect("n")
    );
    assert!(
        expanding
            .iter()
            .all(|e| e["points"].as_array().map(Vec::len) == Some(3))
    );
    let corners = events
        .iter()
        .filter(|e| e["type"] == "funnel_corner")
        .count();
    let waypoints = answer["waypoints"].as_array().expect("waypoints").len();
    assert!(
        corners >= waypoints - 2,
        "{corners} corners, {waypoints} waypoints"
    );
    assert_eq!(
        events.last().map(|e| e["type"].clone()),
        Some(json!("funnel_end"))
    );
}

/// In the window: File → Compare with a trace… replays another program's trace of the tile
/// map's query with the view's panels, says where it first expands another cell, goes there,
/// and Back to ours shows our run again.
#[test]
fn the_window_replays_a_trace_beside_our_run() {
    use egui_kittest::kittest::Queryable;
    use navlab::app::files::ScriptedDialogs;
    use navlab::app::{AppSettings, NavlabApp};
    let dir = tempfile::tempdir().expect("temp");
    let theirs = dir.path().join("student.trace.json");
    let dialogs = ScriptedDialogs {
        answers: std::collections::VecDeque::from([Some(theirs.clone())]),
        ..Default::default()
    };
    let app = NavlabApp::new(AppSettings::default(), Box::new(dialogs));
    let mut h = common::harness(app);
    h.get_by_label("Tile map").click();
    h.run_steps(3);
    // The student's run: ours, with the 3rd and 4th expansions the other way round.
    let (ours, map, start, goal) = {
        let grid = &h.state().scenes.tile_map;
        (
            grid.search.events.clone(),
            h.state().map.map.clone(),
            grid.start,
            grid.goal,
        )
    };
    let width = map.width();
    let mut trace = export(
        &ours,
        (map.index(start), map.index(goal)),
        NodeShape::Cell,
        |i| json!({"x": i % width, "y": i / width}),
    );
    let events = trace["events"].as_array_mut().expect("events");
    let expanding: Vec<usize> = (0..events.len())
        .filter(|&k| events[k]["type"] == "expanding")
        .collect();
    let (a, b) = (expanding[2], expanding[3]);
    let (first, second) = (events[a]["id"].clone(), events[b]["id"].clone());
    events[a]["id"] = second.clone();
    events[b]["id"] = first.clone();
    std::fs::write(&theirs, trace.to_string()).expect("written");

    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Compare with a trace…").click();
    h.run_steps(3);
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    h.get_by_label("Replaying student.trace.json (theirs)");
    let cell = |v: &Value| {
        let i = v.as_u64().expect("id") as usize;
        format!("{},{}", i % width, i / width)
    };
    h.get_by_label(&format!(
        "First different expansion: #3: ours {}, theirs {}",
        cell(&first),
        cell(&second)
    ));
    // The replay stands at the trace's third expansion: its cell is the one expanded.
    let grid = &h.state().scenes.tile_map;
    let shown = grid.playback.cursor;
    assert!(matches!(
        grid.search.events[shown - 1],
        SearchEvent::Expanded { node, .. } if Some(node as u64) == second.as_u64()
    ));
    h.get_by_label("Back to ours").click();
    h.run_steps(2);
    let grid = &h.state().scenes.tile_map;
    assert!(grid.imported.is_none());
    assert_eq!(grid.search.events, ours);
}
