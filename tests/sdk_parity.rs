//! Parity with the real gsd-sdk (npm get-shit-done-cc 1.42.3, installed by
//! `.ci/gsd-sdk` and named by GSD_SDK) over every tree of ../shared/corpus.
//!
//! Reads: every covered read command, with the arguments GSD's workflows
//! pass (config keys, agent names taken from the installed package; phase
//! numbers and plan files taken from each tree), answered by gsd-sdk and by
//! `gsd sdk query` on two copies of the tree. stdout and the exit code must
//! be equal: PARITY.md lists no difference in answers, so any difference
//! fails. gsd's copy must end byte-identical (a read writes nothing);
//! gsd-sdk's rewrites are counted (PARITY.md E1).
//!
//! Writes: see `writes_*`. `bench/sdk-parity.sh` runs this with the totals
//! printed.

mod common;
#[path = "sdk_parity/peer.rs"]
mod peer;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{copy_dir, corpus_trees, git};

fn package() -> PathBuf {
    PathBuf::from(std::env::var_os("GSD_SDK").expect("GSD_SDK names the get-shit-done-cc package"))
}

fn gsd_bin() -> &'static str {
    env!("CARGO_BIN_EXE_gsd")
}

/// gsd-sdk's answers to many calls on one copy of the current tree
/// ([`peer::begin`]): recorded, or live through `driver.mjs`.
fn gsd_sdk_answers(dir: &Path, calls: &[Vec<String>]) -> Vec<(String, i32)> {
    peer::answers(dir, calls)
}

/// gsd's stderr for a call (to name why it refused).
fn gsd_stderr(dir: &Path, argv: &[String]) -> String {
    gsd_answer_full(dir, argv).1
}

fn gsd_answer(dir: &Path, argv: &[String]) -> (String, i32) {
    gsd_answer_full(dir, argv).0
}

/// gsd's answer and its stderr, from the library in this process (what
/// `gsd sdk query` prints, without a process start per call; the live
/// sample compares it with the binary's).
fn gsd_answer_in_process(dir: &Path, argv: &[String]) -> ((String, i32), String) {
    let mut req = gsd::sdk::parse_argv(argv, dir);
    req.fallback = gsd::sdk::FallbackPolicy::Denied;
    let a = gsd::sdk::query(&req);
    ((a.stdout, a.exit), a.stderr.join("\n"))
}

/// gsd's answer and its stderr.
fn gsd_answer_full(dir: &Path, argv: &[String]) -> ((String, i32), String) {
    let o = Command::new(gsd_bin())
        .current_dir(dir)
        .args(["sdk", "query"])
        .args(argv)
        .env("GSD_SDK_FALLBACK", "off")
        .env_remove("BRAVE_API_KEY")
        .env_remove("GSD_WORKSTREAM")
        .output()
        .expect("gsd runs");
    (
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            o.status.code().unwrap_or(-1),
        ),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The literal arguments the package's workflows pass to `command`.
fn workflow_args(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let pkg = package();
    let needle = format!("gsd-sdk query {command} ");
    let mut stack = vec![
        pkg.join("get-shit-done/workflows"),
        pkg.join("commands"),
        pkg.join("agents"),
    ];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let Ok(t) = std::fs::read_to_string(&p) else {
                continue;
            };
            for (i, _) in t.match_indices(&needle) {
                let rest = &t[i + needle.len()..];
                let arg: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
                    .collect();
                if !arg.is_empty() && !out.contains(&arg) {
                    out.push(arg);
                }
            }
        }
    }
    out.sort();
    out
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// Phase numbers to ask about in a tree: each phase folder's number, each
/// roadmap `Phase N:` heading's, and one that does not exist.
fn phase_numbers(tree: &Path) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in std::fs::read_dir(tree.join(".planning/phases"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        let num: String = name
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let num = num
            .trim_end_matches('.')
            .trim_start_matches('0')
            .to_string();
        if !num.is_empty() && !out.contains(&num) {
            out.push(num);
        }
    }
    if let Ok(r) = std::fs::read_to_string(tree.join(".planning/ROADMAP.md")) {
        for (i, _) in r.match_indices("Phase ") {
            let num: String = r[i + 6..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let num = num.trim_end_matches('.').to_string();
            if !num.is_empty() && !out.contains(&num) {
                out.push(num);
            }
        }
    }
    out.sort();
    // A big tree (200 phase folders) is sampled: its first and last
    // phases, where numbering and milestone edges are.
    if out.len() > 16 {
        let tail = out.split_off(out.len() - 8);
        out.truncate(8);
        out.extend(tail);
    }
    out.push("999".into());
    out
}

/// Up to `n` files of a tree's `.planning/` (archived milestones too)
/// whose names end with one of `ends`, relative paths, sorted.
fn planning_files(tree: &Path, n: usize, ends: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![tree.join(".planning")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .file_name()
                .is_some_and(|f| ends.iter().any(|e| f.to_string_lossy().ends_with(e)))
            {
                out.push(p.strip_prefix(tree).expect("inside").display().to_string());
            }
        }
    }
    out.sort();
    out.truncate(n);
    out
}

/// Up to `n` plan and summary files of a tree.
fn plan_files(tree: &Path, n: usize) -> Vec<String> {
    planning_files(tree, n, &["PLAN.md", "SUMMARY.md"])
}

/// The read calls compared on one tree.
fn read_calls(tree: &Path) -> Vec<Vec<String>> {
    let mut calls = vec![
        s(&["state.load"]),
        s(&["state", "load"]),
        s(&["roadmap.analyze"]),
        s(&["roadmap", "analyze"]),
        s(&["config-path"]),
        s(&["generate-slug", "Add the user-facing Export (v2)!"]),
        s(&["config-get"]),
        s(&[
            "config-get",
            "workflow.nonexistent_key",
            "--default",
            "fallback",
        ]),
        s(&["config-get", "workflow.research", "--raw"]),
        s(&["state.load", "--pick", "config.commit_docs"]),
        s(&["resolve-model"]),
        s(&["agent-skills"]),
    ];
    for k in workflow_args("config-get") {
        calls.push(vec!["config-get".into(), k]);
    }
    for a in workflow_args("resolve-model") {
        calls.push(vec!["resolve-model".into(), a]);
    }
    calls.push(s(&["resolve-model", "not-an-agent"]));
    for a in workflow_args("agent-skills") {
        calls.push(vec!["agent-skills".into(), a]);
    }
    calls.push(s(&["init.phase-op"]));
    for c in [
        &["check.auto-mode"][..],
        &["check", "auto-mode", "--pick", "active"],
        &["phases.list"],
        &["phases.list", "--pick", "directories[-1]"],
        &["phases.list", "--type", "summaries", "--raw"],
        &["phases.list", "--type", "plans"],
        &["phases.list", "--include-archived"],
        &["progress.bar", "--raw"],
        &["progress", "json"],
    ] {
        calls.push(s(c));
    }
    calls.push(s(&["find-phase"]));
    for n in phase_numbers(tree) {
        calls.push(vec!["find-phase".into(), n.clone()]);
        calls.push(vec!["init.phase-op".into(), n.clone()]);
        calls.push(vec![
            "init".into(),
            "phase-op".into(),
            format!("--phase={n}"),
        ]);
        calls.push(vec!["roadmap.get-phase".into(), n.clone()]);
        calls.push(vec![
            "phases.list".into(),
            "--type".into(),
            "all".into(),
            "--phase".into(),
            n.clone(),
        ]);
        calls.push(vec![
            "roadmap".into(),
            "get-phase".into(),
            n.clone(),
            "--pick".into(),
            "goal".into(),
        ]);
    }
    for f in plan_files(tree, 12)
        .into_iter()
        .filter(|f| f.ends_with("SUMMARY.md"))
    {
        calls.push(vec!["summary-extract".into(), f.clone()]);
        calls.push(vec![
            "summary-extract".into(),
            f.clone(),
            "--fields".into(),
            "one_liner,key_files,nope".into(),
        ]);
    }
    for f in plan_files(tree, 12) {
        calls.push(vec!["frontmatter.get".into(), f.clone()]);
        calls.push(vec!["frontmatter.get".into(), f.clone(), "status".into()]);
        calls.push(vec!["frontmatter".into(), "get".into(), f, "wave".into()]);
    }
    calls.push(s(&["frontmatter.get", ".planning/NOPE.md"]));
    calls.push(s(&["frontmatter.get", "../outside.md"]));
    calls.extend(plan_and_task_calls(tree));
    calls.extend(overview_calls(tree));
    calls
}

/// The calls of progress, manager, add-backlog and the executor's plan
/// index: whole-milestone views and per-phase plan listings.
fn overview_calls(tree: &Path) -> Vec<Vec<String>> {
    let mut calls: Vec<Vec<String>> = [
        &["init.progress"][..],
        &["init.manager"],
        &["init", "manager", "--pick", "recommended_actions"],
        &["phase-plan-index"],
        &["phase.list-plans"],
        &["phase.list-plans", "1", "--with-schema"],
        &["phase.next-decimal"],
        &["phase.next-decimal", "999", "--raw"],
        &["stats.json"],
        &["stats", "table"],
        &["progress"],
        &["progress", "table"],
        &["init.resume"],
        &["init.new-milestone"],
        &["init.verify-work"],
        &["audit-uat"],
        &["audit-uat", "--raw"],
        &["detect-custom-files"],
        &["detect-custom-files", "--config-dir", "runtime-config"],
        &[
            "detect-custom-files",
            "--config-dir",
            "./runtime-config/../runtime-broken",
        ],
        &["detect-custom-files", "--config-dir", "runtime-none"],
        &["detect-custom-files", "--config-dir", "no-such-dir"],
        &[
            "validate.context",
            "--tokens-used",
            "120000",
            "--context-window",
            "200000",
        ],
        &[
            "validate.context",
            "--tokens-used",
            "139999",
            "--context-window",
            "200000",
        ],
        &[
            "validate.context",
            "--tokens-used",
            "12",
            "--context-window",
            "200000",
        ],
        &[
            "validate.context",
            "--tokens-used",
            "300000",
            "--context-window",
            "200000",
        ],
        &[
            "validate.context",
            "--tokens-used",
            "1e3",
            "--context-window",
            "0x100",
        ],
        &[
            "validate.context",
            "--tokens-used",
            "",
            "--context-window",
            "5",
        ],
        &[
            "validate.context",
            "--tokens-used",
            "1.5",
            "--context-window",
            "5",
        ],
        &[
            "validate.context",
            "--tokens-used",
            "-1",
            "--context-window",
            "5",
        ],
        &[
            "validate.context",
            "--tokens-used",
            "5",
            "--context-window",
            "0",
        ],
        &[
            "validate.context",
            "--tokens-used",
            "inf",
            "--context-window",
            "5",
        ],
        &["validate.context", "--tokens-used", "5"],
    ]
    .iter()
    .map(|c| s(c))
    .collect();
    for n in phase_numbers(tree) {
        calls.push(vec!["phase-plan-index".into(), n.clone()]);
        calls.push(vec!["phase.list-plans".into(), n.clone()]);
        calls.push(vec![
            "phase.list-plans".into(),
            n.clone(),
            "--with-schema".into(),
            "must_haves".into(),
        ]);
        calls.push(vec!["phase.next-decimal".into(), n.clone()]);
        calls.push(vec!["init.verify-work".into(), n]);
    }
    calls
}

/// The calls of plan-phase, execute-phase, quick, todos and the MVP checks.
fn plan_and_task_calls(tree: &Path) -> Vec<Vec<String>> {
    let mut calls = Vec::new();
    for c in [
        &["init.plan-phase"][..],
        &["init.execute-phase"],
        &["init.quick"],
        &["init.quick", "Fix the login bug (again)!"],
        &["init.todos"],
        &["init.todos", "general"],
        &["init.map-codebase"],
        &["init.milestone-op"],
        &["state-snapshot"],
        &["workstream.list", "--raw"],
        &["websearch", "lossless yaml"],
        &["todo.match-phase"],
        &["phase.mvp-mode"],
        &["phase.list-artifacts"],
        &["phase.list-artifacts", "1", "--type", "plans"],
        &["task.is-behavior-adding"],
        &["task.is-behavior-adding", "../outside.md"],
        &["task.is-behavior-adding", "nope.md"],
        &[
            "task.is-behavior-adding",
            "--task-content",
            "<task tdd=\"true\"><behavior> x </behavior><files>- src/a.rs, tests/b.rs</files></task>",
        ],
        &[
            "task.is-behavior-adding",
            "--task-content",
            "<files>a.md\n.env.local, config.yaml</files>",
        ],
        &[
            "user-story.validate",
            "As a user, I want to log in, so that I can see my data.",
        ],
        &[
            "user-story.validate",
            "As",
            "a",
            "user,",
            "I",
            "want",
            "to",
            "log",
            "in",
        ],
        &[
            "user-story.validate",
            "--story",
            "as a x, i want to y, so that z.",
        ],
        &["user-story.validate", "--story", ""],
        &["agent.classify-failure", "--", "Error 429: Retry-After: 30"],
        &[
            "agent.classify-failure",
            "ReferenceError: classifyHandoffIfNeeded is not defined",
        ],
        &["agent.classify-failure", "RESOURCE_EXHAUSTED"],
        &["agent.classify-failure", "  "],
    ] {
        calls.push(s(c));
    }
    for n in phase_numbers(tree) {
        for c in [
            vec!["init.plan-phase".to_string(), n.clone()],
            vec!["init.execute-phase".into(), n.clone()],
            vec!["init".into(), "plan-phase".into(), format!("--phase={n}")],
            vec!["todo.match-phase".into(), n.clone()],
            vec!["phase.mvp-mode".into(), n.clone()],
            vec!["phase.mvp-mode".into(), n.clone(), "--cli-flag".into()],
            vec![
                "phase.list-artifacts".into(),
                n.clone(),
                "--type".into(),
                "summary".into(),
            ],
            vec![
                "phase.list-artifacts".into(),
                n.clone(),
                "--type".into(),
                "CONTEXT".into(),
            ],
        ] {
            calls.push(c);
        }
    }
    for f in plan_files(tree, 12) {
        for c in [
            "task.is-behavior-adding",
            "verify.plan-structure",
            "verify.artifacts",
            "verify.key-links",
            "plan.task-structure",
        ] {
            calls.push(vec![c.into(), f.clone()]);
        }
    }
    for f in planning_files(tree, 8, &["UAT.md"]) {
        calls.push(s(&["uat.render-checkpoint", "--file", &f]));
        calls.push(s(&["uat.render-checkpoint", "--file", &f, "--raw"]));
    }
    for c in [
        &["verify.plan-structure"][..],
        &["verify.artifacts", "nope.md"],
        &["verify.key-links", "../outside.md"],
        &["uat.render-checkpoint"],
        &["uat.render-checkpoint", "--file"],
        &["uat.render-checkpoint", "--file", "nope-UAT.md"],
        &["uat.render-checkpoint", "--file", "../outside-UAT.md"],
        &["uat.render-checkpoint", "--file", ".planning/STATE.md"],
        &["plan.task-structure"],
        &["plan.task-structure", "../outside.md"],
        &["plan.task-structure", "nope-PLAN.md"],
        &["plan.task-structure", ".planning"],
        &["plan.task-structure", "/etc/hostname"],
    ] {
        calls.push(s(c));
    }
    calls
}

/// `check` on every tree, two trees at a time (this machine's cores: the
/// trees are independent, and the peer's context is per thread); the
/// results in the trees' order.
fn on_two_workers<T: Send>(trees: &[PathBuf], check: impl Fn(&Path) -> T + Sync) -> Vec<T> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(tree) = trees.get(i) else { break };
                        mine.push((i, check(tree)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// How many trees' gsd-sdk answers were replayed, checked live against
/// their recording (the fixed sample), or asked live (not recorded).
#[derive(Default)]
struct Sources {
    replayed: usize,
    sample: Vec<String>,
    live: Vec<String>,
}

impl Sources {
    fn add(&mut self, name: &str, s: peer::Source) {
        match s {
            peer::Source::Replayed => self.replayed += 1,
            peer::Source::SampleChecked => self.sample.push(name.to_string()),
            peer::Source::Live => self.live.push(name.to_string()),
        }
    }
    fn report(&self, test: &str) {
        eprintln!(
            "gsd-sdk {} ({test}): {} trees replayed from tests/sdk_parity/recorded, {} asked live and equal to their recording (the fixed sample: {:?}), {} asked live, not recorded{}: {:?}",
            peer::VERSION,
            self.replayed,
            self.sample.len(),
            self.sample,
            self.live.len(),
            if self.live.is_empty() || peer::recording() {
                ""
            } else {
                " (bash bench/sdk-record.sh records them)"
            },
            self.live
        );
    }
}

/// The corpus trees, then `fixtures/sdk-parity/` (what no corpus tree
/// holds: todos, MVP mode, requirement lines, branching configs).
fn parity_trees() -> Vec<PathBuf> {
    let mut trees = corpus_trees().expect("GSD_CORPUS");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sdk-parity");
    let mut own: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .expect("fixtures/sdk-parity")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(".planning").is_dir())
        .collect();
    own.sort();
    assert!(own.len() >= 3, "the sdk-parity fixtures are there");
    trees.extend(own);
    trees
}

/// An answer with the clock taken out: ISO timestamps, and quick-task IDs
/// (`YYMMDD-xxx`, two-second blocks of the day).
fn without_clock(answer: &str) -> String {
    static RE: std::sync::OnceLock<(regex::Regex, regex::Regex)> = std::sync::OnceLock::new();
    static HASH: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let (ts, id) = RE.get_or_init(|| {
        (
            regex::Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z").expect("regex"),
            regex::Regex::new(r"\b\d{6}-[0-9a-z]{3}\b").expect("regex"),
        )
    });
    // A commit's hash names the moment too (its author and committer time).
    let hash =
        HASH.get_or_init(|| regex::Regex::new(r#""hash": "[0-9a-f]{7,40}""#).expect("regex"));
    let answer = hash.replace_all(answer, r#""hash": "<hash>""#);
    id.replace_all(&ts.replace_all(&answer, "<timestamp>"), "<quick-id>")
        .into_owned()
}

/// A corpus tree's folder name (`owner+repo`), for messages.
fn tree_name(tree: &Path) -> String {
    tree.file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned()
}

fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    peer::files(dir)
}

#[test]
#[cfg_attr(
    not(all(gsd_sdk, gsd_corpus)),
    ignore = "needs gsd-sdk 1.42.3 (GSD_SDK, from .ci/gsd-sdk) and the corpus (GSD_CORPUS)"
)]
fn reads_answer_like_gsd_sdk_on_every_corpus_tree() {
    // Every regex search gsd makes in this process is checked against its
    // pattern as written (no lifted bounds, no seek): a difference aborts.
    // SAFETY: set before this test starts any thread; nextest runs each
    // test in a process of its own.
    unsafe { std::env::set_var("GSD_REGEX_ORACLE", "1") };
    for v in ["GSD_WORKSTREAM", "BRAVE_API_KEY"] {
        assert!(
            std::env::var_os(v).is_none(),
            "unset {v}: gsd answers in this process, and gsd-sdk runs without it"
        );
    }
    let trees = parity_trees();
    let results: Vec<ReadResult> = on_two_workers(&trees, read_tree);
    peer::finish("reads");
    let mut sources = Sources::default();
    let (mut pairs, mut same, mut answered, mut handed) = (0, 0, 0, 0);
    let mut different = Vec::new();
    let mut sdk_rewrote = Vec::new();
    let mut handed_trees = Vec::new();
    for r in &results {
        sources.add(&r.name, r.source);
        pairs += r.pairs;
        same += r.same;
        answered += r.answered;
        handed += r.handed;
        if r.handed > 0 {
            handed_trees.push(r.name.clone());
        }
        different.extend(r.different.iter().cloned());
        if let Some(w) = &r.rewrote {
            sdk_rewrote.push(w.clone());
        }
    }
    sources.report("reads");
    eprintln!(
        "sdk parity (reads): {} trees, {pairs} (tree, call) pairs, {same} identical ({answered} of them exit 0 with an answer), {handed} handed on to gsd-sdk (workstream-bound calls on the workstream trees {handed_trees:?}), different {}; gsd-sdk rewrote files during reads in {} trees: {:?}",
        trees.len(),
        different.len(),
        sdk_rewrote.len(),
        sdk_rewrote
    );
    if let Some(log) = std::env::var_os("GSD_SDK_PARITY_LOG") {
        std::fs::write(log, different.join("\n\n=====\n")).expect("write the log");
    }
    assert!(
        different.is_empty(),
        "{} differences from gsd-sdk; first ones:\n{}",
        different.len(),
        different
            .iter()
            .take(6)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// One tree's read comparison.
struct ReadResult {
    name: String,
    source: peer::Source,
    pairs: usize,
    same: usize,
    answered: usize,
    /// Calls gsd hands to gsd-sdk: workstream-bound calls on a workstream tree.
    handed: usize,
    different: Vec<String>,
    rewrote: Option<String>,
}

/// Every read call on two copies of `tree`, gsd-sdk's (recorded or live)
/// against gsd's.
fn read_tree(tree: &Path) -> ReadResult {
    let (name, tmp) = (tree_name(tree), tempfile::tempdir().expect("tmp"));
    peer::begin("reads", tree);
    let (theirs_dir, ours_dir) = (tmp.path().join("theirs"), tmp.path().join("ours"));
    for d in [&theirs_dir, &ours_dir] {
        copy_dir(tree, d);
        git(d, &["init", "-q"]);
    }
    let before = snapshot(&ours_dir);
    let calls = read_calls(&ours_dir);
    let theirs = gsd_sdk_answers(&theirs_dir, &calls);
    let mut r = ReadResult {
        name: name.clone(),
        source: peer::Source::Live,
        pairs: 0,
        same: 0,
        answered: 0,
        handed: 0,
        different: Vec::new(),
        rewrote: None,
    };
    let sample = peer::live_sample(&name);
    for (argv, t) in calls.iter().zip(&theirs) {
        let (o, err) = gsd_answer_in_process(&ours_dir, argv);
        if sample {
            // The binary prints what the library answers.
            let (p, perr) = gsd_answer_full(&ours_dir, argv);
            assert_eq!(
                (without_clock(&p.0), p.1),
                (without_clock(&o.0), o.1),
                "{name}: {argv:?}: `gsd sdk query` and the library differ"
            );
            assert!(
                perr.trim() == err.trim(),
                "{name}: {argv:?}: {perr} / {err}"
            );
        }
        r.pairs += 1;
        // Paths name each copy's own folder.
        let t_norm = (
            without_clock(&t.0.replace(&theirs_dir.display().to_string(), "<tree>")),
            t.1,
        );
        let o_norm = (
            without_clock(&o.0.replace(&ours_dir.display().to_string(), "<tree>")),
            o.1,
        );
        if t_norm == o_norm {
            r.same += 1;
            r.answered += usize::from(t.1 == 0 && !t.0.trim().is_empty());
        } else if o.1 == 10 && handed_on_text(&err) {
            // gsd hands this call on (switched off here): gsd-sdk answers it.
            r.handed += 1;
        } else {
            r.different.push(format!(
                "{name}: {}\n--- gsd-sdk (exit {})\n{}\n--- gsd (exit {})\n{}",
                argv.join(" "),
                t_norm.1,
                t_norm.0.chars().take(1500).collect::<String>(),
                o_norm.1,
                o_norm.0.chars().take(1500).collect::<String>()
            ));
        }
    }
    assert_eq!(
        snapshot(&ours_dir),
        before,
        "{name}: a gsd read wrote a file"
    );
    let after_theirs = snapshot(&theirs_dir);
    let rewritten: Vec<String> = after_theirs
        .iter()
        .filter(|(p, b)| before.get(*p) != Some(*b))
        .map(|(p, _)| p.display().to_string())
        .collect();
    if !rewritten.is_empty() {
        r.rewrote = Some(format!("{name}: {}", rewritten.join(", ")));
    }
    r.source = peer::end();
    r
}

/// Lines of `before` that changed, and lines added, when `after` differs
/// from it in one place (common lines at the start and end kept).
fn line_edit(before: &[u8], after: &[u8]) -> (usize, usize) {
    let (b, a) = (
        String::from_utf8_lossy(before),
        String::from_utf8_lossy(after),
    );
    let (lb, la): (Vec<&str>, Vec<&str>) = (b.split('\n').collect(), a.split('\n').collect());
    let prefix = lb.iter().zip(&la).take_while(|(x, y)| x == y).count();
    let suffix = lb[prefix..]
        .iter()
        .rev()
        .zip(la[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let changed = lb.len() - prefix - suffix;
    (
        changed,
        (la.len() - prefix - suffix).saturating_sub(changed),
    )
}

/// Whether every line of `before` is still in `after`, in order (lines
/// were only added, in any number of places).
fn keeps_every_line(before: &[u8], after: &[u8]) -> bool {
    let (b, a) = (
        String::from_utf8_lossy(before),
        String::from_utf8_lossy(after),
    );
    let mut rest = a.split('\n');
    b.split('\n').all(|l| rest.any(|m| m == l))
}

/// Whether `after` is `before` with lines inserted in one place (nothing
/// changed, nothing removed).
fn only_added(before: &[u8], after: &[u8]) -> bool {
    let (b, a) = (
        String::from_utf8_lossy(before),
        String::from_utf8_lossy(after),
    );
    let (lb, la): (Vec<&str>, Vec<&str>) = (b.split('\n').collect(), a.split('\n').collect());
    if la.len() < lb.len() {
        return false;
    }
    let prefix = lb.iter().zip(&la).take_while(|(x, y)| x == y).count();
    let suffix = lb
        .iter()
        .rev()
        .zip(la.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    prefix + suffix >= lb.len()
}

/// Lines of `a` and `b` that differ, by position (files of equal length
/// in lines), or every line when the line counts differ.
fn changed_lines(a: &[u8], b: &[u8]) -> usize {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.split('\n').collect(), b.split('\n').collect());
    if la.len() != lb.len() {
        return la.len().max(lb.len());
    }
    la.iter().zip(&lb).filter(|(x, y)| x != y).count()
}

/// Whether some file changed in more than one line between two snapshots
/// (what "gsd-sdk did more" means for an entry or a one-line write).
fn more_than_a_line_changed(
    before: &BTreeMap<PathBuf, Vec<u8>>,
    after: &BTreeMap<PathBuf, Vec<u8>>,
) -> bool {
    changed_files(before, after).iter().any(|p| {
        changed_lines(
            before.get(p).map_or(&[][..], |v| v),
            after.get(p).map_or(&[][..], |v| v),
        ) > 1
    })
}

fn changed_files(
    before: &BTreeMap<PathBuf, Vec<u8>>,
    after: &BTreeMap<PathBuf, Vec<u8>>,
) -> Vec<PathBuf> {
    after
        .iter()
        .filter(|(p, b)| before.get(*p) != Some(*b))
        .map(|(p, _)| p.clone())
        .chain(before.keys().filter(|p| !after.contains_key(*p)).cloned())
        .collect()
}

/// Bold body fields of STATE.md (`**Status:** Executing`) with their text.
fn bold_fields(state: &str) -> Vec<(String, String)> {
    let body = state.splitn(3, "---\n").nth(2).unwrap_or(state);
    body.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("**")?;
            let (label, value) = rest.split_once(":**")?;
            Some((label.to_string(), value.trim_start().to_string()))
        })
        .filter(|(l, _)| !l.contains('*'))
        .take(4)
        .collect()
}

/// Whether `dir` is a tree whose work lives in a workstream, as gsd sees it:
/// it hands `state.load` on.
fn workstream_tree(dir: &Path) -> bool {
    let argv = s(&["state.load"]);
    handed_on(dir, &argv, &gsd_answer(dir, &argv)).is_some()
}

/// A call gsd hands to gsd-sdk because it is bound to the tree's workstream
/// (exit 10 here, where the fallback is off).
fn handed_on(dir: &Path, argv: &[String], o: &(String, i32)) -> Option<&'static str> {
    (o.1 == 10 && handed_on_text(&gsd_stderr(dir, argv)))
        .then_some("handed on: workstream-bound write")
}

/// gsd's stderr says it hands a call on because of the tree's workstreams
/// (bound to the active one, or listing workstreams).
fn handed_on_text(err: &str) -> bool {
    err.contains("` on workstream `")
        || err.contains("(workstream projects are answered by gsd-sdk)")
}

/// A write gsd refuses by design (PARITY.md E4, E8 and E21): which kind, once
/// checked that it exited 1 and changed nothing. gsd-sdk makes these writes.
fn refusal(
    name: &str,
    argv: &[String],
    o: &(String, i32),
    conflicted: bool,
    dir: &Path,
    before: &BTreeMap<PathBuf, Vec<u8>>,
) -> Option<&'static str> {
    let state_write = matches!(
        argv[0].as_str(),
        "state.update" | "state.advance-plan" | "state.planned-phase"
    );
    if let Some(kind) = handed_on(dir, argv, o) {
        assert!(
            changed_files(before, &snapshot(dir)).is_empty(),
            "{name}: {argv:?} handed on but changed files"
        );
        return Some(kind);
    }
    let kind = if conflicted && state_write {
        "refused: conflict markers"
    } else if o.1 == 1
        && argv[0] == "state.update"
        && argv[1].to_lowercase().replace(' ', "") == "currentphase"
        && !gsd_stderr(dir, argv).contains(" lines of ")
    {
        let err = gsd_stderr(dir, argv);
        assert!(err.contains("does not exist"), "{name}: {argv:?}: {err}");
        "refused: current phase is not a phase (E21)"
    } else if o.1 == 1 && state_write && gsd_stderr(dir, argv).contains(" lines of ") {
        // E3: a label on several body lines names no one field.
        "refused: label on several lines (E3)"
    } else if o.1 == 1 && argv[0] == "frontmatter.set" {
        let err = gsd_stderr(dir, argv);
        assert!(err.contains("is not valid YAML"), "{name}: {argv:?}: {err}");
        "refused: frontmatter not YAML"
    } else {
        return None;
    };
    assert_eq!(o.1, 1, "{name}: {argv:?} is refused");
    assert!(
        changed_files(before, &snapshot(dir)).is_empty(),
        "{name}: {argv:?} refused but changed files"
    );
    Some(kind)
}

fn repo_copy(tree: &Path, to: &Path) {
    BASE.with(|b| {
        let mut b = b.borrow_mut();
        if b.as_ref().is_none_or(|(of, _)| of != tree) {
            *b = Some((tree.to_path_buf(), base_repo(tree)));
        }
        let (_, base) = b.as_ref().expect("the base was just made");
        copy_dir(base.path(), to);
    });
}

thread_local! {
    /// The committed git copy of the tree this worker checks ([`base_repo`]).
    static BASE: std::cell::RefCell<Option<(PathBuf, tempfile::TempDir)>> =
        const { std::cell::RefCell::new(None) };
}

/// `tree` copied, made writable and committed in a new repository, once per
/// tree: every check's copies are plain copies of it, .git and all. Why:
/// `git add -A` of a whole tree for each of a tree's dozens of copies was
/// most of this harness's time (sampled: 6 in 10 of its processes).
fn base_repo(tree: &Path) -> tempfile::TempDir {
    let base = tempfile::tempdir().expect("tmp");
    let to = base.path();
    copy_dir(tree, to);
    // ../shared is read-only, and gsd refuses to write a read-only file.
    let ok = Command::new("chmod")
        .args(["-R", "u+w"])
        .arg(to)
        .status()
        .expect("chmod");
    assert!(ok.success());
    git(to, &["init", "-q"]);
    git(
        to,
        &["-c", "user.name=p", "-c", "user.email=p@p", "add", "-A"],
    );
    git(
        to,
        &[
            "-c",
            "user.name=p",
            "-c",
            "user.email=p@p",
            "commit",
            "-qm",
            "tree",
            "--no-verify",
        ],
    );
    base
}

/// Two git copies of `tree` in a new temp folder, gsd-sdk's and gsd's, for
/// a write check that starts from the tree as it is (the writes before it
/// leave the two copies different). The folder lives as long as the guard.
fn fresh_pair(tree: &Path) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let fresh = tempfile::tempdir().expect("tmp");
    let (theirs, ours) = (fresh.path().join("theirs"), fresh.path().join("ours"));
    repo_copy(tree, &theirs);
    repo_copy(tree, &ours);
    (fresh, theirs, ours)
}

/// The value of frontmatter key `key` in `text`, quotes and comment dropped.
fn fm_value(text: &str, key: &str) -> Option<String> {
    let text = text.replace("\r\n", "\n");
    let fm = text.strip_prefix("---\n")?.split("\n---").next()?;
    fm.lines().find_map(|l| {
        let v = l.strip_prefix(key)?.strip_prefix(':')?;
        // A trailing YAML comment is not part of the value (gsd keeps it).
        let v = v.split(" #").next().unwrap_or_default().trim();
        Some(v.trim_matches(['"', '\'']).to_string())
    })
}

/// A STATE.md position write (state.advance-plan, state.planned-phase) on
/// a fresh pair: the same answer; gsd changes only STATE.md lines gsd-sdk
/// writes too (the plan counter, `Status`, `Last activity` and its
/// description, the plan total), and frontmatter keys to the values
/// gsd-sdk gives them. Returns the report row and whether gsd-sdk changed
/// more lines.
fn check_position_write(
    name: &str,
    tree: &Path,
    conflicted: bool,
    argv: &[&str],
) -> (&'static str, bool) {
    let (_fresh, theirs, ours) = fresh_pair(tree);
    let argv = s(argv);
    let (kind, no_state): (&'static str, &'static str) = match argv[0].as_str() {
        "state.advance-plan" => (
            "state.advance-plan",
            "state.advance-plan, no STATE.md (E22)",
        ),
        _ => ("state.planned-phase", "state.planned-phase, no STATE.md"),
    };
    let (before_o, before_t) = (snapshot(&ours), snapshot(&theirs));
    let o = gsd_answer(&ours, &argv);
    if let Some(kind) = refusal(name, &argv, &o, conflicted, &ours, &before_o) {
        return (kind, true);
    }
    let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
    assert_eq!(o, t[0], "{name}: {argv:?} answers differ");
    let (after_o, after_t) = (snapshot(&ours), snapshot(&theirs));
    let changed = changed_files(&before_o, &after_o);
    let state_md = PathBuf::from(".planning/STATE.md");
    if !before_o.contains_key(&state_md) {
        assert!(
            changed.is_empty(),
            "{name}: no STATE.md, changed {changed:?}"
        );
        return (no_state, after_t.contains_key(&state_md));
    }
    if o.0.contains("\"error\"") {
        assert!(
            changed.is_empty(),
            "{name}: unreadable counter, changed {changed:?}"
        );
    }
    assert!(
        changed.is_empty() || changed == vec![state_md.clone()],
        "{name}: {changed:?}"
    );
    let text = |b: &Vec<u8>| String::from_utf8_lossy(b).into_owned();
    let (b, a, th) = (
        text(&before_o[&state_md]),
        text(&after_o[&state_md]),
        text(&after_t[&state_md]),
    );
    let (lb, la): (Vec<&str>, Vec<&str>) = (b.split('\n').collect(), a.split('\n').collect());
    assert_eq!(lb.len(), la.len(), "{name}: lines added or removed");
    // A CRLF file's lines end in `\r`.
    let fm_end = if b.starts_with("---\n") || b.starts_with("---\r\n") {
        lb.iter()
            .skip(1)
            .position(|l| l.trim_end_matches('\r') == "---")
            .map_or(0, |i| i + 1)
    } else {
        0
    };
    let mut lines = 0;
    for (i, (x, y)) in lb.iter().zip(&la).enumerate() {
        if x == y {
            continue;
        }
        lines += 1;
        if i < fm_end {
            let key = y.split(':').next().unwrap_or_default();
            assert!(
                ["status", "last_activity", "current_plan"].contains(&key),
                "{name}: frontmatter {y:?}"
            );
            assert_eq!(
                fm_value(&a, key),
                fm_value(&th, key),
                "{name}: frontmatter {key}"
            );
        } else {
            let label = y.trim_start_matches(['-', ' ', '*']).split(':').next();
            let label = label.unwrap_or_default().to_lowercase();
            assert!(
                [
                    "plan",
                    "current plan",
                    "status",
                    "last activity",
                    "last activity description",
                    "total plans in phase"
                ]
                .contains(&label.as_str()),
                "{name}: {y:?} is not a field {kind} sets"
            );
            // gsd-sdk's Current Position pass also rewrites a `last
            // activity:` label as `Last activity:`, and drops a line's
            // trailing hard break; gsd keeps both.
            assert!(
                th.split('\n')
                    .any(|l| l.trim_end().eq_ignore_ascii_case(y.trim_end())),
                "{name}: {y:?} is not gsd-sdk's line"
            );
        }
    }
    assert!(lines <= 7, "{name}: {lines} lines changed");
    (
        kind,
        changed_lines(&before_t[&state_md], &after_t[&state_md]) > lines,
    )
}

/// A roadmap's phase headings (`### Phase 7: Search`), as (number, name).
fn phase_headings(text: &str) -> Vec<(String, String)> {
    regex::Regex::new(r"(?m)^#{2,4}\s*Phase\s+([0-9A-Za-z.]+)\s*:\s*(.*?)\s*$")
        .expect("regex")
        .captures_iter(text)
        .map(|c| (c[1].trim_start_matches('0').to_string(), c[2].to_string()))
        .collect()
}

/// The integer phase folders' numbers of a tree, as written (`04`, `6`).
fn integer_phase_dirs(tree: &Path) -> Vec<String> {
    let mut nums: Vec<String> = std::fs::read_dir(tree.join(".planning/phases"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
            (!digits.is_empty()).then_some(digits)
        })
        .collect();
    nums.sort_by_key(|n| n.parse::<u64>().unwrap_or(0));
    nums.dedup();
    nums
}

/// phase.remove on a fresh pair. The same answer, or a difference PARITY.md
/// E23 explains (gsd moves the removed phase's decimal children and keeps a
/// folder's own zero padding; gsd refuses to renumber executed phases
/// without `--force`) or a refusal E8 explains. gsd's effect: the folder is
/// gone, every other file under `phases/` is kept (moved at most), and the
/// roadmap's phase headings keep their names in order, the removed one
/// dropped. Returns the report row and whether gsd-sdk's headings differ.
fn check_phase_remove(name: &str, tree: &Path, target: &str, force: bool) -> (&'static str, bool) {
    let (_fresh, theirs, ours) = fresh_pair(tree);
    let mut argv = s(&["phase.remove", target]);
    if force {
        argv.push("--force".into());
    }
    let before = snapshot(&ours);
    let o = gsd_answer(&ours, &argv);
    let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv)).remove(0);
    let (after_o, after_t) = (snapshot(&ours), snapshot(&theirs));
    if o.1 != 0 {
        if o == t {
            assert!(
                changed_files(&before, &after_o).is_empty(),
                "{name}: {argv:?}"
            );
            return ("phase.remove, the same refusal", false);
        }
        let err = gsd_stderr(&ours, &argv);
        assert!(
            changed_files(&before, &after_o).is_empty(),
            "{name}: {argv:?} refused but changed files"
        );
        if err.contains("merge-conflict") {
            return ("refused: conflict markers", true);
        }
        if err.contains("set another phase first") && !force {
            // E23: the phase STATE.md names as current is not removed
            // without --force (gsd-sdk removes it and leaves STATE.md
            // pointing at a phase that is gone).
            return ("phase.remove refused: STATE.md's current phase (E23)", true);
        }
        assert!(
            err.contains("executed plans would be renumbered") && !force,
            "{name}: {argv:?}: {err} / gsd-sdk: {t:?}"
        );
        return (
            "phase.remove refused: executed phases renumbered (E23)",
            true,
        );
    }
    let kind = if o == t {
        "phase.remove"
    } else {
        assert_eq!(t.1, 0, "{name}: {argv:?}: {t:?}");
        let dirs = std::fs::read_dir(tree.join(".planning/phases"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect::<Vec<_>>();
        let n = target.trim_start_matches('0');
        let children = dirs.iter().any(|d| {
            d.trim_start_matches('0')
                .strip_prefix(n)
                .is_some_and(|r| r.starts_with('.'))
        });
        let padded = dirs
            .iter()
            .any(|d| d.starts_with('0') && d.chars().take_while(char::is_ascii_digit).count() > 2);
        // E23: gsd-sdk also renumbers backlog phases (`999.1-x` → `998.1-x`).
        let backlog = t.0.contains("\"from\": \"999.");
        assert!(
            children || padded || backlog,
            "{name}: {argv:?} answers differ:\n{}\n--- gsd-sdk\n{}",
            o.0,
            t.0
        );
        "phase.remove, E23 renames"
    };
    let answer: serde_json::Value = serde_json::from_str(&o.0).expect("json");
    let deleted = answer["directory_deleted"].as_str().expect("folder");
    let under = |snap: &BTreeMap<PathBuf, Vec<u8>>, skip: Option<&str>| {
        snap.keys()
            .filter(|p| p.starts_with(".planning/phases"))
            .filter(|p| skip.is_none_or(|d| !p.starts_with(Path::new(".planning/phases").join(d))))
            .count()
    };
    assert_eq!(
        under(&after_o, None),
        under(&before, Some(deleted)),
        "{name}: {argv:?} lost files under phases/"
    );
    let roadmap = PathBuf::from(".planning/ROADMAP.md");
    let text = |snap: &BTreeMap<PathBuf, Vec<u8>>| {
        String::from_utf8_lossy(snap.get(&roadmap).map_or(&[][..], |v| v)).into_owned()
    };
    let hb = phase_headings(&text(&before));
    let n = target.trim_start_matches('0');
    let mut expected: Vec<String> = hb.iter().map(|(_, h)| h.clone()).collect();
    if let Some(i) = hb.iter().position(|(k, _)| k == n) {
        expected.remove(i);
    }
    let ours_names: Vec<String> = phase_headings(&text(&after_o))
        .into_iter()
        .map(|(_, h)| h)
        .collect();
    assert_eq!(ours_names, expected, "{name}: {argv:?} roadmap headings");
    let theirs_differ = phase_headings(&text(&after_t)) != phase_headings(&text(&after_o));
    (kind, theirs_differ)
}

#[test]
#[cfg_attr(
    not(all(gsd_sdk, gsd_corpus)),
    ignore = "needs gsd-sdk 1.42.3 (GSD_SDK, from .ci/gsd-sdk) and the corpus (GSD_CORPUS)"
)]
fn writes_are_exact_edits_on_every_corpus_tree() {
    let trees = parity_trees();
    let results: Vec<WriteResult> = on_two_workers(&trees, write_tree_checked);
    peer::finish("writes");
    let mut report: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut sources = Sources::default();
    let mut failures: Vec<String> = Vec::new();
    for r in &results {
        sources.add(&r.name, r.source);
        for (k, (n, ok, theirs)) in &r.report {
            let e = report.entry(k).or_default();
            e.0 += n;
            e.1 += ok;
            e.2 += theirs;
        }
        failures.extend(r.failure.clone());
    }
    sources.report("writes");
    assert!(
        failures.is_empty(),
        "{} trees fail the write checks:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!(
        "sdk parity (writes), {} trees. gsd exact = no-op: no byte changed; one field: only its line(s); list: one line; refusal: nothing changed; commit: only the named file. gsd-sdk did more = no-op: changed the file; one field: over 2 lines; list: over 1 line; refusal: it wrote anyway; commit: took the staged file.",
        trees.len()
    );
    for (k, (n, ok, theirs)) in &report {
        eprintln!("  {k}: {n} runs, gsd exact in {ok}, gsd-sdk did more in {theirs}");
    }
    assert!(report.values().all(|(n, ok, _)| n == ok));
    assert!(
        report
            .get("no-op frontmatter.set")
            .is_some_and(|r| r.0 > 100),
        "the corpus has plans with waves"
    );
}

/// One tree's write checks: per kind (runs, gsd exact, gsd-sdk did more),
/// and the failure, if one check failed.
struct WriteResult {
    name: String,
    source: peer::Source,
    report: BTreeMap<&'static str, (usize, usize, usize)>,
    failure: Option<String>,
}

/// [`write_tree`] on `tree`, its failure caught so that one tree's failure
/// is reported with the others', never hiding them.
fn write_tree_checked(tree: &Path) -> WriteResult {
    let (name, tmp) = (tree_name(tree), tempfile::tempdir().expect("tmp"));
    peer::begin("writes", tree);
    let mut report: BTreeMap<&'static str, (usize, usize, usize)> = BTreeMap::new();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut bump = |k: &'static str, ours_clean: bool, theirs_changed: bool| {
            let e = report.entry(k).or_default();
            e.0 += 1;
            e.1 += usize::from(ours_clean);
            e.2 += usize::from(theirs_changed);
        };
        write_tree(tree, &name, tmp.path(), &mut bump);
    }));
    let failure = outcome.err().map(|e| {
        let why = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("{name}: {why}")
    });
    WriteResult {
        source: peer::end(),
        name,
        report,
        failure,
    }
}

/// Every write check on two git copies of `tree` in `tmp`, gsd-sdk's
/// (recorded or live) and gsd's; `bump` counts each check's kind.
fn write_tree(tree: &Path, name: &str, tmp: &Path, bump: &mut dyn FnMut(&'static str, bool, bool)) {
    let (theirs, ours) = (tmp.join("theirs"), tmp.join("ours"));
    repo_copy(tree, &theirs);
    repo_copy(tree, &ours);
    let state = std::fs::read_to_string(ours.join(".planning/STATE.md")).unwrap_or_default();
    // gsd refuses to edit a file with merge-conflict markers (PARITY.md E8);
    // gsd-sdk edits it. Such a tree's STATE.md writes are checked as refusals.
    let conflicted = state
        .lines()
        .any(|l| l.starts_with("<<<<<<<") || l.starts_with(">>>>>>>"));

    // 1. No-op writes: a field set to the text it has, a frontmatter key
    //    to its value, a config key to its value.
    let mut noop: Vec<Vec<String>> = Vec::new();
    for (label, value) in bold_fields(&state) {
        noop.push(vec!["state.update".into(), label, value]);
    }
    for f in plan_files(&ours, 40) {
        let fm = std::fs::read_to_string(ours.join(&f)).unwrap_or_default();
        let wave = fm.strip_prefix("---\n").and_then(|rest| {
            rest.lines()
                .take_while(|l| *l != "---")
                .find_map(|l| l.strip_prefix("wave: "))
        });
        if let Some(w) = wave {
            noop.push(vec![
                "frontmatter.set".into(),
                f.clone(),
                "wave".into(),
                w.trim().to_string(),
            ]);
        }
    }
    if let Ok(cfg) = std::fs::read_to_string(ours.join(".planning/config.json"))
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(&cfg)
        && let Some(m) = v.get("mode").and_then(|m| m.as_str())
    {
        noop.push(vec!["config-set".into(), "mode".into(), m.to_string()]);
    }
    for argv in &noop {
        let before_o = snapshot(&ours);
        let before_t = snapshot(&theirs);
        let o = gsd_answer(&ours, argv);
        if let Some(kind) = refusal(name, argv, &o, conflicted, &ours, &before_o) {
            bump(kind, true, true);
            continue;
        }
        assert!(
            o.1 == 0 || o.0.contains("error"),
            "{name}: gsd {argv:?} failed: {}",
            o.0
        );
        let t = gsd_sdk_answers(&theirs, std::slice::from_ref(argv));
        assert_eq!(o, t[0], "{name}: {argv:?} answers differ");
        let ours_changed = changed_files(&before_o, &snapshot(&ours));
        let theirs_changed = changed_files(&before_t, &snapshot(&theirs));
        assert!(
            ours_changed.is_empty(),
            "{name}: no-op {argv:?} changed {ours_changed:?}"
        );
        let kind: &'static str = match argv[0].as_str() {
            "state.update" => "no-op state.update",
            "frontmatter.set" => "no-op frontmatter.set",
            _ => "no-op config-set",
        };
        bump(kind, ours_changed.is_empty(), !theirs_changed.is_empty());
    }

    // A tree whose work lives in a workstream: gsd hands every
    // workstream-bound write to gsd-sdk (here, with the fallback
    // off: exit 10, nothing changed); the workstream-free ones
    // (frontmatter.set above) it makes itself.
    if workstream_tree(&ours) {
        for argv in [
            s(&["state.update", "Status", "set by the parity harness"]),
            s(&["config-set", "mode", "yolo"]),
            s(&["state.add-blocker", "--text", "parity blocker"]),
            s(&["state.advance-plan"]),
            s(&["phase.add", "Parity phase"]),
            s(&["roadmap.update-plan-progress", "1"]),
        ] {
            let before = snapshot(&ours);
            let o = gsd_answer(&ours, &argv);
            assert_eq!(
                handed_on(&ours, &argv, &o),
                Some("handed on: workstream-bound write"),
                "{name}: {argv:?}: {o:?}"
            );
            assert!(changed_files(&before, &snapshot(&ours)).is_empty());
            bump("handed on: workstream-bound write", true, false);
        }
        return;
    }

    // 2. One-field writes: gsd changes the field's own line(s) only.
    let one_field: Vec<Vec<String>> = bold_fields(&state)
        .into_iter()
        .take(1)
        .map(|(label, _)| {
            vec![
                "state.update".into(),
                label,
                "set by the parity harness".into(),
            ]
        })
        .chain(
            std::fs::read_to_string(ours.join(".planning/config.json"))
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .and_then(|v| v.get("mode").and_then(|m| m.as_str()).map(str::to_string))
                .map(|m| {
                    let other = if m == "yolo" { "interactive" } else { "yolo" };
                    s(&["config-set", "mode", other])
                }),
        )
        .collect();
    for argv in &one_field {
        let before_o = snapshot(&ours);
        let before_t = snapshot(&theirs);
        let o = gsd_answer(&ours, argv);
        if let Some(kind) = refusal(name, argv, &o, conflicted, &ours, &before_o) {
            bump(kind, true, true);
            continue;
        }
        assert_eq!(o.1, 0, "{name}: gsd {argv:?}: {}", o.0);
        let t = gsd_sdk_answers(&theirs, std::slice::from_ref(argv));
        assert_eq!(o, t[0], "{name}: {argv:?} answers differ");
        let after_o = snapshot(&ours);
        let ours_changed = changed_files(&before_o, &after_o);
        let lines: usize = ours_changed
            .iter()
            .map(|p| changed_lines(&before_o[p], &after_o[p]))
            .sum();
        // The field's line, and its frontmatter mirror when STATE.md keeps one.
        assert!(
            (1..=2).contains(&lines),
            "{name}: {argv:?} changed {lines} lines in {ours_changed:?}"
        );
        let after_t = snapshot(&theirs);
        let theirs_lines: usize = changed_files(&before_t, &after_t)
            .iter()
            .map(|p| {
                changed_lines(
                    before_t.get(p).map_or(&[][..], |v| v),
                    after_t.get(p).map_or(&[][..], |v| v),
                )
            })
            .sum();
        let kind: &'static str = if argv[0] == "config-set" {
            "one-field config-set"
        } else {
            "one-field state.update"
        };
        bump(kind, lines <= 2, theirs_lines > 2);
        // The value the workflow asked for is there.
        let target = argv[2].as_str();
        let shown = target;
        assert!(
            ours_changed
                .iter()
                .any(|p| String::from_utf8_lossy(&after_o[p]).contains(shown)),
            "{name}: {argv:?} did not write {shown}"
        );
    }

    // 3. List entries: one line added, the same answer.
    for argv in [
        s(&["state.add-blocker", "--text", "parity blocker"]),
        s(&[
            "state.add-decision",
            "--phase",
            "1",
            "--summary",
            "parity decision",
            "--rationale",
            "why",
        ]),
    ] {
        if !ours.join(".planning/STATE.md").exists() || conflicted {
            break;
        }
        let before_o = snapshot(&ours);
        let before_t = snapshot(&theirs);
        let o = gsd_answer(&ours, &argv);
        let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
        assert_eq!(o, t[0], "{name}: {argv:?} answers differ");
        let after_o = snapshot(&ours);
        let changed = changed_files(&before_o, &after_o);
        let added = o.0.contains("\"added\": true");
        if added {
            let (b, a) = (&before_o[&changed[0]], &after_o[&changed[0]]);
            let (lb, la) = (
                String::from_utf8_lossy(b).lines().count(),
                String::from_utf8_lossy(a).lines().count(),
            );
            // One entry line, or it replaced a "None yet." placeholder,
            // or a blank line and the entry after a table; nothing else.
            assert!(
                (la == lb + 1 || la == lb || la == lb + 2) && (la == lb || only_added(b, a)),
                "{name}: {argv:?} went from {lb} to {la} lines"
            );
        } else {
            assert!(
                changed.is_empty(),
                "{name}: {argv:?} not added but changed {changed:?}"
            );
        }
        let after_t = snapshot(&theirs);
        let theirs_more = more_than_a_line_changed(&before_t, &after_t);
        bump("list entry add", true, theirs_more);
    }

    // 4. A Roadmap Evolution line: the same answer; gsd only adds lines
    // (the entry, and its heading when the list is new); the same
    // call again is a duplicate that changes nothing.
    if ours.join(".planning/STATE.md").exists() && !conflicted {
        let argv = s(&[
            "state.add-roadmap-evolution",
            "--phase",
            "3.1",
            "--action",
            "inserted",
            "--after",
            "3",
            "--note",
            "parity fix",
            "--urgent",
        ]);
        let (before_o, before_t) = (snapshot(&ours), snapshot(&theirs));
        let o = gsd_answer(&ours, &argv);
        let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
        assert_eq!(o, t[0], "{name}: {argv:?} answers differ");
        let after_o = snapshot(&ours);
        let changed = changed_files(&before_o, &after_o);
        assert_eq!(changed, vec![PathBuf::from(".planning/STATE.md")], "{name}");
        let (b, a) = (&before_o[&changed[0]], &after_o[&changed[0]]);
        assert!(
            only_added(b, a),
            "{name}: {argv:?} changed or removed a line"
        );
        assert!(
            String::from_utf8_lossy(a)
                .contains("- Phase 3.1 inserted after Phase 3: parity fix (URGENT)"),
            "{name}: the entry is there"
        );
        let again = gsd_answer(&ours, &argv);
        assert!(again.0.contains("\"duplicate\""), "{name}: {}", again.0);
        assert_eq!(snapshot(&ours), after_o, "{name}: a duplicate wrote");
        let after_t = snapshot(&theirs);
        let theirs_more = changed_files(&before_t, &after_t).iter().any(|p| {
            !only_added(
                before_t.get(p).map_or(&[][..], |v| v),
                after_t.get(p).map_or(&[][..], |v| v),
            )
        });
        bump("roadmap evolution entry", true, theirs_more);
    }

    // 4b. The execute-plan STATE writes. record-metric: the row lands
    // where gsd-sdk puts it (after the same line), nothing else changes
    // but a `None yet` placeholder row. update-progress: the one
    // progress line gsd-sdk writes, or nothing (E19).
    // Fresh copies: the writes above leave the two copies different.
    if ours.join(".planning/STATE.md").exists() && !conflicted {
        let (_fresh, theirs, ours) = fresh_pair(tree);
        let row = "| Phase 3 P02 | 4min | 3 tasks | 5 files |";
        let argv = s(&[
            "state.record-metric",
            "--phase",
            "3",
            "--plan",
            "02",
            "--duration",
            "4min",
            "--tasks",
            "3",
            "--files",
            "5",
        ]);
        let (before_o, before_t) = (snapshot(&ours), snapshot(&theirs));
        let o = gsd_answer(&ours, &argv);
        let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
        assert_eq!(o, t[0], "{name}: {argv:?} answers differ");
        let (after_o, after_t) = (snapshot(&ours), snapshot(&theirs));
        let changed = changed_files(&before_o, &after_o);
        let state_md = PathBuf::from(".planning/STATE.md");
        if o.0.contains("\"recorded\": true") {
            assert_eq!(changed, vec![state_md.clone()], "{name}");
            let (b, a) = (&before_o[&state_md], &after_o[&state_md]);
            let (ours_text, theirs_text) = (
                String::from_utf8_lossy(a).into_owned(),
                String::from_utf8_lossy(&after_t[&state_md]).into_owned(),
            );
            let above = |text: &str| {
                let lines: Vec<&str> = text.lines().collect();
                let i = lines.iter().position(|l| *l == row)?;
                Some(
                    lines[..i]
                        .iter()
                        .rev()
                        .find(|l| !l.trim().is_empty())
                        .map(|l| l.to_string()),
                )
            };
            assert_eq!(
                above(&ours_text),
                above(&theirs_text),
                "{name}: the row's place"
            );
            let replaced =
                line_edit(b, a) == (1, 0) && String::from_utf8_lossy(b).contains("None yet");
            assert!(
                only_added(b, a) || replaced,
                "{name}: {argv:?} changed other lines"
            );
        } else {
            assert!(
                changed.is_empty(),
                "{name}: not recorded but changed {changed:?}"
            );
        }
        let theirs_more = more_than_a_line_changed(&before_t, &after_t);
        bump("state.record-metric", true, theirs_more);

        let argv = s(&["state.update-progress"]);
        let (before_o, before_t) = (snapshot(&ours), snapshot(&theirs));
        let o = gsd_answer(&ours, &argv);
        let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
        let (after_o, after_t) = (snapshot(&ours), snapshot(&theirs));
        let changed = changed_files(&before_o, &after_o);
        if o != t[0] {
            // E19: the only `Progress:` line opens a YAML mapping.
            assert!(
                o.0.contains("\"updated\": false") && changed.is_empty(),
                "{name}: {argv:?} answers differ: {o:?} / {t:?}"
            );
            bump("state.update-progress (E19)", true, true);
        } else {
            assert!(changed.len() <= 1, "{name}: {changed:?}");
            for p in &changed {
                let (b, a) = (&before_o[p], &after_o[p]);
                assert_eq!(line_edit(b, a), (1, 0), "{name}: one line");
                let theirs_text = String::from_utf8_lossy(&after_t[p]).into_owned();
                let (lb, la) = (String::from_utf8_lossy(b), String::from_utf8_lossy(a));
                let new = la
                    .lines()
                    .zip(lb.lines())
                    .find(|(x, y)| x != y)
                    .map(|(x, _)| x);
                let new = new.expect("a changed line");
                assert!(
                    theirs_text.lines().any(|l| l == new),
                    "{name}: {new:?} is gsd-sdk's line"
                );
            }
            let theirs_more = more_than_a_line_changed(&before_t, &after_t);
            bump("state.update-progress", true, theirs_more);
        }
    }

    // 4e. The execute-phase position writes (also where there is no
    // STATE.md: E22).
    for argv in [
        &["state.advance-plan"][..],
        &["state.planned-phase", "--phase", "3", "--plans", "4"],
        &["state.planned-phase", "--phase", " 2.1 "],
    ] {
        let (kind, theirs_more) = check_position_write(name, tree, conflicted, argv);
        bump(kind, true, theirs_more);
    }

    // 4f. phase.remove: the last phase folder, then a middle one with
    // --force.
    let nums = integer_phase_dirs(tree);
    if let (Some(last), Some(mid)) = (nums.last(), nums.get(nums.len().saturating_sub(1) / 2)) {
        for (target, force) in [(last, false), (mid, true)] {
            let (kind, theirs_differ) = check_phase_remove(name, tree, target, force);
            bump(kind, true, theirs_differ);
        }
    }

    // 4c. requirements.mark-complete: the same answer, and the same
    // bytes as gsd-sdk writes, but for the line endings it drops.
    if let Ok(text) = std::fs::read_to_string(tree.join(".planning/REQUIREMENTS.md")) {
        let (_fresh, theirs, ours) = fresh_pair(tree);
        let ids = |p: &str| -> Vec<String> {
            regex::Regex::new(p)
                .expect("regex")
                .captures_iter(&text)
                .map(|c| c[1].to_string())
                .take(2)
                .collect()
        };
        let mut args = ids(r"- \[ \] \*\*([A-Z][A-Z0-9-]*\d)\*\*");
        args.extend(ids(r"- \[x\] \*\*([A-Z][A-Z0-9-]*\d)\*\*"));
        args.extend(ids(
            r"\|\s*([A-Z][A-Z0-9-]*\d)\s*\|[^|\n]+\|\s*(?i:pending)",
        ));
        args.push("NOPE-99".into());
        let first = args[..2.min(args.len())].join(",");
        let mut argv = vec!["requirements.mark-complete".to_string(), first];
        argv.extend(args.iter().skip(2).cloned());
        let before_o = snapshot(&ours);
        let o = gsd_answer(&ours, &argv);
        let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
        assert_eq!(o, t[0], "{name}: {argv:?} answers differ");
        let req = PathBuf::from(".planning/REQUIREMENTS.md");
        let (after_o, after_t) = (snapshot(&ours), snapshot(&theirs));
        let changed = changed_files(&before_o, &after_o);
        assert!(
            changed.is_empty() || changed == vec![req.clone()],
            "{name}: {changed:?}"
        );
        let lf = |b: &[u8]| String::from_utf8_lossy(b).replace("\r\n", "\n");
        assert_eq!(
            lf(&after_o[&req]),
            lf(&after_t[&req]),
            "{name}: {argv:?} edits differ"
        );
        let crlf_kept = !String::from_utf8_lossy(&before_o[&req]).contains("\r\n")
            || String::from_utf8_lossy(&after_o[&req])
                .matches("\r\n")
                .count()
                == String::from_utf8_lossy(&before_o[&req])
                    .matches("\r\n")
                    .count();
        assert!(crlf_kept, "{name}: line endings kept");
        bump(
            "requirements.mark-complete",
            true,
            after_t[&req] != after_o[&req],
        );
    }

    // 4d. roadmap.update-plan-progress for every phase, in turn: the
    // same answers and the same ROADMAP.md bytes as gsd-sdk (whose
    // edits are in-place regex replacements too), line endings aside.
    {
        let (_fresh, theirs, ours) = fresh_pair(tree);
        let roadmap = PathBuf::from(".planning/ROADMAP.md");
        let lf = |b: Option<&Vec<u8>>| b.map(|b| String::from_utf8_lossy(b).replace("\r\n", "\n"));
        for n in phase_numbers(tree) {
            let argv = vec!["roadmap.update-plan-progress".to_string(), n];
            let before_o = snapshot(&ours);
            let o = gsd_answer(&ours, &argv);
            let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
            assert_eq!(o, t[0], "{name}: {argv:?} answers differ");
            let (after_o, after_t) = (snapshot(&ours), snapshot(&theirs));
            let changed = changed_files(&before_o, &after_o);
            assert!(
                changed.is_empty() || changed == vec![roadmap.clone()],
                "{name}: {changed:?}"
            );
            assert_eq!(
                lf(after_o.get(&roadmap)),
                lf(after_t.get(&roadmap)),
                "{name}: {argv:?} edits differ"
            );
            bump("roadmap.update-plan-progress", true, false);
        }
    }

    // 5. config-ensure-section: a section already there changes no
    // byte; a new one is one added member.
    if ours.join(".planning/config.json").exists() {
        for section in ["workflow", "parity_section"] {
            let text =
                std::fs::read_to_string(ours.join(".planning/config.json")).unwrap_or_default();
            let parsed: Option<serde_json::Value> = serde_json::from_str(&text).ok();
            if let Some(serde_json::Value::Object(before_v)) = parsed {
                let argv = s(&["config-ensure-section", section]);
                let (before_o, before_t) = (snapshot(&ours), snapshot(&theirs));
                let o = gsd_answer(&ours, &argv);
                let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
                assert_eq!(o, t[0], "{name}: {argv:?} answers differ");
                let after_o = snapshot(&ours);
                let cfg = PathBuf::from(".planning/config.json");
                let now: serde_json::Value =
                    serde_json::from_slice(&after_o[&cfg]).expect("still JSON");
                if before_v.contains_key(section) {
                    assert_eq!(after_o, before_o, "{name}: {section} was there");
                } else {
                    let mut want = before_v.clone();
                    want.insert(section.into(), serde_json::json!({}));
                    assert_eq!(now, serde_json::Value::Object(want), "{name}");
                    let (changed, added) = line_edit(&before_o[&cfg], &after_o[&cfg]);
                    assert!(
                        changed <= 1 && added <= 1,
                        "{name}: {changed} lines changed (at most the comma's), {added} added"
                    );
                }
                let after_t = snapshot(&theirs);
                bump(
                    "config-ensure-section",
                    true,
                    before_v.contains_key(section) && after_t != before_t,
                );
            }
        }
    }

    // 6. intel.patch-meta: the same answer (clock and folder aside);
    // gsd changes `_meta`'s two values and no other byte, in a pretty
    // and a one-line file; JSON that does not parse is not patched.
    for (file, text) in [
        (
            "pretty.json",
            "{\n  \"stack\": [\"rust\"],\n  \"_meta\": {\n    \"updated_at\": \"2026-01-01T00:00:00.000Z\",\n    \"version\": 3\n  }\n}\n",
        ),
        ("one-line.json", "{\"files\": {\"a\": 1}}\n"),
        ("broken.json", "{\"x\": 1,}\n"),
    ] {
        for d in [&ours, &theirs] {
            std::fs::create_dir_all(d.join(".planning/intel")).expect("mkdir");
            std::fs::write(d.join(".planning/intel").join(file), text).expect("write");
        }
        let argv = s(&["intel.patch-meta", &format!(".planning/intel/{file}")]);
        let o = gsd_answer(&ours, &argv);
        let t = gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
        let after =
            std::fs::read_to_string(ours.join(".planning/intel").join(file)).expect("still there");
        if file == "broken.json" {
            assert!(o.0.contains("\"patched\": false"), "{name}: {}", o.0);
            assert!(t[0].0.contains("\"patched\": false"), "{name}: {}", t[0].0);
            assert_eq!(after, text, "{name}: broken JSON was written");
            continue;
        }
        let norm = |a: &str, d: &Path| {
            without_clock(
                &a.replace(
                    &std::fs::canonicalize(d)
                        .expect("real")
                        .display()
                        .to_string(),
                    "<tree>",
                ),
            )
        };
        assert_eq!(
            (norm(&o.0, &ours), o.1),
            (norm(&t[0].0, &theirs), t[0].1),
            "{name}: {argv:?} answers differ"
        );
        let (was, now): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(text).expect("json"),
            serde_json::from_str(&after).expect("still JSON"),
        );
        let version = was["_meta"]["version"].as_i64().unwrap_or(0) + 1;
        assert_eq!(now["_meta"]["version"], version, "{name}: {file}");
        let mut rest = now.clone();
        rest["_meta"] = was["_meta"].clone();
        if was.get("_meta").is_none() {
            rest.as_object_mut().expect("object").remove("_meta");
        }
        assert_eq!(rest, was, "{name}: {file}: only _meta changed");
        let (changed, added) = line_edit(text.as_bytes(), after.as_bytes());
        assert!(
            changed <= 2 && added == 0,
            "{name}: {file}: {changed} lines changed, {added} added"
        );
        let theirs_after =
            std::fs::read_to_string(theirs.join(".planning/intel").join(file)).expect("there");
        bump(
            "intel.patch-meta",
            true,
            line_edit(text.as_bytes(), theirs_after.as_bytes()).0 > 2,
        );
    }

    // 7. phase.add and phase.insert: the same answer, except where
    // PARITY.md says gsd-sdk is wrong (E15: no ROADMAP.md, gsd refuses;
    // E16: gsd-sdk restarts at phase 1 when its milestone slice holds
    // no phase). gsd keeps every line it had and adds the folder.
    let first_phase = phase_numbers(&ours).into_iter().next();
    // After an E16 add the two roadmaps differ; the insert is then checked
    // on a fresh pair, from the tree as it is.
    let mut diverged = false;
    let mut _fresh = None;
    for argv in [
        s(&["phase.add", "Parity phase"]),
        vec![
            "phase.insert".into(),
            first_phase.unwrap_or_else(|| "1".into()),
            "Parity fix".into(),
        ],
    ] {
        let (ours_d, theirs_d) = if argv[0] == "phase.insert" && diverged {
            let (guard, t2, o2) = fresh_pair(tree);
            _fresh = Some(guard);
            (o2, t2)
        } else {
            (ours.clone(), theirs.clone())
        };
        let (before_o, before_t) = (snapshot(&ours_d), snapshot(&theirs_d));
        let o = gsd_answer(&ours_d, &argv);
        let t = gsd_sdk_answers(&theirs_d, std::slice::from_ref(&argv));
        let after_o = snapshot(&ours_d);
        // A project code or custom naming: gsd hands the call to gsd-sdk
        // (E17); with the fallback off that is exit 10 and no answer.
        let cfg: serde_json::Value = std::fs::read(ours_d.join(".planning/config.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let named = cfg["project_code"].as_str().is_some_and(|c| !c.is_empty())
            || cfg["phase_naming"]
                .as_str()
                .is_some_and(|n| n != "sequential");
        if named {
            assert_eq!(
                (o.0.trim(), o.1),
                ("", 10),
                "{name}: {argv:?} not handed on"
            );
            assert_eq!(after_o, before_o, "{name}: a handed-on call wrote");
            bump("phase add/insert: E17 handed to gsd-sdk", true, false);
            continue;
        }
        let kind: &'static str = if argv[0] == "phase.add" {
            "phase.add"
        } else {
            "phase.insert"
        };
        if o != t[0] {
            let roadmap = PathBuf::from(".planning/ROADMAP.md");
            let no_roadmap = !before_o.contains_key(&roadmap);
            let ours_v: serde_json::Value = serde_json::from_str(&o.0).unwrap_or_default();
            let theirs_v: serde_json::Value = serde_json::from_str(&t[0].0).unwrap_or_default();
            // E16: gsd-sdk numbers from its current-milestone slice, so
            // its number is a phase the roadmap already has (phase 1
            // when the slice is empty, a later milestone's phase
            // otherwise); gsd's is one the roadmap does not have.
            let text =
                String::from_utf8_lossy(before_o.get(&roadmap).map_or(&[][..], |v| v)).into_owned();
            let heading = |n: &serde_json::Value| {
                n.as_u64().is_some_and(|n| {
                    // A `### Phase N:` heading (or `### Фаза N —` in the
                    // roadmap's language, which gsd-sdk cannot read), or a
                    // checklist line `- [ ] **Phase N: …**` (a later
                    // milestone's phases are often listed there only).
                    regex::Regex::new(&format!(
                        r"(?m)^(#{{2,4}}\s*|\s*[-*]\s*\[.\]\s*\*\*)(Phase|Fase|Фаза|Этап|Étape|Etapa|阶段|階段)\s*0*{n}\s*[:：—–-]"
                    ))
                    .expect("regex")
                    .is_match(&text)
                })
            };
            let (ours_n, theirs_n) = (&ours_v["phase_number"], &theirs_v["phase_number"]);
            let restarted = kind == "phase.add"
                && ours_n.as_u64() > theirs_n.as_u64()
                && (*theirs_n == 1 || (heading(theirs_n) && !heading(ours_n)));
            // E16 too: gsd-sdk numbers after a `Phase N:` it found in a
            // line that is neither a heading nor a checklist entry (a
            // backlog item's notes), so its number skips one.
            let prose = kind == "phase.add"
                && ours_n.as_u64() < theirs_n.as_u64()
                && theirs_n
                    .as_u64()
                    .is_some_and(|t| !heading(&serde_json::json!(t - 1)))
                && !heading(ours_n);
            assert!(
                (no_roadmap && o.1 == 1 && after_o == before_o) || restarted || prose,
                "{name}: {argv:?} answers differ beyond PARITY.md E15/E16:\n{}\n---\n{}",
                o.0,
                t[0].0
            );
            diverged = true;
            bump(
                if no_roadmap {
                    "phase add/insert: E15 refused, no roadmap"
                } else {
                    "phase.add: E16 gsd-sdk reused a phase number"
                },
                true,
                true,
            );
            if no_roadmap {
                continue;
            }
        }
        if o.1 != 0 {
            assert_eq!(after_o, before_o, "{name}: {argv:?} refused but wrote");
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&o.0).expect("json");
        let dir = v["directory"].as_str().expect("directory");
        assert!(
            after_o.contains_key(&Path::new(dir).join(".gitkeep")),
            "{name}: {argv:?}: no {dir}/.gitkeep"
        );
        for (p, b) in &before_o {
            let a = after_o
                .get(p)
                .unwrap_or_else(|| panic!("{name}: {argv:?} lost {}", p.display()));
            assert!(
                keeps_every_line(b, a) || p.ends_with("STATE.md"),
                "{name}: {argv:?} dropped or changed a line of {}",
                p.display()
            );
        }
        let after_t = snapshot(&theirs_d);
        let theirs_more = changed_files(&before_t, &after_t).iter().any(|p| {
            !keeps_every_line(
                before_t.get(p).map_or(&[][..], |v| v),
                after_t.get(p).map_or(&[][..], |v| v),
            )
        });
        bump(kind, true, theirs_more);
    }

    // 8. commit takes exactly the named file, never a pre-staged one.
    if ours.join(".planning/STATE.md").exists() {
        for d in [&ours, &theirs] {
            std::fs::write(d.join("unrelated.txt"), "staged by the user\n").expect("write");
            git(d, &["add", "unrelated.txt"]);
            let mut st = std::fs::read(d.join(".planning/STATE.md")).expect("state");
            st.extend_from_slice(b"\nparity\n");
            std::fs::write(d.join(".planning/STATE.md"), st).expect("write");
        }
        let argv = s(&[
            "commit",
            "docs(state): parity",
            "--files",
            ".planning/STATE.md",
        ]);
        let o = gsd_answer(&ours, &argv);
        assert_eq!(o.1, 0, "{name}: {}", o.0);
        let v: serde_json::Value = serde_json::from_str(&o.0).expect("commit json");
        assert_eq!(v["committed"], true, "{name}: {v}");
        assert_eq!(
            v["files"],
            serde_json::json!([".planning/STATE.md"]),
            "{name}"
        );
        gsd_sdk_answers(&theirs, std::slice::from_ref(&argv));
        let in_head = |d: &Path| git(d, &["show", "--name-only", "--format=", "HEAD"]);
        let staged = |d: &Path| git(d, &["diff", "--cached", "--name-only"]);
        assert_eq!(in_head(&ours).trim(), ".planning/STATE.md", "{name}");
        assert_eq!(
            staged(&ours).trim(),
            "unrelated.txt",
            "{name}: the user's staged file stays staged"
        );
        bump(
            "commit leaves pre-staged files",
            true,
            peer::observe(|| in_head(&theirs).contains("unrelated.txt")),
        );
    }
}

/// `init.list-workspaces` reads `~/gsd-workspaces`, not the tree: both run
/// with a HOME holding workspaces of each shape (a manifest with a CRLF
/// strategy line and repository rows, one without a strategy, a folder
/// without a manifest, a link to a workspace, a plain file), and with a
/// HOME that has none.
#[test]
#[cfg_attr(
    not(gsd_sdk),
    ignore = "needs gsd-sdk 1.42.3 (GSD_SDK, from .ci/gsd-sdk)"
)]
fn list_workspaces_answers_like_gsd_sdk() {
    let home = tempfile::tempdir().expect("tmp");
    let base = home.path().join("gsd-workspaces");
    for w in ["alpha/.planning", "beta", "gamma"] {
        std::fs::create_dir_all(base.join(w)).expect("mkdir");
    }
    std::fs::write(
        base.join("alpha/WORKSPACE.md"),
        "# Workspace\nStrategy: worktree  \r\n\n| Repo | Path |\n|---|---|\n| api | ../api |\n| web | ../web |\n",
    )
    .expect("write");
    std::fs::write(base.join("alpha/.planning/PROJECT.md"), "# P\n").expect("write");
    std::fs::write(base.join("beta/WORKSPACE.md"), "no strategy\n| Repo |\n").expect("write");
    std::fs::write(base.join("notes.md"), "a file\n").expect("write");
    std::os::unix::fs::symlink(base.join("alpha"), base.join("linked")).expect("link");
    let bin = package().join("../.bin/gsd-sdk");
    for h in [home.path().to_path_buf(), home.path().join("none")] {
        let ours = Command::new(gsd_bin())
            .env("HOME", &h)
            .env("GSD_SDK_FALLBACK", "off")
            .args(["sdk", "query", "init.list-workspaces"])
            .output()
            .expect("gsd runs");
        let theirs = Command::new(&bin)
            .env("HOME", &h)
            .args(["query", "init.list-workspaces"])
            .output()
            .expect("gsd-sdk runs");
        assert_eq!(ours.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&theirs.stdout),
            "HOME={}",
            h.display()
        );
    }
}

/// The commands gsd answers itself on a workstream tree
/// (`src/sdk/gsd-sdk-1.42.3-workstream-free.txt`) are exactly those whose
/// gsd-sdk handler never reads the workstream, as
/// `tests/sdk_parity/workstream-free.mjs` finds them in the installed package.
#[test]
#[cfg_attr(
    not(gsd_sdk),
    ignore = "needs gsd-sdk 1.42.3 (GSD_SDK, from .ci/gsd-sdk)"
)]
fn the_workstream_free_commands_are_gsd_sdks() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk_parity/workstream-free.mjs");
    let o = Command::new("node")
        .arg(script)
        .arg(package())
        .output()
        .expect("node runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let listed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sdk/gsd-sdk-1.42.3-workstream-free.txt"),
    )
    .expect("the list");
    assert_eq!(String::from_utf8_lossy(&o.stdout), listed);
    // And the list holds the file and pure-function commands, not a state read.
    for c in ["frontmatter.set", "summary-extract", "generate-slug"] {
        assert!(listed.lines().any(|l| l == c), "{c}");
    }
    assert!(!listed.lines().any(|l| l == "state.load"));
}

/// `state.record-session` answers as gsd-sdk's on the session shapes real
/// trees keep (a plain `Last session:` line, bold labels, none at all, a
/// `Last Date:` beside `Last session:`), and changes only the lines it
/// names. Before this, a tree with a `Last session:` line failed with an
/// internal edit error: `Last session` and `Last Date` name one field in
/// gsd's model, so both pairs edited the same line.
#[test]
#[cfg_attr(
    not(gsd_sdk),
    ignore = "needs gsd-sdk 1.42.3 (GSD_SDK, from .ci/gsd-sdk)"
)]
fn record_session_answers_like_gsd_sdk() {
    let bin = package().join("../.bin/gsd-sdk");
    let shapes = [
        "## Session Continuity\n\nLast session: 2026-01-12\nStopped at: v1.0 done\nResume file: None\n",
        "## Session Continuity\n\n**Last session:** 2026-01-12\n**Stopped At:** somewhere\n**Resume File:** a.md\n",
        "## Session Continuity\n\nLast session: 2026-01-12\nLast Date: 2026-01-12\nStopped at: x\n",
        "## Notes\n\nNothing about sessions.\n",
    ];
    for (i, tail) in shapes.iter().enumerate() {
        let state = format!(
            "# Project State\n\n## Current Position\n\nPhase: 1 of 2\nStatus: Executing\n\n{tail}"
        );
        let mut said = Vec::new();
        let mut kept = Vec::new();
        for who in ["gsd", "gsd-sdk"] {
            let dir = tempfile::tempdir().expect("tmp");
            std::fs::create_dir_all(dir.path().join(".planning")).expect("mkdir");
            std::fs::write(dir.path().join(".planning/STATE.md"), &state).expect("write");
            git(dir.path(), &["init", "-q"]);
            let argv = [
                "state.record-session",
                "--stopped-at",
                "Completed 01-02-PLAN.md",
                "--resume-file",
                "None",
            ];
            let out = if who == "gsd" {
                Command::new(gsd_bin())
                    .current_dir(dir.path())
                    .env("GSD_SDK_FALLBACK", "off")
                    .args(["sdk", "query"])
                    .args(argv)
                    .output()
            } else {
                Command::new(&bin)
                    .current_dir(dir.path())
                    .arg("query")
                    .args(argv)
                    .output()
            }
            .expect("runs");
            said.push((
                String::from_utf8_lossy(&out.stdout).into_owned(),
                out.status.code(),
            ));
            let after =
                std::fs::read_to_string(dir.path().join(".planning/STATE.md")).expect("read");
            kept.push(after);
        }
        assert_eq!(said[0], said[1], "shape {i}: answers differ");
        assert_eq!(said[0].1, Some(0), "shape {i}: {}", said[0].0);
        // gsd: every line of the body's first part kept, the session lines
        // set; nothing else differs.
        let before: Vec<&str> = state.lines().collect();
        let after: Vec<&str> = kept[0].lines().collect();
        assert_eq!(before.len(), after.len(), "shape {i}: lines added or lost");
        for (b, a) in before.iter().zip(&after) {
            let session = ["Last session", "Last Date", "Stopped", "Resume"]
                .iter()
                .any(|l| b.trim_start_matches('*').starts_with(l));
            assert!(session || b == a, "shape {i}: {b:?} became {a:?}");
        }
    }
}
