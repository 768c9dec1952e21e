//! Every write command × the hostile shapes a touched file can have, with
//! the documented result: merge-conflict markers, a read-only file, a link
//! leaving the repository and non-UTF-8 bytes are refused (exit 2, a
//! message naming the cause, every file and HEAD byte-identical); a link
//! inside the repository is written through and stays a link; git's index
//! lock held by another process is refused before anything is written; a
//! CRLF file stays CRLF. No command exits 101 (a panic) on any of them.

mod common;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::*;

/// A write command and the file under `.planning/` it rewrites.
struct Cmd {
    args: &'static [&'static str],
    touches: &'static str,
}

/// Make the clean tree need the command: `update-progress` has nothing to
/// do on a table that matches the disk.
fn stale(root: &Path) {
    let p = root.join(".planning/ROADMAP.md");
    let text = std::fs::read_to_string(&p).unwrap();
    let text = text.replace("| 2. API | 0/1 |", "| 2. API | 0/2 |");
    std::fs::write(&p, text).unwrap();
}

/// The clean fixture in a repository, made stale where a command needs it.
fn repo() -> tempfile::TempDir {
    let t = repo_of("clean");
    stale(t.path());
    git(t.path(), &["commit", "-qam", "stale progress"]);
    t
}

const CMDS: &[Cmd] = &[
    Cmd {
        args: &["state", "set", "Status", "Blocked"],
        touches: "STATE.md",
    },
    Cmd {
        args: &["state", "patch", "status=Blocked"],
        touches: "STATE.md",
    },
    Cmd {
        args: &["state", "decision", "add", "Use SQLite"],
        touches: "STATE.md",
    },
    Cmd {
        args: &["state", "record-session", "--stopped-at", "here"],
        touches: "STATE.md",
    },
    Cmd {
        args: &["phase", "add", "Search"],
        touches: "ROADMAP.md",
    },
    Cmd {
        args: &["phase", "insert", "2", "Rate limits"],
        touches: "ROADMAP.md",
    },
    Cmd {
        args: &["roadmap", "update-progress"],
        touches: "ROADMAP.md",
    },
    Cmd {
        args: &[
            "fm",
            "set",
            ".planning/phases/02-api/02-01-PLAN.md",
            "wave",
            "2",
        ],
        touches: "phases/02-api/02-01-PLAN.md",
    },
    Cmd {
        args: &[
            "convert",
            concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/convert/msw.json"),
            "--to",
            "gsd-xml",
            "--into",
            "01-02",
        ],
        touches: "phases/01-foundation/01-02-PLAN.md",
    },
    Cmd {
        args: &["phase", "complete", "2", "--force"],
        touches: "ROADMAP.md",
    },
    Cmd {
        args: &["phase", "remove", "1", "--force"],
        touches: "ROADMAP.md",
    },
    Cmd {
        args: &["state", "advance"],
        touches: "STATE.md",
    },
];

/// Every entry under `.planning/`: bytes, or a link's target.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_path_buf();
            let ft = e.file_type().unwrap();
            if ft.is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.insert(rel, format!("-> {}", t.display()).into_bytes());
            } else if ft.is_dir() {
                out.insert(rel, b"<dir>".to_vec());
                walk(&p, root, out);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&root.join(".planning"), root, &mut out);
    out
}

/// Run `cmd` on a fresh repository after `prepare` shaped its file; check
/// a refusal left everything as it was.
fn refused(cmd: &Cmd, cause: &str, prepare: impl Fn(&Path)) {
    let t = repo();
    let file = t.path().join(".planning").join(cmd.touches);
    prepare(&file);
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "shape", "--allow-empty"]);
    let before = snapshot(t.path());
    let head = git(t.path(), &["rev-parse", "HEAD"]);
    let o = gsd(t.path(), cmd.args);
    // The message as words: miette wraps long lines behind a `│` gutter.
    let err = stderr(&o)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(o.status.code(), Some(2), "{:?} on {cause}: {err}", cmd.args);
    assert!(
        err.contains(cause),
        "{:?}: `{cause}` not in {err}",
        cmd.args
    );
    assert_eq!(
        snapshot(t.path()),
        before,
        "{:?} on {cause}: files changed",
        cmd.args
    );
    assert_eq!(
        git(t.path(), &["rev-parse", "HEAD"]),
        head,
        "{:?}",
        cmd.args
    );
    // Restore write permission so the temp folder can be removed.
    let _ = std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644));
}

#[test]
fn every_write_command_runs_on_the_clean_tree() {
    for cmd in CMDS {
        let t = repo();
        let o = gsd(t.path(), cmd.args);
        assert_eq!(o.status.code(), Some(0), "{:?}: {}", cmd.args, stderr(&o));
        assert_eq!(
            git(t.path(), &["status", "--porcelain"]).trim(),
            "",
            "{:?}",
            cmd.args
        );
    }
}

#[test]
fn conflict_markers_are_refused() {
    for cmd in CMDS {
        refused(cmd, "merge-conflict markers", |f| {
            let mut text = std::fs::read(f).unwrap();
            text.extend_from_slice(b"\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> other\n");
            std::fs::write(f, text).unwrap();
        });
    }
}

#[test]
fn read_only_files_are_refused() {
    for cmd in CMDS {
        refused(cmd, "read-only", |f| {
            std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o444)).unwrap();
        });
    }
}

#[test]
fn links_leaving_the_repository_are_refused() {
    let elsewhere = tempfile::tempdir().unwrap();
    for (i, cmd) in CMDS.iter().enumerate() {
        let target = elsewhere.path().join(format!("{i}.md"));
        let outside_before = std::sync::Mutex::new(Vec::new());
        refused(cmd, "outside the repository", |f| {
            std::fs::copy(f, &target).unwrap();
            *outside_before.lock().unwrap() = std::fs::read(&target).unwrap();
            std::fs::remove_file(f).unwrap();
            std::os::unix::fs::symlink(&target, f).unwrap();
        });
        assert_eq!(
            std::fs::read(&target).unwrap(),
            *outside_before.lock().unwrap(),
            "{:?} wrote through the link",
            cmd.args
        );
    }
}

#[test]
fn non_utf8_files_are_refused() {
    for cmd in CMDS {
        refused(cmd, "UTF-8", |f| {
            let mut text = std::fs::read(f).unwrap();
            text.extend_from_slice(b"\nbad \xff\xfe bytes\n");
            std::fs::write(f, text).unwrap();
        });
    }
}

/// A link inside the repository is written through: it stays a link, its
/// target changes, and the commit records the target (mode 120000 kept).
#[test]
fn links_inside_the_repository_are_written_through() {
    for cmd in CMDS {
        let t = repo();
        let file = t.path().join(".planning").join(cmd.touches);
        let real = file.with_extension("real.md");
        std::fs::rename(&file, &real).unwrap();
        std::os::unix::fs::symlink(real.file_name().unwrap(), &file).unwrap();
        git(t.path(), &["add", "-A"]);
        git(t.path(), &["commit", "-qm", "link"]);
        let before = std::fs::read(&real).unwrap();
        let o = gsd(t.path(), cmd.args);
        assert_eq!(o.status.code(), Some(0), "{:?}: {}", cmd.args, stderr(&o));
        assert!(
            std::fs::symlink_metadata(&file)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{:?} replaced the link",
            cmd.args
        );
        assert_ne!(std::fs::read(&real).unwrap(), before, "{:?}", cmd.args);
        let rel = file
            .strip_prefix(t.path())
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let staged = git(t.path(), &["ls-files", "-s", &rel]);
        assert!(staged.starts_with("120000"), "{:?}: {staged}", cmd.args);
        assert_eq!(
            git(t.path(), &["status", "--porcelain"]).trim(),
            "",
            "{:?}",
            cmd.args
        );
    }
}

/// Another git process holds the index: the change would be written and
/// its commit would then fail, so it is refused before anything moves.
#[test]
fn a_held_git_index_lock_is_refused() {
    for cmd in CMDS {
        let t = repo();
        let lock = t.path().join(".git/index.lock");
        std::fs::write(&lock, "").unwrap();
        let before = snapshot(t.path());
        let head = git(t.path(), &["rev-parse", "HEAD"]);
        let o = gsd(t.path(), cmd.args);
        let err = stderr(&o)
            .replace('│', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(o.status.code(), Some(2), "{:?}: {err}", cmd.args);
        assert!(
            err.contains("held by another git process") && err.contains("index.lock"),
            "{:?}: {err}",
            cmd.args
        );
        assert_eq!(snapshot(t.path()), before, "{:?}: files changed", cmd.args);
        std::fs::remove_file(&lock).unwrap();
        assert_eq!(git(t.path(), &["rev-parse", "HEAD"]), head);
        // Once git is done, the same command goes through.
        let o = gsd(t.path(), cmd.args);
        assert_eq!(o.status.code(), Some(0), "{:?}: {}", cmd.args, stderr(&o));
    }
}

/// A CRLF file gets CRLF lines: every line gsd writes or inserts ends the
/// way the file's lines do.
#[test]
fn crlf_files_stay_crlf() {
    for cmd in CMDS {
        let t = repo();
        let file = t.path().join(".planning").join(cmd.touches);
        let lf = std::fs::read_to_string(&file)
            .unwrap()
            .replace("\r\n", "\n");
        std::fs::write(&file, lf.replace('\n', "\r\n")).unwrap();
        git(t.path(), &["commit", "-qam", "crlf", "--allow-empty"]);
        let o = gsd(t.path(), cmd.args);
        assert_eq!(o.status.code(), Some(0), "{:?}: {}", cmd.args, stderr(&o));
        if !file.exists() {
            continue; // renumbered away
        }
        let after = std::fs::read_to_string(&file).unwrap();
        assert_ne!(
            after,
            lf.replace('\n', "\r\n"),
            "{:?} changed nothing",
            cmd.args
        );
        assert!(
            !after.replace("\r\n", "").contains('\n'),
            "{:?} wrote a bare LF into a CRLF file: {after:?}",
            cmd.args
        );
        assert_eq!(git(t.path(), &["status", "--porcelain"]).trim(), "");
    }
}
