//! Files made to hurt: decompression bombs, devices, pipes, huge files, tilesets outside the
//! map's folder, planted links, costs that overflow, meshes too large to hold, a face of a
//! hundred thousand corners, terminal escapes. Each is made here, at test time, and each gets a
//! clear error naming the file (and the line, where there is one) and the limit it hit; on the
//! command line, exit 2 within ten seconds and a gigabyte of memory.

use crate::common;
use navlab::grid::{movingai, tiled};
use navlab::navmesh::{NavMesh, Plane};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs `navlab ARGS` with at most 1 GiB of address space and ten seconds (a hang is killed and
/// fails the test): exit code and stderr.
fn navlab_bounded(args: &[&str]) -> (Option<i32>, String) {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_navlab"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("runs");
    let started = navlab::clock::now();
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            let mut stderr = String::new();
            if let Some(mut pipe) = child.stderr.take() {
                use std::io::Read;
                let _ = pipe.read_to_string(&mut stderr);
            }
            return (status.code(), stderr);
        }
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("navlab {args:?} ran for over ten seconds");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The zlib stream of `bytes` zero bytes (a few hundred KB for hundreds of MB).
fn zlib_zeros(bytes: usize) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    let chunk = vec![0u8; 1 << 20];
    let mut left = bytes;
    while left > 0 {
        let n = left.min(chunk.len());
        encoder.write_all(&chunk[..n]).expect("compress");
        left -= n;
    }
    encoder.finish().expect("compressed")
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A Tiled XML map of `side` × `side` tiles with `layers` identical layers of `data`
/// (`compression`-compressed base64), the first named Collision.
fn tmx_bomb(side: usize, layers: usize, data: &str, compression: &str) -> String {
    let mut xml = format!(
        "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"{side}\" \
         height=\"{side}\" tilewidth=\"1\" tileheight=\"1\" infinite=\"0\">\n"
    );
    for i in 0..layers {
        let name = if i == 0 { "Collision" } else { "Decor" };
        xml.push_str(&format!(
            "<layer name=\"{name}\" width=\"{side}\" height=\"{side}\"><data encoding=\"base64\" \
             compression=\"{compression}\">{data}</data></layer>\n"
        ));
    }
    xml.push_str("</map>\n");
    xml
}

/// Sixteen zlib layers of the largest map side inflate to 4 GiB: the layers' tiles are counted
/// before any is decoded, and the map is refused at the layer that passes the budget, naming
/// its line and the limit; zstd, gzip and JSON alike.
#[test]
fn a_tiled_decompression_bomb_is_refused_before_it_is_inflated() {
    let dir = tempfile::tempdir().expect("temp dir");
    let side = navlab::grid::map::MAX_SIDE;
    let zeros = side * side * 4;
    let zlib = base64(&zlib_zeros(zeros));
    let zstd = base64(&ruzstd::encoding::compress_to_vec(
        std::io::Read::take(std::io::repeat(0), zeros as u64),
        ruzstd::encoding::CompressionLevel::Fastest,
    ));
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..zeros / chunk.len() {
        gzip.write_all(&chunk).expect("compress");
    }
    let gzip = base64(&gzip.finish().expect("compressed"));
    for (name, data, compression) in [
        ("zlib.tmx", &zlib, "zlib"),
        ("zstd.tmx", &zstd, "zstd"),
        ("gzip.tmx", &gzip, "gzip"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, tmx_bomb(side, 16, data, compression)).expect("write");
        let started = navlab::clock::now();
        let error = tiled::load(&path).expect_err("a bomb").to_string();
        assert!(started.elapsed() < Duration::from_secs(30), "{name}");
        assert!(
            error.contains(name) && error.contains(":4:") && error.contains("tiles in all"),
            "{error}"
        );
        let (code, stderr) = navlab_bounded(&["grid", text(&path), "--from", "0,0", "--to", "1,1"]);
        assert_eq!(code, Some(2), "{name}: {stderr}");
        assert!(stderr.contains("tiles in all"), "{stderr}");
    }
    // The JSON form of the same bomb.
    let layer = |i: usize| {
        format!(
            "{{\"type\": \"tilelayer\", \"name\": \"L{i}\", \"encoding\": \"base64\", \
             \"compression\": \"zlib\", \"data\": \"{zlib}\", \"properties\": [{{\"name\": \
             \"solid\", \"type\": \"bool\", \"value\": true}}]}}"
        )
    };
    let layers: Vec<String> = (0..16).map(layer).collect();
    let tmj = format!(
        "{{\"orientation\": \"orthogonal\", \"width\": {side}, \"height\": {side}, \
         \"tilewidth\": 1, \"tileheight\": 1, \"infinite\": false, \"layers\": [{}]}}",
        layers.join(",\n")
    );
    let path = dir.path().join("bomb.tmj");
    std::fs::write(&path, tmj).expect("write");
    let error = tiled::load(&path).expect_err("a bomb").to_string();
    assert!(error.contains("tiles in all"), "{error}");
    let (code, stderr) = navlab_bounded(&["grid", text(&path), "--from", "0,0", "--to", "1,1"]);
    assert_eq!(code, Some(2), "{stderr}");
}

/// A layer of the wrong size is refused even when it holds no tile that matters (all empty).
#[test]
fn a_tiled_layer_of_the_wrong_size_is_refused_even_when_empty() {
    let xml = "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"3\" height=\"2\" \
               tilewidth=\"1\" tileheight=\"1\" infinite=\"0\">\n\
               <layer name=\"Ground\"><data encoding=\"csv\">0,0,0,0</data></layer>\n\
               <layer name=\"Collision\"><data encoding=\"csv\">0,0,0,1,1,1</data></layer>\n\
               </map>\n";
    let error = tiled::parse_tmx(xml.as_bytes(), "short.tmx")
        .expect_err("4 cells of 6")
        .to_string();
    assert!(
        error.starts_with("short.tmx:3:") && error.contains("`Ground` has 4 cells"),
        "{error}"
    );
}

/// Opening a pipe, a device, a folder or a file over its limit is refused at once (a pipe would
/// block for ever, /dev/zero would fill memory), by every reader and by the command line.
#[test]
fn devices_pipes_folders_and_oversized_files_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut specials: Vec<(PathBuf, &str)> = vec![(dir.path().to_path_buf(), "not a file")];
    if Path::new("/dev/zero").exists() {
        specials.push((PathBuf::from("/dev/zero"), "not a file"));
        specials.push((PathBuf::from("/dev/urandom"), "not a file"));
    }
    let fifo = dir.path().join("pipe.map");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        specials.push((fifo, "not a file"));
    } else {
        eprintln!("SKIPPED: the pipe case (mkfifo is absent)");
    }
    // A sparse file one byte over the largest mesh: no disk space is used.
    let huge = dir.path().join("huge.obj");
    std::fs::File::create(&huge)
        .and_then(|f| f.set_len(navlab::input::MAX_MESH_BYTES + 1))
        .expect("a sparse file");
    specials.push((huge, "larger than 128 MiB"));
    let huge_map = dir.path().join("huge.map");
    std::fs::File::create(&huge_map)
        .and_then(|f| f.set_len(navlab::input::MAX_MAP_BYTES + 1))
        .expect("a sparse file");
    specials.push((huge_map, "larger than 80 MiB"));
    for (path, says) in &specials {
        let shown = path.display().to_string();
        let errors = [
            NavMesh::load(path, Plane::Xz)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            navlab::navmesh::polyanya::load(path)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            movingai::load_any(path)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            tiled::load(path).map(|_| ()).map_err(|e| e.to_string()),
            movingai::load_scenarios(path)
                .map(|_| ())
                .map_err(|e| e.to_string()),
        ];
        for error in errors {
            let error = error.expect_err("refused");
            assert!(error.contains(&shown), "{error}");
            // The size limit depends on the kind of file; what it is not, does not.
            if *says == "not a file" {
                assert!(error.contains(says), "{error}");
            }
        }
        let out = dir.path().join("out.obj");
        let out = out.to_str().expect("utf-8");
        for args in [
            vec!["info", &shown],
            vec!["path", &shown, "--from", "0,0", "--to", "1,1"],
            vec!["check", &shown],
            vec!["convert", &shown, "-o", out],
            vec!["grid", &shown, "--from", "0,0", "--to", "1,1"],
            vec!["compare", &shown, "--from", "0,0", "--to", "1,1"],
            vec!["partitions", &shown, "--from", "0,0", "--to", "1,1"],
            vec!["mesh", &shown, "-o", out],
            vec!["pursue", &shown, "--kitten", "0.5,0.5", "--mob", "1.5,0.5"],
            vec!["scen", &shown],
        ] {
            let (code, stderr) = navlab_bounded(&args);
            assert_eq!(code, Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains(&shown), "{stderr}");
        }
    }
    let (_, stderr) = navlab_bounded(&["info", &dir.path().join("huge.obj").display().to_string()]);
    assert!(
        stderr.contains("larger than 128 MiB, the most navlab reads of a mesh file"),
        "{stderr}"
    );
}

/// An external tileset is read only in the map's folder (after links are followed) and only
/// by a tileset's extension; nothing of a file read that way is quoted, nor does the error
/// tell an existing file from a missing one outside the folder.
#[test]
fn external_tilesets_stay_in_the_maps_folder_and_are_never_quoted() {
    let root = tempfile::tempdir().expect("temp dir");
    let maps = root.path().join("maps");
    std::fs::create_dir(&maps).expect("folder");
    let secret = "TOP-SECRET-VALUE";
    std::fs::write(
        root.path().join("outside.tsx"),
        format!("<tileset><tile id=\"0\"><properties><property name=\"terrain\" value=\"{secret}\"/></properties></tile></tileset>"),
    )
    .expect("write");
    std::fs::write(
        maps.join("inside.tsx"),
        format!("<tileset><tile id=\"0\"><properties><property name=\"terrain\" value=\"{secret}\"/></properties></tile></tileset>"),
    )
    .expect("write");
    std::fs::write(maps.join("notes.txt"), "not a tileset").expect("write");
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.path().join("outside.tsx"), maps.join("link.tsx"))
        .expect("link");
    let map_with = |source: &str| {
        format!(
            "<?xml version=\"1.0\"?>\n<map orientation=\"orthogonal\" width=\"2\" height=\"1\" \
             tilewidth=\"1\" tileheight=\"1\" infinite=\"0\">\n<tileset firstgid=\"1\" \
             source=\"{source}\"/>\n<layer name=\"Collision\"><data encoding=\"csv\">1,0</data>\
             </layer>\n</map>\n"
        )
    };
    let mut cases = vec![
        ("/etc/passwd", "outside the map's folder"),
        ("/etc/shadow", "outside the map's folder"),
        ("../outside.tsx", "outside the map's folder"),
        ("../no-such.tsx", "outside the map's folder"),
        ("notes.txt", "not a .tsx, .tsj or .json file"),
        ("inside.tsx", "not a valid tileset"),
    ];
    if cfg!(unix) {
        cases.push(("link.tsx", "outside the map's folder"));
    }
    for (source, says) in cases {
        let path = maps.join("level.tmx");
        std::fs::write(&path, map_with(source)).expect("write");
        let error = tiled::load(&path).expect_err(source).to_string();
        assert!(error.contains(says), "{source}: {error}");
        assert!(!error.contains(secret), "{source}: {error}");
        assert!(error.contains("level.tmx:3:"), "{error}");
    }
}

/// A save goes through a new, uniquely named file: a link planted at the name a save once used
/// is not written through, twenty saves of one file at once all succeed and leave one of
/// them, an owner-only file stays owner-only, and a file saved through a link is written
/// where the link points, the link kept.
#[test]
fn saves_touch_only_their_target_and_survive_each_other() {
    use navlab::atomic::write_atomically;
    let dir = tempfile::tempdir().expect("temp dir");
    let target = dir.path().join("map.json");
    std::fs::write(&target, "old").expect("write");
    #[cfg(unix)]
    {
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "precious").expect("write");
        std::os::unix::fs::symlink(&victim, dir.path().join(".map.json.navlab-tmp"))
            .expect("planted link");
        write_atomically(&target, b"new").expect("saved");
        assert_eq!(std::fs::read_to_string(&victim).expect("read"), "precious");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "new");
        std::fs::remove_file(dir.path().join(".map.json.navlab-tmp")).expect("removed");
    }
    let writers: Vec<_> = (0..20)
        .map(|i| {
            let target = target.clone();
            std::thread::spawn(move || write_atomically(&target, format!("save {i}").as_bytes()))
        })
        .collect();
    for writer in writers {
        writer.join().expect("joined").expect("every save succeeds");
    }
    let last = std::fs::read_to_string(&target).expect("read");
    assert!(last.starts_with("save "), "{last}");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("navlab-tmp"))
        .collect();
    assert!(names.is_empty(), "left behind: {names:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        write_atomically(&target, b"private").expect("saved");
        let mode = std::fs::metadata(&target)
            .expect("meta")
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600);
        let real = dir.path().join("real.json");
        std::fs::write(&real, "before").expect("write");
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&real, &link).expect("link");
        write_atomically(&link, b"through the link").expect("saved");
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(&real).expect("read"),
            "through the link"
        );
    }
}

/// Costs so large that a path's sum overflows are refused at load; and BFS, whatever its step
/// costs add up to, reaches each node once.
#[test]
fn tile_costs_that_overflow_are_refused_and_bfs_never_loops() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("costly.json");
    std::fs::write(
        &path,
        r#"{"navlab_map": 1, "width": 4, "height": 2, "costs": {"grass": 1e308, "sand": 2, "water": 3}, "rows": ["....", "...."]}"#,
    )
    .expect("write");
    let error = movingai::load_any(&path).expect_err("refused").to_string();
    assert!(
        error.contains("costly.json") && error.contains("from 0.01 to"),
        "{error}"
    );
    let (code, stderr) = navlab_bounded(&[
        "grid",
        text(&path),
        "--from",
        "0,0",
        "--to",
        "3,1",
        "--algo",
        "bfs",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    // A line of nodes whose steps cost 1e308: their sums overflow to infinity.
    let mut trace = Vec::new();
    let result = navlab::search::bfs(
        50,
        0,
        |n, out: &mut Vec<(usize, f64)>| {
            if n + 1 < 50 {
                out.push((n + 1, 1e308));
            }
            if n > 0 {
                out.push((n - 1, 1e308));
            }
        },
        |n| n == 49,
        &mut trace,
    );
    assert_eq!(result.path.len(), 50);
    let opened = trace
        .iter()
        .filter(|e| matches!(e, navlab::search::SearchEvent::Opened { .. }))
        .count();
    assert_eq!(opened, 50, "each node once");
}

/// A mesh over the triangle or vertex limit, or with a face of 200,000 corners, is refused by
/// a first pass over the file, at the line that passes the limit, before anything is built.
#[test]
fn meshes_too_large_to_hold_are_refused_at_the_line_that_passes_the_limit() {
    use navlab::input::{MAX_POLYGON_CORNERS, MAX_TRIANGLES, MAX_VERTICES};
    let dir = tempfile::tempdir().expect("temp dir");
    let triangles = dir.path().join("triangles.obj");
    let mut text_of = String::from("v 0 0 0\nv 1 0 0\nv 0 0 1\n");
    text_of.push_str(&"f 1 2 3\n".repeat(MAX_TRIANGLES + 1));
    std::fs::write(&triangles, &text_of).expect("write");
    let vertices = dir.path().join("vertices.obj");
    std::fs::write(&vertices, "v 0 0 0\n".repeat(MAX_VERTICES + 1)).expect("write");
    let face = dir.path().join("face.obj");
    let corners = 200_000;
    let mut one_face = String::new();
    for i in 0..corners {
        let angle = i as f64 / corners as f64 * std::f64::consts::TAU;
        one_face.push_str(&format!("v {} 0 {}\n", angle.cos(), angle.sin()));
    }
    one_face.push('f');
    for i in 1..=corners {
        one_face.push_str(&format!(" {i}"));
    }
    one_face.push('\n');
    std::fs::write(&face, &one_face).expect("write");
    use navlab::words::thousands;
    let too_many_triangles = format!("more than {} triangles", thousands(MAX_TRIANGLES));
    let too_many_vertices = format!("more than {} vertices", thousands(MAX_VERTICES));
    for (path, line, says) in [
        (
            &triangles,
            3 + MAX_TRIANGLES + 1,
            too_many_triangles.as_str(),
        ),
        (&vertices, MAX_VERTICES + 1, too_many_vertices.as_str()),
        (&face, corners + 1, "a face of 200,000 corners"),
    ] {
        let started = navlab::clock::now();
        let error = NavMesh::load(path, Plane::Xz)
            .expect_err("too large")
            .to_string();
        assert!(started.elapsed() < Duration::from_secs(30));
        let at = format!("{}:{line}:", path.display());
        assert!(error.starts_with(&at) && error.contains(says), "{error}");
        let (code, stderr) = navlab_bounded(&["info", text(path)]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    }
    assert!(corners > MAX_POLYGON_CORNERS);
}

/// One vertex far away is named at its line (it used to weld the whole mesh away), and so is
/// a NaN in any component.
#[test]
fn a_vertex_far_away_or_not_a_number_is_named_at_its_line() {
    let far = "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1e300 0 0\nf 1 2 3\n";
    let error = navlab::navmesh::obj::parse(far.as_bytes(), "far.obj", Plane::Xz)
        .expect_err("refused")
        .to_string();
    assert!(
        error.starts_with("far.obj:4:") && error.contains("beyond ±1e9"),
        "{error}"
    );
    let nan = "v 0 0 0\nv 1 0 0 nan\nv 0 0 1\nf 1 2 3\n";
    let error = navlab::navmesh::obj::parse(nan.as_bytes(), "nan.obj", Plane::Xz)
        .expect_err("refused")
        .to_string();
    assert!(
        error.starts_with("nan.obj:2:") && error.contains("not a finite number"),
        "{error}"
    );
    let mesh = "mesh\n2\n3 1\n0 0 1 0\n1e300 0 1 0\n0 1 1 0\n3 0 1 2 -1 -1 -1\n";
    let error = navlab::navmesh::polyanya::parse(mesh.as_bytes(), "far.mesh")
        .expect_err("refused")
        .to_string();
    assert!(
        error.starts_with("far.mesh:5:") && error.contains("beyond"),
        "{error}"
    );
}

/// A layer named with a terminal escape sequence never reaches the terminal as one.
#[test]
fn escape_sequences_in_a_file_never_reach_the_terminal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("escape.tmj");
    std::fs::write(
        &path,
        "{\"orientation\": \"orthogonal\", \"width\": 2, \"height\": 1, \"tilewidth\": 1, \
         \"tileheight\": 1, \"infinite\": false, \"layers\": [{\"type\": \"tilelayer\", \
         \"name\": \"\\u001b[2J\\u001b]0;owned\\u0007\", \"data\": [0]}]}",
    )
    .expect("write");
    let (code, stderr) = navlab_bounded(&["grid", text(&path), "--from", "0,0", "--to", "1,0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
    assert!(stderr.contains("\\u{1b}"), "{stderr}");
}

/// The readers of every format, given whole files from disk — the built-in meshes, the test
/// data, and a file of every kind cut short — never panic.
#[test]
fn every_reader_takes_any_file_from_disk_without_panicking() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::repo_path("assets"))
        .expect("assets")
        .map(|e| e.expect("entry").path())
        .collect();
    for rel in [
        "movingai/arena.map",
        "movingai/arena.map.scen",
        "meshes/polyanya/arena.mesh",
    ] {
        files.extend(common::testdata(rel));
    }
    let mut cut = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).expect("reads");
        for (i, keep) in [bytes.len() / 3, bytes.len() / 2].into_iter().enumerate() {
            let name = file.file_name().expect("a name").to_string_lossy();
            let short = dir.path().join(format!("{i}-{name}"));
            std::fs::write(&short, &bytes[..keep]).expect("write");
            cut.push(short);
        }
    }
    files.extend(cut);
    for file in &files {
        let _ = NavMesh::load(file, Plane::Xz);
        let _ = NavMesh::load(file, Plane::Xy);
        let _ = movingai::load_any(file);
        let _ = movingai::load_map(file);
        let _ = movingai::load_scenarios(file);
        let _ = tiled::load(file);
    }
}

/// The window keeps what it shows when a hostile file is opened: the banner says why.
#[test]
fn the_window_keeps_its_document_when_a_hostile_file_is_opened() {
    use navlab::app::files::ScriptedDialogs;
    use navlab::app::{AppSettings, Command, NavlabApp};
    let dir = tempfile::tempdir().expect("temp dir");
    let costly = dir.path().join("costly.json");
    std::fs::write(
        &costly,
        r#"{"navlab_map": 1, "width": 1, "height": 1, "costs": {"grass": 1e308, "sand": 2, "water": 3}, "rows": ["."]}"#,
    )
    .expect("write");
    let huge = dir.path().join("huge.obj");
    std::fs::File::create(&huge)
        .and_then(|f| f.set_len(navlab::input::MAX_MESH_BYTES + 1))
        .expect("sparse");
    let mut app = NavlabApp::new(AppSettings::default(), Box::new(ScriptedDialogs::default()));
    let map_before = app.map.map.clone();
    let mesh_before = app.scenes.navmesh.origin.source.name();
    let mut harness = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut NavlabApp| app.frame_ui(ui), {
            app.command(Command::LoadMap(costly.clone()));
            app
        });
    harness.run_steps(3);
    harness.state_mut().wait_for_loading();
    assert_eq!(harness.state().map.map, map_before);
    let error = harness.state().error().unwrap_or_default().to_string();
    assert!(error.contains("costly.json"), "{error}");
    harness.state_mut().command(Command::Load(huge));
    harness.run_steps(3);
    harness.state_mut().wait_for_loading();
    assert_eq!(
        harness.state().scenes.navmesh.origin.source.name(),
        mesh_before
    );
    let error = harness.state().error().unwrap_or_default().to_string();
    assert!(error.contains("larger than 128 MiB"), "{error}");
}

/// A small OBJ mesh (two triangles of a unit square) written into `dir`.
fn square_obj(dir: &Path) -> PathBuf {
    let mesh = dir.join("square.obj");
    std::fs::write(
        &mesh,
        "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3\nf 1 3 4\n",
    )
    .expect("write");
    mesh
}

/// Runs `navlab ARGS` with its standard output into `stdout` (a file opened for appending,
/// as `>>` opens it): exit code and stderr.
fn navlab_into(args: &[&str], stdout: std::fs::File) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_navlab"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(stdout))
        .output()
        .expect("runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `-o /dev/stdout` (or `-`) streams to what standard output is: a log opened for appending
/// keeps what it held and gets the mesh after it, and the command's report goes to standard
/// error. Neither the log nor a pipe nor a device is ever replaced by a new file.
#[cfg(unix)]
#[test]
fn an_output_that_is_a_stream_is_written_through_never_replaced() {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let dir = tempfile::tempdir().expect("temp dir");
    let mesh = square_obj(dir.path());
    for out in ["/dev/stdout", "-", "/proc/self/fd/1", "/dev/fd/1"] {
        let log = dir.path().join("log.txt");
        std::fs::write(&log, "earlier lines\n").expect("write");
        let inode = std::fs::metadata(&log).expect("meta").ino();
        let appending = std::fs::OpenOptions::new()
            .append(true)
            .open(&log)
            .expect("open");
        let (code, stderr) = navlab_into(&["convert", text(&mesh), "-o", out], appending);
        assert_eq!(code, Some(0), "{out}: {stderr}");
        let written = std::fs::read_to_string(&log).expect("read");
        assert!(
            written.starts_with("earlier lines\n# ") && written.contains("\nv 1 0 1\n"),
            "{out}: {written}"
        );
        assert!(
            !written.contains("triangles"),
            "{out}: the report is not in the mesh"
        );
        assert!(stderr.contains("triangles:"), "{out}: {stderr}");
        assert_eq!(std::fs::metadata(&log).expect("meta").ino(), inode, "{out}");
    }
    // A FIFO is written through (a reader gets the mesh) and stays a FIFO.
    let fifo = dir.path().join("fifo.obj");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read the pipe"))
    };
    let (code, stderr) = navlab_bounded(&["convert", text(&mesh), "-o", text(&fifo)]);
    if code != Some(0) {
        // Release the reader (it waits for a writer) before failing, rather than hang.
        drop(std::fs::OpenOptions::new().write(true).open(&fifo));
    }
    assert_eq!(code, Some(0), "{stderr}");
    assert!(reader.join().expect("joined").starts_with("# "));
    assert!(
        std::fs::metadata(&fifo)
            .expect("meta")
            .file_type()
            .is_fifo()
    );
    // A character device is written through: /dev/null stays the system's device.
    let (code, stderr) = navlab_bounded(&["convert", text(&mesh), "-o", "/dev/null"]);
    assert_eq!(code, Some(0), "{stderr}");
    let null = std::fs::metadata("/dev/null").expect("meta");
    assert!(null.file_type().is_char_device());
    // A folder, a socket and another open descriptor are refused, named, and left as they were.
    let folder = dir.path().join("folder.obj");
    std::fs::create_dir(&folder).expect("mkdir");
    let socket = dir.path().join("socket.obj");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("socket");
    for (out, why) in [
        (text(&folder), "folder"),
        (text(&socket), "socket"),
        ("/dev/fd/7", "descriptor 7"),
    ] {
        let (code, stderr) =
            navlab_bounded(&["cut", text(&mesh), "-o", out, "--rect", "0.2,0.2,0.4,0.4"]);
        assert_eq!(code, Some(2), "{out}: {stderr}");
        assert!(
            stderr.contains(out) && stderr.contains(why),
            "{out}: {stderr}"
        );
    }
    assert!(folder.is_dir());
    assert!(
        std::fs::metadata(&socket)
            .expect("meta")
            .file_type()
            .is_socket()
    );
}

/// A file name with a line break in it cannot forge a second line of an error: the name is
/// shown on one line, its control characters escaped, and a long one shortened.
#[test]
fn a_file_name_cannot_forge_a_line_of_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let forged = dir.path().join("x.obj\nerror: your licence has expired");
    std::fs::write(&forged, "v 0 0 0\nf 1 2 3\n").expect("write");
    for args in [
        vec!["info", text(&forged)],
        vec!["check", text(&forged)],
        vec!["path", text(&forged), "--from", "0,0", "--to", "1,1"],
    ] {
        let (code, stderr) = navlab_bounded(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("x.obj\\nerror"), "{stderr}");
    }
    let long = dir.path().join(format!("{}.map", "m".repeat(200)));
    std::fs::write(&long, "type octile\nheight many\n").expect("write");
    let (code, stderr) = navlab_bounded(&["grid", text(&long), "--from", "0,0", "--to", "0,0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.len() < 400 && stderr.contains("m…m") && stderr.contains("m.map:2: height"),
        "{stderr}"
    );
}

/// Twenty `navlab cut --out same.obj` at once leave a mesh and an edits file from the same
/// save: the edits open with the mesh beside them, and describe it.
#[test]
fn twenty_cuts_saved_at_once_leave_a_mesh_and_its_own_edits() {
    use navlab::navmesh::edit::saved;
    let dir = tempfile::tempdir().expect("temp dir");
    let mesh = square_obj(dir.path());
    let out = dir.path().join("same.obj");
    for round in 0..3 {
        let runs: Vec<_> = (0..20)
            .map(|i| {
                let side = 0.1 + 0.02 * f64::from(i);
                Command::new(env!("CARGO_BIN_EXE_navlab"))
                    .args(["cut", text(&mesh), "--out", text(&out), "--rect"])
                    .arg(format!("0.3,0.3,{},{}", 0.3 + side, 0.3 + side))
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("runs")
            })
            .collect();
        for run in runs {
            let output = run.wait_with_output().expect("waits");
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let opened = NavMesh::load(&out, Plane::Xz).expect("the mesh opens");
        let editor = saved::read_beside(&out, &opened)
            .unwrap_or_else(|e| panic!("round {round}: {e}"))
            .expect("its edits are beside it");
        let area = |m: &NavMesh| m.triangles().iter().map(|t| t.area).sum::<f64>();
        assert!(
            (area(editor.mesh()) - area(&opened)).abs() < 1e-12,
            "round {round}"
        );
    }
}

/// `navlab grid` on a 2 × 2 map written into `dir`, comparing with the trace `trace` (bounded
/// as [`navlab_bounded`]): exit code and stderr.
fn grid_against(dir: &Path, trace: &Path) -> (Option<i32>, String) {
    let map = dir.join("small.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 2\nmap\n..\n..\n").expect("write");
    navlab_bounded(&[
        "grid",
        text(&map),
        "--from",
        "0,0",
        "--to",
        "1,1",
        "--against",
        text(trace),
    ])
}

/// A YAML "billion laughs": each anchor a list of ten aliases of the one before. Its `events`
/// are fine; the bomb is under a key navlab never reads.
fn yaml_alias_bomb(levels: usize) -> String {
    let mut text = String::from(
        "version: 1.4.0\nviews:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n",
    );
    for level in 1..levels {
        let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
        text.push_str(&format!("  a{level}: &a{level} [{aliases}]\n"));
    }
    text.push_str("events:\n  - type: source\n    id: 0\n");
    text
}

/// A trace made of YAML aliases is refused at the first alias, naming its line, before any is
/// expanded: in the library, and by `grid --against` within ten seconds and a gigabyte.
#[test]
fn a_yaml_alias_bomb_in_a_trace_is_refused_at_its_first_alias() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bomb = dir.path().join("bomb.trace.yaml");
    std::fs::write(&bomb, yaml_alias_bomb(12)).expect("write");
    assert!(std::fs::metadata(&bomb).expect("meta").len() < 1200);
    let error = navlab::search::posthoc::read(&bomb, 4).expect_err("aliases");
    assert!(
        error.contains("bomb.trace.yaml:4:") && error.contains("alias"),
        "{error}"
    );
    let (code, stderr) = grid_against(dir.path(), &bomb);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("bomb.trace.yaml:4:") && stderr.contains("alias"),
        "{stderr}"
    );
}

/// A trace in which each event is one tiny object, one more than the most navlab reads, is
/// refused at that event, naming the limit, within ten seconds and a gigabyte.
#[test]
fn a_trace_of_too_many_events_is_refused_at_the_one_past_the_limit() {
    use navlab::search::posthoc::MAX_EVENTS;
    let dir = tempfile::tempdir().expect("temp dir");
    let many = dir.path().join("many.trace.json");
    let mut json = String::with_capacity(12 * (MAX_EVENTS + 1) + 16);
    json.push_str("{\"events\":[\n");
    for k in 0..=MAX_EVENTS {
        json.push_str(if k == 0 {
            "{\"type\":\"x\"}"
        } else {
            ",{\"type\":\"x\"}"
        });
    }
    json.push_str("\n]}\n");
    std::fs::write(&many, &json).expect("write");
    drop(json);
    let (code, stderr) = grid_against(dir.path(), &many);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("more than {MAX_EVENTS} events")),
        "{stderr}"
    );
}

/// `open --from` beyond the coordinates navlab takes is refused (exit 2, the limit named); a
/// start nine hundred million units off the mesh is drawn into a screenshot and a GIF within
/// ten seconds and a gigabyte.
#[test]
fn a_far_start_is_refused_beyond_the_range_and_drawn_within_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (code, stderr) = navlab_bounded(&["open", "--from", "1e10,0", "--to", "1,1"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("beyond ±1e9"), "{stderr}");
    let (code, stderr) = navlab_bounded(&[
        "path",
        "assets/rooms.obj",
        "--from",
        "0,-1e300",
        "--to",
        "1,1",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    let png = dir.path().join("far.png");
    let gif = dir.path().join("far.gif");
    for out in [
        vec!["--screenshot", text(&png)],
        vec!["--gif", text(&gif), "--steps", "0..4", "--size", "640x400"],
    ] {
        let args = [&["open", "--from", "9e8,0", "--to", "1,1"][..], &out[..]].concat();
        let (code, stderr) = navlab_bounded(&args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
    }
    assert!(png.is_file() && gif.is_file());
}

/// Shapes are counted before any is cut: 3,000 rectangles are refused at once, naming the
/// limit. A hundred overlapping circles of 256 corners are cut in one pass, by `navlab cut` and
/// from an edits file, within ten seconds and a gigabyte.
#[test]
fn many_shapes_are_counted_first_and_cut_in_one_pass() {
    use navlab::navmesh::edit::saved;
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("cut.obj");
    let mut many: Vec<String> = vec!["cut".into(), "assets/rooms.obj".into(), "-o".into()];
    many.push(text(&out).into());
    for k in 0..3_000 {
        let x = f64::from(k % 20);
        many.extend(["--rect".into(), format!("{x},0,{},0.5", x + 0.5)]);
    }
    let args: Vec<&str> = many.iter().map(String::as_str).collect();
    let started = navlab::clock::now();
    let (code, stderr) = navlab_bounded(&args);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("3000 shapes") && stderr.contains("at most 1000"),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    // A hundred circles over the rooms, overlapping one another (seeded, as a stranger's
    // file would be).
    let mut circles: Vec<String> = vec!["cut".into(), "assets/rooms.obj".into(), "-o".into()];
    circles.push(text(&out).into());
    circles.extend(["--circle-sides".into(), "256".into()]);
    let mut seed = 7u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for _ in 0..100 {
        let (x, z, r) = (next() * 20.0, next() * 14.0 - 8.0, 0.2 + next() * 1.3);
        circles.extend(["--circle".into(), format!("{x:.3},{z:.3},{r:.3}")]);
    }
    let args: Vec<&str> = circles.iter().map(String::as_str).collect();
    let (code, stderr) = navlab_bounded(&args);
    assert_eq!(code, Some(0), "{stderr}");
    // The same shapes from the edits file beside the cut mesh.
    let opened = NavMesh::load(&out, Plane::Xz).expect("the mesh opens");
    let started = navlab::clock::now();
    let editor = saved::read_beside(&out, &opened)
        .expect("the edits fit")
        .expect("beside it");
    assert_eq!(editor.shapes().len(), 100);
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// A scenario file has a budget for all its searches together: lines whose goal is walled in
/// (each a search of the whole map) stop at the budget with an error naming it, the line
/// reached and the flag that lifts it (exit 2); with the budget lifted every line runs. Mesh
/// scenario files alike.
#[test]
fn a_scenario_file_stops_at_its_expansion_budget() {
    let dir = tempfile::tempdir().expect("temp dir");
    let side = 256;
    let mut rows = vec![".".repeat(side); side];
    // The goal's cell (255, 255) walled in by (254, 254), (255, 254) and (254, 255).
    for (x, y) in [(254usize, 254usize), (255, 254), (254, 255)] {
        rows[y].replace_range(x..=x, "@");
    }
    let map = dir.path().join("walled.map");
    std::fs::write(
        &map,
        format!(
            "type octile\nheight {side}\nwidth {side}\nmap\n{}\n",
            rows.join("\n")
        ),
    )
    .expect("write");
    let scen = dir.path().join("walled.map.scen");
    let mut lines = String::from("version 1\n");
    for k in 0..40 {
        lines.push_str(&format!(
            "0\twalled.map\t{side}\t{side}\t{k}\t0\t255\t255\t100\n"
        ));
    }
    std::fs::write(&scen, lines).expect("write");
    let (code, stderr) = navlab_bounded(&["scen", text(&scen), "--max-expansions", "300000"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("walled.map.scen: stopped after 5 of 40 scenarios")
            && stderr.contains("--max-expansions"),
        "{stderr}"
    );
    let (code, stderr) = navlab_bounded(&["scen", text(&scen), "--max-expansions", "0"]);
    assert_eq!(code, Some(1), "every line runs (none matches): {stderr}");
    // A mesh scenario file: the budget counts the triangles (or Polyanya's nodes) expanded.
    let mesh_scen = dir.path().join("rooms.scen");
    let mut lines = String::from("version 1\n");
    for _ in 0..30 {
        lines.push_str("0\trooms.obj\t0\t0\t0.5\t-7.5\t19.5\t5.5\t30\n");
    }
    std::fs::write(&mesh_scen, lines).expect("write");
    for optimal in [false, true] {
        let mut args = vec!["scen", text(&mesh_scen), "--mesh", "assets/rooms.obj"];
        args.extend(["--max-expansions", "100"]);
        if optimal {
            args.push("--optimal");
        }
        let (code, stderr) = navlab_bounded(&args);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.contains("stopped after") && stderr.contains("of 30"),
            "{stderr}"
        );
    }
}

/// A YAML trace one byte past its limit (half a JSON trace's: YAML reads five times slower) is
/// refused naming the limit, within ten seconds and a gigabyte.
#[test]
fn a_yaml_trace_past_its_limit_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let big = dir.path().join("big.trace.yaml");
    let file = std::fs::File::create(&big).expect("create");
    file.set_len(navlab::input::MAX_YAML_TRACE_BYTES + 1)
        .expect("sparse");
    drop(file);
    let (code, stderr) = grid_against(dir.path(), &big);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("big.trace.yaml") && stderr.contains("128 MiB"),
        "{stderr}"
    );
}

/// A MovingAI map `side` cells square, open but for the cells `wall` names.
fn octile_map(dir: &Path, name: &str, side: usize, wall: impl Fn(usize, usize) -> bool) -> PathBuf {
    let rows: Vec<String> = (0..side)
        .map(|y| {
            (0..side)
                .map(|x| if wall(x, y) { '@' } else { '.' })
                .collect()
        })
        .collect();
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "type octile\nheight {side}\nwidth {side}\nmap\n{}\n",
            rows.join("\n")
        ),
    )
    .expect("write");
    path
}

/// Runs navlab with `args`: its exit code, standard output and standard error.
fn navlab_output(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_navlab"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// One grid search stops at its work limit (cells expanded or put off), says so and names the
/// flag (exit 1: no answer); 0 lifts the limit; `compare` and `scen` keep it per search. A
/// search recorded for `--steps` stops at the most steps a recording keeps, with an error
/// naming that limit (exit 2).
#[test]
fn a_grid_search_stops_at_its_work_limit_and_a_recording_at_its_step_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let side = 300;
    // The goal's corner walled in: every search visits the whole map.
    let map = octile_map(dir.path(), "walled.map", side, |x, y| {
        x + y == 2 * side - 3 && x >= side - 2
    });
    let map = text(&map);
    let goal = format!("{},{}", side - 1, side - 1);
    for algo in ["bfs", "dijkstra", "astar", "fringe"] {
        let (code, out, err) = navlab_output(&[
            "grid",
            map,
            "--from",
            "0,0",
            "--to",
            &goal,
            "--algo",
            algo,
            "--work-limit",
            "1000",
        ]);
        assert_eq!(code, Some(1), "{algo}: {err}");
        assert!(out.contains("status: budget_exceeded"), "{algo}: {out}");
        assert!(
            err.contains("gave up after 1,000 visits") && err.contains("--work-limit"),
            "{algo}: {err}"
        );
        let expanded: usize = out
            .lines()
            .find_map(|l| l.strip_prefix("expanded: "))
            .and_then(|n| n.parse().ok())
            .expect("expanded");
        assert!(expanded <= 1000, "{algo}: {expanded}");
        if algo != "fringe" {
            assert_eq!(expanded, 1000, "{algo}");
        }
    }
    let (code, out, err) = navlab_output(&[
        "grid",
        map,
        "--from",
        "0,0",
        "--to",
        &goal,
        "--work-limit",
        "0",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.contains("status: unreachable"), "{out}");
    assert!(
        out.contains(&format!("expanded: {}", side * side - 3)),
        "{out}"
    );

    let (code, out, err) = navlab_output(&[
        "compare",
        map,
        "--from",
        "0,0",
        "--to",
        &goal,
        "--work-limit",
        "1000",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(
        out.matches("over budget").count(),
        7,
        "IDA* by its own: {out}"
    );
    // JPS's scans find no jump point past the start: it knows at once, within the limit.
    assert!(
        out.lines()
            .any(|l| l.starts_with("JPS") && l.ends_with("unreachable")),
        "{out}"
    );

    let scen = dir.path().join("walled.map.scen");
    std::fs::write(
        &scen,
        format!(
            "version 1\n0\twalled.map\t{side}\t{side}\t0\t0\t{}\t{}\t100\n",
            side - 1,
            side - 1
        ),
    )
    .expect("write");
    let (code, out, err) = navlab_output(&["scen", text(&scen), "--work-limit", "1000", "--json"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.contains("\"budget_exceeded\":1"), "{out}");

    // Dijkstra across an open map: over a million steps (each cell opened and expanded).
    let open = octile_map(dir.path(), "open.map", 800, |_, _| false);
    let (code, _, err) = navlab_output(&[
        "grid",
        text(&open),
        "--from",
        "0,0",
        "--to",
        "799,799",
        "--algo",
        "dijkstra",
        "--steps",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("open.map: the search took more than 1,000,000 steps"),
        "{err}"
    );
}

/// A map whose quadtree would hold more than its limit of squares (a checkerboard: every cell
/// its own square) gets the other partitions and the reason, not gigabytes.
#[test]
fn a_quadtree_past_its_limit_of_squares_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let side = 1100;
    let map = octile_map(dir.path(), "checkers.map", side, |x, y| (x + y) % 2 == 1);
    let (code, out, err) = navlab_output(&[
        "partitions",
        text(&map),
        "--from",
        "0,0",
        "--to",
        "2,0",
        "--json",
    ]);
    assert_eq!(code, Some(1), "no path between the squares: {err}");
    assert!(
        out.contains("more than 1,000,000 squares, the most a quadtree is built from here"),
        "{out}"
    );
}
