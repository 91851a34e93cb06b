//! Shapes on the command line: `--rect`, `--circle` and `--polygon` obstacles and
//! `--area-cost`, shared by `cut` and `path`; and the `cut` command, which writes the mesh with
//! the obstacles cut out.

use crate::geom::Vec2;
use crate::navmesh::NavMesh;
use crate::navmesh::areas::{AreaCostError, AreaCosts};
use crate::navmesh::edit::{MeshEditor, Shape, ShapeKind, shape::DEFAULT_CIRCLE_SIDES};
use serde_json::json;
use std::process::ExitCode;
use std::sync::Arc;

/// Obstacles to cut before anything else is done with the mesh.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ObstacleArgs {
    /// A rectangular obstacle with corners X0,Z0 and X1,Z1 (repeatable).
    #[arg(long = "rect", value_name = "X0,Z0,X1,Z1", value_parser = parse_rect, allow_hyphen_values = true)]
    pub rects: Vec<Shape>,
    /// A round obstacle around X,Z of radius R, made a polygon of --circle-sides sides
    /// (repeatable).
    #[arg(long = "circle", value_name = "X,Z,R", value_parser = parse_circle, allow_hyphen_values = true)]
    pub circles: Vec<[f64; 3]>,
    /// Sides of each --circle.
    #[arg(long, default_value_t = DEFAULT_CIRCLE_SIDES, value_parser = parse_sides)]
    pub circle_sides: usize,
    /// A polygonal obstacle, its corners in order: "X,Z X,Z X,Z ..." (at least three, not
    /// crossing itself; repeatable).
    #[arg(long = "polygon", value_name = "\"X,Z X,Z X,Z ...\"", value_parser = parse_polygon, allow_hyphen_values = true)]
    pub polygons: Vec<Shape>,
    /// A closed door: a rectangular obstacle that can be opened in the window, corners X0,Z0
    /// and X1,Z1 (repeatable).
    #[arg(long = "door", value_name = "X0,Z0,X1,Z1", value_parser = parse_rect, allow_hyphen_values = true)]
    pub doors: Vec<Shape>,
    /// An open door: drawn, not cut, until it is closed in the window (repeatable).
    #[arg(long = "open-door", value_name = "X0,Z0,X1,Z1", value_parser = parse_rect, allow_hyphen_values = true)]
    pub open_doors: Vec<Shape>,
    /// A rectangle of an area type, NAME=X0,Z0,X1,Z1 (e.g. mud=2,0,4,6): the mesh is split
    /// along it and what it covers gets that type (repeatable).
    #[arg(long = "area", value_name = "NAME=X0,Z0,X1,Z1", value_parser = parse_area, allow_hyphen_values = true)]
    pub areas: Vec<(String, Shape)>,
}

impl ObstacleArgs {
    /// The shapes for `mesh`, in the order: rectangles, circles, polygons, doors, areas; an
    /// area type the mesh does not have is an error naming those it has.
    pub fn shapes(&self, mesh: &NavMesh) -> Result<Vec<Shape>, String> {
        let mut shapes = self.rects.clone();
        for &[x, z, r] in &self.circles {
            shapes.push(
                Shape::circle(Vec2::new(x, z), r, self.circle_sides, ShapeKind::Obstacle)
                    .map_err(|e| format!("--circle {x},{z},{r}: {e}"))?,
            );
        }
        shapes.extend(self.polygons.iter().cloned());
        for (doors, open) in [(&self.doors, false), (&self.open_doors, true)] {
            shapes.extend(doors.iter().map(|door| Shape {
                kind: ShapeKind::Door { open },
                ..door.clone()
            }));
        }
        let names = mesh.area_names();
        for (name, shape) in &self.areas {
            let area = names
                .iter()
                .position(|n| n == name)
                .and_then(|a| u8::try_from(a).ok())
                .ok_or_else(|| {
                    format!(
                        "--area {name}=…: this mesh's area types are {}",
                        names.join(", ")
                    )
                })?;
            shapes.push(Shape {
                kind: ShapeKind::Area { area },
                ..shape.clone()
            });
        }
        Ok(shapes)
    }

    /// The mesh at `path` and these shapes for it; an error is said on stderr, and the exit
    /// code returned.
    pub fn load_with_shapes(
        &self,
        path: &std::path::Path,
        read: crate::navmesh::ReadOptions,
    ) -> Result<(NavMesh, Vec<Shape>), ExitCode> {
        let mesh = super::mesh::load(path, read)?;
        match self.shapes(&mesh) {
            Ok(shapes) => Ok((mesh, shapes)),
            Err(message) => {
                complain!("error: {message}");
                Err(ExitCode::from(2))
            }
        }
    }

    /// True when no shape was given.
    pub fn is_empty(&self) -> bool {
        self.rects.is_empty()
            && self.circles.is_empty()
            && self.polygons.is_empty()
            && self.doors.is_empty()
            && self.open_doors.is_empty()
            && self.areas.is_empty()
    }
}

fn parse_area(text: &str) -> Result<(String, Shape), String> {
    let (name, rect) = text
        .split_once('=')
        .ok_or_else(|| "write NAME=X0,Z0,X1,Z1, e.g. mud=2,0,4,6".to_string())?;
    let name = name.trim();
    if !crate::navmesh::areas::is_valid_name(name) {
        return Err("an area name is 1 to 32 letters, digits, `_` or `-`".to_string());
    }
    Ok((name.to_string(), parse_rect(rect)?))
}

fn numbers(text: &str, what: &str, count: usize) -> Result<Vec<f64>, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() != count {
        return Err(format!("write {what}: {count} numbers separated by commas"));
    }
    parts
        .iter()
        .map(|s| match s.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!(
                "`{}` is not a finite number",
                crate::input::printable(s)
            )),
        })
        .collect()
}

fn parse_rect(text: &str) -> Result<Shape, String> {
    let n = numbers(text, "X0,Z0,X1,Z1", 4)?;
    if n[0] == n[2] || n[1] == n[3] {
        return Err("the rectangle has no area: its corners share an X or a Z".to_string());
    }
    Shape::rectangle(
        Vec2::new(n[0], n[1]),
        Vec2::new(n[2], n[3]),
        ShapeKind::Obstacle,
    )
    .map_err(|e| e.to_string())
}

fn parse_sides(text: &str) -> Result<usize, String> {
    use crate::navmesh::edit::shape::MAX_SHAPE_CORNERS;
    match text.trim().parse::<usize>() {
        Ok(n) if (3..=MAX_SHAPE_CORNERS).contains(&n) => Ok(n),
        _ => Err(format!("a circle has 3 to {MAX_SHAPE_CORNERS} sides")),
    }
}

fn parse_circle(text: &str) -> Result<[f64; 3], String> {
    let n = numbers(text, "X,Z,R", 3)?;
    if n[2] <= 0.0 {
        return Err("the radius must be above 0".to_string());
    }
    Ok([n[0], n[1], n[2]])
}

fn parse_polygon(text: &str) -> Result<Shape, String> {
    let corners = text
        .split_whitespace()
        .map(super::args::parse_point)
        .collect::<Result<Vec<Vec2>, String>>()?;
    if corners.len() < 3 {
        return Err(format!(
            "a polygon needs at least three corners \"X,Z X,Z X,Z\", got {}",
            corners.len()
        ));
    }
    Shape::polygon(&corners, ShapeKind::Obstacle).map_err(|e| e.to_string())
}

/// Parses `NAME=MULT`: an area type's name and its cost multiplier.
pub fn parse_area_cost(text: &str) -> Result<(String, f64), String> {
    let (name, cost) = text
        .split_once('=')
        .ok_or_else(|| "write NAME=MULT, e.g. mud=4".to_string())?;
    let name = name.trim();
    if !crate::navmesh::areas::is_valid_name(name) {
        return Err("an area name is 1 to 32 letters, digits, `_` or `-`".to_string());
    }
    let range = crate::navmesh::areas::COST_RANGE;
    match cost.trim().parse::<f64>() {
        Ok(v) if range.contains(&v) => Ok((name.to_string(), v)),
        _ => Err(format!(
            "the cost of {name} must be a number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// The area costs of `mesh`: the built-in ones, with `overrides` by name. An unknown name is an
/// error naming the types the mesh has.
pub fn area_costs(mesh: &NavMesh, overrides: &[(String, f64)]) -> Result<AreaCosts, String> {
    let names = mesh.area_names();
    let mut costs = AreaCosts::for_names(names);
    for (name, cost) in overrides {
        costs
            .set_named(names, name, *cost)
            .map_err(|error| match error {
                AreaCostError::UnknownName { .. } => format!("--area-cost {name}: {error}"),
                _ => error.to_string(),
            })?;
    }
    Ok(costs)
}

/// `mesh` with `shapes` cut out (its editor: the edited mesh and what was done), or a
/// message.
/// The shapes are counted and checked first, each error naming its shape; then all are cut
/// in one pass.
pub fn cut(mesh: NavMesh, shapes: Vec<Shape>) -> Result<MeshEditor, String> {
    use crate::navmesh::edit::MAX_SHAPES;
    if shapes.len() > MAX_SHAPES {
        return Err(format!(
            "{} shapes given; a mesh's edits hold at most {MAX_SHAPES}",
            shapes.len()
        ));
    }
    let checked = shapes
        .iter()
        .enumerate()
        .map(|(k, shape)| shape.checked().map_err(|e| format!("shape {}: {e}", k + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut editor = MeshEditor::new(Arc::new(mesh));
    editor.add_shapes(checked).map_err(|e| match shapes.len() {
        1 => format!("shape 1: {e}"),
        _ => e.to_string(),
    })?;
    Ok(editor)
}

pub(super) fn cut_command(
    mesh_path: &std::path::Path,
    out: &std::path::Path,
    obstacles: &ObstacleArgs,
    read: crate::navmesh::ReadOptions,
    json: bool,
) -> ExitCode {
    if obstacles.is_empty() {
        complain!(
            "error: no shape given: add --rect, --circle, --polygon, --door, --open-door or --area"
        );
        return ExitCode::from(2);
    }
    let (mesh, shapes) = match obstacles.load_with_shapes(mesh_path, read) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let area_before = mesh.summary().area;
    let count = shapes.len();
    let started = crate::clock::Stopwatch::start();
    let editor = match cut(mesh, shapes) {
        Ok(editor) => editor,
        Err(message) => {
            complain!("error: {}: {message}", crate::input::shown(mesh_path));
            return ExitCode::from(2);
        }
    };
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let cut = editor.mesh();
    let comment = format!(
        "{}, with {count} shapes cut by navlab",
        crate::input::shown(mesh_path)
    );
    // An OBJ is saved with its shapes beside it (the window opens the mesh editable again),
    // both as one save; a Polyanya mesh alone.
    if crate::navmesh::polyanya::is_polyanya_path(out) {
        if let Err(code) = super::mesh::write_mesh(cut, out, &comment, false) {
            return code;
        }
    } else {
        let text = cut.raw().to_obj(&comment);
        if let Err(message) =
            crate::navmesh::edit::saved::save_with_edits(out, text.as_bytes(), Some(&editor))
        {
            complain!("error: {message}");
            return ExitCode::from(2);
        }
    }
    let summary = cut.summary();
    if json {
        say!(
            "{}",
            json!({
                "triangles": summary.triangles,
                "area_before": area_before,
                "area_after": summary.area,
                "obstacles": count,
                "ms": ms,
            })
        );
    } else {
        say!(
            "{}: {} triangles, area {:.3} (was {area_before:.3}), {count} obstacles cut in {ms:.1} ms",
            crate::input::shown(out),
            summary.triangles,
            summary.area
        );
    }
    ExitCode::SUCCESS
}
