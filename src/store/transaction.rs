//! The one way gsd writes planning files.
//!
//! A [`Transaction`] holds the project lock from before the first read to
//! after the commit, so read-modify-write is never interleaved with another
//! gsd process. Applying a [`ChangeSet`] is, in order:
//!
//! 1. **refuse** the whole set before any byte moves ([`super::refuse`]:
//!    conflict markers, read-only files and folders — of every file written,
//!    renamed or deleted —, links leaving the repository, files changed
//!    since they were read, non-UTF-8, a file the user has edited and not
//!    committed, git's index or HEAD locked by another git process);
//! 2. **journal** every operation and what it replaces ([`super::journal`]);
//! 3. **apply**: deletes, moves, then writes (each temp + fsync + rename);
//! 4. **commit** exactly the touched paths ([`super::commit`]);
//! 5. **drop** the journal.
//!
//! A step of 3 or 4 that fails (a full disk, a folder that turned read-only,
//! git unable to write its objects) is **undone** before the command exits:
//! every file gets its old bytes back and the journal goes, and the error
//! says so. Only when undoing fails too does the journal stay, and the error
//! names it and the commands that finish or abandon it.
//!
//! A process *killed* in 3–5 leaves the journal. Nothing reads it silently:
//! the next write command (announcing it) or `gsd recover` finishes the
//! change, `gsd recover --abandon` undoes it ([`super::recover`]); a read
//! command leaves it alone and warns. Killed before 2 completes, nothing in
//! the tree changed (tests/crash.rs and tests/faults.rs).

use std::path::{Path, PathBuf};

use super::journal::{self, Content, Op, Record};
use super::recover::Recovery;
use super::replay::{self, Direction};
use super::{CommitOutcome, CommitPolicy, FileChange, PlanningLock, StoreError, StoreOutcome};

/// Everything one command wants changed, computed before anything is written.
#[derive(Debug, Clone, Default)]
pub struct ChangeSet {
    pub message: String,
    /// New contents (only those that differ from `before` are written).
    pub writes: Vec<FileChange>,
    /// Files renamed (absolute old, new), applied after `deletes`.
    pub moves: Vec<(PathBuf, PathBuf)>,
    /// Files removed first.
    pub deletes: Vec<PathBuf>,
}

impl ChangeSet {
    /// A change set of plain writes.
    pub fn writes(message: impl Into<String>, writes: Vec<FileChange>) -> ChangeSet {
        ChangeSet {
            message: message.into(),
            writes,
            ..ChangeSet::default()
        }
    }

    /// The writes that change bytes.
    pub fn real_writes(&self) -> impl Iterator<Item = &FileChange> {
        self.writes.iter().filter(|c| c.changed())
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.deletes.is_empty() && self.real_writes().next().is_none()
    }
}

/// The project lock, held while one change is computed and stored.
#[derive(Debug)]
pub struct Transaction {
    root: PathBuf,
    _lock: PlanningLock,
    /// An earlier interrupted change this one finished first.
    pub recovered: Option<Recovery>,
    /// Commit touched files even when they hold uncommitted edits of the
    /// user's (`--include-dirty`).
    include_dirty: bool,
}

impl Transaction {
    /// Take the project lock (waiting up to `GSD_LOCK_TIMEOUT_MS`) and
    /// finish any interrupted change first.
    pub fn begin(root: &Path) -> Result<Transaction, StoreError> {
        let lock = PlanningLock::acquire(root, super::lock::default_timeout())?;
        let recovered = super::recover::locked(root, Direction::Finish)?;
        Ok(Transaction {
            root: root.to_path_buf(),
            _lock: lock,
            recovered,
            include_dirty: false,
        })
    }

    /// Commit files with the user's own uncommitted edits along with the
    /// change (otherwise such a change is refused).
    pub fn include_dirty(mut self, yes: bool) -> Transaction {
        self.include_dirty = yes;
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Refuse, journal, apply and commit `set`; the lock is released after.
    pub fn apply(self, set: &ChangeSet, policy: CommitPolicy) -> Result<StoreOutcome, StoreError> {
        let root = &self.root;
        let real: Vec<&FileChange> = set.real_writes().collect();
        super::refuse::check(root, &real, &set.moves)?;
        super::refuse::check_renames(root, set)?;
        if set.is_empty() {
            return Ok(StoreOutcome {
                changed: Vec::new(),
                commit: CommitOutcome::NothingToCommit,
            });
        }
        let mut commit = policy == CommitPolicy::Commit;
        let mut head = None;
        let mut repo = None;
        if commit {
            match super::commit::repository_state(root) {
                super::commit::RepoState::None => commit = false,
                super::commit::RepoState::Locked(path) => {
                    return Err(super::refuse::Refusal::GitLocked {
                        path: path.display().to_string(),
                    }
                    .into());
                }
                super::commit::RepoState::Ready { repo: r, head: h } => {
                    if !self.include_dirty
                        && let Some(path) = super::commit::uncommitted(&r, root, &touched(set))
                    {
                        return Err(super::refuse::Refusal::Uncommitted { path }.into());
                    }
                    head = h;
                    repo = Some(r);
                }
            }
        }
        let record = Record {
            version: journal::VERSION,
            message: set.message.clone(),
            commit,
            policy,
            head,
            ops: ops_for(root, set, &real)?,
        };
        // A journal that cannot be written whole is emptied by `write`:
        // nothing has changed yet. One that cannot be emptied either stays,
        // and says so.
        if let Err(e) = journal::write(root, &record) {
            let cause = io(&journal::path(root), e);
            return Err(if journal::pending(root) {
                StoreError::Pending {
                    cause: Box::new(cause),
                    undo: "no file was changed, but the journal could not be emptied".into(),
                    journal: journal::FILE.into(),
                }
            } else {
                cause
            });
        }
        let mut kept = replay::Kept::default();
        if let Err(e) = replay::forward_keeping(root, &record, 0, Some(&mut kept)) {
            return Err(undo(root, &record, e, kept));
        }
        let commit = match commit_of(root, &record, false, repo.as_deref()) {
            Ok(c) => c,
            // The commit was made and only git's index lags: the change is
            // stored; `gsd recover` brings the index up to it.
            Err(e)
                if record.commit
                    && super::commit::made_after(root, record.head.as_deref(), &record.message)
                        .is_some() =>
            {
                kept.release();
                return Err(StoreError::Pending {
                    cause: Box::new(e),
                    undo: "the commit was made".into(),
                    journal: journal::FILE.into(),
                });
            }
            Err(e) => return Err(undo(root, &record, e, kept)),
        };
        kept.release();
        // The change is made and committed: a journal that cannot be
        // emptied now does not make it fail (a retry would make it twice).
        // Recovery finds its commit made and only clears it.
        let _ = journal::remove(root);
        Ok(StoreOutcome {
            changed: changed(&record),
            commit,
        })
    }
}

/// Every path `set` touches, as it is before the change.
fn touched(set: &ChangeSet) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = set.deletes.clone();
    out.extend(set.moves.iter().map(|(from, _)| from.clone()));
    out.extend(set.real_writes().map(|c| c.path.clone()));
    out
}

/// Take back what a failed change did, and say so in its error; when that
/// fails too, the journal stays and the error names it.
fn undo(root: &Path, record: &Record, cause: StoreError, mut kept: replay::Kept) -> StoreError {
    let undone = (|| -> Result<(), String> {
        let done = replay::progress(root, record)
            .map_err(|paths| {
                format!(
                    "{} hold(s) bytes the change did not write",
                    paths
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?
            .last;
        replay::check_writable(root, record, Direction::Undo, done)
            .map_err(|p| format!("{} is not writable", p.display()))?;
        replay::backward_keeping(root, record, done, Some(&mut kept)).map_err(|e| e.to_string())?;
        // Links of files the change never got to.
        std::mem::take(&mut kept).release();
        if matches!(
            &cause,
            StoreError::Commit(super::commit::CommitError::IndexAhead(_))
        ) {
            super::commit::reset_stale_index(root, &record.touched())
                .map_err(|e| format!("git's index could not be put back: {e}"))?;
        }
        journal::remove(root).map_err(|e| format!("cannot empty {}: {e}", journal::FILE))
    })();
    match undone {
        Ok(()) => StoreError::RolledBack {
            cause: Box::new(cause),
        },
        Err(undo) => StoreError::Pending {
            cause: Box::new(cause),
            undo,
            journal: journal::FILE.into(),
        },
    }
}

fn io(path: &Path, source: std::io::Error) -> StoreError {
    StoreError::Write {
        path: path.display().to_string(),
        source,
    }
}

/// The journal's operations for `set`, with paths relative to `root`:
/// deletes with the bytes and mode they remove, moves with the blob they
/// expect, writes through links to their targets with the text they replace.
fn ops_for(root: &Path, set: &ChangeSet, real: &[&FileChange]) -> Result<Vec<Op>, StoreError> {
    use std::os::unix::fs::PermissionsExt;
    let rel = |p: &Path| journal::relative(root, p);
    let mut ops = Vec::with_capacity(set.deletes.len() + set.moves.len() + real.len());
    for d in &set.deletes {
        let old = std::fs::read(d).map_err(|e| io(d, e))?;
        let mode = std::fs::metadata(d)
            .map_err(|e| io(d, e))?
            .permissions()
            .mode();
        ops.push(Op::Delete {
            path: rel(d),
            old: Content::of(&old),
            mode,
        });
    }
    for (from, to) in &set.moves {
        let bytes = std::fs::read(from).map_err(|e| io(from, e))?;
        ops.push(Op::Move {
            from: rel(from),
            to: rel(to),
            blob: journal::blob_id(&bytes),
        });
    }
    let text = |path: &Path, bytes: &[u8]| {
        String::from_utf8(bytes.to_vec()).map_err(|_| {
            io(
                path,
                std::io::Error::new(std::io::ErrorKind::InvalidData, "the content is not UTF-8"),
            )
        })
    };
    for c in real {
        ops.push(Op::Write {
            path: rel(&super::refuse::write_target(&c.path)),
            old: c.before.as_deref().map(|b| text(&c.path, b)).transpose()?,
            text: text(&c.path, &c.after)?,
        });
    }
    Ok(ops)
}

/// The touched paths, relative to the root, for the outcome.
pub(super) fn changed(record: &Record) -> Vec<String> {
    record
        .touched()
        .iter()
        .map(|p| p.display().to_string())
        .collect()
}

/// Commit what `record` touched (unless the commit was made before a crash:
/// then only git's index is brought up to it).
pub(super) fn commit_of(
    root: &Path,
    record: &Record,
    recovering: bool,
    repo: Option<&git2::Repository>,
) -> Result<CommitOutcome, StoreError> {
    let rel = record.touched();
    Ok(if !record.commit {
        match record.policy {
            CommitPolicy::Skip => CommitOutcome::NoCommitFlag,
            CommitPolicy::DocsNotCommitted => CommitOutcome::CommitDocsFalse,
            CommitPolicy::Commit => CommitOutcome::NotARepository,
        }
    } else if let Some(id) = recovering
        .then(|| super::commit::made_after(root, record.head.as_deref(), &record.message))
        .flatten()
    {
        super::commit::refresh_index(root, &rel)?;
        CommitOutcome::Committed { id, signed: false }
    } else if let Some(repo) = repo {
        super::commit::commit_in(repo, root, &rel, &record.message)?
    } else {
        super::commit::commit_paths(root, &rel, &record.message, CommitPolicy::Commit)?
    })
}
