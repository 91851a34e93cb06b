//! Helpers of the window's and the command line's tests: harnesses, pictures, clicks, the
//! binary. The library's helpers (fixtures, path invariants, oracles) are the core's tests'
//! own, included here.
#![allow(dead_code)]

#[path = "../../core/tests/common/mod.rs"]
mod library;
pub use library::*;

/// A click of `button` at the screen point `pos` as the window gets it: hover, press, release,
/// with a frame after each.
pub fn click_screen<S>(
    h: &mut egui_kittest::Harness<'_, S>,
    pos: egui::Pos2,
    button: egui::PointerButton,
) {
    h.hover_at(pos);
    h.run_steps(1);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(1);
    }
}

/// A click of `button` at the world point `p` of the navmesh view's canvas (as last drawn).
pub fn click_world(
    h: &mut egui_kittest::Harness<'_, navlab::app::NavlabApp>,
    p: navlab::geom::Vec2,
    button: egui::PointerButton,
) {
    let view = h
        .state()
        .scenes
        .navmesh
        .last_view()
        .expect("the canvas was drawn");
    click_screen(h, view.screen_from_world(p), button);
}

/// Presses `button` at `from`, moves to `to` in `steps` equal moves of a frame each (calling
/// `after_move` after each), and releases it there.
pub fn drag_screen<'a, S>(
    h: &mut egui_kittest::Harness<'a, S>,
    (from, to): (egui::Pos2, egui::Pos2),
    button: egui::PointerButton,
    steps: usize,
    mut after_move: impl FnMut(&mut egui_kittest::Harness<'a, S>),
) {
    let press = |h: &mut egui_kittest::Harness<'a, S>, pos, pressed| {
        h.event(egui::Event::PointerButton {
            pos,
            button,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    };
    h.hover_at(from);
    h.run_steps(1);
    press(h, from, true);
    h.run_steps(1);
    for k in 1..=steps {
        h.hover_at(from + (to - from) * (k as f32 / steps as f32));
        h.run_steps(1);
        after_move(h);
    }
    press(h, to, false);
    h.run_steps(2);
}

/// Replaces the text of the text field labelled `label` with `text`, as typed: focus, select
/// all, type.
pub fn replace_text<S>(h: &mut egui_kittest::Harness<'_, S>, label: &str, text: &str) {
    use egui_kittest::kittest::Queryable;
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, label)
        .focus();
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, label)
        .type_text(text);
    h.run_steps(1);
}

/// Clicks the button labelled `label` and returns the texts the click put on the clipboard
/// (egui's copy commands of the frame that handled the click).
pub fn click_and_copied<S>(h: &mut egui_kittest::Harness<'_, S>, label: &str) -> Vec<String> {
    use egui_kittest::kittest::Queryable;
    // Through AccessKit, as a screen reader clicks: the button may sit below the fold of a
    // scrolling panel, where a pointer click at its centre would land on what covers it.
    h.get_by_label(label).click_accesskit();
    h.step();
    h.output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

/// A primary-button press or release at `pos`.
pub fn primary_button(pos: egui::Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    }
}

/// Hovers `path[0]` for a frame, then puts a primary press there, moves through the rest of
/// `path` and (with `release`) the release at its end into one frame's input — as a quick
/// stroke after a slow frame reaches egui — and runs that frame. (kittest's own event queue
/// gives each event a frame of its own.)
pub fn pointer_in_one_frame<S>(
    h: &mut egui_kittest::Harness<'_, S>,
    path: &[egui::Pos2],
    release: bool,
) {
    let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
        return;
    };
    h.hover_at(first);
    h.run_steps(1);
    let events = &mut h.input_mut().events;
    events.push(primary_button(first, true));
    events.extend(path[1..].iter().map(|&p| egui::Event::PointerMoved(p)));
    if release {
        events.push(primary_button(last, false));
    }
    h.run_steps(1);
}

/// Writes `text` to `path` as an exporter would, its modification time `age` seconds on (so
/// that two writes differ even on a file system with coarse times).
pub fn export(path: &std::path::Path, text: &str, age: u64) {
    std::fs::write(path, text).expect("write");
    let time = navlab::clock::system_now() + std::time::Duration::from_secs(age);
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(time))
        .expect("set time");
}

/// Runs the `navlab` binary with `args`: its exit code, stdout and stderr.
pub fn navlab(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_navlab"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A window whose file dialogs answer "cancelled" (no test opens a real one).
pub fn app() -> navlab::app::NavlabApp {
    navlab::app::NavlabApp::new(
        navlab::app::AppSettings::default(),
        Box::new(navlab::app::files::ScriptedDialogs::default()),
    )
}

/// `app` in a 1280 × 800 window driven by egui_kittest, its first two frames drawn.
pub fn harness(
    app: navlab::app::NavlabApp,
) -> egui_kittest::Harness<'static, navlab::app::NavlabApp> {
    let mut harness = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut navlab::app::NavlabApp| app.frame_ui(ui), app);
    harness.run_steps(2);
    harness
}

/// The pixels of two pictures that differ, as (x, y).
pub fn differences(before: &egui::ColorImage, after: &egui::ColorImage) -> Vec<(usize, usize)> {
    assert_eq!(before.size, after.size);
    let [w, _] = before.size;
    before
        .pixels
        .iter()
        .zip(&after.pixels)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| (i % w, i / w))
        .collect()
}

/// A 900 × 560 picture of `app` drawn without a display, once the layout has settled.
pub fn picture(app: &mut navlab::app::NavlabApp) -> egui::ColorImage {
    let mut window =
        navlab::app::headless::HeadlessWindow::new([900, 560], egui::ThemePreference::Dark);
    for _ in 0..3 {
        window.frame(app);
    }
    window.picture(app)
}

/// How many shapes the window paints in one frame (after two to settle), at 900 × 560.
pub fn shapes_of_frame(app: &mut navlab::app::NavlabApp) -> usize {
    let mut window =
        navlab::app::headless::HeadlessWindow::new([900, 560], egui::ThemePreference::Dark);
    window.frame(app);
    window.frame(app);
    window.frame(app).shapes.len()
}

/// A pixel counts as changed when one of its channels is off by more than this (of 255):
/// far below a change anyone would see, far above the rounding of one renderer on two
/// machines.
pub const GOLDEN_CHANNEL_TOLERANCE: u8 = 3;

/// A picture fails when more than this many pixels changed: a one-pixel line across the
/// canvas, a moved label or a changed digit is more.
pub const GOLDEN_MAX_CHANGED_PIXELS: usize = 16;

/// Compares `picture` with the golden picture `tests/golden/NAME.png`. When more than
/// [`GOLDEN_MAX_CHANGED_PIXELS`] pixels changed (by more than
/// [`GOLDEN_CHANNEL_TOLERANCE`]), writes `NAME.new.png` (the picture now) and `NAME.diff.png`
/// (the golden picture dimmed, the changed pixels magenta) beside it and fails, unless
/// `UPDATE_GOLDEN=1`, which rewrites the golden picture instead.
pub fn assert_golden(name: &str, picture: &egui::ColorImage) {
    use navlab::app::screenshot::{decode_png, png_bytes};
    let dir = repo_path("tests/golden");
    let golden_path = dir.join(format!("{name}.png"));
    let new_path = dir.join(format!("{name}.new.png"));
    let diff_path = dir.join(format!("{name}.diff.png"));
    let update = std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1");
    let _ = std::fs::remove_file(&new_path);
    let _ = std::fs::remove_file(&diff_path);
    let write = |path: &std::path::Path, image: &egui::ColorImage| {
        std::fs::create_dir_all(&dir).expect("tests/golden");
        std::fs::write(path, png_bytes(image).expect("encodes")).expect("written");
    };
    let how = "look at it; if it is meant, rewrite the golden pictures with \
               `UPDATE_GOLDEN=1 cargo test --test golden` (docs/testing.md)";
    let golden = match std::fs::read(&golden_path) {
        Ok(bytes) => {
            decode_png(&bytes).unwrap_or_else(|e| panic!("{}: {e}", golden_path.display()))
        }
        Err(_) if update => {
            write(&golden_path, picture);
            eprintln!("wrote the new golden picture {}", golden_path.display());
            return;
        }
        Err(error) => {
            write(&new_path, picture);
            panic!(
                "no golden picture {} ({error}); the picture is in {}: {how}",
                golden_path.display(),
                new_path.display()
            );
        }
    };
    if golden.size != picture.size {
        if update {
            write(&golden_path, picture);
            return;
        }
        write(&new_path, picture);
        panic!(
            "{name}: {:?} pixels against the golden {:?}; the picture is in {}: {how}",
            picture.size,
            golden.size,
            new_path.display()
        );
    }
    let [w, _] = picture.size;
    let mut changed = 0;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    let mut diff = Vec::with_capacity(golden.pixels.len());
    for (k, (&was, &now)) in golden.pixels.iter().zip(&picture.pixels).enumerate() {
        let off = was
            .to_array()
            .iter()
            .zip(now.to_array())
            .any(|(&a, b)| a.abs_diff(b) > GOLDEN_CHANNEL_TOLERANCE);
        if off {
            changed += 1;
            let (x, y) = (k % w, k / w);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            diff.push(egui::Color32::from_rgb(255, 0, 255));
        } else {
            diff.push(egui::Color32::from_rgb(
                was.r() / 4,
                was.g() / 4,
                was.b() / 4,
            ));
        }
    }
    if changed <= GOLDEN_MAX_CHANGED_PIXELS {
        return;
    }
    if update {
        write(&golden_path, picture);
        eprintln!(
            "rewrote the golden picture {} ({changed} pixels changed)",
            golden_path.display()
        );
        return;
    }
    write(&new_path, picture);
    write(&diff_path, &egui::ColorImage::new(picture.size, diff));
    panic!(
        "{name}: {changed} pixels changed, between ({x0}, {y0}) and ({x1}, {y1}); the picture \
         is in {}, the changes in {}: {how}",
        new_path.display(),
        diff_path.display()
    );
}
