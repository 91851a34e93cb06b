//! `navlab build`: a navmesh built from level geometry by Recast's stages, written as OBJ or a
//! Polyanya mesh, with every stage's counts.

use super::args::LevelBuildArgs;
use crate::navmesh::{Plane, obj};
use std::path::Path;
use std::process::ExitCode;

/// Builds the navmesh of `level` with `args` and writes it to `out`; exit 0, or 2 for an
/// unreadable level, a bad parameter, a level with no navmesh or a failed write.
pub(super) fn build_command(
    level: &Path,
    out: &Path,
    args: &LevelBuildArgs,
    json: bool,
) -> ExitCode {
    let shown = crate::input::shown(level);
    if crate::navmesh::polyanya::is_polyanya_path(level) {
        complain!(
            "error: {shown}: a Polyanya .mesh is a navmesh already; `navlab build` reads level geometry (OBJ, Y up)"
        );
        return ExitCode::from(2);
    }
    let raw = match obj::load_raw(level, Plane::Xz) {
        Ok(raw) => raw,
        Err(error) => {
            complain!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let built = match crate::level::build_navmesh(&raw.positions, &raw.polygons, &args.settings()) {
        Ok(built) => built,
        Err(error) => {
            complain!("error: {shown}: {error}");
            return ExitCode::from(2);
        }
    };
    let counts = built.counts;
    let mesh = match built.into_navmesh() {
        Ok(mesh) => mesh,
        Err(error) => {
            complain!(
                "error: {shown}: no navmesh is left ({error}): every floor was too steep, too low, \
                 too narrow or too small for the agent"
            );
            return ExitCode::from(2);
        }
    };
    let comment = format!("{shown}, built by navlab (Recast's stages)");
    if let Err(code) = super::mesh::write_mesh(&mesh, out, &comment, false) {
        return code;
    }
    let mut islands = mesh.island_areas();
    islands.sort_by(|a, b| b.total_cmp(a));
    let plan_area: f64 = islands.iter().sum();
    if json {
        let answer = serde_json::json!({
            "level": shown,
            "out": crate::input::shown(out),
            "settings": args.settings(),
            "stages": counts,
            "islands": islands.len(),
            "island_areas": islands,
            "plan_area": plan_area,
            "triangles": mesh.triangles().len(),
            "polygons": counts.polygons,
        });
        say!("{answer}");
    } else {
        let decimal = |v: f64| crate::words::decimal(v, 2);
        say!("{} built from {shown}", crate::input::shown(out));
        say!(
            "input: {} triangles, {} walkable (not steeper than {}°)",
            counts.input_triangles,
            counts.walkable_triangles,
            args.settings().agent_max_slope
        );
        say!(
            "grid: {} × {} cells, {} walkable spans; {} regions, {} contours",
            counts.grid[0],
            counts.grid[1],
            counts.compact_spans,
            counts.regions,
            counts.contours
        );
        say!(
            "navmesh: {} polygons, {} vertices ({} triangles; detail mesh {} triangles)",
            counts.polygons,
            counts.vertices,
            mesh.triangles().len(),
            counts.detail_triangles
        );
        say!(
            "islands: {}, plan area {} (largest {})",
            islands.len(),
            decimal(plan_area),
            islands.first().map_or("none".to_string(), |&a| decimal(a))
        );
        say!("time: {} ms", decimal(counts.milliseconds));
    }
    ExitCode::SUCCESS
}
