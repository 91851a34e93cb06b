//! Lines of fields in JSON text, for error messages: serde reports a line only for syntax
//! errors, not for a well-formed value that is wrong.

/// A JSON token that matters for finding fields: a string (raw, escapes kept) or punctuation.
#[derive(PartialEq)]
enum JsonToken<'a> {
    Str(&'a str),
    Punct(u8),
}

/// The strings and the structural punctuation of JSON text (brackets, braces, colons; not
/// commas, so that a long array of numbers makes no tokens), each with its 1-based line.
fn json_tokens(text: &str) -> Vec<(JsonToken<'_>, usize)> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\n' => line += 1,
            b'"' => {
                let (start, first_line) = (i + 1, line);
                i += 1;
                while let Some(&c) = bytes.get(i) {
                    match c {
                        b'\\' => i += 1,
                        b'"' => break,
                        b'\n' => line += 1,
                        _ => {}
                    }
                    i += 1;
                }
                let raw = text.get(start..i.min(text.len())).unwrap_or_default();
                tokens.push((JsonToken::Str(raw), first_line));
            }
            b'[' | b']' | b'{' | b'}' | b':' => tokens.push((JsonToken::Punct(b), line)),
            _ => {}
        }
        i += 1;
    }
    tokens
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

/// The line of the top-level field `key` in JSON text.
pub(crate) fn json_key_line(text: &str, key: &str) -> Option<usize> {
    let tokens = json_tokens(text);
    json_field(&tokens, key)
        .and_then(|i| tokens.get(i - 2))
        .map(|t| t.1)
}

/// The lines of the strings in the top-level array field `key` of JSON text, in order (empty
/// when there is no such array).
pub(crate) fn json_array_string_lines(text: &str, key: &str) -> Vec<usize> {
    let tokens = json_tokens(text);
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
    let tokens = json_tokens(text);
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
}
