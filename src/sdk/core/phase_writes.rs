//! GSD Core 1.14.0's `phase add` and `phase insert` answered by gsd's own phase edit (the
//! roadmap's section, checklist line and progress row in the roadmap's own
//! shape, the folder with its `.gitkeep`, STATE.md's phase total — one
//! change through the write path), in 1.14.0's words, followed by the
//! `state.json` snapshot 1.14.0 publishes after it.
//!
//! The new phase's number is 1.14.0's — for `add`, one past the highest
//! whole number the current milestone's headings and checklist bullets and
//! the phase folders use, the 0 and 999 sentinels left out; for `insert`,
//! the next decimal under the phase, past every one its folders, headings
//! and checklist already use — and gsd's edit must make that same phase,
//! or nothing is written and the call goes on.
//! Handed on as well: project codes and custom naming, a custom `--id`, a
//! description that spans lines (1.14.0 refuses milestone headings in it),
//! sibling git worktrees (1.14.0 counts their phases too), the bracket
//! phase-id convention, and a snapshot gsd cannot build as 1.14.0 would.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};

use super::super::commands::write;
use super::super::compat::js;
use super::super::compat::roadmap_text::{escape, group, js_re};
use super::milestone_window::{current_window, is_sentinel};
use super::native::{CoreCall, Refusal, config_object, hand_on};
use super::output::{Failure, Out};
use super::phase_id::{normalize_phase_name, strip_project_code};
use super::roadmap_analyze::{all_phase_dirs, convention};
use super::slug::slug;
use super::state_contract;
use crate::ops::OpError;

/// `phase add DESCRIPTION…` → `{phase_number, padded, name, slug,
/// directory, naming_mode[, warning]}`, raw the padded number.
pub fn add(call: &CoreCall) -> Result<Out, Refusal> {
    let description = call.args.join(" ");
    let Planned {
        planning,
        config,
        roadmap,
    } = preflight(call, &description, "a custom --id")?;
    let naming = match config.get("phase_naming") {
        None => "sequential".to_string(),
        Some(Value::String(s)) if s == "sequential" => s.clone(),
        Some(_) => return Err(hand_on(" for a configured phase_naming")),
    };
    if sibling_worktrees(call.project) {
        return Err(hand_on(
            " beside other git worktrees (1.14.0 counts their phases)",
        ));
    }
    let number = next_number(&roadmap, call.project, &planning.join("phases"));
    let slug = slug(&description, Some(60)).unwrap_or_default();
    let padded = format!("{number:02}");
    let directory = format!(".planning/phases/{padded}-{slug}");
    let same = |a: &crate::ops::phase::Added| a.id == number.to_string() && a.dir == directory;
    write_as_core(
        call,
        |ws| crate::ops::phase::add_shown(ws, &description),
        same,
    )?;
    let mut out = serde_json::Map::new();
    out.insert("phase_number".into(), json!(number));
    out.insert("padded".into(), json!(padded));
    out.insert("name".into(), json!(description));
    out.insert("slug".into(), json!(slug));
    out.insert("directory".into(), json!(directory));
    out.insert("naming_mode".into(), json!(naming));
    if let Some(w) = goal_shaped(&description) {
        out.insert("warning".into(), json!(w));
    }
    Ok(Out::with_raw(&Value::Object(out), padded))
}

/// `phase insert AFTER DESCRIPTION…` → `{phase_number, after_phase, name,
/// slug, directory}`, raw the new decimal phase. Answered after a phase
/// with a heading in the current milestone (1.14.0's bullet-only roadmaps
/// and its refusals go on).
pub fn insert(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(after) = call
        .args
        .first()
        .filter(|a| !a.is_empty() && !a.starts_with("--"))
    else {
        return Err(hand_on(" without a phase"));
    };
    let description = call.args[1..].join(" ");
    let Planned {
        planning, roadmap, ..
    } = preflight(call, &description, "--sibling")?;
    let (window, _) = current_window(&roadmap, call.project);
    let base = normalize_phase_name(after);
    if strip_project_code(&base, true).contains('-') {
        return Err(hand_on(" after a milestone-numbered phase"));
    }
    let number = markdown_source(&base);
    let heading = format!(r"(?i)#{{2,4}}\s*Phase\s+{number}{TAG}:");
    if !js_re(&heading).is_match(&window).unwrap_or(false) {
        // 1.14.0 inserts into a roadmap of checklist bullets only; where
        // the roadmap has headings and none is this phase's, it refuses.
        let bullet = js_re(&format!(
            r"(?i)-\s*\[[ x]\]\s*(?:\*\*)?Phase\s+{number}{TAG}[:\s]"
        ))
        .is_match(&window)
        .unwrap_or(false);
        let headings = js_re(r"(?i)#{2,4}\s*Phase\s+\d")
            .is_match(&window)
            .unwrap_or(false);
        if bullet && !headings {
            return Err(hand_on(" into a roadmap of checklist bullets only"));
        }
        let message = if bullet {
            format!(
                "Phase {after} exists in roadmap summary but is missing a detail section (### Phase {after}: ...)."
            )
        } else {
            format!("Phase {after} not found in ROADMAP.md")
        };
        return Err(Refusal::Fail(Failure::new("unknown", message)));
    }
    let decimal = format!(
        "{base}.{}",
        next_decimal(&roadmap, &planning.join("phases"), &base)?
    );
    let slug = slug(&description, Some(60)).unwrap_or_default();
    let directory = format!(".planning/phases/{decimal}-{slug}");
    let same = |a: &crate::ops::phase::Added| a.dir == directory;
    write_as_core(
        call,
        |ws| crate::ops::phase::insert_shown(ws, after, &description),
        same,
    )?;
    let reply = json!({
        "phase_number": decimal,
        "after_phase": after,
        "name": description,
        "slug": slug,
        "directory": directory,
    });
    Ok(Out::with_raw(&reply, decimal))
}

/// `OPTIONAL_PHASE_TAG_SOURCE`: a `(tag)` between a phase's number and
/// its colon.
const TAG: &str = r"(?:\s*\([^)\n]{0,200}\))?";

/// `phaseMarkdownRegexSource(id)` for a phase id that is not
/// milestone-numbered: its number with any zero padding, its letter and
/// decimals as written.
fn markdown_source(id: &str) -> String {
    let stripped = strip_project_code(id, true);
    match js_re(r"(?i)^0*(\d+)([A-Z])?((?:\.\d+)*)$")
        .captures(stripped)
        .ok()
        .flatten()
    {
        Some(c) => {
            let integer = group(&c, 1).trim_start_matches('0');
            let integer = if integer.is_empty() { "0" } else { integer };
            format!(
                "0*{}{}{}",
                escape(integer),
                escape(group(&c, 2)),
                escape(group(&c, 3))
            )
        }
        None => escape(id),
    }
}

/// `scanExistingDecimalPhaseNumbers`: one past the highest decimal under
/// `base` that a phase folder, a roadmap heading or a checklist line uses.
fn next_decimal(roadmap: &str, phases: &Path, base: &str) -> Result<u64, Refusal> {
    let mut used = BTreeSet::new();
    if phases.exists() {
        let folder = js_re(&format!(r"^(?:[A-Z][A-Z0-9_]*-)?{}\.(\d+)", escape(base)));
        for dir in all_phase_dirs(phases)? {
            if let Some(c) = folder.captures(&dir).ok().flatten() {
                used.insert(group(&c, 1).parse::<u64>().unwrap_or(0));
            }
        }
    }
    let number = markdown_source(base);
    for pattern in [
        format!(r"(?i)#{{2,4}}\s*Phase\s+{number}\.(\d+){TAG}\s*:"),
        format!(r"(?i)-\s*\[[ x]\]\s*(?:\*\*)?Phase\s+{number}\.(\d+){TAG}[:\s]"),
    ] {
        for c in js_re(&pattern)
            .captures_iter(roadmap)
            .filter_map(Result::ok)
        {
            used.insert(group(&c, 1).parse::<u64>().unwrap_or(0));
        }
    }
    Ok(used.last().map_or(1, |m| m + 1))
}

/// What every phase write checks first, and what it read.
struct Planned {
    planning: std::path::PathBuf,
    config: serde_json::Map<String, Value>,
    roadmap: String,
}

/// The checks `add` and `insert` share, before anything is read for the
/// edit: no flag (`flag` names the one 1.14.0 takes that gsd does not), a
/// one-line description that is no heading (1.14.0 refuses milestone
/// headings in it), not the bracket convention, no project code (which
/// prefixes 1.14.0's folder names), a ROADMAP.md.
fn preflight(call: &CoreCall, description: &str, flag: &str) -> Result<Planned, Refusal> {
    if call.args.iter().any(|a| a.starts_with("--")) {
        return Err(hand_on(format!(
            " with a flag ({flag}, or one 1.14.0 refuses)"
        )));
    }
    if description.is_empty() || description.contains(['\n', '\r', '\0']) {
        return Err(hand_on(" without a one-line description"));
    }
    if js::trim(description).starts_with('#') {
        return Err(hand_on(
            " for a description that is a heading (1.14.0 refuses milestone headings)",
        ));
    }
    let planning = call.project.join(".planning");
    if convention(&planning).as_deref() == Some("bracket") {
        return Err(hand_on(" for the bracket phase-id convention"));
    }
    // Legacy keys 1.14.0's loader would move in config.json first change
    // nothing read here, and gsd leaves the file as it is (PARITY.md G2).
    let config = config_object(call)?.unwrap_or_default();
    if config.get("project_code").is_some_and(js::truthy) {
        return Err(hand_on(" for a project code"));
    }
    let Ok(bytes) = std::fs::read(planning.join("ROADMAP.md")) else {
        return Err(hand_on(" without a ROADMAP.md"));
    };
    Ok(Planned {
        planning,
        config,
        roadmap: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

/// gsd's phase edit, written only where it makes the phase 1.14.0 would
/// (`same`) and the `state.json` snapshot can be built: both are checked on
/// the tree as read before the write path is entered (which takes the lock
/// and so creates `.gsd/`), and the phase again under the lock. Then the
/// snapshot is published, as 1.14.0 publishes it.
fn write_as_core(
    call: &CoreCall,
    edit: impl Fn(&crate::model::Workspace) -> Result<crate::ops::phase::Added, OpError>,
    same: impl Fn(&crate::ops::phase::Added) -> bool,
) -> Result<(), Refusal> {
    let mismatch = "gsd's phase edit would make another phase than 1.14.0's";
    let ws =
        crate::model::Workspace::load_with(call.project, crate::model::workspace::Scope::Index)
            .map_err(|e| hand_on(format!(" here ({e})")))?;
    match edit(&ws) {
        Ok(a) if same(&a) => {}
        Ok(_) => return Err(hand_on(mismatch)),
        Err(e) => return Err(hand_on(format!(" here ({e})"))),
    }
    drop(ws);
    state_contract::build(call.project, jiff::Timestamp::now().as_millisecond())?;
    let written = write(&engine_call(call), |ws| {
        let added = edit(ws)?;
        if !same(&added) {
            return Err(OpError::invalid(mismatch, None));
        }
        Ok(added.change)
    });
    if let Err(e) = written {
        return Err(hand_on(e.message));
    }
    state_contract::publish(call.project, jiff::Timestamp::now().as_millisecond());
    Ok(())
}

/// The engine's view of this call (its write path takes the project).
fn engine_call<'a>(call: &'a CoreCall<'a>) -> super::super::Call<'a> {
    super::super::Call {
        project: call.project,
        args: call.args,
        cwd: call.cwd,
    }
}

/// Whether `git worktree list` names a worktree besides this one.
fn sibling_worktrees(project: &Path) -> bool {
    std::process::Command::new("git")
        .args(["worktree", "list", "--porcelain"])
        .current_dir(project)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .is_some_and(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .filter(|l| l.starts_with("worktree "))
                .count()
                > 1
        })
}

/// 1.14.0's next phase number: one past the highest whole number used by
/// the current milestone's `## Phase N:` headings (a `(tag)` allowed before
/// the colon) and `- [ ] **Phase N` bullets, and by the phase folders.
fn next_number(roadmap: &str, project: &Path, phases: &Path) -> u64 {
    let (window, _) = current_window(roadmap, project);
    let mut used = BTreeSet::new();
    let mut take = |n: &str| {
        if let Ok(v) = n.parse::<u64>()
            && !is_sentinel(&v.to_string())
        {
            used.insert(v);
        }
    };
    for pattern in [
        r"(?i)#{2,4}\s*Phase\s+(\d+)[A-Z]?(?:\.\d+)*(?:\s*\([^)\n]{0,200}\))?:",
        r"(?im)^[ \t]*-[ \t]*\[[^\]]{0,200}\][ \t]*\*{0,2}Phase[ \t]+(\d+)(?=[:.\s*]|$)",
    ] {
        for c in js_re(pattern).captures_iter(&window).filter_map(Result::ok) {
            take(group(&c, 1));
        }
    }
    if let Ok(entries) = std::fs::read_dir(phases) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(c) = js_re(r"^(?:[A-Z][A-Z0-9]*-)?(\d+)-")
                .captures(&name)
                .ok()
                .flatten()
            {
                take(group(&c, 1));
            }
        }
    }
    used.last().map_or(1, |m| m + 1)
}

/// `describeGoalShapedTitle`: a warning for a description longer than 80
/// UTF-16 units or holding more than one sentence.
fn goal_shaped(description: &str) -> Option<String> {
    let t = js::trim(description);
    let len = t.encode_utf16().count();
    let long = len > 80;
    let sentences = js_re(r#"[.!?]['")\]]?\s+\S"#).is_match(t).unwrap_or(false);
    if !long && !sentences {
        return None;
    }
    let reasons: Vec<String> = [
        long.then(|| format!("{len} chars (over the 80-char title threshold)")),
        sentences.then(|| "multiple sentences".to_string()),
    ]
    .into_iter()
    .flatten()
    .collect();
    Some(format!(
        "description looks goal-shaped, not title-shaped ({}). It was written verbatim as the phase title; consider a short title with the detail moved to **Goal:**.",
        reasons.join(", ")
    ))
}
