//! Recast's build, stage by stage, on `rerecast`: rasterise the level's walkable triangles into
//! a heightfield of spans, filter it (low hanging obstacles, ledges, low ceilings), make the
//! compact field, erode it by the agent's radius, build the distance field and the watershed
//! regions, trace and simplify their contours, make convex polygons of them and the detail mesh.
//! The polygons come back in world units, with every stage's counts and time.

use super::record::{
    BuildRecord, NO_NEIGHBOUR, RecordedCompactSpan, RecordedContour, RecordedSpan,
};
use super::settings::{
    BuildSettings, LevelError, MAX_GRID_CELLS, MAX_VOLUMES, MarkedVolume, convex_hull,
};
use super::stages::Stage;
use crate::clock::Stopwatch;
use crate::navmesh::areas::{AreaId, MAX_AREA_TYPES};
use crate::navmesh::{Plane, RawMesh};
use rerecast::{
    AreaType, BuildContoursFlags, CompactHeightfield, ContourSet, ConvexVolume, DetailNavmesh,
    Heightfield, HeightfieldBuilder, PolygonNavmesh, TriMesh,
};

/// What each stage made.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct StageCounts {
    /// Triangles of the level.
    pub input_triangles: usize,
    /// Of those, walkable (not too steep).
    pub walkable_triangles: usize,
    /// The grid's cells across and deep.
    pub grid: [u16; 2],
    /// Walkable spans of the compact field.
    pub compact_spans: usize,
    /// Regions after the watershed (Recast's `maxRegions`).
    pub regions: usize,
    /// Contours (a region's holes joined to its outline).
    pub contours: usize,
    /// Holes that could not be joined to their region's outline, and are left out.
    pub holes_left_out: usize,
    /// Polygons of the polygon mesh.
    pub polygons: usize,
    /// Vertices of the polygon mesh.
    pub vertices: usize,
    /// Triangles of the detail mesh.
    pub detail_triangles: usize,
    /// Milliseconds of the whole build.
    pub milliseconds: f64,
}

/// A level built into a navmesh.
#[derive(Debug, Clone)]
pub struct LevelBuild {
    /// The polygons, in world units (XZ plane, Y up), vertices numbered as Recast's.
    pub polygons: RawMesh,
    /// The detail mesh: the polygons' plan cut into triangles that follow the ground's height
    /// (world units, XZ plane; a vertex shared by polygons is one vertex).
    pub detail: RawMesh,
    /// What each stage made.
    pub counts: StageCounts,
}

impl LevelBuild {
    /// The navmesh to search: the detail mesh (the polygons' plan, the ground's heights, so
    /// that a path's height is the floor's and stacked floors stay apart).
    pub fn into_navmesh(self) -> Result<crate::navmesh::NavMesh, crate::navmesh::BuildError> {
        raw_navmesh(self.detail)
    }

    /// The polygons alone as a navmesh (their corners' heights only), as Recast's polygon mesh
    /// is.
    pub fn polygon_navmesh(self) -> Result<crate::navmesh::NavMesh, crate::navmesh::BuildError> {
        raw_navmesh(self.polygons)
    }
}

/// A navmesh of a build's mesh (XZ plane; its vertices are shared already, so none is welded).
pub fn raw_navmesh(raw: RawMesh) -> Result<crate::navmesh::NavMesh, crate::navmesh::BuildError> {
    crate::navmesh::NavMesh::from_raw(
        raw,
        crate::navmesh::BuildOptions {
            plane: Plane::Xz,
            relative_weld_tolerance: 0.0,
        },
    )
}

/// The f32 value of a setting (the port computes in f32, as Recast does).
fn f32_of(value: f64) -> f32 {
    value as f32
}

/// Builds the navmesh of the level made of `positions` (Y up) and `faces` (polygons, each
/// fan-triangulated as Recast's demo reads OBJ faces).
pub fn build_navmesh(
    positions: &[[f64; 3]],
    faces: &[Vec<usize>],
    settings: &BuildSettings,
) -> Result<LevelBuild, LevelError> {
    run(positions, faces, &[], settings, None)
}

/// Builds the navmesh as [`build_recorded`] does, with the ground inside `volumes` marked with
/// their area types (kept apart in their own polygons, named in the meshes' area tables).
pub fn build_marked(
    positions: &[[f64; 3]],
    faces: &[Vec<usize>],
    volumes: &[MarkedVolume],
    settings: &BuildSettings,
) -> Result<(LevelBuild, BuildRecord), LevelError> {
    let mut record = BuildRecord::default();
    let build = run(positions, faces, volumes, settings, Some(&mut record))?;
    Ok((build, record))
}

/// Builds the navmesh as [`build_navmesh`] does, and keeps what every stage made.
pub fn build_recorded(
    positions: &[[f64; 3]],
    faces: &[Vec<usize>],
    settings: &BuildSettings,
) -> Result<(LevelBuild, BuildRecord), LevelError> {
    build_marked(positions, faces, &[], settings)
}

/// Times the stages one after another.
struct Lap {
    watch: Stopwatch,
    laps: Vec<f64>,
}

impl Lap {
    fn new() -> Self {
        Self {
            watch: Stopwatch::start(),
            laps: Vec::with_capacity(Stage::ALL.len()),
        }
    }

    /// Ends the current stage; `stages` of them share its time (one call makes both).
    fn lap(&mut self, stages: usize) {
        let lap = self.watch.elapsed().as_secs_f64() * 1000.0;
        self.laps.extend(std::iter::repeat_n(lap, stages));
        self.watch = Stopwatch::start();
    }
}

fn run(
    positions: &[[f64; 3]],
    faces: &[Vec<usize>],
    volumes: &[MarkedVolume],
    settings: &BuildSettings,
    mut record: Option<&mut BuildRecord>,
) -> Result<LevelBuild, LevelError> {
    settings.check()?;
    let (area_names, marks) = volume_areas(volumes)?;
    let started = Stopwatch::start();
    let mut lap = Lap::new();
    let stage = |stage: &'static str| {
        move |error: &dyn std::fmt::Display| LevelError::Stage {
            stage,
            message: error.to_string(),
        }
    };
    let mut trimesh = TriMesh {
        vertices: positions
            .iter()
            .map(|&[x, y, z]| glam::Vec3A::new(f32_of(x), f32_of(y), f32_of(z)))
            .collect(),
        ..TriMesh::default()
    };
    for face in faces {
        let Some((&first, rest)) = face.split_first() else {
            continue;
        };
        for pair in rest.windows(2) {
            let corners = [first, pair[0], pair[1]];
            if corners.iter().all(|&v| v < positions.len()) {
                let [a, b, c] = corners.map(|v| u32::try_from(v).unwrap_or(u32::MAX));
                trimesh.indices.push(glam::UVec3::new(a, b, c));
                trimesh.area_types.push(AreaType::NOT_WALKABLE);
            }
        }
    }
    let aabb = trimesh.compute_aabb().ok_or(LevelError::Empty)?;
    if trimesh.indices.is_empty() {
        return Err(LevelError::Empty);
    }
    let (cs, ch) = (f32_of(settings.cell_size), f32_of(settings.cell_height));
    let width = (f64::from(aabb.max.x - aabb.min.x) / settings.cell_size + 0.5).max(0.0) as u64;
    let depth = (f64::from(aabb.max.z - aabb.min.z) / settings.cell_size + 0.5).max(0.0) as u64;
    if width == 0 || depth == 0 {
        return Err(LevelError::NoFloor {
            width: f64::from(aabb.max.x - aabb.min.x),
            depth: f64::from(aabb.max.z - aabb.min.z),
            cell_size: settings.cell_size,
        });
    }
    if width.saturating_mul(depth) > MAX_GRID_CELLS
        || width > u64::from(u16::MAX)
        || depth > u64::from(u16::MAX)
    {
        return Err(LevelError::GridTooLarge {
            width,
            depth,
            cell_size: settings.cell_size,
            max: MAX_GRID_CELLS,
        });
    }
    let cells = settings.in_cells();
    let detail_sample_dist = if settings.detail_sample_dist < 0.9 {
        0.0
    } else {
        cs * f32_of(settings.detail_sample_dist)
    };
    let detail_sample_max_error = ch * f32_of(settings.detail_sample_max_error);

    let mut counts = StageCounts {
        input_triangles: trimesh.indices.len(),
        ..StageCounts::default()
    };
    trimesh.mark_walkable_triangles(f32_of(settings.agent_max_slope.to_radians()));
    counts.walkable_triangles = trimesh
        .area_types
        .iter()
        .filter(|a| a.is_walkable())
        .count();
    if let Some(record) = record.as_deref_mut() {
        record.origin = [aabb.min.x, aabb.min.y, aabb.min.z].map(f64::from);
        record.cell_size = f64::from(cs);
        record.cell_height = f64::from(ch);
        record.positions = positions.to_vec();
        record.triangles = trimesh.indices.iter().map(|t| t.to_array()).collect();
        record.walkable_triangles = trimesh.area_types.iter().map(|a| a.is_walkable()).collect();
    }
    lap.lap(1);

    let mut heightfield = HeightfieldBuilder {
        aabb,
        cell_size: cs,
        cell_height: ch,
    }
    .build()
    .map_err(|e| stage("the heightfield")(&e))?;
    heightfield
        .rasterize_triangles(&trimesh, cells.walkable_climb)
        .map_err(|e| stage("rasterising")(&e))?;
    if let Some(record) = record.as_deref_mut() {
        record.grid = [heightfield.width, heightfield.height];
        record_spans(&heightfield, record);
    }
    lap.lap(1);
    heightfield.filter_low_hanging_walkable_obstacles(cells.walkable_climb);
    if let Some(record) = record.as_deref_mut() {
        record_walkable(&heightfield, record, 1);
    }
    lap.lap(1);
    heightfield.filter_ledge_spans(cells.walkable_height, cells.walkable_climb);
    if let Some(record) = record.as_deref_mut() {
        record_walkable(&heightfield, record, 2);
    }
    lap.lap(1);
    heightfield.filter_walkable_low_height_spans(cells.walkable_height);
    if let Some(record) = record.as_deref_mut() {
        record_walkable(&heightfield, record, 3);
    }
    lap.lap(1);

    let mut compact = heightfield
        .into_compact(cells.walkable_height, cells.walkable_climb)
        .map_err(|e| stage("the compact field")(&e))?;
    counts.grid = [compact.width, compact.height];
    counts.compact_spans = compact.spans.len();
    if let Some(record) = record.as_deref_mut() {
        record_compact(&compact, record);
    }
    lap.lap(1);
    compact.erode_walkable_area(cells.walkable_radius);
    for mark in &marks {
        compact.mark_convex_poly_area(mark);
    }
    if let Some(record) = record.as_deref_mut() {
        for (kept, area) in record.compact.iter_mut().zip(&compact.areas) {
            kept.kept_by_erosion = area.is_walkable();
        }
    }
    lap.lap(1);
    compact.build_distance_field();
    if let Some(record) = record.as_deref_mut() {
        record.max_distance = compact.max_distance;
        for (span, &distance) in record.compact.iter_mut().zip(&compact.dist) {
            span.distance = distance;
        }
    }
    lap.lap(1);
    compact
        .build_regions(0, cells.min_region_area, cells.merge_region_area)
        .map_err(|e| stage("the regions")(&e))?;
    counts.regions = usize::from(compact.max_region.bits());
    if let Some(record) = record.as_deref_mut() {
        for (span, compact_span) in record.compact.iter_mut().zip(&compact.spans) {
            span.region = compact_span.region.bits();
        }
    }
    lap.lap(1);
    let mut contours = compact.build_contours(
        f32_of(settings.edge_max_error),
        cells.max_edge_len,
        BuildContoursFlags::DEFAULT,
    );
    if let Some(record) = record.as_deref_mut() {
        record.raw_contours = world_contours(&contours, |c| &c.raw_vertices);
    }
    counts.holes_left_out = super::holes::merge_region_holes(&mut contours);
    counts.contours = contours.contours.len();
    if let Some(record) = record.as_deref_mut() {
        record.contours = world_contours(&contours, |c| &c.vertices);
    }
    lap.lap(2);
    let polygon_mesh = contours
        .into_polygon_mesh(settings.verts_per_poly)
        .map_err(|e| stage("the polygons")(&e))?;
    let mut polygons = world_polygons(&polygon_mesh);
    let polygon_areas: Vec<AreaId> = polygon_mesh
        .areas
        .iter()
        .map(|&area| area_id(area))
        .collect();
    if !marks.is_empty() {
        polygons.polygon_areas = polygon_areas.clone();
        polygons.area_names = area_names.clone();
    }
    if let Some(record) = record.as_deref_mut() {
        record.polygon_islands = super::record::polygon_islands(&polygons);
        record.polygons = polygons.clone();
    }
    lap.lap(1);
    let grounded = super::detail_ground::regions_with_ground(&polygon_mesh, &compact).map_err(
        |super::detail_ground::NoGround { polygon }| LevelError::Stage {
            stage: "the detail mesh",
            message: format!("polygon {polygon} stands over no walkable ground"),
        },
    )?;
    let detail = DetailNavmesh::new(
        grounded.as_ref().unwrap_or(&polygon_mesh),
        &compact,
        detail_sample_dist,
        detail_sample_max_error,
    )
    .map_err(|e| stage("the detail mesh")(&e))?;
    counts.polygons = polygon_mesh.polygon_count();
    counts.vertices = polygon_mesh.vertices.len();
    counts.detail_triangles = detail.triangles.len();
    let (detail_triangles, detail_polygons) = world_detail(&detail);
    let mut detail = shared_corners(&detail_triangles);
    if !marks.is_empty() {
        detail.polygon_areas = detail_polygons
            .iter()
            .map(|&p| polygon_areas.get(p).copied().unwrap_or(0))
            .collect();
        detail.area_names = area_names;
    }
    if let Some(record) = record.as_deref_mut() {
        record.detail = detail_triangles;
        record.detail_mesh = detail.clone();
    }
    lap.lap(1);
    counts.milliseconds = started.elapsed().as_secs_f64() * 1000.0;
    if let Some(record) = record {
        record.milliseconds = lap.laps;
    }
    Ok(LevelBuild {
        polygons,
        detail,
        counts,
    })
}

/// Every span of the heightfield as rasterised.
fn record_spans(heightfield: &Heightfield, record: &mut BuildRecord) {
    let cells = usize::from(heightfield.width) * usize::from(heightfield.height);
    record.spans.clear();
    record.span_columns = Vec::with_capacity(cells + 1);
    for key in &heightfield.spans {
        record.span_columns.push(record.spans.len() as u32);
        let mut next = *key;
        while let Some(key) = next {
            let span = heightfield.span(key);
            let walkable = span.area.is_walkable();
            record.spans.push(RecordedSpan {
                min: span.min,
                max: span.max,
                walkable: [walkable; 4],
            });
            next = span.next;
        }
    }
    record.span_columns.push(record.spans.len() as u32);
}

/// The spans' walkable flags after filter `filter` (the spans themselves stay as they were).
fn record_walkable(heightfield: &Heightfield, record: &mut BuildRecord, filter: usize) {
    let mut recorded = record.spans.iter_mut();
    for key in &heightfield.spans {
        let mut next = *key;
        while let Some(key) = next {
            let span = heightfield.span(key);
            if let Some(kept) = recorded.next() {
                for flag in kept.walkable.iter_mut().skip(filter) {
                    *flag = span.area.is_walkable();
                }
            }
            next = span.next;
        }
    }
}

/// The compact field's spans and their neighbours.
fn record_compact(compact: &CompactHeightfield, record: &mut BuildRecord) {
    record.compact = Vec::with_capacity(compact.spans.len());
    record.compact_columns = Vec::with_capacity(compact.cells.len() + 1);
    for z in 0..compact.height {
        for x in 0..compact.width {
            let cell = compact.cell_at(x, z);
            // An empty cell's index is not set: the column starts where the spans are.
            record.compact_columns.push(record.compact.len() as u32);
            for index in cell.index_range() {
                let Some(span) = compact.spans.get(index) else {
                    continue;
                };
                let mut neighbours = [NO_NEIGHBOUR; 4];
                for (direction, neighbour) in neighbours.iter_mut().enumerate() {
                    if let Some(con) = span.con(direction as u8) {
                        let (_, _, index) =
                            compact.con_indices(i32::from(x), i32::from(z), direction as u8, con);
                        *neighbour = index as u32;
                    }
                }
                record.compact.push(RecordedCompactSpan {
                    y: span.y,
                    clearance: span.height(),
                    neighbours,
                    kept_by_erosion: true,
                    distance: 0,
                    region: 0,
                });
            }
        }
    }
    record.compact_columns.push(compact.spans.len() as u32);
}

/// The contours' corners (as traced, or simplified) in world units.
fn world_contours<T>(
    contours: &ContourSet,
    corners: impl Fn(&rerecast::Contour) -> &Vec<(glam::U16Vec3, T)>,
) -> Vec<RecordedContour> {
    let origin = contours.aabb.min;
    let (cs, ch) = (
        f64::from(contours.cell_size),
        f64::from(contours.cell_height),
    );
    let world = |v: &glam::U16Vec3| {
        [
            f64::from(origin.x) + f64::from(v.x) * cs,
            f64::from(origin.y) + f64::from(v.y) * ch,
            f64::from(origin.z) + f64::from(v.z) * cs,
        ]
    };
    contours
        .contours
        .iter()
        .map(|c| RecordedContour {
            region: c.region.bits(),
            points: corners(c).iter().map(|(v, _)| world(v)).collect(),
        })
        .collect()
}

/// Triangles as a mesh whose corners at the same place are one vertex (the detail mesh samples
/// a polygon's sides alike from both polygons, so shared corners are equal to the bit).
fn shared_corners(triangles: &[[[f64; 3]; 3]]) -> RawMesh {
    let mut index: std::collections::HashMap<[u64; 3], usize> = Default::default();
    let mut positions = Vec::new();
    let mut polygons = Vec::with_capacity(triangles.len());
    for triangle in triangles {
        let corners = triangle.map(|p| {
            *index.entry(p.map(f64::to_bits)).or_insert_with(|| {
                positions.push(p);
                positions.len() - 1
            })
        });
        polygons.push(corners.to_vec());
    }
    RawMesh::new(positions, polygons, Plane::Xz)
}

/// The area id of a polygon's Recast area: the default walkable area is ground, a marked one
/// is its own number.
fn area_id(area: AreaType) -> AreaId {
    if area == AreaType::DEFAULT_WALKABLE {
        0
    } else {
        area.0
            .min(u8::try_from(MAX_AREA_TYPES - 1).unwrap_or(u8::MAX))
    }
}

/// The area table of a build with `volumes` (the built-in names, then the volumes' own), and
/// each volume as Recast marks it (its area the id in that table).
fn volume_areas(volumes: &[MarkedVolume]) -> Result<(Vec<String>, Vec<ConvexVolume>), LevelError> {
    if volumes.len() > MAX_VOLUMES {
        return Err(LevelError::TooMany(format!(
            "{} marked volumes are more than the {MAX_VOLUMES} a build takes",
            volumes.len()
        )));
    }
    let mut names = crate::navmesh::areas::built_in_names();
    let mut marks = Vec::with_capacity(volumes.len());
    for volume in volumes {
        volume.check()?;
        let id = crate::navmesh::areas::intern(&mut names, &volume.area).ok_or_else(|| {
            LevelError::TooMany(format!(
                "more than {MAX_AREA_TYPES} area types: {} is one too many",
                crate::input::printable(&volume.area)
            ))
        })?;
        marks.push(ConvexVolume {
            vertices: convex_hull(&volume.points)
                .iter()
                .map(|&[x, z]| glam::Vec2::new(f32_of(x), f32_of(z)))
                .collect(),
            min_y: f32_of(volume.min_y),
            max_y: f32_of(volume.max_y),
            area: AreaType(id),
        });
    }
    Ok((names, marks))
}

/// The detail mesh's triangles in world units, and the polygon each is of.
fn world_detail(detail: &DetailNavmesh) -> (Vec<[[f64; 3]; 3]>, Vec<usize>) {
    let mut triangles = Vec::with_capacity(detail.triangles.len());
    let mut polygons = Vec::with_capacity(detail.triangles.len());
    for (polygon, mesh) in detail.meshes.iter().enumerate() {
        let base_vertex = mesh.base_vertex_index as usize;
        let first = mesh.base_triangle_index as usize;
        let last = first + mesh.triangle_count as usize;
        for triangle in detail.triangles.get(first..last).unwrap_or_default() {
            let corner = |i: u8| {
                detail
                    .vertices
                    .get(base_vertex + usize::from(i))
                    .map(|v| [v.x, v.y, v.z].map(f64::from))
            };
            if let (Some(a), Some(b), Some(c)) = (
                corner(triangle[0]),
                corner(triangle[1]),
                corner(triangle[2]),
            ) {
                triangles.push([a, b, c]);
                polygons.push(polygon);
            }
        }
    }
    (triangles, polygons)
}

/// The polygon mesh in world units.
fn world_polygons(mesh: &PolygonNavmesh) -> RawMesh {
    let origin = mesh.aabb.min;
    let (cs, ch) = (f64::from(mesh.cell_size), f64::from(mesh.cell_height));
    let positions = mesh
        .vertices
        .iter()
        .map(|v| {
            [
                f64::from(origin.x) + f64::from(v.x) * cs,
                f64::from(origin.y) + f64::from(v.y) * ch,
                f64::from(origin.z) + f64::from(v.z) * cs,
            ]
        })
        .collect();
    let polygons = mesh
        .polygons()
        .map(|polygon| polygon.map(usize::from).collect())
        .collect();
    RawMesh::new(positions, polygons, Plane::Xz)
}
