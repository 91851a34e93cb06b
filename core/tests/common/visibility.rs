//! Dijkstra over the visibility graph of a mesh's boundary corners: the exact shortest path in
//! a polygonal domain, what Polyanya is checked against (with off-mesh links too).

use navlab_core::geom::{Vec2, orient};
use navlab_core::navmesh::NavMesh;

/// Dijkstra over the visibility graph of start, goal and the mesh's boundary corners: the
/// exact shortest path in a polygonal domain (a one-layer mesh). A corner where surfaces touch
/// at the vertex alone (no edge joins them there) is one node for each surface: a path may turn
/// there on a surface, not pass from one to the other.
pub fn oracle(mesh: &NavMesh, from: Vec2, to: Vec2) -> f64 {
    oracle_with_links(mesh, from, to, &[])
}

/// A link for [`oracle_with_links`]: from a point to a point (each inside a triangle), one way,
/// at a cost.
#[derive(Debug, Clone, Copy)]
pub struct OracleLink {
    pub from: Vec2,
    pub to: Vec2,
    pub cost: f64,
}

/// [`oracle`] with links: each link's ends are nodes of the graph too, joined by an edge of the
/// link's cost (one way).
pub fn oracle_with_links(mesh: &NavMesh, from: Vec2, to: Vec2, links: &[OracleLink]) -> f64 {
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
    // Each link's start and end, as points of no surface (inside a triangle).
    let first_link = points.len();
    for link in links {
        points.push((link.from, None));
        points.push((link.to, None));
    }
    // The triangle under a point, or, for a point a rounding error off the mesh (on a wall a
    // segment runs along), the one it is that close to.
    let scale = mesh.bounds().max.distance(mesh.bounds().min).max(1.0);
    let near = |p: Vec2| {
        mesh.triangle_at(p).or_else(|| {
            (0..mesh.triangles().len())
                .map(|t| (t, distance_to_triangle(mesh.corners(t), p)))
                .filter(|&(_, d)| d <= 1e-12 * scale)
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(t, _)| t)
        })
    };
    // Leaving corner `p` towards `q` on its surface `fan`: into one of the fan's triangles
    // whose angle at `p` holds the direction (exact; a point or a start has no fan).
    let on = |fan: &Option<Vec<usize>>, p: Vec2, q: Vec2| match fan {
        None => true,
        Some(fan) => toward(mesh, p, q).iter().any(|t| fan.contains(t)),
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
        let mut cuts = vec![(0.0, p), (1.0, q)];
        for &c in &corners {
            if orient(p, q, c) == 0.0 {
                let t = (c - p).dot(d) / d.dot(d);
                if t > 0.0 && t < 1.0 && c != p && c != q {
                    cuts.push((t, c));
                }
            }
        }
        cuts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let pieces_inside = cuts
            .windows(2)
            .all(|w| w[1].0 - w[0].0 <= 0.0 || near(w[0].1.lerp(w[1].1, 0.5)).is_some());
        // Through a corner only where the surface goes on across an edge there, and leaving
        // and reaching a corner on the node's own surface.
        pieces_inside
            && on(p_fan, p, q)
            && on(q_fan, q, p)
            && cuts[1..cuts.len() - 1]
                .iter()
                .all(|&(_, c)| joined_at(mesh, c, p, q))
    };
    let n = points.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[0] = 0.0;
    if links.is_empty() && (visible(&points[0], &points[1]) || from == to) {
        return from.distance(to);
    }
    if from == to {
        return 0.0;
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
            // Two free points at one place (a link's end at the start, say) are one.
            let same = points[u].0 == points[v].0 && points[u].1.is_none() && points[v].1.is_none();
            if !done[v] && (same || visible(&points[u], &points[v])) {
                let d = dist[u] + points[u].0.distance(points[v].0);
                if d < dist[v] {
                    dist[v] = d;
                }
            }
        }
        // Across a link starting here.
        if u >= first_link && (u - first_link).is_multiple_of(2) {
            let (link, v) = (&links[(u - first_link) / 2], u + 1);
            if !done[v] && dist[u] + link.cost < dist[v] {
                dist[v] = dist[u] + link.cost;
            }
        }
    }
    dist[1]
}

/// How far `p` is from the triangle `[a, b, c]` (0 inside it).
pub fn distance_to_triangle([a, b, c]: [Vec2; 3], p: Vec2) -> f64 {
    let turns = [orient(a, b, p), orient(b, c, p), orient(c, a, p)];
    if turns.iter().all(|&o| o >= 0.0) || turns.iter().all(|&o| o <= 0.0) {
        return 0.0;
    }
    let to_segment = |a: Vec2, b: Vec2| {
        let d = b - a;
        let t = ((p - a).dot(d) / d.dot(d)).clamp(0.0, 1.0);
        p.distance(a + d * t)
    };
    to_segment(a, b).min(to_segment(b, c)).min(to_segment(c, a))
}

/// The triangles around corner `c`, in groups joined across edges that end at `c`.
pub fn fans(mesh: &NavMesh, c: Vec2) -> Vec<Vec<usize>> {
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

/// The triangles with corner `c` whose angle there holds the direction towards `q` (its
/// sides included), by exact predicates.
pub fn toward(mesh: &NavMesh, c: Vec2, q: Vec2) -> Vec<usize> {
    (0..mesh.triangles().len())
        .filter(|&t| {
            let corners = mesh.corners(t);
            corners.iter().position(|&x| x == c).is_some_and(|k| {
                let (right, left) = (corners[(k + 1) % 3], corners[(k + 2) % 3]);
                orient(c, right, q) >= 0.0 && orient(c, left, q) <= 0.0
            })
        })
        .collect()
}

/// True when a straight line from `from` through corner `c` to `to` stays on one surface at
/// `c`: a triangle there towards `from` and one towards `to` are joined across edges at `c`.
pub fn joined_at(mesh: &NavMesh, c: Vec2, from: Vec2, to: Vec2) -> bool {
    let (before, after) = (toward(mesh, c, from), toward(mesh, c, to));
    fans(mesh, c)
        .iter()
        .any(|fan| before.iter().any(|t| fan.contains(t)) && after.iter().any(|t| fan.contains(t)))
}

/// True when every leg of the path stays on the mesh (sampled finely) and the legs join.
pub fn on_mesh(mesh: &NavMesh, path: &[Vec2]) -> bool {
    path.windows(2).all(|leg| {
        (0..=64).all(|k| {
            let p = leg[0].lerp(leg[1], f64::from(k) / 64.0);
            mesh.triangle_at(p).is_some()
                || mesh.locate(p).is_some_and(|l| l.point.distance(p) < 1e-9)
        })
    })
}
