//! Fault injection, from the CLI on real git repositories: each multi-file
//! write command × each way its write can fail. After every failure the
//! command exits 2, `git status` is clean, the tree (files, modes, HEAD,
//! index) is exactly the old one, no journal or temp file is left, and the
//! next read command changes nothing. A killed command leaves a journal
//! that a read leaves alone, `gsd recover` finishes and `gsd recover
//! --abandon` undoes; copied and moved repositories recover their own files.
//!
//! The faults: a read-only file, a read-only folder (refused by mode, so
//! also under root, which the kernel would let write), git's index held by
//! another process, git unable to store objects (a file where an object
//! folder must go: the commit fails after the files were written), a folder
//! the change must create taken by a dangling link (a write fails half-way),
//! a file-size limit (`setrlimit(RLIMIT_FSIZE)` in the child: writes fail
//! with EFBIG, a full disk's effect on gsd without needing one) and
//! `kill -9` at several moments. A real ENOSPC needs a small file system,
//! which takes root to mount: that row is not here.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{
    Snapshot, big_tree, copy_dir, git, gsd, init_packed, leftovers, snapshot, stderr, stdout,
};

/// A write command and the file and folder it changes (for the read-only
/// rows): `phase remove 1` renames phase 2's plan, so its read-only row is
/// the renamed file.
struct Cmd {
    args: &'static [&'static str],
    file: &'static str,
    folder: &'static str,
}

const COMMANDS: [Cmd; 4] = [
    Cmd {
        args: &["phase", "add", "Fault line"],
        file: ".planning/ROADMAP.md",
        folder: ".planning/phases",
    },
    Cmd {
        args: &["phase", "remove", "1", "--force"],
        file: ".planning/phases/02-api/02-01-PLAN.md",
        folder: ".planning/phases/02-api",
    },
    Cmd {
        args: &["phase", "complete", "2", "--force"],
        file: ".planning/STATE.md",
        folder: ".planning",
    },
    Cmd {
        args: &["state", "set", "status", "Executing"],
        file: ".planning/STATE.md",
        folder: ".planning",
    },
];

/// The clean fixture, committed, objects packed (no loose object folder).
fn base() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    copy_dir(&common::fixture("clean"), t.path());
    init_packed(t.path());
    t
}

/// A copy of the tree as it is, file times included (`cp -a`): recovery
/// tells git lock files a killed gsd left from others by their time against
/// the journal's, which a copy in directory order would scramble.
fn copy_of(base: &Path) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    copy_dir(base, t.path());
    keep_times(base, t.path());
    t
}

fn keep_times(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            keep_times(&e.path(), &target);
        } else {
            let modified = e.metadata().unwrap().modified().unwrap();
            let f = std::fs::File::options().write(true).open(&target).unwrap();
            f.set_modified(modified).unwrap();
        }
    }
}

fn status(dir: &Path) -> String {
    git(dir, &["status", "--porcelain", "--untracked-files=all"])
}

fn tree_id(dir: &Path) -> String {
    git(dir, &["rev-parse", "HEAD^{tree}"]).trim().to_owned()
}

fn words(o: &Output) -> String {
    stderr(o)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Run the next read command (`gsd roadmap --json`) and check it leaves
/// the tree as `expected`: a read never acts on another command's change.
fn next_read_keeps(d: &Path, expected: &Snapshot, row: &str) -> Output {
    let read = gsd(d, &["roadmap", "--json"]);
    assert_eq!(read.status.code(), Some(0), "{row}: {}", stderr(&read));
    common::assert_same(
        expected,
        &snapshot(d),
        &format!("{row}: the next read changed the tree"),
    );
    read
}

/// One way a write fails: set up in the copy, what the error says, undone
/// after the checks.
struct Fault {
    name: &'static str,
    /// Whether it applies to the command (its index in COMMANDS).
    applies: fn(usize) -> bool,
    set: fn(&Path, &Cmd, &Path),
    says: &'static str,
    clear: fn(&Path, &Cmd),
    /// The command is run with a file-size limit.
    limit_size: bool,
}

fn chmod(p: &Path, mode: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn faults() -> Vec<Fault> {
    vec![
        Fault {
            name: "read-only file",
            applies: |_| true,
            set: |d, c, _| chmod(&d.join(c.file), 0o444),
            says: "is read-only",
            clear: |d, c| chmod(&d.join(c.file), 0o644),
            limit_size: false,
        },
        Fault {
            name: "read-only folder",
            applies: |_| true,
            set: |d, c, _| chmod(&d.join(c.folder), 0o555),
            says: "is read-only",
            clear: |d, c| chmod(&d.join(c.folder), 0o755),
            limit_size: false,
        },
        Fault {
            name: "git index.lock held",
            applies: |_| true,
            set: |d, _, _| std::fs::write(d.join(".git/index.lock"), "").unwrap(),
            says: "git is busy",
            clear: |d, _| std::fs::remove_file(d.join(".git/index.lock")).unwrap(),
            limit_size: false,
        },
        Fault {
            name: "git cannot store objects",
            applies: |_| true,
            set: |d, _, _| {
                for n in 0..=255u8 {
                    let p = d.join(format!(".git/objects/{n:02x}"));
                    let _ = std::fs::remove_dir(&p); // empty after gc
                    assert!(!p.exists(), "loose objects in {}", p.display());
                    std::fs::write(p, "").unwrap();
                }
            },
            says: "the change was undone",
            clear: |d, _| {
                for n in 0..=255u8 {
                    std::fs::remove_file(d.join(format!(".git/objects/{n:02x}"))).unwrap();
                }
            },
            limit_size: false,
        },
        Fault {
            name: "new folder taken by a dangling link",
            applies: |i| i == 0,
            set: |d, _, new_dir| {
                std::os::unix::fs::symlink("nowhere", d.join(new_dir)).unwrap();
            },
            says: "the change was undone",
            clear: |d, _| {
                for e in std::fs::read_dir(d.join(".planning/phases"))
                    .unwrap()
                    .flatten()
                {
                    if e.file_type().unwrap().is_symlink() {
                        std::fs::remove_file(e.path()).unwrap();
                    }
                }
            },
            limit_size: false,
        },
        Fault {
            name: "file-size limit (EFBIG)",
            applies: |_| true,
            set: |_, _, _| {},
            says: "cannot write",
            clear: |_, _| {},
            limit_size: true,
        },
    ]
}

/// `gsd` with a 300-byte file-size limit: writes past it fail with EFBIG
/// (SIGXFSZ ignored, so the call returns the error instead of killing).
fn gsd_limited(dir: &Path, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C").arg(dir).args(args);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        c.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: 300,
                rlim_max: 300,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c.output().unwrap()
}

/// The folder `phase add` makes (from a run on a throwaway copy).
fn new_phase_dir(base: &Path) -> PathBuf {
    let t = copy_of(base);
    let o = gsd(t.path(), &["phase", "add", "Fault line", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let changed = common::json(&o)["changed"].clone();
    let keep = changed
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p.as_str())
        .find(|p| p.ends_with("/.gitkeep"))
        .unwrap()
        .to_owned();
    PathBuf::from(keep).parent().unwrap().to_path_buf()
}

#[test]
fn every_failed_write_leaves_the_old_tree_and_nothing_pending() {
    let base = base();
    let new_dir = new_phase_dir(base.path());
    let mut rows = 0;
    for fault in faults() {
        for (i, cmd) in COMMANDS.iter().enumerate() {
            if !(fault.applies)(i) {
                continue;
            }
            rows += 1;
            let row = format!("{} × {:?}", fault.name, cmd.args);
            let t = copy_of(base.path());
            let d = t.path();
            // Without the fault, the command changes the tree.
            let control = copy_of(base.path());
            let o = gsd(control.path(), cmd.args);
            assert_eq!(o.status.code(), Some(0), "{row}: {}", stderr(&o));
            assert_ne!(tree_id(control.path()), tree_id(d), "{row}: no change");
            (fault.set)(d, cmd, &new_dir);
            let before = snapshot(d);
            let o = if fault.limit_size {
                gsd_limited(d, cmd.args)
            } else {
                gsd(d, cmd.args)
            };
            assert_eq!(o.status.code(), Some(2), "{row}: {}", stderr(&o));
            assert!(words(&o).contains(fault.says), "{row}: {}", words(&o));
            assert!(!words(&o).contains("pending"), "{row}: {}", words(&o));
            common::assert_same(&before, &snapshot(d), &format!("{row}: the tree changed"));
            assert_eq!(leftovers(d), Vec::<PathBuf>::new(), "{row}");
            next_read_keeps(d, &before, &row);
            (fault.clear)(d, cmd);
            assert_eq!(status(d), "", "{row}");
            assert_eq!(leftovers(d), Vec::<PathBuf>::new(), "{row}");
        }
    }
    assert_eq!(rows, 21);
}

/// How long `args` takes on a copy of `base`, and the tree it makes.
fn reference(base: &Path, args: &[&str]) -> (Duration, String) {
    let mut took = Duration::MAX;
    let mut tree = String::new();
    for _ in 0..2 {
        let t = copy_of(base);
        let started = Instant::now();
        let o = gsd(t.path(), args);
        took = took.min(started.elapsed());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        tree = tree_id(t.path());
    }
    (took, tree)
}

fn spawn_and_kill(dir: &Path, args: &[&str], after: Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gsd"))
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
}

/// `kill -9` each command at moments spread over its run: a read after it
/// changes nothing; `gsd recover` (even runs) gives the old or the new
/// tree, `gsd recover --abandon` (odd runs) the old one unless the commit
/// was already made.
#[test]
fn a_killed_write_is_left_to_recover_and_a_read_changes_nothing() {
    let base = base();
    let old = tree_id(base.path());
    for cmd in &COMMANDS {
        let (took, new) = reference(base.path(), cmd.args);
        let mut pending = 0;
        for run in 0..10u32 {
            let t = copy_of(base.path());
            let d = t.path();
            spawn_and_kill(d, cmd.args, took * run / 9);
            let row = format!("{:?} killed at {}/9", cmd.args, run);
            let before = snapshot(d);
            let was_pending = leftovers(d).iter().any(|p| p.ends_with("journal.json"));
            let read = next_read_keeps(d, &before, &row);
            if was_pending {
                pending += 1;
                // Or, killed while writing its journal, a torn one cleared.
                let w = words(&read);
                assert!(
                    w.contains("is pending") || w.contains("cut short"),
                    "{row}: {w}"
                );
            }
            let abandon = run % 2 == 1;
            let o = if abandon {
                gsd(d, &["recover", "--abandon"])
            } else {
                gsd(d, &["recover"])
            };
            assert_eq!(o.status.code(), Some(0), "{row}: {}", stderr(&o));
            let now = tree_id(d);
            assert_eq!(status(d), "", "{row}");
            assert_eq!(leftovers(d), Vec::<PathBuf>::new(), "{row}");
            if was_pending && abandon && !stdout(&o).contains("already committed") {
                assert_eq!(now, old, "{row}: abandoned, yet not the old tree");
            } else {
                assert!(now == old || now == new, "{row}: neither old nor new");
            }
        }
        eprintln!("{:?}: {pending}/10 kills left a journal", cmd.args);
    }
}

/// A big tree's `phase remove 2` killed after its journal, with the
/// removed phase's plans gone and ROADMAP.md not yet rewritten: a change
/// half-made. Kills at random moments until one lands there.
fn half_removed() -> (tempfile::TempDir, Snapshot, String) {
    let base = tempfile::tempdir().unwrap();
    big_tree(base.path(), 30, 5);
    init_packed(base.path());
    let old = snapshot(base.path());
    let args = ["phase", "remove", "2", "--force"];
    let (took, new) = reference(base.path(), &args);
    let roadmap = std::fs::read(base.path().join(".planning/ROADMAP.md")).unwrap();
    // Bisect the moment: too early (nothing or only some deletes done),
    // too late (ROADMAP.md written, or the change finished).
    let (mut lo, mut hi) = (Duration::ZERO, took.mul_f64(1.2));
    for _ in 0..200 {
        let at = lo + (hi - lo) / 2;
        let t = copy_of(base.path());
        let d = t.path();
        spawn_and_kill(d, &args, at);
        // A journal and no temp file (a kill inside an atomic write leaves
        // one, which recovery removes: not the state wanted here).
        // The links a running change keeps to the files it replaces are
        // not partial files.
        let left: Vec<PathBuf> = leftovers(d)
            .into_iter()
            .filter(|p| !common::kept_link(p))
            .collect();
        let journal = left.iter().any(|p| p.ends_with("journal.json"));
        let deleted = !d
            .join(".planning/phases/02-phase-number-2/02-01-PLAN.md")
            .exists();
        let written = std::fs::read(d.join(".planning/ROADMAP.md")).unwrap() != roadmap;
        if journal && left.len() == 1 && deleted && !written {
            return (t, old, new);
        }
        if written || (deleted && !journal) {
            hi = at;
        } else {
            lo = at;
        }
        // Timing noise can close the window on the wrong side: reopen it.
        if hi.saturating_sub(lo) < Duration::from_micros(300) {
            lo = lo.saturating_sub(Duration::from_millis(30));
            hi += Duration::from_millis(30);
        }
    }
    panic!("no kill landed inside the change in 200 runs ({took:?} a run)");
}

/// Recovery is all or nothing: after a hand edit of ROADMAP.md in a
/// half-made `phase remove`, neither a read, `gsd recover` nor a write
/// command moves a single file; each names the edited file.
#[test]
fn recovery_checks_every_file_before_it_moves_one() {
    let (t, _, _) = half_removed();
    let d = t.path();
    let roadmap = d.join(".planning/ROADMAP.md");
    let mut text = std::fs::read_to_string(&roadmap).unwrap();
    text.push_str("\nA note of mine.\n");
    std::fs::write(&roadmap, &text).unwrap();
    let before = snapshot(d);
    for args in [
        &["roadmap", "--json"][..],
        &["recover"],
        &["phase", "add", "More"],
    ] {
        let o = gsd(d, args);
        common::assert_same(&before, &snapshot(d), &format!("{args:?} changed the tree"));
        if args[0] != "roadmap" {
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
            let w = words(&o);
            assert!(
                w.contains("cannot be finished or undone") && w.contains(".planning/ROADMAP.md"),
                "{args:?}: {w}"
            );
        }
    }
    // `--abandon` drops the journal and says which files it left.
    let o = gsd(d, &["recover", "--abandon"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(".planning/ROADMAP.md"),
        "{}",
        stdout(&o)
    );
    common::assert_same(&before, &snapshot(d), "snapshot");
    assert_eq!(leftovers(d), Vec::<PathBuf>::new());
}

/// A copy (`cp -a`) of a repository with a pending change recovers its own
/// files and never the original's; a moved repository recovers in place.
#[test]
fn copied_and_moved_repositories_recover_their_own_files() {
    let (t, old, new) = half_removed();
    let original = t.path();
    let half = snapshot(original);
    let place = tempfile::tempdir().unwrap();
    let copy = place.path().join("copy");
    let o = Command::new("cp")
        .arg("-a")
        .arg(original)
        .arg(&copy)
        .output()
        .unwrap();
    assert!(o.status.success());
    let o = gsd(&copy, &["recover"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(tree_id(&copy), new);
    assert_eq!(status(&copy), "");
    common::assert_same(
        &half,
        &snapshot(original),
        "recovering the copy edited the original",
    );
    // The original, undone, is the old tree again, file for file.
    let o = gsd(original, &["recover", "--abandon"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    common::assert_same(&old, &snapshot(original), "snapshot");
    assert_eq!(status(original), "");
    // Moved: reads work and warn; recovery finishes in the new place.
    let (t2, _, new) = half_removed();
    let moved = place.path().join("moved");
    std::fs::rename(t2.path(), &moved).unwrap();
    let half = snapshot(&moved);
    let o = gsd(&moved, &["state", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(words(&o).contains("is pending"), "{}", words(&o));
    common::assert_same(&half, &snapshot(&moved), "snapshot");
    let o = gsd(&moved, &["recover"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(tree_id(&moved), new);
    assert_eq!(status(&moved), "");
    assert_eq!(leftovers(&moved), Vec::<PathBuf>::new());
    std::fs::create_dir(t2.path()).unwrap(); // for the TempDir's cleanup
}

/// A journal cut short (a kill or a full disk while it was written) is
/// cleared with a message by the next command, even a read, never left to
/// block.
#[test]
fn a_torn_journal_is_cleared_with_a_message() {
    let base = base();
    let d = base.path();
    let before = snapshot(d);
    std::fs::create_dir_all(d.join(".gsd")).unwrap();
    std::fs::write(
        d.join(".gsd/journal.json"),
        r##"{"version":2,"message":"docs(state): status","commit":true,"policy":"commit","head":null,"ops":[{"op":"write","path":".planning/STATE.md","old":"# Pro"##,
    )
    .unwrap();
    let o = gsd(d, &["roadmap", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(words(&o).contains("cut short"), "{}", words(&o));
    assert_eq!(leftovers(d), Vec::<PathBuf>::new());
    common::assert_same(&before, &snapshot(d), "snapshot");
    let o = gsd(d, &["state", "set", "status", "Executing"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A committing write refuses a file holding the user's own uncommitted
/// edit, names it and says how to go on; `--include-dirty` commits both,
/// `--no-commit` writes without committing. An untracked file the change
/// renames is the tree's own and is committed with it.
#[test]
fn a_committing_write_refuses_the_users_own_edits() {
    let base = base();
    let d = base.path();
    let state = d.join(".planning/STATE.md");
    let mut text = std::fs::read_to_string(&state).unwrap();
    text.push_str("\nmy note\n");
    std::fs::write(&state, &text).unwrap();
    let before = snapshot(d);
    let o = gsd(d, &["state", "set", "status", "Executing"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let w = words(&o);
    assert!(
        w.contains(".planning/STATE.md has uncommitted changes")
            && w.contains("--include-dirty")
            && w.contains("stash"),
        "{w}"
    );
    common::assert_same(&before, &snapshot(d), "snapshot");
    let o = gsd(
        d,
        &["state", "set", "status", "Executing", "--include-dirty"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(status(d), "");
    assert!(git(d, &["show", "HEAD:.planning/STATE.md"]).contains("my note"));
    // Staged but not committed counts too.
    std::fs::write(&state, text.replace("my note", "my staged note")).unwrap();
    git(d, &["add", ".planning/STATE.md"]);
    let o = gsd(d, &["phase", "complete", "2", "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = gsd(d, &["phase", "complete", "2", "--force", "--no-commit"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    git(d, &["commit", "-qam", "mine"]);
    // An untracked plan in a phase that is renumbered moves with it.
    std::fs::write(d.join(".planning/phases/02-api/02-02-PLAN.md"), "# new\n").unwrap();
    let o = gsd(d, &["phase", "remove", "1", "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(status(d), "");
    assert!(d.join(".planning/phases/01-api/01-02-PLAN.md").exists());
}

/// tests/common/eio.c built as a preload library, once per test binary.
fn eio_library() -> &'static Path {
    static LIB: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    LIB.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        let lib = dir.join("libeio.so");
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/common/eio.c");
        let o = Command::new("cc")
            .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o"])
            .arg(&lib)
            .arg(&src)
            .arg("-ldl")
            .output()
            .expect("cc (a C compiler, which cargo's linker needs anyway)");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        lib
    })
}

/// How a run under the preload library went: the steps it counted and
/// how many it failed.
struct Steps {
    steps: usize,
    failed: usize,
}

/// `gsd args` with step `n` (or, with `from`, every step from `n` on) of
/// its file-system changes failing with EIO.
fn gsd_eio(dir: &Path, args: &[&str], n: usize, from: bool) -> (Output, Steps) {
    let log = tempfile::NamedTempFile::new().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_gsd"))
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("LD_PRELOAD", eio_library())
        .env(
            if from { "GSD_EIO_FROM" } else { "GSD_EIO_AT" },
            n.to_string(),
        )
        .env("GSD_EIO_LOG", log.path())
        .output()
        .unwrap();
    let counts = std::fs::read_to_string(log.path()).unwrap();
    let mut it = counts.split_whitespace().map(|w| w.parse().unwrap());
    let steps = Steps {
        steps: it.next().unwrap(),
        failed: it.next().unwrap(),
    };
    (o, steps)
}

/// EIO (a failing disk, a network file system gone) at each step of each
/// multi-file write command, one step at a time and from a step on (so
/// that the undo fails too). One failing step: the command succeeds with
/// the new tree, or exits 2 with the old tree exactly, `git status` clean,
/// nothing pending. Every step failing from some point: the same, or the
/// change is pending and the message says how to finish or abandon it;
/// a read then changes nothing, `gsd recover --abandon` gives the old tree
/// and `gsd recover` the new one, both with `git status` clean.
#[test]
fn eio_at_every_write_step_leaves_the_old_tree_or_a_recoverable_one() {
    let base = base();
    let old = tree_id(base.path());
    let mut table = vec![
        "| command | steps | one step fails: new / old | from a step on: new / old / pending |"
            .to_owned(),
    ];
    for cmd in &COMMANDS {
        let (_, new) = reference(base.path(), cmd.args);
        let mut seen = 0;
        let mut counts = [[0usize; 3]; 2];
        for from in [false, true] {
            for n in 1.. {
                let row = format!(
                    "{:?}, EIO {} step {n}",
                    cmd.args,
                    if from { "from" } else { "at" }
                );
                let t = copy_of(base.path());
                let d = t.path();
                let before = snapshot(d);
                let (o, steps) = gsd_eio(d, cmd.args, n, from);
                if steps.failed == 0 {
                    assert!(n > 1, "{row}: no step counted");
                    assert_eq!(o.status.code(), Some(0), "{row}: {}", stderr(&o));
                    break;
                }
                seen = seen.max(steps.steps);
                // A journal the command could neither write whole nor empty
                // (every later step failing) is torn, not pending: nothing
                // changed, and the next command clears it.
                let pending = words(&o).contains("pending in");
                let outcome = match o.status.code() {
                    Some(0) => {
                        assert_eq!(tree_id(d), new, "{row}: exit 0, not the new tree");
                        assert_eq!(status(d), "", "{row}");
                        if leftovers(d).iter().any(|p| p.ends_with("journal.json")) {
                            // Committed; only the journal could not be
                            // emptied: the next write's recovery clears it.
                            assert!(from, "{row}: one failed step left a journal");
                            let r = gsd(d, &["recover"]);
                            assert!(
                                stdout(&r).contains("already committed"),
                                "{row}: {}",
                                stdout(&r)
                            );
                        }
                        0
                    }
                    Some(2) if !pending => {
                        let w = words(&o);
                        assert!(!w.contains("pending"), "{row}: {w}");
                        common::assert_same(
                            &before,
                            &snapshot(d),
                            &format!("{row}: not the old tree"),
                        );
                        if !from {
                            assert_eq!(status(d), "", "{row}");
                            assert_eq!(leftovers(d), Vec::<PathBuf>::new(), "{row}");
                        }
                        // With every later step failing, not even a temp
                        // file could be removed, nor `.gsd/.gitignore`
                        // written: the next command, on a working disk,
                        // hides what is left in `.gsd/`.
                        next_read_keeps(d, &before, &row);
                        assert_eq!(status(d), "", "{row}: after the next read");
                        1
                    }
                    Some(2) => {
                        assert!(from, "{row}: one failed step was not undone: {}", words(&o));
                        let w = words(&o);
                        assert!(
                            w.contains("gsd recover") && w.contains(".gsd/journal.json"),
                            "{row}: {w}"
                        );
                        let failed = snapshot(d);
                        next_read_keeps(d, &failed, &row);
                        let finish = copy_of(d);
                        let r = gsd(d, &["recover", "--abandon"]);
                        assert_eq!(r.status.code(), Some(0), "{row}: {}", stderr(&r));
                        common::assert_same(
                            &before,
                            &snapshot(d),
                            &format!("{row}: abandoned, not the old tree"),
                        );
                        assert_eq!(tree_id(d), old, "{row}");
                        assert_eq!(status(d), "", "{row}: abandoned");
                        let r = gsd(finish.path(), &["recover"]);
                        assert_eq!(r.status.code(), Some(0), "{row}: {}", stderr(&r));
                        assert_eq!(
                            tree_id(finish.path()),
                            new,
                            "{row}: finished, not the new tree"
                        );
                        assert_eq!(status(finish.path()), "", "{row}: finished");
                        assert_eq!(leftovers(finish.path()), Vec::<PathBuf>::new(), "{row}");
                        2
                    }
                    _ => panic!("{row}: {}", stderr(&o)),
                };
                let left = leftovers(d);
                if !left.is_empty() && left.iter().all(|p| common::kept_link(p)) {
                    // A link to an old file the failing disk would not let
                    // go: git-ignored in `.gsd/`, and the next write (here
                    // `gsd recover`) removes it, changing nothing else.
                    let now = snapshot(d);
                    let r = gsd(d, &["recover"]);
                    assert_eq!(r.status.code(), Some(0), "{row}: {}", stderr(&r));
                    common::assert_same(&now, &snapshot(d), &format!("{row}: recover"));
                }
                assert_eq!(leftovers(d), Vec::<PathBuf>::new(), "{row}");
                counts[usize::from(from)][outcome] += 1;
            }
        }
        assert!(
            counts[0][1] > 0 && counts[1][2] > 0,
            "{:?}: {counts:?}",
            cmd.args
        );
        table.push(format!(
            "| {} | {seen} | {} / {} | {} / {} / {} |",
            cmd.args.join(" "),
            counts[0][0],
            counts[0][1],
            counts[1][0],
            counts[1][1],
            counts[1][2]
        ));
    }
    eprintln!("{}", table.join("\n"));
}

/// `gsd args` on a copy of `base` inside a 4 MB tmpfs of its own (a mount
/// namespace of an unprivileged user namespace: `unshare -rm`) filled up
/// to `free` bytes: the disk is really full. The tree is copied out
/// afterwards into `out`; returns the command's exit code and stderr.
fn gsd_on_full_disk(base: &Path, args: &[&str], free: u64, out: &Path) -> (i32, String) {
    let script = r#"
set -e
mnt="$(mktemp -d)"
mount -t tmpfs -o size=4m gsdfull "$mnt"
mkdir "$mnt/repo" && cp -a "$BASE/." "$mnt/repo/"
avail=$(( $(stat -f -c '%a * %S' "$mnt") ))
head -c $(( avail - FREE )) /dev/zero > "$mnt/fill"
set +e
"$GSD" -C "$mnt/repo" "$@" 2> "$OUT.stderr" > /dev/null
echo $? > "$OUT.rc"
set -e
cp -a "$mnt/repo/." "$OUT/"
"#;
    let o = Command::new("unshare")
        .args(["-rm", "sh", "-c", script, "full-disk"])
        .args(args)
        .env("BASE", base)
        .env("FREE", free.to_string())
        .env("GSD", env!("CARGO_BIN_EXE_gsd"))
        .env("OUT", out)
        .output()
        .expect("unshare (util-linux)");
    assert!(
        o.status.success(),
        "a tmpfs in a user namespace: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rc = std::fs::read_to_string(out.with_extension("rc")).unwrap();
    let err = std::fs::read_to_string(out.with_extension("stderr")).unwrap();
    (rc.trim().parse().unwrap(), err)
}

/// A really full disk (ENOSPC), with 0, 4, 8, … KB left, at each multi-file
/// write command, until there is room: the command exits 2 with the old
/// tree, `git status` clean, nothing pending (undoing renames back the
/// links the change kept to the old files, which needs no room); with
/// room, the new tree.
#[test]
fn a_full_disk_leaves_the_old_tree_or_a_recoverable_one() {
    let base = base();
    let old = tree_id(base.path());
    for cmd in &COMMANDS {
        let (_, new) = reference(base.path(), cmd.args);
        let before = snapshot(base.path());
        let (mut failed, mut pending) = (0, 0);
        let mut free = 0;
        loop {
            let row = format!("{:?} with {} KB free", cmd.args, free / 1024);
            let t = tempfile::tempdir().unwrap();
            let out = t.path().join("tree");
            std::fs::create_dir(&out).unwrap();
            let (rc, err) = gsd_on_full_disk(base.path(), cmd.args, free, &out);
            let d = out.as_path();
            let w = err.split_whitespace().collect::<Vec<_>>().join(" ");
            if rc == 0 {
                assert_eq!(tree_id(d), new, "{row}");
                assert_eq!(status(d), "", "{row}");
                break;
            }
            assert_eq!(rc, 2, "{row}: {w}");
            assert!(w.contains("No space left on device"), "{row}: {w}");
            failed += 1;
            if w.contains("pending in") {
                pending += 1;
                let r = gsd(d, &["recover", "--abandon"]);
                assert_eq!(r.status.code(), Some(0), "{row}: {}", stderr(&r));
            } else {
                // The next command, with room, hides what a full `.gsd/`
                // kept (a temp file its .gitignore could not replace).
                let r = gsd(d, &["roadmap", "--json"]);
                assert_eq!(r.status.code(), Some(0), "{row}: {}", stderr(&r));
            }
            common::assert_same(&before, &snapshot(d), &format!("{row}: not the old tree"));
            assert_eq!(tree_id(d), old, "{row}");
            assert_eq!(status(d), "", "{row}");
            assert_eq!(leftovers(d), Vec::<PathBuf>::new(), "{row}");
            free += 4096;
            assert!(free < 2 << 20, "{row}: still failing");
        }
        eprintln!(
            "{:?}: {failed} full-disk runs failed ({pending} left pending, then abandoned), then room at {} KB",
            cmd.args,
            free / 1024
        );
        assert!(failed > 0, "{:?}: never out of room", cmd.args);
        // Undoing needs no room: the change's own links to the old files
        // are renamed back, and the journal is emptied, not rewritten.
        assert_eq!(
            pending, 0,
            "{:?}: a full disk left a change pending",
            cmd.args
        );
    }
}
