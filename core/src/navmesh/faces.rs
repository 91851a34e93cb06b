//! The convex faces the exact search walks: either the mesh's triangles one by one, or the
//! triangles merged into convex polygons (Hertel and Mehlhorn: shared edges removed, longest
//! first, wherever both ends stay convex). A polygon holds the path's straight parts as well as
//! its triangles do, and fewer, larger faces mean fewer intervals: Polyanya on polygons makes
//! fewer search nodes for the same path.
//!
//! Each face is stored with its corners counter-clockwise and, for each side (from corner `k`
//! to corner `k + 1`), the face across it and which of that face's sides it is, one record
//! per side and a face's records one after another, so that a step of the search reads one run
//! of memory.

use super::adjacency::{MANY, WALL};
use super::{EdgeId, NavMesh, TriId, VertId};
use crate::geom::{Vec2, orient};

/// A face's number in its [`Faces`].
pub type FaceId = usize;

/// The convex faces of a mesh, each a union of whole triangles.
#[derive(Debug, Clone, Default)]
pub struct Faces {
    /// Face `f`'s sides are `first[f]..first[f + 1]` of `sides` and `edge`.
    first: Vec<u32>,
    sides: Vec<Side>,
    /// The mesh edge each side lies on.
    edge: Vec<u32>,
    /// True for a face with at most one side that leads anywhere (a side where floors meet
    /// counts twice: it leads to more than one face).
    dead_end: Vec<bool>,
    /// The face each triangle is part of.
    face_of: Vec<u32>,
    /// For each triangle's side `j`, at `3 × triangle + j`: the face side on it (an index of
    /// `sides`), or `u32::MAX` where it is inside its face.
    triangle_side: Vec<u32>,
}

/// One corner of a face and the side from it to the next corner: what a search step reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Side {
    /// The corner.
    pub corner: Vec2,
    /// Its vertex id.
    pub vertex: u32,
    /// The face across the side, or [`WALL`], or [`MANY`].
    pub across: u32,
    /// Which side of that face it is, and in the top bit ([`FOLDED`]) whether that face lies
    /// folded back over it (see [`Side::across_side`] and [`Side::folds_back`]).
    pub link: u32,
    /// The surface the corner is on (a number of [`super::fans::VertexFans`]).
    pub surface: u32,
}

/// The bit of [`Side::link`] set when the face across lies folded back over the side.
pub const FOLDED: u32 = 1 << 31;

impl Side {
    /// Which side of the face across it this side is.
    #[inline]
    pub fn across_side(&self) -> usize {
        (self.link & !FOLDED) as usize
    }

    /// True when the face across lies on this face's side of it (a floor under stairs that
    /// share their bottom edge with it): a straight line does not go on into it.
    #[inline]
    pub fn folds_back(&self) -> bool {
        self.link & FOLDED != 0
    }
}

/// One face, as the search reads it.
#[derive(Debug, Clone, Copy)]
pub struct Face<'a> {
    /// Its corners counter-clockwise, each with the side to the next.
    pub sides: &'a [Side],
    /// True when at most one of its sides leads anywhere.
    pub dead_end: bool,
}

impl Face<'_> {
    /// How many corners (and sides) it has.
    #[inline]
    pub fn len(&self) -> usize {
        self.sides.len()
    }

    /// True for a face with no corners (never made).
    pub fn is_empty(&self) -> bool {
        self.sides.is_empty()
    }

    /// Corner `k`.
    #[inline]
    pub fn corner(&self, k: usize) -> Vec2 {
        self.sides[k].corner
    }

    /// The corner after `k`.
    #[inline]
    pub fn next(&self, k: usize) -> usize {
        if k + 1 == self.len() { 0 } else { k + 1 }
    }

    /// The corner before `k`.
    #[inline]
    pub fn prev(&self, k: usize) -> usize {
        if k == 0 { self.len() - 1 } else { k - 1 }
    }

    /// The corner at vertex `v`, if it is one.
    pub fn corner_of(&self, v: VertId) -> Option<usize> {
        self.sides.iter().position(|s| s.vertex as VertId == v)
    }

    /// True when this face, entered across its side `slot` (running `right` to `left` as the
    /// face left behind has it), lies on the near side of that side's line: folded back over
    /// it. Asked of the face's first corner off the line (a corner of 180° lies on it).
    pub fn folds_back_over(&self, slot: usize, right: Vec2, left: Vec2) -> bool {
        let mut c = self.next(self.next(slot));
        for _ in 2..self.len() {
            let o = orient(right, left, self.corner(c));
            if o != 0.0 {
                return o > 0.0;
            }
            c = self.next(c);
        }
        true
    }
}

impl Faces {
    /// Every triangle of `mesh` a face of its own.
    pub fn triangles(mesh: &NavMesh) -> Self {
        let rings: Vec<Vec<VertId>> = mesh.triangles.iter().map(|t| t.vertices.to_vec()).collect();
        let face_of = (0..mesh.triangles.len() as u32).collect();
        Self::from_rings(mesh, &rings, face_of)
    }

    /// `mesh`'s triangles merged into convex polygons. A vertex a wall meets is never a corner
    /// of 180°: a path may turn there, and the search finds turns at the ends of the
    /// intervals it sees, which a side in line with the root never is.
    pub fn merged(mesh: &NavMesh) -> Self {
        let fans = mesh.fans();
        let (rings, face_of) = super::merge::convex_merge(mesh, &|v| fans.is_corner(v));
        Self::from_rings(mesh, &rings, face_of)
    }

    /// The faces whose corners are `rings` (counter-clockwise, each the union of the triangles
    /// `face_of` gives it).
    fn from_rings(mesh: &NavMesh, rings: &[Vec<VertId>], face_of: Vec<u32>) -> Self {
        let fans = mesh.fans();
        let total: usize = rings.iter().map(Vec::len).sum();
        let mut first = Vec::with_capacity(rings.len() + 1);
        let mut sides = Vec::with_capacity(total);
        first.push(0);
        for ring in rings {
            for &v in ring {
                sides.push(Side {
                    corner: mesh.vertices.get(v).copied().unwrap_or(Vec2::new(0.0, 0.0)),
                    vertex: v as u32,
                    across: WALL,
                    link: 0,
                    surface: 0,
                });
            }
            first.push(sides.len() as u32);
        }
        let mut faces = Self {
            first,
            sides,
            edge: vec![u32::MAX; total],
            dead_end: vec![true; rings.len()],
            face_of,
            triangle_side: vec![u32::MAX; 3 * mesh.triangles.len()],
        };
        // Each triangle side on its face's boundary, found in the face's ring by its first
        // corner (a ring passes each vertex once).
        let mut by_vertex: Vec<(u32, u32)> = Vec::new();
        // The triangles of each face, face after face (a counting sort of `face_of`).
        let mut member_start = vec![0usize; rings.len() + 1];
        for &f in &faces.face_of {
            if let Some(count) = member_start.get_mut(f as usize + 1) {
                *count += 1;
            }
        }
        for f in 0..rings.len() {
            member_start[f + 1] += member_start[f];
        }
        let mut member_list = vec![0; member_start[rings.len()]];
        let mut next = member_start.clone();
        for (t, &f) in faces.face_of.iter().enumerate() {
            if let Some(at) = next.get_mut(f as usize) {
                member_list[*at] = t;
                *at += 1;
            }
        }
        let members = member_start.windows(2).map(|w| &member_list[w[0]..w[1]]);
        for (f, list) in members.clone().enumerate() {
            let start = faces.first[f];
            by_vertex.clear();
            by_vertex.extend(
                rings[f]
                    .iter()
                    .enumerate()
                    .map(|(c, &v)| (v as u32, c as u32)),
            );
            by_vertex.sort_unstable();
            let n = rings[f].len();
            for &t in list {
                let tri = &mesh.triangles[t];
                for j in 0..3 {
                    let e = tri.edges[j];
                    let inside = match mesh.edges.get(e).map(|e| e.triangles.as_slice()) {
                        Some(&[x, y]) => {
                            faces.face_of.get(x) == faces.face_of.get(y)
                                && faces.face_of.get(x) == Some(&(f as u32))
                        }
                        _ => false,
                    };
                    if inside {
                        continue;
                    }
                    let (a, b) = (tri.vertices[j] as u32, tri.vertices[(j + 1) % 3]);
                    let Ok(at) = by_vertex.binary_search_by_key(&a, |&(v, _)| v) else {
                        continue;
                    };
                    let c = by_vertex[at].1 as usize;
                    if rings[f][(c + 1) % n] != b {
                        continue;
                    }
                    let side = start as usize + c;
                    faces.edge[side] = e as u32;
                    faces.sides[side].surface = fans.surface_at(t, j) as u32;
                    faces.triangle_side[3 * t + j] = side as u32;
                }
            }
        }
        // What lies across each side.
        for (f, list) in members.enumerate() {
            let mut ways = 0;
            for &t in list {
                let tri = &mesh.triangles[t];
                for j in 0..3 {
                    let side = faces.triangle_side[3 * t + j];
                    if side == u32::MAX {
                        continue;
                    }
                    let e = tri.edges[j];
                    let others = mesh.edges[e].triangles.iter().filter(|&&n| n != t);
                    let (count, other) = others.fold((0, None), |(c, _), &n| (c + 1, Some(n)));
                    let side = side as usize;
                    match (count, other) {
                        (0, _) | (_, None) => {}
                        (1, Some(n)) => {
                            if let Some((g, s)) = faces.side_on(mesh, n, e) {
                                faces.sides[side].across = g as u32;
                                faces.sides[side].link = s as u32;
                            }
                        }
                        _ => faces.sides[side].across = MANY,
                    }
                    // A side floors meet at leads back out across itself, onto another floor.
                    ways += match faces.sides[side].across {
                        WALL => 0,
                        MANY => 2,
                        _ => 1,
                    };
                }
            }
            faces.dead_end[f] = ways <= 1;
        }
        // Which faces across lie folded back, worked out once for the search.
        let folded: Vec<bool> = (0..faces.len())
            .flat_map(|f| {
                let faces = &faces;
                let face = faces.face(f);
                (0..face.len()).map(move |k| {
                    let side = face.sides[k];
                    match side.across {
                        WALL | MANY => false,
                        g => faces.face(g as usize).folds_back_over(
                            side.across_side(),
                            face.corner(k),
                            face.corner(face.next(k)),
                        ),
                    }
                })
            })
            .collect();
        for (side, folded) in faces.sides.iter_mut().zip(folded) {
            if folded {
                side.link |= FOLDED;
            }
        }
        faces
    }

    /// The face holding triangle `n` and which of its sides lies on edge `e` of `n`, when one
    /// does.
    pub fn side_on(&self, mesh: &NavMesh, n: TriId, e: EdgeId) -> Option<(FaceId, usize)> {
        let j = mesh.triangles.get(n)?.edges.iter().position(|&x| x == e)?;
        let side = *self.triangle_side.get(3 * n + j)?;
        let g = *self.face_of.get(n)? as usize;
        let start = *self.first.get(g)?;
        (side != u32::MAX).then(|| (g, (side - start) as usize))
    }

    /// How many faces there are.
    pub fn len(&self) -> usize {
        self.dead_end.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.dead_end.is_empty()
    }

    /// Face `f`.
    #[inline]
    pub fn face(&self, f: FaceId) -> Face<'_> {
        let (a, b) = (self.first[f] as usize, self.first[f + 1] as usize);
        Face {
            sides: &self.sides[a..b],
            dead_end: self.dead_end[f],
        }
    }

    /// The mesh edge side `k` of face `f` lies on.
    pub fn edge(&self, f: FaceId, k: usize) -> Option<EdgeId> {
        let side = *self.first.get(f)? as usize + k;
        let e = *self.edge.get(side)?;
        (e != u32::MAX).then_some(e as EdgeId)
    }

    /// True when every side of triangle `t` leads to at most one face, lying beyond it: inside
    /// its face, or a face side with no face folded back over it and no floors meeting there.
    pub fn sides_lead_beyond(&self, t: TriId) -> bool {
        (0..3).all(|j| match self.triangle_side.get(3 * t + j) {
            Some(&u32::MAX) => true,
            Some(&side) => self
                .sides
                .get(side as usize)
                .is_some_and(|s| s.across != MANY && !s.folds_back()),
            None => false,
        })
    }

    /// The face triangle `t` is part of.
    #[inline]
    pub fn face_of(&self, t: TriId) -> Option<FaceId> {
        self.face_of.get(t).map(|&f| f as FaceId)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::flat_test_mesh;

    /// Checks every face against the mesh: convex, counter-clockwise, its sides on the mesh's
    /// edges, and what lies across each side the face across the edge, pointing back.
    fn check(mesh: &NavMesh, faces: &Faces) {
        let mut area = 0.0;
        for f in 0..faces.len() {
            let face = faces.face(f);
            let n = face.len();
            assert!(n >= 3, "face {f}");
            for k in 0..n {
                let (a, b, c) = (
                    face.corner(k),
                    face.corner(face.next(k)),
                    face.corner((k + 2) % n),
                );
                assert!(crate::geom::orient(a, b, c) >= 0.0, "face {f} corner {k}");
                area += a.cross(b) / 2.0;
                match face.sides[k].across {
                    WALL => {}
                    MANY => {}
                    g => {
                        let back = faces.face(g as usize);
                        let s = face.sides[k].across_side();
                        assert_eq!(back.sides[s].vertex, face.sides[face.next(k)].vertex);
                        assert_eq!(back.sides[back.next(s)].vertex, face.sides[k].vertex);
                        assert_eq!(back.sides[s].across as usize, f);
                    }
                }
            }
        }
        let triangles: f64 = mesh.triangles().iter().map(|t| t.area).sum();
        assert!(
            (area - triangles).abs() <= 1e-9 * triangles.max(1.0),
            "{area} {triangles}"
        );
    }

    #[test]
    fn the_built_in_meshes_merge_into_fewer_faces_with_no_flat_corner_at_a_wall() {
        for scene in crate::assets::ALL {
            let mesh = crate::navmesh::obj::parse(scene.obj, scene.name, crate::navmesh::Plane::Xz)
                .expect("asset");
            let merged = Faces::merged(&mesh);
            check(&mesh, &merged);
            check(&mesh, &Faces::triangles(&mesh));
            assert!(merged.len() < mesh.triangles().len(), "{}", scene.name);
            for f in 0..merged.len() {
                let face = merged.face(f);
                for k in 0..face.len() {
                    let turn = crate::geom::orient(
                        face.corner(face.prev(k)),
                        face.corner(k),
                        face.corner(face.next(k)),
                    );
                    let v = face.sides[k].vertex as VertId;
                    assert!(
                        turn > 0.0 || !mesh.fans().is_corner(v),
                        "{} face {f}",
                        scene.name
                    );
                }
            }
        }
    }

    #[test]
    fn merged_faces_cover_the_mesh_and_point_at_each_other() {
        let mesh = flat_test_mesh(
            &[
                [0.0, 0.0],
                [2.0, 0.0],
                [2.0, 1.0],
                [1.0, 1.0],
                [1.0, 2.0],
                [0.0, 2.0],
                [3.0, 0.5],
            ],
            &[vec![0, 1, 2, 3, 4, 5], vec![1, 6, 2]],
        );
        let merged = Faces::merged(&mesh);
        check(&mesh, &merged);
        assert!(merged.len() < mesh.triangles().len());
        let single = Faces::triangles(&mesh);
        check(&mesh, &single);
        assert_eq!(single.len(), mesh.triangles().len());
        for t in 0..mesh.triangles().len() {
            assert_eq!(single.face_of(t), Some(t));
            let f = merged.face_of(t).expect("face");
            // A face passes each vertex once, so none of its triangles' corners is inside it.
            for v in mesh.triangles()[t].vertices {
                assert!(
                    merged.face(f).corner_of(v).is_some(),
                    "triangle {t} vertex {v}"
                );
            }
        }
    }
}
