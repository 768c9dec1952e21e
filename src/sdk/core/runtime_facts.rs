//! Two facts GSD Core 1.14.0's workflows ask of the runtime they run in:
//! how many subagents may be dispatched at once (`dispatch-capacity`) and
//! which file holds the project's instructions (`project-instruction-file`).
//! gsd answers for Claude Code; another runtime is handed on.

use serde_json::json;

use super::native::{CoreCall, Refusal, claude_runtime, hand_on};
use super::output::Out;

/// Claude Code's declared `hostIntegration.dispatch.maxConcurrency`.
const CLAUDE_MAX_CONCURRENCY: u64 = 20;

/// `dispatch-capacity [--json]`: `GSD_DISPATCH_MAX_CONCURRENCY` where it is
/// a positive whole number, else the runtime's declared concurrency.
pub fn dispatch_capacity(call: &CoreCall) -> Result<Out, Refusal> {
    if !claude_runtime(call) {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    let live = match std::env::var("GSD_DISPATCH_MAX_CONCURRENCY") {
        Ok(v) if !super::js::trim(&v).is_empty() => {
            let t = super::js::trim(&v);
            if !t.bytes().all(|b| b.is_ascii_digit()) || t.len() > 15 {
                return Err(hand_on(
                    " for a GSD_DISPATCH_MAX_CONCURRENCY that is not a plain number",
                ));
            }
            t.parse::<u64>().ok().filter(|n| *n > 0)
        }
        _ => None,
    };
    let (capacity, source) = match live {
        Some(n) => (n, "live"),
        None => (CLAUDE_MAX_CONCURRENCY, "descriptor"),
    };
    if call.args.iter().any(|a| a == "--json") {
        return Ok(Out::json(&json!({
            "runtime": "claude",
            "capacity": capacity,
            "declared": CLAUDE_MAX_CONCURRENCY,
            "source": source,
            "reason": "ok",
        })));
    }
    Ok(Out::text(capacity.to_string()))
}

/// `project-instruction-file [--runtime R | R]`: `.claude/CLAUDE.md` for
/// Claude Code, `AGENTS.md` (the cross-agent default) when no runtime is
/// named.
pub fn project_instruction_file(call: &CoreCall) -> Result<Out, Refusal> {
    let mut runtime = String::new();
    let mut i = 0;
    while i < call.args.len() {
        let a = &call.args[i];
        if a == "--runtime" && i + 1 < call.args.len() {
            runtime = call.args[i + 1].clone();
            i += 2;
            continue;
        }
        if let Some(v) = a.strip_prefix("--runtime=") {
            runtime = v.to_string();
        } else if !a.starts_with('-') && runtime.is_empty() {
            runtime = a.clone();
        }
        i += 1;
    }
    let file = match super::js::trim(&runtime).to_lowercase().as_str() {
        "" => "AGENTS.md",
        "claude" => ".claude/CLAUDE.md",
        _ => return Err(hand_on(" for a runtime other than Claude Code")),
    };
    Ok(Out::text(format!("{file}\n")))
}
