//! `summary-extract PATH [--fields a,b]`: what a plan's SUMMARY.md says —
//! its one-liner, key files, added tech, patterns, decisions (split at the
//! first colon into summary and rationale) and the requirements it
//! completed — read from the frontmatter as 1.14.0 reads it, the one-liner
//! falling back to the first bold run under a Summary/Overview/
//! Accomplishments heading.

use std::path::{Component, Path};
use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Value, json};

use super::super::commands::summary::decisions;
use super::frontmatter;
use super::js::{trim, truthy};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};

/// `extractOneLinerFromBody`.
fn one_liner_from_body(content: &str) -> Option<String> {
    static FENCE: OnceLock<Regex> = OnceLock::new();
    static HEADING: OnceLock<Regex> = OnceLock::new();
    static TOPIC: OnceLock<Regex> = OnceLock::new();
    if content.is_empty() {
        return None;
    }
    let normalized = content.replace("\r\n", "\n").replace('\r', "\n");
    let fence =
        FENCE.get_or_init(|| Regex::new(r"\A---\n[\s\x{FEFF}\S]*?\n---\n*").expect("valid"));
    let body = fence.replace(&normalized, "");
    let heading = HEADING.get_or_init(|| {
        Regex::new(r"(?m)^#+[\s\x{FEFF}]*([^\n]*)\n+\*\*([^*\n]+)\*\*([^\n]*)").expect("valid")
    });
    let topic =
        TOPIC.get_or_init(|| Regex::new(r"(?i)summary|overview|accomplish").expect("valid"));
    for c in heading.captures_iter(&body) {
        if !topic.is_match(&c[1]) {
            continue;
        }
        let bold = trim(&c[2]);
        if bold.ends_with(':') {
            let prose = trim(&c[3]);
            if !prose.is_empty() {
                return Some(prose.to_string());
            }
        } else if !bold.is_empty() {
            return Some(bold.to_string());
        }
    }
    None
}

pub fn summary_extract(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(rel) = call.args.first().filter(|p| !p.is_empty()) else {
        return Err(Refusal::Fail(Failure::new(
            "unknown",
            "summary-path required for summary-extract",
        )));
    };
    if rel.starts_with("--")
        || Path::new(rel)
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(hand_on(" for a path that is absolute, climbs or is a flag"));
    }
    let fields: Option<Vec<String>> = match call.args.iter().position(|a| a == "--fields") {
        None => None,
        Some(i) => match call.args.get(i + 1) {
            Some(f) => Some(f.split(',').map(str::to_string).collect()),
            None => return Err(hand_on(" with --fields and no value")),
        },
    };
    let path = call.project.join(rel);
    let content = match std::fs::read(&path) {
        Ok(b) => String::from_utf8(b).map_err(|_| hand_on(" for a summary that is not UTF-8"))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Out::json(&json!({"error": "File not found", "path": rel})));
        }
        Err(_) => return Err(hand_on(" for a summary gsd cannot read")),
    };
    let fm = frontmatter::extract(&content).map_err(|u| hand_on(u.0))?;
    let or =
        |v: Option<&Value>, default: Value| v.filter(|v| truthy(v)).cloned().unwrap_or(default);
    let one_liner = or(
        fm.get("one-liner"),
        one_liner_from_body(&content).map_or(Value::Null, Value::String),
    );
    let tech_added = match fm.get("tech-stack") {
        Some(Value::Object(t)) => or(t.get("added"), json!([])),
        _ => json!([]),
    };
    let mut full = Map::new();
    full.insert("path".into(), json!(rel));
    full.insert("one_liner".into(), one_liner);
    full.insert("key_files".into(), or(fm.get("key-files"), json!([])));
    full.insert("tech_added".into(), tech_added);
    full.insert(
        "patterns".into(),
        or(fm.get("patterns-established"), json!([])),
    );
    full.insert("decisions".into(), decisions(fm.get("key-decisions")));
    full.insert(
        "requirements_completed".into(),
        fm.get("requirements-completed")
            .or_else(|| fm.get("requirements_completed"))
            .cloned()
            .unwrap_or_else(|| json!([])),
    );
    let Some(fields) = fields.filter(|f| !f.is_empty()) else {
        return Ok(Out::json(&Value::Object(full)));
    };
    let mut picked = Map::new();
    picked.insert("path".into(), json!(rel));
    for f in fields {
        if let Some(v) = full.get(&f) {
            picked.insert(f, v.clone());
        }
    }
    Ok(Out::json(&Value::Object(picked)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_liner_comes_from_a_summary_headings_bold_run() {
        let doc = "---\na: b\n---\n# Phase 3 Plan 1\n**not this**\n\n## Summary\n\n**Built the parser**\n";
        assert_eq!(
            one_liner_from_body(doc).as_deref(),
            Some("Built the parser")
        );
        let colon = "## Accomplishments\n**Result:** the thing works\n";
        assert_eq!(
            one_liner_from_body(colon).as_deref(),
            Some("the thing works")
        );
        assert_eq!(one_liner_from_body("## Tasks\n**x**\n"), None);
    }

    #[test]
    fn decisions_split_at_the_first_colon_and_trim_as_javascript() {
        let v = decisions(Some(&json!([
            "Use X:\u{feff} because Y: really",
            ":lead",
            "plain"
        ])));
        assert_eq!(
            v,
            json!([
                {"summary": "Use X", "rationale": "because Y: really"},
                {"summary": ":lead", "rationale": null},
                {"summary": "plain", "rationale": null}
            ])
        );
    }
}
