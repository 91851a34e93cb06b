//! What a scene is: the [`Scene`] trait each scene of the lab implements — its panels, canvas,
//! status line, keys, tick, document and help — and what the window shares with it for a
//! frame ([`Shared`]).

use super::commands::UiCommand;
use super::screenshot::Steps;
use crate::grid::MapDocument;
use serde::Serialize;

/// What a scene gets of the window for one frame.
pub struct Shared<'a> {
    /// The tile map the map scenes show and edit.
    pub map: &'a mut MapDocument,
    /// Commands asked for during the frame (a button, a menu item); the window runs them
    /// after the scene's part of the frame.
    pub asked: &'a mut Vec<UiCommand>,
    /// The error banner.
    pub banner: &'a mut Banner,
    /// A short confirmation for the status bar.
    pub notice: &'a mut Option<String>,
    /// True while a navmesh is being built from the map.
    pub building_mesh: bool,
    /// Whether the scene shown has an edit to undo and one to redo.
    pub history: (bool, bool),
}

impl Shared<'_> {
    /// Asks for `command` after the frame.
    pub fn ask(&mut self, command: UiCommand) {
        self.asked.push(command);
    }

    /// True when `command` can run now (a build is not running, the map has a file to
    /// reload, there is something to undo…).
    pub fn can(&self, command: UiCommand) -> bool {
        if super::IN_BROWSER && !command.in_browser() {
            return false;
        }
        match command {
            UiCommand::BuildMesh => !self.building_mesh,
            UiCommand::ReloadMap => self.map.file.is_some(),
            UiCommand::Undo => self.history.0,
            UiCommand::Redo => self.history.1,
            _ => true,
        }
    }

    /// A panel button for `command` (its short text, its tooltip with its keys), enabled when
    /// it [`can`](Self::can) run; a click asks for it.
    pub fn button(&mut self, ui: &mut egui::Ui, command: UiCommand) {
        if command.panel_button(ui, self.can(command)) {
            self.ask(command);
        }
    }
}

/// The error banner over the canvas: the last error, what failed and what is still there.
#[derive(Debug, Clone, Default)]
pub struct Banner {
    /// The message, shown until dismissed.
    pub error: Option<String>,
    /// What failed (the banner's first words) and what is still there (its second line).
    pub context: (&'static str, &'static str),
    /// The view the error is about: the one shown when it was first drawn. Other views do
    /// not show it (it comes back with its view).
    pub scene: Option<super::SceneKind>,
}

impl Banner {
    /// Shows `message`; `context` says what failed and what is still there.
    pub fn fail(&mut self, context: (&'static str, &'static str), message: String) {
        self.context = context;
        self.error = Some(message);
        self.scene = None;
    }

    /// The error to show in view `shown`, if any: the banner's, once it belongs to `shown`
    /// (an error is taken by the view shown when it is first drawn).
    pub fn error_in(&mut self, shown: super::SceneKind) -> Option<&str> {
        self.error.as_ref()?;
        let scene = *self.scene.get_or_insert(shown);
        self.error.as_deref().filter(|_| scene == shown)
    }
}

/// One scene of the lab.
pub trait Scene: Steps {
    /// Its name in the menu bar.
    fn name(&self) -> &'static str;

    /// What it shows, for the name's tooltip.
    fn about(&self) -> &'static str;

    /// The document shown, for the window title and the menu bar: its name, and what is
    /// unsaved about it ("unsaved"; `None`: nothing). The map scenes show `map`.
    fn document(&self, map: &MapDocument) -> (String, Option<&'static str>);

    /// The commands the scene offers first in the File menu and whose keys it takes.
    fn commands(&self) -> &'static [UiCommand];

    /// Whether Undo and Redo have something to do here: the map's history unless the scene
    /// edits something of its own.
    fn history(&self, map: &MapDocument) -> (bool, bool) {
        (map.can_undo(), map.can_redo())
    }

    /// Undoes (or, with `redo`, makes again) the last edit of a document the scene holds of its
    /// own; false when it holds none, and the shared map's history is used.
    fn undo_own(&mut self, _redo: bool) -> bool {
        false
    }

    /// Keys and time, before anything is drawn: `dt` seconds have passed. Returns true while
    /// something moves (the window draws the next frame at once).
    fn tick(&mut self, ui: &egui::Ui, shared: &mut Shared, dt: f64) -> bool;

    /// The side and bottom panels, before the canvas takes the rest of the window.
    fn panels_ui(&mut self, ui: &mut egui::Ui, shared: &mut Shared);

    /// The canvas, in the rest of the window (under the error banner).
    fn canvas_ui(&mut self, ui: &mut egui::Ui, shared: &mut Shared);

    /// Windows of the scene's own over the canvas, after it.
    fn windows_ui(&mut self, _ctx: &egui::Context, _shared: &mut Shared) {}

    /// The scene's part of the status bar.
    fn status_ui(&self, ui: &mut egui::Ui, map: &MapDocument);

    /// A file name for a picture of what is shown (`NAME-step-K.png`).
    fn picture_name(&self, map: &MapDocument) -> String;

    /// Its keys and mouse actions for the help window: (keys, what they do).
    fn keys(&self) -> Vec<(&'static str, &'static str)>;

    /// What its canvas's colours and marks mean now, as its legend shows them (the help lists
    /// them too).
    fn legend_rows(&self) -> Vec<crate::app::legend::LegendRow>;

    /// Where its canvas was drawn last frame.
    fn canvas_area(&self) -> Option<egui::Rect>;

    /// Fits the view to what the scene shows, at the next frame.
    fn fit_view(&mut self);
}

/// How a scene starts and what it keeps between runs.
pub trait SceneSetup: Scene + Sized {
    /// The options kept between runs.
    type Settings: Clone + Default + PartialEq + Serialize + serde::de::DeserializeOwned;

    /// The scene with `settings`, on its default content (the map scenes on `map`).
    fn with_settings(settings: &Self::Settings, map: &MapDocument) -> Self;

    /// The options to keep for the next run.
    fn settings(&self, map: &MapDocument) -> Self::Settings;
}

/// A side panel's first width: `default` in a window 1,280 points wide, in proportion in a
/// narrower one (at least 160), so that a small window keeps room for the canvas. egui keeps
/// the width the user drags it to.
pub fn side_panel_width(ui: &egui::Ui, default: f32) -> f32 {
    let window = ui.ctx().content_rect().width();
    default.min(window * default / 1280.0).max(160.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::SceneKind;

    /// An error belongs to the view it was first shown in: the other views do not show it,
    /// and it is there again back in its view until dismissed.
    #[test]
    fn an_error_banner_stays_with_its_view() {
        let mut banner = Banner::default();
        assert_eq!(banner.error_in(SceneKind::Navmesh), None);
        banner.fail(("Could not open", "kept"), "rooms.obj: broken".into());
        assert_eq!(
            banner.error_in(SceneKind::Navmesh),
            Some("rooms.obj: broken")
        );
        assert_eq!(banner.error_in(SceneKind::TileMap), None);
        assert_eq!(banner.error_in(SceneKind::Pursuit), None);
        assert_eq!(
            banner.error_in(SceneKind::Navmesh),
            Some("rooms.obj: broken")
        );
        // A new error belongs to the view shown when it comes.
        banner.fail(("Could not open", "kept"), "arena.map: broken".into());
        assert_eq!(
            banner.error_in(SceneKind::TileMap),
            Some("arena.map: broken")
        );
        assert_eq!(banner.error_in(SceneKind::Navmesh), None);
    }
}
