//! Generated meshes for tests and benchmarks: a jittered grid of triangles with square holes
//! (obstacles), of any size, reproducible from a seed.

use super::{BuildOptions, NavMesh};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The largest jitter that keeps every cell convex: a corner and the line through its two
/// neighbours, each moving at most `j·√2` towards each other, start `1/√2` apart, so `j < 1/4`.
pub const MAX_JITTER: f64 = 0.24;

/// Parameters of [`jittered_grid`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridMeshSpec {
    /// Cells across (x).
    pub columns: usize,
    /// Cells down (z).
    pub rows: usize,
    /// Largest vertex displacement along each axis, as a fraction of a cell. Clamped to
    /// [`MAX_JITTER`], which keeps every cell a convex quad, so no triangle folds over another.
    pub jitter: f64,
    /// Chance that each candidate obstacle (a 2×2-cell block every 6 cells) is cut out.
    pub hole_chance: f64,
    /// Random seed.
    pub seed: u64,
}

impl GridMeshSpec {
    /// A square grid with about `triangles` triangles (a little over), moderate jitter and
    /// holes.
    pub fn with_about(triangles: usize, seed: u64) -> Self {
        let hole_chance = 0.5;
        // Each 6×6 block loses its 2×2 obstacle with probability `hole_chance`.
        let kept = 1.0 - hole_chance * 4.0 / 36.0;
        let side = ((triangles as f64 / 2.0 / kept).sqrt().ceil() as usize).max(1);
        Self {
            columns: side,
            rows: side,
            jitter: 0.2,
            hole_chance,
            seed,
        }
    }
}

/// Builds a grid of unit cells in the XZ plane, each split into two triangles along a random
/// diagonal, interior vertices jittered, and some 2×2 blocks removed as obstacles. Obstacles sit
/// away from each other, so the mesh stays one island.
pub fn jittered_grid(spec: GridMeshSpec) -> NavMesh {
    let GridMeshSpec {
        columns,
        rows,
        jitter,
        hole_chance,
        seed,
    } = spec;
    let (columns, rows) = (columns.max(1), rows.max(1));
    let jitter = if jitter.is_finite() {
        jitter.clamp(0.0, MAX_JITTER)
    } else {
        0.0
    };
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut positions = Vec::with_capacity((columns + 1) * (rows + 1));
    for j in 0..=rows {
        for i in 0..=columns {
            let interior = i > 0 && j > 0 && i < columns && j < rows;
            let (dx, dz) = if interior {
                (
                    rng.random_range(-jitter..=jitter),
                    rng.random_range(-jitter..=jitter),
                )
            } else {
                (0.0, 0.0)
            };
            let height = rng.random_range(0.0..0.05);
            positions.push([i as f64 + dx, height, j as f64 + dz]);
        }
    }
    let vertex = |i: usize, j: usize| j * (columns + 1) + i;
    let block_w = columns.div_ceil(6);
    let holes: Vec<bool> = (0..block_w * rows.div_ceil(6))
        .map(|_| rng.random_bool(hole_chance.clamp(0.0, 1.0)))
        .collect();
    let mut polygons = Vec::with_capacity(columns * rows * 2);
    for j in 0..rows {
        for i in 0..columns {
            let in_block = (3..5).contains(&(i % 6)) && (3..5).contains(&(j % 6));
            if in_block && holes[(j / 6) * block_w + i / 6] {
                continue;
            }
            let (a, b, c, d) = (
                vertex(i, j),
                vertex(i + 1, j),
                vertex(i + 1, j + 1),
                vertex(i, j + 1),
            );
            if rng.random_bool(0.5) {
                polygons.push(vec![a, b, c]);
                polygons.push(vec![a, c, d]);
            } else {
                polygons.push(vec![a, b, d]);
                polygons.push(vec![b, c, d]);
            }
        }
    }
    NavMesh::from_polygons(&positions, &polygons, BuildOptions::default())
        .expect("a generated grid always has triangles")
}
