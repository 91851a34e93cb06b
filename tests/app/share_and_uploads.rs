//! Share links and files given as bytes (what the browser build does instead of paths): a
//! link opens a fresh window on the same scene, step, documents and options, pictures drawn
//! pixel-identical; a damaged link, or one that names a file, is refused and the window keeps
//! what it had; a file given as bytes opens by its name as a dropped file does, and garbage is
//! refused naming the file without echoing it; Copy link asks for the web page's address once.

use crate::common;
use common::{app, differences, harness, picture};
use egui_kittest::kittest::Queryable;
use navlab::app::files::{Upload, UploadPurpose};
use navlab::app::headless::HeadlessWindow;
use navlab::app::navmesh_scene::NavmeshScene;
use navlab::app::screenshot::Steps;
use navlab::app::share;
use navlab::app::{NavlabApp, SceneKind};
use navlab::geom::Vec2;

const PAGE: &str = "https://example.org/navlab/";

fn fragment(link: &str) -> &str {
    link.split_once('#').map_or("", |(_, f)| f)
}

fn upload(name: &str, bytes: &[u8]) -> Upload {
    Upload {
        name: name.to_string(),
        bytes: Ok(bytes.to_vec()),
        purpose: UploadPurpose::Open,
    }
}

/// Gives `upload` to the app and draws a frame, which applies the command it queues.
fn give(app: &mut NavlabApp, upload: Upload) {
    app.open_upload(upload);
    let mut window = HeadlessWindow::new([900, 560], egui::ThemePreference::Dark);
    window.frame(app);
}

#[test]
fn a_link_opens_the_same_view_in_a_fresh_window() {
    let mut first = app();
    first.scenes.navmesh =
        NavmeshScene::embedded(navlab::assets::HOLE, first.scenes.navmesh.settings.clone());
    first
        .scenes
        .navmesh
        .place(Some(Vec2::new(3.866, 2.379)), Some(Vec2::new(3.567, 9.393)));
    first.scenes.navmesh.show_step(25);
    let before = picture(&mut first);
    let link = first.share_link(PAGE).expect("small enough");
    assert!(link.starts_with(&format!("{PAGE}#lesson=")), "{link}");
    assert!(link.len() < 2_000, "built-in documents are named: {link}");

    let mut second = app();
    second
        .open_share_fragment(fragment(&link))
        .expect("the link opens");
    assert_eq!(second.scenes.navmesh.query.playback.cursor, 25);
    assert_eq!(
        second.scenes.navmesh.query.start,
        first.scenes.navmesh.query.start
    );
    assert!(second.map.file.is_none() && !second.map.dirty);
    second.notice = None;
    let after = picture(&mut second);
    let different = differences(&before, &after);
    assert!(
        different.is_empty(),
        "{} pixels differ, from {:?} to {:?}",
        different.len(),
        different.first(),
        different.last()
    );
}

#[test]
fn a_pursuit_link_runs_the_same_hunt_to_the_same_picture() {
    let mut first = app();
    first.settings.scene = SceneKind::Pursuit;
    first.scenes.pursuit.sync_map(&first.map);
    let hunt = &mut first.scenes.pursuit;
    hunt.settings.config.seed = 11;
    hunt.settings.config.avoid_walls = false;
    hunt.settings.show_rays = false;
    hunt.reset();
    assert!(hunt.add_mob(Vec2::new(20.5, 18.5)), "the third mob stands");
    hunt.show_step(300);
    let before = picture(&mut first);
    let link = first.share_link(PAGE).expect("small enough");

    let mut second = app();
    second
        .open_share_fragment(fragment(&link))
        .expect("the link opens");
    assert_eq!(second.settings.scene, SceneKind::Pursuit);
    assert_eq!(second.map.map, first.map.map);
    assert_eq!(second.scenes.pursuit.shown_step(), 300);
    assert_eq!(second.scenes.pursuit.world.mobs.len(), 3);
    second.notice = None;
    let after = picture(&mut second);
    assert!(before.pixels == after.pixels, "the pictures differ");
    common::assert_golden("pursuit-link", &after);
}

#[test]
fn an_edited_map_and_its_step_travel_inside_the_link() {
    let mut first = app();
    first.settings.scene = SceneKind::TileMap;
    assert!(first.paint((5, 5), navlab::grid::Tile::Water));
    first.scenes.tile_map.settings.algorithm = navlab::grid::AlgorithmKind::Dijkstra;
    first.scenes.tile_map.rerun(&first.map);
    first.scenes.tile_map.show_step(40);
    let link = first.share_link(PAGE).expect("small enough");

    let mut second = app();
    second.open_share_fragment_reporting(fragment(&link));
    assert_eq!(second.error(), None);
    assert_eq!(second.settings.scene, SceneKind::TileMap);
    assert_eq!(second.map.map, first.map.map);
    assert_eq!(second.scenes.tile_map.shown_step(), 40);
    assert_eq!(
        second.scenes.tile_map.settings.algorithm,
        navlab::grid::AlgorithmKind::Dijkstra
    );
}

#[test]
fn a_damaged_link_or_one_naming_a_file_leaves_the_window_as_it_was() {
    let mut window = app();
    let shown = window.scenes.navmesh.origin.source.name();
    let link = window.share_link(PAGE).expect("small");
    let cut = &fragment(&link)[..fragment(&link).len() / 2];
    for bad in ["lesson=", cut, "lesson=%%%", "step=4"] {
        window.open_share_fragment_reporting(bad);
        let error = window.error().expect("an error").to_string();
        assert!(error.contains("share link"), "{bad}: {error}");
        assert_eq!(window.scenes.navmesh.origin.source.name(), shown);
    }
    // A lesson naming a file beside it cannot be read from a link.
    let mut lesson = serde_json::to_value(window.lesson_in(None).expect("lesson")).expect("json");
    lesson["navmesh"]["mesh"] = serde_json::json!({"kind": "file", "path": "rooms.obj"});
    let named = share::encode(&lesson.to_string()).expect("short");
    let error = window.open_share_fragment(&named).expect_err("refused");
    assert!(error.contains("names a file"), "{error}");
    assert_eq!(window.scenes.navmesh.origin.source.name(), shown);
}

#[test]
fn files_given_as_bytes_open_by_name_and_garbage_is_refused_naming_it() {
    let mut window = app();
    let shown = window.scenes.navmesh.origin.source.name();
    // Garbage with a control character in its name: refused by name, the name made printable,
    // nothing of the contents echoed.
    give(
        &mut window,
        upload("bad\u{1b}[31m.obj", b"v 0 0 0\nf 1 2 9\n\x00\x01SECRET"),
    );
    let error = window.error().expect("refused").to_string();
    assert!(error.contains("bad") && error.contains(".obj"), "{error}");
    assert!(
        !error.contains('\u{1b}') && !error.contains("SECRET"),
        "{error}"
    );
    assert_eq!(window.scenes.navmesh.origin.source.name(), shown);
    // A picker that could not read the file says why.
    let mut unread = upload("huge.obj", b"");
    unread.bytes = Err("larger than 256 MiB".to_string());
    give(&mut window, unread);
    assert!(window.error().expect("error").contains("huge.obj: larger"));
    // A real mesh and a real map open in their scenes.
    let obj = std::fs::read(common::repo_path("assets/hole.obj")).expect("asset");
    give(&mut window, upload("hole.obj", &obj));
    assert_eq!(window.error(), None);
    assert_eq!(window.settings.scene, SceneKind::Navmesh);
    assert!(
        window
            .scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("hole.obj")
    );
    give(
        &mut window,
        upload(
            "tiny.map",
            b"type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n",
        ),
    );
    assert_eq!(window.error(), None);
    assert_eq!(window.settings.scene, SceneKind::TileMap);
    assert_eq!((window.map.map.width(), window.map.map.height()), (3, 2));
    // Not a kind navlab opens.
    give(&mut window, upload("photo.png", b"\x89PNG"));
    assert!(window.error().expect("refused").contains("photo.png"));
}

#[test]
fn copy_link_asks_for_the_web_page_once_then_copies() {
    let mut h = harness(app());
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Copy link").click();
    h.run_steps(2);
    let field = || (egui::accesskit::Role::TextInput, "Web page address:");
    h.get_by_role_and_label(field().0, field().1).click();
    h.run_steps(1);
    h.get_by_role_and_label(field().0, field().1)
        .type_text(PAGE);
    h.run_steps(2);
    h.get(
        egui_kittest::kittest::by()
            .role(egui::accesskit::Role::Button)
            .label("Copy link"),
    )
    .click();
    h.run_steps(2);
    assert_eq!(h.state().settings.web_address.as_deref(), Some(PAGE));
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(notice.starts_with("Copied a link"), "{notice}");
}

#[test]
fn a_level_link_opens_the_level_view_with_its_question_and_section() {
    // The build's times are shown: the same on both sides.
    navlab::clock::fix_readings(true);
    let mut first = app();
    first.settings.scene = SceneKind::Level;
    let level = &mut first.scenes.level;
    level.set_section(Some([Vec2::new(1.0, 12.0), Vec2::new(8.0, 12.0)]));
    level.ask([3.75, 12.0], Some(0));
    level.wait_for_build();
    level.show_step(5);
    let before = picture(&mut first);
    let link = first.share_link(PAGE).expect("small enough");

    let mut second = app();
    second
        .open_share_fragment(fragment(&link))
        .expect("the link opens");
    assert_eq!(second.settings.scene, SceneKind::Level);
    assert_eq!(second.scenes.level.shown_step(), 5);
    assert!(second.scenes.level.why().is_some());
    second.notice = None;
    first.notice = None;
    let after = picture(&mut second);
    let different = differences(&before, &after);
    assert!(
        different.is_empty(),
        "{} pixels differ, from {:?} to {:?}",
        different.len(),
        different.first(),
        different.last()
    );
}
