//! Path queries in the vocabulary of Detour: A* over triangles gives the *corridor*, the shared
//! edges along it are the *portals*, and the funnel pulls the string through them into
//! *waypoints*.

use super::adjacency::{MANY, WALL};
use super::areas::AreaCosts;
use super::links::{
    LinkCrossing, LinkEstimate, LinkKind, LinkUse, OffMeshLink, PathSegment, PlacedLinks, path_cost,
};
use super::{Location, NavMesh, TriId};
use crate::geom::Vec2;
use crate::geom::signed_area2;
use crate::search::astar::{AStarScratch, astar_with_parents, astar_with_scratch};
use crate::search::events::Both;
use crate::search::funnel::{FunnelEvent, Portal, path_length, string_pull};
use crate::search::round_funnel::{
    PathArc, RoundPortal, RoundPull, round_length, round_string_pull, traced,
};
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
    /// The agent's radius (0: a point). Above 0, A* crosses only portals whose clearance is at
    /// least this ([`Clearance::portal`](super::clearance::Clearance::portal)), the start and
    /// the goal must have that much room, and the funnel keeps this far from every corner on a
    /// wall, turning round them on arcs ([`round_string_pull`]). The mesh is not rebuilt: its
    /// clearance is worked out once ([`NavMesh::clearance`]) and serves every radius.
    pub radius: f64,
}

impl Default for QueryOptions {
    fn default() -> Self {
        Self {
            cost: CostModel::Centroid,
            heuristic_weight: 1.0,
            area_costs: AreaCosts::default(),
            radius: 0.0,
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
    /// Start and goal are on different islands (or, for an agent's radius, no route has room for
    /// it, or the start or the goal has not): no path exists. A normal answer, not an error.
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
    /// The shortest path through the corridor: start, corners, goal. For an agent's radius,
    /// the points where the path touches and leaves each corner's circle, with the arcs
    /// between them in `arcs`.
    pub waypoints: Vec<Vec2>,
    /// Where the path turns round a corner on an arc rather than running straight between two
    /// waypoints (only with a radius).
    pub arcs: Vec<PathArc>,
    /// The agent's radius the path was asked for (0: a point), found or not.
    pub radius: f64,
    /// Length of `waypoints`, along the arcs where there are some (links crossed counted by
    /// the distance between their ends).
    pub length: f64,
    /// What the path costs: the length of its walks plus the cost of the links it crosses
    /// (its length when it crosses none).
    pub cost: f64,
    /// Its stretches, walked or a link crossed, in order (empty when unreachable).
    pub segments: Vec<PathSegment>,
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
            arcs: Vec::new(),
            radius: 0.0,
            length: f64::INFINITY,
            cost: f64::INFINITY,
            segments: Vec::new(),
            corridor_cost: f64::INFINITY,
            expanded,
        }
    }

    /// The answer as `navlab path --json` prints it (and the window's Copy path copies it):
    /// status, length (`null` when unreachable), waypoints, corridor, triangles expanded, and
    /// the start and goal as used (after any snapping), points as `[x, z]`; its cost (its walks'
    /// length plus its links' costs) and its segments, walked or a link crossed
    /// ([`PathSegment::to_json`]); for an agent's radius, the radius and the arcs (each from
    /// waypoint `from` to the next, round `centre`, turning `sweep` radians, positive to the
    /// left).
    pub fn to_json(&self) -> serde_json::Value {
        let point = |p: Vec2| [p.x, p.y];
        let mut json = serde_json::json!({
            "status": self.status.name(),
            "length": self.length.is_finite().then_some(self.length),
            "waypoints": self.waypoints.iter().map(|&p| point(p)).collect::<Vec<_>>(),
            "corridor": self.corridor,
            "expanded": self.expanded,
            "start": point(self.start.point),
            "goal": point(self.goal.point),
        });
        if let Some(map) = json.as_object_mut() {
            if self.radius > 0.0 {
                map.insert("radius".into(), serde_json::json!(self.radius));
                map.insert(
                    "arcs".into(),
                    self.arcs
                        .iter()
                        .map(|a| {
                            serde_json::json!({
                                "from": a.start,
                                "centre": point(a.centre),
                                "radius": a.radius,
                                "sweep": a.sweep,
                            })
                        })
                        .collect(),
                );
            }
            map.insert(
                "cost".into(),
                serde_json::json!(self.cost.is_finite().then_some(self.cost)),
            );
            map.insert(
                "segments".into(),
                self.segments.iter().map(PathSegment::to_json).collect(),
            );
        }
        json
    }

    /// The path as a polyline, each arc drawn as chords of at most 3 degrees (points on the
    /// arc), with its segments numbered on it: for drawing and walking. Without arcs, its
    /// waypoints and segments as they are.
    pub fn traced(&self) -> (Vec<Vec2>, Vec<PathSegment>) {
        if self.arcs.is_empty() {
            return (self.waypoints.clone(), self.segments.clone());
        }
        let (points, index) = traced(&self.waypoints, &self.arcs, 3f64.to_radians());
        let at = |k: usize| {
            index
                .get(k)
                .copied()
                .unwrap_or(points.len().saturating_sub(1))
        };
        let segments = self
            .segments
            .iter()
            .map(|s| PathSegment {
                first: at(s.first),
                last: at(s.last),
                ..*s
            })
            .collect();
        (points, segments)
    }

    /// True when the path crosses an off-mesh link.
    pub fn crosses_links(&self) -> bool {
        self.segments.iter().any(|s| s.link.is_some())
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
    mesh: &'a NavMesh,
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
        let t = |n: usize| self.layout.triangle_of(self.mesh, n);
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
            SearchEvent::Met { node, cost } => SearchEvent::Met {
                node: t(node),
                cost,
            },
            SearchEvent::Inconsistent {
                node,
                g,
                rhs,
                k1,
                k2,
                stale,
            } => SearchEvent::Inconsistent {
                node: t(node),
                g,
                rhs,
                k1,
                k2,
                stale,
            },
            SearchEvent::Raised { node, g } => SearchEvent::Raised { node: t(node), g },
            SearchEvent::Consistent { node, g } => SearchEvent::Consistent { node: t(node), g },
            SearchEvent::Edited { node } => SearchEvent::Edited { node: t(node) },
            // A navmesh search scans no grid.
            other @ (SearchEvent::Finished { .. }
            | SearchEvent::IterationStarted { .. }
            | SearchEvent::Turned { .. }
            | SearchEvent::Jumped { .. }) => other,
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
/// goal point; then one for the end of each way across an off-mesh link (numbered as
/// [`PlacedLinks::crossings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeStates {
    triangle_count: usize,
    start_triangle: TriId,
    goal_triangle: TriId,
    /// The crossings of the mesh's links: node `3t + 2 + c` is "at the end of crossing c".
    crossing_count: usize,
}

/// One edge state, in words a reader can find on the mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeState {
    /// The start point, in its triangle.
    Start(TriId),
    /// The goal point, in its triangle.
    Goal(TriId),
    /// The end of an off-mesh link, crossed to it.
    Linked {
        /// The triangle it ends in.
        triangle: TriId,
        /// The link's number.
        link: usize,
        /// True when crossed from the link's end back to its start.
        reversed: bool,
    },
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
            crossing_count: mesh.placed_links().crossings().len(),
        }
    }

    fn start_node(self) -> usize {
        3 * self.triangle_count
    }
    fn goal_node(self) -> usize {
        3 * self.triangle_count + 1
    }
    fn node_count(self) -> usize {
        3 * self.triangle_count + 2 + self.crossing_count
    }

    /// The node "at the end of crossing `c`".
    fn link_node(self, c: usize) -> usize {
        3 * self.triangle_count + 2 + c
    }

    /// The crossing whose end `node` is, when it is one.
    fn crossing_of(self, node: usize) -> Option<usize> {
        node.checked_sub(3 * self.triangle_count + 2)
            .filter(|&c| c < self.crossing_count)
    }

    /// The triangle a state is in, on `mesh` (the mesh the query ran on).
    pub fn triangle_of(self, mesh: &NavMesh, node: usize) -> TriId {
        if node == self.start_node() {
            self.start_triangle
        } else if node == self.goal_node() {
            self.goal_triangle
        } else if let Some(c) = self.crossing_of(node) {
            mesh.placed_links()
                .crossing(c)
                .map_or(self.goal_triangle, |c| c.to.triangle)
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
        if let Some(c) = self
            .crossing_of(node)
            .and_then(|c| mesh.placed_links().crossing(c))
        {
            return EdgeState::Linked {
                triangle: c.to.triangle,
                link: c.link,
                reversed: c.reversed,
            };
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
            EdgeState::Linked { triangle, link, .. } => format!("{triangle} by link {link}"),
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
    let room = Room::of(mesh, options.radius);
    if !room.holds(mesh, &start) || !room.holds(mesh, &goal) {
        return Path {
            radius: room.radius().unwrap_or(0.0),
            ..Path::unreachable(start, goal, 0)
        };
    }
    let mut links = Links::of(mesh, costs);
    // The estimate never says more than any step costs: the cheapest area's multiplier per
    // unit of the straight line, or less by a link cheaper than walking its span.
    links.per_unit = costs.cheapest_of(mesh.area_types_present());
    let (route, corridor_cost, expanded) = match options.cost {
        CostModel::Centroid => centroid_search(
            mesh,
            (&start, &goal),
            (weight, costs, &links, &room),
            &mut Both(search_observer, state_observer),
        ),
        CostModel::Midpoint => edge_state_search(
            mesh,
            (&start, &goal),
            Crossing::Midpoint,
            (weight, costs, &links, &room),
            search_observer,
            state_observer,
        ),
        CostModel::Straight => edge_state_search(
            mesh,
            (&start, &goal),
            Crossing::Straight,
            (weight, costs, &links, &room),
            search_observer,
            state_observer,
        ),
    };
    let mut path = Path {
        radius: room.radius().unwrap_or(0.0),
        ..Path::unreachable(start, goal, expanded)
    };
    let Some(route) = route else {
        return path;
    };
    // The funnel runs along each walked piece, from where the piece starts (the start, or
    // where the last link crossed ends) to where it ends (where the next link starts, or the
    // goal).
    let (mut waypoints, mut portals, mut segments) = (Vec::new(), Vec::new(), Vec::new());
    let (mut arcs, mut walked, mut linked) = (Vec::new(), 0.0, 0.0);
    let mut corridor = Vec::new();
    let mut from = start.point;
    for (k, piece) in route.pieces.iter().enumerate() {
        let crossing = route
            .crossings
            .get(k)
            .and_then(|&c| links.placed.crossing(c).map(|x| (c, x)));
        let to = crossing.map_or(goal.point, |(_, c)| c.from.point);
        let mut piece_portals = corridor_portals(mesh, piece);
        piece_portals.push(Portal {
            left: to,
            right: to,
        });
        let first = waypoints.len();
        match room.radius() {
            Some(radius) => {
                let round = room.round_portals(mesh, piece, &piece_portals, radius);
                let pull = round_string_pull(from, to, &round, funnel_observer);
                if pull.pinched || !room.kept_along(mesh, piece, &pull) {
                    return path;
                }
                arcs.extend(pull.arcs.iter().map(|arc| PathArc {
                    start: arc.start + first,
                    ..*arc
                }));
                walked += pull.length;
                waypoints.extend(pull.points);
            }
            None => {
                let pulled = string_pull(from, to, &piece_portals, funnel_observer);
                walked += path_length(&pulled);
                waypoints.extend(pulled);
            }
        }
        segments.push(PathSegment::walk(first, waypoints.len().saturating_sub(1)));
        portals.extend(piece_portals);
        corridor.extend_from_slice(piece);
        if let Some((c, x)) = crossing {
            // From the walk's last point (the link's start) to the next walk's first (its end).
            let last = waypoints.len().saturating_sub(1);
            let cost = links.cost.get(c).copied().unwrap_or(0.0);
            linked += cost;
            walked += x.from.point.distance(x.to.point);
            segments.push(PathSegment {
                first: last,
                last: last + 1,
                link: Some(LinkUse {
                    link: x.link,
                    reversed: x.reversed,
                    kind: links.kind(x.link),
                    cost,
                }),
            });
            from = x.to.point;
        }
    }
    path.status = if start.snapped || goal.snapped {
        PathStatus::Snapped
    } else {
        PathStatus::Found
    };
    if room.radius().is_some() {
        // The walks along their arcs, each link by the distance between its ends.
        let crossed: f64 = segments
            .iter()
            .filter(|s| s.link.is_some())
            .filter_map(|s| Some(waypoints.get(s.first)?.distance(*waypoints.get(s.last)?)))
            .sum();
        path.length = walked;
        path.cost = walked - crossed + linked;
        debug_assert!(
            segments.iter().any(|s| s.link.is_some())
                || (round_length(&waypoints, &arcs) - walked).abs() <= 1e-9 * walked.max(1.0)
        );
        path.arcs = arcs;
    } else {
        path.length = path_length(&waypoints);
        path.cost = path_cost(&waypoints, &segments);
    }
    path.corridor = corridor;
    path.portals = portals;
    path.waypoints = waypoints;
    path.segments = segments;
    path.corridor_cost = corridor_cost;
    path
}

/// What a query needs of the mesh's links: their crossings placed on the mesh, what each
/// costs under the query's area costs, and how far the estimate must be scaled down for them.
struct Links<'m> {
    placed: &'m PlacedLinks,
    list: &'m [OffMeshLink],
    /// The cost of each crossing, by number.
    cost: Vec<f64>,
    /// The least a unit of walking costs (the cheapest area's multiplier).
    per_unit: f64,
}

impl<'m> Links<'m> {
    fn of(mesh: &'m NavMesh, costs: &AreaCosts) -> Self {
        let placed = mesh.placed_links();
        let list = mesh.links();
        Self {
            placed,
            list,
            cost: placed.costs(list, costs),
            per_unit: 1.0,
        }
    }

    /// The estimate towards `goal` (see [`LinkEstimate`]).
    fn estimate(&self, goal: Vec2) -> LinkEstimate {
        LinkEstimate::new(self.placed, &self.cost, goal, self.per_unit)
    }

    fn kind(&self, link: usize) -> LinkKind {
        self.list.get(link).map_or(LinkKind::Custom, |l| l.kind)
    }

    /// The crossings leaving triangle `t`, each with its number and its cost.
    fn leaving(&self, t: TriId) -> impl Iterator<Item = (usize, &LinkCrossing, f64)> {
        self.placed.leaving(t).filter_map(|c| {
            Some((
                c,
                self.placed.crossing(c)?,
                self.cost.get(c).copied().unwrap_or(f64::INFINITY),
            ))
        })
    }
}

/// What a query for an agent's radius needs of the mesh's clearance.
struct Room<'m> {
    /// The mesh's clearance and the radius, when the radius is above 0.
    clearance: Option<(&'m super::clearance::Clearance, f64)>,
}

impl<'m> Room<'m> {
    fn of(mesh: &'m NavMesh, radius: f64) -> Self {
        Self {
            clearance: (radius.is_finite() && radius > 0.0)
                .then(|| (mesh.clearance().as_ref(), radius)),
        }
    }

    fn radius(&self) -> Option<f64> {
        self.clearance.map(|(_, r)| r)
    }

    /// True when the agent may cross edge `e` (every edge for a point).
    fn passes(&self, e: super::EdgeId) -> bool {
        self.clearance.is_none_or(|(c, r)| c.portal(e) >= r)
    }

    /// True when the agent fits at `at` (with no wall nearer than its radius).
    fn holds(&self, mesh: &NavMesh, at: &Location) -> bool {
        self.clearance.is_none_or(|(c, r)| {
            at.triangle < mesh.triangles.len() && c.room(at.triangle, at.point) >= r
        })
    }

    /// True when `pull`, pulled through `piece`, keeps the radius from every wall that counts
    /// along it (to a billionth of the mesh's size): the funnel keeps it from the corridor's
    /// corners, and this catches a wall that comes nearer elsewhere (where the corridor is
    /// too narrow for the disc although each portal is wide enough).
    fn kept_along(&self, mesh: &NavMesh, piece: &[TriId], pull: &RoundPull) -> bool {
        let (Some((clearance, radius)), Some(&t)) = (self.clearance, piece.first()) else {
            return true;
        };
        if t >= mesh.triangles.len() {
            return false;
        }
        let b = mesh.bounds();
        let size = (b.max.x - b.min.x).max(b.max.y - b.min.y).max(1.0);
        let least = clearance.least_room_along(piece, &pull.points, &pull.arcs, radius);
        least >= radius - 1e-9 * size
    }

    /// The portals of `piece` (as [`corridor_portals`] gives them, then the goal's) with
    /// `radius` kept from each end that lies on a wall.
    fn round_portals(
        &self,
        mesh: &NavMesh,
        piece: &[TriId],
        portals: &[Portal],
        radius: f64,
    ) -> Vec<RoundPortal> {
        let on_wall = |p: Vec2, t: TriId| {
            self.clearance.is_some_and(|(c, _)| {
                mesh.triangles.get(t).is_some_and(|tri| {
                    tri.vertices
                        .iter()
                        .any(|&v| mesh.vertices[v] == p && c.on_wall(v))
                })
            })
        };
        portals
            .iter()
            .enumerate()
            .map(|(k, &portal)| {
                let t = piece.get(k).copied().unwrap_or(usize::MAX);
                let keep = |p: Vec2| if on_wall(p, t) { radius } else { 0.0 };
                RoundPortal {
                    portal,
                    left_radius: keep(portal.left),
                    right_radius: keep(portal.right),
                }
            })
            .collect()
    }
}

/// A corridor that may cross links: walked pieces (each a run of adjacent triangles) with a
/// link crossed between each two (`crossings[k]` between `pieces[k]` and `pieces[k + 1]`,
/// numbered as [`PlacedLinks::crossings`]).
struct Route {
    pieces: Vec<Vec<TriId>>,
    crossings: Vec<usize>,
}

impl Route {
    fn walked(corridor: Vec<TriId>) -> Self {
        Self {
            pieces: vec![corridor],
            crossings: Vec::new(),
        }
    }
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

/// A* over triangles, centroid to centroid. A link is a step from the triangle its start is
/// in to the triangle its end is in: from the first's centroid to its start, across it, and
/// from its end to the second's centroid.
fn centroid_search<S: Observer<SearchEvent>>(
    mesh: &NavMesh,
    (start, goal): (&Location, &Location),
    (weight, costs, links, room): (f64, &AreaCosts, &Links<'_>, &Room<'_>),
    observer: &mut S,
) -> (Option<Route>, f64, usize) {
    let goal_centre = mesh.triangles[goal.triangle].centroid;
    let estimate = links.estimate(goal_centre);
    let tris = &mesh.triangles;
    let multiplier = |t: TriId| costs.of(mesh.area_type(t));
    // Half a walked step lies in each triangle.
    let walk = |t: TriId, n: TriId| {
        tris[t].centroid.distance(tris[n].centroid) * (multiplier(t) + multiplier(n)) / 2.0
    };
    let by_link = |t: TriId, (_, c, cost): (usize, &LinkCrossing, f64)| {
        let end = c.to.triangle;
        let step = tris[t].centroid.distance(c.from.point) * multiplier(t)
            + cost
            + c.to.point.distance(tris[end].centroid) * multiplier(end);
        (end, step)
    };
    let result = with_scratch(|scratch| {
        astar_with_scratch(
            &mut scratch.astar,
            tris.len(),
            start.triangle,
            |t, out| {
                for &(n, e) in mesh.neighbours(t) {
                    if room.passes(e) {
                        out.push((n, walk(t, n)));
                    }
                }
                for crossing in links.leaving(t) {
                    let (end, step) = by_link(t, crossing);
                    if end != t {
                        out.push((end, step));
                    }
                }
            },
            |t| weight * estimate.at(tris[t].centroid),
            |t| t == goal.triangle,
            observer,
        )
    });
    if result.outcome != SearchOutcome::Found {
        return (None, result.cost, result.expanded);
    }
    // Which step A* took between two triangles of its path: the cheapest of the walk (when
    // they are neighbours) and the links between them, the walk when they cost the same.
    let mut route = Route::walked(Vec::new());
    for (k, &t) in result.path.iter().enumerate() {
        if let Some(&before) = k.checked_sub(1).and_then(|j| result.path.get(j)) {
            let walked = mesh
                .neighbours(before)
                .iter()
                .any(|&(n, e)| n == t && room.passes(e))
                .then(|| walk(before, t));
            let linked = links
                .leaving(before)
                .filter(|(_, c, _)| c.to.triangle == t)
                .map(|crossing| (crossing.0, by_link(before, crossing).1))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((c, cost)) = linked
                && walked.is_none_or(|w| cost < w)
            {
                route.crossings.push(c);
                route.pieces.push(Vec::new());
            }
        }
        if let Some(piece) = route.pieces.last_mut() {
            piece.push(t);
        }
    }
    (Some(route), result.cost, result.expanded)
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
    (weight, costs, links, room): (f64, &AreaCosts, &Links<'_>, &Room<'_>),
    observer: &mut S,
    state_observer: &mut T,
) -> (Option<Route>, f64, usize) {
    let layout = EdgeStates::new(mesh, start, goal);
    let estimate = links.estimate(goal.point);
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
            mesh,
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
                let arrived_by = layout
                    .crossing_of(node)
                    .and_then(|c| links.placed.crossing(c));
                let here = if node == layout.start_node() {
                    start.point
                } else if let Some(c) = arrived_by {
                    c.to.point
                } else {
                    let from = match parent {
                        Some(p) if p != layout.start_node() => at[p],
                        _ => start.point,
                    };
                    place(from, ends(node))
                };
                at[node] = here;
                let t =
                    arrived_by.map_or_else(|| layout.triangle_of(mesh, node), |c| c.to.triangle);
                let entry =
                    (node != layout.start_node() && arrived_by.is_none()).then_some(node % 3);
                // Every step runs inside triangle t.
                let m = multiplier(t);
                if t == goal.triangle {
                    out.push((layout.goal_node(), here.distance(goal.point) * m));
                    offered[layout.goal_node()].set(goal.point);
                }
                // A link leaving the triangle: walked to its start, crossed to its end.
                for (c, crossing, cost) in links.leaving(t) {
                    let n = layout.link_node(c);
                    out.push((n, here.distance(crossing.from.point) * m + cost));
                    offered[n].set(crossing.to.point);
                }
                let record = adjacency.get(t);
                for k in 0..3 {
                    if Some(k) == entry || !room.passes(mesh.triangles[t].edges[k]) {
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
                weight * estimate.at(point)
            },
            |node| node == layout.goal_node(),
            &mut wrapped,
        );
        let expanded = wrapped.expanded_count;
        if result.outcome != SearchOutcome::Found {
            return (None, result.cost, expanded);
        }
        let mut route = Route::walked(Vec::new());
        for &n in &result.path {
            let (t, crossed) = match layout
                .crossing_of(n)
                .and_then(|c| Some((c, links.placed.crossing(c)?)))
            {
                Some((c, crossing)) => (crossing.to.triangle, Some(c)),
                None => (layout.triangle_of(mesh, n), None),
            };
            if let Some(c) = crossed {
                route.crossings.push(c);
                route.pieces.push(Vec::new());
            }
            if let Some(piece) = route.pieces.last_mut()
                && piece.last() != Some(&t)
            {
                piece.push(t);
            }
        }
        (Some(route), result.cost, expanded)
    })
}
