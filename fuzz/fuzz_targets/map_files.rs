//! Any bytes as a MovingAI map, a navlab JSON map, a Tiled map or a scenario file: see
//! `checks/map_file.rs`.
#![no_main]

// The checks' path functions are for core/tests/malformed.rs, which runs them on real files.
#[allow(dead_code)]
#[path = "../checks/map_file.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::map_file(data));
