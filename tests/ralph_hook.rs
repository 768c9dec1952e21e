//! `gsd plan ID --start-ralph` and every decision branch of the Stop hook,
//! by piping hook JSON into `gsd ralph hook …`.

mod common;

use common::*;

fn start(t: &tempfile::TempDir, extra: &[&str]) {
    let mut args = vec![
        "plan",
        "02-01",
        "--start-ralph",
        "--check",
        "test -f done.txt",
        "--max-iterations",
        "4",
    ];
    args.extend_from_slice(extra);
    let o = gsd(t.path(), &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

fn hook(t: &tempfile::TempDir, event: &str, input: &str) -> (i32, String) {
    let mut c = gsd_cmd(t.path(), &["ralph", "hook", event]);
    c.env_remove("CLAUDE_PROJECT_DIR");
    let o = with_stdin(c, input.as_bytes());
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

fn stop(t: &tempfile::TempDir, session: &str, text: &str) -> serde_json::Value {
    let input = serde_json::json!({ "session_id": session, "hook_event_name": "Stop", "last_assistant_message": text, "some_future_field": [1, 2] });
    let (code, out) = hook(t, "stop", &input.to_string());
    assert_eq!(code, 0);
    if out.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(&out).unwrap()
    }
}

fn loop_state(t: &tempfile::TempDir) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(t.path().join(".gsd/ralph/loop.json")).unwrap())
        .unwrap()
}

fn plan_tree() -> tempfile::TempDir {
    let t = repo_of("clean");
    // Phase 2's plan gets a check the agent can satisfy.
    let p = t.path().join(".planning/phases/02-api/02-01-PLAN.md");
    let text = std::fs::read_to_string(&p).unwrap().replace("<implementation>axum handler</implementation>", "<implementation>axum handler</implementation>\n  <verify><automated>true</automated></verify>");
    std::fs::write(&p, text).unwrap();
    t
}

#[test]
fn start_writes_state_hooks_and_state_md() {
    let t = plan_tree();
    start(&t, &[]);
    let s = loop_state(&t);
    assert_eq!(
        (
            s["version"].as_u64(),
            s["plan"].as_str(),
            s["status"].as_str(),
            s["max_iterations"].as_u64()
        ),
        (Some(1), Some("02-01"), Some("active"), Some(4))
    );
    assert!(
        s["prompt"]
            .as_str()
            .unwrap()
            .contains("<promise>DONE</promise>")
            && s["prompt"].as_str().unwrap().chars().count() < 10_000
    );
    assert_eq!(
        s["checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["command"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["test -f done.txt"]
    );
    assert!(
        std::fs::read_to_string(t.path().join(".gsd/.gitignore"))
            .unwrap()
            .contains('*')
    );
    let settings = std::fs::read_to_string(t.path().join(".claude/settings.json")).unwrap();
    assert!(settings.contains("\"ralph\"") && settings.contains("\"stop\""));
    assert!(
        std::fs::read_to_string(t.path().join(".planning/STATE.md"))
            .unwrap()
            .contains("Status: Ralph loop running on 02-01\n")
    );
    assert_eq!(
        git(t.path(), &["log", "-1", "--format=%s"]).trim(),
        "docs(state): Ralph loop started on 02-01"
    );
    // One active loop per project.
    let o = gsd(t.path(), &["plan", "01-01", "--start-ralph"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already active"));
    assert_eq!(
        gsd(t.path(), &["plan", "01-01", "--start-ralph", "--force"])
            .status
            .code(),
        Some(0)
    );
    // A plan is found by path as `gsd plan show` finds it; a near miss is named.
    let o = gsd(
        t.path(),
        &[
            "plan",
            ".planning/phases/02-api/02-01-PLAN.md",
            "--start-ralph",
            "--force",
            "--check",
            "true",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A plan with nothing to check would end on the model's word: refused.
    let o = gsd(t.path(), &["plan", "02-01", "--start-ralph", "--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("declares no checks"), "{}", stderr(&o));
    let o = gsd(t.path(), &["plan", "02-0", "--start-ralph", "--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean `02-01`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn stop_decisions_in_order() {
    let t = plan_tree();
    start(&t, &[]);
    // The first session to stop owns the loop and is sent back to work.
    let v = stop(&t, "A", "I made progress");
    assert_eq!(v["decision"], "block");
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .starts_with("# Ralph loop: plan 02-01")
    );
    assert!(
        v["systemMessage"]
            .as_str()
            .unwrap()
            .contains("iteration 1/4")
    );
    assert_eq!(loop_state(&t)["owner_session"], "A");
    // Another session is never blocked, and does not count.
    assert_eq!(
        stop(&t, "B", "unrelated work <promise>DONE</promise>"),
        serde_json::Value::Null
    );
    assert_eq!(loop_state(&t)["iteration"], 1);
    // Subagents stop freely.
    assert_eq!(
        hook(
            &t,
            "subagent-stop",
            r#"{"session_id":"A","agent_type":"Explore"}"#
        ),
        (0, String::new())
    );
    // The promise outside its tags is not a promise.
    let v = stop(&t, "A", "DONE");
    assert_eq!(v["decision"], "block");
    assert!(
        !v["reason"]
            .as_str()
            .unwrap()
            .contains("You claimed the promise")
    );
    // A claimed promise with a failing check is refused, with the check's output.
    let v = stop(&t, "A", "finished <promise>DONE</promise>");
    assert_eq!(v["decision"], "block");
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.starts_with("You claimed the promise, but gsd ran the checks and these failed:\n- `test -f done.txt` (--check): exit 1"), "{reason}");
    // The work gets done: the promise is accepted and the stop allowed.
    std::fs::write(t.path().join("done.txt"), "").unwrap();
    let v = stop(&t, "A", "really finished <promise>DONE</promise>");
    assert!(v.get("decision").is_none(), "{v}");
    assert!(v["systemMessage"].as_str().unwrap().contains("complete"));
    let s = loop_state(&t);
    assert_eq!(s["status"], "complete");
    let results: Vec<&str> = s["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["result"].as_str().unwrap())
        .collect();
    assert_eq!(
        results,
        ["continued", "continued", "promise refused", "complete"]
    );
    // STATE.md: status and the iteration history, in one commit of STATE.md alone.
    let state_md = std::fs::read_to_string(t.path().join(".planning/STATE.md")).unwrap();
    // The loop leaves STATE.md's status as it found it; its outcome is history.
    assert!(
        state_md.contains("Status: Ready to execute\n"),
        "{state_md}"
    );
    assert!(
        state_md.contains("## Ralph Loop History\n\nRalph loop complete on 02-01.\n"),
        "{state_md}"
    );
    let history = &state_md[state_md
        .find("## Ralph Loop History\n")
        .expect("history section")..];
    assert!(
        history.contains("| Iteration | Result | Failed checks |\n|---|---|---|\n| 1 | continued | - |\n| 2 | continued | - |\n| 3 | promise refused | `test -f done.txt` |\n| 4 | complete | - |\n"),
        "{history}"
    );
    assert_eq!(
        git(t.path(), &["log", "-1", "--format=%s"]).trim(),
        "docs(state): Ralph loop on 02-01 complete after 4 iteration(s)"
    );
    assert_eq!(
        git(t.path(), &["show", "--name-only", "--format=", "HEAD"]).trim(),
        ".planning/STATE.md"
    );
    assert!(
        v["systemMessage"]
            .as_str()
            .unwrap()
            .contains("STATE.md: committed"),
        "{v}"
    );
    // After completion the hook is silent.
    assert_eq!(stop(&t, "A", "anything"), serde_json::Value::Null);
}

#[test]
fn iteration_cap_and_stuck_detection() {
    let t = plan_tree();
    start(&t, &[]);
    for i in 0..4 {
        let v = stop(&t, "A", &format!("step {i}"));
        assert_eq!(v["decision"], "block", "iteration {i}");
    }
    let v = stop(&t, "A", "step 5");
    assert!(
        v.get("decision").is_none()
            && v["systemMessage"]
                .as_str()
                .unwrap()
                .contains("after 4 iterations"),
        "{v}"
    );
    assert_eq!(loop_state(&t)["status"], "max_iterations");
    let state_md = std::fs::read_to_string(t.path().join(".planning/STATE.md")).unwrap();
    assert!(
        state_md.contains("| 5 | max iterations | - |\n"),
        "{state_md}"
    );

    let t = plan_tree();
    start(&t, &["--force"]);
    assert_eq!(stop(&t, "A", "same words")["decision"], "block");
    assert_eq!(stop(&t, "A", "same words")["decision"], "block");
    let v = stop(&t, "A", "same words");
    assert_eq!(v["continue"], false, "{v}");
    assert!(v["stopReason"].as_str().unwrap().contains("stuck"));
    assert_eq!(loop_state(&t)["status"], "stuck");
    let state_md = std::fs::read_to_string(t.path().join(".planning/STATE.md")).unwrap();
    assert_eq!(state_md.matches("## Ralph Loop History").count(), 1);
    assert!(state_md.contains("| 3 | stuck | - |\n"), "{state_md}");
    assert!(
        state_md.contains("Status: Ready to execute\n"),
        "{state_md}"
    );
    assert!(
        state_md.contains("\nRalph loop stuck on 02-01.\n"),
        "{state_md}"
    );
}

#[test]
fn transcript_session_start_and_broken_state() {
    let t = plan_tree();
    start(&t, &[]);
    // No last_assistant_message: the transcript's last assistant text counts.
    let transcript = t.path().join("t.jsonl");
    std::fs::write(&transcript, "{\"type\":\"user\",\"message\":{\"content\":\"go\"}}\n{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"done <promise>DONE</promise>\"}]}}\n").unwrap();
    let input = serde_json::json!({ "session_id": "A", "transcript_path": transcript }).to_string();
    let (_, out) = hook(&t, "stop", &input);
    assert!(out.contains("You claimed the promise"), "{out}");
    // Compaction re-injects the loop frame.
    let (_, out) = hook(
        &t,
        "session-start",
        r#"{"session_id":"A","source":"compact"}"#,
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .contains("Ralph loop")
    );
    assert_eq!(
        hook(
            &t,
            "session-start",
            r#"{"session_id":"A","source":"startup"}"#
        ),
        (0, String::new())
    );
    // A heartbeat older than an hour: the loop is stale and no longer enforced.
    let p = t.path().join(".gsd/ralph/loop.json");
    let mut s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    s["heartbeat_at"] = serde_json::json!("2020-01-01T00:00:00Z");
    std::fs::write(&p, s.to_string()).unwrap();
    let (_, out) = hook(
        &t,
        "session-start",
        r#"{"session_id":"C","source":"startup"}"#,
    );
    assert!(out.contains("stale"));
    assert_eq!(stop(&t, "A", "anything"), serde_json::Value::Null);
    // A broken state file never traps the user.
    std::fs::write(&p, "{ not json").unwrap();
    let (code, out) = hook(&t, "stop", r#"{"session_id":"A"}"#);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v.get("decision").is_none()
            && v["systemMessage"]
                .as_str()
                .unwrap()
                .contains("the stop is allowed")
    );
}

#[test]
fn hooks_wait_for_each_other() {
    let t = plan_tree();
    start(&t, &[]);
    // Another handler (here: this test) holds the loop state: a Stop hook
    // must wait for it instead of counting on a copy it read too early.
    let held = gsd::ralph::state::lock(t.path(), std::time::Duration::from_secs(5)).unwrap();
    let root = t.path().to_path_buf();
    let waiter = std::thread::spawn(move || {
        let input = serde_json::json!({ "session_id": "A", "last_assistant_message": "working" });
        let mut c = gsd_cmd(&root, &["ralph", "hook", "stop"]);
        c.env_remove("CLAUDE_PROJECT_DIR");
        with_stdin(c, input.to_string().as_bytes())
    });
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        !waiter.is_finished(),
        "the hook ran while the loop state was locked"
    );
    assert_eq!(loop_state(&t)["iteration"], 0);
    drop(held);
    let o = waiter.join().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["decision"], "block");
    assert_eq!(loop_state(&t)["iteration"], 1);
}

#[test]
fn status_and_stop() {
    let t = plan_tree();
    // Before any loop.
    let o = gsd(t.path(), &["ralph", "status"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("no Ralph loop"));
    let o = gsd(t.path(), &["ralph", "status", "--json"]);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["loop"],
        serde_json::Value::Null
    );
    let o = gsd(t.path(), &["ralph", "stop"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no active Ralph loop"));

    start(&t, &[]);
    stop(&t, "A", "first pass");
    let o = gsd(t.path(), &["ralph", "status"]);
    let text = stdout(&o);
    assert!(text.contains("plan 02-01"), "{text}");
    assert!(text.contains("active, iteration 1/4"), "{text}");
    assert!(text.contains("owner session: A"), "{text}");
    assert!(text.contains("test -f done.txt"), "{text}");
    let v: serde_json::Value =
        serde_json::from_slice(&gsd(t.path(), &["ralph", "status", "--json"]).stdout).unwrap();
    assert_eq!(v["loop"]["status"], "active");
    assert_eq!(v["loop"]["history"][0]["result"], "continued");

    // Stop: the state says so, STATE.md records it in one commit, the next stop is free.
    let o = gsd(t.path(), &["ralph", "stop"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(loop_state(&t)["status"], "stopped");
    let state_md = std::fs::read_to_string(t.path().join(".planning/STATE.md")).unwrap();
    assert!(
        state_md.contains("Status: Ready to execute\n"),
        "{state_md}"
    );
    assert!(
        state_md.contains("\nRalph loop stopped on 02-01 at iteration 1.\n"),
        "{state_md}"
    );
    assert_eq!(
        git(t.path(), &["log", "-1", "--format=%s"]).trim(),
        "docs(state): Ralph loop on 02-01 stopped after 1 iteration(s)"
    );
    assert_eq!(stop(&t, "A", "still here"), serde_json::Value::Null);
    assert_eq!(gsd(t.path(), &["ralph", "stop"]).status.code(), Some(2));

    // A broken state file is named, with the way out.
    std::fs::write(t.path().join(".gsd/ralph/loop.json"), "{ not json").unwrap();
    let o = gsd(t.path(), &["ralph", "status"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("loop.json cannot be read"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("--force"));
}

#[test]
fn anonymous_and_background_stops_are_free() {
    let t = plan_tree();
    start(&t, &[]);
    // No session id (or an empty one): never blocked, never claims the loop.
    for input in [
        r#"{"last_assistant_message": "work"}"#,
        r#"{"session_id": "", "last_assistant_message": "work"}"#,
    ] {
        let (code, out) = hook(&t, "stop", input);
        assert_eq!((code, out.as_str()), (0, ""), "{input}");
    }
    assert_eq!(loop_state(&t)["owner_session"], serde_json::Value::Null);
    assert_eq!(loop_state(&t)["iteration"], 0);
    // The owner's stop while background tasks run: allowed, not counted.
    let input = serde_json::json!({ "session_id": "A", "last_assistant_message": "waiting on the build",
        "background_tasks": [{ "id": "b1", "type": "bash", "status": "running" }] });
    let (code, out) = hook(&t, "stop", &input.to_string());
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(loop_state(&t)["owner_session"], "A");
    assert_eq!(loop_state(&t)["iteration"], 0);
    // An empty list is an ordinary stop.
    let input = serde_json::json!({ "session_id": "A", "last_assistant_message": "done waiting", "background_tasks": [] });
    let (_, out) = hook(&t, "stop", &input.to_string());
    assert!(out.contains("\"decision\":\"block\""), "{out}");
    assert_eq!(loop_state(&t)["iteration"], 1);
}

#[test]
fn history_keeps_crlf_and_replaces_itself() {
    let t = plan_tree();
    // A CRLF STATE.md without a trailing blank line.
    let p = t.path().join(".planning/STATE.md");
    let lf = std::fs::read_to_string(&p).unwrap();
    let crlf = lf.trim_end().replace('\n', "\r\n");
    std::fs::write(&p, &crlf).unwrap();
    git(t.path(), &["commit", "-qam", "crlf"]);
    for round in 0..2 {
        start(&t, &["--force"]);
        stop(&t, "A", &format!("round {round}"));
        let o = gsd(t.path(), &["ralph", "stop"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let after = std::fs::read_to_string(&p).unwrap();
    assert_eq!(after.matches("## Ralph Loop History").count(), 1, "{after}");
    assert!(
        !after.replace("\r\n", "").contains('\n'),
        "a bare LF crept in: {after:?}"
    );
    assert!(
        after.contains(
            "\r\n\r\n## Ralph Loop History\r\n\r\nRalph loop stopped on 02-01 at iteration 1.\r\n\r\nLoop "
        ),
        "{after:?}"
    );
    assert!(after.contains("| 1 | continued | - |\r\n"), "{after:?}");
    // Everything before the section is the original, byte for byte: the
    // status the loop set while running is back to what it was.
    let head = &after[..after.find("\r\n\r\n## Ralph Loop History").unwrap()];
    assert_eq!(head, crlf);
}

#[test]
fn failure_guidance_is_cached_and_capped() {
    let t = plan_tree();
    let o = gsd(
        t.path(),
        &[
            "plan",
            "02-01",
            "--start-ralph",
            "--check",
            "cat step.txt; test -f done.txt",
            "--guidance-cmd",
            "echo asked >> asked.log; echo 'Research says: create done.txt.'; echo \"about: $GSD_ERROR\"; echo noise >&2",
            "--guidance-limit",
            "1",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let asked = || {
        std::fs::read_to_string(t.path().join("asked.log"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    let claim = |step: &str| {
        std::fs::write(t.path().join("step.txt"), step).unwrap();
        let v = stop(&t, "A", "<promise>DONE</promise>");
        assert_eq!(v["decision"], "block", "{v}");
        v["reason"].as_str().unwrap().to_owned()
    };
    // The first failure is asked about; the answer (stdout only) goes into the prompt.
    let r = claim("error at line 12");
    assert!(r.contains("## Guidance on this failure\n\nResearch says: create done.txt.\nabout: `cat step.txt; test -f done.txt` failed (exit N)\nerror at line N"), "{r}");
    assert!(!r.contains("noise"));
    assert_eq!(asked(), 1);
    stop(&t, "A", "working on it");
    // The same error with other numbers is answered from the cache.
    let r = claim("error at line 13");
    assert!(r.contains("Research says: create done.txt."), "{r}");
    assert_eq!(asked(), 1);
    stop(&t, "A", "still working");
    // A new error past the daily limit gets no guidance and no query.
    let r = claim("a different failure");
    assert!(!r.contains("## Guidance"), "{r}");
    assert_eq!(asked(), 1);
    let s = loop_state(&t);
    assert_eq!(s["guidance_queries_today"], 1);
    assert_eq!(s["guidance_cache"].as_object().unwrap().len(), 1);
}

/// `ralph stop` writes STATE.md through the same refusals as every write:
/// a STATE.md made read-only during the loop stays as it is (the loop still
/// stops, and the output says why STATE.md was not updated).
#[test]
fn stop_obeys_the_refusals_of_every_write() {
    let t = plan_tree();
    start(&t, &[]);
    let p = t.path().join(".planning/STATE.md");
    let during = std::fs::read(&p).unwrap();
    let head = git(t.path(), &["rev-parse", "HEAD"]);
    std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o444)).unwrap();
    let o = gsd(t.path(), &["ralph", "stop"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("STATE.md not updated") && out.contains("read-only"),
        "{out}"
    );
    assert_eq!(loop_state(&t)["status"], "stopped");
    assert_eq!(std::fs::read(&p).unwrap(), during, "STATE.md was written");
    assert_eq!(git(t.path(), &["rev-parse", "HEAD"]), head);
    std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
}
