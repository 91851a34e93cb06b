//! A region with a hole in it (a floor round a pillar, or round a patch under a low beam) is
//! traced as two contours: its outline, counter-clockwise, and the hole's, clockwise. Recast
//! joins each hole to its region's outline by a diagonal before making polygons, so that the
//! outline walks in along the diagonal, round the hole and back out; `rerecast` keeps the hole as
//! a contour of its own, which no triangulation can fill, and stops the build. This joins them as
//! Recast's contour stage does: holes taken from left to right, each from its leftmost corner
//! (or the next that works) to the nearest outline corner whose diagonal lies inside the outline
//! and crosses neither the outline nor a hole still to join.

use glam::U16Vec3;
use rerecast::ContourSet;

type Corner = (U16Vec3, u32);

/// Twice the signed area of triangle (a, b, c) in the plan, negative when c is left of a→b as
/// Recast's contours count it.
fn area2(a: U16Vec3, b: U16Vec3, c: U16Vec3) -> i64 {
    let (ax, az) = (i64::from(a.x), i64::from(a.z));
    (i64::from(b.x) - ax) * (i64::from(c.z) - az) - (i64::from(c.x) - ax) * (i64::from(b.z) - az)
}

fn left(a: U16Vec3, b: U16Vec3, c: U16Vec3) -> bool {
    area2(a, b, c) < 0
}

fn left_on(a: U16Vec3, b: U16Vec3, c: U16Vec3) -> bool {
    area2(a, b, c) <= 0
}

fn collinear(a: U16Vec3, b: U16Vec3, c: U16Vec3) -> bool {
    area2(a, b, c) == 0
}

/// Whether segments ab and cd cross at a point inside both.
fn cross_properly(a: U16Vec3, b: U16Vec3, c: U16Vec3, d: U16Vec3) -> bool {
    if collinear(a, b, c) || collinear(a, b, d) || collinear(c, d, a) || collinear(c, d, b) {
        return false;
    }
    (left(a, b, c) != left(a, b, d)) && (left(c, d, a) != left(c, d, b))
}

/// Whether c lies on segment ab.
fn between(a: U16Vec3, b: U16Vec3, c: U16Vec3) -> bool {
    if !collinear(a, b, c) {
        return false;
    }
    if a.x != b.x {
        (a.x <= c.x && c.x <= b.x) || (a.x >= c.x && c.x >= b.x)
    } else {
        (a.z <= c.z && c.z <= b.z) || (a.z >= c.z && c.z >= b.z)
    }
}

fn segments_meet(a: U16Vec3, b: U16Vec3, c: U16Vec3, d: U16Vec3) -> bool {
    cross_properly(a, b, c, d)
        || between(a, b, c)
        || between(a, b, d)
        || between(c, d, a)
        || between(c, d, b)
}

fn same_plan(a: U16Vec3, b: U16Vec3) -> bool {
    a.x == b.x && a.z == b.z
}

/// Whether segment d0–d1 meets an edge of `contour`, leaving out the edges at corner `skip`
/// and those that share an end with the segment.
fn meets_contour(d0: U16Vec3, d1: U16Vec3, skip: Option<usize>, contour: &[Corner]) -> bool {
    let n = contour.len();
    (0..n).any(|k| {
        let k1 = (k + 1) % n;
        if skip == Some(k) || skip == Some(k1) {
            return false;
        }
        let (p0, p1) = (contour[k].0, contour[k1].0);
        if same_plan(d0, p0) || same_plan(d1, p0) || same_plan(d0, p1) || same_plan(d1, p1) {
            return false;
        }
        segments_meet(d0, d1, p0, p1)
    })
}

/// Whether the diagonal from outline corner `i` to `point` leaves `i` into the outline.
fn in_cone(i: usize, outline: &[Corner], point: U16Vec3) -> bool {
    let n = outline.len();
    let here = outline[i].0;
    let next = outline[(i + 1) % n].0;
    let previous = outline[(i + n - 1) % n].0;
    if left_on(previous, here, next) {
        left(here, point, previous) && left(point, here, next)
    } else {
        !(left_on(here, point, next) && left_on(point, here, previous))
    }
}

/// Twice the signed area of a contour in the plan (negative: a hole).
fn winding(contour: &[Corner]) -> i64 {
    let n = contour.len();
    (0..n)
        .map(|i| {
            let (vi, vj) = (contour[i].0, contour[(i + n - 1) % n].0);
            i64::from(vi.x) * i64::from(vj.z) - i64::from(vj.x) * i64::from(vi.z)
        })
        .sum()
}

/// The index of the contour's leftmost corner (smallest x, then smallest z).
fn leftmost(contour: &[Corner]) -> usize {
    (0..contour.len())
        .min_by_key(|&i| (contour[i].0.x, contour[i].0.z))
        .unwrap_or(0)
}

/// Joins every region's holes to its outline; a hole that finds no diagonal (or whose region has
/// no single outline) is left out, as Recast leaves it, and counted. Returns how many were left
/// out.
pub(super) fn merge_region_holes(contours: &mut ContourSet) -> usize {
    let is_hole: Vec<bool> = contours
        .contours
        .iter()
        .map(|c| c.vertices.len() >= 3 && winding(&c.vertices) < 0)
        .collect();
    if !is_hole.contains(&true) {
        return 0;
    }
    let mut left_out = 0;
    let mut regions: Vec<u16> = contours.contours.iter().map(|c| c.region.bits()).collect();
    regions.sort_unstable();
    regions.dedup();
    for region in regions {
        let members = || {
            contours
                .contours
                .iter()
                .enumerate()
                .filter(move |(_, c)| c.region.bits() == region && c.vertices.len() >= 3)
                .map(|(i, _)| i)
        };
        let outlines: Vec<usize> = members().filter(|&i| !is_hole[i]).collect();
        let mut holes: Vec<usize> = members().filter(|&i| is_hole[i]).collect();
        if holes.is_empty() {
            continue;
        }
        let [outline] = outlines[..] else {
            left_out += holes.len();
            continue;
        };
        holes.sort_by_key(|&h| {
            let corners = &contours.contours[h].vertices;
            let first = corners[leftmost(corners)].0;
            (first.x, first.z)
        });
        for (order, &hole) in holes.iter().enumerate() {
            let hole_corners = contours.contours[hole].vertices.clone();
            let outline_corners = &contours.contours[outline].vertices;
            let mut start = leftmost(&hole_corners);
            let mut joined = None;
            for _ in 0..hole_corners.len() {
                let corner = hole_corners[start].0;
                let mut diagonals: Vec<(i64, usize)> = (0..outline_corners.len())
                    .filter(|&j| in_cone(j, outline_corners, corner))
                    .map(|j| {
                        let p = outline_corners[j].0;
                        let (dx, dz) = (
                            i64::from(p.x) - i64::from(corner.x),
                            i64::from(p.z) - i64::from(corner.z),
                        );
                        (dx * dx + dz * dz, j)
                    })
                    .collect();
                diagonals.sort();
                joined = diagonals.into_iter().map(|(_, j)| j).find(|&j| {
                    let p = outline_corners[j].0;
                    !meets_contour(p, corner, Some(j), outline_corners)
                        && holes[order..].iter().all(|&h| {
                            !meets_contour(p, corner, None, &contours.contours[h].vertices)
                        })
                });
                if joined.is_some() {
                    break;
                }
                start = (start + 1) % hole_corners.len();
            }
            let Some(at) = joined else {
                left_out += 1;
                continue;
            };
            let outline_corners = &contours.contours[outline].vertices;
            let (na, nb) = (outline_corners.len(), hole_corners.len());
            let mut merged = Vec::with_capacity(na + nb + 2);
            merged.extend((0..=na).map(|i| outline_corners[(at + i) % na]));
            merged.extend((0..=nb).map(|i| hole_corners[(start + i) % nb]));
            contours.contours[outline].vertices = merged;
            contours.contours[hole].vertices.clear();
        }
    }
    contours.contours.retain(|c| c.vertices.len() >= 3);
    left_out
}
