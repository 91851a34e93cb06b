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
use crate::input::json_lines::json_array_element_lines;
use serde_json::{Value, json};

/// The Posthoc trace format version written.
pub const VERSION: &str = "1.4.0";

/// Most events a trace read here may hold.
pub const MAX_EVENTS: usize = 5_000_000;

/// A cost for the trace's JSON: `null` when infinite.
fn finite(cost: f64) -> Option<f64> {
    cost.is_finite().then_some(cost)
}

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
            SearchEvent::Turned { backward, .. } => {
                if let Some(done) = open_expansion.take() {
                    out.push(close(done, &parent));
                }
                out.push(json!({"type": "turning", "backward": backward}));
            }
            SearchEvent::Met { node, cost } => {
                out.push(with_place(
                    json!({"type": "meeting", "id": node, "cost": cost}),
                    node,
                ));
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
            SearchEvent::Jumped {
                from,
                to,
                dx,
                dy,
                stop,
            } => {
                out.push(with_place(
                    json!({"type": "jumping", "id": to, "pId": from, "dx": dx, "dy": dy, "stop": stop}),
                    to,
                ));
            }
            // D* Lite's steps under types of their own: its open list holds inconsistent cells
            // under keys, not nodes reached with a cost from the start.
            SearchEvent::Inconsistent {
                node,
                g,
                rhs,
                k1,
                k2,
                ..
            } => {
                parent.insert(node, (None, k2, k1));
                out.push(with_place(
                    json!({"type": "inconsistent", "id": node, "g": finite(g), "rhs": finite(rhs), "k1": k1, "k2": k2}),
                    node,
                ));
            }
            SearchEvent::Raised { node, g } => {
                if let Some(done) = open_expansion.take() {
                    out.push(close(done, &parent));
                }
                out.push(with_place(
                    json!({"type": "raising", "id": node, "g": finite(g)}),
                    node,
                ));
            }
            SearchEvent::Consistent { node, g } => {
                out.push(with_place(
                    json!({"type": "consistent", "id": node, "g": finite(g)}),
                    node,
                ));
            }
            SearchEvent::Edited { node } => {
                out.push(with_place(json!({"type": "editing", "id": node}), node));
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

/// Reads a Posthoc trace (JSON or YAML) into search steps on nodes `0..node_count`:
/// `generating` is a node opened (or, for a node already reached, a cheaper way to it),
/// `updating` a cheaper way, `expanding` an expansion, `end` the goal reached; the other types
/// (`source`, `destination`, `closing`, and types this reader does not know) say nothing it
/// replays. A broken structure, an event with no type, or an id that is not a node of this map
/// or mesh is refused with the line it is on.
///
/// The text is read as a stream: each event is taken as it is met and counted against
/// [`MAX_EVENTS`], and what this reader does not use (the views, other keys, an event's
/// drawing) is passed over without being built, so that memory follows the steps kept, not
/// the file. YAML aliases (`*name`) are refused: each would repeat a part of the file, and a
/// few hundred bytes of them stand for billions of nodes.
pub fn import(text: &str, node_count: usize) -> Result<Vec<SearchEvent>, TraceError> {
    let mut collector = Collector::new(node_count);
    if text.trim_start().starts_with('{') {
        read_json(text, &mut collector)?;
    } else {
        read_yaml(text, &mut collector)?;
    }
    if !collector.seen_events {
        return Err(TraceError {
            line: 1,
            message: "no `events` list".to_string(),
        });
    }
    Ok(collector.steps)
}

/// A value of an event's field, as far as this reader looks at it.
#[derive(Debug, Clone, PartialEq, Default)]
enum Scalar {
    /// Absent, or null.
    #[default]
    Null,
    /// A whole number from 0.
    Unsigned(u64),
    /// Any other number.
    Number(f64),
    /// A string.
    Text(String),
    /// Anything else (a boolean, a list, a map).
    Other,
}

impl Scalar {
    fn number(&self) -> f64 {
        match self {
            Scalar::Unsigned(n) => *n as f64,
            Scalar::Number(x) => *x,
            _ => 0.0,
        }
    }
}

/// The fields of one event this reader uses.
#[derive(Debug, Default)]
struct RawEvent {
    kind: Scalar,
    id: Scalar,
    parent: Scalar,
    g: Scalar,
    f: Scalar,
}

impl RawEvent {
    /// The field named `key`, when it is one this reader uses.
    fn field(&mut self, key: &str) -> Option<&mut Scalar> {
        match key {
            "type" => Some(&mut self.kind),
            "id" => Some(&mut self.id),
            "pId" => Some(&mut self.parent),
            "g" => Some(&mut self.g),
            "f" => Some(&mut self.f),
            _ => None,
        }
    }
}

/// The steps read so far.
struct Collector {
    node_count: usize,
    reached: Vec<bool>,
    steps: Vec<SearchEvent>,
    /// Events taken so far.
    count: usize,
    /// An `events` list was met.
    seen_events: bool,
}

impl Collector {
    fn new(node_count: usize) -> Self {
        Self {
            node_count,
            reached: vec![false; node_count],
            steps: Vec::new(),
            count: 0,
            seen_events: false,
        }
    }

    /// Takes the next event, or says what is wrong with it.
    fn take(&mut self, event: RawEvent) -> Result<(), String> {
        if self.count == MAX_EVENTS {
            return Err(format!("more than {MAX_EVENTS} events"));
        }
        self.count += 1;
        let k = self.count;
        let Scalar::Text(kind) = &event.kind else {
            return Err(format!("event {k} has no `type`"));
        };
        let node_count = self.node_count;
        let node = |field: &str, value: &Scalar| -> Result<Option<usize>, String> {
            match value {
                Scalar::Null => Ok(None),
                Scalar::Unsigned(n) if (*n as u128) < node_count as u128 => Ok(Some(*n as usize)),
                _ => Err(format!(
                    "event {k} ({kind}): `{field}` is not a node of this {node_count}-node search space"
                )),
            }
        };
        let needs_id =
            |id: Option<usize>| id.ok_or_else(|| format!("event {k} ({kind}) has no `id`"));
        let (g, f) = (event.g.number(), event.f.number());
        match kind.as_str() {
            "generating" | "updating" => {
                let id = needs_id(node("id", &event.id)?)?;
                let parent = node("pId", &event.parent)?;
                let first = self
                    .reached
                    .get_mut(id)
                    .is_some_and(|seen| !std::mem::replace(seen, true));
                self.steps.push(match (kind.as_str(), first, parent) {
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
                let id = needs_id(node("id", &event.id)?)?;
                if let Some(seen) = self.reached.get_mut(id) {
                    *seen = true;
                }
                self.steps.push(SearchEvent::Expanded {
                    node: id,
                    g,
                    h: f - g,
                });
            }
            "end" => {
                node("id", &event.id)?;
                self.steps.push(SearchEvent::Finished {
                    outcome: SearchOutcome::Found,
                    cost: g,
                });
            }
            _ => {
                // source, destination, closing, and what other programs add: ids still checked.
                node("id", &event.id)?;
            }
        }
        Ok(())
    }
}

/// Reads a JSON trace into `collector` as serde meets it (see [`import`]).
fn read_json(text: &str, collector: &mut Collector) -> Result<(), TraceError> {
    use serde::de::DeserializeSeed;
    let mut failure: Option<(usize, String)> = None;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let read = JsonRoot {
        collector,
        failure: &mut failure,
    }
    .deserialize(&mut deserializer)
    .and_then(|()| deserializer.end());
    if let Some((event, message)) = failure {
        // The line of the event, found only now, by a second look at the text.
        let line = json_array_element_lines(text, "events")
            .get(event)
            .copied()
            .unwrap_or(1);
        return Err(TraceError { line, message });
    }
    read.map_err(|e| TraceError {
        line: e.line(),
        message: format!("not a trace: {}", crate::input::json_problem(&e)),
    })
}

/// The top-level object of a JSON trace: its `events` read one by one, the rest skipped.
struct JsonRoot<'a> {
    collector: &'a mut Collector,
    /// The event (from 0) that stopped the reading, and why.
    failure: &'a mut Option<(usize, String)>,
}

impl<'de> serde::de::DeserializeSeed<'de> for JsonRoot<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for JsonRoot<'_> {
    type Value = ();
    fn expecting(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
        out.write_str("a trace object")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "events" && !self.collector.seen_events {
                map.next_value_seed(JsonEvents {
                    collector: &mut *self.collector,
                    failure: &mut *self.failure,
                })?;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// A JSON trace's `events` list, each event taken as it is read.
struct JsonEvents<'a> {
    collector: &'a mut Collector,
    failure: &'a mut Option<(usize, String)>,
}

impl<'de> serde::de::DeserializeSeed<'de> for JsonEvents<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for JsonEvents<'_> {
    type Value = ();
    fn expecting(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
        out.write_str("a list of events")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.collector.seen_events = true;
        while let Some(event) = seq.next_element::<JsonEvent>()? {
            let at = self.collector.count;
            if let Err(message) = self.collector.take(event.0) {
                *self.failure = Some((at, message));
                return Err(serde::de::Error::custom("stopped"));
            }
        }
        Ok(())
    }
    // Anything else under `events` is no list: passed over, and the trace has none.
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map
            .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
            .is_some()
        {}
        Ok(())
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

/// One JSON event: the fields [`RawEvent`] holds, the others passed over. An event that is no
/// object has no type.
struct JsonEvent(RawEvent);

impl<'de> serde::Deserialize<'de> for JsonEvent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = JsonEvent;
            fn expecting(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
                out.write_str("an event")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<JsonEvent, A::Error> {
                let mut event = RawEvent::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match event.field(&key) {
                        Some(field) => *field = map.next_value::<JsonScalar>()?.0,
                        None => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(JsonEvent(event))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<JsonEvent, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(JsonEvent(RawEvent::default()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<JsonEvent, E> {
                Ok(JsonEvent(RawEvent::default()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<JsonEvent, E> {
                Ok(JsonEvent(RawEvent::default()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<JsonEvent, E> {
                Ok(JsonEvent(RawEvent::default()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<JsonEvent, E> {
                Ok(JsonEvent(RawEvent::default()))
            }
            fn visit_str<E>(self, _: &str) -> Result<JsonEvent, E> {
                Ok(JsonEvent(RawEvent::default()))
            }
            fn visit_unit<E>(self) -> Result<JsonEvent, E> {
                Ok(JsonEvent(RawEvent::default()))
            }
        }
        deserializer.deserialize_any(Fields)
    }
}

/// One JSON value of a field an event's reader uses.
struct JsonScalar(Scalar);

impl<'de> serde::Deserialize<'de> for JsonScalar {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Value;
        impl<'de> serde::de::Visitor<'de> for Value {
            type Value = JsonScalar;
            fn expecting(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
                out.write_str("a value")
            }
            fn visit_u64<E>(self, n: u64) -> Result<JsonScalar, E> {
                Ok(JsonScalar(Scalar::Unsigned(n)))
            }
            fn visit_i64<E>(self, n: i64) -> Result<JsonScalar, E> {
                Ok(JsonScalar(match u64::try_from(n) {
                    Ok(n) => Scalar::Unsigned(n),
                    Err(_) => Scalar::Number(n as f64),
                }))
            }
            fn visit_f64<E>(self, x: f64) -> Result<JsonScalar, E> {
                Ok(JsonScalar(Scalar::Number(x)))
            }
            fn visit_str<E>(self, text: &str) -> Result<JsonScalar, E> {
                Ok(JsonScalar(Scalar::Text(text.to_string())))
            }
            fn visit_bool<E>(self, _: bool) -> Result<JsonScalar, E> {
                Ok(JsonScalar(Scalar::Other))
            }
            fn visit_unit<E>(self) -> Result<JsonScalar, E> {
                Ok(JsonScalar(Scalar::Null))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<JsonScalar, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(JsonScalar(Scalar::Other))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<JsonScalar, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(JsonScalar(Scalar::Other))
            }
        }
        deserializer.deserialize_any(Value)
    }
}

/// Deepest nesting a YAML trace may have (Posthoc's are four or five deep).
const MAX_YAML_DEPTH: usize = 64;

/// Reads a YAML trace into `collector` from the parser's events, building nothing but the
/// fields of each event (see [`import`]).
fn read_yaml(text: &str, collector: &mut Collector) -> Result<(), TraceError> {
    let mut yaml = YamlEvents {
        parser: yaml_rust2::parser::Parser::new_from_str(text),
    };
    // The first document's root node; what follows it is not read.
    let (first, at) = loop {
        match yaml.next()? {
            (Event::StreamStart | Event::DocumentStart, _) => {}
            (Event::StreamEnd, at) => {
                return Err(TraceError {
                    line: at.line(),
                    message: "not a trace: an empty file".to_string(),
                });
            }
            next => break next,
        }
    };
    if !matches!(first, Event::MappingStart(..)) {
        return yaml.skip((first, at), 0);
    }
    loop {
        let key = match yaml.next()? {
            (Event::MappingEnd, _) => return Ok(()),
            (Event::Scalar(key, ..), _) => Some(key),
            other => {
                yaml.skip(other, 1)?;
                None
            }
        };
        let value = yaml.next()?;
        match value {
            (Event::SequenceStart(..), _)
                if key.as_deref() == Some("events") && !collector.seen_events =>
            {
                collector.seen_events = true;
                loop {
                    let (item, at) = yaml.next()?;
                    let event = match item {
                        Event::SequenceEnd => break,
                        Event::MappingStart(..) => yaml.event_fields()?,
                        other => {
                            yaml.skip((other, at), 2)?;
                            RawEvent::default()
                        }
                    };
                    collector.take(event).map_err(|message| TraceError {
                        line: at.line(),
                        message,
                    })?;
                }
            }
            other => yaml.skip(other, 1)?,
        }
    }
}

use yaml_rust2::parser::Event;

/// A YAML parser's events, with the errors this reader gives.
struct YamlEvents<'a> {
    parser: yaml_rust2::parser::Parser<std::str::Chars<'a>>,
}

impl YamlEvents<'_> {
    /// The next event; an alias is refused where it stands.
    fn next(&mut self) -> Result<(Event, yaml_rust2::scanner::Marker), TraceError> {
        let (event, at) = self.parser.next_token().map_err(|e| TraceError {
            line: e.marker().line(),
            message: "not a trace: broken YAML".to_string(),
        })?;
        if matches!(event, Event::Alias(_)) {
            return Err(TraceError {
                line: at.line(),
                message: "not a trace: a YAML alias (`*name`); navlab reads traces without them"
                    .to_string(),
            });
        }
        Ok((event, at))
    }

    /// Passes over the node that begins with `first`, `depth` deep, building nothing.
    fn skip(
        &mut self,
        (first, at): (Event, yaml_rust2::scanner::Marker),
        depth: usize,
    ) -> Result<(), TraceError> {
        let too_deep = |line: usize| TraceError {
            line,
            message: format!("not a trace: nested deeper than {MAX_YAML_DEPTH} levels"),
        };
        let mut open = match first {
            Event::SequenceStart(..) | Event::MappingStart(..) => 1,
            _ => return Ok(()),
        };
        if depth + open > MAX_YAML_DEPTH {
            return Err(too_deep(at.line()));
        }
        while open > 0 {
            match self.next()? {
                (Event::SequenceStart(..) | Event::MappingStart(..), at) => {
                    open += 1;
                    if depth + open > MAX_YAML_DEPTH {
                        return Err(too_deep(at.line()));
                    }
                }
                (Event::SequenceEnd | Event::MappingEnd, _) => open -= 1,
                (Event::StreamEnd, at) => {
                    return Err(TraceError {
                        line: at.line(),
                        message: "not a trace: broken YAML".to_string(),
                    });
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The fields of the event whose mapping has just begun, up to its end.
    fn event_fields(&mut self) -> Result<RawEvent, TraceError> {
        let mut event = RawEvent::default();
        loop {
            let key = match self.next()? {
                (Event::MappingEnd, _) => return Ok(event),
                (Event::Scalar(key, ..), _) => Some(key),
                other => {
                    self.skip(other, 3)?;
                    None
                }
            };
            let value = self.next()?;
            match (key.as_deref().and_then(|key| event.field(key)), value) {
                (Some(field), (Event::Scalar(text, style, ..), _)) => {
                    *field = yaml_scalar(text, style);
                }
                (Some(field), other) => {
                    self.skip(other, 3)?;
                    *field = Scalar::Other;
                }
                (None, other) => self.skip(other, 3)?,
            }
        }
    }
}

/// What a YAML scalar stands for, as YAML's core schema reads it: a quoted one is text, a
/// plain one a number, a boolean, null or text by its look.
fn yaml_scalar(text: String, style: yaml_rust2::scanner::TScalarStyle) -> Scalar {
    use yaml_rust2::Yaml;
    if style != yaml_rust2::scanner::TScalarStyle::Plain {
        return Scalar::Text(text);
    }
    match Yaml::from_str(&text) {
        Yaml::Integer(n) => match u64::try_from(n) {
            Ok(n) => Scalar::Unsigned(n),
            Err(_) => Scalar::Number(n as f64),
        },
        Yaml::Real(real) => real.parse::<f64>().map_or(Scalar::Other, Scalar::Number),
        Yaml::String(_) => Scalar::Text(text),
        Yaml::Null => Scalar::Null,
        _ => Scalar::Other,
    }
}

/// Reads the trace file at `path` (bounded, a regular file) into steps on `node_count` nodes,
/// as [`import`] does; an error names the file and, where known, the line.
pub fn read(path: &std::path::Path, node_count: usize) -> Result<Vec<SearchEvent>, String> {
    let name = crate::input::shown(path);
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
    if !text.trim_start().starts_with('{') {
        crate::input::check_size(bytes, crate::input::MAX_YAML_TRACE_BYTES, "a YAML trace")
            .map_err(|e| format!("{name}: {e}"))?;
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yaml_trace_as_posthoc_writes_them_reads_and_names_its_lines() {
        let text = "version: 1.4.0\nviews:\n  main:\n    - $: rect\n      x: ${{ $.x }}\nevents:\n  - type: source\n    id: 0\n  - type: expanding\n    id: 1\n    g: 0\n    f: 2.5\n    pId:\n  - type: expanding\n    id: 7\n";
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
        assert_eq!(json_array_element_lines(text, "events"), [4, 5]);
        let err = import(text, 5).expect_err("id 9 of 5 nodes");
        assert_eq!(err.line, 5);
        assert!(err.message.contains("`id`"), "{err}");
    }
}
