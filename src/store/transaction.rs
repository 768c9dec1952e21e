//! The one way gsd writes planning files.
//!
//! A [`Transaction`] holds the project lock from before the first read to
//! after the commit, so read-modify-write is never interleaved with another
//! gsd process. Applying a [`ChangeSet`] is, in order:
//!
//! 1. **refuse** the whole set before any byte moves ([`super::refuse`]:
//!    conflict markers, read-only files, links leaving the repository,
//!    files changed since they were read, non-UTF-8, git's index or HEAD
//!    locked by another git process);
//! 2. **journal** every operation durably ([`super::journal`]);
//! 3. **apply**: deletes, moves, then writes (each temp + fsync + rename);
//! 4. **commit** exactly the touched paths ([`super::commit`]);
//! 5. **drop** the journal.
//!
//! A process killed anywhere in 3–5 leaves the journal behind, and the next
//! gsd command (any command, read or write: [`recover_pending`]) replays it
//! to the end and commits before it does anything else. Killed before 2
//! completes, nothing in the tree changed. So after the next command the tree
//! is exactly the old commit or exactly the new one (tests/crash.rs kills
//! four write commands at random moments and checks both).

use std::path::{Path, PathBuf};

use super::journal::{self, Op, Record};
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

/// An interrupted change that gsd finished before running this command.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Recovery {
    /// The interrupted change's commit message.
    pub message: String,
    /// Paths it touched, relative to the project root.
    pub files: usize,
    pub commit: CommitOutcome,
}

impl Recovery {
    /// One line for stderr.
    pub fn describe(&self) -> String {
        format!(
            "finished an interrupted change ({} file(s): \"{}\"): {}",
            self.files,
            self.message,
            self.commit.describe()
        )
    }
}

/// The project lock, held while one change is computed and stored.
#[derive(Debug)]
pub struct Transaction {
    root: PathBuf,
    _lock: PlanningLock,
    /// An earlier interrupted change this one finished first.
    pub recovered: Option<Recovery>,
}

impl Transaction {
    /// Take the project lock (waiting up to `GSD_LOCK_TIMEOUT_MS`) and
    /// finish any interrupted change first.
    pub fn begin(root: &Path) -> Result<Transaction, StoreError> {
        let lock = PlanningLock::acquire(root, super::lock::default_timeout())?;
        let recovered = recover_locked(root)?;
        Ok(Transaction {
            root: root.to_path_buf(),
            _lock: lock,
            recovered,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Refuse, journal, apply and commit `set`; the lock is released after.
    pub fn apply(self, set: &ChangeSet, policy: CommitPolicy) -> Result<StoreOutcome, StoreError> {
        let root = &self.root;
        let real: Vec<&FileChange> = set.real_writes().collect();
        super::refuse::check(root, &real)?;
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
                    head = h;
                    repo = Some(r);
                }
            }
        }
        let record = Record {
            version: 1,
            message: set.message.clone(),
            commit,
            policy,
            head,
            ops: ops_for(set, &real)?,
        };
        journal::write(root, &record).map_err(|e| io(&journal::path(root), e))?;
        replay(&record, false)?;
        finish(root, &record, false, repo.as_deref())
    }
}

fn io(path: &Path, source: std::io::Error) -> StoreError {
    StoreError::Write {
        path: path.display().to_string(),
        source,
    }
}

/// The journal's operations for `set`: deletes and moves with the blob they
/// expect, writes through links to their targets.
fn ops_for(set: &ChangeSet, real: &[&FileChange]) -> Result<Vec<Op>, StoreError> {
    let blob = |p: &Path| {
        std::fs::read(p)
            .map(|b| journal::blob_id(&b))
            .map_err(|e| io(p, e))
    };
    let mut ops = Vec::with_capacity(set.deletes.len() + set.moves.len() + real.len());
    for d in &set.deletes {
        ops.push(Op::Delete {
            path: d.clone(),
            blob: blob(d)?,
        });
    }
    for (from, to) in &set.moves {
        ops.push(Op::Move {
            from: from.clone(),
            to: to.clone(),
            blob: blob(from)?,
        });
    }
    for c in real {
        let text = String::from_utf8(c.after.clone()).map_err(|_| {
            io(
                &c.path,
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "the new content is not UTF-8",
                ),
            )
        })?;
        ops.push(Op::Write {
            path: super::refuse::write_target(&c.path),
            before: c.before.as_deref().map(journal::blob_id),
            text,
        });
    }
    Ok(ops)
}

/// Apply `record`'s operations. `checked`: a replay after a crash, where
/// each delete and move runs only while its path holds the expected blob
/// (it may already have run, and its path may hold another file by now).
fn replay(record: &Record, checked: bool) -> Result<(), StoreError> {
    let holds = |p: &Path, blob: &str| {
        !checked || std::fs::read(p).is_ok_and(|b| journal::blob_id(&b) == blob)
    };
    for op in &record.ops {
        match op {
            Op::Delete { path, blob } => {
                if holds(path, blob) {
                    match std::fs::remove_file(path) {
                        Err(e) if !(checked && e.kind() == std::io::ErrorKind::NotFound) => {
                            return Err(io(path, e));
                        }
                        _ => {}
                    }
                }
            }
            Op::Move { from, to, blob } => {
                if holds(from, blob) {
                    if let Some(parent) = to.parent() {
                        std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
                    }
                    std::fs::rename(from, to).map_err(|e| io(from, e))?;
                }
            }
            Op::Write { path, before, text } => {
                if checked {
                    let now = std::fs::read(path).ok().map(|b| journal::blob_id(&b));
                    if now.as_deref() == Some(journal::blob_id(text.as_bytes()).as_str()) {
                        continue; // written before the crash
                    }
                    if now != *before {
                        return Err(journal::JournalError::Diverged {
                            path: path.display().to_string(),
                        }
                        .into());
                    }
                }
                super::atomic::write(path, text.as_bytes()).map_err(|e| io(path, e))?;
            }
        }
    }
    // Folders left empty by deletes and moves go too, but not the tree's
    // own: `.planning` and a `phases` folder stay, even empty (removing the
    // only phase keeps `phases/`, as gsd-sdk does); only the folders that
    // held the files are cleaned up.
    let structural = |d: &Path| {
        d.file_name()
            .is_some_and(|n| n == ".planning" || n == "phases")
    };
    for op in &record.ops {
        let gone = match op {
            Op::Delete { path, .. } => path,
            Op::Move { from, .. } => from,
            Op::Write { .. } => continue,
        };
        let mut dir = gone.parent();
        while let Some(d) = dir {
            if structural(d) || std::fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }
    Ok(())
}

/// Commit what `record` touched (unless the commit was made before a crash:
/// then only git's index is brought up to it), and drop the journal.
fn finish(
    root: &Path,
    record: &Record,
    recovering: bool,
    repo: Option<&git2::Repository>,
) -> Result<StoreOutcome, StoreError> {
    let touched = record.touched();
    let rel: Vec<PathBuf> = touched
        .iter()
        .map(|p| p.strip_prefix(root).unwrap_or(p).to_path_buf())
        .collect();
    let commit = if !record.commit {
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
    };
    journal::remove(root).map_err(|e| io(&journal::path(root), e))?;
    Ok(StoreOutcome {
        changed: rel.iter().map(|p| p.display().to_string()).collect(),
        commit,
    })
}

/// Finish an interrupted change, if the project at `root` has one. Cheap
/// when there is none (one `stat` and one small folder read); takes the
/// project lock only when there is something to do.
pub fn recover_pending(root: &Path) -> Result<Option<Recovery>, StoreError> {
    let gsd = root.join(".gsd");
    // A process killed while making `.gsd/` may have left it without its
    // .gitignore (and so visible to git).
    if gsd.is_dir() && !gsd.join(".gitignore").exists() {
        super::lock::ensure_gsd_dir(root).map_err(|e| io(&gsd, e))?;
    }
    if !journal::pending(root) && stray_temps(&gsd).is_empty() {
        return Ok(None);
    }
    let _lock = PlanningLock::acquire(root, super::lock::default_timeout())?;
    recover_locked(root)
}

/// `recover_pending` with the lock already held.
fn recover_locked(root: &Path) -> Result<Option<Recovery>, StoreError> {
    // Temp files in .gsd/ belong to no live change (the lock is held).
    for t in stray_temps(&root.join(".gsd")) {
        let _ = std::fs::remove_file(t);
    }
    let started = std::fs::metadata(journal::path(root))
        .and_then(|m| m.modified())
        .ok();
    let record = match journal::read(root) {
        Ok(Some(r)) => r,
        Ok(None) => return Ok(None),
        Err(e) => return Err(StoreError::Journal(e)),
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
    let committed = record.commit
        && super::commit::made_after(root, record.head.as_deref(), &record.message).is_some();
    if !committed {
        replay(&record, true)?;
    }
    // A killed atomic write leaves its temp file beside its target.
    let dirs: std::collections::BTreeSet<&Path> = record.touched_dirs().into_iter().collect();
    for d in dirs {
        for t in stray_temps(d) {
            let _ = std::fs::remove_file(t);
        }
    }
    let out = finish(root, &record, true, None)?;
    Ok(Some(Recovery {
        message: record.message.clone(),
        files: out.changed.len(),
        commit: out.commit,
    }))
}

impl Record {
    /// The folders of every touched path (where temp files may be left).
    fn touched_dirs(&self) -> Vec<&Path> {
        self.ops
            .iter()
            .flat_map(|op| match op {
                Op::Delete { path, .. } | Op::Write { path, .. } => vec![path.as_path()],
                Op::Move { from, to, .. } => vec![from.as_path(), to.as_path()],
            })
            .filter_map(Path::parent)
            .collect()
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
