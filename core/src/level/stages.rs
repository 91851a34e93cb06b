//! The build's stages in order, each with its name, the sentence that says what it did (with its
//! numbers) and the lines of pseudocode that do it.

use super::record::BuildRecord;
use super::settings::BuildSettings;

/// A stage of the build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// The level's triangles marked walkable or too steep.
    Triangles,
    /// The triangles rasterised into spans.
    Rasterised,
    /// Low hanging obstacles made walkable.
    LowHangingObstacles,
    /// Spans at ledges dropped.
    Ledges,
    /// Spans under low ceilings dropped.
    LowCeilings,
    /// The compact field of walkable spans and their neighbours.
    Compact,
    /// The walkable area eroded by the agent's radius.
    Erosion,
    /// Each span's distance to the border.
    DistanceField,
    /// The watershed regions.
    Regions,
    /// The regions' outlines traced along the cells.
    RawContours,
    /// The outlines simplified.
    Contours,
    /// Convex polygons of the outlines.
    Polygons,
    /// The detail mesh that follows the ground's height.
    Detail,
}

/// The pseudocode of the whole build (`navlab pseudocode level-build`); each stage lights some
/// of its lines.
pub const PSEUDOCODE: &[&str] = crate::search::pseudocode::Listing::LevelBuild.lines();

impl Stage {
    /// Every stage, in the build's order.
    pub const ALL: [Stage; 13] = [
        Stage::Triangles,
        Stage::Rasterised,
        Stage::LowHangingObstacles,
        Stage::Ledges,
        Stage::LowCeilings,
        Stage::Compact,
        Stage::Erosion,
        Stage::DistanceField,
        Stage::Regions,
        Stage::RawContours,
        Stage::Contours,
        Stage::Polygons,
        Stage::Detail,
    ];

    /// Its place in [`Stage::ALL`].
    pub fn index(self) -> usize {
        Stage::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }

    /// Its name, as a heading.
    pub fn title(self) -> &'static str {
        match self {
            Stage::Triangles => "Walkable triangles",
            Stage::Rasterised => "Rasterised spans",
            Stage::LowHangingObstacles => "Filter: low hanging obstacles",
            Stage::Ledges => "Filter: ledges",
            Stage::LowCeilings => "Filter: low ceilings",
            Stage::Compact => "Compact field",
            Stage::Erosion => "Erosion by the radius",
            Stage::DistanceField => "Distance field",
            Stage::Regions => "Regions",
            Stage::RawContours => "Raw contours",
            Stage::Contours => "Simplified contours",
            Stage::Polygons => "Polygons",
            Stage::Detail => "Detail mesh",
        }
    }

    /// The lines of [`PSEUDOCODE`] it runs (from 0).
    pub fn pseudocode_lines(self) -> std::ops::Range<usize> {
        match self {
            Stage::Triangles => 0..2,
            Stage::Rasterised => 2..4,
            Stage::LowHangingObstacles => 4..5,
            Stage::Ledges => 5..8,
            Stage::LowCeilings => 8..9,
            Stage::Compact => 9..10,
            Stage::Erosion => 10..11,
            Stage::DistanceField => 11..12,
            Stage::Regions => 12..14,
            Stage::RawContours => 14..15,
            Stage::Contours => 15..16,
            Stage::Polygons => 16..17,
            Stage::Detail => 17..18,
        }
    }

    /// What it did, with its numbers.
    pub fn sentence(self, record: &BuildRecord, settings: &BuildSettings) -> String {
        let ms = record.stage_milliseconds(self);
        let spans = record.spans.len();
        let walkable = |filter: usize| record.walkable_spans(filter);
        let changed = |before: usize, after: usize| after.abs_diff(before);
        let cells = settings.in_cells();
        match self {
            Stage::Triangles => {
                let total = record.triangles.len();
                let kept = record.walkable_triangles.iter().filter(|&&w| w).count();
                format!(
                    "{kept} of {total} triangles are walkable; {} are steeper than {}° or face down ({ms:.1} ms).",
                    total - kept,
                    settings.agent_max_slope
                )
            }
            Stage::Rasterised => format!(
                "{spans} spans in a {} × {} grid of {} × {} cells; {} have a walkable top ({ms:.1} ms).",
                record.grid[0],
                record.grid[1],
                settings.cell_size,
                settings.cell_height,
                walkable(0)
            ),
            Stage::LowHangingObstacles => format!(
                "{} spans within a climb of {} of a walkable span below became walkable (kerbs, steps) ({ms:.1} ms).",
                changed(walkable(0), walkable(1)),
                settings.agent_max_climb
            ),
            Stage::Ledges => format!(
                "{} spans beside a drop of more than {} were dropped; {} walkable spans remain ({ms:.1} ms).",
                changed(walkable(1), walkable(2)),
                settings.agent_max_climb,
                walkable(2)
            ),
            Stage::LowCeilings => format!(
                "{} spans with less than {} of room above were dropped; {} walkable spans remain ({ms:.1} ms).",
                changed(walkable(2), walkable(3)),
                settings.agent_height,
                walkable(3)
            ),
            Stage::Compact => format!(
                "{} walkable spans, each joined to the neighbours it can step to ({ms:.1} ms).",
                record.compact.len()
            ),
            Stage::Erosion => {
                let eroded = record.compact.iter().filter(|s| !s.kept_by_erosion).count();
                format!(
                    "{eroded} spans closer than the radius {} ({} cells) to a border were dropped ({ms:.1} ms).",
                    settings.agent_radius, cells.walkable_radius
                )
            }
            Stage::DistanceField => format!(
                "Each span's distance to the nearest border: at most {:.1} cells ({ms:.1} ms).",
                f64::from(record.max_distance) / 2.0
            ),
            Stage::Regions => {
                let mut regions: Vec<u16> = record
                    .compact
                    .iter()
                    .map(|s| s.region)
                    .filter(|&r| r != 0)
                    .collect();
                regions.sort_unstable();
                regions.dedup();
                let dropped = record
                    .compact
                    .iter()
                    .filter(|s| s.kept_by_erosion && s.region == 0)
                    .count();
                format!(
                    "{} regions flooded from the centres out; {dropped} spans in islands under {} cells were dropped ({ms:.1} ms).",
                    regions.len(),
                    cells.min_region_area
                )
            }
            Stage::RawContours => format!(
                "{} outlines with {} corners along the cells' edges.",
                record.raw_contours.len(),
                record
                    .raw_contours
                    .iter()
                    .map(|c| c.points.len())
                    .sum::<usize>()
            ),
            Stage::Contours => format!(
                "Simplified within {} cells to {} corners (traced and simplified in {ms:.1} ms).",
                settings.edge_max_error,
                record
                    .contours
                    .iter()
                    .map(|c| c.points.len())
                    .sum::<usize>()
            ),
            Stage::Polygons => format!(
                "{} convex polygons of at most {} vertices, {} vertices in all, in {} islands ({ms:.1} ms).",
                record.polygons.polygons.len(),
                settings.verts_per_poly,
                record.polygons.positions.len(),
                record.island_count()
            ),
            Stage::Detail => format!(
                "{} detail triangles following the ground within {} cell heights ({ms:.1} ms).",
                record.detail.len(),
                settings.detail_sample_max_error
            ),
        }
    }
}
