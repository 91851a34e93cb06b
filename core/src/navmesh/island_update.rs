//! Islands kept up to date after a patch of a mesh ([`NavMesh::replace_triangles`]), working
//! near the patch rather than over the whole mesh: an edit can join islands only through the
//! triangles it added, and split one only where its ring (the triangles that bordered what it
//! removed) falls apart.
//!
//! The triangles added are grouped by adjacency, each group with the triangles it touches
//! outside the patch; a ring triangle that touches no added triangle is a group of its own.
//! Groups holding triangles of one old island may still be joined outside the patch: from
//! each such group a breadth-first search runs, one triangle a turn each, and searches that
//! meet are one island; a search that runs out of triangles has found a whole island. Once at
//! most one search per old island is left running, that one is the rest of the island, never
//! walked. The work is the size of the patch plus, when an island splits, of its smaller
//! parts. The islands are then numbered as a full count numbers them (largest first, ties by
//! their lowest triangle), which is a pass over a label per triangle.

use super::{NavMesh, TriId};
use std::collections::{HashMap, VecDeque};

/// Labels a triangle may carry while islands are worked out: none yet.
const UNSET: usize = usize::MAX;

/// One group of triangles next to each other across the patch, and its breadth-first search.
struct Group {
    /// Old island labels of the triangles it holds outside the patch.
    labels: Vec<usize>,
    /// Triangles to visit next.
    frontier: VecDeque<TriId>,
    /// Every triangle it holds or reached.
    reached: Vec<TriId>,
}

/// A union-find over groups.
fn find(parent: &mut [usize], mut g: usize) -> usize {
    while parent[g] != g {
        parent[g] = parent[parent[g]];
        g = parent[g];
    }
    g
}

impl NavMesh {
    /// The triangles that share an edge with one of `removed` (sorted) and are not themselves
    /// removed: what bordered the patch before it was made.
    pub(crate) fn ring_of(&self, removed: &[TriId]) -> Vec<TriId> {
        let mut ring: Vec<TriId> = removed
            .iter()
            .filter_map(|&t| self.neighbours.get(t))
            .flatten()
            .map(|&(n, _)| n)
            .filter(|n| removed.binary_search(n).is_err())
            .collect();
        ring.sort_unstable();
        ring.dedup();
        ring
    }

    /// Brings the islands up to date after a patch: `added` are the triangles the patch made
    /// (their labels are worked out here), `ring` the triangles that bordered what it removed
    /// (ids after the patch), `moved` the triangles it gave another id; every other triangle
    /// carries its island's label from before, and the tallies count the removed triangles
    /// out already.
    pub(crate) fn update_islands(
        &mut self,
        added: &[TriId],
        ring: &[TriId],
        moved: &[(TriId, TriId)],
    ) {
        let n = self.triangles.len();
        self.island_of.resize(n, UNSET);
        for &(_, to) in moved {
            if let Some(tally) = self
                .island_of
                .get(to)
                .and_then(|&l| self.island_tally.get_mut(l))
            {
                tally.lowest = tally.lowest.min(to);
            }
        }
        for &t in added {
            self.island_of[t] = UNSET;
        }
        // Groups: the added triangles by adjacency, each with what it touches outside.
        let mut group_of: HashMap<TriId, usize> = HashMap::new();
        let mut groups: Vec<Group> = Vec::new();
        // Groups that touch one triangle outside the patch: joined through it.
        let mut touching: Vec<(usize, usize)> = Vec::new();
        for &seed in added {
            if group_of.contains_key(&seed) {
                continue;
            }
            let g = groups.len();
            let mut group = Group {
                labels: Vec::new(),
                frontier: VecDeque::new(),
                reached: Vec::new(),
            };
            let mut stack = vec![seed];
            group_of.insert(seed, g);
            while let Some(t) = stack.pop() {
                group.reached.push(t);
                for &(m, _) in self.neighbours.get(t).into_iter().flatten() {
                    if let Some(&h) = group_of.get(&m) {
                        if h != g {
                            touching.push((g, h));
                        }
                        continue;
                    }
                    group_of.insert(m, g);
                    if self.island_of.get(m) == Some(&UNSET) {
                        stack.push(m);
                    } else {
                        group.labels.push(self.island_of[m]);
                        group.reached.push(m);
                        group.frontier.push_back(m);
                    }
                }
            }
            groups.push(group);
        }
        for &t in ring {
            if t < n && !group_of.contains_key(&t) && self.island_of[t] != UNSET {
                group_of.insert(t, groups.len());
                groups.push(Group {
                    labels: vec![self.island_of[t]],
                    frontier: VecDeque::from([t]),
                    reached: vec![t],
                });
            }
        }
        for group in &mut groups {
            group.labels.sort_unstable();
            group.labels.dedup();
        }

        // Groups of one old island may meet outside the patch: search from each at once.
        let mut parent: Vec<usize> = (0..groups.len()).collect();
        for (g, h) in touching {
            let (a, b) = (find(&mut parent, g), find(&mut parent, h));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        }
        let mut groups_of_label: HashMap<usize, Vec<usize>> = HashMap::new();
        for (g, group) in groups.iter().enumerate() {
            for &label in &group.labels {
                groups_of_label.entry(label).or_default().push(g);
            }
        }
        // A label still held by two sets of groups whose searches both go on.
        let contested = |parent: &mut Vec<usize>, groups: &[Group]| {
            let roots: Vec<usize> = (0..groups.len()).map(|g| find(parent, g)).collect();
            let mut running = vec![false; groups.len()];
            for (g, group) in groups.iter().enumerate() {
                if !group.frontier.is_empty() {
                    running[roots[g]] = true;
                }
            }
            groups_of_label.values().any(|members| {
                let mut sets: Vec<usize> = members
                    .iter()
                    .map(|&g| roots[g])
                    .filter(|&root| running[root])
                    .collect();
                sets.sort_unstable();
                sets.dedup();
                sets.len() > 1
            })
        };
        // Asked every few turns: more turns only walk further.
        let mut turn = 0usize;
        while !turn.is_multiple_of(8) || contested(&mut parent, &groups) {
            turn += 1;
            let mut moved = false;
            for (g, group) in groups.iter_mut().enumerate() {
                let Some(t) = group.frontier.pop_front() else {
                    continue;
                };
                moved = true;
                for &(m, _) in self.neighbours.get(t).into_iter().flatten() {
                    match group_of.get(&m) {
                        Some(&other) => {
                            let (a, b) = (find(&mut parent, g), find(&mut parent, other));
                            if a != b {
                                parent[a.max(b)] = a.min(b);
                            }
                        }
                        None => {
                            group_of.insert(m, g);
                            group.reached.push(m);
                            group.frontier.push_back(m);
                        }
                    }
                }
            }
            if !moved {
                break;
            }
        }

        // Labels: a set of groups whose search ran out is a whole island, labelled anew; one
        // still running is the rest of its old islands, which keep the lowest of their labels.
        // Old labels are below the old count; new ones follow.
        let mut fresh = self.island_count;
        let mut rename: HashMap<usize, usize> = HashMap::new();
        let mut set_label: HashMap<usize, usize> = HashMap::new();
        for g in 0..groups.len() {
            let root = find(&mut parent, g);
            if set_label.contains_key(&root) {
                continue;
            }
            let members: Vec<usize> = (0..groups.len())
                .filter(|&h| find(&mut parent, h) == root)
                .collect();
            let mut labels: Vec<usize> = members
                .iter()
                .flat_map(|&h| groups[h].labels.iter().copied())
                .collect();
            labels.sort_unstable();
            labels.dedup();
            let label = if set_running(&mut parent, &groups, root) {
                let keep = labels.first().copied().unwrap_or_else(|| {
                    fresh += 1;
                    fresh - 1
                });
                for &l in &labels {
                    rename.insert(l, keep);
                }
                keep
            } else {
                fresh += 1;
                fresh - 1
            };
            set_label.insert(root, label);
        }
        self.island_tally.resize(fresh, IslandTally::EMPTY);
        if rename.iter().any(|(from, to)| from != to) {
            let mut map: Vec<usize> = (0..fresh).collect();
            for (&from, &to) in &rename {
                if let Some(slot) = map.get_mut(from) {
                    *slot = to;
                }
            }
            for l in &mut self.island_of {
                if let Some(&to) = map.get(*l) {
                    *l = to;
                }
            }
            for (&from, &to) in &rename {
                if from != to
                    && let Some(joined) = self
                        .island_tally
                        .get_mut(from)
                        .map(|t| std::mem::replace(t, IslandTally::EMPTY))
                    && let Some(tally) = self.island_tally.get_mut(to)
                {
                    tally.size += joined.size;
                    tally.lowest = tally.lowest.min(joined.lowest);
                }
            }
        }
        for (g, group) in groups.iter().enumerate() {
            let label = set_label[&find(&mut parent, g)];
            for &t in &group.reached {
                if let Some(old) = self.island_tally.get_mut(self.island_of[t]) {
                    old.size -= 1;
                }
                self.island_of[t] = label;
                if let Some(tally) = self.island_tally.get_mut(label) {
                    tally.size += 1;
                    tally.lowest = tally.lowest.min(t);
                }
            }
        }
        self.number_islands();
    }

    /// Numbers the islands as [`islands`](super::build::islands) does, from their tallies:
    /// the largest (most triangles) first, ties by their lowest triangle id. A tally's lowest
    /// id only ever went down as triangles joined its island; when that triangle has left the
    /// island, the tallies are counted again over the whole mesh. Triangles are relabelled
    /// only when the order changed.
    fn number_islands(&mut self) {
        let stale = self
            .island_tally
            .iter()
            .enumerate()
            .any(|(l, tally)| tally.size > 0 && self.island_of.get(tally.lowest) != Some(&l));
        if stale {
            self.island_tally = island_tallies(&self.island_of, self.island_tally.len());
        }
        let tally = &self.island_tally;
        let mut order: Vec<usize> = (0..tally.len()).filter(|&l| tally[l].size > 0).collect();
        order.sort_by_key(|&l| (std::cmp::Reverse(tally[l].size), tally[l].lowest));
        self.island_count = order.len();
        if order.iter().enumerate().all(|(k, &l)| k == l) && order.len() == tally.len() {
            return;
        }
        let mut number = vec![0usize; tally.len()];
        for (k, &l) in order.iter().enumerate() {
            number[l] = k;
        }
        for l in &mut self.island_of {
            *l = number.get(*l).copied().unwrap_or(0);
        }
        self.island_tally = order.iter().map(|&l| tally[l]).collect();
    }
}

/// How many triangles an island has and its lowest triangle id: what orders the islands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IslandTally {
    pub size: usize,
    pub lowest: TriId,
}

impl IslandTally {
    /// An island with no triangles yet.
    const EMPTY: Self = Self {
        size: 0,
        lowest: TriId::MAX,
    };
}

/// The tallies of `count` islands from each triangle's island.
pub(crate) fn island_tallies(island_of: &[usize], count: usize) -> Vec<IslandTally> {
    let mut tallies = vec![IslandTally::EMPTY; count];
    for (t, &l) in island_of.iter().enumerate() {
        if let Some(tally) = tallies.get_mut(l) {
            tally.size += 1;
            tally.lowest = tally.lowest.min(t);
        }
    }
    tallies
}

/// Whether some group of the set rooted at `root` still has triangles to visit.
fn set_running(parent: &mut [usize], groups: &[Group], root: usize) -> bool {
    (0..groups.len()).any(|g| find(parent, g) == root && !groups[g].frontier.is_empty())
}

#[cfg(test)]
mod tests {
    use crate::geom::Vec2;
    use crate::navmesh::NavMesh;
    use crate::navmesh::edit::{MeshEditor, Shape, ShapeKind};
    use crate::navmesh::generate::{GridMeshSpec, jittered_grid};
    use rand::{Rng, SeedableRng};
    use std::sync::Arc;

    /// The islands a full count gives, numbering included.
    fn assert_counted(mesh: &NavMesh, what: &str) {
        let (island_of, count) = crate::navmesh::build::islands(&mesh.neighbours);
        assert_eq!(mesh.island_count, count, "{what}: island count");
        assert_eq!(mesh.island_of, island_of, "{what}: labels");
        let tallies = super::island_tallies(&island_of, count);
        assert_eq!(
            mesh.island_tally, tallies,
            "{what}: sizes and lowest triangles"
        );
    }

    /// Random edits of small meshes — obstacles, walls long and thin enough to cut a floor in
    /// two, doors opened and closed, shapes dragged and removed — leave exactly the islands a
    /// full count of the edited mesh gives.
    #[test]
    fn islands_after_each_edit_are_those_a_full_count_gives() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        let (mut splits, mut joins) = (0, 0);
        for seed in 0..24 {
            let mesh = jittered_grid(GridMeshSpec {
                columns: 14 + seed as usize % 5,
                rows: 10 + seed as usize % 7,
                jitter: 0.2,
                hole_chance: 0.5,
                seed,
            });
            let b = mesh.bounds();
            let mut editor = MeshEditor::new(Arc::new(mesh));
            let point = |rng: &mut rand_pcg::Pcg64| {
                Vec2::new(
                    rng.random_range(b.min.x..b.max.x),
                    rng.random_range(b.min.y..b.max.y),
                )
            };
            for step in 0..25 {
                let what = format!("mesh {seed}, step {step}");
                let a = point(&mut rng);
                let shape = match rng.random_range(0..4) {
                    // A wall across the whole mesh, one way or the other: it splits.
                    0 => Shape::rectangle(
                        Vec2::new(b.min.x - 1.0, a.y),
                        Vec2::new(b.max.x + 1.0, a.y + 0.3),
                        ShapeKind::Obstacle,
                    ),
                    1 => Shape::rectangle(
                        Vec2::new(a.x, b.min.y - 1.0),
                        Vec2::new(a.x + 0.3, b.max.y + 1.0),
                        ShapeKind::Door { open: false },
                    ),
                    _ => Shape::rectangle(
                        a,
                        a + Vec2::new(rng.random_range(0.2..4.0), rng.random_range(0.2..4.0)),
                        ShapeKind::Obstacle,
                    ),
                };
                let Ok(shape) = shape else { continue };
                let count = editor.shapes().len();
                let islands = editor.mesh().island_count;
                match rng.random_range(0..6) {
                    0 if count > 0 => {
                        let k = rng.random_range(0..count);
                        let offset = point(&mut rng) - point(&mut rng);
                        let moved = editor.shapes()[k].moved(offset * 0.2);
                        let _ = editor.drag_shape(k, moved);
                    }
                    1 if count > 0 => {
                        let _ = editor.toggle_door(rng.random_range(0..count));
                    }
                    2 if count > 0 => {
                        let _ = editor.remove_shapes(&[rng.random_range(0..count)]);
                    }
                    _ => {
                        let _ = editor.add_shape(shape);
                    }
                }
                assert_counted(editor.mesh(), &what);
                splits += usize::from(editor.mesh().island_count > islands);
                joins += usize::from(editor.mesh().island_count < islands);
            }
        }
        assert!(splits > 20 && joins > 10, "{splits} splits, {joins} joins");
    }
}
