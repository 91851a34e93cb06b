//! Progress of a long command-line run (a scenario file, thousands of quality queries), as a
//! bar on standard error ([`indicatif`]) — drawn only when standard error is a terminal, so
//! that scripts and logs get the results alone.

/// A bar counting `len` items of work; gone from the terminal when dropped.
pub struct Progress {
    #[cfg(not(target_arch = "wasm32"))]
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar for `len` items, each item called `what` ("scenarios").
    pub fn new(len: usize, what: &str) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let bar = indicatif::ProgressBar::new(len as u64);
            let template = format!("{{bar:40}} {{pos}} of {{len}} {what}, {{eta}} left");
            if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
                bar.set_style(style);
            }
            Self { bar }
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = (len, what);
            Self {}
        }
    }

    /// One more item done.
    pub fn step(&self) {
        #[cfg(not(target_arch = "wasm32"))]
        self.bar.inc(1);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        self.bar.finish_and_clear();
    }
}
