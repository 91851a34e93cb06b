//! Off-mesh links: a jump, a drop, a ladder or a teleport joining two points of a mesh that no
//! walk joins (another floor, another island, across a gap). A link is crossed one way or both,
//! at a cost: its length times a multiplier, or a fixed cost, times its area type's multiplier
//! when it has one.
//!
//! The searches see a link as a step from the point it starts at to the point it ends at:
//! A\* over triangles as an edge between the triangles holding its ends ([`super::query`]),
//! Polyanya as a point the search reaches, from which the link's end is a new root
//! ([`super::anyangle`]). A link's ends are placed on the mesh once ([`PlacedLinks`], made
//! when first asked for): each end in the triangle under it, on the floor nearest its height
//! when it has one; an end off the mesh moves to the nearest point on it.

use super::areas::{AreaCosts, AreaId};
use super::{Location, NavMesh, TriId};
use crate::geom::Vec2;
use serde::{Deserialize, Serialize};

/// The most links one mesh holds.
pub const MAX_LINKS: usize = 4096;

/// The largest cost a link may have, fixed or per unit of its length.
pub const MAX_LINK_COST: f64 = 1.0e6;

/// What a link is, for the reader and for the agent crossing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    /// A jump across a gap or up to a ledge.
    #[default]
    Jump,
    /// A drop down from a ledge.
    Drop,
    /// A ladder, climbed.
    Ladder,
    /// A teleport: no way between the ends is walked.
    Teleport,
    /// Anything else a game means by it.
    Custom,
}

impl LinkKind {
    /// Every kind, in the order menus list them.
    pub const ALL: [LinkKind; 5] = [
        LinkKind::Jump,
        LinkKind::Drop,
        LinkKind::Ladder,
        LinkKind::Teleport,
        LinkKind::Custom,
    ];

    /// The name files and the command line use: `jump`, `drop`, `ladder`, `teleport`,
    /// `custom`.
    pub fn name(self) -> &'static str {
        match self {
            LinkKind::Jump => "jump",
            LinkKind::Drop => "drop",
            LinkKind::Ladder => "ladder",
            LinkKind::Teleport => "teleport",
            LinkKind::Custom => "custom",
        }
    }

    /// The kind called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// What crossing a link costs, before its area type's multiplier.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkCost {
    /// Its length (in 3D when both ends have a height) times this.
    PerLength(f64),
    /// This, however long it is.
    Fixed(f64),
}

impl Default for LinkCost {
    /// As long as it is: a walk of the same length.
    fn default() -> Self {
        LinkCost::PerLength(1.0)
    }
}

impl LinkCost {
    fn value(self) -> f64 {
        match self {
            LinkCost::PerLength(v) | LinkCost::Fixed(v) => v,
        }
    }
}

/// A link between two points of a mesh's plane.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OffMeshLink {
    /// Where it starts, `[x, z]` in the mesh's plane.
    #[serde(with = "point")]
    pub from: Vec2,
    /// Where it ends.
    #[serde(with = "point")]
    pub to: Vec2,
    /// The height of its start, choosing the floor where floors are stacked (`None`: the
    /// lowest floor there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_height: Option<f64>,
    /// The height of its end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_height: Option<f64>,
    /// What it is.
    #[serde(default)]
    pub kind: LinkKind,
    /// True when it may be crossed from its end back to its start too.
    #[serde(default = "yes")]
    pub both_ways: bool,
    /// What crossing it costs.
    #[serde(default)]
    pub cost: LinkCost,
    /// Its area type, whose multiplier its cost is multiplied by (`None`: ground's 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<AreaId>,
}

fn yes() -> bool {
    true
}

/// A point as `[x, z]`.
mod point {
    use crate::geom::Vec2;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(p: &Vec2, s: S) -> Result<S::Ok, S::Error> {
        [p.x, p.y].serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
        let [x, y] = <[f64; 2]>::deserialize(d)?;
        Ok(Vec2::new(x, y))
    }
}

impl OffMeshLink {
    /// A jump from `from` to `to`, both ways, costing its length.
    pub fn new(from: Vec2, to: Vec2) -> Self {
        Self {
            from,
            to,
            from_height: None,
            to_height: None,
            kind: LinkKind::Jump,
            both_ways: true,
            cost: LinkCost::default(),
            area: None,
        }
    }

    /// The same link of another kind.
    pub fn kind(self, kind: LinkKind) -> Self {
        Self { kind, ..self }
    }

    /// The same link, crossed from its start to its end only.
    pub fn one_way(self) -> Self {
        Self {
            both_ways: false,
            ..self
        }
    }

    /// The same link at another cost.
    pub fn costing(self, cost: LinkCost) -> Self {
        Self { cost, ..self }
    }

    /// The same link with its ends' heights.
    pub fn heights(self, from: Option<f64>, to: Option<f64>) -> Self {
        Self {
            from_height: from,
            to_height: to,
            ..self
        }
    }

    /// Its length: in 3D when both ends have a height, else in the plane.
    pub fn length(&self) -> f64 {
        self.length_between(self.from, self.to)
    }

    /// The length between `from` and `to` (its ends, or where they are on a mesh), in 3D
    /// when both its ends have a height.
    fn length_between(&self, from: Vec2, to: Vec2) -> f64 {
        let plan = from.distance(to);
        match (self.from_height, self.to_height) {
            (Some(a), Some(b)) => plan.hypot(b - a),
            _ => plan,
        }
    }

    /// What crossing it costs under `costs` (its area type's multiplier applied).
    pub fn cost_under(&self, costs: &AreaCosts) -> f64 {
        self.cost_over(self.length(), costs)
    }

    /// What crossing it costs when it is `length` long.
    fn cost_over(&self, length: f64, costs: &AreaCosts) -> f64 {
        let base = match self.cost {
            LinkCost::PerLength(m) => m * length,
            LinkCost::Fixed(c) => c,
        };
        base * self.area.map_or(1.0, |a| costs.of(a))
    }

    /// Refuses a link that cannot be searched: a point or a height not finite, a cost negative,
    /// not finite or over [`MAX_LINK_COST`].
    pub fn check(&self) -> Result<(), LinkProblem> {
        let heights = [self.from_height, self.to_height];
        if !self.from.is_finite()
            || !self.to.is_finite()
            || heights.iter().flatten().any(|h| !h.is_finite())
        {
            return Err(LinkProblem::NotFinite);
        }
        let cost = self.cost.value();
        if !(0.0..=MAX_LINK_COST).contains(&cost) {
            return Err(LinkProblem::Cost);
        }
        Ok(())
    }

    /// The link as the command line writes it (see [`parse_link`]).
    pub fn to_text(&self, area_names: &[String]) -> String {
        let end = |p: Vec2, h: Option<f64>| match h {
            Some(h) => format!("{},{},{}", p.x, p.y, h),
            None => format!("{},{}", p.x, p.y),
        };
        let mut text = format!(
            "{}:{}",
            end(self.from, self.from_height),
            end(self.to, self.to_height)
        );
        if self.kind != LinkKind::Jump {
            text += &format!(",kind={}", self.kind.name());
        }
        match self.cost {
            LinkCost::PerLength(1.0) => {}
            LinkCost::PerLength(m) => text += &format!(",cost={m}x"),
            LinkCost::Fixed(c) => text += &format!(",cost={c}"),
        }
        if let Some(name) = self.area.and_then(|a| area_names.get(usize::from(a))) {
            text += &format!(",area={name}");
        }
        if !self.both_ways {
            text += ",oneway";
        }
        text
    }
}

/// Why a link cannot be searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LinkProblem {
    /// A point or a height is not a finite number.
    #[error("a link's point or height is not a finite number")]
    NotFinite,
    /// The cost is negative, not finite or too large.
    #[error("a link's cost must be between 0 and {MAX_LINK_COST}")]
    Cost,
}

/// Why a list of links was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// One link is unusable.
    #[error("link {link}: {problem}")]
    Link {
        /// Its number in the list.
        link: usize,
        /// What is wrong with it.
        problem: LinkProblem,
    },
    /// More links than [`MAX_LINKS`].
    #[error("{count} links; a mesh holds at most {MAX_LINKS}")]
    TooMany {
        /// How many were given.
        count: usize,
    },
}

/// Checks every link of a list and its length.
pub fn check_links(links: &[OffMeshLink]) -> Result<(), LinkError> {
    if links.len() > MAX_LINKS {
        return Err(LinkError::TooMany { count: links.len() });
    }
    for (link, l) in links.iter().enumerate() {
        l.check()
            .map_err(|problem| LinkError::Link { link, problem })?;
    }
    Ok(())
}

/// Why a link's text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkParseError {
    /// Not `X,Z[,H]:X,Z[,H]` followed by options.
    #[error(
        "a link is X,Z[,H]:X,Z[,H] followed by any of ,cost=N ,cost=Nx ,kind=K ,area=NAME ,oneway"
    )]
    Shape,
    /// An option that is not one of those.
    #[error("unknown link option (the options are cost=N, cost=Nx, kind=K, area=NAME, oneway)")]
    Option,
    /// A kind that is not one of the five.
    #[error("unknown link kind (jump, drop, ladder, teleport or custom)")]
    Kind,
    /// An area type the mesh does not have.
    #[error("the mesh has no area type of that name (it has: {known})")]
    Area {
        /// The names it has.
        known: String,
    },
    /// The link's numbers cannot be searched.
    #[error("{0}")]
    Problem(#[from] LinkProblem),
}

/// Reads a link written `X,Z[,H]:X,Z[,H]` followed by any of `,cost=N` (a fixed cost),
/// `,cost=Nx` (N times its length; the default is 1x), `,kind=jump|drop|ladder|teleport|custom`,
/// `,area=NAME` (one of `area_names`) and `,oneway`.
pub fn parse_link(text: &str, area_names: &[String]) -> Result<OffMeshLink, LinkParseError> {
    let (from, rest) = text.split_once(':').ok_or(LinkParseError::Shape)?;
    let mut parts = rest.split(',');
    let number = |s: Option<&str>| {
        s.and_then(|s| s.trim().parse::<f64>().ok())
            .ok_or(LinkParseError::Shape)
    };
    let start: Vec<&str> = from.split(',').collect();
    let (from, from_height) = match start.as_slice() {
        [x, z] => (Vec2::new(number(Some(x))?, number(Some(z))?), None),
        [x, z, h] => (
            Vec2::new(number(Some(x))?, number(Some(z))?),
            Some(number(Some(h))?),
        ),
        _ => return Err(LinkParseError::Shape),
    };
    let to = Vec2::new(number(parts.next())?, number(parts.next())?);
    let mut link = OffMeshLink::new(from, to);
    link.from_height = from_height;
    let mut first_option = true;
    for part in parts {
        let part = part.trim();
        // The end's height, when the third number follows its two.
        if first_option && let Ok(h) = part.parse::<f64>() {
            link.to_height = Some(h);
            first_option = false;
            continue;
        }
        first_option = false;
        match part.split_once('=') {
            None if part == "oneway" => link.both_ways = false,
            Some(("cost", value)) => {
                link.cost = match value.strip_suffix('x') {
                    Some(m) => LinkCost::PerLength(number(Some(m))?),
                    None => LinkCost::Fixed(number(Some(value))?),
                }
            }
            Some(("kind", value)) => {
                link.kind = LinkKind::from_name(value).ok_or(LinkParseError::Kind)?;
            }
            Some(("area", value)) => {
                let id = area_names
                    .iter()
                    .position(|n| n == value)
                    .and_then(|id| AreaId::try_from(id).ok())
                    .ok_or_else(|| LinkParseError::Area {
                        known: area_names.join(", "),
                    })?;
                link.area = Some(id);
            }
            _ => return Err(LinkParseError::Option),
        }
    }
    link.check()?;
    Ok(link)
}

/// One way across a link, its ends placed on the mesh: a link crossed both ways is two.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkCrossing {
    /// The link's number.
    pub link: usize,
    /// True when it runs from the link's end back to its start.
    pub reversed: bool,
    /// Where it starts on the mesh.
    pub from: Location,
    /// Where it ends on the mesh.
    pub to: Location,
    /// Its length between where its ends are on the mesh (in 3D when both have a height):
    /// what a cost per unit of length is multiplied by.
    pub length: f64,
}

impl LinkCrossing {
    /// What crossing it costs under `costs`, `link` being its link.
    pub fn cost_under(&self, link: &OffMeshLink, costs: &AreaCosts) -> f64 {
        link.cost_over(self.length, costs)
    }
}

/// A mesh's links with their ends on the mesh, and which crossings leave each triangle.
#[derive(Debug, Clone, Default)]
pub struct PlacedLinks {
    crossings: Vec<LinkCrossing>,
    /// Sorted by the triangle they leave: those leaving triangle t are numbered
    /// `starts[t]..starts[t + 1]` (empty when there is no crossing).
    starts: Vec<u32>,
}

impl PlacedLinks {
    /// Places `links` on `mesh`; a link whose end cannot be placed (a mesh with no triangle)
    /// is left out.
    pub fn new(mesh: &NavMesh, links: &[OffMeshLink]) -> Self {
        let mut crossings = Vec::new();
        for (k, link) in links.iter().enumerate() {
            let (Some(a), Some(b)) = (
                mesh.locate_near_height(link.from, link.from_height),
                mesh.locate_near_height(link.to, link.to_height),
            ) else {
                continue;
            };
            let length = link.length_between(a.point, b.point);
            if link.both_ways {
                crossings.push(LinkCrossing {
                    link: k,
                    reversed: true,
                    from: b,
                    to: a,
                    length,
                });
            }
            crossings.push(LinkCrossing {
                link: k,
                reversed: false,
                from: a,
                to: b,
                length,
            });
        }
        crossings.sort_by_key(|c| (c.from.triangle, c.link, c.reversed));
        let mut starts = Vec::new();
        if !crossings.is_empty() {
            let count = mesh.triangles().len();
            starts = vec![0u32; count + 1];
            for c in &crossings {
                if let Some(s) = starts.get_mut(c.from.triangle + 1) {
                    *s += 1;
                }
            }
            for t in 0..count {
                starts[t + 1] += starts[t];
            }
        }
        Self { crossings, starts }
    }

    /// True when there is no link.
    pub fn is_empty(&self) -> bool {
        self.crossings.is_empty()
    }

    /// Every crossing, by number.
    pub fn crossings(&self) -> &[LinkCrossing] {
        &self.crossings
    }

    /// Crossing `k`.
    pub fn crossing(&self, k: usize) -> Option<&LinkCrossing> {
        self.crossings.get(k)
    }

    /// The numbers of the crossings that leave triangle `t`.
    pub fn leaving(&self, t: TriId) -> std::ops::Range<usize> {
        match (self.starts.get(t), self.starts.get(t + 1)) {
            (Some(&a), Some(&b)) => a as usize..b as usize,
            _ => 0..0,
        }
    }

    /// What each crossing costs under `costs`, by number.
    pub fn costs(&self, links: &[OffMeshLink], costs: &AreaCosts) -> Vec<f64> {
        self.crossings
            .iter()
            .map(|c| {
                links
                    .get(c.link)
                    .map_or(f64::INFINITY, |l| c.cost_under(l, costs))
            })
            .collect()
    }

    /// Whether island `to` can be reached from island `from` walking and crossing links.
    pub fn reaches(&self, mesh: &NavMesh, from: usize, to: usize) -> bool {
        if from == to {
            return true;
        }
        let mut seen = vec![false; mesh.island_count()];
        let mut stack = vec![from];
        while let Some(island) = stack.pop() {
            if island == to {
                return true;
            }
            match seen.get_mut(island) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            for c in &self.crossings {
                if mesh.island_of(c.from.triangle) == island {
                    stack.push(mesh.island_of(c.to.triangle));
                }
            }
        }
        false
    }
}

/// A lower bound on what reaching a goal costs from a point, when some links cost less than
/// walking the distance they span: the straight line at the least cost per unit, or the
/// straight line to such a link's start, the link, and the least from its end on (worked out
/// once per query, by Dijkstra over those links). With no such link it is the straight line
/// alone, and costs nothing more to evaluate. Never more than a path's cost, and consistent:
/// a search using it stays optimal.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkEstimate {
    per_unit: f64,
    goal: Vec2,
    /// For each link worth taking towards the goal: its start, and the least cost from there
    /// to the goal across it.
    terms: Vec<(Vec2, f64)>,
}

impl LinkEstimate {
    /// The estimate towards `goal` when walking costs at least `per_unit` per unit of length
    /// and crossing `k` of `placed` costs `costs[k]`.
    pub fn new(placed: &PlacedLinks, costs: &[f64], goal: Vec2, per_unit: f64) -> Self {
        // Only a link cheaper than walking its span can beat the straight line.
        let cheap: Vec<(Vec2, Vec2, f64)> = placed
            .crossings
            .iter()
            .zip(costs)
            .filter(|(c, cost)| **cost < per_unit * c.from.point.distance(c.to.point))
            .map(|(c, &cost)| (c.from.point, c.to.point, cost))
            .collect();
        let mut terms = Vec::new();
        if !cheap.is_empty() {
            // Dijkstra towards the goal: `rest[i]` is the least from crossing i's end on.
            let n = cheap.len();
            let mut rest: Vec<f64> = cheap
                .iter()
                .map(|&(_, to, _)| per_unit * to.distance(goal))
                .collect();
            let mut done = vec![false; n];
            for _ in 0..n {
                let Some(j) = (0..n)
                    .filter(|&j| !done[j])
                    .min_by(|&a, &b| (cheap[a].2 + rest[a]).total_cmp(&(cheap[b].2 + rest[b])))
                else {
                    break;
                };
                done[j] = true;
                let (from_j, _, cost_j) = cheap[j];
                let through_j = cost_j + rest[j];
                for i in 0..n {
                    if !done[i] {
                        let via = per_unit * cheap[i].1.distance(from_j) + through_j;
                        if via < rest[i] {
                            rest[i] = via;
                        }
                    }
                }
            }
            terms = cheap
                .iter()
                .zip(&rest)
                .map(|(&(from, _, cost), &r)| (from, cost + r))
                .filter(|&(from, through)| through < per_unit * from.distance(goal))
                .collect();
        }
        Self {
            per_unit,
            goal,
            terms,
        }
    }

    /// The estimate from `p`.
    pub fn at(&self, p: Vec2) -> f64 {
        self.terms.iter().fold(
            self.per_unit * p.distance(self.goal),
            |best, &(from, through)| best.min(self.per_unit * p.distance(from) + through),
        )
    }

    /// The links worth taking towards the goal: each start, and the least cost from there to
    /// the goal across it (empty: the estimate is the straight line).
    pub fn terms(&self) -> &[(Vec2, f64)] {
        &self.terms
    }
}

/// A stretch of a path between two of its waypoints: walked, or a link crossed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PathSegment {
    /// The waypoint it starts at.
    pub first: usize,
    /// The waypoint it ends at.
    pub last: usize,
    /// The link crossed (`None`: walked).
    pub link: Option<LinkUse>,
}

/// A link a path crosses.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LinkUse {
    /// The link's number.
    pub link: usize,
    /// True when crossed from its end back to its start.
    pub reversed: bool,
    /// What it is.
    pub kind: LinkKind,
    /// What crossing it cost.
    pub cost: f64,
}

impl PathSegment {
    /// A walk from waypoint `first` to waypoint `last`.
    pub fn walk(first: usize, last: usize) -> Self {
        Self {
            first,
            last,
            link: None,
        }
    }

    /// The segment as the path JSON writes it: `{"kind": "walk", "from": 0, "to": 3}` or
    /// `{"kind": "link", "link": 2, "link_kind": "jump", "reversed": false, "cost": 4.0,
    /// "from": 3, "to": 4}` (`from` and `to` number waypoints).
    pub fn to_json(&self) -> serde_json::Value {
        match self.link {
            None => serde_json::json!({"kind": "walk", "from": self.first, "to": self.last}),
            Some(l) => serde_json::json!({
                "kind": "link",
                "link": l.link,
                "link_kind": l.kind.name(),
                "reversed": l.reversed,
                "cost": l.cost,
                "from": self.first,
                "to": self.last,
            }),
        }
    }
}

/// What a path made of `waypoints` and `segments` costs: the length of its walks plus the
/// cost of its links (its length, when it crosses none).
pub fn path_cost(waypoints: &[Vec2], segments: &[PathSegment]) -> f64 {
    if segments.iter().all(|s| s.link.is_none()) {
        return crate::search::funnel::path_length(waypoints);
    }
    segments
        .iter()
        .map(|s| match s.link {
            Some(l) => l.cost,
            None => waypoints
                .get(s.first..=s.last)
                .map_or(0.0, crate::search::funnel::path_length),
        })
        .sum()
}
