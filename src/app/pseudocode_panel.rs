//! The pseudocode panel: an algorithm's numbered lines, the line the shown step executes lit
//! (its number marked ▶) with the values it touches; a click on a line asks for the next step
//! that runs it.

use crate::search::pseudocode::{Listing, LitLine};
use egui::{Color32, RichText, Ui};

/// Draws `listing` with `lit`'s line lit; returns the line clicked (from 1), if any.
pub fn pseudocode_ui(ui: &mut Ui, listing: Listing, lit: Option<&LitLine>) -> Option<usize> {
    let mut clicked = None;
    ui.label(
        RichText::new(format!(
            "{} · navlab pseudocode {}",
            listing.title(),
            listing.name()
        ))
        .strong(),
    )
    .on_hover_text(format!(
        "The same lines as `navlab pseudocode {}`; click one to go to the next step that \
             runs it",
        listing.name()
    ));
    let lit_line = lit.map(|l| l.line);
    let highlight = if ui.visuals().dark_mode {
        Color32::from_rgb(70, 60, 20)
    } else {
        Color32::from_rgb(255, 236, 160)
    };
    let size = 11.5;
    let char_width = ui.fonts_mut(|f| f.glyph_width(&egui::FontId::monospace(size), '0'));
    for (k, line) in listing.lines().iter().enumerate() {
        let number = k + 1;
        let on = lit_line == Some(number);
        // The listing's own indentation as a hanging indent: a long line wraps under its text,
        // not under the line numbers.
        let body = line.trim_start();
        let indent = (line.len() - body.len()) as f32 * char_width;
        let style = |text: String| {
            let rich = RichText::new(text).monospace().size(size);
            if on {
                rich.background_color(highlight).strong()
            } else {
                rich
            }
        };
        let marker = format!("{} {number:>2}  ", if on { "▶" } else { " " });
        let response = ui
            .horizontal_top(|ui| {
                ui.spacing_mut().item_spacing.x = 0.0;
                let number = ui.add(egui::Label::new(style(marker)).sense(egui::Sense::click()));
                ui.add_space(indent);
                let body = ui.add(
                    egui::Label::new(style(body.to_string()))
                        .wrap()
                        .sense(egui::Sense::click()),
                );
                number | body
            })
            .inner
            .on_hover_text("Go to the next step that runs this line");
        if response.clicked() {
            clicked = Some(number);
        }
        if on {
            // A line newly lit is scrolled into view; one that stays lit is left where the
            // user scrolled it.
            let key = ui.scope_id().with("lit_line");
            let lit_now = (listing.name(), number);
            let before = ui.data(|d| d.get_temp::<(&'static str, usize)>(key));
            if before != Some(lit_now) {
                response.scroll_to_me(Some(egui::Align::Center));
                ui.data_mut(|d| d.insert_temp(key, lit_now));
            }
        }
        if on && let Some(lit) = lit.filter(|l| !l.values.is_empty()) {
            ui.horizontal_top(|ui| {
                ui.add_space(indent + 6.0 * char_width);
                ui.spacing_mut().item_spacing.x = 0.0;
                ui.add(egui::Label::new(RichText::new(lit.values_text()).weak().size(size)).wrap());
            });
        }
    }
    if lit.is_none() {
        ui.weak("No step shown yet: step forward (Right arrow) to light a line.");
    }
    clicked
}

/// The step to show for a click on `line`: the first after `cursor` (steps from 1) whose line
/// it is, else the first of all; `None` when no step runs it. `line_of(k)` is step k's line.
pub fn next_step_on_line(
    line: usize,
    cursor: usize,
    len: usize,
    line_of: impl Fn(usize) -> Option<usize>,
) -> Option<usize> {
    ((cursor + 1)..=len)
        .chain(1..=cursor.min(len))
        .find(|&k| line_of(k) == Some(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_goes_to_the_next_step_on_the_line_and_wraps_round() {
        let lines = [3, 5, 11, 5, 11, 7];
        let line_of = |k: usize| lines.get(k - 1).copied();
        assert_eq!(next_step_on_line(5, 0, 6, line_of), Some(2));
        assert_eq!(next_step_on_line(5, 2, 6, line_of), Some(4));
        assert_eq!(next_step_on_line(5, 4, 6, line_of), Some(2), "wraps round");
        assert_eq!(next_step_on_line(9, 1, 6, line_of), None);
    }
}
