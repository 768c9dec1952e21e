//! The hook handler (`gsd ralph hook stop|subagent-stop|session-start`),
//! following the decision order of RALPH.md §9:
//!
//! 1. no loop, or a loop that is not active → say nothing, allow;
//! 2. another session than the owner (the first session to stop claims the
//!    loop) → say nothing, allow: never trap another session;
//! 3. SubagentStop → allow (subagents are not the loop);
//! 4. the final text from `last_assistant_message`, else the transcript tail;
//! 5. a promise counts only inside `<promise>…</promise>`, and is accepted
//!    only when every check passes — otherwise block with the failures;
//! 6. the iteration cap ends the loop; the same final text or the same
//!    failing checks `stuck_threshold` times end it with `continue: false`;
//! 7. otherwise count the iteration and block with the prompt.
//!
//! A stop without a session id, or while `background_tasks` run, is allowed
//! and not counted.
//!
//! Every error on gsd's side lets the stop happen and says why in a
//! `systemMessage`: the handler never traps the user.

use std::hash::{Hash, Hasher};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use super::state::{Iteration, LoopState, Status, now};
use super::verify::verify;

/// What the handler tells Claude Code: stdout (empty = nothing) and the exit
/// code (always 0: decisions travel as JSON).
pub struct HookReply {
    pub stdout: String,
    pub code: i32,
}

fn silent() -> HookReply {
    HookReply {
        stdout: String::new(),
        code: 0,
    }
}

fn reply(v: Value) -> HookReply {
    HookReply {
        stdout: v.to_string(),
        code: 0,
    }
}

fn allow_with(message: String) -> HookReply {
    reply(json!({ "systemMessage": message }))
}

/// The last assistant text in a transcript (JSONL), reading only its tail.
pub fn transcript_tail_text(path: &Path) -> Option<String> {
    let mut f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    let start = len.saturating_sub(256 * 1024);
    f.seek(SeekFrom::Start(start)).ok()?;
    let mut buf = Vec::new();
    f.read_to_end(&mut buf).ok()?;
    let text = String::from_utf8_lossy(&buf);
    for line in text.lines().rev() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v.get("type").and_then(Value::as_str) != Some("assistant") {
            continue;
        }
        let content = v.pointer("/message/content")?;
        let text: String = match content {
            Value::String(s) => s.clone(),
            Value::Array(items) => items
                .iter()
                .filter(|i| i.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|i| i.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
            _ => continue,
        };
        if !text.trim().is_empty() {
            return Some(text);
        }
    }
    None
}

/// The text inside the last `<promise>…</promise>`.
pub fn promise_in(text: &str) -> Option<String> {
    let end = text.rfind("</promise>")?;
    let start = text[..end].rfind("<promise>")? + "<promise>".len();
    Some(text[start..end].trim().to_owned())
}

fn fingerprint(s: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.trim().hash(&mut h);
    h.finish()
}

/// Handle one hook event for the project at `root`.
/// How long a handler waits for another one; below the 600 s hook timeout
/// `install` writes, so gsd always answers itself.
const LOCK_WAIT: Duration = Duration::from_secs(540);

pub fn handle(event: &str, root: Option<&Path>, stdin: &mut dyn Read) -> HookReply {
    let mut raw = String::new();
    let _ = stdin.take(64 * 1024 * 1024).read_to_string(&mut raw);
    let Some(root) = root else { return silent() };
    // No loop: answer without touching the disk (hooks stay installed between loops).
    if !super::state::path(root).exists() {
        return silent();
    }
    // Wait for a parallel handler, but answer before Claude Code's hook timeout.
    let _lock = match super::state::lock(root, LOCK_WAIT) {
        Ok(l) => l,
        Err(e) => {
            return allow_with(format!(
                "gsd: the Ralph loop state is busy ({e}); the stop is allowed"
            ));
        }
    };
    let state = match LoopState::load(root) {
        None => return silent(),
        Some(Err(e)) => {
            return allow_with(format!(
                "gsd: the loop state in .gsd/ralph/loop.json cannot be read ({e}); the stop is allowed"
            ));
        }
        Some(Ok(s)) => s,
    };
    // A runner's agent sessions end by themselves; the runner verifies.
    if !state.is_active() || state.runner {
        return silent();
    }
    let input: Value = serde_json::from_str(&raw).unwrap_or(Value::Null);
    match decide(event, root, state, &input) {
        Ok(r) => r,
        Err(e) => allow_with(format!(
            "gsd: the Ralph hook failed ({e}); the stop is allowed"
        )),
    }
}

fn decide(
    event: &str,
    root: &Path,
    mut state: LoopState,
    input: &Value,
) -> Result<HookReply, String> {
    let session = input
        .get("session_id")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if event == "session-start" {
        return session_start(root, state, input);
    }
    // Claim once; never block a session that does not own the loop, and never
    // one that does not say who it is (that could hijack any session).
    let Some(session) = session.filter(|s| !s.trim().is_empty()) else {
        return Ok(silent());
    };
    match &state.owner_session {
        Some(owner) if *owner != session => return Ok(silent()),
        Some(_) => {}
        None => state.owner_session = Some(session),
    }
    // Subagents stop freely; while background tasks run the turn is not over
    // (their result wakes Claude again), so the stop is allowed and not counted.
    let background = input
        .get("background_tasks")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    if event == "subagent-stop" || background {
        state.heartbeat_at = now();
        state.save(root).map_err(|e| e.to_string())?;
        return Ok(silent());
    }
    let text = input
        .get("last_assistant_message")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| {
            input
                .get("transcript_path")
                .and_then(Value::as_str)
                .and_then(|p| transcript_tail_text(Path::new(p)))
        })
        .unwrap_or_default();
    let n = state.iteration + 1;
    state.heartbeat_at = now();
    let hash = fingerprint(&text);
    let claimed = promise_in(&text).is_some_and(|p| p == state.promise.trim());
    let mut failed: Vec<String> = Vec::new();
    if claimed {
        let v = verify(
            &state.checks,
            root,
            Duration::from_secs(state.check_timeout_secs.max(1)),
        );
        if v.passed {
            let note = finish(root, &mut state, Status::Complete, n, hash, Vec::new())?;
            return Ok(allow_with(format!(
                "gsd: loop {} complete: the promise was kept and all {} check(s) passed{note}",
                state.plan,
                v.results.len()
            )));
        }
        let failed_results: Vec<&super::verify::CheckResult> =
            v.results.iter().filter(|r| !r.passed).collect();
        let failures: Vec<String> = failed_results
            .iter()
            .map(|r| {
                failed.push(r.command.clone());
                format!(
                    "- `{}` ({}): {}\n{}",
                    r.command,
                    r.source,
                    r.reason,
                    r.output
                        .lines()
                        .rev()
                        .take(15)
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect::<Vec<_>>()
                        .join("\n")
                )
            })
            .collect();
        let repeated = stuck_count(&state, |it| it.failed_checks == failed) + 1;
        if repeated >= state.stuck_threshold {
            return end_stuck(root, state, n, hash, failed, "the same checks failed");
        }
        let today = jiff::Timestamp::now().strftime("%Y-%m-%d").to_string();
        let guidance = super::guidance::for_failure(&mut state, root, &failed_results, &today)
            .map(|g| format!("\n\n## Guidance on this failure\n\n{g}"))
            .unwrap_or_default();
        state.iteration = n;
        state.history.push(Iteration {
            n,
            result: "promise refused".into(),
            failed_checks: failed,
            at: now(),
            text_hash: hash,
        });
        state.save(root).map_err(|e| e.to_string())?;
        let reason = format!(
            "You claimed the promise, but gsd ran the checks and these failed:\n{}{guidance}\n\nFix them, then claim the promise again.\n\n{}",
            failures.join("\n"),
            state.prompt
        );
        return Ok(reply(
            json!({ "decision": "block", "reason": reason, "systemMessage": format!("gsd: iteration {n}/{}: promise refused, checks failed", state.max_iterations) }),
        ));
    }
    if n > state.max_iterations {
        let note = finish(root, &mut state, Status::MaxIterations, n, hash, Vec::new())?;
        return Ok(allow_with(format!(
            "gsd: loop {} stopped after {} iterations without a verified promise{note}",
            state.plan, state.max_iterations
        )));
    }
    let repeated = stuck_count(&state, |it| it.text_hash == hash && !text.trim().is_empty()) + 1;
    if repeated >= state.stuck_threshold && !text.trim().is_empty() {
        return end_stuck(
            root,
            state,
            n,
            hash,
            Vec::new(),
            "the same final text came back",
        );
    }
    state.iteration = n;
    state.history.push(Iteration {
        n,
        result: "continued".into(),
        failed_checks: Vec::new(),
        at: now(),
        text_hash: hash,
    });
    state.save(root).map_err(|e| e.to_string())?;
    Ok(reply(json!({
        "decision": "block",
        "reason": state.prompt,
        "systemMessage": format!("gsd: Ralph iteration {n}/{} of plan {}; end with <promise>{}</promise> only when the work is verifiably done", state.max_iterations, state.plan, state.promise),
    })))
}

/// How many of the latest iterations in a row match.
fn stuck_count(state: &LoopState, same: impl Fn(&Iteration) -> bool) -> u32 {
    state.history.iter().rev().take_while(|it| same(it)).count() as u32
}

fn end_stuck(
    root: &Path,
    mut state: LoopState,
    n: u32,
    hash: u64,
    failed: Vec<String>,
    why: &str,
) -> Result<HookReply, String> {
    let note = finish(root, &mut state, Status::Stuck, n, hash, failed)?;
    Ok(reply(
        json!({ "continue": false, "stopReason": format!("gsd: loop {} is stuck: {why} {} times in a row{note}", state.plan, state.stuck_threshold) }),
    ))
}

/// End the loop: the last iteration, the final status, the state saved, and
/// STATE.md's history committed. The loop ends even when STATE.md cannot be
/// written; the note says why.
fn finish(
    root: &Path,
    state: &mut LoopState,
    status: Status,
    n: u32,
    hash: u64,
    failed_checks: Vec<String>,
) -> Result<String, String> {
    state.status = status;
    state.history.push(Iteration {
        n,
        result: status.as_str().into(),
        failed_checks,
        at: now(),
        text_hash: hash,
    });
    state.save(root).map_err(|e| e.to_string())?;
    let line = format!("Ralph loop {} on {}", status.as_str(), state.plan);
    Ok(match super::history::record(root, state, &line) {
        Ok(s) if s.is_empty() => String::new(),
        Ok(s) => format!(" ({s})"),
        Err(e) => format!(" (STATE.md not updated: {e})"),
    })
}

fn session_start(root: &Path, mut state: LoopState, input: &Value) -> Result<HookReply, String> {
    let stale = jiff::Timestamp::now().duration_since(
        state
            .heartbeat_at
            .parse::<jiff::Timestamp>()
            .map_err(|e| e.to_string())?,
    );
    if stale > jiff::SignedDuration::from_hours(1) {
        state.status = Status::Stale;
        state.save(root).map_err(|e| e.to_string())?;
        return Ok(allow_with(format!(
            "gsd: the Ralph loop on {} had no heartbeat for over an hour; it is marked stale and no longer enforced",
            state.plan
        )));
    }
    match input.get("source").and_then(Value::as_str) {
        Some("compact" | "resume") => Ok(reply(json!({
            "hookSpecificOutput": { "hookEventName": "SessionStart", "additionalContext": format!("A gsd Ralph loop is running (iteration {}/{}). {}", state.iteration, state.max_iterations, state.prompt) }
        }))),
        _ => Ok(silent()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promises() {
        assert_eq!(
            promise_in("done <promise> DONE </promise>").as_deref(),
            Some("DONE")
        );
        assert_eq!(
            promise_in("I will say <promise>DONE</promise> later, not now <promise>X</promise>")
                .as_deref(),
            Some("X")
        );
        assert!(promise_in("DONE").is_none());
    }
}
