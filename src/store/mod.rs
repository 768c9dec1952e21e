//! Durable change: lock the planning folder, write files atomically, then
//! commit exactly the touched paths.
//!
//! Every write command goes through `Transaction`: it takes the lock before
//! reading (so read-modify-write happens entirely inside it), applies edits
//! to files, writes each with temp + fsync + rename, and commits once. Nothing
//! here prints; the result says what changed and whether it was committed.

pub mod atomic;
pub mod commit;
pub mod lock;
pub mod refuse;

use std::path::{Path, PathBuf};

pub use commit::{CommitOutcome, CommitPolicy};
pub use lock::{LockError, PlanningLock};

/// One file's new content.
#[derive(Debug, Clone)]
pub struct FileChange {
    /// Absolute path.
    pub path: PathBuf,
    pub before: Option<Vec<u8>>,
    pub after: Vec<u8>,
}

impl FileChange {
    pub fn changed(&self) -> bool {
        self.before.as_deref() != Some(self.after.as_slice())
    }
}

/// Why a change could not be stored.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error("git commit failed: {0}")]
    Commit(String),
    /// Refused before anything was written.
    #[error(transparent)]
    Refused(#[from] refuse::Refusal),
}

/// What a stored change did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StoreOutcome {
    /// Paths relative to the project root.
    pub changed: Vec<String>,
    pub commit: CommitOutcome,
}

/// Write `changes` atomically (only those that differ) and commit them.
/// The caller must hold the planning lock.
pub fn write_and_commit(
    root: &Path,
    changes: &[FileChange],
    message: &str,
    policy: CommitPolicy,
) -> Result<StoreOutcome, StoreError> {
    let real: Vec<&FileChange> = changes.iter().filter(|c| c.changed()).collect();
    refuse::check(root, &real)?;
    let mut touched: Vec<PathBuf> = Vec::new();
    for c in &real {
        // Through a link to its target: the link stays a link, and the
        // commit records the file that changed.
        let target = refuse::write_target(&c.path);
        atomic::write(&target, &c.after).map_err(|source| StoreError::Write {
            path: c.path.display().to_string(),
            source,
        })?;
        touched.push(target);
    }
    commit_touched(root, &touched, message, policy)
}

/// Commit `touched` (absolute paths) and say what was stored.
fn commit_touched(
    root: &Path,
    touched: &[PathBuf],
    message: &str,
    policy: CommitPolicy,
) -> Result<StoreOutcome, StoreError> {
    let rel: Vec<PathBuf> = touched
        .iter()
        .map(|p| p.strip_prefix(root).unwrap_or(p).to_path_buf())
        .collect();
    let commit = if rel.is_empty() {
        CommitOutcome::NothingToCommit
    } else {
        commit::commit_paths(root, &rel, message, policy).map_err(StoreError::Commit)?
    };
    Ok(StoreOutcome {
        changed: rel.iter().map(|p| p.display().to_string()).collect(),
        commit,
    })
}

/// Move and delete files, write `changes`, then commit every touched path
/// (moved-from and deleted paths included, so git records the rename).
/// Used by `phase remove`; the caller holds the planning lock.
pub fn restructure_and_commit(
    root: &Path,
    moves: &[(PathBuf, PathBuf)],
    deletes: &[PathBuf],
    changes: &[FileChange],
    message: &str,
    policy: CommitPolicy,
) -> Result<StoreOutcome, StoreError> {
    let io = |path: &Path, source: std::io::Error| StoreError::Write {
        path: path.display().to_string(),
        source,
    };
    let real: Vec<&FileChange> = changes.iter().filter(|c| c.changed()).collect();
    refuse::check(root, &real)?;
    let mut touched: Vec<PathBuf> = Vec::new();
    for d in deletes {
        std::fs::remove_file(d).map_err(|e| io(d, e))?;
        touched.push(d.clone());
    }
    for (from, to) in moves {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        std::fs::rename(from, to).map_err(|e| io(from, e))?;
        touched.push(from.clone());
        touched.push(to.clone());
    }
    // Folders left empty by the moves go too.
    for p in deletes.iter().chain(moves.iter().map(|(f, _)| f)) {
        let mut dir = p.parent();
        while let Some(d) = dir {
            if d == root || std::fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }
    for c in real {
        let target = refuse::write_target(&c.path);
        atomic::write(&target, &c.after).map_err(|e| io(&c.path, e))?;
        touched.push(target);
    }
    touched.sort();
    touched.dedup();
    commit_touched(root, &touched, message, policy)
}
