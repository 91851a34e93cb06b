//! The playback bar shared by the scenes: restart, step back, play/pause, step forward, end,
//! speed and a timeline slider over the recorded steps.

use crate::app::keys::KeyRow;
use egui::{Key, Ui};
use serde::{Deserialize, Serialize};

/// What a playback key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaybackKey {
    /// Play or pause.
    Toggle,
    /// One step forward.
    Forward,
    /// One step back.
    Back,
    /// Before the first step.
    First,
    /// After the last step.
    Last,
}

/// The playback's keys, for every scene with a playback bar.
pub const KEYS: &[KeyRow<PlaybackKey>] = &[
    KeyRow {
        shown: "Space",
        does: "play / pause",
        keys: &[(Key::Space, PlaybackKey::Toggle)],
    },
    KeyRow {
        shown: "Left / Right arrow",
        does: "step back / forward",
        keys: &[
            (Key::ArrowLeft, PlaybackKey::Back),
            (Key::ArrowRight, PlaybackKey::Forward),
        ],
    },
    KeyRow {
        shown: "Home / End",
        does: "first / last step",
        keys: &[
            (Key::Home, PlaybackKey::First),
            (Key::End, PlaybackKey::Last),
        ],
    },
];

/// Where playback stands and how fast it goes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Playback {
    /// Steps applied (0 = before the first step).
    #[serde(skip)]
    pub cursor: usize,
    /// Playing or paused.
    #[serde(skip)]
    pub playing: bool,
    /// Steps per second while playing.
    pub speed: f64,
    #[serde(skip)]
    carry: f64,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            cursor: 0,
            playing: false,
            speed: 20.0,
            carry: 0.0,
        }
    }
}

/// The slowest and fastest playback speeds, in steps per second.
pub const SPEED_RANGE: std::ops::RangeInclusive<f64> = 1.0..=1000.0;

impl Playback {
    /// Paused before the first step, playing at `speed` steps per second when played.
    pub fn at_speed(speed: f64) -> Self {
        Self {
            speed,
            ..Self::default()
        }
    }

    /// Advances while playing by `dt` seconds over a timeline of `len` steps; stops at the end.
    /// Returns true when the cursor moved.
    pub fn tick(&mut self, dt: f64, len: usize) -> bool {
        if !self.playing {
            self.carry = 0.0;
            return false;
        }
        if self.cursor >= len {
            self.playing = false;
            return false;
        }
        self.carry += dt.max(0.0) * self.speed.clamp(*SPEED_RANGE.start(), *SPEED_RANGE.end());
        let steps = self.carry.floor();
        self.carry -= steps;
        let before = self.cursor;
        self.cursor = (self.cursor + steps as usize).min(len);
        if self.cursor >= len {
            self.playing = false;
        }
        self.cursor != before
    }

    /// Starts or pauses; playing from the end starts over.
    pub fn toggle(&mut self, len: usize) {
        if self.playing {
            self.playing = false;
        } else {
            if self.cursor >= len {
                self.cursor = 0;
            }
            self.playing = true;
        }
    }

    /// One step forward (pauses).
    pub fn step_forward(&mut self, len: usize) {
        self.playing = false;
        self.cursor = (self.cursor + 1).min(len);
    }

    /// One step back (pauses).
    pub fn step_back(&mut self) {
        self.playing = false;
        self.cursor = self.cursor.saturating_sub(1);
    }

    /// Applies the playback keys ([`KEYS`]). Returns true when something changed.
    pub fn keyboard(&mut self, ui: &Ui, len: usize) -> bool {
        let before = (self.cursor, self.playing);
        for key in crate::app::keys::pressed(ui, KEYS) {
            match key {
                PlaybackKey::Toggle => self.toggle(len),
                PlaybackKey::Forward => self.step_forward(len),
                PlaybackKey::Back => self.step_back(),
                PlaybackKey::First => {
                    self.playing = false;
                    self.cursor = 0;
                }
                PlaybackKey::Last => {
                    self.playing = false;
                    self.cursor = len;
                }
            }
        }
        before != (self.cursor, self.playing)
    }

    /// The bar: buttons, speed and timeline. `len` is the number of recorded steps.
    pub fn bar_ui(&mut self, ui: &mut Ui, len: usize) {
        self.bar_ui_in(ui, len, &BarWords::STEPS);
    }

    /// [`bar_ui`](Self::bar_ui) in `words` (a crowd's bar counts ticks).
    pub fn bar_ui_in(&mut self, ui: &mut Ui, len: usize, words: &BarWords) {
        ui.horizontal(|ui| {
            if ui
                .button("Restart")
                .on_hover_text("Back to before the first step (Home)")
                .clicked()
            {
                self.playing = false;
                self.cursor = 0;
            }
            if ui
                .add_enabled(self.cursor > 0, egui::Button::new("Step back"))
                .on_hover_text("One step back (Left arrow)")
                .clicked()
            {
                self.step_back();
            }
            let label = if self.playing { "Pause" } else { "Play" };
            if ui
                .add_enabled(len > 0, egui::Button::new(label))
                .on_hover_text("Play or pause (Space)")
                .clicked()
            {
                self.toggle(len);
            }
            if ui
                .add_enabled(self.cursor < len, egui::Button::new("Step forward"))
                .on_hover_text("One step forward (Right arrow)")
                .clicked()
            {
                self.step_forward(len);
            }
            if ui.button("End").on_hover_text(words.end).clicked() {
                self.playing = false;
                self.cursor = len;
            }
            ui.separator();
            ui.add(
                egui::Slider::new(&mut self.speed, SPEED_RANGE)
                    .logarithmic(true)
                    .integer()
                    .suffix(words.speed)
                    .text("Speed"),
            )
            .on_hover_text("Playback speed");
            ui.separator();
            let mut cursor = self.cursor;
            // Room for the value box (wider for more digits and their commas) and the label
            // after the slider.
            let chars = crate::words::thousands(len).len() as f32;
            let label = 8.0 * words.step.chars().count() as f32;
            ui.spacing_mut().slider_width =
                (ui.available_width() - 38.0 - label - 9.0 * chars).max(80.0);
            let changed = ui
                .add(grouped_digits(egui::Slider::new(&mut cursor, 0..=len)).text(words.step))
                .on_hover_text(words.scrub)
                .changed();
            if changed {
                self.playing = false;
                self.cursor = cursor;
            }
        });
    }
}

/// What the playback bar calls its steps.
#[derive(Debug, Clone, Copy)]
pub struct BarWords {
    /// The timeline slider's label.
    pub step: &'static str,
    /// The speed's unit.
    pub speed: &'static str,
    /// End's tooltip.
    pub end: &'static str,
    /// The timeline slider's tooltip.
    pub scrub: &'static str,
}

impl BarWords {
    /// A search's steps.
    pub const STEPS: BarWords = BarWords {
        step: "Step",
        speed: " steps/s",
        end: "Jump to the final path (End)",
        scrub: "Drag to scrub through the recorded steps",
    };
    /// A crowd's ticks.
    pub const TICKS: BarWords = BarWords {
        step: "Tick",
        speed: " ticks/s",
        end: "Run on: the ticks recorded, and a few more while agents are still on their way (End)",
        scrub: "Drag to go back to any tick recorded (the crowd runs on when dragged past them)",
    };
}

/// The list of recorded steps, one line each (virtualised, so a million steps scroll freely);
/// clicking a line jumps there. Row 0 is "before the first step"; `step_text(k)` gives the
/// sentence of step `k` (1-based). `listed` keeps the list to those steps (in order; `None`:
/// every step). When `follow` is set the list scrolls to the cursor (once). Returns true when
/// the user jumped.
pub fn event_log_ui(
    ui: &mut Ui,
    playback: &mut Playback,
    len: usize,
    listed: Option<&[usize]>,
    follow: &mut bool,
    step_text: impl Fn(usize) -> String,
) -> bool {
    let rows_count = listed.map_or(len + 1, |steps| steps.len() + 1);
    // Row 0 is step 0; row r > 0 the r-th step listed.
    let step_of = |row: usize| match (row, listed) {
        (0, _) => 0,
        (row, None) => row,
        (row, Some(steps)) => steps.get(row - 1).copied().unwrap_or(len),
    };
    // The row of the shown step, or of the last step listed before it.
    let cursor_row = match listed {
        None => playback.cursor,
        Some(steps) => steps.partition_point(|&step| step <= playback.cursor),
    };
    ui.horizontal(|ui| {
        ui.label(format!(
            "Step {} of {}",
            crate::words::thousands(playback.cursor.min(len)),
            crate::words::thousands(len)
        ));
        if ui
            .small_button("Copy steps")
            .on_hover_text(
                "Copy the sentence of every step listed, one per line (e.g. for teaching notes)",
            )
            .clicked()
        {
            let all: Vec<String> = (0..rows_count)
                .map(|row| row_line(step_of(row), &step_text))
                .collect();
            ui.ctx().copy_text(all.join("\n"));
        }
    });
    // The shown step's whole sentence, wrapped: the rows below are cut to one line each.
    let shown = playback.cursor.min(len);
    if shown > 0 {
        ui.add(egui::Label::new(egui::RichText::new(step_text(shown)).italics()).wrap());
    }
    // A selectable row's height: the text and the button's padding, at least a widget's.
    let spacing = ui.spacing();
    let row_height = spacing
        .interact_size
        .y
        .max(ui.text_style_height(&egui::TextStyle::Body) + 2.0 * spacing.button_padding.y);
    // A jump is not animated: the list is where it belongs in the frame of the jump.
    let area = egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .animated(false);
    let follow = std::mem::take(follow);
    let mut jump = None;
    area.show_rows(ui, row_height, rows_count, |ui, rows| {
        if follow {
            scroll_to_row(ui, row_height, rows.start, cursor_row.saturating_sub(3));
        }
        // One line per row (the rows must keep their height); the full sentence is in the
        // tooltip and in the canvas caption.
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
        for row in rows {
            let step = step_of(row);
            let text = row_line(step, &step_text);
            // A step left out of the list is marked on the last row listed before it.
            let response = ui.selectable_label(row == cursor_row, &text);
            if response.clicked() {
                jump = Some(step);
            }
            response.on_hover_text(text);
        }
    });
    if let Some(step) = jump {
        playback.playing = false;
        playback.cursor = step;
    }
    jump.is_some()
}

/// Scrolls the list of rows `row_height` high so that `row` is at its top, from inside
/// [`egui::ScrollArea::show_rows`] whose first row drawn is `first_drawn`. Through egui's scroll
/// target, which the area keeps within this frame's bounds: an offset given to the area
/// itself is held to last frame's, and past them (when the panel above the list changed
/// height in the same frame, as it does at the last step) egui springs back over the next
/// frames at the pace of the clock. The list bounced at a jump to the end, and screenshots
/// caught it at a different point of the bounce from one run to the next.
fn scroll_to_row(ui: &Ui, row_height: f32, first_drawn: usize, row: usize) {
    let stride = row_height + ui.spacing().item_spacing.y;
    let content_top = ui.max_rect().top() - first_drawn as f32 * stride;
    let top = content_top + row as f32 * stride;
    let rect = egui::Rect::from_x_y_ranges(ui.max_rect().x_range(), top..=top + row_height);
    ui.scroll_to_rect(rect, Some(egui::Align::TOP));
}

/// One line of the step list: the step's number and sentence.
fn row_line(row: usize, step_text: &impl Fn(usize) -> String) -> String {
    if row == 0 {
        "0. ready: start and goal placed".to_string()
    } else {
        format!("{}. {}", crate::words::thousands(row), step_text(row))
    }
}

/// Shows `add` (the pseudocode) above the open list and the step list, scrolling within at
/// most half of the height left: the whole listing where the window is tall enough, and
/// room for the rest in a small one.
pub fn pseudocode_area(ui: &mut Ui, add: impl FnOnce(&mut Ui)) {
    let most = (ui.available_height() * 0.5).max(80.0);
    egui::ScrollArea::vertical()
        .id_salt("pseudocode_area")
        .max_height(most)
        .auto_shrink([false, true])
        .show(ui, add);
}

/// Shows `add` (the open list, Fringe's lists) above the step list, scrolling within at most
/// two fifths of the height left, so that a small window keeps room for the steps.
pub fn above_steps(ui: &mut Ui, add: impl FnOnce(&mut Ui)) {
    let most = (ui.available_height() * 0.4).max(80.0);
    // Both ways: a table wider than the panel scrolls instead of widening it (and so
    // narrowing the canvas) when the algorithm changes.
    egui::ScrollArea::both()
        .id_salt("above_steps")
        .max_height(most)
        .auto_shrink([false, true])
        .show(ui, add);
}

/// The open list at the shown step, first `ROWS` in the order the search takes them, under a
/// header with how many are open; `name` names a node ("12,7", "triangle 4"). `order` is how
/// the algorithm picks; `no_list` says why there is nothing to show when the algorithm keeps no
/// list ordered by a key; `note` (if not empty) says above the rows what the nodes are.
pub fn open_list_ui(
    ui: &mut Ui,
    frontier: &crate::search::Frontier,
    order: crate::search::ExpansionOrder,
    finished: bool,
    (no_list, note): (&str, &str),
    name: impl Fn(usize) -> String,
) {
    /// Rows shown; the rest are counted.
    const ROWS: usize = 6;
    // A bidirectional search's list is the half's that expands now.
    let title = if frontier.is_backward() || frontier.other_len() > 0 {
        let (this, that) = if frontier.is_backward() {
            ("backward", "forward")
        } else {
            ("forward", "backward")
        };
        format!(
            "Open list, {this} half: {} open ({} {that})",
            crate::words::thousands(frontier.len()),
            crate::words::thousands(frontier.other_len())
        )
    } else {
        format!(
            "Open list: {} open",
            crate::words::thousands(frontier.len())
        )
    };
    egui::CollapsingHeader::new(title)
        .id_salt("open_list")
        .default_open(true)
        .show(ui, |ui| {
            let Some(next) = frontier.next(order, ROWS) else {
                ui.label(no_list);
                return;
            };
            if !note.is_empty() {
                ui.small(note);
            }
            if finished {
                ui.weak(match frontier.len() {
                    0 => "The search has ended; nothing was left open.".to_string(),
                    n => format!(
                        "The search has ended; {} left open, never expanded.",
                        crate::words::count(n, "node")
                    ),
                });
                return;
            }
            if next.is_empty() {
                ui.weak("Nothing is open.");
                return;
            }
            let why_first = match order {
                crate::search::ExpansionOrder::Oldest => {
                    "Breadth-first search takes the one that has waited longest"
                }
                crate::search::ExpansionOrder::LowestH => {
                    "The lowest h (the estimate alone); among equals the newest"
                }
                crate::search::ExpansionOrder::LowestKey => {
                    "The lowest key: by k1, then k2; among equals the newest"
                }
                _ => "The lowest f (g for Dijkstra); among equals the newest",
            };
            if order == crate::search::ExpansionOrder::LowestKey {
                keys_table_ui(
                    ui,
                    why_first,
                    next.iter().map(|entry| {
                        let [k1, k2] = entry.key.unwrap_or([entry.f(), entry.g]);
                        (name(entry.node), k1, k2)
                    }),
                );
            } else {
                costs_table_ui(
                    ui,
                    "open_list_rows",
                    ("next", why_first),
                    next.iter()
                        .map(|entry| (name(entry.node), entry.g, entry.h)),
                );
            }
            let more = frontier.len().saturating_sub(next.len());
            if more > 0 {
                ui.weak(format!("and {more} more"));
            }
        });
}

/// Fringe Search's lists at the shown step: the pass and its threshold, the next visits of the
/// now list in order (each to be expanded, or put off when its `f` is above the threshold), and
/// the later list's size with the threshold it makes for the next pass.
pub fn fringe_lists_ui(
    ui: &mut Ui,
    lists: &crate::search::FringeLists,
    finished: bool,
    name: impl Fn(usize) -> String,
) {
    const ROWS: usize = 6;
    let (later, _) = lists.later_summary();
    let now = lists.now_len();
    let title = format!("Fringe lists: {now} now, {later} later");
    egui::CollapsingHeader::new(title)
        .id_salt("fringe_lists")
        .default_open(true)
        .show(ui, |ui| {
            if finished {
                ui.weak(format!(
                    "The search has ended; {} left in the lists, never expanded.",
                    crate::words::count(now + later, "node")
                ));
                return;
            }
            ui.label(format!("Threshold {:.2}: a larger f waits for the next pass.", lists.threshold()))
                .on_hover_text("Fringe Search visits the now list in order; children go right after the node expanded");
            let next = lists.next(ROWS);
            if next.is_empty() {
                ui.weak("The now list is done: the later list becomes the now list.");
            } else {
                egui::Grid::new("fringe_now_rows")
                    .num_columns(6)
                    .striped(true)
                    .show(ui, |ui| {
                        for heading in ["", "", "g", "h", "f", ""] {
                            ui.strong(heading);
                        }
                        ui.end_row();
                        for (k, entry) in next.iter().enumerate() {
                            ui.label(if k == 0 { "next" } else { "" });
                            ui.label(name(entry.node));
                            ui.label(format!("{:.2}", entry.g));
                            ui.label(format!("{:.2}", entry.h));
                            ui.label(format!("{:.2}", entry.f()));
                            if entry.deferred {
                                ui.weak("put off");
                            } else {
                                ui.label("expand");
                            }
                            ui.end_row();
                        }
                    });
                let more = now.saturating_sub(next.len());
                if more > 0 {
                    ui.weak(format!("and {more} more in now"));
                }
            }
            match lists.next_threshold() {
                Some(t) => ui.weak(format!(
                    "Later: {}; the next pass's threshold is {t:.2}, the smallest f put off.",
                    crate::words::count(later, "node")
                )),
                None => ui.weak("Later: nothing put off this pass yet."),
            };
        });
}

/// A table of nodes with their g, h and f, the first row marked `first` (with a tooltip).
fn costs_table_ui(
    ui: &mut Ui,
    id: &str,
    (first, why_first): (&str, &str),
    rows: impl Iterator<Item = (String, f64, f64)>,
) {
    egui::Grid::new(id)
        .num_columns(5)
        .striped(true)
        .show(ui, |ui| {
            for heading in ["", "", "g", "h", "f"] {
                ui.strong(heading);
            }
            ui.end_row();
            for (k, (node, g, h)) in rows.enumerate() {
                if k == 0 {
                    ui.label(first).on_hover_text(why_first);
                } else {
                    ui.label("");
                }
                ui.label(node);
                ui.label(format!("{g:.2}"));
                ui.label(format!("{h:.2}"));
                ui.label(format!("{:.2}", g + h));
                ui.end_row();
            }
        });
}

/// D* Lite's open list: each inconsistent cell with its key, the next first.
fn keys_table_ui(ui: &mut Ui, why_first: &str, rows: impl Iterator<Item = (String, f64, f64)>) {
    egui::Grid::new("open_list_keys")
        .num_columns(4)
        .striped(true)
        .show(ui, |ui| {
            for heading in ["", "", "k1", "k2"] {
                ui.strong(heading);
            }
            ui.end_row();
            for (k, (node, k1, k2)) in rows.enumerate() {
                if k == 0 {
                    ui.label("next").on_hover_text(why_first);
                } else {
                    ui.label("");
                }
                ui.label(node);
                ui.label(format!("{k1:.2}"));
                ui.label(format!("{k2:.2}"));
                ui.end_row();
            }
        });
}

/// IDA*'s path at the shown step — all the memory it keeps: its depth, and its last nodes,
/// the deepest first (the one expanded last, whose children are tried next).
pub fn ida_path_ui(
    ui: &mut Ui,
    path: &crate::search::IdaPath,
    threshold: f64,
    finished: bool,
    name: impl Fn(usize) -> String,
) {
    const ROWS: usize = 6;
    let nodes = path.nodes();
    let title = format!("IDA* path: depth {}", nodes.len().saturating_sub(1));
    egui::CollapsingHeader::new(title)
        .id_salt("ida_path")
        .default_open(true)
        .show(ui, |ui| {
            if finished {
                ui.weak("The search has ended.");
                return;
            }
            ui.label("IDA* keeps no open list, only the path from the start (pink on the map): it tries the last node's children in turn, deeper while f stays within the threshold, and backs up when none does.");
            ui.label(match path.next_threshold() {
                Some(next) => format!(
                    "Threshold {threshold:.2}; the smallest f cut off by the nodes backed up from so far is {next:.2}: the next pass's threshold unless a smaller one comes."
                ),
                None => format!("Threshold {threshold:.2}; nothing cut off yet this pass."),
            })
            .on_hover_text("A child whose f is above the threshold is not searched this pass; the smallest such f becomes the next threshold");
            ui.label(format!(
                "Cut off this pass: {} cells, {} times (purple on the map)",
                crate::words::thousands(path.cut_off_nodes()),
                crate::words::thousands(path.cut_offs())
            ))
            .on_hover_text("Children tried whose f was above the threshold: IDA* keeps no record of them, so a cell reached along several paths is cut off each time, and the next pass finds them again from the start. Fringe Search keeps them, once each, in its later list");
            if nodes.is_empty() {
                ui.weak("No path: a pass is about to start from the start.");
                return;
            }
            costs_table_ui(
                ui,
                "ida_path_rows",
                ("deepest", "The node expanded last: its children are tried next"),
                nodes.iter().rev().take(ROWS).map(|n| (name(n.node), n.g, n.h)),
            );
            let more = nodes.len().saturating_sub(ROWS);
            if more > 0 {
                ui.weak(format!("and {more} more back to the start"));
            }
        });
}

/// Of `starts` (steps that begin a pass or a phase, in order), the first after `cursor`.
pub fn next_start(starts: &[usize], cursor: usize) -> Option<usize> {
    let later = starts.partition_point(|&step| step <= cursor);
    starts.get(later).copied()
}

/// Of `starts` (in order), the one that begins the part `cursor` is in, or the one before when
/// `cursor` is at a start (`None`: none earlier).
pub fn previous_start(starts: &[usize], cursor: usize) -> Option<usize> {
    let earlier = starts.partition_point(|&step| step < cursor);
    earlier.checked_sub(1).and_then(|i| starts.get(i)).copied()
}

/// `slider` showing its whole number in groups of three digits ("281,243"), and reading one
/// typed with or without them.
pub fn grouped_digits(slider: egui::Slider<'_>) -> egui::Slider<'_> {
    slider
        .custom_formatter(|n, _| crate::words::thousands(n.round().max(0.0) as usize))
        .custom_parser(crate::words::parse_grouped)
}

/// A tooltip's lines saying at which recorded steps the search expanded `node` (a cell, a
/// triangle) and to which step E goes from the step `cursor`; `partial` when the recording
/// left steps out (so "not expanded" may not be the whole truth).
pub fn expansion_tooltip_ui(
    ui: &mut Ui,
    index: &crate::search::ExpansionSteps,
    node: usize,
    cursor: usize,
    partial: bool,
) {
    let steps: Vec<usize> = index.of(node).collect();
    let mut words = crate::words::expanded_at(&steps);
    if steps.is_empty() && partial {
        words.push_str(" in the recorded steps");
    }
    ui.label(words);
    // Nothing to say when its only expansion is the step shown.
    if let Some(step) = index
        .next_after(node, cursor)
        .filter(|&step| step != cursor)
    {
        ui.weak(format!("E: go to step {}", crate::words::thousands(step)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticking_advances_by_speed_and_stops_at_the_end() {
        let mut p = Playback {
            speed: 10.0,
            ..Playback::default()
        };
        p.toggle(25);
        assert!(p.tick(0.25, 25)); // 2.5 steps: 2 now, the half carried
        assert_eq!(p.cursor, 2);
        p.tick(0.05, 25);
        assert_eq!(p.cursor, 3);
        p.tick(10.0, 25);
        assert_eq!(p.cursor, 25);
        assert!(!p.playing);
        p.toggle(25);
        assert_eq!(p.cursor, 0, "play at the end starts over");
    }
}
