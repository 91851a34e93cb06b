//! Pan and zoom: the mapping between world coordinates (the mesh's plane) and screen points.
//! World x goes right and world z (or y) goes down, as seen from above a Y-up level.

use crate::geom::Vec2;
use crate::navmesh::Bounds;
use egui::{Pos2, Rect, pos2};
use serde::{Deserialize, Serialize};

/// The least and the most screen points per world unit the camera zooms to.
pub const SCALE_RANGE: (f64, f64) = (1e-6, 1e9);

/// What part of the world the canvas shows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// World point at the canvas centre.
    pub center: [f64; 2],
    /// Screen points per world unit.
    pub scale: f64,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            center: [0.0, 0.0],
            scale: 20.0,
        }
    }
}

/// The camera applied to one canvas rectangle, for one frame.
#[derive(Debug, Clone, Copy)]
pub struct View {
    /// The camera.
    pub camera: Camera,
    /// The canvas on screen.
    pub rect: Rect,
}

impl View {
    /// Screen position of a world point.
    pub fn screen_from_world(&self, p: Vec2) -> Pos2 {
        let c = self.rect.center();
        pos2(
            c.x + ((p.x - self.camera.center[0]) * self.camera.scale) as f32,
            c.y + ((p.y - self.camera.center[1]) * self.camera.scale) as f32,
        )
    }

    /// World point under a screen position.
    pub fn world_from_screen(&self, p: Pos2) -> Vec2 {
        let c = self.rect.center();
        Vec2::new(
            self.camera.center[0] + f64::from(p.x - c.x) / self.camera.scale,
            self.camera.center[1] + f64::from(p.y - c.y) / self.camera.scale,
        )
    }

    /// The world rectangle visible on the canvas.
    pub fn visible_world(&self) -> Bounds {
        let a = self.world_from_screen(self.rect.min);
        let b = self.world_from_screen(self.rect.max);
        Bounds {
            min: Vec2::new(a.x.min(b.x), a.y.min(b.y)),
            max: Vec2::new(a.x.max(b.x), a.y.max(b.y)),
        }
    }
}

impl Camera {
    /// A camera showing `bounds` whole in `rect`, with a margin.
    pub fn fit(bounds: Bounds, rect: Rect) -> Self {
        let w = (bounds.max.x - bounds.min.x).max(1e-9);
        let h = (bounds.max.y - bounds.min.y).max(1e-9);
        let scale = (f64::from(rect.width()) / w)
            .min(f64::from(rect.height()) / h)
            .max(1e-9)
            * 0.92;
        Self {
            center: [
                (bounds.min.x + bounds.max.x) / 2.0,
                (bounds.min.y + bounds.max.y) / 2.0,
            ],
            scale: if scale.is_finite() { scale } else { 1.0 },
        }
    }

    /// Like [`fit`](Self::fit), in the part of `rect` below the caption line painted at its
    /// top (see [`paint_caption`]), so that the caption does not cover the content's top
    /// edge; a canvas too short to spare the room is fitted whole.
    pub fn fit_below_caption(bounds: Bounds, rect: Rect) -> Self {
        if rect.height() < 4.0 * CAPTION_ROOM {
            return Self::fit(bounds, rect);
        }
        let below = Rect::from_min_max(pos2(rect.left(), rect.top() + CAPTION_ROOM), rect.max);
        let mut camera = Self::fit(bounds, below);
        // `center` is the world point at the middle of the whole canvas.
        camera.center[1] -= f64::from(below.center().y - rect.center().y) / camera.scale;
        camera
    }

    /// Moves the view by a screen-space drag.
    pub fn pan(&mut self, screen_delta: egui::Vec2) {
        self.center[0] -= f64::from(screen_delta.x) / self.scale;
        self.center[1] -= f64::from(screen_delta.y) / self.scale;
    }

    /// Zooms by `factor`, keeping the world point under `anchor` where it is on screen.
    pub fn zoom_at(&mut self, factor: f64, anchor: Pos2, rect: Rect) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
        let before = View {
            camera: *self,
            rect,
        }
        .world_from_screen(anchor);
        self.scale = (self.scale * factor).clamp(SCALE_RANGE.0, SCALE_RANGE.1);
        let after = View {
            camera: *self,
            rect,
        }
        .world_from_screen(anchor);
        self.center[0] += before.x - after.x;
        self.center[1] += before.y - after.y;
    }
}

/// The camera of one canvas. It shows the whole content, refitted whenever the canvas changes
/// size (a panel opens, the window is resized), until the user pans or zooms; from then on it
/// stays where the user put it until the next fit (F, or new content).
#[derive(Debug, Clone, Copy, Default)]
pub struct CanvasCamera {
    camera: Option<Camera>,
    /// The canvas the camera was fitted to, while it is still that fit.
    fitted_to: Option<Rect>,
}

impl CanvasCamera {
    /// The camera of the last frame, if one was drawn.
    pub fn get(&self) -> Option<Camera> {
        self.camera
    }

    /// True while the camera shows the whole content as fitted (not moved by the user or set).
    pub fn is_fitted(&self) -> bool {
        self.camera.is_none() || self.fitted_to.is_some()
    }

    /// Shows the whole content again on the next frame.
    pub fn fit_next_frame(&mut self) {
        *self = Self::default();
    }

    /// The camera for this frame's canvas `rect`: the fit of `bounds` unless the user moved it.
    pub fn for_canvas(&mut self, bounds: Bounds, rect: Rect) -> Camera {
        match self.camera {
            Some(camera) if self.fitted_to.is_none_or(|fitted| fitted == rect) => camera,
            _ => {
                let camera = Camera::fit_below_caption(bounds, rect);
                self.camera = Some(camera);
                self.fitted_to = Some(rect);
                camera
            }
        }
    }

    /// Puts the camera where the caller says; it stays there.
    pub fn set(&mut self, camera: Camera) {
        self.camera = Some(camera);
        self.fitted_to = None;
    }

    /// Moves the view by a screen-space drag.
    pub fn pan(&mut self, screen_delta: egui::Vec2) {
        if let Some(camera) = &mut self.camera
            && screen_delta != egui::Vec2::ZERO
        {
            camera.pan(screen_delta);
            self.fitted_to = None;
        }
    }

    /// Zooms at the pointer by the wheel or pinch of this frame, when `response` is hovered.
    pub fn zoom_with_wheel(&mut self, ui: &egui::Ui, response: &egui::Response) {
        if let Some(camera) = &mut self.camera
            && zoom_with_wheel(ui, response, camera)
        {
            self.fitted_to = None;
        }
    }
}

/// Zooms `camera` at the pointer by the wheel or pinch of this frame, when `response` is
/// hovered; true when it zoomed.
fn zoom_with_wheel(ui: &egui::Ui, response: &egui::Response, camera: &mut Camera) -> bool {
    if !response.hovered() {
        return false;
    }
    let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta().y, i.zoom_delta()));
    let factor = f64::from(zoom) * (f64::from(scroll) * 0.002).exp();
    if (factor - 1.0).abs() > 1e-6
        && let Some(anchor) = response.hover_pos()
    {
        camera.zoom_at(factor, anchor, response.rect);
        return true;
    }
    false
}

/// A short label whose bottom-left corner is at `at`, on a dark plate so that it stays
/// readable over what is drawn under it.
pub fn paint_tag(painter: &egui::Painter, at: Pos2, text: String, color: egui::Color32) {
    let galley = painter.layout_no_wrap(text, egui::FontId::proportional(13.0), color);
    let rect = egui::Align2::LEFT_BOTTOM.anchor_size(at, galley.size());
    painter.rect_filled(rect.expand(2.0), 3.0, egui::Color32::from_black_alpha(190));
    painter.galley(rect.min, galley, color);
}

/// The most lines a caption takes; a longer sentence is cut with "…" (the step list has it
/// whole).
const CAPTION_ROWS: usize = 2;

/// Height kept free for the caption when a view is fitted: its margin, plate and
/// [`CAPTION_ROWS`] lines.
const CAPTION_ROOM: f32 = 58.0;

/// Paints an explanation (at most `CAPTION_ROWS` lines) in a dark box at the canvas's
/// top-left corner; returns the box.
pub fn paint_caption(painter: &egui::Painter, rect: Rect, text: String) -> Rect {
    let mut job = egui::text::LayoutJob::simple(
        text,
        egui::FontId::proportional(15.0),
        egui::Color32::WHITE,
        (rect.width() - 30.0).max(50.0),
    );
    job.wrap.max_rows = CAPTION_ROWS;
    job.wrap.overflow_character = Some('…');
    let galley = painter.layout_job(job);
    let at = pos2(rect.left() + 10.0, rect.top() + 10.0);
    let plate = Rect::from_min_size(at, galley.size()).expand(6.0);
    painter.rect_filled(plate, 4.0, egui::Color32::from_black_alpha(170));
    painter.galley(at, galley, egui::Color32::WHITE);
    plate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_and_world_round_trip_and_zoom_keeps_the_anchor() {
        let rect = Rect::from_min_size(pos2(10.0, 20.0), egui::vec2(400.0, 300.0));
        let bounds = Bounds {
            min: Vec2::new(-5.0, 0.0),
            max: Vec2::new(15.0, 10.0),
        };
        let mut camera = Camera::fit(bounds, rect);
        let view = View { camera, rect };
        let p = Vec2::new(3.0, 7.0);
        let back = view.world_from_screen(view.screen_from_world(p));
        assert!((back.x - p.x).abs() < 1e-4 && (back.y - p.y).abs() < 1e-4);
        let anchor = pos2(100.0, 100.0);
        let under = view.world_from_screen(anchor);
        camera.zoom_at(2.5, anchor, rect);
        let still = View { camera, rect }.world_from_screen(anchor);
        assert!((still.x - under.x).abs() < 1e-6 && (still.y - under.y).abs() < 1e-6);
    }

    #[test]
    fn canvas_camera_refits_to_a_new_canvas_until_the_user_moves_it() {
        let bounds = Bounds {
            min: Vec2::new(0.0, 0.0),
            max: Vec2::new(100.0, 100.0),
        };
        let tall = Rect::from_min_size(pos2(0.0, 0.0), egui::vec2(600.0, 700.0));
        let short = Rect::from_min_size(pos2(0.0, 0.0), egui::vec2(600.0, 300.0));
        let shows_all = |camera: Camera, rect: Rect| {
            let seen = View { camera, rect }.visible_world();
            seen.min.x <= 0.0 && seen.min.y <= 0.0 && seen.max.x >= 100.0 && seen.max.y >= 100.0
        };
        let mut canvas = CanvasCamera::default();
        assert!(canvas.get().is_none());
        let first = canvas.for_canvas(bounds, tall);
        assert!(shows_all(first, tall));
        assert!(
            !shows_all(first, short),
            "the tall fit does not fit the short canvas"
        );
        let refit = canvas.for_canvas(bounds, short);
        assert!(shows_all(refit, short), "a new canvas size refits");

        canvas.pan(egui::vec2(0.0, 0.0));
        assert_eq!(
            canvas.for_canvas(bounds, tall).scale,
            first.scale,
            "no move, still a fit"
        );
        canvas.pan(egui::vec2(15.0, 0.0));
        let moved = canvas.get().expect("drawn");
        assert_eq!(
            canvas.for_canvas(bounds, short),
            moved,
            "the user's view stays"
        );
        canvas.set(first);
        assert_eq!(
            canvas.for_canvas(bounds, short),
            first,
            "a placed view stays"
        );
        canvas.fit_next_frame();
        assert!(shows_all(canvas.for_canvas(bounds, short), short));
    }

    #[test]
    fn a_fitted_view_leaves_the_caption_line_free() {
        let bounds = Bounds {
            min: Vec2::new(-3.0, 10.0),
            max: Vec2::new(40.0, 30.0),
        };
        for size in [
            egui::vec2(600.0, 400.0),
            egui::vec2(300.0, 700.0),
            egui::vec2(900.0, 300.0),
        ] {
            let rect = Rect::from_min_size(pos2(50.0, 20.0), size);
            let view = View {
                camera: Camera::fit_below_caption(bounds, rect),
                rect,
            };
            let top_left = view.screen_from_world(bounds.min);
            let bottom_right = view.screen_from_world(bounds.max);
            assert!(top_left.y >= rect.top() + CAPTION_ROOM - 1e-3, "{size:?}");
            assert!(top_left.x >= rect.left() && bottom_right.x <= rect.right());
            assert!(bottom_right.y <= rect.bottom(), "{size:?}");
        }
    }

    #[test]
    fn a_long_caption_stays_within_the_room_a_fit_leaves_it() {
        let ctx = egui::Context::default();
        let mut plates = Vec::new();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            let painter = ui.painter();
            for width in [200.0, 420.0, 900.0] {
                let rect = Rect::from_min_size(pos2(0.0, 0.0), egui::vec2(width, 600.0));
                let short = paint_caption(painter, rect, "ready".to_string());
                let long = paint_caption(painter, rect, "a step explained at length ".repeat(20));
                plates.push((rect, short, long));
            }
        });
        // No renderer takes the font atlas here.
        output.textures_delta.clear();
        for (rect, short, long) in plates {
            assert!(long.height() > short.height() * 1.5, "wraps: {long:?}");
            assert!(
                long.bottom() <= rect.top() + CAPTION_ROOM,
                "{long:?} in {rect:?}"
            );
            assert!(long.right() <= rect.right(), "{long:?} in {rect:?}");
        }
    }
}
