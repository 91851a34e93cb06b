//! Merging a triangulated mesh into convex polygons (Hertel and Mehlhorn): shared edges are
//! removed, longest first, wherever both of their ends stay convex.

use super::{NavMesh, VertId};
use crate::geom::{Vec2, orient};

/// The mesh's triangles merged into convex polygons, counter-clockwise. Every polygon is a
/// union of whole triangles, so the polygons cover the mesh exactly and meet edge to edge;
/// corners of 180° stay where a vertex lies on a polygon's side.
pub(crate) fn convex_polygons(mesh: &NavMesh) -> Vec<Vec<VertId>> {
    convex_merge(mesh, &|_| false).0
}

/// [`convex_polygons`], with the polygon each triangle joined (by its number in the list); no
/// polygon has a corner of 180° at a vertex where `strict` holds.
pub(crate) fn convex_merge(
    mesh: &NavMesh,
    strict: &dyn Fn(VertId) -> bool,
) -> (Vec<Vec<VertId>>, Vec<u32>) {
    let points = mesh.vertices();
    let mut rings: Vec<Option<Vec<VertId>>> = mesh
        .triangles()
        .iter()
        .map(|t| Some(t.vertices.to_vec()))
        .collect();
    // The ring a triangle has joined: a union-find forest over triangle ids.
    let mut parent: Vec<usize> = (0..rings.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let edges = mesh.edges();
    let length = |e: usize| {
        let [a, b] = edges[e].vertices;
        points[a].distance(points[b])
    };
    let mut shared: Vec<usize> = (0..edges.len())
        .filter(|&e| edges[e].triangles.len() == 2)
        .collect();
    shared.sort_by(|&a, &b| length(b).total_cmp(&length(a)).then(a.cmp(&b)));
    for e in shared {
        let [u, v] = edges[e].vertices;
        let (p, q) = (
            find(&mut parent, edges[e].triangles[0]),
            find(&mut parent, edges[e].triangles[1]),
        );
        if p == q {
            continue;
        }
        let merged = match (&rings[p], &rings[q]) {
            (Some(a), Some(b)) => join(a, b, (u, v), points, strict),
            _ => None,
        };
        if let Some(ring) = merged {
            rings[p] = Some(ring);
            rings[q] = None;
            parent[q] = p;
        }
    }
    // Each polygon numbered in the order of the triangle that holds its ring.
    let mut number = vec![u32::MAX; rings.len()];
    let mut polygons = Vec::new();
    for (t, ring) in rings.into_iter().enumerate() {
        if let Some(ring) = ring {
            number[t] = polygons.len() as u32;
            polygons.push(ring);
        }
    }
    let face_of = (0..number.len())
        .map(|t| number[find(&mut parent, t)])
        .collect();
    (polygons, face_of)
}

/// Rings `a` and `b` (counter-clockwise) joined across their shared edge `u`–`v`, when the
/// result passes each vertex once and is convex at both ends of the removed edge (elsewhere
/// nothing changes), and strictly so where `strict` holds.
fn join(
    a: &[VertId],
    b: &[VertId],
    (u, v): (VertId, VertId),
    points: &[Vec2],
    strict: &dyn Fn(VertId) -> bool,
) -> Option<Vec<VertId>> {
    let runs = |ring: &[VertId], from: VertId, to: VertId| {
        let i = ring.iter().position(|&w| w == from)?;
        (ring[(i + 1) % ring.len()] == to).then_some(i)
    };
    // `a` runs x → y along the edge, so `b` runs y → x.
    let (x, y) = if runs(a, u, v).is_some() {
        (u, v)
    } else {
        (v, u)
    };
    let ia = runs(a, x, y)?;
    let ib = runs(b, y, x)?;
    // From y round `a` to x, then on round `b` (from after x to before y).
    let mut ring: Vec<VertId> = (1..=a.len()).map(|k| a[(ia + k) % a.len()]).collect();
    ring.extend((2..b.len()).map(|k| b[(ib + k) % b.len()]));
    let mut seen = ring.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != ring.len() {
        return None;
    }
    let n = ring.len();
    let convex_at = |w: VertId| {
        let k = ring.iter().position(|&r| r == w)?;
        let (prev, next) = (ring[(k + n - 1) % n], ring[(k + 1) % n]);
        let turn = orient(points[prev], points[w], points[next]);
        Some(turn > 0.0 || (turn == 0.0 && !strict(w)))
    };
    (convex_at(x)? && convex_at(y)?).then_some(ring)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::flat_test_mesh;

    #[test]
    fn a_square_becomes_one_polygon_and_an_l_shape_two() {
        let square = flat_test_mesh(
            &[[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]],
            &[vec![0, 1, 2, 3]],
        );
        let merged = convex_polygons(&square);
        assert_eq!(merged.len(), 1, "{merged:?}");
        assert_eq!(merged[0].len(), 4);
        // An L of three unit squares cannot be one convex polygon: two are needed.
        let l = flat_test_mesh(
            &[
                [0.0, 0.0],
                [2.0, 0.0],
                [2.0, 1.0],
                [1.0, 1.0],
                [1.0, 2.0],
                [0.0, 2.0],
            ],
            &[vec![0, 1, 2, 3, 4, 5]],
        );
        let merged = convex_polygons(&l);
        assert_eq!(merged.len(), 2, "{merged:?}");
        let corners: usize = merged.iter().map(Vec::len).sum();
        assert!(corners <= 8, "{merged:?}");
    }
}
