//! The room at a point measured over the surface, by brute force: the distance to the nearest
//! wall point that a straight line from the point reaches without leaving the mesh (crossing
//! only edges between triangles, following the triangles that line passes over). On a mesh
//! whose floors overlap in the plane, a wall of another floor does not count.

use navlab_core::geom::{Vec2, closest_point_on_segment, orient};
use navlab_core::navmesh::{EdgeId, NavMesh, TriId};

/// The distance between segments `ab` and `cd` (0 when they cross or touch).
fn segment_distance(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> f64 {
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        return 0.0;
    }
    let to = |p: Vec2, q: Vec2, x: Vec2| closest_point_on_segment(p, q, x).distance(x);
    to(c, d, a)
        .min(to(c, d, b))
        .min(to(a, b, c))
        .min(to(a, b, d))
}

/// True when the straight line from `p` (in the triangles `from`) reaches `q`, a point of wall
/// `wall`, over the surface: through triangles it passes over (within `tolerance`), crossing
/// only edges between triangles that it meets, into the wall's own triangle.
pub fn reaches(
    mesh: &NavMesh,
    from: &[TriId],
    p: Vec2,
    q: Vec2,
    wall: EdgeId,
    tolerance: f64,
) -> bool {
    let target = mesh.edges()[wall].triangles[0];
    // A straight line passes over few triangles: a list is quicker than a set.
    let mut seen: Vec<TriId> = Vec::new();
    let mut stack = from.to_vec();
    while let Some(u) = stack.pop() {
        if seen.contains(&u) {
            continue;
        }
        seen.push(u);
        if u == target {
            return true;
        }
        for &e in &mesh.triangles()[u].edges {
            let edge = &mesh.edges()[e];
            if edge.is_border() {
                continue;
            }
            let [a, b] = edge.vertices.map(|v| mesh.vertices()[v]);
            if segment_distance(p, q, a, b) <= tolerance {
                stack.extend(edge.triangles.iter().filter(|n| !seen.contains(*n)));
            }
        }
    }
    false
}

/// The walls of one island (each border edge), for the nearest first.
pub type IslandWalls =
    rstar::RTree<rstar::primitives::GeomWithData<rstar::primitives::Line<[f64; 2]>, EdgeId>>;

/// The walls of island `island` of `mesh`.
pub fn island_walls(mesh: &NavMesh, island: usize) -> IslandWalls {
    rstar::RTree::bulk_load(
        mesh.edges()
            .iter()
            .enumerate()
            .filter(|(_, e)| e.is_border() && mesh.island_of(e.triangles[0]) == island)
            .map(|(id, e)| {
                let [a, b] = e.vertices.map(|v| mesh.vertices()[v]);
                rstar::primitives::GeomWithData::new(
                    rstar::primitives::Line::new([a.x, a.y], [b.x, b.y]),
                    id,
                )
            })
            .collect(),
    )
}

/// The room at `p` (a point of every one of the triangles `from`, whose island's walls are
/// `walls`): the distance to the nearest wall reached over the surface from each, the least
/// over them.
pub fn room(mesh: &NavMesh, walls: &IslandWalls, from: &[TriId], p: Vec2, tolerance: f64) -> f64 {
    let mut least = f64::INFINITY;
    for &t in from {
        // The nearest walls first, until one is reached.
        for wall in walls.nearest_neighbor_iter(&[p.x, p.y]) {
            let (a, b) = (Vec2::from(wall.geom().from), Vec2::from(wall.geom().to));
            let q = closest_point_on_segment(a, b, p);
            let d = q.distance(p);
            if d >= least {
                break;
            }
            if reaches(mesh, &[t], p, q, wall.data, tolerance) {
                least = d;
                break;
            }
        }
    }
    least
}

/// The triangles the straight line from `p` (in the triangles `from`) to `q` passes over,
/// followed from `from` across the edges between triangles it meets (within `tolerance`).
pub fn passed_over(mesh: &NavMesh, from: &[TriId], p: Vec2, q: Vec2, tolerance: f64) -> Vec<TriId> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = from.to_vec();
    let mut out = Vec::new();
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        out.push(u);
        for &e in &mesh.triangles()[u].edges {
            let edge = &mesh.edges()[e];
            let [a, b] = edge.vertices.map(|v| mesh.vertices()[v]);
            if !edge.is_border() && segment_distance(p, q, a, b) <= tolerance {
                stack.extend(edge.triangles.iter().filter(|n| !seen.contains(*n)));
            }
        }
    }
    out
}

/// Per island of `mesh`: true when two of its triangles overlap in the plane (more than along
/// edges or at corners), by trying every pair whose boxes meet.
pub fn stacked_islands(mesh: &NavMesh) -> Vec<bool> {
    let boxes: Vec<(Vec2, Vec2)> = (0..mesh.triangles().len())
        .map(|t| {
            let c = mesh.corners(t);
            (
                Vec2::new(
                    c[0].x.min(c[1].x).min(c[2].x),
                    c[0].y.min(c[1].y).min(c[2].y),
                ),
                Vec2::new(
                    c[0].x.max(c[1].x).max(c[2].x),
                    c[0].y.max(c[1].y).max(c[2].y),
                ),
            )
        })
        .collect();
    // No side of either triangle has the other wholly on or outside it.
    let separated = |a: [Vec2; 3], b: [Vec2; 3]| {
        (0..3).any(|k| b.iter().all(|&x| orient(a[k], a[(k + 1) % 3], x) <= 0.0))
    };
    let mut out = vec![false; mesh.island_count()];
    for s in 0..boxes.len() {
        for t in s + 1..boxes.len() {
            let ((lo1, hi1), (lo2, hi2)) = (boxes[s], boxes[t]);
            if mesh.island_of(s) != mesh.island_of(t)
                || hi1.x <= lo2.x
                || hi2.x <= lo1.x
                || hi1.y <= lo2.y
                || hi2.y <= lo1.y
            {
                continue;
            }
            let (a, b) = (mesh.corners(s), mesh.corners(t));
            if !separated(a, b) && !separated(b, a) {
                out[mesh.island_of(s)] = true;
            }
        }
    }
    out
}
