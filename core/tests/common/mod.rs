//! Helpers shared by the integration tests: fixture builders, path invariants, oracles. The
//! window's and the command line's tests (`tests/` at the root) include this module too.
#![allow(dead_code)]

pub mod broken_files;
pub mod levels;
pub mod surface;
pub mod visibility;

use navlab_core::geom::{Vec2, segment_crossing_param};
use navlab_core::navmesh::{BuildOptions, NavMesh, Path, Plane, TriId};
use navlab_core::search::funnel::Portal;
use std::path::PathBuf;

pub fn p(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

/// A mesh in the XY plane from 2D points and polygons.
pub fn mesh_2d(points: &[(f64, f64)], polygons: &[&[usize]]) -> NavMesh {
    let positions: Vec<[f64; 3]> = points.iter().map(|&(x, y)| [x, y, 0.0]).collect();
    let polygons: Vec<Vec<usize>> = polygons.iter().map(|p| p.to_vec()).collect();
    NavMesh::from_polygons(
        &positions,
        &polygons,
        BuildOptions {
            plane: Plane::Xy,
            ..BuildOptions::default()
        },
    )
    .expect("fixture mesh builds")
}

/// A mesh of unit squares (two triangles each) at the given cells of an XY grid.
pub fn cells_mesh(cells: &[(i32, i32)]) -> NavMesh {
    let mut points = Vec::new();
    let mut index = std::collections::HashMap::new();
    let mut vid = |x: i32, y: i32| -> usize {
        *index.entry((x, y)).or_insert_with(|| {
            points.push((x as f64, y as f64));
            points.len() - 1
        })
    };
    let mut polys = Vec::new();
    for &(x, y) in cells {
        polys.push(vec![
            vid(x, y),
            vid(x + 1, y),
            vid(x + 1, y + 1),
            vid(x, y + 1),
        ]);
    }
    let refs: Vec<&[usize]> = polys.iter().map(|v| v.as_slice()).collect();
    mesh_2d(&points, &refs)
}

pub fn repo_path(rel: &str) -> PathBuf {
    repo_root().join(rel)
}

/// The workspace's root (the folder of `Cargo.lock`), from either crate's tests.
pub fn repo_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .map_or(manifest.clone(), PathBuf::from)
}

/// `../shared/testdata/<rel>` if present; otherwise prints why the test is skipped.
pub fn testdata(rel: &str) -> Option<PathBuf> {
    let path = repo_root().join("../shared/testdata").join(rel);
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "SKIPPED: external test data {} is absent (see ../shared/testdata/SOURCES.md)",
            path.display()
        );
        None
    }
}

/// A file of the `polyanya` crate's package (the version the peer benchmarks pin), from the
/// copy Cargo unpacked (`cargo fetch --manifest-path benches/peers/Cargo.toml` makes one);
/// otherwise prints why the test is skipped.
pub fn polyanya_crate(rel: &str) -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let found = home
        .and_then(|home| std::fs::read_dir(home.join("registry/src")).ok())
        .into_iter()
        .flatten()
        .flatten()
        .map(|registry| registry.path().join("polyanya-0.18.0").join(rel))
        .find(|path| path.is_file());
    if found.is_none() {
        eprintln!(
            "SKIPPED: the polyanya crate's {rel} is not in Cargo's registry \
             (cargo fetch --manifest-path benches/peers/Cargo.toml brings it)"
        );
    }
    found
}

pub fn assert_close(got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol,
        "got {got}, want {want} (tolerance {tol})"
    );
}

/// Every invariant a found path must satisfy, with `scale` the size of the mesh (for tolerances).
pub fn check_path_invariants(mesh: &NavMesh, path: &Path) {
    let scale = {
        let b = mesh.bounds();
        (b.max.x - b.min.x).max(b.max.y - b.min.y).max(1.0)
    };
    let tol = 1e-9 * scale;
    let w = &path.waypoints;
    assert!(w.len() >= 2, "a path has at least start and goal");
    assert_eq!(w.first(), Some(&path.start.point));
    assert_eq!(w.last(), Some(&path.goal.point));

    // Corridor: consecutive triangles share an edge; ends hold start and goal.
    assert_eq!(path.corridor.first(), Some(&path.start.triangle));
    assert_eq!(path.corridor.last(), Some(&path.goal.triangle));
    for pair in path.corridor.windows(2) {
        assert!(
            mesh.shared_edge(pair[0], pair[1]).is_some(),
            "corridor steps {} → {} share no edge",
            pair[0],
            pair[1]
        );
    }
    // Portals: one per step plus the goal portal.
    assert_eq!(path.portals.len(), path.corridor.len());

    // The path crosses every portal between its ends, in order.
    let mut segment = 0usize;
    for (i, portal) in path.portals.iter().enumerate() {
        let found = (segment..w.len() - 1).find(|&s| {
            segment_crossing_param(w[s], w[s + 1], portal.right, portal.left, tol).is_some()
        });
        let Some(s) = found else {
            panic!(
                "the path {w:?} does not cross portal {i} ({} – {}) after segment {segment}",
                portal.left, portal.right
            );
        };
        segment = s;
    }

    // Corners are portal vertices.
    for corner in &w[1..w.len() - 1] {
        assert!(
            path.portals
                .iter()
                .any(|q| q.left == *corner || q.right == *corner),
            "corner {corner} is not a portal end"
        );
    }

    // Length bounds: at least the straight line, at most the polyline through portal midpoints.
    let straight = path.start.point.distance(path.goal.point);
    assert!(
        path.length >= straight - tol,
        "shorter than a straight line"
    );
    let mut through_mids = vec![path.start.point];
    through_mids.extend(
        path.portals[..path.portals.len() - 1]
            .iter()
            .map(|q| q.left.midpoint(q.right)),
    );
    through_mids.push(path.goal.point);
    let mids_len = navlab_core::search::funnel::path_length(&through_mids);
    assert!(
        path.length <= mids_len + tol,
        "length {} exceeds the midpoint polyline {mids_len}",
        path.length
    );

    // Inside the mesh: sample every segment.
    assert_inside_mesh(mesh, w);
}

/// Every segment of `points` lies on the mesh (sampled).
pub fn assert_inside_mesh(mesh: &NavMesh, points: &[Vec2]) {
    let b = mesh.bounds();
    let tol = 1e-7 * (b.max.x - b.min.x).max(b.max.y - b.min.y).max(1.0);
    for seg in points.windows(2) {
        for k in 0..=32 {
            let q = seg[0].lerp(seg[1], k as f64 / 32.0);
            let loc = mesh.locate(q).expect("finite");
            assert!(
                !loc.snapped || loc.point.distance(q) <= tol,
                "segment {} → {} leaves the mesh at {q} (nearest mesh point {})",
                seg[0],
                seg[1],
                loc.point
            );
        }
    }
}

/// Brute-force Dijkstra (O(V²), no heap) over an explicit weighted graph.
pub fn dijkstra_oracle(n: usize, edges: &[(usize, usize, f64)], source: usize) -> Vec<f64> {
    let mut adj = vec![Vec::new(); n];
    for &(a, b, w) in edges {
        adj[a].push((b, w));
    }
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[source] = 0.0;
    for _ in 0..n {
        let Some(u) = (0..n)
            .filter(|&v| !done[v] && dist[v].is_finite())
            .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        else {
            break;
        };
        done[u] = true;
        for &(v, w) in &adj[u] {
            if dist[u] + w < dist[v] {
                dist[v] = dist[u] + w;
            }
        }
    }
    dist
}

/// The centroid graph of a mesh as explicit edges.
pub fn centroid_graph(mesh: &NavMesh) -> Vec<(usize, usize, f64)> {
    let tris = mesh.triangles();
    let mut edges = Vec::new();
    for t in 0..tris.len() {
        for &(n, _) in mesh.neighbours(t) {
            edges.push((t, n, tris[t].centroid.distance(tris[n].centroid)));
        }
    }
    edges
}

/// Shortest start → goal distance through edge midpoints: nodes are the start, the goal and the
/// midpoint of every edge shared by two or more triangles; points on a common triangle connect.
pub fn midpoint_oracle(mesh: &NavMesh, start: (TriId, Vec2), goal: (TriId, Vec2)) -> f64 {
    let tris = mesh.triangles();
    let edges = mesh.edges();
    let shared: Vec<usize> = (0..edges.len())
        .filter(|&e| edges[e].triangles.len() > 1)
        .collect();
    let node_of_edge: std::collections::HashMap<usize, usize> =
        shared.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let mid = |e: usize| {
        let [a, b] = edges[e].vertices;
        mesh.vertices()[a].midpoint(mesh.vertices()[b])
    };
    let (s, g) = (shared.len(), shared.len() + 1);
    let mut graph = Vec::new();
    let mut link = |a: usize, pa: Vec2, b: usize, pb: Vec2| {
        graph.push((a, b, pa.distance(pb)));
        graph.push((b, a, pa.distance(pb)));
    };
    for (t, tri) in tris.iter().enumerate() {
        let ports: Vec<(usize, Vec2)> = tri
            .edges
            .iter()
            .filter_map(|e| node_of_edge.get(e).map(|&n| (n, mid(*e))))
            .collect();
        for i in 0..ports.len() {
            for j in i + 1..ports.len() {
                link(ports[i].0, ports[i].1, ports[j].0, ports[j].1);
            }
            if t == start.0 {
                link(s, start.1, ports[i].0, ports[i].1);
            }
            if t == goal.0 {
                link(g, goal.1, ports[i].0, ports[i].1);
            }
        }
        if t == start.0 && t == goal.0 {
            link(s, start.1, g, goal.1);
        }
    }
    dijkstra_oracle(shared.len() + 2, &graph, s)[g]
}

/// The portals of a path without the goal portal.
pub fn inner_portals(path: &Path) -> &[Portal] {
    &path.portals[..path.portals.len().saturating_sub(1)]
}

/// Property-test case count: `PROPTEST_CASES` when set (for long local runs), else `default`.
pub fn cases_or(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A wall from the bottom edge up to row 3 at column 14 of a 30 × 12 map: the way round is over
/// the top (the pursuit tests' corner, in MovingAI characters).
pub const CORNER_MAP: &str = "\
..............................
..............................
..............................
..............@...............
..............@...............
..............@...............
..............@...............
..............@...............
..............@...............
..............@...............
..............@...............
..............@...............";

/// Random tile maps with sides in `sides`: mostly grass, some sand and water, walls and holes.
pub fn tile_maps(
    sides: std::ops::Range<usize>,
) -> impl proptest::strategy::Strategy<Value = navlab_core::grid::TileMap> {
    use navlab_core::grid::{Tile, TileMap};
    use proptest::prelude::*;
    (sides.clone(), sides).prop_flat_map(|(w, h)| {
        prop::collection::vec(
            prop::sample::select(vec![
                Tile::Grass,
                Tile::Grass,
                Tile::Grass,
                Tile::Sand,
                Tile::Water,
                Tile::Wall,
                Tile::Hole,
            ]),
            w * h,
        )
        .prop_map(move |tiles| {
            TileMap::from_rows(tiles.chunks(w).map(|r| r.to_vec()).collect()).expect("map")
        })
    })
}

/// A Polyanya mesh in format version 2, as its tokens say (read here independently of
/// navlab's reader, which ignores the neighbour lists).
#[derive(Debug, Clone, PartialEq)]
pub struct PolyanyaV2 {
    /// x, y and the polygons around the vertex (-1: a wall or the outside).
    pub vertices: Vec<(f64, f64, Vec<i64>)>,
    /// Vertex indices, and the polygon across the edge ending at each vertex.
    pub polygons: Vec<(Vec<usize>, Vec<i64>)>,
}

pub fn parse_polyanya_v2(text: &str) -> PolyanyaV2 {
    let mut tokens = text.split_whitespace();
    assert_eq!(tokens.next(), Some("mesh"));
    assert_eq!(tokens.next(), Some("2"));
    let mut int = || -> i64 { tokens.next().expect("a token").parse().expect("an integer") };
    let (v, p) = (int() as usize, int() as usize);
    let mut tokens = text.split_whitespace().skip(4);
    let mut next = || tokens.next().expect("a token");
    let mut vertices = Vec::new();
    for _ in 0..v {
        let x: f64 = next().parse().expect("x");
        let y: f64 = next().parse().expect("y");
        let n: usize = next().parse().expect("count");
        let around = (0..n).map(|_| next().parse().expect("polygon")).collect();
        vertices.push((x, y, around));
    }
    let mut polygons = Vec::new();
    for _ in 0..p {
        let n: usize = next().parse().expect("count");
        let corners = (0..n).map(|_| next().parse().expect("vertex")).collect();
        let across = (0..n).map(|_| next().parse().expect("polygon")).collect();
        polygons.push((corners, across));
    }
    assert!(tokens.next().is_none(), "nothing after the last polygon");
    PolyanyaV2 { vertices, polygons }
}

/// Checks the rules of the format's description (Polyanya `utils/spec/mesh/2.txt`): polygons
/// counter-clockwise; `p[i]` the polygon across `v[i-1]`–`v[i]`, agreeing from both sides, -1
/// exactly where no polygon is across; each vertex lists every polygon that has it, once,
/// counter-clockwise — after a polygon comes the one across its edge arriving at the vertex,
/// or -1 where that edge is a wall — with gaps merged into single -1s.
pub fn check_polyanya_v2(mesh: &PolyanyaV2) -> Result<(), String> {
    let point = |v: usize| {
        let (x, y, _) = mesh.vertices[v];
        p(x, y)
    };
    let mut owner = std::collections::HashMap::new();
    for (pi, (corners, across)) in mesh.polygons.iter().enumerate() {
        let n = corners.len();
        if n < 3 || across.len() != n || corners.iter().any(|&v| v >= mesh.vertices.len()) {
            return Err(format!("polygon {pi} is malformed"));
        }
        let twice_area: f64 = (0..n)
            .map(|i| point(corners[i]).cross(point(corners[(i + 1) % n])))
            .sum();
        if twice_area <= 0.0 {
            return Err(format!("polygon {pi} is not counter-clockwise"));
        }
        for i in 0..n {
            let edge = (corners[(i + n - 1) % n], corners[i]);
            if owner.insert(edge, (pi, i)).is_some() {
                return Err(format!("edge {edge:?} is used twice in one direction"));
            }
        }
    }
    for (pi, (corners, across)) in mesh.polygons.iter().enumerate() {
        let n = corners.len();
        for i in 0..n {
            let (a, b) = (corners[(i + n - 1) % n], corners[i]);
            match (across[i], owner.get(&(b, a))) {
                (-1, None) => {}
                (q, Some(&(other, j))) if q == other as i64 => {
                    if mesh.polygons[other].1[j] != pi as i64 {
                        return Err(format!("polygons {pi} and {other} disagree about {a}–{b}"));
                    }
                }
                (q, found) => {
                    return Err(format!(
                        "polygon {pi} says {q} is across {a}–{b}; the edges say {found:?}"
                    ));
                }
            }
        }
    }
    for (v, (_, _, around)) in mesh.vertices.iter().enumerate() {
        let mut having: Vec<usize> = (0..mesh.polygons.len())
            .filter(|&pi| mesh.polygons[pi].0.contains(&v))
            .collect();
        let mut listed: Vec<usize> = around
            .iter()
            .filter(|&&q| q >= 0)
            .map(|&q| q as usize)
            .collect();
        having.sort_unstable();
        listed.sort_unstable();
        if having.is_empty() || having != listed {
            return Err(format!(
                "vertex {v} lists {around:?}, is a corner of {having:?}"
            ));
        }
        let m = around.len();
        for k in 0..m {
            let (here, then) = (around[k], around[(k + 1) % m]);
            if here == -1 {
                if then == -1 {
                    return Err(format!("vertex {v}: gaps are not merged in {around:?}"));
                }
                continue;
            }
            let (corners, across) = &mesh.polygons[here as usize];
            let j = corners.iter().position(|&c| c == v).expect("a corner");
            // Counter-clockwise around v the polygon ends on its edge arriving at v.
            if across[j] != then {
                return Err(format!(
                    "vertex {v}: after {here} comes {then}, but across its edge is {}",
                    across[j]
                ));
            }
        }
    }
    Ok(())
}

/// The cells whose tile differs between two maps of one size, in index order.
pub fn changed_cells(
    before: &navlab_core::grid::TileMap,
    after: &navlab_core::grid::TileMap,
) -> Vec<navlab_core::grid::Cell> {
    (0..after.cell_count())
        .filter(|&i| before.tiles().get(i) != after.tiles().get(i))
        .map(|i| after.cell(i))
        .collect()
}

/// Replays a search's `trace` into a [`navlab_core::search::Frontier`] and checks, before every
/// expansion (and every cell D\* Lite takes that got dearer), that the open list's head (as ordered for `order`) is the node expanded: the
/// first step where it is not, as a message, or `None` when all agree.
pub fn frontier_disagreement(
    trace: &[navlab_core::search::SearchEvent],
    order: navlab_core::search::ExpansionOrder,
) -> Option<String> {
    use navlab_core::search::{Frontier, SearchEvent};
    let mut frontier = Frontier::new();
    for (k, event) in trace.iter().enumerate() {
        if let SearchEvent::Expanded { node, .. } | SearchEvent::Raised { node, .. } = *event {
            let head = frontier.next(order, 4)?;
            if head.first().map(|e| e.node) != Some(node) {
                return Some(format!(
                    "step {k}: expanded {node}, the list began {head:?}"
                ));
            }
        }
        frontier.apply(event);
    }
    None
}

/// Where Fringe Search's lists replayed from its trace (`FringeLists`) fail to name, before a
/// visit, the node visited and whether it is expanded or put off (with its `f`), or fail to
/// give the next threshold as the smallest `f` put off (never above the smallest `f` left in
/// the later list); `None` when they never do. Also returns how many visits were checked.
pub fn fringe_lists_disagreement(
    trace: &[navlab_core::search::SearchEvent],
) -> (Option<String>, usize) {
    use navlab_core::search::{FringeLists, SearchEvent};
    let mut lists = FringeLists::new();
    let mut visits = 0;
    for (k, event) in trace.iter().enumerate() {
        let wanted = match *event {
            SearchEvent::Expanded { node, g, h } => Some((node, false, g + h)),
            SearchEvent::Deferred { node, f } => Some((node, true, f)),
            SearchEvent::IterationStarted {
                iteration,
                threshold,
                ..
            } if iteration > 1 => {
                let (_, smallest) = lists.later_summary();
                let next = lists.next_threshold();
                if lists.now_len() != 0
                    || next != Some(threshold)
                    || smallest.is_none_or(|s| s < threshold)
                {
                    return (
                        Some(format!(
                            "step {k}: pass {iteration} at {threshold}, put off at least {next:?}, later's smallest {smallest:?}, {} left in now",
                            lists.now_len()
                        )),
                        visits,
                    );
                }
                None
            }
            _ => None,
        };
        if let Some((node, deferred, f)) = wanted {
            let head = lists.next(1);
            let got = head.first().map(|e| (e.node, e.deferred, e.f()));
            if got != Some((node, deferred, f)) {
                return (
                    Some(format!(
                        "step {k}: visited {node} (put off: {deferred}, f {f}), the list began {head:?}"
                    )),
                    visits,
                );
            }
            visits += 1;
        }
        lists.apply(event);
    }
    (None, visits)
}

/// The distance from `p` to the polyline through `points`.
pub fn distance_to_polyline(points: &[Vec2], p: Vec2) -> f64 {
    match points {
        [] => f64::INFINITY,
        [only] => only.distance(p),
        _ => points
            .windows(2)
            .map(|w| navlab_core::geom::closest_point_on_segment(w[0], w[1], p).distance(p))
            .fold(f64::INFINITY, f64::min),
    }
}

/// A tile map drawn as rows of text: `#` a wall, anything else grass.
pub fn walled_map(rows: &[&str]) -> navlab_core::grid::TileMap {
    use navlab_core::grid::{Tile, TileMap};
    TileMap::from_rows(
        rows.iter()
            .map(|row| {
                row.chars()
                    .map(|c| if c == '#' { Tile::Wall } else { Tile::Grass })
                    .collect()
            })
            .collect(),
    )
    .expect("map")
}
