//! Stacked floors in the navmesh view, driven headlessly: a click puts the start on the topmost
//! floor, L moves it to the floor below (the status bar says which), the search starts there
//! and climbs the ramp to a goal upstairs; colours by height with their legend.

use crate::common;
use common::harness;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use navlab::app::files::ScriptedDialogs;
use navlab::app::navmesh_scene::MeshSource;
use navlab::app::{AppSettings, NavlabApp};
use navlab::geom::Vec2;
use navlab::navmesh::{NavMesh, PathStatus, Plane, obj};

/// A garage: the ground floor (10 × 10, height 0), an upper floor over its first 6 units of z
/// (height 3), and a ramp over the rest from the upper floor's edge down to the ground floor's
/// far edge, which it shares. Wound counter-clockwise seen from above.
const GARAGE: &str = "\
v 0 0 0
v 10 0 0
v 10 0 10
v 0 0 10
v 0 3 0
v 10 3 0
v 10 3 6
v 0 3 6
f 1 4 3
f 1 3 2
f 5 8 7
f 5 7 6
f 8 4 3
f 8 3 7
";

fn app_on_garage() -> NavlabApp {
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    let mesh = obj::parse(GARAGE.as_bytes(), "garage.obj", Plane::Xz).expect("the garage loads");
    app.scenes.navmesh.set_mesh_at(
        mesh,
        MeshSource::Generated("garage".into()),
        Some((Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0))),
    );
    app
}

fn click_world(h: &mut Harness<'static, NavlabApp>, p: Vec2, button: egui::PointerButton) {
    let at = h
        .state()
        .scenes
        .navmesh
        .last_view()
        .expect("the canvas was drawn")
        .screen_from_world(p);
    common::click_screen(h, at, button);
}

/// The height of the floor the path's start (or goal) triangle is, at that point.
fn height(mesh: &NavMesh, triangle: usize, at: Vec2) -> f64 {
    mesh.height_at(triangle, at)
        .expect("a triangle of the mesh")
}

#[test]
fn the_key_moves_the_start_to_the_floor_below_and_the_path_climbs_the_ramp() {
    let mut h = harness(app_on_garage());
    let (start, goal) = (Vec2::new(5.0, 2.0), Vec2::new(5.0, 4.0));
    click_world(&mut h, start, egui::PointerButton::Primary);
    click_world(&mut h, goal, egui::PointerButton::Secondary);
    h.run_steps(2);
    {
        let scene = &h.state().scenes.navmesh;
        let path = scene.query.timeline.path.as_ref().expect("searched");
        assert_eq!(path.status, PathStatus::Found);
        assert!((height(scene.mesh(), path.start.triangle, path.start.point) - 3.0).abs() < 1e-9);
        assert!(
            (path.length - 2.0).abs() < 1e-2,
            "straight across the upper floor"
        );
    }
    // The goal was placed last; L moves it. Place the start again and move it down.
    click_world(&mut h, start, egui::PointerButton::Primary);
    h.key_press(egui::Key::L);
    h.run_steps(3);
    let scene = &h.state().scenes.navmesh;
    let path = scene.query.timeline.path.as_ref().expect("searched");
    assert!(
        height(scene.mesh(), path.start.triangle, path.start.point).abs() < 1e-9,
        "the start on the ground floor"
    );
    assert!((height(scene.mesh(), path.goal.triangle, path.goal.point) - 3.0).abs() < 1e-9);
    assert_eq!(path.status, PathStatus::Found);
    // From the ground floor to the upper one only by the ramp, whose foot is at z = 10: at
    // least (10 − 2) + (10 − 4) in the plane.
    assert!(path.length >= 14.0 - 1e-9, "up the ramp: {}", path.length);
    h.get_by_label_contains("start on floor 2 of 2 (height 0.000)");
    // Again: back to the top (the floors wrap round).
    h.key_press(egui::Key::L);
    h.run_steps(3);
    h.get_by_label_contains("start on floor 1 of 2 (height 3.000)");

    // Colours by height, with the heights in the legend.
    assert!(!h.state().scenes.navmesh.settings.display.height_colours);
    h.get_by_label("Colour by height").click();
    h.run_steps(2);
    let scene = &h.state().scenes.navmesh;
    assert!(scene.settings.display.height_colours);
    let legend: Vec<String> = scene.legend().into_iter().map(|r| r.text).collect();
    assert!(legend.contains(&"height 3.00".to_string()), "{legend:?}");
    assert!(legend.contains(&"height 0.00".to_string()), "{legend:?}");
    h.get_by_label("Colour by height").click();
    h.run_steps(2);
    let scene = &h.state().scenes.navmesh;
    assert!(!scene.settings.display.height_colours);
    assert!(
        scene
            .legend()
            .iter()
            .all(|r| !r.text.starts_with("height "))
    );
}
