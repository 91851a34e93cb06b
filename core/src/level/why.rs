//! "Why is there no navmesh here?": for a point of the level (and which of the surfaces above
//! one another there), the stage of the build that removed the ground under it, by how much it
//! missed (the face's slope against the agent's, the step against its climb, the ceiling against
//! its height, the wall's distance against its radius, the island's area against the least kept),
//! and the smallest change of one parameter that keeps it — checked by building again with the
//! change before it is suggested. Where the ground was kept: the polygon and island it is on.

use super::build::{build_navmesh, build_recorded};
use super::record::{BuildRecord, DIRECTIONS, NO_NEIGHBOUR};
use super::settings::{BuildSettings, LevelError};
use super::stages::Stage;
use crate::geom::Vec2;
use crate::navmesh::RawMesh;
use serde::Serialize;

/// A parameter a suggestion changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Setting {
    /// `agent_max_slope`.
    MaxSlope,
    /// `agent_max_climb`.
    MaxClimb,
    /// `agent_height`.
    AgentHeight,
    /// `agent_radius`.
    AgentRadius,
    /// `region_min_size`.
    RegionMinSize,
    /// `edge_max_error`.
    EdgeMaxError,
}

impl Setting {
    /// Its name in words.
    pub fn name(self) -> &'static str {
        match self {
            Setting::MaxSlope => "max slope",
            Setting::MaxClimb => "max climb",
            Setting::AgentHeight => "agent height",
            Setting::AgentRadius => "agent radius",
            Setting::RegionMinSize => "region min size",
            Setting::EdgeMaxError => "edge max error",
        }
    }

    /// Its command-line option.
    pub fn flag(self) -> &'static str {
        match self {
            Setting::MaxSlope => "--max-slope",
            Setting::MaxClimb => "--max-climb",
            Setting::AgentHeight => "--agent-height",
            Setting::AgentRadius => "--agent-radius",
            Setting::RegionMinSize => "--region-min-size",
            Setting::EdgeMaxError => "--edge-max-error",
        }
    }

    /// Its value in `settings`.
    pub fn get(self, settings: &BuildSettings) -> f64 {
        match self {
            Setting::MaxSlope => settings.agent_max_slope,
            Setting::MaxClimb => settings.agent_max_climb,
            Setting::AgentHeight => settings.agent_height,
            Setting::AgentRadius => settings.agent_radius,
            Setting::RegionMinSize => f64::from(settings.region_min_size),
            Setting::EdgeMaxError => settings.edge_max_error,
        }
    }

    /// `settings` with it set to `value`.
    pub fn with(self, settings: &BuildSettings, value: f64) -> BuildSettings {
        let mut changed = *settings;
        match self {
            Setting::MaxSlope => changed.agent_max_slope = value,
            Setting::MaxClimb => changed.agent_max_climb = value,
            Setting::AgentHeight => changed.agent_height = value,
            Setting::AgentRadius => changed.agent_radius = value,
            Setting::RegionMinSize => changed.region_min_size = value.clamp(0.0, 255.0) as u16,
            Setting::EdgeMaxError => changed.edge_max_error = value,
        }
        changed
    }
}

/// A change of one parameter that keeps the ground (the build was run with it).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Suggestion {
    /// The parameter.
    pub setting: Setting,
    /// Its value now.
    pub from: f64,
    /// The value that keeps the ground.
    pub to: f64,
}

impl Suggestion {
    /// `settings` with the change made.
    pub fn applied(&self, settings: &BuildSettings) -> BuildSettings {
        self.setting.with(settings, self.to)
    }

    /// The change in words: "raise max climb from 0.9 to 1.1".
    pub fn sentence(&self) -> String {
        let verb = if self.to > self.from {
            "raise"
        } else {
            "lower"
        };
        format!(
            "{verb} {} from {} to {}",
            self.setting.name(),
            short(self.from),
            short(self.to)
        )
    }
}

/// A number in at most two decimals, without trailing zeros.
fn short(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// What became of the ground at a point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum Reason {
    /// The point is off the level's grid.
    OutsideTheLevel,
    /// No face of the level is above or below the point.
    NoGround,
    /// The surface asked for is not there.
    NoSuchSurface {
        /// How many surfaces there are.
        surfaces: usize,
    },
    /// The face is steeper than the agent walks.
    TooSteep {
        /// Its slope, in degrees.
        degrees: f64,
        /// The agent's max slope.
        max: f64,
    },
    /// The face's corners wind so that it faces down.
    FacesDown,
    /// The face left no span (it is thinner than a cell where the point is).
    NotRasterised,
    /// A steeper face in the same cell reaches higher than a climb above the floor.
    UnderASteeperFace {
        /// Its top.
        top: f64,
    },
    /// A neighbouring cell's floor is further below than the agent climbs.
    Ledge {
        /// How far below.
        drop: f64,
        /// The agent's max climb.
        max_climb: f64,
    },
    /// Beside the cell is nothing to stand on within the agent's height below: the floor's edge.
    GroundEnds,
    /// The floors next to the cell differ by more than the agent climbs (a slope too steep at
    /// the grid's scale).
    SteepSteps {
        /// The difference between the highest and the lowest.
        rise: f64,
        /// The agent's max climb.
        max_climb: f64,
    },
    /// Too little room above the floor.
    LowCeiling {
        /// The room, floor to ceiling, as the level's faces have it over the point.
        clearance: f64,
        /// The room as the grid measures it (the floor rounded up, the ceiling down to whole
        /// cell heights): what the filter compares.
        grid_clearance: f64,
        /// The agent's height.
        agent_height: f64,
    },
    /// Closer to a wall than the agent's radius.
    NearWall {
        /// The distance to the nearest wall.
        distance: f64,
        /// The agent's radius.
        radius: f64,
    },
    /// The walkable area it is on is smaller than the least kept.
    SmallRegion {
        /// That area.
        area: f64,
        /// The least kept (region min size squared, in cells).
        min_area: f64,
    },
    /// The cells are walkable but the simplified outline leaves the point out.
    OutlineSimplified {
        /// How far the nearest polygon is.
        distance: f64,
    },
    /// The ground is on the navmesh.
    Kept {
        /// The polygon it is in.
        polygon: usize,
        /// That polygon's island.
        island: usize,
    },
}

/// The answer for one point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Why {
    /// The point (x, z).
    pub at: [f64; 2],
    /// The heights of the level's surfaces over the point, bottom up.
    pub surfaces: Vec<f64>,
    /// Which of them was asked about.
    pub floor: Option<usize>,
    /// Its height.
    pub height: Option<f64>,
    /// The stage that removed the ground (none where it was kept or there was none).
    pub stage: Option<Stage>,
    /// What happened to it.
    #[serde(flatten)]
    pub reason: Reason,
    /// The smallest change of one parameter that keeps it, built and checked.
    pub suggestion: Option<Suggestion>,
}

impl Why {
    /// Whether the ground is on the navmesh.
    pub fn is_kept(&self) -> bool {
        matches!(self.reason, Reason::Kept { .. })
    }

    /// The answer in words.
    pub fn sentence(&self) -> String {
        let [x, z] = self.at;
        let place = match (self.floor, self.height) {
            (Some(floor), Some(height)) if self.surfaces.len() > 1 => format!(
                "At ({}, {}), surface {} of {} (y = {}): ",
                short(x),
                short(z),
                floor + 1,
                self.surfaces.len(),
                short(height)
            ),
            (_, Some(height)) => {
                format!("At ({}, {}, y = {}): ", short(x), short(z), short(height))
            }
            _ => format!("At ({}, {}): ", short(x), short(z)),
        };
        let what = match self.reason {
            Reason::OutsideTheLevel => "the point is outside the level.".to_owned(),
            Reason::NoGround => "no face of the level is above or below the point.".to_owned(),
            Reason::NoSuchSurface { surfaces } => {
                format!("there are {surfaces} surfaces here, not as many as asked.")
            }
            Reason::TooSteep { degrees, max } => format!(
                "the face is {degrees:.1}° steep (max slope {}°); the first stage marks it not walkable.",
                short(max)
            ),
            Reason::FacesDown => "the face faces down (its corners wind clockwise seen from above); no slope makes it walkable: turn it over in the level.".to_owned(),
            Reason::NotRasterised => "the face left no span in its cell (it is thinner than a cell here).".to_owned(),
            Reason::UnderASteeperFace { top } => format!(
                "a steeper face in the same cell reaches y = {} (more than a climb above the floor), so the cell's top is not walkable.",
                short(top)
            ),
            Reason::Ledge { drop, max_climb } => format!(
                "a neighbouring floor is {} lower (max climb {}); the ledge filter drops cells beside a drop.",
                short(drop),
                short(max_climb)
            ),
            Reason::GroundEnds => "the ground ends beside this cell (nothing to stand on below within the agent's height); the ledge filter drops a floor's edge whatever the climb.".to_owned(),
            Reason::SteepSteps { rise, max_climb } => format!(
                "the floors around this cell differ by {} (max climb {}): too steep to walk, the ledge filter drops it.",
                short(rise),
                short(max_climb)
            ),
            Reason::LowCeiling {
                clearance,
                grid_clearance,
                agent_height,
            } => format!(
                "the ceiling is {} above the floor ({} on the grid; agent height {}); the low ceiling filter drops it.",
                short(clearance),
                short(grid_clearance),
                short(agent_height)
            ),
            Reason::NearWall { distance, radius } => format!(
                "the nearest wall is {} away (radius {}); the erosion keeps the navmesh a radius from walls.",
                short(distance),
                short(radius)
            ),
            Reason::SmallRegion { area, min_area } => format!(
                "the walkable area here is {} m² on its own (least kept {} m²); the regions stage drops it.",
                short(area),
                short(min_area)
            ),
            Reason::OutlineSimplified { distance } => format!(
                "the cells are walkable, but the simplified outline passes {} away and leaves this spot out.",
                short(distance)
            ),
            Reason::Kept { polygon, island } => {
                format!("the ground is on the navmesh: polygon {polygon}, island {island}.")
            }
        };
        let change = match (&self.suggestion, self.is_kept()) {
            (Some(suggestion), _) => format!(" To keep it: {}.", suggestion.sentence()),
            (None, false) if self.stage.is_some() => {
                " No change of one parameter keeps it.".to_owned()
            }
            _ => String::new(),
        };
        format!("{place}{what}{change}")
    }
}

/// Builds the level and answers why the ground at `at` (x, z) is or is not on the navmesh:
/// surface `floor` counted from the bottom, or the top one.
pub fn why(
    positions: &[[f64; 3]],
    faces: &[Vec<usize>],
    settings: &BuildSettings,
    at: [f64; 2],
    floor: Option<usize>,
) -> Result<Why, LevelError> {
    let (_, record) = build_recorded(positions, faces, settings)?;
    Ok(explain(positions, faces, settings, &record, at, floor))
}

/// Answers as [`why`] does, from a build already recorded with `settings` (the level's
/// geometry is built again to check a suggestion).
pub fn explain(
    positions: &[[f64; 3]],
    faces: &[Vec<usize>],
    settings: &BuildSettings,
    record: &BuildRecord,
    at: [f64; 2],
    floor: Option<usize>,
) -> Why {
    let surfaces = surfaces_at(record, at);
    let heights: Vec<f64> = surfaces.iter().map(|s| s.height).collect();
    let mut answer = Why {
        at,
        surfaces: heights,
        floor: None,
        height: None,
        stage: None,
        reason: Reason::NoGround,
        suggestion: None,
    };
    if surfaces.is_empty() {
        return answer;
    }
    let chosen = floor.unwrap_or(surfaces.len() - 1);
    let Some(surface) = surfaces.get(chosen) else {
        answer.reason = Reason::NoSuchSurface {
            surfaces: surfaces.len(),
        };
        return answer;
    };
    answer.floor = Some(chosen);
    answer.height = Some(surface.height);
    let (stage, reason, candidates) = diagnose(record, settings, at, surface);
    answer.stage = stage;
    answer.reason = reason;
    answer.suggestion = candidates.into_iter().find(|candidate| {
        let changed = candidate.applied(settings);
        changed.check().is_ok()
            && build_navmesh(positions, faces, &changed).is_ok_and(|built| {
                polygon_at(&built.polygons, &changed, at, surface.height).is_some()
            })
    });
    answer
}

/// The heights of the level's surfaces over `at` (x, z), bottom up: the faces over it that face
/// up, those within a quarter of a cell height of each other taken as one.
pub fn surface_heights(record: &BuildRecord, at: [f64; 2]) -> Vec<f64> {
    surfaces_at(record, at).iter().map(|s| s.height).collect()
}

/// A surface of the level over a point.
#[derive(Debug, Clone, Copy)]
struct Surface {
    height: f64,
    /// Some face of it is walkable.
    walkable: bool,
    /// The cosine of the least steep face's slope (negative: it faces down).
    flattest: f64,
}

/// The level's surfaces over `at`, bottom up: the heights of the faces over it that face up,
/// those within a quarter of a cell height of each other taken as one.
fn surfaces_at(record: &BuildRecord, [x, z]: [f64; 2]) -> Vec<Surface> {
    let mut found: Vec<Surface> = Vec::new();
    for (t, triangle) in record.triangles.iter().enumerate() {
        let corner = |i: u32| record.positions.get(i as usize).copied();
        let (Some(a), Some(b), Some(c)) = (
            corner(triangle[0]),
            corner(triangle[1]),
            corner(triangle[2]),
        ) else {
            continue;
        };
        let Some(height) = height_in_triangle([a, b, c], [x, z]) else {
            continue;
        };
        let walkable = record.walkable_triangles.get(t).copied().unwrap_or(false);
        found.push(Surface {
            height,
            walkable,
            flattest: up_cosine(a, b, c),
        });
    }
    // Faces that face down are ceilings (a box's underside) and not surfaces to stand on, unless
    // nothing here faces up: then the level's faces are wound the other way.
    if found.iter().any(|s| s.flattest > 0.0) {
        found.retain(|s| s.flattest > 0.0);
    }
    found.sort_by(|p, q| p.height.total_cmp(&q.height));
    let near = record.cell_height * 0.25;
    let mut surfaces: Vec<Surface> = Vec::new();
    for surface in found {
        match surfaces.last_mut() {
            Some(last) if surface.height - last.height <= near => {
                last.walkable |= surface.walkable;
                last.flattest = last.flattest.max(surface.flattest);
                last.height = last.height.max(surface.height);
            }
            _ => surfaces.push(surface),
        }
    }
    surfaces
}

/// The lowest face of the level (of any orientation) above `height` over `at`.
fn lowest_face_above(record: &BuildRecord, [x, z]: [f64; 2], height: f64) -> Option<f64> {
    let near = record.cell_height * 0.25;
    record
        .triangles
        .iter()
        .filter_map(|triangle| {
            let corner = |i: u32| record.positions.get(i as usize).copied();
            let corners = [
                corner(triangle[0])?,
                corner(triangle[1])?,
                corner(triangle[2])?,
            ];
            height_in_triangle(corners, [x, z])
        })
        .filter(|&y| y > height + near)
        .min_by(f64::total_cmp)
}

/// The height of triangle `t` over the point (x, z), if the point is in its plan.
fn height_in_triangle(t: [[f64; 3]; 3], [x, z]: [f64; 2]) -> Option<f64> {
    let [a, b, c] = t;
    let det = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
    let scale =
        (b[0] - a[0]).abs() + (b[2] - a[2]).abs() + (c[0] - a[0]).abs() + (c[2] - a[2]).abs();
    if det.abs() <= 1e-12 * scale * scale || !det.is_finite() {
        return None;
    }
    let u = ((x - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (z - a[2])) / det;
    let v = ((b[0] - a[0]) * (z - a[2]) - (x - a[0]) * (b[2] - a[2])) / det;
    let eps = 1e-9;
    (u >= -eps && v >= -eps && u + v <= 1.0 + eps)
        .then(|| a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]))
}

/// The y of the triangle's normal (as Recast computes it, from the corners' order).
fn up_cosine(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
    let e0 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let e1 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        e0[1] * e1[2] - e0[2] * e1[1],
        e0[2] * e1[0] - e0[0] * e1[2],
        e0[0] * e1[1] - e0[1] * e1[0],
    ];
    let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if length > 0.0 { n[1] / length } else { 0.0 }
}

/// The smallest value on a grid of hundredths, from `start` upward, for which `ok` holds
/// (a few steps at most).
fn first_up(start: f64, ok: impl Fn(f64) -> bool) -> Option<f64> {
    let mut value = (start * 100.0).ceil() / 100.0;
    for _ in 0..8 {
        if ok(value) {
            return Some(value);
        }
        value += 0.01;
    }
    None
}

/// The largest value on a grid of hundredths, from `start` downward, for which `ok` holds.
fn first_down(start: f64, ok: impl Fn(f64) -> bool) -> Option<f64> {
    let mut value = (start * 100.0).floor() / 100.0;
    for _ in 0..8 {
        if value < 0.0 {
            return None;
        }
        if ok(value) {
            return Some(value);
        }
        value -= 0.01;
    }
    None
}

/// The stage that removed the surface, why, and the changes worth building to keep it,
/// nearest first.
fn diagnose(
    record: &BuildRecord,
    settings: &BuildSettings,
    at: [f64; 2],
    surface: &Surface,
) -> (Option<Stage>, Reason, Vec<Suggestion>) {
    let suggest = |setting: Setting, values: Vec<f64>| -> Vec<Suggestion> {
        values
            .into_iter()
            .map(|to| Suggestion {
                setting,
                from: setting.get(settings),
                to,
            })
            .collect()
    };
    if !surface.walkable {
        if surface.flattest <= 0.0 {
            return (Some(Stage::Triangles), Reason::FacesDown, Vec::new());
        }
        let degrees = surface.flattest.clamp(-1.0, 1.0).acos().to_degrees();
        let values = [degrees, degrees + 1.0]
            .into_iter()
            .filter_map(|d| first_up(d + 0.005, |v| v < 90.0 && v > degrees))
            .collect();
        return (
            Some(Stage::Triangles),
            Reason::TooSteep {
                degrees,
                max: settings.agent_max_slope,
            },
            suggest(Setting::MaxSlope, values),
        );
    }
    let Some((cx, cz)) = record.cell_at(at[0], at[1]) else {
        return (Some(Stage::Rasterised), Reason::OutsideTheLevel, Vec::new());
    };
    let cells = settings.in_cells();
    let y_cells = (surface.height - record.origin[1]) / record.cell_height;
    let Some((span_index, span)) = record
        .spans_of(cx, cz)
        .map(|(i, s)| (i, *s, (f64::from(s.max) - y_cells).abs()))
        .filter(|&(_, _, off)| off <= f64::from(cells.walkable_climb) + 2.0)
        .min_by(|p, q| p.2.total_cmp(&q.2))
        .map(|(i, s, _)| (i, s))
    else {
        return (Some(Stage::Rasterised), Reason::NotRasterised, Vec::new());
    };
    let w = span.walkable;
    if !w[1] {
        return (
            Some(Stage::Rasterised),
            Reason::UnderASteeperFace {
                top: record.world_y(span.max),
            },
            Vec::new(),
        );
    }
    if !w[2] {
        return ledge(record, settings, cx, cz, span_index, &suggest);
    }
    if !w[3] {
        let ceiling = record
            .spans_of(cx, cz)
            .find(|&(i, _)| i > span_index)
            .map_or(u16::MAX, |(_, s)| s.min);
        let room = ceiling.saturating_sub(span.max);
        let grid_clearance = f64::from(room) * record.cell_height;
        let clearance = lowest_face_above(record, at, surface.height)
            .map_or(grid_clearance, |ceiling| ceiling - surface.height);
        let values = [room, room.saturating_sub(1)]
            .into_iter()
            .filter(|&c| c > 0)
            .filter_map(|c| {
                first_down(f64::from(c) * record.cell_height, |v| {
                    v > 0.0
                        && Setting::AgentHeight
                            .with(settings, v)
                            .in_cells()
                            .walkable_height
                            <= c
                })
            })
            .collect();
        return (
            Some(Stage::LowCeilings),
            Reason::LowCeiling {
                clearance,
                grid_clearance,
                agent_height: settings.agent_height,
            },
            suggest(Setting::AgentHeight, values),
        );
    }
    let Some((compact_index, compact)) = record.compact_of(cx, cz).find(|(_, s)| s.y == span.max)
    else {
        return (Some(Stage::Compact), Reason::NotRasterised, Vec::new());
    };
    if !compact.kept_by_erosion {
        let distance = wall_distance(record, compact_index, at, cells.walkable_radius);
        let values = (0..cells.walkable_radius)
            .rev()
            .take(4)
            .filter_map(|r| {
                first_down(f64::from(r) * record.cell_size, |v| {
                    Setting::AgentRadius
                        .with(settings, v)
                        .in_cells()
                        .walkable_radius
                        <= r
                })
            })
            .collect();
        return (
            Some(Stage::Erosion),
            Reason::NearWall {
                distance,
                radius: settings.agent_radius,
            },
            suggest(Setting::AgentRadius, values),
        );
    }
    if compact.region == 0 {
        let spans = island_spans(record, compact_index);
        let cell_area = record.cell_size * record.cell_size;
        let largest = (spans as f64).sqrt().floor() as u16;
        let values = (0..=largest.min(settings.region_min_size.saturating_sub(1)))
            .rev()
            .take(3)
            .map(f64::from)
            .collect();
        return (
            Some(Stage::Regions),
            Reason::SmallRegion {
                area: spans as f64 * cell_area,
                min_area: f64::from(cells.min_region_area) * cell_area,
            },
            suggest(Setting::RegionMinSize, values),
        );
    }
    match polygon_at(&record.polygons, settings, at, surface.height) {
        Some(polygon) => (
            None,
            Reason::Kept {
                polygon,
                island: record.polygon_islands.get(polygon).copied().unwrap_or(0),
            },
            Vec::new(),
        ),
        None => {
            let distance = nearest_polygon(&record.polygons, settings, at, surface.height);
            let error = settings.edge_max_error;
            let values = [error / 2.0, error / 4.0, 0.1]
                .into_iter()
                .filter(|&v| v < error)
                .map(|v| (v * 100.0).floor() / 100.0)
                .collect();
            (
                Some(Stage::Contours),
                Reason::OutlineSimplified { distance },
                suggest(Setting::EdgeMaxError, values),
            )
        }
    }
}

/// Why the ledge filter dropped span `span_index` of cell (cx, cz): as the filter measures it
/// (each neighbour's floors with room enough between, the lowest against the climb, and the
/// accessible ones' spread).
fn ledge(
    record: &BuildRecord,
    settings: &BuildSettings,
    cx: u16,
    cz: u16,
    span_index: usize,
    suggest: &dyn Fn(Setting, Vec<f64>) -> Vec<Suggestion>,
) -> (Option<Stage>, Reason, Vec<Suggestion>) {
    let cells = settings.in_cells();
    let (height, climb) = (
        i32::from(cells.walkable_height),
        i32::from(cells.walkable_climb),
    );
    let top = |cx: u16, cz: u16, index: usize| {
        record
            .spans_of(cx, cz)
            .find(|&(i, _)| i > index)
            .map_or(i32::from(u16::MAX), |(_, s)| i32::from(s.min))
    };
    let Some(span) = record.spans.get(span_index) else {
        return (Some(Stage::Ledges), Reason::GroundEnds, Vec::new());
    };
    let floor = i32::from(span.max);
    let ceiling = top(cx, cz, span_index);
    let mut lowest = i32::from(u16::MAX);
    let (mut low, mut high) = (floor, floor);
    let ground_ends = (Some(Stage::Ledges), Reason::GroundEnds, Vec::new());
    for (dx, dz) in DIRECTIONS {
        let (nx, nz) = (i32::from(cx) + dx, i32::from(cz) + dz);
        if nx < 0 || nz < 0 || nx >= i32::from(record.grid[0]) || nz >= i32::from(record.grid[1]) {
            return ground_ends;
        }
        let (nx, nz) = (nx as u16, nz as u16);
        let first_bottom = record
            .spans_of(nx, nz)
            .next()
            .map_or(i32::from(u16::MAX), |(_, s)| i32::from(s.min));
        if ceiling.min(first_bottom) - floor >= height {
            return ground_ends;
        }
        for (i, neighbour) in record.spans_of(nx, nz) {
            let neighbour_floor = i32::from(neighbour.max);
            let neighbour_ceiling = top(nx, nz, i);
            if ceiling.min(neighbour_ceiling) - floor.max(neighbour_floor) < height {
                continue;
            }
            let difference = neighbour_floor - floor;
            lowest = lowest.min(difference);
            if difference.abs() <= climb {
                low = low.min(neighbour_floor);
                high = high.max(neighbour_floor);
            }
        }
    }
    let climb_values = |needed: i32| -> Vec<f64> {
        [needed, needed + 1]
            .into_iter()
            .filter_map(|n| {
                let n = u16::try_from(n).ok()?;
                first_up(f64::from(n) * record.cell_height, |v| {
                    Setting::MaxClimb
                        .with(settings, v)
                        .in_cells()
                        .walkable_climb
                        >= n
                })
            })
            .collect()
    };
    if lowest < -climb {
        let drop = f64::from(-lowest) * record.cell_height;
        (
            Some(Stage::Ledges),
            Reason::Ledge {
                drop,
                max_climb: settings.agent_max_climb,
            },
            suggest(Setting::MaxClimb, climb_values(-lowest)),
        )
    } else {
        let rise = f64::from(high - low) * record.cell_height;
        (
            Some(Stage::Ledges),
            Reason::SteepSteps {
                rise,
                max_climb: settings.agent_max_climb,
            },
            suggest(Setting::MaxClimb, climb_values(high - low)),
        )
    }
}

/// The distance from `at` to the nearest wall of the walkable area around compact span
/// `start` before the erosion: the nearest side of a span across which the agent cannot step,
/// looked for within a few cells more than the radius.
fn wall_distance(record: &BuildRecord, start: usize, at: [f64; 2], radius_cells: u16) -> f64 {
    let Some((sx, sz)) = record.compact_cell(start) else {
        return 0.0;
    };
    let reach = i32::from(radius_cells) + 2;
    let mut nearest = f64::from(reach) * record.cell_size;
    let mut seen = std::collections::HashSet::from([start]);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(index) = queue.pop_front() {
        let (Some(span), Some((x, z))) = (record.compact.get(index), record.compact_cell(index))
        else {
            continue;
        };
        let [x0, z0, x1, z1] = record.cell_rect(x, z);
        for (direction, &neighbour) in span.neighbours.iter().enumerate() {
            if neighbour == NO_NEIGHBOUR {
                let side = match direction {
                    0 => [[x0, z0], [x0, z1]],
                    1 => [[x0, z1], [x1, z1]],
                    2 => [[x1, z0], [x1, z1]],
                    _ => [[x0, z0], [x1, z0]],
                };
                nearest = nearest.min(segment_distance(at, side));
                continue;
            }
            let Some((nx, nz)) = record.compact_cell(neighbour as usize) else {
                continue;
            };
            let near = (i32::from(nx) - i32::from(sx)).abs() <= reach
                && (i32::from(nz) - i32::from(sz)).abs() <= reach;
            if near && seen.insert(neighbour as usize) {
                queue.push_back(neighbour as usize);
            }
        }
    }
    nearest
}

/// The distance from `p` to the segment `ab` in the plan.
fn segment_distance(p: [f64; 2], [a, b]: [[f64; 2]; 2]) -> f64 {
    let p = Vec2::from(p);
    crate::geom::closest_point_on_segment(Vec2::from(a), Vec2::from(b), p).distance(p)
}

/// How many spans the walkable area (after the erosion) around compact span `start` has.
fn island_spans(record: &BuildRecord, start: usize) -> usize {
    let mut seen = std::collections::HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(index) = stack.pop() {
        let Some(span) = record.compact.get(index) else {
            continue;
        };
        for &neighbour in &span.neighbours {
            let kept = record
                .compact
                .get(neighbour as usize)
                .is_some_and(|n| n.kept_by_erosion);
            if neighbour != NO_NEIGHBOUR && kept && seen.insert(neighbour as usize) {
                stack.push(neighbour as usize);
            }
        }
    }
    seen.len()
}

/// How far above or below a polygon's plane a point of its surface may be: Recast's polygon
/// corners sit on the cells' tops, up to a climb above the faces.
fn height_tolerance(settings: &BuildSettings) -> f64 {
    settings.agent_max_climb + 2.0 * settings.cell_height
}

/// The polygon whose plan holds `at` at about `height`.
fn polygon_at(
    mesh: &RawMesh,
    settings: &BuildSettings,
    at: [f64; 2],
    height: f64,
) -> Option<usize> {
    let tolerance = height_tolerance(settings);
    mesh.polygons.iter().position(|polygon| {
        polygon_height(mesh, polygon, at).is_some_and(|y| (y - height).abs() <= tolerance)
    })
}

/// The height of a convex polygon over `at`, if `at` is in its plan.
fn polygon_height(mesh: &RawMesh, polygon: &[usize], at: [f64; 2]) -> Option<f64> {
    let corner = |i: usize| polygon.get(i).and_then(|&v| mesh.positions.get(v)).copied();
    let first = corner(0)?;
    (1..polygon.len().saturating_sub(1)).find_map(|i| {
        let (b, c) = (corner(i)?, corner(i + 1)?);
        height_in_triangle([first, b, c], at)
    })
}

/// The distance in plan from `at` to the nearest polygon at about `height`.
fn nearest_polygon(mesh: &RawMesh, settings: &BuildSettings, at: [f64; 2], height: f64) -> f64 {
    let tolerance = height_tolerance(settings);
    let mut nearest = f64::INFINITY;
    for polygon in &mesh.polygons {
        for (i, &a) in polygon.iter().enumerate() {
            let b = polygon[(i + 1) % polygon.len()];
            let (Some(pa), Some(pb)) = (mesh.positions.get(a), mesh.positions.get(b)) else {
                continue;
            };
            if (pa[1] - height).abs() <= tolerance || (pb[1] - height).abs() <= tolerance {
                nearest = nearest.min(segment_distance(at, [[pa[0], pa[2]], [pb[0], pb[2]]]));
            }
        }
    }
    nearest
}
