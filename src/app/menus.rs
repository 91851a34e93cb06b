//! The menu bar: scene switches, File (the scene's commands, open, save, pictures, recent,
//! quit), View (fit, diagnostics, reload on change, theme, interface size) and Help.

use super::files::RecentFiles;
use super::{Command, NavlabApp, SceneKind, Scenes, UiCommand, navmesh_scene};
use crate::assets;

impl NavlabApp {
    /// The menu bar: the scenes, File, View, Help, and the name of what is shown.
    pub(super) fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            self.scene_tabs.clear();
            for &kind in Scenes::ALL {
                let scene = self.scenes.get(kind);
                let (name, about) = (scene.name(), scene.about());
                let tab = ui
                    .selectable_value(&mut self.settings.scene, kind, name)
                    .on_hover_text(about);
                self.scene_tabs.push((kind, tab.rect));
            }
            ui.separator();
            ui.menu_button("File", |ui| self.file_menu_ui(ui));
            ui.menu_button("View", |ui| self.view_menu_ui(ui));
            if UiCommand::Help.menu_item(ui, true, true) {
                self.run(UiCommand::Help);
            }
            ui.separator();
            let (name, unsaved) = self.document();
            ui.label(match unsaved {
                Some(note) => format!("{name} ({note})"),
                None => name,
            });
        });
    }

    /// A menu item for `command`, enabled when it can run; runs it when clicked.
    fn command_item(&mut self, ui: &mut egui::Ui, command: UiCommand) {
        if super::IN_BROWSER && !command.in_browser() {
            return;
        }
        let can = {
            let (_, shared) = self.scene_and_shared();
            shared.can(command)
        };
        if command.menu_item(ui, can, self.keys_work(command)) {
            self.run(command);
        }
    }

    /// File: the scene's own commands, then the mesh's, pictures, Recent, the built-in meshes
    /// and Quit.
    fn file_menu_ui(&mut self, ui: &mut egui::Ui) {
        let own: Vec<UiCommand> = self
            .scene()
            .commands()
            .iter()
            .copied()
            .filter(|command| command.in_file_menu())
            .collect();
        for &command in &own {
            self.command_item(ui, command);
        }
        ui.separator();
        for command in [
            UiCommand::OpenMesh,
            UiCommand::OpenPath,
            UiCommand::ReloadMesh,
            UiCommand::SaveMeshAs,
        ] {
            if !own.contains(&command) {
                self.command_item(ui, command);
            }
        }
        ui.separator();
        self.command_item(ui, UiCommand::SavePicture);
        self.command_item(ui, UiCommand::CopyPicture);
        self.command_item(ui, UiCommand::SaveLesson);
        self.command_item(ui, UiCommand::CopyLink);
        self.command_item(ui, UiCommand::ExportAnimation);
        ui.separator();
        // A browser gives files, not paths to open again.
        if !super::IN_BROWSER {
            self.recent_menu_ui(ui);
        }
        ui.menu_button("Built-in meshes", |ui| {
            for (i, scene) in assets::ALL.iter().enumerate() {
                if ui.button(scene.name).clicked() {
                    self.command(Command::LoadEmbedded(i));
                }
            }
        });
        ui.separator();
        self.command_item(ui, UiCommand::Quit);
    }

    /// File → Recent: the files opened last, newest first.
    fn recent_menu_ui(&mut self, ui: &mut egui::Ui) {
        ui.menu_button("Recent", |ui| {
            if self.settings.recent.is_empty() {
                ui.label("(none yet)");
            }
            for path in self.settings.recent.paths().to_vec() {
                // A file moved or deleted since is shown, greyed, rather than failing.
                let there = path.is_file();
                let item = ui
                    .add_enabled(there, egui::Button::new(crate::input::shown(&path)))
                    .on_disabled_hover_text("Not found: moved or deleted since");
                if item.clicked() {
                    // Maps and meshes alike: each opens in its own scene.
                    self.open_path(path);
                }
            }
            if !self.settings.recent.is_empty() {
                ui.separator();
                if ui.button("Clear the list").clicked() {
                    self.settings.recent = RecentFiles::default();
                }
            }
        });
    }

    /// View: fit, the mesh diagnostics, reloading changed files, the theme and the interface
    /// size.
    fn view_menu_ui(&mut self, ui: &mut egui::Ui) {
        self.command_item(ui, UiCommand::FitView);
        if ui
            .button("Mesh diagnostics")
            .on_hover_text("What is wrong with the mesh shown: islands, seams, T-junctions…")
            .clicked()
        {
            self.settings.scene = SceneKind::Navmesh;
            self.scenes.navmesh.screen.side_tab = navmesh_scene::SideTab::Diagnostics;
        }
        if !super::IN_BROWSER {
            ui.separator();
            ui.checkbox(
                &mut self.settings.reload_changed_files,
                "Reload files changed on disk",
            )
            .on_hover_text(
                "When the mesh's or the map's file is written again (say, exported anew), load it again, keeping start and goal; unsaved edits or an unsaved repair are never replaced: the status bar says the file changed",
            );
        }
        ui.separator();
        // egui keeps both between runs (its options are saved with its memory).
        egui::Grid::new("view_menu_appearance")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Theme");
                ui.horizontal(|ui| {
                    let mut chosen = ui.options(|options| options.theme_preference);
                    for (theme, name, tip) in [
                        (
                            egui::ThemePreference::System,
                            "System",
                            "The desktop's light or dark preference",
                        ),
                        (
                            egui::ThemePreference::Dark,
                            "Dark",
                            "Light text on dark panels",
                        ),
                        (
                            egui::ThemePreference::Light,
                            "Light",
                            "Dark text on light panels (for a projector); the canvas stays dark",
                        ),
                    ] {
                        if ui
                            .selectable_value(&mut chosen, theme, name)
                            .on_hover_text(tip)
                            .clicked()
                        {
                            ui.ctx().set_theme(chosen);
                        }
                    }
                });
                ui.end_row();
                interface_size_row(ui);
            });
    }
}

/// View → Interface size (a row of the menu's grid): egui's zoom of the whole window (text, panels, canvas), which egui
/// keeps between runs with its options; Ctrl+Plus, Ctrl+Minus and Ctrl+0 work anywhere.
fn interface_size_row(ui: &mut egui::Ui) {
    use egui::gui_zoom::kb_shortcuts;
    let ctx = ui.ctx().clone();
    let zoom = ctx.zoom_factor();
    ui.label("Interface size").on_hover_text(
        "Everything in the window larger or smaller: for a projector or a small screen; kept between runs",
    );
    ui.horizontal(|ui| {
        let shortcut = |s: &egui::KeyboardShortcut| ctx.format_shortcut(s);
        if ui
            .button("Larger")
            .on_hover_text(shortcut(&kb_shortcuts::ZOOM_IN))
            .clicked()
        {
            egui::gui_zoom::zoom_in(&ctx);
        }
        if ui
            .button("Smaller")
            .on_hover_text(shortcut(&kb_shortcuts::ZOOM_OUT))
            .clicked()
        {
            egui::gui_zoom::zoom_out(&ctx);
        }
        if ui
            .add_enabled(zoom != 1.0, egui::Button::new("Normal"))
            .on_hover_text(shortcut(&kb_shortcuts::ZOOM_RESET))
            .clicked()
        {
            ctx.set_zoom_factor(1.0);
        }
        ui.weak(format!("{:.0} %", zoom * 100.0));
    });
    ui.end_row();
}
