//! `.planning/state.json` (`state-contract.cjs`, schema 1.0.0): the snapshot
//! GSD Core 1.14.0 publishes after its step-boundary commands (phase add,
//! insert, remove, complete, milestone complete, the state transitions) for
//! tools outside it — the current milestone, the roadmap's phases with a
//! three-word status, the next command smart-entry recommends, and when.
//!
//! gsd answers some of those commands itself; where it does, it publishes
//! the same snapshot, so a reader of `state.json` never sees one older than
//! the roadmap. The snapshot is checked buildable before the command
//! writes anything ([`build`] refuses what gsd cannot read as 1.14.0
//! does), and the file is written whole, beside the planning documents, as
//! 1.14.0 writes it: best effort, never failing the command.

use std::path::Path;

use serde_json::{Value, json};

use super::super::compat::js::trim;
use super::super::compat::roadmap_text::{group, js_re};
use super::markdown::collect_section;
use super::milestone_window::{is_sentinel, milestone_info};
use super::native::{Refusal, hand_on};
use super::output::pretty;
use super::progress_table::{Table, locate};
use super::smart_entry::classify_project;
use super::state_fields::{phase_from_prose, read_state, strip_frontmatter, value};

/// The snapshot 1.14.0's `buildStateContract` would make now, or why gsd
/// cannot tell.
pub fn build(project: &Path, now: i64) -> Result<Value, Refusal> {
    let planning = project.join(".planning");
    if super::roadmap_analyze::convention(&planning).as_deref() == Some("bracket") {
        return Err(hand_on(" for the bracket phase-id convention"));
    }
    let milestone = milestone_info(project).map(|(version, name)| match name {
        Some(n) if !n.is_empty() => json!(format!("{version} — {n}")),
        _ => json!(version),
    });
    let phases = phases(&planning)?;
    let entry = classify_project(project, now)?;
    let next = entry
        .recommended_action()
        .map(|a| json!({"command": a.command, "label": a.label, "reason": entry.summary}));
    Ok(json!({
        "contract": "1.0.0",
        "flavor": "core",
        "milestone": milestone,
        "phases": phases,
        "next": next,
        "updated_at": iso(now),
    }))
}

/// `new Date(ms).toISOString()`.
fn iso(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .unwrap_or_default()
}

/// `publishStateContract`: `.planning/state.json` written whole (nothing
/// where there is no `.planning/`); a failure is the snapshot's, never the
/// command's.
pub fn publish(project: &Path, now: i64) {
    let planning = project.join(".planning");
    if !planning.is_dir() {
        return;
    }
    if let Ok(snapshot) = build(project, now) {
        let _ = crate::store::atomic::write(
            &planning.join("state.json"),
            format!("{}\n", pretty(&snapshot)).as_bytes(),
        );
    }
}

/// `buildPhases`: the progress table's rows, else the `## Phases`
/// checklist's `**Phase N: Name**` bullets; none without a roadmap.
fn phases(planning: &Path) -> Result<Vec<Value>, Refusal> {
    let Ok(bytes) = std::fs::read(planning.join("ROADMAP.md")) else {
        return Ok(Vec::new());
    };
    let text = String::from_utf8_lossy(&bytes);
    let roadmap = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if let Some(table) = locate(roadmap) {
        return Ok(table_phases(&table));
    }
    checklist_phases(roadmap, &planning.join("STATE.md"))
}

/// `phasesFromProgressTable`.
fn table_phases(table: &Table) -> Vec<Value> {
    table
        .rows
        .iter()
        .filter_map(|row| {
            let cell = trim(Table::cell(row, "Phase"));
            if !cell.starts_with(|c: char| c.is_ascii_digit()) || is_sentinel(cell) {
                return None;
            }
            let m = js_re(r"^(\d+(?:\.\d+)*)\s*[.:)–—-]?\s*(.*)$")
                .captures(cell)
                .ok()
                .flatten();
            let number = m.as_ref().map_or(cell, |c| group(c, 1));
            let name = m
                .as_ref()
                .map(|c| trim(group(c, 2)))
                .filter(|n| !n.is_empty());
            Some(json!({
                "number": number,
                "name": name,
                "status": table_status(Table::cell(row, "Status")),
            }))
        })
        .collect()
}

/// `statusFromProgressCell`: `complete`, `in progress`, else pending.
fn table_status(raw: &str) -> &'static str {
    let words: Vec<&str> = trim(raw)
        .split(super::super::compat::js::is_js_space)
        .filter(|w| !w.is_empty())
        .collect();
    match words.join(" ").to_lowercase().as_str() {
        "complete" => "complete",
        "in progress" => "in_progress",
        _ => "pending",
    }
}

/// `phasesFromChecklist`: the bullets of the `## Phases` section; an
/// unticked one is in progress when STATE.md names it as current.
fn checklist_phases(roadmap: &str, state: &Path) -> Result<Vec<Value>, Refusal> {
    let Some(section) = collect_section(roadmap, |h| {
        js_re(r"(?i)^phases$")
            .is_match(trim(&h.text))
            .unwrap_or(false)
    }) else {
        return Ok(Vec::new());
    };
    let current = current_phase(state)?;
    let bullet = js_re(
        r"(?m)^[ \t]*[-*][ \t]+\[([ xX])\][ \t]+\*\*Phase[ \t]+(\d+(?:\.\d+)*)[ \t]*:?[ \t]*([^*\n]*)\*\*",
    );
    Ok(bullet
        .captures_iter(&section)
        .filter_map(Result::ok)
        .filter(|c| !is_sentinel(group(c, 2)))
        .map(|c| {
            let number = group(&c, 2);
            let name = trim(group(&c, 3).strip_suffix('\r').unwrap_or(group(&c, 3))).to_string();
            let status = if group(&c, 1).eq_ignore_ascii_case("x") {
                "complete"
            } else if current.as_deref() == Some(number) {
                "in_progress"
            } else {
                "pending"
            };
            json!({
                "number": number,
                "name": (!name.is_empty()).then_some(name),
                "status": status,
            })
        })
        .collect())
}

/// `currentPhaseFromState`: STATE.md's `current_phase` (frontmatter, else
/// `Current Phase`), as a phase number.
fn current_phase(state: &Path) -> Result<Option<String>, Refusal> {
    let Some((raw, fm)) = read_state(state)? else {
        return Ok(None);
    };
    let body = strip_frontmatter(&raw);
    Ok(
        value(&fm, &body, Some("current_phase"), Some("Current Phase"))
            .as_deref()
            .and_then(phase_from_prose),
    )
}
