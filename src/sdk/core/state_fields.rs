//! One STATE.md field as GSD Core 1.14.0 reads it (`state-document.cjs`):
//! the frontmatter's scalar when it holds text, else the body's
//! `**Field:** value` line, else a plain `Field: value` line, else a
//! two-cell `| Field | value |` table row — the ladder smart-entry and the
//! state contract read STATE.md through.

use std::path::Path;

use serde_json::{Map, Value};

use super::super::compat::js::{is_js_space, trim};
use super::super::compat::roadmap_text::{escape, group, js_re};
use super::native::{Refusal, hand_on};
use super::output::js_string;
use super::progress_table::split_row;

/// `stateFieldValue(fm, body, key, label).value`: the frontmatter's `key`
/// when it is text (trimmed, not empty), a number or a boolean, else the
/// body's `label` field.
pub fn value(
    fm: &Map<String, Value>,
    body: &str,
    key: Option<&str>,
    label: Option<&str>,
) -> Option<String> {
    match key.and_then(|k| fm.get(k)) {
        Some(Value::String(s)) if !trim(s).is_empty() => Some(trim(s).to_string()),
        Some(v @ (Value::Number(_) | Value::Bool(_))) => Some(js_string(v)),
        _ => extract(body, label?),
    }
}

/// `parseInt(value, 10)` of a field (its first `%` dropped first where
/// `percent`): `None` for no value or no number. A number past 2^53 is
/// handed on: JavaScript prints those in its own way.
pub fn int_field(value: Option<&str>, percent: bool) -> Result<Option<f64>, Refusal> {
    let Some(v) = value else {
        return Ok(None);
    };
    let v = if percent {
        v.replacen('%', "", 1)
    } else {
        v.to_string()
    };
    match super::super::compat::js::parse_int(&v) {
        Some(n) if n.abs() >= 9_007_199_254_740_992.0 => {
            Err(hand_on(" for a number past 2^53 in STATE.md"))
        }
        n => Ok(n),
    }
}

/// `stateExtractField(content, field)`.
pub fn extract(content: &str, field: &str) -> Option<String> {
    let escaped = escape(field);
    for pattern in [
        format!(r"(?im)^[ \t]*\*\*{escaped}:\*\*[ \t]*(.+)"),
        format!(r"(?im)^{escaped}:[ \t]*(.+)"),
    ] {
        if let Some(c) = js_re(&pattern).captures(content).ok().flatten() {
            return Some(trim(group(&c, 1)).to_string());
        }
    }
    table_row(content, field).map(|v| trim(v).to_string())
}

/// `locateFieldRow(content, field).rawValue`: the value cell of the first
/// `| Field | value |` line (exactly three pipes, not a separator row)
/// whose first cell is the field, case-blind, set off by spaces or tabs.
fn table_row<'a>(content: &'a str, field: &str) -> Option<&'a str> {
    table_row_at(content, field).map(|(_, v)| v)
}

/// [`table_row`] with the byte offset of the row's line in `content`.
pub fn table_row_at<'a>(content: &'a str, field: &str) -> Option<(usize, &'a str)> {
    let lines = content.split(['\n', '\r']).scan(0, |at, l| {
        let start = *at;
        *at += l.len() + 1;
        Some((start, l))
    });
    for (start, line) in lines {
        if !line.starts_with('|') || line.matches('|').count() != 3 {
            continue;
        }
        if !line.trim_end_matches([' ', '\t']).ends_with('|') {
            continue;
        }
        let cells = split_row(line);
        if cells.len() != 2 || separator_cell(&cells[0]) {
            continue;
        }
        let sep = line[1..].find('|').map(|i| i + 1)?;
        let cell = &line[1..sep];
        if !field_matches(field, cell) {
            continue;
        }
        let close = line[sep + 1..].find('|').map(|i| i + sep + 1)?;
        return Some((start, line[sep + 1..close].trim_matches([' ', '\t'])));
    }
    None
}

/// `isTableSeparatorRow(firstCell)`: only dashes, colons and white space.
fn separator_cell(cell: &str) -> bool {
    let t = trim(cell);
    !t.is_empty() && t.chars().all(|c| c == '-' || c == ':' || is_js_space(c))
}

/// `fieldNameMatchesRawCell`: the cell is the field, case-blind as a
/// JavaScript `/i` pattern compares (an ASCII letter matches only its own
/// two cases), after leading and before trailing spaces or tabs.
fn field_matches(field: &str, cell: &str) -> bool {
    let inner = cell.trim_start_matches([' ', '\t']);
    let leading = cell.len() - inner.len();
    // The field may itself begin with a space or tab: every split of the
    // leading run is tried, as 1.14.0 tries every offset.
    (0..=leading).any(|j| {
        let rest = &cell[j..];
        rest.len() >= field.len()
            && rest.is_char_boundary(field.len())
            && caseless_eq(&rest[..field.len()], field)
            && rest[field.len()..].bytes().all(|b| b == b' ' || b == b'\t')
    })
}

/// JavaScript's non-Unicode `/i` equality: characters equal after
/// `toUpperCase`, where an uppercasing to more than one character or from
/// outside ASCII into it is not taken.
fn caseless_eq(a: &str, b: &str) -> bool {
    let canon = |c: char| {
        let mut up = c.to_uppercase();
        match (up.next(), up.next()) {
            (Some(u), None) if !u.is_ascii() || c.is_ascii() => u,
            _ => c,
        }
    };
    a.chars().count() == b.chars().count()
        && a.chars().zip(b.chars()).all(|(x, y)| canon(x) == canon(y))
}

/// `parsePhaseFromProse(value)`: the phase number a STATE.md value opens
/// with (`Phase 3 (API) — executing`, `CK-03`, `12a.1 of 14`), and the
/// phase's name where the value gives one: the text after an em dash that
/// is no status word, else the text in parentheses.
pub fn parse_phase_from_prose(value: &str) -> (Option<String>, Option<String>) {
    if value.is_empty() {
        return (None, None);
    }
    let phase = phase_from_prose(value);
    let paren = js_re(r"\(([^)]{1,200})\)")
        .captures(value)
        .ok()
        .flatten()
        .map(|c| group(&c, 1).to_string());
    let no_parens = js_re(r"\([^)\n]{0,200}\)").replace_all(value, " ");
    let dash = js_re(r"—\s*([^(\n]{1,200}?)\s*$")
        .captures(&no_parens)
        .ok()
        .flatten()
        .map(|c| trim(group(&c, 1)).to_string());
    let test = |p: &str, t: &str| js_re(p).is_match(t).unwrap_or(false);
    let dash_is_name = dash.as_deref().is_some_and(|d| {
        !d.is_empty()
            && !test(
                r"(?i)^(?:completed?|executing|not started|planning|planned|ready(?:\s+to\s+\S.{0,50})?|done|in progress|blocked|paused|verifying)$",
                d,
            )
            && !test(r"(?i)^milestone\s*:", d)
            && (paren.is_none() || !test(r"^[A-Z][A-Z0-9_-]*$", d))
    });
    let raw = if dash_is_name { dash } else { paren.or(dash) };
    let name = raw
        .filter(|r| !r.is_empty() && !test(r"(?i)^(?:complete|executing|not started)$", trim(r)))
        .map(|r| trim(&r).to_string());
    (phase, name)
}

/// `parsePhaseFromProse(value).phase`.
pub fn phase_from_prose(value: &str) -> Option<String> {
    js_re(r"(?i)^\s*(?:Phase\s+)?(?:[A-Z][A-Z0-9_]*-)?(\d+[A-Z]?(?:\.\d+)*)\b")
        .captures(value)
        .ok()
        .flatten()
        .map(|c| group(&c, 1).to_string())
}

/// `stripFrontmatter(content)`: every leading `---` block (after white
/// space) cut, one after another.
pub fn strip_frontmatter(content: &str) -> String {
    let mut out = content.to_string();
    loop {
        let next = js_re(r"^\s*---\r?\n[\s\S]*?\r?\n---\s*")
            .replace(&out, "")
            .into_owned();
        if next == out {
            return out;
        }
        out = next;
    }
}

/// STATE.md's text and its frontmatter.
pub type StateText = (String, Map<String, Value>);

/// STATE.md's text and frontmatter as 1.14.0 reads them (`None` where the
/// file cannot be read). Handed on: a frontmatter left open (1.14.0 may warn
/// about it, by how many keys it holds) or one gsd does not read as js-yaml
/// does.
pub fn read_state(path: &Path) -> Result<Option<StateText>, Refusal> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(None);
    };
    let content = String::from_utf8_lossy(&bytes).into_owned();
    if unterminated_frontmatter(&content) {
        return Err(hand_on(" for a STATE.md whose frontmatter is not closed"));
    }
    let fm = super::frontmatter::extract(&content).map_err(|u| hand_on(u.0))?;
    Ok(Some((content, fm)))
}

/// A document that opens a frontmatter fence and never closes it (no
/// `\n---` after the opening line, as 1.14.0's `frontmatterRegion` looks).
fn unterminated_frontmatter(content: &str) -> bool {
    let c = content.strip_prefix('\u{feff}').unwrap_or(content);
    let header = if c.starts_with("---\r\n") {
        5
    } else if c.starts_with("---\n") {
        4
    } else {
        return false;
    };
    !c[header..].contains("\n---")
}

/// `content.replace(/^---[\s\S]*?---\s*/, '')`: STATE.md's body as
/// smart-entry cuts it, from the second `---` on (anywhere, even inside a
/// line) and the white space after it.
pub fn body_after_fences(content: &str) -> &str {
    if !content.starts_with("---") {
        return content;
    }
    match content[3..].find("---") {
        Some(i) => content[3 + i + 3..].trim_start_matches(is_js_space),
        None => content,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_reads_bold_then_plain_then_a_table_row() {
        let body = "Intro\n| Status | in table |\n  **Status:**  bold one \nStatus: plain\n";
        assert_eq!(extract(body, "Status").as_deref(), Some("bold one"));
        assert_eq!(
            extract("status: plain\n| Status | t |", "Status").as_deref(),
            Some("plain")
        );
        assert_eq!(
            extract("|  status | t  v |\n", "Status").as_deref(),
            Some("t  v")
        );
        assert_eq!(
            extract("| --- | --- |\n| Phase | 3 |", "Phase").as_deref(),
            Some("3")
        );
        assert_eq!(extract("| Phases | 3 |", "Phase"), None);
        assert_eq!(extract("| Status | a | b |", "Status"), None);
    }

    #[test]
    fn frontmatter_text_wins_when_it_is_not_blank() {
        let mut fm = Map::new();
        fm.insert("status".into(), Value::String("  ".into()));
        assert_eq!(
            value(&fm, "Status: body", Some("status"), Some("Status")).as_deref(),
            Some("body")
        );
        fm.insert("status".into(), Value::String(" fm ".into()));
        assert_eq!(
            value(&fm, "Status: body", Some("status"), Some("Status")).as_deref(),
            Some("fm")
        );
    }

    #[test]
    fn the_body_starts_after_the_second_run_of_dashes() {
        assert_eq!(body_after_fences("---\na: 1\n---\n\n# T\n"), "# T\n");
        assert_eq!(body_after_fences("------x"), "x");
        assert_eq!(body_after_fences("# T\n---\n"), "# T\n---\n");
    }
}
