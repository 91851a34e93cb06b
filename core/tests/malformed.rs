//! Broken files never panic: a corpus of malformed OBJ and Polyanya files goes through the
//! loader and the CLI, and random byte and token soups go through every parser (meshes, tile
//! maps, scenarios).

mod common;
use common::broken_files::{mesh_corpus, obj_corpus};
use common::cases_or;
use navlab_core::grid::movingai::{parse_map, parse_navlab_json, parse_scenarios};
use navlab_core::grid::tiled::{parse_tmj, parse_tmx};
use navlab_core::navmesh::{NavMesh, Plane, obj, polyanya};
use proptest::prelude::*;

// The fuzz targets' checks (`fuzz/`), compiled and run here too: CI keeps them building, and
// proptest's inputs go through their whole pipeline.
#[path = "../../fuzz/checks/map_file.rs"]
mod map_file_checks;
#[path = "../../fuzz/checks/mesh_file.rs"]
mod mesh_file_checks;

#[test]
fn loaders_reject_every_broken_file_with_its_name_and_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, bytes, line) in obj_corpus().into_iter().chain(mesh_corpus()) {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).expect("write");
        let result = NavMesh::load(&path, Plane::Xz);
        let Err(error) = result else {
            panic!("{name} loaded, but it is broken");
        };
        let message = error.to_string();
        assert!(
            message.contains(name),
            "{name}: message does not name the file: {message}"
        );
        if let Some(line) = line {
            assert!(
                message.contains(&format!("{name}:{line}:")),
                "{name}: expected line {line} in: {message}"
            );
        }
    }
}

#[test]
fn what_real_exporters_write_loads() {
    // CRLF endings, a missing material library, references to normals and uvs that are not
    // there (ignored: navigation needs neither), slash forms, negative indices, a pentagon, a
    // repeated triangle, and two objects whose shared edge is welded.
    let text = "mtllib missing.mtl\r\n\
        o First\r\n\
        v 0 0 0\r\nv 1 0 0\r\nv 1 0 1\r\nv 0 0 1\r\n\
        vt 0 0\r\nvn 0 1 0\r\n\
        usemtl Floor\r\n\
        f 1/1/1 2/1/1 3/1/1\r\nf 1/1/1 3/1/1 4/1/1\r\n\
        o Second\r\n\
        v 1 0 0\r\nv 2 0 0\r\nv 2.5 0 0.5\r\nv 2 0 1\r\nv 1 0 1\r\n\
        f -5//1 -4//1 -3//1 -2//1 -1//1\r\n\
        f 1//9 2//9 3//9\r\n";
    let mesh = obj::parse(text.as_bytes(), "exporter.obj", Plane::Xz).expect("loads");
    let s = mesh.summary();
    assert_eq!(s.islands, 1, "the two objects share a welded edge");
    assert_eq!(s.vertices, 7);
    // The file's two vertices written twice, at the shared edge's corners (the last face takes
    // its corners from the first object by the file's own numbers: nothing to weld there).
    assert_eq!(s.build.welded_vertices, 2);
    assert_eq!(
        s.build.duplicate_triangles, 1,
        "the last face repeats the first one"
    );
    assert!((s.area - 2.25).abs() < 1e-12, "area {}", s.area);
}

fn token_soup() -> impl Strategy<Value = Vec<u8>> {
    let token = prop::sample::select(vec![
        "v",
        "f",
        "vt",
        "vn",
        "o",
        "g",
        "mesh",
        "2",
        "3",
        "1",
        "0",
        "-1",
        "-3",
        "7",
        "0.5",
        "1e308",
        "-1e308",
        "nan",
        "inf",
        "1/2/3",
        "1//2",
        "/",
        "//",
        "#",
        "\n",
        "\n",
        "\n",
        " ",
        "\t",
        "\r\n",
        "99999999999",
        "x",
    ]);
    prop::collection::vec(token, 0..200).prop_map(|t| t.join(" ").into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_or(512), ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = obj::parse(&bytes, "fuzz.obj", Plane::Xz);
        let _ = polyanya::parse(&bytes, "fuzz.mesh");
    }

    /// Each soup read as each mesh format, and what loads checked, repaired and queried, as
    /// the `mesh_files` fuzz target does.
    #[test]
    fn token_soup_never_panics(bytes in token_soup()) {
        for format in 0..3 {
            mesh_file_checks::mesh_file(&as_fuzz_input(format, &bytes));
        }
    }

    #[test]
    fn random_bytes_never_panic_the_map_parsers(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_map(&bytes, "fuzz.map");
        let _ = parse_navlab_json(&bytes, "fuzz.json");
        let _ = parse_scenarios(&String::from_utf8_lossy(&bytes), "fuzz.scen");
        let _ = parse_tmx(&bytes, "fuzz.tmx");
        let _ = parse_tmj(&bytes, "fuzz.tmj");
    }

    /// Tiled objects with odd numbers (huge, negative, not numbers at all, rotated any way) are
    /// read or refused, never a panic; walls stay on the map.
    #[test]
    fn tiled_objects_with_odd_numbers_never_panic(
        values in prop::collection::vec(prop::sample::select(vec![
            "0", "8", "-8", "1e308", "-1e308", "1e-300", "NaN", "inf", "3.5", "720", "-45", "x", "",
        ]), 6),
        kind in prop::sample::select(vec!["", "<ellipse/>", "<point/>", "<polygon points=\"0,0 8,8 0,8\"/>"]),
        tile in prop::sample::select(vec!["16", "0", "-1", "1e-300", "big"]),
    ) {
        let xml = format!(
            "<map orientation=\"orthogonal\" width=\"4\" height=\"3\" tilewidth=\"{tile}\" tileheight=\"16\">\
             <objectgroup name=\"Collision\"><object x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" \
             rotation=\"{}\" gid=\"{}\">{kind}</object></objectgroup></map>",
            values[0], values[1], values[2], values[3], values[4], values[5]
        );
        if let Ok(import) = parse_tmx(xml.as_bytes(), "fuzz.tmx") {
            prop_assert_eq!((import.map.width(), import.map.height()), (4, 3));
        }
    }

    /// Each soup read as each map format (and as scenarios), and a small map that loads
    /// searched against Dijkstra and built, as the `map_files` fuzz target does.
    #[test]
    fn map_soup_never_panics(text in map_soup()) {
        for format in 0..5 {
            map_file_checks::map_file(&as_fuzz_input(format, text.as_bytes()));
        }
    }
}

/// Text made of the words and characters of `.map`, `.scen`, navlab JSON and Tiled files.
fn map_soup() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "type octile\n",
        "height 3\n",
        "width 3\n",
        "height 0\n",
        "width 99999999999\n",
        "map\n",
        "...\n",
        ".T@\n",
        "SWO\n",
        "GG\n",
        "version 1\n",
        "0 m.map 3 3 0 0 2 2 2.82843\n",
        "1 m.map 3 3 9 9 -1 0 nan\n",
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"navlab_map\": 1",
        "\"width\": 3",
        "\"height\": 2",
        "\"rows\"",
        "\"costs\": {\"grass\": 1, \"sand\": 2, \"water\": 3}",
        "\"...\"",
        "\"\\\"\"",
        "\"\\n\"",
        "\n",
        " ",
        "\r\n",
        "é",
        "<map orientation=\"orthogonal\" width=\"3\" height=\"2\">",
        "<map width=\"99999999999\" height=\"-1\">",
        "</map>",
        "<layer name=\"Collision\">",
        "</layer>",
        "<data encoding=\"csv\">",
        "<data>",
        "</data>",
        "<tile gid=\"3\"/>",
        "1,0,2147483653,",
        "<group>",
        "</group>",
        "\"layers\": [",
        "{\"type\": \"tilelayer\", \"name\": \"Walls\", \"data\": [1, 0, 4294967295]}",
        "\"infinite\": true",
        "<tileset firstgid=\"1\" source=\"missing.tsx\"/>",
        "<tileset firstgid=\"4294967295\"><tile id=\"7\"><properties><property name=\"solid\" value=\"true\"/></properties></tile></tileset>",
        "<data encoding=\"base64\" compression=\"zlib\">",
        "<data encoding=\"base64\" compression=\"gzip\">",
        "eJxjYGBgAAAABAAB",
        "AQAAAAIAAAA=",
        "\"tilesets\": [{\"firstgid\": 1, \"tiles\": [{\"id\": 0, \"properties\": [{\"name\": \"solid\", \"value\": true}]}]}]",
        "\"encoding\": \"base64\", \"compression\": \"zlib\", \"data\": \"eJxjYGBgAAAABAAB\"",
    ]);
    prop::collection::vec(token, 0..60).prop_map(|t| t.concat())
}

/// The fuzz targets' checks on real files, in every format they may be read as: the built-in
/// meshes, the Blender export and the Polyanya meshes (loaded, checked, repaired, queried),
/// and the MovingAI and Tiled maps (arena, small enough, also searched and built).
#[test]
fn the_fuzz_targets_checks_hold_on_real_files() {
    let mut meshes: Vec<std::path::PathBuf> = ["rooms", "maze", "hole", "stairs", "faulty"]
        .iter()
        .map(|name| common::repo_path(&format!("assets/{name}.obj")))
        .collect();
    meshes.extend(
        ["meshes/obj/level.nav.obj", "meshes/polyanya/arena.mesh"]
            .iter()
            .filter_map(|rel| common::testdata(rel)),
    );
    for path in &meshes {
        let bytes = std::fs::read(path).expect("read");
        for format in 0..3u8 {
            mesh_file_checks::mesh_file(&as_fuzz_input(format, &bytes));
        }
    }
    let maps = [
        "movingai/arena.map",
        "movingai/arena.map.scen",
        "tiled/orthogonal-simple.tmx",
        "tiled/orthogonal-simple.tmj",
    ];
    for path in maps.iter().filter_map(|rel| common::testdata(rel)) {
        let bytes = std::fs::read(&path).expect("read");
        for format in 0..5u8 {
            map_file_checks::map_file(&as_fuzz_input(format, &bytes));
        }
        map_file_checks::map_path(&path);
    }
    for path in &meshes {
        mesh_file_checks::mesh_path(path);
    }
}

/// The fuzz targets' checks on files opened from disk that are not files: a folder, devices,
/// a pipe (which would block a reader that opened it for ever).
#[test]
fn the_fuzz_targets_checks_refuse_what_is_not_a_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut paths = vec![dir.path().to_path_buf()];
    for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
        if std::path::Path::new(device).exists() {
            paths.push(device.into());
        }
    }
    let fifo = dir.path().join("pipe.obj");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        paths.push(fifo);
    } else {
        eprintln!("SKIPPED: the pipe case (mkfifo is absent)");
    }
    for path in &paths {
        mesh_file_checks::mesh_path(path);
        map_file_checks::map_path(path);
    }
}

/// A fuzz target's input: the byte that chooses the format, then the file.
fn as_fuzz_input(format: u8, file: &[u8]) -> Vec<u8> {
    [&[format][..], file].concat()
}
