//! Legends tell what is on the canvas at every step, and never hide what matters: the start,
//! the goal and the agents stay in sight whatever corner they are in.

use crate::common;

use common::{app, harness};
use egui_kittest::Harness;
use navlab::app::{NavlabApp, SceneKind};
use navlab::geom::Vec2;

/// Whether `rect` (a legend's plate, with a margin) hides the point `at`.
fn hides(rect: Option<egui::Rect>, at: egui::Pos2) -> bool {
    rect.is_some_and(|r| r.expand(6.0).contains(at))
}

/// The centroid of the navmesh triangle drawn nearest the canvas's corner `corner`.
fn triangle_near_corner(h: &Harness<'_, NavlabApp>, corner: egui::Align2) -> Vec2 {
    let scene = &h.state().scenes.navmesh;
    let view = scene.last_view().expect("drawn");
    let target = corner.pos_in_rect(&view.rect);
    scene
        .mesh()
        .triangles()
        .iter()
        .map(|t| t.centroid)
        .min_by(|a, b| {
            let d = |p: Vec2| view.screen_from_world(p).distance(target);
            d(*a).total_cmp(&d(*b))
        })
        .expect("triangles")
}

#[test]
fn the_navmesh_legend_moves_off_a_goal_in_any_bottom_corner() {
    for corner in [egui::Align2::LEFT_BOTTOM, egui::Align2::RIGHT_BOTTOM] {
        let mut h = harness(app());
        let goal = triangle_near_corner(&h, corner);
        h.state_mut().scenes.navmesh.place(None, Some(goal));
        h.run_steps(3);
        let scene = &h.state().scenes.navmesh;
        let view = scene.last_view().expect("drawn");
        let path = scene.query.timeline.path.as_ref().expect("a path");
        for end in [path.start.point, path.goal.point] {
            let at = view.screen_from_world(end);
            assert!(
                !hides(scene.screen.legend_rect, at),
                "the legend {:?} hides {at:?} (goal in the {corner:?} corner)",
                scene.screen.legend_rect
            );
        }
    }
}

#[test]
fn the_pursuit_legend_moves_off_a_mob_in_the_bottom_left_corner() {
    let mut h = harness(app());
    h.state_mut().settings.scene = SceneKind::Pursuit;
    h.run_steps(3);
    let (w, rows) = {
        let map = h.state().scenes.pursuit.world.map();
        (map.width(), map.height())
    };
    // A mob on the free cell nearest the bottom left corner of the map.
    let mut cells: Vec<(usize, usize)> = (0..rows)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .collect();
    cells.sort_by_key(|&(x, y)| x + (rows - 1 - y));
    let placed = cells.into_iter().find(|&(x, y)| {
        let at = Vec2::new(x as f64 + 0.5, y as f64 + 0.5);
        h.state_mut().scenes.pursuit.add_mob(at)
    });
    assert!(placed.is_some(), "a mob placed");
    h.run_steps(2);
    let scene = &h.state().scenes.pursuit;
    let view = scene.last_view().expect("drawn");
    for mob in &scene.world.mobs {
        let on_screen = view.screen_from_world(mob.body.position);
        assert!(
            !hides(scene.legend_rect, on_screen),
            "the legend {:?} hides the mob at {on_screen:?}",
            scene.legend_rect
        );
    }
}

/// At every step of a query with the shortest path searched too, the legend has rows, and
/// they are of the phase shown: A*'s lists, the funnel, Polyanya's intervals, the two paths.
#[test]
fn every_step_of_the_navmesh_timeline_has_a_legend_of_its_phase() {
    let mut h = harness(app());
    {
        let scene = &mut h.state_mut().scenes.navmesh;
        scene.settings.optimal = true;
        scene.rerun();
        scene.wait_for_query();
    }
    h.run_steps(2);
    let len = h.state().scenes.navmesh.query.timeline.len();
    let optimal_start = {
        use navlab::app::screenshot::Steps;
        h.state().scenes.navmesh.optimal_start()
    };
    assert!(optimal_start < len, "Polyanya's steps are on the timeline");
    let mut seen_search = false;
    let mut seen_shortest = false;
    for k in 0..=len {
        {
            use navlab::app::screenshot::Steps;
            h.state_mut().scenes.navmesh.show_step(k);
        }
        h.run_steps(1);
        let scene = &h.state().scenes.navmesh;
        let rows: Vec<String> = scene.search_legend().into_iter().map(|r| r.text).collect();
        assert!(!rows.is_empty(), "no legend at step {k} of {len}");
        if k > optimal_start {
            let done = k == len;
            let polyanya = if done {
                "shortest path (Polyanya)"
            } else {
                "interval still open"
            };
            assert!(rows.iter().any(|r| r == polyanya), "step {k}: {rows:?}");
            seen_search |= !done;
            seen_shortest |= done;
        }
    }
    assert!(seen_search && seen_shortest);
}

#[test]
fn the_quality_heat_map_has_its_bands_in_the_legend() {
    let mut h = harness(app());
    h.state_mut().scenes.navmesh.measure_quality(50);
    h.run_steps(2);
    let scene = &h.state().scenes.navmesh;
    assert!(scene.diagnostics.quality.heat_shown());
    let rows: Vec<String> = scene.legend().into_iter().map(|r| r.text).collect();
    let bands = navlab::app::navmesh_scene::quality::HEAT_BANDS;
    for (_, _, text) in bands {
        assert!(
            rows.iter().any(|r| r == text),
            "{text} missing from {rows:?}"
        );
    }
}

/// The walk's legend names what it draws: the agent, its trail on the mesh and off it where it
/// cut a corner (it does on the built-in rooms), and the corner radius.
#[test]
fn the_walk_has_its_legend() {
    let mut h = harness(app());
    {
        let scene = &mut h.state_mut().scenes.navmesh;
        scene.query.playback.cursor = usize::MAX;
        scene.sync_replay();
        scene.toggle_walk();
        let walk = scene.walk.as_mut().expect("a path to walk");
        walk.time = walk.walk.duration();
        walk.playing = false;
    }
    h.run_steps(2);
    let rows: Vec<String> = h
        .state()
        .scenes
        .navmesh
        .legend()
        .into_iter()
        .map(|r| r.text)
        .collect();
    for text in [
        "the agent, its nose its heading",
        "its trail on the mesh",
        "off the mesh: a corner cut",
        "corner radius: the next corner is taken inside it",
    ] {
        assert!(
            rows.iter().any(|r| r == text),
            "{text} missing from {rows:?}"
        );
    }
}
