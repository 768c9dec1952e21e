//! init.plan-phase and init.execute-phase: the bundles /gsd-plan-phase and
//! /gsd-execute-phase start from — init.phase-op's phase view plus the
//! models of the agents those workflows spawn, the requirement IDs the
//! roadmap gives the phase, and (for execution) the branch to work on.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::compat::config as cfg;
use super::super::compat::js;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::{init, phases, roadmap, text};

/// The phase's `**Requirements:**` line as `A, B`, or null (none, or `TBD`).
fn requirement_ids(roadmap_phase: &Value) -> Value {
    let Some(section) = roadmap_phase.get("section").and_then(Value::as_str) else {
        return Value::Null;
    };
    let line = re(r"(?m)^\*\*Requirements:?\*\*[^\S\n]*:?[^\S\n]*([^\n]*)$");
    let Some(c) = line.captures(section).ok().flatten() else {
        return Value::Null;
    };
    // `[` and `]` go anywhere in the line, before the split.
    let cleaned = rt::group(&c, 1).replace(['[', ']'], "");
    let ids: Vec<&str> = cleaned
        .split(',')
        .map(js::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let joined = ids.join(", ");
    if joined.is_empty() || joined == "TBD" {
        Value::Null
    } else {
        json!(joined)
    }
}

/// The phase (null when neither disk nor roadmap knows it) and the
/// roadmap's answer for it.
fn phase_and_roadmap(project: &Path, phase: &str) -> (Option<Map<String, Value>>, Value) {
    let info = init::phase_info(project, phase);
    let found = info.get("found") == Some(&json!(true));
    (found.then_some(info), roadmap::phase_value(project, phase))
}

fn field<'a>(info: &'a Option<Map<String, Value>>, key: &str) -> Option<&'a Value> {
    info.as_ref().and_then(|i| i.get(key))
}

fn list(info: &Option<Map<String, Value>>, key: &str) -> Vec<Value> {
    field(info, key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn truthy_or(info: &Option<Map<String, Value>>, key: &str, default: Value) -> Value {
    field(info, key)
        .filter(|v| js::truthy(v))
        .cloned()
        .unwrap_or(default)
}

fn get<'a>(config: &'a Map<String, Value>, path: &[&str]) -> &'a Value {
    let mut v = config.get(path[0]).unwrap_or(&Value::Null);
    for k in &path[1..] {
        v = v.get(k).unwrap_or(&Value::Null);
    }
    v
}

/// `x ?? default` on a config value.
fn or(v: &Value, default: Value) -> Value {
    if v.is_null() { default } else { v.clone() }
}

fn template(config: &Map<String, Value>, key: &str) -> Result<String, SdkError> {
    match get(config, &["git", key]) {
        Value::String(s) => Ok(s.clone()),
        _ => Err(SdkError::execution(format!(
            "config.git.{key}.replace is not a function"
        ))),
    }
}

/// `String.prototype.replace` with a string pattern: the first match only.
fn replace_first(s: &str, from: &str, to: &str) -> String {
    s.replacen(from, to, 1)
}

/// `init.execute-phase N`.
pub fn execute_phase(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = init::phase_arg(call.args) else {
        return Ok(Reply::Json(
            json!({"error": "phase required for init execute-phase"}),
        ));
    };
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let (info, roadmap_phase) = phase_and_roadmap(call.project, phase);
    let req_ids = requirement_ids(&roadmap_phase);
    let config_exists = call.planning().join("config.json").exists();
    let [executor, verifier]: [Value; 2] =
        init::models(call.project, &["gsd-executor", "gsd-verifier"])?
            .try_into()
            .expect("two agents");
    let (version, name) = rt::milestone_info(call.project);
    let number = truthy_or(&info, "phase_number", Value::Null);
    let slug = truthy_or(&info, "phase_slug", Value::Null);
    let (plans, summaries, incomplete) = (
        list(&info, "plans"),
        list(&info, "summaries"),
        list(&info, "incomplete_plans"),
    );
    let code = config
        .get("project_code")
        .filter(|v| js::truthy(v))
        .map(js::string)
        .unwrap_or_default();
    let strategy = get(&config, &["git", "branching_strategy"]);
    let (plan_count, incomplete_count) = (plans.len(), incomplete.len());
    let branch = if strategy == "phase" && info.is_some() {
        let t = template(&config, "phase_branch_template")?;
        let t = replace_first(&t, "{project}", &code);
        let t = replace_first(&t, "{phase}", number.as_str().unwrap_or(""));
        json!(replace_first(
            &t,
            "{slug}",
            slug.as_str().unwrap_or("phase")
        ))
    } else if strategy == "milestone" {
        let t = template(&config, "milestone_branch_template")?;
        let t = replace_first(&t, "{milestone}", &version);
        let s = text::slug(&name);
        json!(replace_first(
            &t,
            "{slug}",
            if s.is_empty() { "milestone" } else { &s }
        ))
    } else {
        Value::Null
    };
    let planning = call.planning();
    let mut out = json!({
        "executor_model": executor,
        "verifier_model": verifier,
        "tdd_mode": or(get(&config, &["workflow", "tdd_mode"]), json!(false)),
        "commit_docs": get(&config, &["commit_docs"]),
        "sub_repos": or(get(&config, &["sub_repos"]), json!([])),
        "parallelization": get(&config, &["parallelization"]),
        "context_window": or(get(&config, &["context_window"]), json!(200000)),
        "branching_strategy": strategy,
        "phase_branch_template": get(&config, &["git", "phase_branch_template"]),
        "milestone_branch_template": get(&config, &["git", "milestone_branch_template"]),
        "verifier_enabled": get(&config, &["workflow", "verifier"]),
        "phase_found": info.is_some(),
        "phase_dir": or(field(&info, "directory").unwrap_or(&Value::Null), Value::Null),
        "phase_number": number,
        "phase_name": or(field(&info, "phase_name").unwrap_or(&Value::Null), Value::Null),
        "phase_slug": slug,
        "phase_req_ids": req_ids,
        "plans": plans,
        "summaries": summaries,
        "incomplete_plans": incomplete,
        "plan_count": plan_count,
        "incomplete_count": incomplete_count,
        "branch_name": branch,
        "milestone_version": version,
        "milestone_name": name,
        "milestone_slug": text::slug(&name),
        "state_exists": planning.join("STATE.md").exists(),
        "roadmap_exists": planning.join("ROADMAP.md").exists(),
        "config_exists": config_exists,
        "state_path": ".planning/STATE.md",
        "roadmap_path": ".planning/ROADMAP.md",
        "config_path": ".planning/config.json",
    });
    let map = out.as_object_mut().expect("an object literal");
    init::with_project_root(call.project, map, &config);
    Ok(Reply::Json(out))
}

/// `init.plan-phase N`.
pub fn plan_phase(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = init::phase_arg(call.args) else {
        return Ok(Reply::Json(
            json!({"error": "phase required for init plan-phase"}),
        ));
    };
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let (info, roadmap_phase) = phase_and_roadmap(call.project, phase);
    let req_ids = requirement_ids(&roadmap_phase);
    let [researcher, planner, checker]: [Value; 3] = init::models(
        call.project,
        &["gsd-phase-researcher", "gsd-planner", "gsd-plan-checker"],
    )?
    .try_into()
    .expect("three agents");
    let number = truthy_or(&info, "phase_number", Value::Null);
    let name = or(
        field(&info, "phase_name").unwrap_or(&Value::Null),
        Value::Null,
    );
    let dir = or(
        field(&info, "directory").unwrap_or(&Value::Null),
        Value::Null,
    );
    let (plans, summaries) = (list(&info, "plans"), list(&info, "summaries"));
    let status = match dir.as_str() {
        Some(d) => phases::phase_status(plans.len(), summaries.len(), &call.project.join(d)),
        None => "Pending",
    };
    let code = config
        .get("project_code")
        .filter(|v| js::truthy(v))
        .map(js::string)
        .unwrap_or_default();
    if code.contains(['/', '\\']) || code.contains("..") {
        return Err(SdkError::validation(
            "project_code contains invalid characters",
        ));
    }
    let expected = match (&dir, number.as_str(), name.as_str()) {
        (Value::Null, Some(n), Some(nm)) => {
            let slug = text::slug(nm);
            let prefix = if code.is_empty() {
                String::new()
            } else {
                format!("{code}-")
            };
            (!slug.is_empty()).then(|| {
                json!(format!(
                    ".planning/phases/{prefix}{}-{slug}",
                    rt::normalize_phase_name(n)
                ))
            })
        }
        _ => None,
    };
    let planning = call.planning();
    let flag = |k: &str| truthy_or(&info, k, json!(false));
    let mut out = json!({
        "researcher_model": researcher,
        "planner_model": planner,
        "checker_model": checker,
        "tdd_mode": or(get(&config, &["workflow", "tdd_mode"]), json!(false)),
        "research_enabled": get(&config, &["workflow", "research"]),
        "plan_checker_enabled": get(&config, &["workflow", "plan_check"]),
        "nyquist_validation_enabled": get(&config, &["workflow", "nyquist_validation"]),
        "commit_docs": get(&config, &["commit_docs"]),
        "text_mode": get(&config, &["workflow", "text_mode"]),
        "auto_advance": js::truthy(get(&config, &["workflow", "auto_advance"])),
        "auto_chain_active": js::truthy(get(&config, &["workflow", "_auto_chain_active"])),
        "mode": or(get(&config, &["mode"]), json!("interactive")),
        "phase_found": info.is_some(),
        "phase_dir": dir,
        "expected_phase_dir": expected,
        "phase_number": number,
        "phase_name": name,
        "phase_slug": or(field(&info, "phase_slug").unwrap_or(&Value::Null), Value::Null),
        "padded_phase": number.as_str().map(rt::normalize_phase_name),
        "phase_req_ids": req_ids,
        "phase_status": status,
        "has_research": flag("has_research"),
        "has_context": flag("has_context"),
        "has_reviews": flag("has_reviews"),
        "has_plans": !plans.is_empty(),
        "plan_count": plans.len(),
        "planning_exists": planning.exists(),
        "roadmap_exists": planning.join("ROADMAP.md").exists(),
        "state_path": ".planning/STATE.md",
        "roadmap_path": ".planning/ROADMAP.md",
        "requirements_path": ".planning/REQUIREMENTS.md",
        "patterns_path": null,
    });
    let map = out.as_object_mut().expect("an object literal");
    if let Some(d) = dir.as_str() {
        init::artifact_paths(map, call.project, d, &init::ARTIFACTS);
    }
    init::with_project_root(call.project, map, &config);
    Ok(Reply::Json(out))
}
