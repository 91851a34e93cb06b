//! What the benches share: the ratio of a measure to its floor, printed after a group runs.

/// Prints the ratio of two benchmarks' mean times in `group`, from criterion's estimates of
/// their last runs: a measure over its floor, against the most it should be.
pub fn print_ratio(group: &str, measured: &str, floor: &str, goal: f64) {
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_string());
    let mean = |name: &str| -> Option<f64> {
        let path = std::path::Path::new(&target)
            .join("criterion")
            .join(group)
            .join(name)
            .join("new/estimates.json");
        let text = std::fs::read_to_string(path).ok()?;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        json["mean"]["point_estimate"].as_f64()
    };
    if let (Some(a), Some(b)) = (mean(measured), mean(floor)) {
        println!(
            "ratio {group}: \"{measured}\" ÷ \"{floor}\" = {:.2} (at most {goal})",
            a / b
        );
    }
}
