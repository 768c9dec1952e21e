//! Frontmatter use cases on any markdown file: set one key, merge a JSON
//! object. A file outside the repository is edited like any editor would,
//! and never committed (the store says so).

use std::path::{Path, PathBuf};

use crate::doc::Source;
use crate::edit;
use crate::model::{Document, Workspace};

use super::{Change, OpError, rewrite};

fn open(ws: &Workspace, path: &Path, shown: &Path) -> Result<(Document, PathBuf), OpError> {
    let source = Source::read(path).map_err(|e| OpError::Missing {
        file: shown.display().to_string(),
        hint: e.to_string(),
    })?;
    let rel = ws
        .rel(&std::path::absolute(path).unwrap_or(path.to_path_buf()))
        .to_path_buf();
    Ok((Document::parse(source, rel.clone()), rel))
}

/// `fm set FILE KEY VALUE` (`path` absolute; `shown` as the user wrote it).
pub fn set(
    ws: &Workspace,
    path: &Path,
    shown: &Path,
    key: &str,
    value: &str,
) -> Result<Change, OpError> {
    let (doc, rel) = open(ws, path, shown)?;
    let edits = edit::frontmatter::set(&doc, key, &|old| {
        edit::frontmatter::yaml_text(&doc, value, old)
    })?;
    let what = format!("{key} = {}", one_line(value));
    Ok(Change::writes(
        format!("docs(fm): {} {what}", rel.display()),
        vec![format!("{}: {what}", rel.display())],
        vec![rewrite(&doc, edit::apply(doc.text(), &edits)?)],
    ))
}

/// `value` for a commit subject and a summary line: a block value is many
/// lines, a subject one.
fn one_line(value: &str) -> String {
    match value.trim().split_once('\n') {
        Some((first, _)) => format!("{}…", first.trim_end()),
        None => value.to_owned(),
    }
}

/// `fm merge FILE JSON`: keys set one by one on the evolving text, so new
/// keys land in the object's order.
pub fn merge(ws: &Workspace, path: &Path, shown: &Path, json: &str) -> Result<Change, OpError> {
    let (doc, rel) = open(ws, path, shown)?;
    let obj: serde_json::Value = serde_json::from_str(json).map_err(|e| {
        OpError::invalid(
            format!("not valid JSON: {e}"),
            Some(format!(
                "line {}, column {}; pass an object like '{{\"wave\": 2}}'",
                e.line(),
                e.column()
            )),
        )
    })?;
    let Some(map) = obj.as_object() else {
        return Err(OpError::invalid(
            "fm merge takes a JSON object",
            Some("pass '{\"key\": value}'".into()),
        ));
    };
    let mut text = doc.text().to_owned();
    for (k, v) in map {
        let d = Document::parse(Source::from_text(doc.path(), text.clone()), rel.clone());
        let edits = edit::frontmatter::set(&d, k, &|old| edit::frontmatter::json_text(v, old))?;
        text = edit::apply(&text, &edits)?;
    }
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
    Ok(Change::writes(
        format!("docs(fm): {} merge {}", rel.display(), keys.join(", ")),
        vec![format!("{}: merged {}", rel.display(), keys.join(", "))],
        vec![rewrite(&doc, text)],
    ))
}
