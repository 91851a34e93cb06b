//! Broken files on the command line: exit 2 and one clear line naming the file, never a panic
//! (the corpus is the library's, `core/tests/common/broken_files.rs`).

use crate::common;
use common::broken_files::{mesh_corpus, obj_corpus};
use std::process::Command;

#[test]
fn cli_answers_broken_files_with_exit_2_and_one_clear_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = env!("CARGO_BIN_EXE_navlab");
    for (name, bytes, _) in obj_corpus().into_iter().chain(mesh_corpus()) {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).expect("write");
        for args in [
            vec!["info", path.to_str().expect("utf-8 path")],
            vec![
                "path",
                path.to_str().expect("utf-8 path"),
                "--from",
                "0,0",
                "--to",
                "1,1",
                "--json",
            ],
        ] {
            let out = Command::new(exe).args(&args).output().expect("runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {stderr}");
            assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
            assert!(
                stderr.starts_with("error: ") && stderr.contains(name),
                "{name}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{name}: {stderr}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{name}: {stderr}");
        }
    }
}

#[test]
fn cli_rejects_a_missing_file_and_bad_points() {
    let exe = env!("CARGO_BIN_EXE_navlab");
    let out = Command::new(exe)
        .args(["info", "no/such/file.obj"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/file.obj"));
    let maze = common::repo_path("assets/maze.obj");
    for bad in ["a,b", "1", "1,2,3", "nan,1", "1,inf", ""] {
        let out = Command::new(exe)
            .args([
                "path",
                maze.to_str().expect("utf-8"),
                "--from",
                bad,
                "--to",
                "1,1",
            ])
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}
