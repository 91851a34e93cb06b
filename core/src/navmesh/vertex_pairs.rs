//! Undirected vertex pairs (the sides of triangles or polygons) grouped by the two vertices they
//! join, without hashing: a counting sort by the lower vertex, then each vertex's few pairs
//! sorted by the higher one. Linear in the pairs and the vertices, the same answer on every
//! run, and no hash table whose worst case a crafted file could reach.

/// The groups of equal pairs: for each pair (in the order given), its group, the groups
/// numbered in the order of their first pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PairGroups {
    /// `group[i]`: the group of pair `i`.
    pub(crate) group: Vec<u32>,
    /// How many groups there are.
    pub(crate) count: usize,
}

impl PairGroups {
    /// Groups `pairs` (each `[lower, higher]` or either way round; every vertex below
    /// `vertex_count`). `None` when a vertex is out of range or there are `u32::MAX` pairs or
    /// more.
    pub(crate) fn new(pairs: &[[u32; 2]], vertex_count: usize) -> Option<Self> {
        let n = pairs.len();
        if n >= u32::MAX as usize {
            return None;
        }
        let low = |p: [u32; 2]| p[0].min(p[1]);
        let high = |p: [u32; 2]| p[0].max(p[1]);
        // Counting sort by the lower vertex (stable: pair order kept within a vertex).
        let mut start = vec![0u32; vertex_count + 1];
        for &p in pairs {
            let slot = start.get_mut(low(p) as usize + 1)?;
            *slot += 1;
            if high(p) as usize >= vertex_count {
                return None;
            }
        }
        for v in 0..vertex_count {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut order = vec![0u32; n];
        for (i, &p) in pairs.iter().enumerate() {
            let slot = &mut fill[low(p) as usize];
            order[*slot as usize] = i as u32;
            *slot += 1;
        }
        drop(fill);
        // Within each lower vertex by the higher one; a stable sort keeps the first pair first.
        for v in 0..vertex_count {
            let bucket = &mut order[start[v] as usize..start[v + 1] as usize];
            if bucket.len() > 1 {
                bucket.sort_by_key(|&i| high(pairs[i as usize]));
            }
        }
        drop(start);
        // Each pair's first equal pair, then groups numbered by that first pair's place.
        let mut first = vec![0u32; n];
        let mut run = 0;
        while run < n {
            let leader = order[run];
            let key = high(pairs[leader as usize]);
            let lower = low(pairs[leader as usize]);
            let mut end = run;
            while end < n && {
                let p = pairs[order[end] as usize];
                low(p) == lower && high(p) == key
            } {
                first[order[end] as usize] = leader;
                end += 1;
            }
            run = end;
        }
        drop(order);
        let mut group = first;
        let mut count = 0u32;
        for i in 0..n {
            let leader = group[i] as usize;
            group[i] = if leader == i {
                count += 1;
                count - 1
            } else {
                // The leader comes earlier, so its group is already numbered.
                group[leader]
            };
        }
        Some(Self {
            group,
            count: count as usize,
        })
    }

    /// The pairs of each group, in the order given: `(start, members)` where group `g`'s pairs
    /// are `members[start[g]..start[g + 1]]`.
    pub(crate) fn members(&self) -> (Vec<u32>, Vec<u32>) {
        let mut start = vec![0u32; self.count + 1];
        for &g in &self.group {
            start[g as usize + 1] += 1;
        }
        for g in 0..self.count {
            start[g + 1] += start[g];
        }
        let mut fill = start.clone();
        let mut members = vec![0u32; self.group.len()];
        for (i, &g) in self.group.iter().enumerate() {
            members[fill[g as usize] as usize] = i as u32;
            fill[g as usize] += 1;
        }
        (start, members)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// The same grouping by a hash map, in the obvious way.
    fn by_hash_map(pairs: &[[u32; 2]]) -> Vec<u32> {
        let mut ids = HashMap::new();
        pairs
            .iter()
            .map(|p| {
                let key = (p[0].min(p[1]), p[0].max(p[1]));
                let next = ids.len() as u32;
                *ids.entry(key).or_insert(next)
            })
            .collect()
    }

    #[test]
    fn equal_pairs_either_way_round_share_a_group_numbered_by_first_use() {
        let pairs = [[0, 1], [1, 2], [2, 0], [2, 1], [3, 1], [1, 0], [1, 2]];
        let groups = PairGroups::new(&pairs, 4).expect("in range");
        assert_eq!(groups.group, vec![0, 1, 2, 1, 3, 0, 1]);
        assert_eq!(groups.count, 4);
        let (start, members) = groups.members();
        assert_eq!(start, vec![0, 2, 5, 6, 7]);
        assert_eq!(members, vec![0, 5, 1, 3, 6, 2, 4]);
    }

    #[test]
    fn a_vertex_out_of_range_is_refused() {
        assert_eq!(PairGroups::new(&[[0, 4]], 4), None);
        assert_eq!(PairGroups::new(&[[7, 1]], 4), None);
        assert_eq!(
            PairGroups::new(&[], 0),
            Some(PairGroups {
                group: vec![],
                count: 0
            })
        );
    }

    proptest! {
        #[test]
        fn groups_agree_with_a_hash_map(
            pairs in proptest::collection::vec((0u32..12, 0u32..12), 0..200)
        ) {
            let pairs: Vec<[u32; 2]> = pairs.into_iter().map(|(a, b)| [a, b]).collect();
            let groups = PairGroups::new(&pairs, 12).expect("in range");
            prop_assert_eq!(&groups.group, &by_hash_map(&pairs));
            let (start, members) = groups.members();
            for g in 0..groups.count {
                let listed = &members[start[g] as usize..start[g + 1] as usize];
                prop_assert!(listed.windows(2).all(|w| w[0] < w[1]));
                prop_assert!(listed.iter().all(|&i| groups.group[i as usize] == g as u32));
            }
        }
    }
}
