//! Finishing or undoing a journaled change from wherever it stopped.
//!
//! A [`Record`]'s operations run one at a time and each is atomic (an
//! unlink, a rename, a temp + rename write), so the tree is always in one
//! of the states "the first k operations applied". [`progress`] finds that
//! k by comparing every touched path's bytes with the states the journal
//! implies; when no k matches, someone edited the files since and nothing
//! may move. [`check_writable`] then checks every path the remaining work
//! changes. Both run before the first byte moves, so recovery is all or
//! nothing: it never deletes a folder and then stops on a file.

use std::collections::{BTreeSet, HashMap};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::journal::{Op, Record, blob_id};

/// Which way a change is taken from where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Run the remaining operations.
    Finish,
    /// Reverse the operations already run.
    Undo,
}

/// The operations found applied: every k in `first..=last` matches the
/// tree (several only when a step left the same bytes, e.g. moving one of
/// two identical files).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub first: usize,
    pub last: usize,
}

/// What a path holds: its blob id, or `None` when absent.
type State = HashMap<PathBuf, Option<String>>;

/// How far `record` got in the tree at `root`; the paths that match no
/// state of it when none does (fewest first: those nearest a state).
pub fn progress(root: &Path, record: &Record) -> Result<Progress, Vec<PathBuf>> {
    let disk: State = record
        .touched()
        .into_iter()
        .map(|p| {
            let now = std::fs::read(root.join(&p)).ok().map(|b| blob_id(&b));
            (p, now)
        })
        .collect();
    let mut state = initial(record);
    let mut off: BTreeSet<PathBuf> = disk
        .iter()
        .filter(|(p, b)| state.get(*p) != Some(*b))
        .map(|(p, _)| p.clone())
        .collect();
    let mut found: Option<Progress> = off.is_empty().then_some(Progress { first: 0, last: 0 });
    let mut nearest = off.clone();
    for (i, op) in record.ops.iter().enumerate() {
        for p in step(&mut state, op) {
            if state.get(&p) == disk.get(&p) {
                off.remove(&p);
            } else {
                off.insert(p);
            }
        }
        if off.is_empty() {
            found = Some(match found {
                Some(f) => Progress { last: i + 1, ..f },
                None => Progress {
                    first: i + 1,
                    last: i + 1,
                },
            });
        } else if off.len() < nearest.len() {
            nearest = off.clone();
        }
    }
    found.ok_or_else(|| nearest.into_iter().collect())
}

/// Each path's bytes before the change: what its first operation expects.
fn initial(record: &Record) -> State {
    let mut s = State::new();
    for op in &record.ops {
        match op {
            Op::Delete { path, old, .. } => {
                s.entry(path.clone())
                    .or_insert_with(|| Some(blob_id(old.bytes())));
            }
            Op::Move { from, to, blob } => {
                s.entry(from.clone()).or_insert_with(|| Some(blob.clone()));
                // A move's target is free when it runs (the refusals saw to
                // it): absent, unless an earlier operation put it there.
                s.entry(to.clone()).or_insert(None);
            }
            Op::Write { path, old, .. } => {
                s.entry(path.clone())
                    .or_insert_with(|| old.as_deref().map(|o| blob_id(o.as_bytes())));
            }
        }
    }
    s
}

/// Apply `op` to `state`; the paths it changed.
fn step(state: &mut State, op: &Op) -> Vec<PathBuf> {
    match op {
        Op::Delete { path, .. } => {
            state.insert(path.clone(), None);
            vec![path.clone()]
        }
        Op::Move { from, to, .. } => {
            let moved = state.insert(from.clone(), None).flatten();
            state.insert(to.clone(), moved);
            vec![from.clone(), to.clone()]
        }
        Op::Write { path, text, .. } => {
            state.insert(path.clone(), Some(blob_id(text.as_bytes())));
            vec![path.clone()]
        }
    }
}

/// The first path that taking `record` from `done` operations in
/// `direction` would have to change but cannot: a read-only file it
/// replaces, or a folder (read-only, or on a read-only file system) where
/// it creates, renames or removes a file.
pub fn check_writable(
    root: &Path,
    record: &Record,
    direction: Direction,
    done: usize,
) -> Result<(), PathBuf> {
    let ops: Vec<&Op> = match direction {
        Direction::Finish => record.ops[done..].iter().collect(),
        Direction::Undo => record.ops[..done].iter().rev().collect(),
    };
    for op in ops {
        let (gone, made): (Vec<&PathBuf>, Vec<&PathBuf>) = match (op, direction) {
            (Op::Delete { path, .. }, Direction::Finish) => (vec![path], vec![]),
            (Op::Delete { path, .. }, Direction::Undo) => (vec![], vec![path]),
            (Op::Move { from, to, .. }, Direction::Finish) => (vec![from], vec![to]),
            (Op::Move { from, to, .. }, Direction::Undo) => (vec![to], vec![from]),
            (
                Op::Write {
                    path, old: None, ..
                },
                Direction::Undo,
            ) => (vec![path], vec![]),
            (Op::Write { path, .. }, _) => (vec![], vec![path]),
        };
        for p in gone {
            let abs = root.join(p);
            if let Some(dir) = abs.parent()
                && !folder_writable(dir)
            {
                return Err(dir.to_path_buf());
            }
        }
        for p in made {
            let abs = root.join(p);
            if std::fs::metadata(&abs).is_ok_and(|m| m.permissions().readonly()) {
                return Err(abs);
            }
            if let Some(dir) = nearest_folder(&abs)
                && !folder_writable(&dir)
            {
                return Err(dir);
            }
        }
    }
    Ok(())
}

/// The closest existing folder above `path` (where a new file or folder
/// would be made).
pub fn nearest_folder(path: &Path) -> Option<PathBuf> {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if std::fs::metadata(d).is_ok_and(|m| m.is_dir()) {
            return Some(d.to_path_buf());
        }
        dir = d.parent();
    }
    None
}

/// Whether files can be made, renamed and removed in `dir`: it has a write
/// bit (a folder made read-only is read-only to root too, as a file is to
/// the refusals) and the process may write it (owner, read-only mount).
pub fn folder_writable(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    if std::fs::metadata(dir).is_ok_and(|m| m.permissions().readonly()) {
        return false;
    }
    let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

fn io(path: &Path, source: std::io::Error) -> super::StoreError {
    super::StoreError::Write {
        path: path.display().to_string(),
        source,
    }
}

/// Hard links, in `.gsd/`, to the files a running change replaces or
/// deletes. Undoing the change in the same process renames them back, which
/// needs no room: on a full disk, writing the old bytes again would fail
/// as the change did. A file that cannot be linked (another file system)
/// is undone from the journal's bytes, as recovery undoes everything.
#[derive(Debug, Default)]
pub struct Kept {
    links: std::collections::HashMap<PathBuf, PathBuf>,
}

impl Kept {
    /// Link `rel`'s current file, unless it is linked already (the first
    /// version is the old one).
    fn keep(&mut self, root: &Path, rel: &Path) {
        if self.links.contains_key(rel) {
            return;
        }
        let link = root.join(".gsd").join(format!(
            "{}old-{}",
            super::atomic::TEMP_PREFIX,
            self.links.len()
        ));
        let _ = std::fs::remove_file(&link); // a killed change's, under our lock
        if std::fs::hard_link(root.join(rel), &link).is_ok() {
            self.links.insert(rel.to_path_buf(), link);
        }
    }

    /// Put `rel`'s old file back from its link; `None` when it has none.
    fn restore(&mut self, root: &Path, rel: &Path) -> Option<std::io::Result<()>> {
        let link = self.links.remove(rel)?;
        let abs = root.join(rel);
        let put = (|| {
            if let Some(parent) = abs.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::rename(&link, &abs)?;
            if let Some(d) = abs.parent().and_then(|p| std::fs::File::open(p).ok()) {
                let _ = d.sync_all();
            }
            Ok(())
        })();
        Some(put)
    }

    /// Drop the links once the change is kept (a link left behind is a
    /// temp file in `.gsd/`, which the next write removes).
    pub fn release(self) {
        for link in self.links.values() {
            let _ = std::fs::remove_file(link);
        }
    }
}

/// The file `op` replaces or deletes (what [`Kept`] links), if any.
fn replaced(op: &Op) -> Option<&PathBuf> {
    match op {
        Op::Delete { path, .. }
        | Op::Write {
            path, old: Some(_), ..
        } => Some(path),
        Op::Move { .. } | Op::Write { old: None, .. } => None,
    }
}

/// Run `record`'s operations from the `done`th on.
pub fn forward(root: &Path, record: &Record, done: usize) -> Result<(), super::StoreError> {
    forward_keeping(root, record, done, None)
}

/// [`forward`], linking each file it replaces or deletes into `kept`.
pub fn forward_keeping(
    root: &Path,
    record: &Record,
    done: usize,
    mut kept: Option<&mut Kept>,
) -> Result<(), super::StoreError> {
    for op in &record.ops[done..] {
        if let (Some(k), Some(path)) = (kept.as_deref_mut(), replaced(op)) {
            k.keep(root, path);
        }
        match op {
            Op::Delete { path, .. } => {
                let abs = root.join(path);
                std::fs::remove_file(&abs).map_err(|e| io(&abs, e))?;
            }
            Op::Move { from, to, .. } => {
                let (from, to) = (root.join(from), root.join(to));
                if let Some(parent) = to.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
                }
                std::fs::rename(&from, &to).map_err(|e| io(&from, e))?;
            }
            Op::Write { path, text, .. } => {
                let abs = root.join(path);
                super::atomic::write(&abs, text.as_bytes()).map_err(|e| io(&abs, e))?;
            }
        }
    }
    // Folders left empty by deletes and moves go too.
    prune(
        root,
        record.ops.iter().filter_map(|op| match op {
            Op::Delete { path, .. } => Some(path),
            Op::Move { from, .. } => Some(from),
            Op::Write { .. } => None,
        }),
    );
    Ok(())
}

/// Reverse `record`'s first `done` operations, last first: every file
/// gets its old bytes back (a deleted one its mode too), moves go back,
/// new files go.
pub fn backward(root: &Path, record: &Record, done: usize) -> Result<(), super::StoreError> {
    backward_keeping(root, record, done, None)
}

/// [`backward`], putting back the files `kept` links instead of writing
/// their old bytes.
pub fn backward_keeping(
    root: &Path,
    record: &Record,
    done: usize,
    mut kept: Option<&mut Kept>,
) -> Result<(), super::StoreError> {
    for op in record.ops[..done].iter().rev() {
        if let (Some(k), Some(path)) = (kept.as_deref_mut(), replaced(op))
            && let Some(put) = k.restore(root, path)
        {
            let abs = root.join(path);
            put.map_err(|e| io(&abs, e))?;
            continue;
        }
        match op {
            Op::Delete { path, old, mode } => {
                let abs = root.join(path);
                super::atomic::write(&abs, old.bytes()).map_err(|e| io(&abs, e))?;
                std::fs::set_permissions(&abs, std::fs::Permissions::from_mode(mode & 0o7777))
                    .map_err(|e| io(&abs, e))?;
            }
            Op::Move { from, to, .. } => {
                let (from, to) = (root.join(from), root.join(to));
                if let Some(parent) = from.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
                }
                std::fs::rename(&to, &from).map_err(|e| io(&to, e))?;
            }
            Op::Write {
                path,
                old: Some(old),
                ..
            } => {
                let abs = root.join(path);
                super::atomic::write(&abs, old.as_bytes()).map_err(|e| io(&abs, e))?;
            }
            Op::Write {
                path, old: None, ..
            } => {
                let abs = root.join(path);
                std::fs::remove_file(&abs).map_err(|e| io(&abs, e))?;
            }
        }
    }
    // Folders the change made for its new files and moved files go, also
    // one made just before the step that would have filled it.
    prune(
        root,
        record.ops.iter().filter_map(|op| match op {
            Op::Move { to, .. } => Some(to),
            Op::Write {
                path, old: None, ..
            } => Some(path),
            Op::Delete { .. } | Op::Write { .. } => None,
        }),
    );
    Ok(())
}

/// Remove the folders of `gone` that are left empty, upwards — but not the
/// tree's own: `.planning` and a `phases` folder stay, even empty
/// (removing the only phase keeps `phases/`, as gsd-sdk does).
fn prune<'a>(root: &Path, gone: impl Iterator<Item = &'a PathBuf>) {
    let structural = |d: &Path| {
        d == root
            || !d.starts_with(root)
            || d.file_name()
                .is_some_and(|n| n == ".planning" || n == "phases")
    };
    for p in gone {
        let abs = root.join(p);
        let mut dir = abs.parent();
        while let Some(d) = dir {
            if structural(d) || std::fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::journal::{Content, VERSION};

    fn record(ops: Vec<Op>) -> Record {
        Record {
            version: VERSION,
            message: "m".into(),
            commit: false,
            policy: crate::store::CommitPolicy::Skip,
            head: None,
            ops,
        }
    }

    /// A renumbering chain (`b` → `a` while `c` → `b`): every prefix is
    /// found, and undoing from it gives the old tree back.
    #[test]
    fn finds_every_prefix_of_a_chain_and_undoes_it() {
        let ops = vec![
            Op::Delete {
                path: "a".into(),
                old: Content::of(b"A"),
                mode: 0o100644,
            },
            Op::Move {
                from: "b".into(),
                to: "a".into(),
                blob: blob_id(b"B"),
            },
            Op::Move {
                from: "c".into(),
                to: "b".into(),
                blob: blob_id(b"C"),
            },
            Op::Write {
                path: "a".into(),
                old: Some("B".into()),
                text: "B2".into(),
            },
            Op::Write {
                path: "n/new".into(),
                old: None,
                text: "N".into(),
            },
        ];
        let rec = record(ops);
        for k in 0..=rec.ops.len() {
            let d = tempfile::tempdir().unwrap();
            for (name, text) in [("a", "A"), ("b", "B"), ("c", "C")] {
                std::fs::write(d.path().join(name), text).unwrap();
            }
            forward(d.path(), &record(rec.ops[..k].to_vec()), 0).unwrap();
            let p = progress(d.path(), &rec).unwrap();
            assert_eq!((p.first, p.last), (k, k));
            backward(d.path(), &rec, k).unwrap();
            for (name, text) in [("a", "A"), ("b", "B"), ("c", "C")] {
                assert_eq!(std::fs::read_to_string(d.path().join(name)).unwrap(), text);
            }
            assert!(!d.path().join("n").exists(), "k={k}");
        }
    }

    #[test]
    fn an_edited_file_matches_no_state() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("a"), "edited").unwrap();
        let rec = record(vec![Op::Write {
            path: "a".into(),
            old: Some("A".into()),
            text: "A2".into(),
        }]);
        assert_eq!(progress(d.path(), &rec), Err(vec![PathBuf::from("a")]));
    }

    #[test]
    fn a_read_only_folder_is_named() {
        let d = tempfile::tempdir().unwrap();
        let sub = d.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("a"), "A").unwrap();
        std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o555)).unwrap();
        let rec = record(vec![Op::Write {
            path: "sub/a".into(),
            old: Some("A".into()),
            text: "A2".into(),
        }]);
        let err = check_writable(d.path(), &rec, Direction::Finish, 0);
        std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(err, Err(sub));
        assert_eq!(check_writable(d.path(), &rec, Direction::Finish, 1), Ok(()));
    }
}
