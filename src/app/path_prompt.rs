//! Typing a file's path in the app's own window: what Open and Save fall back to on a desktop
//! that shows no file dialog, and File → Open path… (Ctrl+L) for pasting one.

use std::path::{Path, PathBuf};

/// What the typed path is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptPurpose {
    /// Open a mesh or a tile map (told apart by extension, as a dropped file).
    Open,
    /// Save the tile map (`.json` keeps tile costs, `.map` is MovingAI).
    SaveMap,
    /// Save the mesh shown (`.obj`, or `.mesh` for Polyanya).
    SaveMesh,
    /// Save a picture of the window (`.png`).
    SavePicture,
    /// Save a lesson (`.navlab`).
    SaveLesson,
    /// Save an animation (`.gif`).
    SaveAnimation,
    /// A search trace to replay.
    OpenTrace,
    /// Level geometry (an OBJ, Y up) for the level view.
    OpenLevel,
    /// The level's navmesh (`.obj`, or `.mesh`), its recipe beside it.
    SaveLevelNavmesh,
    /// The crowd's run (`.crowd.trace.json`).
    SaveCrowdRun,
}

impl PromptPurpose {
    /// The extension added to a name typed without one.
    fn default_extension(self) -> Option<&'static str> {
        match self {
            PromptPurpose::Open | PromptPurpose::OpenTrace | PromptPurpose::OpenLevel => None,
            PromptPurpose::SaveMap => Some("json"),
            PromptPurpose::SaveMesh | PromptPurpose::SaveLevelNavmesh => Some("obj"),
            PromptPurpose::SavePicture => Some("png"),
            PromptPurpose::SaveLesson => Some("navlab"),
            PromptPurpose::SaveAnimation => Some("gif"),
            PromptPurpose::SaveCrowdRun => Some("crowd.trace.json"),
        }
    }
}

/// Why a typed path cannot be used (yet).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathProblem {
    /// Nothing typed.
    #[error("Type a path.")]
    Empty,
    /// The file to open is not there.
    #[error("There is no file {0}.")]
    NotFound(PathBuf),
    /// The path names a folder.
    #[error("{0} is a folder; add the file's name.")]
    Folder(PathBuf),
    /// The folder to save into is not there.
    #[error("There is no folder {0} to save into.")]
    NoFolder(PathBuf),
    /// A picture's name that is not a PNG's.
    #[error("{0} is not a .png name: pictures are written as PNG.")]
    NotPng(PathBuf),
    /// Saving would replace this file, and the user has not said so yet.
    #[error("{0} exists. Press Replace to overwrite it (atomically), or change the name.")]
    Exists(PathBuf),
}

/// What `text` means as a path for `purpose`: `~` is the home folder, a relative path is
/// relative to the working folder, a name to save without an extension gets the purpose's
/// one. Saving over `replace` (a file the user agreed to overwrite) is allowed.
pub fn resolve(
    purpose: PromptPurpose,
    text: &str,
    home: Option<&Path>,
    replace: Option<&Path>,
) -> Result<PathBuf, PathProblem> {
    let text = text.trim();
    if text.is_empty() {
        return Err(PathProblem::Empty);
    }
    let mut path = expand_home(text, home);
    if path.is_dir() {
        return Err(PathProblem::Folder(path));
    }
    if purpose == PromptPurpose::Open {
        return if path.is_file() {
            Ok(path)
        } else {
            Err(PathProblem::NotFound(path))
        };
    }
    if path.extension().is_none()
        && let Some(extension) = purpose.default_extension()
    {
        path.set_extension(extension);
    }
    if purpose == PromptPurpose::SavePicture && super::files::not_png(&path) {
        return Err(PathProblem::NotPng(path));
    }
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() && !folder.is_dir() => {
            Err(PathProblem::NoFolder(folder.to_path_buf()))
        }
        _ if path.exists() && replace != Some(path.as_path()) => Err(PathProblem::Exists(path)),
        _ => Ok(path),
    }
}

/// What was pasted over the folder the prompt was filled with: an absolute path typed after it
/// (`/maps//data/a.obj` is `/data/a.obj`, `/maps/~/a.obj` is `~/a.obj`, `C:\maps\D:\a.obj` is
/// `D:\a.obj`), as file choosers read it; `text` itself otherwise.
fn pasted_over(text: &str) -> &str {
    let mut from = 0;
    for (i, _) in text.char_indices().skip(1) {
        let rest = &text[i..];
        let before = &text[..i];
        // After a separator that ends a folder name (not the `//` a network path starts with).
        let after_separator = before.ends_with(['/', '\\'])
            && before.trim_matches(['/', '\\']).chars().any(|c| c != ':');
        let drive = rest.len() >= 3
            && rest.as_bytes()[0].is_ascii_alphabetic()
            && rest.as_bytes()[1] == b':'
            && matches!(rest.as_bytes()[2], b'/' | b'\\');
        if after_separator
            && (rest.starts_with(['/', '\\'])
                || rest == "~"
                || rest.starts_with("~/")
                || rest.starts_with("~\\")
                || drive)
        {
            from = i;
        }
    }
    &text[from..]
}

/// `text` as a path, a leading `~` (alone or before a separator) being `home`; `~name` (another
/// user's home in a shell) is taken as typed. An absolute path pasted after a folder counts
/// from where it starts (see [`pasted_over`]).
fn expand_home(text: &str, home: Option<&Path>) -> PathBuf {
    let text = pasted_over(text);
    match (text.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with(['/', '\\']) => {
            home.join(rest.trim_start_matches(['/', '\\']))
        }
        _ => PathBuf::from(text),
    }
}

/// What Tab makes of `text`: the name being typed completed as far as the folder's entries
/// that begin with it agree (a folder gets its `/`), and those entries (at most `MAX_SHOWN`,
/// sorted). `None` when no entry begins with it or the folder cannot be read. Hidden entries
/// are offered only for a name that starts with a dot.
pub fn complete(text: &str, home: Option<&Path>) -> Option<(String, Vec<String>)> {
    const MAX_SHOWN: usize = 8;
    let split = text.rfind(['/', '\\']).map_or(0, |i| i + 1);
    let (folder_text, typed) = text.split_at(split);
    let folder = if folder_text.is_empty() {
        PathBuf::from(".")
    } else {
        expand_home(folder_text, home)
    };
    let mut matches: Vec<(String, bool)> = std::fs::read_dir(&folder)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let shown = typed.starts_with('.') || !name.starts_with('.');
            (shown && name.starts_with(typed)).then(|| (name, entry.path().is_dir()))
        })
        .collect();
    matches.sort();
    let (first, _) = matches.first()?;
    let common = matches.iter().fold(first.as_str(), |common, (name, _)| {
        let agreed = common
            .char_indices()
            .zip(name.chars())
            .find(|((_, a), b)| a != b)
            .map_or(common.len().min(name.len()), |((i, _), _)| i);
        &common[..agreed]
    });
    let mut completed = format!("{folder_text}{common}");
    if let [(name, true)] = matches.as_slice() {
        completed = format!("{folder_text}{name}/");
    }
    let shown = matches
        .iter()
        .take(MAX_SHOWN)
        .map(|(name, dir)| {
            if *dir {
                format!("{name}/")
            } else {
                name.clone()
            }
        })
        .collect();
    Some((completed, shown))
}

/// What the user decided in the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptAnswer {
    /// Use this path (checked by [`resolve`]).
    Chosen(PathBuf),
    /// Closed without choosing.
    Cancelled,
}

/// The prompt while it is shown.
#[derive(Debug, Clone)]
pub struct PathPrompt {
    /// What the path is for.
    pub purpose: PromptPurpose,
    /// The path as typed.
    pub text: String,
    /// Shown because the desktop gave no file dialog (the window says so).
    no_dialog: bool,
    /// What is wrong with the path typed, shown under it until it changes.
    problem: Option<PathProblem>,
    /// Whether the text field has been given the keyboard yet.
    focused: bool,
    /// What the last Tab found in the folder, shown under the field.
    completions: Vec<String>,
}

impl PathPrompt {
    /// A prompt for `purpose`, starting from `text` (a folder to open from, or the suggested
    /// file to save); `no_dialog` when it stands in for a file dialog the desktop did not show.
    pub fn new(purpose: PromptPurpose, text: String, no_dialog: bool) -> Self {
        Self {
            purpose,
            text,
            no_dialog,
            problem: None,
            focused: false,
            completions: Vec::new(),
        }
    }

    /// Draws the prompt; returns the user's decision in the frame they make it. Enter confirms,
    /// Escape cancels; a problem with the path keeps the prompt open and says what it is.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<PromptAnswer> {
        let (title, verb) = match self.purpose {
            PromptPurpose::Open => ("Open a file by its path", "Open"),
            PromptPurpose::SaveMap => ("Save the tile map as", "Save"),
            PromptPurpose::SaveMesh => ("Save the mesh as", "Save"),
            PromptPurpose::SavePicture => ("Save the picture as", "Save"),
            PromptPurpose::SaveLesson => ("Save the lesson as", "Save"),
            PromptPurpose::SaveAnimation => ("Save the animation as", "Save"),
            PromptPurpose::OpenTrace => ("Replay the trace", "Open"),
            PromptPurpose::OpenLevel => ("Open level geometry", "Open"),
            PromptPurpose::SaveLevelNavmesh => ("Save the level's navmesh as", "Save"),
            PromptPurpose::SaveCrowdRun => ("Save the crowd's run as", "Save"),
        };
        let replacing = matches!(self.problem, Some(PathProblem::Exists(_)));
        let mut confirm = false;
        let mut cancel = false;
        egui::Window::new(title)
            .collapsible(false)
            .resizable(false)
            .default_width(520.0)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
            .show(ctx, |ui| {
                if self.no_dialog {
                    ui.label(
                        "No file dialog appeared: this desktop has no file-chooser portal \
                         (xdg-desktop-portal with a backend such as xdg-desktop-portal-gtk \
                         provides one). Type the path instead.",
                    );
                }
                ui.label(match self.purpose {
                    PromptPurpose::Open => {
                        "A mesh (.obj, .mesh) or a tile map (.map, .json, .tmx, .tmj). ~ is your home folder; Tab completes a name."
                    }
                    PromptPurpose::SaveMap => {
                        ".json keeps tile costs, .map is MovingAI's format; a name without one gets .json."
                    }
                    PromptPurpose::SaveMesh => {
                        ".obj is Wavefront OBJ, .mesh is Polyanya's format; a name without one gets .obj."
                    }
                    PromptPurpose::SavePicture => {
                        "A PNG of the window as it was when asked for; a name without .png gets it."
                    }
                    PromptPurpose::SaveLesson => {
                        "A lesson names the mesh and map files in its folder and holds the others; a name without .navlab gets it."
                    }
                    PromptPurpose::SaveAnimation => {
                        "An animated GIF of the steps asked for; a name without .gif gets it."
                    }
                    PromptPurpose::OpenTrace => {
                        "A Posthoc trace (JSON) of this map's query, made by another program."
                    }
                    PromptPurpose::OpenLevel => {
                        "Level geometry as a Wavefront OBJ, Y up. ~ is your home folder; Tab completes a name."
                    }
                    PromptPurpose::SaveCrowdRun => {
                        "A Posthoc trace of every agent at every tick, which Open… replays on this navmesh; a name without an extension gets .crowd.trace.json."
                    }
                    PromptPurpose::SaveLevelNavmesh => {
                        ".obj is Wavefront OBJ, .mesh is Polyanya's format; a name without one gets .obj. The recipe (.navlab) is written beside it."
                    }
                });
                let field = ui.make_persistent_id("path_prompt_field");
                // Tab completes the name being typed (before the field would lose the focus).
                let tab = ui.memory(|m| m.has_focus(field))
                    && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Tab));
                if tab {
                    let home = std::env::var_os("HOME").map(PathBuf::from);
                    match complete(&self.text, home.as_deref()) {
                        Some((completed, shown)) => {
                            self.text = completed;
                            self.completions = shown;
                            let mut state =
                                egui::text_edit::TextEditState::load(ui.ctx(), field)
                                    .unwrap_or_default();
                            let end = egui::text::CCursor::new(self.text.chars().count());
                            state
                                .cursor
                                .set_char_range(Some(egui::text::CCursorRange::one(end)));
                            state.store(ui.ctx(), field);
                        }
                        None => self.completions = vec!["(nothing there begins so)".into()],
                    }
                }
                let edit = ui
                    .horizontal(|ui| {
                        let label = ui.label("Path");
                        ui.add(
                            egui::TextEdit::singleline(&mut self.text)
                                .id(field)
                                // Tab completes instead of moving the focus on.
                                .lock_focus(true)
                                .desired_width(f32::INFINITY),
                        )
                        .labelled_by(label.id)
                    })
                    .inner;
                if !self.completions.is_empty() {
                    ui.weak(self.completions.join("   "));
                }
                if !self.focused {
                    edit.request_focus();
                    self.focused = true;
                }
                if edit.changed() {
                    self.problem = None;
                    if !tab {
                        self.completions.clear();
                    }
                }
                if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    confirm = true;
                }
                if let Some(problem) = &self.problem {
                    ui.colored_label(ui.visuals().error_fg_color, problem.to_string());
                }
                ui.horizontal(|ui| {
                    let verb = if replacing { "Replace" } else { verb };
                    confirm |= ui.button(verb).clicked();
                    cancel = ui.button("Cancel").clicked();
                });
            });
        if cancel || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            return Some(PromptAnswer::Cancelled);
        }
        if !confirm {
            return None;
        }
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let agreed = match &self.problem {
            Some(PathProblem::Exists(path)) => Some(path.as_path()),
            _ => None,
        };
        match resolve(self.purpose, &self.text, home.as_deref(), agreed) {
            Ok(path) => Some(PromptAnswer::Chosen(path)),
            Err(problem) => {
                self.problem = Some(problem);
                // Back to the field, so that the path can be mended at once.
                self.focused = false;
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_pasted_after_the_folder_counts_from_where_it_starts() {
        assert_eq!(pasted_over("/home/u/maps//data/a.obj"), "/data/a.obj");
        assert_eq!(pasted_over("/home/u/maps/~/a.obj"), "~/a.obj");
        assert_eq!(pasted_over("C:\\maps\\D:\\a.obj"), "D:\\a.obj");
        assert_eq!(pasted_over("/home/u/maps/a.obj"), "/home/u/maps/a.obj");
        assert_eq!(pasted_over("//server/share/a.obj"), "//server/share/a.obj");
        assert_eq!(pasted_over("maps/~old/a.obj"), "maps/~old/a.obj");
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("a.obj");
        std::fs::write(&file, "").expect("write");
        let typed = format!("{}/maps/{}", dir.path().display(), file.display());
        assert_eq!(resolve(PromptPurpose::Open, &typed, None, None), Ok(file));
    }

    #[test]
    fn tab_completes_as_far_as_the_folder_agrees() {
        let dir = tempfile::tempdir().expect("temp dir");
        for file in ["arena.map", "arena2.map", "maze.map", ".hidden"] {
            std::fs::write(dir.path().join(file), "").expect("write");
        }
        std::fs::create_dir(dir.path().join("maps")).expect("mkdir");
        let at = |rest: &str| format!("{}/{rest}", dir.path().display());
        let complete = |rest: &str| complete(&at(rest), None);
        assert_eq!(
            complete("ar"),
            Some((at("arena"), vec!["arena.map".into(), "arena2.map".into()]))
        );
        assert_eq!(
            complete("m"),
            Some((at("ma"), vec!["maps/".into(), "maze.map".into()]))
        );
        assert_eq!(
            complete("maz"),
            Some((at("maze.map"), vec!["maze.map".into()]))
        );
        assert_eq!(complete("maps"), Some((at("maps/"), vec!["maps/".into()])));
        assert_eq!(complete("x"), None);
        assert_eq!(
            complete("").map(|(_, shown)| shown.len()),
            Some(4),
            "no hidden"
        );
        assert_eq!(complete(".h").map(|(text, _)| text), Some(at(".hidden")));
        // ~ lists the home folder and keeps the ~ as typed.
        assert_eq!(
            super::complete("~/maz", Some(dir.path())).map(|(text, _)| text),
            Some("~/maze.map".to_string())
        );
        assert_eq!(super::complete("/no/such/folder/x", None), None);
    }

    #[test]
    fn opening_needs_an_existing_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("a.obj");
        std::fs::write(&file, "v 0 0 0\n").expect("written");
        let open = |text: &str| resolve(PromptPurpose::Open, text, Some(dir.path()), None);
        assert_eq!(open(&file.display().to_string()), Ok(file.clone()));
        assert_eq!(open("  ~/a.obj \n"), Ok(file.clone()), "~ and blanks");
        assert_eq!(open(""), Err(PathProblem::Empty));
        assert_eq!(
            open("~/b.obj"),
            Err(PathProblem::NotFound(dir.path().join("b.obj")))
        );
        assert_eq!(
            open(&dir.path().display().to_string()),
            Err(PathProblem::Folder(dir.path().to_path_buf()))
        );
        // "~name" is another user's home in a shell, not ours: taken as typed.
        assert_eq!(
            open("~a.obj"),
            Err(PathProblem::NotFound(PathBuf::from("~a.obj")))
        );
    }

    #[test]
    fn saving_adds_the_extension_and_asks_before_replacing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let home = Some(dir.path());
        let map = dir.path().join("level.json");
        assert_eq!(
            resolve(PromptPurpose::SaveMap, "~/level", home, None),
            Ok(map.clone())
        );
        assert_eq!(
            resolve(PromptPurpose::SaveMesh, "~/level", home, None),
            Ok(dir.path().join("level.obj"))
        );
        assert_eq!(
            resolve(PromptPurpose::SaveMesh, "~/level.mesh", home, None),
            Ok(dir.path().join("level.mesh"))
        );
        assert_eq!(
            resolve(PromptPurpose::SaveMap, "~/missing/level.map", home, None),
            Err(PathProblem::NoFolder(dir.path().join("missing")))
        );
        std::fs::write(&map, "{}").expect("written");
        assert_eq!(
            resolve(PromptPurpose::SaveMap, "~/level.json", home, None),
            Err(PathProblem::Exists(map.clone()))
        );
        assert_eq!(
            resolve(PromptPurpose::SaveMap, "~/level.json", home, Some(&map)),
            Ok(map.clone()),
            "once agreed"
        );
        let other = dir.path().join("other.json");
        std::fs::write(&other, "{}").expect("written");
        assert_eq!(
            resolve(PromptPurpose::SaveMap, "~/other.json", home, Some(&map)),
            Err(PathProblem::Exists(other)),
            "agreeing to replace one file is not agreeing to replace another"
        );
        assert_eq!(
            resolve(PromptPurpose::SaveMap, "plain.json", home, None),
            Ok(PathBuf::from("plain.json")),
            "relative to the working folder"
        );
    }
}
