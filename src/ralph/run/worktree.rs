//! Plans that run side by side each get a git worktree on a branch of
//! their own (`gsd/ralph/<plan>` in `.gsd/wt-<plan>`), so their agents never
//! touch the same files; a plan whose checks passed is merged back into the
//! current branch (fast-forward when possible). The merge is computed in
//! memory first: a conflict leaves the current branch and its files exactly
//! as they were, and the plan's worktree stays for a person.

use std::path::{Path, PathBuf};

use git2::{BranchType, Repository, WorktreeAddOptions, WorktreePruneOptions};

/// A plan's worktree.
#[derive(Debug, Clone)]
pub struct Worktree {
    pub path: PathBuf,
    pub branch: String,
    name: String,
}

#[derive(Debug, thiserror::Error)]
pub enum WorktreeError {
    #[error("git: {0}")]
    Git(#[from] git2::Error),
    #[error("merging {branch} conflicts in {}", files.join(", "))]
    Conflict { branch: String, files: Vec<String> },
    #[error("cannot make {}: {source}", path.display())]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A branch of the plan's name holds commits the current branch lacks
    /// and has no worktree: somebody's work, never replaced.
    #[error(
        "branch {branch} already exists with commits of its own; merge it (`git merge {branch}`) or delete it (`git branch -D {branch}`)"
    )]
    Unmerged { branch: String },
}

/// A name git accepts for a branch and a folder: `[A-Za-z0-9._-]`.
fn slug(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// The names a plan's worktree goes by: git's worktree name, the branch and
/// the folder.
fn names(root: &Path, id: &str) -> (String, String, PathBuf) {
    (
        format!("gsd-ralph-{}", slug(id)),
        format!("gsd/ralph/{}", slug(id)),
        root.join(".gsd").join(format!("wt-{}", slug(id))),
    )
}

/// The worktree an earlier run left for plan `id`, when its folder is
/// still a checkout.
pub fn existing(root: &Path, id: &str) -> Option<Worktree> {
    let repo = Repository::open(root).ok()?;
    let (name, branch, path) = names(root, id);
    (repo.find_worktree(&name).is_ok() && path.join(".git").exists()).then_some(Worktree {
        path,
        branch,
        name,
    })
}

/// The worktree for plan `id`: the one an earlier run left (its plan was
/// interrupted, failed or could not be merged; its work and loop are
/// there), else a new one at the current HEAD. A creation that fails part
/// way removes what it made (the branch, git's record of the worktree), so
/// the next attempt starts clean; a branch of that name that an older run
/// left holding no work of its own is replaced.
pub fn create(root: &Path, id: &str) -> Result<Worktree, WorktreeError> {
    if let Some(w) = existing(root, id) {
        return Ok(w);
    }
    let repo = Repository::open(root)?;
    let (name, branch, path) = names(root, id);
    // `.gsd/` is git-ignored, so a fresh clone has none; git does not make
    // a worktree's parent folder.
    crate::store::lock::ensure_gsd_dir(root).map_err(|source| WorktreeError::Folder {
        path: root.join(".gsd"),
        source,
    })?;
    forget_stale_record(&repo, &name);
    let head = repo.head()?.peel_to_commit()?;
    if let Ok(old) = repo.find_branch(&branch, BranchType::Local) {
        let tip = old.get().peel_to_commit()?.id();
        if tip == head.id() || repo.graph_descendant_of(head.id(), tip)? {
            old.into_reference().delete()?;
        } else {
            return Err(WorktreeError::Unmerged {
                branch: branch.clone(),
            });
        }
    }
    let b = repo.branch(&branch, &head, false)?;
    let r = b.into_reference();
    let mut opts = WorktreeAddOptions::new();
    opts.reference(Some(&r));
    if let Err(e) = repo.worktree(&name, &path, Some(&opts)) {
        forget_stale_record(&repo, &name);
        let _ = std::fs::remove_dir(&path);
        if let Ok(mut b) = repo.find_branch(&branch, BranchType::Local) {
            let _ = b.delete();
        }
        return Err(e.into());
    }
    Ok(Worktree { path, branch, name })
}

/// Drop git's record of worktree `name` when its folder is not a checkout
/// (a crash between the two, or a failed creation).
fn forget_stale_record(repo: &Repository, name: &str) {
    let record = repo.path().join("worktrees").join(name);
    let checkout_gone = std::fs::read_to_string(record.join("gitdir"))
        .ok()
        .map(|g| PathBuf::from(g.trim()))
        .is_none_or(|g| !g.exists());
    if record.exists() && checkout_gone {
        let _ = std::fs::remove_dir_all(&record);
    }
}

/// Remove a worktree whose work is merged: its folder, its git records and
/// its branch.
pub fn remove(root: &Path, wt: &Worktree) -> Result<(), WorktreeError> {
    let repo = Repository::open(root)?;
    if let Ok(w) = repo.find_worktree(&wt.name) {
        let mut opts = WorktreePruneOptions::new();
        opts.valid(true).working_tree(true).locked(true);
        w.prune(Some(&mut opts))?;
    }
    if let Ok(mut b) = repo.find_branch(&wt.branch, BranchType::Local) {
        b.delete()?;
    }
    Ok(())
}

/// How a merge went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merged {
    UpToDate,
    FastForward,
    Commit,
}

/// Merge the worktree's branch into the current branch of `root`.
pub fn merge(root: &Path, wt: &Worktree, message: &str) -> Result<Merged, WorktreeError> {
    let repo = Repository::open(root)?;
    let theirs_ref = repo.find_reference(&format!("refs/heads/{}", wt.branch))?;
    let theirs = repo.reference_to_annotated_commit(&theirs_ref)?;
    let (analysis, _) = repo.merge_analysis(&[&theirs])?;
    let mut checkout = git2::build::CheckoutBuilder::new();
    checkout.safe();
    if analysis.is_up_to_date() {
        return Ok(Merged::UpToDate);
    }
    let head = repo.head()?;
    let head_name = head.name().unwrap_or("HEAD").to_owned();
    if analysis.is_fast_forward() {
        let target = repo.find_commit(theirs.id())?;
        repo.checkout_tree(target.as_object(), Some(&mut checkout))?;
        repo.find_reference(&head_name)?
            .set_target(theirs.id(), message)?;
        return Ok(Merged::FastForward);
    }
    let ours = head.peel_to_commit()?;
    let their_commit = repo.find_commit(theirs.id())?;
    let mut index = repo.merge_commits(&ours, &their_commit, None)?;
    if index.has_conflicts() {
        let mut files: Vec<String> = index
            .conflicts()?
            .flatten()
            .filter_map(|c| c.our.or(c.their).or(c.ancestor))
            .map(|e| String::from_utf8_lossy(&e.path).into_owned())
            .collect();
        files.sort();
        files.dedup();
        return Err(WorktreeError::Conflict {
            branch: wt.branch.clone(),
            files,
        });
    }
    let tree = repo.find_tree(index.write_tree_to(&repo)?)?;
    let sig = repo.signature()?;
    let id = repo.commit(None, &sig, &sig, message, &tree, &[&ours, &their_commit])?;
    let merged = repo.find_commit(id)?;
    repo.checkout_tree(merged.as_object(), Some(&mut checkout))?;
    repo.find_reference(&head_name)?.set_target(id, message)?;
    Ok(Merged::Commit)
}
