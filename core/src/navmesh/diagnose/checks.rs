//! Each check of the diagnostics, on the prepared input: islands, non-manifold edges, needles,
//! duplicates and near-duplicates, T-junctions, winding, overlaps, vertices off the plane and
//! Polyanya's own neighbour lists.

use super::super::RawMesh;
use super::FindingItem;
use super::prepared::{DisjointSets, InputTriangle, Prepared};
use crate::geom::{Vec2, orient, polygon_area2};
use rstar::{AABB, RTree, RTreeObject, primitives::GeomWithData};
use std::collections::HashMap;

/// The places where a Polyanya file's neighbour lists disagree with its polygons (found when
/// it was read), located at the polygon or vertex.
pub(super) fn neighbour_lists(raw: &RawMesh, prep: &Prepared) -> Vec<FindingItem> {
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

pub(super) fn mean_point(points: impl Iterator<Item = Vec2>) -> [f64; 2] {
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

pub(super) fn at(p: Vec2) -> [f64; 2] {
    [p.x, p.y]
}

pub(super) fn distance3(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

pub(super) fn centroid(prep: &Prepared, tri: &InputTriangle) -> Vec2 {
    let [a, b, c] = tri.raw.map(|v| prep.points[v]);
    Vec2::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0)
}

pub(super) fn islands(prep: &Prepared) -> (usize, Vec<FindingItem>) {
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
                    if i == 0 { " (the most triangles)" } else { "" }
                ),
                faces,
                vertices: Vec::new(),
                at: centre,
            }
        })
        .collect();
    (groups.len(), items)
}

/// Vertices where the triangles round them fall into groups joined by no edge at the vertex
/// (two parts of the mesh touching at a point): one item each, naming the groups' faces.
pub(super) fn pinches(prep: &Prepared) -> Vec<FindingItem> {
    // Welded vertices: two input vertices at one position are one vertex here.
    let count = prep.welded.len();
    // The triangles at each vertex, and the edges at it shared by two or more triangles.
    let mut triangles_at: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (t, tri) in prep.triangles.iter().enumerate() {
        for &v in &tri.welded {
            if let Some(list) = triangles_at.get_mut(v)
                && list.last() != Some(&t)
            {
                list.push(t);
            }
        }
    }
    let mut joins_at: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (e, (ends, tris)) in prep.edges.iter().enumerate() {
        if tris.len() >= 2 {
            for &v in ends {
                if let Some(list) = joins_at.get_mut(v) {
                    list.push(e);
                }
            }
        }
    }
    let mut items = Vec::new();
    for v in 0..count {
        let around = &triangles_at[v];
        if around.len() < 2 {
            continue;
        }
        // Groups by joining the triangles of each edge at v (labels by position in `around`).
        let mut group: Vec<usize> = (0..around.len()).collect();
        let find = |group: &mut Vec<usize>, mut i: usize| {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        };
        for &e in &joins_at[v] {
            let tris = &prep.edges[e].1;
            let positions: Vec<usize> = tris
                .iter()
                .filter_map(|t| around.iter().position(|x| x == t))
                .collect();
            for pair in positions.windows(2) {
                let (a, b) = (find(&mut group, pair[0]), find(&mut group, pair[1]));
                group[a.max(b)] = a.min(b);
            }
        }
        let mut parts: Vec<Vec<usize>> = Vec::new();
        let mut label_of: Vec<(usize, usize)> = Vec::new();
        for (i, &t) in around.iter().enumerate() {
            let root = find(&mut group, i);
            let face = prep.triangles[t].face;
            match label_of.iter().find(|&&(r, _)| r == root) {
                Some(&(_, k)) => parts[k].push(face),
                None => {
                    label_of.push((root, parts.len()));
                    parts.push(vec![face]);
                }
            }
        }
        if parts.len() < 2 {
            continue;
        }
        for part in &mut parts {
            part.sort_unstable();
            part.dedup();
        }
        let mut faces: Vec<usize> = parts.iter().flatten().copied().collect();
        faces.sort_unstable();
        faces.dedup();
        let raw = prep.first_raw[v];
        let groups: Vec<String> = parts.iter().map(|part| join(part)).collect();
        items.push(FindingItem {
            note: format!(
                "vertex {}: {} parts meet here with no edge between them (faces {})",
                prep.id(raw),
                parts.len(),
                groups.join(" | ")
            ),
            faces,
            vertices: vec![prep.id(raw)],
            at: at(prep.points[raw]),
        });
    }
    items
}

pub(super) fn non_manifold(prep: &Prepared) -> Vec<FindingItem> {
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

pub(super) fn needles(prep: &Prepared, degrees: f64) -> Vec<FindingItem> {
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
pub(super) fn duplicates(raw: &RawMesh, prep: &Prepared) -> Vec<FindingItem> {
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

pub(super) fn join(ids: &[usize]) -> String {
    ids.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// How close, as a share of the shortest edge at either vertex, two vertices that no edge
/// joins must be to count as a seam that was not welded (rather than two vertices of a fine
/// part of the mesh).
const LOCAL_SHARE: f64 = 0.01;

/// The shortest edge (3D) at each welded vertex (infinite for one on no edge).
pub(super) fn shortest_edges(prep: &Prepared) -> Vec<f64> {
    let mut shortest = vec![f64::INFINITY; prep.welded.len()];
    for ([a, b], _) in &prep.edges {
        let length = distance3(prep.welded[*a], prep.welded[*b]);
        for v in [*a, *b] {
            if let Some(s) = shortest.get_mut(v) {
                *s = s.min(length);
            }
        }
    }
    shortest
}

/// Pairs of welded vertices closer than the near distance (but not welded) and, judged by the
/// mesh around them, a seam rather than fine detail: no edge joins them, and they are closer
/// than a hundredth of the shortest edge at either.
pub(super) fn near_pairs(prep: &Prepared) -> Vec<(usize, usize, f64)> {
    let shortest = shortest_edges(prep);
    let joined = |a: usize, b: usize| {
        let key = [a.min(b), a.max(b)];
        prep.edges.binary_search_by(|(k, _)| k.cmp(&key)).is_ok()
    };
    near_candidates(prep)
        .into_iter()
        .filter(|&(a, b, d)| !joined(a, b) && d <= LOCAL_SHARE * shortest[a].min(shortest[b]))
        .collect()
}

/// Pairs of welded vertices closer than the near distance (but not welded).
fn near_candidates(prep: &Prepared) -> Vec<(usize, usize, f64)> {
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

pub(super) fn near_duplicates(prep: &Prepared) -> Vec<FindingItem> {
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
pub(super) struct Junction {
    /// The edge's only triangle.
    pub(super) triangle: usize,
    /// The edge (welded ids).
    pub(super) edge: [usize; 2],
    /// Parameter along the edge and welded id of each vertex on it, in order.
    pub(super) on: Vec<(f64, usize)>,
}

/// For each border edge (one triangle), the welded vertices lying on its interior, with their
/// parameter along the edge.
pub(super) fn junctions(prep: &Prepared) -> Vec<Junction> {
    let used = &prep.used;
    let shortest = shortest_edges(prep);
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
            // Near the edge as the mesh around goes: a hundredth of its length and of the
            // shortest edge at the vertex at most.
            let r = r.min(LOCAL_SHARE * length.min(shortest[v]));
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

pub(super) fn t_junctions(prep: &Prepared) -> Vec<FindingItem> {
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
pub(super) fn winding(raw: &RawMesh, prep: &Prepared) -> Vec<FindingItem> {
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
pub(super) fn triangles_overlap(a: [Vec2; 3], b: [Vec2; 3], tolerance: f64) -> bool {
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

pub(super) fn overlaps(prep: &Prepared) -> Vec<FindingItem> {
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

pub(super) fn off_plane(prep: &Prepared, relative: f64) -> Vec<FindingItem> {
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
