//! The triangles round each vertex, grouped into *surfaces* (the triangles joined to each other
//! across edges at the vertex), and which vertices a wall meets: what a path turning at a vertex
//! can reach, made once per mesh.
//!
//! Two floors that touch at a single vertex (a pinch, or stairs whose corner rests on the floor
//! below) are two surfaces of that vertex: a path turning there stays on the one it came by.

use super::{NavMesh, TriId, VertId};

/// The surfaces round every vertex of a mesh.
#[derive(Debug, Clone, Default)]
pub struct VertexFans {
    /// `surfaces_of[v]..surfaces_of[v + 1]` are vertex `v`'s surfaces.
    surfaces_of: Vec<u32>,
    /// `triangles_of[s]..triangles_of[s + 1]` index `triangles` for surface `s`.
    triangles_of: Vec<u32>,
    triangles: Vec<TriId>,
    /// True where a wall meets the vertex: an edge of it with one triangle, or with more than two.
    corner: Vec<bool>,
    /// The surface of each triangle's corner `k`, at `3 × triangle + k`.
    corner_surface: Vec<u32>,
    /// True where an edge of the vertex has more than two triangles: floors folded over each
    /// other meet there, so a path may double back round it.
    fold: Vec<bool>,
}

impl VertexFans {
    /// The surfaces round each vertex of `mesh`.
    pub fn new(mesh: &NavMesh) -> Self {
        let vertex_count = mesh.vertices.len();
        let mut corner = vec![false; vertex_count];
        let mut fold = vec![false; vertex_count];
        for edge in &mesh.edges {
            if edge.triangles.len() != 2 {
                for &v in &edge.vertices {
                    if let Some(c) = corner.get_mut(v) {
                        *c = true;
                    }
                    if edge.triangles.len() > 2
                        && let Some(f) = fold.get_mut(v)
                    {
                        *f = true;
                    }
                }
            }
        }
        // Every vertex's triangles, in one list (counting sort by vertex).
        let mut start = vec![0usize; vertex_count + 1];
        for tri in &mesh.triangles {
            for &v in &tri.vertices {
                if v < vertex_count {
                    start[v + 1] += 1;
                }
            }
        }
        for v in 0..vertex_count {
            start[v + 1] += start[v];
        }
        let mut around = vec![0; start[vertex_count]];
        let mut next = start.clone();
        for (t, tri) in mesh.triangles.iter().enumerate() {
            for &v in &tri.vertices {
                if v < vertex_count {
                    around[next[v]] = t;
                    next[v] += 1;
                }
            }
        }
        let mut fans = VertexFans {
            surfaces_of: Vec::with_capacity(vertex_count + 1),
            triangles_of: vec![0],
            triangles: Vec::with_capacity(around.len()),
            corner,
            fold,
            corner_surface: vec![0; 3 * mesh.triangles.len()],
        };
        let mut taken: Vec<bool> = Vec::new();
        for v in 0..vertex_count {
            fans.surfaces_of.push(fans.triangles_of.len() as u32 - 1);
            let mine = &around[start[v]..start[v + 1]];
            taken.clear();
            taken.resize(mine.len(), false);
            for first in 0..mine.len() {
                if taken[first] {
                    continue;
                }
                taken[first] = true;
                let begin = fans.triangles.len();
                fans.triangles.push(mine[first]);
                let mut k = begin;
                while k < fans.triangles.len() {
                    let t = fans.triangles[k];
                    k += 1;
                    // A triangle across an edge at v has v too: it is one of `mine`.
                    for &(n, e) in mesh.neighbours(t) {
                        if !mesh.edges[e].vertices.contains(&v) {
                            continue;
                        }
                        if let Some(j) = mine.iter().position(|&m| m == n)
                            && !taken[j]
                        {
                            taken[j] = true;
                            fans.triangles.push(n);
                        }
                    }
                }
                let surface = fans.triangles_of.len() as u32 - 1;
                for &t in &fans.triangles[begin..] {
                    if let Some(k) = mesh.triangles[t].vertices.iter().position(|&u| u == v) {
                        fans.corner_surface[3 * t + k] = surface;
                    }
                }
                fans.triangles_of.push(fans.triangles.len() as u32);
            }
        }
        fans.surfaces_of.push(fans.triangles_of.len() as u32 - 1);
        fans
    }

    /// True when a wall meets vertex `v`: the only vertices a shortest path can turn at.
    pub fn is_corner(&self, v: VertId) -> bool {
        self.corner.get(v).copied().unwrap_or(false)
    }

    /// True when an edge of vertex `v` has more than two triangles (floors folded over each
    /// other meet there): seen in the plane, a path may turn back on itself there.
    pub fn is_fold(&self, v: VertId) -> bool {
        self.fold.get(v).copied().unwrap_or(false)
    }

    /// The surface of vertex `v` that holds triangle `t` (a number across the whole mesh).
    pub fn surface_holding(&self, v: VertId, t: TriId) -> Option<usize> {
        let first = *self.surfaces_of.get(v)? as usize;
        let last = *self.surfaces_of.get(v + 1)? as usize;
        (first..last).find(|&s| self.triangles(s).contains(&t))
    }

    /// The surface of vertex `k` of triangle `t` (its `k`th corner) that holds `t`.
    #[inline]
    pub fn surface_at(&self, t: TriId, k: usize) -> usize {
        self.corner_surface
            .get(3 * t + k)
            .map_or(0, |&s| s as usize)
    }

    /// The triangles of surface `s`.
    pub fn triangles(&self, s: usize) -> &[TriId] {
        match (self.triangles_of.get(s), self.triangles_of.get(s + 1)) {
            (Some(&a), Some(&b)) => self.triangles.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// How many surfaces the mesh's vertices have in all.
    pub fn surface_count(&self) -> usize {
        self.triangles_of.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::flat_test_mesh;

    #[test]
    fn a_pinch_vertex_has_two_surfaces_and_a_shared_one_has_one() {
        // Two squares touching at (1, 1) only, each of two triangles.
        let mesh = flat_test_mesh(
            &[
                [0.0, 0.0],
                [1.0, 0.0],
                [1.0, 1.0],
                [0.0, 1.0],
                [2.0, 1.0],
                [2.0, 2.0],
                [1.0, 2.0],
            ],
            &[vec![0, 1, 2, 3], vec![2, 4, 5, 6]],
        );
        let fans = VertexFans::new(&mesh);
        let pinch = mesh
            .vertices()
            .iter()
            .position(|&p| p == crate::geom::Vec2::new(1.0, 1.0))
            .expect("vertex");
        let held: Vec<Option<usize>> = (0..mesh.triangles().len())
            .map(|t| fans.surface_holding(pinch, t))
            .collect();
        let distinct: std::collections::BTreeSet<usize> = held.iter().flatten().copied().collect();
        assert_eq!(distinct.len(), 2, "{held:?}");
        assert!(fans.is_corner(pinch));
        // Every triangle is in exactly one surface of each of its corners.
        for (t, tri) in mesh.triangles().iter().enumerate() {
            for (k, &v) in tri.vertices.iter().enumerate() {
                assert_eq!(fans.surface_holding(v, t), Some(fans.surface_at(t, k)));
            }
        }
    }
}
