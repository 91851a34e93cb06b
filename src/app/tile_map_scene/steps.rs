//! The tile-map scene's recorded search: its steps, its answer and their replay, the step list
//! and the open list beside the map, the sentence of each step, and the keys that move
//! between passes and expansions.

use super::TileMapScene;
use super::jobs::{MAX_RECORDED_STEPS, SearchDone, left_out_note};
use crate::app::playback;
use crate::grid::{AlgorithmKind, Cell, GridAlgorithm, GridPath};
use crate::search::{
    ExpansionSteps, ListKind, NodeStatus, NodesShown, SearchEvent, SearchOutcome, SearchReplay,
};
use egui::Ui;

/// A search of the map as recorded, its answer, and the state at the step shown.
#[derive(Debug, Clone)]
pub struct RecordedSearch {
    /// The recorded steps.
    pub events: Vec<SearchEvent>,
    /// Its answer (`None` before the first search is answered).
    pub result: Option<GridPath>,
    /// The state at the step shown.
    pub replay: SearchReplay,
    /// Counts the searches shown, so that the canvas redraws the overlay when one arrives.
    pub shown: u64,
    /// The algorithm the steps are of (the one chosen may be searching meanwhile).
    pub algorithm: GridAlgorithm,
    /// Steps the search took after the recorded ones (before its last, `Finished`).
    pub left_out: usize,
    /// The last pass that started among those steps: the pass the search ended in.
    pub last_pass_left_out: Option<(usize, f64)>,
    /// The recorded steps that start a pass (IDA*, Fringe Search), in order.
    pub pass_starts: Vec<usize>,
    /// The steps "Expansions only" lists, found when first asked for.
    expansion_rows: std::cell::OnceCell<Vec<usize>>,
    /// The recorded steps that expanded each cell, for the cell's tooltip and the E key:
    /// indexed when first asked for (a search re-run as S or G is dragged never is).
    expansion_steps: std::cell::OnceCell<ExpansionSteps>,
}

/// The list a replay of `algorithm` keeps: the open list, Fringe's lists or IDA*'s path.
fn list_of(algorithm: AlgorithmKind) -> ListKind {
    match algorithm {
        AlgorithmKind::Fringe => ListKind::Fringe,
        AlgorithmKind::IdaStar => ListKind::IdaPath,
        _ => ListKind::Open,
    }
}

impl RecordedSearch {
    /// Nothing recorded yet of `algorithm`, on a map of `cells` cells.
    pub fn new(cells: usize, algorithm: GridAlgorithm) -> Self {
        Self {
            events: Vec::new(),
            result: None,
            replay: SearchReplay::new(cells, list_of(algorithm.kind()), NodesShown::Searched),
            shown: 0,
            algorithm,
            left_out: 0,
            last_pass_left_out: None,
            pass_starts: Vec::new(),
            expansion_rows: Default::default(),
            expansion_steps: Default::default(),
        }
    }

    /// A finished search on a map of `cells` cells, the `shown`-th shown.
    pub fn of(done: SearchDone, cells: usize, shown: u64) -> Self {
        let algorithm = done.algorithm;
        // Step k shows events[k - 1].
        let pass_starts = done
            .events
            .iter()
            .enumerate()
            .filter(|(_, event)| matches!(event, SearchEvent::IterationStarted { .. }))
            .map(|(i, _)| i + 1)
            .collect();
        Self {
            events: done.events,
            result: Some(done.result),
            pass_starts,
            left_out: done.left_out,
            last_pass_left_out: done.last_pass_left_out,
            shown,
            ..Self::new(cells, algorithm)
        }
    }

    /// The cell of `map` this search takes next at the step shown (`None` at the end, or for
    /// IDA*, which takes no node from a list).
    pub fn next_to_expand(&self, map: &crate::grid::TileMap) -> Option<Cell> {
        let replay = &self.replay;
        if replay.is_finished() {
            return None;
        }
        if let Some(lists) = replay.fringe_lists() {
            return lists.next(1).first().map(|entry| map.cell(entry.node));
        }
        let order = self.algorithm.expansion_order();
        let next = replay.frontier()?.next(order, 1)?;
        next.first().map(|entry| map.cell(entry.node))
    }

    /// Moves the replay to step `k`.
    pub fn seek(&mut self, k: usize) {
        self.replay.seek(&self.events, k);
    }

    /// What the step shown has made of cell `i`, in words (`None`: nothing yet).
    pub fn state_words(&self, i: usize) -> Option<&'static str> {
        let ida = self.replay.ida_path().is_some();
        match self.replay.status(i) {
            NodeStatus::Unseen => None,
            NodeStatus::Open => Some("open"),
            NodeStatus::Closed => Some("expanded"),
            NodeStatus::Later if ida => {
                Some("cut off: its f was over the threshold, not entered yet")
            }
            NodeStatus::Later => Some("in the later list: waits for the next pass"),
        }
    }

    /// The steps that expanded each cell in the recorded search.
    pub fn expansion_steps(&self) -> &ExpansionSteps {
        self.expansion_steps
            .get_or_init(|| ExpansionSteps::new(&self.events))
    }

    /// The steps "Expansions only" lists.
    fn expansion_rows(&self) -> &[usize] {
        self.expansion_rows
            .get_or_init(|| expansion_rows(&self.events))
    }
}

/// The steps of `events` that expand a node, start a pass or end the search: what the step
/// list shows with "Expansions only" (step `k` is `events[k - 1]`).
fn expansion_rows(events: &[SearchEvent]) -> Vec<usize> {
    events
        .iter()
        .enumerate()
        .filter(|(_, event)| {
            matches!(
                event,
                SearchEvent::Expanded { .. }
                    | SearchEvent::IterationStarted { .. }
                    | SearchEvent::Finished { .. }
            )
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// The sentence of recorded step `k` (1-based) of `events`; the last one says first how many
/// steps before it were `left_out` of the recording, if any were.
pub(super) fn step_sentence(
    events: &[SearchEvent],
    left_out: usize,
    algorithm: GridAlgorithm,
    width: usize,
    k: usize,
) -> String {
    let Some(event) = k.checked_sub(1).and_then(|i| events.get(i)) else {
        return String::new();
    };
    let sentence = algorithm.explain(event, width);
    if k == events.len() {
        format!("{}{sentence}", left_out_note(left_out))
    } else {
        sentence
    }
}

impl TileMapScene {
    /// The sentence of recorded step `k` (1-based); see [`step_sentence`].
    pub(super) fn step_sentence(&self, k: usize) -> String {
        step_sentence(
            &self.search.events,
            self.search.left_out,
            self.algorithm(),
            self.searched_map.width(),
            k,
        )
    }

    /// The step that starts the first pass after the shown step (`None`: no later pass is
    /// recorded).
    pub(super) fn next_pass_step(&self) -> Option<usize> {
        playback::next_start(&self.search.pass_starts, self.playback.cursor)
    }

    /// The step that starts the pass the shown step is in, or the pass before when the shown
    /// step starts one (`None`: no earlier pass).
    pub(super) fn previous_pass_step(&self) -> Option<usize> {
        playback::previous_start(&self.search.pass_starts, self.playback.cursor)
    }

    /// Shows the step `step` (pausing), scrolling the step list to it.
    pub(super) fn jump_to(&mut self, step: Option<usize>) {
        if let Some(step) = step {
            self.playback.playing = false;
            self.playback.cursor = step;
            self.follow_log = true;
        }
    }

    /// The step that next expands `cell` after the shown step, or its first expansion when
    /// none comes later (`None`: never expanded in the recorded steps).
    fn next_expansion_of(&self, cell: Cell) -> Option<usize> {
        let i = self.searched_map.index(cell);
        self.search
            .expansion_steps()
            .next_after(i, self.playback.cursor)
    }

    /// Page Up / Page Down: the previous / next pass of IDA* or Fringe Search; E: the step that
    /// expands the cell under the pointer (again: its next expansion).
    pub fn replay_keys(&mut self, ui: &Ui) {
        use super::MapKey;
        for key in crate::app::keys::pressed(ui, super::REPLAY) {
            match key {
                MapKey::NextPass => self.jump_to(self.next_pass_step()),
                MapKey::PreviousPass => self.jump_to(self.previous_pass_step()),
                MapKey::Expansion => {
                    self.jump_to(self.hover.and_then(|cell| self.next_expansion_of(cell)))
                }
                MapKey::FirstDifference => self.jump_to(
                    self.active_lockstep()
                        .and_then(|t| t.first_difference())
                        .map(|(d, _, _)| d),
                ),
                _ => {}
            }
        }
    }

    /// The listing of the algorithm shown and the line of the shown step.
    pub fn pseudocode_lit(
        &self,
    ) -> (
        crate::search::pseudocode::Listing,
        Option<crate::search::pseudocode::LitLine>,
    ) {
        let listing = self.search.algorithm.kind().listing();
        let width = self.searched_map.width().max(1);
        let events = &self.search.events;
        let lit = self
            .playback
            .cursor
            .min(events.len())
            .checked_sub(1)
            .and_then(|i| events.get(i))
            .and_then(|e| listing.search_step(e, |i| format!("{},{}", i % width, i / width)));
        (listing, lit)
    }

    /// The pseudocode of the algorithm shown, the shown step's line lit; returns the line
    /// clicked (see [`go_to_line`](Self::go_to_line)).
    pub fn pseudocode_ui(&self, ui: &mut Ui) -> Option<usize> {
        let (listing, lit) = self.pseudocode_lit();
        egui::CollapsingHeader::new("Pseudocode")
            .default_open(true)
            .show(ui, |ui| {
                crate::app::pseudocode_panel::pseudocode_ui(ui, listing, lit.as_ref())
            })
            .body_returned
            .flatten()
    }

    /// Goes to the next step that runs `line` of the algorithm's pseudocode.
    pub fn go_to_line(&mut self, line: usize) {
        let listing = self.search.algorithm.kind().listing();
        let events = &self.search.events;
        let target = crate::app::pseudocode_panel::next_step_on_line(
            line,
            self.playback.cursor,
            events.len(),
            |k| {
                let event = events.get(k.checked_sub(1)?)?;
                listing
                    .search_step(event, |_| String::new())
                    .map(|l| l.line)
            },
        );
        self.jump_to(target);
    }

    /// The recorded steps, one line each; clicking one jumps there.
    pub fn event_log_ui(&mut self, ui: &mut Ui) {
        if self.search.left_out > 0 {
            ui.label(
                egui::RichText::new(format!(
                    "Only the first {} steps are recorded: {} more came before the last one.",
                    crate::words::thousands(MAX_RECORDED_STEPS),
                    crate::words::thousands(self.search.left_out)
                ))
                .color(ui.visuals().warn_fg_color),
            )
            .on_hover_text("The answer and the counts are the whole search's; only the animation stops early. A smaller node budget, or a start and goal closer together, records every step.");
        }
        let changed = ui
            .checkbox(&mut self.settings.expansions_only, "Expansions only")
            .on_hover_text(if self.search.algorithm.kind().has_passes() {
                "List only the steps that expand a cell, start a pass, or end the search (the playback still goes through every step)"
            } else {
                "List only the steps that expand a cell or end the search (the playback still goes through every step)"
            })
            .changed();
        if changed {
            self.follow_log = true;
        }
        let listed = self
            .settings
            .expansions_only
            .then(|| self.search.expansion_rows());
        let (events, left_out) = (&self.search.events, self.search.left_out);
        let (algorithm, width) = (self.search.algorithm, self.searched_map.width());
        let jumped = playback::event_log_ui(
            ui,
            &mut self.playback,
            events.len(),
            listed,
            &mut self.follow_log,
            |k| step_sentence(events, left_out, algorithm, width, k),
        );
        if jumped {
            self.sync_replay();
        }
    }

    /// The open list at the shown step, in the order the algorithm takes it: why the next cell
    /// is the next. Fringe Search shows its now and later lists instead, IDA* its path.
    pub fn frontier_ui(&self, ui: &mut Ui) {
        let width = self.searched_map.width().max(1);
        let name = |node: usize| format!("{},{}", node % width, node / width);
        let replay = &self.search.replay;
        let finished = replay.is_finished();
        if let Some(lists) = replay.fringe_lists() {
            playback::fringe_lists_ui(ui, lists, finished, name);
            return;
        }
        if let Some(path) = replay.ida_path() {
            playback::ida_path_ui(ui, path, replay.threshold(), finished, name);
            return;
        }
        let Some(frontier) = replay.frontier() else {
            return;
        };
        let no_list = match self.search.algorithm.kind() {
            AlgorithmKind::IdaStar => {
                "IDA* keeps no open list: it goes depth first, as deep as the threshold allows."
            }
            _ => "Fringe Search's lists show once its search is replayed.",
        };
        playback::open_list_ui(
            ui,
            frontier,
            self.search.algorithm.expansion_order(),
            finished,
            (no_list, ""),
            name,
        );
    }

    /// The cell the search takes next while it is being replayed: the open list's head, or
    /// for Fringe Search the head of its now list (visited next, to be expanded or put off).
    pub fn next_to_expand(&self) -> Option<Cell> {
        self.search.next_to_expand(&self.searched_map)
    }

    /// The sentence for the step just taken; while another algorithm searches, that it does
    /// and whose steps are shown meanwhile.
    pub fn current_explanation(&self) -> String {
        let shown = self.search.algorithm.name();
        let sentence = match self.playback.cursor.min(self.search.events.len()) {
            0 => format!(
                "Ready: {shown} from {:?} to {:?}. Press Play (Space). Left click paints, right click sets the goal.",
                self.start, self.goal
            ),
            k => self.step_sentence(k),
        };
        let chosen = self.settings.algorithm;
        if self.is_searching() && chosen != self.search.algorithm.kind() {
            format!(
                "{} is searching; {shown}'s steps are shown until it is done. {sentence}",
                chosen.name()
            )
        } else {
            sentence
        }
    }

    /// The answer's numbers, the pass shown, the buttons between passes and Copy path.
    pub(super) fn stats_ui(&mut self, ui: &mut Ui) {
        if self.is_searching() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Searching…")
                    .on_hover_text("Large searches run in the background; the last answer stays on the map until the new one is ready");
            });
        }
        let mut jump = None;
        if let Some(r) = &self.search.result {
            egui::Grid::new("grid_stats").num_columns(2).show(ui, |ui| {
                ui.label("Status");
                ui.label(match r.outcome {
                    SearchOutcome::Found => "found",
                    SearchOutcome::Unreachable => "unreachable",
                    SearchOutcome::BudgetExceeded => "budget exceeded",
                });
                ui.end_row();
                ui.label("Path cost");
                ui.label(if r.cost.is_finite() {
                    format!("{:.3}", r.cost)
                } else {
                    "—".to_string()
                });
                ui.end_row();
                ui.label("Expanded");
                ui.label(crate::words::thousands(r.expanded));
                ui.end_row();
                ui.label("Peak memory");
                ui.label(format!("{} nodes", crate::words::thousands(r.peak_memory)));
                ui.end_row();
                // At the end, the pass the search ended in, even if the steps recorded stop in
                // an earlier one; else the shown step's.
                let at_end = self.playback.cursor >= self.search.events.len();
                let replay = &self.search.replay;
                let pass = match self.search.last_pass_left_out.filter(|_| at_end) {
                    Some(last) => Some((
                        last,
                        "The pass the search ended in; the recorded steps stop in an earlier one",
                    )),
                    None => (replay.iteration() > 0).then_some((
                        (replay.iteration(), replay.threshold()),
                        "The pass at the shown step and its threshold",
                    )),
                };
                if let Some(((iteration, threshold), tip)) = pass {
                    ui.label("Pass / threshold");
                    ui.label(format!(
                        "{} / {}",
                        crate::words::thousands(iteration),
                        crate::words::thousands_decimal(threshold, 2)
                    ))
                    .on_hover_text(tip);
                    ui.end_row();
                }
            });
            if !self.search.pass_starts.is_empty() {
                let (previous, next) = (self.previous_pass_step(), self.next_pass_step());
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(
                            previous.is_some(),
                            egui::Button::new("Previous pass").small(),
                        )
                        .on_hover_text(
                            "Back to where this pass started, or the one before (Page Up)",
                        )
                        .clicked()
                    {
                        jump = previous;
                    }
                    if ui
                        .add_enabled(next.is_some(), egui::Button::new("Next pass").small())
                        .on_hover_text("On to where the next pass starts (Page Down)")
                        .clicked()
                    {
                        jump = next;
                    }
                });
            }
            if ui
                .add_enabled(!self.is_searching(), egui::Button::new("Copy path").small())
                .on_hover_text(
                    "Copy the answer as `navlab grid --json` prints it: the path's cells (x, y), cost, counts",
                )
                .on_disabled_hover_text("The search is still running")
                .clicked()
            {
                ui.ctx().copy_text(r.to_json().to_string());
            }
        }
        self.jump_to(jump);
    }
}

#[cfg(test)]
mod tests {
    use super::super::jobs::SearchJob;
    use super::*;
    use crate::grid::MapDocument;
    use std::sync::Arc;

    /// A search recorded only in part says so on its last step and in the step list's note,
    /// and the panel's pass is the one the search ended in, not the last recorded.
    #[test]
    fn a_search_recorded_in_part_says_what_was_left_out() {
        let doc = MapDocument::new(super::super::default_map(), None);
        let settings = super::super::TileMapSettings {
            algorithm: AlgorithmKind::Fringe,
            ..Default::default()
        };
        let mut scene = TileMapScene::new(&settings, &doc);
        scene.wait_for_search();
        let whole = scene.search.events.clone();
        assert_eq!(scene.search.left_out, 0);
        let last = scene.step_sentence(whole.len());
        assert!(!last.contains("not recorded"), "{last}");

        let job = SearchJob {
            map: Arc::new(doc.map.clone()),
            start: scene.start,
            goal: scene.goal,
            algorithm: scene.algorithm(),
            connectivity: scene.settings.connectivity,
        };
        scene.show_search(job.run_recording(50, 0));
        assert_eq!(scene.search.events.len(), 51);
        assert_eq!(scene.search.left_out, whole.len() - 51);
        let sentence = scene.step_sentence(51);
        assert!(
            sentence.starts_with(&left_out_note(whole.len() - 51)) && sentence.contains("found"),
            "{sentence}"
        );
        assert_eq!(
            scene.step_sentence(50),
            scene.algorithm().explain(&whole[49], doc.map.width())
        );
        let passes = whole
            .iter()
            .filter(|e| matches!(e, SearchEvent::IterationStarted { .. }))
            .count();
        assert_eq!(
            scene.search.last_pass_left_out.map(|(pass, _)| pass),
            Some(passes)
        );
        scene.playback.cursor = scene.search.events.len();
        assert!(scene.current_explanation().contains("not recorded"));
    }
}
