//! The input of the checks: the file's polygons triangulated in the plane, vertices welded as
//! the loader welds them, edges with their triangles, and the triangles with no area set apart.

use super::super::RawMesh;
use super::super::build::{is_sliver, largest_side, weld};
use super::checks::mean_point;
use super::{CheckOptions, FindingItem};
use crate::geom::{Vec2, triangulate_polygon};
use std::collections::HashMap;

/// A triangle of the input (after triangulating its polygon), kept for the checks.
#[derive(Debug, Clone, Copy)]
pub(super) struct InputTriangle {
    pub(super) face: usize,
    /// Input vertex ids.
    pub(super) raw: [usize; 3],
    /// Welded vertex ids.
    pub(super) welded: [usize; 3],
}

/// The input prepared for the checks: projected points, welding, triangles.
pub(super) struct Prepared {
    pub(super) points: Vec<Vec2>,
    pub(super) heights: Vec<f64>,
    /// Input vertex → welded id.
    pub(super) weld_map: Vec<usize>,
    /// Welded id → the first input vertex with it.
    pub(super) first_raw: Vec<usize>,
    /// Welded positions (3D).
    pub(super) welded: Vec<[f64; 3]>,
    pub(super) weld_tolerance: f64,
    pub(super) near: f64,
    pub(super) triangles: Vec<InputTriangle>,
    pub(super) degenerate: Vec<FindingItem>,
    /// The file's vertex numbers (see [`RawMesh::vertex_ids`]).
    pub(super) vertex_ids: Vec<usize>,
    /// Edges between welded vertices with the triangles using them, sorted by edge.
    pub(super) edges: Vec<([usize; 2], Vec<usize>)>,
    /// Welded vertices used by a kept triangle.
    pub(super) used: Vec<bool>,
}

impl Prepared {
    /// The file's number of input vertex `v`.
    pub(super) fn id(&self, v: usize) -> usize {
        self.vertex_ids.get(v).copied().unwrap_or(v)
    }
}

pub(super) fn prepare(raw: &RawMesh, options: &CheckOptions) -> Prepared {
    let projected: Vec<(Vec2, f64)> = raw
        .positions
        .iter()
        .map(|&p| raw.plane.project(p))
        .collect();
    let points: Vec<Vec2> = projected.iter().map(|&(p, _)| p).collect();
    let heights: Vec<f64> = projected.iter().map(|&(_, h)| h).collect();
    let defaults = super::super::BuildOptions::default();
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
pub(super) struct DisjointSets(Vec<usize>);

impl DisjointSets {
    pub(super) fn new(n: usize) -> Self {
        Self((0..n).collect())
    }

    pub(super) fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }

    /// Joins the sets of `a` and `b`; returns false when they were already one.
    pub(super) fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra.max(rb)] = ra.min(rb);
        }
        ra != rb
    }
}
