//! Off-mesh links in the window, driven headlessly: a link placed with the Link tool (two
//! clicks) changes the path, which crosses it, the steps and the side panel say so; undo takes
//! it back and redo brings it again; saved with the mesh, it opens again with it.

use crate::common;
use common::{app, harness};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use navlab::app::{Command, NavlabApp};
use navlab::geom::Vec2;
use navlab::navmesh::links::LinkKind;

fn click_world(h: &mut Harness<'static, NavlabApp>, p: Vec2) {
    let at = h
        .state()
        .scenes
        .navmesh
        .last_view()
        .expect("the canvas was drawn")
        .screen_from_world(p);
    common::click_screen(h, at, egui::PointerButton::Primary);
}

/// The links the path shown crosses.
fn crossed(h: &Harness<'_, NavlabApp>) -> Vec<usize> {
    let path = h
        .state()
        .scenes
        .navmesh
        .query
        .timeline
        .path
        .clone()
        .expect("a path");
    path.segments
        .iter()
        .filter_map(|s| Some(s.link?.link))
        .collect()
}

fn cost(h: &Harness<'_, NavlabApp>) -> f64 {
    let path = h.state().scenes.navmesh.query.timeline.path.as_ref();
    path.expect("a path").cost
}

/// In the default rooms: from the start's room straight down into the goal's.
const LINK_FROM: Vec2 = Vec2::new(2.0, 0.5);
const LINK_TO: Vec2 = Vec2::new(5.0, -5.5);

#[test]
fn a_link_placed_with_its_tool_is_crossed_and_undone_and_saved_with_the_mesh() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(app());
    let walking = cost(&h);
    assert!(crossed(&h).is_empty());
    h.key_press(egui::Key::K);
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.navmesh.edit.tool,
        navlab::app::navmesh_scene::Tool::Link
    );
    click_world(&mut h, LINK_FROM);
    let pending = h.state().scenes.navmesh.edit.link.pending;
    assert!(
        pending.is_some_and(|p| p.distance(LINK_FROM) < 0.05),
        "{pending:?}"
    );
    click_world(&mut h, LINK_TO);
    h.run_steps(2);
    let links = h.state().scenes.navmesh.mesh().links().to_vec();
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].kind, LinkKind::Jump);
    assert!(links[0].from.distance(LINK_FROM) < 0.05 && links[0].to.distance(LINK_TO) < 0.05);
    assert_eq!(crossed(&h), vec![0], "the path takes the jump");
    assert!(cost(&h) < walking, "{} against {walking}", cost(&h));
    // A*'s steps name the link where it opens the far room's triangle through it, and the
    // side panel says why the path takes it.
    let timeline = &h.state().scenes.navmesh.query.timeline;
    assert!(
        (0..timeline.search_steps()).any(|k| timeline.explain(k).contains("by the jump link 0")),
        "a step crosses the link"
    );
    h.run_steps(2);
    let verdict = h.query_all_by_label_contains("jump link 0 (cost").count()
        + h.query_all_by_label_contains("is taken: the path costs")
            .count();
    assert!(
        verdict >= 2,
        "the side panel says the link is taken and why"
    );

    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert!(h.state().scenes.navmesh.mesh().links().is_empty());
    assert!(crossed(&h).is_empty());
    assert!((cost(&h) - walking).abs() < 1e-9);
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run_steps(2);
    assert_eq!(crossed(&h), vec![0], "redone");

    let path = dir.path().join("rooms-linked.obj");
    assert!(h.state_mut().save_mesh_to(path.clone()));
    let mut next = harness(app());
    next.state_mut().command(Command::Load(path));
    next.run_steps(2);
    assert_eq!(next.state().scenes.navmesh.mesh().links(), links.as_slice());
    assert_eq!(
        next.state().scenes.navmesh.editor().links(),
        links.as_slice(),
        "editable again"
    );
}

#[test]
fn a_link_end_dragged_moves_and_a_selected_link_is_deleted() {
    let mut h = harness(app());
    h.key_press(egui::Key::K);
    h.run_steps(1);
    click_world(&mut h, LINK_FROM);
    click_world(&mut h, LINK_TO);
    h.run_steps(1);
    let view = h.state().scenes.navmesh.last_view().expect("drawn");
    let (a, b) = (
        view.screen_from_world(LINK_TO),
        view.screen_from_world(Vec2::new(6.0, -6.5)),
    );
    common::drag_screen(&mut h, (a, b), egui::PointerButton::Primary, 6, |_| {});
    let link = h.state().scenes.navmesh.editor().links()[0].clone();
    assert!(link.to.distance(Vec2::new(6.0, -6.5)) < 0.05, "{}", link.to);
    assert!(link.from.distance(LINK_FROM) < 0.05);
    assert_eq!(h.state().scenes.navmesh.edit.link.selected, Some(0));
    h.key_press(egui::Key::Delete);
    h.run_steps(2);
    assert!(h.state().scenes.navmesh.mesh().links().is_empty());
    // One undo step for the drag, one for the deletion.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(1);
    let back = h.state().scenes.navmesh.editor().links()[0].clone();
    assert_eq!(back, link);
}

/// A lesson keeps the links put on the mesh, and a share link (a lesson without a folder) too.
#[test]
fn a_lesson_and_a_share_link_keep_the_links() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut first = app();
    let link = navlab::navmesh::links::OffMeshLink::new(LINK_FROM, LINK_TO)
        .kind(LinkKind::Ladder)
        .one_way();
    first
        .scenes
        .navmesh
        .edit_mesh(|editor| editor.add_link(link.clone()))
        .expect("added");
    let path = dir.path().join("linked.navlab");
    first.save_lesson(&path).expect("saved");
    let mut second = app();
    second.open_lesson(&path).expect("opens");
    assert_eq!(
        second.scenes.navmesh.mesh().links(),
        std::slice::from_ref(&link)
    );
    let shared = first.lesson_in(None).expect("a lesson");
    let bytes = serde_json::to_vec(&shared).expect("serializes");
    let mut third = app();
    third
        .open_lesson_bytes(&bytes, "shared.navlab", None)
        .expect("opens");
    assert_eq!(
        third.scenes.navmesh.mesh().links(),
        std::slice::from_ref(&link)
    );
}

/// The agent walks the path and climbs a ladder link on its way, slower than it walks; the
/// caption says so, and the ladder is not counted as leaving the mesh.
#[test]
fn the_walk_climbs_a_ladder_link() {
    let mut h = harness(app());
    let ladder =
        navlab::navmesh::links::OffMeshLink::new(LINK_FROM, LINK_TO).kind(LinkKind::Ladder);
    h.state_mut()
        .scenes
        .navmesh
        .edit_mesh(|editor| editor.add_link(ladder))
        .expect("added");
    h.run_steps(2);
    assert_eq!(crossed(&h), vec![0]);
    h.key_press(egui::Key::W);
    h.run_steps(1);
    let walk = h.state().scenes.navmesh.walk.clone().expect("walking");
    let on_link: Vec<usize> = walk
        .walk
        .link_spans
        .iter()
        .flat_map(|span| span.clone())
        .collect();
    assert!(!on_link.is_empty());
    // The ladder's 6.7 units at 0.35 of 2 units a second: over 9 s on it.
    let seconds = on_link.len() as f64 * walk.walk.options.step;
    assert!(seconds > 9.0, "{seconds}");
    let mut shown = walk.clone();
    shown.time = (on_link[on_link.len() / 2] as f64 + 0.5) * walk.walk.options.step;
    assert!(
        shown.caption().contains("climbing the ladder"),
        "{}",
        shown.caption()
    );
    assert!(walk.walk.arrived());
}
