//! `.planning/intel/*.json` use cases: stamp a file's `_meta` (when it was
//! refreshed, and its version) as two exact JSON edits, so the data the
//! intel agent wrote keeps its bytes.

use std::path::Path;

use serde_json::{Value, json};

use crate::edit::json;
use crate::model::Workspace;
use crate::store::FileChange;

use super::{Change, OpError};

/// What `patch_meta` did.
#[derive(Debug, Clone)]
pub struct MetaPatched {
    pub change: Change,
    /// `_meta.version` after the change.
    pub version: Value,
}

/// The next version, as JavaScript's `(version || 0) + 1` gives it: a
/// number plus one, a string with `1` appended, anything falsy `1`.
fn next_version(v: Option<&Value>) -> Value {
    match v {
        Some(Value::Number(n)) if n.as_f64().is_some_and(|f| f != 0.0) => {
            let f = n.as_f64().unwrap_or(0.0) + 1.0;
            if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
                json!(f as i64)
            } else {
                json!(f)
            }
        }
        Some(Value::String(s)) if !s.is_empty() => json!(format!("{s}1")),
        Some(Value::Bool(true)) => json!(2),
        _ => json!(1),
    }
}

/// Set `_meta.updated_at` to `timestamp` and bump `_meta.version` in the
/// JSON file `path` (inside the project).
pub fn patch_meta(ws: &Workspace, path: &Path, timestamp: &str) -> Result<MetaPatched, OpError> {
    let shown = path
        .strip_prefix(&ws.root)
        .unwrap_or(path)
        .display()
        .to_string();
    let before = std::fs::read(path).map_err(|e| {
        OpError::invalid(
            format!("{shown}: {e}"),
            Some("name an existing JSON file".into()),
        )
    })?;
    let text = String::from_utf8(before.clone()).map_err(|_| {
        OpError::invalid(
            format!("{shown} is not UTF-8"),
            Some("save it as UTF-8 JSON".into()),
        )
    })?;
    if let Err(e) = serde_json::from_str::<Value>(&text) {
        return Err(OpError::invalid(
            format!("{shown} is not JSON: {e}"),
            Some("fix the JSON by hand, then patch it again".into()),
        ));
    }
    let bad = |e: json::JsonEditError| {
        OpError::invalid(
            format!("{shown}: {e}"),
            Some("fix the JSON by hand, then patch it again".into()),
        )
    };
    let version = next_version(
        json::get(&text, &["_meta", "version"])
            .map_err(bad)?
            .as_ref(),
    );
    let text = json::set(&text, &["_meta", "updated_at"], &json!(timestamp)).map_err(bad)?;
    let after = json::set(&text, &["_meta", "version"], &version).map_err(bad)?;
    Ok(MetaPatched {
        change: Change::writes(
            format!("docs(intel): {shown} version {version}"),
            vec![format!(
                "{shown}: _meta.updated_at = {timestamp}, version = {version}"
            )],
            vec![FileChange {
                path: path.to_path_buf(),
                before: Some(before),
                after: after.into_bytes(),
            }],
        ),
        version,
    })
}
