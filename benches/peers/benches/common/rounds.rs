//! What the peer benches share: navlab and a peer timed in turn, round after round, so that a
//! slow spell of a shared machine weighs on both; the median of the rounds' ratios is printed
//! beside criterion's figures.

use navlab_core::clock::Stopwatch;

/// Seconds per call of `run`, over calls adding up to at least `at_least` seconds.
pub fn timed(run: &dyn Fn(), at_least: f64) -> f64 {
    let clock = Stopwatch::start();
    let mut calls = 0u32;
    while clock.elapsed().as_secs_f64() < at_least {
        run();
        calls += 1;
    }
    clock.elapsed().as_secs_f64() / f64::from(calls)
}

/// Prints the median (lowest, highest) of eleven rounds' ratios of the peer's time to navlab's,
/// each side timed for at least `at_least` seconds per round.
pub fn print_alternating_ratio(name: &str, navlab: &dyn Fn(), peer: &dyn Fn(), at_least: f64) {
    let mut ratios: Vec<f64> = (0..11)
        .map(|_| timed(peer, at_least) / timed(navlab, at_least))
        .collect();
    ratios.sort_by(f64::total_cmp);
    eprintln!(
        "{name}: crate ÷ navlab in 11 alternating rounds: median {:.2} (lowest {:.2}, highest {:.2})",
        ratios[5], ratios[0], ratios[10]
    );
}
