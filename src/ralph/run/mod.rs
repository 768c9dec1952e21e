//! `gsd ralph run`: the external Ralph loop. A fresh agent process per
//! iteration (the original Ralph design: no context rot), state in files,
//! completion decided by the plan's checks, progress read from git.
//!
//! Exit codes: 0 complete, 1 stuck, 2 max iterations, 3 fatal (pre-flight,
//! an agent that cannot start, keeps failing or prints no stream-json, rate
//! limits past the retries, the budget), 4 the agent asked a question and
//! needs a human, 130 interrupted (Ctrl+C: `--resume` continues) or stopped
//! by `gsd ralph stop`.

pub mod agent;
pub mod board;
pub mod events;
pub mod leftovers;
pub mod observed;
pub mod phase;
pub mod preflight;
pub mod prepare;
pub mod progress;
pub mod reaper;
pub mod settle;
pub mod worktree;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::model::Plan;
use crate::ralph::hook::promise_in;
use crate::ralph::state::{Iteration, LoopState, Status, now};
use crate::ralph::verify::verify;

use agent::{AgentCommand, OutputFormat};
use events::{Emitter, EventKind, Sink};

pub const EXIT_COMPLETE: i32 = 0;
pub const EXIT_STUCK: i32 = 1;
pub const EXIT_MAX_ITERATIONS: i32 = 2;
pub const EXIT_FATAL: i32 = 3;
pub const EXIT_QUESTION: i32 = 4;
pub const EXIT_INTERRUPTED: i32 = 130;

/// An agent that fails this many iterations in a row ends the run.
const MAX_AGENT_FAILURES: u32 = 3;

/// The agent CLIs gsd has a built-in adapter for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentKind {
    Claude,
    /// Gemini CLI (npm @google/gemini-cli): `-o stream-json`, tools
    /// approved with `--approval-mode yolo`, the prompt on stdin.
    Gemini,
}

#[derive(Debug, Clone)]
pub struct RunOptions {
    /// A whole agent command line (`--agent-cmd`); Claude Code when absent.
    pub agent_cmd: Option<String>,
    pub agent_format: OutputFormat,
    /// The `claude` binary of the default agent command.
    pub claude_bin: String,
    /// Which agent CLI runs when there is no `agent_cmd`.
    pub agent: AgentKind,
    /// The `gemini` binary for `AgentKind::Gemini`.
    pub gemini_bin: String,
    pub model: Option<String>,
    pub permission_mode: String,
    pub allowed_tools: Vec<String>,
    pub max_iterations: u32,
    pub stuck_threshold: u32,
    pub iteration_timeout: Duration,
    pub max_budget_usd: Option<f64>,
    /// Retries of one iteration on rate limits and overload.
    pub retries: u32,
    /// The longest wait for a usage limit to reset; a later reset ends the run.
    pub max_wait: Duration,
    /// The first retry's delay; each next one doubles, plus jitter.
    pub backoff: Duration,
    pub allow_dirty: bool,
    /// The work tree is this plan's own worktree (`--parallel`): every
    /// change in it is the plan's work, an earlier attempt's included, so
    /// it is neither refused as dirty nor left out of the plan's commit.
    pub own_worktree: bool,
    pub force: bool,
    /// `--notify CMD`: run on complete, failed, stuck and question, with
    /// the event's JSON on stdin.
    pub notify: Option<String>,
    /// Record the loop's history in STATE.md at its end. Off for plans run
    /// side by side in worktrees: their branches would all change the same
    /// section and conflict when merged.
    pub record_history: bool,
    /// The project whose `.gsd/ralph/logs/` gets this run's logs (the run's
    /// own root when absent).
    pub log_root: Option<PathBuf>,
}

impl RunOptions {
    /// The agent options, as the loop state keeps them for `--resume`.
    pub fn agent_choice(&self) -> crate::ralph::state::AgentChoice {
        crate::ralph::state::AgentChoice {
            agent_cmd: self.agent_cmd.clone(),
            agent_format: self.agent_format.name().into(),
            agent: match self.agent {
                AgentKind::Claude => "claude",
                AgentKind::Gemini => "gemini",
            }
            .into(),
            claude_bin: self.claude_bin.clone(),
            gemini_bin: self.gemini_bin.clone(),
            model: self.model.clone(),
        }
    }

    /// The agent of a paused run, for a `--resume` that names none.
    pub fn use_agent(&mut self, c: &crate::ralph::state::AgentChoice) {
        self.agent_cmd = c.agent_cmd.clone();
        self.agent_format = OutputFormat::from_name(&c.agent_format).unwrap_or(self.agent_format);
        self.agent = if c.agent == "gemini" {
            AgentKind::Gemini
        } else {
            AgentKind::Claude
        };
        self.claude_bin = c.claude_bin.clone();
        self.gemini_bin = c.gemini_bin.clone();
        if self.model.is_none() {
            self.model = c.model.clone();
        }
    }
}

/// What the CLI resolved before the run.
pub struct RunInput<'a> {
    pub root: &'a Path,
    pub plan: &'a Plan,
    /// The loop state to continue (`--resume`), or a new one.
    pub state: LoopState,
    pub resumed: bool,
    /// Problems the CLI found (lint, an active loop); pre-flight adds its own.
    pub problems: Vec<String>,
}

/// The model for the next iteration: the first unfinished task's `model`,
/// else `--model`, else its category's default (the seed's table).
pub fn model_for(plan: &Plan, done: &[u32], fallback: Option<&str>) -> Option<String> {
    let task = plan
        .tasks
        .iter()
        .find(|t| !done.contains(&(t.index as u32)));
    let field = |k: &str| -> Option<String> {
        let t = task?;
        t.attributes
            .iter()
            .find(|(a, _)| a == k)
            .map(|(_, v)| v.trim().to_owned())
            .or_else(|| t.text(k).map(|s| s.trim().to_owned()))
            .filter(|s| !s.is_empty())
    };
    if let Some(m) = field("model") {
        return Some(m);
    }
    if let Some(m) = fallback {
        return Some(m.to_owned());
    }
    field("category").and_then(|c| {
        Some(
            match c.to_lowercase().as_str() {
                "setup" | "functional" => "opus",
                "ui" | "verification" | "testing" => "sonnet",
                "documentation" | "docs" => "haiku",
                _ => return None,
            }
            .to_owned(),
        )
    })
}

fn build_command(
    opts: &RunOptions,
    session: &str,
    model: Option<&str>,
    n: u32,
    state: &LoopState,
) -> Result<AgentCommand, String> {
    let env = vec![
        ("GSD_SESSION_ID".to_owned(), session.to_owned()),
        ("GSD_ITERATION".to_owned(), n.to_string()),
        ("GSD_PLAN".to_owned(), state.plan.clone()),
        ("GSD_PROMISE".to_owned(), state.promise.clone()),
        ("GSD_MODEL".to_owned(), model.unwrap_or("").to_owned()),
    ];
    if let Some(line) = &opts.agent_cmd {
        let words = shell_words::split(line).map_err(|e| format!("--agent-cmd: {e}"))?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| "--agent-cmd is empty".to_owned())?;
        return Ok(AgentCommand {
            program: program.clone(),
            args: args.to_vec(),
            env,
            format: opts.agent_format,
        });
    }
    if opts.agent == AgentKind::Gemini {
        // Gemini CLI appends `-p` to what stdin gave it: the loop prompt.
        let mut args: Vec<String> = [
            "--output-format",
            "stream-json",
            "--approval-mode",
            "yolo",
            "-p",
            "Follow the instructions above.",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if let Some(m) = model {
            args.extend(["--model".into(), m.to_owned()]);
        }
        return Ok(AgentCommand {
            program: opts.gemini_bin.clone(),
            args,
            env,
            format: OutputFormat::GeminiStreamJson,
        });
    }
    let mut args: Vec<String> = [
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "--session-id",
        session,
        "--permission-mode",
        &opts.permission_mode,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Some(m) = model {
        args.extend(["--model".into(), m.to_owned()]);
    }
    if let Some(b) = opts.max_budget_usd {
        let left = (b - state.cost_usd).max(0.0);
        args.extend(["--max-budget-usd".into(), format!("{left:.4}")]);
    }
    if !opts.allowed_tools.is_empty() {
        args.push("--allowedTools".into());
        args.extend(opts.allowed_tools.iter().cloned());
    }
    Ok(AgentCommand {
        program: opts.claude_bin.clone(),
        args,
        env,
        format: OutputFormat::StreamJson,
    })
}

/// Whether the final text ends with a question to the user.
fn asked_question(text: &str) -> bool {
    let t = text.trim();
    t.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim_end().ends_with('?'))
}

struct Runner<'a> {
    root: &'a Path,
    record_history: bool,
    state: LoopState,
    em: Emitter,
    interrupt: Arc<AtomicBool>,
    logs: PathBuf,
    started: Instant,
}

impl Runner<'_> {
    /// Save the state, keeping a stop that `gsd ralph stop` wrote meanwhile.
    /// The check and the write happen under the loop lock `ralph stop`
    /// takes: without it a stop landing between them was overwritten (seen
    /// under load: the run went on to its iteration cap).
    fn save(&mut self) {
        let _lock = super::state::lock(self.root, crate::store::lock::default_timeout()).ok();
        if self.state.status == Status::Active
            && let Some(Ok(disk)) = LoopState::load(self.root)
            && disk.loop_id == self.state.loop_id
            && disk.status == Status::Stopped
        {
            self.state.status = Status::Stopped;
        }
        let _ = self.state.save(self.root);
    }

    fn failed(&mut self, reason: &str, message: &str, code: i32, status: Status) -> i32 {
        self.failed_with(reason, message, code, status, Vec::new())
    }

    fn failed_with(
        &mut self,
        reason: &str,
        message: &str,
        code: i32,
        status: Status,
        problems: Vec<String>,
    ) -> i32 {
        let mut fields = json!({ "reason": reason, "message": message, "exit_code": code });
        if !problems.is_empty() {
            fields["problems"] = json!(problems);
        }
        self.end(status, message);
        self.em.emit(EventKind::Failed, fields);
        code
    }

    /// The loop's end: state saved, and STATE.md's history for a loop that ran.
    fn end(&mut self, status: Status, line: &str) {
        self.state.status = status;
        self.state.heartbeat_at = now();
        self.save();
        if self.record_history && status != Status::Paused && !self.state.history.is_empty() {
            let _ = crate::ralph::history::record(
                self.root,
                &self.state,
                &format!(
                    "Ralph run {} on {}: {line}",
                    status.as_str(),
                    self.state.plan
                ),
            );
        }
    }

    /// Sleep `d`, waking early on Ctrl+C; false when interrupted.
    fn sleep(&self, d: Duration) -> bool {
        let until = Instant::now() + d;
        while Instant::now() < until {
            if self.interrupt.load(Ordering::SeqCst) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        !self.interrupt.load(Ordering::SeqCst)
    }

    fn interrupted(&mut self) -> i32 {
        self.failed(
            "interrupted",
            &format!(
                "interrupted at iteration {}; `gsd ralph run --resume` continues",
                self.state.iteration + 1
            ),
            EXIT_INTERRUPTED,
            Status::Paused,
        )
    }
}

/// Set once gsd is asked to stop — Ctrl+C (SIGINT), SIGTERM, or SIGHUP (the
/// terminal closed) — and never cleared: one flag for the whole process, so
/// a stop that lands while a plan's final checks run stops the phase too,
/// not just that plan.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        for sig in [
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
            signal_hook::consts::SIGHUP,
        ] {
            let _ = signal_hook::flag::register(sig, flag.clone());
        }
        flag
    })
    .clone()
}

/// Run the loop to its end; returns the process exit code.
pub fn run(input: RunInput<'_>, opts: &RunOptions, sink: Sink) -> i32 {
    let interrupt = interrupt_flag();
    let RunInput {
        root,
        plan,
        mut state,
        resumed,
        mut problems,
    } = input;
    // `.gsd/` ignores itself, so the logs never dirty the work tree.
    let _ = crate::store::lock::ensure_gsd_dir(root);
    // A plan run in a worktree logs to the main project, so its record
    // (`gsd ralph report`) outlives the worktree.
    let log_root = opts.log_root.as_deref().unwrap_or(root);
    let _ = crate::store::lock::ensure_gsd_dir(log_root);
    let logs = log_root.join(".gsd/ralph/logs").join(&state.loop_id);
    let _ = std::fs::create_dir_all(&logs);
    let em = Emitter::new(&state.loop_id, Some(logs.join("events.jsonl")), sink)
        .with_notify(opts.notify.clone());
    problems.extend(preflight::check(root, opts, resumed));
    let mut r = Runner {
        root,
        record_history: opts.record_history,
        state: LoopState {
            runner: true,
            ..state.clone()
        },
        em,
        interrupt,
        logs,
        started: Instant::now(),
    };
    if !problems.is_empty() {
        // Nothing ran: the loop is not recorded, and a previous loop is kept.
        let n = problems.len();
        r.em.emit(EventKind::Failed,
            json!({ "reason": "preflight", "message": format!("{n} pre-flight problem(s); nothing was run"), "exit_code": EXIT_FATAL, "problems": problems }),
        );
        return EXIT_FATAL;
    }
    state.runner = true;
    state.status = Status::Active;
    state.heartbeat_at = now();
    state.pid = Some(std::process::id());
    state.agent = Some(opts.agent_choice());
    // What was changed before the run is not the run's work (a resumed run
    // keeps the first start's record).
    if state.dirty_at_start.is_none() && opts.own_worktree {
        state.dirty_at_start = Some(Default::default());
    }
    if state.dirty_at_start.is_none() {
        match settle::changed_paths(root) {
            Ok(b) => state.dirty_at_start = Some(b),
            Err(e) => {
                r.em.emit(EventKind::Failed,
                    json!({ "reason": "preflight", "message": format!("cannot read the work tree's changes: {e}; nothing was run"), "exit_code": EXIT_FATAL, "problems": [e.to_string()] }),
                );
                return EXIT_FATAL;
            }
        }
    }
    r.state = state;
    r.save();
    let by_task = progress::task_checks(&r.state.checks);
    let check_timeout = Duration::from_secs(r.state.check_timeout_secs.max(1));
    // Tasks whose checks pass before any agent ran are done already; they are
    // nobody's progress.
    let already = progress::newly_done(root, &by_task, &r.state.tasks_done, check_timeout);
    r.state.tasks_done.extend(already);
    r.em.emit(EventKind::Started,
        json!({ "plan": r.state.plan, "plan_path": r.state.plan_path, "max_iterations": r.state.max_iterations,
                "stuck_threshold": r.state.stuck_threshold, "tasks": plan.tasks.len(), "checks": r.state.checks.len(),
                "tasks_done": r.state.tasks_done.len(), "resumed": resumed }),
    );
    // Iterations since the last one with progress (a resumed run keeps counting).
    let mut idle: u32 = r
        .state
        .history
        .iter()
        .rev()
        .take_while(|it| it.result == "no progress")
        .count() as u32;
    let mut agent_failures = 0u32;
    let mut feedback = String::new();
    while r.state.iteration < r.state.max_iterations {
        // `gsd ralph stop` from outside ends the run between iterations.
        r.save();
        if r.state.status == Status::Stopped {
            r.em.emit(EventKind::Failed,
                json!({ "reason": "stopped", "message": format!("stopped by `gsd ralph stop` after {} iteration(s)", r.state.iteration), "exit_code": EXIT_INTERRUPTED }),
            );
            return EXIT_INTERRUPTED;
        }
        let n = r.state.iteration + 1;
        // Claude's per-task and per-category models mean nothing to Gemini:
        // it gets only a model asked for by name.
        let model = if opts.agent == AgentKind::Gemini && opts.agent_cmd.is_none() {
            opts.model.clone()
        } else {
            model_for(plan, &r.state.tasks_done, opts.model.as_deref())
        };
        let before = progress::snapshot(root);
        let mut attempt = 0u32;
        // Rate-limit retries so far; a usage-limit wait is not one.
        let mut rate_retries = 0u32;
        let iter_start = Instant::now();
        let (outcome, session) = loop {
            attempt += 1;
            let session = uuid::Uuid::new_v4().to_string();
            r.em.emit(
                EventKind::Iteration,
                json!({ "n": n, "session_id": session, "model": model, "attempt": attempt }),
            );
            let cmd = match build_command(opts, &session, model.as_deref(), n, &r.state) {
                Ok(c) => c,
                Err(e) => return r.failed("fatal", &e, EXIT_FATAL, Status::Failed),
            };
            let prompt = if feedback.is_empty() {
                r.state.prompt.clone()
            } else {
                format!("{feedback}\n\n{}", r.state.prompt)
            };
            let log = r
                .logs
                .join(format!("iteration-{n:03}-attempt-{attempt}.log"));
            let em = &r.em;
            let out = agent::run(
                &cmd,
                &prompt,
                root,
                opts.iteration_timeout,
                &r.interrupt,
                &log,
                &mut |t| {
                    let mut f = json!({ "n": n, "type": t.kind, "name": t.name });
                    if let Some(p) = t.path {
                        f["path"] = json!(p);
                    }
                    if let Some(c) = t.command {
                        f["command"] = json!(c);
                    }
                    em.emit(EventKind::Tool, f);
                },
            );
            if let Some(e) = &out.spawn_error {
                return r.failed("agent_not_found", e, EXIT_FATAL, Status::Failed);
            }
            if out.interrupted {
                return r.interrupted();
            }
            if let Some(limit) = out.usage_limit.as_ref().filter(|_| !out.timed_out) {
                // Wait for the reset (a second past it), then run the same
                // iteration again.
                let wait_ms = (limit.resets_at * 1000 + 1000
                    - jiff::Timestamp::now().as_millisecond())
                .max(0) as u64;
                let resets_at = jiff::Timestamp::from_second(limit.resets_at)
                    .map(|t| t.to_string())
                    .unwrap_or_else(|_| limit.resets_at.to_string());
                if wait_ms > opts.max_wait.as_millis() as u64 {
                    let msg = format!(
                        "the {} usage limit resets at {resets_at}, later than --max-wait allows ({} s); `gsd ralph run --resume` continues after it",
                        limit.kind.as_deref().unwrap_or("agent's"),
                        opts.max_wait.as_secs()
                    );
                    return r.failed("usage_limit", &msg, EXIT_FATAL, Status::Paused);
                }
                r.em.emit(
                    EventKind::UsageLimit,
                    json!({ "n": n, "resets_at": resets_at, "wait_ms": wait_ms, "limit": limit.kind }),
                );
                if !r.sleep(Duration::from_millis(wait_ms)) {
                    return r.interrupted();
                }
                continue;
            }
            if out.rate_limited && !out.timed_out {
                rate_retries += 1;
                if rate_retries > opts.retries {
                    let msg = format!(
                        "still rate limited (HTTP {}) after {} retries",
                        out.api_error_status.map_or("?".into(), |s| s.to_string()),
                        opts.retries
                    );
                    return r.failed("rate_limited", &msg, EXIT_FATAL, Status::Failed);
                }
                let base = opts.backoff.as_millis() as u64 * (1u64 << (rate_retries - 1).min(10));
                let jitter = if base == 0 {
                    0
                } else {
                    (uuid::Uuid::new_v4().as_u128() as u64) % (base / 2 + 1)
                };
                let delay = (base + jitter).min(300_000);
                r.em.emit(EventKind::RateLimited,
                    json!({ "n": n, "attempt": attempt, "status": out.api_error_status, "delay_ms": delay }),
                );
                if !r.sleep(Duration::from_millis(delay)) {
                    return r.interrupted();
                }
                continue;
            }
            break (out, session);
        };
        let _ = session;
        r.state.cost_usd += outcome.cost_usd;
        let after = progress::snapshot(root);
        let commits = match &after.head {
            Some(h) if after.head != before.head => {
                progress::commits_between(root, before.head.as_deref(), h)
            }
            _ => Vec::new(),
        };
        for (hash, message) in &commits {
            r.em.emit(
                EventKind::Commit,
                json!({ "n": n, "hash": hash, "message": message }),
            );
        }
        let newly = progress::newly_done(root, &by_task, &r.state.tasks_done, check_timeout);
        for t in &newly {
            let name = plan
                .tasks
                .iter()
                .find(|x| x.index as u32 == *t)
                .map(|x| x.label())
                .unwrap_or_default();
            r.em.emit(
                EventKind::TaskComplete,
                json!({ "n": n, "index": t, "name": name }),
            );
        }
        r.state.tasks_done.extend(&newly);
        let progressed = !commits.is_empty() || !newly.is_empty() || after.tree != before.tree;
        r.em.emit(EventKind::IterationDone,
            json!({ "n": n, "duration_ms": iter_start.elapsed().as_millis() as u64, "cost_usd": outcome.cost_usd,
                    "tokens": { "input": outcome.tokens_in, "output": outcome.tokens_out },
                    "exit_code": outcome.exit_code, "timed_out": outcome.timed_out,
                    "progress": progressed, "changed_files": after.changed_files,
                    "agent_model": outcome.reported_model, "agent_session": outcome.reported_session }),
        );
        // Output that is not stream-json: no later iteration will be different.
        if opts.agent_format.is_json()
            && outcome.json_lines == 0
            && let Some(line) = &outcome.first_non_json
        {
            let msg = format!("the agent's output is not stream-json (first line: {line:?})");
            return r.failed("bad_output", &msg, EXIT_FATAL, Status::Failed);
        }
        let agent_failed = !outcome.timed_out
            && (outcome.exit_code != Some(0)
                || (opts.agent_format.is_json() && !outcome.has_result));
        agent_failures = if agent_failed { agent_failures + 1 } else { 0 };
        // The promise, checked by running the checks.
        let mut result = if progressed {
            "continued"
        } else {
            "no progress"
        };
        let mut failed_checks = Vec::new();
        feedback.clear();
        let claimed = promise_in(&outcome.final_text).is_some_and(|p| p == r.state.promise);
        if claimed {
            let v = verify(&r.state.checks, root, check_timeout);
            let checks: Vec<_> = v
                .results
                .iter()
                .map(|c| json!({ "command": c.command, "source": c.source, "passed": c.passed, "reason": c.reason }))
                .collect();
            r.em.emit(
                EventKind::Verification,
                json!({ "n": n, "passed": v.passed, "checks": checks }),
            );
            if v.passed {
                // The work the agent left uncommitted goes into the plan's
                // commit now, or the run stops saying where it is.
                let baseline = r.state.dirty_at_start.clone().unwrap_or_default();
                match settle::commit_work(root, &baseline, &r.state.plan) {
                    Ok(Some(c)) => {
                        r.em.emit(
                            EventKind::Commit,
                            json!({ "n": n, "hash": c.hash, "message": c.message, "by": "gsd", "files": c.files }),
                        );
                    }
                    Ok(None) => {}
                    Err(e) => {
                        r.state.iteration = n;
                        let msg = format!(
                            "every check passed, but the work could not be committed ({}); it is in {}: {}; commit it, then `gsd ralph run --resume`",
                            e.reason,
                            root.display(),
                            e.files.join(", ")
                        );
                        return r.failed("commit_failed", &msg, EXIT_FATAL, Status::Paused);
                    }
                }
                r.state.iteration = n;
                r.state.history.push(Iteration {
                    n,
                    result: "complete".into(),
                    failed_checks: Vec::new(),
                    at: now(),
                    text_hash: 0,
                });
                let done = r.state.tasks_done.len();
                r.end(
                    Status::Complete,
                    "the promise was kept and every check passed",
                );
                r.em.emit(EventKind::Complete,
                    json!({ "iterations": n, "tasks_done": done, "total_duration_ms": r.started.elapsed().as_millis() as u64, "cost_usd": r.state.cost_usd }),
                );
                return EXIT_COMPLETE;
            }
            result = "promise refused";
            let mut text = String::from(
                "Your last run claimed the promise, but gsd ran the checks and these failed:\n",
            );
            for c in v.results.iter().filter(|c| !c.passed) {
                failed_checks.push(c.command.clone());
                text.push_str(&format!(
                    "- `{}` ({}): {}\n{}\n",
                    c.command, c.source, c.reason, c.output
                ));
            }
            text.push_str("Fix them before claiming the promise again.");
            feedback = text;
        }
        // Changed files with the same checks failing as last time are no
        // progress (the Stop hook's rule): only a commit or a task whose
        // checks came to pass moves such a loop on.
        let same_failure = !failed_checks.is_empty()
            && r.state
                .history
                .last()
                .is_some_and(|it| it.failed_checks == failed_checks);
        let moved = !commits.is_empty() || !newly.is_empty() || (progressed && !same_failure);
        r.state.iteration = n;
        r.state.heartbeat_at = now();
        r.state.history.push(Iteration {
            n,
            result: result.into(),
            failed_checks,
            at: now(),
            text_hash: 0,
        });
        r.save();
        if agent_failures >= MAX_AGENT_FAILURES {
            let msg = format!(
                "the agent failed {agent_failures} iterations in a row (exit code {}){}",
                outcome.exit_code.map_or("none".into(), |c| c.to_string()),
                if outcome.stderr_tail.is_empty() {
                    String::new()
                } else {
                    format!(": {}", outcome.stderr_tail)
                }
            );
            return r.failed("agent_failed", &msg, EXIT_FATAL, Status::Failed);
        }
        if !progressed && !claimed && asked_question(&outcome.final_text) {
            let q: String = outcome
                .final_text
                .trim()
                .chars()
                .rev()
                .take(500)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            return r.failed(
                "question",
                &format!("the agent asked a question and needs a human: {q}"),
                EXIT_QUESTION,
                Status::Failed,
            );
        }
        if let Some(b) = opts.max_budget_usd
            && r.state.cost_usd >= b
        {
            let msg = format!("spent ${:.4} of the ${b:.2} budget", r.state.cost_usd);
            return r.failed("budget", &msg, EXIT_FATAL, Status::Failed);
        }
        idle = if moved { 0 } else { idle + 1 };
        if idle >= r.state.stuck_threshold {
            let reason = if same_failure {
                format!(
                    "{idle} iterations in a row without a completed task or a commit, the same checks failing each time"
                )
            } else {
                format!(
                    "{idle} iterations in a row without a completed task, a commit or a changed file"
                )
            };
            r.em.emit(
                EventKind::Stuck,
                json!({ "n": n, "reason": reason, "iterations_without_progress": idle }),
            );
            r.end(Status::Stuck, &reason);
            return EXIT_STUCK;
        }
        if r.interrupt.load(Ordering::SeqCst) {
            return r.interrupted();
        }
    }
    let msg = format!(
        "{} iterations ran without a verified promise",
        r.state.max_iterations
    );
    r.failed(
        "max_iterations",
        &msg,
        EXIT_MAX_ITERATIONS,
        Status::MaxIterations,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::source::Source;
    use crate::model::document::Document;

    fn plan(tasks: &str) -> Plan {
        let text = format!("---\nphase: 01-x\nplan: 01\n---\n<tasks>\n{tasks}\n</tasks>\n");
        let p = std::path::PathBuf::from("01-01-PLAN.md");
        Plan::parse(Document::parse(Source::from_text(p.clone(), text), p))
    }

    #[test]
    fn the_model_comes_from_the_task_then_the_flag_then_the_category() {
        // What `gsd convert feature_list.json --to gsd-xml` writes.
        let p = plan(
            "<task category=\"ui\"><name>a</name></task>\n<task category=\"setup\" model=\"sonnet\"><name>b</name></task>\n<task><name>c</name><model>haiku</model></task>\n<task category=\"misc\"><name>d</name></task>",
        );
        assert_eq!(
            model_for(&p, &[], None).as_deref(),
            Some("sonnet"),
            "ui → sonnet"
        );
        assert_eq!(model_for(&p, &[], Some("opus")).as_deref(), Some("opus"));
        assert_eq!(model_for(&p, &[1], Some("opus")).as_deref(), Some("sonnet"));
        assert_eq!(model_for(&p, &[1, 2], None).as_deref(), Some("haiku"));
        assert_eq!(model_for(&p, &[1, 2, 3], None), None);
        assert_eq!(
            model_for(&p, &[1, 2, 3, 4], Some("x")).as_deref(),
            Some("x")
        );
    }

    #[test]
    fn questions() {
        assert!(asked_question("I looked.\n\nShould I use SQLite?\n"));
        assert!(!asked_question("Is it done? Yes, it is."));
        assert!(!asked_question(""));
    }
}
