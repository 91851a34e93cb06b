//! A crowd's run as a file, written for two readers at once: Posthoc (ShortestPathLab's
//! visualiser of search traces, version 1.4.0) plays it as it plays a search — the mesh's walls
//! drawn once, then every tick's agents as circles, cleared at the next — and navlab reopens it
//! on the mesh it ran on: the agents and settings (the `navlab_crowd` section Posthoc does not
//! read) start the same crowd again, which replays bit for bit, and every recorded tick is
//! checked against the replay.
//!
//! A file comes from anyone: its size is bounded by the caller, every number is checked for
//! range before anything runs, the agents and recorded ticks are counted against
//! [`MAX_AGENTS`] and [`MAX_RECORDED`], and an error says where and what, never echoing the
//! file's text.

use super::{AgentSpec, Crowd, CrowdSettings};
use crate::geom::Vec2;
use crate::navmesh::NavMesh;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// What the `navlab_crowd` section's `format` says.
pub const FORMAT: &str = "navlab crowd run";

/// The Posthoc trace format version written.
pub const POSTHOC_VERSION: &str = "1.4.0";

/// Most agents a run file may hold.
pub const MAX_AGENTS: usize = 10_000;

/// Most agent positions (agents × ticks) a run file may record.
pub const MAX_RECORDED: usize = 20_000_000;

/// Two positions farther apart than this (in mesh units, relative to the larger coordinate
/// and at least 1) are not the same: the replay differs from the recording.
pub const SAME_POSITION: f64 = 1e-9;

/// True for the name of a crowd run file: `*.crowd.trace.json` (which Posthoc takes as a
/// trace) or `*.crowd.json`.
pub fn is_run_path(path: &std::path::Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".crowd.json") || name.ends_with(".crowd.trace.json")
}

/// The run of `crowd` so far as a file's JSON (see the module): `mesh` names the mesh it ran
/// on, for the reader.
pub fn write(crowd: &Crowd, mesh: &str) -> Value {
    let point = |p: Vec2| json!({"x": p.x, "y": p.y});
    let mut events: Vec<Value> = crowd
        .walls(0)
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| {
            json!({"type": "wall", "id": format!("w{}", k + 1), "points": [point(a), point(b)]})
        })
        .collect();
    for frame in crowd.frames() {
        let agents: Vec<Value> = frame
            .agents
            .iter()
            .zip(crowd.specs())
            .map(|(a, spec)| {
                let state = if a.arrived.is_some() {
                    "arrived"
                } else if a.stuck.is_some() {
                    "stuck"
                } else {
                    "moving"
                };
                json!({
                    "x": a.position.x,
                    "y": a.position.y,
                    "vx": a.velocity.x,
                    "vy": a.velocity.y,
                    "radius": spec.radius,
                    "state": state,
                })
            })
            .collect();
        events.push(json!({"type": "tick", "id": format!("t{}", frame.tick), "tick": frame.tick, "agents": agents}));
    }
    let agent = "$.agents[$.i]";
    json!({
        "version": POSTHOC_VERSION,
        "views": {"main": [
            {
                "$": "path",
                "points": "${{ $.points }}",
                "fill": "#8c8c8c",
                "line-width": 0.05,
                "$if": "${{ $.type == 'wall' }}",
            },
            {
                "$": "circle",
                "x": format!("${{{{ {agent}.x }}}}"),
                "y": format!("${{{{ {agent}.y }}}}"),
                "radius": format!("${{{{ {agent}.radius }}}}"),
                "fill": format!("${{{{ {agent}.state == 'stuck' ? '#ff5a5a' : {agent}.state == 'arrived' ? '#78dc78' : '#5ac8ff' }}}}"),
                "clear": true,
                "$if": "${{ $.type == 'tick' }}",
                "$for": {"$let": "i", "$from": 0, "$to": "${{ $.type == 'tick' ? $.agents.length : 0 }}"},
            },
        ]},
        "events": events,
        "navlab_crowd": {
            "format": FORMAT,
            "mesh": mesh,
            "mesh_changes": crowd.mesh_changes(),
            "settings": crowd.settings(),
            "agents": crowd.specs(),
        },
    })
}

/// A run read from a file: what starts it again, and where every agent was at every tick
/// recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRun {
    /// The mesh it ran on, as the file names it.
    pub mesh: String,
    /// The agents.
    pub specs: Vec<AgentSpec>,
    /// The settings.
    pub settings: CrowdSettings,
    /// Every agent's position at every tick recorded, tick 0 first.
    pub positions: Vec<Vec<Vec2>>,
}

/// Why a run file was not read. The reader adds the file's name.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunFileError {
    /// Not JSON, or not shaped as a run file.
    #[error("line {line}, column {column}: {problem}")]
    Json {
        /// Where (1-based).
        line: usize,
        /// Where on the line (1-based).
        column: usize,
        /// What was wrong, without the file's text.
        problem: String,
    },
    /// JSON, but not a navlab crowd run (a search trace, another program's file).
    #[error("not a navlab crowd run (no navlab_crowd section saying \"{FORMAT}\")")]
    NotARun,
    /// A value outside what a run takes.
    #[error("{0}")]
    Invalid(String),
}

#[derive(Deserialize)]
struct FileIn {
    navlab_crowd: Option<SectionIn>,
    #[serde(default)]
    events: Vec<EventIn>,
}

#[derive(Deserialize)]
struct SectionIn {
    format: String,
    #[serde(default)]
    mesh: String,
    #[serde(default)]
    mesh_changes: Vec<usize>,
    settings: CrowdSettings,
    agents: Vec<AgentSpec>,
}

#[derive(Deserialize)]
#[serde(tag = "type")]
enum EventIn {
    #[serde(rename = "tick")]
    Tick { tick: usize, agents: Vec<AgentIn> },
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct AgentIn {
    x: f64,
    y: f64,
}

/// Reads a run file's bytes (the caller bounds their size).
pub fn read(bytes: &[u8]) -> Result<RecordedRun, RunFileError> {
    let file: FileIn = serde_json::from_slice(bytes).map_err(|e| RunFileError::Json {
        line: e.line(),
        column: e.column(),
        problem: crate::input::json_problem(&e),
    })?;
    let section = file
        .navlab_crowd
        .filter(|s| s.format == FORMAT)
        .ok_or(RunFileError::NotARun)?;
    let invalid = |what: String| Err(RunFileError::Invalid(what));
    if section.agents.is_empty() || section.agents.len() > MAX_AGENTS {
        return invalid(format!(
            "a run holds 1 to {MAX_AGENTS} agents, not {}",
            section.agents.len()
        ));
    }
    if !section.mesh_changes.is_empty() {
        return invalid(
            "the mesh changed during this run (a door closed, an obstacle cut): the file does not hold the meshes to replay it on"
                .to_owned(),
        );
    }
    check_settings(&section.settings).map_err(RunFileError::Invalid)?;
    for (k, spec) in section.agents.iter().enumerate() {
        check_spec(spec)
            .map_err(|what| RunFileError::Invalid(format!("agent {}: {what}", k + 1)))?;
    }
    let mut positions = Vec::new();
    let mut recorded = 0usize;
    for event in file.events {
        let EventIn::Tick { tick, agents } = event else {
            continue;
        };
        if tick != positions.len() {
            return invalid(format!(
                "tick {tick} recorded where tick {} was due (ticks go 0, 1, 2, …)",
                positions.len()
            ));
        }
        if agents.len() != section.agents.len() {
            return invalid(format!(
                "tick {tick} records {} agents, the run has {}",
                agents.len(),
                section.agents.len()
            ));
        }
        recorded = recorded.saturating_add(agents.len());
        if recorded > MAX_RECORDED {
            return invalid(format!("more than {MAX_RECORDED} agent positions recorded"));
        }
        let at: Vec<Vec2> = agents.iter().map(|a| Vec2::new(a.x, a.y)).collect();
        if at.iter().any(|p| !finite_coordinate(*p)) {
            return invalid(format!(
                "tick {tick} records a position that is not a finite coordinate"
            ));
        }
        positions.push(at);
    }
    if positions.is_empty() {
        return invalid("no tick recorded".to_owned());
    }
    Ok(RecordedRun {
        mesh: crate::input::printable(&section.mesh),
        specs: section.agents,
        settings: section.settings,
        positions,
    })
}

fn finite_coordinate(p: Vec2) -> bool {
    p.x.abs() <= crate::input::MAX_COORDINATE && p.y.abs() <= crate::input::MAX_COORDINATE
}

/// `value` lies in `low..=high` (false for NaN).
fn within(value: f64, low: f64, high: f64) -> bool {
    value >= low && value <= high
}

fn check_spec(spec: &AgentSpec) -> Result<(), String> {
    if !finite_coordinate(spec.start) || !finite_coordinate(spec.goal) {
        return Err("its start and goal must be finite coordinates".to_owned());
    }
    if !(spec.radius > 0.0 && spec.radius <= 1e3) {
        return Err(format!(
            "its radius must be above 0 and at most 1000, not {}",
            spec.radius
        ));
    }
    if !(spec.preferred_speed > 0.0 && spec.preferred_speed <= 1e6) {
        return Err(format!(
            "its preferred speed must be above 0 and at most 1000000, not {}",
            spec.preferred_speed
        ));
    }
    if !within(spec.max_speed, spec.preferred_speed, 1e6) {
        return Err(format!(
            "its top speed must be from its preferred speed to 1000000, not {}",
            spec.max_speed
        ));
    }
    Ok(())
}

fn check_settings(settings: &CrowdSettings) -> Result<(), String> {
    let a = &settings.avoidance;
    let checks = [
        ("time_step", settings.time_step, 1e-4, 1.0),
        ("stray_distance", settings.stray_distance, 1e-6, 1e9),
        ("personal_space", settings.personal_space, 0.0, 10.0),
        ("stuck_progress", settings.stuck_progress, 0.0, 1e9),
        ("time_horizon", a.time_horizon, 1e-3, 1e3),
        ("wall_time_horizon", a.wall_time_horizon, 1e-3, 1e3),
        ("neighbour_distance", a.neighbour_distance, 0.0, 1e9),
    ];
    for (name, value, low, high) in checks {
        if !within(value, low, high) {
            return Err(format!(
                "the setting {name} must be from {low} to {high}, not {value}"
            ));
        }
    }
    if a.max_neighbours > 1000 {
        return Err(format!(
            "the setting max_neighbours must be at most 1000, not {}",
            a.max_neighbours
        ));
    }
    if settings.stuck_ticks == 0 || settings.stuck_ticks > 1_000_000 {
        return Err(format!(
            "the setting stuck_ticks must be from 1 to 1000000, not {}",
            settings.stuck_ticks
        ));
    }
    Ok(())
}

/// Where a replay first left its recording.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    /// The first tick at which some agent is elsewhere.
    pub tick: usize,
    /// The first such agent (from 0).
    pub agent: usize,
    /// How far from where the file has it.
    pub distance: f64,
}

/// The crowd of `run` started again on `mesh` and run for as many ticks as were recorded, and
/// the first tick at which it is not where the recording has it (none: the same run).
pub fn replay(mesh: Arc<NavMesh>, run: &RecordedRun) -> (Crowd, Option<Difference>) {
    let mut crowd = Crowd::new(mesh, run.specs.clone(), run.settings);
    crowd.run(run.positions.len().saturating_sub(1));
    let difference = first_difference(&crowd, run);
    (crowd, difference)
}

/// The first tick at which `crowd` is not where `run` recorded it, or where one of them stops
/// before the other.
pub fn first_difference(crowd: &Crowd, run: &RecordedRun) -> Option<Difference> {
    for (tick, recorded) in run.positions.iter().enumerate() {
        let Some(frame) = crowd.frames().get(tick) else {
            // The replay finished (everyone arrived) before the recording did.
            return Some(Difference {
                tick,
                agent: 0,
                distance: f64::INFINITY,
            });
        };
        for (agent, (state, &at)) in frame.agents.iter().zip(recorded).enumerate() {
            let distance = state.position.distance(at);
            let scale = 1.0_f64.max(at.x.abs()).max(at.y.abs());
            // A NaN distance is no match either.
            if distance.is_nan() || distance > SAME_POSITION * scale {
                return Some(Difference {
                    tick,
                    agent,
                    distance,
                });
            }
        }
    }
    None
}

/// What is said of a replay: the same run, or where it left the recording.
pub fn replay_sentence(run: &RecordedRun, difference: Option<Difference>) -> String {
    let ticks = run.positions.len().saturating_sub(1);
    match difference {
        None => format!(
            "Replayed {} agents for {ticks} ticks: every position as recorded.",
            run.specs.len()
        ),
        Some(d) if d.distance.is_infinite() => format!(
            "The replay ends at tick {} (every agent there) where the recording goes on: it was made on another mesh or by another version of navlab.",
            d.tick.saturating_sub(1)
        ),
        Some(d) => format!(
            "The replay leaves the recording at tick {}: agent {} is {:.3} from where the file has it (another mesh, or another version of navlab).",
            d.tick,
            d.agent + 1,
            d.distance
        ),
    }
}
