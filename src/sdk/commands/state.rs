//! state.load, state.update, state.patch, state.record-session.
//!
//! Writes set only the fields named, through `ops::state::patch_shown`:
//! gsd-sdk rebuilds STATE.md's whole frontmatter on every write (28 of 28
//! STATE.md files rewritten by a one-field update); here one field is one
//! line, and a value already there changes nothing.

use serde_json::{Value, json};

use super::super::compat::config as cfg;
use super::super::compat::roadmap_text as rt;
use super::super::{Call, Reply, SdkError};
use super::{op_error, store};
use crate::ops::OpError;

/// `state.load`: the legacy config, STATE.md's text and which core files exist.
pub fn load(call: &Call) -> Result<Reply, SdkError> {
    let planning = call.planning();
    let state_raw = std::fs::read(planning.join("STATE.md"))
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let state_exists = !state_raw.is_empty();
    Ok(Reply::Json(json!({
        "config": Value::Object(cfg::legacy(call.project)),
        "state_raw": state_raw,
        "state_exists": state_exists,
        "roadmap_exists": planning.join("ROADMAP.md").exists(),
        "config_exists": planning.join("config.json").exists(),
    })))
}

/// Set `pairs` on STATE.md; `(updated, missing)`. No STATE.md sets nothing.
fn patch(
    call: &Call,
    pairs: Vec<(String, String)>,
) -> Result<(Vec<String>, Vec<String>), SdkError> {
    let mut said = (Vec::new(), Vec::new());
    let all: Vec<String> = pairs.iter().map(|(k, _)| k.clone()).collect();
    match store(call, |ws| {
        let p = crate::ops::state::patch_shown(ws, &pairs)?;
        said = (p.updated, p.missing);
        Ok(p.change)
    }) {
        Ok(_) => Ok(said),
        Err(OpError::Missing { .. }) => Ok((Vec::new(), all)),
        Err(e) => Err(op_error(e)),
    }
}

/// `state.update FIELD VALUE` → `{updated}`.
pub fn update(call: &Call) -> Result<Reply, SdkError> {
    let (Some(field), Some(value)) = (call.arg(0).filter(|f| !f.is_empty()), call.arg(1)) else {
        return Err(SdkError::validation(
            "field and value required for state update",
        ));
    };
    let (updated, _) = patch(call, vec![(field.into(), value.into())])?;
    Ok(Reply::Json(json!({"updated": !updated.is_empty()})))
}

/// `state.patch --field value …` or `state.patch '{"field": "value"}'` → `{updated, failed}`.
pub fn patch_cmd(call: &Call) -> Result<Reply, SdkError> {
    let args = call.args;
    let pairs: Vec<(String, String)> = if args.len() >= 2 && args[0].starts_with("--") {
        args.chunks(2)
            .filter(|c| c.len() == 2)
            .map(|c| (c[0].trim_start_matches("--").to_string(), c[1].clone()))
            .filter(|(k, _)| !k.is_empty())
            .collect()
    } else {
        let Some(text) = call.arg(0).filter(|t| !t.is_empty()) else {
            return Err(SdkError::validation("JSON patches required"));
        };
        let Ok(Value::Object(m)) = serde_json::from_str::<Value>(text) else {
            return Err(SdkError::validation("Invalid JSON for patches"));
        };
        m.into_iter()
            .map(|(k, v)| {
                let s = match v {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                (k, s)
            })
            .collect()
    };
    let (updated, failed) = patch(call, pairs)?;
    Ok(Reply::Json(json!({"updated": updated, "failed": failed})))
}

/// `state.record-session [--stopped-at S] [--resume-file F]`.
pub fn record_session(call: &Call) -> Result<Reply, SdkError> {
    let named = |flag: &str| {
        call.args
            .iter()
            .position(|a| a == flag)
            .and_then(|i| call.args.get(i + 1))
            .filter(|v| !v.starts_with("--"))
            .cloned()
    };
    let now = jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string();
    let mut pairs = vec![
        ("Last session".to_string(), now.clone()),
        ("Last Date".to_string(), now),
    ];
    if let Some(s) = named("--stopped-at") {
        pairs.push(("Stopped At".into(), s));
    }
    pairs.push((
        "Resume File".into(),
        named("--resume-file").unwrap_or_else(|| "None".into()),
    ));
    let (updated, _) = patch(call, pairs)?;
    Ok(Reply::Json(if updated.is_empty() {
        json!({"recorded": false, "reason": "No session fields found in STATE.md"})
    } else {
        json!({"recorded": true, "updated": updated})
    }))
}

/// gsd-sdk's `parseNamedArgs`: `--flag value` for each flag, `None` when absent.
pub(super) fn named_args(call: &Call, flags: &[&str]) -> Result<Vec<Option<String>>, SdkError> {
    flags
        .iter()
        .map(|f| {
            let Some(i) = call.args.iter().position(|a| *a == format!("--{f}")) else {
                return Ok(None);
            };
            match call.args.get(i + 1) {
                Some(v) if !v.starts_with("--") => Ok(Some(v.clone())),
                _ => Err(SdkError::validation(format!("missing value for --{f}"))),
            }
        })
        .collect()
}

/// Inline text, or the text of a file inside the project (`--…-file`).
fn text_or_file(
    call: &Call,
    value: Option<String>,
    file: Option<String>,
    label: &str,
) -> Result<String, String> {
    let Some(file) = file else {
        return Ok(value.unwrap_or_default().trim().to_string());
    };
    let path = super::fm::under_project(call, &file)
        .map_err(|_| format!("{label} path rejected: outside project directory"))?;
    std::fs::read_to_string(path)
        .map(|t| t.trim_end().to_string())
        .map_err(|_| format!("{label} file not found: {file}"))
}

/// Whether STATE.md has the section gsd-sdk's pattern looks for.
fn has_section(call: &Call, pattern: &str) -> bool {
    let text = std::fs::read_to_string(call.planning().join("STATE.md")).unwrap_or_default();
    super::super::compat::roadmap_text::re(pattern)
        .is_match(&text)
        .unwrap_or(false)
}

fn add_entry(call: &Call, list: crate::ops::state::List, entry: &str) -> Result<(), SdkError> {
    super::write(call, |ws| crate::ops::state::add_entry(ws, list, entry)).map(|_| ())
}

/// `state.add-decision --summary S [--phase N] [--rationale R]` (or `--…-file`).
pub fn add_decision(call: &Call) -> Result<Reply, SdkError> {
    let a = named_args(
        call,
        &[
            "phase",
            "summary",
            "summary-file",
            "rationale",
            "rationale-file",
        ],
    )?;
    let texts = text_or_file(call, a[1].clone(), a[2].clone(), "summary")
        .and_then(|s| text_or_file(call, a[3].clone(), a[4].clone(), "rationale").map(|r| (s, r)));
    let (summary, rationale) = match texts {
        Ok(t) => t,
        Err(reason) => return Ok(Reply::Json(json!({"added": false, "reason": reason}))),
    };
    if summary.is_empty() {
        return Ok(Reply::Json(json!({"error": "summary required"})));
    }
    let phase = a[0]
        .clone()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "?".into());
    let rationale = if rationale.is_empty() {
        String::new()
    } else {
        format!(" — {rationale}")
    };
    let entry = format!("[Phase {phase}]: {summary}{rationale}");
    if !has_section(
        call,
        r"(?i)###?\s*(?:Decisions|Decisions Made|Accumulated.*Decisions)\s*\n",
    ) {
        return Ok(Reply::Json(
            json!({"added": false, "reason": "Decisions section not found in STATE.md"}),
        ));
    }
    add_entry(call, crate::ops::state::List::Decisions, &entry)?;
    Ok(Reply::Json(
        json!({"added": true, "decision": format!("- {entry}")}),
    ))
}

/// `state.add-blocker --text T` (or `--text-file F`).
pub fn add_blocker(call: &Call) -> Result<Reply, SdkError> {
    let a = named_args(call, &["text", "text-file"])?;
    let text = match text_or_file(call, a[0].clone(), a[1].clone(), "blocker") {
        Ok(t) => t,
        Err(reason) => return Ok(Reply::Json(json!({"added": false, "reason": reason}))),
    };
    if text.is_empty() {
        return Ok(Reply::Json(json!({"error": "text required"})));
    }
    if !has_section(
        call,
        r"(?i)###?\s*(?:Blockers|Blockers/Concerns|Concerns)\s*\n",
    ) {
        return Ok(Reply::Json(
            json!({"added": false, "reason": "Blockers section not found in STATE.md"}),
        ));
    }
    add_entry(call, crate::ops::state::List::Blockers, &text)?;
    Ok(Reply::Json(json!({"added": true, "blocker": text})))
}

/// `state.add-roadmap-evolution --phase N --action A [--note T] [--after M] [--urgent]`:
/// one `- Phase N inserted after Phase M: T (URGENT)` line under
/// `### Roadmap Evolution`; the same line already there changes nothing.
pub fn add_roadmap_evolution(call: &Call) -> Result<Reply, SdkError> {
    let a = named_args(call, &["phase", "action", "note", "after"])?;
    let urgent = call.args.iter().any(|x| x == "--urgent");
    let given = |i: usize| a[i].clone().filter(|v| !v.is_empty());
    let Some(phase) = given(0) else {
        return Err(SdkError::validation(
            "phase required for state.add-roadmap-evolution",
        ));
    };
    let Some(action) = given(1) else {
        return Err(SdkError::validation(
            "action required for state.add-roadmap-evolution",
        ));
    };
    let actions = ["inserted", "removed", "moved", "edited", "added"];
    if !actions.contains(&action.as_str()) {
        return Err(SdkError::validation(format!(
            "invalid action \"{action}\" (expected one of: {})",
            actions.join(", ")
        )));
    }
    let note = a[2]
        .as_deref()
        .map(super::super::compat::js::trim)
        .unwrap_or("");
    let mut entry = format!("- Phase {phase} {action}");
    if action == "inserted"
        && let Some(after) = given(3)
    {
        entry.push_str(&format!(" after Phase {after}"));
    }
    if !note.is_empty() {
        entry.push_str(&format!(": {note}"));
    }
    if action == "inserted" && urgent {
        entry.push_str(" (URGENT)");
    }
    let text = std::fs::read(call.planning().join("STATE.md"))
        .map_err(|_| SdkError::execution("STATE.md not found"))?;
    let text = String::from_utf8_lossy(&text);
    // gsd-sdk dedupes inside `### Roadmap Evolution`; gsd adds to a
    // `## Roadmap Evolution` list too, so that is where it looks as well.
    let duplicate = super::super::compat::roadmap_text::re(
        r"(?i)###?\s*Roadmap Evolution\s*\n([\s\S]*?)(?=\n###?\s|\n##[^#]|$)",
    )
    .captures(text.as_ref())
    .ok()
    .flatten()
    .is_some_and(|c| {
        c.get(1)
            .is_some_and(|b| b.as_str().split('\n').any(|l| l.trim() == entry.trim()))
    });
    if duplicate {
        return Ok(Reply::Json(
            json!({"added": false, "reason": "duplicate", "entry": entry}),
        ));
    }
    let item = entry.strip_prefix("- ").unwrap_or(&entry);
    add_entry(call, crate::ops::state::List::RoadmapEvolution, item)?;
    Ok(Reply::Json(json!({"added": true, "entry": entry})))
}

/// `state.update-progress`: the body's `Progress:` line set to the share
/// of the current milestone's plans that have a summary, as a 10-wide bar.
pub fn update_progress(call: &Call) -> Result<Reply, SdkError> {
    let in_milestone = rt::milestone_filter(call.project);
    let phases = call.planning().join("phases");
    let (mut plans, mut summaries) = (0usize, 0usize);
    let plan = rt::re(r"(?i)-PLAN\.md$");
    let summary = rt::re(r"(?i)-SUMMARY\.md$");
    for dir in super::names_in(&phases)
        .into_iter()
        .filter(|d| phases.join(d).is_dir() && in_milestone(d))
    {
        for f in super::names_in(&phases.join(&dir)) {
            plans += usize::from(plan.is_match(&f).unwrap_or(false));
            summaries += usize::from(summary.is_match(&f).unwrap_or(false));
        }
    }
    let percent = if plans > 0 {
        ((summaries as f64 / plans as f64) * 100.0)
            .round()
            .min(100.0) as usize
    } else {
        0
    };
    let filled = ((percent as f64 / 100.0) * 10.0).round() as usize;
    let bar = format!(
        "[{}{}] {percent}%",
        "\u{2588}".repeat(filled),
        "\u{2591}".repeat(10 - filled)
    );
    let mut shown = false;
    match store(call, |ws| {
        let (change, found) = crate::ops::state::set_progress_line(ws, &bar)?;
        shown = found;
        Ok(change)
    }) {
        Ok(_) | Err(OpError::Missing { .. }) => {}
        Err(e) => return Err(op_error(e)),
    }
    Ok(Reply::Json(if shown {
        json!({"updated": true, "percent": percent, "completed": summaries, "total": plans, "bar": bar})
    } else {
        json!({"updated": false, "reason": "Progress field not found in STATE.md"})
    }))
}

/// `state.record-metric --phase P --plan N --duration D [--tasks T] [--files F]`:
/// a row in the Performance Metrics table.
pub fn record_metric(call: &Call) -> Result<Reply, SdkError> {
    let flags = ["phase", "plan", "duration", "tasks", "files"];
    let named = named_args(call, &flags)?;
    let get = |k: &str| {
        let i = flags.iter().position(|f| *f == k)?;
        named[i].clone().filter(|v| !v.is_empty())
    };
    let (Some(phase), Some(plan), Some(duration)) = (get("phase"), get("plan"), get("duration"))
    else {
        return Ok(Reply::Json(
            json!({"error": "phase, plan, and duration required"}),
        ));
    };
    let tasks = get("tasks").unwrap_or_else(|| "-".into());
    let files = get("files").unwrap_or_else(|| "-".into());
    let row = format!("| Phase {phase} P{plan} | {duration} | {tasks} tasks | {files} files |");
    let mut added = false;
    match store(call, |ws| {
        let (change, found) = crate::ops::state::add_metric_row(ws, &row)?;
        added = found;
        Ok(change)
    }) {
        Ok(_) | Err(OpError::Missing { .. }) => {}
        Err(e) => return Err(op_error(e)),
    }
    Ok(Reply::Json(if added {
        json!({"recorded": true, "phase": phase, "plan": plan, "duration": duration})
    } else {
        json!({"recorded": false, "reason": "Performance Metrics section not found in STATE.md"})
    }))
}
