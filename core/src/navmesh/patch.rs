//! Replacing some triangles of a mesh with others in place, touching only them, their edges
//! and their neighbours, the islands worked out near them (see [`island_update`](super::island_update)):
//! what makes an edit of a big mesh cheap.

use super::areas::AreaId;
use super::locate::IndexedTriangle;
use super::{Edge, EdgeId, NavMesh, TriId, Triangle, VertId};
use crate::geom::{Vec2, signed_area2};
use std::collections::HashMap;

/// A corner of a triangle to add: a vertex the mesh has, or one of the new vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Corner {
    /// A vertex of the mesh.
    Old(VertId),
    /// The k-th new vertex.
    New(usize),
}

/// What [`NavMesh::replace_triangles`] did to triangle ids.
#[derive(Debug, Default)]
pub(crate) struct Renumbering {
    /// The id of each added triangle, in the order given.
    pub added: Vec<TriId>,
    /// Triangles that kept their content but moved to another id: `(old, new)`.
    pub moved: Vec<(TriId, TriId)>,
}

impl NavMesh {
    /// Removes the triangles `removed` and adds `added` (counter-clockwise corners, each with its
    /// area type) over the mesh's vertices and `new_vertices` (plane point and height, appended).
    /// Ids of removed triangles are reused first; when fewer are added than removed, the
    /// highest ids move into the gaps. The point index keeps only its R-tree.
    pub(crate) fn replace_triangles(
        &mut self,
        removed: &[TriId],
        new_vertices: &[(Vec2, f64)],
        added: &[([Corner; 3], AreaId)],
    ) -> Renumbering {
        let mut removed: Vec<TriId> = removed
            .iter()
            .copied()
            .filter(|&t| t < self.triangles.len())
            .collect();
        removed.sort_unstable();
        removed.dedup();
        // What bordered the patch, for bringing the islands up to date after it.
        let ring = self.ring_of(&removed);
        for &t in &removed {
            if let Some(tally) = self.island_tally.get_mut(self.island_of[t]) {
                tally.size -= 1;
            }
        }
        // The uniform grid cannot be updated in place; the R-tree answers the same questions.
        self.index.grid = None;

        // Take the removed triangles out of their edges and the index.
        let mut touched_edges: Vec<EdgeId> = Vec::new();
        for &t in &removed {
            let tri = &self.triangles[t];
            for &e in &tri.edges {
                self.edges[e].triangles.retain(|&x| x != t);
                touched_edges.push(e);
            }
            let item = self.indexed(t);
            if let Some(tree) = self.tree_if_built() {
                tree.remove(&item);
            }
        }
        touched_edges.sort_unstable();
        touched_edges.dedup();

        let first_new = self.vertices.len();
        for &(p, h) in new_vertices {
            self.vertices.push(p);
            self.heights.push(h);
        }
        let vertex = |c: Corner| match c {
            Corner::Old(v) => v,
            Corner::New(k) => first_new + k,
        };

        // Place the added triangles: in removed slots first, then at the end.
        let mut edge_of: HashMap<[VertId; 2], EdgeId> = touched_edges
            .iter()
            .map(|&e| (self.edges[e].vertices, e))
            .collect();
        let mut renumbering = Renumbering::default();
        let mut free = removed.iter().copied();
        let mut affected: Vec<TriId> = Vec::new();
        for &(corners, area) in added {
            let verts = corners.map(vertex);
            let [a, b, c] = verts.map(|v| self.vertices[v]);
            let triangle = Triangle {
                vertices: verts,
                edges: [0; 3],
                centroid: Vec2::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0),
                area: signed_area2(a, b, c).abs() / 2.0,
            };
            let id = match free.next() {
                Some(slot) => {
                    self.triangles[slot] = triangle;
                    self.area_types[slot] = area;
                    slot
                }
                None => {
                    self.triangles.push(triangle);
                    self.area_types.push(area);
                    self.neighbours.push(Vec::new());
                    self.island_of.push(0);
                    self.triangles.len() - 1
                }
            };
            for k in 0..3 {
                let (u, w) = (verts[k], verts[(k + 1) % 3]);
                let key = [u.min(w), u.max(w)];
                let e = *edge_of.entry(key).or_insert_with(|| {
                    self.edges.push(Edge {
                        vertices: key,
                        triangles: Vec::new(),
                    });
                    self.edges.len() - 1
                });
                self.edges[e].triangles.push(id);
                self.triangles[id].edges[k] = e;
                touched_edges.push(e);
            }
            let item = self.indexed(id);
            if let Some(tree) = self.tree_if_built() {
                tree.insert(item);
            }
            renumbering.added.push(id);
            affected.push(id);
        }

        // Close the gaps left by removed triangles that were not refilled.
        let mut gaps: Vec<TriId> = free.collect();
        let mut dead = vec![false; self.triangles.len()];
        for &g in &gaps {
            dead[g] = true;
        }
        gaps.reverse(); // pop() yields the lowest gap first
        while let Some(gap) = gaps.pop() {
            // Drop dead triangles from the end; stop if the gap itself went.
            while self.triangles.len() > gap && dead[self.triangles.len() - 1] {
                self.pop_triangle();
            }
            if self.triangles.len() <= gap {
                continue;
            }
            let last = self.triangles.len() - 1;
            let item = self.indexed(last);
            if let Some(tree) = self.tree_if_built() {
                tree.remove(&item);
            }
            let island = self.island_of[last];
            let triangle = self.pop_triangle_content();
            for &e in &triangle.0.edges {
                for x in &mut self.edges[e].triangles {
                    if *x == last {
                        *x = gap;
                    }
                }
                touched_edges.push(e);
            }
            self.triangles[gap] = triangle.0;
            self.area_types[gap] = triangle.1;
            self.island_of[gap] = island;
            dead[gap] = false;
            let item = self.indexed(gap);
            if let Some(tree) = self.tree_if_built() {
                tree.insert(item);
            }
            renumbering.moved.push((last, gap));
            affected.push(gap);
        }

        // Edges no triangle uses any more: move the last edges into their places.
        touched_edges.sort_unstable();
        touched_edges.dedup();
        let mut dead_edges: Vec<EdgeId> = touched_edges
            .iter()
            .copied()
            .filter(|&e| self.edges[e].triangles.is_empty())
            .collect();
        let mut edge_dead = vec![false; self.edges.len()];
        for &e in &dead_edges {
            edge_dead[e] = true;
        }
        dead_edges.reverse();
        while let Some(hole) = dead_edges.pop() {
            while self.edges.len() > hole && edge_dead[self.edges.len() - 1] {
                self.edges.pop();
            }
            if self.edges.len() <= hole {
                continue;
            }
            let last = self.edges.len() - 1;
            let Some(edge) = self.edges.pop() else { break };
            for &t in &edge.triangles {
                for e in &mut self.triangles[t].edges {
                    if *e == last {
                        *e = hole;
                    }
                }
                affected.push(t);
            }
            self.edges[hole] = edge;
            edge_dead[hole] = false;
        }

        // Neighbour lists of every triangle next to a changed edge, and of the moved ones.
        for &e in &touched_edges {
            if let Some(edge) = self.edges.get(e) {
                affected.extend(edge.triangles.iter().copied());
            }
        }
        for &(_, to) in &renumbering.moved {
            for &e in &self.triangles[to].edges {
                affected.extend(self.edges[e].triangles.iter().copied());
            }
        }
        affected.sort_unstable();
        affected.dedup();
        for &t in &affected {
            if t < self.triangles.len() {
                let list = self.neighbour_list(t);
                self.neighbours[t] = list;
            }
        }

        let moved: HashMap<TriId, TriId> = renumbering.moved.iter().copied().collect();
        let ring: Vec<TriId> = ring
            .iter()
            .map(|t| moved.get(t).copied().unwrap_or(*t))
            .filter(|&t| t < self.triangles.len())
            .collect();
        self.update_islands(&renumbering.added, &ring, &renumbering.moved);
        self.forget_derived();
        renumbering
    }

    /// The index entry of triangle `t`.
    fn indexed(&self, t: TriId) -> IndexedTriangle {
        IndexedTriangle {
            id: t,
            corners: self.corners(t),
        }
    }

    /// Removes the last triangle (already out of its edges and the index).
    fn pop_triangle(&mut self) {
        self.pop_triangle_content();
    }

    /// Removes the last triangle and its per-triangle data, returning the triangle and its area.
    fn pop_triangle_content(&mut self) -> (Triangle, AreaId) {
        self.neighbours.pop();
        self.island_of.pop();
        let area = self.area_types.pop().unwrap_or(0);
        let triangle = self.triangles.pop().unwrap_or(Triangle {
            vertices: [0; 3],
            edges: [0; 3],
            centroid: Vec2::default(),
            area: 0.0,
        });
        (triangle, area)
    }

    /// The neighbours of `t` across its edges, as the builder lists them.
    fn neighbour_list(&self, t: TriId) -> Vec<(TriId, EdgeId)> {
        let mut list = Vec::new();
        for &e in &self.triangles[t].edges {
            for &n in &self.edges[e].triangles {
                if n != t {
                    list.push((n, e));
                }
            }
        }
        list
    }
}
