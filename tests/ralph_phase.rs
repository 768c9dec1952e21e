//! `gsd ralph run --phase N`: the plans of a phase in wave order, each a
//! loop; a completed plan gets its SUMMARY.md (lint-clean), STATE advances
//! and the roadmap's progress is updated, one commit each; a failing plan
//! skips its dependants. With small shell agents (the real Claude Code CLI
//! runs one plan in tests/ralph_run.rs).

mod common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use common::*;
use serde_json::Value;

/// A plan of phase 13 whose one task writes `file` and checks it.
fn plan(n: &str, wave: u32, deps: &str, file: &str) -> String {
    work_plan("13-work", n, wave, deps, file, "[API-01]", None)
}

/// The clean fixture with phase 13 "Work" (after 12A): 13-01 and 13-02 in wave 1, 13-03
/// in wave 2 depending on both.
fn phase_project() -> tempfile::TempDir {
    let t = repo_of("clean");
    let o = gsd(t.path(), &["phase", "add", "Work"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("phase 13 added"), "{}", stdout(&o));
    let dir = t.path().join(".planning/phases/13-work");
    std::fs::write(dir.join("13-01-PLAN.md"), plan("01", 1, "[]", "a.txt")).unwrap();
    std::fs::write(dir.join("13-02-PLAN.md"), plan("02", 1, "[]", "b.txt")).unwrap();
    std::fs::write(
        dir.join("13-03-PLAN.md"),
        plan("03", 2, "[13-01, 13-02]", "c.txt"),
    )
    .unwrap();
    let _ = std::fs::remove_file(dir.join(".gitkeep"));
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "phase 13 plans"]);
    // The phase being executed, as STATE.md says it.
    let o = gsd(t.path(), &["state", "set", "currentPhase", "13"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    t
}

/// An agent that writes its plan's file and commits, except for the plans
/// listed in `idle`, for which it does nothing.
fn agent(idle: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("gsd-phase-agents-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("agent-{}.sh", idle.join("-")));
    let idle_case = if idle.is_empty() {
        String::new()
    } else {
        format!(
            "  {}) echo '{{\"type\":\"result\",\"result\":\"thinking\",\"total_cost_usd\":0.01}}'; exit 0 ;;\n",
            idle.join("|")
        )
    };
    std::fs::write(
        &path,
        format!(
            "cat > /dev/null\ncase $GSD_PLAN in\n{idle_case}  13-01) f=a.txt ;;\n  13-02) f=b.txt ;;\n  *) f=c.txt ;;\nesac\n\
             mkdir -p work; echo $GSD_PLAN > work/$f; git add work; git commit -qm \"work: $GSD_PLAN\"\n\
             echo '{{\"type\":\"result\",\"result\":\"done <promise>DONE</promise>\",\"total_cost_usd\":0.02,\"usage\":{{\"input_tokens\":7,\"output_tokens\":3}}}}'\n"
        ),
    )
    .unwrap();
    format!("sh {}", path.display())
}

fn run_phase(dir: &Path, extra: &[&str]) -> (Output, Vec<Value>) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C")
        .arg(dir)
        .args([
            "ralph",
            "run",
            "--headless",
            "--stuck-threshold",
            "2",
            "--max-iterations",
            "4",
        ])
        .args(extra)
        .env("GIT_AUTHOR_NAME", "agent")
        .env("GIT_AUTHOR_EMAIL", "agent@example.com")
        .env("GIT_COMMITTER_NAME", "agent")
        .env("GIT_COMMITTER_EMAIL", "agent@example.com");
    let o = wait_limited(c, Duration::from_secs(180));
    let ev = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\n{}", stderr(&o))))
        .collect();
    (o, ev)
}

fn schema_check(ev: &[Value]) {
    let schema: Value = serde_json::from_slice(
        &Command::new(env!("CARGO_BIN_EXE_gsd"))
            .args(["ralph", "run", "--schema"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    for e in ev {
        let errors: Vec<String> = v.iter_errors(e).map(|x| x.to_string()).collect();
        assert!(errors.is_empty(), "{e}\n{errors:?}");
    }
}

#[test]
fn a_phase_of_three_plans_in_two_waves_completes_and_is_recorded() {
    let t = phase_project();
    let (o, ev) = run_phase(t.path(), &["--phase", "13", "--agent-cmd", &agent(&[])]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    schema_check(&ev);
    // Every event of a plan's run says which plan it belongs to.
    let started: Vec<&str> = ev
        .iter()
        .filter(|e| e["event"] == "started")
        .map(|e| e["plan"].as_str().unwrap())
        .collect();
    assert_eq!(started, ["13-01", "13-02", "13-03"], "wave order");
    assert!(
        ev.iter()
            .filter(|e| e["event"] != "phase_done"
                && e["event"] != "plan_done"
                && e["event"] != "plan_skipped")
            .all(|e| e["plan"].is_string())
    );
    let done = ev.last().unwrap();
    assert_eq!(done["event"], "phase_done");
    assert_eq!(
        (done["complete"].as_u64(), done["failed"].as_u64()),
        (Some(3), Some(0))
    );

    for d in ev.iter().filter(|e| e["event"] == "plan_done") {
        assert!(
            d["summary"].is_string() && d.get("warnings").is_none(),
            "{d}"
        );
    }
    // Three summaries, lint-clean, saying what was observed.
    let dir = t.path().join(".planning/phases/13-work");
    for (n, f) in [("01", "a.txt"), ("02", "b.txt"), ("03", "c.txt")] {
        let s = std::fs::read_to_string(dir.join(format!("13-{n}-SUMMARY.md"))).unwrap();
        assert!(s.starts_with("---\nphase: 13-work\nplan: "), "{s}");
        assert!(s.contains(&format!("work/{f}")), "files changed: {s}");
        assert!(s.contains(&format!("work: 13-{n}")), "the commit: {s}");
        assert!(s.contains("passed: `test -s"), "the checks: {s}");
        assert!(s.contains("requirements-completed: [API-01]"), "{s}");
    }
    let (code, diags) = lint(t.path());
    let on_summaries: Vec<&Value> = diags
        .iter()
        .filter(|d| d["file"].as_str().unwrap_or("").contains("SUMMARY"))
        .collect();
    assert!(
        on_summaries.is_empty(),
        "summaries lint clean: {on_summaries:#?}"
    );
    assert_eq!(code, 0, "{diags:#?}");
    // STATE and ROADMAP progress, one commit each per plan; the tree is clean.
    let roadmap = std::fs::read_to_string(t.path().join(".planning/ROADMAP.md")).unwrap();
    assert!(roadmap.contains("| 13. Work | 3/3 |"), "{roadmap}");
    let log = git(t.path(), &["log", "--format=%s"]);
    for n in ["13-01", "13-02", "13-03"] {
        assert!(
            log.contains(&format!("docs({n}): summary of plan {n}")),
            "{log}"
        );
        assert!(log.contains(&format!("work: {n}")), "{log}");
    }
    assert_eq!(log.matches("docs(state): advance").count(), 3, "{log}");
    let state = json(&gsd(t.path(), &["state", "--json"]));
    assert_ne!(
        state["body"]["Status"], "executing",
        "STATE moved on: {state}"
    );
    assert_eq!(git(t.path(), &["status", "--porcelain"]), "");
    // The phase's last plan ticks its checklist entry, then STATE's progress
    // is synced from the disk: each bookkeeping commit touches its one file.
    let subjects = git(t.path(), &["log", "--format=%s", "-3"]);
    let subjects: Vec<&str> = subjects.lines().collect();
    assert!(
        subjects[0].starts_with("docs(state): sync: progress"),
        "{subjects:?}"
    );
    assert_eq!(
        subjects[1], "docs(roadmap): complete phase 13",
        "{subjects:?}"
    );
    for (rev, file) in [("HEAD", "STATE.md"), ("HEAD~1", "ROADMAP.md")] {
        let shown = git(t.path(), &["show", "--stat", "--format=", rev]);
        assert!(
            shown.contains(file) && shown.lines().count() == 2,
            "{rev}: {shown}"
        );
    }
    assert!(roadmap.contains("- [x] **Phase 13"), "{roadmap}");
    let state = std::fs::read_to_string(t.path().join(".planning/STATE.md")).unwrap();
    assert!(state.contains("completed_plans: 5"), "{state}");
}

#[test]
fn a_failing_plan_skips_its_dependants_and_the_phase_names_it() {
    let t = phase_project();
    let (o, ev) = run_phase(
        t.path(),
        &["--phase", "13", "--agent-cmd", &agent(&["13-01"])],
    );
    schema_check(&ev);
    assert_eq!(o.status.code(), Some(1), "stuck: {}", stdout(&o));
    let done = ev.last().unwrap();
    let results: Vec<(String, String)> = done["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["plan"].as_str().unwrap().into(),
                x["result"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        results,
        [
            ("13-01".into(), "failed".into()),
            ("13-02".into(), "complete".into()),
            ("13-03".into(), "skipped".into())
        ]
    );
    assert_eq!(done["outcomes"][0]["reason"], "stuck");
    assert_eq!(
        done["outcomes"][2]["reason"],
        "it depends on 13-01, which failed"
    );
    let dir = t.path().join(".planning/phases/13-work");
    assert!(!dir.join("13-01-SUMMARY.md").exists());
    assert!(dir.join("13-02-SUMMARY.md").exists());
    assert!(!dir.join("13-03-SUMMARY.md").exists());
    let table = stderr(&run_phase_human(t.path()));
    assert!(
        table.contains("13-02") && table.contains("already done"),
        "{table}"
    );
}

/// Run again without --headless: done plans are skipped, the rest run.
fn run_phase_human(dir: &Path) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C").arg(dir).args([
        "ralph",
        "run",
        "--phase",
        "13",
        "--stuck-threshold",
        "1",
        "--max-iterations",
        "2",
        "--agent-cmd",
        &agent(&["13-01"]),
    ]);
    wait_limited(c, Duration::from_secs(120))
}

#[test]
fn bad_selections_are_named() {
    let t = phase_project();
    let (o, _) = run_phase(t.path(), &["--phase", "9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains('9'), "{}", stderr(&o));
    let (o, _) = run_phase(t.path(), &["--phase", "13", "13-01"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give one of --phase N, --milestone or plan IDs"),
        "{}",
        stderr(&o)
    );
    let (o, _) = run_phase(t.path(), &["13-01", "--parallel", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("are for a phase run"), "{}", stderr(&o));
    let (o, _) = run_phase(t.path(), &["--phase", "2.1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no plans to run"), "{}", stderr(&o));
}

/// Plan IDs across the selection run in wave order too.
#[test]
fn listed_plans_run_in_wave_order() {
    let t = phase_project();
    let (o, ev) = run_phase(t.path(), &["13-03", "13-02", "--agent-cmd", &agent(&[])]);
    schema_check(&ev);
    let order: Vec<&str> = ev
        .iter()
        .filter(|e| e["event"] == "started")
        .map(|e| e["plan"].as_str().unwrap())
        .collect();
    // 13-03 waits for 13-01, which is not selected and has no summary: it runs after 13-02.
    assert_eq!(order, ["13-02", "13-03"], "{}", stdout(&o));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// An agent for the side-by-side tests: each wave-1 plan first waits (up
/// to 5 s) until both wave-1 agents have started, so the plans only get
/// done when they really run at the same time; then it writes its file
/// (and, with `shared`, the same line of work/shared.txt) and commits.
fn rendezvous_agent(meet: &Path, shared: bool) -> String {
    let dir = std::env::temp_dir().join(format!("gsd-phase-agents-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!(
        "rv-{}-{shared}.sh",
        meet.file_name().unwrap().to_string_lossy()
    ));
    let m = meet.display();
    let shared_line = if shared {
        "echo \"written by $GSD_PLAN\" > work/shared.txt; git add work/shared.txt\n"
    } else {
        ""
    };
    std::fs::write(
        &path,
        format!(
            "cat > /dev/null\ncase $GSD_PLAN in\n  13-01) f=a.txt ;;\n  13-02) f=b.txt ;;\n  *) f=c.txt ;;\nesac\n\
             if [ $f != c.txt ]; then\n  touch {m}/$GSD_PLAN\n  n=0\n  while [ $n -lt 100 ] && ! {{ [ -e {m}/13-01 ] && [ -e {m}/13-02 ]; }}; do sleep 0.05; n=$((n+1)); done\n\
               if ! {{ [ -e {m}/13-01 ] && [ -e {m}/13-02 ]; }}; then echo '{{\"type\":\"result\",\"result\":\"alone\",\"total_cost_usd\":0}}'; exit 0; fi\nfi\n\
             mkdir -p work; echo $GSD_PLAN > work/$f; git add work/$f\n{shared_line}git commit -qm \"work: $GSD_PLAN\"\n\
             echo '{{\"type\":\"result\",\"result\":\"done <promise>DONE</promise>\",\"total_cost_usd\":0.02}}'\n"
        ),
    )
    .unwrap();
    format!("sh {}", path.display())
}

fn worktrees(dir: &Path) -> usize {
    git(dir, &["worktree", "list"]).lines().count()
}

#[test]
fn two_independent_plans_run_side_by_side_in_worktrees_and_are_merged() {
    let t = phase_project();
    let meet = tempfile::tempdir().unwrap();
    let (o, ev) = run_phase(
        t.path(),
        &[
            "--phase",
            "13",
            "--parallel",
            "2",
            "--agent-cmd",
            &rendezvous_agent(meet.path(), false),
        ],
    );
    schema_check(&ev);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    let done = ev.last().unwrap();
    assert_eq!(done["complete"], 3, "{done}");
    let merged: Vec<&str> = ev
        .iter()
        .filter(|e| e["event"] == "plan_done")
        .filter_map(|e| e["merged"].as_str())
        .collect();
    assert_eq!(
        merged,
        ["fast-forward", "merge-commit"],
        "13-01 fast-forwards, 13-02 merges"
    );
    // Both plans' work is on the current branch; no worktree or branch is left.
    for f in ["a.txt", "b.txt", "c.txt"] {
        assert!(t.path().join("work").join(f).is_file(), "{f}");
    }
    let log = git(t.path(), &["log", "--format=%s"]);
    assert!(
        log.contains("Merge plan 13-02 (gsd ralph run --parallel)"),
        "{log}"
    );
    assert_eq!(worktrees(t.path()), 1);
    assert_eq!(git(t.path(), &["branch", "--list", "gsd/ralph/*"]), "");
    assert_eq!(git(t.path(), &["status", "--porcelain"]), "");
    for n in ["01", "02", "03"] {
        assert!(
            t.path()
                .join(format!(".planning/phases/13-work/13-{n}-SUMMARY.md"))
                .is_file()
        );
    }
    assert_eq!(lint(t.path()).0, 0);

    // The same phase one plan at a time: the rendezvous never happens.
    let t = phase_project();
    let meet = tempfile::tempdir().unwrap();
    let (o, _) = run_phase(
        t.path(),
        &[
            "--phase",
            "13",
            "--agent-cmd",
            &rendezvous_agent(meet.path(), false),
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "without --parallel the agents cannot meet"
    );
}

#[test]
fn two_plans_editing_one_line_merge_once_and_the_other_reports_the_conflict() {
    let t = phase_project();
    let meet = tempfile::tempdir().unwrap();
    let (o, ev) = run_phase(
        t.path(),
        &[
            "--phase",
            "13",
            "--parallel",
            "2",
            "--agent-cmd",
            &rendezvous_agent(meet.path(), true),
        ],
    );
    schema_check(&ev);
    assert_eq!(o.status.code(), Some(5), "a merge conflict: {}", stdout(&o));
    let done = ev.last().unwrap();
    let by_plan = |p: &str| {
        done["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["plan"] == p)
            .unwrap()
            .clone()
    };
    assert_eq!(by_plan("13-01")["result"], "complete");
    let conflicted = by_plan("13-02");
    assert_eq!(conflicted["result"], "failed");
    assert_eq!(conflicted["exit_code"], 5);
    let reason = conflicted["reason"].as_str().unwrap();
    assert!(
        reason.contains("conflicts in work/shared.txt") && reason.contains("gsd/ralph/13-02"),
        "{reason}"
    );
    assert_eq!(by_plan("13-03")["result"], "skipped");
    // The current branch has 13-01's line; 13-02's worktree and branch are kept.
    assert_eq!(
        std::fs::read_to_string(t.path().join("work/shared.txt")).unwrap(),
        "written by 13-01\n"
    );
    assert!(t.path().join(".gsd/wt-13-02/work/shared.txt").is_file());
    assert_eq!(worktrees(t.path()), 2);
    assert_eq!(
        git(t.path(), &["status", "--porcelain"]),
        "",
        "no half-merged files"
    );
}

// ---- with the real Claude Code CLI --------------------------------------------

/// The plan a request's loop prompt is about.
fn plan_of(req: &Value) -> Option<String> {
    let t = common::mock_model::first_user_text(req);
    let at = t.find("# Ralph loop: plan ")? + "# Ralph loop: plan ".len();
    Some(t[at..].split_whitespace().next()?.to_owned())
}

/// A phase of 3 plans in 2 waves with `--parallel 2` and the real CLI: the
/// mock holds each wave-1 agent's first request until the other's has
/// arrived, so both agents are alive at once, or the plans never finish.
#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn claude_runs_a_phase_with_two_plans_side_by_side() {
    use std::collections::BTreeSet;
    use std::sync::{Arc, Condvar, Mutex};
    let bin = common::claude_cli::claude_bin();
    let t = phase_project();
    let home = tempfile::tempdir().unwrap();
    let met = Arc::new((Mutex::new(BTreeSet::<String>::new()), Condvar::new()));
    let m = met.clone();
    let mock = common::mock_model::MockModel::start(move |req| {
        use common::mock_model::{Reply, assistant_turns};
        let plan = plan_of(req).unwrap_or_default();
        let file = match plan.as_str() {
            "13-01" => "a.txt",
            "13-02" => "b.txt",
            _ => "c.txt",
        };
        if assistant_turns(req) == 0 {
            if file != "c.txt" {
                let (lock, cv) = &*m;
                let mut seen = lock.lock().unwrap();
                seen.insert(plan.clone());
                cv.notify_all();
                let (seen, _) = cv
                    .wait_timeout_while(seen, Duration::from_secs(60), |s| s.len() < 2)
                    .unwrap();
                if seen.len() < 2 {
                    return Reply::text("I am alone here.");
                }
            }
            return Reply::bash(&format!(
                "mkdir -p work && echo {plan} > work/{file} && git add work && git commit -qm 'work: {plan}'"
            ));
        }
        Reply::text("Written and committed. <promise>DONE</promise>")
    });
    let (o, ev) = claude_phase(&bin, t.path(), home.path(), &mock, &["--parallel", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(
        met.0.lock().unwrap().len(),
        2,
        "both wave-1 agents were alive at once"
    );
    let done = ev.last().unwrap();
    assert_eq!(done["complete"], 3, "{done}");
    for n in ["01", "02", "03"] {
        assert!(
            t.path()
                .join(format!(".planning/phases/13-work/13-{n}-SUMMARY.md"))
                .is_file()
        );
    }
    let (code, diags) = lint(t.path());
    assert_eq!(code, 0, "{diags:#?}");
    let roadmap = std::fs::read_to_string(t.path().join(".planning/ROADMAP.md")).unwrap();
    assert!(roadmap.contains("| 13. Work | 3/3 |"), "{roadmap}");
    let log = git(t.path(), &["log", "--format=%s"]);
    for n in ["13-01", "13-02", "13-03"] {
        assert!(log.contains(&format!("work: {n}")), "{log}");
    }
    assert_eq!(worktrees(t.path()), 1, "no worktree left");
    assert_eq!(git(t.path(), &["status", "--porcelain"]), "");
    // The report adds up the iterations of all three plans, worktree runs included.
    let report = json(&gsd(t.path(), &["ralph", "report", "--json"]));
    let done: Vec<&Value> = ev
        .iter()
        .filter(|e| e["event"] == "iteration_done")
        .collect();
    assert_eq!(
        report["total"]["iterations"].as_u64().unwrap() as usize,
        done.len()
    );
    let usd: f64 = done.iter().map(|e| e["cost_usd"].as_f64().unwrap()).sum();
    assert!(
        (report["total"]["cost_usd"].as_f64().unwrap() - usd).abs() < 1e-9,
        "{report}"
    );
    let ms: u64 = done
        .iter()
        .map(|e| e["duration_ms"].as_u64().unwrap())
        .sum();
    assert_eq!(report["total"]["duration_ms"].as_u64().unwrap(), ms);
    let plans: Vec<&str> = report["phases"][0]["plans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["plan"].as_str().unwrap())
        .collect();
    assert_eq!(plans, ["13-01", "13-02", "13-03"]);
}

/// `gsd ralph run --phase 13 --headless EXTRA…` with the real CLI against `mock`.
fn claude_phase(
    bin: &Path,
    dir: &Path,
    home: &Path,
    mock: &common::mock_model::MockModel,
    extra: &[&str],
) -> (Output, Vec<Value>) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C")
        .arg(dir)
        .args([
            "ralph",
            "run",
            "--phase",
            "13",
            "--headless",
            "--stuck-threshold",
            "2",
            "--max-iterations",
            "3",
            "--allowed-tool",
            "Bash",
            "--backoff-ms",
            "20",
            "--claude",
        ])
        .arg(bin)
        .args(extra);
    common::claude_cli::runner_env(&mut c, home, &mock.url);
    let o = wait_limited(c, Duration::from_secs(240));
    let ev: Vec<Value> = stdout(&o)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    schema_check(&ev);
    (o, ev)
}

/// With the real CLI: two wave-1 plans that write the same line run side by
/// side; one merges, the other stops on the conflict with its worktree kept,
/// and their dependant is skipped. Then a phase whose first plan never
/// finishes: its dependant is skipped and the phase names it.
#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn claude_conflicting_and_failing_plans_are_reported() {
    use common::mock_model::{MockModel, Reply, assistant_turns};
    let bin = common::claude_cli::claude_bin();
    let home = tempfile::tempdir().unwrap();
    let writer = |shared: bool, idle: &'static str| {
        move |req: &Value| {
            let plan = plan_of(req).unwrap_or_default();
            if plan == idle {
                return Reply::text("Still thinking about it.");
            }
            let file = match plan.as_str() {
                "13-01" => "a.txt",
                "13-02" => "b.txt",
                _ => "c.txt",
            };
            if assistant_turns(req) == 0 {
                let same = if shared {
                    format!(" && echo 'by {plan}' > work/shared.txt")
                } else {
                    String::new()
                };
                return Reply::bash(&format!(
                    "mkdir -p work && echo {plan} > work/{file}{same} && git add work && git commit -qm 'work: {plan}'"
                ));
            }
            Reply::text("Done. <promise>DONE</promise>")
        }
    };

    let t = phase_project();
    let mock = MockModel::start(writer(true, "none"));
    let (o, ev) = claude_phase(&bin, t.path(), home.path(), &mock, &["--parallel", "2"]);
    assert_eq!(o.status.code(), Some(5), "{}\n{}", stdout(&o), stderr(&o));
    let done = ev.last().unwrap();
    let result = |p: &str| {
        done["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["plan"] == p)
            .unwrap()
            .clone()
    };
    assert_eq!(result("13-01")["result"], "complete");
    assert_eq!(result("13-02")["result"], "failed");
    assert!(
        result("13-02")["reason"]
            .as_str()
            .unwrap()
            .contains("conflicts in work/shared.txt")
    );
    assert_eq!(result("13-03")["result"], "skipped");
    assert!(
        t.path().join(".gsd/wt-13-02").is_dir(),
        "the conflicting worktree is kept"
    );

    let t = phase_project();
    let mock = MockModel::start(writer(false, "13-01"));
    let (o, ev) = claude_phase(&bin, t.path(), home.path(), &mock, &[]);
    assert_eq!(o.status.code(), Some(1), "stuck: {}", stdout(&o));
    let done = ev.last().unwrap();
    let results: Vec<&str> = done["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["failed", "complete", "skipped"]);
    assert_eq!(
        done["outcomes"][2]["reason"],
        "it depends on 13-01, which failed"
    );
}

// ---- the dashboard, in a real terminal ----------------------------------------

fn tmux(args: &[&str]) -> Output {
    Command::new(
        std::env::var_os("GSD_TMUX").expect("GSD_TMUX is set (this test is ignored without it)"),
    )
    .args(args)
    .output()
    .unwrap()
}

/// Poll the pane until `ready` holds for its text (at most `secs`).
fn pane_until(session: &str, secs: u64, ready: impl Fn(&str) -> bool) -> String {
    let until = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let text = stdout(&tmux(&["capture-pane", "-p", "-t", session]));
        if ready(&text) || std::time::Instant::now() > until {
            return text;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `--dashboard` in tmux: the live board lists the plans with their status
/// while agents work, `l` opens the selected plan's log, and at the end the
/// terminal is given back with the board as plain lines.
#[test]
#[cfg_attr(
    not(gsd_tmux),
    ignore = "needs tmux in GSD_TMUX (bash .ci/test installs it)"
)]
fn the_dashboard_runs_in_a_terminal_and_shows_each_plan() {
    let t = phase_project();
    // A slow agent: a second per plan, so the board is seen mid-run.
    let agent = agent(&[]).replace("sh ", "");
    let slow = format!("{agent}.slow.sh");
    std::fs::write(
        &slow,
        format!("sleep 1\n{}", std::fs::read_to_string(&agent).unwrap()),
    )
    .unwrap();
    let session = format!("gsd-dash-{}", std::process::id());
    let cmd = format!(
        "cd {} && GIT_AUTHOR_NAME=agent GIT_AUTHOR_EMAIL=a@example.com GIT_COMMITTER_NAME=agent GIT_COMMITTER_EMAIL=a@example.com {} ralph run --phase 13 --dashboard --stuck-threshold 2 --agent-cmd 'sh {slow}'; echo EXIT=$?; sleep 60",
        t.path().display(),
        env!("CARGO_BIN_EXE_gsd"),
    );
    let o = tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "110",
        "-y",
        "30",
        &cmd,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let live = pane_until(&session, 30, |p| {
        p.contains("running") && p.contains("13-03")
    });
    let _ = tmux(&["send-keys", "-t", &session, "l"]);
    let with_log = pane_until(&session, 10, |p| p.contains("log of 13-01"));
    let end = pane_until(&session, 60, |p| p.contains("EXIT="));
    let _ = tmux(&["kill-session", "-t", &session]);
    assert!(live.contains("plan       wave status"), "{live}");
    assert!(live.contains("13-01") && live.contains("running"), "{live}");
    assert!(live.contains("↑/↓ select"), "{live}");
    assert!(with_log.contains("log of 13-01"), "{with_log}");
    assert!(end.contains("EXIT=0"), "{end}");
    assert!(end.contains("phase run finished: 3 complete"), "{end}");
    assert!(end.contains("13-03      wave 2   complete"), "{end}");
    for n in ["01", "02", "03"] {
        assert!(
            t.path()
                .join(format!(".planning/phases/13-work/13-{n}-SUMMARY.md"))
                .is_file()
        );
    }
}

/// Ctrl+C during a phase pauses the plan that was running and runs no
/// other; running the phase again resumes that same loop and goes on.
#[test]
fn an_interrupted_phase_resumes_the_paused_plan() {
    let t = phase_project();
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C")
        .arg(t.path())
        .args([
            "ralph",
            "run",
            "--phase",
            "13",
            "--headless",
            "--agent-cmd",
            "sleep 60",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = c.spawn().unwrap();
    let logs = t.path().join(".gsd/ralph/logs");
    let until = std::time::Instant::now() + Duration::from_secs(60);
    while !std::fs::read_dir(&logs)
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .any(|d| d.path().join("iteration-001-attempt-1.log").exists())
    {
        assert!(std::time::Instant::now() < until, "no iteration started");
        std::thread::sleep(Duration::from_millis(50));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let ev: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let paused = ev[0]["loop_id"].clone();
    let done = ev.last().unwrap();
    let results: Vec<&str> = done["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["failed", "not_run", "not_run"], "{done}");
    // Again: 13-01 resumes its loop; the rest run.
    let (o, ev) = run_phase(t.path(), &["--phase", "13", "--agent-cmd", &agent(&[])]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(ev[0]["resumed"], true, "{}", ev[0]);
    assert_eq!(ev[0]["loop_id"], paused, "the same loop");
    assert_eq!(ev.last().unwrap()["complete"], 3);
}

/// `--milestone` runs the current milestone's phases in roadmap order.
#[test]
fn the_milestone_runs_its_phases_in_order() {
    let t = phase_project();
    let (o, ev) = run_phase(t.path(), &["--milestone", "--agent-cmd", &agent(&[])]);
    let done = ev.last().unwrap_or_else(|| panic!("{}", stderr(&o)));
    let plans: Vec<&str> = done["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["plan"].as_str().unwrap())
        .collect();
    // Phase 1's plans are done already; 02-01 has no checks and fails; 13's run.
    assert_eq!(
        plans,
        ["01-01", "01-02", "02-01", "13-01", "13-02", "13-03"],
        "{done}"
    );
    let results: Vec<&str> = done["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["result"].as_str().unwrap())
        .collect();
    assert_eq!(
        results,
        ["done", "done", "failed", "complete", "complete", "complete"],
        "{done}"
    );
    assert_eq!(o.status.code(), Some(3), "the failed plan's code");
}

/// Ctrl+C while two plans run side by side pauses both in their kept
/// worktrees; running the phase again resumes both loops there, merges them
/// and leaves no worktree.
#[test]
fn an_interrupted_parallel_batch_resumes_in_its_worktrees() {
    let t = phase_project();
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C")
        .arg(t.path())
        .args([
            "ralph",
            "run",
            "--phase",
            "13",
            "--parallel",
            "2",
            "--headless",
            "--agent-cmd",
            "sleep 60",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let child = c.spawn().unwrap();
    let logs = t.path().join(".gsd/ralph/logs");
    let until = std::time::Instant::now() + Duration::from_secs(60);
    let started = || {
        std::fs::read_dir(&logs)
            .ok()
            .into_iter()
            .flatten()
            .flatten()
            .filter(|d| d.path().join("iteration-001-attempt-1.log").exists())
            .count()
    };
    while started() < 2 {
        assert!(
            std::time::Instant::now() < until,
            "the two plans did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert_eq!(worktrees(t.path()), 3, "both worktrees are kept");
    let (o, ev) = run_phase(
        t.path(),
        &[
            "--phase",
            "13",
            "--parallel",
            "2",
            "--agent-cmd",
            &agent(&[]),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    let resumed: Vec<bool> = ev
        .iter()
        .filter(|e| e["event"] == "started")
        .map(|e| e["resumed"] == true)
        .collect();
    assert_eq!(
        resumed,
        [true, true, false],
        "13-01 and 13-02 resume, 13-03 starts"
    );
    assert_eq!(ev.last().unwrap()["complete"], 3);
    assert_eq!(worktrees(t.path()), 1);
}
