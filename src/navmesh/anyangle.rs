//! The exact shortest path between two points of a navmesh, by Polyanya (Cui, Harabor and
//! Grastien, IJCAI 2017): a search over intervals of edges seen from a root, reporting each
//! step as an event.
//!
//! A search node is a root (the start, or a vertex the path turns at) and an interval of an
//! edge the root sees straight through the triangles before it. Expanding a node projects the
//! interval across the triangle beyond: the parts of its far edges inside the cone from the root
//! are its *observable* successors, with the same root. Where an interval ends at a vertex a wall
//! meets (or one exactly on the cone's edge), the path may turn there: the vertex becomes a root
//! whose *fan* — the edges opposite it in the triangles around it — gives the non-observable
//! successors. A shortest path never turns anywhere else. A vertex is expanded as a root
//! only when reached more cheaply than before. `f = g + h`, `g` the length to the root, `h` the
//! shortest way from the root through the interval to the goal (the goal mirrored across the
//! interval's line when it lies on the root's side), so the first goal taken is optimal.
//! Orientation decisions use exact predicates (`robust`).

use super::{NavMesh, TriId, VertId};
use crate::geom::{Vec2, orient, signed_area2, triangle_contains};
use crate::search::Observer;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::hash::BuildHasherDefault;

/// One step of the search, for a view or a trace.
#[derive(Debug, Clone, PartialEq)]
pub enum PolyanyaEvent {
    /// A search node was made: its root, its interval (right and left end as seen from the
    /// root), the triangle it leads into, and its costs.
    Pushed {
        /// The node's number.
        node: usize,
        /// Its root.
        root: Vec2,
        /// The interval's right end.
        right: Vec2,
        /// The interval's left end.
        left: Vec2,
        /// The triangle beyond the interval.
        into: TriId,
        /// Length of the path to the root.
        g: f64,
        /// The estimate from the root through the interval to the goal.
        h: f64,
        /// True when the root is the parent's (seen straight through); false for a new root.
        observable: bool,
    },
    /// The open node with the lowest f was taken.
    Popped {
        /// The node.
        node: usize,
        /// Its f.
        f: f64,
    },
    /// What expanding a node made.
    Expanded {
        /// The node.
        node: usize,
        /// Successors with the same root.
        observable: usize,
        /// Successors from a vertex the path turns at.
        non_observable: usize,
    },
    /// A vertex became a root (the path may turn there), at this length from the start.
    Turned {
        /// The vertex.
        vertex: VertId,
        /// Where it is.
        at: Vec2,
        /// Length of the path to it.
        g: f64,
    },
    /// Work not done, and why.
    Pruned {
        /// The node, when one was taken.
        node: Option<usize>,
        /// Why.
        reason: PruneReason,
    },
    /// The goal was reached by a path of this length (the search is over).
    GoalReached {
        /// The path's length.
        length: f64,
    },
    /// The open list ran empty: the goal cannot be reached.
    Exhausted,
    /// The search made [`node_budget`] nodes without reaching the goal and stopped.
    OverBudget,
}

/// The most search nodes one query makes: far more than any query of a well-formed mesh needs
/// (each vertex is a root at most a few times, each root's nodes cross each triangle at most
/// once), so that a hostile mesh cannot keep a search going for ever.
pub fn node_budget(mesh: &NavMesh) -> usize {
    64 * mesh.triangles().len() + 4096
}

/// Why the search left something out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PruneReason {
    /// A vertex was already a root at a shorter length: turning there again cannot help.
    RootReachedCheaper,
    /// The node's interval leads into a triangle with no way on and no goal.
    DeadEnd,
}

impl PolyanyaEvent {
    /// One plain sentence for a step list.
    pub fn explain(&self) -> String {
        match self {
            PolyanyaEvent::Pushed {
                node,
                root,
                right,
                left,
                into,
                g,
                h,
                observable,
            } => {
                let kind = if *observable {
                    "seen straight from its root"
                } else {
                    "seen from a new root"
                };
                format!(
                    "push node {node}: root {root}, interval {right} to {left} into triangle {into}, {kind} (g = {g:.2}, h = {h:.2}, f = {:.2})",
                    g + h
                )
            }
            PolyanyaEvent::Popped { node, f } => {
                format!("take node {node}, the open one with the lowest f ({f:.2})")
            }
            PolyanyaEvent::Expanded {
                node,
                observable,
                non_observable,
            } => format!(
                "node {node} projected across its triangle: {observable} seen straight, {non_observable} round a corner"
            ),
            PolyanyaEvent::Turned { vertex, at, g } => format!(
                "vertex {vertex} at {at} becomes a root: the path may turn there (g = {g:.2})"
            ),
            PolyanyaEvent::Pruned { node, reason } => {
                let what = node.map_or("a vertex".to_string(), |n| format!("node {n}"));
                match reason {
                    PruneReason::RootReachedCheaper => {
                        format!("prune {what}: its root was reached more cheaply")
                    }
                    PruneReason::DeadEnd => {
                        format!("prune {what}: a dead end, no way on and no goal")
                    }
                }
            }
            PolyanyaEvent::GoalReached { length } => {
                format!("goal reached: the shortest path is {length:.3} long")
            }
            PolyanyaEvent::Exhausted => "no node left: the goal cannot be reached".to_string(),
            PolyanyaEvent::OverBudget => {
                "stopped: the search made more nodes than a mesh this size can need".to_string()
            }
        }
    }
}

/// The answer of [`shortest_path`].
#[derive(Debug, Clone, PartialEq)]
pub struct OptimalPath {
    /// Start, the vertices the path turns at, goal; empty when there is no path.
    pub waypoints: Vec<Vec2>,
    /// Its length (infinite when there is none).
    pub length: f64,
    /// Search nodes made.
    pub nodes_pushed: usize,
    /// Search nodes taken from the open list.
    pub nodes_popped: usize,
    /// True when the search stopped at [`node_budget`] (no path is given then).
    pub over_budget: bool,
}

impl OptimalPath {
    /// True when a path was found.
    pub fn is_found(&self) -> bool {
        self.length.is_finite()
    }
}

/// A root: where a straight part of the path starts.
#[derive(Debug, Clone, Copy)]
struct Root {
    at: Vec2,
    /// The vertex, and the surface around it the path turns on (an index of `surfaces`).
    vertex: Option<(VertId, usize)>,
    /// The root before it (`None`: the start).
    parent: Option<usize>,
    g: f64,
}

/// A search node: an interval of `edge` seen from `root`, leading into `into`.
#[derive(Debug, Clone, Copy)]
struct Node {
    root: usize,
    right: Vec2,
    left: Vec2,
    /// The vertex at each end, when the end is one.
    right_vertex: Option<VertId>,
    left_vertex: Option<VertId>,
    edge: usize,
    into: TriId,
}

/// What the open list holds.
#[derive(Debug, Clone, Copy)]
enum Entry {
    Node(usize),
    /// The goal, reached straight from a root.
    Goal(usize),
}

#[derive(Debug, Clone, Copy)]
struct Open {
    f: f64,
    order: u64,
    entry: Entry,
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Open {
    /// The lowest f first; among equal f the goal first, then the newest.
    fn cmp(&self, other: &Self) -> Ordering {
        let goal = |o: &Open| matches!(o.entry, Entry::Goal(_));
        other
            .f
            .total_cmp(&self.f)
            .then_with(|| goal(self).cmp(&goal(other)))
            .then_with(|| self.order.cmp(&other.order))
    }
}

/// The shortest path from `start` to `goal` on `mesh` (each snapped to the mesh when off it),
/// reporting each step to `observer`.
pub fn shortest_path(
    mesh: &NavMesh,
    start: Vec2,
    goal: Vec2,
    observer: &mut impl Observer<PolyanyaEvent>,
) -> OptimalPath {
    let none = OptimalPath {
        waypoints: Vec::new(),
        length: f64::INFINITY,
        nodes_pushed: 0,
        nodes_popped: 0,
        over_budget: false,
    };
    let (Some(s), Some(t)) = (mesh.locate(start), mesh.locate(goal)) else {
        return none;
    };
    let mut search = Search::new(mesh, t.point, point_triangles(mesh, s.point, s.triangle));
    let goal_triangles = point_triangles(mesh, t.point, t.triangle);
    search.goal_triangles = goal_triangles;
    search.run(s.point, observer)
}

/// The triangles holding `p` that connect to `first` through triangles holding it (the floor
/// `p` was located on, not the one above or below).
fn point_triangles(mesh: &NavMesh, p: Vec2, first: TriId) -> Vec<TriId> {
    let mut found = spread(mesh, first, |n, _| {
        let [a, b, c] = mesh.corners(n);
        triangle_contains(a, b, c, p)
    });
    found.sort_unstable();
    found
}

/// The triangles reached from `first` by crossing edges `cross(triangle, edge)` allows.
fn spread(mesh: &NavMesh, first: TriId, cross: impl Fn(TriId, usize) -> bool) -> Vec<TriId> {
    let mut found = vec![first];
    let mut k = 0;
    while k < found.len() {
        let t = found[k];
        k += 1;
        for &(n, e) in mesh.neighbours(t) {
            if !found.contains(&n) && cross(n, e) {
                found.push(n);
            }
        }
    }
    found
}

struct Search<'m> {
    mesh: &'m NavMesh,
    goal: Vec2,
    goal_triangles: Vec<TriId>,
    start_triangles: Vec<TriId>,
    roots: Vec<Root>,
    nodes: Vec<Node>,
    open: BinaryHeap<Open>,
    order: u64,
    /// The first surface found round each vertex turned at so far (a vertex where two surfaces
    /// touch is a root on each; the others follow through [`Surface::next`]).
    surface_of: HashMap<VertId, usize, BuildHasherDefault<IdHasher>>,
    surfaces: Vec<Surface>,
    /// The triangles of every surface, each a range of this list.
    surface_triangles: Vec<TriId>,
    popped: usize,
}

/// The triangles round a vertex joined to each other by edges at it, and the shortest length
/// the vertex has been a root at on them.
struct Surface {
    triangles: std::ops::Range<usize>,
    best_g: f64,
    /// Another surface round the same vertex.
    next: Option<usize>,
}

/// A hasher for small integer keys made by the search itself (not by a file): one multiply
/// per word.
#[derive(Default)]
struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

impl<'m> Search<'m> {
    fn new(mesh: &'m NavMesh, goal: Vec2, start_triangles: Vec<TriId>) -> Self {
        Self {
            mesh,
            goal,
            goal_triangles: Vec::new(),
            start_triangles,
            roots: Vec::with_capacity(32),
            nodes: Vec::with_capacity(256),
            open: BinaryHeap::with_capacity(256),
            order: 0,
            surface_of: HashMap::with_capacity_and_hasher(32, BuildHasherDefault::default()),
            surfaces: Vec::with_capacity(32),
            surface_triangles: Vec::with_capacity(256),
            popped: 0,
        }
    }

    fn run(mut self, start: Vec2, observer: &mut impl Observer<PolyanyaEvent>) -> OptimalPath {
        self.roots.push(Root {
            at: start,
            vertex: None,
            parent: None,
            g: 0.0,
        });
        self.surface_triangles
            .extend_from_slice(&self.start_triangles);
        self.fan(0, 0..self.surface_triangles.len(), observer);
        let budget = node_budget(self.mesh);
        while let Some(Open { f, entry, .. }) = self.open.pop() {
            if self.nodes.len() > budget {
                observer.event(PolyanyaEvent::OverBudget);
                return OptimalPath {
                    waypoints: Vec::new(),
                    length: f64::INFINITY,
                    nodes_pushed: self.nodes.len(),
                    nodes_popped: self.popped,
                    over_budget: true,
                };
            }
            match entry {
                Entry::Goal(root) => {
                    observer.event(PolyanyaEvent::GoalReached { length: f });
                    return self.answer(root, f);
                }
                Entry::Node(n) => {
                    self.popped += 1;
                    observer.event(PolyanyaEvent::Popped { node: n, f });
                    self.expand(n, observer);
                }
            }
        }
        observer.event(PolyanyaEvent::Exhausted);
        OptimalPath {
            waypoints: Vec::new(),
            length: f64::INFINITY,
            nodes_pushed: self.nodes.len(),
            nodes_popped: self.popped,
            over_budget: false,
        }
    }

    fn answer(&self, root: usize, length: f64) -> OptimalPath {
        let mut waypoints = vec![self.goal];
        let mut at = Some(root);
        while let Some(r) = at {
            let root = self.roots[r];
            if waypoints.last() != Some(&root.at) {
                waypoints.push(root.at);
            }
            at = root.parent;
        }
        if waypoints.len() == 1 {
            waypoints.push(self.goal);
        }
        waypoints.reverse();
        OptimalPath {
            waypoints,
            length,
            nodes_pushed: self.nodes.len(),
            nodes_popped: self.popped,
            over_budget: false,
        }
    }

    fn push(&mut self, f: f64, entry: Entry) {
        self.order += 1;
        self.open.push(Open {
            f,
            order: self.order,
            entry,
        });
    }

    /// The goal straight from root `r`, when it is in `triangle` (convex: all of it is seen
    /// from a root on its boundary or inside, or through an interval when `cone` is given).
    fn offer_goal(&mut self, r: usize, triangle: TriId, cone: Option<(Vec2, Vec2)>) {
        if self.goal_triangles.binary_search(&triangle).is_err() {
            return;
        }
        let root = self.roots[r];
        if let Some((right, left)) = cone
            && !in_cone(root.at, right, left, self.goal)
        {
            return;
        }
        self.push(root.g + root.at.distance(self.goal), Entry::Goal(r));
    }

    /// The successors of root `r`: through the edge opposite it in each of the triangles holding
    /// it (`triangles`, a range of `surface_triangles`), and the goal when one of them holds it.
    fn fan(
        &mut self,
        r: usize,
        triangles: std::ops::Range<usize>,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) {
        let mesh = self.mesh;
        let root = self.roots[r];
        for k in triangles {
            let t = self.surface_triangles[k];
            self.offer_goal(r, t, None);
            let tri = &mesh.triangles()[t];
            for k in 0..3 {
                let (a, b) = (tri.vertices[k], tri.vertices[(k + 1) % 3]);
                let (pa, pb) = (mesh.vertices()[a], mesh.vertices()[b]);
                // Edges through the root are seen edge-on: the triangles beyond them are in
                // the fan themselves.
                if orient(pa, pb, root.at) == 0.0 {
                    continue;
                }
                let edge = tri.edges[k];
                // Seen from inside the triangle, its edge a→b (counter-clockwise) has a on the
                // right.
                // The fan's edges meet end to end round the root, so the path turns only at
                // an end where a wall stops the next edge.
                let node = Node {
                    root: r,
                    right: pa,
                    left: pb,
                    right_vertex: mesh.is_wall_vertex(a).then_some(a),
                    left_vertex: mesh.is_wall_vertex(b).then_some(b),
                    edge,
                    into: t,
                };
                self.push_across(node, t, false, observer);
            }
        }
    }

    /// Pushes `node` once for each triangle across its edge other than `from`.
    fn push_across(
        &mut self,
        node: Node,
        from: TriId,
        observable: bool,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) -> usize {
        let mesh = self.mesh;
        // An interval in line with its root is seen edge-on: nothing beyond it is seen through
        // it (the vertices along it are reached by turning at its ends).
        if orient(self.roots[node.root].at, node.right, node.left) <= 0.0 {
            return 0;
        }
        let mut pushed = 0;
        let edge = &mesh.edges()[node.edge];
        for &into in &edge.triangles {
            if into == from {
                continue;
            }
            // A triangle folded back over the edge (a floor under stairs sharing their bottom
            // edge) lies on the root's side: a straight line does not go on into it. The path
            // reaches it by turning at the edge's ends.
            let opposite = mesh.triangles()[into]
                .vertices
                .into_iter()
                .find(|v| !edge.vertices.contains(v))
                .map(|v| mesh.vertices()[v]);
            if opposite.is_none_or(|o| orient(node.right, node.left, o) >= 0.0) {
                continue;
            }
            let node = Node { into, ..node };
            let root = self.roots[node.root];
            let h = estimate(root.at, node.right, node.left, self.goal);
            let id = self.nodes.len();
            self.nodes.push(node);
            observer.event(PolyanyaEvent::Pushed {
                node: id,
                root: root.at,
                right: node.right,
                left: node.left,
                into,
                g: root.g,
                h,
                observable,
            });
            self.push(root.g + h, Entry::Node(id));
            pushed += 1;
        }
        pushed
    }

    /// Projects node `n` across the triangle beyond it.
    fn expand(&mut self, n: usize, observer: &mut impl Observer<PolyanyaEvent>) {
        let mesh = self.mesh;
        let node = self.nodes[n];
        let root = self.roots[node.root];
        if let Some((_, surface)) = root.vertex
            && self.surfaces[surface].best_g < root.g
        {
            observer.event(PolyanyaEvent::Pruned {
                node: Some(n),
                reason: PruneReason::RootReachedCheaper,
            });
            return;
        }
        let p = node.into;
        self.offer_goal(node.root, p, Some((node.right, node.left)));
        let tri = &mesh.triangles()[p];
        let Some(k) = tri.edges.iter().position(|&e| e == node.edge) else {
            return;
        };
        // The far side, right to left as seen from the root: B→C, then C→A.
        let [a, b, c] = [k, (k + 1) % 3, (k + 2) % 3].map(|i| tri.vertices[i]);
        let far = [
            (b, c, tri.edges[(k + 1) % 3]),
            (c, a, tri.edges[(k + 2) % 3]),
        ];
        let mut observable = 0;
        // Where the path may turn: the interval's own ends, and the ends of the parts of the
        // far side that are walls (nothing beyond them carries the cone on).
        let mut corners: Vec<VertId> = [node.right_vertex, node.left_vertex]
            .into_iter()
            .flatten()
            .collect();
        for (u, v, edge) in far {
            let (pu, pv) = (mesh.vertices()[u], mesh.vertices()[v]);
            let Some((right, right_vertex, left, left_vertex)) =
                project(mesh, root.at, &node, (pu, u), (pv, v))
            else {
                continue;
            };
            let successor = Node {
                root: node.root,
                right,
                left,
                right_vertex,
                left_vertex,
                edge,
                into: p,
            };
            if mesh.edges()[edge].triangles.len() < 2 {
                for vertex in [right_vertex, left_vertex].into_iter().flatten() {
                    if !corners.contains(&vertex) {
                        corners.push(vertex);
                    }
                }
            }
            observable += self.push_across(successor, p, true, observer);
        }
        let mut non_observable = 0;
        for vertex in corners {
            non_observable += self.turn(node.root, vertex, p, observer);
        }
        if observable + non_observable == 0 && self.goal_triangles.binary_search(&p).is_err() {
            observer.event(PolyanyaEvent::Pruned {
                node: Some(n),
                reason: PruneReason::DeadEnd,
            });
        }
        observer.event(PolyanyaEvent::Expanded {
            node: n,
            observable,
            non_observable,
        });
    }

    /// Makes `vertex` a root reached from root `from` on triangle `into`, unless it was one at
    /// a length no longer; returns how many nodes its fan pushed.
    fn turn(
        &mut self,
        from: usize,
        vertex: VertId,
        into: TriId,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) -> usize {
        let mesh = self.mesh;
        let at = mesh.vertices()[vertex];
        let parent = self.roots[from];
        if parent.vertex.is_some_and(|(v, _)| v == vertex) {
            return 0;
        }
        let g = parent.g + parent.at.distance(at);
        let surface = self.surface(vertex, into);
        if g >= self.surfaces[surface].best_g {
            observer.event(PolyanyaEvent::Pruned {
                node: None,
                reason: PruneReason::RootReachedCheaper,
            });
            return 0;
        }
        self.surfaces[surface].best_g = g;
        observer.event(PolyanyaEvent::Turned { vertex, at, g });
        let r = self.roots.len();
        self.roots.push(Root {
            at,
            vertex: Some((vertex, surface)),
            parent: Some(from),
            g,
        });
        let before = self.nodes.len();
        let triangles = self.surfaces[surface].triangles.clone();
        self.fan(r, triangles, observer);
        self.nodes.len() - before
    }

    /// The surface round `vertex` that holds triangle `from`: the triangles joined to it across
    /// edges at the vertex, where a path turning there can go (not another surface touching it
    /// at the vertex alone, which no edge joins). Found once per query and vertex.
    fn surface(&mut self, vertex: VertId, from: TriId) -> usize {
        let first = self.surface_of.get(&vertex).copied();
        let mut at = first;
        while let Some(s) = at {
            let surface = &self.surfaces[s];
            if self.surface_triangles[surface.triangles.clone()].contains(&from) {
                return s;
            }
            at = surface.next;
        }
        let mesh = self.mesh;
        // A triangle across an edge at the vertex has the vertex too.
        let triangles = spread(mesh, from, |_, e| {
            mesh.edges()[e].vertices.contains(&vertex)
        });
        let s = self.surfaces.len();
        self.surface_of.insert(vertex, s);
        let begin = self.surface_triangles.len();
        self.surface_triangles.extend_from_slice(&triangles);
        self.surfaces.push(Surface {
            triangles: begin..self.surface_triangles.len(),
            best_g: f64::INFINITY,
            next: first,
        });
        s
    }
}

/// True when `p` lies in the closed cone from `root` between the rays through `right` and
/// `left`.
fn in_cone(root: Vec2, right: Vec2, left: Vec2, p: Vec2) -> bool {
    orient(root, right, p) >= 0.0 && orient(root, left, p) <= 0.0
}

/// The part of the far edge `u`→`v` inside the cone through `node`'s interval (the edge may leave
/// the cone on either side): its right end and left end as seen from `root`, each with its
/// vertex when the path may turn there; `None` when no part of positive length is.
///
/// A shortest path turns only where a wall is, so a vertex strictly inside the cone is a turning
/// point only when it is a wall vertex (elsewhere the next far edge carries the cone on past
/// it). A vertex on one of the cone's rays keeps the interval end's own rule when it is that
/// end, and may be turned at when it lies further along the ray (the path passing it exactly).
#[allow(clippy::type_complexity)]
fn project(
    mesh: &NavMesh,
    root: Vec2,
    node: &Node,
    (pu, u): (Vec2, VertId),
    (pv, v): (Vec2, VertId),
) -> Option<(Vec2, Option<VertId>, Vec2, Option<VertId>)> {
    let (right, left) = (node.right, node.left);
    // The part on the inner side of each ray (left of the right one, right of the left one),
    // as a range of the way from u (0) to v (1).
    let clip = |through: Vec2, inside: f64| -> Option<(f64, f64)> {
        let (su, sv) = (
            orient(root, through, pu) * inside,
            orient(root, through, pv) * inside,
        );
        match (su >= 0.0, sv >= 0.0) {
            (true, true) => Some((0.0, 1.0)),
            (false, false) => None,
            (true, false) => Some((0.0, crossing(root, through, pu, pv))),
            (false, true) => Some((crossing(root, through, pu, pv), 1.0)),
        }
    };
    let (r0, r1) = clip(right, 1.0)?;
    let (l0, l1) = clip(left, -1.0)?;
    let (start, end) = (r0.max(l0), r1.min(l1));
    if end <= start {
        return None;
    }
    let turn_at = |p: Vec2, vertex: VertId| {
        if p == right {
            node.right_vertex
        } else if p == left {
            node.left_vertex
        } else if orient(root, right, p) == 0.0
            || orient(root, left, p) == 0.0
            || mesh.is_wall_vertex(vertex)
        {
            Some(vertex)
        } else {
            None
        }
    };
    let (right_end, right_vertex) = if start == 0.0 {
        (pu, turn_at(pu, u))
    } else {
        (pu.lerp(pv, start), None)
    };
    let (left_end, left_vertex) = if end == 1.0 {
        (pv, turn_at(pv, v))
    } else {
        (pu.lerp(pv, end), None)
    };
    Some((right_end, right_vertex, left_end, left_vertex))
}

/// Where the line through `root` and `through` crosses the segment `a`→`b`, as a fraction of
/// the way from `a` (clamped to the segment).
fn crossing(root: Vec2, through: Vec2, a: Vec2, b: Vec2) -> f64 {
    let d = through - root;
    let e = b - a;
    let denominator = d.cross(e);
    if denominator == 0.0 {
        return 0.0;
    }
    ((root - a).cross(d) / -denominator).clamp(0.0, 1.0)
}

/// The shortest way from `root` through the interval `right`..`left` to `goal` (the goal
/// mirrored across the interval's line when it lies on the root's side).
fn estimate(root: Vec2, right: Vec2, left: Vec2, goal: Vec2) -> f64 {
    // Plain arithmetic, not exact predicates: near a tie the alternatives differ by rounding.
    let orient = signed_area2;
    let side = |p: Vec2| orient(right, left, p);
    let goal = if side(goal) != 0.0 && (side(goal) > 0.0) == (side(root) > 0.0) {
        mirror(goal, right, left)
    } else {
        goal
    };
    let (o1, o2) = (orient(root, goal, right), orient(root, goal, left));
    let crosses = (o1 <= 0.0 && o2 >= 0.0) || (o1 >= 0.0 && o2 <= 0.0);
    // A square root, not `hypot`: the estimate only orders the search (the lengths reported
    // are measured apart from it), and it is the hottest arithmetic of a query.
    let d = |a: Vec2, b: Vec2| (a - b).dot(a - b).sqrt();
    if crosses {
        d(root, goal)
    } else {
        (d(root, right) + d(right, goal)).min(d(root, left) + d(left, goal))
    }
}

/// `p` mirrored across the line through `a` and `b`.
fn mirror(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let d = b - a;
    let len2 = d.dot(d);
    if len2 == 0.0 {
        return p;
    }
    let foot = a + d * ((p - a).dot(d) / len2);
    foot * 2.0 - p
}
