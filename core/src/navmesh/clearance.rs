//! How much room the mesh has, everywhere: for every portal (an edge between triangles) its
//! clearance, the radius of the largest disc that can cross it — centred on it, with no wall
//! of its island inside — and for every triangle the radius of the largest disc centred in it
//! that no wall enters. A portal's clearance is bounded by the walls on both sides, not by its
//! length: a long portal beside a wall is narrow, a short one in the open is wide.
//!
//! # Definition
//!
//! The walls are the mesh's border edges; a point's room is its distance in the plane to the
//! nearest wall it reaches going straight over the surface. On a floor that overlaps nothing
//! that is the nearest wall of its island; on stacked floors (stairs over a floor) a wall of
//! the floor underneath or above does not count (see `navmesh::floor_walls` for which do). A
//! portal's clearance is the largest room of a point of it; a triangle's, of a point of it
//! (its interior and its edges).
//!
//! # Method
//!
//! Exact, not sampled. The distance to one wall is a convex function of the point, so the room
//! (the least of them) is largest on a portal at an end or where the nearest wall changes, and
//! in a triangle on its edges (as on a portal) or inside where three walls are equally near: a
//! vertex of the walls' Voronoi diagram. Walls in a line end to end are joined first. The
//! walls that can be nearest anywhere on a portal or triangle are found with an R-tree
//! ([`rstar`]) within a bound of the answer (the least, over a few walls, of a wall's farthest
//! distance from a corner); on stacked floors each triangle's own walls are searched instead,
//! those gathered over its floor (`floor_walls_in`). Along a portal every wall's squared
//! distance is a quadratic between the points where its nearest feature changes, so the
//! changes of nearest wall are roots of quadratics (between walls that can be nearest there; a portal with many walls near is split
//! in halves first). Inside a triangle, pieces are split in four, the highest bound first,
//! until a piece's bound is below the best room found or at most four walls can be nearest in
//! it; their Voronoi vertices come from the equations of three features (end points and lines:
//! a circumcentre, the meeting of bisectors, or the root of a quadratic along a bisector). Each
//! candidate's room is measured directly and the largest taken, so a spurious candidate can
//! never raise the answer. Where very many walls are equally near one point the splitting
//! stops at a fixed depth (see `interior_maximum` and `widest_on_segment`): the answer is then
//! a real point's room within a tiny piece of the most, and no mesh makes the work unbounded.

use super::{EdgeId, NavMesh, TriId};
use crate::geom::{Vec2, closest_point_on_segment, orient};
use crate::search::round_funnel::PathArc;
use rstar::primitives::Line;
use rstar::{AABB, RTree};
use serde::Serialize;

/// The clearance of every portal and triangle of a mesh, with where each is reached.
#[derive(Debug, Clone)]
pub struct Clearance {
    /// The walls, for the room at any point.
    walls: Walls,
    /// Per edge: the portal's clearance (0 for a wall).
    portals: Vec<f64>,
    /// Per edge: the centre of the largest disc crossing it.
    portal_centres: Vec<Vec2>,
    /// Per triangle: its clearance.
    triangles: Vec<f64>,
    /// Per triangle: the centre of the largest disc centred in it.
    triangle_centres: Vec<Vec2>,
    /// The largest finite triangle clearance (0 with none).
    widest: f64,
    /// Per vertex: true when a wall ends at it.
    wall_vertices: Vec<bool>,
    /// When carried through an edit: how many portals and triangles were worked out again.
    carried: Option<usize>,
}

impl Clearance {
    /// The clearance of every portal and triangle of `mesh`.
    pub fn of(mesh: &NavMesh) -> Self {
        let walls = Walls::of(mesh);
        let mut out = Self::empty(mesh);
        for edge in mesh.edges() {
            let [a, b] = edge.vertices.map(|v| mesh.vertices()[v]);
            let (room, at) = if edge.is_border() || edge.triangles.is_empty() {
                (0.0, a.midpoint(b))
            } else {
                walls.widest_on_segment(&edge.triangles, a, b)
            };
            out.portals.push(room);
            out.portal_centres.push(at);
        }
        for t in 0..mesh.triangles().len() {
            let (room, at) = out.triangle_room(&walls, mesh, t);
            out.triangles.push(room);
            out.triangle_centres.push(at);
        }
        out.finish(walls);
        out
    }

    /// No portal or triangle worked out yet; the wall vertices marked.
    fn empty(mesh: &NavMesh) -> Self {
        let mut out = Self {
            walls: Walls {
                islands: Vec::new(),
                island_of: Vec::new(),
                floors: Default::default(),
            },
            portals: Vec::with_capacity(mesh.edges().len()),
            portal_centres: Vec::with_capacity(mesh.edges().len()),
            triangles: Vec::with_capacity(mesh.triangles().len()),
            triangle_centres: Vec::with_capacity(mesh.triangles().len()),
            widest: 0.0,
            wall_vertices: vec![false; mesh.vertices().len()],
            carried: None,
        };
        for edge in mesh.edges().iter().filter(|e| e.is_border()) {
            for &v in &edge.vertices {
                if let Some(on) = out.wall_vertices.get_mut(v) {
                    *on = true;
                }
            }
        }
        out
    }

    /// Triangle `t`'s clearance and where, its edges' worked out already.
    fn triangle_room(&self, walls: &Walls, mesh: &NavMesh, t: TriId) -> (f64, Vec2) {
        let triangle = &mesh.triangles()[t];
        let corners = triangle.vertices.map(|v| mesh.vertices()[v]);
        // Its edges' best (worked out once per edge), then inside.
        let edges = triangle
            .edges
            .iter()
            .map(|&e| (self.portal(e), self.portal_centre(e).unwrap_or(corners[0])))
            .fold((f64::NEG_INFINITY, corners[0]), |best, edge| {
                if edge.0 > best.0 { edge } else { best }
            });
        walls.widest_inside(t, corners, edges)
    }

    /// Keeps `walls` and the widest triangle clearance.
    fn finish(&mut self, walls: Walls) {
        self.walls = walls;
        self.widest = self
            .triangles
            .iter()
            .copied()
            .filter(|c| c.is_finite())
            .fold(0.0, f64::max);
    }

    /// The clearance of `mesh`, made by an edit of the mesh `before` was taken of: a portal or
    /// triangle the edit left as it was keeps its clearance unless a wall that came or went is
    /// within that clearance of it (no disc it had can have met one); the rest are worked out
    /// again. The same as [`Clearance::of`] (to rounding), for the work near the edit. When the
    /// edit joined or split islands everything is worked out again. Also returns how many
    /// portals and triangles were worked out again.
    pub fn updated(before: &ClearanceSnapshot, mesh: &NavMesh) -> (Self, usize) {
        let vertices = mesh.vertices();
        // The islands of the triangles kept must map one to one.
        let mut forward: std::collections::HashMap<usize, usize> = Default::default();
        let mut backward: std::collections::HashMap<usize, usize> = Default::default();
        for (t, triangle) in mesh.triangles().iter().enumerate() {
            let key = triangle_key(triangle.vertices.map(|v| vertices[v]));
            if let Some(&(_, _, old)) = before.triangles.get(&key) {
                let new = mesh.island_of(t);
                if *forward.entry(old).or_insert(new) != new
                    || *backward.entry(new).or_insert(old) != old
                {
                    let all = mesh.edges().len() + mesh.triangles().len();
                    return (Self::of(mesh), all);
                }
            }
        }
        // The walls that came or went.
        let mut now = std::collections::HashSet::new();
        let mut changed: Vec<Line<[f64; 2]>> = Vec::new();
        for edge in mesh.edges().iter().filter(|e| e.is_border()) {
            let [a, b] = edge.vertices.map(|v| vertices[v]);
            let key = segment_key(a, b);
            now.insert(key);
            if !before.walls.contains(&key) {
                changed.push(Line::new([a.x, a.y], [b.x, b.y]));
            }
        }
        for key in before.walls.iter().filter(|k| !now.contains(*k)) {
            let (a, b) = (
                [f64::from_bits(key[0]), f64::from_bits(key[1])],
                [f64::from_bits(key[2]), f64::from_bits(key[3])],
            );
            changed.push(Line::new(a, b));
        }
        let changed = RTree::bulk_load(changed);
        // Whether a changed wall is within `reach` of the hull of `points` (a segment or a
        // triangle).
        let near_change = |points: &[Vec2], reach: f64| {
            if !reach.is_finite() {
                return true;
            }
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for p in points {
                lo = [lo[0].min(p.x), lo[1].min(p.y)];
                hi = [hi[0].max(p.x), hi[1].max(p.y)];
            }
            let pad = reach * (1.0 + 1e-9) + 1e-12;
            let envelope =
                AABB::from_corners([lo[0] - pad, lo[1] - pad], [hi[0] + pad, hi[1] + pad]);
            changed
                .locate_in_envelope_intersecting(&envelope)
                .any(|w| hull_distance(points, w) <= pad)
        };
        let walls = Walls::of(mesh);
        let mut out = Self::empty(mesh);
        let mut again = 0;
        for edge in mesh.edges() {
            let [a, b] = edge.vertices.map(|v| vertices[v]);
            let (room, at) = if edge.is_border() || edge.triangles.is_empty() {
                (0.0, a.midpoint(b))
            } else {
                match before.portals.get(&segment_key(a, b)) {
                    Some(&(room, at)) if !near_change(&[a, b], room) => (room, at),
                    _ => {
                        again += 1;
                        walls.widest_on_segment(&edge.triangles, a, b)
                    }
                }
            };
            out.portals.push(room);
            out.portal_centres.push(at);
        }
        for (t, triangle) in mesh.triangles().iter().enumerate() {
            let corners = triangle.vertices.map(|v| vertices[v]);
            let (room, at) = match before.triangles.get(&triangle_key(corners)) {
                Some(&(room, at, _)) if !near_change(&corners, room) => (room, at),
                _ => {
                    again += 1;
                    out.triangle_room(&walls, mesh, t)
                }
            };
            out.triangles.push(room);
            out.triangle_centres.push(at);
        }
        out.finish(walls);
        out.carried = Some(again);
        (out, again)
    }

    /// When this clearance was carried through an edit ([`Clearance::updated`]): how many
    /// portals and triangles were worked out again; `None` when all were.
    pub fn carried(&self) -> Option<usize> {
        self.carried
    }

    /// The largest finite clearance of a triangle (0 when there is none).
    pub fn widest(&self) -> f64 {
        self.widest
    }

    /// True when a wall (a border edge) ends at vertex `v`.
    pub fn on_wall(&self, v: usize) -> bool {
        self.wall_vertices.get(v).copied().unwrap_or(false)
    }

    /// The least room within `reach` along a path over `corridor`, the triangles it crosses
    /// ([`Walls::least_room_along`]).
    pub fn least_room_along(
        &self,
        corridor: &[TriId],
        points: &[Vec2],
        arcs: &[PathArc],
        reach: f64,
    ) -> f64 {
        self.walls.least_room_along(corridor, points, arcs, reach)
    }

    /// The room at `p` in triangle `t`: its distance to the nearest wall that counts there.
    pub fn room(&self, t: TriId, p: Vec2) -> f64 {
        self.walls.distance(t, p)
    }

    /// Edge `e`'s clearance as a portal (0 for a wall or an edge not on the mesh).
    pub fn portal(&self, e: EdgeId) -> f64 {
        self.portals.get(e).copied().unwrap_or(0.0)
    }

    /// The centre of the largest disc crossing edge `e`.
    pub fn portal_centre(&self, e: EdgeId) -> Option<Vec2> {
        self.portal_centres.get(e).copied()
    }

    /// Triangle `t`'s clearance (0 for a triangle not on the mesh).
    pub fn triangle(&self, t: TriId) -> f64 {
        self.triangles.get(t).copied().unwrap_or(0.0)
    }

    /// The centre of the largest disc centred in triangle `t`.
    pub fn triangle_centre(&self, t: TriId) -> Option<Vec2> {
        self.triangle_centres.get(t).copied()
    }

    /// Every portal's clearance, by edge (0 for walls).
    pub fn portals(&self) -> &[f64] {
        &self.portals
    }

    /// Every triangle's clearance, by triangle.
    pub fn triangles(&self) -> &[f64] {
        &self.triangles
    }

    /// Portal `e` of `mesh` with its clearance (none for a wall).
    pub fn portal_room(&self, mesh: &NavMesh, e: EdgeId) -> Option<PortalRoom> {
        let edge = mesh.edges().get(e)?;
        if edge.is_border() {
            return None;
        }
        let [from, to] = edge.vertices.map(|v| mesh.vertices()[v]);
        Some(PortalRoom {
            edge: e,
            clearance: self.portal(e),
            centre: self.portal_centre(e)?,
            from,
            to,
            length: from.distance(to),
        })
    }

    /// Each island of `mesh` (numbered from 1, as `navlab check` numbers them): the largest
    /// disc on it, and its `count` narrowest portals.
    pub fn islands(&self, mesh: &NavMesh, count: usize) -> Vec<IslandRoom> {
        let mut out: Vec<IslandRoom> = (0..mesh.island_count())
            .map(|k| IslandRoom {
                island: k + 1,
                triangles: 0,
                widest: 0.0,
                widest_at: Vec2::default(),
                narrowest: Vec::new(),
            })
            .collect();
        for t in 0..mesh.triangles().len() {
            let Some(island) = out.get_mut(mesh.island_of(t)) else {
                continue;
            };
            island.triangles += 1;
            let room = self.triangle(t);
            if island.triangles == 1 || room > island.widest {
                island.widest = room;
                island.widest_at = self.triangle_centre(t).unwrap_or_default();
            }
        }
        let mut portals: Vec<PortalRoom> = (0..mesh.edges().len())
            .filter_map(|e| self.portal_room(mesh, e))
            .collect();
        portals.sort_by(|a, b| {
            a.clearance
                .total_cmp(&b.clearance)
                .then(a.edge.cmp(&b.edge))
        });
        for portal in portals {
            let island = mesh
                .edges()
                .get(portal.edge)
                .and_then(|e| e.triangles.first())
                .map(|&t| mesh.island_of(t));
            if let Some(island) = island.and_then(|i| out.get_mut(i))
                && island.narrowest.len() < count
            {
                island.narrowest.push(portal);
            }
        }
        out
    }
}

/// A portal with its clearance.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PortalRoom {
    /// Its edge.
    pub edge: EdgeId,
    /// The radius of the largest disc that crosses it.
    pub clearance: f64,
    /// Where that disc's centre crosses it.
    pub centre: Vec2,
    /// One end.
    pub from: Vec2,
    /// The other end.
    pub to: Vec2,
    /// Its length (more than twice its clearance where a wall runs beside it).
    pub length: f64,
}

/// An island's room.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IslandRoom {
    /// Its number, from 1 (the most triangles first).
    pub island: usize,
    /// Its triangles.
    pub triangles: usize,
    /// The radius of the largest disc on it.
    pub widest: f64,
    /// That disc's centre.
    pub widest_at: Vec2,
    /// Its narrowest portals, narrowest first.
    pub narrowest: Vec<PortalRoom>,
}

/// A key of a point by its coordinates' bits (exact: an edit keeps the vertices it leaves).
fn point_key(p: Vec2) -> [u64; 2] {
    [p.x.to_bits(), p.y.to_bits()]
}

/// A segment's key, the same either way round.
fn segment_key(a: Vec2, b: Vec2) -> [u64; 4] {
    let (a, b) = (point_key(a), point_key(b));
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    [lo[0], lo[1], hi[0], hi[1]]
}

/// A triangle's key, the same in any order of its corners.
fn triangle_key(corners: [Vec2; 3]) -> [u64; 6] {
    let mut keys = corners.map(point_key);
    keys.sort_unstable();
    [
        keys[0][0], keys[0][1], keys[1][0], keys[1][1], keys[2][0], keys[2][1],
    ]
}

/// A mesh's clearance kept by geometry — each portal by its ends, each triangle by its
/// corners, with its island, and the walls — so that the clearance can be carried to the mesh
/// an edit makes ([`Clearance::updated`]).
#[derive(Debug, Clone, Default)]
pub struct ClearanceSnapshot {
    walls: std::collections::HashSet<[u64; 4]>,
    portals: std::collections::HashMap<[u64; 4], (f64, Vec2)>,
    triangles: std::collections::HashMap<[u64; 6], (f64, Vec2, usize)>,
}

impl ClearanceSnapshot {
    /// `clearance`, worked out for `mesh`, kept by geometry.
    pub fn of(mesh: &NavMesh, clearance: &Clearance) -> Self {
        let vertices = mesh.vertices();
        let mut snapshot = Self::default();
        for (e, edge) in mesh.edges().iter().enumerate() {
            let [a, b] = edge.vertices.map(|v| vertices[v]);
            if edge.is_border() {
                snapshot.walls.insert(segment_key(a, b));
            } else if let Some(centre) = clearance.portal_centre(e) {
                snapshot
                    .portals
                    .insert(segment_key(a, b), (clearance.portal(e), centre));
            }
        }
        for (t, triangle) in mesh.triangles().iter().enumerate() {
            let corners = triangle.vertices.map(|v| vertices[v]);
            if let Some(centre) = clearance.triangle_centre(t) {
                snapshot.triangles.insert(
                    triangle_key(corners),
                    (clearance.triangle(t), centre, mesh.island_of(t)),
                );
            }
        }
        snapshot
    }
}

/// The walls of each island, for nearest-wall questions.
#[derive(Debug, Clone)]
pub struct Walls {
    /// One R-tree of wall segments per island.
    islands: Vec<RTree<Line<[f64; 2]>>>,
    /// Per triangle: its island.
    island_of: Vec<usize>,
    /// Per triangle of an island whose floors overlap in the plane: the walls that count in it
    /// (`navmesh::floor_walls`).
    floors: std::collections::HashMap<TriId, FloorWalls>,
}

/// The walls that count in one triangle of stacked floors, and the box of its corners.
#[derive(Debug, Clone)]
struct FloorWalls {
    walls: Vec<Line<[f64; 2]>>,
    lo: Vec2,
    hi: Vec2,
}

impl Walls {
    /// The walls (border edges) of `mesh`, by island; walls in a line end to end are one
    /// (the distance to them is the same, and fewer walls make fewer candidates). On an island
    /// whose floors overlap, each triangle's own (see `navmesh::floor_walls`).
    pub fn of(mesh: &NavMesh) -> Self {
        let mut by_island: Vec<Vec<[usize; 2]>> = vec![Vec::new(); mesh.island_count()];
        for edge in mesh.edges().iter().filter(|e| e.is_border()) {
            let Some(&t) = edge.triangles.first() else {
                continue;
            };
            if let Some(walls) = by_island.get_mut(mesh.island_of(t)) {
                walls.push(edge.vertices);
            }
        }
        let vertices = mesh.vertices();
        let lines = |walls: &[[usize; 2]]| -> Vec<Line<[f64; 2]>> {
            merged(walls, vertices)
                .into_iter()
                .map(|[a, b]| Line::new([a.x, a.y], [b.x, b.y]))
                .collect()
        };
        let stacked = super::floor_walls::stacked_islands(mesh);
        let mut floors = std::collections::HashMap::new();
        for t in 0..mesh.triangles().len() {
            if stacked.get(mesh.island_of(t)).copied().unwrap_or(false) {
                let (walls, _) = floor_walls_in(mesh, t);
                let corners = mesh.corners(t);
                let (lo, hi) = box_of(&corners);
                floors.insert(
                    t,
                    FloorWalls {
                        walls: lines(&walls),
                        lo,
                        hi,
                    },
                );
            }
        }
        Self {
            islands: by_island
                .iter()
                .map(|walls| RTree::bulk_load(lines(walls)))
                .collect(),
            island_of: (0..mesh.triangles().len())
                .map(|t| mesh.island_of(t))
                .collect(),
            floors,
        }
    }

    /// The distance from `p` (in triangle `t`) to the nearest wall that counts there
    /// (infinite with none).
    pub fn distance(&self, t: TriId, p: Vec2) -> f64 {
        if let Some(floor) = self.floors.get(&t) {
            return room(&floor.walls, p);
        }
        self.island_of
            .get(t)
            .and_then(|&island| self.islands.get(island))
            .and_then(|tree| tree.nearest_neighbor(&[p.x, p.y]))
            .map_or(f64::INFINITY, |w| segment_distance(w, p))
    }

    /// The walls that count somewhere in `triangles` (the first one's island), with the
    /// triangles' own on stacked floors; `None` for a plain island (its R-tree answers).
    fn floor_walls(&self, triangles: &[TriId]) -> Option<Vec<Line<[f64; 2]>>> {
        let first = self.floors.get(triangles.first()?)?;
        let mut walls = first.walls.clone();
        for t in triangles.iter().skip(1) {
            if let Some(floor) = self.floors.get(t) {
                walls.extend_from_slice(&floor.walls);
            }
        }
        let key = |w: &Line<[f64; 2]>| [w.from, w.to].map(|p| p.map(f64::to_bits));
        walls.sort_by_key(key);
        walls.dedup_by_key(|w| key(w));
        Some(walls)
    }

    /// The walls that count in `triangles` within `reach` of the box of `points` (a superset
    /// of those within `reach` of their hull).
    fn near(&self, triangles: &[TriId], points: &[Vec2], reach: f64) -> Vec<Line<[f64; 2]>> {
        let pad = reach.max(0.0) * (1.0 + 1e-9) + 1e-12;
        if let Some(walls) = self.floor_walls(triangles) {
            return walls
                .into_iter()
                .filter(|w| may_be_within(w, points, pad))
                .collect();
        }
        let Some(tree) = triangles
            .first()
            .and_then(|t| self.island_of.get(*t))
            .and_then(|&island| self.islands.get(island))
        else {
            return Vec::new();
        };
        let (lo, hi) = box_of(points);
        let envelope = AABB::from_corners([lo.x - pad, lo.y - pad], [hi.x + pad, hi.y + pad]);
        tree.locate_in_envelope_intersecting(&envelope)
            .filter(|w| may_be_within(w, points, pad))
            .copied()
            .collect()
    }

    /// A bound on the room anywhere in the hull of `points` (in `triangles`): for each of the
    /// walls nearest to the points, the distance of the farthest point from it (the distance to
    /// one wall is convex, so largest at a corner); the least of these.
    fn bound(&self, triangles: &[TriId], points: &[Vec2]) -> f64 {
        if let Some(walls) = self.floor_walls(triangles) {
            return walls
                .iter()
                .map(|w| farthest(w, points))
                .fold(f64::INFINITY, f64::min);
        }
        let Some(tree) = triangles
            .first()
            .and_then(|t| self.island_of.get(*t))
            .and_then(|&island| self.islands.get(island))
        else {
            return f64::INFINITY;
        };
        let centre = points.iter().fold(Vec2::new(0.0, 0.0), |s, &p| {
            s + p * (1.0 / points.len() as f64)
        });
        std::iter::once(centre)
            .chain(points.iter().copied())
            .filter_map(|p| tree.nearest_neighbor(&[p.x, p.y]))
            .map(|w| farthest(w, points))
            .fold(f64::INFINITY, f64::min)
    }

    /// The least room along a path (`points` joined straight, or along the arc of `arcs` that
    /// starts at a point) over `corridor`, the triangles it crosses, looking no farther than
    /// `reach`: infinite when no wall is that near. Exact for straight pieces and arcs alike.
    /// On stacked floors a piece is measured against the walls that count in the corridor's
    /// triangles its box meets (a wall of one of them may be nearer a point of the piece in
    /// another, so the room may come out less than the truth there, never more).
    pub fn least_room_along(
        &self,
        corridor: &[TriId],
        points: &[Vec2],
        arcs: &[PathArc],
        reach: f64,
    ) -> f64 {
        let stacked = corridor
            .first()
            .is_some_and(|t| self.floors.contains_key(t));
        let mut least = f64::INFINITY;
        for (a, b, arc) in crate::search::round_funnel::pieces(points, arcs) {
            let hull: Vec<Vec2> = match arc {
                Some(arc) => vec![arc.centre],
                None => vec![a, b],
            };
            let span = arc.map_or(0.0, |arc| arc.radius);
            let walls = if stacked {
                let (lo, hi) = box_of(&hull);
                let (lo, hi) = (lo - Vec2::new(span, span), hi + Vec2::new(span, span));
                let touched: Vec<TriId> = corridor
                    .iter()
                    .copied()
                    .filter(|t| {
                        self.floors.get(t).is_some_and(|f| {
                            f.lo.x <= hi.x && f.hi.x >= lo.x && f.lo.y <= hi.y && f.hi.y >= lo.y
                        })
                    })
                    .collect();
                self.near(&touched, &hull, span + reach)
            } else {
                self.near(corridor, &hull, span + reach)
            };
            let room = match arc {
                Some(arc) => walls
                    .iter()
                    .map(|w| arc_to_segment(arc, a, b, Vec2::from(w.from), Vec2::from(w.to)))
                    .fold(f64::INFINITY, f64::min),
                None => walls
                    .iter()
                    .map(|w| segment_to_segment(a, b, Vec2::from(w.from), Vec2::from(w.to)))
                    .fold(f64::INFINITY, f64::min),
            };
            least = least.min(room);
        }
        least
    }

    /// The largest room of a point of segment `ab` (an edge of `triangles`), and the point.
    pub fn widest_on_segment(&self, triangles: &[TriId], a: Vec2, b: Vec2) -> (f64, Vec2) {
        let bound = self.bound(triangles, &[a, b]);
        if !bound.is_finite() {
            return (f64::INFINITY, a.midpoint(b));
        }
        let walls = self.near(triangles, &[a, b], bound);
        widest_on_segment(&walls, a, b)
    }

    /// The largest room of a point of triangle `t` (its corners `corners`), and the point.
    pub fn widest_in_triangle(&self, t: TriId, corners: [Vec2; 3]) -> (f64, Vec2) {
        let bound = self.bound(&[t], &corners);
        let centre = (corners[0] + corners[1] + corners[2]) * (1.0 / 3.0);
        if !bound.is_finite() {
            return (f64::INFINITY, centre);
        }
        let walls = self.near(&[t], &corners, bound);
        let mut best = (f64::NEG_INFINITY, centre);
        for k in 0..3 {
            let edge = widest_on_segment(&walls, corners[k], corners[(k + 1) % 3]);
            if edge.0 > best.0 {
                best = edge;
            }
        }
        self.widest_inside(t, corners, best)
    }

    /// The largest room of a point of triangle `t` (its corners `corners`), given `edges`, the
    /// most room on its edges and where.
    fn widest_inside(&self, t: TriId, corners: [Vec2; 3], edges: (f64, Vec2)) -> (f64, Vec2) {
        let bound = self.bound(&[t], &corners);
        // No point inside has more room than the bound: the edges' best is the answer.
        if bound <= edges.0 {
            return edges;
        }
        if !bound.is_finite() {
            return (
                f64::INFINITY,
                (corners[0] + corners[1] + corners[2]) * (1.0 / 3.0),
            );
        }
        let walls = self.near(&[t], &corners, bound);
        interior_maximum(&walls, corners, edges)
    }
}

/// The walls (vertex pairs) that count in triangle `t` of stacked floors, and the most room in
/// it measured from them (infinite with none): those reached across edges within a reach of it
/// (`floor_walls::walls_reached`) for the least reach found that is no less than that
/// room — out from nothing until the room measured is within the reach, then in while it stays
/// so (the room measured from fewer walls is no less), so as little of the surface is crossed
/// as may be.
pub(crate) fn floor_walls_in(mesh: &NavMesh, t: TriId) -> (Vec<[usize; 2]>, f64) {
    let corners = mesh.corners(t);
    let bounds = mesh.bounds();
    let span = bounds.min.distance(bounds.max);
    let side = (0..3)
        .map(|k| corners[k].distance(corners[(k + 1) % 3]))
        .fold(0.0, f64::max);
    let gather = |reach: f64| {
        let walls = super::floor_walls::walls_reached(mesh, t, reach);
        let lines: Vec<Line<[f64; 2]>> = merged(&walls, mesh.vertices())
            .into_iter()
            .map(|[a, b]| Line::new([a.x, a.y], [b.x, b.y]))
            .collect();
        let most = widest_among(&lines, corners);
        (walls, most)
    };
    let mut reach = 0.0;
    let mut found: Option<(Vec<[usize; 2]>, f64)> = None;
    for _ in 0..64 {
        let (walls, most) = gather(reach);
        if most <= reach {
            let smaller = most < reach;
            found = Some((walls, most));
            if !smaller {
                break;
            }
            reach = most;
        } else if found.is_some() {
            break;
        } else if most.is_finite() {
            reach = most;
        } else if reach >= span {
            break; // no wall anywhere on the island
        } else {
            reach = (reach * 2.0).max(side).min(span);
        }
    }
    found.unwrap_or((Vec::new(), f64::INFINITY))
}

/// The most room of a point of the triangle `corners` measured from `walls` alone.
fn widest_among(walls: &[Line<[f64; 2]>], corners: [Vec2; 3]) -> f64 {
    if walls.is_empty() {
        return f64::INFINITY;
    }
    let mut best = (f64::NEG_INFINITY, corners[0]);
    for k in 0..3 {
        let edge = widest_on_segment(walls, corners[k], corners[(k + 1) % 3]);
        if edge.0 > best.0 {
            best = edge;
        }
    }
    let bound = walls
        .iter()
        .map(|w| farthest(w, &corners))
        .fold(f64::INFINITY, f64::min);
    if bound <= best.0 {
        return best.0;
    }
    interior_maximum(walls, corners, best).0
}

/// The corners of the box round `points`.
pub(super) fn box_of(points: &[Vec2]) -> (Vec2, Vec2) {
    points.iter().fold(
        (
            Vec2::new(f64::INFINITY, f64::INFINITY),
            Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        ),
        |(lo, hi), p| {
            (
                Vec2::new(lo.x.min(p.x), lo.y.min(p.y)),
                Vec2::new(hi.x.max(p.x), hi.y.max(p.y)),
            )
        },
    )
}

/// Below this depth (pieces 2⁻²⁴ of the triangle across) a piece is split no further.
const MAX_SPLITS: usize = 24;

/// At most this many walls' Voronoi vertices are tried in a piece split no further (their
/// count grows as the cube of the walls').
const MAX_VORONOI_WALLS: usize = 8;

/// At most this many pieces of one triangle are searched.
const MAX_PIECES: usize = 4096;

/// The most room inside the triangle `corners`, if more than `best` (the most on its edges):
/// a local maximum inside is a Voronoi vertex of three walls, all of them among the walls
/// that can be nearest somewhere in the region holding it. The triangle is split in four
/// again and again; a piece is dropped when its bound (see [`Walls::bound`]) is no more than
/// the best found, and searched when at most four walls can be nearest in it (none when at
/// most two: two walls have no vertex). Every piece's centre is measured too.
///
/// Exact but where more than [`MAX_VORONOI_WALLS`] walls are equally near one point (the
/// centre of a round room drawn with many sides), or a triangle takes more than
/// [`MAX_PIECES`] pieces: there the answer is a point's real room within a piece's size
/// (2⁻²⁴ of the triangle) of the most, or the best found within the pieces searched — so a
/// hostile mesh cannot make the search run on.
fn interior_maximum(
    walls: &[Line<[f64; 2]>],
    corners: [Vec2; 3],
    mut best: (f64, Vec2),
) -> (f64, Vec2) {
    // Inside a piece (its corners in either order); the room there is measured from the
    // walls that can be nearest in the piece, so only a point inside it is taken.
    let inside = |[a, b, c]: [Vec2; 3], p: Vec2| {
        let o = [orient(a, b, p), orient(b, c, p), orient(c, a, p)];
        o.iter().all(|&v| v >= 0.0) || o.iter().all(|&v| v <= 0.0)
    };
    // The least, over the walls, of a wall's largest distance from a piece (at a corner):
    // nothing in the piece has more room.
    let bound_of = |near: &[Line<[f64; 2]>], piece: &[Vec2; 3]| {
        near.iter()
            .map(|w| farthest(w, piece))
            .fold(f64::INFINITY, f64::min)
    };
    // The pieces, the most promising (highest bound) first, and how many were split.
    let mut pieces = std::collections::BinaryHeap::new();
    let mut searched = 0usize;
    pieces.push(Piece {
        bound: bound_of(walls, &corners),
        corners,
        near: walls.to_vec(),
        depth: 0,
    });
    while let Some(Piece {
        bound,
        corners: piece,
        near,
        depth,
    }) = pieces.pop()
    {
        if bound <= best.0 {
            break; // and every piece left is bounded lower
        }
        // The piece's centre: a point whose room is known, which raises the best found.
        let centre = (piece[0] + piece[1] + piece[2]) * (1.0 / 3.0);
        let there = room(&near, centre);
        if there > best.0 {
            best = (there, centre);
        }
        if bound <= best.0 {
            continue;
        }
        // A wall farther than the bound from every point of the piece cannot be nearest in
        // it: farther than the bound plus the piece's radius from its centre.
        let radius = piece
            .iter()
            .map(|&p| p.distance(centre))
            .fold(0.0, f64::max);
        let near: Vec<Line<[f64; 2]>> = near
            .into_iter()
            .filter(|w| segment_distance(w, centre) <= bound + radius)
            .collect();
        if near.len() <= 2 {
            continue;
        }
        if near.len() <= 4 || (depth >= MAX_SPLITS && near.len() <= MAX_VORONOI_WALLS) {
            for p in voronoi_vertices(&near) {
                if p.is_finite() && inside(piece, p) {
                    let room = room(&near, p);
                    if room > best.0 {
                        best = (room, p);
                    }
                }
            }
            continue;
        }
        searched += 1;
        if depth >= MAX_SPLITS || searched >= MAX_PIECES {
            continue;
        }
        let [p, q, r] = piece;
        let (pq, qr, rp) = (p.midpoint(q), q.midpoint(r), r.midpoint(p));
        for part in [[p, pq, rp], [pq, q, qr], [rp, qr, r], [pq, qr, rp]] {
            let bound = bound_of(&near, &part);
            if bound > best.0 {
                pieces.push(Piece {
                    bound,
                    corners: part,
                    near: near.clone(),
                    depth: depth + 1,
                });
            }
        }
    }
    best
}

/// A piece of a triangle searched for the most room inside it: the walls that can be
/// nearest in it, and a bound on its room (heap order: the highest bound first).
struct Piece {
    bound: f64,
    corners: [Vec2; 3],
    near: Vec<Line<[f64; 2]>>,
    depth: usize,
}

impl PartialEq for Piece {
    fn eq(&self, other: &Self) -> bool {
        self.bound.total_cmp(&other.bound).is_eq()
    }
}

impl Eq for Piece {}

impl PartialOrd for Piece {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Piece {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.bound.total_cmp(&other.bound)
    }
}

/// The walls (vertex pairs of `vertices`) with those in a line end to end joined: a chain
/// is followed through every vertex that is the end of exactly two walls in a line.
fn merged(walls: &[[usize; 2]], vertices: &[Vec2]) -> Vec<[Vec2; 2]> {
    let mut at: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for (k, w) in walls.iter().enumerate() {
        for v in *w {
            at.entry(v).or_default().push(k);
        }
    }
    let point = |v: usize| vertices.get(v).copied().unwrap_or(Vec2::new(0.0, 0.0));
    // The wall after `k` through its end `v`, when the two are in a line.
    let next = |k: usize, v: usize| -> Option<(usize, usize)> {
        let there = at.get(&v)?;
        let &[p, q] = there.as_slice() else {
            return None;
        };
        let other = if p == k { q } else { p };
        let far = |w: usize| {
            let [x, y] = walls[w];
            if x == v { y } else { x }
        };
        let (a, b, c) = (point(far(k)), point(v), point(far(other)));
        let (ab, bc) = (b - a, c - b);
        let straight = ab.cross(bc).abs() <= 1e-12 * ab.length() * bc.length() && ab.dot(bc) > 0.0;
        straight.then_some((other, far(other)))
    };
    let mut used = vec![false; walls.len()];
    let mut out = Vec::new();
    for k in 0..walls.len() {
        if used[k] {
            continue;
        }
        used[k] = true;
        let [mut first, mut last] = walls[k];
        // Out from each end while the chain goes straight on.
        for forward in [true, false] {
            let (mut wall, mut end) = if forward { (k, last) } else { (k, first) };
            while let Some((after, far)) = next(wall, end) {
                if used[after] {
                    break;
                }
                used[after] = true;
                (wall, end) = (after, far);
            }
            if forward {
                last = end;
            } else {
                first = end;
            }
        }
        out.push([point(first), point(last)]);
    }
    out
}

/// Whether wall `w` may come within `reach` of the convex hull of `points` (a segment or a
/// triangle): false only when it is farther (its ends from the hull's edges, the hull's
/// corners from it, and it crosses none of the hull's edges).
fn may_be_within(w: &Line<[f64; 2]>, points: &[Vec2], reach: f64) -> bool {
    let (q0, q1) = (Vec2::from(w.from), Vec2::from(w.to));
    // Boxes apart by more than the reach: apart.
    let (mut lo, mut hi) = (
        Vec2::new(f64::INFINITY, f64::INFINITY),
        Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    );
    for p in points {
        lo = Vec2::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Vec2::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    if q0.x.max(q1.x) < lo.x - reach
        || q0.x.min(q1.x) > hi.x + reach
        || q0.y.max(q1.y) < lo.y - reach
        || q0.y.min(q1.y) > hi.y + reach
    {
        return false;
    }
    let n = points.len();
    let edges = (0..n).map(|k| (points[k], points[(k + 1) % n]));
    let mut nearest = f64::INFINITY;
    for (a, b) in edges {
        let crosses = orient(a, b, q0) * orient(a, b, q1) <= 0.0
            && orient(q0, q1, a) * orient(q0, q1, b) <= 0.0;
        if crosses {
            return true;
        }
        for q in [q0, q1] {
            nearest = nearest.min(closest_point_on_segment(a, b, q).distance(q));
        }
        nearest = nearest.min(closest_point_on_segment(q0, q1, a).distance(a));
    }
    if nearest <= reach {
        return true;
    }
    // Both ends inside a triangle: within it.
    match *points {
        [a, b, c] => {
            crate::geom::triangle_contains(a, b, c, q0)
                || crate::geom::triangle_contains(a, c, b, q0)
        }
        _ => false,
    }
}

/// The distance from `p` to the wall `w`.
/// The distance from wall `w` to the hull of `points` (a segment, or a triangle: 0 when the
/// wall enters it).
fn hull_distance(points: &[Vec2], w: &Line<[f64; 2]>) -> f64 {
    let (c, d) = (Vec2::from(w.from), Vec2::from(w.to));
    match points {
        [a, b] => segment_to_segment(*a, *b, c, d),
        [a, b, t] => {
            if crate::geom::triangle_contains(*a, *b, *t, c) {
                return 0.0;
            }
            segment_to_segment(*a, *b, c, d)
                .min(segment_to_segment(*b, *t, c, d))
                .min(segment_to_segment(*t, *a, c, d))
        }
        _ => points
            .iter()
            .map(|&p| closest_point_on_segment(c, d, p).distance(p))
            .fold(f64::INFINITY, f64::min),
    }
}

/// The distance between segments `ab` and `cd` (0 when they cross).
pub(super) fn segment_to_segment(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> f64 {
    let crossing = |p: Vec2, q: Vec2, r: Vec2, s: Vec2| {
        let (o1, o2) = (orient(p, q, r), orient(p, q, s));
        (o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0)
    };
    if crossing(a, b, c, d) && crossing(c, d, a, b) {
        return 0.0;
    }
    let to = |p: Vec2, q: Vec2, x: Vec2| closest_point_on_segment(p, q, x).distance(x);
    to(c, d, a)
        .min(to(c, d, b))
        .min(to(a, b, c))
        .min(to(a, b, d))
}

/// The distance between `arc` (from `from` to `to`) and segment `cd`: the least of its ends'
/// distances to the segment, the segment's ends' distances to the arc, and where the segment's
/// line comes nearest the arc's centre (or crosses its circle) within both.
fn arc_to_segment(arc: &PathArc, from: Vec2, to: Vec2, c: Vec2, d: Vec2) -> f64 {
    let centre = arc.centre;
    let on_arc = |p: Vec2| {
        // Whether the direction from the centre to p lies within the arc's turn.
        let (u, v) = (from - centre, p - centre);
        let angle = u.cross(v).atan2(u.dot(v));
        let turn = arc.sweep;
        let angle = if turn >= 0.0 {
            if angle < 0.0 {
                angle + std::f64::consts::TAU
            } else {
                angle
            }
        } else if angle > 0.0 {
            angle - std::f64::consts::TAU
        } else {
            angle
        };
        angle.abs() <= turn.abs()
    };
    let to_arc = |p: Vec2| {
        if on_arc(p) {
            (p.distance(centre) - arc.radius).abs()
        } else {
            p.distance(from).min(p.distance(to))
        }
    };
    let mut least = closest_point_on_segment(c, d, from)
        .distance(from)
        .min(closest_point_on_segment(c, d, to).distance(to))
        .min(to_arc(c))
        .min(to_arc(d));
    // Inner points of the segment: its nearest to the centre, and where it meets the circle.
    let foot = closest_point_on_segment(c, d, centre);
    if on_arc(foot) {
        least = least.min((foot.distance(centre) - arc.radius).abs());
    }
    let dir = d - c;
    let (qa, qb) = (dir.dot(dir), 2.0 * dir.dot(c - centre));
    let qc = (c - centre).dot(c - centre) - arc.radius * arc.radius;
    let disc = qb * qb - 4.0 * qa * qc;
    if qa > 0.0 && disc >= 0.0 {
        for t in [
            (-qb - disc.sqrt()) / (2.0 * qa),
            (-qb + disc.sqrt()) / (2.0 * qa),
        ] {
            if (0.0..=1.0).contains(&t) && on_arc(c + dir * t) {
                least = 0.0;
            }
        }
    }
    least
}

fn segment_distance(w: &Line<[f64; 2]>, p: Vec2) -> f64 {
    let (a, b) = (Vec2::from(w.from), Vec2::from(w.to));
    closest_point_on_segment(a, b, p).distance(p)
}

/// The distance from wall `w` to the farthest of `points`: over their hull, the largest
/// distance from it (the distance to a wall is convex).
fn farthest(w: &Line<[f64; 2]>, points: &[Vec2]) -> f64 {
    points
        .iter()
        .map(|&p| segment_distance(w, p))
        .fold(0.0, f64::max)
}

/// The distance from `p` to the nearest of `walls` (infinite with none).
fn room(walls: &[Line<[f64; 2]>], p: Vec2) -> f64 {
    walls
        .iter()
        .map(|w| segment_distance(w, p))
        .fold(f64::INFINITY, f64::min)
}

/// At most this many walls are taken along a piece of a segment at once (the work grows as
/// the square of the walls'); a piece with more is split first.
const MAX_SEGMENT_WALLS: usize = 8;

/// Below this depth (pieces 2⁻⁴⁰ of the segment) a piece of a segment is split no further.
const MAX_SEGMENT_SPLITS: usize = 40;

/// The point of segment `ab` farthest from every one of `walls` (its least distance to them
/// largest), and that distance. The segment is split in halves, the highest bound first,
/// while more than [`MAX_SEGMENT_WALLS`] walls can be nearest on a piece; a piece is dropped
/// once its bound (a wall's larger distance from its ends, the least over the walls) is no
/// more than the best found. Exact but where more walls than that are equally near one point
/// (then within a piece, 2⁻⁴⁰ of the segment, of the most).
fn widest_on_segment(walls: &[Line<[f64; 2]>], a: Vec2, b: Vec2) -> (f64, Vec2) {
    if walls.len() <= MAX_SEGMENT_WALLS {
        return widest_on_piece(walls, a, b);
    }
    let mut best = [a, b]
        .map(|p| (room(walls, p), p))
        .into_iter()
        .fold((f64::NEG_INFINITY, a), |x, y| if y.0 > x.0 { y } else { x });
    let bound_of = |near: &[Line<[f64; 2]>], p: Vec2, q: Vec2| {
        near.iter()
            .map(|w| farthest(w, &[p, q]))
            .fold(f64::INFINITY, f64::min)
    };
    let mut pieces = vec![(a, b, walls.to_vec(), 0usize)];
    let mut searched = 0usize;
    while let Some((p, q, near, depth)) = pieces.pop() {
        let bound = bound_of(&near, p, q);
        if bound <= best.0 {
            continue;
        }
        let near: Vec<Line<[f64; 2]>> = near
            .into_iter()
            .filter(|w| may_be_within(w, &[p, q], bound))
            .collect();
        if near.len() <= MAX_SEGMENT_WALLS {
            let piece = widest_on_piece(&near, p, q);
            if piece.0 > best.0 {
                best = piece;
            }
            continue;
        }
        let middle = p.midpoint(q);
        let there = room(&near, middle);
        if there > best.0 {
            best = (there, middle);
        }
        searched += 1;
        if depth < MAX_SEGMENT_SPLITS && searched < MAX_PIECES {
            pieces.push((p, middle, near.clone(), depth + 1));
            pieces.push((middle, q, near, depth + 1));
        }
    }
    best
}

/// The point of segment `ab` farthest from every one of `walls`, exactly: where the nearest
/// wall changes, among the points where each wall's nearest feature changes.
fn widest_on_piece(walls: &[Line<[f64; 2]>], a: Vec2, b: Vec2) -> (f64, Vec2) {
    let d = b - a;
    // Where each wall's nearest feature changes along the segment: its projection passing
    // one of its ends.
    let mut cuts = vec![0.0, 1.0];
    let dd = d.dot(d);
    for w in walls {
        let (q0, q1) = (Vec2::from(w.from), Vec2::from(w.to));
        let e = q1 - q0;
        let ed = e.dot(d);
        if ed.abs() > 1e-300 {
            for target in [0.0, e.dot(e)] {
                // (a + t d - q0) · e = target
                let t = (target - (a - q0).dot(e)) / ed;
                if t > 0.0 && t < 1.0 {
                    cuts.push(t);
                }
            }
        }
    }
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let mut candidates = cuts.clone();
    for pair in cuts.windows(2) {
        let (t0, t1) = (pair[0], pair[1]);
        if t1 <= t0 {
            continue;
        }
        let mid = a + d * (0.5 * (t0 + t1));
        // Each wall's squared distance on (t0, t1): a quadratic in t.
        let quadratics: Vec<[f64; 3]> = walls
            .iter()
            .map(|w| {
                let (q0, q1) = (Vec2::from(w.from), Vec2::from(w.to));
                let e = q1 - q0;
                let ee = e.dot(e);
                let along = if ee > 0.0 {
                    (mid - q0).dot(e) / ee
                } else {
                    0.0
                };
                if along > 0.0 && along < 1.0 {
                    // The distance to the wall's line: (n·(a - q0) + t n·d)².
                    let n = Vec2::new(-e.y, e.x) * (1.0 / e.length());
                    let (c0, c1) = (n.dot(a - q0), n.dot(d));
                    [c1 * c1, 2.0 * c0 * c1, c0 * c0]
                } else {
                    let q = if along <= 0.0 { q0 } else { q1 };
                    let aq = a - q;
                    [dd, 2.0 * d.dot(aq), aq.dot(aq)]
                }
            })
            .collect();
        // Only walls that can be nearest somewhere on (t0, t1) can change which is nearest:
        // those whose least squared distance there is at most the least of the walls' largest
        // (each is convex, so largest at an end).
        let value = |q: &[f64; 3], t: f64| (q[0] * t + q[1]) * t + q[2];
        let ceiling = quadratics
            .iter()
            .map(|q| value(q, t0).max(value(q, t1)))
            .fold(f64::INFINITY, f64::min);
        let floor = |q: &[f64; 3]| {
            let mut least = value(q, t0).min(value(q, t1));
            if q[0] > 0.0 {
                let vertex = -q[1] / (2.0 * q[0]);
                if vertex > t0 && vertex < t1 {
                    least = least.min(value(q, vertex));
                }
            }
            least
        };
        let slack = 1e-9 * (1.0 + ceiling.abs());
        let active: Vec<[f64; 3]> = quadratics
            .iter()
            .filter(|q| floor(q) <= ceiling + slack)
            .copied()
            .collect();
        for i in 0..active.len() {
            for j in i + 1..active.len() {
                let (p, q) = (active[i], active[j]);
                for t in roots([p[0] - q[0], p[1] - q[1], p[2] - q[2]]) {
                    if t > t0 && t < t1 {
                        candidates.push(t);
                    }
                }
            }
        }
    }
    let mut best = (f64::NEG_INFINITY, a);
    for t in candidates {
        let p = a + d * t;
        let r = room(walls, p);
        if r > best.0 {
            best = (r, p);
        }
    }
    best
}

/// The real roots of `c[0] t² + c[1] t + c[2]` (none when it is zero everywhere).
fn roots([a, b, c]: [f64; 3]) -> Vec<f64> {
    let scale = a.abs().max(b.abs()).max(c.abs());
    if scale == 0.0 || !scale.is_finite() {
        return Vec::new();
    }
    let (a, b, c) = (a / scale, b / scale, c / scale);
    if a.abs() < 1e-12 {
        return if b.abs() < 1e-300 {
            Vec::new()
        } else {
            vec![-c / b]
        };
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return Vec::new();
    }
    // The stable pair: one root from the sum that does not cancel, the other from the product.
    let s = disc.sqrt();
    let q = -0.5 * (b + b.signum() * s);
    let mut out = Vec::with_capacity(2);
    if q != 0.0 {
        out.push(q / a);
        out.push(c / q);
    } else {
        out.push(0.0);
    }
    out
}

/// A feature of a wall a Voronoi vertex can be equally near to: an end point, or the wall's
/// line (as `n · x = c` with `n` of length one).
#[derive(Debug, Clone, Copy)]
enum Site {
    Point(Vec2),
    Line(Vec2, f64),
}

/// Every point equally near three of the walls' features (end points and lines): the
/// candidates for where the room is largest inside a region.
fn voronoi_vertices(walls: &[Line<[f64; 2]>]) -> Vec<Vec2> {
    let mut sites: Vec<Site> = Vec::new();
    let mut points: Vec<Vec2> = Vec::new();
    let mut lines: Vec<(Vec2, f64)> = Vec::new();
    for w in walls {
        let (q0, q1) = (Vec2::from(w.from), Vec2::from(w.to));
        for q in [q0, q1] {
            if !points.contains(&q) {
                points.push(q);
            }
        }
        let e = q1 - q0;
        let len = e.length();
        if len > 0.0 {
            let mut n = Vec2::new(-e.y, e.x) * (1.0 / len);
            // One orientation per line, so that the same line from two walls is one site.
            if n.x < 0.0 || (n.x == 0.0 && n.y < 0.0) {
                n = n * -1.0;
            }
            let c = n.dot(q0);
            let same = |&(m, k): &(Vec2, f64)| {
                (m - n).length() < 1e-12 && (k - c).abs() < 1e-12 * (1.0 + c.abs())
            };
            if !lines.iter().any(same) {
                lines.push((n, c));
            }
        }
    }
    sites.extend(points.iter().map(|&p| Site::Point(p)));
    sites.extend(lines.iter().map(|&(n, c)| Site::Line(n, c)));
    let mut out = Vec::new();
    for i in 0..sites.len() {
        for j in i + 1..sites.len() {
            for k in j + 1..sites.len() {
                equidistant(sites[i], sites[j], sites[k], &mut out);
            }
        }
    }
    out
}

/// The points equally far from three sites (a line's distance unsigned), added to `out`.
fn equidistant(s1: Site, s2: Site, s3: Site, out: &mut Vec<Vec2>) {
    use Site::{Line as L, Point as P};
    match (s1, s2, s3) {
        (P(a), P(b), P(c)) => {
            if let Some(centre) = circumcentre(a, b, c) {
                out.push(centre);
            }
        }
        (P(a), P(b), L(n, c)) | (P(a), L(n, c), P(b)) | (L(n, c), P(a), P(b)) => {
            // On the bisector of a and b: x = m + s u, |x - a|² = h² + s² = (n·x - c)².
            let m = a.midpoint(b);
            let ab = b - a;
            let len = ab.length();
            if len == 0.0 {
                return;
            }
            let u = Vec2::new(-ab.y, ab.x) * (1.0 / len);
            let (alpha, beta) = (n.dot(m) - c, n.dot(u));
            let h2 = (m - a).dot(m - a);
            for s in roots([beta * beta - 1.0, 2.0 * alpha * beta, alpha * alpha - h2]) {
                out.push(m + u * s);
            }
        }
        (P(a), L(n1, c1), L(n2, c2))
        | (L(n1, c1), P(a), L(n2, c2))
        | (L(n1, c1), L(n2, c2), P(a)) => {
            // On a bisector of the two lines (n1·x - c1 = ±(n2·x - c2)), then |x - a| equal
            // to the distance to the first line.
            for sign in [1.0, -1.0] {
                let normal = n1 - n2 * sign;
                let offset = c1 - c2 * sign;
                let Some((origin, dir)) = line_points(normal, offset) else {
                    continue;
                };
                // x = origin + s dir; n1·x - c1 = l0 + l1 s.
                let (l0, l1) = (n1.dot(origin) - c1, n1.dot(dir));
                let oa = origin - a;
                // |oa + s dir|² = (l0 + l1 s)²
                for s in roots([
                    dir.dot(dir) - l1 * l1,
                    2.0 * (oa.dot(dir) - l0 * l1),
                    oa.dot(oa) - l0 * l0,
                ]) {
                    out.push(origin + dir * s);
                }
            }
        }
        (L(n1, c1), L(n2, c2), L(n3, c3)) => {
            for s2 in [1.0, -1.0] {
                for s3 in [1.0, -1.0] {
                    // n1·x - c1 = s2 (n2·x - c2) = s3 (n3·x - c3)
                    let (r1, k1) = (n1 - n2 * s2, c1 - c2 * s2);
                    let (r2, k2) = (n1 - n3 * s3, c1 - c3 * s3);
                    let det = r1.cross(r2);
                    if det.abs() < 1e-12 {
                        continue;
                    }
                    out.push(Vec2::new(
                        (k1 * r2.y - k2 * r1.y) / det,
                        (r1.x * k2 - r2.x * k1) / det,
                    ));
                }
            }
        }
    }
}

/// A point and a unit direction of the line `normal · x = offset` (none when `normal` is
/// nearly zero: the two lines it came from are the same).
fn line_points(normal: Vec2, offset: f64) -> Option<(Vec2, Vec2)> {
    let len2 = normal.dot(normal);
    if len2 < 1e-18 {
        return None;
    }
    let origin = normal * (offset / len2);
    let dir = Vec2::new(-normal.y, normal.x) * (1.0 / len2.sqrt());
    Some((origin, dir))
}

/// The centre of the circle through `a`, `b` and `c` (none when they are in a line).
fn circumcentre(a: Vec2, b: Vec2, c: Vec2) -> Option<Vec2> {
    let (ab, ac) = (b - a, c - a);
    let det = 2.0 * ab.cross(ac);
    if det.abs() < 1e-300 {
        return None;
    }
    let (l1, l2) = (ab.dot(ab), ac.dot(ac));
    Some(a + Vec2::new(ac.y * l1 - ab.y * l2, ab.x * l2 - ac.x * l1) * (1.0 / det))
}
