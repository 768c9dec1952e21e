//! Crash consistency: `kill -9` a write command at random moments; the next
//! read changes nothing, and after `gsd recover` the tree is exactly the old
//! commit or exactly the new one, `git status` is clean and no temp file or
//! journal is left.
//!
//! Four commands, 100 kills each (`GSD_CRASH_RUNS` changes the count):
//! `phase remove` on a 750-file tree (hundreds of renames), `phase add`,
//! `state patch` and `convert --into`. The moments are drawn uniformly over
//! the command's measured duration from a fixed seed, so a failure repeats.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{big_tree, copy_dir, git, init_packed as init_repo, leftovers};

/// xorshift64*: reproducible moments without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, max: Duration) -> Duration {
        let n = max.as_micros().max(1) as u64;
        Duration::from_micros(self.next() % n)
    }
}

fn tree_id(dir: &Path) -> String {
    git(dir, &["rev-parse", "HEAD^{tree}"]).trim().to_owned()
}

fn command(dir: &Path, args: &[String]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

struct Tally {
    old: usize,
    new: usize,
    killed_running: usize,
    /// Runs whose `gsd recover` said it finished an interrupted change.
    recovered: usize,
}

/// Kill `args` at `runs` random moments on copies of `base` and check
/// every copy after the next gsd command.
fn crash(base: &Path, args: &[String], runs: usize, seed: u64) -> Tally {
    let old = tree_id(base);
    // The change made without a crash: its tree, and how long it takes.
    // The fastest of three runs: later runs are warmer than the first, and
    // the kills should land inside the command, not after it.
    let mut took = Duration::MAX;
    let mut new = String::new();
    for _ in 0..3 {
        let reference = tempfile::tempdir().unwrap();
        copy_dir(base, reference.path());
        let started = Instant::now();
        let ok = command(reference.path(), args).status().unwrap();
        took = took.min(started.elapsed());
        assert!(ok.success(), "{args:?} fails without a crash");
        new = tree_id(reference.path());
    }
    assert_ne!(old, new, "{args:?} changed nothing");
    let mut rng = Rng(seed);
    let mut tally = Tally {
        old: 0,
        new: 0,
        killed_running: 0,
        recovered: 0,
    };
    for run in 0..runs {
        let t = tempfile::tempdir().unwrap();
        copy_dir(base, t.path());
        let mut child = command(t.path(), args).spawn().unwrap();
        std::thread::sleep(rng.below(took));
        if child.try_wait().unwrap().is_none() {
            tally.killed_running += 1;
        }
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        // The next read changes nothing (HEAD, index, files); then the
        // explicit `gsd recover` finishes what was cut off.
        let before = common::snapshot(t.path());
        let read = command(t.path(), &["state".into(), "--json".into()])
            .output()
            .unwrap();
        assert!(
            read.status.code().is_some_and(|c| c != 101),
            "run {run}: the next command crashed"
        );
        common::assert_same(
            &before,
            &common::snapshot(t.path()),
            &format!("run {run}: a read changed the tree"),
        );
        let next = command(t.path(), &["recover".into()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(
            next.status.code(),
            Some(0),
            "run {run}: recover failed: {}",
            String::from_utf8_lossy(&next.stderr)
        );
        let said = String::from_utf8_lossy(&next.stdout);
        if said.contains("finished an interrupted change") {
            tally.recovered += 1;
        }
        let now = tree_id(t.path());
        let status = git(
            t.path(),
            &["status", "--porcelain", "--untracked-files=all"],
        );
        let left = leftovers(t.path());
        assert!(
            (now == old || now == new) && status.is_empty() && left.is_empty(),
            "{args:?} run {run} (seed {seed}): HEAD tree {now} (old {old}, new {new}), git status:\n{status}\nleft: {left:?}"
        );
        if now == old {
            tally.old += 1;
        } else {
            tally.new += 1;
        }
    }
    eprintln!(
        "{args:?}: {runs}/{runs} consistent ({} old, {} new; {} killed while running, {} finished by `gsd recover`; the command takes {took:?})",
        tally.old, tally.new, tally.killed_running, tally.recovered
    );
    tally
}

fn runs() -> usize {
    std::env::var("GSD_CRASH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100)
}

#[test]
fn phase_remove_on_750_files() {
    let base = tempfile::tempdir().unwrap();
    big_tree(base.path(), 75, 6);
    let files = walk_count(&base.path().join(".planning"));
    assert!(files >= 750, "{files} files");
    init_repo(base.path());
    let t = crash(
        base.path(),
        &[
            "phase".into(),
            "remove".into(),
            "2".into(),
            "--force".into(),
        ],
        runs(),
        0x9E37_79B9_7F4A_7C15,
    );
    // The kills landed inside the change, not only before or after it, and
    // some inside the window the journal covers. (A quarter, not a half: the
    // reference time is taken while other tests run, so a quiet machine
    // finishes some runs before their kill.)
    assert!(
        t.killed_running > runs() / 4,
        "{} kills inside",
        t.killed_running
    );
    assert!(t.recovered > 0, "no run needed recovery");
}

fn walk_count(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            if e.file_type().unwrap().is_dir() {
                walk_count(&e.path())
            } else {
                1
            }
        })
        .sum()
}

fn small_repo() -> tempfile::TempDir {
    common::repo_of("clean")
}

#[test]
fn phase_add() {
    let base = small_repo();
    crash(
        base.path(),
        &["phase".into(), "add".into(), "Crash proof".into()],
        runs(),
        0xD1B5_4A32_D192_ED03,
    );
}

#[test]
fn state_patch() {
    let base = small_repo();
    crash(
        base.path(),
        &[
            "state".into(),
            "patch".into(),
            "status=Executing".into(),
            "Last activity=2026-11-23 - crash test".into(),
        ],
        runs(),
        0xA076_1D64_78BD_642F,
    );
}

#[test]
fn convert_into() {
    let base = small_repo();
    let msw = common::fixture("convert").join("msw.json");
    crash(
        base.path(),
        &[
            "convert".into(),
            msw.display().to_string(),
            "--to".into(),
            "gsd-xml".into(),
            "--into".into(),
            "01-02".into(),
        ],
        runs(),
        0xE703_7ED1_A0B4_28DB,
    );
}
