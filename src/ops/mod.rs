//! Use cases: what each write command means, as library functions.
//!
//! A use case reads the loaded [`Workspace`] and returns a [`Change`] — the
//! change set for the store and a line per effect for people — or a typed
//! error. [`run`] is the frame around every one of them: take the project's
//! [`Transaction`] (lock, and finish an interrupted change first), load the
//! tree under it, compute, then show the diff (`--dry-run`) or apply and
//! commit. `src/cli` only parses, calls these and renders the outcome.

pub mod config;
pub mod convert;
pub mod fm;
pub mod init;
pub mod intel;
pub mod phase;
pub mod plan;
pub mod requirements;
pub mod roadmap;
pub mod state;
pub mod summary;

use std::path::{Path, PathBuf};

use crate::edit::EditError;
use crate::model::Workspace;
use crate::model::workspace::{Scope, WorkspaceError, find_root};
use crate::store::{
    ChangeSet, CommitPolicy, FileChange, Recovery, StoreError, StoreOutcome, Transaction,
};

/// What one use case wants stored, and how to say it.
#[derive(Debug, Clone, Default)]
pub struct Change {
    pub set: ChangeSet,
    /// One line per effect, for people.
    pub summary: Vec<String>,
}

impl Change {
    /// A change of plain file writes.
    pub fn writes(message: String, summary: Vec<String>, writes: Vec<FileChange>) -> Change {
        Change {
            set: ChangeSet::writes(message, writes),
            summary,
        }
    }
}

/// How a write command stores its change.
#[derive(Debug, Clone, Copy, Default)]
pub struct WriteOptions {
    /// Compute and show, write nothing.
    pub dry_run: bool,
    /// Write, but do not commit.
    pub no_commit: bool,
    /// Commit touched files that hold the user's own uncommitted edits with
    /// the change (otherwise it is refused).
    pub include_dirty: bool,
}

impl WriteOptions {
    /// A Ralph loop's own records (history, summary, STATE, roadmap): the
    /// agent it ran works in the same tree and may leave planning files
    /// uncommitted; they belong to the iteration being recorded, so they
    /// are committed with the record rather than refused.
    pub fn recording() -> WriteOptions {
        WriteOptions {
            include_dirty: true,
            ..WriteOptions::default()
        }
    }
}

/// What a write command did.
#[derive(Debug, Clone)]
pub enum Applied {
    /// `--dry-run`: the diff of what would be written.
    DryRun {
        message: String,
        /// Paths relative to the root that would change.
        files: Vec<String>,
        /// Deletes and renames, then a unified diff per written file.
        diff: String,
    },
    Stored {
        message: String,
        summary: Vec<String>,
        outcome: StoreOutcome,
    },
}

/// A write command's answer: what it did, and the interrupted change it
/// finished first, if there was one.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub applied: Applied,
    pub recovered: Option<Recovery>,
}

/// Why a use case could not run.
#[derive(Debug, thiserror::Error)]
pub enum OpError {
    #[error(transparent)]
    Workspace(#[from] WorkspaceError),
    #[error(transparent)]
    Edit(#[from] EditError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Render(#[from] crate::render::RenderError),
    #[error(transparent)]
    Plan(#[from] crate::model::plan_ref::PlanLookupError),
    #[error(transparent)]
    Phase(#[from] crate::model::plan_ref::PhaseLookupError),
    /// A file the use case needs is missing.
    #[error("{file} does not exist")]
    Missing { file: String, hint: String },
    /// The request itself is wrong.
    #[error("{message}")]
    Invalid {
        message: String,
        help: Option<String>,
    },
}

impl OpError {
    pub fn invalid(message: impl Into<String>, help: Option<String>) -> OpError {
        OpError::Invalid {
            message: message.into(),
            help,
        }
    }
}

/// The commit policy for `opts` in `ws`.
pub fn policy(ws: &Workspace, opts: WriteOptions) -> CommitPolicy {
    if opts.no_commit {
        CommitPolicy::Skip
    } else if !ws.config().commit_docs() {
        CommitPolicy::DocsNotCommitted
    } else {
        CommitPolicy::Commit
    }
}

/// Run one write use case on the project above `cwd`: everything from
/// reading to committing happens under the project lock.
pub fn run(
    cwd: &Path,
    opts: WriteOptions,
    scope: Scope,
    plan: impl FnOnce(&Workspace) -> Result<Change, OpError>,
) -> Result<Outcome, OpError> {
    run_chosen(&find_root(cwd)?, opts, scope, plan)
}

/// `run` for a known project root, on the workstream a command works on
/// there (Ralph's writes: the same track its reads came from).
pub fn run_chosen(
    root: &Path,
    opts: WriteOptions,
    scope: Scope,
    plan: impl FnOnce(&Workspace) -> Result<Change, OpError>,
) -> Result<Outcome, OpError> {
    let workstream = crate::model::workstream::resolve(root)
        .map_err(crate::model::workspace::WorkspaceError::from)?;
    run_in(root, workstream.as_deref(), opts, scope, plan)
}

/// `run` for a known project root, on its root `.planning/` (gsd-sdk's
/// calls name their workstream themselves).
pub fn run_at(
    root: &Path,
    opts: WriteOptions,
    scope: Scope,
    plan: impl FnOnce(&Workspace) -> Result<Change, OpError>,
) -> Result<Outcome, OpError> {
    run_in(root, None, opts, scope, plan)
}

/// `run` for a known project root and workstream (None: the root).
pub fn run_in(
    root: &Path,
    workstream: Option<&str>,
    opts: WriteOptions,
    scope: Scope,
    plan: impl FnOnce(&Workspace) -> Result<Change, OpError>,
) -> Result<Outcome, OpError> {
    let tx = Transaction::begin(root)?.include_dirty(opts.include_dirty);
    let recovered = tx.recovered.clone();
    let ws = Workspace::load_in(root, scope, workstream)?;
    let change = plan(&ws)?;
    let applied = if opts.dry_run {
        dry_run(root, &change.set)
    } else {
        let outcome = tx.apply(&change.set, policy(&ws, opts))?;
        Applied::Stored {
            message: change.set.message,
            summary: change.summary,
            outcome,
        }
    };
    Ok(Outcome { applied, recovered })
}

fn dry_run(root: &Path, set: &ChangeSet) -> Applied {
    let (files, diff) = diff(root, set);
    Applied::DryRun {
        message: set.message.clone(),
        files,
        diff,
    }
}

/// What `set` changes, for people: the paths it writes (relative to
/// `root`), and its deletes and renames then a unified diff per written
/// file. `--dry-run` shows it; the MCP server returns it with the commit.
pub fn diff(root: &Path, set: &ChangeSet) -> (Vec<String>, String) {
    let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
    let mut diff = String::new();
    for d in &set.deletes {
        diff.push_str(&format!("delete {}\n", rel(d)));
    }
    for (from, to) in &set.moves {
        diff.push_str(&format!("rename {} → {}\n", rel(from), rel(to)));
    }
    let mut files = Vec::new();
    for c in set.real_writes() {
        let before = String::from_utf8_lossy(c.before.as_deref().unwrap_or_default());
        let after = String::from_utf8_lossy(&c.after);
        let name = rel(&c.path);
        diff.push_str(
            &similar::TextDiff::from_lines(before.as_ref(), after.as_ref())
                .unified_diff()
                .context_radius(2)
                .header(&format!("a/{name}"), &format!("b/{name}"))
                .to_string(),
        );
        files.push(name);
    }
    (files, diff)
}

/// A file's new text as a change of its current bytes.
pub fn rewrite(doc: &crate::model::Document, new_text: String) -> FileChange {
    FileChange {
        path: doc.path().to_path_buf(),
        before: Some(doc.source.bytes().to_vec()),
        after: new_text.into_bytes(),
    }
}

/// `path` relative to the workspace root, for summaries.
fn rel(ws: &Workspace, p: &Path) -> PathBuf {
    ws.rel(p).to_path_buf()
}

/// The project root when `path` lies in a project's `.planning/` folder: a
/// planning file, which only the transaction may write.
pub fn planning_root(path: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(path).ok()?;
    let dir = abs.parent()?;
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let root = find_root(&dir).ok()?;
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    dir.starts_with(root.join(".planning")).then_some(root)
}

/// Write an output file (`--out`): a planning file goes through the
/// transaction (refusals, journal, one commit) and its outcome is returned;
/// anything else is the user's own file, replaced atomically.
pub fn write_output(
    path: &Path,
    bytes: Vec<u8>,
    message: String,
) -> Result<Option<Outcome>, OpError> {
    let Some(root) = planning_root(path) else {
        crate::store::atomic::write(path, &bytes).map_err(|source| {
            OpError::Store(StoreError::Write {
                path: path.display().to_string(),
                source,
            })
        })?;
        return Ok(None);
    };
    let before = std::fs::read(path).ok();
    let shown = path.display().to_string();
    run_at(&root, WriteOptions::default(), Scope::Index, |_| {
        Ok(Change::writes(
            message,
            vec![format!("wrote {shown}")],
            vec![FileChange {
                path: path.to_path_buf(),
                before,
                after: bytes,
            }],
        ))
    })
    .map(Some)
}
