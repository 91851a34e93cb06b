//! The command line as scripts use it: JSON output, exit codes, the Blender export.

use crate::common;
use common::*;
use serde_json::Value;
use std::process::Command;

fn polyline_length(points: &[Value]) -> f64 {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (p[0].as_f64().expect("x"), p[1].as_f64().expect("z")))
        .collect();
    pts.windows(2)
        .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
        .sum()
}

#[test]
fn path_json_has_the_documented_fields_and_a_consistent_length() {
    let maze = repo_path("assets/maze.obj");
    for cost in ["centroid", "midpoint"] {
        let (code, stdout, stderr) = navlab(&[
            "path",
            maze.to_str().expect("utf-8"),
            "--from",
            "0.5,0.5",
            "--to",
            "8.5,8.5",
            "--cost",
            cost,
            "--json",
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        let v: Value = serde_json::from_str(&stdout).expect("one JSON object");
        assert_eq!(v["status"], "found");
        let waypoints = v["waypoints"].as_array().expect("waypoints");
        assert_eq!(waypoints.first(), Some(&serde_json::json!([0.5, 0.5])));
        assert_eq!(waypoints.last(), Some(&serde_json::json!([8.5, 8.5])));
        let length = v["length"].as_f64().expect("length");
        assert!((length - polyline_length(waypoints)).abs() < 1e-9);
        assert!(v["corridor"].as_array().expect("corridor").len() > 10);
        assert!(v["expanded"].as_u64().expect("expanded") > 0);
    }
}

#[test]
fn unreachable_exits_1_and_snapped_exits_0() {
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("two-islands.obj");
    std::fs::write(
        &file,
        "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 5 0 0\nv 6 0 0\nv 5 0 1\nf 1 2 3\nf 4 5 6\n",
    )
    .expect("write");
    let f = file.to_str().expect("utf-8");
    let (code, stdout, _) = navlab(&["path", f, "--from", "0.2,0.2", "--to", "5.2,0.2", "--json"]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["status"], "unreachable");
    assert_eq!(v["waypoints"], serde_json::json!([]));

    let (code, stdout, _) = navlab(&["path", f, "--from", "-1,0.2", "--to", "0.2,0.2", "--json"]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["status"], "snapped");
    assert_eq!(v["waypoints"][0][0], 0.0);
    assert_close(v["waypoints"][0][1].as_f64().expect("z"), 0.2, 1e-12);

    // Text output says what happened in words.
    let (code, stdout, _) = navlab(&["path", f, "--from", "0.2,0.2", "--to", "5.2,0.2"]);
    assert_eq!(code, Some(1));
    assert!(stdout.contains("no path"), "{stdout}");

    // A start far off, within the coordinates navlab takes, snaps; past them it is refused.
    let (code, stdout, _) = navlab(&["path", f, "--from", "-9e8,0.2", "--to", "0.2,0.2"]);
    assert_eq!(code, Some(0));
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("start (-900000000.000, 0.200) is off the mesh"),
        "{stdout}"
    );
    let (code, _, stderr) = navlab(&["path", f, "--from", "1e300,0.2", "--to", "0.2,0.2"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("beyond ±1e9"), "{stderr}");
}

#[test]
fn xy_plane_option_reads_2d_obj_files() {
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("flat.obj");
    std::fs::write(&file, "v 0 0 0\nv 4 0 0\nv 4 4 0\nv 0 4 0\nf 1 2 3 4\n").expect("write");
    let f = file.to_str().expect("utf-8");
    // Flat in XZ, the plane asked for by default: read in XY, where it lies, and said so.
    let (code, stdout, _) = navlab(&["info", f]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.contains("plane:              xy (the file is flat in the xz plane asked for)"),
        "{stdout}"
    );
    let (code, stdout, _) = navlab(&["info", f, "--json"]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(
        (v["plane"].as_str(), v["plane_from_file"].as_bool()),
        (Some("xy"), Some(true))
    );
    let (code, stdout, _) = navlab(&[
        "path", f, "--plane", "xy", "--from", "1,1", "--to", "3,3", "--json",
    ]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert!((v["length"].as_f64().expect("length") - 8f64.sqrt()).abs() < 1e-12);
}

/// A mesh read in the XY plane (every Polyanya `.mesh`) and written as OBJ is written Y up,
/// as exporters write it: it opens again with no flag, in the same plane coordinates, its
/// faces facing up, and its edits file with it. Before, `cut arena.mesh --out a.obj` then
/// `path a.obj` failed: "no triangles with area in the XZ plane".
#[test]
fn a_mesh_navlab_writes_from_the_xy_plane_opens_again_with_no_flag() {
    let dir = tempfile::tempdir().expect("temp");
    let square = dir.path().join("square.obj");
    std::fs::write(
        &square,
        "v 0 0 0\nv 8 0 0\nv 8 8 0\nv 0 8 0\nv 4 4 2\nf 1 2 5\nf 2 3 5\nf 3 4 5\nf 4 1 5\n",
    )
    .expect("write");
    let square = square.to_str().expect("utf-8");
    let polyanya = dir.path().join("square.mesh");
    let polyanya = polyanya.to_str().expect("utf-8");
    let (code, _, stderr) = navlab(&["convert", square, "--plane", "xy", "-o", polyanya]);
    assert_eq!(code, Some(0), "{stderr}");
    let cut = dir.path().join("cut.obj");
    let cut = cut.to_str().expect("utf-8");
    let (code, _, stderr) = navlab(&["cut", polyanya, "--out", cut, "--rect", "3,3,5,5"]);
    assert_eq!(code, Some(0), "{stderr}");
    let text = std::fs::read_to_string(cut).expect("written");
    assert!(
        text.lines()
            .any(|l| l.starts_with("v ") && l.ends_with(" 0 8")),
        "Y up:\n{text}"
    );
    for args in [vec![], vec!["--plane", "xy"], vec!["--max-slope", "10"]] {
        let mut command = vec!["path", cut, "--from", "1,1", "--to", "7,7", "--json"];
        command.extend(args.iter().copied());
        let (code, stdout, stderr) = navlab(&command);
        assert_eq!(code, Some(0), "{command:?}: {stderr}");
        let v: Value = serde_json::from_str(&stdout).expect("json");
        assert_eq!(v["status"], "found", "{command:?}");
        // Round the hole in the middle, in the plane coordinates it was cut in.
        let length = v["length"].as_f64().expect("length");
        assert!(length > 72f64.sqrt() + 0.1, "{command:?}: {length}");
    }
    let (_, stdout, _) = navlab(&["info", cut, "--json"]);
    let info: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(info["plane"], "xz");
    assert_eq!(info["plane_from_file"], false);
    let (_, stdout, _) = navlab(&["check", cut, "--json"]);
    assert!(!stdout.contains("inconsistent_winding"), "{stdout}");
    // The edits file beside it makes the cut editable again.
    let mesh = navlab::navmesh::NavMesh::load(std::path::Path::new(cut), Default::default())
        .expect("loads");
    let editor = navlab::navmesh::edit::saved::read_beside(std::path::Path::new(cut), &mesh)
        .expect("the edits fit")
        .expect("an edits file");
    assert_eq!(editor.shapes().len(), 1);
}

#[test]
fn info_json_reports_counts_islands_and_non_manifold_edges() {
    let stairs = repo_path("assets/stairs.obj");
    let (code, stdout, _) = navlab(&["info", stairs.to_str().expect("utf-8"), "--json"]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["triangles"], 12);
    assert_eq!(v["non_manifold_edges"], 1);
    assert_eq!(v["islands"], 1);
}

#[test]
fn blender_export_gives_valid_paths_from_the_cli() {
    let Some(file) = testdata("meshes/obj/level.nav.obj") else {
        return;
    };
    let mesh = navlab::navmesh::NavMesh::load(&file, navlab::navmesh::Plane::Xz).expect("loads");
    // Two centroids on the same island, far apart.
    let tris = mesh.triangles();
    let island0: Vec<usize> = (0..tris.len())
        .filter(|&t| mesh.island_of(t) == mesh.island_of(0))
        .collect();
    let (a, b) = (
        tris[island0[0]].centroid,
        tris[*island0.last().expect("non-empty")].centroid,
    );
    let (from, to) = (format!("{},{}", a.x, a.y), format!("{},{}", b.x, b.y));
    let (code, stdout, stderr) = navlab(&[
        "path",
        file.to_str().expect("utf-8"),
        "--from",
        &from,
        "--to",
        &to,
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["status"], "found");
    let waypoints: Vec<navlab::geom::Vec2> = v["waypoints"]
        .as_array()
        .expect("waypoints")
        .iter()
        .map(|q| p(q[0].as_f64().expect("x"), q[1].as_f64().expect("z")))
        .collect();
    assert_inside_mesh(&mesh, &waypoints);
}

#[test]
fn demo_walks_through_the_default_scene_step_by_step() {
    let (code, stdout, stderr) = navlab(&["demo"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("rooms.obj"));
    assert!(stdout.contains("expand triangle"));
    assert!(stdout.contains("corner at"));
    assert!(stdout.contains("goal's triangle reached: the corridor costs"));
    assert!(stdout.contains("goal reached"));
    for scene in ["maze", "hole", "stairs"] {
        let (code, stdout, _) = navlab(&["demo", "--scene", scene, "--cost", "midpoint"]);
        assert_eq!(code, Some(0));
        assert!(stdout.contains("goal reached"), "{scene}");
    }
}

fn write_map(dir: &std::path::Path, name: &str, rows: &str) -> String {
    let rows: Vec<&str> = rows
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let text = format!(
        "type octile\nheight {}\nwidth {}\nmap\n{}\n",
        rows.len(),
        rows[0].len(),
        rows.join("\n")
    );
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_str().expect("utf-8").to_string()
}

#[test]
fn grid_json_reports_path_length_expanded_and_memory() {
    let dir = tempfile::tempdir().expect("temp");
    let map = write_map(dir.path(), "u.map", "....\n.@@.\n.@@.\n....\n@@@@\n.S.W");
    for algo in ["bfs", "dijkstra", "astar", "idastar", "fringe"] {
        let (code, stdout, stderr) = navlab(&[
            "grid", &map, "--from", "0,1", "--to", "3,2", "--algo", algo, "--json",
        ]);
        assert_eq!(code, Some(0), "{algo}: {stderr}");
        let v: Value = serde_json::from_str(&stdout).expect("json");
        assert_eq!(v["status"], "found");
        assert_eq!(v["path"][0], serde_json::json!([0, 1]));
        assert_eq!(
            v["path"].as_array().expect("path").last(),
            Some(&serde_json::json!([3, 2]))
        );
        assert!(v["expanded"].as_u64().expect("n") > 0);
        assert!(v["peak_memory"].as_u64().expect("n") > 0);
        // Around the block: no diagonal may cut its corners, so 6 straight steps.
        assert_close(v["length"].as_f64().expect("f"), 6.0, 1e-12);
    }
    // --steps explains the search: Fringe's second pass continues from its later list, IDA*'s
    // starts again; as many steps as a recorded run has events.
    for (algo, pass_two) in [
        ("fringe", "the later list becomes the now list"),
        ("idastar", "search again from the start"),
    ] {
        let (code, stdout, stderr) = navlab(&[
            "grid", &map, "--from", "0,1", "--to", "3,2", "--algo", algo, "--steps", "--json",
        ]);
        assert_eq!(code, Some(0), "{algo}: {stderr}");
        let v: Value = serde_json::from_str(&stdout).expect("json");
        let listed = v["steps"].as_array().expect("steps");
        let steps: Vec<&str> = listed.iter().filter_map(|s| s["text"].as_str()).collect();
        assert_eq!(steps.len(), listed.len());
        // Each step on its line of `navlab pseudocode ALGO`, expansions on the expansion line.
        assert_eq!(v["pseudocode"], algo);
        let expansion_line = navlab::search::pseudocode::Listing::from_name(algo)
            .and_then(|l| l.expansion_line())
            .expect("a search listing");
        for step in listed {
            let line = step["line"].as_u64().expect("every step has its line");
            let text = step["text"].as_str().expect("text");
            assert_eq!(
                line == expansion_line as u64,
                text.starts_with("expand "),
                "{step}"
            );
        }
        assert!(
            steps.contains(&"pass 1: threshold f = 3.41, the start's estimate"),
            "{steps:?}"
        );
        assert!(
            steps
                .iter()
                .any(|s| s.starts_with("pass 2:") && s.ends_with(pass_two)),
            "{steps:?}"
        );
        // The last step names the cost the JSON reports.
        let length = v["length"].as_f64().expect("length");
        let last = format!("goal reached: the path found costs {length:.2}");
        assert_eq!(steps.last(), Some(&last.as_str()));
        let expansions = steps.iter().filter(|s| s.starts_with("expand ")).count();
        assert_eq!(expansions as u64, v["expanded"].as_u64().expect("n"));
        let (_, text, _) = navlab(&[
            "grid", &map, "--from", "0,1", "--to", "3,2", "--algo", algo, "--steps",
        ]);
        assert!(
            text.contains(&format!("  {}. goal reached", steps.len())),
            "{text}"
        );
    }
    // The bottom row is cut off by the wall row.
    let (code, stdout, _) = navlab(&["grid", &map, "--from", "0,0", "--to", "0,5", "--json"]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["status"], "unreachable");
    assert_eq!(v["length"], Value::Null);
    // Sand costs 2: from (0,5) to (2,5) through the sand at (1,5).
    let (_, stdout, _) = navlab(&["grid", &map, "--from", "0,5", "--to", "2,5", "--json"]);
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_close(v["length"].as_f64().expect("f"), 3.0, 1e-12);
    // Bad cells are bad input.
    for (from, why) in [
        ("1,1", "wall"),
        ("9,9", "off the map"),
        ("a,1", "not a whole number"),
    ] {
        let (code, _, stderr) = navlab(&["grid", &map, "--from", from, "--to", "0,0"]);
        assert_eq!(code, Some(2), "{from}");
        assert!(stderr.contains(why), "{from}: {stderr}");
    }
}

#[test]
fn idastar_over_budget_says_so_and_exits_1() {
    let dir = tempfile::tempdir().expect("temp");
    let map = write_map(dir.path(), "open.map", &"..........\n".repeat(10));
    let (code, stdout, _) = navlab(&[
        "grid",
        &map,
        "--from",
        "0,0",
        "--to",
        "9,9",
        "--algo",
        "idastar",
        "--heuristic",
        "zero",
        "--budget",
        "50",
        "--json",
    ]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["status"], "budget_exceeded");
    assert_eq!(v["path"], serde_json::json!([]));
}

#[test]
fn scen_matches_every_arena_scenario_and_reports_mismatches() {
    let Some(scen) = testdata("movingai/arena.map.scen") else {
        return;
    };
    let scen = scen.to_str().expect("utf-8");
    let (code, stdout, stderr) = navlab(&["scen", scen, "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["scenarios"], 160);
    assert_eq!(v["matched"], 160);
    assert_eq!(v["details"].as_array().expect("details").len(), 160);
    // BFS ignores diagonal costs' difference, so some lengths differ: exit 1 and say which.
    let (code, stdout, _) = navlab(&["scen", scen, "--algo", "bfs"]);
    assert_eq!(code, Some(1));
    assert!(stdout.contains("of 160 scenarios match"), "{stdout}");
    assert!(stdout.contains("line "), "{stdout}");
}

#[test]
fn mesh_with_an_agent_radius_keeps_clear_of_walls_and_the_edge() {
    let dir = tempfile::tempdir().expect("temp");
    // A 6 × 4 room with one pillar.
    let map = write_map(dir.path(), "room.map", "......\n.@....\n......\n......");
    let out = dir.path().join("room.obj");
    let out = out.to_str().expect("utf-8");
    let (code, stdout, stderr) =
        navlab(&["mesh", &map, "-o", out, "--agent-radius", "0.5", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let summary: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(
        summary["bounds"]["min"],
        serde_json::json!({"x": 0.5, "y": 0.5})
    );
    assert_eq!(
        summary["bounds"]["max"],
        serde_json::json!({"x": 5.5, "y": 3.5})
    );
    // The 5 × 3 room left minus the pillar grown to a 2 × 2 square ([0.5, 2.5] on both axes).
    let area = summary["area"].as_f64().expect("area");
    assert!((area - (15.0 - 4.0)).abs() < 1e-9, "{area}");
    // Rounded to eighths of a tile, and said so.
    let (code, stdout, stderr) =
        navlab(&["mesh", &map, "-o", out, "--agent-radius", "0.49", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("agent radius 0.49 rounded to 0.5"),
        "{stderr}"
    );
    let rounded: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(rounded["area"], summary["area"]);
    // Too big for the room, or not a radius: exit 2, and the file from before stays.
    let before = std::fs::read(out).expect("written");
    for (radius, why) in [
        ("2", "fits nowhere"),
        ("-1", "not a number from 0 to 16"),
        ("NaN", "not a number"),
    ] {
        let (code, _, stderr) =
            navlab(&["mesh", &map, "-o", out, &format!("--agent-radius={radius}")]);
        assert_eq!(code, Some(2), "{radius}");
        assert!(
            stderr.contains("room.map") && stderr.contains(why),
            "{radius}: {stderr}"
        );
    }
    assert_eq!(std::fs::read(out).expect("still there"), before);
}

#[test]
fn scen_names_scenarios_that_start_or_end_off_the_map_or_in_a_wall_and_a_wrong_map() {
    let dir = tempfile::tempdir().expect("temp");
    let map = write_map(dir.path(), "small.map", "...\n.@.\n...");
    let scen = dir.path().join("small.map.scen");
    std::fs::write(
        &scen,
        "version 1\n\
         0\tsmall.map\t3\t3\t0\t0\t2\t2\t4\n\
         0\tsmall.map\t3\t3\t0\t0\t1\t1\t1.41421\n\
         0\tsmall.map\t3\t3\t0\t0\t7\t2\t7\n",
    )
    .expect("write");
    let scen = scen.to_str().expect("utf-8");
    let (code, stdout, stderr) = navlab(&["scen", scen, "--map", &map, "--json"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.is_empty(), "the sizes agree: {stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    let details = v["details"].as_array().expect("details");
    // Around the pillar in four straight steps (diagonals may not cut its corners).
    assert_eq!(details[0]["status"], "found");
    assert_eq!(details[0]["matches"], true);
    assert_eq!(details[1]["status"], "invalid");
    assert_eq!(
        details[1]["problem"],
        "goal 1,1 is a wall tile: agents cannot stand there"
    );
    assert_eq!(details[2]["status"], "invalid");
    assert!(
        details[2]["problem"]
            .as_str()
            .expect("problem")
            .contains("goal 7,2 is off the map (3 columns × 3 rows)"),
        "{}",
        details[2]
    );
    let (_, stdout, _) = navlab(&["scen", scen, "--map", &map]);
    assert!(
        stdout.contains("line 3: [0,0] → [1,1]: listed 1.41421, goal 1,1 is a wall tile"),
        "{stdout}"
    );
    // The same scenarios against a map of another size: one warning names both sizes.
    let other = write_map(dir.path(), "wide.map", "....\n....\n....");
    let (_, _, stderr) = navlab(&["scen", scen, "--map", &other]);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("line 2 is for a 3×3 map (small.map)"),
        "{stderr}"
    );
    assert!(stderr.contains("is 4×3"), "{stderr}");
}

#[test]
fn pursue_json_reports_catches_states_and_the_avoidance_bug() {
    let dir = tempfile::tempdir().expect("temp dir");
    let map = write_map(dir.path(), "corner.map", CORNER_MAP);
    // The scene's output, text or (with --json) JSON.
    let output = |extra: &[&str]| {
        let mut args = vec![
            "pursue",
            &map,
            "--kitten",
            "12.5,1.5",
            "--mob",
            "2.5,10.5",
            "--mob",
            "27.5,10.5",
            "--route",
            "20.5,1.5",
            "20.5,8.5",
            "--seconds",
            "30",
        ];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = navlab(&args);
        assert_eq!(code, Some(0), "{stderr}");
        stdout
    };
    let run = |extra: &[&str]| {
        let json = output(&[extra, &["--json"]].concat());
        serde_json::from_str::<Value>(&json).expect("json")
    };
    let fixed = run(&[]);
    let mobs = fixed["mobs"].as_array().expect("mobs");
    assert_eq!(mobs.len(), 2);
    for mob in mobs {
        assert!(mob["caught_at"].as_f64().is_some(), "{mob}");
        assert_eq!(mob["entered_blocked_tile"], Value::Bool(false));
        let states = mob["states"].as_array().expect("states");
        let mut last = -1.0;
        for entry in states {
            let t = entry[0].as_f64().expect("time");
            assert!(t > last, "times increase: {states:?}");
            last = t;
            let name = entry[1].as_str().expect("state");
            assert!(["chasing", "tracking", "lost"].contains(&name), "{name}");
        }
        // lost_at is the first "lost" in the timeline.
        let first_lost = states
            .iter()
            .find(|e| e[1] == "lost")
            .and_then(|e| e[0].as_f64());
        assert_eq!(mob["lost_at"].as_f64(), first_lost);
    }
    let buggy = run(&["--no-avoid"]);
    assert_eq!(buggy["mobs"][0]["entered_blocked_tile"], Value::Bool(true));
    assert_eq!(buggy["mobs"][0]["caught_at"], Value::Null);
    // The text says the same, in words: a count and a first time, or never.
    for (extra, json) in [(&[][..], &fixed), (&["--no-avoid"][..], &buggy)] {
        let stdout = output(extra);
        for (i, mob) in json["mobs"].as_array().expect("mobs").iter().enumerate() {
            let line = stdout
                .lines()
                .find(|l| l.starts_with(&format!("mob {}: ", i + 1)))
                .unwrap_or_else(|| panic!("{stdout}"));
            let caught = match mob["caught_at"].as_f64() {
                Some(t) => format!(
                    "caught the kitten {} time{}, first at {t:.2} s",
                    mob["catches"],
                    if mob["catches"] == 1 { "" } else { "s" }
                ),
                None => "never caught the kitten".to_string(),
            };
            let lost = match mob["lost_at"].as_f64() {
                Some(t) => format!("first lost the trail at {t:.2} s"),
                None => "never lost the trail".to_string(),
            };
            assert!(line.contains(&format!("{caught}; {lost}")), "{line}");
        }
    }
}

#[test]
fn pursue_rejects_bad_placements_and_files_with_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let map = write_map(dir.path(), "corner.map", CORNER_MAP);
    for (args, needle) in [
        (vec!["--kitten", "14.5,5.5", "--mob", "1.5,1.5"], "wall"),
        (vec!["--kitten", "1.5,1.5", "--mob", "99,1"], "outside"),
        (
            vec!["--kitten", "1.5,1.5", "--mob", "2.5,2.5", "--decay", "0"],
            "decay",
        ),
        (
            vec![
                "--kitten", "1.5,1.5", "--mob", "2.5,2.5", "--route", "14.2,9",
            ],
            "route point 1",
        ),
    ] {
        let mut all = vec!["pursue", map.as_str()];
        all.extend(args);
        let (code, _, stderr) = navlab(&all);
        assert_eq!(code, Some(2), "{all:?}: {stderr}");
        assert!(stderr.contains(needle), "{all:?}: {stderr}");
    }
    let missing = dir.path().join("missing.map");
    let (code, _, stderr) = navlab(&[
        "pursue",
        missing.to_str().expect("utf-8"),
        "--kitten",
        "1,1",
        "--mob",
        "2,2",
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("missing.map"), "{stderr}");
}

fn write_obj(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_str().expect("utf-8").to_string()
}

const CLEAN_OBJ: &str =
    "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nv 2 0 1\nf 1 4 3 2\nf 2 3 6 5\n";
const DUPLICATE_OBJ: &str =
    "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv 2 0 0\nv 2 0 1\nv 1 0 0\nf 1 4 3 2\nf 7 3 6 5\n";
// The tall face's edge from (1,0,0) to (1,0,2) passes through (1,0,1), a corner of the two
// faces on its right: they share no edge with it, so the mesh falls into two islands.
const T_JUNCTION_OBJ: &str = "v 0 0 0\nv 1 0 0\nv 1 0 2\nv 0 0 2\nv 2 0 0\nv 2 0 1\nv 1 0 1\nv 2 0 2\nf 1 4 3 2\nf 2 7 6 5\nf 7 3 8 6\n";

#[test]
fn check_exit_codes_follow_severity_and_strict() {
    let dir = tempfile::tempdir().expect("temp dir");
    let clean = write_obj(dir.path(), "clean.obj", CLEAN_OBJ);
    let dup = write_obj(dir.path(), "dup.obj", DUPLICATE_OBJ);
    let tj = write_obj(dir.path(), "tj.obj", T_JUNCTION_OBJ);
    let garbage = write_obj(dir.path(), "garbage.obj", "this is not a mesh\n");
    for (file, strict, want) in [
        (&clean, false, 0),
        (&clean, true, 0),
        (&dup, false, 0),
        (&dup, true, 1),
        (&tj, false, 1),
        (&garbage, false, 2),
    ] {
        let mut args = vec!["check", file.as_str()];
        if strict {
            args.push("--strict");
        }
        let (code, stdout, stderr) = navlab(&args);
        assert_eq!(code, Some(want), "{args:?}: {stdout}{stderr}");
    }
    let (_, stdout, _) = navlab(&["check", &clean]);
    assert!(stdout.contains("clean"), "{stdout}");
    let (_, _, stderr) = navlab(&["check", &garbage]);
    assert!(stderr.contains("garbage.obj"), "{stderr}");
}

#[test]
fn check_json_locates_each_finding() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tj = write_obj(dir.path(), "tj.obj", T_JUNCTION_OBJ);
    let (code, stdout, stderr) = navlab(&["check", &tj, "--json"]);
    assert_eq!(code, Some(1), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(report["islands"], 2, "the T-junction disconnects");
    let findings = report["findings"].as_array().expect("findings");
    let tjunction = findings
        .iter()
        .find(|f| f["kind"] == "t_junction")
        .expect("t_junction");
    assert_eq!(tjunction["severity"], "error");
    assert_eq!(tjunction["count"], 1);
    let item = &tjunction["items"][0];
    assert_eq!(item["faces"], serde_json::json!([0]));
    assert_eq!(item["vertices"][0], 6, "vertex 7 in the file, 0-based");
    assert_eq!(item["at"], serde_json::json!([1.0, 1.0]));
    for f in findings {
        assert_eq!(
            f["count"].as_u64(),
            f["items"].as_array().map(|a| a.len() as u64)
        );
    }
}

#[test]
fn check_repair_writes_a_mesh_that_checks_clean() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tj = write_obj(dir.path(), "tj.obj", T_JUNCTION_OBJ);
    let out = dir.path().join("fixed.obj");
    let out_str = out.to_str().expect("utf-8");
    let (code, stdout, stderr) = navlab(&["check", &tj, "--repair", out_str, "--json"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(
        report["islands"], 1,
        "the T-junction no longer splits the mesh"
    );
    assert_eq!(report["repaired"]["split"], 1);
    assert_eq!(report["findings"], serde_json::json!([]));
    // The written file is a mesh navlab (and anyone) can read, and it checks clean.
    let (code, stdout, _) = navlab(&["check", out_str, "--strict"]);
    assert_eq!(code, Some(0), "{stdout}");
    let (code, _, _) = navlab(&["path", out_str, "--from", "0.5,1.5", "--to", "1.5,1.5"]);
    assert_eq!(code, Some(0), "a path now crosses where the T-junction was");
    // Unwritable destination: exit 2, nothing else touched.
    let (code, _, stderr) = navlab(&["check", &tj, "--repair", "/nonexistent-dir/x.obj"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("cannot save"), "{stderr}");
}

#[test]
fn mesh_builds_a_navmesh_from_a_map_that_checks_as_its_cells_meet_and_paths_through() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A room with a pillar, a door in the wall and a closed-off cell (an island of its own).
    let map = write_map(
        dir.path(),
        "room.map",
        "......@...\n\
         .@@...@.@.\n\
         .@@......@\n\
         ......@.@.",
    );
    let out = dir.path().join("room.obj");
    let out_str = out.to_str().expect("utf-8");
    let (code, stdout, stderr) = navlab(&["mesh", &map, "-o", out_str, "--json"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    let summary: Value = serde_json::from_str(&stdout).expect("json");
    let passable = 40.0 - 10.0;
    assert!((summary["area"].as_f64().expect("area") - passable).abs() < 1e-9);
    assert_eq!(summary["islands"], 2, "the cell walled in on four sides");
    // The file is an ordinary OBJ: it checks clean but for the islands and the two corners
    // where passable cells touch diagonally (a pinch: no path between them there), and a path
    // goes round the pillar from the far corner to the door's other side.
    let (code, stdout, _) = navlab(&["check", out_str, "--json"]);
    assert_eq!(code, Some(0), "{stdout}");
    let report: Value = serde_json::from_str(&stdout).expect("json");
    let kinds: Vec<&str> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["islands", "pinch_vertex"], "{report}");
    let pinches: Vec<&Value> = report["findings"][1]["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| &item["at"])
        .collect();
    // (9, 2): cells (9, 1) and (8, 2); (9, 3): cells (8, 2) and the closed-off (9, 3).
    assert_eq!(
        pinches,
        [
            &serde_json::json!([9.0, 2.0]),
            &serde_json::json!([9.0, 3.0])
        ]
    );
    let (code, stdout, _) = navlab(&[
        "path", out_str, "--from", "0.5,3.5", "--to", "8.5,0.5", "--json",
    ]);
    assert_eq!(code, Some(0), "{stdout}");
    let path: Value = serde_json::from_str(&stdout).expect("json");
    let length = path["length"].as_f64().expect("length");
    assert!(
        length > (8.0f64.powi(2) + 3.0f64.powi(2)).sqrt(),
        "{length}"
    );
    // The same mesh as a Polyanya mesh, of triangles (`--triangles`: the same mesh read back,
    // the same path) or, by default, of fewer convex polygons (the same area and triangles
    // once read back, and a path).
    for (name, flag) in [
        ("triangles.mesh", Some("--triangles")),
        ("convex.mesh", None),
    ] {
        let polyanya = dir.path().join(name);
        let polyanya_str = polyanya.to_str().expect("utf-8");
        let mut args = vec!["mesh", &map, "-o", polyanya_str, "--json"];
        args.extend(flag);
        let (code, stdout, stderr) = navlab(&args);
        assert_eq!(code, Some(0), "{stdout}{stderr}");
        let text = std::fs::read_to_string(&polyanya).expect("written");
        assert!(text.starts_with("mesh\n2\n"), "{text}");
        let written = parse_polyanya_v2(&text);
        check_polyanya_v2(&written).expect("follows the format");
        let triangles = summary["triangles"].as_u64().expect("count") as usize;
        if flag.is_some() {
            assert_eq!(written.polygons.len(), triangles);
        } else {
            assert!(
                written.polygons.len() < triangles,
                "{} polygons",
                written.polygons.len()
            );
        }
        let (code, info, _) = navlab(&["info", polyanya_str, "--json"]);
        assert_eq!(code, Some(0), "{info}");
        let info: Value = serde_json::from_str(&info).expect("json");
        for field in ["triangles", "islands", "edges"] {
            assert_eq!(info[field], summary[field], "{name}: {field}");
        }
        let area = info["area"].as_f64().expect("area");
        assert!((area - passable).abs() < 1e-9, "{name}: {area}");
        let (code, stdout, _) = navlab(&[
            "path",
            polyanya_str,
            "--from",
            "0.5,3.5",
            "--to",
            "8.5,0.5",
            "--json",
        ]);
        assert_eq!(code, Some(0), "{stdout}");
        if flag.is_some() {
            let again: Value = serde_json::from_str(&stdout).expect("json");
            assert_eq!(again["length"], path["length"]);
        }
    }

    // Nothing passable, or no map: exit 2 naming the file; nothing written.
    let walls = write_map(dir.path(), "walls.map", "@@\n@@");
    let none = dir.path().join("none.obj");
    let (code, _, stderr) = navlab(&["mesh", &walls, "-o", none.to_str().expect("utf-8")]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("walls.map") && stderr.contains("no passable tile"),
        "{stderr}"
    );
    assert!(!none.exists());
    let (code, _, stderr) = navlab(&["mesh", "/nonexistent.map", "-o", out_str]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("nonexistent.map"), "{stderr}");
}

#[test]
fn convert_writes_a_polyanya_mesh_and_back_and_refuses_stairs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rooms = repo_path("assets/rooms.obj");
    let rooms = rooms.to_str().expect("utf-8");
    let (code, info, _) = navlab(&["info", rooms, "--json"]);
    assert_eq!(code, Some(0));
    let source: Value = serde_json::from_str(&info).expect("json");
    let polyanya = dir.path().join("rooms.mesh");
    let polyanya = polyanya.to_str().expect("utf-8");
    let (code, _, stderr) = navlab(&["convert", rooms, "-o", polyanya]);
    assert_eq!(code, Some(0), "{stderr}");
    let written = parse_polyanya_v2(&std::fs::read_to_string(polyanya).expect("written"));
    check_polyanya_v2(&written).expect("follows the format");
    // And back to OBJ: the same mesh (in the XY plane, where the Polyanya mesh lies).
    let back = dir.path().join("rooms.obj");
    let back = back.to_str().expect("utf-8");
    let (code, _, stderr) = navlab(&["convert", polyanya, "-o", back]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, info, _) = navlab(&["info", back, "--plane", "xy", "--json"]);
    assert_eq!(code, Some(0), "{info}");
    let again: Value = serde_json::from_str(&info).expect("json");
    for field in ["triangles", "islands", "edges", "area"] {
        assert_eq!(again[field], source[field], "{field}");
    }
    // Stairs over a floor share an edge three ways: refused, nothing written.
    let stairs = repo_path("assets/stairs.obj");
    let out = dir.path().join("stairs.mesh");
    let (code, _, stderr) = navlab(&[
        "convert",
        stairs.to_str().expect("utf-8"),
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("overlaps in the plane"), "{stderr}");
    assert!(stderr.contains("shared by 3 triangles"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn a_map_given_to_a_mesh_command_or_a_mesh_to_a_map_command_gets_a_hint() {
    let dir = tempfile::tempdir().expect("temp");
    let map = dir.path().join("small.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n").expect("write");
    let map = map.to_str().expect("utf-8");
    let (code, _, stderr) = navlab(&["path", map, "--from", "0,0", "--to", "1,1"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("error: ") && stderr.contains("looks like a tile map: `navlab grid`"),
        "{stderr}"
    );
    let mesh = repo_path("assets/rooms.obj");
    let (code, _, stderr) = navlab(&[
        "grid",
        mesh.to_str().expect("utf-8"),
        "--from",
        "0,0",
        "--to",
        "1,1",
    ]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("looks like a navmesh: `navlab path`"),
        "{stderr}"
    );
    // A real error in a map keeps its line and gets no hint.
    let (_, _, stderr) = navlab(&[
        "grid",
        map.replace("small", "none").as_str(),
        "--from",
        "0,0",
        "--to",
        "1,1",
    ]);
    assert!(!stderr.contains("hint"), "{stderr}");
}

/// `open`'s search options are checked before any window opens: a bad value is a usage error
/// (exit 2) that names the option.
#[test]
fn open_rejects_search_options_out_of_range_before_opening_a_window() {
    for (args, named) in [
        (&["open", "--weight", "7"][..], "--weight"),
        (&["open", "--budget", "10"][..], "--budget"),
        (&["open", "--algo", "dfs"][..], "--algo"),
        (&["open", "--cost", "sideways"][..], "--cost"),
        (
            &["open", "--connectivity", "6", "--weight=-1"][..],
            "--weight",
        ),
    ] {
        let (code, _, stderr) = navlab(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(named), "{args:?}: {stderr}");
    }
}

/// `navlab path --walk` walks the path found: the JSON says the agent arrived, no faster than
/// its speed and no shorter than the straight line, taking the corners in order within the
/// radius; an agent that turns at once and takes each corner exactly walks the path itself and
/// never leaves the mesh.
#[test]
fn path_walk_reports_the_agents_walk() {
    let rooms = repo_path("assets/rooms.obj");
    let rooms = rooms.to_str().expect("utf-8");
    let run = |extra: &[&str]| -> Value {
        let mut args = vec![
            "path", rooms, "--from", "1,1", "--to", "5,-7", "--walk", "--json",
        ];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = navlab(&args);
        assert_eq!(code, Some(0), "{stderr}");
        serde_json::from_str(&stdout).expect("json")
    };
    let seed = run(&[]);
    let walk = &seed["walk"];
    assert_eq!(walk["arrived"], true);
    let (seconds, walked) = (
        walk["seconds"].as_f64().expect("s"),
        walk["walked"].as_f64().expect("m"),
    );
    let straight = (5.0f64 - 1.0).hypot(-7.0 - 1.0);
    assert!(
        walked >= straight && seconds >= walked / 2.0,
        "{walked} {seconds}"
    );
    let corners: Vec<(u64, f64)> = walk["corners"]
        .as_array()
        .expect("corners")
        .iter()
        .map(|c| {
            (
                c["corner"].as_u64().expect("i"),
                c["distance"].as_f64().expect("d"),
            )
        })
        .collect();
    let waypoints = seed["waypoints"].as_array().expect("waypoints").len() as u64;
    assert_eq!(
        corners.iter().map(|c| c.0).collect::<Vec<_>>(),
        (1..waypoints - 1).collect::<Vec<_>>()
    );
    assert!(corners.iter().all(|c| c.1 <= 0.5));

    let sharp = run(&["--corner-radius", "0", "--turn-rate", "1e9"]);
    let length = sharp["length"].as_f64().expect("length");
    assert_eq!(sharp["walk"]["off_mesh_seconds"], 0.0);
    let walked = sharp["walk"]["walked"].as_f64().expect("m");
    assert!((walked - length).abs() < 1e-6, "{walked} vs {length}");

    let (code, stdout, _) = navlab(&["path", rooms, "--from", "1,1", "--to", "5,-7", "--walk"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("walk: arrived after"), "{stdout}");
    let (code, _, stderr) = navlab(&[
        "path",
        rooms,
        "--from",
        "1,1",
        "--to",
        "5,-7",
        "--walk",
        "--turn-rate",
        "0",
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("--turn-rate"), "{stderr}");
}

/// `navlab partitions` on arena's scenarios (MovingAI, see SOURCES.md): the grid's path through
/// cell centres has the listed optimal length, each path's straight length is what its points
/// say and never beats the visibility graph's (the shortest at any angle); a wall or an
/// off-map cell is exit 2, a goal walled off is exit 1.
#[test]
fn partitions_json_compares_four_partitions_on_arena_scenarios() {
    let (Some(map), Some(scen)) = (
        testdata("movingai/arena.map"),
        testdata("movingai/arena.map.scen"),
    ) else {
        return;
    };
    let map = map.to_str().expect("utf-8");
    let scenarios = navlab::grid::movingai::load_scenarios(&scen).expect("scen");
    // One scenario from every fourth bucket: short to long.
    for s in scenarios.iter().step_by(40) {
        let (from, to) = (
            format!("{},{}", s.start.0, s.start.1),
            format!("{},{}", s.goal.0, s.goal.1),
        );
        let (code, stdout, stderr) =
            navlab(&["partitions", map, "--from", &from, "--to", &to, "--json"]);
        assert_eq!(code, Some(0), "{stderr}");
        let report: Value = serde_json::from_str(&stdout).expect("json");
        let rows = report["partitions"].as_array().expect("partitions");
        let names: Vec<&str> = rows
            .iter()
            .filter_map(|r| r["partition"].as_str())
            .collect();
        assert_eq!(names, ["grid", "quadtree", "visibility graph", "navmesh"]);
        let grid = &rows[0];
        let raw = grid["raw_length"].as_f64().expect("grid length");
        assert!(
            navlab::grid::movingai::matches_six_digits(raw, s.optimal),
            "{from} to {to}: grid {raw}, listed {}",
            s.optimal
        );
        let shortest = rows[2]["straight_length"].as_f64().expect("visibility");
        for row in rows {
            assert_eq!(row["status"], "found");
            let straight = row["straight_length"].as_f64().expect("straight");
            let points = row["straight"].as_array().expect("points");
            assert_close(polyline_length(points), straight, 1e-9);
            assert!(straight >= shortest - 1e-9, "{row}");
            assert!(straight <= row["raw_length"].as_f64().expect("raw") + 1e-9);
            assert!(row["nodes"].as_u64().expect("nodes") > 0);
        }
    }
    let (code, _, stderr) = navlab(&["partitions", map, "--from", "0,0", "--to", "1,12"]);
    assert_eq!(code, Some(2), "(0,0) is a wall on arena");
    assert!(stderr.contains("0,0"), "{stderr}");
    let dir = tempfile::tempdir().expect("dir");
    let walled = write_map(dir.path(), "walled.map", "..@..\n..@..");
    let (code, stdout, _) = navlab(&["partitions", &walled, "--from", "0,0", "--to", "4,1"]);
    assert_eq!(code, Some(1));
    assert!(stdout.contains("none"), "{stdout}");
}

/// `grid` and `scen` take A*'s weight from 0 to 5, as the window and `open` do: NaN, infinity, a
/// negative or a huge weight is a usage error naming `--weight`, never a search with
/// meaningless priorities.
#[test]
fn grid_and_scen_refuse_weights_outside_zero_to_five() {
    let dir = tempfile::tempdir().expect("temp dir");
    let map = write_map(dir.path(), "small.map", "...\n.@.");
    let scen = dir.path().join("small.map.scen");
    std::fs::write(&scen, "version 1\n0\tsmall.map\t3\t2\t0\t0\t2\t1\t3\n").expect("write");
    let (map, scen) = (map.as_str(), scen.to_str().expect("utf-8"));
    for weight in ["nan", "inf", "-1", "5.5", "1e308", "heavy"] {
        let option = format!("--weight={weight}");
        for args in [
            vec!["grid", map, "--from", "0,0", "--to", "2,1", option.as_str()],
            vec!["scen", scen, "--map", map, option.as_str()],
        ] {
            let (code, _, stderr) = navlab(&args);
            assert_eq!(code, Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.contains("--weight") && stderr.contains("from 0 to 5"),
                "{args:?}: {stderr}"
            );
        }
    }
    // In range, both run.
    let (code, stdout, stderr) =
        navlab(&["grid", map, "--from", "0,0", "--to", "2,1", "--weight=2.5"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("found"), "{stdout}");
    let (code, _, stderr) = navlab(&["scen", scen, "--map", map, "--weight", "1"]);
    assert_eq!(code, Some(0), "{stderr}");
}

/// `navlab compare` on arena scenarios: the optimal algorithms give the published optimal
/// length, IDA* that length or "over budget" (never another length), BFS no shorter; each row's
/// counts are what `navlab grid --algo X` reports for that algorithm alone.
#[test]
fn compare_runs_every_algorithm_with_the_published_lengths() {
    use navlab::grid::movingai::{load_scenarios, matches_six_digits};
    let (Some(map), Some(scen)) = (
        testdata("movingai/arena.map"),
        testdata("movingai/arena.map.scen"),
    ) else {
        return;
    };
    let scenarios = load_scenarios(&scen).expect("scenarios");
    let map = map.to_str().expect("utf-8");
    // The first scenario of every fourth bucket: short and long ones.
    let mut buckets = std::collections::BTreeSet::new();
    let picked: Vec<_> = scenarios
        .iter()
        .filter(|s| s.bucket % 4 == 0 && buckets.insert(s.bucket))
        .collect();
    assert!(picked.len() >= 3, "{} buckets", picked.len());
    for s in picked {
        let (from, to) = (
            format!("{},{}", s.start.0, s.start.1),
            format!("{},{}", s.goal.0, s.goal.1),
        );
        let (code, stdout, stderr) =
            navlab(&["compare", map, "--from", &from, "--to", &to, "--json"]);
        assert_eq!(code, Some(0), "line {}: {stderr}", s.line);
        let v: Value = serde_json::from_str(&stdout).expect("json");
        assert_eq!(v["from"], serde_json::json!([s.start.0, s.start.1]));
        let rows = v["rows"].as_array().expect("rows");
        let names: Vec<&str> = rows
            .iter()
            .filter_map(|r| r["algorithm"].as_str())
            .collect();
        assert_eq!(
            names,
            [
                "BFS",
                "Dijkstra",
                "A*",
                "IDA*",
                "Fringe",
                "JPS",
                "JPS+",
                "Bidirectional A*",
                "Theta*",
                "Best-first",
                "D* Lite"
            ]
        );
        for (row, algo) in rows.iter().zip([
            "bfs",
            "dijkstra",
            "astar",
            "idastar",
            "fringe",
            "jps",
            "jps-plus",
            "bidir",
            "theta",
            "best-first",
            "dstar-lite",
        ]) {
            let length = row["length"].as_f64();
            match (algo, row["status"].as_str()) {
                ("idastar", Some("budget_exceeded")) => assert_eq!(length, None),
                ("bfs" | "best-first", Some("found")) => {
                    let got = length.expect("a length");
                    assert!(got >= s.optimal - 1e-4, "line {}: {algo} {got}", s.line);
                }
                // Any angle: never longer than the eight-direction optimum, and said how much
                // longer it is than the shortest path at any angle.
                ("theta", Some("found")) => {
                    let got = length.expect("a length");
                    assert!(got <= s.optimal * (1.0 + 1e-5), "line {}: {got}", s.line);
                    assert!(row["over_exact"].as_f64().is_some_and(|g| g >= -1e-9));
                }
                (_, Some("found")) => {
                    let got = length.expect("a length");
                    assert!(
                        matches_six_digits(got, s.optimal),
                        "line {}: {algo} {got} against {}",
                        s.line,
                        s.optimal
                    );
                }
                other => panic!("line {}: {algo} {other:?}", s.line),
            }
            let (_, alone, _) = navlab(&[
                "grid", map, "--from", &from, "--to", &to, "--algo", algo, "--json",
            ]);
            let alone: Value = serde_json::from_str(&alone).expect("json");
            for key in ["status", "length", "expanded", "peak_memory"] {
                assert_eq!(row[key], alone[key], "line {}: {algo} {key}", s.line);
            }
            assert!(row["micros"].as_f64().is_some_and(|t| t > 0.0));
            let passing = matches!(algo, "idastar" | "fringe");
            assert_eq!(row["passes"].is_u64(), passing, "{algo}");
            assert_eq!(row["put_off"].is_u64(), passing, "{algo}");
        }
    }
}

/// A walled-off goal: every algorithm says unreachable, exit 1; a goal on a wall is bad
/// input, exit 2 with a sentence; the text table has a row per algorithm.
#[test]
fn compare_exits_1_when_unreachable_and_2_for_bad_cells() {
    let dir = tempfile::tempdir().expect("temp");
    let map = write_map(dir.path(), "walled.map", "..@..\n..@..\n..@..");
    let (code, stdout, stderr) = navlab(&["compare", &map, "--from", "0,0", "--to", "4,2"]);
    assert_eq!(code, Some(1), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        1 + navlab::grid::GridAlgorithm::ALL.len(),
        "{stdout}"
    );
    assert!(lines[0].starts_with("algorithm"), "{stdout}");
    assert!(
        lines[1..].iter().all(|l| l.ends_with("unreachable")),
        "{stdout}"
    );
    let (code, stdout, stderr) = navlab(&["compare", &map, "--from", "0,0", "--to", "2,1"]);
    assert_eq!(code, Some(2));
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("2,1 is a wall tile"), "{stderr}");
    let (code, _, stderr) = navlab(&[
        "compare", &map, "--from", "0,0", "--to", "1,2", "--weight", "9",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
}

/// `navlab completions bash` prints a script with which bash completes subcommands, options
/// and their values; the other shells get theirs. Skipped where there is no bash.
#[test]
fn completions_complete_subcommands_options_and_values_in_bash() {
    let (code, script, _) = navlab(&["completions", "bash"]);
    assert_eq!(code, Some(0));
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("navlab.bash");
    std::fs::write(&file, &script).expect("write");
    // What bash offers for the words typed so far (the last one being completed).
    let offered = |words: &[&str]| -> Option<String> {
        let current = words.len() - 1;
        let program = format!(
            "source '{}'; COMP_WORDS=({}); COMP_CWORD={current}; _navlab navlab '{}' '{}'; \
             echo \"${{COMPREPLY[@]}}\"",
            file.display(),
            words.join(" "),
            words[current],
            words[current - 1],
        );
        let out = Command::new("bash").arg("-c").arg(program).output().ok()?;
        Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let Some(subcommand) = offered(&["navlab", "sc"]) else {
        eprintln!("SKIPPED: no bash to try the completions in");
        return;
    };
    assert_eq!(subcommand, "scen");
    assert_eq!(
        offered(&["navlab", "grid", "m.map", "--al"]).as_deref(),
        Some("--algo")
    );
    assert_eq!(
        offered(&["navlab", "grid", "m.map", "--algo", "id"]).as_deref(),
        Some("idastar")
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let (code, script, _) = navlab(&["completions", shell]);
        assert_eq!(code, Some(0), "{shell}");
        // fish writes options without their dashes (`-l algo`).
        assert!(
            script.contains("partitions") && script.contains("algo"),
            "{shell}"
        );
    }
    let (code, _, error) = navlab(&["completions", "tcsh"]);
    assert_eq!(code, Some(2));
    assert!(error.contains("possible values"), "{error}");
}

/// `navlab cut` writes the mesh minus the obstacles: a rectangle wholly inside a room takes
/// exactly its own area away, and a path on the result goes round it.
#[test]
fn cut_removes_the_obstacles_area_and_paths_go_round_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("cut.obj");
    let out_s = out.to_str().expect("utf-8");
    let rooms = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/rooms.obj");
    // Room one spans x 0..6, z 0..6 in rooms.obj; the rectangle lies inside it.
    let (code, stdout, stderr) = navlab(&[
        "cut",
        rooms,
        "--out",
        out_s,
        "--rect",
        "2,1.5,4,4.5",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    for field in ["triangles", "area_before", "area_after", "obstacles", "ms"] {
        assert!(v.get(field).is_some(), "{field} missing: {stdout}");
    }
    assert_eq!(v["obstacles"], 1);
    let (before, after) = (
        v["area_before"].as_f64().expect("f"),
        v["area_after"].as_f64().expect("f"),
    );
    assert!((before - after - 6.0).abs() < 1e-9, "{before} - {after}");
    let (code, stdout, _) = navlab(&["path", out_s, "--from", "1,3", "--to", "5,3", "--json"]);
    assert_eq!(code, Some(0));
    let p: Value = serde_json::from_str(&stdout).expect("json");
    let waypoints = p["waypoints"].as_array().expect("waypoints");
    assert!(waypoints.len() >= 4, "round the rectangle: {stdout}");
    // The same obstacle given to `path` directly gives the same length.
    let (_, direct, _) = navlab(&[
        "path",
        rooms,
        "--from",
        "1,3",
        "--to",
        "5,3",
        "--rect",
        "2,1.5,4,4.5",
        "--json",
    ]);
    let d: Value = serde_json::from_str(&direct).expect("json");
    assert!((d["length"].as_f64().expect("f") - p["length"].as_f64().expect("f")).abs() < 1e-9);
}

#[test]
fn cut_refuses_bad_shapes_and_outputs_with_exit_2() {
    let rooms = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/rooms.obj");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("x.obj");
    let out_s = out.to_str().expect("utf-8");
    for (args, says) in [
        (vec!["--rect", "1,1,1,2"], "no area"),
        (vec!["--rect", "1,1,2"], "4 numbers"),
        (vec!["--circle", "1,inf,1"], "finite"),
        (vec!["--circle", "1,1,0"], "radius"),
        (vec!["--polygon", "0,0 1,1 1,0 0,1"], "crosses itself"),
        (vec!["--polygon", "0,0 1,1"], "three corners"),
        (vec![], "no shape"),
        (vec!["--door", "1,1,1,2"], "no area"),
        (
            vec!["--area", "lava=1,1,2,2"],
            "area types are ground, road, mud, water",
        ),
        (vec!["--area", "mud:1,1,2,2"], "NAME=X0,Z0,X1,Z1"),
    ] {
        let mut all = vec!["cut", rooms, "--out", out_s];
        all.extend(args.iter().copied());
        let (code, _, stderr) = navlab(&all);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    assert!(!out.exists());
    let (code, _, stderr) = navlab(&[
        "cut",
        rooms,
        "--out",
        "/nonexistent-folder/x.obj",
        "--rect",
        "2,2,3,3",
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("/nonexistent-folder/x.obj"), "{stderr}");
}

/// Area types from the OBJ's groups: mud crossed at cost 1, gone round at cost 10.
#[test]
fn area_costs_from_the_file_steer_the_path() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("mud.obj");
    // A 12 × 12 floor of unit squares; the squares with 5 <= z < 7 and x < 9 are mud.
    let mut text = String::new();
    for z in 0..=12 {
        for x in 0..=12 {
            text += &format!("v {x} 0 {z}\n");
        }
    }
    let id = |x: usize, z: usize| z * 13 + x + 1;
    for (group, mud) in [("g area:ground\n", false), ("g area:mud\n", true)] {
        text += group;
        for z in 0..12 {
            for x in 0..12 {
                if ((5..7).contains(&z) && x < 9) == mud {
                    text += &format!(
                        "f {} {} {} {}\n",
                        id(x, z),
                        id(x, z + 1),
                        id(x + 1, z + 1),
                        id(x + 1, z)
                    );
                }
            }
        }
    }
    std::fs::write(&file, text).expect("write");
    let f = file.to_str().expect("utf-8");
    let length = |cost: &str| -> f64 {
        let (code, stdout, stderr) = navlab(&[
            "path",
            f,
            "--from",
            "2,1",
            "--to",
            "2,11",
            "--area-cost",
            cost,
            "--json",
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        let v: Value = serde_json::from_str(&stdout).expect("json");
        v["length"].as_f64().expect("length")
    };
    assert!((length("mud=1") - 10.0).abs() < 1e-9);
    assert!(length("mud=10") > 14.0);
    let (code, _, stderr) = navlab(&[
        "path",
        f,
        "--from",
        "2,1",
        "--to",
        "2,11",
        "--area-cost",
        "lava=2",
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("ground, road, mud, water"), "{stderr}");
}

/// `cut` writes the shapes beside an OBJ, so the window opens them editable: doors and areas
/// among them.
#[test]
fn cut_keeps_its_shapes_beside_the_mesh() {
    let rooms = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/rooms.obj");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("cut.obj");
    let out_s = out.to_str().expect("utf-8");
    let (code, stdout, stderr) = navlab(&[
        "cut",
        rooms,
        "--out",
        out_s,
        "--door",
        "6.5,3.5,7.5,5.5",
        "--area",
        "mud=1,1,3,3",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["obstacles"], 2);
    // The closed door removed its part of the corridor, the mud nothing.
    let removed = v["area_before"].as_f64().expect("f") - v["area_after"].as_f64().expect("f");
    assert!((removed - 1.0).abs() < 1e-9, "{removed}");
    let beside = navlab::navmesh::edit::saved::path_beside(&out);
    let mesh = navlab::navmesh::NavMesh::load(&out, navlab::navmesh::Plane::Xz).expect("loads");
    let editor = navlab::navmesh::edit::saved::read_beside(&out, &mesh)
        .expect("reads")
        .expect("written");
    assert!(beside.is_file());
    assert_eq!(editor.shapes().len(), 2);
    // The door closed: no way from room A to room B.
    let (code, stdout, _) = navlab(&["path", out_s, "--from", "1,1", "--to", "10,1", "--json"]);
    assert_eq!(code, Some(1), "{stdout}");
}

/// `path --optimal` answers in `path`'s shape with the search's node count; on the arena
/// mesh its lengths are the published any-angle ones.
#[test]
fn path_optimal_gives_the_shortest_path_in_the_path_commands_shape() {
    let rooms = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/rooms.obj");
    let (code, stdout, stderr) = navlab(&[
        "path",
        rooms,
        "--from",
        "1,1",
        "--to",
        "5,-7",
        "--optimal",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["status"], "found");
    assert!(v["search_nodes"].as_u64().expect("nodes") > 0);
    let waypoints = v["waypoints"].as_array().expect("waypoints");
    let length: f64 = waypoints
        .windows(2)
        .map(|w| {
            let p = |x: &Value| (x[0].as_f64().expect("x"), x[1].as_f64().expect("z"));
            let ((ax, az), (bx, bz)) = (p(&w[0]), p(&w[1]));
            ((bx - ax).powi(2) + (bz - az).powi(2)).sqrt()
        })
        .sum();
    assert!((length - v["length"].as_f64().expect("length")).abs() < 1e-9);
    // Never longer than A* and the funnel.
    let (_, corridor, _) = navlab(&["path", rooms, "--from", "1,1", "--to", "5,-7", "--json"]);
    let c: Value = serde_json::from_str(&corridor).expect("json");
    assert!(length <= c["length"].as_f64().expect("length") + 1e-9);
    // Cut off: unreachable, exit 1.
    let (code, stdout, _) = navlab(&[
        "path",
        rooms,
        "--from",
        "1,1",
        "--to",
        "5,-7",
        "--optimal",
        "--json",
        "--rect",
        "5.5,3,8.5,6",
    ]);
    assert_eq!(code, Some(1), "{stdout}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["status"], "unreachable");
    assert!(v["length"].is_null());

    let Some(arena) = common::testdata("meshes/polyanya/arena.mesh") else {
        return;
    };
    let arena = arena.to_str().expect("utf-8");
    // (1,13) → (4,12) is listed as 3.16228: a straight line, sqrt(10).
    let (code, stdout, _) = navlab(&[
        "path",
        arena,
        "--from",
        "1,13",
        "--to",
        "4,12",
        "--optimal",
        "--json",
    ]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert!((v["length"].as_f64().expect("length") - 10f64.sqrt()).abs() < 1e-12);
}

/// `scen --mesh` on the arena mesh, with a mesh scenario file written from the published
/// any-angle lengths: every shortest path agrees with its listed length to the precision the
/// lengths are printed in, the corridor's figures are ordered, and a malformed line is refused
/// with its number and without echoing it.
#[test]
fn scen_mesh_runs_a_mesh_scenario_file_and_names_a_bad_line() {
    let (Some(mesh), Some(csv)) = (
        common::testdata("meshes/polyanya/arena.mesh"),
        common::testdata("meshes/polyanya/arena.anyangle.csv"),
    ) else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(csv).expect("reads");
    let rows: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("bucket"))
        .map(|l| {
            l.split(',')
                .map(|x| x.trim().parse().expect("number"))
                .collect()
        })
        .collect();
    let mut scen = String::from("version 1\n");
    for r in &rows {
        scen += &format!(
            "{}\tarena.mesh\t49\t49\t{}\t{}\t{}\t{}\t{}\n",
            r[0], r[1], r[2], r[3], r[4], r[6]
        );
    }
    let path = dir.path().join("arena.mesh.scen");
    std::fs::write(&path, &scen).expect("written");
    let (p, m) = (path.to_str().expect("utf-8"), mesh.to_str().expect("utf-8"));
    let (code, stdout, stderr) = navlab(&["scen", p, "--mesh", m, "--optimal", "--json"]);
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["scenarios"], 160, "{stderr}");
    // The CSV prints 5–6 significant digits, so the listed lengths are rounded.
    for d in v["details"].as_array().expect("details") {
        let (got, listed) = (
            d["length"].as_f64().expect("length"),
            d["listed"].as_f64().expect("listed"),
        );
        assert!((got - listed).abs() <= 5e-5 * listed.max(1.0), "{d}");
    }
    assert_eq!(code, Some(if v["mismatched"] == 0 { 0 } else { 1 }));
    // The corridor: never shorter than the shortest path, so its excess is never negative.
    let (code, stdout, _) = navlab(&["scen", p, "--mesh", m, "--json"]);
    assert_eq!(code, Some(0));
    let c: Value = serde_json::from_str(&stdout).expect("json");
    let mean = c["mean_excess"].as_f64().expect("mean");
    assert!(mean >= 0.0 && mean <= c["p95_excess"].as_f64().expect("p95"));
    assert!(c["p95_excess"].as_f64().expect("p95") <= c["worst_excess"].as_f64().expect("worst"));

    std::fs::write(&path, "version 1\n0 arena.mesh 49 49 1 2 \u{1b}[31m 4 5\n").expect("written");
    let (code, _, stderr) = navlab(&["scen", p, "--mesh", m, "--optimal"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("line 2"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
}

/// `quality` gives the same pairs for the same seed, orders its figures, and every worst pair
/// is a real detour: the shortest length is the one `path --optimal` gives for that pair.
#[test]
fn quality_reports_the_corridor_excess_over_random_pairs() {
    let rooms = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/rooms.obj");
    let run = |seed: &str| {
        let (code, stdout, stderr) = navlab(&[
            "quality",
            rooms,
            "--queries",
            "60",
            "--seed",
            seed,
            "--json",
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        serde_json::from_str::<Value>(&stdout).expect("json")
    };
    let (a, b) = (run("4"), run("4"));
    assert_eq!(a["worst"], b["worst"]);
    assert_eq!(a["queries"].as_u64(), Some(60));
    let f = |v: &Value, k: &str| v[k].as_f64().expect(k);
    assert!(f(&a, "mean_excess") <= f(&a, "p95_excess"));
    assert!(f(&a, "p95_excess") <= f(&a, "worst_excess"));
    let worst = &a["worst"][0];
    assert!((f(worst, "excess") - f(&a, "worst_excess")).abs() < 1e-12);
    let point = |p: &Value| {
        format!(
            "{},{}",
            p[0].as_f64().expect("x"),
            p[1].as_f64().expect("z")
        )
    };
    let (from, to) = (point(&worst["from"]), point(&worst["to"]));
    let (_, stdout, _) = navlab(&[
        "path",
        rooms,
        "--from",
        &from,
        "--to",
        &to,
        "--optimal",
        "--json",
    ]);
    let p: Value = serde_json::from_str(&stdout).expect("json");
    assert!((f(&p, "length") - f(worst, "optimal")).abs() < 1e-9);
    let (_, stdout, _) = navlab(&["path", rooms, "--from", &from, "--to", &to, "--json"]);
    let c: Value = serde_json::from_str(&stdout).expect("json");
    assert!((f(&c, "length") - f(worst, "corridor")).abs() < 1e-9);
    let (code, _, _) = navlab(&["quality", rooms, "--queries", "0"]);
    assert_eq!(code, Some(2));
}

/// `path` names islands as `check` numbers them: from 1, the most triangles first.
#[test]
fn path_and_check_number_islands_alike() {
    let Some(file) = testdata("meshes/obj/level.nav.obj") else {
        return;
    };
    let name = file.to_str().expect("utf-8");
    let (code, stdout, stderr) = navlab(&["check", name, "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("json");
    let islands = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["kind"] == "islands")
        .expect("islands found")["items"]
        .as_array()
        .expect("items")
        .clone();
    assert_eq!(islands.len(), 24);
    let plane = navlab::navmesh::Plane::Xz;
    let raw = navlab::navmesh::obj::load_raw(&file, plane).expect("reads");
    let mesh = navlab::navmesh::NavMesh::load(&file, plane).expect("loads");
    // A point inside one face of island `k` (from 1), where only that island's floor is.
    let point_on = |k: usize| {
        islands[k - 1]["faces"]
            .as_array()
            .expect("faces")
            .iter()
            .filter_map(|f| {
                let face = &raw.polygons[f.as_u64()? as usize];
                let n = face.len() as f64;
                let (x, z) = face.iter().fold((0.0, 0.0), |(x, z), &v| {
                    (x + raw.positions[v][0] / n, z + raw.positions[v][2] / n)
                });
                let at = p(x, z);
                (mesh.floors_at(at).len() == 1 && mesh.triangles_at(at).len() == 1).then_some(at)
            })
            .next()
            .expect("a face with one floor")
    };
    let first = point_on(1);
    for k in [2, 3, 4, 7] {
        let other = point_on(k);
        let (code, stdout, stderr) = navlab(&[
            "path",
            name,
            "--from",
            &format!("{},{}", first.x, first.y),
            "--to",
            &format!("{},{}", other.x, other.y),
        ]);
        assert_eq!(code, Some(1), "unreachable: {stdout}{stderr}");
        assert!(
            stdout.contains(", island 1)") && stdout.contains(&format!(", island {k})")),
            "island {k}: {stdout}"
        );
    }
}

/// `info --json` under every combination of the reading options the docs list: the walkable
/// filter's figures and the file's share of steep area are the same with or without an
/// agent's radius, and each option's own field is set exactly when it is given.
#[test]
fn info_json_reports_each_reading_option_whatever_else_is_given() {
    let Some(level) = testdata("meshes/obj/level.obj") else {
        return;
    };
    let level = level.to_str().expect("utf-8");
    let info = |extra: &[&str]| -> Value {
        let mut args = vec!["info", level, "--json"];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = navlab(&args);
        assert_eq!(code, Some(0), "{extra:?}: {stderr}");
        serde_json::from_str(&stdout).expect("JSON")
    };
    let whole = info(&[]);
    let slope_fields = [
        "max_slope",
        "flipped",
        "walkable_faces",
        "walkable_triangles",
        "walkable_area",
        "dropped_faces",
        "dropped_triangles",
        "dropped_area",
    ];
    for plane in [None, Some("xz")] {
        for slope in [None, Some("45")] {
            for radius in [None, Some("0.2")] {
                let mut extra = Vec::new();
                if let Some(plane) = plane {
                    extra.extend(["--plane", plane]);
                }
                if let Some(slope) = slope {
                    extra.extend(["--max-slope", slope]);
                }
                if let Some(radius) = radius {
                    extra.extend(["--agent-radius", radius]);
                }
                let got = info(&extra);
                let without_radius = if radius.is_some() {
                    let mut fewer = extra.clone();
                    fewer.truncate(extra.len() - 2);
                    info(&fewer)
                } else {
                    got.clone()
                };
                for field in slope_fields {
                    assert_eq!(got[field], without_radius[field], "{extra:?}: {field}");
                }
                assert_eq!(
                    got["max_slope"].as_f64(),
                    slope.map(|s| s.parse().expect("a number")),
                    "{extra:?}"
                );
                assert_eq!(
                    got["dropped_faces"].as_u64().expect("a count") > 0,
                    slope.is_some(),
                    "{extra:?}: level.obj has walls and ceilings to leave out"
                );
                let faces = got["walkable_faces"].as_u64().expect("a count")
                    + got["dropped_faces"].as_u64().expect("a count");
                assert_eq!(
                    faces,
                    whole["walkable_faces"].as_u64().expect("a count"),
                    "{extra:?}: every face of the file kept or left out"
                );
                assert_eq!(
                    got["level_geometry_share"], whole["level_geometry_share"],
                    "{extra:?}: the file's share of steep area"
                );
                assert_eq!(
                    got["agent_radius"]["radius"].as_f64(),
                    radius.map(|r| r.parse().expect("a number")),
                    "{extra:?}"
                );
                assert_eq!(got["plane"], "xz", "{extra:?}");
            }
        }
    }
}

/// `navlab build`: Recast's demo level built with RecastDemo's defaults, as Recast builds it;
/// the navmesh written reads back; a bad parameter or file is exit 2 with one line.
#[test]
fn build_makes_recasts_navmesh_of_its_demo_level_and_refuses_bad_parameters() {
    let Some(level) = testdata("meshes/obj/nav_test.obj") else {
        return;
    };
    let level = level.to_str().expect("utf-8");
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("nav.obj");
    let out_text = out.to_str().expect("utf-8");
    let (code, stdout, stderr) = navlab(&["build", level, "--out", out_text, "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let answer: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(answer["islands"], 17);
    let polygons = answer["polygons"].as_u64().expect("polygons");
    assert!(polygons.abs_diff(155) <= 3, "{answer}");
    assert_eq!(answer["stages"]["grid"], serde_json::json!([305, 258]));
    let area = answer["plan_area"].as_f64().expect("area");
    assert!((area / 4002.03 - 1.0).abs() < 0.005, "{answer}");
    assert_eq!(answer["settings"]["agent_radius"], 0.6);
    let (code, info, stderr) = navlab(&["info", out_text, "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let info: Value = serde_json::from_str(&info).expect("JSON");
    assert_eq!(info["islands"], 17, "{info}");
    // Recast's polygons themselves: the same islands, fewer triangles than the detail mesh
    // (which cuts them to follow the ground's height).
    let (code, stdout, stderr) =
        navlab(&["build", level, "--out", out_text, "--polygons", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let polygons: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(polygons["islands"], 17);
    assert!(
        polygons["triangles"].as_u64() < answer["triangles"].as_u64(),
        "{polygons}"
    );
    assert!((polygons["plan_area"].as_f64().expect("area") / area - 1.0).abs() < 1e-6);

    for (args, says) in [
        (
            vec!["--cell-size", "0"],
            "--cell-size must be a positive number",
        ),
        (
            vec!["--max-slope", "95"],
            "--max-slope must be from 0 to under 90",
        ),
        (vec!["--cell-size", "0.0001"], "at most 4,096 cells"),
    ] {
        let mut all = vec!["build", level, "--out", out_text];
        all.extend(args);
        let (code, stdout, stderr) = navlab(&all);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(says), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    }
    let (code, _, stderr) = navlab(&["build", "no/such/level.obj", "--out", out_text]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("no/such/level.obj"), "{stderr}");
}

/// `navlab why`: on a step higher than the agent climbs, the ledge stage with its drop and the
/// climb that keeps the edge; with that climb, the same spot is on the navmesh. A point off the
/// level has no ground; a bad parameter is exit 2.
#[test]
fn why_names_the_stage_and_a_change_that_keeps_the_ground() {
    let mut level = levels::Level::default();
    level.add_box([0.0, -0.5, 0.0], [6.0, 0.0, 12.0]);
    level.add_box([6.0, -0.5, 0.0], [12.0, 1.1, 12.0]);
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("step.obj");
    std::fs::write(&path, level.obj()).expect("written");
    let path = path.to_str().expect("utf-8");
    let (code, stdout, stderr) = navlab(&["why", path, "--at", "6.15,6", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let answer: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(answer["kept"], false, "{answer}");
    assert_eq!(answer["stage"], "ledges", "{answer}");
    assert_eq!(answer["reason"], "ledge", "{answer}");
    assert_eq!(answer["suggestion"]["option"], "--max-climb", "{answer}");
    let climb = answer["suggestion"]["to"]
        .as_f64()
        .expect("a value")
        .to_string();
    let (code, stdout, _) = navlab(&["why", path, "--at", "6.15,6", "--max-climb", &climb]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("on the navmesh"), "{stdout}");
    let (code, stdout, _) = navlab(&["why", path, "--at", "-3,-3"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("no face of the level"), "{stdout}");
    let (code, stdout, stderr) = navlab(&["why", path, "--at", "6,6", "--cell-size", "0"]);
    assert_eq!(code, Some(2));
    assert!(
        stdout.is_empty() && stderr.contains("--cell-size"),
        "{stderr}"
    );
}

/// `navlab build --area`: the ground of a rectangle marked mud is mud in the navmesh written
/// (its faces in the group `area:mud`), and a name that cannot be an area type is refused (exit 2).
#[test]
fn build_marks_the_ground_of_an_area_with_its_type() {
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("marked.obj");
    let out_text = out.to_str().expect("utf-8");
    let (code, _, stderr) = navlab(&[
        "build",
        "assets/proving-ground.obj",
        "--out",
        out_text,
        "--area",
        "mud=2,2,6,6",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.contains("g area:mud"), "the mud faces are named");
    let (code, _, stderr) = navlab(&[
        "build",
        "assets/proving-ground.obj",
        "--out",
        out_text,
        "--area",
        "ground=2,2,6,6",
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("not ground"), "{stderr}");
}

/// `navlab build --links`: the links kept along the built-in level's border, each in the form
/// `navlab path --link` takes, and how many points were left out for each reason; a kept drop
/// given to `navlab path` is crossed; a link that does not parse is bad input naming it.
#[test]
fn build_finds_links_that_path_takes() {
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("built.obj");
    let out_text = out.to_str().expect("utf-8");
    let (code, stdout, stderr) = navlab(&[
        "build",
        "assets/proving-ground.obj",
        "--out",
        out_text,
        "--links",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    let kept: Vec<&str> = v["links"]["kept"]
        .as_array()
        .expect("kept")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let drop = kept
        .iter()
        .find(|l| l.contains("kind=drop"))
        .expect("a drop is kept");
    let reasons = v["links"]["left_out"].as_object().expect("left out");
    let known = [
        "no_landing",
        "too_far",
        "too_high",
        "too_deep",
        "no_clearance",
        "off_the_mesh",
    ];
    assert!(
        reasons.keys().all(|k| known.contains(&k.as_str())),
        "{reasons:?}"
    );
    let tried = v["links"]["tried"].as_u64().expect("tried");
    let left: u64 = reasons.values().filter_map(Value::as_u64).sum();
    assert!(left + kept.len() as u64 <= tried);
    // From the drop's start to a little past its end, on the floor below.
    let ends: Vec<&str> = drop.split(':').collect();
    let start: Vec<&str> = ends[0].split(',').collect();
    let end: Vec<&str> = ends[1].split(',').collect();
    let from = format!("{},{}", start[0], start[1]);
    let to = format!("{},{}", end[0], end[1]);
    let (code, stdout, stderr) = navlab(&[
        "path", out_text, "--from", &from, "--to", &to, "--link", drop, "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert!(
        v["segments"]
            .as_array()
            .expect("segments")
            .iter()
            .any(|s| s["kind"] == "link" && s["link_kind"] == "drop"),
        "{v}"
    );
    let (code, _, stderr) = navlab(&[
        "path", out_text, "--from", &from, "--to", &to, "--link", "1,2",
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("--link number 1"), "{stderr}");
}

/// Two 6 × 6 rooms side by side, joined by a doorway from z = 2.5 to 3.5 at x = 6..7.
const DOORWAY_OBJ: &str = "\
v 0 0 0\nv 6 0 0\nv 6 0 2.5\nv 6 0 3.5\nv 6 0 6\nv 0 0 6\n\
v 7 0 0\nv 13 0 0\nv 13 0 6\nv 7 0 6\nv 7 0 3.5\nv 7 0 2.5\n\
f 1 2 3 4 5 6\nf 7 8 9 10 11 12\nf 3 12 11 4\n";

/// `navlab path --max-radius`: between the two rooms the doorway stops any agent of radius
/// over 0.5 (as text and JSON); beside a wall the start does; the other command options that
/// make a path are refused with it.
#[test]
fn path_max_radius_names_the_doorway_that_stops_a_larger_agent() {
    let dir = tempfile::tempdir().expect("temp");
    let mesh = write_obj(dir.path(), "doorway.obj", DOORWAY_OBJ);
    let (code, stdout, stderr) = navlab(&[
        "path",
        &mesh,
        "--from",
        "3,3",
        "--to",
        "10,3",
        "--max-radius",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["max_radius"].as_f64(), Some(0.5));
    assert_eq!(v["limit"], "portal");
    let x = v["portal"]["centre"]["x"].as_f64().expect("x");
    assert!((6.0..=7.0).contains(&x), "{v}");
    let (code, stdout, _) = navlab(&[
        "path",
        &mesh,
        "--from",
        "0.2,3",
        "--to",
        "10,3",
        "--max-radius",
    ]);
    assert_eq!(code, Some(0));
    assert!(
        stdout.contains("has radius 0.20") && stdout.contains("the start"),
        "{stdout}"
    );
    let (code, _, _) = navlab(&[
        "path",
        &mesh,
        "--from",
        "3,3",
        "--to",
        "10,3",
        "--max-radius",
        "--optimal",
    ]);
    assert_eq!(code, Some(2), "--optimal is another answer");
}

/// `navlab clearance`: on two rooms joined by a doorway one unit wide in a wall, the narrowest
/// portals are the doorway's (clearance half its width, whatever their length), and each
/// room's centre holds the largest disc; as text too; a file that is not there is exit 2.
#[test]
fn clearance_names_the_doorway_as_the_narrowest_portal() {
    let dir = tempfile::tempdir().expect("temp");
    let mesh = write_obj(dir.path(), "doorway.obj", DOORWAY_OBJ);
    let (code, stdout, stderr) = navlab(&["clearance", &mesh, "--json", "--narrowest", "2"]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    let island = &v["islands"][0];
    let narrowest = island["narrowest"].as_array().expect("portals");
    assert_eq!(narrowest.len(), 2);
    for portal in narrowest {
        let clearance = portal["clearance"].as_f64().expect("a number");
        assert!((clearance - 0.5).abs() < 1e-12, "{portal}");
        let x = portal["centre"]["x"].as_f64().expect("x");
        assert!((6.0..=7.0).contains(&x), "{portal}");
    }
    let widest = island["widest"].as_f64().expect("widest");
    assert!((widest - 3.0).abs() < 1e-12, "{widest}");
    let (code, stdout, _) = navlab(&["clearance", &mesh]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("radius 0.50 at"), "{stdout}");
    let (code, _, stderr) = navlab(&["clearance", &dir.path().join("none.obj").to_string_lossy()]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("none.obj"), "{stderr}");
}

/// `navlab path --radius`: between the two rooms a small agent keeps its radius from the
/// doorway's sides, turning round them on arcs (text and JSON); the exact path for the radius
/// is as long, to its rounded corners' polygons; a larger agent than the doorway lets through
/// gets no path and the doorway named; `quality` and `scen` take the radius too.
#[test]
fn path_radius_keeps_the_agent_off_the_walls_and_names_what_stops_it() {
    let dir = tempfile::tempdir().expect("temp");
    let mesh = write_obj(dir.path(), "doorway.obj", DOORWAY_OBJ);
    let ask = |extra: &[&str]| {
        let mut args = vec!["path", mesh.as_str(), "--from", "3,1", "--to", "10,5"];
        args.extend_from_slice(extra);
        navlab(&args)
    };
    let (code, stdout, stderr) = ask(&["--radius", "0.3", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["radius"].as_f64(), Some(0.3));
    let arcs = v["arcs"].as_array().expect("arcs");
    assert_eq!(arcs.len(), 2, "round both sides of the doorway: {v}");
    for arc in arcs {
        assert_eq!(arc["radius"].as_f64(), Some(0.3));
        let x = arc["centre"][0].as_f64().expect("x");
        assert!(x == 6.0 || x == 7.0, "{arc}");
    }
    let corridor = v["length"].as_f64().expect("length");
    let (_, point, _) = ask(&["--json"]);
    let point: Value = serde_json::from_str(&point).expect("json");
    assert!(corridor > point["length"].as_f64().expect("length"));
    let (code, stdout, _) = ask(&["--radius", "0.3"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("for an agent of radius 0.3"), "{stdout}");
    assert!(stdout.contains("arcs (2)"), "{stdout}");
    let (code, stdout, stderr) = ask(&["--radius", "0.3", "--optimal", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let exact: Value = serde_json::from_str(&stdout).expect("json");
    let exact = exact["length"].as_f64().expect("length");
    assert!(
        exact >= corridor - 1e-9 && exact <= corridor * 1.01,
        "{exact} against {corridor}"
    );
    let (code, stdout, _) = ask(&["--radius", "0.6"]);
    assert_eq!(code, Some(1));
    assert!(
        stdout.contains("every route crosses a portal as narrow as")
            && stdout.contains("radius 0.50 at most"),
        "{stdout}"
    );
    let (code, stdout, _) = navlab(&[
        "path", &mesh, "--from", "0.2,3", "--to", "10,3", "--radius", "0.3",
    ]);
    assert_eq!(code, Some(1));
    assert!(
        stdout.contains("the start (0.20, 3.00) has room for radius 0.20"),
        "{stdout}"
    );
    // The gap for a radius, over random pairs.
    let (code, stdout, stderr) = navlab(&[
        "quality",
        &mesh,
        "--queries",
        "40",
        "--radius",
        "0.3",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert!(v["queries"].as_u64().unwrap_or(0) > 5, "{v}");
    assert_eq!(v["radius"].as_f64(), Some(0.3));
    // A mesh scenario file run for the radius.
    let scen = dir.path().join("doorway.scen");
    std::fs::write(
        &scen,
        "version 1\n0 doorway 13 6 3 1 10 5 8.0623\n0 doorway 13 6 0.2 3 10 3 9.8\n",
    )
    .expect("write");
    let (code, stdout, stderr) = navlab(&[
        "scen",
        scen.to_str().expect("path"),
        "--mesh",
        &mesh,
        "--radius",
        "0.3",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(v["radius"].as_f64(), Some(0.3));
    assert_eq!(
        v["found"].as_u64(),
        Some(1),
        "the second starts too near a wall: {v}"
    );
}

/// `navlab crowd`: on doors.obj 20 agents all arrive without a collision, and the same run with
/// avoidance off has collisions; the same seed gives the same run (the trace bit for bit); a
/// tile map is run on its navmesh; bad input exits 2.
#[test]
fn crowd_reports_arrivals_and_collisions_and_replays_by_seed() {
    let doors = repo_path("assets/doors.obj").to_string_lossy().to_string();
    let run = |extra: &[&str]| -> Value {
        let mut args = vec!["crowd", doors.as_str(), "--agents", "20", "--json"];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = navlab(&args);
        assert_eq!(code, Some(0), "{stderr}");
        serde_json::from_str(&stdout).expect("json")
    };
    let avoiding = run(&[]);
    assert_eq!(avoiding["arrived"], 20, "{avoiding}");
    assert_eq!(avoiding["collisions"], 0, "{avoiding}");
    assert!(avoiding["stuck"].as_array().is_some_and(Vec::is_empty));
    let ghosts = run(&["--no-avoid"]);
    assert!(
        ghosts["collisions"].as_u64().is_some_and(|c| c > 0),
        "{ghosts}"
    );
    // The same seed, the same run.
    let dir = tempfile::tempdir().expect("temp dir");
    let traces: Vec<String> = (0..2)
        .map(|k| {
            let out = dir.path().join(format!("run{k}.crowd.trace.json"));
            let out = out.to_string_lossy().to_string();
            run(&["--seed", "5", "--trace", &out]);
            std::fs::read_to_string(&out).expect("the trace")
        })
        .collect();
    assert_eq!(traces[0], traces[1]);
    let trace: Value = serde_json::from_str(&traces[0]).expect("json");
    let section = &trace["navlab_crowd"];
    assert_eq!(section["agents"].as_array().map(Vec::len), Some(20));
    let ticks = trace["events"]
        .as_array()
        .map_or(0, |e| e.iter().filter(|e| e["type"] == "tick").count());
    assert!(ticks > 10, "{ticks} ticks");
    // A tile map, on its navmesh.
    let map = write_map(dir.path(), "corner.map", CORNER_MAP);
    let (code, stdout, stderr) = navlab(&["crowd", &map, "--agents", "8"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("arrived: 8 of 8"), "{stdout}");
    // Bad input.
    for (args, needle) in [
        (vec!["crowd", doors.as_str(), "--radius", "0"], "--radius"),
        (
            vec!["crowd", doors.as_str(), "--agents", "5000"],
            "room for",
        ),
        (vec!["crowd", "no-such-file.obj"], "no-such-file.obj"),
    ] {
        let (code, _, stderr) = navlab(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

/// `navlab grid --algo dstar-lite --walk-steps --paint` on arena.map (MovingAI): the agent walks, a
/// wall goes up across its path ahead, and the repaired path, from where the agent stands, is
/// as long as a fresh A*'s on the painted map and walks round the wall; the repair takes fewer
/// cells than that A* expands. The flags with another algorithm, or painting off the map, are
/// refused (exit 2).
#[test]
fn dstar_lite_repairs_a_path_painted_across_on_the_command_line() {
    let Some(map_path) = testdata("movingai/arena.map") else {
        return;
    };
    let map_file = map_path.to_str().expect("utf-8");
    let ask = |extra: &[&str]| {
        let mut args = vec![
            "grid",
            map_file,
            "--from",
            "3,3",
            "--to",
            "40,40",
            "--algo",
            "dstar-lite",
            "--json",
        ];
        args.extend_from_slice(extra);
        navlab(&args)
    };
    let (code, stdout, stderr) = ask(&[]);
    assert_eq!(code, Some(0), "{stderr}");
    let first: Value = serde_json::from_str(&stdout).expect("json");
    let path: Vec<(usize, usize)> = first["path"]
        .as_array()
        .expect("a path")
        .iter()
        .map(|c| {
            (
                c[0].as_u64().expect("x") as usize,
                c[1].as_u64().expect("y") as usize,
            )
        })
        .collect();
    // Five steps on, a wall across the path three cells ahead of the agent.
    let (ahead_x, ahead_y) = path[8];
    let wall: Vec<(usize, usize)> = (ahead_y.saturating_sub(2)..=ahead_y + 2)
        .map(|y| (ahead_x, y))
        .collect();
    let paints: Vec<String> = wall.iter().map(|(x, y)| format!("{x},{y}=wall")).collect();
    let mut extra = vec!["--walk-steps", "5"];
    for p in &paints {
        extra.extend(["--paint", p.as_str()]);
    }
    let (code, stdout, stderr) = ask(&extra);
    assert_eq!(code, Some(0), "{stderr}");
    let v: Value = serde_json::from_str(&stdout).expect("json");
    let repair = &v["repair"];
    assert_eq!(repair["walked"], 5);
    assert_eq!(repair["agent"], serde_json::json!([path[5].0, path[5].1]));
    let mut painted = navlab::grid::movingai::load_map(&map_path).expect("arena");
    for &cell in &wall {
        painted.set(cell, navlab::grid::Tile::Wall);
    }
    let fresh = painted.path(path[5], (40, 40));
    let length = repair["length"].as_f64().expect("a repaired path");
    assert!(
        (length - fresh.cost).abs() < 1e-9,
        "{length} vs A* {}",
        fresh.cost
    );
    let cells: Vec<(usize, usize)> = repair["path"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| {
            (
                c[0].as_u64().expect("x") as usize,
                c[1].as_u64().expect("y") as usize,
            )
        })
        .collect();
    assert_eq!(cells.first(), Some(&path[5]));
    assert!(cells.iter().all(|c| !wall.contains(c)), "through the wall");
    let (expanded, fresh_expanded) = (
        repair["expanded"].as_u64().expect("a count"),
        repair["fresh_astar_expanded"].as_u64().expect("a count"),
    );
    assert_eq!(fresh_expanded, fresh.expanded as u64);
    assert!(
        expanded > 0 && expanded < fresh_expanded,
        "{expanded} vs {fresh_expanded}"
    );
    // Refused: another algorithm, a cell off the map.
    let (code, _, stderr) = navlab(&[
        "grid", map_file, "--from", "3,3", "--to", "40,40", "--paint", "5,5=wall",
    ]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("--algo dstar-lite"), "{stderr}");
    let (code, _, stderr) = ask(&["--paint", "900,5=wall"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("off the map"), "{stderr}");
}
