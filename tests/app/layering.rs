//! The library stays free of the window: `navlab-core` (the algorithms) depends on none of the
//! window's or the command line's crates, so the compiler refuses any use of them there. This
//! checks the manifest that keeps it so.

use crate::common;

/// Crates of the window and the command line, which the core must not depend on.
const FORBIDDEN: [&str; 8] = [
    "egui",
    "eframe",
    "egui_plot",
    "egui_kittest",
    "winit",
    "rfd",
    "clap",
    "navlab",
];

/// The names of the crates a manifest's `[dependencies]` sections list (also the
/// target-specific ones), with their lines.
fn dependencies(manifest: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_dependencies = false;
    for (i, line) in manifest.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            in_dependencies = line.ends_with("dependencies]") && !line.contains("dev-dependencies");
            continue;
        }
        if in_dependencies && let Some((name, _)) = line.split_once('=') {
            let name = name.trim();
            if !name.is_empty() && !name.starts_with('#') {
                found.push((i + 1, name.to_string()));
            }
        }
    }
    found
}

#[test]
fn the_scan_reads_every_dependency_section_but_the_development_ones() {
    let manifest = "[package]\nname = \"x\"\n[dependencies]\nspade = \"2\"\n\
                    [target.'cfg(unix)'.dependencies]\negui = \"0.37\"\n\
                    [dev-dependencies]\nproptest = \"1\"\n";
    assert_eq!(
        dependencies(manifest),
        [(4, "spade".to_string()), (6, "egui".to_string())]
    );
}

#[test]
fn the_core_depends_on_nothing_of_the_window_or_the_command_line() {
    let manifest =
        std::fs::read_to_string(common::repo_path("core/Cargo.toml")).expect("the core's manifest");
    let listed = dependencies(&manifest);
    assert!(
        listed.len() > 10,
        "only {listed:?} found: the manifest moved?"
    );
    let offences: Vec<String> = listed
        .iter()
        .filter(|(_, name)| FORBIDDEN.contains(&name.replace('-', "_").as_str()))
        .map(|(line, name)| format!("core/Cargo.toml:{line}: {name}"))
        .collect();
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}
