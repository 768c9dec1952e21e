//! Pre-flight: everything that would make the first iteration pointless,
//! found before it and reported together (the agent CLI, the work tree,
//! hook settings). The plan's lint and an active loop are checked by the
//! caller, which has the workspace. Checks that are not commands are
//! reported too ([`check_report`]), as a note rather than a problem.

use std::path::Path;
use std::time::Duration;

use super::RunOptions;
use crate::ralph::verify::{Check, run};

/// Every problem found; empty when the run may start.
pub fn check(root: &Path, opts: &RunOptions, resumed: bool) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(p) = agent_problem(root, opts) {
        problems.push(p);
    }
    match git2::Repository::discover(root) {
        Err(_) => problems.push(format!(
            "{} is not in a git repository: the runner reads commits and changed files from git",
            root.display()
        )),
        Ok(_) if !opts.allow_dirty && !opts.own_worktree && !resumed => {
            problems.extend(dirty(root))
        }
        Ok(_) => {}
    }
    problems.extend(hook_conflicts(root));
    problems
}

/// The work tree's uncommitted changes, said as a pre-flight problem
/// (a run would take them for its own work, a merge could overwrite them).
/// Claude Code's own folder is not counted: `--start-ralph` and `ralph
/// install-hooks` write their hooks to `.claude/settings*.json`, which the
/// user may never commit, and no plan's work lives there (a run leaves
/// what was changed before it out of its commit in any case).
pub fn dirty(root: &Path) -> Option<String> {
    let repo = git2::Repository::discover(root).ok()?;
    let mut o = git2::StatusOptions::new();
    o.include_untracked(true).include_ignored(false);
    let st = repo.statuses(Some(&mut o)).ok()?;
    let names: Vec<String> = st
        .iter()
        .filter_map(|e| e.path().ok().map(str::to_owned))
        .filter(|p| !p.starts_with(".claude/"))
        .collect();
    if names.is_empty() {
        return None;
    }
    Some(format!(
        "the work tree has {} uncommitted change(s) ({}{}); commit or stash them, or pass --allow-dirty",
        names.len(),
        names.iter().take(5).cloned().collect::<Vec<_>>().join(", "),
        if names.len() > 5 { ", …" } else { "" }
    ))
}

/// The plan's checks that are not commands, and what gsd does with each
/// instead (a file or content check, or the agent's own verification).
/// Reported before the first iteration but not a problem: such a run can
/// still end, when the promise is claimed and the checks gsd runs pass.
pub fn check_report(checks: &[Check]) -> Option<String> {
    crate::ralph::start::not_runnable_report(checks)
        .map(|r| format!("gsd ralph run: pre-flight: {r}"))
}

/// Whether the agent command can start at all.
fn agent_problem(root: &Path, opts: &RunOptions) -> Option<String> {
    match &opts.agent_cmd {
        None => {
            let (bin, install) = match opts.agent {
                super::AgentKind::Claude => (
                    &opts.claude_bin,
                    "install Claude Code (npm i -g @anthropic-ai/claude-code), or pass --claude PATH or --agent-cmd",
                ),
                super::AgentKind::Gemini => (
                    &opts.gemini_bin,
                    "install Gemini CLI (npm i -g @google/gemini-cli), or pass --gemini PATH or --agent-cmd",
                ),
            };
            let cmd = format!("{} --version", shell_words::quote(bin));
            let r = run(
                &Check::command(cmd, "pre-flight"),
                root,
                Duration::from_secs(30),
            );
            (!r.passed).then(|| {
                format!(
                    "the agent CLI `{bin} --version` did not run ({}): {install}",
                    r.reason
                )
            })
        }
        Some(line) => {
            let words = match shell_words::split(line) {
                Ok(w) => w,
                Err(e) => return Some(format!("--agent-cmd cannot be split into words: {e}")),
            };
            let Some(program) = words.first() else {
                return Some("--agent-cmd is empty".into());
            };
            (!resolves(program, root)).then(|| {
                format!("the agent command `{program}` was not found (not a file, not on PATH)")
            })
        }
    }
}

fn resolves(program: &str, root: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let exec = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let p = Path::new(program);
        return exec(&if p.is_absolute() {
            p.to_path_buf()
        } else {
            root.join(p)
        });
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| exec(&d.join(program))))
}

/// Stop hooks of other Ralph loops would fight the runner's sessions.
fn hook_conflicts(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for name in ["settings.json", "settings.local.json"] {
        let path = root.join(".claude").join(name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let v: serde_json::Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                out.push(format!(".claude/{name} is not valid JSON ({e})"));
                continue;
            }
        };
        for event in ["Stop", "SubagentStop"] {
            for group in v["hooks"][event].as_array().into_iter().flatten() {
                for h in group["hooks"].as_array().into_iter().flatten() {
                    let cmd = h["command"].as_str().unwrap_or("");
                    let is_gsd = Path::new(cmd).file_name().is_some_and(|n| n == "gsd");
                    if !is_gsd && (cmd.contains("stop-hook") || cmd.contains("ralph")) {
                        out.push(format!(
                            ".claude/{name} has another Ralph {event} hook (`{cmd}`) that would block the runner's sessions; remove it first"
                        ));
                    }
                }
            }
        }
    }
    out
}
