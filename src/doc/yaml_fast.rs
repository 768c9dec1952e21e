//! A fast path for the YAML that frontmatter almost always is: block
//! mappings and sequences of plain, single- or double-quoted scalars and
//! one-line flow lists, with comments.
//!
//! Why it exists: saphyr-parser is the reader of record, but on a 420-file
//! tree it was a third of `gsd lint`'s CPU (measured with perf); this path
//! reads the common shape several times faster. It is deliberately narrow:
//! anything else — anchors, aliases, tags, block scalars, flow maps, escapes,
//! empty values, multi-line scalars, tabs, odd indentation — returns `None`
//! and the caller uses saphyr. The result is the same tree, spans included:
//! `tests/yaml_fast.rs` compares both on every frontmatter of the corpus and
//! on generated documents.

use super::span::Span;
use super::yaml::{Node, Scalar, Style, Value};

/// One line of the YAML text.
#[derive(Clone, Copy)]
struct Line<'a> {
    /// Absolute offset of the line start.
    start: usize,
    indent: usize,
    /// The line after its indentation, without the line break.
    rest: &'a str,
}

struct Reader<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
    /// Mappings and sequences open: past `yaml::MAX_DEPTH` the full parser
    /// takes the text and reports it (this reader recurses per level, and a
    /// thread's stack is not the place to find the limit).
    depth: usize,
}

/// Parse `span` of `file_text` if it is in the simple subset.
pub fn parse(file_text: &str, span: Span) -> Option<Node> {
    let text = span.slice(file_text);
    let mut lines = Vec::with_capacity(32);
    let mut offset = span.start;
    for raw in text.split_inclusive('\n') {
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.contains('\t') || line.contains('\r') {
            return None;
        }
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        if !(trimmed.is_empty() || trimmed.starts_with('#')) {
            lines.push(Line {
                start: offset + indent,
                indent,
                rest: trimmed.trim_end_matches(' '),
            });
        }
        offset += raw.len();
    }
    if lines.is_empty() || lines[0].indent != 0 {
        return None;
    }
    let mut r = Reader {
        lines,
        pos: 0,
        depth: 0,
    };
    let node = r.mapping(0)?;
    (r.pos == r.lines.len()).then_some(node)
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<Line<'a>> {
        self.lines.get(self.pos).copied()
    }

    /// A block mapping whose keys sit at `indent`.
    /// How many of the next lines sit at exactly `indent` before the block
    /// ends: the vectors are sized once instead of grown (a short run pays
    /// for every fresh page, and growth copies).
    fn siblings(&self, indent: usize) -> usize {
        self.lines[self.pos..]
            .iter()
            .take_while(|l| l.indent >= indent)
            .filter(|l| l.indent == indent)
            .count()
    }

    /// `read` one level deeper: past `yaml::MAX_DEPTH` nothing (the full
    /// parser takes the text and reports the nesting).
    fn deeper(&mut self, read: impl FnOnce(&mut Self) -> Option<Node>) -> Option<Node> {
        if self.depth >= super::yaml::MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let node = read(self);
        self.depth -= 1;
        node
    }

    fn mapping(&mut self, indent: usize) -> Option<Node> {
        self.deeper(|r| r.mapping_in(indent))
    }

    fn mapping_in(&mut self, indent: usize) -> Option<Node> {
        let mut entries = Vec::with_capacity(self.siblings(indent));
        while let Some(line) = self.peek() {
            if line.indent < indent {
                break;
            }
            if line.indent > indent || line.rest.starts_with("- ") || line.rest == "-" {
                return None;
            }
            self.pos += 1;
            entries.push(self.entry(line.start, line.rest, indent)?);
        }
        let first = entries.first()?;
        let start = first.0.span.start;
        let end = entries.last().map(|(_, v)| v.span.end)?;
        Some(Node {
            value: Value::Map(entries),
            span: Span::new(start, end),
            from_alias: false,
        })
    }

    /// `key: value` at absolute offset `at`; the key's column is `indent`.
    fn entry(&mut self, at: usize, rest: &'a str, indent: usize) -> Option<(Node, Node)> {
        let (key_text, after) = split_key(rest)?;
        let key = plain_scalar(key_text, at)?;
        let value_off = rest.len() - after.len();
        let after_trim = after.trim_start_matches(' ');
        let value_at = at + value_off + (after.len() - after_trim.len());
        let value = if after_trim.is_empty() || after_trim.starts_with('#') {
            // A nested block: deeper mapping, or a sequence (same indent allowed).
            let next = self.peek()?;
            if next.rest.starts_with("- ") && next.indent >= indent {
                self.sequence(next.indent)?
            } else if next.indent > indent {
                self.mapping(next.indent)?
            } else {
                return None; // an empty value: saphyr decides its span
            }
        } else {
            let node = inline_value(after_trim, value_at)?;
            // A more indented line after an inline value would continue a
            // multi-line scalar (or be an error): not for this path.
            if self.peek().is_some_and(|n| n.indent > indent) {
                return None;
            }
            node
        };
        Some((key, value))
    }

    /// A block sequence whose dashes sit at `indent`.
    fn sequence(&mut self, indent: usize) -> Option<Node> {
        self.deeper(|r| r.sequence_in(indent))
    }

    fn sequence_in(&mut self, indent: usize) -> Option<Node> {
        let mut items = Vec::with_capacity(self.siblings(indent));
        let start = self.peek()?.start;
        while let Some(line) = self.peek() {
            if line.indent != indent || !line.rest.starts_with("- ") {
                if line.indent > indent {
                    return None;
                }
                break;
            }
            self.pos += 1;
            let body = line.rest[2..].trim_start_matches(' ');
            let body_col = indent + (line.rest.len() - body.len());
            let body_at = line.start + (line.rest.len() - body.len());
            if body.is_empty() || body.starts_with('#') || body.starts_with("- ") {
                return None;
            }
            if split_key(body).is_some() && !body.starts_with(['"', '\'', '[']) {
                // `- key: value` starts a mapping whose keys sit at body_col.
                let mut entries = Vec::with_capacity(1 + self.siblings(body_col));
                entries.push(self.entry(body_at, body, body_col)?);
                while let Some(next) = self.peek() {
                    if next.indent != body_col {
                        if next.indent > body_col {
                            return None;
                        }
                        break;
                    }
                    if next.rest.starts_with("- ") {
                        return None;
                    }
                    self.pos += 1;
                    entries.push(self.entry(next.start, next.rest, body_col)?);
                }
                let end = entries.last().map(|(_, v)| v.span.end)?;
                items.push(Node {
                    value: Value::Map(entries),
                    span: Span::new(body_at, end),
                    from_alias: false,
                });
            } else {
                items.push(inline_value(body, body_at)?);
                if self.peek().is_some_and(|n| n.indent > indent) {
                    return None;
                }
            }
        }
        let end = items.last()?.span.end;
        Some(Node {
            value: Value::Seq(items),
            span: Span::new(start, end),
            from_alias: false,
        })
    }
}

/// Split `key: rest` (or `key:` at end of line); the key must be plain.
fn split_key(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            // `key : value`: saphyr trims the blank off the key; declined
            // rather than trimmed here, so spans stay saphyr's.
            b':' if i > 0 && matches!(b[i - 1], b' ' | b'\t') => return None,
            b':' if i + 1 == b.len() || b[i + 1] == b' ' => return Some((&s[..i], &s[i + 1..])),
            b'#' if i > 0 && b[i - 1] == b' ' => return None,
            _ => i += 1,
        }
    }
    None
}

const INDICATORS: &[u8] = b"-?:,[]{}#&*!|>'\"%@`";

/// One pass over a plain scalar's text: no `: ` (a nested mapping), no
/// trailing `:`, and no word starting with an indicator after a blank
/// (` #` comments, `a -b`: valid YAML, but where parsers differ).
fn plain_body_ok(s: &str) -> bool {
    let b = s.as_bytes();
    if b.last() == Some(&b':') {
        return false;
    }
    for w in b.windows(2) {
        if (w[0] == b':' && w[1] == b' ') || (w[0] == b' ' && INDICATORS.contains(&w[1])) {
            return false;
        }
    }
    true
}

/// A plain scalar that is the whole of `s` (already trimmed).
fn plain_scalar(s: &str, at: usize) -> Option<Node> {
    let first = *s.as_bytes().first()?;
    if INDICATORS.contains(&first) {
        // `-1`, `-x`: a dash followed by a non-blank is plain.
        if !(first == b'-'
            && s.len() > 1
            && !INDICATORS.contains(&s.as_bytes()[1])
            && s.as_bytes()[1] != b' ')
        {
            return None;
        }
    }
    if !plain_body_ok(s) {
        return None;
    }
    Some(scalar(s, Style::Plain, Span::new(at, at + s.len())))
}

fn scalar(text: &str, style: Style, span: Span) -> Node {
    Node {
        value: Value::Scalar(Scalar {
            text: text.into(),
            style,
            tag: None,
        }),
        span,
        from_alias: false,
    }
}

/// Strip a trailing ` # comment`; `s` must then be nothing but blanks.
fn only_comment(s: &str) -> bool {
    let t = s.trim_start_matches(' ');
    t.is_empty() || (t.starts_with('#') && (t.len() < s.len() || s.is_empty()))
}

/// A value on the rest of a line: a scalar or a one-line flow list.
fn inline_value(s: &str, at: usize) -> Option<Node> {
    match s.as_bytes()[0] {
        b'[' => flow_list(s, at),
        b'"' | b'\'' => {
            let (node, used) = quoted(s, at)?;
            only_comment(&s[used..]).then_some(node)
        }
        _ => {
            let cut = s.as_bytes().windows(2).position(|w| w == b" #");
            let text = match cut {
                Some(i) => s[..i].trim_end_matches(' '),
                None => s,
            };
            plain_scalar(text, at)
        }
    }
}

/// A quoted scalar at the start of `s`; returns it and the bytes used.
fn quoted(s: &str, at: usize) -> Option<(Node, usize)> {
    let q = s.as_bytes()[0];
    let b = s.as_bytes();
    let mut i = 1;
    let mut text = String::new();
    loop {
        let c = *b.get(i)?;
        if q == b'"' && c == b'\\' {
            return None; // escapes: saphyr decodes them
        }
        if c == q {
            if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                text.push('\'');
                i += 2;
                continue;
            }
            break;
        }
        let ch = s[i..].chars().next()?;
        text.push(ch);
        i += ch.len_utf8();
    }
    let style = if q == b'"' {
        Style::DoubleQuoted
    } else {
        Style::SingleQuoted
    };
    Some((scalar_owned(text, style, Span::new(at, at + i + 1)), i + 1))
}

fn scalar_owned(text: String, style: Style, span: Span) -> Node {
    Node {
        value: Value::Scalar(Scalar {
            text: text.as_str().into(),
            style,
            tag: None,
        }),
        span,
        from_alias: false,
    }
}

/// `[a, "b", 'c']` on one line, scalars only.
fn flow_list(s: &str, at: usize) -> Option<Node> {
    let b = s.as_bytes();
    let mut items = Vec::new();
    let mut i = 1;
    loop {
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        match *b.get(i)? {
            b']' if items.is_empty() => break,
            b'"' | b'\'' => {
                let (node, used) = quoted(&s[i..], at + i)?;
                items.push(node);
                i += used;
            }
            b'[' | b'{' | b',' | b'&' | b'*' | b'!' | b'#' | b'|' | b'>' | b'%' | b'@' | b'`'
            | b'?' => return None,
            _ => {
                let end = s[i..].find([',', ']']).map(|e| i + e)?;
                let text = s[i..end].trim_end_matches(' ');
                if text.contains(['[', '{', '}']) {
                    return None;
                }
                // Same rules as a block plain scalar, on top of the flow ones.
                items.push(plain_scalar(text, at + i)?);
                i += text.len();
            }
        }
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        match *b.get(i)? {
            b',' => {
                i += 1;
                // A trailing comma before `]` is allowed.
                let mut j = i;
                while b.get(j) == Some(&b' ') {
                    j += 1;
                }
                if b.get(j) == Some(&b']') {
                    i = j;
                    break;
                }
            }
            b']' => break,
            _ => return None,
        }
    }
    let end = i + 1;
    if !only_comment(&s[end..]) {
        return None;
    }
    Some(Node {
        value: Value::Seq(items),
        span: Span::new(at, at + end),
        from_alias: false,
    })
}
