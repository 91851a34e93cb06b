//! The application's tests, the window's (driven by kittest, no display) and the command
//! line's, in one test binary: each module is one part of the application. One binary links
//! the application once, where a binary per part linked it once per part. The golden pictures
//! (`tests/golden.rs`) and the tile maps' memory (`tests/map_memory.rs`, which reads the
//! process's peak memory and so runs alone) are binaries of their own.

#[path = "../common/mod.rs"]
mod common;

mod animation;
mod app_ui;
mod clearance_ui;
mod cli;
mod crowd_ui;
mod diagnostics_ui;
mod floors_ui;
mod grid_ui;
mod hostile_files;
mod layering;
mod legends_ui;
mod lesson;
mod level_geometry;
mod level_ui;
mod links_ui;
mod malformed_cli;
mod mesh_edit_ui;
mod optimal_ui;
mod posthoc;
mod pseudocode_ui;
mod pursuit_ui;
mod share_and_uploads;
