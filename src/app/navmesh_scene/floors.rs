//! Heights and stacked floors in the navmesh view: which floor the start and the goal are on
//! (a click takes the topmost, L the one below), the height under the pointer, colours by
//! height with their legend, and the painting order that puts higher floors on top.

use super::NavmeshScene;
use crate::geom::Vec2;
use crate::navmesh::{NavMesh, TriId};
use egui::Color32;

/// The start or the goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum End {
    /// The start.
    #[default]
    Start,
    /// The goal.
    Goal,
}

impl End {
    /// "start" or "goal".
    pub fn name(self) -> &'static str {
        match self {
            End::Start => "start",
            End::Goal => "goal",
        }
    }
}

/// Which floor each end is on, by its height there (`None`: the topmost), and which end was
/// placed last (the one L moves).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FloorChoice {
    /// The start's floor height.
    pub start: Option<f64>,
    /// The goal's floor height.
    pub goal: Option<f64>,
    /// The end placed last.
    pub last: End,
}

impl FloorChoice {
    /// The floor height kept for `end`.
    pub fn height(&self, end: End) -> Option<f64> {
        match end {
            End::Start => self.start,
            End::Goal => self.goal,
        }
    }

    fn set(&mut self, end: End, height: Option<f64>) {
        match end {
            End::Start => self.start = height,
            End::Goal => self.goal = height,
        }
    }
}

/// Where an end is: its floor's number from the top (1 = topmost) among the floors there, and
/// its height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloorAt {
    /// 1 for the topmost floor at the point.
    pub number: usize,
    /// How many floors hold the point.
    pub of: usize,
    /// The floor's height at the point.
    pub height: f64,
}

/// The floor at `p` nearest `height` (the topmost without one), numbered from the top.
pub fn floor_at(mesh: &NavMesh, p: Vec2, height: Option<f64>) -> Option<FloorAt> {
    let floors = mesh.floors_at(p);
    let index = crate::navmesh::locate::nearest_floor(&floors, height)?;
    let floor = floors.get(index)?;
    Some(FloorAt {
        number: index + 1,
        of: floors.len(),
        height: floor.height,
    })
}

/// The colour of a height `t` of the way from the lowest (0) to the highest (1): dark blue
/// through teal and green to pale yellow, bright enough under the search's lines.
pub fn height_colour(t: f64) -> Color32 {
    const STOPS: [[f32; 3]; 5] = [
        [40.0, 50.0, 120.0],
        [35.0, 110.0, 140.0],
        [50.0, 150.0, 100.0],
        [150.0, 180.0, 60.0],
        [235.0, 220.0, 120.0],
    ];
    crate::app::ink::ramp(&STOPS, t)
}

/// One triangle as the canvas paints it: its id, then its corners, in 16 bytes, so that painting
/// in [`draw_order`] reads one array front to back rather than the mesh's triangles out of order.
pub type DrawTriangle = [u32; 4];

/// The triangles in painting order, lowest floor first, so that where floors overlap the
/// higher one is seen (id order for a flat mesh), each with its corners.
pub fn draw_order(mesh: &NavMesh) -> Vec<DrawTriangle> {
    let entry = |t: TriId| {
        let [a, b, c] = mesh.triangles()[t].vertices.map(|v| v as u32);
        [t as u32, a, b, c]
    };
    let mut order: Vec<DrawTriangle> = (0..mesh.triangles().len()).map(entry).collect();
    let [low, high] = mesh.height_span();
    if high > low {
        let heights = mesh.heights();
        let mean = |[_, a, b, c]: DrawTriangle| {
            [a, b, c]
                .iter()
                .map(|&v| heights.get(v as usize).copied().unwrap_or(0.0))
                .sum::<f64>()
        };
        order.sort_by(|&x, &y| mean(x).total_cmp(&mean(y)).then(x[0].cmp(&y[0])));
    }
    order
}

impl NavmeshScene {
    /// Puts `end` at `p`: on the topmost floor there for a new placement, on the floor nearest
    /// the one it was on when `keep_floor` (a drag, following ramps and stairs). Searches again.
    pub fn put_end(&mut self, end: End, p: Vec2, keep_floor: bool) {
        let kept = if keep_floor {
            self.query.floors.height(end)
        } else {
            None
        };
        let height = floor_at(self.view.mesh(), p, kept).map(|f| f.height);
        self.query.floors.set(end, height);
        self.query.floors.last = end;
        match end {
            End::Start => self.query.start = p,
            End::Goal => self.query.goal = p,
        }
        self.query.playback.cursor = usize::MAX;
        self.query.playback.playing = false;
        self.rerun();
    }

    /// Moves the end placed last to the floor below it at its point (from the lowest, back to
    /// the topmost) and searches again; false (nothing changes) where there is one floor.
    pub fn next_floor_down(&mut self) -> bool {
        let end = self.query.floors.last;
        let p = match end {
            End::Start => self.query.start,
            End::Goal => self.query.goal,
        };
        let floors = self.view.mesh().floors_at(p);
        if floors.len() < 2 {
            return false;
        }
        let now = floor_at(self.view.mesh(), p, self.query.floors.height(end))
            .map_or(0, |f| f.number - 1);
        let next = (now + 1) % floors.len();
        self.query
            .floors
            .set(end, floors.get(next).map(|f| f.height));
        self.query.playback.cursor = usize::MAX;
        self.query.playback.playing = false;
        self.rerun();
        true
    }

    /// Where `end` is, floor by floor.
    pub fn end_floor(&self, end: End) -> Option<FloorAt> {
        let p = match end {
            End::Start => self.query.start,
            End::Goal => self.query.goal,
        };
        floor_at(self.view.mesh(), p, self.query.floors.height(end))
    }

    /// The status bar's words on floors: each end on a floor shared with others, and the
    /// floors under the pointer. Empty on a mesh with no overlapping floors there.
    pub fn floor_status(&self) -> String {
        let mut parts = Vec::new();
        for end in [End::Start, End::Goal] {
            if let Some(at) = self.end_floor(end).filter(|f| f.of > 1) {
                parts.push(format!(
                    "{} on floor {} of {} (height {:.3})",
                    end.name(),
                    at.number,
                    at.of,
                    at.height
                ));
            }
        }
        if !parts.is_empty() {
            parts.push(format!(
                "L: {} to the floor below",
                self.query.floors.last.name()
            ));
        }
        parts.join(" · ")
    }

    /// The floors under the pointer, topmost first, as (triangle, height).
    pub fn hover_floors(&self) -> Vec<crate::navmesh::Floor> {
        self.screen
            .hover_world
            .map(|p| self.view.mesh().floors_at(p))
            .unwrap_or_default()
    }

    /// The legend's rows for colours by height: five heights from the lowest to the highest.
    pub fn height_legend(&self) -> Vec<(Color32, String)> {
        let [low, high] = self.view.mesh().height_span();
        (0..5)
            .rev()
            .map(|k| {
                let t = f64::from(k) / 4.0;
                (
                    height_colour(t),
                    format!("height {:.2}", low + t * (high - low)),
                )
            })
            .collect()
    }
}
