//! `gsd ralph run`, the headless runner, from the CLI.
//!
//! With the real Claude Code CLI (when `GSD_CLAUDE` is set; `.ci/run` sets
//! it) against the scripted mock model: complete, stuck, max iterations, a
//! rate limit retried, a question, and the guard denying `sudo`. With small
//! shell agents (`--agent-cmd`), always: bad agents, bad plans, Ctrl+C and
//! `--resume`. Every event line is validated against the published schema.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::claude_cli::claude_bin;
use common::mock_model::{MockModel, Reply, assistant_turns, last_user_text};
use common::wait_limited;
use common::*;
use serde_json::Value;

fn run_cmd(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C").arg(dir).args(["ralph", "run"]).args(args);
    c
}

/// Run `gsd ralph run …` (at most 3 minutes) and parse its event lines,
/// each checked against the schema `--schema` prints.
fn events(o: &Output) -> Vec<Value> {
    let schema: Value = serde_json::from_slice(
        &Command::new(env!("CARGO_BIN_EXE_gsd"))
            .args(["ralph", "run", "--schema"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    stdout(o)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {l}\nstderr: {}", stderr(o)));
            let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
            assert!(
                errors.is_empty(),
                "{l}\ndoes not match the schema: {errors:?}"
            );
            v
        })
        .collect()
}

/// The run's event sequence and exit code are exactly these.
fn expect_run(o: &Output, ev: &[Value], sequence: &[&str], code: i32) {
    assert_eq!(names(ev), sequence, "{}\n{}", stdout(o), stderr(o));
    assert_eq!(o.status.code(), Some(code), "{}", stdout(o));
}

/// The run failed with this exit code and reason, and its message says `says`.
fn expect_failure(o: &Output, ev: &[Value], code: i32, reason: &str, says: &str) {
    assert_eq!(o.status.code(), Some(code), "{}", stdout(o));
    let f = last(ev);
    assert_eq!(
        (f["event"].as_str(), f["reason"].as_str()),
        (Some("failed"), Some(reason))
    );
    let message = f["message"].as_str().unwrap();
    assert!(message.contains(says), "{message}");
}

fn names(ev: &[Value]) -> Vec<String> {
    ev.iter()
        .map(|e| e["event"].as_str().unwrap().to_owned())
        .collect()
}

fn last(ev: &[Value]) -> &Value {
    ev.last().expect("at least one event")
}

/// `gsd ralph run 02-02 --headless EXTRA…` and its checked events.
fn run_plan(dir: &Path, extra: &[&str]) -> (Output, Vec<Value>) {
    let mut args = vec!["02-02", "--headless"];
    args.extend_from_slice(extra);
    let o = run(run_cmd(dir, &args));
    let ev = events(&o);
    (o, ev)
}

fn run(c: Command) -> Output {
    wait_limited(c, Duration::from_secs(180))
}

// ---- with small shell agents -------------------------------------------------

/// `sh SCRIPT` for an agent script kept outside the project (its work tree
/// must stay clean).
fn agent_script(body: &str) -> String {
    let dir = std::env::temp_dir().join(format!("gsd-agents-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static N: AtomicUsize = AtomicUsize::new(0);
    let path = dir.join(format!("agent-{}.sh", N.fetch_add(1, Ordering::SeqCst)));
    std::fs::write(&path, body).unwrap();
    format!("sh {}", path.display())
}

/// A stream-json agent that prints one result with `text`.
fn echo_agent(text: &str) -> String {
    let line = serde_json::json!({"type": "result", "subtype": "success", "is_error": false, "result": text, "total_cost_usd": 0.25, "usage": {"input_tokens": 10, "output_tokens": 5}});
    agent_script(&format!("cat > /dev/null\ncat <<'EOF'\n{line}\nEOF\n"))
}

#[test]
fn an_agent_that_does_the_work_and_keeps_the_promise_completes() {
    let t = step_project();
    // Writes both files, commits, claims the promise.
    let agent = agent_script(
        "cat > /dev/null; mkdir -p work; echo one > work/step1.txt; echo two > work/step2.txt\n\
         git add work; git commit -qm 'steps'\n\
         echo '{\"type\":\"result\",\"result\":\"done <promise>DONE</promise>\",\"total_cost_usd\":0.5,\"usage\":{\"input_tokens\":3,\"output_tokens\":4}}'\n",
    );
    let (o, ev) = run_plan(t.path(), &["--agent-cmd", &agent]);
    expect_run(
        &o,
        &ev,
        &[
            "started",
            "iteration",
            "commit",
            "task_complete",
            "task_complete",
            "iteration_done",
            "verification",
            "complete",
        ],
        0,
    );
    assert_eq!(ev[2]["message"], "steps");
    assert_eq!(
        ev[1]["model"], "claude-haiku-4-5",
        "task 1's model attribute"
    );
    assert_eq!(ev[5]["cost_usd"], 0.5);
    assert_eq!(ev[5]["tokens"]["output"], 4);
    assert_eq!(last(&ev)["tasks_done"], 2);
    // STATE.md records the run in one commit; per-iteration logs exist.
    assert!(git(t.path(), &["log", "-1", "--format=%s"]).contains("Ralph loop on 02-02 complete"));
    let loop_id = ev[0]["loop_id"].as_str().unwrap();
    let logs = t.path().join(".gsd/ralph/logs").join(loop_id);
    assert!(logs.join("iteration-001-attempt-1.log").exists());
    assert_eq!(
        std::fs::read_to_string(logs.join("events.jsonl"))
            .unwrap()
            .lines()
            .count(),
        ev.len()
    );
}

#[test]
fn a_missing_agent_a_failing_agent_and_non_json_output_end_clearly() {
    let t = step_project();
    let (o, ev) = run_plan(t.path(), &["--agent-cmd", "no-such-agent --flag"]);
    assert_eq!(
        (names(&ev), o.status.code()),
        (vec!["failed".to_owned()], Some(3))
    );
    assert_eq!(ev[0]["reason"], "preflight");
    assert!(
        ev[0]["problems"][0]
            .as_str()
            .unwrap()
            .contains("`no-such-agent` was not found")
    );
    // The default agent, with a claude binary that does not exist.
    let (o, ev) = run_plan(t.path(), &["--claude", "/nonexistent/claude"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        ev[0]["problems"][0]
            .as_str()
            .unwrap()
            .contains("did not run"),
        "{ev:?}"
    );

    let (o, ev) = run_plan(t.path(), &["--agent-cmd", "sh -c 'echo boom >&2; exit 7'"]);
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        names(&ev).iter().filter(|e| *e == "iteration_done").count(),
        3
    );
    assert_eq!(last(&ev)["reason"], "agent_failed");
    assert!(
        last(&ev)["message"]
            .as_str()
            .unwrap()
            .contains("exit code 7): boom")
    );

    let (o, ev) = run_plan(t.path(), &["--agent-cmd", "echo I am not JSON"]);
    expect_failure(&o, &ev, 3, "bad_output", "I am not JSON");
    // The same agent declared as text is fine (and is stuck, doing nothing).
    let o = run(run_cmd(
        t.path(),
        &[
            "02-02",
            "--headless",
            "--agent-cmd",
            "echo I am plain text",
            "--agent-format",
            "text",
        ],
    ));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert_eq!(last(&events(&o))["event"], "stuck");
}

#[test]
fn preflight_lists_every_problem_at_once() {
    let t = step_project();
    // A plan that does not lint, a dirty tree, and another Ralph Stop hook.
    let plan = t.path().join(".planning/phases/02-api/02-02-PLAN.md");
    let text = std::fs::read_to_string(&plan)
        .unwrap()
        .replace("wave: 1", "wave: [broken");
    std::fs::write(&plan, text).unwrap();
    std::fs::create_dir_all(t.path().join(".claude")).unwrap();
    std::fs::write(
        t.path().join(".claude/settings.json"),
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/hooks/stop-hook.sh"}]}]}}"#,
    )
    .unwrap();
    let (o, ev) = run_plan(t.path(), &["--agent-cmd", "true"]);
    assert_eq!(o.status.code(), Some(3));
    let problems: Vec<&str> = ev[0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0].contains("does not lint") && problems[0].contains("02-02-PLAN.md"));
    assert!(problems[1].contains("uncommitted change"));
    assert!(problems[2].contains("stop-hook.sh"));
    assert!(
        !t.path().join(".gsd/ralph/loop.json").exists(),
        "nothing was started"
    );
    // A plan without checks could only end on the model's word.
    let o = run(run_cmd(
        t.path(),
        &[
            "02-01",
            "--headless",
            "--agent-cmd",
            "true",
            "--allow-dirty",
        ],
    ));
    let ev = events(&o);
    assert_eq!(o.status.code(), Some(3));
    let problems = ev[0]["problems"].as_array().unwrap();
    assert!(
        problems
            .iter()
            .any(|p| p.as_str().unwrap().contains("declares no checks")),
        "{problems:?}"
    );
}

#[test]
fn ctrl_c_pauses_and_resume_continues() {
    let t = step_project();
    let mut child = spawn_run(
        t.path(),
        &["02-02", "--headless", "--agent-cmd", "sleep 60"],
    );
    // Wait for the first iteration to start, then press Ctrl+C.
    let log_dir = t.path().join(".gsd/ralph/logs");
    wait_for("the first iteration's log", || {
        std::fs::read_dir(&log_dir)
            .ok()
            .into_iter()
            .flatten()
            .flatten()
            .any(|d| d.path().join("iteration-001-attempt-1.log").exists())
    });
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = wait_limited_child(&mut child);
    let ev = events(&o);
    let paused_loop = ev[0]["loop_id"].clone();
    assert!(paused_loop.is_string(), "{ev:?}");
    assert_eq!(o.status.code(), Some(130));
    assert_eq!(last(&ev)["reason"], "interrupted");
    let st = json(&gsd(t.path(), &["ralph", "status", "--json"]));
    assert_eq!(st["loop"]["status"], "paused");
    assert_eq!(st["loop"]["runner"], true);
    let human = stdout(&gsd(t.path(), &["ralph", "status"]));
    assert!(
        human.contains(": paused, iteration 0/20") && human.contains("run by `gsd ralph run`"),
        "{human}"
    );
    assert_eq!(st["loop"]["iteration"], 0);
    // --resume picks the same loop up and finishes it.
    std::fs::create_dir_all(t.path().join("work")).unwrap();
    std::fs::write(t.path().join("work/step1.txt"), "one\n").unwrap();
    std::fs::write(t.path().join("work/step2.txt"), "two\n").unwrap();
    let o = run(run_cmd(
        t.path(),
        &[
            "--resume",
            "--headless",
            "--agent-cmd",
            &echo_agent("<promise>DONE</promise>"),
        ],
    ));
    let ev = events(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(ev[0]["resumed"], true);
    assert_eq!(ev[0]["loop_id"], paused_loop, "the same loop is resumed");
    assert_eq!(last(&ev)["event"], "complete");
    // Nothing left to resume.
    let o = run(run_cmd(t.path(), &["--resume", "--headless"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a paused"));
}

#[test]
fn gsd_ralph_stop_from_outside_ends_the_run_between_iterations() {
    let t = step_project();
    let agent = agent_script(
        "cat > /dev/null; sleep 1; echo '{\"type\":\"result\",\"result\":\"still going\"}'\n",
    );
    let mut child = spawn_run(
        t.path(),
        &[
            "02-02",
            "--headless",
            "--agent-cmd",
            &agent,
            "--stuck-threshold",
            "20",
        ],
    );
    let state = t.path().join(".gsd/ralph/loop.json");
    wait_for("the loop state", || state.exists());
    let o = gsd(t.path(), &["ralph", "stop"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = wait_limited_child(&mut child);
    let ev = events(&o);
    assert_eq!(
        o.status.code(),
        Some(130),
        "{}\n{:?}",
        stderr(&o),
        names(&ev)
    );
    assert_eq!(last(&ev)["reason"], "stopped");
    assert!(names(&ev).iter().filter(|e| *e == "iteration").count() <= 2);
    let st = json(&gsd(t.path(), &["ralph", "status", "--json"]));
    assert_eq!(st["loop"]["status"], "stopped");
}

/// Start `gsd ralph run` in the background, its output piped.
fn spawn_run(dir: &Path, args: &[&str]) -> std::process::Child {
    run_cmd(dir, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Poll until `ready` holds, failing the test after 30 s.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{what} did not appear within 30 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Wait (at most 30 s) for a spawned run to end and collect its stdout.
fn wait_limited_child(child: &mut std::process::Child) -> Output {
    wait_for("the runner's exit", || child.try_wait().unwrap().is_some());
    let mut out = String::new();
    use std::io::Read;
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    Output {
        status,
        stdout: out.into_bytes(),
        stderr: Vec::new(),
    }
}

#[test]
fn a_hanging_agent_is_killed_at_the_iteration_timeout() {
    let t = step_project();
    // It ignores SIGTERM too: SIGKILL follows five seconds later.
    let agent = agent_script("trap '' TERM\nsleep 60 & wait; sleep 60\n");
    let start = std::time::Instant::now();
    let (o, ev) = run_plan(
        t.path(),
        &[
            "--agent-cmd",
            &agent,
            "--iteration-timeout",
            "1",
            "--stuck-threshold",
            "1",
        ],
    );
    expect_run(
        &o,
        &ev,
        &["started", "iteration", "iteration_done", "stuck"],
        1,
    );
    assert_eq!(ev[2]["timed_out"], true);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

/// Its background child (a dev server, a watcher) keeps the agent's stdout
/// open; the iteration ends with the agent all the same, and the child goes.
#[test]
fn a_background_child_holding_stdout_does_not_hold_the_iteration() {
    let t = step_project();
    let marker = format!("gsd-bg-child-{}", std::process::id());
    let agent = agent_script(&format!(
        "cat > /dev/null; mkdir -p work; echo one > work/step1.txt; echo two > work/step2.txt\n\
         sh -c 'sleep 600' {marker} &\n\
         echo '{{\"type\":\"result\",\"result\":\"done <promise>DONE</promise>\"}}'\n"
    ));
    // The limit is far below the child's 600 s: the run must not wait for it.
    let mut c = run_cmd(t.path(), &["02-02", "--headless", "--agent-cmd", &agent]);
    c.env("GSD_TEST_MARKER", &marker);
    let o = wait_limited(c, Duration::from_secs(120));
    let ev = events(&o);
    assert_eq!(last(&ev)["event"], "complete", "{}", stdout(&o));
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(&marker))
        .collect();
    assert!(left.is_empty(), "the agent's child outlived it: {left:?}");
}

/// Writing the same bytes again is not progress: the file's modification
/// time changes, its content does not.
#[test]
fn rewriting_the_same_bytes_is_stuck() {
    let t = step_project();
    let agent = agent_script(
        "cat > /dev/null; mkdir -p work; echo wrong > work/step1.txt\n\
         echo '{\"type\":\"result\",\"result\":\"still on it\"}'\n",
    );
    let (o, ev) = run_plan(
        t.path(),
        &[
            "--agent-cmd",
            &agent,
            "--stuck-threshold",
            "2",
            "--max-iterations",
            "6",
        ],
    );
    let progress: Vec<bool> = ev
        .iter()
        .filter(|e| e["event"] == "iteration_done")
        .map(|e| e["progress"].as_bool().unwrap())
        .collect();
    // The first write is a change; the two after it are not.
    assert_eq!(progress, [true, false, false], "{}", stdout(&o));
    assert_eq!(last(&ev)["event"], "stuck", "{}", stdout(&o));
    assert_eq!(o.status.code(), Some(1));
}

/// Files that keep changing while the same checks keep failing: stuck, as
/// the Stop hook judges it, not a loop that runs to its cap.
#[test]
fn the_same_failing_checks_with_changing_files_are_stuck() {
    let t = step_project();
    let agent = agent_script(
        "cat > /dev/null; mkdir -p work; date +%s%N >> work/scratch.txt\n\
         echo '{\"type\":\"result\",\"result\":\"done <promise>DONE</promise>\"}'\n",
    );
    let (o, ev) = run_plan(
        t.path(),
        &[
            "--agent-cmd",
            &agent,
            "--stuck-threshold",
            "2",
            "--max-iterations",
            "6",
            "--allow-dirty",
        ],
    );
    let stuck = last(&ev);
    assert_eq!(stuck["event"], "stuck", "{}", stdout(&o));
    assert!(
        stuck["reason"]
            .as_str()
            .unwrap()
            .contains("the same checks failing each time"),
        "{stuck}"
    );
    // Iteration 1 changed files and failed; 2 and 3 failed the same way.
    assert_eq!(stuck["n"], 3, "{stuck}");
}

#[test]
fn a_question_ends_the_run_for_a_human() {
    let t = step_project();
    let (o, ev) = run_plan(
        t.path(),
        &[
            "--agent-cmd",
            &echo_agent("Which database should I use, Postgres or SQLite?"),
        ],
    );
    expect_failure(&o, &ev, 4, "question", "Postgres or SQLite?");
}

#[test]
fn the_budget_stops_the_run() {
    let t = step_project();
    let (o, ev) = run_plan(
        t.path(),
        &[
            "--max-budget-usd",
            "0.4",
            "--agent-cmd",
            &echo_agent("working"),
        ],
    );
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(last(&ev)["reason"], "budget");
    assert_eq!(
        names(&ev).iter().filter(|e| *e == "iteration").count(),
        2,
        "0.25 + 0.25 > 0.4"
    );
}

/// `gsd ralph report --json`: every total is the sum of the runs'
/// `iteration_done` events, per task, plan, phase and overall.
#[test]
fn the_report_totals_are_the_sums_of_the_iterations() {
    let t = step_project();
    // Iteration 1 writes step 1, 2 does nothing, 3 writes step 2 and claims.
    let agent = agent_script(
        "cat > /dev/null; mkdir -p work\n\
         case $GSD_ITERATION in\n\
           1) echo one > work/step1.txt; c=0.5; i=100; o=10 ;;\n\
           2) c=0.25; i=50; o=5 ;;\n\
           *) echo two > work/step2.txt; c=0.125; i=30; o=3 ;;\n\
         esac\n\
         printf '{\"type\":\"result\",\"result\":\"%s\",\"total_cost_usd\":%s,\"usage\":{\"input_tokens\":%s,\"output_tokens\":%s}}\\n' \"$( [ $GSD_ITERATION -ge 3 ] && echo '<promise>DONE</promise>' || echo working)\" $c $i $o\n",
    );
    let (o, first) = run_plan(
        t.path(),
        &[
            "--agent-cmd",
            &agent,
            "--allow-dirty",
            "--stuck-threshold",
            "5",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    // A second run of the same plan, stopped by its budget.
    let (o, second) = run_plan(
        t.path(),
        &[
            "--force",
            "--max-budget-usd",
            "0.3",
            "--allow-dirty",
            "--agent-cmd",
            &echo_agent("working"),
        ],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));

    let done: Vec<&Value> = first
        .iter()
        .chain(second.iter())
        .filter(|e| e["event"] == "iteration_done")
        .collect();
    let sum = |f: &dyn Fn(&Value) -> f64| done.iter().map(|e| f(e)).sum::<f64>();
    let usd = sum(&|e| e["cost_usd"].as_f64().unwrap());
    let ms = sum(&|e| e["duration_ms"].as_f64().unwrap());
    let tin = sum(&|e| e["tokens"]["input"].as_f64().unwrap());

    let r = json(&gsd(t.path(), &["ralph", "report", "--json"]));
    let total = &r["total"];
    assert_eq!(total["iterations"].as_u64().unwrap() as usize, done.len());
    assert!(
        (total["cost_usd"].as_f64().unwrap() - usd).abs() < 1e-9,
        "{r}"
    );
    assert_eq!(total["duration_ms"].as_f64().unwrap(), ms);
    assert_eq!(total["input_tokens"].as_f64().unwrap(), tin);
    assert_eq!(r["phases"].as_array().unwrap().len(), 1);
    let phase = &r["phases"][0];
    assert_eq!(phase["phase"], "02");
    assert_eq!(phase["cost_usd"], total["cost_usd"]);
    let plan = &phase["plans"][0];
    assert_eq!(
        (plan["plan"].as_str(), plan["loops"].as_u64()),
        (Some("02-02"), Some(2))
    );
    assert_eq!(plan["outcome"], "failed: budget", "the last run's end");
    // Task 1 took iteration 1; task 2 took iterations 2 and 3; the budget
    // run completed no task.
    let tasks = plan["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 2, "{plan}");
    assert_eq!(tasks[0]["iterations"], 1);
    assert_eq!(tasks[0]["cost_usd"], 0.5);
    assert_eq!(tasks[1]["iterations"], 2);
    assert_eq!(tasks[1]["cost_usd"], 0.375);
    let parts = tasks
        .iter()
        .map(|t| t["cost_usd"].as_f64().unwrap())
        .sum::<f64>()
        + plan["no_task"]["cost_usd"].as_f64().unwrap();
    assert!((parts - usd).abs() < 1e-9);
    // The human table says the same.
    let table = stdout(&gsd(t.path(), &["ralph", "report"]));
    assert!(
        table.contains("plan 02-02 (failed: budget)") && table.contains("total"),
        "{table}"
    );
}

#[test]
fn no_runs_yet_is_said_plainly() {
    let t = step_project();
    let o = gsd(t.path(), &["ralph", "report"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("no runs recorded yet"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        json(&gsd(t.path(), &["ralph", "report", "--json"]))["total"]["iterations"],
        0
    );
}

/// A stream-json agent that hits a usage limit resetting `secs` from now
/// on its first attempt, and does the work on the next.
fn usage_limited_agent(secs: i64, marker: &Path) -> String {
    agent_script(&format!(
        "cat > /dev/null\n\
         if [ ! -e {m} ]; then touch {m}\n\
           echo '{{\"type\":\"rate_limit_event\",\"rate_limit_info\":{{\"status\":\"rejected\",\"resetsAt\":'$(( $(date +%s) + {secs} ))',\"rateLimitType\":\"five_hour\"}}}}'\n\
           echo '{{\"type\":\"result\",\"is_error\":true,\"api_error_status\":429,\"result\":\"You have hit your 5-hour limit\",\"total_cost_usd\":0}}'\n\
           exit 1\n\
         fi\n\
         mkdir -p work; echo one > work/step1.txt; echo two > work/step2.txt; git add work; git commit -qm steps\n\
         echo '{{\"type\":\"result\",\"result\":\"done <promise>DONE</promise>\",\"total_cost_usd\":0.1}}'\n",
        m = marker.display()
    ))
}

fn ts_ms(e: &Value) -> i64 {
    e["ts"]
        .as_str()
        .unwrap()
        .parse::<jiff::Timestamp>()
        .unwrap()
        .as_millisecond()
}

/// A usage limit with a reset time 2 s ahead: the run waits until then and
/// runs the same iteration again; a reset past `--max-wait` pauses the run.
#[test]
fn a_usage_limit_is_waited_out_and_the_same_iteration_runs_again() {
    let t = step_project();
    let marker = t.path().join(".git/limit-hit");
    let (o, ev) = run_plan(t.path(), &["--agent-cmd", &usage_limited_agent(2, &marker)]);
    expect_run(
        &o,
        &ev,
        &[
            "started",
            "iteration",
            "usage_limit",
            "iteration",
            "commit",
            "task_complete",
            "task_complete",
            "iteration_done",
            "verification",
            "complete",
        ],
        0,
    );
    let limit = &ev[2];
    assert_eq!(limit["n"], 1);
    assert_eq!(limit["limit"], "five_hour");
    let wait = limit["wait_ms"].as_i64().unwrap();
    assert!((1000..=3100).contains(&wait), "{limit}");
    assert_eq!(ev[3]["n"], 1, "the same iteration again");
    let waited = ts_ms(&ev[3]) - ts_ms(limit);
    assert!(waited >= wait - 50, "waited {waited} ms of {wait}");
    assert_eq!(last(&ev)["iterations"], 1);

    let t = step_project();
    let marker = t.path().join(".git/limit-hit");
    let (o, ev) = run_plan(
        t.path(),
        &[
            "--max-wait",
            "60",
            "--agent-cmd",
            &usage_limited_agent(3600, &marker),
        ],
    );
    expect_failure(
        &o,
        &ev,
        3,
        "usage_limit",
        "later than --max-wait allows (60 s)",
    );
    let status = json(&gsd(t.path(), &["ralph", "status", "--json"]));
    assert_eq!(
        status["loop"]["status"], "paused",
        "--resume continues after the reset"
    );
}

/// `--notify CMD` runs on the run's end with the event on stdin and its kind
/// in GSD_EVENT; a question is told as `question`.
#[test]
fn notify_runs_on_complete_and_on_a_question() {
    let out = tempfile::tempdir().unwrap();
    let notify = format!(
        "cat > {0}/$GSD_EVENT.json; echo $GSD_EVENT >> {0}/kinds",
        out.path().display()
    );
    let t = step_project();
    let agent = agent_script(
        "cat > /dev/null; mkdir -p work; echo one > work/step1.txt; echo two > work/step2.txt\n\
         git add work; git commit -qm 'steps'\n\
         echo '{\"type\":\"result\",\"result\":\"done <promise>DONE</promise>\",\"total_cost_usd\":0.5,\"usage\":{\"input_tokens\":3,\"output_tokens\":4}}'\n",
    );
    let (o, ev) = run_plan(t.path(), &["--agent-cmd", &agent, "--notify", &notify]);
    assert_eq!(o.status.code(), Some(0));
    let told: Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("complete.json")).unwrap())
            .unwrap();
    assert_eq!(
        &told,
        last(&ev),
        "the notify command got the complete event"
    );

    let t = step_project();
    let (o, ev) = run_plan(
        t.path(),
        &[
            "--agent-cmd",
            &echo_agent("Should I use Postgres?"),
            "--notify",
            &notify,
        ],
    );
    assert_eq!(o.status.code(), Some(4));
    let told: Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("question.json")).unwrap())
            .unwrap();
    assert_eq!(told["reason"], "question");
    assert_eq!(&told, last(&ev));
    // Nothing else was notified: no iteration, no tool event.
    assert_eq!(
        std::fs::read_to_string(out.path().join("kinds")).unwrap(),
        "complete\nquestion\n"
    );
}

// ---- with the real Claude Code CLI --------------------------------------------

/// The real CLI, logged in (an OAuth token, so it reads the usage-limit
/// headers), is told its 5-hour limit resets 3 s from now: gsd waits about
/// 3 s and the same iteration completes.
#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn claude_at_its_usage_limit_is_waited_out_and_completes() {
    let bin = claude_bin();
    let t = step_project();
    let home = tempfile::tempdir().unwrap();
    let resets_at = jiff::Timestamp::now().as_second() + 3;
    let (s1, s2) = (
        t.path().join("work/step1.txt"),
        t.path().join("work/step2.txt"),
    );
    let limited = Arc::new(AtomicUsize::new(0));
    let l = limited.clone();
    let mock = MockModel::start(move |req| {
        if l.fetch_add(1, Ordering::SeqCst) == 0 {
            return Reply::UsageLimit { resets_at };
        }
        match assistant_turns(req) {
            0 => Reply::write(&s1, "one\n"),
            1 => Reply::write(&s2, "two\n"),
            _ => Reply::text("Both written. <promise>DONE</promise>"),
        }
    });
    let mut args = vec![
        "02-02",
        "--headless",
        "--claude",
        bin.to_str().unwrap(),
        "--allow-dirty",
    ];
    args.extend(["--stuck-threshold", "3"]);
    let mut c = run_cmd(t.path(), &args);
    common::claude_cli::runner_env(&mut c, home.path(), &mock.url);
    // Logged in with an OAuth token, the CLI reads the usage-limit headers.
    c.env_remove("ANTHROPIC_API_KEY")
        .env("CLAUDE_CODE_OAUTH_TOKEN", "sk-ant-oat01-mock");
    let o = run(c);
    let ev = events(&o);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    let limit = ev
        .iter()
        .find(|e| e["event"] == "usage_limit")
        .expect("a usage_limit event");
    assert_eq!(limit["limit"], "five_hour");
    let wait = limit["wait_ms"].as_i64().unwrap();
    assert!((1500..=4100).contains(&wait), "about 3 s: {limit}");
    let next = ev
        .iter()
        .skip_while(|e| e["event"] != "usage_limit")
        .find(|e| e["event"] == "iteration")
        .unwrap();
    assert_eq!(next["n"], 1, "the same iteration again");
    assert!(ts_ms(next) - ts_ms(limit) >= wait - 50);
    assert_eq!(last(&ev)["event"], "complete");
}

/// `gsd ralph run` driving the real `claude` against `mock`.
fn claude_run(bin: &Path, t: &Path, home: &Path, mock: &MockModel, extra: &[&str]) -> Output {
    let mut args = vec![
        "02-02",
        "--headless",
        "--claude",
        bin.to_str().unwrap(),
        "--allowed-tool",
        "Bash",
        "--backoff-ms",
        "20",
    ];
    args.extend_from_slice(extra);
    let mut c = run_cmd(t, &args);
    common::claude_cli::runner_env(&mut c, home, &mock.url);
    run(c)
}

/// Which fresh session (0-based) a request belongs to: sessions run one
/// after another, and each starts with no assistant turn.
fn session_counter() -> Arc<AtomicUsize> {
    Arc::new(AtomicUsize::new(0))
}

fn session_of(counter: &AtomicUsize, req: &Value) -> usize {
    if assistant_turns(req) == 0 {
        counter.fetch_add(1, Ordering::SeqCst)
    } else {
        counter.load(Ordering::SeqCst) - 1
    }
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn claude_two_iterations_with_tools_and_a_commit_then_complete() {
    let bin = claude_bin();
    let t = step_project();
    let home = tempfile::tempdir().unwrap();
    let (s1, s2) = (
        t.path().join("work/step1.txt"),
        t.path().join("work/step2.txt"),
    );
    let sessions = session_counter();
    let p1 = s1.clone();
    let mock =
        MockModel::start(
            move |req| match (session_of(&sessions, req), assistant_turns(req)) {
                (0, 0) => Reply::write(&p1, "one\n"),
                (0, _) => Reply::text("Step one is written."),
                (1, 0) => Reply::write(&s2, "two\n"),
                (1, 1) => Reply::bash("git add work && git commit -qm 'feat: both steps'"),
                _ => Reply::text("Both steps are written and committed. <promise>DONE</promise>"),
            },
        );
    let o = claude_run(&bin, t.path(), home.path(), &mock, &[]);
    let ev = events(&o);
    assert_eq!(
        names(&ev),
        [
            "started",
            "iteration",
            "tool",
            "task_complete",
            "iteration_done",
            "iteration",
            "tool",
            "tool",
            "commit",
            "task_complete",
            "iteration_done",
            "verification",
            "complete"
        ],
        "{}\n{}",
        stdout(&o),
        stderr(&o)
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        (ev[2]["type"].as_str(), ev[2]["path"].as_str()),
        (Some("write"), s1.to_str())
    );
    assert_eq!(ev[7]["type"], "bash");
    assert_eq!(ev[8]["message"], "feat: both steps");
    assert_eq!(ev[1]["model"], "claude-haiku-4-5");
    assert_ne!(
        ev[1]["session_id"], ev[5]["session_id"],
        "a fresh session per iteration"
    );
    assert!(ev[4]["cost_usd"].as_f64().unwrap() > 0.0);
    // Each session was given the loop prompt on stdin.
    let reqs = mock.requests();
    assert_eq!(reqs.len(), 5);
    assert!(last_user_text(&reqs[0]).contains("# Ralph loop: plan 02-02"));
    assert!(last_user_text(&reqs[2]).contains("# Ralph loop: plan 02-02"));
    assert_eq!(
        std::fs::read_to_string(t.path().join("work/step2.txt")).unwrap(),
        "two\n"
    );
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn claude_doing_nothing_is_stuck() {
    let bin = claude_bin();
    let t = step_project();
    let home = tempfile::tempdir().unwrap();
    let mock = MockModel::start(|_| Reply::text("I have looked around; nothing to do yet."));
    let o = claude_run(
        &bin,
        t.path(),
        home.path(),
        &mock,
        &["--stuck-threshold", "2"],
    );
    let ev = events(&o);
    expect_run(
        &o,
        &ev,
        &[
            "started",
            "iteration",
            "iteration_done",
            "iteration",
            "iteration_done",
            "stuck",
        ],
        1,
    );
    assert_eq!(last(&ev)["iterations_without_progress"], 2);
    assert_eq!(mock.requests().len(), 2);
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn claude_making_progress_without_finishing_hits_max_iterations() {
    let bin = claude_bin();
    let t = step_project();
    let home = tempfile::tempdir().unwrap();
    let dir = t.path().join("work");
    let sessions = session_counter();
    let mock = MockModel::start(move |req| {
        let s = session_of(&sessions, req);
        match assistant_turns(req) {
            0 => Reply::write(&dir.join(format!("note{s}.txt")), "more\n"),
            _ => Reply::text(format!("Wrote note {s}.")),
        }
    });
    let o = claude_run(
        &bin,
        t.path(),
        home.path(),
        &mock,
        &["--max-iterations", "2"],
    );
    let ev = events(&o);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(
        names(&ev),
        [
            "started",
            "iteration",
            "tool",
            "iteration_done",
            "iteration",
            "tool",
            "iteration_done",
            "failed"
        ]
    );
    assert_eq!(last(&ev)["reason"], "max_iterations");
    assert!(
        ev.iter()
            .filter(|e| e["event"] == "iteration_done")
            .all(|e| e["progress"] == true)
    );
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn claude_rate_limited_twice_is_retried_and_completes() {
    let bin = claude_bin();
    let t = step_project();
    std::fs::create_dir_all(t.path().join("work")).unwrap();
    std::fs::write(t.path().join("work/step1.txt"), "one\n").unwrap();
    std::fs::write(t.path().join("work/step2.txt"), "two\n").unwrap();
    git(t.path(), &["add", "work"]);
    git(t.path(), &["commit", "-qm", "work"]);
    let home = tempfile::tempdir().unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let mock = MockModel::start(move |_| {
        if calls.fetch_add(1, Ordering::SeqCst) < 2 {
            Reply::Error {
                status: 429,
                kind: "rate_limit_error".into(),
            }
        } else {
            Reply::text("All checks should pass. <promise>DONE</promise>")
        }
    });
    let o = claude_run(&bin, t.path(), home.path(), &mock, &[]);
    let ev = events(&o);
    expect_run(
        &o,
        &ev,
        &[
            "started",
            "iteration",
            "rate_limited",
            "iteration",
            "rate_limited",
            "iteration",
            "iteration_done",
            "verification",
            "complete",
        ],
        0,
    );
    // Both tasks passed before the run: done from the start, not progress of iteration 1.
    assert_eq!(ev[0]["tasks_done"], 2);
    assert_eq!(
        (ev[2]["status"].as_u64(), ev[2]["attempt"].as_u64()),
        (Some(429), Some(1))
    );
    assert!(
        ev[4]["delay_ms"].as_u64().unwrap() >= 40,
        "the delay doubles: {}",
        ev[4]
    );
    assert!(
        ev.iter()
            .filter(|e| e["event"] == "iteration")
            .all(|e| e["n"] == 1),
        "retries are not iterations"
    );
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn claude_is_denied_sudo_by_the_guard_and_sees_why() {
    let bin = claude_bin();
    let t = step_project();
    let o = gsd(t.path(), &["ralph", "install-hooks", "--guard"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The hooks file is the user's to commit; the runner needs a clean tree.
    git(t.path(), &["add", ".claude"]);
    git(t.path(), &["commit", "-qm", "hooks"]);
    let home = tempfile::tempdir().unwrap();
    let mock = MockModel::start(|req| match assistant_turns(req) {
        0 => Reply::bash("cd /tmp && sudo rm -rf /var/cache/app"),
        _ => Reply::text("The guard refused sudo, so I stopped."),
    });
    let o = claude_run(
        &bin,
        t.path(),
        home.path(),
        &mock,
        &["--max-iterations", "1"],
    );
    let ev = events(&o);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let tool = ev
        .iter()
        .find(|e| e["event"] == "tool")
        .expect("the Bash call is reported");
    assert_eq!(tool["command"], "cd /tmp && sudo rm -rf /var/cache/app");
    // The agent's next request carries the guard's reason as the tool result.
    let reqs = mock.requests();
    // gsd's Stop hook is installed too, and stays out of the runner's session.
    assert_eq!(
        reqs.len(),
        2,
        "the Stop hook sent the runner's session back"
    );
    let result = last_user_text(&reqs[1]);
    assert!(
        result.contains("gsd guard: `sudo` escalates privileges"),
        "{result}"
    );
}

// ---- a second agent CLI: Gemini CLI, through its built-in adapter ------------

/// `gsd ralph run --agent gemini` drives the real Gemini CLI against a
/// scripted Gemini API: the first turn runs a shell command that writes both
/// steps and commits, the second claims the promise; the adapter reads the
/// tool call, the text and the token counts from Gemini's own stream-json.
#[test]
#[cfg_attr(
    not(gsd_gemini),
    ignore = "needs the Gemini CLI in GSD_GEMINI (bash .ci/test installs it)"
)]
fn gemini_completes_a_plan_through_its_adapter() {
    use common::mock_gemini::{GeminiReply, MockGemini, model_turns};
    let gemini = std::env::var("GSD_GEMINI").expect("GSD_GEMINI is set");
    let t = step_project();
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".gemini")).unwrap();
    std::fs::write(
        home.path().join(".gemini/settings.json"),
        r#"{"security":{"auth":{"selectedType":"gemini-api-key"},"folderTrust":{"enabled":false}}}"#,
    )
    .unwrap();
    let mock = MockGemini::start(|req| {
        match model_turns(req) {
        0 => GeminiReply::Shell(
            "mkdir -p work && echo one > work/step1.txt && echo two > work/step2.txt && git add work && git commit -qm 'steps by gemini'".into(),
        ),
        _ => GeminiReply::Text("Both steps are written. <promise>DONE</promise>".into()),
    }
    });
    let mut c = run_cmd(
        t.path(),
        &[
            "02-02",
            "--headless",
            "--agent",
            "gemini",
            "--gemini",
            &gemini,
            "--model",
            "gemini-2.5-pro",
        ],
    );
    c.env("HOME", home.path())
        .env("GEMINI_API_KEY", "mock-key")
        .env("GOOGLE_GEMINI_BASE_URL", &mock.url)
        .env("GIT_AUTHOR_NAME", "agent")
        .env("GIT_AUTHOR_EMAIL", "agent@example.com")
        .env("GIT_COMMITTER_NAME", "agent")
        .env("GIT_COMMITTER_EMAIL", "agent@example.com");
    let o = run(c);
    let ev = events(&o);
    expect_run(
        &o,
        &ev,
        &[
            "started",
            "iteration",
            "tool",
            "commit",
            "task_complete",
            "task_complete",
            "iteration_done",
            "verification",
            "complete",
        ],
        0,
    );
    assert_eq!(ev[1]["model"], "gemini-2.5-pro");
    assert_eq!(ev[2]["type"], "bash");
    assert_eq!(ev[2]["name"], "run_shell_command");
    assert!(ev[2]["command"].as_str().unwrap().contains("step1.txt"));
    assert_eq!(ev[3]["message"], "steps by gemini");
    assert_eq!(
        ev[6]["tokens"]["input"], 200,
        "the adapter reads Gemini's token stats"
    );
    assert_eq!(ev[6]["tokens"]["output"], 10);
    // Model and session as the CLI itself reported them.
    assert_eq!(ev[6]["agent_model"], "gemini-2.5-pro");
    assert!(
        ev[6]["agent_session"]
            .as_str()
            .is_some_and(|s| s.len() >= 32),
        "{}",
        ev[6]
    );
    // The loop prompt reached the model, and the model the CLI was given.
    let reqs = mock.requests();
    assert_eq!(reqs.len(), 2);
    assert!(reqs[0].to_string().contains("# Ralph loop: plan 02-02"));
}
