//! CPU cost of one frame of the window on a generated 100k-triangle mesh: the egui pass
//! (layout, the batched canvas meshes) plus tessellation, headless. Run: `cargo bench --bench
//! frame`.

use criterion::{Criterion, criterion_group, criterion_main};
use navlab::app::files::ScriptedDialogs;
use navlab::app::navmesh_scene::MeshSource;
use navlab::app::{AppSettings, NavlabApp};
use navlab::navmesh::generate::{GridMeshSpec, jittered_grid};
use std::hint::black_box;

fn frame(c: &mut Criterion) {
    let mesh = jittered_grid(GridMeshSpec::with_about(100_000, 11));
    let triangles = mesh.triangles().len();
    assert!(triangles >= 100_000);
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    app.scene
        .set_mesh(mesh, MeshSource::Generated("generated 100k".to_string()));
    // Halfway through A*: open, closed and unseen triangles all on screen.
    app.scene.playback.cursor = app.scene.timeline.search_steps() / 2;
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    let run = |app: &mut NavlabApp| {
        let output = ctx.run_ui(input(), |ui| app.frame_ui(ui));
        ctx.tessellate(output.shapes, output.pixels_per_point)
    };
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

    let mut group = c.benchmark_group("frame_100k");
    group.sample_size(20);
    group.bench_function("run_ui + tessellate, whole mesh in view", |b| {
        b.iter(|| black_box(run(&mut app)))
    });
    group.finish();
}

criterion_group!(benches, frame);
criterion_main!(benches);
