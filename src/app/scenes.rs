//! The scenes of the lab, one line each in the `scenes!` macro below: the kind kept between runs, every
//! scene's settings, and the set of them the window switches between.

use super::level_scene::LevelScene;
use super::navmesh_scene::NavmeshScene;
use super::pursuit_scene::PursuitScene;
use super::scene::{Scene, SceneSetup};
use super::tile_map_scene::TileMapScene;
use crate::grid::MapDocument;
use serde::{Deserialize, Serialize};

/// Declares the scenes: the kind kept between runs, every scene's settings, the set of
/// scenes and the ways to reach one. Adding a scene is one line here.
macro_rules! scenes {
    ($($(#[doc = $doc:literal])* $kind:ident => $field:ident: $scene:ty,)*) => {
        /// The scene shown; kept between runs.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
        pub enum SceneKind {
            #[default]
            $($(#[doc = $doc])* $kind,)*
        }

        /// Every scene's options, kept between runs.
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        #[serde(default)]
        pub struct SceneSettings {
            $($(#[doc = $doc])* pub $field: <$scene as SceneSetup>::Settings,)*
        }

        /// The scenes, one of them shown.
        pub struct Scenes {
            $($(#[doc = $doc])* pub $field: $scene,)*
        }

        impl Scenes {
            /// Every scene, in the menu bar's order.
            pub const ALL: &[SceneKind] = &[$(SceneKind::$kind,)*];

            /// The scenes with `settings`, on their default content and the document's map.
            pub fn new(settings: &SceneSettings, map: &MapDocument) -> Self {
                Self {
                    $($field: <$scene>::with_settings(&settings.$field, map),)*
                }
            }

            /// The options to keep for the next run.
            pub fn settings(&self, map: &MapDocument) -> SceneSettings {
                SceneSettings {
                    $($field: <$scene as SceneSetup>::settings(&self.$field, map),)*
                }
            }

            /// The scene of `kind`.
            pub fn get(&self, kind: SceneKind) -> &dyn Scene {
                match kind {
                    $(SceneKind::$kind => &self.$field,)*
                }
            }

            /// The scene of `kind`, to change.
            pub fn get_mut(&mut self, kind: SceneKind) -> &mut dyn Scene {
                match kind {
                    $(SceneKind::$kind => &mut self.$field,)*
                }
            }
        }
    };
}

scenes! {
    /// Navigation meshes: A* over triangles and the funnel.
    Navmesh => navmesh: NavmeshScene,
    /// Tile maps: the editor and the grid search lab.
    TileMap => tile_map: TileMapScene,
    /// A mob hunts the kitten on the tile map by sight and smell.
    Pursuit => pursuit: PursuitScene,
    /// A level's geometry built into a navmesh by Recast's stages.
    Level => level: LevelScene,
}
