//! Level geometry read as a navmesh: the walkable filter checked against an independent sum of
//! the faces' areas, on the three-pathfinding level geometry and on generated box rooms.

use crate::common;
use common::testdata;
use navlab::navmesh::walkable::looks_like_level_geometry;
use navlab::navmesh::{NavMesh, Plane, ReadOptions};

/// The vertices and faces of OBJ text, read here without navlab (`v x y z` and `f a b c …`,
/// 1-based or negative indices, `a/b/c` forms).
fn plain_obj(text: &str) -> (Vec<[f64; 3]>, Vec<Vec<usize>>) {
    let mut vertices: Vec<[f64; 3]> = Vec::new();
    let mut faces = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let c: Vec<f64> = words.take(3).map(|w| w.parse().expect("number")).collect();
                vertices.push([c[0], c[1], c[2]]);
            }
            Some("f") => faces.push(
                words
                    .map(|w| {
                        let i: i64 = w.split('/').next().expect("index").parse().expect("int");
                        if i < 0 {
                            (vertices.len() as i64 + i) as usize
                        } else {
                            (i - 1) as usize
                        }
                    })
                    .collect(),
            ),
            _ => {}
        }
    }
    (vertices, faces)
}

/// The area of the faces whose triangles (a fan from the first corner) face within
/// `max_slope` degrees of +Y, each triangle judged alone, as `flipped` says the file is wound.
fn walkable_area_by_triangles(
    vertices: &[[f64; 3]],
    faces: &[Vec<usize>],
    max_slope: f64,
    flipped: bool,
) -> (f64, f64) {
    let cos_max = max_slope.to_radians().cos();
    let (mut kept, mut total) = (0.0, 0.0);
    for face in faces {
        let mut normal = [0.0; 3];
        for k in 1..face.len().saturating_sub(1) {
            let (a, b, c) = (vertices[face[0]], vertices[face[k]], vertices[face[k + 1]]);
            let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let n = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            for i in 0..3 {
                normal[i] += n[i];
            }
        }
        let twice = (normal[0].powi(2) + normal[1].powi(2) + normal[2].powi(2)).sqrt();
        if twice == 0.0 {
            continue;
        }
        total += twice / 2.0;
        let up = if flipped { -normal[1] } else { normal[1] };
        if up / twice >= cos_max {
            kept += twice / 2.0;
        }
    }
    (kept, total)
}

#[test]
fn the_walkable_area_of_the_level_geometry_is_the_sum_of_its_up_facing_faces() {
    let Some(path) = testdata("meshes/obj/level.obj") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("reads");
    let (vertices, faces) = plain_obj(&text);
    let raw = navlab::navmesh::obj::load_raw(&path, Plane::Xz).expect("reads");
    assert!(looks_like_level_geometry(&raw), "mostly walls and boxes");
    for max_slope in [10.0, 30.0, 45.0, 60.0] {
        let mesh = NavMesh::load_with(
            &path,
            ReadOptions {
                plane: Plane::Xz,
                max_slope: Some(max_slope),
                ..ReadOptions::default()
            },
        )
        .expect("loads");
        let summary = mesh.raw().walkable.expect("filtered");
        assert!(!summary.flipped, "its faces face up as wound");
        let (want, total) = walkable_area_by_triangles(&vertices, &faces, max_slope, false);
        assert!(
            (summary.walkable_area - want).abs() <= 1e-9 * total,
            "{max_slope}°: {} against {want}",
            summary.walkable_area
        );
        assert!(
            (summary.walkable_area + summary.dropped_area - total).abs() <= 1e-9 * total,
            "kept and dropped make up the whole"
        );
        assert_eq!(
            summary.walkable_faces + summary.dropped_faces,
            faces.iter().filter(|f| f.len() >= 3).count()
        );
        // About 38 % of the area faces up (the floors and box tops).
        assert!(summary.walkable_area < 0.5 * total);
    }
}

#[test]
fn the_navmesh_export_keeps_nearly_everything_at_45_degrees() {
    let Some(path) = testdata("meshes/obj/level.nav.obj") else {
        return;
    };
    let raw = navlab::navmesh::obj::load_raw(&path, Plane::Xz).expect("reads");
    assert!(
        !looks_like_level_geometry(&raw),
        "a navmesh, not level geometry"
    );
    let mesh = NavMesh::load_with(
        &path,
        ReadOptions {
            plane: Plane::Xz,
            max_slope: Some(45.0),
            ..ReadOptions::default()
        },
    )
    .expect("loads");
    let summary = mesh.raw().walkable.expect("filtered");
    let share = summary.walkable_area / (summary.walkable_area + summary.dropped_area);
    assert!(share > 0.9, "{share}");
}

// ---- An agent's radius on any mesh -------------------------------------------------------

use navlab::geom::Vec2;
use navlab::grid::{Tile, TileMap};
use navlab::navmesh::radius::shrink;
use navlab::navmesh::{QueryOptions, find_path};
use navlab::search::NoObserver;
use proptest::prelude::*;

/// The distance between segments `a`–`b` and `c`–`d` (0 when they cross).
fn segment_distance(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> f64 {
    let point_to = |p: Vec2, s: Vec2, e: Vec2| {
        let d = e - s;
        let len2 = d.dot(d);
        let t = if len2 > 0.0 {
            ((p - s).dot(d) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        p.distance(s + d * t)
    };
    let cross = |o: Vec2, p: Vec2, q: Vec2| (p - o).cross(q - o);
    let (d1, d2) = (cross(a, b, c), cross(a, b, d));
    let (d3, d4) = (cross(c, d, a), cross(c, d, b));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return 0.0;
    }
    point_to(a, c, d)
        .min(point_to(b, c, d))
        .min(point_to(c, a, b))
        .min(point_to(d, a, b))
}

/// The walls of a mesh: its edges with one triangle.
fn walls(mesh: &NavMesh) -> Vec<(Vec2, Vec2)> {
    mesh.edges()
        .iter()
        .filter(|e| e.triangles.len() == 1)
        .map(|e| {
            (
                mesh.vertices()[e.vertices[0]],
                mesh.vertices()[e.vertices[1]],
            )
        })
        .collect()
}

/// How far a path comes to the walls.
fn clearance(path: &[Vec2], walls: &[(Vec2, Vec2)]) -> f64 {
    let mut least = f64::INFINITY;
    for leg in path.windows(2) {
        for &(c, d) in walls {
            least = least.min(segment_distance(leg[0], leg[1], c, d));
        }
    }
    if path.len() == 1 {
        for &(c, d) in walls {
            least = least.min(segment_distance(path[0], path[0], c, d));
        }
    }
    least
}

#[test]
fn a_room_with_a_pillar_shrinks_to_the_offset_area() {
    // A 10 × 8 room with a 2 × 2 pillar in the middle.
    let map = common::walled_map(&[
        "..........",
        "..........",
        "..........",
        "....##....",
        "....##....",
        "..........",
        "..........",
        "..........",
    ]);
    let mesh = navlab::navmesh::from_map::navmesh_from_map(&map, 0.0).expect("mesh");
    let r = 0.5;
    let shrunk = shrink(&mesh, r).expect("shrinks");
    let area: f64 = shrunk.mesh.triangles().iter().map(|t| t.area).sum();
    // The room's inner rectangle less the pillar grown by r: its sides pushed out by r, its
    // corners rounded (here circumscribed by 16-gons, up to 1.3 % more than the circle).
    let room = (10.0 - 2.0 * r) * (8.0 - 2.0 * r);
    let pillar = 4.0 + 4.0 * 2.0 * r + std::f64::consts::PI * r * r;
    let exact = room - pillar;
    assert!(area <= exact + 1e-9, "{area} > {exact}");
    assert!(
        area >= exact - 0.02 * std::f64::consts::PI * r * r,
        "{area} < {exact}"
    );
    assert!(shrunk.summary.closed.is_empty());
}

#[test]
fn a_passage_narrower_than_the_agent_closes_and_is_marked() {
    // Two rooms joined by a corridor one tile wide.
    let map = common::walled_map(&[
        "....#....",
        "....#....",
        ".........",
        "....#....",
        "....#....",
    ]);
    let mesh = navlab::navmesh::from_map::navmesh_from_map(&map, 0.0).expect("mesh");
    assert_eq!(mesh.island_count(), 1);
    let open = shrink(&mesh, 0.4).expect("shrinks");
    assert_eq!(
        open.mesh.island_count(),
        1,
        "a 1-wide gap lets a 0.8-wide agent through"
    );
    let closed = shrink(&mesh, 0.6).expect("shrinks");
    assert_eq!(closed.mesh.island_count(), 2);
    assert_eq!(closed.summary.closed.len(), 1);
    let mark = closed.summary.closed[0].at;
    assert!(
        (mark.x - 4.5).abs() < 0.6 && (mark.y - 2.5).abs() < 0.6,
        "{mark}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases_or(24),
        ..ProptestConfig::default()
    })]

    /// On meshes of random maps, and the same meshes with an obstacle cut into them, every
    /// path on the mesh shrunk by r keeps at least r from the original mesh's walls.
    #[test]
    fn paths_on_a_shrunk_mesh_keep_the_radius_from_every_wall(
        walls_at in prop::collection::vec(prop::bool::weighted(0.2), 12 * 9),
        picks in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 6),
        r in 0.05f64..0.45,
        cut in any::<bool>(),
    ) {
        let rows: Vec<Vec<Tile>> = walls_at
            .chunks(12)
            .map(|row| row.iter().map(|&w| if w { Tile::Wall } else { Tile::Grass }).collect())
            .collect();
        let map = TileMap::from_rows(rows).expect("map");
        let Ok(mut mesh) = navlab::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
            return Ok(());
        };
        if cut {
            use navlab::navmesh::edit::{MeshEditor, shape::{Shape, ShapeKind}};
            let mut editor = MeshEditor::new(std::sync::Arc::new(mesh.clone()));
            let outline = vec![[5.3, 3.3], [6.7, 3.6], [6.2, 5.1], [5.1, 4.6]];
            if editor.add_shape(Shape { outline, kind: ShapeKind::Obstacle, floor: None }).is_ok() {
                mesh = (**editor.mesh()).clone();
            }
        }
        let Ok(shrunk) = shrink(&mesh, r) else {
            return Ok(());
        };
        let original = walls(&mesh);
        let b = shrunk.mesh.bounds();
        let at = |(u, v): (f64, f64)| {
            Vec2::new(b.min.x + u * (b.max.x - b.min.x), b.min.y + v * (b.max.y - b.min.y))
        };
        for pair in picks.windows(2) {
            let (from, to) = (at(pair[0]), at(pair[1]));
            let path = find_path(&shrunk.mesh, from, to, QueryOptions::default(), &mut NoObserver, &mut NoObserver)
                .expect("finite");
            if path.waypoints.is_empty() {
                continue;
            }
            let least = clearance(&path.waypoints, &original);
            prop_assert!(least >= r - 1e-9, "{from} → {to}: {least} < {r}: {:?}", path.waypoints);
        }
        // The shrunk mesh's own corners keep the radius too.
        for &p in shrunk.mesh.vertices() {
            prop_assert!(clearance(&[p], &original) >= r - 1e-9);
        }
    }
}

/// Level geometry read whole: its walls and ceilings are faces, joined to the floors by
/// slivers. Between two points of one island, A* (over the triangles' shared edges) finds a
/// path where Polyanya, searching in the plane, cannot follow the folds. Neither answer may
/// then say the goal is out of reach: Polyanya's last step, its answer, the window's panel and
/// `path --optimal` all say that the start and the goal are joined, and why no shortest path
/// came. Between islands, it is out of reach, and said so.
#[test]
fn on_level_geometry_read_whole_no_answer_claims_a_joined_goal_is_out_of_reach() {
    use navlab::geom::Vec2;
    use navlab::navmesh::anyangle::{PolyanyaEvent, shortest_path};
    use navlab::navmesh::query::{QueryOptions, find_path};
    use navlab::search::NoObserver;
    let Some(file) = testdata("meshes/obj/level.obj") else {
        return;
    };
    let mesh = NavMesh::load(&file, Plane::Xz).expect("loads");
    let (from, to) = (Vec2::new(3.095, 4.940), Vec2::new(3.221, 4.661));
    let corridor = find_path(
        &mesh,
        from,
        to,
        QueryOptions::default(),
        &mut NoObserver,
        &mut NoObserver,
    )
    .expect("located");
    assert_eq!(
        corridor.status,
        navlab::navmesh::PathStatus::Found,
        "A* finds one"
    );
    let mut events = Vec::new();
    let optimal = shortest_path(&mesh, from, to, &mut events);
    if !optimal.is_found() {
        assert!(optimal.connected);
        assert_eq!(
            events.last(),
            Some(&PolyanyaEvent::Exhausted { connected: true })
        );
        let last = events.last().expect("events").explain();
        assert!(!last.contains("cannot be reached"), "{last}");
        let (code, out, _) = common::navlab(&[
            "path",
            file.to_str().expect("utf-8"),
            "--from",
            "3.095,4.940",
            "--to",
            "3.221,4.661",
            "--optimal",
            "--json",
        ]);
        assert_eq!(code, Some(1));
        let answer: serde_json::Value = serde_json::from_str(&out).expect("json");
        assert_eq!(answer["status"], "not_followed");
    }
    // Two islands of the built-in faulty export: out of reach, and said so.
    let faulty = navlab::navmesh::obj::parse(navlab::assets::FAULTY.obj, "faulty.obj", Plane::Xz)
        .expect("asset");
    let (a, b) = (0, faulty.triangles().len() - 1);
    assert_ne!(faulty.island_of(a), faulty.island_of(b));
    let mut events = Vec::new();
    let apart = shortest_path(
        &faulty,
        faulty.triangles()[a].centroid,
        faulty.triangles()[b].centroid,
        &mut events,
    );
    assert!(!apart.is_found() && !apart.connected);
    assert_eq!(
        events.last(),
        Some(&PolyanyaEvent::Exhausted { connected: false })
    );
    assert!(
        events
            .last()
            .expect("events")
            .explain()
            .contains("another island")
    );
}
