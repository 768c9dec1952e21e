//! Work is never lost: what an agent wrote and did not commit is committed
//! by gsd when its plan completes.
//!
//! The loop prompt does not ask the agent to commit, and real agents often
//! do not; a plan run in a worktree that is removed after its merge would
//! take such work with it, and a sequential phase would stop at the next
//! plan's dirty-tree pre-flight. So the run notes, before the first
//! iteration, every path that is already changed (with `--allow-dirty` or
//! `--resume` there may be some) and its content; at completion it commits
//! exactly the paths whose content the run changed — the user's own
//! uncommitted edits stay out — under the project's planning lock, with the
//! same commit code every gsd write uses.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use git2::{Oid, Repository, Status, StatusOptions};

use crate::store::commit::{CommitOutcome, CommitPolicy, commit_paths};

/// The changed paths of a work tree and their content's blob id (`None`:
/// deleted). Kept in the loop state, so a resumed run commits what the
/// paused one wrote too.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Baseline(BTreeMap<PathBuf, Option<String>>);

/// Every path git sees as changed or new (ignored ones excluded, untracked
/// folders listed file by file), with its content's id.
pub fn changed_paths(root: &Path) -> Result<Baseline, git2::Error> {
    let repo = Repository::discover(root)?;
    let workdir = repo
        .workdir()
        .ok_or_else(|| git2::Error::from_str("a bare repository has no work tree"))?
        .to_path_buf();
    let mut o = StatusOptions::new();
    o.include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false);
    let mut out = BTreeMap::new();
    for e in repo.statuses(Some(&mut o))?.iter() {
        if e.status() == Status::CURRENT || e.status().is_ignored() {
            continue;
        }
        let Ok(p) = e.path() else { continue };
        let rel = PathBuf::from(p);
        let abs = workdir.join(&rel);
        let id = if abs.is_file() {
            Some(Oid::hash_file(git2::ObjectType::Blob, &abs)?.to_string())
        } else {
            None
        };
        out.insert(rel, id);
    }
    Ok(Baseline(out))
}

impl Baseline {
    /// The work tree's changes now, less those that were there (with the
    /// same content) at `self`: what the run changed, relative to the
    /// repository's work tree.
    pub fn made_since(&self, root: &Path) -> Result<Vec<PathBuf>, git2::Error> {
        let now = changed_paths(root)?;
        let mut made: Vec<PathBuf> = now
            .0
            .iter()
            .filter(|(p, id)| self.0.get(*p) != Some(id))
            .map(|(p, _)| p.clone())
            .collect();
        // A path changed before the run that the run put back to HEAD's
        // content is the run's change too.
        made.extend(self.0.keys().filter(|p| !now.0.contains_key(*p)).cloned());
        made.sort();
        made.dedup();
        Ok(made)
    }
}

/// The commit of a plan's uncommitted work.
#[derive(Debug, Clone)]
pub struct Settled {
    pub hash: String,
    pub message: String,
    pub files: Vec<String>,
}

/// Why a plan's work could not be committed; the files are still in the
/// work tree at `root`.
#[derive(Debug, Clone)]
pub struct NotSettled {
    pub files: Vec<String>,
    pub reason: String,
}

/// Commit what the run changed since `baseline` (paths relative to the
/// repository's work tree, which is `root` or holds it). `Ok(None)`: the
/// agent had committed everything itself.
pub fn commit_work(
    root: &Path,
    baseline: &Baseline,
    plan: &str,
) -> Result<Option<Settled>, NotSettled> {
    let fail = |files: &[PathBuf], reason: String| NotSettled {
        files: files.iter().map(|p| p.display().to_string()).collect(),
        reason,
    };
    let made = baseline
        .made_since(root)
        .map_err(|e| fail(&[], e.to_string()))?;
    if made.is_empty() {
        return Ok(None);
    }
    let workdir = Repository::discover(root)
        .ok()
        .and_then(|r| r.workdir().map(Path::to_path_buf))
        .unwrap_or_else(|| root.to_path_buf());
    let message = format!(
        "feat({plan}): the work of plan {plan}\n\nCommitted by `gsd ralph run` when the plan's checks passed: the agent left these files uncommitted."
    );
    let _lock = crate::store::PlanningLock::acquire(root, crate::store::lock::default_timeout())
        .map_err(|e| fail(&made, e.to_string()))?;
    match commit_paths(&workdir, &made, &message, CommitPolicy::Commit) {
        Ok(CommitOutcome::Committed { id, .. }) => Ok(Some(Settled {
            hash: id,
            message,
            files: made.iter().map(|p| p.display().to_string()).collect(),
        })),
        Ok(CommitOutcome::NothingToCommit) => Ok(None),
        Ok(other) => Err(fail(&made, other.describe())),
        Err(e) => Err(fail(&made, e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let o = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
    }

    #[test]
    fn only_what_the_run_changed_is_committed() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        git(root, &["init", "-q"]);
        std::fs::write(root.join("kept.txt"), "v1").unwrap();
        std::fs::write(root.join("mine.txt"), "v1").unwrap();
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "init"]);
        // The user's own edit before the run: not the run's.
        std::fs::write(root.join("mine.txt"), "user's edit").unwrap();
        let base = changed_paths(root).unwrap();
        // The run: a new file in a new folder, an edit, a deletion.
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        std::fs::write(root.join("src/deep/new.rs"), "fn main() {}").unwrap();
        std::fs::write(root.join("kept.txt"), "v2").unwrap();
        let made = base.made_since(root).unwrap();
        assert_eq!(
            made,
            [PathBuf::from("kept.txt"), PathBuf::from("src/deep/new.rs")]
        );
        let s = commit_work(root, &base, "01-02").unwrap().unwrap();
        assert_eq!(s.files, ["kept.txt", "src/deep/new.rs"]);
        assert!(s.message.starts_with("feat(01-02): "));
        let st = std::process::Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["status", "--porcelain"])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&st.stdout), " M mine.txt\n");
        // Nothing more to commit: none.
        assert!(
            commit_work(root, &changed_paths(root).unwrap(), "01-02")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn an_edit_of_a_file_the_user_had_changed_is_the_runs() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        git(root, &["init", "-q"]);
        std::fs::write(root.join("a.txt"), "v1").unwrap();
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "init"]);
        std::fs::write(root.join("a.txt"), "user").unwrap();
        let base = changed_paths(root).unwrap();
        std::fs::write(root.join("a.txt"), "run").unwrap();
        assert_eq!(base.made_since(root).unwrap(), [PathBuf::from("a.txt")]);
        std::fs::write(root.join("a.txt"), "v1").unwrap();
        assert_eq!(base.made_since(root).unwrap(), [PathBuf::from("a.txt")]);
    }
}
