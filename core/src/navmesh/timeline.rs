//! The recorded steps of one path query on a navmesh — A\*'s events, then the funnel's, then
//! (when asked for) Polyanya's search for the shortest path — and the state they add up to at
//! any step, replayed forward and back: what a view of the query draws.

use super::anyangle::{
    OptimalPath, PolyanyaEvent, SearchFaces, shortest_path, shortest_path_walking,
};
use super::query::{QueryOptions, find_path_located};
use super::{Location, NavMesh, Path, TriId};
use crate::geom::Vec2;
use crate::search::funnel::{FunnelEvent, FunnelState};
use crate::search::{ExpansionSteps, ListKind, NoObserver, NodesShown, SearchEvent, SearchReplay};

/// One recorded step.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A step of A\* over triangles.
    Search(SearchEvent),
    /// A step of the funnel algorithm.
    Funnel(FunnelEvent),
    /// A step of Polyanya's search for the shortest path.
    Polyanya(PolyanyaEvent),
}

impl Step {
    /// One plain sentence for a step list.
    pub fn explain(&self) -> String {
        self.explain_with(None)
    }

    /// [`explain`](Self::explain), naming each triangle's area type and cost when `areas`
    /// says it is not plain ground.
    fn explain_with(&self, areas: Option<&AreaLabels>) -> String {
        match self {
            Step::Search(e) => {
                let sentence = match areas {
                    Some(areas) => super::query::explain_search_step_named(e, |t| areas.name(t)),
                    None => super::explain_search_step(e),
                };
                format!("A*: {sentence}")
            }
            Step::Funnel(e) => format!("funnel: {}", e.explain()),
            Step::Polyanya(e) => format!("shortest path: {}", e.explain()),
        }
    }
}

/// What the step sentences say of each triangle's area type: "triangle 12 (mud, cost × 3)".
#[derive(Debug, Clone, Default, PartialEq)]
struct AreaLabels {
    /// Each triangle's area type.
    of: Vec<super::areas::AreaId>,
    /// What is said of each area type; empty for ground at cost 1 (nothing to say).
    words: Vec<String>,
}

impl AreaLabels {
    /// The labels of `mesh` under `costs`; `None` when every triangle is ground costing 1.
    fn new(mesh: &NavMesh, costs: &super::areas::AreaCosts) -> Option<Self> {
        let words: Vec<String> = mesh
            .area_names()
            .iter()
            .enumerate()
            .map(|(a, name)| {
                let cost = costs.of(u8::try_from(a).unwrap_or(u8::MAX));
                if a == 0 && cost == 1.0 {
                    String::new()
                } else {
                    format!(" ({name}, cost × {})", crate::words::short_number(cost))
                }
            })
            .collect();
        let present = mesh.area_types_present();
        let plain = (0..words.len()).all(|a| present & (1 << a) == 0 || words[a].is_empty());
        (!plain).then(|| Self {
            of: mesh.area_types().to_vec(),
            words,
        })
    }

    /// "triangle 12" with its area's words.
    fn name(&self, t: TriId) -> String {
        let words = self
            .of
            .get(t)
            .and_then(|&a| self.words.get(usize::from(a)))
            .map_or("", String::as_str);
        format!("triangle {t}{words}")
    }
}

/// What A* would give each triangle walking only: the same query on the mesh without its
/// links, as Dijkstra (no estimate), each triangle's g when first expanded (the least, for a
/// search that expands in order of g), until the goal is expanded.
struct WalkingRound {
    /// Each triangle's g, `NaN` where not expanded.
    g: Vec<f64>,
    /// The goal's g, when a walk reaches it (every triangle not expanded then costs at least
    /// as much); `None` when no walk does (every triangle a walk reaches was expanded).
    goal: Option<f64>,
}

impl crate::search::Observer<SearchEvent> for WalkingRound {
    fn event(&mut self, event: SearchEvent) {
        if let SearchEvent::Expanded { node, g, .. } = event
            && let Some(slot) = self.g.get_mut(node)
            && slot.is_nan()
        {
            *slot = g;
        }
    }
}

impl WalkingRound {
    fn new(mesh: &NavMesh, (start, goal): (Location, Location), options: QueryOptions) -> Self {
        let mut walking = Self {
            g: vec![f64::NAN; mesh.triangles().len()],
            goal: None,
        };
        let Ok(plain) = mesh.clone().with_links(Vec::new()) else {
            return walking;
        };
        let options = QueryOptions {
            heuristic_weight: 0.0,
            ..options
        };
        let path = find_path_located(
            &plain,
            start,
            goal,
            options,
            &mut walking,
            &mut NoObserver,
            &mut NoObserver,
        );
        if path.status != super::PathStatus::Unreachable {
            walking.goal = Some(path.cost);
        }
        walking
    }

    /// What walking round would give triangle `t`, against `g` by a link: the clause ending
    /// the step's sentence.
    fn words(&self, t: TriId, g: f64) -> String {
        match (self.g.get(t).copied().filter(|w| !w.is_nan()), self.goal) {
            (Some(w), _) if w > g => format!(", instead of walking round (g would be {w:.2})"),
            (Some(w), _) if w < g => format!("; walking there is cheaper (g would be {w:.2})"),
            (Some(w), _) => format!("; walking round costs the same (g would be {w:.2})"),
            (None, Some(goal)) => {
                format!(", instead of walking round (g would be at least {goal:.2})")
            }
            (None, None) => ", where no walk reaches".to_owned(),
        }
    }
}

/// What each of A*'s steps that opens or improves a triangle across an off-mesh link adds to
/// its sentence: " by the jump link 3 (cost 4.00)" where it names the triangles, and at its
/// end what walking round would give the triangle (see [`WalkingRound`]). With edge states,
/// the state says it; on triangles, a step between two triangles that share no edge, or a
/// link cheaper than the walk between neighbours, is the link's.
fn link_words(
    mesh: &NavMesh,
    search: &[SearchEvent],
    states: &[SearchEvent],
    layout: Option<super::EdgeStates>,
    (costs, walking): (&super::areas::AreaCosts, &WalkingRound),
) -> Vec<(usize, String, String)> {
    let links = mesh.links();
    let placed = mesh.placed_links();
    // What crossing each link (either way) costs, as the search priced it.
    let words = |link: usize, reversed: bool| {
        let crossing = placed
            .crossings()
            .iter()
            .find(|c| c.link == link && c.reversed == reversed)?;
        links.get(link).map(|l| {
            format!(
                " by the {} link {link} (cost {:.2})",
                l.kind.name(),
                crossing.cost_under(l, costs)
            )
        })
    };
    let mut out = Vec::new();
    for (k, event) in search.iter().enumerate() {
        let (node, parent, g) = match *event {
            SearchEvent::Opened {
                node,
                parent: Some(parent),
                g,
                ..
            }
            | SearchEvent::Improved {
                node, parent, g, ..
            } => (node, parent, g),
            _ => continue,
        };
        let link = match (states.get(k), layout) {
            (
                Some(
                    SearchEvent::Opened { node: state, .. }
                    | SearchEvent::Improved { node: state, .. },
                ),
                Some(layout),
            ) => match layout.state(mesh, *state) {
                super::EdgeState::Linked { link, reversed, .. } => Some((link, reversed)),
                _ => None,
            },
            _ => {
                let neighbours = mesh.neighbours(parent).iter().any(|&(n, _)| n == node);
                (!neighbours)
                    .then(|| {
                        placed
                            .leaving(parent)
                            .filter_map(|c| placed.crossing(c))
                            .find(|c| c.to.triangle == node)
                            .map(|c| (c.link, c.reversed))
                    })
                    .flatten()
            }
        };
        if let Some(text) = link.and_then(|(link, reversed)| words(link, reversed)) {
            out.push((k, text, walking.words(node, g)));
        }
    }
    out
}

/// The funnel's steps that end a walk at the start of a link the path crosses (every walk but
/// the last), and their sentences: "funnel: the walk reaches the jump link 0's start …".
fn piece_ends(
    mesh: &NavMesh,
    path: &Path,
    funnel: &[FunnelEvent],
    first_step: usize,
) -> Vec<(usize, String)> {
    let crossed: Vec<_> = path.segments.iter().filter_map(|s| s.link).collect();
    if crossed.is_empty() {
        return Vec::new();
    }
    let ends = funnel
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, FunnelEvent::Done { .. }));
    ends.zip(&crossed)
        .filter_map(|((k, event), link)| {
            let FunnelEvent::Done { waypoints, length } = event else {
                return None;
            };
            let kind = mesh
                .links()
                .get(link.link)
                .map_or("", |l| l.kind.name());
            Some((
                first_step + k,
                format!(
                    "funnel: the walk reaches the start of the {kind} link {}: {waypoints} waypoints, length {length:.3}; across it (cost {:.2}) the next walk starts at its end",
                    link.link, link.cost
                ),
            ))
        })
        .collect()
}

/// Everything recorded about one query.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    steps: Vec<Step>,
    search_steps: usize,
    open_sizes: std::sync::Arc<[u32]>,
    triangle_count: usize,
    /// A\*'s steps on the nodes it searches, when they are not the triangles (the midpoint
    /// model's states), one per search step; what the open list is replayed from.
    states: Vec<SearchEvent>,
    /// The steps that expanded each triangle.
    expansion_steps: ExpansionSteps,
    /// The final answer of the query.
    pub path: Option<Path>,
    /// The area types the sentences name (`None`: all ground).
    areas: Option<AreaLabels>,
    /// What A*'s steps that cross an off-mesh link add to their sentence (where it names the
    /// triangles, and at its end), by step, sorted.
    link_words: Vec<(usize, String, String)>,
    /// On a path across links, the funnel's steps that end a walk at a link's start, and what
    /// they say instead, by step, sorted.
    piece_ends: Vec<(usize, String)>,
    /// Where Polyanya's steps begin (the end of the funnel's).
    optimal_start: usize,
    /// Polyanya's answer, when it was asked for.
    pub optimal: Option<OptimalPath>,
    /// True when Polyanya made more steps than are kept ([`MAX_OPTIMAL_STEPS`]).
    pub optimal_steps_cut: bool,
}

/// The most Polyanya steps a timeline keeps (its answer is kept however long the search).
pub const MAX_OPTIMAL_STEPS: usize = 200_000;

/// Keeps the first [`MAX_OPTIMAL_STEPS`] events.
#[derive(Default)]
struct FirstSteps {
    events: Vec<PolyanyaEvent>,
    cut: bool,
}

impl crate::search::Observer<PolyanyaEvent> for FirstSteps {
    fn event(&mut self, event: PolyanyaEvent) {
        if self.events.len() < MAX_OPTIMAL_STEPS {
            self.events.push(event);
        } else {
            self.cut = true;
        }
    }
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
        let optimal_start = search.len() + funnel.len();
        let steps = search
            .into_iter()
            .map(Step::Search)
            .chain(funnel.into_iter().map(Step::Funnel))
            .collect();
        Self {
            steps,
            search_steps,
            open_sizes: open_sizes.into(),
            triangle_count,
            states: Vec::new(),
            expansion_steps,
            path,
            areas: None,
            link_words: Vec::new(),
            piece_ends: Vec::new(),
            optimal_start,
            optimal: None,
            optimal_steps_cut: false,
        }
    }

    /// Adds Polyanya's search from `start` to `goal` as the third phase.
    pub fn with_optimal(self, mesh: &NavMesh, start: Vec2, goal: Vec2) -> Self {
        match mesh.locate(start).zip(mesh.locate(goal)) {
            Some((start, goal)) => self.with_optimal_located(mesh, start, goal),
            None => self.with_optimal_answer(
                Vec::new(),
                false,
                shortest_path(mesh, start, goal, &mut NoObserver),
            ),
        }
    }

    /// [`with_optimal`](Self::with_optimal) between two points already located (on a mesh with
    /// stacked floors, on the floors chosen).
    pub fn with_optimal_located(self, mesh: &NavMesh, start: Location, goal: Location) -> Self {
        let mut recorded = FirstSteps::default();
        // Shown triangle by triangle, as the view draws the mesh.
        let optimal =
            shortest_path_walking(mesh, start, goal, SearchFaces::Triangles, &mut recorded);
        self.with_optimal_answer(recorded.events, recorded.cut, optimal)
    }

    /// Adds a shortest path found elsewhere (the exact search for an agent's radius, on the
    /// mesh shrunk by it, whose faces are not this mesh's) as the third phase, with no steps.
    pub fn with_optimal_path(self, optimal: OptimalPath) -> Self {
        self.with_optimal_answer(Vec::new(), false, optimal)
    }

    fn with_optimal_answer(
        mut self,
        events: Vec<PolyanyaEvent>,
        cut: bool,
        optimal: OptimalPath,
    ) -> Self {
        self.steps.truncate(self.optimal_start);
        self.steps.extend(events.into_iter().map(Step::Polyanya));
        self.optimal = Some(optimal);
        self.optimal_steps_cut = cut;
        self
    }

    /// The step Polyanya's phase begins at (the timeline's length when there is none).
    pub fn optimal_start(&self) -> usize {
        self.optimal_start
    }

    /// Runs the query from `start` to `goal` on `mesh`, recording A\*'s steps (on its own nodes
    /// too, with edge midpoints) and the funnel's.
    pub fn record(mesh: &NavMesh, start: Vec2, goal: Vec2, options: QueryOptions) -> Self {
        Self::record_ends(mesh, mesh.locate(start).zip(mesh.locate(goal)), options)
    }

    /// [`record`](Self::record) between two points already located, each in the triangle its
    /// [`Location`] names (on a mesh with stacked floors, the floor chosen).
    pub fn record_located(
        mesh: &NavMesh,
        start: Location,
        goal: Location,
        options: QueryOptions,
    ) -> Self {
        Self::record_ends(mesh, Some((start, goal)), options)
    }

    /// The query between `ends` (none when a point could not be located: nothing to record).
    fn record_ends(
        mesh: &NavMesh,
        ends: Option<(Location, Location)>,
        options: QueryOptions,
    ) -> Self {
        let (mut search, mut funnel) = (Vec::new(), Vec::new());
        // A*'s own nodes, when they are not the triangles: the open list is of them.
        let mut states = Vec::new();
        let path = ends.map(|(start, goal)| {
            if options.cost.searches_edge_states() {
                find_path_located(
                    mesh,
                    start,
                    goal,
                    options,
                    &mut search,
                    &mut states,
                    &mut funnel,
                )
            } else {
                find_path_located(
                    mesh,
                    start,
                    goal,
                    options,
                    &mut search,
                    &mut NoObserver,
                    &mut funnel,
                )
            }
        });
        let layout = ends.map(|(start, goal)| super::EdgeStates::new(mesh, &start, &goal));
        let link_words = match ends {
            Some(ends) if !mesh.links().is_empty() => {
                let walking = WalkingRound::new(mesh, ends, options);
                link_words(
                    mesh,
                    &search,
                    &states,
                    layout,
                    (&options.area_costs, &walking),
                )
            }
            _ => Vec::new(),
        };
        let first_funnel_step = search.len();
        let piece_ends = path
            .as_ref()
            .map(|p| piece_ends(mesh, p, &funnel, first_funnel_step))
            .unwrap_or_default();
        let mut timeline =
            Self::new(mesh.triangles().len(), search, funnel, path).with_states(states);
        timeline.areas = AreaLabels::new(mesh, &options.area_costs);
        timeline.link_words = link_words;
        timeline.piece_ends = piece_ends;
        timeline
    }

    /// The sentence of step `k` (from 0), naming the area type and cost of each triangle
    /// that is not plain ground.
    pub fn explain(&self, k: usize) -> String {
        if let Ok(i) = self.piece_ends.binary_search_by_key(&k, |(step, _)| *step) {
            return self.piece_ends[i].1.clone();
        }
        let sentence = self
            .steps
            .get(k)
            .map_or_else(String::new, |step| step.explain_with(self.areas.as_ref()));
        let Ok(i) = self.link_words.binary_search_by_key(&k, |(step, ..)| *step) else {
            return sentence;
        };
        // "A*: open triangle 33 from triangle 0 by the jump link 0 (cost 6.71): g = …,
        // instead of walking round (g would be …)": the link's words go where the step's
        // triangles are named, before its numbers; walking round at the end.
        let (_, words, walking) = &self.link_words[i];
        let named = sentence.find(": ").map(|k| k + 2).unwrap_or(0);
        match sentence.get(named..).and_then(|rest| rest.find(':')) {
            Some(at) => {
                let at = named + at;
                format!("{}{words}{}{walking}", &sentence[..at], &sentence[at..])
            }
            None => format!("{sentence}{words}{walking}"),
        }
    }

    /// With A\*'s steps on its own nodes (see [`find_path_with_states`](super::query::find_path_with_states)); ignored unless there
    /// is one per search step.
    pub fn with_states(mut self, states: Vec<SearchEvent>) -> Self {
        if states.len() == self.search_steps {
            self.states = states;
        }
        self
    }

    /// All steps, A\* first.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// A\*'s events, in order (the search's own steps, without the funnel's or Polyanya's).
    pub fn search_events(&self) -> Vec<SearchEvent> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                Step::Search(e) => Some(*e),
                _ => None,
            })
            .collect()
    }

    /// The funnel's events, in order.
    pub fn funnel_events(&self) -> Vec<FunnelEvent> {
        self.steps
            .iter()
            .filter_map(|s| match s {
                Step::Funnel(e) => Some(e.clone()),
                _ => None,
            })
            .collect()
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// How many of the steps belong to A\*.
    pub fn search_steps(&self) -> usize {
        self.search_steps
    }

    /// True when A\*'s open list is of its own nodes, not of triangles (edge midpoints).
    pub fn searches_states(&self) -> bool {
        !self.states.is_empty()
    }

    /// Size of the open list after each A\* step (for the chart).
    pub fn open_sizes(&self) -> &[u32] {
        &self.open_sizes
    }

    /// [`open_sizes`](Self::open_sizes) as shared: a view that keeps this handle knows the
    /// sizes are the same ones while [`std::sync::Arc::ptr_eq`] says so, without reading them.
    pub fn open_sizes_shared(&self) -> &std::sync::Arc<[u32]> {
        &self.open_sizes
    }

    /// The steps at which A\* expanded each triangle (A\*'s steps come first, so they are the
    /// timeline's own step numbers).
    pub fn expansion_steps(&self) -> &ExpansionSteps {
        &self.expansion_steps
    }

    /// Triangles in the mesh the query ran on.
    pub fn triangle_count(&self) -> usize {
        self.triangle_count
    }
}

/// The funnel's part of the state at a step.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FunnelReplay {
    /// The funnel, once it has started.
    pub funnel: Option<FunnelState>,
    /// The portal being examined.
    pub portal: Option<usize>,
    /// Start and the corners emitted so far.
    pub corners: Vec<Vec2>,
    /// Set once the funnel has finished.
    pub done: bool,
}

impl FunnelReplay {
    fn apply(&mut self, event: &FunnelEvent) {
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
                self.done = true;
                self.portal = None;
            }
        }
    }
}

/// One search node of Polyanya as the view draws it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IntervalView {
    /// Its root.
    pub root: Vec2,
    /// The interval's ends, right then left as seen from the root.
    pub right: Vec2,
    /// See `right`.
    pub left: Vec2,
    /// The triangle it leads into.
    pub into: TriId,
    /// Length to the root.
    pub g: f64,
    /// Estimate from the root through the interval to the goal.
    pub h: f64,
    /// True until it is taken from the open list.
    pub open: bool,
}

impl IntervalView {
    /// `g + h`.
    pub fn f(&self) -> f64 {
        self.g + self.h
    }
}

/// Polyanya's part of the state at a step.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OptimalReplay {
    /// Every node made so far, by number.
    pub nodes: Vec<IntervalView>,
    /// The vertices the path may turn at, found so far.
    pub roots: Vec<Vec2>,
    /// The node taken last.
    pub current: Option<usize>,
    /// The shortest length, once the goal is reached.
    pub reached: Option<f64>,
    /// Set once the search has ended (goal, no way, or budget).
    pub done: bool,
}

impl OptimalReplay {
    fn apply(&mut self, event: &PolyanyaEvent) {
        match *event {
            PolyanyaEvent::Pushed {
                root,
                right,
                left,
                into,
                g,
                h,
                ..
            } => self.nodes.push(IntervalView {
                root,
                right,
                left,
                into,
                g,
                h,
                open: true,
            }),
            PolyanyaEvent::Popped { node, .. } | PolyanyaEvent::Followed { node, .. } => {
                if let Some(n) = self.nodes.get_mut(node) {
                    n.open = false;
                }
                self.current = Some(node);
            }
            PolyanyaEvent::Turned { at, .. } | PolyanyaEvent::LinkCrossed { to: at, .. } => {
                self.roots.push(at)
            }
            PolyanyaEvent::GoalReached { length } => {
                self.reached = Some(length);
                self.done = true;
            }
            PolyanyaEvent::Exhausted { .. } | PolyanyaEvent::OverBudget => self.done = true,
            PolyanyaEvent::Expanded { .. }
            | PolyanyaEvent::Pruned { .. }
            | PolyanyaEvent::LinkReached { .. } => {}
        }
    }

    /// The open nodes, lowest f first (ties by number), at most `n`.
    pub fn open_list(&self, n: usize) -> Vec<(usize, IntervalView)> {
        let mut open: Vec<(usize, IntervalView)> = self
            .nodes
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, v)| v.open)
            .collect();
        open.sort_by(|a, b| a.1.f().total_cmp(&b.1.f()).then(a.0.cmp(&b.0)));
        open.truncate(n);
        open
    }
}

/// The state after the first `cursor` steps of a timeline: A\*'s per triangle, then the
/// funnel's, then Polyanya's.
#[derive(Debug, Clone)]
pub struct TimelineReplay {
    /// A\*'s state: each triangle's status, costs, parent and visit number, and the open list
    /// (of A\*'s own nodes with edge midpoints).
    pub search: SearchReplay,
    /// The funnel's state.
    pub funnel: FunnelReplay,
    /// How many of the funnel's steps have been applied.
    funnel_cursor: usize,
    /// Polyanya's state.
    pub optimal: OptimalReplay,
    /// How many of Polyanya's steps have been applied.
    optimal_cursor: usize,
}

impl Default for TimelineReplay {
    fn default() -> Self {
        Self::new(0)
    }
}

impl TimelineReplay {
    /// The state before any step of a query on `triangle_count` triangles.
    pub fn new(triangle_count: usize) -> Self {
        Self {
            search: SearchReplay::new(triangle_count, ListKind::Open, NodesShown::Gathered),
            funnel: FunnelReplay::default(),
            funnel_cursor: 0,
            optimal: OptimalReplay::default(),
            optimal_cursor: 0,
        }
    }

    /// How many steps have been applied.
    pub fn cursor(&self) -> usize {
        self.search.cursor() + self.funnel_cursor + self.optimal_cursor
    }

    /// True once Polyanya's phase has begun.
    pub fn in_optimal_phase(&self) -> bool {
        self.optimal_cursor > 0
    }

    /// Moves to step `k` (clamped to the timeline): forward by applying steps, back by
    /// starting over.
    pub fn seek(&mut self, timeline: &Timeline, k: usize) {
        let k = k.min(timeline.len());
        if self.search.node_count() != timeline.triangle_count() {
            *self = Self::new(timeline.triangle_count());
        } else if k < self.cursor() {
            self.search.restart();
            self.funnel = FunnelReplay::default();
            self.funnel_cursor = 0;
            self.optimal = OptimalReplay::default();
            self.optimal_cursor = 0;
        }
        while self.cursor() < k {
            let at = self.cursor();
            match timeline.steps().get(at) {
                Some(Step::Search(event)) => {
                    let on_list = timeline.states.get(at).unwrap_or(event);
                    self.search.apply_with_list(event, on_list);
                }
                Some(Step::Funnel(event)) => {
                    self.funnel.apply(event);
                    self.funnel_cursor += 1;
                }
                Some(Step::Polyanya(event)) => {
                    self.optimal.apply(event);
                    self.optimal_cursor += 1;
                }
                None => break,
            }
        }
    }

    /// The triangle expanded by the latest A\* step.
    pub fn current(&self) -> Option<TriId> {
        self.search.current()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::{CostModel, Plane, obj};
    use crate::search::{NodeStatus, SearchOutcome};

    fn recorded(cost: CostModel) -> Timeline {
        let scene = crate::assets::ROOMS;
        let mesh: NavMesh = obj::parse(scene.obj, scene.name, Plane::Xz).expect("asset");
        let options = QueryOptions {
            cost,
            ..QueryOptions::default()
        };
        let (start, goal) = (
            Vec2::new(scene.start.0, scene.start.1),
            Vec2::new(scene.goal.0, scene.goal.1),
        );
        Timeline::record(&mesh, start, goal, options)
    }

    #[test]
    fn seeking_back_gives_the_same_state_as_seeking_forward() {
        for cost in [
            CostModel::Centroid,
            CostModel::Midpoint,
            CostModel::Straight,
        ] {
            let timeline = recorded(cost);
            assert_eq!(timeline.searches_states(), cost != CostModel::Centroid);
            let mut forward = TimelineReplay::new(timeline.triangle_count());
            let mut states = Vec::new();
            for k in 0..=timeline.len() {
                forward.seek(&timeline, k);
                states.push(forward.clone());
            }
            let mut back = TimelineReplay::new(timeline.triangle_count());
            back.seek(&timeline, timeline.len());
            for k in (0..=timeline.len()).rev() {
                back.seek(&timeline, k);
                assert_eq!(back.cursor(), k);
                assert!(back.search.same_state(&states[k].search), "{cost:?} {k}");
                assert_eq!(back.funnel, states[k].funnel);
            }
        }
    }

    /// With Polyanya's phase: seeking back gives the state seeking forward gave, and the end
    /// state holds the length Polyanya answered.
    #[test]
    fn the_shortest_path_phase_replays_forward_and_back() {
        let scene = crate::assets::HOLE;
        let mesh: NavMesh = obj::parse(scene.obj, scene.name, Plane::Xz).expect("asset");
        let (start, goal) = (Vec2::new(3.866, 2.379), Vec2::new(3.567, 9.393));
        let timeline = Timeline::record(&mesh, start, goal, QueryOptions::default())
            .with_optimal(&mesh, start, goal);
        let optimal = timeline.optimal.clone().expect("searched");
        assert!(timeline.len() > timeline.optimal_start());
        let mut forward = TimelineReplay::new(timeline.triangle_count());
        let mut states = Vec::new();
        for k in 0..=timeline.len() {
            forward.seek(&timeline, k);
            assert_eq!(forward.in_optimal_phase(), k > timeline.optimal_start());
            states.push(forward.optimal.clone());
        }
        assert_eq!(forward.optimal.reached, Some(optimal.length));
        assert_eq!(forward.optimal.nodes.len(), optimal.nodes_pushed);
        for k in (0..=timeline.len()).rev() {
            forward.seek(&timeline, k);
            assert_eq!(forward.optimal, states[k], "{k}");
        }
    }

    #[test]
    fn the_end_state_matches_the_query_answer() {
        let timeline = recorded(CostModel::Centroid);
        let path = timeline.path.clone().expect("path");
        let mut replay = TimelineReplay::new(timeline.triangle_count());
        replay.seek(&timeline, usize::MAX);
        assert!(replay.funnel.done);
        assert_eq!(replay.search.outcome(), Some(SearchOutcome::Found));
        let closed = replay
            .search
            .statuses()
            .iter()
            .filter(|&&s| s == NodeStatus::Closed)
            .count();
        assert_eq!(closed, path.expanded);
        // Emitted corners plus the goal are the waypoints.
        let mut corners = replay.funnel.corners.clone();
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
