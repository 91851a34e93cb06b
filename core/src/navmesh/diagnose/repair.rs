//! The repair: near-duplicate vertices welded and T-junction vertices inserted into the faces
//! whose edge they lie on, so that the faces on either side share an edge.

use super::super::RawMesh;
use super::CheckOptions;
use super::checks::{Junction, junctions, near_pairs};
use super::prepared::{DisjointSets, prepare};
use serde::Serialize;

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
