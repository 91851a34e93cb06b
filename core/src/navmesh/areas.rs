//! Area types: what each triangle of a mesh is (ground, road, mud, water, or a name from its
//! file) and what crossing it costs, as a multiplier of the distance travelled.

use serde::Serialize;

/// Index of an area type in a mesh's [`NavMesh::area_names`](super::NavMesh::area_names);
/// 0 is ground.
pub type AreaId = u8;

/// The most area types one mesh holds (built-in ones included).
pub const MAX_AREA_TYPES: usize = 16;

/// The area types every mesh has, in order, with their default cost multipliers.
pub const BUILT_IN: [(&str, f64); 4] = [
    ("ground", 1.0),
    ("road", 0.5),
    ("mud", 3.0),
    ("water", 10.0),
];

/// The range a cost multiplier may take: below it a path could cost nearly nothing, above it
/// the cost is better said with an obstacle.
pub const COST_RANGE: std::ops::RangeInclusive<f64> = 0.1..=100.0;

/// The built-in names, as a mesh's initial area table.
pub fn built_in_names() -> Vec<String> {
    BUILT_IN
        .iter()
        .map(|(name, _)| (*name).to_string())
        .collect()
}

/// The id of `name` in `names`, adding it when it is new and there is room.
pub fn intern(names: &mut Vec<String>, name: &str) -> Option<AreaId> {
    if let Some(k) = names.iter().position(|n| n == name) {
        return AreaId::try_from(k).ok();
    }
    if names.len() >= MAX_AREA_TYPES {
        return None;
    }
    names.push(name.to_string());
    AreaId::try_from(names.len() - 1).ok()
}

/// True for a name an area type may have: 1 to 32 letters, digits, `_` or `-`.
pub fn is_valid_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// What crossing each area type costs, by [`AreaId`]: the distance times the multiplier.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AreaCosts(pub [f64; MAX_AREA_TYPES]);

impl Default for AreaCosts {
    /// Every area costs as much as ground.
    fn default() -> Self {
        Self([1.0; MAX_AREA_TYPES])
    }
}

impl AreaCosts {
    /// The built-in multipliers for the built-in names in `names`, 1 for any other name.
    pub fn for_names(names: &[String]) -> Self {
        let mut costs = Self::default();
        for (slot, name) in costs.0.iter_mut().zip(names) {
            if let Some((_, cost)) = BUILT_IN.iter().find(|(n, _)| n == name) {
                *slot = *cost;
            }
        }
        costs
    }

    /// The multiplier of `area` (1 for an id past the table).
    pub fn of(&self, area: AreaId) -> f64 {
        self.0.get(usize::from(area)).copied().unwrap_or(1.0)
    }

    /// Sets the multiplier of `area`, refusing a value outside [`COST_RANGE`].
    pub fn set(&mut self, area: AreaId, cost: f64) -> Result<(), AreaCostError> {
        if !COST_RANGE.contains(&cost) {
            return Err(AreaCostError::OutOfRange(cost));
        }
        let slot = self
            .0
            .get_mut(usize::from(area))
            .ok_or(AreaCostError::NoSuchArea(area))?;
        *slot = cost;
        Ok(())
    }

    /// Sets the multiplier of the area type called `name` among `names` (a mesh's
    /// [`area_names`](super::NavMesh::area_names)), refusing an unknown name or a value
    /// outside [`COST_RANGE`].
    pub fn set_named(
        &mut self,
        names: &[String],
        name: &str,
        cost: f64,
    ) -> Result<(), AreaCostError> {
        let id = names
            .iter()
            .position(|n| n == name)
            .and_then(|id| AreaId::try_from(id).ok())
            .ok_or_else(|| AreaCostError::UnknownName {
                known: names.join(", "),
            })?;
        self.set(id, cost)
    }

    /// The cheapest multiplier among the first `count` area types.
    pub fn cheapest(&self, count: usize) -> f64 {
        self.0
            .iter()
            .take(count.clamp(1, MAX_AREA_TYPES))
            .copied()
            .fold(f64::INFINITY, f64::min)
    }

    /// The cheapest multiplier among the area types in `present` (bit k for area type k), 1
    /// when it is empty: what the heuristic is scaled by, so it never overestimates.
    pub fn cheapest_of(&self, present: u32) -> f64 {
        let cheapest = (0..MAX_AREA_TYPES)
            .filter(|&k| present & (1 << k) != 0)
            .map(|k| self.0[k])
            .fold(f64::INFINITY, f64::min);
        if cheapest.is_finite() { cheapest } else { 1.0 }
    }
}

/// A cost multiplier that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AreaCostError {
    /// Outside [`COST_RANGE`].
    #[error("an area cost must be from {lo} to {hi}, not {0}", lo = COST_RANGE.start(), hi = COST_RANGE.end())]
    OutOfRange(f64),
    /// No area type with this id.
    #[error("there is no area type {0}")]
    NoSuchArea(AreaId),
    /// No area type of the mesh has the name given.
    #[error("this mesh's area types are {known}")]
    UnknownName {
        /// The mesh's area type names, comma-separated.
        known: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_interned_up_to_the_limit() {
        let mut names = built_in_names();
        assert_eq!(intern(&mut names, "mud"), Some(2));
        assert_eq!(intern(&mut names, "lava"), Some(4));
        for k in names.len()..MAX_AREA_TYPES {
            assert!(intern(&mut names, &format!("a{k}")).is_some());
        }
        assert_eq!(intern(&mut names, "one-too-many"), None);
        assert_eq!(intern(&mut names, "lava"), Some(4));
    }

    #[test]
    fn costs_outside_the_range_are_refused() {
        let mut costs = AreaCosts::for_names(&built_in_names());
        assert_eq!(costs.of(2), 3.0);
        assert!(costs.set(2, 0.05).is_err());
        assert!(costs.set(2, f64::NAN).is_err());
        assert!(costs.set(2, 1e9).is_err());
        assert!(costs.set(2, 10.0).is_ok());
        assert_eq!(costs.cheapest(4), 0.5);
        assert_eq!(costs.cheapest(1), 1.0);
        assert_eq!(costs.cheapest_of(0b1101), 1.0);
        assert_eq!(costs.cheapest_of(0b0010), 0.5);
        assert_eq!(costs.cheapest_of(0), 1.0);
    }

    #[test]
    fn names_are_checked() {
        assert!(is_valid_name("mud"));
        assert!(is_valid_name("deep_water-2"));
        assert!(!is_valid_name(""));
        assert!(!is_valid_name("a b"));
        assert!(!is_valid_name("ünicode"));
    }
}
