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

use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::compat::js::{JS_DOT, JS_SPACE};
use super::super::compat::roadmap_text::re;
use super::agents::agents;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;

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

fn text(p: &Path) -> Result<String, Refusal> {
    p.to_str()
        .map(str::to_owned)
        .ok_or_else(|| hand_on(" for a path that is not UTF-8"))
}

/// The project's title: PROJECT.md's first `# ` heading.
fn project_title(project: &Path) -> Option<String> {
    let bytes = std::fs::read(project.join(".planning/PROJECT.md")).ok()?;
    // Node decodes bytes that are not UTF-8 as U+FFFD, as `from_utf8_lossy` does.
    let content = String::from_utf8_lossy(&bytes).into_owned();
    // `/^#\s+(.+)$/m`: JavaScript's lines also end at U+2028 and U+2029.
    let pattern = format!(
        r"(?m)(?:^|(?<=[\u{{2028}}\u{{2029}}]))#{JS_SPACE}+({JS_DOT}+)(?=[\u{{2028}}\u{{2029}}]|$)"
    );
    let c = re(&pattern).captures(content.as_str()).ok().flatten()?;
    Some(super::js::trim(&c[1]).to_string())
}

/// An init's answer: `result` in the envelope, as JSON.
pub(super) fn finish(
    call: &CoreCall,
    config: Option<&Map<String, Value>>,
    result: Map<String, Value>,
) -> Result<Out, Refusal> {
    Ok(Out::json(&Value::Object(with_project_root(
        call, config, result,
    )?)))
}

/// `buildInitCompletenessFields`: whether `.planning/` and its
/// requirements and milestones files exist, and whether a bootstrap
/// stopped before PROJECT.md, REQUIREMENTS.md, ROADMAP.md and STATE.md all
/// landed (MILESTONES.md present means the missing ones were archived).
pub(super) fn insert_completeness(r: &mut Map<String, Value>, planning: &Path) {
    let exists = |f: &str| planning.join(f).exists();
    let core_complete = ["PROJECT.md", "REQUIREMENTS.md", "ROADMAP.md", "STATE.md"]
        .iter()
        .all(|f| exists(f));
    r.insert("planning_exists".into(), json!(planning.exists()));
    r.insert(
        "requirements_exists".into(),
        json!(exists("REQUIREMENTS.md")),
    );
    r.insert("milestones_exists".into(), json!(exists("MILESTONES.md")));
    r.insert(
        "init_incomplete".into(),
        json!(planning.exists() && !core_complete && !exists("MILESTONES.md")),
    );
}

/// `commit_docs` as 1.14.0's flat config (`loadConfig`) gives it.
pub(super) fn commit_docs(project: &Path) -> Value {
    super::super::compat::config::legacy(project)
        .get("commit_docs")
        .cloned()
        .unwrap_or(Value::Null)
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
