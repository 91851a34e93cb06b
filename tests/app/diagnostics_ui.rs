//! The Diagnostics tab driven headlessly with egui_kittest: open a faulty mesh through Open…,
//! click a finding and see the view move to it, colour islands, repair, re-check and save.

use crate::common;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use navlab::app::files::ScriptedDialogs;
use navlab::app::navmesh_scene::SideTab;
use navlab::app::{AppSettings, NavlabApp};
use navlab::navmesh::diagnose::{FindingKind, check};
use std::collections::VecDeque;

/// Two rows of faces where the upper-right face's lower edge passes a corner of the faces below
/// (a T-junction), one face of the lower row is cut off by a float-noise seam, and a platform
/// stands apart. Vertices counted from 0 in the file.
const FAULTY: &str = "\
v 0 0 0
v 2 0 0
v 4 0 0
v 6 0 0
v 0 0 2
v 2 0 2
v 4 0 2
v 6 0 2
v 0 0 4
v 2 0 4
v 6 0 4
v 4.00005 0 0
v 8 0 0
v 9 0 0
v 9 0 1
v 8 0 1
f 1 5 6 2
f 2 6 7 3
f 12 7 8 4
f 5 9 10 6
f 6 10 11 8
f 13 16 15 14
";

/// The window with FAULTY written to `dir`/export.obj and opened through Open… (the dialog's
/// first answer), on the Diagnostics tab; the file dialogs answer `then` afterwards.
fn faulty_on_diagnostics(
    dir: &std::path::Path,
    then: Vec<Option<std::path::PathBuf>>,
) -> Harness<'static, NavlabApp> {
    let path = dir.join("export.obj");
    std::fs::write(&path, FAULTY).expect("write");
    let mut answers = VecDeque::from([Some(path)]);
    answers.extend(then);
    let app = NavlabApp::new(
        AppSettings::default(),
        Box::new(ScriptedDialogs {
            answers,
            ..Default::default()
        }),
    );
    let mut h = common::harness(app);
    h.get_by_label("Open…").click();
    h.run_steps(3);
    assert!(
        h.state()
            .scenes
            .navmesh
            .origin
            .source
            .name()
            .contains("export.obj")
    );
    h.get_by_label("Diagnostics").click();
    h.run_steps(3);
    h
}

#[test]
fn open_a_faulty_mesh_click_a_finding_and_the_view_moves_to_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let repaired_path = dir.path().join("export-repaired.obj");
    let mut h = faulty_on_diagnostics(dir.path(), vec![Some(repaired_path.clone())]);
    assert_eq!(
        h.state().scenes.navmesh.screen.side_tab,
        SideTab::Diagnostics
    );
    let report = h
        .state()
        .scenes
        .navmesh
        .diagnostics
        .report
        .clone()
        .expect("checked");
    assert_eq!(report.islands, 3);
    let tj = report.get(FindingKind::TJunction).expect("T-junction");
    let at = tj.items[0].at;
    assert_eq!(at, [4.0, 2.0]);
    h.get_by_label("error: t_junction (1)");
    h.get_by_label("3 islands · 2 errors · 3 warnings");

    let before = h.state().scenes.navmesh.screen.camera.get().expect("drawn");
    h.get_by_label_contains("lies on edge").click();
    h.run_steps(3);
    let after = h.state().scenes.navmesh.screen.camera.get().expect("drawn");
    assert_eq!(after.center, at, "the view is centred on the finding");
    assert!(after.scale > before.scale, "and zoomed in on it");
    assert_eq!(
        h.state().scenes.navmesh.diagnostics.selected,
        Some((FindingKind::TJunction, 0))
    );
    // The finding is on screen, in the middle of the canvas.
    let view = h.state().scenes.navmesh.last_view().expect("view");
    let on_screen = view.screen_from_world(navlab::geom::Vec2::new(at[0], at[1]));
    assert!((on_screen - view.rect.center()).length() < 1.0);

    h.get_by_label("Colour islands").click();
    h.run_steps(2);
    assert!(h.state().scenes.navmesh.diagnostics.colour_islands);

    h.get_by_label("Weld near-duplicates and fix T-junctions")
        .click();
    h.run_steps(3);
    let fixed = h
        .state()
        .scenes
        .navmesh
        .diagnostics
        .report
        .clone()
        .expect("checked again");
    assert_eq!(fixed.islands, 2, "only the separate platform stays apart");
    assert!(!fixed.has_errors(), "{fixed:#?}");
    assert!(
        h.state().scenes.navmesh.diagnostics.colour_islands,
        "the option survives the repair"
    );
    h.get_by_label_contains("Repaired: 1 vertex weld");
    h.get_by_label_contains("(repaired, unsaved)");

    // Save the repaired mesh: the file written loads and has no errors.
    h.get_by_label("Save repaired mesh as…").click();
    h.run_steps(3);
    assert!(h.query_by_label_contains("(repaired, unsaved)").is_none());
    let saved = h.state().notice.clone().unwrap_or_default();
    assert!(saved.contains("export-repaired.obj"), "{saved}");
    let mesh = navlab::navmesh::NavMesh::load(&repaired_path, navlab::navmesh::Plane::Xz)
        .expect("the saved mesh loads");
    let report = navlab::navmesh::diagnose::check(&mesh, &Default::default());
    assert!(!report.has_errors(), "{report:#?}");
    assert_eq!(report.islands, 2);
}

/// A repair is an unsaved change: reloading asks first; Cancel keeps it, a cancelled save keeps
/// asking, Save and continue writes it and then reloads, Discard drops it.
#[test]
fn an_unsaved_repair_is_not_dropped_without_asking() {
    let dir = tempfile::tempdir().expect("temp dir");
    let saved_path = dir.path().join("kept.obj");
    // The save dialog: cancelled once, then a file.
    let mut h = faulty_on_diagnostics(dir.path(), vec![None, Some(saved_path.clone())]);
    let repair = |h: &mut Harness<'_, NavlabApp>| {
        h.get_by_label("Weld near-duplicates and fix T-junctions")
            .click();
        h.run_steps(3);
        assert!(h.state().scenes.navmesh.origin.unsaved_repair);
        assert!(!h.state().scenes.navmesh.mesh().raw().positions.is_empty());
    };
    let has_errors = |h: &mut Harness<'_, NavlabApp>| {
        let report =
            navlab::navmesh::diagnose::check(h.state().scenes.navmesh.mesh(), &Default::default());
        report.has_errors()
    };
    repair(&mut h);
    assert!(!has_errors(&mut h));

    // F5 asks; Cancel keeps the repaired mesh.
    h.key_press(egui::Key::F5);
    h.run_steps(3);
    h.get_by_label_contains("repair is not saved");
    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert!(h.state().pending.is_none());
    assert!(h.state().scenes.navmesh.origin.unsaved_repair);
    assert!(!has_errors(&mut h), "still the repaired mesh");

    // Save and continue with the save dialog cancelled: nothing happens, the question stays.
    h.key_press(egui::Key::F5);
    h.run_steps(3);
    h.get_by_label("Save and continue").click();
    h.run_steps(3);
    assert!(h.state().pending.is_some());
    assert!(!has_errors(&mut h), "still the repaired mesh");
    // Then with a file: the repair is written, and the reload goes ahead.
    h.get_by_label("Save and continue").click();
    h.run_steps(3);
    assert!(h.state().pending.is_none());
    assert!(!h.state().scenes.navmesh.origin.unsaved_repair);
    assert!(has_errors(&mut h), "the file as it is, reloaded");
    let kept = navlab::navmesh::NavMesh::load(&saved_path, navlab::navmesh::Plane::Xz)
        .expect("the saved repair loads");
    assert!(!navlab::navmesh::diagnose::check(&kept, &Default::default()).has_errors());

    // Discard drops a repair and reloads.
    repair(&mut h);
    h.key_press(egui::Key::F5);
    h.run_steps(3);
    h.get_by_label("Discard changes").click();
    h.run_steps(3);
    assert!(h.state().pending.is_none());
    assert!(!h.state().scenes.navmesh.origin.unsaved_repair);
    assert!(has_errors(&mut h));
}

/// Large meshes are checked on a worker thread while the window keeps drawing; a mesh opened
/// meanwhile gets its own report, never the old one's. (The threshold is lowered so the small
/// fixture takes that path.)
#[test]
fn a_large_mesh_is_checked_in_the_background_and_a_late_report_never_lands_on_another_mesh() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = faulty_on_diagnostics(dir.path(), vec![]);
    let wait_for_report = |h: &mut Harness<'_, NavlabApp>| {
        for _ in 0..500 {
            if h.state().scenes.navmesh.diagnostics.report.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            h.run_steps(1);
        }
        h.state()
            .scenes
            .navmesh
            .diagnostics
            .report
            .clone()
            .expect("checked")
    };
    {
        let scene = &mut h.state_mut().scenes.navmesh;
        scene.diagnostics.background_from = 0;
        scene.diagnostics.invalidate();
        assert!(
            scene.diagnostics.ensure_report(scene.view.mesh()),
            "handed to a worker"
        );
        assert!(scene.diagnostics.is_checking() && scene.diagnostics.report.is_none());
    }
    let report = wait_for_report(&mut h);
    let scene = &h.state().scenes.navmesh;
    assert_eq!(report, check(scene.mesh(), &Default::default()));
    assert!(!scene.diagnostics.is_checking());
    h.run_steps(2);
    h.get_by_label("3 islands · 2 errors · 3 warnings");

    // Start again, then open a built-in mesh before the worker is done.
    {
        let scene = &mut h.state_mut().scenes.navmesh;
        scene.diagnostics.invalidate();
        assert!(scene.diagnostics.ensure_report(scene.view.mesh()));
    }
    h.state_mut().command(navlab::app::Command::LoadEmbedded(0));
    h.run_steps(1);
    let report = wait_for_report(&mut h);
    let scene = &h.state().scenes.navmesh;
    assert!(scene.origin.source.name().contains("built in"));
    assert_eq!(report, check(scene.mesh(), &Default::default()));
}

/// Copy report copies what `navlab check --json` prints for the same file: the command line is
/// the oracle.
#[test]
fn copy_report_copies_what_the_check_command_prints() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = faulty_on_diagnostics(dir.path(), vec![]);
    let copied = common::click_and_copied(&mut h, "Copy report");
    let [text] = copied.as_slice() else {
        panic!("one copy: {copied:?}")
    };
    let copied: serde_json::Value = serde_json::from_str(text).expect("json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_navlab"))
        .arg("check")
        .arg(dir.path().join("export.obj"))
        .arg("--json")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "the file has errors");
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(copied, printed);
    let kinds: Vec<&str> = copied["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["kind"].as_str())
        .collect();
    assert!(
        kinds.contains(&"t_junction") && kinds.contains(&"near_duplicate_vertex"),
        "{kinds:?}"
    );
}
