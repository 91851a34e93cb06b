//! Helpers shared by the integration tests: fixture builders, path invariants, oracles.
#![allow(dead_code)]

use navlab::geom::{Vec2, segment_crossing_param};
use navlab::navmesh::{BuildOptions, NavMesh, Path, Plane, TriId};
use navlab::search::funnel::Portal;
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
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// `../shared/testdata/<rel>` if present; otherwise prints why the test is skipped.
pub fn testdata(rel: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/testdata")
        .join(rel);
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
    let mids_len = navlab::search::funnel::path_length(&through_mids);
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

/// A click of `button` at the screen point `pos` as the window gets it: hover, press, release,
/// with a frame after each.
pub fn click_screen<S>(
    h: &mut egui_kittest::Harness<'_, S>,
    pos: egui::Pos2,
    button: egui::PointerButton,
) {
    h.hover_at(pos);
    h.run_steps(1);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(1);
    }
}

/// Presses `button` at `from`, moves to `to` in `steps` equal moves of a frame each (calling
/// `after_move` after each), and releases it there.
pub fn drag_screen<'a, S>(
    h: &mut egui_kittest::Harness<'a, S>,
    (from, to): (egui::Pos2, egui::Pos2),
    button: egui::PointerButton,
    steps: usize,
    mut after_move: impl FnMut(&mut egui_kittest::Harness<'a, S>),
) {
    let press = |h: &mut egui_kittest::Harness<'a, S>, pos, pressed| {
        h.event(egui::Event::PointerButton {
            pos,
            button,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    };
    h.hover_at(from);
    h.run_steps(1);
    press(h, from, true);
    h.run_steps(1);
    for k in 1..=steps {
        h.hover_at(from + (to - from) * (k as f32 / steps as f32));
        h.run_steps(1);
        after_move(h);
    }
    press(h, to, false);
    h.run_steps(2);
}

/// Replaces the text of the text field labelled `label` with `text`, as typed: focus, select
/// all, type.
pub fn replace_text<S>(h: &mut egui_kittest::Harness<'_, S>, label: &str, text: &str) {
    use egui_kittest::kittest::Queryable;
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, label)
        .focus();
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, label)
        .type_text(text);
    h.run_steps(1);
}

/// Clicks the button labelled `label` and returns the texts the click put on the clipboard
/// (egui's copy commands of the frame that handled the click).
pub fn click_and_copied<S>(h: &mut egui_kittest::Harness<'_, S>, label: &str) -> Vec<String> {
    use egui_kittest::kittest::Queryable;
    // Through AccessKit, as a screen reader clicks: the button may sit below the fold of a
    // scrolling panel, where a pointer click at its centre would land on what covers it.
    h.get_by_label(label).click_accesskit();
    h.step();
    h.output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

/// Random tile maps with sides in `sides`: mostly grass, some sand and water, walls and holes.
pub fn tile_maps(
    sides: std::ops::Range<usize>,
) -> impl proptest::strategy::Strategy<Value = navlab::grid::TileMap> {
    use navlab::grid::{Tile, TileMap};
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

/// A primary-button press or release at `pos`.
pub fn primary_button(pos: egui::Pos2, pressed: bool) -> egui::Event {
    egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    }
}

/// Hovers `path[0]` for a frame, then puts a primary press there, moves through the rest of
/// `path` and (with `release`) the release at its end into one frame's input — as a quick
/// stroke after a slow frame reaches egui — and runs that frame. (kittest's own event queue
/// gives each event a frame of its own.)
pub fn pointer_in_one_frame<S>(
    h: &mut egui_kittest::Harness<'_, S>,
    path: &[egui::Pos2],
    release: bool,
) {
    let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
        return;
    };
    h.hover_at(first);
    h.run_steps(1);
    let events = &mut h.input_mut().events;
    events.push(primary_button(first, true));
    events.extend(path[1..].iter().map(|&p| egui::Event::PointerMoved(p)));
    if release {
        events.push(primary_button(last, false));
    }
    h.run_steps(1);
}

/// The cells whose tile differs between two maps of one size, in index order.
pub fn changed_cells(
    before: &navlab::grid::TileMap,
    after: &navlab::grid::TileMap,
) -> Vec<navlab::grid::Cell> {
    (0..after.cell_count())
        .filter(|&i| before.tiles().get(i) != after.tiles().get(i))
        .map(|i| after.cell(i))
        .collect()
}

/// Replays a search's `trace` into a [`navlab::search::Frontier`] and checks, before every
/// expansion, that the open list's head (as ordered for `order`) is the node expanded: the
/// first step where it is not, as a message, or `None` when all agree.
pub fn frontier_disagreement(
    trace: &[navlab::search::SearchEvent],
    order: navlab::search::ExpansionOrder,
) -> Option<String> {
    use navlab::search::{Frontier, SearchEvent};
    let mut frontier = Frontier::new();
    for (k, event) in trace.iter().enumerate() {
        if let SearchEvent::Expanded { node, .. } = *event {
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
pub fn fringe_lists_disagreement(trace: &[navlab::search::SearchEvent]) -> (Option<String>, usize) {
    use navlab::search::{FringeLists, SearchEvent};
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

/// Writes `text` to `path` as an exporter would, its modification time `age` seconds on (so
/// that two writes differ even on a file system with coarse times).
pub fn export(path: &std::path::Path, text: &str, age: u64) {
    std::fs::write(path, text).expect("write");
    let time = navlab::clock::system_now() + std::time::Duration::from_secs(age);
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|file| file.set_modified(time))
        .expect("set time");
}

/// The distance from `p` to the polyline through `points`.
pub fn distance_to_polyline(points: &[Vec2], p: Vec2) -> f64 {
    match points {
        [] => f64::INFINITY,
        [only] => only.distance(p),
        _ => points
            .windows(2)
            .map(|w| navlab::geom::closest_point_on_segment(w[0], w[1], p).distance(p))
            .fold(f64::INFINITY, f64::min),
    }
}

/// Runs the `navlab` binary with `args`: its exit code, stdout and stderr.
pub fn navlab(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_navlab"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A tile map drawn as rows of text: `#` a wall, anything else grass.
pub fn walled_map(rows: &[&str]) -> navlab::grid::TileMap {
    use navlab::grid::{Tile, TileMap};
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

/// A window whose file dialogs answer "cancelled" (no test opens a real one).
pub fn app() -> navlab::app::NavlabApp {
    navlab::app::NavlabApp::new(
        navlab::app::AppSettings::default(),
        Box::new(navlab::app::files::ScriptedDialogs::default()),
    )
}

/// `app` in a 1280 × 800 window driven by egui_kittest, its first two frames drawn.
pub fn harness(
    app: navlab::app::NavlabApp,
) -> egui_kittest::Harness<'static, navlab::app::NavlabApp> {
    let mut harness = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut navlab::app::NavlabApp| app.frame_ui(ui), app);
    harness.run_steps(2);
    harness
}

/// A 900 × 560 picture of `app` drawn without a display, once the layout has settled.
pub fn picture(app: &mut navlab::app::NavlabApp) -> egui::ColorImage {
    let mut window =
        navlab::app::headless::HeadlessWindow::new([900, 560], egui::ThemePreference::Dark);
    for _ in 0..3 {
        window.frame(app);
    }
    window.picture(app)
}

/// How many shapes the window paints in one frame (after two to settle), at 900 × 560.
pub fn shapes_of_frame(app: &mut navlab::app::NavlabApp) -> usize {
    let mut window =
        navlab::app::headless::HeadlessWindow::new([900, 560], egui::ThemePreference::Dark);
    window.frame(app);
    window.frame(app);
    window.frame(app).shapes.len()
}

/// A pixel counts as changed when one of its channels is off by more than this (of 255):
/// far below a change anyone would see, far above the rounding of one renderer on two
/// machines.
pub const GOLDEN_CHANNEL_TOLERANCE: u8 = 3;

/// A picture fails when more than this many pixels changed: a one-pixel line across the
/// canvas, a moved label or a changed digit is more.
pub const GOLDEN_MAX_CHANGED_PIXELS: usize = 16;

/// Compares `picture` with the golden picture `tests/golden/NAME.png`. When more than
/// [`GOLDEN_MAX_CHANGED_PIXELS`] pixels changed (by more than
/// [`GOLDEN_CHANNEL_TOLERANCE`]), writes `NAME.new.png` (the picture now) and `NAME.diff.png`
/// (the golden picture dimmed, the changed pixels magenta) beside it and fails, unless
/// `UPDATE_GOLDEN=1`, which rewrites the golden picture instead.
pub fn assert_golden(name: &str, picture: &egui::ColorImage) {
    use navlab::app::screenshot::{decode_png, png_bytes};
    let dir = repo_path("tests/golden");
    let golden_path = dir.join(format!("{name}.png"));
    let new_path = dir.join(format!("{name}.new.png"));
    let diff_path = dir.join(format!("{name}.diff.png"));
    let update = std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1");
    let _ = std::fs::remove_file(&new_path);
    let _ = std::fs::remove_file(&diff_path);
    let write = |path: &std::path::Path, image: &egui::ColorImage| {
        std::fs::create_dir_all(&dir).expect("tests/golden");
        std::fs::write(path, png_bytes(image).expect("encodes")).expect("written");
    };
    let how = "look at it; if it is meant, rewrite the golden pictures with \
               `UPDATE_GOLDEN=1 cargo test --test golden` (docs/testing.md)";
    let golden = match std::fs::read(&golden_path) {
        Ok(bytes) => {
            decode_png(&bytes).unwrap_or_else(|e| panic!("{}: {e}", golden_path.display()))
        }
        Err(_) if update => {
            write(&golden_path, picture);
            eprintln!("wrote the new golden picture {}", golden_path.display());
            return;
        }
        Err(error) => {
            write(&new_path, picture);
            panic!(
                "no golden picture {} ({error}); the picture is in {}: {how}",
                golden_path.display(),
                new_path.display()
            );
        }
    };
    if golden.size != picture.size {
        if update {
            write(&golden_path, picture);
            return;
        }
        write(&new_path, picture);
        panic!(
            "{name}: {:?} pixels against the golden {:?}; the picture is in {}: {how}",
            picture.size,
            golden.size,
            new_path.display()
        );
    }
    let [w, _] = picture.size;
    let mut changed = 0;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    let mut diff = Vec::with_capacity(golden.pixels.len());
    for (k, (&was, &now)) in golden.pixels.iter().zip(&picture.pixels).enumerate() {
        let off = was
            .to_array()
            .iter()
            .zip(now.to_array())
            .any(|(&a, b)| a.abs_diff(b) > GOLDEN_CHANNEL_TOLERANCE);
        if off {
            changed += 1;
            let (x, y) = (k % w, k / w);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            diff.push(egui::Color32::from_rgb(255, 0, 255));
        } else {
            diff.push(egui::Color32::from_rgb(
                was.r() / 4,
                was.g() / 4,
                was.b() / 4,
            ));
        }
    }
    if changed <= GOLDEN_MAX_CHANGED_PIXELS {
        return;
    }
    if update {
        write(&golden_path, picture);
        eprintln!(
            "rewrote the golden picture {} ({changed} pixels changed)",
            golden_path.display()
        );
        return;
    }
    write(&new_path, picture);
    write(&diff_path, &egui::ColorImage::new(picture.size, diff));
    panic!(
        "{name}: {changed} pixels changed, between ({x0}, {y0}) and ({x1}, {y1}); the picture \
         is in {}, the changes in {}: {how}",
        new_path.display(),
        diff_path.display()
    );
}
