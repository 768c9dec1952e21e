//! config.json as GSD Core 1.14.0's `loadConfig` hands it to `state load`:
//! every setting it knows resolved (the flat key, else its section's
//! field, else the built-in default) and the capability registry's
//! federated settings laid over it (`review.models.*`, `workflow.*`, …),
//! each the project's value when it has the declared type, else the
//! registry's default. The defaults and the registry's slices are data of
//! the release (`gsd-core-1.14.0-config-defaults.json`, regenerated from the
//! installed package by `tests/sdk_core/config-defaults.mjs`).
//!
//! What gsd does not follow is handed on: capabilities installed beside
//! the release (their slices change the overlay), settings 1.14.0 warns
//! about as it loads them (a runtime other than Claude's,
//! `model_profile_overrides`, `model_policy`), ~/.gsd/defaults.json, a
//! config.json that is empty or not a JSON object (1.14.0 warns and falls
//! back), and legacy keys whose move needs the file system (re-detected
//! sub-repositories). Legacy keys 1.14.0 only moves are moved in memory, as
//! the other Core answers do (PARITY G2: gsd writes nothing back).

use std::path::Path;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use super::init_plan_phase::flat_get;
use super::native::{
    CoreCall, Refusal, as_loaded, config_object, hand_on, redetects_sub_repos, skipped_migration,
};

const TABLE: &str = include_str!("gsd-core-1.14.0-config-defaults.json");

/// One federated setting of the capability registry.
struct Slice {
    /// Dotted path (`review.models.claude`).
    key: String,
    kind: String,
    default: Value,
    /// An enum's allowed values (none: any string).
    values: Vec<Value>,
}

struct Table {
    defaults: Map<String, Value>,
    federated: Vec<Slice>,
}

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| {
        let v: Value = serde_json::from_str(TABLE).unwrap_or(Value::Null);
        let defaults = v["defaults"].as_object().cloned().unwrap_or_default();
        let federated = v["federated"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .map(|r| Slice {
                        key: r["key"].as_str().unwrap_or_default().to_owned(),
                        kind: r["type"].as_str().unwrap_or_default().to_owned(),
                        default: r["default"].clone(),
                        values: r["values"].as_array().cloned().unwrap_or_default(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Table {
            defaults,
            federated,
        }
    })
}

/// The config `loadConfig(cwd)` returns for the project of `call`.
pub(super) fn loaded(call: &CoreCall) -> Result<Map<String, Value>, Refusal> {
    if installed_capabilities(call.project) {
        return Err(hand_on(" with capabilities installed beside GSD Core"));
    }
    let file = call.project.join(".planning/config.json");
    let Some(raw) = config_object(call)? else {
        if file.exists() {
            return Err(hand_on(" with an empty config.json"));
        }
        if !call.project.join(".planning").is_dir() {
            return Err(hand_on(" outside a planning tree"));
        }
        // No config.json: the built-in defaults, overlaid.
        let mut config = table().defaults.clone();
        overlay(&mut config, &Map::new());
        return Ok(config);
    };
    if redetects_sub_repos(&raw) {
        return Err(hand_on(
            " where 1.14.0 would re-detect sub-repositories first",
        ));
    }
    if skipped_migration(&raw) {
        return Err(hand_on(
            " where a legacy config key's section is not an object",
        ));
    }
    // Settings 1.14.0 checks as it loads, warning on stderr (#2517) about
    // what it does not know: gsd does not word those warnings.
    if raw.get("runtime").is_some_and(|r| r != &json!("claude"))
        || raw.contains_key("model_profile_overrides")
        || raw.contains_key("model_policy")
    {
        return Err(hand_on(
            " with runtime, model_profile_overrides or model_policy settings",
        ));
    }
    let parsed = as_loaded(&raw);
    let mut config = resolved(call.project, &parsed);
    overlay(&mut config, &parsed);
    Ok(config)
}

/// Capability folders 1.14.0's registry would read besides its own: the
/// user's (`$GSD_HOME/.gsd/capabilities`, else the home folder's) and the
/// project's (`.gsd/capabilities`).
fn installed_capabilities(project: &Path) -> bool {
    let home = std::env::var_os("GSD_HOME")
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var_os("HOME"));
    let holds_any =
        |dir: &Path| std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
    home.is_some_and(|h| holds_any(&Path::new(&h).join(".gsd/capabilities")))
        || holds_any(&project.join(".gsd/capabilities"))
}

/// `_baseConfig`: each setting 1.14.0 resolves, in its order. A key whose
/// value is JavaScript's `undefined` is left out, as `JSON.stringify` does.
fn resolved(project: &Path, parsed: &Map<String, Value>) -> Map<String, Value> {
    let d = |k: &str| table().defaults.get(k).cloned().unwrap_or(Value::Null);
    // `get(key, {section, field})`: a flat key that is `undefined` falls
    // to the section; JSON has no `undefined`, so a present key wins.
    let get = |key: &str, nested: Option<(&str, &str)>| flat_get(parsed, key, nested);
    // `x ?? default`: null and absent both take the default.
    let or = |v: Option<Value>, dflt: Value| v.filter(|v| !v.is_null()).unwrap_or(dflt);
    // `parsed[k] || fallback`: JavaScript's falsy values take it.
    let truthy_or =
        |v: Option<Value>, dflt: Value| v.filter(super::super::compat::js::truthy).unwrap_or(dflt);
    let raw = |k: &str| parsed.get(k).cloned();
    let nested_only = |s: &str, f: &str| match parsed.get(s) {
        Some(Value::Object(m)) => m.get(f).cloned(),
        _ => None,
    };
    let wf = |k: &str, f: &str| get(k, Some(("workflow", f)));
    let git = |k: &str| get(k, Some(("git", k)));
    let parallelization = match get("parallelization", None) {
        Some(Value::Bool(b)) => Value::Bool(b),
        Some(Value::Object(o)) if o.contains_key("enabled") => o["enabled"].clone(),
        _ => d("parallelization"),
    };
    let commit_docs = match get("commit_docs", Some(("planning", "commit_docs"))) {
        Some(v) => v,
        None if super::super::compat::config::planning_ignored(project) => json!(false),
        None => d("commit_docs"),
    };
    let mut out = Map::new();
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            out.insert(k.to_owned(), v);
        }
    };
    put(
        "model_profile",
        Some(or(get("model_profile", None), d("model_profile"))),
    );
    put("commit_docs", Some(commit_docs));
    put(
        "search_gitignored",
        Some(or(
            get("search_gitignored", Some(("planning", "search_gitignored"))),
            d("search_gitignored"),
        )),
    );
    put(
        "branching_strategy",
        Some(or(git("branching_strategy"), d("branching_strategy"))),
    );
    put("base_branch", git("base_branch"));
    put(
        "protected_branches",
        nested_only("git", "protected_branches"),
    );
    put(
        "allow_default_branch_commits",
        nested_only("git", "allow_default_branch_commits"),
    );
    for k in [
        "phase_branch_template",
        "milestone_branch_template",
        "quick_branch_template",
    ] {
        put(k, Some(or(git(k), d(k))));
    }
    put(
        "research",
        Some(or(wf("research", "research"), d("research"))),
    );
    put(
        "plan_checker",
        Some(or(wf("plan_checker", "plan_check"), d("plan_checker"))),
    );
    for k in ["verifier", "nyquist_validation", "post_planning_gaps"] {
        put(k, Some(or(wf(k, k), d(k))));
    }
    put("parallelization", Some(parallelization));
    for k in ["brave_search", "firecrawl", "exa_search"] {
        put(k, Some(or(get(k, None), d(k))));
    }
    put(
        "mvp_mode",
        Some(or(wf("mvp_mode", "mvp_mode"), json!(false))),
    );
    put(
        "tdd_mode",
        Some(or(nested_only("workflow", "tdd_mode"), json!(false))),
    );
    put(
        "text_mode",
        Some(or(wf("text_mode", "text_mode"), d("text_mode"))),
    );
    for k in ["auto_advance", "_auto_chain_active"] {
        put(k, Some(or(wf(k, k), json!(false))));
    }
    put("mode", Some(or(get("mode", None), json!("interactive"))));
    for k in ["sub_repos", "pr_strict"] {
        put(k, Some(or(get(k, Some(("planning", k))), d(k))));
    }
    for k in [
        "resolve_model_ids",
        "context_window",
        "phase_naming",
        "project_code",
    ] {
        put(k, Some(or(get(k, None), d(k))));
    }
    put(
        "subagent_timeout",
        Some(or(
            wf("subagent_timeout", "subagent_timeout"),
            d("subagent_timeout"),
        )),
    );
    for k in ["model_overrides", "agent_tools", "models"] {
        put(k, Some(truthy_or(raw(k), Value::Null)));
    }
    put(
        "granularity",
        Some(raw("granularity").unwrap_or(Value::Null)),
    );
    for k in [
        "granularities",
        "planning",
        "dynamic_routing",
        "runtime",
        "model_profile_overrides",
        "model_policy",
        "effort",
        "fast_mode",
    ] {
        put(k, Some(truthy_or(raw(k), Value::Null)));
    }
    put(
        "agent_skills",
        Some(truthy_or(raw("agent_skills"), json!({}))),
    );
    put(
        "agent_skills_security",
        Some(truthy_or(raw("agent_skills_security"), Value::Null)),
    );
    for k in ["phase_commit_docs", "manager"] {
        put(k, Some(truthy_or(raw(k), json!({}))));
    }
    for k in ["response_language", "claude_md_path"] {
        put(k, Some(truthy_or(get(k, None), Value::Null)));
    }
    put(
        "claude_md_assembly",
        Some(truthy_or(raw("claude_md_assembly"), Value::Null)),
    );
    put(
        "phase_id_convention",
        Some(or(get("phase_id_convention", None), Value::Null)),
    );
    let max = or(
        get("max_prompt_tokens", Some(("review", "max_prompt_tokens"))),
        d("max_prompt_tokens"),
    );
    put("review", Some(json!({ "max_prompt_tokens": max })));
    out
}

/// `_applyFederatedValues` of `mergeFederatedConfig`'s values: each slice's
/// value set at its dotted path where nothing is set yet, sections made as
/// needed; a path through something not a section is skipped.
fn overlay(config: &mut Map<String, Value>, user: &Map<String, Value>) {
    for slice in &table().federated {
        let value = match user_value(user, &slice.key) {
            Some(v) if type_matches(v, slice) => v.clone(),
            _ => slice.default.clone(),
        };
        let parts: Vec<&str> = slice.key.split('.').collect();
        set_unset(config, &parts, value);
    }
}

/// Set `value` at `path` unless something is set there already: sections
/// made where missing or `null`; a path through anything else is skipped.
fn set_unset(map: &mut Map<String, Value>, path: &[&str], value: Value) {
    match path {
        [] => {}
        [leaf] => {
            map.entry((*leaf).to_owned()).or_insert(value);
        }
        [seg, rest @ ..] => {
            let slot = map.entry((*seg).to_owned()).or_insert(Value::Null);
            if slot.is_null() {
                *slot = json!({});
            }
            if let Value::Object(inner) = slot {
                set_unset(inner, rest, value);
            }
        }
    }
}

/// `_getNestedValue`: the project's value at a dotted path, through
/// objects only.
fn user_value<'a>(user: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    let mut parts = key.split('.');
    let mut cur = user.get(parts.next()?)?;
    for seg in parts {
        cur = cur.as_object()?.get(seg)?;
    }
    Some(cur)
}

/// `_typeMatches`: the JSON type the slice declares (an enum: one of its
/// values, when it lists any).
fn type_matches(v: &Value, slice: &Slice) -> bool {
    match slice.kind.as_str() {
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "enum" => v.is_string() && (slice.values.is_empty() || slice.values.contains(v)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overlay_fills_sections_and_keeps_what_is_set() {
        let mut config = Map::new();
        config.insert("review".into(), json!({"max_prompt_tokens": null}));
        let user = json!({"workflow": {"code_review_depth": "deep", "drift_threshold": "3"}});
        overlay(&mut config, user.as_object().unwrap());
        // A valid enum value is the project's; a wrong type takes the default.
        assert_eq!(config["workflow"]["code_review_depth"], "deep");
        assert_eq!(config["workflow"]["drift_threshold"], 3);
        // The existing section keeps its first key and gains the lanes.
        let review = config["review"].as_object().unwrap();
        assert_eq!(
            review.keys().next().map(String::as_str),
            Some("max_prompt_tokens")
        );
        assert_eq!(review["models"]["claude"], "");
        // A path through a value that is not a section is skipped.
        let mut blocked = Map::new();
        blocked.insert("graphify".into(), json!(true));
        overlay(&mut blocked, &Map::new());
        assert_eq!(blocked["graphify"], true);
        // An enum value outside the list takes the default.
        let mut c = Map::new();
        let user = json!({"workflow": {"code_review_depth": "extreme"}});
        overlay(&mut c, user.as_object().unwrap());
        assert_eq!(c["workflow"]["code_review_depth"], "standard");
    }
}
