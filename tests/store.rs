//! Writes from the CLI against real git repositories: exact commits, the
//! git CLI agreeing afterwards, concurrency, crashes and bad input.

mod common;

use std::path::Path;

use common::*;

fn repo() -> tempfile::TempDir {
    repo_of("clean")
}

fn state(dir: &Path) -> String {
    std::fs::read_to_string(dir.join(".planning/STATE.md")).unwrap()
}

#[test]
fn state_set_changes_only_its_lines_and_commits_only_its_file() {
    let t = repo();
    std::fs::write(t.path().join("unrelated.txt"), "staged before\n").unwrap();
    git(t.path(), &["add", "unrelated.txt"]);
    std::fs::write(t.path().join("dirty.txt"), "untracked\n").unwrap();
    let before = state(t.path());
    let o = gsd(t.path(), &["state", "set", "currentPhase", "1", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["changed"], serde_json::json!([".planning/STATE.md"]));
    let id = v["commit_id"].as_str().unwrap().to_owned();
    assert_eq!(git(t.path(), &["rev-parse", "HEAD"]).trim(), id);
    assert_eq!(
        git(t.path(), &["log", "-1", "--format=%s"]).trim(),
        "docs(state): current phase 2 → 1"
    );
    // Exactly the lines that show the field changed, and the focus line
    // that names the current phase.
    let after = state(t.path());
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(
        changed,
        [
            (
                "current_phase: 2  # the phase being executed",
                "current_phase: 1  # the phase being executed"
            ),
            (
                "**Current focus:** Phase 2 — API",
                "**Current focus:** Phase 1 — Foundation"
            ),
            ("Phase: 2 of 4 (API)", "Phase: 1 of 4 (Foundation)")
        ]
    );
    assert_eq!(before.lines().count(), after.lines().count());
    // The commit holds STATE.md only; the staged file is still staged, not committed.
    assert_eq!(
        git(t.path(), &["show", "--name-only", "--format=", "HEAD"]).trim(),
        ".planning/STATE.md"
    );
    let status = git(t.path(), &["status", "--porcelain"]);
    assert!(status.lines().any(|l| l == "A  unrelated.txt"), "{status}");
    assert!(status.lines().any(|l| l == "?? dirty.txt"), "{status}");
    assert!(!status.contains("STATE.md"), "{status}");
    git(t.path(), &["fsck", "--strict"]);
}

/// A CRLF roadmap with a few bare-LF lines (a tool appended them): the
/// lines `phase add` inserts end as most lines do, in CRLF.
#[test]
fn inserted_lines_take_the_ending_most_lines_have() {
    let t = repo();
    let p = t.path().join(".planning/ROADMAP.md");
    let lf = std::fs::read_to_string(&p).unwrap();
    let mut mixed = lf.replace('\n', "\r\n");
    mixed.push_str("<!-- appended by a tool -->\n\n");
    std::fs::write(&p, &mixed).unwrap();
    git(t.path(), &["commit", "-qam", "mixed endings"]);
    let before_lf = mixed.matches('\n').count() - mixed.matches("\r\n").count();
    let o = gsd(t.path(), &["phase", "add", "Line endings"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = std::fs::read_to_string(&p).unwrap();
    assert!(after.contains("Line endings"), "{after}");
    let after_lf = after.matches('\n').count() - after.matches("\r\n").count();
    assert_eq!(after_lf, before_lf, "no new bare-LF line: {after:?}");
    assert!(after.matches("\r\n").count() > mixed.matches("\r\n").count());
}

#[test]
fn crlf_comments_and_placeholders_survive() {
    let t = repo();
    let p = t.path().join(".planning/STATE.md");
    let crlf = state(t.path()).replace('\n', "\r\n");
    std::fs::write(&p, &crlf).unwrap();
    git(t.path(), &["commit", "-qam", "crlf"]);
    let o = gsd(t.path(), &["state", "set", "status", "Executing: phase 2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = state(t.path());
    assert_eq!(
        after.matches("\r\n").count(),
        after.matches('\n').count(),
        "still CRLF everywhere"
    );
    assert!(
        after.contains("status: \"Executing: phase 2\"\r\n"),
        "frontmatter quoted where YAML needs it"
    );
    assert!(after.contains("Status: Executing: phase 2\r\n"));
    assert!(
        after.contains("current_phase: 2  # the phase being executed\r\n"),
        "untouched comment kept"
    );
    gsd(
        t.path(),
        &["state", "blocker", "add", "Waiting on API keys"],
    );
    let after = state(t.path());
    assert!(
        after.contains("### Blockers/Concerns\r\n\r\n- Waiting on API keys\r\n"),
        "{after}"
    );
    assert!(
        !after.contains("yet.\r\n\r\n## Session"),
        "placeholder replaced, not mangled"
    );
    gsd(t.path(), &["state", "blocker", "resolve", "API keys"]);
    assert!(state(t.path()).contains("### Blockers/Concerns\r\n\r\nNone.\r\n"));
}

#[test]
fn patch_is_one_write_and_one_commit() {
    let t = repo();
    let count = |t: &tempfile::TempDir| {
        git(t.path(), &["rev-list", "--count", "HEAD"])
            .trim()
            .parse::<u32>()
            .unwrap()
    };
    let n = count(&t);
    let o = gsd(
        t.path(),
        &[
            "state",
            "patch",
            "status=Planning",
            "Last activity=2026-02-01 — replanned",
            "current_phase=2.1",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(count(&t), n + 1);
    let s = state(t.path());
    assert!(s.contains("Status: Planning\n") && s.contains("status: Planning\n"));
    assert!(s.contains("Phase: 2.1 of 4 (Hotfix)\n"), "{s}");
    assert!(s.contains("Last activity: 2026-02-01 — replanned\n"));
}

#[test]
fn dry_run_no_commit_and_no_repository() {
    let t = repo();
    let before = state(t.path());
    let o = gsd(t.path(), &["state", "set", "status", "Paused", "--dry-run"]);
    let diff = stdout(&o);
    assert!(
        diff.contains("-Status: Ready to execute\n+Status: Paused\n"),
        "{diff}"
    );
    assert_eq!(state(t.path()), before);
    let o = gsd(
        t.path(),
        &["state", "set", "status", "Paused", "--no-commit"],
    );
    assert!(stdout(&o).contains("not committed (--no-commit)"));
    assert_eq!(
        git(t.path(), &["status", "--porcelain"]).trim(),
        "M .planning/STATE.md"
    );

    let plain = tree("clean");
    let o = gsd(
        plain.path(),
        &["state", "set", "status", "Paused", "--json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["commit"]["status"], "not_a_repository");
    assert!(state(plain.path()).contains("Status: Paused"));
}

#[test]
fn unborn_repository_commit_docs_false_and_ignored_planning() {
    let t = tree("clean");
    git(t.path(), &["init", "-q"]);
    git(t.path(), &["config", "user.email", "t@e.com"]);
    git(t.path(), &["config", "user.name", "T"]);
    let o = gsd(t.path(), &["state", "set", "status", "Started", "--json"]);
    assert_eq!(json(&o)["commit"]["status"], "committed", "{}", stderr(&o));
    assert_eq!(
        git(t.path(), &["show", "--name-only", "--format=", "HEAD"]).trim(),
        ".planning/STATE.md"
    );

    let t = repo();
    let cfg = t.path().join(".planning/config.json");
    let c = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("\"commit_docs\": true", "\"commit_docs\": false");
    std::fs::write(&cfg, c).unwrap();
    let o = gsd(t.path(), &["state", "set", "status", "X", "--json"]);
    assert_eq!(json(&o)["commit"]["status"], "commit_docs_false");

    let t = tree("clean");
    git(t.path(), &["init", "-q"]);
    std::fs::write(t.path().join(".gitignore"), ".planning/\n").unwrap();
    let o = gsd(t.path(), &["state", "set", "status", "X", "--json"]);
    assert_eq!(json(&o)["commit"]["status"], "ignored");
    assert_eq!(
        git(t.path(), &["status", "--porcelain", "--ignored"])
            .lines()
            .filter(|l| l.starts_with("A "))
            .count(),
        0,
        "not force-added"
    );
}

#[test]
fn signed_repositories_get_signed_commits() {
    let t = repo();
    // A stand-in for gpg that signs everything: git only needs its status line.
    let fake = t.path().join("fake-gpg.sh");
    std::fs::write(&fake, "#!/bin/sh\ncat >/dev/null\necho '[GNUPG:] SIG_CREATED D 1 8 00 1700000000 ABCDEF' >&2\nprintf -- '-----BEGIN PGP SIGNATURE-----\\n\\nZmFrZQ==\\n-----END PGP SIGNATURE-----\\n'\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    git(t.path(), &["config", "commit.gpgsign", "true"]);
    git(t.path(), &["config", "gpg.program", fake.to_str().unwrap()]);
    git(t.path(), &["config", "user.signingkey", "D"]);
    std::fs::write(t.path().join("staged.txt"), "x\n").unwrap();
    git(t.path(), &["add", "staged.txt"]);
    let o = gsd(t.path(), &["state", "set", "status", "Signed", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["commit"]["signed"], true);
    let raw = git(t.path(), &["cat-file", "-p", "HEAD"]);
    assert!(
        raw.contains("gpgsig -----BEGIN PGP SIGNATURE-----"),
        "{raw}"
    );
    assert_eq!(
        git(t.path(), &["show", "--name-only", "--format=", "HEAD"]).trim(),
        ".planning/STATE.md"
    );
    assert!(git(t.path(), &["status", "--porcelain"]).contains("A  staged.txt"));
}

#[test]
fn bad_input_exits_2_and_changes_nothing() {
    let t = repo();
    let before = state(t.path());
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["state", "set", "currentPhse", "1"],
            "did you mean `current_phase`",
        ),
        (
            vec!["state", "set", "currentPhase", "42"],
            "phases: 0, 1, 2, 2.1, 12A, 999.1",
        ),
        (
            vec!["state", "set", "current_phase", "soon"],
            "phase soon does not exist",
        ),
        (vec!["state", "set", "total_plans", "3"], "no field"),
        (vec!["state", "patch", "status"], "not FIELD=VALUE"),
        (
            vec!["state", "blocker", "resolve", "nothing like this"],
            "no entry matches",
        ),
    ];
    for (args, needle) in cases {
        let o = gsd(t.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert_eq!(state(t.path()), before, "{args:?}");
    }
    // A value of the wrong type for a typed frontmatter field.
    let p = t.path().join(".planning/STATE.md");
    std::fs::write(
        &p,
        before.replace("status: executing\n", "status: executing\nplans_done: 3\n"),
    )
    .unwrap();
    let o = gsd(t.path(), &["state", "set", "plansDone", "many"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("holds an integer"), "{}", stderr(&o));
    std::fs::write(&p, &before).unwrap();
    // Read-only file.
    std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o444)).unwrap();
    let o = gsd(t.path(), &["state", "set", "status", "X"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("read-only"));
    std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    // Merge-conflict markers.
    std::fs::write(
        &p,
        before.replace(
            "Status: Ready to execute\n",
            "<<<<<<< HEAD\nStatus: A\n=======\nStatus: B\n>>>>>>> x\n",
        ),
    )
    .unwrap();
    let o = gsd(t.path(), &["state", "set", "status", "X"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("merge-conflict"));
    // No .planning/ at all.
    let empty = tempfile::tempdir().unwrap();
    let o = gsd(empty.path(), &["state", "set", "status", "X"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("gsd init"));
}

#[test]
fn lock_held_past_the_timeout() {
    let t = repo();
    std::fs::create_dir_all(t.path().join(".gsd")).unwrap();
    let f = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(t.path().join(".gsd/planning.lock"))
        .unwrap();
    f.lock().unwrap();
    let before = state(t.path());
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gsd"))
        .arg("-C")
        .arg(t.path())
        .args(["state", "set", "status", "X"])
        .env("GSD_LOCK_TIMEOUT_MS", "200")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("gave up"), "{}", stderr(&o));
    assert_eq!(state(t.path()), before);
    drop(f);
}

#[test]
fn thirty_two_writers_at_once_lose_nothing() {
    let t = repo();
    let children: Vec<_> = (0..32)
        .map(|i| {
            std::process::Command::new(env!("CARGO_BIN_EXE_gsd"))
                .arg("-C")
                .arg(t.path())
                .args(["state", "decision", "add", &format!("decision number {i}")])
                .env("GSD_LOCK_TIMEOUT_MS", "60000")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let s = state(t.path());
    let log = git(t.path(), &["log", "--format=%s"]);
    for i in 0..32 {
        assert!(
            s.contains(&format!("decision number {i}\n")),
            "decision {i} missing from the file"
        );
        assert!(
            log.contains(&format!("decision number {i}\n")),
            "decision {i} missing from history"
        );
    }
    assert_eq!(git(t.path(), &["rev-list", "--count", "HEAD"]).trim(), "33");
    git(t.path(), &["fsck", "--strict"]);
}

#[test]
fn writers_killed_at_random_moments_never_tear_the_file() {
    let t = repo();
    let p = t.path().join(".planning/STATE.md");
    // How long a whole write takes here, so kills can be spread across it.
    let start = std::time::Instant::now();
    assert!(
        gsd(
            t.path(),
            &["state", "set", "status", "Calibrate", "--no-commit"]
        )
        .status
        .success()
    );
    let full = start.elapsed().as_micros() as u64;
    let mut seen_old = 0;
    let mut seen_new = 0;
    for i in 0..60u64 {
        let before = std::fs::read_to_string(&p).unwrap();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gsd"))
            .arg("-C")
            .arg(t.path())
            .args(["state", "set", "status", &format!("Run {i}"), "--no-commit"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Spread the kills over the whole run: from at once to after it is done.
        std::thread::sleep(std::time::Duration::from_micros(
            full * ((i * 37) % 60) / 40,
        ));
        let _ = child.kill();
        let _ = child.wait();
        let after = std::fs::read_to_string(&p).unwrap();
        let doc = gsd::model::Document::parse(
            gsd::doc::Source::from_text("STATE.md", after.clone()),
            std::path::Path::new("STATE.md"),
        );
        assert!(
            doc.fm().is_some(),
            "frontmatter still parses after kill {i}"
        );
        // A killed write leaves its change to the next command, which
        // finishes it first: the file is then an earlier run's whole result.
        // Never torn, never half: body and frontmatter agree, on this run's
        // value or an earlier one.
        let body = after
            .lines()
            .find_map(|l| l.strip_prefix("Status: "))
            .unwrap_or_default();
        let fm = after
            .lines()
            .find_map(|l| l.strip_prefix("status: "))
            .unwrap_or_default();
        assert_eq!(
            body, fm,
            "body and frontmatter disagree after kill {i}:\n{after}"
        );
        let run = body
            .strip_prefix("Run ")
            .and_then(|n| n.parse::<u64>().ok());
        assert!(
            run.is_none_or(|n| n <= i) && (run.is_some() || after == before || body == "Calibrate"),
            "neither an earlier nor this run's value after kill {i}:\n{after}"
        );
        if run == Some(i) {
            seen_new += 1;
        } else {
            seen_old += 1;
        }
        let leftovers = std::fs::read_dir(t.path().join(".planning"))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".gsd-tmp"))
            .count();
        let _ = leftovers; // a killed writer may leave its temp file; the real file is intact
    }
    println!(
        "kept old content {seen_old} times, new content {seen_new} times (a write takes {full} µs)"
    );
    assert_eq!(seen_old + seen_new, 60);
    assert!(
        seen_old > 0 && seen_new > 0,
        "kills must land both before and after the rename"
    );
}

/// Every write command: the git CLI agrees afterwards — the touched files
/// are committed and clean, a file staged beforehand is still staged and
/// not in the commit, and the repository checks out clean.
#[test]
fn every_write_command_leaves_git_consistent() {
    let plan = ".planning/phases/01-foundation/01-01-PLAN.md";
    let commands: Vec<Vec<&str>> = vec![
        vec!["state", "set", "status", "Executing"],
        vec!["state", "patch", "status=Planning", "currentPhase=2.1"],
        vec!["state", "decision", "add", "Use axum"],
        vec!["state", "blocker", "add", "Waiting on keys"],
        vec!["state", "record-session", "--stopped-at", "somewhere"],
        vec!["state", "sync"],
        vec!["fm", "set", plan, "wave", "2"],
        vec!["fm", "merge", plan, "{\"gap_closure\": false}"],
        vec!["phase", "add", "Search"],
        vec!["phase", "insert", "1", "Urgent fix"],
        vec!["roadmap", "update-progress"],
    ];
    for args in commands {
        let t = repo();
        std::fs::write(t.path().join("unrelated.txt"), "staged\n").unwrap();
        git(t.path(), &["add", "unrelated.txt"]);
        if args[0] == "state" && args[1] == "sync" {
            // Make sync have something to do.
            let p = t.path().join(".planning/STATE.md");
            std::fs::write(&p, state(t.path()).replace("percent: 66", "percent: 1")).unwrap();
            git(
                t.path(),
                &["commit", "-qm", "drift", "--", ".planning/STATE.md"],
            );
        }
        if args[0] == "roadmap" {
            // A stale row for update-progress to fix.
            let p = t.path().join(".planning/ROADMAP.md");
            std::fs::write(
                &p,
                std::fs::read_to_string(&p)
                    .unwrap()
                    .replace("| 2. API | 0/1 | Planned |", "| 2. API | 0/3 | Planned |"),
            )
            .unwrap();
            git(
                t.path(),
                &["commit", "-qm", "drift", "--", ".planning/ROADMAP.md"],
            );
        }
        let o = gsd(t.path(), &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("committed "),
            "{args:?}: {}",
            stdout(&o)
        );
        let status = git(t.path(), &["status", "--porcelain"]);
        assert_eq!(status.trim(), "A  unrelated.txt", "{args:?}");
        let files = git(t.path(), &["show", "--name-only", "--format=", "HEAD"]);
        assert!(!files.contains("unrelated.txt"), "{args:?}");
        git(t.path(), &["fsck", "--strict"]);
    }
}

/// `--out` into `.planning/` writes a planning file, so it goes through
/// the transaction and is committed alone; `--out` anywhere else is the
/// user's file, written but never committed.
#[test]
fn out_files_in_planning_are_committed_and_others_are_not() {
    let t = repo();
    let outside = tempfile::tempdir().unwrap();
    let o = gsd(t.path(), &["prd", "--out", ".planning/PRD.md"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        git(t.path(), &["show", "--name-only", "--format=%s", "HEAD"]).trim(),
        "docs: render PRD\n\n.planning/PRD.md"
    );
    let head = git(t.path(), &["rev-parse", "HEAD"]);
    let elsewhere = outside.path().join("PRD.md");
    let o = gsd(t.path(), &["prd", "--out", elsewhere.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(elsewhere.is_file());
    assert_eq!(git(t.path(), &["rev-parse", "HEAD"]), head);
    // A converted task list into .planning/ too, refused like any write
    // when the target is read-only.
    let msw = common::fixture("convert").join("msw.json");
    let target = t.path().join(".planning/tasks.json");
    std::fs::write(&target, "{}\n").unwrap();
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "tasks"]);
    std::fs::set_permissions(&target, std::os::unix::fs::PermissionsExt::from_mode(0o444)).unwrap();
    let o = gsd(
        t.path(),
        &[
            "convert",
            msw.to_str().unwrap(),
            "--to",
            "msw-json",
            "--out",
            ".planning/tasks.json",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("read-only"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "{}\n");
}

/// A journal left by a killed write is never acted on by a read (which
/// warns); `gsd recover` finishes it and says so; a file edited since is
/// never overwritten, and a write command refuses to build on it.
#[test]
fn an_interrupted_change_is_finished_explicitly_and_never_over_an_edit() {
    use gsd::store::CommitPolicy;
    use gsd::store::journal::{self, Op, Record};
    let t = repo();
    let root = std::fs::canonicalize(t.path()).unwrap();
    let state_md = root.join(".planning/STATE.md");
    let old = std::fs::read_to_string(&state_md).unwrap();
    let new = old.replace("Status: Ready to execute", "Status: Recovered");
    assert_ne!(old, new);
    let head = git(&root, &["rev-parse", "HEAD"]).trim().to_owned();
    let record = |before: &str| Record {
        version: journal::VERSION,
        message: "docs(state): interrupted".into(),
        commit: true,
        policy: CommitPolicy::Commit,
        head: Some(head.clone()),
        ops: vec![Op::Write {
            path: ".planning/STATE.md".into(),
            old: Some(before.to_owned()),
            text: new.clone(),
        }],
    };
    // Killed after the journal landed, before the file was written: a read
    // leaves it, and says so.
    journal::write(&root, &record(&old)).unwrap();
    let o = gsd(&root, &["roadmap", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is pending") && stderr(&o).contains("gsd recover"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&state_md).unwrap(), old);
    assert!(journal::pending(&root));
    let o = gsd(&root, &["recover"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("finished an interrupted change") && stdout(&o).contains("committed"),
        "{}",
        stdout(&o)
    );
    assert_eq!(std::fs::read_to_string(&state_md).unwrap(), new);
    assert_eq!(
        git(&root, &["log", "-1", "--format=%s"]).trim(),
        "docs(state): interrupted"
    );
    assert_eq!(git(&root, &["status", "--porcelain"]), "");
    assert!(!journal::pending(&root));
    // The same journal again (a removal lost to a power cut): the change is
    // committed, so nothing is replayed and nothing is committed twice.
    journal::write(&root, &record(&old)).unwrap();
    let o = gsd(&root, &["recover"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        git(&root, &["log", "-1", "--format=%s"]).trim(),
        "docs(state): interrupted"
    );
    assert_eq!(git(&root, &["rev-list", "--count", "HEAD"]).trim(), "2");
    // A journal whose file was edited since: refused, the edit kept.
    let edited = new.replace("Status: Recovered", "Status: Edited by hand");
    std::fs::write(&state_md, &edited).unwrap();
    git(&root, &["commit", "-qam", "hand edit"]);
    let mut r = record(&old);
    r.head = Some(git(&root, &["rev-parse", "HEAD"]).trim().to_owned());
    journal::write(&root, &r).unwrap();
    let o = gsd(&root, &["state", "set", "status", "Executing"]);
    assert_eq!(o.status.code(), Some(2));
    let words = stderr(&o)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains("cannot be finished or undone") && words.contains(".planning/STATE.md"),
        "{words}"
    );
    assert_eq!(std::fs::read_to_string(&state_md).unwrap(), edited);
    // A journal this gsd cannot read (an older gsd's): named, and dropped
    // by `--abandon` without touching any other file.
    std::fs::write(journal::path(&root), r#"{"version":1,"ops":[]}"#).unwrap();
    let o = gsd(&root, &["state", "set", "status", "Executing"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a gsd journal"), "{}", stderr(&o));
    let o = gsd(&root, &["recover", "--abandon"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("dropped"), "{}", stdout(&o));
    assert!(!journal::pending(&root));
    assert_eq!(std::fs::read_to_string(&state_md).unwrap(), edited);
}

/// A value that starts with `-` is a value, not an unknown flag, for `fm
/// set` and `state set`; the flags after it still count.
#[test]
fn values_starting_with_a_dash_are_values() {
    let t = repo();
    let plan = ".planning/phases/02-api/02-01-PLAN.md";
    let o = gsd(t.path(), &["fm", "set", plan, "wave", "-1", "--dry-run"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("+wave: -1"), "{}", stdout(&o));
    let o = gsd(
        t.path(),
        &["state", "set", "status", "- pending", "--dry-run"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("- pending"), "{}", stdout(&o));
    assert_eq!(
        git(t.path(), &["status", "--porcelain"]),
        "",
        "dry runs change nothing"
    );
}
