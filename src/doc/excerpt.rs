//! The few lines of a file that an error message shows around a span, with
//! long lines clipped around it, as miette source code.
//!
//! Why not hand miette the whole file: miette scans its source from the
//! first byte for every report (a file's findings × its size), copying the
//! text per report costs as much again, and its renderer pads with Rust's
//! `{:width$}`, which panics past column 65,535. An excerpt is a few hundred
//! bytes whatever the file; it reports the file's own line and column
//! numbers.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Lines shown before and after the span's lines (miette asks for one).
const CONTEXT_LINES: usize = 2;
/// A span over more lines than this is shown by its first line.
const MAX_SPAN_LINES: usize = 12;
/// Lines longer than this are clipped around the span.
const MAX_LINE: usize = 240;
/// Bytes kept before the span's start on a clipped line.
const LEAD: usize = 80;
const MARK: &str = "…";

/// Lines of one file around a span: what [`SourceCode::read_span`] gives
/// miette, numbered as in the file.
#[derive(Debug, Clone)]
pub struct Excerpt {
    name: String,
    text: String,
    /// The file's line number (0-based) of the excerpt's first line.
    first_line: usize,
    /// Per excerpt line: file column minus excerpt column (clipped bytes
    /// less the `…` put in their place).
    shifts: Vec<isize>,
}

impl Excerpt {
    /// The excerpt of `text` around `offset..offset + len`, and that span
    /// in the excerpt's own offsets.
    pub fn around(
        name: impl Into<String>,
        text: &str,
        offset: usize,
        len: usize,
    ) -> (Self, SourceSpan) {
        Self::numbered(name, &Lines { text, index: None }, offset, len)
    }

    /// [`Excerpt::around`] in a file read as a [`Source`](super::Source),
    /// its lines found by its line index: counting the lines before the
    /// excerpt, or searching a long line for its ends, per report made a
    /// file's many reports cost its size (or that line's length) each.
    pub fn around_in(
        name: impl Into<String>,
        source: &super::Source,
        offset: usize,
        len: usize,
    ) -> (Self, SourceSpan) {
        let text = source.text().unwrap_or_default();
        Self::numbered(
            name,
            &Lines {
                text,
                index: Some(source),
            },
            offset,
            len,
        )
    }

    /// The excerpt of `lines`' text.
    fn numbered(
        name: impl Into<String>,
        lines: &Lines<'_>,
        offset: usize,
        len: usize,
    ) -> (Self, SourceSpan) {
        let text = lines.text;
        let line_start = |_: &str, at: usize| lines.start(at);
        let line_end = |_: &str, at: usize| lines.end(at);
        let start = floor(text, offset.min(text.len()));
        let mut end = ceil(text, start.saturating_add(len).min(text.len()));
        let first_line_start = line_start(text, start);
        // A span over many lines is shown from its start.
        if count_newlines(&text[start..end]) > MAX_SPAN_LINES {
            end = line_end(text, start);
        }
        let mut from = first_line_start;
        for _ in 0..CONTEXT_LINES {
            if from == 0 {
                break;
            }
            from = line_start(text, from - 1);
        }
        let mut to = line_end(text, end);
        for _ in 0..CONTEXT_LINES {
            if to >= text.len() {
                break;
            }
            to = line_end(text, to + 1);
        }
        let first_line = lines.number(from);
        let mut out = Excerpt {
            name: name.into(),
            text: String::new(),
            first_line,
            shifts: Vec::new(),
        };
        let (mut new_start, mut new_end) = (None, None);
        let mut ls = from;
        loop {
            let le = line_end(text, ls);
            let (a, b) = window(text, ls, le, start, end);
            let base = out.text.len();
            let lead = if a > ls { MARK } else { "" };
            out.text.push_str(lead);
            out.text.push_str(&text[a..b]);
            if b < le {
                out.text.push_str(MARK);
            }
            out.shifts.push((a - ls) as isize - lead.len() as isize);
            let map = |o: usize| base + lead.len() + o.clamp(a, b) - a;
            if new_start.is_none() && start <= le {
                new_start = Some(map(start));
            }
            if new_end.is_none() && end <= le {
                new_end = Some(map(end));
            }
            // The line break as the file has it (`\r\n` or `\n`): `le` is
            // the `\n` of a line with one.
            if le < to && le < text.len() {
                out.text.push('\n');
                ls = le + 1;
            } else {
                break;
            }
        }
        let s = new_start.unwrap_or(out.text.len());
        let e = new_end.unwrap_or(out.text.len()).max(s);
        (out, SourceSpan::new(s.into(), e - s))
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.as_str().read_span(span, before, after)?;
        let line = inner.line();
        let shift = self.shifts.get(line).copied().unwrap_or(0);
        let column = (inner.column() as isize + shift).max(0) as usize;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            self.first_line + line,
            column,
            inner.line_count(),
        )))
    }
}

/// The part of line `ls..le` to show: all of a short line; of a long one,
/// a window from a little before the span (or its end, or the line's start).
fn window(text: &str, ls: usize, le: usize, start: usize, end: usize) -> (usize, usize) {
    let body_end = if le > ls && text.as_bytes()[le - 1] == b'\r' {
        le - 1
    } else {
        le
    };
    if body_end - ls <= MAX_LINE {
        return (ls, le);
    }
    let anchor = if (ls..=le).contains(&start) {
        start
    } else if (ls..=le).contains(&end) {
        end.saturating_sub(MAX_LINE - LEAD)
    } else {
        ls
    };
    let a = floor(text, anchor.saturating_sub(LEAD).max(ls));
    let b = ceil(text, (a + MAX_LINE).min(body_end));
    (a, if b == body_end { le } else { b })
}

/// A text's lines, found by a [`Source`](super::Source)'s line index when
/// there is one, else by searching the text.
struct Lines<'a> {
    text: &'a str,
    index: Option<&'a super::Source>,
}

impl Lines<'_> {
    /// Start of the line holding `at`.
    fn start(&self, at: usize) -> usize {
        match self.index {
            Some(s) if at < self.text.len() => s.line_start(s.line_of(at)),
            _ => self.text[..at].rfind('\n').map_or(0, |i| i + 1),
        }
    }

    /// End of the line holding `at`: its `\n`'s offset, or the text's end.
    fn end(&self, at: usize) -> usize {
        match self.index {
            Some(s) if at < self.text.len() => {
                let line = s.line_of(at);
                if line < s.line_count() {
                    s.line_start(line + 1) - 1
                } else {
                    // The index has no line after a final break.
                    self.text.len() - usize::from(self.text.ends_with('\n'))
                }
            }
            _ => self.text[at..]
                .find('\n')
                .map_or(self.text.len(), |i| at + i),
        }
    }

    /// The 0-based number of the line starting at `at`.
    fn number(&self, at: usize) -> usize {
        match self.index {
            Some(s) if at < self.text.len() => s.line_of(at).saturating_sub(1),
            _ => count_newlines(&self.text[..at]),
        }
    }
}

fn count_newlines(s: &str) -> usize {
    memchr::memchr_iter(b'\n', s.as_bytes()).count()
}

fn floor(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str, offset: usize, len: usize) -> (String, String, usize, usize) {
        let (x, span) = Excerpt::around("f.md", text, offset, len);
        let c = x.read_span(&span, 0, 0).unwrap();
        let label = String::from_utf8_lossy(c.data()).into_owned();
        (x.text.clone(), label, c.line() + 1, c.column() + 1)
    }

    #[test]
    fn a_short_file_is_shown_whole_with_its_own_numbers() {
        let t = "a\nb\nc target\nd\ne\nf\n";
        let (text, label, line, col) = shown(t, 6, 6);
        assert_eq!(text, "a\nb\nc target\nd\ne");
        assert_eq!(label, "target");
        assert_eq!((line, col), (3, 3));
    }

    #[test]
    fn far_lines_are_left_out_and_numbers_kept() {
        let t: String = (1..=100).map(|i| format!("line {i}\n")).collect();
        let at = t.find("line 50").unwrap();
        let (text, label, line, col) = shown(&t, at, 7);
        assert_eq!(text, "line 48\nline 49\nline 50\nline 51\nline 52");
        assert_eq!(label, "line 50");
        assert_eq!((line, col), (50, 1));
    }

    #[test]
    fn a_long_line_is_clipped_around_the_span_with_the_file_column() {
        let t = format!(
            "head\n{}TARGET{}\ntail\n",
            "x".repeat(70_000),
            "y".repeat(5_000)
        );
        let at = t.find("TARGET").unwrap();
        let (text, label, line, col) = shown(&t, at, 6);
        assert!(text.len() < 600, "{}", text.len());
        assert!(text.contains("…xxx") && text.contains("yyy…"), "{text}");
        assert_eq!(label, "TARGET");
        assert_eq!((line, col), (2, 70_001));
    }

    #[test]
    fn crlf_lines_keep_their_breaks_and_a_span_past_the_end_is_clamped() {
        let t = "a\r\nbc\r\n";
        let (text, _, line, _) = shown(t, 3, 2);
        assert_eq!(text, "a\r\nbc\r\n");
        assert_eq!(line, 2);
        let (_, span) = Excerpt::around("f", t, 100, 5);
        assert_eq!(span.offset() + span.len(), t.len());
    }

    #[test]
    fn multibyte_text_is_cut_on_character_boundaries() {
        let t = format!("{}é target {}", "é".repeat(400), "ü".repeat(400));
        let at = t.find("target").unwrap();
        let (text, label, _, _) = shown(&t, at, 6);
        assert_eq!(label, "target");
        assert!(text.starts_with('…') && text.ends_with('…'));
    }

    #[test]
    fn a_span_over_many_lines_is_shown_from_its_start() {
        let t: String = (1..=100).map(|i| format!("l{i}\n")).collect();
        let (text, _, line, _) = shown(&t, 0, t.len());
        assert_eq!(line, 1);
        assert!(text.lines().count() <= 1 + CONTEXT_LINES, "{text}");
    }

    /// Numbered by the file's line index, an excerpt is the one counted
    /// from the top, at every offset (the end of a file after its last
    /// line break, CRLF and a BOM included).
    #[test]
    fn the_line_index_numbers_as_counting_does() {
        for t in [
            "a\nb\n\nc target\nd\n",
            "\u{feff}x\r\ny\r\n\r\nz",
            "one line",
            "",
            "\n\n",
        ] {
            let source = crate::doc::Source::from_text("f.md", t);
            for at in (0..=t.len()).filter(|&i| t.is_char_boundary(i)) {
                let (a, sa) = Excerpt::around("f.md", t, at, 0);
                let (b, sb) = Excerpt::around_in("f.md", &source, at, 0);
                assert_eq!(
                    (a.first_line, &a.text, sa),
                    (b.first_line, &b.text, sb),
                    "{t:?} at {at}"
                );
            }
        }
    }
}
