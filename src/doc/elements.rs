//! A tolerant scanner for pseudo-XML elements (`<task>`, `<action>`, …)
//! inside markdown text.
//!
//! Real task bodies are not XML (`Vec<T>`, `a < b && c`, JSX), so this is
//! never a strict XML parser. It finds tags outside code: fenced blocks
//! (``` and ~~~, at any indentation), inline code spans and HTML comments are
//! opaque. Elements are matched by name with depth counting, so a balanced
//! example `<task>…</task>` inside a real task does not cut it short, and
//! every unbalanced or nested tag is reported with its span.
//! Inner text is never decoded or trimmed: spans select the verbatim bytes.

use super::span::Span;
use compact_str::CompactString;

/// Regions where tags are not tags: code fences, inline code, comments.
#[derive(Debug, Clone, Default)]
pub struct Opaque {
    spans: Vec<Span>,
    /// Fence openers with no closing fence (treated as plain text).
    pub unclosed_fences: Vec<Span>,
}

impl Opaque {
    /// Find the opaque regions of `text` within `range`.
    pub fn scan(text: &str, range: Span) -> Self {
        let (fences, unclosed_fences) = fences(text, range);
        let mut spans = Vec::new();
        let mut cursor = range.start;
        for fence in fences
            .iter()
            .copied()
            .chain(std::iter::once(Span::empty(range.end)))
        {
            inline_regions(text, Span::new(cursor, fence.start), &mut spans);
            if !fence.is_empty() {
                spans.push(fence);
            }
            cursor = fence.end;
        }
        Opaque {
            spans,
            unclosed_fences,
        }
    }

    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// Whether `offset` lies in code or a comment.
    pub fn contains(&self, offset: usize) -> bool {
        let i = self.spans.partition_point(|s| s.end <= offset);
        self.spans.get(i).is_some_and(|s| s.contains(offset))
    }

    /// Fenced code blocks only (for callers that skip fenced lines).
    pub fn fenced<'a>(&'a self, text: &'a str) -> impl Iterator<Item = Span> + 'a {
        let bytes = text.as_bytes();
        self.spans.iter().copied().filter(move |s| {
            // Only blanks before it on its line; looking back no further
            // than the blanks keeps this linear on one long line of code spans.
            let mut i = s.start;
            while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
                i -= 1;
            }
            matches!(bytes.get(s.start..s.start + 3), Some(b"```" | b"~~~"))
                && (i == 0 || bytes[i - 1] == b'\n')
        })
    }
}

/// The occurrences of one text (`</task>`, `<task`) inside fenced code
/// blocks, with the fence holding each. It explains a tag that is "never
/// closed" (its partner sits in a fence a stray ``` line opened) for every
/// such tag by a binary search, where a scan of the rest of the file per
/// tag cost time quadratic in the tags.
#[derive(Debug, Clone)]
pub struct FencedHits {
    /// (offset of the occurrence, its fence), in file order.
    hits: Vec<(usize, Span)>,
    len: usize,
}

impl FencedHits {
    /// One pass over the fences of `opaque`.
    pub fn new(text: &str, opaque: &Opaque, needle: &str) -> FencedHits {
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        let mut hits = Vec::new();
        for fence in opaque.fenced(text) {
            let b = &text.as_bytes()[fence.start..fence.end];
            hits.extend(finder.find_iter(b).map(|i| (fence.start + i, fence)));
        }
        FencedHits {
            hits,
            len: needle.len(),
        }
    }

    /// The fence of the first occurrence lying wholly in `from..to`.
    pub fn first_in(&self, from: usize, to: usize) -> Option<Span> {
        let i = self.hits.partition_point(|&(at, _)| at < from);
        let &(at, fence) = self.hits.get(i)?;
        (at + self.len <= to).then_some(fence)
    }

    /// The fence of the last occurrence lying wholly in `from..to`.
    pub fn last_in(&self, from: usize, to: usize) -> Option<Span> {
        let i = self.hits.partition_point(|&(at, _)| at + self.len <= to);
        let &(at, fence) = self.hits.get(i.checked_sub(1)?)?;
        (at >= from).then_some(fence)
    }
}

/// Fenced code blocks in `range`: (closed fences, unclosed openers).
fn fences(text: &str, range: Span) -> (Vec<Span>, Vec<Span>) {
    let mut closed = Vec::new();
    let mut unclosed = Vec::new();
    let lines = lines_in(text, range);
    let mut i = 0;
    while i < lines.len() {
        let (start, end) = lines[i];
        if let Some((ch, n)) = fence_open(&text[start..end]) {
            let indent = indent_width(&text[start..end]);
            let close = (i + 1..lines.len())
                .find(|&j| fence_close(&text[lines[j].0..lines[j].1], ch, n, indent));
            match close {
                Some(j) => {
                    closed.push(Span::new(start, lines[j].1));
                    i = j + 1;
                    continue;
                }
                None => unclosed.push(Span::new(start, end)),
            }
        }
        i += 1;
    }
    (closed, unclosed)
}

/// Line (start, end) offsets in `range`, line breaks included in `end`.
fn lines_in(text: &str, range: Span) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = range.start;
    while pos < range.end {
        let end = memchr::memchr(b'\n', &text.as_bytes()[pos..range.end])
            .map_or(range.end, |i| pos + i + 1);
        out.push((pos, end));
        pos = end;
    }
    out
}

fn fence_open(line: &str) -> Option<(u8, usize)> {
    let t = line.trim_start_matches([' ', '\t']);
    let t = t.trim_start_matches("> ");
    let ch = *t.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|&b| b == ch).count();
    if n < 3 {
        return None;
    }
    if ch == b'`' && t[n..].contains('`') {
        return None; // ```inline``` is code, not a fence
    }
    Some((ch, n))
}

/// Whether `line` closes a fence of `n` `ch`s opened at `open_indent`
/// columns. CommonMark lets a closing fence sit at most three columns
/// further in than its container's content; with the opening fence's
/// column standing for that, a run of backticks indented deeper (an
/// example fence nested in a task's prose) is content, not the close.
fn fence_close(line: &str, ch: u8, n: usize, open_indent: usize) -> bool {
    if indent_width(line) > open_indent + 3 {
        return false;
    }
    let t = line
        .trim_start_matches([' ', '\t'])
        .trim_start_matches("> ");
    let run = t.bytes().take_while(|&b| b == ch).count();
    run >= n && t[run..].trim().is_empty()
}

/// The columns of a line's leading blanks (a tab to the next stop of 4).
fn indent_width(line: &str) -> usize {
    let mut col = 0;
    for b in line.bytes() {
        match b {
            b' ' => col += 1,
            b'\t' => col = col / 4 * 4 + 4,
            _ => break,
        }
    }
    col
}

/// Inline code spans and HTML comments in a region with no fences.
fn inline_regions(text: &str, range: Span, out: &mut Vec<Span>) {
    let b = text.as_bytes();
    let mut i = range.start;
    while i < range.end {
        match b[i] {
            b'`' => {
                let n = b[i..range.end].iter().take_while(|&&c| c == b'`').count();
                match find_backtick_close(b, i + n, range.end, n) {
                    Some(end) => {
                        out.push(Span::new(i, end));
                        i = end;
                    }
                    None => i += n,
                }
            }
            b'<' if b[i..range.end].starts_with(b"<!--") => match find(b, i + 4, range.end, b"-->")
            {
                Some(p) => {
                    out.push(Span::new(i, p + 3));
                    i = p + 3;
                }
                None => i += 4,
            },
            _ => i += 1,
        }
    }
}

/// End of an inline code span: the next run of exactly `n` backticks, not
/// past a blank line (a code span never leaves its paragraph).
fn find_backtick_close(b: &[u8], mut i: usize, end: usize, n: usize) -> Option<usize> {
    let mut line_blank = false;
    while i < end {
        match b[i] {
            b'`' => {
                let run = b[i..end].iter().take_while(|&&c| c == b'`').count();
                if run == n {
                    return Some(i + run);
                }
                i += run;
                line_blank = false;
            }
            b'\n' => {
                if line_blank {
                    return None;
                }
                line_blank = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            _ => {
                line_blank = false;
                i += 1;
            }
        }
    }
    None
}

fn find(b: &[u8], from: usize, end: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(&b[from..end], needle).map(|p| from + p)
}

/// One tag as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub name: CompactString,
    pub span: Span,
    pub kind: TagKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagKind {
    Open,
    Close,
    SelfClosing,
}

/// All tags in `range` outside opaque regions, in order.
pub fn tags(text: &str, range: Span, opaque: &Opaque) -> Vec<Tag> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut pos = range.start;
    while let Some(rel) = memchr::memchr(b'<', &b[pos..range.end]) {
        let at = pos + rel;
        pos = at + 1;
        if opaque.contains(at) {
            continue;
        }
        if let Some(tag) = parse_tag(b, at, range.end) {
            pos = tag.span.end;
            out.push(tag);
        }
    }
    out
}

/// The tags named `name` in `range`, outside opaque regions: what a
/// caller that needs one element kind keeps, without the others.
pub fn tags_named(text: &str, range: Span, opaque: &Opaque, name: &str) -> Vec<Tag> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut pos = range.start;
    while let Some(rel) = memchr::memmem::find(&b[pos..range.end], name.as_bytes()) {
        let at_name = pos + rel;
        pos = at_name + 1;
        // `<name` or `</name`, with the name ending there.
        let at = match (
            at_name.checked_sub(1).map(|i| b[i]),
            at_name.checked_sub(2).map(|i| b[i]),
        ) {
            (Some(b'<'), _) => at_name - 1,
            (Some(b'/'), Some(b'<')) => at_name - 2,
            _ => continue,
        };
        if opaque.contains(at) {
            continue;
        }
        if let Some(tag) = parse_tag(b, at, range.end)
            && tag.name == name
        {
            pos = tag.span.end;
            out.push(tag);
        }
    }
    out
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b':' | b'.')
}

fn parse_tag(b: &[u8], at: usize, end: usize) -> Option<Tag> {
    let mut i = at + 1;
    let close = b.get(i) == Some(&b'/');
    if close {
        i += 1;
    }
    if !is_name_start(*b.get(i)?) {
        return None;
    }
    let name_start = i;
    while i < end && is_name_char(b[i]) {
        i += 1;
    }
    let name = CompactString::from(std::str::from_utf8(&b[name_start..i]).ok()?);
    if close {
        while i < end && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        return (b.get(i) == Some(&b'>') && i < end).then(|| Tag {
            name,
            span: Span::new(at, i + 1),
            kind: TagKind::Close,
        });
    }
    match b.get(i) {
        Some(b'>') if i < end => {
            return Some(Tag {
                name,
                span: Span::new(at, i + 1),
                kind: TagKind::Open,
            });
        }
        Some(b'/') if b.get(i + 1) == Some(&b'>') && i + 1 < end => {
            return Some(Tag {
                name,
                span: Span::new(at, i + 2),
                kind: TagKind::SelfClosing,
            });
        }
        Some(b' ' | b'\t' | b'\r' | b'\n') => {}
        _ => return None,
    }
    // Attributes: run to `>` respecting quotes; give up at `<` or after 2 KiB.
    let mut quote = None;
    let limit = end.min(at + 2048);
    while i < limit {
        let c = b[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'"' | b'\'' => quote = Some(c),
                b'<' => return None,
                b'>' => {
                    let kind = if b[i - 1] == b'/' {
                        TagKind::SelfClosing
                    } else {
                        TagKind::Open
                    };
                    return Some(Tag {
                        name,
                        span: Span::new(at, i + 1),
                        kind,
                    });
                }
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// A matched element: start tag, content and end tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    pub name: CompactString,
    pub start_tag: Span,
    pub content: Span,
    /// `None` for a self-closing element.
    pub end_tag: Option<Span>,
}

impl Element {
    /// The whole element, start tag to end tag.
    pub fn span(&self) -> Span {
        Span::new(
            self.start_tag.start,
            self.end_tag.map_or(self.start_tag.end, |e| e.end),
        )
    }

    /// The text of the start tag after the name (attributes), without `>`/`/>`.
    pub fn attr_text<'a>(&self, text: &'a str) -> &'a str {
        let tag = self.start_tag.slice(text);
        let inner = tag.trim_end_matches('>').trim_end_matches('/');
        inner.get(1 + self.name.len()..).unwrap_or("")
    }
}

/// What is wrong with a set of tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TagProblem {
    /// An opening tag that is never closed. `fence`: a code fence that
    /// holds the would-be closing tag (a stray or unterminated ``` line
    /// swallowed it) — the cause to name instead of "add the close".
    Unclosed {
        name: CompactString,
        start_tag: Span,
        fence: Option<Span>,
    },
    /// A closing tag with no opening tag; `fence` as above, holding the
    /// would-be opening tag.
    StrayClose {
        name: CompactString,
        end_tag: Span,
        fence: Option<Span>,
    },
    /// An element opened inside another of the same name.
    Nested {
        name: CompactString,
        outer: Span,
        inner: Span,
    },
}

impl TagProblem {
    /// Point each problem at the code fence that hides its partner tag,
    /// when one does: `</task>` inside a fence that a stray ``` line opened
    /// is the usual reason a task "is never closed".
    pub fn find_fence_causes(problems: &mut [TagProblem], text: &str, opaque: &Opaque) {
        // One index per text looked for, built on first use.
        let mut found: std::collections::HashMap<String, FencedHits> =
            std::collections::HashMap::new();
        for p in problems {
            let (needle, fence, within, first) = match p {
                TagProblem::Unclosed {
                    name,
                    start_tag,
                    fence,
                } => (
                    format!("</{name}>"),
                    fence,
                    (start_tag.end, text.len()),
                    true,
                ),
                TagProblem::StrayClose {
                    name,
                    end_tag,
                    fence,
                } => (format!("<{name}"), fence, (0, end_tag.start), false),
                TagProblem::Nested { .. } => continue,
            };
            let hits = found
                .entry(needle)
                .or_insert_with_key(|n| FencedHits::new(text, opaque, n));
            *fence = if first {
                hits.first_in(within.0, within.1)
            } else {
                hits.last_in(within.0, within.1)
            };
        }
    }
}

impl std::fmt::Display for TagProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TagProblem::Unclosed { name, fence, .. } => {
                write!(f, "<{name}> is never closed")?;
                if fence.is_some() {
                    write!(f, ": its </{name}> is inside a code fence")?;
                }
                Ok(())
            }
            TagProblem::StrayClose { name, fence, .. } => {
                write!(f, "</{name}> closes nothing")?;
                if fence.is_some() {
                    write!(f, ": its <{name}> is inside a code fence")?;
                }
                Ok(())
            }
            TagProblem::Nested { name, .. } => {
                write!(f, "<{name}> is opened inside another <{name}>")
            }
        }
    }
}

/// Drop opening `<name …>` tags that sit in the middle of prose with no
/// close on their line (`match <task type="…"> elements`): a real element
/// opens at the start of a line or right after another tag (`<tasks><task>`).
/// Such a mention would otherwise open a bogus element that steals the real
/// one's closing tag (GSD's own reader pairs the real opener with it).
pub fn drop_prose_opens(tags: &mut Vec<Tag>, text: &str, name: &str) {
    let close = format!("</{name}>");
    let finder = memchr::memmem::FinderRev::new(close.as_bytes());
    // The line of the last tag looked at, and where its last `</name>`
    // starts: each line is searched once, however many tags it holds (one
    // search per tag was quadratic on a long line of tasks).
    let mut line: Option<(usize, Option<usize>)> = None;
    tags.retain(|t| {
        if t.kind != TagKind::Open || t.name != name {
            return true;
        }
        let line_end = match line {
            Some((end, _)) if t.span.end <= end => end,
            _ => {
                let end = memchr::memchr(b'\n', &text.as_bytes()[t.span.end..])
                    .map_or(text.len(), |i| t.span.end + i);
                let start = text[..t.span.start].rfind('\n').map_or(0, |i| i + 1);
                let last = finder
                    .rfind(&text.as_bytes()[start..end])
                    .map(|i| start + i);
                line = Some((end, last));
                end
            }
        };
        // `<task>example</task>` inline is an element all the same: GSD's
        // lazy reader closes the real task at its `</task>`, so it stays
        // (and is reported as nested).
        let last_close = line.and_then(|(_, last)| last);
        let closes_on_line = last_close.is_some_and(|at| at >= t.span.end && at < line_end);
        !after_prose(text, t.span.start) || closes_on_line
    });
}

/// Whether the tag starting at `start` follows words on its line: a real
/// element opens at the start of a line or right after another tag.
pub fn after_prose(text: &str, start: usize) -> bool {
    // Only the blanks before the tag are looked at, not the whole line.
    let mut before = text[..start]
        .chars()
        .rev()
        .skip_while(|c| c.is_whitespace() && *c != '\n');
    !matches!(before.next(), None | Some('\n' | '>'))
}

/// What matching a run of tags produced, in order.
enum Matched<'t> {
    /// An element, with the same-name elements opened at its first level.
    Element(Element, Vec<Span>),
    /// An opening tag with no close, or a close with no opening tag.
    Unmatched(&'t Tag),
}

/// Match tags into top-level elements. An opening tag ends at the first
/// close of the same name at its own depth (same-name opens inside count
/// depth); an opening tag with no such close is unmatched, and matching
/// resumes right after it so later elements are still found.
///
/// That first close at the opener's own depth is its partner in ordinary
/// bracket matching, one stack per name, so all partners come from one
/// pass: each tag is pushed and popped at most once. (Scanning forward from
/// every opener instead cost time quadratic in the unclosed tags: 40,000
/// unclosed `<task>` lines took 17 s.)
fn match_tags(all: &[Tag]) -> Vec<Matched<'_>> {
    let pairs = partners(all);
    let mut out = Vec::new();
    let mut i = 0;
    while i < all.len() {
        visited();
        let tag = &all[i];
        match (tag.kind, &pairs[i]) {
            (TagKind::SelfClosing, _) => {
                let el = Element {
                    name: tag.name.clone(),
                    start_tag: tag.span,
                    content: Span::empty(tag.span.end),
                    end_tag: None,
                };
                out.push(Matched::Element(el, Vec::new()));
                i += 1;
            }
            (TagKind::Open, Partner::Close { at, children }) => {
                let end = all[*at].span;
                let el = Element {
                    name: tag.name.clone(),
                    start_tag: tag.span,
                    content: Span::new(tag.span.end, end.start),
                    end_tag: Some(end),
                };
                let nested = children.iter().map(|&c| all[c].span).collect();
                out.push(Matched::Element(el, nested));
                i = at + 1;
            }
            _ => {
                out.push(Matched::Unmatched(tag));
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
thread_local! {
    /// Tags looked at by matching on this thread, for the test that keeps
    /// matching linear (a count, not a clock).
    static VISITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Count one look at a tag (tests only).
#[inline]
fn visited() {
    #[cfg(test)]
    VISITS.with(|v| v.set(v.get() + 1));
}

/// What bracket matching found for one tag.
#[derive(Debug, Clone, Default)]
enum Partner {
    /// A close, a self-closing tag, or an opener never closed.
    #[default]
    None,
    /// An opener's close (index into the tags), and the same-name openers
    /// directly inside it.
    Close { at: usize, children: Vec<usize> },
}

/// Each tag's partner, by one pass with a stack of open tags per name
/// (names compared ignoring ASCII case, as the matching does).
fn partners(all: &[Tag]) -> Vec<Partner> {
    let mut out = vec![Partner::None; all.len()];
    // Keys are the names folded to lower case, inline (no allocation for a
    // name of up to 24 bytes).
    let folded = |name: &CompactString| {
        let mut k = name.clone();
        k.make_ascii_lowercase();
        k
    };
    let mut open: std::collections::HashMap<CompactString, Vec<(usize, Vec<usize>)>> =
        std::collections::HashMap::new();
    for (j, t) in all.iter().enumerate() {
        visited();
        match t.kind {
            TagKind::SelfClosing => {}
            TagKind::Open => {
                let stack = open.entry(folded(&t.name)).or_default();
                if let Some((_, children)) = stack.last_mut() {
                    children.push(j);
                }
                stack.push((j, Vec::new()));
            }
            TagKind::Close => {
                if let Some((i, children)) = open.get_mut(&folded(&t.name)).and_then(Vec::pop) {
                    out[i] = Partner::Close { at: j, children };
                }
            }
        }
    }
    out
}

/// The tags of `all` that lie inside `range` (tags are in file order).
pub fn tags_within(all: &[Tag], range: Span) -> &[Tag] {
    let from = all.partition_point(|t| t.span.start < range.start);
    let to = all.partition_point(|t| t.span.start < range.end);
    let slice = &all[from..to];
    let keep = slice.iter().take_while(|t| t.span.end <= range.end).count();
    &slice[..keep]
}

/// Elements named `name` at the top nesting level of `range`, plus problems.
///
/// Same-name elements nest by depth counting: the outer one ends at its
/// matching close, and the inner one is reported as nested. When an element
/// is never closed it is reported, and scanning resumes after its start
/// tag so the elements after it are still found.
pub fn elements_named(
    text: &str,
    range: Span,
    opaque: &Opaque,
    name: &str,
) -> (Vec<Element>, Vec<TagProblem>) {
    named_from_tags(&tags(text, range, opaque), name)
}

/// `elements_named` over tags already scanned.
pub fn named_from_tags(all: &[Tag], name: &str) -> (Vec<Element>, Vec<TagProblem>) {
    let same: Vec<Tag> = all
        .iter()
        .filter(|t| t.name.eq_ignore_ascii_case(name))
        .cloned()
        .collect();
    let mut elements = Vec::new();
    let mut problems = Vec::new();
    for m in match_tags(&same) {
        match m {
            Matched::Element(el, nested) => {
                for inner in nested {
                    problems.push(TagProblem::Nested {
                        name: el.name.clone(),
                        outer: el.start_tag,
                        inner,
                    });
                }
                elements.push(el);
            }
            Matched::Unmatched(t) if t.kind == TagKind::Close => {
                problems.push(TagProblem::StrayClose {
                    fence: None,
                    name: t.name.clone(),
                    end_tag: t.span,
                });
            }
            Matched::Unmatched(t) => problems.push(TagProblem::Unclosed {
                fence: None,
                name: t.name.clone(),
                start_tag: t.span,
            }),
        }
    }
    (elements, problems)
}

/// Top-level child elements of any name in `range` (the body of a task).
///
/// An opening tag with no matching close is text (`Vec<String>`), not an
/// element; such tags are returned in the second list so callers can
/// report the ones they know (`<action>` without `</action>`).
pub fn children(text: &str, range: Span, opaque: &Opaque) -> (Vec<Element>, Vec<Tag>) {
    children_from_tags(&tags(text, range, opaque))
}

/// `children` over tags already scanned.
pub fn children_from_tags(all: &[Tag]) -> (Vec<Element>, Vec<Tag>) {
    let mut elements = Vec::new();
    let mut unmatched = Vec::new();
    for m in match_tags(all) {
        match m {
            Matched::Element(el, _) => elements.push(el),
            Matched::Unmatched(t) => unmatched.push(t.clone()),
        }
    }
    (elements, unmatched)
}

/// Attributes of a start tag, read with quick-xml's HTML-mode attribute
/// parser (either quote style, valueless attributes); values are kept raw.
pub fn attributes(attr_text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for attr in quick_xml::events::attributes::Attributes::html(attr_text, 0).flatten() {
        let key: &str = attr.key.as_ref();
        let key = key.to_owned();
        let value = attr.value.to_string();
        out.push((key, value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(t: &str) -> Span {
        Span::new(0, t.len())
    }

    fn tasks(t: &str) -> (Vec<Element>, Vec<TagProblem>) {
        let o = Opaque::scan(t, whole(t));
        elements_named(t, whole(t), &o, "task")
    }

    #[test]
    fn fenced_task_is_not_a_task() {
        let t = "```xml\n<task>fake</task>\n```\n<task type=\"auto\">\n<action>\n```\n</task>\n```\n</action>\n</task>\n";
        let (els, problems) = tasks(t);
        assert_eq!(els.len(), 1);
        assert!(problems.is_empty());
        assert!(els[0].content.slice(t).contains("</action>"));
    }

    /// CommonMark: a closing fence sits at most three columns deeper than
    /// its opening one. A fence opened at column 0 runs past the example
    /// fences indented seven columns inside it; one opened in a list item
    /// (three columns in) closes at its own depth.
    #[test]
    fn a_deeper_fence_line_does_not_close_a_shallow_fence() {
        let t = "```xml\n<task>\n       ```ts\n       code\n       ```\n</task>\n```\n<task>real</task>\n";
        let (els, problems) = tasks(t);
        assert_eq!(els.len(), 1, "{problems:?}");
        assert_eq!(els[0].content.slice(t), "real");
        let o = Opaque::scan(t, whole(t));
        assert_eq!(o.unclosed_fences.len(), 0);
        let t = "1. Step\n   ```sh\n   make\n      ```\n<task>x</task>\n";
        let (els, _) = tasks(t);
        assert_eq!(els.len(), 1);
        // A 4-column fence line does not close a column-0 fence: it stays
        // open (and is reported so).
        let t = "```\nopen\n    ```\n<task>after</task>\n";
        let o = Opaque::scan(t, whole(t));
        assert_eq!(o.unclosed_fences.first().map(|f| f.start), Some(0));
    }

    #[test]
    fn inline_code_and_comments_are_opaque() {
        let t = "<task>\n<action>Write `</task>` and <!-- </task> --> here</action>\n</task>";
        let (els, problems) = tasks(t);
        assert_eq!(els.len(), 1, "{problems:?}");
        assert_eq!(els[0].end_tag.unwrap().end, t.len());
    }

    #[test]
    fn balanced_nested_example_does_not_cut_short() {
        let t = "<task>\n<action>Example: <task>inner</task> done</action>\n</task>\nafter";
        let (els, problems) = tasks(t);
        assert_eq!(els.len(), 1);
        assert!(els[0].content.slice(t).contains("done"));
        assert!(matches!(problems[0], TagProblem::Nested { .. }));
    }

    #[test]
    fn unclosed_and_stray_tags_are_reported_and_recovered() {
        let t = "<task a>\nno close\n<task b>\nok\n</task>\n</task>\n</task>";
        let (els, problems) = tasks(t);
        // a matches the second close (b nested inside); the last close is stray.
        assert_eq!(els.len(), 1);
        assert!(
            problems
                .iter()
                .any(|p| matches!(p, TagProblem::StrayClose { .. }))
        );
        let t = "<task a>\nforgot\n<task b>\nok\n</task>";
        let (els, problems) = tasks(t);
        assert_eq!(els.len(), 1);
        assert!(els[0].start_tag.slice(t).contains('b'));
        assert!(
            matches!(&problems[0], TagProblem::Unclosed { start_tag, .. } if start_tag.slice(t) == "<task a>")
        );
    }

    #[test]
    fn unclosed_fence_is_plain_text() {
        let t = "<task>\n```rust\nfn x() {}\n</task>\n";
        let o = Opaque::scan(t, whole(t));
        assert_eq!(o.unclosed_fences.len(), 1);
        let (els, _) = elements_named(t, whole(t), &o, "task");
        assert_eq!(els.len(), 1);
    }

    #[test]
    fn children_tolerate_non_xml_bodies() {
        let t = "<name>T</name>\n<action>Use Vec<String> where a < b && c > d</action>\n<verify><automated>cargo test</automated></verify>\n<option id=\"a\"/>";
        let o = Opaque::scan(t, whole(t));
        let (els, _unmatched) = children(t, whole(t), &o);
        let names: Vec<_> = els.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["name", "action", "verify", "option"]);
        assert_eq!(
            els[1].content.slice(t),
            "Use Vec<String> where a < b && c > d"
        );
    }

    #[test]
    fn attributes_in_either_quote_style() {
        let a = attributes(" type='checkpoint:decision' gate=\"blocking\" tdd=true");
        assert_eq!(a[0], ("type".into(), "checkpoint:decision".into()));
        assert_eq!(a[1], ("gate".into(), "blocking".into()));
        assert_eq!(a[2], ("tdd".into(), "true".into()));
    }

    #[test]
    fn a_task_mentioned_in_prose_opens_nothing() {
        let t = "<task type=\"auto\">\n<name>A</name>\n<action>\n- Use regex to match <task type=\"...\"> elements\n</action>\n</task>\n<tasks><task type=\"auto\"><name>B</name></task></tasks>\n";
        let range = Span::new(0, t.len());
        let opaque = Opaque::scan(t, range);
        let mut all = tags(t, range, &opaque);
        drop_prose_opens(&mut all, t, "task");
        let (els, problems) = named_from_tags(&all, "task");
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(els.len(), 2);
        assert!(
            els[0]
                .span()
                .slice(t)
                .starts_with("<task type=\"auto\">\n<name>A")
        );
        assert!(els[0].span().slice(t).ends_with("</action>\n</task>"));
    }

    /// Matching looks at each tag a bounded number of times, however many
    /// are never closed (it once scanned every later tag per unclosed one:
    /// 40,000 unclosed `<task>` lines took 17 s), and still reports each
    /// of them and finds the elements after them.
    #[test]
    fn unclosed_tags_are_matched_in_linear_work() {
        let n = 3000;
        let mut t = "<task>\nfine\n</task>\n".repeat(2);
        t.push_str(&"<task type=\"auto\">\n".repeat(n));
        t.push_str("<task>\nlast\n</task>\n</task>\n");
        let o = Opaque::scan(&t, whole(&t));
        let all = tags(&t, whole(&t), &o);
        assert_eq!(all.len(), 4 + n + 3);
        VISITS.with(|v| v.set(0));
        let (els, problems) = named_from_tags(&all, "task");
        let visits = VISITS.with(std::cell::Cell::get);
        assert!(
            visits <= 3 * all.len(),
            "{visits} looks at {} tags",
            all.len()
        );
        // The last opener takes `last`'s close, so `<task>last` is nested
        // in it and the final close is its own; the n-1 before it are unclosed.
        assert_eq!(els.len(), 3);
        let unclosed = problems
            .iter()
            .filter(|p| matches!(p, TagProblem::Unclosed { .. }))
            .count();
        assert_eq!(unclosed, n - 1, "{:?}", &problems[..3]);
        assert!(els[2].content.slice(&t).contains("last"));
    }

    /// A tag whose partner a stray fence swallowed names that fence; the
    /// index answers for any tag by position.
    #[test]
    fn fence_causes_are_found_by_position() {
        let cause = |t: &str| {
            let o = Opaque::scan(t, whole(t));
            let (_, mut problems) = tasks(t);
            TagProblem::find_fence_causes(&mut problems, t, &o);
            let fence = o.fenced(t).next().map(|f| f.slice(t).to_owned());
            let found = match &problems[..] {
                [TagProblem::Unclosed { fence, .. } | TagProblem::StrayClose { fence, .. }] => {
                    fence.map(|f| f.slice(t).to_owned())
                }
                other => panic!("{other:?}"),
            };
            (found, fence)
        };
        let (found, fence) = cause("<task>\nA\n```\n</task>\n```\n");
        assert_eq!(
            (found.as_deref(), fence.as_deref()),
            (Some("```\n</task>\n```\n"), Some("```\n</task>\n```\n"))
        );
        let (found, fence) = cause("```\n<task>\n```\n</task>\n");
        assert!(found.is_some() && found == fence);
        let (found, _) = cause("```\n</task>\n```\n<task>\nC\n");
        assert_eq!(found, None, "the close in the fence is before the task");

        let t = "x\n```\n</task>\n```\n";
        let o = Opaque::scan(t, whole(t));
        let fence = o.fenced(t).next().unwrap();
        let hits = FencedHits::new(t, &o, "</task>");
        let at = t.find("</task>").unwrap();
        assert_eq!(hits.first_in(0, t.len()), Some(fence));
        assert_eq!(hits.first_in(at, at + 7), Some(fence));
        assert_eq!(hits.first_in(at, at + 6), None, "not wholly inside");
        assert_eq!(hits.first_in(at + 1, t.len()), None);
        assert_eq!(hits.last_in(0, at + 7), Some(fence));
        assert_eq!(hits.last_in(at + 1, t.len()), None);
    }
}
