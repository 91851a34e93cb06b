//! Property tests over generated meshes: A* against brute-force Dijkstra oracles, and the
//! geometric invariants every funnel path must satisfy.

mod common;
use common::*;
use navlab_core::navmesh::generate::{GridMeshSpec, jittered_grid};
use navlab_core::navmesh::{CostModel, NavMesh, PathStatus, QueryOptions, find_path};
use navlab_core::search::NoObserver;
use proptest::prelude::*;

fn small_mesh() -> impl Strategy<Value = (GridMeshSpec, f64, f64, f64, f64)> {
    (
        2usize..9,
        2usize..9,
        0.0f64..navlab_core::navmesh::generate::MAX_JITTER,
        0.0f64..1.0,
        any::<u64>(),
        0.0f64..1.0,
        0.0f64..1.0,
        0.0f64..1.0,
        0.0f64..1.0,
    )
        .prop_map(|(columns, rows, jitter, hole_chance, seed, a, b, c, d)| {
            (
                GridMeshSpec {
                    columns,
                    rows,
                    jitter,
                    hole_chance,
                    seed,
                },
                a,
                b,
                c,
                d,
            )
        })
}

/// A point in the mesh's bounds (possibly in a hole: it then snaps).
fn any_cost_model() -> impl Strategy<Value = CostModel> {
    prop_oneof![
        Just(CostModel::Centroid),
        Just(CostModel::Midpoint),
        Just(CostModel::Straight),
    ]
}

fn point_in(mesh: &NavMesh, u: f64, v: f64) -> navlab_core::geom::Vec2 {
    let b = mesh.bounds();
    p(
        b.min.x + u * (b.max.x - b.min.x),
        b.min.y + v * (b.max.y - b.min.y),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(96), ..ProptestConfig::default() })]

    /// The open list replayed from A*'s steps on its own nodes (what the window shows) names,
    /// before every expansion, the node then expanded: triangles with the centroid model, the
    /// (triangle, entry edge) states with edge midpoints. Those steps match the triangle steps
    /// one to one, and a state "entered from" a triangle is opened from a state in that one.
    #[test]
    fn the_open_list_head_is_the_next_node_expanded((spec, a, b, c, d) in small_mesh(), weight in 0.0f64..3.0, cost in any_cost_model()) {
        use navlab_core::navmesh::{EdgeState, EdgeStates, find_path_with_states};
        use navlab_core::search::{ExpansionOrder, SearchEvent};
        let mesh = jittered_grid(spec);
        let (from, to) = (point_in(&mesh, a, b), point_in(&mesh, c, d));
        let options = QueryOptions { cost, heuristic_weight: weight, ..QueryOptions::default() };
        let (mut trace, mut states): (Vec<SearchEvent>, Vec<SearchEvent>) = (Vec::new(), Vec::new());
        let path = find_path_with_states(&mesh, from, to, options, &mut trace, &mut states, &mut NoObserver)
            .expect("finite");
        prop_assert_eq!(states.len(), trace.len());
        let disagreement = frontier_disagreement(&states, ExpansionOrder::LowestF);
        prop_assert!(disagreement.is_none(), "{:?}", disagreement);
        if cost == CostModel::Centroid {
            prop_assert_eq!(&states, &trace);
            return Ok(());
        }
        let layout = EdgeStates::new(&mesh, &path.start, &path.goal);
        let node = |e: &SearchEvent| match *e {
            SearchEvent::Opened { node, .. } | SearchEvent::Improved { node, .. } | SearchEvent::Expanded { node, .. } => Some(node),
            _ => None,
        };
        for (on_states, on_triangles) in states.iter().zip(&trace) {
            prop_assert_eq!(node(on_states).map(|n| layout.triangle_of(&mesh, n)), node(on_triangles));
            let (state, parent) = match *on_states {
                SearchEvent::Opened { node, parent: Some(parent), .. } | SearchEvent::Improved { node, parent, .. } => (node, parent),
                _ => continue,
            };
            match layout.state(&mesh, state) {
                EdgeState::Entered { triangle, from } => {
                    prop_assert_eq!(from, Some(layout.triangle_of(&mesh, parent)));
                    prop_assert!(mesh.shared_edge(triangle, layout.triangle_of(&mesh, parent)).is_some());
                }
                EdgeState::Goal(t) => prop_assert_eq!(layout.triangle_of(&mesh, parent), t),
                EdgeState::Start(_) => prop_assert!(false, "the start is never opened from another state"),
                EdgeState::Linked { .. } => prop_assert!(false, "the mesh has no link"),
            }
        }
    }

    #[test]
    fn centroid_astar_cost_equals_dijkstra((spec, a, b, c, d) in small_mesh(), weight_zero in any::<bool>()) {
        let mesh = jittered_grid(spec);
        let (from, to) = (point_in(&mesh, a, b), point_in(&mesh, c, d));
        let options = QueryOptions {
            cost: CostModel::Centroid,
            heuristic_weight: if weight_zero { 0.0 } else { 1.0 },
            ..QueryOptions::default()
        };
        let path = find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver).expect("finite");
        let oracle = dijkstra_oracle(mesh.triangles().len(), &centroid_graph(&mesh), path.start.triangle);
        let want = oracle[path.goal.triangle];
        if want.is_finite() {
            prop_assert_ne!(path.status, PathStatus::Unreachable);
            prop_assert!((path.corridor_cost - want).abs() <= 1e-9 * want.max(1.0),
                "A* {} vs Dijkstra {}", path.corridor_cost, want);
            check_path_invariants(&mesh, &path);
        } else {
            prop_assert_eq!(path.status, PathStatus::Unreachable);
        }
    }

    /// With edge midpoints or heading straight for the goal, A*'s cost is the length of a path
    /// through its corridor (each step runs inside one triangle), so the funnel's path through
    /// the same corridor, the shortest there, is never longer.
    #[test]
    fn edge_state_costs_are_lengths_of_paths_the_funnel_straightens(
        (spec, a, b, c, d) in small_mesh(),
        straight in any::<bool>(),
        weight in 0.0f64..3.0,
    ) {
        let mesh = jittered_grid(spec);
        let (from, to) = (point_in(&mesh, a, b), point_in(&mesh, c, d));
        let cost = if straight { CostModel::Straight } else { CostModel::Midpoint };
        let options = QueryOptions { cost, heuristic_weight: weight, ..QueryOptions::default() };
        let path = find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver).expect("finite");
        if path.status != PathStatus::Unreachable {
            prop_assert!(path.length <= path.corridor_cost + 1e-9 * path.length.max(1.0),
                "{cost:?}: funnel {} longer than A*'s {}", path.length, path.corridor_cost);
            check_path_invariants(&mesh, &path);
        }
    }

    #[test]
    fn midpoint_astar_cost_equals_dijkstra((spec, a, b, c, d) in small_mesh()) {
        let mesh = jittered_grid(spec);
        let (from, to) = (point_in(&mesh, a, b), point_in(&mesh, c, d));
        let options = QueryOptions { cost: CostModel::Midpoint, ..QueryOptions::default() };
        let path = find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver).expect("finite");
        let want = midpoint_oracle(
            &mesh,
            (path.start.triangle, path.start.point),
            (path.goal.triangle, path.goal.point),
        );
        if want.is_finite() {
            prop_assert!((path.corridor_cost - want).abs() <= 1e-9 * want.max(1.0),
                "A* {} vs Dijkstra {}", path.corridor_cost, want);
            check_path_invariants(&mesh, &path);
            // The funnel never makes the path longer than the midpoint route it improves on.
            prop_assert!(path.length <= path.corridor_cost + 1e-9 * want.max(1.0));
        } else {
            prop_assert_eq!(path.status, PathStatus::Unreachable);
        }
    }

    #[test]
    fn located_points_lie_in_their_triangle_and_snaps_are_nearest((spec, a, b, _c, _d) in small_mesh()) {
        let mesh = jittered_grid(spec);
        // Inside and around the mesh, and half the time exactly on a vertex.
        let q = if ((a * 1000.0) as u32).is_multiple_of(2) {
            point_in(&mesh, a * 1.2 - 0.1, b * 1.2 - 0.1)
        } else {
            mesh.vertices()[((b * 1e6) as usize) % mesh.vertices().len()]
        };
        let loc = mesh.locate(q).expect("finite");
        let [x, y, z] = mesh.corners(loc.triangle);
        prop_assert!(navlab_core::geom::triangle_contains(x, y, z, loc.point));
        prop_assert_eq!(loc.snapped, mesh.triangle_at(q).is_none());
        // The index answers exactly what a brute-force exact scan answers: the lowest id.
        let brute = (0..mesh.triangles().len()).find(|&t| {
            let [a, b, c] = mesh.corners(t);
            navlab_core::geom::triangle_contains(a, b, c, q)
        });
        prop_assert_eq!(mesh.triangle_at(q), brute);
        // Every triangle holding the point (a vertex is held by all round it), lowest first.
        let holding: Vec<usize> = (0..mesh.triangles().len())
            .filter(|&t| {
                let [a, b, c] = mesh.corners(t);
                navlab_core::geom::triangle_contains(a, b, c, q)
            })
            .collect();
        prop_assert_eq!(mesh.triangles_at(q), holding);
        // The seed's area-sum scan accepts a superset (its 0.1 % slack takes in points just
        // outside), so whatever the exact test finds, the scan finds too.
        if mesh.triangle_at(q).is_some() {
            prop_assert!(mesh.triangle_at_linear_scan(q).is_some());
        }
        if loc.snapped {
            // No triangle comes closer than the snapped point (brute force).
            let best = (0..mesh.triangles().len())
                .map(|t| {
                    let [a, b, c] = mesh.corners(t);
                    navlab_core::geom::closest_point_on_triangle(a, b, c, q).distance(q)
                })
                .fold(f64::INFINITY, f64::min);
            prop_assert!(loc.point.distance(q) <= best + 1e-9);
        }
    }

    #[test]
    fn paths_between_vertices_and_edge_points_keep_every_invariant(
        (spec, _a, _b, _c, _d) in small_mesh(),
        from_pick in any::<(usize, f64)>(),
        to_pick in any::<(usize, f64)>(),
        cost in any_cost_model(),
    ) {
        let mesh = jittered_grid(spec);
        // Points exactly on an edge (t = 0 or 1 gives its vertices).
        let on_edge = |(k, t): (usize, f64)| {
            let e = &mesh.edges()[k % mesh.edges().len()];
            let [a, b] = e.vertices.map(|v| mesh.vertices()[v]);
            let t = [0.0, 1.0, 0.5, t.abs().fract()][k % 4];
            a.lerp(b, t)
        };
        let (from, to) = (on_edge(from_pick), on_edge(to_pick));
        let options = QueryOptions { cost, ..QueryOptions::default() };
        let path = find_path(&mesh, from, to, options, &mut NoObserver, &mut NoObserver).expect("finite");
        if path.status != PathStatus::Unreachable {
            // Vertices are exact; other edge points may round a hair off a border edge.
            for loc in [path.start, path.goal] {
                prop_assert!(loc.point.distance(loc.requested) <= 1e-9);
            }
            check_path_invariants(&mesh, &path);
        }
    }
}

/// The 4-connected regions of passable tiles, by flood fill: region number per tile.
fn passable_regions(map: &navlab_core::grid::TileMap) -> (Vec<Option<usize>>, usize) {
    let (w, h) = (map.width(), map.height());
    let mut region = vec![None; w * h];
    let mut count = 0;
    for first in 0..w * h {
        if region[first].is_some() || !map.is_passable(map.cell(first)) {
            continue;
        }
        let mut stack = vec![first];
        region[first] = Some(count);
        while let Some(i) = stack.pop() {
            let (x, y) = map.cell(i);
            let near = [
                (x.wrapping_sub(1), y),
                (x + 1, y),
                (x, y.wrapping_sub(1)),
                (x, y + 1),
            ];
            for (nx, ny) in near {
                if nx < w && ny < h && map.is_passable((nx, ny)) {
                    let j = map.index((nx, ny));
                    if region[j].is_none() {
                        region[j] = Some(count);
                        stack.push(j);
                    }
                }
            }
        }
        count += 1;
    }
    (region, count)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(128), ..ProptestConfig::default() })]

    /// A mesh built from a map covers exactly its passable tiles, has one island per
    /// 4-connected region, passes the diagnostics, and finds a valid path exactly between tiles
    /// of the same region.
    #[test]
    fn a_mesh_built_from_a_map_covers_its_passable_tiles(
        map in tile_maps(1..13),
        picks in any::<(usize, usize)>(),
    ) {
        use navlab_core::navmesh::from_map::{FromMapError, navmesh_from_map};
        let passable = map.passable_count();
        let built = navmesh_from_map(&map, 0.0);
        if passable == 0 {
            prop_assert_eq!(built.err(), Some(FromMapError::NothingPassable));
            return Ok(());
        }
        let mesh = built.expect("a mesh");
        let summary = mesh.summary();
        prop_assert!((summary.area - passable as f64).abs() < 1e-9 * passable as f64, "area {} vs {passable} tiles", summary.area);
        let (region, regions) = passable_regions(&map);
        prop_assert_eq!(summary.islands, regions);
        for t in 0..mesh.triangles().len() {
            let [a, b, c] = mesh.corners(t);
            let centroid = (a + b + c) * (1.0 / 3.0);
            let tile = (centroid.x.floor() as usize, centroid.y.floor() as usize);
            prop_assert!(map.is_passable(tile), "triangle {t} over {tile:?}");
        }
        // Refined: nothing to report but the islands and the pinches (no slivers, no needles,
        // nothing broken); a pinch exactly where two passable tiles touch corner to corner
        // and the other two tiles at that corner are not passable.
        use navlab_core::navmesh::diagnose::FindingKind;
        let report = navlab_core::navmesh::diagnose::check(&mesh, &Default::default());
        prop_assert!(
            report.findings.iter().all(|f| matches!(f.kind, FindingKind::Islands | FindingKind::PinchVertex)),
            "{report:#?}"
        );
        let open = |x: i64, y: i64| {
            x >= 0 && y >= 0 && map.is_passable((x as usize, y as usize))
        };
        let mut want: Vec<[f64; 2]> = Vec::new();
        for y in 1..map.height() as i64 {
            for x in 1..map.width() as i64 {
                let (a, b, c, d) = (open(x - 1, y - 1), open(x, y), open(x, y - 1), open(x - 1, y));
                if (a && b && !c && !d) || (c && d && !a && !b) {
                    want.push([x as f64, y as f64]);
                }
            }
        }
        let mut got: Vec<[f64; 2]> = report
            .get(FindingKind::PinchVertex)
            .map_or(Vec::new(), |f| f.items.iter().map(|i| i.at).collect());
        got.sort_by(|p, q| p[1].total_cmp(&q[1]).then(p[0].total_cmp(&q[0])));
        prop_assert_eq!(got, want);

        // Between the centres of two passable tiles.
        let cells: Vec<usize> = (0..map.cell_count()).filter(|&i| map.is_passable(map.cell(i))).collect();
        let (a, b) = (cells[picks.0 % cells.len()], cells[picks.1 % cells.len()]);
        let centre = |i: usize| {
            let (x, y) = map.cell(i);
            p(x as f64 + 0.5, y as f64 + 0.5)
        };
        let path = find_path(&mesh, centre(a), centre(b), QueryOptions::default(), &mut NoObserver, &mut NoObserver)
            .expect("finite");
        if region[a] == region[b] {
            prop_assert_ne!(path.status, PathStatus::Unreachable);
            check_path_invariants(&mesh, &path);
            prop_assert!(path.length >= centre(a).distance(centre(b)) - 1e-9);
        } else {
            prop_assert_eq!(path.status, PathStatus::Unreachable);
        }
    }

    /// With an agent radius, the mesh is exactly where the agent's centre may go: its area is
    /// that of the map shrunk by the radius minus the blocked tiles grown by it (computed
    /// here by a sweep over rectangles, independently of the builder's cells), no vertex is
    /// closer than the radius to a blocked tile or the edge, a larger radius never gives more
    /// room, and the result still checks clean apart from islands.
    #[test]
    fn a_mesh_built_for_an_agent_radius_keeps_exactly_that_clearance(
        map in tile_maps(1..11),
        radius in prop::sample::select(vec![0.125, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5]),
    ) {
        use navlab_core::navmesh::from_map::{FromMapError, navmesh_from_map};
        let (w, h) = (map.width() as f64, map.height() as f64);
        let blocked: Vec<(f64, f64)> = (0..map.cell_count())
            .map(|i| map.cell(i))
            .filter(|&c| !map.is_passable(c))
            .map(|(x, y)| (x as f64, y as f64))
            .collect();
        let room = [radius, radius, w - radius, h - radius];
        let grown: Vec<[f64; 4]> = blocked
            .iter()
            .map(|&(x, y)| [x - radius, y - radius, x + 1.0 + radius, y + 1.0 + radius])
            .collect();
        let expected = if room[2] <= room[0] || room[3] <= room[1] {
            0.0
        } else {
            rect_area(room) - union_area_within(&grown, room)
        };
        let built = navmesh_from_map(&map, radius);
        // What the radius leaves out (shaded in the editor) and the mesh tile the passable
        // ground exactly, without overlap.
        let left_out: f64 = navlab_core::navmesh::from_map::too_close_for_agent(&map, radius)
            .into_iter()
            .map(rect_area)
            .sum();
        let passable = map.passable_count() as f64;
        prop_assert!((expected + left_out - passable).abs() < 1e-9 * w * h, "{expected} + {left_out} vs {passable}");
        if map.passable_count() == 0 {
            prop_assert_eq!(built.err(), Some(FromMapError::NothingPassable));
            return Ok(());
        }
        if expected < 1e-9 {
            prop_assert_eq!(built.err(), Some(FromMapError::NoRoom { radius }));
            return Ok(());
        }
        let mesh = built.expect("a mesh");
        let area = mesh.summary().area;
        prop_assert!((area - expected).abs() < 1e-9 * w * h, "area {area}, expected {expected}");
        let eps = 1e-9;
        for v in mesh.vertices() {
            prop_assert!(v.x >= radius - eps && v.x <= w - radius + eps && v.y >= radius - eps && v.y <= h - radius + eps, "{v:?} too near the edge");
            for &(x, y) in &blocked {
                let inside = x - radius + eps < v.x && v.x < x + 1.0 + radius - eps
                    && y - radius + eps < v.y && v.y < y + 1.0 + radius - eps;
                prop_assert!(!inside, "{v:?} closer than {radius} to the blocked tile at ({x}, {y})");
            }
        }
        let less = radius - navlab_core::navmesh::from_map::AGENT_RADIUS_STEP;
        let smaller = navmesh_from_map(&map, less).expect("more room with less radius");
        prop_assert!(smaller.summary().area >= area - 1e-9 * w * h);
        // Nothing to report but the islands and the pinches where the shrunk floor touches
        // itself at a corner.
        use navlab_core::navmesh::diagnose::FindingKind;
        let report = navlab_core::navmesh::diagnose::check(&mesh, &Default::default());
        prop_assert!(
            report.findings.iter().all(|f| matches!(f.kind, FindingKind::Islands | FindingKind::PinchVertex)),
            "{report:#?}"
        );
    }

    /// A mesh built from a map, written as a Polyanya mesh of triangles or of convex polygons,
    /// follows the format's rules — including at the vertices where blocked tiles touch corner
    /// to corner and the mesh meets itself — has convex polygons, and reads back as the same
    /// mesh (the same triangle count too: a convex polygon of k corners is k - 2 triangles).
    #[test]
    fn a_built_mesh_written_as_polyanya_follows_the_format_and_reads_back(
        map in tile_maps(1..11),
        radius in prop::sample::select(vec![0.0, 0.0, 0.25, 0.5]),
        convex in any::<bool>(),
    ) {
        use navlab_core::navmesh::polyanya::{PolygonShape, parse, to_polyanya};
        let Ok(mesh) = navlab_core::navmesh::from_map::navmesh_from_map(&map, radius) else {
            return Ok(());
        };
        let shape = if convex { PolygonShape::Convex } else { PolygonShape::Triangles };
        let text = to_polyanya(&mesh, shape).expect("a flat mesh is written");
        let written = parse_polyanya_v2(&text);
        prop_assert_eq!(check_polyanya_v2(&written), Ok(()), "{}", text);
        for (corners, _) in &written.polygons {
            let at = |k: usize| {
                let (x, y, _) = written.vertices[corners[k % corners.len()]];
                navlab_core::geom::Vec2::new(x, y)
            };
            for k in 0..corners.len() {
                let turn = navlab_core::geom::orient(at(k), at(k + 1), at(k + 2));
                prop_assert!(turn >= 0.0, "not convex at {k} of {corners:?}");
            }
        }
        if convex {
            prop_assert!(written.polygons.len() <= mesh.triangles().len());
        } else {
            prop_assert_eq!(written.polygons.len(), mesh.triangles().len());
        }
        let back = parse(text.as_bytes(), "written.mesh").expect("reads back");
        prop_assert_eq!(&back.raw().neighbour_list_problems, &Vec::new());
        let (a, b) = (mesh.summary(), back.summary());
        prop_assert_eq!((a.vertices, a.triangles, a.islands), (b.vertices, b.triangles, b.islands));
        prop_assert_eq!((a.edges, a.border_edges), (b.edges, b.border_edges));
        prop_assert!((a.area - b.area).abs() < 1e-9 * a.area.max(1.0));
        prop_assert_eq!(a.bounds, b.bounds);
    }
}

/// The area of a rectangle `[x0, y0, x1, y1]`.
fn rect_area([x0, y0, x1, y1]: [f64; 4]) -> f64 {
    (x1 - x0).max(0.0) * (y1 - y0).max(0.0)
}

/// The area of the union of `rects` clipped to `within`: a sweep over the strips between
/// consecutive x edges, merging the y intervals of the rectangles spanning each strip.
fn union_area_within(rects: &[[f64; 4]], within: [f64; 4]) -> f64 {
    let clipped: Vec<[f64; 4]> = rects
        .iter()
        .map(|r| {
            [
                r[0].max(within[0]),
                r[1].max(within[1]),
                r[2].min(within[2]),
                r[3].min(within[3]),
            ]
        })
        .filter(|r| r[0] < r[2] && r[1] < r[3])
        .collect();
    let mut xs: Vec<f64> = clipped.iter().flat_map(|r| [r[0], r[2]]).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let mut area = 0.0;
    for strip in xs.windows(2) {
        let mut spans: Vec<(f64, f64)> = clipped
            .iter()
            .filter(|r| r[0] <= strip[0] && strip[1] <= r[2])
            .map(|r| (r[1], r[3]))
            .collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut covered = 0.0;
        let mut reach = f64::NEG_INFINITY;
        for (lo, hi) in spans {
            let lo = lo.max(reach);
            if hi > lo {
                covered += hi - lo;
            }
            reach = reach.max(hi);
        }
        area += covered * (strip[1] - strip[0]);
    }
    area
}

/// Random polylines: up to 8 corners in a 20 × 20 square, some close together.
fn polyline() -> impl Strategy<Value = Vec<navlab_core::geom::Vec2>> {
    prop::collection::vec((0.0f64..20.0, 0.0f64..20.0), 2..9)
        .prop_map(|points| points.into_iter().map(|(x, y)| p(x, y)).collect())
}

fn walk_options() -> impl Strategy<Value = navlab_core::navmesh::walk::WalkOptions> {
    (0.5f64..5.0, 1.0f64..10.0, 0.0f64..1.5).prop_map(|(speed, turn_rate, corner_radius)| {
        navlab_core::navmesh::walk::WalkOptions {
            speed,
            turn_rate,
            corner_radius,
            ..Default::default()
        }
    })
}

/// The walk's rules hold for any path and options: it ends on the goal; it takes every corner
/// in order, each once and within the radius; no step goes faster than the top speed or turns
/// faster than the turn rate; and it never strays from the path by more than the corner radius
/// plus two turning circles' radius (speed / turn rate).
fn check_walk(
    path: &[navlab_core::geom::Vec2],
    options: navlab_core::navmesh::walk::WalkOptions,
) -> Result<(), TestCaseError> {
    use navlab_core::navmesh::walk::{WalkEvent, walk};
    let w = walk(path, options);
    prop_assert!(w.arrived(), "{:?}", w.events.last());
    prop_assert_eq!(w.states.last().map(|s| s.position), path.last().copied());
    let corners: Vec<usize> = w
        .events
        .iter()
        .filter_map(|&(k, event)| match event {
            WalkEvent::CornerTaken { corner, distance } => {
                let at = w.states[k].position;
                assert!((at.distance(path[corner]) - distance).abs() < 1e-12);
                assert!(distance <= options.corner_radius);
                Some(corner)
            }
            _ => None,
        })
        .collect();
    // Corners that coincide with the start are passed at once, without an event.
    let first = path
        .iter()
        .position(|&q| q != path[0])
        .unwrap_or(path.len() - 1);
    let expected: Vec<usize> = (first.max(1)..path.len() - 1).collect();
    prop_assert_eq!(corners, expected);
    let dt = options.step;
    let bound = options.corner_radius + 2.0 * options.speed / options.turn_rate + 1e-9;
    for pair in w.states.windows(2) {
        let moved = pair[0].position.distance(pair[1].position);
        prop_assert!(moved <= options.speed * dt + 1e-9, "moved {moved}");
        let turned = (pair[1].heading - pair[0].heading).sin().asin().abs();
        let turned = turned.min((pair[1].heading - pair[0].heading).abs());
        prop_assert!(turned <= options.turn_rate * dt + 1e-9, "turned {turned}");
        let off = distance_to_polyline(path, pair[1].position);
        prop_assert!(off <= bound, "{off} from the path (bound {bound})");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(256), ..ProptestConfig::default() })]

    #[test]
    fn a_walk_keeps_its_rules_on_any_polyline(path in polyline(), options in walk_options()) {
        check_walk(&path, options)?;
    }

    /// On paths the funnel found, the same rules, and a walk is the same every time.
    #[test]
    fn a_walk_keeps_its_rules_on_funnel_paths((spec, a, b, c, d) in small_mesh(), options in walk_options()) {
        let mesh = jittered_grid(spec);
        let (from, to) = (point_in(&mesh, a, b), point_in(&mesh, c, d));
        let path = find_path(&mesh, from, to, QueryOptions::default(), &mut NoObserver, &mut NoObserver).expect("finite");
        prop_assume!(!path.waypoints.is_empty());
        check_walk(&path.waypoints, options)?;
        let again = navlab_core::navmesh::walk::walk(&path.waypoints, options);
        prop_assert_eq!(again, navlab_core::navmesh::walk::walk(&path.waypoints, options));
    }

    /// With no corner radius and turns as fast as wanted, the agent walks the polyline itself:
    /// every state on it, and as far as the path is long.
    #[test]
    fn a_sharp_agent_walks_the_polyline_exactly(path in polyline()) {
        use navlab_core::navmesh::walk::{WalkOptions, walk};
        let options = WalkOptions { corner_radius: 0.0, turn_rate: 1e9, ..Default::default() };
        let w = walk(&path, options);
        prop_assert!(w.arrived());
        for state in &w.states {
            prop_assert!(distance_to_polyline(&path, state.position) < 1e-6);
        }
        let length: f64 = path.windows(2).map(|s| s[0].distance(s[1])).sum();
        let walked = w.distance_to(w.states.len());
        prop_assert!((walked - length).abs() < 1e-6 * (1.0 + length), "{walked} vs {length}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(96), ..ProptestConfig::default() })]

    /// The funnel's path lies on the mesh, so an agent that turns at once and takes each corner
    /// exactly never leaves it (meshes with holes included).
    #[test]
    fn a_sharp_agent_never_leaves_the_mesh((spec, a, b, c, d) in small_mesh()) {
        use navlab_core::navmesh::walk::{WalkOptions, off_mesh, walk};
        let mesh = jittered_grid(spec);
        let (from, to) = (point_in(&mesh, a, b), point_in(&mesh, c, d));
        let path = find_path(&mesh, from, to, QueryOptions::default(), &mut NoObserver, &mut NoObserver).expect("finite");
        prop_assume!(path.status != PathStatus::Unreachable);
        let options = WalkOptions { corner_radius: 0.0, turn_rate: 1e9, ..Default::default() };
        let w = walk(&path.waypoints, options);
        prop_assert!(w.arrived());
        let off = off_mesh(&mesh, &w);
        prop_assert!(off.iter().all(|&o| !o), "off the mesh at state {:?}", off.iter().position(|&o| o));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(64), ..ProptestConfig::default() })]

    /// A query's timeline replayed (`navmesh::timeline::TimelineReplay`: A* per triangle, then
    /// the funnel) is the same state at step k however the playback got there, for every cost
    /// model; and once A* has finished its closed triangles are the ones it expanded.
    #[test]
    fn a_timeline_seeked_in_any_order_equals_one_replayed_forward(
        (spec, a, b, c, d) in small_mesh(),
        cost in any_cost_model(),
        seeks in prop::collection::vec(0.0f64..=1.0, 1..8),
    ) {
        use navlab_core::navmesh::timeline::{Step, Timeline, TimelineReplay};
        use navlab_core::search::{NodeStatus, SearchEvent};
        let mesh = jittered_grid(spec);
        let (from, to) = (point_in(&mesh, a, b), point_in(&mesh, c, d));
        let options = QueryOptions { cost, heuristic_weight: 1.0, ..QueryOptions::default() };
        let timeline = Timeline::record(&mesh, from, to, options);
        let triangles = mesh.triangles().len();
        let mut replay = TimelineReplay::new(triangles);
        for &at in &seeks {
            let k = (at * timeline.len() as f64).round() as usize;
            replay.seek(&timeline, k);
            let mut fresh = TimelineReplay::new(triangles);
            fresh.seek(&timeline, k);
            prop_assert_eq!(replay.cursor(), k);
            prop_assert!(replay.search.same_state(&fresh.search), "step {}", k);
            prop_assert_eq!(&replay.funnel, &fresh.funnel);
            let expanded: std::collections::BTreeSet<usize> = timeline.steps()[..k]
                .iter()
                .filter_map(|step| match step {
                    Step::Search(SearchEvent::Expanded { node, .. }) => Some(*node),
                    _ => None,
                })
                .collect();
            let closed: std::collections::BTreeSet<usize> = (0..triangles)
                .filter(|&t| replay.search.status(t) == NodeStatus::Closed)
                .collect();
            prop_assert_eq!(closed, expanded);
        }
    }
}
