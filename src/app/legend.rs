//! The legend drawn at a canvas's bottom left: a swatch and a few words per colour or mark the
//! canvas shows, in every scene; the help lists the same rows.

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
}

impl LegendRow {
    /// A filled swatch.
    pub fn fill(fill: Color32, text: impl Into<String>) -> Self {
        Self {
            fill,
            stroke: Stroke::NONE,
            dashed: false,
            text: text.into(),
        }
    }

    /// A line (a path, a ray): an outline with no fill.
    pub fn line(colour: Color32, width: f32, text: impl Into<String>) -> Self {
        Self {
            fill: Color32::TRANSPARENT,
            stroke: Stroke::new(width, colour),
            dashed: false,
            text: text.into(),
        }
    }

    /// The same row with a dashed outline.
    pub fn dashed(mut self) -> Self {
        self.dashed = true;
        self
    }
}

/// Paints `rows` on a dark plate at the bottom left of `rect` (the caption has the top).
pub fn paint_legend(painter: &egui::Painter, rect: egui::Rect, rows: &[LegendRow]) {
    if rows.is_empty() {
        return;
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
    let plate = egui::Rect::from_min_size(pos2(rect.min.x + 8.0, rect.max.y - 8.0 - size.y), size);
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
}

/// One row's swatch in `swatch`.
pub fn paint_swatch(painter: &egui::Painter, swatch: egui::Rect, row: &LegendRow) {
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
