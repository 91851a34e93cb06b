//! The pursuit scene: the tile editor's map with the kitten, its smell trail and the mobs that
//! hunt it, the rays they cast, and play / pause / step / speed / reset-to-seed controls.

use super::camera::{CanvasCamera, View};
use super::grid_scene::{GridScene, StrokeFrom, stroke_cells, stroke_within_frame, tile_button};
use super::tile_paint::{content_key, paint_tiles};
use crate::geom::Vec2;
use crate::grid::bresenham::{Line, first_blocking};
use crate::grid::{Cell, Tile, TileMap};
use crate::navmesh::Bounds;
use crate::pursuit::mob::cell_of;
use crate::pursuit::{
    BODY_HALF, DT, KittenControl, MobState, PursuitConfig, PursuitEvent, Sight, TrailChoice, World,
};
use crate::search::Observer;
use egui::{Color32, Pos2, Rect, Sense, Stroke, Ui};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What a left click on the map does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PursuitTool {
    /// Send the kitten there (also the right button, whatever the tool).
    KittenGoTo,
    /// Put a mob there.
    AddMob,
    /// Remove the mob nearest to the click.
    RemoveMob,
    /// Paint tiles, even while the simulation runs.
    Paint(Tile),
}

/// The scene's options kept between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PursuitSettings {
    /// Seed, decay, trail choice, avoidance.
    pub config: PursuitConfig,
    /// Who moves the kitten.
    pub control: KittenControl,
    /// Simulated seconds per real second.
    pub speed: f64,
    /// Draw the rays, Bresenham tiles and whiskers.
    pub show_rays: bool,
    /// Where everyone starts, and on which map: put back at the next run when that map is
    /// open again.
    pub placements: Option<Placements>,
}

/// Where the kitten and the mobs start (what Reset goes back to), and the map they were placed
/// on: its file (none for a map never saved) and size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Placements {
    /// The map's file.
    pub map: Option<PathBuf>,
    /// The map's width and height in tiles.
    pub size: [usize; 2],
    /// The kitten's start, in tiles.
    pub kitten: [f64; 2],
    /// Each mob's start, in tiles.
    pub mobs: Vec<[f64; 2]>,
}

impl Placements {
    /// The starting places on `map` (from `file`) when they were made on it: those that no
    /// longer fit (the file was edited since) are left out, the kitten then starts where it
    /// would on a new map. `None` for another map.
    fn setup_on(&self, map: &TileMap, file: Option<&Path>) -> Option<Setup> {
        if self.map.as_deref() != file || self.size != [map.width(), map.height()] {
            return None;
        }
        let fits = |&[x, y]: &[f64; 2]| {
            let p = Vec2::new(x, y);
            crate::pursuit::placement(map, p).is_ok().then_some(p)
        };
        Some(Setup {
            kitten: fits(&self.kitten).unwrap_or_else(|| default_setup(map).kitten),
            mobs: self.mobs.iter().filter_map(fits).collect(),
        })
    }
}

impl Default for PursuitSettings {
    fn default() -> Self {
        Self {
            config: PursuitConfig::default(),
            control: KittenControl::Wander,
            speed: 1.0,
            show_rays: true,
            placements: None,
        }
    }
}

/// Where everyone starts (what "reset to seed" goes back to).
#[derive(Debug, Clone, PartialEq)]
struct Setup {
    kitten: Vec2,
    mobs: Vec<Vec2>,
}

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

/// Most events kept in the log.
const LOG_CAP: usize = 2000;
/// Most simulation steps run in one frame (a slow frame must not snowball).
const MAX_STEPS_PER_FRAME: u32 = 240;

/// Collects the events of a frame's steps.
struct EventLog<'a>(&'a mut Vec<PursuitEvent>);

impl Observer<PursuitEvent> for EventLog<'_> {
    fn event(&mut self, event: PursuitEvent) {
        if self.0.len() >= LOG_CAP {
            self.0.drain(..LOG_CAP / 4);
        }
        self.0.push(event);
    }
}

/// The scene.
pub struct PursuitScene {
    /// The simulation.
    pub world: World,
    setup: Setup,
    /// Options.
    pub settings: PursuitSettings,
    /// True while the simulation runs.
    pub playing: bool,
    accumulator: f64,
    /// What a left click does.
    pub tool: PursuitTool,
    /// What happened, oldest first.
    pub log: Vec<PursuitEvent>,
    /// The mob whose rays are emphasised and whose details are shown.
    pub selected: Option<usize>,
    /// The view: fitted to the map until the user pans or zooms.
    pub camera: CanvasCamera,
    /// Where the canvas was drawn last.
    pub canvas_rect: Option<Rect>,
    /// A short message about the last refused action.
    pub notice: Option<String>,
    /// The editor's map revision this scene last copied.
    map_revision: Option<u64>,
    /// The file of the map this scene last copied.
    map_file: Option<PathBuf>,
    /// Last run's placements, until the scene first copies the editor's map (then put back
    /// if it is the map they were made on, else forgotten).
    restore: Option<Placements>,
    stroke_open: bool,
    /// The cell painted last in the current drag (the next one joins it with a line).
    stroke_last: Option<Cell>,
}

impl PursuitScene {
    /// The scene on `map` with default placements (see `default_setup`).
    pub fn new(map: TileMap, mut settings: PursuitSettings) -> Self {
        let setup = default_setup(&map);
        let restore = settings.placements.take();
        let world = build_world(map, &settings, &setup);
        Self {
            world,
            setup,
            settings,
            playing: false,
            accumulator: 0.0,
            tool: PursuitTool::AddMob,
            log: Vec::new(),
            selected: Some(0),
            camera: CanvasCamera::default(),
            canvas_rect: None,
            notice: None,
            map_revision: None,
            map_file: None,
            restore,
            stroke_open: false,
            stroke_last: None,
        }
    }

    /// Follows the editor's map: a new map (other size) starts over with default placements,
    /// an edit or undo is taken over keeping everyone where they are.
    pub fn sync_map(&mut self, grid: &GridScene) {
        if self.map_revision == Some(grid.revision) {
            return;
        }
        self.map_revision = Some(grid.revision);
        self.map_file = grid.file.clone();
        if let Some(setup) = self
            .restore
            .take()
            .and_then(|kept| kept.setup_on(&grid.map, grid.file.as_deref()))
        {
            self.setup = setup;
            self.camera.fit_next_frame();
            self.reset_with(grid.map.clone());
            return;
        }
        let same_size = grid.map.width() == self.world.map().width()
            && grid.map.height() == self.world.map().height();
        if !same_size {
            self.setup = default_setup(&grid.map);
            self.camera.fit_next_frame();
            self.reset_with(grid.map.clone());
            return;
        }
        if grid.map != *self.world.map() {
            self.world.replace_map(grid.map.clone());
            let world = &self.world;
            // Homes inside new walls follow the mob, so a reset stays valid.
            for (home, mob) in self.setup.mobs.iter_mut().zip(&world.mobs) {
                if crate::pursuit::placement(world.map(), *home).is_err() {
                    *home = mob.home;
                }
            }
            if crate::pursuit::placement(world.map(), self.setup.kitten).is_err() {
                self.setup.kitten = world.kitten.body.position;
            }
        }
    }

    /// The options to keep for the next run, with where everyone starts and on which map
    /// (last run's, untouched, while this run has not shown the scene).
    pub fn kept_settings(&self, grid: &GridScene) -> PursuitSettings {
        let placements = self.restore.clone().or_else(|| {
            let point = |p: Vec2| [p.x, p.y];
            // A file given to the map since it was copied (Save as) is still the same map.
            let map = if self.map_revision == Some(grid.revision) {
                grid.file.clone()
            } else {
                self.map_file.clone()
            };
            Some(Placements {
                map,
                size: [self.world.map().width(), self.world.map().height()],
                kitten: point(self.setup.kitten),
                mobs: self.setup.mobs.iter().map(|&m| point(m)).collect(),
            })
        });
        PursuitSettings {
            placements,
            ..self.settings.clone()
        }
    }

    fn reset_with(&mut self, map: TileMap) {
        self.world = build_world(map, &self.settings, &self.setup);
        self.log.clear();
        self.accumulator = 0.0;
        self.selected = (!self.world.mobs.is_empty()).then_some(0);
    }

    /// Back to the places a new map gets (see `default_setup`), paused at the start.
    pub fn default_places(&mut self) {
        self.setup = default_setup(self.world.map());
        self.reset();
    }

    /// Back to the start, paused: everyone at their starting place, the trail gone, the clock
    /// at zero, the kitten's autopilot re-seeded. The map stays as it is now.
    pub fn reset(&mut self) {
        let map = self.world.map().clone();
        self.reset_with(map);
        self.playing = false;
    }

    /// The canvas view of the last frame.
    pub fn last_view(&self) -> Option<View> {
        Some(View {
            camera: self.camera.get()?,
            rect: self.canvas_rect?,
        })
    }

    /// Runs one simulation step.
    pub fn step(&mut self) {
        self.world.config = self.settings.config.clone();
        self.world.step(&mut EventLog(&mut self.log));
    }

    /// Advances by `dt` real seconds when playing (fixed steps, any frame rate).
    pub fn tick(&mut self, dt: f64) {
        if !self.playing {
            self.accumulator = 0.0;
            return;
        }
        self.accumulator += dt * self.settings.speed;
        let mut steps = 0;
        while self.accumulator >= DT && steps < MAX_STEPS_PER_FRAME {
            self.accumulator -= DT;
            self.step();
            steps += 1;
        }
        if steps == MAX_STEPS_PER_FRAME {
            self.accumulator = 0.0;
        }
    }

    /// Adds a mob at `at` (kept by reset); false when it cannot stand there.
    pub fn add_mob(&mut self, at: Vec2) -> bool {
        match self.world.add_mob(at) {
            Ok(i) => {
                self.setup.mobs.push(self.world.mobs[i].home);
                self.selected = Some(i);
                self.notice = None;
                true
            }
            Err(error) => {
                self.notice = Some(format!("No mob added: {error}"));
                false
            }
        }
    }

    /// Removes mob `i`.
    pub fn remove_mob(&mut self, i: usize) {
        if self.world.remove_mob(i).is_some() {
            if i < self.setup.mobs.len() {
                self.setup.mobs.remove(i);
            }
            self.selected = match self.selected {
                Some(s) if s == i => None,
                Some(s) if s > i => Some(s - 1),
                other => other,
            };
        }
    }

    /// Sends the kitten to `goal` (click to move).
    pub fn kitten_go_to(&mut self, goal: Vec2) {
        let map = self.world.map().clone();
        if self.world.kitten.go_to(&map, goal) {
            self.settings.control = KittenControl::Route;
            self.notice = None;
        } else {
            self.notice = Some("The kitten cannot get there.".to_string());
        }
    }

    /// Keys of the scene: Space play/pause, N one step, R reset, Delete removes the selected
    /// mob, WASD or the arrows drive the kitten (switching it to the keys).
    pub fn keyboard(&mut self, ui: &Ui) {
        use egui::Key;
        if ui.ctx().egui_wants_keyboard_input() {
            self.world.kitten.keys = Vec2::default();
            return;
        }
        let (space, n, r, delete, dir) = ui.input(|i| {
            let held = |a: Key, b: Key| i.key_down(a) || i.key_down(b);
            let mut dir = Vec2::default();
            if held(Key::A, Key::ArrowLeft) {
                dir.x -= 1.0;
            }
            if held(Key::D, Key::ArrowRight) {
                dir.x += 1.0;
            }
            if held(Key::W, Key::ArrowUp) {
                dir.y -= 1.0;
            }
            if held(Key::S, Key::ArrowDown) {
                dir.y += 1.0;
            }
            (
                i.key_pressed(Key::Space),
                i.key_pressed(Key::N),
                i.key_pressed(Key::R) && i.modifiers.is_none(),
                i.key_pressed(Key::Delete),
                dir,
            )
        });
        if space {
            self.playing = !self.playing;
        }
        if n {
            self.playing = false;
            self.step();
        }
        if r {
            self.reset();
        }
        if delete && let Some(i) = self.selected {
            self.remove_mob(i);
        }
        if dir.length() > 0.0 {
            self.settings.control = KittenControl::Keys;
        }
        self.world.kitten.keys = dir;
        self.world.kitten.control = self.settings.control;
    }

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
                super::ink::on_panel(ui.visuals(), super::ink::WARNING),
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
                        super::ink::on_panel(ui.visuals(), state_color(mob.state)),
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

    /// What the caption says: the latest event, or how to start.
    pub fn caption(&self) -> String {
        match self.log.last() {
            Some(event) => event.explain(),
            None if self.world.mobs.is_empty() => {
                "Click to add a mob, then press Space to play".to_string()
            }
            None => "Press Space to play; right-click to send the kitten somewhere".to_string(),
        }
    }

    /// Paints `cells` with `tile` in the simulation and in the editor's map (one undo step per
    /// stroke); a blocking tile is refused where someone stands.
    fn paint_cells(&mut self, grid: &mut GridScene, cells: impl Iterator<Item = Cell>, tile: Tile) {
        for c in cells {
            if self.world.set_tile(c, tile) {
                grid.paint_tile(c, tile);
                self.stroke_open = true;
                self.map_revision = Some(grid.revision);
            } else {
                self.notice = Some(format!(
                    "Not painted at {},{}: someone stands there.",
                    c.0, c.1
                ));
            }
        }
    }

    /// The map canvas with the agents, the trail and the rays. Paints through `grid` so edits
    /// join the editor's undo history.
    pub fn canvas_ui(&mut self, ui: &mut Ui, grid: &mut GridScene) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Pursuit canvas"));
        let rect = response.rect;
        self.canvas_rect = Some(rect);
        let map_size = (self.world.map().width(), self.world.map().height());
        let bounds = Bounds {
            min: Vec2::new(0.0, 0.0),
            max: Vec2::new(map_size.0 as f64, map_size.1 as f64),
        };
        let camera = self.camera.for_canvas(bounds, rect);
        let view = View { camera, rect };
        painter.rect_filled(rect, 0.0, Color32::from_rgb(24, 26, 31));
        let world_at = |pos: Pos2| view.world_from_screen(pos);
        let cell_at = move |pos: Pos2| -> Option<Cell> {
            let w = view.world_from_screen(pos);
            (w.x >= 0.0 && w.y >= 0.0)
                .then_some((w.x as usize, w.y as usize))
                .filter(|&(x, y)| x < map_size.0 && y < map_size.1)
        };
        let pointer = response.interact_pointer_pos();
        if response.secondary_clicked()
            && let Some(p) = pointer
        {
            self.kitten_go_to(world_at(p));
        }
        let primary_down = ui.input(|i| i.pointer.primary_down());
        match self.tool {
            PursuitTool::Paint(tile) => {
                // Press, moves and release can reach egui in one frame: no press is seen held.
                let in_one_frame: Option<Vec<Cell>> = stroke_within_frame(ui, &response)
                    .map(|points| points.into_iter().filter_map(cell_at).collect());
                if let Some(cells) = in_one_frame {
                    let mut last = None;
                    for cell in cells {
                        let line = stroke_cells(last.map(StrokeFrom::Painted), cell);
                        self.paint_cells(grid, line, tile);
                        last = Some(cell);
                    }
                } else if response.is_pointer_button_down_on()
                    && primary_down
                    && let Some(cell) = pointer.and_then(cell_at)
                {
                    let pressed = ui.input(|i| i.pointer.press_origin()).and_then(cell_at);
                    let line = stroke_cells(StrokeFrom::new(self.stroke_last, pressed), cell);
                    self.paint_cells(grid, line, tile);
                    self.stroke_last = Some(cell);
                }
                if !primary_down {
                    self.stroke_last = None;
                }
                if !primary_down && std::mem::take(&mut self.stroke_open) {
                    grid.end_stroke();
                    self.map_revision = Some(grid.revision);
                }
            }
            PursuitTool::AddMob => {
                if response.clicked()
                    && let Some(p) = pointer
                {
                    self.add_mob(world_at(p));
                }
            }
            PursuitTool::RemoveMob => {
                if response.clicked()
                    && let Some(p) = pointer
                {
                    let at = world_at(p);
                    let nearest = self
                        .world
                        .mobs
                        .iter()
                        .enumerate()
                        .map(|(i, m)| (i, m.body.position.distance(at)))
                        .filter(|&(_, d)| d < 1.0)
                        .min_by(|a, b| a.1.total_cmp(&b.1));
                    if let Some((i, _)) = nearest {
                        self.remove_mob(i);
                    }
                }
            }
            PursuitTool::KittenGoTo => {
                if response.clicked()
                    && let Some(p) = pointer
                {
                    self.kitten_go_to(world_at(p));
                }
            }
        }
        if response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Secondary)
        {
            self.camera.pan(response.drag_delta());
        }
        self.camera.zoom_with_wheel(ui, &response);
        self.paint(&painter, view);
        super::camera::paint_caption(&painter, rect, self.caption());
        if let Some(pos) = response.hover_pos() {
            let at = world_at(pos);
            let _ = response.on_hover_ui_at_pointer(|ui| self.hover_ui(ui, at));
        }
    }

    /// What is under the pointer: the tile, and the kitten or a mob if one is there.
    fn hover_ui(&self, ui: &mut Ui, at: Vec2) {
        let (x, y) = (at.x.floor() as i64, at.y.floor() as i64);
        if let Some(tile) = self.world.map().get_signed(x, y) {
            let what = match tile {
                Tile::Wall => "blocks movement and sight",
                Tile::Hole => "blocks movement, not sight",
                Tile::Sand | Tile::Water => "slows agents",
                Tile::Grass => "open ground",
            };
            ui.label(format!("tile {x},{y}: {} ({what})", tile.name()));
        }
        if self.world.kitten.body.position.distance(at) < 0.6 {
            let k = &self.world.kitten;
            ui.label(format!(
                "kitten: {:.2} tiles/s, trail {} points",
                k.body.velocity.length(),
                self.world.trail.len()
            ));
        }
        for (i, mob) in self.world.mobs.iter().enumerate() {
            if mob.body.position.distance(at) < 0.6 {
                ui.label(format!(
                    "mob {}: {}, {:.2} tiles/s, caught {}",
                    i + 1,
                    mob.state.name(),
                    mob.body.velocity.length(),
                    crate::words::count(mob.catches as usize, "time")
                ));
            }
        }
    }

    fn paint(&self, painter: &egui::Painter, view: View) {
        let world = &self.world;
        let map = world.map();
        // Bresenham tiles of the rays of the selected mob (or of all when there are few).
        let mut ray_tiles: std::collections::HashMap<Cell, Color32> = Default::default();
        let kitten = world.kitten.body.position;
        let few = world.mobs.len() <= 4;
        if self.settings.show_rays {
            for (i, mob) in world.mobs.iter().enumerate() {
                if !(few || self.selected == Some(i)) {
                    continue;
                }
                let from = cell_of(mob.body.position);
                let to = cell_of(kitten);
                let blocked = first_blocking(map, from, to);
                for (x, y) in Line::new(from, to) {
                    if x < 0 || y < 0 {
                        break;
                    }
                    let cell = (x as usize, y as usize);
                    if Some((x, y)) == blocked {
                        ray_tiles.insert(cell, Color32::from_rgb(240, 40, 40));
                        break;
                    }
                    ray_tiles.entry(cell).or_insert(if blocked.is_some() {
                        Color32::from_rgb(230, 120, 120)
                    } else {
                        Color32::from_rgb(140, 230, 140)
                    });
                }
            }
        }
        // What the tiles show: the map (every change to it bumps the revision) and the rays.
        let mut rays: Vec<(Cell, [u8; 4])> = ray_tiles
            .iter()
            .map(|(&cell, color)| (cell, color.to_array()))
            .collect();
        rays.sort_unstable();
        let content = content_key((self.map_revision, rays));
        paint_tiles(
            painter,
            view,
            map,
            tiles_texture_id(),
            Some(content),
            |cell| ray_tiles.get(&cell).copied(),
        );
        let scale = view.camera.scale as f32;
        let screen = |p: Vec2| view.screen_from_world(p);

        // The trail, fading with age.
        let now = world.time();
        let decay = world.trail.decay.max(1e-6);
        let dot = (scale * 0.12).clamp(1.5, 5.0);
        for point in world.trail.points() {
            let fresh = (1.0 - (now - point.born) / decay).clamp(0.0, 1.0) as f32;
            let alpha = (40.0 + 215.0 * fresh) as u8;
            painter.circle_filled(
                screen(point.position),
                dot,
                Color32::from_rgba_unmultiplied(255, 120, 200, alpha),
            );
        }
        // The kitten's path.
        let k = &world.kitten;
        if k.path_index < k.path.len() {
            let mut points = vec![screen(kitten)];
            points.extend(k.path[k.path_index..].iter().map(|&p| screen(p)));
            painter.add(egui::Shape::dashed_line(
                &points,
                Stroke::new(1.5, Color32::from_rgb(255, 200, 120)),
                6.0,
                4.0,
            ));
        }
        // Rays and whiskers.
        if self.settings.show_rays {
            for (i, mob) in world.mobs.iter().enumerate() {
                let strong = self.selected == Some(i) || few;
                let width = if strong { 2.0 } else { 1.0 };
                let from = mob.body.position;
                let clear = ray_is_clear(map, mob, kitten);
                let color = if clear {
                    Color32::from_rgb(90, 230, 90)
                } else {
                    Color32::from_rgba_unmultiplied(240, 70, 70, if strong { 220 } else { 90 })
                };
                painter.line_segment([screen(from), screen(kitten)], Stroke::new(width, color));
                if let (Sight::Trail(_), Some(target)) = (mob.sight, mob.target) {
                    painter.line_segment(
                        [screen(from), screen(target)],
                        Stroke::new(width, Color32::from_rgb(250, 200, 60)),
                    );
                    painter.circle_stroke(
                        screen(target),
                        (scale * 0.3).clamp(4.0, 12.0),
                        Stroke::new(2.0, Color32::from_rgb(250, 200, 60)),
                    );
                }
                for whisker in &mob.whiskers {
                    let end = whisker.hit.map_or(whisker.to, |h| {
                        whisker.from.lerp(
                            whisker.to,
                            h.distance / whisker.from.distance(whisker.to).max(1e-9),
                        )
                    });
                    let c = if whisker.hit.is_some() {
                        Color32::from_rgb(255, 150, 60)
                    } else {
                        Color32::from_gray(170)
                    };
                    painter.line_segment([screen(whisker.from), screen(end)], Stroke::new(1.0, c));
                }
            }
        }
        // Agents.
        let radius = (scale * BODY_HALF as f32).max(4.0);
        for (i, mob) in world.mobs.iter().enumerate() {
            let at = screen(mob.body.position);
            painter.circle_filled(at, radius, Color32::from_rgb(150, 60, 190));
            painter.circle_stroke(at, radius + 1.5, Stroke::new(2.5, state_color(mob.state)));
            if self.selected == Some(i) {
                painter.circle_stroke(at, radius + 5.0, Stroke::new(1.0, Color32::WHITE));
            }
            painter.text(
                at,
                egui::Align2::CENTER_CENTER,
                format!("{}", i + 1),
                egui::FontId::proportional(radius * 1.1),
                Color32::WHITE,
            );
        }
        let at = screen(kitten);
        painter.circle_filled(at, radius, Color32::from_rgb(255, 170, 60));
        painter.text(
            at,
            egui::Align2::CENTER_CENTER,
            "K",
            egui::FontId::proportional(radius * 1.1),
            Color32::BLACK,
        );
    }
}

/// Names the texture the pursuit canvas draws a zoomed-out map with.
pub fn tiles_texture_id() -> egui::Id {
    egui::Id::unique("pursuit tiles")
}

/// The colour of a state: red chasing, amber tracking, grey lost.
pub fn state_color(state: MobState) -> Color32 {
    match state {
        MobState::Chasing => Color32::from_rgb(235, 60, 60),
        MobState::Tracking => Color32::from_rgb(245, 190, 50),
        MobState::Lost => Color32::from_gray(140),
    }
}

/// Whether `mob`'s ray to the kitten (at `kitten`) is drawn clear: what its rays found at its
/// last look; before its first (a run not started, a mob just added) what they would find, as
/// its ray's tiles show.
fn ray_is_clear(map: &TileMap, mob: &crate::pursuit::Mob, kitten: Vec2) -> bool {
    if mob.timeline.is_empty() {
        first_blocking(map, cell_of(mob.body.position), cell_of(kitten)).is_none()
    } else {
        mob.sight == Sight::Kitten
    }
}

/// Kitten near the middle, one mob near the bottom-left corner and one near the top-right
/// (the free tiles nearest to those spots).
fn default_setup(map: &TileMap) -> Setup {
    let free_near = |x: f64, y: f64| -> Vec2 {
        let target = Vec2::new(x, y);
        (0..map.cell_count())
            .map(|i| map.cell(i))
            .filter(|&c| map.is_passable(c))
            .map(|(cx, cy)| Vec2::new(cx as f64 + 0.5, cy as f64 + 0.5))
            .min_by(|a, b| a.distance(target).total_cmp(&b.distance(target)))
            .unwrap_or(target)
    };
    let (w, h) = (map.width() as f64, map.height() as f64);
    let kitten = free_near(w * 0.55, h * 0.62);
    // On a tiny map a mob would start on the kitten: leave those out.
    let mobs = [free_near(2.5, h - 2.5), free_near(w - 2.5, 1.5)]
        .into_iter()
        .filter(|m| m.distance(kitten) > 3.0)
        .collect();
    Setup { kitten, mobs }
}

/// A world from the settings and starting places (places that no longer fit are skipped). On a
/// map without a single free tile the kitten needs somewhere to stand: the world then starts on
/// grass of the same size and takes the real map over at the next sync, keeping no one buried.
fn build_world(map: TileMap, settings: &PursuitSettings, setup: &Setup) -> World {
    let config = settings.config.clone();
    let world = World::new(map.clone(), config.clone(), setup.kitten)
        .or_else(|_| World::new(map.clone(), config.clone(), default_setup(&map).kitten))
        .or_else(|_| {
            let grass = TileMap::new(map.width(), map.height())
                .ok_or(crate::pursuit::PlaceError::OffMap(Vec2::new(0.5, 0.5)))?;
            World::new(grass, config, Vec2::new(0.5, 0.5))
        });
    let mut world = world.expect("the centre of a grass tile is always free");
    for &at in &setup.mobs {
        let _ = world.add_mob(at);
    }
    world.kitten.control = settings.control;
    world
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_come_back_only_on_their_map_and_only_where_they_still_fit() {
        let mut map = TileMap::new(8, 6).expect("size");
        let file = Path::new("level.map");
        let kept = Placements {
            map: Some(file.to_path_buf()),
            size: [8, 6],
            kitten: [4.5, 3.5],
            mobs: vec![[1.5, 1.5], [6.5, 4.5]],
        };
        let setup = kept.setup_on(&map, Some(file)).expect("its map");
        assert_eq!(setup.kitten, Vec2::new(4.5, 3.5));
        assert_eq!(setup.mobs, [Vec2::new(1.5, 1.5), Vec2::new(6.5, 4.5)]);
        // Another file, no file, another size: not theirs.
        assert_eq!(kept.setup_on(&map, Some(Path::new("other.map"))), None);
        assert_eq!(kept.setup_on(&map, None), None);
        let wider = TileMap::new(9, 6).expect("size");
        assert_eq!(kept.setup_on(&wider, Some(file)), None);
        // Walls drawn since over a mob and the kitten: the mob is left out, the kitten starts
        // where it would on a new map.
        map.set((1, 1), Tile::Wall);
        map.set((4, 3), Tile::Wall);
        let setup = kept.setup_on(&map, Some(file)).expect("its map");
        assert_eq!(setup.mobs, [Vec2::new(6.5, 4.5)]);
        assert_eq!(setup.kitten, default_setup(&map).kitten);
        assert!(crate::pursuit::placement(&map, setup.kitten).is_ok());
    }

    /// Before the first step every mob's ray is drawn as the map has it (it has not looked
    /// yet); after it, as the mob saw it.
    #[test]
    fn a_ray_is_drawn_clear_by_the_map_until_the_mob_looks_then_by_its_look() {
        let mut map = TileMap::new(12, 5).expect("size");
        map.set((6, 1), Tile::Wall);
        let mut world =
            World::new(map, PursuitConfig::default(), Vec2::new(10.5, 2.5)).expect("kitten placed");
        let seeing = world.add_mob(Vec2::new(1.5, 2.5)).expect("placed");
        let behind = world.add_mob(Vec2::new(1.5, 0.5)).expect("placed");
        let kitten = world.kitten.body.position;
        let clear = |world: &World, i: usize| ray_is_clear(world.map(), &world.mobs[i], kitten);
        assert!(world.mobs.iter().all(|m| m.timeline.is_empty()));
        assert!(clear(&world, seeing));
        assert!(!clear(&world, behind), "the wall at 6,1 is on its ray");
        world.step(&mut crate::search::NoObserver);
        for i in [seeing, behind] {
            assert_eq!(clear(&world, i), world.mobs[i].sight == Sight::Kitten);
        }
        assert!(clear(&world, seeing));
    }

    #[test]
    fn a_shell_word_is_quoted_only_when_a_shell_would_split_or_expand_it() {
        assert_eq!(shell_word("maps/arena-2.map"), "maps/arena-2.map");
        assert_eq!(shell_word("my maps/a.map"), "'my maps/a.map'");
        assert_eq!(shell_word("$HOME/a.map"), "'$HOME/a.map'");
        assert_eq!(shell_word("kitten's.map"), "'kitten'\\''s.map'");
        assert_eq!(shell_word(""), "''");
    }
}
