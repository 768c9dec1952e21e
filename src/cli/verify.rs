//! `gsd verify`: run a plan's checks, alone.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

use crate::model::Workspace;
use crate::model::plan_ref;

use super::error::CliError;
use super::output::Output;

/// `gsd verify ID`: the behavioural verifier alone. A check that is not a
/// command (and names no file to check instead) is reported "not run" with
/// the reason and never fails the plan; a plan none of whose checks can be
/// run is not proven done (exit 1), the same as one with no checks.
pub fn run(
    cwd: &Path,
    id: &str,
    extra: Vec<String>,
    timeout: u64,
    json_out: bool,
) -> Result<Output, CliError> {
    use crate::ralph::verify::{Check, plan_checks};
    crate::model::workstream::follow_path(cwd, id);
    let ws = Workspace::discover(cwd)?;
    let plan = plan_ref::find_plan(&ws, cwd, id)?.at.plan;
    let mut checks = plan_checks(plan);
    checks.extend(extra.into_iter().map(|c| Check::command(c, "--check")));
    let timeout = std::time::Duration::from_secs(timeout.max(1));
    // In the plan's order, run or not.
    let results: Vec<_> = checks
        .iter()
        .map(|c| crate::ralph::verify::run(c, &ws.root, timeout))
        .collect();
    let ran = results.iter().filter(|r| r.ran).count();
    let failed = results.iter().filter(|r| r.ran && !r.passed).count();
    let not_run = results.len() - ran;
    let passed = ran > 0 && failed == 0;
    let code = i32::from(!passed);
    if json_out {
        let mut out = Output::json(&json!({
            "plan": plan.display_id(), "passed": passed, "checks": results.len(),
            "ran": ran, "failed": failed, "not_run": not_run, "results": results,
        }));
        out.code = code;
        return Ok(out);
    }
    let mut s = String::new();
    if checks.is_empty() {
        let _ = writeln!(
            s,
            "plan {} declares no checks: nothing can prove it done (add <automated> commands to its <verify> tags)",
            plan.display_id()
        );
    } else if ran == 0 {
        let _ = writeln!(
            s,
            "plan {}: none of its {} check(s) is a command gsd can run, so nothing here proves it done (add <automated> commands to its <verify> tags, or pass --check CMD)",
            plan.display_id(),
            checks.len()
        );
    }
    for (c, r) in checks.iter().zip(&results) {
        if !r.ran {
            let _ = writeln!(
                s,
                "– {}: {} — not run: {} ({})",
                r.source, r.command, r.kind, c.why
            );
            continue;
        }
        let mark = if r.passed { "✓" } else { "✗" };
        let what = match &c.probe {
            Some(p) => format!(" [{}: {}]", r.kind, p.describe()),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "{mark} {}: {}{what} ({} ms){}",
            r.source,
            r.command,
            r.duration_ms,
            if r.passed {
                String::new()
            } else {
                format!(" — {}", r.reason)
            }
        );
        if !r.passed && !r.output.is_empty() {
            for line in r.output.lines().take(20) {
                let _ = writeln!(s, "    {line}");
            }
        }
    }
    let _ = write!(s, "{} check(s), {failed} failed", results.len());
    if not_run > 0 {
        let _ = write!(
            s,
            ", {not_run} not run (not commands: the agent's to verify)"
        );
    }
    s.push('\n');
    Ok(Output::ok(s).with_code(code))
}
