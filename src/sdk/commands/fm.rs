//! frontmatter.get (gsd-sdk's string view) and frontmatter.set (gsd's
//! exact frontmatter edit: the key's value changes, every other byte stays).

use std::path::PathBuf;

use serde_json::{Value, json};

use super::super::compat::fm_lines;
use super::super::{Call, Reply, SdkError};
use super::write;

/// A path the caller named, inside the project, or gsd-sdk's error object.
pub fn under_project(call: &Call, user: &str) -> Result<PathBuf, Value> {
    let project = std::fs::canonicalize(call.project).unwrap_or(call.project.to_path_buf());
    let candidate = lexical(&project.join(user));
    let real = std::fs::canonicalize(&candidate).unwrap_or(candidate);
    if real.starts_with(&project) {
        Ok(real)
    } else {
        Err(json!({"error": "path escapes project directory", "path": user}))
    }
}

/// `path` with `.` and `..` folded away, like Node's `path.resolve`.
pub fn lexical(path: &std::path::Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn file_arg<'a>(call: &Call<'a>) -> Result<&'a str, SdkError> {
    let f = call
        .arg(0)
        .filter(|f| !f.is_empty())
        .ok_or_else(|| SdkError::validation("file path required"))?;
    if f.contains('\0') {
        return Err(SdkError::validation("file path contains null bytes"));
    }
    Ok(f)
}

/// `frontmatter.get FILE [FIELD]`.
pub fn get(call: &Call) -> Result<Reply, SdkError> {
    let file = file_arg(call)?;
    let path = match under_project(call, file) {
        Ok(p) => p,
        Err(e) => return Ok(Reply::Json(e)),
    };
    let Ok(content) = std::fs::read(&path) else {
        return Ok(Reply::Json(
            json!({"error": "File not found", "path": file}),
        ));
    };
    let fm = fm_lines::parse(&String::from_utf8_lossy(&content));
    Ok(Reply::Json(match call.arg(1) {
        Some(field) if !field.is_empty() => match fm.get(field) {
            Some(v) => json!({ field: v }),
            None => json!({"error": "Field not found", "field": field}),
        },
        _ => Value::Object(fm),
    }))
}

/// `frontmatter.set FILE FIELD VALUE` (or `--field F --value V`).
pub fn set(call: &Call) -> Result<Reply, SdkError> {
    let args = call.args;
    let named = |flag: &str| args.iter().position(|a| a == flag);
    let (file, field, value) = match (named("--field"), named("--value")) {
        (None, None) => (call.arg(0), call.arg(1), call.arg(2)),
        (Some(f), Some(v)) if args.get(f + 1).is_some_and(|s| !s.is_empty()) => {
            (call.arg(0), call.arg(f + 1), call.arg(v + 1))
        }
        _ => {
            return Err(SdkError::validation(
                "file, --field, and --value required together",
            ));
        }
    };
    let (Some(file), Some(field), Some(value)) = (
        file.filter(|s| !s.is_empty()),
        field.filter(|s| !s.is_empty()),
        value,
    ) else {
        return Err(SdkError::validation("file, field, and value required"));
    };
    if file.contains('\0') {
        return Err(SdkError::validation("file path contains null bytes"));
    }
    let path = match under_project(call, file) {
        Ok(p) => p,
        Err(e) => return Ok(Reply::Json(e)),
    };
    if !path.is_file() {
        return Ok(Reply::Json(
            json!({"error": "File not found", "path": file}),
        ));
    }
    let typed: Value = serde_json::from_str(value).unwrap_or(Value::String(value.into()));
    // The YAML text for the value: JSON is YAML, and a plain string stays as typed.
    let yaml = match &typed {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    write(call, |ws| {
        crate::ops::fm::set(ws, &path, std::path::Path::new(file), field, &yaml)
    })?;
    Ok(Reply::Json(
        json!({"updated": true, "field": field, "value": typed}),
    ))
}
