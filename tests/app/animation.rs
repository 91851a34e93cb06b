//! `navlab open --gif`: an animated GIF of a step range, drawn with no display, decoded here
//! frame by frame.

use crate::common;
use common::navlab;

/// Every frame of a GIF as shown, composed over the frames before it (a frame may hold only
/// the part that changed): (width, height, delay in hundredths, RGBA pixels of the whole
/// picture), the width and height being the GIF's.
fn frames(path: &std::path::Path) -> Vec<(u16, u16, u16, Vec<u8>)> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(path).expect("written"))
        .expect("a GIF");
    let (w, h) = (decoder.width(), decoder.height());
    let mut screen = vec![0u8; usize::from(w) * usize::from(h) * 4];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        assert!(frame.left + frame.width <= w && frame.top + frame.height <= h);
        // A transparent pixel leaves the one before (the frames are kept, not cleared).
        for y in 0..usize::from(frame.height) {
            for x in 0..usize::from(frame.width) {
                let from = (y * usize::from(frame.width) + x) * 4;
                let pixel = &frame.buffer[from..from + 4];
                if pixel[3] != 0 {
                    let at = ((usize::from(frame.top) + y) * usize::from(w)
                        + usize::from(frame.left)
                        + x)
                        * 4;
                    screen[at..at + 4].copy_from_slice(pixel);
                }
            }
        }
        frames.push((w, h, frame.delay, screen.clone()));
    }
    frames
}

#[test]
fn forty_steps_make_forty_frames_of_the_size_asked_for() {
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("astar.gif");
    let record = |out: &std::path::Path| {
        navlab(&[
            "open",
            "--gif",
            out.to_str().expect("utf-8"),
            "--steps",
            "0..39",
            "--size",
            "400x300",
            "--fps",
            "5",
        ])
    };
    let (code, _, stderr) = record(&out);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("40 frames of 400 × 300"), "{stderr}");
    let frames = frames(&out);
    assert_eq!(frames.len(), 40);
    assert!(
        frames
            .iter()
            .all(|(w, h, delay, _)| (*w, *h, *delay) == (400, 300, 20))
    );
    // The search moves: the first and the last frame differ, and so do most neighbours.
    assert_ne!(frames[0].3, frames[39].3);
    let changed = frames.windows(2).filter(|w| w[0].3 != w[1].3).count();
    assert!(changed >= 30, "{changed} of 39 frames changed");
    // The same command gives the same file.
    let again = dir.path().join("again.gif");
    let (code, _, _) = record(&again);
    assert_eq!(code, Some(0));
    assert_eq!(
        std::fs::read(&out).expect("first"),
        std::fs::read(&again).expect("second")
    );
}

#[test]
fn the_canvas_alone_and_the_tile_map() {
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("canvas.gif");
    let (code, _, stderr) = navlab(&[
        "open",
        "--compare",
        "--gif",
        out.to_str().expect("utf-8"),
        "--steps",
        "3..7",
        "--size",
        "800x500",
        "--canvas-only",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let frames = frames(&out);
    assert_eq!(frames.len(), 5);
    let (w, h) = (frames[0].0, frames[0].1);
    assert!(w < 800 && h < 500, "the canvas only: {w} × {h}");
}

#[test]
fn a_bad_range_or_a_missing_file_is_bad_input_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("never.gif");
    let out_name = out.to_str().expect("utf-8");
    let (code, _, stderr) = navlab(&["open", "--gif", out_name, "--steps", "9..2"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("runs backwards"), "{stderr}");
    let missing = dir.path().join("missing.obj");
    let (code, _, stderr) = navlab(&["open", missing.to_str().expect("utf-8"), "--gif", out_name]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("missing.obj"), "{stderr}");
    assert!(!out.exists());
}

/// File → Export animation… in the window: the steps asked for, recorded in the background
/// into the file the dialog gives, one frame a step.
#[test]
fn export_animation_in_the_window_records_the_steps_asked_for() {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use navlab::app::files::ScriptedDialogs;
    use navlab::app::{AppSettings, NavlabApp, UiCommand};
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("window.gif");
    let dialogs = ScriptedDialogs {
        answers: std::collections::VecDeque::from([Some(out.clone())]),
        ..Default::default()
    };
    let app = NavlabApp::new(AppSettings::default(), Box::new(dialogs));
    let mut h = Harness::builder()
        .with_size(egui::vec2(800.0, 500.0))
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
    h.run_steps(2);
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    for _ in 0..12 {
        h.key_press(egui::Key::ArrowRight);
    }
    h.run_steps(2);
    h.state_mut().run(UiCommand::ExportAnimation);
    h.run_steps(2);
    h.get_by_label("Canvas only").click();
    h.run_steps(1);
    h.get_by_label("Export…").click();
    h.run_steps(2);
    for _ in 0..600 {
        if h.state()
            .notice
            .as_deref()
            .is_some_and(|n| n.starts_with("Saved the animation"))
        {
            break;
        }
        assert!(h.state().error().is_none(), "{:?}", h.state().error());
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.run_steps(1);
    }
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(notice.contains("13 frames"), "{notice}");
    // Steps 0 to 12 (the shown one, at most 40 before), one frame each.
    let frames = frames(&out);
    assert_eq!(frames.len(), 13);
    assert!(
        frames.iter().all(|(w, h, _, _)| *w < 800 && *h < 500),
        "the canvas only"
    );
}

/// On a view just opened (step 0) the Export animation window offers the first 40 steps, not
/// two frames; it gives the frames' size in pixels, the canvas's when only the canvas is
/// recorded (it said the window's, 1280 × 800, for a 682 × 725 GIF).
#[test]
fn the_export_window_offers_the_first_steps_and_says_the_size_of_the_frames() {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use navlab::app::screenshot::Steps;
    use navlab::app::{NavlabApp, UiCommand};
    let mut h = Harness::builder()
        .with_size(egui::vec2(800.0, 500.0))
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), common::app());
    h.run_steps(2);
    h.key_press(egui::Key::Home);
    h.run_steps(1);
    assert_eq!(h.state().scenes.navmesh.shown_step(), 0);
    h.state_mut().run(UiCommand::ExportAnimation);
    h.run_steps(2);
    h.get_by_label("41 frames of 800 × 500 pixels");
    h.get_by_label("Canvas only").click();
    h.run_steps(2);
    let canvas = h.state().scenes.navmesh.screen.canvas_rect.expect("drawn");
    h.get_by_label(&format!(
        "41 frames of {} × {} pixels",
        canvas.width().round(),
        canvas.height().round()
    ));
}

/// An animation past its limits — frames over 4096 pixels on a side, or more pixels in all
/// than the budget — is refused before anything is drawn, naming the limit; nothing written.
#[test]
fn an_animation_too_large_is_refused_naming_the_limit() {
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("huge.gif");
    let out_name = out.to_str().expect("utf-8");
    for (size, steps, limit) in [
        ("8000x8000", "0..1", "at most 4096 on a side"),
        ("1280x800", "0..1999", "at most 600,000,000"),
    ] {
        let started = navlab::clock::now();
        let (code, _, stderr) =
            navlab(&["open", "--gif", out_name, "--size", size, "--steps", steps]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.contains(limit) && stderr.contains("huge.gif"),
            "{stderr}"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
    assert!(!out.exists());
}

/// A recording in the window can be cancelled from the status bar: it stops, says so, and
/// writes nothing.
#[test]
fn an_animation_recording_can_be_cancelled() {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use navlab::app::files::ScriptedDialogs;
    use navlab::app::{AppSettings, NavlabApp, UiCommand};
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("cancelled.gif");
    let dialogs = ScriptedDialogs {
        answers: std::collections::VecDeque::from([Some(out.clone())]),
        ..Default::default()
    };
    let app = NavlabApp::new(AppSettings::default(), Box::new(dialogs));
    let mut h = Harness::builder()
        .with_size(egui::vec2(800.0, 500.0))
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), app);
    h.run_steps(2);
    h.key_press(egui::Key::End);
    h.run_steps(2);
    h.state_mut().run(UiCommand::ExportAnimation);
    h.run_steps(2);
    h.get_by_label("Export…").click();
    h.run_steps(2);
    // First in the status bar, where the point under the pointer (whose width changes as
    // the pointer moves) cannot push it away.
    let cancel = h.get_by_label("Cancel").rect();
    assert!(cancel.min.x < 20.0, "{cancel:?}");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    let notice = h.state().notice.clone().unwrap_or_default();
    assert!(notice.starts_with("Cancelled the animation"), "{notice}");
    // The worker stops before its next frame and never writes.
    std::thread::sleep(std::time::Duration::from_secs(3));
    h.run_steps(2);
    assert!(!out.exists());
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
}
