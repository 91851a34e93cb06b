//! Axis marks for the lab's small charts: one round step, far enough apart on screen for
//! egui_plot to label every mark (its own marks are powers of ten, too dense to label on a
//! short chart, with the next ones up off it, which leaves an axis bare); and a long series
//! cut down to what the chart's pixels can show.

/// The plots' smallest grid spacing in points (`Plot::grid_spacing`): a spacer's
/// `base_step_size` is then this distance in values.
pub const MARK_SPACING: f32 = 30.0;

/// Marks one round step apart, at least `points` apart on screen (egui_plot labels y marks in
/// full from 30 points apart, x marks from 80), on a plot whose grid spacing starts at
/// [`MARK_SPACING`].
pub fn round_marks(input: &egui_plot::GridInput, points: f32) -> Vec<egui_plot::GridMark> {
    let at_least = input.base_step_size * f64::from(points / MARK_SPACING);
    integer_marks(input.bounds, round_step(at_least))
}

/// Marks of a log-scale axis at whole powers of ten, [`MARK_SPACING`] or more apart.
pub fn whole_power_marks(input: &egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    integer_marks(input.bounds, round_step(input.base_step_size).max(1.0))
}

/// Grid marks at the multiples of `step` inside `bounds`.
pub fn integer_marks(bounds: (f64, f64), step: f64) -> Vec<egui_plot::GridMark> {
    let (first, last) = ((bounds.0 / step).ceil(), (bounds.1 / step).floor());
    if !(first.is_finite() && last.is_finite()) || last - first > 100.0 {
        return Vec::new();
    }
    (first as i64..=last as i64)
        .map(|k| egui_plot::GridMark {
            value: k as f64 * step,
            step_size: step,
        })
        .collect()
}

/// The smallest round step (1, 2 or 5 times a power of ten) of at least `at_least`.
pub fn round_step(at_least: f64) -> f64 {
    if !(at_least.is_finite() && at_least > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(at_least.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= at_least * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// The label of a log-scale mark: `10^value` in short form (1, 10, 100, 1k … 1G) at whole
/// powers, nothing between them.
pub fn power_of_ten_label(value: f64) -> String {
    let power = value.round();
    if (value - power).abs() > 1e-6 || !(0.0..=12.0).contains(&power) {
        return String::new();
    }
    let (unit, rest) = match power as u32 {
        p @ 0..=2 => ("", p),
        p @ 3..=5 => ("k", p - 3),
        p @ 6..=8 => ("M", p - 6),
        p => ("G", p - 9),
    };
    format!("{}{unit}", 10u64.pow(rest))
}

/// The points `(step, value)` of `values` (steps from 1) to draw across `columns` pixels: all
/// of them when there are at most two a column, else each column's lowest and highest in the
/// order they come, so that the line drawn covers what the whole series would (a search's
/// open list over a hundred thousand steps on a chart 300 pixels wide).
pub fn decimated_series(values: &[u32], columns: usize) -> Vec<[f64; 2]> {
    let point = |i: usize, v: u32| [(i + 1) as f64, f64::from(v)];
    let columns = columns.max(1);
    if values.len() <= 2 * columns {
        return values
            .iter()
            .enumerate()
            .map(|(i, &v)| point(i, v))
            .collect();
    }
    let mut points = Vec::with_capacity(2 * columns);
    for c in 0..columns {
        let (start, end) = (c * values.len() / columns, (c + 1) * values.len() / columns);
        let Some(column) = values.get(start..end).filter(|c| !c.is_empty()) else {
            continue;
        };
        // The first lowest and the last highest, in one pass.
        let (mut low, mut high) = (0, 0);
        for (k, &v) in column.iter().enumerate() {
            if v < column[low] {
                low = k;
            }
            if v >= column[high] {
                high = k;
            }
        }
        for k in [low.min(high), low.max(high)] {
            points.push(point(start + k, column[k]));
        }
    }
    points.dedup();
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_marks_are_labelled_at_whole_powers_only() {
        let labels: Vec<String> = (0..=10).map(|p| power_of_ten_label(p as f64)).collect();
        assert_eq!(
            labels,
            [
                "1", "10", "100", "1k", "10k", "100k", "1M", "10M", "100M", "1G", "10G"
            ]
        );
        assert_eq!(power_of_ten_label(2.5), "");
        assert_eq!(power_of_ten_label(-1.0), "");
    }

    #[test]
    fn integer_marks_cover_the_range_in_steps() {
        let values =
            |b, step| -> Vec<f64> { integer_marks(b, step).iter().map(|m| m.value).collect() };
        assert_eq!(values((-0.4, 4.6), 1.0), [0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(values((0.0, 6.3), 2.0), [0.0, 2.0, 4.0, 6.0]);
        assert!(values((f64::NEG_INFINITY, 1.0), 1.0).is_empty());
    }

    #[test]
    fn round_steps_are_the_next_one_two_or_five() {
        assert_eq!(round_step(17.0), 20.0);
        assert_eq!(round_step(20.0), 20.0);
        assert_eq!(round_step(2.1), 5.0);
        assert_eq!(round_step(0.07), 0.1);
        assert_eq!(round_step(600.0), 1000.0);
        assert_eq!(round_step(0.0), 1.0);
        assert_eq!(round_step(f64::NAN), 1.0);
        for at_least in [0.003, 0.7, 1.0, 3.3, 65.57, 1234.5, 9.9e6] {
            let step = round_step(at_least);
            assert!(
                step >= at_least && step <= at_least * 2.5 + 1e-9,
                "{at_least}"
            );
        }
    }

    #[test]
    fn a_long_series_keeps_each_column_s_lowest_and_highest() {
        let values: Vec<u32> = (0..10_000u32).map(|i| (i * 7919) % 1000).collect();
        let columns = 300;
        let points = decimated_series(&values, columns);
        assert!(points.len() <= 2 * columns, "{}", points.len());
        assert!(
            points.windows(2).all(|w| w[0][0] < w[1][0]),
            "in step order"
        );
        for c in 0..columns {
            let (start, end) = (c * values.len() / columns, (c + 1) * values.len() / columns);
            let column = &values[start..end];
            let shown: Vec<f64> = points
                .iter()
                .filter(|p| p[0] > start as f64 && p[0] <= end as f64)
                .map(|p| p[1])
                .collect();
            let (low, high) = (column.iter().min(), column.iter().max());
            assert!(
                shown.contains(&f64::from(*low.expect("values"))),
                "column {c}"
            );
            assert!(
                shown.contains(&f64::from(*high.expect("values"))),
                "column {c}"
            );
        }
        let short = decimated_series(&[3, 1, 4], columns);
        assert_eq!(short, vec![[1.0, 3.0], [2.0, 1.0], [3.0, 4.0]]);
    }
}
