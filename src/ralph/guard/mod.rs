//! `gsd ralph guard`: a PreToolUse handler that denies what an unattended
//! agent must never do, with the reason shown to the agent.
//!
//! Bash commands go through a real shell parser ([`shell`]) and every simple
//! command is checked against the [`policy`]; Read, Edit, Write, MultiEdit,
//! NotebookEdit, Grep and Glob are checked on their path. Anything else, and
//! anything allowed, gets no output: Claude Code's own permission flow goes
//! on as usual (the guard only ever narrows it).

pub mod policy;
pub mod shell;

use std::path::Path;

use serde_json::Value;

pub use policy::{Decision, Policy};

/// Decide one PreToolUse call. `input` is the hook's stdin.
pub fn decide(policy: &Policy, input: &Value, fallback_cwd: &Path) -> Decision {
    if !input.is_object() {
        return Decision::Deny("the PreToolUse input is not a JSON object".into());
    }
    let cwd = input
        .get("cwd")
        .and_then(Value::as_str)
        .map(Path::new)
        .filter(|p| p.is_absolute())
        .unwrap_or(fallback_cwd);
    let tool = input.get("tool_name").and_then(Value::as_str).unwrap_or("");
    let ti = input.get("tool_input").unwrap_or(&Value::Null);
    let field = |k: &str| ti.get(k).and_then(Value::as_str);
    match tool {
        "Bash" => match field("command") {
            Some(cmd) => policy.check_bash(cmd, cwd),
            None => Decision::Deny("a Bash call without a command".into()),
        },
        "Read" | "Edit" | "Write" | "MultiEdit" => match field("file_path") {
            Some(p) => policy.check_path(p, cwd),
            None => Decision::Allow,
        },
        "NotebookEdit" => {
            field("notebook_path").map_or(Decision::Allow, |p| policy.check_path(p, cwd))
        }
        "Grep" | "Glob" => field("path").map_or(Decision::Allow, |p| policy.check_path(p, cwd)),
        _ => Decision::Allow,
    }
}

/// The hook's stdout for a decision: nothing for allow, a PreToolUse deny
/// with its reason otherwise.
pub fn reply(decision: &Decision) -> Option<String> {
    match decision {
        Decision::Allow => None,
        Decision::Deny(why) => Some(
            crate::ralph::hook_io::HookReply::Deny {
                reason: format!("gsd guard: {why}"),
            }
            .stdout(),
        ),
    }
}
