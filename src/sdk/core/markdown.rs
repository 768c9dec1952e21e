//! Markdown as GSD Core 1.14.0 walks it (`markdown-sectionizer.cjs`): ATX
//! headings outside fenced code, fences stripped, and `<tag>…</tag>` blocks
//! removed. Its milestone windowing and phase scans are built on these three,
//! so a roadmap's fenced example heading or collapsed archive is skipped
//! exactly where 1.14.0 skips it.
//!
//! Offsets are byte offsets into the original text (1.14.0 counts UTF-16
//! units; every use slices the same text it measured, so the two agree).

use super::super::compat::roadmap_text::re;

/// One ATX heading: `level` hashes, its trimmed text without a closing
/// `#` run, and the byte offset of its line in the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub level: usize,
    pub text: String,
    pub offset: usize,
}

/// A fence delimiter line: its character, run length and trailing text.
fn fence(line: &str) -> Option<(char, usize, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let run = rest.len() - rest.trim_start_matches(ch).len();
    (run >= 3).then(|| (ch, run, &rest[run..]))
}

/// The fence state machine shared by the stripper and the tokenizer.
#[derive(Default)]
struct Fences {
    open: Option<(char, usize)>,
}

/// What one line is to the fence state machine.
enum Line {
    /// A delimiter that opens or closes a fence, or a delimiter-shaped line
    /// inside one: dropped.
    Fence,
    /// Inside an open fence: dropped.
    Inside,
    /// Ordinary text outside any fence.
    Text,
}

impl Fences {
    fn step(&mut self, raw: &str) -> Line {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some((ch, len, trailing)) = fence(line) {
            match self.open {
                None if ch == '`' && trailing.contains('`') => {}
                None => {
                    self.open = Some((ch, len));
                    return Line::Fence;
                }
                Some((oc, ol)) => {
                    if ch == oc && len >= ol && trailing.chars().all(char::is_whitespace) {
                        self.open = None;
                    }
                    return Line::Fence;
                }
            }
        }
        if self.open.is_some() {
            Line::Inside
        } else {
            Line::Text
        }
    }
}

/// `stripFencedCode`: the text without fenced blocks (delimiters and
/// content), lines kept as they were.
pub fn strip_fenced_code(content: &str) -> String {
    let mut fences = Fences::default();
    let kept: Vec<&str> = content
        .split('\n')
        .filter(|raw| matches!(fences.step(raw), Line::Text))
        .collect();
    kept.join("\n")
}

/// `tokenizeHeadings`: every ATX heading outside fenced code, in order.
pub fn tokenize_headings(content: &str) -> Vec<Heading> {
    let mut out = Vec::new();
    if content.is_empty() {
        return out;
    }
    let mut fences = Fences::default();
    let mut offset = 0;
    for raw in content.split('\n') {
        if matches!(fences.step(raw), Line::Text) {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            if let Some(h) = heading(line) {
                out.push(Heading {
                    level: h.0,
                    text: h.1,
                    offset,
                });
            }
        }
        offset += raw.len() + 1;
    }
    out
}

/// `collectSection(content, pick, {levelBounded: true}).body`: the lines
/// after the first heading `pick` takes, up to the next heading of its
/// level or a higher one, joined and trimmed at the end.
pub fn collect_section(content: &str, pick: impl Fn(&Heading) -> bool) -> Option<String> {
    let headings = tokenize_headings(content);
    let i = headings.iter().position(&pick)?;
    let line_of = |offset: usize| content[..offset].matches('\n').count();
    let start = line_of(headings[i].offset) + 1;
    let lines: Vec<&str> = content.split('\n').collect();
    let end = headings[i + 1..]
        .iter()
        .find(|h| h.level <= headings[i].level)
        .map_or(lines.len(), |h| line_of(h.offset));
    let body = lines
        .get(start..end.max(start))
        .unwrap_or_default()
        .join("\n");
    Some(
        body.trim_end_matches(super::super::compat::js::is_js_space)
            .to_string(),
    )
}

/// An ATX heading line: up to 3 spaces, 1–6 `#`, then nothing or a space
/// or tab and the text; the closing `#` run is not part of the text.
fn heading(line: &str) -> Option<(usize, String)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let hashes = rest.len() - rest.trim_start_matches('#').len();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let tail = &rest[hashes..];
    if !(tail.is_empty() || tail.starts_with([' ', '\t'])) {
        return None;
    }
    // `.*` stops at JavaScript's other line terminators and the pattern is
    // anchored at the line's end: a line holding one is no heading.
    if tail.contains(['\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    let text = tail.trim_start_matches([' ', '\t']);
    let text = re(r"[ \t]+#+[ \t]*$").replace(text, "");
    let text = re(r"^#+[ \t]*$").replace(&text, "");
    Some((hashes, super::super::compat::js::trim(&text).to_string()))
}

/// `stripTaggedBlocks(content, tag)`: every exact `<tag>…</tag>` block
/// removed (case-insensitive); an attributed `<tag open>` is not an opener,
/// and a body ends at the next `<tag>`, so an unclosed opener keeps its text.
///
/// Scanned by hand rather than with 1.14.0's pattern
/// (`/<tag>((?:(?!<tag>)[\s\S])*?)<\/tag>/gi`), whose lookahead at every
/// character ran in the backtracking engine and was a tenth of a
/// `roadmap analyze`; the tag is ASCII, so `/i` folds ASCII letters only.
pub fn strip_tagged_blocks(content: &str, tag: &str) -> String {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut out = String::with_capacity(content.len());
    let mut copied = 0;
    let mut opener = super::super::compat::js::find_ascii_ci(content, 0, &open);
    while let Some(o) = opener {
        let body = o + open.len();
        let next_open = super::super::compat::js::find_ascii_ci(content, body, &open);
        match super::super::compat::js::find_ascii_ci(content, body, &close) {
            // The body reaches its close before any other opener: removed.
            Some(c) if next_open.is_none_or(|n| c < n) => {
                out.push_str(&content[copied..o]);
                copied = c + close.len();
                opener = super::super::compat::js::find_ascii_ci(content, copied, &open);
            }
            // Another opener comes first (or no close at all): this one
            // is kept as text and the next opener is tried.
            _ => opener = next_open,
        }
    }
    out.push_str(&content[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_inside_fences_are_not_headings() {
        let text = "# Top\n```md\n## Fenced\n```\n## Real ##\n    ## indented code\n#nospace\n";
        let h = tokenize_headings(text);
        let texts: Vec<&str> = h.iter().map(|h| h.text.as_str()).collect();
        assert_eq!(texts, ["Top", "Real"]);
        assert_eq!(h[1].offset, text.find("## Real").unwrap());
        assert_eq!(h[1].level, 2);
    }

    #[test]
    fn a_line_separator_unmakes_a_heading() {
        assert!(tokenize_headings("### Phase 1: Da\u{2028}ta\n## Real\n").len() == 1);
        assert!(tokenize_headings("## A\rB\n").is_empty());
    }

    #[test]
    fn a_backtick_opener_with_a_backtick_in_its_info_is_text() {
        let text = "```a`b\n## Still a heading\n";
        assert_eq!(tokenize_headings(text).len(), 1);
        assert_eq!(strip_fenced_code(text), text);
    }

    #[test]
    fn a_tilde_inside_a_backtick_fence_does_not_close_it() {
        let text = "a\r\n```\r\n~~~\r\n## no\r\n```\r\nb";
        assert_eq!(strip_fenced_code(text), "a\r\nb");
        assert!(tokenize_headings(text).is_empty());
    }

    #[test]
    fn tagged_blocks_go_but_attributed_ones_stay() {
        let text = "x<details>old</details>y<details open>live</details>z<DETAILS>a</Details>";
        assert_eq!(
            strip_tagged_blocks(text, "details"),
            "xy<details open>live</details>z"
        );
        assert_eq!(
            strip_tagged_blocks("<details>a<details>b</details>", "details"),
            "<details>a"
        );
    }

    /// The hand scan against 1.14.0's own pattern, run by the regex engine,
    /// on every arrangement of openers, closers and text up to four pieces
    /// long (and a non-ASCII letter, a Kelvin sign and a line break).
    #[test]
    fn tagged_blocks_are_stripped_as_the_pattern_strips_them() {
        let pattern = re(r"(?i)<details>((?:(?!<details>)[\s\S])*?)</details>");
        let pieces = [
            "<details>",
            "</details>",
            "<DeTails>",
            "</DETAILS>",
            "<details open>",
            "é\n",
            "\u{212A}",
            "</details",
        ];
        let texts = super::super::built_inputs::concatenations(&pieces, 4);
        assert!(texts.len() > 4000);
        for t in &texts {
            let want = pattern.replace_all(t, "").into_owned();
            assert_eq!(strip_tagged_blocks(t, "details"), want, "{t:?}");
        }
    }
}
