//! A file's bytes as read, with everything needed to write them back exactly.
//!
//! `Source` never normalizes: it records the newline style (LF, CRLF, mixed),
//! the UTF-8 BOM and whether the content is valid UTF-8, and offers a line
//! index for turning byte offsets into 1-based line/column positions.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::span::Span;

/// How lines end in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NewlineStyle {
    /// No line break at all (a one-line or empty file).
    None,
    Lf,
    Crlf,
    /// Both CRLF and bare LF occur.
    Mixed,
}

impl NewlineStyle {
    pub fn detect(text: &[u8]) -> Self {
        Self::of_counts(newline_counts(text))
    }

    fn of_counts((crlf, lf): (usize, usize)) -> Self {
        match (crlf, lf) {
            (0, 0) => NewlineStyle::None,
            (0, _) => NewlineStyle::Lf,
            (_, 0) => NewlineStyle::Crlf,
            _ => NewlineStyle::Mixed,
        }
    }
}

/// How many lines end in CRLF and how many in a bare LF.
fn newline_counts(text: &[u8]) -> (usize, usize) {
    let mut crlf = 0usize;
    let mut lf = 0usize;
    for pos in memchr::memchr_iter(b'\n', text) {
        if pos > 0 && text[pos - 1] == b'\r' {
            crlf += 1;
        } else {
            lf += 1;
        }
    }
    (crlf, lf)
}

/// The content of a file: text when it is valid UTF-8, raw bytes otherwise.
#[derive(Debug, Clone)]
enum Content {
    Text(String),
    /// Not UTF-8: kept for a byte-exact write-back, never parsed.
    Bytes {
        bytes: Vec<u8>,
        error_at: usize,
    },
}

/// One file, exactly as read.
#[derive(Debug, Clone)]
pub struct Source {
    path: PathBuf,
    content: Content,
    newline: NewlineStyle,
    /// The line break a new line gets ([`Source::eol`]).
    eol: &'static str,
    bom: bool,
    /// Byte offset of each line's start, as u32 (a file gsd reads is at
    /// most a few MB): the index is kept for every file of the tree.
    line_starts: Box<[u32]>,
    /// Characters before each [`CHAR_BLOCK`]-byte block, built on the first
    /// column asked for deep into a long line: thousands of findings on
    /// one 200 KB line would otherwise count that line's characters once
    /// each (quadratic).
    char_marks: std::sync::OnceLock<Box<[u32]>>,
}

/// Bytes per block of [`Source::char_marks`]; a column never counts more
/// than this many bytes beyond a mark.
const CHAR_BLOCK: usize = 4096;

/// Characters in a run of UTF-8 bytes that may start or end inside a
/// character: every byte but a continuation byte starts one.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

pub const BOM: &str = "\u{feff}";

impl Source {
    /// Build a source from raw bytes (the path is used for messages only).
    pub fn from_bytes(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Self {
        let counts = newline_counts(&bytes);
        let newline = NewlineStyle::of_counts(counts);
        let eol = if counts.0 > counts.1 { "\r\n" } else { "\n" };
        let line_starts = line_starts(&bytes, counts.0 + counts.1);
        let bom = bytes.starts_with(BOM.as_bytes());
        let content = match String::from_utf8(bytes) {
            Ok(text) => Content::Text(text),
            Err(e) => {
                let error_at = e.utf8_error().valid_up_to();
                Content::Bytes {
                    bytes: e.into_bytes(),
                    error_at,
                }
            }
        };
        Source {
            path: path.into(),
            content,
            newline,
            eol,
            bom,
            line_starts,
            char_marks: std::sync::OnceLock::new(),
        }
    }

    pub fn from_text(path: impl Into<PathBuf>, text: impl Into<String>) -> Self {
        Self::from_bytes(path, text.into().into_bytes())
    }

    pub fn read(path: &Path) -> std::io::Result<Self> {
        Ok(Self::from_bytes(path, std::fs::read(path)?))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The full text, BOM included, or `None` when the file is not UTF-8.
    pub fn text(&self) -> Option<&str> {
        match &self.content {
            Content::Text(t) => Some(t),
            Content::Bytes { .. } => None,
        }
    }

    /// The full text, or "" for a file that is not UTF-8.
    pub fn text_or_empty(&self) -> &str {
        self.text().unwrap_or("")
    }

    /// Byte offset of the first invalid UTF-8 sequence, if any.
    pub fn utf8_error_at(&self) -> Option<usize> {
        match &self.content {
            Content::Text(_) => None,
            Content::Bytes { error_at, .. } => Some(*error_at),
        }
    }

    pub fn bytes(&self) -> &[u8] {
        match &self.content {
            Content::Text(t) => t.as_bytes(),
            Content::Bytes { bytes, .. } => bytes,
        }
    }

    pub fn len(&self) -> usize {
        self.bytes().len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }

    pub fn newline(&self) -> NewlineStyle {
        self.newline
    }

    /// The line break for a line gsd inserts: the one most of the file's
    /// lines end with, so that a CRLF file with a stray LF line (a tool
    /// appended it) still gets CRLF lines, and LF on a tie or no break.
    pub fn eol(&self) -> &'static str {
        self.eol
    }

    pub fn has_bom(&self) -> bool {
        self.bom
    }

    /// Offset where content starts (after the BOM, if any).
    pub fn content_start(&self) -> usize {
        if self.bom { BOM.len() } else { 0 }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        let Ok(offset) = u32::try_from(offset) else {
            return self.line_starts.len();
        };
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// 1-based (line, column) of a byte offset; the column counts characters.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset);
        let start = self.line_starts[line - 1] as usize;
        let offset = offset.min(self.len());
        let col = match self.text() {
            Some(_) if offset - start > CHAR_BLOCK => {
                self.chars_before(offset) - self.chars_before(start) + 1
            }
            Some(t) => {
                t.get(start..offset)
                    .map_or(offset - start, |s| s.chars().count())
                    + 1
            }
            None => offset - start + 1,
        };
        (line, col)
    }

    /// Characters before byte `offset` of the text, from the nearest mark.
    fn chars_before(&self, offset: usize) -> usize {
        let bytes = self.bytes();
        let marks = self.char_marks.get_or_init(|| {
            let mut total = 0u32;
            bytes
                .chunks(CHAR_BLOCK)
                .map(|block| {
                    let before = total;
                    total += chars_in(block) as u32;
                    before
                })
                .collect()
        });
        let block = offset / CHAR_BLOCK;
        marks.get(block).map_or(0, |&m| m as usize)
            + chars_in(&bytes[(block * CHAR_BLOCK).min(offset)..offset])
    }

    /// Byte offset of the start of a 1-based line (clamped to the file end).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.saturating_sub(1))
            .map_or(self.len(), |&s| s as usize)
    }

    /// The span of a 1-based line without its line break.
    pub fn line_span(&self, line: usize) -> Span {
        let start = self.line_start(line);
        let mut end = self.line_start(line + 1);
        let b = self.bytes();
        if end > start && b.get(end - 1) == Some(&b'\n') {
            end -= 1;
            if end > start && b.get(end - 1) == Some(&b'\r') {
                end -= 1;
            }
        }
        Span::new(start, end)
    }
}

/// The start of every line; `breaks` is the number of `\n` in `bytes`,
/// so the index is allocated once at its exact size.
fn line_starts(bytes: &[u8], breaks: usize) -> Box<[u32]> {
    let mut starts = Vec::with_capacity(breaks + 1);
    starts.push(0);
    starts.extend(
        memchr::memchr_iter(b'\n', bytes)
            .map(|p| p + 1)
            .filter(|&p| p < bytes.len())
            .map(|p| u32::try_from(p).unwrap_or(u32::MAX)),
    );
    starts.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_newline_styles() {
        assert_eq!(NewlineStyle::detect(b"a\nb\n"), NewlineStyle::Lf);
        assert_eq!(NewlineStyle::detect(b"a\r\nb\r\n"), NewlineStyle::Crlf);
        assert_eq!(NewlineStyle::detect(b"a\r\nb\n"), NewlineStyle::Mixed);
        assert_eq!(NewlineStyle::detect(b"abc"), NewlineStyle::None);
    }

    #[test]
    fn a_new_line_takes_the_ending_most_lines_have() {
        let eol = |t: &str| Source::from_text("x.md", t).eol();
        assert_eq!(eol("a\r\nb\r\nc\n"), "\r\n");
        assert_eq!(eol("a\r\nb\nc\n"), "\n");
        assert_eq!(eol("a\r\nb\n"), "\n");
        assert_eq!(eol("a\r\n"), "\r\n");
        assert_eq!(eol("abc"), "\n");
    }

    #[test]
    fn keeps_bom_and_bytes() {
        let s = Source::from_text("x.md", "\u{feff}---\r\nk: v\r\n---\r\n");
        assert!(s.has_bom());
        assert_eq!(s.content_start(), 3);
        assert_eq!(s.newline(), NewlineStyle::Crlf);
        assert_eq!(s.bytes(), "\u{feff}---\r\nk: v\r\n---\r\n".as_bytes());
    }

    #[test]
    fn non_utf8_is_kept_not_parsed() {
        let s = Source::from_bytes("x.md", vec![b'a', 0xff, b'\n', b'b']);
        assert!(s.text().is_none());
        assert_eq!(s.utf8_error_at(), Some(1));
        assert_eq!(s.bytes(), &[b'a', 0xff, b'\n', b'b']);
    }

    #[test]
    fn columns_deep_in_a_long_line_count_chars_as_a_direct_count_does() {
        let line = "aé€😀".repeat(3000);
        let text = format!("x\n{line}\n{line}");
        let s = Source::from_text("t", text.clone());
        for (offset, _) in text.char_indices().step_by(997) {
            let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            let want = text[start..offset].chars().count() + 1;
            assert_eq!(s.line_col(offset).1, want, "offset {offset}");
        }
    }

    #[test]
    fn line_columns_count_chars() {
        let s = Source::from_text("x.md", "ab\nçé x\r\nlast");
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(3), (2, 1));
        assert_eq!(s.line_col(8), (2, 4));
        assert_eq!(s.line_span(2).slice(s.text().unwrap()), "çé x");
        assert_eq!(s.line_col(s.len()), (3, 5));
        assert_eq!(s.line_count(), 3);
    }
}
