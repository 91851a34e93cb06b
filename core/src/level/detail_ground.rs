//! Before the detail stage: every polygon must have spans of its own region under it.
//!
//! Recast samples a polygon's heights from the spans of the polygon's region within its bounds;
//! a polygon with none of them (a sliver between regions, or one merged from polygons of
//! different regions) is seeded instead from the span nearest under its corners and filled out
//! from there. `rerecast` 0.5 does that seeding with the wrong vertex array (the previous
//! polygon's detail vertices, in world units, stand in for the polygon's corners), so it finds the
//! wrong ground or none and stops the build with a panic. This gives each such polygon, for the
//! detail stage only, the region of the span Recast's seeding would have started from: the span
//! under a corner (or a cell next to it) nearest the corner's height; failing that, the span in
//! the polygon's bounds nearest its corners' mean height. A polygon with no region's span in its
//! bounds at all has no ground to take heights from, and the build says so.

use rerecast::{CompactHeightfield, PolygonNavmesh, RegionId};

/// The cells round a corner Recast looks at when it seeds a polygon from its corners.
const AROUND: [(i32, i32); 9] = [
    (0, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
];

/// A polygon with no ground under it (its index in the polygon mesh).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NoGround {
    pub polygon: usize,
}

/// The polygon mesh to hand the detail stage: `mesh` itself when every polygon has spans of its
/// region under it (`None`), or a copy whose regions are set as the module says.
pub(super) fn regions_with_ground(
    mesh: &PolygonNavmesh,
    field: &CompactHeightfield,
) -> Result<Option<PolygonNavmesh>, NoGround> {
    let mut patched: Option<PolygonNavmesh> = None;
    for (polygon, corners) in mesh.polygons().enumerate() {
        let corners: Vec<[i32; 3]> = corners
            .filter_map(|v| mesh.vertices.get(usize::from(v)))
            .map(|v| [i32::from(v.x), i32::from(v.y), i32::from(v.z)])
            .collect();
        let region = mesh.regions.get(polygon).copied().unwrap_or(RegionId::NONE);
        let patch = Patch::of(&corners, field, mesh.border_size);
        if region != RegionId::NONE && patch.has_region(region) {
            continue;
        }
        let found = patch
            .seed_under_corners(&corners)
            .or_else(|| patch.nearest_in_bounds(&corners))
            .ok_or(NoGround { polygon })?;
        let copy = patched.get_or_insert_with(|| mesh.clone());
        if let Some(slot) = copy.regions.get_mut(polygon) {
            *slot = found;
        }
    }
    Ok(patched)
}

/// A polygon's bounds on the compact field, as the detail stage takes them (one cell beyond its
/// corners each way, within the field; coordinates without the field's border).
struct Patch<'a> {
    field: &'a CompactHeightfield,
    border: i32,
    x: std::ops::Range<i32>,
    z: std::ops::Range<i32>,
}

impl<'a> Patch<'a> {
    fn of(corners: &[[i32; 3]], field: &'a CompactHeightfield, border: u16) -> Self {
        let (mut x0, mut x1, mut z0, mut z1) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        for &[x, _, z] in corners {
            x0 = x0.min(x);
            x1 = x1.max(x);
            z0 = z0.min(z);
            z1 = z1.max(z);
        }
        let (width, height) = (i32::from(field.width), i32::from(field.height));
        Self {
            field,
            border: i32::from(border),
            x: (x0 - 1).max(0)..(x1 + 1).min(width),
            z: (z0 - 1).max(0)..(z1 + 1).min(height),
        }
    }

    /// The spans (height, region) of the cell at (x, z), nothing outside the patch.
    fn spans(&self, x: i32, z: i32) -> impl Iterator<Item = (i32, RegionId)> + '_ {
        let inside = self.x.contains(&x) && self.z.contains(&z);
        let (fx, fz) = (x + self.border, z + self.border);
        let width = i32::from(self.field.width);
        let cell = (inside && fx >= 0 && fx < width && fz >= 0)
            .then(|| usize::try_from(fx + fz * width).ok())
            .flatten()
            .and_then(|i| self.field.cells.get(i));
        cell.into_iter()
            .flat_map(|c| c.index_range())
            .filter_map(|i| self.field.spans.get(i))
            .map(|s| (i32::from(s.y), s.region))
    }

    fn all_spans(&self) -> impl Iterator<Item = (i32, RegionId)> + '_ {
        self.z
            .clone()
            .flat_map(move |z| self.x.clone().map(move |x| (x, z)))
            .flat_map(move |(x, z)| self.spans(x, z))
    }

    fn has_region(&self, region: RegionId) -> bool {
        self.all_spans().any(|(_, r)| r == region)
    }

    /// The region of the span under a corner or a cell next to it nearest the corner's height.
    fn seed_under_corners(&self, corners: &[[i32; 3]]) -> Option<RegionId> {
        corners
            .iter()
            .flat_map(|&[x, y, z]| {
                AROUND.iter().flat_map(move |&(dx, dz)| {
                    self.spans(x + dx, z + dz)
                        .map(move |(h, region)| ((h - y).abs(), region))
                })
            })
            .filter(|&(_, region)| region != RegionId::NONE)
            .min_by_key(|&(d, _)| d)
            .map(|(_, region)| region)
    }

    /// The region of the span in the patch nearest the corners' mean height.
    fn nearest_in_bounds(&self, corners: &[[i32; 3]]) -> Option<RegionId> {
        let count = i32::try_from(corners.len()).ok().filter(|&n| n > 0)?;
        let mean = corners.iter().map(|c| c[1]).sum::<i32>() / count;
        self.all_spans()
            .filter(|&(_, region)| region != RegionId::NONE)
            .min_by_key(|&(h, _)| (h - mean).abs())
            .map(|(_, region)| region)
    }
}
