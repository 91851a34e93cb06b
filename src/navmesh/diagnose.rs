//! Mesh diagnostics for level designers: what is wrong with an exported navmesh (islands,
//! non-manifold edges, degenerate and needle triangles, duplicate and near-duplicate vertices,
//! T-junctions, inconsistent winding, overlaps, vertices off the plane), and a repair that welds
//! near-duplicates and splits edges at T-junctions.

use super::build::{is_sliver, largest_side, weld};
use super::{NavMesh, RawMesh};
use crate::geom::{Vec2, orient, polygon_area2, triangulate_polygon};
use rstar::{AABB, RTree, RTreeObject, primitives::GeomWithData};
use serde::Serialize;
use std::collections::HashMap;

/// How sensitive the checks are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheckOptions {
    /// Triangles whose smallest angle is below this many degrees are needles.
    pub needle_degrees: f64,
    /// Vertices closer than this (relative to the mesh's largest bounding-box side) but not
    /// welded on load are near-duplicates; also the distance at which a vertex counts as lying
    /// on an edge (T-junction) and the depth below which triangles only touch.
    pub near_relative: f64,
    /// Vertices farther than this (relative to the horizontal diagonal) from the mesh's
    /// least-squares plane are off the plane.
    pub off_plane_relative: f64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            needle_degrees: 5.0,
            near_relative: 1e-4,
            off_plane_relative: 0.15,
        }
    }
}

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Breaks navigation: paths missing, wrong, or through nothing.
    Error,
    /// Suspicious or sloppy; may be intended.
    Warning,
}

/// The kinds of finding, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// More than one face-connected component.
    Islands,
    /// Edges shared by three or more triangles.
    NonManifoldEdge,
    /// Triangles with no area in the plane (collinear corners, repeated corners, vertical faces).
    DegenerateTriangle,
    /// Triangles with a tiny angle.
    NeedleTriangle,
    /// Vertices at the same position (welded on load).
    DuplicateVertex,
    /// Vertices a hair apart that are not welded: a seam with no connection across it.
    NearDuplicateVertex,
    /// A vertex on another triangle's border edge that is not one of its corners.
    TJunction,
    /// Triangles wound the other way from the rest.
    InconsistentWinding,
    /// Triangles overlapping in the projection plane.
    Overlap,
    /// Vertices far from the mesh's average plane (steep parts).
    OffPlane,
    /// A Polyanya file's own neighbour lists disagree with its polygons.
    NeighbourList,
}

impl FindingKind {
    /// Every kind, in report order: what breaks connectivity first, cosmetic last.
    pub const ALL: [FindingKind; 11] = [
        FindingKind::Islands,
        FindingKind::NonManifoldEdge,
        FindingKind::NearDuplicateVertex,
        FindingKind::TJunction,
        FindingKind::NeighbourList,
        FindingKind::DegenerateTriangle,
        FindingKind::Overlap,
        FindingKind::InconsistentWinding,
        FindingKind::NeedleTriangle,
        FindingKind::DuplicateVertex,
        FindingKind::OffPlane,
    ];

    /// Its severity.
    pub fn severity(self) -> Severity {
        match self {
            FindingKind::NonManifoldEdge
            | FindingKind::DegenerateTriangle
            | FindingKind::NearDuplicateVertex
            | FindingKind::TJunction
            | FindingKind::NeighbourList => Severity::Error,
            _ => Severity::Warning,
        }
    }

    /// The name used in reports (as in the JSON).
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Islands => "islands",
            FindingKind::NonManifoldEdge => "non_manifold_edge",
            FindingKind::DegenerateTriangle => "degenerate_triangle",
            FindingKind::NeedleTriangle => "needle_triangle",
            FindingKind::DuplicateVertex => "duplicate_vertex",
            FindingKind::NearDuplicateVertex => "near_duplicate_vertex",
            FindingKind::TJunction => "t_junction",
            FindingKind::InconsistentWinding => "inconsistent_winding",
            FindingKind::Overlap => "overlap",
            FindingKind::OffPlane => "off_plane",
            FindingKind::NeighbourList => "neighbour_list",
        }
    }

    /// What it means and why it matters, in a sentence.
    pub fn explain(self) -> &'static str {
        match self {
            FindingKind::Islands => {
                "The mesh falls apart into pieces with no shared edge: no path leads from one to another."
            }
            FindingKind::NonManifoldEdge => {
                "An edge shared by three or more triangles (overlapping layers or a fold): which side a path takes is arbitrary."
            }
            FindingKind::DegenerateTriangle => {
                "A triangle with no area in the plane (collinear or repeated corners, or a vertical wall face): dropped on load."
            }
            FindingKind::NeedleTriangle => {
                "A very thin triangle: legal, but it makes corridors zig-zag and portals tiny."
            }
            FindingKind::DuplicateVertex => {
                "Vertices at the same position: welded on load, but the exporter wrote them twice."
            }
            FindingKind::NearDuplicateVertex => {
                "Vertices a hair apart (float noise in the export) that are not welded: the faces on either side are not connected."
            }
            FindingKind::TJunction => {
                "A vertex lies on another triangle's edge without being its corner: the faces there share no edge, so they are not connected."
            }
            FindingKind::InconsistentWinding => {
                "Triangles wound the other way from the rest (flipped faces)."
            }
            FindingKind::Overlap => {
                "Triangles overlapping in the plane: which one a point is on is ambiguous (a multi-level mesh does this on purpose)."
            }
            FindingKind::OffPlane => {
                "Vertices far above or below the mesh's average plane: steep parts, or geometry that is not floor."
            }
            FindingKind::NeighbourList => {
                "The file's own neighbour lists disagree with its polygons. Polyanya follows these lists (navlab rebuilds adjacency from shared vertices), so Polyanya's paths here would go wrong."
            }
        }
    }
}

/// One occurrence of a finding, located.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FindingItem {
    /// Faces (polygons, 0-based in file order) involved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub faces: Vec<usize>,
    /// Vertices (0-based in file order) involved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vertices: Vec<usize>,
    /// Where it is, in the plane (x, z for XZ meshes).
    pub at: [f64; 2],
    /// Details in words.
    pub note: String,
}

/// All occurrences of one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The kind.
    pub kind: FindingKind,
    /// Its severity.
    pub severity: Severity,
    /// Number of items.
    pub count: usize,
    /// The occurrences.
    pub items: Vec<FindingItem>,
}

/// The diagnostics of a mesh.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// Face-connected components after welding.
    pub islands: usize,
    /// Findings by kind (only kinds that occur), in [`FindingKind::ALL`] order.
    pub findings: Vec<Finding>,
}

impl CheckReport {
    /// True when nothing was found.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// True when some finding is an error.
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// How many items were found of the kinds with this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(|f| f.count)
            .sum()
    }

    /// The finding of `kind`, if any.
    pub fn get(&self, kind: FindingKind) -> Option<&Finding> {
        self.findings.iter().find(|f| f.kind == kind)
    }
}

/// A triangle of the input (after triangulating its polygon), kept for the checks.
#[derive(Debug, Clone, Copy)]
struct InputTriangle {
    face: usize,
    /// Input vertex ids.
    raw: [usize; 3],
    /// Welded vertex ids.
    welded: [usize; 3],
}

/// The input prepared for the checks: projected points, welding, triangles.
struct Prepared {
    points: Vec<Vec2>,
    heights: Vec<f64>,
    /// Input vertex → welded id.
    weld_map: Vec<usize>,
    /// Welded id → the first input vertex with it.
    first_raw: Vec<usize>,
    /// Welded positions (3D).
    welded: Vec<[f64; 3]>,
    weld_tolerance: f64,
    near: f64,
    triangles: Vec<InputTriangle>,
    degenerate: Vec<FindingItem>,
    /// The file's vertex numbers (see [`RawMesh::vertex_ids`]).
    vertex_ids: Vec<usize>,
    /// Edges between welded vertices with the triangles using them, sorted by edge.
    edges: Vec<([usize; 2], Vec<usize>)>,
    /// Welded vertices used by a kept triangle.
    used: Vec<bool>,
}

impl Prepared {
    /// The file's number of input vertex `v`.
    fn id(&self, v: usize) -> usize {
        self.vertex_ids.get(v).copied().unwrap_or(v)
    }
}

fn prepare(raw: &RawMesh, options: &CheckOptions) -> Prepared {
    let projected: Vec<(Vec2, f64)> = raw
        .positions
        .iter()
        .map(|&p| raw.plane.project(p))
        .collect();
    let points: Vec<Vec2> = projected.iter().map(|&(p, _)| p).collect();
    let heights: Vec<f64> = projected.iter().map(|&(_, h)| h).collect();
    let defaults = super::BuildOptions::default();
    let (weld_map, welded, weld_tolerance) = weld(&raw.positions, defaults.relative_weld_tolerance);
    let mut first_raw = vec![usize::MAX; welded.len()];
    for (i, &w) in weld_map.iter().enumerate() {
        if let Some(slot) = first_raw.get_mut(w)
            && *slot == usize::MAX
        {
            *slot = i;
        }
    }
    let extent = largest_side(&raw.positions);
    let near = (options.near_relative * extent).max(weld_tolerance);
    let mut triangles = Vec::new();
    let mut degenerate = Vec::new();
    let valid = |v: usize| {
        raw.positions
            .get(v)
            .is_some_and(|p| p.iter().all(|c| c.is_finite()))
    };
    for (face, poly) in raw.polygons.iter().enumerate() {
        if poly.len() < 3 || !poly.iter().all(|&v| valid(v)) {
            degenerate.push(FindingItem {
                faces: vec![face],
                vertices: poly
                    .iter()
                    .copied()
                    .filter(|&v| valid(v))
                    .map(|v| raw.vertex_id(v))
                    .collect(),
                at: mean_point(poly.iter().filter(|&&v| valid(v)).map(|&v| points[v])),
                note: format!("face {face} has fewer than three usable corners"),
            });
            continue;
        }
        let ring_points: Vec<Vec2> = poly.iter().map(|&v| points[v]).collect();
        let local: Vec<[usize; 3]> = if poly.len() == 3 {
            vec![[0, 1, 2]]
        } else {
            triangulate_polygon(&ring_points)
        };
        let mut flagged = false;
        if local.len() < poly.len() - 2 {
            flagged = true;
        }
        for [a, b, c] in local {
            let r = [poly[a], poly[b], poly[c]];
            let w = r.map(|v| weld_map[v]);
            let (pa, pb, pc) = (points[r[0]], points[r[1]], points[r[2]]);
            if w[0] == w[1] || w[1] == w[2] || w[0] == w[2] || is_sliver(pa, pb, pc) {
                flagged = true;
                continue;
            }
            triangles.push(InputTriangle {
                face,
                raw: r,
                welded: w,
            });
        }
        if flagged {
            let vertical = poly
                .iter()
                .map(|&v| heights[v])
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), h| {
                    (lo.min(h), hi.max(h))
                });
            let note = if vertical.1 - vertical.0 > near {
                format!(
                    "face {face} has no area in the plane but rises {:.3}: a vertical face such as a wall",
                    vertical.1 - vertical.0
                )
            } else {
                format!(
                    "face {face} has (part of) its area collapsed: collinear or repeated corners"
                )
            };
            degenerate.push(FindingItem {
                faces: vec![face],
                vertices: poly.iter().map(|&v| raw.vertex_id(v)).collect(),
                at: mean_point(ring_points.iter().copied()),
                note,
            });
        }
    }
    let mut edge_map: HashMap<[usize; 2], Vec<usize>> = HashMap::new();
    let mut used = vec![false; welded.len()];
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri.welded[k], tri.welded[(k + 1) % 3]);
            edge_map.entry([a.min(b), a.max(b)]).or_default().push(t);
            used[a] = true;
        }
    }
    let mut edges: Vec<([usize; 2], Vec<usize>)> = edge_map.into_iter().collect();
    edges.sort_unstable_by_key(|(k, _)| *k);
    Prepared {
        points,
        heights,
        weld_map,
        first_raw,
        welded,
        weld_tolerance,
        near,
        triangles,
        degenerate,
        vertex_ids: raw.vertex_ids.clone(),
        edges,
        used,
    }
}

/// Disjoint sets over `0..n` (union-find with path halving); the smaller id is the root.
struct DisjointSets(Vec<usize>);

impl DisjointSets {
    fn new(n: usize) -> Self {
        Self((0..n).collect())
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }

    /// Joins the sets of `a` and `b`; returns false when they were already one.
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb)] = ra.min(rb);
        }
        ra != rb
    }
}

/// The places where a Polyanya file's neighbour lists disagree with its polygons (found when
/// it was read), located at the polygon or vertex.
fn neighbour_lists(raw: &RawMesh, prep: &Prepared) -> Vec<FindingItem> {
    raw.neighbour_list_problems
        .iter()
        .map(|problem| {
            let polygon = problem.polygon.and_then(|p| raw.polygons.get(p));
            let place = match (polygon, problem.vertex) {
                (Some(ring), _) => {
                    mean_point(ring.iter().filter_map(|&v| prep.points.get(v).copied()))
                }
                (None, Some(v)) => prep.points.get(v).map_or([0.0, 0.0], |&p| at(p)),
                (None, None) => [0.0, 0.0],
            };
            FindingItem {
                faces: problem.polygon.into_iter().collect(),
                vertices: problem
                    .vertex
                    .map(|v| raw.vertex_id(v))
                    .into_iter()
                    .collect(),
                at: place,
                note: format!("line {}: {}", problem.line, problem.message),
            }
        })
        .collect()
}

fn mean_point(points: impl Iterator<Item = Vec2>) -> [f64; 2] {
    let (mut sum, mut n) = (Vec2::default(), 0.0);
    for p in points {
        sum = sum + p;
        n += 1.0;
    }
    if n > 0.0 {
        [sum.x / n, sum.y / n]
    } else {
        [0.0, 0.0]
    }
}

fn at(p: Vec2) -> [f64; 2] {
    [p.x, p.y]
}

fn distance3(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// Checks the mesh as given (its [`NavMesh::raw`] polygons), with the default welding.
pub fn check(mesh: &NavMesh, options: &CheckOptions) -> CheckReport {
    check_raw(mesh.raw(), options)
}

/// Checks polygons as read from a file.
pub fn check_raw(raw: &RawMesh, options: &CheckOptions) -> CheckReport {
    let prep = prepare(raw, options);
    let mut findings: HashMap<FindingKind, Vec<FindingItem>> = HashMap::new();
    let mut add = |kind: FindingKind, items: Vec<FindingItem>| {
        if !items.is_empty() {
            findings.entry(kind).or_default().extend(items);
        }
    };
    add(FindingKind::DegenerateTriangle, prep.degenerate.clone());

    let (islands, island_items) = islands(&prep);
    if islands > 1 {
        add(FindingKind::Islands, island_items);
    }
    add(FindingKind::NonManifoldEdge, non_manifold(&prep));
    add(
        FindingKind::NeedleTriangle,
        needles(&prep, options.needle_degrees),
    );
    add(FindingKind::DuplicateVertex, duplicates(raw, &prep));
    add(FindingKind::NearDuplicateVertex, near_duplicates(&prep));
    add(FindingKind::TJunction, t_junctions(&prep));
    add(FindingKind::InconsistentWinding, winding(raw, &prep));
    add(FindingKind::Overlap, overlaps(&prep));
    add(
        FindingKind::OffPlane,
        off_plane(&prep, options.off_plane_relative),
    );
    add(FindingKind::NeighbourList, neighbour_lists(raw, &prep));

    let findings = FindingKind::ALL
        .iter()
        .filter_map(|&kind| {
            let items = findings.remove(&kind)?;
            Some(Finding {
                kind,
                severity: kind.severity(),
                count: items.len(),
                items,
            })
        })
        .collect();
    CheckReport { islands, findings }
}

fn centroid(prep: &Prepared, tri: &InputTriangle) -> Vec2 {
    let [a, b, c] = tri.raw.map(|v| prep.points[v]);
    Vec2::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0)
}

fn islands(prep: &Prepared) -> (usize, Vec<FindingItem>) {
    let n = prep.triangles.len();
    let mut sets = DisjointSets::new(n);
    for (_, tris) in &prep.edges {
        for pair in tris.windows(2) {
            sets.union(pair[0], pair[1]);
        }
    }
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for t in 0..n {
        let root = sets.find(t);
        members.entry(root).or_default().push(t);
    }
    let mut groups: Vec<Vec<usize>> = members.into_values().collect();
    groups.sort_by_key(|g| (std::cmp::Reverse(g.len()), g[0]));
    let items = groups
        .iter()
        .enumerate()
        .map(|(i, tris)| {
            let mut faces: Vec<usize> = tris.iter().map(|&t| prep.triangles[t].face).collect();
            faces.dedup();
            let area: f64 = tris
                .iter()
                .map(|&t| {
                    let [a, b, c] = prep.triangles[t].raw.map(|v| prep.points[v]);
                    orient(a, b, c).abs() / 2.0
                })
                .sum();
            let centre = mean_point(tris.iter().map(|&t| centroid(prep, &prep.triangles[t])));
            FindingItem {
                note: format!(
                    "island {}: {} triangles, area {area:.3}{}",
                    i + 1,
                    tris.len(),
                    if i == 0 { " (the largest)" } else { "" }
                ),
                faces,
                vertices: Vec::new(),
                at: centre,
            }
        })
        .collect();
    (groups.len(), items)
}

fn non_manifold(prep: &Prepared) -> Vec<FindingItem> {
    prep.edges
        .iter()
        .filter(|(_, tris)| tris.len() >= 3)
        .map(|(key, tris)| {
            let [a, b] = key.map(|w| prep.first_raw[w]);
            let mut faces: Vec<usize> = tris.iter().map(|&t| prep.triangles[t].face).collect();
            faces.sort_unstable();
            faces.dedup();
            FindingItem {
                note: format!(
                    "edge {}–{} is shared by {} triangles",
                    prep.id(a),
                    prep.id(b),
                    tris.len()
                ),
                faces,
                vertices: vec![prep.id(a), prep.id(b)],
                at: at(prep.points[a].midpoint(prep.points[b])),
            }
        })
        .collect()
}

fn needles(prep: &Prepared, degrees: f64) -> Vec<FindingItem> {
    prep.triangles
        .iter()
        .filter_map(|tri| {
            let p = tri.raw.map(|v| prep.points[v]);
            let angle = (0..3)
                .map(|k| {
                    let (o, a, b) = (p[k], p[(k + 1) % 3], p[(k + 2) % 3]);
                    let (u, v) = (a - o, b - o);
                    u.cross(v).abs().atan2(u.dot(v)).to_degrees()
                })
                .fold(f64::INFINITY, f64::min);
            (angle < degrees).then(|| FindingItem {
                faces: vec![tri.face],
                vertices: tri.raw.iter().map(|&v| prep.id(v)).collect(),
                at: at(centroid(prep, tri)),
                note: format!("face {}: smallest angle {angle:.2}°", tri.face),
            })
        })
        .collect()
}

/// Used input vertices sharing a welded position with another.
fn duplicates(raw: &RawMesh, prep: &Prepared) -> Vec<FindingItem> {
    let mut used = vec![false; raw.positions.len()];
    for poly in &raw.polygons {
        for &v in poly {
            if let Some(u) = used.get_mut(v) {
                *u = true;
            }
        }
    }
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for (v, &w) in prep.weld_map.iter().enumerate() {
        if used[v] {
            groups.entry(w).or_default().push(v);
        }
    }
    let mut items: Vec<FindingItem> = groups
        .into_values()
        .map(|g| {
            // One file vertex used by several objects is copied by the reader, not duplicated.
            let mut ids: Vec<usize> = g.iter().map(|&v| prep.id(v)).collect();
            ids.sort_unstable();
            ids.dedup();
            (g, ids)
        })
        .filter(|(_, ids)| ids.len() > 1)
        .map(|(g, ids)| {
            let exact = g.iter().all(|&v| raw.positions[v] == raw.positions[g[0]]);
            FindingItem {
                note: format!(
                    "vertices {} are {}; welded on load",
                    join(&ids),
                    if exact {
                        "at the same position".to_string()
                    } else {
                        format!("within {:.2e} of each other", prep.weld_tolerance)
                    }
                ),
                at: at(prep.points[g[0]]),
                vertices: ids,
                faces: Vec::new(),
            }
        })
        .collect();
    items.sort_by_key(|i| i.vertices.first().copied());
    items
}

fn join(ids: &[usize]) -> String {
    ids.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Pairs of welded vertices closer than the near distance (but not welded).
fn near_pairs(prep: &Prepared) -> Vec<(usize, usize, f64)> {
    let used = &prep.used;
    let cell = prep.near.max(f64::MIN_POSITIVE);
    let key = |p: &[f64; 3]| p.map(|c| (c / cell).floor() as i64);
    let mut grid: HashMap<[i64; 3], Vec<usize>> = HashMap::new();
    for (w, p) in prep.welded.iter().enumerate() {
        if used[w] {
            grid.entry(key(p)).or_default().push(w);
        }
    }
    let mut pairs = Vec::new();
    for (w, p) in prep.welded.iter().enumerate() {
        if !used[w] {
            continue;
        }
        let k = key(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let Some(list) = grid.get(&[k[0] + dx, k[1] + dy, k[2] + dz]) else {
                        continue;
                    };
                    for &o in list {
                        if o > w {
                            let d = distance3(*p, prep.welded[o]);
                            if d <= prep.near {
                                pairs.push((w, o, d));
                            }
                        }
                    }
                }
            }
        }
    }
    pairs.sort_by_key(|&(a, b, _)| (a, b));
    pairs
}

fn near_duplicates(prep: &Prepared) -> Vec<FindingItem> {
    near_pairs(prep)
        .into_iter()
        .map(|(a, b, d)| {
            let (ra, rb) = (prep.first_raw[a], prep.first_raw[b]);
            let (ia, ib) = (prep.id(ra), prep.id(rb));
            FindingItem {
                note: format!(
                    "vertices {ia} and {ib} are {d:.2e} apart: not welded (tolerance {:.2e}), so the faces on either side are not connected",
                    prep.weld_tolerance
                ),
                faces: Vec::new(),
                vertices: vec![ia, ib],
                at: at(prep.points[ra]),
            }
        })
        .collect()
}

/// Welded vertices lying inside a border edge.
struct Junction {
    /// The edge's only triangle.
    triangle: usize,
    /// The edge (welded ids).
    edge: [usize; 2],
    /// Parameter along the edge and welded id of each vertex on it, in order.
    on: Vec<(f64, usize)>,
}

/// For each border edge (one triangle), the welded vertices lying on its interior, with their
/// parameter along the edge.
fn junctions(prep: &Prepared) -> Vec<Junction> {
    let used = &prep.used;
    type Point = GeomWithData<[f64; 2], usize>;
    let tree: RTree<Point> = RTree::bulk_load(
        (0..prep.welded.len())
            .filter(|&w| used[w])
            .map(|w| {
                let p = prep.points[prep.first_raw[w]];
                Point::new([p.x, p.y], w)
            })
            .collect(),
    );
    let mut out = Vec::new();
    for (key, tris) in &prep.edges {
        if tris.len() != 1 {
            continue;
        }
        let [a, b] = *key;
        let (pa, pb) = (prep.welded[a], prep.welded[b]);
        let (qa, qb) = (
            prep.points[prep.first_raw[a]],
            prep.points[prep.first_raw[b]],
        );
        let r = prep.near;
        let envelope = AABB::from_corners(
            [qa.x.min(qb.x) - r, qa.y.min(qb.y) - r],
            [qa.x.max(qb.x) + r, qa.y.max(qb.y) + r],
        );
        let length = distance3(pa, pb);
        if length <= 2.0 * r {
            continue;
        }
        let mut on: Vec<(f64, usize)> = Vec::new();
        for point in tree.locate_in_envelope(&envelope) {
            let v = point.data;
            if v == a || v == b {
                continue;
            }
            let pv = prep.welded[v];
            let ab = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
            let av = [pv[0] - pa[0], pv[1] - pa[1], pv[2] - pa[2]];
            let t = (ab[0] * av[0] + ab[1] * av[1] + ab[2] * av[2]) / (length * length);
            if t * length <= r || (1.0 - t) * length <= r {
                continue;
            }
            let closest = [pa[0] + ab[0] * t, pa[1] + ab[1] * t, pa[2] + ab[2] * t];
            if distance3(closest, pv) <= r {
                on.push((t, v));
            }
        }
        if !on.is_empty() {
            on.sort_by(|x, y| x.0.total_cmp(&y.0));
            out.push(Junction {
                triangle: tris[0],
                edge: [a, b],
                on,
            });
        }
    }
    out
}

fn t_junctions(prep: &Prepared) -> Vec<FindingItem> {
    junctions(prep)
        .into_iter()
        .flat_map(|Junction { triangle: t, edge: [a, b], on }| {
            let face = prep.triangles[t].face;
            let (ra, rb) = (prep.first_raw[a], prep.first_raw[b]);
            let (ia, ib) = (prep.id(ra), prep.id(rb));
            on.into_iter().map(move |(_, v)| {
                let rv = prep.first_raw[v];
                let iv = prep.id(rv);
                FindingItem {
                    note: format!(
                        "vertex {iv} lies on edge {ia}–{ib} of face {face} but is not its corner: no connection there"
                    ),
                    faces: vec![face],
                    vertices: vec![iv, ia, ib],
                    at: at(prep.points[rv]),
                }
            })
        })
        .collect()
}

/// Faces wound against the majority, judged by each face's signed area in the plane (the
/// triangulation of an n-gon does not keep the face's own order).
fn winding(raw: &RawMesh, prep: &Prepared) -> Vec<FindingItem> {
    let mut kept = vec![false; raw.polygons.len()];
    for t in &prep.triangles {
        kept[t.face] = true;
    }
    let signed: Vec<(usize, f64)> = raw
        .polygons
        .iter()
        .enumerate()
        .filter(|&(f, _)| kept[f])
        .map(|(f, poly)| {
            let ring: Vec<Vec2> = poly.iter().map(|&v| prep.points[v]).collect();
            (f, polygon_area2(&ring).signum())
        })
        .filter(|&(_, s)| s != 0.0)
        .collect();
    let positive = signed.iter().filter(|&&(_, s)| s > 0.0).count();
    let majority = if positive * 2 >= signed.len() {
        1.0
    } else {
        -1.0
    };
    let way = |s: f64| {
        if s > 0.0 {
            "counter-clockwise"
        } else {
            "clockwise"
        }
    };
    signed
        .into_iter()
        .filter(|&(_, s)| s != majority)
        .map(|(face, _)| {
            let poly = &raw.polygons[face];
            FindingItem {
                note: format!(
                    "face {face} is wound {} in the plane; most faces are {}",
                    way(-majority),
                    way(majority)
                ),
                faces: vec![face],
                vertices: poly.iter().map(|&v| prep.id(v)).collect(),
                at: mean_point(poly.iter().map(|&v| prep.points[v])),
            }
        })
        .collect()
}

/// True when the interiors of the two triangles overlap deeper than `tolerance`: no edge of
/// either separates them (separating axis test, edges as axes).
fn triangles_overlap(a: [Vec2; 3], b: [Vec2; 3], tolerance: f64) -> bool {
    let ccw = |t: [Vec2; 3]| {
        if orient(t[0], t[1], t[2]) < 0.0 {
            [t[0], t[2], t[1]]
        } else {
            t
        }
    };
    let (a, b) = (ccw(a), ccw(b));
    let separates = |t: [Vec2; 3], other: [Vec2; 3]| {
        (0..3).any(|k| {
            let (p, q) = (t[k], t[(k + 1) % 3]);
            let len = p.distance(q);
            len > 0.0
                && other
                    .iter()
                    .all(|&r| (q - p).cross(r - p) / len <= tolerance)
        })
    };
    !separates(a, b) && !separates(b, a)
}

fn overlaps(prep: &Prepared) -> Vec<FindingItem> {
    type Boxed = GeomWithData<rstar::primitives::Rectangle<[f64; 2]>, usize>;
    let corners = |t: &InputTriangle| t.raw.map(|v| prep.points[v]);
    let boxes: Vec<Boxed> = prep
        .triangles
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let p = corners(t);
            let lo = [
                p[0].x.min(p[1].x).min(p[2].x),
                p[0].y.min(p[1].y).min(p[2].y),
            ];
            let hi = [
                p[0].x.max(p[1].x).max(p[2].x),
                p[0].y.max(p[1].y).max(p[2].y),
            ];
            Boxed::new(rstar::primitives::Rectangle::from_corners(lo, hi), i)
        })
        .collect();
    let tree = RTree::bulk_load(boxes.clone());
    let mut items = Vec::new();
    for boxed in &boxes {
        let i = boxed.data;
        let ti = &prep.triangles[i];
        for other in tree.locate_in_envelope_intersecting(&boxed.geom().envelope()) {
            let j = other.data;
            if j <= i {
                continue;
            }
            let tj = &prep.triangles[j];
            if triangles_overlap(corners(ti), corners(tj), prep.near) {
                let mean_height =
                    |t: &InputTriangle| t.raw.iter().map(|&v| prep.heights[v]).sum::<f64>() / 3.0;
                let rise = (mean_height(ti) - mean_height(tj)).abs();
                let how = if rise > prep.near {
                    format!("{rise:.3} apart in height: layers")
                } else {
                    "at the same height".to_string()
                };
                items.push(FindingItem {
                    note: format!("faces {} and {} overlap, {how}", ti.face, tj.face),
                    faces: vec![ti.face, tj.face],
                    vertices: Vec::new(),
                    at: at(centroid(prep, ti).midpoint(centroid(prep, tj))),
                });
            }
        }
    }
    items.sort_by_key(|i| i.faces.clone());
    items.dedup_by(|x, y| x.faces == y.faces);
    items
}

fn off_plane(prep: &Prepared, relative: f64) -> Vec<FindingItem> {
    let used = &prep.used;
    let vs: Vec<usize> = (0..prep.welded.len())
        .filter(|&w| used[w])
        .map(|w| prep.first_raw[w])
        .collect();
    if vs.len() < 3 {
        return Vec::new();
    }
    // Least squares h = a x + b y + c (normal equations, Cramer's rule).
    let (mut sxx, mut sxy, mut syy, mut sx, mut sy, mut sh, mut sxh, mut syh) =
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for &v in &vs {
        let (p, h) = (prep.points[v], prep.heights[v]);
        sxx += p.x * p.x;
        sxy += p.x * p.y;
        syy += p.y * p.y;
        sx += p.x;
        sy += p.y;
        sh += h;
        sxh += p.x * h;
        syh += p.y * h;
    }
    let n = vs.len() as f64;
    let m = [[sxx, sxy, sx], [sxy, syy, sy], [sx, sy, n]];
    let rhs = [sxh, syh, sh];
    let det3 = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let det = det3(m);
    let (a, b, c) = if det.abs() > 1e-12 * (sxx * syy * n).abs().max(1e-300) {
        let solve = |k: usize| {
            let mut mk = m;
            for (row, value) in mk.iter_mut().zip(rhs) {
                row[k] = value;
            }
            det3(mk) / det
        };
        (solve(0), solve(1), solve(2))
    } else {
        (0.0, 0.0, sh / n)
    };
    let (mut lo, mut hi) = (
        Vec2::new(f64::INFINITY, f64::INFINITY),
        Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    );
    for &v in &vs {
        let p = prep.points[v];
        lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    let limit = relative * lo.distance(hi);
    let mut items: Vec<FindingItem> = vs
        .iter()
        .filter_map(|&v| {
            let (p, h) = (prep.points[v], prep.heights[v]);
            let offset = h - (a * p.x + b * p.y + c);
            (offset.abs() > limit).then(|| FindingItem {
                note: format!(
                    "vertex {} is {:.3} {} the mesh's average plane (limit {limit:.3})",
                    prep.id(v),
                    offset.abs(),
                    if offset > 0.0 { "above" } else { "below" }
                ),
                faces: Vec::new(),
                vertices: vec![prep.id(v)],
                at: at(p),
            })
        })
        .collect();
    items.sort_by_key(|i| i.vertices.first().copied());
    items
}

/// What [`repair`] changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct RepairSummary {
    /// Vertices merged into a near-duplicate.
    pub welded: usize,
    /// Vertices inserted into face outlines at T-junctions.
    pub split: usize,
}

/// Welds near-duplicate vertices and inserts T-junction vertices into the outlines of the faces
/// whose edge they lie on, so the faces on either side share edges. Positions are not moved.
pub fn repair(raw: &RawMesh, options: &CheckOptions) -> (RawMesh, RepairSummary) {
    let mut summary = RepairSummary::default();
    // 1. Near-duplicates: every input vertex points at the first of its near group.
    let prep = prepare(raw, options);
    let mut sets = DisjointSets::new(prep.welded.len());
    for (a, b, _) in near_pairs(&prep) {
        if sets.union(a, b) {
            summary.welded += 1;
        }
    }
    let target: Vec<usize> = (0..raw.positions.len())
        .map(|v| prep.first_raw[sets.find(prep.weld_map[v])])
        .collect();
    let mut polygons: Vec<Vec<usize>> = raw
        .polygons
        .iter()
        .map(|poly| {
            let mut ring: Vec<usize> = poly
                .iter()
                .map(|&v| target.get(v).copied().unwrap_or(v))
                .collect();
            ring.dedup();
            while ring.len() > 1 && ring.first() == ring.last() {
                ring.pop();
            }
            ring
        })
        .collect();
    let welded = RawMesh {
        polygons: polygons.clone(),
        ..raw.clone()
    };
    // 2. T-junctions, found on the welded mesh: insert into the face's outline.
    let prep = prepare(&welded, options);
    for Junction {
        triangle: t,
        edge: [a, b],
        on,
    } in junctions(&prep)
    {
        let face = prep.triangles[t].face;
        let Some(ring) = polygons.get_mut(face) else {
            continue;
        };
        let welded_of = |v: usize| prep.weld_map.get(v).copied();
        let n = ring.len();
        for k in 0..n {
            let (u, w) = (ring[k], ring[(k + 1) % n]);
            let (wu, ww) = (welded_of(u), welded_of(w));
            let forward = wu == Some(a) && ww == Some(b);
            let backward = wu == Some(b) && ww == Some(a);
            if !(forward || backward) {
                continue;
            }
            let mut inserted: Vec<usize> = on.iter().map(|&(_, v)| prep.first_raw[v]).collect();
            if backward {
                inserted.reverse();
            }
            summary.split += inserted.len();
            let at = k + 1;
            ring.splice(at..at, inserted);
            break;
        }
    }
    (
        RawMesh {
            polygons,
            // The file's lists described the polygons before the repair.
            neighbour_list_problems: Vec::new(),
            ..raw.clone()
        },
        summary,
    )
}
