//! `navlab quality` (how much longer corridor paths are than the shortest, over random pairs)
//! and `navlab scen --mesh` (a Polyanya mesh scenario file, exact or corridor).

use super::args::{CostArg, cost_model};
use crate::geom::Vec2;
use crate::navmesh::anyangle::shortest_path;
use crate::navmesh::quality::QualityOptions;
use crate::navmesh::scenarios::MeshScenario;
use crate::navmesh::{NavMesh, Plane, QueryOptions, find_path};
use crate::search::NoObserver;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// A percentage for text, `2.31 %`.
fn percent(fraction: f64) -> String {
    format!("{} %", crate::words::decimal(100.0 * fraction, 2))
}

/// A duration per query for text, in µs or ms.
fn per_query(total: std::time::Duration, queries: usize) -> String {
    let micros = total.as_secs_f64() * 1e6 / queries.max(1) as f64;
    if micros >= 1000.0 {
        format!("{} ms", crate::words::decimal(micros / 1000.0, 2))
    } else {
        format!("{} µs", crate::words::decimal(micros, 1))
    }
}

fn point(p: Vec2) -> [f64; 2] {
    [p.x, p.y]
}

/// `navlab quality MESH`.
pub(super) fn quality_command(
    mesh_path: &Path,
    read: crate::navmesh::ReadOptions,
    links: &super::args::LinkArgs,
    options: QualityOptions,
    cost: CostArg,
    json: bool,
) -> ExitCode {
    let plane = read.plane;
    let mesh =
        match super::mesh::load(mesh_path, read).and_then(|mesh| links.put_on(mesh, mesh_path)) {
            Ok(mesh) => mesh,
            Err(code) => return code,
        };
    let progress = super::progress::Progress::new(options.queries, "queries");
    let report = crate::navmesh::quality::measure_with_progress(&mesh, options, || progress.step());
    drop(progress);
    let measured = report.pairs.len();
    let worst = report.worst(10);
    let cost_name = format!("{cost:?}").to_lowercase();
    let micros = |d: std::time::Duration| d.as_secs_f64() * 1e6 / measured.max(1) as f64;
    if json {
        say!(
            "{}",
            json!({
                "mesh": mesh_path.display().to_string(),
                "queries": measured,
                "skipped": report.skipped,
                "not_followed": report.not_followed,
                "seed": options.seed,
                "cost": cost_name,
                "weight": options.weight,
                "radius": options.radius,
                "mean_excess": report.mean_excess(),
                "p95_excess": report.p95_excess(),
                "worst_excess": report.worst_excess(),
                "optimal_us_per_query": micros(report.optimal_time),
                "corridor_us_per_query": micros(report.corridor_time),
                "worst": worst.iter().map(|p| json!({
                    "from": point(p.from),
                    "to": point(p.to),
                    "optimal": p.optimal,
                    "corridor": p.corridor,
                    "excess": p.excess(),
                })).collect::<Vec<_>>(),
            })
        );
        return ExitCode::SUCCESS;
    }
    let weight = if options.weight == 1.0 {
        String::new()
    } else {
        format!(", heuristic weight {}", options.weight)
    };
    say!(
        "{}: {measured} random pairs (seed {}), corridor cost {cost_name}{weight}{}",
        crate::input::shown(mesh_path),
        options.seed,
        if options.radius > 0.0 {
            format!(
                ", for an agent of radius {} (the shortest paths on the mesh shrunk by it)",
                options.radius
            )
        } else {
            String::new()
        }
    );
    if report.skipped > 0 && options.radius > 0.0 {
        say!(
            "  {} pairs left out (an end with less room than the radius, no path between them, or the exact search's node budget ran out)",
            report.skipped
        );
    } else if report.skipped > 0 {
        say!(
            "  {} pairs left out (no path between them, or the exact search's node budget ran out)",
            report.skipped
        );
    }
    if report.not_followed > 0 {
        say!(
            "  {} pairs left out where the corridor query found a path that Polyanya could not follow (the mesh folds over itself or has sliver faces there)",
            report.not_followed
        );
    }
    if measured == 0 {
        say!("  nothing to measure: the mesh has no area");
        return ExitCode::SUCCESS;
    }
    say!(
        "  corridor path over the shortest: mean {}, 95th percentile {}, worst {}",
        percent(report.mean_excess()),
        percent(report.p95_excess()),
        percent(report.worst_excess())
    );
    say!(
        "  time per query: shortest (Polyanya) {}, corridor (A* and funnel) {}",
        per_query(report.optimal_time, measured),
        per_query(report.corridor_time, measured)
    );
    let polyanya = mesh_path.extension().is_some_and(|e| e == "mesh");
    let (flag, axes) = match plane {
        Plane::Xy if !polyanya => (" --plane xy", "X,Y"),
        _ if polyanya => ("", "X,Y"),
        _ => ("", "X,Z"),
    };
    say!(
        "  worst pairs (see one with `navlab path {}{flag} --from {axes} --to {axes}`):",
        crate::input::shown(mesh_path)
    );
    let coordinate = |p: Vec2| {
        format!(
            "{},{}",
            crate::words::decimal(p.x, 3),
            crate::words::decimal(p.y, 3)
        )
    };
    for p in worst.iter().filter(|p| p.excess() > 0.0) {
        say!(
            "    +{}  --from {} --to {}  (shortest {}, corridor {})",
            percent(p.excess()),
            coordinate(p.from),
            coordinate(p.to),
            crate::words::decimal(p.optimal, 3),
            crate::words::decimal(p.corridor, 3)
        );
    }
    ExitCode::SUCCESS
}

/// True when `got` is the listed length to 1e-6 relative.
fn matches_listed(got: f64, listed: f64) -> bool {
    (got - listed).abs() <= 1e-6 * listed.abs().max(1.0)
}

/// What `navlab scen --mesh` reports of one query.
#[derive(serde::Serialize)]
struct MeshScenarioDetail {
    line: usize,
    bucket: u32,
    start: [f64; 2],
    goal: [f64; 2],
    listed: Option<f64>,
    length: Option<f64>,
    matches: bool,
    /// How much longer than listed, as a fraction (corridor runs).
    excess: Option<f64>,
}

/// `navlab scen SCEN --mesh MESH`.
pub(super) fn mesh_scen_command(
    scen_path: &Path,
    mesh_path: &Path,
    (read, links): (crate::navmesh::ReadOptions, &super::args::LinkArgs),
    (optimal, cost, radius): (bool, CostArg, f64),
    max_expansions: u64,
    json: bool,
) -> ExitCode {
    let scenarios = match crate::navmesh::scenarios::load(scen_path) {
        Ok(s) => s,
        Err(error) => {
            complain!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let mesh =
        match super::mesh::load(mesh_path, read).and_then(|mesh| links.put_on(mesh, mesh_path)) {
            Ok(mesh) => mesh,
            Err(code) => return code,
        };
    let progress = super::progress::Progress::new(scenarios.len(), "scenarios");
    let mut details: Vec<MeshScenarioDetail> = Vec::with_capacity(scenarios.len());
    let mut spent = 0u64;
    for s in &scenarios {
        if max_expansions > 0 && spent >= max_expansions {
            break;
        }
        let (detail, expanded) = run_one(&mesh, s, (optimal, cost, radius));
        spent = spent.saturating_add(expanded as u64);
        details.push(detail);
        progress.step();
    }
    drop(progress);
    let total = details.len();
    let stopped = (total < scenarios.len())
        .then(|| super::budget_spent(scen_path, total, scenarios.len(), spent, max_expansions));
    let matched = details.iter().filter(|d| d.matches).count();
    let found = details.iter().filter(|d| d.length.is_some()).count();
    let excess: Vec<f64> = details.iter().filter_map(|d| d.excess).collect();
    let (mean, p95, worst) = crate::navmesh::quality::excess_summary(&excess);
    let search = if optimal { "polyanya" } else { "corridor" };
    let cost_name = format!("{cost:?}").to_lowercase();
    if json {
        let mut answer = json!({
            "scen": scen_path.display().to_string(),
            "mesh": mesh_path.display().to_string(),
            "search": search,
            "scenarios": total,
            "in_file": scenarios.len(),
            "matched": matched,
            "mismatched": total - matched,
            "details": details,
        });
        if !optimal || radius > 0.0 {
            answer["cost"] = json!(cost_name);
            answer["mean_excess"] = json!(mean);
            answer["p95_excess"] = json!(p95);
            answer["worst_excess"] = json!(worst);
        }
        if radius > 0.0 {
            answer["radius"] = json!(radius);
            answer["found"] = json!(found);
        }
        say!("{answer}");
    } else if radius > 0.0 {
        say!(
            "{}: for an agent of radius {radius}, {found} of {total} {} paths found (the rest: an end with less room, or no route with room), mesh {}; longer than the listed lengths (for a point) by: mean {}, 95th percentile {}, worst {}",
            crate::input::shown(scen_path),
            if optimal { "shortest" } else { "corridor" },
            crate::input::shown(mesh_path),
            percent(mean),
            percent(p95),
            percent(worst)
        );
    } else if optimal {
        say!(
            "{}: {matched} of {total} shortest paths (Polyanya) match the listed length (1e-6 relative), mesh {}",
            crate::input::shown(scen_path),
            crate::input::shown(mesh_path)
        );
    } else {
        say!(
            "{}: {total} corridor paths (A*, {cost_name} cost, then the funnel), mesh {}: {matched} match the listed length; over it: mean {}, 95th percentile {}, worst {}",
            crate::input::shown(scen_path),
            crate::input::shown(mesh_path),
            percent(mean),
            percent(p95),
            percent(worst)
        );
    }
    if !json && radius == 0.0 {
        for d in details.iter().filter(|d| !d.matches).take(20) {
            let words = |v: Option<f64>| v.map_or("no path".to_string(), |v| v.to_string());
            say!(
                "  line {}: ({},{}) → ({},{}): listed {}, got {}",
                d.line,
                d.start[0],
                d.start[1],
                d.goal[0],
                d.goal[1],
                words(d.listed),
                words(d.length)
            );
        }
    }
    if let Some(stopped) = stopped {
        complain!("error: {stopped}");
        return ExitCode::from(2);
    }
    if !optimal || radius > 0.0 || matched == total {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// One scenario's detail, and how many nodes its search expanded.
fn run_one(
    mesh: &NavMesh,
    s: &MeshScenario,
    (optimal, cost, radius): (bool, CostArg, f64),
) -> (MeshScenarioDetail, usize) {
    let mut expanded = 0;
    let length = if optimal && radius > 0.0 {
        crate::navmesh::radius::shortest_path_for_radius(mesh, s.start, s.goal, radius)
            .ok()
            .inspect(|p| expanded = p.nodes_popped)
            .filter(|p| p.is_found())
            .map(|p| p.cost)
    } else if optimal {
        let path = shortest_path(mesh, s.start, s.goal, &mut NoObserver);
        expanded = path.nodes_popped;
        path.is_found().then_some(path.cost)
    } else {
        let options = QueryOptions {
            cost: cost_model(cost),
            radius,
            ..QueryOptions::default()
        };
        find_path(
            mesh,
            s.start,
            s.goal,
            options,
            &mut NoObserver,
            &mut NoObserver,
        )
        .inspect(|p| expanded = p.expanded)
        .filter(|p| p.cost.is_finite())
        .map(|p| p.cost)
    };
    let matches = match (length, s.length) {
        (Some(got), Some(listed)) => matches_listed(got, listed),
        (None, None) => true,
        _ => false,
    };
    let excess = match (length, s.length) {
        (Some(got), Some(listed)) if (!optimal || radius > 0.0) && listed > 0.0 => {
            Some((got / listed - 1.0).max(0.0))
        }
        _ => None,
    };
    let detail = MeshScenarioDetail {
        line: s.line,
        bucket: s.bucket,
        start: point(s.start),
        goal: point(s.goal),
        listed: s.length,
        length,
        matches,
        excess,
    };
    (detail, expanded)
}
