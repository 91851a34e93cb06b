//! Compute a shortest path using [Fringe Search](https://en.wikipedia.org/wiki/Fringe_search)
//! (Björnsson, Enzenberger, Holte and Schaeffer, 2005) — the "improved A*/IDA*" of “Path search
//! in virtual scenes” (Suzhou 2012): an unsorted *now* list processed in order, children inserted right after
//! the node being expanded; a node whose `f` exceeds the threshold moves to the *later* list;
//! when *now* runs out, *later* becomes *now* and the threshold rises to the smallest `f` that
//! exceeded it. Costs found so far are cached between passes, so nothing is re-searched from
//! the start.

use super::events::{Observer, SearchEvent, SearchOutcome, SearchResult};
use super::pass_limit;

/// What Fringe Search keeps per node, together so that one cache line serves a visit: cost so
/// far (infinite: never reached), heuristic, parent, and the version that list entries must
/// carry to be current (older entries were superseded by a cheaper route). The version is odd
/// while the node's current entry is in the lists, even once it was expanded (or before it was
/// reached), so that a cheaper route knows whether it leaves a superseded entry behind.
///
/// Kept as three words ([`Words`]), all zero for a node not reached (version 0), so that the
/// array starts as zeroed memory, resident only where the search writes.
#[derive(Clone, Copy)]
struct FringeRecord {
    g: f64,
    h: f64,
    parent: u32,
    version: u32,
}

/// A [`FringeRecord`] as stored: the bits of `g`, of `h`, then the parent in the low half and
/// the version in the high half.
type Words = [u64; 3];

impl FringeRecord {
    fn load(words: &Words) -> Self {
        Self {
            g: f64::from_bits(words[0]),
            h: f64::from_bits(words[1]),
            parent: words[2] as u32,
            version: (words[2] >> 32) as u32,
        }
    }

    fn words(self) -> Words {
        [
            self.g.to_bits(),
            self.h.to_bits(),
            u64::from(self.parent) | (u64::from(self.version) << 32),
        ]
    }
}

/// A list entry: a node and the version of its record it was inserted with.
type Entry = (u32, u32);

/// Per-node memory of Fringe Search, reusable between searches on graphs of the same size.
///
/// The *now* list is kept in two plain vectors rather than one deque: the entries the pass
/// started with (`now`, read in order from a cursor) and the children inserted during the pass
/// (`inserted`, a stack: the newest children come first, "right after the node being
/// expanded"). Together they are exactly the paper's list, and the scan over `now` — most of
/// the work on maps where the threshold rises in small steps — is a sequential read.
#[derive(Default)]
pub struct FringeScratch {
    nodes: Vec<Words>,
    touched: Vec<u32>,
    now: Vec<Entry>,
    inserted: Vec<Entry>,
    later: Vec<Entry>,
    /// Superseded entries not yet dropped: in `now` past the cursor, in `inserted`, and put
    /// off to `later` before their node was reached more cheaply. The paper's list does not
    /// hold them (it removes an entry at once), so the list's size leaves them out.
    stale: usize,
    children: Vec<(usize, f64)>,
}

impl FringeScratch {
    fn prepare(&mut self, node_count: usize) {
        if self.nodes.len() != node_count {
            // Zeroed memory (see [`FringeRecord`]); the old array freed first.
            self.nodes = Vec::new();
            self.nodes = vec![[0; 3]; node_count];
        } else {
            for &n in &self.touched {
                if let Some(words) = self.nodes.get_mut(n as usize) {
                    *words = [0; 3];
                }
            }
        }
        self.touched.clear();
        self.now.clear();
        self.inserted.clear();
        self.later.clear();
        self.stale = 0;
    }
}

/// Shortest path from `start` to a node satisfying `is_goal`; arguments as for
/// [`astar`](super::astar()). Optimal with an admissible heuristic.
///
/// ```
/// use navlab_core::search::{fringe, NoObserver};
/// let grid = |n: usize, out: &mut Vec<(usize, f64)>| {
///     let (x, y) = (n % 4, n / 4);
///     if x > 0 { out.push((n - 1, 1.0)) }
///     if x < 3 { out.push((n + 1, 1.0)) }
///     if y > 0 { out.push((n - 4, 1.0)) }
///     if y < 3 { out.push((n + 4, 1.0)) }
/// };
/// let manhattan = |n: usize| ((3 - n % 4) + (3 - n / 4)) as f64;
/// let result = fringe(16, 0, grid, manhattan, |n| n == 15, &mut NoObserver);
/// assert_eq!(result.cost, 6.0);
/// ```
pub fn fringe<S, H, G, O>(
    node_count: usize,
    start: usize,
    successors: S,
    heuristic: H,
    is_goal: G,
    observer: &mut O,
) -> SearchResult
where
    S: FnMut(usize, &mut Vec<(usize, f64)>),
    H: FnMut(usize) -> f64,
    G: FnMut(usize) -> bool,
    O: Observer<SearchEvent>,
{
    let mut scratch = FringeScratch::default();
    fringe_with_scratch(
        &mut scratch,
        node_count,
        start,
        successors,
        heuristic,
        is_goal,
        observer,
    )
}

/// [`fringe`] reusing `scratch` between calls.
pub fn fringe_with_scratch<S, H, G, O>(
    scratch: &mut FringeScratch,
    node_count: usize,
    start: usize,
    mut successors: S,
    mut heuristic: H,
    mut is_goal: G,
    observer: &mut O,
) -> SearchResult
where
    S: FnMut(usize, &mut Vec<(usize, f64)>),
    H: FnMut(usize) -> f64,
    G: FnMut(usize) -> bool,
    O: Observer<SearchEvent>,
{
    let mut result = SearchResult::not_found();
    if start >= node_count || node_count >= u32::MAX as usize {
        observer.event(SearchEvent::Finished {
            outcome: result.outcome,
            cost: result.cost,
        });
        return result;
    }
    scratch.prepare(node_count);
    let FringeScratch {
        nodes,
        touched,
        now,
        inserted,
        later,
        stale,
        children,
    } = scratch;

    let h_start = heuristic(start);
    nodes[start] = FringeRecord {
        g: 0.0,
        h: h_start,
        parent: u32::MAX,
        version: 1,
    }
    .words();
    touched.push(start as u32);
    now.push((start as u32, 1));
    observer.event(SearchEvent::Opened {
        node: start,
        parent: None,
        g: 0.0,
        h: h_start,
    });
    let mut threshold = h_start;
    let mut iteration = 1;
    observer.event(SearchEvent::IterationStarted {
        iteration,
        threshold,
        from_start: false,
    });
    'passes: loop {
        let mut pass = Pass::new(threshold);
        loop {
            // The head of the now list: the newest inserted child, else the next entry in order.
            let (node, record) = if let Some(entry) = inserted.pop() {
                match pass.visit(entry, nodes, later, stale, observer) {
                    Some(found) => found,
                    None => continue,
                }
            } else {
                match pass.scan(now, nodes, later, stale, observer) {
                    Scan::Expand(node, record) => (node, record),
                    Scan::LaterFull => {
                        grow(later);
                        continue;
                    }
                    Scan::EndOfList => break,
                }
            };
            result.expanded += 1;
            observer.event(SearchEvent::Expanded {
                node,
                g: record.g,
                h: record.h,
            });
            if is_goal(node) {
                result.found(node, record.g, |n| FringeRecord::load(&nodes[n]).parent);
                break 'passes;
            }
            if observer.stop() {
                result.outcome = SearchOutcome::BudgetExceeded;
                break 'passes;
            }
            // Leaves the lists (its entry is consumed: the version turns even); a cheaper route
            // later re-inserts it.
            if let Some(words) = nodes.get_mut(node) {
                let mut expanded = FringeRecord::load(words);
                expanded.version = record.version.wrapping_add(1);
                *words = expanded.words();
            }
            children.clear();
            successors(node, children);
            // Children go right after this node, in their natural order.
            for &(child, step) in children.iter().rev() {
                let Some(words) = nodes.get_mut(child) else {
                    continue;
                };
                let mut next = FringeRecord::load(words);
                let new_g = record.g + step;
                let first = next.version == 0;
                if !first && new_g >= next.g {
                    continue;
                }
                if first {
                    next.h = heuristic(child);
                    touched.push(child as u32);
                }
                next.g = new_g;
                next.parent = node as u32;
                // A new entry (odd version); an entry still listed is superseded by it.
                if next.version % 2 == 1 {
                    *stale += 1;
                    next.version = next.version.wrapping_add(2);
                } else {
                    next.version = next.version.wrapping_add(1);
                }
                *words = next.words();
                inserted.push((child as u32, next.version));
                let h_child = next.h;
                if first {
                    observer.event(SearchEvent::Opened {
                        node: child,
                        parent: Some(node),
                        g: new_g,
                        h: h_child,
                    });
                } else {
                    observer.event(SearchEvent::Improved {
                        node: child,
                        parent: node,
                        g: new_g,
                        h: h_child,
                    });
                }
            }
            // The paper's list: what is left to visit and what was put off, less the
            // superseded entries (every one is counted, so this is exact).
            let listed = inserted.len() + (now.len() - pass.cursor) + pass.deferred - *stale;
            result.peak_memory = result.peak_memory.max(listed);
        }
        later.truncate(pass.deferred);
        // Entries deferred and then superseded in the same pass do not count: with none
        // current the list is empty (the paper removes superseded entries at once). The now
        // list is read and nothing is left inserted, so every superseded entry is in `later`.
        if pass.deferred == *stale {
            break;
        }
        if observer.stop() {
            result.outcome = SearchOutcome::BudgetExceeded;
            break;
        }
        threshold = pass.smallest_above;
        iteration += 1;
        observer.event(SearchEvent::IterationStarted {
            iteration,
            threshold,
            from_start: false,
        });
        // The old now list's memory becomes the next later buffer (its contents are overwritten).
        std::mem::swap(now, later);
    }
    observer.event(SearchEvent::Finished {
        outcome: result.outcome,
        cost: result.cost,
    });
    result
}

/// One pass over the now list.
struct Pass {
    /// Entries with a larger `f` wait for the next pass.
    limit: f64,
    /// The smallest `f` deferred so far: the next threshold.
    smallest_above: f64,
    /// The next unread entry of the pass's own list.
    cursor: usize,
    /// How many entries of the later buffer are written (the rest of it is old contents).
    deferred: usize,
}

/// Where [`Pass::scan`] stopped.
enum Scan {
    /// At a node to expand, with its record.
    Expand(usize, FringeRecord),
    /// The later buffer has no room left.
    LaterFull,
    /// The pass's list is done.
    EndOfList,
}

/// What an entry of the now list means this pass.
enum Visit {
    /// A cheaper route to its node was found since it was inserted.
    Superseded,
    /// Its `f` exceeds the limit.
    Defer(f64),
    /// Its node is expanded now.
    Expand(FringeRecord),
}

impl Pass {
    fn new(threshold: f64) -> Self {
        Self {
            limit: pass_limit(threshold),
            smallest_above: f64::INFINITY,
            cursor: 0,
            deferred: 0,
        }
    }

    #[inline(always)]
    fn classify(limit: f64, (node, version): Entry, nodes: &[Words]) -> Visit {
        match nodes.get(node as usize).map(FringeRecord::load) {
            Some(record) if record.version == version => {
                let f = record.g + record.h;
                if f > limit {
                    Visit::Defer(f)
                } else {
                    Visit::Expand(record)
                }
            }
            _ => Visit::Superseded,
        }
    }

    /// Handles one inserted child: `Some` when it is to be expanded now.
    fn visit<O: Observer<SearchEvent>>(
        &mut self,
        entry: Entry,
        nodes: &[Words],
        later: &mut Vec<Entry>,
        stale: &mut usize,
        observer: &mut O,
    ) -> Option<(usize, FringeRecord)> {
        match Self::classify(self.limit, entry, nodes) {
            Visit::Superseded => {
                *stale -= 1;
                None
            }
            Visit::Defer(f) => {
                if self.deferred == later.len() {
                    grow(later);
                }
                later[self.deferred] = entry;
                self.deferred += 1;
                if f < self.smallest_above {
                    self.smallest_above = f;
                }
                observer.event(SearchEvent::Deferred {
                    node: entry.0 as usize,
                    f,
                });
                None
            }
            Visit::Expand(record) => Some((entry.0 as usize, record)),
        }
    }

    /// Reads the pass's list from the cursor, dropping superseded entries and deferring those
    /// above the limit, up to the first node to expand. On maps where the threshold rises in
    /// small steps nearly every entry is deferred, pass after pass: this is the algorithm's
    /// inner loop, so it works on locals and writes into a buffer with room instead of pushing.
    #[inline(never)]
    fn scan<O: Observer<SearchEvent>>(
        &mut self,
        now: &[Entry],
        nodes: &[Words],
        later: &mut [Entry],
        stale: &mut usize,
        observer: &mut O,
    ) -> Scan {
        let limit = self.limit;
        let mut cursor = self.cursor;
        let mut deferred = self.deferred;
        let mut smallest = self.smallest_above;
        let mut dropped = 0;
        let stop = loop {
            let Some(&entry) = now.get(cursor) else {
                break Scan::EndOfList;
            };
            let Some(slot) = later.get_mut(deferred) else {
                break Scan::LaterFull;
            };
            cursor += 1;
            match Self::classify(limit, entry, nodes) {
                Visit::Superseded => dropped += 1,
                Visit::Defer(f) => {
                    *slot = entry;
                    deferred += 1;
                    // A branch, not `f64::min`: `min` would chain every deferral to the last.
                    if f < smallest {
                        smallest = f;
                    }
                    observer.event(SearchEvent::Deferred {
                        node: entry.0 as usize,
                        f,
                    });
                }
                Visit::Expand(record) => break Scan::Expand(entry.0 as usize, record),
            }
        };
        self.cursor = cursor;
        self.deferred = deferred;
        self.smallest_above = smallest;
        *stale -= dropped;
        stop
    }
}

/// Makes room in the later buffer (its length is its capacity for [`Pass::scan`]).
#[cold]
fn grow(later: &mut Vec<Entry>) {
    later.resize(later.len() * 2 + 64, (0, 0));
}
