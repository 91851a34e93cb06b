//! The pursuit scene at scale: one fixed step with 1,000 mobs and a 2,000-point smell trail on a
//! 256×256 map with walls (goal: ≤ 2 ms per step). Run: `cargo bench --bench pursuit`.
//! "warm" is the steady state (sight cached per tile, as the simulation runs); "cold" forgets
//! every mob's cache before each step, the cost if every mob had just changed tile.

use criterion::{Criterion, criterion_group, criterion_main};
use navlab_core::geom::Vec2;
use navlab_core::grid::{Tile, TileMap};
use navlab_core::pursuit::{MobState, PursuitConfig, World};
use navlab_core::search::NoObserver;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const SIDE: usize = 256;
const MOBS: usize = 1000;
const TRAIL: usize = 2000;

/// Grass with 600 wall segments (3–14 tiles, either direction) and a few ponds and sand pits.
fn map(rng: &mut Pcg64Mcg) -> TileMap {
    let mut map = TileMap::new(SIDE, SIDE).expect("size");
    for _ in 0..600 {
        let (x, y) = (rng.random_range(0..SIDE), rng.random_range(0..SIDE));
        let len = rng.random_range(3..15);
        let horizontal = rng.random_bool(0.5);
        for i in 0..len {
            let cell = if horizontal { (x + i, y) } else { (x, y + i) };
            map.set(cell, Tile::Wall);
        }
    }
    for _ in 0..60 {
        let (x, y) = (rng.random_range(0..SIDE), rng.random_range(0..SIDE));
        let tile = if rng.random_bool(0.5) {
            Tile::Sand
        } else {
            Tile::Water
        };
        for dy in 0..4 {
            for dx in 0..5 {
                if map.get((x + dx, y + dy)) == Some(Tile::Grass) {
                    map.set((x + dx, y + dy), tile);
                }
            }
        }
    }
    map
}

/// A world whose kitten has wandered long enough to leave `TRAIL` points, with decay set so
/// the trail stays about that long, and `MOBS` mobs on random free tiles.
fn world() -> World {
    let mut rng = Pcg64Mcg::seed_from_u64(2026);
    let map = map(&mut rng);
    let free: Vec<Vec2> = (0..SIDE * SIDE)
        .map(|i| map.cell(i))
        .filter(|&c| map.is_passable(c))
        .map(|(x, y)| Vec2::new(x as f64 + 0.5, y as f64 + 0.5))
        .collect();
    let config = PursuitConfig {
        decay: 1e9,
        ..PursuitConfig::default()
    };
    let mut world = World::new(map, config, Vec2::new(128.5, 128.5))
        .or_else(|_| {
            let at = free[free.len() / 2];
            World::new(
                TileMap::new(SIDE, SIDE).expect("size"),
                PursuitConfig::default(),
                at,
            )
        })
        .expect("kitten");
    while world.trail.len() < TRAIL {
        world.step(&mut NoObserver);
    }
    world.config.decay = world.time() - world.trail.points()[0].born;
    for _ in 0..MOBS {
        let at = free[rng.random_range(0..free.len())];
        world.add_mob(at).expect("free tile");
    }
    // Let the mobs settle into their states.
    for _ in 0..60 {
        world.step(&mut NoObserver);
    }
    let count = |s: MobState| world.mobs.iter().filter(|m| m.state == s).count();
    eprintln!(
        "pursuit bench: {} mobs ({} chasing, {} tracking, {} lost), trail {} points",
        world.mobs.len(),
        count(MobState::Chasing),
        count(MobState::Tracking),
        count(MobState::Lost),
        world.trail.len()
    );
    world
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("pursuit_step_1000_mobs_2000_trail_256");
    let mut warm = world();
    group.bench_function("warm", |b| b.iter(|| warm.step(&mut NoObserver)));
    eprintln!("after warm runs: trail {} points", warm.trail.len());
    let mut cold = world();
    group.bench_function("cold", |b| {
        b.iter(|| {
            cold.forget_sight();
            cold.step(&mut NoObserver)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
