//! The tile-map commands: `grid` (one search), `scen` (a MovingAI scenario file), `compare`
//! (every algorithm), `partitions` (the four partitions) and `mesh` (a navmesh of the map).

use super::args::*;
use super::mesh::{print_summary, write_mesh};
use crate::search::{MAX_RECORDED_STEPS, NoObserver, WorkLimit};
use crate::words::thousands;
use serde_json::json;
use std::process::ExitCode;

/// Why an agent cannot start or end at `cell` (`label`: "start" or "goal"), if it cannot.
pub(super) fn endpoint_problem(
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

pub(super) fn partitions_command(cells: &MapCellsArgs, connectivity: u8, json: bool) -> ExitCode {
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

/// What `navlab grid` prints and writes besides the answer.
pub(super) struct GridOutputs {
    /// Every step explained.
    pub steps: bool,
    /// A Posthoc trace to write.
    pub trace: Option<std::path::PathBuf>,
    /// A Posthoc trace to compare with.
    pub against: Option<std::path::PathBuf>,
    /// JSON instead of text.
    pub json: bool,
}

/// D* Lite's repair asked of `navlab grid`: steps walked, then tiles painted.
pub(super) struct Repair {
    /// Steps the agent walks along the path first.
    pub walk: usize,
    /// The tiles painted then.
    pub paint: Vec<((usize, usize), crate::grid::Tile)>,
}

impl Repair {
    fn asked(&self) -> bool {
        self.walk > 0 || !self.paint.is_empty()
    }
}

/// What a repair did, for the report.
struct RepairDone {
    walked: usize,
    agent: (usize, usize),
    work: crate::grid::dstar_lite::Repair,
    fresh_astar: usize,
    path: Option<(Vec<(usize, usize)>, f64)>,
}

/// D* Lite from `from` to `to`, worked out; the agent's walk; the edits and the repair,
/// reported to `observer`; and what a fresh A* on the edited map from where the agent stands
/// expands, to set beside it.
fn repair_dstar_lite<O: crate::search::Observer<crate::search::SearchEvent>>(
    map: &crate::grid::TileMap,
    (from, to): ((usize, usize), (usize, usize)),
    connectivity: crate::grid::Connectivity,
    repair: &Repair,
    limit: u64,
    observer: &mut O,
) -> Option<RepairDone> {
    use crate::grid::dstar_lite::DStarLite;
    let mut search = DStarLite::new(map, from, to, connectivity)?;
    search.compute();
    let mut walked = 0;
    while walked < repair.walk {
        match search.path().and_then(|(path, _)| path.get(1).copied()) {
            Some(next) => search.move_to(next),
            None => break,
        }
        walked += 1;
    }
    for &(cell, tile) in &repair.paint {
        search.set_tile_with(cell, tile, observer);
    }
    let repaired = search.compute_to_end(&mut WorkLimit::new(observer, limit));
    Some(RepairDone {
        walked,
        agent: search.start(),
        work: repaired.work,
        fresh_astar: search.fresh_astar_expansions(limit),
        path: repaired.path,
    })
}

pub(super) fn grid_command(
    cells: &MapCellsArgs,
    search: &GridSearchArgs,
    outputs: GridOutputs,
    repair: &Repair,
) -> ExitCode {
    use crate::grid::grid_search;
    let GridOutputs {
        steps,
        trace: trace_out,
        against,
        json,
    } = outputs;
    let (from, to) = (cells.from, cells.to);
    let map = match cells.load() {
        Ok(map) => map,
        Err(code) => return code,
    };
    // Their trace first: a file that cannot be read is bad input, whatever the search finds.
    let theirs = match &against {
        Some(path) => match read_trace(path, map.width() * map.height()) {
            Ok(steps) => Some(steps),
            Err(code) => return code,
        },
        None => None,
    };
    let algorithm = search.algorithm();
    if repair.asked() && algorithm != crate::grid::GridAlgorithm::DStarLite {
        complain!("error: --walk-steps and --paint repair a D* Lite search: add --algo dstar-lite");
        return ExitCode::from(2);
    }
    if let Some(((x, y), _)) = repair
        .paint
        .iter()
        .find(|(cell, _)| map.get(*cell).is_none())
    {
        complain!(
            "error: --paint {x},{y}: off the map ({} columns × {} rows)",
            map.width(),
            map.height()
        );
        return ExitCode::from(2);
    }
    let limit = search.tuning.work_limit;
    let mut recording = Recording {
        on: steps || trace_out.is_some() || theirs.is_some(),
        ..Recording::default()
    };
    let result = grid_search(
        &map,
        from,
        to,
        algorithm,
        search.connectivity(),
        &mut WorkLimit::new(&mut recording, limit),
    );
    let repaired = if repair.asked() && !recording.full {
        repair_dstar_lite(
            &map,
            (from, to),
            search.connectivity(),
            repair,
            limit,
            &mut recording,
        )
    } else {
        None
    };
    if recording.full {
        complain!(
            "error: {}: the search took more than {} steps, the most --steps, --trace and \
             --against record; without them the search runs to its end (or choose nearer cells)",
            crate::input::shown(&cells.map),
            thousands(MAX_RECORDED_STEPS)
        );
        return ExitCode::from(2);
    }
    if result.outcome == crate::search::SearchOutcome::BudgetExceeded {
        let (work, flag) = match algorithm {
            crate::grid::GridAlgorithm::IdaStar { budget, .. } => {
                (format!("{} nodes", thousands(budget)), "--budget")
            }
            _ => (
                format!(
                    "{} visits",
                    thousands(usize::try_from(limit).unwrap_or(usize::MAX))
                ),
                "--work-limit",
            ),
        };
        complain!("note: the search gave up after {work}, its budget ({flag} sets it; 0 lifts it)");
    }
    let trace = recording.events;
    let width = map.width();
    let explained: Vec<String> = trace.iter().map(|e| algorithm.explain(e, width)).collect();
    // Where each step is in `navlab pseudocode`'s listing of the algorithm.
    let listing = algorithm.kind().listing();
    let cell = |i: usize| format!("{},{}", i % width.max(1), i / width.max(1));
    let lit: Vec<Option<crate::search::pseudocode::LitLine>> =
        trace.iter().map(|e| listing.search_step(e, cell)).collect();
    let status = result.outcome.name();
    if json {
        let mut report = result.to_json();
        if steps {
            report["pseudocode"] = json!(listing.name());
            report["steps"] = explained
                .iter()
                .zip(&lit)
                .map(|(text, lit)| {
                    json!({
                        "text": text,
                        "line": lit.as_ref().map(|l| l.line),
                        "values": lit.as_ref().map(|l| l.values_json()),
                    })
                })
                .collect();
        }
        if let Some(done) = &repaired {
            report["repair"] = json!({
                "walked": done.walked,
                "agent": [done.agent.0, done.agent.1],
                "painted": repair.paint.len(),
                "status": if done.path.is_some() { "found" } else if done.work.gave_up { "budget_exceeded" } else { "unreachable" },
                "length": done.path.as_ref().map(|(_, cost)| *cost),
                "path": done.path.as_ref().map_or(Vec::new(), |(path, _)| path.iter().map(|&(x, y)| [x, y]).collect()),
                "expanded": done.work.expanded,
                "updated": done.work.updated,
                "fresh_astar_expanded": done.fresh_astar,
            });
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
        if let Some(done) = &repaired {
            say!(
                "repair: the agent walked {} steps to {},{}; {} tiles painted",
                done.walked,
                done.agent.0,
                done.agent.1,
                repair.paint.len()
            );
            match &done.path {
                Some((path, cost)) => {
                    say!("repaired length: {cost:.6}");
                    let cells: Vec<String> = path.iter().map(|(x, y)| format!("{x},{y}")).collect();
                    say!("repaired path ({} cells):", path.len());
                    say!("  {}", cells.join(" "));
                }
                None if done.work.gave_up => say!("repaired: gave up (budget)"),
                None => say!("repaired: no path from the agent"),
            }
            say!(
                "repair work: {} cells taken from the open list, {} look-aheads worked out; a fresh A* from the agent expands {}",
                done.work.expanded,
                done.work.updated,
                done.fresh_astar
            );
        }
        if steps {
            say!("steps:");
            for (i, (line, lit)) in explained.iter().zip(&lit).enumerate() {
                match lit {
                    Some(lit) => say!("  {}. {line}   [line {}]", i + 1, lit.line),
                    None => say!("  {}. {line}", i + 1),
                }
            }
        }
    }
    if let Some(path) = &trace_out {
        let width = map.width().max(1);
        let written = crate::search::posthoc::export(
            &trace,
            (map.index(from), map.index(to)),
            crate::search::posthoc::NodeShape::Cell,
            |i| json!({"x": i % width, "y": i / width}),
        );
        if let Err(message) = crate::atomic::write_atomically(path, written.to_string().as_bytes())
        {
            complain!("error: {message}");
            return ExitCode::from(2);
        }
    }
    if let Some(theirs) = &theirs {
        let width = map.width().max(1);
        let cell = |i: usize| format!("{},{}", i % width, i / width);
        match crate::search::posthoc::first_difference(&trace, theirs) {
            None => complain!(
                "the trace expands the same {} cells in the same order",
                crate::search::posthoc::expansions(theirs).len()
            ),
            Some((k, ours, other)) => {
                let name =
                    |n: Option<usize>| n.map_or_else(|| "nothing (stopped)".to_string(), cell);
                complain!(
                    "first different expansion: #{k}: ours {}, theirs {}",
                    name(ours),
                    name(other)
                );
                return ExitCode::from(1);
            }
        }
    }
    if result.outcome == crate::search::SearchOutcome::Found {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The steps of one search when `on`, up to [`MAX_RECORDED_STEPS`]: past them the search is
/// stopped.
#[derive(Default)]
struct Recording {
    on: bool,
    events: Vec<crate::search::SearchEvent>,
    full: bool,
}

impl crate::search::Observer<crate::search::SearchEvent> for Recording {
    fn event(&mut self, event: crate::search::SearchEvent) {
        if self.on && self.events.len() < MAX_RECORDED_STEPS {
            self.events.push(event);
        } else if self.on {
            self.full = true;
        }
    }

    fn stop(&self) -> bool {
        self.full
    }
}

/// Reads a Posthoc trace on a search space of `nodes` nodes; errors are said with the file
/// and line (exit 2).
pub(super) fn read_trace(
    path: &std::path::Path,
    nodes: usize,
) -> Result<Vec<crate::search::SearchEvent>, ExitCode> {
    crate::search::posthoc::read(path, nodes).map_err(|message| {
        complain!("error: {message}");
        ExitCode::from(2)
    })
}

pub(super) fn compare_command(
    cells: &MapCellsArgs,
    tuning: &GridTuningArgs,
    json: bool,
) -> ExitCode {
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
        tuning.work_limit,
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
        // The names' column as wide as the longest ("Bidirectional A*", "JPS+ (as A*)").
        let name_width = rows
            .iter()
            .map(|r| r.name.chars().count())
            .chain(std::iter::once("algorithm".len()))
            .max()
            .unwrap_or(10);
        say!(
            "{:<name_width$} {:>17} {:>12} {:>8} {:>12} {:>12} {:>12}  status",
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
            let cost = match (r.cost.is_finite(), r.over_exact) {
                (false, _) => "—".to_string(),
                (true, Some(gap)) => format!("{:.4} (+{:.1}%)", r.cost, 100.0 * gap),
                (true, None) => format!("{:.4}", r.cost),
            };
            say!(
                "{:<name_width$} {:>17} {:>12} {:>8} {:>12} {:>12} {:>12}  {}",
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

/// The tighter of two expansion limits, where 0 is none.
fn tighter_limit(a: u64, b: u64) -> u64 {
    match (a, b) {
        (0, b) => b,
        (a, 0) => a,
        (a, b) => a.min(b),
    }
}

pub(super) fn scen_command(
    scen_path: &std::path::Path,
    map_path: Option<&std::path::Path>,
    search: &GridSearchArgs,
    max_expansions: u64,
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
                        crate::input::shown(scen_path)
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
            crate::input::shown(scen_path),
            other.line,
            other.map_size.0,
            other.map_size.1,
            other.map,
            crate::input::shown(&map_path),
            size.0,
            size.1
        );
    }
    let progress = super::progress::Progress::new(scenarios.len(), "scenarios");
    let (mut spent, mut ran) = (0u64, 0usize);
    for s in &scenarios {
        if max_expansions > 0 && spent >= max_expansions {
            break;
        }
        ran += 1;
        progress.step();
        let problem = endpoint_problem(&map, "start", s.start)
            .or_else(|| endpoint_problem(&map, "goal", s.goal));
        // Each search stops at its own limit, and where the file's budget runs out.
        let left = if max_expansions > 0 {
            max_expansions - spent
        } else {
            0
        };
        let limit = tighter_limit(search.tuning.work_limit, left);
        let result = match problem {
            None => grid_search_with_scratch(
                &mut scratch,
                &map,
                s.start,
                s.goal,
                algorithm,
                search.connectivity(),
                &mut WorkLimit::new(&mut NoObserver, limit),
            ),
            Some(_) => crate::grid::GridPath {
                outcome: crate::search::SearchOutcome::Unreachable,
                path: Vec::new(),
                cost: f64::INFINITY,
                expanded: 0,
                peak_memory: 0,
            },
        };
        spent = spent.saturating_add(result.expanded as u64);
        let ok = result.cost.is_finite() && matches_six_digits(result.cost, s.optimal);
        matched += usize::from(ok);
        budget_exceeded +=
            usize::from(result.outcome == crate::search::SearchOutcome::BudgetExceeded);
        let status = match &problem {
            Some(_) => "invalid",
            None => result.outcome.name(),
        };
        let detail = ScenarioDetail {
            line: s.line,
            bucket: s.bucket,
            start: [s.start.0, s.start.1],
            goal: [s.goal.0, s.goal.1],
            optimal: s.optimal,
            length: result.cost.is_finite().then_some(result.cost),
            status,
            expanded: result.expanded,
            peak_memory: result.peak_memory,
            matches: ok,
            problem,
        };
        // Text lists the first mismatches only.
        if json || (!ok && details.len() < 20) {
            details.push(detail);
        }
    }
    drop(progress);
    let total = ran;
    let stopped = (ran < scenarios.len())
        .then(|| super::budget_spent(scen_path, ran, scenarios.len(), spent, max_expansions));
    if json {
        say!(
            "{}",
            json!({
                "scen": scen_path.display().to_string(),
                "map": map_path.display().to_string(),
                "algorithm": algorithm.name(),
                "scenarios": total,
                "in_file": scenarios.len(),
                "matched": matched,
                "mismatched": total - matched,
                "budget_exceeded": budget_exceeded,
                "details": details,
            })
        );
    } else {
        say!(
            "{}: {matched} of {total} scenarios match the listed optimal length ({}, map {})",
            crate::input::shown(scen_path),
            algorithm.name(),
            crate::input::shown(&map_path)
        );
        if budget_exceeded > 0 {
            say!("{budget_exceeded} gave up at the node budget (--budget)");
        }
        for d in &details {
            let why = match &d.problem {
                Some(problem) => problem.clone(),
                None => match d.length {
                    Some(length) => format!("got {length} ({})", d.status),
                    None => format!("got null ({})", d.status),
                },
            };
            say!(
                "  line {}: [{},{}] → [{},{}]: listed {}, {why}",
                d.line,
                d.start[0],
                d.start[1],
                d.goal[0],
                d.goal[1],
                d.optimal
            );
        }
    }
    if let Some(stopped) = stopped {
        complain!("error: {stopped}");
        return ExitCode::from(2);
    }
    if matched == total {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// What `navlab scen` reports of one scenario (a struct, not a JSON value: a scenario file
/// may hold a million of them).
#[derive(serde::Serialize)]
struct ScenarioDetail {
    line: usize,
    bucket: u32,
    start: [usize; 2],
    goal: [usize; 2],
    optimal: f64,
    length: Option<f64>,
    status: &'static str,
    expanded: usize,
    peak_memory: usize,
    matches: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<String>,
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

pub(super) fn load_map(path: &std::path::Path) -> Result<crate::grid::TileMap, ExitCode> {
    crate::grid::movingai::load_any(path).map_err(|error| {
        complain!("error: {error}");
        let mesh_like = crate::navmesh::polyanya::is_polyanya_path(path)
            || path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("obj"));
        if mesh_like {
            complain!(
                "hint: {} looks like a navmesh: `navlab path` searches it",
                crate::input::shown(path)
            );
        }
        ExitCode::from(2)
    })
}

pub(super) fn mesh_command(
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
            complain!("error: {}: {error}", crate::input::shown(map_path));
            return ExitCode::from(2);
        }
    };
    let comment = format!(
        "{} as a navmesh by navlab: the passable tiles{}, one unit per tile (x = column, z = row)",
        crate::input::shown(map_path),
        if used > 0.0 {
            format!(" kept {used} clear of walls and the edge (agent radius)")
        } else {
            String::new()
        }
    );
    if let Err(code) = write_mesh(&mesh, out, &comment, triangles) {
        return code;
    }
    print_summary(&crate::input::shown(out), &mesh.summary(), json)
}
