//! Lesson files (`.navlab`): what a teacher sends to students and a level designer attaches to
//! a bug report. The scene shown, the mesh and the map (a file beside the lesson, a built-in
//! one, or the file's text inside the lesson when it is edited or lives elsewhere), start and
//! goal, each view's options, the step shown and the camera; the pursuit's starting places and
//! options, from which the hunt is run again to the step shown. Versioned JSON; a lesson from a
//! newer navlab is refused, and a lesson reads no file outside its own folder.

pub use super::file_kinds::{EXTENSION, is_lesson_path};
use super::navmesh_scene::{MeshSource, NavmeshSettings};
use super::tile_map_scene::TileMapSettings;
use super::{NavlabApp, SceneKind};
use crate::geom::Vec2;
use serde::{Deserialize, Serialize};
use std::path::{Component, Path, PathBuf};

/// The lesson format this navlab writes and reads.
pub const LESSON_VERSION: u32 = 1;

/// The most bytes of a mesh's or map's text kept inside a lesson.
pub const MAX_EMBEDDED_BYTES: usize = 8 << 20;

/// The name a lesson gives navlab's built-in tile map.
pub const BUILT_IN_MAP: &str = "default";

/// A lesson, as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lesson {
    /// The format's version ([`LESSON_VERSION`]).
    pub navlab_lesson: u32,
    /// The view shown.
    pub scene: SceneKind,
    /// The step shown in that view.
    pub step: usize,
    /// The navmesh view (none in a level's recipe, which leaves it as it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub navmesh: Option<MeshPart>,
    /// The tile map (the tile-map and pursuit views; none in a level's recipe).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile_map: Option<MapPart>,
    /// The pursuit on that map (none in lessons of navlabs before it was in them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pursuit: Option<PursuitPart>,
    /// The level view (none in lessons of navlabs before it was in them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<LevelPart>,
}

/// The level view in a lesson: the level geometry, the build's parameters, the point asked
/// about, the cross-section, the height cut and the camera. The build is made again on opening.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LevelPart {
    /// The level geometry (an OBJ, Y up).
    pub level: Source,
    /// The build's parameters (checked on opening, as the command line checks them).
    pub settings: crate::level::BuildSettings,
    /// The point asked about (x, z).
    #[serde(default, deserialize_with = "optional_point_in_range")]
    pub asked: Option<[f64; 2]>,
    /// Which surface there, from the bottom (the top one when none).
    #[serde(default)]
    pub floor: Option<usize>,
    /// The cross-section's line.
    #[serde(default, deserialize_with = "line_in_range")]
    pub section: Option<[[f64; 2]; 2]>,
    /// The height cut.
    #[serde(default, deserialize_with = "height_in_range")]
    pub cut: Option<f64>,
    /// The camera, when it was moved from the whole level's view.
    #[serde(default, deserialize_with = "camera_in_range")]
    pub camera: Option<super::camera::Camera>,
    /// The marked volumes (each checked on opening, at most
    /// [`MAX_VOLUMES`](crate::level::MAX_VOLUMES)).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volumes: Vec<crate::level::MarkedVolume>,
    /// Whether off-mesh links are looked for on the navmesh built (kept only when not).
    #[serde(default = "looks_for_links", skip_serializing_if = "Clone::clone")]
    pub links: bool,
}

/// Off-mesh links are looked for unless a lesson says not.
fn looks_for_links() -> bool {
    true
}

/// The most mobs a lesson holds.
pub const MAX_LESSON_MOBS: usize = 256;

/// The pursuit in a lesson: where everyone starts and the options. The hunt is run again from
/// there to the lesson's step, the same steps each time (fixed time step, seeded kitten).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PursuitPart {
    /// The kitten's starting place, in tiles.
    #[serde(deserialize_with = "point_in_range")]
    pub kitten: [f64; 2],
    /// Each mob's starting place, in tiles.
    #[serde(deserialize_with = "mob_places")]
    pub mobs: Vec<[f64; 2]>,
    /// The rules' options: seed, trail, speeds, avoidance.
    pub config: crate::pursuit::PursuitConfig,
    /// Who moves the kitten.
    pub control: crate::pursuit::KittenControl,
    /// Simulated seconds per real second.
    pub speed: f64,
    /// The rays drawn.
    pub show_rays: bool,
    /// The legend shown.
    pub legend: bool,
    /// The mob whose rays are emphasised.
    #[serde(default)]
    pub selected: Option<usize>,
    /// The camera, when it was moved from the whole map's view.
    #[serde(default, deserialize_with = "camera_in_range")]
    pub camera: Option<super::camera::Camera>,
}

fn mob_places<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<[f64; 2]>, D::Error> {
    struct Places;
    impl<'de> serde::de::Visitor<'de> for Places {
        type Value = Vec<[f64; 2]>;
        fn expecting(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(out, "a list of at most {MAX_LESSON_MOBS} places")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut places = Vec::new();
            while let Some([x, y]) = seq.next_element::<[f64; 2]>()? {
                if places.len() == MAX_LESSON_MOBS {
                    return Err(serde::de::Error::custom(format_args!(
                        "{}more than {MAX_LESSON_MOBS} mobs",
                        crate::input::BEYOND_LIMIT
                    )));
                }
                places.push([coordinate_in_range(x)?, coordinate_in_range(y)?]);
            }
            Ok(places)
        }
    }
    d.deserialize_seq(Places)
}

/// Where a mesh or a map comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// A file in the lesson's folder (or below it), by its path relative to the lesson.
    File {
        /// The path, relative.
        path: String,
    },
    /// One of navlab's built-in meshes, by name.
    BuiltIn {
        /// The name ("rooms.obj").
        name: String,
    },
    /// The text of the file itself: an OBJ mesh, or a navlab `.json` map.
    Embedded {
        /// The text.
        text: String,
    },
}

/// The navmesh view in a lesson.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeshPart {
    /// The mesh.
    pub mesh: Source,
    /// Start point.
    #[serde(deserialize_with = "point_in_range")]
    pub start: [f64; 2],
    /// Goal point.
    #[serde(deserialize_with = "point_in_range")]
    pub goal: [f64; 2],
    /// The start's floor height, where floors overlap.
    #[serde(default, deserialize_with = "height_in_range")]
    pub start_height: Option<f64>,
    /// The goal's floor height.
    #[serde(default, deserialize_with = "height_in_range")]
    pub goal_height: Option<f64>,
    /// The view's options.
    pub settings: NavmeshSettings,
    /// The camera, when it was moved from the whole mesh's view.
    #[serde(default, deserialize_with = "camera_in_range")]
    pub camera: Option<super::camera::Camera>,
    /// The off-mesh links put on the mesh (edits: not in its file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<crate::navmesh::links::OffMeshLink>,
}

/// A coordinate a lesson may hold: within ±[`MAX_COORDINATE`](crate::input::MAX_COORDINATE),
/// as a mesh's vertices are.
fn coordinate_in_range<E: serde::de::Error>(value: f64) -> Result<f64, E> {
    let limit = crate::input::MAX_COORDINATE;
    match value.is_finite() && value.abs() <= limit {
        true => Ok(value),
        false => Err(E::custom(format_args!(
            "{}a coordinate beyond ±{limit:e}, the largest navlab takes",
            crate::input::BEYOND_LIMIT
        ))),
    }
}

fn point_in_range<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
    let [x, y] = <[f64; 2]>::deserialize(d)?;
    Ok([coordinate_in_range(x)?, coordinate_in_range(y)?])
}

fn optional_point_in_range<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<[f64; 2]>, D::Error> {
    Option::<[f64; 2]>::deserialize(d)?
        .map(|[x, y]| Ok([coordinate_in_range(x)?, coordinate_in_range(y)?]))
        .transpose()
}

fn line_in_range<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<[[f64; 2]; 2]>, D::Error> {
    Option::<[[f64; 2]; 2]>::deserialize(d)?
        .map(|line| {
            let mut checked = [[0.0; 2]; 2];
            for (point, out) in line.iter().zip(&mut checked) {
                *out = [
                    coordinate_in_range(point[0])?,
                    coordinate_in_range(point[1])?,
                ];
            }
            Ok(checked)
        })
        .transpose()
}

fn height_in_range<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Option::<f64>::deserialize(d)?
        .map(coordinate_in_range)
        .transpose()
}

/// A camera a lesson may hold: its centre a coordinate in range, its scale within the zoom's.
fn camera_in_range<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<super::camera::Camera>, D::Error> {
    let Some(camera) = Option::<super::camera::Camera>::deserialize(d)? else {
        return Ok(None);
    };
    let [x, y] = camera.center;
    coordinate_in_range::<D::Error>(x)?;
    coordinate_in_range::<D::Error>(y)?;
    let (low, high) = super::camera::SCALE_RANGE;
    if !(low..=high).contains(&camera.scale) {
        return Err(serde::de::Error::custom(format_args!(
            "{}a camera scale outside {low:e} to {high:e}",
            crate::input::BEYOND_LIMIT
        )));
    }
    Ok(Some(camera))
}

/// The tile map in a lesson.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapPart {
    /// The map.
    pub map: Source,
    /// Start cell (column, row).
    pub start: [usize; 2],
    /// Goal cell.
    pub goal: [usize; 2],
    /// The tile-map view's options.
    pub settings: TileMapSettings,
    /// The camera, when it was moved from the whole map's view.
    #[serde(default, deserialize_with = "camera_in_range")]
    pub camera: Option<super::camera::Camera>,
}

/// `file` as a lesson in `folder` names it: relative, when it is in the folder or below.
fn relative_to(file: &Path, folder: &Path) -> Option<String> {
    let file = std::fs::canonicalize(file).ok()?;
    let folder = std::fs::canonicalize(folder).ok()?;
    let rest = file.strip_prefix(&folder).ok()?;
    Some(
        rest.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// The file a lesson in `folder` names by `relative`, refused when it would lead outside the
/// folder (an absolute path, `..`, or a link out of it).
/// The folder a file is in: `.` for a bare name (whose parent is the empty path).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

fn resolve(relative: &str, folder: &Path) -> Result<PathBuf, String> {
    let path = Path::new(relative);
    if path
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(format!(
            "the lesson names a file outside its folder ({}); a lesson reads only files beside it",
            crate::input::quoted(relative)
        ));
    }
    let joined = folder.join(path);
    let real = std::fs::canonicalize(&joined).map_err(|_| {
        format!(
            "{}: the lesson's file is missing (looked for beside the lesson)",
            crate::input::quoted(relative)
        )
    })?;
    let home = std::fs::canonicalize(folder)
        .map_err(|e| format!("{}: the lesson's folder: {e}", crate::input::shown(folder)))?;
    if !real.starts_with(&home) {
        return Err(format!(
            "{}: leads outside the lesson's folder; a lesson reads only files beside it",
            crate::input::quoted(relative)
        ));
    }
    Ok(real)
}

impl NavlabApp {
    /// Reads the mesh a lesson's navmesh part names (nothing shown changes).
    fn read_mesh_part(
        &self,
        part: &MeshPart,
        name: &str,
        file_in: &dyn Fn(&str) -> Result<PathBuf, String>,
    ) -> Result<(crate::navmesh::NavMesh, MeshSource), String> {
        let read = part.settings.clamped().read_options();
        Ok(match &part.mesh {
            Source::File { path: relative } => {
                let file = file_in(relative)?;
                let mesh =
                    crate::navmesh::NavMesh::load_with(&file, read).map_err(|e| e.to_string())?;
                (mesh, MeshSource::File(file))
            }
            Source::BuiltIn { name: built_in } => {
                let scene = crate::assets::EmbeddedScene::named(built_in).ok_or_else(|| {
                    format!(
                        "{name}: no built-in mesh is called {}",
                        crate::input::quoted(built_in)
                    )
                })?;
                let mesh = scene.read(read).map_err(|e| e.to_string())?;
                (mesh, MeshSource::Embedded(scene))
            }
            Source::Embedded { text } => {
                // Kept as it was shown: the slope filter and the radius are already in it.
                let plain = crate::navmesh::ReadOptions {
                    plane: read.plane,
                    max_slope: None,
                    agent_radius: None,
                };
                // Its lines are the embedded text's, not the lesson's: named as a part of it.
                let part = format!("{name}[navmesh.mesh.text]");
                let raw = crate::navmesh::obj::parse_raw(text.as_bytes(), &part, read.plane)
                    .map_err(|e| e.to_string())?;
                let mesh = crate::navmesh::NavMesh::from_read(raw, &part, plain)
                    .map_err(|e| e.to_string())?;
                (
                    mesh,
                    MeshSource::Generated(format!(
                        "the mesh of {}",
                        crate::input::file_label(Path::new(name))
                    )),
                )
            }
        })
    }

    /// Reads the level a lesson names (nothing shown changes): its settings checked, its
    /// geometry read from the lesson's folder, the built-in one, or the lesson itself.
    fn read_level_part(
        &self,
        part: &LevelPart,
        name: &str,
        file_in: &dyn Fn(&str) -> Result<PathBuf, String>,
    ) -> Result<super::level_scene::LevelGeometry, String> {
        part.settings
            .check()
            .map_err(|e| format!("{name}: the level's build settings: {e}"))?;
        if part.volumes.len() > crate::level::MAX_VOLUMES {
            return Err(format!(
                "{name}: {} marked volumes are more than the {} a build takes",
                part.volumes.len(),
                crate::level::MAX_VOLUMES
            ));
        }
        for volume in &part.volumes {
            volume
                .check()
                .map_err(|e| format!("{name}: the level's volumes: {e}"))?;
        }
        let plane = crate::navmesh::Plane::Xz;
        match &part.level {
            Source::File { path: relative } => {
                let file = file_in(relative)?;
                let raw = crate::navmesh::obj::load_raw(&file, plane).map_err(|e| e.to_string())?;
                Ok(super::level_scene::LevelGeometry::new(
                    crate::input::file_label(&file),
                    Some(file),
                    raw.positions,
                    raw.polygons,
                ))
            }
            Source::BuiltIn { name: built_in }
                if built_in == crate::assets::PROVING_GROUND.name =>
            {
                Ok(super::level_scene::LevelGeometry::built_in())
            }
            Source::BuiltIn { name: built_in } => Err(format!(
                "{name}: no built-in level is called {}",
                crate::input::quoted(built_in)
            )),
            Source::Embedded { text } => {
                let part_name = format!("{name}[level.level.text]");
                let raw = crate::navmesh::obj::parse_raw(text.as_bytes(), &part_name, plane)
                    .map_err(|e| e.to_string())?;
                Ok(super::level_scene::LevelGeometry::new(
                    format!("the level of {}", crate::input::file_label(Path::new(name))),
                    None,
                    raw.positions,
                    raw.polygons,
                ))
            }
        }
    }

    /// The lesson of what is shown, to be written at `path` (files in its folder are named,
    /// others and edited documents are put inside).
    pub fn lesson(&self, path: &Path) -> Result<Lesson, String> {
        self.lesson_in(Some(folder_of(path)))
    }

    /// The lesson of what is shown, naming the files in `folder`; with no folder (a link),
    /// built-in documents by name and the others inside it.
    pub fn lesson_in(&self, folder: Option<&Path>) -> Result<Lesson, String> {
        let navmesh = &self.scenes.navmesh;
        let edited = navmesh.has_unsaved_edits() || navmesh.origin.unsaved_repair;
        let embedded_mesh = || {
            let text = navmesh
                .mesh()
                .raw()
                .to_obj("the mesh of a navlab lesson, as it was shown");
            if text.len() > MAX_EMBEDDED_BYTES {
                Err(format!(
                    "the mesh is too large to put inside the lesson ({}): save the lesson in the mesh's folder",
                    crate::input::bytes_in_words(text.len() as u64)
                ))
            } else {
                Ok(Source::Embedded { text })
            }
        };
        let mesh = match &navmesh.origin.source {
            MeshSource::Embedded(scene) if !edited => Source::BuiltIn {
                name: scene.name.to_string(),
            },
            MeshSource::File(file) if !edited => match folder.and_then(|f| relative_to(file, f)) {
                Some(path) => Source::File { path },
                None => embedded_mesh()?,
            },
            _ => embedded_mesh()?,
        };
        let camera = |camera: &super::camera::CanvasCamera| {
            (!camera.is_fitted()).then(|| camera.get()).flatten()
        };
        let map_doc = &self.map;
        let map = match (&map_doc.file, map_doc.dirty, folder) {
            (Some(file), false, Some(folder)) => {
                relative_to(file, folder).map(|path| Source::File { path })
            }
            (None, false, None) if map_doc.map == super::tile_map_scene::default_map() => {
                Some(Source::BuiltIn {
                    name: BUILT_IN_MAP.to_string(),
                })
            }
            _ => None,
        };
        let map = match map {
            Some(source) => source,
            None => {
                let text = crate::grid::movingai::to_navlab_json(&map_doc.map);
                if text.len() > MAX_EMBEDDED_BYTES {
                    return Err(format!(
                        "the map is too large to put inside the lesson ({}): save it in the lesson's folder first",
                        crate::input::bytes_in_words(text.len() as u64)
                    ));
                }
                Source::Embedded { text }
            }
        };
        let grid = &self.scenes.tile_map;
        let hunt = &self.scenes.pursuit;
        let (kitten, mobs) = hunt.starting_places();
        let point = |p: Vec2| [p.x, p.y];
        let pursuit = PursuitPart {
            kitten: point(kitten),
            mobs: mobs.iter().map(|&m| point(m)).collect(),
            config: hunt.settings.config.clone(),
            control: hunt.settings.control,
            speed: hunt.settings.speed,
            show_rays: hunt.settings.show_rays,
            legend: hunt.settings.legend,
            selected: hunt.selected,
            camera: camera(&hunt.camera),
        };
        let level = self.level_part(folder, camera(&self.scenes.level.camera))?;
        let kind = self.settings.scene;
        Ok(Lesson {
            navlab_lesson: LESSON_VERSION,
            scene: kind,
            step: self.scenes.get(kind).shown_step(),
            navmesh: Some(MeshPart {
                mesh,
                start: [navmesh.query.start.x, navmesh.query.start.y],
                goal: [navmesh.query.goal.x, navmesh.query.goal.y],
                start_height: navmesh.query.floors.start,
                goal_height: navmesh.query.floors.goal,
                settings: navmesh.settings.clone(),
                camera: camera(&navmesh.screen.camera),
                links: navmesh.editor().links().to_vec(),
            }),
            tile_map: Some(MapPart {
                map,
                start: [grid.start.0, grid.start.1],
                goal: [grid.goal.0, grid.goal.1],
                settings: grid.settings.clone(),
                camera: camera(&grid.camera),
            }),
            pursuit: Some(pursuit),
            level: Some(level),
        })
    }

    /// A level's recipe, to be written at `path`: a lesson of the level view alone (the level
    /// named as a lesson names it, its parameters and areas), which leaves the other views as
    /// they are when it is opened.
    pub fn level_recipe(&self, path: &Path) -> Result<Lesson, String> {
        let camera = &self.scenes.level.camera;
        let camera = (!camera.is_fitted()).then(|| camera.get()).flatten();
        Ok(Lesson {
            navlab_lesson: LESSON_VERSION,
            scene: SceneKind::Level,
            step: super::screenshot::Steps::shown_step(&self.scenes.level),
            navmesh: None,
            tile_map: None,
            pursuit: None,
            level: Some(self.level_part(Some(folder_of(path)), camera)?),
        })
    }

    /// The level view's part of a lesson: the built-in level by name, a file in `folder` by
    /// its path, any other level inside the lesson.
    fn level_part(
        &self,
        folder: Option<&Path>,
        camera: Option<super::camera::Camera>,
    ) -> Result<LevelPart, String> {
        let scene = &self.scenes.level;
        let geometry = scene.level();
        let level = match (&geometry.path, folder) {
            (None, _) if scene.shows_built_in() => Source::BuiltIn {
                name: crate::assets::PROVING_GROUND.name.to_string(),
            },
            (Some(file), Some(folder)) if relative_to(file, folder).is_some() => Source::File {
                path: relative_to(file, folder).unwrap_or_default(),
            },
            _ => {
                let raw = crate::navmesh::RawMesh::new(
                    geometry.positions.clone(),
                    geometry.faces.clone(),
                    crate::navmesh::Plane::Xz,
                );
                let text = raw.to_obj("the level of a navlab lesson (Y up)");
                if text.len() > MAX_EMBEDDED_BYTES {
                    return Err(format!(
                        "the level is too large to put inside the lesson ({}): save the lesson in the level's folder",
                        crate::input::bytes_in_words(text.len() as u64)
                    ));
                }
                Source::Embedded { text }
            }
        };
        let asked = scene.asked();
        Ok(LevelPart {
            level,
            settings: scene.build_settings(),
            asked: asked.map(|(at, _)| at),
            floor: asked.and_then(|(_, floor)| floor),
            section: scene.section().map(|[a, b]| [[a.x, a.y], [b.x, b.y]]),
            cut: scene.cut(),
            camera,
            volumes: scene.volumes().to_vec(),
            links: scene.finds_links(),
        })
    }

    /// Writes the lesson of what is shown to `path`, atomically.
    pub fn save_lesson(&mut self, path: &Path) -> Result<(), String> {
        let lesson = self.lesson(path)?;
        let text = serde_json::to_string_pretty(&lesson).map_err(|e| e.to_string())?;
        super::files::write_file(path, text.as_bytes())?;
        self.notice = Some(format!(
            "Saved the lesson as {}{}",
            crate::input::shown(path),
            self.pursuit_replay_caveat()
        ));
        Ok(())
    }

    /// What to add to a saved lesson's or a copied link's notice when the pursuit is shown and
    /// running it again from its start would not come to what is shown.
    pub(super) fn pursuit_replay_caveat(&self) -> &'static str {
        if self.settings.scene == SceneKind::Pursuit && !self.scenes.pursuit.replays_from_start() {
            " (the pursuit is run again from its start: the kitten driven or sent by hand, or \
             mobs added or options changed while it ran, will go their own way)"
        } else {
            ""
        }
    }

    /// [`save_lesson`](Self::save_lesson), its error in the banner.
    pub(super) fn save_lesson_reporting(&mut self, path: &Path) {
        if let Err(message) = self.save_lesson(path) {
            self.fail(super::SAVE_FAILED, message);
        }
    }

    /// Opens the lesson at `path`: its mesh and map read first, and only when both are there
    /// is anything shown changed; an error names what is wrong (the window keeps what it had).
    pub fn open_lesson(&mut self, path: &Path) -> Result<(), String> {
        let name = crate::input::shown(path);
        let bytes = crate::input::read_file(path, crate::input::MAX_LESSON_BYTES, "a lesson")
            .map_err(|e| format!("{name}: {e}"))?;
        self.open_lesson_bytes(&bytes, &name, Some(folder_of(path)))?;
        self.notice = Some(format!(
            "Opened the lesson {}",
            crate::input::file_label(path)
        ));
        Ok(())
    }

    /// Opens a lesson's bytes (`name` names it in messages): its mesh and map read first, and
    /// only when both are there is anything shown changed. Files it names are read from
    /// `folder`; with none (a browser, a link) only built-in and embedded documents open.
    pub fn open_lesson_bytes(
        &mut self,
        bytes: &[u8],
        name: &str,
        folder: Option<&Path>,
    ) -> Result<(), String> {
        crate::input::check_size(bytes, crate::input::MAX_LESSON_BYTES, "a lesson")
            .map_err(|e| format!("{name}: {e}"))?;
        let file_in = |relative: &str| match folder {
            Some(folder) => resolve(relative, folder).map_err(|e| format!("{name}: {e}")),
            None => Err(format!(
                "{name}: names a file beside it ({}), which a lesson opened in a browser or from a \
                 link cannot read: save the lesson with the mesh or map edited or built in",
                crate::input::quoted(relative)
            )),
        };
        let value: serde_json::Value = serde_json::from_slice(bytes)
            .map_err(|e| format!("{name}: not a lesson: {}", crate::input::json_problem(&e)))?;
        match value
            .get("navlab_lesson")
            .and_then(serde_json::Value::as_u64)
        {
            None => {
                return Err(format!(
                    "{name}: not a navlab lesson (no `navlab_lesson` version)"
                ));
            }
            Some(v) if v > u64::from(LESSON_VERSION) => {
                return Err(format!(
                    "{name}: made by a newer navlab (lesson format {v}; this one reads {LESSON_VERSION}): update navlab to open it"
                ));
            }
            Some(_) => {}
        }
        // Read again from the text, so that an error has its line and the field it is in.
        let mut text = serde_json::Deserializer::from_slice(bytes);
        let lesson: Lesson = serde_path_to_error::deserialize(&mut text).map_err(|e| {
            format!(
                "{name}: not a lesson: {} in {}",
                crate::input::json_problem(e.inner()),
                crate::input::quoted(&e.path().to_string())
            )
        })?;
        // Both documents first: a missing file opens nothing.
        let mesh = match &lesson.navmesh {
            Some(part) => Some(self.read_mesh_part(part, name, &file_in)?),
            None => None,
        };
        let map = match &lesson.tile_map {
            Some(part) => Some(read_map_part(part, name, &file_in)?),
            None => None,
        };

        let level = match &lesson.level {
            Some(part) => Some(self.read_level_part(part, name, &file_in)?),
            None => None,
        };
        // Now the window changes.
        if let (Some(part), Some((mesh, source))) = (&lesson.navmesh, mesh) {
            let navmesh = &mut self.scenes.navmesh;
            navmesh.settings = part.settings.clamped();
            navmesh.query.playback.speed = navmesh.settings.speed;
            navmesh.set_mesh_at(
                mesh,
                source,
                Some((
                    Vec2::new(part.start[0], part.start[1]),
                    Vec2::new(part.goal[0], part.goal[1]),
                )),
            );
            navmesh.query.floors.start = part.start_height;
            navmesh.query.floors.goal = part.goal_height;
            for link in &part.links {
                navmesh.edit_mesh(|editor| editor.add_link(link.clone()));
            }
            navmesh.rerun();
            if let Some(camera) = part.camera {
                navmesh.screen.camera.set(camera);
            }
        }
        if let (Some(part), Some((map, map_file))) = (&lesson.tile_map, map) {
            self.replace_map(map, map_file);
            let grid = &mut self.scenes.tile_map;
            grid.settings = part.settings.clamped();
            grid.playback.speed = grid.settings.speed;
            let (start, goal) = ((part.start[0], part.start[1]), (part.goal[0], part.goal[1]));
            if self.map.map.is_passable(start) && self.map.map.is_passable(goal) {
                grid.start = start;
                grid.goal = goal;
            }
            grid.rerun(&self.map);
            if let Some(camera) = part.camera {
                grid.camera.set(camera);
            }
        }
        self.settings.scene = lesson.scene;
        match &lesson.pursuit {
            Some(part) => {
                let hunt = &mut self.scenes.pursuit;
                let settings = super::pursuit_scene::PursuitSettings {
                    config: part.config.clone(),
                    control: part.control,
                    speed: part.speed,
                    show_rays: part.show_rays,
                    legend: part.legend,
                    placements: None,
                };
                let place = |[x, y]: [f64; 2]| Vec2::new(x, y);
                let mobs: Vec<Vec2> = part.mobs.iter().map(|&m| place(m)).collect();
                hunt.start_over(
                    &self.map,
                    settings,
                    place(part.kitten),
                    &mobs,
                    part.selected,
                );
                if let Some(camera) = part.camera {
                    hunt.camera.set(camera);
                }
            }
            None if lesson.scene == SceneKind::Pursuit => self.scenes.pursuit.sync_map(&self.map),
            None => {}
        }
        if let (Some(part), Some(geometry)) = (&lesson.level, level) {
            let line = part
                .section
                .map(|[a, b]| [Vec2::new(a[0], a[1]), Vec2::new(b[0], b[1])]);
            let asked = part.asked.map(|at| (at, part.floor));
            self.scenes.level.look_for_links_next(part.links);
            self.scenes.level.restore(
                geometry,
                part.settings,
                part.cut,
                line,
                asked,
                part.volumes.clone(),
            );
            if let Some(camera) = part.camera {
                self.scenes.level.camera.set(camera);
            }
        }
        self.scenes.get_mut(lesson.scene).show_step(lesson.step);
        self.banner.error = None;
        self.notice = Some(format!("Opened {name}"));
        Ok(())
    }
}

/// Reads the map a lesson's tile-map part names.
fn read_map_part(
    part: &MapPart,
    name: &str,
    file_in: &dyn Fn(&str) -> Result<PathBuf, String>,
) -> Result<(crate::grid::TileMap, Option<PathBuf>), String> {
    Ok(match &part.map {
        Source::File { path: relative } => {
            let file = file_in(relative)?;
            let map = crate::grid::movingai::load_any(&file).map_err(|e| e.to_string())?;
            (map, Some(file))
        }
        Source::Embedded { text } => (
            crate::grid::movingai::parse_navlab_json(
                text.as_bytes(),
                &format!("{name}[tile_map.map.text]"),
            )
            .map_err(|e| e.to_string())?,
            None,
        ),
        Source::BuiltIn { name: built_in } if built_in == BUILT_IN_MAP => {
            (super::tile_map_scene::default_map(), None)
        }
        Source::BuiltIn { name: built_in } => {
            return Err(format!(
                "{name}: no built-in map is called {}",
                crate::input::quoted(built_in)
            ));
        }
    })
}
