//! Small navmeshes compiled into the binary, so the program has something to show with no
//! file at hand. The files live in `assets/`.

use crate::geom::Vec2;
use crate::navmesh::{LoadError, NavMesh, Plane, ReadOptions, obj};

/// One embedded scene: a mesh and a start and goal worth looking at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmbeddedScene {
    /// File name, for titles and messages.
    pub name: &'static str,
    /// The OBJ text (Y up, XZ plane).
    pub obj: &'static [u8],
    /// A start point on the mesh (x, z).
    pub start: (f64, f64),
    /// A goal point on the mesh (x, z).
    pub goal: (f64, f64),
}

/// Three rooms joined by narrow doorways: the default scene.
pub const ROOMS: EmbeddedScene = EmbeddedScene {
    name: "rooms.obj",
    obj: include_bytes!("../../assets/rooms.obj"),
    start: (1.0, 1.0),
    goal: (5.0, -7.0),
};

/// A maze-like corridor.
pub const MAZE: EmbeddedScene = EmbeddedScene {
    name: "maze.obj",
    obj: include_bytes!("../../assets/maze.obj"),
    start: (0.5, 0.5),
    goal: (8.5, 8.5),
};

/// A floor with a square obstacle cut out.
pub const HOLE: EmbeddedScene = EmbeddedScene {
    name: "hole.obj",
    obj: include_bytes!("../../assets/hole.obj"),
    start: (1.0, 1.0),
    goal: (9.0, 9.0),
};

/// Stairs over a floor, with an edge shared by three triangles.
pub const STAIRS: EmbeddedScene = EmbeddedScene {
    name: "stairs.obj",
    obj: include_bytes!("../../assets/stairs.obj"),
    start: (1.0, 1.0),
    goal: (4.5, 7.0),
};

/// An export with the usual faults (a seam, a T-junction, a flipped face, a sliver, an island,
/// a wall face): start and goal have no path between them; the Diagnostics panel shows why.
pub const FAULTY: EmbeddedScene = EmbeddedScene {
    name: "faulty.obj",
    obj: include_bytes!("../../assets/faulty.obj"),
    start: (1.0, 1.0),
    goal: (5.0, 1.0),
};

impl EmbeddedScene {
    /// The mesh, read with `options` but always in the XZ plane (the files are Y up,
    /// whatever plane a user's files are read in): the one way every part of navlab reads a
    /// built-in mesh.
    ///
    /// ```
    /// let mesh = navlab_core::assets::ROOMS.read(Default::default()).unwrap();
    /// assert_eq!(mesh.island_count(), 1);
    /// ```
    pub fn read(&self, options: ReadOptions) -> Result<NavMesh, LoadError> {
        let options = ReadOptions {
            plane: Plane::Xz,
            ..options
        };
        let raw = obj::parse_raw(self.obj, self.name, options.plane)?;
        NavMesh::from_read(raw, self.name, options)
    }

    /// The start as a point of the plane.
    pub fn start_point(&self) -> Vec2 {
        Vec2::new(self.start.0, self.start.1)
    }

    /// The goal as a point of the plane.
    pub fn goal_point(&self) -> Vec2 {
        Vec2::new(self.goal.0, self.goal.1)
    }

    /// The built-in scene called `name` (a file name such as `rooms.obj`).
    pub fn named(name: &str) -> Option<EmbeddedScene> {
        ALL.iter().find(|scene| scene.name == name).copied()
    }
}

/// A level (geometry, Y up) compiled into the binary, with the spots worth asking about.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmbeddedLevel {
    /// File name, for titles and messages.
    pub name: &'static str,
    /// The OBJ text (Y up).
    pub obj: &'static [u8],
    /// Named spots: what is there, the point (x, z), and which surface there (from the
    /// bottom; `None` for the top one).
    pub spots: &'static [(&'static str, [f64; 2], Option<usize>)],
}

/// Two floors joined by stairs, with a ramp too steep, a beam too low, a gap too narrow and a
/// ledge too small for RecastDemo's agent, and a platform it reaches only by a jump (an
/// off-mesh link): the level scene's first level.
pub const PROVING_GROUND: EmbeddedLevel = EmbeddedLevel {
    name: "proving-ground.obj",
    obj: include_bytes!("../../assets/proving-ground.obj"),
    spots: &[
        ("the stairs", [10.0, 1.2], None),
        ("the upper floor", [18.0, 4.0], None),
        ("under the upper floor", [18.0, 4.0], Some(0)),
        ("the steep ramp", [13.0, 6.75], None),
        ("under the low beam", [3.75, 12.0], Some(0)),
        ("the narrow gap", [9.3, 12.0], None),
        ("the small ledge", [20.8, 12.8], None),
        ("the platform", [4.0, 4.5], None),
    ],
};

impl EmbeddedLevel {
    /// The level's vertices and faces.
    pub fn read(&self) -> Result<crate::navmesh::RawMesh, LoadError> {
        obj::parse_raw(self.obj, self.name, Plane::Xz)
    }

    /// The spot called `name`.
    pub fn spot(&self, name: &str) -> Option<([f64; 2], Option<usize>)> {
        self.spots
            .iter()
            .find(|(spot, _, _)| *spot == name)
            .map(|&(_, at, floor)| (at, floor))
    }
}

/// Two rooms joined by a door 0.8 wide and, the long way round, by a corridor 2 wide: agents
/// of different sizes take different routes.
pub const DOORS: EmbeddedScene = EmbeddedScene {
    name: "doors.obj",
    obj: include_bytes!("../../assets/doors.obj"),
    start: (2.0, 4.0),
    goal: (15.0, 4.0),
};

/// Every embedded scene, the default first.
pub const ALL: [EmbeddedScene; 6] = [ROOMS, MAZE, HOLE, STAIRS, FAULTY, DOORS];
