//! GSD Core 1.14.0's installed agents for Claude Code: where it looks for
//! them (`getAgentsDir`), whether the roster is installed
//! (`checkAgentsInstalled`, for the init answers' envelope), and whether a
//! plan's `agent_hint` names an installed agent (`resolve-agent`).
//!
//! The folder is `GSD_AGENTS_DIR`, else the agents folder of the install
//! the real gsd-tools belongs to — Claude Code's own `agents/` when that
//! install is an npm package. An agent is installed as `NAME.md`,
//! `NAME.agent.md` or `NAME.toml`, with every file the install manifest
//! lists for it present.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::models::roster;
use super::native::{CoreCall, Refusal, claude_config_dir, claude_runtime, flag_value, hand_on};
use super::output::Out;

/// `agentFileExists(dir, name, 'claude')`.
fn agent_file_exists(dir: &Path, name: &str) -> bool {
    ["md", "agent.md", "toml"]
        .iter()
        .any(|ext| dir.join(format!("{name}.{ext}")).exists())
}

/// `getAgentsDir('claude')`.
pub(super) fn agents_dir(call: &CoreCall) -> Result<PathBuf, Refusal> {
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
pub(super) fn agents(call: &CoreCall) -> Result<(bool, Vec<&'static str>, PathBuf), Refusal> {
    let dir = agents_dir(call)?;
    let expected = roster();
    if !dir.exists() {
        return Ok((false, expected.to_vec(), dir));
    }
    let missing: Vec<&'static str> = expected
        .iter()
        .copied()
        .filter(|a| !agent_file_exists(&dir, a))
        .collect();
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

/// `resolve-agent --name HINT [--json]`: the hint where an agent file of
/// that name is installed (in the agents folder or Claude Code's own),
/// else `gsd-executor`; printed bare, or as `{runtime, requested,
/// resolved, fallback}`.
pub fn resolve_agent(call: &CoreCall) -> Result<Out, Refusal> {
    const FALLBACK: &str = "gsd-executor";
    if !claude_runtime(call) {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    let requested = if call.args.iter().any(|a| a == "--name") {
        flag_value(call.args, "--name")
    } else {
        Some("")
    };
    let mut resolved = None;
    if let Some(r) = requested.filter(|r| !r.is_empty() && !r.starts_with('-')) {
        let name = super::js::trim(r);
        if !name.is_empty() && !name.contains(['/', '\\']) && !name.contains("..") {
            let dirs = [agents_dir(call)?, claude_config_dir().join("agents")];
            if dirs.iter().any(|d| agent_file_exists(d, name)) {
                resolved = Some(name.to_string());
            }
        }
    }
    let fell_back = resolved.is_none();
    let resolved = resolved.unwrap_or_else(|| FALLBACK.to_string());
    if call.args.iter().any(|a| a == "--json") {
        let requested = match requested {
            Some(r) if !r.is_empty() => json!(r),
            _ => Value::Null,
        };
        return Ok(Out::json(&json!({
            "runtime": "claude",
            "requested": requested,
            "resolved": resolved,
            "fallback": fell_back,
        })));
    }
    Ok(Out::text(resolved))
}
