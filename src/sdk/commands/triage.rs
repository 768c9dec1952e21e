//! Read-only helpers execute-phase and discuss-phase lean on:
//! agent.classify-failure (why a subagent stopped) and todo.match-phase
//! (which pending todos a phase would settle).

use std::collections::HashSet;

use serde_json::{Value, json};

use super::super::compat::js::{self, JS_DOT};
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::{phase_find, roadmap};

/// Quota and rate-limit markers from the runtimes GSD drives (Claude Code,
/// Copilot, Codex, Gemini), most specific first: the first hit names the class.
const QUOTA_SENTINELS: &[&str] = &[
    "429",
    "usage_limit_reached",
    "usage limit",
    "rate limit",
    "rate-limited",
    "rate_limit",
    "resource_exhausted",
    "quota",
    "too many requests",
    "exceeded your",
];

const HANDOFF_BUG: &str = "classifyhandoffifneeded is not defined";

/// `agent.classify-failure [--] BODY…`: quota-exceeded (with the
/// Retry-After seconds when given), classify-handoff-bug, or unknown-failure.
pub fn classify_failure(call: &Call) -> Result<Reply, SdkError> {
    let body = call.args.join(" ");
    let lower = body.to_lowercase();
    if js::trim(&lower).is_empty() {
        return Ok(Reply::Json(json!({"class": "unknown-failure"})));
    }
    if let Some(s) = QUOTA_SENTINELS.iter().find(|s| lower.contains(*s)) {
        let mut out = json!({"class": "quota-exceeded", "sentinel": s});
        if let Some(n) = retry_after(&body) {
            out["retryAfterSeconds"] = js::number(n);
        }
        return Ok(Reply::Json(out));
    }
    if lower.contains(HANDOFF_BUG) {
        return Ok(Reply::Json(
            json!({"class": "classify-handoff-bug", "sentinel": HANDOFF_BUG}),
        ));
    }
    Ok(Reply::Json(json!({"class": "unknown-failure"})))
}

/// Whether the character is a word character for JavaScript's `\b`
/// (ASCII letters, digits, `_`; Rust's `\b` is Unicode-wide).
pub fn js_word_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `/\bretry[-_ ]after[:\s]+(\d+)\b/i`: the seconds of the first hint
/// standing between JavaScript word boundaries, where finite.
fn retry_after(body: &str) -> Option<f64> {
    let space = js::JS_SPACE.trim_start_matches('[').trim_end_matches(']');
    let pattern = format!(r"(?i)retry[-_ ]after[:{space}]+([0-9]+)");
    for c in re(&pattern).captures_iter(body) {
        let Ok(c) = c else { break };
        let whole = c.get(0)?;
        if js_word_char(body[..whole.start()].chars().next_back())
            || js_word_char(body[whole.end()..].chars().next())
        {
            continue;
        }
        return rt::group(&c, 1)
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite());
    }
    None
}

/// One pending todo as todo.match-phase reads it.
struct Todo {
    file: String,
    title: String,
    area: String,
    files: Vec<String>,
    body: String,
}

/// A todo's `key: value` line (the first, anywhere in the file), trimmed.
pub fn front_line(content: &str, key: &str) -> Option<String> {
    re(&format!(r"(?m)^{key}:\s*({JS_DOT}+)"))
        .captures(content)
        .ok()
        .flatten()
        .map(|c| js::trim(rt::group(&c, 1)).to_string())
}

fn read_todo(file: String, content: &str) -> Todo {
    let line = |key: &str| front_line(content, key);
    let body = re(&format!(
        r"(?m)^(title|area|files|created|priority):{JS_DOT}*"
    ))
    .replace_all(content, "");
    // `slice(0, 200)` counts UTF-16 units.
    let mut units = 0;
    let body: String = js::trim(&body)
        .chars()
        .take_while(|c| {
            units += c.len_utf16();
            units <= 200
        })
        .collect();
    Todo {
        file,
        title: line("title").unwrap_or_else(|| "Untitled".into()),
        area: line("area").unwrap_or_else(|| "general".into()),
        files: line("files")
            .map(|f| {
                re(r"[,\s]+")
                    .split(&f)
                    .filter_map(Result::ok)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default(),
        body,
    }
}

const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "with", "from", "that", "this", "will", "are", "was", "has", "have",
    "been", "not", "but", "all", "can", "into", "each", "when", "any", "use", "new",
];

/// Lower-cased words longer than two letters, stop words out.
fn words(text: &str) -> Vec<String> {
    let alnum = re(r"[^a-z0-9]");
    re(r"[\s\-_/.,;:()\[\]{}|]+")
        .split(&text.to_lowercase())
        .filter_map(Result::ok)
        .map(|w| alnum.replace_all(w, "").into_owned())
        .filter(|w| w.chars().count() > 2 && !STOP_WORDS.contains(&w.as_str()))
        .collect()
}

/// The files a phase's plans say they modify (`files_modified: [...]`).
fn plan_files(project: &std::path::Path, phase: &str) -> Vec<String> {
    let info = phase_find::find(project, phase);
    let Some(dir) = info
        .get("found")
        .filter(|f| **f == json!(true))
        .and(info.get("directory"))
        .and_then(Value::as_str)
    else {
        return Vec::new();
    };
    let dir = project.join(dir);
    let quotes = re(r#"['"]"#);
    let mut out = Vec::new();
    for f in super::names_in(&dir)
        .into_iter()
        .filter(|f| f.ends_with("-PLAN.md"))
    {
        let Ok(text) = std::fs::read(dir.join(&f)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&text);
        if let Some(c) = re(r"files_modified:\s*\[([^\]]*)\]")
            .captures(text.as_ref())
            .ok()
            .flatten()
        {
            out.extend(
                rt::group(&c, 1)
                    .split(',')
                    .map(|s| quotes.replace_all(js::trim(s), "").into_owned())
                    .filter(|s| !s.is_empty()),
            );
        }
    }
    out
}

/// `todo.match-phase N`: pending todos scored by shared keywords (0.2
/// each, 0.6 at most), their area named in the phase (0.3) and files the
/// phase's plans modify (0.4), best first.
pub fn match_phase(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = call.arg(0).filter(|p| !p.is_empty()) else {
        return Err(SdkError::validation("phase required for todo match-phase"));
    };
    let pending = call.planning().join("todos/pending");
    let todos: Vec<Todo> = super::names_in(&pending)
        .into_iter()
        .filter(|f| f.ends_with(".md"))
        .filter_map(|f| {
            let text = std::fs::read(pending.join(&f)).ok()?;
            Some(read_todo(f, &String::from_utf8_lossy(&text)))
        })
        .collect();
    if todos.is_empty() {
        return Ok(Reply::Json(
            json!({"phase": phase, "matches": [], "todo_count": 0}),
        ));
    }
    let rp = roadmap::phase_value(call.project, phase);
    let text_of = |k: &str| match &rp[k] {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let phase_text = if rp["found"] == json!(true) {
        let name = if super::super::compat::js::truthy(&rp["phase_name"]) {
            text_of("phase_name")
        } else {
            String::new()
        };
        format!("{name} {} {}", text_of("goal"), text_of("section")).to_lowercase()
    } else {
        "  ".to_string()
    };
    let keywords: HashSet<String> = words(&phase_text).into_iter().collect();
    let plans = plan_files(call.project, phase);
    let mut matches: Vec<(f64, Value)> = Vec::new();
    for todo in &todos {
        let (mut score, mut reasons) = (0.0f64, Vec::<String>::new());
        let matched: Vec<String> = words(&format!("{} {}", todo.title, todo.body))
            .into_iter()
            .filter(|w| keywords.contains(w))
            .collect();
        if !matched.is_empty() {
            score += (matched.len() as f64 * 0.2).min(0.6);
            let mut unique: Vec<&str> = Vec::new();
            for w in &matched {
                if !unique.contains(&w.as_str()) {
                    unique.push(w);
                }
            }
            unique.truncate(5);
            reasons.push(format!("keywords: {}", unique.join(", ")));
        }
        if todo.area != "general" && phase_text.contains(&todo.area.to_lowercase()) {
            score += 0.3;
            reasons.push(format!("area: {}", todo.area));
        }
        if !todo.files.is_empty() && !plans.is_empty() {
            let overlap: Vec<&str> = todo
                .files
                .iter()
                .filter(|f| {
                    plans
                        .iter()
                        .any(|p| p.contains(*f) || f.contains(p.as_str()))
                })
                .map(String::as_str)
                .take(3)
                .collect();
            if !overlap.is_empty() {
                score += 0.4;
                reasons.push(format!("files: {}", overlap.join(", ")));
            }
        }
        if score > 0.0 {
            let rounded = (score * 100.0).round() / 100.0;
            matches.push((
                rounded,
                json!({"file": todo.file, "title": todo.title, "area": todo.area,
                       "score": js::number(rounded), "reasons": reasons}),
            ));
        }
    }
    matches.sort_by(|a, b| b.0.total_cmp(&a.0));
    let matches: Vec<Value> = matches.into_iter().map(|(_, m)| m).collect();
    Ok(Reply::Json(
        json!({"phase": phase, "matches": matches, "todo_count": todos.len()}),
    ))
}

#[cfg(test)]
mod tests {
    use super::retry_after;

    #[test]
    fn retry_after_stands_between_javascript_word_boundaries() {
        assert_eq!(retry_after("429: Retry-After: 30 s"), Some(30.0));
        assert_eq!(retry_after("retry_after 12abc, retry after 7"), Some(7.0));
        assert_eq!(retry_after("xretry-after: 5"), None);
        // An accented letter is no word character to JavaScript's `\b`.
        assert_eq!(retry_after("éretry-after: 5"), Some(5.0));
        assert_eq!(retry_after("no hint"), None);
        // JavaScript's `\s` takes in U+FEFF and leaves out U+0085.
        assert_eq!(retry_after("retry-after:\u{feff}5"), Some(5.0));
        assert_eq!(retry_after("retry-after:\u{85}5"), None);
    }
}
