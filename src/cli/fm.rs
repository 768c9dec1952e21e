//! `gsd fm`: read, validate, set and merge frontmatter of any markdown
//! file (the writes are `ops::fm`).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

use crate::doc::Source;
use crate::doc::excerpt::Excerpt;
use crate::model::document::{Document, Frontmatter};
use crate::model::workspace::Scope;
use crate::ops;

use super::args::{FmCommand, Schema};
use super::error::{CliError, did_you_mean};
use super::output::{Output, stored};

fn absolute(cwd: &Path, file: &Path) -> std::path::PathBuf {
    if file.is_absolute() {
        file.to_path_buf()
    } else {
        cwd.join(file)
    }
}

fn bad_fm(doc: &Document, message: String, offset: usize, help: &str) -> CliError {
    let (src, at) = Excerpt::around(doc.rel_path.display().to_string(), doc.text(), offset, 0);
    CliError::BadInput {
        message,
        help: Some(help.to_owned()),
        src: Some(src),
        at: Some(at),
    }
}

pub fn run(cwd: &Path, cmd: FmCommand) -> Result<Output, CliError> {
    let (file, key, json) = match cmd {
        FmCommand::Get { file, key, json } => (file, key, json),
        FmCommand::Validate { file, schema, json } => {
            return fm_validate(cwd, &file, schema, json.json);
        }
        FmCommand::Set {
            file,
            key,
            value,
            write,
        } => {
            let path = absolute(cwd, &file);
            let o = ops::run(cwd, write.options(), Scope::Index, |ws| {
                ops::fm::set(ws, &path, &file, &key, &value)
            })?;
            return Ok(stored(o, write.json));
        }
        FmCommand::Merge {
            file,
            json_object,
            write,
        } => {
            let path = absolute(cwd, &file);
            let o = ops::run(cwd, write.options(), Scope::Index, |ws| {
                ops::fm::merge(ws, &path, &file, &json_object)
            })?;
            return Ok(stored(o, write.json));
        }
    };
    let path = if file.is_absolute() {
        file.clone()
    } else {
        cwd.join(&file)
    };
    let source = Source::read(&path).map_err(|e| CliError::FileNotFound {
        file: file.display().to_string(),
        hint: e.to_string(),
    })?;
    if source.text().is_none() {
        return Err(CliError::input(
            format!("{} is not valid UTF-8", file.display()),
            Some("save it as UTF-8".into()),
        ));
    }
    let doc = Document::parse(source, file.clone());
    let node = match &doc.frontmatter {
        Frontmatter::Map(n) => n,
        Frontmatter::Absent => {
            return Err(CliError::FieldNotFound {
                what: file.display().to_string(),
                field: key.unwrap_or_else(|| "frontmatter".into()),
                hint: "the file has no --- frontmatter block".into(),
            });
        }
        Frontmatter::Unterminated { open } => {
            return Err(bad_fm(
                &doc,
                "frontmatter is never closed".into(),
                open.start,
                "add a closing --- line",
            ));
        }
        Frontmatter::Invalid(e) => {
            return Err(bad_fm(
                &doc,
                format!("frontmatter is not valid YAML: {}", e.message),
                e.offset,
                "fix the YAML (quote values containing ': ' or '#')",
            ));
        }
        Frontmatter::NotMapping(_) => {
            return Err(bad_fm(
                &doc,
                "frontmatter is not a mapping".into(),
                0,
                "write key: value lines",
            ));
        }
    };
    let target = match &key {
        None => node,
        Some(k) => node.path(k).ok_or_else(|| {
            let keys: Vec<&str> = node
                .as_map()
                .unwrap_or(&[])
                .iter()
                .filter_map(|(k, _)| k.as_str())
                .collect();
            let hint = match did_you_mean(k, keys.iter().copied()) {
                Some(m) => format!("did you mean `{m}`?"),
                None => format!("keys: {}", keys.join(", ")),
            };
            CliError::FieldNotFound {
                what: file.display().to_string(),
                field: k.clone(),
                hint,
            }
        })?,
    };
    if json.json {
        return Ok(Output::json(&target.to_json()));
    }
    // Without --json: what `fm set` takes back unchanged (a scalar's text,
    // a collection as YAML); the whole block as written when no key.
    let text = match key {
        Some(_) => crate::edit::yaml_value::shown(doc.text(), target),
        None => doc
            .split
            .frontmatter()
            .map(|f| f.yaml.slice(doc.text()).to_owned())
            .unwrap_or_default(),
    };
    Ok(Output::ok(if text.ends_with('\n') {
        text
    } else {
        text + "\n"
    }))
}

/// `gsd fm validate FILE --schema plan|summary|verification`.
fn fm_validate(
    cwd: &Path,
    file: &Path,
    schema: Schema,
    json_out: bool,
) -> Result<Output, CliError> {
    let path = if file.is_absolute() {
        file.to_path_buf()
    } else {
        cwd.join(file)
    };
    let source = Source::read(&path).map_err(|e| CliError::FileNotFound {
        file: file.display().to_string(),
        hint: e.to_string(),
    })?;
    let doc = Document::parse(source, file.to_path_buf());
    let required: &[&str] = match schema {
        Schema::Plan => crate::model::plan::REQUIRED_KEYS,
        Schema::Summary => crate::model::summary::SUMMARY_REQUIRED,
        Schema::Verification => crate::model::summary::VERIFICATION_REQUIRED,
    };
    let problem = match &doc.frontmatter {
        Frontmatter::Map(_) => None,
        Frontmatter::Absent => Some("the file has no frontmatter".to_owned()),
        Frontmatter::Invalid(e) => Some(format!("frontmatter is not valid YAML: {}", e.message)),
        Frontmatter::Unterminated { .. } => Some("frontmatter is never closed".to_owned()),
        Frontmatter::NotMapping(_) => Some("frontmatter is not a mapping".to_owned()),
    };
    let present: Vec<&str> = required
        .iter()
        .copied()
        .filter(|k| doc.fm().is_some_and(|m| m.get(k).is_some()))
        .collect();
    let missing: Vec<&str> = required
        .iter()
        .copied()
        .filter(|k| !present.contains(k))
        .collect();
    let type_errors: Vec<String> = match (schema, doc.fm()) {
        (Schema::Plan, Some(m)) => crate::model::plan::PlanFrontmatter::from_node(m)
            .type_errors
            .iter()
            .map(|e| {
                format!(
                    "{} should be {} (line {})",
                    e.key,
                    e.expected,
                    doc.line_of(e.span.start)
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    let valid = problem.is_none() && missing.is_empty() && type_errors.is_empty();
    let schema_name = format!("{schema:?}").to_lowercase();
    let code = i32::from(!valid);
    if json_out {
        let mut out = Output::json(&json!({
            "valid": valid, "schema": schema_name, "missing": missing, "present": present,
            "type_errors": type_errors, "error": problem,
        }));
        out.code = code;
        return Ok(out);
    }
    let mut s = String::new();
    if valid {
        let _ = writeln!(s, "{}: valid {schema_name} frontmatter", file.display());
    } else {
        let _ = writeln!(
            s,
            "{}: not a valid {schema_name} frontmatter",
            file.display()
        );
        if let Some(p) = problem {
            let _ = writeln!(s, "  {p}");
        }
        if !missing.is_empty() {
            let _ = writeln!(s, "  missing: {}", missing.join(", "));
        }
        for t in &type_errors {
            let _ = writeln!(s, "  {t}");
        }
    }
    Ok(Output::ok(s).with_code(code))
}
