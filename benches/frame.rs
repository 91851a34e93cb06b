//! CPU cost of one frame of the window, headless: the egui pass (layout, the batched canvas
//! meshes, the tile texture) plus tessellation, on a generated 100k-triangle mesh and on a
//! 2048 × 2048 tile map fitted to the window; and of a step back through a long recorded
//! search; and in the level view, a parameter changed on Recast's demo level: the build again and
//! the frame that draws it. Run: `cargo bench --bench frame`.

use criterion::{Criterion, criterion_group, criterion_main};
use navlab::app::files::ScriptedDialogs;
use navlab::app::navmesh_scene::MeshSource;
use navlab::app::screenshot::Steps;
use navlab::app::{AppSettings, NavlabApp};
use navlab::navmesh::generate::{GridMeshSpec, jittered_grid};
use std::hint::black_box;

#[path = "common/ratio.rs"]
mod ratio;
use ratio::print_ratio;

/// One frame of `app` in a 1280 × 800 window, tessellated.
fn run_frame(ctx: &egui::Context, app: &mut NavlabApp) -> Vec<egui::ClippedPrimitive> {
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    let output = ctx.run_ui(input, |ui| app.frame_ui(ui));
    ctx.tessellate(output.shapes, output.pixels_per_point)
}

fn frame(c: &mut Criterion) {
    let mesh = jittered_grid(GridMeshSpec::with_about(100_000, 11));
    let triangles = mesh.triangles().len();
    assert!(triangles >= 100_000);
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    app.scenes
        .navmesh
        .set_mesh(mesh, MeshSource::Generated("generated 100k".to_string()));
    // A mesh this large is queried on the worker thread.
    app.scenes.navmesh.wait_for_query();
    // Halfway through A*: open, closed and unseen triangles all on screen.
    app.scenes.navmesh.query.playback.cursor = app.scenes.navmesh.query.timeline.search_steps() / 2;
    let ctx = egui::Context::default();
    let run = |app: &mut NavlabApp| run_frame(&ctx, app);
    for _ in 0..3 {
        run(&mut app); // fonts, layout and the first fit settle
    }
    let primitives = run(&mut app);
    let vertices: usize = primitives
        .iter()
        .map(|p| match &p.primitive {
            egui::epaint::Primitive::Mesh(m) => m.vertices.len(),
            egui::epaint::Primitive::Callback(_) => 0,
        })
        .sum();
    assert!(
        vertices >= 3 * triangles,
        "every triangle is drawn: {vertices} vertices"
    );

    // The floor: egui handed the same triangles, one colour a corner, in one mesh.
    let floor_mesh = {
        let mesh = &app.scenes.navmesh.mesh();
        let bounds = mesh.bounds();
        let scale = 700.0 / (bounds.max.x - bounds.min.x).max(bounds.max.y - bounds.min.y);
        let mut floor = egui::Mesh::default();
        for triangle in mesh.triangles() {
            let i = floor.vertices.len() as u32;
            for v in triangle.vertices {
                let p = mesh.vertices()[v];
                let at = egui::pos2(
                    300.0 + ((p.x - bounds.min.x) * scale) as f32,
                    50.0 + ((p.y - bounds.min.y) * scale) as f32,
                );
                floor.colored_vertex(at, egui::Color32::from_rgb(90, 120, 160));
            }
            floor.add_triangle(i, i + 1, i + 2);
        }
        floor
    };
    let floor_ctx = egui::Context::default();
    let paint_floor = || {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 800.0),
            )),
            ..Default::default()
        };
        let output = floor_ctx.run_ui(input, |ui| {
            ui.painter().add(egui::Shape::mesh(floor_mesh.clone()));
        });
        floor_ctx.tessellate(output.shapes, output.pixels_per_point)
    };

    let mut group = c.benchmark_group("frame_100k");
    group.sample_size(20);
    group.bench_function("run_ui + tessellate, whole mesh in view", |b| {
        b.iter(|| black_box(run(&mut app)))
    });
    group.bench_function("floor, egui painting the same triangles once", |b| {
        b.iter(|| black_box(paint_floor()))
    });
    let half = app.scenes.navmesh.query.playback.cursor;
    let mut step = 0;
    group.bench_function("run_ui + tessellate, one replay step on", |b| {
        b.iter(|| {
            step = (step + 1) % 1000;
            app.scenes.navmesh.query.playback.cursor = half + step;
            black_box(run(&mut app))
        })
    });
    group.finish();
    print_ratio(
        "frame_100k",
        "run_ui + tessellate, whole mesh in view",
        "floor, egui painting the same triangles once",
        1.5,
    );
    print_ratio(
        "frame_100k",
        "run_ui + tessellate, one replay step on",
        "run_ui + tessellate, whole mesh in view",
        1.5,
    );
}

/// The level view on Recast's demo level (`nav_test.obj` from `../shared/testdata`) at the
/// regions stage: the agent's radius changed (0.6 and 0.5 in turn), the level built again and
/// one frame drawn with the new stage's texture.
fn level_frame(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/testdata/meshes/obj/nav_test.obj");
    if !path.is_file() {
        eprintln!(
            "SKIPPED: {} is absent (see ../shared/testdata/SOURCES.md)",
            path.display()
        );
        return;
    }
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    app.open_level_file(&path);
    assert!(
        app.scenes.level.built().is_some(),
        "{:?}",
        app.scenes.level.error()
    );
    app.scenes.level.show_step(9);
    let ctx = egui::Context::default();
    for _ in 0..3 {
        run_frame(&ctx, &mut app);
    }
    let mut radius = 0.6;
    let mut group = c.benchmark_group("level_view");
    group.sample_size(20);
    group.bench_function("nav_test: a parameter changed, built and drawn", |b| {
        b.iter(|| {
            radius = if radius == 0.6 { 0.5 } else { 0.6 };
            let settings = navlab::level::BuildSettings {
                agent_radius: radius,
                ..app.scenes.level.build_settings()
            };
            app.scenes.level.set_build_settings(settings);
            black_box(run_frame(&ctx, &mut app))
        })
    });
    group.finish();
}

/// A 2048² map (one tile in ten a wall, seeded) fitted to the window, halfway through A*: its
/// tiles are under a pixel each, so they are drawn as one texture, kept while nothing it shows
/// changes and patched where a replay step changes it.
fn tile_map_frame(c: &mut Criterion) {
    let map = random_map(2048, 0.1);
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    app.settings.scene = navlab::app::SceneKind::TileMap;
    app.replace_map(map, None);
    // A map this large is searched on the worker thread.
    app.scenes.tile_map.wait_for_search();
    let steps = app.scenes.tile_map.search.events.len();
    assert!(steps > 1000, "{steps} steps");
    app.scenes.tile_map.playback.cursor = steps / 2;
    let ctx = egui::Context::default();
    let run = |app: &mut NavlabApp| run_frame(&ctx, app);
    for _ in 0..3 {
        run(&mut app);
    }
    let made = || {
        navlab::app::tile_paint::textures_made(
            &ctx,
            navlab::app::tile_map_scene::tiles_texture_id(),
        )
    };
    let before = made();
    assert!(before > 0, "drawn as a texture");
    run(&mut app);
    assert_eq!(made(), before, "kept while nothing changes");
    let patched = || {
        navlab::app::tile_paint::textures_patched(
            &ctx,
            navlab::app::tile_map_scene::tiles_texture_id(),
        )
    };
    let patched_before = patched();
    for step in 1..=3 {
        app.scenes.tile_map.playback.cursor = steps / 2 + step;
        run(&mut app);
    }
    assert_eq!(made(), before, "not made again for a step");
    assert_eq!(patched(), patched_before + 3, "patched for each step");

    let mut group = c.benchmark_group("frame_tile_map_2048");
    group.sample_size(20);
    group.bench_function("run_ui + tessellate, nothing changed", |b| {
        b.iter(|| black_box(run(&mut app)))
    });
    let mut step = 0;
    group.bench_function("run_ui + tessellate, one replay step on", |b| {
        b.iter(|| {
            step = (step + 1) % 1000;
            app.scenes.tile_map.playback.cursor = steps / 2 + step;
            black_box(run(&mut app))
        })
    });
    group.finish();
    print_ratio(
        "frame_tile_map_2048",
        "run_ui + tessellate, one replay step on",
        "run_ui + tessellate, nothing changed",
        1.5,
    );
}

/// A `side`² grass map with walls at random (seeded), its corners kept free for start and goal.
fn random_map(side: usize, walls: f64) -> navlab::grid::TileMap {
    use navlab::grid::{Tile, TileMap};
    use rand::{Rng, SeedableRng};
    let mut map = TileMap::new(side, side).expect("map");
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    for i in 0..map.cell_count() {
        if rng.random_bool(walls) {
            map.set(map.cell(i), Tile::Wall);
        }
    }
    map.set((0, 0), Tile::Grass);
    map.set((side - 1, side - 1), Tile::Grass);
    map
}

/// A step back through a long recorded search replays it from the start: a 2048² map (three
/// tiles in ten walls, seeded, the goal walled off so the search covers its region), its
/// trace cut at a million steps, for A* (the open list) and Fringe Search (its lists).
fn replay_back(c: &mut Criterion) {
    use navlab::grid::AlgorithmKind;
    let map = random_map(2048, 0.3);
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    app.replace_map(map, None);
    let mut group = c.benchmark_group("replay_back_2048");
    group.sample_size(20);
    for (name, algorithm) in [
        ("one step back, A*", AlgorithmKind::AStar),
        ("one step back, Fringe", AlgorithmKind::Fringe),
    ] {
        app.scenes.tile_map.settings.algorithm = algorithm;
        app.scenes.tile_map.rerun(&app.map);
        app.scenes.tile_map.wait_for_search();
        let steps = app.scenes.tile_map.search.events.len();
        assert!(steps > 900_000, "{steps} steps");
        app.scenes.tile_map.playback.cursor = steps;
        app.scenes.tile_map.sync_replay();
        group.bench_function(name, |b| {
            b.iter(|| {
                app.scenes.tile_map.playback.cursor = steps - 1;
                app.scenes.tile_map.sync_replay();
                app.scenes.tile_map.playback.cursor = steps;
                app.scenes.tile_map.sync_replay();
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frame, tile_map_frame, replay_back, level_frame);
criterion_main!(benches);
