//! `dispatch-isolation` and `inspect-dispatch-isolation`: how execute-phase
//! may isolate the executors of a wave on this runtime (`harness-worktree`,
//! `orchestrator-worktree` or `none`), 15 calls in 1.14.0's workflows.
//!
//! On Claude Code (the only runtime answered here) the registry declares
//! harness worktrees with the Agent tool's `isolation="worktree"` flag; the
//! project opts out with `workflow.use_worktrees: false`. `dispatch-isolation`
//! also records its decision where the isolation guard hooks read it,
//! `.gsd/dispatch-isolation-sentinel.json`, as 1.14.0 does on every call: the
//! workflow must ask to learn the mode, so the record cannot be skipped. The
//! inspecting verb records nothing and refuses the recording-only flags.

use std::path::Path;

use serde_json::{Value, json};

use super::native::{CoreCall, Refusal, claude_runtime, hand_on};
use super::output::{Failure, Out};

/// What 1.14.0's capability registry declares for Claude Code.
const CLAUDE_ISOLATION: &str = "harness-worktree";
const CLAUDE_HARNESS_FLAG: &str = "isolation=\"worktree\"";

const MODES: [&str; 3] = ["harness-worktree", "orchestrator-worktree", "none"];

/// The sentinel the isolation guard hooks read, under the project root.
pub const SENTINEL: &str = ".gsd/dispatch-isolation-sentinel.json";

/// One resolved decision.
#[derive(Debug, Clone, PartialEq)]
struct Decision {
    isolation: &'static str,
    harness_flag: Option<&'static str>,
}

impl Decision {
    fn none() -> Decision {
        Decision {
            isolation: "none",
            harness_flag: None,
        }
    }

    /// `--json`'s object, else the bare mode.
    fn out(&self, args: &[String]) -> Out {
        if args.iter().any(|a| a == "--json") {
            Out::json(&json!({
                "runtime": "claude",
                "isolation": self.isolation,
                "exec": null,
                "harnessFlag": self.harness_flag,
            }))
        } else {
            Out::text(self.isolation)
        }
    }
}

/// The runtime's declared capability (Claude Code's, or the call handed on).
fn declared(call: &CoreCall) -> Result<Decision, Refusal> {
    if !claude_runtime(call) {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    Ok(Decision {
        isolation: CLAUDE_ISOLATION,
        harness_flag: Some(CLAUDE_HARNESS_FLAG),
    })
}

/// The value after `flag`, where it is one and does not look like a flag.
fn identifier(args: &[String], flag: &str) -> Option<String> {
    let i = args.iter().position(|a| a == flag)?;
    args.get(i + 1)
        .filter(|v| !v.is_empty() && !v.starts_with("--"))
        .cloned()
}

/// Whether config.json sets `workflow.use_worktrees` to `false` (strictly:
/// an unreadable file or another value leaves worktrees on).
fn worktrees_opted_out(project: &Path) -> bool {
    std::fs::read_to_string(project.join(".planning/config.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| {
            v.get("workflow")?
                .as_object()?
                .get("use_worktrees")
                .cloned()
        })
        == Some(Value::Bool(false))
}

/// `dispatch-isolation [--json] [--force-isolation MODE] [--phase P] [--plan N]`.
pub fn dispatch(call: &CoreCall) -> Result<Out, Refusal> {
    let mut d = declared(call)?;
    let forced = super::native::flag_value(call.args, "--force-isolation");
    if let Some(mode) = MODES.iter().find(|m| Some(**m) == forced) {
        d.isolation = mode;
        if d.isolation == "none" {
            d = Decision::none();
        }
    }
    if worktrees_opted_out(call.project) {
        d = Decision::none();
    }
    record(
        call.project,
        &d,
        identifier(call.args, "--phase"),
        identifier(call.args, "--plan"),
    );
    Ok(d.out(call.args))
}

/// `inspect-dispatch-isolation [--json]`: the declared capability, recorded
/// nowhere.
pub fn inspect(call: &CoreCall) -> Result<Out, Refusal> {
    let rejected: Vec<&str> = ["--force-isolation", "--phase", "--plan"]
        .into_iter()
        .filter(|f| call.args.iter().any(|a| a == f))
        .collect();
    if !rejected.is_empty() {
        let one = rejected.len() == 1;
        return Err(Refusal::Fail(Failure::new(
            "usage",
            format!(
                "inspect-dispatch-isolation: {} {} recording-only argument{} and cannot be used on the inspection verb — it resolves the runtime's DECLARED capability and records nothing. Use 'query dispatch-isolation' if you need the override applied and the decision recorded.",
                rejected.join(", "),
                if one { "is a" } else { "are" },
                if one { "" } else { "s" },
            ),
        )));
    }
    Ok(declared(call)?.out(call.args))
}

/// Write the sentinel whole (the store's atomic replace: a temporary file
/// renamed over it, so a hook never reads half of one). Best effort, as in
/// 1.14.0: a failed record never fails the wave.
fn record(project: &Path, d: &Decision, phase: Option<String>, plan: Option<String>) {
    let written_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |t| t.as_millis() as u64);
    let payload = json!({
        "isolation": d.isolation,
        "harness_flag": d.harness_flag,
        "phase": phase,
        "plan": plan,
        "written_at": written_at,
    });
    let _ = crate::store::atomic::write(&project.join(SENTINEL), payload.to_string().as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call<'a>(project: &'a Path, args: &'a [String]) -> CoreCall<'a> {
        CoreCall {
            project,
            cwd: project,
            args,
            default: None,
            real: None,
            picked: false,
            workstream: None,
        }
    }

    fn argv(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn opting_out_takes_only_a_strict_false() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".planning")).unwrap();
        for (config, out) in [
            (r#"{"workflow":{"use_worktrees":false}}"#, true),
            (r#"{"workflow":{"use_worktrees":"false"}}"#, false),
            (r#"{"workflow":[]}"#, false),
            (r#"{"use_worktrees":false}"#, false),
            ("{not json", false),
        ] {
            std::fs::write(t.path().join(".planning/config.json"), config).unwrap();
            assert_eq!(worktrees_opted_out(t.path()), out, "{config}");
        }
    }

    #[test]
    fn the_decision_is_recorded_with_its_identifiers() {
        if std::env::var_os("GSD_RUNTIME").is_some() {
            return;
        }
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".planning")).unwrap();
        let args = argv(&[
            "--phase",
            "3",
            "--plan",
            "--json",
            "--force-isolation",
            "none",
        ]);
        let out = dispatch(&call(t.path(), &args)).unwrap();
        assert!(out.text.contains("\"isolation\": \"none\""), "{}", out.text);
        let rec: Value =
            serde_json::from_str(&std::fs::read_to_string(t.path().join(SENTINEL)).unwrap())
                .unwrap();
        assert_eq!(rec["phase"], "3");
        assert_eq!(rec["plan"], Value::Null);
        assert_eq!(rec["harness_flag"], Value::Null);
        assert!(rec["written_at"].as_u64().unwrap() > 1_700_000_000_000);
        let inspected = inspect(&call(t.path(), &argv(&["--phase", "3"])));
        assert!(
            matches!(inspected, Err(Refusal::Fail(f)) if f.message.contains("--phase is a recording-only argument and"))
        );
    }
}
