//! Another program's search (a Posthoc trace) replayed on the tile map's timeline, with our
//! panels, beside our run of the same query: where the two first expand different cells is
//! said and can be gone to; Back to ours brings our run back.

use super::TileMapScene;
use super::jobs::SearchDone;
use super::steps::RecordedSearch;
use crate::grid::GridPath;
use crate::search::{SearchEvent, SearchOutcome};
use egui::Ui;

/// A trace being replayed in place of our run.
#[derive(Debug, Clone)]
pub struct ImportedTrace {
    /// The trace file's name.
    pub name: String,
    /// Our run, shown again by Back to ours.
    ours: RecordedSearch,
    /// Where the two first expand different cells: the expansion's number (from 1) and each
    /// run's cell there (`None`: that run had stopped). `None` when they agree.
    pub difference: Option<(usize, Option<usize>, Option<usize>)>,
    /// The step of the trace that makes that expansion (from 1).
    pub difference_step: Option<usize>,
}

impl TileMapScene {
    /// Replays `events` (a trace named `name`, read on this map) in place of our run, at the
    /// first expansion where the two differ (or at the start when they agree).
    pub fn replay_trace(&mut self, name: String, events: Vec<SearchEvent>) {
        // Our run, not a trace shown before.
        let ours = match self.imported.take() {
            Some(imported) => imported.ours,
            None => self.search.clone(),
        };
        let difference = crate::search::posthoc::first_difference(&ours.events, &events);
        let difference_step = difference.and_then(|(k, _, _)| {
            events
                .iter()
                .enumerate()
                .filter(|(_, e)| matches!(e, SearchEvent::Expanded { .. }))
                .nth(k - 1)
                .map(|(i, _)| i + 1)
        });
        let (found, cost) = events
            .iter()
            .rev()
            .find_map(|e| match e {
                SearchEvent::Finished { outcome, cost } => Some((*outcome, *cost)),
                _ => None,
            })
            .unwrap_or((SearchOutcome::Unreachable, f64::INFINITY));
        let expanded = crate::search::posthoc::expansions(&events).len();
        let done = SearchDone {
            events,
            left_out: 0,
            last_pass_left_out: None,
            result: GridPath {
                outcome: found,
                path: Vec::new(),
                cost,
                expanded,
                peak_memory: 0,
            },
            // Compared as a run of the algorithm chosen.
            algorithm: self.algorithm(),
        };
        self.search = RecordedSearch::of(done, self.searched_map.cell_count(), ours.shown + 1);
        self.playback.playing = false;
        self.playback.cursor = difference_step.unwrap_or(0);
        self.search.seek(self.playback.cursor);
        self.follow_log = true;
        self.imported = Some(ImportedTrace {
            name,
            ours,
            difference,
            difference_step,
        });
    }

    /// Shows our run again in place of the trace.
    pub fn back_to_ours(&mut self) {
        if let Some(imported) = self.imported.take() {
            self.search = imported.ours;
            self.playback.cursor = self.playback.cursor.min(self.search.events.len());
            self.search.seek(self.playback.cursor);
            self.follow_log = true;
        }
    }

    /// The strip above the steps while a trace is replayed: whose steps these are, where the
    /// two runs part (Go there), and Back to ours.
    pub fn trace_strip_ui(&mut self, ui: &mut Ui) {
        let Some(imported) = &self.imported else {
            return;
        };
        let width = self.searched_map.width().max(1);
        let cell = |n: Option<usize>| {
            n.map_or_else(
                || "nothing (stopped)".to_string(),
                |i| format!("{},{}", i % width, i / width),
            )
        };
        let mut go = None;
        let mut back = false;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.strong(format!("Replaying {} (theirs)", imported.name));
            match imported.difference {
                None => {
                    ui.label("It expands the same cells in the same order as ours.");
                }
                Some((k, ours, theirs)) => {
                    ui.label(format!(
                        "First different expansion: #{k}: ours {}, theirs {}",
                        cell(ours),
                        cell(theirs)
                    ));
                }
            }
            ui.horizontal(|ui| {
                if let Some(step) = imported.difference_step
                    && ui
                        .small_button("Go there")
                        .on_hover_text("The step of the trace where it first expands another cell")
                        .clicked()
                {
                    go = Some(step);
                }
                back = ui
                    .small_button("Back to ours")
                    .on_hover_text("Show our run of this query again")
                    .clicked();
            });
        });
        if back {
            self.back_to_ours();
        } else if let Some(step) = go {
            self.jump_to(Some(step));
        }
    }
}
