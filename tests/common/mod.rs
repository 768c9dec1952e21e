//! Test helpers: copy a fixture tree to a temp dir and run the real binary.
#![allow(dead_code)]

pub mod claude_cli;
pub mod mock_gemini;
pub mod mock_model;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// A temp copy of a fixture tree.
pub fn tree(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixture(name), dir.path());
    dir
}

pub fn gsd(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gsd"))
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Every STATE.md of a tree that gsd's commands address, each with the
/// arguments that address it: the root one when the tree points at no
/// workstream, and each workstream's with `--ws NAME`.
#[allow(dead_code)]
pub fn state_files(tree: &Path) -> Vec<(Vec<String>, std::path::PathBuf)> {
    let mut out = Vec::new();
    let root = std::path::PathBuf::from(".planning/STATE.md");
    if gsd::model::workstream::implied(tree).is_none() && tree.join(&root).is_file() {
        out.push((Vec::new(), root));
    }
    for w in gsd::model::workstream::names(tree) {
        let rel = std::path::PathBuf::from(".planning/workstreams")
            .join(&w)
            .join("STATE.md");
        if tree.join(&rel).is_file() {
            out.push((vec!["--ws".to_owned(), w], rel));
        }
    }
    out
}

/// `gsd` with `pre` (such as `--ws NAME`) before `args`.
#[allow(dead_code)]
pub fn gsd_in(dir: &Path, pre: &[String], args: &[&str]) -> Output {
    let mut all: Vec<&str> = pre.iter().map(String::as_str).collect();
    all.extend_from_slice(args);
    gsd(dir, &all)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", stdout(o), stderr(o)))
}

/// Lint a tree and return (exit code, diagnostics).
pub fn lint(dir: &Path) -> (i32, Vec<serde_json::Value>) {
    let o = gsd(dir, &["lint", "--format", "json"]);
    let v = json(&o);
    (
        o.status.code().unwrap_or(-1),
        v["diagnostics"].as_array().unwrap().clone(),
    )
}

pub fn codes(diags: &[serde_json::Value]) -> Vec<String> {
    diags
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect()
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    let o = std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A project started the way a user starts one: `git init`, then `gsd init`
/// with these phases and requirements (`ID: text`).
pub fn gsd_init(phases: &[&str], reqs: &[&str]) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    git(t.path(), &["init", "-q", "-b", "main"]);
    git(t.path(), &["config", "user.email", "t@example.com"]);
    git(t.path(), &["config", "user.name", "T"]);
    let mut args = vec!["init", "-y", "-q", "--name", "Shop"];
    for p in phases {
        args.extend(["--phase", p]);
    }
    for r in reqs {
        args.extend(["--requirement", r]);
    }
    let o = gsd(t.path(), &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    t
}

/// A writable copy of a fixture tree in a fresh repository with one commit.
pub fn repo_of(name: &str) -> tempfile::TempDir {
    repo_of_in(name, &std::env::temp_dir())
}

/// [`repo_of`] in a new folder of `parent`, for a test whose inputs assume
/// how deep the project lies (`cd ../../..` reaching `/`).
pub fn repo_of_in(name: &str, parent: &Path) -> tempfile::TempDir {
    let t = tempfile::tempdir_in(parent).unwrap();
    copy_dir(&fixture(name), t.path());
    git(t.path(), &["init", "-q", "-b", "main"]);
    git(t.path(), &["config", "user.email", "test@example.com"]);
    git(t.path(), &["config", "user.name", "Test"]);
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "init"]);
    t
}

/// Plan 02-02 of the Ralph tests: two tasks whose own `<verify>` commands
/// are the loop's checks (task 1 names its model).
pub const STEP_PLAN: &str = r#"---
phase: 02-api
plan: 02
type: execute
wave: 1
depends_on: []
files_modified: [work/step1.txt, work/step2.txt]
autonomous: true
requirements: [API-01]
must_haves:
  truths: ["Both step files are written"]
---

<objective>
Write the two step files.
</objective>

<tasks>
<task type="auto" model="claude-haiku-4-5">
  <name>Task 1: Write step one</name>
  <files>work/step1.txt</files>
  <action>Create work/step1.txt containing "one".</action>
  <verify><automated>grep one work/step1.txt</automated></verify>
  <done>work/step1.txt says one</done>
</task>

<task type="auto">
  <name>Task 2: Write step two</name>
  <files>work/step2.txt</files>
  <action>Create work/step2.txt containing "two".</action>
  <verify><automated>cat work/step2.txt</automated></verify>
  <done>work/step2.txt says two</done>
</task>
</tasks>
"#;

/// A repository of `dir` with one commit, its objects packed (each copy
/// of it copies a few files of .git, not thousands).
pub fn init_packed(dir: &Path) {
    git(dir, &["init", "-q", "-b", "main"]);
    git(dir, &["config", "user.email", "test@example.com"]);
    git(dir, &["config", "user.name", "Test"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "init"]);
    git(dir, &["gc", "-q"]);
}

/// A tree of `phases` phases with `plans` plans each, and summaries for
/// the first two thirds: 75 × 6 gives 750 files, and 5 core files.
pub fn big_tree(dir: &Path, phases: usize, plans: usize) {
    let planning = dir.join(".planning");
    std::fs::create_dir_all(planning.join("phases")).unwrap();
    let mut roadmap = String::from("# Roadmap: Big\n\n## Phases\n\n");
    for p in 1..=phases {
        roadmap += &format!("- [ ] **Phase {p}: Phase number {p}** - desc\n");
    }
    roadmap += "\n## Phase Details\n";
    for p in 1..=phases {
        let folder = planning.join(format!("phases/{p:02}-phase-number-{p}"));
        std::fs::create_dir_all(&folder).unwrap();
        roadmap += &format!(
            "\n### Phase {p}: Phase number {p}\n**Goal**: goal {p}\n**Depends on**: Phase {}\n**Requirements**: [STEP-01]\n**Plans**: {plans} plans\n\nPlans:\n",
            p.saturating_sub(1)
        );
        for n in 1..=plans {
            let plan = STEP_PLAN
                .replace("phase: 02-api", &format!("phase: {p:02}-phase-number-{p}"))
                .replace("plan: 02\n", &format!("plan: {n:02}\n"));
            std::fs::write(folder.join(format!("{p:02}-{n:02}-PLAN.md")), plan).unwrap();
            if p <= phases * 2 / 3 {
                std::fs::write(
                    folder.join(format!("{p:02}-{n:02}-SUMMARY.md")),
                    format!("---\nphase: {p:02}\nplan: {n:02}\ncompleted: 2026-01-02\n---\n\n# Summary {p}-{n}\n\nDone; see Phase {p}.\n"),
                )
                .unwrap();
            }
            roadmap += &format!("- [ ] {p:02}-{n:02}: plan {n}\n");
        }
    }
    roadmap += "\n## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|-------|----------------|--------|-----------|\n";
    for p in 1..=phases {
        roadmap += &format!("| {p}. Phase number {p} | 0/{plans} | Not started | - |\n");
    }
    std::fs::write(planning.join("ROADMAP.md"), roadmap).unwrap();
    std::fs::write(
        planning.join("STATE.md"),
        format!("# Project State\n\n## Current Position\n\nPhase: 5 of {phases} (Phase number 5)\nPlan: 1 of {plans}\nStatus: Ready to plan\nLast activity: 2026-01-01 - started\n"),
    )
    .unwrap();
    std::fs::write(
        planning.join("PROJECT.md"),
        "# Big\n\n## What This Is\n\nA big tree.\n",
    )
    .unwrap();
    std::fs::write(
        planning.join("REQUIREMENTS.md"),
        "# Requirements\n\n- [ ] **STEP-01**: steps\n",
    )
    .unwrap();
    std::fs::write(planning.join("config.json"), "{}\n").unwrap();
}

/// The clean fixture in a fresh repository, with plan 02-02 committed.
pub fn step_project() -> tempfile::TempDir {
    let dir = repo_of("clean");
    std::fs::write(
        dir.path().join(".planning/phases/02-api/02-02-PLAN.md"),
        STEP_PLAN,
    )
    .unwrap();
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-qm", "plan 02-02"]);
    dir
}

/// Run `cmd` with `input` on stdin and collect its output (hooks read JSON there).
pub fn with_stdin(mut cmd: std::process::Command, input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// `gsd -C DIR ARGS…` as a command, for adding environment or stdin.
pub fn gsd_cmd(dir: &Path, args: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C").arg(dir).args(args);
    c
}

/// `PhaseIndex` (hash lookups used by lint and `gsd roadmap`) must answer
/// exactly what the model's own scans answer — the same folder, section,
/// checklist entry and progress row — for every phase ID the tree mentions
/// and a few it does not.
pub fn assert_index_agrees(ws: &gsd::model::Workspace) {
    use gsd::model::{PhaseId, PhaseIndex};
    fn same_ref<T>(a: Option<&T>, b: Option<&T>) -> bool {
        match (a, b) {
            (None, None) => true,
            (Some(x), Some(y)) => std::ptr::eq(x, y),
            _ => false,
        }
    }
    let index = PhaseIndex::new(ws);
    let mut ids: Vec<PhaseId> = ws.phases.iter().filter_map(|p| p.id.clone()).collect();
    if let Some(rm) = &ws.roadmap {
        ids.extend(rm.all_phase_ids());
    }
    ids.extend(
        ["0", "00", "999", "7.5", "12B"]
            .iter()
            .filter_map(|s| PhaseId::parse(s)),
    );
    for id in &ids {
        let shown = id.unpadded();
        assert!(
            same_ref(index.folder(id), ws.phase(id)),
            "folder of {shown}"
        );
        let current = ws
            .current_phases()
            .find(|p| p.id.as_ref().is_some_and(|i| i.same(id)));
        assert!(
            same_ref(index.current(id), current),
            "current folder of {shown}"
        );
        match &ws.roadmap {
            Some(rm) => {
                assert!(
                    same_ref(index.detail(id), rm.phase(id)),
                    "section of {shown}"
                );
                assert!(
                    same_ref(index.checklist(id), rm.checklist_entry(id)),
                    "checklist entry of {shown}"
                );
                assert!(
                    same_ref(index.progress(id), rm.progress_row(id)),
                    "progress row of {shown}"
                );
                let named = rm.all_phase_ids().iter().any(|i| i.same(id));
                assert_eq!(index.in_roadmap(id), named, "in ROADMAP.md: {shown}");
            }
            None => assert!(index.detail(id).is_none() && !index.in_roadmap(id)),
        }
    }
}

/// Run a command to its end, killing it and failing the test if it takes
/// longer than `limit` (a hang must fail, not stall the suite).
pub fn wait_limited(mut c: Command, limit: Duration) -> Output {
    let program = c.get_program().to_string_lossy().into_owned();
    let child = c
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the program starts");
    let pid = child.id();
    let start = std::time::Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit.saturating_sub(start.elapsed())) {
        Ok(o) => o.unwrap(),
        Err(_) => {
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            panic!("{program} did not finish within {limit:?}");
        }
    }
}

/// The trees of the corpus named by GSD_CORPUS (`.ci/run` sets it to
/// ../shared/corpus), sorted; None when it is not set.
pub fn corpus_trees() -> Option<Vec<std::path::PathBuf>> {
    let root = std::env::var_os("GSD_CORPUS")?;
    let mut v: Vec<std::path::PathBuf> = std::fs::read_dir(root)
        .expect("GSD_CORPUS is a folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(".planning").is_dir())
        .collect();
    v.sort();
    Some(v)
}

/// What `gsd plan list --json` lists in `dir`: (ID, path) of each plan.
pub fn plan_list(dir: &Path) -> Vec<(String, String)> {
    let o = gsd(dir, &["plan", "list", "--json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}: {}",
        dir.display(),
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["plans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_owned(),
                p["path"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// A gsd that `cargo install` built runs on its own: it names this
/// version and lints the bundled example tree clean (the README's route
/// onto PATH, checked by `tests/install.rs` or, where pre-commit is
/// installed, by the pre-commit test on the gsd its hook build made).
pub fn assert_installed_gsd_works(gsd: &Path) {
    assert!(gsd.is_file(), "cargo install built no {}", gsd.display());
    let v = Command::new(gsd).arg("--version").output().unwrap();
    assert_eq!(stdout(&v), format!("gsd {}\n", env!("CARGO_PKG_VERSION")));
    let lint = Command::new(gsd)
        .arg("-C")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/clean"))
        .arg("lint")
        .output()
        .unwrap();
    assert_eq!(lint.status.code(), Some(0), "{}", stderr(&lint));
    assert!(stdout(&lint).contains("0 error(s)"), "{}", stdout(&lint));
}

/// What a `cargo install` inside a test is built with: the dev profile (the
/// test passes `--debug`) in a build folder of its own, seeded with links to
/// the dependencies this test build has already compiled, so the install
/// compiles gsd alone (about a minute) instead of its ~300 dependencies again
/// (614 s in CI at e461c02, the suite's slowest test, on a 2-core machine).
/// What is being tested does not change: the install path, the lockfile
/// (`--locked`), the binary's name and what it runs. A seed that does not
/// match (a test build in another profile) only makes cargo build more.
pub fn quick_install(label: &str) -> [(&'static str, std::ffi::OsString); 1] {
    // Seeded once per test process: a second install in the same test
    // (pre-commit's, on a second sample) reuses the first one's gsd.
    static SEEDED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut seeded = SEEDED.lock().unwrap();
    let dir = if seeded.iter().any(|l| l == label) {
        install_root(label)
    } else {
        seeded.push(label.to_owned());
        seeded_target(label)
    };
    [("CARGO_TARGET_DIR", dir.into_os_string())]
}

fn install_root(label: &str) -> PathBuf {
    // The test executable is <target>/<profile>/deps/<name>-<hash>.
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap();
    target.join("install-check").join(label)
}

/// `<target>/install-check/<label>`, made afresh: its `debug/deps` and
/// `debug/build` hard links to this test build's files, its
/// `debug/.fingerprint` a copy (cargo writes fingerprints in place), and
/// gsd's own artifacts left out, so cargo rebuilds gsd and only reads the
/// linked files of the dependencies it finds fresh.
fn seeded_target(label: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.ancestors().nth(2).unwrap();
    let root = install_root(label);
    let _ = std::fs::remove_dir_all(&root);
    let seed = root.join("debug");
    for (sub, link) in [("deps", true), ("build", true), (".fingerprint", false)] {
        let from = profile.join(sub);
        if from.is_dir() {
            seed_tree(&from, &seed.join(sub), link, true);
        }
    }
    root
}

fn seed_tree(from: &Path, to: &Path, link: bool, top: bool) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let name = entry.file_name();
        let text = name.to_string_lossy();
        if top && (text.starts_with("gsd-") || text.starts_with("libgsd-")) {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            seed_tree(&src, &dst, link, false);
        } else if kind.is_symlink() {
            let points_to = std::fs::read_link(&src).unwrap();
            std::os::unix::fs::symlink(points_to, &dst).unwrap();
        } else if !(link && std::fs::hard_link(&src, &dst).is_ok()) {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The plan the Ralph tests share: plan `n` of phase folder `phase`, in
/// `wave` after `deps`, whose one task writes `work/FILE` and is checked by
/// `verify` (`test -s work/FILE` when None).
pub fn work_plan(
    phase: &str,
    n: &str,
    wave: u32,
    deps: &str,
    file: &str,
    requirements: &str,
    verify: Option<&str>,
) -> String {
    let verify = verify.map_or_else(|| format!("test -s work/{file}"), str::to_owned);
    format!(
        r#"---
phase: {phase}
plan: "{n}"
type: execute
wave: {wave}
depends_on: {deps}
files_modified: [work/{file}]
autonomous: true
requirements: {requirements}
must_haves:
  truths: ["work/{file} is written"]
---

<objective>
Write work/{file}.
</objective>

<tasks>
<task type="auto">
  <name>Task 1: Write {file}</name>
  <files>work/{file}</files>
  <action>Create work/{file}.</action>
  <verify><automated>{verify}</automated></verify>
  <done>work/{file} exists</done>
</task>
</tasks>
"#
    )
}

/// Everything a write may change, to compare before and after: each file
/// and folder outside `.git/` and `.gsd/` (bytes and mode), HEAD and git's
/// index entries (not the index file's bytes: `git status` refreshes its
/// stat data).
#[derive(Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub files: std::collections::BTreeMap<String, (u32, Vec<u8>)>,
    pub head: String,
    pub index: String,
}

pub fn snapshot(dir: &Path) -> Snapshot {
    use std::os::unix::fs::PermissionsExt;
    let mut files = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(dir).unwrap().display().to_string();
            if rel == ".git" || rel == ".gsd" {
                continue;
            }
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let mode = meta.permissions().mode();
            if meta.is_dir() {
                files.insert(format!("{rel}/"), (mode, Vec::new()));
                stack.push(p);
            } else if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&p).unwrap();
                files.insert(rel, (mode, target.display().to_string().into_bytes()));
            } else {
                files.insert(rel, (mode, std::fs::read(&p).unwrap()));
            }
        }
    }
    let head = std::process::Command::new("git")
        .current_dir(dir)
        .args(["rev-parse", "HEAD"])
        .output()
        .unwrap();
    Snapshot {
        files,
        head: String::from_utf8_lossy(&head.stdout).trim().to_owned(),
        index: git(dir, &["ls-files", "-s"]),
    }
}

/// What differs between two snapshots, one line per path (HEAD and the
/// index as `HEAD` and `index`): short enough for a failure message.
pub fn changes(a: &Snapshot, b: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    if a.head != b.head {
        out.push(format!("HEAD {} → {}", a.head, b.head));
    }
    if a.index != b.index {
        out.push("index".to_owned());
    }
    for (p, v) in &a.files {
        match b.files.get(p) {
            None => out.push(format!("{p} gone")),
            Some(w) if w.0 != v.0 => out.push(format!("{p} mode {:o} → {:o}", v.0, w.0)),
            Some(w) if w.1 != v.1 => out.push(format!("{p} changed")),
            _ => {}
        }
    }
    out.extend(
        b.files
            .keys()
            .filter(|p| !a.files.contains_key(*p))
            .map(|p| format!("{p} new")),
    );
    out
}

/// Fail with `what` and the differing paths unless `a` and `b` agree.
#[track_caller]
pub fn assert_same(a: &Snapshot, b: &Snapshot, what: &str) {
    let c = changes(a, b);
    assert!(c.is_empty(), "{what}: {c:#?}");
}

/// A link a running change keeps in `.gsd/` to a file it replaces (its
/// undo renames it back; the change's end removes it).
pub fn kept_link(p: &Path) -> bool {
    p.parent()
        .and_then(Path::file_name)
        .is_some_and(|d| d == ".gsd")
        && p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(".gsd-tmp-old-"))
}

/// Files gsd may never leave behind: temp files anywhere, and a journal
/// with a change in it (an empty one is the journal at rest).
pub fn leftovers(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name == ".git" {
                continue;
            }
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else if name.starts_with(".gsd-tmp")
                || (name == "journal.json" && e.metadata().unwrap().len() > 0)
            {
                out.push(e.path());
            }
        }
    }
    out
}

/// Hash of every file under `dir` (paths and bytes) and a peer's version:
/// the key of a recorded peer answer (a changed tree is asked live).
pub fn fingerprint(dir: &Path, version: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut h = Sha256::new();
    h.update(version.as_bytes());
    for f in files {
        h.update(
            f.strip_prefix(dir)
                .expect("inside")
                .to_string_lossy()
                .as_bytes(),
        );
        h.update([0]);
        h.update(std::fs::read(&f).unwrap_or_default());
        h.update([0]);
    }
    format!("{:x}", h.finalize())
}
