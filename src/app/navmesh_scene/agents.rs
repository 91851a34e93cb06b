//! More agents of other sizes in the navmesh view: each has a radius, its own path for it
//! between the query's start and goal (the corridor query keeping that radius, found when the
//! query runs again), drawn in its colour; the walk walks them all, each a disc of its radius.

use super::NavmeshScene;
use super::walk::WalkPlayback;
use crate::app::camera::View;
use crate::app::legend::LegendRow;
use crate::navmesh::{Path, PathStatus, QueryOptions, find_path_located};
use crate::search::NoObserver;
use egui::{Color32, Stroke, Ui};

/// The most agents beside the query's own.
pub const MAX_AGENTS: usize = 4;

/// Each agent's colour, in order.
pub const AGENT_COLOURS: [Color32; MAX_AGENTS] = [
    Color32::from_rgb(255, 200, 60),
    Color32::from_rgb(120, 200, 255),
    Color32::from_rgb(200, 140, 255),
    Color32::from_rgb(140, 235, 140),
];

/// The colour of agent `k`.
pub fn agent_colour(k: usize) -> Color32 {
    AGENT_COLOURS[k % MAX_AGENTS]
}

/// The agents' paths and walks.
#[derive(Debug, Default)]
pub struct Agents {
    /// Each agent's path (`None`: not found for its radius), for the query and radii of `key`.
    paths: Vec<Option<Path>>,
    /// The query generation and the radii the paths were found for.
    key: Option<(u64, Vec<u64>)>,
    /// Each agent's walk, while walking.
    pub walks: Vec<Option<WalkPlayback>>,
}

impl Agents {
    /// The paths found, by agent (`None`: no path for its radius).
    pub fn paths(&self) -> &[Option<Path>] {
        &self.paths
    }
}

impl NavmeshScene {
    /// The agents' radii as set (each kept a number from 0 up).
    fn agent_radii(&self) -> Vec<f64> {
        self.settings
            .display
            .agents
            .iter()
            .take(MAX_AGENTS)
            .map(|&r| if r.is_finite() { r.max(0.0) } else { 0.0 })
            .collect()
    }

    /// Finds the agents' paths again when the query or their radii changed. On a large mesh
    /// whose clearance is not worked out yet, waits for it (the clearance job is asked for).
    pub fn refresh_agents(&mut self) {
        let radii = self.agent_radii();
        let key = (
            self.query.generation,
            radii.iter().map(|r| r.to_bits()).collect::<Vec<_>>(),
        );
        if self.agents.key.as_ref() == Some(&key) {
            return;
        }
        let mesh = std::sync::Arc::clone(self.view.mesh());
        if radii.iter().any(|&r| r > 0.0)
            && mesh.clearance_if_made().is_none()
            && mesh.triangles().len() >= super::clearance::BACKGROUND_TRIANGLES
        {
            return;
        }
        if radii.iter().any(|&r| r > 0.0)
            && let Some(before) = self.screen.clearance_jobs.last_mesh()
        {
            // After an edit: the clearance carried from the last mesh's.
            mesh.clearance_after_edit(&before);
        }
        let ends = mesh
            .locate_near_height(self.query.start, self.query.floors.start)
            .zip(mesh.locate_near_height(self.query.goal, self.query.floors.goal));
        self.agents.paths = radii
            .iter()
            .map(|&radius| {
                let (start, goal) = ends?;
                let options = QueryOptions {
                    cost: self.settings.cost,
                    heuristic_weight: self.settings.heuristic_weight,
                    area_costs: self.edit.costs,
                    radius,
                };
                let path = find_path_located(
                    &mesh,
                    start,
                    goal,
                    options,
                    &mut NoObserver,
                    &mut NoObserver,
                    &mut NoObserver,
                );
                (path.status != PathStatus::Unreachable).then_some(path)
            })
            .collect();
        self.agents.walks.clear();
        self.agents.key = Some(key);
    }

    /// Starts the agents' walks (with the query's walk settings).
    pub(super) fn start_agent_walks(&mut self) {
        self.refresh_agents();
        let mesh = self.view.mesh();
        self.agents.walks = self
            .agents
            .paths
            .iter()
            .map(|path| {
                let path = path.as_ref().filter(|p| p.waypoints.len() >= 2)?;
                let (points, segments) = path.traced();
                Some(WalkPlayback::new(
                    mesh,
                    &points,
                    &segments,
                    self.settings.walk,
                ))
            })
            .collect();
    }

    /// Draws each agent's path in its colour, and its disc where its walk is (at the start
    /// when not walking).
    pub(super) fn paint_agents(&self, painter: &egui::Painter, view: View) {
        let radii = self.agent_radii();
        for (k, path) in self.agents.paths.iter().enumerate() {
            let Some(path) = path else { continue };
            let colour = agent_colour(k);
            let (traced, _) = path.traced();
            let points: Vec<egui::Pos2> =
                traced.iter().map(|&p| view.screen_from_world(p)).collect();
            painter.add(egui::Shape::line(
                points,
                Stroke::new(2.0, colour.gamma_multiply(0.55)),
            ));
            let radius = radii.get(k).copied().unwrap_or(0.0);
            let walk = self.agents.walks.get(k).and_then(Option::as_ref);
            match walk {
                Some(walk) => walk.paint_disc(painter, view, radius, colour),
                None => {
                    let at = view.screen_from_world(path.start.point);
                    let r = ((radius * view.camera.scale) as f32).max(4.0);
                    painter.circle(at, r, colour.gamma_multiply(0.35), Stroke::new(1.5, colour));
                }
            }
        }
    }

    /// The legend's rows for the agents: each one's colour and radius, or that it has no path.
    pub(super) fn agents_legend(&self) -> Vec<LegendRow> {
        self.agent_radii()
            .iter()
            .enumerate()
            .map(|(k, &r)| {
                let found = self.agents.paths.get(k).is_some_and(Option::is_some);
                let text = if found {
                    format!("agent of radius {r:.2} and its path")
                } else {
                    format!("agent of radius {r:.2}: no path for it")
                };
                LegendRow::fill(agent_colour(k), &text)
            })
            .collect()
    }

    /// The controls: the agents' radii, a button to add one and one to take each away.
    pub(super) fn agents_ui(&mut self, ui: &mut Ui, widest: f64) {
        let mut remove = None;
        let count = self.settings.display.agents.len().min(MAX_AGENTS);
        for k in 0..count {
            ui.horizontal(|ui| {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter()
                    .circle_filled(rect.center(), 6.0, agent_colour(k));
                if let Some(r) = self.settings.display.agents.get_mut(k) {
                    if !(r.is_finite() && *r >= 0.0) {
                        *r = 0.0;
                    }
                    ui.add(
                        egui::Slider::new(r, 0.0..=widest)
                            .text(format!("Agent {}", k + 2))
                            .max_decimals(2),
                    )
                    .on_hover_text(
                        "Another agent's radius: it finds its own path between the same start \
                         and goal, drawn in its colour, and walks with the walk (W)",
                    );
                }
                if ui
                    .small_button("×")
                    .on_hover_text("Take this agent away")
                    .clicked()
                {
                    remove = Some(k);
                }
            });
        }
        if let Some(k) = remove {
            self.settings.display.agents.remove(k);
        }
        if count < MAX_AGENTS
            && ui
                .button("Add an agent")
                .on_hover_text(
                    "Another agent, of its own size, between the same start and goal: several \
                     sizes side by side, each on the route it fits",
                )
                .clicked()
        {
            let r = (widest * (0.15 + 0.2 * count as f64)).min(widest);
            self.settings
                .display
                .agents
                .push((r * 100.0).round() / 100.0);
        }
    }
}
