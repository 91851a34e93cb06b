//! Grid search: MovingAI benchmark scenarios (optimal lengths published by others), agreement of
//! every optimal algorithm with Dijkstra on random maps, and path validity.

mod common;
use common::{cases_or, testdata};
use navlab_core::grid::movingai::{load_map, load_scenarios, matches_six_digits};
use navlab_core::grid::search::{DEFAULT_IDA_BUDGET, GridScratch, grid_search_with_scratch};
use navlab_core::grid::{
    Cell, Connectivity, GridAlgorithm, GridPath, Heuristic, Tile, TileMap, grid_search,
};
use navlab_core::search::{NoObserver, SearchEvent, SearchOutcome, fringe};
use proptest::prelude::*;

const ASTAR: GridAlgorithm = GridAlgorithm::AStar {
    heuristic: Heuristic::Octile,
    weight: 1.0,
};
const FRINGE: GridAlgorithm = GridAlgorithm::Fringe {
    heuristic: Heuristic::Octile,
};

/// Checks that a path is a legal walk on the map and that its cost adds up.
fn assert_valid(
    map: &TileMap,
    start: Cell,
    goal: Cell,
    result: &GridPath,
    connectivity: Connectivity,
) {
    assert_eq!(result.path.first(), Some(&start));
    assert_eq!(result.path.last(), Some(&goal));
    let mut cost = 0.0;
    for pair in result.path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        assert!(map.is_passable(b), "{b:?} is blocked");
        let (dx, dy) = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
        assert!(
            dx <= 1 && dy <= 1 && dx + dy > 0,
            "{a:?} → {b:?} is not one step"
        );
        let enter = map.costs.of(map.get(b).expect("on map")).expect("passable");
        if dx + dy == 2 {
            assert_eq!(connectivity, Connectivity::Eight);
            assert!(
                map.is_passable((a.0, b.1)) && map.is_passable((b.0, a.1)),
                "corner cut at {a:?} → {b:?}"
            );
            cost += std::f64::consts::SQRT_2 * enter;
        } else {
            cost += enter;
        }
    }
    assert!(
        (cost - result.cost).abs() <= 1e-9 * cost.max(1.0),
        "cost {} vs walked {cost}",
        result.cost
    );
}

/// A MovingAI map of `../shared/testdata/movingai` and its scenarios (`None`, with a message,
/// when the data is absent).
fn movingai(map_name: &str) -> Option<(TileMap, Vec<navlab_core::grid::movingai::Scenario>)> {
    let map_path = testdata(&format!("movingai/{map_name}"))?;
    let scen_path = testdata(&format!("movingai/{map_name}.scen"))?;
    let map = load_map(&map_path).expect("map loads");
    let scenarios = load_scenarios(&scen_path).expect("scen loads");
    Some((map, scenarios))
}

/// The recorded steps of `algorithm` on scenario `s` of `map`, 8-connected as MovingAI's.
fn scenario_trace(
    map: &TileMap,
    s: &navlab_core::grid::movingai::Scenario,
    algorithm: GridAlgorithm,
) -> Vec<SearchEvent> {
    let mut trace = Vec::new();
    grid_search(
        map,
        s.start,
        s.goal,
        algorithm,
        Connectivity::Eight,
        &mut trace,
    );
    trace
}

fn run_scenarios(map_name: &str, every: usize, algorithms: &[GridAlgorithm]) {
    let Some((map, scenarios)) = movingai(map_name) else {
        return;
    };
    let mut scratch = GridScratch::default();
    let mut checked = 0;
    for s in scenarios.iter().step_by(every) {
        for &algorithm in algorithms {
            let r = grid_search_with_scratch(
                &mut scratch,
                &map,
                s.start,
                s.goal,
                algorithm,
                Connectivity::Eight,
                &mut NoObserver,
            );
            assert_eq!(
                r.outcome,
                SearchOutcome::Found,
                "{map_name} line {}",
                s.line
            );
            assert!(
                matches_six_digits(r.cost, s.optimal),
                "{} on {map_name} line {}: {} vs listed {}",
                algorithm.name(),
                s.line,
                r.cost,
                s.optimal
            );
            assert_valid(&map, s.start, s.goal, &r, Connectivity::Eight);
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn arena_every_scenario_matches_for_astar_fringe_and_dijkstra() {
    run_scenarios("arena.map", 1, &[ASTAR, FRINGE, GridAlgorithm::Dijkstra]);
}

#[test]
fn random512_a_spread_of_scenarios_matches() {
    run_scenarios(
        "random512-10-0.map",
        41,
        &[ASTAR, FRINGE, GridAlgorithm::Dijkstra],
    );
}

#[test]
fn maze512_a_spread_of_scenarios_matches() {
    run_scenarios("maze512-4-0.map", 487, &[ASTAR, FRINGE]);
}

/// Jump Point Search and JPS+ on every scenario of the three MovingAI maps: the published
/// optimal length and a legal walk.
#[test]
fn jps_and_jps_plus_match_every_published_scenario_of_the_three_maps() {
    use navlab_core::grid::jps_plus::JpsPlusGrid;
    use navlab_core::search::AStarScratch;
    for name in ["arena.map", "random512-10-0.map", "maze512-4-0.map"] {
        run_scenarios(name, 1, &[GridAlgorithm::Jps]);
        // JPS+ with its tables built once for the map, as a game would.
        let Some((map, scenarios)) = movingai(name) else {
            return;
        };
        let grid = JpsPlusGrid::new(&map).expect("one tile cost, not too large");
        let mut scratch = AStarScratch::default();
        for s in &scenarios {
            let found = grid.search(&mut scratch, s.start, s.goal, &mut NoObserver);
            assert_eq!(
                found.outcome,
                SearchOutcome::Found,
                "{name} line {}",
                s.line
            );
            assert!(
                matches_six_digits(found.cost, s.optimal),
                "JPS+ on {name} line {}: {} vs listed {}",
                s.line,
                found.cost,
                s.optimal
            );
            let path = GridPath {
                outcome: found.outcome,
                path: grid
                    .fill_in(&found.path)
                    .iter()
                    .map(|&i| map.cell(i))
                    .collect(),
                cost: found.cost,
                expanded: found.expanded,
                peak_memory: found.peak_memory,
            };
            assert_valid(&map, s.start, s.goal, &path, Connectivity::Eight);
        }
    }
}

/// Bidirectional A* on every scenario of the three MovingAI maps: the published optimal
/// length and a legal walk (its stopping rule is what makes the length the optimum).
#[test]
fn bidirectional_astar_matches_every_published_scenario_of_the_three_maps() {
    for name in ["arena.map", "random512-10-0.map", "maze512-4-0.map"] {
        run_scenarios(
            name,
            1,
            &[GridAlgorithm::Bidirectional {
                heuristic: Heuristic::Octile,
            }],
        );
    }
}

#[test]
fn idastar_is_optimal_on_arena_short_scenarios_and_honest_beyond_its_budget() {
    let Some((map, scenarios)) = movingai("arena.map") else {
        return;
    };
    let short: Vec<_> = scenarios.iter().filter(|s| s.bucket <= 2).collect();
    assert!(short.len() >= 20);
    for s in short {
        let algorithm = GridAlgorithm::IdaStar {
            heuristic: Heuristic::Octile,
            budget: DEFAULT_IDA_BUDGET,
        };
        let r = grid_search(
            &map,
            s.start,
            s.goal,
            algorithm,
            Connectivity::Eight,
            &mut NoObserver,
        );
        assert_eq!(r.outcome, SearchOutcome::Found, "line {}", s.line);
        assert!(
            matches_six_digits(r.cost, s.optimal),
            "line {}: {} vs {}",
            s.line,
            r.cost,
            s.optimal
        );
        assert_valid(&map, s.start, s.goal, &r, Connectivity::Eight);
    }
    // With a tiny budget the longer scenarios give up, and say so; no wrong length.
    for s in scenarios.iter().filter(|s| s.bucket >= 10).take(10) {
        let algorithm = GridAlgorithm::IdaStar {
            heuristic: Heuristic::Octile,
            budget: 500,
        };
        let r = grid_search(
            &map,
            s.start,
            s.goal,
            algorithm,
            Connectivity::Eight,
            &mut NoObserver,
        );
        match r.outcome {
            SearchOutcome::BudgetExceeded => assert!(r.path.is_empty() && r.expanded <= 500),
            SearchOutcome::Found => assert!(matches_six_digits(r.cost, s.optimal)),
            SearchOutcome::Unreachable => {
                panic!("line {}: a reachable goal called unreachable", s.line)
            }
        }
    }
}

fn random_map() -> impl Strategy<Value = (TileMap, Cell, Cell, bool)> {
    (common::tile_maps(3..14), any::<bool>()).prop_flat_map(|(map, eight)| {
        let (w, h) = (map.width(), map.height());
        (Just(map), 0..w, 0..h, 0..w, 0..h).prop_map(move |(mut map, sx, sy, gx, gy)| {
            map.set((sx, sy), Tile::Grass);
            map.set((gx, gy), Tile::Grass);
            (map, (sx, sy), (gx, gy), eight)
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(200), ..ProptestConfig::default() })]

    #[test]
    fn every_optimal_algorithm_agrees_with_dijkstra((map, start, goal, eight) in random_map()) {
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        let oracle = grid_search(&map, start, goal, GridAlgorithm::Dijkstra, connectivity, &mut NoObserver);
        let admissible: &[Heuristic] = if eight {
            &[Heuristic::Octile, Heuristic::Chebyshev, Heuristic::Euclidean, Heuristic::Zero]
        } else {
            &[Heuristic::Octile, Heuristic::Manhattan, Heuristic::Chebyshev, Heuristic::Euclidean, Heuristic::Zero]
        };
        for &heuristic in admissible {
            for algorithm in [
                GridAlgorithm::AStar { heuristic, weight: 1.0 },
                GridAlgorithm::Fringe { heuristic },
                GridAlgorithm::IdaStar { heuristic, budget: 200_000 },
                GridAlgorithm::Bidirectional { heuristic },
            ] {
                let r = grid_search(&map, start, goal, algorithm, connectivity, &mut NoObserver);
                if r.outcome == SearchOutcome::BudgetExceeded {
                    continue;
                }
                prop_assert_eq!(r.outcome, oracle.outcome, "{}", algorithm.name());
                if oracle.outcome == SearchOutcome::Found {
                    prop_assert!((r.cost - oracle.cost).abs() <= 1e-9 * oracle.cost.max(1.0),
                        "{} {:?}: {} vs Dijkstra {}", algorithm.name(), heuristic, r.cost, oracle.cost);
                    assert_valid(&map, start, goal, &r, connectivity);
                }
            }
        }
        // Jump Point Search: on a map of one tile cost, 8-connected, the optimum; elsewhere it
        // searches as A* does, and is optimal too.
        // JPS+ likewise.
        for algorithm in [GridAlgorithm::Jps, GridAlgorithm::JpsPlus] {
            let jps = grid_search(&map, start, goal, algorithm, connectivity, &mut NoObserver);
            prop_assert_eq!(jps.outcome, oracle.outcome, "{}", algorithm.name());
            if oracle.outcome == SearchOutcome::Found {
                prop_assert!((jps.cost - oracle.cost).abs() <= 1e-9 * oracle.cost.max(1.0),
                    "{}: {} vs Dijkstra {}", algorithm.name(), jps.cost, oracle.cost);
                assert_valid(&map, start, goal, &jps, connectivity);
            }
        }
        // Greedy best-first finds a path whenever one exists, a legal one, never cheaper than
        // the optimum.
        for heuristic in Heuristic::ALL {
            let g = grid_search(&map, start, goal, GridAlgorithm::BestFirst { heuristic }, connectivity, &mut NoObserver);
            prop_assert_eq!(g.outcome, oracle.outcome, "best-first {:?}", heuristic);
            if g.outcome == SearchOutcome::Found {
                prop_assert!(g.cost >= oracle.cost - 1e-9);
                assert_valid(&map, start, goal, &g, connectivity);
            }
        }
        // BFS finds a path whenever one exists, never cheaper than the optimum.
        let b = grid_search(&map, start, goal, GridAlgorithm::Bfs, connectivity, &mut NoObserver);
        prop_assert_eq!(b.outcome, oracle.outcome);
        if b.outcome == SearchOutcome::Found {
            prop_assert!(b.cost >= oracle.cost - 1e-9);
            prop_assert!(b.path.len() <= oracle.path.len(), "BFS takes the fewest steps");
            assert_valid(&map, start, goal, &b, connectivity);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(200), ..ProptestConfig::default() })]

    /// The open list replayed from a search's events (`Frontier`) names, before every
    /// expansion, the node the search then expands: the order the window shows is the
    /// algorithm's own, ties included. A* with admissible and inflated heuristics, Dijkstra, BFS,
    /// greedy best-first and Jump Point Search.
    #[test]
    fn the_frontier_head_is_the_next_node_expanded((map, start, goal, eight) in random_map()) {
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        for algorithm in [
            GridAlgorithm::AStar { heuristic: Heuristic::Octile, weight: 1.0 },
            GridAlgorithm::AStar { heuristic: Heuristic::Euclidean, weight: 1.0 },
            GridAlgorithm::AStar { heuristic: Heuristic::Manhattan, weight: 2.5 },
            GridAlgorithm::AStar { heuristic: Heuristic::Zero, weight: 1.0 },
            GridAlgorithm::Dijkstra,
            GridAlgorithm::Bfs,
            GridAlgorithm::BestFirst { heuristic: Heuristic::Octile },
            GridAlgorithm::BestFirst { heuristic: Heuristic::Manhattan },
            GridAlgorithm::Jps,
            GridAlgorithm::JpsPlus,
            GridAlgorithm::Bidirectional { heuristic: Heuristic::Octile },
            GridAlgorithm::Bidirectional { heuristic: Heuristic::Zero },
        ] {
            let mut trace = Vec::new();
            grid_search(&map, start, goal, algorithm, connectivity, &mut trace);
            let disagreement = common::frontier_disagreement(&trace, algorithm.expansion_order());
            prop_assert!(disagreement.is_none(), "{}: {:?}", algorithm.name(), disagreement);
        }
    }
}

/// Random maps of open grass and walls only (one tile cost, so JPS's pruning holds), sides
/// 2 to 40, with a start and a goal.
fn one_cost_map() -> impl Strategy<Value = (TileMap, Cell, Cell)> {
    (2usize..40, 2usize..40, 0u32..45).prop_flat_map(|(w, h, density)| {
        let tiles = prop::collection::vec(
            (0u32..100).prop_map(move |r| if r < density { Tile::Wall } else { Tile::Grass }),
            w * h,
        );
        (tiles, 0..w, 0..h, 0..w, 0..h).prop_map(move |(tiles, sx, sy, gx, gy)| {
            let mut map =
                TileMap::from_rows(tiles.chunks(w).map(|r| r.to_vec()).collect()).expect("map");
            map.set((sx, sy), Tile::Grass);
            map.set((gx, gy), Tile::Grass);
            (map, (sx, sy), (gx, gy))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(400), ..ProptestConfig::default() })]

    /// On maps of one tile cost, eight directions (where JPS and JPS+ prune): both find the
    /// cheapest path Dijkstra finds, by a legal walk, and their open lists replayed from their
    /// steps name every next expansion.
    #[test]
    fn jps_and_jps_plus_agree_with_dijkstra_on_maps_of_one_cost((map, start, goal) in one_cost_map()) {
        let eight = Connectivity::Eight;
        prop_assert!(GridAlgorithm::jps_applies(&map, eight));
        let oracle = grid_search(&map, start, goal, GridAlgorithm::Dijkstra, eight, &mut NoObserver);
        for algorithm in [GridAlgorithm::Jps, GridAlgorithm::JpsPlus] {
            let mut trace = Vec::new();
            let found = grid_search(&map, start, goal, algorithm, eight, &mut trace);
            prop_assert_eq!(found.outcome, oracle.outcome, "{}", algorithm.name());
            if oracle.outcome == SearchOutcome::Found {
                prop_assert!((found.cost - oracle.cost).abs() <= 1e-9 * oracle.cost.max(1.0),
                    "{}: {} vs Dijkstra {}", algorithm.name(), found.cost, oracle.cost);
                assert_valid(&map, start, goal, &found, eight);
            }
            let disagreement = common::frontier_disagreement(&trace, algorithm.expansion_order());
            prop_assert!(disagreement.is_none(), "{}: {:?}", algorithm.name(), disagreement);
        }
    }
}

/// Checks Theta*'s answer on a map of one tile cost (1) against the visibility graph's shortest
/// path between the same cell centres (the exact any-angle length, a lower bound) and A*'s
/// eight-direction cost (an upper bound): reachable exactly when A* reaches, each segment on
/// walkable ground, its length adding up. Returns the gap over the exact length.
fn check_theta(map: &TileMap, start: Cell, goal: Cell, optimal_8: Option<f64>) -> Option<f64> {
    use navlab_core::grid::free_segment::{HalfPoint, polyline_length, segment_is_free};
    use navlab_core::grid::visibility::VisibilityGraph;
    let theta = grid_search(
        map,
        start,
        goal,
        GridAlgorithm::ThetaStar,
        Connectivity::Eight,
        &mut NoObserver,
    );
    let Some(optimal_8) = optimal_8 else {
        assert_eq!(theta.outcome, SearchOutcome::Unreachable);
        return None;
    };
    assert_eq!(theta.outcome, SearchOutcome::Found);
    assert_eq!(theta.path.first(), Some(&start));
    assert_eq!(theta.path.last(), Some(&goal));
    let points: Vec<HalfPoint> = theta.path.iter().map(|&c| HalfPoint::centre(c)).collect();
    for pair in points.windows(2) {
        assert!(
            segment_is_free(map, pair[0], pair[1]),
            "{:?} to {:?} leaves the ground",
            pair[0],
            pair[1]
        );
    }
    let length = polyline_length(&points);
    assert!(
        (length - theta.cost).abs() <= 1e-9 * length.max(1.0),
        "{length} vs {}",
        theta.cost
    );
    // The published lengths have six significant digits.
    assert!(
        theta.cost <= optimal_8 * (1.0 + 1e-5),
        "Theta* {} longer than A* {optimal_8}",
        theta.cost
    );
    let graph = VisibilityGraph::build(map).expect("few corners");
    let exact = graph.find_path(
        map,
        points[0],
        *points.last().expect("a goal"),
        &mut NoObserver,
    );
    assert_eq!(exact.outcome, SearchOutcome::Found);
    assert!(
        theta.cost >= exact.length - 1e-9 * exact.length.max(1.0),
        "Theta* {} shorter than the visibility graph's {}",
        theta.cost,
        exact.length
    );
    Some(theta.cost / exact.length.max(f64::MIN_POSITIVE) - 1.0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(400), ..ProptestConfig::default() })]

    /// Theta* on random maps of one cost: between the visibility graph's exact any-angle length
    /// and A*'s eight-direction cost; its open list replayed names each next expansion.
    #[test]
    fn theta_star_lies_between_the_visibility_graph_and_astar((map, start, goal) in one_cost_map()) {
        let astar = grid_search(&map, start, goal, ASTAR, Connectivity::Eight, &mut NoObserver);
        check_theta(&map, start, goal, (astar.outcome == SearchOutcome::Found).then_some(astar.cost));
        let mut trace = Vec::new();
        grid_search(&map, start, goal, GridAlgorithm::ThetaStar, Connectivity::Eight, &mut trace);
        let disagreement = common::frontier_disagreement(&trace, GridAlgorithm::ThetaStar.expansion_order());
        prop_assert!(disagreement.is_none(), "{:?}", disagreement);
    }
}

/// Theta* on every scenario of arena.map: never longer than the published optimal
/// eight-direction length, never shorter than the visibility graph's; and how far above the
/// exact length it is.
#[test]
fn theta_star_on_every_arena_scenario() {
    let Some((map, scenarios)) = movingai("arena.map") else {
        return;
    };
    let mut worst: f64 = 0.0;
    for s in &scenarios {
        let gap = check_theta(&map, s.start, s.goal, Some(s.optimal)).expect("found");
        worst = worst.max(gap);
    }
    // Theta*'s paths bend only at cell centres: a few per cent above the exact length at most.
    assert!(worst < 0.1, "worst gap {worst}");
}

/// Theta*'s sight checks count towards the work limit: on a large open map with the goal
/// walled in, each check walks as far as the search has come, so the search stops after fewer
/// expansions than the limit (a search charged for expansions alone would make the limit's
/// worth, each with checks across the map).
#[test]
fn theta_stars_sight_checks_count_towards_the_work_limit() {
    let side = 512;
    let mut rows = vec![vec![Tile::Grass; side]; side];
    for (dx, dy) in [
        (-1i64, -1i64),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ] {
        let (x, y) = ((400 + dx) as usize, (400 + dy) as usize);
        rows[y][x] = Tile::Wall;
    }
    let map = TileMap::from_rows(rows).expect("a map");
    let limit = 20_000;
    let found = grid_search(
        &map,
        (0, 0),
        (400, 400),
        GridAlgorithm::ThetaStar,
        Connectivity::Eight,
        &mut navlab_core::search::WorkLimit::new(&mut NoObserver, limit),
    );
    assert_eq!(found.outcome, SearchOutcome::BudgetExceeded);
    assert!(
        found.expanded > 0 && (found.expanded as u64) < limit / 2,
        "{} expansions for a limit of {limit}",
        found.expanded
    );
}

/// D* Lite's first search, from the goal back to the agent, returns the published optimal
/// length on every scenario of arena and random512-10-0 (MovingAI), and its path is a legal walk.
#[test]
fn dstar_lite_matches_every_published_scenario_of_arena_and_random512() {
    for name in ["arena.map", "random512-10-0.map"] {
        let Some((map, scenarios)) = movingai(name) else {
            return;
        };
        for s in &scenarios {
            let found = grid_search(
                &map,
                s.start,
                s.goal,
                GridAlgorithm::DStarLite,
                Connectivity::Eight,
                &mut NoObserver,
            );
            assert!(
                matches_six_digits(found.cost, s.optimal),
                "{name} line {}: {} against {}",
                s.line,
                found.cost,
                s.optimal
            );
            assert_valid(&map, s.start, s.goal, &found, Connectivity::Eight);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(200), ..ProptestConfig::default() })]

    /// Fringe Search's now and later lists replayed from its events (what the window shows)
    /// name, before every visit, the node visited and whether it is expanded or put off to the
    /// next pass; each pass's threshold is the smallest `f` put off in the one before.
    #[test]
    fn the_fringe_lists_name_the_next_visit((map, start, goal, eight) in random_map(), heuristic in prop::sample::select(vec![Heuristic::Octile, Heuristic::Manhattan, Heuristic::Zero])) {
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        let mut trace = Vec::new();
        grid_search(&map, start, goal, GridAlgorithm::Fringe { heuristic }, connectivity, &mut trace);
        let (disagreement, _) = common::fringe_lists_disagreement(&trace);
        prop_assert!(disagreement.is_none(), "{:?}", disagreement);
    }
}

/// D* Lite after every edit of a random sequence (walls put up and taken down, tiles of other
/// costs painted), the agent stepping along its path between edits: the path it keeps costs
/// what a fresh Dijkstra from where the agent stands finds, and is a legal walk.
fn check_dstar_lite(
    map: &TileMap,
    start: Cell,
    goal: Cell,
    edits: &[(Cell, Tile, u8)],
    eight: bool,
) {
    use navlab_core::grid::dstar_lite::DStarLite;
    let connectivity = if eight {
        Connectivity::Eight
    } else {
        Connectivity::Four
    };
    let mut search = DStarLite::new(map, start, goal, connectivity).expect("on the map");
    // Every step of every working-out: the open list replayed from them names each cell taken.
    let mut trace = Vec::new();
    search.compute_with(&mut trace);
    let mut here = map.clone();
    for (k, &(cell, tile, steps)) in std::iter::once(&((0, 0), Tile::Grass, 0))
        .chain(edits)
        .enumerate()
    {
        if k > 0 {
            // The agent walks on a few steps first.
            if let Some((path, _)) = search.path()
                && let Some(&next) = path.get((steps as usize).min(path.len() - 1))
            {
                search.move_to(next);
            }
            if cell == search.goal() || cell == search.start() {
                continue;
            }
            search.set_tile_with(cell, tile, &mut trace);
            here.set(cell, tile);
            search.compute_with(&mut trace);
        }
        let at = search.start();
        let oracle = grid_search(
            &here,
            at,
            goal,
            GridAlgorithm::Dijkstra,
            connectivity,
            &mut NoObserver,
        );
        match search.path() {
            None => assert_eq!(
                oracle.outcome,
                SearchOutcome::Unreachable,
                "edit {k}: D* Lite found no path"
            ),
            Some((path, cost)) => {
                assert_eq!(
                    oracle.outcome,
                    SearchOutcome::Found,
                    "edit {k}: D* Lite found a path where there is none"
                );
                assert!(
                    (cost - oracle.cost).abs() <= 1e-9 * oracle.cost.max(1.0),
                    "edit {k}: D* Lite {cost} vs Dijkstra {}",
                    oracle.cost
                );
                let walk = GridPath {
                    outcome: SearchOutcome::Found,
                    path,
                    cost,
                    expanded: 0,
                    peak_memory: 0,
                };
                assert_valid(&here, at, goal, &walk, connectivity);
            }
        }
    }
    let disagreement =
        common::frontier_disagreement(&trace, GridAlgorithm::DStarLite.expansion_order());
    assert_eq!(disagreement, None, "D* Lite's open list");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(300), ..ProptestConfig::default() })]

    /// D* Lite repairs its path after every edit of a random sequence as a fresh Dijkstra from
    /// where the agent stands would find it.
    #[test]
    fn dstar_lite_keeps_the_cheapest_path_through_random_edits(
        (map, start, goal, eight) in random_map(),
        edits in prop::collection::vec(
            (0usize..14, 0usize..14, prop::sample::select(vec![Tile::Wall, Tile::Grass, Tile::Sand, Tile::Water, Tile::Hole]), 0u8..3),
            1..10,
        ),
    ) {
        let (w, h) = (map.width(), map.height());
        let edits: Vec<(Cell, Tile, u8)> = edits.into_iter().map(|(x, y, t, s)| ((x % w, y % h), t, s)).collect();
        check_dstar_lite(&map, start, goal, &edits, eight);
    }
}

/// On random512-10-0, a wall put on the path ahead of an agent a third of the way along: D*
/// Lite's repair takes far fewer cells than a fresh A* from the agent expands (the median over
/// the edits at most a tenth).
#[test]
fn dstar_lite_repairs_take_a_tenth_of_a_fresh_astar_on_random512() {
    use navlab_core::grid::dstar_lite::DStarLite;
    let Some((map, scenarios)) = movingai("random512-10-0.map") else {
        return;
    };
    let mut ratios = Vec::new();
    for s in scenarios
        .iter()
        .filter(|s| s.optimal > 300.0)
        .step_by(97)
        .take(4)
    {
        let mut search =
            DStarLite::new(&map, s.start, s.goal, Connectivity::Eight).expect("on the map");
        search.compute();
        let (path, _) = search.path().expect("a path");
        search.move_to(path[path.len() / 3]);
        for k in 0..6 {
            let (path, _) = search.path().expect("a path");
            let cell = path[(3 + 11 * k).min(path.len() - 2)];
            let before = search.map().get(cell).expect("on the map");
            search.set_tile(cell, Tile::Wall);
            let repair = search.compute();
            let fresh = grid_search(
                search.map(),
                search.start(),
                s.goal,
                ASTAR,
                Connectivity::Eight,
                &mut NoObserver,
            );
            let (_, cost) = search.path().expect("still a path");
            assert!(
                (cost - fresh.cost).abs() <= 1e-9 * cost,
                "{cost} vs A* {}",
                fresh.cost
            );
            ratios.push(repair.expanded as f64 / fresh.expanded.max(1) as f64);
            search.set_tile(cell, before);
            search.compute();
        }
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    eprintln!("D* Lite repair / fresh A* expansions: median {median:.3}, all {ratios:?}");
    assert!(median <= 0.1, "median {median}");
}

/// The same on the real arena map, every scenario.
#[test]
fn the_fringe_lists_name_the_next_visit_on_arena() {
    let Some((map, scenarios)) = movingai("arena.map") else {
        return;
    };
    let mut visits = 0;
    let fringe = GridAlgorithm::Fringe {
        heuristic: Heuristic::Octile,
    };
    for s in &scenarios {
        let trace = scenario_trace(&map, s, fringe);
        let (disagreement, checked) = common::fringe_lists_disagreement(&trace);
        assert_eq!(disagreement, None, "line {}", s.line);
        visits += checked;
    }
    assert!(visits > 5_000, "{visits}");
}

/// On the real arena map (every 8th scenario, long ones included), the frontier's head is the
/// next node expanded for A* and Dijkstra, step by step.
#[test]
fn the_frontier_head_is_the_next_node_expanded_on_arena() {
    let Some((map, scenarios)) = movingai("arena.map") else {
        return;
    };
    let mut expansions = 0;
    for s in scenarios.iter().step_by(8) {
        for algorithm in [
            GridAlgorithm::AStar {
                heuristic: Heuristic::Octile,
                weight: 1.0,
            },
            GridAlgorithm::Dijkstra,
        ] {
            let trace = scenario_trace(&map, s, algorithm);
            let disagreement = common::frontier_disagreement(&trace, algorithm.expansion_order());
            assert_eq!(disagreement, None, "line {}: {}", s.line, algorithm.name());
            expansions += trace
                .iter()
                .filter(|e| matches!(e, SearchEvent::Expanded { .. }))
                .count();
        }
    }
    assert!(expansions > 10_000, "{expansions}");
}

#[test]
fn searches_report_steps_and_the_same_counts() {
    let map = TileMap::from_ascii(
        "........\n\
         .@@@@@@.\n\
         .......@\n\
         @@@@@@.@\n\
         ........",
    )
    .expect("map");
    for algorithm in GridAlgorithm::ALL {
        let mut trace = Vec::new();
        let r = grid_search(
            &map,
            (0, 0),
            (0, 4),
            algorithm,
            Connectivity::Eight,
            &mut trace,
        );
        assert_eq!(r.outcome, SearchOutcome::Found, "{}", algorithm.name());
        let expanded = trace
            .iter()
            .filter(|e| matches!(e, navlab_core::search::SearchEvent::Expanded { .. }))
            .count();
        assert_eq!(expanded, r.expanded, "{}", algorithm.name());
        assert!(r.peak_memory > 0);
    }
}

/// Fringe Search transcribed from the paper's pseudo-code (Björnsson, Enzenberger, Holte and
/// Schaeffer 2005) with one plain list: a node above the threshold stays where it is, a child
/// reached more cheaply is removed from the list and inserted right after the node being
/// expanded, the expanded node leaves the list, and a pass over the whole list raises the
/// threshold to the smallest `f` it skipped. Slow (linear removals) and obviously faithful: the
/// oracle for the trace of our two-list implementation, and for its peak memory (the list's
/// largest length after an expansion).
fn paper_fringe(
    map: &TileMap,
    start: usize,
    goal: usize,
    connectivity: Connectivity,
    h: impl Fn(usize) -> f64,
) -> (Vec<SearchEvent>, usize) {
    let mut peak = 0;
    let mut events = Vec::new();
    let mut g = vec![f64::INFINITY; map.cell_count()];
    g[start] = 0.0;
    let mut list = vec![start];
    events.push(SearchEvent::Opened {
        node: start,
        parent: None,
        g: 0.0,
        h: h(start),
    });
    let mut threshold = h(start);
    let mut iteration = 1;
    events.push(SearchEvent::IterationStarted {
        iteration,
        threshold,
        from_start: false,
    });
    let mut found = false;
    let mut children = Vec::new();
    while !found && !list.is_empty() {
        // The documented tolerance on the threshold (float noise must not start a pass).
        let limit = threshold + 1e-9 * threshold.abs().max(1.0);
        let mut smallest_above = f64::INFINITY;
        let mut i = 0;
        while i < list.len() {
            let node = list[i];
            let f = g[node] + h(node);
            if f > limit {
                smallest_above = smallest_above.min(f);
                events.push(SearchEvent::Deferred { node, f });
                i += 1;
                continue;
            }
            events.push(SearchEvent::Expanded {
                node,
                g: g[node],
                h: h(node),
            });
            if node == goal {
                found = true;
                break;
            }
            children.clear();
            map.successors(node, connectivity, &mut children);
            for &(child, step) in children.iter().rev() {
                let new_g = g[node] + step;
                if new_g >= g[child] {
                    continue;
                }
                if let Some(j) = list.iter().position(|&n| n == child) {
                    list.remove(j);
                    if j < i {
                        i -= 1;
                    }
                }
                list.insert(i + 1, child);
                events.push(if g[child].is_infinite() {
                    SearchEvent::Opened {
                        node: child,
                        parent: Some(node),
                        g: new_g,
                        h: h(child),
                    }
                } else {
                    SearchEvent::Improved {
                        node: child,
                        parent: node,
                        g: new_g,
                        h: h(child),
                    }
                });
                g[child] = new_g;
            }
            list.remove(i);
            peak = peak.max(list.len());
        }
        if !found && !list.is_empty() {
            threshold = smallest_above;
            iteration += 1;
            events.push(SearchEvent::IterationStarted {
                iteration,
                threshold,
                from_start: false,
            });
        }
    }
    events.push(SearchEvent::Finished {
        outcome: if found {
            SearchOutcome::Found
        } else {
            SearchOutcome::Unreachable
        },
        cost: if found { g[goal] } else { f64::INFINITY },
    });
    (events, peak)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(200), ..ProptestConfig::default() })]

    /// Every step of our Fringe Search — each expansion, deferral, improvement and threshold,
    /// in order — is the paper's, on random maps with costs, walls, holes and either
    /// connectivity; and its peak memory is the paper's list at its longest (superseded
    /// entries it still carries are not counted).
    #[test]
    fn fringe_takes_exactly_the_papers_steps((map, start, goal, eight) in random_map()) {
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        let (s, t) = (map.index(start), map.index(goal));
        let heuristic = if eight { Heuristic::Octile } else { Heuristic::Manhattan };
        let h = |i: usize| heuristic.distance(map.cell(i), goal);
        let mut ours = Vec::new();
        let result = fringe(
            map.cell_count(),
            s,
            |i, out: &mut Vec<(usize, f64)>| map.successors(i, connectivity, out),
            h,
            |i| i == t,
            &mut ours,
        );
        let (paper, paper_peak) = paper_fringe(&map, s, t, connectivity, h);
        prop_assert_eq!(ours, paper);
        prop_assert_eq!(result.peak_memory, paper_peak, "peak memory: the list's size");
    }
}

/// The case the property above found: the goal is walled in; the last pass defers the bottom
/// middle tile (reached through the sand), then reaches it more cheaply from the bottom left
/// and expands it in the same pass. With only the superseded entry left the search is over: it
/// must not start an empty pass.
#[test]
fn fringe_stops_when_only_superseded_entries_are_left() {
    let map = TileMap::from_ascii(".@.\n.S@\n...").expect("map");
    let (s, t) = (map.index((0, 0)), map.index((2, 0)));
    let h = |i: usize| Heuristic::Manhattan.distance(map.cell(i), (2, 0));
    let successors =
        |i: usize, out: &mut Vec<(usize, f64)>| map.successors(i, Connectivity::Four, out);
    let mut ours = Vec::new();
    let result = fringe(map.cell_count(), s, successors, h, |i| i == t, &mut ours);
    assert_eq!(result.outcome, SearchOutcome::Unreachable);
    let passes = |events: &[SearchEvent]| {
        events
            .iter()
            .filter(|e| matches!(e, SearchEvent::IterationStarted { .. }))
            .count()
    };
    let (paper, _) = paper_fringe(&map, s, t, Connectivity::Four, h);
    assert_eq!(passes(&ours), passes(&paper));
    assert_eq!(ours, paper);
}

/// The root of `i` in a union-find forest, halving the path on the way.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(200), ..ProptestConfig::default() })]

    /// A fill's region is exactly the cells a union-find of side-adjacent equal tiles puts
    /// with the clicked one.
    #[test]
    fn a_fill_region_is_the_connected_component_of_equal_tiles(
        map in common::tile_maps(1..14),
        pick in any::<usize>(),
    ) {
        let n = map.cell_count();
        let mut parent: Vec<usize> = (0..n).collect();
        for i in 0..n {
            let (x, y) = map.cell(i);
            for side in [(x + 1, y), (x, y + 1)] {
                if map.get(side).is_some() && map.get(side) == map.get((x, y)) {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, map.index(side)));
                    parent[a] = b;
                }
            }
        }
        let cell = map.cell(pick % n);
        let mut region = map.region_of(cell);
        region.sort_unstable();
        let own = root(&mut parent, map.index(cell));
        let mut expected: Vec<Cell> = (0..n)
            .filter(|&i| root(&mut parent, i) == own)
            .map(|i| map.cell(i))
            .collect();
        expected.sort_unstable();
        prop_assert_eq!(region, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(200), ..ProptestConfig::default() })]

    /// IDA*'s path replayed from its events (`search::IdaPath`, what the window shows) is a
    /// depth-first stack on random maps: every pass starts at the start; each node expanded is
    /// a move from the path's last node (a successor, one step's cost further) and not already
    /// on the path; each backtrack takes off the path's last node; the goal's path is the
    /// answer; and the smallest f the pass's back-ups cut off is the next pass's threshold.
    /// Every child cut off is a move from the path's last node, off the path, with f over the
    /// threshold; each back-up's smallest cut-off is the smallest f of its own children cut
    /// off, and the pass's cut-offs' smallest f is the next threshold.
    #[test]
    fn idastar_path_is_a_depth_first_stack((map, start, goal, eight) in random_map()) {
        use navlab_core::search::{IdaPath, idastar};
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        let (s, t) = (map.index(start), map.index(goal));
        let heuristic = if eight { Heuristic::Octile } else { Heuristic::Manhattan };
        let scale = map.costs.cheapest();
        let h = |i: usize| scale * heuristic.distance(map.cell(i), goal);
        let successors = |i: usize, out: &mut Vec<(usize, f64)>| map.successors(i, connectivity, out);
        let mut trace = Vec::new();
        let result = idastar(map.cell_count(), s, successors, h, |i| i == t, 20_000, &mut trace);
        // `node` reached at cost `g` is one move from the path's last node, and not on it.
        let a_move_off_the_path = |path: &IdaPath, node: usize, g: f64| {
            let Some(last) = path.nodes().last() else {
                return false;
            };
            let mut out = Vec::new();
            successors(last.node, &mut out);
            out.iter().any(|&(m, step)| m == node && last.g + step == g)
                && path.nodes().iter().all(|p| p.node != node)
        };
        let mut path = IdaPath::new();
        let mut threshold = f64::NAN;
        // The smallest f cut off below each node of the path, and in the whole pass.
        let mut below: Vec<f64> = Vec::new();
        let mut pass_smallest = f64::INFINITY;
        for event in &trace {
            match *event {
                SearchEvent::CutOff { node, g, h: estimate } => {
                    prop_assert!(!path.nodes().is_empty(), "a cut-off with no path");
                    prop_assert!(a_move_off_the_path(&path, node, g), "{node} g {g}");
                    prop_assert_eq!(estimate, h(node));
                    prop_assert!(g + estimate > threshold, "{} is within {threshold}", g + estimate);
                    if let Some(smallest) = below.last_mut() {
                        *smallest = smallest.min(g + estimate);
                    }
                    pass_smallest = pass_smallest.min(g + estimate);
                }
                SearchEvent::Expanded { node, g, .. } => {
                    if path.nodes().is_empty() {
                        prop_assert_eq!((node, g), (s, 0.0));
                    } else {
                        prop_assert!(a_move_off_the_path(&path, node, g), "{node} g {g}");
                    }
                }
                SearchEvent::Backtracked { node, cut_off } => {
                    prop_assert_eq!(path.nodes().last().map(|p| p.node), Some(node));
                    let smallest = below.pop().filter(|f| f.is_finite());
                    prop_assert_eq!(cut_off, smallest, "the back-up of {}", node);
                }
                // The back-ups' cut-offs give the next threshold: IDA*'s smallest f over it.
                SearchEvent::IterationStarted { iteration, threshold: next, .. } => {
                    if iteration > 1 {
                        prop_assert_eq!(path.nodes().len(), 0, "the last pass backed up to the start");
                        prop_assert_eq!(path.next_threshold(), Some(next));
                        prop_assert_eq!(pass_smallest, next);
                    }
                    threshold = next;
                    pass_smallest = f64::INFINITY;
                    below.clear();
                }
                _ => {}
            }
            if let SearchEvent::Expanded { .. } = event {
                below.push(f64::INFINITY);
            }
            path.apply(event);
        }
        if result.outcome == SearchOutcome::Found {
            let ends: Vec<usize> = path.nodes().iter().map(|p| p.node).collect();
            prop_assert_eq!(ends, result.path);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(120), ..ProptestConfig::default() })]

    /// The state a view shows at step k (`search::SearchReplay`) is the same however the
    /// playback got there: seeking back and forth in any order equals replaying from the start
    /// to k, for every algorithm and its list (the open list, Fringe's lists, IDA*'s path).
    /// For A*, Dijkstra and BFS, which never reopen a node, it also agrees with the events
    /// themselves: a cell is closed once expanded, open once opened and not yet expanded.
    #[test]
    fn a_replay_seeked_in_any_order_equals_one_replayed_forward(
        (map, start, goal, eight) in random_map(),
        seeks in prop::collection::vec(0.0f64..=1.0, 1..8),
    ) {
        use navlab_core::search::{ListKind, NodeStatus, NodesShown, SearchReplay};
        let connectivity = if eight { Connectivity::Eight } else { Connectivity::Four };
        let heuristic = Heuristic::Octile;
        for (algorithm, list) in [
            (GridAlgorithm::AStar { heuristic, weight: 1.0 }, ListKind::Open),
            (GridAlgorithm::Dijkstra, ListKind::Open),
            (GridAlgorithm::Bfs, ListKind::Open),
            (GridAlgorithm::Fringe { heuristic }, ListKind::Fringe),
            (GridAlgorithm::IdaStar { heuristic, budget: 3_000 }, ListKind::IdaPath),
        ] {
            let mut events = Vec::new();
            grid_search(&map, start, goal, algorithm, connectivity, &mut events);
            let cells = map.cell_count();
            let mut replay = SearchReplay::new(cells, list, NodesShown::Searched);
            for &at in &seeks {
                let k = (at * events.len() as f64).round() as usize;
                replay.seek(&events, k);
                let mut fresh = SearchReplay::new(cells, list, NodesShown::Searched);
                for event in &events[..k] {
                    fresh.apply(event);
                }
                prop_assert!(replay.same_state(&fresh), "{} at step {k}", algorithm.name());
                if list == ListKind::Open {
                    let mut expected = vec![NodeStatus::Unseen; cells];
                    for event in &events[..k] {
                        match *event {
                            SearchEvent::Opened { node, .. } | SearchEvent::Improved { node, .. } => {
                                expected[node] = NodeStatus::Open;
                            }
                            SearchEvent::Expanded { node, .. } => expected[node] = NodeStatus::Closed,
                            _ => {}
                        }
                    }
                    prop_assert_eq!(replay.statuses(), &expected[..], "{}", algorithm.name());
                }
            }
        }
    }
}
