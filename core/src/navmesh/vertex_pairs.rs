//! Undirected vertex pairs (the sides of triangles or polygons) grouped by the two vertices they
//! join, without hashing: a counting sort by the lower vertex, then each vertex's few pairs
//! sorted by the higher one. Linear in the pairs and the vertices, the same answer on every
//! run, and no hash table whose worst case a crafted file could reach.

/// Items listed by a key, each key's items in the order given (a stable counting sort).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Buckets {
    /// Key `k`'s items are `items[start[k]..start[k + 1]]`.
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Buckets {
    /// Item `i` (below `u32::MAX`) goes under `keys[i]`; `None` when a key is not below
    /// `key_count` or there are too many items.
    pub(crate) fn by_key(
        keys: impl ExactSizeIterator<Item = usize> + Clone,
        key_count: usize,
    ) -> Option<Self> {
        if keys.len() >= u32::MAX as usize {
            return None;
        }
        let mut start = vec![0u32; key_count + 1];
        for k in keys.clone() {
            *start.get_mut(k.checked_add(1)?).filter(|_| k < key_count)? += 1;
        }
        for k in 0..key_count {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; keys.len()];
        for (i, k) in keys.enumerate() {
            items[fill[k] as usize] = i as u32;
            fill[k] += 1;
        }
        Some(Self { start, items })
    }

    /// The items under key `k`, in the order given.
    pub(crate) fn get(&self, k: usize) -> &[u32] {
        &self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// The items under key `k`, to reorder.
    pub(crate) fn get_mut(&mut self, k: usize) -> &mut [u32] {
        &mut self.items[self.start[k] as usize..self.start[k + 1] as usize]
    }
}

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
        let low = |p: [u32; 2]| p[0].min(p[1]);
        let high = |p: [u32; 2]| p[0].max(p[1]);
        if pairs.iter().any(|&p| high(p) as usize >= vertex_count) {
            return None;
        }
        let mut by_low = Buckets::by_key(pairs.iter().map(|&p| low(p) as usize), vertex_count)?;
        // Within each lower vertex by the higher one; a stable sort keeps the first pair first.
        for v in 0..vertex_count {
            by_low.get_mut(v).sort_by_key(|&i| high(pairs[i as usize]));
        }
        // Each pair's group: a new one at the first pair of a run of equal pairs (numbered in
        // the order of those first pairs), the first pair's for the rest.
        let mut first = vec![0u32; pairs.len()];
        for v in 0..vertex_count {
            let bucket = by_low.get(v);
            let mut leader = None;
            for (k, &i) in bucket.iter().enumerate() {
                let same = k > 0 && high(pairs[i as usize]) == high(pairs[bucket[k - 1] as usize]);
                if !same {
                    leader = Some(i);
                }
                first[i as usize] = leader.unwrap_or(i);
            }
        }
        drop(by_low);
        let mut group = first;
        let mut count = 0u32;
        for i in 0..group.len() {
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

    /// The pairs of each group, in the order given.
    pub(crate) fn members(&self) -> Buckets {
        // Every group is below the count, and `new` took no more pairs than a bucket holds.
        Buckets::by_key(self.group.iter().map(|&g| g as usize), self.count).unwrap_or_else(|| {
            Buckets {
                start: vec![0; self.count + 1],
                items: Vec::new(),
            }
        })
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
        let members = groups.members();
        assert_eq!(members.start, vec![0, 2, 5, 6, 7]);
        assert_eq!(members.items, vec![0, 5, 1, 3, 6, 2, 4]);
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
            let members = groups.members();
            for g in 0..groups.count {
                let listed = members.get(g);
                prop_assert!(listed.windows(2).all(|w| w[0] < w[1]));
                prop_assert!(listed.iter().all(|&i| groups.group[i as usize] == g as u32));
            }
        }
    }
}
