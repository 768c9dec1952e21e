//! Durable change: lock the planning folder, write files atomically, then
//! commit exactly the touched paths.
//!
//! Every write goes through [`transaction::Transaction`]: it takes the lock
//! before reading (so read-modify-write happens entirely inside it), refuses
//! what it must not touch, journals the change set, writes each file with
//! temp + fsync + rename, and commits once. Nothing here prints; the result
//! says what changed and whether it was committed.

pub mod atomic;
pub mod commit;
pub mod journal;
pub mod lock;
pub mod refuse;
pub mod transaction;

use std::path::PathBuf;

pub use commit::{CommitOutcome, CommitPolicy};
pub use lock::{LockError, PlanningLock};
pub use transaction::{ChangeSet, Recovery, Transaction};

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
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum StoreError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Lock(#[from] LockError),
    #[error("cannot write {path}: {source}")]
    #[diagnostic(code(gsd::store::write))]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error("the files are written but the commit failed: {0}")]
    #[diagnostic(transparent)]
    Commit(#[from] commit::CommitError),
    /// Refused before anything was written.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Refused(#[from] refuse::Refusal),
    /// An interrupted change's journal cannot be replayed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Journal(#[from] journal::JournalError),
}

/// What a stored change did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StoreOutcome {
    /// Paths relative to the project root.
    pub changed: Vec<String>,
    pub commit: CommitOutcome,
}
