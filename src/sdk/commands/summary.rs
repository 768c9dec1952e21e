//! summary-extract: a SUMMARY.md's one-liner, key files, tech added,
//! patterns, decisions and completed requirements, from its frontmatter
//! as gsd-sdk reads it.

use serde_json::{Map, Value, json};

use super::super::compat::roadmap_text::re;
use super::super::compat::{fm_lines, js};
use super::super::{Call, Reply, SdkError};

fn as_list(v: Option<&Value>) -> Value {
    match v {
        None | Some(Value::Null) => json!([]),
        Some(Value::Array(a)) => Value::Array(a.clone()),
        Some(other) => json!([other]),
    }
}

/// `key-decisions` entries as `{summary, rationale}`, split at the first
/// colon and trimmed as JavaScript trims (both dialects read them so).
pub(crate) fn decisions(v: Option<&Value>) -> Value {
    let Some(Value::Array(items)) = v else {
        return json!([]);
    };
    Value::Array(
        items
            .iter()
            .map(|d| {
                let s = match d {
                    Value::String(s) => s.clone(),
                    Value::Object(_) => "[object Object]".to_string(),
                    other => other.to_string(),
                };
                match s.find(':') {
                    Some(i) if i > 0 => {
                        json!({"summary": js::trim(&s[..i]), "rationale": js::trim(&s[i + 1..])})
                    }
                    _ => json!({"summary": s, "rationale": null}),
                }
            })
            .collect(),
    )
}

fn one_liner_from_body(content: &str) -> Option<String> {
    let body = re(r"^---\r?\n[\s\S]*?\r?\n---\r?\n*")
        .replace(content, "")
        .into_owned();
    re(r"(?m)^#[^\n]*\n+\*\*([^*]+)\*\*")
        .captures(body.as_str())
        .ok()
        .flatten()
        .map(|c| {
            super::super::compat::roadmap_text::group(&c, 1)
                .trim()
                .to_string()
        })
}

/// `summary-extract PATH [--fields a,b]`.
pub fn extract(call: &Call) -> Result<Reply, SdkError> {
    let args = call.args;
    let fields_at = args.iter().position(|a| a == "--fields");
    let path = args[..fields_at.unwrap_or(args.len())]
        .first()
        .cloned()
        .unwrap_or_default();
    if path.is_empty() {
        return Ok(Reply::Json(
            json!({"error": "summary-path required for summary-extract"}),
        ));
    }
    if path.contains('\0') {
        return Ok(Reply::Json(json!({"error": "Invalid path", "path": path})));
    }
    let fields: Option<Vec<String>> = fields_at
        .and_then(|i| args.get(i + 1))
        .filter(|f| !f.is_empty())
        .map(|f| f.split(',').map(|x| x.trim().to_string()).collect());
    let not_found = || {
        Ok(Reply::Json(
            json!({"error": "File not found", "path": path}),
        ))
    };
    let Ok(full) = super::fm::under_project(call, &path) else {
        return not_found();
    };
    let Ok(bytes) = std::fs::read(&full) else {
        return not_found();
    };
    let content = String::from_utf8_lossy(&bytes);
    let fm = fm_lines::parse(&content);
    let one_liner = fm
        .get("one-liner")
        .filter(|v| !matches!(v, Value::Null) && v.as_str() != Some(""))
        .cloned()
        .or_else(|| {
            one_liner_from_body(&content)
                .filter(|s| !s.is_empty())
                .map(Value::String)
        })
        .unwrap_or(Value::Null);
    let tech = match fm.get("tech-stack").and_then(|t| t.get("added")) {
        Some(Value::Array(a)) => Value::Array(a.clone()),
        _ => json!([]),
    };
    let mut all = Map::new();
    all.insert("path".into(), json!(path));
    all.insert("one_liner".into(), one_liner);
    all.insert("key_files".into(), as_list(fm.get("key-files")));
    all.insert("tech_added".into(), tech);
    all.insert("patterns".into(), as_list(fm.get("patterns-established")));
    all.insert("decisions".into(), decisions(fm.get("key-decisions")));
    all.insert(
        "requirements_completed".into(),
        as_list(fm.get("requirements-completed")),
    );
    let Some(fields) = fields else {
        return Ok(Reply::Json(Value::Object(all)));
    };
    let mut out = Map::new();
    out.insert("path".into(), json!(path));
    for f in fields {
        if let Some(v) = all.get(&f) {
            out.insert(f, v.clone());
        }
    }
    Ok(Reply::Json(Value::Object(out)))
}
