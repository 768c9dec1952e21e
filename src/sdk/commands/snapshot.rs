//! state-snapshot: STATE.md's position, progress, decisions, blockers and
//! session as one object — frontmatter values first (a body table cell
//! must not shadow them), then the body's `**Field:**` lines.

use serde_json::{Value, json};

use super::super::compat::fm_lines;
use super::super::compat::js::{self, JS_DOT};
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};

/// `stateExtractField`: `**Field:** value`, else `Field: value` at a line start.
pub fn extract_field(content: &str, field: &str) -> Option<String> {
    let f = rt::escape(field);
    for p in [
        format!(r"(?i)\*\*{f}:\*\*[ \t]*({JS_DOT}+)"),
        format!(r"(?im)^{f}:[ \t]*({JS_DOT}+)"),
    ] {
        if let Some(c) = re(&p).captures(content).ok().flatten() {
            return Some(js::trim(rt::group(&c, 1)).to_string());
        }
    }
    None
}

/// `stripFrontmatter`: every leading `---` block, repeatedly.
fn strip_frontmatter(content: &str) -> String {
    let block = re(r"^\s*---\r?\n[\s\S]*?\r?\n---\s*");
    let mut out = content.to_string();
    loop {
        let next = block.replace(&out, "").into_owned();
        if next == out {
            return out;
        }
        out = next;
    }
}

/// `state-snapshot`.
pub fn run(call: &Call) -> Result<Reply, SdkError> {
    let Ok(content) = std::fs::read(call.planning().join("STATE.md")) else {
        return Ok(Reply::Json(json!({"error": "STATE.md not found"})));
    };
    let content = String::from_utf8_lossy(&content);
    let fm = fm_lines::parse(&content);
    let body = strip_frontmatter(&content);
    let field = |key: &str, label: &str| -> Option<String> {
        let from_fm = match fm.get(key) {
            Some(Value::String(s)) => Some(js::trim(s).to_string()).filter(|s| !s.is_empty()),
            Some(v @ (Value::Number(_) | Value::Bool(_))) => Some(v.to_string()),
            _ => None,
        };
        from_fm.or_else(|| extract_field(&body, label))
    };
    let int = |v: Option<String>| {
        v.filter(|s| !s.is_empty())
            .map(|s| js::parse_int(&s).map_or(Value::Null, js::number))
            .unwrap_or(Value::Null)
    };
    let progress = field("progress", "Progress")
        .filter(|s| !s.is_empty())
        .and_then(|p| js::parse_int(&p.replace('%', "")))
        .map_or(Value::Null, js::number);
    let mut decisions = Vec::new();
    if let Some(c) =
        re(r"(?i)##\s*Decisions Made[\s\S]*?\n\|[^\n]+\n\|[-|\s]+\n([\s\S]*?)(?=\n##|\n$|$)")
            .captures(body.as_str())
            .ok()
            .flatten()
    {
        for row in js::trim(rt::group(&c, 1))
            .split('\n')
            .filter(|r| r.contains('|'))
        {
            let cells: Vec<&str> = row
                .split('|')
                .map(js::trim)
                .filter(|c| !c.is_empty())
                .collect();
            if cells.len() >= 3 {
                decisions
                    .push(json!({"phase": cells[0], "summary": cells[1], "rationale": cells[2]}));
            }
        }
    }
    let section = |name: &str| {
        re(&format!(r"(?i)##\s*{name}\s*\n([\s\S]*?)(?=\n##|$)"))
            .captures(body.as_str())
            .ok()
            .flatten()
            .map(|c| rt::group(&c, 1).to_string())
    };
    let blockers: Vec<String> = section("Blockers")
        .map(|s| {
            re(&format!(r"(?m)^-\s+{JS_DOT}+"))
                .find_iter(&s)
                .filter_map(Result::ok)
                .map(|m| js::trim(&re(r"^-\s+").replace(m.as_str(), "")).to_string())
                .collect()
        })
        .unwrap_or_default();
    let mut session = json!({"last_date": null, "stopped_at": null, "resume_file": null});
    if let Some(s) = section("Session") {
        for (key, label) in [
            ("last_date", "Last Date"),
            ("stopped_at", "Stopped At"),
            ("resume_file", "Resume File"),
        ] {
            let found = [
                format!(r"(?i)\*\*{label}:\*\*\s*({JS_DOT}+)"),
                format!(r"(?im)^{label}:\s*({JS_DOT}+)"),
            ]
            .iter()
            .find_map(|p| {
                re(p)
                    .captures(s.as_str())
                    .ok()
                    .flatten()
                    .map(|c| js::trim(rt::group(&c, 1)).to_string())
            });
            if let Some(v) = found {
                session[key] = json!(v);
            }
        }
    }
    Ok(Reply::Json(json!({
        "current_phase": field("current_phase", "Current Phase"),
        "current_phase_name": field("current_phase_name", "Current Phase Name"),
        "total_phases": int(field("total_phases", "Total Phases")),
        "current_plan": field("current_plan", "Current Plan"),
        "total_plans_in_phase": int(field("total_plans_in_phase", "Total Plans in Phase")),
        "status": field("status", "Status"),
        "progress_percent": progress,
        "last_activity": field("last_activity", "Last Activity"),
        "last_activity_desc": field("last_activity_desc", "Last Activity Description"),
        "decisions": decisions,
        "blockers": blockers,
        "paused_at": field("paused_at", "Paused At"),
        "session": session,
    })))
}
