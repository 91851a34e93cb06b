//! Theta\* (Nash, Daniel, Koenig & Felner, AAAI 2007): any-angle paths on a grid.
//!
//! A\* on the grid's cells (eight directions, no corner cutting), except that a node's parent
//! need not be a neighbour: when the cell `v'` reached from `v` is in sight of `v`'s parent
//! (the segment between their centres stays on walkable ground), `v'` takes that parent and the
//! straight distance to it (*path 2*); otherwise `v` and the step (*path 1*). The path is the
//! chain of parents: cell centres joined by straight segments at any angle.
//!
//! Lengths are measured between cell centres, and every passable tile counts as ground (tile
//! costs are not weighed, as for the visibility graph, [`super::visibility`], whose shortest
//! path between the same centres is a lower bound). Sight is [`segment_is_free`], the
//! visibility graph's exact test, so Theta\*'s path is never shorter than the visibility
//! graph's. The estimate is the straight distance to the goal.
//!
//! The open node with the lowest `f` is taken, the newest among equals. (Unlike A\*'s, a node's
//! `f` can be lower than its parent's here — path 2 can shorten `g` by more than `h` grows — so
//! A\*'s shortcut of taking the nodes opened at the `f` being expanded first does not hold.)

use super::free_segment::{HalfPoint, segment_is_free};
use super::map::{Cell, Connectivity, TileMap};
use crate::search::events::SIGHT_CELLS_PER_VISIT;
use crate::search::{Observer, SearchEvent, SearchOutcome, SearchResult};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NO_PARENT: u32 = u32::MAX;

/// A node's record: its `g`, parent, and the order of its latest push (0: never reached;
/// `u32::MAX`: expanded).
#[derive(Debug, Clone, Copy, Default)]
struct Record {
    g: f64,
    parent: u32,
    latest: u32,
}

const CLOSED: u32 = u32::MAX;

/// About how many cells a sight check from `a` to `b` walks: the segment's longer extent, in
/// cells, and the cell it starts in.
fn cells_walked(a: HalfPoint, b: HalfPoint) -> u64 {
    let extent = (a.x2 - b.x2)
        .unsigned_abs()
        .max((a.y2 - b.y2).unsigned_abs());
    extent / 2 + 1
}

/// Theta\* from `start` to `goal` on `map`, moving in `connectivity`'s directions. The path
/// lists the cells where it turns (node ids `y * width + x`), start and goal included; its cost
/// is its length in cells. A start or goal off the map or blocked is unreachable.
///
/// ```
/// use navlab_core::grid::theta::theta_star;
/// use navlab_core::grid::Connectivity;
/// use navlab_core::search::{NoObserver, SearchOutcome};
///
/// let map = navlab_core::grid::movingai::parse_map(
///     b"type octile\nheight 3\nwidth 5\nmap\n.....\n.....\n.....\n",
///     "example.map",
/// )?;
/// // Straight across an open map: one segment, 4 cells right and 2 down.
/// let found = theta_star(&map, (0, 0), (4, 2), Connectivity::Eight, &mut NoObserver);
/// assert_eq!(found.outcome, SearchOutcome::Found);
/// assert_eq!(found.path, vec![0, 14]);
/// assert!((found.cost - 20f64.sqrt()).abs() < 1e-12);
/// # Ok::<(), navlab_core::grid::MapError>(())
/// ```
pub fn theta_star<O: Observer<SearchEvent>>(
    map: &TileMap,
    start: Cell,
    goal: Cell,
    connectivity: Connectivity,
    observer: &mut O,
) -> SearchResult {
    let mut result = SearchResult::not_found();
    let n = map.cell_count();
    if !map.is_passable(start) || !map.is_passable(goal) || n >= NO_PARENT as usize {
        observer.event(SearchEvent::Finished {
            outcome: SearchOutcome::Unreachable,
            cost: f64::INFINITY,
        });
        return result;
    }
    let width = map.width();
    let centre = |i: usize| HalfPoint::centre((i % width, i / width));
    let distance = |a: usize, b: usize| centre(a).distance(centre(b));
    let (s, t) = (map.index(start), map.index(goal));
    let heuristic = |i: usize| distance(i, t);
    let mut nodes = vec![Record::default(); n];
    // Max-heap: lowest f (its bits, f ≥ 0), then the latest push.
    let mut heap: BinaryHeap<(Reverse<u64>, u32, u32)> = BinaryHeap::new();
    let mut order = 1u32;
    let h0 = heuristic(s);
    nodes[s] = Record {
        g: 0.0,
        parent: NO_PARENT,
        latest: order,
    };
    heap.push((Reverse(h0.to_bits()), order, s as u32));
    observer.event(SearchEvent::Opened {
        node: s,
        parent: None,
        g: 0.0,
        h: h0,
    });
    let (mut open_count, mut closed_count) = (1usize, 0usize);
    result.peak_memory = 1;
    let mut out = Vec::with_capacity(8);
    // Cells walked by sight checks and not yet charged to the observer as visits.
    let mut sight_cells = 0u64;
    while let Some((_, entry_order, node)) = heap.pop() {
        let node = node as usize;
        let Some(&at) = nodes.get(node) else {
            continue;
        };
        if at.latest != entry_order {
            continue;
        }
        nodes[node].latest = CLOSED;
        open_count -= 1;
        closed_count += 1;
        result.expanded += 1;
        observer.event(SearchEvent::Expanded {
            node,
            g: at.g,
            h: heuristic(node),
        });
        if node == t {
            result.found(node, at.g, |i| nodes.get(i).map_or(NO_PARENT, |r| r.parent));
            break;
        }
        if observer.stop() {
            result.outcome = SearchOutcome::BudgetExceeded;
            break;
        }
        out.clear();
        map.for_each_move(node, connectivity, |next, _| out.push(next));
        for &next in &out {
            let Some(&seen) = nodes.get(next) else {
                continue;
            };
            if seen.latest == CLOSED {
                continue;
            }
            // Path 2: from the parent, in sight; else path 1: from this node, one step.
            if at.parent != NO_PARENT {
                sight_cells += cells_walked(centre(at.parent as usize), centre(next));
            }
            let (parent, g) = match at.parent {
                p if p != NO_PARENT && segment_is_free(map, centre(p as usize), centre(next)) => {
                    let p = p as usize;
                    (p, nodes[p].g + distance(p, next))
                }
                _ => (node, at.g + distance(node, next)),
            };
            let first = seen.latest == 0;
            if !first && g >= seen.g {
                continue;
            }
            let h = heuristic(next);
            order = order.wrapping_add(1);
            nodes[next] = Record {
                g,
                parent: parent as u32,
                latest: order,
            };
            heap.push((Reverse((g + h).to_bits()), order, next as u32));
            if first {
                open_count += 1;
                observer.event(SearchEvent::Opened {
                    node: next,
                    parent: Some(parent),
                    g,
                    h,
                });
            } else {
                observer.event(SearchEvent::Improved {
                    node: next,
                    parent,
                    g,
                    h,
                });
            }
        }
        result.peak_memory = result.peak_memory.max(open_count + closed_count);
        // The sight checks count towards the work limit: on a large open map each walks as far
        // as the search has come, and a search near the limit would otherwise run for hours.
        observer.spend(sight_cells / SIGHT_CELLS_PER_VISIT);
        sight_cells %= SIGHT_CELLS_PER_VISIT;
    }
    observer.event(SearchEvent::Finished {
        outcome: result.outcome,
        cost: result.cost,
    });
    result
}
