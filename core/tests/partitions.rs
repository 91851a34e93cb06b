//! The paper's four partitions: the visibility graph against the published any-angle lengths
//! of arena.map, the exact segment test against a brute-force one, and the four paths of every
//! partition checked against each other on random maps (proptest).

mod common;
use common::*;
use navlab_core::geom::Vec2;
use navlab_core::grid::free_segment::{HalfPoint, is_pinch, segment_is_free};
use navlab_core::grid::quadtree::QuadTree;
use navlab_core::grid::visibility::VisibilityGraph;
use navlab_core::grid::{Connectivity, TileMap};
use navlab_core::partitions::{Partition, compare_partitions};
use navlab_core::search::{NoObserver, SearchOutcome};
use proptest::prelude::*;

/// The published any-angle lengths between cell corners of arena.map (Polyanya's arena tests,
/// see ../shared/testdata/SOURCES.md): the visibility graph of the map finds every one.
#[test]
fn the_visibility_graph_of_arena_gives_the_published_any_angle_lengths() {
    let (Some(map_path), Some(csv_path)) = (
        testdata("movingai/arena.map"),
        testdata("meshes/polyanya/arena.anyangle.csv"),
    ) else {
        return;
    };
    let map = navlab_core::grid::movingai::load_map(&map_path).expect("arena.map");
    let graph = VisibilityGraph::build(&map).expect("arena has few corners");
    let csv = std::fs::read_to_string(csv_path).expect("csv");
    let mut checked = 0;
    for line in csv.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<f64> = line
            .split(',')
            .map(|t| t.trim().parse().expect("number"))
            .collect();
        let corner = |x: f64, y: f64| HalfPoint::corner(x as i64, y as i64);
        let (from, to) = (corner(f[1], f[2]), corner(f[3], f[4]));
        let path = graph.find_path(&map, from, to, &mut NoObserver);
        assert_eq!(path.outcome, SearchOutcome::Found, "{line}");
        assert!(
            (path.length - f[6]).abs() <= 1e-4,
            "{line}: visibility graph {} against published {}",
            path.length,
            f[6]
        );
        for pair in path.points.windows(2) {
            assert!(segment_is_free(&map, pair[0], pair[1]), "{line}: {pair:?}");
        }
        checked += 1;
    }
    assert_eq!(checked, 160);
}

/// A brute-force segment test: points along the segment every 1/64 of a cell must lie in or on
/// a passable cell, and the segment may not pass through a pinch corner. Exact for the
/// segments it is used on below (ends on the half-cell lattice, short).
fn free_by_sampling(map: &TileMap, a: HalfPoint, b: HalfPoint) -> bool {
    let (p, q) = (a.to_vec2(), b.to_vec2());
    let samples = 64 * 2 * ((b.x2 - a.x2).abs() + (b.y2 - a.y2).abs()).max(1);
    let open = |x: i64, y: i64| map.get_signed(x, y).is_some_and(|t| t.is_passable());
    let on_free_ground = |v: Vec2| {
        // The cells whose closed square holds v.
        let near = |c: f64| {
            let f = c.floor();
            if c == f {
                vec![f as i64 - 1, f as i64]
            } else {
                vec![f as i64]
            }
        };
        near(v.x)
            .iter()
            .any(|&x| near(v.y).iter().any(|&y| open(x, y)))
    };
    for i in 0..=samples {
        let v = p.lerp(q, i as f64 / samples as f64);
        if !on_free_ground(v) {
            return false;
        }
        // Strictly between the ends: a segment of no length has no inside to squeeze through
        // a pinch with (the point itself may sit on one).
        let interior = v != p && v != q;
        if interior
            && v.x.fract() == 0.0
            && v.y.fract() == 0.0
            && is_pinch(map, v.x as i64, v.y as i64)
        {
            return false;
        }
    }
    // A segment through the inside of a blocked cell between two samples would need to cross
    // it in under 1/64 of a cell: only near a corner, where a sample on the cell's border
    // catches the neighbours. Checking cell insides at sample midpoints closes the gap.
    for i in 0..samples {
        let v = p.lerp(q, (i as f64 + 0.5) / samples as f64);
        if v.x.fract() != 0.0 && v.y.fract() != 0.0 && !open(v.x.floor() as i64, v.y.floor() as i64)
        {
            return false;
        }
    }
    true
}

fn half_points(side: i64) -> impl Strategy<Value = HalfPoint> {
    (0..=2 * side, 0..=2 * side).prop_map(|(x2, y2)| HalfPoint { x2, y2 })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases_or(256)))]

    /// The exact segment test agrees with sampling on random maps and random ends.
    #[test]
    fn the_segment_test_agrees_with_sampling(
        map in tile_maps(3..9),
        a in half_points(9),
        b in half_points(9),
    ) {
        prop_assert_eq!(
            segment_is_free(&map, a, b),
            free_by_sampling(&map, a, b),
            "{:?} to {:?}", a, b
        );
    }

    /// The same along short lattice directions, which pass through grid corners (and pinches)
    /// far more often than random ends do.
    #[test]
    fn the_segment_test_agrees_with_sampling_through_corners(
        map in tile_maps(3..9),
        a in half_points(9),
        (dx, dy, steps) in (-2i64..=2, -2i64..=2, 1i64..8),
    ) {
        let b = HalfPoint { x2: a.x2 + 2 * dx * steps, y2: a.y2 + 2 * dy * steps };
        prop_assert_eq!(
            segment_is_free(&map, a, b),
            free_by_sampling(&map, a, b),
            "{:?} to {:?}", a, b
        );
    }

    /// On random maps, between random passable cells, every partition finds a path exactly
    /// when the grid does; every path it gives runs on free ground; the visibility graph's is
    /// the shortest of all (the any-angle optimum), straightening never lengthens a path, and
    /// the quadtree never has more squares than the map has cells.
    #[test]
    fn the_four_partitions_agree_on_random_maps(
        map in tile_maps(4..14),
        seed in any::<u64>(),
    ) {
        let passable: Vec<_> = (0..map.cell_count())
            .map(|i| map.cell(i))
            .filter(|&c| map.is_passable(c))
            .collect();
        prop_assume!(passable.len() >= 2);
        let from = passable[(seed % passable.len() as u64) as usize];
        let to = passable[((seed >> 32) % passable.len() as u64) as usize];
        let comparison = compare_partitions(&map, from, to, Connectivity::Eight);
        let grid = comparison.result(Partition::Grid).expect("grid");
        let shortest = comparison
            .result(Partition::Visibility)
            .expect("small maps have few corners")
            .straight_length();
        for result in &comparison.results {
            prop_assert_eq!(result.outcome, grid.outcome, "{:?}", result.partition);
            // The nodes shown as expanded: as many as counted, each a passable node of its
            // partition, the goal's last when found.
            prop_assert_eq!(result.expanded_nodes.len(), result.expanded, "{:?}", result.partition);
            let built = &comparison.built;
            // The node the goal is in, and whether the start shares its square or triangle.
            let (goal_node, one_node) = match result.partition {
                Partition::Grid => {
                    for &n in &result.expanded_nodes {
                        prop_assert!(map.is_passable(map.cell(n)));
                    }
                    (map.index(to), false)
                }
                Partition::QuadTree => {
                    let tree = built.quadtree.get().expect("a quadtree");
                    for &n in &result.expanded_nodes {
                        prop_assert!(tree.squares()[n].tile.is_passable());
                    }
                    let square = |c| tree.square_at(&map, c).expect("on the map");
                    (square(to), square(from) == square(to))
                }
                Partition::Visibility => {
                    let corners = built.visibility.get().expect("a graph").corner_count();
                    for &n in &result.expanded_nodes {
                        prop_assert!(n < corners + 2);
                    }
                    (corners + 1, false)
                }
                Partition::NavMesh => {
                    let mesh = built.mesh.get().expect("a mesh");
                    for &n in &result.expanded_nodes {
                        prop_assert!(n < mesh.triangles().len());
                    }
                    let triangle = |c| {
                        mesh.locate(HalfPoint::centre(c).to_vec2()).expect("on the mesh").triangle
                    };
                    (triangle(to), triangle(from) == triangle(to))
                }
            };
            if result.outcome == SearchOutcome::Found {
                prop_assert_eq!(result.expanded_nodes.last(), Some(&goal_node), "{:?}", result.partition);
            }
            if result.outcome != SearchOutcome::Found {
                continue;
            }
            let start = HalfPoint::centre(from).to_vec2();
            let goal = HalfPoint::centre(to).to_vec2();
            for path in [&result.raw, &result.straight] {
                prop_assert_eq!(path.first(), Some(&start));
                prop_assert_eq!(path.last(), Some(&goal));
            }
            prop_assert!(result.straight_length() <= result.raw_length() + 1e-9);
            if one_node {
                // Squares and triangles are convex: inside one, the raw path is the straight
                // step, not a detour through the node's centre.
                prop_assert_eq!(result.raw.len(), 2, "{:?}", result.partition);
            }
            prop_assert!(
                result.straight_length() >= shortest - 1e-9,
                "{:?}: {} shorter than the visibility graph's {}",
                result.partition, result.straight_length(), shortest
            );
            if result.partition != Partition::NavMesh {
                // Grid, quadtree and visibility points are on the half-cell lattice.
                let lattice = |v: &Vec2| HalfPoint { x2: (v.x * 2.0) as i64, y2: (v.y * 2.0) as i64 };
                for path in [&result.raw, &result.straight] {
                    for pair in path.windows(2) {
                        prop_assert!(
                            segment_is_free(&map, lattice(&pair[0]), lattice(&pair[1])),
                            "{:?}: {:?}", result.partition, pair
                        );
                    }
                }
            }
        }
        prop_assert!(comparison.built.quadtree.get().expect("a quadtree").passable_count() <= map.passable_count());
    }

    /// The quadtree's squares cover the map exactly once, each of one kind of tile.
    #[test]
    fn quadtree_squares_tile_the_map(map in tile_maps(1..20)) {
        let tree = QuadTree::build(&map).expect("a small map");
        let mut covered = vec![0u8; map.cell_count()];
        for s in tree.squares() {
            prop_assert!(s.size.is_power_of_two());
            for y in s.y..s.y + s.size {
                for x in s.x..s.x + s.size {
                    prop_assert_eq!(map.get((x, y)), Some(s.tile));
                    covered[map.index((x, y))] += 1;
                }
            }
        }
        prop_assert!(covered.iter().all(|&c| c == 1));
    }
}

/// A start on its goal: every partition finds it, the straightened path has length +0 (not
/// the -0 an empty float sum gives, which printed as "-0.0000"), and so does the grid's own
/// one-cell path; the JSON says 0.0.
#[test]
fn a_start_on_its_goal_has_length_zero_everywhere() {
    let mut map = TileMap::new(9, 7).expect("size");
    map.set((4, 2), navlab_core::grid::Tile::Wall);
    let comparison = compare_partitions(&map, (1, 1), (1, 1), Connectivity::Eight);
    assert_eq!(comparison.results.len(), 4);
    for result in &comparison.results {
        assert_eq!(
            result.outcome,
            SearchOutcome::Found,
            "{:?}",
            result.partition
        );
        let straight = result.straight_length();
        assert!(
            straight == 0.0 && straight.is_sign_positive(),
            "{:?}: {straight:?}",
            result.partition
        );
        let raw = result.raw_length();
        assert!(
            raw == 0.0 && raw.is_sign_positive(),
            "{:?}: {raw:?}",
            result.partition
        );
        let json = result.to_json().to_string();
        assert!(json.contains("\"straight_length\":0.0"), "{json}");
    }
    let grid = &comparison.results[0];
    assert_eq!(grid.partition, Partition::Grid);
    assert_eq!(grid.raw_length().to_bits(), 0.0f64.to_bits());
}
