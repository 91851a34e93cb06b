//! Search traces in the format of Posthoc (ShortestPathLab's visualiser): a search's steps
//! written as its `events` (`source`, `destination`, `generating`, `updating`, `expanding`,
//! `closing`, `end`, each with `id`, `pId`, `g`, `f` and where the node is drawn) under a
//! `views` section that tells Posthoc how to draw each node; and such a trace, written by
//! another program, read back into our steps, to replay beside our own run and find the first
//! expansion where the two differ.
//!
//! Written as JSON, which is also YAML: `.trace.json` and `.trace.yaml` both open in Posthoc.
//! Read as JSON, or as YAML (Posthoc's own sample traces are YAML), through `yaml-rust2`.

use super::events::{SearchEvent, SearchOutcome};
use serde_json::{Value, json};

/// The Posthoc trace format version written.
pub const VERSION: &str = "1.4.0";

/// Most events a trace read here may hold.
pub const MAX_EVENTS: usize = 5_000_000;

/// How Posthoc draws one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeShape {
    /// A unit square at (`x`, `y`): a tile map's cell.
    Cell,
    /// The polygon through `points`: a navmesh's triangle.
    Polygon,
}

/// Writes `events` as a Posthoc trace. `source` and `destination` are the start and goal
/// nodes; `place(node)` gives what the view draws a node with (`{"x", "y"}` for cells,
/// `{"points": [{"x", "y"}, …]}` for polygons), merged into each of its events.
pub fn export(
    events: &[SearchEvent],
    (source, destination): (usize, usize),
    shape: NodeShape,
    place: impl Fn(usize) -> Value,
) -> Value {
    let with_place = |mut event: Value, node: usize| {
        if let (Value::Object(fields), Value::Object(extra)) = (&mut event, place(node)) {
            fields.extend(extra);
        }
        event
    };
    let mut out = vec![
        with_place(json!({"type": "source", "id": source}), source),
        with_place(
            json!({"type": "destination", "id": destination}),
            destination,
        ),
    ];
    // What each node was reached from and its costs, for the `closing` and `end` events.
    let mut parent: std::collections::HashMap<usize, (Option<usize>, f64, f64)> =
        Default::default();
    // The node expanded last: it is closed once its successors are generated (in a
    // depth-first search, IDA*'s, when the search backs up past it instead).
    let depth_first = events
        .iter()
        .any(|e| matches!(e, SearchEvent::Backtracked { .. }));
    let mut open_expansion: Option<usize> = None;
    let close =
        |node: usize, parent: &std::collections::HashMap<usize, (Option<usize>, f64, f64)>| {
            let (p, g, f) = parent.get(&node).copied().unwrap_or((None, 0.0, 0.0));
            with_place(
                json!({"type": "closing", "id": node, "pId": p, "g": g, "f": f}),
                node,
            )
        };
    for event in events {
        match *event {
            SearchEvent::Opened {
                node,
                parent: p,
                g,
                h,
            } => {
                parent.insert(node, (p, g, g + h));
                out.push(with_place(
                    json!({"type": "generating", "id": node, "pId": p, "g": g, "f": g + h}),
                    node,
                ));
            }
            SearchEvent::Improved {
                node,
                parent: p,
                g,
                h,
            } => {
                parent.insert(node, (Some(p), g, g + h));
                out.push(with_place(
                    json!({"type": "updating", "id": node, "pId": p, "g": g, "f": g + h}),
                    node,
                ));
            }
            SearchEvent::Expanded { node, g, h } => {
                if let Some(done) = open_expansion.take() {
                    out.push(close(done, &parent));
                }
                let p = parent.get(&node).and_then(|r| r.0);
                parent
                    .entry(node)
                    .and_modify(|r| (r.1, r.2) = (g, g + h))
                    .or_insert((None, g, g + h));
                out.push(with_place(
                    json!({"type": "expanding", "id": node, "pId": p, "g": g, "f": g + h}),
                    node,
                ));
                if !depth_first {
                    open_expansion = Some(node);
                }
            }
            SearchEvent::IterationStarted {
                iteration,
                threshold,
                ..
            } => {
                if let Some(done) = open_expansion.take() {
                    out.push(close(done, &parent));
                }
                out.push(json!({"type": "pass", "pass": iteration, "threshold": threshold}));
            }
            SearchEvent::Deferred { node, f } => {
                out.push(with_place(
                    json!({"type": "deferring", "id": node, "f": f}),
                    node,
                ));
            }
            SearchEvent::CutOff { node, g, h } => {
                out.push(with_place(
                    json!({"type": "cutting_off", "id": node, "g": g, "f": g + h}),
                    node,
                ));
            }
            SearchEvent::Backtracked { node, .. } => {
                if open_expansion == Some(node) {
                    open_expansion = None;
                }
                out.push(close(node, &parent));
            }
            SearchEvent::Finished { outcome, cost } => {
                if let Some(done) = open_expansion.take() {
                    out.push(close(done, &parent));
                }
                if outcome == SearchOutcome::Found {
                    let p = parent.get(&destination).and_then(|r| r.0);
                    out.push(with_place(
                        json!({"type": "end", "id": destination, "pId": p, "g": cost, "f": cost}),
                        destination,
                    ));
                }
            }
        }
    }
    let view = match shape {
        NodeShape::Cell => json!([{
            "$": "rect",
            "fill": "${{ color[$.type] }}",
            "width": 1,
            "height": 1,
            "x": "${{ $.x }}",
            "y": "${{ $.y }}",
        }]),
        NodeShape::Polygon => json!([{
            "$": "polygon",
            "fill": "${{ color[$.type] }}",
            "points": "${{ $.points }}",
        }]),
    };
    json!({
        "version": VERSION,
        "views": {"main": view},
        "events": out,
    })
}

/// The funnel's steps as events of their own kinds, for a trace of a navmesh query after A\*'s:
/// `funnel_start`, `funnel_portal` (the portal examined), `funnel_narrow` and `funnel_keep`
/// (a side), `funnel_corner` (a corner of the path) and `funnel_end`, each with the `points`
/// the view draws (the portal's ends, the funnel's apex and sides, the corner).
pub fn funnel_events(events: &[super::funnel::FunnelEvent]) -> Vec<Value> {
    use super::funnel::{FunnelEvent, Side};
    let point = |p: crate::geom::Vec2| json!({"x": p.x, "y": p.y});
    let side = |s: Side| match s {
        Side::Left => "left",
        Side::Right => "right",
    };
    events
        .iter()
        .map(|event| match event {
            FunnelEvent::Started { state } => json!({
                "type": "funnel_start",
                "points": [point(state.apex)],
            }),
            FunnelEvent::PortalConsidered { portal, state } => json!({
                "type": "funnel_portal",
                "portal": portal,
                "points": [point(state.left), point(state.apex), point(state.right)],
            }),
            FunnelEvent::Narrowed {
                portal,
                side: s,
                state,
            } => json!({
                "type": "funnel_narrow",
                "portal": portal,
                "side": side(*s),
                "points": [point(state.left), point(state.apex), point(state.right)],
            }),
            FunnelEvent::Kept { portal, side: s } => json!({
                "type": "funnel_keep",
                "portal": portal,
                "side": side(*s),
            }),
            FunnelEvent::Corner {
                portal,
                corner,
                restart_after,
                ..
            } => json!({
                "type": "funnel_corner",
                "portal": portal,
                "restart_after": restart_after,
                "points": [point(*corner)],
            }),
            FunnelEvent::Done { waypoints, length } => json!({
                "type": "funnel_end",
                "waypoints": waypoints,
                "length": length,
            }),
        })
        .collect()
}

/// Why a trace could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct TraceError {
    /// The line of the file (from 1) where the problem is.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a Posthoc trace (JSON) into search steps on nodes `0..node_count`: `generating` is a
/// node opened (or, for a node already reached, a cheaper way to it), `updating` a cheaper way,
/// `expanding` an expansion, `end` the goal reached; the other types (`source`,
/// `destination`, `closing`, and types this reader does not know) say nothing it replays.
/// A broken structure, an event with no type, or an id that is not a node of this map or mesh
/// is refused with the line it is on.
pub fn import(text: &str, node_count: usize) -> Result<Vec<SearchEvent>, TraceError> {
    let json = text.trim_start().starts_with('{');
    let root: Value = if json {
        serde_json::from_str(text).map_err(|e| TraceError {
            line: e.line(),
            message: format!("not a trace: {}", crate::input::json_problem(&e)),
        })?
    } else {
        from_yaml(text)?
    };
    let lines = if json {
        event_lines(text)
    } else {
        yaml_event_lines(text)
    };
    let events = root
        .get("events")
        .and_then(Value::as_array)
        .ok_or_else(|| TraceError {
            line: 1,
            message: "no `events` list".to_string(),
        })?;
    if events.len() > MAX_EVENTS {
        return Err(TraceError {
            line: 1,
            message: format!("more than {MAX_EVENTS} events"),
        });
    }
    let line_of = |k: usize| lines.get(k).copied().unwrap_or(1);
    let mut reached = vec![false; node_count];
    let mut steps = Vec::new();
    for (k, event) in events.iter().enumerate() {
        let fail = |message: String| TraceError {
            line: line_of(k),
            message,
        };
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| fail(format!("event {} has no `type`", k + 1)))?;
        let node = |field: &str| -> Result<Option<usize>, TraceError> {
            match event.get(field) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => match v.as_u64().map(|n| n as usize) {
                    Some(n) if n < node_count => Ok(Some(n)),
                    _ => Err(fail(format!(
                        "event {} ({kind}): `{field}` is not a node of this {node_count}-node search space",
                        k + 1
                    ))),
                },
            }
        };
        let number = |field: &str| event.get(field).and_then(Value::as_f64).unwrap_or(0.0);
        let needs_id = |id: Option<usize>| {
            id.ok_or_else(|| fail(format!("event {} ({kind}) has no `id`", k + 1)))
        };
        let (g, f) = (number("g"), number("f"));
        match kind {
            "generating" | "updating" => {
                let id = needs_id(node("id")?)?;
                let parent = node("pId")?;
                let first = !std::mem::replace(&mut reached[id], true);
                steps.push(match (kind, first, parent) {
                    ("generating", true, _) | (_, _, None) => SearchEvent::Opened {
                        node: id,
                        parent,
                        g,
                        h: f - g,
                    },
                    (_, _, Some(parent)) => SearchEvent::Improved {
                        node: id,
                        parent,
                        g,
                        h: f - g,
                    },
                });
            }
            "expanding" => {
                let id = needs_id(node("id")?)?;
                reached[id] = true;
                steps.push(SearchEvent::Expanded {
                    node: id,
                    g,
                    h: f - g,
                });
            }
            "end" => {
                node("id")?;
                steps.push(SearchEvent::Finished {
                    outcome: SearchOutcome::Found,
                    cost: g,
                });
            }
            _ => {
                // source, destination, closing, and what other programs add: ids still checked.
                node("id")?;
            }
        }
    }
    Ok(steps)
}

/// Deepest nesting a YAML trace may have (Posthoc's are four or five deep).
const MAX_YAML_DEPTH: usize = 64;

/// A YAML trace as the JSON value it stands for.
fn from_yaml(text: &str) -> Result<Value, TraceError> {
    let docs = yaml_rust2::YamlLoader::load_from_str(text).map_err(|e| TraceError {
        line: e.marker().line(),
        message: "not a trace: broken YAML".to_string(),
    })?;
    let doc = docs.into_iter().next().ok_or_else(|| TraceError {
        line: 1,
        message: "not a trace: an empty file".to_string(),
    })?;
    yaml_to_json(&doc, 0).ok_or_else(|| TraceError {
        line: 1,
        message: format!("not a trace: nested deeper than {MAX_YAML_DEPTH} levels"),
    })
}

fn yaml_to_json(yaml: &yaml_rust2::Yaml, depth: usize) -> Option<Value> {
    use yaml_rust2::Yaml;
    if depth > MAX_YAML_DEPTH {
        return None;
    }
    Some(match yaml {
        Yaml::Real(text) => text.parse::<f64>().map_or(Value::Null, Value::from),
        Yaml::Integer(n) => Value::from(*n),
        Yaml::String(s) => Value::from(s.clone()),
        Yaml::Boolean(b) => Value::from(*b),
        Yaml::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| yaml_to_json(item, depth + 1))
                .collect::<Option<Vec<_>>>()?,
        ),
        Yaml::Hash(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Yaml::String(s) => s.clone(),
                        Yaml::Integer(n) => n.to_string(),
                        other => format!("{other:?}"),
                    };
                    Some((key, yaml_to_json(v, depth + 1)?))
                })
                .collect::<Option<serde_json::Map<_, _>>>()?,
        ),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    })
}

/// The line (from 1) each item of a YAML trace's `events:` list starts on: the lines after
/// `events:` that begin, at the list's indentation, with `- `.
fn yaml_event_lines(text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut in_events = false;
    let mut indent: Option<usize> = None;
    for (k, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let depth = line.len() - trimmed.len();
        if !in_events {
            in_events = depth == 0 && trimmed.starts_with("events:");
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if depth == 0 && !trimmed.starts_with('-') {
            break; // the next top-level key
        }
        if trimmed.starts_with("- ") || trimmed == "-" {
            let at = *indent.get_or_insert(depth);
            if depth == at {
                lines.push(k + 1);
            }
        }
    }
    lines
}

/// Reads the trace file at `path` (bounded, a regular file) into steps on `node_count` nodes,
/// as [`import`] does; an error names the file and, where known, the line.
pub fn read(path: &std::path::Path, node_count: usize) -> Result<Vec<SearchEvent>, String> {
    let name = path.display().to_string();
    let bytes = crate::input::read_file(path, crate::input::MAX_TRACE_BYTES, "a search trace")
        .map_err(|e| format!("{name}: {e}"))?;
    parse(&bytes, &name, node_count)
}

/// Reads a trace's bytes already in memory (given by a browser, say), as [`read`] reads a
/// file; `name` names it in errors.
pub fn parse(bytes: &[u8], name: &str, node_count: usize) -> Result<Vec<SearchEvent>, String> {
    crate::input::check_size(bytes, crate::input::MAX_TRACE_BYTES, "a search trace")
        .map_err(|e| format!("{name}: {e}"))?;
    let text = std::str::from_utf8(bytes).map_err(|_| format!("{name}: not UTF-8 text"))?;
    import(text, node_count).map_err(|e| format!("{name}:{}: {}", e.line, e.message))
}

/// The nodes expanded, in order.
pub fn expansions(steps: &[SearchEvent]) -> Vec<usize> {
    steps
        .iter()
        .filter_map(|e| match e {
            SearchEvent::Expanded { node, .. } => Some(*node),
            _ => None,
        })
        .collect()
}

/// Where two runs first expand different nodes: the expansion's number (from 1) and each
/// run's node there (`None`: that run had stopped). `None` when they expand the same nodes.
pub fn first_difference(
    ours: &[SearchEvent],
    theirs: &[SearchEvent],
) -> Option<(usize, Option<usize>, Option<usize>)> {
    let (a, b) = (expansions(ours), expansions(theirs));
    (0..a.len().max(b.len()))
        .find(|&k| a.get(k) != b.get(k))
        .map(|k| (k + 1, a.get(k).copied(), b.get(k).copied()))
}

/// The line (from 1) each element of the top-level `events` array starts on, found by reading
/// the text as JSON tokens (strings skipped), for messages.
fn event_lines(text: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let (mut line, mut depth) = (1usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    // Depth of the events array once its key is seen at depth 1.
    let mut events_depth: Option<usize> = None;
    let mut expecting_element = false;
    let mut last_key_events = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line += 1;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                if depth == 1 && text[i..].starts_with("\"events\"") {
                    last_key_events = true;
                }
                if expecting_element {
                    lines.push(line);
                    expecting_element = false;
                }
                in_string = true;
            }
            b'[' | b'{' => {
                if expecting_element {
                    lines.push(line);
                    expecting_element = false;
                }
                depth += 1;
                if c == b'[' && depth == 2 && last_key_events && events_depth.is_none() {
                    events_depth = Some(depth);
                    expecting_element = true;
                }
            }
            b']' | b'}' => {
                if events_depth == Some(depth) {
                    events_depth = Some(usize::MAX);
                    expecting_element = false;
                }
                depth = depth.saturating_sub(1);
            }
            b',' if events_depth == Some(depth) => expecting_element = true,
            c if !c.is_ascii_whitespace() && expecting_element => {
                lines.push(line);
                expecting_element = false;
            }
            _ => {}
        }
        i += 1;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yaml_trace_as_posthoc_writes_them_reads_and_names_its_lines() {
        let text = "version: 1.4.0\nviews:\n  main:\n    - $: rect\n      x: ${{ $.x }}\nevents:\n  - type: source\n    id: 0\n  - type: expanding\n    id: 1\n    g: 0\n    f: 2.5\n    pId:\n  - type: expanding\n    id: 7\n";
        assert_eq!(yaml_event_lines(text), [7, 9, 14]);
        let err = import(text, 5).expect_err("id 7 of 5 nodes");
        assert_eq!(err.line, 14);
        let ok = import(&text.replace("id: 7", "id: 2"), 5).expect("reads");
        assert_eq!(expansions(&ok), [1, 2]);
        assert!(matches!(ok[0], SearchEvent::Expanded { node: 1, g, h } if g == 0.0 && h == 2.5));
        let broken = import("events:\n  - type: [\n", 5).expect_err("broken");
        assert!(broken.message.contains("broken YAML"), "{broken}");
    }

    #[test]
    fn each_event_is_found_on_its_line() {
        let text = "{\n \"version\": \"1.4.0\",\n \"events\": [\n  {\"type\": \"source\", \"id\": 0},\n  {\"type\": \"expanding\",\n   \"id\": 9}\n ]\n}\n";
        assert_eq!(event_lines(text), [4, 5]);
        let err = import(text, 5).expect_err("id 9 of 5 nodes");
        assert_eq!(err.line, 5);
        assert!(err.message.contains("`id`"), "{err}");
    }
}
