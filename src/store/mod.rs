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
pub mod recover;
pub mod refuse;
pub mod relocate;
pub mod replay;
pub mod transaction;
pub mod workstream;

use std::path::PathBuf;

pub use commit::{CommitOutcome, CommitPolicy};
pub use lock::{LockError, PlanningLock};
pub use recover::Recovery;
pub use transaction::{ChangeSet, Transaction};

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
    #[error("the commit failed: {0}")]
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
    /// A step failed after files had changed, and they were all put back.
    #[error("{cause}; the change was undone (every file is as it was, nothing committed)")]
    #[diagnostic(
        code(gsd::store::rolled_back),
        help("fix the cause (space, permissions, git) and run the command again")
    )]
    RolledBack { cause: Box<StoreError> },
    /// A step failed and the change could not be undone either: it stays
    /// recorded for an explicit recovery.
    #[error("{cause}; the change could not be undone ({undo}): it is pending in {journal}")]
    #[diagnostic(
        code(gsd::store::pending),
        help(
            "once the cause is fixed, `gsd recover` finishes the change and `gsd recover --abandon` undoes it"
        )
    )]
    Pending {
        cause: Box<StoreError>,
        undo: String,
        journal: String,
    },
}

/// What a stored change did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StoreOutcome {
    /// Paths relative to the project root.
    pub changed: Vec<String>,
    pub commit: CommitOutcome,
}
