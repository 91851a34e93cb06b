//! What the benches share: the ratio of a measure to its floor, printed after a group runs.

/// Prints the ratio of two benchmarks' mean times in `group`, from criterion's estimates of
/// their last runs: a measure over its floor, against the most it should be.
pub fn print_ratio(group: &str, measured: &str, floor: &str, goal: f64) {
    // Criterion writes under the workspace's target folder: the one beside Cargo.lock.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            let mut dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
            while !dir.join("Cargo.lock").exists() && dir.pop() {}
            dir.join("target")
        });
    let mean = |name: &str| -> Option<f64> {
        let path = target
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
