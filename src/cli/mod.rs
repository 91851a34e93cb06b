//! The command line: `navlab open` (the window), the mesh commands (`path`, `info`, `check`,
//! `convert`, `cut`, `demo`, `quality`), the tile-map commands (`grid`, `scen`, `compare`, `partitions`, `mesh`),
//! `pursue` and `completions`. Exit codes: 0 success, 1 a normal negative answer (no path),
//! 2 bad input.

use crate::geom::Vec2;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Prints a line to stdout; a closed pipe (`navlab demo | head`) is not an error worth a panic.
/// Control characters that came from a file (its name, a layer's) are written as escapes, so
/// that a file cannot send the terminal its escape sequences.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = crate::input::printable(&format!($($arg)*));
        if crate::cli::report_on_stderr() {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        } else {
            let _ = writeln!(std::io::stdout().lock(), "{line}");
        }
    }};
}

/// Prints a line to stderr, ignoring a closed pipe, control characters escaped as by `say!`.
macro_rules! complain {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let line = crate::input::printable(&format!($($arg)*));
        let _ = writeln!(std::io::stderr().lock(), "{line}");
    }};
}

pub mod args;
mod crowd;
pub mod cut;
mod grid;
mod level;
mod mesh;
pub mod open;
mod progress;
mod pursue;
mod quality;

use args::*;
pub use open::{OpenArgs, OpenSearchArgs};

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
        #[command(flatten)]
        read: MeshReadArgs,
        #[command(flatten)]
        walk: WalkArgs,
        #[command(flatten)]
        obstacles: cut::ObstacleArgs,
        /// The cost multiplier of an area type the mesh has (from `g area:NAME` or `usemtl
        /// area:NAME` in the OBJ, or built in: ground 1, road 0.5, mud 3, water 10), as
        /// NAME=MULT, from 0.1 to 100 (repeatable).
        #[arg(long = "area-cost", value_name = "NAME=MULT", value_parser = cut::parse_area_cost)]
        area_costs: Vec<(String, f64)>,
        #[command(flatten)]
        links: LinkArgs,
        /// The exact shortest path (Polyanya) instead of A* and the funnel: by length alone
        /// (plus the links' costs), area costs left out.
        #[arg(long)]
        optimal: bool,
        /// Instead of a path, the largest agent that can go from the start to the goal: the
        /// radius of the largest disc that stands at both and crosses every portal of some
        /// route (the portals' clearance, `navlab clearance`), and the portal (or the end)
        /// that stops a larger one.
        #[arg(long, conflicts_with_all = ["optimal", "steps", "trace", "radius"])]
        max_radius: bool,
        /// The agent's radius R, in the mesh's units: the path keeps R from every wall, turning
        /// round corners on arcs, and crosses only portals with room for it (`navlab
        /// clearance`). The mesh is not rebuilt (--agent-radius shrinks it as it is read). With
        /// --optimal, the exact shortest path for R, on the mesh shrunk by R.
        #[arg(long, value_name = "R", value_parser = args::parse_mesh_radius)]
        radius: Option<f64>,
        /// Also list every step of A* and of the funnel, explained, each with its line of
        /// `navlab pseudocode navmesh-astar` or `funnel` (in the JSON as "steps").
        #[arg(long, conflicts_with = "optimal")]
        steps: bool,
        /// Write A*'s search over the triangles, then the funnel's steps, as a Posthoc trace
        /// (OUT.trace.json or .trace.yaml).
        #[arg(long, value_name = "OUT", conflicts_with = "optimal")]
        trace: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the numbered pseudocode of an algorithm the lab animates, as the window's
    /// Pseudocode panel shows it (every listing when none is named).
    Pseudocode {
        /// Which listing.
        #[arg(value_parser = parse_listing)]
        algo: Option<crate::search::pseudocode::Listing>,
        /// Print JSON: each listing's name, title and lines.
        #[arg(long)]
        json: bool,
    },
    /// Cut obstacles out of a navmesh and write the result (OBJ, or a Polyanya .mesh).
    Cut {
        /// The mesh file.
        mesh: PathBuf,
        /// Where to write the cut mesh.
        #[arg(short, long, value_name = "OUT.obj|OUT.mesh")]
        out: PathBuf,
        #[command(flatten)]
        obstacles: cut::ObstacleArgs,
        #[command(flatten)]
        read: MeshReadArgs,
        /// Print one JSON object: triangles, area_before, area_after, obstacles, ms.
        #[arg(long)]
        json: bool,
    },
    /// Open the window (the default when no command is given), optionally on a mesh or map file.
    Open(Box<OpenArgs>),
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
        /// Write the search as a Posthoc trace (OUT.trace.json or .trace.yaml: JSON, which
        /// Posthoc reads either way).
        #[arg(long, value_name = "OUT")]
        trace: Option<PathBuf>,
        /// Compare with a Posthoc trace of the same query made by another program: the first
        /// expansion where the two differ (exit 1 when they do).
        #[arg(long, value_name = "TRACE")]
        against: Option<PathBuf>,
        /// With --algo dstar-lite: the agent walks this many steps along the path found before
        /// the --paint edits are made.
        #[arg(long, value_name = "STEPS", default_value_t = 0)]
        walk_steps: usize,
        /// With --algo dstar-lite: a tile painted once the agent has walked, as x,y=tile
        /// (grass, sand, water, wall, hole); repeat it for more. D* Lite repairs the path from
        /// where the agent stands, and the repair's work is set beside a fresh A*'s.
        #[arg(long, value_name = "X,Y=TILE", value_parser = parse_paint)]
        paint: Vec<((usize, usize), crate::grid::Tile)>,
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
    /// Run every scenario of a MovingAI .scen file and compare with the listed optimal lengths;
    /// with --mesh, a Polyanya mesh scenario file on a navmesh.
    Scen {
        /// The scenario file.
        scen: PathBuf,
        /// The map (default: the file named in the scenarios, looked up beside the .scen file).
        #[arg(long, conflicts_with = "mesh")]
        map: Option<PathBuf>,
        /// Run a mesh scenario file (`version 1`, then `bucket mesh width height sx sy gx gy
        /// length` per line, real coordinates) on this navmesh: the corridor paths and how much
        /// longer they are than listed, or with --optimal the shortest paths checked against the
        /// listed lengths (1e-6 relative; exit 1 when one differs).
        #[arg(long)]
        mesh: Option<PathBuf>,
        /// With --mesh: the exact shortest path (Polyanya) instead of the corridor path.
        #[arg(long, requires = "mesh")]
        optimal: bool,
        /// With --mesh: the agent's radius R (see `navlab path --radius`); scenarios whose
        /// start or goal has less room are counted apart.
        #[arg(long, value_name = "R", value_parser = args::parse_mesh_radius, requires = "mesh")]
        radius: Option<f64>,
        /// With --mesh: how A* measures a step between triangles.
        #[arg(long, value_enum, default_value_t = CostArg::Centroid)]
        cost: CostArg,
        /// With --mesh: how to read it.
        #[command(flatten)]
        read: MeshReadArgs,
        /// With --mesh: its off-mesh links.
        #[command(flatten)]
        links: LinkArgs,
        #[command(flatten)]
        search: GridSearchArgs,
        /// Stop once the searches of the file have expanded this many nodes in all (a count,
        /// so the same file stops at the same line on every machine; MovingAI's largest
        /// published sets take under half of the default); 0 for no limit.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_EXPANSIONS)]
        max_expansions: u64,
        /// Print one JSON object with per-scenario details.
        #[arg(long)]
        json: bool,
    },
    /// How much longer the corridor path (A* over triangles, then the funnel) is than the
    /// shortest path, over random start and goal pairs on a navmesh; the worst pairs listed.
    Quality {
        /// The mesh file.
        mesh: PathBuf,
        /// How many random pairs (each on one island), 1 to 100000.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        queries: u32,
        /// The pairs' random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How A* measures a step between triangles.
        #[arg(long, value_enum, default_value_t = CostArg::Centroid)]
        cost: CostArg,
        /// The corridor search's heuristic weight, 0 to 5 (1: A* as it is; above 1 greedier).
        #[arg(long, default_value_t = 1.0, value_parser = parse_weight)]
        weight: f64,
        /// The agent's radius R: the corridor paths keep it (see `navlab path --radius`) and the
        /// shortest paths are the exact ones for it; pairs whose start or goal has less room are
        /// left out.
        #[arg(long, value_name = "R", value_parser = args::parse_mesh_radius)]
        radius: Option<f64>,
        #[command(flatten)]
        read: MeshReadArgs,
        #[command(flatten)]
        links: LinkArgs,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Run a crowd headless: agents at random starts and goals (seeded) on a navmesh, or on a
    /// tile map's navmesh, each following its path and keeping clear of the others by ORCA;
    /// then who arrived, travel times, collisions, who is stuck and why, time per tick.
    Crowd {
        /// The navmesh (OBJ or Polyanya .mesh) or tile map (MovingAI .map, navlab .json, Tiled).
        world: PathBuf,
        /// How many agents.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u16).range(1..=10000))]
        agents: u16,
        /// Seed of the starts and goals.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// At most this many ticks of 0.05 s (the run stops when every agent has arrived).
        #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
        ticks: u32,
        /// Every agent's radius.
        #[arg(long, default_value_t = 0.3)]
        radius: f64,
        /// Every agent's preferred speed (its top speed is half as much again).
        #[arg(long, default_value_t = 1.2)]
        speed: f64,
        /// The starts within this box, X0,Z0,X1,Z1 (else anywhere on the mesh).
        #[arg(long, value_name = "X0,Z0,X1,Z1", value_parser = parse_box, allow_hyphen_values = true)]
        starts: Option<[Vec2; 2]>,
        /// The goals within this box, X0,Z0,X1,Z1 (else anywhere on the mesh).
        #[arg(long, value_name = "X0,Z0,X1,Z1", value_parser = parse_box, allow_hyphen_values = true)]
        goals: Option<[Vec2; 2]>,
        /// Turn avoidance off: agents follow their paths through each other.
        #[arg(long)]
        no_avoid: bool,
        /// Write the run to this file (name it NAME.crowd.trace.json): a Posthoc trace of every
        /// agent at every tick, which `navlab open MESH --crowd-run FILE` replays in the window.
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        #[command(flatten)]
        read: MeshReadArgs,
        /// Print one JSON object instead of text.
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
        /// Mobs keep clear of each other (ORCA); by the article's rules they run through one
        /// another.
        #[arg(long)]
        avoid_mobs: bool,
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
        #[command(flatten)]
        read: MeshReadArgs,
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
        #[command(flatten)]
        read: MeshReadArgs,
        /// For a Polyanya mesh: one polygon per triangle instead of convex polygons.
        #[arg(long)]
        triangles: bool,
        /// Print one JSON object (the mesh's summary) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Build a navmesh from level geometry (OBJ, Y up) by Recast's stages, with RecastDemo's
    /// parameters and defaults, and write it (OBJ, or a Polyanya .mesh) with every stage's
    /// counts. Exit 0, or 2 for an unreadable level, a bad parameter or a failed write.
    Build {
        /// The level (OBJ).
        level: PathBuf,
        /// Where to write the navmesh (atomically).
        #[arg(short, long, value_name = "OUT.obj|OUT.mesh")]
        out: PathBuf,
        #[command(flatten)]
        settings: LevelBuildArgs,
        /// Write Recast's polygon mesh (convex polygons, heights at their corners only) instead
        /// of the detail mesh (triangles that follow the ground's height).
        #[arg(long)]
        polygons: bool,
        /// Also look for off-mesh links along the navmesh's border (drops and jumps within a
        /// gap of two units, a drop of two agent heights, a jump up of two climbs): each kept
        /// one listed as `navlab path --link` takes it, and how many were left out for each
        /// reason.
        #[arg(long)]
        links: bool,
        /// Mark the ground in a rectangle (x from X0 to X1, z from Z0 to Z1, at any height) with
        /// an area type: road, mud, water or a name of its own (repeatable).
        #[arg(long = "area", value_name = "NAME=X0,Z0,X1,Z1", value_parser = level::parse_volume)]
        areas: Vec<crate::level::MarkedVolume>,
        /// Print one JSON object (the settings, each stage's counts, the islands) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Say why the ground at a point of a level is or is not on the navmesh built from it: the
    /// stage that removed it and by how much (slope, step, ceiling, wall, island area), and
    /// the smallest change of one parameter that keeps it, built and checked. Exit 0 with the
    /// answer, or 2 for an unreadable level or a bad parameter.
    Why {
        /// The level (OBJ, Y up).
        level: PathBuf,
        /// The point, as X,Z.
        #[arg(long, value_name = "X,Z", value_parser = args::parse_point, allow_hyphen_values = true)]
        at: crate::geom::Vec2,
        /// Which of the surfaces above one another at the point, 0 for the lowest [default:
        /// the top one].
        #[arg(long, value_name = "N")]
        floor: Option<usize>,
        #[command(flatten)]
        settings: LevelBuildArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Describe a navmesh: counts, islands, bounds, what loading repaired.
    Info {
        /// The mesh file.
        mesh: PathBuf,
        #[command(flatten)]
        read: MeshReadArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// How much room a navmesh has: for each island the largest disc on it, and its narrowest
    /// portals with their clearance (the radius of the largest disc that crosses each, bounded
    /// by the walls beside it, not by its length).
    Clearance {
        /// The mesh file.
        mesh: PathBuf,
        #[command(flatten)]
        read: MeshReadArgs,
        /// How many of each island's narrowest portals to list.
        #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u16))]
        narrowest: u16,
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
        None => run(Command::Open(Box::default())),
    }
}

/// The most nodes the searches of one scenario file expand in all, unless `--max-expansions`
/// says otherwise: MovingAI's 512 × 512 maze set, the largest published here, expands under
/// 950 million with A\*.
pub const DEFAULT_MAX_EXPANSIONS: u64 = 2_000_000_000;

/// Why a scenario file's run stopped early, for its error line: `ran` of `total` scenarios
/// run, `spent` nodes expanded, `limit` the budget.
fn budget_spent(
    scen: &std::path::Path,
    ran: usize,
    total: usize,
    spent: u64,
    limit: u64,
) -> String {
    format!(
        "{}: stopped after {ran} of {total} scenarios: their searches expanded {spent} nodes, \
         past the budget of {limit} (--max-expansions; 0 lifts it)",
        crate::input::shown(scen)
    )
}

/// Set when a command writes its file to standard output (`-o -`): what it would print there
/// goes to standard error, so that standard output holds the file alone.
static REPORT_ON_STDERR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// True when the report goes to standard error (see [`REPORT_ON_STDERR`]).
pub(crate) fn report_on_stderr() -> bool {
    REPORT_ON_STDERR.load(std::sync::atomic::Ordering::Relaxed)
}

impl Command {
    /// The files the command writes.
    fn outputs(&self) -> Vec<&std::path::Path> {
        let out = match self {
            Command::Path { trace, .. } => trace.as_deref(),
            Command::Cut { out, .. }
            | Command::Convert { out, .. }
            | Command::Mesh { out, .. }
            | Command::Build { out, .. } => Some(out.as_path()),
            Command::Check { repair, .. } => repair.as_deref(),
            Command::Grid { trace, .. } => trace.as_deref(),
            Command::Open(args) => args.gif.as_deref().or(args.screenshot.as_deref()),
            _ => None,
        };
        out.into_iter().collect()
    }
}

/// Runs one subcommand, printing to stdout/stderr; returns the exit code.
pub fn run(command: Command) -> ExitCode {
    let to_stdout = command.outputs().into_iter().any(|path| {
        crate::atomic::destination(path) == Ok(crate::atomic::Destination::StandardOutput)
    });
    REPORT_ON_STDERR.store(to_stdout, std::sync::atomic::Ordering::Relaxed);
    match command {
        Command::Path {
            mesh,
            from,
            to,
            cost,
            read,
            walk,
            obstacles,
            area_costs,
            links,
            optimal,
            max_radius,
            radius,
            steps,
            trace,
            json,
        } => mesh::path_command(
            &mesh,
            mesh::PathQuery {
                from,
                to,
                cost,
                read: read.options(),
                obstacles,
                area_costs,
                links,
                optimal,
                max_radius,
                radius: radius.unwrap_or(0.0),
                steps,
                trace,
            },
            &walk,
            json,
        ),
        Command::Cut {
            mesh,
            out,
            obstacles,
            read,
            json,
        } => cut::cut_command(&mesh, &out, &obstacles, read.options(), json),
        Command::Info { mesh, read, json } => mesh::info_command(&mesh, read.options(), json),
        Command::Clearance {
            mesh,
            read,
            narrowest,
            json,
        } => mesh::clearance_command(&mesh, read.options(), usize::from(narrowest), json),
        Command::Completions { shell } => {
            use clap::CommandFactory as _;
            clap_complete::generate(shell, &mut Cli::command(), "navlab", &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Command::Convert {
            mesh,
            out,
            read,
            triangles,
            json,
        } => mesh::convert_command(&mesh, &out, read.options(), triangles, json),
        Command::Build {
            level,
            out,
            settings,
            polygons,
            links,
            areas,
            json,
        } => level::build_command(&level, &out, &settings, &areas, (polygons, links), json),
        Command::Why {
            level,
            at,
            floor,
            settings,
            json,
        } => level::why_command(&level, at, floor, &settings, json),
        Command::Mesh {
            map,
            out,
            triangles,
            agent_radius,
            json,
        } => grid::mesh_command(&map, &out, triangles, agent_radius, json),
        Command::Check {
            mesh,
            read,
            strict,
            repair,
            json,
        } => mesh::check_command(&mesh, read.options(), strict, repair.as_deref(), json),
        Command::Crowd {
            world,
            agents,
            seed,
            ticks,
            radius,
            speed,
            starts,
            goals,
            no_avoid,
            trace,
            read,
            json,
        } => crowd::crowd_command(
            &world,
            crowd::CrowdQuery {
                agents: usize::from(agents),
                seed,
                ticks: ticks as usize,
                radius,
                speed,
                placement: crate::crowd::Placement { starts, goals },
                avoid: !no_avoid,
                read: read.options(),
                trace,
                json,
            },
        ),
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
            avoid_mobs,
            json,
        } => {
            let config = crate::pursuit::PursuitConfig {
                seed,
                decay,
                trail_choice: trail.into(),
                avoid_walls: !no_avoid,
                avoid_mobs,
                ..Default::default()
            };
            pursue::pursue_command(&map, kitten, &mobs, &route, config, seconds, json)
        }
        Command::Demo { scene, cost } => mesh::demo_command(scene, cost),
        Command::Pseudocode { algo, json } => pseudocode_command(algo, json),
        Command::Grid {
            cells,
            search,
            steps,
            trace,
            against,
            walk_steps,
            paint,
            json,
        } => grid::grid_command(
            &cells,
            &search,
            grid::GridOutputs {
                steps,
                trace,
                against,
                json,
            },
            &grid::Repair {
                walk: walk_steps,
                paint,
            },
        ),
        Command::Partitions {
            cells,
            connectivity,
            json,
        } => grid::partitions_command(&cells, connectivity, json),
        Command::Scen {
            scen,
            mesh: Some(mesh),
            optimal,
            radius,
            cost,
            read,
            links,
            json,
            max_expansions,
            ..
        } => quality::mesh_scen_command(
            &scen,
            &mesh,
            (read.options(), &links),
            (optimal, cost, radius.unwrap_or(0.0)),
            max_expansions,
            json,
        ),
        Command::Scen {
            scen,
            map,
            search,
            max_expansions,
            json,
            ..
        } => grid::scen_command(&scen, map.as_deref(), &search, max_expansions, json),
        Command::Quality {
            mesh,
            queries,
            seed,
            cost,
            weight,
            radius,
            read,
            links,
            json,
        } => quality::quality_command(
            &mesh,
            read.options(),
            &links,
            crate::navmesh::quality::QualityOptions {
                queries: queries as usize,
                seed,
                cost: cost_model(cost),
                weight,
                radius: radius.unwrap_or(0.0),
            },
            cost,
            json,
        ),
        Command::Compare {
            cells,
            tuning,
            json,
        } => grid::compare_command(&cells, &tuning, json),
        Command::Open(args) if args.gif.is_some() => {
            let launch = args.launch();
            let Some(plan) = args.animation() else {
                return ExitCode::from(2);
            };
            match crate::app::animation::record_gif(&launch, &plan) {
                Ok(report) => {
                    complain!(
                        "wrote {} ({} frames of {} × {})",
                        crate::input::shown(&plan.path),
                        report.frames,
                        report.size[0],
                        report.size[1]
                    );
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    complain!("error: {message}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Open(args) if args.screenshot.is_some() => {
            let launch = args.launch();
            let Some(plan) = args.picture() else {
                return ExitCode::from(2);
            };
            match crate::app::screenshot::save_screenshot(&launch, &plan) {
                Ok(()) => {
                    complain!("wrote {}", crate::input::shown(&plan.path));
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    complain!("error: {message}; no screenshot written");
                    ExitCode::from(2)
                }
            }
        }
        Command::Open(args) => match crate::app::run_native(args.launch()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                complain!("error: {error}");
                complain!("(the command-line tools work without a display: `navlab --help`)");
                ExitCode::from(2)
            }
        },
    }
}

/// A listing by its name, for clap.
fn parse_listing(text: &str) -> Result<crate::search::pseudocode::Listing, String> {
    use crate::search::pseudocode::Listing;
    Listing::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Listing::ALL.iter().map(|l| l.name()).collect();
        format!("no listing of that name; one of {}", names.join(", "))
    })
}

/// `navlab pseudocode [ALGO] [--json]`.
fn pseudocode_command(algo: Option<crate::search::pseudocode::Listing>, json: bool) -> ExitCode {
    use crate::search::pseudocode::Listing;
    let listings: Vec<Listing> = algo.map_or_else(|| Listing::ALL.to_vec(), |l| vec![l]);
    if json {
        let all: Vec<serde_json::Value> = listings
            .iter()
            .map(|l| {
                serde_json::json!({
                    "name": l.name(),
                    "title": l.title(),
                    "lines": l.lines(),
                    "expansion_line": l.expansion_line(),
                })
            })
            .collect();
        match algo {
            Some(_) => say!("{}", all.first().cloned().unwrap_or_default()),
            None => say!("{}", serde_json::Value::from(all)),
        }
    } else {
        let texts: Vec<String> = listings
            .iter()
            .map(|l| format!("{} ({})\n{}", l.title(), l.name(), numbered_lines(*l)))
            .collect();
        say!("{}", texts.join("\n"));
    }
    ExitCode::SUCCESS
}

/// A listing's lines, numbered.
fn numbered_lines(listing: crate::search::pseudocode::Listing) -> String {
    listing
        .numbered()
        .lines()
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .trim_end()
        .to_string()
}
