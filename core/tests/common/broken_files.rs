//! Broken mesh files, each with the line its error must name: what the loaders and the command
//! line are both tried on.

/// (name, contents, the 1-based line the error must name, if any).
pub fn obj_corpus() -> Vec<(&'static str, Vec<u8>, Option<usize>)> {
    let tri = "v 0 0 0\nv 1 0 0\nv 0 0 1\n";
    vec![
        ("empty.obj", b"".to_vec(), None),
        ("comments.obj", b"# nothing\n# here\n".to_vec(), None),
        (
            "binary.obj",
            vec![0, 159, 146, 150, 255, 0, 10, 118, 32, 1],
            None,
        ),
        (
            "invalid-utf8.obj",
            b"v 0 0 0\nv \xff\xfe 0 0\n".to_vec(),
            Some(2),
        ),
        (
            "short-vertex.obj",
            b"v 0 0 0\nv 1 2\nf 1 2 1\n".to_vec(),
            None,
        ),
        ("words.obj", b"v 0 0 0\nv a b c\n".to_vec(), Some(2)),
        (
            "nan.obj",
            format!("{tri}v nan 0 0\nf 1 2 3\n").into_bytes(),
            Some(4),
        ),
        (
            "inf.obj",
            b"v 0 0 0\nv 1 0 inf\nv 0 0 1\nf 1 2 3\n".to_vec(),
            Some(2),
        ),
        (
            "face-no-vertices.obj",
            b"# faces first\nf 1 2 3\n".to_vec(),
            Some(2),
        ),
        (
            "index-out-of-range.obj",
            format!("{tri}f 1 2 3\nf 1 2 9\n").into_bytes(),
            Some(5),
        ),
        (
            "zero-index.obj",
            format!("{tri}f 0 1 2\n").into_bytes(),
            Some(4),
        ),
        (
            "negative-out-of-range.obj",
            format!("{tri}f -1 -2 -7\n").into_bytes(),
            Some(4),
        ),
        (
            "huge-index.obj",
            format!("{tri}f 1 2 99999999999999999999\n").into_bytes(),
            Some(4),
        ),
        (
            "lines-only.obj",
            format!("{tri}l 1 2\nf 1 2\n").into_bytes(),
            None,
        ),
        (
            // Flat in no plane: a line (a face flat in XZ alone is read in XY, where it lies).
            "a-line.obj",
            b"v 0 0 0\nv 1 1 1\nv 2 2 2\nf 1 2 3\n".to_vec(),
            None,
        ),
        (
            "all-degenerate.obj",
            format!("{tri}f 1 1 2\nf 2 2 2\n").into_bytes(),
            None,
        ),
        (
            "object-only.obj",
            b"o Empty\ng group\nusemtl x\n".to_vec(),
            None,
        ),
        (
            "long-line.obj",
            format!("{tri}f {}\n", "1 2 3 ".repeat(20000)).into_bytes(),
            None,
        ),
        (
            "nul-inside.obj",
            format!("{tri}f 1 2\0 3\n").into_bytes(),
            None,
        ),
    ]
}

pub fn mesh_corpus() -> Vec<(&'static str, Vec<u8>, Option<usize>)> {
    vec![
        ("empty.mesh", b"".to_vec(), None),
        ("wrong-magic.mesh", b"hello 2\n1 1\n".to_vec(), Some(1)),
        ("truncated.mesh", b"mesh\n2\n".to_vec(), Some(2)),
        ("bad-version.mesh", b"mesh\n9\n3 1\n".to_vec(), Some(2)),
        (
            "huge-count.mesh",
            b"mesh\n2\n99999999999 1\n".to_vec(),
            Some(3),
        ),
        ("negative-count.mesh", b"mesh\n2\n-3 1\n".to_vec(), Some(3)),
        (
            "not-a-number.mesh",
            b"mesh\n2\n3 1\n0 0 0\nx 1 0\n".to_vec(),
            Some(5),
        ),
        (
            "vertex-out-of-range.mesh",
            b"mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7 -1 -1 -1\n".to_vec(),
            Some(7),
        ),
        (
            "v3-zero-index.mesh",
            b"mesh\n3\n3 1\n0 0\n1 0\n0 1\n1 3 0 1 2 0 0 0\n".to_vec(),
            Some(7),
        ),
        (
            "trailing.mesh",
            b"mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\nextra\n".to_vec(),
            Some(8),
        ),
        ("nan.mesh", b"mesh\n2\n3 1\nNaN 0 0\n".to_vec(), Some(4)),
        (
            "collinear.mesh",
            b"mesh\n2\n3 1\n0 0 0\n1 0 0\n2 0 0\n3 0 1 2 -1 -1 -1\n".to_vec(),
            None,
        ),
    ]
}
