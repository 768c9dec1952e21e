//! init.quick, init.todos, init.map-codebase and init.milestone-op: the
//! bundles for work around the phase plan — a quick task's ID, folder and
//! branch, the pending todos, the codebase maps already written, and how
//! far the current milestone is.

use serde_json::{Map, Value, json};

use super::super::compat::config as cfg;
use super::super::compat::js;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::{config, init, text};

/// `toISOString()` of now, and its date part.
fn now_iso() -> (String, String) {
    let full = jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string();
    let date = full[..10].to_string();
    (full, date)
}

/// A quick task's ID, `YYMMDD-xxx`: the local date, then the two-second
/// block of the day in base 36 (three digits at least).
fn quick_id() -> String {
    let now = jiff::Zoned::now();
    let blocks = (now.hour() as u32 * 3600 + now.minute() as u32 * 60 + now.second() as u32) / 2;
    let mut digits = Vec::new();
    let mut n = blocks;
    loop {
        digits.push(std::char::from_digit(n % 36, 36).expect("base 36"));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    let encoded: String = digits.iter().rev().collect();
    format!("{}-{encoded:0>3}", now.strftime("%y%m%d"))
}

/// `init.quick [DESCRIPTION]`.
pub fn quick(call: &Call) -> Result<Reply, SdkError> {
    let description = call.arg(0).filter(|d| !d.is_empty());
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let slug = description.map(|d| text::slug(d).chars().take(40).collect::<String>());
    let id = quick_id();
    let branch = match config
        .get("git")
        .and_then(|g| g.get("quick_branch_template"))
    {
        Some(Value::String(t)) if !t.is_empty() => json!(
            t.replacen("{num}", &id, 1)
                .replacen("{quick}", &id, 1)
                .replacen(
                    "{slug}",
                    slug.as_deref().filter(|s| !s.is_empty()).unwrap_or("quick"),
                    1
                )
        ),
        Some(v) if js::truthy(v) => {
            return Err(SdkError::execution(
                "config.git.quick_branch_template.replace is not a function",
            ));
        }
        _ => Value::Null,
    };
    let m = init::models(
        call.project,
        &[
            "gsd-planner",
            "gsd-executor",
            "gsd-plan-checker",
            "gsd-verifier",
        ],
    )?;
    let (ts, date) = now_iso();
    let planning = call.planning();
    let mut out = Map::new();
    for (k, v) in [
        "planner_model",
        "executor_model",
        "checker_model",
        "verifier_model",
    ]
    .into_iter()
    .zip(m)
    {
        out.insert(k.into(), v);
    }
    init::copy(&mut out, &config, "commit_docs");
    let task_dir = slug
        .as_deref()
        .filter(|s| !s.is_empty())
        .map(|s| format!(".planning/quick/{id}-{s}"));
    for (k, v) in [
        ("branch_name", branch),
        ("quick_id", json!(id)),
        ("slug", json!(slug)),
        ("description", json!(description)),
        ("date", json!(date)),
        ("timestamp", json!(ts)),
        ("quick_dir", json!(".planning/quick")),
        ("task_dir", json!(task_dir)),
        (
            "roadmap_exists",
            json!(planning.join("ROADMAP.md").exists()),
        ),
        ("planning_exists", json!(planning.exists())),
    ] {
        out.insert(k.into(), v);
    }
    init::with_project_root(call.project, &mut out, &config);
    Ok(Reply::Json(Value::Object(out)))
}

/// `init.todos [AREA]`.
pub fn todos(call: &Call) -> Result<Reply, SdkError> {
    let area = call.arg(0).filter(|a| !a.is_empty());
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let planning = call.planning();
    let pending = planning.join("todos/pending");
    let mut todos = Vec::new();
    for file in super::names_in(&pending)
        .into_iter()
        .filter(|f| f.ends_with(".md"))
    {
        let Ok(bytes) = std::fs::read(pending.join(&file)) else {
            continue;
        };
        let content = String::from_utf8_lossy(&bytes);
        let line = |key: &str| super::triage::front_line(&content, key);
        let todo_area = line("area").unwrap_or_else(|| "general".into());
        if area.is_some_and(|a| a != todo_area) {
            continue;
        }
        todos.push(json!({
            "file": file,
            "created": line("created").unwrap_or_else(|| "unknown".into()),
            "title": line("title").unwrap_or_else(|| "Untitled".into()),
            "area": todo_area,
            "path": format!(".planning/todos/pending/{file}"),
        }));
    }
    let (ts, date) = now_iso();
    let mut out = Map::new();
    init::copy(&mut out, &config, "commit_docs");
    for (k, v) in [
        ("date", json!(date)),
        ("timestamp", json!(ts)),
        ("todo_count", json!(todos.len())),
        ("todos", json!(todos)),
        ("area_filter", json!(area)),
        ("pending_dir", json!(".planning/todos/pending")),
        ("completed_dir", json!(".planning/todos/completed")),
        ("planning_exists", json!(planning.exists())),
        ("todos_dir_exists", json!(planning.join("todos").exists())),
        ("pending_dir_exists", json!(pending.exists())),
    ] {
        out.insert(k.into(), v);
    }
    init::with_project_root(call.project, &mut out, &config);
    Ok(Reply::Json(Value::Object(out)))
}

/// `init.map-codebase`.
pub fn map_codebase(call: &Call) -> Result<Reply, SdkError> {
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let dir = call.planning().join("codebase");
    let maps: Vec<String> = super::names_in(&dir)
        .into_iter()
        .filter(|f| f.ends_with(".md"))
        .collect();
    let mut out = Map::new();
    out.insert(
        "mapper_model".into(),
        config::model_alias(call.project, "gsd-codebase-mapper")?,
    );
    for k in [
        "commit_docs",
        "search_gitignored",
        "parallelization",
        "subagent_timeout",
    ] {
        match config.get(k) {
            Some(Value::Null) if k == "subagent_timeout" => {}
            _ => init::copy(&mut out, &config, k),
        }
    }
    let (ts, date) = now_iso();
    let has_maps = !maps.is_empty();
    for (k, v) in [
        ("date", json!(date)),
        ("timestamp", json!(ts)),
        ("codebase_dir", json!(".planning/codebase")),
        ("existing_maps", json!(maps)),
        ("has_maps", json!(has_maps)),
        ("planning_exists", json!(call.planning().exists())),
        ("codebase_dir_exists", json!(dir.exists())),
    ] {
        out.insert(k.into(), v);
    }
    init::with_project_root(call.project, &mut out, &config);
    Ok(Reply::Json(Value::Object(out)))
}

/// A phase token without the integer's leading zeros (`03A.1` → `3A.1`).
fn canonical_phase(token: &str) -> String {
    match re(r"^(\d+)([A-Z]?(?:\.\d+)*)$")
        .captures(token)
        .ok()
        .flatten()
    {
        Some(c) => {
            let int = rt::group(&c, 1).trim_start_matches('0');
            format!(
                "{}{}",
                if int.is_empty() { "0" } else { int },
                rt::group(&c, 2)
            )
        }
        None => token.to_string(),
    }
}

/// `init.milestone-op`: the current milestone, how many of its roadmap
/// phases have a summary on disk, and the archived milestones.
pub fn milestone_op(call: &Call) -> Result<Reply, SdkError> {
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let planning = call.planning();
    let phases_dir = planning.join("phases");
    let (version, name) = rt::milestone_info(call.project);
    let numbers: Vec<String> = std::fs::read(planning.join("ROADMAP.md"))
        .map(|b| {
            let raw = String::from_utf8_lossy(&b).into_owned();
            let section = rt::current_milestone(&raw, call.project);
            re(r"(?i)#{2,4}\s*Phase\s+(\d+[A-Z]?(?:\.\d+)*)\s*:\s*([^\n]+)")
                .captures_iter(section.as_str())
                .filter_map(Result::ok)
                .map(|c| rt::group(&c, 1).to_string())
                .collect()
        })
        .unwrap_or_default();
    let dirs: Vec<String> = std::fs::read_dir(&phases_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let summarised = |dir: &str| {
        super::names_in(&phases_dir.join(dir))
            .iter()
            .any(|f| f.ends_with("-SUMMARY.md") || f == "SUMMARY.md")
    };
    let (count, completed) = if numbers.is_empty() {
        (dirs.len(), dirs.iter().filter(|d| summarised(d)).count())
    } else {
        // The last folder with a token wins, as in a Map built in readdir order.
        let mut by_token = std::collections::HashMap::new();
        let mut sorted = dirs.clone();
        sorted.sort();
        for d in &sorted {
            if let Some(m) = re(r"^(\d+[A-Z]?(?:\.\d+)*)").find(d).ok().flatten() {
                by_token.insert(canonical_phase(m.as_str()), d.clone());
            }
        }
        let done = numbers
            .iter()
            .filter(|n| {
                by_token
                    .get(&canonical_phase(n))
                    .is_some_and(|d| summarised(d))
            })
            .count();
        (numbers.len(), done)
    };
    let archive = planning.join("archive");
    let archived: Vec<String> = super::names_in(&archive)
        .into_iter()
        .filter(|n| archive.join(n).is_dir())
        .collect();
    let archive_count = archived.len();
    let mut out = Map::new();
    init::copy(&mut out, &config, "commit_docs");
    for (k, v) in [
        ("milestone_version", json!(version)),
        ("milestone_name", json!(name)),
        ("milestone_slug", json!(text::slug(&name))),
        ("phase_count", json!(count)),
        ("completed_phases", json!(completed)),
        (
            "all_phases_complete",
            json!(count > 0 && count == completed),
        ),
        ("archived_milestones", json!(archived)),
        ("archive_count", json!(archive_count)),
        (
            "project_exists",
            json!(planning.join("PROJECT.md").exists()),
        ),
        (
            "roadmap_exists",
            json!(planning.join("ROADMAP.md").exists()),
        ),
        ("state_exists", json!(planning.join("STATE.md").exists())),
        ("archive_exists", json!(archive.exists())),
        ("phases_dir_exists", json!(phases_dir.exists())),
    ] {
        out.insert(k.into(), v);
    }
    init::with_project_root(call.project, &mut out, &config);
    Ok(Reply::Json(Value::Object(out)))
}
