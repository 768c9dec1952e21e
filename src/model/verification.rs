//! A phase's VERIFICATION.md: whether it says the phase passed.
//!
//! GSD's verifier writes it when a phase's work is done and checked, so a
//! pass is a record that the phase ran to its end, whatever SUMMARY files
//! were written: the linter weighs a finished phase's missing records as
//! history on it, and so does every rule about the roadmap's records.

use super::Document;

/// Whether `d` says the phase passed: `status: passed` (or `verdict: PASS`)
/// in its frontmatter, or a `**Status:** passed …` line near its top.
pub fn passed(d: &Document) -> bool {
    let outcome = d
        .fm()
        .and_then(|m| m.get("status").or_else(|| m.get("verdict")))
        .and_then(|n| n.as_str().map(str::to_owned));
    if let Some(v) = outcome {
        return says_passed(&v);
    }
    d.text().lines().take(30).any(|l| {
        let t = l.trim().trim_start_matches(['-', '*', '#', ' ']);
        t.get(..7)
            .is_some_and(|h| h.eq_ignore_ascii_case("status:"))
            && says_passed(&t[7..])
    })
}

/// `passed — local tests and UAT`, `PASS` or `✅ Complete` (a check mark
/// and a done word), not the template's `passed | gaps_found |
/// human_needed` (a choice never made).
fn says_passed(v: &str) -> bool {
    let v = v
        .trim()
        .trim_matches(['*', '`', '"', '{', '}'])
        .trim()
        .to_lowercase();
    let (ticked, v) = match v.strip_prefix('✅') {
        Some(rest) => (true, rest.trim_start().to_owned()),
        None => (false, v),
    };
    let first = v.split(|c: char| !c.is_alphanumeric() && c != '_').next();
    !v.contains('|')
        && (matches!(first, Some("passed" | "pass"))
            || (ticked && matches!(first, Some("complete" | "completed" | "verified"))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Source;
    use std::path::PathBuf;

    fn doc(text: &str) -> Document {
        let path = PathBuf::from("01-VERIFICATION.md");
        Document::parse(
            Source::from_bytes(path.clone(), text.as_bytes().to_vec()),
            path,
        )
    }

    #[test]
    fn outcomes() {
        assert!(passed(&doc("---\nstatus: passed\n---\n# V\n")));
        assert!(passed(&doc("---\nphase: 8\nverdict: PASS\n---\n")));
        assert!(passed(&doc(
            "# V\n\n**Status:** passed — local tests and UAT\n"
        )));
        assert!(!passed(&doc(
            "---\nstatus: passed | gaps_found | human_needed\n---\n"
        )));
        assert!(!passed(&doc("---\nstatus: gaps_found\n---\n")));
        assert!(!passed(&doc("---\nverdict: FAIL\n---\n")));
        assert!(!passed(&doc("# V\n\nStatus: passing soon\n")));
        assert!(!passed(&doc("# Verification\n\nNothing here.\n")));
        assert!(passed(&doc("# V\n\n## Status: ✅ Complete\n")));
        assert!(!passed(&doc("# V\n\n## Status: Complete with gaps\n")));
        assert!(!passed(&doc("# V\n\n## Status: ✅ Gaps found\n")));
    }
}
