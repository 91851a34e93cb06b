//! What the window keeps of the navmesh scene between frames: the camera, where the canvas and
//! its legend were drawn, the point under the pointer, the drag in progress, the side panel's
//! tab, the step list's scrolling, the open-list chart and a message for the status bar.

use super::{Drag, SideTab};
use crate::app::camera::CanvasCamera;
use crate::geom::Vec2;
use egui::Rect;

/// The scene's state on screen.
pub struct Screen {
    /// The view: fitted to the mesh until the user pans or zooms.
    pub camera: CanvasCamera,
    /// The marker or the view being dragged.
    pub(super) drag: Option<Drag>,
    /// World position under the pointer, for the status bar.
    pub hover_world: Option<Vec2>,
    /// Where the canvas was drawn last frame.
    pub canvas_rect: Option<Rect>,
    /// Where the legend was drawn at the last frame (`None` when hidden).
    pub legend_rect: Option<Rect>,
    /// Which tab the right panel shows.
    pub side_tab: SideTab,
    /// Set when the event log should scroll to the cursor.
    pub(super) follow_log: bool,
    /// The open-list chart's points, and what they were worked out for.
    pub(super) open_chart: Option<(super::controls::OpenChartKey, Vec<[f64; 2]>)>,
    /// Why the shortest path takes or leaves each link near the query, for the mesh revision,
    /// start and goal it was worked out for.
    pub(super) link_verdicts: Option<(LinkVerdictKey, Vec<String>)>,
    /// A message for the status bar from the canvas (an edit refused).
    pub(super) pending_notice: Option<String>,
    /// The clearance being worked out.
    pub(super) clearance_jobs: super::clearance::ClearanceJobs,
    /// The widest route between the start and goal, for the mesh and ends it was found for.
    pub(super) widest: Option<(
        super::clearance::WidestKey,
        crate::navmesh::widest::WidestRoute,
    )>,
}

impl Default for Screen {
    fn default() -> Self {
        Self {
            camera: CanvasCamera::default(),
            drag: None,
            hover_world: None,
            canvas_rect: None,
            legend_rect: None,
            side_tab: SideTab::default(),
            follow_log: true,
            open_chart: None,
            link_verdicts: None,
            pending_notice: None,
            clearance_jobs: Default::default(),
            widest: None,
        }
    }
}

/// What the link verdicts were worked out for: the edited mesh's revision, the start and the
/// goal.
pub(super) type LinkVerdictKey = (u64, [u64; 4]);
