//! The pseudocode listings against the searches they describe: every recorded step of every
//! algorithm lands on one line, and the lines with their values alone, replayed by a small
//! interpreter of each listing (a FIFO queue for BFS, the lowest priority for A\* and Dijkstra,
//! the threshold rules of IDA\* and Fringe Search, the funnel's corners), reproduce what the
//! search did: the order of its expansions, its thresholds, the path's corners.

mod common;
use navlab_core::geom::Vec2;
use navlab_core::grid::TileMap;
use navlab_core::grid::{AlgorithmKind, Connectivity, GridAlgorithm, SearchTuning, grid_search};
use navlab_core::navmesh::timeline::{Step, Timeline};
use navlab_core::navmesh::{NavMesh, Plane, QueryOptions};
use navlab_core::search::SearchEvent;
use navlab_core::search::pseudocode::{Listing, LitLine, funnel_step};
use proptest::prelude::*;
use std::collections::{HashMap, VecDeque};

/// Printed values are rounded to hundredths.
const ROUNDING: f64 = 0.011;

fn value<'a>(lit: &'a LitLine, name: &str) -> &'a str {
    lit.values
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("line {} has no {name}: {lit:?}", lit.line))
}

fn node(lit: &LitLine, name: &str) -> usize {
    value(lit, name).parse().expect("a node number")
}

fn number(lit: &LitLine, name: &str) -> f64 {
    match value(lit, name) {
        "∞" => f64::INFINITY,
        text => text.parse().expect("a number"),
    }
}

/// Each step's line, every step on one.
fn lines(listing: Listing, events: &[SearchEvent]) -> Vec<LitLine> {
    events
        .iter()
        .map(|e| {
            listing
                .search_step(e, |n| n.to_string())
                .unwrap_or_else(|| panic!("{}: no line for {e:?}", listing.name()))
        })
        .collect()
}

fn expansions(events: &[SearchEvent]) -> Vec<usize> {
    events
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Expanded { node, .. } => Some(*node),
            _ => None,
        })
        .collect()
}

/// A\* and Dijkstra from their lines: a node is taken only when no open node has a lower
/// priority. Returns the nodes taken, in order.
fn replay_best_first(listing: Listing, lit: &[LitLine]) -> Vec<usize> {
    // For each listing: the line that opens the start (its node's name, its priority's), the
    // line that takes a node, and the line that opens a neighbour (its name, its priority's).
    let ((start_line, start, start_priority), (take, taken_node), (relax, relaxed, priority)) =
        match listing {
            Listing::AStar | Listing::NavmeshAStar => ((3, "s", "f"), (5, "v"), (11, "v'", "f")),
            Listing::Dijkstra => ((1, "s", ""), (3, "v"), (9, "v'", "k")),
            Listing::Jps | Listing::JpsPlus => ((1, "s", "f"), (3, "v"), (10, "j", "f")),
            Listing::BestFirst => ((1, "s", "h(s)"), (3, "v"), (6, "v'", "h(v')")),
            Listing::ThetaStar => ((1, "s", "f"), (3, "v"), (9, "v'", "f")),
            _ => unreachable!(),
        };
    let mut open: HashMap<usize, f64> = HashMap::new();
    let mut taken = Vec::new();
    for l in lit {
        match l.line {
            n if n == start_line => {
                let f = if start_priority.is_empty() {
                    0.0
                } else {
                    number(l, start_priority)
                };
                open.insert(node(l, start), f);
            }
            n if n == relax => {
                open.insert(node(l, relaxed), number(l, priority));
            }
            n if n == take => {
                let v = node(l, taken_node);
                let f = open.remove(&v).expect("the node taken is open");
                let lowest = open.values().copied().fold(f64::INFINITY, f64::min);
                assert!(f <= lowest + ROUNDING, "took {v} at {f} with {lowest} open");
                taken.push(v);
            }
            _ => {}
        }
    }
    taken
}

/// Bidirectional A\* from its lines: the half that takes a node is the one the last turn
/// (line 4) named, the one with fewer open nodes; its node taken has the lowest priority of
/// that half's open list; the answer is the last μ (line 9) when line 3 ends it.
fn replay_bidirectional(lit: &[LitLine]) -> Vec<usize> {
    let mut open: [HashMap<usize, f64>; 2] = [HashMap::new(), HashMap::new()];
    let mut side = 0;
    let mut taken = Vec::new();
    let mut mu = f64::INFINITY;
    for l in lit {
        match l.line {
            1 => {
                open[side].insert(node(l, "end"), number(l, "f"));
            }
            4 => {
                side = usize::from(value(l, "half") == "backward");
                assert_eq!(number(l, "open") as usize, open[side].len());
                assert_eq!(number(l, "the other's open") as usize, open[1 - side].len());
                assert!(
                    open[side].len() <= open[1 - side].len() || open[side].is_empty(),
                    "turned to the half with more open nodes"
                );
            }
            8 => {
                open[side].insert(node(l, "v'"), number(l, "f"));
            }
            5 => {
                let v = node(l, "v");
                let f = open[side].remove(&v).expect("the node taken is open");
                let lowest = open[side].values().copied().fold(f64::INFINITY, f64::min);
                assert!(f <= lowest + ROUNDING, "took {v} at {f} with {lowest} open");
                assert!(
                    f < mu + ROUNDING,
                    "took {v} at f = {f} though μ = {mu}: the search should stop"
                );
                taken.push(v);
            }
            9 => {
                let cost = number(l, "μ");
                assert!(cost < mu + ROUNDING, "μ only falls");
                mu = cost;
            }
            3 => {
                assert!((number(l, "μ") - mu).abs() <= ROUNDING);
                // Stopped: some half's lowest f is at least μ.
                let lowest = |s: usize| open[s].values().copied().fold(f64::INFINITY, f64::min);
                assert!(lowest(0).max(lowest(1)) >= mu - ROUNDING);
            }
            _ => {}
        }
    }
    taken
}

/// D\* Lite from its lines: lines 1, 5 and 10 put a cell in the open list under its key, line
/// 11 takes a consistent one out, and a cell taken (line 6: it got cheaper; line 7: dearer) is
/// in the list with no key's first part below its own. Returns the cells taken on line 6.
fn replay_dstar_lite(lit: &[LitLine]) -> Vec<usize> {
    let mut open: HashMap<usize, f64> = HashMap::new();
    let mut taken = Vec::new();
    for l in lit {
        match l.line {
            1 | 5 | 10 => {
                open.insert(node(l, "s"), number(l, "k1"));
            }
            11 => {
                let s = node(l, "s");
                assert!(open.remove(&s).is_some(), "{s} left a list it was not in");
            }
            6 | 7 => {
                let u = node(l, "u");
                let k1 = open.remove(&u).expect("the cell taken is in the open list");
                let lowest = open.values().copied().fold(f64::INFINITY, f64::min);
                assert!(
                    k1 <= lowest + ROUNDING,
                    "took {u} at {k1} with {lowest} open"
                );
                if l.line == 6 {
                    assert!((number(l, "k1") - k1).abs() <= ROUNDING);
                    taken.push(u);
                }
            }
            _ => {}
        }
    }
    taken
}

/// BFS from its lines: the node taken is always the front of the queue.
fn replay_bfs(lit: &[LitLine]) -> Vec<usize> {
    let mut queue = VecDeque::new();
    let mut taken = Vec::new();
    for l in lit {
        match l.line {
            1 => queue.push_back(node(l, "s")),
            8 => queue.push_back(node(l, "v'")),
            3 => {
                let v = node(l, "v");
                assert_eq!(queue.pop_front(), Some(v), "the front of the queue");
                taken.push(v);
            }
            _ => {}
        }
    }
    taken
}

/// IDA\* from its lines: a pass expands only within its threshold, cuts off only above it,
/// backs up the node at the end of the path, and the next threshold is the smallest f cut off.
fn replay_idastar(lit: &[LitLine]) -> Vec<usize> {
    let (mut threshold, mut smallest_cut) = (f64::NAN, f64::INFINITY);
    let mut path: Vec<usize> = Vec::new();
    let mut taken = Vec::new();
    for l in lit {
        match l.line {
            3 | 12 => {
                let next = number(l, "threshold");
                if l.line == 12 {
                    assert!(
                        (next - smallest_cut).abs() <= ROUNDING,
                        "{next} ≠ {smallest_cut}"
                    );
                }
                (threshold, smallest_cut) = (next, f64::INFINITY);
                path.clear();
            }
            4 => {
                assert!(number(l, "f") <= threshold + ROUNDING);
                path.push(node(l, "v"));
                taken.push(node(l, "v"));
            }
            8 => {
                let f = number(l, "f");
                assert!(f >= threshold - ROUNDING);
                smallest_cut = smallest_cut.min(f);
            }
            10 => assert_eq!(path.pop(), Some(node(l, "v")), "backs up the path's end"),
            _ => {}
        }
    }
    taken
}

/// Fringe Search from its lines: nodes above the threshold are deferred, those within it
/// expanded, and the next threshold is the smallest f deferred in the pass.
fn replay_fringe(lit: &[LitLine]) -> Vec<usize> {
    let (mut threshold, mut smallest_deferred) = (f64::NAN, f64::INFINITY);
    let mut taken = Vec::new();
    for l in lit {
        match l.line {
            2 | 13 => {
                let next = number(l, "threshold");
                if l.line == 13 {
                    assert!((next - smallest_deferred).abs() <= ROUNDING);
                }
                (threshold, smallest_deferred) = (next, f64::INFINITY);
            }
            5 => {
                let f = number(l, "f(v)");
                assert!(f >= threshold - ROUNDING);
                smallest_deferred = smallest_deferred.min(f);
            }
            6 => {
                assert!(number(l, "f") <= threshold + ROUNDING);
                taken.push(node(l, "v"));
            }
            _ => {}
        }
    }
    taken
}

fn check_grid(map: &TileMap, start: (usize, usize), goal: (usize, usize)) {
    for kind in AlgorithmKind::ALL {
        let algorithm: GridAlgorithm = kind.with(SearchTuning::default());
        let listing = kind.listing();
        let mut events = Vec::new();
        grid_search(
            map,
            start,
            goal,
            algorithm,
            Connectivity::Eight,
            &mut events,
        );
        let lit = lines(listing, &events);
        let taken = match listing {
            Listing::Bfs => replay_bfs(&lit),
            Listing::AStar
            | Listing::Dijkstra
            | Listing::Jps
            | Listing::JpsPlus
            | Listing::ThetaStar
            | Listing::BestFirst => replay_best_first(listing, &lit),
            Listing::IdaStar => replay_idastar(&lit),
            Listing::Fringe => replay_fringe(&lit),
            Listing::Bidirectional => replay_bidirectional(&lit),
            Listing::DStarLite => replay_dstar_lite(&lit),
            _ => unreachable!(),
        };
        assert_eq!(taken, expansions(&events), "{}", listing.name());
        let on_take = lit
            .iter()
            .filter(|l| Some(l.line) == listing.expansion_line())
            .count();
        assert_eq!(on_take, taken.len(), "{}", listing.name());
    }
}

#[test]
fn every_grid_step_has_its_line_and_the_lines_replay_the_search() {
    let map = common::walled_map(&[
        "........", ".####...", "....#.#.", ".##.#.#.", "....#...", ".####.#.", "........",
    ]);
    check_grid(&map, (0, 0), (7, 6));
    // No path: the last line says so.
    let mut walled = map.clone();
    for y in 0..7 {
        walled.set((6, y), navlab_core::grid::Tile::Wall);
        walled.set((7, y), navlab_core::grid::Tile::Wall);
    }
    walled.set((7, 6), navlab_core::grid::Tile::Grass);
    check_grid(&walled, (0, 0), (7, 6));
}

/// A search stopped by its budget (the work limit; IDA*'s node budget) ends on its listing's
/// last line, the one that names the budget.
#[test]
fn a_search_stopped_by_its_budget_ends_on_the_budget_line() {
    let map = common::walled_map(&["........", "........", "........", "........"]);
    for kind in AlgorithmKind::ALL {
        let algorithm = kind.with(SearchTuning {
            budget: 5,
            ..SearchTuning::default()
        });
        let listing = kind.listing();
        let mut events = Vec::new();
        let stopped = grid_search(
            &map,
            (0, 0),
            (7, 3),
            algorithm,
            Connectivity::Eight,
            // One expansion: JPS on this open map reaches the goal in a handful.
            &mut navlab_core::search::WorkLimit::new(&mut events, 1),
        );
        assert_eq!(
            stopped.outcome,
            navlab_core::search::SearchOutcome::BudgetExceeded,
            "{}",
            listing.name()
        );
        let lit = lines(listing, &events);
        let last = lit.last().expect("steps").line;
        assert_eq!(last, listing.lines().len(), "{}", listing.name());
        assert!(
            listing.lines()[last - 1].contains("budget"),
            "{}",
            listing.name()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn on_random_maps_the_lines_replay_every_search(map in common::tile_maps(3..9)) {
        let cells: Vec<(usize, usize)> = (0..map.height())
            .flat_map(|y| (0..map.width()).map(move |x| (x, y)))
            .filter(|&c| map.is_passable(c))
            .collect();
        if let (Some(&start), Some(&goal)) = (cells.first(), cells.last()) {
            check_grid(&map, start, goal);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// D\* Lite's repairs, lit line by line, replay too: the agent takes a step, tiles change
    /// (walls, holes, costlier or cheaper ground), the path is worked out again; the open list
    /// is kept across the repairs, and every cell taken has the lowest key.
    #[test]
    fn d_star_lites_repairs_replay_from_their_lines(
        map in common::tile_maps(3..9),
        edits in prop::collection::vec((0usize..64, 0usize..5), 1..6),
    ) {
        use navlab_core::grid::Tile;
        use navlab_core::grid::dstar_lite::DStarLite;
        let cells: Vec<(usize, usize)> = (0..map.height())
            .flat_map(|y| (0..map.width()).map(move |x| (x, y)))
            .collect();
        let passable: Vec<_> = cells.iter().copied().filter(|&c| map.is_passable(c)).collect();
        let (Some(&start), Some(&goal)) = (passable.first(), passable.last()) else {
            return Ok(());
        };
        let mut search =
            DStarLite::new(&map, start, goal, Connectivity::Eight).expect("on the map");
        let mut events = Vec::new();
        search.compute_with(&mut events);
        if let Some((path, _)) = search.path() && let Some(&next) = path.get(1) {
            search.move_to(next);
        }
        let tiles = [Tile::Grass, Tile::Sand, Tile::Water, Tile::Wall, Tile::Hole];
        for (at, tile) in edits {
            search.set_tile_with(cells[at % cells.len()], tiles[tile], &mut events);
        }
        search.compute_with(&mut events);
        let lit = lines(Listing::DStarLite, &events);
        prop_assert_eq!(replay_dstar_lite(&lit), expansions(&events));
        let raised = events.iter().filter(|e| matches!(e, SearchEvent::Raised { .. })).count();
        prop_assert_eq!(lit.iter().filter(|l| l.line == 7).count(), raised);
    }
}

/// A\* over a mesh's triangles, and the funnel: the corners on lines 5 and 9 are the path's.
#[test]
fn the_navmesh_search_and_the_funnel_replay_from_their_lines() {
    for scene in [
        navlab_core::assets::ROOMS,
        navlab_core::assets::MAZE,
        navlab_core::assets::HOLE,
    ] {
        let mesh = navlab_core::navmesh::obj::parse(scene.obj, scene.name, Plane::Xz)
            .expect("built-in mesh");
        let (start, goal) = (
            Vec2::new(scene.start.0, scene.start.1),
            Vec2::new(scene.goal.0, scene.goal.1),
        );
        let timeline = Timeline::record(&mesh, start, goal, QueryOptions::default());
        check_mesh(&mesh, &timeline);
    }
}

fn check_mesh(mesh: &NavMesh, timeline: &Timeline) {
    let search = timeline.search_events();
    let lit = lines(Listing::NavmeshAStar, &search);
    assert_eq!(
        replay_best_first(Listing::NavmeshAStar, &lit),
        expansions(&search)
    );
    assert_eq!(lit.last().map(|l| l.line), Some(7), "the corridor found");
    let funnel: Vec<LitLine> = timeline.funnel_events().iter().map(funnel_step).collect();
    assert!(funnel.iter().all(|l| (1..=11).contains(&l.line)));
    let corners: Vec<Vec2> = funnel
        .iter()
        .filter(|l| l.line == 5 || l.line == 9)
        .map(|l| {
            let text = value(l, "corner");
            let (x, z) = text
                .trim_matches(['(', ')'])
                .split_once(", ")
                .expect("(x, z)");
            Vec2::new(x.parse().expect("x"), z.parse().expect("z"))
        })
        .collect();
    // The path's corners are those of the lines, in order, less those in line with the path
    // (line 11): each left out lies on the path.
    let path = timeline.path.as_ref().expect("a path");
    let inner = &path.waypoints[1..path.waypoints.len() - 1];
    let mut next = 0;
    for corner in &corners {
        match inner.get(next) {
            Some(p) if p.distance(*corner) < 0.01 => next += 1,
            _ => {
                let on_path = path.waypoints.windows(2).any(|w| {
                    navlab_core::geom::closest_point_on_segment(w[0], w[1], *corner)
                        .distance(*corner)
                        < 0.01
                });
                assert!(on_path, "corner {corner} off the path {:?}", path.waypoints);
            }
        }
    }
    assert_eq!(
        next,
        inner.len(),
        "{} triangles: every corner of the path on its line",
        mesh.triangles().len()
    );
    let done = funnel.last().expect("the funnel ran");
    assert_eq!(done.line, 11);
    assert_eq!(value(done, "waypoints"), path.waypoints.len().to_string());
}

/// Polyanya from its lines: a node is taken only when no open node has a lower f, and the
/// search ends on line 5 with the shortest path's length.
#[test]
fn polyanyas_lines_replay_its_search() {
    use navlab_core::navmesh::anyangle::PolyanyaEvent;
    use navlab_core::navmesh::polyanya_lines::polyanya_step;
    for scene in [
        navlab_core::assets::ROOMS,
        navlab_core::assets::HOLE,
        navlab_core::assets::MAZE,
    ] {
        let mesh =
            navlab_core::navmesh::obj::parse(scene.obj, scene.name, Plane::Xz).expect("mesh");
        let (start, goal) = (
            Vec2::new(scene.start.0, scene.start.1),
            Vec2::new(scene.goal.0, scene.goal.1),
        );
        let timeline = Timeline::record(&mesh, start, goal, QueryOptions::default())
            .with_optimal(&mesh, start, goal);
        let events: Vec<&PolyanyaEvent> = timeline
            .steps()
            .iter()
            .filter_map(|s| match s {
                Step::Polyanya(e) => Some(e),
                _ => None,
            })
            .collect();
        let mut started = false;
        let mut open: HashMap<usize, f64> = HashMap::new();
        let mut last = 0;
        for event in &events {
            started |= matches!(
                event,
                PolyanyaEvent::Popped { .. } | PolyanyaEvent::Followed { .. }
            );
            let lit = polyanya_step(event, started);
            assert!((1..=15).contains(&lit.line), "{lit:?}");
            match lit.line {
                1 | 8 | 10 => {
                    open.insert(node(&lit, "node"), number(&lit, "f"));
                }
                3 => {
                    let n = node(&lit, "n");
                    let f = open.remove(&n).expect("the node taken was pushed");
                    let lowest = open.values().copied().fold(f64::INFINITY, f64::min);
                    assert!(
                        f <= lowest + ROUNDING,
                        "{}: took {n} at {f}, {lowest} open",
                        scene.name
                    );
                }
                4 => {
                    open.remove(&node(&lit, "n"));
                }
                _ => {}
            }
            last = lit.line;
            if lit.line == 5 {
                let optimal = timeline.optimal.as_ref().expect("searched");
                assert!((number(&lit, "length") - optimal.length).abs() <= ROUNDING);
            }
        }
        assert_eq!(last, 5, "{}: ends with the path found", scene.name);
    }
}

#[test]
fn every_listing_is_named_numbered_and_found_by_its_name() {
    for listing in Listing::ALL {
        assert_eq!(Listing::from_name(listing.name()), Some(listing));
        let text = listing.numbered();
        let numbered: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(numbered.len(), listing.lines().len());
        for (k, line) in numbered.iter().enumerate() {
            assert!(
                line.trim_start().starts_with(&format!("{}  ", k + 1)),
                "{line}"
            );
        }
        if let Some(line) = listing.expansion_line() {
            assert!(line <= listing.lines().len());
        }
    }
    assert_eq!(Listing::from_name("quicksort"), None);
}
