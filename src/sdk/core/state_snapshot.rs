//! `state-snapshot` (`cmdStateSnapshot`): STATE.md's position, progress,
//! decisions, blockers and session as GSD Core 1.14.0 reads them — each
//! field through its frontmatter-then-body ladder, the phase from the
//! frontmatter, else `## Current Position`'s `Current Phase`, else its
//! `Phase`; decisions from the `Decisions Made` table; the session's dates
//! from `## Session` (or `## Session Continuity`).

use serde_json::{Value, json};

use super::super::compat::js::trim;
use super::super::compat::roadmap_text::{group, js_re};
use super::markdown::collect_section;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;
use super::progress_table::{Table, parse};
use super::smart_entry::blockers;
use super::state_fields::{
    int_field, parse_phase_from_prose, phase_from_prose, read_state, strip_frontmatter, value,
};

/// `state-snapshot`.
pub fn snapshot(call: &CoreCall) -> Result<Out, Refusal> {
    let path = call.project.join(".planning/STATE.md");
    if !path.exists() {
        return Ok(Out::json(&json!({"error": "STATE.md not found"})));
    }
    let Some((content, fm)) = read_state(&path)? else {
        return Err(hand_on(" for a STATE.md that cannot be read"));
    };
    let body = strip_frontmatter(&content);
    let body = body.as_str();
    let field = |scope: &str, key: Option<&str>, label: Option<&str>| value(&fm, scope, key, label);
    let position = collect_section(body, |h| {
        (h.level == 2 || h.level == 3) && trim(&h.text).to_lowercase() == "current position"
    });
    let position = position.as_deref().unwrap_or(body);
    let phase_of = |v: Option<String>| v.as_deref().and_then(phase_from_prose);
    let phase = phase_of(field(body, Some("current_phase"), None))
        .or_else(|| phase_of(field(position, None, Some("Current Phase"))))
        .or_else(|| phase_of(field(position, None, Some("Phase"))));
    let prose = field(position, None, Some("Phase"));
    let phase_name = field(body, Some("current_phase_name"), None)
        .or_else(|| field(position, None, Some("Current Phase Name")))
        .or_else(|| prose.as_deref().and_then(|p| parse_phase_from_prose(p).1));
    let total_phases = field(body, Some("total_phases"), Some("Total Phases"));
    let current_plan = field(body, Some("current_plan"), Some("Current Plan"));
    let total_plans = field(
        body,
        Some("total_plans_in_phase"),
        Some("Total Plans in Phase"),
    );
    let status = field(body, Some("status"), Some("Status"));
    let progress = field(body, Some("progress"), Some("Progress"));
    let raw_activity = field(body, None, Some("Last Activity"))
        .or_else(|| field(body, None, Some("Last activity")));
    let (prose_date, prose_desc) = last_activity_prose(raw_activity.as_deref());
    let last_activity = field(body, Some("last_activity"), None)
        .or(prose_date)
        .or(raw_activity);
    let last_activity_desc = field(
        body,
        Some("last_activity_desc"),
        Some("Last Activity Description"),
    )
    .or(prose_desc);
    let session = session_section(body);
    let paused_at = field(
        session.as_deref().unwrap_or(body),
        Some("paused_at"),
        Some("Paused At"),
    );
    // `raw ? parseInt(raw) : null`: an empty field is no number either.
    let int = |v: &Option<String>, pct: bool| -> Result<Value, Refusal> {
        Ok(int_field(v.as_deref().filter(|s| !s.is_empty()), pct)?
            .map_or(Value::Null, super::super::compat::js::number))
    };
    Ok(Out::json(&json!({
        "current_phase": phase,
        "current_phase_name": phase_name,
        "total_phases": int(&total_phases, false)?,
        "current_plan": current_plan,
        "total_plans_in_phase": int(&total_plans, false)?,
        "status": status,
        "progress_percent": int(&progress, true)?,
        "last_activity": last_activity,
        "last_activity_desc": last_activity_desc,
        "decisions": decisions(body),
        "blockers": blockers(body),
        "paused_at": paused_at,
        "session": session_fields(session.as_deref()),
    })))
}

/// `parseProseLastActivityField`: `2026-01-05 — what happened` as its date
/// and description; any other text is all date.
fn last_activity_prose(value: Option<&str>) -> (Option<String>, Option<String>) {
    let Some(v) = value.filter(|v| !v.is_empty()) else {
        return (None, None);
    };
    match js_re(r"^(\d{4}-\d{2}-\d{2})(?:\s+[—-]{1,2}\s+(.+))?$")
        .captures(v)
        .ok()
        .flatten()
    {
        Some(c) => {
            let desc = trim(group(&c, 2));
            (
                Some(group(&c, 1).to_string()),
                (!desc.is_empty()).then(|| desc.to_string()),
            )
        }
        None => (Some(v.to_string()), None),
    }
}

/// `matchSessionSection`: the body of `## Session`, else of
/// `## Session Continuity`.
fn session_section(body: &str) -> Option<String> {
    let named = |name: &'static str| {
        move |h: &super::markdown::Heading| h.level == 2 && trim(&h.text).to_lowercase() == name
    };
    collect_section(body, named("session"))
        .or_else(|| collect_section(body, named("session continuity")))
}

/// The session's last date, stopped-at and resume file.
fn session_fields(section: Option<&str>) -> Value {
    let first = |patterns: &[&str]| -> Value {
        let Some(s) = section else {
            return Value::Null;
        };
        patterns
            .iter()
            .find_map(|p| {
                js_re(p)
                    .captures(s)
                    .ok()
                    .flatten()
                    .map(|c| trim(group(&c, 1)).to_string())
            })
            .map_or(Value::Null, Value::String)
    };
    json!({
        "last_date": first(&[
            r"(?i)\*\*Last Date:\*\*\s*(.+)",
            r"(?im)^Last Date:\s*(.+)",
            r"(?i)\*\*Last session:\*\*\s*(.+)",
            r"(?im)^Last session:\s*(.+)",
        ]),
        "stopped_at": first(&[r"(?i)\*\*Stopped At:\*\*\s*(.+)", r"(?im)^Stopped At:\s*(.+)"]),
        "resume_file": first(&[r"(?i)\*\*Resume File:\*\*\s*(.+)", r"(?im)^Resume File:\s*(.+)"]),
    })
}

/// The rows of the first table under a `Decisions Made` heading with at
/// least three non-empty cells: phase, summary, rationale.
fn decisions(body: &str) -> Vec<Value> {
    let Some(section) = collect_section(body, |h| {
        js_re(r"(?i)^decisions made$")
            .is_match(trim(&h.text))
            .unwrap_or(false)
    }) else {
        return Vec::new();
    };
    let Some(table) = parse(&section) else {
        return Vec::new();
    };
    table
        .rows
        .iter()
        .filter_map(|row| {
            let cells: Vec<&str> = table
                .columns
                .iter()
                .map(|c| trim(Table::cell(row, c)))
                .filter(|c| !c.is_empty())
                .collect();
            (cells.len() >= 3)
                .then(|| json!({"phase": cells[0], "summary": cells[1], "rationale": cells[2]}))
        })
        .collect()
}
