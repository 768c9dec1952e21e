//! One frontmatter value as text people pass around: what `fm get` prints,
//! and what the text given to `fm set` means at the place it goes.
//!
//! The law the two keep: `fm set F K "$(fm get F K)"` changes no byte, for
//! every shape of value. `shown` prints a scalar's decoded text and a
//! collection as YAML that parses on its own (a block collection with its
//! indentation taken off, comments and all); `interpret` leaves a value
//! alone when it is given back exactly as shown — line breaks at the end
//! aside, since `$(…)` drops them.
//!
//! Anything else is read as YAML. Flow values (`[a, b]`, `{k: v}`) and
//! one-line scalars are written as given (a plain word keeps the target's
//! quoting). Block syntax (`- a` lines, `k: v` lines) is a collection where
//! one belongs: replacing a list or mapping, a null or a new key — and a
//! list of several lines replaces any value; elsewhere (`note: "a: b"`) it
//! is text, as is anything that is not one YAML value. Text replacing a
//! block scalar (`|`, `>`) stays a block scalar with the same header and
//! indentation.

use crate::doc::Span;
use crate::doc::yaml::{self, Node, Style, Value};

use super::scalar;

/// What to write for a new value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rendered {
    /// The value is already there: write nothing.
    Keep,
    /// Text that goes where the old value stands (after `key: `).
    Inline(String),
    /// A block collection, lines separated by `\n`, with no indentation:
    /// the edit indents it to its place.
    Block(String),
}

/// Whether `node` is a collection written in flow style (`[…]`, `{…}`).
pub fn is_flow(text: &str, node: &Node) -> bool {
    matches!(text.as_bytes().get(node.span.start), Some(b'[' | b'{'))
}

/// Whether `node` is a block list or mapping (on lines of its own).
pub fn is_block_collection(text: &str, node: &Node) -> bool {
    !matches!(node.value, Value::Scalar(_)) && !is_flow(text, node)
}

/// Column of `offset` on its line, in bytes.
pub fn column(text: &str, offset: usize) -> usize {
    offset - text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// The value as `fm get` prints it: a scalar's decoded text; a flow
/// collection as written; a block collection as written, with every line
/// after the first moved left by the collection's column so the text is
/// YAML on its own.
pub fn shown(text: &str, node: &Node) -> String {
    match &node.value {
        Value::Scalar(s) => s.text.to_string(),
        _ if is_flow(text, node) => node.span.slice(text).to_owned(),
        _ => {
            let col = column(text, node.span.start);
            let mut out = String::with_capacity(node.span.len());
            for (i, line) in node.span.slice(text).split_inclusive('\n').enumerate() {
                // A comment line may sit left of the block: take off what is there.
                let strip = if i == 0 {
                    0
                } else {
                    line.bytes().take(col).take_while(|&b| b == b' ').count()
                };
                out.push_str(&line[strip..]);
            }
            out
        }
    }
}

/// Whether `value` is what `fm get` shows for `old` (line breaks at the end
/// do not count: a shell's `$(…)` removes them).
fn given_back(value: &str, text: &str, old: &Node) -> bool {
    let end = |s: &str| s.trim_end_matches(['\n', '\r']).to_owned();
    end(value) == end(&shown(text, old))
}

/// What `value` means in place of `old` (None: a new key or item).
/// `text` is the file `old` was read from.
pub fn interpret(value: &str, old: Option<&Node>, text: &str) -> Rendered {
    match old {
        Some(o) if given_back(value, text, o) => Rendered::Keep,
        _ => read(value, old, text),
    }
}

/// `value` read as YAML for the place of `old`, written in its style —
/// without `interpret`'s check for a value given back unchanged (which
/// `read` of that value writes in the same style, meaning the same).
pub fn read(value: &str, old: Option<&Node>, text: &str) -> Rendered {
    let v = value.trim();
    let lines = v.contains(['\n', '\r']);
    // Text replacing a `|`/`>` block stays a block.
    let block = old.filter(|o| is_block_scalar(o));
    let as_text = || match block.and_then(|o| block_scalar(text, o, v)) {
        Some(b) => Rendered::Inline(b),
        None => Rendered::Inline(scalar::render(old, value, false)),
    };
    if v.is_empty() {
        return as_text();
    }
    let Ok(Some(node)) = yaml::parse(v, Span::new(0, v.len())) else {
        return as_text();
    };
    let is_seq = matches!(node.value, Value::Seq(_));
    match &node.value {
        Value::Scalar(_) if lines || block.is_some() => as_text(),
        // A plain word keeps the target's quoting style.
        Value::Scalar(s) if s.style == Style::Plain => {
            let typed = !matches!(s.typed(), yaml::Typed::Str(_));
            Rendered::Inline(scalar::render(old, v, typed))
        }
        Value::Scalar(_) => Rendered::Inline(v.to_owned()),
        // Flow in place of a block collection is written as a block (what
        // `state get` shows, JSON, set back into STATE.md's `progress:`).
        _ if is_flow(v, &node) => match old {
            Some(o) if is_block_collection(text, o) && !lines && !is_empty_collection(&node) => {
                Rendered::Block(to_block(&node, Some(o)))
            }
            _ => Rendered::Inline(v.to_owned()),
        },
        _ => {
            let wanted = match old {
                Some(o) if !matches!(o.value, Value::Scalar(_)) => true,
                Some(o) => lines && (o.is_null() || is_seq),
                None => lines,
            };
            if wanted {
                Rendered::Block(dedent(value))
            } else {
                as_text()
            }
        }
    }
}

fn is_empty_collection(node: &Node) -> bool {
    match &node.value {
        Value::Seq(items) => items.is_empty(),
        Value::Map(entries) => entries.is_empty(),
        Value::Scalar(_) => false,
    }
}

/// A parsed (flow) value written as a block collection, `\n` apart and
/// unindented. Scalars are written as `scalar::render` writes them, in the
/// quoting of the value at the same place in `old` when there is one, so
/// an unchanged entry keeps its line.
fn to_block(node: &Node, old: Option<&Node>) -> String {
    let scalar_text = |s: &yaml::Scalar, old: Option<&Node>| -> String {
        let typed = s.style == Style::Plain && !matches!(s.typed(), yaml::Typed::Str(_));
        scalar::render(old, &s.text, typed)
    };
    // A child's text after `key:` or `-`: inline, or lines below.
    let child = |n: &Node, old: Option<&Node>, dash: bool| -> String {
        match &n.value {
            Value::Scalar(s) => format!(" {}", scalar_text(s, old)),
            Value::Seq(items) if items.is_empty() => " []".to_owned(),
            Value::Map(entries) if entries.is_empty() => " {}".to_owned(),
            // `- k: v` goes on with the item's keys under its first one.
            _ if dash => format!(" {}", indent_block(&to_block(n, old), 2, "\n")),
            _ => format!("\n  {}", indent_block(&to_block(n, old), 2, "\n")),
        }
    };
    let mut lines = Vec::new();
    match &node.value {
        Value::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                let old_item = old.and_then(Node::as_seq).and_then(|s| s.get(i));
                lines.push(format!("-{}", child(item, old_item, true)));
            }
        }
        Value::Map(entries) => {
            for (k, v) in entries {
                let key = k.as_str().unwrap_or_default();
                let (old_k, old_v) = old.and_then(|o| o.entry(key)).unzip();
                let key_text = match k.as_scalar() {
                    Some(s) => scalar_text(s, old_k),
                    None => scalar::render(None, key, false),
                };
                lines.push(format!("{key_text}:{}", child(v, old_v, false)));
            }
        }
        Value::Scalar(s) => lines.push(scalar_text(s, old)),
    }
    lines.join("\n")
}

fn is_block_scalar(node: &Node) -> bool {
    node.as_scalar()
        .is_some_and(|s| matches!(s.style, Style::Literal | Style::Folded))
}

/// `value` (a block collection as given) moved left by its first line's
/// indentation, lines `\n` apart: `  - a\n  - b` is `- a\n- b`.
fn dedent(value: &str) -> String {
    let mut lines = value
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .skip_while(|l| l.trim().is_empty());
    let Some(first) = lines.next() else {
        return String::new();
    };
    let k = first.len() - first.trim_start_matches(' ').len();
    let mut out = String::with_capacity(value.len());
    out.push_str(&first[k..]);
    for l in lines {
        out.push('\n');
        let strip = l.bytes().take(k).take_while(|&b| b == b' ').count();
        out.push_str(&l[strip..]);
    }
    out.trim_end().to_owned()
}

/// The indicator of a block scalar (`|`, `>-`, `|2`…) on the line before
/// its content, where the node's span starts.
fn block_header(text: &str, node: &Node) -> Option<Span> {
    let line_end = text[..node.span.start].rfind('\n')?;
    let line_start = text[..line_end].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..line_end];
    let line = line.strip_suffix('\r').unwrap_or(line);
    // The last word before a comment.
    let code = line.find(" #").map_or(line, |i| &line[..i]).trim_end();
    let word = code.rfind([' ', '\t']).map_or(0, |i| i + 1);
    code[word..]
        .starts_with(['|', '>'])
        .then(|| Span::new(line_start + word, line_start + code.len()))
}

/// The text an edit of `node` replaces: its span without the line breaks
/// a block scalar ends in (a collection ending in one has them too), and a
/// block scalar's from its `|`/`>` on.
pub fn value_span(text: &str, node: &Node) -> Span {
    let kept = node.span.slice(text).trim_end_matches(['\n', '\r']).len();
    let start = match block_header(text, node) {
        Some(header) if is_block_scalar(node) => header.start,
        _ => node.span.start,
    };
    Span::new(start, node.span.start + kept)
}

/// `value` as a block scalar in the style of `old`: the same header (`|`,
/// `|-`, `>+`… — folded becomes literal when `value` has several lines, so
/// they stay lines) and the indentation of its content. The line breaks between the
/// lines are `\n`; the edit turns them into the file's.
fn block_scalar(text: &str, old: &Node, value: &str) -> Option<String> {
    let header = block_header(text, old)?.slice(text);
    let header = if value.contains('\n') {
        header.replacen('>', "|", 1)
    } else {
        header.to_owned()
    };
    let indent = column(text, old.span.start);
    let mut out = header;
    for line in value.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        out.push('\n');
        if !line.is_empty() {
            out.push_str(&" ".repeat(indent));
            out.push_str(line);
        }
    }
    Some(out)
}

/// `block` placed at column `indent`: its first line where the value
/// starts, each later line indented, blank lines left empty.
pub fn indent_block(block: &str, indent: usize, nl: &str) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::with_capacity(block.len() + indent * 4);
    for (i, line) in block.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if i > 0 {
            out.push_str(nl);
            if !line.is_empty() {
                out.push_str(&pad);
            }
        }
        out.push_str(line);
    }
    out
}
