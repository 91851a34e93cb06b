//! Mesh diagnostics for level designers: what is wrong with an exported navmesh (islands,
//! pinch vertices, non-manifold edges, degenerate and needle triangles, duplicate and near-duplicate vertices,
//! T-junctions, inconsistent winding, overlaps, vertices off the plane), and a repair that welds
//! near-duplicates and splits edges at T-junctions.

mod checks;
mod prepared;
mod repair;

pub use repair::{RepairSummary, repair};

use super::{NavMesh, RawMesh};
use checks::*;
use prepared::prepare;
use serde::Serialize;
use std::collections::HashMap;

/// How sensitive the checks are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheckOptions {
    /// Triangles whose smallest angle is below this many degrees are needles.
    pub needle_degrees: f64,
    /// Vertices closer than this (relative to the mesh's largest bounding-box side) but not
    /// welded on load are near-duplicates; also the distance at which a vertex counts as lying
    /// on an edge (T-junction) and the depth below which triangles only touch.
    pub near_relative: f64,
    /// Vertices farther than this (relative to the horizontal diagonal) from the mesh's
    /// least-squares plane are off the plane.
    pub off_plane_relative: f64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            needle_degrees: 5.0,
            near_relative: 1e-4,
            off_plane_relative: 0.15,
        }
    }
}

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Breaks navigation: paths missing, wrong, or through nothing.
    Error,
    /// Suspicious or sloppy; may be intended.
    Warning,
}

/// The kinds of finding, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// More than one face-connected component.
    Islands,
    /// Parts of the mesh that meet at a vertex alone, sharing no edge there.
    PinchVertex,
    /// Edges shared by three or more triangles.
    NonManifoldEdge,
    /// Triangles with no area in the plane (collinear corners, repeated corners, vertical faces).
    DegenerateTriangle,
    /// Triangles with a tiny angle.
    NeedleTriangle,
    /// Vertices at the same position (welded on load).
    DuplicateVertex,
    /// Vertices a hair apart that are not welded: a seam with no connection across it.
    NearDuplicateVertex,
    /// A vertex on another triangle's border edge that is not one of its corners.
    TJunction,
    /// Triangles wound the other way from the rest.
    InconsistentWinding,
    /// Triangles overlapping in the projection plane.
    Overlap,
    /// Vertices far from the mesh's average plane (steep parts).
    OffPlane,
    /// A Polyanya file's own neighbour lists disagree with its polygons.
    NeighbourList,
}

impl FindingKind {
    /// Every kind, in report order: what breaks connectivity first, cosmetic last.
    pub const ALL: [FindingKind; 12] = [
        FindingKind::Islands,
        FindingKind::PinchVertex,
        FindingKind::NonManifoldEdge,
        FindingKind::NearDuplicateVertex,
        FindingKind::TJunction,
        FindingKind::NeighbourList,
        FindingKind::DegenerateTriangle,
        FindingKind::Overlap,
        FindingKind::InconsistentWinding,
        FindingKind::NeedleTriangle,
        FindingKind::DuplicateVertex,
        FindingKind::OffPlane,
    ];

    /// Its severity.
    pub fn severity(self) -> Severity {
        match self {
            FindingKind::NonManifoldEdge
            | FindingKind::DegenerateTriangle
            | FindingKind::NearDuplicateVertex
            | FindingKind::TJunction
            | FindingKind::NeighbourList => Severity::Error,
            _ => Severity::Warning,
        }
    }

    /// The name used in reports (as in the JSON).
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Islands => "islands",
            FindingKind::PinchVertex => "pinch_vertex",
            FindingKind::NonManifoldEdge => "non_manifold_edge",
            FindingKind::DegenerateTriangle => "degenerate_triangle",
            FindingKind::NeedleTriangle => "needle_triangle",
            FindingKind::DuplicateVertex => "duplicate_vertex",
            FindingKind::NearDuplicateVertex => "near_duplicate_vertex",
            FindingKind::TJunction => "t_junction",
            FindingKind::InconsistentWinding => "inconsistent_winding",
            FindingKind::Overlap => "overlap",
            FindingKind::OffPlane => "off_plane",
            FindingKind::NeighbourList => "neighbour_list",
        }
    }

    /// What it means and why it matters, in a sentence.
    pub fn explain(self) -> &'static str {
        match self {
            FindingKind::Islands => {
                "The mesh falls apart into pieces with no shared edge: no path leads from one to another."
            }
            FindingKind::PinchVertex => {
                "Parts of the mesh meet at a vertex alone, with no edge shared there: they look joined, but no path passes from one to the other through that vertex (as in Detour and Polyanya)."
            }
            FindingKind::NonManifoldEdge => {
                "An edge shared by three or more triangles (overlapping layers or a fold): which side a path takes is arbitrary."
            }
            FindingKind::DegenerateTriangle => {
                "A triangle with no area in the plane (collinear or repeated corners, or a vertical wall face): dropped on load."
            }
            FindingKind::NeedleTriangle => {
                "A very thin triangle: legal, but it makes corridors zig-zag and portals tiny."
            }
            FindingKind::DuplicateVertex => {
                "Vertices at the same position: welded on load, but the exporter wrote them twice."
            }
            FindingKind::NearDuplicateVertex => {
                "Vertices a hair apart (float noise in the export) that are not welded: the faces on either side are not connected."
            }
            FindingKind::TJunction => {
                "A vertex lies on another triangle's edge without being its corner: the faces there share no edge, so they are not connected."
            }
            FindingKind::InconsistentWinding => {
                "Triangles wound the other way from the rest (flipped faces)."
            }
            FindingKind::Overlap => {
                "Triangles overlapping in the plane: which one a point is on is ambiguous (a multi-level mesh does this on purpose)."
            }
            FindingKind::OffPlane => {
                "Vertices far above or below the mesh's average plane: steep parts, or geometry that is not floor."
            }
            FindingKind::NeighbourList => {
                "The file's own neighbour lists disagree with its polygons. Polyanya follows these lists (navlab rebuilds adjacency from shared vertices), so Polyanya's paths here would go wrong."
            }
        }
    }
}

/// One occurrence of a finding, located.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FindingItem {
    /// Faces (polygons, 0-based in file order) involved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub faces: Vec<usize>,
    /// Vertices (0-based in file order) involved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vertices: Vec<usize>,
    /// Where it is, in the plane (x, z for XZ meshes).
    pub at: [f64; 2],
    /// Details in words.
    pub note: String,
}

/// All occurrences of one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The kind.
    pub kind: FindingKind,
    /// Its severity.
    pub severity: Severity,
    /// Number of items.
    pub count: usize,
    /// The occurrences.
    pub items: Vec<FindingItem>,
}

/// The diagnostics of a mesh.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// Face-connected components after welding.
    pub islands: usize,
    /// Findings by kind (only kinds that occur), in [`FindingKind::ALL`] order.
    pub findings: Vec<Finding>,
}

impl CheckReport {
    /// True when nothing was found.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// True when some finding is an error.
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// How many items were found of the kinds with this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(|f| f.count)
            .sum()
    }

    /// The finding of `kind`, if any.
    pub fn get(&self, kind: FindingKind) -> Option<&Finding> {
        self.findings.iter().find(|f| f.kind == kind)
    }
}

/// Checks the mesh as given (its [`NavMesh::raw`] polygons), with the default welding.
pub fn check(mesh: &NavMesh, options: &CheckOptions) -> CheckReport {
    check_raw(mesh.raw(), options)
}

/// Checks polygons as read from a file.
pub fn check_raw(raw: &RawMesh, options: &CheckOptions) -> CheckReport {
    let prep = prepare(raw, options);
    let mut findings: HashMap<FindingKind, Vec<FindingItem>> = HashMap::new();
    let mut add = |kind: FindingKind, items: Vec<FindingItem>| {
        if !items.is_empty() {
            findings.entry(kind).or_default().extend(items);
        }
    };
    add(FindingKind::DegenerateTriangle, prep.degenerate.clone());

    let (islands, island_items) = islands(&prep);
    if islands > 1 {
        add(FindingKind::Islands, island_items);
    }
    add(FindingKind::NonManifoldEdge, non_manifold(&prep));
    add(
        FindingKind::NeedleTriangle,
        needles(&prep, options.needle_degrees),
    );
    add(FindingKind::DuplicateVertex, duplicates(raw, &prep));
    let near = near_duplicates(&prep);
    let junctions = t_junctions(&prep);
    // Faces that touch at a vertex because a seam was not welded or meets a T-junction are
    // reported as that, not again as a pinch: a pinch is one the repair leaves.
    let mut pinch_items = pinches(&prep);
    let something_to_repair = !near.is_empty() || !junctions.is_empty();
    if something_to_repair && !pinch_items.is_empty() {
        let (repaired, _) = repair(raw, options);
        let left = pinches(&prepare(&repaired, options));
        let tolerance = prep.near;
        pinch_items.retain(|item| {
            left.iter()
                .any(|kept| (kept.at[0] - item.at[0]).hypot(kept.at[1] - item.at[1]) <= tolerance)
        });
    }
    add(FindingKind::PinchVertex, pinch_items);
    add(FindingKind::NearDuplicateVertex, near);
    add(FindingKind::TJunction, junctions);
    add(FindingKind::InconsistentWinding, winding(raw, &prep));
    add(FindingKind::Overlap, overlaps(&prep));
    add(
        FindingKind::OffPlane,
        off_plane(&prep, options.off_plane_relative),
    );
    add(FindingKind::NeighbourList, neighbour_lists(raw, &prep));

    let findings = FindingKind::ALL
        .iter()
        .filter_map(|&kind| {
            let items = findings.remove(&kind)?;
            Some(Finding {
                kind,
                severity: kind.severity(),
                count: items.len(),
                items,
            })
        })
        .collect();
    CheckReport { islands, findings }
}
