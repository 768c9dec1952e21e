//! The workstream commands of GSD Core 1.14.0 that manage the workstreams
//! themselves, answered as it answers them: `workstream set` and `get`
//! (the pointer to the workstream later calls work on, recorded and read
//! where 1.14.0 keeps it: see [`super::workstream_pointer`]), `workstream
//! create` (a flat project's files moved into a workstream of their own
//! first) and `workstream complete` (the workstream archived under
//! `milestones/`). The moves go through [`crate::store::relocate`].

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::init_phase_op::path_text;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};
use super::workstream_pointer::{clear_owned, owned_file, stored_healing};

const INVALID_NAME: &str = "Workstream name must be alphanumeric, hyphens, underscores, or dots";

/// Where `name` lives (`name` as given: 1.14.0 checks a name trimmed and
/// looks it up as given).
fn folder(project: &Path, name: &str) -> PathBuf {
    project.join(".planning/workstreams").join(name)
}

/// Record `name` in the pointer later calls read.
fn point_at(project: &Path, name: &str) -> Result<(), Refusal> {
    crate::store::workstream::write_pointer(&owned_file(project), name)
        .map_err(|e| hand_on(format!("the pointer cannot be written ({e})")))
}

/// The call's first argument, the workstream name; 1.14.0's usage error
/// (`usage`) where there is none.
fn name_or<'a>(call: &'a CoreCall, usage: &str) -> Result<&'a str, Refusal> {
    match call.args.first().map(String::as_str) {
        Some(n) if !n.is_empty() => Ok(n),
        _ => Err(Refusal::Fail(Failure::new("unknown", usage))),
    }
}

/// `workstream set NAME` / `workstream set --clear`.
pub fn set(call: &CoreCall) -> Result<Out, Refusal> {
    let name = name_or(
        call,
        "Workstream name required. Usage: workstream set <name> (or workstream set --clear to unset)",
    )?;
    if name == "--clear" {
        let previous = stored_healing(call.project);
        clear_owned(call.project);
        return Ok(Out::json(
            &json!({"active": null, "cleared": true, "previous": previous}),
        ));
    }
    if !crate::model::workstream::valid_name(super::js::trim(name)) {
        return Ok(Out::json(
            &json!({"active": null, "error": "invalid_name", "message": INVALID_NAME}),
        ));
    }
    if !folder(call.project, name).exists() {
        return Ok(Out::json(
            &json!({"active": null, "error": "not_found", "workstream": name}),
        ));
    }
    point_at(call.project, name)?;
    Ok(Out::with_raw(&json!({"active": name, "set": true}), name))
}

/// `workstream get`: the workstream later calls work on, and whether the
/// project has workstreams at all.
pub fn get(call: &CoreCall) -> Result<Out, Refusal> {
    let active = stored_healing(call.project);
    let mode = if call.project.join(".planning/workstreams").exists() {
        "workstream"
    } else {
        "flat"
    };
    let raw = active.clone().unwrap_or_else(|| "none".into());
    Ok(Out::with_raw(
        &json!({"active": active.map_or(Value::Null, Value::String), "mode": mode}),
        raw,
    ))
}

/// A path under the project as 1.14.0 prints it (relative).
fn relative(project: &Path, path: &Path) -> Result<String, Refusal> {
    path_text(path.strip_prefix(project).unwrap_or(path))
}

/// The STATE.md 1.14.0 gives a new workstream, dated `today`, as its
/// Markdown writer lays it out (a blank line after each heading).
fn new_state(slug: &str, today: &str) -> String {
    format!(
        "---\nworkstream: {slug}\ncreated: {today}\n---\n\n# Project State\n\n\
         ## Current Position\n\n**Status:** Not started\n**Current Phase:** None\n\
         **Last Activity:** {today}\n**Last Activity Description:** Workstream created\n\n\
         ## Progress\n\n**Phases Complete:** 0\n**Current Plan:** N/A\n\n\
         ## Session Continuity\n\n**Stopped At:** N/A\n**Resume File:** None\n"
    )
}

/// The files a flat project's workstream takes with it when it becomes the
/// first of several, in 1.14.0's order.
const MIGRATED: &[&str] = &["ROADMAP.md", "STATE.md", "REQUIREMENTS.md", "phases"];

/// The moves made, or the call handed on with the tree as it was (1.14.0
/// then meets the same failure and reports it in its words); where moving
/// back failed too, the failure names what is left moved.
fn relocated(root: &Path, moves: &[(PathBuf, PathBuf)]) -> Result<(), Refusal> {
    match crate::store::relocate::relocate(root, moves) {
        Ok(_) => Ok(()),
        Err(e) if e.undone() => Err(hand_on(format!("the move failed and was undone ({e})"))),
        Err(e) => Err(Refusal::Fail(Failure::new("unknown", e.to_string()))),
    }
}

/// The name the flat project's own workstream gets: `--migrate-name`'s
/// slug where one is given, else the current milestone's (`default`
/// without one); `Err` carries 1.14.0's answer to a name with no letter or
/// digit.
fn migration_name(call: &CoreCall) -> Result<String, Out> {
    let given = call
        .args
        .iter()
        .position(|a| a == "--migrate-name")
        .and_then(|i| call.args.get(i + 1))
        .filter(|n| !n.is_empty());
    if let Some(given) = given {
        return super::slug::slug(given, None)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| {
                Out::json(&json!({
                    "created": false, "error": "migration_failed",
                    "message": "Invalid migrate-name — must contain at least one alphanumeric character",
                }))
            });
    }
    Ok(super::milestone_window::milestone_info(call.project)
        .and_then(|(_, name)| name)
        .and_then(|n| super::slug::slug(&n, Some(60)))
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "default".into()))
}

/// `workstream create NAME [--no-migrate] [--migrate-name NAME]`: the
/// workstream's folder, its `phases/` and a new STATE.md, made the active
/// one; a flat project's roadmap, state, requirements and phases moved
/// into a workstream of their own first.
pub fn create(call: &CoreCall) -> Result<Out, Refusal> {
    let name = name_or(
        call,
        "workstream name required. Usage: workstream create <name>",
    )?;
    if name.starts_with("--") {
        return Err(hand_on(" with a flag where the name goes"));
    }
    let Some(slug) = super::slug::slug(name, None).filter(|s| !s.is_empty()) else {
        return Err(Refusal::Fail(Failure::new(
            "unknown",
            "Invalid workstream name — must contain at least one alphanumeric character",
        )));
    };
    let planning = call.project.join(".planning");
    if !planning.exists() {
        return Err(hand_on(" outside a planning tree"));
    }
    let root = planning.join("workstreams");
    let dir = root.join(&slug);
    let path = relative(call.project, &dir)?;
    if dir.exists() && dir.join("STATE.md").exists() {
        return Ok(Out::json(&json!({
            "created": false, "error": "already_exists", "workstream": slug, "path": path,
        })));
    }
    // The pointer is written last: its folder is made first, so a
    // pointer that cannot be written stops the call before anything moves.
    if let Some(folder) = owned_file(call.project).parent() {
        crate::store::workstream::make_folder(folder)
            .map_err(|e| hand_on(format!("the pointer's folder cannot be made ({e})")))?;
    }
    let migrate = !call.args.iter().any(|a| a == "--no-migrate");
    let existing = ["ROADMAP.md", "STATE.md", "phases"]
        .iter()
        .any(|f| planning.join(f).exists());
    let mut migration = Value::Null;
    if !root.exists() && migrate && existing {
        // 1.14.0 names the migration from the milestone of the workstream
        // the call is on, which a flat project does not have.
        if let Some(w) = call.workstream {
            return Err(hand_on(format!(" on workstream `{w}`")));
        }
        let into = match migration_name(call) {
            Ok(n) => n,
            Err(answer) => return Ok(answer),
        };
        let target = root.join(&into);
        let moved: Vec<&str> = MIGRATED
            .iter()
            .copied()
            .filter(|f| planning.join(f).exists())
            .collect();
        let moves: Vec<(PathBuf, PathBuf)> = moved
            .iter()
            .map(|f| (planning.join(f), target.join(f)))
            .collect();
        relocated(call.project, &moves)?;
        migration = json!({"migrated": true, "workstream": into, "files_moved": moved});
    }
    crate::store::workstream::make_folder(&dir.join("phases"))
        .map_err(|e| hand_on(format!("the workstream folder cannot be made ({e})")))?;
    let state = dir.join("STATE.md");
    if !state.exists() {
        let (_, today) = super::clock::stamps()?;
        let change = crate::store::ChangeSet::writes(
            format!("workstream {slug}: STATE.md"),
            vec![crate::store::FileChange {
                path: state,
                before: None,
                after: new_state(&slug, &today).into_bytes(),
            }],
        );
        crate::store::Transaction::begin(call.project)
            .and_then(|tx| tx.apply(&change, crate::store::CommitPolicy::Skip))
            .map_err(|e| hand_on(format!("STATE.md cannot be written ({e})")))?;
    }
    point_at(call.project, &slug)?;
    Ok(Out::json(&json!({
        "created": true,
        "workstream": slug,
        "path": path,
        "state_path": format!("{path}/STATE.md"),
        "phases_path": format!("{path}/phases"),
        "migration": migration,
        "active": true,
    })))
}

/// `workstream complete NAME`: everything in the workstream's folder moved
/// to `.planning/milestones/ws-NAME-DAY` (`-1`, `-2` … where that is
/// taken), the folder removed, and `workstreams/` too when it was the last;
/// the pointer cleared where it named it.
pub fn complete(call: &CoreCall) -> Result<Out, Refusal> {
    let name = name_or(
        call,
        "workstream name required. Usage: workstream complete <name>",
    )?;
    if !crate::model::workstream::valid_name(super::js::trim(name)) {
        return Err(Refusal::Fail(Failure::new(
            "unknown",
            "Invalid workstream name: must be alphanumeric, hyphens, underscores, or dots",
        )));
    }
    let planning = call.project.join(".planning");
    let root = planning.join("workstreams");
    let dir = folder(call.project, name);
    if !dir.exists() {
        return Ok(Out::json(
            &json!({"completed": false, "error": "not_found", "workstream": name}),
        ));
    }
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| hand_on(format!("the workstream cannot be read ({e})")))?
        .flatten()
        .map(|e| e.file_name())
        .collect();
    entries.sort_unstable();
    let (_, today) = super::clock::stamps()?;
    let archives = planning.join("milestones");
    let mut archive = archives.join(format!("ws-{name}-{today}"));
    let mut suffix = 1;
    while archive.exists() {
        archive = archives.join(format!("ws-{name}-{today}-{suffix}"));
        suffix += 1;
    }
    let archived_to = relative(call.project, &archive)?;
    let active = stored_healing(call.project).is_some_and(|a| a == name);
    let pointer = owned_file(call.project);
    let pointer_before = std::fs::read(&pointer).ok();
    if active {
        clear_owned(call.project);
    }
    let made_archives = !archives.exists();
    crate::store::workstream::make_folder(&archive)
        .map_err(|e| hand_on(format!("the archive folder cannot be made ({e})")))?;
    let moves: Vec<(PathBuf, PathBuf)> = entries
        .iter()
        .map(|n| (dir.join(n), archive.join(n)))
        .collect();
    if let Err(e) = relocated(call.project, &moves) {
        if matches!(e, Refusal::HandOn(_)) {
            // Everything moved back: as 1.14.0 leaves it, no archive folder
            // and the pointer as it was.
            crate::store::workstream::remove_empty_folder(&archive);
            if made_archives {
                crate::store::workstream::remove_empty_folder(&archives);
            }
            if let Some(bytes) = pointer_before.filter(|_| active) {
                let _ = crate::store::workstream::restore_pointer(&pointer, &bytes);
            }
        }
        return Err(e);
    }
    crate::store::workstream::remove_empty_folder(&dir);
    let remaining = std::fs::read_dir(&root)
        .map(|es| {
            es.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .count()
        })
        .unwrap_or(0);
    if remaining == 0 {
        crate::store::workstream::remove_empty_folder(&root);
    }
    Ok(Out::json(&json!({
        "completed": true,
        "workstream": name,
        "archived_to": archived_to,
        "remaining_workstreams": remaining,
        "reverted_to_flat": remaining == 0,
    })))
}
