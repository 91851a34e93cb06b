//! The window's memory for a large tile map, measured by the system (the process's peak
//! resident memory, reset first; one test in this binary so that nothing else runs): a 2048 ×
//! 2048 map opened, searched and drawn. The search's working memory and the replay of its
//! steps are each about twenty bytes a cell; they are not held at once, nor two replays.

/// A figure of this process's `/proc/self/status`, in bytes ("VmHWM", "VmRSS").
fn status_bytes(field: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn a_large_map_in_the_window_takes_under_twenty_five_bytes_a_cell() {
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
}
