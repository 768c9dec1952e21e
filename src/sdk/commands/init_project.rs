//! init.resume, init.verify-work and init.new-milestone: the bundles the
//! resume, verify-work and new-milestone workflows open with.

use serde_json::{Map, Value, json};

use super::super::compat::config as cfg;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::init;

fn insert_all(out: &mut Map<String, Value>, pairs: Vec<(&str, Value)>) {
    for (k, v) in pairs {
        out.insert(k.into(), v);
    }
}

/// `init.resume`: what exists, and the agent a crash interrupted
/// (`.planning/current-agent-id.txt`).
pub fn resume(call: &Call) -> Result<Reply, SdkError> {
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let planning = call.planning();
    let agent = std::fs::read(planning.join("current-agent-id.txt"))
        .ok()
        .map(|b| super::super::compat::js::trim(&String::from_utf8_lossy(&b)).to_string());
    let mut out = Map::new();
    insert_all(
        &mut out,
        vec![
            ("state_exists", json!(planning.join("STATE.md").exists())),
            (
                "roadmap_exists",
                json!(planning.join("ROADMAP.md").exists()),
            ),
            (
                "project_exists",
                json!(planning.join("PROJECT.md").exists()),
            ),
            ("planning_exists", json!(planning.exists())),
            ("state_path", json!(".planning/STATE.md")),
            ("roadmap_path", json!(".planning/ROADMAP.md")),
            ("project_path", json!(".planning/PROJECT.md")),
            (
                "has_interrupted_agent",
                json!(agent.as_deref().is_some_and(|a| !a.is_empty())),
            ),
            ("interrupted_agent_id", json!(agent)),
        ],
    );
    init::copy(&mut out, &config, "commit_docs");
    init::with_project_root(call.project, &mut out, &config);
    Ok(Reply::Json(Value::Object(out)))
}

/// `init.verify-work N`: the phase to verify (on disk, or from the roadmap)
/// and the models that re-plan its gaps.
pub fn verify_work(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = init::phase_arg(call.args) else {
        return Ok(Reply::Json(
            json!({"error": "phase required for init verify-work"}),
        ));
    };
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let info = init::phase_info(call.project, phase);
    let found = info.get("found") == Some(&json!(true));
    let field = |k: &str| {
        info.get(k)
            .filter(|_| found)
            .cloned()
            .unwrap_or(Value::Null)
    };
    let models = init::models(call.project, &["gsd-planner", "gsd-plan-checker"])?;
    let mut out = Map::new();
    out.insert("planner_model".into(), models[0].clone());
    out.insert("checker_model".into(), models[1].clone());
    init::copy(&mut out, &config, "commit_docs");
    insert_all(
        &mut out,
        vec![
            ("phase_found", json!(found)),
            ("phase_dir", field("directory")),
            ("phase_number", field("phase_number")),
            ("phase_name", field("phase_name")),
            (
                "has_verification",
                json!(found && info.get("has_verification") == Some(&json!(true))),
            ),
        ],
    );
    init::with_project_root(call.project, &mut out, &config);
    Ok(Reply::Json(Value::Object(out)))
}

/// `init.new-milestone`: the current and the last shipped milestone (from
/// MILESTONES.md), and where the shipped phases were archived.
pub fn new_milestone(call: &Call) -> Result<Reply, SdkError> {
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let planning = call.planning();
    let (version, name) = rt::milestone_info(call.project);
    let shipped = std::fs::read(planning.join("MILESTONES.md"))
        .ok()
        .and_then(|b| {
            let text = String::from_utf8_lossy(&b).into_owned();
            let c = re(r"(?m)^##\s+(v[\d.]+)\s+(.+?)\s+\(Shipped:")
                .captures(text.as_str())
                .ok()
                .flatten()?;
            Some((
                rt::group(&c, 1).to_string(),
                rt::group(&c, 2).trim().to_string(),
            ))
        });
    let phases = planning.join("phases");
    let dirs = super::names_in(&phases)
        .into_iter()
        .filter(|d| phases.join(d).is_dir())
        .count();
    // Unlike the phase bundles, this one resolves models without a
    // config.json too (`sonnet`, not `""`).
    let mut out = Map::new();
    for (k, agent) in [
        ("researcher_model", "gsd-project-researcher"),
        ("synthesizer_model", "gsd-research-synthesizer"),
        ("roadmapper_model", "gsd-roadmapper"),
    ] {
        out.insert(k.into(), super::config::model_alias(call.project, agent)?);
    }
    init::copy(&mut out, &config, "commit_docs");
    if let Some(r) = config.get("workflow").and_then(|w| w.get("research")) {
        out.insert("research_enabled".into(), r.clone());
    }
    let not_empty = |s: &str| (!s.is_empty()).then(|| s.to_string());
    insert_all(
        &mut out,
        vec![
            ("current_milestone", json!(version)),
            ("current_milestone_name", json!(name)),
            (
                "latest_completed_milestone",
                json!(shipped.as_ref().and_then(|(v, _)| not_empty(v))),
            ),
            (
                "latest_completed_milestone_name",
                json!(shipped.as_ref().and_then(|(_, n)| not_empty(n))),
            ),
            ("phase_dir_count", json!(dirs)),
            (
                "phase_archive_path",
                json!(
                    shipped
                        .as_ref()
                        .map(|(v, _)| format!(".planning/milestones/{v}-phases"))
                ),
            ),
            (
                "project_exists",
                json!(planning.join("PROJECT.md").exists()),
            ),
            (
                "roadmap_exists",
                json!(planning.join("ROADMAP.md").exists()),
            ),
            ("state_exists", json!(planning.join("STATE.md").exists())),
            ("project_path", json!(".planning/PROJECT.md")),
            ("roadmap_path", json!(".planning/ROADMAP.md")),
            ("state_path", json!(".planning/STATE.md")),
        ],
    );
    init::with_project_root(call.project, &mut out, &config);
    Ok(Reply::Json(Value::Object(out)))
}

/// `init.list-workspaces` → `{workspace_base, workspaces, workspace_count}`:
/// the folders of `~/gsd-workspaces` that hold a `WORKSPACE.md`, each with
/// its strategy line, its repository rows and whether it has a GSD project.
/// `~/gsd-workspaces`, where GSD's workspace workflows make workspaces
/// (HOME as GSD reads it: the variable, else the account's home).
pub fn workspace_base() -> std::path::PathBuf {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(std::env::home_dir)
        .unwrap_or_default()
        .join("gsd-workspaces")
}

pub fn list_workspaces(_call: &Call) -> Result<Reply, SdkError> {
    let base = workspace_base();
    let strategy = re(&format!(
        r"(?m)^Strategy:\s*({}+)(?:$|(?=\r))",
        super::super::compat::js::JS_DOT
    ));
    let repo_row = re(r"^\|\s*[A-Za-z0-9_]");
    let mut workspaces = Vec::new();
    for name in super::names_in(&base) {
        let path = base.join(&name);
        // A Dirent's `isDirectory()`: a link to a folder is not one.
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        let manifest = path.join("WORKSPACE.md");
        if !manifest.exists() {
            continue;
        }
        let text = std::fs::read(&manifest)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let strategy = strategy.captures(text.as_str()).ok().flatten().map_or_else(
            || "unknown".to_owned(),
            |c| super::super::compat::js::trim(rt::group(&c, 1)).to_owned(),
        );
        let repos = text
            .split('\n')
            .filter(|l| {
                repo_row.is_match(l).unwrap_or(false) && !l.contains("Repo") && !l.contains("---")
            })
            .count();
        workspaces.push(json!({
            "name": name,
            "path": path.to_string_lossy(),
            "repo_count": repos,
            "strategy": strategy,
            "has_project": path.join(".planning/PROJECT.md").exists(),
        }));
    }
    let count = workspaces.len();
    Ok(Reply::Json(json!({
        "workspace_base": base.to_string_lossy(),
        "workspaces": workspaces,
        "workspace_count": count,
    })))
}
