//! How much longer the corridor path (A* over triangles, then the funnel) is than the shortest
//! path, over random queries on a mesh: a level designer's whole-mesh report.

use super::anyangle::shortest_path;
use super::query::{CostModel, QueryOptions, find_path};
use super::radius::shortest_path_for_radius;
use super::{NavMesh, TriId};
use crate::geom::Vec2;
use crate::search::NoObserver;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Duration;

/// What [`measure`] runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QualityOptions {
    /// Random start and goal pairs.
    pub queries: usize,
    /// Their seed (the same seed gives the same pairs on the same mesh).
    pub seed: u64,
    /// The corridor search's cost model.
    pub cost: CostModel,
    /// Its heuristic weight (1: A* as it is; above 1 greedier).
    pub weight: f64,
    /// The agent's radius (0: a point). Above 0 the corridor query keeps it
    /// ([`QueryOptions::radius`]) and the shortest path is the exact one for it
    /// ([`shortest_path_for_radius`]); pairs where either end has less room are not measured.
    pub radius: f64,
}

impl Default for QualityOptions {
    fn default() -> Self {
        Self {
            queries: 200,
            seed: 1,
            cost: CostModel::Centroid,
            weight: 1.0,
            radius: 0.0,
        }
    }
}

/// The most pairs one report runs.
pub const MAX_QUERIES: usize = 100_000;

/// One measured pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairQuality {
    /// Start.
    pub from: Vec2,
    /// Goal.
    pub to: Vec2,
    /// The triangle the start is in.
    pub from_triangle: TriId,
    /// The shortest path's length.
    pub optimal: f64,
    /// The corridor path's length.
    pub corridor: f64,
}

impl PairQuality {
    /// How much longer the corridor path is, as a fraction of the shortest (0 when equal, or
    /// shorter: for a radius the exact search's rounded corners are polygons drawn round the
    /// circles, a little longer than the corridor path's arcs).
    pub fn excess(&self) -> f64 {
        if self.optimal > 0.0 {
            (self.corridor / self.optimal - 1.0).max(0.0)
        } else {
            0.0
        }
    }
}

/// The answer of [`measure`].
#[derive(Debug, Clone, PartialEq)]
pub struct QualityReport {
    /// Every pair measured, in the order drawn.
    pub pairs: Vec<PairQuality>,
    /// Pairs drawn but not measured: no path between them, or the exact search stopped at
    /// its node budget.
    pub skipped: usize,
    /// Pairs drawn but not measured because the exact search could not follow the mesh
    /// between two points on one island (folds, sliver faces), though the corridor query
    /// found a path.
    pub not_followed: usize,
    /// Time the exact searches took, all pairs together.
    pub optimal_time: Duration,
    /// Time the corridor queries took, all pairs together.
    pub corridor_time: Duration,
}

/// Mean, 95th percentile (nearest rank) and largest of some excess fractions (all 0 when there
/// are none).
pub fn excess_summary(excess: &[f64]) -> (f64, f64, f64) {
    let mut sorted = excess.to_vec();
    sorted.sort_by(f64::total_cmp);
    let Some(&worst) = sorted.last() else {
        return (0.0, 0.0, 0.0);
    };
    let mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
    let rank = ((0.95 * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    (mean, sorted[rank - 1], worst)
}

impl QualityReport {
    fn summary(&self) -> (f64, f64, f64) {
        let excess: Vec<f64> = self.pairs.iter().map(PairQuality::excess).collect();
        excess_summary(&excess)
    }

    /// The mean excess (0 with no pairs).
    pub fn mean_excess(&self) -> f64 {
        self.summary().0
    }

    /// The excess 95 % of pairs stay within (nearest rank).
    pub fn p95_excess(&self) -> f64 {
        self.summary().1
    }

    /// The largest excess.
    pub fn worst_excess(&self) -> f64 {
        self.summary().2
    }

    /// The `n` pairs with the largest excess, worst first (ties in the order drawn).
    pub fn worst(&self, n: usize) -> Vec<PairQuality> {
        let mut pairs = self.pairs.clone();
        pairs.sort_by(|a, b| b.excess().total_cmp(&a.excess()));
        pairs.truncate(n);
        pairs
    }

    /// The largest excess of the pairs starting in each triangle, by triangle id (`None` where
    /// none starts): where the worst detours start, for a heat map.
    pub fn worst_excess_by_start_triangle(&self, triangles: usize) -> Vec<Option<f64>> {
        let mut heat = vec![None; triangles];
        for pair in &self.pairs {
            if let Some(h) = heat.get_mut(pair.from_triangle) {
                *h = Some(h.map_or(pair.excess(), |e: f64| e.max(pair.excess())));
            }
        }
        heat
    }
}

/// Points drawn uniformly by area, the goal on the start's island.
struct PointSampler<'m> {
    mesh: &'m NavMesh,
    /// Running area totals over all triangles.
    all: Vec<f64>,
    /// For each island, its triangles and their running area totals.
    islands: Vec<(Vec<TriId>, Vec<f64>)>,
}

impl<'m> PointSampler<'m> {
    fn new(mesh: &'m NavMesh) -> Self {
        let mut all = Vec::with_capacity(mesh.triangles().len());
        let mut islands: Vec<(Vec<TriId>, Vec<f64>)> =
            vec![(Vec::new(), Vec::new()); mesh.island_count()];
        let mut total = 0.0;
        for (t, tri) in mesh.triangles().iter().enumerate() {
            total += tri.area;
            all.push(total);
            if let Some((ids, sums)) = islands.get_mut(mesh.island_of(t)) {
                let before = sums.last().copied().unwrap_or(0.0);
                ids.push(t);
                sums.push(before + tri.area);
            }
        }
        Self { mesh, all, islands }
    }

    /// A triangle by area from running totals `sums` over `ids` (`None`: all triangles).
    fn pick(rng: &mut Pcg64Mcg, sums: &[f64]) -> Option<usize> {
        let total = *sums.last()?;
        if total.is_nan() || total <= 0.0 {
            return None;
        }
        let x = rng.random_range(0.0..total);
        Some(sums.partition_point(|&s| s <= x).min(sums.len() - 1))
    }

    /// A point uniformly inside triangle `t`.
    fn point_in(&self, rng: &mut Pcg64Mcg, t: TriId) -> Vec2 {
        let [a, b, c] = self.mesh.corners(t);
        let (mut u, mut v): (f64, f64) = (rng.random_range(0.0..1.0), rng.random_range(0.0..1.0));
        if u + v > 1.0 {
            (u, v) = (1.0 - u, 1.0 - v);
        }
        a + (b - a) * u + (c - a) * v
    }

    /// A start and a goal on its island, with the start's triangle.
    fn pair(&self, rng: &mut Pcg64Mcg) -> Option<(Vec2, TriId, Vec2)> {
        let s = Self::pick(rng, &self.all)?;
        let (ids, sums) = self.islands.get(self.mesh.island_of(s))?;
        let g = *ids.get(Self::pick(rng, sums)?)?;
        Some((self.point_in(rng, s), s, self.point_in(rng, g)))
    }
}

/// Runs `options.queries` random pairs (at most [`MAX_QUERIES`]) through both searches.
pub fn measure(mesh: &NavMesh, options: QualityOptions) -> QualityReport {
    measure_with_progress(mesh, options, || {})
}

/// [`measure`], calling `done` after each pair (for a progress bar).
pub fn measure_with_progress(
    mesh: &NavMesh,
    options: QualityOptions,
    mut done: impl FnMut(),
) -> QualityReport {
    let sampler = PointSampler::new(mesh);
    let mut rng = Pcg64Mcg::seed_from_u64(options.seed);
    let query = QueryOptions {
        cost: options.cost,
        heuristic_weight: options.weight,
        radius: options.radius.max(0.0),
        ..QueryOptions::default()
    };
    let mut report = QualityReport {
        pairs: Vec::new(),
        skipped: 0,
        not_followed: 0,
        optimal_time: Duration::ZERO,
        corridor_time: Duration::ZERO,
    };
    for _ in 0..options.queries.min(MAX_QUERIES) {
        let Some((from, from_triangle, to)) = sampler.pair(&mut rng) else {
            break;
        };
        let started = crate::clock::Stopwatch::start();
        let optimal = if query.radius > 0.0 {
            match shortest_path_for_radius(mesh, from, to, query.radius) {
                Ok(optimal) => optimal,
                Err(_) => {
                    report.skipped += 1;
                    done();
                    continue;
                }
            }
        } else {
            shortest_path(mesh, from, to, &mut NoObserver)
        };
        report.optimal_time += started.elapsed();
        let started = crate::clock::Stopwatch::start();
        let corridor = find_path(mesh, from, to, query, &mut NoObserver, &mut NoObserver);
        report.corridor_time += started.elapsed();
        match corridor {
            // By cost: the length, plus what the links crossed cost on a mesh with links.
            Some(corridor) if optimal.is_found() && corridor.cost.is_finite() => {
                report.pairs.push(PairQuality {
                    from,
                    to,
                    from_triangle,
                    optimal: optimal.cost,
                    corridor: corridor.cost,
                });
            }
            Some(corridor)
                if optimal.connected && !optimal.over_budget && corridor.cost.is_finite() =>
            {
                report.not_followed += 1;
            }
            _ => report.skipped += 1,
        }
        done();
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(from_triangle: TriId, optimal: f64, corridor: f64) -> PairQuality {
        PairQuality {
            from: Vec2::default(),
            to: Vec2::default(),
            from_triangle,
            optimal,
            corridor,
        }
    }

    #[test]
    fn each_start_triangle_keeps_its_worst_detour() {
        let report = QualityReport {
            pairs: vec![pair(2, 10.0, 11.0), pair(2, 10.0, 10.5), pair(0, 4.0, 4.0)],
            skipped: 0,
            not_followed: 0,
            optimal_time: Duration::ZERO,
            corridor_time: Duration::ZERO,
        };
        let heat = report.worst_excess_by_start_triangle(4);
        assert_eq!(heat.len(), 4);
        assert_eq!(heat[0], Some(0.0));
        assert_eq!(heat[1], None);
        assert!((heat[2].expect("two pairs start there") - 0.1).abs() < 1e-12);
        assert_eq!(heat[3], None);
        let (mean, p95, worst) = excess_summary(&[0.1, 0.05, 0.0]);
        assert!((mean - 0.05).abs() < 1e-12 && (p95 - 0.1).abs() < 1e-12 && worst == 0.1);
    }
}
