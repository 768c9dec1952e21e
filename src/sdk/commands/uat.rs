//! `uat.render-checkpoint --file PATH`: the verify-work workflow's prompt
//! for the UAT test in progress, read from the `## Current Test` section of
//! a UAT file (`number:`, `name:`, `expected:` inline or as a `|` block) and
//! framed the way gsd-sdk frames it. The name and the expected text are
//! shown to a model, so they pass through gsd-sdk's display sanitising.

use serde_json::json;

use super::super::compat::js::{self, JS_DOT};
use super::super::compat::roadmap_text::re;
use super::super::compat::sanitize;
use super::super::{Call, Reply, SdkError};

/// gsd-sdk's checkpoint frame around one test.
fn checkpoint(number: i64, name: &str, expected: &str) -> String {
    [
        "╔══════════════════════════════════════════════════════════════╗",
        "║  CHECKPOINT: Verification Required                           ║",
        "╚══════════════════════════════════════════════════════════════╝",
        "",
        &format!("**Test {number}: {name}**"),
        "",
        expected,
        "",
        "──────────────────────────────────────────────────────────────",
        "Type `pass` or describe what's wrong.",
        "──────────────────────────────────────────────────────────────",
    ]
    .join("\n")
}

fn error(message: impl Into<String>) -> Result<Reply, SdkError> {
    Ok(Reply::Json(json!({"error": message.into()})))
}

/// The first group of `pattern` in `text`.
fn group(pattern: &str, text: &str) -> Option<String> {
    re(pattern)
        .captures(text)
        .ok()
        .flatten()
        .and_then(|c| c.get(1).map(|m| m.as_str().to_owned()))
}

/// `uat.render-checkpoint --file PATH` → `{file_path, test_number,
/// test_name, checkpoint}`, or `{error}` (exit 0) for a missing file or a
/// Current Test section that is missing, empty, complete or malformed.
pub fn render_checkpoint(call: &Call) -> Result<Reply, SdkError> {
    let file = call
        .args
        .iter()
        .position(|a| a == "--file")
        .and_then(|i| call.args.get(i + 1))
        .filter(|f| !f.is_empty());
    let Some(file) = file else {
        return error("UAT file required: use uat render-checkpoint --file <path>");
    };
    let Ok(path) = super::fm::under_project(call, file) else {
        return error(format!("UAT file not found: {file}"));
    };
    if !path.exists() {
        return error(format!("UAT file not found: {file}"));
    }
    let content = std::fs::read(&path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| SdkError::execution(format!("{}: {e}", path.display())))?;
    let Some(section) = group(
        r"(?i)##\s*Current Test\s*(?:\n<!--[\s\S]*?-->)?\n([\s\S]*?)(?=\n##\s|$)",
        &content,
    ) else {
        return error("UAT file is missing a Current Test section");
    };
    let section = section.trim_end_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    if js::trim(section).is_empty() {
        return error("Current Test section is empty");
    }
    if re(r"(?i)\[testing complete\]")
        .is_match(section)
        .unwrap_or(false)
    {
        return error("UAT session is already complete; no pending checkpoint to render");
    }
    let number = group(r"(?m)^number:\s*(\d+)\s*$", section);
    let name = group(&format!(r"(?m)^name:\s*({JS_DOT}+)\s*$"), section);
    let block = group(
        r"(?m)^expected:\s*\|\n([\s\S]*?)(?=^[A-Za-z0-9_][A-Za-z0-9_-]*:\s)",
        section,
    )
    .or_else(|| group(r"(?m)^expected:\s*\|\n([\s\S]+)", section));
    let inline = group(&format!(r"(?m)^expected:\s*({JS_DOT}+)\s*$"), section);
    let (Some(number), Some(name)) = (number, name) else {
        return error("Current Test section is malformed");
    };
    let expected = match (block, inline) {
        (Some(b), _) => js::trim(
            &b.split('\n')
                .map(|l| l.strip_prefix("  ").unwrap_or(l))
                .collect::<Vec<_>>()
                .join("\n"),
        )
        .to_owned(),
        (None, Some(i)) => js::trim(&i).to_owned(),
        (None, None) => return error("Current Test section is malformed"),
    };
    let number = js::parse_int(&number).unwrap_or(0.0) as i64;
    let name = sanitize::for_display(js::trim(&name));
    let expected = sanitize::for_display(&expected);
    let project = std::fs::canonicalize(call.project).unwrap_or(call.project.to_path_buf());
    let rel = path
        .strip_prefix(&project)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_else(|_| path.display().to_string());
    Ok(Reply::Json(json!({
        "file_path": rel,
        "test_number": number,
        "test_name": name,
        "checkpoint": checkpoint(number, &name, &expected),
    })))
}
