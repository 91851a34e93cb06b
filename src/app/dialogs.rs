//! The app's own windows: the unsaved-changes question, New map, the typed path, last
//! session's edits, the error banner, the keyboard help and the veil over dragged files.

use super::path_prompt::{PromptAnswer, PromptPurpose};
use super::{Banner, Command, NavlabApp, SAVE_FAILED, Scenes, UiCommand, Unsaved};
use crate::words::count;

impl NavlabApp {
    /// The windows over the scene, in the order they stack: the help, the unsaved-changes
    /// question, New map, the typed path, last session's edits.
    pub(super) fn windows_ui(&mut self, ctx: &egui::Context) {
        self.link_address_ui(ctx);
        if self.windows.help {
            // Taller than a small window: it scrolls rather than running off the screen.
            let room = ctx.content_rect().height() - 80.0;
            let mut open = true;
            egui::Window::new("Keyboard and mouse")
                .open(&mut open)
                .vscroll(true)
                .default_height(room.max(200.0))
                .max_height(room.max(200.0))
                .show(ctx, |ui| help_ui(ui, &self.scenes));
            self.windows.help &= open;
        }
        self.unsaved_dialog_ui(ctx);
        self.new_map_dialog_ui(ctx);
        self.export_form_ui(ctx);
        self.path_prompt_ui(ctx);
        self.recovered_ui(ctx);
    }

    /// Asks whether to open last session's unsaved edits.
    fn recovered_ui(&mut self, ctx: &egui::Context) {
        // Not over the unsaved-changes question that "Open them" can raise.
        let Some(offer) = self.recovered.front().filter(|_| self.pending.is_none()) else {
            return;
        };
        let recovered = &offer.recovered;
        let more = self.recovered.len() - 1;
        let what = recovered.describe();
        let opens_in = match (&recovered.map, &recovered.mesh) {
            (Some(_), Some(_)) => "In the Tile map and Navmesh views, still unsaved",
            (None, Some(_)) => "In the Navmesh view, still unsaved",
            _ => "In the Tile map view, still unsaved",
        };
        let mut answer = None;
        egui::Window::new("Unsaved edits from the last session")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .show(ctx, |ui| {
                ui.label(format!(
                    "navlab ended without saving or discarding edits to {what}. They were kept."
                ));
                if more > 0 {
                    ui.label(format!(
                        "Then edits left by {}.",
                        crate::words::count(more, "more window")
                    ));
                }
                ui.horizontal(|ui| {
                    if ui.button("Open them").on_hover_text(opens_in).clicked() {
                        answer = Some(true);
                    }
                    if ui.button("Discard them").clicked() {
                        answer = Some(false);
                    }
                });
            });
        match answer {
            Some(true) => self.command(Command::OpenRecovered),
            Some(false) => {
                if let Some(offer) = self.recovered.pop_front() {
                    offer.dismiss();
                }
            }
            None => {}
        }
    }

    fn unsaved_dialog_ui(&mut self, ctx: &egui::Context) {
        let Some(pending) = self.pending.clone() else {
            return;
        };
        let Some(unsaved) = self.unsaved_for(&pending) else {
            // Saved or discarded meanwhile: nothing to ask.
            self.pending = None;
            self.commands.push(pending);
            return;
        };
        let mut answer = None;
        egui::Window::new("Unsaved changes")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .show(ctx, |ui| {
                ui.label(match unsaved {
                    Unsaved::Map => "The tile map has edits that are not saved.",
                    Unsaved::RepairedMesh => {
                        "The mesh was repaired in memory and the repair is not saved."
                    }
                    Unsaved::EditedMesh => {
                        "The mesh has edits (obstacles, doors, areas) that are not saved."
                    }
                });
                ui.horizontal(|ui| {
                    if ui.button("Save and continue").clicked() {
                        answer = Some(1);
                    }
                    if ui.button("Discard changes").clicked() {
                        answer = Some(2);
                    }
                    if ui.button("Cancel").on_hover_text("Escape").clicked() {
                        answer = Some(3);
                    }
                });
            });
        if ctx.input(|i| i.key_pressed(egui::Key::Escape)) && self.path_prompt.is_none() {
            answer = Some(3);
        }
        let saved = |app: &mut Self| match unsaved {
            Unsaved::Map => app.save_map(false),
            Unsaved::RepairedMesh | Unsaved::EditedMesh => app.save_mesh_as(),
        };
        match answer {
            Some(1) if saved(self) => {
                // Through `command` again: the other document may have unsaved changes too.
                self.pending = None;
                self.command(pending);
            }
            Some(2) => {
                match unsaved {
                    Unsaved::Map => self.map.dirty = false,
                    Unsaved::RepairedMesh => self.scenes.navmesh.origin.unsaved_repair = false,
                    Unsaved::EditedMesh => self.scenes.navmesh.mark_edits_saved(),
                }
                self.pending = None;
                self.command(pending);
            }
            Some(3) => self.pending = None,
            _ => {}
        }
    }

    /// The typed-path window, and what its answer does.
    fn path_prompt_ui(&mut self, ctx: &egui::Context) {
        let Some(prompt) = &mut self.path_prompt else {
            return;
        };
        let purpose = prompt.purpose;
        match prompt.ui(ctx) {
            Some(PromptAnswer::Chosen(path)) => {
                self.path_prompt = None;
                match purpose {
                    PromptPurpose::Open => self.open_path(path),
                    PromptPurpose::SaveMap => {
                        self.save_map_to(path);
                    }
                    PromptPurpose::SaveMesh => {
                        self.save_mesh_to(path);
                    }
                    PromptPurpose::SavePicture => {
                        if let Some(image) = self.windows.picture_to_save.take() {
                            self.save_picture_to(&image, path);
                        }
                    }
                    PromptPurpose::SaveLesson => self.save_lesson_reporting(&path),
                    PromptPurpose::OpenTrace => self.compare_trace(&path),
                    PromptPurpose::SaveCrowdRun => self.save_crowd_run_to(&path),
                    PromptPurpose::OpenLevel => self.open_level_file(&path),
                    PromptPurpose::SaveLevelNavmesh => {
                        self.save_level_navmesh_to(path);
                    }
                    PromptPurpose::SaveAnimation => {
                        if let Some(form) = self.windows.export_to_save.take() {
                            self.start_export(path, form);
                        }
                    }
                }
            }
            Some(PromptAnswer::Cancelled) => {
                self.path_prompt = None;
                self.windows.picture_to_save = None;
                self.windows.export_to_save = None;
            }
            None => {}
        }
    }

    /// Opens the Export animation window: the 40 steps up to the shown one (the first 40 when
    /// fewer than 10 come before it, as on a view just opened), 10 a second, the window's
    /// size.
    pub(super) fn open_export_form(&mut self) {
        let shown = self.scene().shown_step();
        let (_, len) = self.scene().step_counts();
        let size = self.content_size;
        let (from, to) = if shown < 10 {
            (0, len.min(40))
        } else {
            (shown.saturating_sub(40), shown)
        };
        self.windows.export_form = Some(super::animation::ExportForm {
            from,
            to: to.max(from),
            fps: 10,
            canvas_only: false,
            size,
        });
    }

    /// The Export animation window: the steps, the rate, the window or the canvas; Export…
    /// asks where.
    fn export_form_ui(&mut self, ctx: &egui::Context) {
        let Some(mut form) = self.windows.export_form else {
            return;
        };
        let (_, len) = self.scene().step_counts();
        let canvas = self.scene().canvas_area();
        let (mut export, mut cancel) = (false, false);
        egui::Window::new("Export animation")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label("From step");
                    ui.add(egui::DragValue::new(&mut form.from).range(0..=len))
                        .labelled_by(label.id);
                    let label = ui.label("to");
                    ui.add(egui::DragValue::new(&mut form.to).range(0..=len))
                        .labelled_by(label.id);
                });
                ui.add(egui::Slider::new(&mut form.fps, 1..=50).text("frames per second"));
                ui.checkbox(&mut form.canvas_only, "Canvas only")
                    .on_hover_text("Only the canvas, not the panels");
                // Where it goes is asked later: the plan's path does not bear on its size.
                let plan = form.plan(std::path::PathBuf::new());
                // The frames are the canvas's size when only the canvas is recorded.
                let [w, h] = match canvas.filter(|_| form.canvas_only) {
                    Some(rect) => [
                        rect.width().round() as usize,
                        rect.height().round() as usize,
                    ],
                    None => form.size,
                };
                ui.label(format!(
                    "{} of {w} × {h} pixels",
                    count(plan.frames(), "frame")
                ));
                let problem = plan.problem([w, h]);
                if let Some(problem) = &problem {
                    ui.colored_label(
                        super::ink::on_panel(ui.visuals(), super::ink::WARNING),
                        format!("Too large: {problem}"),
                    );
                }
                ui.horizontal(|ui| {
                    export = ui
                        .add_enabled(
                            form.from <= form.to && problem.is_none(),
                            egui::Button::new("Export…"),
                        )
                        .on_hover_text(
                            "Asks where to save the GIF, then records it in the background",
                        )
                        .clicked();
                    cancel = ui.button("Cancel").on_hover_text("Escape").clicked();
                });
            });
        cancel |= ctx.input(|i| i.key_pressed(egui::Key::Escape));
        self.windows.export_form = Some(form);
        if cancel {
            self.windows.export_form = None;
        } else if export {
            self.windows.export_form = None;
            let stem = super::files::file_stem(&self.scene().picture_name(&self.map));
            let suggested = format!("{stem}.gif");
            match self.dialogs.save_animation(&suggested) {
                super::files::Picked::Path(path) => self.start_export(path, form),
                super::files::Picked::NoDialog => {
                    self.windows.export_to_save = Some(form);
                    let start = self.working_folder().join(&suggested);
                    self.prompt_for_path(PromptPurpose::SaveAnimation, start, true);
                }
                super::files::Picked::Cancelled => {}
            }
        }
    }

    /// Records the animation `form` asks for into `path`, on a worker thread.
    pub(super) fn start_export(
        &mut self,
        path: std::path::PathBuf,
        form: super::animation::ExportForm,
    ) {
        if super::IN_BROWSER {
            return self.export_here(path, form);
        }
        // What is shown, as a lesson in an empty folder of its own (so it holds its files).
        let folder = match tempfile::tempdir() {
            Ok(folder) => folder,
            Err(error) => return self.fail(SAVE_FAILED, error.to_string()),
        };
        let lesson_path = folder.path().join("export.navlab");
        let lesson = match self.lesson(&lesson_path) {
            Ok(lesson) => lesson,
            Err(message) => return self.fail(SAVE_FAILED, message),
        };
        let plan = form.plan(path.clone());
        match super::animation::ExportJob::start(folder, &lesson, plan) {
            Ok(job) => {
                self.notice = Some(format!(
                    "Recording the animation into {}…",
                    crate::input::shown(&path)
                ));
                self.windows.export_job = Some(job);
            }
            Err(message) => self.fail(SAVE_FAILED, message),
        }
    }

    /// Records the animation at once, in this frame, and saves it (a browser page has no
    /// thread to record on): a window of its own opens what is shown as a lesson, as on a
    /// desktop, so that the recording leaves this one as it was.
    fn export_here(&mut self, path: std::path::PathBuf, form: super::animation::ExportForm) {
        let window = self.lesson_in(None).and_then(|lesson| {
            let json = serde_json::to_vec(&lesson).map_err(|e| e.to_string())?;
            let dialogs = super::files::ScriptedDialogs {
                no_dialog: true,
                ..Default::default()
            };
            let mut window = NavlabApp::new(super::AppSettings::default(), Box::new(dialogs));
            window.open_lesson_bytes(&json, "what is shown", None)?;
            Ok(window)
        });
        match window {
            Ok(window) => {
                let plan = form.plan(path.clone());
                let job =
                    super::animation::ExportJob::here(window, plan, egui::ThemePreference::Dark);
                self.notice = Some(format!(
                    "Recording the animation into {}…",
                    crate::input::shown(&path)
                ));
                self.windows.export_job = Some(job);
            }
            Err(message) => self.fail(SAVE_FAILED, message),
        }
    }

    fn say_recorded(&mut self, path: &std::path::Path, report: &super::animation::AnimationReport) {
        self.notice = Some(format!(
            "Saved the animation as {} ({} of {} × {})",
            crate::input::shown(path),
            count(report.frames, "frame"),
            report.size[0],
            report.size[1]
        ));
    }

    /// Stops the animation being recorded; nothing is written.
    pub(super) fn cancel_export(&mut self) {
        if let Some(job) = self.windows.export_job.take() {
            self.notice = Some(format!(
                "Cancelled the animation; {} was not written",
                crate::input::shown(&job.path)
            ));
            job.cancel();
        }
    }

    /// Says how a recording ended, once it has, and how far it is while it runs; true while
    /// one runs.
    pub(super) fn poll_export(&mut self) -> bool {
        let Some(job) = &mut self.windows.export_job else {
            return false;
        };
        let Some(result) = job.poll() else {
            let (done, total) = job.progress();
            self.notice = Some(format!(
                "Recording the animation into {}: {done} of {total} frames…",
                crate::input::shown(&job.path),
            ));
            return true;
        };
        let path = job.path.clone();
        self.windows.export_job = None;
        match result {
            Ok(report) => self.say_recorded(&path, &report),
            Err(message) => self.fail(SAVE_FAILED, message),
        }
        false
    }

    /// Opens the New map window at the current map's size (an open one keeps what was typed).
    pub(super) fn ask_new_map_size(&mut self) {
        if self.windows.new_map_size.is_none() {
            let map = &self.map.map;
            self.windows.new_map_size = Some((map.width(), map.height()));
        }
    }

    fn new_map_dialog_ui(&mut self, ctx: &egui::Context) {
        let Some((mut w, mut h)) = self.windows.new_map_size else {
            return;
        };
        let mut create = false;
        let mut cancel = false;
        egui::Window::new("New map")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label("Width");
                    ui.add(egui::DragValue::new(&mut w).range(1..=crate::grid::map::MAX_SIDE))
                        .labelled_by(label.id);
                    let label = ui.label("Height");
                    ui.add(egui::DragValue::new(&mut h).range(1..=crate::grid::map::MAX_SIDE))
                        .labelled_by(label.id);
                });
                ui.horizontal(|ui| {
                    create = ui.button("Create").on_hover_text("Enter").clicked();
                    cancel = ui.button("Cancel").on_hover_text("Escape").clicked();
                });
            });
        // Enter creates and Escape cancels, as in the path prompt; Enter in a size field
        // first ends its editing (egui keeps the typed number).
        if !ctx.egui_wants_keyboard_input() {
            create |= ctx.input(|i| i.key_pressed(egui::Key::Enter));
        }
        cancel |= ctx.input(|i| i.key_pressed(egui::Key::Escape));
        self.windows.new_map_size = Some((w, h));
        if create {
            self.windows.new_map_size = None;
            self.command(Command::NewMap(w, h));
        }
        if cancel {
            self.windows.new_map_size = None;
        }
    }
}

/// The error banner, when there is an error; Dismiss clears it.
pub(super) fn error_ui(ui: &mut egui::Ui, banner: &mut Banner, shown: super::SceneKind) {
    let context = banner.context;
    if let Some(error) = banner.error_in(shown)
        && error_banner_ui(ui, context, error)
    {
        banner.error = None;
    }
}

/// A red banner with the error and a close button; returns true when dismissed.
fn error_banner_ui(ui: &mut egui::Ui, (headline, reassurance): (&str, &str), error: &str) -> bool {
    let mut dismissed = false;
    egui::Frame::new()
        .fill(egui::Color32::from_rgb(120, 30, 30))
        .inner_margin(8.0)
        .show(ui, |ui| {
            // The message wraps over the banner's width: it names a file and a line, and is
            // read whole (a long path used to run off the window).
            let message = format!("{headline}: {error}");
            ui.add(
                egui::Label::new(egui::RichText::new(&message).color(egui::Color32::WHITE)).wrap(),
            );
            ui.add(
                egui::Label::new(
                    egui::RichText::new(reassurance).color(egui::Color32::from_gray(220)),
                )
                .wrap(),
            );
            ui.horizontal(|ui| {
                if ui.button("Dismiss").clicked() {
                    dismissed = true;
                }
                if ui
                    .button("Copy")
                    .on_hover_text("Copy the message, e.g. for a bug report")
                    .clicked()
                {
                    ui.ctx().copy_text(message.clone());
                }
            });
        });
    dismissed
}

/// The keyboard help: every command's keys, then each scene's keys and mouse, under the
/// scene's name; what is written is what the commands and scenes say of themselves.
fn help_ui(ui: &mut egui::Ui, scenes: &Scenes) {
    let ctx = ui.ctx().clone();
    egui::Grid::new("help").num_columns(2).show(ui, |ui| {
        ui.heading("Everywhere");
        ui.end_row();
        for command in UiCommand::ALL {
            let keys = command.keys_text(&ctx);
            if keys.is_empty() || (super::IN_BROWSER && !command.in_browser()) {
                continue;
            }
            ui.strong(keys);
            ui.label(command.help_text());
            ui.end_row();
        }
        for (keys, what) in [
            ("Drop a file", "open it, mesh or map"),
            (
                "Enter / Escape",
                "confirm / cancel a dialog; Escape closes this help",
            ),
            (
                "Ctrl+Plus / Ctrl+Minus / Ctrl+0",
                "larger / smaller / normal interface (View menu)",
            ),
        ] {
            ui.strong(keys);
            ui.label(what);
            ui.end_row();
        }
        for &kind in Scenes::ALL {
            let scene = scenes.get(kind);
            ui.end_row();
            ui.heading(scene.name());
            ui.end_row();
            for (keys, what) in scene.keys() {
                ui.strong(keys);
                ui.label(what);
                ui.end_row();
            }
            let rows = scene.legend_rows();
            if !rows.is_empty() {
                ui.strong("Colours now");
                ui.vertical(|ui| crate::app::legend::legend_rows_ui(ui, &rows));
                ui.end_row();
            }
        }
    });
}

/// While files are dragged over the window: a veil over it saying what a drop would open, and
/// where (or why it would not).
pub(super) fn drop_preview_ui(ctx: &egui::Context) {
    use super::file_kinds::{Opens, opens_as};
    let hovered = ctx.input(|i| i.raw.hovered_files.clone());
    let Some(first) = hovered.first() else {
        return;
    };
    let name = |path: &std::path::Path| crate::input::file_label(path);
    let mut text = match first.path.as_deref() {
        Some(path) => match opens_as(path) {
            Ok(Opens::Map) => format!("Drop to open {} in the tile-map view", name(path)),
            Ok(Opens::Mesh) => format!("Drop to open {} in the navmesh view", name(path)),
            Ok(Opens::Lesson) => format!("Drop to open the lesson {}", name(path)),
            Ok(Opens::CrowdRun) => format!(
                "Drop to replay the crowd run {} on this navmesh",
                name(path)
            ),
            Err(refusal) => refusal,
        },
        // Some desktops name the file only once it is dropped.
        None => "Drop to open the file".to_string(),
    };
    if hovered.len() > 1 {
        text.push_str(&format!(" (the first of {} files)", hovered.len()));
    }
    let layer = egui::LayerId::new(egui::Order::Foreground, egui::Id::unique("drop_preview"));
    ctx.layer_painter(layer).rect_filled(
        ctx.content_rect(),
        0.0,
        egui::Color32::from_black_alpha(180),
    );
    egui::Area::new(egui::Id::unique("drop_preview_text"))
        .order(egui::Order::Tooltip)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .interactable(false)
        .show(ctx, |ui| {
            ui.label(
                egui::RichText::new(text)
                    .heading()
                    .color(egui::Color32::WHITE),
            );
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The browser's way to export (from a lesson of what is shown, without a thread or a
    /// temporary folder) records one step each time the window draws, saying how far it is,
    /// holds the steps asked for and leaves the window as it was; here the download is a file.
    #[test]
    fn an_animation_recorded_here_holds_the_steps_asked_for() {
        let dir = tempfile::tempdir().expect("temp");
        let path = dir.path().join("steps.gif");
        let mut app = NavlabApp::new(
            super::super::AppSettings::default(),
            Box::new(super::super::files::ScriptedDialogs::default()),
        );
        let shown = app.scenes.navmesh.query.playback.cursor;
        let form = super::super::animation::ExportForm {
            from: 3,
            to: 7,
            fps: 10,
            canvas_only: true,
            size: [640, 400],
        };
        app.export_here(path.clone(), form);
        assert_eq!(app.error(), None);
        let mut polls = 0;
        while app.poll_export() {
            polls += 1;
            let notice = app.notice.clone().unwrap_or_default();
            assert!(
                notice.ends_with(&format!(": {polls} of 5 frames…")),
                "{notice}"
            );
            assert!(!path.exists(), "written before the last frame");
        }
        assert_eq!(polls, 4, "one frame each time the window draws");
        assert_eq!(app.error(), None);
        assert_eq!(app.scenes.navmesh.query.playback.cursor, shown);
        let notice = app.notice.clone().unwrap_or_default();
        assert!(notice.contains("5 frames"), "{notice}");
        let file = std::fs::File::open(&path).expect("written");
        let mut decoder = gif::DecodeOptions::new()
            .read_info(std::io::BufReader::new(file))
            .expect("a GIF");
        let mut frames = 0;
        while decoder.read_next_frame().expect("decodes").is_some() {
            frames += 1;
        }
        assert_eq!(frames, 5);
    }
}
