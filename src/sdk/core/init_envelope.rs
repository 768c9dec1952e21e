//! The fields GSD Core 1.14.0 adds to every `init.*` answer
//! (`withProjectRoot`): the project root, whether the runtime's GSD agents
//! are installed (and which are missing, where it looked), the response
//! language, the project code and the project's title.
//!
//! Agents are looked for the way 1.14.0 looks: in `GSD_AGENTS_DIR`, else —
//! for Claude Code — in the agents folder of the install the real
//! gsd-tools belongs to (Claude Code's own `agents/` when that install is
//! an npm package), each of `MODEL_PROFILES`' agents as `NAME.md`,
//! `NAME.agent.md` or `NAME.toml`, and every file the install manifest
//! lists for it present. Another runtime (chosen by `GSD_RUNTIME`,
//! config.json or a Codex session) is handed on.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::super::compat::js::JS_DOT;
use super::super::compat::roadmap_text::re;
use super::models::roster;
use super::native::{CoreCall, Refusal, claude_config_dir, hand_on};

/// Hand on unless 1.14.0's reported runtime (`resolveReportedRuntime`)
/// is Claude Code.
fn reported_runtime_is_claude(config: Option<&Map<String, Value>>) -> Result<(), Refusal> {
    let set = |k: &str| std::env::var(k).is_ok_and(|v| !v.trim().is_empty());
    if set("GSD_RUNTIME") && std::env::var("GSD_RUNTIME").is_ok_and(|v| v != "claude") {
        return Err(hand_on(" for GSD_RUNTIME other than claude"));
    }
    if !set("GSD_RUNTIME")
        && let Some(r) = config.and_then(|c| c.get("runtime"))
        && r != &json!("claude")
    {
        return Err(hand_on(" for a config.json runtime other than claude"));
    }
    if [
        "CODEX_SANDBOX",
        "CODEX_SANDBOX_NETWORK_DISABLED",
        "CODEX_HOME",
    ]
    .iter()
    .any(|k| set(k))
    {
        return Err(hand_on(" in a Codex session"));
    }
    Ok(())
}

/// `getAgentsDir('claude')`.
fn agents_dir(call: &CoreCall) -> Result<PathBuf, Refusal> {
    if let Some(d) = std::env::var_os("GSD_AGENTS_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(d));
    }
    let real = call
        .real
        .and_then(|r| r.canonicalize().ok())
        .ok_or_else(|| hand_on(" with no real gsd-tools to say where agents are installed"))?;
    // gsd-tools.cjs is PACKAGE/gsd-core/bin/; 1.14.0 looks in PACKAGE/agents.
    let bin = real.parent().filter(|b| b.ends_with("gsd-core/bin"));
    let package = bin
        .and_then(Path::parent)
        .and_then(Path::parent)
        .ok_or_else(|| hand_on(" for a gsd-tools outside a GSD Core install"))?;
    if package
        .components()
        .any(|c| c.as_os_str() == "node_modules")
    {
        return Ok(claude_config_dir().join("agents"));
    }
    Ok(package.join("agents"))
}

/// `checkAgentsInstalled('claude', root)`: installed, missing, folder.
fn agents(call: &CoreCall) -> Result<(bool, Vec<&'static str>, PathBuf), Refusal> {
    let dir = agents_dir(call)?;
    let expected = roster();
    if !dir.exists() {
        return Ok((false, expected.to_vec(), dir));
    }
    let has = |name: &str| {
        ["md", "agent.md", "toml"]
            .iter()
            .any(|ext| dir.join(format!("{name}.{ext}")).exists())
    };
    let missing: Vec<&'static str> = expected.iter().copied().filter(|a| !has(a)).collect();
    let manifest = dir
        .parent()
        .map(|p| p.join("gsd-file-manifest.json"))
        .and_then(|m| std::fs::read_to_string(m).ok())
        .and_then(|t| serde_json::from_str::<Value>(&t).ok());
    let files = manifest
        .as_ref()
        .and_then(|m| m.get("files"))
        .and_then(Value::as_object);
    let incomplete = files.is_some_and(|files| {
        expected.iter().any(|agent| {
            let prefix = format!("agents/{agent}.");
            let keys: Vec<&String> = files
                .keys()
                .filter(|k| {
                    k.strip_prefix(&prefix)
                        .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
                })
                .collect();
            !keys.is_empty()
                && !keys
                    .iter()
                    .all(|k| dir.join(&k["agents/".len()..]).exists())
        })
    });
    let installed = missing.len() < expected.len() && missing.is_empty() && !incomplete;
    Ok((installed, missing, dir))
}

fn text(p: &Path) -> Result<String, Refusal> {
    p.to_str()
        .map(str::to_owned)
        .ok_or_else(|| hand_on(" for a path that is not UTF-8"))
}

/// The project's title: PROJECT.md's first `# ` heading.
fn project_title(project: &Path) -> Option<String> {
    let content = std::fs::read_to_string(project.join(".planning/PROJECT.md")).ok()?;
    let pattern = format!(r"(?m)^#\s+({JS_DOT}+)$");
    let c = re(&pattern).captures(content.as_str()).ok().flatten()?;
    Some(super::js::trim(&c[1]).to_string())
}

/// `withProjectRoot(cwd, result)`: `result` with the envelope's fields
/// appended in 1.14.0's order.
pub fn with_project_root(
    call: &CoreCall,
    config: Option<&Map<String, Value>>,
    mut result: Map<String, Value>,
) -> Result<Map<String, Value>, Refusal> {
    reported_runtime_is_claude(config)?;
    let (installed, missing, dir) = agents(call)?;
    result.insert("project_root".into(), json!(text(call.project)?));
    result.insert("agents_installed".into(), json!(installed));
    result.insert("missing_agents".into(), json!(missing));
    result.insert("agents_dir".into(), json!(text(&dir)?));
    result.insert("agent_runtime".into(), json!("claude"));
    let truthy = |k: &str| {
        config
            .and_then(|c| c.get(k))
            .filter(|v| super::super::compat::js::truthy(v))
            .cloned()
    };
    if let Some(l) = truthy("response_language") {
        result.insert("response_language".into(), l);
    }
    if let Some(c) = truthy("project_code") {
        result.insert("project_code".into(), c);
    }
    if let Some(t) = project_title(call.project) {
        result.insert("project_title".into(), json!(t));
    }
    Ok(result)
}
