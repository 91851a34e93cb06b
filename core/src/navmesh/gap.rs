//! Why the corridor path is longer than the shortest path: both lengths, the corridor's
//! triangles the shortest path never enters, and the first of them — where A\* left the
//! shortest route — with the costs that made A\* prefer it. On a mesh with area costs the
//! two paths are also priced under the areas ([`cost_along`]): the shortest path is the
//! shortest by distance (Polyanya ignores areas), so a gap the areas made is said to be
//! theirs, not the heuristic's.

use super::anyangle::OptimalPath;
use super::areas::AreaCosts;
use super::query::{CostModel, Path};
use super::{NavMesh, TriId};
use crate::geom::Vec2;
use crate::search::SearchEvent;

/// The comparison of one query's two answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    /// The corridor path's length (A\* then the funnel).
    pub corridor_length: f64,
    /// The shortest path's length.
    pub optimal_length: f64,
    /// The corridor's triangles the shortest path does not run through or along, in corridor
    /// order.
    pub off_route: Vec<TriId>,
    /// Where the corridor first left the shortest route, when it did.
    pub divergence: Option<Divergence>,
    /// Both paths' costs under the area costs (corridor, shortest), when the mesh has an area
    /// that does not cost what ground does.
    pub area_costs: Option<(f64, f64)>,
}

/// The first corridor triangle off the shortest route.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Divergence {
    /// The corridor's triangle the shortest path does not enter.
    pub triangle: TriId,
    /// The corridor's triangle before it (both paths pass through it).
    pub from: Option<TriId>,
    /// The neighbour of `from` the shortest path goes on into, when it leaves `from` by
    /// another edge.
    pub optimal_next: Option<TriId>,
    /// A\*'s last g and h for `triangle`.
    pub corridor_cost: Option<(f64, f64)>,
    /// A\*'s last g and h for `optimal_next`, when A\* reached it.
    pub optimal_cost: Option<(f64, f64)>,
}

impl Gap {
    /// How much longer the corridor path is, as a fraction of the shortest.
    pub fn excess(&self) -> f64 {
        if self.optimal_length > 0.0 {
            (self.corridor_length / self.optimal_length - 1.0).max(0.0)
        } else {
            0.0
        }
    }

    /// One or two plain sentences on the gap, under the cost model A\* used.
    pub fn explain(&self, cost: CostModel) -> String {
        let lengths = format!(
            "The corridor path is {:.3} long, the shortest {:.3}: {:.2} % longer.",
            self.corridor_length,
            self.optimal_length,
            100.0 * self.excess()
        );
        if let Some((corridor_cost, optimal_cost)) = self.area_costs {
            let costs = format!(
                "{lengths} The shortest path is the shortest by distance: Polyanya ignores area \
                 costs. Under them the corridor path costs {corridor_cost:.3}, the shortest path \
                 {optimal_cost:.3}."
            );
            if corridor_cost <= optimal_cost * (1.0 + 1e-9) && self.excess() > 1e-9 {
                return format!(
                    "{costs} The corridor path is the cheaper: the areas made the gap in length, \
                     not A*'s step costs."
                );
            }
            if self.excess() <= 1e-9 {
                return costs;
            }
        }
        if self.excess() <= 1e-9 {
            return format!(
                "{lengths} The corridor holds the shortest path; {} of its triangles (shaded) are not on it.",
                self.off_route.len()
            );
        }
        let Some(d) = self.divergence else {
            return if self.excess() > 1e-9 {
                format!(
                    "{lengths} The shortest path crosses the same triangles: the corridor is right, the gap is rounding."
                )
            } else {
                format!("{lengths} A* chose the shortest path's triangles.")
            };
        };
        let model = match cost {
            CostModel::Centroid => "centroid-to-centroid",
            CostModel::Midpoint => "edge-midpoint",
            CostModel::Straight => "straight-for-the-goal",
        };
        let f = |(g, h): (f64, f64)| format!("f = {:.2} + {:.2} = {:.2}", g, h, g + h);
        match (d.optimal_next, d.corridor_cost, d.optimal_cost) {
            (Some(next), Some(ours), Some(theirs)) => format!(
                "{lengths} A* left the shortest route at triangle {}: under the {model} cost it took triangle {} ({}) rather than triangle {next}, where the shortest path goes ({}). Those costs measure between centres or midpoints, not along the path.",
                d.from.map_or("the start".to_string(), |t| t.to_string()),
                d.triangle,
                f(ours),
                f(theirs)
            ),
            (Some(next), _, None) => format!(
                "{lengths} A* left the shortest route at triangle {}: it took triangle {} and never reached triangle {next}, where the shortest path goes.",
                d.from.map_or("the start".to_string(), |t| t.to_string()),
                d.triangle
            ),
            _ => format!(
                "{lengths} The corridor goes through triangle {}, which the shortest path does not enter.",
                d.triangle
            ),
        }
    }
}

/// The part of segment `a`→`b` inside the counter-clockwise triangle `t` or on its edges (to
/// within rounding), as a range of the way from `a`; `None` when it has no length there.
fn clip(mesh: &NavMesh, t: TriId, a: Vec2, b: Vec2) -> Option<(f64, f64)> {
    let corners = mesh.corners(t);
    let scale = (corners[1] - corners[0])
        .length()
        .max((corners[2] - corners[0]).length());
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    for k in 0..3 {
        let (p, q) = (corners[k], corners[(k + 1) % 3]);
        let edge = q - p;
        // Inside is to the left: cross(edge, x - p) ≥ 0, linear in the way along the segment;
        // a path along the edge counts, however it was rounded.
        let slack = 1e-9 * edge.length() * scale;
        let at_a = edge.cross(a - p) + slack;
        let along = edge.cross(b - a);
        if along == 0.0 {
            if at_a < 0.0 {
                return None;
            }
        } else {
            let t0 = -at_a / along;
            if along > 0.0 {
                lo = lo.max(t0);
            } else {
                hi = hi.min(t0);
            }
        }
    }
    let length = (b - a).length();
    // Longer than the slack can make of a path through a corner only.
    ((hi - lo) * length > 1e-6 * scale).then_some((lo, hi))
}

/// True when the polyline `path` runs through triangle `t` or along one of its edges for some
/// length (not only through a corner).
fn enters(mesh: &NavMesh, t: TriId, path: &[Vec2]) -> bool {
    path.windows(2).any(|w| clip(mesh, t, w[0], w[1]).is_some())
}

/// Compares a query's corridor path with its shortest path; `search` is A\*'s recorded steps
/// (for the costs it gave the triangles).
pub fn compare(
    mesh: &NavMesh,
    corridor: &Path,
    optimal: &OptimalPath,
    search: &[SearchEvent],
    costs: &AreaCosts,
) -> Gap {
    let route = &optimal.waypoints;
    let off_route: Vec<TriId> = corridor
        .corridor
        .iter()
        .copied()
        .filter(|&t| !enters(mesh, t, route))
        .collect();
    let divergence = corridor
        .corridor
        .iter()
        .position(|&t| off_route.contains(&t))
        .map(|k| {
            let triangle = corridor.corridor[k];
            let from = k
                .checked_sub(1)
                .and_then(|j| corridor.corridor.get(j).copied());
            // Where the shortest path goes from `from` instead: across one of its edges, or
            // past one of its corners (shortest paths turn at corners).
            let optimal_next = from.and_then(|f| {
                let off_corridor = |n: TriId| {
                    n != triangle && !corridor.corridor.contains(&n) && enters(mesh, n, route)
                };
                let corners = mesh.triangles().get(f).map(|t| t.vertices);
                mesh.neighbours(f)
                    .iter()
                    .map(|&(n, _)| n)
                    .find(|&n| off_corridor(n))
                    .or_else(|| {
                        let corners = corners?;
                        (0..mesh.triangles().len()).find(|&n| {
                            mesh.triangles()[n]
                                .vertices
                                .iter()
                                .any(|v| corners.contains(v))
                                && off_corridor(n)
                        })
                    })
            });
            let cost_of = |t: TriId| {
                search.iter().rev().find_map(|e| match *e {
                    SearchEvent::Opened { node, g, h, .. }
                    | SearchEvent::Improved { node, g, h, .. }
                        if node == t =>
                    {
                        Some((g, h))
                    }
                    _ => None,
                })
            };
            Divergence {
                triangle,
                from,
                optimal_next,
                corridor_cost: cost_of(triangle),
                optimal_cost: optimal_next.and_then(cost_of),
            }
        });
    let area_costs = areas_cost_differently(mesh, costs).then(|| {
        (
            cost_along(mesh, costs, &corridor.waypoints),
            cost_along(mesh, costs, route),
        )
    });
    Gap {
        // With off-mesh links, what they cost counts (the length of the walks plus the
        // links' costs); without, this is the length.
        corridor_length: corridor.cost,
        optimal_length: optimal.cost,
        off_route,
        divergence,
        area_costs,
    }
}

/// True when some triangle of `mesh` is of an area whose cost is not ground's (1).
pub fn areas_cost_differently(mesh: &NavMesh, costs: &AreaCosts) -> bool {
    (0..mesh.triangles().len()).any(|t| costs.of(mesh.area_type(t)) != 1.0)
}

/// The cost of walking the polyline `path` under the area costs: each piece's length times
/// the multiplier of the triangle it runs through; a piece along an edge between two areas
/// is charged the cheaper, and a piece off the mesh as ground.
pub fn cost_along(mesh: &NavMesh, costs: &AreaCosts, path: &[Vec2]) -> f64 {
    let mut total = 0.0;
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let length = (b - a).length();
        if length == 0.0 || !length.is_finite() {
            continue;
        }
        let (lo_x, hi_x) = (a.x.min(b.x), a.x.max(b.x));
        let (lo_y, hi_y) = (a.y.min(b.y), a.y.max(b.y));
        // The stretches of the segment inside each triangle it meets, with that triangle's
        // multiplier.
        let mut pieces: Vec<(f64, f64, f64)> = Vec::new();
        for t in 0..mesh.triangles().len() {
            let corners = mesh.corners(t);
            let outside = corners.iter().all(|p| p.x < lo_x)
                || corners.iter().all(|p| p.x > hi_x)
                || corners.iter().all(|p| p.y < lo_y)
                || corners.iter().all(|p| p.y > hi_y);
            if outside {
                continue;
            }
            if let Some((lo, hi)) = clip(mesh, t, a, b) {
                pieces.push((lo, hi, costs.of(mesh.area_type(t))));
            }
        }
        // Between consecutive breakpoints, the cheapest multiplier of the pieces over it.
        let mut cuts: Vec<f64> = pieces.iter().flat_map(|&(lo, hi, _)| [lo, hi]).collect();
        cuts.extend([0.0, 1.0]);
        cuts.sort_by(f64::total_cmp);
        cuts.dedup();
        for c in cuts.windows(2) {
            let (from, to) = (c[0].clamp(0.0, 1.0), c[1].clamp(0.0, 1.0));
            if to <= from {
                continue;
            }
            let middle = (from + to) / 2.0;
            let multiplier = pieces
                .iter()
                .filter(|&&(lo, hi, _)| lo <= middle && middle <= hi)
                .map(|&(_, _, m)| m)
                .min_by(f64::total_cmp)
                .unwrap_or(1.0);
            total += (to - from) * length * multiplier;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::orient;
    use crate::navmesh::anyangle::shortest_path;
    use crate::navmesh::query::{QueryOptions, find_path};
    use crate::navmesh::{Plane, obj};
    use crate::search::NoObserver;

    /// Two unit squares side by side, the right one mud (× 3): a path across both pays each
    /// part at its own rate; a path along the edge between them pays the cheaper.
    #[test]
    fn a_path_costs_each_piece_at_the_rate_of_the_area_it_runs_through() {
        let text = b"v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nv 1 0 1\nv 2 0 1\n\
                     f 1 4 5 2\ng area:mud\nf 2 5 6 3\n";
        let mesh = obj::parse(text, "two.obj", Plane::Xz).expect("mesh");
        let costs = AreaCosts::for_names(mesh.area_names());
        assert_eq!(
            costs.of(mesh.area_type(mesh.triangle_at(Vec2::new(1.5, 0.5)).expect("in"))),
            3.0
        );
        assert!(areas_cost_differently(&mesh, &costs));
        let across = [Vec2::new(0.25, 0.5), Vec2::new(1.75, 0.5)];
        // To within the clip's slack (a billionth of a triangle's size).
        let close = |got: f64, want: f64| (got - want).abs() < 1e-6;
        assert!(close(cost_along(&mesh, &costs, &across), 0.75 + 3.0 * 0.75));
        let along = [Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0)];
        assert!(close(cost_along(&mesh, &costs, &along), 1.0));
        let bent = [
            Vec2::new(0.5, 0.5),
            Vec2::new(1.5, 0.5),
            Vec2::new(1.5, 0.9),
        ];
        assert!(close(
            cost_along(&mesh, &costs, &bent),
            0.5 + 3.0 * 0.5 + 3.0 * 0.4
        ));
        assert!(!areas_cost_differently(&mesh, &AreaCosts::default()));
    }

    #[test]
    fn clipping_a_segment_to_a_triangle() {
        let mesh = obj::parse(b"v 0 0 0\nv 4 0 0\nv 0 0 4\nf 1 3 2\n", "t.obj", Plane::Xz)
            .expect("one triangle");
        let [a, b, c] = mesh.corners(0);
        assert!(crate::geom::signed_area2(a, b, c) > 0.0);
        // Through the middle or along an edge: enters; outside or through a corner only: not.
        let path = |a: (f64, f64), b: (f64, f64)| [Vec2::new(a.0, a.1), Vec2::new(b.0, b.1)];
        assert!(enters(&mesh, 0, &path((-1.0, 1.0), (5.0, 1.0))));
        assert!(enters(&mesh, 0, &path((0.0, 0.0), (4.0, 0.0))));
        assert!(!enters(&mesh, 0, &path((0.0, 0.0), (-3.0, -1.0))));
        assert!(!enters(
            &mesh,
            0,
            &[Vec2::new(3.0, 3.0), Vec2::new(6.0, 3.0)]
        ));
        let (lo, hi) = clip(&mesh, 0, Vec2::new(-1.0, 1.0), Vec2::new(5.0, 1.0)).expect("clips");
        assert!((lo - 1.0 / 6.0).abs() < 1e-8 && (hi - 4.0 / 6.0).abs() < 1e-8);
    }

    /// On every built-in mesh between its default start and goal: the shortest path enters
    /// every triangle the corridor keeps, the off-route triangles are the rest, and the
    /// sentence gives both lengths.
    #[test]
    fn off_route_triangles_are_the_corridor_triangles_the_shortest_path_misses() {
        for scene in crate::assets::ALL {
            let mesh = obj::parse(scene.obj, scene.name, Plane::Xz).expect("asset");
            let (start, goal) = (
                Vec2::new(scene.start.0, scene.start.1),
                Vec2::new(scene.goal.0, scene.goal.1),
            );
            let mut search = Vec::new();
            let corridor = find_path(
                &mesh,
                start,
                goal,
                QueryOptions::default(),
                &mut search,
                &mut NoObserver,
            )
            .expect("query");
            let optimal = shortest_path(&mesh, start, goal, &mut NoObserver);
            let gap = compare(&mesh, &corridor, &optimal, &search, &AreaCosts::default());
            assert_eq!(gap.area_costs, None, "no area costs another than ground's");
            assert!(
                gap.corridor_length >= gap.optimal_length - 1e-9,
                "{}",
                scene.name
            );
            // Points sampled along the shortest path: none inside an off-route triangle (by more
            // than rounding), some in each other corridor triangle or on its edges.
            let samples: Vec<Vec2> = optimal
                .waypoints
                .windows(2)
                .flat_map(|w| (1..20_000).map(move |i| w[0].lerp(w[1], f64::from(i) / 20_000.0)))
                .collect();
            let strictly_inside = |t: TriId, p: Vec2| {
                let [a, b, c] = mesh.corners(t);
                let clear = |u: Vec2, v: Vec2| orient(u, v, p) / (v - u).length() > 1e-9;
                clear(a, b) && clear(b, c) && clear(c, a)
            };
            let on_or_inside = |t: TriId, p: Vec2| {
                let [a, b, c] = mesh.corners(t);
                let near = |u: Vec2, v: Vec2| orient(u, v, p) / (v - u).length() > -1e-9;
                near(a, b) && near(b, c) && near(c, a)
            };
            for &t in &corridor.corridor {
                if gap.off_route.contains(&t) {
                    let hit = samples.iter().any(|&p| strictly_inside(t, p));
                    assert!(!hit, "{}: {t}", scene.name);
                } else {
                    let hit = samples.iter().any(|&p| on_or_inside(t, p));
                    assert!(hit, "{}: {t}", scene.name);
                }
            }
            if let Some(d) = gap.divergence {
                assert_eq!(Some(&d.triangle), gap.off_route.first(), "{}", scene.name);
            }
            let sentence = gap.explain(CostModel::Centroid);
            assert!(
                sentence.contains(&format!("{:.3}", gap.optimal_length)),
                "{sentence}"
            );
        }
    }
}
