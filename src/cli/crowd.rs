//! `navlab crowd`: a crowd run headless on a navmesh or a tile map (its navmesh), with what
//! became of every agent.

use crate::crowd::{Crowd, CrowdSettings, OVERLAP_TOLERANCE};
use crate::navmesh::NavMesh;
use crate::words::count;
use serde_json::json;
use std::process::ExitCode;
use std::sync::Arc;

/// What `navlab crowd` asks.
pub(super) struct CrowdQuery {
    pub agents: usize,
    pub seed: u64,
    pub ticks: usize,
    pub radius: f64,
    pub speed: f64,
    pub placement: crate::crowd::Placement,
    pub avoid: bool,
    pub read: crate::navmesh::ReadOptions,
    pub trace: Option<std::path::PathBuf>,
    pub json: bool,
}

/// A navmesh file as it is, a tile map as the navmesh of its free tiles.
fn load_world(
    path: &std::path::Path,
    read: crate::navmesh::ReadOptions,
) -> Result<NavMesh, ExitCode> {
    if crate::grid::is_map_path(path) && !crate::navmesh::is_mesh_path(path) {
        let map = super::grid::load_map(path)?;
        return crate::navmesh::from_map::navmesh_from_map(&map, 0.0).map_err(|error| {
            complain!(
                "error: {}: no navmesh from its free tiles: {error}",
                crate::input::shown(path)
            );
            ExitCode::from(2)
        });
    }
    super::mesh::load(path, read)
}

pub(super) fn crowd_command(path: &std::path::Path, query: CrowdQuery) -> ExitCode {
    if !(query.radius.is_finite() && query.radius > 0.0) {
        complain!(
            "error: --radius must be a positive number, not {}",
            query.radius
        );
        return ExitCode::from(2);
    }
    if !(query.speed.is_finite() && query.speed > 0.0 && query.speed <= 1e6) {
        complain!(
            "error: --speed must be a positive number, not {}",
            query.speed
        );
        return ExitCode::from(2);
    }
    let mesh = match load_world(path, query.read) {
        Ok(mesh) => Arc::new(mesh),
        Err(code) => return code,
    };
    let shown = crate::input::shown(path);
    let specs = Crowd::random_specs_in(
        &mesh,
        query.agents,
        query.radius,
        query.speed,
        query.seed,
        query.placement,
    );
    if specs.len() < query.agents {
        complain!(
            "error: {shown}: room for {} of radius {} only (starts and goals three radii apart, each with room for the radius, in their boxes when given, each goal on its start's island)",
            count(specs.len(), "agent"),
            crate::words::decimal(query.radius, 2)
        );
        return ExitCode::from(2);
    }
    let settings = CrowdSettings {
        avoid: query.avoid,
        ..CrowdSettings::default()
    };
    let mut crowd = Crowd::new(Arc::clone(&mesh), specs, settings);
    let started = crate::clock::Stopwatch::start();
    crowd.run(query.ticks);
    let elapsed = started.elapsed().as_secs_f64();
    let ticks = crowd.current().tick;
    let per_tick_ms = if ticks > 0 {
        1000.0 * elapsed / ticks as f64
    } else {
        0.0
    };
    let dt = settings.time_step;
    let agents = &crowd.current().agents;
    let travel: Vec<(usize, f64)> = agents
        .iter()
        .enumerate()
        .filter_map(|(k, a)| Some((k, a.arrived? as f64 * dt)))
        .collect();
    let mean = if travel.is_empty() {
        None
    } else {
        Some(travel.iter().map(|t| t.1).sum::<f64>() / travel.len() as f64)
    };
    let worst = travel.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
    // Collisions: pairs that overlap at some tick, counted once each.
    let mut pairs = std::collections::BTreeSet::new();
    for tick in 0..crowd.frames().len() {
        for (i, j, _) in crowd.overlaps(tick) {
            pairs.insert((i, j));
        }
    }
    let stuck: Vec<(usize, &crate::crowd::AgentState)> = agents
        .iter()
        .enumerate()
        .filter(|(_, a)| a.arrived.is_none() && a.stuck.is_some())
        .collect();
    if let Some(out) = &query.trace {
        let trace = crate::crowd::run_file::write(&crowd, &crate::input::file_label(path));
        if let Err(error) = crate::atomic::write_atomically(out, trace.to_string().as_bytes()) {
            complain!("error: {}: {error}", crate::input::shown(out));
            return ExitCode::from(2);
        }
    }
    let round = |v: f64| (v * 1000.0).round() / 1000.0;
    if query.json {
        say!(
            "{}",
            json!({
                "mesh": shown,
                "agents": agents.len(),
                "seed": query.seed,
                "radius": query.radius,
                "speed": query.speed,
                "avoid": query.avoid,
                "time_step": dt,
                "ticks": ticks,
                "arrived": travel.len(),
                "mean_travel_time": mean.map(round),
                "worst_travel_time": worst.map(|(k, t)| json!({"agent": k + 1, "seconds": round(t)})),
                "collisions": pairs.len(),
                "stuck": stuck.iter().map(|(k, a)| json!({
                    "agent": k + 1,
                    "at": [round(a.position.x), round(a.position.y)],
                    "reason": a.stuck,
                    "why": crowd.why_no_path(ticks, *k).map(|why| why.sentence()),
                })).collect::<Vec<_>>(),
                "ms_per_tick": round(per_tick_ms),
            })
        );
        return ExitCode::SUCCESS;
    }
    let decimal = |v: f64| crate::words::decimal(v, 2);
    say!(
        "{shown}: {} of radius {} at {} m/s (seed {}), {} of {} s{}",
        count(agents.len(), "agent"),
        decimal(query.radius),
        decimal(query.speed),
        query.seed,
        count(ticks, "tick"),
        decimal(dt),
        if query.avoid { "" } else { ", avoidance off" }
    );
    say!("arrived: {} of {}", travel.len(), agents.len());
    if let (Some(mean), Some((k, t))) = (mean, worst) {
        say!(
            "travel time: mean {} s, worst {} s (agent {})",
            decimal(mean),
            decimal(t),
            k + 1
        );
    }
    say!(
        "collisions: {} (pairs nearer than the sum of their radii less {} %)",
        pairs.len(),
        OVERLAP_TOLERANCE * 100.0
    );
    if stuck.is_empty() {
        say!("stuck: none");
    } else {
        say!("stuck: {}", stuck.len());
        for (k, a) in &stuck {
            if let Some(reason) = a.stuck {
                let why = crowd
                    .why_no_path(ticks, *k)
                    .map_or(String::new(), |why| format!(" ({})", why.sentence()));
                say!(
                    "  agent {} at ({}, {}): {}{why}",
                    k + 1,
                    decimal(a.position.x),
                    decimal(a.position.y),
                    reason.sentence()
                );
            }
        }
    }
    say!("{} ms per tick", decimal(per_tick_ms));
    ExitCode::SUCCESS
}
