//! The files the polyanya crate ships in its package (game meshes and their scenarios), read
//! from Cargo's copy of the crate.

use std::path::PathBuf;

/// The folder Cargo unpacked the polyanya crate into.
fn crate_folder() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let registries = std::fs::read_dir(home.join("registry/src")).ok()?;
    registries
        .flatten()
        .map(|r| r.path().join("polyanya-0.18.0"))
        .find(|p| p.is_dir())
}

/// The crate's file at `rel`, or `None` (saying so) when it is not there.
pub fn from_crate(rel: &str) -> Option<PathBuf> {
    let path = crate_folder().map(|f| f.join(rel));
    if path.as_ref().is_none_or(|p| !p.exists()) {
        eprintln!("SKIPPED: the polyanya crate's {rel} was not found under CARGO_HOME");
        return None;
    }
    path
}
