//! Failure guidance: when the checks refuse a promise, ask a user-given
//! command (for example one that queries a NotebookLM notebook) about the
//! failure and put its answer into the next prompt. Answers are cached per
//! normalized error and the queries a day are capped, because research
//! back-ends are rate limited and a loop fails the same way many times.

use std::hash::{Hash, Hasher};
use std::path::Path;
use std::time::Duration;

use super::state::LoopState;
use super::verify::{Check, CheckResult, run_with_env};

/// How long the guidance command may take (the hook itself has 600 s).
const TIMEOUT: Duration = Duration::from_secs(120);
/// The longest answer put into a prompt (the runner keeps 2,000 anyway).
const MAX_ANSWER: usize = 2000;

/// The failure as the guidance command sees it: each failed check with its
/// reason and last output lines, numbers replaced so that the same error
/// with another line number or duration reads the same.
pub fn normalized_error(failed: &[&CheckResult]) -> String {
    let mut s = String::new();
    for r in failed {
        s.push_str(&format!("`{}` failed ({})\n", r.command, r.reason));
        let lines: Vec<&str> = r.output.lines().filter(|l| !l.trim().is_empty()).collect();
        for l in &lines[lines.len().saturating_sub(8)..] {
            s.push_str(l.trim_end());
            s.push('\n');
        }
    }
    let mut out = String::with_capacity(s.len());
    let mut in_digits = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('N');
            }
            in_digits = true;
        } else {
            in_digits = false;
            out.push(c);
        }
    }
    out
}

fn key(error: &str) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    error.hash(&mut h);
    format!("{:016x}", h.finish())
}

/// The guidance for this failure: cached, or asked (within the day's limit),
/// or none. `today` is the UTC date; the state records cache and counter.
pub fn for_failure(
    state: &mut LoopState,
    root: &Path,
    failed: &[&CheckResult],
    today: &str,
) -> Option<String> {
    let cmd = state.guidance_cmd.clone()?;
    let error = normalized_error(failed);
    let k = key(&error);
    if let Some(answer) = state.guidance_cache.get(&k) {
        return Some(answer.clone());
    }
    if state.guidance_day != today {
        state.guidance_day = today.to_owned();
        state.guidance_queries_today = 0;
    }
    if state.guidance_queries_today >= state.guidance_daily_limit {
        return None;
    }
    state.guidance_queries_today += 1;
    // Only stdout is the answer: the check runner keeps the last 2,000
    // characters of stdout and stderr together, so stderr is dropped here.
    let check = Check::command(format!("{{ {cmd}\n}} 2>/dev/null"), "guidance");
    let r = run_with_env(
        &check,
        root,
        TIMEOUT,
        &[("GSD_ERROR", &error), ("GSD_PLAN", &state.plan)],
    );
    if !r.passed {
        return None;
    }
    let answer = r.output.trim();
    if answer.is_empty() {
        return None;
    }
    let answer: String = answer.chars().take(MAX_ANSWER).collect();
    state.guidance_cache.insert(k, answer.clone());
    Some(answer)
}
