//! Split a markdown file into its YAML frontmatter and body, as byte ranges.
//!
//! gray_matter is the named crate for frontmatter, but it returns owned
//! strings without offsets, drops CRLF and cannot say where the block ends, so
//! it cannot be the lossless path; it is kept as a test oracle instead
//! (`tests/frontmatter_oracle.rs`). This splitter accepts what real files do:
//! an optional BOM, `---` with LF or CRLF (trailing spaces allowed), and a
//! closing `---` or `...` line.

use super::span::Span;

/// Where the parts of a frontmatter block lie in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frontmatter {
    /// The opening `---` line, line break included.
    pub open: Span,
    /// The YAML text between the fences.
    pub yaml: Span,
    /// The closing `---`/`...` line, line break included (if any).
    pub close: Span,
}

/// The result of splitting a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// No frontmatter: the body starts at the content start (after a BOM).
    None { body: Span },
    /// A complete frontmatter block followed by the body.
    Found {
        frontmatter: Frontmatter,
        body: Span,
    },
    /// An opening fence with no closing fence: the whole file is the body,
    /// and `open` says where the unterminated block starts.
    Unterminated { open: Span, body: Span },
}

impl Split {
    pub fn body(&self) -> Span {
        match self {
            Split::None { body } | Split::Found { body, .. } | Split::Unterminated { body, .. } => {
                *body
            }
        }
    }

    pub fn frontmatter(&self) -> Option<&Frontmatter> {
        match self {
            Split::Found { frontmatter, .. } => Some(frontmatter),
            _ => None,
        }
    }
}

/// Split `text`; `start` is where content begins (3 when there is a BOM).
pub fn split(text: &str, start: usize) -> Split {
    let whole = Span::new(start, text.len());
    let Some(open_end) = fence_line_end(text, start, &["---"]) else {
        return Split::None { body: whole };
    };
    let open = Span::new(start, open_end);
    let mut pos = open_end;
    while pos < text.len() {
        if let Some(end) = fence_line_end(text, pos, &["---", "..."]) {
            let frontmatter = Frontmatter {
                open,
                yaml: Span::new(open_end, pos),
                close: Span::new(pos, end),
            };
            return Split::Found {
                frontmatter,
                body: Span::new(end, text.len()),
            };
        }
        pos = match memchr::memchr(b'\n', &text.as_bytes()[pos..]) {
            Some(i) => pos + i + 1,
            None => text.len(),
        };
    }
    Split::Unterminated { open, body: whole }
}

/// If the line at `pos` is exactly one of `fences` (plus trailing spaces or
/// tabs), return the offset just past its line break.
fn fence_line_end(text: &str, pos: usize, fences: &[&str]) -> Option<usize> {
    let rest = &text[pos..];
    let line_end = memchr::memchr(b'\n', rest.as_bytes()).map_or(rest.len(), |i| i + 1);
    let line = rest[..line_end].trim_end_matches(['\n', '\r', ' ', '\t']);
    fences.contains(&line).then_some(pos + line_end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_lf_and_crlf_blocks() {
        let t = "---\nwave: 1\n---\nbody\n";
        let Split::Found { frontmatter, body } = split(t, 0) else {
            panic!()
        };
        assert_eq!(frontmatter.yaml.slice(t), "wave: 1\n");
        assert_eq!(body.slice(t), "body\n");
        let t = "---\r\nwave: 1\r\n---\r\nbody";
        let Split::Found { frontmatter, body } = split(t, 0) else {
            panic!()
        };
        assert_eq!(frontmatter.yaml.slice(t), "wave: 1\r\n");
        assert_eq!(frontmatter.close.slice(t), "---\r\n");
        assert_eq!(body.slice(t), "body");
    }

    #[test]
    fn bom_empty_and_dots() {
        let t = "\u{feff}---\n---\nx";
        let Split::Found { frontmatter, .. } = split(t, 3) else {
            panic!()
        };
        assert!(frontmatter.yaml.is_empty());
        let t = "---\na: 1\n...\nx";
        assert!(split(t, 0).frontmatter().is_some());
    }

    #[test]
    fn no_or_unterminated() {
        assert!(matches!(split("# Title\n---\n", 0), Split::None { .. }));
        assert!(matches!(split("----\na\n", 0), Split::None { .. }));
        assert!(matches!(
            split("---\na: 1\n", 0),
            Split::Unterminated { .. }
        ));
        assert!(matches!(split("", 0), Split::None { .. }));
        // A fence with nothing after it closes at end of file.
        let Split::Found { body, .. } = split("---\na: 1\n---", 0) else {
            panic!()
        };
        assert!(body.is_empty());
    }
}
