//! The command line's shared words: the value names (`--cost`, `--plane`, `--algo`, …), the
//! parsers of points, cells and sizes, and the option groups several commands take.

use crate::geom::Vec2;
use crate::navmesh::{CostModel, Plane};
use clap::ValueEnum;
use std::path::PathBuf;

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
    /// Centroid to centroid (as “A* on a navigation mesh” does).
    Centroid,
    /// Through edge midpoints: the shortest route through the midpoints of the edges crossed.
    Midpoint,
    /// Each edge crossed where the line from the last crossing to the goal crosses it.
    Straight,
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
    pub(super) fn options(&self) -> crate::navmesh::walk::WalkOptions {
        crate::navmesh::walk::WalkOptions {
            speed: self.walk_speed,
            turn_rate: self.turn_rate,
            corner_radius: self.corner_radius,
            ..Default::default()
        }
    }
}

/// Parses a finite number above 0.
pub(super) fn parse_positive(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{text}` is not a number above 0")),
    }
}

/// Parses a finite number of 0 or more.
pub(super) fn parse_non_negative(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{text}` is not a number of 0 or more")),
    }
}

/// Parses a heuristic weight from 0 to 5.
pub(super) fn parse_weight(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(w) if (0.0..=5.0).contains(&w) => Ok(w),
        _ => Err(format!("`{text}` is not a weight from 0 to 5")),
    }
}

/// 8 or 4 directions (below 8 counts as 4).
pub(super) fn connectivity(n: u8) -> crate::grid::Connectivity {
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
    /// Give up a search after this many visits: cells expanded, or put off for a later pass
    /// (Fringe), and for Theta* one for every 16 cells its sight checks walk; 0: no limit. The
    /// default keeps a search of the largest map within seconds and a few hundred MB.
    #[arg(long, value_name = "N", default_value_t = crate::grid::search::DEFAULT_WORK_LIMIT)]
    pub work_limit: u64,
    /// 8 (default: diagonals allowed, no corner cutting) or 4 (below 8 counts as 4).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(4..=8))]
    pub connectivity: u8,
}

impl GridSearchArgs {
    pub(super) fn algorithm(&self) -> crate::grid::GridAlgorithm {
        self.tuning.algorithm(self.algo)
    }

    pub(super) fn connectivity(&self) -> crate::grid::Connectivity {
        connectivity(self.tuning.connectivity)
    }
}

impl GridTuningArgs {
    pub(super) fn algorithm(&self, algo: AlgoArg) -> crate::grid::GridAlgorithm {
        algo.kind().with(crate::grid::SearchTuning {
            heuristic: self.heuristic.heuristic(),
            weight: self.weight,
            budget: self.budget,
        })
    }

    /// Every algorithm, in the lab's order, searching as these options say.
    pub(super) fn algorithms(&self) -> Vec<crate::grid::GridAlgorithm> {
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
    /// Jump Point Search (8 directions, one tile cost; elsewhere it searches as A*).
    Jps,
    /// JPS+: Jump Point Search reading its jumps from tables built for the map first (as JPS
    /// elsewhere; maps of up to 2048 × 2048 cells).
    JpsPlus,
    /// Bidirectional A* (from the start and from the goal in turns; the heuristic both ways).
    Bidir,
    /// Theta* (any-angle paths: lengths between cell centres, every passable tile as ground).
    Theta,
    /// Greedy best-first search (lowest estimate first; a path, not the cheapest).
    BestFirst,
    /// D* Lite (a backward search from the goal, kept to be repaired as the map changes: see
    /// `--paint`).
    DstarLite,
}

impl AlgoArg {
    /// The algorithm named.
    pub fn kind(self) -> crate::grid::AlgorithmKind {
        use crate::grid::AlgorithmKind;
        match self {
            AlgoArg::Bfs => AlgorithmKind::Bfs,
            AlgoArg::Dijkstra => AlgorithmKind::Dijkstra,
            AlgoArg::Astar => AlgorithmKind::AStar,
            AlgoArg::Idastar => AlgorithmKind::IdaStar,
            AlgoArg::Fringe => AlgorithmKind::Fringe,
            AlgoArg::Jps => AlgorithmKind::Jps,
            AlgoArg::JpsPlus => AlgorithmKind::JpsPlus,
            AlgoArg::Bidir => AlgorithmKind::Bidirectional,
            AlgoArg::Theta => AlgorithmKind::ThetaStar,
            AlgoArg::BestFirst => AlgorithmKind::BestFirst,
            AlgoArg::DstarLite => AlgorithmKind::DStarLite,
        }
    }
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
    pub(super) fn heuristic(self) -> crate::grid::Heuristic {
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

/// A tile painted, from the command line's `x,y=tile` (`12,4=wall`).
pub fn parse_paint(text: &str) -> Result<((usize, usize), crate::grid::Tile), String> {
    let (cell, tile) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not a painted tile: write x,y=tile (12,4=wall)"))?;
    let tile = crate::grid::Tile::from_name(tile).ok_or_else(|| {
        format!(
            "`{}` is not a tile: grass, sand, water, wall or hole",
            tile.trim()
        )
    })?;
    Ok((parse_cell(cell)?, tile))
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

/// How a mesh file is read: its plane, and which of its faces are walkable.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct MeshReadArgs {
    /// The plane an OBJ mesh lies in (Polyanya meshes are always XY).
    #[arg(long, value_enum, default_value_t = PlaneArg::Xz)]
    pub plane: PlaneArg,
    /// Keep only the faces within DEG degrees of up, by their winding (level geometry: walls,
    /// ceilings and undersides left out; Recast's default is 45). Up is +Y for XZ, +Z for XY.
    #[arg(long, value_name = "DEG", value_parser = parse_slope)]
    pub max_slope: Option<f64>,
    /// Shrink the mesh for an agent of radius R (in the mesh's units): every point left is at
    /// least R from every wall; passages narrower than 2R close.
    #[arg(long, value_name = "R", value_parser = parse_mesh_radius)]
    pub agent_radius: Option<f64>,
}

impl MeshReadArgs {
    /// The library's options.
    pub fn options(&self) -> crate::navmesh::ReadOptions {
        crate::navmesh::ReadOptions {
            plane: self.plane.into(),
            max_slope: self.max_slope,
            agent_radius: self.agent_radius,
        }
    }
}

/// Off-mesh links put on a mesh once it is read.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LinkArgs {
    /// An off-mesh link (a jump, drop, ladder or teleport) from X,Z to X,Z, each with an
    /// optional height H choosing the floor where floors are stacked, then any of: cost=N (a
    /// fixed cost), cost=Nx (N times its length; the default is 1x), kind=jump|drop|ladder|
    /// teleport|custom, area=NAME (its cost times that area type's), oneway. Repeatable.
    #[arg(
        long = "link",
        value_name = "X,Z[,H]:X,Z[,H][,cost=N][,oneway]",
        allow_hyphen_values = true
    )]
    pub links: Vec<String>,
}

impl LinkArgs {
    /// `mesh` with the links, or an error naming the link (by its place among the --link
    /// options) and what is wrong with it.
    pub fn put_on(
        &self,
        mut mesh: crate::navmesh::NavMesh,
        mesh_path: &std::path::Path,
    ) -> Result<crate::navmesh::NavMesh, std::process::ExitCode> {
        if self.links.is_empty() {
            return Ok(mesh);
        }
        let mut links = Vec::with_capacity(self.links.len());
        for (k, text) in self.links.iter().enumerate() {
            match crate::navmesh::links::parse_link(text, mesh.area_names()) {
                Ok(link) => links.push(link),
                Err(error) => {
                    complain!("error: --link number {}: {error}", k + 1);
                    return Err(std::process::ExitCode::from(2));
                }
            }
        }
        if let Err(error) = mesh.set_links(links) {
            complain!("error: {}: {error}", crate::input::shown(mesh_path));
            return Err(std::process::ExitCode::from(2));
        }
        Ok(mesh)
    }
}

/// Parses an agent's radius on a mesh: a number above 0.
pub(super) fn parse_mesh_radius(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("`{text}` is not a radius above 0")),
    }
}

/// Parses a slope in degrees, 0 to 90.
pub(super) fn parse_slope(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if (0.0..=90.0).contains(&v) => Ok(v),
        _ => Err(format!("`{text}` is not a slope from 0 to 90 degrees")),
    }
}

/// Parses `X,Z` into a point; both must be finite numbers within
/// ±[`MAX_COORDINATE`](crate::input::MAX_COORDINATE), as a mesh's vertices are.
/// A box `X0,Z0,X1,Z1` (two opposite corners, any order), as its lowest and highest corner.
pub fn parse_box(text: &str) -> Result<[Vec2; 2], String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [x0, z0, x1, z1] = parts[..] else {
        return Err(format!(
            "`{}` is not a box: write X0,Z0,X1,Z1 (two corners)",
            crate::input::printable(text)
        ));
    };
    let a = parse_point(&format!("{x0},{z0}"))?;
    let b = parse_point(&format!("{x1},{z1}"))?;
    if a.x == b.x || a.y == b.y {
        return Err("the box has no area: its corners share an X or a Z".to_string());
    }
    Ok([
        Vec2::new(a.x.min(b.x), a.y.min(b.y)),
        Vec2::new(a.x.max(b.x), a.y.max(b.y)),
    ])
}

/// Tile costs as `GRASS,SAND,WATER`, each within [`crate::grid::TileCosts::RANGE`].
pub fn parse_tile_costs(text: &str) -> Result<crate::grid::TileCosts, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let range = crate::grid::TileCosts::RANGE;
    let number = |s: &str| -> Option<f64> { s.parse::<f64>().ok().filter(|v| range.contains(v)) };
    match parts[..] {
        [grass, sand, water] => match (number(grass), number(sand), number(water)) {
            (Some(grass), Some(sand), Some(water)) => {
                Ok(crate::grid::TileCosts { grass, sand, water })
            }
            _ => Err(format!(
                "`{}`: each cost must be a number from {} to {}",
                crate::input::printable(text),
                range.start(),
                range.end()
            )),
        },
        _ => Err(format!(
            "`{}` is not three costs: write GRASS,SAND,WATER",
            crate::input::printable(text)
        )),
    }
}

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
        if !v.is_finite() {
            Err(format!("`{}` in `{text}` is not a finite number", s.trim()))
        } else if v.abs() > crate::input::MAX_COORDINATE {
            Err(format!(
                "`{}` in `{text}` is beyond ±{:e}, the largest coordinate navlab takes",
                s.trim(),
                crate::input::MAX_COORDINATE
            ))
        } else {
            Ok(v)
        }
    };
    Ok(Vec2::new(number(x)?, number(y)?))
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

pub(super) fn cost_model(cost: CostArg) -> CostModel {
    match cost {
        CostArg::Centroid => CostModel::Centroid,
        CostArg::Midpoint => CostModel::Midpoint,
        CostArg::Straight => CostModel::Straight,
    }
}

/// Recast's build parameters, as RecastDemo names them; each left out takes RecastDemo's
/// default (world units; the slope in degrees).
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct LevelBuildArgs {
    /// The grid's cell size on the ground [default: 0.3].
    #[arg(long, value_name = "CS")]
    pub cell_size: Option<f64>,
    /// The grid's cell height [default: 0.2].
    #[arg(long, value_name = "CH")]
    pub cell_height: Option<f64>,
    /// The agent's height: the least room under a ceiling [default: 2.0].
    #[arg(long, value_name = "H")]
    pub agent_height: Option<f64>,
    /// The agent's radius: how far the navmesh keeps from walls [default: 0.6].
    #[arg(long, value_name = "R")]
    pub agent_radius: Option<f64>,
    /// The highest step the agent climbs [default: 0.9].
    #[arg(long, value_name = "C")]
    pub max_climb: Option<f64>,
    /// The steepest slope the agent walks, in degrees [default: 45].
    #[arg(long, value_name = "DEG")]
    pub max_slope: Option<f64>,
    /// Regions smaller than this many cells squared, alone, are dropped [default: 8].
    #[arg(long, value_name = "CELLS")]
    pub region_min_size: Option<u16>,
    /// Regions smaller than this many cells squared merge into others [default: 20].
    #[arg(long, value_name = "CELLS")]
    pub region_merge_size: Option<u16>,
    /// The longest border edge of a contour, 0 for any [default: 12].
    #[arg(long, value_name = "LEN")]
    pub edge_max_len: Option<f64>,
    /// How far a simplified contour strays from the cells, in cells [default: 1.3].
    #[arg(long, value_name = "CELLS")]
    pub edge_max_error: Option<f64>,
    /// The most vertices of a polygon, 3 to 6 [default: 6].
    #[arg(long, value_name = "N")]
    pub verts_per_poly: Option<u16>,
    /// The detail mesh's sampling distance in cells, below 0.9 for none [default: 6].
    #[arg(long, value_name = "CELLS")]
    pub detail_sample_dist: Option<f64>,
    /// How far the detail mesh strays from the heights, in cell heights [default: 1].
    #[arg(long, value_name = "CELLS")]
    pub detail_sample_max_error: Option<f64>,
}

impl LevelBuildArgs {
    /// The library's settings: RecastDemo's defaults where a value is left out.
    pub fn settings(&self) -> crate::level::BuildSettings {
        let d = crate::level::BuildSettings::default();
        crate::level::BuildSettings {
            cell_size: self.cell_size.unwrap_or(d.cell_size),
            cell_height: self.cell_height.unwrap_or(d.cell_height),
            agent_height: self.agent_height.unwrap_or(d.agent_height),
            agent_radius: self.agent_radius.unwrap_or(d.agent_radius),
            agent_max_climb: self.max_climb.unwrap_or(d.agent_max_climb),
            agent_max_slope: self.max_slope.unwrap_or(d.agent_max_slope),
            region_min_size: self.region_min_size.unwrap_or(d.region_min_size),
            region_merge_size: self.region_merge_size.unwrap_or(d.region_merge_size),
            edge_max_len: self.edge_max_len.unwrap_or(d.edge_max_len),
            edge_max_error: self.edge_max_error.unwrap_or(d.edge_max_error),
            verts_per_poly: self.verts_per_poly.unwrap_or(d.verts_per_poly),
            detail_sample_dist: self.detail_sample_dist.unwrap_or(d.detail_sample_dist),
            detail_sample_max_error: self
                .detail_sample_max_error
                .unwrap_or(d.detail_sample_max_error),
        }
    }
}
