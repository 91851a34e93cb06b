//! Screenshot mode: open the window, move to a step, save the frame as a PNG and exit. Used to
//! make the pictures in `screenshots/`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A scene whose recorded steps a screenshot can move through.
pub trait Steps {
    /// (steps of the search, all steps).
    fn step_counts(&self) -> (usize, usize);
    /// Where the steps of the shortest-path search begin (all steps when there are none).
    fn optimal_start(&self) -> usize {
        self.step_counts().1
    }
    /// Shows step `k`, paused.
    fn show_step(&mut self, k: usize);
    /// The step shown.
    fn shown_step(&self) -> usize;
}

/// Which step to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StepSpec {
    /// A step number (0 = before the first step).
    Number(usize),
    /// The last A* step (the search just finished).
    SearchEnd,
    /// Halfway through the funnel.
    FunnelMiddle,
    /// Halfway through the shortest-path search (navmesh with `--optimal`).
    OptimalMiddle,
    /// The end: the final path.
    #[default]
    End,
}

impl std::str::FromStr for StepSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "end" => Ok(StepSpec::End),
            "search-end" => Ok(StepSpec::SearchEnd),
            "funnel-middle" => Ok(StepSpec::FunnelMiddle),
            "optimal-middle" => Ok(StepSpec::OptimalMiddle),
            n => n.parse().map(StepSpec::Number).map_err(|_| {
                format!(
                    "`{s}` is not a step: give a number, search-end, funnel-middle, optimal-middle or end"
                )
            }),
        }
    }
}

/// A pending screenshot.
#[derive(Debug)]
pub struct ScreenshotPlan {
    /// Where to write the PNG.
    pub path: PathBuf,
    /// The step to show.
    pub step: StepSpec,
    /// The window size the picture is taken at, once the window has it.
    size: Option<egui::Vec2>,
    frames: u32,
    requested: bool,
    result: Arc<Mutex<Option<Result<(), String>>>>,
}

impl ScreenshotPlan {
    /// A screenshot of `step` to be written to `path`.
    pub fn new(path: PathBuf, step: StepSpec) -> Self {
        Self {
            path,
            step,
            size: None,
            frames: 0,
            requested: false,
            result: Arc::new(Mutex::new(None)),
        }
    }

    /// The same plan, taken once the window is `size` (in points) — or after two seconds' worth
    /// of frames if the window system never gives it that size.
    pub fn at_size(self, size: egui::Vec2) -> Self {
        Self {
            size: Some(size),
            ..self
        }
    }

    /// Called once per frame: sets the step, waits a few frames for the layout to settle (and
    /// the window for its size), asks for the screenshot, and closes the window once it is
    /// written.
    pub fn frame(&mut self, ctx: &egui::Context, scene: &mut dyn Steps) {
        self.frames += 1;
        let (search, len) = scene.step_counts();
        let optimal = scene.optimal_start().clamp(search, len);
        scene.show_step(match self.step {
            StepSpec::Number(n) => n.min(len),
            StepSpec::SearchEnd => search,
            StepSpec::FunnelMiddle => search + (optimal - search) / 2,
            StepSpec::OptimalMiddle => optimal + (len - optimal) / 2,
            StepSpec::End => len,
        });
        let sized = self
            .size
            .is_none_or(|size| (ctx.content_rect().size() - size).length() < 1.0);
        if self.frames >= 5 && (sized || self.frames >= 120) && !self.requested {
            self.requested = true;
            let path = self.path.clone();
            let result = Arc::clone(&self.result);
            ctx.request_screenshot(move |image| {
                let outcome = write_png(&path, &image);
                if let Ok(mut slot) = result.lock() {
                    *slot = Some(outcome);
                }
            });
        }
        let done = self.result.lock().ok().and_then(|mut slot| slot.take());
        match done {
            Some(Ok(())) => {
                eprintln!(
                    "{}",
                    crate::input::printable(&format!("wrote {}", self.path.display()))
                );
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            Some(Err(message)) => {
                eprintln!("{}", crate::input::printable(&format!("error: {message}")));
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            None => ctx.request_repaint(),
        }
    }
}

/// Writes an RGBA image as PNG, atomically (see [`super::files::write_file`]).
pub fn write_png(path: &std::path::Path, image: &egui::ColorImage) -> Result<(), String> {
    let bytes = png_bytes(image).map_err(|e| format!("{}: {e}", path.display()))?;
    super::files::write_file(path, &bytes)
}

/// An RGBA image as the bytes of a PNG file.
pub fn png_bytes(image: &egui::ColorImage) -> Result<Vec<u8>, png::EncodingError> {
    let [w, h] = image.size;
    let mut pixels = Vec::with_capacity(w * h * 4);
    for pixel in &image.pixels {
        pixels.extend_from_slice(&pixel.to_srgba_unmultiplied());
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w as u32, h as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&pixels)?;
    writer.finish()?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scene with nothing to step through.
    struct NoSteps;

    impl Steps for NoSteps {
        fn step_counts(&self) -> (usize, usize) {
            (0, 0)
        }
        fn show_step(&mut self, _k: usize) {}
        fn shown_step(&self) -> usize {
            0
        }
    }

    /// Runs `frames` frames of a `screen`-sized window; true once the picture was asked for.
    fn requested_after(plan: &mut ScreenshotPlan, screen: egui::Vec2, frames: u32) -> bool {
        let ctx = egui::Context::default();
        for _ in 0..frames {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, screen)),
                ..Default::default()
            };
            let mut output = ctx.run_ui(input, |ui| plan.frame(ui.ctx(), &mut NoSteps));
            // No painter takes the font textures here.
            output.textures_delta.clear();
        }
        plan.requested
    }

    /// The picture waits for the window to have the size asked for (eframe first restores the
    /// size it had last time), but not forever.
    #[test]
    fn the_picture_waits_for_the_window_size() {
        let wanted = egui::vec2(1024.0, 640.0);
        let plan = || ScreenshotPlan::new(PathBuf::from("unused.png"), StepSpec::End);
        assert!(requested_after(&mut plan().at_size(wanted), wanted, 5));
        assert!(!requested_after(&mut plan().at_size(wanted), wanted, 4));
        let restored = egui::vec2(900.0, 500.0);
        assert!(!requested_after(&mut plan().at_size(wanted), restored, 60));
        assert!(requested_after(&mut plan().at_size(wanted), restored, 120));
        assert!(
            requested_after(&mut plan(), restored, 5),
            "no size asked for"
        );
    }
}
