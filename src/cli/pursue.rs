//! `navlab pursue`: the pursuit scene run headless, with what each mob did.

use super::grid::load_map;
use crate::geom::Vec2;
use crate::search::NoObserver;
use crate::words::count;
use serde_json::json;
use std::process::ExitCode;

pub(super) fn pursue_command(
    map_path: &std::path::Path,
    kitten: Vec2,
    mobs: &[Vec2],
    route: &[Vec2],
    config: crate::pursuit::PursuitConfig,
    seconds: f64,
    json: bool,
) -> ExitCode {
    use crate::pursuit::{KittenControl, World};
    if !(seconds.is_finite() && (0.0..=86_400.0).contains(&seconds)) {
        complain!("error: --seconds must be between 0 and 86400, not {seconds}");
        return ExitCode::from(2);
    }
    if !(config.decay.is_finite() && config.decay > 0.0) {
        complain!(
            "error: --decay must be a positive number of seconds, not {}",
            config.decay
        );
        return ExitCode::from(2);
    }
    let map = match load_map(map_path) {
        Ok(map) => map,
        Err(code) => return code,
    };
    let name = crate::input::shown(map_path);
    let mut world = match World::new(map, config, kitten) {
        Ok(world) => world,
        Err(error) => {
            complain!("error: {name}: the kitten cannot start there: {error}");
            return ExitCode::from(2);
        }
    };
    for (i, &at) in mobs.iter().enumerate() {
        if let Err(error) = world.add_mob(at) {
            complain!("error: {name}: mob {} cannot start there: {error}", i + 1);
            return ExitCode::from(2);
        }
    }
    for (i, &point) in route.iter().enumerate() {
        if let Err(error) = crate::pursuit::placement(world.map(), point) {
            complain!("error: {name}: route point {} is unusable: {error}", i + 1);
            return ExitCode::from(2);
        }
    }
    if route.is_empty() {
        world.kitten.control = KittenControl::Wander;
    } else {
        let map = world.map().clone();
        world.kitten.set_route(&map, route);
    }
    world.run_until(seconds, &mut NoObserver);
    let round = |t: f64| (t * 1000.0).round() / 1000.0;
    if json {
        let mobs: Vec<serde_json::Value> = world
            .mobs
            .iter()
            .map(|m| {
                json!({
                    "caught_at": m.caught_at.map(round),
                    "lost_at": m.lost_at.map(round),
                    "states": m.timeline.iter().map(|&(t, s)| json!([round(t), s.name()])).collect::<Vec<_>>(),
                    "entered_blocked_tile": m.entered_blocked_tile,
                    "catches": m.catches,
                    "position": [round(m.body.position.x), round(m.body.position.y)],
                })
            })
            .collect();
        let kitten = world.kitten.body.position;
        say!(
            "{}",
            json!({
                "seconds": round(world.time()),
                "mobs": mobs,
                "kitten": [round(kitten.x), round(kitten.y)],
            })
        );
    } else {
        say!(
            "{name}: {:.2} s simulated, kitten ends at {}",
            world.time(),
            world.kitten.body.position
        );
        for (i, m) in world.mobs.iter().enumerate() {
            let caught = match m.caught_at {
                Some(t) => format!(
                    "caught the kitten {}, first at {t:.2} s",
                    count(m.catches as usize, "time")
                ),
                None => "never caught the kitten".to_string(),
            };
            let lost = match m.lost_at {
                Some(t) => format!("first lost the trail at {t:.2} s"),
                None => "never lost the trail".to_string(),
            };
            say!(
                "mob {}: {caught}; {lost}{}",
                i + 1,
                if m.entered_blocked_tile {
                    "; walked into a blocked tile"
                } else {
                    ""
                }
            );
            let states: Vec<String> = m
                .timeline
                .iter()
                .map(|(t, s)| format!("{t:.2} {}", s.name()))
                .collect();
            say!("  states: {}", states.join(", "));
        }
    }
    ExitCode::SUCCESS
}
