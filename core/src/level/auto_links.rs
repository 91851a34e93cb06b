//! Off-mesh links found on a built level: from points along the navmesh's border, straight out
//! from it, the first floor of the navmesh an agent could drop or jump to, within its jump
//! distance, drop height and jump height, with room for it above the way; each candidate kept
//! as a link or left out with its reason (too high, too deep, too far, no landing, no room
//! above, ground there that the navmesh left out).

use super::settings::BuildSettings;
use crate::geom::Vec2;
use crate::navmesh::NavMesh;
use crate::navmesh::links::{LinkKind, OffMeshLink};
use glam::DVec3;

/// How far an agent may jump and drop, and how densely the border is tried.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkSearch {
    /// The longest jump or step off, in the plane, from the navmesh's border (which lies an
    /// agent's radius in from a ledge) to a landing.
    pub max_distance: f64,
    /// The deepest drop.
    pub max_drop: f64,
    /// The highest jump up.
    pub max_jump_up: f64,
    /// Points are tried along the border this far apart (at least one per border edge).
    pub spacing: f64,
}

impl LinkSearch {
    /// Defaults for an agent of `settings`: a gap of two units between ledges (the navmesh's
    /// borders lie a radius in from each, so two units and two radii between borders), a drop
    /// of two agent heights, a jump up of two climbs, a point every two radii along the
    /// border.
    pub fn for_agent(settings: &BuildSettings) -> Self {
        Self {
            max_distance: 2.0 + 2.0 * settings.agent_radius,
            max_drop: 2.0 * settings.agent_height,
            max_jump_up: 2.0 * settings.agent_max_climb,
            spacing: (2.0 * settings.agent_radius).max(settings.cell_size),
        }
    }
}

/// Why a candidate is not a link.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rejection {
    /// No floor of the navmesh within reach, nor any beyond it out to twice the distance.
    NoLanding,
    /// The nearest floor out there lies beyond the jump distance (how far it is).
    TooFar(f64),
    /// The floors within reach are higher than a jump up (how much higher the nearest is).
    TooHigh(f64),
    /// The floors within reach are lower than a drop (how much lower the nearest is).
    TooDeep(f64),
    /// The level's geometry is in the way of an agent going over (above the way there).
    NoClearance,
    /// The level has ground there that the navmesh leaves out (too narrow, too steep…).
    OffTheMesh,
}

impl Rejection {
    /// Its name for scripts: `no_landing`, `too_far`, `too_high`, `too_deep`,
    /// `no_clearance`, `off_the_mesh`.
    pub fn name(self) -> &'static str {
        match self {
            Rejection::NoLanding => "no_landing",
            Rejection::TooFar(_) => "too_far",
            Rejection::TooHigh(_) => "too_high",
            Rejection::TooDeep(_) => "too_deep",
            Rejection::NoClearance => "no_clearance",
            Rejection::OffTheMesh => "off_the_mesh",
        }
    }

    /// The reason in a few words.
    pub fn words(self) -> String {
        match self {
            Rejection::NoLanding => "no landing within reach".into(),
            Rejection::TooFar(d) => format!("too far: the nearest floor is {d:.2} away"),
            Rejection::TooHigh(h) => format!("too high: the floor is {h:.2} up"),
            Rejection::TooDeep(h) => format!("too deep: the floor is {h:.2} down"),
            Rejection::NoClearance => "no clearance: the level is in the way above".into(),
            Rejection::OffTheMesh => "lands off the mesh: ground the navmesh left out".into(),
        }
    }
}

/// A point of the border tried, and what was found out from it.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkCandidate {
    /// The point of the navmesh's border, and its height.
    pub from: Vec2,
    /// Its height.
    pub from_height: f64,
    /// The island of the navmesh it is on.
    pub from_island: usize,
    /// Where it would land, and its height (the farthest point tried when nothing was found).
    pub to: Vec2,
    /// The landing's height.
    pub to_height: f64,
    /// The landing's island, when there is one.
    pub to_island: Option<usize>,
    /// The link's kind, or why there is none.
    pub verdict: Result<LinkKind, Rejection>,
}

impl LinkCandidate {
    /// The link it makes, when it was kept: a drop one way; a jump both ways when the way
    /// back is a jump too, else one way.
    pub fn link(&self, search: &LinkSearch) -> Option<OffMeshLink> {
        let kind = self.verdict.ok()?;
        let link = OffMeshLink::new(self.from, self.to)
            .kind(kind)
            .heights(Some(self.from_height), Some(self.to_height));
        let back_is_a_jump = self.from_height - self.to_height <= search.max_jump_up;
        Some(if kind == LinkKind::Jump && back_is_a_jump {
            link
        } else {
            link.one_way()
        })
    }
}

/// Tries the border of `mesh` (the navmesh built from the level of `positions` and `faces`
/// with `settings`) for links, every `search.spacing` along it.
pub fn find_links(
    mesh: &NavMesh,
    positions: &[[f64; 3]],
    faces: &[Vec<usize>],
    settings: &BuildSettings,
    search: &LinkSearch,
) -> Vec<LinkCandidate> {
    let level = Triangles::new(positions, faces);
    // Finer than a cell: a strip of floor a cell wide is not stepped over.
    let step = (0.25 * settings.cell_size).max(0.01);
    let mut found = Vec::new();
    for edge in mesh.edges() {
        // The border: edges of one triangle.
        let &[t] = edge.triangles.as_slice() else {
            continue;
        };
        let [va, vb] = edge.vertices;
        let (Some(&a), Some(&b)) = (mesh.vertices().get(va), mesh.vertices().get(vb)) else {
            continue;
        };
        let (ha, hb) = (mesh.heights()[va], mesh.heights()[vb]);
        let length = a.distance(b);
        if length <= 0.0 {
            continue;
        }
        let along = (b - a) * (1.0 / length);
        let mut out = Vec2::new(along.y, -along.x);
        let centre = mesh.triangles()[t].centroid;
        if (centre - a.midpoint(b)).dot(out) > 0.0 {
            out = out * -1.0;
        }
        let count = ((length / search.spacing).floor() as usize).max(1);
        for k in 0..count {
            let s = (k as f64 + 0.5) / count as f64;
            let from = a.lerp(b, s);
            let from_height = ha + (hb - ha) * s;
            let from_island = mesh.island_of(t);
            found.push(try_out(
                mesh,
                &level,
                settings,
                search,
                (from, from_height, from_island, t),
                out,
                step,
            ));
        }
    }
    found
}

/// The links that `candidates` keep, dropping those within `search.spacing` of one kept
/// before between the same islands, of the same kind.
pub fn kept_links(candidates: &[LinkCandidate], search: &LinkSearch) -> Vec<OffMeshLink> {
    kept_candidates(candidates, search)
        .into_iter()
        .filter_map(|k| candidates.get(k)?.link(search))
        .collect()
}

/// Which of `candidates` [`kept_links`] keeps, in order: their indices.
pub fn kept_candidates(candidates: &[LinkCandidate], search: &LinkSearch) -> Vec<usize> {
    let mut kept: Vec<(&LinkCandidate, LinkKind)> = Vec::new();
    let mut indices = Vec::new();
    for (k, c) in candidates.iter().enumerate() {
        let Some(link) = c.link(search) else {
            continue;
        };
        let near = kept.iter().any(|(other, kind)| {
            other.from_island == c.from_island
                && other.to_island == c.to_island
                && *kind == link.kind
                && other.from.distance(c.from) < 2.0 * search.spacing
        });
        if !near {
            kept.push((c, link.kind));
            indices.push(k);
        }
    }
    indices
}

/// Out from the border point `from` (on triangle `t` of island `from_island`) along `out`.
fn try_out(
    mesh: &NavMesh,
    level: &Triangles,
    settings: &BuildSettings,
    search: &LinkSearch,
    (from, from_height, from_island, t): (Vec2, f64, usize, usize),
    out: Vec2,
    step: f64,
) -> LinkCandidate {
    let mut candidate = LinkCandidate {
        from,
        from_height,
        from_island,
        to: from + out * search.max_distance,
        to_height: from_height,
        to_island: None,
        verdict: Err(Rejection::NoLanding),
    };
    let mut nearest_miss: Option<Rejection> = None;
    // Whether the way has left the floor it started on, and then met ground of the level
    // within reach that the navmesh does not hold.
    let (mut left_floor, mut off_mesh_ground) = (false, false);
    // Every step out to twice the distance, and the distance itself.
    let steps = ((2.0 * search.max_distance / step).ceil() as usize).max(1);
    let mut distances: Vec<f64> = (1..=steps).map(|k| k as f64 * step).collect();
    let at = distances.partition_point(|&d| d < search.max_distance);
    distances.insert(at, search.max_distance);
    for d in distances {
        let p = from + out * d;
        for floor in mesh.floors_at(p) {
            let island = mesh.island_of(floor.triangle);
            let dh = floor.height - from_height;
            // The floor it stands on, going on past a bend of the border: not a landing.
            if floor.triangle == t
                || (island == from_island && dh.abs() <= settings.agent_max_climb)
            {
                continue;
            }
            if d > search.max_distance {
                return LinkCandidate {
                    to: p,
                    to_height: floor.height,
                    to_island: Some(island),
                    verdict: Err(nearest_miss.unwrap_or(Rejection::TooFar(d))),
                    ..candidate
                };
            }
            if dh > search.max_jump_up {
                nearest_miss.get_or_insert(Rejection::TooHigh(dh));
                continue;
            }
            if dh < -search.max_drop {
                nearest_miss.get_or_insert(Rejection::TooDeep(-dh));
                continue;
            }
            candidate.to = p;
            candidate.to_height = floor.height;
            candidate.to_island = Some(island);
            // Room above the way: the level's faces must not cross the lines an agent's body
            // sweeps going over at the higher end's height, from a climb above its feet up to
            // its head.
            let top = from_height.max(floor.height);
            let lift = settings.agent_max_climb.max(0.1);
            let blocked = [lift, 0.5 * settings.agent_height, settings.agent_height]
                .iter()
                .any(|&up| level.crossed([from.x, top + up, from.y], [p.x, top + up, p.y]));
            candidate.verdict = if blocked {
                Err(Rejection::NoClearance)
            } else if dh < -settings.agent_max_climb {
                Ok(LinkKind::Drop)
            } else {
                Ok(LinkKind::Jump)
            };
            return candidate;
        }
        // Ground of the level under the point, within reach, off the floor it left (past the
        // ledge: the margin the navmesh keeps from the ledge is ground left out too).
        if d <= search.max_distance && !off_mesh_ground {
            let on_its_floor = level.ground_between(
                p,
                from_height - settings.agent_max_climb,
                from_height + settings.agent_max_climb,
            );
            left_floor |= !on_its_floor;
            off_mesh_ground = left_floor
                && level.ground_between(
                    p,
                    from_height - search.max_drop,
                    from_height + search.max_jump_up,
                );
            if off_mesh_ground {
                candidate.to = p;
            }
        }
    }
    candidate.verdict = Err(match nearest_miss {
        Some(miss) => miss,
        None if off_mesh_ground => Rejection::OffTheMesh,
        None => Rejection::NoLanding,
    });
    candidate
}

/// The level's triangles, for rays.
struct Triangles {
    triangles: Vec<[DVec3; 3]>,
}

impl Triangles {
    fn new(positions: &[[f64; 3]], faces: &[Vec<usize>]) -> Self {
        let mut triangles = Vec::new();
        for face in faces {
            let corners: Vec<DVec3> = face
                .iter()
                .filter_map(|&i| positions.get(i).map(|&p| DVec3::from_array(p)))
                .collect();
            if corners.len() != face.len() || corners.len() < 3 {
                continue;
            }
            for k in 1..corners.len() - 1 {
                triangles.push([corners[0], corners[k], corners[k + 1]]);
            }
        }
        Self { triangles }
    }

    /// Whether a triangle crosses the segment from `a` to `b`.
    fn crossed(&self, a: [f64; 3], b: [f64; 3]) -> bool {
        let (a, b) = (DVec3::from_array(a), DVec3::from_array(b));
        self.triangles
            .iter()
            .any(|t| segment_hits(a, b - a, t).is_some_and(|s| s > 1e-9 && s < 1.0 - 1e-9))
    }

    /// Whether an upward-facing face of the level lies under `p` between heights `low` and
    /// `high`.
    fn ground_between(&self, p: Vec2, low: f64, high: f64) -> bool {
        let a = DVec3::new(p.x, high, p.y);
        let d = DVec3::new(0.0, low - high, 0.0);
        self.triangles.iter().any(|t| {
            (t[1] - t[0]).cross(t[2] - t[0]).y > 0.0
                && segment_hits(a, d, t).is_some_and(|s| (0.0..=1.0).contains(&s))
        })
    }
}

/// Where along `a + s d` the segment meets triangle `t` (Möller–Trumbore), when it does.
fn segment_hits(a: DVec3, d: DVec3, t: &[DVec3; 3]) -> Option<f64> {
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s0 = a - t[0];
    let u = s0.dot(p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s0.cross(e1);
    let v = d.dot(q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    Some(e2.dot(q) * inv)
}
