//! Re-triangulating one cluster of triangles (those the shapes touch, connected across edges)
//! as its surface minus the obstacles over it: a constrained Delaunay triangulation
//! ([`spade`]) of the cluster's outline, its area borders and the shapes' outlines, refined, and
//! each new triangle kept, given an area or dropped by what lies under its centroid.

use super::shape::Shape;
use crate::geom::{Vec2, triangle_contains};
use crate::navmesh::areas::AreaId;
use crate::navmesh::patch::Corner;
use crate::navmesh::{NavMesh, TriId};
use spade::handles::FixedVertexHandle;
use spade::{
    AngleLimit, ConstrainedDelaunayTriangulation, Point2, RefinementParameters, Triangulation,
};
use std::collections::HashMap;

/// Smallest angle the refinement aims for in the new triangles (the outline's own angles and
/// the triangles along it may stay smaller).
const MIN_ANGLE_DEGREES: f64 = 20.0;

/// The new triangles of a cluster.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Pieces {
    /// Vertices the mesh does not have: plane point and height.
    pub vertices: Vec<(Vec2, f64)>,
    /// Triangles, counter-clockwise, with their area types.
    pub triangles: Vec<([Corner; 3], AreaId)>,
    /// Area of the triangles kept.
    pub kept_area: f64,
}

/// Why a cluster cannot be cut.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CutError {
    /// The triangles under a shape overlap each other in the plane (floors stacked within one
    /// connected piece of surface, such as a spiral ramp).
    #[error(
        "the surface under the shape overlaps itself in the plane (stacked floors that are connected there); draw the shape on one floor elsewhere"
    )]
    Overlapping,
    /// The triangulation library refused a point.
    #[error("the shape could not be triangulated: {0}")]
    Triangulation(String),
}

/// Cuts `cluster` (triangle ids of `mesh`, sorted) with `shapes` (in order: a later area shape
/// paints over an earlier one; blocking shapes win over areas). `areas` gives each triangle of
/// the cluster its area type, in the cluster's order.
pub(crate) fn cut_cluster(
    mesh: &NavMesh,
    cluster: &[TriId],
    areas: &[AreaId],
    shapes: &[&Shape],
) -> Result<Pieces, CutError> {
    let in_cluster = |t: TriId| cluster.binary_search(&t).is_ok();
    let area_of = |t: TriId| {
        cluster
            .binary_search(&t)
            .ok()
            .and_then(|k| areas.get(k))
            .copied()
            .unwrap_or(0)
    };
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::new();
    let insert = |cdt: &mut ConstrainedDelaunayTriangulation<Point2<f64>>, p: Vec2| {
        cdt.insert(Point2::new(p.x, p.y))
            .map_err(|e| CutError::Triangulation(format!("{e:?}")))
    };

    // The cluster's own vertices map back to the mesh's.
    let mut mesh_vertex: HashMap<usize, usize> = HashMap::new();
    let mut handle_of: HashMap<usize, FixedVertexHandle> = HashMap::new();
    for &t in cluster {
        for &v in &mesh.triangles[t].vertices {
            if handle_of.contains_key(&v) {
                continue;
            }
            let h = insert(&mut cdt, mesh.vertices[v])?;
            if let Some(&other) = mesh_vertex.get(&h.index())
                && other != v
            {
                // Two vertices of the cluster at one point: layers that touch.
                return Err(CutError::Overlapping);
            }
            mesh_vertex.insert(h.index(), v);
            handle_of.insert(v, h);
        }
    }

    // Constraints: the cluster's outline and the borders between area types inside it.
    let mut base_edges: Vec<[usize; 2]> = Vec::new();
    for &t in cluster {
        let tri = &mesh.triangles[t];
        for &e in &tri.edges {
            let edge = &mesh.edges[e];
            let inside: Vec<TriId> = edge
                .triangles
                .iter()
                .copied()
                .filter(|&n| in_cluster(n))
                .collect();
            let outline = inside.len() != 2 || edge.triangles.len() != 2;
            let area_border = inside.len() == 2 && area_of(inside[0]) != area_of(inside[1]);
            if outline || area_border {
                base_edges.push(edge.vertices);
            }
        }
    }
    base_edges.sort_unstable();
    base_edges.dedup();
    for [a, b] in base_edges {
        let (Some(&ha), Some(&hb)) = (handle_of.get(&a), handle_of.get(&b)) else {
            continue;
        };
        cdt.add_constraint_and_split(ha, hb, |p| p);
    }
    // The shapes' outlines, split where they cross anything.
    for shape in shapes {
        let corners = shape.corners();
        let mut handles = Vec::with_capacity(corners.len());
        for &p in &corners {
            handles.push(insert(&mut cdt, p)?);
        }
        for k in 0..handles.len() {
            let (a, b) = (handles[k], handles[(k + 1) % handles.len()]);
            if a != b {
                cdt.add_constraint_and_split(a, b, |p| p);
            }
        }
    }
    let budget = 2 * cdt.num_vertices() + 32;
    cdt.refine(
        RefinementParameters::new()
            .keep_constraint_edges()
            .with_angle_limit(AngleLimit::from_deg(MIN_ANGLE_DEGREES))
            .with_max_additional_vertices(budget),
    );

    let at = |h: FixedVertexHandle| {
        let p = cdt.vertex(h).position();
        Vec2::new(p.x, p.y)
    };
    // Which cluster triangle holds a point (for areas and heights).
    let holder = |p: Vec2| -> Option<TriId> {
        mesh.tree()
            .locate_all_at_point(&[p.x, p.y])
            .map(|item| item.id)
            .filter(|&t| in_cluster(t))
            .min()
    };
    // Each shape's bounding box, to pass over the shapes far from a point at once.
    let boxes: Vec<(Vec2, Vec2)> = shapes.iter().map(|s| s.bounds()).collect();
    let rings: Vec<Vec<Vec2>> = shapes.iter().map(|s| s.corners()).collect();
    let covers = |k: usize, p: Vec2| {
        let (lo, hi) = boxes[k];
        lo.x <= p.x
            && p.x <= hi.x
            && lo.y <= p.y
            && p.y <= hi.y
            && super::shape::point_in_polygon(&rings[k], p)
    };
    let mut pieces = Pieces::default();
    let mut new_vertex: HashMap<usize, usize> = HashMap::new();
    let mut region_area = 0.0;
    let cluster_area: f64 = cluster.iter().map(|&t| mesh.triangles[t].area).sum();
    for face in cdt.inner_faces() {
        let mut hs = face.vertices().map(|v| v.fix());
        let [a, b, c] = hs.map(at);
        let turn = (b - a).cross(c - a);
        if turn == 0.0 {
            continue;
        }
        if turn < 0.0 {
            hs.swap(1, 2);
        }
        let centroid = (a + b + c) * (1.0 / 3.0);
        let Some(under) = holder(centroid) else {
            continue; // outside the cluster
        };
        region_area += turn.abs() / 2.0;
        if (0..shapes.len()).any(|k| shapes[k].kind.blocks() && covers(k, centroid)) {
            continue;
        }
        let area = (0..shapes.len())
            .rev()
            .find_map(|k| match shapes[k].kind {
                super::shape::ShapeKind::Area { area } if covers(k, centroid) => Some(area),
                _ => None,
            })
            .unwrap_or_else(|| area_of(under));
        let corners = hs.map(|h| match mesh_vertex.get(&h.index()) {
            Some(&v) => Corner::Old(v),
            None => {
                let next = pieces.vertices.len();
                let k = *new_vertex.entry(h.index()).or_insert(next);
                if k == next {
                    let p = at(h);
                    pieces
                        .vertices
                        .push((p, height_at(mesh, holder(p).unwrap_or(under), p)));
                }
                Corner::New(k)
            }
        });
        pieces.kept_area += turn.abs() / 2.0;
        pieces.triangles.push((corners, area));
    }
    // The new triangles tile the cluster exactly unless its triangles overlap one another.
    if (region_area - cluster_area).abs() > 1e-9 * cluster_area.max(f64::MIN_POSITIVE) {
        return Err(CutError::Overlapping);
    }
    Ok(pieces)
}

/// The height at `p` on the plane of triangle `t` (its corners' heights, interpolated).
fn height_at(mesh: &NavMesh, t: TriId, p: Vec2) -> f64 {
    let tri = &mesh.triangles[t];
    let [a, b, c] = tri.vertices.map(|v| mesh.vertices[v]);
    let [ha, hb, hc] = tri.vertices.map(|v| mesh.heights[v]);
    let total = (b - a).cross(c - a);
    if total == 0.0 || !triangle_contains(a, b, c, p) {
        return (ha + hb + hc) / 3.0;
    }
    let wa = (b - p).cross(c - p) / total;
    let wb = (c - p).cross(a - p) / total;
    let wc = 1.0 - wa - wb;
    wa * ha + wb * hb + wc * hc
}
