//! config.json as gsd-sdk reads it: raw (config-get), merged with its
//! defaults (resolve-model, agent-skills), or flattened into the legacy
//! gsd-tools shape (state.load) — plus the key schema config-set checks
//! and the model catalog resolve-model looks agents up in.

use std::path::Path;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

/// The key schema gsd-sdk 1.42.3's config-set accepts (its
/// `config-schema.js`, dumped as data).
const KEYS: &str = include_str!("config-keys-1.42.3.json");
/// gsd-sdk 1.42.3's `shared/model-catalog.json`, unchanged.
const CATALOG: &str = include_str!("model-catalog-1.42.3.json");

fn parsed(text: &'static str, cell: &'static OnceLock<Value>) -> &'static Value {
    cell.get_or_init(|| serde_json::from_str(text).unwrap_or(Value::Null))
}

pub fn keys() -> &'static Value {
    static C: OnceLock<Value> = OnceLock::new();
    parsed(KEYS, &C)
}

pub fn catalog() -> &'static Value {
    static C: OnceLock<Value> = OnceLock::new();
    parsed(CATALOG, &C)
}

/// What reading `.planning/config.json` gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Raw {
    Missing,
    /// Not JSON, or JSON but not what was expected.
    Malformed(String),
    Object(Map<String, Value>),
}

/// Read the raw config (no defaults).
pub fn raw(project: &Path) -> Raw {
    let path = project.join(".planning").join("config.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Raw::Missing;
    };
    if text.trim().is_empty() {
        return Raw::Missing;
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => Raw::Object(m),
        Ok(_) => Raw::Malformed("must be a JSON object".into()),
        Err(e) => Raw::Malformed(e.to_string()),
    }
}

/// gsd-sdk's `CONFIG_DEFAULTS`, merged under the project's keys the way
/// its `loadConfig` does (`git`, `workflow`, `hooks`, `agent_skills` one
/// level deep).
pub fn merged(raw: &Map<String, Value>) -> Map<String, Value> {
    let defaults = json!({
        "model_profile": "balanced", "commit_docs": true, "parallelization": true,
        "search_gitignored": false, "brave_search": false, "firecrawl": false, "exa_search": false,
        "git": {"branching_strategy": "none", "phase_branch_template": "gsd/phase-{phase}-{slug}",
                "milestone_branch_template": "gsd/{milestone}-{slug}", "quick_branch_template": null},
        "workflow": {"research": true, "plan_check": true, "verifier": true, "nyquist_validation": true,
            "tdd_mode": false, "human_verify_mode": "end-of-phase", "auto_advance": false,
            "node_repair": true, "node_repair_budget": 2, "ui_phase": true, "ui_safety_gate": true,
            "text_mode": false, "research_before_questions": false, "discuss_mode": "discuss",
            "skip_discuss": false, "max_discuss_passes": 3, "subagent_timeout": 300000,
            "context_coverage_gate": true, "_auto_chain_active": false},
        "hooks": {"context_warnings": true},
        "agent_skills": {},
        "project_code": null,
        "mode": "interactive"
    });
    let Value::Object(mut out) = defaults else {
        return Map::new();
    };
    let nested = ["git", "workflow", "hooks", "agent_skills"];
    let base: Map<String, Value> = out.clone();
    for (k, v) in raw {
        out.insert(k.clone(), v.clone());
    }
    for k in nested {
        let mut m = base
            .get(k)
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        if k == "git"
            && let Some(s) = raw.get("branching_strategy").filter(|v| v.is_string())
        {
            m.insert("branching_strategy".into(), s.clone());
        }
        if let Some(Value::Object(user)) = raw.get(k) {
            for (uk, uv) in user {
                m.insert(uk.clone(), uv.clone());
            }
        }
        out.insert(k.into(), Value::Object(m));
    }
    out
}

/// `merged` for the project, defaults alone when config.json is missing.
pub fn load(project: &Path) -> Result<Map<String, Value>, String> {
    match raw(project) {
        Raw::Missing => Ok(merged(&Map::new())),
        Raw::Object(m) => Ok(merged(&m)),
        Raw::Malformed(e) => Err(format!(
            "Failed to parse config at {}: {e}",
            project.join(".planning/config.json").display()
        )),
    }
}

/// gsd-sdk masks credential keys in what it prints.
pub fn mask_if_secret(key: &str, v: Value) -> Value {
    let secret = keys()["secret_keys"]
        .as_array()
        .is_some_and(|a| a.iter().any(|k| k == key));
    if !secret {
        return v;
    }
    let s = match &v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    Value::String(match s.chars().count() {
        0 => "(unset)".into(),
        n if n < 8 => "****".into(),
        n => format!("****{}", s.chars().skip(n - 4).collect::<String>()),
    })
}

/// Whether config-set accepts `key`; the suggestion it gives when not.
pub fn check_key(key: &str) -> Result<(), Option<String>> {
    let k = keys();
    let listed = |name: &str| {
        k[name]
            .as_array()
            .is_some_and(|a| a.iter().any(|v| v == key))
    };
    if listed("valid_keys") || listed("runtime_state_keys") {
        return Ok(());
    }
    let dynamic = k["dynamic_patterns"].as_array().is_some_and(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .any(|p| regex::Regex::new(p).is_ok_and(|r| r.is_match(key)))
    });
    if dynamic {
        return Ok(());
    }
    if let Some(s) = k["suggestions"][key].as_str() {
        return Err(Some(s.to_string()));
    }
    let mut best = ("", 0usize);
    for cand in k["valid_keys"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let shared = key
            .chars()
            .zip(cand.chars())
            .take_while(|(a, b)| a == b)
            .count();
        if shared > best.1 {
            best = (cand, shared);
        }
    }
    Err((best.1 > 2).then(|| best.0.to_string()))
}

/// A command-line value as config-set stores it: booleans, numbers and
/// JSON arrays/objects are typed, everything else is a string.
pub fn typed_value(s: &str) -> Value {
    match s {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    if let Some(n) = js_number(s) {
        return n;
    }
    if (s.starts_with('[') || s.starts_with('{'))
        && let Ok(v) = serde_json::from_str::<Value>(s)
    {
        return v;
    }
    Value::String(s.to_string())
}

/// `Number(s)` for the strings JavaScript reads as a finite number.
fn js_number(s: &str) -> Option<Value> {
    let t = s.trim();
    if s.is_empty() {
        return None;
    }
    if t.is_empty() {
        return Some(json!(0));
    }
    let f: f64 = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()? as f64
    } else if t.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) {
        t.parse().ok()?
    } else {
        return None;
    };
    if !f.is_finite() {
        return None;
    }
    Some(if f.fract() == 0.0 && f.abs() < 9.0e15 {
        json!(f as i64)
    } else {
        json!(f)
    })
}

/// gsd-tools' `CONFIG_DEFAULTS` (core.cjs), the legacy flat config.
fn legacy_defaults() -> Map<String, Value> {
    let v = json!({
        "model_profile": "balanced", "commit_docs": true, "search_gitignored": false,
        "branching_strategy": "none", "phase_branch_template": "gsd/phase-{phase}-{slug}",
        "milestone_branch_template": "gsd/{milestone}-{slug}", "quick_branch_template": null,
        "research": true, "plan_checker": true, "verifier": true, "nyquist_validation": true,
        "ai_integration_phase": true, "parallelization": true, "brave_search": false,
        "firecrawl": false, "exa_search": false, "text_mode": false, "sub_repos": [],
        "resolve_model_ids": false, "context_window": 200000, "phase_naming": "sequential",
        "project_code": null, "subagent_timeout": 300000, "security_enforcement": true,
        "security_asvs_level": 1, "security_block_on": "high", "post_planning_gaps": true
    });
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// The flat config gsd-tools' `loadConfig` returns and gsd-sdk's
/// `state.load` prints. Unlike gsd-tools, nothing is migrated on disk:
/// reading never writes config.json (PARITY.md).
pub fn legacy(project: &Path) -> Map<String, Value> {
    let d = legacy_defaults();
    let parsed = match raw(project) {
        Raw::Object(m) => m,
        _ => return d,
    };
    // `get(key, {section, field})`: the flat key, else the nested one.
    let get = |key: &str, nested: Option<(&str, &str)>| -> Option<Value> {
        if let Some(v) = parsed.get(key) {
            return Some(v.clone());
        }
        let (s, f) = nested?;
        parsed.get(s).and_then(|sec| sec.get(f)).cloned()
    };
    let or = |v: Option<Value>, dflt: Value| match v {
        Some(Value::Null) | None => dflt,
        Some(v) => v,
    };
    let dv = |k: &str| d.get(k).cloned().unwrap_or(Value::Null);
    let wf = |k: &'static str, f: &'static str| get(k, Some(("workflow", f)));
    let git = |k: &'static str| get(k, Some(("git", k)));
    let truthy_or = |v: Option<Value>, dflt: Value| match v {
        Some(v) if super::js::truthy(&v) => v,
        _ => dflt,
    };
    let parallelization = match get("parallelization", None) {
        Some(Value::Bool(b)) => Value::Bool(b),
        Some(Value::Object(o)) if o.contains_key("enabled") => o["enabled"].clone(),
        _ => dv("parallelization"),
    };
    let commit_docs = match get("commit_docs", Some(("planning", "commit_docs"))) {
        Some(v) => v,
        None if planning_ignored(project) => Value::Bool(false),
        None => dv("commit_docs"),
    };
    let mut out = Map::new();
    let mut put = |k: &str, v: Value| {
        out.insert(k.to_string(), v);
    };
    put(
        "model_profile",
        or(get("model_profile", None), dv("model_profile")),
    );
    put("commit_docs", commit_docs);
    put(
        "search_gitignored",
        or(
            get("search_gitignored", Some(("planning", "search_gitignored"))),
            dv("search_gitignored"),
        ),
    );
    for k in [
        "branching_strategy",
        "phase_branch_template",
        "milestone_branch_template",
        "quick_branch_template",
    ] {
        put(k, or(git(k), dv(k)));
    }
    put("research", or(wf("research", "research"), dv("research")));
    put(
        "plan_checker",
        or(wf("plan_checker", "plan_check"), dv("plan_checker")),
    );
    put("verifier", or(wf("verifier", "verifier"), dv("verifier")));
    put(
        "nyquist_validation",
        or(
            wf("nyquist_validation", "nyquist_validation"),
            dv("nyquist_validation"),
        ),
    );
    put(
        "post_planning_gaps",
        or(
            wf("post_planning_gaps", "post_planning_gaps"),
            dv("post_planning_gaps"),
        ),
    );
    put("parallelization", parallelization);
    for k in ["brave_search", "firecrawl", "exa_search"] {
        put(k, or(get(k, None), dv(k)));
    }
    put("tdd_mode", or(wf("tdd_mode", "tdd_mode"), json!(false)));
    put("mvp_mode", or(wf("mvp_mode", "mvp_mode"), json!(false)));
    put(
        "text_mode",
        or(wf("text_mode", "text_mode"), dv("text_mode")),
    );
    put(
        "auto_advance",
        or(wf("auto_advance", "auto_advance"), json!(false)),
    );
    put(
        "_auto_chain_active",
        or(wf("_auto_chain_active", "_auto_chain_active"), json!(false)),
    );
    put("mode", or(get("mode", None), json!("interactive")));
    put(
        "sub_repos",
        or(
            get("sub_repos", Some(("planning", "sub_repos"))),
            dv("sub_repos"),
        ),
    );
    for k in [
        "resolve_model_ids",
        "context_window",
        "phase_naming",
        "project_code",
    ] {
        put(k, or(get(k, None), dv(k)));
    }
    put(
        "subagent_timeout",
        or(
            wf("subagent_timeout", "subagent_timeout"),
            dv("subagent_timeout"),
        ),
    );
    for k in [
        "model_overrides",
        "models",
        "dynamic_routing",
        "runtime",
        "model_profile_overrides",
    ] {
        put(k, truthy_or(parsed.get(k).cloned(), Value::Null));
    }
    put(
        "agent_skills",
        truthy_or(parsed.get("agent_skills").cloned(), json!({})),
    );
    put(
        "manager",
        truthy_or(parsed.get("manager").cloned(), json!({})),
    );
    put(
        "response_language",
        truthy_or(get("response_language", None), Value::Null),
    );
    put(
        "claude_md_path",
        truthy_or(get("claude_md_path", None), Value::Null),
    );
    put(
        "claude_md_assembly",
        truthy_or(parsed.get("claude_md_assembly").cloned(), Value::Null),
    );
    out
}

/// Whether git ignores `.planning/` in this project (then gsd-tools
/// defaults commit_docs to false).
pub fn planning_ignored(project: &Path) -> bool {
    git2::Repository::discover(project)
        .ok()
        .and_then(|repo| {
            let workdir = repo.workdir()?.canonicalize().ok()?;
            let abs = project.canonicalize().ok()?.join(".planning");
            let rel = abs.strip_prefix(&workdir).ok()?.to_path_buf();
            repo.is_path_ignored(rel).ok()
        })
        .unwrap_or(false)
}
