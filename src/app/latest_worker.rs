//! A worker thread that runs jobs one at a time and, when several wait, only the newest: for
//! searches re-run on every edit or drag, whose older answers are of no use. Started on the
//! first job; jobs carry the asker's generation, and only the newest one's answer is taken.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// The thread, started on first use.
struct Running<J, R> {
    jobs: Sender<(u64, J)>,
    done: Receiver<(u64, R)>,
}

/// Runs `J`s into `R`s on one thread; the newest job wins.
pub struct LatestWorker<J, R> {
    name: &'static str,
    run: fn(J) -> R,
    running: Option<Running<J, R>>,
    /// The generation of the newest job handed over and not answered yet.
    waiting: Option<u64>,
}

impl<J, R> std::fmt::Debug for LatestWorker<J, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LatestWorker")
            .field("name", &self.name)
            .field("waiting", &self.waiting)
            .finish_non_exhaustive()
    }
}

impl<J: Send + 'static, R: Send + 'static> LatestWorker<J, R> {
    /// A worker named `name` (the thread's name) that answers a job with `run`.
    pub fn new(name: &'static str, run: fn(J) -> R) -> Self {
        Self {
            name,
            run,
            running: None,
            waiting: None,
        }
    }

    /// Hands over a job of generation `generation` (newer jobs have larger ones); gives it
    /// back if no thread can run it (the caller then runs it itself).
    pub fn submit(&mut self, generation: u64, job: J) -> Result<(), J> {
        if self.running.is_none() {
            self.running = self.spawn();
        }
        let Some(running) = &self.running else {
            return Err(job);
        };
        if let Err(failed) = running.jobs.send((generation, job)) {
            self.running = None;
            return Err(failed.0.1);
        }
        self.waiting = Some(generation);
        Ok(())
    }

    /// Answers `job` here when `in_background` is false (forgetting any job waited for), or
    /// hands it over and returns `None` (the answer comes from [`LatestWorker::take`]); a job
    /// no thread can run is answered here too.
    pub fn answer_or_submit(&mut self, generation: u64, job: J, in_background: bool) -> Option<R> {
        let job = if in_background {
            match self.submit(generation, job) {
                Ok(()) => return None,
                Err(job) => job,
            }
        } else {
            job
        };
        self.forget();
        Some((self.run)(job))
    }

    fn spawn(&self) -> Option<Running<J, R>> {
        let (jobs, queue) = mpsc::channel::<(u64, J)>();
        let (answers, done) = mpsc::channel();
        let run = self.run;
        std::thread::Builder::new()
            .name(self.name.into())
            .spawn(move || {
                while let Ok(mut job) = queue.recv() {
                    // Jobs a newer one replaced before they began are skipped.
                    while let Ok(newer) = queue.try_recv() {
                        job = newer;
                    }
                    let (generation, job) = job;
                    if answers.send((generation, run(job))).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Running { jobs, done })
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
    pub fn take(&mut self) -> Option<R> {
        self.wait(Duration::ZERO)
    }

    /// Waits up to `timeout` for the answer to the newest job (older answers are dropped).
    pub fn wait(&mut self, timeout: Duration) -> Option<R> {
        let deadline = crate::clock::now() + timeout;
        while self.waiting.is_some() {
            let left = deadline.saturating_duration_since(crate::clock::now());
            let received = match &self.running {
                Some(running) => running.done.recv_timeout(left),
                None => Err(RecvTimeoutError::Disconnected),
            };
            match received {
                Ok((generation, answer)) => {
                    if self.accept(generation) {
                        return Some(answer);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => self.waiting = None,
            }
        }
        None
    }

    fn accept(&mut self, generation: u64) -> bool {
        let newest = self.waiting == Some(generation);
        if newest {
            self.waiting = None;
        }
        newest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_square(n: u64) -> u64 {
        std::thread::sleep(Duration::from_millis(5));
        n * n
    }

    #[test]
    fn only_the_newest_answer_is_taken() {
        let mut worker = LatestWorker::new("test worker", slow_square);
        for generation in 1..=20 {
            worker.submit(generation, generation).expect("running");
        }
        assert!(worker.is_busy());
        assert_eq!(worker.wait(Duration::from_secs(30)), Some(400));
        assert!(!worker.is_busy());
        assert_eq!(worker.take(), None, "nothing more is waited for");
        // Older answers still arriving are dropped.
        worker.submit(21, 3).expect("running");
        assert_eq!(worker.wait(Duration::from_secs(30)), Some(9));
    }

    #[test]
    fn small_jobs_are_answered_here_and_outdate_the_one_waited_for() {
        let mut worker = LatestWorker::new("test worker", slow_square);
        assert_eq!(worker.answer_or_submit(1, 5, true), None);
        assert!(worker.is_busy());
        assert_eq!(worker.answer_or_submit(2, 6, false), Some(36));
        assert!(!worker.is_busy(), "the answer for 1 is of no use now");
        assert_eq!(worker.wait(Duration::from_millis(100)), None);
    }

    #[test]
    fn a_forgotten_job_is_not_answered() {
        let mut worker = LatestWorker::new("test worker", slow_square);
        worker.submit(1, 7).expect("running");
        worker.forget();
        assert!(!worker.is_busy());
        assert_eq!(worker.wait(Duration::from_millis(100)), None);
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(worker.take(), None);
    }
}
