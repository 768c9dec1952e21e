//! verify.plan-structure, verify.artifacts, verify.key-links: the checks
//! the plan checker and verifier agents run on one plan, answered as
//! gsd-sdk answers them (its frontmatter and `must_haves` readings).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::super::compat::js;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::compat::{fm_lines, must_haves};
use super::super::{Call, Reply, SdkError};
use super::fm;

/// The plan path argument: required, no NUL.
fn plan_arg<'a>(call: &Call<'a>, what: &str) -> Result<&'a str, SdkError> {
    let f = call
        .arg(0)
        .filter(|f| !f.is_empty())
        .ok_or_else(|| SdkError::validation(format!("{what} required")))?;
    if f.contains('\0') {
        return Err(SdkError::validation("file path contains null bytes"));
    }
    Ok(f)
}

/// `join(projectDir, p)`, or `p` when absolute (these checks take any path).
fn joined(project: &Path, p: &str) -> PathBuf {
    fm::lexical(&project.join(p))
}

fn read(path: &Path) -> Option<String> {
    std::fs::read(path)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
}

fn not_found(path: &str) -> Reply {
    Reply::Json(json!({"error": "File not found", "path": path}))
}

/// `verify.plan-structure PLAN`: required frontmatter, each task's
/// elements, wave/depends_on and checkpoint/autonomous consistency.
pub fn plan_structure(call: &Call) -> Result<Reply, SdkError> {
    let file = plan_arg(call, "file path")?;
    let Some(content) = read(&joined(call.project, file)) else {
        return Ok(not_found(file));
    };
    let front = fm_lines::parse(&content);
    let (mut errors, mut warnings) = (Vec::<String>::new(), Vec::<String>::new());
    for field in crate::model::plan::REQUIRED_KEYS {
        if !front.contains_key(*field) {
            errors.push(format!("Missing required frontmatter field: {field}"));
        }
    }
    let name_re = re(r"<name>([\s\S]*?)</name>");
    let mut tasks = Vec::new();
    for c in re(r"<task[^>]*>([\s\S]*?)</task>")
        .captures_iter(content.as_str())
        .filter_map(Result::ok)
    {
        let body = rt::group(&c, 1);
        let name = name_re.captures(body).ok().flatten();
        let task_name = name.as_ref().map_or("unnamed".to_string(), |n| {
            js::trim(rt::group(n, 1)).to_string()
        });
        let has = |tag: &str| body.contains(&format!("<{tag}>"));
        let (files, action, verify, done) =
            (has("files"), has("action"), has("verify"), has("done"));
        if name.is_none() {
            errors.push("Task missing <name> element".into());
        }
        if !action {
            errors.push(format!("Task '{task_name}' missing <action>"));
        }
        for (ok, tag) in [(verify, "verify"), (done, "done"), (files, "files")] {
            if !ok {
                warnings.push(format!("Task '{task_name}' missing <{tag}>"));
            }
        }
        tasks.push(json!({"name": task_name, "hasFiles": files, "hasAction": action, "hasVerify": verify, "hasDone": done}));
    }
    if tasks.is_empty() {
        warnings.push("No <task> elements found".into());
    }
    let wave_over_one = front
        .get("wave")
        .is_some_and(|w| js::truthy(w) && js::parse_int(&js::string(w)).is_some_and(|n| n > 1.0));
    let no_deps = match front.get("depends_on") {
        None => true,
        Some(Value::Array(a)) => a.is_empty(),
        Some(v) => !js::truthy(v),
    };
    if wave_over_one && no_deps {
        warnings.push("Wave > 1 but depends_on is empty".into());
    }
    let checkpoints = re(r#"<task\s+type=["']?checkpoint"#)
        .is_match(&content)
        .unwrap_or(false);
    let autonomous_false = matches!(front.get("autonomous"), Some(Value::String(s)) if s == "false")
        || front.get("autonomous") == Some(&Value::Bool(false));
    if checkpoints && !autonomous_false {
        errors.push("Has checkpoint tasks but autonomous is not false".into());
    }
    Ok(Reply::Json(json!({
        "valid": errors.is_empty(),
        "errors": errors,
        "warnings": warnings,
        "task_count": tasks.len(),
        "tasks": tasks,
        "frontmatter_fields": front.keys().collect::<Vec<_>>(),
    })))
}

/// JavaScript's `Number(s)` for a `min_lines` compared with `<`.
fn js_to_number(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) if js::trim(s).is_empty() => 0.0,
        Value::String(s) => js::trim(s).parse().unwrap_or(f64::NAN),
        Value::Bool(b) => f64::from(u8::from(*b)),
        _ => f64::NAN,
    }
}

/// `verify.artifacts PLAN`: each `must_haves.artifacts` path exists, is
/// long enough, and holds what it should contain and export.
pub fn artifacts(call: &Call) -> Result<Reply, SdkError> {
    let file = plan_arg(call, "plan file path")?;
    let Some(content) = read(&joined(call.project, file)) else {
        return Ok(not_found(file));
    };
    let items = must_haves::items(&content, "artifacts");
    if items.is_empty() {
        return Ok(Reply::Json(json!({
            "error": "No must_haves.artifacts found in frontmatter", "path": file
        })));
    }
    let mut results = Vec::new();
    for item in &items {
        let Value::Object(a) = item else { continue };
        let Some(path) = a.get("path").filter(|p| js::truthy(p)) else {
            continue;
        };
        let path = js::string(path);
        let text = read(&joined(call.project, &path));
        let mut issues = Vec::<String>::new();
        if let Some(text) = &text {
            let lines = text.split('\n').count() as f64;
            if let Some(min) = a.get("min_lines").filter(|m| js::truthy(m))
                && lines < js_to_number(min)
            {
                issues.push(format!("Only {lines} lines, need {}", js::string(min)));
            }
            if let Some(c) = a.get("contains").filter(|c| js::truthy(c))
                && !text.contains(&js::string(c))
            {
                issues.push(format!("Missing pattern: {}", js::string(c)));
            }
            if let Some(e) = a.get("exports").filter(|e| js::truthy(e)) {
                let exports = match e {
                    Value::Array(v) => v.clone(),
                    other => vec![other.clone()],
                };
                for x in exports {
                    if !text.contains(&js::string(&x)) {
                        issues.push(format!("Missing export: {}", js::string(&x)));
                    }
                }
            }
        } else {
            issues.push("File not found".into());
        }
        let passed = text.is_some() && issues.is_empty();
        results.push(
            json!({"path": path, "exists": text.is_some(), "issues": issues, "passed": passed}),
        );
    }
    let passed = results.iter().filter(|r| r["passed"] == true).count();
    Ok(Reply::Json(json!({
        "all_passed": !results.is_empty() && passed == results.len(),
        "passed": passed,
        "total": results.len(),
        "artifacts": results,
    })))
}

/// `verify.key-links PLAN`: each `must_haves.key_links` link: its pattern
/// in the source (or the target), or the target named in the source.
pub fn key_links(call: &Call) -> Result<Reply, SdkError> {
    let file = plan_arg(call, "plan file path")?;
    let path = match fm::under_project(call, file) {
        Ok(p) => p,
        Err(e) => {
            return Ok(Reply::Json(json!({"error": e["error"], "path": file})));
        }
    };
    let Some(content) = read(&path) else {
        return Ok(not_found(file));
    };
    let links = must_haves::items(&content, "key_links");
    if links.is_empty() {
        return Ok(Reply::Json(json!({
            "error": "No must_haves.key_links found in frontmatter", "path": file
        })));
    }
    let inside = |p: &str| {
        fm::under_project(call, p)
            .ok()
            .and_then(|p| read(&p))
            .filter(|t| !t.is_empty())
    };
    let mut results = Vec::new();
    for link in &links {
        let Value::Object(l) = link else { continue };
        let text_of = |k: &str| {
            l.get(k)
                .filter(|v| js::truthy(v))
                .map_or(String::new(), js::string)
        };
        let (from, to, via) = (text_of("from"), text_of("to"), text_of("via"));
        let source = if from.is_empty() { None } else { inside(&from) };
        let (verified, detail) = match (&source, l.get("pattern").filter(|p| js::truthy(p))) {
            (None, _) => (false, "Source file not found".to_string()),
            (Some(src), Some(p)) => {
                let p = js::string(p);
                match fancy_regex::Regex::new(&p) {
                    Err(_) => (false, format!("Invalid regex pattern: {p}")),
                    Ok(r) if r.is_match(src).unwrap_or(false) => {
                        (true, "Pattern found in source".into())
                    }
                    Ok(r) => {
                        let target = if to.is_empty() { None } else { inside(&to) };
                        if target.is_some_and(|t| r.is_match(&t).unwrap_or(false)) {
                            (true, "Pattern found in target".into())
                        } else {
                            (
                                false,
                                format!("Pattern \"{p}\" not found in source or target"),
                            )
                        }
                    }
                }
            }
            (Some(src), None) if src.contains(&to) => (true, "Target referenced in source".into()),
            (Some(_), None) => (false, "Target not referenced in source".into()),
        };
        results.push(
            json!({"from": from, "to": to, "via": via, "verified": verified, "detail": detail}),
        );
    }
    let verified = results.iter().filter(|r| r["verified"] == true).count();
    Ok(Reply::Json(json!({
        "all_verified": verified == results.len(),
        "verified": verified,
        "total": results.len(),
        "links": results,
    })))
}
