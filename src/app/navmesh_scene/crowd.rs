//! The navmesh view's crowd (the Crowd tab): random agents on the mesh, each following its own
//! path and keeping clear of the others by ORCA ([`crate::crowd`]), played tick by tick and
//! kept, so the run can be stepped back and scrubbed. Clicking an agent shows its velocity
//! space at the tick shown — each neighbour's and wall's half-plane, labelled, the velocity it
//! wanted and the one it took — and says in a sentence what bound it.

use super::NavmeshScene;
use crate::app::camera::View;
use crate::app::commands::UiCommand;
use crate::app::playback::Playback;
use crate::app::scene::Shared;
use crate::crowd::{Crowd, CrowdSettings, Decision, Source, Stuck};
use crate::geom::Vec2;
use egui::{Color32, Pos2, Rect, Shape, Stroke, Ui, pos2, vec2};
use std::sync::Arc;

/// Agents moving, arrived, stuck, selected.
const MOVING: Color32 = Color32::from_rgb(90, 200, 255);
const ARRIVED: Color32 = Color32::from_rgb(120, 220, 120);
const STUCK: Color32 = Color32::from_rgb(255, 90, 90);
const SELECTED: Color32 = Color32::WHITE;
/// The velocities: wanted, taken.
const WANTED: Color32 = Color32::from_rgb(200, 200, 200);
const TAKEN: Color32 = Color32::from_rgb(255, 200, 60);
/// A neighbour's half-plane, a wall's.
const AGENT_LINE: Color32 = Color32::from_rgb(150, 170, 255);
const WALL_LINE: Color32 = Color32::from_rgb(255, 150, 110);

/// The playback bar reaches this many ticks past those recorded (run when it gets there), so
/// that it plays on at any speed.
const MOST_TICKS_PER_FRAME: usize = 32;

/// The crowd tab's state: what to start, the run, the tick shown, the agent selected.
#[derive(Debug)]
pub struct CrowdLab {
    /// How many agents to start.
    pub count: usize,
    /// Their radius.
    pub radius: f64,
    /// Their preferred speed.
    pub speed: f64,
    /// The seed of their starts and goals.
    pub seed: u64,
    /// Avoidance on.
    pub avoid: bool,
    /// Where the random agents start and end (boxes from the command line, or anywhere).
    pub placement: crate::crowd::Placement,
    /// Clicks on the mesh place agents: a left click a start, a right click its goal.
    pub placing: bool,
    /// The agents placed by clicking (start, goal), before the random ones.
    pub placed: Vec<(Vec2, Vec2)>,
    /// A start clicked, waiting for its goal.
    pub pending: Option<Vec2>,
    /// How many frames [`first_stuck`](Self::first_stuck) has looked at, and what it found
    /// (forgotten when the run starts again or its later frames are dropped).
    stuck_scan: (usize, Option<(usize, usize)>),
    /// Why the agent selected has no path at the tick shown, for that (tick, agent): a
    /// search of the mesh, done once rather than every frame (forgotten with the stuck scan).
    no_path: Option<((usize, usize), Option<crate::crowd::NoPath>)>,
    /// The run, once started.
    pub crowd: Option<Crowd>,
    /// The tick shown.
    pub shown: usize,
    /// The playback bar's state while the Crowd tab holds it: its cursor is the tick asked
    /// for (the crowd is run on to it), its speed in ticks per second (20 is real time).
    pub playback: Playback,
    /// The agent taken apart (by number from 0).
    pub selected: Option<usize>,
    /// What to say (a crowd that could not start).
    pub message: Option<String>,
    /// What happened to the run (the mesh changed under it).
    pub notice: Option<String>,
}

impl Default for CrowdLab {
    fn default() -> Self {
        Self {
            count: 20,
            radius: 0.3,
            speed: 1.2,
            seed: 1,
            avoid: true,
            placement: crate::crowd::Placement::default(),
            placing: false,
            placed: Vec::new(),
            pending: None,
            stuck_scan: (0, None),
            no_path: None,
            crowd: None,
            shown: 0,
            playback: Playback::default(),
            selected: None,
            message: None,
            notice: None,
        }
    }
}

impl CrowdLab {
    /// Starts a crowd on `mesh` with the settings chosen (tick 0 shown, paused).
    pub fn start(&mut self, mesh: &Arc<crate::navmesh::NavMesh>) {
        let mut specs: Vec<crate::crowd::AgentSpec> = self
            .placed
            .iter()
            .map(|&(start, goal)| crate::crowd::AgentSpec {
                start,
                goal,
                radius: self.radius,
                preferred_speed: self.speed,
                max_speed: self.speed * 1.5,
            })
            .collect();
        let random = Crowd::random_specs_in(
            mesh,
            self.count,
            self.radius,
            self.speed,
            self.seed,
            self.placement,
        );
        self.message = (random.len() < self.count)
            .then(|| format!("Room for {} agents of this radius only.", random.len()));
        specs.extend(random);
        self.placing = false;
        self.pending = None;
        let settings = CrowdSettings {
            avoid: self.avoid,
            ..CrowdSettings::default()
        };
        self.crowd = (!specs.is_empty()).then(|| Crowd::new(Arc::clone(mesh), specs, settings));
        self.notice = None;
        self.forget_looks();
        self.shown = 0;
        self.playback.cursor = 0;
        self.playback.playing = false;
        self.selected = None;
    }

    /// Shows the run read from a file, replayed on `mesh` (tick 0 shown, paused); the notice
    /// says whether the replay lands on every recorded position.
    pub fn load_run(
        &mut self,
        mesh: &Arc<crate::navmesh::NavMesh>,
        run: &crate::crowd::run_file::RecordedRun,
        file: &str,
    ) {
        let (crowd, difference) = crate::crowd::run_file::replay(Arc::clone(mesh), run);
        // The tab's settings as the run's, so that they describe the agents shown.
        self.avoid = run.settings.avoid;
        self.count = run.specs.len().min(200);
        if let Some(first) = run.specs.first() {
            self.radius = first.radius;
            self.speed = first.preferred_speed;
        }
        self.placing = false;
        self.pending = None;
        self.crowd = Some(crowd);
        self.message = None;
        self.notice = Some(format!(
            "{file} (recorded on {}): {}",
            run.mesh,
            crate::crowd::run_file::replay_sentence(run, difference)
        ));
        self.forget_looks();
        self.shown = 0;
        self.playback.cursor = 0;
        self.playback.playing = false;
        self.selected = None;
    }

    /// Shows tick `k`, running the crowd on to it when it is not recorded yet (the bar goes
    /// there too).
    pub fn show(&mut self, k: usize) {
        let Some(crowd) = &mut self.crowd else {
            return;
        };
        while crowd.current().tick < k && !crowd.finished() {
            crowd.step();
        }
        self.shown = k.min(crowd.current().tick);
        self.playback.cursor = self.shown;
    }

    /// How many ticks the bar reaches: those recorded, and while the crowd has not finished,
    /// a few more (run when the bar goes there).
    pub fn bar_len(&self) -> usize {
        self.crowd.as_ref().map_or(0, |c| {
            let recorded = c.current().tick;
            if c.finished() {
                recorded
            } else {
                recorded + MOST_TICKS_PER_FRAME
            }
        })
    }

    /// Advances by `dt` seconds while the bar plays; true while it plays.
    pub fn tick(&mut self, dt: f64) -> bool {
        let len = self.bar_len();
        self.playback.tick(dt, len);
        self.follow_bar();
        self.playback.playing
    }

    /// Shows the tick the bar asks for (running the crowd on to it); where the crowd finished
    /// first, the bar comes back to its last tick.
    pub fn follow_bar(&mut self) {
        if self.playback.cursor != self.shown {
            self.show(self.playback.cursor);
        }
    }

    /// The first tick at which some agent is stuck, and the agent, if any has been recorded.
    /// Asked every frame: only the frames recorded since the last time are looked at.
    pub fn first_stuck(&mut self) -> Option<(usize, usize)> {
        let crowd = self.crowd.as_ref()?;
        let (scanned, found) = &mut self.stuck_scan;
        if found.is_none() {
            for frame in crowd.frames().iter().skip(*scanned) {
                if let Some(k) = frame.agents.iter().position(|a| a.stuck.is_some()) {
                    *found = Some((frame.tick, k));
                    break;
                }
            }
            *scanned = crowd.frames().len();
        }
        *found
    }

    /// Forgets what was looked for in the run (the first stuck agent, why one has no path):
    /// the run started again, or changed from some tick on.
    fn forget_looks(&mut self) {
        self.stuck_scan = (0, None);
        self.no_path = None;
    }

    /// Why agent `k` has no path at the tick shown ([`Crowd::why_no_path`]).
    pub fn why_no_path(&mut self, k: usize) -> Option<crate::crowd::NoPath> {
        let key = (self.shown, k);
        match self.no_path {
            Some((at, why)) if at == key => why,
            _ => {
                let why = self.crowd.as_ref()?.why_no_path(self.shown, k);
                self.no_path = Some((key, why));
                why
            }
        }
    }

    /// The agent whose disc holds `p` at the tick shown (the nearest).
    pub fn agent_at(&self, p: Vec2) -> Option<usize> {
        let crowd = self.crowd.as_ref()?;
        let frame = crowd.frames().get(self.shown)?;
        frame
            .agents
            .iter()
            .zip(crowd.specs())
            .enumerate()
            .filter(|(_, (a, s))| a.position.distance(p) <= s.radius.max(0.05) * 1.5)
            .min_by(|x, y| {
                x.1.0
                    .position
                    .distance(p)
                    .total_cmp(&y.1.0.position.distance(p))
            })
            .map(|(k, _)| k)
    }

    /// What ORCA did for the selected agent in the tick that led to the one shown.
    pub fn decision(&self) -> Option<Decision> {
        self.crowd.as_ref()?.explain(self.shown, self.selected?)
    }

    /// A sentence for `decision` of agent `k`: what it wanted, what bound it, what it took.
    pub fn sentence(k: usize, decision: &Decision) -> String {
        let speed = |v: Vec2| crate::words::decimal(v.length(), 2);
        let wanted = format!(
            "Agent {} wanted {} m/s {}",
            k + 1,
            speed(decision.preferred),
            heading(decision.preferred)
        );
        let bound: Vec<String> = decision
            .binding(1e-3)
            .iter()
            .map(|s| match s {
                Source::Agent(j) => format!("agent {}'s half-plane", j + 1),
                Source::Wall(w) => format!("wall {}", w + 1),
            })
            .collect();
        let took = format!(
            "{} m/s {}",
            speed(decision.chosen),
            heading(decision.chosen)
        );
        let mut out = if decision.fallback {
            format!(
                "{wanted}; no velocity kept clear of every wall, so it took the least bad: {took}."
            )
        } else if decision.chosen.distance(decision.preferred) < 1e-3 {
            format!("{wanted}; nothing was in its way, and it took that.")
        } else if bound.is_empty() {
            format!("{wanted}; its top speed left {took}; it took that.")
        } else {
            format!("{wanted}; {} left {took}; it took that.", list(&bound))
        };
        if decision.relaxed > 1e-4 {
            out.push_str(&format!(
                " No velocity kept clear of every neighbour: each agent's half-plane was moved out by {} m/s.",
                crate::words::decimal(decision.relaxed, 2)
            ));
        }
        out
    }
}

/// "a", "a and b", "a, b and c".
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The compass direction of `v` as drawn (up the screen is north).
fn heading(v: Vec2) -> &'static str {
    if v.length() < 1e-9 {
        return "(standing)";
    }
    const NAMES: [&str; 8] = [
        "east",
        "north-east",
        "north",
        "north-west",
        "west",
        "south-west",
        "south",
        "south-east",
    ];
    let angle = (-v.y).atan2(v.x).rem_euclid(std::f64::consts::TAU);
    let k = ((angle / (std::f64::consts::TAU / 8.0)).round() as usize) % 8;
    NAMES[k]
}

impl NavmeshScene {
    /// True when the playback bar and its keys drive the crowd: the Crowd tab is shown and a
    /// crowd is started.
    pub(super) fn crowd_has_the_bar(&self) -> bool {
        self.screen.side_tab == super::SideTab::Crowd && self.crowd.crowd.is_some()
    }

    /// The canvas caption while the crowd holds the bar: the tick shown and what to do.
    pub(super) fn crowd_caption(&self) -> Option<String> {
        if !self.crowd_has_the_bar() {
            return None;
        }
        let crowd = self.crowd.crowd.as_ref()?;
        let frame = crowd.frames().get(self.crowd.shown)?;
        let arrived = frame.agents.iter().filter(|a| a.arrived.is_some()).count();
        let stuck = frame.agents.iter().filter(|a| a.stuck.is_some()).count();
        let what = if frame.tick == 0 {
            "Crowd ready: press Play (Space) or step (Right arrow); click an agent to take it apart."
                .to_owned()
        } else {
            format!(
                "Crowd at tick {} ({} s): {} of {} arrived, {} stuck. Click an agent to take it apart.",
                frame.tick,
                crate::words::decimal(frame.tick as f64 * crowd.settings().time_step, 2),
                arrived,
                frame.agents.len(),
                stuck
            )
        };
        Some(what)
    }

    /// The playback bar for the crowd's ticks.
    pub(super) fn crowd_bar_ui(&mut self, ui: &mut Ui) {
        let len = self.crowd.bar_len();
        self.crowd
            .playback
            .bar_ui_in(ui, len, &crate::app::playback::BarWords::TICKS);
        self.crowd.follow_bar();
    }

    /// Plays the crowd by `dt` seconds (with the bar's keys when `keys`); true while it plays.
    /// When the mesh was edited (a door closed, an obstacle cut) the crowd goes on from the
    /// tick shown on the edited mesh, every agent finding its path again.
    pub(super) fn tick_crowd(&mut self, ui: &Ui, dt: f64, keys: bool) -> bool {
        let mesh = self.view.mesh();
        let shown = self.crowd.shown;
        if let Some(crowd) = &mut self.crowd.crowd
            && !Arc::ptr_eq(crowd.mesh(), mesh)
        {
            crowd.change_mesh(Arc::clone(mesh), shown);
            let now = crowd.current().tick;
            self.crowd.forget_looks();
            self.crowd.shown = now;
            self.crowd.playback.cursor = self.crowd.shown;
            self.crowd.notice = Some(format!(
                "The mesh changed at tick {}: every agent found its path again (ticks after it dropped).",
                self.crowd.shown
            ));
        }
        if keys {
            let len = self.crowd.bar_len();
            self.crowd.playback.keyboard(ui, len);
            self.crowd.follow_bar();
        }
        self.crowd.tick(dt)
    }

    /// A click at `p` (`secondary`: a right click) when the Crowd tab is shown: while placing
    /// agents, a left click puts a start and a right click its goal; else a left click
    /// selects the agent under it. True when the click was the crowd's.
    pub(super) fn crowd_click(&mut self, p: Vec2, secondary: bool) -> bool {
        if self.screen.side_tab != super::SideTab::Crowd {
            return false;
        }
        if self.crowd.placing {
            let on_mesh = self.view.mesh().locate(p).is_some_and(|at| !at.snapped);
            if !on_mesh {
                return true;
            }
            match (secondary, self.crowd.pending.take()) {
                (false, _) => self.crowd.pending = Some(p),
                (true, Some(start)) => self.crowd.placed.push((start, p)),
                (true, None) => {}
            }
            return true;
        }
        if secondary {
            return false;
        }
        match self.crowd.agent_at(p) {
            Some(k) => {
                self.crowd.selected = Some(k);
                true
            }
            None => false,
        }
    }

    /// The agents at the tick shown: discs of their radius, coloured by state, the selected one
    /// outlined with its path.
    pub(super) fn paint_crowd(&self, painter: &egui::Painter, view: View) {
        if self.crowd.placing || self.crowd.crowd.is_none() {
            // The agents placed by clicking: start, a line to the goal, the goal.
            let r = (self.crowd.radius * view.camera.scale) as f32;
            for &(start, goal) in &self.crowd.placed {
                let (a, b) = (view.screen_from_world(start), view.screen_from_world(goal));
                painter.line_segment([a, b], Stroke::new(1.0, MOVING.gamma_multiply(0.6)));
                painter.circle(
                    a,
                    r.max(3.0),
                    MOVING.gamma_multiply(0.4),
                    Stroke::new(1.0, MOVING),
                );
                painter.circle_stroke(b, r.max(3.0), Stroke::new(1.5, ARRIVED));
            }
            if let Some(start) = self.crowd.pending {
                let a = view.screen_from_world(start);
                painter.circle(
                    a,
                    r.max(3.0),
                    MOVING.gamma_multiply(0.4),
                    Stroke::new(2.0, SELECTED),
                );
            }
        }
        let Some(crowd) = &self.crowd.crowd else {
            return;
        };
        let Some(frame) = crowd.frames().get(self.crowd.shown) else {
            return;
        };
        let scale = view.camera.scale as f32;
        if let Some(k) = self.crowd.selected
            && let Some(agent) = frame.agents.get(k)
        {
            let points: Vec<Pos2> = agent
                .path
                .iter()
                .map(|&p| view.screen_from_world(p))
                .collect();
            painter.add(Shape::line(
                points,
                Stroke::new(1.5, SELECTED.gamma_multiply(0.6)),
            ));
        }
        for (k, (agent, spec)) in frame.agents.iter().zip(crowd.specs()).enumerate() {
            let centre = view.screen_from_world(agent.position);
            let colour = if agent.stuck.is_some() {
                STUCK
            } else if agent.arrived.is_some() {
                ARRIVED
            } else {
                MOVING
            };
            let r = (spec.radius as f32 * scale).max(2.0);
            painter.circle(
                centre,
                r,
                colour.gamma_multiply(0.55),
                Stroke::new(1.0, colour),
            );
            let ahead = view.screen_from_world(agent.position + agent.velocity * 0.5);
            painter.line_segment([centre, ahead], Stroke::new(1.5, colour));
            if self.crowd.selected == Some(k) {
                painter.circle_stroke(centre, r + 3.0, Stroke::new(2.0, SELECTED));
            }
        }
    }

    /// The Crowd tab: the agents to start, the run's controls, and the selected agent taken
    /// apart.
    pub(super) fn crowd_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        ui.label("A crowd on this mesh: each agent follows its own path and keeps clear of the others by ORCA (reciprocal collision avoidance).");
        egui::Grid::new("crowd_settings")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Agents");
                ui.add(egui::Slider::new(&mut self.crowd.count, 0..=200))
                    .on_hover_text("Random agents, beside those placed by clicking");
                ui.end_row();
                ui.label("Radius");
                ui.add(egui::Slider::new(&mut self.crowd.radius, 0.05..=2.0).logarithmic(true));
                ui.end_row();
                ui.label("Speed");
                ui.add(egui::Slider::new(&mut self.crowd.speed, 0.1..=5.0).suffix(" m/s"));
                ui.end_row();
                ui.label("Seed");
                ui.add(egui::DragValue::new(&mut self.crowd.seed));
                ui.end_row();
            });
        let boxed = |b: Option<[Vec2; 2]>| {
            b.map_or("anywhere".to_owned(), |[lo, hi]| {
                let d = |v: f64| crate::words::decimal(v, 1);
                format!("in ({}, {})–({}, {})", d(lo.x), d(lo.y), d(hi.x), d(hi.y))
            })
        };
        let placement = self.crowd.placement;
        if placement != crate::crowd::Placement::default() {
            ui.horizontal_wrapped(|ui| {
                ui.label(format!(
                    "Starts {}, goals {}",
                    boxed(placement.starts),
                    boxed(placement.goals)
                ));
                if ui
                    .button("Anywhere")
                    .on_hover_text("Starts and goals anywhere on the mesh")
                    .clicked()
                {
                    self.crowd.placement = crate::crowd::Placement::default();
                }
            });
        }
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.crowd.placing, "Place agents by clicking")
                .on_hover_text(
                    "Left click a start on the mesh, right click its goal; then Start the crowd",
                );
            if !self.crowd.placed.is_empty() {
                ui.label(format!("{} placed", self.crowd.placed.len()));
                if ui
                    .button("Clear")
                    .on_hover_text("Take away the agents placed")
                    .clicked()
                {
                    self.crowd.placed.clear();
                    self.crowd.pending = None;
                }
            }
        });
        if self.crowd.placing {
            ui.label(if self.crowd.pending.is_some() {
                "Right click the goal of the start just placed."
            } else {
                "Left click a start on the mesh."
            });
        }
        ui.checkbox(&mut self.crowd.avoid, "Avoidance (ORCA)")
            .on_hover_text(
                "Off: agents follow their paths through each other (walls still hold them)",
            );
        let agents = self.crowd.placed.len() + self.crowd.count;
        if ui
            .add_enabled(agents > 0, egui::Button::new("Start the crowd"))
            .on_hover_text("Random starts and goals (by the seed), each with room for the radius")
            .clicked()
        {
            let mesh = Arc::clone(self.view.mesh());
            self.crowd.start(&mesh);
        }
        if let Some(message) = &self.crowd.message {
            ui.colored_label(STUCK, message);
        }
        if let Some(notice) = &self.crowd.notice {
            ui.label(notice);
        }
        let Some(crowd) = &self.crowd.crowd else {
            return;
        };
        let dt = crowd.settings().time_step;
        ui.separator();
        ui.label("Played on the bar below, a step a tick.").on_hover_text(
            "While this tab is shown the playback bar plays the crowd: Play (Space), a tick back or on (arrows), the slider to go back to any tick",
        );
        shared.button(ui, UiCommand::SaveCrowdRun);
        let Some(crowd) = &self.crowd.crowd else {
            return;
        };
        let Some(frame) = crowd.frames().get(self.crowd.shown) else {
            return;
        };
        let arrived = frame.agents.iter().filter(|a| a.arrived.is_some()).count();
        let stuck = frame.agents.iter().filter(|a| a.stuck.is_some()).count();
        ui.label(format!(
            "Tick {} ({} s): {} of {} arrived, {} stuck",
            frame.tick,
            crate::words::decimal(frame.tick as f64 * dt, 2),
            arrived,
            frame.agents.len(),
            stuck
        ));
        let overlaps = crowd.overlaps(self.crowd.shown).len();
        if overlaps > 0 {
            ui.colored_label(STUCK, format!("{overlaps} pairs overlap at this tick"));
        }
        if let Some((tick, k)) = self.crowd.first_stuck()
            && ui
                .button(format!("Jump to tick {tick}: agent {} stuck", k + 1))
                .on_hover_text("The first tick at which an agent is stuck, that agent selected")
                .clicked()
        {
            self.crowd.playback.playing = false;
            self.crowd.show(tick);
            self.crowd.selected = Some(k);
        }
        crowd_legend(ui);
        ui.separator();
        let Some(k) = self.crowd.selected else {
            ui.label("Click an agent to see its velocity space at this tick.");
            return;
        };
        let Some(crowd) = &self.crowd.crowd else {
            return;
        };
        let stuck = crowd
            .frames()
            .get(self.crowd.shown)
            .and_then(|f| f.agents.get(k))
            .and_then(|s| s.stuck);
        let max_speed = crowd.specs().get(k).map_or(1.0, |s| s.max_speed);
        if let Some(reason) = stuck {
            ui.colored_label(
                STUCK,
                format!("Agent {} is stuck: {}.", k + 1, stuck_words(reason)),
            );
            if let Some(why) = self.crowd.why_no_path(k) {
                ui.label(format!("Why: {}.", why.sentence()));
            }
        }
        match self.crowd.decision() {
            Some(decision) => {
                ui.label(CrowdLab::sentence(k, &decision));
                velocity_space(ui, &decision, max_speed);
            }
            None => {
                ui.label(format!(
                    "Agent {}: step on a tick to see what it decided.",
                    k + 1
                ));
            }
        }
    }
}

fn stuck_words(reason: Stuck) -> &'static str {
    reason.sentence()
}

/// The legend of the agents' colours.
fn crowd_legend(ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        for (colour, text) in [(MOVING, "moving"), (ARRIVED, "arrived"), (STUCK, "stuck")] {
            let (rect, _) = ui.allocate_exact_size(vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter().circle_filled(rect.center(), 5.0, colour);
            ui.label(text);
        }
    });
}

/// The selected agent's velocity space: its top speed's circle, every half-plane (the
/// forbidden side shaded, each line labelled A3 for agent 3, W12 for wall 12), the velocity it
/// wanted and the one it took. Drawn as the canvas is (north up).
fn velocity_space(ui: &mut Ui, decision: &Decision, max_speed: f64) {
    let side = ui.available_width().clamp(160.0, 240.0);
    let (rect, _) = ui.allocate_exact_size(vec2(side, side), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 4.0, Color32::from_gray(24));
    let reach = (max_speed.max(decision.preferred.length()) * 1.25).max(1e-6);
    let scale = f64::from(side) / 2.0 / reach;
    let centre = rect.center();
    let at = |v: Vec2| {
        pos2(
            centre.x + (v.x * scale) as f32,
            centre.y + (v.y * scale) as f32,
        )
    };
    painter.line_segment(
        [pos2(rect.left(), centre.y), pos2(rect.right(), centre.y)],
        Stroke::new(1.0, Color32::from_gray(60)),
    );
    painter.line_segment(
        [pos2(centre.x, rect.top()), pos2(centre.x, rect.bottom())],
        Stroke::new(1.0, Color32::from_gray(60)),
    );
    painter.circle_stroke(
        centre,
        (max_speed * scale) as f32,
        Stroke::new(1.0, Color32::from_gray(140)),
    );
    let far = reach * 4.0;
    for (source, half) in &decision.half_planes {
        let (colour, label) = match source {
            Source::Agent(j) => (AGENT_LINE, format!("A{}", j + 1)),
            Source::Wall(w) => (WALL_LINE, format!("W{}", w + 1)),
        };
        let d = half.direction;
        let right = Vec2::new(d.y, -d.x);
        let (a, b) = (half.point - d * far, half.point + d * far);
        // The forbidden side (right of the direction), faintly.
        painter.add(Shape::convex_polygon(
            vec![at(a), at(b), at(b + right * far), at(a + right * far)],
            colour.gamma_multiply(0.05),
            Stroke::NONE,
        ));
        painter.line_segment([at(a), at(b)], Stroke::new(1.5, colour));
        // The label where the line passes nearest the centre of the picture.
        let foot = half.point - d * half.point.dot(d);
        let spot = clamp_into(at(foot), rect.shrink(12.0));
        painter.text(
            spot,
            egui::Align2::CENTER_CENTER,
            label,
            egui::FontId::proportional(11.0),
            colour,
        );
    }
    arrow(&painter, centre, at(decision.preferred), WANTED);
    arrow(&painter, centre, at(decision.chosen), TAKEN);
    ui.horizontal_wrapped(|ui| {
        for (colour, text) in [
            (WANTED, "wanted"),
            (TAKEN, "taken"),
            (AGENT_LINE, "agent's half-plane (A)"),
            (WALL_LINE, "wall's (W)"),
        ] {
            let (r, _) = ui.allocate_exact_size(vec2(14.0, 10.0), egui::Sense::hover());
            ui.painter().line_segment(
                [r.left_center(), r.right_center()],
                Stroke::new(2.0, colour),
            );
            ui.label(text);
        }
    });
    ui.label("The circle is its top speed; shaded: the velocities a half-plane forbids.");
}

fn clamp_into(p: Pos2, rect: Rect) -> Pos2 {
    pos2(
        p.x.clamp(rect.left(), rect.right()),
        p.y.clamp(rect.top(), rect.bottom()),
    )
}

fn arrow(painter: &egui::Painter, from: Pos2, to: Pos2, colour: Color32) {
    painter.arrow(from, to - from, Stroke::new(2.0, colour));
}

impl crate::app::NavlabApp {
    /// Replays the crowd run in the file at `path` on the navmesh shown (the Crowd tab). On
    /// failure what is shown stays and the error names the file.
    pub(crate) fn open_crowd_run(&mut self, path: &std::path::Path) -> Result<(), String> {
        let shown = crate::input::shown(path);
        let bytes = crate::input::read_file(path, crate::input::MAX_TRACE_BYTES, "a crowd run")
            .map_err(|e| format!("{shown}: {e}"))?;
        self.open_crowd_run_bytes(&bytes, &crate::input::file_label(path))
    }

    /// [`open_crowd_run`](Self::open_crowd_run) of a file given as bytes, named `name`.
    pub(crate) fn open_crowd_run_bytes(&mut self, bytes: &[u8], name: &str) -> Result<(), String> {
        crate::input::check_size(bytes, crate::input::MAX_TRACE_BYTES, "a crowd run")
            .map_err(|e| format!("{name}: {e}"))?;
        let run = crate::crowd::run_file::read(bytes).map_err(|e| format!("{name}: {e}"))?;
        self.settings.scene = crate::app::SceneKind::Navmesh;
        let navmesh = &mut self.scenes.navmesh;
        navmesh.screen.side_tab = super::SideTab::Crowd;
        let mesh = Arc::clone(navmesh.view.mesh());
        navmesh.crowd.load_run(&mesh, &run, name);
        self.notice = Some(format!("Replayed the crowd run {name} on this navmesh"));
        Ok(())
    }

    /// Writes the crowd's run to `path` (atomically); the notice or the banner says how it went.
    pub(crate) fn save_crowd_run_to(&mut self, path: &std::path::Path) {
        let path = crate::app::documents::absolute(path.to_path_buf());
        let navmesh = &self.scenes.navmesh;
        let written = match &navmesh.crowd.crowd {
            None => Err("there is no crowd to save: Start the crowd in the Crowd tab first".to_owned()),
            Some(crowd) if !crowd.mesh_changes().is_empty() => Err(
                "the mesh changed during this run (a door closed, an obstacle cut): a run file holds one mesh's run, so start the crowd again on the mesh as it is now".to_owned(),
            ),
            Some(crowd) => {
                let text = crate::crowd::run_file::write(crowd, &navmesh.mesh_name()).to_string();
                crate::app::files::write_file(&path, text.as_bytes())
            }
        };
        match written {
            Ok(()) => {
                self.notice = Some(format!(
                    "Saved the crowd's run as {} (Posthoc plays it; Open… replays it here)",
                    crate::input::shown(&path)
                ));
            }
            Err(message) => self.fail(
                crate::app::SAVE_FAILED,
                format!("{}: {message}", crate::input::shown(&path)),
            ),
        }
    }
}
