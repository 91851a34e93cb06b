//! Why the shortest path takes a link or leaves it: for each link near a query, the cost of
//! the shortest way through it against the shortest path's, each by Polyanya (exact). A link
//! taken is weighed against the shortest way without it ("walking round"); a link left,
//! against the shortest way forced through it.

use super::anyangle::shortest_path_located;
use super::links::{LinkKind, OffMeshLink};
use super::{Location, NavMesh};
use crate::geom::closest_point_on_segment;
use crate::search::NoObserver;

/// The most links weighed for one query (the nearest to the straight line between its ends).
pub const MAX_WEIGHED: usize = 12;

/// What one link did for a path.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkVerdict {
    /// The link's number on the mesh.
    pub link: usize,
    /// What it is.
    pub kind: LinkKind,
    /// What crossing it costs.
    pub cost: f64,
    /// True when the shortest path crosses it.
    pub taken: bool,
    /// The shortest path's cost (infinite when there is none).
    pub path_cost: f64,
    /// Taken: the cost of the shortest way without it (infinite: there is none). Left: the
    /// cost of the shortest way through it (infinite: it cannot be used between these points).
    pub other_cost: f64,
}

impl LinkVerdict {
    /// The verdict in a sentence.
    pub fn sentence(&self) -> String {
        let name = format!(
            "{} link {} (cost {:.2})",
            self.kind.name(),
            self.link,
            self.cost
        );
        match (self.taken, self.other_cost.is_finite()) {
            (true, true) => format!(
                "{name} is taken: the path costs {:.2} with it; walking round would cost {:.2}",
                self.path_cost, self.other_cost
            ),
            (true, false) => format!("{name} is taken: without it there is no way to the goal"),
            (false, true) => format!(
                "{name} is not taken: through it the way would cost {:.2}, walking round costs {:.2}",
                self.other_cost, self.path_cost
            ),
            (false, false) => {
                format!("{name} is not taken: no way from the start through it leads to the goal")
            }
        }
    }
}

/// The verdict on each of the [`MAX_WEIGHED`] links nearest the line from `start` to `goal`
/// (by their start), in the order of their numbers.
pub fn weigh_links(mesh: &NavMesh, start: Location, goal: Location) -> Vec<LinkVerdict> {
    let links = mesh.links();
    if links.is_empty() {
        return Vec::new();
    }
    let best = shortest_path_located(mesh, start, goal, &mut NoObserver);
    let mut near: Vec<(f64, usize)> = links
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let near = closest_point_on_segment(start.point, goal.point, l.from);
            (l.from.distance(near), k)
        })
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    near.truncate(MAX_WEIGHED);
    let mut chosen: Vec<usize> = near.into_iter().map(|(_, k)| k).collect();
    chosen.sort_unstable();
    let costs = super::areas::AreaCosts::default();
    chosen
        .into_iter()
        .filter_map(|k| {
            let link = links.get(k)?;
            let taken = best
                .segments
                .iter()
                .any(|s| s.link.is_some_and(|l| l.link == k));
            let other_cost = if taken {
                without_link(mesh, k)
                    .map(|m| shortest_path_located(&m, start, goal, &mut NoObserver).cost)
                    .unwrap_or(f64::INFINITY)
            } else {
                through(mesh, link, start, goal)
            };
            let cost = mesh
                .placed_links()
                .crossings()
                .iter()
                .find(|c| c.link == k)
                .map_or_else(|| link.cost_under(&costs), |c| c.cost_under(link, &costs));
            Some(LinkVerdict {
                link: k,
                kind: link.kind,
                cost,
                taken,
                path_cost: best.cost,
                other_cost,
            })
        })
        .collect()
}

/// The mesh with its link `k` left out.
fn without_link(mesh: &NavMesh, k: usize) -> Option<NavMesh> {
    let mut links = mesh.links().to_vec();
    (k < links.len()).then(|| links.remove(k))?;
    mesh.clone().with_links(links).ok()
}

/// The cost of the shortest way from `start` to `goal` forced across `link` (either way, when
/// it goes both ways).
fn through(mesh: &NavMesh, link: &OffMeshLink, start: Location, goal: Location) -> f64 {
    let costs = super::areas::AreaCosts::default();
    let placed = mesh.placed_links();
    placed
        .crossings()
        .iter()
        .filter(|c| mesh.links().get(c.link) == Some(link))
        .map(|c| {
            let cost = c.cost_under(link, &costs);
            let to_start = shortest_path_located(mesh, start, c.from, &mut NoObserver).cost;
            let from_end = shortest_path_located(mesh, c.to, goal, &mut NoObserver).cost;
            to_start + cost + from_end
        })
        .fold(f64::INFINITY, f64::min)
}
