//! Frontmatter edits on any file: set a dotted key, merge a JSON object.
//!
//! Values are YAML: `wave 2` writes an integer, `autonomous false` a
//! boolean, `depends_on '["01-01"]'` a flow list — the text is written as
//! given when it is one valid YAML value on one line, and as a quoted string
//! otherwise. A scalar keeps its quoting style; a new key goes after the last
//! entry of its mapping with the mapping's indentation; a missing parent
//! mapping is created. Nothing else in the file changes.

use crate::doc::frontmatter::Split;
use crate::doc::yaml::{self, Node, Value};
use crate::doc::{Edit, Span};
use crate::model::document::{Document, Frontmatter};

use super::{EditError, check_conflicts, scalar};

/// How `value` is written: verbatim when it is one YAML value on one line.
pub fn yaml_text(value: &str, old: Option<&Node>) -> String {
    let v = value.trim();
    if v.is_empty() || v.contains(['\n', '\r']) {
        return scalar::render(old, value, false);
    }
    match yaml::parse(v, Span::new(0, v.len())) {
        Ok(Some(node)) => match &node.value {
            // A plain word keeps the target's quoting style.
            Value::Scalar(s) if s.style == yaml::Style::Plain => {
                let typed = !matches!(s.typed(), yaml::Typed::Str(_));
                scalar::render(old, v, typed)
            }
            Value::Scalar(_) => v.to_owned(),
            Value::Seq(_) | Value::Map(_) if v.starts_with(['[', '{']) => v.to_owned(),
            _ => scalar::render(old, value, false),
        },
        _ => scalar::render(old, value, false),
    }
}

/// The JSON value written as YAML (JSON is YAML flow syntax).
pub fn json_text(value: &serde_json::Value, old: Option<&Node>) -> String {
    match value {
        serde_json::Value::String(s) => scalar::render(old, s, false),
        other => other.to_string(),
    }
}

fn nl(doc: &Document) -> &'static str {
    doc.source.eol()
}

/// Start of the line containing `offset`, and its indentation width.
fn line_bounds(text: &str, offset: usize) -> (usize, usize) {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..]
        .find('\n')
        .map_or(text.len(), |i| offset + i + 1);
    (start, end)
}

/// Lines for `path` (remaining keys) holding `value`, at `indent`.
fn nested_lines(path: &[&str], value: &str, indent: usize, nl: &str) -> String {
    let mut out = String::new();
    for (i, key) in path.iter().enumerate() {
        let pad = " ".repeat(indent + 2 * i);
        if i + 1 == path.len() {
            out.push_str(&format!("{pad}{key}: {value}{nl}"));
        } else {
            out.push_str(&format!("{pad}{key}:{nl}"));
        }
    }
    out
}

/// Set `dotted` to the rendered `value` (a closure of the old node).
pub fn set(
    doc: &Document,
    dotted: &str,
    render: &dyn Fn(Option<&Node>) -> String,
) -> Result<Vec<Edit>, EditError> {
    let file = doc.rel_path.display().to_string();
    let text = doc.text();
    if doc.source.text().is_none() {
        return Err(EditError::NotText { file });
    }
    check_conflicts(&file, text)?;
    let path: Vec<&str> = dotted.split('.').collect();
    if path.iter().any(|p| p.is_empty()) {
        return Err(EditError::Other(format!(
            "`{dotted}` is not a key path (use a.b.0.c)"
        )));
    }
    let root = match &doc.frontmatter {
        Frontmatter::Map(n) => n,
        Frontmatter::Absent => {
            // No block yet: create one at the top (after a BOM).
            let at = doc.source.content_start();
            let body = nested_lines(&path, &render(None), 0, nl(doc));
            return Ok(vec![Edit::new(
                Span::empty(at),
                format!("---{n}{body}---{n}", n = nl(doc)),
            )]);
        }
        Frontmatter::NotMapping(None) => {
            let Split::Found { frontmatter, .. } = doc.split else {
                unreachable!("an empty block was found")
            };
            let body = nested_lines(&path, &render(None), 0, nl(doc));
            return Ok(vec![Edit::new(Span::empty(frontmatter.yaml.start), body)]);
        }
        Frontmatter::Invalid(e) => {
            return Err(EditError::Other(format!(
                "{file}: frontmatter is not valid YAML ({}); fix it first",
                e.message
            )));
        }
        Frontmatter::Unterminated { .. } => {
            return Err(EditError::Other(format!(
                "{file}: frontmatter is never closed"
            )));
        }
        Frontmatter::NotMapping(Some(_)) => {
            return Err(EditError::Other(format!(
                "{file}: frontmatter is not a mapping"
            )));
        }
    };
    let mut node = root;
    for (depth, part) in path.iter().enumerate() {
        let rest = &path[depth..];
        match &node.value {
            Value::Map(entries) => match entries.iter().find(|(k, _)| k.as_str() == Some(part)) {
                Some((_, v)) => node = v,
                None => {
                    if text.as_bytes().get(node.span.start) == Some(&b'{') {
                        return Err(EditError::Other(format!(
                            "`{}` is a flow mapping; write the whole value instead",
                            path[..depth].join(".")
                        )));
                    }
                    // A new entry after the mapping's last line, at its indentation.
                    let (first_line, _) = line_bounds(text, node.span.start);
                    let indent = node.span.start - first_line;
                    let (_, last_end) =
                        line_bounds(text, node.span.end.saturating_sub(1).max(node.span.start));
                    let sep = if text[..last_end].ends_with('\n') {
                        ""
                    } else {
                        nl(doc)
                    };
                    let lines = nested_lines(rest, &render(None), indent, nl(doc));
                    return Ok(vec![Edit::new(
                        Span::empty(last_end),
                        format!("{sep}{lines}"),
                    )]);
                }
            },
            Value::Seq(items) => {
                let Ok(i) = part.parse::<usize>() else {
                    return Err(EditError::Other(format!(
                        "`{}` is a list; `{part}` is not an index",
                        path[..depth].join(".")
                    )));
                };
                match items.get(i) {
                    Some(item) => node = item,
                    None if i == items.len() && rest.len() == 1 => {
                        return append_item(doc, node, &render(None));
                    }
                    None => {
                        return Err(EditError::Other(format!(
                            "`{}` has {} items; index {i} is out of range",
                            path[..depth].join("."),
                            items.len()
                        )));
                    }
                }
            }
            Value::Scalar(_) => {
                return Err(EditError::Other(format!(
                    "`{}` is a single value, not a mapping",
                    path[..depth].join(".")
                )));
            }
        }
    }
    if node.from_alias {
        return Err(EditError::Other(format!(
            "`{dotted}` comes from a YAML alias; edit the anchor instead"
        )));
    }
    Ok(vec![Edit::new(node.span, render(Some(node)))])
}

fn append_item(doc: &Document, seq: &Node, value: &str) -> Result<Vec<Edit>, EditError> {
    let text = doc.text();
    if text.as_bytes().get(seq.span.start) == Some(&b'[') {
        let close = seq.span.end - 1;
        let empty = seq.as_seq().is_some_and(<[Node]>::is_empty);
        let insert = if empty {
            value.to_owned()
        } else {
            format!(", {value}")
        };
        let at = seq
            .as_seq()
            .and_then(|s| s.last())
            .map_or(close, |n| n.span.end);
        return Ok(vec![Edit::new(Span::empty(at), insert)]);
    }
    let (first_line, _) = line_bounds(text, seq.span.start);
    let indent = seq.span.start - first_line;
    let (_, last_end) = line_bounds(text, seq.span.end.saturating_sub(1).max(seq.span.start));
    let sep = if text[..last_end].ends_with('\n') {
        ""
    } else {
        nl(doc)
    };
    Ok(vec![Edit::new(
        Span::empty(last_end),
        format!("{sep}{}- {value}{}", " ".repeat(indent), nl(doc)),
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Source;

    fn run(text: &str, key: &str, value: &str) -> String {
        let doc = Document::parse(Source::from_text("x.md", text), "x.md".into());
        let edits = set(&doc, key, &|old| yaml_text(value, old)).unwrap();
        let out = crate::doc::apply_edits(text, &edits).unwrap();
        let back = Document::parse(Source::from_text("x.md", out.clone()), "x.md".into());
        assert!(back.fm().is_some(), "result parses:\n{out}");
        out
    }

    #[test]
    fn sets_existing_nested_and_new_keys() {
        let t = "---\nwave: 1 # first\nname: 'x'\nmust_haves:\n  truths:\n    - a\n  artifacts: []\n---\nbody\n";
        assert_eq!(run(t, "wave", "2"), t.replace("wave: 1 #", "wave: 2 #"));
        assert_eq!(run(t, "name", "y z"), t.replace("name: 'x'", "name: 'y z'"));
        assert_eq!(
            run(t, "must_haves.truths.0", "b"),
            t.replace("    - a\n", "    - b\n")
        );
        assert_eq!(
            run(t, "must_haves.truths.1", "c"),
            t.replace("    - a\n", "    - a\n    - c\n")
        );
        assert_eq!(
            run(t, "must_haves.artifacts.0", "src/a.rs"),
            t.replace("artifacts: []", "artifacts: [src/a.rs]")
        );
        assert_eq!(
            run(t, "gap_closure", "true"),
            t.replace("---\nbody", "gap_closure: true\n---\nbody")
        );
        assert_eq!(
            run(t, "must_haves.key_links", "[]"),
            t.replace("  artifacts: []\n", "  artifacts: []\n  key_links: []\n")
        );
        assert_eq!(
            run(t, "user_setup.service", "stripe"),
            t.replace("---\nbody", "user_setup:\n  service: stripe\n---\nbody")
        );
        assert_eq!(
            run(t, "name", "a: b"),
            t.replace("name: 'x'", "name: 'a: b'")
        );
    }

    #[test]
    fn crlf_and_no_frontmatter() {
        let t = "---\r\nwave: 1\r\n---\r\nbody\r\n";
        assert_eq!(
            run(t, "plan", "\"01\""),
            "---\r\nwave: 1\r\nplan: \"01\"\r\n---\r\nbody\r\n"
        );
        assert_eq!(
            run("# Title\n", "phase", "03-x"),
            "---\nphase: 03-x\n---\n# Title\n"
        );
    }
}
