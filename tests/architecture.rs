//! The layering the write path depends on, checked in the source:
//!
//! - only `src/store/` writes planning files: every other file that writes
//!   anything is listed here with what it writes (none of it planning);
//! - `src/ralph/history.rs` has no write code of its own (it goes through
//!   `ops::run_at`, so through the transaction);
//! - no cli command file imports another command's file (shared pieces —
//!   arguments, errors, output, tables — are not commands).

use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// What writes to disk: file contents, renames, removals, new folders.
const WRITES: &[&str] = &[
    "atomic::write",
    "fs::write",
    "fs::rename",
    "remove_file",
    "remove_dir",
    "create_dir",
    "File::create",
    ".write(true)",
    ".append(true)",
    ".persist(",
];

/// Files outside `src/store/` that write, and what (never a planning file).
const ALLOWED: &[(&str, &str)] = &[
    ("ralph/state.rs", "the loop state, .gsd/ralph/loop.json"),
    ("ralph/settings.rs", "Claude Code's .claude/settings*.json"),
    (
        "ralph/run/agent.rs",
        "an iteration's agent log under .gsd/ralph/",
    ),
    (
        "ralph/run/events.rs",
        "the run's events.jsonl under .gsd/ralph/",
    ),
    ("ralph/run/mod.rs", "the run's log folder under .gsd/ralph/"),
    ("cli/convert.rs", "--out outside .planning/ (streamed)"),
    (
        "ops/init.rs",
        "the project folder, before its lock can exist",
    ),
    ("ops/mod.rs", "write_output: --out outside .planning/"),
    (
        "export/mod.rs",
        "the exported site, refused inside .planning/",
    ),
    ("sdk/shim.rs", "the gsd-sdk link in a bin folder on PATH"),
    (
        "sdk/core/isolation.rs",
        "dispatch-isolation's .gsd/dispatch-isolation-sentinel.json, GSD Core's guard hooks' input",
    ),
    (
        "sdk/core/state_contract.rs",
        "GSD Core's state contract (.planning/state.json): a snapshot derived from the tree, replaced whole after the write it describes (that write went through the store), no planning document",
    ),
    (
        "sdk/core/research.rs",
        "GSD Core's research cache (.planning/research/.cache/KEY.json or ~/.gsd/research-cache/): a cache entry replaced whole, no planning document",
    ),
    (
        "ralph/run/worktree.rs",
        "a failed plan worktree's empty folder and git's stale record of it",
    ),
    (
        "ralph/run/leftovers.rs",
        "an empty .gsd/wt-* folder no worktree uses (`gsd ralph clean`)",
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's code without its unit tests (they write temp files freely).
fn code(p: &Path) -> String {
    let text = std::fs::read_to_string(p).unwrap();
    match text.find("#[cfg(test)]") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

fn rel(p: &Path) -> String {
    p.strip_prefix(SRC).unwrap().display().to_string()
}

#[test]
fn only_the_store_writes_planning_files() {
    let mut files = Vec::new();
    rust_files(Path::new(SRC), &mut files);
    let mut offenders = Vec::new();
    let mut writers = 0;
    for f in &files {
        let name = rel(f);
        if name.starts_with("store/") {
            writers += 1;
            continue;
        }
        let text = code(f);
        let found: Vec<&str> = WRITES
            .iter()
            .copied()
            .filter(|w| text.contains(w))
            .collect();
        if !found.is_empty() && !ALLOWED.iter().any(|(a, _)| *a == name) {
            offenders.push(format!("{name}: {found:?}"));
        }
    }
    assert!(writers >= 5, "the store is where it was");
    assert!(
        offenders.is_empty(),
        "files outside src/store/ that write: {offenders:#?}\n(write planning files through ops::run / store::Transaction)"
    );
    // Every allowance is still needed: a stale one would hide a new writer.
    for (a, what) in ALLOWED {
        let text = code(&Path::new(SRC).join(a));
        assert!(
            WRITES.iter().any(|w| text.contains(w)),
            "{a} ({what}) no longer writes; drop it from ALLOWED"
        );
    }
    // The transaction is the store's one entry point for planning files.
    let store = std::fs::read_to_string(Path::new(SRC).join("store/mod.rs")).unwrap();
    assert!(!store.contains("pub fn write_and_commit"));
    assert!(!store.contains("pub fn restructure_and_commit"));
}

#[test]
fn ralph_history_has_no_write_code_of_its_own() {
    let text = code(&Path::new(SRC).join("ralph/history.rs"));
    for w in WRITES
        .iter()
        .chain(&["Transaction", "commit_paths", "PlanningLock"])
    {
        assert!(!text.contains(w), "history.rs contains `{w}`");
    }
    // Through the one write path (on the workstream the loop reads).
    assert!(
        text.contains("ops::run_chosen") || text.contains("ops::run_at"),
        "history.rs writes through ops::run_chosen / ops::run_at"
    );
}

#[test]
fn no_cli_command_file_imports_another() {
    let cli = Path::new(SRC).join("cli");
    let shared = [
        "mod",
        "args",
        "dashboard",
        "error",
        "output",
        "run_view",
        "style",
        "table",
    ];
    let commands: Vec<String> = std::fs::read_dir(&cli)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .filter_map(|e| {
            e.path()
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .filter(|s| !shared.contains(&s.as_str()))
        .collect();
    assert!(commands.len() >= 8, "{commands:?}");
    let mut found = Vec::new();
    for c in &commands {
        let text = std::fs::read_to_string(cli.join(format!("{c}.rs"))).unwrap();
        for other in commands.iter().filter(|o| *o != c) {
            for pat in [
                format!("super::{other}::"),
                format!("super::{other};"),
                format!("super::{{{other}"),
                format!("cli::{other}::"),
            ] {
                if text.contains(&pat) {
                    found.push(format!("cli/{c}.rs uses {pat}"));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
