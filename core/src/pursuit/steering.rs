//! Steering behaviours that output an acceleration (as in gdx-ai): seek, arrive, brake, and
//! wall avoidance with three ray "whiskers" cast through the tiles.

use super::body::{BODY_HALF, Body, blocks_movement};
use crate::geom::Vec2;
use crate::grid::TileMap;

/// Full acceleration straight at `target` (gdx-ai's Seek): fast, and it overshoots corners.
pub fn seek(body: &Body, target: Vec2) -> Vec2 {
    (target - body.position).normalized_or_zero() * body.max_acceleration
}

/// Match a velocity towards `target`, slowing inside `slow_radius` to stop on it (Arrive).
pub fn arrive(body: &Body, target: Vec2, speed_cap: f64, slow_radius: f64) -> Vec2 {
    /// Seconds over which the velocity difference is made up.
    const TIME_TO_TARGET: f64 = 0.1;
    let offset = target - body.position;
    let distance = offset.length();
    let speed = if distance < slow_radius {
        speed_cap * distance / slow_radius
    } else {
        speed_cap
    };
    let desired = offset.normalized_or_zero() * speed;
    ((desired - body.velocity) * (1.0 / TIME_TO_TARGET)).clamp_length(body.max_acceleration)
}

/// Decelerate to a stop within this step (never reversing).
pub fn brake(body: &Body, dt: f64) -> Vec2 {
    (body.velocity * (-1.0 / dt)).clamp_length(body.max_acceleration)
}

/// Where a ray met a blocking tile.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    /// Distance from the ray's origin, tiles.
    pub distance: f64,
    /// The face's outward normal (axis-aligned), or minus the direction when the ray starts
    /// inside a blocking tile.
    pub normal: Vec2,
    /// The blocking tile.
    pub cell: (i64, i64),
}

/// The first tile blocking movement (wall, hole, map edge) along the ray from `origin` in the
/// unit direction `dir`, within `max_distance` (grid traversal after Amanatides & Woo).
pub fn raycast(map: &TileMap, origin: Vec2, dir: Vec2, max_distance: f64) -> Option<RayHit> {
    if !origin.is_finite() || !dir.is_finite() || dir.length() < 1e-12 {
        return None;
    }
    let mut cell = (origin.x.floor() as i64, origin.y.floor() as i64);
    if blocks_movement(map, cell.0, cell.1) {
        return Some(RayHit {
            distance: 0.0,
            normal: dir * -1.0,
            cell,
        });
    }
    let axis = |o: f64, d: f64, c: i64| -> (i64, f64, f64) {
        if d > 0.0 {
            (1, (c as f64 + 1.0 - o) / d, 1.0 / d)
        } else if d < 0.0 {
            (-1, (o - c as f64) / -d, -1.0 / d)
        } else {
            (0, f64::INFINITY, f64::INFINITY)
        }
    };
    let (step_x, mut next_x, delta_x) = axis(origin.x, dir.x, cell.0);
    let (step_y, mut next_y, delta_y) = axis(origin.y, dir.y, cell.1);
    // Each crossing enters a new tile; a ray of length L crosses at most about 2(L + 1) faces.
    let crossings = (2.0 * (max_distance + 2.0)).ceil() as usize;
    for _ in 0..crossings {
        let (distance, normal) = if next_x < next_y {
            cell.0 += step_x;
            let t = next_x;
            next_x += delta_x;
            (t, Vec2::new(-step_x as f64, 0.0))
        } else {
            cell.1 += step_y;
            let t = next_y;
            next_y += delta_y;
            (t, Vec2::new(0.0, -step_y as f64))
        };
        if distance > max_distance {
            return None;
        }
        if blocks_movement(map, cell.0, cell.1) {
            return Some(RayHit {
                distance,
                normal,
                cell,
            });
        }
    }
    None
}

/// One whisker of the avoidance: the ray cast and what it hit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Whisker {
    /// Start (the body's centre).
    pub from: Vec2,
    /// End at full length.
    pub to: Vec2,
    /// The blocking tile met, if any.
    pub hit: Option<RayHit>,
}

/// Angle of the two side whiskers from the heading, radians.
const SIDE_ANGLE: f64 = 0.6;

/// Wall avoidance: three whiskers (ahead, and 34° to each side, shorter) looking ahead in
/// proportion to speed. Each whisker that meets a blocking tile pushes away along the face's
/// normal, harder the closer the tile; a blocked forward whisker also turns the body towards
/// the freer side. `heading_hint` is used when the body is nearly still. Returns the
/// acceleration and the three whiskers (for drawing).
pub fn avoid_walls(map: &TileMap, body: &Body, heading_hint: Vec2) -> (Vec2, [Whisker; 3]) {
    let speed = body.velocity.length();
    let heading = if speed > 0.2 {
        body.velocity * (1.0 / speed)
    } else {
        heading_hint.normalized_or_zero()
    };
    let look = 0.6 + 0.5 * speed;
    let rays = [
        (heading, look),
        (heading.rotated(SIDE_ANGLE), 0.75 * look),
        (heading.rotated(-SIDE_ANGLE), 0.75 * look),
    ];
    let whiskers = rays.map(|(dir, len)| Whisker {
        from: body.position,
        to: body.position + dir * len,
        hit: raycast(map, body.position, dir, len),
    });
    let mut push = Vec2::default();
    for (w, &(_, len)) in whiskers.iter().zip(&rays) {
        if let Some(hit) = w.hit {
            let danger =
                (1.0 - (hit.distance - BODY_HALF).max(0.0) / (len - BODY_HALF)).clamp(0.0, 1.0);
            push = push + hit.normal * (danger * body.max_acceleration);
        }
    }
    if let Some(hit) = whiskers[0].hit {
        // Turn towards the side whose whisker is freer (left on a tie, so it is deterministic).
        let reach = |w: &Whisker| w.hit.map_or(f64::INFINITY, |h| h.distance);
        let left = heading.rotated(SIDE_ANGLE);
        let tangent = Vec2::new(-hit.normal.y, hit.normal.x);
        let towards_left = if tangent.dot(left) >= 0.0 {
            tangent
        } else {
            tangent * -1.0
        };
        let side = if reach(&whiskers[1]) >= reach(&whiskers[2]) {
            towards_left
        } else {
            towards_left * -1.0
        };
        let danger = (1.0 - hit.distance / rays[0].1).clamp(0.0, 1.0);
        push = push + side * (danger * body.max_acceleration);
    }
    (push, whiskers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raycast_meets_the_first_wall_face_with_its_normal() {
        let map = TileMap::from_ascii("......\n...@..\n......").expect("map");
        let hit = raycast(&map, Vec2::new(0.5, 1.5), Vec2::new(1.0, 0.0), 10.0).expect("hit");
        assert!((hit.distance - 2.5).abs() < 1e-12);
        assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
        assert_eq!(hit.cell, (3, 1));
        // Too short to reach it.
        assert_eq!(
            raycast(&map, Vec2::new(0.5, 1.5), Vec2::new(1.0, 0.0), 2.4),
            None
        );
        // Upwards, the map edge blocks.
        let up = raycast(&map, Vec2::new(0.5, 1.5), Vec2::new(0.0, -1.0), 10.0).expect("edge");
        assert!((up.distance - 1.5).abs() < 1e-12);
        assert_eq!(up.normal, Vec2::new(0.0, 1.0));
    }

    #[test]
    fn whiskers_push_away_from_a_wall_ahead() {
        let map = TileMap::from_ascii(".....@\n.....@\n.....@").expect("map");
        let mut body = Body::new(Vec2::new(4.0, 1.5), 3.0, 10.0);
        body.velocity = Vec2::new(3.0, 0.0);
        let (push, whiskers) = avoid_walls(&map, &body, Vec2::default());
        assert!(whiskers[0].hit.is_some());
        assert!(push.x < 0.0, "pushes back from the wall: {push}");
        // Nothing near: no push.
        body.position = Vec2::new(1.0, 1.5);
        body.velocity = Vec2::new(0.5, 0.0);
        let (push, _) = avoid_walls(&map, &body, Vec2::default());
        assert_eq!(push, Vec2::default());
    }
}
