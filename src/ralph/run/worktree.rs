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

/// The worktree for plan `id`: the one an earlier run left (its plan was
/// interrupted or failed; its work and paused loop are there), else a new
/// one at the current HEAD.
pub fn create(root: &Path, id: &str) -> Result<Worktree, WorktreeError> {
    let repo = Repository::open(root)?;
    let name = format!("gsd-ralph-{}", slug(id));
    let branch = format!("gsd/ralph/{}", slug(id));
    let path = root.join(".gsd").join(format!("wt-{}", slug(id)));
    if repo.find_worktree(&name).is_ok() && path.join(".git").exists() {
        return Ok(Worktree { path, branch, name });
    }
    let head = repo.head()?.peel_to_commit()?;
    let b = repo.branch(&branch, &head, false)?;
    let r = b.into_reference();
    let mut opts = WorktreeAddOptions::new();
    opts.reference(Some(&r));
    repo.worktree(&name, &path, Some(&opts))?;
    Ok(Worktree { path, branch, name })
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
