//! The tile map's search, recorded for replay, run on a worker thread when it is large, so that
//! painting and dragging the start or goal stay smooth; the newest request wins.

use crate::grid::{Cell, Connectivity, GridAlgorithm, GridPath, TileMap, grid_search};
use crate::search::{Observer, SearchEvent};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::Duration;

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
    /// The scene's generation when asked: an answer for an older one is dropped.
    pub generation: u64,
}

/// A finished search: its recorded steps and its answer.
#[derive(Debug, Clone)]
pub struct SearchDone {
    /// The generation of the job it answers.
    pub generation: u64,
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
        SearchDone {
            generation: self.generation,
            events,
            result,
        }
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

/// A thread that runs search jobs one at a time; when several wait, only the newest runs.
pub struct SearchWorker {
    jobs: Sender<SearchJob>,
    done: Receiver<SearchDone>,
    /// The generation of the newest job handed over and not answered yet.
    waiting: Option<u64>,
}

impl SearchWorker {
    /// Starts the thread; it ends when the worker is dropped (after the job it is running).
    pub fn start() -> std::io::Result<Self> {
        let (jobs, job_queue) = mpsc::channel::<SearchJob>();
        let (answers, done) = mpsc::channel();
        std::thread::Builder::new()
            .name("navlab search".into())
            .spawn(move || {
                while let Ok(mut job) = job_queue.recv() {
                    // Jobs that a newer one replaced before they began are skipped.
                    while let Ok(newer) = job_queue.try_recv() {
                        job = newer;
                    }
                    if answers.send(job.run()).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Self {
            jobs,
            done,
            waiting: None,
        })
    }

    /// Hands a job over; gives it back if the thread is gone.
    pub fn submit(&mut self, job: SearchJob) -> Result<(), Box<SearchJob>> {
        let generation = job.generation;
        self.jobs.send(job).map_err(|failed| Box::new(failed.0))?;
        self.waiting = Some(generation);
        Ok(())
    }

    /// True while the newest job handed over has not been answered.
    pub fn is_busy(&self) -> bool {
        self.waiting.is_some()
    }

    /// Forgets the job being waited for (a newer answer was found another way).
    pub fn forget(&mut self) {
        self.waiting = None;
    }

    /// The answer to the newest job, if it has arrived (older answers are dropped).
    pub fn take(&mut self) -> Option<SearchDone> {
        loop {
            match self.done.try_recv() {
                Ok(done) => {
                    if let Some(answer) = self.accept(done) {
                        return Some(answer);
                    }
                }
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    self.waiting = None;
                    return None;
                }
            }
        }
    }

    /// Waits up to `timeout` for the answer to the newest job.
    pub fn wait(&mut self, timeout: Duration) -> Option<SearchDone> {
        let deadline = std::time::Instant::now() + timeout;
        while self.waiting.is_some() {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.done.recv_timeout(left) {
                Ok(done) => {
                    if let Some(answer) = self.accept(done) {
                        return Some(answer);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => self.waiting = None,
            }
        }
        None
    }

    fn accept(&mut self, done: SearchDone) -> Option<SearchDone> {
        (self.waiting == Some(done.generation)).then(|| {
            self.waiting = None;
            done
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Heuristic, Tile};

    fn job(map: &TileMap, goal: Cell, generation: u64) -> SearchJob {
        SearchJob {
            map: map.clone(),
            start: (0, 0),
            goal,
            algorithm: GridAlgorithm::AStar {
                heuristic: Heuristic::Octile,
                weight: 1.0,
            },
            connectivity: Connectivity::Eight,
            generation,
        }
    }

    #[test]
    fn the_worker_answers_the_newest_job_as_a_search_here_would() {
        let mut map = TileMap::new(40, 30).expect("map");
        for y in 0..25 {
            map.set((20, y), Tile::Wall);
        }
        let mut worker = SearchWorker::start().expect("thread");
        for generation in 1..=5 {
            worker
                .submit(job(&map, (39, generation as usize), generation))
                .expect("running");
        }
        assert!(worker.is_busy());
        let done = worker.wait(Duration::from_secs(30)).expect("answered");
        assert!(!worker.is_busy());
        assert_eq!(done.generation, 5, "older answers are dropped");
        let here = job(&map, (39, 5), 5).run();
        assert_eq!(done.events, here.events);
        assert_eq!(done.result.path, here.result.path);
        assert_eq!(done.result.cost, here.result.cost);
        assert!(worker.take().is_none(), "nothing more is waited for");
    }

    #[test]
    fn a_forgotten_job_is_not_answered() {
        let map = TileMap::new(8, 8).expect("map");
        let mut worker = SearchWorker::start().expect("thread");
        worker.submit(job(&map, (7, 7), 1)).expect("running");
        worker.forget();
        assert!(!worker.is_busy());
        assert!(worker.wait(Duration::from_millis(200)).is_none());
    }

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
