//! Clearance in the navmesh view, driven headlessly: the colouring turned on works the
//! clearance out and the legend gives its radii in world units; a disc radius greys the
//! corridors one unit wide (clearance 0.5), marks their portals and names the one that stops
//! the disc between the start and goal; the tooltip gives a triangle's clearance; a large
//! mesh's clearance is worked out on the worker.

use crate::common;
use common::{app, harness};
use egui_kittest::kittest::Queryable;
use navlab::geom::Vec2;

#[test]
fn the_clearance_colouring_and_a_disc_radius_show_what_is_too_narrow() {
    let mut h = harness(app());
    assert!(
        h.state().scenes.navmesh.clearance().is_none(),
        "not worked out until asked"
    );
    h.get_by_label("Colour by clearance").click();
    h.run_steps(3);
    let navmesh = &h.state().scenes.navmesh;
    let clearance = navmesh.clearance().expect("worked out").clone();
    let widest = clearance.triangles().iter().copied().fold(0.0, f64::max);
    let label = format!("clearance {widest:.2} (the widest)");
    let legend = |h: &egui_kittest::Harness<'_, navlab::app::NavlabApp>| -> Vec<String> {
        let rows = h.state().scenes.navmesh.search_legend();
        rows.into_iter().map(|row| row.text).collect()
    };
    assert!(legend(&h).contains(&label), "{label} in {:?}", legend(&h));
    // The corridor between the first two rooms: one unit wide.
    let corridor = Vec2::new(7.0, 4.5);
    let t = navmesh
        .mesh()
        .locate(corridor)
        .expect("on the mesh")
        .triangle;
    assert!(
        (clearance.triangle(t) - 0.5).abs() < 1e-9,
        "{}",
        clearance.triangle(t)
    );

    h.state_mut().scenes.navmesh.settings.display.fit_radius = 0.6;
    h.run_steps(2);
    assert!(
        legend(&h).contains(&"portal no disc of radius 0.60 crosses".to_owned()),
        "the legend names the narrow portals: {:?}",
        legend(&h)
    );
    // Between the start and the goal every route crosses a corridor: what stops the disc is
    // named, with the largest radius that goes through.
    let route = h
        .state()
        .scenes
        .navmesh
        .widest_route()
        .cloned()
        .expect("a route");
    assert!((route.radius - 0.5).abs() < 1e-9, "{route:?}");
    assert!(
        h.query_all_by_label_contains("No route for radius 0.60")
            .count()
            >= 1
    );
    assert!(
        legend(&h).contains(&"the portal that stops the radius between start and goal".to_owned())
    );
    h.state_mut().scenes.navmesh.settings.display.fit_radius = 0.4;
    h.run_steps(2);
    assert!(
        h.query_all_by_label_contains("A disc of radius 0.40 crosses every portal")
            .count()
            >= 1
    );
    h.state_mut().scenes.navmesh.settings.display.fit_radius = 0.6;
    h.run_steps(2);
    let view = h.state().scenes.navmesh.last_view().expect("drawn");
    h.hover_at(view.screen_from_world(corridor));
    h.run_steps(40);
    assert!(
        h.query_all_by_label_contains("clearance 0.500").count() >= 1,
        "the tooltip gives the triangle's clearance"
    );
    h.get_by_label("Colour by clearance").click();
    h.run_steps(2);
    assert!(!legend(&h).contains(&label), "the colouring off");
}

#[test]
fn a_large_meshs_clearance_is_worked_out_on_the_worker() {
    use navlab::navmesh::generate::{GridMeshSpec, jittered_grid};
    let mut h = harness(app());
    let mesh = jittered_grid(GridMeshSpec::with_about(12_000, 3));
    let triangles = mesh.triangles().len();
    h.state_mut().scenes.navmesh.set_mesh(
        mesh,
        navlab::app::navmesh_scene::MeshSource::Generated("a grid".into()),
    );
    h.state_mut().scenes.navmesh.wait_for_query();
    h.run_steps(1);
    h.get_by_label("Colour by clearance").click();
    h.run_steps(2);
    // Asked for and not there at once (a few frames take far less than the work): the
    // panel says it is being worked out.
    assert!(h.state().scenes.navmesh.clearance().is_none());
    assert!(
        h.query_all_by_label_contains("working out the clearance")
            .count()
            >= 1
    );
    h.state_mut().scenes.navmesh.wait_for_clearance();
    h.run_steps(2);
    let clearance = h.state().scenes.navmesh.clearance().expect("worked out");
    assert_eq!(clearance.triangles().len(), triangles);
}

/// The agent radius set, the query runs again for it: the path keeps the radius from every
/// wall (measured along its segments and arcs), turns round corners on arcs, and the walk
/// follows the arcs; a radius no route has room for leaves no path, and the sentence says why.
#[test]
fn the_path_keeps_the_agent_radius_from_every_wall() {
    let mut h = harness(app());
    h.run_steps(2);
    let point = h
        .state()
        .scenes
        .navmesh
        .query
        .timeline
        .path
        .clone()
        .expect("a path");
    assert_eq!(point.radius, 0.0);
    h.state_mut().scenes.navmesh.settings.display.fit_radius = 0.3;
    h.run_steps(3);
    let path = h
        .state()
        .scenes
        .navmesh
        .query
        .timeline
        .path
        .clone()
        .expect("a path");
    assert_eq!(path.radius, 0.3);
    assert!(!path.arcs.is_empty(), "it turns round corners on arcs");
    assert!(path.length > point.length);
    let mesh = std::sync::Arc::clone(h.state().scenes.navmesh.mesh());
    let least = mesh
        .clearance()
        .least_room_along(&path.corridor, &path.waypoints, &path.arcs, 1.0);
    assert!(least >= 0.3 - 1e-9, "{least}");
    // The walk follows the arcs: every point it passes keeps the radius too.
    h.key_press(egui::Key::W);
    h.run_steps(2);
    assert!(h.state().scenes.navmesh.walk.is_some(), "walking");
    let (traced, _) = path.traced();
    assert!(traced.len() > path.waypoints.len());
    for p in traced {
        let t = mesh.triangle_at(p).expect("on the mesh");
        assert!(mesh.clearance().room(t, p) >= 0.3 - 1e-3, "{p}");
    }
    h.state_mut().scenes.navmesh.settings.display.fit_radius = 0.6;
    h.run_steps(3);
    let path = h
        .state()
        .scenes
        .navmesh
        .query
        .timeline
        .path
        .clone()
        .expect("an answer");
    assert_eq!(path.status, navlab::navmesh::PathStatus::Unreachable);
    assert!(
        h.query_all_by_label_contains("No route for radius 0.60")
            .count()
            >= 1
    );
}

/// More agents in the two rooms joined by a narrow door and a wide corridor: added with the
/// button, each finds its own path for its radius — the small one through the door, the larger
/// round by the corridor — each keeping its radius from the walls; the walk walks them all;
/// one taken away.
#[test]
fn agents_of_different_sizes_take_the_routes_they_fit() {
    let mut h = harness(app());
    let mesh = navlab::assets::DOORS
        .read(Default::default())
        .expect("the built-in scene");
    h.state_mut().scenes.navmesh.set_mesh(
        mesh,
        navlab::app::navmesh_scene::MeshSource::Embedded(navlab::assets::DOORS),
    );
    h.state_mut().scenes.navmesh.set_start(Vec2::new(2.0, 4.0));
    h.state_mut().scenes.navmesh.set_goal(Vec2::new(15.0, 4.0));
    h.run_steps(2);
    h.get_by_label("Add an agent").click();
    h.run_steps(2);
    h.get_by_label("Add an agent").click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.navmesh.settings.display.agents.len(), 2);
    h.state_mut().scenes.navmesh.settings.display.agents = vec![0.3, 0.6];
    h.run_steps(2);
    let navmesh = &h.state().scenes.navmesh;
    let paths: Vec<_> = navmesh
        .agents
        .paths()
        .iter()
        .map(|p| p.clone().expect("a path for each"))
        .collect();
    let mesh = std::sync::Arc::clone(navmesh.mesh());
    // The small one through the door (a straight line), the larger round by the corridor.
    assert!((paths[0].length - 13.0).abs() < 1e-9, "{}", paths[0].length);
    assert!(paths[1].length > 20.0, "{}", paths[1].length);
    assert!(
        paths[1].waypoints.iter().any(|p| p.y < -1.0),
        "through the corridor"
    );
    for (path, radius) in paths.iter().zip([0.3, 0.6]) {
        let least =
            mesh.clearance()
                .least_room_along(&path.corridor, &path.waypoints, &path.arcs, 1.0);
        assert!(least >= radius - 1e-9, "{least}");
    }
    let legend: Vec<String> = navmesh
        .search_legend()
        .into_iter()
        .map(|row| row.text)
        .collect();
    assert!(
        legend.contains(&"agent of radius 0.60 and its path".to_owned()),
        "{legend:?}"
    );
    h.key_press(egui::Key::W);
    h.run_steps(5);
    let walks = &h.state().scenes.navmesh.agents.walks;
    assert_eq!(walks.iter().flatten().count(), 2, "both walk");
    assert!(walks.iter().flatten().all(|w| w.time > 0.0));
    h.get_all_by_label("×")
        .next()
        .expect("a remove button")
        .click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.navmesh.settings.display.agents, vec![0.6]);
}

/// With the clearance shown, an obstacle drawn on the mesh: the edited mesh's clearance is
/// carried from the last one's (worked out only near the edit) and is the clearance worked
/// out afresh; the agent's path goes round the obstacle keeping its radius.
#[test]
fn an_edit_keeps_the_clearance_up_to_date() {
    let mut h = harness(app());
    h.state_mut()
        .scenes
        .navmesh
        .settings
        .display
        .clearance_colours = true;
    h.state_mut().scenes.navmesh.settings.display.fit_radius = 0.2;
    h.run_steps(3);
    assert!(h.state().scenes.navmesh.clearance().is_some());
    h.key_press(egui::Key::R);
    h.run_steps(2);
    let (from, to) = (Vec2::new(9.0, 1.5), Vec2::new(11.0, 3.5));
    let view = h.state().scenes.navmesh.last_view().expect("drawn");
    let (a, b) = (view.screen_from_world(from), view.screen_from_world(to));
    common::drag_screen(&mut h, (a, b), egui::PointerButton::Primary, 6, |_| {});
    h.run_steps(3);
    let navmesh = &h.state().scenes.navmesh;
    assert_eq!(navmesh.editor().shapes().len(), 1, "the obstacle is cut");
    let mesh = std::sync::Arc::clone(navmesh.mesh());
    let carried = navmesh
        .clearance()
        .expect("carried to the edited mesh")
        .clone();
    let again = carried.carried().expect("carried, not worked out afresh");
    assert!(again < mesh.triangles().len() + mesh.edges().len());
    let fresh = navlab::navmesh::clearance::Clearance::of(&mesh);
    for (x, y) in carried.triangles().iter().zip(fresh.triangles()) {
        assert!((x - y).abs() <= 1e-9, "{x} against {y}");
    }
    let path = navmesh.query.timeline.path.clone().expect("a path");
    let least = carried.least_room_along(&path.corridor, &path.waypoints, &path.arcs, 1.0);
    assert!(least >= 0.2 - 1e-9, "{least}");
}

/// Where every portal of a route has room for the agent radius but the corridor A* chose is
/// narrower between two of them, no path is shown and the panel says why, rather than that a
/// disc crosses.
#[test]
fn a_corridor_too_narrow_between_its_portals_is_named() {
    let mut h = harness(app());
    use navlab::grid::{Tile, TileMap};
    let rows = ["......", "#..#.#", "......", "#....."];
    let map = TileMap::from_rows(
        rows.iter()
            .map(|r| {
                r.chars()
                    .map(|c| if c == '#' { Tile::Wall } else { Tile::Grass })
                    .collect()
            })
            .collect(),
    )
    .expect("a map");
    let mesh = navlab::navmesh::from_map::navmesh_from_map(&map, 0.0).expect("a mesh");
    let navmesh = &mut h.state_mut().scenes.navmesh;
    navmesh.set_mesh(
        mesh,
        navlab::app::navmesh_scene::MeshSource::Generated("a map".into()),
    );
    navmesh.settings.cost = navlab::navmesh::CostModel::Straight;
    navmesh.set_start(Vec2::new(2.0, 1.5));
    navmesh.set_goal(Vec2::new(4.585786437626905, 0.5857864376269049));
    navmesh.settings.display.fit_radius = 0.45;
    h.run_steps(4);
    let navmesh = &h.state().scenes.navmesh;
    let path = navmesh.query.timeline.path.clone().expect("an answer");
    assert_eq!(path.status, navlab::navmesh::PathStatus::Unreachable);
    assert_eq!(path.radius, 0.45);
    assert!(navmesh.widest_route().is_some_and(|r| r.radius >= 0.45));
    assert!(
        h.query_all_by_label_contains("the corridor A* chose is narrower")
            .count()
            >= 1
    );
}
