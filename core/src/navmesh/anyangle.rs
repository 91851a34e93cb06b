//! The exact shortest path between two points of a navmesh, by Polyanya (Cui, Harabor and
//! Grastien, IJCAI 2017): a search over intervals of edges seen from a root, reporting each
//! step as an event. It walks convex faces ([`super::faces`]): the mesh's triangles merged into
//! convex polygons, or the triangles one by one when a search is shown as the mesh is drawn.
//!
//! A search node is a root (the start, or a vertex the path turns at) and an interval of a
//! face's side the root sees straight through the faces before it. Expanding a node projects
//! the interval across the face beyond: the parts of its far sides inside the cone from the
//! root are its *observable* successors, with the same root. Where the interval ends at a
//! vertex a wall meets and the cone's side runs on into the face, the part of the face past
//! that side is hidden from the root: the path bends round the vertex into it, and the vertex
//! becomes a root. Its *non-observable* successors are the parts of the face's sides away from
//! it on that side, then, one face at a time, the faces further round it on the side it bends
//! to (a *step round*), until one lies past the line from the parent root through the vertex.
//! A shortest path bends nowhere else, and only round a wall on the inside of the bend. A
//! vertex is a root again only when reached more cheaply than before (or as cheaply, bending
//! the other way). `f = g + h`, `g` the length to the root, `h` the shortest way from the root
//! through the interval to the goal (the goal mirrored across the interval's line when it lies
//! on the root's side), so the first goal taken is optimal. Start and goal in one face are
//! joined straight at once.
//!
//! As the paper does, a node whose expansion makes a single successor (and no goal) goes on to
//! that successor without the open list, and no node is made into a dead end (a face with no
//! way on but back) that does not hold the goal. Orientation decisions use exact predicates
//! (`robust`) on points read from the mesh, never on a point where an interval was cut: each
//! side of a cone is kept as a line through two exact points (a root and a vertex), and which
//! way an interval faces is asked of its side's corners. (A cut point is rounded; where a
//! cone's side grazes a wall vertex that lies on a straight wall only to rounding, the interval
//! is a rounding error long, and its ends point any way at all.)
//!
//! Off-mesh links ([`super::links`]): a link's start is a point the search reaches as it
//! reaches the goal, straight from a root that sees it; the way across waits in the open list
//! at the cost to the link's end, and when taken the end becomes a root, from which the search
//! goes on as from the start. With a link cheaper than the distance it spans, every estimate
//! is scaled down by the least cost per unit of distance spanned, so none overestimates.
//!
//! Floors folded over each other (stairs over the floor they rise from, sharing an edge) are
//! searched as they are drawn in the plane: at a vertex of the shared edge the path may double
//! back onto the other floor, and it bends there, at the edge's ends, not at the point of the
//! edge a path down one floor and back along the other would cross.

use super::adjacency::{MANY, WALL};
use super::areas::AreaCosts;
use super::faces::{FaceId, Faces};
use super::fans::VertexFans;
use super::links::{LinkEstimate, LinkKind, LinkUse, PathSegment, PlacedLinks};
use super::{Location, NavMesh, TriId, VertId};
use crate::geom::{Vec2, orient, triangle_contains};
use crate::search::Observer;
use std::collections::BinaryHeap;

use super::polyanya_cone::{Line, Sides, crossing, estimate, in_cone, project};

pub use super::polyanya_events::{PolyanyaEvent, PruneReason};

/// The most search nodes one query makes: far more than any query of a well-formed mesh needs
/// (each vertex is a root at most a few times, each root's nodes cross each triangle at most
/// once), so that a hostile mesh cannot keep a search going for ever.
pub fn node_budget(mesh: &NavMesh) -> usize {
    64 * mesh.triangles().len() + 4096
}

/// The answer of [`shortest_path`].
#[derive(Debug, Clone, PartialEq)]
pub struct OptimalPath {
    /// Start, the vertices the path turns at (and the ends of the links it crosses), goal;
    /// empty when there is no path.
    pub waypoints: Vec<Vec2>,
    /// Its length (infinite when there is none); links crossed count by the distance between
    /// their ends.
    pub length: f64,
    /// What it costs: the length of its walks plus the cost of its links (its length when it
    /// crosses none). This is what the search makes least.
    pub cost: f64,
    /// Its stretches, walked or a link crossed (empty when there is no path).
    pub segments: Vec<PathSegment>,
    /// Search nodes made.
    pub nodes_pushed: usize,
    /// Search nodes taken from the open list.
    pub nodes_popped: usize,
    /// True when the search stopped at [`node_budget`] (no path is given then).
    pub over_budget: bool,
    /// True when the start and the goal are on one island (joined through shared edges),
    /// found or not: a path not found then is one the search could not follow.
    pub connected: bool,
}

impl OptimalPath {
    /// True when a path was found.
    pub fn is_found(&self) -> bool {
        self.length.is_finite()
    }
}

/// Which way a path bends at a vertex it turns at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bend {
    /// Clockwise: the wall it turns round is on its right.
    Right = 0,
    /// Counter-clockwise: the wall is on its left.
    Left = 1,
}

/// A root: where a straight part of the path starts.
#[derive(Debug, Clone, Copy)]
struct Root {
    at: Vec2,
    /// The vertex, the surface round it the path turns on (a number of [`VertexFans`]) and which
    /// way it bends there; `None` for the start.
    vertex: Option<(VertId, usize, Bend)>,
    /// The root before it (`None`: the start).
    parent: Option<usize>,
    g: f64,
    /// The link crossing it is the end of (`None`: reached walking).
    via: Option<u32>,
}

/// A search node: an interval of `edge` seen from `root`, leading into `into`.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// The root's number (`u32`, as the faces' are, keeping a node within 128 bytes, which
    /// are copied inline).
    root: u32,
    right: Vec2,
    left: Vec2,
    /// The cone's sides: it lies left of `right_side` and right of `left_side`. Both pass
    /// through the root.
    right_side: Line,
    left_side: Line,
    /// The vertex at each end, when the end is one.
    right_vertex: Option<u32>,
    left_vertex: Option<u32>,
    /// The face it leads into, and which of that face's sides (`k`: from corner `k` to
    /// `k + 1`) the interval is on.
    into: u32,
    slot: u32,
    /// True for a step round the root: the root is a corner of the edge the node enters by
    /// (all of `into` is seen from it).
    round: bool,
}

// Kept within the size that is copied inline.
const _: () = assert!(std::mem::size_of::<Node>() <= 128);

/// What the open list holds.
#[derive(Debug, Clone, Copy)]
enum Entry {
    Node(usize),
    /// The goal, reached straight from a root.
    Goal(usize),
    /// A link's start, reached straight from a root (a number of [`Scratch::arrivals`]).
    Link(usize),
}

/// An entry of the open list in one 128-bit key, so that the heap compares one number: the
/// bits of `f` inverted (non-negative, so they order like the number; the lowest f is then the
/// largest key), two bits of kind (the goal first among equal f, then a link), the insertion
/// number (the newest first), and the node, root or arrival.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Open(u128);

impl Open {
    fn new(f: f64, order: u32, entry: Entry) -> Self {
        let (kind, id) = match entry {
            Entry::Node(n) => (0u128, n),
            Entry::Link(a) => (1, a),
            Entry::Goal(r) => (2, r),
        };
        // `max` keeps the bit trick valid for -0.0 and maps NaN to 0.
        let f = !f.max(0.0).to_bits();
        Self(
            (u128::from(f) << 64)
                | (kind << 62)
                | (u128::from(order & 0x3fff_ffff) << 32)
                | u128::from(id as u32),
        )
    }

    fn f(self) -> f64 {
        f64::from_bits(!((self.0 >> 64) as u64))
    }

    fn entry(self) -> Entry {
        let id = self.0 as u32 as usize;
        match (self.0 >> 62) & 3 {
            2 => Entry::Goal(id),
            1 => Entry::Link(id),
            _ => Entry::Node(id),
        }
    }
}

/// No path: what a search that cannot start answers.
pub(super) fn not_found() -> OptimalPath {
    OptimalPath {
        waypoints: Vec::new(),
        length: f64::INFINITY,
        cost: f64::INFINITY,
        segments: Vec::new(),
        nodes_pushed: 0,
        nodes_popped: 0,
        over_budget: false,
        connected: false,
    }
}

/// Which faces a search walks: the path is the same on both; the search nodes, and the faces
/// its events name, are not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchFaces {
    /// The triangles merged into convex polygons ([`NavMesh::merged_faces`]): fewer, larger
    /// faces, fewer nodes.
    #[default]
    Polygons,
    /// The triangles one by one ([`NavMesh::triangle_faces`]), as the window shows a search.
    Triangles,
}

/// The shortest path from `start` to `goal` on `mesh` (each snapped to the mesh when off it),
/// reporting each step to `observer`. The search walks the mesh's triangles merged into convex
/// polygons.
pub fn shortest_path(
    mesh: &NavMesh,
    start: Vec2,
    goal: Vec2,
    observer: &mut impl Observer<PolyanyaEvent>,
) -> OptimalPath {
    let (Some(s), Some(t)) = (mesh.locate(start), mesh.locate(goal)) else {
        return not_found();
    };
    shortest_path_located(mesh, s, t, observer)
}

/// [`shortest_path`] between two points already located, each in the triangle its
/// [`Location`] names (on a mesh with stacked floors, the floor chosen).
pub fn shortest_path_located(
    mesh: &NavMesh,
    s: Location,
    t: Location,
    observer: &mut impl Observer<PolyanyaEvent>,
) -> OptimalPath {
    shortest_path_walking(mesh, s, t, SearchFaces::Polygons, observer)
}

/// [`shortest_path_located`] walking the faces `walk` names: events name faces of those
/// (triangles, with [`SearchFaces::Triangles`]).
pub fn shortest_path_walking(
    mesh: &NavMesh,
    s: Location,
    t: Location,
    walk: SearchFaces,
    observer: &mut impl Observer<PolyanyaEvent>,
) -> OptimalPath {
    let count = mesh.triangles().len();
    if s.triangle >= count || t.triangle >= count || !s.point.is_finite() || !t.point.is_finite() {
        return not_found();
    }
    let faces = match walk {
        SearchFaces::Polygons => mesh.merged_faces(),
        SearchFaces::Triangles => mesh.triangle_faces(),
    };
    // The working memory of the last search on this thread, so that repeated queries do not
    // allocate (taken, not borrowed: an observer may start a search of its own).
    let scratch = SCRATCH.with(|cell| cell.borrow_mut().take().unwrap_or_default());
    let mut search = Search::new(mesh, faces, t.point, scratch);
    search.place_links();
    point_triangles(
        mesh,
        faces,
        t.point,
        t.triangle,
        &mut search.lists.goal_triangles,
    );
    faces_holding(
        faces,
        &search.lists.goal_triangles,
        &mut search.lists.goal_faces,
    );
    let mut start_triangles = std::mem::take(&mut search.lists.start_triangles);
    point_triangles(mesh, faces, s.point, s.triangle, &mut start_triangles);
    let mut start_faces = std::mem::take(&mut search.lists.start_faces);
    faces_holding(faces, &start_triangles, &mut start_faces);
    let answer = search.run(s.point, &start_triangles, &start_faces, observer);
    let mut scratch = search.into_scratch();
    scratch.start_triangles = start_triangles;
    scratch.start_faces = start_faces;
    SCRATCH.with(|cell| *cell.borrow_mut() = Some(scratch));
    answer
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Option<Box<Scratch>>> = const { std::cell::RefCell::new(None) };
}

/// A search's lists, kept between searches.
#[derive(Default)]
struct Scratch {
    /// The triangles and the faces holding the goal, sorted.
    goal_triangles: Vec<TriId>,
    goal_faces: Vec<FaceId>,
    /// The same for the start (taken out while a search runs).
    start_triangles: Vec<TriId>,
    start_faces: Vec<FaceId>,
    /// The faces round a fold vertex, while a root there is made.
    fold_faces: Vec<FaceId>,
    roots: Vec<Root>,
    nodes: Vec<Node>,
    open: BinaryHeap<Open>,
    /// What the node being expanded made, before it goes to the open list (or, when it is a
    /// single node, is expanded at once).
    fresh: Vec<(f64, Entry)>,
    /// The shortest length each surface round a vertex (by its number in [`VertexFans`]) has
    /// been a root at so far, and the bends made there at that length (a bit each); infinite
    /// where it has not. Kept between searches: `touched` says which to reset.
    best_g: Vec<(f64, u8)>,
    touched: Vec<usize>,
    /// The faces each link crossing starts in, as (face, crossing), sorted.
    link_starts: Vec<(FaceId, u32)>,
    /// The faces each crossing ends in, as (crossing, face), sorted.
    link_ends: Vec<(u32, FaceId)>,
    /// What crossing each costs, by number.
    link_cost: Vec<f64>,
    /// Which have been crossed.
    link_crossed: Vec<bool>,
    /// A link's start reached from a root: the crossing, the root and the length there.
    arrivals: Vec<(u32, u32, f64)>,
    /// Lists of triangles and faces while the links are placed.
    link_triangles: Vec<TriId>,
    link_faces: Vec<FaceId>,
}

/// Lists longer than this are not kept for the next search.
const KEPT_CAPACITY: usize = 1 << 16;

/// The triangles holding `p` that connect to `first` through triangles holding it (the floor
/// `p` was located on, not the one above or below), sorted, into `found`.
fn point_triangles(mesh: &NavMesh, faces: &Faces, p: Vec2, first: TriId, found: &mut Vec<TriId>) {
    found.clear();
    found.push(first);
    // Strictly inside a triangle whose every side leads to one face lying beyond it (not
    // folded back over it, no floors meeting there), `p` is in no other triangle across a side.
    let [a, b, c] = mesh.corners(first);
    if orient(a, b, p) > 0.0
        && orient(b, c, p) > 0.0
        && orient(c, a, p) > 0.0
        && faces.sides_lead_beyond(first)
    {
        return;
    }
    let mut k = 0;
    while k < found.len() {
        let t = found[k];
        k += 1;
        for &(n, _) in mesh.neighbours(t) {
            let [a, b, c] = mesh.corners(n);
            if !found.contains(&n) && triangle_contains(a, b, c, p) {
                found.push(n);
            }
        }
    }
    found.sort_unstable();
}

/// The faces holding `triangles`, sorted and each once, into `found`.
fn faces_holding(faces: &Faces, triangles: &[TriId], found: &mut Vec<FaceId>) {
    found.clear();
    found.extend(triangles.iter().filter_map(|&t| faces.face_of(t)));
    found.sort_unstable();
    found.dedup();
}

/// The most nodes one node's successors are followed without the open list, in a row (the
/// chain ends anyway; this only bounds the work between two looks at the budget).
const MAX_FOLLOWED: usize = 64;

struct Search<'m> {
    mesh: &'m NavMesh,
    fans: &'m VertexFans,
    faces: &'m Faces,
    goal: Vec2,
    /// The mesh's links, placed.
    links: &'m PlacedLinks,
    /// The estimate to the goal with the links cheaper than the distance they span (the
    /// straight line when there is none).
    estimate: LinkEstimate,
    /// The search's lists, kept between searches (boxed: handed over as one pointer).
    lists: Box<Scratch>,
    order: u32,
    popped: usize,
}

impl<'m> Search<'m> {
    fn new(mesh: &'m NavMesh, faces: &'m Faces, goal: Vec2, mut lists: Box<Scratch>) -> Self {
        lists.roots.clear();
        lists.nodes.clear();
        lists.open.clear();
        lists.fresh.clear();
        lists.arrivals.clear();
        let fans = mesh.fans();
        let links = mesh.placed_links();
        if lists.best_g.len() != fans.surface_count() {
            lists.best_g = vec![(f64::INFINITY, 0); fans.surface_count()];
            lists.touched.clear();
        }
        Self {
            mesh,
            fans,
            faces,
            goal,
            links,
            estimate: LinkEstimate::new(links, &[], goal, 1.0),
            lists,
            order: 0,
            popped: 0,
        }
    }

    /// Finds the faces each link crossing starts and ends in, and what crossing it costs.
    fn place_links(&mut self) {
        let (mesh, faces) = (self.mesh, self.faces);
        let lists = &mut self.lists;
        lists.link_starts.clear();
        lists.link_ends.clear();
        lists.link_cost.clear();
        lists.link_crossed.clear();
        if self.links.is_empty() {
            return;
        }
        // Polyanya measures the plane: a link's area type does not weigh on it.
        lists.link_cost = self.links.costs(mesh.links(), &AreaCosts::default());
        self.estimate = LinkEstimate::new(self.links, &lists.link_cost, self.goal, 1.0);
        for (c, crossing) in self.links.crossings().iter().enumerate() {
            let c = c as u32;
            point_triangles(
                mesh,
                faces,
                crossing.from.point,
                crossing.from.triangle,
                &mut lists.link_triangles,
            );
            faces_holding(faces, &lists.link_triangles, &mut lists.link_faces);
            lists
                .link_starts
                .extend(lists.link_faces.iter().map(|&f| (f, c)));
            point_triangles(
                mesh,
                faces,
                crossing.to.point,
                crossing.to.triangle,
                &mut lists.link_triangles,
            );
            faces_holding(faces, &lists.link_triangles, &mut lists.link_faces);
            lists
                .link_ends
                .extend(lists.link_faces.iter().map(|&f| (c, f)));
        }
        lists.link_starts.sort_unstable();
        lists
            .link_crossed
            .resize(self.links.crossings().len(), false);
    }

    /// Whether a link crossing starts in face `f`.
    fn holds_link_start(&self, f: FaceId) -> bool {
        let starts = &self.lists.link_starts;
        let k = starts.partition_point(|&(face, _)| face < f);
        starts.get(k).is_some_and(|&(face, _)| face == f)
    }

    /// The starts of the links in face `face` that root `r` sees (all of the face, or through
    /// an interval when `cone` is given), each put in the open list at the cost of crossing
    /// it plus the estimate from its end.
    fn offer_links(
        &mut self,
        r: usize,
        face: FaceId,
        cone: Option<(Line, Line)>,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) {
        if self.lists.link_starts.is_empty() {
            return;
        }
        let root = self.lists.roots[r];
        let mut k = self.lists.link_starts.partition_point(|&(f, _)| f < face);
        while let Some(&(f, c)) = self.lists.link_starts.get(k) {
            k += 1;
            if f != face {
                break;
            }
            let ci = c as usize;
            let Some(crossing) = self.links.crossing(ci) else {
                continue;
            };
            if self.lists.link_crossed.get(ci).copied().unwrap_or(true) {
                continue;
            }
            let at = crossing.from.point;
            if let Some((right, left)) = cone
                && !in_cone(right, left, at)
            {
                continue;
            }
            let g = root.g + root.at.distance(at);
            let cost = self
                .lists
                .link_cost
                .get(ci)
                .copied()
                .unwrap_or(f64::INFINITY);
            let f = g + cost + self.estimate.at(crossing.to.point);
            observer.event(PolyanyaEvent::LinkReached {
                link: crossing.link,
                kind: self.link_kind(crossing.link),
                reversed: crossing.reversed,
                at,
                g,
                f,
            });
            let arrival = self.lists.arrivals.len();
            self.lists.arrivals.push((c, r as u32, g));
            self.lists.fresh.push((f, Entry::Link(arrival)));
        }
    }

    fn link_kind(&self, link: usize) -> LinkKind {
        self.mesh
            .links()
            .get(link)
            .map_or(LinkKind::Custom, |l| l.kind)
    }

    /// Crosses the link of arrival `a` (unless crossed already): its start a root when the
    /// path turns there, its end a new root, from which the search goes on as from the start.
    fn cross(&mut self, a: usize, observer: &mut impl Observer<PolyanyaEvent>) {
        let Some(&(c, r, g)) = self.lists.arrivals.get(a) else {
            return;
        };
        let (ci, r) = (c as usize, r as usize);
        let Some(crossing) = self.links.crossing(ci) else {
            return;
        };
        match self.lists.link_crossed.get_mut(ci) {
            Some(crossed) if !*crossed => *crossed = true,
            _ => {
                observer.event(PolyanyaEvent::Pruned {
                    node: None,
                    reason: PruneReason::LinkCrossedCheaper {
                        link: crossing.link,
                    },
                });
                return;
            }
        }
        let start = if self.lists.roots[r].at == crossing.from.point {
            r
        } else {
            self.lists.roots.push(Root {
                at: crossing.from.point,
                vertex: None,
                parent: Some(r),
                g,
                via: None,
            });
            self.lists.roots.len() - 1
        };
        let g = g + self
            .lists
            .link_cost
            .get(ci)
            .copied()
            .unwrap_or(f64::INFINITY);
        let end = self.lists.roots.len();
        self.lists.roots.push(Root {
            at: crossing.to.point,
            vertex: None,
            parent: Some(start),
            g,
            via: Some(c),
        });
        observer.event(PolyanyaEvent::LinkCrossed {
            link: crossing.link,
            kind: self.link_kind(crossing.link),
            reversed: crossing.reversed,
            to: crossing.to.point,
            g,
        });
        let mut k = self.lists.link_ends.partition_point(|&(x, _)| x < c);
        while let Some(&(x, f)) = self.lists.link_ends.get(k) {
            k += 1;
            if x != c {
                break;
            }
            self.offer_goal(end, f, None);
            self.offer_links(end, f, None, observer);
            for side in 0..self.faces.face(f).len() {
                self.fan_edge(end, f, side, None, observer);
            }
        }
    }

    /// The lists, for the next search (emptied, and dropped when they grew large).
    fn into_scratch(self) -> Box<Scratch> {
        let mut lists = self.lists;
        for &s in &lists.touched {
            if let Some(slot) = lists.best_g.get_mut(s) {
                *slot = (f64::INFINITY, 0);
            }
        }
        lists.touched.clear();
        if lists.nodes.capacity() > KEPT_CAPACITY || lists.open.capacity() > KEPT_CAPACITY {
            lists = Box::default();
        }
        lists
    }

    fn run(
        &mut self,
        start: Vec2,
        start_triangles: &[TriId],
        start_faces: &[FaceId],
        observer: &mut impl Observer<PolyanyaEvent>,
    ) -> OptimalPath {
        self.lists.roots.push(Root {
            at: start,
            vertex: None,
            parent: None,
            g: 0.0,
            via: None,
        });
        // Start and goal in one convex face: the straight line between them is the path (no
        // path is shorter, unless a link is cheaper than the distance it spans), before any
        // node is made.
        let one_face = start_faces
            .iter()
            .any(|f| self.lists.goal_faces.binary_search(f).is_ok());
        if one_face && self.estimate.terms().is_empty() {
            let length = start.distance(self.goal);
            observer.event(PolyanyaEvent::GoalReached { length });
            return self.answer(0, length);
        }
        if one_face {
            let f = start.distance(self.goal);
            self.lists.fresh.push((f, Entry::Goal(0)));
        }
        for &f in start_faces {
            self.offer_links(0, f, None, observer);
            // Sides through the start are seen edge-on: the faces beyond them hold the start
            // too.
            for k in 0..self.faces.face(f).len() {
                self.fan_edge(0, f, k, None, observer);
            }
        }
        self.flush();
        let budget = node_budget(self.mesh);
        while let Some(open) = self.lists.open.pop() {
            let f = open.f();
            match open.entry() {
                Entry::Goal(root) => {
                    observer.event(PolyanyaEvent::GoalReached { length: f });
                    return self.answer(root, f);
                }
                Entry::Link(arrival) => {
                    self.cross(arrival, observer);
                    self.flush();
                }
                Entry::Node(n) => {
                    self.popped += 1;
                    observer.event(PolyanyaEvent::Popped { node: n, f });
                    let mut n = n;
                    let mut followed = 0;
                    loop {
                        self.expand(n, observer);
                        if self.lists.nodes.len() > budget {
                            observer.event(PolyanyaEvent::OverBudget);
                            return OptimalPath {
                                connected: self.connects(start_triangles),
                                ..self.nothing(true)
                            };
                        }
                        // A single successor (and no goal) is expanded at once: it would be
                        // the next node taken anyway or it is no worse than the rest.
                        match self.lists.fresh.as_slice() {
                            &[(f, Entry::Node(next))] if followed < MAX_FOLLOWED => {
                                self.lists.fresh.clear();
                                followed += 1;
                                self.popped += 1;
                                observer.event(PolyanyaEvent::Followed { node: next, f });
                                n = next;
                            }
                            _ => break,
                        }
                    }
                    self.flush();
                }
            }
        }
        let connected = self.connects(start_triangles);
        observer.event(PolyanyaEvent::Exhausted { connected });
        OptimalPath {
            connected,
            ..self.nothing(false)
        }
    }

    /// Whether one of the goal's triangles is on the island of one of `start_triangles`, or
    /// on one its links lead to.
    fn connects(&self, start_triangles: &[TriId]) -> bool {
        let mesh = self.mesh;
        start_triangles.iter().any(|&s| {
            self.lists.goal_triangles.iter().any(|&t| {
                let (a, b) = (mesh.island_of(s), mesh.island_of(t));
                a == b || (!self.links.is_empty() && self.links.reaches(mesh, a, b))
            })
        })
    }

    fn nothing(&self, over_budget: bool) -> OptimalPath {
        OptimalPath {
            waypoints: Vec::new(),
            length: f64::INFINITY,
            cost: f64::INFINITY,
            segments: Vec::new(),
            nodes_pushed: self.lists.nodes.len(),
            nodes_popped: self.popped,
            over_budget,
            connected: false,
        }
    }

    /// The path ending at root `root` then straight to the goal, of cost `cost`.
    fn answer(&self, root: usize, cost: f64) -> OptimalPath {
        let mut chain = Vec::new();
        let mut at = Some(root);
        while let Some(r) = at {
            chain.push(r);
            at = self.lists.roots[r].parent;
        }
        let (mut waypoints, mut segments) = (Vec::<Vec2>::new(), Vec::new());
        // Where the walk under way began.
        let mut walk_from = 0;
        for &r in chain.iter().rev() {
            let root = self.lists.roots[r];
            match root
                .via
                .and_then(|c| Some((c, self.links.crossing(c as usize)?)))
            {
                Some((c, crossing)) => {
                    let last = waypoints.len().saturating_sub(1);
                    if walk_from < last {
                        segments.push(PathSegment::walk(walk_from, last));
                    }
                    waypoints.push(root.at);
                    segments.push(PathSegment {
                        first: last,
                        last: last + 1,
                        link: Some(LinkUse {
                            link: crossing.link,
                            reversed: crossing.reversed,
                            kind: self.link_kind(crossing.link),
                            cost: self.lists.link_cost.get(c as usize).copied().unwrap_or(0.0),
                        }),
                    });
                    walk_from = last + 1;
                }
                None => {
                    if waypoints.last() != Some(&root.at) {
                        waypoints.push(root.at);
                    }
                }
            }
        }
        if waypoints.last() != Some(&self.goal) || waypoints.len() == 1 {
            waypoints.push(self.goal);
        }
        let last = waypoints.len() - 1;
        if walk_from < last || segments.is_empty() {
            segments.push(PathSegment::walk(walk_from, last));
        }
        OptimalPath {
            length: crate::search::funnel::path_length(&waypoints),
            waypoints,
            cost,
            segments,
            nodes_pushed: self.lists.nodes.len(),
            nodes_popped: self.popped,
            over_budget: false,
            connected: true,
        }
    }

    /// Moves what the last expansion made to the open list.
    fn flush(&mut self) {
        for k in 0..self.lists.fresh.len() {
            let (f, entry) = self.lists.fresh[k];
            self.order = self.order.wrapping_add(1);
            self.lists.open.push(Open::new(f, self.order, entry));
        }
        self.lists.fresh.clear();
    }

    /// The goal straight from root `r`, when it is in face `face` (convex: all of it is seen
    /// from a root on its boundary or inside, or through an interval when `cone` is given).
    fn offer_goal(&mut self, r: usize, face: FaceId, cone: Option<(Line, Line)>) {
        if self.lists.goal_faces.binary_search(&face).is_err() {
            return;
        }
        let root = self.lists.roots[r];
        if let Some((right, left)) = cone
            && !in_cone(right, left, self.goal)
        {
            return;
        }
        self.lists
            .fresh
            .push((root.g + root.at.distance(self.goal), Entry::Goal(r)));
    }

    /// The part of side `k` of face `f` that root `r` sees from inside `f` (the side's first
    /// corner, counter-clockwise, on its right), within the half-plane `keep` when given (the
    /// side of a line the path bends to), pushed into the faces beyond.
    fn fan_edge(
        &mut self,
        r: usize,
        f: FaceId,
        k: usize,
        keep: Option<(Vec2, Vec2, Bend)>,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) {
        let face = self.faces.face(f);
        let k2 = face.next(k);
        let (pa, pb) = (face.corner(k), face.corner(k2));
        let (a, b) = (face.sides[k].vertex, face.sides[k2].vertex);
        let at = self.lists.roots[r].at;
        let mut node = Node {
            root: r as u32,
            right: pa,
            left: pb,
            right_side: (at, pa),
            left_side: (at, pb),
            right_vertex: Some(a),
            left_vertex: Some(b),
            into: f as u32,
            slot: k as u32,
            round: false,
        };
        if let Some((from, at, bend)) = keep {
            // Points on the bend's side of the line from the parent root through the vertex.
            let sign = match bend {
                Bend::Right => -1.0,
                Bend::Left => 1.0,
            };
            let (sa, sb) = (orient(from, at, pa) * sign, orient(from, at, pb) * sign);
            // The line as a side of the cone: the cone lies left of its right side and right
            // of its left side, and on the bend's side of the line.
            let (rightwards, leftwards) = match bend {
                Bend::Right => ((at, from), (from, at)),
                Bend::Left => ((from, at), (at, from)),
            };
            match (sa >= 0.0, sb >= 0.0) {
                (true, true) => {}
                (false, false) => return,
                (true, false) => {
                    node.left = pa.lerp(pb, crossing((from, at), pa, pb));
                    node.left_side = leftwards;
                    node.left_vertex = None;
                }
                (false, true) => {
                    node.right = pa.lerp(pb, crossing((from, at), pa, pb));
                    node.right_side = rightwards;
                    node.right_vertex = None;
                }
            }
        }
        self.push_across(node, false, observer);
    }

    /// Pushes `node` (on side `slot` of face `into`) once for each face across that side.
    fn push_across(
        &mut self,
        node: Node,
        observable: bool,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) {
        // The root's place and length only (the whole record is not copied).
        let root = &self.lists.roots[node.root as usize];
        let root = (root.at, root.g);
        let (from, k) = (node.into as FaceId, node.slot as usize);
        // An interval in line with its root is seen edge-on: nothing beyond it is seen through
        // it (the vertices along it are reached by turning at its ends, or round them). Asked
        // of the side's corners, not of the interval's ends: an end where the interval was cut
        // is rounded, and on an interval a rounding error long (a cone's side grazing a wall
        // vertex) it gives the interval any direction at all.
        let faces = self.faces;
        let face = faces.face(from);
        let ends = [face.corner(k), face.corner(face.next(k))];
        if !node.round && orient(root.0, ends[0], ends[1]) <= 0.0 {
            return;
        }
        // A face folded back over the side (a floor under stairs sharing their bottom edge)
        // lies on the root's side: a straight line does not go on into it. The path reaches
        // it by turning at the side's ends. (The side's corners say which side, as for the
        // edge-on test.)
        match face.sides[k].across {
            WALL => {}
            MANY => {
                let mesh = self.mesh;
                let Some(edge) = faces.edge(from, k) else {
                    return;
                };
                let Some(edge_record) = mesh.edges().get(edge) else {
                    return;
                };
                for &n in &edge_record.triangles {
                    if let Some((into, slot)) = faces.side_on(mesh, n, edge)
                        && into != from
                        && !faces.face(into).folds_back_over(slot, ends[0], ends[1])
                    {
                        self.enter(node, root, (into, slot), observable, observer);
                    }
                }
            }
            _ if face.sides[k].folds_back() => {}
            into => {
                let slot = face.sides[k].across_side();
                self.enter(node, root, (into as FaceId, slot), observable, observer);
            }
        }
    }

    /// Makes the node of `node`'s interval into face `into` (across its side `slot`), which
    /// does not lie folded back over it.
    fn enter(
        &mut self,
        node: Node,
        (at, g): (Vec2, f64),
        (into, slot): (FaceId, usize),
        observable: bool,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) {
        let face = self.faces.face(into);
        // A dead end: a face with no way on but back, and no goal.
        if face.dead_end
            && self.lists.goal_faces.binary_search(&into).is_err()
            && !self.holds_link_start(into)
        {
            observer.event(PolyanyaEvent::Pruned {
                node: None,
                reason: PruneReason::DeadEnd { triangle: into },
            });
            return;
        }
        let node = Node {
            into: into as u32,
            slot: slot as u32,
            ..node
        };
        // Through the interval to the goal, or to the start of a link cheaper than the
        // distance it spans and on from it.
        let through = |target: Vec2| {
            if node.round {
                at.distance(target)
            } else {
                estimate(at, node.right, node.left, target)
            }
        };
        let h = self
            .estimate
            .terms()
            .iter()
            .fold(through(self.goal), |best, &(from, rest)| {
                best.min(through(from) + rest)
            });
        let id = self.lists.nodes.len();
        self.lists.nodes.push(node);
        observer.event(PolyanyaEvent::Pushed {
            node: id,
            root: at,
            right: node.right,
            left: node.left,
            into,
            g,
            h,
            observable,
        });
        self.lists.fresh.push((g + h, Entry::Node(id)));
    }

    /// Projects node `n` across the face beyond it; where an end of its interval is a vertex a
    /// wall meets, the path may turn there.
    fn expand(&mut self, n: usize, observer: &mut impl Observer<PolyanyaEvent>) {
        let node = self.lists.nodes[n];
        let root = self.lists.roots[node.root as usize];
        if let Some((_, surface, _)) = root.vertex
            && self.best_g(surface).0 < root.g
        {
            observer.event(PolyanyaEvent::Pruned {
                node: Some(n),
                reason: PruneReason::RootReachedCheaper,
            });
            return;
        }
        if node.round {
            self.step_round(n, &node, observer);
            return;
        }
        let p = node.into as FaceId;
        let cone = Some((node.right_side, node.left_side));
        self.offer_goal(node.root as usize, p, cone);
        self.offer_links(node.root as usize, p, cone, observer);
        let faces = self.faces;
        let face = faces.face(p);
        let k = node.slot as usize;
        // Entered across side A→B; the far sides, right to left as seen from the root, run
        // from B round to A.
        let (a, b) = (k, face.next(k));
        // Where the corners lie against the cone's sides, each worked out once.
        let side = |(x, y): Line, corner: usize| orient(x, y, face.corner(corner));
        let against = |corner: usize| Sides {
            right: side(node.right_side, corner),
            left: side(node.left_side, corner),
        };
        let before = self.lists.fresh.len();
        let (mut u, mut su) = (b, against(b));
        // The corner after B and the one before A, against the cone's sides.
        let (mut after_b, mut before_a) = (su, su);
        for step in 1..face.len() {
            let v = face.next(u);
            let sv = against(v);
            if step == 1 {
                after_b = sv;
            }
            if v == a {
                before_a = su;
            }
            // Side u (from corner u to corner u + 1).
            if face.sides[u].across != WALL {
                let corner = |i: usize| (face.corner(i), face.sides[i].vertex as VertId);
                if let Some((right, right_vertex, left, left_vertex)) = project(
                    (node.right_side, node.left_side),
                    (corner(u), su),
                    (corner(v), sv),
                ) {
                    let successor = Node {
                        root: node.root,
                        right,
                        left,
                        right_side: right_vertex.map_or(node.right_side, |_| (root.at, right)),
                        left_side: left_vertex.map_or(node.left_side, |_| (root.at, left)),
                        right_vertex,
                        left_vertex,
                        into: p as u32,
                        slot: u as u32,
                        round: false,
                    };
                    self.push_across(successor, true, observer);
                }
            }
            (u, su) = (v, sv);
        }
        let observable = self.lists.fresh.len() - before;
        // Past an end of the interval that is a corner, the part of the face beyond the cone's
        // side (when there is one, or when the side runs along the next side) is hidden from
        // the root: the path bends round the corner into it. Where floors fold over each other
        // it may also double back.
        // (With its end at that corner, the cone's side is the line from the root through it.)
        let mut turns = 0;
        if let Some(v) = node.right_vertex.map(|v| v as VertId)
            && node.right == face.corner(b)
            && self.fans.is_corner(v)
            && (after_b.right <= 0.0 || self.fans.is_fold(v))
        {
            turns += self.turn(node.root as usize, v, (p, k), Bend::Right, observer);
        }
        if let Some(v) = node.left_vertex.map(|v| v as VertId)
            && node.left == face.corner(a)
            && self.fans.is_corner(v)
            && (before_a.left >= 0.0 || self.fans.is_fold(v))
        {
            turns += self.turn(node.root as usize, v, (p, k), Bend::Left, observer);
        }
        observer.event(PolyanyaEvent::Expanded {
            node: n,
            observable,
            non_observable: turns,
        });
    }

    fn best_g(&self, surface: usize) -> (f64, u8) {
        self.lists
            .best_g
            .get(surface)
            .copied()
            .unwrap_or((f64::INFINITY, 0))
    }

    /// Makes `vertex` a root reached from root `from` on face `into` (entered across its side
    /// `entered`), bending `bend`, unless it was a root at a shorter length, or at the same
    /// length bending the same way; returns how many nodes it pushed.
    ///
    /// A root reached more cheaply before covers whatever this one would: a shortest path
    /// through the vertex goes on from its shortest arrival there, bending round the wall it
    /// meets. Two arrivals of the same length may bend different ways.
    fn turn(
        &mut self,
        from: usize,
        vertex: VertId,
        (into, entered): (FaceId, usize),
        bend: Bend,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) -> usize {
        let faces = self.faces;
        let face = faces.face(into);
        let Some(k) = face.corner_of(vertex) else {
            return 0;
        };
        let at = face.corner(k);
        let parent = self.lists.roots[from];
        // The path is there already: the parent's own successors go on from it.
        if at == parent.at {
            return 0;
        }
        let surface = face.sides[k].surface as usize;
        let g = parent.g + parent.at.distance(at);
        let (best, bends) = self.best_g(surface);
        let bit = 1 << bend as u8;
        if g > best || (g == best && bends & bit != 0) {
            observer.event(PolyanyaEvent::Pruned {
                node: None,
                reason: PruneReason::RootReachedCheaper,
            });
            return 0;
        }
        let bends = if g == best { bends | bit } else { bit };
        if let Some(slot) = self.lists.best_g.get_mut(surface) {
            if slot.0.is_infinite() {
                self.lists.touched.push(surface);
            }
            *slot = (g, bends);
        }
        observer.event(PolyanyaEvent::Turned { vertex, at, g });
        let r = self.lists.roots.len();
        self.lists.roots.push(Root {
            at,
            vertex: Some((vertex, surface, bend)),
            parent: Some(from),
            g,
            via: None,
        });
        let before = self.lists.fresh.len();
        let fans = self.fans;
        if fans.is_fold(vertex) {
            // Where floors fold over each other a path may double back, as seen in the plane:
            // every face round the vertex on its surface is a way on.
            let mut round = std::mem::take(&mut self.lists.fold_faces);
            faces_holding(faces, fans.triangles(surface), &mut round);
            for &f in &round {
                self.offer_goal(r, f, None);
                self.offer_links(r, f, None, observer);
                let face = faces.face(f);
                if let Some(k) = face.corner_of(vertex) {
                    // The sides not at the vertex.
                    let mut side = face.next(k);
                    for _ in 2..face.len() {
                        self.fan_edge(r, f, side, None, observer);
                        side = face.next(side);
                    }
                }
            }
            self.lists.fold_faces = round;
        } else {
            // The part of this face on the bend's side, then the faces round the vertex one by
            // one (`step_round`).
            self.offer_goal(r, into, None);
            self.offer_links(r, into, None, observer);
            self.round_face(r, into, entered, observer);
        }
        self.lists.fresh.len() - before
    }

    /// The successors of root `r` (a vertex) in face `f`, entered across its side `entered` at
    /// the vertex (by the node that bent there, or by a step round it): the sides not at the
    /// vertex, on the bend's side of the line from the parent root through it, and a step round
    /// the vertex across its other side at it, when the face beyond reaches that side.
    fn round_face(
        &mut self,
        r: usize,
        f: FaceId,
        entered: usize,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) {
        let root = self.lists.roots[r];
        let (Some((vertex, _, bend)), Some(parent)) = (root.vertex, root.parent) else {
            return;
        };
        let from = self.lists.roots[parent].at;
        let faces = self.faces;
        let face = faces.face(f);
        let Some(k) = face.corner_of(vertex) else {
            return;
        };
        // The sides not at the vertex, on the bend's side.
        let mut side = face.next(k);
        for _ in 2..face.len() {
            self.fan_edge(r, f, side, Some((from, root.at, bend)), observer);
            side = face.next(side);
        }
        // The other side at the vertex: side k runs from it to corner k + 1, side k - 1 comes
        // to it from corner k - 1.
        let (slot, other) = if entered == k {
            (face.prev(k), face.prev(k))
        } else {
            (k, face.next(k))
        };
        let sign = match bend {
            Bend::Right => -1.0,
            Bend::Left => 1.0,
        };
        let on_bend_side = |p: Vec2| orient(from, root.at, p) * sign > 0.0;
        // Step round only when the face beyond reaches the bend's side.
        let beyond = match face.sides[slot].across {
            WALL => return,
            MANY => None,
            n => Some(n as FaceId),
        };
        let reaches =
            beyond.is_some_and(|n| faces.face(n).sides.iter().any(|c| on_bend_side(c.corner)));
        if !on_bend_side(face.corner(other)) && !reaches {
            return;
        }
        let next = face.next(slot);
        let node = Node {
            root: r as u32,
            right: face.corner(slot),
            left: face.corner(next),
            right_side: (root.at, face.corner(slot)),
            left_side: (root.at, face.corner(next)),
            right_vertex: None,
            left_vertex: None,
            into: f as u32,
            slot: slot as u32,
            round: true,
        };
        self.push_across(node, false, observer);
    }

    /// Expands a step round a root: the face it enters.
    fn step_round(&mut self, n: usize, node: &Node, observer: &mut impl Observer<PolyanyaEvent>) {
        let before = self.lists.fresh.len();
        self.offer_goal(node.root as usize, node.into as FaceId, None);
        self.offer_links(node.root as usize, node.into as FaceId, None, observer);
        self.round_face(
            node.root as usize,
            node.into as FaceId,
            node.slot as usize,
            observer,
        );
        observer.event(PolyanyaEvent::Expanded {
            node: n,
            observable: 0,
            non_observable: self.lists.fresh.len() - before,
        });
    }
}
