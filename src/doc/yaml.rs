//! YAML read into a tree of values that remember their byte spans.
//!
//! Built on saphyr-parser's event stream (a YAML 1.2 parser that reports
//! positions). serde_yaml is archived and its forks drop positions, so the
//! typed tree here is our own: each node keeps the byte span of its source
//! text, which is what later layers splice when they edit a value.
//!
//! Limits that keep hostile input harmless: alias expansion is bounded by a
//! total node budget ("billion laughs" stops at `MAX_NODES`), and nesting
//! deeper than `MAX_DEPTH` is an error rather than a stack overflow.
//!
//! Scalars keep their decoded text and style; typing is done on request,
//! following the YAML 1.2 core schema, except that integers written with a
//! leading zero (`plan: 01`) stay strings — GSD users mean "01".

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, ScanError};

use super::span::Span;

/// Most nodes a document may hold, counting every alias expansion.
pub const MAX_NODES: usize = 200_000;
/// Deepest nesting of collections accepted.
pub const MAX_DEPTH: usize = 200;

/// How a scalar was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

impl From<ScalarStyle> for Style {
    fn from(s: ScalarStyle) -> Self {
        match s {
            ScalarStyle::Plain => Style::Plain,
            ScalarStyle::SingleQuoted => Style::SingleQuoted,
            ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
            ScalarStyle::Literal => Style::Literal,
            ScalarStyle::Folded => Style::Folded,
        }
    }
}

/// A scalar's decoded text and how it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Scalar {
    /// Inline up to 24 bytes: most keys and values of a frontmatter are
    /// that short, and a big tree has a million of them.
    pub text: compact_str::CompactString,
    pub style: Style,
    /// Boxed: almost no scalar has a tag, and every node of every
    /// frontmatter pays for the field (8 bytes here instead of 24).
    pub tag: Option<Box<Tag>>,
}

/// A scalar's tag as written (`!!str`, `!custom`).
#[derive(Debug, Clone, PartialEq)]
pub struct Tag(pub String);

/// A value in the tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Scalar(Scalar),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

/// A value and the byte span of its source text (absolute in the file).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
    /// Whether this node was produced by expanding an alias.
    pub from_alias: bool,
}

/// A scalar's YAML 1.2 core-schema type, as gsd resolves it.
#[derive(Debug, Clone, PartialEq)]
pub enum Typed<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
}

impl Scalar {
    /// Resolve the scalar's type (plain scalars only; quoted ones are strings).
    pub fn typed(&self) -> Typed<'_> {
        if self.style != Style::Plain {
            return Typed::Str(&self.text);
        }
        if let Some(tag) = &self.tag
            && (tag.0.ends_with(":str") || tag.0 == "!")
        {
            return Typed::Str(&self.text);
        }
        let t = self.text.as_str();
        match t {
            "" | "~" | "null" | "Null" | "NULL" => return Typed::Null,
            "true" | "True" | "TRUE" => return Typed::Bool(true),
            "false" | "False" | "FALSE" => return Typed::Bool(false),
            ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
                return Typed::Float(f64::INFINITY);
            }
            "-.inf" | "-.Inf" | "-.INF" => return Typed::Float(f64::NEG_INFINITY),
            ".nan" | ".NaN" | ".NAN" => return Typed::Float(f64::NAN),
            _ => {}
        }
        if let Some(i) = parse_int(t) {
            return Typed::Int(i);
        }
        if is_float(t)
            && let Ok(f) = t.parse::<f64>()
        {
            return Typed::Float(f);
        }
        Typed::Str(t)
    }
}

fn parse_int(t: &str) -> Option<i64> {
    let (neg, digits) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if let Some(hex) = digits.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16)
            .ok()
            .map(|v| if neg { -v } else { v });
    }
    if let Some(oct) = digits.strip_prefix("0o") {
        return i64::from_str_radix(oct, 8)
            .ok()
            .map(|v| if neg { -v } else { v });
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // "01" keeps its leading zero: it is a string to GSD users.
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    t.parse().ok()
}

fn is_float(t: &str) -> bool {
    let body = t.trim_start_matches(['-', '+']);
    let mut saw_digit = false;
    let mut saw_dot_or_exp = false;
    for (i, c) in body.char_indices() {
        match c {
            '0'..='9' => saw_digit = true,
            '.' => saw_dot_or_exp = true,
            'e' | 'E' => {
                saw_dot_or_exp = true;
                if !saw_digit || i + 1 == body.len() {
                    return false;
                }
            }
            '-' | '+' => {
                if !matches!(body[..i].chars().last(), Some('e' | 'E')) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    saw_digit && saw_dot_or_exp
}

impl Node {
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.value {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The scalar text (any style), for values read as strings.
    pub fn as_str(&self) -> Option<&str> {
        self.as_scalar().map(|s| s.text.as_str())
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.as_scalar().map(Scalar::typed), Some(Typed::Null))
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.as_scalar()?.typed() {
            Typed::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self.as_scalar()?.typed() {
            Typed::Int(i) => Some(i),
            _ => None,
        }
    }

    /// Look up a key in a mapping (keys compared as text).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|(_, v)| v)
    }

    /// The key node and value node of `key` in a mapping.
    pub fn entry(&self, key: &str) -> Option<(&Node, &Node)> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(k, v)| (k, v))
    }

    /// Follow a dotted path (`must_haves.artifacts.0.path`).
    pub fn path(&self, dotted: &str) -> Option<&Node> {
        let mut node = self;
        for part in dotted.split('.') {
            node = match &node.value {
                Value::Map(_) => node.get(part)?,
                Value::Seq(items) => items.get(part.parse::<usize>().ok()?)?,
                Value::Scalar(_) => return None,
            };
        }
        Some(node)
    }

    /// A list of strings: a sequence of scalars, or one scalar, or a
    /// comma-separated scalar (`files_modified: a.rs, b.rs`).
    pub fn string_list(&self) -> Vec<String> {
        match &self.value {
            Value::Seq(items) => items
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect(),
            Value::Scalar(s) if self.is_null() => {
                let _ = s;
                Vec::new()
            }
            Value::Scalar(s) => s
                .text
                .split(',')
                .map(|p| p.trim().to_owned())
                .filter(|p| !p.is_empty())
                .collect(),
            Value::Map(_) => Vec::new(),
        }
    }

    /// The scalar items of a list with their spans; a lone scalar (or a
    /// comma-separated one) gives its parts, all pointing at the scalar.
    pub fn scalar_items(&self) -> Vec<(String, Span)> {
        match self.as_seq() {
            Some(seq) => seq
                .iter()
                .filter_map(|n| n.as_str().map(|t| (t.to_owned(), n.span)))
                .collect(),
            None => self
                .string_list()
                .into_iter()
                .map(|t| (t, self.span))
                .collect(),
        }
    }

    /// Convert to JSON. Plain scalars are typed; `plan: 01` stays "01".
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Scalar(s) => match s.typed() {
                Typed::Null => J::Null,
                Typed::Bool(b) => J::Bool(b),
                Typed::Int(i) => J::from(i),
                Typed::Float(f) => {
                    serde_json::Number::from_f64(f).map_or(J::String(s.text.to_string()), J::Number)
                }
                Typed::Str(t) => J::String(t.to_owned()),
            },
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => {
                let mut map = serde_json::Map::new();
                for (k, v) in entries {
                    let key = match k.as_str() {
                        Some(s) => s.to_owned(),
                        None => k.to_json().to_string(),
                    };
                    map.insert(key, v.to_json());
                }
                J::Object(map)
            }
        }
    }

    fn count(&self) -> usize {
        match &self.value {
            Value::Scalar(_) => 1,
            Value::Seq(items) => 1 + items.iter().map(Node::count).sum::<usize>(),
            Value::Map(entries) => {
                1 + entries
                    .iter()
                    .map(|(k, v)| k.count() + v.count())
                    .sum::<usize>()
            }
        }
    }

    fn mark_alias(&mut self) {
        self.from_alias = true;
        match &mut self.value {
            Value::Scalar(_) => {}
            Value::Seq(items) => items.iter_mut().for_each(Node::mark_alias),
            Value::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
                k.mark_alias();
                v.mark_alias();
            }),
        }
    }
}

/// Why a YAML text could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    /// Absolute byte offset of the problem in the file.
    pub offset: usize,
    pub kind: YamlErrorKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlErrorKind {
    Syntax,
    AliasBudget,
    TooDeep,
    UnknownAlias,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Parse the YAML text at `span` of `file_text` (one document; later
/// documents are ignored). Returns `Ok(None)` for an empty document.
///
/// The common frontmatter shape goes through `yaml_fast`; everything else
/// (and every error) through saphyr-parser.
pub fn parse(file_text: &str, span: Span) -> Result<Option<Node>, YamlError> {
    if let Some(node) = super::yaml_fast::parse(file_text, span) {
        return Ok(Some(node));
    }
    parse_with_saphyr(file_text, span)
}

/// Parse with saphyr-parser only (the reference for `yaml_fast`).
pub fn parse_with_saphyr(file_text: &str, span: Span) -> Result<Option<Node>, YamlError> {
    let text = span.slice(file_text);
    let offsets = CharOffsets::new(text, span.start);
    let mut builder = Builder {
        offsets: &offsets,
        stack: Vec::new(),
        anchors: HashMap::new(),
        nodes: 0,
        root: None,
    };
    for item in Parser::new_from_str(text) {
        let (event, ev_span) = item.map_err(|e| scan_error(&e, &offsets))?;
        let (start, end) = (
            offsets.byte(ev_span.start.index()),
            offsets.byte(ev_span.end.index()),
        );
        match event {
            Event::DocumentEnd if builder.root.is_some() => break,
            Event::DocumentStart(_) if builder.root.is_some() => break,
            _ => {}
        }
        builder.event(event, Span::new(start, end.max(start)), file_text)?;
    }
    Ok(builder.root)
}

fn scan_error(e: &ScanError, offsets: &CharOffsets) -> YamlError {
    YamlError {
        message: e.info().to_owned(),
        offset: offsets.byte(e.marker().index()),
        kind: YamlErrorKind::Syntax,
    }
}

/// Maps saphyr's character indices to absolute byte offsets.
struct CharOffsets {
    base: usize,
    /// Byte offset of each char index; empty when the text is ASCII.
    table: Vec<usize>,
    len: usize,
}

impl CharOffsets {
    fn new(text: &str, base: usize) -> Self {
        let table = if text.is_ascii() {
            Vec::new()
        } else {
            text.char_indices()
                .map(|(b, _)| b)
                .chain(std::iter::once(text.len()))
                .collect()
        };
        CharOffsets {
            base,
            table,
            len: text.len(),
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        let rel = if self.table.is_empty() {
            char_index.min(self.len)
        } else {
            self.table.get(char_index).copied().unwrap_or(self.len)
        };
        self.base + rel
    }
}

enum Frame {
    Seq {
        items: Vec<Node>,
        start: usize,
        anchor: usize,
        flow: bool,
    },
    Map {
        entries: Vec<(Node, Node)>,
        key: Option<Node>,
        start: usize,
        anchor: usize,
        flow: bool,
    },
}

struct Builder<'a> {
    offsets: &'a CharOffsets,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    nodes: usize,
    root: Option<Node>,
}

impl Builder<'_> {
    fn budget(&mut self, n: usize, at: usize) -> Result<(), YamlError> {
        self.nodes += n;
        if self.nodes > MAX_NODES {
            return Err(YamlError {
                message: format!(
                    "YAML expands to more than {MAX_NODES} values (alias expansion bomb?)"
                ),
                offset: at,
                kind: YamlErrorKind::AliasBudget,
            });
        }
        Ok(())
    }

    fn event(&mut self, event: Event<'_>, span: Span, file_text: &str) -> Result<(), YamlError> {
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                self.budget(1, span.start)?;
                let span = scalar_span(file_text, span, style);
                let tag = tag.map(|t| Box::new(Tag(format!("{}{}", t.handle, t.suffix))));
                let node = Node {
                    value: Value::Scalar(Scalar {
                        text: compact_str::CompactString::from(text.as_ref()),
                        style: style.into(),
                        tag,
                    }),
                    span,
                    from_alias: false,
                };
                self.push(node, anchor);
            }
            Event::Alias(id) => {
                let Some(found) = self.anchors.get(&id) else {
                    return Err(YamlError {
                        message: "alias refers to an unknown anchor".into(),
                        offset: span.start,
                        kind: YamlErrorKind::UnknownAlias,
                    });
                };
                let count = found.count();
                let mut node = found.clone();
                self.budget(count, span.start)?;
                node.mark_alias();
                node.span = span;
                self.push(node, 0);
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                self.budget(1, span.start)?;
                if self.stack.len() >= MAX_DEPTH {
                    return Err(YamlError {
                        message: format!("YAML is nested more than {MAX_DEPTH} levels deep"),
                        offset: span.start,
                        kind: YamlErrorKind::TooDeep,
                    });
                }
                let flow = matches!(file_text.as_bytes().get(span.start), Some(b'[' | b'{'));
                let frame = if matches!(event, Event::SequenceStart(..)) {
                    Frame::Seq {
                        items: Vec::new(),
                        start: span.start,
                        anchor,
                        flow,
                    }
                } else {
                    Frame::Map {
                        entries: Vec::new(),
                        key: None,
                        start: span.start,
                        anchor,
                        flow,
                    }
                };
                self.stack.push(frame);
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Ok(());
                };
                let (value, start, anchor, flow, last_end) = match frame {
                    Frame::Seq {
                        items,
                        start,
                        anchor,
                        flow,
                    } => {
                        let last = items.last().map(|n| n.span.end);
                        (Value::Seq(items), start, anchor, flow, last)
                    }
                    Frame::Map {
                        entries,
                        start,
                        anchor,
                        flow,
                        ..
                    } => {
                        let last = entries.last().map(|(_, v)| v.span.end);
                        (Value::Map(entries), start, anchor, flow, last)
                    }
                };
                // Spans are the collection's own text: a flow collection ends
                // at its closing bracket (saphyr's end event can run on over a
                // comment), a block sequence starts at its first dash.
                let is_seq = matches!(value, Value::Seq(_));
                let end = if flow {
                    closing_bracket(
                        file_text,
                        last_end.unwrap_or(start + 1),
                        if is_seq { b']' } else { b'}' },
                    )
                    .unwrap_or(span.end)
                } else {
                    last_end.unwrap_or(start)
                };
                let start = if !flow && is_seq {
                    dash_before(file_text, start)
                } else {
                    start
                };
                self.push(
                    Node {
                        value,
                        span: Span::new(start, end.max(start)),
                        from_alias: false,
                    },
                    anchor,
                );
            }
            _ => {}
        }
        let _ = self.offsets;
        Ok(())
    }

    fn push(&mut self, node: Node, anchor: usize) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map { entries, key, .. }) => match key.take() {
                None => *key = Some(node),
                Some(k) => entries.push((k, node)),
            },
        }
    }
}

/// Tighten a scalar's span to its source text: quoted scalars include their
/// quotes; plain ones exclude trailing blanks and comments.
fn scalar_span(text: &str, span: Span, style: ScalarStyle) -> Span {
    let b = text.as_bytes();
    let mut end = span.end.min(text.len());
    match style {
        ScalarStyle::Plain => {
            while end > span.start && matches!(b[end - 1], b' ' | b'\t' | b'\r' | b'\n') {
                end -= 1;
            }
        }
        // Quoted: end right after the closing quote (saphyr's span can run on).
        ScalarStyle::DoubleQuoted | ScalarStyle::SingleQuoted => {
            let q = b.get(span.start).copied().unwrap_or(b'"');
            let mut i = span.start + 1;
            while i < b.len() {
                if q == b'"' && b[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if b[i] == q {
                    if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    end = i + 1;
                    break;
                }
                i += 1;
            }
        }
        _ => {}
    }
    Span::new(span.start.min(end), end)
}

/// The offset just past the bracket `close` that ends a flow collection,
/// searching from `from` over blanks, line breaks, commas and comments.
fn closing_bracket(text: &str, from: usize, close: u8) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = from;
    while i < b.len() {
        match b[i] {
            c if c == close => return Some(i + 1),
            b' ' | b'\t' | b'\r' | b'\n' | b',' => i += 1,
            b'#' => i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |p| i + p),
            _ => return None,
        }
    }
    None
}

/// The dash that starts a block sequence whose first event is at `at`.
fn dash_before(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let mut i = at;
    while i > 0 && b[i - 1] == b' ' {
        i -= 1;
    }
    if i > 0 && b[i - 1] == b'-' { i - 1 } else { at }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(t: &str) -> Node {
        parse(t, Span::new(0, t.len())).unwrap().unwrap()
    }

    #[test]
    fn spans_point_at_source_text() {
        let t =
            "phase: 05-x\nplan: 01   # keep\nwave: 2\nname: \"quoted: yes\"\nlist: [a, 'b c']\n";
        let d = doc(t);
        assert_eq!(d.get("plan").unwrap().span.slice(t), "01");
        assert_eq!(d.get("plan").unwrap().to_json(), serde_json::json!("01"));
        assert_eq!(d.get("wave").unwrap().as_i64(), Some(2));
        assert_eq!(d.get("name").unwrap().span.slice(t), "\"quoted: yes\"");
        assert_eq!(d.get("name").unwrap().as_str(), Some("quoted: yes"));
        let list = d.get("list").unwrap();
        assert_eq!(list.span.slice(t), "[a, 'b c']");
        assert_eq!(list.string_list(), vec!["a", "b c"]);
        assert_eq!(list.as_seq().unwrap()[1].span.slice(t), "'b c'");
    }

    #[test]
    fn block_collections_and_non_ascii() {
        let t =
            "ünï: 1\nmust_haves:\n  artifacts:\n    - path: \"src/é.rs\"\n      min_lines: 10\n";
        let d = doc(t);
        let p = d.path("must_haves.artifacts.0.path").unwrap();
        assert_eq!(p.span.slice(t), "\"src/é.rs\"");
        assert_eq!(
            d.path("must_haves.artifacts.0.min_lines").unwrap().as_i64(),
            Some(10)
        );
        assert_eq!(d.get("ünï").unwrap().span.slice(t), "1");
    }

    #[test]
    fn crlf_spans() {
        let t = "a: 1\r\nb: two words\r\n";
        let d = doc(t);
        assert_eq!(d.get("b").unwrap().span.slice(t), "two words");
    }

    #[test]
    fn typing_follows_core_schema() {
        let d = doc("a: true\nb: ~\nc: 1.5\nd: '1'\ne: 0x10\nf: 2026-01-01\ng: -3\nh: 1e3\n");
        assert_eq!(d.get("a").unwrap().to_json(), serde_json::json!(true));
        assert!(d.get("b").unwrap().is_null());
        assert_eq!(d.get("c").unwrap().to_json(), serde_json::json!(1.5));
        assert_eq!(d.get("d").unwrap().to_json(), serde_json::json!("1"));
        assert_eq!(d.get("e").unwrap().to_json(), serde_json::json!(16));
        assert_eq!(
            d.get("f").unwrap().to_json(),
            serde_json::json!("2026-01-01")
        );
        assert_eq!(d.get("g").unwrap().to_json(), serde_json::json!(-3));
        assert_eq!(d.get("h").unwrap().to_json(), serde_json::json!(1000.0));
    }

    #[test]
    fn alias_bomb_is_bounded() {
        let mut t = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            t.push_str(&format!("a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"));
        }
        let err = parse(&t, Span::new(0, t.len())).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::AliasBudget);
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let t = format!("a: {}{}", "[".repeat(5000), "]".repeat(5000));
        let err = parse(&t, Span::new(0, t.len())).unwrap_err();
        // saphyr-parser has its own recursion limit; either limit is fine.
        assert!(
            matches!(err.kind, YamlErrorKind::TooDeep | YamlErrorKind::Syntax),
            "{err:?}"
        );
        let t = format!(
            "a:\n{}",
            (1..400)
                .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
                .collect::<String>()
        );
        let err = parse(&t, Span::new(0, t.len())).unwrap_err();
        assert!(
            matches!(err.kind, YamlErrorKind::TooDeep | YamlErrorKind::Syntax),
            "{err:?}"
        );
    }

    #[test]
    fn syntax_error_has_offset() {
        let t = "a: 1\nb: \"unterminated\nc: [\n";
        let err = parse(t, Span::new(0, t.len())).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::Syntax);
        assert!(err.offset <= t.len());
    }
}
