//! Polyanya's shortest paths checked against others: the any-angle lengths published for the
//! arena meshes, the hand-made Polyanya test meshes, and an exact oracle of our own — Dijkstra
//! over the visibility graph of the mesh's boundary corners — on meshes of random maps.

mod common;
use common::testdata;
use common::visibility::{on_mesh, oracle};
use navlab_core::geom::{Vec2, orient};
use navlab_core::grid::{Tile, TileMap};
use navlab_core::navmesh::anyangle::{
    OptimalPath, SearchFaces, shortest_path, shortest_path_walking,
};
use navlab_core::navmesh::query::{CostModel, QueryOptions, find_path};
use navlab_core::navmesh::{NavMesh, Plane};
use navlab_core::search::NoObserver;
use proptest::prelude::*;

/// The shortest path walking the mesh's convex polygons, after checking that walking its
/// triangles one by one finds the same length (so every oracle below checks both).
fn optimal(mesh: &NavMesh, from: Vec2, to: Vec2) -> OptimalPath {
    let (Some(s), Some(t)) = (mesh.locate(from), mesh.locate(to)) else {
        return shortest_path(mesh, from, to, &mut NoObserver);
    };
    let walk = |faces| shortest_path_walking(mesh, s, t, faces, &mut NoObserver);
    let (polygons, triangles) = (walk(SearchFaces::Polygons), walk(SearchFaces::Triangles));
    assert_eq!(
        polygons.is_found(),
        triangles.is_found(),
        "{from} to {to}: on polygons {polygons:?}, on triangles {triangles:?}"
    );
    if polygons.is_found() {
        let gap = (polygons.length - triangles.length).abs();
        assert!(
            gap <= 1e-9 * triangles.length.max(1.0),
            "{from} to {to}: {} on polygons, {} on triangles",
            polygons.length,
            triangles.length
        );
    }
    polygons
}

/// The arena meshes against `arena.anyangle.csv`: the lengths there are printed to six
/// significant digits or fewer, so a length matches when it rounds to the printed one (within
/// half a unit of its last digit, and 1e-6 relative).
#[test]
fn arena_lengths_match_the_published_any_angle_lengths() {
    let Some(csv) = testdata("meshes/polyanya/arena.anyangle.csv") else {
        return;
    };
    let text = std::fs::read_to_string(csv).expect("reads");
    // Each row with the tolerance its printed length allows: half a unit of its last digit.
    let rows: Vec<([f64; 5], f64)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("bucket"))
        .map(|l| {
            let fields: Vec<&str> = l.split(',').map(str::trim).collect();
            let f: Vec<f64> = fields.iter().map(|x| x.parse().expect("number")).collect();
            let decimals = fields[6].split_once('.').map_or(0, |(_, d)| d.len());
            let printed = 0.5 * 10f64.powi(-(decimals as i32));
            ([f[1], f[2], f[3], f[4], f[6]], printed)
        })
        .collect();
    assert_eq!(rows.len(), 160);
    for name in ["arena.mesh", "arena-merged.mesh"] {
        let Some(path) = testdata(&format!("meshes/polyanya/{name}")) else {
            return;
        };
        let mesh = NavMesh::load(&path, Plane::Xy).expect("loads");
        for &([sx, sy, gx, gy, want], printed) in &rows {
            let got = optimal(&mesh, Vec2::new(sx, sy), Vec2::new(gx, gy));
            let tolerance = printed + 1e-6 * want;
            assert!(
                (got.length - want).abs() <= tolerance,
                "{name}: ({sx},{sy}) → ({gx},{gy}): {} against {want}",
                got.length
            );
        }
    }
}

/// How far a length may be from one printed as `text`: half a unit of its last digit, and at
/// least 1e-9 of it.
fn printed_tolerance(text: &str) -> f64 {
    let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
    let value: f64 = text.parse().unwrap_or(0.0);
    (0.5 * 10f64.powi(-(decimals as i32))).max(1e-9 * value.abs())
}

/// Every scenario of the two game meshes the `polyanya` crate ships: the Iron Harvest map
/// (`meshes/v3/scene_mp_2p_01.mesh`, 2,000 any-angle lengths printed to 13 significant
/// digits) and Aurora (`meshes/v2/aurora.mesh`, 2,990; `scenarios/aurora.scen` lists the
/// grid's octile lengths, so the any-angle lengths are the ones the crate's own
/// `examples/tests-aurora.rs` asserts, worked out in `f32` and printed to about seven
/// digits). Each length matches at its printed precision (1e-9 relative for the 13-digit
/// ones).
#[test]
fn the_polyanya_crates_game_scenarios_match_at_their_printed_precision() {
    let (Some(iron), Some(iron_scen)) = (
        common::polyanya_crate("meshes/v3/scene_mp_2p_01.mesh"),
        common::polyanya_crate("meshes/v3/scene_mp_2p_01.mesh.scen"),
    ) else {
        return;
    };
    let mesh = NavMesh::load(&iron, Plane::Xy).expect("loads");
    let text = std::fs::read_to_string(&iron_scen).expect("reads");
    let mut checked = 0;
    for (n, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let Some(listed) = f.get(8) else { continue };
        let at = |k: usize| f[k].parse::<f64>().expect("a number");
        let (from, to) = (Vec2::new(at(4), at(5)), Vec2::new(at(6), at(7)));
        let got = optimal(&mesh, from, to);
        let want: f64 = listed.parse().expect("a length");
        assert!(
            (got.length - want).abs() <= printed_tolerance(listed),
            "scene_mp_2p_01.mesh.scen line {}: {from} → {to}: {} against {listed}",
            n + 1,
            got.length
        );
        checked += 1;
    }
    assert_eq!(checked, 2_000);

    let (Some(aurora), Some(lengths)) = (
        common::polyanya_crate("meshes/v2/aurora.mesh"),
        common::polyanya_crate("examples/tests-aurora.rs"),
    ) else {
        return;
    };
    let mesh = NavMesh::load(&aurora, Plane::Xy).expect("loads");
    let source = std::fs::read_to_string(&lengths).expect("reads");
    let mut checked = 0;
    // Each test: `.path(Vec2::new(X, Y), Vec2::new(X, Y))`, then `.length,` and the length.
    for block in source.split("#[test]").skip(1) {
        let numbers: Vec<&str> = block
            .split("Vec2::new(")
            .skip(1)
            .flat_map(|part| part.split(')').next().unwrap_or("").split(','))
            .map(str::trim)
            .collect();
        let listed = block
            .split(".length,")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .map(str::trim)
            .expect("a length");
        let at = |k: usize| numbers[k].parse::<f64>().expect("a coordinate");
        assert_eq!(numbers.len(), 4, "{block}");
        let (from, to) = (Vec2::new(at(0), at(1)), Vec2::new(at(2), at(3)));
        let got = optimal(&mesh, from, to);
        let want: f64 = listed.parse().expect("a length");
        // Worked out in `f32` by the crate: printed to the digits an `f32` holds, so within
        // half the last digit and one `f32` step of the value (one of the 2,990 needs the step).
        let f32_step = f64::from(f32::EPSILON) * want;
        assert!(
            (got.length - want).abs() <= printed_tolerance(listed) + f32_step,
            "aurora.mesh: {from} → {to}: {} against {listed}",
            got.length
        );
        checked += 1;
    }
    assert_eq!(checked, 2_990);
}

/// `square`, `bad-collinear`, `bad-collinear2-*` and `bad-ambig`: their listed lengths are
/// ideal values, so each answer is checked against the visibility-graph oracle instead, and
/// against the listed length where that is the exact answer.
#[test]
fn the_hand_made_polyanya_meshes_agree_with_the_visibility_oracle() {
    for name in [
        "square",
        "bad-ambig",
        "bad-collinear",
        "bad-collinear2-rot0",
        "bad-collinear2-rot45",
        "bad-collinear2-rot90",
    ] {
        let (Some(mesh_path), Some(scen)) = (
            testdata(&format!("meshes/polyanya/tests/{name}.mesh")),
            testdata(&format!("meshes/polyanya/tests/{name}.scen")),
        ) else {
            return;
        };
        let mesh = NavMesh::load(&mesh_path, Plane::Xy).expect("loads");
        let text = std::fs::read_to_string(scen).expect("reads");
        let mut checked = 0;
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() < 9 {
                continue;
            }
            let n = |k: usize| f[k].parse::<f64>().expect("number");
            let (from, to) = (Vec2::new(n(4), n(5)), Vec2::new(n(6), n(7)));
            let got = optimal(&mesh, from, to);
            let want = oracle(&mesh, from, to);
            assert!(
                (got.length - want).abs() <= 1e-9 * want.max(1.0)
                    || (!got.is_found() && !want.is_finite()),
                "{name}: {from} → {to}: {} against the oracle's {want} (listed {})",
                got.length,
                n(8)
            );
            checked += 1;
        }
        assert!(checked > 0, "{name}: no scenario read");
    }
}

/// A straight line when nothing is in the way, and the way round a wall.
#[test]
fn straight_when_clear_and_round_the_corner_when_not() {
    // A 6 × 4 room with a wall from the bottom up to row 2 at column 3.
    let map = common::walled_map(&["......", "......", "...#..", "...#.."]);
    let mesh = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0).expect("builds");
    let clear = optimal(&mesh, Vec2::new(0.5, 0.5), Vec2::new(5.5, 1.5));
    assert!((clear.length - Vec2::new(5.0, 1.0).length()).abs() < 1e-12);
    assert_eq!(clear.waypoints.len(), 2);
    let round = optimal(&mesh, Vec2::new(1.5, 3.5), Vec2::new(5.5, 3.5));
    // Over the wall's top corners at (3, 2) and (4, 2).
    let want = Vec2::new(1.5, 1.5).length() + 1.0 + Vec2::new(1.5, 1.5).length();
    assert!(
        (round.length - want).abs() < 1e-12,
        "{} vs {want}",
        round.length
    );
    assert_eq!(
        round.waypoints,
        [
            Vec2::new(1.5, 3.5),
            Vec2::new(3.0, 2.0),
            Vec2::new(4.0, 2.0),
            Vec2::new(5.5, 3.5)
        ]
    );
    // Unreachable: walled off.
    let walled = common::walled_map(&["..#..", "..#..", "..#.."]);
    let mesh = navlab_core::navmesh::from_map::navmesh_from_map(&walled, 0.0).expect("builds");
    assert!(!optimal(&mesh, Vec2::new(0.5, 0.5), Vec2::new(4.5, 0.5)).is_found());
}

fn arb_map() -> impl Strategy<Value = (Vec<bool>, Vec<(usize, usize)>)> {
    (
        prop::collection::vec(prop::bool::weighted(0.28), 9 * 7),
        prop::collection::vec((0usize..9, 0usize..7), 8),
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases_or(40),
        ..ProptestConfig::default()
    })]

    /// On meshes of random 9 × 7 maps, between passable cells' centres and corners: Polyanya's
    /// length is the visibility oracle's, its path lies on the mesh and is as long as it says,
    /// and the A* + funnel path is never shorter.
    #[test]
    fn polyanya_is_exact_on_random_maps((walls, picks) in arb_map()) {
        let rows: Vec<Vec<Tile>> = walls
            .chunks(9)
            .map(|r| r.iter().map(|&w| if w { Tile::Wall } else { Tile::Grass }).collect())
            .collect();
        let map = TileMap::from_rows(rows).expect("map");
        let Ok(mesh) = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
            return Ok(());
        };
        let open: Vec<Vec2> = picks
            .iter()
            .filter(|&&(x, y)| map.get((x, y)) == Some(Tile::Grass))
            .enumerate()
            // Cell centres, and now and then a cell corner (on a vertex or a wall).
            .map(|(k, &(x, y))| {
                let corner = if k % 3 == 2 { 0.0 } else { 0.5 };
                Vec2::new(x as f64 + corner, y as f64 + corner)
            })
            .filter(|&p| mesh.triangle_at(p).is_some())
            .collect();
        for pair in open.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let got = optimal(&mesh, from, to);
            let want = oracle(&mesh, from, to);
            if !want.is_finite() {
                prop_assert!(!got.is_found(), "{from} → {to}: found {} where none is", got.length);
                continue;
            }
            prop_assert!((got.length - want).abs() <= 1e-9 * want.max(1.0),
                "{from} → {to}: {} against the oracle's {want}", got.length);
            let walked: f64 = got.waypoints.windows(2).map(|w| w[0].distance(w[1])).sum();
            prop_assert!((walked - got.length).abs() <= 1e-9 * want.max(1.0));
            prop_assert_eq!(got.waypoints.first().copied(), Some(from));
            prop_assert_eq!(got.waypoints.last().copied(), Some(to));
            prop_assert!(on_mesh(&mesh, &got.waypoints), "{:?}", got.waypoints);
            for cost in [CostModel::Centroid, CostModel::Midpoint, CostModel::Straight] {
                let options = QueryOptions { cost, ..QueryOptions::default() };
                let corridor = find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver)
                    .expect("a path");
                prop_assert!(corridor.length >= got.length - 1e-9 * want.max(1.0),
                    "{cost:?}: corridor {} shorter than the optimum {}", corridor.length, got.length);
            }
        }
    }
}

/// On the built-in meshes and a real export with stacked floors and stairs (`level.nav.obj`):
/// never shorter than the straight line, never longer than A* and the funnel, found exactly
/// when A* finds a path.
#[test]
fn on_real_and_built_in_meshes_it_is_bounded_by_the_straight_line_and_the_corridor() {
    let mut meshes: Vec<(String, NavMesh)> = navlab_core::assets::ALL
        .iter()
        .map(|s| {
            let mesh = navlab_core::navmesh::obj::parse(s.obj, s.name, Plane::Xz).expect("parses");
            (s.name.to_string(), mesh)
        })
        .collect();
    if let Some(level) = testdata("meshes/obj/level.nav.obj") {
        meshes.push((
            "level.nav.obj".into(),
            NavMesh::load(&level, Plane::Xz).expect("loads"),
        ));
    }
    for (name, mesh) in &meshes {
        let centroids: Vec<Vec2> = mesh.triangles().iter().map(|t| t.centroid).collect();
        let step = (centroids.len() / 12).max(1);
        let picks: Vec<Vec2> = centroids.iter().step_by(step).copied().collect();
        for &from in &picks {
            for &to in &picks {
                let got = optimal(mesh, from, to);
                let corridor = find_path(
                    mesh,
                    from,
                    to,
                    QueryOptions::default(),
                    &mut NoObserver,
                    &mut NoObserver,
                )
                .expect("a path");
                let reachable = corridor.length.is_finite();
                assert_eq!(got.is_found(), reachable, "{name}: {from} → {to}");
                if reachable {
                    let slack = 1e-9 * corridor.length.max(1.0);
                    assert!(
                        got.length >= from.distance(to) - slack,
                        "{name}: {from} → {to}"
                    );
                    assert!(
                        got.length <= corridor.length + slack,
                        "{name}: {from} → {to}: {} > corridor {}",
                        got.length,
                        corridor.length
                    );
                }
            }
        }
    }
}

/// On `stairs.obj` the floor under the stairs shares their bottom edge (z = 2) and lies back
/// under them: from the upper landing to the lower floor every path goes down the stairs to that
/// edge and back, so it is at least as long as the two runs in z (the shortest path may not cut
/// across from one floor to the other where they overlap).
#[test]
fn a_floor_folded_under_stairs_is_reached_by_going_down_them() {
    let scene = navlab_core::assets::STAIRS;
    let mesh = navlab_core::navmesh::obj::parse(scene.obj, scene.name, Plane::Xz).expect("asset");
    let (from, to) = (Vec2::new(0.097, 6.296), Vec2::new(2.457, 7.561));
    let located = mesh.locate(from).expect("on the mesh");
    assert!(
        mesh.heights()[mesh.triangles()[located.triangle].vertices[0]] > 1.0,
        "starts upstairs"
    );
    let got = optimal(&mesh, from, to);
    let lower_bound = (from.y - 2.0) + (to.y - 2.0);
    assert!(
        got.length >= lower_bound - 1e-9,
        "{} < {lower_bound}",
        got.length
    );
    assert!(
        got.waypoints.iter().any(|p| p.y <= 2.0 + 1e-9),
        "{:?}",
        got.waypoints
    );
}

/// A room (a rectangle turned by `turn` radians about the origin and moved by `shift`, `size`
/// long and wide) with a rectangular pillar in it, each side a straight wall cut into pieces
/// at the fractions given: the cut points lie on the wall only to rounding (the room is
/// turned), then are nudged off it by `nudges` (signed; 1e-15 to 1e-9 long, or none).
/// Triangulated by a constrained Delaunay triangulation with `inner` points added inside,
/// which makes the fans of long thin triangles round the wall vertices that exported meshes
/// have. The walls' vertex chains come back with the mesh.
#[derive(Debug, Clone)]
struct NudgedRoom {
    turn: f64,
    shift: (f64, f64),
    size: (f64, f64),
    pillar: Option<((f64, f64), (f64, f64))>,
    /// A second pillar this wide and long in the room's frame, touching the first at its far
    /// corner alone: the free space on either side of that corner meets at a pinch vertex.
    touching: Option<(f64, f64)>,
    cuts: Vec<Vec<f64>>,
    nudges: Vec<f64>,
    inner: Vec<(f64, f64)>,
}

fn arb_nudge() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(0.0),
        3 => (-15.0f64..-9.0, prop::bool::ANY)
            .prop_map(|(e, up)| if up { 10f64.powf(e) } else { -(10f64.powf(e)) }),
    ]
}

fn arb_nudged_room() -> impl Strategy<Value = NudgedRoom> {
    (
        0.0f64..std::f64::consts::TAU,
        (-100.0f64..100.0, -100.0f64..100.0),
        (6.0f64..40.0, 6.0f64..40.0),
        prop::option::of(((0.25f64..0.45, 0.25f64..0.45), (0.08f64..0.2, 0.08f64..0.2))),
        prop::option::weighted(0.4, (0.05f64..0.15, 0.05f64..0.15)),
        prop::collection::vec(prop::collection::vec(0.02f64..0.98, 0..5), 12),
        prop::collection::vec(arb_nudge(), 48),
        prop::collection::vec((0.05f64..0.95, 0.05f64..0.95), 0..4),
    )
        .prop_map(
            |(turn, shift, size, pillar, touching, cuts, nudges, inner)| NudgedRoom {
                turn,
                shift,
                size,
                pillar,
                touching,
                cuts,
                nudges,
                inner,
            },
        )
}

impl NudgedRoom {
    /// A point of the room's own frame (0..1 across each side) in the plane.
    fn place(&self, (u, v): (f64, f64)) -> Vec2 {
        let (x, y) = (u * self.size.0, v * self.size.1);
        let (s, c) = self.turn.sin_cos();
        Vec2::new(x * c - y * s + self.shift.0, x * s + y * c + self.shift.1)
    }

    /// The mesh and each wall's vertices in order, corner to corner.
    fn build(&self) -> Option<(NavMesh, Vec<Vec<Vec2>>)> {
        use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation};
        // The outline counter-clockwise, the pillars clockwise (in the room's frame).
        let room = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        let mut loops = vec![room.to_vec()];
        let mut pillars: Vec<((f64, f64), (f64, f64))> = Vec::new();
        let clockwise = |(u0, v0): (f64, f64), (u1, v1): (f64, f64)| {
            vec![(u0, v0), (u0, v1), (u1, v1), (u1, v0)]
        };
        if let Some(((cu, cv), (hu, hv))) = self.pillar {
            let (low, high) = ((cu - hu, cv - hv), (cu + hu, cv + hv));
            loops.push(clockwise(low, high));
            pillars.push((low, high));
            // The second pillar's first corner is the first pillar's last, the same number.
            if let Some((wu, wv)) = self.touching {
                let far = (high.0 + wu, high.1 + wv);
                loops.push(clockwise(high, far));
                pillars.push((high, far));
            }
        }
        let mut points: Vec<Vec2> = Vec::new();
        let mut edges: Vec<[usize; 2]> = Vec::new();
        let mut walls: Vec<Vec<Vec2>> = Vec::new();
        let mut nudges = self.nudges.iter().cycle();
        // A point met again (the corner two pillars share) is the same vertex.
        let index_of = |points: &mut Vec<Vec2>, p: Vec2| match points.iter().position(|&q| q == p) {
            Some(i) => i,
            None => {
                points.push(p);
                points.len() - 1
            }
        };
        for (l, corners) in loops.iter().enumerate() {
            let mut ring = Vec::new();
            for k in 0..4 {
                let (a, b) = (self.place(corners[k]), self.place(corners[(k + 1) % 4]));
                let normal = Vec2::new(a.y - b.y, b.x - a.x) * (1.0 / a.distance(b));
                let mut cuts = self.cuts.get(l * 4 + k).cloned().unwrap_or_default();
                cuts.sort_by(f64::total_cmp);
                cuts.dedup_by(|x, y| (*x - *y).abs() < 0.02);
                let mut wall = vec![a];
                ring.push(index_of(&mut points, a));
                for &t in &cuts {
                    let p = a.lerp(b, t) + normal * *nudges.next().unwrap_or(&0.0);
                    wall.push(p);
                    ring.push(index_of(&mut points, p));
                }
                wall.push(b);
                walls.push(wall);
            }
            edges.extend((0..ring.len()).map(|i| [ring[i], ring[(i + 1) % ring.len()]]));
        }
        let on_walls = points.len();
        points.extend(self.inner.iter().map(|&p| self.place(p)));
        let inside = |p: Vec2| {
            // In the room's frame (the pillars' outlines are rectangles there too).
            let (s, c) = self.turn.sin_cos();
            let (x, y) = (p.x - self.shift.0, p.y - self.shift.1);
            let (u, v) = (
                (x * c + y * s) / self.size.0,
                (-x * s + y * c) / self.size.1,
            );
            let in_room = (0.0..1.0).contains(&u) && (0.0..1.0).contains(&v);
            let in_pillar = pillars
                .iter()
                .any(|&((u0, v0), (u1, v1))| u0 < u && u < u1 && v0 < v && v < v1);
            in_room && !in_pillar
        };
        // Inner points off the pillars only.
        let points: Vec<Vec2> = points
            .iter()
            .enumerate()
            .filter(|&(i, &p)| i < on_walls || inside(p))
            .map(|(_, &p)| p)
            .collect();
        let mut crossing = false;
        let cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::try_bulk_load_cdt(
            points.iter().map(|p| Point2::new(p.x, p.y)).collect(),
            edges,
            |_| crossing = true,
        )
        .ok()?;
        if crossing || cdt.num_vertices() != points.len() {
            return None;
        }
        // Inside: an odd count of walls crossed from the outer face (a centroid test would
        // take the slivers between a wall's chord and a vertex nudged inward).
        let mut inside_face = vec![None; cdt.num_all_faces()];
        let mut stack = vec![(cdt.outer_face().fix(), false)];
        while let Some((face, odd)) = stack.pop() {
            let slot = &mut inside_face[face.index()];
            if slot.is_some() {
                continue;
            }
            *slot = Some(odd);
            let edges = match cdt.face(face).as_inner() {
                Some(inner) => inner.adjacent_edges().to_vec(),
                None => cdt.convex_hull().collect(),
            };
            for edge in edges {
                // The face across the edge from this one.
                let beyond = [edge.face(), edge.rev().face()]
                    .into_iter()
                    .map(|f| f.fix())
                    .find(|&f| f != face);
                if let Some(beyond) = beyond {
                    stack.push((beyond, odd ^ edge.is_constraint_edge()));
                }
            }
        }
        let mut polygons = Vec::new();
        for face in cdt.inner_faces() {
            if inside_face[face.fix().index()] != Some(true) {
                continue;
            }
            let [a, b, c] = face.vertices().map(|v| v.index());
            polygons.push(if orient(points[a], points[b], points[c]) > 0.0 {
                vec![a, b, c]
            } else {
                vec![a, c, b]
            });
        }
        let positions = points.iter().map(|p| [p.x, 0.0, p.y]).collect();
        let mesh = navlab_core::navmesh::RawMesh::new(positions, polygons, Plane::Xz)
            .build()
            .ok()?;
        Some((mesh, walls))
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases_or(2_000),
        ..ProptestConfig::default()
    })]

    /// Rooms whose straight walls run through vertices that lie on them only to rounding (and
    /// nudged 1e-15 to 1e-9 off them): from one end of a wall to the other along it, between
    /// wall vertices, and from points a hair inside the walls, Polyanya's length is the
    /// visibility oracle's (1e-9 relative) and never longer than a corridor path.
    #[test]
    fn polyanya_is_exact_along_walls_straight_only_to_rounding(
        room in arb_nudged_room(),
        picks in prop::collection::vec((0usize..12, 0usize..8, 0.0f64..1.0, -12.0f64..-3.0), 3),
    ) {
        let Some((mesh, walls)) = room.build() else {
            return Ok(());
        };
        let mut queries: Vec<(Vec2, Vec2)> = Vec::new();
        for &(w, k, t, e) in &picks {
            let Some(wall) = walls.get(w) else { continue };
            // The wall end to end, a vertex to a vertex along it, and a point a hair inside
            // one wall to a vertex of another.
            let (first, last) = (wall[0], wall[wall.len() - 1]);
            queries.push((first, last));
            queries.push((wall[k % wall.len()], wall[(k * 7 + 3) % wall.len()]));
            let other = &walls[(w + k + 1) % walls.len()];
            let (a, b) = (wall[k % (wall.len() - 1)], wall[k % (wall.len() - 1) + 1]);
            // Every wall has the walkable side on its left.
            let inward = Vec2::new(a.y - b.y, b.x - a.x) * (10f64.powf(e) / a.distance(b));
            queries.push((a.lerp(b, t) + inward, other[k % other.len()]));
        }
        for (from, to) in queries {
            if mesh.triangle_at(from).is_none() || mesh.triangle_at(to).is_none() {
                continue;
            }
            let got = optimal(&mesh, from, to);
            let want = oracle(&mesh, from, to);
            prop_assert!(want.is_finite(), "{from} → {to}: the oracle finds no path");
            prop_assert!((got.length - want).abs() <= 1e-9 * want.max(1.0),
                "{from} → {to}: {} against the oracle's {want}", got.length);
            for cost in [CostModel::Centroid, CostModel::Midpoint, CostModel::Straight] {
                let options = QueryOptions { cost, ..QueryOptions::default() };
                let corridor = find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver)
                    .expect("a path");
                prop_assert!(corridor.length >= got.length - 1e-9 * want.max(1.0),
                    "{cost:?}: {from} → {to}: corridor {} shorter than the optimum {}",
                    corridor.length, got.length);
            }
        }
    }

    /// Two pillars touching at one corner make a pinch vertex: the free space on either side
    /// of that corner meets there and nowhere near. navlab's reading, as Detour's and
    /// Polyanya's: no path passes through a pinch. From a point by the corner on one side to
    /// one on the other, the length is the oracle's (which counts the corner once for each
    /// side) and at least the way round the nearer pillar's corner; `check` names the vertex.
    #[test]
    fn no_path_passes_through_a_pinch_vertex(
        room in (
            arb_nudged_room(),
            ((0.25f64..0.45, 0.25f64..0.45), (0.08f64..0.2, 0.08f64..0.2)),
            (0.05f64..0.15, 0.05f64..0.15),
        )
            .prop_map(|(room, pillar, touching)| NudgedRoom {
                pillar: Some(pillar),
                touching: Some(touching),
                ..room
            }),
        offsets in prop::collection::vec((-9.0f64..-2.0, 0.05f64..0.95), 2),
    ) {
        let Some((mesh, walls)) = room.build() else {
            return Ok(());
        };
        let Some(((cu, cv), (hu, hv))) = room.pillar else {
            return Ok(());
        };
        let pinch = room.place((cu + hu, cv + hv));
        let report = navlab_core::navmesh::diagnose::check(&mesh, &Default::default());
        let pinches = report
            .get(navlab_core::navmesh::diagnose::FindingKind::PinchVertex)
            .map_or(0, |f| f.items.iter().filter(|i| Vec2::new(i.at[0], i.at[1]) == pinch).count());
        prop_assert_eq!(pinches, 1, "check names the pinch at {}", pinch);
        // Beside the corner in the two free quadrants (up-left and down-right of it in the
        // room's frame), a distance 1e-9 to 1e-2 of the room's size away.
        for &(e, share) in &offsets {
            let d = 10f64.powf(e);
            let (up_left, down_right) = (
                room.place((cu + hu - d * share, cv + hv + d)),
                room.place((cu + hu + d, cv + hv - d * share)),
            );
            for (from, to) in [(up_left, down_right), (down_right, up_left), (pinch, down_right), (up_left, pinch)] {
                if mesh.triangle_at(from).is_none() || mesh.triangle_at(to).is_none() {
                    continue;
                }
                let got = optimal(&mesh, from, to);
                let want = oracle(&mesh, from, to);
                prop_assert!((got.length - want).abs() <= 1e-9 * want.max(1.0),
                    "{from} → {to}: {} against the oracle's {want}", got.length);
                if from != pinch && to != pinch {
                    // Round a pillar: at least to the nearer of the far corners and back.
                    let around = walls[4..]
                        .iter()
                        .flatten()
                        .filter(|&&c| c != pinch)
                        .map(|&c| from.distance(c) + c.distance(to))
                        .fold(f64::INFINITY, f64::min);
                    prop_assert!(got.length >= around - 1e-9 * around,
                        "{from} → {to}: {} passes through the pinch (round a pillar is {around})",
                        got.length);
                }
            }
        }
    }
}
