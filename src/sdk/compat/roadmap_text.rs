//! ROADMAP.md the way gsd-sdk 1.42.3 reads it: regular expressions over the
//! text, scoped to the "current milestone" slice it cuts out. Workflows
//! read `roadmap.get-phase` and `roadmap.analyze` in this shape, so parity
//! means the same slice, the same phase headings and the same disk counts.
//! The patterns use lookahead, hence `fancy_regex`; `\d`, `\s` and case
//! folding are made JavaScript's when a pattern is compiled ([`re`]).

use std::path::Path;
use std::sync::OnceLock;

use super::js_regex::JsRegex;

/// A pattern that is known to compile (they are all literals or escaped),
/// compiled once per process and kept for its life: `roadmap.analyze`
/// matches every phase folder against every roadmap phase with the same few
/// patterns, and compiling them again (or cloning them, which rebuilds
/// their match caches) was most of its time. A call uses a few dozen.
pub fn re(pattern: &str) -> &'static JsRegex {
    thread_local! {
        static CACHE: std::cell::RefCell<std::collections::HashMap<String, &'static JsRegex>> =
            std::cell::RefCell::default();
    }
    CACHE.with(|c| {
        if let Some(r) = c.borrow().get(pattern) {
            return *r;
        }
        let r: &'static JsRegex = Box::leak(Box::new(JsRegex::new(js_classes(
            &js_line_ends(&ascii_case(pattern)),
            false,
        ))));
        c.borrow_mut().insert(pattern.to_string(), r);
        r
    })
}

/// A pattern with a leading `m` flag given `R` too: in JavaScript's
/// multiline mode `^` and `$` stop at `\r` as well as `\n`, so a CRLF
/// line's `(.+)$` ends before its `\r` (fancy-regex's `R` is that rule).
pub fn js_line_ends(pattern: &str) -> String {
    let Some(close) = pattern.strip_prefix("(?").and_then(|r| r.find(')')) else {
        return pattern.to_string();
    };
    let flags = &pattern[2..2 + close];
    if !flags.contains('m') || flags.contains('R') || !flags.chars().all(|c| "imsU".contains(c)) {
        return pattern.to_string();
    }
    format!("(?{flags}R){}", &pattern[3 + close..])
}

/// A pattern with a leading `i` flag rewritten so only ASCII letters fold
/// (`Phase` becomes `[Pp][Hh][Aa][Ss][Ee]`, `[A-Z]` becomes `[A-Za-z]`).
/// That is JavaScript's non-Unicode `/i`, which gsd-sdk's patterns are
/// written for (Unicode folding would also let `ſ` match `s`), and it
/// spares compiling Unicode case-folding tables for every `[^\n]`, which
/// was most of a call's time.
pub fn ascii_case(pattern: &str) -> String {
    let Some(close) = pattern.strip_prefix("(?").and_then(|r| r.find(')')) else {
        return pattern.to_string();
    };
    let flags = &pattern[2..2 + close];
    if !flags.contains('i') || !flags.chars().all(|c| "ims".contains(c)) {
        return pattern.to_string();
    }
    let kept: String = flags.chars().filter(|c| *c != 'i').collect();
    let mut out = if kept.is_empty() {
        String::new()
    } else {
        format!("(?{kept})")
    };
    let chars: Vec<char> = pattern[3 + close..].chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            out.push(c);
            if let Some(n) = chars.get(i + 1) {
                out.push(*n);
            }
            i += 2;
            continue;
        }
        if c == '(' && chars.get(i + 1) == Some(&'?') {
            // A group's own syntax (`(?:`, `(?!`, `(?=`) has no letters to fold.
            out.push_str("(?");
            i += 2;
            continue;
        }
        if c == '[' {
            // Copy the class, then add the other case of its letters.
            let mut j = i + 1;
            let mut body = String::new();
            if chars.get(j) == Some(&'^') {
                body.push('^');
                j += 1;
            }
            if chars.get(j) == Some(&']') {
                body.push(']');
                j += 1;
            }
            let mut extra = String::new();
            while j < chars.len() && chars[j] != ']' {
                let d = chars[j];
                if d == '\\' {
                    body.push(d);
                    if let Some(n) = chars.get(j + 1) {
                        body.push(*n);
                    }
                    j += 2;
                    continue;
                }
                if chars.get(j + 1) == Some(&'-') && chars.get(j + 2).is_some_and(|e| *e != ']') {
                    let e = chars[j + 2];
                    body.extend([d, '-', e]);
                    if d.is_ascii_alphabetic() && e.is_ascii_alphabetic() {
                        let swap = |x: char| {
                            if x.is_ascii_uppercase() {
                                x.to_ascii_lowercase()
                            } else {
                                x.to_ascii_uppercase()
                            }
                        };
                        extra.extend([swap(d), '-', swap(e)]);
                    }
                    j += 3;
                    continue;
                }
                // A literal `-` (first, last, or after a range) is escaped:
                // the other-case letters appended after it would otherwise
                // turn it into a range (`[A-Za-z_-]` into `[…_-a…]`).
                if d == '-' {
                    body.push_str("\\-");
                } else {
                    body.push(d);
                }
                if d.is_ascii_alphabetic() {
                    extra.push(if d.is_ascii_uppercase() {
                        d.to_ascii_lowercase()
                    } else {
                        d.to_ascii_uppercase()
                    });
                }
                j += 1;
            }
            out.push('[');
            out.push_str(&body);
            out.push_str(&extra);
            out.push(']');
            i = j + 1;
            continue;
        }
        if c.is_ascii_alphabetic() {
            out.push('[');
            out.push(c.to_ascii_lowercase());
            out.push(c.to_ascii_uppercase());
            out.push(']');
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

macro_rules! lazy_re {
    ($name:ident, $pat:expr) => {
        fn $name() -> &'static JsRegex {
            static R: OnceLock<&'static JsRegex> = OnceLock::new();
            R.get_or_init(|| re($pat))
        }
    };
}

lazy_re!(details_block, r"(?i)<details\b[^>]*>[\s\S]*?</details>");
lazy_re!(heading_23, r"(?m)^#{2,3}\s");
lazy_re!(shipped_heading, r"(?im)^#{2,3}\s[^\n]*✅\s*SHIPPED\b");
lazy_re!(in_progress, r"(?:🚧|🟡)\s*\*\*v(\d+(?:\.\d+)+)\s");
lazy_re!(state_milestone, r"(?m)^milestone:\s*(.+)");
lazy_re!(next_phase_heading, r"(?i)\n#{2,4}\s+Phase\s+\d");
lazy_re!(
    generic_phase_details,
    r"(?im)^(#{1,3})\s+Phase\s+Details\b[^\n]*$"
);

/// Group `i` of a match, `""` when it did not take part.
pub fn group<'t>(c: &fancy_regex::Captures<'t, str>, i: usize) -> &'t str {
    c.get(i).map_or("", |g| g.as_str())
}

/// [`re`] of a pattern whose `\b` means what it means in JavaScript too:
/// a boundary between ASCII word characters and anything else
/// ([`JS_WORD_BOUNDARY`]), where the regex engine's own `\b` counts every
/// letter of every script (`规划planning` would hold no boundary).
pub fn js_re(pattern: &str) -> &'static JsRegex {
    re(&js_classes(pattern, true))
}

/// JavaScript's white space as literal characters (ECMAScript's
/// WhiteSpace and LineTerminator: U+FEFF is one, U+0085 is not, unlike the
/// regex engine's Unicode `\s`). Literal rather than `\u{…}` escapes: the
/// ASCII case folding [`re`] applies reads a class's escapes as letters.
const JS_SPACE_BODY: &str = "\t\n\u{b}\u{c}\r \u{a0}\u{1680}\u{2000}-\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{feff}";

/// `pattern` with JavaScript's meaning of `\d`, `\D`, `\s` and `\S` (and
/// of `\b` when `word_boundary`): JavaScript's `\d` is the ASCII digits
/// only, where the regex engine's is every script's (a fullwidth `１` in a
/// Chinese roadmap would be a phase number to gsd and not to GSD's tools),
/// and its white space holds the byte-order mark. Every pattern of GSD's
/// tools is a JavaScript one, so [`re`] applies this to all of them. An
/// ASCII digit class also spares compiling a Unicode automaton for it.
fn js_classes(pattern: &str, word_boundary: bool) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut in_class = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('b') if word_boundary && !in_class => out.push_str(JS_WORD_BOUNDARY),
                Some('d') => out.push_str(if in_class { "0-9" } else { "[0-9]" }),
                // A negated class nests inside a class as well as outside.
                Some('D') => out.push_str("[^0-9]"),
                Some('s') if in_class => out.push_str(JS_SPACE_BODY),
                Some('s') => {
                    out.push('[');
                    out.push_str(JS_SPACE_BODY);
                    out.push(']');
                }
                Some('S') => {
                    out.push_str("[^");
                    out.push_str(JS_SPACE_BODY);
                    out.push(']');
                }
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            },
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` first in the class (or after `^`) is a literal.
                let rest = chars.as_str();
                let lead = if rest.starts_with("^]") {
                    2
                } else {
                    usize::from(rest.starts_with(']'))
                };
                out.push_str(&rest[..lead]);
                chars = rest[lead..].chars();
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// JavaScript's `\b`: a boundary between an ASCII word character and
/// anything else (the regex engine's own `\b` counts every letter of every
/// script as a word character, so `规划planning` would hold no boundary).
pub const JS_WORD_BOUNDARY: &str =
    r"(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))";

/// JavaScript's `escapeRegex`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if ".*+?^${}()|[]\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn find(r: &JsRegex, s: &str) -> Option<(usize, usize)> {
    r.find(s).ok().flatten().map(|m| (m.start(), m.end()))
}

fn cap(r: &JsRegex, s: &str, i: usize) -> Option<String> {
    r.captures(s)
        .ok()
        .flatten()
        .and_then(|c| c.get(i).map(|m| m.as_str().to_string()))
}

/// `stripShippedMilestones`: no `<details>` blocks, no `## … ✅ SHIPPED` sections.
pub fn strip_shipped(content: &str) -> String {
    let without = details_block().replace_all(content, "").into_owned();
    let mut cuts: Vec<usize> = heading_23()
        .find_iter(&without)
        .filter_map(Result::ok)
        .map(|m| m.start())
        .filter(|&s| s > 0)
        .collect();
    cuts.dedup();
    let mut out = String::with_capacity(without.len());
    let mut start = 0;
    for end in cuts.into_iter().chain(std::iter::once(without.len())) {
        let section = &without[start..end];
        if !shipped_heading().is_match(section).unwrap_or(false) {
            out.push_str(section);
        }
        start = end;
    }
    out
}

/// The first `milestone:` line of STATE.md, unquoted.
pub fn state_milestone_version(project: &Path) -> Option<String> {
    let text = std::fs::read_to_string(project.join(".planning/STATE.md")).ok()?;
    let v = cap(state_milestone(), &text, 1)?;
    Some(unquote(v.trim()))
}

fn unquote(s: &str) -> String {
    let s = s.strip_prefix(['"', '\'']).unwrap_or(s);
    s.strip_suffix(['"', '\'']).unwrap_or(s).to_string()
}

/// `getMilestonePhaseFilter`: which phase folders belong to the current
/// milestone — those whose number (or custom id, or number after a
/// project code) is a phase heading of its roadmap slice. With no such
/// heading every folder belongs.
pub fn milestone_filter(project: &Path) -> impl Fn(&str) -> bool {
    let mut ids = std::collections::HashSet::new();
    if let Ok(raw) = std::fs::read(project.join(".planning/ROADMAP.md")) {
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let slice = current_milestone(&raw, project);
        for c in re(r"(?i)#{2,4}\s*Phase\s+([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*:")
            .captures_iter(slice.as_str())
            .flatten()
        {
            let n = group(&c, 1).trim_start_matches('0');
            ids.insert(if n.is_empty() {
                "0".to_string()
            } else {
                n.to_lowercase()
            });
        }
    }
    move |dir: &str| {
        if ids.is_empty() {
            return true;
        }
        let has =
            |p: &str, s: &str| cap(re(p), s, 1).is_some_and(|m| ids.contains(&m.to_lowercase()));
        let numeric = r"^0*(\d+[A-Za-z]?(?:\.\d+)*)";
        if has(numeric, dir) || has(r"^([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)", dir) {
            return true;
        }
        let stripped = re(r"(?i)^[A-Z]{1,6}-(?=\d)").replace(dir, "");
        stripped != dir && has(numeric, &stripped)
    }
}

/// `extractNextMilestoneSection`: the milestone after the current one
/// (version, display name, its section), for the manager's queue. None
/// when the current milestone is unknown or the last one.
pub fn next_milestone(content: &str, project: &Path) -> Option<(String, String, String)> {
    let cleaned = strip_shipped(content);
    let current = match state_milestone_version(project).map(|v| super::js::trim(&v).to_string()) {
        Some(v) if !v.is_empty() => {
            if re(r"(?i)^v\d").is_match(&v).unwrap_or(false) {
                v
            } else {
                format!("v{v}")
            }
        }
        _ => format!("v{}", cap(in_progress(), &cleaned, 1)?),
    };
    let heading = re(&format!(r"(?mi)^##\s+[^\n]*{}[^\n]*$", escape(&current)));
    let (_, end) = find(heading, &cleaned)?;
    let tail = &cleaned[end..];
    let next = re(r"(?mi)^##\s+(?!Phase\s+\S)([^\n]*(?:v(\d+(?:\.\d+)+)|✅|🚧|🟡|📋)[^\n]*)$");
    for c in next.captures_iter(tail).flatten() {
        let title = group(&c, 1);
        let Some(v) = cap(re(r"v(\d+(?:\.\d+)+)"), title, 1) else {
            continue;
        };
        let version = format!("v{v}");
        if version == current {
            continue;
        }
        let name = cap(re(r"v\d+(?:\.\d+)+:?\s*[—–-]?\s*([^\n(]+)"), title, 1).map_or_else(
            || super::js::trim(title).to_string(),
            |n| super::js::trim(&n).to_string(),
        );
        let start = c.get(0).map_or(0, |m| m.end());
        let after = &tail[start..];
        let len = find(re(r"(?m)^##\s"), after).map_or(after.len(), |(s, _)| s);
        return Some((version, name, after[..len].to_string()));
    }
    None
}

/// `extractCurrentMilestone`: the slice of the roadmap gsd-sdk treats as
/// the current milestone.
pub fn current_milestone(content: &str, project: &Path) -> String {
    let version = state_milestone_version(project)
        .or_else(|| cap(in_progress(), content, 1).map(|v| format!("v{v}")));
    let Some(version) = version else {
        return strip_shipped(content);
    };
    let ev = escape(&version);
    let section = re(&format!(r"(?mi)(^#{{1,3}}\s+.*{ev}(?![\d.])[^\n]*)"));
    let Some(m) = section.captures(content).ok().flatten() else {
        return details_fallback(content, &ev).unwrap_or_else(|| strip_shipped(content));
    };
    let whole = m.get(0).expect("group 0");
    let heading = m.get(1).map_or("", |g| g.as_str());
    let start = whole.start();
    let level = heading.chars().take_while(|c| *c == '#').count().max(1);
    let rest_at = whole.end();
    let current = cap(re(r"(?i)v(\d+(?:\.\d+)+)"), &version, 1).unwrap_or_default();
    let next = re(&format!(
        r"(?mi)^#{{1,{level}}}\s+(?!Phase\s+\S)(?:.*v(\d+(?:\.\d+)+)[^\n]*|.*(?:✅|📋|🚧|🟡))"
    ));
    let mut end = content.len();
    for c in next
        .captures_iter(&content[rest_at..])
        .filter_map(Result::ok)
    {
        let mv = c.get(1).map(|g| g.as_str());
        if let Some(mv) = mv
            && !current.is_empty()
            && mv == current
        {
            continue;
        }
        end = rest_at + c.get(0).map_or(0, |g| g.start());
        break;
    }
    let mut tail = String::new();
    if end < content.len()
        && let Some(pd) = generic_phase_details()
            .captures(&content[end..])
            .ok()
            .flatten()
    {
        let pd0 = pd.get(0).expect("group 0");
        let pd_start = end + pd0.start();
        let pd_len = pd0.as_str().len();
        let pd_level = pd.get(1).map_or(1, |g| g.as_str().len());
        let after = &content[pd_start + pd_len..];
        let real = re(&format!(
            r"(?mi)^#{{1,{pd_level}}}\s+(?!Phase\s+\S)(?!Phase\s+Details\b)(?:.*v(\d+(?:\.\d+)+)[^\n]*|.*(?:✅|📋|🚧|🟡))"
        ));
        let mut pd_end = content.len();
        for c in real.captures_iter(after).filter_map(Result::ok) {
            if let Some(mv) = c.get(1).map(|g| g.as_str())
                && !current.is_empty()
                && mv == current
            {
                continue;
            }
            pd_end = pd_start + pd_len + c.get(0).map_or(0, |g| g.start());
            break;
        }
        tail = format!("\n{}", &content[pd_start..pd_end]);
    }
    format!("{}{tail}", &content[start..end])
}

fn details_fallback(content: &str, ev: &str) -> Option<String> {
    let pat = re(&format!(
        r"(?i)<details\b[^>]*>\s*<summary\b[^>]*>((?:(?!</summary>).)*?{ev}(?![\d.])(?:(?!</summary>).)*)</summary>([\s\S]*?)</details>"
    ));
    let c = pat.captures(content).ok().flatten()?;
    let summary = c.get(1)?.as_str();
    let body = c.get(2)?.as_str();
    if body.trim().is_empty() || body.contains("<details") {
        return None;
    }
    let summary = re(r"<[^>]+>").replace_all(summary, "").into_owned();
    let summary = re(r"^#+\s*").replace(&summary, "").trim().to_string();
    Some(format!("## {summary}\n{body}"))
}

/// One phase section found by `searchPhaseInContent`.
pub fn search_phase(content: &str, phase: &str) -> Option<serde_json::Value> {
    use serde_json::json;
    let ep = escape(phase);
    let header = re(&format!(r"(?i)#{{2,4}}\s*Phase\s+{ep}:\s*([^\n]+)"));
    let Some(h) = header.captures(content).ok().flatten() else {
        let checklist = re(&format!(
            r"(?i)-\s*\[[ x]\]\s*\*\*Phase\s+{ep}:\s*([^*]+)\*\*"
        ));
        let name = cap(checklist, content, 1)?;
        return Some(json!({
            "found": false,
            "phase_number": phase,
            "phase_name": name.trim(),
            "error": "malformed_roadmap",
            "message": format!("Phase {phase} exists in summary list but missing \"### Phase {phase}:\" detail section. ROADMAP.md needs both formats."),
        }));
    };
    let name = h.get(1).map_or("", |g| g.as_str()).trim().to_string();
    let at = h.get(0).expect("group 0").start();
    let end = find(next_phase_heading(), &content[at..]).map_or(content.len(), |(s, _)| at + s);
    let section = super::js::trim(&content[at..end]).to_string();
    let field = |label: &str| {
        cap(
            re(&format!(r"(?i)\*\*{label}(?::\*\*|\*\*:)\s*([^\n]+)")),
            &section,
            1,
        )
        .map(|s| s.trim().to_string())
    };
    let goal = field("Goal");
    let mode = field("Mode").map(|m| m.to_lowercase());
    let criteria: Vec<String> = cap(
        re(r"(?i)\*\*Success Criteria\*\*[^\n]*:\s*\n((?:\s*\d+\.\s*[^\n]+\n?)+)"),
        &section,
        1,
    )
    .map(|block| {
        let num = re(r"^\s*\d+\.\s*");
        super::js::trim(&block)
            .split('\n')
            .map(|l| num.replace(l, "").trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    })
    .unwrap_or_default();
    Some(json!({
        "found": true,
        "phase_number": phase,
        "phase_name": name,
        "goal": goal,
        "mode": mode,
        "success_criteria": criteria,
        "section": section,
    }))
}

/// `normalizePhaseName`: `3` → `03`, `3a.1` → `03A.1`, a project code dropped.
pub fn normalize_phase_name(phase: &str) -> String {
    let stripped = re(r"^[A-Z]{1,6}-(?=\d)").replace(phase, "").into_owned();
    match re(r"(?i)^(\d+)([A-Z])?((?:\.\d+)*)")
        .captures(&stripped)
        .ok()
        .flatten()
    {
        Some(c) => format!(
            "{:0>2}{}{}",
            c.get(1).map_or("", |g| g.as_str()),
            c.get(2)
                .map_or(String::new(), |g| g.as_str().to_uppercase()),
            c.get(3).map_or("", |g| g.as_str())
        ),
        None => phase.to_string(),
    }
}

/// `extractPhaseToken`: the id part of a phase folder's name.
pub fn phase_token(dir: &str) -> String {
    for pat in [
        r"(?i)^([A-Z]{1,6}-\d+[A-Z]?(?:\.\d+)*)(?:-|$)",
        r"(?i)^(\d+[A-Z]?(?:\.\d+)*)(?:-|$)",
        r"(?i)^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)(?:-[a-z]|$)",
    ] {
        if let Some(t) = cap(re(pat), dir, 1) {
            return t;
        }
    }
    dir.to_string()
}

/// A phase folder's leading number (`03`, `2A.1`) and the rest of its
/// name after the dash, as gsd-sdk's progress and stats views split it;
/// a folder without a number is all number and no name.
pub fn split_phase_dir(dir: &str) -> (String, String) {
    match re(r"(?i)^(\d+[A-Z]?(?:\.\d+)*)-?(.*)")
        .captures(dir)
        .ok()
        .flatten()
    {
        Some(c) => (group(&c, 1).to_string(), group(&c, 2).to_string()),
        None => (dir.to_string(), String::new()),
    }
}

/// `phaseTokenMatches`.
pub fn phase_token_matches(dir: &str, normalized: &str) -> bool {
    if phase_token(dir).to_uppercase() == normalized.to_uppercase() {
        return true;
    }
    let stripped = re(r"(?i)^[A-Z]{1,6}-(?=\d)").replace(dir, "").into_owned();
    stripped != dir && phase_token(&stripped).to_uppercase() == normalized.to_uppercase()
}

/// Phase folders looked up by the phase they are for: the first folder (in
/// the order given) that [`phase_token_matches`] a normalized phase number.
/// gsd-sdk scans every folder for every roadmap phase; answering each
/// question from a map keeps a 10,000-phase roadmap linear.
pub struct PhaseDirs<'a> {
    dirs: &'a [String],
    first: std::collections::HashMap<String, usize>,
}

impl<'a> PhaseDirs<'a> {
    pub fn new(dirs: &'a [String]) -> PhaseDirs<'a> {
        let mut first = std::collections::HashMap::new();
        for (i, dir) in dirs.iter().enumerate() {
            first.entry(phase_token(dir).to_uppercase()).or_insert(i);
            let stripped = re(r"(?i)^[A-Z]{1,6}-(?=\d)").replace(dir, "");
            if stripped != dir.as_str() {
                first
                    .entry(phase_token(&stripped).to_uppercase())
                    .or_insert(i);
            }
        }
        PhaseDirs { dirs, first }
    }

    /// The first folder `phase_token_matches(folder, normalized)` holds for.
    pub fn find(&self, normalized: &str) -> Option<&'a String> {
        let i = *self.first.get(&normalized.to_uppercase())?;
        self.dirs.get(i)
    }
}

/// `getMilestoneInfo`: the current milestone's version and name, from
/// STATE.md's `milestone:` / `milestone_name:` lines, else the roadmap.
pub fn milestone_info(project: &Path) -> (String, String) {
    let state = std::fs::read_to_string(project.join(".planning/STATE.md")).ok();
    let from_state = state.as_deref().and_then(|s| {
        let v = cap(re(r"(?m)^milestone:\s*(.+)$"), s, 1)?;
        let name = cap(re(r"(?m)^milestone_name:\s*(.+)$"), s, 1)
            .map(|n| unquote(n.trim()))
            .unwrap_or_else(|| "milestone".into());
        Some((unquote(v.trim()), name))
    });
    let state_version = from_state.as_ref().map(|(v, _)| v.clone());
    if let Some((v, n)) = &from_state
        && n != "milestone"
    {
        return (v.clone(), n.clone());
    }
    let Ok(roadmap) = std::fs::read_to_string(project.join(".planning/ROADMAP.md")) else {
        return from_state.unwrap_or_else(|| ("v1.0".into(), "milestone".into()));
    };
    let roadmap = roadmap.as_str();
    let with = |v: String, n: String| (state_version.clone().unwrap_or(v), n);
    for marker in ["🚧", "🟡"] {
        let r = re(&format!(r"{marker}\s*\*\*v(\d+(?:\.\d+)+)\s+([^*]+)\*\*"));
        if let Some(c) = r.captures(roadmap).ok().flatten() {
            return with(
                format!("v{}", group(&c, 1)),
                group(&c, 2).trim().to_string(),
            );
        }
    }
    let cleaned = strip_shipped(roadmap);
    if let Some(c) = re(r"##\s+.*v(\d+(?:\.\d+)+)[:\s]+([^\n(]+)")
        .captures(cleaned.as_str())
        .ok()
        .flatten()
    {
        return with(
            format!("v{}", group(&c, 1)),
            group(&c, 2).trim().to_string(),
        );
    }
    let before_phases = match re(r"(?m)^##\s+Phases\b").find(roadmap).ok().flatten() {
        Some(m) => &roadmap[..m.start()],
        None => roadmap,
    };
    if let Some(c) = re(r"\*\*v(\d+(?:\.\d+)+)\s+([^*]+)\*\*")
        .captures_iter(before_phases)
        .filter_map(Result::ok)
        .last()
    {
        return with(
            format!("v{}", group(&c, 1)),
            group(&c, 2).trim().to_string(),
        );
    }
    if let Some(m) = re(r"\bv(\d+(?:\.\d+)+)\b")
        .find_iter(cleaned.as_str())
        .filter_map(Result::ok)
        .last()
    {
        return with(m.as_str().to_string(), "milestone".into());
    }
    with("v1.0".into(), "milestone".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_dash_in_a_folded_class_stays_a_dash() {
        // `[A-Za-z_-]` under `/i` must not become a range from `_` to `a`
        // (which holds a backtick).
        let r = re(r"(?i)^STATUS:\s*([A-Za-z_-]+)$");
        assert!(r.is_match("status: fail-ed_x").unwrap());
        assert!(!r.is_match("STATUS: `failed`").unwrap());
        assert!(!re(r"(?i)^[.-]$").is_match("5").unwrap());
        assert!(re(r"(?i)^[-x]+$").is_match("-X-").unwrap());
        assert!(js_re(r"(?i)\bplanning\b").is_match("规划planning").unwrap());
        assert!(!js_re(r"^\d+$").is_match("٣").unwrap());
        assert!(js_re(r"^\s*---$").is_match("\u{feff}---").unwrap());
        assert!(js_re(r"(?i)^a\s+b$").is_match("A \u{3000}B").unwrap());
        assert!(!js_re(r"(?i)^a\s+b$").is_match("A}B").unwrap());
        assert!(js_re(r"^[\d.]+\s[^\]x]$").is_match("1.2 y").unwrap());
        // JavaScript's word boundary is ASCII's: `JS_WORD_BOUNDARY`.
        let b = JS_WORD_BOUNDARY;
        assert!(
            re(&format!(r"(?i){b}planning{b}"))
                .is_match("规划planning")
                .unwrap()
        );
        assert!(
            !re(&format!(r"(?i){b}plan{b}"))
                .is_match("planning")
                .unwrap()
        );
        assert!(re(&format!(r"{b}2{b}")).is_match("2阶段").unwrap());
    }

    #[test]
    fn every_pattern_reads_digits_and_spaces_as_javascript_does() {
        // A fullwidth or Arabic-Indic digit is no `\d` to GSD's tools.
        assert!(!re(r"^Phase (\d+)").is_match("Phase １").unwrap());
        assert!(!re(r"^\d+$").is_match("٣").unwrap());
        assert!(re(r"^Phase (\d+)").is_match("Phase 12").unwrap());
        assert!(re(r"^\D+$").is_match("Phase １").unwrap());
        assert!(re(r"^[\D]+$").is_match("ab").unwrap());
        assert!(!re(r"^[\Dx]+$").is_match("a1").unwrap());
        // The byte-order mark is white space; NEL (U+0085) is not.
        assert!(re(r"^\s*---$").is_match("\u{feff}---").unwrap());
        assert!(!re(r"^\s$").is_match("\u{85}").unwrap());
        assert!(re(r"^\S$").is_match("\u{85}").unwrap());
        assert!(!re(r"^\S$").is_match("\u{feff}").unwrap());
        // `[\s\S]` is every character, U+0085 included.
        assert!(re(r"^[\s\S]+$").is_match("a \u{85}\u{feff}\n").unwrap());
        assert!(re(r"(?i)^[^\s]+$").is_match("ABC").unwrap());
        // An escaped backslash before a `d` is a backslash and a `d`.
        assert!(re(r"^\\d$").is_match(r"\d").unwrap());
        // Folding and line ends still apply.
        assert!(
            re(r"(?im)^phase\s+(\d+)$")
                .is_match("x\r\nPHASE 3\r\n")
                .unwrap()
        );
    }

    #[test]
    fn shipped_sections_and_details_are_cut() {
        let t = "# R\n\n## v1.0 ✅ SHIPPED\n### Phase 1: A\n\n## v2.0 Now\n### Phase 2: B\n<details>x</details>\n";
        // Each `##`/`###` heading starts a section of its own, so only the
        // shipped heading's own lines go (gsd-sdk keeps `### Phase 1`).
        assert_eq!(
            strip_shipped(t),
            "# R\n\n### Phase 1: A\n\n## v2.0 Now\n### Phase 2: B\n\n"
        );
    }

    #[test]
    fn case_folding_is_ascii_like_javascript() {
        assert_eq!(ascii_case(r"(?i)\*\*Goal:"), r"\*\*[gG][oO][aA][lL]:");
        assert_eq!(
            ascii_case(r"(?mi)^x[A-Z0-9\d](?!P)"),
            r"(?m)^[xX][A-Z0-9\da-z](?![pP])"
        );
        assert_eq!(ascii_case(r"(?i)[^\n]+\s\S"), r"[^\n]+\s\S");
        assert_eq!(ascii_case(r"(?m)^v"), r"(?m)^v");
        assert!(re(r"(?i)phase").is_match("PHASE").unwrap());
        assert!(
            !re(r"(?i)[a-z]").is_match("\u{17F}").unwrap(),
            "no Unicode folding"
        );
    }

    #[test]
    fn phase_names_and_tokens() {
        assert_eq!(normalize_phase_name("3"), "03");
        assert_eq!(normalize_phase_name("3a.1"), "03A.1");
        assert_eq!(normalize_phase_name("CK-7"), "07");
        assert!(phase_token_matches("03-setup", "03"));
        assert!(phase_token_matches("CK-03-setup", "03"));
        assert!(!phase_token_matches("13-setup", "03"));
        let dirs: Vec<String> = ["CK-03-setup", "03-other", "13-setup", "3A-x"]
            .map(String::from)
            .to_vec();
        let index = PhaseDirs::new(&dirs);
        for n in ["03", "13", "03A", "3A", "07"] {
            let scan = dirs.iter().find(|d| phase_token_matches(d, n));
            assert_eq!(index.find(n), scan, "{n}");
        }
    }

    #[test]
    fn a_phase_section_is_found_with_its_fields() {
        let t = "### Phase 2: Build it\n**Goal:** Make it\n**Success Criteria** (what):\n1. One\n2. Two\n\n### Phase 3: Next\n";
        let v = search_phase(t, "2").unwrap();
        assert_eq!(v["phase_name"], "Build it");
        assert_eq!(v["goal"], "Make it");
        assert_eq!(v["success_criteria"], serde_json::json!(["One", "Two"]));
        assert!(search_phase(t, "4").is_none());
    }
}
