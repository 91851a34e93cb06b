//! The navmesh view's room for agents: the mesh coloured by each triangle's clearance (narrow
//! red to wide blue, with a legend in world units), and an agent radius that greys the
//! triangles and marks the portals too narrow for it. The clearance is worked out once per
//! mesh, on a worker for large meshes.

use super::NavmeshScene;
use crate::app::latest_worker::LatestWorker;
use crate::app::legend::LegendRow;
use crate::navmesh::NavMesh;
use crate::navmesh::TriId;
use crate::navmesh::clearance::Clearance;
use crate::navmesh::widest::{RouteLimit, WidestRoute};
use egui::{Color32, Ui};
use std::sync::Arc;

/// Meshes with at least this many triangles have their clearance worked out on the worker
/// (about 15 to 45 µs a triangle).
pub(super) const BACKGROUND_TRIANGLES: usize = 5_000;

/// A triangle too narrow for the agent radius: drawn over in this.
pub const TOO_NARROW: Color32 = Color32::from_rgb(60, 62, 68);

/// A portal too narrow for the agent radius.
pub const NARROW_PORTAL: Color32 = Color32::from_rgb(255, 70, 70);

/// The portal that stops the disc radius set between the start and goal.
pub const LIMITING_PORTAL: Color32 = Color32::from_rgb(255, 90, 230);

/// What a widest route was found for: the mesh (its address) and the ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WidestKey {
    mesh: usize,
    ends: [[u64; 2]; 2],
    triangles: [TriId; 2],
}

/// The clearance being worked out for the mesh shown.
pub struct ClearanceJobs {
    /// Works out a mesh's clearance, from the last mesh's when there is one (after an edit,
    /// only near the walls it changed).
    worker: LatestWorker<(Option<Arc<NavMesh>>, Arc<NavMesh>), ()>,
    /// The last mesh whose clearance was worked out.
    last: Option<Arc<NavMesh>>,
    /// The mesh whose clearance was asked for (its address), while it is worked out.
    asked: Option<usize>,
    generation: u64,
}

impl std::fmt::Debug for ClearanceJobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClearanceJobs")
            .field("asked", &self.asked)
            .finish_non_exhaustive()
    }
}

impl ClearanceJobs {
    /// The last mesh whose clearance was worked out (what an edited mesh's is carried from).
    pub fn last_mesh(&self) -> Option<Arc<NavMesh>> {
        self.last.clone()
    }
}

impl Default for ClearanceJobs {
    fn default() -> Self {
        Self {
            // The mesh keeps what it works out: the answer is on the mesh.
            worker: LatestWorker::new(
                "navlab clearance",
                |(before, mesh): (Option<Arc<NavMesh>>, Arc<NavMesh>)| {
                    match before {
                        Some(before) => mesh.clearance_after_edit(&before),
                        None => mesh.clearance(),
                    };
                },
            ),
            last: None,
            asked: None,
            generation: 0,
        }
    }
}

/// The colour of a clearance `share` of the widest (0 narrow, 1 wide): red, orange, yellow,
/// green, blue.
pub fn clearance_colour(share: f64) -> Color32 {
    const STOPS: [[f32; 3]; 5] = [
        [200.0, 50.0, 45.0],
        [235.0, 130.0, 50.0],
        [235.0, 205.0, 90.0],
        [100.0, 185.0, 115.0],
        [60.0, 135.0, 215.0],
    ];
    crate::app::ink::ramp(&STOPS, share)
}

/// The widest clearance of `clearance`'s triangles that is finite (1 when none is): the
/// colour scale's top. Worked out once, with the clearance.
fn widest(clearance: &Clearance) -> f64 {
    let widest = clearance.widest();
    if widest > 0.0 { widest } else { 1.0 }
}

impl NavmeshScene {
    /// Whether anything shown needs the clearance.
    fn clearance_wanted(&self) -> bool {
        let d = &self.settings.display;
        d.clearance_colours || d.fit_radius > 0.0 || d.agents.iter().any(|&r| r > 0.0)
    }

    /// The mesh's clearance, once worked out.
    pub fn clearance(&self) -> Option<&Arc<Clearance>> {
        self.view.mesh().clearance_if_made()
    }

    /// Starts working out the clearance when it is wanted and not there (here for a small
    /// mesh, on the worker for a large one); true while the worker is at it.
    pub(super) fn poll_clearance(&mut self) -> bool {
        let jobs = &mut self.screen.clearance_jobs;
        if jobs.worker.take().is_some() {
            jobs.asked = None;
        }
        if !self.clearance_wanted() || self.clearance().is_some() {
            if self.clearance().is_some() {
                let mesh = self.view.mesh();
                let jobs = &mut self.screen.clearance_jobs;
                if !jobs.last.as_ref().is_some_and(|m| Arc::ptr_eq(m, mesh)) {
                    jobs.last = Some(Arc::clone(mesh));
                }
            }
            self.poll_widest();
            return false;
        }
        let mesh = Arc::clone(self.view.mesh());
        let key = Arc::as_ptr(&mesh) as usize;
        let jobs = &mut self.screen.clearance_jobs;
        if jobs.asked == Some(key) {
            return true;
        }
        jobs.generation += 1;
        let background = mesh.triangles().len() >= BACKGROUND_TRIANGLES;
        jobs.asked = Some(key);
        let before = jobs.last.take();
        if jobs
            .worker
            .answer_or_submit(jobs.generation, (before, mesh), background)
            .is_some()
        {
            jobs.asked = None;
            return false;
        }
        true
    }

    /// The widest route between the path's start and goal, worked out again when the mesh
    /// or the ends change (only while a disc radius is set).
    fn poll_widest(&mut self) {
        let radius = self.settings.display.fit_radius;
        let ends = self.query.timeline.path.as_ref().map(|p| (p.start, p.goal));
        let (Some(clearance), Some((start, goal))) = (self.clearance().cloned(), ends) else {
            self.screen.widest = None;
            return;
        };
        if radius <= 0.0 {
            self.screen.widest = None;
            return;
        }
        let mesh = Arc::clone(self.view.mesh());
        let key = WidestKey {
            mesh: Arc::as_ptr(&mesh) as usize,
            ends: [start.point, goal.point].map(|p| [p.x.to_bits(), p.y.to_bits()]),
            triangles: [start.triangle, goal.triangle],
        };
        if self.screen.widest.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let route = crate::navmesh::widest::widest_route_with(&mesh, &clearance, &start, &goal);
        self.screen.widest = Some((key, route));
    }

    /// The widest route between the start and goal, when a disc radius is set.
    pub fn widest_route(&self) -> Option<&WidestRoute> {
        self.screen.widest.as_ref().map(|(_, route)| route)
    }

    /// What the widest route says of the disc radius set: it fits, or what stops it.
    pub fn radius_sentence(&self) -> Option<String> {
        let route = self.widest_route()?;
        let radius = self.settings.display.fit_radius;
        let mesh = self.view.mesh();
        let clearance = self.clearance()?;
        Some(match route.limit {
            RouteLimit::NoRoute => "The start and goal are on different islands.".to_owned(),
            _ if route.radius >= radius && self.corridor_refused() => format!(
                "A disc of radius {radius:.2} crosses every portal of a route from the start to \
                 the goal, but the corridor A* chose is narrower than that between two portals, \
                 so no path is shown; Shortest path too searches exactly for the radius."
            ),
            _ if route.radius >= radius => format!(
                "A disc of radius {radius:.2} crosses every portal of a route from the start to \
                 the goal (the largest that does: {:.2}).",
                route.radius
            ),
            RouteLimit::Portal(edge) => {
                let centre = clearance.portal_centre(edge).unwrap_or_default();
                let length = clearance.portal_room(mesh, edge).map_or(0.0, |p| p.length);
                format!(
                    "No route for radius {radius:.2}: the portal at ({:.2}, {:.2}) lets through \
                     radius {:.2} at most ({:.2} wide, {length:.2} long), and every route has \
                     one as narrow. The largest agent that reaches the goal has radius {:.2}.",
                    centre.x,
                    centre.y,
                    route.radius,
                    2.0 * route.radius,
                    route.radius
                )
            }
            RouteLimit::Start | RouteLimit::Goal => format!(
                "No room for radius {radius:.2}: the {} is {:.2} from a wall.",
                if route.limit == RouteLimit::Start {
                    "start"
                } else {
                    "goal"
                },
                route.radius
            ),
        })
    }

    /// True when the query ran for the agent radius and found no path.
    fn corridor_refused(&self) -> bool {
        self.query.timeline.path.as_ref().is_some_and(|p| {
            p.status == crate::navmesh::PathStatus::Unreachable
                && p.radius > 0.0
                && p.radius == self.settings.display.fit_radius
        })
    }

    /// Outlines the portal that stops the disc radius set, with its radius.
    pub(super) fn paint_limiting_portal(
        &self,
        painter: &egui::Painter,
        view: crate::app::camera::View,
    ) {
        let radius = self.settings.display.fit_radius;
        let (Some(route), Some(clearance)) = (self.widest_route(), self.clearance()) else {
            return;
        };
        let RouteLimit::Portal(edge) = route.limit else {
            return;
        };
        if route.radius >= radius {
            return;
        }
        let Some(portal) = clearance.portal_room(self.view.mesh(), edge) else {
            return;
        };
        let (a, b) = (
            view.screen_from_world(portal.from),
            view.screen_from_world(portal.to),
        );
        painter.line_segment([a, b], egui::Stroke::new(7.0, Color32::WHITE));
        painter.line_segment([a, b], egui::Stroke::new(4.0, LIMITING_PORTAL));
        crate::app::camera::paint_tag(
            painter,
            a.lerp(b, 0.5) + egui::vec2(8.0, -8.0),
            format!("radius {:.2} at most", portal.clearance),
            LIMITING_PORTAL,
        );
    }

    /// Waits for the clearance being worked out (tests and pictures).
    pub fn wait_for_clearance(&mut self) {
        self.poll_clearance();
        let jobs = &mut self.screen.clearance_jobs;
        if jobs.asked.is_some() {
            jobs.worker.wait(std::time::Duration::from_secs(600));
            jobs.asked = None;
        }
    }

    /// The fill colour of triangle `t` by clearance, or greyed when it holds no disc of the
    /// radius asked for; `None` when neither is shown (or the clearance is not there yet).
    pub(super) fn clearance_fill(&self, t: TriId) -> Option<Color32> {
        let clearance = self.clearance()?;
        let d = &self.settings.display;
        let room = clearance.triangle(t);
        if d.fit_radius > 0.0 && room < d.fit_radius {
            return Some(TOO_NARROW);
        }
        d.clearance_colours
            .then(|| clearance_colour(room / widest(clearance)))
    }

    /// What the fill shows of the clearance: the colouring, the radius, and whether the
    /// clearance is there (the fill is built again when any changes).
    pub(super) fn clearance_key(&self) -> (bool, u64, bool) {
        let d = &self.settings.display;
        (
            d.clearance_colours,
            d.fit_radius.to_bits(),
            self.clearance().is_some(),
        )
    }

    /// The portals too narrow for the agent radius, as segments.
    pub(super) fn narrow_portals(&self) -> Vec<[crate::geom::Vec2; 2]> {
        let radius = self.settings.display.fit_radius;
        let Some(clearance) = self.clearance().filter(|_| radius > 0.0) else {
            return Vec::new();
        };
        let mesh = self.view.mesh();
        mesh.edges()
            .iter()
            .enumerate()
            .filter(|(e, edge)| !edge.is_border() && clearance.portal(*e) < radius)
            .map(|(_, edge)| edge.vertices.map(|v| mesh.vertices()[v]))
            .collect()
    }

    /// The legend's rows for the clearance shown.
    pub(super) fn clearance_legend(&self) -> Vec<LegendRow> {
        let Some(clearance) = self.clearance() else {
            return Vec::new();
        };
        let d = &self.settings.display;
        let mut rows = Vec::new();
        if d.clearance_colours {
            let widest = widest(clearance);
            for k in 0..=4 {
                let share = f64::from(k) / 4.0;
                let words = match k {
                    0 => "clearance 0 (a wall at hand)".to_owned(),
                    4 => format!("clearance {:.2} (the widest)", widest),
                    _ => format!("clearance {:.2}", share * widest),
                };
                rows.push(LegendRow::fill(clearance_colour(share), words));
            }
        }
        let stopped = self
            .widest_route()
            .is_some_and(|r| matches!(r.limit, RouteLimit::Portal(_)) && r.radius < d.fit_radius);
        if stopped {
            rows.push(LegendRow::line(
                LIMITING_PORTAL,
                4.0,
                "the portal that stops the radius between start and goal",
            ));
        }
        if d.fit_radius > 0.0 {
            rows.push(LegendRow::fill(
                TOO_NARROW,
                format!("holds no disc of radius {:.2}", d.fit_radius),
            ));
            rows.push(LegendRow::line(
                NARROW_PORTAL,
                3.0,
                format!("portal no disc of radius {:.2} crosses", d.fit_radius),
            ));
        }
        rows
    }

    /// The controls: the colouring and the agent radius.
    pub(super) fn clearance_ui(&mut self, ui: &mut Ui) {
        let d = &mut self.settings.display;
        if ui
            .checkbox(&mut d.clearance_colours, "Colour by clearance")
            .on_hover_text(
                "Fill each triangle by its clearance: the radius of the largest disc centred in it \
                 that no wall enters (narrow red, wide blue; the legend gives the radii)",
            )
            .changed()
            && d.clearance_colours
        {
            d.height_colours = false;
        }
        let widest = self.clearance().map_or(10.0, |c| widest(c));
        let d = &mut self.settings.display;
        if !(d.fit_radius.is_finite() && d.fit_radius >= 0.0) {
            d.fit_radius = 0.0;
        }
        ui.add(
            egui::Slider::new(&mut d.fit_radius, 0.0..=widest)
                .text("Agent radius")
                .max_decimals(2),
        )
        .on_hover_text(
            "The agent's radius: the path keeps this far from every wall, turning round \
                 corners on arcs, and crosses only portals wide enough. Greys the triangles that \
                 hold no disc of this radius and marks the portals none crosses (a portal's \
                 clearance is bounded by the walls beside it, not its length); 0: a point",
        );
        self.agents_ui(ui, widest);
        if self.screen.clearance_jobs.asked.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("working out the clearance…");
            });
        }
        if let Some(sentence) = self.radius_sentence() {
            ui.label(egui::RichText::new(sentence).small());
        }
    }

    /// The tooltip's line for triangle `t`.
    pub(super) fn clearance_words(&self, t: TriId) -> Option<String> {
        let clearance = self.clearance()?;
        Some(format!(
            "clearance {:.3}: the largest disc centred in it",
            clearance.triangle(t)
        ))
    }
}
