//! The command-line interface: `navlab path`, `navlab info`. Exit codes: 0 success, 1 a normal
//! negative answer (no path), 2 bad input.

use crate::geom::Vec2;
use crate::navmesh::{CostModel, NavMesh, PathStatus, Plane, QueryOptions, find_path};
use crate::search::NoObserver;
use crate::words::{count, thousands};
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Prints a line to stdout; a closed pipe (`navlab demo | head`) is not an error worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// Prints a line to stderr, ignoring a closed pipe.
macro_rules! complain {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// A lab for navigation meshes and pathfinding.
#[derive(Debug, Parser)]
#[command(name = "navlab", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find a path on a navmesh (OBJ or Polyanya .mesh).
    Path {
        /// The mesh file.
        mesh: PathBuf,
        /// Start point, as X,Z (or X,Y with --plane xy).
        #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
        from: Vec2,
        /// Goal point, as X,Z (or X,Y with --plane xy).
        #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
        to: Vec2,
        /// How A* measures a step between triangles.
        #[arg(long, value_enum, default_value_t = CostArg::Centroid)]
        cost: CostArg,
        /// The plane an OBJ mesh lies in (Polyanya meshes are always XY).
        #[arg(long, value_enum, default_value_t = PlaneArg::Xz)]
        plane: PlaneArg,
        #[command(flatten)]
        walk: WalkArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Open the window (the default when no command is given), optionally on a mesh or map file.
    Open {
        /// A mesh (OBJ or Polyanya .mesh), or a tile map (.map, .json, .tmx, .tmj) to open in
        /// the tile-map view; the built-in scene when omitted.
        file: Option<PathBuf>,
        /// Place the start here: X,Z on a mesh, or a cell x,y (column, row) when a map is
        /// shown (a map file, --map, --compare, --partitions, --pursuit or --build-mesh).
        #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
        from: Option<Vec2>,
        /// Place the goal here (as --from).
        #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
        to: Option<Vec2>,
        /// Save a PNG of the window at --step and exit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// The step for --screenshot: a number, search-end, funnel-middle or end.
        #[arg(long, default_value = "end")]
        step: crate::app::screenshot::StepSpec,
        /// Window size in points, as WxH.
        #[arg(long, value_parser = parse_size)]
        size: Option<[f32; 2]>,
        /// Open the tile-map lab on this map (MovingAI .map, navlab .json, or Tiled .tmx/.tmj).
        #[arg(long)]
        map: Option<PathBuf>,
        /// Run the comparison of all grid algorithms at start (tile-map lab).
        #[arg(long)]
        compare: bool,
        /// Open the pursuit scene (on --map or the built-in map); with --screenshot, --step
        /// counts simulation steps (60 per second).
        #[arg(long)]
        pursuit: bool,
        /// Show the mesh diagnostics with islands coloured.
        #[arg(long)]
        diagnostics: bool,
        /// Build a navmesh from the map (--map or the built-in one) and show it, from the
        /// map's start to its goal.
        #[arg(long)]
        build_mesh: bool,
        /// The agent radius for the built navmesh, in tiles (see `navlab mesh`).
        #[arg(long, value_name = "TILES")]
        agent_radius: Option<f64>,
        #[command(flatten)]
        search: OpenSearchArgs,
        /// Walk the path (navmesh): the agent sets off at once; with --screenshot the picture
        /// shows the whole walk, its trail red where it cut corners off the mesh.
        #[arg(long)]
        walk: bool,
        /// Open the Partitions window (tile-map lab) with this partition drawn over the map.
        #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "quadtree")]
        partitions: Option<PartitionArg>,
        /// The window's colours: the desktop's, dark or light (kept for the next runs;
        /// screenshots are dark unless this is given).
        #[arg(long, value_enum)]
        theme: Option<ThemeArg>,
    },
    /// Walk through A* and the funnel on an embedded mesh, one explained line per step.
    Demo {
        /// Which embedded mesh.
        #[arg(long, value_enum, default_value_t = SceneArg::Rooms)]
        scene: SceneArg,
        /// How A* measures a step between triangles.
        #[arg(long, value_enum, default_value_t = CostArg::Centroid)]
        cost: CostArg,
    },
    /// Find a path on a tile map (MovingAI .map, navlab .json, or Tiled .tmx/.tmj).
    Grid {
        #[command(flatten)]
        cells: MapCellsArgs,
        #[command(flatten)]
        search: GridSearchArgs,
        /// Also list every step of the search, explained (as the window's step list does;
        /// in the JSON as "steps").
        #[arg(long)]
        steps: bool,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Compare the paper's four partitions of a tile map (grid cells, quadtree squares,
    /// visibility-graph corners, navmesh triangles) on one path: nodes, links, A*'s work and
    /// the path's length before and after it is pulled straight.
    Partitions {
        #[command(flatten)]
        cells: MapCellsArgs,
        /// 8 (default: diagonals allowed, no corner cutting) or 4, for the grid.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(4..=8))]
        connectivity: u8,
        /// Print one JSON object (with every path's points) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run every grid algorithm (BFS, Dijkstra, A*, IDA*, Fringe) from one cell to another and
    /// compare them, as the window's Compare all does: path cost, cells expanded, IDA*'s and
    /// Fringe's passes and entries put off, peak memory, and time per run without recording.
    /// Exit 0 when the goal is reachable, 1 when not, 2 for bad input.
    Compare {
        #[command(flatten)]
        cells: MapCellsArgs,
        #[command(flatten)]
        tuning: GridTuningArgs,
        /// Print one JSON object (`{"rows":[...]}`, one per algorithm) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run every scenario of a MovingAI .scen file and compare with the listed optimal lengths.
    Scen {
        /// The scenario file.
        scen: PathBuf,
        /// The map (default: the file named in the scenarios, looked up beside the .scen file).
        #[arg(long)]
        map: Option<PathBuf>,
        #[command(flatten)]
        search: GridSearchArgs,
        /// Print one JSON object with per-scenario details.
        #[arg(long)]
        json: bool,
    },
    /// Run the pursuit scene headless: mobs hunt the kitten by sight and by its smell trail.
    Pursue {
        /// The map file (MovingAI .map, navlab .json, or Tiled .tmx/.tmj).
        map: PathBuf,
        /// Where the kitten starts, as x,y in tiles (3.5,4.5 is the centre of tile 3,4).
        #[arg(long, value_parser = parse_point)]
        kitten: Vec2,
        /// Where a mob starts (repeat for more mobs).
        #[arg(long = "mob", value_parser = parse_point, required = true)]
        mobs: Vec<Vec2>,
        /// Points the kitten walks to in turn (grid A* between them), then it stands still.
        /// Without a route it wanders (seeded).
        #[arg(long, value_parser = parse_point, num_args = 1..)]
        route: Vec<Vec2>,
        /// Seed of the kitten's wandering.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seconds to simulate (60 steps per second).
        #[arg(long, default_value_t = 60.0)]
        seconds: f64,
        /// Seconds a trail point lasts.
        #[arg(long, default_value_t = 20.0)]
        decay: f64,
        /// Which visible trail point a mob follows.
        #[arg(long, value_enum, default_value_t = TrailArg::Freshest)]
        trail: TrailArg,
        /// Turn wall avoidance off: mobs move like the article's and can walk into walls.
        #[arg(long)]
        no_avoid: bool,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Check a navmesh for faults (islands, non-manifold edges, degenerate and needle triangles,
    /// near-duplicate vertices, T-junctions, winding, overlaps, steep parts, a Polyanya file's
    /// neighbour lists). Exit 0 clean, 1 errors found (with --strict, warnings too), 2
    /// unreadable.
    Check {
        /// The mesh file.
        mesh: PathBuf,
        /// The plane an OBJ mesh lies in.
        #[arg(long, value_enum, default_value_t = PlaneArg::Xz)]
        plane: PlaneArg,
        /// Warnings count as findings for the exit code.
        #[arg(long)]
        strict: bool,
        /// Weld near-duplicates and fix T-junctions, write the result to this OBJ file, and
        /// report (and exit) on the repaired mesh.
        #[arg(long, value_name = "OUT.obj")]
        repair: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Build a navmesh from a tile map — a constrained Delaunay triangulation of the passable
    /// tiles' outline, one unit per tile, in the XZ plane — write it as OBJ (or Polyanya
    /// `.mesh`) and describe it.
    /// Exit 0, or 2 for an unreadable map, a map with nothing passable, a radius outside 0–16
    /// or one that leaves no room, or a failed write.
    Mesh {
        /// The tile map (MovingAI `.map`, navlab `.json`, or Tiled `.tmx`/`.tmj`).
        map: PathBuf,
        /// Where to write the mesh (written atomically): a Polyanya mesh (format 2, x and
        /// z as its x and y, triangles merged into convex polygons) for a `.mesh` name,
        /// Wavefront OBJ for any other.
        #[arg(short, long, value_name = "OUT.obj|OUT.mesh")]
        out: PathBuf,
        /// For a Polyanya mesh: one polygon per triangle, as navlab shows it, instead of
        /// convex polygons.
        #[arg(long)]
        triangles: bool,
        /// Keep the mesh this far from walls, holes and the map's edge (along each axis), so
        /// an agent's centre can go anywhere on it; 0 covers the passable tiles exactly.
        /// Rounded to eighths of a tile.
        #[arg(long, value_name = "TILES", default_value_t = 0.0)]
        agent_radius: f64,
        /// Print one JSON object (the mesh's summary) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Convert a navmesh between formats: write MESH as OUT (Polyanya for a `.mesh` name,
    /// with its triangles merged into convex polygons; OBJ otherwise) and describe it. Exit 0,
    /// or 2 for an unreadable mesh or a failed write.
    Convert {
        /// The mesh file (OBJ or Polyanya `.mesh`).
        mesh: PathBuf,
        /// Where to write it (atomically).
        #[arg(short, long, value_name = "OUT.obj|OUT.mesh")]
        out: PathBuf,
        /// The plane an OBJ mesh lies in.
        #[arg(long, value_enum, default_value_t = PlaneArg::Xz)]
        plane: PlaneArg,
        /// For a Polyanya mesh: one polygon per triangle instead of convex polygons.
        #[arg(long)]
        triangles: bool,
        /// Print one JSON object (the mesh's summary) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Describe a navmesh: counts, islands, bounds, what loading repaired.
    Info {
        /// The mesh file.
        mesh: PathBuf,
        /// The plane an OBJ mesh lies in.
        #[arg(long, value_enum, default_value_t = PlaneArg::Xz)]
        plane: PlaneArg,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print a completion script for a shell, e.g. `navlab completions bash >
    /// ~/.local/share/bash-completion/completions/navlab` (zsh: a file `_navlab` on your
    /// fpath; fish: `~/.config/fish/completions/navlab.fish`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// The window's colour theme, as named on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ThemeArg {
    /// The desktop's light or dark preference.
    System,
    /// Light text on dark panels.
    Dark,
    /// Dark text on light panels.
    Light,
}

impl From<ThemeArg> for egui::ThemePreference {
    fn from(arg: ThemeArg) -> Self {
        match arg {
            ThemeArg::System => egui::ThemePreference::System,
            ThemeArg::Dark => egui::ThemePreference::Dark,
            ThemeArg::Light => egui::ThemePreference::Light,
        }
    }
}

/// A partition of a tile map, as named on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PartitionArg {
    /// Grid cells.
    Grid,
    /// Quadtree squares.
    Quadtree,
    /// The visibility graph's corners.
    Visibility,
    /// Navmesh triangles.
    Navmesh,
}

impl From<PartitionArg> for crate::partitions::Partition {
    fn from(arg: PartitionArg) -> Self {
        use crate::partitions::Partition;
        match arg {
            PartitionArg::Grid => Partition::Grid,
            PartitionArg::Quadtree => Partition::QuadTree,
            PartitionArg::Visibility => Partition::Visibility,
            PartitionArg::Navmesh => Partition::NavMesh,
        }
    }
}

/// Cost model choice on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CostArg {
    /// Centroid to centroid (the seed article).
    Centroid,
    /// Through edge midpoints (as Detour).
    Midpoint,
}

/// Walking the path found, as the window's agent does.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct WalkArgs {
    /// Also walk the path: an agent goes corner to corner, turning at a bounded rate; says how
    /// long it takes and how long it spends off the mesh (cutting corners through walls).
    #[arg(long)]
    pub walk: bool,
    /// The next corner is taken once the agent is this close (with --walk).
    #[arg(long, default_value_t = 0.5, value_parser = parse_non_negative)]
    pub corner_radius: f64,
    /// Walking speed, units per second (with --walk).
    #[arg(long, default_value_t = 2.0, value_parser = parse_positive)]
    pub walk_speed: f64,
    /// Fastest turn, radians per second (with --walk).
    #[arg(long, default_value_t = 4.0, value_parser = parse_positive)]
    pub turn_rate: f64,
}

impl WalkArgs {
    fn options(&self) -> crate::navmesh::walk::WalkOptions {
        crate::navmesh::walk::WalkOptions {
            speed: self.walk_speed,
            turn_rate: self.turn_rate,
            corner_radius: self.corner_radius,
            ..Default::default()
        }
    }
}

/// Parses a finite number above 0.
fn parse_positive(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{text}` is not a number above 0")),
    }
}

/// Parses a finite number of 0 or more.
fn parse_non_negative(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{text}` is not a number of 0 or more")),
    }
}

/// Search options of `open`, for slides and bug reports: each replaces the saved setting only
/// when given.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct OpenSearchArgs {
    /// Tile map: the algorithm animated.
    #[arg(long, value_enum)]
    pub algo: Option<AlgoArg>,
    /// Tile map: the heuristic (A*, IDA*, Fringe).
    #[arg(long, value_enum)]
    pub heuristic: Option<HeuristicArg>,
    /// Tile map: A*'s heuristic weight, 0 to 5 (1 = optimal).
    #[arg(long, value_parser = parse_weight)]
    pub weight: Option<f64>,
    /// Tile map: IDA*'s node budget, 1000 to 10000000.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1_000..=10_000_000))]
    pub budget: Option<u64>,
    /// Tile map: 8 directions (diagonals, no corner cutting) or 4.
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=8))]
    pub connectivity: Option<u8>,
    /// Navmesh: how A* measures a step between triangles.
    #[arg(long, value_enum)]
    pub cost: Option<CostArg>,
}

impl OpenSearchArgs {
    /// The options in the app's terms.
    fn launch(&self) -> crate::app::LaunchSearch {
        use crate::app::grid_scene::AlgorithmKind;
        crate::app::LaunchSearch {
            algorithm: self.algo.map(|algo| match algo {
                AlgoArg::Bfs => AlgorithmKind::Bfs,
                AlgoArg::Dijkstra => AlgorithmKind::Dijkstra,
                AlgoArg::Astar => AlgorithmKind::AStar,
                AlgoArg::Idastar => AlgorithmKind::IdaStar,
                AlgoArg::Fringe => AlgorithmKind::Fringe,
            }),
            heuristic: self.heuristic.map(HeuristicArg::heuristic),
            weight: self.weight,
            budget: self.budget.map(|b| b as usize),
            connectivity: self.connectivity.map(connectivity),
            cost: self.cost.map(cost_model),
        }
    }
}

/// Parses a heuristic weight from 0 to 5.
fn parse_weight(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(w) if (0.0..=5.0).contains(&w) => Ok(w),
        _ => Err(format!("`{text}` is not a weight from 0 to 5")),
    }
}

/// 8 or 4 directions (below 8 counts as 4).
fn connectivity(n: u8) -> crate::grid::Connectivity {
    if n >= 8 {
        crate::grid::Connectivity::Eight
    } else {
        crate::grid::Connectivity::Four
    }
}

/// A map and two of its cells: what `grid`, `partitions` and `compare` search between.
#[derive(Debug, Clone, clap::Args)]
pub struct MapCellsArgs {
    /// The map file (MovingAI .map, navlab .json, or Tiled .tmx/.tmj).
    pub map: PathBuf,
    /// Start cell, as x,y (column, row; 0-based from the top-left).
    #[arg(long, value_parser = parse_cell)]
    pub from: (usize, usize),
    /// Goal cell, as x,y.
    #[arg(long, value_parser = parse_cell)]
    pub to: (usize, usize),
}

/// Grid search options shared by `grid` and `scen`.
#[derive(Debug, Clone, clap::Args)]
pub struct GridSearchArgs {
    /// The algorithm.
    #[arg(long, value_enum, default_value_t = AlgoArg::Astar)]
    pub algo: AlgoArg,
    #[command(flatten)]
    pub tuning: GridTuningArgs,
}

/// How the grid algorithms search: shared by `grid`, `scen` and `compare`.
#[derive(Debug, Clone, clap::Args)]
pub struct GridTuningArgs {
    /// The heuristic (A*, IDA*, Fringe).
    #[arg(long, value_enum, default_value_t = HeuristicArg::Octile)]
    pub heuristic: HeuristicArg,
    /// Heuristic weight for A*, 0 to 5 (1 = optimal; above 1 greedier, not optimal).
    #[arg(long, default_value_t = 1.0, value_parser = parse_weight)]
    pub weight: f64,
    /// IDA*'s node budget.
    #[arg(long, default_value_t = crate::grid::search::DEFAULT_IDA_BUDGET)]
    pub budget: usize,
    /// 8 (default: diagonals allowed, no corner cutting) or 4 (below 8 counts as 4).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(4..=8))]
    pub connectivity: u8,
}

impl GridSearchArgs {
    fn algorithm(&self) -> crate::grid::GridAlgorithm {
        self.tuning.algorithm(self.algo)
    }

    fn connectivity(&self) -> crate::grid::Connectivity {
        connectivity(self.tuning.connectivity)
    }
}

impl GridTuningArgs {
    fn algorithm(&self, algo: AlgoArg) -> crate::grid::GridAlgorithm {
        use crate::grid::GridAlgorithm;
        let heuristic = self.heuristic.heuristic();
        match algo {
            AlgoArg::Bfs => GridAlgorithm::Bfs,
            AlgoArg::Dijkstra => GridAlgorithm::Dijkstra,
            AlgoArg::Astar => GridAlgorithm::AStar {
                heuristic,
                weight: self.weight,
            },
            AlgoArg::Idastar => GridAlgorithm::IdaStar {
                heuristic,
                budget: self.budget,
            },
            AlgoArg::Fringe => GridAlgorithm::Fringe { heuristic },
        }
    }

    /// Every algorithm, in the lab's order, searching as these options say.
    fn algorithms(&self) -> Vec<crate::grid::GridAlgorithm> {
        AlgoArg::value_variants()
            .iter()
            .map(|&algo| self.algorithm(algo))
            .collect()
    }
}

/// Grid algorithm choice.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AlgoArg {
    /// Breadth-first search (fewest steps).
    Bfs,
    /// Dijkstra.
    Dijkstra,
    /// A*.
    Astar,
    /// IDA* (node budget).
    Idastar,
    /// Fringe Search.
    Fringe,
}

/// Heuristic choice.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum HeuristicArg {
    /// Octile distance.
    Octile,
    /// Manhattan distance.
    Manhattan,
    /// Straight-line distance.
    Euclidean,
    /// Chebyshev distance.
    Chebyshev,
    /// Zero.
    Zero,
}

impl HeuristicArg {
    fn heuristic(self) -> crate::grid::Heuristic {
        use crate::grid::Heuristic;
        match self {
            HeuristicArg::Octile => Heuristic::Octile,
            HeuristicArg::Manhattan => Heuristic::Manhattan,
            HeuristicArg::Euclidean => Heuristic::Euclidean,
            HeuristicArg::Chebyshev => Heuristic::Chebyshev,
            HeuristicArg::Zero => Heuristic::Zero,
        }
    }
}

/// Parses `x,y` into a cell (non-negative whole numbers).
pub fn parse_cell(text: &str) -> Result<(usize, usize), String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("`{text}` is not a cell: write x,y (column,row)"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{}` in `{text}` is not a whole number ≥ 0", s.trim()))
    };
    Ok((number(x)?, number(y)?))
}

/// Trail point choice on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum TrailArg {
    /// The freshest trail point the mob can see.
    Freshest,
    /// The oldest trail point the mob can see (the article's loop order).
    Oldest,
}

impl From<TrailArg> for crate::pursuit::TrailChoice {
    fn from(t: TrailArg) -> Self {
        match t {
            TrailArg::Freshest => crate::pursuit::TrailChoice::Freshest,
            TrailArg::Oldest => crate::pursuit::TrailChoice::Oldest,
        }
    }
}

/// Embedded scene choice on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SceneArg {
    /// Three rooms joined by doorways.
    Rooms,
    /// A maze-like corridor.
    Maze,
    /// A floor with an obstacle.
    Hole,
    /// Stairs over a floor (non-manifold edge).
    Stairs,
}

/// Plane choice on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PlaneArg {
    /// Y-up 3D meshes: the ground is XZ.
    Xz,
    /// 2D meshes in XY.
    Xy,
}

impl From<PlaneArg> for Plane {
    fn from(p: PlaneArg) -> Plane {
        match p {
            PlaneArg::Xz => Plane::Xz,
            PlaneArg::Xy => Plane::Xy,
        }
    }
}

/// Parses `X,Z` into a point; both must be finite numbers.
pub fn parse_point(text: &str) -> Result<Vec2, String> {
    let mut parts = text.split(',');
    let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("`{text}` is not a point: write two numbers as X,Z"));
    };
    let number = |s: &str| -> Result<f64, String> {
        let v: f64 = s
            .trim()
            .parse()
            .map_err(|_| format!("`{}` in `{text}` is not a number", s.trim()))?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(format!("`{}` in `{text}` is not a finite number", s.trim()))
        }
    };
    Ok(Vec2::new(number(x)?, number(y)?))
}

/// Runs the command line of this process.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let code = if error.use_stderr() { 2 } else { 0 };
            let _ = error.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Some(command) => run(command),
        None => run(Command::Open {
            file: None,
            from: None,
            to: None,
            screenshot: None,
            step: crate::app::screenshot::StepSpec::End,
            size: None,
            map: None,
            compare: false,
            pursuit: false,
            diagnostics: false,
            build_mesh: false,
            agent_radius: None,
            search: OpenSearchArgs::default(),
            walk: false,
            partitions: None,
            theme: None,
        }),
    }
}

/// Runs one subcommand, printing to stdout/stderr; returns the exit code.
pub fn run(command: Command) -> ExitCode {
    match command {
        Command::Path {
            mesh,
            from,
            to,
            cost,
            plane,
            walk,
            json,
        } => path_command(&mesh, from, to, cost, plane.into(), &walk, json),
        Command::Info { mesh, plane, json } => info_command(&mesh, plane.into(), json),
        Command::Completions { shell } => {
            use clap::CommandFactory as _;
            clap_complete::generate(shell, &mut Cli::command(), "navlab", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Command::Convert {
            mesh,
            out,
            plane,
            triangles,
            json,
        } => convert_command(&mesh, &out, plane.into(), triangles, json),
        Command::Mesh {
            map,
            out,
            triangles,
            agent_radius,
            json,
        } => mesh_command(&map, &out, triangles, agent_radius, json),
        Command::Check {
            mesh,
            plane,
            strict,
            repair,
            json,
        } => check_command(&mesh, plane.into(), strict, repair.as_deref(), json),
        Command::Pursue {
            map,
            kitten,
            mobs,
            route,
            seed,
            seconds,
            decay,
            trail,
            no_avoid,
            json,
        } => {
            let config = crate::pursuit::PursuitConfig {
                seed,
                decay,
                trail_choice: trail.into(),
                avoid_walls: !no_avoid,
                ..Default::default()
            };
            pursue_command(&map, kitten, &mobs, &route, config, seconds, json)
        }
        Command::Demo { scene, cost } => demo_command(scene, cost),
        Command::Grid {
            cells,
            search,
            steps,
            json,
        } => grid_command(&cells, &search, steps, json),
        Command::Partitions {
            cells,
            connectivity,
            json,
        } => partitions_command(&cells, connectivity, json),
        Command::Scen {
            scen,
            map,
            search,
            json,
        } => scen_command(&scen, map.as_deref(), &search, json),
        Command::Compare {
            cells,
            tuning,
            json,
        } => compare_command(&cells, &tuning, json),
        Command::Open {
            file,
            from,
            to,
            screenshot,
            step,
            size,
            map,
            compare,
            pursuit,
            diagnostics,
            build_mesh,
            agent_radius,
            search,
            walk,
            partitions,
            theme,
        } => {
            let launch = crate::app::LaunchOptions {
                file,
                start: from,
                goal: to,
                screenshot: screenshot
                    .map(|path| crate::app::screenshot::ScreenshotPlan::new(path, step)),
                size,
                map,
                compare,
                pursuit,
                diagnostics,
                build_mesh,
                agent_radius,
                search: search.launch(),
                walk,
                partitions: partitions.map(Into::into),
                theme: theme.map(Into::into),
            };
            match crate::app::run_native(launch) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error @ crate::app::LaunchError::Open(_)) => {
                    complain!("error: {error}");
                    ExitCode::from(2)
                }
                Err(error) => {
                    complain!("error: {error}");
                    complain!("(the command-line tools work without a display: `navlab --help`)");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// Parses `WxH` into a window size.
pub fn parse_size(text: &str) -> Result<[f32; 2], String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{text}` is not a size: write WxH, e.g. 1280x800"))?;
    let number = |s: &str| -> Result<f32, String> {
        match s.trim().parse::<f32>() {
            Ok(v) if (200.0..=8000.0).contains(&v) => Ok(v),
            _ => Err(format!(
                "`{s}` in `{text}` is not a size between 200 and 8000"
            )),
        }
    };
    Ok([number(w)?, number(h)?])
}

/// Why an agent cannot start or end at `cell` (`label`: "start" or "goal"), if it cannot.
fn endpoint_problem(
    map: &crate::grid::TileMap,
    label: &str,
    cell: (usize, usize),
) -> Option<String> {
    match map.get(cell) {
        None => Some(format!(
            "{label} {},{} is off the map ({} columns × {} rows)",
            cell.0,
            cell.1,
            map.width(),
            map.height()
        )),
        Some(tile) if !tile.is_passable() => Some(format!(
            "{label} {},{} is a {} tile: agents cannot stand there",
            cell.0,
            cell.1,
            tile.name().to_lowercase()
        )),
        _ => None,
    }
}

fn partitions_command(cells: &MapCellsArgs, connectivity: u8, json: bool) -> ExitCode {
    use crate::partitions::compare_partitions;
    let (from, to) = (cells.from, cells.to);
    let map = match cells.load() {
        Ok(map) => map,
        Err(code) => return code,
    };
    let connectivity = if connectivity < 8 {
        crate::grid::Connectivity::Four
    } else {
        crate::grid::Connectivity::Eight
    };
    let comparison = compare_partitions(&map, from, to, connectivity);
    if json {
        say!("{}", comparison.to_json());
    } else {
        say!(
            "{:<17} {:>9} {:>9} {:>9} {:>10} {:>10}  {:>9} {:>9}",
            "partition",
            "nodes",
            "links",
            "expanded",
            "raw",
            "straight",
            "build ms",
            "search ms"
        );
        let length = |v: f64| {
            if v.is_finite() {
                format!("{v:.4}")
            } else {
                "none".to_string()
            }
        };
        for partition in crate::partitions::Partition::ALL {
            let Some(r) = comparison.result(partition) else {
                if let Some((_, why)) = comparison.refused.iter().find(|(p, _)| *p == partition) {
                    say!("{:<17} not built: {why}", partition.name());
                }
                continue;
            };
            say!(
                "{:<17} {:>9} {:>9} {:>9} {:>10} {:>10}  {:>9.2} {:>9.2}",
                r.partition.name(),
                r.nodes,
                r.links,
                r.expanded,
                length(r.raw_length()),
                length(r.straight_length()),
                r.build_time.as_secs_f64() * 1e3,
                r.search_time.as_secs_f64() * 1e3
            );
        }
        say!(
            "raw: through the nodes' centres; straight: pulled straight (grid and quadtree by line \
             of sight, navmesh by the funnel; the visibility graph's path is straight already)"
        );
    }
    let found = comparison
        .results
        .iter()
        .any(|r| r.outcome == crate::search::SearchOutcome::Found);
    if found {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn grid_command(
    cells: &MapCellsArgs,
    search: &GridSearchArgs,
    steps: bool,
    json: bool,
) -> ExitCode {
    use crate::grid::grid_search;
    let (from, to) = (cells.from, cells.to);
    let map = match cells.load() {
        Ok(map) => map,
        Err(code) => return code,
    };
    let algorithm = search.algorithm();
    let mut trace: Vec<crate::search::SearchEvent> = Vec::new();
    let result = if steps {
        grid_search(&map, from, to, algorithm, search.connectivity(), &mut trace)
    } else {
        grid_search(
            &map,
            from,
            to,
            algorithm,
            search.connectivity(),
            &mut NoObserver,
        )
    };
    let width = map.width();
    let explained: Vec<String> = trace.iter().map(|e| algorithm.explain(e, width)).collect();
    let status = result.outcome.name();
    if json {
        let mut report = result.to_json();
        if steps {
            report["steps"] = json!(explained);
        }
        say!("{report}");
    } else {
        say!("algorithm: {}", algorithm.name());
        say!("status: {status}");
        if result.cost.is_finite() {
            say!("length: {:.6}", result.cost);
            say!("path ({} cells):", result.path.len());
            let cells: Vec<String> = result
                .path
                .iter()
                .map(|(x, y)| format!("{x},{y}"))
                .collect();
            say!("  {}", cells.join(" "));
        }
        say!("expanded: {}", result.expanded);
        say!("peak memory: {} nodes", result.peak_memory);
        if steps {
            say!("steps:");
            for (i, line) in explained.iter().enumerate() {
                say!("  {}. {line}", i + 1);
            }
        }
    }
    if result.outcome == crate::search::SearchOutcome::Found {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn compare_command(cells: &MapCellsArgs, tuning: &GridTuningArgs, json: bool) -> ExitCode {
    use crate::grid::compare::{compare_algorithms, outcome_word};
    let (from, to) = (cells.from, cells.to);
    let map = match cells.load() {
        Ok(map) => map,
        Err(code) => return code,
    };
    let rows = compare_algorithms(
        &map,
        from,
        to,
        &tuning.algorithms(),
        connectivity(tuning.connectivity),
    );
    // Every algorithm finds a path when there is one (IDA* may run out of budget first).
    let reachable = rows
        .iter()
        .any(|r| r.outcome == crate::search::SearchOutcome::Found);
    if json {
        let rows: Vec<_> = rows.iter().map(|r| r.to_json()).collect();
        say!(
            "{}",
            json!({"from": [from.0, from.1], "to": [to.0, to.1], "rows": rows})
        );
    } else {
        say!(
            "{:<10} {:>12} {:>12} {:>8} {:>12} {:>12} {:>12}  status",
            "algorithm",
            "cost",
            "expanded",
            "passes",
            "put off",
            "peak memory",
            "time µs"
        );
        let optional = |n: Option<usize>| n.map_or_else(|| "—".to_string(), thousands);
        for r in &rows {
            let cost = if r.cost.is_finite() {
                format!("{:.4}", r.cost)
            } else {
                "—".to_string()
            };
            say!(
                "{:<10} {:>12} {:>12} {:>8} {:>12} {:>12} {:>12}  {}",
                r.name,
                cost,
                thousands(r.expanded),
                optional(r.passes),
                optional(r.deferred),
                thousands(r.peak_memory),
                crate::words::thousands_decimal(r.micros, 1),
                outcome_word(r.outcome)
            );
        }
    }
    if reachable {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn scen_command(
    scen_path: &std::path::Path,
    map_path: Option<&std::path::Path>,
    search: &GridSearchArgs,
    json: bool,
) -> ExitCode {
    use crate::grid::movingai::{self, matches_six_digits};
    use crate::grid::search::{GridScratch, grid_search_with_scratch};
    let scenarios = match movingai::load_scenarios(scen_path) {
        Ok(s) => s,
        Err(error) => {
            complain!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let map_path = match map_path {
        Some(p) => p.to_path_buf(),
        None => {
            let dir = scen_path.parent().unwrap_or(std::path::Path::new("."));
            let named = scenarios.first().and_then(|s| {
                std::path::Path::new(&s.map)
                    .file_name()
                    .map(|n| dir.join(n))
            });
            let beside = scen_path.with_extension("");
            match named.filter(|p| p.exists()) {
                Some(p) => p,
                None if beside.exists() => beside,
                None => {
                    complain!(
                        "error: {}: cannot find the map it names; give it with --map",
                        scen_path.display()
                    );
                    return ExitCode::from(2);
                }
            }
        }
    };
    let map = match load_map(map_path.as_ref()) {
        Ok(map) => map,
        Err(code) => return code,
    };
    let algorithm = search.algorithm();
    let mut scratch = GridScratch::default();
    let mut details = Vec::with_capacity(scenarios.len());
    let (mut matched, mut budget_exceeded) = (0usize, 0usize);
    // Scenarios made for another map cannot match: say so once rather than only mismatching.
    let size = (map.width(), map.height());
    if let Some(other) = scenarios.iter().find(|s| s.map_size != size) {
        complain!(
            "warning: {} line {} is for a {}×{} map ({}); {} is {}×{}",
            scen_path.display(),
            other.line,
            other.map_size.0,
            other.map_size.1,
            other.map,
            map_path.display(),
            size.0,
            size.1
        );
    }
    for s in &scenarios {
        let problem = endpoint_problem(&map, "start", s.start)
            .or_else(|| endpoint_problem(&map, "goal", s.goal));
        let result = match problem {
            None => grid_search_with_scratch(
                &mut scratch,
                &map,
                s.start,
                s.goal,
                algorithm,
                search.connectivity(),
                &mut NoObserver,
            ),
            Some(_) => crate::grid::GridPath {
                outcome: crate::search::SearchOutcome::Unreachable,
                path: Vec::new(),
                cost: f64::INFINITY,
                expanded: 0,
                peak_memory: 0,
            },
        };
        let ok = result.cost.is_finite() && matches_six_digits(result.cost, s.optimal);
        matched += usize::from(ok);
        budget_exceeded +=
            usize::from(result.outcome == crate::search::SearchOutcome::BudgetExceeded);
        let status = match &problem {
            Some(_) => "invalid",
            None => result.outcome.name(),
        };
        let mut detail = json!({
            "line": s.line,
            "bucket": s.bucket,
            "start": [s.start.0, s.start.1],
            "goal": [s.goal.0, s.goal.1],
            "optimal": s.optimal,
            "length": if result.cost.is_finite() { json!(result.cost) } else { json!(null) },
            "status": status,
            "expanded": result.expanded,
            "peak_memory": result.peak_memory,
            "matches": ok,
        });
        if let Some(problem) = problem {
            detail["problem"] = json!(problem);
        }
        details.push(detail);
    }
    let total = scenarios.len();
    if json {
        say!(
            "{}",
            json!({
                "scen": scen_path.display().to_string(),
                "map": map_path.display().to_string(),
                "algorithm": algorithm.name(),
                "scenarios": total,
                "matched": matched,
                "mismatched": total - matched,
                "budget_exceeded": budget_exceeded,
                "details": details,
            })
        );
    } else {
        say!(
            "{}: {matched} of {total} scenarios match the listed optimal length ({}, map {})",
            scen_path.display(),
            algorithm.name(),
            map_path.display()
        );
        if budget_exceeded > 0 {
            say!("{budget_exceeded} gave up at the node budget (--budget)");
        }
        for d in details.iter().filter(|d| d["matches"] == false).take(20) {
            let why = match d["problem"].as_str() {
                Some(problem) => problem.to_string(),
                None => format!("got {} ({})", d["length"], d["status"]),
            };
            say!(
                "  line {}: {} → {}: listed {}, {why}",
                d["line"],
                d["start"],
                d["goal"],
                d["optimal"]
            );
        }
    }
    if matched == total {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn cost_model(cost: CostArg) -> CostModel {
    match cost {
        CostArg::Centroid => CostModel::Centroid,
        CostArg::Midpoint => CostModel::Midpoint,
    }
}

fn demo_command(scene: SceneArg, cost: CostArg) -> ExitCode {
    use crate::assets;
    let scene = match scene {
        SceneArg::Rooms => assets::ROOMS,
        SceneArg::Maze => assets::MAZE,
        SceneArg::Hole => assets::HOLE,
        SceneArg::Stairs => assets::STAIRS,
    };
    let mesh = match crate::navmesh::obj::parse(scene.obj, scene.name, Plane::Xz) {
        Ok(mesh) => mesh,
        Err(error) => {
            complain!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let (from, to) = (
        Vec2::new(scene.start.0, scene.start.1),
        Vec2::new(scene.goal.0, scene.goal.1),
    );
    let options = QueryOptions {
        cost: cost_model(cost),
        ..QueryOptions::default()
    };
    let mut search_trace = Vec::new();
    let mut funnel_trace = Vec::new();
    let Some(path) = find_path(
        &mesh,
        from,
        to,
        options,
        &mut search_trace,
        &mut funnel_trace,
    ) else {
        return ExitCode::from(2);
    };
    say!(
        "navlab demo: {} ({} triangles), start {from}, goal {to}, {:?} cost",
        scene.name,
        mesh.triangles().len(),
        options.cost
    );
    say!("\nA* over triangles ({} steps):", search_trace.len());
    for (i, event) in search_trace.iter().enumerate() {
        say!(
            "{:>4}. {}",
            i + 1,
            crate::navmesh::explain_search_step(event)
        );
    }
    say!(
        "\ncorridor ({} triangles): {:?}",
        path.corridor.len(),
        path.corridor
    );
    say!("\nfunnel ({} steps):", funnel_trace.len());
    for (i, event) in funnel_trace.iter().enumerate() {
        say!("{:>4}. {}", i + 1, event.explain());
    }
    say!("\npath ({:.3} long):", path.length);
    for p in &path.waypoints {
        say!("  {p}");
    }
    let options = crate::navmesh::walk::WalkOptions::default();
    let walk = crate::navmesh::walk::walk(&path.waypoints, options);
    say!(
        "\nwalk (an agent at {} per second, turning at most {} radians per second, heading for the next corner once within {} of the current one):",
        options.speed,
        options.turn_rate,
        options.corner_radius
    );
    for line in walk.event_lines(&path.waypoints) {
        say!("  {line}");
    }
    say!("{}", walk.describe(&mesh));
    say!("\nMore: `navlab --help`; other scenes: `navlab demo --scene maze|hole|stairs`.");
    ExitCode::SUCCESS
}

fn load(mesh: &std::path::Path, plane: Plane) -> Result<NavMesh, ExitCode> {
    NavMesh::load(mesh, plane).map_err(|error| {
        complain!("error: {error}");
        if crate::grid::is_map_path(mesh) {
            complain!(
                "hint: {} looks like a tile map: `navlab grid` searches it, `navlab mesh` builds a \
                 navmesh from it",
                mesh.display()
            );
        }
        ExitCode::from(2)
    })
}

/// Reads a tile map (MovingAI `.map`, navlab `.json`, Tiled); exit 2 with the error otherwise.
/// The map at `path`, with `from` and `to` checked to be passable cells on it (each problem
/// reported; exit 2).
impl MapCellsArgs {
    /// The map, once both cells are found passable on it; else the error said and exit 2.
    fn load(&self) -> Result<crate::grid::TileMap, ExitCode> {
        let map = load_map(&self.map)?;
        for (label, cell) in [("start", self.from), ("goal", self.to)] {
            if let Some(problem) = endpoint_problem(&map, label, cell) {
                complain!("error: {problem}");
                return Err(ExitCode::from(2));
            }
        }
        Ok(map)
    }
}

fn load_map(path: &std::path::Path) -> Result<crate::grid::TileMap, ExitCode> {
    crate::grid::movingai::load_any(path).map_err(|error| {
        complain!("error: {error}");
        let mesh_like = crate::navmesh::polyanya::is_polyanya_path(path)
            || path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("obj"));
        if mesh_like {
            complain!(
                "hint: {} looks like a navmesh: `navlab path` searches it",
                path.display()
            );
        }
        ExitCode::from(2)
    })
}

fn path_command(
    mesh_path: &std::path::Path,
    from: Vec2,
    to: Vec2,
    cost: CostArg,
    plane: Plane,
    walk: &WalkArgs,
    json: bool,
) -> ExitCode {
    let mesh = match load(mesh_path, plane) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let options = QueryOptions {
        cost: cost_model(cost),
        ..QueryOptions::default()
    };
    let Some(path) = find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver) else {
        complain!("error: start and goal must be finite numbers");
        return ExitCode::from(2);
    };
    let status = path.status.name();
    let walked = (walk.walk && path.status != PathStatus::Unreachable)
        .then(|| crate::navmesh::walk::walk(&path.waypoints, walk.options()));
    if json {
        let mut answer = path.to_json();
        if let Some(w) = &walked {
            answer["walk"] = w.to_json(&mesh);
        }
        say!("{answer}");
    } else {
        for (label, loc) in [("start", &path.start), ("goal", &path.goal)] {
            if loc.snapped {
                say!(
                    "{label} {} is off the mesh; snapped to {} (distance {})",
                    loc.requested,
                    loc.point,
                    crate::words::decimal(loc.requested.distance(loc.point), 3)
                );
            }
        }
        match path.status {
            PathStatus::Unreachable => {
                say!(
                    "no path: start (triangle {}, island {}) and goal (triangle {}, island {}) are not connected",
                    path.start.triangle,
                    mesh.island_of(path.start.triangle),
                    path.goal.triangle,
                    mesh.island_of(path.goal.triangle)
                );
                say!("triangles expanded: {}", path.expanded);
            }
            _ => {
                say!("status: {status}");
                let decimal = |v: f64| crate::words::decimal(v, 4);
                say!("length: {}", decimal(path.length));
                say!("waypoints ({}):", path.waypoints.len());
                for p in &path.waypoints {
                    say!("  {} {}", decimal(p.x), decimal(p.y));
                }
                say!("corridor: {} triangles", path.corridor.len());
                say!("triangles expanded: {}", path.expanded);
                if let Some(w) = &walked {
                    say!("{}", w.describe(&mesh));
                }
            }
        }
    }
    if path.status == PathStatus::Unreachable {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn check_command(
    mesh_path: &std::path::Path,
    plane: Plane,
    strict: bool,
    repair_to: Option<&std::path::Path>,
    json: bool,
) -> ExitCode {
    use crate::navmesh::diagnose::{CheckOptions, Severity, check, check_raw, repair};
    let mesh = match load(mesh_path, plane) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let mut report = check(&mesh, &CheckOptions::default());
    let mut triangles = mesh.triangles().len();
    let mut repaired = None;
    if let Some(out) = repair_to {
        let (fixed, summary) = repair(mesh.raw(), &CheckOptions::default());
        let comment = format!(
            "{} repaired by navlab check: {}, {}",
            mesh_path.display(),
            count(summary.welded, "vertex weld"),
            count(summary.split, "edge split")
        );
        if let Err(error) = crate::atomic::write_atomically(out, fixed.to_obj(&comment).as_bytes())
        {
            complain!("error: {error}");
            return ExitCode::from(2);
        }
        report = check_raw(&fixed, &CheckOptions::default());
        triangles = fixed.build().map_or(0, |m| m.triangles().len());
        repaired = Some(summary);
        if !json {
            say!(
                "repaired: {}, {}; written to {}; the report below is of the repaired mesh",
                count(summary.welded, "vertex weld"),
                count(summary.split, "edge split"),
                out.display()
            );
        }
    }
    if json {
        let value = match (serde_json::to_value(&report), repaired) {
            (Ok(serde_json::Value::Object(mut fields)), Some(summary)) => {
                fields.insert(
                    "repaired".to_string(),
                    json!({"welded": summary.welded, "split": summary.split,
                           "written": repair_to.map(|p| p.display().to_string())}),
                );
                Ok(serde_json::Value::Object(fields))
            }
            (value, _) => value,
        };
        match value.and_then(|v| serde_json::to_string(&v)) {
            Ok(text) => say!("{text}"),
            Err(e) => {
                complain!("error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        say!(
            "{}: {}, {}",
            mesh_path.display(),
            count(triangles, "triangle"),
            count(report.islands, "island")
        );
        if report.is_clean() {
            say!("clean: nothing found");
        }
        const SHOWN: usize = 5;
        for finding in &report.findings {
            let severity = match finding.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            say!(
                "{severity}: {} × {}: {}",
                finding.count,
                finding.kind.name(),
                finding.kind.explain()
            );
            for item in finding.items.iter().take(SHOWN) {
                say!("  at {:.3}, {:.3}: {}", item.at[0], item.at[1], item.note);
            }
            if finding.count > SHOWN {
                say!("  … and {} more (--json lists all)", finding.count - SHOWN);
            }
        }
    }
    let failed = report.has_errors() || (strict && !report.is_clean());
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn info_command(mesh_path: &std::path::Path, plane: Plane, json: bool) -> ExitCode {
    let mesh = match load(mesh_path, plane) {
        Ok(m) => m,
        Err(code) => return code,
    };
    print_summary(&mesh_path.display().to_string(), &mesh.summary(), json)
}

fn mesh_command(
    map_path: &std::path::Path,
    out: &std::path::Path,
    triangles: bool,
    agent_radius: f64,
    json: bool,
) -> ExitCode {
    let map = match load_map(map_path) {
        Ok(map) => map,
        Err(code) => return code,
    };
    let used = crate::navmesh::from_map::agent_radius_used(agent_radius);
    if agent_radius.is_finite() && used != agent_radius {
        complain!(
            "note: agent radius {agent_radius} rounded to {used} (steps of {} tile)",
            crate::navmesh::from_map::AGENT_RADIUS_STEP
        );
    }
    let mesh = match crate::navmesh::from_map::navmesh_from_map(&map, agent_radius) {
        Ok(mesh) => mesh,
        Err(error) => {
            complain!("error: {}: {error}", map_path.display());
            return ExitCode::from(2);
        }
    };
    let comment = format!(
        "{} as a navmesh by navlab: the passable tiles{}, one unit per tile (x = column, z = row)",
        map_path.display(),
        if used > 0.0 {
            format!(" kept {used} clear of walls and the edge (agent radius)")
        } else {
            String::new()
        }
    );
    if let Err(code) = write_mesh(&mesh, out, &comment, triangles) {
        return code;
    }
    print_summary(&out.display().to_string(), &mesh.summary(), json)
}

fn convert_command(
    mesh_path: &std::path::Path,
    out: &std::path::Path,
    plane: Plane,
    triangles: bool,
    json: bool,
) -> ExitCode {
    let mesh = match load(mesh_path, plane) {
        Ok(m) => m,
        Err(code) => return code,
    };
    if crate::navmesh::polyanya::is_polyanya_path(out) {
        use crate::navmesh::diagnose::{CheckOptions, FindingKind, check};
        // A Polyanya mesh is one flat layer: say what of the source it cannot keep.
        let report = check(&mesh, &CheckOptions::default());
        if let Some(overlap) = report.get(FindingKind::Overlap) {
            complain!(
                "warning: {}: {} in the plane; Polyanya expects one flat layer",
                mesh_path.display(),
                count(overlap.items.len(), "overlap")
            );
        }
        let [low, high] = mesh.summary().height_range;
        if high > low {
            complain!("note: heights ({low:.3} to {high:.3}) are left out: a Polyanya mesh is 2D");
        }
    }
    let comment = format!("{}, converted by navlab", mesh_path.display());
    if let Err(code) = write_mesh(&mesh, out, &comment, triangles) {
        return code;
    }
    print_summary(&out.display().to_string(), &mesh.summary(), json)
}

/// Writes `mesh` to `out` atomically, in the format its extension names (see
/// [`NavMesh::to_file_text`]); exit 2 on failure.
fn write_mesh(
    mesh: &NavMesh,
    out: &std::path::Path,
    comment: &str,
    triangles: bool,
) -> Result<(), ExitCode> {
    let shape = if triangles {
        crate::navmesh::polyanya::PolygonShape::Triangles
    } else {
        crate::navmesh::polyanya::PolygonShape::Convex
    };
    mesh.to_file_text(out, comment, shape)
        .map_err(|e| format!("{}: {e}", out.display()))
        .and_then(|text| crate::atomic::write_atomically(out, text.as_bytes()))
        .map_err(|error| {
            complain!("error: {error}");
            ExitCode::from(2)
        })
}

/// Prints a mesh's counts, as text under `name` or as one JSON object.
fn print_summary(name: &str, s: &crate::navmesh::MeshSummary, json: bool) -> ExitCode {
    if json {
        match serde_json::to_string(s) {
            Ok(text) => say!("{text}"),
            Err(e) => {
                complain!("error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        say!("{name}");
        say!("vertices:           {}", s.vertices);
        say!("triangles:          {}", s.triangles);
        say!(
            "edges:              {} ({} border, {} non-manifold)",
            s.edges,
            s.border_edges,
            s.non_manifold_edges
        );
        say!("islands:            {}", s.islands);
        say!("bounds:             {} .. {}", s.bounds.min, s.bounds.max);
        say!(
            "height:             {:.3} .. {:.3}",
            s.height_range[0],
            s.height_range[1]
        );
        say!("area:               {:.3}", s.area);
        let b = &s.build;
        say!(
            "loading:            {} polygons, {} vertices in; {} welded (tolerance {:.2e}), {} polygons triangulated, {} degenerate and {} duplicate triangles dropped, {} vertices unused",
            b.input_polygons,
            b.input_vertices,
            b.welded_vertices,
            b.weld_tolerance,
            b.triangulated_polygons,
            b.degenerate_triangles,
            b.duplicate_triangles,
            b.unused_vertices
        );
    }
    ExitCode::SUCCESS
}

fn pursue_command(
    map_path: &std::path::Path,
    kitten: Vec2,
    mobs: &[Vec2],
    route: &[Vec2],
    config: crate::pursuit::PursuitConfig,
    seconds: f64,
    json: bool,
) -> ExitCode {
    use crate::pursuit::{KittenControl, World};
    if !(seconds.is_finite() && (0.0..=86_400.0).contains(&seconds)) {
        complain!("error: --seconds must be between 0 and 86400, not {seconds}");
        return ExitCode::from(2);
    }
    if !(config.decay.is_finite() && config.decay > 0.0) {
        complain!(
            "error: --decay must be a positive number of seconds, not {}",
            config.decay
        );
        return ExitCode::from(2);
    }
    let map = match load_map(map_path) {
        Ok(map) => map,
        Err(code) => return code,
    };
    let name = map_path.display();
    let mut world = match World::new(map, config, kitten) {
        Ok(world) => world,
        Err(error) => {
            complain!("error: {name}: the kitten cannot start there: {error}");
            return ExitCode::from(2);
        }
    };
    for (i, &at) in mobs.iter().enumerate() {
        if let Err(error) = world.add_mob(at) {
            complain!("error: {name}: mob {} cannot start there: {error}", i + 1);
            return ExitCode::from(2);
        }
    }
    for (i, &point) in route.iter().enumerate() {
        if let Err(error) = crate::pursuit::placement(world.map(), point) {
            complain!("error: {name}: route point {} is unusable: {error}", i + 1);
            return ExitCode::from(2);
        }
    }
    if route.is_empty() {
        world.kitten.control = KittenControl::Wander;
    } else {
        let map = world.map().clone();
        world.kitten.set_route(&map, route);
    }
    world.run_until(seconds, &mut NoObserver);
    let round = |t: f64| (t * 1000.0).round() / 1000.0;
    if json {
        let mobs: Vec<serde_json::Value> = world
            .mobs
            .iter()
            .map(|m| {
                json!({
                    "caught_at": m.caught_at.map(round),
                    "lost_at": m.lost_at.map(round),
                    "states": m.timeline.iter().map(|&(t, s)| json!([round(t), s.name()])).collect::<Vec<_>>(),
                    "entered_blocked_tile": m.entered_blocked_tile,
                    "catches": m.catches,
                    "position": [round(m.body.position.x), round(m.body.position.y)],
                })
            })
            .collect();
        let kitten = world.kitten.body.position;
        say!(
            "{}",
            json!({
                "seconds": round(world.time()),
                "mobs": mobs,
                "kitten": [round(kitten.x), round(kitten.y)],
            })
        );
    } else {
        say!(
            "{name}: {:.2} s simulated, kitten ends at {}",
            world.time(),
            world.kitten.body.position
        );
        for (i, m) in world.mobs.iter().enumerate() {
            let caught = match m.caught_at {
                Some(t) => format!(
                    "caught the kitten {}, first at {t:.2} s",
                    count(m.catches as usize, "time")
                ),
                None => "never caught the kitten".to_string(),
            };
            let lost = match m.lost_at {
                Some(t) => format!("first lost the trail at {t:.2} s"),
                None => "never lost the trail".to_string(),
            };
            say!(
                "mob {}: {caught}; {lost}{}",
                i + 1,
                if m.entered_blocked_tile {
                    "; walked into a blocked tile"
                } else {
                    ""
                }
            );
            let states: Vec<String> = m
                .timeline
                .iter()
                .map(|(t, s)| format!("{t:.2} {}", s.name()))
                .collect();
            say!("  states: {}", states.join(", "));
        }
    }
    ExitCode::SUCCESS
}
