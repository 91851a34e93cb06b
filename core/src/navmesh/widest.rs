//! The largest agent that can cross from one point to another, portal by portal: the route
//! whose narrowest portal is widest (the bottleneck, or widest, path problem), found by
//! Dijkstra's algorithm keeping the largest bottleneck instead of the least sum. Its value is
//! the largest radius of a disc that stands at both points and crosses every portal of some
//! route ([`Clearance`]); the portal that sets it is the one that stops a larger agent: every
//! route has a portal at most as wide.
//!
//! Off-mesh links are left out: the question is what the walkable ground lets through.

use super::clearance::Clearance;
use super::{EdgeId, Location, NavMesh, TriId};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// The widest route between two points.
#[derive(Debug, Clone, PartialEq)]
pub struct WidestRoute {
    /// The largest radius of a disc that stands at both ends and crosses every portal of the
    /// route (0 when the ends are on different islands).
    pub radius: f64,
    /// What sets it: the narrowest portal of the route, or an end with less room.
    pub limit: RouteLimit,
    /// The route's triangles, from the start's to the goal's (empty when there is none).
    pub triangles: Vec<TriId>,
}

/// What limits the largest agent on a route.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RouteLimit {
    /// The narrowest portal (an edge of the mesh).
    Portal(EdgeId),
    /// The start, nearer a wall than any portal is narrow.
    Start,
    /// The goal, likewise.
    Goal,
    /// The ends are on different islands: no route at all.
    NoRoute,
}

/// A triangle reached, by the bottleneck of its best route (the largest first, then the
/// lowest triangle).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reached {
    bottleneck: f64,
    triangle: TriId,
}

impl Eq for Reached {}

impl Ord for Reached {
    fn cmp(&self, other: &Self) -> Ordering {
        self.bottleneck
            .total_cmp(&other.bottleneck)
            .then(other.triangle.cmp(&self.triangle))
    }
}

impl PartialOrd for Reached {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The widest route of `mesh` from `start` to `goal`.
pub fn widest_route(mesh: &NavMesh, start: &Location, goal: &Location) -> WidestRoute {
    let clearance = mesh.clearance();
    widest_route_with(mesh, clearance, start, goal)
}

/// [`widest_route`] with the clearance given.
pub fn widest_route_with(
    mesh: &NavMesh,
    clearance: &Clearance,
    start: &Location,
    goal: &Location,
) -> WidestRoute {
    let (s, g) = (start.triangle, goal.triangle);
    let n = mesh.triangles().len();
    let none = WidestRoute {
        radius: 0.0,
        limit: RouteLimit::NoRoute,
        triangles: Vec::new(),
    };
    if s >= n || g >= n || mesh.island_of(s) != mesh.island_of(g) {
        return none;
    }
    // Each triangle's best bottleneck so far, and the portal and triangle it came through.
    let mut best = vec![f64::NEG_INFINITY; n];
    let mut came: Vec<Option<(TriId, EdgeId)>> = vec![None; n];
    let mut done = vec![false; n];
    let mut heap = BinaryHeap::new();
    best[s] = f64::INFINITY;
    heap.push(Reached {
        bottleneck: f64::INFINITY,
        triangle: s,
    });
    while let Some(Reached {
        bottleneck,
        triangle: t,
    }) = heap.pop()
    {
        if done[t] || bottleneck < best[t] {
            continue;
        }
        done[t] = true;
        if t == g {
            break;
        }
        for &(next, edge) in mesh.neighbours(t) {
            let through = bottleneck.min(clearance.portal(edge));
            if !done[next] && through > best[next] {
                best[next] = through;
                came[next] = Some((t, edge));
                heap.push(Reached {
                    bottleneck: through,
                    triangle: next,
                });
            }
        }
    }
    if !done[g] {
        return none;
    }
    // The route back from the goal, and its narrowest portal (the first met from the start
    // on ties, so that the answer does not depend on the walk back).
    let mut triangles = vec![g];
    let mut portals = Vec::new();
    let mut at = g;
    while let Some((before, edge)) = came[at] {
        portals.push(edge);
        triangles.push(before);
        at = before;
    }
    triangles.reverse();
    portals.reverse();
    let narrowest = portals
        .iter()
        .copied()
        .min_by(|&a, &b| clearance.portal(a).total_cmp(&clearance.portal(b)));
    let (at_start, at_goal) = (
        clearance.room(s, start.point),
        clearance.room(g, goal.point),
    );
    let through = narrowest.map_or(f64::INFINITY, |e| clearance.portal(e));
    let (radius, limit) = if at_start <= through && at_start <= at_goal {
        (at_start, RouteLimit::Start)
    } else if at_goal <= through {
        (at_goal, RouteLimit::Goal)
    } else {
        match narrowest {
            Some(edge) => (through, RouteLimit::Portal(edge)),
            None => (at_start.min(at_goal), RouteLimit::Start),
        }
    };
    WidestRoute {
        radius,
        limit,
        triangles,
    }
}
