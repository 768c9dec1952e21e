//! state.load, state.update, state.patch, state.record-session.
//!
//! Writes set only the fields named, through `ops::state::patch_shown`:
//! gsd-sdk rebuilds STATE.md's whole frontmatter on every write (28 of 28
//! STATE.md files rewritten by a one-field update); here one field is one
//! line, and a value already there changes nothing.

use serde_json::{Value, json};

use super::super::compat::config as cfg;
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
