//! `check predicate --predicate JSON [--phase-dir DIR]`: a capability gate's
//! `check.predicate`, evaluated as 1.14.0 evaluates it, for the kind the
//! workflows' ship:pre gates use — `artifact-frontmatter-equals` (a phase
//! artifact's frontmatter field compared with the expected value, as strings
//! where they are not the same value). `command-exit-zero` runs a shell
//! command under 1.14.0's timeout and output rules and is handed on, as is
//! anything whose answer would depend on how 1.14.0 resolves a link.

use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value, json};

use super::frontmatter;
use super::js::trim;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};

fn fail(reason: &'static str, message: impl Into<String>) -> Refusal {
    Refusal::Fail(Failure::new(reason, message))
}

fn evaluation_failed(message: &str) -> Refusal {
    fail(
        "usage",
        format!("gate predicate evaluation failed: {message}"),
    )
}

/// `partitionPredicateArgs`' flags: `--key value` pairs, the last winning.
fn flags(args: &[String]) -> Map<String, Value> {
    let mut out = Map::new();
    let mut i = 0;
    while i < args.len() {
        if let Some(key) = args[i].strip_prefix("--")
            && !key.is_empty()
            && let Some(next) = args.get(i + 1).filter(|n| !n.starts_with("--"))
        {
            out.insert(key.to_string(), json!(next));
            i += 2;
            continue;
        }
        i += 1;
    }
    out
}

fn non_empty(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !trim(s).is_empty())
}

/// JavaScript's `String(v)` / `JSON.stringify(v)` as the evaluator applies
/// them; `None` for a number JavaScript would print differently.
fn js_text(v: Option<&Value>) -> Option<String> {
    Some(match v {
        None => "undefined".into(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => {
            let exact = n
                .as_i64()
                .map(|i| i.unsigned_abs() < 1 << 53)
                .or(n.as_u64().map(|u| u < 1 << 53));
            if exact != Some(true) {
                return None;
            }
            n.to_string()
        }
        Some(other) => other.to_string(),
    })
}

pub fn predicate(call: &CoreCall) -> Result<Out, Refusal> {
    let flags = flags(call.args);
    let Some(text) = flags
        .get("predicate")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    else {
        return Err(fail(
            "sdk_missing_arg",
            "predicate requires --predicate <json> (the gate hook check.predicate object)",
        ));
    };
    let Ok(predicate) = serde_json::from_str::<Value>(text) else {
        return Err(hand_on(" for a --predicate serde_json does not read"));
    };
    let target = match flags
        .get("phase-dir")
        .and_then(Value::as_str)
        .filter(|d| !d.is_empty())
    {
        None => call.project.to_path_buf(),
        Some(dir) => phase_dir(call.project, dir)?,
    };
    let Value::Object(p) = &predicate else {
        return Err(evaluation_failed("predicate must be an object"));
    };
    match p.get("kind") {
        Some(Value::String(k)) if k == "artifact-frontmatter-equals" => {}
        Some(Value::String(k)) if k == "command-exit-zero" => {
            return Err(hand_on(
                " for a command-exit-zero predicate (it runs a shell command)",
            ));
        }
        Some(Value::String(k)) if !k.is_empty() => {
            return Err(evaluation_failed(&format!(
                "Unknown predicate kind: \"{k}\". Known kinds: command-exit-zero, artifact-frontmatter-equals"
            )));
        }
        _ => {
            return Err(evaluation_failed(
                "predicate.kind must be a non-empty string",
            ));
        }
    }
    let Some(artifact) = non_empty(p.get("artifact")) else {
        return Err(evaluation_failed(
            "artifact-frontmatter-equals predicate requires a non-empty string \"artifact\"",
        ));
    };
    let Some(field) = non_empty(p.get("field")) else {
        return Err(evaluation_failed(
            "artifact-frontmatter-equals predicate requires a non-empty string \"field\"",
        ));
    };
    let Some(expected) = p.get("equals") else {
        return Err(evaluation_failed(
            "artifact-frontmatter-equals predicate requires an \"equals\" key",
        ));
    };
    let Some(found) = find_artifact(&target, artifact)? else {
        return Ok(Out::json(&json!({
            "block": true,
            "message": format!("Artifact matching {artifact} not found in {}", target.display()),
            "details": {"kind": "artifact-frontmatter-equals", "artifactNotFound": true},
        })));
    };
    let content = String::from_utf8(
        std::fs::read(&found).map_err(|_| hand_on(" for an artifact gsd cannot read"))?,
    )
    .map_err(|_| hand_on(" for an artifact that is not UTF-8"))?;
    if frontmatter::INHERITED.contains(&field) {
        return Err(hand_on(" for a field every JavaScript object has"));
    }
    let fm = frontmatter::extract(&content).map_err(|u| hand_on(u.0))?;
    let actual = fm.get(field);
    let (Some(expected_str), Some(actual_str)) = (js_text(Some(expected)), js_text(actual)) else {
        return Err(hand_on(" for a number JavaScript prints its own way"));
    };
    let matches = actual == Some(expected) && expected.is_string()
        || (actual.is_some() && actual_str == expected_str);
    if matches {
        return Ok(Out::json(&json!({
            "block": false,
            "message": format!("Frontmatter field \"{field}\" matches expected value ({expected_str})"),
            "details": {"kind": "artifact-frontmatter-equals", "match": true},
        })));
    }
    let mut details = Map::new();
    details.insert("kind".into(), json!("artifact-frontmatter-equals"));
    details.insert("match".into(), json!(false));
    if let Some(a) = actual {
        details.insert("actual".into(), a.clone());
    }
    details.insert("expected".into(), expected.clone());
    Ok(Out::json(&json!({
        "block": true,
        "message": format!("Frontmatter field \"{field}\" in {artifact} is {actual_str}, expected {expected_str}"),
        "details": details,
    })))
}

/// `--phase-dir` resolved under the project as 1.14.0 resolves it — for a
/// relative folder that exists and is reached without links (elsewhere its
/// realpath rules decide, and the call is handed on).
fn phase_dir(project: &Path, dir: &str) -> Result<PathBuf, Refusal> {
    let rel = Path::new(dir);
    if rel.is_absolute()
        || rel
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(hand_on(" for a --phase-dir that is absolute or climbs"));
    }
    let lexical: PathBuf = project.join(
        rel.components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .collect::<PathBuf>(),
    );
    match lexical.canonicalize() {
        Ok(real) if real == lexical && project.canonicalize().ok().as_deref() == Some(project) => {
            Ok(lexical)
        }
        _ => Err(hand_on(
            " for a --phase-dir that is missing or reached through a link",
        )),
    }
}

fn is_link(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

/// `findPhaseArtifact`: the artifact itself, else `.planning/ARTIFACT`, else
/// the one file ending `-ARTIFACT`.
fn find_artifact(dir: &Path, artifact: &str) -> Result<Option<PathBuf>, Refusal> {
    if !dir.exists() {
        return Ok(None);
    }
    if artifact == "." || artifact == ".." || artifact.contains(['/', '\\', '\0']) {
        return Ok(None);
    }
    if artifact.contains(':') {
        return Err(hand_on(" for an artifact name Windows reads as a drive"));
    }
    for candidate in [dir.join(artifact), dir.join(".planning").join(artifact)] {
        if is_link(&candidate) || is_link(&dir.join(".planning")) {
            return Err(hand_on(" for an artifact reached through a link"));
        }
        if candidate.is_file() {
            return Ok(Some(candidate));
        }
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(None);
    };
    let suffix = format!("-{artifact}");
    let mut found = Vec::new();
    for e in entries.flatten() {
        let Some(name) = e.file_name().to_str().map(str::to_owned) else {
            return Err(hand_on(" for a folder holding a name that is not UTF-8"));
        };
        if name.ends_with(&suffix) || name == artifact {
            let p = e.path();
            if is_link(&p) {
                return Err(hand_on(" for an artifact reached through a link"));
            }
            if p.is_file() {
                found.push(p);
            }
        }
    }
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop()),
        _ => Err(hand_on(
            " where several files match (1.14.0 takes the first the folder lists)",
        )),
    }
}
