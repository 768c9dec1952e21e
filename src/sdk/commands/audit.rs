//! audit-uat: the UAT and verification items still waiting on a person
//! across the current milestone's phases, by category and by phase.

use serde_json::{Map, Value, json};

use super::super::compat::roadmap_text::{self as rt, re};
use super::super::compat::{fm_lines, js};
use super::super::{Call, Reply, SdkError};

/// `categorizeItem`: why a test is still open.
fn category(result: &str, reason: Option<&str>, blocked_by: Option<&str>) -> &'static str {
    let is = |p: &str, s: &str| re(&format!("(?i){p}")).is_match(s).unwrap_or(false);
    if result == "blocked" || blocked_by.is_some() {
        if let Some(b) = blocked_by {
            if is("server", b) {
                return "server_blocked";
            }
            if is("device|physical", b) {
                return "device_needed";
            }
            if is("build|release|preview", b) {
                return "build_needed";
            }
            if is("third.party|twilio|stripe", b) {
                return "third_party";
            }
        }
        return "blocked";
    }
    match result {
        "skipped" => match reason {
            Some(r) if is("server|not running|not available", r) => "server_blocked",
            Some(r) if is("simulator|physical|device", r) => "device_needed",
            Some(r) if is("build|release|preview", r) => "build_needed",
            _ => "skipped_unresolved",
        },
        "pending" => "pending",
        "human_needed" => "human_uat",
        _ => "unknown",
    }
}

/// `parseUatItems`: `### N. Name` tests whose result is pending, skipped
/// or blocked.
fn uat_items(content: &str) -> Vec<Value> {
    let dot = js::JS_DOT;
    let test = re(
        r"###\s*(\d+)\.\s*([^\n]+)\nexpected:\s*([^\n]+)\nresult:\s*([A-Za-z0-9_]+)(?:\n(?:reported|reason|blocked_by):\s*[^\n]*)?",
    );
    let mut items = Vec::new();
    for c in test.captures_iter(content).flatten() {
        let result = rt::group(&c, 4);
        if !["pending", "skipped", "blocked"].contains(&result) {
            continue;
        }
        let at = c.get(0).map_or(0, |m| m.start());
        let after = &content[at..];
        let block = match after.get(1..).and_then(|s| s.find("\n###")) {
            Some(i) => &after[..i + 1],
            None => after,
        };
        let field = |k: &str| {
            re(&format!(r"{k}:\s*({dot}+)"))
                .captures(block)
                .ok()
                .flatten()
                .map(|c| rt::group(&c, 1).to_string())
        };
        let (reason, blocked_by) = (field("reason"), field("blocked_by"));
        let mut item = Map::new();
        item.insert(
            "test".into(),
            js::number(js::parse_int(rt::group(&c, 1)).unwrap_or(0.0)),
        );
        item.insert("name".into(), json!(js::trim(rt::group(&c, 2))));
        item.insert("expected".into(), json!(js::trim(rt::group(&c, 3))));
        item.insert("result".into(), json!(result));
        item.insert(
            "category".into(),
            json!(category(result, reason.as_deref(), blocked_by.as_deref())),
        );
        if let Some(r) = reason {
            item.insert("reason".into(), json!(js::trim(&r)));
        }
        if let Some(b) = blocked_by {
            item.insert("blocked_by".into(), json!(js::trim(&b)));
        }
        items.push(Value::Object(item));
    }
    items
}

fn human(test: Option<Value>, name: &str) -> Map<String, Value> {
    let mut item = Map::new();
    if let Some(t) = test {
        item.insert("test".into(), t);
    }
    item.insert("name".into(), json!(name));
    item.insert("result".into(), json!("human_needed"));
    item.insert("category".into(), json!("human_uat"));
    item
}

/// `parseVerificationItems`: for `human_needed`, the frontmatter's
/// `human_verification` list, else the lines of a Human Verification
/// section (table rows, numbered items, bullets over 10 characters).
fn verification_items(content: &str, status: &str, fm: &Map<String, Value>) -> Vec<Value> {
    if status != "human_needed" {
        return Vec::new();
    }
    if let Some(Value::Array(entries)) = fm.get("human_verification") {
        let mut items = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            let n = json!(i + 1);
            match e {
                Value::String(s) if !js::trim(s).is_empty() => {
                    items.push(Value::Object(human(Some(n), js::trim(s))));
                }
                Value::Object(o) => {
                    let name = [o.get("test"), o.get("name")]
                        .into_iter()
                        .flatten()
                        .find(|v| js::truthy(v));
                    if let Some(name) = name {
                        let mut item = human(Some(n), js::trim(&js::string(name)));
                        for k in ["expected", "why_human"] {
                            if let Some(v) = o.get(k).filter(|v| js::truthy(v)) {
                                item.insert(k.into(), json!(js::trim(&js::string(v))));
                            }
                        }
                        items.push(Value::Object(item));
                    }
                }
                _ => {}
            }
        }
        if !items.is_empty() {
            return items;
        }
    }
    let section =
        re(r"(?i)##\s*human[_\s-]verification[^\n]*\n([\s\S]*?)(?=\n##\s|\n---\s|$(?![\s\S]))")
            .captures(content)
            .ok()
            .flatten();
    let Some(section) = section else {
        return Vec::new();
    };
    let dot = js::JS_DOT;
    let mut items = Vec::new();
    for line in rt::group(&section, 1).split('\n') {
        let cap = |p: &str| re(p).captures(line).ok().flatten();
        if let Some(t) = cap(r"\|\s*(\d+)\s*\|\s*([^|]+)") {
            let n = js::number(js::parse_int(rt::group(&t, 1)).unwrap_or(0.0));
            items.push(Value::Object(human(Some(n), js::trim(rt::group(&t, 2)))));
        } else if let Some(t) = cap(&format!(r"^(\d+)\.\s+({dot}+)")) {
            let n = js::number(js::parse_int(rt::group(&t, 1)).unwrap_or(0.0));
            items.push(Value::Object(human(Some(n), js::trim(rt::group(&t, 2)))));
        } else if let Some(t) = cap(&format!(r"^[-*]\s+({dot}+)")) {
            let text = rt::group(&t, 1);
            if text.encode_utf16().count() > 10 {
                items.push(Value::Object(human(None, js::trim(text))));
            }
        }
    }
    items
}

/// `audit-uat`.
pub fn audit_uat(call: &Call) -> Result<Reply, SdkError> {
    let phases = call.planning().join("phases");
    if !phases.exists() {
        return Err(SdkError::blocked(
            "No phases directory found in planning directory",
        ));
    }
    let in_milestone = rt::milestone_filter(call.project);
    let mut results = Vec::new();
    for dir in super::names_in(&phases)
        .into_iter()
        .filter(|d| phases.join(d).is_dir() && in_milestone(d))
    {
        let number = re(r"(?i)^(\d+[A-Z]?(?:\.\d+)*)")
            .find(&dir)
            .ok()
            .flatten()
            .map_or(dir.clone(), |m| m.as_str().to_string());
        let files = super::names_in(&phases.join(&dir));
        let read = |f: &str| {
            std::fs::read(phases.join(&dir).join(f))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .map_err(|e| SdkError::execution(format!("{f}: {e}")))
        };
        let entry = |file: &str, kind: &str, status: Value, items: Vec<Value>| {
            json!({
                "phase": number, "phase_dir": dir, "file": file,
                "file_path": format!(".planning/phases/{dir}/{file}"),
                "type": kind, "status": status, "items": items,
            })
        };
        for f in files
            .iter()
            .filter(|f| f.contains("-UAT") && f.ends_with(".md"))
        {
            let content = read(f)?;
            let items = uat_items(&content);
            if !items.is_empty() {
                let fm = fm_lines::parse(&content);
                let status = fm.get("status").filter(|v| js::truthy(v)).cloned();
                results.push(entry(f, "uat", status.unwrap_or(json!("unknown")), items));
            }
        }
        for f in files
            .iter()
            .filter(|f| f.contains("-VERIFICATION") && f.ends_with(".md"))
        {
            let content = read(f)?;
            let fm = fm_lines::parse(&content);
            let status = fm.get("status").filter(|v| js::truthy(v)).cloned();
            let status = status.unwrap_or(json!("unknown"));
            let text = status.as_str().unwrap_or("");
            if text == "human_needed" || text == "gaps_found" {
                let items = verification_items(&content, text, &fm);
                if !items.is_empty() {
                    results.push(entry(f, "verification", status.clone(), items));
                }
            }
        }
    }
    let mut by_category: Vec<(String, Value)> = Vec::new();
    let mut by_phase: Vec<(String, Value)> = Vec::new();
    let bump = |list: &mut Vec<(String, Value)>, key: &str| match list
        .iter_mut()
        .find(|(k, _)| k == key)
    {
        Some((_, v)) => *v = json!(v.as_u64().unwrap_or(0) + 1),
        None => list.push((key.to_string(), json!(1))),
    };
    let mut total_items = 0;
    for r in &results {
        let phase = r["phase"].as_str().unwrap_or("");
        if !by_phase.iter().any(|(k, _)| k == phase) {
            by_phase.push((phase.to_string(), json!(0)));
        }
        for item in r["items"].as_array().into_iter().flatten() {
            total_items += 1;
            bump(&mut by_phase, phase);
            bump(
                &mut by_category,
                item["category"].as_str().unwrap_or("unknown"),
            );
        }
    }
    Ok(Reply::Json(json!({
        "results": results,
        "summary": {
            "total_files": results.len(),
            "total_items": total_items,
            "by_category": js::key_order(by_category),
            "by_phase": js::key_order(by_phase),
        },
    })))
}
