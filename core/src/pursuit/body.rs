//! Agent bodies on a tile map: position, velocity and limits, moved by an acceleration with
//! collision against the tiles that block movement (walls, holes, the map edge).

use crate::geom::Vec2;
use crate::grid::TileMap;

/// Half the side of an agent's square body, in tiles (bodies are 0.6 tiles wide, so they fit
/// one-tile corridors).
pub const BODY_HALF: f64 = 0.3;

/// How far a body is kept from a blocking tile after a collision (keeps the overlap test strict).
const SKIN: f64 = 1e-6;

/// A moving agent: position and velocity in tiles and tiles per second, and its limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Centre, in tile units (tile (x, y) covers `[x, x+1) × [y, y+1)`).
    pub position: Vec2,
    /// Tiles per second.
    pub velocity: Vec2,
    /// Top speed on the cheapest terrain, tiles per second.
    pub max_speed: f64,
    /// Largest acceleration steering may ask for, tiles per second².
    pub max_acceleration: f64,
}

/// Which axes a move was stopped on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Contact {
    /// Stopped moving along x.
    pub x: bool,
    /// Stopped moving along y.
    pub y: bool,
}

impl Body {
    /// A body at rest at `position`.
    pub fn new(position: Vec2, max_speed: f64, max_acceleration: f64) -> Self {
        Self {
            position,
            velocity: Vec2::default(),
            max_speed,
            max_acceleration,
        }
    }

    /// The top speed on the terrain under the centre: sand and water slow agents in proportion
    /// to their cost (the cheapest tile allows full speed).
    pub fn speed_cap(&self, map: &TileMap) -> f64 {
        self.max_speed * terrain_speed_factor(map, self.position)
    }

    /// One fixed step of `dt` seconds: the acceleration (clamped to the limit) changes the
    /// velocity (clamped to the terrain's top speed), which moves the body. With `solid`, the
    /// body slides along blocking tiles and never overlaps one; without, it goes anywhere (the
    /// pursuit article's mob, which is how it ends up inside a wall).
    pub fn integrate(
        &mut self,
        map: &TileMap,
        acceleration: Vec2,
        dt: f64,
        solid: bool,
    ) -> Contact {
        let a = acceleration.clamp_length(self.max_acceleration);
        let cap = self.speed_cap(map);
        self.velocity = (self.velocity + a * dt).clamp_length(cap);
        let delta = self.velocity * dt;
        if !solid || overlaps_blocked(map, self.position, BODY_HALF) {
            // Unsolid bodies pass through; a solid body already overlapping (it should not
            // happen) is let out rather than frozen.
            self.position = self.position + delta;
            return Contact::default();
        }
        let (x, hit_x) = move_axis(map, self.position, delta.x, true);
        self.position.x = x;
        let (y, hit_y) = move_axis(map, self.position, delta.y, false);
        self.position.y = y;
        if hit_x {
            self.velocity.x = 0.0;
        }
        if hit_y {
            self.velocity.y = 0.0;
        }
        Contact { x: hit_x, y: hit_y }
    }
}

/// Cheapest tile cost over the cost of the tile at `p` (1 on blocked or off-map tiles).
pub fn terrain_speed_factor(map: &TileMap, p: Vec2) -> f64 {
    let tile = map.get_signed(p.x.floor() as i64, p.y.floor() as i64);
    match tile.and_then(|t| map.costs.of(t)) {
        Some(cost) if cost > 0.0 => (map.costs.cheapest() / cost).min(1.0),
        _ => 1.0,
    }
}

/// True when the tile at (`x`, `y`) blocks movement (wall, hole or off the map).
pub fn blocks_movement(map: &TileMap, x: i64, y: i64) -> bool {
    map.get_signed(x, y).is_none_or(|t| !t.is_passable())
}

/// True when the square of half side `half` centred at `p` overlaps (with positive area) a
/// tile that blocks movement.
pub fn overlaps_blocked(map: &TileMap, p: Vec2, half: f64) -> bool {
    if !p.is_finite() {
        return true;
    }
    let x0 = (p.x - half).floor() as i64;
    let x1 = (p.x + half).ceil() as i64 - 1;
    let y0 = (p.y - half).floor() as i64;
    let y1 = (p.y + half).ceil() as i64 - 1;
    (y0..=y1).any(|y| (x0..=x1).any(|x| blocks_movement(map, x, y)))
}

/// Moves `from` by `delta` along one axis (steps are shorter than a tile). Returns the new
/// coordinate on that axis and whether a blocking tile stopped the move; a stopped body rests
/// against the tile's face.
fn move_axis(map: &TileMap, from: Vec2, delta: f64, along_x: bool) -> (f64, bool) {
    let with = |c: f64| {
        if along_x {
            Vec2::new(c, from.y)
        } else {
            Vec2::new(from.x, c)
        }
    };
    let current = if along_x { from.x } else { from.y };
    let wanted = current + delta;
    if !overlaps_blocked(map, with(wanted), BODY_HALF) {
        return (wanted, false);
    }
    // The column (or row) just entered blocks: rest against its face, never moving backwards.
    let rest = if delta > 0.0 {
        ((wanted + BODY_HALF).ceil() - 1.0 - BODY_HALF - SKIN).clamp(current, wanted)
    } else {
        ((wanted - BODY_HALF).floor() + 1.0 + BODY_HALF + SKIN).clamp(wanted, current)
    };
    if overlaps_blocked(map, with(rest), BODY_HALF) {
        (current, true)
    } else {
        (rest, true)
    }
}
