//! `gsd ralph guard`: a PreToolUse handler that denies what an unattended
//! agent must never do, with the reason shown to the agent.
//!
//! Bash commands go through a real shell parser ([`shell`]) and every simple
//! command is checked against the [`policy`], in the directory and with the
//! variables the shell would have then ([`cwd`]); programs given to
//! interpreters are read too ([`interp`]), and `git push` is judged by the
//! branch it rewrites ([`push`]). Read, Grep and Glob are checked on their
//! path for secrets; Edit, Write, MultiEdit and NotebookEdit also for system
//! trees and shell start-up files ([`paths`]). Anything else, and anything
//! allowed, gets no output: Claude Code's own permission flow goes on as
//! usual (the guard only ever narrows it).

pub mod cwd;
pub mod interp;
mod paths;
pub mod policy;
pub mod push;
pub mod shell;

use std::path::Path;

use serde_json::Value;

use crate::ralph::hook_io::HookInput;

pub use policy::{Decision, Policy};

/// Decide one PreToolUse call. `input` is the hook's stdin.
pub fn decide(policy: &Policy, input: &HookInput, fallback_cwd: &Path) -> Decision {
    let cwd = input
        .cwd
        .as_deref()
        .map(Path::new)
        .filter(|p| p.is_absolute())
        .unwrap_or(fallback_cwd);
    let tool = input.tool_name.as_deref().unwrap_or("");
    let ti = input.tool_input.as_ref().unwrap_or(&Value::Null);
    let field = |k: &str| ti.get(k).and_then(Value::as_str);
    match tool {
        "Bash" => match field("command") {
            Some(cmd) => policy.check_bash(cmd, cwd),
            None => Decision::Deny("a Bash call without a command".into()),
        },
        "Read" => field("file_path").map_or(Decision::Allow, |p| policy.check_path(p, cwd)),
        "Edit" | "Write" | "MultiEdit" => {
            field("file_path").map_or(Decision::Allow, |p| policy.check_write(p, cwd))
        }
        "NotebookEdit" => {
            field("notebook_path").map_or(Decision::Allow, |p| policy.check_write(p, cwd))
        }
        "Grep" | "Glob" => field("path").map_or(Decision::Allow, |p| policy.check_path(p, cwd)),
        _ => Decision::Allow,
    }
}

/// One PreToolUse event, from the hook's stdin and the project's
/// config.json text: the decision, failing closed — input that is not a
/// JSON object, or a config or policy that cannot be read, denies and says
/// why.
pub fn handle(raw: &str, config: Option<&str>, fallback_cwd: &Path) -> Decision {
    let value: Value = match serde_json::from_str(raw) {
        Ok(v) => v,
        Err(e) => return Decision::Deny(format!("the PreToolUse input is not JSON ({e})")),
    };
    if !value.is_object() {
        return Decision::Deny("the PreToolUse input is not a JSON object".into());
    }
    let input: HookInput = match serde_json::from_value(value) {
        Ok(i) => i,
        Err(e) => {
            return Decision::Deny(format!(
                "the PreToolUse input has a field of the wrong type ({e})"
            ));
        }
    };
    let cfg = match config.map(crate::model::config::Config::parse).transpose() {
        Ok(c) => c,
        Err(e) => {
            return Decision::Deny(format!(
                ".planning/config.json cannot be read (line {}: {}); fix it to use this tool",
                e.line, e.message
            ));
        }
    };
    match Policy::from_json(cfg.as_ref().and_then(|c| c.get("ralph.guard"))) {
        Ok(policy) => decide(&policy, &input, fallback_cwd),
        Err(e) => Decision::Deny(e),
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
