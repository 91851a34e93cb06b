//! The paper's four ways to partition a scene — grid cells, quadtree squares, the visibility
//! graph's corners and navmesh triangles — built from one tile map and searched by the same A*
//! between the same two cells: how many nodes each has, how much work the search does, and how
//! long the path is before and after it is pulled straight.

use crate::geom::Vec2;
use crate::grid::free_segment::{HalfPoint, pull_straight};
use crate::grid::quadtree::QuadTree;
use crate::grid::search::DEFAULT_WORK_LIMIT;
use crate::grid::visibility::VisibilityGraph;
use crate::grid::{Cell, Connectivity, GridAlgorithm, Heuristic, TileMap, grid_search};
use crate::navmesh::NavMesh;
use crate::navmesh::from_map::navmesh_from_map;
use crate::navmesh::query::{PathStatus, QueryOptions, find_path};
use crate::search::{NoObserver, Observer, SearchEvent, SearchOutcome, WorkLimit};
use std::sync::Arc;
use std::time::Duration;

/// One of the four partitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Partition {
    /// Every passable cell a node; steps to the 8 (or 4) neighbours.
    Grid,
    /// Squares of one kind of tile; steps between squares sharing a side.
    QuadTree,
    /// Convex corners of the walls; links between corners that see each other.
    Visibility,
    /// Triangles of the passable area; steps across shared edges.
    NavMesh,
}

impl Partition {
    /// All four, in the paper's order.
    pub const ALL: [Partition; 4] = [
        Partition::Grid,
        Partition::QuadTree,
        Partition::Visibility,
        Partition::NavMesh,
    ];

    /// The name shown and printed.
    pub fn name(self) -> &'static str {
        match self {
            Partition::Grid => "grid",
            Partition::QuadTree => "quadtree",
            Partition::Visibility => "visibility graph",
            Partition::NavMesh => "navmesh",
        }
    }

    /// What a node of this partition is.
    pub fn node_name(self) -> &'static str {
        match self {
            Partition::Grid => "cells",
            Partition::QuadTree => "squares",
            Partition::Visibility => "corners",
            Partition::NavMesh => "triangles",
        }
    }

    /// How the raw path is pulled straight in this partition.
    pub fn straightening(self) -> &'static str {
        match self {
            Partition::Grid | Partition::QuadTree => "line-of-sight smoothing",
            Partition::Visibility => "already straight",
            Partition::NavMesh => "funnel",
        }
    }
}

/// What one partition gave.
#[derive(Debug, Clone, PartialEq)]
pub struct PartitionResult {
    /// Which partition.
    pub partition: Partition,
    /// Nodes of its graph (passable ones).
    pub nodes: usize,
    /// Links between nodes.
    pub links: usize,
    /// How the search ended.
    pub outcome: SearchOutcome,
    /// Nodes A* expanded.
    pub expanded: usize,
    /// The nodes A* expanded, in order, as the partition numbers them: cell indices (`y ×
    /// width + x`), squares of [`QuadTree::squares`], corners of
    /// [`VisibilityGraph::corners`] (then the start and the goal), triangle ids.
    pub expanded_nodes: Vec<usize>,
    /// The path through the nodes A* chose (cell centres, square centres, corners, or
    /// triangle centroids), from the start cell's centre to the goal cell's; when both are in
    /// one square or triangle, just those two points.
    pub raw: Vec<Vec2>,
    /// The same path pulled straight (see [`Partition::straightening`]).
    pub straight: Vec<Vec2>,
    /// Time to build the partition from the map.
    pub build_time: Duration,
    /// Time to search it and pull the path straight.
    pub search_time: Duration,
}

impl PartitionResult {
    /// Length of [`raw`](Self::raw) (infinite when no path).
    pub fn raw_length(&self) -> f64 {
        length_or_infinite(&self.raw)
    }

    /// Length of [`straight`](Self::straight) (infinite when no path).
    pub fn straight_length(&self) -> f64 {
        length_or_infinite(&self.straight)
    }

    /// As `navlab partitions --json` prints it.
    pub fn to_json(&self) -> serde_json::Value {
        let points = |ps: &[Vec2]| ps.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>();
        let finite = |v: f64| v.is_finite().then_some(v);
        serde_json::json!({
            "partition": self.partition.name(),
            "nodes": self.nodes,
            "links": self.links,
            "status": self.outcome.name(),
            "expanded": self.expanded,
            "raw_length": finite(self.raw_length()),
            "straight_length": finite(self.straight_length()),
            "raw": points(&self.raw),
            "straight": points(&self.straight),
            "build_ms": self.build_time.as_secs_f64() * 1e3,
            "search_ms": self.search_time.as_secs_f64() * 1e3,
        })
    }
}

fn length_or_infinite(points: &[Vec2]) -> f64 {
    if points.is_empty() {
        f64::INFINITY
    } else {
        crate::search::funnel::path_length(points)
    }
}

/// A partition built from a map, or why it could not be, and how long that took.
#[derive(Debug)]
pub struct Built<T> {
    /// The structure, or the reason it was refused.
    pub structure: Result<Arc<T>, String>,
    /// Time spent building it (or finding it cannot be built).
    pub time: Duration,
}

// Not derived: that would ask `T: Clone`, and only the `Arc` is cloned.
impl<T> Clone for Built<T> {
    fn clone(&self) -> Self {
        Self {
            structure: self.structure.clone(),
            time: self.time,
        }
    }
}

impl<T> Built<T> {
    fn timed(build: impl FnOnce() -> Result<T, String>) -> Self {
        let started = crate::clock::Stopwatch::start();
        let structure = build().map(Arc::new);
        Self {
            structure,
            time: started.elapsed(),
        }
    }

    /// The structure, if it was built.
    pub fn get(&self) -> Option<&T> {
        self.structure.as_deref().ok()
    }
}

/// The four partitions of one map, built once: searching them between other cells needs no
/// rebuilding (what the Partitions window does while S or G is dragged). Cheap to clone.
#[derive(Debug, Clone)]
pub struct BuiltPartitions {
    /// The grid's moves.
    pub connectivity: Connectivity,
    /// The grid: only its links are counted.
    pub grid_links: Built<usize>,
    /// The quadtree.
    pub quadtree: Built<QuadTree>,
    /// The visibility graph.
    pub visibility: Built<VisibilityGraph>,
    /// The navmesh.
    pub mesh: Built<NavMesh>,
}

/// Builds the four partitions of `map` (the grid moving with `connectivity`).
pub fn build_partitions(map: &TileMap, connectivity: Connectivity) -> BuiltPartitions {
    BuiltPartitions {
        connectivity,
        grid_links: Built::timed(|| Ok(grid_link_count(map, connectivity))),
        quadtree: Built::timed(|| QuadTree::build(map)),
        visibility: Built::timed(|| VisibilityGraph::build(map).map_err(|e| e.to_string())),
        mesh: Built::timed(|| navmesh_from_map(map, 0.0).map_err(|e| e.to_string())),
    }
}

/// The four partitions of a map and what each gave between two cells; the built structures are
/// kept so that they can be drawn and searched again.
#[derive(Debug, Clone)]
pub struct PartitionComparison {
    /// Start cell.
    pub from: Cell,
    /// Goal cell.
    pub to: Cell,
    /// One result per partition that could be built, in [`Partition::ALL`] order.
    pub results: Vec<PartitionResult>,
    /// Partitions that could not be built, and why.
    pub refused: Vec<(Partition, String)>,
    /// The partitions searched.
    pub built: BuiltPartitions,
    /// Width of the map, in cells (grid node `n` is cell `(n % width, n / width)`).
    pub map_width: usize,
}

impl PartitionComparison {
    /// The result of `partition`, if it was built.
    pub fn result(&self, partition: Partition) -> Option<&PartitionResult> {
        self.results.iter().find(|r| r.partition == partition)
    }

    /// As `navlab partitions --json` prints it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "from": [self.from.0, self.from.1],
            "to": [self.to.0, self.to.1],
            "partitions": self.results.iter().map(PartitionResult::to_json).collect::<Vec<_>>(),
            "refused": self.refused.iter().map(|(p, why)| serde_json::json!({
                "partition": p.name(),
                "reason": why,
            })).collect::<Vec<_>>(),
        })
    }
}

/// Builds the four partitions of `map` and finds a path from `from` to `to` (cells) on each.
/// The grid moves with `connectivity`; the other three move freely between their nodes. The
/// grid and the quadtree weigh steps by terrain cost; the visibility graph and the navmesh
/// measure distance only. Lengths are Euclidean, in tiles.
pub fn compare_partitions(
    map: &TileMap,
    from: Cell,
    to: Cell,
    connectivity: Connectivity,
) -> PartitionComparison {
    search_partitions(build_partitions(map, connectivity), map, from, to)
}

/// Collects the nodes a search expands, in order.
#[derive(Default)]
struct Expansions(Vec<usize>);

impl Observer<SearchEvent> for Expansions {
    fn event(&mut self, event: SearchEvent) {
        if let SearchEvent::Expanded { node, .. } = event {
            self.0.push(node);
        }
    }
}

/// [`compare_partitions`] with partitions already built from `map`.
pub fn search_partitions(
    built: BuiltPartitions,
    map: &TileMap,
    from: Cell,
    to: Cell,
) -> PartitionComparison {
    let centres = |cells: &[Cell]| -> Vec<Vec2> {
        cells
            .iter()
            .map(|&c| HalfPoint::centre(c).to_vec2())
            .collect()
    };
    let to_vec2 = |ps: &[HalfPoint]| -> Vec<Vec2> { ps.iter().map(|p| p.to_vec2()).collect() };
    let mut results = Vec::new();
    let mut refused = Vec::new();

    // Grid: the cells themselves.
    let started = crate::clock::Stopwatch::start();
    let algorithm = GridAlgorithm::AStar {
        heuristic: Heuristic::Octile,
        weight: 1.0,
    };
    let mut expansions = Expansions::default();
    let path = grid_search(
        map,
        from,
        to,
        algorithm,
        built.connectivity,
        &mut WorkLimit::new(&mut expansions, DEFAULT_WORK_LIMIT),
    );
    let cells: Vec<HalfPoint> = path.path.iter().map(|&c| HalfPoint::centre(c)).collect();
    let straight = pull_straight(map, &cells);
    results.push(PartitionResult {
        partition: Partition::Grid,
        nodes: map.passable_count(),
        links: built.grid_links.get().copied().unwrap_or(0),
        outcome: path.outcome,
        expanded: path.expanded,
        expanded_nodes: expansions.0,
        raw: centres(&path.path),
        straight: to_vec2(&straight),
        build_time: built.grid_links.time,
        search_time: started.elapsed(),
    });

    // Quadtree.
    if let Err(why) = &built.quadtree.structure {
        refused.push((Partition::QuadTree, why.clone()));
    }
    if let Some(quadtree) = built.quadtree.get() {
        let started = crate::clock::Stopwatch::start();
        let mut expansions = Expansions::default();
        let path = quadtree.find_path(map, from, to, &mut expansions);
        let straight = pull_straight(map, &path.points);
        results.push(PartitionResult {
            partition: Partition::QuadTree,
            nodes: quadtree.passable_count(),
            links: quadtree.link_count(),
            outcome: path.outcome,
            expanded: path.expanded,
            expanded_nodes: expansions.0,
            raw: to_vec2(&path.points),
            straight: to_vec2(&straight),
            build_time: built.quadtree.time,
            search_time: started.elapsed(),
        });
    }

    // Visibility graph.
    match &built.visibility.structure {
        Ok(graph) => {
            let started = crate::clock::Stopwatch::start();
            let (a, b) = (HalfPoint::centre(from), HalfPoint::centre(to));
            let mut expansions = Expansions::default();
            let path = graph.find_path(map, a, b, &mut expansions);
            let points = to_vec2(&path.points);
            results.push(PartitionResult {
                partition: Partition::Visibility,
                nodes: graph.corner_count(),
                links: graph.link_count(),
                outcome: path.outcome,
                expanded: path.expanded,
                expanded_nodes: expansions.0,
                raw: points.clone(),
                straight: points,
                build_time: built.visibility.time,
                search_time: started.elapsed(),
            });
        }
        Err(why) => refused.push((Partition::Visibility, why.clone())),
    }

    // Navmesh.
    match &built.mesh.structure {
        Ok(mesh) => results.push(search_mesh(mesh, built.mesh.time, map, from, to)),
        Err(why) => refused.push((Partition::NavMesh, why.clone())),
    }

    PartitionComparison {
        from,
        to,
        results,
        refused,
        built,
        map_width: map.width(),
    }
}

/// The navmesh's result: A* over its triangles and the funnel, between the cells' centres.
fn search_mesh(
    mesh: &NavMesh,
    build_time: Duration,
    map: &TileMap,
    from: Cell,
    to: Cell,
) -> PartitionResult {
    let started = crate::clock::Stopwatch::start();
    let (a, b) = (
        HalfPoint::centre(from).to_vec2(),
        HalfPoint::centre(to).to_vec2(),
    );
    let on_map = map.is_passable(from) && map.is_passable(to);
    let mut expansions = Expansions::default();
    let path = on_map
        .then(|| {
            find_path(
                mesh,
                a,
                b,
                QueryOptions::default(),
                &mut expansions,
                &mut NoObserver,
            )
        })
        .flatten()
        .filter(|p| p.status == PathStatus::Found);
    let links = mesh.edges().iter().filter(|e| !e.is_border()).count();
    let (outcome, expanded, raw, straight) = match path {
        Some(path) => {
            let mut raw = vec![a];
            // A triangle is convex: within one, the raw path is the straight step.
            if path.corridor.len() > 1 {
                raw.extend(
                    path.corridor
                        .iter()
                        .filter_map(|&t| mesh.triangles().get(t))
                        .map(|t| t.centroid),
                );
            }
            raw.push(b);
            (SearchOutcome::Found, path.expanded, raw, path.waypoints)
        }
        None => (
            SearchOutcome::Unreachable,
            expansions.0.len(),
            Vec::new(),
            Vec::new(),
        ),
    };
    PartitionResult {
        partition: Partition::NavMesh,
        nodes: mesh.triangles().len(),
        links,
        outcome,
        expanded,
        expanded_nodes: expansions.0,
        raw,
        straight,
        build_time,
        search_time: started.elapsed(),
    }
}

/// Number of pairs of cells one step apart.
fn grid_link_count(map: &TileMap, connectivity: Connectivity) -> usize {
    let mut out = Vec::new();
    let mut steps = 0;
    for i in 0..map.cell_count() {
        if map.tiles().get(i).is_some_and(|t| t.is_passable()) {
            out.clear();
            map.successors(i, connectivity, &mut out);
            steps += out.len();
        }
    }
    steps / 2
}
