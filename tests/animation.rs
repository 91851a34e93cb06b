//! `navlab open --gif`: an animated GIF of a step range, drawn with no display, decoded here
//! frame by frame.

use std::process::Command;

fn navlab(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_navlab"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every frame of a GIF, as (width, height, delay in hundredths, RGBA pixels).
fn frames(path: &std::path::Path) -> Vec<(u16, u16, u16, Vec<u8>)> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(path).expect("written"))
        .expect("a GIF");
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        frames.push((
            frame.width,
            frame.height,
            frame.delay,
            frame.buffer.to_vec(),
        ));
    }
    frames
}

#[test]
fn forty_steps_make_forty_frames_of_the_size_asked_for() {
    let dir = tempfile::tempdir().expect("temp");
    let out = dir.path().join("astar.gif");
    let (code, stderr) = navlab(&[
        "open",
        "--gif",
        out.to_str().expect("utf-8"),
        "--steps",
        "0..39",
        "--size",
        "400x300",
        "--fps",
        "5",
    ]);
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
    let (code, _) = navlab(&[
        "open",
        "--gif",
        again.to_str().expect("utf-8"),
        "--steps",
        "0..39",
        "--size",
        "400x300",
        "--fps",
        "5",
    ]);
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
    let (code, stderr) = navlab(&[
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
    let (code, stderr) = navlab(&["open", "--gif", out_name, "--steps", "9..2"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("runs backwards"), "{stderr}");
    let missing = dir.path().join("missing.obj");
    let (code, stderr) = navlab(&["open", missing.to_str().expect("utf-8"), "--gif", out_name]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("missing.obj"), "{stderr}");
    assert!(!out.exists());
}
