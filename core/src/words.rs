//! Small helpers for the sentences navlab prints: counts with the noun in the right number,
//! large numbers in groups of three digits.

/// `n` and the noun, plural unless `n` is 1: "1 island", "3 islands", "0 welds". For nouns
/// whose plural adds an "s".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `n` with its digits in groups of three: "999", "1,000", "1,234,567".
pub fn thousands(n: usize) -> String {
    grouped(&n.to_string())
}

/// `x` with `places` decimals and its whole part in groups of three: "1,180,585.8".
pub fn thousands_decimal(x: f64, places: usize) -> String {
    let text = format!("{x:.places$}");
    let (sign, unsigned) = text.split_at(usize::from(text.starts_with('-')));
    let (whole, fraction) = unsigned.split_at(unsigned.find('.').unwrap_or(unsigned.len()));
    if whole.bytes().all(|b| b.is_ascii_digit()) {
        format!("{sign}{}{fraction}", grouped(whole))
    } else {
        text // inf, NaN
    }
}

/// `x` with `places` decimals, or in scientific notation once its whole part would run past
/// fifteen digits (a coordinate of 1e300 typed by hand): "12.500", "1.000e300".
pub fn decimal(x: f64, places: usize) -> String {
    if x.abs() < 1e15 || !x.is_finite() {
        format!("{x:.places$}")
    } else {
        format!("{x:.places$e}")
    }
}

/// `x` as short as it reads exactly to two decimals: "3", "0.5", "1.25".
pub fn short_number(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `x` to three significant digits, with no trailing zeros, as a person reads a measure:
/// "0.987", "12.5", "1,235", "0.000123".
pub fn readable(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return x.to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    let places = (2 - magnitude).max(0) as usize;
    let rounded = format!("{x:.places$}");
    let trimmed = if rounded.contains('.') {
        rounded.trim_end_matches('0').trim_end_matches('.')
    } else {
        &rounded
    };
    if magnitude >= 3 {
        let unit = 10f64.powi(magnitude - 2);
        thousands_decimal((x / unit).round() * unit, 0)
    } else {
        trimmed.to_string()
    }
}

/// A string of digits with a comma before each group of three from the right.
fn grouped(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A number typed with or without group separators ("2,000,000", "2 000 000", "2_000_000").
pub fn parse_grouped(text: &str) -> Option<f64> {
    let digits: String = text
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' ' | '\u{a0}'))
        .collect();
    digits.parse().ok()
}

/// When a node was expanded, from the recorded steps that expanded it (earliest first): "not
/// expanded", "expanded at step 1,234", "expanded at steps 10, 200 and 3,000", or, past four,
/// "expanded 12 times, first at step 10, last at step 3,000".
pub fn expanded_at(steps: &[usize]) -> String {
    match steps {
        [] => "not expanded".to_owned(),
        [step] => format!("expanded at step {}", thousands(*step)),
        [earlier @ .., last] if steps.len() <= 4 => {
            let earlier: Vec<String> = earlier.iter().map(|&s| thousands(s)).collect();
            format!(
                "expanded at steps {} and {}",
                earlier.join(", "),
                thousands(*last)
            )
        }
        [first, .., last] => format!(
            "expanded {} times, first at step {}, last at step {}",
            thousands(steps.len()),
            thousands(*first),
            thousands(*last)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_numbers_keep_three_significant_digits() {
        assert_eq!(readable(0.9873929023700001), "0.987");
        assert_eq!(readable(12.5), "12.5");
        assert_eq!(readable(3.0), "3");
        assert_eq!(readable(1234.6), "1,230");
        assert_eq!(readable(0.000123456), "0.000123");
        assert_eq!(readable(-0.25), "-0.25");
        assert_eq!(readable(0.0), "0");
    }

    #[test]
    fn decimals_stay_fixed_until_the_whole_part_is_huge() {
        assert_eq!(decimal(12.5, 3), "12.500");
        assert_eq!(decimal(-0.25, 2), "-0.25");
        assert_eq!(decimal(999_999_999_999_999.0, 1), "999999999999999.0");
        assert_eq!(decimal(1e300, 3), "1.000e300");
        assert_eq!(decimal(-2.5e20, 2), "-2.50e20");
        assert_eq!(decimal(f64::INFINITY, 3), "inf");
    }

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "island"), "1 island");
        assert_eq!(count(0, "weld"), "0 welds");
        assert_eq!(count(12, "edge split"), "12 edge splits");
    }

    #[test]
    fn thousands_are_grouped_from_the_right() {
        for (n, text) in [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (12_345, "12,345"),
            (1_000_000, "1,000,000"),
            (1_234_567_890, "1,234,567,890"),
        ] {
            assert_eq!(thousands(n), text);
        }
    }

    #[test]
    fn decimals_keep_their_places_and_group_the_whole_part() {
        assert_eq!(thousands_decimal(1_180_585.84, 1), "1,180,585.8");
        assert_eq!(thousands_decimal(999.96, 1), "1,000.0");
        assert_eq!(thousands_decimal(0.25, 2), "0.25");
        assert_eq!(thousands_decimal(-12_345.0, 0), "-12,345");
        assert_eq!(thousands_decimal(f64::INFINITY, 1), "inf");
    }

    #[test]
    fn grouped_numbers_read_back() {
        for n in [0, 999, 1_000, 2_000_000, 1_234_567] {
            assert_eq!(parse_grouped(&thousands(n)), Some(n as f64));
        }
        assert_eq!(parse_grouped("2 000 000"), Some(2e6));
        assert_eq!(parse_grouped(" 5_000 "), Some(5e3));
        assert_eq!(parse_grouped("12.5"), Some(12.5));
        assert_eq!(parse_grouped("lots"), None);
        assert_eq!(parse_grouped(""), None);
    }

    #[test]
    fn expansions_are_told_as_a_list_up_to_four_then_first_and_last() {
        assert_eq!(expanded_at(&[]), "not expanded");
        assert_eq!(expanded_at(&[1234]), "expanded at step 1,234");
        assert_eq!(expanded_at(&[3, 9]), "expanded at steps 3 and 9");
        assert_eq!(
            expanded_at(&[10, 200, 3_000]),
            "expanded at steps 10, 200 and 3,000"
        );
        assert_eq!(
            expanded_at(&[1, 2, 3, 4]),
            "expanded at steps 1, 2, 3 and 4"
        );
        assert_eq!(
            expanded_at(&[10, 20, 30, 40, 5_000]),
            "expanded 5 times, first at step 10, last at step 5,000"
        );
    }
}
