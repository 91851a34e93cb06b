//! Every grid algorithm on one map, start and goal — each one's answer, work, memory and
//! passes, and its time on runs that record nothing: the paper's time/memory claim measured
//! on the user's own map (the lab's comparison table and `navlab compare`).

use super::search::{GridScratch, grid_search_with_scratch};
use super::{Cell, Connectivity, GridAlgorithm, TileMap};
use crate::search::events::FnObserver;
use crate::search::{ExpansionOrder, NoObserver, SearchEvent, SearchOutcome, WorkLimit};

/// One algorithm's row of the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct ComparisonRow {
    /// Algorithm name ("JPS (as A*)" where Jump Point Search's pruning does not hold).
    pub name: &'static str,
    /// How it ended.
    pub outcome: SearchOutcome,
    /// Path cost.
    pub cost: f64,
    /// Nodes expanded.
    pub expanded: usize,
    /// Peak memory in nodes.
    pub peak_memory: usize,
    /// IDA*'s and Fringe's passes (threshold raises plus the first); `None` for the others.
    pub passes: Option<usize>,
    /// What waited for a later pass: Fringe's deferrals (list entries whose `f` was above the
    /// threshold, moved to the later list) and IDA*'s cut-offs (children over the threshold,
    /// found again by the next pass's search from the start). Each costs a visit that expands
    /// nothing. `None` for the others.
    pub deferred: Option<usize>,
    /// Microseconds per run, measured on runs that record nothing (a run of 250 ms or more
    /// once, as it answers, counting its passes and put-offs only).
    pub micros: f64,
    /// Theta*: how much longer its path is than the shortest path at any angle between the same
    /// cell centres (the visibility graph's), as a fraction (0.01: 1 % longer); `None` for the
    /// others, and when there is no path or the map has too many wall corners for the graph.
    pub over_exact: Option<f64>,
}

impl ComparisonRow {
    /// As `navlab compare --json` prints it (`null` where the table shows —).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "algorithm": self.name,
            "status": self.outcome.name(),
            "length": self.cost.is_finite().then_some(self.cost),
            "expanded": self.expanded,
            "peak_memory": self.peak_memory,
            "passes": self.passes,
            "put_off": self.deferred,
            "micros": self.micros,
            "over_exact": self.over_exact,
        })
    }
}

/// Runs each of `algorithms` from `start` to `goal` once for its answer and counts, then
/// times runs that record nothing (at least 3, and for at least 20 ms, but one run past
/// 250 ms is enough; when the answer's run took that long, its time is taken), in the order
/// given. Each run gives up after `work_limit` visits (see
/// [`WorkLimit`]; 0: never; IDA* keeps its own node budget).
pub fn compare_algorithms(
    map: &TileMap,
    start: Cell,
    goal: Cell,
    algorithms: &[GridAlgorithm],
    connectivity: Connectivity,
    work_limit: u64,
) -> Vec<ComparisonRow> {
    let mut scratch = GridScratch::default();
    algorithms
        .iter()
        .map(|&algorithm| {
            let (mut passes, mut deferred) = (0usize, 0usize);
            let answered = crate::clock::Stopwatch::start();
            let result = grid_search_with_scratch(
                &mut scratch,
                map,
                start,
                goal,
                algorithm,
                connectivity,
                &mut WorkLimit::new(
                    &mut FnObserver(|event| match event {
                        SearchEvent::IterationStarted { .. } => passes += 1,
                        SearchEvent::Deferred { .. } | SearchEvent::CutOff { .. } => deferred += 1,
                        _ => {}
                    }),
                    work_limit,
                ),
            );
            let answer_time = answered.elapsed();
            let started = crate::clock::Stopwatch::start();
            let mut runs = 0u32;
            // A run as slow as the timing's limit (see `timing_goes_on`) is timed well enough
            // by the answer's run, which only counts: running it again would double the wait.
            let slow = answer_time >= SLOW_RUN;
            while !slow && timing_goes_on(runs, started.elapsed()) {
                std::hint::black_box(grid_search_with_scratch(
                    &mut scratch,
                    map,
                    start,
                    goal,
                    algorithm,
                    connectivity,
                    &mut WorkLimit::new(&mut NoObserver, work_limit),
                ));
                runs += 1;
            }
            let micros = if slow {
                answer_time.as_secs_f64() * 1e6
            } else {
                started.elapsed().as_secs_f64() * 1e6 / f64::from(runs)
            };
            // IDA* and Fringe search in passes, each under a threshold.
            let passing = algorithm.expansion_order() == ExpansionOrder::WithinThreshold;
            ComparisonRow {
                name: algorithm.name_as_run(map, connectivity),
                outcome: result.outcome,
                cost: result.cost,
                expanded: result.expanded,
                peak_memory: result.peak_memory,
                passes: passing.then_some(passes),
                deferred: passing.then_some(deferred),
                micros,
                over_exact: (algorithm == GridAlgorithm::ThetaStar
                    && result.outcome == SearchOutcome::Found)
                    .then(|| over_exact(map, start, goal, result.cost))
                    .flatten(),
            }
        })
        .collect()
}

/// How much longer than the shortest path at any angle between the centres of `start` and
/// `goal` (the visibility graph's) a path of `length` is; `None` when the map has too many wall
/// corners for the graph.
fn over_exact(map: &TileMap, start: Cell, goal: Cell, length: f64) -> Option<f64> {
    use super::free_segment::HalfPoint;
    let graph = super::visibility::VisibilityGraph::build(map).ok()?;
    let exact = graph.find_path(
        map,
        HalfPoint::centre(start),
        HalfPoint::centre(goal),
        &mut NoObserver,
    );
    (exact.outcome == SearchOutcome::Found && exact.length > 0.0)
        .then(|| length / exact.length - 1.0)
}

/// Whether to time one more run after `runs` runs took `elapsed` in all: at least 3 runs and
/// 20 ms, so fast searches are timed over many runs, but never past 10,000 runs, and no more
/// once the runs took 250 ms — one run that slow (IDA* on a large map) is measured well
/// enough, and repeating it would keep the user waiting seconds for the table.
fn timing_goes_on(runs: u32, elapsed: std::time::Duration) -> bool {
    let enough = runs >= 3 && elapsed >= std::time::Duration::from_millis(20);
    runs == 0 || (!enough && runs < 10_000 && elapsed < SLOW_RUN)
}

/// Timing stops once the runs took this long.
const SLOW_RUN: std::time::Duration = std::time::Duration::from_millis(250);

/// How a search ended, in the table's words.
pub fn outcome_word(outcome: SearchOutcome) -> &'static str {
    match outcome {
        SearchOutcome::Found => "found",
        SearchOutcome::Unreachable => "unreachable",
        SearchOutcome::BudgetExceeded => "over budget",
    }
}

/// The comparison as tab-separated text with a header row, numbers in full (empty where the
/// window shows —): what the lab's Copy table puts on the clipboard.
pub fn comparison_table_text(rows: &[ComparisonRow]) -> String {
    let mut text =
        "Algorithm\tCost\tExpanded\tPasses\tPut off\tPeak memory\tTime (µs)\tStatus\n".to_string();
    let optional = |n: Option<usize>| n.map_or_else(String::new, |n| n.to_string());
    for r in rows {
        let cost = if r.cost.is_finite() {
            r.cost.to_string()
        } else {
            String::new()
        };
        text += &format!(
            "{}\t{cost}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            r.name,
            r.expanded,
            optional(r.passes),
            optional(r.deferred),
            r.peak_memory,
            r.micros,
            outcome_word(r.outcome)
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::grid_search;

    /// Fast searches are repeated for a steady figure; a slow one is timed once, not four
    /// times (IDA* near its budget takes seconds a run).
    #[test]
    fn timing_repeats_fast_runs_and_not_slow_ones() {
        let ms = std::time::Duration::from_millis;
        assert!(timing_goes_on(0, ms(0)));
        assert!(timing_goes_on(2, ms(30)), "fewer than 3 runs");
        assert!(timing_goes_on(3, ms(5)), "under 20 ms");
        assert!(!timing_goes_on(3, ms(20)));
        assert!(!timing_goes_on(10_000, ms(1)), "the run cap");
        assert!(!timing_goes_on(1, ms(250)), "one slow run is enough");
        assert!(timing_goes_on(1, ms(249)));
    }

    /// Each row is its algorithm's own answer (a direct search is the oracle), in the order
    /// asked; passes and put-offs only for IDA* and Fringe.
    #[test]
    fn each_row_is_its_algorithms_answer() {
        let map = TileMap::from_ascii("..........\n.@@@@@@@..\n.......@..\n.@@@@..@..\n....@.....")
            .expect("map");
        let (start, goal) = ((0, 2), (9, 4));
        let rows = compare_algorithms(
            &map,
            start,
            goal,
            &GridAlgorithm::ALL,
            Connectivity::Eight,
            0,
        );
        assert_eq!(rows.len(), GridAlgorithm::ALL.len());
        for (row, &algorithm) in rows.iter().zip(&GridAlgorithm::ALL) {
            let direct = grid_search(
                &map,
                start,
                goal,
                algorithm,
                Connectivity::Eight,
                &mut NoObserver,
            );
            assert_eq!(row.name, algorithm.name());
            assert_eq!(row.outcome, direct.outcome);
            assert_eq!(row.cost.to_bits(), direct.cost.to_bits(), "{}", row.name);
            assert_eq!(row.expanded, direct.expanded, "{}", row.name);
            assert_eq!(row.peak_memory, direct.peak_memory, "{}", row.name);
            assert!(row.micros > 0.0);
            let passing = matches!(
                algorithm,
                GridAlgorithm::IdaStar { .. } | GridAlgorithm::Fringe { .. }
            );
            assert_eq!(row.passes.is_some(), passing, "{}", row.name);
            assert!(row.passes.is_none_or(|p| p >= 1));
        }
        let text = comparison_table_text(&rows);
        assert_eq!(text.lines().count(), rows.len() + 1);
        assert!(
            text.lines().skip(1).all(|l| l.ends_with("\tfound")),
            "{text}"
        );
    }
}
