//! A scene's keys as data: each row of the help window (the keys as it names them, what they
//! do) with the keys it stands for and the action each one asks of the scene. The scene's
//! handler and the help read the same table, so neither can name a key the other does not know.
//! Rows without keys are the mouse's, listed in the help only.

use egui::{Key, Ui};

/// One row of a scene's keys.
pub struct KeyRow<A: 'static> {
    /// The keys as the help names them ("Page Up / Page Down").
    pub shown: &'static str,
    /// What they do.
    pub does: &'static str,
    /// Each key of the row and the action it asks for (none: a mouse action).
    pub keys: &'static [(Key, A)],
}

impl<A> KeyRow<A> {
    /// A row of the mouse's: in the help only.
    pub const fn mouse(shown: &'static str, does: &'static str) -> Self {
        Self {
            shown,
            does,
            keys: &[],
        }
    }
}

/// The actions of the keys of `rows` pressed this frame, in the table's order: none while a
/// text field has the keyboard, or with Ctrl, Cmd or Alt held (those are the menus').
pub fn pressed<A: Copy>(ui: &Ui, rows: &[KeyRow<A>]) -> Vec<A> {
    actions(ui, rows, |i, key| i.key_pressed(key))
}

/// The actions of the keys of `rows` held down now (as [`pressed`]).
pub fn held<A: Copy>(ui: &Ui, rows: &[KeyRow<A>]) -> Vec<A> {
    actions(ui, rows, |i, key| i.key_down(key))
}

fn actions<A: Copy>(
    ui: &Ui,
    rows: &[KeyRow<A>],
    down: impl Fn(&egui::InputState, Key) -> bool,
) -> Vec<A> {
    if ui.ctx().egui_wants_keyboard_input() {
        return Vec::new();
    }
    ui.input(|i| {
        if i.modifiers.command || i.modifiers.alt {
            return Vec::new();
        }
        rows.iter()
            .flat_map(|row| row.keys)
            .filter(|&&(key, _)| down(i, key))
            .map(|&(_, action)| action)
            .collect()
    })
}

/// The help window's rows of `rows`: (keys, what they do).
pub fn help<A>(rows: &[KeyRow<A>]) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    rows.iter().map(|row| (row.shown, row.does))
}

/// The key that asks for `action` in `rows`, if one does.
pub fn key_of<A: PartialEq>(rows: &[KeyRow<A>], action: &A) -> Option<Key> {
    rows.iter()
        .flat_map(|row| row.keys)
        .find(|(_, a)| a == action)
        .map(|&(key, _)| key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Act {
        Back,
        Forward,
    }

    const ROWS: &[KeyRow<Act>] = &[
        KeyRow::mouse("Drag", "pan"),
        KeyRow {
            shown: "Left / Right arrow",
            does: "back / forward",
            keys: &[(Key::ArrowLeft, Act::Back), (Key::ArrowRight, Act::Forward)],
        },
    ];

    #[test]
    fn the_help_and_the_keys_come_from_one_table() {
        assert_eq!(
            help(ROWS).collect::<Vec<_>>(),
            [("Drag", "pan"), ("Left / Right arrow", "back / forward")]
        );
        assert_eq!(key_of(ROWS, &Act::Forward), Some(Key::ArrowRight));
    }
}
