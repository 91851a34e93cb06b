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
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
