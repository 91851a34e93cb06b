//! Polyanya's shortest paths checked against others: the any-angle lengths published for the
//! arena meshes, the hand-made Polyanya test meshes, and an exact oracle of our own — Dijkstra
//! over the visibility graph of the mesh's boundary corners — on meshes of random maps.

mod common;
use common::testdata;
use navlab::geom::{Vec2, orient};
use navlab::grid::{Tile, TileMap};
use navlab::navmesh::anyangle::{OptimalPath, shortest_path};
use navlab::navmesh::query::{CostModel, QueryOptions, find_path};
use navlab::navmesh::{NavMesh, Plane};
use navlab::search::NoObserver;
use proptest::prelude::*;

fn optimal(mesh: &NavMesh, from: Vec2, to: Vec2) -> OptimalPath {
    shortest_path(mesh, from, to, &mut NoObserver)
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
    let mesh = navlab::navmesh::from_map::navmesh_from_map(&map, 0.0).expect("builds");
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
    let mesh = navlab::navmesh::from_map::navmesh_from_map(&walled, 0.0).expect("builds");
    assert!(!optimal(&mesh, Vec2::new(0.5, 0.5), Vec2::new(4.5, 0.5)).is_found());
}

/// Dijkstra over the visibility graph of start, goal and the mesh's boundary corners: the
/// exact shortest path in a polygonal domain (a one-layer mesh). A corner where surfaces touch
/// at the vertex alone (no edge joins them there) is one node for each surface: a path may turn
/// there on a surface, not pass from one to the other.
fn oracle(mesh: &NavMesh, from: Vec2, to: Vec2) -> f64 {
    if mesh.triangle_at(from).is_none() || mesh.triangle_at(to).is_none() {
        return f64::INFINITY;
    }
    let walls: Vec<[Vec2; 2]> = mesh
        .edges()
        .iter()
        .filter(|e| e.triangles.len() != 2)
        .map(|e| e.vertices.map(|v| mesh.vertices()[v]))
        .collect();
    let mut corners: Vec<Vec2> = walls.iter().flatten().copied().collect();
    corners.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    corners.dedup();
    // Nodes: start, goal, and each corner once per surface around it. A start or goal on a
    // corner is on the surface of the triangle located there (as for A*).
    let surface_of = |p: Vec2| {
        let located = mesh.triangle_at(p)?;
        fans(mesh, p).into_iter().find(|fan| fan.contains(&located))
    };
    let mut points: Vec<(Vec2, Option<Vec<usize>>)> =
        vec![(from, surface_of(from)), (to, surface_of(to))];
    for &c in &corners {
        for fan in fans(mesh, c) {
            points.push((c, Some(fan)));
        }
    }
    // The triangle under a point, or, for a point a rounding error off the mesh (on a wall a
    // segment runs along), the one it is that close to.
    let scale = mesh.bounds().max.distance(mesh.bounds().min).max(1.0);
    let near = |p: Vec2| {
        mesh.triangle_at(p).or_else(|| {
            mesh.locate(p)
                .filter(|l| l.point.distance(p) <= 1e-12 * scale)
                .map(|l| l.triangle)
        })
    };
    let on = |fan: &Option<Vec<usize>>, p: Vec2| match fan {
        None => true,
        Some(fan) => near(p).is_some_and(|t| fan.contains(&t)),
    };
    let visible = |(p, p_fan): &(Vec2, Option<Vec<usize>>),
                   (q, q_fan): &(Vec2, Option<Vec<usize>>)|
     -> bool {
        let (p, q) = (*p, *q);
        if p == q {
            return false;
        }
        for &[a, b] in &walls {
            let (o1, o2) = (orient(p, q, a), orient(p, q, b));
            let (o3, o4) = (orient(a, b, p), orient(a, b, q));
            if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
                return false;
            }
        }
        // Split at every corner on the segment; each piece lies wholly in or out.
        let d = q - p;
        let mut cuts = vec![0.0, 1.0];
        for &c in &corners {
            if orient(p, q, c) == 0.0 {
                let t = (c - p).dot(d) / d.dot(d);
                if t > 0.0 && t < 1.0 {
                    cuts.push(t);
                }
            }
        }
        cuts.sort_by(f64::total_cmp);
        let pieces_inside = cuts
            .windows(2)
            .all(|w| w[1] - w[0] <= 0.0 || near(p + d * ((w[0] + w[1]) / 2.0)).is_some());
        // Through a corner only where the surface goes on across an edge there, and leaving
        // and reaching a corner on the node's own surface.
        let eps = 1e-7;
        pieces_inside
            && on(p_fan, p + d * eps)
            && on(q_fan, p + d * (1.0 - eps))
            && cuts[1..cuts.len() - 1].iter().all(|&t| {
                let c = p + d * t;
                joined_at(mesh, c, p + d * (t - eps), p + d * (t + eps))
            })
    };
    let n = points.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[0] = 0.0;
    if visible(&points[0], &points[1]) || from == to {
        return from.distance(to);
    }
    for _ in 0..n {
        let Some(u) = (0..n)
            .filter(|&i| !done[i] && dist[i].is_finite())
            .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        else {
            break;
        };
        if u == 1 {
            break;
        }
        done[u] = true;
        for v in 0..n {
            if !done[v] && visible(&points[u], &points[v]) {
                let d = dist[u] + points[u].0.distance(points[v].0);
                if d < dist[v] {
                    dist[v] = d;
                }
            }
        }
    }
    dist[1]
}

/// The triangles around corner `c`, in groups joined across edges that end at `c`.
fn fans(mesh: &NavMesh, c: Vec2) -> Vec<Vec<usize>> {
    let has_c = |t: usize| mesh.corners(t).contains(&c);
    let at_c = |e: usize| {
        mesh.edges()[e]
            .vertices
            .iter()
            .any(|&v| mesh.vertices()[v] == c)
    };
    let mut left: Vec<usize> = (0..mesh.triangles().len()).filter(|&t| has_c(t)).collect();
    let mut groups = Vec::new();
    while let Some(first) = left.pop() {
        let mut group = vec![first];
        let mut k = 0;
        while k < group.len() {
            let t = group[k];
            k += 1;
            for &(n, e) in mesh.neighbours(t) {
                if at_c(e)
                    && let Some(i) = left.iter().position(|&x| x == n)
                {
                    left.swap_remove(i);
                    group.push(n);
                }
            }
        }
        groups.push(group);
    }
    groups
}

/// True when the triangles under `before` and `after` (both just by corner `c`) are joined
/// across edges that end at `c`.
fn joined_at(mesh: &NavMesh, c: Vec2, before: Vec2, after: Vec2) -> bool {
    let (Some(from), Some(to)) = (mesh.triangle_at(before), mesh.triangle_at(after)) else {
        return false;
    };
    let at_c = |e: usize| {
        mesh.edges()[e]
            .vertices
            .iter()
            .any(|&v| mesh.vertices()[v] == c)
    };
    let mut reached = vec![from];
    let mut k = 0;
    while k < reached.len() {
        let t = reached[k];
        k += 1;
        if t == to {
            return true;
        }
        for &(n, e) in mesh.neighbours(t) {
            if at_c(e) && !reached.contains(&n) {
                reached.push(n);
            }
        }
    }
    false
}

/// True when every leg of the path stays on the mesh (sampled finely) and the legs join.
fn on_mesh(mesh: &NavMesh, path: &[Vec2]) -> bool {
    path.windows(2).all(|leg| {
        (0..=64).all(|k| {
            let p = leg[0].lerp(leg[1], f64::from(k) / 64.0);
            mesh.triangle_at(p).is_some()
                || mesh.locate(p).is_some_and(|l| l.point.distance(p) < 1e-9)
        })
    })
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
        let Ok(mesh) = navlab::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
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
    let mut meshes: Vec<(String, NavMesh)> = navlab::assets::ALL
        .iter()
        .map(|s| {
            let mesh = navlab::navmesh::obj::parse(s.obj, s.name, Plane::Xz).expect("parses");
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
    let scene = navlab::assets::STAIRS;
    let mesh = navlab::navmesh::obj::parse(scene.obj, scene.name, Plane::Xz).expect("asset");
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
