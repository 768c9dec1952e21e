//! GSD `<task>` XML: read a PLAN.md (or a bare fragment) into `ConvTask`s
//! with their layout, and write tasks back — exactly as they were when the
//! layout is there, in GSD's usual shape when it is not.

use crate::doc::Span;
use crate::doc::elements::{self, Opaque};

use super::escape::{decode, encode};
use super::{ChildLayout, ConvTask, ConvertError, Layout};

/// The attribute gsd adds to tasks whose text it escaped.
pub const MARKER: &str = "gsd-escaped";
const FIELDS: &[&str] = &["name", "files", "action", "verify", "done"];

/// Tasks read from GSD text, and the span of the block they fill.
#[derive(Debug)]
pub struct TaskBlock {
    pub span: Span,
    pub tasks: Vec<ConvTask>,
}

fn attr_decode(s: &str) -> String {
    decode(&s.replace("&quot;", "\"").replace("&apos;", "'"))
}

fn attr_encode(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

/// `a.rs, b.rs`, or a JSON list when a name holds a comma or blanks.
fn files_text(files: &[String]) -> String {
    let simple = files
        .iter()
        .all(|f| !f.is_empty() && f.trim() == f && !f.contains([',', '\n', '\r', '[']));
    if simple {
        files.join(", ")
    } else {
        serde_json::to_string(files).expect("strings serialize")
    }
}

fn files_list(text: &str) -> Vec<String> {
    if text.starts_with('[')
        && let Ok(v) = serde_json::from_str::<Vec<String>>(text)
    {
        return v;
    }
    text.split(',')
        .map(|f| f.trim().to_owned())
        .filter(|f| !f.is_empty())
        .collect()
}

/// The `<task>` elements of a text, found without keeping any other tag:
/// the first pass of a conversion, cheap enough for a 50 MB plan.
pub struct TaskScan {
    elements: Vec<elements::Element>,
}

impl TaskScan {
    /// Find the tasks of `text` (a PLAN.md or a fragment of `<task>`s);
    /// unbalanced task markup is an error naming the problem.
    pub fn new(text: &str) -> Result<TaskScan, ConvertError> {
        let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let body = crate::doc::frontmatter::split(text, start).body();
        let opaque = Opaque::scan(text, body);
        let mut tags = elements::tags_named(text, body, &opaque, "task");
        elements::drop_prose_opens(&mut tags, text, "task");
        let (els, problems) = elements::named_from_tags(&tags, "task");
        if let Some(p) = problems.first() {
            return Err(ConvertError::Other(format!(
                "the task markup is unbalanced: {p}"
            )));
        }
        if els.is_empty() {
            return Err(ConvertError::Other(
                "no <task> elements in the input".into(),
            ));
        }
        Ok(TaskScan { elements: els })
    }

    pub fn len(&self) -> usize {
        self.elements.len()
    }

    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// From the first task's start to the last task's end.
    pub fn span(&self) -> Span {
        let first = self.elements.first().map_or(0, |e| e.span().start);
        Span::new(first, self.elements.last().map_or(first, |e| e.span().end))
    }

    /// The tasks, built one at a time (each holds its own copy of its text).
    pub fn tasks<'t>(&'t self, text: &'t str) -> impl Iterator<Item = ConvTask> + 't {
        self.elements.iter().enumerate().map(move |(i, el)| {
            let prev_end = match i {
                0 => el.span().start,
                _ => self.elements[i - 1].span().end,
            };
            build_task(text, el, i, prev_end)
        })
    }

    /// How many tasks say `passes="true"` (feature lists and prd.json count
    /// them in their header), read from start tags alone.
    pub fn passed(&self, text: &str) -> usize {
        self.elements
            .iter()
            .filter(|el| {
                elements::attributes(el.attr_text(text))
                    .iter()
                    .any(|(k, v)| k == "passes" && v == "true")
            })
            .count()
    }
}

/// Read the tasks of `text` (a PLAN.md or a fragment of `<task>`s).
pub fn read(text: &str) -> Result<TaskBlock, ConvertError> {
    let scan = TaskScan::new(text)?;
    Ok(TaskBlock {
        span: scan.span(),
        tasks: scan.tasks(text).collect(),
    })
}

/// One task with its layout, from its element; `prev_end` is where the
/// previous task ended (the text between is kept as `before`).
fn build_task(text: &str, el: &elements::Element, i: usize, prev_end: usize) -> ConvTask {
    let start_tag = el.start_tag.slice(text).to_owned();
    let attrs = elements::attributes(el.attr_text(text));
    let escaped = attrs.iter().any(|(k, v)| k == MARKER && v == "1");
    let value = |v: &str| {
        if escaped {
            attr_decode(v)
        } else {
            v.to_owned()
        }
    };
    let mut t = ConvTask {
        id: (i + 1).to_string(),
        ..Default::default()
    };
    for (k, v) in &attrs {
        match k.as_str() {
            "type" => t.kind = value(v),
            "id" => t.id = value(v),
            MARKER => {}
            _ => t.attributes.push((k.clone(), value(v))),
        }
    }
    // The task's own tags, scanned in its content alone.
    let opaque = Opaque::scan(text, el.content);
    let inner = elements::tags(text, el.content, &opaque);
    let (children, _) = elements::children_from_tags(&inner);
    let mut layout = Layout {
        start_tag,
        children: Vec::new(),
        tail: String::new(),
        before: text[prev_end..el.span().start].to_owned(),
    };
    let mut cursor = el.content.start;
    let mut seen: Vec<&str> = Vec::new();
    for c in &children {
        let raw = c.content.slice(text);
        let (lead, body, trail) = if escaped {
            ("", raw, "")
        } else {
            let body = raw.trim();
            let lead = &raw[..raw.len() - raw.trim_start().len()];
            (lead, body, &raw[lead.len() + body.len()..])
        };
        let content = if escaped {
            decode(body)
        } else {
            body.to_owned()
        };
        let field = FIELDS.contains(&c.name.as_str()) && !seen.contains(&c.name.as_str());
        let mut files_raw = None;
        if field {
            seen.push(FIELDS.iter().find(|f| **f == c.name).expect("a field"));
            match c.name.as_str() {
                "name" => t.name = content,
                "files" => {
                    t.files = files_list(&content);
                    files_raw = Some(content);
                }
                "action" => t.action = content,
                "verify" => t.verify = content,
                "done" => t.done = content,
                _ => {}
            }
        } else {
            t.extra.push((c.name.to_string(), content));
        }
        layout.children.push(ChildLayout {
            name: c.name.to_string(),
            start_tag: c.start_tag.slice(text).to_owned(),
            lead: lead.to_owned(),
            trail: trail.to_owned(),
            gap: text[cursor..c.span().start].to_owned(),
            raw: files_raw,
        });
        cursor = c.span().end;
    }
    layout.tail = text[cursor..el.content.end].to_owned();
    t.gsd = Some(layout);
    t
}

/// The start tag for a task written without (or against) its layout.
fn start_tag(t: &ConvTask, index: usize, escaped: bool, strict: bool) -> String {
    let enc = |v: &str| {
        if escaped || strict {
            attr_encode(v)
        } else {
            v.to_owned()
        }
    };
    let escaped = escaped || strict;
    let mut s = String::from("<task");
    // No type attribute means `auto` to every GSD reader; an empty type stays empty.
    if !t.kind.is_empty() {
        s.push_str(&format!(" type=\"{}\"", enc(&t.kind)));
    }
    if t.id != index.to_string() {
        s.push_str(&format!(" id=\"{}\"", enc(&t.id)));
    }
    for (k, v) in &t.attributes {
        s.push_str(&format!(" {k}=\"{}\"", enc(v)));
    }
    if escaped {
        s.push_str(&format!(" {MARKER}=\"1\""));
    }
    s.push('>');
    s
}

fn field<'a>(t: &'a ConvTask, name: &str) -> Option<std::borrow::Cow<'a, str>> {
    Some(match name {
        "name" => t.name.as_str().into(),
        "files" => files_text(&t.files).into(),
        "action" => t.action.as_str().into(),
        "verify" => t.verify.as_str().into(),
        "done" => t.done.as_str().into(),
        _ => return None,
    })
}

/// Does the layout still describe this task's start tag?
fn layout_start_matches(layout: &Layout, t: &ConvTask, index: usize) -> bool {
    let attrs = elements::attributes(
        layout
            .start_tag
            .trim_start_matches("<task")
            .trim_end_matches('>'),
    );
    if attrs.iter().any(|(k, _)| k == MARKER) {
        return false;
    }
    let mut kind = String::new();
    let mut id = index.to_string();
    let mut rest = Vec::new();
    for (k, v) in attrs {
        match k.as_str() {
            "type" => kind = v,
            "id" => id = v,
            _ => rest.push((k, v)),
        }
    }
    kind == t.kind && id == t.id && rest == t.attributes
}

/// How a task's text is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// As is (and through the layout when there is one).
    Raw,
    /// `&lt;`-escaped where needed, marked `gsd-escaped="1"`.
    Escaped,
    /// Well-formed XML: everything escaped.
    Strict,
}

/// One task's text in `mode`.
fn write_task(t: &ConvTask, index: usize, mode: Mode) -> String {
    let mut out = String::new();
    if let (Mode::Raw, Some(layout)) = (mode, &t.gsd)
        && layout_start_matches(layout, t, index)
    {
        out.push_str(&layout.start_tag);
        let mut extras = t.extra.iter();
        let mut written: Vec<&str> = Vec::new();
        for c in &layout.children {
            let is_field = FIELDS.contains(&c.name.as_str()) && !written.contains(&c.name.as_str());
            let content = if is_field {
                written.push(FIELDS.iter().find(|f| **f == c.name).expect("a field"));
                match (&c.raw, c.name.as_str()) {
                    (Some(raw), "files") if files_list(raw) == t.files => raw.clone(),
                    _ => field(t, &c.name)
                        .map(|v| v.into_owned())
                        .unwrap_or_default(),
                }
            } else {
                extras.next().map(|(_, v)| v.clone()).unwrap_or_default()
            };
            out.push_str(&format!(
                "{}{}{}{}{}</{}>",
                c.gap, c.start_tag, c.lead, content, c.trail, c.name
            ));
        }
        for f in FIELDS {
            if !written.contains(f) && field(t, f).is_some_and(|v| !v.is_empty()) {
                out.push_str(&format!("\n  <{f}>{}</{f}>", field(t, f).expect("checked")));
            }
        }
        for (name, v) in extras {
            out.push_str(&format!("\n  <{name}>{v}</{name}>"));
        }
        out.push_str(&layout.tail);
        out.push_str("</task>");
        return out;
    }
    let escaped = mode != Mode::Raw;
    let text = |v: &str| match mode {
        Mode::Raw => v.to_owned(),
        Mode::Escaped => encode(v).0,
        // XML escaping, and backticks too: a code span would hide closing tags from GSD readers.
        Mode::Strict => quick_xml::escape::escape(v).replace('`', "&#96;"),
    };
    out.push_str(&start_tag(t, index, escaped, mode == Mode::Strict));
    for f in FIELDS {
        let v = field(t, f).expect("a field");
        if !v.is_empty() || *f == "name" {
            out.push_str(&format!("\n  <{f}>{}</{f}>", text(&v)));
        }
    }
    for (name, v) in &t.extra {
        out.push_str(&format!("\n  <{name}>{}</{name}>", text(v)));
    }
    out.push_str("\n</task>");
    out
}

/// Whether `xml` (one task, at position `index`) reads back as `t`.
fn reads_back(xml: &str, t: &ConvTask, index: usize) -> bool {
    let Ok(block) = read(xml) else { return false };
    if block.tasks.len() != 1 {
        return false;
    }
    let mut got = block.tasks.into_iter().next().unwrap_or_default();
    // Read alone, a task without an id attribute is task 1.
    let has_id = got.gsd.as_ref().is_some_and(|l| {
        elements::attributes(
            l.start_tag
                .trim_start_matches("<task")
                .trim_end_matches('>'),
        )
        .iter()
        .any(|(k, _)| k == "id")
    });
    if !has_id && t.id == index.to_string() {
        got.id = t.id.clone();
    }
    got.gsd = None;
    let mut want = t.clone();
    want.gsd = None;
    got == want
}

/// Write tasks as GSD XML: each as people write it when that reads back
/// exactly (always so for tasks read from GSD), else escaped and marked;
/// `strict` writes well-formed XML instead.
pub fn write(tasks: &[ConvTask], strict: bool) -> String {
    let mut out = String::new();
    for (i, t) in tasks.iter().enumerate() {
        write_one(t, i, strict, &mut out);
    }
    out
}

/// Append task number `i` (0-based) with what separates it from the one
/// before: its own layout's text, else a blank line.
pub fn write_one(t: &ConvTask, i: usize, strict: bool, out: &mut String) {
    let index = i + 1;
    let text = if strict {
        write_task(t, index, Mode::Strict)
    } else {
        let raw = write_task(t, index, Mode::Raw);
        // Reading back alone is not enough when a quote in tag-like text
        // could run on into the next task: such text is escaped.
        let spills = t.gsd.is_none()
            && FIELDS
                .iter()
                .filter_map(|f| field(t, f))
                .chain(t.extra.iter().map(|(_, v)| v.as_str().into()))
                .any(|v| super::escape::has_quoted_tag(&v));
        if !spills && reads_back(&raw, t, index) {
            raw
        } else {
            write_task(t, index, Mode::Escaped)
        }
    };
    match (&t.gsd, strict) {
        (Some(layout), false) if text.starts_with(&layout.start_tag) => {
            out.push_str(&layout.before)
        }
        _ if i > 0 => out.push_str("\n\n"),
        _ => {}
    }
    out.push_str(&text);
}
