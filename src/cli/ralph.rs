//! `gsd ralph …`.

use std::path::{Path, PathBuf};

use crate::model::workspace::find_root;
use std::fmt::Write as _;

use crate::ralph::state::{LoopState, Status};
use crate::ralph::{doctor, hook, hook_command, lifecycle, settings};

use crate::model::plan_ref;

use super::args::{HookEvent, HookVia, RalphCommand, StartRalphArgs};
use super::error::CliError;
use super::output::{Output, stored};

/// `.claude/settings.json`, or `settings.local.json` with `--local`.
fn settings_path(root: &Path, local: bool) -> PathBuf {
    root.join(".claude").join(if local {
        "settings.local.json"
    } else {
        "settings.json"
    })
}

/// What the installed hooks run: `gsd` when PATH finds this binary, else its
/// absolute path (with a warning when that path will not last).
fn hook_command() -> Result<hook_command::HookCommand, CliError> {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::input(format!("cannot find the gsd binary: {e}"), None))?;
    Ok(hook_command::choose(
        &exe,
        std::env::var_os("PATH").as_deref(),
    ))
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

/// The line saying the plugin already registers gsd's hooks.
fn plugin_note(id: &str, file: &Path) -> String {
    format!(
        "the gsd plugin ({id}, enabled in {}) already registers gsd's hooks; nothing installed in the settings\n",
        file.display()
    )
}

/// The project a hook or install is about: `CLAUDE_PROJECT_DIR`, else the
/// planning root above `cwd`.
fn project_root(cwd: &Path) -> Option<PathBuf> {
    std::env::var_os("CLAUDE_PROJECT_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .or_else(|| find_root(cwd).ok())
}

pub fn run(cwd: &Path, cmd: RalphCommand) -> Result<Output, CliError> {
    match cmd {
        RalphCommand::Hook { event, via } => {
            let event = match event {
                HookEvent::Stop => hook::HookEvent::Stop,
                HookEvent::SubagentStop => hook::HookEvent::SubagentStop,
                HookEvent::SessionStart => hook::HookEvent::SessionStart,
            };
            let root = project_root(cwd);
            if via == HookVia::Plugin
                && root.as_deref().is_some_and(|r| {
                    hook_command::plugin_should_yield(r, home().as_deref(), event.name())
                })
            {
                // The settings' handler judges this stop; no opinion here.
                return Ok(Output::ok(""));
            }
            let reply = hook::handle(event, root.as_deref(), &mut std::io::stdin().lock());
            // Decisions travel as JSON; the exit code is always 0.
            Ok(Output::ok(reply.stdout()))
        }
        RalphCommand::Guard => Ok(guard(cwd)),
        RalphCommand::Run(args) => run_loop(cwd, *args),
        RalphCommand::Doctor { json } => doctor(cwd, json.json),
        RalphCommand::Clean { json } => clean(cwd, json.json),
        RalphCommand::Report { json } => report(cwd, json.json),
        RalphCommand::InstallHooks { local, guard } => {
            let root = project_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
            let path = settings_path(&root, local);
            if let (Some((id, file)), false) = (
                hook_command::enabled_plugin(&root, home().as_deref()),
                guard,
            ) {
                return Ok(Output::ok(plugin_note(&id, &file)));
            }
            let command = hook_command()?;
            let changed = settings::install(&root, &path, &command.command, guard)
                .map_err(|e| CliError::input(e.to_string(), None))?;
            let mut out = Output::ok("");
            out.warnings.extend(command.warning);
            let what = if guard {
                "Stop, SubagentStop, SessionStart and PreToolUse (guard)"
            } else {
                "Stop, SubagentStop and SessionStart"
            };
            out.text = if changed {
                format!(
                    "installed gsd's {what} hooks in {} (backup in .gsd/settings-backup/)\n",
                    path.display()
                )
            } else {
                format!("{} already has gsd's hooks\n", path.display())
            };
            Ok(out)
        }
        RalphCommand::Status { json } => status(cwd, json.json),
        RalphCommand::Stop => stop(cwd),
        RalphCommand::Prompt { json } => prompt(cwd, json.json),
        RalphCommand::Uninstall { local } => {
            let root = project_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
            let path = settings_path(&root, local);
            let changed = settings::uninstall(&root, &path)
                .map_err(|e| CliError::input(e.to_string(), None))?;
            Ok(Output::ok(if changed {
                format!("removed gsd's hooks from {}\n", path.display())
            } else {
                format!("{} has no gsd hooks\n", path.display())
            }))
        }
    }
}

/// A new loop's options from the flags every loop takes, checked.
fn start_options(
    a: &super::args::LoopArgs,
    guidance_cmd: Option<String>,
    guidance_daily_limit: u32,
) -> Result<crate::ralph::start::StartOptions, CliError> {
    if a.max_iterations == 0 || a.promise.trim().is_empty() {
        return Err(CliError::input(
            "--max-iterations must be at least 1 and --promise must not be empty",
            None,
        ));
    }
    Ok(crate::ralph::start::StartOptions {
        max_iterations: a.max_iterations,
        promise: a.promise.trim().to_owned(),
        checks: a.checks.clone(),
        check_timeout_secs: a.check_timeout,
        guidance_cmd,
        guidance_daily_limit,
    })
}

/// `gsd plan ID --start-ralph`.
pub fn start(cwd: &Path, id: Option<String>, args: StartRalphArgs) -> Result<Output, CliError> {
    let Some(id) = id.filter(|_| args.start_ralph) else {
        return Err(CliError::input(
            "`gsd plan` needs a subcommand (list, show, new) or `ID --start-ralph`",
            Some("gsd plan 05-07 --start-ralph".into()),
        ));
    };
    let options = start_options(&args.loop_args, args.guidance_cmd, args.guidance_limit)?;
    crate::model::workstream::follow_path(cwd, &id);
    let root = find_root(cwd)?;
    let command = hook_command()?;
    let started = lifecycle::start(
        cwd,
        lifecycle::StartRequest {
            plan: &id,
            options,
            settings: settings_path(&root, args.local),
            gsd_bin: command.command,
            home: home(),
            force: args.force,
        },
    )?;
    let state = &started.state;
    let hooks = match &started.hooks {
        lifecycle::HooksFrom::Settings(p) => p.display().to_string(),
        lifecycle::HooksFrom::Plugin { id, file } => {
            format!("the gsd plugin ({id}, enabled in {})", file.display())
        }
    };
    let mut out = Output::ok(format!(
        "Ralph loop started on plan {} ({} check(s), at most {} iterations, promise `{}`)\n{}hooks: {}\nloop state: .gsd/ralph/loop.json\n\nStart Claude Code in {} and give it the loop prompt:\n  claude \"$(gsd ralph prompt)\"\nThe loop ends when the checks pass after <promise>{}</promise>, or after {} iterations.\n",
        state.plan,
        state.checks.len(),
        state.max_iterations,
        state.promise,
        state_note(&started.state_md),
        hooks,
        started.root.display(),
        state.promise,
        state.max_iterations,
    ));
    if let Some(report) = crate::ralph::start::not_runnable_report(&state.checks) {
        out.text.push('\n');
        out.text.push_str(&report);
    }
    if matches!(started.hooks, lifecycle::HooksFrom::Settings(_)) {
        out.warnings.extend(command.warning);
    }
    Ok(out)
}

/// `gsd ralph report`.
fn report(cwd: &Path, json: bool) -> Result<Output, CliError> {
    let root = find_root(cwd)?;
    let r = crate::ralph::report::report(&root);
    if json {
        return Ok(Output::json(&serde_json::to_value(&r).expect("json")));
    }
    let row = |s: &mut String, what: &str, c: &crate::ralph::report::Cost| {
        let _ = writeln!(
            s,
            "{what:<40} {:>5} {:>9} {:>10} {:>9} {:>9.4}",
            c.iterations,
            format!("{:.1}s", c.duration_ms as f64 / 1000.0),
            c.input_tokens,
            c.output_tokens,
            c.cost_usd
        );
    };
    let mut s = format!(
        "{:<40} {:>5} {:>9} {:>10} {:>9} {:>9}\n",
        "", "iter", "time", "tokens in", "out", "USD"
    );
    if r.phases.is_empty() {
        return Ok(Output::ok(
            "no runs recorded yet (`gsd ralph run` logs to .gsd/ralph/logs/)\n",
        ));
    }
    for ph in &r.phases {
        row(&mut s, &format!("phase {}", ph.phase), &ph.cost);
        for p in &ph.plans {
            row(
                &mut s,
                &format!("  plan {} ({})", p.plan, p.outcome),
                &p.cost,
            );
            for t in &p.tasks {
                let name: String = t.name.chars().take(30).collect();
                row(&mut s, &format!("    task {} {name}", t.index), &t.cost);
            }
            if p.no_task.iterations > 0 {
                row(&mut s, "    no task completed", &p.no_task);
            }
        }
    }
    row(&mut s, "total", &r.total);
    let mut out = Output::ok(s);
    if r.unreadable_lines > 0 {
        out.warnings.push(format!(
            "{} log line(s) were not events and were skipped",
            r.unreadable_lines
        ));
    }
    Ok(out)
}

/// `gsd ralph doctor`: exit 1 when a hook would not run this gsd.
fn doctor(cwd: &Path, json: bool) -> Result<Output, CliError> {
    let root = project_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
    let report = doctor::diagnose(
        &root,
        home().as_deref(),
        std::env::var_os("PATH").as_deref(),
    );
    let code = if report.healthy() { 0 } else { 1 };
    if json {
        return Ok(Output::json(&serde_json::to_value(&report).expect("json")).with_code(code));
    }
    let mut s = format!("this gsd: {}\n", report.version);
    if report.registrations.is_empty() {
        s.push_str("hooks: none installed\n");
    }
    for c in &report.registrations {
        let r = &c.registration;
        let _ = writeln!(
            s,
            "{:<13} {:<38} {} → {}",
            r.event,
            r.file.display(),
            r.command,
            match (&c.resolved, &c.version) {
                (Some(p), Some(v)) => format!("{} ({v})", p.display()),
                (Some(p), None) => format!("{} (does not run)", p.display()),
                (None, _) => "not found".to_owned(),
            }
        );
    }
    for l in report.leftovers.iter().filter(|l| !l.removable) {
        let _ = writeln!(s, "kept: {}", l.note);
    }
    if report.healthy() {
        s.push_str("ok: every hook runs this gsd\n");
    }
    for p in &report.problems {
        let _ = writeln!(s, "problem: {p}");
    }
    Ok(Output::ok(s).with_code(code))
}

/// `gsd ralph clean`: remove what runs left that holds no work.
fn clean(cwd: &Path, json: bool) -> Result<Output, CliError> {
    use crate::ralph::run::leftovers;
    let root = find_root(cwd)?;
    let (removed, kept, failed) = leftovers::clean(&root);
    let code = if failed.is_empty() { 0 } else { 2 };
    if json {
        let v = serde_json::json!({
            "removed": removed,
            "kept": kept,
            "failed": failed.iter().map(|f| serde_json::json!({"name": f.name, "reason": f.reason})).collect::<Vec<_>>(),
        });
        return Ok(Output::json(&v).with_code(code));
    }
    let mut s = String::new();
    for l in &removed {
        let _ = writeln!(s, "removed: {}", l.note);
    }
    for l in &kept {
        let _ = writeln!(s, "kept: {}", l.note);
    }
    for f in &failed {
        let _ = writeln!(s, "failed: {f}");
    }
    if removed.is_empty() && kept.is_empty() && failed.is_empty() {
        s.push_str("nothing left by a run\n");
    }
    Ok(Output::ok(s).with_code(code))
}

/// What happened to STATE.md, in a line or two (nothing when untouched).
fn state_note(note: &lifecycle::StateNote) -> String {
    match note {
        lifecycle::StateNote::Untouched => String::new(),
        lifecycle::StateNote::Recorded(o) => stored(o.clone(), false).text,
        lifecycle::StateNote::NotUpdated(e) => format!("STATE.md not updated: {e}\n"),
    }
}

/// The loop of the project above `cwd`, if one was ever started.
fn load_loop(cwd: &Path) -> Result<(PathBuf, Option<LoopState>), CliError> {
    let root = find_root(cwd)?;
    match LoopState::load(&root) {
        None => Ok((root, None)),
        Some(Ok(s)) => Ok((root, Some(s))),
        Some(Err(e)) => Err(CliError::input(
            format!("the loop state .gsd/ralph/loop.json cannot be read: {e}"),
            Some("start a new loop with `gsd plan ID --start-ralph --force`".into()),
        )),
    }
}

/// `gsd ralph status`.
fn status(cwd: &Path, json_out: bool) -> Result<Output, CliError> {
    let (_, state) = load_loop(cwd)?;
    let Some(st) = state else {
        return Ok(if json_out {
            Output::json(&serde_json::json!({ "loop": null }))
        } else {
            Output::ok(
                "no Ralph loop in this project (start one with `gsd plan ID --start-ralph`)\n",
            )
        });
    };
    // A hook-driven loop is only as good as its hooks: the doctor's verdict.
    let hooks = (!st.runner).then(|| {
        let root = project_root(cwd).unwrap_or_else(|| cwd.to_path_buf());
        doctor::diagnose(
            &root,
            home().as_deref(),
            std::env::var_os("PATH").as_deref(),
        )
    });
    if json_out {
        let mut v = serde_json::to_value(&st).map_err(|e| CliError::input(e.to_string(), None))?;
        v.as_object_mut().map(|o| o.remove("prompt"));
        let hooks = hooks.map(|h| {
            serde_json::json!({ "registrations": h.registrations.len(), "problems": h.problems })
        });
        return Ok(Output::json(
            &serde_json::json!({ "loop": v, "hooks": hooks }),
        ));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "plan {} ({}): {}, iteration {}/{}",
        st.plan,
        st.plan_path,
        st.status.as_str(),
        st.iteration,
        st.max_iterations
    );
    if st.runner {
        let _ = writeln!(
            out,
            "run by `gsd ralph run`: {} task(s) done, ${:.4} spent (logs in .gsd/ralph/logs/{}/)",
            st.tasks_done.len(),
            st.cost_usd,
            st.loop_id
        );
    } else {
        let _ = writeln!(
            out,
            "owner session: {}",
            st.owner_session.as_deref().unwrap_or("none yet")
        );
    }
    let _ = writeln!(
        out,
        "started {}, last heard from {}",
        st.started_at, st.heartbeat_at
    );
    let _ = writeln!(out, "promise: <promise>{}</promise>", st.promise);
    let _ = writeln!(out, "checks ({}):", st.checks.len());
    for c in &st.checks {
        match c.kind {
            crate::ralph::verify::CheckKind::Command => {
                let _ = writeln!(out, "  {}", c.command);
            }
            kind => {
                let _ = writeln!(out, "  {} [{kind}: {}]", c.command, c.treatment());
            }
        }
    }
    if !st.history.is_empty() {
        let _ = writeln!(out, "last iterations:");
        for it in st.history.iter().rev().take(5).rev() {
            let failed = if it.failed_checks.is_empty() {
                String::new()
            } else {
                format!(" (failed: {})", it.failed_checks.join(", "))
            };
            let _ = writeln!(out, "  {:>3}  {}  {}{failed}", it.n, it.at, it.result);
        }
    }
    if let Some(h) = hooks {
        if h.healthy() {
            let _ = writeln!(
                out,
                "hooks: {} gsd handler(s), each runs this gsd",
                h.registrations.len()
            );
        }
        for p in &h.problems {
            let _ = writeln!(out, "hooks: problem: {p} (`gsd ralph doctor`)");
        }
    }
    Ok(Output::ok(out))
}

/// `gsd ralph run`: resolve the plan and the loop state, then hand over to
/// the runner, whose exit code is the command's.
fn run_loop(cwd: &Path, args: super::args::RunArgs) -> Result<Output, CliError> {
    use crate::ralph::run::{self, RunInput};
    if args.schema {
        return Ok(Output::ok(run::events::SCHEMA.to_owned()));
    }
    let start_opts = start_options(&args.loop_args, None, 0)?;
    if let Some(p) = args.plans.first() {
        crate::model::workstream::follow_path(cwd, p);
    }
    if args.stuck_threshold == 0 {
        return Err(CliError::input(
            "--stuck-threshold must be at least 1",
            None,
        ));
    }
    if args.phase.is_some() || args.milestone || args.plans.len() > 1 {
        return run_phase(cwd, &args, start_opts);
    }
    if args.dashboard || args.parallel > 1 {
        return Err(CliError::input(
            "--dashboard and --parallel are for a phase run",
            Some("gsd ralph run --phase N --dashboard (or several plan IDs)".into()),
        ));
    }
    let ws = crate::model::Workspace::discover(cwd)?;
    let root = ws.root.clone();
    let existing = LoopState::load(&root);
    let mut problems = Vec::new();
    let (state, plan_id, resumed) = if args.resume {
        let st = match existing {
            Some(Ok(s)) if s.runner_alive() => {
                return Err(CliError::input(
                    format!(
                        "`gsd ralph run` (pid {}) is running the loop on {} now",
                        s.pid.unwrap_or_default(),
                        s.plan
                    ),
                    Some("stop it with `gsd ralph stop`, or wait for it".into()),
                ));
            }
            Some(Ok(s)) if s.runner && matches!(s.status, Status::Paused | Status::Active) => s,
            Some(Ok(s)) => {
                return Err(CliError::input(
                    format!(
                        "the last loop ({} on {}) is not a paused `gsd ralph run`",
                        s.status.as_str(),
                        s.plan
                    ),
                    Some("start a new run with `gsd ralph run PLAN`".into()),
                ));
            }
            _ => {
                return Err(CliError::input(
                    "there is no run to resume",
                    Some("start one with `gsd ralph run PLAN`".into()),
                ));
            }
        };
        let id = st.plan_path.clone();
        (Some(st), id, true)
    } else {
        let Some(id) = args.plans.first().cloned() else {
            return Err(CliError::input(
                "`gsd ralph run` needs a plan",
                Some("gsd ralph run 05-07 --headless".into()),
            ));
        };
        match &existing {
            // Two agents on one tree undo each other's work: never, --force or not.
            Some(Ok(s)) if s.runner_alive() => problems.push(format!(
                "`gsd ralph run` (pid {}) is running the loop on {} now (iteration {}/{}); stop it with `gsd ralph stop`, or wait for it",
                s.pid.unwrap_or_default(),
                s.plan,
                s.iteration,
                s.max_iterations
            )),
            Some(Ok(s)) if s.runner_gone() && !args.force => problems.push(format!(
                "the run of {} was left active by a gsd that is gone (pid {}, iteration {}/{}); `gsd ralph run --resume` continues it, --force starts over",
                s.plan,
                s.pid.unwrap_or_default(),
                s.iteration,
                s.max_iterations
            )),
            Some(Ok(s)) if s.is_active() && !args.force => problems.push(format!(
                "a Ralph loop on {} is already active (iteration {}/{}); stop it with `gsd ralph stop` or pass --force",
                s.plan, s.iteration, s.max_iterations
            )),
            Some(Ok(s)) if s.runner && s.status == Status::Paused && !args.force => {
                problems.push(format!(
                    "the run of {} is paused at iteration {}/{}; `gsd ralph run --resume` continues it, --force starts over",
                    s.plan, s.iteration, s.max_iterations
                ))
            }
            _ => {}
        }
        (None, id, false)
    };
    let plan = plan_ref::find_plan(&ws, cwd, &plan_id)?.at.plan;
    let state = match state {
        Some(s) => {
            problems.extend(run::prepare::lint_errors(&ws, ws.rel(plan.doc.path())));
            s
        }
        None => {
            let (s, found) = run::prepare::prepare(&ws, plan, &start_opts, args.stuck_threshold)?;
            problems.extend(found);
            s
        }
    };
    if let Some(report) = run::preflight::check_report(&state.checks) {
        err!("{report}");
    }
    let mut opts = run_options(&args, state.max_iterations, state.stuck_threshold);
    // `--resume` alone runs the agent the paused run had.
    let agent_given = args.agent_cmd.is_some()
        || args.agent != super::args::AgentCli::Claude
        || args.claude_bin != "claude"
        || args.gemini_bin != "gemini";
    if resumed
        && !agent_given
        && let Some(c) = &state.agent
    {
        opts.use_agent(c);
    }
    let sink = super::run_view::sink(args.headless, state.max_iterations);
    let code = run::run(
        RunInput {
            root: &root,
            plan,
            state,
            resumed,
            problems,
        },
        &opts,
        sink,
    );
    Ok(Output::ok(String::new()).with_code(code))
}

/// The runner's options from the flags.
fn run_options(
    args: &super::args::RunArgs,
    max_iterations: u32,
    stuck_threshold: u32,
) -> crate::ralph::run::RunOptions {
    use crate::ralph::run::agent::OutputFormat;
    crate::ralph::run::RunOptions {
        agent_cmd: args.agent_cmd.clone(),
        agent_format: match (&args.agent_cmd, args.agent, args.agent_format) {
            (Some(_), _, super::args::AgentFormat::Text) => OutputFormat::Text,
            (Some(_), _, super::args::AgentFormat::StreamJson) => OutputFormat::StreamJson,
            (None, super::args::AgentCli::Claude, _) => OutputFormat::StreamJson,
            (None, super::args::AgentCli::Gemini, _) => OutputFormat::GeminiStreamJson,
        },
        claude_bin: args.claude_bin.clone(),
        agent: match args.agent {
            super::args::AgentCli::Claude => crate::ralph::run::AgentKind::Claude,
            super::args::AgentCli::Gemini => crate::ralph::run::AgentKind::Gemini,
        },
        gemini_bin: args.gemini_bin.clone(),
        model: args.model.clone(),
        permission_mode: args.permission_mode.clone(),
        allowed_tools: args.allowed_tools.clone(),
        max_iterations,
        stuck_threshold,
        iteration_timeout: std::time::Duration::from_secs(args.iteration_timeout.max(1)),
        max_budget_usd: args.max_budget_usd,
        retries: args.retries,
        max_wait: std::time::Duration::from_secs(args.max_wait),
        backoff: std::time::Duration::from_millis(args.backoff_ms),
        allow_dirty: args.allow_dirty,
        own_worktree: false,
        force: args.force,
        notify: args.notify.clone(),
        record_history: true,
        log_root: None,
    }
}

/// `gsd ralph run --phase N` / `gsd ralph run ID ID…`: the plans by wave.
fn run_phase(
    cwd: &Path,
    args: &super::args::RunArgs,
    start: crate::ralph::start::StartOptions,
) -> Result<Output, CliError> {
    use crate::ralph::run::phase::{PhaseRequest, Selection, run_phase};
    let selection = match (&args.phase, args.milestone, args.plans.is_empty()) {
        (Some(p), false, true) => Selection::Phase(p.clone()),
        (None, true, true) => Selection::Milestone,
        (None, false, false) => Selection::Plans(args.plans.clone()),
        _ => {
            return Err(CliError::input(
                "give one of --phase N, --milestone or plan IDs",
                None,
            ));
        }
    };
    let opts = run_options(args, start.max_iterations, args.stuck_threshold);
    let board = if args.dashboard {
        let plans = crate::ralph::run::phase::planned(cwd, &selection).map_err(phase_error)?;
        let title = match &selection {
            Selection::Phase(p) => format!("gsd ralph run --phase {p}"),
            Selection::Plans(ids) => format!("gsd ralph run {}", ids.join(" ")),
            Selection::Milestone => "gsd ralph run --milestone".into(),
        };
        let root = find_root(cwd)?;
        let b = crate::ralph::run::board::Board::new(&title, &plans);
        Some(super::dashboard::Dashboard::start(b, &root).map_err(|e| {
            CliError::input(
                format!("cannot start the dashboard: {e}"),
                Some("run without --dashboard, or in a terminal".into()),
            )
        })?)
    } else {
        None
    };
    let sink = match &board {
        Some(d) => d.sink(),
        None => super::run_view::sink(args.headless, start.max_iterations),
    };
    let rerun = match &selection {
        Selection::Phase(p) => format!("gsd ralph run --phase {p}"),
        Selection::Plans(ids) => format!("gsd ralph run {}", ids.join(" ")),
        Selection::Milestone => "gsd ralph run --milestone".into(),
    } + &if args.parallel > 1 {
        format!(" --parallel {}", args.parallel)
    } else {
        String::new()
    };
    let result = run_phase(
        PhaseRequest {
            cwd,
            rerun,
            selection,
            start,
            stuck_threshold: args.stuck_threshold,
            opts: &opts,
            parallel: args.parallel,
        },
        sink,
    );
    let shown = board.map(|d| d.finish()).unwrap_or_default();
    match result {
        Ok((code, _)) => Ok(Output::ok(shown).with_code(code)),
        Err(e) => Err(phase_error(e)),
    }
}

fn phase_error(e: crate::ralph::run::phase::PhaseError) -> CliError {
    use crate::ralph::run::phase::PhaseError;
    match e {
        PhaseError::Workspace(e) => e.into(),
        PhaseError::Phase(e) => e.into(),
        PhaseError::Plan(e) => e.into(),
        PhaseError::Render(e) => e.into(),
        e @ PhaseError::Empty(_) => CliError::input(
            e.to_string(),
            Some("plan the phase first (`gsd plan new N`)".into()),
        ),
    }
}

/// `gsd ralph guard`: one PreToolUse decision. A guard that cannot read its
/// input or its policy denies (it fails closed), and says why.
fn guard(cwd: &Path) -> Output {
    use std::io::Read as _;
    let mut raw = String::new();
    let _ = std::io::stdin()
        .lock()
        .take(16 * 1024 * 1024)
        .read_to_string(&mut raw);
    let root = project_root(cwd);
    let config = root
        .as_deref()
        .and_then(|r| std::fs::read_to_string(r.join(".planning/config.json")).ok());
    let decision = crate::ralph::guard::handle(&raw, config.as_deref(), cwd);
    Output::ok(
        crate::ralph::guard::reply(&decision)
            .map(|s| s + "\n")
            .unwrap_or_default(),
    )
}

/// `gsd ralph prompt`: the prompt of the last loop, ready for `claude "…"`.
fn prompt(cwd: &Path, json_out: bool) -> Result<Output, CliError> {
    let (_, state) = load_loop(cwd)?;
    let Some(st) = state else {
        return Err(CliError::input(
            "no Ralph loop in this project",
            Some("start one with `gsd plan ID --start-ralph`".into()),
        ));
    };
    Ok(if json_out {
        Output::json(
            &serde_json::json!({ "plan": st.plan, "status": st.status.as_str(), "prompt": st.prompt }),
        )
    } else {
        Output::ok(st.prompt)
    })
}

/// `gsd ralph stop`.
fn stop(cwd: &Path) -> Result<Output, CliError> {
    let stopped = lifecycle::stop(cwd)?;
    let st = &stopped.state;
    Ok(Output::ok(format!(
        "stopped the Ralph loop on plan {} at iteration {}/{}; the next stop is allowed\n{}",
        st.plan,
        st.iteration,
        st.max_iterations,
        state_note(&stopped.state_md)
    )))
}
