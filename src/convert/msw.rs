//! MSW task JSON: `[{"id","name","files":[…],"action","verify","done"}]`,
//! plus `type`, `attributes`, `extra` and the GSD layout (`gsd`) so nothing
//! is lost on the way through.

use super::{ConvTask, ConvertError};

/// Read an array of tasks (or `{"tasks": [...]}`).
pub fn read(text: &str) -> Result<Vec<ConvTask>, ConvertError> {
    let t = text.trim_start_matches('\u{feff}');
    if t.trim().is_empty() {
        return Err(ConvertError::Empty);
    }
    let value: serde_json::Value = serde_json::from_str(t).map_err(|e| ConvertError::Json {
        message: e.to_string(),
        line: e.line(),
        column: e.column(),
    })?;
    let items = match &value {
        serde_json::Value::Array(a) => a.clone(),
        serde_json::Value::Object(o) => match o.get("tasks").and_then(|t| t.as_array()) {
            Some(a) => a.clone(),
            None => {
                return Err(ConvertError::Other(
                    "expected a JSON array of tasks (or {\"tasks\": [...]})".into(),
                ));
            }
        },
        _ => return Err(ConvertError::Other("expected a JSON array of tasks".into())),
    };
    let mut out = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let index = i + 1;
        let mut item = item;
        if let Some(o) = item.as_object_mut() {
            // `id` may be a number in hand-written files.
            if let Some(n) = o.get("id").and_then(|v| v.as_u64()) {
                o.insert("id".into(), serde_json::Value::String(n.to_string()));
            }
            if !o.contains_key("id") {
                o.insert("id".into(), serde_json::Value::String(index.to_string()));
            }
            for k in ["name", "files", "action", "verify", "done"] {
                o.entry(k).or_insert_with(|| {
                    if k == "files" {
                        serde_json::json!([])
                    } else {
                        serde_json::json!("")
                    }
                });
            }
        }
        let name_ok = item
            .get("name")
            .and_then(|n| n.as_str())
            .is_some_and(|n| !n.trim().is_empty());
        // Checkpoint tasks have no <name> in GSD; every other task needs one.
        let checkpoint = item
            .get("type")
            .and_then(|t| t.as_str())
            .is_some_and(|t| t.starts_with("checkpoint"));
        // A task that came from a GSD plan keeps whatever it had.
        let from_gsd = item.get("gsd").is_some_and(|g| !g.is_null());
        if !name_ok && !checkpoint && !from_gsd {
            return Err(ConvertError::NoName { index });
        }
        let task: ConvTask = serde_json::from_value(item)
            .map_err(|e| ConvertError::Other(format!("task {index}: {e}")))?;
        out.push(task);
    }
    Ok(out)
}

pub fn write(tasks: &[ConvTask]) -> String {
    super::stream::write_all(super::Format::MswJson, tasks, false)
}
