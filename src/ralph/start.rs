//! `gsd plan ID --start-ralph`: the loop's prompt, checks and state.
//!
//! The checks are classified here, once, when the loop starts
//! ([`super::checks`]); [`not_runnable_report`] says what gsd will do with
//! those that are not commands.

use crate::model::Plan;
use crate::render::{RenderError, Renderer};

use super::state::{LoopState, Status, VERSION, now};
use super::verify::{Check, plan_checks};

/// Prompts stay under this many characters; longer plans are pointed at.
pub const PROMPT_LIMIT: usize = 10_000;

pub struct StartOptions {
    pub max_iterations: u32,
    pub promise: String,
    pub checks: Vec<String>,
    pub check_timeout_secs: u64,
    pub guidance_cmd: Option<String>,
    pub guidance_daily_limit: u32,
}

/// Render the loop prompt for `plan`.
pub fn prompt(
    r: &Renderer,
    plan: &Plan,
    rel_path: &str,
    checks: &[Check],
    promise: &str,
) -> Result<String, RenderError> {
    let tasks: Vec<serde_json::Value> = plan
        .tasks
        .iter()
        .map(|t| serde_json::json!({ "name": t.label(), "files": t.files().join(", "), "done": t.text("done").unwrap_or("") }))
        .collect();
    let must: Vec<String> = plan
        .fm
        .must_haves
        .as_ref()
        .map(|m| m.truths.clone())
        .unwrap_or_default();
    // What gsd runs (a file or content check as its shell equivalent), and
    // what it cannot run and leaves to the agent.
    let own: Vec<String> = checks
        .iter()
        .filter(|c| !c.runs())
        .map(
            |c| match c.command.contains('`') || c.command.contains('\n') {
                true => c.command.clone(),
                false => format!("`{}`", c.command),
            },
        )
        .collect();
    let checks: Vec<String> = checks.iter().filter_map(|c| c.as_shell()).collect();
    let ctx = |tasks: &[serde_json::Value], truncated: bool| {
        serde_json::json!({
            "plan": { "id": plan.display_id(), "path": rel_path, "objective": plan.objective().unwrap_or_default() },
            "tasks": tasks, "truncated": truncated, "must_haves": must, "checks": checks, "own_checks": own, "promise": promise,
        })
    };
    let full = r.render("ralph-prompt.md.j2", ctx(&tasks, false))?;
    if full.chars().count() <= PROMPT_LIMIT {
        return Ok(full);
    }
    // Long plans: fewer task lines, and a pointer to the plan file.
    let mut n = tasks.len();
    loop {
        n = n.saturating_sub(n.div_ceil(4).max(1));
        let text = r.render("ralph-prompt.md.j2", ctx(&tasks[..n], true))?;
        if text.chars().count() <= PROMPT_LIMIT || n == 0 {
            return Ok(text.chars().take(PROMPT_LIMIT).collect());
        }
    }
}

/// The loop state for a new loop on `plan`.
pub fn new_loop(
    r: &Renderer,
    plan: &Plan,
    rel_path: &str,
    opts: &StartOptions,
) -> Result<LoopState, RenderError> {
    // Classified here, once: the loop keeps these kinds to its end.
    let mut checks = plan_checks(plan);
    checks.extend(opts.checks.iter().map(|c| Check::command(c, "--check")));
    let prompt = prompt(r, plan, rel_path, &checks, &opts.promise)?;
    let t = now();
    Ok(LoopState {
        version: VERSION,
        loop_id: format!(
            "{}-{}",
            plan.display_id(),
            jiff::Timestamp::now().as_millisecond()
        ),
        plan: plan.display_id(),
        plan_path: rel_path.to_owned(),
        prompt,
        promise: opts.promise.clone(),
        iteration: 0,
        max_iterations: opts.max_iterations,
        owner_session: None,
        status: Status::Active,
        started_at: t.clone(),
        heartbeat_at: t,
        checks,
        check_timeout_secs: opts.check_timeout_secs,
        history: Vec::new(),
        guidance_cmd: opts.guidance_cmd.clone(),
        guidance_cache: Default::default(),
        guidance_day: String::new(),
        guidance_queries_today: 0,
        guidance_daily_limit: opts.guidance_daily_limit,
        stuck_threshold: 3,
        runner: false,
        tasks_done: Vec::new(),
        cost_usd: 0.0,
        status_before: None,
        dirty_at_start: None,
        pid: None,
        agent: None,
    })
}

/// What gsd will do with the checks that are not commands, one line each,
/// under a summary line; `None` when every check is a command. The same
/// words for `--start-ralph`, `gsd ralph run`'s pre-flight and `gsd verify`.
pub fn not_runnable_report(checks: &[Check]) -> Option<String> {
    use super::verify::CheckKind;
    let odd: Vec<&Check> = checks
        .iter()
        .filter(|c| c.kind != CheckKind::Command)
        .collect();
    if odd.is_empty() {
        return None;
    }
    let probed = odd.iter().filter(|c| c.probe.is_some()).count();
    let left = odd.len() - probed;
    let runnable = checks.iter().filter(|c| c.runs()).count();
    let mut s = format!(
        "{} of the {} check(s) are not commands: gsd checks {probed} of them itself (a file's existence or content) and leaves {left} to the agent's own verification.",
        odd.len(),
        checks.len()
    );
    if runnable == 0 {
        s.push_str(
            " No check can be run, so the promise alone ends the loop: add <automated> commands to the plan's <verify>, or pass --check CMD, to have gsd prove it.",
        );
    } else if left > 0 {
        s.push_str(&format!(
            " The loop still ends only when the promise is claimed and the {runnable} check(s) gsd runs pass."
        ));
    }
    s.push('\n');
    for c in odd {
        s.push_str(&format!(
            "  {}: {} [{}] — {}\n",
            c.source,
            c.command,
            c.kind,
            c.treatment()
        ));
    }
    Some(s)
}
