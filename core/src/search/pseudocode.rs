//! The pseudocode of every algorithm the lab animates, numbered, and which line each recorded
//! step executes, with the values it touches: what a pseudocode panel lights and what
//! `navlab pseudocode` prints.

use super::events::{JumpStop, SearchEvent, SearchOutcome};
use super::funnel::{FunnelEvent, Side};

/// An algorithm with a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Listing {
    /// A\* on a graph (the tile map's A\*), in the order of “A* on a navigation mesh”.
    AStar,
    /// A\* over the triangles of a navigation mesh (the corridor search).
    NavmeshAStar,
    /// Breadth-first search.
    Bfs,
    /// Dijkstra's algorithm.
    Dijkstra,
    /// IDA\*.
    IdaStar,
    /// Fringe Search.
    Fringe,
    /// Jump Point Search on a grid.
    Jps,
    /// JPS+: Jump Point Search reading its jumps from tables built before the search.
    JpsPlus,
    /// Bidirectional A\*.
    Bidirectional,
    /// Theta\* (any-angle paths on a grid).
    ThetaStar,
    /// Greedy best-first search.
    BestFirst,
    /// D\* Lite (a path kept up to date as the map changes).
    DStarLite,
    /// The funnel (string pulling through a corridor's portals).
    Funnel,
    /// Polyanya, the exact shortest path on a navmesh (its steps are placed by
    /// `navmesh::polyanya_lines`).
    Polyanya,
    /// The pursuit's rules: sight, trail, stop (its events are placed by
    /// `pursuit::pursuit_line`).
    Pursuit,
    /// Recast's build of a navmesh from level geometry (its stages light lines by
    /// `level::Stage::pseudocode_lines`).
    LevelBuild,
}

/// One step placed in a listing: the line it executes (from 1) and the values it touches, each
/// named as the listing names it.
#[derive(Debug, Clone, PartialEq)]
pub struct LitLine {
    /// The line, from 1.
    pub line: usize,
    /// The values, in the order the line mentions them.
    pub values: Vec<(&'static str, String)>,
}

impl LitLine {
    /// Line `line` (from 1), with no values yet.
    pub fn new(line: usize) -> Self {
        Self {
            line,
            values: Vec::new(),
        }
    }

    /// With one more value.
    pub fn with(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.values.push((name, value.into()));
        self
    }

    /// With one more value, a number to two decimals (∞ when infinite).
    pub fn number(self, name: &'static str, value: f64) -> Self {
        self.with(name, number(value))
    }

    /// The values as one JSON object, `{"v": "12", "g": "3.41"}`.
    pub fn values_json(&self) -> serde_json::Value {
        serde_json::Value::Object(
            self.values
                .iter()
                .map(|(name, value)| (name.to_string(), serde_json::Value::from(value.clone())))
                .collect(),
        )
    }

    /// The values as `v = 12, g = 3.41, …`.
    pub fn values_text(&self) -> String {
        self.values
            .iter()
            .map(|(name, value)| format!("{name} = {value}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn number(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2}")
    } else {
        "∞".to_string()
    }
}

const ASTAR: &[&str] = &[
    "for every node v: d(s, v) = ∞, and v is unvisited",
    "d(s, s) = 0",
    "give s the priority f = h(s)",
    "while an unvisited node has a priority:",
    "    take the unvisited node v with the lowest priority f",
    "    if v = e (the goal):",
    "        the path is found: follow the parents back from e; stop",
    "    for each unvisited neighbour v' of v:",
    "        k = d(s, v) + m(v, v')",
    "        if k < d(s, v'):",
    "            d(s, v') = k; parent(v') = v",
    "            give v' the priority f = k + h(v')",
    "    mark v visited",
    "no node has a priority left: there is no path; stop",
    "(the budget of visits spent, when one is set: stop)",
];

const NAVMESH_ASTAR: &[&str] = &[
    "find the triangles s and e that hold the start and the goal",
    "for every triangle t: d(s, t) = ∞, and t is unvisited; d(s, s) = 0",
    "give s the priority f = h(s), the straight line to the goal",
    "while an unvisited triangle has a priority:",
    "    take the unvisited triangle v with the lowest priority f",
    "    if v = e:",
    "        the corridor is found: follow the parents back from e; stop",
    "    for each neighbour v' of v across a shared edge, unvisited:",
    "        k = d(s, v) + m(v, v')   (the cost model's step × the area's cost)",
    "        if k < d(s, v'):",
    "            d(s, v') = k; parent(v') = v",
    "            give v' the priority f = k + h(v')",
    "    mark v visited",
    "no triangle has a priority left: the goal is on another island; stop",
];

const BFS: &[&str] = &[
    "mark s seen; queue = [s]",
    "while the queue is not empty:",
    "    take v from the front of the queue (it has waited longest)",
    "    if v = e (the goal):",
    "        the path is found: follow the parents back from e; stop",
    "    for each neighbour v' of v:",
    "        if v' is not seen:",
    "            mark v' seen; parent(v') = v; put v' at the back of the queue",
    "the queue is empty: there is no path; stop",
    "(the budget of visits spent, when one is set: stop)",
];

const DIJKSTRA: &[&str] = &[
    "for every node v: d(s, v) = ∞; d(s, s) = 0; open s",
    "while some node is open:",
    "    take the open node v with the lowest d(s, v)",
    "    if v = e (the goal):",
    "        the path is found: follow the parents back from e; stop",
    "    for each neighbour v' of v that is not closed:",
    "        k = d(s, v) + m(v, v')",
    "        if k < d(s, v'):",
    "            d(s, v') = k; parent(v') = v; open v'",
    "    close v",
    "no node is open: there is no path; stop",
    "(the budget of visits spent, when one is set: stop)",
];

const IDASTAR: &[&str] = &[
    "threshold = h(s)",
    "repeat:",
    "    start a pass: a depth-first search from s, the path on a stack",
    "        put v at the end of the path (g = its cost along the path)",
    "        if v = e (the goal): the path is found: the stack; stop",
    "        for each child v' of v that is not on the path:",
    "            if g(v') + h(v') > threshold:",
    "                cut v' off; remember the smallest such f",
    "            else: go deeper, into v'",
    "        every child tried: back up past v",
    "    nothing was cut off: there is no path; stop",
    "    threshold = the smallest f cut off in this pass",
    "(the node budget spent: stop)",
];

const FRINGE: &[&str] = &[
    "g(s) = 0; now = [s]; later = []",
    "threshold = h(s)",
    "while now is not empty:",
    "    v = the head of now",
    "    if f(v) > threshold: move v to the end of later; next",
    "    expand v",
    "    if v = e (the goal): the path is found: follow the parents back; stop",
    "    for each child v' of v, the last first:",
    "        if g(v) + m(v, v') < g(v'):",
    "            g(v') = g(v) + m(v, v'); parent(v') = v; insert v' right after v",
    "    remove v from now",
    "if later is empty: there is no path; stop",
    "threshold = the smallest f in later; now = later; later = []; go to 3",
    "(the budget of visits, expansions and moves to later, spent: stop)",
];

const FUNNEL: &[&str] = &[
    "apex = left = right = start; add the portal (goal, goal) at the end",
    "for each portal i, from the one after the last restart:",
    "    if its right end r is inside the funnel (not outside the right side):",
    "        if r does not cross the left side: right = r",
    "        else: the left end is a corner: apex = left; restart after its portal",
    "    else: the right side stays",
    "    if its left end l is inside the funnel (not outside the left side):",
    "        if l does not cross the right side: left = l",
    "        else: the right end is a corner: apex = right; restart after its portal",
    "    else: the left side stays",
    "path = start, the corners in order, goal (a corner in line between two others left out)",
];

const POLYANYA: &[&str] = &[
    "open = the start's nodes: each edge of its triangle, seen from the start (their root)",
    "while open is not empty:",
    "    take the node n = (interval I, root r) with the lowest f = g(r) + h(r, I, goal)",
    "    (a node with one successor and no goal in sight is taken at once, not queued)",
    "    if the goal is the entry taken: the path is found: the roots back to the start; stop",
    "    if a link's end e is the entry taken (first time): e becomes a root, like the start",
    "    for each interval I' of the far edges of n's triangle that r can reach:",
    "        if r sees all of I' (observable): push (I', r)",
    "        else the path turns at I's end c: c becomes a root, g(c) = g(r) + |r c|",
    "            push (I', c)",
    "        prune what leads nowhere, or a root reached more cheaply before",
    "    for each link start s in n's triangle that r sees: push its end, g = g(r) + |r s| + cost",
    "    n's successors are made",
    "open is empty: the goal cannot be reached; stop",
    "(the node budget spent: stop)",
];

const JPS: &[&str] = &[
    "d(s, s) = 0; give s the priority f = h(s), the octile distance to e",
    "while a jump point has a priority:",
    "    take the jump point v with the lowest priority f",
    "    if v = e (the goal): the path is found: follow the parents back from e; stop",
    "    for each direction δ kept at v: all eight at s; else on as v was reached (and its two sides if diagonal), and towards each forced neighbour of v:",
    "        scan from v along δ, cell by cell (going diagonally, scan straight along both sides at each cell)",
    "        a wall or the map's edge ends the scan: no jump point this way",
    "        the scan stops at a jump point j: the goal, a cell with a forced neighbour, or (diagonally) a cell whose straight scan finds one",
    "        k = d(s, v) + the octile length from v to j",
    "        if k < d(s, j): d(s, j) = k; parent(j) = v; give j the priority f = k + h(j)",
    "    mark v visited",
    "no jump point has a priority left: there is no path; stop",
    "(the budget of visits spent, when one is set: stop)",
];

const JPS_PLUS: &[&str] = &[
    "d(s, s) = 0; give s the priority f = h(s), the octile distance to e (the jump tables were built once for the map)",
    "while a jump point has a priority:",
    "    take the jump point v with the lowest priority f",
    "    if v = e (the goal): the path is found: follow the parents back from e; stop",
    "    for each direction δ kept at v: all eight at s; else on as v was reached (and its two sides if diagonal), and towards each forced neighbour of v:",
    "        n = the table's number for v going δ: the steps to the next jump point if n > 0, else minus the open steps before a wall",
    "        n ≤ 0 and the goal not within |n| steps that way: no jump point this way",
    "        j = the goal if it lies ahead within |n|; going diagonally, the cell where the goal's row or column is met within |n|; else the jump point n steps on",
    "        k = d(s, v) + the octile length from v to j",
    "        if k < d(s, j): d(s, j) = k; parent(j) = v; give j the priority f = k + h(j)",
    "    mark v visited",
    "no jump point has a priority left: there is no path; stop",
    "(the budget of visits spent, when one is set: stop)",
];

const BIDIRECTIONAL: &[&str] = &[
    "open s in the forward half (d(s) = 0, f = h(s), the estimate to e) and e in the backward half (d(e) = 0, f = h'(e), the estimate from s); μ = ∞",
    "while each half has an open node:",
    "    if the lowest f of either half's open list is ≥ μ: the path through the meeting node is a cheapest one; stop",
    "    turn to the half with fewer open nodes (the forward one on a tie)",
    "    take that half's open node v with the lowest f",
    "    for each neighbour v' of v (forward: a step out of v; backward: a step into v):",
    "        k = d(v) + the step's cost",
    "        if k < d(v') in this half: d(v') = k; parent(v') = v; give v' the priority f = k + its estimate",
    "        if the other half has reached v' and k + its d(v') < μ: μ = k + its d(v'); the meeting node is v'",
    "    v is closed in this half",
    "a half has no open node: there is a path only if μ < ∞ (through the meeting node); stop",
    "(the budget of visits spent, when one is set: stop)",
];

const THETA_STAR: &[&str] = &[
    "g(s) = 0; parent(s) = none; give s the priority f = h(s), the straight distance to e",
    "while a node has a priority:",
    "    take the node v with the lowest priority f",
    "    if v = e (the goal): the path is found: follow the parents back from e, straight from each to the next; stop",
    "    for each neighbour v' of v not visited:",
    "        if parent(v) sees v' (the segment between their centres stays on the ground):",
    "            k = g(parent(v)) + the distance from parent(v) to v'; p = parent(v)   (path 2)",
    "        else: k = g(v) + the distance from v to v'; p = v   (path 1)",
    "        if k < g(v'): g(v') = k; parent(v') = p; give v' the priority f = k + h(v')",
    "    mark v visited",
    "no node has a priority left: there is no path; stop",
    "(the budget of visits spent, when one is set: stop)",
];

const DSTAR_LITE: &[&str] = &[
    "rhs(e) = 0; km = 0; every other g and rhs = ∞; e goes in the open list with key(e)",
    "key(s) = [min(g(s), rhs(s)) + h(agent, s) + km; min(g(s), rhs(s))], compared part by part",
    "work out the path: while the lowest key < key(agent) or rhs(agent) ≠ g(agent):",
    "    take u, the cell with the lowest key, out of the open list",
    "    if key(u) went up since it went in (the agent moved): put u back with key(u)",
    "    else if g(u) > rhs(u) (it got cheaper): g(u) = rhs(u)",
    "    else (it got dearer): g(u) = ∞; update u",
    "    update every cell with a move into u",
    "update s: rhs(s) = the least cost(s, s') + g(s') over the moves s → s' (0 at e)",
    "    if g(s) ≠ rhs(s): s is inconsistent: it goes in the open list (again) with key(s)",
    "    else if s is in the open list: s is consistent: take it out",
    "g(agent) < ∞: the path takes, from each cell, the move with the least cost + g",
    "g(agent) = ∞: there is no path",
    "the agent steps along the path (nothing is worked out again)",
    "a tile changes: km = km + h(last, agent); last = agent; update the cell and its neighbours; work out the path again",
    "(the budget of visits spent, when one is set: stop)",
];

const BEST_FIRST: &[&str] = &[
    "give s the priority h(s); s is open",
    "while a node is open:",
    "    take the open node v with the lowest h (the cost so far plays no part)",
    "    if v = e (the goal): the path is found: follow the parents back from e; stop",
    "    for each neighbour v' of v never reached before:",
    "        parent(v') = v; give v' the priority h(v'); v' is open",
    "    v is closed",
    "no node is open: there is no path; stop",
    "(the budget of visits spent, when one is set: stop)",
];

const PURSUIT: &[&str] = &[
    "at every steering update, for each mob:",
    "    if a ray from the mob to the kitten crosses no wall (Bresenham):",
    "        seek the kitten (chasing)",
    "    else if it sees a point of the kitten's trail (the freshest, or the oldest):",
    "        seek that point (tracking the scent)",
    "    else: stop: the trail is lost",
    "    steer round walls with the whiskers; move",
    "    if it reaches the kitten: caught; back to its start",
    "the kitten leaves a trail point as it goes; a point fades after the decay time",
];

/// Recast's build of a navmesh from level geometry, stage by stage (`navlab_core::level`).
const LEVEL_BUILD: &[&str] = &[
    "for each triangle t of the level:",
    "    walkable[t] ← normal(t).y > cos(max slope)",
    "for each triangle t: for each cell c under t:",
    "    add span [bottom, top] of t in c, merging spans within climb",
    "for each span s above a walkable span within climb: s is walkable",
    "for each walkable span s:",
    "    if a neighbour's floor is more than climb below, or neighbours differ by more than climb:",
    "        s is not walkable (a ledge)",
    "for each walkable span s: if ceiling − floor < agent height: s is not walkable",
    "compact ← walkable spans with their room above and their neighbours within climb",
    "for each span s: if distance(s, border) < radius: s is not walkable",
    "distance field ← each span's distance to the border; blur it",
    "flood regions from the highest distance down (watershed)",
    "merge regions under merge size; drop islands under min size",
    "trace each region's outline along its cells' edges",
    "simplify the outline within max error; split edges longer than max length",
    "triangulate each outline and merge triangles into convex polygons of ≤ n vertices",
    "for each polygon: sample heights every sample distance; add points beyond max error",
];

impl Listing {
    /// Every listing, in the order `navlab pseudocode` lists them.
    pub const ALL: [Listing; 16] = [
        Listing::AStar,
        Listing::NavmeshAStar,
        Listing::Bfs,
        Listing::Dijkstra,
        Listing::IdaStar,
        Listing::Fringe,
        Listing::Jps,
        Listing::JpsPlus,
        Listing::Bidirectional,
        Listing::ThetaStar,
        Listing::BestFirst,
        Listing::DStarLite,
        Listing::Funnel,
        Listing::Polyanya,
        Listing::Pursuit,
        Listing::LevelBuild,
    ];

    /// The name the command line takes: `astar`, `navmesh-astar`, `bfs`, …
    pub fn name(self) -> &'static str {
        match self {
            Listing::AStar => "astar",
            Listing::NavmeshAStar => "navmesh-astar",
            Listing::Bfs => "bfs",
            Listing::Dijkstra => "dijkstra",
            Listing::IdaStar => "idastar",
            Listing::Fringe => "fringe",
            Listing::Jps => "jps",
            Listing::JpsPlus => "jps-plus",
            Listing::Bidirectional => "bidir",
            Listing::ThetaStar => "theta",
            Listing::BestFirst => "best-first",
            Listing::DStarLite => "dstar-lite",
            Listing::Funnel => "funnel",
            Listing::Polyanya => "polyanya",
            Listing::Pursuit => "pursuit",
            Listing::LevelBuild => "level-build",
        }
    }

    /// The listing called `name` (as [`name`](Self::name) gives it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.name() == name)
    }

    /// A heading: the algorithm's name as people write it.
    pub fn title(self) -> &'static str {
        match self {
            Listing::AStar => "A*",
            Listing::NavmeshAStar => "A* over a navmesh's triangles",
            Listing::Bfs => "Breadth-first search",
            Listing::Dijkstra => "Dijkstra",
            Listing::IdaStar => "IDA*",
            Listing::Fringe => "Fringe Search",
            Listing::Jps => "Jump Point Search",
            Listing::JpsPlus => "JPS+ (jumps read from tables)",
            Listing::Bidirectional => "Bidirectional A*",
            Listing::ThetaStar => "Theta* (any-angle)",
            Listing::BestFirst => "Greedy best-first search",
            Listing::DStarLite => "D* Lite (the path repaired as the map changes)",
            Listing::Funnel => "The funnel",
            Listing::Polyanya => "Polyanya (the shortest path)",
            Listing::Pursuit => "The pursuit's rules",
            Listing::LevelBuild => "Building a navmesh from a level (Recast)",
        }
    }

    /// The lines, from line 1.
    pub const fn lines(self) -> &'static [&'static str] {
        match self {
            Listing::AStar => ASTAR,
            Listing::NavmeshAStar => NAVMESH_ASTAR,
            Listing::Bfs => BFS,
            Listing::Dijkstra => DIJKSTRA,
            Listing::IdaStar => IDASTAR,
            Listing::Fringe => FRINGE,
            Listing::Jps => JPS,
            Listing::JpsPlus => JPS_PLUS,
            Listing::Bidirectional => BIDIRECTIONAL,
            Listing::ThetaStar => THETA_STAR,
            Listing::BestFirst => BEST_FIRST,
            Listing::DStarLite => DSTAR_LITE,
            Listing::Funnel => FUNNEL,
            Listing::Polyanya => POLYANYA,
            Listing::Pursuit => PURSUIT,
            Listing::LevelBuild => LEVEL_BUILD,
        }
    }

    /// The listing as `navlab pseudocode` prints it: the title, then each line numbered.
    pub fn numbered(self) -> String {
        let mut text = format!("{}\n", self.title());
        for (k, line) in self.lines().iter().enumerate() {
            text.push_str(&format!("{:>2}  {line}\n", k + 1));
        }
        text
    }

    /// The line that taking the next node to expand executes: where a replay of the lines
    /// alone reads the order of expansions.
    pub fn expansion_line(self) -> Option<usize> {
        match self {
            Listing::AStar | Listing::NavmeshAStar => Some(5),
            Listing::Bfs
            | Listing::Dijkstra
            | Listing::Jps
            | Listing::JpsPlus
            | Listing::ThetaStar
            | Listing::BestFirst => Some(3),
            Listing::IdaStar => Some(4),
            Listing::Bidirectional => Some(5),
            Listing::DStarLite => Some(6),
            Listing::Fringe => Some(6),
            Listing::Funnel => None,
            Listing::Polyanya => Some(3),
            Listing::Pursuit | Listing::LevelBuild => None,
        }
    }

    /// The line a search step of this listing's algorithm executes, with its values; `name`
    /// names a node ("triangle 7", "(3, 4)"). `None` for a step this algorithm does not take
    /// (and for the funnel's listing, whose steps are not search steps).
    pub fn search_step(
        self,
        event: &SearchEvent,
        name: impl Fn(usize) -> String,
    ) -> Option<LitLine> {
        use Listing::*;
        let lit = match (self, *event) {
            (Funnel | Polyanya | Pursuit | LevelBuild, _) => return None,
            // A* over a graph or a mesh.
            (
                AStar | NavmeshAStar,
                SearchEvent::Opened {
                    node,
                    parent: None,
                    h,
                    ..
                },
            ) => LitLine::new(3)
                .with("s", name(node))
                .number("h(s)", h)
                .number("f", h),
            (AStar | NavmeshAStar, SearchEvent::Expanded { node, g, h }) => LitLine::new(5)
                .with("v", name(node))
                .number("d(s, v)", g)
                .number("h(v)", h)
                .number("f", g + h),
            (
                AStar | NavmeshAStar,
                SearchEvent::Opened {
                    node,
                    parent: Some(parent),
                    g,
                    h,
                },
            )
            | (
                AStar | NavmeshAStar,
                SearchEvent::Improved {
                    node, parent, g, h, ..
                },
            ) => LitLine::new(11)
                .with("v'", name(node))
                .with("v", name(parent))
                .number("k", g)
                .number("h(v')", h)
                .number("f", g + h),
            (AStar | NavmeshAStar, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(7).number("d(s, e)", cost),
                SearchOutcome::Unreachable => LitLine::new(14),
                SearchOutcome::BudgetExceeded if self == AStar => LitLine::new(15),
                SearchOutcome::BudgetExceeded => LitLine::new(14),
            },
            // Breadth-first search.
            (
                Bfs,
                SearchEvent::Opened {
                    node, parent: None, ..
                },
            ) => LitLine::new(1).with("s", name(node)),
            (
                Bfs,
                SearchEvent::Opened {
                    node,
                    parent: Some(parent),
                    g,
                    ..
                },
            ) => LitLine::new(8)
                .with("v'", name(node))
                .with("v", name(parent))
                .number("cost so far", g),
            (Bfs, SearchEvent::Expanded { node, g, .. }) => LitLine::new(3)
                .with("v", name(node))
                .number("cost so far", g),
            (Bfs, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(5).number("cost", cost),
                SearchOutcome::Unreachable => LitLine::new(9),
                SearchOutcome::BudgetExceeded => LitLine::new(10),
            },
            // Dijkstra.
            (
                Dijkstra,
                SearchEvent::Opened {
                    node, parent: None, ..
                },
            ) => LitLine::new(1).with("s", name(node)),
            (Dijkstra, SearchEvent::Expanded { node, g, .. }) => {
                LitLine::new(3).with("v", name(node)).number("d(s, v)", g)
            }
            (
                Dijkstra,
                SearchEvent::Opened {
                    node,
                    parent: Some(parent),
                    g,
                    ..
                },
            )
            | (
                Dijkstra,
                SearchEvent::Improved {
                    node, parent, g, ..
                },
            ) => LitLine::new(9)
                .with("v'", name(node))
                .with("v", name(parent))
                .number("k", g),
            (Dijkstra, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(5).number("d(s, e)", cost),
                SearchOutcome::Unreachable => LitLine::new(11),
                SearchOutcome::BudgetExceeded => LitLine::new(12),
            },
            // IDA*.
            (
                IdaStar,
                SearchEvent::IterationStarted {
                    iteration,
                    threshold,
                    ..
                },
            ) => LitLine::new(if iteration == 1 { 3 } else { 12 })
                .with("pass", iteration.to_string())
                .number("threshold", threshold),
            (IdaStar, SearchEvent::Expanded { node, g, h }) => LitLine::new(4)
                .with("v", name(node))
                .number("g", g)
                .number("h", h)
                .number("f", g + h),
            (IdaStar, SearchEvent::CutOff { node, g, h }) => LitLine::new(8)
                .with("v'", name(node))
                .number("g(v')", g)
                .number("h(v')", h)
                .number("f", g + h),
            (IdaStar, SearchEvent::Backtracked { node, cut_off }) => {
                let lit = LitLine::new(10).with("v", name(node));
                match cut_off {
                    Some(f) => lit.number("smallest f cut off below v", f),
                    None => lit,
                }
            }
            (IdaStar, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(5).number("g(e)", cost),
                SearchOutcome::Unreachable => LitLine::new(11),
                SearchOutcome::BudgetExceeded => LitLine::new(13),
            },
            // Fringe Search.
            (
                Fringe,
                SearchEvent::Opened {
                    node, parent: None, ..
                },
            ) => LitLine::new(1).with("s", name(node)),
            (
                Fringe,
                SearchEvent::IterationStarted {
                    iteration,
                    threshold,
                    ..
                },
            ) => LitLine::new(if iteration == 1 { 2 } else { 13 })
                .with("pass", iteration.to_string())
                .number("threshold", threshold),
            (Fringe, SearchEvent::Deferred { node, f }) => {
                LitLine::new(5).with("v", name(node)).number("f(v)", f)
            }
            (Fringe, SearchEvent::Expanded { node, g, h }) => LitLine::new(6)
                .with("v", name(node))
                .number("g", g)
                .number("h", h)
                .number("f", g + h),
            (
                Fringe,
                SearchEvent::Opened {
                    node,
                    parent: Some(parent),
                    g,
                    ..
                },
            )
            | (
                Fringe,
                SearchEvent::Improved {
                    node, parent, g, ..
                },
            ) => LitLine::new(10)
                .with("v'", name(node))
                .with("v", name(parent))
                .number("g(v')", g),
            (Fringe, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(7).number("g(e)", cost),
                SearchOutcome::Unreachable => LitLine::new(12),
                SearchOutcome::BudgetExceeded => LitLine::new(14),
            },
            // Jump Point Search.
            (
                Jps | JpsPlus,
                SearchEvent::Opened {
                    node,
                    parent: None,
                    h,
                    ..
                },
            ) => LitLine::new(1)
                .with("s", name(node))
                .number("h(s)", h)
                .number("f", h),
            (Jps | JpsPlus, SearchEvent::Expanded { node, g, h }) => LitLine::new(3)
                .with("v", name(node))
                .number("d(s, v)", g)
                .number("h(v)", h)
                .number("f", g + h),
            (
                Jps | JpsPlus,
                SearchEvent::Jumped {
                    from,
                    to,
                    dx,
                    dy,
                    stop,
                },
            ) => {
                let lit = LitLine::new(if stop == JumpStop::Blocked { 7 } else { 8 })
                    .with("v", name(from))
                    .with("δ", super::events::compass(dx, dy));
                match stop {
                    JumpStop::Blocked => lit.with("last open cell", name(to)),
                    JumpStop::Goal => lit.with("j", name(to)).with("why", "the goal"),
                    JumpStop::Forced { forced, wall } => lit
                        .with("j", name(to))
                        .with("forced neighbour", name(forced))
                        .with("wall", name(wall)),
                    JumpStop::Turn { ahead } => lit
                        .with("j", name(to))
                        .with("straight scan finds", name(ahead)),
                    JumpStop::GoalLine { goal } => lit
                        .with("j", name(to))
                        .with("in line with the goal", name(goal)),
                }
            }
            (
                Jps | JpsPlus,
                SearchEvent::Opened {
                    node,
                    parent: Some(parent),
                    g,
                    h,
                },
            )
            | (
                Jps | JpsPlus,
                SearchEvent::Improved {
                    node, parent, g, h, ..
                },
            ) => LitLine::new(10)
                .with("j", name(node))
                .with("v", name(parent))
                .number("k", g)
                .number("h(j)", h)
                .number("f", g + h),
            (Jps | JpsPlus, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(4).number("d(s, e)", cost),
                SearchOutcome::Unreachable => LitLine::new(12),
                SearchOutcome::BudgetExceeded => LitLine::new(13),
            },
            // Bidirectional A*.
            (
                Bidirectional,
                SearchEvent::Opened {
                    node,
                    parent: None,
                    h,
                    ..
                },
            ) => LitLine::new(1).with("end", name(node)).number("f", h),
            (
                Bidirectional,
                SearchEvent::Turned {
                    backward,
                    open,
                    other,
                },
            ) => LitLine::new(4)
                .with("half", if backward { "backward" } else { "forward" })
                .number("open", open as f64)
                .number("the other's open", other as f64),
            (Bidirectional, SearchEvent::Expanded { node, g, h }) => LitLine::new(5)
                .with("v", name(node))
                .number("d(v)", g)
                .number("f", g + h),
            (
                Bidirectional,
                SearchEvent::Opened {
                    node,
                    parent: Some(parent),
                    g,
                    h,
                },
            )
            | (
                Bidirectional,
                SearchEvent::Improved {
                    node, parent, g, h, ..
                },
            ) => LitLine::new(8)
                .with("v'", name(node))
                .with("v", name(parent))
                .number("k", g)
                .number("f", g + h),
            (Bidirectional, SearchEvent::Met { node, cost }) => LitLine::new(9)
                .with("meeting node", name(node))
                .number("μ", cost),
            (Bidirectional, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(3).number("μ", cost),
                SearchOutcome::Unreachable => LitLine::new(11),
                SearchOutcome::BudgetExceeded => LitLine::new(12),
            },
            // Theta*.
            (
                ThetaStar,
                SearchEvent::Opened {
                    node,
                    parent: None,
                    h,
                    ..
                },
            ) => LitLine::new(1).with("s", name(node)).number("f", h),
            (ThetaStar, SearchEvent::Expanded { node, g, h }) => LitLine::new(3)
                .with("v", name(node))
                .number("g(v)", g)
                .number("f", g + h),
            (
                ThetaStar,
                SearchEvent::Opened {
                    node,
                    parent: Some(parent),
                    g,
                    h,
                },
            )
            | (
                ThetaStar,
                SearchEvent::Improved {
                    node, parent, g, h, ..
                },
            ) => LitLine::new(9)
                .with("v'", name(node))
                .with("p", name(parent))
                .number("k", g)
                .number("f", g + h),
            (ThetaStar, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(4).number("g(e)", cost),
                SearchOutcome::Unreachable => LitLine::new(11),
                SearchOutcome::BudgetExceeded => LitLine::new(12),
            },
            // Greedy best-first search.
            (
                BestFirst,
                SearchEvent::Opened {
                    node,
                    parent: None,
                    h,
                    ..
                },
            ) => LitLine::new(1).with("s", name(node)).number("h(s)", h),
            (BestFirst, SearchEvent::Expanded { node, g, h }) => LitLine::new(3)
                .with("v", name(node))
                .number("h(v)", h)
                .number("cost so far", g),
            (
                BestFirst,
                SearchEvent::Opened {
                    node,
                    parent: Some(parent),
                    h,
                    ..
                },
            ) => LitLine::new(6)
                .with("v'", name(node))
                .with("v", name(parent))
                .number("h(v')", h),
            (BestFirst, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(4).number("cost", cost),
                SearchOutcome::Unreachable => LitLine::new(8),
                SearchOutcome::BudgetExceeded => LitLine::new(9),
            },
            // D* Lite.
            (
                DStarLite,
                SearchEvent::Inconsistent {
                    node,
                    g,
                    rhs,
                    k1,
                    k2,
                    stale,
                },
            ) => {
                let line = if stale {
                    5
                } else if rhs == 0.0 && !g.is_finite() {
                    1
                } else {
                    10
                };
                let lit = LitLine::new(line).with("s", name(node));
                let lit = if stale {
                    lit
                } else {
                    lit.number("g(s)", g).number("rhs(s)", rhs)
                };
                lit.number("k1", k1).number("k2", k2)
            }
            (DStarLite, SearchEvent::Expanded { node, g, h }) => LitLine::new(6)
                .with("u", name(node))
                .number("g(u)", g)
                .number("k1", g + h),
            (DStarLite, SearchEvent::Raised { node, g }) => {
                LitLine::new(7).with("u", name(node)).number("old g(u)", g)
            }
            (DStarLite, SearchEvent::Consistent { node, g }) => {
                LitLine::new(11).with("s", name(node)).number("g(s)", g)
            }
            (DStarLite, SearchEvent::Edited { node }) => LitLine::new(15).with("cell", name(node)),
            (DStarLite, SearchEvent::Finished { outcome, cost }) => match outcome {
                SearchOutcome::Found => LitLine::new(12).number("g(agent)", cost),
                SearchOutcome::Unreachable => LitLine::new(13),
                SearchOutcome::BudgetExceeded => LitLine::new(16),
            },
            // Steps this algorithm does not take.
            _ => return None,
        };
        Some(lit)
    }
}

/// The line of the funnel's listing a funnel step executes, with its values.
pub fn funnel_step(event: &FunnelEvent) -> LitLine {
    let point = |p: crate::geom::Vec2| format!("({:.2}, {:.2})", p.x, p.y);
    match event {
        FunnelEvent::Started { state } => LitLine::new(1).with("apex", point(state.apex)),
        FunnelEvent::PortalConsidered { portal, state } => LitLine::new(2)
            .with("i", portal.to_string())
            .with("apex", point(state.apex))
            .with("left", point(state.left))
            .with("right", point(state.right)),
        FunnelEvent::Narrowed {
            portal,
            side: Side::Right,
            state,
        } => LitLine::new(4)
            .with("i", portal.to_string())
            .with("right", point(state.right)),
        FunnelEvent::Narrowed {
            portal,
            side: Side::Left,
            state,
        } => LitLine::new(8)
            .with("i", portal.to_string())
            .with("left", point(state.left)),
        FunnelEvent::Kept { portal, side } => {
            LitLine::new(if *side == Side::Right { 6 } else { 10 }).with("i", portal.to_string())
        }
        FunnelEvent::Corner {
            portal,
            crossing_side,
            corner,
            restart_after,
            ..
        } => LitLine::new(if *crossing_side == Side::Right { 5 } else { 9 })
            .with("i", portal.to_string())
            .with("corner", point(*corner))
            .with(
                "restart after",
                restart_after.map_or_else(|| "the start".to_string(), |p| format!("portal {p}")),
            ),
        FunnelEvent::Done { waypoints, length } => LitLine::new(11)
            .with("waypoints", waypoints.to_string())
            .number("length", *length),
    }
}
