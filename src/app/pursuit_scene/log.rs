//! The pursuit scene's log of what happened, its caption, and the run as a `navlab pursue`
//! command.

use super::PursuitScene;
use crate::geom::Vec2;
use crate::pursuit::TrailChoice;
use egui::Ui;
use std::path::Path;

const COPY_COMMAND_TIP: &str = "Copy this run as a `navlab pursue` command, for a script or a bug report: where everyone starts (what Reset goes back to), the seed, decay, trail choice and avoidance, run to the time shown. It is the run you see from Reset when the kitten wanders and nothing was changed along the way (the command's kitten wanders; keys, clicks and paint are not in it).";

/// `word` as one shell word: as it is when it holds nothing a shell treats specially, else in
/// single quotes.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:=@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

impl PursuitScene {
    /// This run as a `navlab pursue` command on the map file `map`: where everyone starts (what
    /// Reset goes back to), the seed, the trail's decay and choice, avoidance, and the time
    /// shown. `None` without a mob (the command needs one).
    pub fn command_line(&self, map: &Path) -> Option<String> {
        if self.setup.mobs.is_empty() {
            return None;
        }
        let point = |p: Vec2| format!("{},{}", p.x, p.y);
        let config = &self.settings.config;
        let mut words = vec![
            "navlab pursue".to_owned(),
            shell_word(&map.to_string_lossy()),
            format!("--kitten {}", point(self.setup.kitten)),
        ];
        words.extend(
            self.setup
                .mobs
                .iter()
                .map(|&m| format!("--mob {}", point(m))),
        );
        words.push(format!("--seed {}", config.seed));
        words.push(format!("--decay {}", config.decay));
        words.push(format!(
            "--trail {}",
            match config.trail_choice {
                TrailChoice::Freshest => "freshest",
                TrailChoice::Oldest => "oldest",
            }
        ));
        if !config.avoid_walls {
            words.push("--no-avoid".to_owned());
        }
        if config.avoid_mobs {
            words.push("--avoid-mobs".to_owned());
        }
        // Three decimals name the step exactly (the command rounds to a 60th of a second).
        words.push(format!("--seconds {:.3}", self.world.time()));
        Some(words.join(" "))
    }

    /// The event log, newest at the bottom. `map_file` is the map's file when it holds what is
    /// shown (else why not), for Copy command.
    pub fn log_ui(&mut self, ui: &mut Ui, map_file: Result<&Path, &str>) {
        ui.horizontal(|ui| {
            ui.label(crate::words::count(self.log.len(), "event"));
            if ui
                .small_button("Copy log")
                .on_hover_text("Copy every event, one per line")
                .clicked()
            {
                let lines: Vec<String> = self.log.iter().map(|e| e.explain()).collect();
                ui.ctx().copy_text(lines.join("\n"));
            }
            // The command is written out only when asked for (a thousand mobs make it long).
            let map = map_file.and_then(|map| {
                (!self.setup.mobs.is_empty())
                    .then_some(map)
                    .ok_or("Add a mob first: the command needs one")
            });
            let button = ui.add_enabled(map.is_ok(), egui::Button::new("Copy command").small());
            let button = match &map {
                Ok(_) => button.on_hover_text(COPY_COMMAND_TIP),
                Err(why) => button.on_disabled_hover_text(*why),
            };
            if button.clicked()
                && let Some(command) = map.ok().and_then(|map| self.command_line(map))
            {
                ui.ctx().copy_text(command);
            }
        });
        let row_height = ui.text_style_height(&egui::TextStyle::Body);
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .stick_to_bottom(true)
            .show_rows(ui, row_height, self.log.len(), |ui, rows| {
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                for row in rows {
                    if let Some(event) = self.log.get(row) {
                        let text = event.explain();
                        ui.label(&text).on_hover_text(text);
                    }
                }
            });
    }

    /// What the caption says: the latest event, or how to start; and while mobs are lost,
    /// why they stand still and what would move them.
    pub fn caption(&self) -> String {
        let latest = match self.log.last() {
            Some(event) => event.explain(),
            None if self.world.mobs.is_empty() => {
                return "Click to add a mob, then press Space to play".to_string();
            }
            None => {
                return "Press Space to play; right-click to send the kitten somewhere".to_string();
            }
        };
        let lost: Vec<String> = self
            .world
            .mobs
            .iter()
            .enumerate()
            .filter(|(_, m)| m.state == crate::pursuit::MobState::Lost)
            .map(|(i, _)| (i + 1).to_string())
            .collect();
        let hint = match lost.as_slice() {
            [] => return latest,
            [one] => format!("Mob {one} waits until the kitten or its trail comes into its sight"),
            many => format!(
                "Mobs {} wait until the kitten or its trail comes into their sight",
                many.join(", ")
            ),
        };
        format!(
            "{}. {hint}: right-click to send the kitten past, or add a mob where it sees the kitten.",
            latest.trim()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_word_is_quoted_only_when_a_shell_would_split_or_expand_it() {
        assert_eq!(shell_word("maps/arena-2.map"), "maps/arena-2.map");
        assert_eq!(shell_word("my maps/a.map"), "'my maps/a.map'");
        assert_eq!(shell_word("$HOME/a.map"), "'$HOME/a.map'");
        assert_eq!(shell_word("kitten's.map"), "'kitten'\\''s.map'");
        assert_eq!(shell_word(""), "''");
    }
}
