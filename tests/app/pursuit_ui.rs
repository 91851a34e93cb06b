//! The pursuit scene driven headlessly with egui_kittest: add a mob by clicking, play, pause,
//! single-step, reset, toggle wall avoidance, paint a wall while it runs, drive the kitten.

use crate::common;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use navlab::app::files::ScriptedDialogs;
use navlab::app::{AppSettings, NavlabApp, SceneKind};
use navlab::geom::Vec2;
use navlab::grid::Tile;
use navlab::pursuit::KittenControl;

fn harness() -> Harness<'static, NavlabApp> {
    let app = NavlabApp::new(
        AppSettings::default(),
        Box::new(ScriptedDialogs {
            ..Default::default()
        }),
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
    h.run_steps(2);
    h.get_by_label("Pursuit").click();
    h.run_steps(3);
    assert_eq!(h.state().settings.scene, SceneKind::Pursuit);
    h
}

fn click_at(h: &mut Harness<'_, NavlabApp>, world: Vec2, button: egui::PointerButton) {
    let view = h.state().scenes.pursuit.last_view().expect("canvas drawn");
    common::click_screen(h, view.screen_from_world(world), button);
    h.run_steps(1);
}

#[test]
fn add_a_mob_by_clicking_then_play_pause_and_step() {
    let mut h = harness();
    let before = h.state().scenes.pursuit.world.mobs.len();
    h.get_by_label("Add mob").click();
    h.run_steps(1);
    click_at(&mut h, Vec2::new(5.5, 0.5), egui::PointerButton::Primary);
    assert_eq!(h.state().scenes.pursuit.world.mobs.len(), before + 1);
    let added = h.state().scenes.pursuit.world.mobs[before].body.position;
    assert!(added.distance(Vec2::new(5.5, 0.5)) < 0.5, "{added}");
    // A click on a wall adds nothing and says why.
    click_at(&mut h, Vec2::new(2.5, 5.5), egui::PointerButton::Primary);
    assert_eq!(h.state().scenes.pursuit.world.mobs.len(), before + 1);
    assert!(
        h.state()
            .scenes
            .pursuit
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("wall"))
    );

    assert_eq!(h.state().scenes.pursuit.world.ticks(), 0);
    // No mob has looked yet: none has a state.
    assert_eq!(h.get_all_by_label("ready").count(), before + 1);
    h.get_by_label("Play").click();
    h.run_steps(20);
    assert_eq!(h.query_all_by_label("ready").count(), 0);
    let running = h.state().scenes.pursuit.world.ticks();
    assert!(running > 5, "{running} steps after 20 frames");
    assert!(h.state().scenes.pursuit.world.kitten.body.velocity.length() > 0.0);
    h.get_by_label("Pause").click();
    h.run_steps(2);
    let paused = h.state().scenes.pursuit.world.ticks();
    h.run_steps(10);
    assert_eq!(
        h.state().scenes.pursuit.world.ticks(),
        paused,
        "paused means paused"
    );
    h.get_by_label("Step").click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.pursuit.world.ticks(), paused + 1);
    // Keyboard: N steps, Space plays.
    h.key_press(egui::Key::N);
    h.run_steps(1);
    assert_eq!(h.state().scenes.pursuit.world.ticks(), paused + 2);
    h.key_press(egui::Key::Space);
    h.run_steps(10);
    assert!(h.state().scenes.pursuit.playing);
    assert!(h.state().scenes.pursuit.world.ticks() > paused + 2);
    // Reset goes back to the start, paused, keeping the added mob.
    h.get_by_label("Reset").click();
    h.run_steps(3);
    let p = &h.state().scenes.pursuit;
    assert!(!p.playing);
    assert_eq!(p.world.mobs.len(), before + 1);
    assert_eq!(p.world.ticks(), 0);
    assert!(p.world.trail.is_empty());
    assert_eq!(p.world.mobs[before].body.position, added);
}

#[test]
fn toggling_avoidance_reaches_the_simulation() {
    let mut h = harness();
    assert!(h.state().scenes.pursuit.settings.config.avoid_walls);
    h.get_by_label("Avoid walls").click();
    h.run_steps(1);
    assert!(!h.state().scenes.pursuit.settings.config.avoid_walls);
    h.get_by_label("Step").click();
    h.run_steps(1);
    assert!(!h.state().scenes.pursuit.world.config.avoid_walls);
    h.get_by_label("Avoid walls").click();
    h.run_steps(1);
    h.get_by_label("Step").click();
    h.run_steps(1);
    assert!(h.state().scenes.pursuit.world.config.avoid_walls);
}

#[test]
fn walls_painted_while_running_join_the_map_and_its_undo() {
    let mut h = harness();
    h.get_by_label("Play").click();
    h.run_steps(2);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    let cell = (28, 20);
    click_at(&mut h, Vec2::new(28.5, 20.5), egui::PointerButton::Primary);
    assert_eq!(
        h.state().scenes.pursuit.world.map().get(cell),
        Some(Tile::Wall)
    );
    assert_eq!(h.state().map.map.get(cell), Some(Tile::Wall));
    assert!(h.state().map.dirty, "the edit is unsaved work");
    assert!(h.state().scenes.pursuit.playing);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().map.map.get(cell), Some(Tile::Grass));
    assert_eq!(
        h.state().scenes.pursuit.world.map().get(cell),
        Some(Tile::Grass)
    );
}

#[test]
fn right_click_sends_the_kitten_and_the_keys_drive_it() {
    let mut h = harness();
    let goal = Vec2::new(29.5, 20.5);
    click_at(&mut h, goal, egui::PointerButton::Secondary);
    assert_eq!(
        h.state().scenes.pursuit.settings.control,
        KittenControl::Route
    );
    assert!(
        h.state()
            .scenes
            .pursuit
            .world
            .kitten
            .path
            .last()
            .is_some_and(|p| p.distance(goal) < 0.5)
    );
    h.get_by_label("Play").click();
    let x0 = h.state().scenes.pursuit.world.kitten.body.position.x;
    h.event(egui::Event::Key {
        key: egui::Key::A,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(30);
    h.event(egui::Event::Key {
        key: egui::Key::A,
        physical_key: None,
        pressed: false,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run_steps(1);
    assert_eq!(
        h.state().scenes.pursuit.settings.control,
        KittenControl::Keys
    );
    let x1 = h.state().scenes.pursuit.world.kitten.body.position.x;
    assert!(x1 < x0 - 0.5, "moved left: {x0} -> {x1}");
}

#[test]
fn copy_log_puts_every_event_on_the_clipboard() {
    let mut h = harness();
    h.get_by_label("Play").click();
    h.run_steps(120);
    h.get_by_label("Pause").click();
    h.run_steps(2);
    let log: Vec<String> = h
        .state()
        .scenes
        .pursuit
        .log
        .iter()
        .map(|e| e.explain())
        .collect();
    assert!(
        !log.is_empty(),
        "two seconds of the default scene have events"
    );
    let copied = common::click_and_copied(&mut h, "Copy log");
    assert_eq!(copied, [log.join("\n")]);
}

/// On a large map zoomed out, the tiles (a texture then) are made again only when the map or a
/// drawn ray changes: not while the scene stands paused.
#[test]
fn a_large_paused_map_is_not_redrawn_until_something_changes() {
    let mut h = harness();
    h.state_mut()
        .command(navlab::app::Command::NewMap(1024, 1024));
    h.run_steps(3);
    assert_eq!(h.state().scenes.pursuit.world.map().width(), 1024);
    let made = |h: &Harness<'_, NavlabApp>| {
        navlab::app::tile_paint::textures_made(
            &h.ctx,
            navlab::app::pursuit_scene::tiles_texture_id(),
        )
    };
    let before = made(&h);
    assert!(before > 0, "drawn as a texture");
    h.run_steps(3);
    assert_eq!(made(&h), before, "paused: nothing changed");
    assert!(h.state_mut().paint((700, 700), Tile::Wall));
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.pursuit.world.map().get((700, 700)),
        Some(Tile::Wall)
    );
    assert_eq!(made(&h), before + 1, "the map changed");
}

/// A stroke whose press, moves and release reach egui in one frame paints its cells, as one
/// undo step.
#[test]
fn a_stroke_within_one_frame_paints_walls() {
    let mut h = harness();
    h.get_by_label("Wall").click();
    h.run_steps(1);
    let view = h.state().scenes.pursuit.last_view().expect("canvas drawn");
    let at = |x: usize, y: usize| view.screen_from_world(Vec2::new(x as f64 + 0.5, y as f64 + 0.5));
    common::pointer_in_one_frame(&mut h, &[at(26, 20), at(28, 20), at(29, 20)], true);
    h.run_steps(1);
    for x in 26..=29 {
        assert_eq!(
            h.state().scenes.pursuit.world.map().get((x, 20)),
            Some(Tile::Wall),
            "{x}"
        );
        assert_eq!(h.state().map.map.get((x, 20)), Some(Tile::Wall), "{x}");
    }
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    for x in 26..=29 {
        assert_eq!(
            h.state().map.map.get((x, 20)),
            Some(Tile::Grass),
            "one undo step: {x}"
        );
    }
}

/// Writes the map shown to `file` and opens it from there, back in the pursuit scene.
fn open_as_file(h: &mut Harness<'_, NavlabApp>, file: &std::path::Path) {
    std::fs::write(
        file,
        navlab::grid::movingai::to_map_text(&h.state().map.map),
    )
    .expect("write");
    h.state_mut()
        .command(navlab::app::Command::LoadMap(file.to_path_buf()));
    h.run_steps(3);
    // Opening a map shows it in the Tile map view.
    h.get_by_label("Pursuit").click();
    h.run_steps(3);
    assert_eq!(h.state().settings.scene, SceneKind::Pursuit);
    assert_eq!(h.state().map.file.as_deref(), Some(file));
}

/// Copy command gives the run as `navlab pursue` takes it, and the command, run, ends where the
/// window stands: the same catches, the same positions (the CLI is the oracle). Without a saved
/// map the button says why it cannot.
#[test]
fn copy_command_gives_a_pursue_command_that_ends_where_the_window_stands() {
    let mut h = harness();
    assert!(
        h.get_by_label("Copy command")
            .accesskit_node()
            .is_disabled(),
        "the built-in map is in no file"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let map = dir.path().join("pursuit map.map");
    open_as_file(&mut h, &map);
    assert!(
        !h.get_by_label("Copy command")
            .accesskit_node()
            .is_disabled()
    );
    // A third mob, and twelve seconds of the hunt (long enough for the seed to matter).
    click_at(&mut h, Vec2::new(5.5, 0.5), egui::PointerButton::Primary);
    assert_eq!(h.state().scenes.pursuit.world.mobs.len(), 3);
    h.get_by_label("Play").click();
    h.run_steps(720);
    h.get_by_label("Pause").click();
    h.run_steps(2);
    let copied = common::click_and_copied(&mut h, "Copy command");
    let [command] = copied.as_slice() else {
        panic!("one copy: {copied:?}")
    };
    let world = &h.state().scenes.pursuit.world;
    assert!(world.time() > 11.0, "{}", world.time());
    // The map's name has a space: the command quotes it.
    let quoted = format!("'{}'", map.display());
    let rest = command
        .strip_prefix("navlab pursue ")
        .and_then(|c| c.strip_prefix(&quoted))
        .unwrap_or_else(|| panic!("{command}"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_navlab"))
        .arg("pursue")
        .arg(&map)
        .args(rest.split_whitespace())
        .arg("--json")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let round = |t: f64| (t * 1000.0).round() / 1000.0;
    assert_eq!(printed["seconds"], serde_json::json!(round(world.time())));
    let kitten = world.kitten.body.position;
    assert_eq!(
        printed["kitten"],
        serde_json::json!([round(kitten.x), round(kitten.y)])
    );
    let mobs = printed["mobs"].as_array().expect("mobs");
    assert_eq!(mobs.len(), world.mobs.len());
    for (printed, mob) in mobs.iter().zip(&world.mobs) {
        assert_eq!(printed["catches"], serde_json::json!(mob.catches));
        let p = mob.body.position;
        assert_eq!(
            printed["position"],
            serde_json::json!([round(p.x), round(p.y)])
        );
    }
}

/// Where the mobs and the kitten start is kept between runs, with the map they were placed
/// on: the next run puts them back when that map opens again, and not on another map.
#[test]
fn placed_mobs_come_back_at_the_next_start_on_their_map() {
    let mut h = harness();
    let dir = tempfile::tempdir().expect("temp dir");
    let map = dir.path().join("hunt.map");
    open_as_file(&mut h, &map);
    click_at(&mut h, Vec2::new(5.5, 0.5), egui::PointerButton::Primary);
    let homes = |app: &NavlabApp| -> Vec<Vec2> {
        app.scenes
            .pursuit
            .world
            .mobs
            .iter()
            .map(|m| m.home)
            .collect()
    };
    let placed = homes(h.state());
    assert_eq!(placed.len(), 3);
    // What eframe would store, through serde; the next run starts on the last map.
    let saved = serde_json::to_string(&h.state().settings).expect("serialises");
    let restart = || {
        let restored: AppSettings = serde_json::from_str(&saved).expect("deserialises");
        let app = NavlabApp::new(restored, Box::new(ScriptedDialogs::default()));
        let mut h = Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
        h.run_steps(3);
        h
    };
    let mut again = restart();
    assert_eq!(again.state().settings.scene, SceneKind::Pursuit);
    assert_eq!(again.state().map.file.as_deref(), Some(map.as_path()));
    assert_eq!(homes(again.state()), placed);
    // A run that never shows the scene keeps them as they were.
    again.get_by_label("Tile map").click();
    again.run_steps(2);
    let kept = again.state().settings.scenes.pursuit.placements.clone();
    assert_eq!(kept.as_ref().map(|p| p.mobs.len()), Some(3));
    // On another map they are not put back.
    std::fs::remove_file(&map).expect("remove");
    let mut elsewhere = restart();
    elsewhere.get_by_label("Pursuit").click();
    elsewhere.run_steps(3);
    assert_eq!(elsewhere.state().map.file, None, "the map is gone");
    assert_ne!(homes(elsewhere.state()), placed);
}

/// Default places puts back the places a new map gets, whatever was added or removed.
#[test]
fn default_places_start_over_from_the_places_a_new_map_gets() {
    let mut h = harness();
    let homes = |h: &Harness<'_, NavlabApp>| -> Vec<Vec2> {
        h.state()
            .scenes
            .pursuit
            .world
            .mobs
            .iter()
            .map(|m| m.home)
            .collect()
    };
    let first = homes(&h);
    let kitten = h.state().scenes.pursuit.world.kitten.body.position;
    click_at(&mut h, Vec2::new(5.5, 0.5), egui::PointerButton::Primary);
    h.get_by_label("Remove mob").click();
    h.run_steps(1);
    click_at(&mut h, first[0], egui::PointerButton::Primary);
    h.get_by_label("Play").click();
    h.run_steps(30);
    assert_ne!(homes(&h), first);
    h.get_by_label("Default places").click();
    h.run_steps(2);
    assert_eq!(homes(&h), first);
    let pursuit = &h.state().scenes.pursuit;
    assert_eq!(pursuit.world.kitten.body.position, kitten);
    assert_eq!(pursuit.world.ticks(), 0);
    assert!(!pursuit.playing);
}

/// A map where a wall hides the bottom-left corner from the middle, where the kitten starts;
/// tiles a few steps above the corner see past the wall's top.
fn corner_behind_a_wall() -> navlab::grid::TileMap {
    let mut rows = vec![".............................."; 12];
    rows.extend(vec!["........#....................."; 8]);
    common::walled_map(&rows)
}

/// On a new map the mobs start where they see the kitten when some tile near their corner
/// does: before, a mob in the corner behind the wall was lost at 0.02 s and never moved.
#[test]
fn on_a_new_map_the_mobs_start_in_sight_of_the_kitten() {
    let mut app = common::app();
    app.map = navlab::grid::MapDocument::new(corner_behind_a_wall(), None);
    app.settings.scene = SceneKind::Pursuit;
    let scene = &mut app.scenes.pursuit;
    scene.sync_map(&app.map);
    assert_eq!(scene.world.mobs.len(), 2);
    scene.step();
    for (i, mob) in scene.world.mobs.iter().enumerate() {
        assert_eq!(
            mob.state,
            navlab::pursuit::MobState::Chasing,
            "mob {} at {} does not see the kitten at {}",
            i + 1,
            mob.body.position,
            scene.world.kitten.body.position
        );
    }
    // The bottom-left mob is still the bottom-left one: left of the wall's top, low down.
    let first = scene.world.mobs[0].body.position;
    assert!(first.y > 10.0, "{first}");
}

/// A mob that sees nothing says why it stands still and what would move it.
#[test]
fn a_lost_mob_says_why_it_stands_and_what_would_move_it() {
    let mut app = common::app();
    app.map = navlab::grid::MapDocument::new(corner_behind_a_wall(), None);
    app.settings.scene = SceneKind::Pursuit;
    let scene = &mut app.scenes.pursuit;
    scene.sync_map(&app.map);
    assert!(scene.add_mob(Vec2::new(2.5, 18.5)), "a mob behind the wall");
    scene.step();
    let lost = scene.world.mobs.len();
    assert_eq!(
        scene.world.mobs[lost - 1].state,
        navlab::pursuit::MobState::Lost
    );
    let caption = scene.caption();
    assert!(
        caption.contains(&format!(
            "Mob {lost} waits until the kitten or its trail comes into its sight"
        )),
        "{caption}"
    );
    assert!(
        caption.contains("right-click to send the kitten past"),
        "{caption}"
    );
}
