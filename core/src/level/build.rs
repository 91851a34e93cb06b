//! Recast's build, stage by stage, on `rerecast`: rasterise the level's walkable triangles into
//! a heightfield of spans, filter it (low hanging obstacles, ledges, low ceilings), make the
//! compact field, erode it by the agent's radius, build the distance field and the watershed
//! regions, trace and simplify their contours, make convex polygons of them and the detail mesh.
//! The polygons come back in world units, with every stage's counts and time.

use super::settings::{BuildSettings, LevelError, MAX_GRID_CELLS};
use crate::navmesh::{Plane, RawMesh};
use rerecast::{
    AreaType, BuildContoursFlags, DetailNavmesh, HeightfieldBuilder, PolygonNavmesh, TriMesh,
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
    /// Contours.
    pub contours: usize,
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
    /// What each stage made.
    pub counts: StageCounts,
}

impl LevelBuild {
    /// The polygons as a navmesh (XZ plane, Y up; Recast's vertices are shared already, so none
    /// is welded).
    pub fn into_navmesh(self) -> Result<crate::navmesh::NavMesh, crate::navmesh::BuildError> {
        crate::navmesh::NavMesh::from_raw(
            self.polygons,
            crate::navmesh::BuildOptions {
                plane: Plane::Xz,
                relative_weld_tolerance: 0.0,
            },
        )
    }
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
    settings.check()?;
    let started = crate::clock::now();
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
    // RecastDemo's parameters in cells.
    let walkable_height = (settings.agent_height / settings.cell_height).ceil() as u16;
    let walkable_climb = (settings.agent_max_climb / settings.cell_height).floor() as u16;
    let walkable_radius = (settings.agent_radius / settings.cell_size).ceil() as u16;
    let max_edge_len = (settings.edge_max_len / settings.cell_size) as u16;
    let min_region_area = settings.region_min_size * settings.region_min_size;
    let merge_region_area = settings.region_merge_size * settings.region_merge_size;
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

    let mut heightfield = HeightfieldBuilder {
        aabb,
        cell_size: cs,
        cell_height: ch,
    }
    .build()
    .map_err(|e| stage("the heightfield")(&e))?;
    heightfield
        .rasterize_triangles(&trimesh, walkable_climb)
        .map_err(|e| stage("rasterising")(&e))?;
    heightfield.filter_low_hanging_walkable_obstacles(walkable_climb);
    heightfield.filter_ledge_spans(walkable_height, walkable_climb);
    heightfield.filter_walkable_low_height_spans(walkable_height);

    let mut compact = heightfield
        .into_compact(walkable_height, walkable_climb)
        .map_err(|e| stage("the compact field")(&e))?;
    counts.grid = [compact.width, compact.height];
    counts.compact_spans = compact.spans.len();
    compact.erode_walkable_area(walkable_radius);
    compact.build_distance_field();
    compact
        .build_regions(0, min_region_area, merge_region_area)
        .map_err(|e| stage("the regions")(&e))?;
    counts.regions = usize::from(compact.max_region.bits());
    let contours = compact.build_contours(
        f32_of(settings.edge_max_error),
        max_edge_len,
        BuildContoursFlags::DEFAULT,
    );
    counts.contours = contours.contours.len();
    let polygon_mesh = contours
        .into_polygon_mesh(settings.verts_per_poly)
        .map_err(|e| stage("the polygons")(&e))?;
    let detail = DetailNavmesh::new(
        &polygon_mesh,
        &compact,
        detail_sample_dist,
        detail_sample_max_error,
    )
    .map_err(|e| stage("the detail mesh")(&e))?;
    counts.polygons = polygon_mesh.polygon_count();
    counts.vertices = polygon_mesh.vertices.len();
    counts.detail_triangles = detail.triangles.len();
    counts.milliseconds = started.elapsed().as_secs_f64() * 1000.0;
    Ok(LevelBuild {
        polygons: world_polygons(&polygon_mesh),
        counts,
    })
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
