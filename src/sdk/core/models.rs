//! `resolve-model AGENT`: the model, profile, effort and tier GSD Core
//! 1.14.0 spawns an agent with — asked 29 times in its workflows, before
//! every subagent. 1.14.0 answers it from its model-profile tables (checked
//! in as `gsd-core-1.14.0-models.txt`, dumped from the package by
//! `tests/sdk_core/models.mjs`) and config.json's model keys.
//!
//! gsd answers the Claude Code case: `model_profile`, per-agent
//! `model_overrides` that name a tier alias or a catalog id (or no Claude
//! model at all), `models.<phase>` tiers and `resolve_model_ids`. A config
//! that sets `model_policy`, `model_profile_overrides`, `effort`, a runtime
//! other than `claude`, or a value of a shape 1.14.0 reads loosely (a
//! profile that is not a string, an override pinning a `claude-*` id the
//! catalog lacks) is handed on: those go through 1.14.0's provider and
//! effort tables, which gsd does not hold.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use super::js::INHERITED;
use super::native::{CoreCall, Refusal, config_object, hand_on};
use super::output::{Failure, Out};

const TABLES: &str = include_str!("gsd-core-1.14.0-models.txt");

/// One agent's row: phase type, tier per profile, effort.
struct AgentRow {
    phase: &'static str,
    quality: &'static str,
    balanced: &'static str,
    budget: &'static str,
    adaptive: &'static str,
    effort: &'static str,
}

struct Tables {
    agents: HashMap<&'static str, AgentRow>,
    /// The agents in `MODEL_PROFILES`' order.
    roster: Vec<&'static str>,
    /// Tier alias → full model id (`resolve_model_ids: true`).
    ids: Vec<(&'static str, &'static str)>,
    /// The aliases Claude Code's Agent tool takes.
    aliases: Vec<&'static str>,
    /// The tiers `models.<phase>` may name.
    tiers: Vec<&'static str>,
    /// The effort of an agent without a default tier.
    effort: &'static str,
    /// The profiles `config-set-model-profile` takes (`VALID_PROFILES`).
    profiles: Vec<&'static str>,
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Tables {
            agents: HashMap::new(),
            roster: Vec::new(),
            ids: Vec::new(),
            aliases: Vec::new(),
            tiers: Vec::new(),
            effort: "high",
            profiles: Vec::new(),
        };
        for line in TABLES.lines() {
            let f: Vec<&'static str> = line.split('\t').collect();
            match f.as_slice() {
                [
                    "agent",
                    agent,
                    phase,
                    quality,
                    balanced,
                    budget,
                    adaptive,
                    effort,
                ] => {
                    t.roster.push(agent);
                    t.agents.insert(
                        agent,
                        AgentRow {
                            phase,
                            quality,
                            balanced,
                            budget,
                            adaptive,
                            effort,
                        },
                    );
                }
                ["id", alias, id] => t.ids.push((alias, id)),
                ["alias", a] => t.aliases.push(a),
                ["tier", tier] => t.tiers.push(tier),
                ["effort", e] => t.effort = e,
                ["profile", p] => t.profiles.push(p),
                _ => {}
            }
        }
        t
    })
}

/// The agents GSD Core 1.14.0 ships (`Object.keys(MODEL_PROFILES)`), in
/// its order: the roster its init answers check for installed agent files.
pub fn roster() -> &'static [&'static str] {
    &tables().roster
}

/// 1.14.0's `VALID_PROFILES`, in its order.
pub fn profiles() -> &'static [&'static str] {
    &tables().profiles
}

/// `getAgentToModelMapForProfile`: each agent in the roster with the tier
/// `profile` gives it (`inherit` for every one under `inherit`). The
/// tables hold the four profile columns 1.14.0's `MODEL_PROFILES` has;
/// any other profile reads `balanced`, as its `?? profiles.balanced` does.
pub fn agent_models(profile: &str) -> Vec<(&'static str, &'static str)> {
    let t = tables();
    t.roster
        .iter()
        .map(|a| {
            let row = &t.agents[a];
            let tier = match profile {
                "inherit" => "inherit",
                "quality" => row.quality,
                "budget" => row.budget,
                "adaptive" => row.adaptive,
                _ => row.balanced,
            };
            (*a, tier)
        })
        .collect()
}

/// `formatAgentToModelMapAsTable`: the agents and their models in two
/// padded columns under a rule.
pub fn table_of(map: &[(&str, &str)]) -> String {
    let width = |s: &str| s.encode_utf16().count();
    let aw = map.iter().map(|(a, _)| width(a)).fold(5, usize::max);
    let mw = map.iter().map(|(_, m)| width(m)).fold(5, usize::max);
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(width(s))));
    let mut out = format!(
        " {} │ {}\n{}┼{}\n",
        pad("Agent", aw),
        pad("Model", mw),
        "─".repeat(aw + 2),
        "─".repeat(mw + 2)
    );
    for (a, m) in map {
        out.push_str(&format!(" {} │ {}\n", pad(a, aw), pad(m, mw)));
    }
    out
}

fn truthy(v: Option<&Value>) -> bool {
    v.is_some_and(super::super::compat::js::truthy)
}

/// The tier a per-agent override names, or `None` where it names none.
fn override_tier(t: &Tables, value: &str) -> &'static str {
    if let Some(a) = t.aliases.iter().find(|a| **a == value) {
        return a;
    }
    t.ids
        .iter()
        .find(|(_, id)| *id == value)
        .map(|(a, _)| *a)
        .unwrap_or("unknown")
}

/// The tier the profile (or `models.<phase>`) gives the agent, `None` for
/// an agent without a row.
fn profile_tier(
    t: &Tables,
    config: &Map<String, Value>,
    agent: &str,
    profile: &str,
) -> Option<String> {
    let row = t.agents.get(agent);
    if let (Some(row), Some(Value::Object(models))) = (row, config.get("models"))
        && let Some(Value::String(tier)) = models.get(row.phase)
        && t.tiers.contains(&tier.as_str())
    {
        return Some(tier.clone());
    }
    if profile == "inherit" {
        return Some("inherit".into());
    }
    let row = row?;
    let tier = match profile {
        "quality" => row.quality,
        "budget" => row.budget,
        "adaptive" => row.adaptive,
        _ => row.balanced,
    };
    Some(tier.to_string())
}

/// `resolve-model AGENT`: `{model, profile, effort, tier[, unknown_agent]}`,
/// raw form the model.
pub fn resolve_model(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(agent) = call.args.first().filter(|a| !a.is_empty()) else {
        return Err(Refusal::Fail(Failure::new("usage", "agent-type required")));
    };
    if INHERITED.contains(&agent.as_str()) {
        return Err(hand_on(" for an agent name JavaScript objects inherit"));
    }
    let config = config_object(call)?.unwrap_or_default();
    for key in ["model_policy", "model_profile_overrides", "effort"] {
        if truthy(config.get(key)) {
            return Err(hand_on(format!(" with `{key}` set")));
        }
    }
    if truthy(config.get("runtime")) && config.get("runtime") != Some(&json!("claude")) {
        return Err(hand_on(" for a runtime other than claude"));
    }
    let profile = match config.get("model_profile") {
        None | Some(Value::Null) => "balanced".to_string(),
        Some(Value::String(s)) if s.is_empty() => "balanced".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(hand_on(" for a model_profile that is not a string")),
    };
    let overrides = match config.get("model_overrides") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => Some(m),
        Some(_) => return Err(hand_on(" for model_overrides that are not an object")),
    };
    let pinned = match overrides.and_then(|m| m.get(agent.as_str())) {
        Some(v) if !truthy(Some(v)) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err(hand_on(" for an override that is not a string")),
        None => None,
    };
    let t = tables();
    if let Some(p) = pinned
        && p.starts_with("claude-")
        && override_tier(t, p) == "unknown"
    {
        return Err(hand_on(
            " for an override pinning a claude id the catalog lacks",
        ));
    }
    let lower = profile.to_lowercase();
    let tier = profile_tier(t, &config, agent, &lower);
    let omit = config.get("resolve_model_ids") == Some(&json!("omit"));
    let (model, tier) = match pinned {
        Some(p) => {
            let tier = override_tier(t, p);
            let model = if tier == "unknown" { p } else { tier };
            (model.to_string(), tier.to_string())
        }
        None => {
            let model = if omit {
                String::new()
            } else if !t.agents.contains_key(agent.as_str()) {
                match lower.as_str() {
                    "quality" => "opus",
                    "budget" => "haiku",
                    "inherit" => "inherit",
                    _ => "sonnet",
                }
                .to_string()
            } else {
                let alias = tier.clone().unwrap_or_default();
                match config.get("resolve_model_ids") {
                    Some(Value::Bool(true)) => t
                        .ids
                        .iter()
                        .find(|(a, _)| *a == alias)
                        .map(|(_, id)| id.to_string())
                        .unwrap_or(alias),
                    _ => alias,
                }
            };
            (model, tier.unwrap_or_else(|| "unknown".into()))
        }
    };
    let effort = t
        .agents
        .get(agent.as_str())
        .map(|r| r.effort)
        .unwrap_or(t.effort);
    let mut v = json!({"model": model, "profile": profile, "effort": effort, "tier": tier});
    if !t.agents.contains_key(agent.as_str()) {
        v["unknown_agent"] = json!(true);
    }
    Ok(Out::with_raw(&v, model))
}
