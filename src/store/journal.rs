//! The write-ahead record of one change set: `.gsd/journal.json`.
//!
//! A change that touches many files (`phase remove` renames hundreds) cannot
//! be made atomic by the file system, so it is made *recoverable in both
//! directions*: before the first byte of the tree changes, every operation
//! is written here with what it replaces (the old text of a rewritten file,
//! the old bytes of a deleted one). A change that fails half-way is undone
//! from it before the command exits; a process killed half-way leaves it,
//! and an explicit `gsd recover` (or the next *write* command, which says
//! so) finishes the change, or `gsd recover --abandon` undoes it. A read
//! command never acts on it.
//!
//! Paths are relative to the project root, so a copied or moved repository
//! recovers its own files, never the ones at the path it was copied from.
//! Each operation also names the bytes it expects (a git blob id), which is
//! how recovery tells how far the change got ([`super::replay`]) and that
//! the files are still the change's own.
//!
//! Cost: a one-file `state set` journal is one small write, an fsync of it
//! and one of `.gsd/` (`cargo run --release --example journal`; the figure
//! is in BENCHMARKS.md).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The journal file, relative to the project root.
pub const FILE: &str = ".gsd/journal.json";

/// The record format; a journal of another version is not replayed (an
/// older gsd wrote absolute paths).
pub const VERSION: u32 = 2;

/// A file's bytes as the journal keeps them: text as text, anything else
/// as its bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Content {
    Text(String),
    Bytes(Vec<u8>),
}

impl Content {
    pub fn of(bytes: &[u8]) -> Content {
        match std::str::from_utf8(bytes) {
            Ok(s) => Content::Text(s.to_owned()),
            Err(_) => Content::Bytes(bytes.to_vec()),
        }
    }

    pub fn bytes(&self) -> &[u8] {
        match self {
            Content::Text(s) => s.as_bytes(),
            Content::Bytes(b) => b,
        }
    }
}

/// One step of a change set, in the order it is applied. Every path is
/// relative to the project root (absolute only for a file outside it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Remove `path`, which holds `old` (kept to put it back) with `mode`.
    Delete {
        path: PathBuf,
        old: Content,
        mode: u32,
    },
    /// Rename `from` (holding the blob `blob`) to `to`.
    Move {
        from: PathBuf,
        to: PathBuf,
        blob: String,
    },
    /// Replace `path` (a link's target, never the link), which holds `old`
    /// (`None`: the file is new), with `text`.
    Write {
        path: PathBuf,
        old: Option<String>,
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

/// `path` as the journal stores it: relative to `root` when inside it.
pub fn relative(root: &Path, path: &Path) -> PathBuf {
    if let Ok(r) = path.strip_prefix(root) {
        return r.to_path_buf();
    }
    // A link's target is canonical; the root may not be.
    match std::fs::canonicalize(root) {
        Ok(c) => path
            .strip_prefix(&c)
            .map_or_else(|_| path.to_path_buf(), Path::to_path_buf),
        Err(_) => path.to_path_buf(),
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
/// (or a disk filled) while writing leaves a torn record, which [`read`]
/// tells apart — a prefix of the JSON object never parses — and which is
/// harmless, since nothing is applied before this returns. On an error
/// the torn record is emptied here, so it never outlives the command.
pub fn write(root: &Path, record: &Record) -> std::io::Result<()> {
    let result = write_whole(root, record);
    if result.is_err() {
        let _ = remove(root);
    }
    result
}

fn write_whole(root: &Path, record: &Record) -> std::io::Result<()> {
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

/// What `.gsd/journal.json` holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Journal {
    /// Nothing: absent or empty (the last change finished).
    None,
    /// A record cut short while being written (killed, disk full): its
    /// change never started, so it can simply be cleared.
    Torn,
    /// An interrupted change.
    Pending(Record),
}

/// The journal left by an interrupted change, if any.
pub fn read(root: &Path) -> Result<Journal, JournalError> {
    let p = path(root);
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Journal::None),
        Err(source) => {
            return Err(JournalError::Io {
                path: FILE.into(),
                source,
            });
        }
    };
    if bytes.is_empty() {
        return Ok(Journal::None);
    }
    // A file system may show a torn tail as zeros rather than cut it off.
    let whole = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
    let text = &whole[..whole.iter().rposition(|b| *b != 0).map_or(0, |i| i + 1)];
    if text.is_empty() || text.len() < whole.len() {
        return Ok(Journal::Torn);
    }
    match serde_json::from_slice::<Record>(text) {
        Ok(r) if r.version == VERSION => Ok(Journal::Pending(r)),
        Ok(r) => Err(JournalError::Unreadable {
            path: FILE.into(),
            message: format!("format {} (this gsd reads {VERSION})", r.version),
        }),
        // Cut short: the object never closed.
        Err(e) if e.is_eof() => Ok(Journal::Torn),
        Err(e) => Err(JournalError::Unreadable {
            path: FILE.into(),
            message: e.to_string(),
        }),
    }
}

/// Whether a change may be pending (cheap: one `stat`).
pub fn pending(root: &Path) -> bool {
    std::fs::metadata(path(root)).is_ok_and(|m| m.len() > 0)
}

/// Empty the journal once its change is applied and committed (or undone).
/// Not synced: an emptying lost to a power cut leaves a journal whose
/// change recovery finds complete (or never started).
/// A journal that cannot be emptied (a failing disk) is unlinked instead.
pub fn remove(root: &Path) -> std::io::Result<()> {
    let emptied = match std::fs::OpenOptions::new().write(true).open(path(root)) {
        Ok(f) => f.set_len(0),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => Err(e),
    };
    emptied.or_else(|e| std::fs::remove_file(path(root)).map_err(|_| e))
}

/// The journal could not be used; nothing was changed.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[diagnostic(
    code(gsd::store::journal),
    help(
        "an interrupted gsd change left .gsd/journal.json: `gsd recover` finishes it, `gsd recover --abandon` undoes it (or, when the files were edited since, drops the journal and leaves them as they are)"
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
    /// Files of the interrupted change hold neither what the change found
    /// nor what it wrote, at any point of it: someone edited them since.
    /// Finishing or undoing would overwrite their edit, so nothing moves.
    #[error(
        "the interrupted change \"{message}\" cannot be finished or undone: {} changed since (nothing was touched)",
        paths.join(", ")
    )]
    Diverged { message: String, paths: Vec<String> },
    /// A file or folder recovery must change cannot be written.
    #[error(
        "the interrupted change \"{message}\" cannot be {doing}: {path} is not writable (nothing was touched)"
    )]
    NotWritable {
        message: String,
        doing: &'static str,
        path: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> Record {
        Record {
            version: VERSION,
            message: "m".into(),
            commit: true,
            policy: crate::store::CommitPolicy::Commit,
            head: None,
            ops: vec![
                Op::Delete {
                    path: "a".into(),
                    old: Content::of(b"x"),
                    mode: 0o100644,
                },
                Op::Move {
                    from: "b".into(),
                    to: "a".into(),
                    blob: blob_id(b"y"),
                },
                Op::Write {
                    path: "a".into(),
                    old: None,
                    text: "z".into(),
                },
            ],
        }
    }

    #[test]
    fn round_trips_and_lists_touched_paths_once() {
        let d = tempfile::tempdir().unwrap();
        let rec = record();
        write(d.path(), &rec).unwrap();
        assert_eq!(read(d.path()).unwrap(), Journal::Pending(rec.clone()));
        assert_eq!(rec.touched(), vec![PathBuf::from("a"), PathBuf::from("b")]);
        assert!(pending(d.path()));
        remove(d.path()).unwrap();
        assert_eq!(read(d.path()).unwrap(), Journal::None);
        assert!(!pending(d.path()));
        // `printf x | git hash-object --stdin`: the journal agrees with git.
        assert_eq!(blob_id(b"x"), "c1b0730e0133447badcfd47fd144e254807b06e1");
        // Bytes that are not text survive as bytes.
        let bin = Content::of(&[0xff, 0, 1]);
        let back: Content = serde_json::from_str(&serde_json::to_string(&bin).unwrap()).unwrap();
        assert_eq!(back.bytes(), &[0xff, 0, 1]);
    }

    #[test]
    fn a_record_cut_short_or_zero_filled_is_torn() {
        let d = tempfile::tempdir().unwrap();
        let whole = serde_json::to_vec(&record()).unwrap();
        std::fs::create_dir_all(d.path().join(".gsd")).unwrap();
        std::fs::write(path(d.path()), &whole[..whole.len() / 2]).unwrap();
        assert_eq!(read(d.path()).unwrap(), Journal::Torn);
        let mut zeros = whole[..whole.len() / 2].to_vec();
        zeros.extend([0u8; 64]);
        std::fs::write(path(d.path()), &zeros).unwrap();
        assert_eq!(read(d.path()).unwrap(), Journal::Torn);
    }

    #[test]
    fn paths_are_stored_relative_to_the_root() {
        let d = tempfile::tempdir().unwrap();
        let inside = d.path().join(".planning/STATE.md");
        assert_eq!(
            relative(d.path(), &inside),
            PathBuf::from(".planning/STATE.md")
        );
        assert_eq!(
            relative(d.path(), Path::new("/elsewhere/x.md")),
            PathBuf::from("/elsewhere/x.md")
        );
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
