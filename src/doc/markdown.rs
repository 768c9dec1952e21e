//! Markdown structure by lines: headings, sections, list items, checkboxes,
//! table rows and `Label: value` lines, each with byte spans.
//!
//! Why not comrak here: GSD files are read line by line by every tool that
//! touches them, and real roadmaps put `### Phase N:` headings inside
//! `<details>` blocks with no blank line after `<summary>` — CommonMark
//! (and so comrak) reads those as raw HTML, not headings. This scanner sees
//! what GSD users and tools see, skips fenced code, and is linear in the
//! file size. comrak is kept for where CommonMark is the point: rendering
//! HTML in the document compiler (`gsd prd --format html`).

use super::elements::Opaque;
use super::span::Span;

/// One line of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the file.
    pub number: usize,
    /// The line without its line break.
    pub span: Span,
    /// The line with its line break.
    pub full: Span,
    /// Inside (or the fence line of) a fenced code block.
    pub in_fence: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub level: u8,
    /// Heading text without `#`s and surrounding blanks.
    pub text: Span,
    pub line: Line,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checkbox {
    pub checked: bool,
    /// The single character between the brackets.
    pub mark: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListItem {
    /// Leading blanks before the marker.
    pub indent: usize,
    pub marker: Span,
    pub checkbox: Option<Checkbox>,
    /// The item text after the marker (and checkbox).
    pub content: Span,
    pub line: Line,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    /// Trimmed cell contents.
    pub cells: Vec<Span>,
    /// A `|---|:--:|` delimiter row.
    pub separator: bool,
    pub line: Line,
}

/// The line structure of a markdown text.
#[derive(Debug, Clone, Default)]
pub struct Markdown {
    pub lines: Vec<Line>,
    pub headings: Vec<Heading>,
    pub list_items: Vec<ListItem>,
    pub table_rows: Vec<TableRow>,
}

impl Markdown {
    /// Scan `range` of `text`; `first_line` is the 1-based number of the
    /// line at `range.start`.
    pub fn scan(text: &str, range: Span, first_line: usize) -> Self {
        let opaque = Opaque::scan(text, range);
        let fenced: Vec<Span> = opaque.fenced(text).collect();
        let mut md = Markdown::default();
        let mut pos = range.start;
        let mut number = first_line;
        let b = text.as_bytes();
        let mut fence_i = 0;
        while pos < range.end {
            let full_end =
                memchr::memchr(b'\n', &b[pos..range.end]).map_or(range.end, |i| pos + i + 1);
            let mut end = full_end;
            if end > pos && b[end - 1] == b'\n' {
                end -= 1;
            }
            if end > pos && b[end - 1] == b'\r' {
                end -= 1;
            }
            while fence_i < fenced.len() && fenced[fence_i].end <= pos {
                fence_i += 1;
            }
            let in_fence = fenced
                .get(fence_i)
                .is_some_and(|f| f.start <= pos && pos < f.end);
            let line = Line {
                number,
                span: Span::new(pos, end),
                full: Span::new(pos, full_end),
                in_fence,
            };
            md.lines.push(line);
            if !in_fence {
                md.classify(text, line);
            }
            pos = full_end;
            number += 1;
        }
        md.lines = exact(md.lines);
        md.headings = exact(md.headings);
        md.list_items = exact(md.list_items);
        md.table_rows = exact(md.table_rows);
        md
    }

    fn classify(&mut self, text: &str, line: Line) {
        let s = line.span.slice(text);
        let indent = s.len() - s.trim_start_matches([' ', '\t']).len();
        let t = &s[indent..];
        if let Some(h) = heading(t, line.span.start + indent) {
            self.headings.push(Heading {
                level: h.0,
                text: h.1,
                line,
            });
        } else if let Some(item) = list_item(t, line.span.start + indent, indent, line) {
            self.list_items.push(item);
        } else if t.starts_with('|') {
            self.table_rows.push(table_row(text, line, indent));
        }
    }

    /// The span of the section under heading `i`: from its line to the next
    /// heading of the same or a higher level (or `end`).
    pub fn section(&self, i: usize, end: usize) -> Span {
        let h = &self.headings[i];
        let stop = self.headings[i + 1..]
            .iter()
            .find(|n| n.level <= h.level)
            .map_or(end, |n| n.line.span.start);
        Span::new(h.line.span.start, stop)
    }

    /// The first heading whose text matches `pred`, with its index.
    pub fn find_heading(
        &self,
        text: &str,
        pred: impl Fn(&str) -> bool,
    ) -> Option<(usize, &Heading)> {
        self.headings
            .iter()
            .enumerate()
            .find(|(_, h)| pred(h.text.slice(text)))
    }

    /// Lines that lie inside `span`.
    pub fn lines_in(&self, span: Span) -> impl Iterator<Item = &Line> {
        let first = self.lines.partition_point(|l| l.span.start < span.start);
        self.lines[first..]
            .iter()
            .take_while(move |l| l.span.start < span.end)
    }

    /// List items whose line starts inside `span`. Items are stored in file
    /// order, so this is a binary search, not a scan: a roadmap asks once per
    /// phase section.
    pub fn list_items_in(&self, span: Span) -> impl Iterator<Item = &ListItem> {
        in_span(&self.list_items, span, |i| i.line.span.start)
    }

    /// Every table: rows on consecutive lines, a header row then a
    /// `|---|` delimiter row, then at least one row of cells.
    pub fn tables(&self) -> impl Iterator<Item = &[TableRow]> {
        let rows = &self.table_rows;
        let mut i = 0;
        std::iter::from_fn(move || {
            while i < rows.len() {
                let mut end = i + 1;
                while end < rows.len() && rows[end].line.number == rows[end - 1].line.number + 1 {
                    end += 1;
                }
                let table = &rows[i..end];
                i = end;
                if table.len() >= 3 && table[1].separator {
                    return Some(table);
                }
            }
            None
        })
    }

    /// Table rows whose line starts inside `span` (binary search, as above).
    pub fn table_rows_in(&self, span: Span) -> impl Iterator<Item = &TableRow> {
        in_span(&self.table_rows, span, |r| r.line.span.start)
    }
}

/// `v` in an allocation of its own length, when growth by doubling left
/// much unused: a 10,000-phase roadmap's 160,000 lines sat in room for
/// 262,144 (12 MB of its 30 MB index). A copy, not `shrink_to_fit`, which
/// mimalloc leaves in place when more than half the block is used. Small
/// vectors (every plan's) are kept as they are: the copy would cost more
/// than it frees.
pub(crate) fn exact<T>(v: Vec<T>) -> Vec<T> {
    const SMALL: usize = 1024;
    if v.capacity() < SMALL || v.capacity() - v.len() < v.len() / 8 {
        return v;
    }
    let mut out = Vec::with_capacity(v.len());
    out.extend(v);
    out
}

/// The run of `items` (sorted by `start`) that starts inside `span`.
fn in_span<T>(items: &[T], span: Span, start: impl Fn(&T) -> usize) -> std::slice::Iter<'_, T> {
    let from = items.partition_point(|i| start(i) < span.start);
    let to = from + items[from..].partition_point(|i| span.contains(start(i)));
    items[from..to].iter()
}

fn heading(t: &str, base: usize) -> Option<(u8, Span)> {
    let level = t.bytes().take_while(|&b| b == b'#').count();
    if level == 0 || level > 6 {
        return None;
    }
    let rest = &t[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let lead = rest.len() - rest.trim_start().len();
    let mut content = rest.trim();
    // An optional closing run of #s preceded by a blank.
    let stripped = content.trim_end_matches('#');
    if stripped.len() != content.len() && (stripped.is_empty() || stripped.ends_with([' ', '\t'])) {
        content = stripped.trim_end();
    }
    let start = base + level + lead;
    Some((level as u8, Span::new(start, start + content.len())))
}

fn list_item(t: &str, base: usize, indent: usize, line: Line) -> Option<ListItem> {
    let b = t.as_bytes();
    let marker_len = match b.first()? {
        b'-' | b'*' | b'+' => 1,
        c if c.is_ascii_digit() => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 9 || !matches!(b.get(digits), Some(b'.' | b')')) {
                return None;
            }
            digits + 1
        }
        _ => return None,
    };
    match b.get(marker_len) {
        None => {}
        Some(b' ' | b'\t') => {}
        _ => return None,
    }
    // "---" / "***" thematic breaks are not list items.
    if marker_len == 1
        && t.trim().chars().all(|c| c == b[0] as char || c == ' ')
        && t.trim().len() >= 3
    {
        return None;
    }
    let marker = Span::new(base, base + marker_len);
    let after = &t[marker_len..];
    let lead = after.len() - after.trim_start_matches([' ', '\t']).len();
    let mut content_start = marker_len + lead;
    let mut checkbox = None;
    let rest = &t[content_start..];
    if rest.len() >= 3 && rest.as_bytes()[0] == b'[' && rest.as_bytes()[2] == b']' {
        let mark = rest.as_bytes()[1];
        // `[~]` and `[/]`: boxes some roadmaps define for work under way
        // (deployed, half done); unticked, as `[ ]` is.
        if matches!(mark, b' ' | b'x' | b'X' | b'~' | b'/')
            && matches!(rest.as_bytes().get(3), None | Some(b' ' | b'\t'))
        {
            checkbox = Some(Checkbox {
                checked: matches!(mark, b'x' | b'X'),
                mark: Span::new(base + content_start + 1, base + content_start + 2),
            });
            let after_box = &rest[3..];
            content_start +=
                3 + (after_box.len() - after_box.trim_start_matches([' ', '\t']).len());
        }
    }
    let content_end = t.trim_end().len().max(content_start);
    Some(ListItem {
        indent,
        marker,
        checkbox,
        content: Span::new(base + content_start, base + content_end),
        line,
    })
}

fn table_row(text: &str, line: Line, indent: usize) -> TableRow {
    let s = line.span.slice(text);
    let start = line.span.start + indent;
    let inner = &s[indent..];
    let mut cells = Vec::new();
    let b = inner.as_bytes();
    let mut cell_start = 1; // after the leading pipe
    let mut i = 1;
    let mut in_code = false;
    while i <= b.len() {
        let at_end = i == b.len();
        if !at_end && b[i] == b'`' {
            in_code = !in_code;
        }
        let is_pipe = !at_end && b[i] == b'|' && !in_code && b[i - 1] != b'\\';
        if is_pipe || at_end {
            let raw = &inner[cell_start..i];
            let lead = raw.len() - raw.trim_start().len();
            let cell = Span::new(
                start + cell_start + lead,
                start + cell_start + lead + raw.trim().len(),
            );
            if !(at_end && raw.trim().is_empty()) {
                cells.push(cell);
            }
            cell_start = i + 1;
        }
        i += 1;
    }
    let separator = !cells.is_empty()
        && cells.iter().all(|c| {
            let t = c.slice(text);
            !t.is_empty() && t.contains('-') && t.chars().all(|ch| matches!(ch, '-' | ':' | ' '))
        });
    TableRow {
        cells,
        separator,
        line,
    }
}

/// A `Label: value` line, plain or bold (`**Label:** v`, `**Label**: v`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelLine {
    pub label: Span,
    /// The value after the colon, trimmed (may be empty).
    pub value: Span,
    pub bold: bool,
}

/// Read a line as `Label: value`; labels are 1–60 characters without `:`.
/// A list marker before the label (`- **Goal:** x`) is allowed.
pub fn label_line(text: &str, line: Span) -> Option<LabelLine> {
    let s = line.slice(text);
    let mut off = s.len() - s.trim_start().len();
    let t = &s[off..];
    let t2 = t.strip_prefix("- ").or_else(|| t.strip_prefix("* "));
    if let Some(t2) = t2 {
        off += t.len() - t2.len();
    }
    let t = &s[off..];
    let base = line.start + off;
    let (label_start, label_end, value_start, bold) = if let Some(rest) = t.strip_prefix("**") {
        let close = rest.find("**")?;
        let inner = &rest[..close];
        let after = &rest[close + 2..];
        if let Some(label) = inner.strip_suffix(':') {
            (2, 2 + label.len(), 2 + close + 2, true)
        } else if after.starts_with(':') {
            (2, 2 + inner.len(), 2 + close + 3, true)
        } else {
            return None;
        }
    } else {
        let colon = t.find(':')?;
        let label = &t[..colon];
        if label.is_empty() || label.len() > 60 || !label.chars().next()?.is_alphabetic() {
            return None;
        }
        if label.contains(['|', '<', '>', '[', '`', '*', '#']) {
            return None;
        }
        (0, colon, colon + 1, false)
    };
    let label = &t[label_start..label_end];
    // A plain `label:` of over 60 bytes is prose with a colon; a bold
    // `**label:**` is a label whatever its length.
    if label.trim().is_empty() || (!bold && label.len() > 60) {
        return None;
    }
    let raw_value = &t[value_start.min(t.len())..];
    let lead = raw_value.len() - raw_value.trim_start().len();
    let vstart = base + value_start.min(t.len()) + lead;
    let value = Span::new(vstart, vstart + raw_value.trim().len());
    Some(LabelLine {
        label: Span::new(base + label_start, base + label_end),
        value,
        bold,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(t: &str) -> Markdown {
        Markdown::scan(t, Span::new(0, t.len()), 1)
    }

    #[test]
    fn headings_skip_fences_and_see_details() {
        let t = "# Title\n```\n# not\n```\n<details>\n<summary>v1</summary>\n### Phase 1: A ##\n</details>\n";
        let md = scan(t);
        let hs: Vec<_> = md
            .headings
            .iter()
            .map(|h| (h.level, h.text.slice(t)))
            .collect();
        assert_eq!(hs, [(1, "Title"), (3, "Phase 1: A")]);
        assert_eq!(md.headings[1].line.number, 7);
    }

    #[test]
    fn list_items_with_checkboxes() {
        let t = "- [ ] **Phase 1: A** - x\n  - [x] 01-01: y\n1. first\n---\n-not\n";
        let md = scan(t);
        assert_eq!(md.list_items.len(), 3);
        let a = &md.list_items[0];
        assert!(!a.checkbox.unwrap().checked);
        assert_eq!(a.checkbox.unwrap().mark.slice(t), " ");
        assert_eq!(a.content.slice(t), "**Phase 1: A** - x");
        assert!(md.list_items[1].checkbox.unwrap().checked);
        assert_eq!(md.list_items[1].indent, 2);
    }

    #[test]
    fn table_rows_and_sections() {
        let t = "## A\n| P | `a|b` | S |\n|---|:-:|---|\n## B\ntext\n### C\n## D\n";
        let md = scan(t);
        let row = &md.table_rows[0];
        let cells: Vec<_> = row.cells.iter().map(|c| c.slice(t)).collect();
        assert_eq!(cells, ["P", "`a|b`", "S"]);
        assert!(md.table_rows[1].separator);
        assert_eq!(md.section(1, t.len()).slice(t), "## B\ntext\n### C\n");
    }

    #[test]
    fn label_lines() {
        let t = "**Goal**: Base works\n**Plans:** 2 plans\nPhase: 1 of 5 (Foundation)\nhttp://x\n- **Mode:** mvp";
        let md = scan(t);
        let get = |i: usize| {
            let l = label_line(t, md.lines[i].span).unwrap();
            (l.label.slice(t), l.value.slice(t), l.bold)
        };
        assert_eq!(get(0), ("Goal", "Base works", true));
        assert_eq!(get(1), ("Plans", "2 plans", true));
        assert_eq!(get(2), ("Phase", "1 of 5 (Foundation)", false));
        assert_eq!(get(4), ("Mode", "mvp", true));
    }

    #[test]
    fn crlf_lines() {
        let t = "# A\r\n- [x] b\r\n";
        let md = scan(t);
        assert_eq!(md.headings[0].text.slice(t), "A");
        assert_eq!(md.list_items[0].content.slice(t), "b");
        assert_eq!(md.lines[1].full.slice(t), "- [x] b\r\n");
    }
}
