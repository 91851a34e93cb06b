//! Each triangle's corners and the triangle across each of its edges in one record: what a
//! search walking the mesh reads at every step, kept together so that a step touches one
//! record (made once per mesh, when a search first asks for it).

use super::{NavMesh, TriId};
use crate::geom::Vec2;

/// `across` of an edge with no triangle on the other side.
pub const WALL: u32 = u32::MAX;
/// `across` of an edge with more than one triangle on the other side (floors meeting at it):
/// [`NavMesh::edges`] lists them.
pub const MANY: u32 = u32::MAX - 1;

/// One triangle, as a search reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriangleRecord {
    /// Its corners, counter-clockwise.
    pub corners: [Vec2; 3],
    /// Their vertex ids.
    pub vertices: [u32; 3],
    /// The triangle across edge `k` (from corner `k` to corner `k + 1`), or [`WALL`], or
    /// [`MANY`].
    pub across: [u32; 3],
    /// Which edge of that triangle edge `k` is.
    pub across_edge: [u8; 3],
    /// True when at most one of its edges leads anywhere: entered, it can only be left the way
    /// it was entered.
    pub dead_end: bool,
}

/// The records of every triangle of a mesh.
#[derive(Debug, Clone, Default)]
pub struct Adjacency {
    records: Vec<TriangleRecord>,
}

impl Adjacency {
    /// The records of `mesh`'s triangles.
    pub fn new(mesh: &NavMesh) -> Self {
        let records = mesh
            .triangles
            .iter()
            .enumerate()
            .map(|(t, tri)| {
                let mut across = [WALL; 3];
                let mut across_edge = [0; 3];
                for k in 0..3 {
                    let Some(edge) = mesh.edges.get(tri.edges[k]) else {
                        continue;
                    };
                    let others: Vec<TriId> =
                        edge.triangles.iter().copied().filter(|&n| n != t).collect();
                    match others.as_slice() {
                        [] => {}
                        &[n] => {
                            across[k] = n as u32;
                            across_edge[k] = mesh.triangles[n]
                                .edges
                                .iter()
                                .position(|&e| e == tri.edges[k])
                                .unwrap_or(0) as u8;
                        }
                        _ => across[k] = MANY,
                    }
                }
                TriangleRecord {
                    corners: tri.vertices.map(|v| mesh.vertices[v]),
                    vertices: tri.vertices.map(|v| v as u32),
                    across,
                    across_edge,
                    dead_end: across.iter().filter(|&&n| n != WALL).count() <= 1,
                }
            })
            .collect();
        Self { records }
    }

    /// Triangle `t`'s record.
    #[inline]
    pub fn get(&self, t: TriId) -> &TriangleRecord {
        &self.records[t]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::flat_test_mesh;

    #[test]
    fn records_agree_with_the_mesh_edges() {
        // A square of two triangles and a third hanging off one side.
        let mesh = flat_test_mesh(
            &[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [2.0, 0.5]],
            &[vec![0, 1, 2, 3], vec![1, 4, 2]],
        );
        let adjacency = Adjacency::new(&mesh);
        for (t, tri) in mesh.triangles().iter().enumerate() {
            let record = adjacency.get(t);
            assert_eq!(record.corners, mesh.corners(t));
            for k in 0..3 {
                let edge = &mesh.edges()[tri.edges[k]];
                match record.across[k] {
                    WALL => assert_eq!(edge.triangles, [t]),
                    n => {
                        let n = n as usize;
                        assert!(edge.triangles.contains(&n) && n != t);
                        let back = usize::from(record.across_edge[k]);
                        assert_eq!(mesh.triangles()[n].edges[back], tri.edges[k]);
                    }
                }
            }
            let neighbours = mesh.neighbours(t).len();
            assert_eq!(record.dead_end, neighbours <= 1, "triangle {t}");
        }
        assert!((0..3).any(|t| adjacency.get(t).dead_end));
        assert!((0..3).any(|t| !adjacency.get(t).dead_end));
    }
}
