//! Phase ids in phase-folder and file names as GSD Core 1.14.0 reads them
//! (`phase-id.cjs`, without a naming convention): a folder's phase token,
//! the padded phase number, and whether a file in a phase folder is that
//! phase's own artifact or a stray from another phase.
//!
//! 1.14.0 routes every scan of a phase folder through this membership rule
//! (a `04-VERIFICATION.md` misfiled in `03-foo/` is not phase 3's report);
//! gsd's answers in this dialect must drop and keep the same files.

use super::super::compat::roadmap_text::re;

/// `stripProjectCodePrefix`: `CK-01-foo` → `01-foo` (a code is a letter,
/// then letters, digits or `_`, then `-` before a digit).
pub fn strip_project_code(value: &str, case_insensitive: bool) -> &str {
    let pattern = if case_insensitive {
        r"^[A-Za-z][A-Za-z0-9_]*-[0-9]"
    } else {
        r"^[A-Z][A-Z0-9_]*-[0-9]"
    };
    match re(pattern).find(value).ok().flatten() {
        Some(m) => &value[m.end() - 1..],
        None => value,
    }
}

/// `normalizePhaseName`: the zero-padded phase number (`1` → `01`,
/// `3-2` → `03-02`, `12a.1` → `12a.1`); a custom id comes back as it is.
pub fn normalize_phase_name(phase: &str) -> String {
    let stripped = strip_project_code(phase, false);
    if let Some(c) = re(r"^([0-9]+)((?:-[0-9]+)+)([A-Za-z]?(?:\.[0-9]+)*)$")
        .captures(stripped)
        .ok()
        .flatten()
    {
        let subs: Vec<String> = c[2][1..].split('-').map(|s| format!("{s:0>2}")).collect();
        return format!("{:0>2}-{}{}", &c[1], subs.join("-"), &c[3]);
    }
    if let Some(c) = re(r"^([0-9]+)([A-Za-z])?((?:\.[0-9]+)*)")
        .captures(stripped)
        .ok()
        .flatten()
    {
        return format!(
            "{:0>2}{}{}",
            &c[1],
            c.get(2).map_or("", |g| g.as_str()),
            c.get(3).map_or("", |g| g.as_str())
        );
    }
    phase.to_string()
}

/// The segments of a name that make its phase token
/// (`derivePhaseTokenSegments`).
struct Segments<'a> {
    prefix: &'a str,
    tokens: Vec<&'a str>,
    first_letter_prefixed: bool,
}

fn segments(name: &str) -> Segments<'_> {
    let (prefix, rest) = match re(r"(?i)^([A-Z][A-Z0-9_]*)-([0-9].*)")
        .captures(name)
        .ok()
        .flatten()
    {
        Some(c) => {
            let rest = c.get(2).map_or("", |g| g.as_str());
            (&name[..name.len() - rest.len()], rest)
        }
        None => ("", name),
    };
    let mut tokens = Vec::new();
    let mut first_letter_prefixed = false;
    for (i, seg) in rest.split('-').enumerate() {
        let digit_first = seg.starts_with(|c: char| c.is_ascii_digit());
        if i == 0 {
            if digit_first {
                tokens.push(seg);
            } else if re(r"^[A-Za-z]{1,3}[0-9]").is_match(seg).unwrap_or(false) {
                tokens.push(seg);
                first_letter_prefixed = true;
            } else {
                break;
            }
        } else if (first_letter_prefixed && digit_first)
            || (!first_letter_prefixed && continuation(seg))
        {
            tokens.push(seg);
        } else {
            break;
        }
    }
    Segments {
        prefix,
        tokens,
        first_letter_prefixed,
    }
}

/// `isPhaseContinuationSegment`: two digits and no third.
fn continuation(seg: &str) -> bool {
    let b = seg.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_digit()
        && b[1].is_ascii_digit()
        && !b.get(2).is_some_and(u8::is_ascii_digit)
}

/// `extractPhaseToken`: a phase folder's token (`03-foo` → `03`,
/// `CK-01-2-x` → `CK-01-2`…); the whole name where it has none.
pub fn extract_phase_token(dir: &str) -> String {
    let s = segments(dir);
    if s.tokens.is_empty() {
        return dir.to_string();
    }
    let mut tokens = s.tokens;
    if !s.first_letter_prefixed
        && tokens.len() > 1
        && re(r"^[0-9]{2}[a-z][a-z0-9]*$")
            .is_match(tokens[tokens.len() - 1])
            .unwrap_or(false)
    {
        tokens.pop();
    }
    format!("{}{}", s.prefix, tokens.join("-"))
}

/// `isPhaseArtifact`: whether `file` in folder `dir` belongs to that
/// folder's phase. Where the folder's phase cannot be read, everything
/// belongs; so does a file that names no phase of its own.
pub fn is_phase_artifact(file: &str, dir: &str) -> bool {
    let s = segments(dir);
    if s.tokens.is_empty() {
        return true;
    }
    let literal = extract_phase_token(dir);
    let stripped_dir = strip_project_code(dir, true);
    let stripped = if stripped_dir != dir {
        extract_phase_token(stripped_dir)
    } else {
        literal.clone()
    };
    let leading = re(r"^([0-9]+)(?:-|$)")
        .captures(stripped_dir)
        .ok()
        .flatten()
        .map(|c| c[1].to_string());
    let candidates: Vec<String> = [Some(literal), Some(stripped), leading]
        .into_iter()
        .flatten()
        .filter(|t| !t.is_empty())
        .collect();
    matches_candidates(file, &candidates) || s.first_letter_prefixed
}

/// `matchesPhaseTokenCandidates`: the file starts with a candidate (as
/// written, padded or unpadded, any case) and `-`, `.` or `_`.
fn matches_candidates(file: &str, raw: &[String]) -> bool {
    let depad = |t: &str| -> String {
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            let trimmed = t.trim_start_matches('0');
            if trimmed.is_empty() { "0" } else { trimmed }.to_string()
        } else {
            t.to_string()
        }
    };
    let upper = file.to_uppercase();
    let hit = raw
        .iter()
        .flat_map(|t| [t.clone(), normalize_phase_name(t), depad(t)])
        .map(|t| t.to_uppercase())
        .any(|c| {
            ["-", ".", "_"]
                .iter()
                .any(|sep| upper.starts_with(&format!("{c}{sep}")))
        });
    hit || segments(file).tokens.is_empty()
}

/// `scopeToPhase`: the names in a phase folder's listing that are its
/// phase's own.
pub fn scope_to_phase<'a>(files: &'a [String], dir: &str) -> Vec<&'a String> {
    files.iter().filter(|f| is_phase_artifact(f, dir)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_as_gsd_core_reads_them() {
        for (dir, token) in [
            ("03-foo", "03"),
            ("03.1-hotfix", "03.1"),
            ("CK-01-foundation", "CK-01"),
            ("05-80-20-cleanup", "05-80-20"),
            ("01-02-x", "01-02"),
            ("01-02ab", "01"),
            ("P0.3-2-slug", "P0.3-2"),
            ("notes", "notes"),
            ("123-big", "123"),
            ("01-123-x", "01"),
        ] {
            assert_eq!(extract_phase_token(dir), token, "{dir}");
        }
    }

    #[test]
    fn padded_phase_numbers() {
        for (phase, padded) in [
            ("1", "01"),
            ("12A", "12A"),
            ("3.1", "03.1"),
            ("3-2", "03-02"),
            ("CK-7", "07"),
            ("ck-7", "ck-7"),
            ("AUTH-x", "AUTH-x"),
            ("2b.1x", "02b.1"),
        ] {
            assert_eq!(normalize_phase_name(phase), padded, "{phase}");
        }
    }

    #[test]
    fn a_stray_from_another_phase_is_not_this_phases_artifact() {
        assert!(is_phase_artifact("03-VERIFICATION.md", "03-foo"));
        assert!(is_phase_artifact("3-VERIFICATION.md", "03-foo"));
        assert!(is_phase_artifact("01-VERIFICATION.md", "1-unpadded"));
        assert!(is_phase_artifact("01-VERIFICATION.md", "CK-01-x"));
        assert!(is_phase_artifact("05-UAT.md", "05-80-20-cleanup"));
        assert!(is_phase_artifact("01.1-CONTEXT.md", "01-a"));
        assert!(is_phase_artifact("VERIFICATION.md", "03-foo"));
        assert!(is_phase_artifact("04-VERIFICATION.md", "notes"));
        assert!(!is_phase_artifact("04-VERIFICATION.md", "03-foo"));
        assert!(!is_phase_artifact("02.1-X.md", "01-a"));
        let files = vec!["03-A.md".to_string(), "04-B.md".to_string()];
        assert_eq!(scope_to_phase(&files, "03-x"), vec![&files[0]]);
    }
}
