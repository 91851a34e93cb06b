//! Editing the mesh in the window, driven headlessly: drawing obstacles by dragging, moving
//! them with the search following, undo and redo, painting mud, doors opened by a click,
//! saving with the edits beside the mesh and opening them again, and recovery after a crash.

use crate::common;
use common::drag_screen;
use common::{app, harness};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use navlab::app::files::ScriptedDialogs;
use navlab::app::scene::Scene;
use navlab::app::{AppSettings, Command, NavlabApp};
use navlab::geom::Vec2;
use navlab::navmesh::edit::{Shape, ShapeKind};
use navlab::navmesh::{NavMesh, PathStatus};
use std::sync::Arc;

fn screen(h: &Harness<'_, NavlabApp>, p: Vec2) -> egui::Pos2 {
    h.state()
        .scenes
        .navmesh
        .last_view()
        .expect("the canvas was drawn")
        .screen_from_world(p)
}

fn drag_world(h: &mut Harness<'static, NavlabApp>, from: Vec2, to: Vec2) {
    let (a, b) = (screen(h, from), screen(h, to));
    drag_screen(h, (a, b), egui::PointerButton::Primary, 6, |_| {});
}

fn click_world(h: &mut Harness<'static, NavlabApp>, p: Vec2) {
    let at = screen(h, p);
    common::click_screen(h, at, egui::PointerButton::Primary);
}

fn legend(h: &Harness<'_, NavlabApp>) -> Vec<String> {
    h.state()
        .scenes
        .navmesh
        .legend()
        .into_iter()
        .map(|row| row.text)
        .collect()
}

fn area(mesh: &NavMesh) -> f64 {
    mesh.triangles().iter().map(|t| t.area).sum()
}

fn mesh(h: &Harness<'_, NavlabApp>) -> Arc<NavMesh> {
    Arc::clone(h.state().scenes.navmesh.mesh())
}

/// True when the polyline passes through the inside of `shape` (samples along each leg).
fn enters(waypoints: &[Vec2], shape: &Shape) -> bool {
    waypoints.windows(2).any(|leg| {
        (1..200).any(|k| {
            let p = leg[0].lerp(leg[1], f64::from(k) / 200.0);
            shape.contains(p) && shape.distance_to_outline(p) > 1e-6
        })
    })
}

/// Room B of the built-in rooms.obj, an obstacle drawn across its middle.
const FROM: Vec2 = Vec2::new(9.0, 1.5);
const TO: Vec2 = Vec2::new(11.0, 3.5);

#[test]
fn a_rectangle_dragged_with_its_tool_is_cut_and_the_path_goes_round_it() {
    let mut h = harness(app());
    let before = area(&mesh(&h));
    h.key_press(egui::Key::R);
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.navmesh.edit.tool,
        navlab::app::navmesh_scene::Tool::Rectangle
    );
    drag_world(&mut h, FROM, TO);
    let scene = &h.state().scenes.navmesh;
    let [shape] = scene.editor().shapes() else {
        panic!("one shape: {:?}", scene.editor().shapes());
    };
    assert_eq!(shape.kind, ShapeKind::Obstacle);
    let (lo, hi) = shape.bounds();
    assert!(
        lo.distance(FROM) < 0.05 && hi.distance(TO) < 0.05,
        "{lo} {hi}"
    );
    let cut = area(scene.mesh());
    assert!(
        (before - cut - shape.area()).abs() < 1e-9,
        "{before} - {cut} = {}",
        shape.area()
    );
    let path = scene.query.timeline.path.as_ref().expect("a path");
    assert_eq!(path.status, PathStatus::Found);
    assert!(!enters(&path.waypoints, shape), "{:?}", path.waypoints);
    assert_eq!(
        scene.document(&h.state().map).1,
        Some("edited, unsaved"),
        "the menu bar says so"
    );
    h.get_by_label("rooms.obj (built in) (edited, unsaved)");
}

#[test]
fn a_shape_moves_with_the_search_following_and_undo_and_redo_take_it_back() {
    let mut h = harness(app());
    let base = Arc::clone(h.state().scenes.navmesh.editor().base());
    h.key_press(egui::Key::R);
    h.run_steps(1);
    drag_world(&mut h, FROM, TO);
    let drawn = h.state().scenes.navmesh.editor().shapes()[0].clone();

    // Select and drag it down a unit: the mesh and the path change while it moves.
    h.key_press(egui::Key::V);
    h.run_steps(1);
    let centre = Vec2::new(10.0, 2.5);
    let (a, b) = (screen(&h, centre), screen(&h, centre + Vec2::new(0.0, 1.0)));
    let mut seen = Vec::new();
    drag_screen(&mut h, (a, b), egui::PointerButton::Primary, 8, |h| {
        let scene = &h.state().scenes.navmesh;
        seen.push((
            scene.editor().shapes()[0].bounds().0.y,
            scene.query.timeline.path.as_ref().map(|p| p.length),
        ));
    });
    seen.dedup();
    assert!(
        seen.len() >= 4,
        "re-cut and re-searched as it moved: {seen:?}"
    );
    let moved = h.state().scenes.navmesh.editor().shapes()[0].clone();
    assert!((moved.bounds().0.y - (drawn.bounds().0.y + 1.0)).abs() < 0.05);
    assert_eq!(h.state().scenes.navmesh.edit.selected, vec![0]);

    // One drag, one undo step.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.navmesh.editor().shapes(),
        std::slice::from_ref(&drawn)
    );
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    let scene = &h.state().scenes.navmesh;
    assert!(scene.editor().shapes().is_empty());
    assert!(Arc::ptr_eq(scene.mesh(), &base), "the mesh as it was");
    assert_eq!(scene.document(&h.state().map).1, None, "back to saved");

    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run_steps(2);
    h.get_by_label("Redo").click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.navmesh.editor().shapes(), [moved]);
    assert!(!h.state().scenes.navmesh.editor().can_redo());

    // Delete removes the selection.
    h.key_press(egui::Key::V);
    h.run_steps(1);
    click_world(&mut h, Vec2::new(10.0, 3.5));
    assert_eq!(h.state().scenes.navmesh.edit.selected, vec![0]);
    h.key_press(egui::Key::Delete);
    h.run_steps(2);
    assert!(h.state().scenes.navmesh.editor().shapes().is_empty());
}

#[test]
fn painted_mud_is_shown_costed_and_named_in_the_steps() {
    let mut h = harness(app());
    h.key_press(egui::Key::B);
    h.run_steps(2);
    assert!(
        h.query_by_label("Paint (B)").is_some(),
        "the tools show while one is in hand"
    );
    // The start's triangle in room A, painted mud (the tool's default).
    click_world(&mut h, Vec2::new(1.0, 1.0));
    let scene = &h.state().scenes.navmesh;
    let t = scene
        .mesh()
        .triangle_at(Vec2::new(1.0, 1.0))
        .expect("on the mesh");
    assert_eq!(
        scene.mesh().area_names()[usize::from(scene.mesh().area_type(t))],
        "mud"
    );
    assert_eq!(scene.editor().edits().painted.len(), 1);
    let named = (0..scene.query.timeline.len())
        .map(|k| scene.query.timeline.explain(k))
        .any(|s| s.contains(&format!("triangle {t} (mud, cost × 3)")));
    assert!(named, "the steps say the triangle is mud and what it costs");
    assert!(
        legend(&h).contains(&"mud  × 3".to_string()),
        "{:?}",
        legend(&h)
    );

    // Mud at 1 and at 100: the search's cost follows the slider's value.
    let cost = |h: &Harness<'_, NavlabApp>| {
        h.state()
            .scenes
            .navmesh
            .query
            .timeline
            .path
            .as_ref()
            .expect("path")
            .corridor_cost
    };
    let dear = cost(&h);
    h.state_mut()
        .scenes
        .navmesh
        .edit
        .costs
        .set(2, 1.0)
        .expect("in range");
    h.state_mut().scenes.navmesh.rerun();
    assert!(cost(&h) < dear, "{} < {dear}", cost(&h));
}

#[test]
fn a_door_drawn_across_the_corridor_blocks_until_it_is_clicked_open() {
    let mut h = harness(app());
    assert!(
        h.query_by_label("door").is_none(),
        "the editing tools start folded"
    );
    h.key_press(egui::Key::R);
    h.run_steps(2);
    h.get_by_label("door").click();
    h.run_steps(1);
    // Across the corridor from room A to room B (x 6..8, z 4..5).
    drag_world(&mut h, Vec2::new(6.5, 3.5), Vec2::new(7.5, 5.5));
    let status = |h: &Harness<'_, NavlabApp>| {
        h.state()
            .scenes
            .navmesh
            .query
            .timeline
            .path
            .as_ref()
            .expect("path")
            .status
    };
    assert_eq!(
        h.state().scenes.navmesh.editor().shapes()[0].kind,
        ShapeKind::Door { open: false }
    );
    assert_eq!(status(&h), PathStatus::Unreachable);
    h.key_press(egui::Key::D);
    h.run_steps(1);
    click_world(&mut h, Vec2::new(7.0, 4.5));
    assert_eq!(
        h.state().scenes.navmesh.editor().shapes()[0].kind,
        ShapeKind::Door { open: true }
    );
    assert_eq!(status(&h), PathStatus::Found);
    assert_eq!(
        legend(&h),
        [
            "door, open",
            "wall: the mesh's border",
            "edge between two triangles"
        ]
    );
    // O closes it again, with any tool.
    h.key_press(egui::Key::N);
    h.hover_at(screen(&h, Vec2::new(7.0, 4.5)));
    h.run_steps(1);
    h.key_press(egui::Key::O);
    h.run_steps(2);
    assert_eq!(status(&h), PathStatus::Unreachable);
}

#[test]
fn saved_edits_reopen_editable_and_unsaved_ones_are_asked_about() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = harness(app());
    h.key_press(egui::Key::R);
    h.run_steps(1);
    drag_world(&mut h, FROM, TO);
    // Replacing the mesh asks first.
    h.state_mut().command(Command::LoadEmbedded(1));
    h.run_steps(2);
    assert!(h.state().pending.is_some(), "asks about the edits");
    h.get_by_label("The mesh has edits (obstacles, doors, areas) that are not saved.");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.navmesh.editor().shapes().len(), 1);

    let path = dir.path().join("rooms-edited.obj");
    assert!(h.state_mut().save_mesh_to(path.clone()));
    assert!(path.is_file());
    assert!(navlab::navmesh::edit::saved::path_beside(&path).is_file());
    assert_eq!(h.state().scenes.navmesh.document(&h.state().map).1, None);
    let shown = h.state().scenes.navmesh.editor().edits().clone();

    // Opened in a new window: the obstacle is a shape again, not just a hole.
    let mut next = harness(app());
    next.state_mut().command(Command::Load(path.clone()));
    next.run_steps(2);
    let scene = &next.state().scenes.navmesh;
    assert_eq!(scene.editor().edits(), &shown);
    assert!(!scene.editor().can_undo());
    assert_eq!(scene.document(&next.state().map).1, None);
    assert!(
        next.state()
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("with its edits")),
        "{:?}",
        next.state().notice
    );
}

#[test]
fn mesh_edits_left_by_a_crash_are_offered_back() {
    use navlab::app::recovery::Recovery;
    let dir = tempfile::tempdir().expect("temp");
    let app = app().with_recovery(Recovery::in_dir(dir.path()).expect("recovery"));
    let mut h = harness(app);
    h.key_press(egui::Key::R);
    h.run_steps(1);
    drag_world(&mut h, FROM, TO);
    let edits = h.state().scenes.navmesh.editor().edits().clone();
    h.state_mut().keep_unsaved_edits();
    h.state().wait_until_edits_kept();
    drop(h);

    let next =
        navlab::app::NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()))
            .with_recovery(Recovery::in_dir(dir.path()).expect("recovery"));
    assert_eq!(next.recovered.len(), 1);
    let mut h = harness(next);
    h.get_by_label("Open them").click();
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    assert_eq!(scene.editor().edits(), &edits);
    assert_eq!(scene.document(&h.state().map).1, Some("edited, unsaved"));
    assert!(h.state().recovered.is_empty());
}

#[test]
fn circles_polygons_and_resizing_by_a_corner_handle() {
    let mut h = harness(app());
    // A circle of 16 sides (the default) dragged out from its centre in room C.
    h.key_press(egui::Key::C);
    h.run_steps(1);
    let centre = Vec2::new(10.0, -5.0);
    drag_world(&mut h, centre, centre + Vec2::new(1.5, 0.0));
    let circle = h.state().scenes.navmesh.editor().shapes()[0].clone();
    assert_eq!(circle.outline.len(), 16);
    assert!(
        circle
            .corners()
            .iter()
            .all(|c| (c.distance(centre) - 1.5).abs() < 0.05)
    );

    // A triangle clicked corner by corner in room A, closed with Enter.
    h.key_press(egui::Key::P);
    h.run_steps(1);
    for p in [
        Vec2::new(2.0, 2.0),
        Vec2::new(4.0, 2.0),
        Vec2::new(3.0, 4.0),
    ] {
        click_world(&mut h, p);
    }
    assert_eq!(h.state().scenes.navmesh.edit.polygon.len(), 3);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    let scene = &h.state().scenes.navmesh;
    assert_eq!(scene.editor().shapes().len(), 2);
    assert!((scene.editor().shapes()[1].area() - 2.0).abs() < 0.05);
    assert!(scene.edit.polygon.is_empty());

    // Selected, its top-right handle dragged out: the box grows from the fixed corner.
    h.key_press(egui::Key::V);
    h.run_steps(1);
    click_world(&mut h, Vec2::new(3.0, 2.5));
    assert_eq!(h.state().scenes.navmesh.edit.selected, vec![1]);
    let (lo, hi) = h.state().scenes.navmesh.editor().shapes()[1].bounds();
    drag_world(
        &mut h,
        Vec2::new(hi.x, lo.y),
        Vec2::new(hi.x + 1.0, lo.y - 1.0),
    );
    let (lo2, hi2) = h.state().scenes.navmesh.editor().shapes()[1].bounds();
    assert!(
        (lo2.x - lo.x).abs() < 1e-9 && (hi2.y - hi.y).abs() < 1e-9,
        "fixed corner"
    );
    assert!((hi2.x - (hi.x + 1.0)).abs() < 0.05 && (lo2.y - (lo.y - 1.0)).abs() < 0.05);
    // One undo step for the whole resize.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.navmesh.editor().shapes()[1].bounds(),
        (lo, hi)
    );
}

/// Every tool has its own key, and the help names it: both read the scene's one key table.
#[test]
fn every_tool_has_a_key_the_help_names() {
    use navlab::app::navmesh_scene::Tool;

    let app = common::app();
    let help: Vec<(&str, &str)> = app.scenes.navmesh.keys();
    let tools_row = help
        .iter()
        .find(|(_, does)| does.starts_with("tools:"))
        .expect("a row for the tools");
    let mut keys: Vec<egui::Key> = Tool::ALL.iter().filter_map(|t| t.key()).collect();
    assert_eq!(keys.len(), Tool::ALL.len(), "each tool a key");
    for key in &keys {
        assert!(
            tools_row.0.contains(key.name()),
            "{} in {:?}",
            key.name(),
            tools_row
        );
    }
    keys.sort_by_key(|k| k.name());
    keys.dedup();
    assert_eq!(keys.len(), Tool::ALL.len(), "no two tools share a key");
}
