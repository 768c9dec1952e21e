//! What the store refuses before it writes a single byte: a change set is
//! checked whole, so a refusal leaves every file as it was.
//!
//! - **Merge-conflict markers** in a file about to be rewritten: which side
//!   is real is the user's call (gsd would otherwise splice into one side
//!   and commit the markers).
//! - **A read-only file**: the atomic rename would replace it regardless of
//!   its mode, silently defeating the user's protection.
//! - **A symbolic link that leaves the repository**: writing through it
//!   edits a file the commit cannot hold; replacing it would turn the link
//!   into a copy (mode 120000 → 100644). A link inside the repository is
//!   written through, and stays a link.
//! - **A file changed on disk since it was read**: another editor wrote it
//!   between gsd's read and gsd's write; splicing into stale bytes loses
//!   their edit.
//! - **A file that is not UTF-8**: every edit is computed on text, so the
//!   bytes that do not decode would be lost.
//! - **git's index or HEAD locked** (`.git/index.lock`, a ref's `.lock`)
//!   when the change is to be committed: the files would be written and the
//!   commit would then fail, leaving the change half-stored.

use std::path::{Path, PathBuf};

use super::FileChange;

/// Why a change set was refused (nothing was written).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[diagnostic(code(gsd::store::refused), help("{}", self.hint()))]
pub enum Refusal {
    #[error("{path} has unresolved merge-conflict markers (line {line})")]
    ConflictMarkers { path: String, line: usize },
    #[error("{path} is read-only")]
    ReadOnly { path: String },
    #[error("{path} is a link to {target}, outside the repository")]
    LinkLeavesRepository { path: String, target: String },
    #[error("{path} changed on disk while gsd was editing it")]
    ChangedSinceRead { path: String },
    #[error("{path} is not valid UTF-8")]
    NotUtf8 { path: String },
    #[error("git is busy: {path} is held by another git process")]
    GitLocked { path: String },
}

impl Refusal {
    pub fn hint(&self) -> &'static str {
        match self {
            Refusal::ConflictMarkers { .. } => {
                "resolve the conflict first; gsd will not guess which side is right"
            }
            Refusal::ReadOnly { .. } => "make it writable (chmod u+w) if it should change",
            Refusal::LinkLeavesRepository { .. } => {
                "edit the file it points at there, or replace the link with the file"
            }
            Refusal::ChangedSinceRead { .. } => "run the command again on the new content",
            Refusal::NotUtf8 { .. } => {
                "gsd edits text; convert the file to UTF-8 (its other bytes would be lost)"
            }
            Refusal::GitLocked { .. } => {
                "wait for that git command to finish; if none is running, a crashed one left the lock: remove the file"
            }
        }
    }
}

/// Check every change that will be written. `root` is the repository's
/// work tree (or the project root outside git).
pub fn check(root: &Path, changes: &[&FileChange]) -> Result<(), Refusal> {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    for c in changes {
        let path = c.path.display().to_string();
        if let Some(before) = &c.before {
            if std::str::from_utf8(before).is_err() {
                return Err(Refusal::NotUtf8 { path });
            }
            if let Some(line) = crate::doc::conflict::first_conflict_line(before) {
                return Err(Refusal::ConflictMarkers { path, line });
            }
            // What is on disk now must be what the change was made from.
            match std::fs::read(&c.path) {
                Ok(now) if &now != before => return Err(Refusal::ChangedSinceRead { path }),
                _ => {}
            }
        }
        let Ok(meta) = std::fs::symlink_metadata(&c.path) else {
            continue; // a new file
        };
        if meta.file_type().is_symlink() {
            let target = std::fs::canonicalize(&c.path).unwrap_or_else(|_| c.path.clone());
            if !target.starts_with(&root) {
                return Err(Refusal::LinkLeavesRepository {
                    path,
                    target: target.display().to_string(),
                });
            }
        }
        let meta = std::fs::metadata(&c.path).unwrap_or(meta);
        if meta.permissions().readonly() {
            return Err(Refusal::ReadOnly { path });
        }
    }
    Ok(())
}

/// Where to write `path`: through a symbolic link to its target, so the
/// link stays a link.
pub fn write_target(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}
