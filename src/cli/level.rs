//! `navlab build`: a navmesh built from level geometry by Recast's stages, written as OBJ or a
//! Polyanya mesh, with every stage's counts; `navlab why`: why the ground at a point of a level
//! is or is not on it.

use super::args::LevelBuildArgs;
use crate::navmesh::{Plane, obj};
use std::path::Path;
use std::process::ExitCode;

/// Parses `--area NAME=X0,Z0,X1,Z1`: the ground of that rectangle, at any height, marked with
/// the area type `NAME`.
pub fn parse_volume(text: &str) -> Result<crate::level::MarkedVolume, String> {
    let (name, rect) = text
        .split_once('=')
        .ok_or_else(|| "write NAME=X0,Z0,X1,Z1, e.g. mud=2,0,4,6".to_string())?;
    let numbers: Vec<f64> = rect
        .split(',')
        .map(|n| n.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| "write four numbers after the name: X0,Z0,X1,Z1".to_string())?;
    let [x0, z0, x1, z1] = numbers[..] else {
        return Err("write four numbers after the name: X0,Z0,X1,Z1".to_string());
    };
    let limit = crate::input::MAX_COORDINATE;
    let volume = crate::level::MarkedVolume {
        points: vec![[x0, z0], [x1, z0], [x1, z1], [x0, z1]],
        min_y: -limit,
        max_y: limit,
        area: name.trim().to_string(),
    };
    volume.check().map_err(|e| e.to_string())?;
    Ok(volume)
}

/// Reads a level OBJ (Y up) for `build` and `why`; a Polyanya mesh is refused by name.
fn read_level(level: &Path) -> Result<crate::navmesh::RawMesh, ExitCode> {
    let shown = crate::input::shown(level);
    if crate::navmesh::polyanya::is_polyanya_path(level) {
        complain!(
            "error: {shown}: a Polyanya .mesh is a navmesh already; level commands read level geometry (OBJ, Y up)"
        );
        return Err(ExitCode::from(2));
    }
    obj::load_raw(level, Plane::Xz).map_err(|error| {
        complain!("error: {error}");
        ExitCode::from(2)
    })
}

/// Answers why the ground at `at` of `level` is or is not on its navmesh; exit 0 with the
/// answer, 2 for an unreadable level or a bad parameter.
pub(super) fn why_command(
    level: &Path,
    at: crate::geom::Vec2,
    floor: Option<usize>,
    args: &LevelBuildArgs,
    json: bool,
) -> ExitCode {
    let shown = crate::input::shown(level);
    let raw = match read_level(level) {
        Ok(raw) => raw,
        Err(code) => return code,
    };
    let settings = args.settings();
    let answer = match crate::level::why(
        &raw.positions,
        &raw.polygons,
        &settings,
        [at.x, at.y],
        floor,
    ) {
        Ok(answer) => answer,
        Err(error) => {
            complain!("error: {shown}: {error}");
            return ExitCode::from(2);
        }
    };
    if json {
        let suggestion = answer.suggestion.map(|s| {
            serde_json::json!({
                "setting": s.setting,
                "option": s.setting.flag(),
                "from": s.from,
                "to": s.to,
            })
        });
        let mut object = serde_json::json!({
            "level": shown,
            "settings": settings,
            "kept": answer.is_kept(),
            "sentence": answer.sentence(),
        });
        if let (Some(object), Ok(serde_json::Value::Object(fields))) =
            (object.as_object_mut(), serde_json::to_value(&answer))
        {
            object.extend(fields);
            object.insert("suggestion".into(), suggestion.unwrap_or_default());
        }
        say!("{object}");
    } else {
        say!("{}", answer.sentence());
        if let Some(stage) = answer.stage {
            say!("stage: {}", stage.title());
        }
        if let Some(s) = answer.suggestion {
            say!("try: {} {}", s.setting.flag(), s.to);
        }
    }
    ExitCode::SUCCESS
}

/// Builds the navmesh of `level` with `args` and writes it to `out` (the detail mesh, or with
/// `polygons` Recast's polygon mesh); exit 0, or 2 for an
/// unreadable level, a bad parameter, a level with no navmesh or a failed write.
pub(super) fn build_command(
    level: &Path,
    out: &Path,
    args: &LevelBuildArgs,
    volumes: &[crate::level::MarkedVolume],
    (polygons, links): (bool, bool),
    json: bool,
) -> ExitCode {
    let shown = crate::input::shown(level);
    let raw = match read_level(level) {
        Ok(raw) => raw,
        Err(code) => return code,
    };
    let built = match crate::level::build_marked(
        &raw.positions,
        &raw.polygons,
        volumes,
        &args.settings(),
    ) {
        Ok((built, _)) => built,
        Err(error) => {
            complain!("error: {shown}: {error}");
            return ExitCode::from(2);
        }
    };
    let counts = built.counts;
    let mesh = if polygons {
        built.polygon_navmesh()
    } else {
        built.into_navmesh()
    };
    let mesh = match mesh {
        Ok(mesh) => mesh,
        Err(error) => {
            complain!(
                "error: {shown}: no navmesh is left ({error}): every floor was too steep, too low, \
                 too narrow or too small for the agent"
            );
            return ExitCode::from(2);
        }
    };
    let what = if polygons { "polygons" } else { "detail mesh" };
    let comment = format!("{shown}, built by navlab (Recast's stages): the {what}");
    if let Err(code) = super::mesh::write_mesh(&mesh, out, &comment, false) {
        return code;
    }
    let mut islands = mesh.island_areas();
    islands.sort_by(|a, b| b.total_cmp(a));
    let plan_area: f64 = islands.iter().sum();
    let found = links.then(|| {
        let settings = args.settings();
        let search = crate::level::LinkSearch::for_agent(&settings);
        let candidates =
            crate::level::find_links(&mesh, &raw.positions, &raw.polygons, &settings, &search);
        let kept = crate::level::kept_links(&candidates, &search);
        let mut left_out: std::collections::BTreeMap<&'static str, usize> = Default::default();
        for c in &candidates {
            if let Err(why) = c.verdict {
                *left_out.entry(why.name()).or_default() += 1;
            }
        }
        let names = mesh.area_names().to_vec();
        // To the millimetre, as a person would write them.
        let mm = |v: f64| (v * 1000.0).round() / 1000.0;
        let texts: Vec<String> = kept
            .iter()
            .map(|l| {
                let mut l = l.clone();
                l.from = crate::geom::Vec2::new(mm(l.from.x), mm(l.from.y));
                l.to = crate::geom::Vec2::new(mm(l.to.x), mm(l.to.y));
                l.from_height = l.from_height.map(mm);
                l.to_height = l.to_height.map(mm);
                l.to_text(&names)
            })
            .collect();
        (candidates.len(), texts, left_out)
    });
    if json {
        let answer = serde_json::json!({
            "level": shown,
            "out": crate::input::shown(out),
            "settings": args.settings(),
            "stages": counts,
            "islands": islands.len(),
            "island_areas": islands,
            "plan_area": plan_area,
            "triangles": mesh.triangles().len(),
            "polygons": counts.polygons,
        });
        let mut answer = answer;
        if let Some((tried, texts, left_out)) = &found {
            answer["links"] = serde_json::json!({
                "tried": tried,
                "kept": texts,
                "left_out": left_out,
            });
        }
        say!("{answer}");
    } else {
        let decimal = |v: f64| crate::words::decimal(v, 2);
        say!("{} built from {shown}", crate::input::shown(out));
        say!(
            "input: {} triangles, {} walkable (not steeper than {}°)",
            counts.input_triangles,
            counts.walkable_triangles,
            args.settings().agent_max_slope
        );
        say!(
            "grid: {} × {} cells, {} walkable spans; {} regions, {} contours",
            counts.grid[0],
            counts.grid[1],
            counts.compact_spans,
            counts.regions,
            counts.contours
        );
        say!(
            "navmesh: {} polygons, {} vertices ({} triangles; detail mesh {} triangles)",
            counts.polygons,
            counts.vertices,
            mesh.triangles().len(),
            counts.detail_triangles
        );
        say!(
            "islands: {}, plan area {} (largest {})",
            islands.len(),
            decimal(plan_area),
            islands.first().map_or("none".to_string(), |&a| decimal(a))
        );
        say!("time: {} ms", decimal(counts.milliseconds));
        if let Some((tried, texts, left_out)) = &found {
            let reasons: Vec<String> = left_out
                .iter()
                .map(|(why, n)| format!("{n} {why}"))
                .collect();
            say!(
                "links: {} border points tried, {} kept; left out: {}",
                tried,
                texts.len(),
                if reasons.is_empty() {
                    "none".to_string()
                } else {
                    reasons.join(", ")
                }
            );
            for text in texts {
                say!("  --link {text}");
            }
        }
    }
    ExitCode::SUCCESS
}
