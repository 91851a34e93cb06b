//! Two searches in lockstep: the algorithm animated and a second one — another algorithm, or
//! the same with another estimate or weight — on the same map, start and goal, drawn side by
//! side on one timeline counted in expansions, with their counters and open lists, and the
//! first expansion where they take different cells marked.

use super::TileMapScene;
use crate::app::camera::{Camera, View};
use crate::app::playback::BarWords;
use crate::geom::Vec2;
use crate::grid::{AlgorithmKind, GridAlgorithm, Heuristic, MapDocument, SearchTuning};
use crate::navmesh::Bounds;
use crate::search::lockstep::{Lockstep, Side};
use egui::{Color32, Rect, Stroke, Ui};

/// The second search of the lockstep view as chosen: its algorithm, estimate and weight (the
/// moves, IDA*'s budget, the map, start and goal are the first's).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SecondSearch {
    /// The algorithm.
    pub algorithm: AlgorithmKind,
    /// Its estimate, where it takes one.
    pub heuristic: Heuristic,
    /// A*'s weight.
    pub weight: f64,
}

impl Default for SecondSearch {
    fn default() -> Self {
        Self {
            algorithm: AlgorithmKind::Jps,
            heuristic: Heuristic::Octile,
            weight: 1.0,
        }
    }
}

impl SecondSearch {
    /// The second algorithm with its settings, IDA*'s budget `budget`.
    pub fn algorithm(&self, budget: usize) -> GridAlgorithm {
        self.algorithm.with(SearchTuning {
            heuristic: self.heuristic,
            weight: if self.weight.is_finite() {
                self.weight.clamp(0.0, 5.0)
            } else {
                1.0
            },
            budget,
        })
    }
}

/// The two searches shown aligned: the timeline, and which answers it was made of.
#[derive(Debug, Clone)]
pub struct LockstepView {
    /// Both searches' steps by expansions.
    pub timeline: Lockstep,
    /// The first search's and the second's `shown` counts it was aligned for.
    aligned: (u64, u64),
}

/// The largest map the lockstep view runs a second search on: 2048 × 2048 cells (each search's
/// replay holds a few bytes a cell; two of the largest map's would take gigabytes).
pub const LOCKSTEP_MAX_CELLS: usize = 1 << 22;

/// The lockstep playback bar counts expansions.
const EXPANSIONS: BarWords = BarWords {
    step: "Expansion",
    speed: " expansions/s",
    end: "Both searches at their end (End)",
    scrub: "Drag through the expansions: both searches move together",
};

/// Ringed on each half where the two first take different cells.
const DIFFERENCE: Color32 = Color32::from_rgb(255, 80, 220);

/// Names the texture the second half of the lockstep canvas draws its map with.
fn second_texture_id() -> egui::Id {
    egui::Id::unique("tile map tiles, second search")
}

impl TileMapScene {
    /// The lockstep view's timeline when it is on and both searches are answered.
    pub fn active_lockstep(&self) -> Option<&Lockstep> {
        self.lockstep
            .as_ref()
            .filter(|_| self.settings.lockstep)
            .map(|view| &view.timeline)
    }

    /// The playback bar's length: the steps of the search shown, or in lockstep the larger
    /// count of expansions.
    pub fn timeline_len(&self) -> usize {
        self.active_lockstep()
            .map_or(self.search.events.len(), Lockstep::len)
    }

    /// The second search with its settings.
    pub fn second_algorithm(&self) -> GridAlgorithm {
        self.settings.second.algorithm(self.settings.budget)
    }

    /// Aligns the two searches again when either answer is new.
    pub(super) fn align_lockstep(&mut self) {
        if !self.settings.lockstep {
            self.lockstep = None;
            return;
        }
        let Some(second) = &self.second else {
            return;
        };
        let aligned = (self.search.shown, second.shown);
        if self.lockstep.as_ref().is_some_and(|v| v.aligned == aligned) {
            return;
        }
        self.lockstep = Some(LockstepView {
            timeline: Lockstep::new(&self.search.events, &second.events),
            aligned,
        });
    }

    /// Moves both replays to lockstep position `k`; false when lockstep is not shown.
    pub(super) fn seek_lockstep(&mut self, k: usize) -> bool {
        let Some(timeline) = self.active_lockstep() else {
            return false;
        };
        let k = k.min(timeline.len());
        let (first, second) = (
            timeline.step(Side::First, k),
            timeline.step(Side::Second, k),
        );
        self.search.seek(first);
        if let Some(search) = self.second.as_mut() {
            search.seek(second);
        }
        true
    }

    /// Turns the lockstep view on or off, keeping the place: the first search's step becomes
    /// the position of its expansions so far, and back.
    pub fn set_lockstep(&mut self, on: bool, map: &MapDocument) {
        if on == self.settings.lockstep {
            return;
        }
        let step = self.playback.cursor.min(self.search.events.len());
        let back = self
            .active_lockstep()
            .map(|t| t.step(Side::First, self.playback.cursor.min(t.len())));
        self.settings.lockstep = on;
        self.rerun(map);
        self.align_lockstep();
        self.playback.cursor = match (on, self.active_lockstep()) {
            (true, Some(timeline)) => timeline.position_of(step),
            (true, None) => 0,
            (false, _) => back.unwrap_or(step),
        };
        self.sync_replay();
    }

    /// The left panel's lockstep choices: on or off, and the second search.
    pub(super) fn lockstep_controls_ui(&mut self, ui: &mut Ui, map: &MapDocument) {
        let mut on = self.settings.lockstep;
        if ui
            .checkbox(&mut on, "Lockstep")
            .on_hover_text(
                "Run a second search beside this one on the same map, start and goal: both drawn side by side, moving together expansion by expansion, the first expansion where they differ marked (L)",
            )
            .changed()
        {
            self.set_lockstep(on, map);
        }
        if !self.settings.lockstep {
            return;
        }
        let mut second = self.settings.second;
        egui::ComboBox::from_label("Beside it")
            .selected_text(second.algorithm.name())
            .show_ui(ui, |ui| {
                for kind in AlgorithmKind::ALL {
                    ui.selectable_value(&mut second.algorithm, kind, kind.name());
                }
            });
        ui.add_enabled_ui(second.algorithm.uses_heuristic(), |ui| {
            egui::ComboBox::from_label("Its heuristic")
                .selected_text(second.heuristic.name())
                .show_ui(ui, |ui| {
                    for h in Heuristic::ALL {
                        ui.selectable_value(&mut second.heuristic, h, h.name());
                    }
                });
        });
        if second.algorithm == AlgorithmKind::AStar {
            ui.add(egui::Slider::new(&mut second.weight, 0.0..=5.0).text("Its weight"));
        }
        if second != self.settings.second {
            self.settings.second = second;
            self.rerun(map);
            self.align_lockstep();
            self.sync_replay();
        }
    }

    /// The playback bar in lockstep: its steps are expansions.
    pub(super) fn lockstep_bar_ui(&mut self, ui: &mut Ui) -> bool {
        let Some(len) = self.active_lockstep().map(Lockstep::len) else {
            return false;
        };
        self.playback.bar_ui_in(ui, len, &EXPANSIONS);
        true
    }

    /// The right panel in lockstep: where the two first differ (with a button to go there),
    /// then each search's counters and open list at the position shown.
    pub(super) fn lockstep_panel_ui(&mut self, ui: &mut Ui) {
        // What the panel reads of the timeline (it holds a step index per expansion: not
        // copied every frame).
        let Some((len, first_difference, counts)) = self.active_lockstep().map(|t| {
            let k = self.playback.cursor.min(t.len());
            let count = |side| (t.expansions(side, k), t.expansions(side, t.len()));
            let counts = [count(Side::First), count(Side::Second)];
            (t.len(), t.first_difference(), counts)
        }) else {
            ui.heading("Lockstep");
            if self.searched_map.cell_count() > LOCKSTEP_MAX_CELLS {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    "Lockstep runs on maps of up to 2048 × 2048 cells: two searches' replays of a larger one would not fit in memory. Turn it off to see this search (L).",
                );
            } else {
                ui.spinner();
                ui.label("Searching…");
            }
            return;
        };
        let width = self.searched_map.width().max(1);
        let name = |i: usize| format!("{},{}", i % width, i / width);
        let k = self.playback.cursor.min(len);
        ui.heading("Lockstep");
        match first_difference {
            Some((d, a, b)) => {
                let cell = |n: Option<usize>| n.map_or("nothing (it has ended)".to_string(), name);
                ui.label(format!(
                    "First difference at expansion {d}: {} takes {}, {} takes {}.",
                    self.search.algorithm.name(),
                    cell(a),
                    self.second_name(),
                    cell(b),
                ));
                let here = k == d;
                if ui
                    .add_enabled(!here, egui::Button::new("Go to the first difference"))
                    .on_hover_text("Both searches at that expansion; the two cells are ringed (D)")
                    .clicked()
                {
                    self.playback.playing = false;
                    self.playback.cursor = d;
                    self.sync_replay();
                }
                if here {
                    ui.colored_label(DIFFERENCE, "This is it: the cells are ringed.");
                } else if k > d {
                    ui.weak("They have gone different ways since.");
                } else {
                    ui.weak("So far they have taken the same cells in the same order.");
                }
            }
            None => {
                ui.label(format!(
                    "They expand the same {} cells in the same order.",
                    crate::words::thousands(len)
                ));
            }
        }
        ui.separator();
        let first = (self.search.algorithm.name(), Side::First);
        let second = (self.second_name(), Side::Second);
        for ((title, side), (done, total)) in [first, second].into_iter().zip(counts) {
            ui.push_id(title, |ui| {
                let search = match side {
                    Side::First => Some(&self.search),
                    Side::Second => self.second.as_ref(),
                };
                let Some(search) = search else {
                    return;
                };
                ui.strong(title);
                let open = search.replay.frontier().map_or(0, |f| f.len());
                let mut line = format!(
                    "{} of {} expansions, {} open",
                    crate::words::thousands(done),
                    crate::words::thousands(total),
                    crate::words::thousands(open)
                );
                if search.replay.is_finished()
                    && let Some(result) = &search.result
                {
                    line.push_str(&if result.cost.is_finite() {
                        format!("; path cost {:.3}", result.cost)
                    } else {
                        format!("; {}", result.outcome.name().replace('_', " "))
                    });
                }
                ui.label(line);
                if let Some(frontier) = search.replay.frontier() {
                    crate::app::playback::open_list_ui(
                        ui,
                        frontier,
                        search.algorithm.expansion_order(),
                        search.replay.is_finished(),
                        ("", ""),
                        name,
                    );
                }
                ui.separator();
            });
        }
    }

    /// The second search's name, as run on this map.
    fn second_name(&self) -> &'static str {
        let algorithm = self
            .second
            .as_ref()
            .map_or(self.second_algorithm(), |s| s.algorithm);
        algorithm.name_as_run(&self.searched_map, self.settings.connectivity)
    }

    /// Both searches side by side (or one above the other, whichever draws the map larger),
    /// each over its half of the canvas with the map fitted in it, its name and counters above; at the first difference the two cells taken are ringed.
    pub(super) fn lockstep_canvas_ui(&mut self, ui: &mut Ui, document: &MapDocument) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), egui::Sense::hover());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Lockstep canvas"));
        let rect = response.rect;
        self.canvas_rect = Some(rect);
        self.legend_rect = None;
        self.hover = None;
        painter.rect_filled(rect, 0.0, Color32::from_rgb(24, 26, 31));
        self.sync_replay();
        let Some((difference, counts)) = self.active_lockstep().map(|t| {
            let k = self.playback.cursor.min(t.len());
            let count = |side| (t.expansions(side, k), t.expansions(side, t.len()));
            let at_k = t.first_difference().filter(|(d, _, _)| *d == k);
            (at_k, [count(Side::First), count(Side::Second)])
        }) else {
            return;
        };
        let map = &document.map;
        let bounds = Bounds {
            min: Vec2::new(0.0, 0.0),
            max: Vec2::new(map.width() as f64, map.height() as f64),
        };
        // Side by side, or one above the other: whichever draws the map larger.
        let gap = 8.0;
        let (map_w, map_h) = (map.width().max(1) as f32, map.height().max(1) as f32);
        let scale = |w: f32, h: f32| (w / map_w).min(h / map_h);
        let stacked = scale(rect.width(), (rect.height() - gap) / 2.0)
            > scale((rect.width() - gap) / 2.0, rect.height());
        let halves = if stacked {
            let half = (rect.height() - gap) / 2.0;
            [
                Rect::from_min_size(rect.min, egui::vec2(rect.width(), half)),
                Rect::from_min_size(
                    rect.min + egui::vec2(0.0, half + gap),
                    egui::vec2(rect.width(), half),
                ),
            ]
        } else {
            let half = (rect.width() - gap) / 2.0;
            [
                Rect::from_min_size(rect.min, egui::vec2(half, rect.height())),
                Rect::from_min_size(
                    rect.min + egui::vec2(half + gap, 0.0),
                    egui::vec2(half, rect.height()),
                ),
            ]
        };
        let width = map.width().max(1);
        let sides = [Side::First, Side::Second].into_iter().zip(counts);
        for (area, (side, (done, total))) in halves.into_iter().zip(sides) {
            let (search, texture) = match side {
                Side::First => (&self.search, super::tiles_texture_id()),
                Side::Second => match &self.second {
                    Some(second) => (second, second_texture_id()),
                    None => continue,
                },
            };
            let view = View {
                camera: Camera::fit_below_caption(bounds, area),
                rect: area,
            };
            let clipped = painter.with_clip_rect(area);
            self.paint_search(&clipped, view, document, search, texture);
            let name = match side {
                Side::First => search
                    .algorithm
                    .name_as_run(map, self.settings.connectivity),
                Side::Second => self.second_name(),
            };
            let caption = format!(
                "{name}: {} of {} expansions",
                crate::words::thousands(done),
                crate::words::thousands(total)
            );
            crate::app::camera::paint_caption(&clipped, area, caption);
            if let Some((_, a, b)) = difference {
                let taken = match side {
                    Side::First => a,
                    Side::Second => b,
                };
                if let Some(node) = taken {
                    let at = view.screen_from_world(Vec2::new(
                        (node % width) as f64 + 0.5,
                        (node / width) as f64 + 0.5,
                    ));
                    let radius = (view.camera.scale as f32 * 1.2).max(8.0);
                    clipped.circle_stroke(at, radius, Stroke::new(3.0, DIFFERENCE));
                }
            }
        }
        let between = halves[0].max + (halves[1].min - halves[0].max) / 2.0;
        let line = if stacked {
            [
                egui::pos2(rect.min.x, between.y),
                egui::pos2(rect.max.x, between.y),
            ]
        } else {
            [
                egui::pos2(between.x, rect.min.y),
                egui::pos2(between.x, rect.max.y),
            ]
        };
        painter.line_segment(line, Stroke::new(1.0, Color32::from_gray(90)));
    }
}
