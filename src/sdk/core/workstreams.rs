//! `workstream set` and `workstream get` as GSD Core 1.14.0 answers them:
//! the pointer to the workstream later calls work on, recorded where
//! 1.14.0 records it (the session's own pointer in a session, else
//! `.planning/active-workstream`; see [`super::workstream_pointer`]) and
//! read the way it reads it.

use std::path::Path;

use serde_json::{Value, json};

use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};
use super::workstream_pointer::{owned_file, resolves, session_key, stored};

const INVALID_NAME: &str = "Workstream name must be alphanumeric, hyphens, underscores, or dots";

/// Remove the pointer `set --clear` clears: the file, and a session's
/// folder when nothing else is left in it.
fn clear(project: &Path) -> Result<(), Refusal> {
    let file = owned_file(project);
    match std::fs::remove_file(&file) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(hand_on(format!("the pointer cannot be removed ({e})"))),
    }
    if session_key().is_some()
        && let Some(dir) = file.parent()
    {
        // Only an empty folder goes (`rmdir`), as 1.14.0 leaves it otherwise.
        let _ = std::fs::remove_dir(dir);
    }
    Ok(())
}

/// `workstream set NAME` / `workstream set --clear`.
pub fn set(call: &CoreCall) -> Result<Out, Refusal> {
    let name = call.args.first().map(String::as_str).unwrap_or("");
    if name.is_empty() {
        return Err(Refusal::Fail(Failure::new(
            "unknown",
            "Workstream name required. Usage: workstream set <name> (or workstream set --clear to unset)",
        )));
    }
    if name == "--clear" {
        let previous = stored(call.project);
        clear(call.project)?;
        return Ok(Out::json(
            &json!({"active": null, "cleared": true, "previous": previous}),
        ));
    }
    let name = super::js::trim(name);
    if !crate::model::workstream::valid_name(name) {
        return Ok(Out::json(
            &json!({"active": null, "error": "invalid_name", "message": INVALID_NAME}),
        ));
    }
    if !resolves(call.project, name) {
        return Ok(Out::json(
            &json!({"active": null, "error": "not_found", "workstream": name}),
        ));
    }
    crate::store::atomic::write(&owned_file(call.project), format!("{name}\n").as_bytes())
        .map_err(|e| hand_on(format!("the pointer cannot be written ({e})")))?;
    Ok(Out::with_raw(&json!({"active": name, "set": true}), name))
}

/// `workstream get`: the workstream later calls work on, and whether the
/// project has workstreams at all.
pub fn get(call: &CoreCall) -> Result<Out, Refusal> {
    let active = stored(call.project);
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
