//! The level scene's panels: the level and the build's parameters (as RecastDemo names them) on
//! the left; on the right the stages (each a step of the playback), the stage's sentence and
//! pseudocode, and the answer to "why" with its suggested change.

use super::{LevelScene, LevelTool};
use crate::app::commands::UiCommand;
use crate::app::scene::Shared;
use crate::level::{BuildSettings, Stage};
use crate::search::pseudocode::{Listing, LitLine};
use egui::{RichText, Ui};

/// A slider for one parameter; true when it changed.
fn parameter(
    ui: &mut Ui,
    value: &mut f64,
    range: std::ops::RangeInclusive<f64>,
    name: &str,
    tip: &str,
) -> bool {
    ui.add(egui::Slider::new(value, range).text(name).max_decimals(2))
        .on_hover_text(tip)
        .changed()
}

/// A slider for a count; true when it changed.
fn count(
    ui: &mut Ui,
    value: &mut u16,
    range: std::ops::RangeInclusive<u16>,
    name: &str,
    tip: &str,
) -> bool {
    ui.add(egui::Slider::new(value, range).text(name))
        .on_hover_text(tip)
        .changed()
}

impl LevelScene {
    /// The left panel: the level, the tools, the parameters.
    pub(super) fn controls_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        ui.heading("Level");
        ui.label(&self.level.name);
        ui.horizontal_wrapped(|ui| {
            shared.button(ui, UiCommand::OpenLevel);
            if ui
                .add_enabled(
                    self.built.is_some(),
                    egui::Button::new("Open in navmesh view"),
                )
                .on_hover_text(
                    "Search the navmesh built here: A*, the funnel, Polyanya, the editor",
                )
                .clicked()
            {
                shared.ask(UiCommand::OpenLevelNavmesh);
            }
        });
        ui.separator();
        ui.label(RichText::new("Click tool").strong());
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tool, LevelTool::Why, "Why? (W)")
                .on_hover_text("Click a spot: which stage removed the ground there, by how much, and what keeps it");
            ui.selectable_value(&mut self.tool, LevelTool::Section, "Cross-section (X)")
                .on_hover_text("Drag a line across the level: its vertical slice is drawn under the canvas");
            ui.selectable_value(&mut self.tool, LevelTool::Area, "Area (M)")
                .on_hover_text("Drag a rectangle: the ground in it takes the area type chosen (RecastDemo's convex volumes); a search pays its cost");
        });
        if self.tool == LevelTool::Area || !self.volumes.is_empty() {
            ui.horizontal(|ui| {
                ui.label("Mark as");
                for (name, cost) in crate::navmesh::areas::BUILT_IN.iter().skip(1) {
                    ui.selectable_value(&mut self.marking, (*name).to_owned(), *name)
                        .on_hover_text(format!(
                            "{name}: crossing it costs {cost} × the distance (the navmesh view's Area costs change it)"
                        ));
                }
            });
            let mut remove = None;
            for (k, volume) in self.volumes.iter().enumerate() {
                ui.horizontal(|ui| {
                    let [x0, z0] = volume.points.first().copied().unwrap_or_default();
                    let [x1, z1] = volume.points.get(2).copied().unwrap_or_default();
                    ui.label(format!(
                        "{} ({x0:.1}, {z0:.1}) to ({x1:.1}, {z1:.1})",
                        volume.area
                    ));
                    if ui
                        .small_button("Remove")
                        .on_hover_text("Remove this area and build again")
                        .clicked()
                    {
                        remove = Some(k);
                    }
                });
            }
            if let Some(k) = remove {
                self.remove_volume(k);
            }
        }
        if self.section.is_some() && ui.button("Clear the cross-section").clicked() {
            self.set_section(None);
        }
        let [low, high] = self.level.height_range();
        let mut cutting = self.cut.is_some();
        if ui
            .checkbox(&mut cutting, "Show only up to a height")
            .on_hover_text("Floors stacked over one another: hide what is above the height, to see and click the floors below")
            .changed()
        {
            self.cut = cutting.then_some(high);
            self.textures.clear();
        }
        if let Some(cut) = &mut self.cut
            && ui
                .add(
                    egui::Slider::new(cut, low..=high)
                        .text("height")
                        .max_decimals(2),
                )
                .changed()
        {
            self.textures.clear();
        }
        ui.checkbox(&mut self.settings.legend, "Legend");
        ui.separator();
        let mut s = self.settings.build;
        let mut changed = false;
        ui.label(RichText::new("Agent").strong());
        changed |= parameter(
            ui,
            &mut s.agent_height,
            0.1..=5.0,
            "height",
            "The least room between a floor and what is above it",
        );
        changed |= parameter(
            ui,
            &mut s.agent_radius,
            0.0..=5.0,
            "radius",
            "How far the navmesh keeps from walls",
        );
        changed |= parameter(
            ui,
            &mut s.agent_max_climb,
            0.0..=5.0,
            "max climb",
            "The highest step the agent takes",
        );
        changed |= parameter(
            ui,
            &mut s.agent_max_slope,
            0.0..=89.9,
            "max slope °",
            "The steepest face the agent walks",
        );
        ui.label(RichText::new("Grid").strong());
        changed |= parameter(
            ui,
            &mut s.cell_size,
            0.05..=2.0,
            "cell size",
            "The cells' width and depth: smaller is finer and slower",
        );
        changed |= parameter(
            ui,
            &mut s.cell_height,
            0.05..=2.0,
            "cell height",
            "The cells' height",
        );
        ui.label(RichText::new("Regions").strong());
        changed |= count(
            ui,
            &mut s.region_min_size,
            0..=150,
            "min size",
            "An island smaller than this many cells squared is dropped",
        );
        changed |= count(
            ui,
            &mut s.region_merge_size,
            0..=150,
            "merged size",
            "Regions smaller than this many cells squared merge into neighbours",
        );
        ui.label(RichText::new("Polygons").strong());
        changed |= parameter(
            ui,
            &mut s.edge_max_len,
            0.0..=50.0,
            "edge max length",
            "The longest border edge (0: any)",
        );
        changed |= parameter(
            ui,
            &mut s.edge_max_error,
            0.1..=3.0,
            "edge max error",
            "How far a simplified contour may stray from the cells, in cells",
        );
        changed |= count(
            ui,
            &mut s.verts_per_poly,
            3..=6,
            "vertices per polygon",
            "The most vertices of a polygon",
        );
        ui.label(RichText::new("Detail mesh").strong());
        changed |= parameter(
            ui,
            &mut s.detail_sample_dist,
            0.0..=16.0,
            "sample distance",
            "Heights sampled every this many cells (below 0.9: none)",
        );
        changed |= parameter(
            ui,
            &mut s.detail_sample_max_error,
            0.0..=16.0,
            "max error",
            "How far the detail mesh may stray from the heights, in cell heights",
        );
        if ui
            .add_enabled(
                s != BuildSettings::default(),
                egui::Button::new("RecastDemo's defaults"),
            )
            .clicked()
        {
            s = BuildSettings::default();
            changed = true;
        }
        if changed {
            if let Err(error) = s.check() {
                self.error = Some(error.to_string());
            } else {
                self.set_build_settings(s);
            }
        }
        if self.worker.is_busy() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("building…");
            });
        }
        ui.separator();
        self.links_ui(ui);
    }

    /// The right panel: the stages, the one shown explained, its pseudocode, the answer to why.
    pub(super) fn stage_ui(&mut self, ui: &mut Ui) {
        ui.heading("Why is there (no) navmesh here?");
        match &self.why {
            None => {
                ui.weak("Click the level with the Why tool (W).");
            }
            Some(why) => {
                let why = why.clone();
                ui.label(why.sentence());
                if why.surfaces.len() > 1 {
                    ui.horizontal_wrapped(|ui| {
                        ui.label("Surface:");
                        for (k, y) in why.surfaces.iter().enumerate() {
                            let chosen = why.floor == Some(k);
                            if ui
                                .selectable_label(chosen, format!("{} (y {:.2})", k + 1, y))
                                .on_hover_text("Ask about this surface instead")
                                .clicked()
                                && !chosen
                            {
                                self.ask(why.at, Some(k));
                            }
                        }
                    });
                }
                if let Some(suggestion) = why.suggestion {
                    let text = format!("Apply: {} (A)", suggestion.sentence());
                    if ui
                        .button(text)
                        .on_hover_text(
                            "Change the parameter and build again; the answer is asked again",
                        )
                        .clicked()
                    {
                        self.apply_suggestion();
                    }
                }
            }
        }
        ui.separator();
        if let (Some(stage), Some(built)) = (self.stage(), &self.built) {
            ui.label(RichText::new(stage.title()).strong());
            ui.label(built.sentence(stage));
        }
        let lit = self
            .stage()
            .map(|s| LitLine::new(s.pseudocode_lines().start + 1));
        let mut clicked = None;
        crate::app::playback::pseudocode_area(ui, |ui| {
            clicked = egui::CollapsingHeader::new("Pseudocode")
                .default_open(true)
                .show(ui, |ui| {
                    crate::app::pseudocode_panel::pseudocode_ui(
                        ui,
                        Listing::LevelBuild,
                        lit.as_ref(),
                    )
                })
                .body_returned
                .flatten();
        });
        if let Some(line) = clicked
            && let Some(k) = Stage::ALL
                .iter()
                .position(|s| s.pseudocode_lines().contains(&(line - 1)))
        {
            self.playback.playing = false;
            self.playback.cursor = k + 1;
        }
        ui.separator();
        ui.heading("Stages");
        let mut jump = None;
        egui::ScrollArea::vertical()
            .id_salt("level_stages")
            .show(ui, |ui| {
                for (k, stage) in Stage::ALL.iter().enumerate() {
                    let shown = self.playback.cursor == k + 1;
                    let ms = self
                        .built
                        .as_ref()
                        .map(|b| b.record.stage_milliseconds(*stage))
                        .unwrap_or_default();
                    if ui
                        .selectable_label(
                            shown,
                            format!("{:>2}. {} ({ms:.1} ms)", k + 1, stage.title()),
                        )
                        .clicked()
                    {
                        jump = Some(k + 1);
                    }
                }
            });
        if let Some(k) = jump {
            self.playback.playing = false;
            self.playback.cursor = k;
        }
    }
}
