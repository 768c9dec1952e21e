//! An interrupted change (a journal a killed process left) is dealt with
//! only by an explicit, announced step: `gsd recover`, or the start of a
//! write command, finishes it; `gsd recover --abandon` undoes it. A read
//! command only [`inspect`]s: it never moves a file of another command's
//! change (it clears a torn journal, whose change never started, and
//! warns about a pending one).
//!
//! Either way every precondition is checked before the first byte moves
//! ([`super::replay`]): the files must be in a state the change passed
//! through, and every path the remaining work changes must be writable.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::journal::{self, Journal, JournalError, Record};
use super::replay::{self, Direction};
use super::{CommitOutcome, PlanningLock, StoreError};

/// What recovery did.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Recovery {
    /// The change was run to its end and committed as it would have been.
    Finished {
        message: String,
        files: usize,
        commit: CommitOutcome,
    },
    /// Every file got its old bytes back.
    Undone { message: String, files: usize },
    /// A change that was already committed (its process died, or its disk
    /// failed, after the commit): only git's index was brought up to it
    /// and the journal cleared (`git revert` takes the commit back).
    AlreadyCommitted { message: String, id: String },
    /// `--abandon` where files were edited since: the journal was dropped,
    /// these files left as they are.
    Dropped { message: String, paths: Vec<String> },
    /// A journal cut short while being written (its change never started)
    /// was cleared.
    ClearedTorn,
    /// `--abandon` on a journal gsd cannot read: it was dropped, no other
    /// file touched.
    DroppedUnreadable { why: String },
}

impl Recovery {
    /// One line for stderr.
    pub fn describe(&self) -> String {
        match self {
            Recovery::Finished {
                message,
                files,
                commit,
            } => format!(
                "finished an interrupted change ({files} file(s): \"{message}\"): {}",
                commit.describe()
            ),
            Recovery::Undone { message, files } => format!(
                "undid an interrupted change ({files} file(s): \"{message}\"): every file is as it was before it"
            ),
            Recovery::AlreadyCommitted { message, id } => format!(
                "the interrupted change \"{message}\" was already committed as {}; its journal is cleared (`git revert {}` takes it back)",
                &id[..id.len().min(7)],
                &id[..id.len().min(7)]
            ),
            Recovery::Dropped { message, paths } => format!(
                "dropped the journal of the interrupted change \"{message}\"; files edited since were left as they are: {} (see `git status`)",
                paths.join(", ")
            ),
            Recovery::DroppedUnreadable { why } => {
                format!("dropped {why}; no other file was touched (see `git status`)")
            }
            Recovery::ClearedTorn => format!(
                "cleared {}: it was cut short while being written (killed or disk full), before its change started",
                journal::FILE
            ),
        }
    }
}

/// Finish (`Direction::Finish`) or undo (`Direction::Undo`) the project's
/// interrupted change, if it has one, under the project lock.
pub fn recover(root: &Path, direction: Direction) -> Result<Option<Recovery>, StoreError> {
    let _lock = PlanningLock::acquire(root, super::lock::default_timeout())?;
    locked(root, direction)
}

/// `recover` with the lock already held.
pub(super) fn locked(root: &Path, direction: Direction) -> Result<Option<Recovery>, StoreError> {
    // Temp files in .gsd/ belong to no live change (the lock is held).
    for t in stray_temps(&root.join(".gsd")) {
        let _ = std::fs::remove_file(t);
    }
    let started = std::fs::metadata(journal::path(root))
        .and_then(|m| m.modified())
        .ok();
    let read = match journal::read(root) {
        // Not a journal this gsd can read (another version's, a foreign
        // file): `--abandon` drops it, touching no other file.
        Err(e @ JournalError::Unreadable { .. }) if direction == Direction::Undo => {
            journal::remove(root).map_err(|e| io(&journal::path(root), e))?;
            return Ok(Some(Recovery::DroppedUnreadable { why: e.to_string() }));
        }
        r => r?,
    };
    let record = match read {
        Journal::None => return Ok(None),
        Journal::Torn => {
            journal::remove(root).map_err(|e| io(&journal::path(root), e))?;
            return Ok(Some(Recovery::ClearedTorn));
        }
        Journal::Pending(r) => r,
    };
    if record.commit
        && let Some(started) = started
    {
        // git's own lock files that the killed process created while
        // committing (after its journal): nobody else can hold them.
        super::commit::remove_locks_since(root, started);
    }
    // A change whose commit was made is complete on disk: replaying it
    // could only overwrite what was edited since.
    let committed = record
        .commit
        .then(|| super::commit::made_after(root, record.head.as_deref(), &record.message))
        .flatten();
    let done = if committed.is_some() {
        None
    } else {
        Some(replay::progress(root, &record))
    };
    // A killed (or failed) atomic write leaves its temp file beside its
    // target: gone first, so that a folder the change made is empty when
    // undoing removes it.
    let dirs: std::collections::BTreeSet<PathBuf> = record
        .touched()
        .iter()
        .filter_map(|p| root.join(p).parent().map(Path::to_path_buf))
        .collect();
    for d in dirs {
        for t in stray_temps(&d) {
            let _ = std::fs::remove_file(t);
        }
    }
    let recovery = match (direction, done) {
        (Direction::Finish, Some(Err(paths))) => return Err(diverged(&record, &paths).into()),
        (Direction::Finish, Some(Ok(p))) => {
            check(root, &record, Direction::Finish, p.last)?;
            replay::forward(root, &record, p.last)?;
            finished(root, &record)?
        }
        (_, None) => {
            let id = super::transaction::commit_of(root, &record, true, None)?
                .id()
                .unwrap_or_default()
                .to_owned();
            Recovery::AlreadyCommitted {
                message: record.message.clone(),
                id,
            }
        }
        (Direction::Undo, Some(Ok(p))) => {
            check(root, &record, Direction::Undo, p.first)?;
            replay::backward(root, &record, p.first)?;
            if record.commit {
                super::commit::reset_stale_index(root, &record.touched())?;
            }
            Recovery::Undone {
                message: record.message.clone(),
                files: record.touched().len(),
            }
        }
        (Direction::Undo, Some(Err(paths))) => Recovery::Dropped {
            message: record.message.clone(),
            paths: paths.iter().map(|p| p.display().to_string()).collect(),
        },
    };
    journal::remove(root).map_err(|e| io(&journal::path(root), e))?;
    Ok(Some(recovery))
}

/// Commit a change whose files are all written.
fn finished(root: &Path, record: &Record) -> Result<Recovery, StoreError> {
    let commit = super::transaction::commit_of(root, record, true, None)?;
    Ok(Recovery::Finished {
        message: record.message.clone(),
        files: record.touched().len(),
        commit,
    })
}

fn check(
    root: &Path,
    record: &Record,
    direction: Direction,
    done: usize,
) -> Result<(), JournalError> {
    replay::check_writable(root, record, direction, done).map_err(|path| {
        JournalError::NotWritable {
            message: record.message.clone(),
            doing: match direction {
                Direction::Finish => "finished",
                Direction::Undo => "undone",
            },
            path: path.display().to_string(),
        }
    })
}

fn diverged(record: &Record, paths: &[PathBuf]) -> JournalError {
    JournalError::Diverged {
        message: record.message.clone(),
        paths: paths.iter().map(|p| p.display().to_string()).collect(),
    }
}

fn io(path: &Path, source: std::io::Error) -> StoreError {
    StoreError::Write {
        path: path.display().to_string(),
        source,
    }
}

/// What a command that only reads learns about an interrupted change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inspected {
    /// No journal, or another gsd process is working (its own journal).
    Nothing,
    /// A torn journal was cleared (its change never started).
    ClearedTorn,
    /// A change is pending: its commit message.
    Pending(String),
    /// The journal cannot be read: why.
    Unreadable(String),
}

/// Look at the journal without acting on its change: cheap when there is
/// none (one `stat`); silent while another gsd process holds the lock
/// (its journal is its own, live).
pub fn inspect(root: &Path) -> Inspected {
    let gsd = root.join(".gsd");
    // A process killed while making `.gsd/` may have left it without its
    // .gitignore (and so visible to git).
    if gsd.is_dir() && !gsd.join(".gitignore").exists() {
        let _ = super::lock::ensure_gsd_dir(root);
    }
    if !journal::pending(root) {
        return Inspected::Nothing;
    }
    let Ok(_lock) = PlanningLock::acquire(root, Duration::ZERO) else {
        return Inspected::Nothing;
    };
    match journal::read(root) {
        Ok(Journal::None) => Inspected::Nothing,
        Ok(Journal::Torn) => match journal::remove(root) {
            Ok(()) => Inspected::ClearedTorn,
            Err(e) => Inspected::Unreadable(format!("cannot clear a torn {}: {e}", journal::FILE)),
        },
        Ok(Journal::Pending(r)) => Inspected::Pending(r.message),
        Err(e) => Inspected::Unreadable(e.to_string()),
    }
}

/// gsd's temp files (`.gsd-tmp-*`) in `dir`.
fn stray_temps(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    rd.flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(super::atomic::TEMP_PREFIX))
        })
        .map(|e| e.path())
        .collect()
}
