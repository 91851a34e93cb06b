//! Screenshots: the window set up as `navlab open` sets it up, at a step, drawn without a
//! display and saved as a PNG (`navlab open --screenshot`, and the pictures in
//! `screenshots/`).

use super::headless::HeadlessWindow;
use super::{Launch, NavlabApp};
use std::path::PathBuf;

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

/// A picture to take.
#[derive(Debug, Clone, PartialEq)]
pub struct ScreenshotPlan {
    /// Where to write the PNG.
    pub path: PathBuf,
    /// The step to show.
    pub step: StepSpec,
    /// The window's size in pixels.
    pub size: [usize; 2],
}

impl StepSpec {
    /// The step number this names in `scene`.
    pub fn resolve(self, scene: &dyn Steps) -> usize {
        let (search, len) = scene.step_counts();
        let optimal = scene.optimal_start().clamp(search, len);
        match self {
            StepSpec::Number(n) => n.min(len),
            StepSpec::SearchEnd => search,
            StepSpec::FunnelMiddle => search + (optimal - search) / 2,
            StepSpec::OptimalMiddle => optimal + (len - optimal) / 2,
            StepSpec::End => len,
        }
    }
}

/// The window `app` at `step`, `size` pixels large in `theme`, drawn without a display; an
/// agent walking is shown at the end of its walk (more agents of other sizes where they are
/// then, or halfway through the shortest of their walks when it has none).
pub fn picture_of(
    app: &mut NavlabApp,
    step: StepSpec,
    size: [usize; 2],
    theme: egui::ThemePreference,
) -> egui::ColorImage {
    let mut window = HeadlessWindow::new(size, theme);
    for _ in 0..super::headless::SETTLING_FRAMES {
        window.frame(app);
    }
    let kind = app.settings.scene;
    let scene = app.scenes.get_mut(kind);
    let k = step.resolve(scene);
    scene.show_step(k);
    let navmesh = &mut app.scenes.navmesh;
    if let Some(walk) = &mut navmesh.walk {
        walk.time = walk.walk.duration();
        walk.playing = false;
    }
    // Agents of other sizes: where they are when the query's own agent arrives, or (when it
    // has no path) halfway through the shortest of their walks, each on its way.
    let arrival = navmesh.walk.as_ref().map_or_else(
        || {
            0.5 * navmesh
                .agents
                .walks
                .iter()
                .flatten()
                .map(|w| w.walk.duration())
                .fold(f64::INFINITY, f64::min)
        },
        |w| w.walk.duration(),
    );
    for walk in navmesh.agents.walks.iter_mut().flatten() {
        walk.time = walk.walk.duration().min(arrival);
        walk.playing = false;
    }
    window.picture(app)
}

/// Sets a window up as `launch` says and writes its picture as `plan` asks. Errors name
/// what failed (a file that did not open, the PNG that was not written).
pub fn save_screenshot(launch: &Launch, plan: &ScreenshotPlan) -> Result<(), String> {
    let mut app = super::headless::launched_app(launch, &mut |warning| {
        eprintln!(
            "{}",
            crate::input::printable(&format!("warning: {warning}"))
        );
    })?;
    let theme = super::headless::picture_theme(launch);
    let image = picture_of(&mut app, plan.step, plan.size, theme);
    write_png(&plan.path, &image)
}

/// Writes an RGBA image as PNG, atomically (see [`super::files::write_file`]).
pub fn write_png(path: &std::path::Path, image: &egui::ColorImage) -> Result<(), String> {
    let bytes = png_bytes(image).map_err(|e| format!("{}: {e}", crate::input::shown(path)))?;
    super::files::write_file(path, &bytes)
}

/// An image as the bytes of a PNG file: RGB when every pixel is opaque (what the renderer
/// draws), else RGBA, compressed hard (pictures are written once and kept).
pub fn png_bytes(image: &egui::ColorImage) -> Result<Vec<u8>, png::EncodingError> {
    let [w, h] = image.size;
    let opaque = image.pixels.iter().all(|p| p.a() == 255);
    let mut pixels = Vec::with_capacity(w * h * 4);
    for pixel in &image.pixels {
        let rgba = pixel.to_srgba_unmultiplied();
        pixels.extend_from_slice(if opaque { &rgba[..3] } else { &rgba });
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w as u32, h as u32);
    encoder.set_color(if opaque {
        png::ColorType::Rgb
    } else {
        png::ColorType::Rgba
    });
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&pixels)?;
    writer.finish()?;
    Ok(bytes)
}

/// The picture in a PNG file's bytes (8-bit grey, RGB or RGBA, palettes expanded), or why
/// it is not one.
pub fn decode_png(bytes: &[u8]) -> Result<egui::ColorImage, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "too large a picture".to_string())?;
    if size > 256 << 20 {
        return Err("too large a picture".to_string());
    }
    let mut buffer = vec![0; size];
    let info = reader.next_frame(&mut buffer).map_err(|e| e.to_string())?;
    let (w, h) = (info.width as usize, info.height as usize);
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return Err("an unexpanded palette".to_string()),
    };
    let pixels = buffer
        .get(..w * h * channels)
        .ok_or_else(|| "a short picture".to_string())?
        .chunks_exact(channels)
        .map(|p| match *p {
            [v] => egui::Color32::from_gray(v),
            [v, a] => egui::Color32::from_rgba_unmultiplied(v, v, v, a),
            [r, g, b] => egui::Color32::from_rgb(r, g, b),
            [r, g, b, a] => egui::Color32::from_rgba_unmultiplied(r, g, b, a),
            _ => egui::Color32::TRANSPARENT,
        })
        .collect();
    Ok(egui::ColorImage::new([w, h], pixels))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scene of 10 search steps, 6 of the funnel and 4 of the shortest path's.
    struct TwentySteps;

    impl Steps for TwentySteps {
        fn step_counts(&self) -> (usize, usize) {
            (10, 20)
        }
        fn optimal_start(&self) -> usize {
            16
        }
        fn show_step(&mut self, _k: usize) {}
        fn shown_step(&self) -> usize {
            0
        }
    }

    #[test]
    fn a_picture_written_as_png_reads_back_the_same() {
        let pixels = (0..12)
            .map(|k| egui::Color32::from_rgb(k * 20, 255 - k * 20, 7))
            .collect();
        let image = egui::ColorImage::new([4, 3], pixels);
        let bytes = png_bytes(&image).expect("encodes");
        assert_eq!(decode_png(&bytes).expect("decodes"), image);
        assert!(decode_png(b"not a png").is_err());
    }

    #[test]
    fn named_steps_fall_where_their_phases_are() {
        let scene = TwentySteps;
        assert_eq!(StepSpec::Number(4).resolve(&scene), 4);
        assert_eq!(StepSpec::Number(99).resolve(&scene), 20, "held to the last");
        assert_eq!(StepSpec::SearchEnd.resolve(&scene), 10);
        assert_eq!(StepSpec::FunnelMiddle.resolve(&scene), 13);
        assert_eq!(StepSpec::OptimalMiddle.resolve(&scene), 18);
        assert_eq!(StepSpec::End.resolve(&scene), 20);
    }
}
