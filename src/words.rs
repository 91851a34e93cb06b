//! Small helpers for the sentences navlab prints: counts with the noun in the right number.

/// `n` and the noun, plural unless `n` is 1: "1 island", "3 islands", "0 welds". For nouns
/// whose plural adds an "s".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
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
}
