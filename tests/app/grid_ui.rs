//! The tile-map lab driven headlessly with egui_kittest: paint by clicking, undo and redo,
//! switch algorithm, step the animation, compare, save and the unsaved-changes question.

use crate::common;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use navlab::app::files::ScriptedDialogs;
use navlab::app::{AppSettings, NavlabApp, SceneKind};
use navlab::geom::Vec2;
use navlab::grid::AlgorithmKind;
use navlab::grid::{GridPath, Tile, grid_search};
use navlab::search::SearchEvent;
use std::collections::VecDeque;
use std::path::PathBuf;

fn harness(answers: Vec<Option<PathBuf>>) -> Harness<'static, NavlabApp> {
    harness_with(ScriptedDialogs {
        answers: VecDeque::from(answers),
        ..Default::default()
    })
}

fn harness_with(dialogs: ScriptedDialogs) -> Harness<'static, NavlabApp> {
    let app = NavlabApp::new(AppSettings::default(), Box::new(dialogs));
    let mut h = common::harness(app);
    h.get_by_label("Tile map").click();
    h.run_steps(3);
    assert_eq!(h.state().settings.scene, SceneKind::TileMap);
    h
}

/// Runs frames until the navmesh build on the worker thread is done and shown (6 s at most).
fn wait_for_mesh_build(h: &mut Harness<'_, NavlabApp>) {
    for _ in 0..600 {
        if !h.state().is_building_mesh() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
    h.run_steps(2);
}

/// Screen positions of cells' centres, as the canvas was last drawn.
fn cell_centres(h: &Harness<'_, NavlabApp>) -> impl Fn((usize, usize)) -> egui::Pos2 + use<> {
    let view = h.state().scenes.tile_map.last_view().expect("canvas drawn");
    move |(x, y)| view.screen_from_world(Vec2::new(x as f64 + 0.5, y as f64 + 0.5))
}

fn click_cell(h: &mut Harness<'_, NavlabApp>, cell: (usize, usize)) {
    let pos = cell_centres(h)(cell);
    common::click_screen(h, pos, egui::PointerButton::Primary);
    h.run_steps(1);
}

#[test]
fn painting_by_click_then_undo_and_redo() {
    let mut h = harness(vec![]);
    let cell = (5, 10);
    assert_eq!(h.state().map.map.get(cell), Some(Tile::Grass));
    h.get_by_label("Wall").click();
    h.run_steps(1);
    click_cell(&mut h, cell);
    assert_eq!(h.state().map.map.get(cell), Some(Tile::Wall));
    assert!(h.state().map.dirty);
    h.get_by_label("Water").click();
    h.run_steps(1);
    click_cell(&mut h, (6, 10));
    assert_eq!(h.state().map.map.get((6, 10)), Some(Tile::Water));
    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert_eq!(h.state().map.map.get((6, 10)), Some(Tile::Grass));
    assert_eq!(h.state().map.map.get(cell), Some(Tile::Wall));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().map.map.get(cell), Some(Tile::Grass));
    h.get_by_label("Redo").click();
    h.run_steps(2);
    assert_eq!(h.state().map.map.get(cell), Some(Tile::Wall));
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    h.run_steps(2);
    assert_eq!(h.state().map.map.get((6, 10)), Some(Tile::Water));
}

/// Drags with the left button from the centre of one cell to the centre of another, in
/// `moves` equal moves of one frame each.
fn drag_cells(
    h: &mut Harness<'_, NavlabApp>,
    from: (usize, usize),
    to: (usize, usize),
    moves: usize,
) {
    let at = cell_centres(h);
    common::drag_screen(
        h,
        (at(from), at(to)),
        egui::PointerButton::Primary,
        moves,
        |_| {},
    );
}

#[test]
fn number_keys_choose_the_tile_and_r_fills_rectangles_undone_in_one_step() {
    use navlab::app::tile_map_scene::Tool;
    let mut h = harness(vec![]);
    h.key_press(egui::Key::Num2);
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.tool, Tool::Paint(Tile::Sand));
    h.key_press(egui::Key::R);
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.tool, Tool::Rectangle(Tile::Sand));
    // Choosing another tile keeps the rectangle mode, by key or by button.
    h.key_press(egui::Key::Num5);
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.tool, Tool::Rectangle(Tile::Hole));
    h.get_by_label("Water").click();
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.tool, Tool::Rectangle(Tile::Water));

    let before = h.state().map.map.clone();
    let (from, to) = ((3, 14), (7, 17));
    drag_cells(&mut h, from, to, 8);
    let map = &h.state().map.map;
    for y in 12..20 {
        for x in 1..10 {
            let inside = (3..=7).contains(&x) && (14..=17).contains(&y);
            let want = if inside {
                Some(Tile::Water)
            } else {
                before.get((x, y))
            };
            assert_eq!(map.get((x, y)), want, "cell {x},{y}");
        }
    }
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(1);
    assert_eq!(
        h.state().map.map,
        before,
        "one undo takes the whole rectangle back"
    );

    // R again paints freely with the same tile.
    h.key_press(egui::Key::R);
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.tool, Tool::Paint(Tile::Water));
}

#[test]
fn a_fast_stroke_paints_every_cell_it_crosses() {
    let mut h = harness(vec![]);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    let before = h.state().map.map.clone();
    // Two moves of about seven cells each, over open grass: a frame sees the pointer only at
    // their ends.
    drag_cells(&mut h, (16, 21), (29, 18), 2);
    // The new walls join the two ends without a gap (8-connected), one cell per column.
    let painted = common::changed_cells(&before, &h.state().map.map);
    assert!(
        painted.contains(&(16, 21)) && painted.contains(&(29, 18)),
        "{painted:?}"
    );
    let mut reached = vec![(16, 21)];
    let mut k = 0;
    while let Some(&(x, y)) = reached.get(k) {
        k += 1;
        for &c in &painted {
            if !reached.contains(&c) && c.0.abs_diff(x) <= 1 && c.1.abs_diff(y) <= 1 {
                reached.push(c);
            }
        }
    }
    assert_eq!(reached.len(), painted.len(), "no gaps: {painted:?}");
    assert_eq!(painted.len(), 14, "{painted:?}");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(1);
    assert_eq!(h.state().map.map, before, "one undo step");
}

#[test]
fn a_stroke_whose_first_move_comes_with_the_press_starts_where_it_was_pressed() {
    let mut h = harness(vec![]);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    let before = h.state().map.map.clone();
    let at = cell_centres(&h);
    let (from, to) = ((16, 21), (22, 21));
    // The press and a move six cells on, in one frame (a quick flick on a slow frame).
    common::pointer_in_one_frame(&mut h, &[at(from), at(to)], false);
    h.event(common::primary_button(at(to), false));
    h.run_steps(2);
    let painted = common::changed_cells(&before, &h.state().map.map);
    let row: Vec<(usize, usize)> = (16..=22).map(|x| (x, 21)).collect();
    assert_eq!(painted, row);
}

/// A click whose press and release reach egui in one frame (a quick click on a slow frame,
/// as on a large map) paints its cell.
#[test]
fn a_click_within_one_frame_paints() {
    let mut h = harness(vec![]);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    let cell = (16, 21);
    let at = cell_centres(&h)(cell);
    common::pointer_in_one_frame(&mut h, &[at, at], true);
    h.run_steps(1);
    assert_eq!(h.state().map.map.get(cell), Some(Tile::Wall));
    assert!(h.state().map.dirty);
}

/// A large map fitted in the window is drawn as one texture, so a frame's drawing does not grow
/// with the map (it was a rectangle per tile: 16 M vertices a frame for 2048²), and a click
/// still paints the tile under it.
#[test]
fn a_large_map_is_drawn_with_bounded_work_and_still_paints() {
    let mut h = harness(vec![]);
    h.get_by_label("Wall").click();
    h.state_mut()
        .command(navlab::app::Command::NewMap(2048, 2048));
    h.run_steps(3);
    assert_eq!(h.state().map.map.width(), 2048);
    // A map this large is searched on the worker thread; its answer changes the picture.
    h.state_mut().scenes.tile_map.wait_for_search();
    h.run_steps(1);
    let vertices = |h: &Harness<'_, NavlabApp>| -> usize {
        h.output()
            .shapes
            .iter()
            .map(|clipped| match &clipped.shape {
                egui::epaint::Shape::Mesh(mesh) => mesh.vertices.len(),
                _ => 0,
            })
            .sum()
    };
    let textured = |h: &Harness<'_, NavlabApp>| {
        h.output()
            .shapes
            .iter()
            .any(|clipped| match &clipped.shape {
                egui::epaint::Shape::Mesh(mesh) => mesh.texture_id != egui::TextureId::default(),
                _ => false,
            })
    };
    assert!(vertices(&h) < 100_000, "{} vertices", vertices(&h));
    assert!(textured(&h), "the tiles are one textured rectangle");

    // The texture is drawn again as it is while nothing it shows changes (a frame of hovering),
    // and made again when a tile changes.
    let made = |h: &Harness<'_, NavlabApp>| {
        navlab::app::tile_paint::textures_made(
            &h.ctx,
            navlab::app::tile_map_scene::tiles_texture_id(),
        )
    };
    let cell = (1000, 700);
    let at = cell_centres(&h)(cell);
    let before = made(&h);
    assert!(before > 0);
    h.hover_at(at);
    h.run_steps(2);
    assert_eq!(made(&h), before, "nothing it shows changed");
    assert!(h.state_mut().paint((5, 5), Tile::Water));
    h.state_mut().scenes.tile_map.wait_for_search();
    h.run_steps(2);
    assert_eq!(made(&h), before + 1, "a tile changed");
    common::click_screen(&mut h, at, egui::PointerButton::Primary);
    assert_eq!(h.state().map.map.get(cell), Some(Tile::Wall));

    // Zoomed in, tiles are rectangles again (with grid lines), still few.
    let built_in = harness(vec![]);
    assert!(!textured(&built_in));
    assert!(vertices(&built_in) > 0 && vertices(&built_in) < 100_000);
}

/// Dragging S or G moves it whatever the tool, re-running the search as it goes; nothing is
/// painted, and a drop on a wall leaves it on the last passable cell passed.
#[test]
fn dragging_the_start_or_goal_moves_it_and_paints_nothing() {
    let mut h = harness(vec![]);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    let before = h.state().map.map.clone();
    let (start, goal) = (
        h.state().scenes.tile_map.start,
        h.state().scenes.tile_map.goal,
    );
    let at = cell_centres(&h);
    let to = (5, 10);
    assert!(before.is_passable(to));
    let mut starts_seen = Vec::new();
    common::drag_screen(
        &mut h,
        (at(start), at(to)),
        egui::PointerButton::Primary,
        4,
        |h| starts_seen.push(h.state().scenes.tile_map.start),
    );
    let app = h.state();
    let grid = &app.scenes.tile_map;
    assert_eq!(grid.start, to);
    assert_eq!(grid.goal, goal);
    assert_eq!(app.map.map, before, "nothing painted");
    assert!(grid.dragging.is_none());
    assert!(
        starts_seen.iter().any(|&s| s != start && s != to),
        "moved on the way: {starts_seen:?}"
    );
    let result = grid.search.result.as_ref().expect("searched");
    assert_eq!(result.path.first(), Some(&to), "the search follows");

    // The goal, dragged onto a wall (2,3: the upper-left room's west wall) from a passable cell
    // beside it, stays on that cell.
    let (beside, wall) = ((1, 3), (2, 3));
    assert!(!before.is_passable(wall) && before.is_passable(beside));
    common::drag_screen(
        &mut h,
        (at(goal), at(beside)),
        egui::PointerButton::Primary,
        3,
        |_| {},
    );
    assert_eq!(h.state().scenes.tile_map.goal, beside);
    common::drag_screen(
        &mut h,
        (at(beside), at(wall)),
        egui::PointerButton::Primary,
        2,
        |_| {},
    );
    assert_eq!(h.state().scenes.tile_map.goal, beside);
    assert_eq!(h.state().map.map, before);
}

/// A whole stroke — press, moves, release — reaching egui in one frame (after a slow frame,
/// e.g. the search re-run on a large map) paints its cells.
#[test]
fn a_stroke_within_one_frame_paints() {
    let mut h = harness(vec![]);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    let before = h.state().map.map.clone();
    let at = cell_centres(&h);
    let (from, to) = ((16, 20), (22, 20));
    common::pointer_in_one_frame(&mut h, &[at(from), at((19, 20)), at(to)], true);
    h.run_steps(1);
    let painted = common::changed_cells(&before, &h.state().map.map);
    let row: Vec<(usize, usize)> = (16..=22).map(|x| (x, 20)).collect();
    assert_eq!(painted, row);

    // So does a rectangle dragged corner to corner.
    h.key_press(egui::Key::R);
    h.run_steps(1);
    let before = h.state().map.map.clone();
    common::pointer_in_one_frame(&mut h, &[at((26, 14)), at((28, 16))], true);
    h.run_steps(1);
    let painted = common::changed_cells(&before, &h.state().map.map);
    let block: Vec<(usize, usize)> = (14..=16)
        .flat_map(|y| (26..=28).map(move |x| (x, y)))
        .collect();
    assert_eq!(painted, block);
}

#[test]
fn fill_replaces_the_clicked_region_in_one_undoable_step() {
    use navlab::app::tile_map_scene::Tool;
    let mut h = harness(vec![]);
    h.key_press(egui::Key::Num2);
    h.key_press(egui::Key::G);
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.tool, Tool::Fill(Tile::Sand));
    let before = h.state().map.map.clone();
    // Grass inside the built-in map's lower room (joined to the rest through its doors).
    let cell = (12, 12);
    let mut region = before.region_of(cell);
    region.sort_unstable();
    assert!(
        region.len() > 20 && region.len() < before.cell_count(),
        "{}",
        region.len()
    );
    click_cell(&mut h, cell);
    let after = h.state().map.map.clone();
    for i in 0..after.cell_count() {
        let c = after.cell(i);
        let want = if region.binary_search(&c).is_ok() {
            Some(Tile::Sand)
        } else {
            before.get(c)
        };
        assert_eq!(after.get(c), want, "cell {c:?}");
    }
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(1);
    assert_eq!(h.state().map.map, before, "one undo");
    h.get_by_label("Fill").click();
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.tool, Tool::Paint(Tile::Sand));
}

#[test]
fn switching_algorithm_reruns_and_stepping_moves_the_animation() {
    let mut h = harness(vec![]);
    h.get_by_label("Fringe").click();
    h.run_steps(2);
    let app = h.state();
    let grid = &app.scenes.tile_map;
    assert_eq!(grid.settings.algorithm, AlgorithmKind::Fringe);
    assert!(
        grid.search
            .events
            .iter()
            .any(|e| matches!(e, navlab::search::SearchEvent::IterationStarted { .. }))
    );
    h.get_by_label("Step forward").click();
    h.run_steps(1);
    h.get_by_label("Step forward").click();
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.playback.cursor, 2);
    h.get_by_label("Step back").click();
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.playback.cursor, 1);
    h.get_by_label("BFS").click();
    h.run_steps(2);
    assert_eq!(
        h.state().scenes.tile_map.settings.algorithm,
        AlgorithmKind::Bfs
    );
}

/// JPS in the lab: on the built-in map (sand and water cost more) the panel says it searches
/// as A* and offers one cost for all; taken, JPS prunes — its steps are scans that name why
/// they stopped, drawn over the map, and it expands fewer cells than A* for the same cost.
#[test]
fn run_jump_point_search_and_step_through_its_scans() {
    use navlab::search::{JumpStop, SearchEvent};
    let mut h = harness(vec![]);
    h.get_by_label("A*").click();
    h.run_steps(2);
    let astar = h
        .state()
        .scenes
        .tile_map
        .search
        .result
        .clone()
        .expect("A*'s answer");
    h.get_by_label("JPS").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("so it searches as A*").is_some());
    h.get_by_label("Every tile costs as grass").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("so it searches as A*").is_none());
    let grid = &h.state().scenes.tile_map;
    let events = grid.search.events.clone();
    let jps = grid.search.result.clone().expect("JPS's answer");
    assert!(
        jps.expanded < astar.expanded / 3,
        "JPS {} against A* {}",
        jps.expanded,
        astar.expanded
    );
    // The same map with every tile as grass: A* again, for the cost.
    let map = h.state().map.map.clone();
    let oracle = navlab::grid::grid_search(
        &map,
        grid.start,
        grid.goal,
        navlab::grid::GridAlgorithm::Dijkstra,
        navlab::grid::Connectivity::Eight,
        &mut navlab::search::NoObserver,
    );
    assert!(
        (jps.cost - oracle.cost).abs() < 1e-9,
        "{} vs {}",
        jps.cost,
        oracle.cost
    );
    // Step to the first scan that stops for a forced neighbour: its sentence says so.
    let forced = events
        .iter()
        .position(|e| {
            matches!(
                e,
                SearchEvent::Jumped {
                    stop: JumpStop::Forced { .. },
                    ..
                }
            )
        })
        .expect("a forced neighbour on the way");
    h.state_mut().scenes.tile_map.playback.cursor = forced + 1;
    h.run_steps(2);
    let caption = h.state().scenes.tile_map.current_explanation();
    assert!(caption.contains("a forced neighbour at cell"), "{caption}");
    h.get_by_label("Step forward").click();
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.playback.cursor, forced + 2);
}

/// JPS+ in the lab: on a map of one tile cost it finds the cheapest path with no more
/// expansions than JPS; its jump distances are offered only for it, and the panel asks to zoom
/// in until the cells hold them.
#[test]
fn run_jps_plus_and_show_its_jump_distances() {
    let mut h = harness(vec![]);
    assert!(h.query_by_label("Jump distances").is_none());
    h.get_by_label("JPS+").click();
    h.run_steps(2);
    h.get_by_label("Every tile costs as grass").click();
    h.run_steps(2);
    let grid = &h.state().scenes.tile_map;
    let plus = grid.search.result.clone().expect("JPS+'s answer");
    let map = h.state().map.map.clone();
    let (start, goal) = (grid.start, grid.goal);
    let search = |algorithm| {
        navlab::grid::grid_search(
            &map,
            start,
            goal,
            algorithm,
            navlab::grid::Connectivity::Eight,
            &mut navlab::search::NoObserver,
        )
    };
    let oracle = search(navlab::grid::GridAlgorithm::Dijkstra);
    let jps = search(navlab::grid::GridAlgorithm::Jps);
    assert!(
        (plus.cost - oracle.cost).abs() < 1e-9,
        "{} vs {}",
        plus.cost,
        oracle.cost
    );
    assert!(
        plus.expanded <= jps.expanded + 1,
        "{} vs JPS {}",
        plus.expanded,
        jps.expanded
    );
    // Its steps are jumps read from its tables, said as such.
    let jump = h
        .state()
        .scenes
        .tile_map
        .search
        .events
        .iter()
        .position(|e| matches!(e, navlab::search::SearchEvent::Jumped { .. }))
        .expect("a jump");
    h.state_mut().scenes.tile_map.playback.cursor = jump + 1;
    h.run_steps(2);
    let caption = h.state().scenes.tile_map.current_explanation();
    assert!(caption.starts_with("jump "), "{caption}");
    h.get_by_label("Jump distances").click();
    h.run_steps(2);
    assert!(h.state().scenes.tile_map.settings.jump_distances);
    // The built-in map fits the canvas with cells too small for eight numbers.
    assert!(h.query_by_label_contains("Zoom in to read them").is_some());
    h.state_mut()
        .scenes
        .tile_map
        .camera
        .set(navlab::app::camera::Camera {
            center: [8.0, 6.0],
            scale: 48.0,
        });
    h.run_steps(2);
    assert!(h.query_by_label_contains("Zoom in to read them").is_none());
    h.get_by_label("A*").click();
    h.run_steps(2);
    assert!(h.query_by_label("Jump distances").is_none());
}

/// Bidirectional A* in the lab: the cheapest path; the open list shown is the half expanding
/// at the step shown, named; both halves' cells are on the map (the backward half's in its own
/// colours) and a step says where they meet.
#[test]
fn run_bidirectional_astar_and_see_both_halves() {
    let mut h = harness(vec![]);
    h.get_by_label("Bidirectional A*").click();
    h.run_steps(2);
    let grid = &h.state().scenes.tile_map;
    let found = grid.search.result.clone().expect("an answer");
    let map = h.state().map.map.clone();
    let oracle = navlab::grid::grid_search(
        &map,
        grid.start,
        grid.goal,
        navlab::grid::GridAlgorithm::Dijkstra,
        navlab::grid::Connectivity::Eight,
        &mut navlab::search::NoObserver,
    );
    assert!(
        (found.cost - oracle.cost).abs() < 1e-9,
        "{} vs {}",
        found.cost,
        oracle.cost
    );
    let events = grid.search.events.clone();
    let met = events
        .iter()
        .position(|e| matches!(e, navlab::search::SearchEvent::Met { .. }))
        .expect("the halves meet");
    h.state_mut().scenes.tile_map.playback.cursor = met + 1;
    h.run_steps(2);
    let caption = h.state().scenes.tile_map.current_explanation();
    assert!(caption.starts_with("the halves meet at cell"), "{caption}");
    // The backward half opens the goal, not the start.
    h.state_mut().scenes.tile_map.playback.cursor = 3;
    h.run_steps(2);
    let caption = h.state().scenes.tile_map.current_explanation();
    let (gx, gy) = h.state().scenes.tile_map.goal;
    assert!(
        caption.starts_with(&format!("open cell {gx},{gy} (this half's end): g = 0.00")),
        "{caption}"
    );
    assert!(
        h.query_all_by_label_contains("Open list, ")
            .next()
            .is_some(),
        "the open list names its half"
    );
    let replay = &h.state().scenes.tile_map.search.replay;
    let backward = (0..map.cell_count())
        .filter(|&i| replay.reached_backward(i))
        .count();
    let forward = (0..map.cell_count())
        .filter(|&i| {
            !replay.reached_backward(i) && replay.status(i) != navlab::search::NodeStatus::Unseen
        })
        .count();
    assert!(
        backward > 0 && forward > 0,
        "forward {forward}, backward {backward}"
    );
}

/// Theta* in the lab: the panel says it measures length; its path turns at a few cells, joined
/// by straight segments no longer than A*'s eight-direction path on the same map.
#[test]
fn run_theta_star_for_a_path_at_any_angle() {
    let mut h = harness(vec![]);
    h.get_by_label("Theta*").click();
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("Theta* measures length")
            .is_some()
    );
    // Every tile as grass, so that A*'s cost is a length too.
    let mut costs = h.state().map.map.costs;
    (costs.sand, costs.water) = (costs.grass, costs.grass);
    h.state_mut().map.set_costs(costs);
    h.run_steps(2);
    let grid = &h.state().scenes.tile_map;
    let theta = grid.search.result.clone().expect("Theta*'s answer");
    let map = h.state().map.map.clone();
    let astar = navlab::grid::grid_search(
        &map,
        grid.start,
        grid.goal,
        navlab::grid::GridAlgorithm::AStar {
            heuristic: navlab::grid::Heuristic::Octile,
            weight: 1.0,
        },
        navlab::grid::Connectivity::Eight,
        &mut navlab::search::NoObserver,
    );
    assert!(
        theta.cost < astar.cost,
        "{} against A* {}",
        theta.cost,
        astar.cost
    );
    assert!(
        theta.path.len() < astar.path.len() / 4,
        "{} turning cells against {} cells",
        theta.path.len(),
        astar.path.len()
    );
}

#[test]
fn compare_all_fills_the_table_for_every_algorithm() {
    let mut h = harness(vec![]);
    h.get_by_label("IDA*").click();
    h.run_steps(1);
    // Keep IDA* quick for the test.
    h.state_mut().scenes.tile_map.settings.budget = 50_000;
    let canvas_before = h.state().scenes.tile_map.last_view().expect("drawn").rect;
    h.get_by_label("Compare all").click();
    h.run_steps(1);
    // It runs on a worker thread: the window keeps drawing (and says so) until it is done.
    assert!(
        h.state().scenes.tile_map.is_comparing() || h.state().scenes.tile_map.comparison.is_some()
    );
    wait_for_comparison(&mut h);
    assert!(!h.state().scenes.tile_map.is_comparing());
    let rows = h
        .state()
        .scenes
        .tile_map
        .comparison
        .clone()
        .expect("compared");
    assert_eq!(rows.len(), navlab::grid::GridAlgorithm::ALL.len());
    let dijkstra = rows
        .iter()
        .find(|r| r.name == "Dijkstra")
        .expect("row")
        .cost;
    for r in &rows {
        if r.name == "A*" || r.name == "Fringe" {
            assert!((r.cost - dijkstra).abs() < 1e-9, "{} {}", r.name, r.cost);
        }
        assert!(r.micros > 0.0);
    }
    // Passes and deferrals, for the algorithms that have them, as a recorded run shows them.
    let app = h.state();
    for r in &rows {
        // "JPS (as A*)" is JPS's row where its pruning does not hold.
        let kind = AlgorithmKind::ALL
            .into_iter()
            .find(|k| r.name.split(" (").next() == Some(k.name()))
            .expect("kind");
        let (_, trace) = traced_search(app, kind);
        let count = |wanted: fn(&SearchEvent) -> bool| trace.iter().filter(|e| wanted(e)).count();
        let passes = count(|e| matches!(e, SearchEvent::IterationStarted { .. }));
        let deferred = count(|e| matches!(e, SearchEvent::Deferred { .. }));
        let cut_off = count(|e| matches!(e, SearchEvent::CutOff { .. }));
        match kind {
            AlgorithmKind::IdaStar => {
                assert_eq!((r.passes, r.deferred), (Some(passes), Some(cut_off)));
                assert!(passes >= 1);
                assert_eq!(deferred, 0, "IDA* keeps no later list");
            }
            AlgorithmKind::Fringe => {
                assert_eq!(cut_off, 0, "Fringe keeps what it puts off");
                assert_eq!((r.passes, r.deferred), (Some(passes), Some(deferred)));
                assert!(passes >= 1);
            }
            _ => assert_eq!((r.passes, r.deferred), (None, None), "{}", r.name),
        }
    }
    h.get_by_label("Passes");
    h.get_by_label("Put off");
    h.get_by_label("Time (µs)");
    h.get_by_label("Time, µs (log)");
    // The table and charts took room from the map, which was fitted again to show all of it.
    let view = h.state().scenes.tile_map.last_view().expect("drawn");
    assert!(view.rect.height() < canvas_before.height() - 100.0);
    let seen = view.visible_world();
    let map = &h.state().map.map;
    assert!(seen.min.x <= 0.0 && seen.min.y <= 0.0);
    assert!(seen.max.x >= map.width() as f64 && seen.max.y >= map.height() as f64);

    // Copy table: a header and one tab-separated row per algorithm, read back to the numbers.
    let copied = common::click_and_copied(&mut h, "Copy table");
    let [text] = copied.as_slice() else {
        panic!("one copy: {copied:?}")
    };
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines[0][0], "Algorithm");
    assert_eq!(lines.len(), 1 + rows.len());
    for (fields, r) in lines[1..].iter().zip(&rows) {
        assert_eq!(fields.len(), 8, "{fields:?}");
        assert_eq!(fields[0], r.name);
        if r.cost.is_finite() {
            assert_eq!(fields[1].parse::<f64>().ok(), Some(r.cost));
        }
        assert_eq!(fields[2].parse::<usize>().ok(), Some(r.expanded));
        assert_eq!(fields[5].parse::<usize>().ok(), Some(r.peak_memory));
    }
}

/// Hide folds the comparison to its heading row, so a small window gives the map and the steps
/// the room; Show and Compare all (C) bring the table and charts back, and the choice is kept.
#[test]
fn the_comparison_hides_and_gives_the_map_its_room() {
    let mut h = harness(vec![]);
    h.set_size(egui::vec2(1024.0, 640.0));
    h.run_steps(2);
    h.state_mut().scenes.tile_map.settings.budget = 50_000;
    h.get_by_label("Compare all").click();
    wait_for_comparison(&mut h);
    h.run_steps(2);
    let height = |h: &Harness<'_, NavlabApp>| {
        h.state()
            .scenes
            .tile_map
            .last_view()
            .expect("drawn")
            .rect
            .height()
    };
    let shown = height(&h);
    assert!(h.query_by_label("Put off").is_some());

    h.get_by_label("Hide").click();
    h.run_steps(3);
    assert!(h.query_by_label("Put off").is_none(), "the table is hidden");
    assert!(
        h.query_by_label("Cells expanded (log)").is_none(),
        "the charts are hidden"
    );
    assert!(height(&h) > shown + 150.0, "{} against {shown}", height(&h));
    assert!(
        h.state().scenes.tile_map.settings().comparison_hidden,
        "kept between runs"
    );

    h.get_by_label("Show").click();
    h.run_steps(3);
    assert!(h.query_by_label("Put off").is_some());
    assert!((height(&h) - shown).abs() < 1.0);

    // Asking for a comparison shows it.
    h.get_by_label("Hide").click();
    h.run_steps(2);
    h.key_press(egui::Key::C);
    h.run_steps(2);
    wait_for_comparison(&mut h);
    h.run_steps(2);
    assert!(!h.state().scenes.tile_map.settings().comparison_hidden);
    assert!(h.query_by_label("Put off").is_some());
}

/// Runs frames until the comparison on the worker thread is shown (6 s at most).
fn wait_for_comparison(h: &mut Harness<'_, NavlabApp>) {
    for _ in 0..600 {
        if h.state().scenes.tile_map.comparison.is_some() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
    panic!("no comparison within 6 s");
}

/// C is Compare all; Ctrl+C (a copy) is not.
#[test]
fn the_c_key_compares_all() {
    let mut h = harness(vec![]);
    h.state_mut().scenes.tile_map.settings.budget = 50_000;
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::C);
    h.run_steps(2);
    assert!(
        !h.state().scenes.tile_map.is_comparing() && h.state().scenes.tile_map.comparison.is_none()
    );
    h.key_press(egui::Key::C);
    h.run_steps(1);
    assert!(
        h.state().scenes.tile_map.is_comparing() || h.state().scenes.tile_map.comparison.is_some()
    );
    wait_for_comparison(&mut h);
    let rows = h
        .state()
        .scenes
        .tile_map
        .comparison
        .clone()
        .expect("compared");
    let names: Vec<&str> = rows.iter().map(|r| r.name).collect();
    // The built-in map has sand and water: JPS's pruning does not hold, JPS and JPS+ search as
    // A*.
    assert_eq!(
        names,
        [
            "BFS",
            "Dijkstra",
            "A*",
            "IDA*",
            "Fringe",
            "JPS (as A*)",
            "JPS+ (as A*)",
            "Bidirectional A*",
            "Theta*",
            "Best-first",
            "D* Lite"
        ]
    );
}

#[test]
fn an_edit_while_comparing_drops_the_outdated_result() {
    let mut h = harness(vec![]);
    // Start and edit with no frame between, so no frame can take the result first (a frame
    // may run more than one pass).
    h.state_mut().scenes.tile_map.compare_in_background();
    assert!(h.state().scenes.tile_map.is_comparing());
    assert!(h.state_mut().paint((5, 10), Tile::Wall));
    assert!(
        !h.state().scenes.tile_map.is_comparing(),
        "the edit drops the comparison"
    );
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
    assert!(!h.state().scenes.tile_map.is_comparing());
    assert!(
        h.state().scenes.tile_map.comparison.is_none(),
        "the comparison was for the map before the edit"
    );
}

#[test]
fn saving_writes_the_file_and_unsaved_edits_are_asked_about() {
    let dir = tempfile::tempdir().expect("temp");
    let saved = dir.path().join("edited.json");
    let other = dir.path().join("other.map");
    std::fs::write(&other, "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n").expect("write");
    let mut h = harness(vec![Some(saved.clone()), Some(other.clone())]);
    h.get_by_label("Sand").click();
    h.run_steps(1);
    click_cell(&mut h, (1, 1));
    h.state_mut().map.map.costs.sand = 4.5; // a custom cost the .json keeps
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert!(!h.state().map.dirty);
    let loaded = navlab::grid::movingai::load_any(&saved).expect("saved file loads");
    assert_eq!(loaded.get((1, 1)), Some(Tile::Sand));
    assert_eq!(loaded.costs.sand, 4.5);
    // Another edit, then Open: the question comes first; Cancel keeps everything.
    click_cell(&mut h, (2, 1));
    assert!(h.state().map.dirty);
    h.get_by_label("Open…").click();
    h.run_steps(2);
    h.get_by_label("Unsaved changes");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(h.state().pending.is_none());
    assert_eq!(h.state().map.map.get((2, 1)), Some(Tile::Sand));
    // Escape is Cancel.
    h.get_by_label("Open…").click();
    h.run_steps(2);
    h.get_by_label("Unsaved changes");
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.state().pending.is_none());
    assert!(h.query_by_label("Unsaved changes").is_none());
    assert!(h.state().map.dirty);
    // Open again and discard: the other map opens.
    h.get_by_label("Open…").click();
    h.run_steps(2);
    h.get_by_label("Discard changes").click();
    h.run_steps(3);
    assert_eq!(h.state().map.map.width(), 3);
    assert!(!h.state().map.dirty);
}

/// Replaces the text of the path prompt's field with `path` and presses Enter.
fn type_path(h: &mut Harness<'_, NavlabApp>, path: &std::path::Path) {
    common::replace_text(h, "Path", &path.display().to_string());
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
}

#[test]
fn without_a_file_dialog_typed_paths_open_and_save_and_nothing_is_lost() {
    let dir = tempfile::tempdir().expect("temp");
    let other = dir.path().join("other.map");
    std::fs::write(&other, "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n").expect("write");
    let mut h = harness_with(ScriptedDialogs {
        no_dialog: true,
        ..Default::default()
    });
    h.get_by_label("Sand").click();
    h.run_steps(1);
    click_cell(&mut h, (1, 1));
    assert!(h.state().map.dirty);

    // Open… with unsaved edits asks first; saving finds no dialog and asks for a path.
    h.get_by_label("Open…").click();
    h.run_steps(2);
    h.get_by_label("Unsaved changes");
    h.get_by_label("Save and continue").click();
    h.run_steps(2);
    h.get_by_label_contains("No file dialog appeared");
    let prompt = h.state().path_prompt.as_ref().expect("asks where to save");
    assert!(
        prompt.text.ends_with("map.json"),
        "suggests {}",
        prompt.text
    );
    type_path(&mut h, &dir.path().join("edited")); // no extension: .json added
    let saved = navlab::grid::movingai::load_any(&dir.path().join("edited.json"))
        .expect("the edits were saved");
    assert_eq!(saved.get((1, 1)), Some(Tile::Sand));
    assert!(!h.state().map.dirty);
    // Then the open goes on, and finds no dialog either.
    h.run_steps(2);
    assert!(h.state().pending.is_none());
    h.get_by_label_contains("No file dialog appeared");
    type_path(&mut h, &dir.path().join("missing.map"));
    h.get_by_label_contains("There is no file");
    assert!(
        h.state().path_prompt.is_some(),
        "kept open to mend the path"
    );
    type_path(&mut h, &other);
    assert!(h.state().path_prompt.is_none());
    assert_eq!(h.state().map.map.width(), 3);
    assert_eq!(h.state().map.file.as_deref(), Some(other.as_path()));

    // Save as over an existing file asks before replacing it.
    h.get_by_label("Save as…").click();
    h.run_steps(2);
    type_path(&mut h, &dir.path().join("edited.json"));
    h.get_by_label_contains("exists");
    assert_eq!(
        navlab::grid::movingai::load_any(&dir.path().join("edited.json"))
            .expect("still there")
            .width(),
        saved.width(),
        "not replaced yet"
    );
    h.get_by_label("Replace").click();
    h.run_steps(2);
    assert!(h.state().path_prompt.is_none());
    let replaced =
        navlab::grid::movingai::load_any(&dir.path().join("edited.json")).expect("replaced");
    assert_eq!(replaced.width(), 3);
}

#[test]
fn ctrl_l_opens_a_typed_path_in_the_scene_it_belongs_to_tab_completes_escape_cancels() {
    let dir = tempfile::tempdir().expect("temp");
    let map = dir.path().join("small.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 4\nmap\n....\n.@..\n").expect("write");
    let mut h = harness(vec![]);
    let width = h.state().map.map.width();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::L);
    h.run_steps(2);
    assert!(h.state().path_prompt.is_some());
    assert!(
        h.query_by_label_contains("No file dialog appeared")
            .is_none(),
        "asked for, not a fallback"
    );
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.state().path_prompt.is_none());
    assert_eq!(h.state().map.map.width(), width, "nothing opened");
    // A mesh path from the tile map opens in the navmesh view; a map path from there comes back.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::L);
    h.run_steps(2);
    type_path(&mut h, &common::repo_path("assets/hole.obj"));
    assert_eq!(h.state().settings.scene, SceneKind::Navmesh);
    assert!(
        h.state()
            .scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("hole.obj")
    );
    // Tab completes the name being typed ("sma" → "small.map"), then Enter opens it.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::L);
    h.run_steps(2);
    let partial = dir.path().join("sma");
    common::replace_text(&mut h, "Path", &partial.display().to_string());
    h.key_press(egui::Key::Tab);
    h.run_steps(2);
    let prompt = h.state().path_prompt.as_ref().expect("still open");
    assert_eq!(prompt.text, map.display().to_string());
    // The field kept the keyboard: typing goes on in it (Tab did not move to the buttons).
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Path")
        .type_text("x");
    h.run_steps(1);
    let prompt = h.state().path_prompt.as_ref().expect("still open");
    assert_eq!(prompt.text, format!("{}x", map.display()));
    h.key_press(egui::Key::Backspace);
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    assert_eq!(h.state().settings.scene, SceneKind::TileMap);
    assert_eq!(h.state().map.map.width(), 4);
}

#[test]
fn right_drag_pans_the_map_without_painting_or_moving_the_goal() {
    let mut h = harness(vec![]);
    let view = h.state().scenes.tile_map.last_view().expect("drawn");
    let goal = h.state().scenes.tile_map.goal;
    let tiles_before = h.state().map.map.clone();
    let from = view.rect.center();
    let to = from + egui::vec2(120.0, 40.0);
    common::drag_screen(
        &mut h,
        (from, to),
        egui::PointerButton::Secondary,
        6,
        |_| {},
    );
    let after = h.state().scenes.tile_map.last_view().expect("drawn");
    assert_ne!(after.camera.center, view.camera.center, "the view moved");
    assert_eq!(h.state().scenes.tile_map.goal, goal);
    assert_eq!(h.state().map.map, tiles_before);
}

#[test]
fn the_step_list_explains_grid_steps_and_jumps_on_click() {
    let mut h = harness(vec![]);
    let width = h.state().map.map.width();
    let text = h.state().scenes.tile_map.search.events[2]
        .explain(|i| format!("cell {},{}", i % width, i / width));
    h.get_by_label(&format!("3. {text}")).click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.tile_map.playback.cursor, 3);
}

#[test]
fn lab_options_survive_a_restart() {
    let mut h = harness(vec![]);
    h.get_by_label("Fringe").click();
    h.run_steps(1);
    h.get_by_label("4 directions").click();
    h.run_steps(2);
    h.get_by_label("Expansions only").click();
    h.run_steps(2);
    // What eframe would store, through serde, then a new app from it.
    let saved = serde_json::to_string(&h.state().settings).expect("serialises");
    let restored: AppSettings = serde_json::from_str(&saved).expect("deserialises");
    let app = NavlabApp::new(restored, Box::new(ScriptedDialogs::default()));
    assert_eq!(
        app.scenes.tile_map.settings.algorithm,
        AlgorithmKind::Fringe
    );
    assert_eq!(
        app.scenes.tile_map.settings.connectivity,
        navlab::grid::Connectivity::Four
    );
    assert!(app.scenes.tile_map.settings.expansions_only);
    assert_eq!(app.settings.scene, SceneKind::TileMap);
}

#[test]
fn the_last_map_reopens_at_start_and_recent_opens_maps_as_maps() {
    let dir = tempfile::tempdir().expect("temp");
    let map = dir.path().join("small.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 4\nmap\n....\n.@..\n").expect("write");
    let mut h = harness(vec![Some(map.clone())]);
    h.get_by_label("Open…").click();
    h.run_steps(2);
    assert_eq!(h.state().map.map.width(), 4);
    // What eframe would store, through serde, then a new app from it: the map is back.
    let saved = serde_json::to_string(&h.state().settings).expect("serialises");
    let restored: AppSettings = serde_json::from_str(&saved).expect("deserialises");
    let app = NavlabApp::new(restored.clone(), Box::new(ScriptedDialogs::default()));
    assert_eq!(app.map.map.width(), 4);
    assert_eq!(app.map.file.as_deref(), Some(map.as_path()));
    assert!(!app.map.dirty);
    // Gone since: the built-in map, and no error at start.
    std::fs::remove_file(&map).expect("removed");
    let app = NavlabApp::new(restored, Box::new(ScriptedDialogs::default()));
    assert!(app.banner.error.is_none());
    assert!(app.map.file.is_none());

    // File > Recent lists the map; from the navmesh view it opens as a map, in the map view.
    std::fs::write(
        &map,
        "type octile\nheight 3\nwidth 5\nmap\n.....\n.@...\n.....\n",
    )
    .expect("write");
    h.get_by_label("Navmesh").click();
    h.run_steps(2);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Recent").hover();
    h.run_steps(2);
    h.get_by_label(&map.display().to_string()).click();
    h.run_steps(3);
    assert!(
        h.state().banner.error.is_none(),
        "{:?}",
        h.state().banner.error
    );
    assert_eq!(h.state().settings.scene, SceneKind::TileMap);
    assert_eq!(h.state().map.map.width(), 5);

    // Gone again: the entry is greyed out; Clear the list empties it.
    std::fs::remove_file(&map).expect("removed");
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Recent").hover();
    h.run_steps(2);
    assert!(
        {
            use egui_kittest::kittest::NodeT;
            h.get_by_label(&map.display().to_string())
                .accesskit_node()
                .is_disabled()
        },
        "a missing file cannot be clicked"
    );
    h.get_by_label("Clear the list").click();
    h.run_steps(2);
    assert!(h.state().settings.recent.is_empty());
}

#[test]
fn f5_reloads_the_map_from_its_file_after_asking_about_edits() {
    let dir = tempfile::tempdir().expect("temp");
    let map = dir.path().join("small.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 4\nmap\n....\n.@..\n").expect("write");
    let mut h = harness(vec![Some(map.clone())]);
    h.get_by_label("Open…").click();
    h.run_steps(2);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    click_cell(&mut h, (2, 0));
    assert_eq!(h.state().map.map.get((2, 0)), Some(Tile::Wall));
    // Changed on disk meanwhile (another tool wrote it).
    std::fs::write(&map, "type octile\nheight 2\nwidth 4\nmap\n...@\n.@..\n").expect("write");
    h.key_press(egui::Key::F5);
    h.run_steps(2);
    h.get_by_label("Unsaved changes");
    h.get_by_label("Discard changes").click();
    h.run_steps(3);
    assert_eq!(h.state().map.map.get((2, 0)), Some(Tile::Grass));
    assert_eq!(
        h.state().map.map.get((3, 0)),
        Some(Tile::Wall),
        "as on disk now"
    );
    assert!(!h.state().map.dirty);
}

#[test]
fn the_new_map_window_creates_on_enter_and_closes_on_escape() {
    let mut h = harness(vec![]);
    let size = (h.state().map.map.width(), h.state().map.map.height());
    h.get_by_label("Wall").click();
    h.run_steps(1);
    click_cell(&mut h, (3, 3));
    h.get_by_label("New…").click();
    h.run_steps(2);
    h.get_by_label("New map");
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.query_by_label("New map").is_none());
    assert_eq!(h.state().map.map.get((3, 3)), Some(Tile::Wall));
    h.get_by_label("New…").click();
    h.run_steps(2);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    // The painted wall is unsaved: asked first.
    h.get_by_label("Discard changes").click();
    h.run_steps(3);
    let map = &h.state().map.map;
    assert_eq!((map.width(), map.height()), size);
    assert_eq!(map.passable_count(), size.0 * size.1, "all grass");
}

/// Ctrl+S saves to the map's own file without asking; Ctrl+Shift+S asks for a new name (not
/// taken for Ctrl+S) and the map is in that file from then on; Ctrl+N is New….
#[test]
fn ctrl_s_saves_ctrl_shift_s_saves_as_and_ctrl_n_is_new() {
    let dir = tempfile::tempdir().expect("temp");
    let map = dir.path().join("small.map");
    let copy = dir.path().join("copy.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 4\nmap\n....\n....\n").expect("write");
    let mut h = harness(vec![Some(map.clone()), Some(copy.clone())]);
    h.get_by_label("Open…").click();
    h.run_steps(2);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    click_cell(&mut h, (2, 1));
    assert!(h.state().map.dirty);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(2);
    let on_disk = |path: &PathBuf| navlab::grid::movingai::load_any(path).expect("a map");
    assert_eq!(on_disk(&map).get((2, 1)), Some(Tile::Wall));
    assert!(!h.state().map.dirty);
    assert!(!copy.exists(), "Ctrl+S asked nothing");

    click_cell(&mut h, (1, 0));
    assert!(h.state().map.dirty);
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::S,
    );
    h.run_steps(2);
    assert_eq!(on_disk(&copy).get((1, 0)), Some(Tile::Wall));
    assert_eq!(
        on_disk(&map).get((1, 0)),
        Some(Tile::Grass),
        "not saved over"
    );
    assert_eq!(h.state().map.file.as_deref(), Some(copy.as_path()));
    assert!(!h.state().map.dirty);

    assert!(h.query_by_label("New map").is_none());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    h.run_steps(2);
    h.get_by_label("New map");
}

#[test]
fn save_does_not_quietly_drop_edited_costs_into_a_movingai_map() {
    let dir = tempfile::tempdir().expect("temp");
    let map = dir.path().join("small.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 4\nmap\n.S..\n.@..\n").expect("write");
    let json = dir.path().join("small.json");
    let chosen_map = dir.path().join("plain.map");
    let mut h = harness(vec![
        Some(map.clone()),
        Some(json.clone()),
        Some(chosen_map.clone()),
    ]);
    h.get_by_label("Open…").click();
    h.run_steps(2);
    h.state_mut().map.map.costs.sand = 4.5;
    h.state_mut().map.dirty = true;
    // Ctrl+S on the .map asks where (the next answer, a .json) instead of writing the .map.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(2);
    assert_eq!(
        std::fs::read_to_string(&map).expect("still there"),
        "type octile\nheight 2\nwidth 4\nmap\n.S..\n.@..\n",
        "the .map was not rewritten"
    );
    let saved = navlab::grid::movingai::load_any(&json).expect("saved as .json");
    assert_eq!(saved.costs.sand, 4.5);
    assert_eq!(h.state().map.file.as_deref(), Some(json.as_path()));
    assert!(!h.state().map.dirty);
    // Chosen on purpose, a .map is written, and the notice says the costs are not in it.
    h.get_by_label("Save as…").click();
    h.run_steps(2);
    assert!(chosen_map.is_file());
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(notice.contains("tile costs are not in it"), "{notice}");
}

#[test]
fn a_failed_save_says_so_and_keeps_the_edits() {
    let mut h = harness(vec![Some(PathBuf::from("/nonexistent-dir/edited.map"))]);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    click_cell(&mut h, (5, 10));
    assert!(h.state().map.dirty);
    h.get_by_label("Save as…").click();
    h.run_steps(3);
    h.get_by_label_contains("Could not save");
    h.get_by_label_contains("nothing is lost");
    assert!(h.state().map.dirty, "the edits are still unsaved");
    assert_eq!(h.state().map.map.get((5, 10)), Some(Tile::Wall));
}

#[test]
fn build_navmesh_opens_the_map_as_a_mesh_from_its_start_to_its_goal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let saved = dir.path().join("built.obj");
    let polyanya = dir.path().join("built.mesh");
    let mut h = harness(vec![Some(saved.clone()), Some(polyanya.clone())]);
    // A wall across the middle of the map, with the way round at its ends.
    h.get_by_label("Wall").click();
    h.run_steps(1);
    for x in 4..12 {
        click_cell(&mut h, (x, 10));
    }
    let map = h.state().map.map.clone();
    let (start, goal) = (
        h.state().scenes.tile_map.start,
        h.state().scenes.tile_map.goal,
    );

    // Ctrl+B, or the button. It builds on a worker thread: the window keeps drawing meanwhile.
    h.get_by_label("Build navmesh");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::B);
    h.run_steps(1);
    wait_for_mesh_build(&mut h);
    let app = h.state();
    assert_eq!(app.settings.scene, SceneKind::Navmesh);
    assert!(
        app.scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("as a navmesh")
    );
    let summary = app.scenes.navmesh.mesh().summary();
    assert!((summary.area - map.passable_count() as f64).abs() < 1e-9 * summary.area);
    // No triangle covers a blocked tile.
    for t in 0..app.scenes.navmesh.mesh().triangles().len() {
        let [a, b, c] = app.scenes.navmesh.mesh().corners(t);
        let centroid = (a + b + c) * (1.0 / 3.0);
        let tile = (centroid.x.floor() as usize, centroid.y.floor() as usize);
        assert!(map.is_passable(tile), "triangle {t} on {tile:?}");
    }
    let centre = |(x, y): (usize, usize)| Vec2::new(x as f64 + 0.5, y as f64 + 0.5);
    assert_eq!(
        (
            app.scenes.navmesh.query.start,
            app.scenes.navmesh.query.goal
        ),
        (centre(start), centre(goal))
    );
    let path = app
        .scenes
        .navmesh
        .query
        .timeline
        .path
        .clone()
        .expect("a path");
    assert_ne!(path.status, navlab::navmesh::PathStatus::Unreachable);
    assert!(path.length >= centre(start).distance(centre(goal)) - 1e-9);

    // Opening a mesh while a build runs drops the build: the opened mesh stays. (Started and
    // dropped between frames, so no frame can take the result first.)
    h.state_mut().start_mesh_build();
    assert!(h.state().is_building_mesh());
    h.state_mut().command(navlab::app::Command::LoadEmbedded(0));
    assert!(!h.state().is_building_mesh());
    std::thread::sleep(std::time::Duration::from_millis(100));
    h.run_steps(3);
    assert!(
        h.state()
            .scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("built in")
    );
    h.state_mut()
        .command(navlab::app::Command::BuildMeshFromMap);
    for _ in 0..600 {
        h.run_steps(1);
        if !h.state().is_building_mesh() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(
        h.state()
            .scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("as a navmesh")
    );

    // File > Save mesh as… writes it as OBJ.
    h.get_by_label("File").click();
    h.run_steps(3);
    h.get_by_label("Save mesh as…").click();
    h.run_steps(2);
    let written = navlab::navmesh::NavMesh::load(&saved, navlab::navmesh::Plane::Xz)
        .expect("the saved mesh loads");
    assert_eq!(
        written.triangles().len(),
        h.state().scenes.navmesh.mesh().triangles().len()
    );
    // … and, given a .mesh name, as a Polyanya mesh.
    h.get_by_label("File").click();
    h.run_steps(3);
    h.get_by_label("Save mesh as…").click();
    h.run_steps(2);
    h.get_by_label_contains("as a Polyanya mesh: convex polygons");
    let written = navlab::navmesh::NavMesh::load(&polyanya, navlab::navmesh::Plane::Xz)
        .expect("the Polyanya mesh loads");
    let (ours, back) = (h.state().scenes.navmesh.mesh().summary(), written.summary());
    assert_eq!(
        (back.triangles, back.islands),
        (ours.triangles, ours.islands)
    );
    assert!((back.area - ours.area).abs() < 1e-9 * ours.area);
}

#[test]
fn the_agent_radius_slider_shrinks_the_built_navmesh_away_from_the_walls() {
    let mut h = harness(vec![]);
    // The slider moves in eighths of a tile with the arrow keys.
    // (A slider holds the arrows from its second frame with focus, as egui's focus lock says.)
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Agent radius")
        .focus();
    h.run_steps(2);
    let step = h.state().scenes.tile_map.playback.cursor;
    assert!(!h.state().scenes.tile_map.playback.playing);
    for _ in 0..4 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(1);
    }
    assert_eq!(h.state().scenes.tile_map.settings.agent_radius, 0.5);
    // The arrows went to the slider only, not to the playback too.
    assert_eq!(h.state().scenes.tile_map.playback.cursor, step);
    h.key_press(egui::Key::Escape);
    h.run_steps(1);
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(1);
    assert_eq!(
        h.state().scenes.tile_map.playback.cursor,
        step + 1,
        "Esc gives the keys back"
    );
    assert_eq!(h.state().scenes.tile_map.settings.agent_radius, 0.5);
    let map = h.state().map.map.clone();
    h.get_by_label("Build navmesh").click();
    h.run_steps(1);
    wait_for_mesh_build(&mut h);
    let app = h.state();
    assert_eq!(app.settings.scene, SceneKind::Navmesh);
    assert!(
        app.scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("(agent radius 0.5)"),
        "{}",
        app.scenes.navmesh.origin.source.name()
    );
    let mesh = &app.scenes.navmesh.mesh();
    assert!(mesh.summary().area < map.passable_count() as f64 - 1.0);
    // No corner of the mesh is closer than half a tile to a blocked tile or the edge.
    let (w, h_) = (map.width() as f64, map.height() as f64);
    for v in mesh.vertices() {
        assert!(
            v.x >= 0.5 && v.y >= 0.5 && v.x <= w - 0.5 && v.y <= h_ - 0.5,
            "{v:?}"
        );
        for i in 0..map.cell_count() {
            let (x, y) = map.cell(i);
            if !map.is_passable((x, y)) {
                let (x, y) = (x as f64, y as f64);
                let inside = x - 0.5 < v.x && v.x < x + 1.5 && y - 0.5 < v.y && v.y < y + 1.5;
                assert!(!inside, "{v:?} within half a tile of wall ({x}, {y})");
            }
        }
    }
    // Start and goal were moved onto the mesh, and the path joins them.
    assert!(mesh.triangle_at(app.scenes.navmesh.query.start).is_some());
    assert!(mesh.triangle_at(app.scenes.navmesh.query.goal).is_some());
    let path = app
        .scenes
        .navmesh
        .query
        .timeline
        .path
        .clone()
        .expect("a path");
    assert_ne!(path.status, navlab::navmesh::PathStatus::Unreachable);
}

#[test]
fn a_tiled_map_opens_with_its_collision_layer_as_walls_and_saves_under_a_new_name() {
    let Some(tmx) = common::testdata("tiled/orthogonal-simple.tmx") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp");
    let saved = dir.path().join("imported.json");
    let before = std::fs::read(&tmx).expect("tmx");
    let mut h = harness(vec![Some(tmx.clone()), Some(saved.clone())]);
    h.get_by_label("Open…").click();
    h.run_steps(3);
    let app = h.state();
    assert_eq!(app.banner.error, None);
    assert_eq!(
        app.notice.as_deref(),
        Some("Imported from Tiled: walls from layer PlayerLayer; Save writes .map or .json")
    );
    assert_eq!(app.map.map.width(), 10);
    assert_eq!(app.map.map.passable_count(), 100 - 33);
    // Ctrl+S does not write Tiled XML over the Tiled file: it asks for a new name.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(2);
    assert_eq!(std::fs::read(&tmx).expect("tmx"), before);
    let written = navlab::grid::movingai::load_any(&saved).expect("saved as navlab JSON");
    assert_eq!(written, h.state().map.map);
    assert_eq!(h.state().map.file.as_deref(), Some(saved.as_path()));
}

#[test]
fn the_window_title_names_the_document_and_marks_unsaved_edits() {
    let mut h = harness(vec![]);
    assert_eq!(h.state().window_title(), "untitled map — navlab");
    h.get_by_label("Wall").click();
    h.run_steps(1);
    click_cell(&mut h, (3, 3));
    assert_eq!(h.state().window_title(), "untitled map* — navlab");
    // The window is told in the frame the title changes.
    h.state_mut().map.dirty = false;
    h.step();
    let sent = h
        .output()
        .viewport_output
        .values()
        .flat_map(|v| v.commands.iter())
        .any(|c| matches!(c, egui::ViewportCommand::Title(t) if t == "untitled map — navlab"));
    assert!(sent, "the title was sent");
    h.get_by_label("Navmesh").click();
    h.run_steps(2);
    assert!(h.state().window_title().starts_with("rooms.obj"));
}

/// The recovery files in `dir` (one per window that kept edits).
fn kept_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// A stroke is in the recovery file within a second of being painted, with no save asked for:
/// a crash (here, the window dropped without a word) two seconds after it loses nothing.
#[test]
fn a_stroke_reaches_the_recovery_file_within_a_second() {
    use navlab::app::recovery::Recovery;
    let dir = tempfile::tempdir().expect("temp");
    let app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()))
        .with_recovery(Recovery::in_dir(dir.path()).expect("recovery"));
    // Frames a tenth of a second apart.
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_step_dt(0.1)
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
    h.run_steps(2);
    h.get_by_label("Tile map").click();
    h.run_steps(2);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    click_cell(&mut h, (3, 3));
    assert!(h.state().map.dirty);
    // A second of frames, then the worker's write.
    h.run_steps(10);
    h.state().wait_until_edits_kept();
    let [kept] = kept_files(dir.path()).try_into().expect("one file kept");
    let stored: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&kept).expect("reads")).expect("json");
    let map = navlab::grid::movingai::parse_navlab_json(
        stored["map"].as_str().expect("a map").as_bytes(),
        "kept",
    )
    .expect("reads back");
    assert_eq!(map, h.state().map.map, "the stroke is in it");
    assert_eq!(map.get((3, 3)), Some(Tile::Wall));
    // The window ends without saving or discarding; the next start offers the edits.
    drop(h);
    let next = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()))
        .with_recovery(Recovery::in_dir(dir.path()).expect("recovery"));
    assert_eq!(next.recovered.len(), 1);
    assert_eq!(next.recovered[0].recovered.map, Some(map));
}

#[test]
fn edits_left_unsaved_by_a_crash_are_offered_back_at_the_next_start() {
    use navlab::app::recovery::Recovery;
    let dir = tempfile::tempdir().expect("temp");
    let start = |dialogs: ScriptedDialogs| {
        let app = NavlabApp::new(AppSettings::default(), Box::new(dialogs))
            .with_recovery(Recovery::in_dir(dir.path()).expect("recovery"));
        let mut h = Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
        h.run_steps(2);
        h
    };
    // A session paints a wall; the periodic save keeps the edit; then the process dies.
    let mut h = start(ScriptedDialogs::default());
    h.get_by_label("Tile map").click();
    h.run_steps(2);
    h.get_by_label("Wall").click();
    h.run_steps(1);
    click_cell(&mut h, (3, 3));
    h.state_mut().keep_unsaved_edits();
    h.state().wait_until_edits_kept();
    assert_eq!(kept_files(dir.path()).len(), 1, "kept");
    let edited = h.state().map.map.clone();
    drop(h);

    // The next start offers it; opening it gives the edited map, still unsaved.
    let mut h = start(ScriptedDialogs::default());
    h.get_by_label("Unsaved edits from the last session");
    // New edits meanwhile are kept in the new window's own file, and asked about before the
    // offer opens (the offer steps aside for the question).
    h.state_mut().map.map.set((1, 1), Tile::Sand);
    h.state_mut().map.dirty = true;
    h.state_mut().keep_unsaved_edits();
    h.state().wait_until_edits_kept();
    assert_eq!(kept_files(dir.path()).len(), 2, "both kept");
    h.get_by_label("Open them").click();
    // The question is asked after the frame of the click, and a new window shows from its
    // second frame.
    h.run_steps(3);
    h.get_by_label("Unsaved changes");
    assert!(
        h.query_by_label("Unsaved edits from the last session")
            .is_none()
    );
    h.get_by_label("Discard changes").click();
    h.run_steps(3);
    h.state().wait_until_edits_kept();
    assert_eq!(h.state().map.map, edited);
    assert!(h.state().map.dirty);
    assert_eq!(h.state().settings.scene, SceneKind::TileMap);
    assert!(h.state().window_title().contains('*'));
    // The opened edits are this window's to keep now: one file, holding them.
    let [own] = kept_files(dir.path()).try_into().expect("one file");
    let stored: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&own).expect("reads")).expect("json");
    let map_json = stored["map"].as_str().expect("the map, as navlab json");
    let kept =
        navlab::grid::movingai::parse_navlab_json(map_json.as_bytes(), "kept").expect("reads back");
    assert_eq!(kept, edited);
    // Saved: the kept copy goes.
    let saved = dir.path().join("saved.json");
    h.state_mut().save_map_to(saved.clone());
    h.state_mut().keep_unsaved_edits();
    h.state().wait_until_edits_kept();
    assert!(!own.exists(), "nothing left to recover once saved");
    drop(h);
    std::fs::remove_file(saved).expect("removed");

    // Two windows at once: the second's edits are kept while the first, with nothing to keep,
    // goes on keeping (it used to remove the one shared file); a third window started
    // meanwhile offers nothing; once the second dies, the next start offers its edits.
    let mut first = start(ScriptedDialogs::default());
    let mut second = start(ScriptedDialogs::default());
    second.state_mut().map.map.set((1, 1), Tile::Water);
    second.state_mut().map.dirty = true;
    second.state_mut().keep_unsaved_edits();
    second.state().wait_until_edits_kept();
    first.state_mut().keep_unsaved_edits();
    first.state().wait_until_edits_kept();
    assert_eq!(kept_files(dir.path()).len(), 1);
    let third = start(ScriptedDialogs::default());
    assert!(
        third.state().recovered.is_empty(),
        "the second window is open"
    );
    drop(second);
    let mut h = start(ScriptedDialogs::default());
    assert_eq!(h.state().recovered.len(), 1);
    // Discarding an offer removes it.
    h.get_by_label("Discard them").click();
    h.run_steps(2);
    assert!(h.state().recovered.is_empty());
    assert!(kept_files(dir.path()).is_empty());
    drop((first, third));
}

/// Copy path copies what `navlab grid --json` prints for the same map, start, goal and
/// algorithm: the command line is the oracle.
#[test]
fn copy_path_copies_what_the_grid_command_prints() {
    let mut h = harness(vec![]);
    let copied = common::click_and_copied(&mut h, "Copy path");
    let [text] = copied.as_slice() else {
        panic!("one copy: {copied:?}")
    };
    let copied: serde_json::Value = serde_json::from_str(text).expect("json");
    let app = h.state();
    let grid = &app.scenes.tile_map;
    assert_eq!(
        grid.settings.algorithm,
        AlgorithmKind::AStar,
        "the default the command shares"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let map = dir.path().join("built-in.map");
    std::fs::write(&map, navlab::grid::movingai::to_map_text(&app.map.map)).expect("write");
    let cell = |(x, y): (usize, usize)| format!("{x},{y}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_navlab"))
        .arg("grid")
        .arg(&map)
        .args([
            "--from",
            &cell(grid.start),
            "--to",
            &cell(grid.goal),
            "--json",
        ])
        .output()
        .expect("runs");
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(copied, printed);
    assert_eq!(copied["status"], "found");
    let path = copied["path"].as_array().expect("path");
    assert_eq!(
        path.first(),
        Some(&serde_json::json!([grid.start.0, grid.start.1]))
    );
    assert_eq!(
        path.last(),
        Some(&serde_json::json!([grid.goal.0, grid.goal.1]))
    );
}

/// The open list beside the steps names, at every step, the cell the search expands next (the
/// trace is the oracle); IDA* and Fringe Search say why they have none.
#[test]
fn the_open_list_shows_the_cell_expanded_next() {
    use navlab::search::SearchEvent;
    let mut h = harness(vec![]);
    let mut checked = 0;
    for _ in 0..40 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(1);
        let app = h.state();
        let grid = &app.scenes.tile_map;
        let next_event = grid.search.events.get(grid.playback.cursor).copied();
        if let Some(SearchEvent::Expanded { node, .. }) = next_event {
            let cell = app.map.map.cell(node);
            assert_eq!(grid.next_to_expand(), Some(cell));
            // The first row of the table names it.
            let name = format!("{},{}", cell.0, cell.1);
            h.get_by_label(&name);
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked}");
    h.get_by_label("next");
    h.get_by_label("IDA*").click();
    h.run_steps(3);
    // IDA*: its path instead, the deepest node first; the recorded steps replayed are the
    // oracle (the replay itself is checked against IDA*'s moves in core/tests/grid.rs). IDA*
    // searches on the worker (its budget is counted as work).
    wait_for_search(&mut h);
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(1);
    h.get_by_label_contains("IDA* keeps no open list");
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    let mut backtracks = 0;
    for _ in 0..150 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(1);
        let app = h.state();
        let grid = &app.scenes.tile_map;
        let mut path = navlab::search::IdaPath::new();
        for event in &grid.search.events[..grid.playback.cursor] {
            path.apply(event);
        }
        if matches!(
            grid.search.events.get(grid.playback.cursor.wrapping_sub(1)),
            Some(SearchEvent::Backtracked { .. })
        ) {
            backtracks += 1;
        }
        let depth = path.nodes().len().saturating_sub(1);
        h.get_by_label(&format!("IDA* path: depth {depth}"));
        if let Some(last) = path.nodes().last() {
            let cell = app.map.map.cell(last.node);
            let row = labels_from(&h, "deepest", 2);
            assert_eq!(row.get(1), Some(&format!("{},{}", cell.0, cell.1)));
        }
    }
    assert!(
        backtracks > 0,
        "IDA* backs up within 150 steps on the built-in map"
    );

    // Fringe Search: its now list in visiting order, each to be expanded or put off; the
    // recorded steps are the oracle.
    h.get_by_label("Fringe").click();
    h.run_steps(3);
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    let (mut expanded, mut put_off) = (0, 0);
    for _ in 0..200 {
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(1);
        let app = h.state();
        let grid = &app.scenes.tile_map;
        let (node, deferred) = match grid.search.events.get(grid.playback.cursor).copied() {
            Some(SearchEvent::Expanded { node, .. }) => (node, false),
            Some(SearchEvent::Deferred { node, .. }) => (node, true),
            _ => continue,
        };
        let cell = app.map.map.cell(node);
        assert_eq!(grid.next_to_expand(), Some(cell));
        // The first row: "next", the cell, g, h, f, and what the visit does.
        let first_row = labels_from(&h, "next", 6);
        assert_eq!(first_row.get(1), Some(&format!("{},{}", cell.0, cell.1)));
        let action = if deferred { "put off" } else { "expand" };
        assert_eq!(first_row.get(5).map(String::as_str), Some(action));
        if deferred {
            put_off += 1;
        } else {
            expanded += 1;
        }
    }
    assert!(expanded >= 10 && put_off >= 1, "{expanded} {put_off}");
    h.get_by_label_contains("Threshold");
    h.key_press(egui::Key::End);
    h.get_by_label("A*").click();
    h.run_steps(3);
    h.key_press(egui::Key::End);
    h.run_steps(2);
    h.get_by_label_contains("The search has ended;");
    assert_eq!(h.state().scenes.tile_map.next_to_expand(), None);
}

/// The window on the built-in map with `algorithm` chosen and its search shown.
fn searched_with(algorithm: &str) -> Harness<'static, NavlabApp> {
    let mut h = harness(vec![]);
    h.get_by_label(algorithm).click();
    h.run_steps(3);
    wait_for_search(&mut h);
    h
}

/// Runs frames until the search on the worker thread is answered and shown (a minute at most).
fn wait_for_search(h: &mut Harness<'_, NavlabApp>) {
    for _ in 0..6000 {
        if !h.state().scenes.tile_map.is_searching() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        h.run_steps(1);
    }
    panic!("the search did not end within a minute");
}

/// The lab's search with `kind` run directly on its map, start and goal, every step traced.
fn traced_search(app: &NavlabApp, kind: AlgorithmKind) -> (GridPath, Vec<SearchEvent>) {
    let grid = &app.scenes.tile_map;
    let mut trace = Vec::new();
    let path = grid_search(
        &app.map.map,
        grid.start,
        grid.goal,
        grid.grid_algorithm(kind),
        grid.settings.connectivity,
        &mut trace,
    );
    (path, trace)
}

/// A large map is searched on the worker thread: the window never shows the last map's search
/// over it, edits made meanwhile win (the answer is for the map as it is now), and a move of the
/// start that asks for the end of the replay gets the end of the new search.
#[test]
fn a_large_map_is_searched_in_the_background_and_the_newest_answer_wins() {
    use navlab::app::tile_map_scene::jobs::MAX_RECORDED_STEPS;
    use navlab::grid::TileMap;
    let mut h = harness(vec![]);
    let side = 800; // 640 000 tiles: over the size searched on the UI thread
    let mut map = TileMap::new(side, side).expect("map");
    for y in 0..side - 10 {
        map.set((side / 2, y), Tile::Wall);
    }
    h.state_mut().replace_map(map, None);
    let app = h.state();
    let grid = &app.scenes.tile_map;
    assert!(grid.is_searching());
    assert!(
        grid.search.result.is_none() && grid.search.events.is_empty(),
        "no answer of the old map"
    );
    // Close the gap at the bottom and open one at the top before the answer arrives.
    for y in side - 10..side {
        h.state_mut().paint((side / 2, y), Tile::Wall);
    }
    h.state_mut().paint((side / 2, 3), Tile::Grass);
    assert!(h.state().scenes.tile_map.is_searching());
    wait_for_search(&mut h);

    let answered = |h: &Harness<'_, NavlabApp>| {
        let app = h.state();
        let grid = &app.scenes.tile_map;
        let (direct, trace) = traced_search(app, grid.settings.algorithm);
        assert_eq!(
            grid.search.result.as_ref(),
            Some(&direct),
            "the answer is for the map as it is"
        );
        // The steps as recorded for the animation: the first million, and the end.
        let recorded = grid.search.events.len();
        assert!(recorded <= MAX_RECORDED_STEPS + 1);
        assert!(
            grid.search.events[..recorded - 1] == trace[..recorded - 1],
            "the same steps"
        );
        assert_eq!(grid.search.events.last(), trace.last());
        direct
    };
    let path = answered(&h).path;
    assert!(path.contains(&(side / 2, 3)), "through the only gap");

    // Moving the start asks for the end of the new search (as a drag of S does).
    let app = h.state_mut();
    let grid = &mut app.scenes.tile_map;
    grid.start = (side - 1, 0);
    grid.playback.cursor = usize::MAX;
    grid.rerun(&app.map);
    assert!(grid.is_searching());
    wait_for_search(&mut h);
    let direct = answered(&h);
    assert!(!direct.path.contains(&(side / 2, 3)), "no need to cross");
    let app = h.state();
    let grid = &app.scenes.tile_map;
    assert_eq!(grid.playback.cursor, grid.search.events.len());
    h.get_by_label("Copy path");
}

/// A map written again by another tool is loaded again when it has no unsaved edits (start and
/// goal kept while passable); with edits the status bar says so and nothing is replaced; the
/// window's own save is no change (its undo history stays).
#[test]
fn a_map_file_written_again_is_loaded_again_unless_edited() {
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join("level.map");
    let map_text = |wall: (usize, usize)| {
        let mut rows = vec![vec!['.'; 12]; 8];
        rows[wall.1][wall.0] = '@';
        let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
        format!(
            "type octile\nheight 8\nwidth 12\nmap\n{}\n",
            rows.join("\n")
        )
    };
    common::export(&path, &map_text((5, 5)), 0);
    let mut h = harness(vec![]);
    h.state_mut()
        .command(navlab::app::Command::LoadMap(path.clone()));
    h.run_steps(2);
    assert_eq!(h.state().map.map.get((5, 5)), Some(Tile::Wall));
    {
        let app = h.state_mut();
        let grid = &mut app.scenes.tile_map;
        grid.goal = (9, 2);
        grid.rerun(&app.map);
    }
    common::export(&path, &map_text((6, 1)), 10);
    h.run_steps(6);
    let app = h.state();
    let grid = &app.scenes.tile_map;
    assert_eq!(app.map.map.get((5, 5)), Some(Tile::Grass));
    assert_eq!(app.map.map.get((6, 1)), Some(Tile::Wall));
    assert_eq!(grid.goal, (9, 2), "kept");
    assert_eq!(
        grid.search.result.as_ref().and_then(|r| r.path.last()),
        Some(&(9, 2))
    );
    assert!(
        h.state()
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("level.map changed on disk: reloaded"))
    );

    // Unsaved edits are never replaced.
    assert!(h.state_mut().paint((0, 7), Tile::Water));
    common::export(&path, &map_text((7, 7)), 20);
    h.run_steps(6);
    let app = h.state();
    assert_eq!(app.map.map.get((0, 7)), Some(Tile::Water));
    assert_eq!(app.map.map.get((7, 7)), Some(Tile::Grass));
    assert!(app.map.dirty);
    assert!(
        h.state()
            .notice
            .as_deref()
            .is_some_and(|n| n.contains("changed on disk; Reload map (F5)"))
    );

    // Saved over by the window itself: no reload (which would forget the undo history).
    assert!(h.state_mut().save_map_to(path.clone()));
    h.run_steps(6);
    assert!(h.state().map.can_undo());
    assert_eq!(h.state().map.map.get((0, 7)), Some(Tile::Water));
}

/// What `navlab open` is given applies to the window: a map with start and goal cells and a
/// search (as a teacher scripting slides would), a mesh with its cost model; cells that are not
/// passable are refused with a warning that names them.
#[test]
fn launch_options_set_the_map_search_and_mesh_cost() {
    use navlab::app::LaunchReport;
    use navlab::cli::args::{AlgoArg, CostArg, HeuristicArg};
    use navlab::cli::{OpenArgs, OpenSearchArgs};
    use navlab::grid::{Connectivity, Heuristic};
    let arena = match common::testdata("movingai/arena.map") {
        Some(path) => path,
        None => return,
    };
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    let launch = OpenArgs {
        file: Some(arena.clone()),
        from: Some(Vec2::new(3.0, 4.0)),
        to: Some(Vec2::new(40.0, 44.0)),
        search: OpenSearchArgs {
            algo: Some(AlgoArg::Fringe),
            heuristic: Some(HeuristicArg::Manhattan),
            connectivity: Some(4),
            ..Default::default()
        },
        ..Default::default()
    };
    let report = app.apply_launch(&launch.launch());
    assert_eq!(report, LaunchReport::default());
    assert_eq!(app.settings.scene, SceneKind::TileMap);
    let grid = &app.scenes.tile_map;
    assert_eq!((grid.start, grid.goal), ((3, 4), (40, 44)));
    assert_eq!(grid.settings.algorithm, AlgorithmKind::Fringe);
    assert_eq!(
        (grid.settings.heuristic, grid.settings.connectivity),
        (Heuristic::Manhattan, Connectivity::Four)
    );
    let mut trace = Vec::new();
    let direct = grid_search(
        &app.map.map,
        (3, 4),
        (40, 44),
        grid.grid_algorithm(AlgorithmKind::Fringe),
        Connectivity::Four,
        &mut trace,
    );
    assert_eq!(
        grid.search.result.as_ref(),
        Some(&direct),
        "the search shown is of those options"
    );
    assert_eq!(grid.search.events, trace);

    // A wall, a cell off the map and half a cell are refused; the rest applies.
    let wall = (0..app.map.map.cell_count())
        .map(|i| app.map.map.cell(i))
        .find(|&c| !app.map.map.is_passable(c))
        .expect("arena has walls");
    for bad in [
        Vec2::new(wall.0 as f64, wall.1 as f64),
        Vec2::new(49.0, 3.0),
        Vec2::new(3.5, 4.0),
    ] {
        let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
        let LaunchReport {
            warnings,
            open_failed,
        } = app.apply_launch(
            &OpenArgs {
                file: Some(arena.clone()),
                from: Some(bad),
                to: Some(Vec2::new(40.0, 44.0)),
                ..Default::default()
            }
            .launch(),
        );
        assert_eq!(open_failed, None);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("--from") && warnings[0].contains("49 × 49"),
            "{}",
            warnings[0]
        );
        assert_ne!(app.scenes.tile_map.start, (bad.x as usize, bad.y as usize));
        assert_eq!(app.scenes.tile_map.goal, (40, 44));
    }

    // A mesh with the edge-midpoint cost model, start and goal as points.
    let maze = common::repo_path("assets/maze.obj");
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    let report = app.apply_launch(
        &OpenArgs {
            file: Some(maze),
            from: Some(Vec2::new(0.5, 0.5)),
            to: Some(Vec2::new(8.5, 8.5)),
            search: OpenSearchArgs {
                cost: Some(CostArg::Midpoint),
                ..Default::default()
            },
            ..Default::default()
        }
        .launch(),
    );
    assert_eq!(report, LaunchReport::default());
    assert_eq!(app.settings.scene, SceneKind::Navmesh);
    assert_eq!(
        app.scenes.navmesh.settings.cost,
        navlab::navmesh::CostModel::Midpoint
    );
    assert_eq!(app.scenes.navmesh.query.start, Vec2::new(0.5, 0.5));
    let path = app
        .scenes
        .navmesh
        .query
        .timeline
        .path
        .as_ref()
        .expect("a path");
    let options = navlab::navmesh::QueryOptions {
        cost: navlab::navmesh::CostModel::Midpoint,
        heuristic_weight: app.scenes.navmesh.settings.heuristic_weight,
        ..navlab::navmesh::QueryOptions::default()
    };
    let direct = navlab::navmesh::find_path(
        app.scenes.navmesh.mesh(),
        Vec2::new(0.5, 0.5),
        Vec2::new(8.5, 8.5),
        options,
        &mut navlab::search::NoObserver,
        &mut navlab::search::NoObserver,
    )
    .expect("a path");
    assert_eq!(path.length, direct.length);
}

/// Runs frames until the Partitions window's comparison has arrived (10 s at most).
fn wait_for_partitions(h: &mut Harness<'_, NavlabApp>) {
    for _ in 0..1000 {
        h.run_steps(1);
        let view = &h.state().scenes.tile_map.partitions;
        let current = view.comparison.as_ref().is_some_and(|c| {
            let app = h.state();
            let grid = &app.scenes.tile_map;
            (c.from, c.to) == (grid.start, grid.goal)
        });
        let app = h.state_mut();
        if current && !app.scenes.tile_map.poll_partitions(&app.map) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run_steps(2);
}

/// The texts of `n` labels in the window, in order, from the first that reads `first`: a
/// table's row read from its first cell.
fn labels_from(h: &Harness<'_, NavlabApp>, first: &str, n: usize) -> Vec<String> {
    h.get_all_by(|_| true)
        .filter_map(|node| {
            use egui_kittest::kittest::NodeT;
            let node = node.accesskit_node();
            (node.role() == egui::accesskit::Role::Label)
                .then(|| node.value())
                .flatten()
        })
        .skip_while(|label| label != first)
        .take(n)
        .collect()
}

/// Paints a wall at `cell` in one stroke and waits for the Partitions window's new comparison.
fn paint_wall_for_partitions(
    h: &mut Harness<'_, NavlabApp>,
    cell: (usize, usize),
) -> navlab::partitions::PartitionComparison {
    h.state_mut().edit_map(|map| {
        map.paint_tile(cell, Tile::Wall);
        map.end_stroke()
    });
    wait_for_partitions(h);
    h.state()
        .scenes
        .tile_map
        .partitions
        .comparison
        .clone()
        .expect("compared again")
}

/// A passable cell that is neither S nor G: the first from the top-left, or from the
/// bottom-right.
fn free_cell(app: &NavlabApp, from_the_end: bool) -> (usize, usize) {
    let grid = &app.scenes.tile_map;
    let map = &app.map.map;
    let free = |&c: &(usize, usize)| map.is_passable(c) && c != grid.goal && c != grid.start;
    let mut cells = (0..map.cell_count()).map(|i| map.cell(i));
    if from_the_end {
        cells.rev().find(free)
    } else {
        cells.find(free)
    }
    .expect("a passable cell")
}

/// The Partitions window: opened by its button, it compares the four partitions of the map
/// shown (the same answer as the library gives), the chosen one is drawn, an edit brings a new
/// comparison that goes round the new wall, and P closes it.
#[test]
fn partitions_window_compares_the_map_and_follows_edits() {
    use navlab::partitions::{Partition, compare_partitions};
    let mut h = harness(vec![]);
    h.get_by_label("Partitions").click();
    wait_for_partitions(&mut h);
    assert!(h.state().scenes.tile_map.partitions.open);
    let expected = {
        let app = h.state();
        let g = &app.scenes.tile_map;
        compare_partitions(&app.map.map, g.start, g.goal, g.settings.connectivity)
    };
    let shown = h
        .state()
        .scenes
        .tile_map
        .partitions
        .comparison
        .clone()
        .expect("compared");
    for partition in Partition::ALL {
        let (Some(a), Some(b)) = (shown.result(partition), expected.result(partition)) else {
            panic!("{partition:?} missing");
        };
        assert_eq!(
            (a.nodes, a.links, a.expanded),
            (b.nodes, b.links, b.expanded)
        );
        assert_eq!(a.straight, b.straight);
        // Each partition's row can be chosen.
        h.get_by_label(partition.name()).click();
        h.run_steps(1);
        assert_eq!(h.state().scenes.tile_map.partitions.shown, partition);
    }
    // A wall across the visibility graph's straight path, next to the start: the new shortest
    // path goes round it.
    let before = shown
        .result(Partition::Visibility)
        .expect("built")
        .straight_length();
    let (start, goal) = (
        h.state().scenes.tile_map.start,
        h.state().scenes.tile_map.goal,
    );
    let step = |a: usize, b: usize| {
        if b > a {
            a + 1
        } else if b < a {
            a - 1
        } else {
            a
        }
    };
    let wall = (step(start.0, goal.0), step(start.1, goal.1));
    assert!(h.state().map.map.is_passable(wall));
    let after = paint_wall_for_partitions(&mut h, wall);
    assert_eq!(
        after
            .built
            .quadtree
            .get()
            .expect("a quadtree")
            .squares()
            .len(),
        {
            navlab::grid::quadtree::QuadTree::build(&h.state().map.map)
                .expect("a small map")
                .squares()
                .len()
        }
    );
    let visibility = after.result(Partition::Visibility).expect("built");
    assert!(visibility.straight_length() >= before - 1e-9);
    let map = &h.state().map.map;
    let lattice = |v: &Vec2| navlab::grid::free_segment::HalfPoint {
        x2: (v.x * 2.0) as i64,
        y2: (v.y * 2.0) as i64,
    };
    for pair in visibility.straight.windows(2) {
        assert!(navlab::grid::free_segment::segment_is_free(
            map,
            lattice(&pair[0]),
            lattice(&pair[1])
        ));
    }
    h.key_press(egui::Key::P);
    h.run_steps(2);
    assert!(!h.state().scenes.tile_map.partitions.open);
}

/// Moving the goal with the Partitions window open searches the partitions already built
/// (the same quadtree and mesh, not rebuilt) and gives what a comparison from scratch gives;
/// an edit of the map builds them again.
#[test]
fn partitions_window_reuses_the_built_partitions_when_only_the_goal_moves() {
    use navlab::partitions::{Partition, compare_partitions};
    use std::sync::Arc;
    let mut h = harness(vec![]);
    h.key_press(egui::Key::P);
    wait_for_partitions(&mut h);
    let first = h
        .state()
        .scenes
        .tile_map
        .partitions
        .comparison
        .clone()
        .expect("compared");
    let (Ok(tree), Ok(mesh)) = (&first.built.quadtree.structure, &first.built.mesh.structure)
    else {
        panic!("the built-in map has a quadtree and a mesh");
    };
    let new_goal = free_cell(h.state(), true);
    {
        let app = h.state_mut();
        let grid = &mut app.scenes.tile_map;
        grid.goal = new_goal;
        grid.rerun(&app.map);
    }
    wait_for_partitions(&mut h);
    let moved = h
        .state()
        .scenes
        .tile_map
        .partitions
        .comparison
        .clone()
        .expect("compared");
    assert_eq!(moved.to, new_goal);
    let (Ok(tree_after), Ok(mesh_after)) =
        (&moved.built.quadtree.structure, &moved.built.mesh.structure)
    else {
        panic!("still built");
    };
    assert!(Arc::ptr_eq(tree, tree_after) && Arc::ptr_eq(mesh, mesh_after));
    let fresh = {
        let app = h.state();
        let g = &app.scenes.tile_map;
        compare_partitions(&app.map.map, g.start, g.goal, g.settings.connectivity)
    };
    for partition in Partition::ALL {
        let (a, b) = (moved.result(partition), fresh.result(partition));
        assert_eq!(
            a.map(|r| (&r.raw, &r.straight, r.expanded)),
            b.map(|r| (&r.raw, &r.straight, r.expanded)),
            "{partition:?}"
        );
    }
    // A wall painted: built again.
    let cell = free_cell(h.state(), false);
    let edited = paint_wall_for_partitions(&mut h, cell);
    let Ok(tree_edited) = &edited.built.quadtree.structure else {
        panic!("built");
    };
    assert!(!Arc::ptr_eq(tree, tree_edited));
}

/// The nodes `partition`'s search expanded in the Partitions window's comparison, in order.
fn expanded_by(h: &Harness<'_, NavlabApp>, partition: navlab::partitions::Partition) -> Vec<usize> {
    h.state()
        .scenes
        .tile_map
        .partitions
        .comparison
        .as_ref()
        .and_then(|c| c.result(partition))
        .map(|r| r.expanded_nodes.clone())
        .expect("a search of that partition")
}

/// The Partitions window's expansion slider steps through the order A* took a partition's
/// nodes: each arrow key shows one fewer, always the first ones of the search's order, and
/// choosing another partition shows all of its own again.
#[test]
fn partitions_window_steps_through_the_expansions() {
    use navlab::partitions::Partition;
    let mut h = harness(vec![]);
    h.key_press(egui::Key::P);
    wait_for_partitions(&mut h);
    h.get_by_label(Partition::QuadTree.name()).click();
    h.run_steps(2);
    let all = expanded_by(&h, Partition::QuadTree);
    assert!(all.len() > 5, "{}", all.len());
    assert_eq!(
        h.state().scenes.tile_map.partitions.expanded_in_view(),
        &all[..]
    );
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Expansions shown")
        .focus();
    h.run_steps(2);
    for k in 1..=3 {
        h.key_press(egui::Key::ArrowLeft);
        h.run_steps(1);
        assert_eq!(
            h.state().scenes.tile_map.partitions.expanded_in_view(),
            &all[..all.len() - k]
        );
    }
    h.key_press(egui::Key::Escape);
    h.run_steps(1);
    h.get_by_label(Partition::NavMesh.name()).click();
    h.run_steps(2);
    let mesh_all = expanded_by(&h, Partition::NavMesh);
    assert_eq!(
        h.state().scenes.tile_map.partitions.expanded_in_view(),
        &mesh_all[..]
    );
}

/// IDA*'s children over the threshold are cut off: the map marks them (the contour Fringe
/// would keep in its later list) and a cell's tooltip says so, with the costs the step gave;
/// the recorded steps are the oracle.
#[test]
fn idastar_marks_the_children_it_cuts_off() {
    use navlab::search::SearchEvent;
    let mut h = searched_with("IDA*");
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    // The first cut-off of a cell never expanded before it.
    let events = h.state().scenes.tile_map.search.events.clone();
    let (at, node, g, estimate) = events
        .iter()
        .enumerate()
        .find_map(|(k, e)| match *e {
            SearchEvent::CutOff { node, g, h }
                if !events[..k]
                    .iter()
                    .any(|e| matches!(*e, SearchEvent::Expanded { node: n, .. } if n == node)) =>
            {
                Some((k, node, g, h))
            }
            _ => None,
        })
        .expect("IDA* cuts children off on the built-in map");
    let cell = h.state().map.map.cell(node);
    for _ in 0..at {
        assert_eq!(
            h.state().scenes.tile_map.cell_state(cell),
            None,
            "not reached yet"
        );
        h.key_press(egui::Key::ArrowRight);
        h.run_steps(1);
    }
    assert_eq!(h.state().scenes.tile_map.cell_state(cell), None);
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(1);
    let words = h.state().scenes.tile_map.cell_state(cell).expect("reached");
    assert!(words.starts_with("cut off"), "{words}");
    // The panel counts the pass's cut-offs so far.
    let pass_start = events[..at]
        .iter()
        .rposition(|e| matches!(e, SearchEvent::IterationStarted { .. }))
        .unwrap_or(0);
    let mut cut_offs: Vec<usize> = events[pass_start..=at]
        .iter()
        .filter_map(|e| match *e {
            SearchEvent::CutOff { node, .. } => Some(node),
            _ => None,
        })
        .collect();
    let times = cut_offs.len();
    cut_offs.sort_unstable();
    cut_offs.dedup();
    h.get_by_label(&format!(
        "Cut off this pass: {} cells, {} times (purple on the map)",
        navlab::words::thousands(cut_offs.len()),
        navlab::words::thousands(times)
    ));
    h.hover_at(cell_centres(&h)(cell));
    h.run_steps(40);
    h.get_by_label_contains("cut off: its f was over the threshold");
    let (g, estimate) = (g as f32, estimate as f32);
    h.get_by_label(&format!(
        "g {g:.3}   h {estimate:.3}   f {:.3}",
        g + estimate
    ));
    // Going back a step un-marks it.
    h.key_press(egui::Key::ArrowLeft);
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.cell_state(cell), None);
}

/// Clicks the number field labelled `label` (it edits in place, staying a spin button), replaces
/// its text with `text` and presses Enter.
fn type_into_spin_button(h: &mut Harness<'_, NavlabApp>, label: &str, text: &str) {
    use egui::accesskit::Role;
    h.get_by_role_and_label(Role::SpinButton, label).click();
    h.run_steps(2);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(Role::SpinButton, label)
        .type_text(text);
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
}

/// IDA*'s node budget shows its digits grouped, and a budget typed with the same commas reads
/// back as the number (and re-runs the search with it).
#[test]
fn the_node_budget_shows_and_reads_grouped_digits() {
    use egui::accesskit::Role;
    let mut h = harness(vec![]);
    h.get_by_label("IDA*").click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.tile_map.settings.budget, 2_000_000);
    let shown = h.get_by_role_and_label(Role::SpinButton, "Node budget");
    assert_eq!(shown.value().as_deref(), Some("2,000,000"));
    type_into_spin_button(&mut h, "Node budget", "25,000");
    h.run_steps(1);
    assert_eq!(h.state().scenes.tile_map.settings.budget, 25_000);
    h.state_mut().scenes.tile_map.wait_for_search();
    let result = h
        .state()
        .scenes
        .tile_map
        .search
        .result
        .clone()
        .expect("searched");
    assert!(result.expanded <= 25_000, "{}", result.expanded);
    assert_eq!(
        h.get_by_role_and_label(Role::SpinButton, "Node budget")
            .value()
            .as_deref(),
        Some("25,000")
    );
}

/// Page Down and Page Up (and the Next / Previous pass buttons) jump between the passes of
/// Fringe Search: to the step that starts the next pass, back to the start of the pass shown,
/// or of the one before when it is at a start; nothing beyond the first and the last.
#[test]
fn page_keys_jump_between_the_passes() {
    let mut h = searched_with("Fringe");
    // The oracle: the steps whose event starts a pass (step k shows events[k - 1]).
    let starts: Vec<usize> = h
        .state()
        .scenes
        .tile_map
        .search
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, SearchEvent::IterationStarted { .. }))
        .map(|(i, _)| i + 1)
        .collect();
    assert!(
        starts.len() >= 3,
        "the built-in map takes Fringe several passes"
    );
    let cursor = |h: &Harness<'_, NavlabApp>| h.state().scenes.tile_map.playback.cursor;
    let press = |h: &mut Harness<'_, NavlabApp>, key| {
        h.key_press(key);
        h.run_steps(1);
    };
    press(&mut h, egui::Key::Home);
    for &start in &starts {
        press(&mut h, egui::Key::PageDown);
        assert_eq!(cursor(&h), start);
        h.get_by_label_contains(&format!("{}. pass", navlab::words::thousands(start)));
    }
    // Past the last pass's start there is none to go to.
    press(&mut h, egui::Key::PageDown);
    assert_eq!(cursor(&h), starts[starts.len() - 1]);
    // Within a pass, back to its start; at a start, to the pass before.
    press(&mut h, egui::Key::ArrowRight);
    press(&mut h, egui::Key::ArrowRight);
    press(&mut h, egui::Key::PageUp);
    assert_eq!(cursor(&h), starts[starts.len() - 1]);
    press(&mut h, egui::Key::PageUp);
    assert_eq!(cursor(&h), starts[starts.len() - 2]);
    // The buttons do the same.
    h.get_by_label("Next pass").click();
    h.run_steps(1);
    assert_eq!(cursor(&h), starts[starts.len() - 1]);
    h.get_by_label("Previous pass").click();
    h.run_steps(1);
    assert_eq!(cursor(&h), starts[starts.len() - 2]);
    // Before the first pass's start, nothing earlier.
    press(&mut h, egui::Key::Home);
    press(&mut h, egui::Key::PageUp);
    assert_eq!(cursor(&h), 0);
    assert!(!h.state().scenes.tile_map.playback.playing);
}

/// A cell's tooltip says at which recorded steps the search expanded it, and E jumps there:
/// IDA* expands cells again pass after pass, so E goes on to each later expansion, then round to
/// the first. The recorded steps are the oracle.
#[test]
fn e_jumps_to_the_steps_that_expand_the_cell_under_the_pointer() {
    use navlab::words::{expanded_at, thousands};
    let mut h = searched_with("IDA*");
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    let events = h.state().scenes.tile_map.search.events.clone();
    let mut by_node = std::collections::BTreeMap::<usize, Vec<usize>>::new();
    for (i, event) in events.iter().enumerate() {
        if let SearchEvent::Expanded { node, .. } = *event {
            by_node.entry(node).or_default().push(i + 1);
        }
    }
    let (node, steps) = by_node
        .into_iter()
        .find(|(_, steps)| (2..=4).contains(&steps.len()))
        .expect("IDA* expands a cell two to four times on the built-in map");
    let cell = h.state().map.map.cell(node);
    h.hover_at(cell_centres(&h)(cell));
    h.run_steps(40);
    h.get_by_label(&expanded_at(&steps));
    h.get_by_label(&format!("E: go to step {}", thousands(steps[0])));
    let cursor = |h: &Harness<'_, NavlabApp>| h.state().scenes.tile_map.playback.cursor;
    for &step in steps.iter().chain(&steps[..1]) {
        h.key_press(egui::Key::E);
        h.run_steps(1);
        assert_eq!(cursor(&h), step);
        // The step list follows, at the expansion of that cell.
        h.get_by_label_contains(&format!(
            "{}. expand cell {},{}",
            thousands(step),
            cell.0,
            cell.1
        ));
    }
    assert!(!h.state().scenes.tile_map.playback.playing);
    // A wall is never expanded: E leaves the step where it is.
    let wall = {
        let map = &h.state().map.map;
        (0..map.cell_count())
            .map(|i| map.cell(i))
            .find(|&c| !map.is_passable(c))
            .expect("the built-in map has walls")
    };
    h.hover_at(cell_centres(&h)(wall));
    h.run_steps(2);
    h.key_press(egui::Key::E);
    h.run_steps(1);
    assert_eq!(cursor(&h), steps[0]);
}

/// The playback bar's step field shows the step with its digits grouped (IDA*'s recordings run
/// to a million steps), and a step typed with commas goes there.
#[test]
fn the_step_field_shows_and_reads_grouped_digits() {
    use egui::accesskit::Role;
    let mut h = searched_with("IDA*");
    let len = h.state().scenes.tile_map.search.events.len();
    assert!(len > 12_345, "{len}");
    h.key_press(egui::Key::End);
    h.run_steps(2);
    let shown = h.get_by_role_and_label(Role::SpinButton, "Step");
    assert_eq!(
        shown.value().as_deref(),
        Some(navlab::words::thousands(len).as_str())
    );
    type_into_spin_button(&mut h, "Step", "12,345");
    assert_eq!(h.state().scenes.tile_map.playback.cursor, 12_345);
    assert_eq!(
        h.get_by_role_and_label(Role::SpinButton, "Step")
            .value()
            .as_deref(),
        Some("12,345")
    );
}

/// A map opened by a relative path (as from a terminal: `navlab open ../maps/a.map`) is
/// remembered by its absolute path, so the next start in another folder still reopens it and
/// Recent still finds it.
#[test]
fn a_map_opened_by_a_relative_path_is_remembered_by_its_absolute_path() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let file = dir.path().join("relative.map");
    std::fs::write(&file, "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n").expect("write");
    let here = std::env::current_dir().expect("cwd");
    let Ok(inside) = file.strip_prefix(&here) else {
        eprintln!("SKIPPED: the target folder is outside the working folder");
        return;
    };
    // With a detour, as typed paths have.
    let first = inside.components().next().expect("a folder");
    let relative = PathBuf::from(".").join(first).join("..").join(inside);
    assert!(relative.is_relative());
    let mut h = harness(vec![]);
    h.state_mut()
        .command(navlab::app::Command::LoadMap(relative));
    h.run_steps(3);
    assert_eq!(h.state().map.map.width(), 3);
    let real = std::fs::canonicalize(&file).expect("real path");
    assert_eq!(h.state().map.file.as_deref(), Some(real.as_path()));
    assert_eq!(h.state().settings.last_map.as_deref(), Some(real.as_path()));
    assert!(
        h.state().settings.recent.paths().contains(&real),
        "{:?}",
        h.state().settings.recent
    );
}

/// The step numbers of the step list's rows on screen, in order.
fn listed_steps(h: &Harness<'_, NavlabApp>) -> Vec<usize> {
    step_rows(h, false)
}

/// The numbers of the step rows shown selected.
fn selected_steps(h: &Harness<'_, NavlabApp>) -> Vec<usize> {
    step_rows(h, true)
}

/// The numbers of the step rows shown ("12. expand …"), or of the selected ones only.
fn step_rows(h: &Harness<'_, NavlabApp>, selected_only: bool) -> Vec<usize> {
    use egui_kittest::kittest::NodeT;
    h.get_all_by(|_| true)
        .filter_map(|node| {
            let node = node.accesskit_node();
            // egui reports a selected label as toggled on.
            let selected = node.toggled() == Some(egui::accesskit::Toggled::True);
            if node.role() != egui::accesskit::Role::Button || (selected_only && !selected) {
                return None;
            }
            let text = node.label()?;
            let (number, _) = text.split_once(". ")?;
            navlab::words::parse_grouped(number).map(|n| n as usize)
        })
        .collect()
}

/// "Expansions only" lists just the steps that expand a cell, start a pass or end the search
/// (the recorded events are the oracle); a row still jumps to its step, Copy steps copies what
/// is listed, and the box off lists every step again.
#[test]
fn expansions_only_lists_the_expansions_passes_and_end() {
    let mut h = searched_with("Fringe");
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    let events = h.state().scenes.tile_map.search.events.clone();
    let oracle: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            matches!(
                e,
                SearchEvent::Expanded { .. }
                    | SearchEvent::IterationStarted { .. }
                    | SearchEvent::Finished { .. }
            )
        })
        .map(|(i, _)| i + 1)
        .collect();
    assert!(
        oracle.len() < events.len() / 2,
        "Fringe puts off more than it expands"
    );
    assert_eq!(listed_steps(&h)[..5], [0, 1, 2, 3, 4]);
    h.get_by_label("Expansions only").click();
    h.run_steps(2);
    let shown = listed_steps(&h);
    assert!(shown.len() > 5, "{shown:?}");
    assert_eq!(shown[0], 0);
    assert_eq!(shown[1..], oracle[..shown.len() - 1]);
    // A row jumps to its step.
    let step = oracle[3];
    h.get_by_label_contains(&format!("{}. expand", navlab::words::thousands(step)))
        .click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.tile_map.playback.cursor, step);
    assert_eq!(selected_steps(&h), [step]);
    // A step left out (the first child opened) keeps the expansion before it marked.
    h.get_by_label("Step forward").click();
    h.run_steps(2);
    assert_eq!(h.state().scenes.tile_map.playback.cursor, step + 1);
    assert!(!oracle.contains(&(step + 1)), "step {} is listed", step + 1);
    assert_eq!(selected_steps(&h), [step]);
    // At the end the list shows the last step, the end of the search.
    h.key_press(egui::Key::End);
    h.run_steps(3);
    assert_eq!(listed_steps(&h).last(), oracle.last());
    let copied = common::click_and_copied(&mut h, "Copy steps");
    let [text] = copied.as_slice() else {
        panic!("one copy: {copied:?}")
    };
    let numbers: Vec<usize> = text
        .lines()
        .map(|line| {
            let (number, _) = line.split_once(". ").expect("numbered");
            navlab::words::parse_grouped(number).expect("a number") as usize
        })
        .collect();
    assert_eq!(numbers[0], 0);
    assert_eq!(numbers[1..], oracle[..]);
    // Off again: every step.
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    h.get_by_label("Expansions only").click();
    h.run_steps(2);
    assert_eq!(listed_steps(&h)[..5], [0, 1, 2, 3, 4]);
}

/// IDA* on the built-in map takes more steps than the window records: the step list says how
/// many were left out, the last row (the end of the search) says so first, and at the end the
/// pass shown is the one the search ended in, though the recorded steps stop in an earlier
/// one. A direct run with every step traced is the oracle.
#[test]
fn a_search_longer_than_the_recording_says_what_was_left_out() {
    use navlab::app::tile_map_scene::jobs::{MAX_RECORDED_STEPS, left_out_note};
    use navlab::words::{thousands, thousands_decimal};
    let mut h = searched_with("IDA*");
    let app = h.state();
    let grid = &app.scenes.tile_map;
    let (direct, trace) = traced_search(app, grid.settings.algorithm);
    assert!(
        trace.len() > MAX_RECORDED_STEPS + 1,
        "IDA* on the built-in map takes {} steps, no more than are recorded",
        trace.len()
    );
    assert_eq!(
        grid.search.result.as_ref(),
        Some(&direct),
        "the whole search's answer"
    );
    let recorded = grid.search.events.len();
    assert_eq!(recorded, MAX_RECORDED_STEPS + 1);
    assert!(grid.search.events[..recorded - 1] == trace[..recorded - 1]);
    assert_eq!(grid.search.events.last(), trace.last());
    let left_out = trace.len() - recorded;
    h.get_by_label(&format!(
        "Only the first {} steps are recorded: {} more came before the last one.",
        thousands(MAX_RECORDED_STEPS),
        thousands(left_out)
    ));

    let pass_of = |events: &[SearchEvent]| {
        events.iter().rev().find_map(|e| match *e {
            SearchEvent::IterationStarted {
                iteration,
                threshold,
                ..
            } => Some(format!(
                "{} / {}",
                thousands(iteration),
                thousands_decimal(threshold, 2)
            )),
            _ => None,
        })
    };
    let (last_pass, last_recorded_pass) = (
        pass_of(&trace).expect("passes"),
        pass_of(&grid.search.events).expect("passes recorded"),
    );
    assert_ne!(
        last_pass, last_recorded_pass,
        "the recording stops a pass early"
    );
    h.key_press(egui::Key::End);
    h.run_steps(3);
    assert_eq!(h.state().scenes.tile_map.playback.cursor, recorded);
    h.get_by_label_contains(&format!(
        "{}. {}",
        thousands(recorded),
        left_out_note(left_out)
    ));
    h.get_by_label(&last_pass);
    // One step back is a recorded step: its pass is the one it was recorded in.
    h.get_by_label("Step back").click();
    h.run_steps(3);
    assert_eq!(h.state().scenes.tile_map.playback.cursor, recorded - 1);
    h.get_by_label(&last_recorded_pass);
    assert!(h.query_by_label(&last_pass).is_none());
}

/// Whether one of the next few frames asks the window to close.
fn closes_within_frames(h: &mut Harness<'_, NavlabApp>) -> bool {
    (0..4).any(|_| {
        h.run_steps(1);
        h.output()
            .viewport_output
            .values()
            .any(|viewport| viewport.commands.contains(&egui::ViewportCommand::Close))
    })
}

/// Ctrl+Q quits, as File → Quit does: with unsaved edits it asks first, and Cancel keeps them
/// and the window; with none it closes at once.
#[test]
fn ctrl_q_quits_and_asks_first_about_unsaved_edits() {
    let mut h = harness(vec![]);
    click_cell(&mut h, (1, 1));
    assert!(h.state().map.dirty);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Q);
    h.run_steps(2);
    h.get_by_label("Unsaved changes");
    assert_eq!(h.state().pending, Some(navlab::app::Command::Quit));
    h.get_by_label("Cancel").click();
    assert!(!closes_within_frames(&mut h), "Cancel keeps the window");
    assert!(h.state().map.dirty && h.state().pending.is_none());

    // Nothing unsaved: Quit from the File menu closes without a question.
    let mut h = harness(vec![]);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Quit").click();
    assert!(closes_within_frames(&mut h));
    assert!(h.query_by_label("Unsaved changes").is_none());
}

/// On a large map a cell is a pixel and the markers several: a press beside the goal's cell but
/// on its marker grabs it (a drag moves it), and paints nothing.
#[test]
fn a_press_on_a_marker_of_a_large_map_grabs_it_and_paints_nothing() {
    let mut h = harness(vec![]);
    h.get_by_label("Wall").click();
    h.state_mut()
        .command(navlab::app::Command::NewMap(512, 512));
    h.run_steps(3);
    h.state_mut().scenes.tile_map.wait_for_search();
    h.run_steps(1);
    let goal = h.state().scenes.tile_map.goal;
    let view = h.state().scenes.tile_map.last_view().expect("canvas drawn");
    let centre = view.screen_from_world(Vec2::new(goal.0 as f64 + 0.5, goal.1 as f64 + 0.5));
    assert!(view.camera.scale < 2.0, "a cell is about a pixel");
    // Three pixels to the left of the goal's centre: another cell, on the marker.
    let beside = centre - egui::vec2(3.0, 0.0);
    let to = centre - egui::vec2(40.0, 0.0);
    common::drag_screen(
        &mut h,
        (beside, to),
        egui::PointerButton::Primary,
        6,
        |_| {},
    );
    h.run_steps(2);
    let app = h.state();
    assert!(!app.map.dirty, "nothing painted");
    assert!(app.map.map.tiles().iter().all(|&t| t != Tile::Wall));
    assert_ne!(app.scenes.tile_map.goal, goal, "the goal moved");
}

/// The canvas keeps its size whatever the algorithm: the panels beside it do not follow the
/// width of what they show (an open list, Fringe's lists, IDA*'s path, the pseudocode).
#[test]
fn switching_algorithm_keeps_the_canvas_size() {
    let mut h = harness(vec![]);
    let mut sizes = Vec::new();
    for name in ["BFS", "Dijkstra", "A*", "IDA*", "Fringe", "A*"] {
        h.get_by_label(name).click();
        h.run_steps(2);
        h.state_mut().scenes.tile_map.wait_for_search();
        // Mid-search, where the lists are longest.
        for _ in 0..30 {
            h.key_press(egui::Key::ArrowRight);
        }
        h.run_steps(3);
        let rect = h.state().scenes.tile_map.last_view().expect("drawn").rect;
        sizes.push((name, rect.width(), rect.height()));
    }
    let (_, w, hgt) = sizes[0];
    assert!(
        sizes
            .iter()
            .all(|&(_, sw, sh)| (sw - w).abs() < 0.5 && (sh - hgt).abs() < 0.5),
        "{sizes:?}"
    );
}

/// While another algorithm searches on the worker, the view describes the steps it shows —
/// the last search's — in that search's words: its legend, its pseudocode, its sentences;
/// the caption says which algorithm is searching. Once the answer arrives, all of it flips
/// together.
#[test]
fn while_ida_star_searches_the_view_describes_the_search_it_shows() {
    let mut app = common::app();
    app.settings.scene = SceneKind::TileMap;
    let scene = &mut app.scenes.tile_map;
    let mut settings = scene.settings();
    settings.algorithm = AlgorithmKind::Dijkstra;
    scene.apply_settings(&settings, &app.map);
    scene.wait_for_search();
    scene.playback.cursor = usize::MAX;
    scene.sync_replay();
    assert!(!scene.is_searching());
    // IDA*'s default node budget sends its search to the worker.
    settings.algorithm = AlgorithmKind::IdaStar;
    scene.apply_settings(&settings, &app.map);
    assert!(scene.is_searching(), "IDA* searches in the background");
    let legend = |scene: &navlab::app::tile_map_scene::TileMapScene| -> Vec<String> {
        scene.legend().into_iter().map(|row| row.text).collect()
    };
    let rows = legend(scene);
    assert!(rows.iter().any(|r| r == "open: the frontier"), "{rows:?}");
    assert!(!rows.iter().any(|r| r == "the path it holds"), "{rows:?}");
    assert_eq!(
        scene.pseudocode_lit().0,
        navlab::search::pseudocode::Listing::Dijkstra
    );
    let caption = scene.current_explanation();
    assert!(
        caption.starts_with("IDA* is searching; Dijkstra's steps are shown"),
        "{caption}"
    );
    scene.wait_for_search();
    assert!(!scene.is_searching());
    let rows = legend(scene);
    assert!(rows.iter().any(|r| r == "the path it holds"), "{rows:?}");
    assert_eq!(
        scene.pseudocode_lit().0,
        navlab::search::pseudocode::Listing::IdaStar
    );
}

/// Stepping the replay of a map drawn as a texture patches the texels of the cells the steps
/// changed (forward, back, several steps at once) instead of making the texture again, and
/// every picture is the one a fresh window draws at that step; the last step (the path
/// appears) makes it again.
#[test]
fn replay_steps_patch_the_tile_texture_into_the_picture_a_fresh_window_draws() {
    use navlab::app::headless::HeadlessWindow;
    use navlab::app::tile_paint::{textures_made, textures_patched, tile_texture};
    let side = 700;
    let mut map = navlab::grid::TileMap::new(side, side).expect("map");
    for i in 0..side - 40 {
        map.set((i + 20, side / 2), Tile::Wall);
        map.set((side / 3, i), Tile::Wall);
    }
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    app.settings.scene = SceneKind::TileMap;
    app.replace_map(map, None);
    app.scenes.tile_map.wait_for_search();
    let steps = app.scenes.tile_map.search.events.len();
    assert!(steps > 2000, "{steps} steps");
    let id = navlab::app::tile_map_scene::tiles_texture_id();
    let size = [900, 560];
    let theme = egui::ThemePreference::Dark;
    let mut window = HeadlessWindow::new(size, theme);
    app.scenes.tile_map.playback.cursor = steps / 2;
    window.picture(&mut app);
    let made = textures_made(window.ctx(), id);
    assert!(made > 0, "drawn as a texture");
    let half = steps / 2;
    for (k, cursor) in [
        half + 1,
        half + 2,
        half + 7,
        half + 5,
        half - 200,
        half + 600,
    ]
    .into_iter()
    .enumerate()
    {
        app.scenes.tile_map.playback.cursor = cursor;
        window.picture(&mut app);
        assert_eq!(textures_made(window.ctx(), id), made, "step {cursor}");
        assert_eq!(
            textures_patched(window.ctx(), id),
            k as u64 + 1,
            "step {cursor}"
        );
        let mut fresh = HeadlessWindow::new(size, theme);
        fresh.picture(&mut app);
        let texture = |window: &HeadlessWindow| {
            let texture = tile_texture(window.ctx(), id).expect("a tile texture");
            window.texture(texture).expect("its pixels").clone()
        };
        let (patched, fresh) = (texture(&window), texture(&fresh));
        assert_eq!(patched.size, fresh.size, "step {cursor}");
        let differ = patched
            .pixels
            .iter()
            .zip(&fresh.pixels)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(
            differ, 0,
            "step {cursor}: texels differ from a fresh window's"
        );
    }
    app.scenes.tile_map.playback.cursor = steps;
    window.picture(&mut app);
    assert_eq!(
        textures_made(window.ctx(), id),
        made + 1,
        "the path appears"
    );
}

/// D* Lite's agent walks its path; a wall painted across the path ahead of it is repaired from
/// where it stands: the steps shown become the repair's (the edit first), the repaired path
/// costs what a fresh A* from the agent finds and keeps off the wall, the panel sets the repair's
/// work beside that A*'s, and the agent walks on round the wall to the goal.
#[test]
fn paint_a_wall_in_front_of_a_walking_agent_and_see_d_star_lite_repair() {
    let mut h = harness(vec![]);
    h.get_by_label("D* Lite").click();
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("Paint across the path ahead")
            .is_some()
    );
    h.get_by_label("Walk").click();
    let walked = |h: &Harness<'_, NavlabApp>| {
        h.state()
            .scenes
            .tile_map
            .walk
            .as_ref()
            .expect("D* Lite's agent")
            .trail()
            .len()
    };
    for _ in 0..600 {
        if walked(&h) >= 4 {
            break;
        }
        h.run_steps(1);
    }
    assert!(walked(&h) >= 4, "the agent walks");
    assert!(h.query_by_label("Stop").is_some());
    // Stop it, so that it stands still while the wall goes up across its path, five ahead.
    h.key_press(egui::Key::W);
    h.run_steps(1);
    let walk = h.state().scenes.tile_map.walk.clone().expect("the agent");
    assert!(!walk.walking);
    let (path, _) = walk.path().expect("a path");
    let ahead = path[5.min(path.len() - 2)];
    let across: Vec<(usize, usize)> = [(-1i64, 1i64), (0, 0), (1, -1)]
        .iter()
        .map(|&(dx, dy)| {
            (
                (ahead.0 as i64 + dx) as usize,
                (ahead.1 as i64 + dy) as usize,
            )
        })
        .filter(|&c| h.state().map.map.get(c).is_some())
        .collect();
    let before = h.state().map.map.clone();
    h.get_by_label("Wall").click();
    h.run_steps(1);
    drag_cells(&mut h, across[0], across[across.len() - 1], 4);
    h.run_steps(2);
    for &cell in &across {
        assert_eq!(h.state().map.map.get(cell), Some(Tile::Wall), "{cell:?}");
    }
    let grid = &h.state().scenes.tile_map;
    assert!(
        matches!(grid.search.events.first(), Some(SearchEvent::Edited { .. })),
        "the steps shown are the repair's"
    );
    let report = grid
        .walk
        .as_ref()
        .and_then(|w| w.last_repair)
        .expect("a repair");
    assert_eq!(report.from, walk.agent());
    let changed = common::changed_cells(&before, &h.state().map.map);
    assert_eq!(report.edited, changed.len());
    let fresh = h.state().map.map.path(report.from, grid.goal);
    let repaired = grid.search.result.clone().expect("the repair's answer");
    assert!(
        (repaired.cost - fresh.cost).abs() < 1e-9,
        "{} vs A* {}",
        repaired.cost,
        fresh.cost
    );
    assert_eq!(repaired.path.first(), Some(&report.from));
    assert!(repaired.path.iter().all(|c| !changed.contains(c)));
    assert_eq!(report.fresh_astar, fresh.expanded);
    assert!(report.expanded > 0);
    // The panel gives both counts (the repair here can cost more than a fresh search: the wall
    // closes the top corridor, and every value that went by it is worked out again).
    let said = format!(
        "{} cells taken from the open list, against the {} a fresh A*",
        report.expanded, report.fresh_astar
    );
    assert!(h.query_by_label_contains(&said).is_some(), "{said}");
    assert!(h.query_by_label_contains("Last repair, from").is_some());
    // Its first step: the edit.
    h.state_mut().scenes.tile_map.playback.cursor = 1;
    h.run_steps(1);
    assert!(
        h.query_all_by_label_contains("the map changed at")
            .next()
            .is_some()
    );
    // On again, round the wall, to the goal.
    h.get_by_label("Walk").click();
    for _ in 0..3000 {
        if h.state()
            .scenes
            .tile_map
            .walk
            .as_ref()
            .is_some_and(|w| w.arrived())
        {
            break;
        }
        h.run_steps(1);
    }
    let walk = h.state().scenes.tile_map.walk.clone().expect("the agent");
    assert!(walk.arrived(), "the agent reaches the goal");
    assert!(walk.trail().iter().all(|c| !changed.contains(c)));
    assert!(h.query_by_label("Walk again").is_some());
}

/// Lockstep, A* against JPS on the built-in map with every tile as grass: both searches drawn
/// side by side on one timeline of expansions; "Go to the first difference" goes to the first
/// expansion where the two runs (searched here independently) take different cells, and each
/// half shows its search's cell of that expansion; turned off, the view keeps its place.
#[test]
fn lockstep_astar_against_jps_marks_where_they_first_differ() {
    let mut h = harness(vec![]);
    let mut costs = h.state().map.map.costs;
    (costs.sand, costs.water) = (costs.grass, costs.grass);
    h.state_mut().map.set_costs(costs);
    h.get_by_label("A*").click();
    h.run_steps(2);
    h.get_by_label("Lockstep").click();
    h.run_steps(2);
    assert!(h.query_by_label("Lockstep canvas").is_some());
    let grid = &h.state().scenes.tile_map;
    assert_eq!(grid.settings.second.algorithm, AlgorithmKind::Jps);
    let map = h.state().map.map.clone();
    let run = |algorithm| {
        let mut events = Vec::new();
        grid_search(
            &map,
            grid.start,
            grid.goal,
            algorithm,
            navlab::grid::Connectivity::Eight,
            &mut events,
        );
        navlab::search::posthoc::expansions(&events)
    };
    let astar = run(navlab::grid::GridAlgorithm::AStar {
        heuristic: navlab::grid::Heuristic::Octile,
        weight: 1.0,
    });
    let jps = run(navlab::grid::GridAlgorithm::Jps);
    let differ = (0..astar.len().max(jps.len()))
        .find(|&k| astar.get(k) != jps.get(k))
        .expect("JPS skips cells A* expands");
    let d = differ + 1;
    assert_eq!(
        h.state().scenes.tile_map.timeline_len(),
        astar.len().max(jps.len())
    );
    h.get_by_label("Go to the first difference").click();
    h.run_steps(2);
    let grid = &h.state().scenes.tile_map;
    assert_eq!(grid.playback.cursor, d);
    // D goes there too, from anywhere.
    h.key_press(egui::Key::End);
    h.run_steps(1);
    assert_ne!(h.state().scenes.tile_map.playback.cursor, d);
    h.key_press(egui::Key::D);
    h.run_steps(2);
    let grid = &h.state().scenes.tile_map;
    assert_eq!(grid.playback.cursor, d);
    assert_eq!(grid.search.replay.current(), astar.get(differ).copied());
    let second = grid.second.as_ref().expect("the second search");
    assert_eq!(second.replay.current(), jps.get(differ).copied());
    assert!(
        h.query_by_label("This is it: the cells are ringed.")
            .is_some()
    );
    let said = format!("First difference at expansion {d}:");
    assert!(h.query_by_label_contains(&said).is_some(), "{said}");
    // Off again (L): the step list shows A* after the same expansions.
    h.key_press(egui::Key::L);
    h.run_steps(2);
    let grid = &h.state().scenes.tile_map;
    assert!(!grid.settings.lockstep && grid.second.is_none());
    assert_eq!(grid.search.replay.current(), astar.get(differ).copied());
    assert!(h.query_by_label("Tile map canvas").is_some());
}
