//! requirements.mark-complete: the execute-plan step that ticks the
//! requirements a finished plan delivered, through `ops::requirements`.

use serde_json::json;

use super::super::compat::roadmap_text::re;
use super::super::{Call, Reply, SdkError};
use super::{op_error, store};

/// `requirements.mark-complete REQ-01,REQ-02` (or spaced, or `[REQ-01]`).
pub fn mark_complete(call: &Call) -> Result<Reply, SdkError> {
    if call.args.is_empty() {
        return Err(SdkError::validation(
            "requirement IDs required. Usage: requirements mark-complete REQ-01,REQ-02 or REQ-01 REQ-02",
        ));
    }
    let joined = call.args.join(" ").replace(['[', ']'], "");
    let ids: Vec<String> = re(r"[,\s]+")
        .split(&joined)
        .flatten()
        .map(|s| super::super::compat::js::trim(s).to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if ids.is_empty() {
        return Err(SdkError::validation("no valid requirement IDs found"));
    }
    if !call.planning().join("REQUIREMENTS.md").exists() {
        return Ok(Reply::Json(
            json!({"updated": false, "reason": "REQUIREMENTS.md not found", "ids": ids}),
        ));
    }
    let mut said = None;
    store(call, |ws| {
        let m = crate::ops::requirements::mark_complete(ws, &ids)?;
        let change = m.change.clone();
        said = Some(m);
        Ok(change)
    })
    .map_err(op_error)?;
    let m = said.ok_or_else(|| SdkError::execution("no outcome"))?;
    Ok(Reply::Json(json!({
        "updated": !m.marked.is_empty(),
        "marked_complete": m.marked,
        "already_complete": m.already,
        "not_found": m.not_found,
        "total": ids.len(),
    })))
}
