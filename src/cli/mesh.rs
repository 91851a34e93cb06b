//! The mesh commands: `path` (a query, and its walk), `info`, `check` (the diagnostics, and the
//! repair), `convert` (OBJ and Polyanya) and `demo` (a walk-through of a built-in mesh).

use super::args::*;
use crate::geom::Vec2;
use crate::navmesh::{Location, NavMesh, PathStatus, QueryOptions, find_path};
use crate::search::NoObserver;
use crate::words::count;
use serde_json::json;
use std::process::ExitCode;

pub(super) fn demo_command(scene: SceneArg, cost: CostArg) -> ExitCode {
    use crate::assets;
    let scene = match scene {
        SceneArg::Rooms => assets::ROOMS,
        SceneArg::Maze => assets::MAZE,
        SceneArg::Hole => assets::HOLE,
        SceneArg::Stairs => assets::STAIRS,
    };
    let mesh = match scene.read(Default::default()) {
        Ok(mesh) => mesh,
        Err(error) => {
            complain!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let (from, to) = (scene.start_point(), scene.goal_point());
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

pub(super) fn load(
    mesh: &std::path::Path,
    read: crate::navmesh::ReadOptions,
) -> Result<NavMesh, ExitCode> {
    NavMesh::load_with(mesh, read).map_err(|error| {
        complain!("error: {error}");
        if crate::grid::is_map_path(mesh) {
            complain!(
                "hint: {} looks like a tile map: `navlab grid` searches it, `navlab mesh` builds a \
                 navmesh from it",
                crate::input::shown(mesh)
            );
        }
        ExitCode::from(2)
    })
}

/// What `navlab path` asks.
pub(super) struct PathQuery {
    pub from: Vec2,
    pub to: Vec2,
    pub cost: CostArg,
    pub read: crate::navmesh::ReadOptions,
    pub obstacles: super::cut::ObstacleArgs,
    pub area_costs: Vec<(String, f64)>,
    pub links: super::args::LinkArgs,
    pub optimal: bool,
    pub max_radius: bool,
    pub radius: f64,
    pub steps: bool,
    pub trace: Option<std::path::PathBuf>,
}

pub(super) fn path_command(
    mesh_path: &std::path::Path,
    query: PathQuery,
    walk: &WalkArgs,
    json: bool,
) -> ExitCode {
    let PathQuery {
        from,
        to,
        cost,
        read,
        obstacles,
        area_costs,
        links,
        optimal,
        max_radius,
        radius,
        steps,
        trace,
    } = query;
    let (mesh, shapes) = match obstacles.load_with_shapes(mesh_path, read) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    // The links go on first: a cut keeps them, placed again on the cut triangles.
    let mesh = match links.put_on(mesh, mesh_path) {
        Ok(mesh) => mesh,
        Err(code) => return code,
    };
    let mesh = if shapes.is_empty() {
        std::sync::Arc::new(mesh)
    } else {
        match super::cut::cut(mesh, shapes) {
            Ok(editor) => std::sync::Arc::clone(editor.mesh()),
            Err(message) => {
                complain!("error: {}: {message}", crate::input::shown(mesh_path));
                return ExitCode::from(2);
            }
        }
    };
    let area_costs = match super::cut::area_costs(&mesh, &area_costs) {
        Ok(costs) => costs,
        Err(message) => {
            complain!("error: {}: {message}", crate::input::shown(mesh_path));
            return ExitCode::from(2);
        }
    };
    if optimal && radius > 0.0 {
        return optimal_radius_command(&mesh, mesh_path, (from, to), radius, json);
    }
    if optimal {
        return optimal_path_command(&mesh, from, to, walk, json, &area_costs);
    }
    if max_radius {
        return max_radius_command(&mesh, mesh_path, from, to, json);
    }
    let options = QueryOptions {
        cost: cost_model(cost),
        area_costs,
        radius,
        ..QueryOptions::default()
    };
    // With --steps, the query recorded as the window records it.
    let recorded = (steps || trace.is_some())
        .then(|| crate::navmesh::timeline::Timeline::record(&mesh, from, to, options));
    let path = match &recorded {
        Some(timeline) => timeline.path.clone(),
        None => find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver),
    };
    let Some(path) = path else {
        complain!("error: start and goal must be finite numbers");
        return ExitCode::from(2);
    };
    let step_list = recorded.as_ref().map(step_list).unwrap_or_default();
    if let (Some(out), Some(timeline)) = (&trace, &recorded)
        && let Err(message) = write_mesh_trace(out, &mesh, &path, timeline)
    {
        complain!("error: {message}");
        return ExitCode::from(2);
    }
    let status = path.status.name();
    let walked = (walk.walk && path.status != PathStatus::Unreachable)
        .then(|| crate::navmesh::walk::walk_path(&path.waypoints, &path.segments, walk.options()));
    if json {
        let mut answer = path.to_json();
        if let Some(w) = &walked {
            answer["walk"] = w.to_json(&mesh);
        }
        if steps {
            answer["steps"] = step_list
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "phase": s.phase,
                        "pseudocode": s.listing.name(),
                        "text": s.text,
                        "line": s.lit.line,
                        "values": s.lit.values_json(),
                    })
                })
                .collect();
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
            PathStatus::Unreachable
                if radius > 0.0
                    && mesh.island_of(path.start.triangle)
                        == mesh.island_of(path.goal.triangle) =>
            {
                say!("{}", no_path_for_radius(&mesh, &path, radius));
                say!("triangles expanded: {}", path.expanded);
            }
            PathStatus::Unreachable => {
                say!(
                    "no path: start (triangle {}, island {}) and goal (triangle {}, island {}) are not connected",
                    path.start.triangle,
                    mesh.island_of(path.start.triangle) + 1,
                    path.goal.triangle,
                    mesh.island_of(path.goal.triangle) + 1
                );
                say!("triangles expanded: {}", path.expanded);
            }
            _ => {
                say!("status: {status}");
                let decimal = |v: f64| crate::words::decimal(v, 4);
                say!("length: {}", decimal(path.length));
                if radius > 0.0 {
                    say!(
                        "for an agent of radius {radius}: every point of the path keeps that far from the walls"
                    );
                }
                say!("waypoints ({}):", path.waypoints.len());
                for p in &path.waypoints {
                    say!("  {} {}", decimal(p.x), decimal(p.y));
                }
                if !path.arcs.is_empty() {
                    say!("arcs ({}), between the waypoints named:", path.arcs.len());
                    for arc in &path.arcs {
                        say!(
                            "  {} to {}: round {} {}, turning {}° {}",
                            arc.start + 1,
                            arc.start + 2,
                            decimal(arc.centre.x),
                            decimal(arc.centre.y),
                            crate::words::decimal(arc.sweep.abs().to_degrees(), 1),
                            if arc.sweep > 0.0 { "left" } else { "right" }
                        );
                    }
                }
                say_links_crossed(&path.segments, &path.waypoints, path.cost);
                say!("corridor: {} triangles", path.corridor.len());
                say!("triangles expanded: {}", path.expanded);
                if let Some(w) = &walked {
                    say!("{}", w.describe(&mesh));
                }
            }
        }
        if steps {
            say!("steps:");
            for (k, s) in step_list.iter().enumerate() {
                say!(
                    "  {}. {}   [{} line {}]",
                    k + 1,
                    s.text,
                    s.listing.name(),
                    s.lit.line
                );
            }
        }
    }
    if path.status == PathStatus::Unreachable {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes a query's A\* steps and funnel steps as a Posthoc trace: triangles drawn as polygons.
fn write_mesh_trace(
    out: &std::path::Path,
    mesh: &crate::navmesh::NavMesh,
    path: &crate::navmesh::Path,
    timeline: &crate::navmesh::timeline::Timeline,
) -> Result<(), String> {
    use crate::search::posthoc;
    let search = timeline.search_events();
    let funnel = timeline.funnel_events();
    let points = |t: usize| {
        let corners: Vec<serde_json::Value> = mesh
            .triangles()
            .get(t)
            .map(|_| mesh.corners(t))
            .into_iter()
            .flatten()
            .map(|p| serde_json::json!({"x": p.x, "y": p.y}))
            .collect();
        serde_json::json!({ "points": corners })
    };
    let mut trace = posthoc::export(
        &search,
        (path.start.triangle, path.goal.triangle),
        posthoc::NodeShape::Polygon,
        points,
    );
    if let Some(events) = trace.get_mut("events").and_then(|e| e.as_array_mut()) {
        events.extend(posthoc::funnel_events(&funnel));
    }
    crate::atomic::write_atomically(out, trace.to_string().as_bytes())
}

/// One recorded step of a corridor query, for `path --steps`.
struct ListedStep {
    phase: &'static str,
    listing: crate::search::pseudocode::Listing,
    text: String,
    lit: crate::search::pseudocode::LitLine,
}

/// A\*'s steps then the funnel's, each explained and placed on its line of pseudocode.
fn step_list(timeline: &crate::navmesh::timeline::Timeline) -> Vec<ListedStep> {
    use crate::navmesh::timeline::Step;
    use crate::search::pseudocode::{Listing, funnel_step};
    timeline
        .steps()
        .iter()
        .enumerate()
        .filter_map(|(k, step)| {
            let (phase, listing, lit) = match step {
                Step::Search(e) => (
                    "astar",
                    Listing::NavmeshAStar,
                    Listing::NavmeshAStar.search_step(e, |t| format!("triangle {t}"))?,
                ),
                Step::Funnel(e) => ("funnel", Listing::Funnel, funnel_step(e)),
                Step::Polyanya(_) => return None,
            };
            Some(ListedStep {
                phase,
                listing,
                text: timeline.explain(k),
                lit,
            })
        })
        .collect()
}

/// The links a path crosses, one line each, and its cost, when it crosses any.
fn say_links_crossed(
    segments: &[crate::navmesh::links::PathSegment],
    waypoints: &[Vec2],
    cost: f64,
) {
    let decimal = |v: f64| crate::words::decimal(v, 4);
    let crossed: Vec<_> = segments.iter().filter_map(|s| Some((s, s.link?))).collect();
    if crossed.is_empty() {
        return;
    }
    say!("links crossed ({}):", crossed.len());
    for (s, link) in crossed {
        let end = |k: usize| {
            waypoints.get(k).map_or_else(String::new, |p| {
                format!("{} {}", decimal(p.x), decimal(p.y))
            })
        };
        say!(
            "  {} link {}{}: {} to {}, cost {}",
            link.kind.name(),
            link.link,
            if link.reversed { " (back)" } else { "" },
            end(s.first),
            end(s.last),
            decimal(link.cost)
        );
    }
    say!("cost (walks plus links): {}", decimal(cost));
}

/// `navlab path --optimal`: the exact shortest path, in the shape `path` answers in, with the
/// search nodes Polyanya made. It is the shortest by distance: on a mesh whose areas cost
/// differently, the answer says that it ignores them and what it costs under them.
fn optimal_path_command(
    mesh: &crate::navmesh::NavMesh,
    from: Vec2,
    to: Vec2,
    walk: &WalkArgs,
    json: bool,
    area_costs: &crate::navmesh::areas::AreaCosts,
) -> ExitCode {
    use crate::navmesh::anyangle::shortest_path;
    let (Some(start), Some(goal)) = (mesh.locate(from), mesh.locate(to)) else {
        complain!("error: start and goal must be finite numbers");
        return ExitCode::from(2);
    };
    let path = shortest_path(mesh, from, to, &mut NoObserver);
    let status = if !path.is_found() && path.connected {
        // Start and goal are on one island: not out of reach, but not followed.
        "not_followed"
    } else if !path.is_found() {
        "unreachable"
    } else if start.snapped || goal.snapped {
        "snapped"
    } else {
        "found"
    };
    if path.over_budget {
        complain!(
            "error: the search stopped after {} nodes without reaching the goal",
            path.nodes_pushed
        );
        return ExitCode::from(2);
    }
    let walked = path
        .is_found()
        .then(|| crate::navmesh::walk::walk_path(&path.waypoints, &path.segments, walk.options()))
        .filter(|_| walk.walk);
    use crate::navmesh::gap::{areas_cost_differently, cost_along};
    let ignores_areas = areas_cost_differently(mesh, area_costs);
    let area_cost =
        (ignores_areas && path.is_found()).then(|| cost_along(mesh, area_costs, &path.waypoints));
    if json {
        let point = |p: Vec2| [p.x, p.y];
        let mut answer = serde_json::json!({
            "status": status,
            "length": path.is_found().then_some(path.length),
            "cost": path.is_found().then_some(path.cost),
            "waypoints": path.waypoints.iter().map(|&p| point(p)).collect::<Vec<_>>(),
            "segments": path.segments.iter().map(|s| s.to_json()).collect::<Vec<_>>(),
            "search_nodes": path.nodes_pushed,
            "start": point(start.point),
            "goal": point(goal.point),
            "ignores_area_costs": ignores_areas,
        });
        if let Some(cost) = area_cost {
            answer["area_cost"] = serde_json::json!(cost);
        }
        if let Some(w) = &walked {
            answer["walk"] = w.to_json(mesh);
        }
        say!("{answer}");
    } else if path.is_found() {
        let decimal = |v: f64| crate::words::decimal(v, 4);
        say!("status: {status} (the shortest path, by Polyanya)");
        say!("length: {}", decimal(path.length));
        if let Some(cost) = area_cost {
            say!(
                "cost under the area costs: {} (the shortest path by distance: Polyanya ignores area costs; without --optimal, A* weighs them)",
                decimal(cost)
            );
        }
        say!("waypoints ({}):", path.waypoints.len());
        for p in &path.waypoints {
            say!("  {} {}", decimal(p.x), decimal(p.y));
        }
        say_links_crossed(&path.segments, &path.waypoints, path.cost);
        say!("search nodes: {}", path.nodes_pushed);
        if let Some(w) = &walked {
            say!("{}", w.describe(mesh));
        }
    } else if path.connected {
        say!(
            "no shortest path found, though the start and the goal are on one island: the mesh folds over itself or has sliver faces there, which Polyanya cannot follow (without --optimal, A* finds a path; level geometry read whole is better read with --max-slope 45)"
        );
        say!("search nodes: {}", path.nodes_pushed);
    } else {
        say!("no path: the goal cannot be reached from the start");
        say!("search nodes: {}", path.nodes_pushed);
    }
    if path.is_found() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

pub(super) fn check_command(
    mesh_path: &std::path::Path,
    read: crate::navmesh::ReadOptions,
    strict: bool,
    repair_to: Option<&std::path::Path>,
    json: bool,
) -> ExitCode {
    use crate::navmesh::diagnose::{CheckOptions, Severity, check, check_raw, repair};
    let mesh = match load(mesh_path, read) {
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
            crate::input::shown(mesh_path),
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
                crate::input::shown(out)
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
            crate::input::shown(mesh_path),
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

pub(super) fn info_command(
    mesh_path: &std::path::Path,
    read: crate::navmesh::ReadOptions,
    json: bool,
) -> ExitCode {
    let mesh = match load(mesh_path, read) {
        Ok(m) => m,
        Err(code) => return code,
    };
    print_summary(&crate::input::shown(mesh_path), &mesh.summary(), json)
}

/// A point in words, to two places: "(6.00, 4.50)".
fn point(p: Vec2) -> String {
    let decimal = |v: f64| crate::words::decimal(v, 2);
    format!("({}, {})", decimal(p.x), decimal(p.y))
}

/// Why no path was found for an agent of `radius` between two points of one island: an end
/// with too little room, the portal that stops the radius on every route, or (when some route
/// has room) the corridor chosen being too narrow between its portals.
fn no_path_for_radius(mesh: &NavMesh, path: &crate::navmesh::Path, radius: f64) -> String {
    use crate::navmesh::widest::{RouteLimit, widest_route};
    let decimal = |v: f64| crate::words::decimal(v, 2);
    let route = widest_route(mesh, &path.start, &path.goal);
    let clearance = mesh.clearance();
    let end = |label: &str, at: Location| {
        format!(
            "no path for an agent of radius {}: the {label} {} has room for radius {} (a wall is that near)",
            decimal(radius),
            point(at.point),
            decimal(clearance.room(at.triangle, at.point))
        )
    };
    match route.limit {
        _ if clearance.room(path.start.triangle, path.start.point) < radius => {
            end("start", path.start)
        }
        _ if clearance.room(path.goal.triangle, path.goal.point) < radius => end("goal", path.goal),
        RouteLimit::Portal(edge) if route.radius < radius => {
            match clearance.portal_room(mesh, edge) {
                Some(p) => format!(
                    "no path for an agent of radius {}: every route crosses a portal as narrow as the one from {} to {}, which lets through radius {} at most (the largest agent from start to goal; `--max-radius`)",
                    decimal(radius),
                    point(p.from),
                    point(p.to),
                    decimal(route.radius)
                ),
                None => format!(
                    "no path for an agent of radius {}: the largest that goes from start to goal has radius {}",
                    decimal(radius),
                    decimal(route.radius)
                ),
            }
        }
        _ => format!(
            "no path found for an agent of radius {}: every portal of a route has room for it, but the corridor A* chose is narrower than that between two portals; `--optimal` searches exactly for the radius",
            decimal(radius)
        ),
    }
}

/// `navlab path --optimal --radius R`: the exact shortest path for an agent of radius R, on the
/// mesh shrunk by R.
fn optimal_radius_command(
    mesh: &NavMesh,
    mesh_path: &std::path::Path,
    (from, to): (Vec2, Vec2),
    radius: f64,
    json: bool,
) -> ExitCode {
    let path = match crate::navmesh::radius::shortest_path_for_radius(mesh, from, to, radius) {
        Ok(path) => path,
        Err(error) => {
            complain!("error: {}: {error}", crate::input::shown(mesh_path));
            return ExitCode::from(2);
        }
    };
    let decimal = |v: f64| crate::words::decimal(v, 4);
    if json {
        say!(
            "{}",
            json!({
                "status": if path.is_found() { "found" } else { "unreachable" },
                "radius": radius,
                "length": path.is_found().then_some(path.length),
                "waypoints": path.waypoints.iter().map(|&p| [p.x, p.y]).collect::<Vec<_>>(),
                "search_nodes": path.nodes_pushed,
            })
        );
    } else if path.is_found() {
        say!(
            "status: found (the shortest path for an agent of radius {radius}, by Polyanya on the mesh shrunk by it)"
        );
        say!("length: {}", decimal(path.length));
        say!("waypoints ({}):", path.waypoints.len());
        for p in &path.waypoints {
            say!("  {} {}", decimal(p.x), decimal(p.y));
        }
        say!("search nodes: {}", path.nodes_pushed);
    } else {
        say!(
            "no path for an agent of radius {}: an end has less room than that, or no way between them has room for it",
            decimal(radius)
        );
    }
    if path.is_found() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `navlab path --max-radius`: the largest agent from `from` to `to`, and what stops a larger.
fn max_radius_command(
    mesh: &NavMesh,
    mesh_path: &std::path::Path,
    from: Vec2,
    to: Vec2,
    json: bool,
) -> ExitCode {
    use crate::navmesh::widest::{RouteLimit, widest_route};
    let (Some(start), Some(goal)) = (mesh.locate(from), mesh.locate(to)) else {
        complain!(
            "error: {}: the start or the goal is not on the mesh",
            crate::input::shown(mesh_path)
        );
        return ExitCode::from(2);
    };
    let route = widest_route(mesh, &start, &goal);
    let portal = match route.limit {
        RouteLimit::Portal(edge) => mesh.clearance().portal_room(mesh, edge),
        _ => None,
    };
    let limit = match route.limit {
        RouteLimit::Portal(_) => "portal",
        RouteLimit::Start => "start",
        RouteLimit::Goal => "goal",
        RouteLimit::NoRoute => "no_route",
    };
    if json {
        say!(
            "{}",
            json!({
                "from": start.point,
                "to": goal.point,
                "max_radius": route.radius,
                "limit": limit,
                "portal": portal,
                "route": route.triangles,
            })
        );
        return ExitCode::SUCCESS;
    }
    let decimal = |v: f64| crate::words::decimal(v, 2);
    let what = match (route.limit, portal) {
        (RouteLimit::NoRoute, _) => {
            say!(
                "no route from {} to {}: they are on different islands",
                point(start.point),
                point(goal.point)
            );
            return ExitCode::SUCCESS;
        }
        (RouteLimit::Start, _) => "the start: a wall is that near it".to_owned(),
        (RouteLimit::Goal, _) => "the goal: a wall is that near it".to_owned(),
        (_, Some(p)) => format!(
            "the portal from {} to {} ({} long), crossed at its widest at {}",
            point(p.from),
            point(p.to),
            decimal(p.length),
            point(p.centre)
        ),
        (_, None) => "a portal".to_owned(),
    };
    say!(
        "the largest agent from {} to {} has radius {} ({} wide); what stops a larger one: {what}",
        point(start.point),
        point(goal.point),
        decimal(route.radius),
        decimal(2.0 * route.radius)
    );
    ExitCode::SUCCESS
}

/// `navlab clearance`: each island's widest disc and narrowest portals.
pub(super) fn clearance_command(
    mesh_path: &std::path::Path,
    read: crate::navmesh::ReadOptions,
    narrowest: usize,
    json: bool,
) -> ExitCode {
    let mesh = match load(mesh_path, read) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let shown = crate::input::shown(mesh_path);
    let islands = mesh.clearance().islands(&mesh, narrowest);
    if json {
        say!(
            "{}",
            serde_json::json!({
                "mesh": shown,
                "triangles": mesh.triangles().len(),
                "islands": islands,
            })
        );
        return ExitCode::SUCCESS;
    }
    let decimal = |v: f64| crate::words::decimal(v, 2);
    say!(
        "{shown}: {} triangles, {}",
        mesh.triangles().len(),
        count(islands.len(), "island")
    );
    for island in &islands {
        say!(
            "island {} ({}): the largest disc has radius {} at {}",
            island.island,
            count(island.triangles, "triangle"),
            decimal(island.widest),
            point(island.widest_at)
        );
        if island.narrowest.is_empty() {
            say!("  no portals");
            continue;
        }
        say!("  narrowest portals (the largest disc that crosses each):");
        for portal in &island.narrowest {
            say!(
                "  radius {} at {}: the portal from {} to {}, {} long",
                decimal(portal.clearance),
                point(portal.centre),
                point(portal.from),
                point(portal.to),
                decimal(portal.length)
            );
        }
    }
    ExitCode::SUCCESS
}

pub(super) fn convert_command(
    mesh_path: &std::path::Path,
    out: &std::path::Path,
    read: crate::navmesh::ReadOptions,
    triangles: bool,
    json: bool,
) -> ExitCode {
    let mesh = match load(mesh_path, read) {
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
                crate::input::shown(mesh_path),
                count(overlap.items.len(), "overlap")
            );
        }
        let [low, high] = mesh.summary().height_range;
        if high > low {
            complain!("note: heights ({low:.3} to {high:.3}) are left out: a Polyanya mesh is 2D");
        }
    }
    let comment = format!("{}, converted by navlab", crate::input::shown(mesh_path));
    if let Err(code) = write_mesh(&mesh, out, &comment, triangles) {
        return code;
    }
    print_summary(&crate::input::shown(out), &mesh.summary(), json)
}

/// Writes `mesh` to `out` atomically, in the format its extension names (see
/// [`NavMesh::to_file_text`]); exit 2 on failure.
pub(super) fn write_mesh(
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
        .map_err(|e| format!("{}: {e}", crate::input::shown(out)))
        .and_then(|text| crate::atomic::write_atomically(out, text.as_bytes()))
        .map_err(|error| {
            complain!("error: {error}");
            ExitCode::from(2)
        })
}

/// Prints a mesh's counts, as text under `name` or as one JSON object.
pub(super) fn print_summary(name: &str, s: &crate::navmesh::MeshSummary, json: bool) -> ExitCode {
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
        if s.plane_from_file {
            say!(
                "plane:              {} (the file is flat in the {} plane asked for)",
                s.plane.name(),
                s.plane.other().name()
            );
        } else {
            say!("plane:              {}", s.plane.name());
        }
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
        let w = &s.walkable;
        if let Some(max_slope) = w.max_slope {
            say!(
                "walkable:           {} faces ({} triangles, area {:.3}) within {}° of up{}; {} faces ({} triangles, area {:.3}) left out",
                w.walkable_faces,
                w.walkable_triangles,
                w.walkable_area,
                max_slope,
                if w.flipped {
                    ", the file read as wound the other way"
                } else {
                    ""
                },
                w.dropped_faces,
                w.dropped_triangles,
                w.dropped_area
            );
        } else if s.level_geometry_share > 0.5 {
            say!(
                "note:               {:.0} % of the area is steeper than 45° or faces down: this looks like level geometry, not a navmesh; `--max-slope 45` keeps the floors",
                100.0 * s.level_geometry_share
            );
        }
        if let Some(shrunk) = &s.agent_radius {
            say!(
                "agent radius:       {}: {:.1} % of the area left{}{}",
                shrunk.radius,
                100.0 * s.area / shrunk.area_before.max(f64::MIN_POSITIVE),
                if shrunk.stacked.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; {} with stacked floors shrunk floor by floor",
                        count(shrunk.stacked.len(), "island")
                    )
                },
                if shrunk.vanished.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; {} too narrow for it",
                        count(shrunk.vanished.len(), "island")
                    )
                }
            );
            for passage in &shrunk.closed {
                say!(
                    "  passage closed at {} (the pieces {:.3} apart)",
                    passage.at,
                    passage.gap
                );
            }
        }
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
