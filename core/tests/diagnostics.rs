//! Mesh diagnostics: one small hand-made mesh per kind of fault, each reporting that kind (and
//! only what the fault implies); a clean mesh reporting nothing; the repair; and the Blender
//! export's islands against an independent count of its face-connected components.

mod common;
use common::testdata;
use navlab_core::navmesh::diagnose::{
    CheckOptions, CheckReport, FindingKind, Severity, check_raw, repair,
};
use navlab_core::navmesh::{NavMesh, Plane, RawMesh};
use std::collections::HashMap;

/// A mesh in the XZ plane at height 0 from (x, z) points and faces.
fn raw(points: &[(f64, f64)], faces: &[&[usize]]) -> RawMesh {
    RawMesh::new(
        points.iter().map(|&(x, z)| [x, 0.0, z]).collect(),
        faces.iter().map(|f| f.to_vec()).collect(),
        Plane::Xz,
    )
}

/// A 3 × 2 grid of unit squares (4 × 3 vertices, id = z * 4 + x), all wound the same way.
fn grid_points() -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    for z in 0..3 {
        for x in 0..4 {
            points.push((x as f64, z as f64));
        }
    }
    points
}

fn grid_faces() -> Vec<Vec<usize>> {
    let mut faces = Vec::new();
    for z in 0..2 {
        for x in 0..3 {
            let v = z * 4 + x;
            faces.push(vec![v, v + 4, v + 5, v + 1]);
        }
    }
    faces
}

fn grid() -> RawMesh {
    let faces = grid_faces();
    let refs: Vec<&[usize]> = faces.iter().map(Vec::as_slice).collect();
    raw(&grid_points(), &refs)
}

fn kinds(report: &CheckReport) -> Vec<FindingKind> {
    report.findings.iter().map(|f| f.kind).collect()
}

fn check(mesh: &RawMesh) -> CheckReport {
    let report = check_raw(mesh, &CheckOptions::default());
    for finding in &report.findings {
        assert_eq!(finding.count, finding.items.len());
        assert_eq!(finding.severity, finding.kind.severity());
        for item in &finding.items {
            assert!(item.at.iter().all(|c| c.is_finite()), "{item:?}");
            assert!(!item.note.is_empty());
        }
    }
    report
}

#[test]
fn a_clean_mesh_reports_nothing() {
    let report = check(&grid());
    assert_eq!(report.islands, 1);
    assert!(report.is_clean(), "{report:#?}");
}

#[test]
fn two_pieces_are_two_islands() {
    let mut mesh = grid();
    let base = mesh.positions.len();
    mesh.positions.extend([
        [5.0, 0.0, 0.0],
        [5.0, 0.0, 1.0],
        [6.0, 0.0, 1.0],
        [6.0, 0.0, 0.0],
    ]);
    mesh.polygons.push(vec![base, base + 1, base + 2, base + 3]);
    let report = check(&mesh);
    assert_eq!(kinds(&report), [FindingKind::Islands]);
    assert_eq!(report.islands, 2);
    let islands = report.get(FindingKind::Islands).expect("islands");
    assert_eq!(islands.severity, Severity::Warning);
    assert_eq!(islands.items[1].faces, [6], "the small piece is face 6");
    assert_eq!(islands.items[1].at, [5.5, 0.5]);
}

/// A square touching the grid's corner at vertex 11 (3, 2) alone: two islands, and a pinch
/// vertex naming the faces on either side.
#[test]
fn pieces_touching_at_a_vertex_alone_make_a_pinch() {
    let mut mesh = grid();
    let base = mesh.positions.len();
    mesh.positions
        .extend([[4.0, 0.0, 2.0], [4.0, 0.0, 3.0], [3.0, 0.0, 3.0]]);
    mesh.polygons.push(vec![11, base + 2, base + 1, base]);
    let report = check(&mesh);
    assert_eq!(
        kinds(&report),
        [FindingKind::Islands, FindingKind::PinchVertex]
    );
    let pinch = report.get(FindingKind::PinchVertex).expect("a pinch");
    assert_eq!(pinch.severity, Severity::Warning);
    assert_eq!(pinch.items.len(), 1);
    let item = &pinch.items[0];
    assert_eq!(item.vertices, [11]);
    assert_eq!(item.faces, [5, 6]);
    assert_eq!(item.at, [3.0, 2.0]);
    assert!(item.note.contains("faces 5 | 6"), "{}", item.note);
}

/// The Iron Harvest mesh the `polyanya` crate ships has 53 pinch vertices (the crate's own
/// tests name one at (-33.91, -75.15)).
#[test]
fn the_iron_harvest_mesh_has_its_pinch_vertices_named() {
    let Some(path) = common::polyanya_crate("meshes/v3/scene_mp_2p_01.mesh") else {
        return;
    };
    let mesh = NavMesh::load(&path, Plane::Xy).expect("loads");
    let report = navlab_core::navmesh::diagnose::check(&mesh, &CheckOptions::default());
    let pinches = report.get(FindingKind::PinchVertex).expect("pinches");
    assert_eq!(pinches.count, 53);
    assert!(
        pinches
            .items
            .iter()
            .any(|i| (i.at[0] + 33.91).abs() < 0.01 && (i.at[1] + 75.15).abs() < 0.01),
        "the pinch at (-33.91, -75.15)"
    );
}

#[test]
fn an_edge_with_three_triangles_is_non_manifold() {
    // Two triangles on either side of the edge 0–1, and a third folded onto one of them (a
    // non-manifold edge in a plane always puts two triangles over each other).
    let mesh = raw(
        &[(0.0, 0.0), (0.0, 2.0), (-1.0, 1.0), (1.0, 1.0), (0.6, 1.0)],
        &[&[0, 1, 2], &[1, 0, 3], &[1, 0, 4]],
    );
    let report = check(&mesh);
    let found = report.get(FindingKind::NonManifoldEdge).expect("found");
    assert_eq!(found.count, 1);
    assert_eq!(found.items[0].faces, [0, 1, 2]);
    let mut vertices = found.items[0].vertices.clone();
    vertices.sort_unstable();
    assert_eq!(vertices, [0, 1]);
    assert_eq!(found.items[0].at, [0.0, 1.0]);
    assert_eq!(
        kinds(&report),
        [FindingKind::NonManifoldEdge, FindingKind::Overlap]
    );
    assert!(report.has_errors());
}

#[test]
fn collinear_corners_and_wall_faces_are_degenerate() {
    let mut mesh = grid();
    let base = mesh.positions.len();
    // Three points on a line, away from the mesh.
    mesh.positions
        .extend([[5.0, 0.0, 0.0], [6.0, 0.0, 0.0], [7.0, 0.0, 0.0]]);
    mesh.polygons.push(vec![base, base + 1, base + 2]);
    // A vertical wall face standing on the grid's bottom edge.
    mesh.positions.extend([[1.0, 2.0, 0.0], [0.0, 2.0, 0.0]]);
    mesh.polygons.push(vec![0, 1, base + 3, base + 4]);
    let report = check(&mesh);
    assert_eq!(kinds(&report), [FindingKind::DegenerateTriangle]);
    let found = report.get(FindingKind::DegenerateTriangle).expect("found");
    assert_eq!(found.count, 2);
    assert_eq!(found.items[0].faces, [6]);
    assert_eq!(found.items[1].faces, [7]);
    assert!(
        found.items[1].note.contains("vertical"),
        "{}",
        found.items[1].note
    );
}

#[test]
fn a_sliver_on_the_border_is_a_needle() {
    let mut mesh = grid();
    let base = mesh.positions.len();
    mesh.positions.push([3.04, 0.0, 0.5]);
    // Shares the grid's border edge 3–7 (from (3,0) to (3,1)), wound like the grid.
    mesh.polygons.push(vec![3, 7, base]);
    let report = check(&mesh);
    assert_eq!(kinds(&report), [FindingKind::NeedleTriangle], "{report:#?}");
    let found = report.get(FindingKind::NeedleTriangle).expect("found");
    assert_eq!(found.items[0].faces, [6]);
    assert!(
        found.items[0].note.contains("4.5"),
        "{}",
        found.items[0].note
    );
}

#[test]
fn a_vertex_written_twice_is_a_duplicate() {
    let mut mesh = grid();
    mesh.positions.push([1.0, 0.0, 1.0]); // the same place as vertex 5
    let copy = mesh.positions.len() - 1;
    for v in &mut mesh.polygons[0] {
        if *v == 5 {
            *v = copy;
        }
    }
    let report = check(&mesh);
    assert_eq!(kinds(&report), [FindingKind::DuplicateVertex]);
    let found = report.get(FindingKind::DuplicateVertex).expect("found");
    assert_eq!(found.items[0].vertices, [5, copy]);
    assert_eq!(found.items[0].at, [1.0, 1.0]);
}

#[test]
fn float_noise_at_a_seam_is_a_near_duplicate_and_repair_welds_it() {
    // Face 0 uses a copy of vertex 1 (the bottom border at x = 1) moved by 1e-5: not welded
    // (tolerance 3e-6 on this 3-unit mesh), so faces 0 and 1 are no longer connected.
    let mut mesh = grid();
    mesh.positions.push([1.0 + 1e-5, 0.0, 0.0]);
    let copy = mesh.positions.len() - 1;
    for v in &mut mesh.polygons[0] {
        if *v == 1 {
            *v = copy;
        }
    }
    let report = check(&mesh);
    assert_eq!(
        kinds(&report),
        [FindingKind::NearDuplicateVertex],
        "{report:#?}"
    );
    let found = report.get(FindingKind::NearDuplicateVertex).expect("found");
    let mut vertices = found.items[0].vertices.clone();
    vertices.sort_unstable();
    assert_eq!(vertices, [1, copy]);
    let before = mesh.build().expect("builds");
    let left = before
        .triangle_at(navlab_core::geom::Vec2::new(0.9, 0.1))
        .expect("left");
    let right = before
        .triangle_at(navlab_core::geom::Vec2::new(1.1, 0.1))
        .expect("right");
    assert_eq!(
        before.shared_edge(left, right),
        None,
        "the seam disconnects them"
    );

    let (fixed, summary) = repair(&mesh, &CheckOptions::default());
    assert_eq!(summary.welded, 1);
    assert!(check(&fixed).is_clean(), "{:#?}", check(&fixed));
    let after = fixed.build().expect("builds");
    let left = after
        .triangle_at(navlab_core::geom::Vec2::new(0.9, 0.1))
        .expect("left");
    let right = after
        .triangle_at(navlab_core::geom::Vec2::new(1.1, 0.1))
        .expect("right");
    assert!(after.shared_edge(left, right).is_some());
}

/// Bottom row of two unit cells; above, a tall cell on the left and two cells on the right:
/// vertex 7 at (1, 2) lies on the tall cell's edge from (1, 1) to (1, 3).
fn t_junction_mesh() -> RawMesh {
    raw(
        &[
            (0.0, 0.0),
            (1.0, 0.0),
            (2.0, 0.0),
            (0.0, 1.0),
            (1.0, 1.0),
            (2.0, 1.0),
            (0.0, 3.0),
            (1.0, 2.0),
            (2.0, 2.0),
            (1.0, 3.0),
            (2.0, 3.0),
        ],
        &[
            &[0, 3, 4, 1],
            &[1, 4, 5, 2],
            &[3, 6, 9, 4],
            &[4, 7, 8, 5],
            &[7, 9, 10, 8],
        ],
    )
}

#[test]
fn a_vertex_on_another_faces_edge_is_a_t_junction_and_repair_splits_the_edge() {
    let mesh = t_junction_mesh();
    let report = check(&mesh);
    assert_eq!(kinds(&report), [FindingKind::TJunction], "{report:#?}");
    let found = report.get(FindingKind::TJunction).expect("found");
    assert_eq!(found.items[0].faces, [2]);
    assert_eq!(found.items[0].vertices[0], 7);
    assert_eq!(found.items[0].at, [1.0, 2.0]);
    // Not connected across x = 1 above the bottom row.
    let before = mesh.build().expect("builds");
    let tall = before
        .triangle_at(navlab_core::geom::Vec2::new(0.9, 2.5))
        .expect("tall");
    let upper_right = before
        .triangle_at(navlab_core::geom::Vec2::new(1.1, 2.5))
        .expect("right");
    assert_eq!(before.shared_edge(tall, upper_right), None);

    let (fixed, summary) = repair(&mesh, &CheckOptions::default());
    assert_eq!(summary.split, 1);
    assert!(fixed.polygons[2].contains(&7), "{:?}", fixed.polygons[2]);
    assert!(check(&fixed).is_clean(), "{:#?}", check(&fixed));
    let after = fixed.build().expect("builds");
    let tall = after
        .triangle_at(navlab_core::geom::Vec2::new(0.9, 2.5))
        .expect("tall");
    let upper_right = after
        .triangle_at(navlab_core::geom::Vec2::new(1.1, 2.5))
        .expect("right");
    assert!(after.shared_edge(tall, upper_right).is_some());
}

#[test]
fn a_face_wound_the_other_way_is_inconsistent() {
    let mut mesh = grid();
    mesh.polygons[4].reverse();
    let report = check(&mesh);
    assert_eq!(kinds(&report), [FindingKind::InconsistentWinding]);
    let found = report.get(FindingKind::InconsistentWinding).expect("found");
    assert_eq!(found.count, 1);
    assert_eq!(found.items[0].faces, [4]);
    assert_eq!(found.items[0].at, [1.5, 1.5]);
}

#[test]
fn a_face_folded_over_another_overlaps() {
    let mut mesh = grid();
    let base = mesh.positions.len();
    mesh.positions.push([2.5, 0.0, 0.5]);
    // Hangs off the border edge 3–7 and lies over face 2, wound like the rest.
    let (a, b) = (3usize, 7usize);
    let tri = {
        let p = |v: usize| {
            let q = mesh.positions[v];
            navlab_core::geom::Vec2::new(q[0], q[2])
        };
        let apex = navlab_core::geom::Vec2::new(2.5, 0.5);
        let grid_sign = navlab_core::geom::orient(p(0), p(4), p(5)).signum();
        if navlab_core::geom::orient(p(a), p(b), apex).signum() == grid_sign {
            vec![a, b, base]
        } else {
            vec![b, a, base]
        }
    };
    mesh.polygons.push(tri);
    let report = check(&mesh);
    assert_eq!(kinds(&report), [FindingKind::Overlap], "{report:#?}");
    let found = report.get(FindingKind::Overlap).expect("found");
    assert!(
        found
            .items
            .iter()
            .all(|i| i.faces.contains(&6) && i.faces.contains(&2))
    );
    assert!(found.items[0].note.contains("same height"));
}

#[test]
fn a_vertex_pulled_high_is_off_the_plane() {
    let mut mesh = grid();
    mesh.positions[11][1] = 2.0; // the far corner (3, 2), 2 units up
    let report = check(&mesh);
    assert_eq!(kinds(&report), [FindingKind::OffPlane], "{report:#?}");
    let found = report.get(FindingKind::OffPlane).expect("found");
    assert_eq!(found.count, 1);
    assert_eq!(found.items[0].vertices, [11]);
    assert!(found.items[0].note.contains("above"));
}

#[test]
fn the_blender_export_has_its_24_islands_and_names_the_rest() {
    let Some(path) = testdata("meshes/obj/level.nav.obj") else {
        return;
    };
    let mesh = NavMesh::load(&path, Plane::Xz).expect("loads");
    let report = navlab_core::navmesh::diagnose::check(&mesh, &CheckOptions::default());

    // Independent count: faces joined by edges between positions that are equal.
    let raw = mesh.raw();
    let key = |v: usize| raw.positions[v].map(|c| (c + 0.0).to_bits());
    let mut id: HashMap<[u64; 3], usize> = HashMap::new();
    let welded: Vec<usize> = (0..raw.positions.len())
        .map(|v| {
            let n = id.len();
            *id.entry(key(v)).or_insert(n)
        })
        .collect();
    let mut parent: Vec<usize> = (0..raw.polygons.len()).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            x = p[x];
        }
        x
    }
    let mut owner: HashMap<(usize, usize), usize> = HashMap::new();
    for (f, poly) in raw.polygons.iter().enumerate() {
        for k in 0..poly.len() {
            let (a, b) = (welded[poly[k]], welded[poly[(k + 1) % poly.len()]]);
            if let Some(&g) = owner.get(&(a.min(b), a.max(b))) {
                let (ra, rb) = (find(&mut parent, f), find(&mut parent, g));
                parent[ra] = rb;
            } else {
                owner.insert((a.min(b), a.max(b)), f);
            }
        }
    }
    let components: std::collections::HashSet<usize> = (0..raw.polygons.len())
        .map(|f| find(&mut parent, f))
        .collect();
    assert_eq!(components.len(), 24, "SOURCES.md lists 24");
    assert_eq!(report.islands, components.len());
    assert_eq!(report.islands, mesh.island_count());
    let islands = report.get(FindingKind::Islands).expect("islands");
    assert_eq!(islands.count, 24);
    let faces: usize = islands.items.iter().map(|i| i.faces.len()).sum();
    assert_eq!(faces, raw.polygons.len(), "every face is in one island");
    // The rest of the report, for the record.
    for finding in &report.findings {
        println!(
            "{} ({:?}): {}",
            finding.kind.name(),
            finding.severity,
            finding.count
        );
        for item in finding.items.iter().take(3) {
            println!("  {}", item.note);
        }
    }
}

#[test]
fn the_built_in_meshes_have_no_errors_but_the_deliberate_ones() {
    for scene in navlab_core::assets::ALL {
        let mesh =
            navlab_core::navmesh::obj::parse(scene.obj, scene.name, Plane::Xz).expect("loads");
        let report = navlab_core::navmesh::diagnose::check(&mesh, &CheckOptions::default());
        if scene.name == "stairs.obj" {
            // Built to show a non-manifold edge: the flight leaves the floor along an edge the
            // floor also uses, and the flight lies over the floor (layers).
            assert_eq!(
                kinds(&report),
                [FindingKind::NonManifoldEdge, FindingKind::Overlap]
            );
            let fold = report.get(FindingKind::NonManifoldEdge).expect("fold");
            assert_eq!(fold.count, 1);
            assert!(
                report
                    .get(FindingKind::Overlap)
                    .expect("layers")
                    .items
                    .iter()
                    .all(|i| i.note.contains("layers"))
            );
        } else if scene.name == "faulty.obj" {
            // Built with one of each common export fault (see the comments in the file).
            assert_eq!(
                kinds(&report),
                [
                    FindingKind::Islands,
                    FindingKind::NearDuplicateVertex,
                    FindingKind::TJunction,
                    FindingKind::DegenerateTriangle,
                    FindingKind::InconsistentWinding,
                    FindingKind::NeedleTriangle,
                ]
            );
            assert_eq!(report.islands, 3);
            let (fixed, summary) = repair(mesh.raw(), &CheckOptions::default());
            assert_eq!((summary.welded, summary.split), (1, 1));
            let after = check_raw(&fixed, &CheckOptions::default());
            assert_eq!(after.islands, 2, "only the separate platform is left apart");
            assert!(after.get(FindingKind::TJunction).is_none());
            assert!(after.get(FindingKind::NearDuplicateVertex).is_none());
        } else {
            assert!(!report.has_errors(), "{}: {report:#?}", scene.name);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(common::cases_or(64)))]

    /// Any polygons at all (repeated, out-of-range or non-finite corners, folds, slivers):
    /// checking and repairing never panic, counts match the items, and a repaired mesh that
    /// builds can be checked again.
    #[test]
    fn checking_and_repairing_never_panic(
        points in proptest::collection::vec((-3i32..4, -2i32..3, -3i32..4), 3..14),
        faces in proptest::collection::vec(proptest::collection::vec(0usize..16, 0..6), 0..10),
        poison in proptest::option::of(0usize..14),
    ) {
        let mut positions: Vec<[f64; 3]> = points
            .iter()
            .map(|&(x, y, z)| [f64::from(x) * 0.5, f64::from(y) * 0.25, f64::from(z) * 0.5])
            .collect();
        if let Some(i) = poison
            && let Some(p) = positions.get_mut(i)
        {
            p[0] = f64::NAN;
        }
        let mesh = RawMesh::new(positions, faces, Plane::Xz);
        let report = check_raw(&mesh, &CheckOptions::default());
        for finding in &report.findings {
            proptest::prop_assert_eq!(finding.count, finding.items.len());
        }
        let (fixed, _) = repair(&mesh, &CheckOptions::default());
        if let Ok(built) = fixed.build() {
            let again = navlab_core::navmesh::diagnose::check(&built, &CheckOptions::default());
            proptest::prop_assert!(again.islands >= 1);
        }
    }
}

/// A valid constrained Delaunay triangulation of a game map, written as exporters write meshes
/// — scaled and moved into a large world, coordinates rounded to `f32`, faces reordered, every
/// face with its own copy of its corners — and with one very fine part (a triangle split at a
/// point a hair from its corner), reports no errors: a vertex close
/// to another is a seam only when no edge joins them and it is close by the mesh around it.
#[test]
fn a_valid_cdt_of_a_map_written_as_exporters_do_reports_no_errors() {
    let Some(path) = testdata("movingai/maze512-4-0.map") else {
        return;
    };
    let map = navlab_core::grid::movingai::load_map(&path).expect("map");
    let mesh = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0).expect("mesh");
    let (scale, offset) = (37.3, [10_000.0, -20_000.0]);
    let world = |v: usize| {
        let p = mesh.vertices()[v];
        [
            (p.x * scale + offset[0]) as f32 as f64,
            0.0,
            (p.y * scale + offset[1]) as f32 as f64,
        ]
    };
    let faces: Vec<[usize; 3]> = mesh.triangles().iter().map(|t| t.vertices).collect();
    // Fine detail: triangle 0 split at a point 1e-5 of the mesh's size from its first corner
    // (closer than the 1e-4 of the size that a near-duplicate may be apart at most).
    let [a, b, c] = faces[0];
    let (pa, pb, pc) = (mesh.vertices()[a], mesh.vertices()[b], mesh.vertices()[c]);
    let centre = (pa + pb + pc) * (1.0 / 3.0);
    let size = 512.0;
    let near = pa + (centre - pa) * (1e-5 * size / centre.distance(pa));
    // Reordered: every 7th face first, the rest after, each written with its own corners.
    let mut order: Vec<usize> = (0..faces.len()).step_by(7).collect();
    order.extend((0..faces.len()).filter(|k| k % 7 != 0));
    let mut positions: Vec<[f64; 3]> = Vec::new();
    let mut polygons: Vec<Vec<usize>> = Vec::new();
    let mut push = |corners: &[[f64; 3]]| {
        let first = positions.len();
        positions.extend_from_slice(corners);
        polygons.push((first..first + corners.len()).collect());
    };
    let near_world = [
        (near.x * scale + offset[0]) as f32 as f64,
        0.0,
        (near.y * scale + offset[1]) as f32 as f64,
    ];
    for k in order {
        let [u, v, w] = faces[k];
        if k == 0 {
            // The split: three triangles round the point near corner a.
            push(&[world(u), world(v), near_world]);
            push(&[world(v), world(w), near_world]);
            push(&[world(w), world(u), near_world]);
        } else {
            push(&[world(u), world(v), world(w)]);
        }
    }
    let raw = RawMesh::new(positions, polygons, Plane::Xz);
    let report = check(&raw);
    let errors: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| (f.kind, f.count))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// A tiled export as a Unity-style exporter writes it: 8-unit tiles, each its own block of
/// vertices, wound clockwise; the tiles' shared borders written twice with float noise, and one
/// tile coarser than its neighbour. The seams are near-duplicates and the coarse tile's border
/// edges have the fine tile's vertices on them (T-junctions); the repair joins every tile.
#[test]
fn a_tiled_export_shows_its_seams_and_repair_joins_the_tiles() {
    let mut positions: Vec<[f64; 3]> = Vec::new();
    let mut polygons: Vec<Vec<usize>> = Vec::new();
    // Tile (tx, tz) with `cells` × `cells` quads; every vertex on a border the tile shares with a
    // tile written before it moved by a hair (as an exporter's float arithmetic does).
    let mut tile = |tx: usize, tz: usize, cells: usize| {
        let first = positions.len();
        let step = 8.0 / cells as f64;
        for j in 0..=cells {
            for i in 0..=cells {
                let (x, z) = (
                    tx as f64 * 8.0 + i as f64 * step,
                    tz as f64 * 8.0 + j as f64 * step,
                );
                let on_seam = (tx > 0 && i == 0) || (tz > 0 && j == 0);
                let noise = if on_seam { 3e-5 } else { 0.0 };
                positions.push([x + noise, 0.0, z - noise]);
            }
        }
        let id = |i: usize, j: usize| first + j * (cells + 1) + i;
        for j in 0..cells {
            for i in 0..cells {
                // (x, z) → (x + 1, z) → (x + 1, z + 1): the normal is −Y, clockwise seen from above.
                polygons.push(vec![id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
    };
    tile(0, 0, 4);
    tile(1, 0, 4);
    tile(0, 1, 2);
    tile(1, 1, 4);
    let mesh = RawMesh::new(positions, polygons, Plane::Xz);
    let report = check(&mesh);
    let found = kinds(&report);
    assert!(found.contains(&FindingKind::Islands), "{found:?}");
    assert!(
        found.contains(&FindingKind::NearDuplicateVertex),
        "{found:?}"
    );
    assert!(found.contains(&FindingKind::TJunction), "{found:?}");
    assert!(
        !found.contains(&FindingKind::InconsistentWinding),
        "every face is wound the same way: {found:?}"
    );
    let islands = report.get(FindingKind::Islands).expect("islands");
    assert_eq!(islands.count, 4, "one island per tile");
    // The fine tiles' border vertices on the coarse tile's edges: tile (0, 1) meets tile (0, 0)
    // along z = 8 and tile (1, 1) along x = 8, each with 2 vertices between its corners.
    let junctions = report.get(FindingKind::TJunction).expect("junctions");
    assert_eq!(junctions.count, 4, "{junctions:#?}");

    let (fixed, _) = repair(&mesh, &CheckOptions::default());
    let after = check(&fixed);
    assert!(
        after.get(FindingKind::Islands).is_none(),
        "the repaired tiles are one island: {after:#?}"
    );
    assert!(
        after.findings.iter().all(|f| f.severity != Severity::Error),
        "{after:#?}"
    );
}
