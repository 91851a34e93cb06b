//! The window drawn without a display: an app set up as `navlab open` would set it up, its
//! frames run at a fixed size and drawn on the CPU by the
//! [software renderer](super::software_render). Screenshots, animations and the golden
//! pictures of the tests are all drawn here, so the same command gives the same pixels on
//! every machine.

use super::files::ScriptedDialogs;
use super::software_render::SoftwareRenderer;
use super::{AppSettings, Launch, NavlabApp};

/// Frames run before a picture, for the layout to settle (panel widths, a fitted view).
pub const SETTLING_FRAMES: usize = 3;

/// Frames of an app at a fixed size, drawn on the CPU.
pub struct HeadlessWindow {
    ctx: egui::Context,
    input: egui::RawInput,
    renderer: SoftwareRenderer,
    size: [usize; 2],
}

impl HeadlessWindow {
    /// A window `size` pixels large in `theme`.
    pub fn new(size: [usize; 2], theme: egui::ThemePreference) -> Self {
        let ctx = egui::Context::default();
        ctx.set_theme(theme);
        // Windows fade in and panels slide over a few frames: a picture shows them as they
        // end, not part way.
        ctx.all_styles_mut(|style| style.animation_time = 0.0);
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(size[0] as f32, size[1] as f32),
            )),
            ..Default::default()
        };
        Self {
            ctx,
            input,
            renderer: SoftwareRenderer::default(),
            size,
        }
    }

    /// The window's size in pixels.
    pub fn size(&self) -> [usize; 2] {
        self.size
    }

    /// The window's egui context (what it keeps between frames).
    pub fn ctx(&self) -> &egui::Context {
        &self.ctx
    }

    /// The pixels of texture `id` as the renderer holds them.
    pub fn texture(&self, id: egui::TextureId) -> Option<&egui::ColorImage> {
        self.renderer.texture(id)
    }

    /// Runs one frame of `app`.
    pub fn frame(&mut self, app: &mut NavlabApp) -> egui::FullOutput {
        let mut output = self.ctx.run_ui(self.input.clone(), |ui| app.frame_ui(ui));
        self.renderer.update_textures(&mut output.textures_delta);
        output
    }

    /// Runs two frames of `app` (the layout settles) and draws the second.
    pub fn picture(&mut self, app: &mut NavlabApp) -> egui::ColorImage {
        self.frame(app);
        let output = self.frame(app);
        let primitives = self.ctx.tessellate(output.shapes, output.pixels_per_point);
        let background = self.ctx.global_style().visuals.panel_fill;
        self.renderer
            .render(&primitives, self.size, 1.0, background)
    }
}

/// A window with no file dialogs and no saved settings, set up as `launch` says, its
/// background work done: what a screenshot or an animation draws. Warnings (options that
/// could not apply) go to `warn`; a file that did not open is the error.
pub fn launched_app(launch: &Launch, warn: &mut dyn FnMut(&str)) -> Result<NavlabApp, String> {
    let dialogs = ScriptedDialogs {
        no_dialog: true,
        ..Default::default()
    };
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(dialogs));
    let report = app.apply_launch(launch);
    for warning in &report.warnings {
        warn(warning);
    }
    if let Some(message) = report.open_failed {
        return Err(format!("could not open {message}"));
    }
    app.scenes.navmesh.wait_for_query();
    app.scenes.tile_map.wait_for_search();
    Ok(app)
}

/// The theme a picture is drawn in: the one asked for, else dark (the same on every machine,
/// whatever the desktop prefers).
pub fn picture_theme(launch: &Launch) -> egui::ThemePreference {
    launch.theme.unwrap_or(egui::ThemePreference::Dark)
}
