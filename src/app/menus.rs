//! The menu bar: scene switches, File (open, save, pictures, recent, quit), View (fit,
//! diagnostics, reload on change, theme, interface size) and Help.

use super::files::RecentFiles;
use super::{BUILD_MESH_TIP, Command, NavlabApp, SceneKind, navmesh_scene};
use crate::assets;

impl NavlabApp {
    /// The menu bar: the scenes, File, View, Help, and the name of what is shown.
    pub(super) fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.selectable_value(&mut self.settings.scene, SceneKind::Navmesh, "Navmesh")
                .on_hover_text("A* over triangles and the funnel");
            ui.selectable_value(&mut self.settings.scene, SceneKind::TileMap, "Tile map")
                .on_hover_text("Edit terrain; BFS, Dijkstra, A*, IDA*, Fringe compared");
            ui.selectable_value(&mut self.settings.scene, SceneKind::Pursuit, "Pursuit")
                .on_hover_text("A mob hunts the kitten on the tile map by sight and smell trail");
            ui.separator();
            ui.menu_button("File", |ui| {
                if self.settings.scene.uses_map() {
                    if ui.button("New map…").on_hover_text("Ctrl+N").clicked() {
                        self.ask_new_map_size();
                    }
                    if ui.button("Open map…").on_hover_text("Ctrl+O").clicked() {
                        self.command(Command::OpenMapDialog);
                    }
                    if ui.button("Save map").on_hover_text("Ctrl+S").clicked() {
                        self.command(Command::SaveMap);
                    }
                    if ui
                        .button("Save map as…")
                        .on_hover_text("Ctrl+Shift+S")
                        .clicked()
                    {
                        self.command(Command::SaveMapAs);
                    }
                    let file = self.grid.file.clone();
                    if ui
                        .add_enabled(file.is_some(), egui::Button::new("Reload map"))
                        .on_hover_text("F5 · the map's file as it is on disk (asks about unsaved edits)")
                        .clicked()
                        && let Some(file) = file
                    {
                        self.command(Command::LoadMap(file));
                    }
                    if ui
                        .add_enabled(
                            !self.is_building_mesh(),
                            egui::Button::new("Build navmesh from map"),
                        )
                        .on_hover_text(BUILD_MESH_TIP)
                        .clicked()
                    {
                        self.command(Command::BuildMeshFromMap);
                    }
                    ui.separator();
                }
                if ui
                    .button("Open mesh…")
                    .on_hover_text("OBJ or Polyanya .mesh (Ctrl+O in the Navmesh view)")
                    .clicked()
                {
                    self.command(Command::OpenDialog);
                }
                if ui
                    .button("Open path…")
                    .on_hover_text("Ctrl+L · type or paste the path of a mesh or a tile map")
                    .clicked()
                {
                    self.command(Command::OpenPathPrompt);
                }
                if ui
                    .button("Reload mesh")
                    .on_hover_text("The mesh's file as it is on disk (F5 in the Navmesh view)")
                    .clicked()
                {
                    self.command(Command::Reload);
                }
                if ui
                    .button("Save mesh as…")
                    .on_hover_text(
                        "Write the mesh shown as Wavefront OBJ, or for a .mesh name as a Polyanya mesh (convex polygons, flat)",
                    )
                    .clicked()
                {
                    self.save_mesh_as();
                }
                ui.separator();
                if ui
                    .button("Save picture…")
                    .on_hover_text("F12 · a PNG of the window as it is now, for slides or a bug report")
                    .clicked()
                {
                    self.command(Command::SavePicture);
                }
                if ui
                    .button("Copy picture")
                    .on_hover_text("Ctrl+Shift+C · the window as a picture on the clipboard, to paste into slides or a bug report")
                    .clicked()
                {
                    self.command(Command::CopyPicture);
                }
                ui.separator();
                ui.menu_button("Recent", |ui| {
                    if self.settings.recent.is_empty() {
                        ui.label("(none yet)");
                    }
                    for path in self.settings.recent.paths().to_vec() {
                        // A file moved or deleted since is shown, greyed, rather than failing.
                        let there = path.is_file();
                        let item = ui
                            .add_enabled(there, egui::Button::new(path.display().to_string()))
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
                ui.menu_button("Built-in meshes", |ui| {
                    for (i, scene) in assets::ALL.iter().enumerate() {
                        if ui.button(scene.name).clicked() {
                            self.command(Command::LoadEmbedded(i));
                        }
                    }
                });
                ui.separator();
                if ui
                    .button("Quit")
                    .on_hover_text("Close navlab (Ctrl+Q); unsaved edits or an unsaved repair ask first")
                    .clicked()
                {
                    self.command(Command::Quit);
                }
            });
            ui.menu_button("View", |ui| {
                if ui.button("Fit to view").on_hover_text("F").clicked() {
                    self.scene.fit_view();
                }
                if ui.button("Mesh diagnostics").clicked() {
                    self.settings.scene = SceneKind::Navmesh;
                    self.scene.side_tab = navmesh_scene::SideTab::Diagnostics;
                }
                ui.separator();
                ui.checkbox(
                    &mut self.settings.reload_changed_files,
                    "Reload files changed on disk",
                )
                .on_hover_text(
                    "When the mesh's or the map's file is written again (say, exported anew), load it again, keeping start and goal; unsaved edits or an unsaved repair are never replaced: the status bar says the file changed",
                );
                ui.separator();
                // egui keeps both between runs (its options are saved with its memory).
                egui::Grid::new("view_menu_appearance")
                    .num_columns(2)
                    .show(ui, |ui| {
                        ui.label("Theme");
                        ui.horizontal(|ui| {
                            let mut chosen = ui.options(|options| options.theme_preference);
                            for (theme, name, tip) in [
                                (egui::ThemePreference::System, "System", "The desktop's light or dark preference"),
                                (egui::ThemePreference::Dark, "Dark", "Light text on dark panels"),
                                (egui::ThemePreference::Light, "Light", "Dark text on light panels (for a projector); the canvas stays dark"),
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
            });
            if ui.button("Help").on_hover_text("Keyboard and mouse (F1)").clicked() {
                self.show_help = true;
            }
            ui.separator();
            match self.settings.scene {
                SceneKind::Navmesh => {
                    let name = self.scene.source.name();
                    ui.label(if self.scene.unsaved_repair {
                        format!("{name} (repaired, unsaved)")
                    } else {
                        name
                    });
                }
                SceneKind::TileMap | SceneKind::Pursuit => {
                    let name = self.map_name();
                    ui.label(if self.grid.dirty {
                        format!("{name} (unsaved)")
                    } else {
                        name
                    });
                }
            }
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
