//! `plan.task-structure PATH`: the plan checker's view of one PLAN.md — its
//! wave, dependencies, autonomy, and each `<task>` with its type and name.
//!
//! gsd-sdk reads the plan with `parsePlan` (plan-parser.js), not with the
//! frontmatter reader the other commands use: numbers and booleans are
//! typed (`wave: 2` is `2`), and tasks are `<task …>…</task>` blocks taken
//! from the first `<tasks>` element, or from the whole file when there is
//! none. A task is a checkpoint only when its type is exactly `checkpoint`
//! (`checkpoint:human-verify` is not), as gsd-sdk counts them.

use serde_json::{Map, Value, json};

use super::super::compat::{fm_lines, js, roadmap_text::re};
use super::super::{Call, Reply, SdkError};

/// One `<task>` as `parseTasks` reads it.
struct Task {
    kind: String,
    name: String,
}

fn tasks(content: &str) -> Vec<Task> {
    let section = re(r"(?i)<tasks>([\s\S]*?)</tasks>")
        .captures(content)
        .ok()
        .flatten()
        .and_then(|c| c.get(1))
        .map_or(content, |m| m.as_str());
    let kind = re(r#"type\s*=\s*["']([^"']+)["']"#);
    let name = re(r"(?i)<name>([\s\S]*?)</name>");
    re(r"(?i)<task\b([^>]*)>([\s\S]*?)</task>")
        .captures_iter(section)
        .flatten()
        .map(|c| {
            let (attrs, body) = (&c[1], &c[2]);
            let first = |r: &fancy_regex::Regex, t: &str| {
                r.captures(t)
                    .ok()
                    .flatten()
                    .and_then(|m| m.get(1).map(|g| g.as_str().to_owned()))
            };
            Task {
                kind: first(kind, attrs).unwrap_or_else(|| "auto".into()),
                name: first(name, body)
                    .map(|n| js::trim(&n).to_owned())
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// `String(x ?? '') || null`.
fn text_or_null(fm: &Map<String, Value>, key: &str) -> Value {
    let s = fm.get(key).map(js::string).unwrap_or_default();
    if s.is_empty() {
        Value::Null
    } else {
        Value::String(s)
    }
}

/// `Number(x ?? 1)`: text by JavaScript's `Number()`, a list by its
/// `String()` (one item is that item, more is NaN); NaN is `null` in JSON.
fn wave(fm: &Map<String, Value>) -> Value {
    let n = match fm.get("wave") {
        None | Some(Value::Null) => 1.0,
        Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
        Some(Value::Object(_)) => f64::NAN,
        Some(v) => js::number_of(&js::string(v)),
    };
    js::number(n)
}

/// `plan.task-structure PATH` → `{path, plan, phase, wave, depends_on,
/// autonomous, task_count, checkpoint_count, tasks, checkpoints}`.
pub fn task_structure(call: &Call) -> Result<Reply, SdkError> {
    let Some(rel) = call.arg(0).filter(|a| !a.is_empty()) else {
        return Err(SdkError::validation("PLAN.md path required"));
    };
    let path = super::fm::under_project(call, rel)
        .map_err(|_| SdkError::blocked("cannot read plan file: path escapes project directory"))?;
    let content = std::fs::read(&path)
        .ok()
        .filter(|_| path.is_file())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .ok_or_else(|| SdkError::blocked(format!("cannot read plan file: {rel}")))?;
    let fm = fm_lines::parse_coerced(&content);
    let depends_on: Vec<Value> = match fm.get("depends_on") {
        Some(Value::Array(items)) => items.iter().map(|v| Value::String(js::string(v))).collect(),
        _ => Vec::new(),
    };
    let all = tasks(&content);
    let tasks: Vec<Value> = all
        .iter()
        .enumerate()
        .map(|(i, t)| {
            json!({
                "index": i + 1,
                "type": t.kind,
                "name": t.name,
                "is_checkpoint": t.kind == "checkpoint",
            })
        })
        .collect();
    let checkpoints: Vec<Value> = all
        .iter()
        .filter(|t| t.kind == "checkpoint")
        .enumerate()
        .map(|(i, t)| json!({"index": i + 1, "name": t.name}))
        .collect();
    Ok(Reply::Json(json!({
        "path": rel,
        "plan": text_or_null(&fm, "plan"),
        "phase": text_or_null(&fm, "phase"),
        "wave": wave(&fm),
        "depends_on": depends_on,
        "autonomous": fm.get("autonomous") != Some(&Value::Bool(false)),
        "task_count": all.len(),
        "checkpoint_count": checkpoints.len(),
        "tasks": tasks,
        "checkpoints": checkpoints,
    })))
}
