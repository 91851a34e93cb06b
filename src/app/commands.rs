//! What the window does for the user, as data: [`UiCommand`]s are the actions a button, a menu
//! item or a key asks for, each knowing its text, tooltip and keys; [`Command`]s are what the
//! window does after the frame, with what they need (a path, a size).

use egui::{Key, KeyboardShortcut, Modifiers};
use std::path::PathBuf;

/// An action a button, a menu item or a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UiCommand {
    /// A new map, of a size asked for.
    NewMap,
    /// Open a tile map with the file dialog.
    OpenMap,
    /// Save the map to its file.
    SaveMap,
    /// Save the map under a new name.
    SaveMapAs,
    /// Load the map's file again.
    ReloadMap,
    /// Triangulate the map's passable tiles and show the mesh.
    BuildMesh,
    /// Undo the last edit of the scene's document (the map, or the mesh in the navmesh view).
    Undo,
    /// Redo the last edit undone.
    Redo,
    /// Open a mesh with the file dialog.
    OpenMesh,
    /// Load the mesh's file again.
    ReloadMesh,
    /// Write the mesh shown to a file.
    SaveMeshAs,
    /// Open a mesh or a map by typing its path.
    OpenPath,
    /// Write a picture of the window to a PNG file.
    SavePicture,
    /// Put a picture of the window on the clipboard.
    CopyPicture,
    /// Write a lesson file of what is shown.
    SaveLesson,
    /// Put a web link on the clipboard that opens what is shown in navlab's web page.
    CopyLink,
    /// Record steps of what is shown as an animated GIF.
    ExportAnimation,
    /// Replay another program's search (a Posthoc trace) beside ours (tile map).
    CompareTrace,
    /// Close the window.
    Quit,
    /// Fit the view to what is shown.
    FitView,
    /// Show or hide the keyboard help.
    Help,
    /// Open level geometry (an OBJ, Y up) in the level view.
    OpenLevel,
    /// Show the navmesh built from the level in the navmesh view.
    OpenLevelNavmesh,
    /// Write the navmesh built from the level, and its recipe beside it.
    SaveLevelNavmesh,
    /// Write the crowd's run (a Posthoc trace that navlab replays).
    SaveCrowdRun,
}

const fn command_key(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, key)
}

const fn command_shift_key(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), key)
}

const fn plain_key(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::NONE, key)
}

/// What "Build navmesh" does.
pub const BUILD_MESH_TIP: &str = "Triangulate the passable tiles (a constrained Delaunay triangulation of their outline, one unit per tile) and open the mesh in the Navmesh view, from this map's start to its goal. Tile costs are not kept.";

impl UiCommand {
    /// Every command, in the order the help lists them.
    pub const ALL: [UiCommand; 25] = [
        UiCommand::OpenMesh,
        UiCommand::OpenMap,
        UiCommand::OpenLevel,
        UiCommand::OpenLevelNavmesh,
        UiCommand::SaveLevelNavmesh,
        UiCommand::OpenPath,
        UiCommand::ReloadMesh,
        UiCommand::ReloadMap,
        UiCommand::NewMap,
        UiCommand::SaveMap,
        UiCommand::SaveMapAs,
        UiCommand::SaveMeshAs,
        UiCommand::SaveCrowdRun,
        UiCommand::BuildMesh,
        UiCommand::Undo,
        UiCommand::Redo,
        UiCommand::FitView,
        UiCommand::SavePicture,
        UiCommand::CopyPicture,
        UiCommand::SaveLesson,
        UiCommand::CopyLink,
        UiCommand::ExportAnimation,
        UiCommand::CompareTrace,
        UiCommand::Help,
        UiCommand::Quit,
    ];

    /// True for the commands a scene lists in the File menu (not Undo, Redo, Fit).
    pub fn in_file_menu(self) -> bool {
        !matches!(
            self,
            UiCommand::Undo | UiCommand::Redo | UiCommand::FitView | UiCommand::Help
        )
    }

    /// False for what a browser cannot do: type a path, read a file again from disk, quit.
    pub fn in_browser(self) -> bool {
        !matches!(
            self,
            UiCommand::OpenPath
                | UiCommand::ReloadMesh
                | UiCommand::ReloadMap
                | UiCommand::Quit
                | UiCommand::OpenLevel
        )
    }

    /// Its text in a menu.
    pub fn text(self) -> &'static str {
        match self {
            UiCommand::NewMap => "New map…",
            UiCommand::OpenMap => "Open map…",
            UiCommand::SaveMap => "Save map",
            UiCommand::SaveMapAs => "Save map as…",
            UiCommand::ReloadMap => "Reload map",
            UiCommand::BuildMesh => "Build navmesh from map",
            UiCommand::Undo => "Undo",
            UiCommand::Redo => "Redo",
            UiCommand::OpenMesh => "Open mesh…",
            UiCommand::ReloadMesh => "Reload mesh",
            UiCommand::SaveMeshAs => "Save mesh as…",
            UiCommand::OpenPath => "Open path…",
            UiCommand::SavePicture => "Save picture…",
            UiCommand::CopyPicture => "Copy picture",
            UiCommand::SaveLesson => "Save lesson…",
            UiCommand::CopyLink => "Copy link",
            UiCommand::ExportAnimation => "Export animation…",
            UiCommand::CompareTrace => "Compare with a trace…",
            UiCommand::Quit => "Quit",
            UiCommand::FitView => "Fit to view",
            UiCommand::Help => "Help",
            UiCommand::OpenLevel => "Open level…",
            UiCommand::OpenLevelNavmesh => "Open the navmesh in the navmesh view",
            UiCommand::SaveLevelNavmesh => "Save navmesh as…",
            UiCommand::SaveCrowdRun => "Save crowd run…",
        }
    }

    /// Its text on a scene's panel, where the scene says what it is about.
    pub fn short_text(self) -> &'static str {
        match self {
            UiCommand::NewMap => "New…",
            UiCommand::OpenMap | UiCommand::OpenMesh | UiCommand::OpenLevel => "Open…",
            UiCommand::SaveMap => "Save",
            UiCommand::SaveMapAs => "Save as…",
            UiCommand::BuildMesh => "Build navmesh",
            UiCommand::ReloadMesh | UiCommand::ReloadMap => "Reload",
            UiCommand::FitView => "Fit",
            other => other.text(),
        }
    }

    /// What it does, for its tooltip.
    pub fn tooltip(self) -> &'static str {
        match self {
            UiCommand::NewMap => "A new grass map of any size",
            UiCommand::OpenMap => {
                "Open a MovingAI .map, a navlab .json or a Tiled .tmx/.tmj; you can also drop a file on the window"
            }
            UiCommand::SaveMap => "Save the map to its file; .json keeps tile costs",
            UiCommand::SaveMapAs => "Save the map under a new name",
            UiCommand::ReloadMap => {
                "The map's file as it is on disk (asks about unsaved edits first)"
            }
            UiCommand::BuildMesh => BUILD_MESH_TIP,
            UiCommand::Undo => "Undo the last edit (of the map; in the Navmesh view, of the mesh)",
            UiCommand::Redo => "Redo the last edit undone",
            UiCommand::OpenMesh => {
                "Open an OBJ or a Polyanya .mesh; you can also drop a file on the window"
            }
            UiCommand::ReloadMesh => "Load the mesh's file again from disk",
            UiCommand::SaveMeshAs => {
                "Write the mesh shown as Wavefront OBJ, or for a .mesh name as a Polyanya mesh (convex polygons, flat)"
            }
            UiCommand::OpenPath => "Type or paste the path of a mesh or a tile map",
            UiCommand::SavePicture => {
                "A PNG of the window as it is now, for slides or a bug report"
            }
            UiCommand::SaveLesson => {
                "The view, its mesh or map, start and goal, the options and the step, as a .navlab \
                 file for students or a bug report (Open… or `navlab open` shows it again)"
            }
            UiCommand::CopyLink => {
                "A web link that opens navlab's web page on exactly this: the view, start and \
                 goal, the options and the step, with the mesh and map inside the link unless \
                 they are built in"
            }
            UiCommand::ExportAnimation => {
                "A range of steps as an animated GIF, for slides or an issue report (the window \
                 or only the canvas)"
            }
            UiCommand::CompareTrace => {
                "Replay another program's search of this query (a Posthoc trace, .trace.json) \
                 with these panels, and see where it first expands another cell than ours"
            }
            UiCommand::CopyPicture => {
                "The window as a picture on the clipboard, to paste into slides or a bug report"
            }
            UiCommand::Quit => "Close navlab; unsaved edits or an unsaved repair ask first",
            UiCommand::FitView => "Show the whole mesh or map",
            UiCommand::Help => "Keyboard and mouse",
            UiCommand::OpenLevel => {
                "Open level geometry (a Wavefront OBJ, Y up) and build its navmesh by Recast's stages"
            }
            UiCommand::OpenLevelNavmesh => {
                "Search the navmesh built from the level: A*, the funnel, Polyanya, the editor and the diagnostics"
            }
            UiCommand::SaveCrowdRun => {
                "Write the crowd's run as a .crowd.trace.json file: Posthoc plays it, and Open… \
                 replays it here on this navmesh, every agent's decision again at every tick"
            }
            UiCommand::SaveLevelNavmesh => {
                "Write the navmesh built from the level (OBJ, or a Polyanya .mesh for a .mesh name), and beside it its recipe: a lesson (.navlab) naming the level, its parameters and areas, which Open… builds again"
            }
        }
    }

    /// What its keys do, for the keyboard help.
    pub fn help_text(self) -> &'static str {
        match self {
            UiCommand::OpenMesh => "open a mesh (in the Navmesh view)",
            UiCommand::OpenMap => "open a tile map (in the map views)",
            UiCommand::OpenPath => "open a mesh or a map by typing its path",
            UiCommand::ReloadMesh => "reload the mesh from its file (Navmesh view)",
            UiCommand::ReloadMap => "reload the map from its file (map views)",
            UiCommand::NewMap => "a new map, of any size",
            UiCommand::SaveMap => "save the map",
            UiCommand::SaveMapAs => "save the map under a new name",
            UiCommand::SaveMeshAs => "save the mesh shown",
            UiCommand::BuildMesh => "build a navmesh from the map and show it",
            UiCommand::Undo => "undo the last edit of the map or the mesh",
            UiCommand::Redo => "redo",
            UiCommand::FitView => "fit the mesh or the map to the view",
            UiCommand::SavePicture => "save a picture of the window (PNG)",
            UiCommand::CopyPicture => "copy a picture of the window",
            UiCommand::SaveLesson => "save a lesson (.navlab) of what is shown",
            UiCommand::CopyLink => "copy a web link to what is shown",
            UiCommand::ExportAnimation => "record steps as an animated GIF",
            UiCommand::CompareTrace => "replay another program's trace beside our search",
            UiCommand::Help => "this list",
            UiCommand::OpenLevel => "open level geometry (in the Level view)",
            UiCommand::OpenLevelNavmesh => "search the level's navmesh in the Navmesh view",
            UiCommand::SaveLevelNavmesh => "save the level's navmesh and its recipe",
            UiCommand::SaveCrowdRun => "save the crowd's run (Navmesh view, Crowd tab)",
            UiCommand::Quit => "quit (unsaved edits or repairs ask first)",
        }
    }

    /// Its keys, the one shown first.
    pub fn shortcuts(self) -> &'static [KeyboardShortcut] {
        const NEW: &[KeyboardShortcut] = &[command_key(Key::N)];
        const OPEN: &[KeyboardShortcut] = &[command_key(Key::O)];
        const SAVE: &[KeyboardShortcut] = &[command_key(Key::S)];
        const SAVE_AS: &[KeyboardShortcut] = &[command_shift_key(Key::S)];
        const RELOAD: &[KeyboardShortcut] = &[plain_key(Key::F5)];
        const BUILD: &[KeyboardShortcut] = &[command_key(Key::B)];
        const UNDO: &[KeyboardShortcut] = &[command_key(Key::Z)];
        const REDO: &[KeyboardShortcut] = &[command_shift_key(Key::Z), command_key(Key::Y)];
        const OPEN_PATH: &[KeyboardShortcut] = &[command_key(Key::L)];
        const SAVE_PICTURE: &[KeyboardShortcut] = &[plain_key(Key::F12)];
        const COPY_PICTURE: &[KeyboardShortcut] = &[command_shift_key(Key::C)];
        const COPY_LINK: &[KeyboardShortcut] = &[command_shift_key(Key::L)];
        const QUIT: &[KeyboardShortcut] = &[command_key(Key::Q)];
        const FIT: &[KeyboardShortcut] = &[plain_key(Key::F)];
        const HELP: &[KeyboardShortcut] = &[plain_key(Key::F1)];
        match self {
            UiCommand::NewMap => NEW,
            UiCommand::OpenMap | UiCommand::OpenMesh | UiCommand::OpenLevel => OPEN,
            UiCommand::OpenLevelNavmesh => &[],
            UiCommand::SaveLevelNavmesh => SAVE_AS,
            UiCommand::SaveMap => SAVE,
            UiCommand::SaveMapAs => SAVE_AS,
            UiCommand::ReloadMap | UiCommand::ReloadMesh => RELOAD,
            UiCommand::BuildMesh => BUILD,
            UiCommand::Undo => UNDO,
            UiCommand::Redo => REDO,
            UiCommand::SaveMeshAs | UiCommand::SaveCrowdRun => &[],
            UiCommand::OpenPath => OPEN_PATH,
            UiCommand::SavePicture => SAVE_PICTURE,
            UiCommand::CopyPicture => COPY_PICTURE,
            UiCommand::CopyLink => COPY_LINK,
            UiCommand::SaveLesson | UiCommand::ExportAnimation | UiCommand::CompareTrace => &[],
            UiCommand::Quit => QUIT,
            UiCommand::FitView => FIT,
            UiCommand::Help => HELP,
        }
    }

    /// Its keys in words ("Ctrl+Shift+Z or Ctrl+Y"), as this desktop writes them.
    pub fn keys_text(self, ctx: &egui::Context) -> String {
        let keys: Vec<String> = self
            .shortcuts()
            .iter()
            .map(|shortcut| ctx.format_shortcut(shortcut))
            .collect();
        keys.join(" or ")
    }

    /// The tooltip with its keys when `with_keys` (they work where it is shown).
    pub fn hover_text(self, ctx: &egui::Context, with_keys: bool) -> String {
        match self.keys_text(ctx) {
            keys if with_keys && !keys.is_empty() => format!("{} ({keys})", self.tooltip()),
            _ => self.tooltip().to_string(),
        }
    }

    /// A menu item: its text, its tooltip (with its keys when they work in this scene);
    /// returns true when clicked.
    pub fn menu_item(self, ui: &mut egui::Ui, enabled: bool, keys_work: bool) -> bool {
        let hover = self.hover_text(ui.ctx(), keys_work);
        ui.add_enabled(enabled, egui::Button::new(self.text()))
            .on_hover_text(&hover)
            .on_disabled_hover_text(hover)
            .clicked()
    }

    /// A button on a scene's panel: its short text, its tooltip and keys; returns true when
    /// clicked.
    pub fn panel_button(self, ui: &mut egui::Ui, enabled: bool) -> bool {
        let hover = self.hover_text(ui.ctx(), true);
        ui.add_enabled(enabled, egui::Button::new(self.short_text()))
            .on_hover_text(&hover)
            .on_disabled_hover_text(hover)
            .clicked()
    }
}

/// The commands among `offered` whose keys were pressed this frame, each key consumed. Keys
/// with more modifiers are tried first, so that Ctrl+Shift+S is not taken for Ctrl+S; a plain
/// letter is left to a text field that has the keyboard.
pub fn pressed(ui: &egui::Ui, offered: &[UiCommand]) -> Vec<UiCommand> {
    let typing = ui.ctx().egui_wants_keyboard_input();
    let mut keys: Vec<(UiCommand, KeyboardShortcut)> = offered
        .iter()
        .flat_map(|&command| command.shortcuts().iter().map(move |&key| (command, key)))
        .filter(|(_, key)| !(typing && is_plain_letter(key)))
        .collect();
    keys.sort_by_key(|(_, key)| std::cmp::Reverse(modifier_count(key.modifiers)));
    let mut pressed = Vec::new();
    ui.input_mut(|input| {
        for (command, key) in keys {
            if input.consume_shortcut(&key) && !pressed.contains(&command) {
                pressed.push(command);
            }
        }
    });
    pressed
}

fn modifier_count(m: Modifiers) -> u32 {
    u32::from(m.alt) + u32::from(m.shift) + u32::from(m.command || m.ctrl) + u32::from(m.mac_cmd)
}

/// True for a key without modifiers that types a letter.
fn is_plain_letter(key: &KeyboardShortcut) -> bool {
    key.modifiers.is_none() && key.logical_key.symbol_or_name().len() == 1
}

/// Something the window does after the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Ask for a mesh with the open dialog.
    OpenDialog,
    /// Ask for a path to open, typed in the app's own window.
    OpenPathPrompt,
    /// Load a mesh file.
    Load(PathBuf),
    /// Load a built-in mesh.
    LoadEmbedded(usize),
    /// Load the current mesh file again from disk.
    Reload,
    /// Ask for a tile map with the open dialog.
    OpenMapDialog,
    /// Load a tile map.
    LoadMap(PathBuf),
    /// Start a new grass map of this size.
    NewMap(usize, usize),
    /// Save the tile map to its file (asks where if it has none).
    SaveMap,
    /// Save the tile map under a new name.
    SaveMapAs,
    /// Triangulate the tile map's passable tiles and show the mesh in the navmesh view.
    BuildMeshFromMap,
    /// Open the edits kept from the last session (see [`recovery`](super::recovery)).
    OpenRecovered,
    /// Close the window.
    Quit,
    /// Write a picture of the window to a PNG file (asks where).
    SavePicture,
    /// Put a picture of the window on the clipboard.
    CopyPicture,
    /// Write a lesson file of what is shown (asks where).
    SaveLesson,
    /// Ask for a Posthoc trace to replay beside our search.
    CompareTraceDialog,
    /// Open a file given as bytes (a browser's picker or drop).
    OpenUpload(super::files::Upload),
    /// Ask for level geometry with the open dialog.
    OpenLevelDialog,
    /// Load level geometry (an OBJ, Y up) into the level view.
    LoadLevel(PathBuf),
    /// Write the level's navmesh and its recipe (asks where).
    SaveLevelNavmesh,
    /// Ask where to save the crowd's run, then save it.
    SaveCrowdRun,
}

impl Command {
    /// True for commands that would throw away the tile map's unsaved edits.
    pub fn replaces_map(&self) -> bool {
        matches!(
            self,
            Command::OpenMapDialog
                | Command::LoadMap(_)
                | Command::NewMap(..)
                | Command::OpenRecovered
                | Command::Quit
        ) || self.opens(&[
            super::file_kinds::Opens::Map,
            super::file_kinds::Opens::Lesson,
        ])
    }

    /// True for a file given as bytes that opens as one of `kinds`.
    fn opens(&self, kinds: &[super::file_kinds::Opens]) -> bool {
        match self {
            Command::OpenUpload(upload) => {
                super::file_kinds::opens_as(std::path::Path::new(&upload.name))
                    .is_ok_and(|opens| kinds.contains(&opens))
            }
            _ => false,
        }
    }

    /// True for commands that would throw away the mesh shown (and an unsaved repair of it).
    pub fn replaces_mesh(&self) -> bool {
        matches!(
            self,
            Command::OpenDialog
                | Command::Load(_)
                | Command::LoadEmbedded(_)
                | Command::Reload
                | Command::BuildMeshFromMap
                | Command::OpenRecovered
                | Command::Quit
        ) || self.opens(&[
            super::file_kinds::Opens::Mesh,
            super::file_kinds::Opens::Lesson,
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No two commands a scene can offer share a key, but for those that are one action in
    /// several scenes (Open, Reload), which no scene offers together.
    #[test]
    fn no_two_commands_share_a_key() {
        let same_action = |a: UiCommand, b: UiCommand| {
            use UiCommand::*;
            matches!(
                (a, b),
                (SaveMapAs, SaveLevelNavmesh)
                    | (SaveLevelNavmesh, SaveMapAs)
                    | (OpenMap | OpenLevel, OpenMesh)
                    | (OpenMesh | OpenLevel, OpenMap)
                    | (OpenMap | OpenMesh, OpenLevel)
                    | (ReloadMap, ReloadMesh)
                    | (ReloadMesh, ReloadMap)
            )
        };
        for a in UiCommand::ALL {
            for b in UiCommand::ALL {
                if a == b || same_action(a, b) {
                    continue;
                }
                for key in a.shortcuts() {
                    assert!(!b.shortcuts().contains(key), "{a:?} and {b:?}");
                }
            }
        }
    }

    /// Ctrl+Shift+S runs Save as, not Save; Ctrl+S runs Save.
    #[test]
    fn the_key_with_more_modifiers_wins() {
        let ctx = egui::Context::default();
        let offered = [UiCommand::SaveMap, UiCommand::SaveMapAs];
        let press = |modifiers: Modifiers| {
            let input = egui::RawInput {
                events: vec![egui::Event::Key {
                    key: Key::S,
                    physical_key: None,
                    pressed: true,
                    repeat: false,
                    modifiers,
                }],
                ..Default::default()
            };
            let mut got = Vec::new();
            let mut output = ctx.run_ui(input, |ui| got = pressed(ui, &offered));
            // No painter takes the font textures here.
            output.textures_delta.clear();
            got
        };
        assert_eq!(
            press(Modifiers::COMMAND | Modifiers::SHIFT),
            [UiCommand::SaveMapAs]
        );
        assert_eq!(press(Modifiers::COMMAND), [UiCommand::SaveMap]);
        assert_eq!(press(Modifiers::NONE), []);
    }
}
