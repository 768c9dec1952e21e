//! End to end with the real Claude Code CLI (RALPH.md §10): `gsd plan 02-02
//! --start-ralph` installs gsd's hooks, `claude -p` runs against a scripted
//! mock of the Messages API, and the CLI calls `gsd ralph hook …` at every
//! stop. The mock's request log shows what gsd re-injected each time; the
//! files on disk show what the "agent" did and what gsd recorded.
//!
//! Runs when `GSD_CLAUDE` names a `claude` binary (`.ci/run` installs it).

mod common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use common::claude_cli::{claude_bin, run_claude};
use common::mock_model::{MockModel, Reply, assistant_turns, first_user_text, last_user_text};
use common::*;
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(180);

struct Project {
    dir: tempfile::TempDir,
    home: tempfile::TempDir,
    prompt: String,
}

impl Project {
    /// A committed project with plan 02-02 and a Ralph loop started on it.
    fn start(max_iterations: &str) -> Self {
        let dir = step_project();
        let o = gsd(
            dir.path(),
            &[
                "plan",
                "02-02",
                "--start-ralph",
                "--max-iterations",
                max_iterations,
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("claude \"$(gsd ralph prompt)\""));
        let p = gsd(dir.path(), &["ralph", "prompt"]);
        assert_eq!(p.status.code(), Some(0), "{}", stderr(&p));
        Project {
            dir,
            home: tempfile::tempdir().unwrap(),
            prompt: stdout(&p),
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn claude(&self, bin: &Path, mock: &MockModel, prompt: &str) -> std::process::Output {
        let o = run_claude(
            bin,
            self.dir.path(),
            self.home.path(),
            &mock.url,
            prompt,
            LIMIT,
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "claude failed\nstdout: {}\nstderr: {}",
            stdout(&o),
            stderr(&o)
        );
        o
    }

    fn loop_state(&self) -> Value {
        let o = gsd(self.dir.path(), &["ralph", "status", "--json"]);
        json(&o)["loop"].clone()
    }

    fn results(&self) -> Vec<String> {
        self.loop_state()["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|it| it["result"].as_str().unwrap().to_owned())
            .collect()
    }

    /// STATE.md carries the history table and is committed with it.
    fn assert_history_committed(&self, status: &str, rows: usize) {
        let state = std::fs::read_to_string(self.path(".planning/STATE.md")).unwrap();
        let table = state
            .split("## Ralph Loop History")
            .nth(1)
            .unwrap_or_else(|| panic!("no history section in STATE.md:\n{state}"));
        let data_rows = table
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| Iteration") && !l.contains("---"))
            .count();
        assert_eq!(data_rows, rows, "{table}");
        assert!(
            state.contains(&format!("Ralph loop {status} on 02-02")),
            "{state}"
        );
        let subject = git(self.dir.path(), &["log", "-1", "--format=%s"]);
        assert!(
            subject.contains(&format!("Ralph loop on 02-02 {status}")),
            "{subject}"
        );
        assert_eq!(
            git(self.dir.path(), &["status", "--porcelain", ".planning"]),
            ""
        );
        let shown = git(self.dir.path(), &["show", "--stat", "--format=", "HEAD"]);
        assert!(
            shown.contains(".planning/STATE.md") && shown.lines().count() == 2,
            "{shown}"
        );
    }
}

/// The label the CLI puts before a Stop hook's `reason` in the next request.
fn reinjected(req: &Value) -> Option<String> {
    let t = last_user_text(req);
    t.contains("Stop hook").then_some(t)
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn a_two_working_turns_then_a_kept_promise_completes() {
    let bin = claude_bin();
    let p = Project::start("10");
    let (s1, s2) = (p.path("work/step1.txt"), p.path("work/step2.txt"));
    let mock = MockModel::start(move |req| match assistant_turns(req) {
        0 => Reply::write(&s1, "one\n"),
        1 => Reply::text("Step one is written; step two comes next."),
        2 => Reply::write(&s2, "two\n"),
        3 => Reply::text("Step two is written."),
        _ => Reply::text("Both steps are done. <promise>DONE</promise>"),
    });
    p.claude(&bin, &mock, &p.prompt);
    let reqs = mock.requests();
    assert_eq!(reqs.len(), 5, "one request per scripted turn");
    // The tool calls really ran, and each end of turn re-injected the loop prompt.
    assert!(last_user_text(&reqs[1]).contains("step1.txt"));
    for i in [2, 4] {
        let r = reinjected(&reqs[i]).unwrap_or_else(|| panic!("request {i} re-injects nothing"));
        assert!(r.contains(p.prompt.trim()), "request {i}: {r}");
    }
    assert!(reinjected(&reqs[1]).is_none() && reinjected(&reqs[3]).is_none());
    assert_eq!(
        std::fs::read_to_string(p.path("work/step1.txt")).unwrap(),
        "one\n"
    );
    assert_eq!(
        std::fs::read_to_string(p.path("work/step2.txt")).unwrap(),
        "two\n"
    );
    assert_eq!(p.loop_state()["status"], "complete");
    assert_eq!(p.results(), ["continued", "continued", "complete"]);
    p.assert_history_committed("complete", 3);
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn b_a_promise_without_the_work_is_refused_with_the_check_output() {
    let bin = claude_bin();
    let p = Project::start("10");
    let (s1, s2) = (p.path("work/step1.txt"), p.path("work/step2.txt"));
    let mock = MockModel::start(move |req| match assistant_turns(req) {
        0 => Reply::text("All done! <promise>DONE</promise>"),
        1 => Reply::write(&s1, "one\n"),
        2 => Reply::write(&s2, "two\n"),
        _ => Reply::text("Now it is really done. <promise>DONE</promise>"),
    });
    p.claude(&bin, &mock, &p.prompt);
    let reqs = mock.requests();
    assert_eq!(reqs.len(), 4);
    let refusal = reinjected(&reqs[1]).expect("the refused promise is answered");
    assert!(refusal.contains("these failed"), "{refusal}");
    assert!(refusal.contains("`cat work/step2.txt`"), "{refusal}");
    assert!(refusal.contains("`grep one work/step1.txt`"), "{refusal}");
    // The checks' own output, not a paraphrase.
    assert!(
        refusal.contains("cat: work/step2.txt: No such file or directory"),
        "{refusal}"
    );
    assert!(refusal.contains(p.prompt.trim()));
    assert_eq!(p.loop_state()["status"], "complete");
    assert_eq!(p.results(), ["promise refused", "complete"]);
    let first = &p.loop_state()["history"][0]["failed_checks"];
    assert_eq!(first.as_array().unwrap().len(), 2, "{first}");
    p.assert_history_committed("complete", 2);
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn c_a_second_session_in_the_same_project_is_never_blocked() {
    let bin = claude_bin();
    let p = Arc::new(Project::start("10"));
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let (s1, s2, g) = (
        p.path("work/step1.txt"),
        p.path("work/step2.txt"),
        gate.clone(),
    );
    let mock = Arc::new(MockModel::start(move |req| {
        if first_user_text(req).contains("Session B") {
            return Reply::text("B here: 2 + 2 = 4.");
        }
        match assistant_turns(req) {
            0 => Reply::text("A: starting on the plan."),
            1 => {
                // The owner waits here, mid-loop, until session B has finished.
                let (m, c) = &*g;
                let open = c
                    .wait_timeout_while(m.lock().unwrap(), LIMIT, |open| !*open)
                    .unwrap();
                assert!(*open.0, "session B never finished");
                Reply::write(&s1, "one\n")
            }
            2 => Reply::write(&s2, "two\n"),
            _ => Reply::text("A: done. <promise>DONE</promise>"),
        }
    }));
    let a = {
        let (p, mock, bin) = (p.clone(), mock.clone(), bin.clone());
        std::thread::spawn(move || p.claude(&bin, &mock, &p.prompt))
    };
    // Session A has claimed the loop and been sent back to work.
    let start = Instant::now();
    while !mock.requests().iter().any(|r| reinjected(r).is_some()) {
        assert!(
            start.elapsed() < LIMIT,
            "session A never reached its first stop"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let owner = p.loop_state()["owner_session"].as_str().unwrap().to_owned();
    let b = p.claude(&bin, &mock, "Session B: what is 2 + 2?");
    let b_reqs: Vec<Value> = mock
        .requests()
        .into_iter()
        .filter(|r| first_user_text(r).contains("Session B"))
        .collect();
    assert_eq!(b_reqs.len(), 1, "session B was sent back: {b_reqs:?}");
    assert!(stdout(&b).contains("2 + 2 = 4"));
    let mid = p.loop_state();
    assert_eq!(mid["owner_session"], owner.as_str(), "B took the loop over");
    assert_eq!(
        (mid["iteration"].as_u64(), mid["status"].as_str()),
        (Some(1), Some("active"))
    );
    // Let A finish its loop.
    {
        let (m, c) = &*gate;
        *m.lock().unwrap() = true;
        c.notify_all();
    }
    a.join().expect("session A");
    assert_eq!(p.loop_state()["status"], "complete");
    assert_eq!(p.results(), ["continued", "complete"]);
    assert!(stdout(&b).contains("\"session_id\""));
    assert!(
        !stdout(&b).contains(&owner),
        "B ran under the owner's session id"
    );
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn d_the_iteration_cap_stops_the_loop() {
    let bin = claude_bin();
    let p = Project::start("2");
    let mock = MockModel::start(|req| {
        let k = assistant_turns(req);
        Reply::text(format!("Still thinking about it (pass {k})."))
    });
    let o = p.claude(&bin, &mock, &p.prompt);
    let reqs = mock.requests();
    assert_eq!(
        reqs.len(),
        3,
        "two iterations sent back, the third stop allowed"
    );
    assert!(reinjected(&reqs[1]).is_some() && reinjected(&reqs[2]).is_some());
    assert!(
        !Path::new(&p.path("work")).exists(),
        "the agent did nothing"
    );
    let st = p.loop_state();
    assert_eq!(
        (st["status"].as_str(), st["iteration"].as_u64()),
        (Some("max_iterations"), Some(2))
    );
    assert_eq!(p.results(), ["continued", "continued", "max iterations"]);
    assert!(
        stdout(&o).contains("stopped after 2 iterations"),
        "{}",
        stdout(&o)
    );
    p.assert_history_committed("max iterations", 3);
}
