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
//! The decision is [`judge`], a pure function of (event, input, loop state,
//! check results); [`handle`] gathers those (stdin, the lock, the state, the
//! checks when a promise is claimed) and applies the verdict afterwards
//! (state saved, STATE.md's history through the one write path).
//!
//! Every error on gsd's side lets the stop happen and says why in a
//! `systemMessage`: the handler never traps the user.

use std::hash::{Hash, Hasher};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

pub use super::hook_io::{HookEvent, HookInput, HookReply};
use super::state::{Iteration, LoopState, Status, now};
use super::verify::{CheckResult, Verification, verify};

// The last assistant text in a transcript (JSONL), reading only its tail.
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

/// How many of the latest iterations in a row match.
fn stuck_count(state: &LoopState, same: impl Fn(&Iteration) -> bool) -> u32 {
    state.history.iter().rev().take_while(|it| same(it)).count() as u32
}

/// What a hook event means for the loop.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Not the loop's business (another session, no session id): allow,
    /// say nothing, change nothing.
    Ignore,
    /// Allowed and not counted (a subagent, background tasks running); the
    /// owner claim and heartbeat are kept.
    Free,
    /// The promise was kept and every check gsd ran passed; `not_run`
    /// checks were the agent's to verify (all of them, when `checks` is 0).
    Complete { checks: usize, not_run: usize },
    /// The promise was claimed but these checks failed: keep working.
    Refused { failed: Vec<CheckResult> },
    /// The same final text, or the same failing checks, too many times.
    Stuck {
        failed: Vec<String>,
        why: &'static str,
    },
    /// The iteration cap is reached without a verified promise.
    MaxIterations,
    /// Count the iteration and give the prompt again.
    Continue,
    /// SessionStart: the loop had no heartbeat for over an hour.
    Stale,
    /// SessionStart after a compaction or resume: remind the session.
    Remind,
}

/// A verdict and what it is about.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub verdict: Verdict,
    /// The iteration this stop ends.
    pub n: u32,
    /// The final text's fingerprint (stuck detection).
    pub text_hash: u64,
    /// The session that owns the loop after this event.
    pub owner: Option<String>,
}

/// The final assistant text: the input's, else the transcript's tail.
pub fn final_text(input: &HookInput) -> String {
    input
        .last_assistant_message
        .clone()
        .or_else(|| {
            input
                .transcript_path
                .as_deref()
                .and_then(|p| transcript_tail_text(Path::new(p)))
        })
        .unwrap_or_default()
}

/// Whether `text` claims the loop's promise (then the checks must run).
pub fn claims_promise(state: &LoopState, text: &str) -> bool {
    promise_in(text).is_some_and(|p| p == state.promise.trim())
}

/// The decision, from nothing but its inputs. `checks` are the results of
/// the loop's checks when `text` claims the promise; `hours_since_heartbeat`
/// is for SessionStart.
pub fn judge(
    event: HookEvent,
    input: &HookInput,
    state: &LoopState,
    text: &str,
    checks: Option<&Verification>,
    hours_since_heartbeat: f64,
) -> Judged {
    let n = state.iteration + 1;
    let text_hash = fingerprint(text);
    let judged = |verdict, owner: Option<String>| Judged {
        verdict,
        n,
        text_hash,
        owner,
    };
    if event == HookEvent::SessionStart || event == HookEvent::PreToolUse {
        let verdict = if hours_since_heartbeat > 1.0 {
            Verdict::Stale
        } else if matches!(input.source.as_deref(), Some("compact" | "resume")) {
            Verdict::Remind
        } else {
            Verdict::Ignore
        };
        return judged(verdict, state.owner_session.clone());
    }
    // Claim once; never block a session that does not own the loop, and never
    // one that does not say who it is (that could hijack any session).
    let Some(session) = input.session() else {
        return judged(Verdict::Ignore, state.owner_session.clone());
    };
    match &state.owner_session {
        Some(owner) if owner != session => {
            return judged(Verdict::Ignore, Some(owner.clone()));
        }
        _ => {}
    }
    let owner = Some(session.to_owned());
    // Subagents stop freely; while background tasks run the turn is not over
    // (their result wakes Claude again), so the stop is allowed and not counted.
    if event == HookEvent::SubagentStop || input.background_running() {
        return judged(Verdict::Free, owner);
    }
    if claims_promise(state, text) {
        let Some(v) = checks else {
            // The checks were not run: never accept a promise unverified.
            return judged(Verdict::Refused { failed: Vec::new() }, owner);
        };
        if v.passed {
            return judged(
                Verdict::Complete {
                    checks: v.results.len(),
                    not_run: v.not_run.len(),
                },
                owner,
            );
        }
        let failed: Vec<CheckResult> = v.results.iter().filter(|r| !r.passed).cloned().collect();
        let commands: Vec<String> = failed.iter().map(|r| r.command.clone()).collect();
        let repeated = stuck_count(state, |it| it.failed_checks == commands) + 1;
        if repeated >= state.stuck_threshold {
            return judged(
                Verdict::Stuck {
                    failed: commands,
                    why: "the same checks failed",
                },
                owner,
            );
        }
        return judged(Verdict::Refused { failed }, owner);
    }
    if n > state.max_iterations {
        return judged(Verdict::MaxIterations, owner);
    }
    let repeated = stuck_count(state, |it| {
        it.text_hash == text_hash && !text.trim().is_empty()
    }) + 1;
    if repeated >= state.stuck_threshold && !text.trim().is_empty() {
        return judged(
            Verdict::Stuck {
                failed: Vec::new(),
                why: "the same final text came back",
            },
            owner,
        );
    }
    judged(Verdict::Continue, owner)
}

/// How long a handler waits for another one; below the 600 s hook timeout
/// `install` writes, so gsd always answers itself.
const LOCK_WAIT: Duration = Duration::from_secs(540);

/// Handle one hook event for the project at `root`: read the input, judge,
/// apply.
pub fn handle(event: HookEvent, root: Option<&Path>, stdin: &mut dyn Read) -> HookReply {
    let mut raw = String::new();
    let _ = stdin.take(64 * 1024 * 1024).read_to_string(&mut raw);
    let Some(root) = root else {
        return HookReply::Silent;
    };
    // No loop: answer without touching the disk (hooks stay installed between loops).
    if !super::state::path(root).exists() {
        return HookReply::Silent;
    }
    // Wait for a parallel handler, but answer before Claude Code's hook timeout.
    let _lock = match super::state::lock(root, LOCK_WAIT) {
        Ok(l) => l,
        Err(e) => {
            return notify(format!(
                "gsd: the Ralph loop state is busy ({e}); the stop is allowed"
            ));
        }
    };
    let state = match LoopState::load(root) {
        None => return HookReply::Silent,
        Some(Err(e)) => {
            return notify(format!(
                "gsd: the loop state in .gsd/ralph/loop.json cannot be read ({e}); the stop is allowed"
            ));
        }
        Some(Ok(s)) => s,
    };
    // A runner's agent sessions end by themselves; the runner verifies.
    if !state.is_active() || state.runner {
        return HookReply::Silent;
    }
    let input = HookInput::parse(&raw).unwrap_or_default();
    let text = final_text(&input);
    // The checks run only for a claimed promise of the owning session.
    let owns = input.session().is_some_and(|s| {
        state
            .owner_session
            .as_deref()
            .is_none_or(|owner| owner == s)
    });
    let checks = (event == HookEvent::Stop
        && owns
        && !input.background_running()
        && claims_promise(&state, &text))
    .then(|| {
        verify(
            &state.checks,
            root,
            Duration::from_secs(state.check_timeout_secs.max(1)),
        )
    });
    let hours = state
        .heartbeat_at
        .parse::<jiff::Timestamp>()
        .map(|t| jiff::Timestamp::now().duration_since(t).as_secs_f64() / 3600.0)
        .unwrap_or(f64::INFINITY);
    let judged = judge(event, &input, &state, &text, checks.as_ref(), hours);
    match apply(root, state, judged) {
        Ok(r) => r,
        Err(e) => notify(format!(
            "gsd: the Ralph hook failed ({e}); the stop is allowed"
        )),
    }
}

fn notify(message: String) -> HookReply {
    HookReply::Notify { message }
}

/// Carry out a verdict: the loop state saved, STATE.md's history recorded
/// when the loop ends, and the reply.
fn apply(root: &Path, mut state: LoopState, j: Judged) -> Result<HookReply, String> {
    let n = j.n;
    let hash = j.text_hash;
    if !matches!(
        j.verdict,
        Verdict::Ignore | Verdict::Stale | Verdict::Remind
    ) {
        state.owner_session = j.owner.clone();
        state.heartbeat_at = now();
    }
    match j.verdict {
        Verdict::Ignore => Ok(HookReply::Silent),
        Verdict::Stale => {
            state.status = Status::Stale;
            state.save(root).map_err(|e| e.to_string())?;
            Ok(notify(format!(
                "gsd: the Ralph loop on {} had no heartbeat for over an hour; it is marked stale and no longer enforced",
                state.plan
            )))
        }
        Verdict::Remind => Ok(HookReply::Context {
            context: format!(
                "A gsd Ralph loop is running (iteration {}/{}). {}",
                state.iteration, state.max_iterations, state.prompt
            ),
        }),
        Verdict::Free => {
            state.save(root).map_err(|e| e.to_string())?;
            Ok(HookReply::Silent)
        }
        Verdict::Complete { checks, not_run } => {
            let note = finish(root, &mut state, Status::Complete, n, hash, Vec::new())?;
            let how = match (checks, not_run) {
                (_, 0) => format!("the promise was kept and all {checks} check(s) passed"),
                (0, _) => format!(
                    "the promise was claimed; none of its {not_run} check(s) can be run by gsd (not commands), so it rests on the agent's own verification"
                ),
                _ => format!(
                    "the promise was kept and all {checks} check(s) gsd runs passed ({not_run} more, not commands, were the agent's to verify)"
                ),
            };
            Ok(notify(format!(
                "gsd: loop {} complete: {how}{note}",
                state.plan
            )))
        }
        Verdict::MaxIterations => {
            let note = finish(root, &mut state, Status::MaxIterations, n, hash, Vec::new())?;
            Ok(notify(format!(
                "gsd: loop {} stopped after {} iterations without a verified promise{note}",
                state.plan, state.max_iterations
            )))
        }
        Verdict::Stuck { failed, why } => {
            let note = finish(root, &mut state, Status::Stuck, n, hash, failed)?;
            Ok(HookReply::End {
                reason: format!(
                    "gsd: loop {} is stuck: {why} {} times in a row{note}",
                    state.plan, state.stuck_threshold
                ),
            })
        }
        Verdict::Refused { failed } => {
            let failures: Vec<String> = failed
                .iter()
                .map(|r| {
                    let tail: Vec<&str> = r.output.lines().rev().take(15).collect();
                    let tail: Vec<&str> = tail.into_iter().rev().collect();
                    format!(
                        "- `{}` ({}): {}\n{}",
                        r.command,
                        r.source,
                        r.reason,
                        tail.join("\n")
                    )
                })
                .collect();
            let today = jiff::Timestamp::now().strftime("%Y-%m-%d").to_string();
            let refs: Vec<&CheckResult> = failed.iter().collect();
            let guidance = super::guidance::for_failure(&mut state, root, &refs, &today)
                .map(|g| format!("\n\n## Guidance on this failure\n\n{g}"))
                .unwrap_or_default();
            state.iteration = n;
            state.history.push(Iteration {
                n,
                result: "promise refused".into(),
                failed_checks: failed.iter().map(|r| r.command.clone()).collect(),
                at: now(),
                text_hash: hash,
            });
            state.save(root).map_err(|e| e.to_string())?;
            Ok(HookReply::Block {
                reason: format!(
                    "You claimed the promise, but gsd ran the checks and these failed:\n{}{guidance}\n\nFix them, then claim the promise again.\n\n{}",
                    failures.join("\n"),
                    state.prompt
                ),
                message: format!(
                    "gsd: iteration {n}/{}: promise refused, checks failed",
                    state.max_iterations
                ),
            })
        }
        Verdict::Continue => {
            state.iteration = n;
            state.history.push(Iteration {
                n,
                result: "continued".into(),
                failed_checks: Vec::new(),
                at: now(),
                text_hash: hash,
            });
            state.save(root).map_err(|e| e.to_string())?;
            Ok(HookReply::Block {
                reason: state.prompt.clone(),
                message: format!(
                    "gsd: Ralph iteration {n}/{} of plan {}; end with <promise>{}</promise> only when the work is verifiably done",
                    state.max_iterations, state.plan, state.promise
                ),
            })
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn loop_state(owner: Option<&str>, history: &[(&str, u64, &[&str])]) -> LoopState {
        let mut st: LoopState = serde_json::from_value(serde_json::json!({
            "version": 1, "loop_id": "l", "plan": "02-01", "plan_path": "p", "prompt": "do it",
            "promise": "DONE", "iteration": history.len(), "max_iterations": 4,
            "owner_session": owner, "status": "active", "started_at": "t", "heartbeat_at": "t",
            "checks": [], "check_timeout_secs": 5
        }))
        .unwrap();
        for (i, (result, hash, failed)) in history.iter().enumerate() {
            st.history.push(Iteration {
                n: i as u32 + 1,
                result: (*result).into(),
                failed_checks: failed.iter().map(|f| (*f).to_owned()).collect(),
                at: "t".into(),
                text_hash: *hash,
            });
        }
        st
    }

    fn input(session: Option<&str>) -> HookInput {
        HookInput {
            session_id: session.map(str::to_owned),
            ..HookInput::default()
        }
    }

    fn checks(passed: &[bool]) -> Verification {
        Verification {
            passed: passed.iter().all(|p| *p),
            results: passed
                .iter()
                .enumerate()
                .map(|(i, p)| CheckResult {
                    command: format!("check {i}"),
                    source: "task".into(),
                    kind: crate::ralph::verify::CheckKind::Command,
                    ran: true,
                    passed: *p,
                    reason: if *p { "ok".into() } else { "exit 1".into() },
                    exit_code: Some(i32::from(!p)),
                    duration_ms: 1,
                    output: String::new(),
                })
                .collect(),
            not_run: Vec::new(),
        }
    }

    #[test]
    fn the_decision_order_of_ralph_md() {
        let st = loop_state(Some("A"), &[]);
        let v = |e, i: &HookInput, text: &str, c: Option<&Verification>| {
            judge(e, i, &st, text, c, 0.0).verdict
        };
        // Another session, or none at all, is never trapped.
        assert_eq!(
            v(HookEvent::Stop, &input(Some("B")), "x", None),
            Verdict::Ignore
        );
        assert_eq!(v(HookEvent::Stop, &input(None), "x", None), Verdict::Ignore);
        // Subagents and background work stop freely.
        assert_eq!(
            v(HookEvent::SubagentStop, &input(Some("A")), "x", None),
            Verdict::Free
        );
        let mut bg = input(Some("A"));
        bg.background_tasks = Some(vec![Value::Null]);
        assert_eq!(v(HookEvent::Stop, &bg, "x", None), Verdict::Free);
        // A promise is kept only when every check passes.
        let claim = "done <promise>DONE</promise>";
        assert_eq!(
            v(
                HookEvent::Stop,
                &input(Some("A")),
                claim,
                Some(&checks(&[true, true]))
            ),
            Verdict::Complete {
                checks: 2,
                not_run: 0
            }
        );
        // Checks gsd cannot run (prose, routes…) neither pass nor fail: with
        // nothing else, the promise ends the loop instead of the cap.
        let prose = crate::ralph::verify::verify(
            &[
                crate::ralph::verify::Check {
                    kind: crate::ralph::verify::CheckKind::Prose,
                    ..crate::ralph::verify::Check::command("the page looks right", "task 1")
                },
                crate::ralph::verify::Check {
                    kind: crate::ralph::verify::CheckKind::Route,
                    ..crate::ralph::verify::Check::command("GET /api/users", "verification")
                },
            ],
            Path::new("."),
            std::time::Duration::from_secs(1),
        );
        assert_eq!(
            v(HookEvent::Stop, &input(Some("A")), claim, Some(&prose)),
            Verdict::Complete {
                checks: 0,
                not_run: 2
            }
        );
        let Verdict::Refused { failed } = v(
            HookEvent::Stop,
            &input(Some("A")),
            claim,
            Some(&checks(&[true, false])),
        ) else {
            panic!("a failing check refuses the promise");
        };
        assert_eq!(failed.len(), 1);
        // Unverified, a promise is never accepted.
        assert!(matches!(
            v(HookEvent::Stop, &input(Some("A")), claim, None),
            Verdict::Refused { .. }
        ));
        // A promise for another word is just text.
        assert_eq!(
            v(
                HookEvent::Stop,
                &input(Some("A")),
                "<promise>NOPE</promise>",
                None
            ),
            Verdict::Continue
        );
        // The first session to stop claims the loop.
        let free = loop_state(None, &[]);
        let j = judge(HookEvent::Stop, &input(Some("C")), &free, "x", None, 0.0);
        assert_eq!(
            (j.verdict, j.owner.as_deref()),
            (Verdict::Continue, Some("C"))
        );
    }

    #[test]
    fn caps_and_stuck_loops_end() {
        let text = "same words";
        let h = fingerprint(text);
        let twice = loop_state(Some("A"), &[("continued", h, &[]), ("continued", h, &[])]);
        assert!(matches!(
            judge(HookEvent::Stop, &input(Some("A")), &twice, text, None, 0.0).verdict,
            Verdict::Stuck { .. }
        ));
        let failing = loop_state(
            Some("A"),
            &[
                ("promise refused", 1, &["check 1"]),
                ("promise refused", 2, &["check 1"]),
            ],
        );
        assert!(matches!(
            judge(
                HookEvent::Stop,
                &input(Some("A")),
                &failing,
                "<promise>DONE</promise>",
                Some(&checks(&[true, false])),
                0.0
            )
            .verdict,
            Verdict::Stuck {
                why: "the same checks failed",
                ..
            }
        ));
        let full = loop_state(
            Some("A"),
            &[
                ("continued", 1, &[]),
                ("continued", 2, &[]),
                ("continued", 3, &[]),
                ("continued", 4, &[]),
            ],
        );
        assert_eq!(
            judge(HookEvent::Stop, &input(Some("A")), &full, "new", None, 0.0).verdict,
            Verdict::MaxIterations
        );
    }

    #[test]
    fn session_start_reminds_or_marks_stale() {
        let st = loop_state(Some("A"), &[]);
        let mut i = input(Some("A"));
        i.source = Some("compact".into());
        assert_eq!(
            judge(HookEvent::SessionStart, &i, &st, "", None, 0.1).verdict,
            Verdict::Remind
        );
        assert_eq!(
            judge(HookEvent::SessionStart, &i, &st, "", None, 2.0).verdict,
            Verdict::Stale
        );
        i.source = Some("startup".into());
        assert_eq!(
            judge(HookEvent::SessionStart, &i, &st, "", None, 0.1).verdict,
            Verdict::Ignore
        );
    }

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
