//! Frontmatter edits on any file: set a dotted key, merge a JSON object.
//!
//! What a value given as text means is `yaml_value`'s job (YAML, with the
//! target's style kept); here it is placed: a scalar or flow value where the
//! old one stood, a block collection on the lines below its key at the
//! indentation of what it replaces (two more than its key when new). A new
//! key goes after the last entry of its mapping with the mapping's
//! indentation; a missing parent mapping is created. Nothing else in the
//! file changes, and an edit whose result would not read back is refused.

use crate::doc::frontmatter::Split;
use crate::doc::yaml::{self, Node, Value};
use crate::doc::{Edit, Span};
use crate::model::document::{Document, Frontmatter};

use super::yaml_value::{self, Rendered, indent_block, is_block_collection};
use super::{EditError, check_conflicts, scalar};

/// What the text `value` means in place of `old`, in the file `doc`.
pub fn yaml_text(doc: &Document, value: &str, old: Option<&Node>) -> Rendered {
    yaml_value::interpret(value, old, doc.text())
}

/// The JSON value written as YAML (JSON is YAML flow syntax).
pub fn json_text(value: &serde_json::Value, old: Option<&Node>) -> Rendered {
    Rendered::Inline(match value {
        serde_json::Value::String(s) => scalar::render(old, s, false),
        other => other.to_string(),
    })
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
fn nested_lines(path: &[&str], value: &Rendered, indent: usize, nl: &str) -> String {
    let mut out = String::new();
    for (i, key) in path.iter().enumerate() {
        let pad = " ".repeat(indent + 2 * i);
        if i + 1 < path.len() {
            out.push_str(&format!("{pad}{key}:{nl}"));
            continue;
        }
        match value {
            Rendered::Block(b) => {
                let inner = " ".repeat(indent + 2 * i + 2);
                let lines = indent_block(b, inner.len(), nl);
                out.push_str(&format!("{pad}{key}:{nl}{inner}{lines}{nl}"));
            }
            Rendered::Inline(v) => out.push_str(&format!("{pad}{key}: {v}{nl}")),
            Rendered::Keep => out.push_str(&format!("{pad}{key}:{nl}")),
        }
    }
    out
}

/// Set `dotted` to the rendered `value` (a closure of the old node).
pub fn set(
    doc: &Document,
    dotted: &str,
    render: &dyn Fn(Option<&Node>) -> Rendered,
) -> Result<Vec<Edit>, EditError> {
    let edits = place(doc, dotted, render)?;
    check_reads_back(doc, dotted, &edits)?;
    Ok(edits)
}

/// The edits that put the rendered value at `dotted`.
fn place(
    doc: &Document,
    dotted: &str,
    render: &dyn Fn(Option<&Node>) -> Rendered,
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
    // The key of the mapping entry holding `node` (None in a list).
    let mut key: Option<&Node> = None;
    for (depth, part) in path.iter().enumerate() {
        let rest = &path[depth..];
        match &node.value {
            Value::Map(entries) => match entries.iter().find(|(k, _)| k.as_str() == Some(part)) {
                Some((k, v)) => {
                    key = Some(k);
                    node = v;
                }
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
                    Some(item) => {
                        key = None;
                        node = item;
                    }
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
    let new = render(Some(node));
    if new == Rendered::Keep {
        return Ok(Vec::new());
    }
    if node.from_alias {
        return Err(EditError::Other(format!(
            "`{dotted}` comes from a YAML alias; edit the anchor instead"
        )));
    }
    Ok(replace(doc, key, node, new))
}

/// The edit replacing `old` (the value of `key`, or a list item) with `new`.
fn replace(doc: &Document, key: Option<&Node>, old: &Node, new: Rendered) -> Vec<Edit> {
    let text = doc.text();
    let nl = nl(doc);
    let span = yaml_value::value_span(text, old);
    // Just after the colon that follows the key.
    let colon_end = key.and_then(|k| {
        let rest = &text[k.span.end..];
        let colon = k.span.end + rest.len() - rest.trim_start_matches([' ', '\t']).len();
        (text.as_bytes().get(colon) == Some(&b':')).then_some(colon + 1)
    });
    // `key:` with nothing after it: its (empty) span may be anywhere near,
    // so the value goes right after the colon.
    let empty = old
        .as_scalar()
        .is_some_and(|s| s.text.is_empty() && s.style == yaml::Style::Plain);
    if let (true, Some(at)) = (empty, colon_end) {
        let value = match new {
            Rendered::Keep => return Vec::new(),
            Rendered::Inline(v) => format!(" {}", indent_block(&v, 0, nl)),
            Rendered::Block(b) => {
                let col = key.map_or(0, |k| yaml_value::column(text, k.span.start)) + 2;
                format!("{nl}{}{}", " ".repeat(col), indent_block(&b, col, nl))
            }
        };
        return vec![Edit::new(Span::empty(at), value)];
    }
    // Right after `key:` when only blanks and line breaks lie between it
    // and the old value (not a comment, a tag or an anchor).
    let after_colon = colon_end.filter(|&at| {
        let gap = text.get(at..span.start).unwrap_or("");
        gap.trim_matches([' ', '\t', '\r', '\n']).is_empty()
    });
    let block_old = is_block_collection(text, old);
    match new {
        Rendered::Keep => Vec::new(),
        // `key:\n  - a` becoming `[]` or a word: back onto the key's line.
        Rendered::Inline(v) if block_old && after_colon.is_some() => {
            let at = after_colon.unwrap_or(span.start);
            let v = indent_block(&v, 0, nl);
            vec![Edit::new(Span::new(at, span.end), format!(" {v}"))]
        }
        // Line breaks (a `|` block, a flow list on lines) as the file has them.
        Rendered::Inline(v) => vec![Edit::new(span, indent_block(&v, 0, nl))],
        // A block replacing a block, or a list item (`- k: v` continues
        // under the item): its first line where the old one starts.
        Rendered::Block(b) if block_old || key.is_none() => {
            let col = yaml_value::column(text, span.start);
            vec![Edit::new(span, indent_block(&b, col, nl))]
        }
        // A block replacing a scalar or flow value: below the key.
        Rendered::Block(b) => {
            let k = key.map_or(span.start, |k| k.span.start);
            let col = yaml_value::column(text, k) + 2;
            let lines = format!("{nl}{}{}", " ".repeat(col), indent_block(&b, col, nl));
            match after_colon {
                Some(at) => vec![Edit::new(Span::new(at, span.end), lines)],
                None => vec![Edit::new(span, lines)],
            }
        }
    }
}

/// Refuse an edit whose frontmatter would not read back with `dotted` in
/// it: a value placed where YAML cannot hold it must not reach the file.
fn check_reads_back(doc: &Document, dotted: &str, edits: &[Edit]) -> Result<(), EditError> {
    if edits.is_empty() {
        return Ok(());
    }
    let new = super::apply(doc.text(), edits)?;
    if new == doc.text() {
        return Ok(());
    }
    let back = Document::parse(
        crate::doc::Source::from_text(doc.path(), new),
        doc.rel_path.clone(),
    );
    match &back.frontmatter {
        Frontmatter::Map(m) if m.path(dotted).is_some() => Ok(()),
        _ => Err(EditError::Other(format!(
            "{}: `{dotted}` cannot hold that value here (the frontmatter would not be valid YAML); \
             quote it, or give it as flow YAML ([a, b], {{k: v}})",
            doc.rel_path.display()
        ))),
    }
}

fn append_item(doc: &Document, seq: &Node, value: &Rendered) -> Result<Vec<Edit>, EditError> {
    let text = doc.text();
    let value_block = value;
    let value = match value {
        Rendered::Inline(v) => v.clone(),
        Rendered::Keep => String::new(),
        Rendered::Block(_) if is_block_collection(text, seq) => String::new(),
        Rendered::Block(_) => {
            return Err(EditError::Other(
                "a flow list ([a, b]) takes a flow value: give the item as [..] or {..}".into(),
            ));
        }
    };
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
    let item = match value_block {
        Rendered::Block(b) => indent_block(b, indent + 2, nl(doc)),
        _ => value,
    };
    Ok(vec![Edit::new(
        Span::empty(last_end),
        format!("{sep}{}- {item}{}", " ".repeat(indent), nl(doc)),
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Source;

    fn run(text: &str, key: &str, value: &str) -> String {
        let doc = Document::parse(
            Source::from_text("x.md", text),
            std::path::Path::new("x.md"),
        );
        let edits = set(&doc, key, &|old| yaml_text(&doc, value, old)).unwrap();
        let out = crate::doc::apply_edits(text, &edits).unwrap();
        let back = Document::parse(
            Source::from_text("x.md", out.clone()),
            std::path::Path::new("x.md"),
        );
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

    /// Every shape, given back as `fm get` shows it (without the final
    /// line break, as `$(…)` passes it): no edit at all.
    #[test]
    fn a_value_given_back_as_shown_changes_nothing() {
        let t = "---\nphase: 01-x\nplan: '01'\nwave: 1 # first\nempty:\ntilde: ~\n\
                 quoted: \"caf\\u00e9 \\\"x\\\"\"\nflow: [a, \"b c\"]\nflow_map: {k: v}\n\
                 multi_flow: [a,\n  b]\nfiles_modified:\n  - src/a.rs\n  # a comment\n\n  - src/b.rs\n\
                 compact:\n- x\n- y\nmust_haves:\n  truths:\n    - \"User can: sign up\"\n\
                 # left of the block\n  artifacts:\n    - path: src/a.rs\n      provides: |\n\
                 \x20       line one\n        line two\n  key_links: []\n\
                 literal: |\n  one\n  two\nstrip: |-\n  one\nfolded: >\n  one\n  two\n\n  three\n\
                 plain_multi: one\n  two\n---\nbody\n";
        let doc = Document::parse(Source::from_text("x.md", t), std::path::Path::new("x.md"));
        let keys: Vec<String> = doc
            .fm()
            .unwrap()
            .as_map()
            .unwrap()
            .iter()
            .map(|(k, _)| k.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(keys.len(), 16);
        let mut dotted: Vec<String> = keys.clone();
        dotted.extend(
            [
                "must_haves.truths",
                "must_haves.artifacts.0",
                "must_haves.truths.0",
            ]
            .map(String::from),
        );
        for key in &dotted {
            let node = doc.fm().unwrap().path(key).unwrap();
            let shown = yaml_value::shown(t, node);
            let given = shown.trim_end_matches('\n');
            let edits = set(&doc, key, &|old| yaml_text(&doc, given, old)).unwrap();
            assert!(edits.is_empty(), "{key}: {shown:?} gave {edits:?}");
        }
        // What is shown of a block collection is YAML on its own.
        let node = doc.fm().unwrap().get("must_haves").unwrap();
        let shown = yaml_value::shown(t, node);
        assert!(
            shown.starts_with("truths:\n  - \"User can: sign up\"\n# left"),
            "{shown}"
        );
        let back = crate::doc::yaml::parse(&shown, Span::new(0, shown.len()))
            .unwrap()
            .unwrap();
        assert_eq!(back.to_json(), node.to_json());
    }

    #[test]
    fn a_new_block_list_keeps_block_style_and_indentation() {
        let t = "---\nfiles_modified:\n  - a.rs\n  - b.rs\nwave: 1\n---\n";
        assert_eq!(
            run(t, "files_modified", "- a.rs\n- c.rs\n- d.rs\n"),
            "---\nfiles_modified:\n  - a.rs\n  - c.rs\n  - d.rs\nwave: 1\n---\n"
        );
        // Indented as a whole, or passed with CRLF: the same.
        assert_eq!(
            run(t, "files_modified", "  - a.rs\r\n  - c.rs"),
            "---\nfiles_modified:\n  - a.rs\n  - c.rs\nwave: 1\n---\n"
        );
        // One line of block syntax replacing a list is a list of one.
        assert_eq!(
            run(t, "files_modified", "- only.rs"),
            "---\nfiles_modified:\n  - only.rs\nwave: 1\n---\n"
        );
        // Flow in place of a block: back on the key's line.
        assert_eq!(
            run(t, "files_modified", "[]"),
            "---\nfiles_modified: []\nwave: 1\n---\n"
        );
        // A block in place of flow, a null or a word: below the key, two in.
        let f = "---\nfiles_modified: []\nnone:\nwave: 1\n---\n";
        assert_eq!(
            run(f, "files_modified", "- a.rs\n- b.rs"),
            "---\nfiles_modified:\n  - a.rs\n  - b.rs\nnone:\nwave: 1\n---\n"
        );
        assert_eq!(
            run(f, "none", "a: 1\nb:\n  - x"),
            "---\nfiles_modified: []\nnone:\n  a: 1\n  b:\n    - x\nwave: 1\n---\n"
        );
        assert_eq!(
            run(f, "wave", "- 1\n- 2"),
            "---\nfiles_modified: []\nnone:\nwave:\n  - 1\n  - 2\n---\n"
        );
        // A nested mapping keeps its own indentation; CRLF files get CRLF.
        let m = "---\r\nmust_haves:\r\n    truths:\r\n        - a\r\n---\r\n";
        assert_eq!(
            run(m, "must_haves", "truths:\n  - a\n  - b\nkey_links: []"),
            "---\r\nmust_haves:\r\n    truths:\r\n      - a\r\n      - b\r\n    key_links: []\r\n---\r\n"
        );
        // New keys and items take blocks too.
        assert_eq!(
            run(t, "requirements", "- R-1\n- R-2"),
            "---\nfiles_modified:\n  - a.rs\n  - b.rs\nwave: 1\nrequirements:\n  - R-1\n  - R-2\n---\n"
        );
        let l = "---\nartifacts:\n  - path: a\n---\n";
        assert_eq!(
            run(l, "artifacts.1", "path: b\nprovides: x"),
            "---\nartifacts:\n  - path: a\n  - path: b\n    provides: x\n---\n"
        );
        assert_eq!(
            run(l, "artifacts.0", "path: b\nprovides: x"),
            "---\nartifacts:\n  - path: b\n    provides: x\n---\n"
        );
    }

    #[test]
    fn text_stays_text_and_block_scalars_stay_blocks() {
        let t = "---\nnote: plain\ndesc: |\n  one\n  two\nfold: >-\n    a\n    b\n---\n";
        // Block syntax on one line, or key: value lines, replacing text: text.
        assert_eq!(
            run(t, "note", "- a"),
            t.replace("note: plain", "note: \"- a\"")
        );
        assert_eq!(
            run(t, "note", "Step 1: x\nStep 2: y"),
            t.replace("note: plain", "note: \"Step 1: x\\nStep 2: y\"")
        );
        // A list of several lines replaces any value.
        assert_eq!(
            run(t, "note", "- a\n- b"),
            t.replace("note: plain", "note:\n  - a\n  - b")
        );
        assert_eq!(
            run(t, "desc", "one\nthree\n\nfour"),
            t.replace("  one\n  two\n", "  one\n  three\n\n  four\n")
        );
        assert_eq!(
            run(t, "fold", "x\ny"),
            t.replace(">-\n    a\n    b", "|-\n    x\n    y")
        );
        assert_eq!(
            run(t, "desc", "short"),
            t.replace("  one\n  two\n", "  short\n")
        );
        assert_eq!(
            run(t, "fold", "one line"),
            t.replace("    a\n    b", "    one line")
        );
    }

    /// An empty `key:` takes its value after the colon (its span lies
    /// elsewhere: the value once landed inside the key, `none5:`).
    #[test]
    fn an_empty_value_is_set_after_its_colon() {
        let t = "---\nnone:\nwave: 1\nlast: # later\n---\n";
        assert_eq!(run(t, "none", "5"), t.replace("none:\n", "none: 5\n"));
        assert_eq!(
            run(t, "last", "x"),
            t.replace("last: # later", "last: x # later")
        );
    }

    #[test]
    fn a_value_yaml_cannot_hold_there_is_refused() {
        let t = "---\nlist: [a, b]\n---\n";
        let doc = Document::parse(Source::from_text("x.md", t), std::path::Path::new("x.md"));
        let e = set(&doc, "list.2", &|old| yaml_text(&doc, "k: v\nj: w", old)).unwrap_err();
        assert!(e.to_string().contains("flow"), "{e}");
    }
}
