//! The navmesh view's editing panel: the tools and what they draw, the selection, undo and
//! redo, and what crossing each area type costs.

use super::NavmeshScene;
use super::editing::{DrawAs, Tool};
use crate::navmesh::areas::{AreaId, COST_RANGE};
use crate::navmesh::edit::ShapeKind;
use egui::Ui;

impl NavmeshScene {
    /// The panel's editing section: the tools, what they draw, the selection, undo and redo.
    pub(super) fn edit_controls_ui(&mut self, ui: &mut Ui, shared: &mut crate::app::scene::Shared) {
        // Closed until wanted (the panel is long); open while an editing tool is in hand.
        let editing = self.edit.tool != Tool::Navigate;
        egui::CollapsingHeader::new("Edit the mesh")
            .default_open(false)
            .open(editing.then_some(true))
            .show(ui, |ui| self.edit_tools_ui(ui, shared))
            .header_response
            .on_hover_text(
                "Obstacles, doors and areas cut and painted on the mesh, off-mesh links; undo, redo",
            );
    }

    /// The tools, what they draw, the selection, undo and redo.
    fn edit_tools_ui(&mut self, ui: &mut Ui, shared: &mut crate::app::scene::Shared) {
        use crate::app::commands::UiCommand;
        ui.horizontal_wrapped(|ui| {
            for tool in Tool::ALL {
                let text = match tool.key() {
                    Some(key) => format!("{} ({})", tool.name(), key.name()),
                    None => tool.name().to_string(),
                };
                if ui
                    .selectable_label(self.edit.tool == tool, text)
                    .on_hover_text(tool.about())
                    .clicked()
                {
                    self.choose_tool(tool);
                }
            }
        });
        ui.horizontal(|ui| {
            ui.label("Draw as");
            ui.radio_value(&mut self.edit.draw_as, DrawAs::Obstacle, "obstacle")
                .on_hover_text("The surface it covers is removed");
            ui.radio_value(&mut self.edit.draw_as, DrawAs::Door, "door")
                .on_hover_text("An obstacle that opens and closes with a click (Doors tool)");
            ui.radio_value(&mut self.edit.draw_as, DrawAs::Area, "area")
                .on_hover_text(
                    "The surface it covers gets the area type below, split along its outline",
                );
        });
        let names = self.view.editor().base().area_names().to_vec();
        egui::ComboBox::from_label("Area type")
            .selected_text(
                names
                    .get(usize::from(self.edit.area))
                    .cloned()
                    .unwrap_or_default(),
            )
            .show_ui(ui, |ui| {
                for (a, name) in names.iter().enumerate() {
                    ui.selectable_value(&mut self.edit.area, a as AreaId, name);
                }
            })
            .response
            .on_hover_text("What the Paint tool paints and area shapes are");
        ui.add(egui::Slider::new(&mut self.edit.circle_sides, 3..=64).text("Circle sides"))
            .on_hover_text("A circle is cut as a polygon of this many sides");
        ui.horizontal(|ui| {
            shared.button(ui, UiCommand::Undo);
            shared.button(ui, UiCommand::Redo);
            let selected = self.edit.selected.len();
            if ui
                .add_enabled(selected > 0, egui::Button::new("Delete"))
                .on_hover_text("Remove the selected shapes (Delete)")
                .on_disabled_hover_text("Select shapes first (Select tool)")
                .clicked()
            {
                self.delete_selected();
            }
            let door = match self.edit.selected[..] {
                [i] => self
                    .view
                    .editor()
                    .shapes()
                    .get(i)
                    .and_then(|s| match s.kind {
                        ShapeKind::Door { open } => Some(open),
                        _ => None,
                    }),
                _ => None,
            };
            if let (Some(open), [i]) = (door, &self.edit.selected[..]) {
                let i = *i;
                if ui
                    .button(if open { "Close door" } else { "Open door" })
                    .on_hover_text("Closed, a door blocks like an obstacle; open, agents pass")
                    .clicked()
                {
                    self.edit_mesh(|editor| editor.toggle_door(i));
                }
            }
        });
        if self.edit.tool == Tool::Link || !self.view.editor().links().is_empty() {
            ui.separator();
            ui.label("Off-mesh links");
            self.links_ui(ui);
        }
        let shapes = self.view.editor().shapes().len();
        let painted = self.view.editor().edits().painted.len();
        if shapes + painted > 0 {
            ui.label(
                egui::RichText::new(format!(
                    "{}, {} painted",
                    crate::words::count(shapes, "shape"),
                    crate::words::count(painted, "triangle")
                ))
                .weak(),
            );
        }
    }

    /// The cost multiplier of each area type, each a slider over the documented range.
    pub(super) fn area_costs_ui(&mut self, ui: &mut Ui) {
        let names = self.view.mesh().area_names().to_vec();
        let present = self.view.areas_present();
        let mut changed = false;
        egui::CollapsingHeader::new("Area costs")
            .default_open(present > 1)
            .show(ui, |ui| {
                ui.label(
                    egui::RichText::new(format!(
                        "A step costs its length × its area's multiplier ({} to {}); the heuristic is scaled by the cheapest area present, so A* stays optimal.",
                        COST_RANGE.start(),
                        COST_RANGE.end()
                    ))
                    .weak(),
                );
                for (a, name) in names.iter().enumerate() {
                    let a = a as AreaId;
                    let mut cost = self.edit.costs.of(a);
                    let used = present & (1 << a) != 0;
                    let label = if used { name.clone() } else { format!("{name} (none)") };
                    if ui
                        .add(
                            egui::Slider::new(&mut cost, *COST_RANGE.start()..=*COST_RANGE.end())
                                .logarithmic(true)
                                .text(label),
                        )
                        .on_hover_text(format!("Multiplier for crossing {name}"))
                        .changed()
                    {
                        changed |= self.edit.costs.set(a, cost).is_ok();
                    }
                }
            });
        if changed {
            self.rerun();
        }
    }
}
