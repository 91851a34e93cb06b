//! Durations measured for people to read (how long a search, a build or a cut took), all
//! through one [`Stopwatch`]: on `web_time`, so the same code runs in a browser (where
//! `std::time::Instant::now` panics), and with a switch that makes every reading one fixed
//! value, for pictures and outputs that must come out the same on every run (the golden
//! pictures of the views).
//!
//! Timeouts and deadlines are not measurements: they take [`now`], never a fixed reading.
//! [`now`] and [`system_now`] are the only calls of the system's clock in the crate
//! (`clippy.toml` forbids `Instant::now` and `SystemTime::now` elsewhere).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What every stopwatch reads while readings are fixed: long enough that a loop timing
/// repeated runs (the comparison's) stops after a few.
pub const FIXED_READING: Duration = Duration::from_millis(20);

static FIXED: AtomicBool = AtomicBool::new(false);

/// Makes every stopwatch of this process read [`FIXED_READING`] (`true`), or the time
/// (`false`, the default).
pub fn fix_readings(fixed: bool) {
    FIXED.store(fixed, Ordering::Relaxed);
}

/// The current instant, for deadlines and timeouts: `web_time`'s, which in a browser reads
/// the page's clock.
#[allow(
    clippy::disallowed_methods,
    reason = "the one call of the clock; web_time's, which works in a browser"
)]
pub fn now() -> web_time::Instant {
    web_time::Instant::now()
}

/// The current date and time (for names that must not repeat after a restart).
#[allow(
    clippy::disallowed_methods,
    reason = "the one call of the system time; web_time's, which works in a browser"
)]
pub fn system_now() -> web_time::SystemTime {
    web_time::SystemTime::now()
}

/// A running measurement of elapsed time.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch {
    /// When it started; `None` while readings are fixed.
    started: Option<web_time::Instant>,
}

impl Stopwatch {
    /// Starts measuring.
    pub fn start() -> Self {
        Self {
            started: (!FIXED.load(Ordering::Relaxed)).then(now),
        }
    }

    /// The time since [`start`](Self::start), or [`FIXED_READING`] while readings are fixed.
    pub fn elapsed(&self) -> Duration {
        self.started
            .map_or(FIXED_READING, |started| started.elapsed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopwatch_measures_time_that_passes() {
        let watch = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(2));
        assert!(watch.elapsed() >= Duration::from_millis(2));
    }
}
