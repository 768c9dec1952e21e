//! config.json use cases: set one key as an exact edit (the value's bytes,
//! or one new member), so the file keeps its order and layout.

use serde_json::Value;

use crate::edit::json;
use crate::model::Workspace;
use crate::store::FileChange;

use super::{Change, OpError};

/// What `set` found before it changed the key.
#[derive(Debug, Clone)]
pub struct ConfigSet {
    pub change: Change,
    /// The value that was there, if any.
    pub previous: Option<Value>,
}

/// Set `key` (dotted path) to `value` in `.planning/config.json`, creating
/// the file when there is none.
pub fn set(ws: &Workspace, key: &str, value: &Value) -> Result<ConfigSet, OpError> {
    let parts: Vec<&str> = key.split('.').collect();
    set_at(ws, &parts, value)
}

/// Make sure the top-level member `name` exists (an empty object when it
/// does not); a member already there, whatever it holds, is left alone.
/// The name is one key, dots and all.
pub fn ensure_section(ws: &Workspace, name: &str) -> Result<ConfigSet, OpError> {
    let path = ws.root.join(".planning").join("config.json");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    if !text.is_empty() {
        let there = json::get(&text, &[name]).map_err(bad_json)?;
        if let Some(previous) = there {
            return Ok(ConfigSet {
                change: Change::writes(
                    format!("docs(config): ensure {name}"),
                    vec![format!(".planning/config.json: {name} already there")],
                    Vec::new(),
                ),
                previous: Some(previous),
            });
        }
    }
    set_at(ws, &[name], &Value::Object(Default::default()))
}

fn bad_json(e: json::JsonEditError) -> OpError {
    OpError::invalid(
        format!(".planning/config.json: {e}"),
        Some("fix the JSON by hand, then set the key again".into()),
    )
}

fn set_at(ws: &Workspace, parts: &[&str], value: &Value) -> Result<ConfigSet, OpError> {
    let key = parts.join(".");
    let path = ws.root.join(".planning").join("config.json");
    let before = std::fs::read(&path).ok();
    let text = match &before {
        Some(b) => String::from_utf8(b.clone()).map_err(|_| {
            OpError::invalid(
                ".planning/config.json is not UTF-8",
                Some("save it as UTF-8 JSON".into()),
            )
        })?,
        None => "{}\n".to_string(),
    };
    let previous = json::get(&text, parts).map_err(bad_json)?;
    let after = json::set(&text, parts, value).map_err(bad_json)?;
    let shown = serde_json::to_string(value).unwrap_or_default();
    Ok(ConfigSet {
        change: Change::writes(
            format!("docs(config): {key} = {shown}"),
            vec![format!(".planning/config.json: {key} = {shown}")],
            vec![FileChange {
                path,
                before,
                after: after.into_bytes(),
            }],
        ),
        previous,
    })
}
