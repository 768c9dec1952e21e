//! config-get, config-path, config-set, resolve-model, agent-skills.

use serde_json::{Map, Value, json};

use super::super::compat::config::{self as cfg, Raw};
use super::super::compat::js;
use super::super::{Call, Reply, SdkError};
use super::write;

/// `config-get KEY.PATH [--default V]`: the raw value (no defaults merged).
pub fn get(call: &Call) -> Result<Reply, SdkError> {
    let usage = "Usage: config-get <key.path> [--default <value>]";
    let mut args: Vec<&str> = call.args.iter().map(String::as_str).collect();
    let mut default = None;
    if let Some(i) = args.iter().position(|a| *a == "--default") {
        let Some(v) = args.get(i + 1) else {
            return Err(SdkError::validation(usage));
        };
        default = Some(Value::String((*v).to_string()));
        args.drain(i..i + 2);
    }
    let Some(key) = args.first().copied().filter(|k| !k.is_empty()) else {
        return Err(SdkError::validation(usage));
    };
    let path = call.planning().join("config.json");
    let map = match cfg::raw(call.project) {
        Raw::Object(m) => m,
        Raw::Missing if std::fs::metadata(&path).is_ok() => Map::new(),
        Raw::Missing => {
            return Err(SdkError::validation(format!(
                "No config.json found at {}",
                path.display()
            )));
        }
        Raw::Malformed(_) => {
            return Err(SdkError::validation(format!(
                "Malformed config.json at {}",
                path.display()
            )));
        }
    };
    let mut cur = Some(Value::Object(map));
    for part in key.split('.') {
        cur = match cur {
            Some(Value::Object(mut m)) => m.remove(part),
            Some(Value::Array(a)) => part.parse::<usize>().ok().and_then(|i| a.get(i).cloned()),
            _ => None,
        };
    }
    match (cur, default) {
        (Some(v), _) => Ok(Reply::Json(cfg::mask_if_secret(key, v))),
        (None, Some(d)) => Ok(Reply::Json(d)),
        (None, None) => Err(SdkError::execution(format!("Key not found: {key}"))),
    }
}

/// `config-path`: where config.json is.
pub fn path(call: &Call) -> Result<Reply, SdkError> {
    Ok(Reply::Json(
        json!({"path": call.planning().join("config.json").display().to_string()}),
    ))
}

/// `config-set KEY VALUE`: one exact edit of config.json.
pub fn set(call: &Call) -> Result<Reply, SdkError> {
    let usage = "Usage: config-set <key.path> <value>";
    let (Some(key), Some(raw)) = (call.arg(0), call.arg(1)) else {
        return Err(SdkError::validation(usage));
    };
    if let Err(suggestion) = cfg::check_key(key) {
        let hint = suggestion
            .map(|s| format!(". Did you mean: {s}?"))
            .unwrap_or_default();
        return Err(SdkError::validation(format!(
            "Unknown config key: \"{key}\"{hint}"
        )));
    }
    let value = cfg::typed_value(raw);
    if key == "context" && !["dev", "research", "review"].contains(&raw) {
        return Err(SdkError::validation(format!(
            "Invalid context value '{raw}'. Valid values: dev, research, review"
        )));
    }
    let mut previous = None;
    write(call, |ws| {
        let s = crate::ops::config::set(ws, key, &value)?;
        previous = s.previous;
        Ok(s.change)
    })?;
    let mut out = json!({"updated": true, "key": key, "value": cfg::mask_if_secret(key, value)});
    if let Some(p) = previous {
        out["previousValue"] = cfg::mask_if_secret(key, p);
    }
    Ok(Reply::Json(out))
}

/// `resolve-model AGENT`: the model alias for an agent under the project's profile.
pub fn resolve_model(call: &Call) -> Result<Reply, SdkError> {
    let Some(agent) = call.arg(0).filter(|a| !a.is_empty()) else {
        return Err(SdkError::validation("agent-type required"));
    };
    model_for(call.project, agent).map(Reply::Json)
}

/// `getModelAlias`, what the init bundles put in their `*_model` fields:
/// the resolved model, `sonnet` when it resolves to nothing.
pub fn model_alias(project: &std::path::Path, agent: &str) -> Result<Value, SdkError> {
    let v = model_for(project, agent)?;
    Ok(match v.get("model") {
        Some(m) if js::truthy(m) => m.clone(),
        _ => json!("sonnet"),
    })
}

/// `resolve-model`'s answer for one agent.
pub fn model_for(project: &std::path::Path, agent: &str) -> Result<Value, SdkError> {
    let exists = project.join(".planning/config.json").is_file();
    let config = cfg::load(project).map_err(SdkError::execution)?;
    let profile = match config.get("model_profile") {
        Some(Value::String(s)) if !s.is_empty() => s.to_lowercase(),
        Some(v) if !v.is_null() && v != &Value::Bool(false) => js::string(v).to_lowercase(),
        _ => "balanced".into(),
    };
    let catalog = cfg::catalog();
    let meta = catalog["agents"].get(agent);
    let known = meta.is_some();
    let with_unknown = |mut v: Value| {
        if !known {
            v["unknown_agent"] = Value::Bool(true);
        }
        v
    };
    if let Some(o) = config
        .get("model_overrides")
        .and_then(|m| m.get(agent))
        .filter(|v| js::truthy(v))
    {
        return Ok(with_unknown(json!({"model": o, "profile": profile})));
    }
    if !exists {
        return Ok(with_unknown(json!({"model": "", "profile": profile})));
    }
    let Some(meta) = meta else {
        let fallback = match profile.as_str() {
            "quality" => "opus",
            "budget" => "haiku",
            "inherit" => "inherit",
            _ => "sonnet",
        };
        return Ok(with_unknown(json!({"model": fallback, "profile": profile})));
    };
    if profile == "inherit" {
        return Ok(json!({"model": "inherit", "profile": profile}));
    }
    let tier_of = |p: &str| -> Option<String> {
        let v = match p {
            "quality" => meta.get("golden"),
            "balanced" | "budget" => meta.get(p),
            "adaptive" => meta
                .get("routingTier")
                .and_then(Value::as_str)
                .and_then(|t| catalog["adaptiveTierMap"].get(t)),
            _ => None,
        }?;
        v.as_str().filter(|s| !s.is_empty()).map(str::to_string)
    };
    let alias = tier_of(&profile)
        .or_else(|| tier_of("balanced"))
        .unwrap_or_else(|| "sonnet".into());
    let phase_tier = meta
        .get("phaseType")
        .and_then(Value::as_str)
        .and_then(|pt| config.get("models").and_then(|m| m.get(pt)))
        .and_then(Value::as_str)
        .map(str::to_string);
    let tier = phase_tier.unwrap_or(alias.clone());
    if let Some(rt) = runtime_tier(&config, &tier)
        && let Some(model) = rt.get("model").filter(|m| js::truthy(m))
    {
        let mut out = json!({"model": model, "profile": profile});
        if let Some(e) = rt.get("reasoning_effort").filter(|e| js::truthy(e)) {
            out["reasoning_effort"] = e.clone();
        }
        return Ok(out);
    }
    if config.get("resolve_model_ids") == Some(&Value::String("omit".into())) {
        return Ok(json!({"model": "", "profile": profile}));
    }
    Ok(json!({"model": alias, "profile": profile}))
}

/// A non-Claude runtime's model for a tier (catalog default, then the
/// user's `model_profile_overrides`).
fn runtime_tier(config: &Map<String, Value>, tier: &str) -> Option<Map<String, Value>> {
    if !["opus", "sonnet", "haiku"].contains(&tier) {
        return None;
    }
    let runtime = config.get("runtime").and_then(Value::as_str).unwrap_or("");
    if runtime.is_empty() || runtime == "claude" {
        return None;
    }
    let defaults = cfg::catalog()["runtimeTierDefaults"].as_object()?;
    let builtin = defaults
        .get(runtime)
        .and_then(|r| r.get(tier))
        .and_then(Value::as_object)
        .cloned();
    let user = config
        .get("model_profile_overrides")
        .and_then(|o| o.get(runtime))
        .and_then(|r| r.get(tier))
        .and_then(|e| match e {
            Value::String(s) => Some(Map::from_iter([("model".to_string(), json!(s))])),
            Value::Object(m) => Some(m.clone()),
            _ => None,
        });
    if builtin.is_none() && user.is_none() {
        return None;
    }
    let mut merged = builtin.unwrap_or_default();
    merged.extend(user.unwrap_or_default());
    let effort_runtimes = defaults.iter().any(|(name, tiers)| {
        name == runtime
            && tiers.as_object().is_some_and(|t| {
                t.values()
                    .any(|e| e.get("reasoning_effort").is_some_and(js::truthy))
            })
    });
    if !effort_runtimes {
        merged.remove("reasoning_effort");
    }
    Some(merged)
}

/// `agent-skills AGENT`: the `<agent_skills>` block a workflow embeds in an
/// agent's prompt, or `""` when the agent has none.
pub fn agent_skills(call: &Call) -> Result<Reply, SdkError> {
    let agent = call.arg(0).unwrap_or("").trim();
    let empty = Ok(Reply::Json(json!("")));
    if agent.is_empty() {
        return empty;
    }
    let Ok(config) = cfg::load(call.project) else {
        return empty;
    };
    let entries: Vec<String> = match config.get("agent_skills").and_then(|s| s.get(agent)) {
        Some(Value::String(s)) if !s.is_empty() => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => return empty,
    };
    let project = std::fs::canonicalize(call.project).unwrap_or(call.project.to_path_buf());
    let mut refs = Vec::new();
    for entry in entries {
        if let Some(name) = entry.strip_prefix("global:") {
            if let Some(r) = global_skill(name) {
                refs.push(r);
            }
            continue;
        }
        let target = call.project.join(&entry);
        let resolved = std::fs::canonicalize(&target).unwrap_or(target.clone());
        if !resolved.starts_with(&project) {
            errln!("[agent-skills] WARNING: Skipping unsafe path \"{entry}\"");
            continue;
        }
        if !target.join("SKILL.md").is_file() {
            errln!("[agent-skills] WARNING: Skill not found at \"{entry}/SKILL.md\" — skipping");
            continue;
        }
        refs.push(format!("{entry}/SKILL.md"));
    }
    if refs.is_empty() {
        return empty;
    }
    let lines: Vec<String> = refs.iter().map(|r| format!("- @{r}")).collect();
    Ok(Reply::Text(format!(
        "<agent_skills>\nRead these user-configured skills:\n{}\n</agent_skills>",
        lines.join("\n")
    )))
}

/// A `global:NAME` skill under Claude Code's skills folder.
fn global_skill(name: &str) -> Option<String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        errln!("[agent-skills] WARNING: Invalid global skill name \"{name}\" — skipping");
        return None;
    }
    let base = std::env::var_os("CLAUDE_CONFIG_DIR")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".claude")))?
        .join("skills");
    let md = base.join(name).join("SKILL.md");
    if !md.is_file() {
        errln!(
            "[agent-skills] WARNING: Global skill not found at \"~/.claude/skills/{name}/SKILL.md\" — skipping"
        );
        return None;
    }
    Some(md.display().to_string())
}

/// `config-ensure-section NAME`: the top-level member NAME exists after
/// this (an empty object when it was missing); one added member at most.
pub fn ensure_section(call: &Call) -> Result<Reply, SdkError> {
    let Some(name) = call.arg(0).filter(|n| !n.is_empty()) else {
        return Err(SdkError::validation(
            "Usage: config-ensure-section <section>",
        ));
    };
    write(call, |ws| {
        crate::ops::config::ensure_section(ws, name).map(|s| s.change)
    })?;
    Ok(Reply::Json(json!({"ensured": true, "section": name})))
}
