//! The agent walking the navmesh view's path in real time, as the NPC of “A* on a navigation mesh” does: drawn with
//! the trail it leaves (magenta where it left the mesh, cutting a corner) and explained in the
//! caption.

use crate::app::camera::View;
use crate::geom::Vec2;
use crate::navmesh::NavMesh;
use crate::navmesh::links::{LinkKind, PathSegment};
use crate::navmesh::walk::{
    AgentState, Walk, WalkEvent, WalkOptions, off_mesh, on_links, walk_path,
};
use egui::{Color32, Shape, Stroke};

/// The trail where the agent is on the mesh.
const ON: Color32 = Color32::from_rgb(120, 230, 220);
/// The trail where it left the mesh (cutting a corner).
const OFF: Color32 = Color32::from_rgb(255, 60, 210);

/// A walk being shown.
#[derive(Debug, Clone)]
pub struct WalkPlayback {
    /// The whole walk, simulated at once.
    pub walk: Walk,
    /// Seconds into the walk shown.
    pub time: f64,
    /// Advancing with the clock.
    pub playing: bool,
    /// The corners walked to (start first, goal last).
    waypoints: Vec<Vec2>,
    /// Per state: outside every triangle of the mesh (not while crossing a link).
    off_mesh: Vec<bool>,
    /// Per state: the link it is crossing and how far across.
    on_link: Vec<Option<(LinkKind, f64)>>,
}

impl WalkPlayback {
    /// The legend's rows for the walk: the agent, its trail on and off the mesh, and the
    /// corner radius.
    pub fn legend(&self) -> Vec<crate::app::legend::LegendRow> {
        use crate::app::legend::LegendRow;
        let mut rows = vec![
            LegendRow::fill(Color32::WHITE, "the agent, its nose its heading"),
            LegendRow::line(ON, 2.5, "its trail on the mesh"),
        ];
        if self.off_mesh.iter().any(|&off| off) {
            rows.push(LegendRow::line(OFF, 4.0, "off the mesh: a corner cut"));
        }
        rows.push(LegendRow::line(
            Color32::from_white_alpha(150),
            1.0,
            "corner radius: the next corner is taken inside it",
        ));
        rows
    }

    /// Walks `waypoints` (with their `segments`, walked or a link crossed) on `mesh` with
    /// `options`, ready to play from the start.
    pub fn new(
        mesh: &NavMesh,
        waypoints: &[Vec2],
        segments: &[PathSegment],
        options: WalkOptions,
    ) -> Self {
        let walk = walk_path(waypoints, segments, options);
        let on_link = on_links(&walk);
        let off_mesh = off_mesh(mesh, &walk);
        Self {
            walk,
            time: 0.0,
            playing: true,
            waypoints: waypoints.to_vec(),
            off_mesh,
            on_link,
        }
    }

    /// Advances by `dt` seconds while playing; stops at the end. Returns true while playing.
    pub fn tick(&mut self, dt: f64) -> bool {
        if self.playing {
            self.time += dt.max(0.0);
            if self.time >= self.walk.duration() {
                self.time = self.walk.duration();
                self.playing = false;
            }
        }
        self.playing
    }

    /// The index of the state shown.
    pub fn index(&self) -> usize {
        let step = self.walk.options.step;
        ((self.time / step).floor() as usize).min(self.walk.states.len().saturating_sub(1))
    }

    /// The agent as shown.
    pub fn agent(&self) -> Option<AgentState> {
        self.walk.states.get(self.index()).copied()
    }

    /// True once the shown time is the end of the walk.
    pub fn finished(&self) -> bool {
        self.index() + 1 >= self.walk.states.len()
    }

    /// Seconds the agent spent off the mesh, up to state `k`.
    fn off_mesh_seconds(&self, k: usize) -> f64 {
        let end = k.saturating_add(1).min(self.off_mesh.len());
        self.off_mesh[..end].iter().filter(|&&off| off).count() as f64 * self.walk.options.step
    }

    /// What the agent is doing, for the canvas caption.
    pub fn caption(&self) -> String {
        let k = self.index();
        let walked = self.walk.distance_to(k);
        let time = k as f64 * self.walk.options.step;
        let off = self.off_mesh_seconds(k);
        let off_text = if off > 0.0 {
            format!("; off the mesh for {off:.2} s, cutting corners")
        } else {
            String::new()
        };
        if self.finished() {
            let path: f64 = crate::search::funnel::path_length(&self.waypoints);
            let end = if self.walk.arrived() {
                "arrived"
            } else {
                "stopped short of the goal"
            };
            let stayed = if off > 0.0 {
                off_text
            } else {
                "; it stayed on the mesh".to_string()
            };
            return format!(
                "walk: {end} after {time:.1} s, {walked:.2} walked along a path of {path:.2}{stayed}"
            );
        }
        let Some(agent) = self.agent() else {
            return "walk: nothing to walk".to_string();
        };
        let last = self.waypoints.len().saturating_sub(1);
        let heading_for = if agent.target >= last {
            "the goal".to_string()
        } else {
            format!("corner {} of {}", agent.target, last.saturating_sub(1))
        };
        let taken = self
            .walk
            .events
            .iter()
            .rev()
            .find(|&&(at, event)| at <= k && matches!(event, WalkEvent::CornerTaken { .. }));
        let radius = self.walk.options.corner_radius;
        let why = match taken {
            Some(&(_, WalkEvent::CornerTaken { corner, distance })) => format!(
                " (left corner {corner} at {distance:.2} from it, within the corner radius {radius:.2})"
            ),
            _ => String::new(),
        };
        let paused = if self.playing {
            ""
        } else {
            " (paused: W goes on)"
        };
        if let Some(Some((kind, done))) = self.on_link.get(k) {
            let how = match kind {
                LinkKind::Jump => "jumping",
                LinkKind::Drop => "dropping",
                LinkKind::Ladder => "climbing the ladder",
                LinkKind::Teleport => "teleported",
                LinkKind::Custom => "crossing",
            };
            return format!(
                "walk{paused}: {time:.1} s, {how} across the {} link, {:.0} % of the way",
                kind.name(),
                100.0 * done
            );
        }
        format!(
            "walk{paused}: {time:.1} s, {walked:.2} walked, heading for {heading_for}{why}{off_text}"
        )
    }

    /// Draws the trail so far and the agent as a disc of `radius` (world units), in `colour`,
    /// where it is: one of several agents of different sizes.
    pub fn paint_disc(&self, painter: &egui::Painter, view: View, radius: f64, colour: Color32) {
        let k = self.index();
        let states = &self.walk.states[..=k.min(self.walk.states.len().saturating_sub(1))];
        let trail: Vec<egui::Pos2> = states
            .iter()
            .map(|s| view.screen_from_world(s.position))
            .collect();
        if trail.len() >= 2 {
            painter.add(Shape::line(trail, Stroke::new(3.0, colour)));
        }
        let Some(agent) = states.last() else {
            return;
        };
        let at = view.screen_from_world(agent.position);
        let r = ((radius * view.camera.scale) as f32).max(4.0);
        painter.circle(
            at,
            r,
            colour.gamma_multiply(0.6),
            Stroke::new(2.0, Color32::BLACK),
        );
        let ahead = Vec2::new(agent.heading.cos(), agent.heading.sin());
        let nose =
            view.screen_from_world(agent.position + ahead * (1.0 / view.camera.scale.max(1e-9)));
        let direction = (nose - at).normalized();
        painter.line_segment([at, at + direction * r], Stroke::new(2.0, Color32::BLACK));
    }

    /// Draws the trail so far (cyan on the mesh, magenta off it), the corner radius around the
    /// corner headed for (around every corner at the end) and the agent with its heading.
    pub fn paint(&self, painter: &egui::Painter, view: View) {
        let k = self.index();
        let states = &self.walk.states[..=k.min(self.walk.states.len().saturating_sub(1))];
        if states.is_empty() {
            return;
        }
        // One polyline per run of states on (or off) the mesh.
        let mut run: Vec<egui::Pos2> = Vec::new();
        let mut run_off = self.off_mesh.first().copied().unwrap_or(false);
        let flush = |run: &mut Vec<egui::Pos2>, off: bool| {
            if run.len() >= 2 {
                let stroke = if off {
                    Stroke::new(4.0, OFF)
                } else {
                    Stroke::new(2.5, ON)
                };
                painter.add(Shape::line(std::mem::take(run), stroke));
            }
            run.clear();
        };
        for (i, state) in states.iter().enumerate() {
            let off = self.off_mesh.get(i).copied().unwrap_or(false);
            let at = view.screen_from_world(state.position);
            if off != run_off {
                run.push(at);
                flush(&mut run, run_off);
                run_off = off;
            }
            run.push(at);
        }
        flush(&mut run, run_off);
        let Some(agent) = states.last() else {
            return;
        };
        // The corner radius around the corner headed for (around every corner at the end).
        let radius = ((self.walk.options.corner_radius * view.camera.scale) as f32).max(3.0);
        let last = self.waypoints.len().saturating_sub(1);
        let corners = if self.finished() {
            1..last
        } else {
            agent.target..(agent.target + 1).min(last)
        };
        for corner in self.waypoints.get(corners).unwrap_or_default() {
            painter.circle_stroke(
                view.screen_from_world(*corner),
                radius,
                Stroke::new(1.0, Color32::from_white_alpha(150)),
            );
        }
        let size = ((0.25 * view.camera.scale) as f32).clamp(6.0, 16.0);
        // In the air over a jump: lifted on an arc, its shadow where it is.
        let at = view.screen_from_world(agent.position);
        let at = match self.on_link.get(states.len() - 1) {
            Some(Some((LinkKind::Jump, done))) => {
                painter.circle_filled(at, size * 0.8, Color32::from_black_alpha(120));
                at - egui::vec2(
                    0.0,
                    3.0 * size * (std::f32::consts::PI * *done as f32).sin(),
                )
            }
            _ => at,
        };
        let ahead = Vec2::new(agent.heading.cos(), agent.heading.sin());
        let nose =
            view.screen_from_world(agent.position + ahead * (1.0 / view.camera.scale.max(1e-9)));
        let direction = (nose - at).normalized();
        painter.circle_filled(at, size, Color32::WHITE);
        painter.circle_stroke(at, size, Stroke::new(1.5, Color32::BLACK));
        painter.line_segment(
            [at, at + direction * size * 1.8],
            Stroke::new(3.0, Color32::BLACK),
        );
    }
}
