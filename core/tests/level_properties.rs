//! Properties of a level's build on random levels of boxes and a ramp: the navmesh lies on
//! walkable faces of the level, keeps the agent's radius from walls and floor edges (less a
//! cell, the grid's resolution), and paths found on it stay on it.

mod common;
use common::levels::Level;
use navlab_core::geom::Vec2;
use navlab_core::level::{BuildSettings, build_navmesh};
use proptest::prelude::*;

/// A rectangle of the plan: x from `x0` to `x1`, z from `z0` to `z1`.
#[derive(Debug, Clone, Copy)]
struct Rect {
    x0: f64,
    z0: f64,
    x1: f64,
    z1: f64,
}

impl Rect {
    /// The distance from `p` to the rectangle (0 inside).
    fn distance(&self, p: Vec2) -> f64 {
        let dx = (self.x0 - p.x).max(p.x - self.x1).max(0.0);
        let dz = (self.z0 - p.y).max(p.y - self.z1).max(0.0);
        (dx * dx + dz * dz).sqrt()
    }

    /// The distance from `p`, inside, to the rectangle's sides.
    fn inside_distance(&self, p: Vec2) -> f64 {
        (p.x - self.x0)
            .min(self.x1 - p.x)
            .min(p.y - self.z0)
            .min(self.z1 - p.y)
    }
}

/// A random level: a ground, tall boxes standing on it, and a ramp up to a platform.
#[derive(Debug, Clone)]
struct RandomLevel {
    ground: Rect,
    pillars: Vec<Rect>,
    /// The ramp's and the platform's plan, and the platform's height.
    ramp: Option<(Rect, Rect, f64)>,
}

impl RandomLevel {
    fn level(&self) -> Level {
        let mut level = Level::default();
        let g = self.ground;
        level.add_box([g.x0, -0.5, g.z0], [g.x1, 0.0, g.z1]);
        for p in &self.pillars {
            level.add_box([p.x0, 0.0, p.z0], [p.x1, 3.0, p.z1]);
        }
        if let Some((ramp, platform, height)) = self.ramp {
            let degrees = (height / (ramp.x1 - ramp.x0)).atan().to_degrees();
            level.add_ramp([ramp.x0, ramp.z0], [ramp.x1, ramp.z1], 0.0, degrees);
            level.add_box(
                [platform.x0, 0.0, platform.z0],
                [platform.x1, height, platform.z1],
            );
        }
        level
    }

    /// What stands on the ground as walls: the pillars, and the platform when it is higher
    /// than the agent climbs (the ramp's foot, and a platform one steps onto, are ground).
    fn obstacles(&self, climb: f64) -> Vec<Rect> {
        let mut all = self.pillars.clone();
        if let Some((_, platform, height)) = self.ramp
            && height > climb
        {
            all.push(platform);
        }
        all
    }

    /// Whether `p` is over the ramp, or over a platform low enough to step onto.
    fn on_ramp(&self, p: Vec2, climb: f64) -> bool {
        self.ramp.is_some_and(|(ramp, platform, height)| {
            ramp.distance(p) == 0.0 || (height <= climb && platform.distance(p) == 0.0)
        })
    }
}

fn random_level() -> impl Strategy<Value = RandomLevel> {
    let pillar =
        (1.0..15.0f64, 1.0..15.0f64, 0.8..3.0f64, 0.8..3.0f64).prop_map(|(x, z, w, d)| Rect {
            x0: x,
            z0: z,
            x1: x + w,
            z1: z + d,
        });
    let ramp = proptest::option::of((2.0..8.0f64, 5.0..30.0f64)).prop_map(|ramp| {
        ramp.map(|(z, degrees)| {
            let height = 4.0 * degrees.to_radians().tan();
            let ramp = Rect {
                x0: 12.0,
                z0: z,
                x1: 16.0,
                z1: z + 3.0,
            };
            let platform = Rect {
                x0: 16.0,
                z0: z - 0.5,
                x1: 19.5,
                z1: z + 3.5,
            };
            (ramp, platform, height)
        })
    });
    (
        14.0..20.0f64,
        12.0..20.0f64,
        proptest::collection::vec(pillar, 0..4),
        ramp,
    )
        .prop_map(|(w, d, pillars, ramp)| RandomLevel {
            ground: Rect {
                x0: 0.0,
                z0: 0.0,
                x1: w,
                z1: d,
            },
            pillars,
            ramp,
        })
}

/// The heights of the level's walkable faces over `p`, each with its slope's tangent.
fn walkable_heights(level: &Level, settings: &BuildSettings, p: Vec2) -> Vec<(f64, f64)> {
    let mut heights = Vec::new();
    for face in &level.faces {
        for pair in face[1..].windows(2) {
            let [a, b, c] = [face[0], pair[0], pair[1]].map(|i| level.positions[i]);
            let e0 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let e1 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let n = [
                e0[1] * e1[2] - e0[2] * e1[1],
                e0[2] * e1[0] - e0[0] * e1[2],
                e0[0] * e1[1] - e0[1] * e1[0],
            ];
            let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            if length == 0.0 || n[1] / length <= settings.agent_max_slope.to_radians().cos() {
                continue;
            }
            let det = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
            let u = ((p.x - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (p.y - a[2])) / det;
            let v = ((b[0] - a[0]) * (p.y - a[2]) - (p.x - a[0]) * (b[2] - a[2])) / det;
            if u >= -1e-9 && v >= -1e-9 && u + v <= 1.0 + 1e-9 {
                let cos = n[1] / length;
                let tan = (1.0 - cos * cos).max(0.0).sqrt() / cos;
                heights.push((a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]), tan));
            }
        }
    }
    heights
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_navmesh_lies_on_walkable_faces_keeps_the_radius_and_paths_stay_on_it(
        random in random_level(),
        pairs in proptest::collection::vec((0.0..1.0f64, 0.0..1.0f64), 6),
    ) {
        let settings = BuildSettings::default();
        let level = random.level();
        let Ok(built) = build_navmesh(&level.positions, &level.faces, &settings) else {
            // A level whose every floor is too small or too narrow has no navmesh: nothing to
            // check (the build says so rather than failing).
            return Ok(());
        };
        let Ok(mesh) = built.into_navmesh() else { return Ok(()) };
        let (cs, ch) = (settings.cell_size, settings.cell_height);
        // Each vertex of the navmesh (the detail mesh's samples) is over a walkable face, as
        // near its height as the grid tells heights: a cell height (a span's top is the face's
        // highest point in the cell, rounded up), the face's rise across a cell, and the error
        // the detail mesh is allowed. (Between samples the detail mesh interpolates: where a
        // ramp's side meets the floor within a climb, a triangle across the kink is above the
        // floor by more; Recast bounds the samples, not the points between.)
        let detail_error = settings.detail_sample_max_error * ch;
        for (v, (&p, &y)) in mesh.vertices().iter().zip(mesh.heights()).enumerate() {
            let faces = walkable_heights(&level, &settings, p);
            let near_face = |reach: f64| {
                [-reach, 0.0, reach]
                    .iter()
                    .flat_map(|&dx| [-reach, 0.0, reach].map(|dz| (dx, dz)))
                    .flat_map(|(dx, dz)| walkable_heights(&level, &settings, p + Vec2::new(dx, dz)))
                    .any(|(h, tan)| {
                        let allowed = ch + cs * std::f64::consts::SQRT_2 * tan + detail_error;
                        y >= h - detail_error - 1e-9 && y <= h + allowed + 1e-9
                    })
            };
            // A vertex on the outline sits on a cell's corner: up to a cell off the face, either
            // way or both.
            prop_assert!(
                near_face(0.0) || near_face(cs),
                "vertex {v} at {p} height {y}: faces there {faces:?}"
            );
        }
        // On the ground, every vertex keeps the radius, less a cell, from what stands on it and
        // from the ground's edges.
        let obstacles = random.obstacles(settings.agent_max_climb);
        for (i, (&p, &y)) in mesh.vertices().iter().zip(mesh.heights()).enumerate() {
            if y.abs() > 0.5 || random.on_ramp(p, settings.agent_max_climb) {
                continue;
            }
            let wall = obstacles.iter().map(|o| o.distance(p)).fold(f64::INFINITY, f64::min);
            let edge = random.ground.inside_distance(p);
            let near = wall.min(edge);
            prop_assert!(
                near >= settings.agent_radius - cs - 1e-9,
                "vertex {i} at {p} is {near} from a wall or edge"
            );
        }
        // Paths between points of one island stay on the mesh.
        let count = mesh.triangles().len();
        for &(a, b) in &pairs {
            let (ta, tb) = (((a * count as f64) as usize).min(count - 1), ((b * count as f64) as usize).min(count - 1));
            if mesh.island_of(ta) != mesh.island_of(tb) {
                continue;
            }
            let (from, to) = (mesh.triangles()[ta].centroid, mesh.triangles()[tb].centroid);
            let Some(path) = mesh.path(from, to) else { continue };
            for w in path.waypoints.windows(2) {
                for k in 1..20 {
                    let q = w[0] + (w[1] - w[0]) * (f64::from(k) / 20.0);
                    prop_assert!(
                        mesh.locate(q).is_some_and(|l| l.point.distance(q) <= 1e-6),
                        "the path from {from} to {to} leaves the mesh at {q}"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A stranger's level — any soup of triangles, degenerate, overlapping, wound either way,
    /// vertices repeated — builds or says why; the build never panics, and neither does the
    /// question at any point of it.
    #[test]
    fn any_triangle_soup_builds_or_says_why_and_why_answers_anywhere(
        points in proptest::collection::vec((-8.0..8.0f64, -3.0..3.0f64, -8.0..8.0f64), 3..40),
        faces in proptest::collection::vec((0usize..40, 0usize..40, 0usize..40), 1..60),
        at in (-9.0..9.0f64, -9.0..9.0f64),
    ) {
        let positions: Vec<[f64; 3]> = points.iter().map(|&(x, y, z)| [x, y, z]).collect();
        let faces: Vec<Vec<usize>> = faces
            .iter()
            .map(|&(a, b, c)| vec![a % positions.len(), b % positions.len(), c % positions.len()])
            .collect();
        let settings = BuildSettings::default();
        if let Ok(built) = build_navmesh(&positions, &faces, &settings) {
            let _ = built.into_navmesh();
        }
        if let Ok(answer) = navlab_core::level::why(&positions, &faces, &settings, [at.0, at.1], None) {
            prop_assert!(!answer.sentence().is_empty());
        }
    }
}

/// A soup whose build at some settings leaves a polygon with none of its region's spans under it
/// (its heights must then be found from the ground under its corners): the question at a point
/// answers, and every build tried on the way has its surface within the soup's heights.
#[test]
fn a_polygon_off_its_region_takes_the_ground_under_its_corners() {
    let points = [
        (0.0, 0.0, 0.0),
        (6.375924831067626, 2.6612785587176147, 6.3235157225236875),
        (6.777101718901956, 2.555718248337503, -0.144858712084433),
        (-7.4562590512099485, 0.7330847950925176, 0.0),
        (7.521246906528048, 0.0, 7.660066343340211),
        (0.0, -2.947211389287898, 0.0),
        (0.0, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (-2.091879756970067, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (6.771489686133797, 2.5378427857436243, 3.797702027295399),
        (0.0, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (-7.875020104322846, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (-7.826176607055019, 0.520345003318026, -6.5463317530214775),
        (0.0, 0.0, 0.0),
        (-1.9968614846489858, 2.022808012623188, -2.3210737393707985),
        (7.283288454645741, 0.0, -5.894610452943928),
        (0.0, 0.0, 0.0),
        (-1.551029345139068, 2.958516451631879, -4.065597881803963),
        (0.0, 0.0, 0.0),
        (-7.302379491562499, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (5.867665972454053, 2.4892666422489076, 0.0),
        (0.0, 0.0, 0.0),
        (1.6390805726961082, 2.200497191752989, 0.0),
        (3.284217211511373, 0.0, 5.73180008645415),
    ];
    let positions: Vec<[f64; 3]> = points.iter().map(|&(x, y, z)| [x, y, z]).collect();
    let n = positions.len();
    let faces: Vec<Vec<usize>> = [
        (30, 29, 34),
        (2, 32, 20),
        (17, 10, 27),
        (18, 22, 10),
        (20, 3, 35),
    ]
    .iter()
    .map(|&(a, b, c)| vec![a % n, b % n, c % n])
    .collect();
    let low = positions.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min);
    let high = positions
        .iter()
        .map(|p| p[1])
        .fold(f64::NEG_INFINITY, f64::max);
    let settings = BuildSettings::default();
    let answer = navlab_core::level::why(
        &positions,
        &faces,
        &settings,
        [4.961835468405645, 1.0957992394600564],
        None,
    );
    let answer = answer.expect("the soup builds at the default settings");
    assert!(!answer.sentence().is_empty());
    let mut built_any = false;
    for radius in [0.0, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8] {
        for climb in [0.2, 0.5, 0.9] {
            let changed = BuildSettings {
                agent_radius: radius,
                agent_max_climb: climb,
                ..settings
            };
            let Ok(built) = build_navmesh(&positions, &faces, &changed) else {
                continue;
            };
            built_any = true;
            for corner in &built.detail.positions {
                let y = corner[1];
                assert!(
                    y >= low - changed.cell_height && y <= high + 2.0 * changed.cell_height,
                    "radius {radius}, climb {climb}: a detail corner at height {y}, the soup spans {low}..{high}"
                );
            }
        }
    }
    assert!(built_any);
}
