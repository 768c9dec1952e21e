//! A phase's checklist mark (`- [x] … Phase N:`), found by hand.
//!
//! `roadmap analyze` asks, for every phase of the milestone, whether the
//! roadmap ticks it: 1.14.0's
//! `/-\s*\[(x| )\]\s*.*Phase\s+N(?:\s*\([^)\n]{0,200}\))?[:\s]/i`, built
//! from that phase's number. Compiled once per phase it was a tenth of a
//! 22-phase `roadmap analyze`; here the phase number is a [`PhaseToken`]
//! and the rest of the pattern is walked by hand, the way the regex engine
//! reads it (`\s` is JavaScript's white space, `.` any character but `\n`,
//! and `(?i)` folds ASCII letters only, as gsd's patterns are compiled).
//! The test holds it to that pattern on thousands of built texts.

use super::super::compat::js::is_js_space;

/// One part of a phase number's pattern: `0*` (any padding) or a literal
/// compared with ASCII letters folded.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Zeros,
    Literal(String),
}

/// `phaseMarkdownRegexSource(phaseNum)`, kept as its parts: the phase
/// number as a pattern that accepts any padding of its numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseToken(Vec<Piece>);

impl PhaseToken {
    /// `0*` and then `literal`, for each pair given.
    pub(super) fn padded(parts: &[(bool, String)]) -> PhaseToken {
        let mut pieces = Vec::new();
        for (zeros, literal) in parts {
            if *zeros {
                pieces.push(Piece::Zeros);
            }
            if !literal.is_empty() {
                pieces.push(Piece::Literal(literal.clone()));
            }
        }
        PhaseToken(pieces)
    }

    /// The token as pattern text (what 1.14.0 splices into its patterns).
    pub fn source(&self) -> String {
        self.0
            .iter()
            .map(|p| match p {
                Piece::Zeros => "0*".to_owned(),
                Piece::Literal(l) => fancy_regex::escape(l).into_owned(),
            })
            .collect()
    }

    /// Every end of a match of the token starting at `at` in `text`.
    fn ends(&self, text: &str, at: usize) -> Vec<usize> {
        let mut ends = vec![at];
        for piece in &self.0 {
            let mut next = Vec::new();
            for &p in &ends {
                match piece {
                    Piece::Zeros => {
                        let run = text[p..].bytes().take_while(|b| *b == b'0').count();
                        next.extend(p..=p + run);
                    }
                    Piece::Literal(l) => {
                        if starts_with_folded(&text[p..], l) {
                            next.push(p + l.len());
                        }
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            ends = next;
        }
        ends
    }
}

/// Whether `text` starts with `literal`, ASCII letters compared without
/// case (every other character as it is).
fn starts_with_folded(text: &str, literal: &str) -> bool {
    text.len() >= literal.len()
        && text.as_bytes()[..literal.len()].eq_ignore_ascii_case(literal.as_bytes())
}

/// The byte after the run of white space starting at `at`.
fn after_space(text: &str, at: usize) -> usize {
    at + text[at..]
        .char_indices()
        .find(|(_, c)| !is_js_space(*c))
        .map_or(text.len() - at, |(i, _)| i)
}

/// The character in the brackets of the first checklist entry that marks
/// the phase `token` names (`x`, `X` or a space), `None` where no entry
/// does.
pub fn phase_mark(text: &str, token: &PhaseToken) -> Option<char> {
    let bytes = text.as_bytes();
    for dash in memchr::memchr_iter(b'-', bytes) {
        let open = after_space(text, dash + 1);
        if bytes.get(open) != Some(&b'[') {
            continue;
        }
        let mark = match bytes.get(open + 1) {
            Some(b'x') => 'x',
            Some(b'X') => 'X',
            Some(b' ') => ' ',
            _ => continue,
        };
        if bytes.get(open + 2) != Some(&b']') {
            continue;
        }
        if names_phase(text, open + 3, token) {
            return Some(mark);
        }
    }
    None
}

/// Whether `\s*.*Phase\s+TOKEN(?:\s*\([^)\n]{0,200}\))?[:\s]` matches at
/// `from`: `Phase` may start anywhere from `from` to the end of the line
/// the white space after `from` runs into.
fn names_phase(text: &str, from: usize, token: &PhaseToken) -> bool {
    let spaced = after_space(text, from);
    let line_end =
        memchr::memchr(b'\n', &text.as_bytes()[spaced..]).map_or(text.len(), |i| spaced + i);
    (from..=line_end)
        .filter(|k| text.is_char_boundary(*k))
        .any(|k| phase_at(text, k, token))
}

/// Whether `Phase\s+TOKEN(?:\s*\([^)\n]{0,200}\))?[:\s]` matches at `at`.
fn phase_at(text: &str, at: usize, token: &PhaseToken) -> bool {
    if !starts_with_folded(&text[at..], "phase") {
        return false;
    }
    let spaces = at + 5;
    let end = after_space(text, spaces);
    text[spaces..end]
        .char_indices()
        .map(|(i, c)| spaces + i + c.len_utf8())
        .flat_map(|number| token.ends(text, number))
        .any(|after| closes(text, after))
}

/// Whether `(?:\s*\([^)\n]{0,200}\))?[:\s]` matches at `at`.
fn closes(text: &str, at: usize) -> bool {
    let colon_or_space = |i: usize| {
        text[i..]
            .chars()
            .next()
            .is_some_and(|c| c == ':' || is_js_space(c))
    };
    if colon_or_space(at) {
        return true;
    }
    let open = after_space(text, at);
    if text.as_bytes().get(open) != Some(&b'(') {
        return false;
    }
    for (n, (i, c)) in text[open + 1..].char_indices().enumerate() {
        if n > 200 || c == '\n' {
            return false;
        }
        if c == ')' {
            return colon_or_space(open + 1 + i + 1);
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sdk::compat::roadmap_text::{group, re};

    fn pattern(token: &PhaseToken) -> String {
        format!(
            r"(?i)-\s*\[(x| )\]\s*.*Phase\s+{}(?:\s*\([^)\n]{{0,200}}\))?[:\s]",
            token.source()
        )
    }

    fn by_pattern(text: &str, token: &PhaseToken) -> Option<char> {
        re(&pattern(token))
            .captures(text)
            .unwrap()
            .map(|c| group(&c, 1).chars().next().unwrap())
    }

    #[test]
    fn the_mark_is_the_one_the_pattern_finds() {
        let tokens = [
            PhaseToken::padded(&[(true, "3".into())]),
            PhaseToken::padded(&[(true, "0".into())]),
            PhaseToken::padded(&[(true, "1".into()), (true, "-".into()), (false, "2".into())]),
            PhaseToken::padded(&[(true, "2".into()), (false, "a.1".into())]),
            PhaseToken::padded(&[(false, "B7x".into())]),
        ];
        let pieces = [
            "- [x] ",
            "- [ ]",
            "-[X]",
            "-",
            "[ ]",
            "Phase ",
            "phase",
            "PHASE\t",
            " ",
            "\n",
            "\u{85}",
            "\u{a0}",
            "0",
            "3",
            "03",
            "1-2",
            "1-02",
            "2A.1",
            "2a.1",
            "B7X",
            "(note)",
            "(",
            ")",
            ":",
            "é",
            "- [x] Phase ",
            "- [ ] **Phase ",
        ];
        let texts = crate::sdk::core::built_inputs::concatenations(&pieces, 4);
        let mut marked = 0;
        for token in &tokens {
            for text in &texts {
                let want = by_pattern(text, token);
                assert_eq!(phase_mark(text, token), want, "{text:?} {token:?}");
                marked += usize::from(want.is_some());
            }
        }
        // The inputs reach both answers.
        assert!(marked > 3_000, "{marked}");
    }

    #[test]
    fn a_parenthesised_note_counts_up_to_200_characters() {
        let token = PhaseToken::padded(&[(true, "4".into())]);
        for n in [0, 1, 199, 200, 201, 300] {
            for note in ["a".repeat(n), "é".repeat(n)] {
                for text in [
                    format!("- [x] Phase 4 ({note}):"),
                    format!("- [x] Phase 04({note})\n"),
                    format!("- [x] Phase 4 ({note}\n):"),
                ] {
                    assert_eq!(
                        phase_mark(&text, &token),
                        by_pattern(&text, &token),
                        "{text:?}"
                    );
                }
            }
        }
    }
}
