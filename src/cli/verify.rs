//! `gsd verify`: run a plan's checks, alone.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

use crate::model::Workspace;
use crate::model::plan_ref;

use super::error::CliError;
use super::output::Output;

/// `gsd verify ID`: the behavioural verifier alone.
pub fn run(
    cwd: &Path,
    id: &str,
    extra: Vec<String>,
    timeout: u64,
    json_out: bool,
) -> Result<Output, CliError> {
    use crate::ralph::verify::{Check, plan_checks, verify};
    let ws = Workspace::discover(cwd)?;
    let plan = plan_ref::find_plan(&ws, cwd, id)?.at.plan;
    let mut checks = plan_checks(plan);
    checks.extend(extra.into_iter().map(|c| Check {
        command: c,
        source: "--check".into(),
        expect: None,
    }));
    let v = verify(
        &checks,
        &ws.root,
        std::time::Duration::from_secs(timeout.max(1)),
    );
    let passed = v.passed && !checks.is_empty();
    let code = i32::from(!passed);
    if json_out {
        let mut out = Output::json(
            &json!({ "plan": plan.display_id(), "passed": passed, "checks": v.results.len(), "results": v.results }),
        );
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
    }
    for r in &v.results {
        let mark = if r.passed { "✓" } else { "✗" };
        let _ = writeln!(
            s,
            "{mark} {}: {} ({} ms){}",
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
    let failed = v.results.iter().filter(|r| !r.passed).count();
    let _ = writeln!(s, "{} check(s), {failed} failed", v.results.len());
    Ok(Output::ok(s).with_code(code))
}
