//! Lesson files: what is shown saved as a `.navlab` and opened again in a fresh window shows
//! the same picture (both drawn without a display and compared pixel by pixel); a lesson whose
//! file is missing, leads outside its folder or comes from a newer navlab is refused and the
//! window keeps what it had; the menu's Save lesson… and opening through Open….

use crate::common;
use common::{app, differences, harness, picture};
use egui_kittest::kittest::Queryable;
use navlab::app::files::ScriptedDialogs;
use navlab::app::navmesh_scene::{MeshSource, NavmeshScene};
use navlab::app::screenshot::Steps;
use navlab::app::{AppSettings, Command, NavlabApp, SceneKind};
use navlab::geom::Vec2;
use navlab::navmesh::CostModel;
use std::collections::VecDeque;
use std::path::PathBuf;

/// The built-in hole.obj with the edge-midpoint model, placed, at step 30 of 80-odd.
fn teaching_app() -> NavlabApp {
    let mut app = app();
    let mut settings = app.scenes.navmesh.settings.clone();
    settings.cost = CostModel::Midpoint;
    app.scenes.navmesh = NavmeshScene::embedded(navlab::assets::HOLE, settings);
    app.scenes
        .navmesh
        .place(Some(Vec2::new(3.866, 2.379)), Some(Vec2::new(3.567, 9.393)));
    app.scenes.navmesh.show_step(30);
    app
}

#[test]
fn a_lesson_opened_again_shows_the_same_picture() {
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("hole.navlab");
    let mut first = teaching_app();
    let before = picture(&mut first);
    first.save_lesson(&path).expect("saved");
    let text = std::fs::read_to_string(&path).expect("written");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(json["navlab_lesson"], 1);
    assert_eq!(json["navmesh"]["mesh"]["kind"], "built_in");
    assert_eq!(json["step"], 30);

    let mut second = app();
    second.open_lesson(&path).expect("opens");
    let scene = &second.scenes.navmesh;
    assert_eq!(scene.settings.cost, CostModel::Midpoint);
    assert_eq!(scene.query.playback.cursor, 30);
    assert_eq!(scene.query.start, first.scenes.navmesh.query.start);
    // The status bar's notice ("Opened the lesson …") aside, as a screenshot would be.
    second.notice = None;
    let after = picture(&mut second);
    assert_eq!(before.size, after.size);
    let [w, _] = before.size;
    let different: Vec<(usize, usize)> = before
        .pixels
        .iter()
        .zip(&after.pixels)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| (i % w, i / w))
        .collect();
    assert!(
        different.is_empty(),
        "{} pixels differ, first {:?}",
        different.len(),
        different.first()
    );
}

#[test]
fn a_lesson_on_a_built_in_mesh_keeps_the_xy_plane_setting_and_the_mesh_shown() {
    // The built-in meshes are Y up: shown in XZ whatever plane files are read in. Stairs have
    // height, so reading them in XY would show another mesh.
    let mut first = app();
    let mut settings = first.scenes.navmesh.settings.clone();
    settings.plane = navlab::navmesh::Plane::Xy;
    first.scenes.navmesh = NavmeshScene::embedded(navlab::assets::STAIRS, settings);
    let shown = first.scenes.navmesh.mesh().clone();
    assert_eq!(shown.plane(), navlab::navmesh::Plane::Xz);
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("stairs.navlab");
    first.save_lesson(&path).expect("saved");

    let mut second = app();
    second.open_lesson(&path).expect("opens");
    let scene = &second.scenes.navmesh;
    assert_eq!(scene.settings.plane, navlab::navmesh::Plane::Xy);
    assert_eq!(scene.mesh().plane(), navlab::navmesh::Plane::Xz);
    assert_eq!(scene.mesh().vertices(), shown.vertices());
    assert_eq!(scene.mesh().triangles(), shown.triangles());
}

#[test]
fn a_mesh_beside_the_lesson_is_named_and_a_missing_one_opens_nothing() {
    let dir = tempfile::tempdir().expect("temp");
    let mesh = dir.path().join("hole.obj");
    std::fs::copy(common::repo_path("assets/hole.obj"), &mesh).expect("copied");
    let mut first = app();
    first.load_file(mesh.clone());
    assert!(matches!(
        first.scenes.navmesh.origin.source,
        MeshSource::File(_)
    ));
    let lesson = dir.path().join("lesson.navlab");
    first.save_lesson(&lesson).expect("saved");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&lesson).expect("read")).expect("JSON");
    assert_eq!(json["navmesh"]["mesh"]["path"], "hole.obj");
    // Opened: the file beside it.
    let mut second = app();
    second.open_lesson(&lesson).expect("opens");
    assert_eq!(
        second.scenes.navmesh.mesh().triangles().len(),
        first.scenes.navmesh.mesh().triangles().len()
    );
    // The mesh gone: refused, naming it; the window keeps the built-in scene it had.
    std::fs::remove_file(&mesh).expect("removed");
    let mut third = app();
    let shown = third.scenes.navmesh.origin.source.name();
    let error = third.open_lesson(&lesson).expect_err("missing");
    assert!(
        error.contains("hole.obj") && error.contains("missing"),
        "{error}"
    );
    assert_eq!(third.scenes.navmesh.origin.source.name(), shown);
    // A lesson that names a file outside its folder, or one from a newer navlab.
    for (mesh, wanted) in [
        (
            serde_json::json!({"kind": "file", "path": "../elsewhere.obj"}),
            "outside its folder",
        ),
        (
            serde_json::json!({"kind": "file", "path": "/etc/passwd"}),
            "outside its folder",
        ),
    ] {
        let mut edited = json.clone();
        edited["navmesh"]["mesh"] = mesh;
        std::fs::write(&lesson, edited.to_string()).expect("w");
        let error = app().open_lesson(&lesson).expect_err("refused");
        assert!(error.contains(wanted), "{error}");
    }
    let mut newer = json.clone();
    newer["navlab_lesson"] = serde_json::json!(2);
    std::fs::write(&lesson, newer.to_string()).expect("w");
    let error = app().open_lesson(&lesson).expect_err("newer");
    assert!(error.contains("newer navlab"), "{error}");
    std::fs::write(&lesson, "{\"navlab_lesson\": 1,\n \"scene\": ").expect("w");
    let error = app().open_lesson(&lesson).expect_err("broken");
    assert!(error.contains("line 2"), "{error}");
}

#[test]
fn an_edited_map_goes_inside_the_lesson() {
    let dir = tempfile::tempdir().expect("temp");
    let mut first = app();
    first.settings.scene = SceneKind::TileMap;
    assert!(first.paint((4, 4), navlab::grid::Tile::Water));
    first.scenes.tile_map.settings.algorithm = navlab::grid::AlgorithmKind::Fringe;
    first.scenes.tile_map.rerun(&first.map);
    let lesson = dir.path().join("map.navlab");
    first.save_lesson(&lesson).expect("saved");
    let mut second = app();
    second.open_lesson(&lesson).expect("opens");
    assert_eq!(second.settings.scene, SceneKind::TileMap);
    assert_eq!(second.map.map, first.map.map);
    assert_eq!(
        second.scenes.tile_map.settings.algorithm,
        navlab::grid::AlgorithmKind::Fringe
    );
}

#[test]
fn save_lesson_in_the_menu_and_open_it_with_open() {
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("from-the-menu.navlab");
    let dialogs = ScriptedDialogs {
        answers: VecDeque::from([Some(path.clone()), Some(path.clone())]),
        ..Default::default()
    };
    let app = NavlabApp::new(AppSettings::default(), Box::new(dialogs));
    let mut h = harness(app);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Save lesson…").click();
    h.run_steps(3);
    assert!(path.is_file(), "{:?}", h.state().error());
    h.state_mut().command(Command::OpenDialog);
    h.run_steps(3);
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    let _: PathBuf = path;
}

/// A lesson's settings go through the same ranges as the window's controls: every number at
/// an extreme (as a stranger's lesson or share link may hold) opens clamped, and the window
/// searches with the clamped values.
#[test]
fn a_lessons_settings_at_their_extremes_open_within_range() {
    let app = teaching_app();
    let lesson = app.lesson_in(None).expect("a lesson");
    let mut value = serde_json::to_value(&lesson).expect("JSON");
    let navmesh = &mut value["navmesh"]["settings"];
    navmesh["heuristic_weight"] = serde_json::json!(1e300);
    navmesh["max_slope"] = serde_json::json!(-1e300);
    navmesh["agent_radius"] = serde_json::json!(-3.0);
    navmesh["speed"] = serde_json::json!(1e300);
    navmesh["walk"] = serde_json::json!({
        "speed": 1e300, "turn_rate": -1.0, "corner_radius": 1e300, "step": 0.0
    });
    let grid = &mut value["tile_map"]["settings"];
    grid["weight"] = serde_json::json!(-1e300);
    grid["budget"] = serde_json::json!(u64::MAX);
    grid["speed"] = serde_json::json!(-1.0);
    grid["agent_radius"] = serde_json::json!(1e300);
    let bytes = serde_json::to_vec(&value).expect("bytes");
    let mut app = common::app();
    app.open_lesson_bytes(&bytes, "extreme.navlab", None)
        .expect("opens");
    let n = &app.scenes.navmesh.settings;
    assert_eq!(n.heuristic_weight, 5.0);
    assert_eq!(n.max_slope, Some(0.0));
    assert_eq!(n.agent_radius, None);
    assert_eq!(n.speed, 1000.0);
    assert_eq!(app.scenes.navmesh.query.playback.speed, 1000.0);
    assert_eq!(
        (
            n.walk.speed,
            n.walk.turn_rate,
            n.walk.corner_radius,
            n.walk.step
        ),
        (100.0, 0.01, 100.0, 1e-3)
    );
    let g = &app.scenes.tile_map.settings;
    assert_eq!(g.weight, 0.0);
    assert_eq!(g.budget, 10_000_000);
    assert_eq!(g.speed, 1.0);
    assert_eq!(app.scenes.tile_map.playback.speed, 1.0);
    assert_eq!(g.agent_radius, navlab::navmesh::from_map::MAX_AGENT_RADIUS);
}

/// `navlab open lesson.navlab` by its bare name, in its own folder, reads the mesh beside it
/// (the lesson's folder is `.`, not the empty path).
#[test]
fn a_lesson_named_bare_in_its_folder_opens() {
    let dir = tempfile::tempdir().expect("temp");
    let mesh = dir.path().join("hole.obj");
    std::fs::copy(common::repo_path("assets/hole.obj"), &mesh).expect("copied");
    let mut first = app();
    first.load_file(mesh);
    first
        .save_lesson(&dir.path().join("lesson.navlab"))
        .expect("saved");
    let picture = dir.path().join("shot.png");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_navlab"))
        .current_dir(dir.path())
        .args(["open", "lesson.navlab", "--screenshot", "shot.png"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(picture.is_file());
}

/// A file name inside a lesson is a stranger's text: the error quotes it shortened, with its
/// control characters escaped, on one line (a 5,000-character name with a forged `error:`
/// line in it).
#[test]
fn a_file_named_in_a_lesson_is_quoted_short_on_one_line() {
    let dir = tempfile::tempdir().expect("temp");
    let mesh = dir.path().join("hole.obj");
    std::fs::copy(common::repo_path("assets/hole.obj"), &mesh).expect("copied");
    let mut first = app();
    first.load_file(mesh);
    let lesson = dir.path().join("lesson.navlab");
    first.save_lesson(&lesson).expect("saved");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&lesson).expect("read")).expect("JSON");
    let name = format!("{}\nerror: forged.obj", "a".repeat(5_000));
    json["navmesh"]["mesh"] = serde_json::json!({"kind": "file", "path": name});
    std::fs::write(&lesson, json.to_string()).expect("w");
    let error = app().open_lesson(&lesson).expect_err("missing");
    assert!(error.contains("missing"), "{error}");
    assert!(!error.contains('\n'), "one line: {error}");
    assert!(
        error.len() < lesson.display().to_string().len() + 200,
        "{} characters",
        error.len()
    );
}

/// A value of the wrong kind in a lesson is named by the field it is in and its line.
#[test]
fn a_wrong_value_in_a_lesson_is_named_by_its_field_and_line() {
    let lesson = teaching_app().lesson_in(None).expect("a lesson");
    let mut value = serde_json::to_value(&lesson).expect("JSON");
    value["navmesh"]["settings"]["speed"] = serde_json::json!("fast");
    let text = serde_json::to_string_pretty(&value).expect("text");
    let line = text
        .lines()
        .position(|l| l.contains("\"fast\""))
        .expect("the value")
        + 1;
    let error = app()
        .open_lesson_bytes(text.as_bytes(), "wrong.navlab", None)
        .expect_err("refused");
    assert!(error.contains("`navmesh.settings.speed`"), "{error}");
    assert!(error.contains(&format!("line {line},")), "{error}");
}

/// A start, a goal, a floor height or a camera beyond the coordinates navlab takes (as a
/// stranger's lesson or share link may hold) is refused by its field; within them, a start a
/// hundred million units off the mesh is drawn (snapped, its dashed line cut to the view)
/// without a burst of memory.
#[test]
fn a_point_beyond_the_coordinate_range_is_refused_and_a_far_one_drawn() {
    let lesson = teaching_app().lesson_in(None).expect("a lesson");
    let value = serde_json::to_value(&lesson).expect("JSON");
    for (field, bad) in [
        ("start", serde_json::json!([1e10, 0.0])),
        ("goal", serde_json::json!([0.0, -1e300])),
        ("start_height", serde_json::json!(2e9)),
        (
            "camera",
            serde_json::json!({"center": [3e9, 0.0], "scale": 20.0}),
        ),
        (
            "camera",
            serde_json::json!({"center": [0.0, 0.0], "scale": 1e30}),
        ),
    ] {
        let mut wrong = value.clone();
        wrong["navmesh"][field] = bad;
        let error = app()
            .open_lesson_bytes(
                &serde_json::to_vec(&wrong).expect("bytes"),
                "far.navlab",
                None,
            )
            .expect_err("refused");
        assert!(error.contains(&format!("`navmesh.{field}`")), "{error}");
        assert!(
            error.contains("a coordinate beyond ±") || error.contains("a camera scale outside"),
            "the limit is said: {error}"
        );
    }
    let mut far = value.clone();
    far["navmesh"]["start"] = serde_json::json!([9e8, 3.0]);
    let bytes = serde_json::to_vec(&far).expect("bytes");
    let mut opened = app();
    opened
        .open_lesson_bytes(&bytes, "far.navlab", None)
        .expect("opens");
    let shapes = common::shapes_of_frame(&mut opened);
    assert!(shapes < 20_000, "{shapes} shapes for one frame");
}

/// A mesh or a map written inside a lesson is named as that part of the lesson, so that the
/// line of an error in it is read as the embedded text's line, not the lesson's.
#[test]
fn an_error_in_an_embedded_mesh_or_map_names_that_part_and_its_line() {
    let lesson = teaching_app().lesson_in(None).expect("a lesson");
    let value = serde_json::to_value(&lesson).expect("JSON");
    let mut mesh = value.clone();
    mesh["navmesh"]["mesh"] =
        serde_json::json!({"kind": "embedded", "text": "v 0 0 0\nv 1 0 0\nf 1 2 9\n"});
    let error = app()
        .open_lesson_bytes(
            &serde_json::to_vec(&mesh).expect("bytes"),
            "part.navlab",
            None,
        )
        .expect_err("a face past the vertices");
    assert!(
        error.contains("part.navlab[navmesh.mesh.text]:3:"),
        "{error}"
    );
    let mut map = value;
    map["tile_map"]["map"] =
        serde_json::json!({"kind": "embedded", "text": "{\n\"width\": 2,\n\"height\": \"x\"\n}"});
    let error = app()
        .open_lesson_bytes(
            &serde_json::to_vec(&map).expect("bytes"),
            "part.navlab",
            None,
        )
        .expect_err("a height that is no number");
    assert!(error.contains("part.navlab[tile_map.map.text]"), "{error}");
    assert!(error.contains("line 3"), "{error}");
}

/// The pursuit on the built-in map with a third mob, another seed and the oldest-point rule,
/// the third mob chosen, three and a half seconds in.
fn hunting_app() -> NavlabApp {
    let mut app = app();
    app.settings.scene = SceneKind::Pursuit;
    app.scenes.pursuit.sync_map(&app.map);
    let hunt = &mut app.scenes.pursuit;
    hunt.settings.config.seed = 7;
    hunt.settings.config.trail_choice = navlab::pursuit::TrailChoice::Oldest;
    hunt.reset();
    assert!(hunt.add_mob(Vec2::new(3.5, 3.5)), "the third mob stands");
    hunt.selected = Some(2);
    hunt.show_step(210);
    app
}

#[test]
fn a_pursuit_lesson_runs_the_same_hunt_to_the_same_picture() {
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("hunt.navlab");
    let mut first = hunting_app();
    let before = picture(&mut first);
    first.save_lesson(&path).expect("saved");
    let notice = first.notice.clone().unwrap_or_default();
    assert!(!notice.contains("run again"), "it replays: {notice}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
    assert_eq!(json["scene"], "Pursuit");
    assert_eq!(json["step"], 210);
    assert_eq!(json["pursuit"]["mobs"].as_array().map(Vec::len), Some(3));
    assert_eq!(json["pursuit"]["config"]["seed"], 7);

    let mut second = app();
    second.open_lesson(&path).expect("opens");
    assert_eq!(second.settings.scene, SceneKind::Pursuit);
    assert_eq!(second.scenes.pursuit.shown_step(), 210);
    assert_eq!(second.scenes.pursuit.selected, Some(2));
    second.notice = None;
    let after = picture(&mut second);
    let different = differences(&before, &after);
    assert!(
        different.is_empty(),
        "{} pixels differ, first {:?}",
        different.len(),
        different.first()
    );
    common::assert_golden("pursuit-lesson", &after);
}

#[test]
fn a_pursuit_steered_by_hand_is_saved_with_a_word_that_it_runs_its_own_way() {
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("hunt.navlab");
    let mut first = hunting_app();
    first.scenes.pursuit.kitten_go_to(Vec2::new(1.5, 1.5));
    first.scenes.pursuit.show_step(300);
    first.save_lesson(&path).expect("saved");
    let notice = first.notice.clone().unwrap_or_default();
    assert!(notice.contains("run again from its start"), "{notice}");
}

#[test]
fn a_pursuit_lesson_with_options_out_of_range_opens_within_them() {
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("hunt.navlab");
    let mut first = hunting_app();
    first.save_lesson(&path).expect("saved");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
    json["pursuit"]["config"]["trail_spacing"] = serde_json::json!(0.0);
    json["pursuit"]["config"]["kitten_speed"] = serde_json::json!(1e300);
    json["pursuit"]["speed"] = serde_json::json!(-5.0);
    json["pursuit"]["kitten"] = serde_json::json!([-3.0, 1e6]);
    json["pursuit"]["selected"] = serde_json::json!(99);
    std::fs::write(&path, json.to_string()).expect("written");
    let mut second = app();
    second.open_lesson(&path).expect("opens");
    let hunt = &second.scenes.pursuit;
    assert_eq!(hunt.settings.config.trail_spacing, 0.05);
    assert_eq!(hunt.settings.config.kitten_speed, 50.0);
    assert_eq!(hunt.settings.speed, 0.1);
    assert_eq!(hunt.selected, None);
    assert!(navlab::pursuit::placement(hunt.world.map(), hunt.starting_places().0).is_ok());

    json["pursuit"]["mobs"] = serde_json::json!(vec![[1.5, 1.5]; 300]);
    std::fs::write(&path, json.to_string()).expect("written");
    let error = app().open_lesson(&path).expect_err("too many mobs");
    assert!(error.contains("more than 256 mobs"), "{error}");
}

/// The level view with a level of the test's own (a floor under a low slab), a parameter
/// changed, a point asked about, a cross-section and a stage shown.
fn level_app(level_file: &std::path::Path) -> navlab::app::NavlabApp {
    let mut level = common::levels::Level::default();
    level.add_box([0.0, -0.5, 0.0], [12.0, 0.0, 12.0]);
    level.add_box([3.0, 1.8, 3.0], [9.0, 2.3, 9.0]);
    std::fs::write(level_file, level.obj()).expect("written");
    let mut app = app();
    app.open_level_file(level_file);
    let scene = &mut app.scenes.level;
    scene.set_build_settings(navlab::level::BuildSettings {
        agent_radius: 0.3,
        ..Default::default()
    });
    scene.set_section(Some([Vec2::new(1.0, 6.0), Vec2::new(11.0, 6.0)]));
    assert!(scene.add_volume(navlab::level::MarkedVolume {
        points: vec![[1.0, 1.0], [4.0, 1.0], [4.0, 4.0], [1.0, 4.0]],
        min_y: -1.0,
        max_y: 1.0,
        area: "road".into(),
    }));
    scene.ask([6.0, 6.0], Some(0));
    scene.wait_for_build();
    scene.show_step(5);
    app
}

#[test]
fn a_level_lesson_reopens_the_level_its_settings_the_question_and_the_section() {
    // The build's times are shown: the same on both sides.
    navlab::clock::fix_readings(true);
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("slab.obj");
    let path = dir.path().join("slab.navlab");
    let mut first = level_app(&file);
    assert!(first.scenes.level.why().is_some_and(|w| !w.is_kept()));
    // Links not looked for: the lesson keeps that.
    first.scenes.level.set_find_links(false);
    first.scenes.level.wait_for_build();
    let before = picture(&mut first);
    first.save_lesson(&path).expect("saved");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON");
    assert_eq!(json["scene"], "Level");
    assert_eq!(json["level"]["links"], false);
    assert_eq!(json["level"]["level"]["path"], "slab.obj", "{json}");
    assert_eq!(json["level"]["settings"]["agent_radius"], 0.3);

    let mut second = app();
    second.open_lesson(&path).expect("opens");
    assert_eq!(second.settings.scene, SceneKind::Level);
    let level = &second.scenes.level;
    assert_eq!(level.build_settings().agent_radius, 0.3);
    assert!(!level.finds_links() && level.found_links().is_none());
    assert_eq!(level.shown_step(), 5);
    assert_eq!(
        level.why().map(|w| w.reason),
        first.scenes.level.why().map(|w| w.reason)
    );
    second.notice = None;
    first.notice = None;
    let after = picture(&mut second);
    let different = differences(&before, &after);
    assert!(
        different.is_empty(),
        "{} pixels differ, first {:?}",
        different.len(),
        different.first()
    );

    // The same lesson saved elsewhere holds the level's text, and opens with no file beside it.
    let away = tempfile::tempdir().expect("temp");
    let moved = away.path().join("moved.navlab");
    first.save_lesson(&moved).expect("saved");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&moved).expect("written")).expect("JSON");
    assert!(
        json["level"]["level"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("v "))
    );
    std::fs::remove_file(&file).expect("removed");
    let mut third = app();
    third.open_lesson(&moved).expect("opens without the file");
    assert_eq!(
        third.scenes.level.level().faces.len(),
        first.scenes.level.level().faces.len()
    );
}

#[test]
fn a_lesson_with_level_settings_out_of_range_is_refused_and_nothing_changes() {
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("bad.navlab");
    let mut first = app();
    first.settings.scene = SceneKind::Level;
    first.save_lesson(&path).expect("saved");
    let text = std::fs::read_to_string(&path).expect("written");
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    json["level"]["settings"]["cell_size"] = serde_json::json!(0.0);
    std::fs::write(&path, json.to_string()).expect("written");
    let mut second = app();
    let error = second.open_lesson(&path).expect_err("refused");
    assert!(
        error.contains("cell-size") || error.contains("cell size"),
        "{error}"
    );
    assert_eq!(second.settings.scene, SceneKind::Navmesh);
}

#[test]
fn a_level_navmesh_is_saved_with_its_recipe_which_builds_it_again() {
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("slab.obj");
    let mut first = level_app(&file);
    let out = dir.path().join("slab.nav.obj");
    assert!(
        first.save_level_navmesh_to(out.clone()),
        "{:?}",
        first.error()
    );
    let recipe = dir.path().join("slab.nav.navlab");
    assert!(recipe.is_file(), "the recipe beside the navmesh");
    // Small: the level view alone, the level named by its file.
    let text = std::fs::read_to_string(&recipe).expect("written");
    assert!(text.len() < 2_000, "{} bytes", text.len());
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert!(
        json.get("navmesh").is_none() && json.get("tile_map").is_none(),
        "{json}"
    );
    let saved = navlab::navmesh::NavMesh::load_with(&out, Default::default()).expect("reads");
    let shown = first.scenes.level.navmesh().expect("a navmesh");
    assert_eq!(saved.triangles().len(), shown.triangles().len());
    let mut second = app();
    let map_before = second.map.map.clone();
    let mesh_before = second.scenes.navmesh.mesh().triangles().len();
    second.open_lesson(&recipe).expect("the recipe opens");
    assert_eq!(second.settings.scene, SceneKind::Level);
    // The other views are left as they were.
    assert!(second.map.map == map_before);
    assert_eq!(second.scenes.navmesh.mesh().triangles().len(), mesh_before);
    let level = &second.scenes.level;
    assert_eq!(level.level().path.as_deref(), Some(file.as_path()));
    assert_eq!(level.build_settings(), first.scenes.level.build_settings());
    assert_eq!(level.volumes(), first.scenes.level.volumes());
    assert_eq!(
        level.navmesh().expect("built again").triangles().len(),
        shown.triangles().len()
    );
}
