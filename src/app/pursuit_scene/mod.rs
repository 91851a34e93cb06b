//! The pursuit scene: the tile editor's map with the kitten, its smell trail and the mobs that
//! hunt it, the rays they cast, and play / pause / step / speed / reset-to-seed controls. The
//! map is the window's [`MapDocument`]: painting here is an edit of it, undone in either view.

mod canvas;
mod controls;
mod log;

use super::camera::{CanvasCamera, View};
use super::commands::UiCommand;
use super::keys::KeyRow;
use super::scene::{Scene, SceneSetup, Shared};
use super::screenshot::Steps;
use crate::geom::Vec2;
use crate::grid::{Cell, MapDocument, Tile, TileMap};
use crate::pursuit::{DT, KittenControl, PursuitConfig, PursuitEvent, World};
use crate::search::Observer;
pub use canvas::{state_color, tiles_texture_id};
use egui::{Key, Rect, Ui};
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
    /// The canvas's legend of the agents, rays and trail.
    pub legend: bool,
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

impl PursuitSettings {
    /// The settings with every number within its control's range (see
    /// [`PursuitConfig::clamped`]).
    pub fn clamped(&self) -> Self {
        Self {
            config: self.config.clamped(),
            speed: if self.speed.is_nan() {
                1.0
            } else {
                self.speed.clamp(0.1, 8.0)
            },
            ..self.clone()
        }
    }
}

impl Default for PursuitSettings {
    fn default() -> Self {
        Self {
            config: PursuitConfig::default(),
            control: KittenControl::Wander,
            speed: 1.0,
            show_rays: true,
            legend: true,
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
    /// The event whose line of the rules is lit, and the log's length then (the newest
    /// event is lit once the log has grown).
    lit_event: Option<(usize, usize)>,
    /// The mob whose rays are emphasised and whose details are shown.
    pub selected: Option<usize>,
    /// The view: fitted to the map until the user pans or zooms.
    pub camera: CanvasCamera,
    /// Where the canvas was drawn last.
    pub canvas_rect: Option<Rect>,
    /// Where the legend was drawn at the last frame (`None` when hidden).
    pub legend_rect: Option<Rect>,
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
    pub fn new(map: TileMap, settings: PursuitSettings) -> Self {
        let mut settings = settings.clamped();
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
            lit_event: None,
            selected: Some(0),
            camera: CanvasCamera::default(),
            canvas_rect: None,
            legend_rect: None,
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
    pub fn sync_map(&mut self, grid: &MapDocument) {
        if self.map_revision == Some(grid.revision()) {
            return;
        }
        self.map_revision = Some(grid.revision());
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
    pub fn kept_settings(&self, grid: &MapDocument) -> PursuitSettings {
        let placements = self.restore.clone().or_else(|| {
            let point = |p: Vec2| [p.x, p.y];
            // A file given to the map since it was copied (Save as) is still the same map.
            let map = if self.map_revision == Some(grid.revision()) {
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
        self.lit_event = None;
        self.accumulator = 0.0;
        self.selected = (!self.world.mobs.is_empty()).then_some(0);
    }

    /// Where the kitten and each mob start (what Reset goes back to), in tiles.
    pub fn starting_places(&self) -> (Vec2, &[Vec2]) {
        (self.setup.kitten, &self.setup.mobs)
    }

    /// Starts over on the editor's map with `settings` and these starting places (a place
    /// off the map or in a wall is left out; the kitten then starts where it would on a new
    /// map), paused at the start with mob `selected` chosen: what a lesson opens.
    pub fn start_over(
        &mut self,
        grid: &MapDocument,
        settings: PursuitSettings,
        kitten: Vec2,
        mobs: &[Vec2],
        selected: Option<usize>,
    ) {
        let map = &grid.map;
        let fits = |p: Vec2| crate::pursuit::placement(map, p).is_ok().then_some(p);
        self.setup = Setup {
            kitten: fits(kitten).unwrap_or_else(|| default_setup(map).kitten),
            mobs: mobs.iter().copied().filter_map(fits).collect(),
        };
        self.settings = PursuitSettings {
            placements: None,
            ..settings.clamped()
        };
        self.map_revision = Some(grid.revision());
        self.map_file = grid.file.clone();
        self.restore = None;
        self.reset_with(map.clone());
        self.playing = false;
        self.selected = selected.filter(|&i| i < self.world.mobs.len());
        self.camera.fit_next_frame();
    }

    /// True when the hunt run again from its starting places, with its options now, comes
    /// to what is shown: not so when the kitten was driven by hand or sent somewhere, or mobs
    /// were added or options changed while it ran.
    pub fn replays_from_start(&self) -> bool {
        let mut again = build_world(self.world.map().clone(), &self.settings, &self.setup);
        while again.ticks() < self.world.ticks() {
            again.step(&mut crate::search::NoObserver);
        }
        let bodies = |w: &World| {
            std::iter::once(w.kitten.body)
                .chain(w.mobs.iter().map(|m| m.body))
                .collect::<Vec<_>>()
        };
        bodies(&again) == bodies(&self.world) && again.trail.len() == self.world.trail.len()
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

    /// The event whose line of the pursuit's rules is lit: the one a click on a line ran to,
    /// else the newest.
    pub fn lit_event(&self) -> Option<&PursuitEvent> {
        match self.lit_event {
            Some((k, len)) if len == self.log.len() => self.log.get(k),
            _ => self.log.last(),
        }
    }

    /// Runs the simulation, paused, until a mob next does what `line` of the pursuit's rules
    /// says (at most a simulated minute).
    pub fn run_to_line(&mut self, line: usize) {
        self.playing = false;
        let before = self.log.len();
        for _ in 0..60 * crate::pursuit::TICKS_PER_SECOND as usize {
            self.step();
            if let Some(k) = self.log[before..]
                .iter()
                .position(|e| e.pursuit_line().line == line)
            {
                // That event lights its line (until the log grows).
                self.lit_event = Some((before + k, self.log.len()));
                return;
            }
        }
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

    /// Keys of the scene (the scene's key table): Space play/pause, N one step, R reset, Delete removes the
    /// selected mob, WASD or the arrows drive the kitten (switching it to the keys).
    pub fn keyboard(&mut self, ui: &Ui) {
        for key in crate::app::keys::pressed(ui, KEYS) {
            match key {
                HuntKey::Play => self.playing = !self.playing,
                HuntKey::Step => {
                    self.playing = false;
                    self.step();
                }
                HuntKey::Reset => self.reset(),
                HuntKey::RemoveMob => {
                    if let Some(i) = self.selected {
                        self.remove_mob(i);
                    }
                }
                _ => {}
            }
        }
        let held = crate::app::keys::held(ui, KEYS);
        let axis = |minus: HuntKey, plus: HuntKey| {
            f64::from(u8::from(held.contains(&plus))) - f64::from(u8::from(held.contains(&minus)))
        };
        let dir = Vec2::new(
            axis(HuntKey::Left, HuntKey::Right),
            axis(HuntKey::Up, HuntKey::Down),
        );
        if dir.length() > 0.0 {
            self.settings.control = KittenControl::Keys;
        }
        self.world.kitten.keys = dir;
        self.world.kitten.control = self.settings.control;
    }
}

impl SceneSetup for PursuitScene {
    type Settings = PursuitSettings;

    fn with_settings(settings: &PursuitSettings, map: &MapDocument) -> Self {
        Self::new(map.map.clone(), settings.clone())
    }

    fn settings(&self, map: &MapDocument) -> PursuitSettings {
        self.kept_settings(map)
    }
}

/// What a key of the pursuit asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HuntKey {
    /// Play or pause.
    Play,
    /// One step.
    Step,
    /// Back to the start, re-seeded.
    Reset,
    /// Remove the selected mob.
    RemoveMob,
    /// Drive the kitten left (held).
    Left,
    /// Right (held).
    Right,
    /// Up (held).
    Up,
    /// Down (held).
    Down,
}

/// The pursuit's mouse actions and keys: what the handler and the help read.
const KEYS: &[KeyRow<HuntKey>] = &[
    KeyRow::mouse(
        "Left click",
        "add a mob, remove one, send the kitten or paint (the tool chosen)",
    ),
    KeyRow::mouse("Right click", "send the kitten there"),
    KeyRow::mouse("Right or middle drag", "pan"),
    KeyRow::mouse("Wheel / pinch", "zoom at the cursor"),
    KeyRow {
        shown: "Space / N / R",
        does: "play or pause / one step / back to the start, re-seeded",
        keys: &[
            (Key::Space, HuntKey::Play),
            (Key::N, HuntKey::Step),
            (Key::R, HuntKey::Reset),
        ],
    },
    KeyRow {
        shown: "WASD or arrows",
        does: "drive the kitten",
        keys: &[
            (Key::A, HuntKey::Left),
            (Key::ArrowLeft, HuntKey::Left),
            (Key::D, HuntKey::Right),
            (Key::ArrowRight, HuntKey::Right),
            (Key::W, HuntKey::Up),
            (Key::ArrowUp, HuntKey::Up),
            (Key::S, HuntKey::Down),
            (Key::ArrowDown, HuntKey::Down),
        ],
    },
    KeyRow {
        shown: "Delete",
        does: "remove the selected mob",
        keys: &[(Key::Delete, HuntKey::RemoveMob)],
    },
];

impl Scene for PursuitScene {
    fn name(&self) -> &'static str {
        "Pursuit"
    }

    fn about(&self) -> &'static str {
        "A mob hunts the kitten on the tile map by sight and smell trail"
    }

    fn document(&self, map: &MapDocument) -> (String, Option<&'static str>) {
        (map.name(), map.dirty.then_some("unsaved"))
    }

    fn commands(&self) -> &'static [UiCommand] {
        &[
            UiCommand::NewMap,
            UiCommand::OpenMap,
            UiCommand::SaveMap,
            UiCommand::SaveMapAs,
            UiCommand::ReloadMap,
            UiCommand::BuildMesh,
            UiCommand::Undo,
            UiCommand::Redo,
        ]
    }

    fn tick(&mut self, ui: &Ui, shared: &mut Shared, dt: f64) -> bool {
        self.sync_map(shared.map);
        self.keyboard(ui);
        PursuitScene::tick(self, dt);
        self.playing
    }

    fn panels_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        egui::Panel::right("pursuit_log")
            .resizable(true)
            .default_size(super::scene::side_panel_width(ui, 320.0))
            .show(ui, |ui| {
                let lit = self.lit_event().map(|e| e.pursuit_line());
                let mut clicked = None;
                super::playback::pseudocode_area(ui, |ui| {
                    clicked = egui::CollapsingHeader::new("Pseudocode")
                        .default_open(true)
                        .show(ui, |ui| {
                            super::pseudocode_panel::pseudocode_ui(
                                ui,
                                crate::search::pseudocode::Listing::Pursuit,
                                lit.as_ref(),
                            )
                        })
                        .body_returned
                        .flatten();
                });
                if let Some(line) = clicked {
                    self.run_to_line(line);
                }
                ui.heading("What happened");
                let map_file = match (&shared.map.file, shared.map.dirty) {
                    (Some(file), false) => Ok(file.as_path()),
                    (Some(_), true) => Err(
                        "The map has unsaved edits: save it first (Ctrl+S in the Tile map view), so the command reads what you see",
                    ),
                    (None, _) => Err(
                        "The map is not in a file: save it first (Save as… in the Tile map view), so the command can read it",
                    ),
                };
                self.log_ui(ui, map_file);
            });
        egui::Panel::left("pursuit_controls")
            .resizable(true)
            .default_size(super::scene::side_panel_width(ui, 290.0))
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.controls_ui(ui));
            });
    }

    fn canvas_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        PursuitScene::canvas_ui(self, ui, shared.map);
    }

    fn status_ui(&self, ui: &mut Ui, _map: &MapDocument) {
        let w = &self.world;
        ui.monospace(format!("t {:8.2} s", w.time()));
        ui.separator();
        ui.label(format!(
            "{} × {} tiles · trail {} points · {} mobs · {}",
            w.map().width(),
            w.map().height(),
            w.trail.len(),
            w.mobs.len(),
            if self.playing { "running" } else { "paused" }
        ));
    }

    fn picture_name(&self, _map: &MapDocument) -> String {
        format!("pursuit-tick-{}.png", self.world.ticks())
    }

    fn canvas_area(&self) -> Option<egui::Rect> {
        self.canvas_rect
    }

    fn legend_rows(&self) -> Vec<crate::app::legend::LegendRow> {
        self.legend()
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        crate::app::keys::help(KEYS).collect()
    }

    fn fit_view(&mut self) {
        self.camera.fit_next_frame();
    }
}

/// The pursuit scene's steps are simulation steps (60 per second), run up to the one asked for
/// (at most ten minutes).
impl Steps for PursuitScene {
    fn step_counts(&self) -> (usize, usize) {
        let ticks = self.world.ticks() as usize;
        (ticks, 600 * crate::pursuit::TICKS_PER_SECOND as usize)
    }

    fn show_step(&mut self, k: usize) {
        self.playing = false;
        while (self.world.ticks() as usize) < k {
            self.step();
        }
    }

    fn shown_step(&self) -> usize {
        self.world.ticks() as usize
    }
}

/// Kitten near the middle, one mob near the bottom-left corner and one near the top-right:
/// each on the free tile nearest its corner that sees the kitten when one is within a quarter
/// of the map's diagonal of the corner (so that on an open map with pillars a chase starts at
/// once), else on the free tile nearest the corner (it starts lost, as in the article).
fn default_setup(map: &TileMap) -> Setup {
    use crate::grid::bresenham::has_line_of_sight;
    use crate::pursuit::mob::cell_of;
    let centre = |(cx, cy): (usize, usize)| Vec2::new(cx as f64 + 0.5, cy as f64 + 0.5);
    let free_near = |target: Vec2, keep: &dyn Fn(Vec2) -> bool| -> Option<Vec2> {
        (0..map.cell_count())
            .map(|i| map.cell(i))
            .filter(|&c| map.is_passable(c))
            .map(centre)
            .filter(|&p| keep(p))
            .min_by(|a, b| a.distance(target).total_cmp(&b.distance(target)))
    };
    let (w, h) = (map.width() as f64, map.height() as f64);
    let anywhere = |_: Vec2| true;
    let kitten_spot = Vec2::new(w * 0.55, h * 0.62);
    let kitten = free_near(kitten_spot, &anywhere).unwrap_or(kitten_spot);
    // Seen from the kitten's tile along the rays to every tile of the map's edge: the
    // tiles a mob could start on in sight of it (each checked as a mob looks).
    let seen = seen_from(map, cell_of(kitten));
    let sees = |p: Vec2| {
        seen.contains(&(p.x as usize, p.y as usize))
            && has_line_of_sight(map, cell_of(p), cell_of(kitten))
    };
    // On a tiny map a mob would start on the kitten: leave those out.
    let apart = |p: Vec2| p.distance(kitten) > 3.0;
    let near = 0.25 * w.hypot(h);
    let mobs = [Vec2::new(2.5, h - 2.5), Vec2::new(w - 2.5, 1.5)]
        .into_iter()
        .filter_map(|corner| {
            free_near(corner, &|p| {
                apart(p) && p.distance(corner) <= near && sees(p)
            })
            .or_else(|| free_near(corner, &apart))
        })
        .collect();
    Setup { kitten, mobs }
}

/// The free tiles on the straight lines from `from` to every tile of the map's edge, up to
/// the first blocking tile of each.
fn seen_from(map: &TileMap, from: (i64, i64)) -> std::collections::HashSet<(usize, usize)> {
    let (w, h) = (map.width() as i64, map.height() as i64);
    let edge = (0..w)
        .flat_map(|x| [(x, 0), (x, h - 1)])
        .chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]));
    let mut seen = std::collections::HashSet::new();
    for to in edge {
        for (x, y) in crate::grid::bresenham::line(from, to) {
            let cell = (x as usize, y as usize);
            if x < 0 || y < 0 || !map.is_passable(cell) {
                break;
            }
            seen.insert(cell);
        }
    }
    seen
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
}
