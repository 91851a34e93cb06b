//! The paper's four ways to partition a scene — grid cells, quadtree squares, the visibility
//! graph's corners and navmesh triangles — built from one tile map and searched by the same A*
//! between the same two cells: how many nodes each has, how much work the search does, and how
//! long the path is before and after it is pulled straight.

use crate::geom::Vec2;
use crate::grid::free_segment::{HalfPoint, pull_straight};
use crate::grid::quadtree::QuadTree;
use crate::grid::visibility::VisibilityGraph;
use crate::grid::{Cell, Connectivity, GridAlgorithm, Heuristic, TileMap, grid_search};
use crate::navmesh::NavMesh;
use crate::navmesh::from_map::navmesh_from_map;
use crate::navmesh::query::{PathStatus, QueryOptions, find_path};
use crate::search::{NoObserver, SearchOutcome};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// The path through the nodes A* chose (cell centres, square centres, corners, or
    /// triangle centroids), from the start cell's centre to the goal cell's.
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
        points.windows(2).map(|p| p[0].distance(p[1])).sum()
    }
}

/// The four partitions of a map and what each gave between two cells; the built structures are
/// kept so that they can be drawn.
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
    /// The quadtree.
    pub quadtree: QuadTree,
    /// The visibility graph, unless refused.
    pub visibility: Option<VisibilityGraph>,
    /// The navmesh, unless refused.
    pub mesh: Option<Arc<NavMesh>>,
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
    let started = Instant::now();
    let links = grid_link_count(map, connectivity);
    let build_time = started.elapsed();
    let started = Instant::now();
    let algorithm = GridAlgorithm::AStar {
        heuristic: Heuristic::Octile,
        weight: 1.0,
    };
    let path = grid_search(map, from, to, algorithm, connectivity, &mut NoObserver);
    let cells: Vec<HalfPoint> = path.path.iter().map(|&c| HalfPoint::centre(c)).collect();
    let straight = pull_straight(map, &cells);
    results.push(PartitionResult {
        partition: Partition::Grid,
        nodes: map.passable_count(),
        links,
        outcome: path.outcome,
        expanded: path.expanded,
        raw: centres(&path.path),
        straight: to_vec2(&straight),
        build_time,
        search_time: started.elapsed(),
    });

    // Quadtree.
    let started = Instant::now();
    let quadtree = QuadTree::build(map);
    let build_time = started.elapsed();
    let started = Instant::now();
    let path = quadtree.find_path(map, from, to, &mut NoObserver);
    let straight = pull_straight(map, &path.points);
    results.push(PartitionResult {
        partition: Partition::QuadTree,
        nodes: quadtree.passable_count(),
        links: quadtree.link_count(),
        outcome: path.outcome,
        expanded: path.expanded,
        raw: to_vec2(&path.points),
        straight: to_vec2(&straight),
        build_time,
        search_time: started.elapsed(),
    });

    // Visibility graph.
    let started = Instant::now();
    let visibility = match VisibilityGraph::build(map) {
        Ok(graph) => {
            let build_time = started.elapsed();
            let started = Instant::now();
            let (a, b) = (HalfPoint::centre(from), HalfPoint::centre(to));
            let path = graph.find_path(map, a, b, &mut NoObserver);
            let points = to_vec2(&path.points);
            results.push(PartitionResult {
                partition: Partition::Visibility,
                nodes: graph.corner_count(),
                links: graph.link_count(),
                outcome: path.outcome,
                expanded: path.expanded,
                raw: points.clone(),
                straight: points,
                build_time,
                search_time: started.elapsed(),
            });
            Some(graph)
        }
        Err(error) => {
            refused.push((Partition::Visibility, error.to_string()));
            None
        }
    };

    // Navmesh.
    let started = Instant::now();
    let mesh = match navmesh_from_map(map, 0.0) {
        Ok(mesh) => {
            let build_time = started.elapsed();
            let started = Instant::now();
            let (a, b) = (
                HalfPoint::centre(from).to_vec2(),
                HalfPoint::centre(to).to_vec2(),
            );
            let on_map = map.is_passable(from) && map.is_passable(to);
            let path = on_map
                .then(|| {
                    find_path(
                        &mesh,
                        a,
                        b,
                        QueryOptions::default(),
                        &mut NoObserver,
                        &mut NoObserver,
                    )
                })
                .flatten()
                .filter(|p| p.status == PathStatus::Found);
            let links = mesh.edges().iter().filter(|e| !e.is_border()).count();
            let result = match path {
                Some(path) => {
                    let mut raw = vec![a];
                    raw.extend(path.corridor.iter().map(|&t| mesh.triangles()[t].centroid));
                    raw.push(b);
                    PartitionResult {
                        partition: Partition::NavMesh,
                        nodes: mesh.triangles().len(),
                        links,
                        outcome: SearchOutcome::Found,
                        expanded: path.expanded,
                        raw,
                        straight: path.waypoints,
                        build_time,
                        search_time: started.elapsed(),
                    }
                }
                None => PartitionResult {
                    partition: Partition::NavMesh,
                    nodes: mesh.triangles().len(),
                    links,
                    outcome: SearchOutcome::Unreachable,
                    expanded: 0,
                    raw: Vec::new(),
                    straight: Vec::new(),
                    build_time,
                    search_time: started.elapsed(),
                },
            };
            results.push(result);
            Some(Arc::new(mesh))
        }
        Err(error) => {
            refused.push((Partition::NavMesh, error.to_string()));
            None
        }
    };

    PartitionComparison {
        from,
        to,
        results,
        refused,
        quadtree,
        visibility,
        mesh,
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
