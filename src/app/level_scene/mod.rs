//! The level scene: a level's geometry built into a navmesh by Recast's stages, each stage shown
//! from above on the playback bar (with its sentence, numbers, legend and pseudocode), a
//! cross-section dragged across the level, and "why is there no navmesh here?" answered where
//! the user clicks, with the change that keeps the ground one button away.

mod canvas;
mod controls;
mod links;
mod section;

pub use links::{FoundLinks, MAX_FACES_FOR_LINKS};

use super::camera::CanvasCamera;
use super::commands::UiCommand;
use super::keys::KeyRow;
use super::latest_worker::LatestWorker;
use super::playback::Playback;
use super::scene::{Scene, SceneSetup, Shared};
use super::screenshot::Steps;
use crate::geom::Vec2;
use crate::grid::MapDocument;
use crate::level::{BuildRecord, BuildSettings, MarkedVolume, Stage, StageCounts, Why};
use crate::navmesh::Bounds;
use egui::{Key, Ui};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// A level's geometry: vertices (Y up) and faces, with what drawing it needs worked out once.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelGeometry {
    /// Its name, for titles.
    pub name: String,
    /// Its file, when it came from one.
    pub path: Option<PathBuf>,
    /// Vertices (x, y, z).
    pub positions: Vec<[f64; 3]>,
    /// Faces, as vertex indices.
    pub faces: Vec<Vec<usize>>,
    /// Its extent in the plan (x, z).
    bounds: Bounds,
    /// The lowest and highest y.
    heights: [f64; 2],
    /// The faces fanned into triangles, in the order the build reads them.
    triangles: Vec<[[f64; 3]; 3]>,
    /// The triangles that face up, lowest first (by their mean height): the order they are
    /// drawn in from above.
    by_height: Vec<usize>,
}

impl LevelGeometry {
    /// The level of `positions` and `faces`, called `name`, from `path` if a file.
    pub fn new(
        name: String,
        path: Option<PathBuf>,
        positions: Vec<[f64; 3]>,
        faces: Vec<Vec<usize>>,
    ) -> Self {
        let mut min = Vec2::new(f64::INFINITY, f64::INFINITY);
        let mut max = Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for p in &positions {
            min = Vec2::new(min.x.min(p[0]), min.y.min(p[2]));
            max = Vec2::new(max.x.max(p[0]), max.y.max(p[2]));
            (low, high) = (low.min(p[1]), high.max(p[1]));
        }
        let bounds = if min.x > max.x {
            Bounds {
                min: Vec2::new(0.0, 0.0),
                max: Vec2::new(1.0, 1.0),
            }
        } else {
            Bounds { min, max }
        };
        // Fanned as the build fans them: a face's first corner with each pair of the others.
        let corner = |i: usize| positions.get(i).copied();
        let mut triangles = Vec::new();
        for face in &faces {
            let Some((&first, rest)) = face.split_first() else {
                continue;
            };
            for pair in rest.windows(2) {
                if let (Some(a), Some(b), Some(c)) =
                    (corner(first), corner(pair[0]), corner(pair[1]))
                {
                    triangles.push([a, b, c]);
                }
            }
        }
        let mean = |t: &[[f64; 3]; 3]| t.iter().map(|v| v[1]).sum::<f64>();
        let mut by_height: Vec<usize> = (0..triangles.len())
            .filter(|&k| faces_up(&triangles[k]))
            .collect();
        by_height.sort_by(|&p, &q| mean(&triangles[p]).total_cmp(&mean(&triangles[q])));
        Self {
            name,
            path,
            positions,
            faces,
            bounds,
            heights: if low > high { [0.0, 1.0] } else { [low, high] },
            triangles,
            by_height,
        }
    }

    /// The built-in level's name as the view shows it.
    pub fn built_in_name() -> String {
        format!("{} (built in)", crate::assets::PROVING_GROUND.name)
    }

    /// The built-in level.
    pub fn built_in() -> Self {
        let raw = crate::assets::PROVING_GROUND.read().unwrap_or_default();
        Self::new(Self::built_in_name(), None, raw.positions, raw.polygons)
    }

    /// Its extent in the plan (x, z).
    pub fn bounds(&self) -> Bounds {
        self.bounds
    }

    /// The lowest and highest y.
    pub fn height_range(&self) -> [f64; 2] {
        self.heights
    }

    /// The faces fanned into triangles, in the order the build reads them.
    pub fn triangles(&self) -> &[[[f64; 3]; 3]] {
        &self.triangles
    }

    /// The triangles that face up, lowest first.
    pub fn by_height(&self) -> &[usize] {
        &self.by_height
    }
}

/// Whether a face (its corners in the order Recast reads them) faces up.
pub(super) fn faces_up([a, b, c]: &[[f64; 3]; 3]) -> bool {
    (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]) > 0.0
}

/// The options kept between runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LevelSettings {
    /// The build's parameters.
    pub build: BuildSettings,
    /// Playback speed, stages per second.
    pub speed: f64,
    /// Draw the legend on the canvas.
    pub legend: bool,
    /// Look for off-mesh links (jumps and drops) on the navmesh built.
    pub links: bool,
}

impl Default for LevelSettings {
    fn default() -> Self {
        Self {
            build: BuildSettings::default(),
            speed: 2.0,
            legend: true,
            links: true,
        }
    }
}

/// What a click on the canvas does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LevelTool {
    /// Ask why the ground there is or is not on the navmesh.
    #[default]
    Why,
    /// Drag a line to see the level's vertical slice along it.
    Section,
    /// Drag a rectangle to mark the ground in it with an area type.
    Area,
}

/// A point asked about: where, and which surface there (from the bottom; the top one when
/// `None`).
pub type Asked = ([f64; 2], Option<usize>);

/// A build to make (or a question to answer on a build made).
struct BuildJob {
    level: Arc<LevelGeometry>,
    settings: BuildSettings,
    volumes: Arc<Vec<MarkedVolume>>,
    /// Whether to look for off-mesh links on the navmesh built.
    links: bool,
    /// The build already made with these settings, if any.
    made: Option<Arc<Built>>,
    ask: Option<Asked>,
}

/// A build made.
#[derive(Debug)]
pub struct Built {
    /// The settings it was made with.
    pub settings: BuildSettings,
    /// The marked volumes it was made with.
    pub volumes: Arc<Vec<MarkedVolume>>,
    /// Each stage's counts.
    pub counts: StageCounts,
    /// What every stage made.
    pub record: BuildRecord,
    /// Each stage's sentence, in [`Stage::ALL`]'s order (worked out once, not every frame).
    pub sentences: Vec<String>,
    /// The detail triangles that face up, lowest first: the order they are drawn in.
    pub detail_by_height: Vec<usize>,
    /// The off-mesh links looked for on its navmesh (`None` when not looked for).
    pub links: Option<FoundLinks>,
}

impl Built {
    /// `stage`'s sentence.
    pub fn sentence(&self, stage: Stage) -> &str {
        self.sentences.get(stage.index()).map_or("", String::as_str)
    }
}

/// The worker's answer.
struct BuildAnswer {
    built: Result<Arc<Built>, String>,
    why: Option<Why>,
}

impl BuildJob {
    fn run(self) -> BuildAnswer {
        let level = &self.level;
        let built = match self.made {
            Some(made) => Ok(made),
            None => crate::level::build_marked(
                &level.positions,
                &level.faces,
                &self.volumes,
                &self.settings,
            )
            .map(|(build, record)| {
                let sentences = Stage::ALL
                    .iter()
                    .map(|stage| stage.sentence(&record, &self.settings))
                    .collect();
                let top = |t: &[[f64; 3]; 3]| t.iter().map(|v| v[1]).fold(f64::MIN, f64::max);
                let mut detail_by_height: Vec<usize> = (0..record.detail.len())
                    .filter(|&k| faces_up(&record.detail[k]))
                    .collect();
                detail_by_height
                    .sort_by(|&p, &q| top(&record.detail[p]).total_cmp(&top(&record.detail[q])));
                let links = (self.links && level.faces.len() <= MAX_FACES_FOR_LINKS)
                    .then(|| crate::level::raw_navmesh(record.detail_mesh.clone()).ok())
                    .flatten()
                    .map(|mesh| {
                        FoundLinks::find(&mesh, &level.positions, &level.faces, &self.settings)
                    });
                Arc::new(Built {
                    settings: self.settings,
                    volumes: Arc::clone(&self.volumes),
                    counts: build.counts,
                    record,
                    sentences,
                    detail_by_height,
                    links,
                })
            })
            .map_err(|error| error.to_string()),
        };
        let why = match (&built, self.ask) {
            (Ok(built), Some((at, floor))) => Some(crate::level::explain(
                &level.positions,
                &level.faces,
                &self.settings,
                &built.record,
                at,
                floor,
            )),
            _ => None,
        };
        BuildAnswer { built, why }
    }

    /// Builds of levels this large go to the worker thread; smaller ones are made at once.
    fn in_background(&self) -> bool {
        self.level.faces.len() > 20_000
            || (self.made.is_some() && self.ask.is_some() && self.level.faces.len() > 5_000)
    }
}

/// The level scene.
pub struct LevelScene {
    level: Arc<LevelGeometry>,
    settings: LevelSettings,
    built: Option<Arc<Built>>,
    error: Option<String>,
    playback: Playback,
    /// The canvas's camera.
    pub camera: CanvasCamera,
    canvas_rect: Option<egui::Rect>,
    legend_rect: Option<egui::Rect>,
    tool: LevelTool,
    asked: Option<Asked>,
    why: Option<Why>,
    section: Option<[Vec2; 2]>,
    section_from: Option<Vec2>,
    /// Only what is at or below this height is drawn (stacked floors); `None`: everything.
    cut: Option<f64>,
    /// The marked volumes.
    volumes: Arc<Vec<MarkedVolume>>,
    /// The area type the area tool marks with.
    marking: String,
    /// Where a rectangle being marked started.
    area_from: Option<Vec2>,
    worker: LatestWorker<BuildJob, BuildAnswer>,
    generation: u64,
    textures: canvas::StageTextures,
}

/// The level scene's keys and mouse actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LevelKey {
    /// The why tool.
    WhyTool,
    /// The cross-section tool.
    SectionTool,
    /// The area tool.
    AreaTool,
    /// Apply the suggested change.
    Apply,
}

const KEYS: &[KeyRow<LevelKey>] = &[
    KeyRow::mouse(
        "Left click",
        "why is (or is not) there navmesh here? (Why tool)",
    ),
    KeyRow::mouse(
        "Left drag",
        "draw a cross-section (Section tool) or mark an area (Area tool)",
    ),
    KeyRow::mouse("Right or middle drag", "pan"),
    KeyRow::mouse("Wheel / pinch", "zoom at the cursor"),
    KeyRow {
        shown: "W / X / M",
        does: "the Why tool / the cross-section tool / the area tool",
        keys: &[
            (Key::W, LevelKey::WhyTool),
            (Key::X, LevelKey::SectionTool),
            (Key::M, LevelKey::AreaTool),
        ],
    },
    KeyRow {
        shown: "A",
        does: "apply the suggested change and build again",
        keys: &[(Key::A, LevelKey::Apply)],
    },
];

impl LevelScene {
    /// The scene on the built-in level, to be built with `settings` when it is first shown.
    pub fn new(settings: LevelSettings) -> Self {
        let mut scene = Self {
            level: Arc::new(LevelGeometry::built_in()),
            playback: Playback::at_speed(settings.speed),
            settings,
            built: None,
            error: None,
            camera: CanvasCamera::default(),
            canvas_rect: None,
            legend_rect: None,
            tool: LevelTool::Why,
            asked: None,
            why: None,
            section: None,
            section_from: None,
            cut: None,
            volumes: Arc::new(Vec::new()),
            marking: "mud".to_owned(),
            area_from: None,
            worker: LatestWorker::new("navlab level build", BuildJob::run),
            generation: 0,
            textures: canvas::StageTextures::default(),
        };
        // Built when the view is first shown (see `tick`): a window that never shows it does
        // not pay for it.
        scene.playback.cursor = Stage::ALL.len();
        scene
    }

    /// Shows `level` (built at once with the settings).
    pub fn set_level(&mut self, level: LevelGeometry) {
        self.level = Arc::new(level);
        self.volumes = Arc::new(Vec::new());
        self.built = None;
        self.asked = None;
        self.why = None;
        self.section = None;
        self.cut = None;
        self.camera.fit_next_frame();
        self.playback.cursor = Stage::ALL.len();
        self.rebuild();
    }

    /// Shows `level` built with `settings`, with the height cut, the cross-section and the
    /// point asked about given (one build).
    pub fn restore(
        &mut self,
        level: LevelGeometry,
        settings: BuildSettings,
        cut: Option<f64>,
        section: Option<[Vec2; 2]>,
        asked: Option<Asked>,
        volumes: Vec<MarkedVolume>,
    ) {
        self.level = Arc::new(level);
        self.settings.build = settings;
        self.volumes = Arc::new(volumes);
        self.built = None;
        self.why = None;
        self.textures.clear();
        self.camera.fit_next_frame();
        self.cut = cut;
        self.set_section(section);
        self.asked = asked;
        self.rebuild();
        self.wait_for_build();
    }

    /// Whether the built-in level is shown.
    pub fn shows_built_in(&self) -> bool {
        self.level.path.is_none() && self.level.name == LevelGeometry::built_in_name()
    }

    /// The point asked about last, and which surface.
    pub fn asked(&self) -> Option<Asked> {
        self.asked
    }

    /// The marked volumes.
    pub fn volumes(&self) -> &[MarkedVolume] {
        &self.volumes
    }

    /// Marks the ground in `volume` with its area type and builds again; false (and nothing
    /// changes) when the volume cannot be built or there are as many as a build takes.
    pub fn add_volume(&mut self, volume: MarkedVolume) -> bool {
        if volume.check().is_err() || self.volumes.len() >= crate::level::MAX_VOLUMES {
            return false;
        }
        Arc::make_mut(&mut self.volumes).push(volume);
        self.rebuild();
        true
    }

    /// Removes marked volume `index` and builds again.
    pub fn remove_volume(&mut self, index: usize) {
        if index < self.volumes.len() {
            Arc::make_mut(&mut self.volumes).remove(index);
            self.rebuild();
        }
    }

    /// The height cut, if any.
    pub fn cut(&self) -> Option<f64> {
        self.cut
    }

    /// The camera and canvas of the last frame drawn.
    pub fn last_view(&self) -> Option<super::camera::View> {
        Some(super::camera::View {
            camera: self.camera.get()?,
            rect: self.canvas_rect?,
        })
    }

    /// The level shown.
    pub fn level(&self) -> &LevelGeometry {
        &self.level
    }

    /// The build shown, if it succeeded.
    pub fn built(&self) -> Option<&Built> {
        self.built.as_deref()
    }

    /// The build's parameters.
    pub fn build_settings(&self) -> BuildSettings {
        self.settings.build
    }

    /// Builds again with `settings` (the point asked about is asked again).
    pub fn set_build_settings(&mut self, settings: BuildSettings) {
        if settings != self.settings.build {
            self.settings.build = settings;
            self.rebuild();
        }
    }

    /// The last answer to "why".
    pub fn why(&self) -> Option<&Why> {
        self.why.as_ref()
    }

    /// Asks why the ground at `at` (surface `floor` from the bottom, or the top one) is or is
    /// not on the navmesh.
    pub fn ask(&mut self, at: [f64; 2], floor: Option<usize>) {
        self.asked = Some((at, floor));
        self.submit(true);
    }

    /// Draws only what is at or below `height` (`None`: everything).
    pub fn set_cut(&mut self, height: Option<f64>) {
        if height != self.cut {
            self.cut = height;
            self.textures.clear();
        }
    }

    /// The cross-section's line, if one is drawn.
    pub fn section(&self) -> Option<[Vec2; 2]> {
        self.section
    }

    /// Draws the cross-section along `line`.
    pub fn set_section(&mut self, line: Option<[Vec2; 2]>) {
        self.section = line.filter(|[a, b]| (*a - *b).length() > 1e-9);
    }

    /// Applies the suggested change of the last answer and builds again; false when there is
    /// none.
    pub fn apply_suggestion(&mut self) -> bool {
        let Some(suggestion) = self.why.as_ref().and_then(|why| why.suggestion) else {
            return false;
        };
        self.set_build_settings(suggestion.applied(&self.settings.build));
        true
    }

    /// The build error shown, if the last build failed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// True while the stages play.
    pub fn is_playing(&self) -> bool {
        self.playback.playing
    }

    /// True while a build runs on the worker thread.
    pub fn is_building(&self) -> bool {
        self.worker.is_busy()
    }

    /// Waits for the worker's answer (tests and pictures).
    pub fn wait_for_build(&mut self) {
        if let Some(answer) = self.worker.wait(std::time::Duration::from_secs(120)) {
            self.take_answer(answer);
        }
    }

    /// Whether a build looks for links: asked to, on a level small enough.
    fn wants_links(&self) -> bool {
        self.settings.links && self.level.faces.len() <= MAX_FACES_FOR_LINKS
    }

    /// Whether off-mesh links are looked for on the navmesh built.
    pub fn finds_links(&self) -> bool {
        self.settings.links
    }

    /// Looks for off-mesh links, or not, from the next build on (no build now).
    pub fn look_for_links_next(&mut self, links: bool) {
        self.settings.links = links;
    }

    /// Looks for off-mesh links on the navmesh built, or not, and builds again.
    pub fn set_find_links(&mut self, links: bool) {
        if links != self.settings.links {
            self.settings.links = links;
            self.rebuild();
        }
    }

    /// The navmesh of the build shown, for the navmesh view: the detail mesh (the polygons'
    /// plan at the ground's heights).
    pub fn navmesh(&self) -> Result<crate::navmesh::NavMesh, String> {
        let built = self.built.as_ref().ok_or("the level has no navmesh yet")?;
        crate::level::raw_navmesh(built.record.detail_mesh.clone())
            .map_err(|error| format!("no navmesh is left: {error}"))
    }

    fn rebuild(&mut self) {
        self.submit(false);
    }

    /// Hands the build (or, with `reuse`, the question on the build made) to the worker, or
    /// makes it here when it is small.
    fn submit(&mut self, reuse: bool) {
        self.generation += 1;
        let made = self.built.clone().filter(|built| {
            reuse
                && built.settings == self.settings.build
                && built.volumes == self.volumes
                && built.links.is_some() == self.wants_links()
        });
        let job = BuildJob {
            level: Arc::clone(&self.level),
            settings: self.settings.build,
            volumes: Arc::clone(&self.volumes),
            links: self.settings.links,
            made,
            ask: self.asked,
        };
        let in_background = job.in_background();
        if let Some(answer) = self
            .worker
            .answer_or_submit(self.generation, job, in_background)
        {
            self.take_answer(answer);
        }
    }

    fn take_answer(&mut self, answer: BuildAnswer) {
        match answer.built {
            Ok(built) => {
                if self
                    .built
                    .as_ref()
                    .is_none_or(|old| !Arc::ptr_eq(old, &built))
                {
                    self.textures.clear();
                }
                self.built = Some(built);
                self.error = None;
            }
            Err(error) => {
                self.built = None;
                self.textures.clear();
                self.error = Some(error);
            }
        }
        self.why = answer.why;
    }

    /// The stage shown (none before the first).
    pub fn stage(&self) -> Option<Stage> {
        self.playback
            .cursor
            .checked_sub(1)
            .and_then(|i| Stage::ALL.get(i).copied())
    }

    fn keyboard(&mut self, ui: &Ui) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        self.playback.keyboard(ui, Stage::ALL.len());
        for key in super::keys::pressed(ui, KEYS) {
            match key {
                LevelKey::WhyTool => self.tool = LevelTool::Why,
                LevelKey::SectionTool => self.tool = LevelTool::Section,
                LevelKey::AreaTool => self.tool = LevelTool::Area,
                LevelKey::Apply => {
                    self.apply_suggestion();
                }
            }
        }
    }
}

impl SceneSetup for LevelScene {
    type Settings = LevelSettings;

    fn with_settings(settings: &LevelSettings, _map: &MapDocument) -> Self {
        let mut settings = settings.clone();
        if settings.build.check().is_err() {
            settings.build = BuildSettings::default();
        }
        Self::new(settings)
    }

    fn settings(&self, _map: &MapDocument) -> LevelSettings {
        LevelSettings {
            speed: self.playback.speed,
            ..self.settings.clone()
        }
    }
}

impl Scene for LevelScene {
    fn name(&self) -> &'static str {
        "Level"
    }

    fn about(&self) -> &'static str {
        "A level's geometry built into a navmesh by Recast's stages; click to ask why the ground is or is not walkable"
    }

    fn document(&self, _map: &MapDocument) -> (String, Option<&'static str>) {
        (self.level.name.clone(), None)
    }

    fn commands(&self) -> &'static [UiCommand] {
        &[
            UiCommand::OpenLevel,
            UiCommand::SaveLevelNavmesh,
            UiCommand::OpenLevelNavmesh,
        ]
    }

    fn tick(&mut self, ui: &Ui, _shared: &mut Shared, dt: f64) -> bool {
        if let Some(answer) = self.worker.take() {
            self.take_answer(answer);
        }
        if self.built.is_none() && self.error.is_none() && !self.worker.is_busy() {
            self.rebuild();
        }
        self.keyboard(ui);
        let moved = self.playback.tick(dt, Stage::ALL.len());
        moved || self.playback.playing || self.worker.is_busy()
    }

    fn panels_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        egui::Panel::bottom("level_playback").show(ui, |ui| {
            // The strip stays while the section tool is chosen, so that the canvas does not
            // move under a line being drawn.
            if self.section.is_some() || self.tool == LevelTool::Section {
                self.section_ui(ui);
                ui.separator();
            }
            self.playback.bar_ui(ui, Stage::ALL.len());
        });
        egui::Panel::right("level_stage")
            .resizable(true)
            .default_size(super::scene::side_panel_width(ui, 340.0))
            .show(ui, |ui| {
                self.stage_ui(ui);
            });
        egui::Panel::left("level_controls")
            .resizable(true)
            .default_size(super::scene::side_panel_width(ui, 280.0))
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.controls_ui(ui, shared));
            });
    }

    fn canvas_ui(&mut self, ui: &mut Ui, _shared: &mut Shared) {
        LevelScene::canvas_ui(self, ui);
    }

    fn status_ui(&self, ui: &mut Ui, _map: &MapDocument) {
        match (&self.built, &self.error) {
            (Some(built), _) => {
                let c = built.counts;
                ui.label(format!(
                    "{} triangles · grid {} × {} · {} spans · {} polygons · {} islands · {:.1} ms",
                    c.input_triangles,
                    c.grid[0],
                    c.grid[1],
                    c.compact_spans,
                    c.polygons,
                    built.record.island_count(),
                    c.milliseconds
                ));
            }
            (None, Some(error)) => {
                ui.label(format!("no navmesh: {error}"));
            }
            (None, None) => {
                ui.label("building…");
            }
        }
    }

    fn picture_name(&self, _map: &MapDocument) -> String {
        let stem = crate::app::files::file_stem(&self.level.name);
        format!("{stem}-stage-{}.png", self.playback.cursor)
    }

    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        super::keys::help(KEYS)
            .chain(super::keys::help(super::playback::KEYS))
            .collect()
    }

    fn legend_rows(&self) -> Vec<crate::app::legend::LegendRow> {
        self.legend()
    }

    fn canvas_area(&self) -> Option<egui::Rect> {
        self.canvas_rect
    }

    fn fit_view(&mut self) {
        self.camera.fit_next_frame();
    }
}

impl Steps for LevelScene {
    fn step_counts(&self) -> (usize, usize) {
        (Stage::ALL.len(), Stage::ALL.len())
    }

    fn show_step(&mut self, k: usize) {
        self.playback.playing = false;
        self.playback.cursor = k.min(Stage::ALL.len());
    }

    fn shown_step(&self) -> usize {
        self.playback.cursor
    }
}
