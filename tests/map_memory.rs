//! Memory for large tile maps, measured by the system (the process's peak resident memory,
//! reset first; one test in this binary, its measurements one after another, so that nothing
//! else runs meanwhile): a 2048 × 2048 map opened, searched and drawn in the window (the
//! search's working memory and the replay of its steps are each about twenty bytes a cell;
//! they are not held at once, nor two replays); and a search across a map of the largest side
//! that explores a few thousand cells (A*, Fringe Search), which holds the pages it writes, not
//! a record for each of its 67 million cells.

/// A figure of this process's `/proc/self/status`, in bytes ("VmHWM", "VmRSS").
fn status_bytes(field: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn large_maps_take_memory_for_what_is_explored() {
    let side = 2048;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("open.map");
    let rows = vec![".".repeat(side); side].join("\n");
    std::fs::write(
        &path,
        format!("type octile\nheight {side}\nwidth {side}\nmap\n{rows}\n"),
    )
    .expect("write");
    drop(rows);
    let mut window =
        navlab::app::headless::HeadlessWindow::new([900, 560], egui::ThemePreference::Dark);
    if std::fs::write("/proc/self/clear_refs", "5").is_err() {
        eprintln!("skipped: this system does not report peak memory (/proc/self/clear_refs)");
        return;
    }
    let before = status_bytes("VmRSS").expect("VmRSS");
    let launch = navlab::app::Launch {
        actions: vec![navlab::app::LaunchAction::Open(path)],
        size: None,
        theme: None,
    };
    let mut app = navlab::app::headless::launched_app(&launch, &mut |_| {}).expect("opens");
    for _ in 0..3 {
        window.frame(&mut app);
    }
    assert!(app.scenes.tile_map.search.result.is_some(), "searched");
    let peak = status_bytes("VmHWM").expect("VmHWM");
    let per_cell = peak.saturating_sub(before) as f64 / (side * side) as f64;
    eprintln!("{per_cell:.1} bytes a cell at the peak");
    assert!(per_cell < 25.0, "{per_cell:.1} bytes a cell");

    // A search corner to corner on an open map of the largest side, by A* and by Fringe
    // Search (each keeps a record a node).
    use navlab::grid::{AlgorithmKind, Connectivity, TileMap, map::MAX_SIDE};
    let side = MAX_SIDE;
    let map = TileMap::new(side, side).expect("the largest map");
    for kind in [AlgorithmKind::AStar, AlgorithmKind::Fringe] {
        std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak");
        let before = status_bytes("VmRSS").expect("VmRSS");
        let found = navlab::grid::grid_search(
            &map,
            (0, 0),
            (side - 1, side - 1),
            kind.with(Default::default()),
            Connectivity::Eight,
            &mut navlab::search::NoObserver,
        );
        assert_eq!(found.path.len(), side, "{kind:?}");
        let peak = status_bytes("VmHWM").expect("VmHWM");
        let taken = peak.saturating_sub(before);
        eprintln!("{kind:?}: {taken} bytes at the peak for a search of {side} × {side}");
        assert!(taken < 128 << 20, "{kind:?}: {taken} bytes");
    }

    // A goal walled in on the largest map: every search would visit all 67 million cells; each
    // stops at its work limit holding memory for what it visited (BFS, Dijkstra, A*, Fringe),
    // which is how the default limit keeps a search of this map within a few hundred MB.
    let mut walled = TileMap::new(side, side).expect("the largest map");
    for cell in [(side - 2, side - 1), (side - 1, side - 2)] {
        walled.set(cell, navlab::grid::Tile::Wall);
    }
    let budget = 1u64 << 20;
    for kind in [
        AlgorithmKind::Bfs,
        AlgorithmKind::Dijkstra,
        AlgorithmKind::AStar,
        AlgorithmKind::Fringe,
    ] {
        std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak");
        let before = status_bytes("VmRSS").expect("VmRSS");
        let mut nothing = navlab::search::NoObserver;
        let stopped = navlab::grid::grid_search(
            &walled,
            (0, 0),
            (side - 1, side - 1),
            kind.with(Default::default()),
            Connectivity::Eight,
            &mut navlab::search::WorkLimit::new(&mut nothing, budget),
        );
        assert_eq!(
            stopped.outcome,
            navlab::search::SearchOutcome::BudgetExceeded,
            "{kind:?}"
        );
        let taken = status_bytes("VmHWM").expect("VmHWM").saturating_sub(before);
        let per_visit = taken as f64 / budget as f64;
        eprintln!("{kind:?}: {per_visit:.1} bytes a visit, stopped at {budget} visits");
        assert!(per_visit < 80.0, "{kind:?}: {taken} bytes");
    }
}
