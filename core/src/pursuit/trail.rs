//! The kitten's smell trail: points dropped every so many tiles walked, each removed once it is
//! older than the decay time.

use crate::geom::Vec2;
use std::collections::VecDeque;

/// One point of the trail.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrailPoint {
    /// Increasing id: a later point has a larger one.
    pub seq: u64,
    /// Where it was dropped.
    pub position: Vec2,
    /// Simulation time it was dropped, seconds.
    pub born: f64,
}

/// The trail, oldest point first.
#[derive(Debug, Clone, PartialEq)]
pub struct SmellTrail {
    points: VecDeque<TrailPoint>,
    next_seq: u64,
    /// Distance walked between drops, tiles.
    pub spacing: f64,
    /// Seconds a point lasts.
    pub decay: f64,
}

impl SmellTrail {
    /// An empty trail.
    pub fn new(spacing: f64, decay: f64) -> Self {
        Self {
            points: VecDeque::new(),
            next_seq: 0,
            spacing,
            decay,
        }
    }

    /// Drops a point at `position` when it is at least `spacing` from the last one (or there
    /// is none), so a kitten standing still leaves one point, not a pile.
    pub fn drop_if_moved(&mut self, position: Vec2, now: f64) {
        let far_enough = self
            .points
            .back()
            .is_none_or(|last| last.position.distance(position) >= self.spacing);
        if far_enough {
            self.push(position, now);
        }
    }

    /// Appends a point unconditionally.
    pub fn push(&mut self, position: Vec2, now: f64) {
        self.points.push_back(TrailPoint {
            seq: self.next_seq,
            position,
            born: now,
        });
        self.next_seq += 1;
    }

    /// Removes the points that have reached the decay time.
    pub fn expire(&mut self, now: f64) {
        while self
            .points
            .front()
            .is_some_and(|p| now - p.born >= self.decay)
        {
            self.points.pop_front();
        }
    }

    /// The living points, oldest first.
    pub fn points(&self) -> &VecDeque<TrailPoint> {
        &self.points
    }

    /// The point with id `seq`, if it is still alive.
    pub fn get(&self, seq: u64) -> Option<&TrailPoint> {
        let first = self.points.front()?.seq;
        let offset = usize::try_from(seq.checked_sub(first)?).ok()?;
        self.points.get(offset)
    }

    /// Id of the oldest living point (or of the next point when empty).
    pub fn oldest_seq(&self) -> u64 {
        self.points.front().map_or(self.next_seq, |p| p.seq)
    }

    /// The id the next point will get (one past the freshest).
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Number of living points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True when no point is alive.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Forgets every point (ids keep increasing).
    pub fn clear(&mut self) {
        self.points.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_dropped_by_distance_and_expire_by_age() {
        let mut trail = SmellTrail::new(0.5, 2.0);
        trail.drop_if_moved(Vec2::new(0.0, 0.0), 0.0);
        trail.drop_if_moved(Vec2::new(0.2, 0.0), 0.5); // too close
        trail.drop_if_moved(Vec2::new(0.6, 0.0), 1.0);
        assert_eq!(trail.len(), 2);
        assert_eq!(trail.get(1).map(|p| p.born), Some(1.0));
        trail.expire(1.99);
        assert_eq!(trail.len(), 2);
        trail.expire(2.0);
        assert_eq!(trail.len(), 1);
        assert_eq!(trail.get(0), None);
        assert_eq!(trail.oldest_seq(), 1);
        trail.expire(3.0);
        assert!(trail.is_empty());
        assert_eq!(trail.oldest_seq(), 2);
    }
}
