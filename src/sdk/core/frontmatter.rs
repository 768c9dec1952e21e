//! Frontmatter as GSD Core 1.14.0 reads it (`extractFrontmatter`), and the
//! `frontmatter get` command built on it.
//!
//! 1.14.0 parses the block between the byte-0 `---` fence and the first
//! `\n---` with js-yaml's failsafe schema — every scalar a string, an empty
//! value `{}` (`''` inside a list), an object or list inside a list flattened
//! to one display string (`path: a.ts, provides: X`) — and reads `{}` from a
//! document whose block is unterminated or is not YAML (after one repair:
//! a column-0 `key: value` whose value holds `: ` is quoted). gsd reads the
//! block with saphyr-parser's events into the same values. What the two
//! parsers could read differently is handed on rather than guessed: anchors,
//! aliases and tags, a key that is not a plain scalar, NUL or U+E000 in the
//! block, a document that is not UTF-8.

use serde_json::{Map, Value, json};

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};

/// Why a document is handed on rather than read.
#[derive(Debug, Clone, PartialEq)]
pub struct Unread(pub &'static str);

/// The frontmatter of `content` as 1.14.0's `extractFrontmatter` returns it.
pub fn extract(content: &str) -> Result<Map<String, Value>, Unread> {
    let content = content.strip_prefix('\u{feff}').unwrap_or(content);
    let header = if content.starts_with("---\r\n") {
        5
    } else if content.starts_with("---\n") {
        4
    } else {
        return Ok(Map::new());
    };
    let Some(close) = content[header..].find("\n---").map(|i| i + header) else {
        return Ok(Map::new());
    };
    let end = if close > 0 && content.as_bytes()[close - 1] == b'\r' {
        close - 1
    } else {
        close
    };
    let region = &content[header..end.max(header)];
    if region.contains('\0') || region.contains('\u{e000}') {
        return Err(Unread("the frontmatter holds NUL or U+E000"));
    }
    // js-yaml reads some text saphyr refuses (a quoted scalar continued at
    // column 0), and the reverse is not known to happen: where saphyr fails
    // even after the repair, 1.14.0's answer is not guessed.
    let parsed = match load(region)? {
        Some(v) => v,
        None => {
            let repaired = repair_ambiguous_colons(region);
            match (repaired != region)
                .then(|| load(&repaired))
                .transpose()?
                .flatten()
            {
                Some(v) => v,
                None => return Err(Unread("the frontmatter is YAML gsd's parser does not read")),
            }
        }
    };
    Ok(match normalize(parsed, false) {
        Value::Object(m) => m,
        _ => Map::new(),
    })
}

/// One YAML document read with the failsafe schema: `Ok(None)` where
/// js-yaml throws (the text is not YAML), `Err` where gsd cannot tell.
fn load(yaml: &str) -> Result<Option<Value>, Unread> {
    enum Frame {
        Seq(Vec<Value>),
        Map(Vec<(String, Value)>, Option<String>),
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Value> = None;
    let mut docs = 0;
    for item in Parser::new_from_str(yaml) {
        let Ok((event, _)) = item else {
            return Ok(None);
        };
        let value = match event {
            Event::DocumentStart(_) => {
                docs += 1;
                if docs > 1 {
                    return Err(Unread("the frontmatter holds a second YAML document"));
                }
                continue;
            }
            Event::Alias(_) => return Err(Unread("the frontmatter holds a YAML alias")),
            Event::Scalar(text, style, anchor, tag) => {
                if anchor != 0 {
                    return Err(Unread("the frontmatter holds a YAML anchor"));
                }
                if tag.is_some() {
                    return Err(Unread("the frontmatter holds a YAML tag"));
                }
                if style == ScalarStyle::Plain && text.is_empty() {
                    Value::Null
                } else {
                    Value::String(text.into_owned())
                }
            }
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                if anchor != 0 || tag.is_some() {
                    return Err(Unread("the frontmatter holds a YAML anchor or tag"));
                }
                if let Some(Frame::Map(_, None)) = stack.last() {
                    return Err(Unread(
                        "the frontmatter holds a key that is not a plain scalar",
                    ));
                }
                stack.push(if matches!(event, Event::SequenceStart(..)) {
                    Frame::Seq(Vec::new())
                } else {
                    Frame::Map(Vec::new(), None)
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Frame::Seq(items)) => Value::Array(items),
                Some(Frame::Map(entries, _)) => Value::Object(js_object(entries)),
                None => return Ok(None),
            },
            _ => continue,
        };
        match stack.last_mut() {
            None => root = Some(value),
            Some(Frame::Seq(items)) => items.push(value),
            Some(Frame::Map(entries, key)) => match key.take() {
                None => match value {
                    Value::String(k) => *key = Some(k),
                    // js-yaml's key for an empty scalar is "null".
                    Value::Null => *key = Some("null".into()),
                    _ => {
                        return Err(Unread(
                            "the frontmatter holds a key that is not a plain scalar",
                        ));
                    }
                },
                Some(k) => entries.push((k, value)),
            },
        }
    }
    Ok(Some(root.unwrap_or(Value::Null)))
}

/// The key order of a JavaScript object built from `entries`: a repeated
/// key keeps its first place and its last value; keys that are array
/// indices come first, in numeric order.
fn js_object(entries: Vec<(String, Value)>) -> Map<String, Value> {
    let mut m = Map::new();
    for (k, v) in entries {
        m.insert(k, v);
    }
    let index = |k: &str| {
        (k == "0"
            || (!k.starts_with('0') && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit())))
        .then(|| k.parse::<u64>().ok().filter(|n| *n < u32::MAX as u64))
        .flatten()
    };
    if !m.keys().any(|k| index(k).is_some()) {
        return m;
    }
    let mut indexed: Vec<(u64, String, Value)> = Vec::new();
    let mut rest = Map::new();
    for (k, v) in m {
        match index(&k) {
            Some(n) => indexed.push((n, k, v)),
            None => {
                rest.insert(k, v);
            }
        }
    }
    indexed.sort_by_key(|(n, _, _)| *n);
    let mut out: Map<String, Value> = indexed.into_iter().map(|(_, k, v)| (k, v)).collect();
    out.extend(rest);
    out
}

/// `normalizeParsedValue`: an empty value is `{}` (`''` in a list); an
/// object or a list inside a list is flattened to its display string.
fn normalize(v: Value, in_array: bool) -> Value {
    match v {
        Value::Null if in_array => Value::String(String::new()),
        Value::Null => Value::Object(Map::new()),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| match item {
                    Value::Object(_) | Value::Array(_) => Value::String(display(&item)),
                    other => normalize(other, true),
                })
                .collect(),
        ),
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| (k, normalize(v, false)))
                .collect(),
        ),
        other => other,
    }
}

/// `flattenScalarForDisplay` / `flattenObjectListItem`.
fn display(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(display).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k}: {}", display(v)))
            .collect::<Vec<_>>()
            .join(", "),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `repairAmbiguousColonValues`: a column-0 `key: value` line whose value
/// holds an unquoted `: ` (or ends in `:`) has its value double-quoted.
fn repair_ambiguous_colons(yaml: &str) -> String {
    yaml.split('\n')
        .map(|line| {
            let body = line.strip_suffix('\r').unwrap_or(line);
            let Some((key, value)) = body.split_once(':') else {
                return line.to_string();
            };
            let key_ok = key
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            let Some(value) = value.strip_prefix([' ', '\t']) else {
                return line.to_string();
            };
            if !key_ok || value.is_empty() || value.starts_with(['"', '\'', '[', '{']) {
                return line.to_string();
            }
            let b = value.as_bytes();
            let ambiguous = b
                .iter()
                .enumerate()
                .any(|(i, c)| *c == b':' && matches!(b.get(i + 1), None | Some(b' ' | b'\t')));
            if !ambiguous {
                return line.to_string();
            }
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            format!("{key}: \"{escaped}\"")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Names every JavaScript object answers for, whatever it holds:
/// `fm[field]` finds them where the frontmatter does not.
pub(super) use super::js::INHERITED;

/// `frontmatter get FILE [--field F]`.
pub fn get(call: &CoreCall) -> Result<Out, Refusal> {
    let usage = |m: String| Refusal::Fail(Failure::new("usage", m));
    let file = call.args.first();
    if file.is_some_and(|f| f.starts_with("--")) {
        return Err(hand_on(" for a file named like a flag"));
    }
    let rest = call.args.get(1..).unwrap_or(&[]);
    let field = super::native::flag_value(call.args, "--field").filter(|v| !v.starts_with("--"));
    let mut i = 0;
    while i < rest.len() {
        let tok = &rest[i];
        if tok == "--field" {
            i += if rest.get(i + 1).is_some_and(|n| !n.starts_with("--")) {
                2
            } else {
                1
            };
        } else if tok.starts_with("--") {
            return Err(usage(format!(
                "unknown flag {}; accepted: --field <value>",
                Value::String(tok.clone())
            )));
        } else {
            return Err(usage(format!(
                "unexpected positional argument {}",
                Value::String(tok.clone())
            )));
        }
    }
    let Some(file) = file.filter(|f| !f.is_empty()) else {
        return Err(Refusal::Fail(Failure::new("unknown", "file path required")));
    };
    if field.is_some_and(|f| INHERITED.contains(&f)) {
        return Err(hand_on(" for a field every JavaScript object has"));
    }
    let path = call.project.join(file);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(_) => return Err(hand_on(" for a file gsd cannot read")),
    };
    if bytes.is_empty() {
        return Ok(Out::json(&json!({"error": "File not found", "path": file})));
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return Err(hand_on(" for a file that is not UTF-8"));
    };
    let fm = extract(&text).map_err(|u| hand_on(u.0))?;
    match field {
        None => Ok(Out::json(&Value::Object(fm))),
        Some(f) => match fm.get(f) {
            None => Ok(Out::json(&json!({"error": "Field not found", "field": f}))),
            Some(v) => {
                let mut one = Map::new();
                one.insert(f.to_string(), v.clone());
                Ok(Out::with_raw(&Value::Object(one), v.to_string()))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fm(text: &str) -> Value {
        Value::Object(extract(text).unwrap())
    }

    #[test]
    fn scalars_are_strings_and_empty_values_are_objects() {
        assert_eq!(
            fm("---\nwave: 1\nok: true\nnone:\nlist: [a, '', ~]\n---\nbody"),
            json!({"wave": "1", "ok": "true", "none": {}, "list": ["a", "", "~"]})
        );
        assert_eq!(fm("---\r\nphase: 01\r\n---\r\n"), json!({"phase": "01"}));
        assert_eq!(fm("\u{feff}---\na: b\n---\n"), json!({"a": "b"}));
    }

    #[test]
    fn objects_in_lists_are_display_strings() {
        let text = "---\nartifacts:\n  - path: a.ts\n    exports: [get, set]\n    deep: {x: 1}\n  - [p, q]\n---\n";
        assert_eq!(
            fm(text),
            json!({"artifacts": ["path: a.ts, exports: [get, set], deep: x: 1", "[p, q]"]})
        );
    }

    #[test]
    fn what_is_not_frontmatter_reads_empty() {
        assert_eq!(fm("no fence\n"), json!({}));
        assert_eq!(fm("---\na: b\nno close\n"), json!({}));
        assert_eq!(fm("---\n- a\n---\n"), json!({}));
    }

    #[test]
    fn an_ambiguous_colon_is_repaired_once() {
        assert_eq!(
            fm("---\ntitle: Fix: the thing\nb: c\n---\n"),
            json!({"title": "Fix: the thing", "b": "c"})
        );
        assert_eq!(repair_ambiguous_colons("  a: b: c"), "  a: b: c");
        assert_eq!(repair_ambiguous_colons("a: \"b: c\""), "a: \"b: c\"");
    }

    #[test]
    fn keys_keep_javascripts_order() {
        let m = extract("---\nb: 1\n10: x\na: 2\n2: y\nb: 3\n---\n").unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["2", "10", "b", "a"]);
        assert_eq!(m["b"], json!("3"));
    }

    #[test]
    fn anchors_tags_and_unread_yaml_are_not_guessed() {
        assert!(extract("---\na: `x`\n---\n").is_err());
        assert!(extract("---\na: &x 1\nb: *x\n---\n").is_err());
        assert!(extract("---\na: !!int 1\n---\n").is_err());
    }
}
