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
//! - **A read-only folder** where a file is written, renamed or removed
//!   (mode without write bits, or not writable by this process): the
//!   change would fail half-way.
//! - **A renamed or deleted file** gets the same checks as a written one
//!   (`phase remove` renames later phases' plans and rewrites them: a
//!   read-only plan is refused, not renamed), and a rename never replaces
//!   a file that is not itself moved away first.
//! - **A file with the user's own uncommitted edits** when the change is to
//!   be committed: the commit would carry their edit with gsd's
//!   ([`super::commit::uncommitted`]; `--include-dirty` commits both).
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
    #[error("the folder {path} is read-only")]
    FolderReadOnly { path: String },
    #[error("{path} has uncommitted changes of yours")]
    Uncommitted { path: String },
    #[error("renaming {from} would replace {to}")]
    WouldReplace { from: String, to: String },
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
            Refusal::FolderReadOnly { .. } => {
                "make it writable (chmod u+w) if the change should go ahead"
            }
            Refusal::Uncommitted { .. } => {
                "commit or stash your edit first (gsd commits the files it changes); or pass --include-dirty to commit it with this change, or --no-commit to write without committing"
            }
            Refusal::WouldReplace { .. } => {
                "move or remove that file first; gsd does not overwrite a file it did not read"
            }
            Refusal::GitLocked { .. } => {
                "wait for that git command to finish; if none is running, a crashed one left the lock: remove the file"
            }
        }
    }
}

/// Check every change that will be written. `root` is the repository's
/// work tree (or the project root outside git); `moves` are the change's
/// renames: a write to a renamed file's new path is checked on the file it
/// renames (which holds what the change read).
pub fn check(
    root: &Path,
    changes: &[&FileChange],
    moves: &[(PathBuf, PathBuf)],
) -> Result<(), Refusal> {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    for c in changes {
        let source = moves
            .iter()
            .find(|(_, to)| *to == c.path)
            .map_or(c.path.as_path(), |(from, _)| from.as_path());
        let path = source.display().to_string();
        if let Some(before) = &c.before {
            if std::str::from_utf8(before).is_err() {
                return Err(Refusal::NotUtf8 { path });
            }
            if let Some(line) = crate::doc::conflict::first_conflict_line(before) {
                return Err(Refusal::ConflictMarkers { path, line });
            }
            // What is on disk now must be what the change was made from.
            match std::fs::read(source) {
                Ok(now) if &now != before => return Err(Refusal::ChangedSinceRead { path }),
                _ => {}
            }
        }
        existing(&root, source)?;
        folder_of(&write_target(source))?;
    }
    Ok(())
}

/// Check the files a change renames or deletes, as written files are
/// checked (mode, links, conflict markers), their folders and the rename
/// targets' folders, and that no rename lands on a file still there.
pub fn check_renames(root: &Path, set: &super::ChangeSet) -> Result<(), Refusal> {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let sources = set
        .deletes
        .iter()
        .chain(set.moves.iter().map(|(from, _)| from));
    for p in sources {
        existing(&root, p)?;
        folder_of(p)?;
        if let Ok(bytes) = std::fs::read(p)
            && let Some(line) = crate::doc::conflict::first_conflict_line(&bytes)
        {
            return Err(Refusal::ConflictMarkers {
                path: p.display().to_string(),
                line,
            });
        }
    }
    // Deletes run first, then the moves in order: a target is free when
    // nothing is there, or what is there has been deleted or moved away.
    let mut freed: std::collections::HashSet<&Path> =
        set.deletes.iter().map(PathBuf::as_path).collect();
    for (from, to) in &set.moves {
        freed.insert(from.as_path());
        if std::fs::symlink_metadata(to).is_ok() && !freed.contains(to.as_path()) {
            return Err(Refusal::WouldReplace {
                from: from.display().to_string(),
                to: to.display().to_string(),
            });
        }
        freed.remove(to.as_path());
        folder_of(to)?;
    }
    Ok(())
}

/// An existing file's own refusals: a link leaving the repository, a
/// read-only mode. Nothing for a new file.
fn existing(root: &Path, p: &Path) -> Result<(), Refusal> {
    let path = p.display().to_string();
    let Ok(meta) = std::fs::symlink_metadata(p) else {
        return Ok(());
    };
    if meta.file_type().is_symlink() {
        let target = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        if !target.starts_with(root) {
            return Err(Refusal::LinkLeavesRepository {
                path,
                target: target.display().to_string(),
            });
        }
    }
    let meta = std::fs::metadata(p).unwrap_or(meta);
    if meta.permissions().readonly() {
        return Err(Refusal::ReadOnly { path });
    }
    Ok(())
}

/// The folder where `p` is made, replaced, renamed or removed must take it.
fn folder_of(p: &Path) -> Result<(), Refusal> {
    match super::replay::nearest_folder(p) {
        Some(dir) if !super::replay::folder_writable(&dir) => Err(Refusal::FolderReadOnly {
            path: dir.display().to_string(),
        }),
        _ => Ok(()),
    }
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
