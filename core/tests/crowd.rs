//! The crowd: ORCA keeps agents apart (never nearer than the sum of their radii less
//! [`OVERLAP_TOLERANCE`] of it) while they follow their paths; a run is the same every time;
//! the half-planes shown for an agent are the ones its velocity satisfies.

mod common;
use navlab_core::crowd::{AgentSpec, Crowd, CrowdSettings, OVERLAP_TOLERANCE, Source};
use navlab_core::geom::Vec2;
use std::sync::Arc;

fn spec(start: (f64, f64), goal: (f64, f64), radius: f64) -> AgentSpec {
    AgentSpec {
        start: Vec2::new(start.0, start.1),
        goal: Vec2::new(goal.0, goal.1),
        radius,
        preferred_speed: 1.0,
        max_speed: 1.5,
    }
}

/// The least distance between two agents over the run, against the sum of their radii.
fn closest(crowd: &Crowd, i: usize, j: usize) -> f64 {
    crowd
        .frames()
        .iter()
        .map(|f| f.agents[i].position.distance(f.agents[j].position))
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn two_agents_swap_places_in_a_corridor_without_touching() {
    // A corridor 2 wide and 12 long: room for two agents of radius 0.4 side by side.
    let mesh = common::mesh_2d(
        &[(0.0, 0.0), (12.0, 0.0), (12.0, 2.0), (0.0, 2.0)],
        &[&[0, 1, 2, 3]],
    );
    let specs = vec![
        spec((1.0, 1.0), (11.0, 1.0), 0.4),
        spec((11.0, 1.0), (1.0, 1.0), 0.4),
    ];
    let mut crowd = Crowd::new(Arc::new(mesh), specs, CrowdSettings::default());
    crowd.run(800);
    let end = crowd.current();
    for (k, agent) in end.agents.iter().enumerate() {
        assert!(
            agent.arrived.is_some(),
            "agent {k} did not arrive: {agent:?}"
        );
    }
    let least = closest(&crowd, 0, 1);
    assert!(
        least >= 0.8 * (1.0 - OVERLAP_TOLERANCE),
        "they came {least} apart"
    );
    // And they did have to step aside: on the line they would have met.
    let aside = crowd
        .frames()
        .iter()
        .flat_map(|f| f.agents.iter().map(|a| (a.position.y - 1.0).abs()))
        .fold(0.0, f64::max);
    assert!(aside > 0.2, "they never stepped aside ({aside})");
    // Without avoidance they walk through each other.
    let mut ghosts = Crowd::new(
        Arc::clone(crowd.mesh()),
        crowd.specs().to_vec(),
        CrowdSettings {
            avoid: false,
            ..CrowdSettings::default()
        },
    );
    ghosts.run(800);
    assert!(closest(&ghosts, 0, 1) < 0.1);
}

/// 100 agents on a circle in an open room, each going to the point opposite: they all meet in
/// the middle, and at no tick do two overlap.
#[test]
fn a_hundred_agents_cross_a_room_without_overlapping() {
    let mesh = common::mesh_2d(
        &[(-30.0, -30.0), (30.0, -30.0), (30.0, 30.0), (-30.0, 30.0)],
        &[&[0, 1, 2, 3]],
    );
    let specs: Vec<AgentSpec> = (0..100)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / 100.0;
            let (c, s) = (a.cos() * 25.0, a.sin() * 25.0);
            spec((c, s), (-c, -s), 0.5)
        })
        .collect();
    let mut crowd = Crowd::new(Arc::new(mesh), specs, CrowdSettings::default());
    crowd.run(4000);
    for tick in 0..crowd.frames().len() {
        let overlaps = crowd.overlaps(tick);
        assert!(overlaps.is_empty(), "tick {tick}: {overlaps:?}");
    }
    let arrived = crowd
        .current()
        .agents
        .iter()
        .filter(|a| a.arrived.is_some())
        .count();
    assert_eq!(arrived, 100, "arrived in {} ticks", crowd.current().tick);
}

/// A run on a built-in scene with random agents, done twice and then stepped again against
/// the record: every frame the same, bit for bit.
#[test]
fn a_run_replays_bit_for_bit() {
    let scene = &navlab_core::assets::ALL[0];
    let mesh = Arc::new(
        navlab_core::navmesh::obj::parse(scene.obj, scene.name, navlab_core::navmesh::Plane::Xz)
            .expect("parses"),
    );
    let specs = Crowd::random_specs(&mesh, 20, 0.25, 1.2, 7);
    assert_eq!(specs.len(), 20);
    let mut first = Crowd::new(Arc::clone(&mesh), specs.clone(), CrowdSettings::default());
    first.run(400);
    let mut again = Crowd::new(Arc::clone(&mesh), specs, CrowdSettings::default());
    for recorded in first.frames().iter().skip(1) {
        let frame = again.step();
        assert_eq!(frame.tick, recorded.tick);
        for (a, b) in frame.agents.iter().zip(&recorded.agents) {
            assert_eq!(a.position.x.to_bits(), b.position.x.to_bits());
            assert_eq!(a.position.y.to_bits(), b.position.y.to_bits());
            assert_eq!(a.velocity.x.to_bits(), b.velocity.x.to_bits());
            assert_eq!(a.velocity.y.to_bits(), b.velocity.y.to_bits());
        }
        assert_eq!(frame, recorded);
    }
}

/// At every tick of a random run, what is shown for each agent (its half-planes, worked out
/// again from the frame before) gives the velocity it took, and that velocity lies in every
/// half-plane (the walls' at least, when no velocity satisfied all and it took the least bad).
#[test]
fn the_half_planes_shown_are_the_ones_the_velocity_satisfies() {
    for (k, scene) in navlab_core::assets::ALL.iter().enumerate().take(3) {
        let mesh = Arc::new(
            navlab_core::navmesh::obj::parse(
                scene.obj,
                scene.name,
                navlab_core::navmesh::Plane::Xz,
            )
            .expect("parses"),
        );
        let specs = Crowd::random_specs(&mesh, 12, 0.3, 1.0, 11 + k as u64);
        let mut crowd = Crowd::new(Arc::clone(&mesh), specs, CrowdSettings::default());
        crowd.run(300);
        let (mut checked, mut walls, mut agents) = (0, 0, 0);
        for tick in 1..crowd.frames().len() {
            for (i, state) in crowd.frames()[tick].agents.iter().enumerate() {
                let Some(decision) = crowd.explain(tick, i) else {
                    continue;
                };
                assert_eq!(
                    decision.chosen, state.velocity,
                    "{}: tick {tick}, agent {i}",
                    scene.name
                );
                assert_eq!(decision.fallback || decision.relaxed > 1e-4, state.fallback);
                for (source, half) in &decision.half_planes {
                    // Inside each, the agents' moved out by the relaxation reported.
                    let slack = match source {
                        Source::Wall(w) => {
                            walls += 1;
                            assert!(*w < crowd.walls(tick - 1).len());
                            0.0
                        }
                        Source::Agent(j) => {
                            agents += 1;
                            assert_ne!(*j, i);
                            decision.relaxed
                        }
                    };
                    if decision.fallback {
                        continue;
                    }
                    let depth = half.depth(decision.chosen);
                    assert!(
                        depth >= -slack - 1e-4,
                        "{}: tick {tick}, agent {i}: {source:?} left by {depth}",
                        scene.name
                    );
                }
                checked += 1;
            }
        }
        assert!(
            checked > 100 && walls > 0 && agents > 0,
            "{}: {checked} {walls} {agents}",
            scene.name
        );
    }
}

/// Agents going from doors.obj's left room to its right one; the door between the rooms is
/// closed (cut as an obstacle) at tick 60: every agent finds a path again, those on the
/// door's side take the corridor round, none is ever inside the closed door, and all arrive.
#[test]
fn a_door_closing_mid_run_sends_the_crowd_round_the_long_way() {
    use navlab_core::navmesh::edit::{MeshEditor, Shape, ShapeKind};
    let scene = navlab_core::assets::ALL
        .iter()
        .find(|s| s.name == "doors.obj")
        .expect("the doors scene");
    let mesh = Arc::new(
        navlab_core::navmesh::obj::parse(scene.obj, scene.name, navlab_core::navmesh::Plane::Xz)
            .expect("parses"),
    );
    let placement = navlab_core::crowd::Placement {
        starts: Some([Vec2::new(0.5, 0.5), Vec2::new(7.5, 7.5)]),
        goals: Some([Vec2::new(9.5, 0.5), Vec2::new(16.5, 7.5)]),
    };
    let specs = Crowd::random_specs_in(&mesh, 10, 0.25, 1.2, 4, placement);
    assert_eq!(specs.len(), 10);
    let mut crowd = Crowd::new(Arc::clone(&mesh), specs, CrowdSettings::default());
    crowd.run(60);
    let mut editor = MeshEditor::new(Arc::clone(&mesh));
    let door = Shape::rectangle(
        Vec2::new(7.9, 3.5),
        Vec2::new(9.1, 4.5),
        ShapeKind::Obstacle,
    )
    .expect("a rectangle");
    editor.add_shape(door).expect("the door closed");
    let closed = Arc::clone(editor.mesh());
    crowd.change_mesh(Arc::clone(&closed), 60);
    assert_eq!(crowd.mesh_changes(), vec![60]);
    assert_eq!(crowd.current().tick, 60);
    // Every agent not yet through has a path round by the corridor (below the rooms, z < 0).
    for (k, agent) in crowd.current().agents.iter().enumerate() {
        if agent.position.x < 8.0 {
            assert!(
                agent.path.iter().any(|p| p.y < -0.5),
                "agent {k} at {} does not go round: {:?}",
                agent.position,
                agent.path
            );
        }
    }
    crowd.run(3000);
    let inside = |p: Vec2| (8.0..=9.0).contains(&p.x) && (3.6..=4.4).contains(&p.y);
    for frame in crowd.frames().iter().skip(61) {
        for (k, agent) in frame.agents.iter().enumerate() {
            assert!(
                !inside(agent.position),
                "tick {}: agent {k} in the closed door at {}",
                frame.tick,
                agent.position
            );
        }
    }
    for (k, agent) in crowd.current().agents.iter().enumerate() {
        assert!(
            agent.arrived.is_some(),
            "agent {k} did not arrive: {agent:?}"
        );
    }
    // What an agent decided before the door closed is explained on the mesh it had.
    let before = crowd.explain(30, 0).expect("a decision");
    let open_walls = crowd.walls(29).len();
    assert!(
        before
            .half_planes
            .iter()
            .all(|(s, _)| !matches!(s, Source::Wall(w) if *w >= open_walls))
    );
    assert_ne!(crowd.walls(29).len(), crowd.walls(61).len());
}

/// A room round a pillar whose way past it is shut on one side, then the other, in turn (a
/// door on each side closing as the other opens): an agent beside the pillar turns one way
/// round, then the other, never getting nearer, and is flagged as going back and forth
/// between two corridors.
#[test]
fn an_agent_sent_one_way_round_then_the_other_is_flagged_as_oscillating() {
    use navlab_core::crowd::Stuck;
    // The pillar stands from (5, 3) to (7, 5) in a room 12 × 8; `shut` is the strip above
    // (true) or below (false) the pillar that is left out.
    let room = |shut_above: bool| {
        let points = [
            (0.0, 0.0),
            (5.0, 0.0),
            (7.0, 0.0),
            (12.0, 0.0),
            (0.0, 3.0),
            (5.0, 3.0),
            (7.0, 3.0),
            (12.0, 3.0),
            (0.0, 5.0),
            (5.0, 5.0),
            (7.0, 5.0),
            (12.0, 5.0),
            (0.0, 8.0),
            (5.0, 8.0),
            (7.0, 8.0),
            (12.0, 8.0),
        ];
        let left: &[usize] = &[4, 5, 9, 8];
        let right: &[usize] = &[6, 7, 11, 10];
        let below: &[&[usize]] = &[&[0, 1, 5, 4], &[1, 2, 6, 5], &[2, 3, 7, 6]];
        let above: &[&[usize]] = &[&[8, 9, 13, 12], &[9, 10, 14, 13], &[10, 11, 15, 14]];
        let mut polygons: Vec<&[usize]> = vec![left, right];
        for (k, strip) in below.iter().chain(above).enumerate() {
            let middle_above = k == 4;
            let middle_below = k == 1;
            if (shut_above && middle_above) || (!shut_above && middle_below) {
                continue;
            }
            polygons.push(strip);
        }
        Arc::new(common::mesh_2d(&points, &polygons))
    };
    let specs = vec![spec((4.4, 4.0), (11.0, 4.0), 0.3)];
    let mut crowd = Crowd::new(room(true), specs, CrowdSettings::default());
    for turn in 0..30 {
        for _ in 0..8 {
            crowd.step();
        }
        let tick = crowd.current().tick;
        crowd.change_mesh(room(turn % 2 == 1), tick);
    }
    let agent = &crowd.current().agents[0];
    assert!(agent.arrived.is_none());
    assert!(agent.switches >= 10, "{} switches", agent.switches);
    assert_eq!(agent.stuck, Some(Stuck::Oscillating), "{agent:?}");
    // The same room left open below: it goes round and arrives, never flagged.
    let mut open = Crowd::new(
        room(true),
        vec![spec((4.4, 4.0), (11.0, 4.0), 0.3)],
        CrowdSettings::default(),
    );
    open.run(600);
    assert!(open.current().agents[0].arrived.is_some());
    assert!(open.frames().iter().all(|f| f.agents[0].stuck.is_none()));
}

/// An agent too wide for the one doorway to its goal is stuck for want of a path, and the
/// reason names the doorway and what it lets through.
#[test]
fn an_agent_too_wide_for_the_doorway_is_told_which_portal_stops_it() {
    use navlab_core::crowd::Stuck;
    // Two rooms 4 × 4 joined by a doorway 0.4 wide (y from 1.8 to 2.2) in a wall 0.2 thick.
    let points = [
        (0.0, 0.0),
        (4.0, 0.0),
        (4.0, 1.8),
        (4.0, 2.2),
        (4.0, 4.0),
        (0.0, 4.0),
        (4.2, 1.8),
        (4.2, 2.2),
        (4.2, 0.0),
        (8.2, 0.0),
        (8.2, 4.0),
        (4.2, 4.0),
    ];
    let mesh = common::mesh_2d(
        &points,
        &[&[0, 1, 2, 3, 4, 5], &[2, 6, 7, 3], &[8, 9, 10, 11, 7, 6]],
    );
    let specs = vec![
        spec((1.0, 2.0), (7.0, 2.0), 0.3),
        spec((1.0, 1.0), (7.0, 1.0), 0.15),
    ];
    let mut crowd = Crowd::new(Arc::new(mesh), specs, CrowdSettings::default());
    assert_eq!(crowd.current().agents[0].stuck, Some(Stuck::NoPath));
    let why = crowd.why_no_path(0, 0).expect("why");
    assert!((why.widest - 0.2).abs() < 1e-9, "{why:?}");
    let at = why.portal.expect("a portal");
    assert!(
        (at.y - 2.0).abs() < 1e-9 && (4.0..=4.2).contains(&at.x),
        "{why:?}"
    );
    assert!(
        why.sentence()
            .contains("lets through a radius of 0.20; it has 0.30"),
        "{}",
        why.sentence()
    );
    // The small one goes through; it has a path, so nothing to explain.
    assert_eq!(crowd.why_no_path(0, 1), None);
    crowd.run(400);
    assert!(crowd.current().agents[1].arrived.is_some());
}
