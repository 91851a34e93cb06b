//! The kinds of tile (from the pursuit article): what each costs to enter and what it blocks.

use serde::{Deserialize, Serialize};

/// One tile of a map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tile {
    /// Walkable at the base cost.
    #[default]
    Grass,
    /// Walkable, slower (agents slow down on it).
    Sand,
    /// Swimmable: walkable, slowest.
    Water,
    /// Blocks movement and sight.
    Wall,
    /// Blocks movement (you would fall in) but not sight.
    Hole,
}

impl Tile {
    /// Every tile kind, in palette order.
    pub const ALL: [Tile; 5] = [Tile::Grass, Tile::Sand, Tile::Water, Tile::Wall, Tile::Hole];

    /// True when agents can stand on it.
    pub fn is_passable(self) -> bool {
        !matches!(self, Tile::Wall | Tile::Hole)
    }

    /// True when it stops a line of sight.
    pub fn blocks_sight(self) -> bool {
        self == Tile::Wall
    }

    /// A name for the palette and messages.
    pub fn name(self) -> &'static str {
        match self {
            Tile::Grass => "Grass",
            Tile::Sand => "Sand",
            Tile::Water => "Water",
            Tile::Wall => "Wall",
            Tile::Hole => "Hole",
        }
    }

    /// The tile [`name`](Self::name)d so, in any case (`"water"`, `"Water"`).
    pub fn from_name(name: &str) -> Option<Tile> {
        Tile::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The character used in MovingAI `.map` files (see [`super::movingai`]).
    pub fn to_char(self) -> char {
        match self {
            Tile::Grass => '.',
            Tile::Sand => 'S',
            Tile::Water => 'W',
            Tile::Wall => '@',
            Tile::Hole => 'O',
        }
    }

    /// Reads a MovingAI `.map` character: `.`/`G` grass, `S` sand, `W` water, `T`/`@` wall,
    /// `O` hole.
    pub fn from_char(c: char) -> Option<Tile> {
        Some(match c {
            '.' | 'G' => Tile::Grass,
            'S' => Tile::Sand,
            'W' => Tile::Water,
            'T' | '@' => Tile::Wall,
            'O' => Tile::Hole,
            _ => return None,
        })
    }
}

/// What it costs to enter each passable tile (editable).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TileCosts {
    /// Grass (default 1).
    pub grass: f64,
    /// Sand (default 2).
    pub sand: f64,
    /// Water (default 3).
    pub water: f64,
}

impl Default for TileCosts {
    fn default() -> Self {
        Self {
            grass: 1.0,
            sand: 2.0,
            water: 3.0,
        }
    }
}

impl TileCosts {
    /// Cost of entering `tile` (`None` for tiles that block movement).
    pub fn of(&self, tile: Tile) -> Option<f64> {
        match tile {
            Tile::Grass => Some(self.grass),
            Tile::Sand => Some(self.sand),
            Tile::Water => Some(self.water),
            Tile::Wall | Tile::Hole => None,
        }
    }

    /// The cheapest passable cost: heuristics are scaled by it to stay admissible.
    pub fn cheapest(&self) -> f64 {
        self.grass.min(self.sand).min(self.water)
    }

    /// The costs a tile may have: from a hundredth of grass's default to a million times it,
    /// so that a path across the largest map still adds up to a finite number.
    pub const RANGE: std::ops::RangeInclusive<f64> = 0.01..=1_000_000.0;

    /// True when every cost is within [`TileCosts::RANGE`].
    pub fn are_valid(&self) -> bool {
        [self.grass, self.sand, self.water]
            .iter()
            .all(|c| Self::RANGE.contains(c))
    }
}
