//! Peak memory while reading large search traces, measured by the system (the process's
//! resident high-water mark, one test in this binary so that nothing else runs): a trace
//! is read as a stream, so the memory it takes follows the steps kept, not the file's size.
//! The limit the README states is ten times the file (a trace of the tiniest events keeps a
//! step as large as its text); a trace as Posthoc writes one, with views and drawing fields,
//! keeps well under twice its size.

use navlab_core::search::posthoc;

/// A figure of this process's `/proc/self/status`, in bytes ("VmHWM", "VmRSS").
fn status_bytes(field: &str) -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The most memory `read` takes beyond what the process held when it began: the peak of its
/// resident memory, reset first (`/proc/self/clear_refs`), less what was resident before.
/// None where the system does not tell.
fn peak_of<T>(read: impl FnOnce() -> T) -> (T, Option<usize>) {
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let before = status_bytes("VmRSS");
    let out = read();
    let peak = status_bytes("VmHWM");
    match (reset, before, peak) {
        (true, Some(before), Some(peak)) => (out, Some(peak.saturating_sub(before))),
        _ => (out, None),
    }
}

const EVENTS: usize = 200_000;
const NODES: usize = 1_000;

/// A trace as Posthoc writes one: a view, and each event with where it is drawn.
fn json_trace() -> String {
    let mut text = String::from(
        "{\n \"version\": \"1.4.0\",\n \"views\": {\"main\": [{\"$\": \"rect\", \"x\": \"${{ $.x }}\"}]},\n \"events\": [\n",
    );
    for k in 0..EVENTS {
        let sep = if k + 1 == EVENTS { "" } else { "," };
        text.push_str(&format!(
            "  {{\"type\": \"expanding\", \"id\": {}, \"g\": {}, \"f\": {}, \"x\": {}, \"y\": 7, \"label\": \"expanding a node of the search\"}}{sep}\n",
            k % NODES,
            k as f64 * 0.5,
            k as f64 * 0.5 + 3.25,
            k % NODES
        ));
    }
    text.push_str(" ]\n}\n");
    text
}

fn yaml_trace() -> String {
    let mut text = String::from(
        "version: 1.4.0\nviews:\n  main:\n    - $: rect\n      x: ${{ $.x }}\nevents:\n",
    );
    for k in 0..EVENTS {
        text.push_str(&format!(
            "  - type: expanding\n    id: {}\n    g: {}\n    f: {}\n    x: {}\n    y: 7\n    label: expanding a node of the search\n",
            k % NODES,
            k as f64 * 0.5,
            k as f64 * 0.5 + 3.25,
            k % NODES
        ));
    }
    text
}

#[test]
fn a_large_trace_takes_less_than_twice_its_size() {
    for (name, text) in [
        ("big.trace.json", json_trace()),
        ("big.trace.yaml", yaml_trace()),
    ] {
        let (steps, peak) = peak_of(|| posthoc::parse(text.as_bytes(), name, NODES));
        let steps = steps.expect("reads");
        let Some(peak) = peak else {
            eprintln!("skipped: this system does not report peak memory (/proc/self/clear_refs)");
            return;
        };
        assert_eq!(posthoc::expansions(&steps).len(), EVENTS, "{name}");
        let ratio = peak as f64 / text.len() as f64;
        eprintln!(
            "{name}: {peak} bytes at the peak for {} bytes ({ratio:.1}×)",
            text.len()
        );
        assert!(
            ratio < 2.0,
            "{name}: {peak} bytes of heap for {} bytes of trace ({ratio:.1}×)",
            text.len()
        );
    }
}
