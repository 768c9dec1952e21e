//! Byte spans and splice edits: the only way gsd ever changes a file.
//!
//! A `Span` is a half-open byte range into a file's full bytes (BOM included).
//! An `Edit` replaces one span. Applying edits splices bytes and never
//! re-renders anything, which is what makes a no-op edit byte-identical.

use serde::Serialize;

/// A half-open byte range `[start, end)` into a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }

    pub const fn empty(at: usize) -> Self {
        Self { start: at, end: at }
    }

    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }

    pub const fn contains(&self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }

    /// Whether `other` lies entirely inside this span.
    pub const fn covers(&self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// Whether the two spans share a byte, or are the same point (two
    /// edits of one place).
    pub const fn overlaps(&self, other: Span) -> bool {
        (self.start < other.end && other.start < self.end)
            || (self.start == other.start && self.end == other.end)
    }

    /// The text this span selects in `text` (empty if out of range).
    pub fn slice<'a>(&self, text: &'a str) -> &'a str {
        text.get(self.start..self.end).unwrap_or("")
    }

    pub const fn shift(&self, by: usize) -> Span {
        Span::new(self.start + by, self.end + by)
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(r: std::ops::Range<usize>) -> Self {
        Span::new(r.start, r.end)
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start, s.len()).into()
    }
}

/// One replacement of a byte span by new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

impl Edit {
    pub fn new(span: Span, replacement: impl Into<String>) -> Self {
        Self {
            span,
            replacement: replacement.into(),
        }
    }
}

/// Why a set of edits could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("edit {0:?} lies outside the file ({1} bytes)")]
    OutOfRange(Span, usize),
    #[error("edits {0:?} and {1:?} overlap")]
    Overlap(Span, Span),
    #[error("edit {0:?} does not fall on a character boundary")]
    NotCharBoundary(Span),
}

/// Apply non-overlapping edits to `text`, in any order, by splicing.
///
/// Bytes outside the edited spans are copied unchanged, so a file whose
/// edits replace every span by its own text comes back byte-identical.
pub fn apply_edits(text: &str, edits: &[Edit]) -> Result<String, EditError> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut cursor = 0;
    let mut prev: Option<Span> = None;
    for edit in sorted {
        let span = edit.span;
        if span.end > text.len() || span.start > span.end {
            return Err(EditError::OutOfRange(span, text.len()));
        }
        if !text.is_char_boundary(span.start) || !text.is_char_boundary(span.end) {
            return Err(EditError::NotCharBoundary(span));
        }
        if let Some(p) = prev {
            // Two insertions at the same point are fine; anything else overlapping is not.
            if span.start < p.end || (span.start == p.start && !(span.is_empty() || p.is_empty())) {
                return Err(EditError::Overlap(p, span));
            }
        }
        out.push_str(&text[cursor..span.start]);
        out.push_str(&edit.replacement);
        cursor = span.end;
        prev = Some(span);
    }
    out.push_str(&text[cursor..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splices_in_any_order() {
        let t = "phase: 4\nplan: 01\n";
        let edits = [
            Edit::new(Span::new(15, 17), "02"),
            Edit::new(Span::new(7, 8), "5"),
        ];
        assert_eq!(apply_edits(t, &edits).unwrap(), "phase: 5\nplan: 02\n");
    }

    #[test]
    fn identity_edits_are_byte_identical() {
        let t = "a\r\nb\nc";
        let edits = [
            Edit::new(Span::new(0, 1), "a"),
            Edit::new(Span::new(3, 4), "b"),
        ];
        assert_eq!(apply_edits(t, &edits).unwrap(), t);
    }

    #[test]
    fn rejects_overlap_and_out_of_range() {
        let t = "abcdef";
        assert!(matches!(
            apply_edits(
                t,
                &[
                    Edit::new(Span::new(0, 3), "x"),
                    Edit::new(Span::new(2, 4), "y")
                ]
            ),
            Err(EditError::Overlap(..))
        ));
        assert!(matches!(
            apply_edits(t, &[Edit::new(Span::new(4, 9), "x")]),
            Err(EditError::OutOfRange(..))
        ));
        assert!(matches!(
            apply_edits("é", &[Edit::new(Span::new(1, 2), "x")]),
            Err(EditError::NotCharBoundary(..))
        ));
    }
}
