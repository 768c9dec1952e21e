//! What `ralph run --parallel` can leave behind when it is killed, when a
//! machine goes down, or when a person stops it: git's records of plan
//! worktrees (`.git/worktrees/gsd-ralph-*`), the worktrees themselves
//! (`.gsd/wt-<plan>`) and their branches (`gsd/ralph/<plan>`).
//!
//! Each is named with what it holds and how to go on. Only what holds no
//! work is ever removed (by `gsd ralph clean`): a record whose folder is
//! gone, a branch the current branch already contains, an empty folder. A
//! worktree with a run in it, uncommitted files or commits of its own stays
//! — the re-run resumes or merges it, or a person decides.

use std::path::{Path, PathBuf};

use git2::{BranchType, Repository, WorktreePruneOptions};
use serde::Serialize;

/// What kind of thing was left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// git still lists a worktree whose folder is gone (a crash between
    /// the two, or a creation that failed half-way).
    StaleRecord,
    /// A plan branch with nothing the current branch lacks.
    MergedBranch,
    /// A plan branch with commits the current branch lacks and no worktree.
    UnmergedBranch,
    /// A plan's worktree, with whatever run or files it holds.
    Worktree,
    /// A `.gsd/wt-*` folder that is not a worktree.
    StrayFolder,
}

/// One thing left behind.
#[derive(Debug, Clone, Serialize)]
pub struct Leftover {
    pub kind: Kind,
    /// The worktree record, branch or folder name.
    pub name: String,
    /// Its folder, when it has one.
    pub path: Option<PathBuf>,
    /// What it holds and how to go on.
    pub note: String,
    /// Whether `gsd ralph clean` removes it (it holds no work).
    pub removable: bool,
}

const RECORD_PREFIX: &str = "gsd-ralph-";
const BRANCH_PREFIX: &str = "gsd/ralph/";
const FOLDER_PREFIX: &str = "wt-";

/// Everything a plan run left in the repository at `root`; empty outside a
/// git repository.
pub fn find(root: &Path) -> Vec<Leftover> {
    let Ok(repo) = Repository::open(root) else {
        return Vec::new();
    };
    let head = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    let mut out = Vec::new();
    let mut branches_in_use = Vec::new();
    let mut folders_in_use = Vec::new();
    let names = repo.worktrees().map(|a| {
        a.iter()
            .flatten()
            .flatten()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    });
    for name in names.unwrap_or_default() {
        if !name.starts_with(RECORD_PREFIX) {
            continue;
        }
        let Ok(wt) = repo.find_worktree(&name) else {
            continue;
        };
        let path = wt.path().to_path_buf();
        if wt.validate().is_err() || !path.join(".git").exists() {
            out.push(Leftover {
                kind: Kind::StaleRecord,
                note: format!(
                    "git lists worktree {name} at {}, which is gone",
                    path.display()
                ),
                name,
                path: Some(path),
                removable: true,
            });
            continue;
        }
        folders_in_use.push(path.clone());
        let branch = Repository::open(&path).ok().and_then(|r| {
            r.head()
                .ok()
                .and_then(|h| h.shorthand().ok().map(str::to_owned))
        });
        if let Some(b) = &branch {
            branches_in_use.push(b.clone());
        }
        out.push(Leftover {
            kind: Kind::Worktree,
            note: worktree_note(&path, branch.as_deref()),
            name,
            path: Some(path),
            removable: false,
        });
    }
    if let Ok(branches) = repo.branches(Some(BranchType::Local)) {
        for (b, _) in branches.flatten() {
            let Some(name) = b.name().ok().flatten().map(str::to_owned) else {
                continue;
            };
            if !name.starts_with(BRANCH_PREFIX) || branches_in_use.contains(&name) {
                continue;
            }
            let Ok(tip) = b.get().peel_to_commit() else {
                continue;
            };
            let merged = head.as_ref().is_some_and(|h| {
                h.id() == tip.id() || repo.graph_descendant_of(h.id(), tip.id()).unwrap_or(false)
            });
            let ahead = head
                .as_ref()
                .and_then(|h| repo.graph_ahead_behind(tip.id(), h.id()).ok())
                .map_or(0, |(a, _)| a);
            out.push(if merged {
                Leftover {
                    kind: Kind::MergedBranch,
                    note: format!("branch {name} holds nothing the current branch lacks"),
                    name,
                    path: None,
                    removable: true,
                }
            } else {
                Leftover {
                    kind: Kind::UnmergedBranch,
                    note: format!(
                        "branch {name} holds {ahead} commit(s) the current branch lacks and has no worktree: `git merge {name}` takes them, `git branch -D {name}` drops them"
                    ),
                    name,
                    path: None,
                    removable: false,
                }
            });
        }
    }
    for e in std::fs::read_dir(root.join(".gsd"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        if !name.starts_with(FOLDER_PREFIX)
            || !path.is_dir()
            || folders_in_use.iter().any(|f| same_dir(f, &path))
        {
            continue;
        }
        let empty = std::fs::read_dir(&path).is_ok_and(|mut d| d.next().is_none());
        out.push(Leftover {
            kind: Kind::StrayFolder,
            note: if empty {
                format!(".gsd/{name} is an empty folder no worktree uses")
            } else {
                format!(
                    ".gsd/{name} is no worktree but holds files; look at them, then remove the folder"
                )
            },
            name,
            path: Some(path),
            removable: empty,
        });
    }
    out
}

/// What a plan's worktree holds: its run, its uncommitted files, and the
/// command that goes on.
fn worktree_note(path: &Path, branch: Option<&str>) -> String {
    use crate::ralph::state::{LoopState, Status};
    let run = LoopState::load(path).and_then(Result::ok);
    let dirty = Repository::open(path)
        .ok()
        .and_then(|r| {
            let mut o = git2::StatusOptions::new();
            o.include_untracked(true).include_ignored(false);
            r.statuses(Some(&mut o)).ok().map(|s| s.len())
        })
        .unwrap_or(0);
    let branch = branch.unwrap_or("a detached HEAD");
    let run = match run {
        Some(s) if s.status == Status::Complete => format!(
            "plan {} finished here and is not merged: running its phase again merges it",
            s.plan
        ),
        Some(s) => format!(
            "plan {}'s run stopped here ({}, iteration {}/{}): running its phase again resumes it",
            s.plan,
            s.status.as_str(),
            s.iteration,
            s.max_iterations
        ),
        None => "no run in it".to_owned(),
    };
    let files = if dirty > 0 {
        format!("; {dirty} uncommitted file(s)")
    } else {
        String::new()
    };
    format!("worktree on {branch}: {run}{files}")
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Why a leftover could not be removed.
#[derive(Debug, thiserror::Error)]
#[error("{name}: {reason}")]
pub struct CleanError {
    pub name: String,
    pub reason: String,
}

/// Remove every leftover that holds no work; returns what was removed and
/// what was kept (with why), and what failed.
pub fn clean(root: &Path) -> (Vec<Leftover>, Vec<Leftover>, Vec<CleanError>) {
    let (mut removed, mut kept, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    let Ok(repo) = Repository::open(root) else {
        return (removed, kept, failed);
    };
    for l in find(root) {
        if !l.removable {
            kept.push(l);
            continue;
        }
        let done = match l.kind {
            Kind::StaleRecord => repo
                .find_worktree(&l.name)
                .and_then(|w| w.prune(Some(WorktreePruneOptions::new().valid(true))))
                .map_err(|e| e.to_string()),
            Kind::MergedBranch => repo
                .find_branch(&l.name, BranchType::Local)
                .and_then(|mut b| b.delete())
                .map_err(|e| e.to_string()),
            Kind::StrayFolder => l
                .path
                .as_deref()
                .map_or(Ok(()), std::fs::remove_dir)
                .map_err(|e| e.to_string()),
            Kind::UnmergedBranch | Kind::Worktree => Ok(()),
        };
        match done {
            Ok(()) => removed.push(l),
            Err(reason) => failed.push(CleanError {
                name: l.name.clone(),
                reason,
            }),
        }
    }
    (removed, kept, failed)
}
