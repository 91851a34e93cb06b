//! Lines of fields in JSON text, for error messages: serde reports a line only for syntax
//! errors, not for a well-formed value that is wrong. One tokenizer serves every reader that
//! names the line of a wrong value (navlab maps, Tiled maps, Posthoc traces).

/// A JSON token that matters for finding fields and values, with what it is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum JsonToken<'a> {
    /// A string, raw (escapes kept).
    Str(&'a str),
    /// `[`, `]`, `{`, `}` or `:`.
    Punct(u8),
    /// A comma.
    Comma,
    /// The start of a number, `true`, `false` or `null`.
    Scalar,
}

/// The tokens of JSON text with their 1-based lines, one after another (no list is made: a
/// long array of numbers costs no memory).
struct JsonTokens<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

/// The tokens of `text`.
fn json_tokens(text: &str) -> JsonTokens<'_> {
    JsonTokens {
        text,
        at: 0,
        line: 1,
    }
}

impl<'a> Iterator for JsonTokens<'a> {
    type Item = (JsonToken<'a>, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.at) {
            let line = self.line;
            self.at += 1;
            match b {
                b'\n' => self.line += 1,
                b'"' => {
                    let start = self.at;
                    while let Some(&c) = bytes.get(self.at) {
                        match c {
                            b'\\' => self.at += 1,
                            b'"' => break,
                            b'\n' => self.line += 1,
                            _ => {}
                        }
                        self.at += 1;
                    }
                    let end = self.at.min(self.text.len());
                    self.at += 1;
                    let raw = self.text.get(start..end).unwrap_or_default();
                    return Some((JsonToken::Str(raw), line));
                }
                b'[' | b']' | b'{' | b'}' | b':' => return Some((JsonToken::Punct(b), line)),
                b',' => return Some((JsonToken::Comma, line)),
                b if b.is_ascii_whitespace() => {}
                _ => {
                    // The rest of the scalar: up to the next structural byte or space.
                    while let Some(&c) = bytes.get(self.at) {
                        if matches!(c, b',' | b']' | b'}' | b':' | b'"') || c.is_ascii_whitespace()
                        {
                            break;
                        }
                        self.at += 1;
                    }
                    return Some((JsonToken::Scalar, line));
                }
            }
        }
        None
    }
}

/// The strings and the structural punctuation of JSON text (brackets, braces, colons; no
/// commas or scalars, so that a long array of numbers makes no list), each with its line.
fn structure(text: &str) -> Vec<(JsonToken<'_>, usize)> {
    json_tokens(text)
        .filter(|(token, _)| !matches!(token, JsonToken::Comma | JsonToken::Scalar))
        .collect()
}

/// Where the top-level field `key` of a JSON object starts: the token after its colon.
fn json_field(tokens: &[(JsonToken<'_>, usize)], key: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, (token, _)) in tokens.iter().enumerate() {
        match token {
            JsonToken::Punct(b'{' | b'[') => depth += 1,
            JsonToken::Punct(b'}' | b']') => depth = depth.saturating_sub(1),
            JsonToken::Str(s)
                if depth == 1
                    && *s == key
                    && tokens.get(i + 1).map(|t| &t.0) == Some(&JsonToken::Punct(b':')) =>
            {
                return Some(i + 2);
            }
            _ => {}
        }
    }
    None
}

/// The lines where the elements of the top-level array field `key` of JSON text start, in
/// order (empty when there is no such array): what a reader names when an element is wrong.
pub(crate) fn json_array_element_lines(text: &str, key: &str) -> Vec<usize> {
    let mut tokens = json_tokens(text).peekable();
    let mut depth = 0usize;
    // Find `"key": [` at the top level.
    loop {
        let Some((token, _)) = tokens.next() else {
            return Vec::new();
        };
        match token {
            JsonToken::Punct(b'{' | b'[') => depth += 1,
            JsonToken::Punct(b'}' | b']') => depth = depth.saturating_sub(1),
            JsonToken::Str(s)
                if depth == 1
                    && s == key
                    && tokens.next_if(|t| t.0 == JsonToken::Punct(b':')).is_some()
                    && tokens.next_if(|t| t.0 == JsonToken::Punct(b'[')).is_some() =>
            {
                break;
            }
            _ => {}
        }
    }
    let mut lines = Vec::new();
    let (mut inside, mut expecting) = (0usize, true);
    for (token, line) in tokens {
        match token {
            JsonToken::Punct(b']' | b'}') if inside == 0 => break,
            JsonToken::Comma if inside == 0 => expecting = true,
            JsonToken::Punct(b':') | JsonToken::Comma => {}
            JsonToken::Punct(b) => {
                if expecting && inside == 0 {
                    lines.push(line);
                    expecting = false;
                }
                if matches!(b, b'[' | b'{') {
                    inside += 1;
                } else {
                    inside = inside.saturating_sub(1);
                }
            }
            JsonToken::Str(_) | JsonToken::Scalar => {
                if expecting && inside == 0 {
                    lines.push(line);
                    expecting = false;
                }
            }
        }
    }
    lines
}

/// The line of the top-level field `key` in JSON text.
pub(crate) fn json_key_line(text: &str, key: &str) -> Option<usize> {
    let tokens = structure(text);
    json_field(&tokens, key)
        .and_then(|i| tokens.get(i - 2))
        .map(|t| t.1)
}

/// The lines of the strings in the top-level array field `key` of JSON text, in order (empty
/// when there is no such array).
pub(crate) fn json_array_string_lines(text: &str, key: &str) -> Vec<usize> {
    let tokens = structure(text);
    let Some(start) = json_field(&tokens, key) else {
        return Vec::new();
    };
    if tokens.get(start).map(|t| &t.0) != Some(&JsonToken::Punct(b'[')) {
        return Vec::new();
    }
    tokens
        .iter()
        .skip(start + 1)
        .take_while(|(token, _)| *token != JsonToken::Punct(b']'))
        .filter(|(token, _)| matches!(token, JsonToken::Str(_)))
        .map(|&(_, line)| line)
        .collect()
}

/// The lines where the objects in the top-level array field `key` start, each followed by the
/// lines of the objects in its own `key` array, and so on: document order, which is the order
/// of a depth-first walk. Tiled's `layers` are such a tree (groups hold layers).
pub(crate) fn json_nested_object_lines(text: &str, key: &str) -> Vec<usize> {
    let tokens = structure(text);
    let mut lines = Vec::new();
    if tokens.first().map(|t| &t.0) == Some(&JsonToken::Punct(b'{'))
        && let Some(end) = matching_close(&tokens, 0)
    {
        nested_object_lines(&tokens, 0..end + 1, key, &mut lines, 0);
    }
    lines
}

/// [`json_nested_object_lines`] for the object at `tokens[object]`, `depth` levels down.
fn nested_object_lines(
    tokens: &[(JsonToken<'_>, usize)],
    object: std::ops::Range<usize>,
    key: &str,
    lines: &mut Vec<usize>,
    depth: usize,
) {
    // serde_json refuses deeper nesting than this before anyone asks for lines.
    const MAX_DEPTH: usize = 128;
    let Some(inside) = tokens.get(object.clone()) else {
        return;
    };
    let Some(open) = json_field(inside, key).map(|i| object.start + i) else {
        return;
    };
    if depth > MAX_DEPTH || tokens.get(open).map(|t| &t.0) != Some(&JsonToken::Punct(b'[')) {
        return;
    }
    let Some(close) = matching_close(tokens, open) else {
        return;
    };
    let mut i = open + 1;
    while i < close {
        match tokens.get(i) {
            Some((JsonToken::Punct(b'{'), line)) => {
                let Some(end) = matching_close(tokens, i) else {
                    return;
                };
                lines.push(*line);
                nested_object_lines(tokens, i..end + 1, key, lines, depth + 1);
                i = end + 1;
            }
            Some((JsonToken::Punct(b'['), _)) => match matching_close(tokens, i) {
                Some(end) => i = end + 1,
                None => return,
            },
            _ => i += 1,
        }
    }
}

/// The index of the bracket or brace that closes the one at `open`.
fn matching_close(tokens: &[(JsonToken<'_>, usize)], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, (token, _)) in tokens.iter().enumerate().skip(open) {
        match token {
            JsonToken::Punct(b'{' | b'[') => depth += 1,
            JsonToken::Punct(b'}' | b']') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_row_strings_are_found_on_their_lines() {
        let text =
            "{\n  \"a\": {\"width\": 1},\n  \"width\": 7,\n  \"rows\": [\"ab\",\n \"c\\\"d\"]\n}";
        assert_eq!(json_key_line(text, "width"), Some(3), "the top-level one");
        assert_eq!(json_key_line(text, "height"), None);
        assert_eq!(json_array_string_lines(text, "rows"), [4, 5]);
    }

    #[test]
    fn nested_objects_are_listed_depth_first_with_their_lines() {
        let text = r#"{"width": 2, "tilesets": [{"layers": "not these"}],
 "layers": [
  {"name": "ground", "data": [1, 2]},
  {"type": "group", "layers": [
     {"name": "inner", "properties": [{"name": "layers", "value": 1}]},
     {"name": "deeper", "type": "group", "layers": [
        {"name": "deepest"}]}
  ]},
  {"name": "last"}
 ]
}"#;
        assert_eq!(json_nested_object_lines(text, "layers"), [3, 4, 5, 6, 7, 9]);
        assert!(json_nested_object_lines("[1, 2]", "layers").is_empty());
        assert!(json_nested_object_lines("{\"layers\": [{", "layers").is_empty());
    }

    #[test]
    fn array_elements_of_any_kind_are_found_on_their_lines() {
        let text = "{\"a\": {\"events\": [0]},\n \"events\": [\n  {\"x\": [1,\n 2]}, 3,\n  \"s,]\",\n  [4,\n5],\n  null\n ],\n \"after\": [9]\n}";
        assert_eq!(json_array_element_lines(text, "events"), [3, 4, 5, 6, 8]);
        assert!(json_array_element_lines(text, "missing").is_empty());
        assert!(json_array_element_lines("{\"events\": []}", "events").is_empty());
        assert!(json_array_element_lines("{\"events\": 3}", "events").is_empty());
        assert_eq!(
            json_array_element_lines("{\"events\": [1, 2", "events"),
            [1, 1]
        );
    }

    /// A JSON value of a few levels: scalars, strings with quotes, commas and brackets in
    /// them, arrays and objects.
    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i32>().prop_map(serde_json::Value::from),
            "[a-z\\[\\]{},:\"\\\\ ]{0,6}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
                proptest::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn element_lines_are_where_serde_writes_each_element(
            elements in proptest::collection::vec(json_value(), 0..6)
        ) {
            let document = serde_json::json!({ "a": elements.clone(), "events": elements.clone() });
            let text = serde_json::to_string_pretty(&document).expect("writes");
            // Pretty-printed, "a" comes first; each element starts on its own line after the
            // lines of those before it.
            let a_lines = serde_json::to_string_pretty(&serde_json::json!({ "a": elements.clone() }))
                .expect("writes")
                .lines()
                .count();
            let mut line = a_lines + 1;
            let mut expected = Vec::new();
            for element in &elements {
                expected.push(line);
                line += serde_json::to_string_pretty(element).expect("writes").lines().count();
            }
            proptest::prop_assert_eq!(json_array_element_lines(&text, "events"), expected);
        }
    }
}
