//! Folders and files moved whole, as GSD moves a workstream: its files
//! into `.planning/workstreams/<name>/` when a flat project gets its first
//! workstream, and the workstream into `.planning/milestones/` when it is
//! done.
//!
//! A rename moves a folder with everything in it (empty folders, files gsd
//! does not model) in one atomic step, which a file-by-file change set
//! cannot. The project lock is held throughout and an interrupted change
//! set is refused first (`gsd recover` deals with it). When one rename
//! fails, every one before it is moved back (each tried, whatever the
//! others do) and the folders made for them removed, so the tree is as it
//! was; only where moving back fails too does the error name what is left
//! moved. These moves are not journalled: a process killed between two
//! renames leaves the ones made so far, as GSD Core's own moves do.
//! Nothing is committed: GSD commits none of these.

use std::path::{Path, PathBuf};

use super::{PlanningLock, StoreError};

/// Why a relocation did not happen.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum RelocateError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Store(#[from] StoreError),
    #[error("an interrupted change is pending in {0}")]
    #[diagnostic(
        code(gsd::store::pending),
        help("`gsd recover` finishes it and `gsd recover --abandon` undoes it")
    )]
    Pending(String),
    #[error("{to} is already there")]
    #[diagnostic(code(gsd::store::exists))]
    Exists { to: String },
    /// A rename failed; the earlier ones were moved back, except those
    /// `left` names (moving them back failed too).
    #[error("cannot move {from} to {to}: {source}{}", if left.is_empty() { " (nothing was moved)".to_string() } else { format!(" (and these could not be moved back: {})", left.join(", ")) })]
    #[diagnostic(code(gsd::store::relocate))]
    Failed {
        from: String,
        to: String,
        source: std::io::Error,
        left: Vec<String>,
    },
}

impl RelocateError {
    /// Whether the tree is as it was before the call.
    pub fn undone(&self) -> bool {
        !matches!(self, RelocateError::Failed { left, .. } if !left.is_empty())
    }
}

/// The folders `create_dir_all(dir)` would make, outermost first.
fn missing_folders(dir: &Path) -> Vec<PathBuf> {
    let mut missing: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && d.symlink_metadata().is_err())
        .map(Path::to_path_buf)
        .collect();
    missing.reverse();
    missing
}

/// Move each `(from, to)` in order (absolute paths; each `to` must not
/// exist, its folder is created), under the lock of the project at `root`.
/// Returns the moves made.
pub fn relocate(
    root: &Path,
    moves: &[(PathBuf, PathBuf)],
) -> Result<Vec<(PathBuf, PathBuf)>, RelocateError> {
    let _lock = PlanningLock::acquire(root, super::lock::default_timeout())
        .map_err(|e| RelocateError::Store(e.into()))?;
    if super::journal::pending(root) {
        return Err(RelocateError::Pending(
            super::journal::path(root).display().to_string(),
        ));
    }
    if let Some((_, to)) = moves.iter().find(|(_, to)| to.symlink_metadata().is_ok()) {
        return Err(RelocateError::Exists {
            to: to.display().to_string(),
        });
    }
    let mut done: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut made: Vec<PathBuf> = Vec::new();
    for (from, to) in moves {
        let folders = to.parent().map(missing_folders).unwrap_or_default();
        let moved = to
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                made.extend(folders);
                std::fs::rename(from, to)
            });
        if let Err(source) = moved {
            // Every earlier move is tried back, whatever the others do.
            let left: Vec<String> = done
                .iter()
                .rev()
                .filter(|(f, t)| std::fs::rename(t, f).is_err())
                .map(|(_, t)| t.display().to_string())
                .collect();
            if left.is_empty() {
                for d in made.iter().rev() {
                    let _ = std::fs::remove_dir(d);
                }
            }
            return Err(RelocateError::Failed {
                from: from.display().to_string(),
                to: to.display().to_string(),
                source,
                left,
            });
        }
        done.push((from.clone(), to.clone()));
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_move_undoes_the_ones_before_it() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join(".planning/phases/01-a")).unwrap();
        std::fs::write(root.join(".planning/ROADMAP.md"), "r").unwrap();
        let ws = root.join(".planning/workstreams/w");
        let moves = vec![
            (root.join(".planning/ROADMAP.md"), ws.join("ROADMAP.md")),
            (root.join(".planning/phases"), ws.join("phases")),
            (root.join(".planning/missing.md"), ws.join("missing.md")),
        ];
        let e = relocate(root, &moves).unwrap_err();
        assert!(e.undone(), "{e}");
        assert!(root.join(".planning/ROADMAP.md").exists());
        assert!(root.join(".planning/phases/01-a").is_dir());
        // The folders made for the moves went with them.
        assert!(!root.join(".planning/workstreams").exists());
        let ok = relocate(root, &moves[..2]).unwrap();
        assert_eq!(ok.len(), 2);
        assert!(ws.join("phases/01-a").is_dir() && ws.join("ROADMAP.md").exists());
        assert!(!root.join(".planning/phases").exists());
        // A target already there is refused before anything moves.
        std::fs::write(root.join(".planning/STATE.md"), "s").unwrap();
        std::fs::write(ws.join("STATE.md"), "other").unwrap();
        let e = relocate(
            root,
            &[(root.join(".planning/STATE.md"), ws.join("STATE.md"))],
        )
        .unwrap_err();
        assert!(matches!(e, RelocateError::Exists { .. }));
        assert_eq!(
            std::fs::read_to_string(ws.join("STATE.md")).unwrap(),
            "other"
        );
    }
}
