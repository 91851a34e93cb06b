//! The cross-section: the level's vertical slice along a line dragged across it. The spans of
//! the cells under the line as bars (their tops green where walkable at the stage shown, red
//! where a filter dropped them), the steps between neighbouring floors marked against the climb,
//! and the agent drawn to scale — its height and its width — standing on the floor.

use super::LevelScene;
use super::canvas::{SECTION, SOLID};
use crate::geom::Vec2;
use crate::level::Stage;
use egui::{Color32, Pos2, Rect, Sense, Stroke, Ui, pos2, vec2};

/// A walkable top.
const WALKABLE_TOP: Color32 = Color32::from_rgb(90, 220, 120);
/// A top dropped at or before the stage shown.
const DROPPED_TOP: Color32 = Color32::from_rgb(240, 80, 60);
/// A step the agent climbs.
const STEP_OK: Color32 = Color32::from_rgb(140, 200, 255);
/// The agent.
const AGENT: Color32 = Color32::from_rgb(255, 255, 255);

/// The strip's height.
const SECTION_HEIGHT: f32 = 170.0;

/// The most samples along a line.
const MAX_SAMPLES: usize = 2_000;

/// One sample along the line: how far along, and the spans of its cell (bottom, top, top walkable
/// at the stage shown, top dropped by then).
struct Sample {
    along: f64,
    spans: Vec<(f64, f64, bool, bool)>,
}

/// The strip with `text` in place of a slice: as tall as a slice, so that the canvas does not
/// move when one is drawn.
fn placeholder(ui: &mut Ui, text: &str) {
    ui.label(RichText::new("Cross-section").small());
    let (rect, _) =
        ui.allocate_exact_size(vec2(ui.available_width(), SECTION_HEIGHT), Sense::hover());
    ui.painter().text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        text,
        egui::FontId::proportional(14.0),
        Color32::GRAY,
    );
}

impl LevelScene {
    /// The slice along the section's line, in a strip under the canvas.
    pub(super) fn section_ui(&mut self, ui: &mut Ui) {
        let (Some([a, b]), Some(built)) = (self.section, self.built.clone()) else {
            placeholder(
                ui,
                "Drag a line across the level: its vertical slice is drawn here.",
            );
            return;
        };
        let record = &built.record;
        let settings = &built.settings;
        let length = (b - a).length();
        let step = (record.cell_size / 2.0).max(length / MAX_SAMPLES as f64);
        let count = ((length / step).ceil() as usize).clamp(1, MAX_SAMPLES);
        let stage = self.stage();
        let filter = match stage {
            None | Some(Stage::Triangles | Stage::Rasterised) => 0,
            Some(Stage::LowHangingObstacles) => 1,
            Some(Stage::Ledges) => 2,
            _ => 3,
        };
        let eroded_too = stage.is_some_and(|s| s.index() >= Stage::Erosion.index());
        let samples: Vec<Sample> = (0..=count)
            .map(|i| {
                let along = length * i as f64 / count as f64;
                let p = a + (b - a) * (along / length.max(1e-12));
                let spans = record.cell_at(p.x, p.y).map_or_else(Vec::new, |(x, z)| {
                    record
                        .spans_of(x, z)
                        .map(|(_, s)| {
                            let mut walkable = s.walkable[filter];
                            if walkable && eroded_too {
                                walkable = record
                                    .compact_of(x, z)
                                    .any(|(_, c)| c.y == s.max && c.kept_by_erosion);
                            }
                            let dropped =
                                !walkable && s.walkable.iter().take(filter + 1).any(|&w| w);
                            (
                                record.world_y(s.min),
                                record.world_y(s.max),
                                walkable,
                                dropped || (!walkable && eroded_too && s.walkable[3]),
                            )
                        })
                        .collect()
                });
                Sample { along, spans }
            })
            .collect();
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for sample in &samples {
            for &(bottom, top, _, _) in &sample.spans {
                low = low.min(bottom);
                high = high.max(top);
            }
        }
        if low > high {
            placeholder(ui, "The line crosses no part of the level.");
            return;
        }
        high += settings.agent_height;
        ui.label(RichText::new(format!(
            "Cross-section, {length:.2} long: spans as bars, walkable tops green, dropped tops red, steps higher than the climb ({}) marked red, the agent ({} tall, {} across) at scale",
            settings.agent_max_climb,
            settings.agent_height,
            2.0 * settings.agent_radius
        )).small());
        let (response, painter) =
            ui.allocate_painter(vec2(ui.available_width(), SECTION_HEIGHT), Sense::hover());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Cross-section"));
        let rect = response.rect.shrink2(vec2(34.0, 10.0));
        painter.rect_filled(response.rect, 0.0, Color32::from_rgb(18, 20, 24));
        let sx = f64::from(rect.width()) / length.max(1e-9);
        let sy = f64::from(rect.height()) / (high - low).max(1e-9);
        let to_screen = |along: f64, y: f64| {
            pos2(
                rect.left() + (along * sx) as f32,
                rect.bottom() - ((y - low) * sy) as f32,
            )
        };
        let half = (step / 2.0 * sx) as f32;
        for sample in &samples {
            for &(bottom, top, walkable, dropped) in &sample.spans {
                let top_left = to_screen(sample.along, top) - vec2(half, 0.0);
                let bottom_right = to_screen(sample.along, bottom) + vec2(half, 0.0);
                let bar = Rect::from_min_max(top_left, bottom_right + vec2(0.0, 1.0));
                painter.rect_filled(bar, 0.0, SOLID);
                let cap = match (walkable, dropped) {
                    (true, _) => Some(WALKABLE_TOP),
                    (false, true) => Some(DROPPED_TOP),
                    _ => None,
                };
                if let Some(colour) = cap {
                    painter.line_segment(
                        [top_left, top_left + vec2(2.0 * half, 0.0)],
                        Stroke::new(3.0, colour),
                    );
                }
            }
        }
        // Steps between neighbouring walkable floors: the floor nearest the previous one.
        let mut previous: Option<(f64, f64)> = None;
        for sample in &samples {
            let floors: Vec<f64> = sample
                .spans
                .iter()
                .filter(|s| s.2 || s.3)
                .map(|s| s.1)
                .collect();
            let floor = match previous {
                Some((_, y)) => floors
                    .iter()
                    .copied()
                    .min_by(|p, q| (p - y).abs().total_cmp(&(q - y).abs())),
                None => floors.last().copied(),
            };
            if let (Some((along, before)), Some(now)) = (previous, floor) {
                let rise = now - before;
                if rise.abs() > 1e-9 && rise.abs() <= settings.agent_height {
                    let colour = if rise.abs() <= settings.agent_max_climb + 1e-9 {
                        STEP_OK
                    } else {
                        DROPPED_TOP
                    };
                    let x = (along + sample.along) / 2.0;
                    painter.line_segment(
                        [to_screen(x, before), to_screen(x, now)],
                        Stroke::new(2.0, colour),
                    );
                    if colour == DROPPED_TOP {
                        painter.text(
                            to_screen(x, before.max(now)) + vec2(3.0, -2.0),
                            egui::Align2::LEFT_BOTTOM,
                            format!("step {:.2}", rise.abs()),
                            egui::FontId::proportional(11.0),
                            DROPPED_TOP,
                        );
                    }
                }
            }
            previous = floor.map(|y| (sample.along, y)).or(previous);
        }
        // The agent, where the asked point is when it is on the line (or halfway).
        let asked = self.why.as_ref().and_then(|why| {
            let p = Vec2::new(why.at[0], why.at[1]);
            let t = ((p - a).dot(b - a) / (length * length).max(1e-12)).clamp(0.0, 1.0);
            let near = (a + (b - a) * t - p).length() <= record.cell_size;
            near.then_some((t * length, why.height))
        });
        let along = asked.map_or(length / 2.0, |(along, _)| along);
        let nearest = samples
            .iter()
            .min_by(|p, q| (p.along - along).abs().total_cmp(&(q.along - along).abs()));
        let asked_floor = asked.and_then(|(_, height)| height);
        if let Some(floor) = asked_floor.or_else(|| {
            nearest.and_then(|s| {
                s.spans
                    .iter()
                    .filter(|span| span.2)
                    .map(|span| span.1)
                    .next_back()
                    .or_else(|| s.spans.last().map(|span| span.1))
            })
        }) {
            let r = settings.agent_radius;
            let body = Rect::from_min_max(
                to_screen(along - r, floor + settings.agent_height),
                to_screen(along + r, floor),
            );
            painter.rect_stroke(body, 2.0, Stroke::new(1.5, AGENT), egui::StrokeKind::Middle);
            painter.text(
                body.center(),
                egui::Align2::CENTER_CENTER,
                "agent",
                egui::FontId::proportional(11.0),
                AGENT,
            );
        }
        // The axis: heights at the left.
        for y in [low, (low + high) / 2.0, high] {
            painter.text(
                Pos2::new(response.rect.left() + 2.0, to_screen(0.0, y).y),
                egui::Align2::LEFT_CENTER,
                format!("{y:.1}"),
                egui::FontId::proportional(10.0),
                Color32::GRAY,
            );
        }
        painter.line_segment(
            [
                rect.left_bottom() + vec2(0.0, 6.0),
                rect.right_bottom() + vec2(0.0, 6.0),
            ],
            Stroke::new(1.0, SECTION),
        );
    }
}

use egui::RichText;
