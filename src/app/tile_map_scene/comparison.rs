//! The tile-map lab's comparison: every algorithm run on the map, start and goal (on a worker
//! thread), and its table and charts.

use super::TileMapScene;
use crate::app::chart_marks;
use crate::grid::compare::{
    ComparisonRow, compare_algorithms, comparison_table_text, outcome_word,
};
use crate::grid::{Cell, Connectivity, GridAlgorithm, TileMap};
use egui::{Color32, Ui};
use std::sync::Arc;

/// The comparison charts' bar colours, one per row of the table in its order (BFS, Dijkstra,
/// A*, IDA*, Fringe, JPS, best-first), as on dark panels.
pub(crate) const BAR_COLOURS: [Color32; 11] = [
    Color32::from_rgb(150, 150, 160),
    Color32::from_rgb(90, 150, 220),
    Color32::from_rgb(240, 150, 60),
    Color32::from_rgb(200, 90, 200),
    Color32::from_rgb(90, 200, 120),
    Color32::from_rgb(60, 200, 210),
    Color32::from_rgb(40, 150, 150),
    Color32::from_rgb(230, 110, 120),
    Color32::from_rgb(160, 200, 90),
    Color32::from_rgb(230, 210, 80),
    Color32::from_rgb(120, 130, 240),
];

/// A row's name as short as the charts' axis has room for (the bar's tooltip gives it whole):
/// the axis leaves out a name wider than the space between bars.
fn axis_name(name: &'static str) -> &'static str {
    match name {
        "Dijkstra" => "Dijk.",
        "Best-first" => "GBFS",
        "Fringe" => "FS",
        "Bidirectional A*" => "BiA*",
        "Theta*" => "θ*",
        "D* Lite" => "D*L",
        name if name.starts_with("JPS+") => "JPS+",
        name if name.starts_with("JPS") => "JPS",
        name => name,
    }
}

/// Everything a comparison needs, owned, so it can run on another thread.
pub(super) struct ComparisonJob {
    pub(super) map: Arc<TileMap>,
    pub(super) start: Cell,
    pub(super) goal: Cell,
    pub(super) connectivity: Connectivity,
    pub(super) algorithms: Vec<GridAlgorithm>,
}

/// Runs the comparison of `job` (on the worker thread, or here when there is none).
pub(super) fn comparison_rows(job: &ComparisonJob) -> Vec<ComparisonRow> {
    compare_algorithms(
        &job.map,
        job.start,
        job.goal,
        &job.algorithms,
        job.connectivity,
        crate::grid::search::DEFAULT_WORK_LIMIT,
    )
}

impl TileMapScene {
    /// The comparison table and charts, the charts no taller than keeps the whole within
    /// `height` (but readable).
    pub fn comparison_ui(&mut self, ui: &mut Ui, height: f32) {
        let top = ui.cursor().top();
        ui.horizontal(|ui| {
            ui.heading("Comparison");
            let running = self.is_comparing();
            if ui
                .add_enabled(!running, egui::Button::new("Compare all"))
                .on_hover_text(
                    "Run every algorithm on this map, start and goal (C); time is measured on runs that record nothing",
                )
                .clicked()
            {
                self.compare_in_background();
            }
            if running {
                ui.spinner();
                ui.label("comparing…");
            }
            if let Some(rows) = &self.comparison
                && ui
                    .button("Copy table")
                    .on_hover_text(
                        "Copy the table, tab-separated (it pastes into a spreadsheet), with full precision",
                    )
                    .clicked()
            {
                ui.ctx().copy_text(comparison_table_text(rows));
            }
            let (label, tip) = if self.settings.comparison_hidden {
                ("Show", "Show the table and charts")
            } else {
                (
                    "Hide",
                    "Hide the table and charts, giving the map and the steps the room (Compare all shows them again)",
                )
            };
            if ui.button(label).on_hover_text(tip).clicked() {
                self.settings.comparison_hidden = !self.settings.comparison_hidden;
            }
        });
        if self.settings.comparison_hidden {
            return;
        }
        let Some(rows) = &self.comparison else {
            ui.label(
                "Press Compare all (or C) to run every algorithm on this map, start and goal.",
            );
            return;
        };
        // The table on the left, the charts beside it (under it, the rows pushed them off a
        // window of ordinary height).
        let room = height - (ui.cursor().top() - top);
        ui.horizontal_top(|ui| {
            let table_height = ui
                .vertical(|ui| self.comparison_table_ui(ui, rows))
                .response
                .rect
                .height();
            ui.separator();
            ui.vertical(|ui| comparison_charts_ui(ui, rows, table_height, room));
        });
    }

    /// The comparison's table: a row per algorithm.
    fn comparison_table_ui(&self, ui: &mut Ui, rows: &[ComparisonRow]) {
        egui::Grid::new("comparison")
            .striped(true)
            .num_columns(8)
            .show(ui, |ui| {
                for (heading, tip) in [
                    ("Algorithm", "Each algorithm with the options chosen above"),
                    (
                        "Cost",
                        "Cost of the path found (Theta*: its length, and how much longer it is than the shortest path at any angle, the visibility graph's)",
                    ),
                    (
                        "Expanded",
                        "Cells whose neighbours were examined (IDA* counts every re-expansion)",
                    ),
                    (
                        "Passes",
                        "IDA* and Fringe: how many times the threshold was set (the first pass included)",
                    ),
                    (
                        "Put off",
                        "What waited for a later pass because its f was above the threshold: Fringe's list entries moved to the later list, IDA*'s children cut off (found again by the next pass from the start). Each is a visit that expands nothing",
                    ),
                    (
                        "Peak memory",
                        "Most cells held at once: open + closed, now + later, or IDA*'s stack",
                    ),
                    ("Time (µs)", "Per run, measured on runs that record nothing"),
                    ("Status", "How the search ended"),
                ] {
                    ui.strong(heading).on_hover_text(tip);
                }
                ui.end_row();
                use crate::words::{thousands, thousands_decimal};
                let count = |n: Option<usize>| n.map_or_else(|| "—".to_string(), thousands);
                for r in rows {
                    ui.label(r.name);
                    ui.label(match (r.cost.is_finite(), r.over_exact) {
                        (false, _) => "—".into(),
                        (true, Some(gap)) => format!("{:.3} (+{:.1} %)", r.cost, 100.0 * gap),
                        (true, None) => format!("{:.3}", r.cost),
                    });
                    ui.label(thousands(r.expanded));
                    ui.label(count(r.passes));
                    ui.label(count(r.deferred));
                    ui.label(thousands(r.peak_memory));
                    ui.label(thousands_decimal(r.micros, 1));
                    ui.label(outcome_word(r.outcome));
                    ui.end_row();
                }
            });
    }
}

/// The comparison's four charts, two by two, as tall together as the table beside them
/// (`beside`, at least readable) and no taller than `room`.
fn comparison_charts_ui(ui: &mut Ui, rows: &[ComparisonRow], beside: f32, room: f32) {
    type Measure = fn(&ComparisonRow) -> f64;
    // IDA* can expand a hundred thousand times more than the others: counts and times are
    // drawn on a log scale so every bar stays visible.
    let charts: [(&str, Measure, bool); 4] = [
        ("Cells expanded (log)", |r| r.expanded as f64, true),
        ("Peak memory, nodes (log)", |r| r.peak_memory as f64, true),
        ("Time, µs (log)", |r| r.micros, true),
        (
            "Path cost",
            |r| if r.cost.is_finite() { r.cost } else { 0.0 },
            false,
        ),
    ];
    // Darkened on light panels, where the grey and the green were too faint to see.
    let colours = BAR_COLOURS.map(|c| crate::app::ink::on_panel(ui.visuals(), c));
    let names: Vec<&'static str> = rows.iter().map(|r| axis_name(r.name)).collect();
    // Each of two rows of charts: half the height, less a title and an axis's names.
    let chart_height = ((beside.min(room) / 2.0) - 45.0).clamp(50.0, 130.0);
    for pair in charts.chunks(2) {
        ui.columns(2, |columns| {
            for (column, &(title, value, log)) in columns.iter_mut().zip(pair) {
                column.label(title);
                let names = names.clone();
                // Algorithm names under the bars rather than a legend, which would cover them.
                let mut plot = egui_plot::Plot::new(format!("compare_{title}"))
                    .height(chart_height)
                    .allow_scroll(false)
                    .allow_zoom(false)
                    .allow_drag(false)
                    .show_x(false)
                    .show_y(false)
                    .show_grid([false, true])
                    .x_grid_spacer(|input| chart_marks::integer_marks(input.bounds, 1.0))
                    .custom_x_axes(vec![
                        egui_plot::AxisHints::new_x()
                            .label_spacing(20.0..=30.0)
                            .tick_label_font(egui::FontId::proportional(10.0))
                            .formatter(move |mark, _| {
                                let i = mark.value.round();
                                if (mark.value - i).abs() > 1e-6 || i < 0.0 {
                                    return String::new();
                                }
                                names
                                    .get(i as usize)
                                    .map_or(String::new(), |n| n.to_string())
                            }),
                    ]);
                // One step of marks, each far enough from the next to be labelled in full
                // (`base_step_size` is then that distance in values): egui_plot's own marks are
                // powers of ten, too dense to label on a short chart, with the next ones up off
                // it, which left axes bare.
                plot = plot.grid_spacing(chart_marks::MARK_SPACING..=300.0);
                if log {
                    plot = plot
                        .y_grid_spacer(|input| chart_marks::whole_power_marks(&input))
                        .y_axis_formatter(|mark, _| chart_marks::power_of_ten_label(mark.value));
                } else {
                    plot = plot.y_grid_spacer(|input| chart_marks::round_marks(&input, 30.0));
                }
                plot.show(column, |plot| {
                    for (i, r) in rows.iter().enumerate() {
                        let v = value(r);
                        let height = if log { (v.max(0.0) + 1.0).log10() } else { v };
                        let shown = if v.fract() == 0.0 {
                            format!("{}: {v:.0}", r.name)
                        } else {
                            format!("{}: {v:.1}", r.name)
                        };
                        let bar = egui_plot::Bar::new(i as f64, height).width(0.7);
                        plot.bar_chart(
                            egui_plot::BarChart::new(r.name, vec![bar])
                                .color(colours[i % colours.len()])
                                .element_formatter(Box::new(move |_, _| shown.clone())),
                        );
                    }
                });
            }
        });
    }
}
