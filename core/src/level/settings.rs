//! The build's parameters, named and defaulted as RecastDemo names and defaults them, and their
//! check before anything is built.

use serde::{Deserialize, Serialize};

/// The most cells (width × depth) a level's grid may have: a 4,096 × 4,096 grid, whose
/// heightfield alone holds a column head per cell. Recast's grids are indexed by 16-bit numbers
/// in each direction too.
pub const MAX_GRID_CELLS: u64 = 4096 * 4096;

/// RecastDemo's build parameters. World units; angles in degrees.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildSettings {
    /// The grid's cell size on the ground plane.
    pub cell_size: f64,
    /// The grid's cell height.
    pub cell_height: f64,
    /// The agent's height: the least room between a floor and what is above it.
    pub agent_height: f64,
    /// The agent's radius: how far the navmesh keeps from walls.
    pub agent_radius: f64,
    /// The highest step the agent climbs.
    pub agent_max_climb: f64,
    /// The steepest slope the agent walks, in degrees.
    pub agent_max_slope: f64,
    /// Regions of fewer than this squared cells, on their own, are dropped.
    pub region_min_size: u16,
    /// Regions of fewer than this squared cells are merged into larger ones where they can be.
    pub region_merge_size: u16,
    /// The longest a contour's edge along the mesh's border may be (0: any).
    pub edge_max_len: f64,
    /// How far a simplified contour may stray from the cells' outline, in cells.
    pub edge_max_error: f64,
    /// The most vertices of a polygon.
    pub verts_per_poly: u16,
    /// The detail mesh's sampling distance, in cells (below 0.9: no sampling).
    pub detail_sample_dist: f64,
    /// How far the detail mesh may stray from the heightfield, in cell heights.
    pub detail_sample_max_error: f64,
}

impl Default for BuildSettings {
    /// RecastDemo's defaults.
    fn default() -> Self {
        Self {
            cell_size: 0.3,
            cell_height: 0.2,
            agent_height: 2.0,
            agent_radius: 0.6,
            agent_max_climb: 0.9,
            agent_max_slope: 45.0,
            region_min_size: 8,
            region_merge_size: 20,
            edge_max_len: 12.0,
            edge_max_error: 1.3,
            verts_per_poly: 6,
            detail_sample_dist: 6.0,
            detail_sample_max_error: 1.0,
        }
    }
}

/// A marked volume (RecastDemo's convex volume): the walkable ground inside it, between two
/// heights, gets an area type, which the build keeps apart in its own polygons and a search
/// costs as the area's multiplier says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarkedVolume {
    /// Its outline in the plan (x, z); a concave outline is taken as its convex hull.
    pub points: Vec<[f64; 2]>,
    /// The lowest height it marks.
    pub min_y: f64,
    /// The highest height it marks.
    pub max_y: f64,
    /// The area type's name (`road`, `mud`, `water`, or a name of its own).
    pub area: String,
}

/// The most marked volumes a build takes.
pub const MAX_VOLUMES: usize = 256;

impl MarkedVolume {
    /// The volume checked: a name an area may have, at least three finite corners with some
    /// area between them, heights in order.
    pub fn check(&self) -> Result<(), LevelError> {
        let bad = |must: &'static str| LevelError::Volume {
            area: crate::input::printable(&self.area),
            must,
        };
        if !crate::navmesh::areas::is_valid_name(&self.area) || self.area == "ground" {
            return Err(bad(
                "named by 1 to 32 letters, digits, `_` or `-`, not ground",
            ));
        }
        let limit = crate::input::MAX_COORDINATE;
        let finite = |v: f64| v.is_finite() && v.abs() <= limit;
        if self.points.len() < 3
            || self.points.len() > 64
            || !self.points.iter().all(|p| finite(p[0]) && finite(p[1]))
        {
            return Err(bad("3 to 64 finite corners"));
        }
        if convex_hull(&self.points).len() < 3 {
            return Err(bad("an outline with some area"));
        }
        if !(finite(self.min_y) && finite(self.max_y) && self.min_y <= self.max_y) {
            return Err(bad("between two finite heights, the lower first"));
        }
        Ok(())
    }
}

/// The convex hull of `points` (counter-clockwise, no three in a line).
pub fn convex_hull(points: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut sorted: Vec<[f64; 2]> = points.to_vec();
    sorted.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted;
    }
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    let mut hull: Vec<[f64; 2]> = Vec::with_capacity(sorted.len() * 2);
    for pass in 0..2 {
        let start = hull.len();
        let points: Box<dyn Iterator<Item = &[f64; 2]>> = if pass == 0 {
            Box::new(sorted.iter())
        } else {
            Box::new(sorted.iter().rev())
        };
        for &p in points {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Why a level could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LevelError {
    /// A parameter outside what the build takes.
    #[error("{name} must be {must}, not {value}")]
    Parameter {
        /// Its name, as the command line spells it.
        name: &'static str,
        /// What it must be.
        must: &'static str,
        /// What it was.
        value: f64,
    },
    /// The grid over the level would be too large.
    #[error(
        "a grid of {width} × {depth} cells of {cell_size} over the level is more than the {max} cells navlab builds: raise the cell size"
    )]
    GridTooLarge {
        /// Cells across.
        width: u64,
        /// Cells deep.
        depth: u64,
        /// The cell size asked for.
        cell_size: f64,
        /// [`MAX_GRID_CELLS`].
        max: u64,
    },
    /// The level has no triangle.
    #[error("the level has no faces")]
    Empty,
    /// The level is less than half a cell across or deep in plan: no cell to build on.
    #[error(
        "the level is {width} × {depth} in plan, less than half a cell of {cell_size} one way: there is no floor to build on"
    )]
    NoFloor {
        /// Its size across (x).
        width: f64,
        /// Its size deep (z).
        depth: f64,
        /// The cell size asked for.
        cell_size: f64,
    },
    /// A marked volume that cannot be built.
    #[error("the marked volume of {area} must be {must}")]
    Volume {
        /// Its area's name, printable.
        area: String,
        /// What it must be.
        must: &'static str,
    },
    /// More area types than a mesh holds, or more volumes than a build takes.
    #[error("{0}")]
    TooMany(String),
    /// A stage of the build failed.
    #[error("the build failed at {stage}: {message}")]
    Stage {
        /// The stage.
        stage: &'static str,
        /// What it said.
        message: String,
    },
}

/// The parameters the build counts in cells, converted as RecastDemo converts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellSettings {
    /// The agent's height, rounded up to whole cell heights.
    pub walkable_height: u16,
    /// The highest step, rounded down to whole cell heights.
    pub walkable_climb: u16,
    /// The radius, rounded up to whole cells.
    pub walkable_radius: u16,
    /// The longest border edge, in cells.
    pub max_edge_len: u16,
    /// The least area of a region on its own, in cells.
    pub min_region_area: u16,
    /// The area under which regions are merged, in cells.
    pub merge_region_area: u16,
}

impl BuildSettings {
    /// The parameters in cells (after [`check`](Self::check), every one fits).
    pub fn in_cells(&self) -> CellSettings {
        let cells = |value: f64| value.clamp(0.0, f64::from(u16::MAX)) as u16;
        CellSettings {
            walkable_height: cells((self.agent_height / self.cell_height).ceil()),
            walkable_climb: cells((self.agent_max_climb / self.cell_height).floor()),
            walkable_radius: cells((self.agent_radius / self.cell_size).ceil()),
            max_edge_len: cells(self.edge_max_len / self.cell_size),
            min_region_area: self.region_min_size.saturating_mul(self.region_min_size),
            merge_region_area: self
                .region_merge_size
                .saturating_mul(self.region_merge_size),
        }
    }

    /// The settings checked: every number finite and in its range.
    pub fn check(&self) -> Result<(), LevelError> {
        let positive = |name, value: f64| {
            if value.is_finite() && value > 0.0 {
                Ok(())
            } else {
                Err(LevelError::Parameter {
                    name,
                    must: "a positive number",
                    value,
                })
            }
        };
        let not_negative = |name, value: f64| {
            if value.is_finite() && value >= 0.0 {
                Ok(())
            } else {
                Err(LevelError::Parameter {
                    name,
                    must: "a number of 0 or more",
                    value,
                })
            }
        };
        positive("--cell-size", self.cell_size)?;
        positive("--cell-height", self.cell_height)?;
        positive("--agent-height", self.agent_height)?;
        not_negative("--agent-radius", self.agent_radius)?;
        not_negative("--max-climb", self.agent_max_climb)?;
        not_negative("--edge-max-len", self.edge_max_len)?;
        not_negative("--edge-max-error", self.edge_max_error)?;
        not_negative("--detail-sample-dist", self.detail_sample_dist)?;
        not_negative("--detail-sample-max-error", self.detail_sample_max_error)?;
        if !(self.agent_max_slope.is_finite() && (0.0..90.0).contains(&self.agent_max_slope)) {
            return Err(LevelError::Parameter {
                name: "--max-slope",
                must: "from 0 to under 90 degrees",
                value: self.agent_max_slope,
            });
        }
        if !(3..=6).contains(&self.verts_per_poly) {
            return Err(LevelError::Parameter {
                name: "--verts-per-poly",
                must: "from 3 to 6",
                value: f64::from(self.verts_per_poly),
            });
        }
        for (name, value) in [
            ("--region-min-size", self.region_min_size),
            ("--region-merge-size", self.region_merge_size),
        ] {
            // Squared, a region's area in cells: a 16-bit number.
            if value > 255 {
                return Err(LevelError::Parameter {
                    name,
                    must: "at most 255 cells",
                    value: f64::from(value),
                });
            }
        }
        // What the build counts in cells must fit its 16-bit numbers.
        for (name, value) in [
            ("--agent-height", self.agent_height / self.cell_height),
            ("--max-climb", self.agent_max_climb / self.cell_height),
            ("--agent-radius", self.agent_radius / self.cell_size),
            ("--edge-max-len", self.edge_max_len / self.cell_size),
        ] {
            if value > 4096.0 {
                return Err(LevelError::Parameter {
                    name,
                    must: "at most 4,096 cells",
                    value,
                });
            }
        }
        Ok(())
    }
}
