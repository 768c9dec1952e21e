//! What an iteration achieved, read from the outside: new commits, changed
//! files and tasks whose own checks now pass. The model's word is not a
//! source; `git` and the checks are.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::time::Duration;

use crate::ralph::verify::{Check, verify};

/// The work tree at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Snapshot {
    pub head: Option<String>,
    /// A fingerprint of every changed or untracked file (path, status and
    /// content): equal snapshots mean no file holds other bytes than before.
    /// Content, not modification time: an agent that writes the same wrong
    /// bytes again has changed nothing.
    pub tree: u64,
    pub changed_files: usize,
}

pub fn snapshot(root: &Path) -> Snapshot {
    let Ok(repo) = git2::Repository::discover(root) else {
        return Snapshot::default();
    };
    let head = repo
        .head()
        .ok()
        .and_then(|h| h.target())
        .map(|o| o.to_string());
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false);
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut changed = 0;
    if let Ok(statuses) = repo.statuses(Some(&mut opts)) {
        for e in statuses.iter() {
            let Ok(p) = e.path() else { continue };
            changed += 1;
            p.hash(&mut h);
            e.status().bits().hash(&mut h);
            if let Some(wd) = repo.workdir() {
                content_fingerprint(&wd.join(p)).hash(&mut h);
            }
        }
    }
    head.hash(&mut h);
    Snapshot {
        head,
        tree: h.finish(),
        changed_files: changed,
    }
}

/// Files larger than this are fingerprinted by size and modification time
/// (a build artefact the agent left is not read whole every iteration).
const HASHED_UP_TO: u64 = 8 * 1024 * 1024;

/// What a changed file holds: its bytes' hash, or (size, mtime) when large,
/// or nothing when it is gone or unreadable.
fn content_fingerprint(path: &Path) -> Option<(u64, Option<std::time::SystemTime>)> {
    let m = std::fs::symlink_metadata(path).ok()?;
    if m.is_file() && m.len() <= HASHED_UP_TO {
        let bytes = std::fs::read(path).ok()?;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        bytes.hash(&mut h);
        return Some((h.finish(), None));
    }
    Some((m.len(), m.modified().ok()))
}

/// Commits reachable from `new` but not from `old`, oldest first.
pub fn commits_between(root: &Path, old: Option<&str>, new: &str) -> Vec<(String, String)> {
    let Ok(repo) = git2::Repository::discover(root) else {
        return Vec::new();
    };
    let Ok(mut walk) = repo.revwalk() else {
        return Vec::new();
    };
    let push = git2::Oid::from_str(new).and_then(|o| walk.push(o));
    if push.is_err() {
        return Vec::new();
    }
    if let Some(old) = old.and_then(|o| git2::Oid::from_str(o).ok()) {
        let _ = walk.hide(old);
    }
    let _ = walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE);
    walk.filter_map(Result::ok)
        .filter_map(|oid| {
            let c = repo.find_commit(oid).ok()?;
            Some((
                oid.to_string(),
                c.summary().ok().flatten().unwrap_or("").to_owned(),
            ))
        })
        .take(100)
        .collect()
}

/// The plan's per-task checks that gsd can run, by task index (`task 2` →
/// 2). A task whose checks are all prose has none: nothing observable says
/// it is done, so it is never counted done (an empty list would pass).
pub fn task_checks(checks: &[Check]) -> BTreeMap<u32, Vec<Check>> {
    let mut by_task: BTreeMap<u32, Vec<Check>> = BTreeMap::new();
    for c in checks.iter().filter(|c| c.runs()) {
        if let Some(n) = c
            .source
            .strip_prefix("task ")
            .and_then(|n| n.parse::<u32>().ok())
        {
            by_task.entry(n).or_default().push(c.clone());
        }
    }
    by_task
}

/// Tasks not yet done whose checks all pass now.
pub fn newly_done(
    root: &Path,
    by_task: &BTreeMap<u32, Vec<Check>>,
    done: &[u32],
    timeout: Duration,
) -> Vec<u32> {
    by_task
        .iter()
        .filter(|(n, _)| !done.contains(n))
        .filter(|(_, checks)| verify(checks, root, timeout).passed)
        .map(|(n, _)| *n)
        .collect()
}
