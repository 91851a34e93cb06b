//! The recorded steps of one query (A* events, then funnel events) and the state they add up to
//! at any step, replayed forward and back. No egui here: this is what the canvas draws from.

use crate::geom::Vec2;
use crate::navmesh::{Path, TriId};
use crate::search::funnel::{FunnelEvent, FunnelState};
use crate::search::{ExpansionSteps, SearchEvent, SearchOutcome};

/// One recorded step.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A step of A* over triangles.
    Search(SearchEvent),
    /// A step of the funnel algorithm.
    Funnel(FunnelEvent),
}

impl Step {
    /// One plain sentence for the event log.
    pub fn explain(&self) -> String {
        match self {
            Step::Search(e) => format!("A*: {}", crate::navmesh::explain_search_step(e)),
            Step::Funnel(e) => format!("funnel: {}", e.explain()),
        }
    }
}

/// Where a triangle stands in the search at some step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TriangleStatus {
    /// Not reached yet.
    #[default]
    Unseen,
    /// In the open list (the frontier).
    Open,
    /// Expanded (visited).
    Closed,
}

/// Everything recorded about one query.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    steps: Vec<Step>,
    search_steps: usize,
    open_sizes: Vec<u32>,
    triangle_count: usize,
    /// A*'s steps on the nodes it searches, when they are not the triangles (the midpoint
    /// model's states), one per search step; what the open list is replayed from.
    states: Vec<SearchEvent>,
    /// The steps that expanded each triangle.
    expansion_steps: ExpansionSteps,
    /// The final answer of the query.
    pub path: Option<Path>,
}

impl Timeline {
    /// Records a query's traces.
    pub fn new(
        triangle_count: usize,
        search: Vec<SearchEvent>,
        funnel: Vec<FunnelEvent>,
        path: Option<Path>,
    ) -> Self {
        let search_steps = search.len();
        let mut open_sizes = Vec::with_capacity(search_steps);
        let mut open: i64 = 0;
        for event in &search {
            match event {
                SearchEvent::Opened { .. } => open += 1,
                SearchEvent::Expanded { .. } => open -= 1,
                _ => {}
            }
            open_sizes.push(open.max(0) as u32);
        }
        let expansion_steps = ExpansionSteps::new(&search);
        let steps = search
            .into_iter()
            .map(Step::Search)
            .chain(funnel.into_iter().map(Step::Funnel))
            .collect();
        Self {
            steps,
            search_steps,
            open_sizes,
            triangle_count,
            states: Vec::new(),
            expansion_steps,
            path,
        }
    }

    /// With A*'s steps on its own nodes (see [`find_path_with_states`]); ignored unless there
    /// is one per search step.
    ///
    /// [`find_path_with_states`]: crate::navmesh::find_path_with_states
    pub fn with_states(mut self, states: Vec<SearchEvent>) -> Self {
        if states.len() == self.search_steps {
            self.states = states;
        }
        self
    }

    /// All steps, A* first.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// How many of the steps belong to A*.
    pub fn search_steps(&self) -> usize {
        self.search_steps
    }

    /// Size of the open list after each A* step (for the chart).
    pub fn open_sizes(&self) -> &[u32] {
        &self.open_sizes
    }

    /// The steps at which A* expanded each triangle (A*'s steps come first, so they are the
    /// timeline's own step numbers).
    pub fn expansion_steps(&self) -> &ExpansionSteps {
        &self.expansion_steps
    }

    /// Triangles in the mesh the query ran on.
    pub fn triangle_count(&self) -> usize {
        self.triangle_count
    }
}

/// The state after the first `cursor` steps of a timeline.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    cursor: usize,
    /// Search status per triangle.
    pub status: Vec<TriangleStatus>,
    /// Cost from the start per triangle (NaN when never reached).
    pub g: Vec<f32>,
    /// Heuristic per triangle (NaN when never reached).
    pub h: Vec<f32>,
    /// Parent per triangle (`u32::MAX`: none).
    pub parent: Vec<u32>,
    /// 1-based expansion order per triangle (0: not expanded).
    pub visit_order: Vec<u32>,
    /// The triangle expanded by the latest A* step.
    pub current: Option<TriId>,
    /// Set once A* has finished.
    pub search_outcome: Option<SearchOutcome>,
    /// The funnel, once it has started.
    pub funnel: Option<FunnelState>,
    /// The portal being examined.
    pub portal: Option<usize>,
    /// Start and the corners emitted so far.
    pub corners: Vec<Vec2>,
    /// Set once the funnel has finished.
    pub funnel_done: bool,
    /// A*'s open list as the steps so far leave it, of A*'s nodes: triangles for the centroid
    /// model, [`MidpointStates`](crate::navmesh::MidpointStates) for the midpoint model.
    pub frontier: crate::search::Frontier,
    expanded: u32,
}

impl Replay {
    /// The state before any step.
    pub fn new(triangle_count: usize) -> Self {
        Self {
            cursor: 0,
            status: vec![TriangleStatus::Unseen; triangle_count],
            g: vec![f32::NAN; triangle_count],
            h: vec![f32::NAN; triangle_count],
            parent: vec![u32::MAX; triangle_count],
            visit_order: vec![0; triangle_count],
            ..Self::default()
        }
    }

    /// How many steps have been applied.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Moves to `cursor` (clamped to the timeline): forward by applying steps, back by
    /// replaying from the start.
    pub fn seek(&mut self, timeline: &Timeline, cursor: usize) {
        let cursor = cursor.min(timeline.len());
        if cursor < self.cursor || self.status.len() != timeline.triangle_count() {
            *self = Replay::new(timeline.triangle_count());
        }
        while self.cursor < cursor {
            match &timeline.steps()[self.cursor] {
                Step::Search(event) => {
                    let on_nodes = timeline.states.get(self.cursor).unwrap_or(event);
                    self.apply_search(event, on_nodes);
                }
                Step::Funnel(event) => self.apply_funnel(event),
            }
            self.cursor += 1;
        }
    }

    /// Applies a search step on triangles; `on_nodes` is the same step on A*'s nodes, for the
    /// open list.
    fn apply_search(&mut self, event: &SearchEvent, on_nodes: &SearchEvent) {
        self.frontier.apply(on_nodes);
        let n = self.status.len();
        match *event {
            // A triangle already reached through another edge (midpoint model) stays as it is.
            SearchEvent::Opened { node, parent, g, h }
                if node < n && self.status[node] == TriangleStatus::Unseen =>
            {
                self.status[node] = TriangleStatus::Open;
                self.set_costs(node, parent, g, h);
            }
            SearchEvent::Improved { node, parent, g, h }
                if node < n && self.status[node] == TriangleStatus::Open =>
            {
                self.set_costs(node, Some(parent), g, h);
            }
            SearchEvent::Expanded { node, g, h } if node < n => {
                if self.status[node] != TriangleStatus::Closed {
                    self.status[node] = TriangleStatus::Closed;
                    self.expanded += 1;
                    self.visit_order[node] = self.expanded;
                    self.g[node] = g as f32;
                    self.h[node] = h as f32;
                }
                self.current = Some(node);
            }
            SearchEvent::Finished { outcome, .. } => {
                self.current = None;
                self.search_outcome = Some(outcome);
            }
            _ => {}
        }
    }

    fn set_costs(&mut self, node: usize, parent: Option<usize>, g: f64, h: f64) {
        self.g[node] = g as f32;
        self.h[node] = h as f32;
        self.parent[node] = parent.map_or(u32::MAX, |p| p as u32);
    }

    fn apply_funnel(&mut self, event: &FunnelEvent) {
        match event {
            FunnelEvent::Started { state } => {
                self.funnel = Some(*state);
                self.corners = vec![state.apex];
            }
            FunnelEvent::PortalConsidered { portal, state } => {
                self.portal = Some(*portal);
                self.funnel = Some(*state);
            }
            FunnelEvent::Narrowed { state, .. } => self.funnel = Some(*state),
            FunnelEvent::Kept { .. } => {}
            FunnelEvent::Corner { corner, state, .. } => {
                self.corners.push(*corner);
                self.funnel = Some(*state);
            }
            FunnelEvent::Done { .. } => {
                self.funnel_done = true;
                self.portal = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::{NavMesh, Plane, QueryOptions, find_path, obj};

    fn recorded() -> Timeline {
        let scene = crate::assets::ROOMS;
        let mesh: NavMesh = obj::parse(scene.obj, scene.name, Plane::Xz).expect("asset");
        let (mut search, mut funnel) = (Vec::new(), Vec::new());
        let path = find_path(
            &mesh,
            Vec2::new(scene.start.0, scene.start.1),
            Vec2::new(scene.goal.0, scene.goal.1),
            QueryOptions::default(),
            &mut search,
            &mut funnel,
        );
        Timeline::new(mesh.triangles().len(), search, funnel, path)
    }

    #[test]
    fn seeking_back_gives_the_same_state_as_seeking_forward() {
        let timeline = recorded();
        let mut forward = Replay::new(timeline.triangle_count());
        let mut states = Vec::new();
        for k in 0..=timeline.len() {
            forward.seek(&timeline, k);
            states.push((
                forward.status.clone(),
                forward.corners.clone(),
                forward.funnel,
            ));
        }
        let mut back = Replay::new(timeline.triangle_count());
        back.seek(&timeline, timeline.len());
        for k in (0..=timeline.len()).rev() {
            back.seek(&timeline, k);
            assert_eq!(back.cursor(), k);
            assert_eq!(
                (back.status.clone(), back.corners.clone(), back.funnel),
                states[k]
            );
        }
    }

    #[test]
    fn the_end_state_matches_the_query_answer() {
        let timeline = recorded();
        let path = timeline.path.clone().expect("path");
        let mut replay = Replay::new(timeline.triangle_count());
        replay.seek(&timeline, usize::MAX);
        assert!(replay.funnel_done);
        assert_eq!(replay.search_outcome, Some(SearchOutcome::Found));
        let closed = replay
            .status
            .iter()
            .filter(|&&s| s == TriangleStatus::Closed)
            .count();
        assert_eq!(closed, path.expanded);
        // Emitted corners plus the goal are the waypoints.
        let mut corners = replay.corners.clone();
        corners.push(path.goal.point);
        corners.dedup();
        assert_eq!(corners, path.waypoints);
        assert_eq!(timeline.open_sizes().len(), timeline.search_steps());
        // The step that ends A* names the corridor's cost; the funnel's last step the length.
        let end_of_search = &timeline.steps()[timeline.search_steps() - 1];
        let Step::Search(SearchEvent::Finished { cost, .. }) = end_of_search else {
            panic!("A* ends with Finished, not {end_of_search:?}");
        };
        assert_eq!(*cost, path.corridor_cost);
        assert!(
            end_of_search
                .explain()
                .contains(&format!("the corridor costs {:.2}", path.corridor_cost)),
            "{}",
            end_of_search.explain()
        );
        let last = timeline.steps().last().expect("steps").explain();
        assert!(
            last.contains(&format!("length {:.3}", path.length)),
            "{last}"
        );
    }
}
