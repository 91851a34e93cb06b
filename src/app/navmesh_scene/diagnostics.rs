//! The Diagnostics tab of the navmesh view: what is wrong with the mesh, by kind with counts;
//! a click zooms to a finding and highlights it; islands in distinct colours; a repair that
//! welds near-duplicates and fixes T-junctions, then checks again; and (in `quality`) how much
//! longer corridor paths are than the shortest.

use crate::app::latest_worker::LatestWorker;
use crate::geom::Vec2;
use crate::navmesh::diagnose::{
    CheckOptions, CheckReport, FindingItem, FindingKind, RepairSummary, Severity, check, check_raw,
};
use crate::navmesh::{NavMesh, RawMesh};
use crate::words::count;
use egui::{Color32, Pos2, Stroke, Ui};
use std::sync::Arc;

use crate::app::camera::View;

/// Meshes with at least this many triangles are checked on a worker thread (100k take about
/// 0.3 s); smaller ones at once, which takes no longer than a frame or two.
pub const CHECK_IN_BACKGROUND_FROM: usize = 20_000;

/// The tab's state for the current mesh.
#[derive(Debug)]
pub struct Diagnostics {
    /// The report for the current mesh (computed when the tab is first shown).
    pub report: Option<CheckReport>,
    /// Fill triangles by island.
    pub colour_islands: bool,
    /// The finding shown on the canvas: kind and item index (set it with [`Diagnostics::select`]).
    pub selected: Option<(FindingKind, usize)>,
    /// Input position indices of the selected item's vertices, found once when it is selected
    /// rather than searched for every frame.
    selected_vertices: Vec<usize>,
    /// Set after a repair of the current mesh (in memory; Reload restores the file).
    pub repaired: Option<RepairSummary>,
    /// Checks large meshes on a worker thread.
    checker: LatestWorker<Arc<RawMesh>, CheckReport>,
    /// Bumped when the mesh changes: a check of an older one is dropped.
    generation: u64,
    /// Meshes with this many triangles or more are checked on a worker thread.
    pub background_from: usize,
    /// How much longer corridor paths are than the shortest, over random pairs.
    pub quality: super::quality::CorridorQuality,
}

impl Default for Diagnostics {
    fn default() -> Self {
        Self {
            report: None,
            colour_islands: false,
            selected: None,
            selected_vertices: Vec::new(),
            repaired: None,
            checker: LatestWorker::new("navlab mesh check", |raw| {
                check_raw(&raw, &CheckOptions::default())
            }),
            generation: 0,
            background_from: CHECK_IN_BACKGROUND_FROM,
            quality: Default::default(),
        }
    }
}

/// What the tab asks of the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DiagnosticsAction {
    /// Move the view to a finding: centre and size in world units.
    Focus {
        /// Where.
        at: Vec2,
        /// How much around it to show.
        extent: f64,
    },
    /// Weld near-duplicates, fix T-junctions and check again.
    Repair,
    /// Save the repaired mesh as OBJ.
    SaveRepaired,
}

impl Diagnostics {
    /// Forgets the report (the mesh changed).
    pub fn invalidate(&mut self) {
        self.report = None;
        self.checker.forget();
        self.generation += 1;
        self.selected = None;
        self.selected_vertices.clear();
        self.repaired = None;
        self.quality.invalidate();
    }

    /// The report, computed on first use (here and now, even when a worker is on it).
    pub fn report(&mut self, mesh: &NavMesh) -> &CheckReport {
        self.checker.forget();
        self.report
            .get_or_insert_with(|| check(mesh, &CheckOptions::default()))
    }

    /// True while a worker thread checks the mesh.
    pub fn is_checking(&self) -> bool {
        self.checker.is_busy()
    }

    /// Makes sure a report is there or on its way: small meshes are checked at once, large ones
    /// on a worker thread (the window keeps drawing). Returns true while the worker runs.
    pub fn ensure_report(&mut self, mesh: &NavMesh) -> bool {
        if self.report.is_some() {
            return false;
        }
        if self.checker.is_busy() {
            if let Some(report) = self.checker.take() {
                self.report = Some(report);
            }
            // The worker died when it is no longer busy without an answer (it cannot, short of
            // a bug): the next call checks here.
            return self.checker.is_busy();
        }
        let in_background = mesh.triangles().len() >= self.background_from;
        let raw = Arc::clone(mesh.shared_raw());
        match self
            .checker
            .answer_or_submit(self.generation, raw, in_background)
        {
            Some(report) => {
                self.report = Some(report);
                false
            }
            None => true,
        }
    }

    /// Selects item `i` of `kind` for the canvas; false when the report has no such item.
    pub fn select(&mut self, mesh: &NavMesh, kind: FindingKind, i: usize) -> bool {
        let Some(item) = self.report(mesh).get(kind).and_then(|f| f.items.get(i)) else {
            return false;
        };
        self.selected_vertices = vertex_positions(mesh, item);
        self.selected = Some((kind, i));
        true
    }

    /// The selected item.
    pub fn selected_item(&self) -> Option<&FindingItem> {
        let (kind, i) = self.selected?;
        self.report.as_ref()?.get(kind)?.items.get(i)
    }

    /// The tab: summary, options, findings. Returns what the scene should do.
    pub fn ui(&mut self, ui: &mut Ui, mesh: &NavMesh) -> Option<DiagnosticsAction> {
        if self.ensure_report(mesh) {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("Checking {} triangles…", mesh.triangles().len()))
                    .on_hover_text("On a worker thread: the mesh can be used meanwhile");
            });
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(50));
            return None;
        }
        let report = self.report.take()?;
        let action = self.report_ui(ui, mesh, &report);
        self.report = Some(report);
        action
    }

    fn report_ui(
        &mut self,
        ui: &mut Ui,
        mesh: &NavMesh,
        report: &CheckReport,
    ) -> Option<DiagnosticsAction> {
        /// Items listed per kind; the rest are counted (`navlab check --json` lists all).
        const LISTED: usize = 300;
        let mut action = None;
        let (errors, warnings) = (
            report.count(Severity::Error),
            report.count(Severity::Warning),
        );
        ui.horizontal(|ui| {
            ui.label(format!(
                "{} · {} · {}",
                count(report.islands, "island"),
                count(errors, "error"),
                count(warnings, "warning")
            ));
            if ui
                .small_button("Copy report")
                .on_hover_text(
                    "Copy every finding as `navlab check --json` prints it (e.g. for a bug report \
                     to whoever exported the mesh)",
                )
                .clicked()
                && let Ok(text) = serde_json::to_string(report)
            {
                ui.ctx().copy_text(text);
            }
        });
        if report.is_clean() {
            ui.colored_label(
                crate::app::ink::on_panel(ui.visuals(), crate::app::ink::ALL_CLEAR),
                "Clean: nothing found. Border edges (white) are the walls, not faults.",
            );
        }
        ui.checkbox(&mut self.colour_islands, "Colour islands")
            .on_hover_text("Fill each face-connected piece in its own colour");
        let fixable = report.get(FindingKind::NearDuplicateVertex).is_some()
            || report.get(FindingKind::TJunction).is_some();
        if ui
            .add_enabled(
                fixable,
                egui::Button::new("Weld near-duplicates and fix T-junctions"),
            )
            .on_hover_text(
                "Merge vertices a hair apart and split edges at T-junctions, then check again. \
                 In memory until saved: Reload (F5) brings back the file as it is (after asking).",
            )
            .on_disabled_hover_text("Nothing to weld or split")
            .clicked()
        {
            action = Some(DiagnosticsAction::Repair);
        }
        if let Some(summary) = self.repaired {
            ui.label(format!(
                "Repaired: {}, {} (Reload restores the file).",
                count(summary.welded, "vertex weld"),
                count(summary.split, "edge split")
            ));
            if ui
                .button("Save repaired mesh as…")
                .on_hover_text("Write the repaired mesh as a new OBJ file")
                .clicked()
            {
                action = Some(DiagnosticsAction::SaveRepaired);
            }
        }
        ui.separator();
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for finding in &report.findings {
                    let (badge, colour) = match finding.severity {
                        Severity::Error => ("error", crate::app::ink::ERROR),
                        Severity::Warning => ("warning", crate::app::ink::WARNING),
                    };
                    let title = egui::RichText::new(format!(
                        "{badge}: {} ({})",
                        finding.kind.name(),
                        finding.count
                    ))
                    .color(crate::app::ink::on_panel(ui.visuals(), colour));
                    egui::CollapsingHeader::new(title)
                        .id_salt(finding.kind.name())
                        .default_open(finding.severity == Severity::Error)
                        .show(ui, |ui| {
                            ui.label(egui::RichText::new(finding.kind.explain()).weak());
                            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                            for (i, item) in finding.items.iter().enumerate().take(LISTED) {
                                let selected = self.selected == Some((finding.kind, i));
                                let text =
                                    format!("{:.2}, {:.2}: {}", item.at[0], item.at[1], item.note);
                                let response = ui.selectable_label(selected, &text);
                                if response.clicked() {
                                    self.selected = Some((finding.kind, i));
                                    self.selected_vertices = vertex_positions(mesh, item);
                                    action = Some(DiagnosticsAction::Focus {
                                        at: Vec2::new(item.at[0], item.at[1]),
                                        extent: item_extent(mesh, item),
                                    });
                                }
                                response.on_hover_text(text);
                            }
                            if finding.count > LISTED {
                                ui.label(format!(
                                    "… and {} more (navlab check --json lists all)",
                                    finding.count - LISTED
                                ));
                            }
                        });
                }
            });
        action
    }

    /// Outlines the selected finding's faces and marks its vertices and location.
    pub fn paint_selection(&self, painter: &egui::Painter, view: View, mesh: &NavMesh) {
        let Some(item) = self.selected_item() else {
            return;
        };
        let raw = mesh.raw();
        let point = |v: usize| -> Option<Pos2> {
            let p = raw.positions.get(v)?;
            Some(view.screen_from_world(raw.plane.project(*p).0))
        };
        let highlight = Color32::from_rgb(80, 230, 255);
        for &face in &item.faces {
            if let Some(poly) = raw.polygons.get(face) {
                let ring: Vec<Pos2> = poly.iter().filter_map(|&v| point(v)).collect();
                if ring.len() >= 2 {
                    painter.add(egui::Shape::closed_line(ring, Stroke::new(3.0, highlight)));
                }
            }
        }
        for p in self.selected_vertices.iter().filter_map(|&v| point(v)) {
            painter.circle_stroke(p, 6.0, Stroke::new(2.0, highlight));
        }
        let at = view.screen_from_world(Vec2::new(item.at[0], item.at[1]));
        painter.circle_stroke(at, 14.0, Stroke::new(2.0, Color32::WHITE));
        painter.line_segment(
            [at - egui::vec2(20.0, 0.0), at + egui::vec2(20.0, 0.0)],
            Stroke::new(1.0, Color32::WHITE),
        );
        painter.line_segment(
            [at - egui::vec2(0.0, 20.0), at + egui::vec2(0.0, 20.0)],
            Stroke::new(1.0, Color32::WHITE),
        );
    }
}

/// The input position indices of an item's vertices (the item names them by the file's numbers).
fn vertex_positions(mesh: &NavMesh, item: &FindingItem) -> Vec<usize> {
    let raw = mesh.raw();
    item.vertices
        .iter()
        .filter_map(|&id| {
            if raw.vertex_ids.is_empty() {
                (id < raw.positions.len()).then_some(id)
            } else {
                raw.vertex_ids.iter().position(|&v| v == id)
            }
        })
        .collect()
}

/// How much to show around an item: a small part of the mesh around a vertex finding (seams,
/// T-junctions are about points), else its faces' extent.
fn item_extent(mesh: &NavMesh, item: &FindingItem) -> f64 {
    let raw = mesh.raw();
    let bounds = mesh.bounds();
    let small = 0.08 * bounds.min.distance(bounds.max);
    if !item.vertices.is_empty() {
        return small;
    }
    let mut lo = Vec2::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for &face in &item.faces {
        for &v in raw.polygons.get(face).into_iter().flatten() {
            if let Some(p) = raw.positions.get(v) {
                let q = raw.plane.project(*p).0;
                lo = Vec2::new(lo.x.min(q.x), lo.y.min(q.y));
                hi = Vec2::new(hi.x.max(q.x), hi.y.max(q.y));
            }
        }
    }
    let faces = (hi.x - lo.x).max(hi.y - lo.y);
    if faces.is_finite() && faces > 0.0 {
        faces.max(small * 0.25)
    } else {
        small
    }
}

/// A distinct colour per island (golden-angle hues), darkened to sit under the search colours.
pub fn island_colour(island: usize) -> Color32 {
    let hue = (island as f32 * 0.618_034).fract();
    egui::epaint::Hsva::new(hue, 0.45, 0.55, 1.0).into()
}
