//! The write-ahead record of one change set: `.gsd/journal.json`.
//!
//! A change that touches many files (`phase remove` renames hundreds) cannot
//! be made atomic by the file system, so it is made *recoverable*: before the
//! first byte of the tree changes, every operation is written here (temp +
//! fsync + rename + folder fsync, so the journal itself is whole or absent).
//! A process killed half-way leaves the journal; the next gsd command replays
//! it to the end and commits, so the tree is always exactly the old commit
//! (killed before the journal landed) or exactly the new one (after replay).
//!
//! Replay must be idempotent from *any* crash point, including the moves of
//! a renumbering where one phase's new folder is another's old name
//! (`07-api/07-01` → `06-api/06-01` while `08-api/08-01` → `07-api/07-01`).
//! "Does the source still exist" cannot tell those apart, so deletes and
//! moves carry the git blob id of the bytes they expect: an operation runs
//! only while its path still holds exactly those bytes. Writes carry their
//! whole new text and are simply written again.
//!
//! Cost: a one-file `state set` journal is one small write, an fsync of it
//! and one of `.gsd/` (`cargo run --release --example journal`; the figure
//! is in BENCHMARKS.md).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The journal file, relative to the project root.
pub const FILE: &str = ".gsd/journal.json";

/// One step of a change set, in the order it is applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Remove `path` while it still holds the blob `blob`.
    Delete { path: PathBuf, blob: String },
    /// Rename `from` to `to` while `from` still holds the blob `blob`.
    Move {
        from: PathBuf,
        to: PathBuf,
        blob: String,
    },
    /// Replace `path` (a link's target, never the link) with `text`, while
    /// it still holds the blob `before` (`None`: the file is new).
    Write {
        path: PathBuf,
        before: Option<String>,
        text: String,
    },
}

/// A whole change set as recorded before it is applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub version: u32,
    /// The commit message, and how the commit is recognised once made.
    pub message: String,
    /// Whether the change set is to be committed (the policy said so and
    /// there is a repository).
    pub commit: bool,
    /// What was asked, so a replay reports the same outcome.
    pub policy: super::CommitPolicy,
    /// HEAD when the change started (`None`: unborn branch or no repository).
    pub head: Option<String>,
    pub ops: Vec<Op>,
}

impl Record {
    /// Every path the change set touches, as git must see them afterwards
    /// (moved-from paths included, so the commit records the rename).
    pub fn touched(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for op in &self.ops {
            match op {
                Op::Delete { path, .. } | Op::Write { path, .. } => out.push(path.clone()),
                Op::Move { from, to, .. } => {
                    out.push(from.clone());
                    out.push(to.clone());
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// The git blob id of `bytes`: what a delete or move expects to find.
pub fn blob_id(bytes: &[u8]) -> String {
    git2::Oid::hash_object(git2::ObjectType::Blob, bytes)
        .map(|o| o.to_string())
        .unwrap_or_default()
}

pub fn path(root: &Path) -> PathBuf {
    root.join(FILE)
}

/// Write the journal durably: after this returns, a crash replays it.
///
/// The file is rewritten in place (truncate, write, `fdatasync`), not
/// renamed into place: no temp file and no folder sync on each write (the
/// folder is synced once, when the file is first made). A process killed
/// while writing leaves a torn record, which [`read`] tells apart — a
/// prefix of the JSON object never parses — and which is harmless, since
/// nothing is applied before this returns.
pub fn write(root: &Path, record: &Record) -> std::io::Result<()> {
    use std::io::Write as _;
    super::lock::ensure_gsd_dir(root)?;
    let text = serde_json::to_vec(record).map_err(std::io::Error::other)?;
    let p = path(root);
    let created = !p.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(&p)?;
    f.write_all(&text)?;
    f.sync_data()?;
    if created && let Ok(d) = std::fs::File::open(root.join(".gsd")) {
        d.sync_all()?;
    }
    Ok(())
}

/// The journal left by an interrupted change, if any: `None` when there is
/// none, it is empty (the last change finished), or its record is torn (the
/// process died while writing it, before changing anything).
pub fn read(root: &Path) -> Result<Option<Record>, JournalError> {
    let p = path(root);
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(JournalError::Io {
                path: p.display().to_string(),
                source,
            });
        }
    };
    if bytes.is_empty() {
        return Ok(None);
    }
    match serde_json::from_slice::<Record>(&bytes) {
        Ok(r) => Ok(Some(r)),
        // Cut short: the object never closed.
        Err(e) if e.is_eof() => Ok(None),
        Err(e) => Err(JournalError::Unreadable {
            path: p.display().to_string(),
            message: e.to_string(),
        }),
    }
}

/// Whether a change is pending (cheap: one `stat`).
pub fn pending(root: &Path) -> bool {
    std::fs::metadata(path(root)).is_ok_and(|m| m.len() > 0)
}

/// Empty the journal once its change is applied and committed. Not synced:
/// an emptying lost to a power cut only replays a finished change, and a
/// replay writes nothing whose file no longer holds what it expects.
pub fn remove(root: &Path) -> std::io::Result<()> {
    match std::fs::OpenOptions::new().write(true).open(path(root)) {
        Ok(f) => f.set_len(0),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// The journal could not be used.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[diagnostic(
    code(gsd::store::journal),
    help(
        "an interrupted gsd change left .gsd/journal.json; if the tree is as you want it, remove that file"
    )
)]
pub enum JournalError {
    #[error("cannot read the journal {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("the journal {path} is not a gsd journal ({message})")]
    Unreadable { path: String, message: String },
    /// A file of the interrupted change holds neither what the change
    /// found nor what it wrote: someone edited it since. Replaying would
    /// overwrite their edit, so nothing more is replayed.
    #[error("{path} changed since the interrupted gsd change; not replaying over it")]
    Diverged { path: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_lists_touched_paths_once() {
        let d = tempfile::tempdir().unwrap();
        let rec = Record {
            version: 1,
            message: "m".into(),
            commit: true,
            policy: crate::store::CommitPolicy::Commit,
            head: None,
            ops: vec![
                Op::Delete {
                    path: "a".into(),
                    blob: blob_id(b"x"),
                },
                Op::Move {
                    from: "b".into(),
                    to: "a".into(),
                    blob: blob_id(b"y"),
                },
                Op::Write {
                    path: "a".into(),
                    before: None,
                    text: "z".into(),
                },
            ],
        };
        write(d.path(), &rec).unwrap();
        assert_eq!(read(d.path()).unwrap(), Some(rec.clone()));
        assert_eq!(rec.touched(), vec![PathBuf::from("a"), PathBuf::from("b")]);
        assert!(pending(d.path()));
        remove(d.path()).unwrap();
        assert_eq!(read(d.path()).unwrap(), None);
        assert!(!pending(d.path()));
        // A record cut short while being written is no record.
        let whole = serde_json::to_vec(&rec).unwrap();
        std::fs::write(path(d.path()), &whole[..whole.len() / 2]).unwrap();
        assert_eq!(read(d.path()).unwrap(), None);
        // `printf x | git hash-object --stdin`: the journal agrees with git.
        assert_eq!(blob_id(b"x"), "c1b0730e0133447badcfd47fd144e254807b06e1");
    }

    #[test]
    fn a_foreign_file_is_named_not_replayed() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join(".gsd")).unwrap();
        std::fs::write(path(d.path()), "{not json").unwrap();
        assert!(matches!(
            read(d.path()),
            Err(JournalError::Unreadable { .. })
        ));
    }
}
