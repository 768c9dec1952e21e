//! The commands gsd answers itself, grouped by what they touch. Each is a
//! [`super::registry::Handler`]: a resolved call in, a reply or a
//! classified error out.

pub mod audit;
pub mod commit;
pub mod config;
pub mod fm;
pub mod init;
pub mod init_overview;
pub mod init_phase;
pub mod init_project;
pub mod init_tasks;
pub mod intel;
pub mod listing;
pub mod mvp;
pub mod phase_edit;
pub mod phase_find;
pub mod phases;
pub mod plans;
pub mod requirements;
pub mod roadmap;
pub mod runtime;
pub mod snapshot;
pub mod state;
pub mod state_position;
pub mod stats;
pub mod summary;
pub mod task_structure;
pub mod text;
pub mod triage;
pub mod uat;
pub mod verify;

use crate::model::workspace::Scope;
use crate::ops::{self, Applied, Change, OpError, WriteOptions};

use super::{Call, SdkError};

/// The names in a folder, sorted by bytes: what Node's `readdir` gives
/// (libuv sorts its scandir), so "the first file that ends with …" is the
/// same file gsd-sdk picks. A missing folder lists nothing.
pub fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Run a write use case the way gsd-sdk's writes behave: written through
/// the transaction (lock, refusals, atomic rename), not committed — the
/// workflow's next `commit` call names the files it commits. Returns the
/// paths that changed.
pub fn write(
    call: &Call,
    plan: impl FnOnce(&crate::model::Workspace) -> Result<Change, OpError>,
) -> Result<Vec<String>, SdkError> {
    store(call, plan).map_err(op_error)
}

/// `write` with the use case's own error, for handlers that answer some
/// errors (a field STATE.md lacks) as data.
pub fn store(
    call: &Call,
    plan: impl FnOnce(&crate::model::Workspace) -> Result<Change, OpError>,
) -> Result<Vec<String>, OpError> {
    let opts = WriteOptions {
        dry_run: false,
        no_commit: true,
        include_dirty: false,
    };
    let outcome = ops::run_at(call.project, opts, Scope::Index, plan)?;
    Ok(match outcome.applied {
        Applied::Stored { outcome, .. } => outcome.changed,
        Applied::DryRun { files, .. } => files,
    })
}

/// A use case's error as gsd-sdk would classify it, with gsd's message.
pub fn op_error(e: OpError) -> SdkError {
    let message = match &e {
        OpError::Invalid {
            message,
            help: Some(h),
        } => format!("{message} ({h})"),
        _ => e.to_string(),
    };
    match e {
        OpError::Invalid { .. } => SdkError::validation(message),
        _ => SdkError::execution(message),
    }
}
