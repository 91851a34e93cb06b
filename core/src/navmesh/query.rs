//! Path queries in the vocabulary of Detour: A* over triangles gives the *corridor*, the shared
//! edges along it are the *portals*, and the funnel pulls the string through them into
//! *waypoints*.

use super::adjacency::{MANY, WALL};
use super::areas::AreaCosts;
use super::{Location, NavMesh, TriId};
use crate::geom::Vec2;
use crate::geom::signed_area2;
use crate::search::astar::{AStarScratch, astar_with_parents, astar_with_scratch};
use crate::search::events::Both;
use crate::search::funnel::{FunnelEvent, Portal, path_length, string_pull};
use crate::search::{NoObserver, Observer, SearchEvent, SearchOutcome};
use serde::{Deserialize, Serialize};

/// How the A* over triangles measures a step from one triangle to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CostModel {
    /// Centroid to centroid, as in “A* on a navigation mesh”. Simple; prefers corridors through big
    /// triangles' centres.
    #[default]
    Centroid,
    /// Through the midpoints of the edges crossed, from the start point to the goal point: the
    /// shortest route on the graph of edge midpoints (the search's states are (triangle, edge
    /// entered by)). Detour measures its steps between edge midpoints too, but keeps a single
    /// point per polygon, the midpoint of the edge it was first reached by, so it can choose
    /// another corridor. Closer to the true path length than centroids.
    Midpoint,
    /// Heading for the goal: each edge crossed where the line from the last crossing to the
    /// goal crosses it, or at its end nearer that line, so that a step's cost is the length
    /// of a path the funnel could take, and on an open run it is the straight line itself.
    Straight,
}

impl CostModel {
    /// True when A*'s nodes are (triangle, edge entered by) states rather than triangles.
    pub fn searches_edge_states(self) -> bool {
        !matches!(self, CostModel::Centroid)
    }
}

/// Options of a path query.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueryOptions {
    /// Step cost model.
    pub cost: CostModel,
    /// Multiplies the heuristic: 1 is optimal A*, more is greedier, 0 is Dijkstra.
    pub heuristic_weight: f64,
    /// What crossing each area type costs (a step's distance times its multiplier). The
    /// heuristic is scaled by the cheapest, so it never overestimates.
    pub area_costs: AreaCosts,
}

impl Default for QueryOptions {
    fn default() -> Self {
        Self {
            cost: CostModel::Centroid,
            heuristic_weight: 1.0,
            area_costs: AreaCosts::default(),
        }
    }
}

/// How a query ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PathStatus {
    /// A path between the points as given.
    Found,
    /// A path, but the start or the goal was off the mesh and moved to the nearest point on it.
    Snapped,
    /// Start and goal are on different islands: no path exists. A normal answer, not an error.
    Unreachable,
}

/// The answer to a path query.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Path {
    /// How the query ended.
    pub status: PathStatus,
    /// Where the start lies on the mesh.
    pub start: Location,
    /// Where the goal lies on the mesh.
    pub goal: Location,
    /// Triangles from the start's to the goal's (empty when unreachable).
    pub corridor: Vec<TriId>,
    /// Edges crossed along the corridor, left and right as seen travelling, followed by the
    /// degenerate goal portal `(goal, goal)`.
    pub portals: Vec<Portal>,
    /// The shortest path through the corridor: start, corners, goal.
    pub waypoints: Vec<Vec2>,
    /// Length of `waypoints`.
    pub length: f64,
    /// The A* cost of the corridor under the chosen cost model.
    pub corridor_cost: f64,
    /// Distinct triangles expanded by A*.
    pub expanded: usize,
}

impl PathStatus {
    /// The name scripts see: `found`, `snapped` or `unreachable`.
    pub fn name(self) -> &'static str {
        match self {
            PathStatus::Found => "found",
            PathStatus::Snapped => "snapped",
            PathStatus::Unreachable => "unreachable",
        }
    }
}

impl Path {
    /// No path between `start` and `goal`, after `expanded` triangles.
    fn unreachable(start: Location, goal: Location, expanded: usize) -> Self {
        Self {
            status: PathStatus::Unreachable,
            start,
            goal,
            corridor: Vec::new(),
            portals: Vec::new(),
            waypoints: Vec::new(),
            length: f64::INFINITY,
            corridor_cost: f64::INFINITY,
            expanded,
        }
    }

    /// The answer as `navlab path --json` prints it (and the window's Copy path copies it):
    /// status, length (`null` when unreachable), waypoints, corridor, triangles expanded, and
    /// the start and goal as used (after any snapping), points as `[x, z]`.
    pub fn to_json(&self) -> serde_json::Value {
        let point = |p: Vec2| [p.x, p.y];
        serde_json::json!({
            "status": self.status.name(),
            "length": self.length.is_finite().then_some(self.length),
            "waypoints": self.waypoints.iter().map(|&p| point(p)).collect::<Vec<_>>(),
            "corridor": self.corridor,
            "expanded": self.expanded,
            "start": point(self.start.point),
            "goal": point(self.goal.point),
        })
    }
}

/// One plain sentence for a step of A* over triangles (triangles named by id). Reaching the goal
/// names the corridor's cost: the step-cost model's estimate, not the length of the path the
/// funnel then pulls straight through the corridor.
pub fn explain_search_step(event: &SearchEvent) -> String {
    explain_search_step_named(event, |t| format!("triangle {t}"))
}

/// [`explain_search_step`] with triangles named by `name`.
pub fn explain_search_step_named(event: &SearchEvent, name: impl Fn(usize) -> String) -> String {
    match *event {
        SearchEvent::Finished {
            outcome: SearchOutcome::Found,
            cost,
        } => format!(
            "goal's triangle reached: the corridor costs {cost:.2} by the step-cost model; the funnel now finds the shortest path through it"
        ),
        _ => event.explain_in(crate::search::ExpansionOrder::LowestF, name),
    }
}

/// Translates search events on edge states into events on triangles (to
/// `inner`), passing them on as they are to `states`.
struct StatesToTriangles<'a, O, T> {
    inner: &'a mut O,
    states: &'a mut T,
    layout: EdgeStates,
    /// Which triangles have been expanded (through any edge), to count each once: those
    /// marked with `stamp`.
    expanded: &'a mut [u32],
    stamp: u32,
    expanded_count: usize,
}

impl<O: Observer<SearchEvent>, T: Observer<SearchEvent>> Observer<SearchEvent>
    for StatesToTriangles<'_, O, T>
{
    fn event(&mut self, event: SearchEvent) {
        self.states.event(event);
        let t = |n: usize| self.layout.triangle_of(n);
        let mapped = match event {
            SearchEvent::Opened { node, parent, g, h } => SearchEvent::Opened {
                node: t(node),
                parent: parent.map(t),
                g,
                h,
            },
            SearchEvent::Improved { node, parent, g, h } => SearchEvent::Improved {
                node: t(node),
                parent: t(parent),
                g,
                h,
            },
            SearchEvent::Expanded { node, g, h } => {
                let tri = t(node);
                if let Some(seen) = self.expanded.get_mut(tri)
                    && *seen != self.stamp
                {
                    *seen = self.stamp;
                    self.expanded_count += 1;
                }
                SearchEvent::Expanded { node: tri, g, h }
            }
            SearchEvent::Deferred { node, f } => SearchEvent::Deferred { node: t(node), f },
            SearchEvent::CutOff { node, g, h } => SearchEvent::CutOff {
                node: t(node),
                g,
                h,
            },
            SearchEvent::Backtracked { node, cut_off } => SearchEvent::Backtracked {
                node: t(node),
                cut_off,
            },
            other @ (SearchEvent::Finished { .. } | SearchEvent::IterationStarted { .. }) => other,
        };
        self.inner.event(mapped);
    }

    fn stop(&self) -> bool {
        self.inner.stop() || self.states.stop()
    }
}

/// The nodes A* searches with the midpoint and straight cost models: node `3t + k` is "in
/// triangle t, entered through its edge k" (positioned on that edge: at its midpoint, or where
/// the path heading for the goal crosses it); then one node for the start point and one for the
/// goal point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeStates {
    triangle_count: usize,
    start_triangle: TriId,
    goal_triangle: TriId,
}

/// One edge state, in words a reader can find on the mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeState {
    /// The start point, in its triangle.
    Start(TriId),
    /// The goal point, in its triangle.
    Goal(TriId),
    /// A triangle entered across one of its edges, from the triangle on the other side
    /// (`None` for a boundary edge, which A* never crosses).
    Entered {
        /// The triangle.
        triangle: TriId,
        /// The triangle it was entered from.
        from: Option<TriId>,
    },
}

impl EdgeStates {
    /// The states of a query from `start`'s triangle to `goal`'s on `mesh`.
    pub fn new(mesh: &NavMesh, start: &Location, goal: &Location) -> Self {
        Self {
            triangle_count: mesh.triangles.len(),
            start_triangle: start.triangle,
            goal_triangle: goal.triangle,
        }
    }

    fn start_node(self) -> usize {
        3 * self.triangle_count
    }
    fn goal_node(self) -> usize {
        3 * self.triangle_count + 1
    }
    fn node_count(self) -> usize {
        3 * self.triangle_count + 2
    }

    /// The triangle a state is in.
    pub fn triangle_of(self, node: usize) -> TriId {
        if node == self.start_node() {
            self.start_triangle
        } else if node == self.goal_node() {
            self.goal_triangle
        } else {
            node / 3
        }
    }

    /// What a state is, on `mesh` (the mesh the query ran on).
    pub fn state(self, mesh: &NavMesh, node: usize) -> EdgeState {
        if node == self.start_node() {
            return EdgeState::Start(self.start_triangle);
        }
        if node == self.goal_node() {
            return EdgeState::Goal(self.goal_triangle);
        }
        let triangle = node / 3;
        let from = mesh
            .triangles
            .get(triangle)
            .and_then(|t| t.edges.get(node % 3))
            .and_then(|&e| mesh.edges.get(e))
            .and_then(|edge| edge.triangles.iter().copied().find(|&n| n != triangle));
        EdgeState::Entered { triangle, from }
    }

    /// A state in a few words: "12 from 7", "start (in 3)", "goal (in 9)".
    pub fn name(self, mesh: &NavMesh, node: usize) -> String {
        match self.state(mesh, node) {
            EdgeState::Start(t) => format!("start (in {t})"),
            EdgeState::Goal(t) => format!("goal (in {t})"),
            EdgeState::Entered {
                triangle,
                from: Some(from),
            } => format!("{triangle} from {from}"),
            EdgeState::Entered {
                triangle,
                from: None,
            } => format!("{triangle}"),
        }
    }
}

/// Finds a path from `from` to `to`. Points off the mesh snap to it (status
/// [`PathStatus::Snapped`]); points on different islands give [`PathStatus::Unreachable`].
/// Each A* step goes to `search_observer` (node ids are triangle ids) and each funnel step to
/// `funnel_observer`.
///
/// Returns `None` only when a point is not finite or the mesh has no triangle.
pub fn find_path<S, F>(
    mesh: &NavMesh,
    from: Vec2,
    to: Vec2,
    options: QueryOptions,
    search_observer: &mut S,
    funnel_observer: &mut F,
) -> Option<Path>
where
    S: Observer<SearchEvent>,
    F: Observer<FunnelEvent>,
{
    find_path_with_states(
        mesh,
        from,
        to,
        options,
        search_observer,
        &mut NoObserver,
        funnel_observer,
    )
}

/// [`find_path`], with A*'s steps also sent as A* takes them to `state_observer`: on triangles
/// for the centroid model (the same events as `search_observer`'s), on [`EdgeStates`] for
/// the midpoint and straight models — the nodes whose open list A* keeps.
pub fn find_path_with_states<S, T, F>(
    mesh: &NavMesh,
    from: Vec2,
    to: Vec2,
    options: QueryOptions,
    search_observer: &mut S,
    state_observer: &mut T,
    funnel_observer: &mut F,
) -> Option<Path>
where
    S: Observer<SearchEvent>,
    T: Observer<SearchEvent>,
    F: Observer<FunnelEvent>,
{
    let start = mesh.locate(from)?;
    let goal = mesh.locate(to)?;
    Some(find_path_located(
        mesh,
        start,
        goal,
        options,
        search_observer,
        state_observer,
        funnel_observer,
    ))
}

/// [`find_path_with_states`] between two points already located, each in the triangle its
/// [`Location`] names: on a mesh with stacked floors, the floor chosen (see
/// [`NavMesh::locate_near_height`]).
pub fn find_path_located<S, T, F>(
    mesh: &NavMesh,
    start: Location,
    goal: Location,
    options: QueryOptions,
    search_observer: &mut S,
    state_observer: &mut T,
    funnel_observer: &mut F,
) -> Path
where
    S: Observer<SearchEvent>,
    T: Observer<SearchEvent>,
    F: Observer<FunnelEvent>,
{
    let count = mesh.triangles().len();
    if start.triangle >= count || goal.triangle >= count {
        return Path::unreachable(start, goal, 0);
    }
    let weight = if options.heuristic_weight.is_finite() {
        options.heuristic_weight.max(0.0)
    } else {
        1.0
    };
    let costs = &options.area_costs;
    let weight = weight * costs.cheapest_of(mesh.area_types_present());
    let (corridor, corridor_cost, expanded) = match options.cost {
        CostModel::Centroid => centroid_search(
            mesh,
            &start,
            &goal,
            weight,
            costs,
            &mut Both(search_observer, state_observer),
        ),
        CostModel::Midpoint => edge_state_search(
            mesh,
            (&start, &goal),
            Crossing::Midpoint,
            (weight, costs),
            search_observer,
            state_observer,
        ),
        CostModel::Straight => edge_state_search(
            mesh,
            (&start, &goal),
            Crossing::Straight,
            (weight, costs),
            search_observer,
            state_observer,
        ),
    };
    let mut path = Path::unreachable(start, goal, expanded);
    let Some(corridor) = corridor else {
        return path;
    };
    let mut portals = corridor_portals(mesh, &corridor);
    portals.push(Portal {
        left: goal.point,
        right: goal.point,
    });
    let waypoints = string_pull(start.point, goal.point, &portals, funnel_observer);
    path.status = if start.snapped || goal.snapped {
        PathStatus::Snapped
    } else {
        PathStatus::Found
    };
    path.length = path_length(&waypoints);
    path.corridor = corridor;
    path.portals = portals;
    path.waypoints = waypoints;
    path.corridor_cost = corridor_cost;
    path
}

/// The portals between consecutive triangles of a corridor, without the goal portal.
pub fn corridor_portals(mesh: &NavMesh, corridor: &[TriId]) -> Vec<Portal> {
    corridor
        .windows(2)
        .filter_map(|pair| {
            let (from, to) = (pair[0], pair[1]);
            let edge = mesh.shared_edge(from, to)?;
            let tri = &mesh.triangles[from];
            let k = tri.edges.iter().position(|&e| e == edge)?;
            // The triangle is counter-clockwise, so walking out across edge (a → b) the
            // traveller has b on the left and a on the right.
            let a = mesh.vertices[tri.vertices[k]];
            let b = mesh.vertices[tri.vertices[(k + 1) % 3]];
            Some(Portal { left: b, right: a })
        })
        .collect()
}

/// What corridor queries keep between queries on one thread, so that repeated queries on a
/// large mesh do not allocate and clear records per triangle each time.
#[derive(Default)]
struct Scratch {
    astar: AStarScratch,
    /// Each edge state's crossing point, once expanded.
    at: Vec<Vec2>,
    /// The crossing point of each edge state last offered as a successor (what the heuristic
    /// measures from).
    offered: Vec<std::cell::Cell<Vec2>>,
    /// Triangles counted as expanded: those holding the query's stamp.
    expanded: Vec<u32>,
    stamp: u32,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// Runs `search` with this thread's scratch (taken, not borrowed: an observer may run a
/// query of its own).
fn with_scratch<R>(search: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut scratch = SCRATCH.with(|cell| std::mem::take(&mut *cell.borrow_mut()));
    let result = search(&mut scratch);
    SCRATCH.with(|cell| *cell.borrow_mut() = scratch);
    result
}

fn centroid_search<S: Observer<SearchEvent>>(
    mesh: &NavMesh,
    start: &Location,
    goal: &Location,
    weight: f64,
    costs: &AreaCosts,
    observer: &mut S,
) -> (Option<Vec<TriId>>, f64, usize) {
    let goal_centre = mesh.triangles[goal.triangle].centroid;
    let tris = &mesh.triangles;
    let multiplier = |t: TriId| costs.of(mesh.area_type(t));
    let result = with_scratch(|scratch| {
        astar_with_scratch(
            &mut scratch.astar,
            tris.len(),
            start.triangle,
            |t, out| {
                let here = tris[t].centroid;
                let m = multiplier(t);
                for &(n, _) in mesh.neighbours(t) {
                    // Half the step lies in each triangle.
                    let step = here.distance(tris[n].centroid) * (m + multiplier(n)) / 2.0;
                    out.push((n, step));
                }
            },
            |t| weight * tris[t].centroid.distance(goal_centre),
            |t| t == goal.triangle,
            observer,
        )
    });
    let found = result.outcome == SearchOutcome::Found;
    (found.then_some(result.path), result.cost, result.expanded)
}

/// Where a search on edge states puts the point it crosses an edge at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Crossing {
    /// The edge's midpoint.
    Midpoint,
    /// Where the shortest way from the last crossing to the goal through the edge crosses it.
    Straight,
}

/// The point of edge `a`–`b` where the shortest way from `from` to `goal` through the edge
/// crosses it: where the segment from `from` to `goal` (mirrored across the edge's line when
/// both lie on one side of it) crosses it, or else the end of the edge that makes the way
/// shorter.
fn straight_crossing(from: Vec2, goal: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let (side_from, side_goal) = (signed_area2(a, b, from), signed_area2(a, b, goal));
    let goal = if side_from * side_goal > 0.0 {
        let d = b - a;
        let len2 = d.dot(d);
        if len2 > 0.0 {
            let foot = a + d * ((goal - a).dot(d) / len2);
            foot * 2.0 - goal
        } else {
            goal
        }
    } else {
        goal
    };
    let (sa, sb) = (signed_area2(from, goal, a), signed_area2(from, goal, b));
    if (sa <= 0.0 && sb >= 0.0) || (sa >= 0.0 && sb <= 0.0) {
        let denominator = sa - sb;
        if denominator == 0.0 {
            return a.midpoint(b);
        }
        a.lerp(b, (sa / denominator).clamp(0.0, 1.0))
    } else if from.distance(a) + a.distance(goal) <= from.distance(b) + b.distance(goal) {
        a
    } else {
        b
    }
}

fn edge_state_search<S: Observer<SearchEvent>, T: Observer<SearchEvent>>(
    mesh: &NavMesh,
    (start, goal): (&Location, &Location),
    crossing: Crossing,
    (weight, costs): (f64, &AreaCosts),
    observer: &mut S,
    state_observer: &mut T,
) -> (Option<Vec<TriId>>, f64, usize) {
    let layout = EdgeStates::new(mesh, start, goal);
    let multiplier = |t: TriId| costs.of(mesh.area_type(t));
    let adjacency = mesh.adjacency();
    let node_count = layout.node_count();
    // The ends of state `node`'s edge (entered by), as seen from inside its triangle.
    let ends = |node: usize| {
        let record = adjacency.get(node / 3);
        let k = node % 3;
        (record.corners[k], record.corners[(k + 1) % 3])
    };
    let place = |from: Vec2, (a, b): (Vec2, Vec2)| match crossing {
        Crossing::Midpoint => a.midpoint(b),
        Crossing::Straight => straight_crossing(from, goal.point, a, b),
    };
    with_scratch(|scratch| {
        let Scratch {
            astar,
            at,
            offered,
            expanded,
            stamp,
        } = scratch;
        // Crossing points are written before they are read (a state's when it is offered or
        // expanded), so the lists are only grown, never cleared.
        if at.len() < node_count {
            at.resize(node_count, Vec2::default());
            offered.resize(node_count, std::cell::Cell::default());
        }
        if expanded.len() != mesh.triangles.len() {
            *expanded = vec![0; mesh.triangles.len()];
            *stamp = 0;
        }
        *stamp = stamp.wrapping_add(1);
        if *stamp == 0 {
            expanded.fill(0);
            *stamp = 1;
        }
        let offered: &[std::cell::Cell<Vec2>] = offered;
        let mut wrapped = StatesToTriangles {
            inner: observer,
            states: state_observer,
            layout,
            expanded,
            stamp: *stamp,
            expanded_count: 0,
        };
        let result = astar_with_parents(
            astar,
            node_count,
            layout.start_node(),
            |node, parent, out| {
                if node == layout.goal_node() {
                    return;
                }
                let here = if node == layout.start_node() {
                    start.point
                } else {
                    let from = match parent {
                        Some(p) if p != layout.start_node() => at[p],
                        _ => start.point,
                    };
                    place(from, ends(node))
                };
                at[node] = here;
                let t = layout.triangle_of(node);
                let entry = (node != layout.start_node()).then_some(node % 3);
                // Every step runs inside triangle t.
                let m = multiplier(t);
                if t == goal.triangle {
                    out.push((layout.goal_node(), here.distance(goal.point) * m));
                    offered[layout.goal_node()].set(goal.point);
                }
                let record = adjacency.get(t);
                for k in 0..3 {
                    if Some(k) == entry {
                        continue;
                    }
                    let next_at = place(here, (record.corners[k], record.corners[(k + 1) % 3]));
                    let mut offer = |n: usize, k_in: usize| {
                        out.push((3 * n + k_in, here.distance(next_at) * m));
                        offered[3 * n + k_in].set(next_at);
                    };
                    match record.across[k] {
                        WALL => {}
                        MANY => {
                            let e = mesh.triangles[t].edges[k];
                            for &n in &mesh.edges[e].triangles {
                                if let Some(k_in) =
                                    mesh.triangles[n].edges.iter().position(|&x| x == e)
                                    && n != t
                                {
                                    offer(n, k_in);
                                }
                            }
                        }
                        n => offer(n as usize, usize::from(record.across_edge[k])),
                    }
                }
            },
            |node| {
                let point = if node == layout.start_node() {
                    start.point
                } else {
                    offered[node].get()
                };
                weight * point.distance(goal.point)
            },
            |node| node == layout.goal_node(),
            &mut wrapped,
        );
        let expanded = wrapped.expanded_count;
        if result.outcome != SearchOutcome::Found {
            return (None, result.cost, expanded);
        }
        let mut corridor: Vec<TriId> = result.path.iter().map(|&n| layout.triangle_of(n)).collect();
        corridor.dedup();
        (Some(corridor), result.cost, expanded)
    })
}
