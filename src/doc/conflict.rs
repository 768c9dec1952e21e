//! Merge-conflict markers: the one definition every layer uses (the edit
//! layer refuses to compute edits on a conflicted file, the store refuses
//! to write one), so they cannot disagree on what a conflict is.

/// The first line that opens a merge conflict (`<<<<<<< …`, or a bare
/// `<<<<<<<` with LF or CRLF), 1-based.
pub fn first_conflict_line(bytes: &[u8]) -> Option<usize> {
    bytes
        .split(|&b| b == b'\n')
        .position(|l| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            l.starts_with(b"<<<<<<< ") || l == b"<<<<<<<"
        })
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_opening_marker() {
        assert_eq!(first_conflict_line(b"a\n<<<<<<< HEAD\nb\n"), Some(2));
        assert_eq!(first_conflict_line(b"a\r\n<<<<<<<\r\nb\r\n"), Some(2));
        assert_eq!(first_conflict_line(b"a <<<<<<< b\n"), None);
        assert_eq!(first_conflict_line(b"<<<<<<<x\n"), None);
    }
}
