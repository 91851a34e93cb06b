//! The pursuit scene's left panel: play, step and reset, speed and seed, the mobs' options,
//! the kitten's control, the left-click tools and the list of mobs.

use super::{PursuitScene, PursuitTool, state_color};
use crate::app::brush::tile_button;
use crate::grid::Tile;
use crate::pursuit::{KittenControl, TrailChoice};
use egui::Ui;

impl PursuitScene {
    /// Play, options, kitten, tools and the list of mobs.
    pub fn controls_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let label = if self.playing { "Pause" } else { "Play" };
            if ui
                .button(label)
                .on_hover_text("Run or pause the simulation (Space)")
                .clicked()
            {
                self.playing = !self.playing;
            }
            if ui
                .button("Step")
                .on_hover_text("One fixed step of 1/60 s (N)")
                .clicked()
            {
                self.playing = false;
                self.step();
            }
            if ui
                .button("Reset")
                .on_hover_text(
                    "Everyone back to the start, the trail gone, the autopilot re-seeded (R)",
                )
                .clicked()
            {
                self.reset();
            }
        });
        ui.add(
            egui::Slider::new(&mut self.settings.speed, 0.1..=8.0)
                .logarithmic(true)
                .text("speed ×"),
        )
        .on_hover_text("Simulated seconds per second; steps stay 1/60 s");
        ui.horizontal(|ui| {
            let label = ui.label("Seed");
            ui.add(egui::DragValue::new(&mut self.settings.config.seed))
                .labelled_by(label.id)
                .on_hover_text("Seeds the kitten's autopilot; Reset replays it exactly");
        });
        ui.separator();
        ui.strong("Mobs");
        let avoid = ui
            .checkbox(&mut self.settings.config.avoid_walls, "Avoid walls")
            .on_hover_text(
                "The fix. Off, mobs move like the article's: seeking at full acceleration they \
                 overshoot corners into walls, and from inside a wall every ray collides, so \
                 they stop for good.",
            );
        ui.checkbox(&mut self.settings.config.avoid_mobs, "Avoid each other")
            .on_hover_text(
                "Mobs keep clear of each other by ORCA (reciprocal collision avoidance): each \
                 takes the velocity nearest the one its rules give that meets no other mob \
                 within a second. Off, as in the article, they run through one another.",
            );
        if avoid.changed() {
            self.notice = None;
        }
        ui.horizontal(|ui| {
            let label = ui
                .label("Follow the")
                .on_hover_text("Which trail point a mob takes when it cannot see the kitten");
            egui::ComboBox::from_id_salt("trail_choice")
                .selected_text(match self.settings.config.trail_choice {
                    TrailChoice::Freshest => "freshest visible point",
                    TrailChoice::Oldest => "oldest visible point",
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(
                        &mut self.settings.config.trail_choice,
                        TrailChoice::Freshest,
                        "freshest visible point",
                    )
                    .on_hover_text("Cuts corners and closes in fastest (default)");
                    ui.selectable_value(
                        &mut self.settings.config.trail_choice,
                        TrailChoice::Oldest,
                        "oldest visible point",
                    )
                    .on_hover_text("What the article's loop over its trail does");
                })
                .response
                .labelled_by(label.id);
        });
        ui.add(
            egui::Slider::new(&mut self.settings.config.decay, 1.0..=60.0).text("trail decay, s"),
        )
        .on_hover_text("Seconds a trail point lasts (the article: 20 s)");
        ui.checkbox(&mut self.settings.show_rays, "Show rays")
            .on_hover_text("Each mob's ray to the kitten (green clear, red blocked) with its Bresenham tiles, the ray to the chosen trail point, and the avoidance whiskers");
        ui.checkbox(&mut self.settings.legend, "Legend")
            .on_hover_text("What the colours and marks on the canvas mean, at its bottom left");
        ui.separator();
        ui.strong("Kitten");
        ui.horizontal_wrapped(|ui| {
            for (control, label, help) in [
                (
                    KittenControl::Wander,
                    "Wander",
                    "Autopilot: walks to random reachable tiles nearby (seeded)",
                ),
                (KittenControl::Keys, "Keys", "WASD or the arrow keys"),
                (
                    KittenControl::Route,
                    "Click to move",
                    "Right-click (or use the Kitten tool) to send it there",
                ),
                (KittenControl::Still, "Still", "It stays where it is"),
            ] {
                if ui
                    .selectable_label(self.settings.control == control, label)
                    .on_hover_text(help)
                    .clicked()
                {
                    self.settings.control = control;
                    self.world.kitten.control = control;
                    self.world.kitten.path.clear();
                }
            }
        });
        ui.separator();
        ui.strong("Left click");
        ui.horizontal_wrapped(|ui| {
            for (tool, label, help) in [
                (PursuitTool::AddMob, "Add mob", "Click to put a mob there"),
                (
                    PursuitTool::RemoveMob,
                    "Remove mob",
                    "Click a mob to remove it (or select it and press Delete)",
                ),
                (
                    PursuitTool::KittenGoTo,
                    "Send kitten",
                    "Click to send the kitten there (right click does it with any tool)",
                ),
            ] {
                ui.selectable_value(&mut self.tool, tool, label)
                    .on_hover_text(help);
            }
        });
        ui.horizontal_wrapped(|ui| {
            for tile in Tile::ALL {
                let selected = self.tool == PursuitTool::Paint(tile);
                if ui
                    .add(tile_button(tile, selected))
                    .on_hover_text("Paint while it runs; walls block sight, holes do not")
                    .clicked()
                {
                    self.tool = PursuitTool::Paint(tile);
                }
            }
        });
        ui.separator();
        self.mobs_ui(ui);
        if let Some(notice) = &self.notice {
            ui.separator();
            ui.colored_label(
                crate::app::ink::on_panel(ui.visuals(), crate::app::ink::WARNING),
                notice,
            );
        }
    }

    fn mobs_ui(&mut self, ui: &mut Ui) {
        ui.label(format!(
            "{:.2} s · trail {} points · {} mobs",
            self.world.time(),
            self.world.trail.len(),
            self.world.mobs.len()
        ));
        let mut remove = None;
        egui::Grid::new("mob_list").num_columns(4).show(ui, |ui| {
            for (i, mob) in self.world.mobs.iter().enumerate() {
                let selected = self.selected == Some(i);
                if ui
                    .selectable_label(selected, format!("mob {}", i + 1))
                    .on_hover_text("Select: its rays are drawn strongest")
                    .clicked()
                {
                    self.selected = Some(i);
                }
                if mob.timeline.is_empty() {
                    // Not a state yet: it has not looked (the run has not started, or it was
                    // just added).
                    ui.weak("ready")
                        .on_hover_text("It looks for the kitten at the next step");
                } else {
                    ui.colored_label(
                        crate::app::ink::on_panel(ui.visuals(), state_color(mob.state)),
                        mob.state.name(),
                    );
                }
                ui.label(format!("{} caught", mob.catches))
                    .on_hover_text("Times it reached the kitten (it then goes back to its start)");
                if ui.small_button("Remove").clicked() {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
        if let Some(i) = remove {
            self.remove_mob(i);
        }
        if self.world.mobs.is_empty() {
            ui.label("No mobs: choose Add mob and click the map.");
        }
        if ui
            .small_button("Default places")
            .on_hover_text("Start over from the places a new map gets: the kitten near the middle, a mob near each of two opposite corners (the places you chose are kept between runs)")
            .clicked()
        {
            self.default_places();
        }
    }
}
