//! Any bytes as a MovingAI map, a navlab JSON map, a Tiled map or a scenario file: see
//! `checks/map_file.rs`.
#![no_main]

#[path = "../checks/map_file.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::map_file(data));
