//! The Diagnostics tab's corridor check: how much longer corridor paths are than the shortest
//! over random pairs on the whole mesh (as `navlab quality` measures), the worst pairs to open,
//! and a heat map of where the worst detours start.

use crate::app::latest_worker::LatestWorker;
use crate::geom::Vec2;
use crate::navmesh::quality::{QualityOptions, QualityReport, measure};
use crate::navmesh::{CostModel, NavMesh};
use egui::{Color32, Ui};
use std::sync::Arc;

/// Meshes with at least this many triangles are measured on a worker thread.
const MEASURE_IN_BACKGROUND_FROM: usize = 5_000;

/// How many of the worst pairs the tab lists.
const WORST_LISTED: usize = 10;

/// The heat map's bands: a start triangle takes the colour of the worst detour starting there.
pub const HEAT_BANDS: [(f64, Color32, &str); 4] = [
    (0.0, Color32::from_rgb(60, 110, 70), "detour under 1 %"),
    (0.01, Color32::from_rgb(200, 190, 60), "1 – 5 %"),
    (0.05, Color32::from_rgb(235, 130, 40), "5 – 10 %"),
    (0.10, Color32::from_rgb(230, 50, 50), "10 % or more"),
];

/// The colour of a start triangle whose worst detour is `excess` (a fraction).
pub fn heat_colour(excess: f64) -> Color32 {
    HEAT_BANDS
        .iter()
        .rev()
        .find(|(from, _, _)| excess >= *from)
        .map_or(HEAT_BANDS[0].1, |band| band.1)
}

/// The job a worker runs.
type Job = (Arc<NavMesh>, QualityOptions);

/// The corridor check's state for the current mesh.
#[derive(Debug)]
pub struct CorridorQuality {
    /// The last report, and the options it was measured with.
    pub report: Option<(QualityReport, QualityOptions)>,
    /// The worst detour starting in each triangle, from `report`.
    heat: Vec<Option<f64>>,
    /// Colour the start triangles by their worst detour.
    pub show_heat: bool,
    /// How many random pairs to measure.
    pub queries: usize,
    worker: LatestWorker<Job, QualityReport>,
    /// The options of the job on the worker.
    asked: Option<QualityOptions>,
    /// Bumped when the mesh changes: a measurement of an older one is dropped.
    generation: u64,
}

impl Default for CorridorQuality {
    fn default() -> Self {
        Self {
            report: None,
            heat: Vec::new(),
            show_heat: true,
            queries: 200,
            worker: LatestWorker::new("navlab corridor quality", |(mesh, options)| {
                measure(&mesh, options)
            }),
            asked: None,
            generation: 0,
        }
    }
}

/// What the section asks of the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QualityAction {
    /// Open this pair: start and goal there, the shortest path searched too.
    ShowPair {
        /// The start.
        from: Vec2,
        /// The goal.
        to: Vec2,
    },
}

impl CorridorQuality {
    /// Forgets the report (the mesh changed).
    pub fn invalidate(&mut self) {
        self.report = None;
        self.heat.clear();
        self.worker.forget();
        self.asked = None;
        self.generation += 1;
    }

    /// True while a worker thread measures.
    pub fn is_measuring(&self) -> bool {
        self.worker.is_busy()
    }

    /// The worst detour starting in triangle `t`, when the heat map is shown and a pair starts
    /// there.
    pub fn heat(&self, t: usize) -> Option<f64> {
        if !self.show_heat {
            return None;
        }
        self.heat.get(t).copied().flatten()
    }

    /// A fingerprint of the heat map when it is shown (what the canvas's fill depends on).
    pub fn heat_fingerprint(&self) -> Option<u64> {
        self.show_heat.then(|| {
            self.heat
                .iter()
                .fold(super::fill::FINGERPRINT_SEED, |h, heat| {
                    super::fill::fingerprint(h, heat.map_or(u64::MAX, f64::to_bits))
                })
        })
    }

    /// True when the heat map is on the canvas.
    pub fn heat_shown(&self) -> bool {
        self.show_heat && self.report.is_some()
    }

    /// Measures `options` on `mesh`: here for small meshes, on the worker for large ones.
    pub fn measure(&mut self, mesh: &Arc<NavMesh>, options: QualityOptions) {
        let in_background = mesh.triangles().len() >= MEASURE_IN_BACKGROUND_FROM;
        self.asked = Some(options);
        if let Some(report) = self.worker.answer_or_submit(
            self.generation,
            (Arc::clone(mesh), options),
            in_background,
        ) {
            self.take(report, mesh.triangles().len());
        }
    }

    /// Waits (up to a minute) for a measurement on the worker: for tests and screenshots.
    pub fn wait(&mut self, triangles: usize) {
        if let Some(report) = self.worker.wait(std::time::Duration::from_secs(60)) {
            self.take(report, triangles);
        }
    }

    fn take(&mut self, report: QualityReport, triangles: usize) {
        self.heat = report.worst_excess_by_start_triangle(triangles);
        if let Some(options) = self.asked.take() {
            self.report = Some((report, options));
        }
    }

    /// The section: the button, then the numbers, the worst pairs and the heat map's toggle.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        mesh: &Arc<NavMesh>,
        (cost, weight, radius): (CostModel, f64, f64),
    ) -> Option<QualityAction> {
        if self.worker.is_busy()
            && let Some(report) = self.worker.take()
        {
            self.take(report, mesh.triangles().len());
        }
        let mut action = None;
        ui.horizontal(|ui| {
            let busy = self.worker.is_busy();
            let clicked = ui
                .add_enabled(!busy, egui::Button::new("Measure corridor paths"))
                .on_hover_text(
                    "Run random start and goal pairs through A* with the step cost chosen (then \
                     the funnel) and through the exact search, and see how much longer the \
                     corridor paths are: what `navlab quality` prints. With an agent radius, \
                     both for that radius (pairs with less room at an end left out)",
                )
                .clicked();
            ui.add(
                egui::DragValue::new(&mut self.queries)
                    .range(10..=5000)
                    .speed(10)
                    .suffix(" pairs"),
            )
            .on_hover_text("How many random pairs (seed 1: the same pairs every time)");
            if busy {
                ui.spinner();
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(50));
            }
            if clicked {
                let options = QualityOptions {
                    queries: self.queries,
                    seed: 1,
                    cost,
                    weight,
                    radius,
                };
                self.measure(mesh, options);
            }
        });
        let Some((report, options)) = &self.report else {
            return None;
        };
        let percent = |x: f64| format!("{:.2} %", 100.0 * x);
        let per_query = |d: std::time::Duration| {
            let micros = d.as_secs_f64() * 1e6 / report.pairs.len().max(1) as f64;
            if micros >= 1000.0 {
                format!("{:.2} ms", micros / 1000.0)
            } else {
                format!("{micros:.1} µs")
            }
        };
        ui.label(format!(
            "{} pairs, {} cost{}: the corridor path is longer than the shortest by {} on average, \
             {} at the 95th percentile, {} at worst.",
            report.pairs.len(),
            cost_name(options.cost),
            if options.weight == 1.0 {
                String::new()
            } else {
                format!(", weight {}", options.weight)
            } + &if options.radius > 0.0 {
                format!(", agent radius {:.2}", options.radius)
            } else {
                String::new()
            },
            percent(report.mean_excess()),
            percent(report.p95_excess()),
            percent(report.worst_excess()),
        ));
        ui.label(
            egui::RichText::new(format!(
                "Per query: exact {}, corridor {}.",
                per_query(report.optimal_time),
                per_query(report.corridor_time)
            ))
            .weak(),
        );
        ui.checkbox(&mut self.show_heat, "Heat map of detours")
            .on_hover_text(
                "Colour each triangle a measured pair starts in by that pair's detour (the \
                 worst, when several start there)",
            );
        egui::CollapsingHeader::new("Worst pairs")
            .id_salt("worst_pairs")
            .default_open(true)
            .show(ui, |ui| {
                for pair in report.worst(WORST_LISTED) {
                    let text = format!(
                        "+{}  from ({:.2}, {:.2}) to ({:.2}, {:.2})",
                        percent(pair.excess()),
                        pair.from.x,
                        pair.from.y,
                        pair.to.x,
                        pair.to.y
                    );
                    if ui
                        .selectable_label(false, text)
                        .on_hover_text(format!(
                            "Open this pair with the shortest path too: corridor {:.3}, \
                             shortest {:.3}",
                            pair.corridor, pair.optimal
                        ))
                        .clicked()
                    {
                        action = Some(QualityAction::ShowPair {
                            from: pair.from,
                            to: pair.to,
                        });
                    }
                }
            });
        action
    }
}

/// The cost model as the panel names it.
fn cost_name(cost: CostModel) -> &'static str {
    match cost {
        CostModel::Centroid => "centroid",
        CostModel::Midpoint => "midpoint",
        CostModel::Straight => "straight",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_bands_rise_with_the_detour() {
        assert_eq!(heat_colour(0.0), HEAT_BANDS[0].1);
        assert_eq!(heat_colour(0.009), HEAT_BANDS[0].1);
        assert_eq!(heat_colour(0.01), HEAT_BANDS[1].1);
        assert_eq!(heat_colour(0.07), HEAT_BANDS[2].1);
        assert_eq!(heat_colour(0.5), HEAT_BANDS[3].1);
    }
}
