//! The library stays free of the window: no module of the algorithms (`geom`, `search`, `grid`,
//! `navmesh`, `pursuit`, `partitions`, and the small `words`, `atomic`, `assets`) names egui,
//! eframe, egui_plot or rfd, nor reaches into the app or the command line.

mod common;
use std::path::{Path, PathBuf};

/// The library's modules, as paths under `src/`.
const LIBRARY: [&str; 9] = [
    "geom.rs",
    "search",
    "grid",
    "navmesh",
    "pursuit",
    "partitions.rs",
    "words.rs",
    "atomic.rs",
    "assets.rs",
];

/// Names a library module must not use: the window's crates and the modules built on them.
const FORBIDDEN: [&str; 4] = ["egui", "eframe", "egui_plot", "rfd"];
const FORBIDDEN_PATHS: [&str; 2] = ["crate::app", "crate::cli"];

/// Every `.rs` file at or under `path`.
fn rust_files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).expect("a folder of the library") {
        let entry = entry.expect("an entry");
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The forbidden names `text` uses, with their lines: whole identifiers (so `regular` is not
/// `egui`), anywhere, comments included.
fn forbidden_names(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for word in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if FORBIDDEN.contains(&word) {
                found.push((i + 1, word.to_string()));
            }
        }
        for path in FORBIDDEN_PATHS {
            if line.contains(path) {
                found.push((i + 1, path.to_string()));
            }
        }
    }
    found
}

#[test]
fn the_scan_finds_what_it_looks_for_and_nothing_else() {
    let text = "use egui::Ui;\n// an eframe window\nlet regular = rfds;\nuse crate::app::x;\n";
    let found = forbidden_names(text);
    assert_eq!(
        found,
        [
            (1, "egui".to_string()),
            (2, "eframe".to_string()),
            (4, "crate::app".to_string())
        ]
    );
}

#[test]
fn no_library_module_names_the_window() {
    let src = common::repo_path("src");
    let mut offences = Vec::new();
    let mut files = 0;
    for module in LIBRARY {
        for file in rust_files(&src.join(module)) {
            files += 1;
            let text = std::fs::read_to_string(&file).expect("readable");
            for (line, name) in forbidden_names(&text) {
                offences.push(format!("{}:{line}: {name}", file.display()));
            }
        }
    }
    assert!(files > 40, "only {files} files found: the layout moved?");
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}
