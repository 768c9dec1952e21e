//! init.phase-op: the context bundle a phase workflow starts from — the
//! phase folder (or where it will be), its files, the core paths, config
//! flags, and whether GSD's agents are installed.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::super::compat::config as cfg;
use super::super::compat::js;
use super::super::compat::roadmap_text::{self as rt, re};
use super::super::{Call, Reply, SdkError};
use super::{phase_find, roadmap, text};

/// `--phase=N`, `--phase N`, or the first argument.
pub fn phase_arg(args: &[String]) -> Option<&str> {
    if let Some(v) = args.iter().find_map(|a| a.strip_prefix("--phase=")) {
        let v = v.trim();
        return (!v.is_empty()).then_some(v);
    }
    if let Some(i) = args.iter().position(|a| a == "--phase") {
        return args
            .get(i + 1)
            .map(String::as_str)
            .filter(|v| !v.starts_with("--"));
    }
    args.first()
        .map(String::as_str)
        .filter(|v| !v.starts_with("--"))
}

/// Claude Code's (or `GSD_AGENTS_DIR`'s) agents folder.
fn agents_dir(config: &Map<String, Value>) -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("GSD_AGENTS_DIR") {
        return Some(PathBuf::from(d));
    }
    let runtime = std::env::var("GSD_RUNTIME")
        .ok()
        .or_else(|| {
            config
                .get("runtime")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .unwrap_or_else(|| "claude".into());
    if runtime != "claude" {
        return None;
    }
    let base = match std::env::var_os("CLAUDE_CONFIG_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".claude"),
    };
    Some(base.join("agents"))
}

/// `agents_installed` and `missing_agents`: every agent of the model catalog.
fn agents(config: &Map<String, Value>) -> (bool, Vec<String>) {
    let expected: Vec<String> = cfg::catalog()["agents"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    let Some(dir) = agents_dir(config).filter(|d| d.exists()) else {
        return (false, expected);
    };
    let missing: Vec<String> = expected
        .into_iter()
        .filter(|a| {
            !dir.join(format!("{a}.md")).exists() && !dir.join(format!("{a}.agent.md")).exists()
        })
        .collect();
    (missing.is_empty(), missing)
}

/// The `*_path` fields of a phase's artifacts, in gsd-sdk's order.
pub const ARTIFACTS: [(&str, &str); 6] = [
    ("context_path", "CONTEXT"),
    ("research_path", "RESEARCH"),
    ("verification_path", "VERIFICATION"),
    ("uat_path", "UAT"),
    ("reviews_path", "REVIEWS"),
    ("patterns_path", "PATTERNS"),
];

/// Set each artifact's path field to the first `NN-KIND.md` (or
/// `KIND.md`) in the phase folder `dir`, in listing order.
pub fn artifact_paths(
    map: &mut Map<String, Value>,
    project: &Path,
    dir: &str,
    kinds: &[(&str, &str)],
) {
    let files = super::names_in(&project.join(dir));
    for (key, kind) in kinds {
        let (suffix, whole) = (format!("-{kind}.md"), format!("{kind}.md"));
        if let Some(f) = files.iter().find(|f| f.ends_with(&suffix) || **f == whole) {
            map.insert((*key).into(), json!(format!("{dir}/{f}")));
        }
    }
}

/// `getModelAlias` for each agent, or `""` for all when the project has no
/// config.json (gsd-sdk resolves no models without one).
pub fn models(project: &Path, agents: &[&str]) -> Result<Vec<Value>, SdkError> {
    let exists = project.join(".planning/config.json").exists();
    agents
        .iter()
        .map(|a| {
            if exists {
                super::config::model_alias(project, a)
            } else {
                Ok(json!(""))
            }
        })
        .collect()
}

/// The config's value for `key` put in a bundle, left out when the config
/// has none (as JSON drops `undefined`).
pub fn copy(out: &mut Map<String, Value>, config: &Map<String, Value>, key: &str) {
    if let Some(v) = config.get(key) {
        out.insert(key.into(), v.clone());
    }
}

/// `withProjectRoot`: the fields every init bundle ends with.
pub fn with_project_root(
    project: &Path,
    out: &mut Map<String, Value>,
    config: &Map<String, Value>,
) {
    out.insert("project_root".into(), json!(project.display().to_string()));
    let (installed, missing) = agents(config);
    out.insert("agents_installed".into(), json!(installed));
    out.insert("missing_agents".into(), json!(missing));
    for k in ["response_language", "project_code"] {
        if let Some(v) = config.get(k).filter(|v| js::truthy(v)) {
            out.insert(k.into(), v.clone());
        }
    }
    if let Ok(t) = std::fs::read_to_string(project.join(".planning/PROJECT.md"))
        && let Some(c) = re(r"(?m)^#\s+(.+)$").captures(t.as_str()).ok().flatten()
    {
        out.insert("project_title".into(), json!(rt::group(&c, 1).trim()));
    }
}

/// The search switches and commit_docs every init answer opens with, from
/// the loaded config (a string key masked where it is a secret).
pub fn config_switches(config: &Map<String, Value>) -> Vec<(&'static str, Value)> {
    vec![
        (
            "commit_docs",
            config.get("commit_docs").cloned().unwrap_or(Value::Null),
        ),
        ("brave_search", secret_flag(config, "brave_search")),
        ("firecrawl", secret_flag(config, "firecrawl")),
        ("exa_search", secret_flag(config, "exa_search")),
    ]
}

fn secret_flag(config: &Map<String, Value>, key: &str) -> Value {
    match config.get(key) {
        Some(Value::String(s)) => cfg::mask_if_secret(key, json!(s)),
        Some(v) => v.clone(),
        None => Value::Null,
    }
}

/// The phase as a workflow sees it: on disk, or from the roadmap when its
/// folder does not exist yet (or only an older milestone's archive has it).
pub fn phase_info(project: &Path, phase: &str) -> Map<String, Value> {
    let mut info = phase_find::find(project, phase);
    let roadmap_phase = roadmap::phase_value(project, phase);
    let in_roadmap = roadmap_phase["found"] == json!(true);
    let from_roadmap = || {
        let name = roadmap_phase["phase_name"].as_str().map(str::to_string);
        json!({
            "found": true, "directory": null,
            "phase_number": roadmap_phase["phase_number"],
            "phase_name": name,
            "phase_slug": name.as_deref().map(text::slug),
            "plans": [], "summaries": [], "incomplete_plans": [],
            "has_research": false, "has_context": false, "has_verification": false,
        })
        .as_object()
        .cloned()
        .unwrap_or_default()
    };
    if in_roadmap
        && let Some(archived) = info.get("archived").and_then(Value::as_str)
        && !archived.is_empty()
        && archived != rt::milestone_info(project).0
    {
        info = from_roadmap();
    }
    if info.get("found") != Some(&json!(true)) && in_roadmap {
        info = from_roadmap();
    }
    info
}

/// `init.phase-op N`.
pub fn phase_op(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = phase_arg(call.args) else {
        return Ok(Reply::Json(
            json!({"error": "phase required for init phase-op"}),
        ));
    };
    let config = cfg::load(call.project).map_err(SdkError::execution)?;
    let planning = call.planning();
    let info = phase_info(call.project, phase);
    let found = info.get("found") == Some(&json!(true));
    let number = info
        .get("phase_number")
        .filter(|v| js::truthy(v))
        .cloned()
        .unwrap_or(Value::Null);
    let name = info.get("phase_name").cloned().unwrap_or(Value::Null);
    let dir = info.get("directory").cloned().unwrap_or(Value::Null);
    let plans = info
        .get("plans")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let code = config
        .get("project_code")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let expected = match (&dir, number.as_str(), name.as_str()) {
        (Value::Null, Some(n), Some(nm)) if !nm.is_empty() => {
            let slug = text::slug(nm);
            (!slug.is_empty()).then(|| {
                let prefix = if code.is_empty() {
                    String::new()
                } else {
                    format!("{code}-")
                };
                json!(format!(
                    ".planning/phases/{prefix}{}-{slug}",
                    rt::normalize_phase_name(n)
                ))
            })
        }
        _ => None,
    };
    let flag = |k: &str| {
        info.get(k)
            .filter(|v| js::truthy(v))
            .cloned()
            .unwrap_or(json!(false))
    };
    let mut out = json!({
        "commit_docs": config.get("commit_docs").cloned().unwrap_or(Value::Null),
        "brave_search": secret_flag(&config, "brave_search"),
        "firecrawl": secret_flag(&config, "firecrawl"),
        "exa_search": secret_flag(&config, "exa_search"),
        "phase_found": found,
        "phase_dir": dir,
        "expected_phase_dir": expected,
        "phase_number": number,
        "phase_name": name,
        "phase_slug": info.get("phase_slug").cloned().unwrap_or(Value::Null),
        "padded_phase": number.as_str().map(rt::normalize_phase_name),
        "has_research": flag("has_research"),
        "has_context": flag("has_context"),
        "has_plans": plans > 0,
        "has_verification": flag("has_verification"),
        "has_reviews": flag("has_reviews"),
        "plan_count": plans,
        "roadmap_exists": planning.join("ROADMAP.md").exists(),
        "planning_exists": planning.exists(),
        "state_path": ".planning/STATE.md",
        "roadmap_path": ".planning/ROADMAP.md",
        "requirements_path": ".planning/REQUIREMENTS.md",
    });
    let Value::Object(map) = &mut out else {
        unreachable!("a JSON object literal");
    };
    if let Some(d) = dir.as_str() {
        artifact_paths(map, call.project, d, &ARTIFACTS[..5]);
    }
    with_project_root(call.project, map, &config);
    Ok(Reply::Json(out))
}
