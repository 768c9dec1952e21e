//! `gsd plan ID --start-ralph`: the loop's prompt, checks and state.

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
    let checks: Vec<&str> = checks.iter().map(|c| c.command.as_str()).collect();
    let ctx = |tasks: &[serde_json::Value], truncated: bool| {
        serde_json::json!({
            "plan": { "id": plan.display_id(), "path": rel_path, "objective": plan.objective().unwrap_or_default() },
            "tasks": tasks, "truncated": truncated, "must_haves": must, "checks": checks, "promise": promise,
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
    let mut checks = plan_checks(plan);
    checks.extend(opts.checks.iter().map(|c| Check {
        command: c.clone(),
        source: "--check".into(),
        expect: None,
    }));
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
    })
}
