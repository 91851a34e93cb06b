//! `navlab open`: the window's options as one struct, turned into the launch actions the
//! window applies in order.

use super::args::*;
use crate::app::{Launch, LaunchAction, LaunchSearch, SceneKind};
use crate::geom::Vec2;
use std::path::PathBuf;

/// The options of `navlab open`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct OpenArgs {
    /// A mesh (OBJ or Polyanya .mesh), or a tile map (.map, .json, .tmx, .tmj) to open in
    /// the tile-map view; the built-in scene when omitted.
    pub file: Option<PathBuf>,
    /// Place the start here: X,Z on a mesh, or a cell x,y (column, row) when a map is
    /// shown (a map file, --map, --compare, --partitions, --pursuit or --build-mesh).
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
    pub from: Option<Vec2>,
    /// Place the goal here (as --from).
    #[arg(long, value_parser = parse_point, allow_hyphen_values = true)]
    pub to: Option<Vec2>,
    /// Save a PNG of the window at --step and exit (drawn without a display, the same on
    /// every machine).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// The step for --screenshot: a number, search-end, funnel-middle, optimal-middle or end.
    #[arg(long, default_value = "end")]
    pub step: crate::app::screenshot::StepSpec,
    /// Window size in points, as WxH.
    #[arg(long, value_parser = parse_size)]
    pub size: Option<[f32; 2]>,
    /// Write an animated GIF of --steps instead of opening the window (drawn without a
    /// display, the same on every machine), and exit.
    #[arg(long, value_name = "OUT.gif")]
    pub gif: Option<PathBuf>,
    /// The steps of --gif, as A..B (both included; B is held to the last step).
    #[arg(long, value_name = "A..B", default_value = "0..40",
          value_parser = crate::app::animation::parse_step_range)]
    pub steps: (usize, usize),
    /// Frames per second of --gif, 1 to 50.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=50))]
    pub fps: u8,
    /// With --gif, only the canvas (not the panels).
    #[arg(long)]
    pub canvas_only: bool,
    /// Open the tile-map lab on this map (MovingAI .map, navlab .json, or Tiled .tmx/.tmj).
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Run the comparison of all grid algorithms at start (tile-map lab).
    #[arg(long)]
    pub compare: bool,
    /// Open the pursuit scene (on --map or the built-in map); with --screenshot, --step
    /// counts simulation steps (60 per second).
    #[arg(long)]
    pub pursuit: bool,
    /// Open the level view: level geometry (an OBJ, Y up) built into a navmesh by Recast's
    /// stages, on this file or the built-in level; with --screenshot, --step counts stages.
    #[arg(long, value_name = "LEVEL.obj", num_args = 0..=1)]
    pub level: Option<Option<PathBuf>>,
    /// In the level view, ask why the ground at X,Z is (or is not) on the navmesh.
    #[arg(long, value_name = "X,Z", value_parser = parse_point, allow_hyphen_values = true)]
    pub why: Option<Vec2>,
    /// With --why, the surface asked about, 0 for the lowest [default: the top one].
    #[arg(long, value_name = "N")]
    pub floor: Option<usize>,
    /// In the level view, draw the cross-section from the first point to the second (X,Z X,Z).
    #[arg(long, num_args = 2, value_names = ["X,Z", "X,Z"], value_parser = parse_point,
          allow_hyphen_values = true)]
    pub section: Option<Vec<Vec2>>,
    /// Keep only the mesh's faces within DEG degrees of up (level geometry: walls and ceilings
    /// left out, drawn faintly).
    #[arg(long, value_name = "DEG", value_parser = super::args::parse_slope)]
    pub max_slope: Option<f64>,
    /// Show the mesh diagnostics with islands coloured.
    #[arg(long)]
    pub diagnostics: bool,
    /// Measure corridor paths against the shortest over N random pairs (default 200) and
    /// show the heat map of where the worst detours start (Diagnostics tab).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "200",
          value_parser = clap::value_parser!(u32).range(10..=5000))]
    pub quality: Option<u32>,
    /// Colour the mesh by clearance (the largest disc each triangle holds); with R, grey what
    /// holds no disc of radius R and mark the portals none crosses.
    #[arg(long, value_name = "R", num_args = 0..=1, default_missing_value = "0",
          value_parser = super::args::parse_non_negative)]
    pub clearance: Option<f64>,
    /// More agents on the navmesh, one of each radius (R,R,…, at most 4): each finds its own
    /// path between the start and goal, drawn in its colour, and walks with --walk.
    #[arg(long, value_name = "R,R", value_delimiter = ',', value_parser = super::args::parse_non_negative)]
    pub agents: Vec<f64>,
    /// Start a crowd of N agents on the navmesh (the Crowd tab), at random starts and goals
    /// (see `navlab crowd`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=200))]
    pub crowd: Option<u16>,
    /// Replay a crowd's run on the navmesh (a file `navlab crowd --trace` or Save crowd run
    /// wrote): shown at --crowd-tick, --crowd-agent taken apart.
    #[arg(long, value_name = "FILE", conflicts_with = "crowd")]
    pub crowd_run: Option<PathBuf>,
    /// The crowd's seed.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub crowd_seed: u64,
    /// The crowd's radius.
    #[arg(long, value_name = "R", default_value_t = 0.3, value_parser = super::args::parse_positive)]
    pub crowd_radius: f64,
    /// The crowd's starts within this box.
    #[arg(long, value_name = "X0,Z0,X1,Z1", value_parser = super::args::parse_box, allow_hyphen_values = true)]
    pub crowd_starts: Option<[Vec2; 2]>,
    /// The crowd's goals within this box.
    #[arg(long, value_name = "X0,Z0,X1,Z1", value_parser = super::args::parse_box, allow_hyphen_values = true)]
    pub crowd_goals: Option<[Vec2; 2]>,
    /// Show the crowd at this tick (run on to it).
    #[arg(long, value_name = "T", default_value_t = 0)]
    pub crowd_tick: u32,
    /// Take this agent of the crowd apart (numbered from 1): its velocity space at the tick.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u16).range(1..))]
    pub crowd_agent: Option<u16>,
    /// Build a navmesh from the map (--map or the built-in one) and show it, from the
    /// map's start to its goal.
    #[arg(long)]
    pub build_mesh: bool,
    /// The agent radius: for a navmesh built from a map, in tiles (see `navlab mesh`); for a
    /// mesh file, in its units, the mesh shrunk by it.
    #[arg(long, value_name = "R")]
    pub agent_radius: Option<f64>,
    /// Tile map: what grass, sand and water cost to enter (one cost for all lets JPS prune).
    #[arg(long, value_name = "GRASS,SAND,WATER", value_parser = parse_tile_costs)]
    pub tile_costs: Option<crate::grid::TileCosts>,
    #[command(flatten)]
    pub search: OpenSearchArgs,
    /// Off-mesh links put on the navmesh as edits (see `navlab path --link`).
    #[command(flatten)]
    pub links: super::args::LinkArgs,
    /// Walk the path (navmesh): the agent sets off at once; with --screenshot the picture
    /// shows the whole walk, its trail red where it cut corners off the mesh.
    #[arg(long)]
    pub walk: bool,
    /// Tile map: a second search beside the first (--algo), the two in lockstep, expansion by
    /// expansion (--step counts expansions then).
    #[arg(long, value_enum, value_name = "ALGO")]
    pub lockstep: Option<AlgoArg>,
    /// With --lockstep: the second search's heuristic (by default the first's).
    #[arg(long, value_enum, value_name = "H", requires = "lockstep")]
    pub lockstep_heuristic: Option<HeuristicArg>,
    /// With --lockstep: the second search's A* weight, 0 to 5 (by default 1).
    #[arg(long, value_name = "W", value_parser = parse_weight, requires = "lockstep")]
    pub lockstep_weight: Option<f64>,
    /// Tile map with --algo dstar-lite: the agent walks this many steps along its path (then
    /// --paint's tiles are painted and the path repaired).
    #[arg(long, value_name = "STEPS")]
    pub walk_steps: Option<usize>,
    /// Tile map with --algo dstar-lite: a tile painted once the agent has walked, as
    /// x,y=tile (grass, sand, water, wall, hole), all as one edit; repeat it for more.
    #[arg(long, value_name = "X,Y=TILE", value_parser = super::args::parse_paint)]
    pub paint: Vec<((usize, usize), crate::grid::Tile)>,
    /// Also search for the shortest path (navmesh, Polyanya) as a third phase and compare it
    /// with the corridor path (`--step optimal-middle` pictures the search, `end` the gap).
    #[arg(long)]
    pub optimal: bool,
    /// Open the Partitions window (tile-map lab) with this partition drawn over the map.
    #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "quadtree")]
    pub partitions: Option<PartitionArg>,
    /// The window's colours: the desktop's, dark or light (kept for the next runs;
    /// screenshots are dark unless this is given).
    #[arg(long, value_enum)]
    pub theme: Option<ThemeArg>,
}

impl OpenArgs {
    /// The picture `--screenshot` asks for, if any.
    pub fn picture(&self) -> Option<crate::app::screenshot::ScreenshotPlan> {
        let [w, h] = self.size.unwrap_or([1280.0, 800.0]);
        Some(crate::app::screenshot::ScreenshotPlan {
            path: self.screenshot.clone()?,
            step: self.step,
            size: [w.round() as usize, h.round() as usize],
        })
    }

    /// The animation `--gif` asks for, if any.
    pub fn animation(&self) -> Option<crate::app::animation::AnimationPlan> {
        let [w, h] = self.size.unwrap_or([1280.0, 800.0]);
        Some(crate::app::animation::AnimationPlan {
            path: self.gif.clone()?,
            steps: self.steps,
            fps: f64::from(self.fps),
            size: [w.round() as usize, h.round() as usize],
            canvas_only: self.canvas_only,
        })
    }

    /// What the window does first, in order: the file, the map, the scene, start and goal
    /// (cells when a map is shown, else points on the mesh), the search options, the
    /// comparison, the partitions, the agent radius, a navmesh built, the diagnostics, the
    /// corridor check, the pursuit, the walk; and the picture, the size and the theme.
    pub fn launch(&self) -> Launch {
        let mut actions = Vec::new();
        let mesh_file = self
            .file
            .as_deref()
            .is_some_and(crate::navmesh::is_mesh_path);
        if let Some(max_slope) = self.max_slope {
            actions.push(LaunchAction::MaxSlope(max_slope));
        }
        if let Some(radius) = self.agent_radius
            && mesh_file
            && !self.build_mesh
        {
            actions.push(LaunchAction::MeshAgentRadius(radius));
        }
        if let Some(file) = &self.file {
            actions.push(LaunchAction::Open(file.clone()));
        }
        let repair_walk = self.walk_steps.is_some() || !self.paint.is_empty();
        let lockstep = self.lockstep.is_some();
        if let Some(map) = &self.map {
            actions.push(LaunchAction::OpenMap(map.clone()));
        } else if self.compare || self.partitions.is_some() || repair_walk || lockstep {
            actions.push(LaunchAction::Show(SceneKind::TileMap));
        }
        let map_file = self.file.as_deref().is_some_and(crate::grid::is_map_path);
        let on_map = map_file
            || self.map.is_some()
            || self.compare
            || self.partitions.is_some()
            || self.pursuit
            || self.build_mesh
            || repair_walk
            || lockstep;
        if !self.links.links.is_empty() {
            actions.push(LaunchAction::Links(self.links.links.clone()));
        }
        let (start, goal) = (self.from, self.to);
        if start.is_some() || goal.is_some() {
            actions.push(if on_map {
                LaunchAction::PlaceOnMap { start, goal }
            } else {
                LaunchAction::PlaceOnMesh { start, goal }
            });
        }
        if let Some(costs) = self.tile_costs {
            actions.push(LaunchAction::TileCosts(costs));
        }
        actions.push(LaunchAction::Search(self.search.launch()));
        if self.compare {
            actions.push(LaunchAction::Compare);
        }
        if let Some(partition) = self.partitions {
            actions.push(LaunchAction::Partitions(partition.into()));
        }
        if let Some(radius) = self.agent_radius
            && on_map
        {
            actions.push(LaunchAction::AgentRadius(radius));
        }
        if self.build_mesh {
            actions.push(LaunchAction::BuildMesh);
        }
        if self.diagnostics {
            actions.push(LaunchAction::Diagnostics);
        }
        if let Some(pairs) = self.quality {
            actions.push(LaunchAction::Quality(pairs as usize));
        }
        if let Some(radius) = self.clearance {
            actions.push(LaunchAction::Clearance(radius));
        }
        if !self.agents.is_empty() {
            actions.push(LaunchAction::Agents(self.agents.clone()));
        }
        if let Some(count) = self.crowd {
            actions.push(LaunchAction::Crowd(crate::app::launch::LaunchCrowd {
                count: usize::from(count),
                seed: self.crowd_seed,
                radius: self.crowd_radius,
                placement: crate::crowd::Placement {
                    starts: self.crowd_starts,
                    goals: self.crowd_goals,
                },
                tick: self.crowd_tick as usize,
                agent: self.crowd_agent.map(|k| usize::from(k) - 1),
            }));
        }
        if let Some(run) = &self.crowd_run {
            actions.push(LaunchAction::Open(run.clone()));
            actions.push(LaunchAction::CrowdAt {
                tick: self.crowd_tick as usize,
                agent: self.crowd_agent.map(|k| usize::from(k) - 1),
            });
        }
        if self.pursuit {
            actions.push(LaunchAction::Show(SceneKind::Pursuit));
        }
        if let Some(level) = &self.level {
            actions.push(LaunchAction::OpenLevel(level.clone()));
        }
        if let Some(line) = &self.section
            && let [a, b] = line[..]
        {
            actions.push(LaunchAction::Section(a, b));
        }
        if let Some(at) = self.why {
            actions.push(LaunchAction::AskWhy(at, self.floor));
        }
        if self.optimal {
            actions.push(LaunchAction::Optimal);
        }
        if self.walk {
            actions.push(LaunchAction::Walk);
        }
        if let Some(algo) = self.lockstep {
            let first = self.search.heuristic.map(HeuristicArg::heuristic);
            actions.push(LaunchAction::Lockstep(
                crate::app::tile_map_scene::lockstep::SecondSearch {
                    algorithm: algo.kind(),
                    heuristic: self
                        .lockstep_heuristic
                        .map(HeuristicArg::heuristic)
                        .or(first)
                        .unwrap_or(crate::grid::Heuristic::Octile),
                    weight: self.lockstep_weight.unwrap_or(1.0),
                },
            ));
        }
        if repair_walk {
            actions.push(LaunchAction::RepairWalk {
                steps: self.walk_steps.unwrap_or(0),
                paint: self.paint.clone(),
            });
        }
        Launch {
            actions,
            size: self.size,
            theme: self.theme.map(Into::into),
        }
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
    /// The options in the window's terms.
    fn launch(&self) -> LaunchSearch {
        LaunchSearch {
            algorithm: self.algo.map(AlgoArg::kind),
            heuristic: self.heuristic.map(HeuristicArg::heuristic),
            weight: self.weight,
            budget: self.budget.map(|b| b as usize),
            connectivity: self.connectivity.map(connectivity),
            cost: self.cost.map(cost_model),
        }
    }
}
