//! The command-line interface: `navlab path`, `navlab info`. Exit codes: 0 success, 1 a normal
//! negative answer (no path), 2 bad input.

use crate::geom::Vec2;
use crate::navmesh::{CostModel, NavMesh, PathStatus, Plane, QueryOptions, find_path};
use crate::search::NoObserver;
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

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
        /// Print one JSON object instead of text.
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
}

/// Cost model choice on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CostArg {
    /// Centroid to centroid (the seed article).
    Centroid,
    /// Through edge midpoints (as Detour).
    Midpoint,
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
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            ExitCode::SUCCESS
        }
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
            json,
        } => path_command(&mesh, from, to, cost, plane.into(), json),
        Command::Info { mesh, plane, json } => info_command(&mesh, plane.into(), json),
    }
}

fn load(mesh: &std::path::Path, plane: Plane) -> Result<NavMesh, ExitCode> {
    NavMesh::load(mesh, plane).map_err(|error| {
        eprintln!("error: {error}");
        ExitCode::from(2)
    })
}

fn path_command(
    mesh_path: &std::path::Path,
    from: Vec2,
    to: Vec2,
    cost: CostArg,
    plane: Plane,
    json: bool,
) -> ExitCode {
    let mesh = match load(mesh_path, plane) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let options = QueryOptions {
        cost: match cost {
            CostArg::Centroid => CostModel::Centroid,
            CostArg::Midpoint => CostModel::Midpoint,
        },
        ..QueryOptions::default()
    };
    let Some(path) = find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver) else {
        eprintln!("error: start and goal must be finite numbers");
        return ExitCode::from(2);
    };
    let status = match path.status {
        PathStatus::Found => "found",
        PathStatus::Snapped => "snapped",
        PathStatus::Unreachable => "unreachable",
    };
    if json {
        let length = if path.length.is_finite() {
            json!(path.length)
        } else {
            json!(null)
        };
        let out = json!({
            "status": status,
            "length": length,
            "waypoints": path.waypoints.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
            "corridor": path.corridor,
            "expanded": path.expanded,
            "start": [path.start.point.x, path.start.point.y],
            "goal": [path.goal.point.x, path.goal.point.y],
        });
        println!("{out}");
    } else {
        for (label, loc) in [("start", &path.start), ("goal", &path.goal)] {
            if loc.snapped {
                println!(
                    "{label} {} is off the mesh; snapped to {} (distance {:.3})",
                    loc.requested,
                    loc.point,
                    loc.requested.distance(loc.point)
                );
            }
        }
        match path.status {
            PathStatus::Unreachable => {
                println!(
                    "no path: start (triangle {}, island {}) and goal (triangle {}, island {}) are not connected",
                    path.start.triangle,
                    mesh.island_of(path.start.triangle),
                    path.goal.triangle,
                    mesh.island_of(path.goal.triangle)
                );
                println!("triangles expanded: {}", path.expanded);
            }
            _ => {
                println!("status: {status}");
                println!("length: {:.4}", path.length);
                println!("waypoints ({}):", path.waypoints.len());
                for p in &path.waypoints {
                    println!("  {:.4} {:.4}", p.x, p.y);
                }
                println!("corridor: {} triangles", path.corridor.len());
                println!("triangles expanded: {}", path.expanded);
            }
        }
    }
    if path.status == PathStatus::Unreachable {
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
    let s = mesh.summary();
    if json {
        match serde_json::to_string(&s) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        println!("{}", mesh_path.display());
        println!("vertices:           {}", s.vertices);
        println!("triangles:          {}", s.triangles);
        println!(
            "edges:              {} ({} border, {} non-manifold)",
            s.edges, s.border_edges, s.non_manifold_edges
        );
        println!("islands:            {}", s.islands);
        println!("bounds:             {} .. {}", s.bounds.min, s.bounds.max);
        println!(
            "height:             {:.3} .. {:.3}",
            s.height_range[0], s.height_range[1]
        );
        println!("area:               {:.3}", s.area);
        let b = &s.build;
        println!(
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
