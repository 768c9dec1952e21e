//! GSD Core 1.14.0's writes to planning documents that gsd answers itself,
//! through the engine's exact edits (the 1.42.3 dialect's handlers, which
//! go through gsd's one write path), answered in 1.14.0's words.
//!
//! 1.14.0 re-serialises the whole document it writes; gsd changes the bytes
//! of the value it sets. Each handler answers only where the two leave the
//! same file, and decides that before anything is written: every case where
//! 1.14.0 would write something else, or word its answer otherwise, goes to
//! the real gsd-tools untouched.

use std::path::{Component, Path};

use serde_json::{Value, json};

use super::super::commands::fm;
use super::native::{CoreCall, Refusal, engine, hand_on};
use super::output::Out;

/// Whether `value` is a string 1.14.0's `JSON.parse` fallback keeps as a
/// string (it is not JSON) and both writers print bare: a word, a date or
/// a dotted version (letters, digits, `_`, `-`, `.`, `/`), not one YAML 1.1
/// reads as a boolean or null.
fn plain_scalar(value: &str) -> bool {
    !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        && !value.starts_with(['-', '.', '/'])
        && serde_json::from_str::<Value>(value).is_err()
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "yes" | "no" | "on" | "off" | "y" | "n" | "nan" | "inf" | "null" | "true" | "false"
        )
}

/// `frontmatter set FILE --field F --value V`: one key's value in a
/// document's frontmatter, answered `{updated, field, value}` (raw `true`).
/// Answered for a plain string value (see [`plain_scalar`]) and a plain key
/// the frontmatter already holds, in a file named by a relative path inside
/// the project reached without links, whose frontmatter 1.14.0 reprints
/// byte for byte; anything else goes on.
pub fn frontmatter_set(call: &CoreCall) -> Result<Out, Refusal> {
    let (file, field, value) = match call.args {
        [file, f, field, v, value] if f == "--field" && v == "--value" => (file, field, value),
        [file, v, value, f, field] if f == "--field" && v == "--value" => (file, field, value),
        _ => return Err(hand_on(" without exactly FILE --field F --value V")),
    };
    if !plain_scalar(value) {
        return Err(hand_on(" for a value that is not a plain string"));
    }
    if field.is_empty()
        || !field
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(hand_on(" for a key that is not a plain name"));
    }
    let rel = Path::new(file.as_str());
    if file.is_empty()
        || rel.is_absolute()
        || rel.components().any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(hand_on(" for a path that is absolute or climbs"));
    }
    let abs = call.project.join(rel);
    if std::fs::symlink_metadata(&abs).is_err() && no_links_above(call.project, rel) {
        // 1.14.0's answer for a file that is not there; nothing is written.
        return Ok(Out::json(&json!({"error": "File not found", "path": file})));
    }
    let project = call
        .project
        .canonicalize()
        .unwrap_or(call.project.to_path_buf());
    if !abs.is_file() || abs.canonicalize().ok() != Some(project.join(rel)) {
        return Err(hand_on(" for a file missing or reached through a link"));
    }
    let Ok(text) = std::fs::read_to_string(&abs) else {
        return Err(hand_on(" for a file that is not UTF-8"));
    };
    if !fences_plainly(&text) {
        return Err(hand_on(" for a file without a plain frontmatter block"));
    }
    let args = [
        file.clone(),
        "--field".into(),
        field.clone(),
        "--value".into(),
        value.clone(),
    ];
    let v = engine(fm::set, call, &args)?;
    if v.get("updated") != Some(&Value::Bool(true)) {
        return Err(hand_on(" where gsd's edit fails"));
    }
    Ok(Out::with_raw(
        &json!({"updated": true, "field": field, "value": value}),
        "true",
    ))
}

/// Whether every folder on the way from the project to `rel`'s parent
/// that exists is a plain folder (not a link): then a missing file is
/// missing for 1.14.0 too.
fn no_links_above(project: &Path, rel: &Path) -> bool {
    let mut at = project.to_path_buf();
    for c in rel.parent().into_iter().flat_map(Path::components) {
        at.push(c);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => return false,
            Ok(_) => {}
            Err(_) => return true,
        }
    }
    true
}

/// Whether `text` opens with a `---` fenced frontmatter block, LF line
/// ends throughout: where 1.14.0 and gsd find the same block (1.14.0 writes
/// a new block into a file without one, gsd refuses).
fn fences_plainly(text: &str) -> bool {
    !text.contains('\r')
        && text
            .strip_prefix("---\n")
            .is_some_and(|rest| rest.starts_with("---\n") || rest.contains("\n---\n"))
}
