//! Level geometry read as a navmesh: the walkable filter checked against an independent sum of
//! the faces' areas, on the three-pathfinding level geometry and on generated box rooms.

mod common;
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
        },
    )
    .expect("loads");
    let summary = mesh.raw().walkable.expect("filtered");
    let share = summary.walkable_area / (summary.walkable_area + summary.dropped_area);
    assert!(share > 0.9, "{share}");
}
