//! `gsd ralph run` as a new user meets it: `git init`, `gsd init`, plans
//! written by hand, and an agent that writes its files and never commits
//! (the loop prompt does not ask it to; real agents often do not). Every
//! file the agents wrote must end in the main tree, committed and listed in
//! the SUMMARYs, side by side and one after another; a failed worktree
//! creation leaves nothing behind; a merge conflict keeps the work and the
//! re-run merges it instead of paying for the plan twice. The same with the
//! real Claude Code CLI against the scripted model.

mod common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use common::*;
use serde_json::Value;

/// Plan `01-NN` writing `work/FILE` (the task's check reads it).
fn plan(n: &str, wave: u32, deps: &str, file: &str) -> String {
    work_plan("01-foundation", n, wave, deps, file, "[]", None)
}

/// `git init`, `gsd init`, then three plans of phase 1 committed by hand:
/// 01-01 and 01-02 in wave 1 (files `a`, `b`), 01-03 in wave 2 after both.
/// Nothing else: no `.gsd/`, no fixture.
fn first_use() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["config", "user.email", "user@example.com"]);
    git(d, &["config", "user.name", "User"]);
    let o = gsd(d, &["init"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let dir = d.join(".planning/phases/01-foundation");
    std::fs::write(dir.join("01-01-PLAN.md"), plan("01", 1, "[]", "a.txt")).unwrap();
    std::fs::write(dir.join("01-02-PLAN.md"), plan("02", 1, "[]", "b.txt")).unwrap();
    std::fs::write(
        dir.join("01-03-PLAN.md"),
        plan("03", 2, "[01-01, 01-02]", "c.txt"),
    )
    .unwrap();
    std::fs::remove_file(dir.join(".gitkeep")).unwrap();
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "phase 1 plans"]);
    assert!(!d.join(".gsd").exists() || !d.join(".gsd/ralph").exists());
    t
}

/// An agent that writes its plan's file (its plan ID as content), never
/// commits, and claims the promise; 01-02's also writes `work/$ALSO` when
/// that is set (a file its plan does not declare). Each call appends the
/// plan to `calls`.
fn agent(dir: &Path, calls: &Path) -> String {
    let path = dir.join("agent.sh");
    std::fs::write(
        &path,
        format!(
            "cat > /dev/null\necho $GSD_PLAN >> {calls}\n\
             case $GSD_PLAN in 01-01) f=a.txt ;; 01-02) f=b.txt ;; *) f=c.txt ;; esac\n\
             mkdir -p work; echo \"$GSD_PLAN\" > work/$f\n\
             if [ $GSD_PLAN = 01-02 ] && [ -n \"$ALSO\" ]; then echo \"$GSD_PLAN\" > work/$ALSO; fi\n\
             echo '{{\"type\":\"result\",\"result\":\"written <promise>DONE</promise>\",\"total_cost_usd\":0.01}}'\n",
            calls = calls.display()
        ),
    )
    .unwrap();
    format!("sh {}", path.display())
}

fn ralph(dir: &Path, agent: &str, extra: &[&str], env: &[(&str, &str)]) -> (Output, Vec<Value>) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C")
        .arg(dir)
        .args([
            "ralph",
            "run",
            "--phase",
            "1",
            "--headless",
            "--max-iterations",
            "3",
            "--agent-cmd",
            agent,
        ])
        .args(extra)
        .envs(env.iter().copied());
    let o = wait_limited(c, Duration::from_secs(180));
    let ev = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\n{}", stderr(&o))))
        .collect();
    (o, ev)
}

/// Each plan and how it ended, as the phase's last event lists them.
fn outcomes(ev: &[Value]) -> Vec<(String, String)> {
    let done = ev.last().unwrap();
    assert_eq!(done["event"], "phase_done", "{done}");
    done["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["plan"].as_str().unwrap().to_owned(),
                e["result"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn calls(p: &Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The branches and worktrees a run may leave: none of gsd's.
fn leftovers(d: &Path) -> (String, String) {
    (
        git(d, &["branch", "--list", "gsd/*"]),
        git(d, &["worktree", "list", "--porcelain"])
            .lines()
            .filter(|l| l.starts_with("worktree "))
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Every file the agents wrote is in the main tree and committed; every
/// SUMMARY lists its plan's file; the roadmap and STATE say the phase is
/// done; `gsd verify` passes on each plan.
fn assert_all_work_landed(d: &Path) {
    for (file, plan) in [("a.txt", "01-01"), ("b.txt", "01-02"), ("c.txt", "01-03")] {
        assert_eq!(
            std::fs::read_to_string(d.join("work").join(file)).unwrap(),
            format!("{plan}\n"),
            "work/{file}"
        );
        let summary = std::fs::read_to_string(
            d.join(format!(".planning/phases/01-foundation/{plan}-SUMMARY.md")),
        )
        .unwrap();
        assert!(summary.contains(&format!("`work/{file}`")), "{summary}");
        assert!(summary.contains("**Files modified:** 1"), "{summary}");
        let v = gsd(d, &["verify", plan]);
        assert_eq!(v.status.code(), Some(0), "{}{}", stdout(&v), stderr(&v));
    }
    assert_eq!(git(d, &["status", "--porcelain"]), "", "all committed");
    let log = git(d, &["log", "--format=%s"]);
    for plan in ["01-01", "01-02", "01-03"] {
        assert!(
            log.contains(&format!("feat({plan}): the work of plan {plan}")),
            "{log}"
        );
    }
    let roadmap = std::fs::read_to_string(d.join(".planning/ROADMAP.md")).unwrap();
    assert!(
        roadmap.contains("- [x] **Phase 1: Foundation**"),
        "{roadmap}"
    );
    assert!(
        roadmap.contains("| 1. Foundation | 3/3 | Complete |"),
        "{roadmap}"
    );
    let state = std::fs::read_to_string(d.join(".planning/STATE.md")).unwrap();
    assert!(state.contains("100%"), "{state}");
    let (code, diags) = lint(d);
    assert_eq!(code, 0, "{diags:#?}");
}

#[test]
fn side_by_side_from_first_use_keeps_every_file_an_agent_left_uncommitted() {
    let t = first_use();
    let d = t.path();
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("calls");
    let (o, ev) = ralph(d, &agent(scratch.path(), &log), &["--parallel", "2"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(
        outcomes(&ev),
        [
            ("01-01".into(), "complete".into()),
            ("01-02".into(), "complete".into()),
            ("01-03".into(), "complete".into())
        ]
    );
    // gsd's commit of each plan's work is an event of the run.
    let by_gsd: Vec<&Value> = ev
        .iter()
        .filter(|e| e["event"] == "commit" && e["by"] == "gsd")
        .collect();
    assert_eq!(by_gsd.len(), 3, "{by_gsd:#?}");
    assert_all_work_landed(d);
    assert_eq!(leftovers(d), (String::new(), String::new()));
    assert_eq!(calls(&log).len(), 3);
}

#[test]
fn one_after_another_from_first_use_runs_every_plan() {
    let t = first_use();
    let d = t.path();
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("calls");
    let (o, ev) = ralph(d, &agent(scratch.path(), &log), &[], &[]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(
        outcomes(&ev).iter().filter(|o| o.1 == "complete").count(),
        3
    );
    assert_all_work_landed(d);
    assert_eq!(calls(&log), ["01-01", "01-02", "01-03"]);
}

#[test]
fn the_users_own_uncommitted_edit_stays_out_of_the_plans_commit() {
    let t = first_use();
    let d = t.path();
    std::fs::write(d.join("notes.txt"), "mine, not the agent's\n").unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("calls");
    let a = agent(scratch.path(), &log);
    // Refused without --allow-dirty: the run would take the edit for its own.
    let (o, ev) = ralph(d, &a, &[], &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(
        ev.iter()
            .any(|e| e["problems"].to_string().contains("notes.txt")),
        "{ev:#?}"
    );
    let (o, _) = ralph(d, &a, &["--parallel", "2"], &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("pre-flight: the work tree has 1 uncommitted change(s) (notes.txt)")
    );
    assert!(calls(&log).is_empty(), "no agent ran");
    let (o, _) = ralph(d, &a, &["--allow-dirty"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(git(d, &["status", "--porcelain"]), "?? notes.txt\n");
    let committed = git(d, &["log", "--all", "--name-only", "--format="]);
    assert!(!committed.contains("notes.txt"), "{committed}");
    assert!(committed.contains("work/a.txt"), "{committed}");
}

#[test]
fn a_failed_worktree_creation_leaves_nothing_and_a_fixed_retry_works() {
    let t = first_use();
    let d = t.path();
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("calls");
    let a = agent(scratch.path(), &log);
    // A file where `.gsd/` should be (kept out of git's way, as a user's
    // ignore rule would).
    let _ = std::fs::remove_dir_all(d.join(".gsd"));
    std::fs::write(d.join(".gsd"), "not a folder").unwrap();
    std::fs::write(d.join(".git/info/exclude"), ".gsd\n").unwrap();
    let (o, ev) = ralph(d, &a, &["--parallel", "2"], &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let failed: Vec<&Value> = ev
        .iter()
        .filter(|e| e["event"] == "plan_done" && e["result"] == "failed")
        .collect();
    assert_eq!(failed.len(), 2, "{ev:#?}");
    for f in &failed {
        let why = f["reason"].as_str().unwrap();
        assert!(why.contains("cannot make") && why.contains(".gsd"), "{why}");
        assert!(
            why.contains("gsd ralph run --phase 1 --parallel 2"),
            "{why}"
        );
    }
    assert_eq!(leftovers(d), (String::new(), String::new()));
    assert!(!d.join(".git/worktrees").exists());
    // Fixed: the retry runs.
    std::fs::remove_file(d.join(".gsd")).unwrap();
    // Now a folder in the way of one worktree, with a file in it: that
    // plan's creation fails part way (after its branch was made).
    std::fs::create_dir_all(d.join(".gsd/wt-01-02")).unwrap();
    std::fs::write(d.join(".gsd/wt-01-02/someone's.txt"), "keep me").unwrap();
    let (o, ev) = ralph(d, &a, &["--parallel", "2"], &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert_eq!(
        outcomes(&ev),
        [
            ("01-01".into(), "complete".into()),
            ("01-02".into(), "failed".into()),
            ("01-03".into(), "skipped".into())
        ]
    );
    assert_eq!(leftovers(d), (String::new(), String::new()));
    assert!(
        !d.join(".git/worktrees/gsd-ralph-01-02").exists(),
        "git's record of the failed worktree is gone"
    );
    assert_eq!(
        std::fs::read_to_string(d.join(".gsd/wt-01-02/someone's.txt")).unwrap(),
        "keep me",
        "what was in the way is not gsd's to delete"
    );
    std::fs::remove_dir_all(d.join(".gsd/wt-01-02")).unwrap();
    let (o, ev) = ralph(d, &a, &["--parallel", "2"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(
        outcomes(&ev),
        [
            ("01-01".into(), "done".into()),
            ("01-02".into(), "complete".into()),
            ("01-03".into(), "complete".into())
        ]
    );
    assert_all_work_landed(d);
    assert_eq!(leftovers(d), (String::new(), String::new()));
    assert_eq!(calls(&log), ["01-01", "01-02", "01-03"]);
}

#[test]
fn a_merge_conflict_keeps_the_work_and_the_rerun_merges_instead_of_running_again() {
    let t = first_use();
    let d = t.path();
    let scratch = tempfile::tempdir().unwrap();
    let log = scratch.path().join("calls");
    let a = agent(scratch.path(), &log);
    let env = [("ALSO", "a.txt")];
    let (o, ev) = ralph(d, &a, &["--parallel", "2"], &env);
    assert_eq!(o.status.code(), Some(5), "{}\n{}", stdout(&o), stderr(&o));
    let conflict = ev
        .iter()
        .find(|e| e["event"] == "plan_done" && e["plan"] == "01-02")
        .unwrap();
    let why = conflict["reason"].as_str().unwrap();
    assert!(why.contains("conflicts in work/a.txt"), "{why}");
    assert!(why.contains("`git merge gsd/ralph/01-02`"), "{why}");
    assert!(
        why.contains("`gsd ralph run --phase 1 --parallel 2` records the plan"),
        "{why}"
    );
    // The work is on the kept branch, committed by gsd.
    assert_eq!(git(d, &["show", "gsd/ralph/01-02:work/a.txt"]), "01-02\n");
    assert_eq!(git(d, &["show", "gsd/ralph/01-02:work/b.txt"]), "01-02\n");
    assert!(d.join(".gsd/wt-01-02/work/b.txt").is_file());
    assert!(!d.join("work/b.txt").exists(), "nothing half-merged");
    // The person follows the message: merge, resolve, commit.
    let merge = Command::new("git")
        .current_dir(d)
        .args(["merge", "gsd/ralph/01-02"])
        .output()
        .unwrap();
    assert!(!merge.status.success(), "it conflicts");
    std::fs::write(d.join("work/a.txt"), "01-01\n").unwrap();
    git(d, &["add", "work/a.txt"]);
    git(d, &["commit", "-qm", "merge 01-02, keeping 01-01's a.txt"]);
    let before = calls(&log).len();
    let (o, ev) = ralph(d, &a, &["--parallel", "2"], &env);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(
        outcomes(&ev),
        [
            ("01-01".into(), "done".into()),
            ("01-02".into(), "complete".into()),
            ("01-03".into(), "complete".into())
        ]
    );
    assert_eq!(
        calls(&log)[before..],
        ["01-03"],
        "01-02 was merged, not run again"
    );
    let summary =
        std::fs::read_to_string(d.join(".planning/phases/01-foundation/01-02-SUMMARY.md")).unwrap();
    assert!(summary.contains("`work/a.txt`"), "{summary}");
    assert_eq!(leftovers(d), (String::new(), String::new()));
    assert_eq!(git(d, &["status", "--porcelain"]), "");
}

/// The real Claude Code CLI against the scripted model: each agent writes
/// its plan's file with a shell command and says it is done, committing
/// nothing; side by side, then one after another.
#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn claude_that_never_commits_loses_nothing() {
    use common::mock_model::{MockModel, Reply, assistant_turns, first_user_text};
    let bin = common::claude_cli::claude_bin();
    for extra in [&["--parallel", "2"][..], &[][..]] {
        let t = first_use();
        let home = tempfile::tempdir().unwrap();
        let mock = MockModel::start(move |req: &Value| {
            let text = first_user_text(req);
            let plan = text
                .split("# Ralph loop: plan ")
                .nth(1)
                .and_then(|s| s.split_whitespace().next())
                .unwrap_or_default()
                .to_owned();
            let file = match plan.as_str() {
                "01-01" => "a.txt",
                "01-02" => "b.txt",
                _ => "c.txt",
            };
            if assistant_turns(req) == 0 {
                // In the agent's own folder (a worktree side by side).
                return Reply::bash(&format!("mkdir -p work && echo {plan} > work/{file}"));
            }
            Reply::text("The file is written. <promise>DONE</promise>")
        });
        let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
        c.arg("-C")
            .arg(t.path())
            .args([
                "ralph",
                "run",
                "--phase",
                "1",
                "--headless",
                "--max-iterations",
                "3",
                "--allowed-tool",
                "Bash",
                "--backoff-ms",
                "20",
                "--claude",
            ])
            .arg(&bin)
            .args(extra);
        common::claude_cli::runner_env(&mut c, home.path(), &mock.url);
        let o = wait_limited(c, Duration::from_secs(240));
        assert_eq!(
            o.status.code(),
            Some(0),
            "{extra:?}\n{}\n{}",
            stdout(&o),
            stderr(&o)
        );
        assert_all_work_landed(t.path());
        assert_eq!(leftovers(t.path()), (String::new(), String::new()));
    }
}

/// What a crash leaves is found by `ralph doctor` and cleared by `ralph
/// clean`, which removes only what holds no work. The leftovers come from a
/// real run (two plans side by side whose agents write and never finish),
/// then a crash is played: one worktree's folder is gone; a branch with a
/// commit of its own and an empty `.gsd/wt-*` folder lie about.
#[test]
fn doctor_finds_what_a_crash_left_and_clean_removes_only_what_holds_no_work() {
    let t = first_use();
    let d = t.path();
    let scratch = tempfile::tempdir().unwrap();
    // Writes its file, never claims the promise.
    let lazy = scratch.path().join("lazy.sh");
    std::fs::write(
        &lazy,
        "cat > /dev/null\ncase $GSD_PLAN in 01-01) f=a.txt ;; *) f=b.txt ;; esac\n\
         mkdir -p work; echo \"$GSD_PLAN\" > work/$f\n\
         echo '{\"type\":\"result\",\"result\":\"working on it\"}'\n",
    )
    .unwrap();
    let lazy = format!("sh {}", lazy.display());
    let (o, _) = ralph(d, &lazy, &["--parallel", "2"], &[]);
    assert_ne!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(d.join(".gsd/wt-01-01").is_dir() && d.join(".gsd/wt-01-02").is_dir());
    // The crash: 01-01's folder is gone, its record and branch stay.
    std::fs::remove_dir_all(d.join(".gsd/wt-01-01")).unwrap();
    git(d, &["branch", "gsd/ralph/09-09"]);
    git(d, &["checkout", "-q", "gsd/ralph/09-09"]);
    std::fs::write(d.join("mine.txt"), "a commit of its own\n").unwrap();
    git(d, &["add", "mine.txt"]);
    git(d, &["commit", "-qm", "work on 09-09"]);
    git(d, &["checkout", "-q", "main"]);
    std::fs::create_dir_all(d.join(".gsd/wt-zz")).unwrap();

    let o = gsd(d, &["ralph", "doctor", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let report = json(&o);
    let mut kinds: Vec<(String, String, bool)> = report["leftovers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["kind"].as_str().unwrap().to_owned(),
                l["name"].as_str().unwrap().to_owned(),
                l["removable"].as_bool().unwrap(),
            )
        })
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        [
            ("merged_branch".into(), "gsd/ralph/01-01".into(), true),
            ("stale_record".into(), "gsd-ralph-01-01".into(), true),
            ("stray_folder".into(), "wt-zz".into(), true),
            ("unmerged_branch".into(), "gsd/ralph/09-09".into(), false),
            ("worktree".into(), "gsd-ralph-01-02".into(), false),
        ]
    );
    let human = stdout(&gsd(d, &["ralph", "doctor"]));
    assert!(
        human.contains("kept: worktree on gsd/ralph/01-02: plan 01-02's run stopped here")
            && human.contains("uncommitted file(s)")
            && human.contains("`gsd ralph clean` removes it"),
        "{human}"
    );

    let o = gsd(d, &["ralph", "clean"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let said = stdout(&o);
    assert_eq!(said.matches("removed: ").count(), 3, "{said}");
    assert_eq!(said.matches("kept: ").count(), 2, "{said}");
    assert!(!d.join(".git/worktrees/gsd-ralph-01-01").exists());
    assert!(!d.join(".gsd/wt-zz").exists());
    let branches = git(d, &["branch", "--list", "gsd/*"]);
    assert!(
        !branches.contains("01-01") && branches.contains("09-09") && branches.contains("01-02"),
        "{branches}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join(".gsd/wt-01-02/work/b.txt")).unwrap(),
        "01-02\n",
        "the kept worktree's uncommitted work"
    );
    // Nothing more to remove; the re-run finishes the phase.
    let again = stdout(&gsd(d, &["ralph", "clean"]));
    assert!(!again.contains("removed"), "{again}");
    let log = scratch.path().join("calls");
    let (o, _) = ralph(d, &agent(scratch.path(), &log), &["--parallel", "2"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let after = json(&gsd(d, &["ralph", "doctor", "--json"]));
    let left: Vec<&str> = after["leftovers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        left,
        ["gsd/ralph/09-09"],
        "only the user's own branch is left"
    );
}

/// `--start-ralph` writes its hooks to `.claude/settings.json`, which a user
/// may never commit; a headless run after it is not refused for that.
#[test]
fn hooks_from_start_ralph_do_not_block_a_later_run() {
    let t = first_use();
    let d = t.path();
    let o = gsd(d, &["plan", "01-01", "--start-ralph"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(d.join(".claude/settings.json").is_file());
    assert!(git(d, &["status", "--porcelain"]).contains(".claude/"));
    let o = gsd(d, &["ralph", "stop"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let scratch = tempfile::tempdir().unwrap();
    let a = agent(scratch.path(), &scratch.path().join("calls"));
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C")
        .arg(d)
        .args(["ralph", "run", "01-01", "--headless", "--agent-cmd", &a]);
    let o = wait_limited(c, Duration::from_secs(120));
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    // The run's commit holds its work, not the user's hooks file.
    let shown = git(d, &["log", "--name-only", "--format=%s", "-20"]);
    assert!(shown.contains("work/a.txt"), "{shown}");
    assert!(!shown.contains(".claude/settings.json"), "{shown}");
    assert!(git(d, &["status", "--porcelain"]).contains(".claude/"));
}
