//! GSD Core 1.14.0's two git reads its workflows ask before branching or
//! dispatching into worktrees: `git base-branch [--is-protected BRANCH]`
//! and `worktree base-check [--mode M]`. Both are a few `git` queries plus
//! config.json / Claude settings; gsd asks git the same queries (the `git`
//! binary, as 1.14.0 does, so the answer is git's own) and words the answer
//! as 1.14.0 does. The one query gsd does not make is `git remote show
//! origin`, which contacts the remote: a repository with an `origin` whose
//! HEAD is not recorded locally is handed on.

use std::path::Path;
use std::process::Command;

use serde_json::{Map, Value, json};

use super::native::{CoreCall, Refusal, config_object, hand_on};
use super::output::{Failure, Out};

/// `git ARGS` in `dir`: exit code and trimmed stdout, `None` where git
/// could not run (1.14.0 then reports the answer unverified: handed on).
pub(super) fn git(dir: &Path, args: &[&str]) -> Option<(i32, String)> {
    let o = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    Some((
        o.status.code()?,
        String::from_utf8_lossy(&o.stdout).trim().to_string(),
    ))
}

/// `git.<field>` when `git` is an object.
fn git_nested<'a>(config: &'a Map<String, Value>, field: &str) -> Option<&'a Value> {
    config.get("git")?.as_object()?.get(field)
}

/// The configured base branch (`git.base_branch`, trimmed), or the call
/// handed on where 1.14.0 reads a legacy top-level key.
fn configured(config: &Map<String, Value>) -> Result<Option<String>, Refusal> {
    if config.contains_key("base_branch") || config.contains_key("branching_strategy") {
        return Err(hand_on(" with a legacy top-level git key"));
    }
    Ok(match git_nested(config, "base_branch") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    })
}

/// The base branch as 1.14.0 resolves it unconfigured: origin's recorded
/// HEAD, else a local `main` (or `master` alone), else `main`.
fn detected(dir: &Path) -> Result<String, Refusal> {
    let unrun = || hand_on(" where git could not run");
    let (code, out) = git(
        dir,
        &[
            "symbolic-ref",
            "--quiet",
            "--short",
            "refs/remotes/origin/HEAD",
        ],
    )
    .ok_or_else(unrun)?;
    if code == 0 && !out.is_empty() {
        let b = out.strip_prefix("origin/").unwrap_or(&out);
        if !b.is_empty() {
            return Ok(b.to_string());
        }
    }
    let (code, _) = git(dir, &["config", "--get", "remote.origin.url"]).ok_or_else(unrun)?;
    if code != 1 {
        return Err(hand_on(
            " with an origin remote (1.14.0 asks it for its HEAD branch)",
        ));
    }
    let (code, out) = git(dir, &["branch", "--list", "main", "master"]).ok_or_else(unrun)?;
    if code == 0 {
        let names: Vec<&str> = out
            .lines()
            .map(|l| {
                let l = l.trim();
                l.strip_prefix('*').map(str::trim_start).unwrap_or(l)
            })
            .collect();
        let (main, master) = (names.contains(&"main"), names.contains(&"master"));
        if master && !main {
            return Ok("master".into());
        }
    }
    Ok("main".into())
}

/// `git base-branch`: the branch name and a newline; `--is-protected
/// BRANCH`: `true` or `false` and a newline (the base branch unless
/// `git.allow_default_branch_commits`, plus `git.protected_branches`).
pub fn base_branch(call: &CoreCall) -> Result<Out, Refusal> {
    let args = call.args;
    let config = config_object(call)?.unwrap_or_default();
    let base = match configured(&config)? {
        Some(b) => b,
        None => detected(call.project)?,
    };
    match args.first().map(String::as_str) {
        None => Ok(Out::text(base + "\n")),
        Some("--is-protected") if args.len() <= 2 => {
            let branch = args.get(1).map(String::as_str).unwrap_or("");
            let allow = git_nested(&config, "allow_default_branch_commits") == Some(&json!(true));
            let mut protected: Vec<String> = Vec::new();
            if !allow {
                protected.push(base);
            }
            if let Some(Value::Array(list)) = git_nested(&config, "protected_branches") {
                protected.extend(
                    list.iter()
                        .filter_map(Value::as_str)
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(String::from),
                );
            }
            let hit = protected.iter().any(|p| p == branch);
            Ok(Out::text(format!("{hit}\n")))
        }
        Some("--is-protected") => Err(Refusal::Fail(Failure::new(
            "usage",
            "Usage: git base-branch --is-protected [<branch>]",
        ))),
        Some(flag) => Err(Refusal::Fail(Failure::new(
            "usage",
            format!("Unknown flag for git.base-branch: {flag}"),
        ))),
    }
}

/// `worktree.baseRef` from a Claude settings file: `Ok(None)` where the
/// file, its text or the key is absent, handed on where the file is not
/// plain JSON (1.14.0 reads it as JSON with comments).
fn settings_base_ref(path: &Path) -> Result<Option<String>, Refusal> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    if text.trim().is_empty() {
        // Not JSON, with or without comments: 1.14.0 reads no baseRef there.
        return Ok(None);
    }
    let Ok(v) = serde_json::from_str::<Value>(&text) else {
        return Err(hand_on(" with Claude settings that are not plain JSON"));
    };
    Ok(v.get("worktree")
        .and_then(Value::as_object)
        .and_then(|w| w.get("baseRef"))
        .and_then(Value::as_str)
        .map(String::from))
}

/// The `worktree.baseRef` Claude Code's settings give: the project's local
/// settings, its shared settings, then the user's.
fn effective_base_ref(project: &Path) -> Result<Option<String>, Refusal> {
    let claude = project.join(".claude");
    for f in ["settings.local.json", "settings.json"] {
        if let Some(r) = settings_base_ref(&claude.join(f))? {
            return Ok(Some(r));
        }
    }
    let home = std::env::var("HOME").unwrap_or_default();
    let user = match std::env::var("CLAUDE_CONFIG_DIR") {
        Ok(d) if !d.is_empty() => return Err(hand_on(format!(" with CLAUDE_CONFIG_DIR={d}"))),
        _ => Path::new(&home).join(".claude"),
    };
    if user != claude {
        return settings_base_ref(&user.join("settings.json"));
    }
    Ok(None)
}

fn short(sha: &str) -> &str {
    &sha[..sha.len().min(8)]
}

const MSG_UNKNOWN: &str = "⚠ Cannot determine the worktree fork base (origin/HEAD unresolved). Running this phase sequentially on the main working tree to avoid a base mismatch. Parallel worktrees return once origin/HEAD resolves and matches HEAD. See #683, #3659.";

const MSG_HEAD_UNRESOLVABLE: &str = "⚠ Cannot determine the worktree base (git rev-parse HEAD did not return a definitive answer). Running this phase sequentially on the main working tree to avoid an unverified base mismatch. Note: worktree.baseRef:\"head\" silences this check only where GSD itself creates the worktree (orchestrator-managed runtimes) — in harness mode it never applied (#48, #3659). Retry; if it persists, check for a stalled filesystem mount or a stale git index lock (.git/index.lock). See #683, #3050.";

/// The verdict in 1.14.0's key order.
#[allow(clippy::too_many_arguments)]
fn verdict(
    degrade: bool,
    reason: &str,
    message: Option<String>,
    head: Option<&str>,
    fork_ref: Option<&str>,
    fork_sha: Option<&str>,
    absence: Option<bool>,
) -> Value {
    json!({
        "shouldDegrade": degrade,
        "reason": reason,
        "message": message,
        "headSha": head,
        "forkRef": fork_ref,
        "forkSha": fork_sha,
        "headAbsenceVerified": absence,
    })
}

/// `worktree base-check [--mode harness-worktree|orchestrator-worktree]`:
/// whether a wave should run sequentially because the worktree a harness
/// forks (from origin/HEAD) would not start at HEAD. JSON and a newline.
pub fn base_check(call: &CoreCall) -> Result<Out, Refusal> {
    let args = call.args;
    let mode = match args.iter().position(|a| a == "--mode") {
        Some(i) => match args.get(i + 1).map(String::as_str) {
            Some(m @ ("harness-worktree" | "orchestrator-worktree")) => m,
            _ => return Err(hand_on(" with an unknown --mode (1.14.0 throws)")),
        },
        None => "harness-worktree",
    };
    let base_ref = effective_base_ref(call.project)?;
    let head_ref = base_ref.as_deref() == Some("head");
    let dir = call.project;
    let v = if head_ref && mode == "orchestrator-worktree" {
        verdict(false, "baseref-head", None, None, None, None, None)
    } else {
        let unrun = || hand_on(" where git could not run");
        let (code, head) = git(dir, &["rev-parse", "HEAD"]).ok_or_else(unrun)?;
        if code == 128 {
            verdict(false, "no-head", None, None, None, None, Some(true))
        } else if code == 0 && head.is_empty() {
            verdict(false, "no-head", None, None, None, None, Some(false))
        } else if code != 0 {
            verdict(
                true,
                "head-unresolvable",
                Some(MSG_HEAD_UNRESOLVABLE.into()),
                None,
                None,
                None,
                None,
            )
        } else {
            let mut fork: Option<(String, String)> = None;
            let (c, sha) =
                git(dir, &["rev-parse", "--verify", "--quiet", "origin/HEAD"]).ok_or_else(unrun)?;
            if c == 0 && !sha.is_empty() {
                fork = Some(("origin/HEAD".into(), sha));
            } else {
                let (c, target) = git(
                    dir,
                    &["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"],
                )
                .ok_or_else(unrun)?;
                if c == 0 && !target.is_empty() {
                    let (c, sha) = git(dir, &["rev-parse", "--verify", "--quiet", &target])
                        .ok_or_else(unrun)?;
                    if c == 0 && !sha.is_empty() {
                        let name = target.strip_prefix("refs/remotes/").unwrap_or(&target);
                        fork = Some((name.to_string(), sha));
                    }
                }
            }
            match fork {
                None => verdict(
                    true,
                    "fork-ref-unknown",
                    Some(MSG_UNKNOWN.into()),
                    Some(&head),
                    None,
                    None,
                    None,
                ),
                Some((r, s)) if s == head => verdict(
                    false,
                    "head-matches-fork",
                    None,
                    Some(&head),
                    Some(&r),
                    Some(&s),
                    None,
                ),
                Some((r, s)) if head_ref => {
                    let msg = format!(
                        "⚠ Worktree base mismatch: worktree.baseRef:\"head\" is set, but the runtime harness does not honor it for isolated dispatch — the fork base stays {r} ({}) while HEAD is {} (#48; upstream claude-code#44965). Running this phase sequentially on the main working tree. Parallel worktrees return once HEAD is merged/pushed so {r} matches it, or on runtimes where GSD itself manages worktree creation. See #3659.",
                        short(&s),
                        short(&head)
                    );
                    verdict(
                        true,
                        "baseref-head-ignored-by-harness",
                        Some(msg),
                        Some(&head),
                        Some(&r),
                        Some(&s),
                        None,
                    )
                }
                Some((r, s)) => {
                    let msg = format!(
                        "⚠ Worktree base mismatch: HEAD ({}) differs from {r} ({}). Running this phase sequentially on the main working tree. Parallel worktrees return once HEAD is merged/pushed so {r} matches it. (worktree.baseRef:\"head\" applies only where GSD itself creates the worktree — the runtime harness does not read it; #48, #3659.)",
                        short(&head),
                        short(&s)
                    );
                    verdict(
                        true,
                        "head-diverged-from-fork",
                        Some(msg),
                        Some(&head),
                        Some(&r),
                        Some(&s),
                        None,
                    )
                }
            }
        }
    };
    Ok(Out::text(super::output::pretty(&v) + "\n"))
}
