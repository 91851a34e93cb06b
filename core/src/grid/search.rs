//! Search on a tile map with any of the algorithms: BFS, Dijkstra, A* (with a choice of
//! heuristic and a weight), IDA* (with a node budget), Fringe Search and Jump Point Search, all
//! through the same generic, instrumented functions the navmesh uses.

use super::map::{Cell, Connectivity, TileMap};
use crate::search::{
    AStarScratch, FringeScratch, Observer, SearchEvent, SearchOutcome, astar_with_scratch, bfs,
    dijkstra, fringe_with_scratch, idastar,
};
use serde::{Deserialize, Serialize};

/// A distance estimate between cells, scaled by the cheapest tile cost so it stays admissible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Heuristic {
    /// `max + (√2 − 1)·min` of the axis distances: exact on an open 8-connected grid.
    #[default]
    Octile,
    /// `dx + dy`: exact on an open 4-connected grid; overestimates with diagonals.
    Manhattan,
    /// Straight-line distance.
    Euclidean,
    /// `max(dx, dy)`.
    Chebyshev,
    /// Always 0 (A* becomes Dijkstra).
    Zero,
}

impl Heuristic {
    /// Every heuristic, for menus.
    pub const ALL: [Heuristic; 5] = [
        Heuristic::Octile,
        Heuristic::Manhattan,
        Heuristic::Euclidean,
        Heuristic::Chebyshev,
        Heuristic::Zero,
    ];

    /// A name for menus.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Octile => "Octile",
            Heuristic::Manhattan => "Manhattan",
            Heuristic::Euclidean => "Euclidean",
            Heuristic::Chebyshev => "Chebyshev",
            Heuristic::Zero => "Zero",
        }
    }

    /// The estimate between two cells, in cells.
    #[inline]
    pub fn distance(self, (ax, ay): Cell, (bx, by): Cell) -> f64 {
        let dx = ax.abs_diff(bx) as f64;
        let dy = ay.abs_diff(by) as f64;
        match self {
            Heuristic::Octile => dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy),
            Heuristic::Manhattan => dx + dy,
            Heuristic::Euclidean => dx.hypot(dy),
            Heuristic::Chebyshev => dx.max(dy),
            Heuristic::Zero => 0.0,
        }
    }
}

/// Which algorithm, with its settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GridAlgorithm {
    /// Breadth-first: fewest steps, costs ignored.
    Bfs,
    /// Cheapest path, no heuristic.
    Dijkstra,
    /// A* with a heuristic and a weight (1 = optimal).
    AStar {
        /// The estimate.
        heuristic: Heuristic,
        /// Multiplies the estimate.
        weight: f64,
    },
    /// IDA*, giving up after `budget` expansions.
    IdaStar {
        /// The estimate.
        heuristic: Heuristic,
        /// Most node expansions over all passes.
        budget: usize,
    },
    /// Fringe Search.
    Fringe {
        /// The estimate.
        heuristic: Heuristic,
    },
    /// Greedy best-first search: the open cell with the lowest estimate first; finds a path
    /// whenever there is one, not the cheapest.
    BestFirst {
        /// The estimate.
        heuristic: Heuristic,
    },
    /// Jump Point Search ([`super::jps`]): A* over the jump points, with the octile estimate.
    /// Its pruning holds on a map whose open tiles all cost the same, with eight directions;
    /// elsewhere ([`GridAlgorithm::jps_applies`] false) it searches as A* with the octile
    /// estimate.
    Jps,
    /// JPS+ ([`super::jps_plus`]): Jump Point Search reading its jumps from tables built for the
    /// map before the search. Where JPS searches as A*, so does JPS+; on a map of more than
    /// [`JPS_PLUS_MAX_CELLS`](super::jps_plus::JPS_PLUS_MAX_CELLS) cells it searches as JPS.
    JpsPlus,
    /// Bidirectional A* ([`crate::search::bidirectional`]): A* from the start and from the goal
    /// in turns, stopping once either open list's lowest `f` reaches the cheapest meeting.
    Bidirectional {
        /// The estimate (to the goal forward, from the start backward).
        heuristic: Heuristic,
    },
    /// Theta* ([`super::theta`]): any-angle paths, a node's parent the one before when in
    /// sight; lengths between cell centres, every passable tile counting as ground.
    ThetaStar,
    /// D* Lite ([`super::dstar_lite`]): a backward search from the goal whose values are kept
    /// and repaired as the map changes; as a single search, its first working-out.
    DStarLite,
}

impl GridAlgorithm {
    /// The default settings of each algorithm, in menu order.
    pub const ALL: [GridAlgorithm; 11] = [
        GridAlgorithm::Bfs,
        GridAlgorithm::Dijkstra,
        GridAlgorithm::AStar {
            heuristic: Heuristic::Octile,
            weight: 1.0,
        },
        GridAlgorithm::IdaStar {
            heuristic: Heuristic::Octile,
            budget: DEFAULT_IDA_BUDGET,
        },
        GridAlgorithm::Fringe {
            heuristic: Heuristic::Octile,
        },
        GridAlgorithm::Jps,
        GridAlgorithm::JpsPlus,
        GridAlgorithm::Bidirectional {
            heuristic: Heuristic::Octile,
        },
        GridAlgorithm::ThetaStar,
        GridAlgorithm::BestFirst {
            heuristic: Heuristic::Octile,
        },
        GridAlgorithm::DStarLite,
    ];

    /// True when Jump Point Search's pruning holds on `map` with `connectivity`: eight
    /// directions, and every open tile on the map costs the same.
    pub fn jps_applies(map: &TileMap, connectivity: Connectivity) -> bool {
        connectivity == Connectivity::Eight && super::jps::uniform_cost(map).is_some()
    }

    /// The name of what it runs as on `map` with `connectivity`: its own, or, for JPS and JPS+
    /// where their pruning does not hold, "JPS (as A*)" and "JPS+ (as A*)", and for JPS+ on a
    /// map too large for its tables, "JPS+ (as JPS)".
    pub fn name_as_run(self, map: &TileMap, connectivity: Connectivity) -> &'static str {
        match self {
            GridAlgorithm::Jps if !Self::jps_applies(map, connectivity) => "JPS (as A*)",
            GridAlgorithm::JpsPlus if !Self::jps_applies(map, connectivity) => "JPS+ (as A*)",
            GridAlgorithm::JpsPlus if map.cell_count() > super::jps_plus::JPS_PLUS_MAX_CELLS => {
                "JPS+ (as JPS)"
            }
            _ => self.name(),
        }
    }

    /// How it picks the next cell to expand (for explanations).
    pub fn expansion_order(self) -> crate::search::ExpansionOrder {
        use crate::search::ExpansionOrder;
        match self {
            GridAlgorithm::Bfs => ExpansionOrder::Oldest,
            GridAlgorithm::BestFirst { .. } => ExpansionOrder::LowestH,
            GridAlgorithm::Dijkstra => ExpansionOrder::LowestG,
            GridAlgorithm::AStar { .. } | GridAlgorithm::Jps | GridAlgorithm::JpsPlus => {
                ExpansionOrder::LowestF
            }
            GridAlgorithm::Bidirectional { .. } | GridAlgorithm::ThetaStar => {
                ExpansionOrder::LowestFNewest
            }
            GridAlgorithm::IdaStar { .. } | GridAlgorithm::Fringe { .. } => {
                ExpansionOrder::WithinThreshold
            }
            GridAlgorithm::DStarLite => ExpansionOrder::LowestKey,
        }
    }

    /// The sentence for a step this algorithm recorded on a map `width` cells wide: cells named
    /// "cell x,y", expansions with this algorithm's reason.
    pub fn explain(self, event: &crate::search::SearchEvent, width: usize) -> String {
        let sentence = event.explain_in(self.expansion_order(), |i| {
            format!("cell {},{}", i % width.max(1), i / width.max(1))
        });
        match (self, event) {
            // Each half of a bidirectional search opens its own end: the goal is the backward
            // half's.
            (
                GridAlgorithm::Bidirectional { .. },
                crate::search::SearchEvent::Opened { parent: None, .. },
            ) => sentence.replacen("(the start)", "(this half's end)", 1),
            // D* Lite works out costs to the goal for the agent's cell.
            (GridAlgorithm::DStarLite, crate::search::SearchEvent::Finished { outcome, cost }) => {
                match outcome {
                    crate::search::SearchOutcome::Found => format!(
                        "the agent's cell is consistent and no key is below its own: its path to the goal costs {cost:.2}"
                    ),
                    crate::search::SearchOutcome::Unreachable => {
                        "the agent's g is ∞: no path leads from it to the goal".to_string()
                    }
                    crate::search::SearchOutcome::BudgetExceeded => sentence,
                }
            }
            // JPS+ reads its jumps from its tables rather than scanning.
            (GridAlgorithm::JpsPlus, crate::search::SearchEvent::Jumped { .. }) => sentence
                .replacen("scan ", "jump ", 1)
                .replace("a straight scan from it", "a straight jump from it"),
            _ => sentence,
        }
    }

    /// Which algorithm this is.
    pub fn kind(self) -> AlgorithmKind {
        match self {
            GridAlgorithm::Bfs => AlgorithmKind::Bfs,
            GridAlgorithm::Dijkstra => AlgorithmKind::Dijkstra,
            GridAlgorithm::AStar { .. } => AlgorithmKind::AStar,
            GridAlgorithm::IdaStar { .. } => AlgorithmKind::IdaStar,
            GridAlgorithm::Fringe { .. } => AlgorithmKind::Fringe,
            GridAlgorithm::Jps => AlgorithmKind::Jps,
            GridAlgorithm::JpsPlus => AlgorithmKind::JpsPlus,
            GridAlgorithm::Bidirectional { .. } => AlgorithmKind::Bidirectional,
            GridAlgorithm::ThetaStar => AlgorithmKind::ThetaStar,
            GridAlgorithm::BestFirst { .. } => AlgorithmKind::BestFirst,
            GridAlgorithm::DStarLite => AlgorithmKind::DStarLite,
        }
    }

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            GridAlgorithm::Bfs => "BFS",
            GridAlgorithm::Dijkstra => "Dijkstra",
            GridAlgorithm::AStar { .. } => "A*",
            GridAlgorithm::IdaStar { .. } => "IDA*",
            GridAlgorithm::Fringe { .. } => "Fringe",
            GridAlgorithm::Jps => "JPS",
            GridAlgorithm::JpsPlus => "JPS+",
            GridAlgorithm::Bidirectional { .. } => "Bidirectional A*",
            GridAlgorithm::ThetaStar => "Theta*",
            GridAlgorithm::BestFirst { .. } => "Best-first",
            GridAlgorithm::DStarLite => "D* Lite",
        }
    }

    /// True when the algorithm returns a cheapest path (with an admissible heuristic).
    pub fn is_optimal(self) -> bool {
        match self {
            // Theta*'s any-angle path is not a cheapest path over the grid's moves (it is
            // usually shorter), nor the shortest at any angle.
            GridAlgorithm::Bfs | GridAlgorithm::BestFirst { .. } | GridAlgorithm::ThetaStar => {
                false
            }
            GridAlgorithm::AStar { weight, .. } => weight <= 1.0,
            _ => true,
        }
    }
}

/// IDA*'s default node budget.
pub const DEFAULT_IDA_BUDGET: usize = 2_000_000;

/// How many visits (cells expanded, or put off for a later pass; Theta\*'s sight checks charge
/// one for every 16 cells they walk) one search makes at most by
/// default before it gives up with [`SearchOutcome::BudgetExceeded`]: 2^23, an eighth of the
/// largest map's cells, about 3 s and 300 MB for A* on the 8,192 × 8,192 map, where a search
/// of every cell takes 20 s and 1.1 GB. A* on a map of up to 2,896 × 2,896 cells never reaches
/// it. The CLI's `--work-limit` sets it (0: none); see [`WorkLimit`](crate::search::WorkLimit).
pub const DEFAULT_WORK_LIMIT: u64 = 1 << 23;

/// Which grid algorithm, without its settings: what the lab's buttons and `--algo` choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AlgorithmKind {
    /// Breadth-first search.
    Bfs,
    /// Dijkstra.
    Dijkstra,
    /// A*.
    AStar,
    /// IDA*.
    IdaStar,
    /// Fringe Search.
    Fringe,
    /// Jump Point Search.
    Jps,
    /// JPS+.
    JpsPlus,
    /// Bidirectional A*.
    Bidirectional,
    /// Theta*.
    ThetaStar,
    /// Greedy best-first search.
    BestFirst,
    /// D* Lite.
    DStarLite,
}

impl AlgorithmKind {
    /// All, in menu order.
    pub const ALL: [AlgorithmKind; 11] = [
        AlgorithmKind::Bfs,
        AlgorithmKind::Dijkstra,
        AlgorithmKind::AStar,
        AlgorithmKind::IdaStar,
        AlgorithmKind::Fringe,
        AlgorithmKind::Jps,
        AlgorithmKind::JpsPlus,
        AlgorithmKind::Bidirectional,
        AlgorithmKind::ThetaStar,
        AlgorithmKind::BestFirst,
        AlgorithmKind::DStarLite,
    ];

    /// Menu name.
    pub fn name(self) -> &'static str {
        match self {
            AlgorithmKind::Bfs => "BFS",
            AlgorithmKind::Dijkstra => "Dijkstra",
            AlgorithmKind::AStar => "A*",
            AlgorithmKind::IdaStar => "IDA*",
            AlgorithmKind::Fringe => "Fringe",
            AlgorithmKind::Jps => "JPS",
            AlgorithmKind::JpsPlus => "JPS+",
            AlgorithmKind::Bidirectional => "Bidirectional A*",
            AlgorithmKind::ThetaStar => "Theta*",
            AlgorithmKind::BestFirst => "Best-first",
            AlgorithmKind::DStarLite => "D* Lite",
        }
    }

    /// This algorithm with `tuning`'s settings (those it takes).
    pub fn with(self, tuning: SearchTuning) -> GridAlgorithm {
        let SearchTuning {
            heuristic,
            weight,
            budget,
        } = tuning;
        match self {
            AlgorithmKind::Bfs => GridAlgorithm::Bfs,
            AlgorithmKind::Dijkstra => GridAlgorithm::Dijkstra,
            AlgorithmKind::AStar => GridAlgorithm::AStar { heuristic, weight },
            AlgorithmKind::IdaStar => GridAlgorithm::IdaStar { heuristic, budget },
            AlgorithmKind::Fringe => GridAlgorithm::Fringe { heuristic },
            AlgorithmKind::Jps => GridAlgorithm::Jps,
            AlgorithmKind::JpsPlus => GridAlgorithm::JpsPlus,
            AlgorithmKind::Bidirectional => GridAlgorithm::Bidirectional { heuristic },
            AlgorithmKind::ThetaStar => GridAlgorithm::ThetaStar,
            AlgorithmKind::BestFirst => GridAlgorithm::BestFirst { heuristic },
            AlgorithmKind::DStarLite => GridAlgorithm::DStarLite,
        }
    }

    /// Its pseudocode.
    pub fn listing(self) -> crate::search::pseudocode::Listing {
        use crate::search::pseudocode::Listing;
        match self {
            AlgorithmKind::Bfs => Listing::Bfs,
            AlgorithmKind::Dijkstra => Listing::Dijkstra,
            AlgorithmKind::AStar => Listing::AStar,
            AlgorithmKind::IdaStar => Listing::IdaStar,
            AlgorithmKind::Fringe => Listing::Fringe,
            AlgorithmKind::Jps => Listing::Jps,
            AlgorithmKind::JpsPlus => Listing::JpsPlus,
            AlgorithmKind::Bidirectional => Listing::Bidirectional,
            AlgorithmKind::ThetaStar => Listing::ThetaStar,
            AlgorithmKind::BestFirst => Listing::BestFirst,
            AlgorithmKind::DStarLite => Listing::DStarLite,
        }
    }

    /// True for the algorithms that search by passes with a threshold (IDA*, Fringe Search).
    pub fn has_passes(self) -> bool {
        matches!(self, AlgorithmKind::IdaStar | AlgorithmKind::Fringe)
    }

    /// True for the algorithms whose estimate can be chosen (A*, IDA*, Fringe Search,
    /// best-first; JPS and JPS+ keep the octile one their pruning assumes).
    pub fn uses_heuristic(self) -> bool {
        !matches!(
            self,
            AlgorithmKind::Bfs
                | AlgorithmKind::Dijkstra
                | AlgorithmKind::Jps
                | AlgorithmKind::JpsPlus
                | AlgorithmKind::ThetaStar
                | AlgorithmKind::DStarLite
        )
    }
}

/// The settings the grid algorithms take: the estimate (A*, IDA*, Fringe Search), A*'s weight
/// and IDA*'s node budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchTuning {
    /// The estimate.
    pub heuristic: Heuristic,
    /// A*'s weight on the estimate (1 = optimal).
    pub weight: f64,
    /// IDA*'s most expansions over all passes.
    pub budget: usize,
}

impl Default for SearchTuning {
    fn default() -> Self {
        Self {
            heuristic: Heuristic::Octile,
            weight: 1.0,
            budget: DEFAULT_IDA_BUDGET,
        }
    }
}

/// The answer of a grid search.
#[derive(Debug, Clone, PartialEq)]
pub struct GridPath {
    /// How it ended.
    pub outcome: SearchOutcome,
    /// Cells from start to goal, each next to the one before (empty unless found); for Theta*,
    /// only the cells where its straight segments turn.
    pub path: Vec<Cell>,
    /// Cost of the path.
    pub cost: f64,
    /// Node expansions (IDA* counts re-expansions).
    pub expanded: usize,
    /// Largest number of nodes held at once (open + closed, now + later, or the IDA* stack).
    pub peak_memory: usize,
}

impl GridPath {
    /// The answer as `navlab grid --json` prints it (and the window's Copy path copies it):
    /// status, length (`null` unless found), the path's cells as `[x, y]`, cells expanded and
    /// peak memory.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "status": self.outcome.name(),
            "length": self.cost.is_finite().then_some(self.cost),
            "path": self.path.iter().map(|&(x, y)| [x, y]).collect::<Vec<_>>(),
            "expanded": self.expanded,
            "peak_memory": self.peak_memory,
        })
    }
}

impl TileMap {
    /// The cheapest path from `start` to `goal` moving in eight directions without cutting
    /// corners (MovingAI's rules): optimal A* with the octile estimate.
    ///
    /// ```
    /// use navlab_core::prelude::*;
    ///
    /// let map = navlab_core::grid::movingai::parse_map(
    ///     b"type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n",
    ///     "example.map",
    /// )?;
    /// let found = map.path((0, 1), (3, 1));
    /// assert_eq!(found.outcome, SearchOutcome::Found);
    /// // Round the wall: no diagonal step cuts its corners.
    /// assert_eq!(found.path.len(), 6);
    /// assert!((found.cost - 5.0).abs() < 1e-9);
    /// # Ok::<(), MapError>(())
    /// ```
    pub fn path(&self, start: Cell, goal: Cell) -> GridPath {
        let algorithm = GridAlgorithm::AStar {
            heuristic: Heuristic::Octile,
            weight: 1.0,
        };
        grid_search(
            self,
            start,
            goal,
            algorithm,
            Connectivity::Eight,
            &mut crate::search::NoObserver,
        )
    }
}

/// Reusable memory for repeated searches on one map (benchmarks, scenario runs).
#[derive(Default)]
pub struct GridScratch {
    astar: AStarScratch,
    fringe: FringeScratch,
}

/// Runs `algorithm` from `start` to `goal`. Node ids in the events are `y * width + x`.
/// A start or goal off the map or on a blocked tile is unreachable.
pub fn grid_search<O: Observer<SearchEvent>>(
    map: &TileMap,
    start: Cell,
    goal: Cell,
    algorithm: GridAlgorithm,
    connectivity: Connectivity,
    observer: &mut O,
) -> GridPath {
    grid_search_with_scratch(
        &mut GridScratch::default(),
        map,
        start,
        goal,
        algorithm,
        connectivity,
        observer,
    )
}

/// [`grid_search`] reusing `scratch`.
pub fn grid_search_with_scratch<O: Observer<SearchEvent>>(
    scratch: &mut GridScratch,
    map: &TileMap,
    start: Cell,
    goal: Cell,
    algorithm: GridAlgorithm,
    connectivity: Connectivity,
    observer: &mut O,
) -> GridPath {
    if !map.is_passable(start) || !map.is_passable(goal) {
        observer.event(SearchEvent::Finished {
            outcome: SearchOutcome::Unreachable,
            cost: f64::INFINITY,
        });
        return GridPath {
            outcome: SearchOutcome::Unreachable,
            path: Vec::new(),
            cost: f64::INFINITY,
            expanded: 0,
            peak_memory: 0,
        };
    }
    let n = map.cell_count();
    let (s, t) = (map.index(start), map.index(goal));
    let successors = |i: usize, out: &mut Vec<(usize, f64)>| map.successors(i, connectivity, out);
    let is_goal = |i: usize| i == t;
    let width = map.width();
    let scale = map.costs.cheapest();
    let estimate = move |h: Heuristic, weight: f64| {
        move |i: usize| weight * scale * h.distance((i % width, i / width), goal)
    };
    let result = match algorithm {
        GridAlgorithm::Bfs => bfs(n, s, successors, is_goal, observer),
        GridAlgorithm::Dijkstra => dijkstra(n, s, successors, is_goal, observer),
        GridAlgorithm::AStar { heuristic, weight } => astar_with_scratch(
            &mut scratch.astar,
            n,
            s,
            successors,
            estimate(heuristic, weight.max(0.0)),
            is_goal,
            observer,
        ),
        GridAlgorithm::IdaStar { heuristic, budget } => idastar(
            n,
            s,
            successors,
            estimate(heuristic, 1.0),
            is_goal,
            budget,
            observer,
        ),
        GridAlgorithm::Fringe { heuristic } => fringe_with_scratch(
            &mut scratch.fringe,
            n,
            s,
            successors,
            estimate(heuristic, 1.0),
            is_goal,
            observer,
        ),
        GridAlgorithm::BestFirst { heuristic } => crate::search::best_first(
            n,
            s,
            successors,
            estimate(heuristic, 1.0),
            is_goal,
            observer,
        ),
        GridAlgorithm::Bidirectional { heuristic } => crate::search::bidirectional_astar(
            n,
            s,
            t,
            successors,
            |i: usize, out: &mut Vec<(usize, f64)>| {
                map.for_each_move_into(i, connectivity, |previous, cost| out.push((previous, cost)))
            },
            estimate(heuristic, 1.0),
            move |i: usize| scale * heuristic.distance((i % width, i / width), start),
            observer,
        ),
        GridAlgorithm::ThetaStar => {
            super::theta::theta_star(map, start, goal, connectivity, observer)
        }
        GridAlgorithm::DStarLite => {
            super::dstar_lite::dstar_lite_search(map, start, goal, connectivity, observer)
        }
        GridAlgorithm::JpsPlus if connectivity == Connectivity::Eight => {
            match super::jps_plus::JpsPlusGrid::new(map) {
                Some(grid) => {
                    let mut found = grid.search(&mut scratch.astar, start, goal, observer);
                    found.path = grid.fill_in(&found.path);
                    found
                }
                None => jps_or_astar(scratch, map, start, goal, connectivity, observer),
            }
        }
        GridAlgorithm::Jps | GridAlgorithm::JpsPlus => {
            jps_or_astar(scratch, map, start, goal, connectivity, observer)
        }
    };
    GridPath {
        outcome: result.outcome,
        path: result.path.iter().map(|&i| map.cell(i)).collect(),
        cost: result.cost,
        expanded: result.expanded,
        peak_memory: result.peak_memory,
    }
}

/// JPS where its pruning holds, else A* with the octile estimate.
fn jps_or_astar<O: Observer<SearchEvent>>(
    scratch: &mut GridScratch,
    map: &TileMap,
    start: Cell,
    goal: Cell,
    connectivity: Connectivity,
    observer: &mut O,
) -> crate::search::SearchResult {
    match super::jps::JpsGrid::new(map) {
        Some(grid) if connectivity == Connectivity::Eight => {
            let mut found = grid.search(&mut scratch.astar, start, goal, observer);
            found.path = grid.fill_in(&found.path);
            found
        }
        _ => {
            let width = map.width();
            let scale = map.costs.cheapest();
            let t = map.index(goal);
            astar_with_scratch(
                &mut scratch.astar,
                map.cell_count(),
                map.index(start),
                |i: usize, out: &mut Vec<(usize, f64)>| map.successors(i, connectivity, out),
                move |i: usize| scale * Heuristic::Octile.distance((i % width, i / width), goal),
                |i: usize| i == t,
                observer,
            )
        }
    }
}
