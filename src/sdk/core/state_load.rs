//! `state load` (`cmdStateLoad`): the project's config as GSD Core 1.14.0
//! loads it, STATE.md's text, which of config.json, ROADMAP.md and
//! STATE.md exist, and where debug sessions go; with `--raw`, eleven
//! `key=value` lines. GSD's workflows read it to learn the settings and
//! position in one call.

use serde_json::json;

use super::loaded_config::loaded;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Out, js_string};

pub fn state_load(call: &CoreCall) -> Result<Out, Refusal> {
    if !call.args.is_empty() {
        return Err(hand_on(" with arguments"));
    }
    let config = loaded(call)?;
    let planning = call.project.join(".planning");
    let state = planning.join("STATE.md");
    // `readFileSync(…, 'utf-8') || ''`: missing is empty; a folder of that
    // name makes 1.14.0 throw.
    let state_raw = match std::fs::read(&state) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(_) => return Err(hand_on(" where STATE.md cannot be read")),
    };
    let config_exists = planning.join("config.json").exists();
    let roadmap_exists = planning.join("ROADMAP.md").exists();
    let state_exists = !state_raw.is_empty();
    let debug_dir = planning
        .join("debug")
        .to_str()
        .map(str::to_owned)
        .ok_or_else(|| hand_on(" for a path that is not UTF-8"))?;
    let field = |k: &str| js_string(config.get(k).unwrap_or(&serde_json::Value::Null));
    let mut lines: Vec<String> = [
        "model_profile",
        "commit_docs",
        "branching_strategy",
        "phase_branch_template",
        "milestone_branch_template",
        "parallelization",
        "research",
        "plan_checker",
        "verifier",
    ]
    .iter()
    .map(|k| format!("{k}={}", field(k)))
    .collect();
    lines.push(format!("config_exists={config_exists}"));
    lines.push(format!("roadmap_exists={roadmap_exists}"));
    lines.push(format!("state_exists={state_exists}"));
    let v = json!({
        "config": config,
        "state_raw": state_raw,
        "state_exists": state_exists,
        "roadmap_exists": roadmap_exists,
        "config_exists": config_exists,
        "debug_dir": debug_dir,
    });
    Ok(Out::with_raw(&v, lines.join("\n")))
}
