//! One git commit of exactly the touched paths.
//!
//! The new tree is HEAD's tree plus the touched files' current bytes, built
//! in a private in-memory index, so whatever else the user has staged stays
//! staged and out of the commit (gsd-tools' `commit --files` sweeps the whole
//! index in; this is the fix). Afterwards the real index gets the touched
//! paths at their committed content, so `git status` shows them clean.
//! Works on a repository with no commits yet. Outside a repository, with
//! `commit_docs: false`, or for git-ignored paths nothing is committed and
//! the outcome says why. When the repository wants signed commits
//! (`commit.gpgsign`), libgit2 cannot sign, so the git CLI makes the commit
//! (`git commit --only`), which signs it — never a silent unsigned commit.

use std::path::{Path, PathBuf};

use git2::{ErrorCode, Repository, Signature};

/// Why a commit could not be made.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum CommitError {
    #[error("git: {}", .0.message())]
    #[diagnostic(code(gsd::store::git))]
    Git(#[from] git2::Error),
    #[error("cannot run git: {0}")]
    #[diagnostic(
        code(gsd::store::git_cli),
        help("install git, or unset commit.gpgsign")
    )]
    Spawn(std::io::Error),
    #[error("git add failed: {0}")]
    #[diagnostic(code(gsd::store::git_cli))]
    Cli(String),
    /// HEAD could not move, and git's index, already holding the change,
    /// could not be put back either.
    #[error("git: {}; git's index still holds the change", .0.message())]
    #[diagnostic(code(gsd::store::git))]
    IndexAhead(git2::Error),
    #[error("signed commit failed (commit.gpgsign is set): {0}")]
    #[diagnostic(
        code(gsd::store::signing),
        help("check that your signing key works with `git commit -S`, or use --no-commit")
    )]
    Signed(String),
}

/// Whether and how to commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommitPolicy {
    Commit,
    /// `--no-commit`.
    Skip,
    /// `planning.commit_docs: false` in config.json.
    DocsNotCommitted,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CommitOutcome {
    Committed {
        id: String,
        signed: bool,
    },
    NothingToCommit,
    NoCommitFlag,
    CommitDocsFalse,
    NotARepository,
    Ignored {
        paths: Vec<String>,
    },
    /// Every path lies outside the repository's work tree (an explicit
    /// file elsewhere, `../notes.md`): edited like any editor would, never
    /// committed.
    OutsideRepository {
        paths: Vec<String>,
    },
}

impl CommitOutcome {
    pub fn id(&self) -> Option<&str> {
        match self {
            CommitOutcome::Committed { id, .. } => Some(id),
            _ => None,
        }
    }

    /// A sentence for humans.
    pub fn describe(&self) -> String {
        match self {
            CommitOutcome::Committed { id, signed } => {
                format!(
                    "committed {}{}",
                    &id[..id.len().min(7)],
                    if *signed { " (signed)" } else { "" }
                )
            }
            CommitOutcome::NothingToCommit => "nothing changed, nothing committed".into(),
            CommitOutcome::NoCommitFlag => "not committed (--no-commit)".into(),
            CommitOutcome::CommitDocsFalse => {
                "not committed (planning.commit_docs is false)".into()
            }
            CommitOutcome::NotARepository => "not committed: not inside a git repository".into(),
            CommitOutcome::Ignored { paths } => {
                format!("not committed: ignored by git ({})", paths.join(", "))
            }
            CommitOutcome::OutsideRepository { paths } => format!(
                "not committed: outside the repository ({})",
                paths.join(", ")
            ),
        }
    }
}

/// Commit `paths` (relative to `root`) as they are on disk now.
pub fn commit_paths(
    root: &Path,
    paths: &[PathBuf],
    message: &str,
    policy: CommitPolicy,
) -> Result<CommitOutcome, CommitError> {
    match policy {
        CommitPolicy::Skip => return Ok(CommitOutcome::NoCommitFlag),
        CommitPolicy::DocsNotCommitted => return Ok(CommitOutcome::CommitDocsFalse),
        CommitPolicy::Commit => {}
    }
    let repo = match Repository::discover(root) {
        Ok(r) => r,
        Err(e) if e.code() == ErrorCode::NotFound => return Ok(CommitOutcome::NotARepository),
        Err(e) => return Err(e.into()),
    };
    commit_in(&repo, root, paths, message)
}

/// `commit_paths` in a repository already open (the transaction opened it
/// to check its locks; opening it again reads every git config file again).
pub fn commit_in(
    repo: &Repository,
    root: &Path,
    paths: &[PathBuf],
    message: &str,
) -> Result<CommitOutcome, CommitError> {
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        return Ok(CommitOutcome::NotARepository);
    };
    let workdir = std::fs::canonicalize(&workdir).unwrap_or(workdir);
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    // Paths relative to the repository's work tree; those outside it (an
    // absolute path elsewhere, `../x.md`) are never committed.
    let mut rel: Vec<PathBuf> = Vec::new();
    let mut outside: Vec<PathBuf> = Vec::new();
    for p in paths {
        let abs = resolved(&root.join(p));
        match abs.strip_prefix(&workdir) {
            Ok(r) if !r.as_os_str().is_empty() => rel.push(r.to_path_buf()),
            _ => outside.push(abs),
        }
    }
    if rel.is_empty() {
        return Ok(CommitOutcome::OutsideRepository {
            paths: outside.iter().map(|p| p.display().to_string()).collect(),
        });
    }
    let ignored: Vec<String> = rel
        .iter()
        .filter(|p| repo.is_path_ignored(p).unwrap_or(false) && !tracked(repo, p))
        .map(|p| p.display().to_string())
        .collect();
    if !ignored.is_empty() {
        return Ok(CommitOutcome::Ignored { paths: ignored });
    }
    let gpgsign = repo
        .config()
        .and_then(|c| c.get_bool("commit.gpgsign"))
        .unwrap_or(false);
    if gpgsign {
        return commit_with_cli(&workdir, &rel, message);
    }
    commit_with_libgit2(repo, &workdir, &rel, message)
}

/// `p` with its links and `..` resolved: the file itself when it exists,
/// else its folder (a new file's name is kept as given).
fn resolved(p: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    match (p.parent(), p.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|d| d.join(name))
            .unwrap_or_else(|_| p.to_path_buf()),
        _ => p.to_path_buf(),
    }
}

fn tracked(repo: &Repository, p: &Path) -> bool {
    repo.index()
        .ok()
        .is_some_and(|i| i.get_path(p, 0).is_some())
}

fn file_mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(path) {
        Ok(m) if m.permissions().mode() & 0o111 != 0 => 0o100755,
        _ => 0o100644,
    }
}

fn commit_with_libgit2(
    repo: &Repository,
    workdir: &Path,
    rel: &[PathBuf],
    message: &str,
) -> Result<CommitOutcome, CommitError> {
    let parent = match repo.head() {
        Ok(h) => Some(h.peel_to_commit()?),
        Err(e) if e.code() == ErrorCode::UnbornBranch || e.code() == ErrorCode::NotFound => None,
        Err(e) => return Err(e.into()),
    };
    // HEAD's tree with exactly the touched paths replaced: only the trees
    // on those paths are read and rewritten (a whole-tree index would read
    // every folder of the repository on each commit).
    let baseline = match &parent {
        Some(p) => p.tree()?,
        None => repo.find_tree(repo.treebuilder(None)?.write()?)?,
    };
    let mut update = git2::build::TreeUpdateBuilder::new();
    for p in rel {
        let abs = workdir.join(p);
        let git_path = p.to_string_lossy().replace('\\', "/");
        match std::fs::read(&abs) {
            Ok(bytes) => {
                let id = repo.blob(&bytes)?;
                let mode = if file_mode(&abs) == 0o100755 {
                    git2::FileMode::BlobExecutable
                } else {
                    git2::FileMode::Blob
                };
                update.upsert(git_path.as_str(), id, mode);
            }
            // Gone: out of the tree, if it was in it (an untracked file a
            // change renamed never was).
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if baseline.get_path(p).is_ok() {
                    update.remove(git_path.as_str());
                }
            }
            Err(e) => return Err(git2::Error::from_str(&e.to_string()).into()),
        }
    }
    let tree_id = update.create_updated(repo, &baseline)?;
    if let Some(p) = &parent
        && p.tree_id() == tree_id
    {
        return Ok(CommitOutcome::NothingToCommit);
    }
    let tree = repo.find_tree(tree_id)?;
    let sig = repo
        .signature()
        .or_else(|_| Signature::now("gsd", "gsd@localhost"))?;
    let parents: Vec<&git2::Commit> = parent.iter().collect();
    let id = repo.commit(None, &sig, &sig, message, &tree, &parents)?;
    // The index first, HEAD last: HEAD moved over an index that could not
    // follow would show the change staged in reverse; an index written
    // before a HEAD that could not move is put back. The touched paths in
    // the index then match HEAD and the work tree; every other entry
    // (staged or not) is left exactly as it was.
    let mut index = repo.index()?;
    let before: Vec<Option<git2::IndexEntry>> = rel.iter().map(|p| index.get_path(p, 0)).collect();
    stage(&mut index, workdir, rel)?;
    if let Err(e) = move_head(repo, parent.as_ref().map(git2::Commit::id), id, message) {
        // A reflog that could not be appended fails the call after the
        // reference moved: the commit is made.
        if repo.head().ok().and_then(|h| h.target()) != Some(id) {
            let restored = (|| {
                for (p, entry) in rel.iter().zip(before) {
                    match entry {
                        Some(entry) => index.add(&entry)?,
                        None => {
                            let _ = index.remove_path(p);
                        }
                    }
                }
                index.write()
            })();
            return Err(match restored {
                Ok(()) => e.into(),
                Err(_) => CommitError::IndexAhead(e),
            });
        }
    }
    Ok(CommitOutcome::Committed {
        id: id.to_string(),
        signed: false,
    })
}

/// Point HEAD (its branch, or HEAD itself when detached) at `id`, only if
/// it still points at `parent`, with the reflog line `git commit` writes.
fn move_head(
    repo: &Repository,
    parent: Option<git2::Oid>,
    id: git2::Oid,
    message: &str,
) -> Result<(), git2::Error> {
    let summary = message.lines().next().unwrap_or_default();
    let head = repo.find_reference("HEAD")?;
    let name = head.symbolic_target()?.unwrap_or("HEAD").to_owned();
    match parent {
        Some(old) => {
            let log = format!("commit: {summary}");
            repo.reference_matching(&name, id, true, old, &log)?;
        }
        None => {
            let log = format!("commit (initial): {summary}");
            repo.reference(&name, id, false, &log)?;
        }
    }
    Ok(())
}

/// Put git's index entries for `rel` back to HEAD's after a change was
/// undone, where the index holds neither HEAD's nor the work tree's bytes
/// (the change's own, staged by a commit whose HEAD could not move). An
/// entry that matches the work tree is the user's staging and stays.
pub fn reset_stale_index(root: &Path, rel: &[PathBuf]) -> Result<(), CommitError> {
    let repo = Repository::discover(root)?;
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        return Ok(());
    };
    let head_tree = match repo.head() {
        Ok(h) => Some(h.peel_to_tree()?),
        Err(_) => None,
    };
    let mut index = repo.index()?;
    let mut changed = false;
    for p in in_workdir(root, &workdir, rel) {
        let entry = index.get_path(&p, 0);
        let on_disk = std::fs::read(workdir.join(&p))
            .ok()
            .and_then(|b| git2::Oid::hash_object(git2::ObjectType::Blob, &b).ok());
        if entry.as_ref().map(|e| e.id) == on_disk {
            continue;
        }
        let in_head = head_tree.as_ref().and_then(|t| t.get_path(&p).ok());
        if entry.as_ref().map(|e| e.id) == in_head.as_ref().map(git2::TreeEntry::id) {
            continue;
        }
        changed = true;
        match in_head {
            Some(t) => {
                let mut e = entry.unwrap_or_else(|| blank_entry(&p));
                e.id = t.id();
                e.mode = t.filemode() as u32;
                e.file_size = 0; // stat data unknown: git rehashes the file
                index.add(&e)?;
            }
            None => index.remove_path(&p)?,
        }
    }
    if changed {
        index.write()?;
    }
    Ok(())
}

/// An index entry for `path` with no stat data.
fn blank_entry(path: &Path) -> git2::IndexEntry {
    let zero = git2::IndexTime::new(0, 0);
    git2::IndexEntry {
        ctime: zero,
        mtime: zero,
        dev: 0,
        ino: 0,
        mode: 0o100644,
        uid: 0,
        gid: 0,
        file_size: 0,
        id: git2::Oid::ZERO_SHA1,
        flags: 0,
        flags_extended: 0,
        path: path.to_string_lossy().replace('\\', "/").into_bytes(),
    }
}

/// `rel` (relative to `root`) as paths relative to the work tree, links
/// resolved; paths outside it are dropped.
fn in_workdir(root: &Path, workdir: &Path, rel: &[PathBuf]) -> Vec<PathBuf> {
    let workdir = std::fs::canonicalize(workdir).unwrap_or_else(|_| workdir.to_path_buf());
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    rel.iter()
        .filter_map(|p| {
            resolved(&root.join(p))
                .strip_prefix(&workdir)
                .ok()
                .map(Path::to_path_buf)
        })
        .collect()
}

fn index_to_worktree(
    repo: &Repository,
    workdir: &Path,
    rel: &[PathBuf],
) -> Result<(), git2::Error> {
    stage(&mut repo.index()?, workdir, rel)
}

/// The touched paths in `index` at their work-tree bytes, written.
fn stage(index: &mut git2::Index, workdir: &Path, rel: &[PathBuf]) -> Result<(), git2::Error> {
    for p in rel {
        if workdir.join(p).exists() {
            index.add_path(p)?;
        } else {
            let _ = index.remove_path(p);
        }
    }
    index.write()
}

/// The first of `paths` (absolute, as they are before a change) that holds
/// uncommitted edits: tracked, and different from HEAD in the work tree or
/// the index. A committing change would carry such an edit into its own
/// commit. Untracked files are not counted: a plan the agent just wrote,
/// or a file an earlier `--no-commit` change made, belongs to the tree and
/// is committed with the change that touches it. Shown relative to `root`.
pub fn uncommitted(repo: &Repository, root: &Path, paths: &[PathBuf]) -> Option<String> {
    let workdir = repo.workdir()?;
    let workdir = std::fs::canonicalize(workdir).unwrap_or_else(|_| workdir.to_path_buf());
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut opts = git2::StatusOptions::new();
    opts.include_untracked(false)
        .include_ignored(false)
        .disable_pathspec_match(true);
    let mut any = false;
    for p in paths {
        if let Ok(r) = resolved(&root.join(p)).strip_prefix(&workdir) {
            opts.pathspec(r.to_string_lossy().replace('\\', "/"));
            any = true;
        }
    }
    if !any {
        return None;
    }
    let dirty = git2::Status::WT_MODIFIED
        | git2::Status::WT_DELETED
        | git2::Status::WT_TYPECHANGE
        | git2::Status::WT_RENAMED
        | git2::Status::INDEX_MODIFIED
        | git2::Status::INDEX_DELETED
        | git2::Status::INDEX_TYPECHANGE
        | git2::Status::INDEX_RENAMED;
    let statuses = repo.statuses(Some(&mut opts)).ok()?;
    let first = statuses
        .iter()
        .find(|e| e.status().intersects(dirty))?
        .path()
        .ok()
        .map(|p| workdir.join(p))?;
    Some(
        first
            .strip_prefix(&root)
            .unwrap_or(&first)
            .display()
            .to_string(),
    )
}

/// What committing in `root` would meet.
pub enum RepoState {
    /// Not inside a git work tree: nothing will be committed.
    None,
    /// Another git process holds this lock file (the index's, HEAD's or the
    /// branch's): the commit would fail after the files were written.
    Locked(PathBuf),
    /// Ready: the open repository, and HEAD's commit (`None` on an unborn
    /// branch).
    Ready {
        repo: Box<Repository>,
        head: Option<String>,
    },
}

/// The git lock files a commit of gsd's takes: the index, HEAD, the branch
/// ref and their reflogs.
fn commit_locks(repo: &Repository) -> Vec<PathBuf> {
    let git = repo.path();
    let mut locks = vec![
        git.join("index.lock"),
        git.join("HEAD.lock"),
        git.join("logs/HEAD.lock"),
    ];
    if let Ok(head) = repo.find_reference("HEAD")
        && let Ok(Some(target)) = head.symbolic_target()
    {
        locks.push(git.join(format!("{target}.lock")));
        locks.push(git.join("logs").join(format!("{target}.lock")));
    }
    locks
}

pub fn repository_state(root: &Path) -> RepoState {
    let Ok(repo) = Repository::discover(root) else {
        return RepoState::None;
    };
    if repo.workdir().is_none() {
        return RepoState::None;
    }
    if let Some(held) = commit_locks(&repo).into_iter().find(|l| l.exists()) {
        return RepoState::Locked(held);
    }
    let head = repo
        .head()
        .ok()
        .and_then(|h| h.target())
        .map(|o| o.to_string());
    RepoState::Ready {
        repo: Box::new(repo),
        head,
    }
}

/// Remove git lock files created at or after `since` (by a gsd process
/// killed while committing; the caller holds the project lock and has a
/// journal written at `since`, so no live gsd owns them).
pub fn remove_locks_since(root: &Path, since: std::time::SystemTime) {
    let Ok(repo) = Repository::discover(root) else {
        return;
    };
    for l in commit_locks(&repo) {
        if std::fs::metadata(&l)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t >= since)
        {
            let _ = std::fs::remove_file(&l);
        }
    }
}

/// HEAD's id when HEAD is the commit a change made on top of `parent` with
/// `message` (it was made, and the process died before its journal went).
pub fn made_after(root: &Path, parent: Option<&str>, message: &str) -> Option<String> {
    let repo = Repository::discover(root).ok()?;
    let head = repo.head().ok()?.peel_to_commit().ok()?;
    let parents: Vec<String> = head.parent_ids().map(|p| p.to_string()).collect();
    let expected: Vec<String> = parent.map(str::to_owned).into_iter().collect();
    (parents == expected && head.message().ok().map(str::trim) == Some(message.trim()))
        .then(|| head.id().to_string())
}

/// Bring git's index up to the work tree for `rel` (a commit that was made
/// before its process died did not get to it).
pub fn refresh_index(root: &Path, rel: &[PathBuf]) -> Result<(), CommitError> {
    let repo = Repository::discover(root)?;
    let Some(workdir) = repo.workdir().map(Path::to_path_buf) else {
        return Ok(());
    };
    let rel = in_workdir(root, &workdir, rel);
    let workdir = std::fs::canonicalize(&workdir).unwrap_or(workdir);
    Ok(index_to_worktree(&repo, &workdir, &rel)?)
}

/// Signed repositories: `git commit --only` commits just these paths and
/// signs as configured; other staged changes stay staged.
fn commit_with_cli(
    workdir: &Path,
    rel: &[PathBuf],
    message: &str,
) -> Result<CommitOutcome, CommitError> {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .current_dir(workdir)
            .env("GIT_TERMINAL_PROMPT", "0")
            .args(args)
            .output()
            .map_err(CommitError::Spawn)
    };
    let paths: Vec<String> = rel.iter().map(|p| p.display().to_string()).collect();
    // New files must be known to git before `--only` can commit them.
    let mut add = vec!["add", "--intent-to-add", "--"];
    add.extend(paths.iter().map(String::as_str));
    let o = git(&add)?;
    if !o.status.success() {
        return Err(CommitError::Cli(
            String::from_utf8_lossy(&o.stderr).trim().to_owned(),
        ));
    }
    let mut args = vec!["commit", "--quiet", "--only", "-m", message, "--"];
    args.extend(paths.iter().map(String::as_str));
    let o = git(&args)?;
    if !o.status.success() {
        return Err(CommitError::Signed(
            String::from_utf8_lossy(&o.stderr).trim().to_owned(),
        ));
    }
    let head = git(&["rev-parse", "HEAD"])?;
    Ok(CommitOutcome::Committed {
        id: String::from_utf8_lossy(&head.stdout).trim().to_owned(),
        signed: true,
    })
}
