//! The legend drawn in a corner of a canvas, the one where it hides least: a swatch and a few
//! words per colour or mark the canvas shows, in every scene; the help lists the same rows.

use egui::{Color32, Stroke, pos2, vec2};

/// One row of a canvas legend.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendRow {
    /// The swatch's fill.
    pub fill: Color32,
    /// Its outline (none for a plain colour).
    pub stroke: Stroke,
    /// Whether the outline is dashed (an open door, a planned route).
    pub dashed: bool,
    /// What it stands for ("mud  × 3").
    pub text: String,
    /// Text drawn as the swatch (a label as the canvas draws it: "12", "#3").
    pub mark: Option<String>,
}

impl LegendRow {
    /// A filled swatch.
    pub fn fill(fill: Color32, text: impl Into<String>) -> Self {
        Self {
            fill,
            stroke: Stroke::NONE,
            dashed: false,
            text: text.into(),
            mark: None,
        }
    }

    /// A label as the canvas draws it (white on the plate), and what it means.
    pub fn label(mark: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            mark: Some(mark.into()),
            ..Self::fill(Color32::TRANSPARENT, text)
        }
    }

    /// A line (a path, a ray): an outline with no fill.
    pub fn line(colour: Color32, width: f32, text: impl Into<String>) -> Self {
        Self {
            fill: Color32::TRANSPARENT,
            stroke: Stroke::new(width, colour),
            dashed: false,
            text: text.into(),
            mark: None,
        }
    }

    /// The same row with a dashed outline.
    pub fn dashed(mut self) -> Self {
        self.dashed = true;
        self
    }
}

/// What a legend should leave in sight: marks that must stay visible (the start and goal,
/// the agents), rectangles already taken (the caption), lines worth seeing (the paths), and
/// how much each point of the canvas shows (0 nothing, more for what is being explained).
pub struct KeepClear<'a> {
    /// Points on screen a legend must not cover.
    pub marks: &'a [egui::Pos2],
    /// Rectangles on screen a legend must not overlap.
    pub taken: &'a [egui::Rect],
    /// Polylines on screen a legend should not cover (paths).
    pub lines: &'a [Vec<egui::Pos2>],
    /// How much a point on screen shows: 0 the background, 1 a plain mesh or map, more
    /// for what the view is explaining there.
    pub shows: &'a dyn Fn(egui::Pos2) -> u32,
}

/// The corners a legend may take, in the order preferred when they are equally good (the
/// caption has the top left).
const CORNERS: [egui::Align2; 3] = [
    egui::Align2::LEFT_BOTTOM,
    egui::Align2::RIGHT_BOTTOM,
    egui::Align2::RIGHT_TOP,
];

/// What hiding one sample point of a line costs, against one grid sample of weight 1.
const LINE_WEIGHT: usize = 12;

/// Paints `rows` on a dark plate in the corner of `rect` where it hides least of what
/// `keep` asks to keep in sight; returns the plate.
pub fn paint_legend(
    painter: &egui::Painter,
    rect: egui::Rect,
    rows: &[LegendRow],
    keep: &KeepClear<'_>,
) -> Option<egui::Rect> {
    if rows.is_empty() {
        return None;
    }
    let font = egui::FontId::proportional(13.0);
    let row_height = 18.0;
    let width = rows
        .iter()
        .map(|row| {
            painter
                .layout_no_wrap(row.text.clone(), font.clone(), Color32::WHITE)
                .size()
                .x
        })
        .fold(0.0, f32::max)
        + 40.0;
    let size = vec2(width, rows.len() as f32 * row_height + 8.0);
    let plate = legend_corner(rect, size, keep);
    painter.rect_filled(plate, 4.0, Color32::from_black_alpha(170));
    for (k, row) in rows.iter().enumerate() {
        let y = plate.min.y + 4.0 + k as f32 * row_height;
        let swatch = egui::Rect::from_min_size(pos2(plate.min.x + 6.0, y + 3.0), vec2(20.0, 12.0));
        paint_swatch(painter, swatch, row);
        painter.text(
            pos2(swatch.max.x + 8.0, y + row_height / 2.0),
            egui::Align2::LEFT_CENTER,
            &row.text,
            font.clone(),
            Color32::WHITE,
        );
    }
    Some(plate)
}

/// The plate of `size` in the corner of `rect` that covers no mark and no taken rectangle,
/// and the least of the lines and of what is shown (sampled on a grid); of equals, the first
/// of bottom left, bottom right and top right.
pub fn legend_corner(rect: egui::Rect, size: egui::Vec2, keep: &KeepClear<'_>) -> egui::Rect {
    let inner = rect.shrink(8.0);
    // A top corner under a taken rectangle (the caption) may go just below it instead.
    let plate_at = |corner: egui::Align2| {
        let plate = corner.align_size_within_rect(size, inner);
        let below = keep
            .taken
            .iter()
            .filter(|t| corner.y() == egui::Align::Min && t.intersects(plate))
            .map(|t| t.bottom() + 8.0)
            .fold(plate.top(), f32::max);
        let shifted = plate.translate(vec2(0.0, below - plate.top()));
        if shifted.bottom() <= inner.bottom() {
            shifted
        } else {
            plate
        }
    };
    let cost = |plate: egui::Rect| {
        // A mark near the edge of the plate is as hidden as one inside it.
        let around = plate.expand(10.0);
        let marks = keep.marks.iter().filter(|&&m| around.contains(m)).count();
        let taken = keep.taken.iter().filter(|t| t.intersects(plate)).count();
        let lines: usize = keep
            .lines
            .iter()
            .flat_map(|line| line.windows(2))
            .map(|pair| {
                let (a, b) = (pair[0], pair[1]);
                let samples = ((a.distance(b) / 8.0).ceil() as usize).clamp(1, 200);
                (0..=samples)
                    .filter(|&k| around.contains(a.lerp(b, k as f32 / samples as f32)))
                    .count()
            })
            .sum();
        let (nx, ny) = (12, 8);
        let shown: usize = (0..nx)
            .flat_map(|i| (0..ny).map(move |j| (i, j)))
            .map(|(i, j)| {
                let at = pos2(
                    plate.min.x + plate.width() * (i as f32 + 0.5) / nx as f32,
                    plate.min.y + plate.height() * (j as f32 + 0.5) / ny as f32,
                );
                (keep.shows)(at) as usize
            })
            .sum();
        (marks + taken) * 1_000 + lines * LINE_WEIGHT + shown
    };
    CORNERS
        .iter()
        .map(|&corner| plate_at(corner))
        .min_by_key(|&plate| cost(plate))
        .unwrap_or_else(|| plate_at(egui::Align2::LEFT_BOTTOM))
}

/// One row's swatch in `swatch`.
pub fn paint_swatch(painter: &egui::Painter, swatch: egui::Rect, row: &LegendRow) {
    if let Some(mark) = &row.mark {
        painter.text(
            swatch.center(),
            egui::Align2::CENTER_CENTER,
            mark,
            egui::FontId::proportional(11.0),
            Color32::WHITE,
        );
        return;
    }
    painter.rect_filled(swatch, 2.0, row.fill);
    if row.stroke == Stroke::NONE {
        return;
    }
    let corners = [
        swatch.left_top(),
        swatch.right_top(),
        swatch.right_bottom(),
        swatch.left_bottom(),
        swatch.left_top(),
    ];
    if row.fill == Color32::TRANSPARENT {
        // A line: drawn across the swatch.
        let across = [swatch.left_center(), swatch.right_center()];
        if row.dashed {
            painter.extend(egui::Shape::dashed_line(&across, row.stroke, 4.0, 3.0));
        } else {
            painter.line_segment(across, row.stroke);
        }
    } else if row.dashed {
        painter.extend(egui::Shape::dashed_line(&corners, row.stroke, 4.0, 3.0));
    } else {
        painter.add(egui::Shape::line(corners.to_vec(), row.stroke));
    }
}

/// Rows as a help window lists them: a small swatch and the words.
pub fn legend_rows_ui(ui: &mut egui::Ui, rows: &[LegendRow]) {
    for row in rows {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(vec2(20.0, 12.0), egui::Sense::hover());
            // The swatches are drawn for the canvas's dark background.
            ui.painter()
                .rect_filled(rect.expand(2.0), 2.0, Color32::from_rgb(24, 26, 31));
            paint_swatch(ui.painter(), rect, row);
            ui.label(&row.text);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canvas() -> egui::Rect {
        egui::Rect::from_min_size(pos2(0.0, 0.0), vec2(400.0, 300.0))
    }

    #[test]
    fn the_legend_takes_the_bottom_left_corner_when_nothing_is_there() {
        let keep = KeepClear {
            marks: &[],
            taken: &[],
            lines: &[],
            shows: &|_| 0,
        };
        let plate = legend_corner(canvas(), vec2(100.0, 60.0), &keep);
        assert_eq!(plate.left_bottom(), pos2(8.0, 292.0));
    }

    #[test]
    fn the_legend_moves_off_a_marker_and_off_what_is_shown() {
        let marks = [pos2(30.0, 270.0)];
        let keep = KeepClear {
            marks: &marks,
            taken: &[],
            lines: &[],
            shows: &|p: egui::Pos2| u32::from(p.x > 200.0 && p.y > 150.0),
        };
        let plate = legend_corner(canvas(), vec2(100.0, 60.0), &keep);
        assert_eq!(
            plate.right_top(),
            pos2(392.0, 8.0),
            "bottom left has the start, bottom right the map"
        );
        let caption = [egui::Rect::from_min_max(pos2(0.0, 0.0), pos2(400.0, 40.0))];
        let keep = KeepClear {
            marks: &marks,
            taken: &caption,
            lines: &[],
            shows: &|p: egui::Pos2| u32::from(p.x > 200.0 && p.y > 150.0),
        };
        let plate = legend_corner(canvas(), vec2(100.0, 60.0), &keep);
        assert_eq!(
            plate.right_top(),
            pos2(392.0, 48.0),
            "just below the caption"
        );
    }
}
