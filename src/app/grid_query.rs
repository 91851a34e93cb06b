//! The tile map's search as a job, recorded for replay: run here when small, on a
//! [`LatestWorker`](super::latest_worker::LatestWorker) when large, so that painting and
//! dragging the start or goal stay smooth.

use crate::grid::{Cell, Connectivity, GridAlgorithm, GridPath, TileMap, grid_search};
use crate::search::{Observer, SearchEvent};

/// Searches expected to do more work than this (tiles in the map, or IDA*'s node budget) run on
/// the worker: ~50 ms for a search that explores half a million tiles, recorded.
pub const BACKGROUND_WORK: usize = 1 << 19;

/// Steps recorded for the animation at most: IDA* may take millions (the answer and the counts
/// are complete either way).
pub const MAX_RECORDED_STEPS: usize = 1_000_000;

/// One search of the tile map, owned so that it can run on another thread.
#[derive(Debug, Clone)]
pub struct SearchJob {
    /// A copy of the map as it was asked about.
    pub map: TileMap,
    /// Start cell.
    pub start: Cell,
    /// Goal cell.
    pub goal: Cell,
    /// The algorithm with its settings.
    pub algorithm: GridAlgorithm,
    /// Moves.
    pub connectivity: Connectivity,
}

/// A finished search: its recorded steps and its answer.
#[derive(Debug, Clone)]
pub struct SearchDone {
    /// The steps, at most [`MAX_RECORDED_STEPS`] of them before the `Finished` step.
    pub events: Vec<SearchEvent>,
    /// The answer.
    pub result: GridPath,
}

impl SearchJob {
    /// How much work the search may do, for choosing where to run it.
    pub fn expected_work(&self) -> usize {
        match self.algorithm {
            GridAlgorithm::IdaStar { budget, .. } => self.map.cell_count().max(budget),
            _ => self.map.cell_count(),
        }
    }

    /// Runs the search here, recording its steps.
    pub fn run(self) -> SearchDone {
        let mut events = Vec::new();
        let result = grid_search(
            &self.map,
            self.start,
            self.goal,
            self.algorithm,
            self.connectivity,
            &mut CappedRecorder {
                events: &mut events,
                cap: MAX_RECORDED_STEPS,
            },
        );
        SearchDone { events, result }
    }
}

/// Records events up to a cap, and always the last one (`Finished`).
struct CappedRecorder<'a> {
    events: &'a mut Vec<SearchEvent>,
    cap: usize,
}

impl Observer<SearchEvent> for CappedRecorder<'_> {
    fn event(&mut self, event: SearchEvent) {
        if self.events.len() < self.cap || matches!(event, SearchEvent::Finished { .. }) {
            self.events.push(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recording_stops_at_the_cap_but_keeps_the_end() {
        let mut events = Vec::new();
        let mut recorder = CappedRecorder {
            events: &mut events,
            cap: 2,
        };
        for node in 0..5 {
            recorder.event(SearchEvent::Expanded {
                node,
                g: 0.0,
                h: 0.0,
            });
        }
        recorder.event(SearchEvent::Finished {
            outcome: crate::search::SearchOutcome::Found,
            cost: 1.0,
        });
        assert_eq!(events.len(), 3);
        assert!(matches!(events[2], SearchEvent::Finished { .. }));
    }
}
