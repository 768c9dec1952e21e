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
    let parts: Vec<&str> = key.split('.').collect();
    let bad = |e: json::JsonEditError| {
        OpError::invalid(
            format!(".planning/config.json: {e}"),
            Some("fix the JSON by hand, then set the key again".into()),
        )
    };
    let previous = json::get(&text, &parts).map_err(bad)?;
    let after = json::set(&text, &parts, value).map_err(bad)?;
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
