//! Writing Polyanya `.mesh` files (format 2): convex polygons counter-clockwise, each with the
//! polygon across each edge, and each vertex with the polygons around it.

use super::{NavMesh, VertId, merge};
use crate::geom::Vec2;
use std::collections::HashMap;

/// Why a mesh cannot be written as a Polyanya mesh.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WriteError {
    /// Polyanya meshes are one flat layer: every edge has at most two sides.
    #[error(
        "the edge between {a} and {b} is shared by {count} triangles: a Polyanya mesh is one \
         flat layer, so overlapping surfaces (stairs over a floor) cannot be written; save as OBJ"
    )]
    NonManifold {
        /// One end of the edge.
        a: Vec2,
        /// The other end.
        b: Vec2,
        /// How many triangles share it.
        count: usize,
    },
}

/// The polygons a Polyanya file is cut into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PolygonShape {
    /// The triangles merged into convex polygons: fewer, larger polygons, which Polyanya
    /// searches faster (its own meshes are made this way).
    #[default]
    Convex,
    /// One polygon per triangle, as navlab shows the mesh.
    Triangles,
}

/// The mesh as Polyanya `.mesh` text, format version 2: the vertices the polygons use (in the
/// mesh's order), each with the polygons around it counter-clockwise and one -1 for each gap
/// between them (an obstacle or the outside); then each polygon counter-clockwise with the
/// polygon across each edge (`p[i]` across `v[i-1]`–`v[i]`, -1 for a wall). Coordinates are
/// the plane's (x, z for an XZ mesh), printed so that they read back exactly.
pub fn to_polyanya(mesh: &NavMesh, shape: PolygonShape) -> Result<String, WriteError> {
    let vertices = mesh.vertices();
    if let Some(edge) = mesh.edges().iter().find(|e| e.is_non_manifold()) {
        let end = |k: usize| vertices[edge.vertices[k]];
        return Err(WriteError::NonManifold {
            a: end(0),
            b: end(1),
            count: edge.triangles.len(),
        });
    }
    let polygons = match shape {
        PolygonShape::Convex => merge::convex_polygons(mesh),
        PolygonShape::Triangles => mesh
            .triangles()
            .iter()
            .map(|t| t.vertices.to_vec())
            .collect(),
    };
    Ok(write_polygons(vertices, &polygons))
}

/// Format 2 text for counter-clockwise `polygons` over `vertices` that meet edge to edge.
fn write_polygons(vertices: &[Vec2], polygons: &[Vec<VertId>]) -> String {
    use std::fmt::Write as _;
    // Who owns each directed edge (a polygon's edges run counter-clockwise, so the polygon
    // across a → b owns b → a).
    let mut owner: HashMap<(VertId, VertId), usize> = HashMap::new();
    // The polygons at each vertex, as (polygon, the corner the vertex is), in polygon order.
    let mut corners: Vec<Vec<(usize, usize)>> = vec![Vec::new(); vertices.len()];
    for (p, ring) in polygons.iter().enumerate() {
        for (j, &v) in ring.iter().enumerate() {
            owner.insert((v, ring[(j + 1) % ring.len()]), p);
            corners[v].push((p, j));
        }
    }
    let mut number = vec![usize::MAX; vertices.len()];
    let used: Vec<VertId> = (0..vertices.len())
        .filter(|&v| !corners[v].is_empty())
        .collect();
    for (n, &v) in used.iter().enumerate() {
        number[v] = n;
    }
    let mut out = format!("mesh\n2\n{} {}\n", used.len(), polygons.len());
    for &v in &used {
        let around = polygons_around(vertices, polygons, &owner, v, &corners[v]);
        let p = vertices[v];
        let _ = write!(out, "{} {} {}", p.x, p.y, around.len());
        for q in around {
            let _ = write!(out, " {q}");
        }
        out.push('\n');
    }
    for ring in polygons {
        let n = ring.len();
        let _ = write!(out, "{n}");
        for &v in ring {
            let _ = write!(out, " {}", number[v]);
        }
        for i in 0..n {
            let (a, b) = (ring[(i + n - 1) % n], ring[i]);
            let across = owner.get(&(b, a)).map_or(-1, |&q| q as i64);
            let _ = write!(out, " {across}");
        }
        out.push('\n');
    }
    out
}

/// The polygons around vertex `v` counter-clockwise, -1 standing for each gap between two of
/// them (a wall or the outside). Polygons that follow each other across an edge form a fan;
/// fans are put in order by the direction of their first edge.
fn polygons_around(
    vertices: &[Vec2],
    polygons: &[Vec<VertId>],
    owner: &HashMap<(VertId, VertId), usize>,
    v: VertId,
    corners: &[(usize, usize)],
) -> Vec<i64> {
    // `corners` is in polygon order (a polygon passes a vertex once): find one by bisection.
    let corner_of = |p: usize| {
        corners
            .binary_search_by_key(&p, |&(q, _)| q)
            .ok()
            .map(|i| (i, corners[i]))
    };
    let ring = |p: usize| &polygons[p];
    let after = |(p, j): (usize, usize)| ring(p)[(j + 1) % ring(p).len()];
    let before = |(p, j): (usize, usize)| ring(p)[(j + ring(p).len() - 1) % ring(p).len()];
    // Counter-clockwise around v a polygon starts on its edge to the corner after v and ends
    // on its edge from the corner before; the next polygon is the one across that edge.
    let next = |c: (usize, usize)| owner.get(&(v, before(c))).and_then(|&q| corner_of(q));
    let has_previous = |c: (usize, usize)| owner.contains_key(&(after(c), v));
    let mut fans: Vec<(f64, Vec<i64>)> = Vec::new();
    let mut placed = vec![false; corners.len()];
    // Fans that start at a wall first, then whatever is left (a full circle, inside the mesh).
    let starts = corners
        .iter()
        .copied()
        .filter(|&c| !has_previous(c))
        .chain(corners.iter().copied());
    for start in starts {
        if corner_of(start.0).is_none_or(|(i, _)| placed[i]) {
            continue;
        }
        let first = vertices[after(start)] - vertices[v];
        let mut fan = Vec::new();
        let mut at = corner_of(start.0);
        while let Some((i, c)) = at {
            if placed[i] {
                break;
            }
            placed[i] = true;
            fan.push(c.0 as i64);
            at = next(c);
        }
        fans.push((first.y.atan2(first.x), fan));
    }
    if let [(_, fan)] = fans.as_slice()
        && corners.iter().all(|&c| has_previous(c))
    {
        return fan.clone();
    }
    fans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut around = Vec::new();
    for (_, fan) in fans {
        around.extend(fan);
        around.push(-1);
    }
    around
}
