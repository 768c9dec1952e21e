//! phase.list-artifacts and workstream.list: listings agents use instead
//! of `ls`/`find`, so the answer is the same on every shell.

use serde_json::json;

use super::super::compat::roadmap_text as rt;
use super::super::{Call, Reply, SdkError};
use super::phase_find;

/// `phase.list-artifacts N --type context|summary|verification|research`:
/// that kind's files in the phase folder (under `.planning/phases/` only).
pub fn artifacts(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = call.arg(0).filter(|p| !p.is_empty()) else {
        return Err(SdkError::validation("phase required"));
    };
    let kind = call
        .args
        .iter()
        .position(|a| a == "--type")
        .and_then(|i| call.args.get(i + 1))
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            SdkError::validation("--type context|summary|verification|research required")
        })?
        .to_lowercase();
    if !["context", "summary", "verification", "research"].contains(&kind.as_str()) {
        return Err(SdkError::validation(format!("invalid --type {kind}")));
    }
    let normalized = rt::normalize_phase_name(phase);
    let phases = call.planning().join("phases");
    let Some(dir) = phase_find::current_dir(call.project, &normalized) else {
        return Ok(Reply::Json(json!({
            "phase": normalized, "type": kind, "artifacts": [], "error": "Phase not found"
        })));
    };
    let upper = kind.to_uppercase();
    let (suffix, whole) = (format!("-{upper}.md"), format!("{upper}.md"));
    let artifacts: Vec<String> = super::names_in(&phases.join(&dir))
        .into_iter()
        .filter(|f| f.ends_with(&suffix) || *f == whole)
        .map(|f| format!(".planning/phases/{dir}/{f}"))
        .collect();
    Ok(Reply::Json(
        json!({"phase": normalized, "type": kind, "artifacts": artifacts}),
    ))
}

/// `workstream.list`: a project without `.planning/workstreams/` is flat.
/// Projects with workstreams go to gsd-sdk, like every workstream call.
pub fn workstreams(call: &Call) -> Result<Reply, SdkError> {
    if call.planning().join("workstreams").exists() {
        return Err(SdkError::not_covered(
            "workstream projects are answered by gsd-sdk",
        ));
    }
    Ok(Reply::Json(json!({
        "mode": "flat",
        "workstreams": [],
        "message": "No workstreams — operating in flat mode",
    })))
}

/// `websearch QUERY`: without `BRAVE_API_KEY` there is nothing to search
/// with, and gsd-sdk says so; with a key the search goes to gsd-sdk (gsd
/// makes no network calls).
pub fn websearch(call: &Call) -> Result<Reply, SdkError> {
    if std::env::var_os("BRAVE_API_KEY").is_some_and(|k| !k.is_empty()) {
        return Err(SdkError::not_covered("web searches are made by gsd-sdk"));
    }
    let _ = call;
    Ok(Reply::Json(
        json!({"available": false, "reason": "BRAVE_API_KEY not set"}),
    ))
}
