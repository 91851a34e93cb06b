//! Any bytes as an OBJ (either plane) or a Polyanya mesh: see `checks/mesh_file.rs`.
#![no_main]

// The checks' path functions are for core/tests/malformed.rs, which runs them on real files.
#[allow(dead_code)]
#[path = "../checks/mesh_file.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::mesh_file(data));
