//! The tile map's search as a job, recorded for replay: run here when small, on a
//! [`LatestWorker`](crate::app::latest_worker::LatestWorker) when large, so that painting and
//! dragging the start or goal stay smooth.

use crate::grid::{Cell, Connectivity, GridAlgorithm, GridPath, TileMap, grid_search};
use crate::search::{Observer, SearchEvent};
use std::sync::Arc;

/// Searches expected to do more work than this (tiles in the map, or IDA*'s node budget) run on
/// the worker: ~50 ms for a search that explores half a million tiles, recorded.
pub const BACKGROUND_WORK: usize = 1 << 19;

/// Steps recorded for the animation at most: IDA* may take millions (the answer and the counts
/// are complete either way).
pub use crate::search::MAX_RECORDED_STEPS;

/// One search of the tile map, owned so that it can run on another thread.
#[derive(Debug, Clone)]
pub struct SearchJob {
    /// The map as it was asked about (shared, not copied).
    pub map: Arc<TileMap>,
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
    /// Steps the search took after the first [`MAX_RECORDED_STEPS`], not recorded.
    pub left_out: usize,
    /// The last pass (number, threshold) that started among the steps left out, if any: where
    /// IDA* or Fringe Search really ended.
    pub last_pass_left_out: Option<(usize, f64)>,
    /// The answer.
    pub result: GridPath,
    /// The algorithm (with its settings) the steps are of.
    pub algorithm: GridAlgorithm,
}

impl SearchJob {
    /// How much work the search may do, for choosing where to run it.
    pub fn expected_work(&self) -> usize {
        match self.algorithm {
            GridAlgorithm::IdaStar { budget, .. } => self.map.cell_count().max(budget),
            _ => self.map.cell_count(),
        }
    }

    /// Runs the search here, recording its steps; it gives up at the lab's work limit
    /// ([`DEFAULT_WORK_LIMIT`](crate::grid::search::DEFAULT_WORK_LIMIT)).
    pub fn run(self) -> SearchDone {
        self.run_recording(MAX_RECORDED_STEPS, crate::grid::search::DEFAULT_WORK_LIMIT)
    }

    /// Runs the search, recording its first `cap` steps and its end; it gives up after
    /// `work_limit` visits (see [`WorkLimit`](crate::search::WorkLimit)).
    pub(crate) fn run_recording(self, cap: usize, work_limit: u64) -> SearchDone {
        let mut recorder = CappedRecorder {
            events: Vec::new(),
            cap,
            left_out: 0,
            last_pass: None,
        };
        let result = grid_search(
            &self.map,
            self.start,
            self.goal,
            self.algorithm,
            self.connectivity,
            &mut crate::search::WorkLimit::new(&mut recorder, work_limit),
        );
        SearchDone {
            events: recorder.events,
            left_out: recorder.left_out,
            last_pass_left_out: recorder.last_pass,
            result,
            algorithm: self.algorithm,
        }
    }
}

/// Records events up to a cap, and always the last one (`Finished`); counts the rest and
/// remembers the last pass among them.
pub(super) struct CappedRecorder {
    events: Vec<SearchEvent>,
    cap: usize,
    left_out: usize,
    last_pass: Option<(usize, f64)>,
}

impl CappedRecorder {
    /// Records the first [`MAX_RECORDED_STEPS`] steps, and the last.
    pub(super) fn new() -> Self {
        Self {
            events: Vec::new(),
            cap: MAX_RECORDED_STEPS,
            left_out: 0,
            last_pass: None,
        }
    }

    /// The steps recorded, as the search `algorithm` that answered `result` took them.
    pub(super) fn done(self, result: GridPath, algorithm: GridAlgorithm) -> SearchDone {
        SearchDone {
            events: self.events,
            left_out: self.left_out,
            last_pass_left_out: self.last_pass,
            result,
            algorithm,
        }
    }
}

impl Observer<SearchEvent> for CappedRecorder {
    fn event(&mut self, event: SearchEvent) {
        if self.events.len() < self.cap || matches!(event, SearchEvent::Finished { .. }) {
            self.events.push(event);
        } else {
            self.left_out += 1;
            if let SearchEvent::IterationStarted {
                iteration,
                threshold,
                ..
            } = event
            {
                self.last_pass = Some((iteration, threshold));
            }
        }
    }
}

/// What the last step's sentence says first when `left_out` steps before it were not
/// recorded (nothing when none were).
pub fn left_out_note(left_out: usize) -> String {
    if left_out == 0 {
        return String::new();
    }
    format!(
        "{} more steps not recorded (the window keeps the first {}); then: ",
        crate::words::thousands(left_out),
        crate::words::thousands(MAX_RECORDED_STEPS)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recording_stops_at_the_cap_but_keeps_the_end() {
        let mut recorder = CappedRecorder {
            events: Vec::new(),
            cap: 2,
            left_out: 0,
            last_pass: None,
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
        assert_eq!(recorder.events.len(), 3);
        assert!(matches!(recorder.events[2], SearchEvent::Finished { .. }));
        assert_eq!(recorder.left_out, 3);
    }

    /// A capped job keeps the first steps as they are and the end, and counts exactly the
    /// steps between: together they are the whole trace.
    #[test]
    fn a_capped_search_counts_the_steps_it_leaves_out() {
        let map = TileMap::from_ascii("....\n.@@.\n....").expect("map");
        let job = SearchJob {
            map: Arc::new(map.clone()),
            start: (0, 0),
            goal: (3, 2),
            algorithm: GridAlgorithm::Fringe {
                heuristic: crate::grid::Heuristic::Octile,
            },
            connectivity: Connectivity::Eight,
        };
        let mut whole = Vec::new();
        grid_search(
            &map,
            (0, 0),
            (3, 2),
            job.algorithm,
            job.connectivity,
            &mut whole,
        );
        let done = job.clone().run_recording(5, 0);
        assert_eq!(done.events[..5], whole[..5]);
        assert_eq!(done.events.last(), whole.last());
        assert_eq!(done.events.len() + done.left_out, whole.len());
        let last_pass = whole[5..whole.len() - 1]
            .iter()
            .rev()
            .find_map(|e| match *e {
                SearchEvent::IterationStarted {
                    iteration,
                    threshold,
                    ..
                } => Some((iteration, threshold)),
                _ => None,
            });
        assert!(last_pass.is_some(), "the test map takes more passes");
        assert_eq!(done.last_pass_left_out, last_pass);
        assert!(left_out_note(done.left_out).contains(&done.left_out.to_string()));
        let all = job.run_recording(whole.len(), 0);
        assert_eq!((all.events, all.left_out), (whole, 0));
        assert_eq!(left_out_note(0), "");
    }

    /// The window's search gives up at its work limit, and its last step says so.
    #[test]
    fn a_search_stops_at_its_work_limit() {
        let map = TileMap::from_ascii("......\n......\n....@@\n....@.").expect("map");
        let job = SearchJob {
            map: Arc::new(map),
            start: (0, 0),
            goal: (5, 3),
            algorithm: GridAlgorithm::Dijkstra,
            connectivity: Connectivity::Eight,
        };
        let free = job.clone().run_recording(1000, 0);
        assert_eq!(
            free.result.outcome,
            crate::search::SearchOutcome::Unreachable
        );
        assert!(free.result.expanded > 10);
        let done = job.run_recording(1000, 10);
        assert_eq!(
            done.result.outcome,
            crate::search::SearchOutcome::BudgetExceeded
        );
        assert_eq!(done.result.expanded, 10);
        assert_eq!(
            done.events.last(),
            Some(&SearchEvent::Finished {
                outcome: crate::search::SearchOutcome::BudgetExceeded,
                cost: f64::INFINITY
            })
        );
    }
}
