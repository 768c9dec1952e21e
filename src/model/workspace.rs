//! The whole `.planning/` tree, found by walking up like git and loaded in
//! one pass (in parallel): core documents, phases (current and archived in
//! milestones), plans, summaries, quick tasks and every other file.
//!
//! Binary files and files over `MAX_FILE_BYTES` are listed as skipped, never
//! parsed; a file that is not UTF-8 is kept byte for byte and reported.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::doc::Source;

use super::config::{Config, ConfigError};
use super::document::Document;
use super::ids::{PhaseId, PlanId};
use super::plan::Plan;
use super::project::Project;
use super::requirements::Requirements;
use super::roadmap::Roadmap;
use super::state::State;
use super::summary::Summary;

/// Files larger than this are not parsed (planning files are small; a huge
/// one is a mistake, and parsing it must not stall CI).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Below this many files to read, loading stays on one thread.
const PARALLEL_FROM: usize = 64;

/// Why a file was not parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    Binary,
    TooLarge(u64),
    /// Not a regular file, said as "a link to a folder", "a named pipe", …
    NotAFile(String),
    Unreadable(String),
}

#[derive(Debug, Clone)]
pub struct Skipped {
    pub rel_path: PathBuf,
    pub reason: SkipReason,
}

/// Where a phase folder lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhaseLocation {
    /// `phases/`
    Current,
    /// `milestones/vX.Y-phases/`
    Archived(String),
}

#[derive(Debug, Clone)]
pub struct Phase {
    pub dir: PathBuf,
    pub dir_name: String,
    /// None for a non-numeric folder such as `post-m1-enhancements`.
    pub id: Option<PhaseId>,
    pub slug: String,
    pub location: PhaseLocation,
    /// Plan file names (nested `plans/` files included), always known.
    pub plan_files: Vec<String>,
    /// For each of `plan_files`, whether a summary exists (computed once:
    /// several rules and commands ask).
    plan_done: Vec<bool>,
    /// Summary file names, always known.
    pub summary_files: Vec<String>,
    /// Names of the other files in the folder (CONTEXT, RESEARCH, …).
    pub other_files: Vec<String>,
    /// Parsed plans, summaries and other files (only with `Scope::Full`).
    pub plans: Vec<Plan>,
    pub summaries: Vec<Summary>,
    pub other_docs: Vec<Document>,
    /// Its VERIFICATION.md says the phase passed (read with `Scope::Full`
    /// and `Scope::Skeleton`; false where the folder was only listed).
    verified: bool,
}

impl Phase {
    pub fn has_file_ending(&self, suffix: &str) -> bool {
        self.other_files.iter().any(|f| f.ends_with(suffix))
    }

    /// Whether the plan file `name` has a summary: same stem, or same
    /// canonical plan ID (`03-01-auth-PLAN.md` ↔ `03-01-SUMMARY.md`).
    pub fn has_summary_for(&self, plan_file: &str) -> bool {
        match self.plan_files.iter().position(|p| p == plan_file) {
            Some(i) => self.plan_done[i],
            None => summary_matches(&self.summary_files, plan_file),
        }
    }

    /// Whether a summary in the folder names plan `id` (whether or not
    /// its PLAN file was kept).
    pub fn summary_names(&self, id: &PlanId) -> bool {
        names_plan(&self.summary_files, id)
    }

    /// Whether a PLAN file in the folder is plan `id`.
    pub fn has_plan(&self, id: &PlanId) -> bool {
        names_plan(&self.plan_files, id)
    }

    pub fn plan_has_summary(&self, plan: &Plan) -> bool {
        self.has_summary_for(plan.doc.file_name())
    }

    /// Its VERIFICATION.md says the phase passed: the phase ran to its
    /// end (known when the folder's VERIFICATION was read: `Scope::Full`
    /// and `Scope::Skeleton`).
    pub fn verified(&self) -> bool {
        self.verified
    }

    pub fn plan_count(&self) -> usize {
        self.plan_files.len()
    }

    pub fn completed_plans(&self) -> usize {
        self.plan_files
            .iter()
            .filter(|p| self.has_summary_for(p))
            .count()
    }

    /// Status from disk (GSD-FORMATS §4.3 `disk_status`).
    pub fn disk_status(&self) -> &'static str {
        let done = self.completed_plans();
        let total = self.plan_count();
        if total > 0 && done >= total {
            "complete"
        } else if done > 0 {
            "partial"
        } else if total > 0 {
            "planned"
        } else if self.has_file_ending("RESEARCH.md") {
            "researched"
        } else if self.has_file_ending("CONTEXT.md") {
            "discussed"
        } else {
            "empty"
        }
    }
}

/// A folder that keeps work put aside, in any of the schemes real trees
/// use: `archive/`, `_archived/`, `.archive`, `archives`, `history/`,
/// `phases-archive/`, `milestones/`, `old/`, `superseded/`.
pub fn is_archive_folder(name: &str) -> bool {
    let c = name.to_lowercase();
    let c = c.trim_start_matches(['_', '.', '-']);
    c.starts_with("archive")
        || c.ends_with("-archive")
        || c.ends_with("_archive")
        || matches!(
            c,
            "history" | "milestones" | "old" | "superseded" | "deprecated" | "abandoned"
        )
}

/// How much of the tree to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// STATE.md alone, no phase folder listed (`gsd state get`).
    State,
    /// ROADMAP.md, STATE.md, PROJECT.md (its `## Current Milestone`) and
    /// config.json (its `project_code`) parsed, phase folders listed by
    /// name only: what the roadmap reading needs (`gsd roadmap`, `gsd state`).
    Reading,
    /// Every core document parsed; phase folders listed by name only.
    /// Enough for phase commands and writes, and much cheaper on big trees.
    Index,
    /// Every file outside the phase folders read and parsed; the phase
    /// folders listed, and of their files only VERIFICATION.md read (for
    /// whether the phase passed). Lint loads this, then reads the phase
    /// folders a few at a time ([`Workspace::load_phases`]), so a big tree
    /// is never held in memory whole.
    Skeleton,
    /// Every file read and parsed (plan commands, the corpus test).
    Full,
}

impl Scope {
    /// The core files a scope reads, by name under the planning folder;
    /// `None` for every file of the tree.
    fn core_files(self) -> Option<&'static [&'static str]> {
        match self {
            Scope::State => Some(&["STATE.md"]),
            Scope::Reading => Some(&["ROADMAP.md", "STATE.md", "PROJECT.md", "config.json"]),
            Scope::Index => Some(&[
                "PROJECT.md",
                "ROADMAP.md",
                "STATE.md",
                "REQUIREMENTS.md",
                "config.json",
            ]),
            Scope::Skeleton | Scope::Full => None,
        }
    }
}

/// A loaded planning tree.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The project root (the folder holding `.planning/`).
    pub root: PathBuf,
    /// The planning folder read: `.planning/`, or the workstream's folder
    /// `.planning/workstreams/<name>/` (see [`super::workstream`]).
    pub planning: PathBuf,
    /// The workstream read, if any.
    pub workstream: Option<String>,
    pub project: Option<Project>,
    pub roadmap: Option<Roadmap>,
    pub state: Option<State>,
    pub requirements: Option<Requirements>,
    pub config: Option<Result<Config, ConfigError>>,
    pub config_doc: Option<Document>,
    /// Current phases first (sorted), then archived ones.
    pub phases: Vec<Phase>,
    /// Plans under `quick/` and other folders outside phases.
    pub loose_plans: Vec<Plan>,
    /// Every other text file.
    pub other: Vec<Document>,
    pub skipped: Vec<Skipped>,
}

/// Phase folders read whole from a skeleton ([`Workspace::load_phases`]):
/// the phases in the skeleton's order, and the files of theirs that were
/// not parsed.
#[derive(Debug)]
pub struct PhaseBatch {
    pub phases: Vec<Phase>,
    pub skipped: Vec<Skipped>,
}

/// Why no workspace could be loaded.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum WorkspaceError {
    #[error("no .planning/ directory in {start} or any parent")]
    #[diagnostic(
        code(gsd::no_planning),
        help("run `gsd init` to create one, or pass -C DIR to point at a project")
    )]
    NotFound { start: String },
    /// The folder to start from is not there: never a fall-back to a
    /// project that encloses where it would be (a typo in `-C` would
    /// otherwise read, or edit, the wrong project).
    #[error("{start} does not exist")]
    #[diagnostic(
        code(gsd::no_such_dir),
        help("check the path (-C DIR names the project folder or a folder inside it)")
    )]
    NoSuchDir { start: String },
    #[error("cannot read {path}: {message}")]
    #[diagnostic(code(gsd::io))]
    Io { path: String, message: String },
    #[error(transparent)]
    #[diagnostic(transparent)]
    Workstream(#[from] super::workstream::WorkstreamError),
}

/// Find the project root: the first of `start` and its parents that holds
/// a `.planning/` folder (or `start` itself when it is a `.planning` folder).
pub fn find_root(start: &Path) -> Result<PathBuf, WorkspaceError> {
    let start = std::path::absolute(start).map_err(|e| WorkspaceError::Io {
        path: start.display().to_string(),
        message: e.to_string(),
    })?;
    if !start.is_dir() {
        return Err(WorkspaceError::NoSuchDir {
            start: start.display().to_string(),
        });
    }
    if start.file_name().is_some_and(|n| n == ".planning") {
        return Ok(start.parent().unwrap_or(&start).to_path_buf());
    }
    let mut dir = Some(start.as_path());
    while let Some(d) = dir {
        if d.join(".planning").is_dir() {
            return Ok(d.to_path_buf());
        }
        dir = d.parent();
    }
    Err(WorkspaceError::NotFound {
        start: start.display().to_string(),
    })
}

const BINARY_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "webp", "ico", "pdf", "zip", "gz", "tgz", "db", "sqlite",
    "sqlite3", "wasm", "woff", "woff2", "ttf", "mp4", "mp3",
];

/// One file found by the walk, read and classified.
enum Loaded {
    Text(Box<Document>),
    Skipped(Skipped),
}

/// Every file under `dir`, in name order, depth first. Folders with
/// several subfolders (`phases/`, `milestones/`) are listed on the thread
/// pool: on a 1,000-phase tree the listing alone was a tenth of `gsd lint`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = sorted_entries(dir);
    let is_dir = |e: &std::fs::DirEntry| e.file_type().is_ok_and(|t| t.is_dir());
    if entries.iter().filter(|e| is_dir(e)).count() > 1 {
        let parts: Vec<Vec<PathBuf>> = entries
            .par_iter()
            .map(|e| {
                let mut part = Vec::new();
                walk_entry(e, &mut part);
                part
            })
            .collect();
        out.extend(parts.into_iter().flatten());
    } else {
        for e in &entries {
            walk_entry(e, out);
        }
    }
}

/// Every file under `dir` as [`walk`] lists them, except those in the
/// folders `skip` (absolute paths) names.
fn walk_outside(dir: &Path, skip: &std::collections::HashSet<PathBuf>, out: &mut Vec<PathBuf>) {
    if skip.is_empty() {
        return walk(dir, out);
    }
    for e in &sorted_entries(dir) {
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        match is_dir {
            true if skip.contains(&e.path()) => {}
            true => walk_outside(&e.path(), skip, out),
            false => walk_entry(e, out),
        }
    }
}

/// The entries of `dir` in name order (none when it cannot be read).
fn sorted_entries(dir: &Path) -> Vec<std::fs::DirEntry> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    // Each name is taken once: sorting by `DirEntry::file_name` made a new
    // OsString for every comparison (a tenth of `gsd roadmap` on a big tree).
    let mut named: Vec<_> = entries.flatten().map(|e| (e.file_name(), e)).collect();
    // Names in a folder are unique, so the unstable sort gives one order.
    named.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    named.into_iter().map(|(_, e)| e).collect()
}

fn walk_entry(e: &std::fs::DirEntry, out: &mut Vec<PathBuf>) {
    let Ok(ft) = e.file_type() else { return };
    if ft.is_dir() {
        walk(&e.path(), out);
    } else {
        // Links, pipes and devices too: reading says what they are.
        out.push(e.path());
    }
}

/// Read a regular file unless it is larger than `MAX_FILE_BYTES`.
///
/// The walk lists links as files, and a link may lead to a folder, to
/// nothing, or to a named pipe — where a plain open would wait forever for a
/// writer. So the file is opened non-blocking and checked with the one
/// fstat before anything is read.
fn read_limited(path: &Path) -> Result<Vec<u8>, SkipReason> {
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let unreadable = |e: std::io::Error| SkipReason::Unreadable(e.to_string());
    let mut file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dangling = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
            return Err(if dangling {
                SkipReason::NotAFile("a link to something that does not exist".into())
            } else {
                unreadable(e)
            });
        }
        Err(e) => return Err(unreadable(e)),
    };
    let meta = file.metadata().map_err(unreadable)?;
    if !meta.is_file() {
        let t = meta.file_type();
        let kind = if t.is_dir() {
            "a folder (gsd does not follow linked folders)"
        } else if t.is_fifo() {
            "a named pipe"
        } else if t.is_socket() {
            "a socket"
        } else if t.is_block_device() || t.is_char_device() {
            "a device"
        } else {
            "something other than a file"
        };
        let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink());
        let what = if link {
            format!("a link to {kind}")
        } else {
            kind.to_owned()
        };
        return Err(SkipReason::NotAFile(what));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(SkipReason::TooLarge(meta.len()));
    }
    // Ask for one byte more than fstat says: a short read is the end of
    // the file, so the usual case is a single read call.
    let len = meta.len() as usize;
    let mut bytes = vec![0u8; len + 1];
    let mut filled = 0;
    loop {
        let n = file.read(&mut bytes[filled..]).map_err(unreadable)?;
        filled += n;
        if n == 0 || filled == len {
            break; // end of file (asked for len + 1, got exactly len)
        }
        if filled > len {
            // The file grew while we read it: take the rest as it comes.
            bytes.truncate(filled);
            file.read_to_end(&mut bytes).map_err(unreadable)?;
            return Ok(bytes);
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_owned()
}

fn load_file(root: &Path, path: &Path) -> Loaded {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let skip = |reason| {
        Loaded::Skipped(Skipped {
            rel_path: rel.to_path_buf(),
            reason,
        })
    };
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if BINARY_EXTENSIONS.contains(&ext.as_str()) {
        return skip(SkipReason::Binary);
    }
    // One open, one fstat, one sized read: this runs for every file of the tree.
    let bytes = match read_limited(path) {
        Ok(b) => b,
        Err(reason) => return skip(reason),
    };
    // A NUL early on marks a binary file, except in the text formats a
    // planning tree holds: there it is text saved as UTF-16 (whole, or a
    // part appended by a shell), which lint names with the file's weight
    // rather than skipping a ROADMAP.md or REQUIREMENTS.md as "binary".
    let text_format = matches!(
        ext.as_str(),
        "md" | "markdown" | "json" | "txt" | "yaml" | "yml"
    );
    if !text_format && memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some() {
        return skip(SkipReason::Binary);
    }
    let source = Source::from_bytes(path, bytes);
    if ext == "md" || ext == "markdown" {
        Loaded::Text(Box::new(Document::parse(source, rel)))
    } else {
        Loaded::Text(Box::new(Document::plain(source, rel)))
    }
}

/// A phase folder's files, (name, nested), as listed; and whether its
/// VERIFICATION.md says it passed (read for a skeleton only).
type Listing = (Vec<(String, Nest)>, bool);

/// A file read and parsed into what its place in the tree says it is.
enum Parsed {
    Skipped(Skipped),
    Project(Box<Project>),
    Roadmap(Box<Roadmap>),
    State(Box<State>),
    Requirements(Box<Requirements>),
    Config(Result<Config, ConfigError>, Box<Document>),
    /// Index of the phase folder, then the file.
    PhasePlan(usize, Box<Plan>),
    PhaseSummary(usize, Box<Summary>),
    PhaseOther(usize, Box<Document>),
    LoosePlan(Box<Plan>),
    Other(Box<Document>),
}

/// One walked file: its entry in its phase folder's listing (every file
/// there is listed, read or not) and what it was read as.
struct Placed {
    listed: Option<(usize, String, Nest)>,
    file: Parsed,
}

/// Read, parse and type one file (runs on the thread pool).
fn place_file(
    root: &Path,
    path: &Path,
    base: &Path,
    dir_index: &HashMap<PathBuf, usize>,
) -> Placed {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let role = role(rel, base);
    let phase = match &role {
        Role::PhaseFile { phases_dir, .. } => dir_index
            .get(phases_dir)
            .map(|&i| (i, Nest::of(rel, phases_dir))),
        _ => None,
    };
    let listed = phase.map(|(i, nested)| (i, file_name(rel), nested));
    let doc = match load_file(root, path) {
        Loaded::Text(doc) => doc,
        Loaded::Skipped(s) => {
            return Placed {
                listed,
                file: Parsed::Skipped(s),
            };
        }
    };
    let file = match (role, phase) {
        (Role::Project, _) => Parsed::Project(Box::new(Project::parse(*doc))),
        (Role::Roadmap, _) => Parsed::Roadmap(Box::new(Roadmap::parse(*doc))),
        (Role::State, _) => Parsed::State(Box::new(State::parse(*doc))),
        (Role::Requirements, _) => Parsed::Requirements(Box::new(Requirements::parse(*doc))),
        (Role::Config, _) => Parsed::Config(Config::parse(doc.text()), doc),
        (Role::PhaseFile { .. }, Some((i, nested))) => {
            let beside = |n: &str| path.with_file_name(n).is_file();
            match phase_file_kind(doc.file_name(), nested, beside) {
                PhaseFileKind::Plan => Parsed::PhasePlan(i, Box::new(Plan::parse(*doc))),
                PhaseFileKind::Summary => Parsed::PhaseSummary(i, Box::new(Summary::parse(*doc))),
                PhaseFileKind::Other => Parsed::PhaseOther(i, doc),
            }
        }
        (Role::LoosePlan, _) => Parsed::LoosePlan(Box::new(Plan::parse(*doc))),
        (Role::PhaseFile { .. } | Role::Other, _) => Parsed::Other(doc),
    };
    Placed { listed, file }
}

/// What a file is, from its place in the tree.
#[derive(Debug, PartialEq, Eq)]
enum Role {
    Project,
    Roadmap,
    State,
    Requirements,
    Config,
    PhaseFile {
        phases_dir: PathBuf,
        location: PhaseLocation,
    },
    LoosePlan,
    Other,
}

/// GSD's plan file names: `PLAN.md`, `NN-MM-PLAN.md` (any stem ending in
/// `-PLAN`), the older `NN-PLAN-MM.md` and the hybrid `PLAN-NNN.md` — the
/// word `PLAN` with only numbers after it. A note whose name merely holds
/// the word (`PLAN-CHECK.md`, `UAT-PLAN-TEMPLATE.md`, `…-AND-PLANS.md`) is
/// not a plan.
fn is_plan_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".md") else {
        return false;
    };
    if stem.contains(".pre-bounce") || stem.ends_with("-OUTLINE") {
        return false;
    }
    let parts: Vec<&str> = stem.split('-').collect();
    let Some(at) = parts.iter().rposition(|p| *p == "PLAN") else {
        return false;
    };
    parts[at + 1..]
        .iter()
        .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// What a file is, from its place under the planning folder read (`base`,
/// relative to the root: `.planning` or a workstream's folder). PROJECT.md
/// and config.json are shared: a workstream without its own reads the root's.
fn role(rel: &Path, base: &Path) -> Role {
    let Ok(inner) = rel.strip_prefix(base) else {
        return match rel
            .iter()
            .filter_map(|p| p.to_str())
            .collect::<Vec<_>>()
            .as_slice()
        {
            [".planning", "PROJECT.md"] => Role::Project,
            [".planning", "config.json"] => Role::Config,
            _ => Role::Other,
        };
    };
    let parts: Vec<&str> = inner.iter().filter_map(|p| p.to_str()).collect();
    match parts.as_slice() {
        ["PROJECT.md"] => Role::Project,
        ["ROADMAP.md"] => Role::Roadmap,
        ["STATE.md"] => Role::State,
        ["REQUIREMENTS.md"] => Role::Requirements,
        ["config.json"] => Role::Config,
        ["phases", dir, _file, ..] => Role::PhaseFile {
            phases_dir: base.join("phases").join(dir),
            location: PhaseLocation::Current,
        },
        ["milestones", ms, dir, _file, ..] if ms.ends_with("-phases") => Role::PhaseFile {
            phases_dir: base.join("milestones").join(ms).join(dir),
            location: PhaseLocation::Archived(ms.trim_end_matches("-phases").to_owned()),
        },
        // Quick tasks are GSD's only plans outside phase folders; a file
        // elsewhere whose name holds "PLAN" (`v0.3.0/PLAN.md`, a review
        // note) is the user's own document, not a plan GSD would run.
        [.., name] if is_plan_name(name) && parts.contains(&"quick") => Role::LoosePlan,
        _ => Role::Other,
    }
}

impl Workspace {
    /// Find and load the workspace containing `start`.
    pub fn discover(start: &Path) -> Result<Workspace, WorkspaceError> {
        Workspace::discover_with(start, Scope::Full)
    }

    /// Find the project containing `start` and load the workstream a
    /// command works on there ([`super::workstream::resolve`]).
    pub fn discover_with(start: &Path, scope: Scope) -> Result<Workspace, WorkspaceError> {
        let root = find_root(start)?;
        Workspace::load_chosen(&root, scope)
    }

    /// Load the project at `root` on the workstream a command works on.
    pub fn load_chosen(root: &Path, scope: Scope) -> Result<Workspace, WorkspaceError> {
        let ws = super::workstream::resolve(root)?;
        Workspace::load_in(root, scope, ws.as_deref())
    }

    /// Load the whole `.planning/` tree under the project root `root`.
    pub fn load(root: &Path) -> Result<Workspace, WorkspaceError> {
        Workspace::load_with(root, Scope::Full)
    }

    /// Load the root `.planning/` tree under `root` (never a workstream),
    /// reading as much as `scope` says.
    pub fn load_with(root: &Path, scope: Scope) -> Result<Workspace, WorkspaceError> {
        Workspace::load_in(root, scope, None)
    }

    /// Load the planning tree under `root`: the root `.planning/`, or the
    /// workstream `workstream` with the shared PROJECT.md and config.json.
    pub fn load_in(
        root: &Path,
        scope: Scope,
        workstream: Option<&str>,
    ) -> Result<Workspace, WorkspaceError> {
        let top = root.join(".planning");
        if !top.is_dir() {
            return Err(WorkspaceError::NotFound {
                start: root.display().to_string(),
            });
        }
        let base = match workstream {
            Some(w) => PathBuf::from(".planning")
                .join("workstreams")
                .join(super::workstream::named(root, w)?),
            None => PathBuf::from(".planning"),
        };
        let planning = root.join(&base);
        let phase_dirs = if scope == Scope::State {
            Vec::new()
        } else {
            phase_folders(root, &base)
        };
        let dir_index: HashMap<PathBuf, usize> = phase_dirs
            .iter()
            .enumerate()
            .map(|(i, (d, _))| (d.clone(), i))
            .collect();
        let mut to_read = Vec::new();
        // Other workstreams are other trees: the root reading skips them all.
        let workstreams = top.join("workstreams");
        // A skeleton only lists the phase folders (below, a folder at a
        // time): walking their files here too made a path and a record for
        // each of a big tree's hundred thousand files, all dropped again.
        let listed_only: std::collections::HashSet<PathBuf> = if scope == Scope::Skeleton {
            phase_dirs.iter().map(|(d, _)| root.join(d)).collect()
        } else {
            Default::default()
        };
        match scope.core_files() {
            None => walk_outside(&planning, &listed_only, &mut to_read),
            Some(core) => to_read.extend(
                core.iter()
                    .map(|name| planning.join(name))
                    .filter(|p| p.is_file()),
            ),
        }
        match workstream {
            None => to_read.retain(|p| !p.starts_with(&workstreams)),
            Some(_) if matches!(scope, Scope::Index | Scope::Skeleton | Scope::Full) => {
                for name in ["PROJECT.md", "config.json"] {
                    let (own, shared) = (planning.join(name), top.join(name));
                    if !own.is_file() && shared.is_file() {
                        to_read.push(shared);
                    }
                }
            }
            Some(_) => {}
        }
        // Reading, parsing and typing each file is independent of the
        // others, so all of it runs on the thread pool; what is left for one
        // thread is moving the results into place.
        let place = |p: &PathBuf| place_file(root, p, &base, &dir_index);
        let place_all = || -> Vec<Placed> {
            if to_read.len() > PARALLEL_FROM {
                to_read.par_iter().map(place).collect()
            } else {
                to_read.iter().map(place).collect()
            }
        };
        // Names of every file in each phase folder, read or not: (name,
        // nested). A full load lists them as it reads them; the others list
        // the folders here, on the thread pool beside the parsing of the
        // core files when there are many (10,000 folders listed one after
        // the other were a fifth of `gsd state`).
        // A skeleton reads one file of them: a VERIFICATION.md, for
        // whether the phase passed.
        let listed = |(dir, _): &(PathBuf, PhaseLocation)| -> Listing {
            if scope == Scope::Full {
                return (Vec::new(), false);
            }
            let abs = root.join(dir);
            let mut files = Vec::new();
            walk(&abs, &mut files);
            let mut passed = false;
            if scope == Scope::Skeleton {
                for f in files.iter().filter(|f| {
                    f.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.ends_with("VERIFICATION.md"))
                }) {
                    let name = file_name(f);
                    let beside = |n: &str| f.with_file_name(n).is_file();
                    passed |= phase_file_kind(&name, Nest::of(f, &abs), beside)
                        == PhaseFileKind::Other
                        && matches!(load_file(root, f), Loaded::Text(doc) if super::verification::passed(&doc));
                }
            }
            let names = files
                .iter()
                .map(|f| (file_name(f), Nest::of(f, &abs)))
                .collect();
            (names, passed)
        };
        let (placed, listings): (Vec<Placed>, Vec<Listing>) = if phase_dirs.len() > PARALLEL_FROM {
            rayon::join(place_all, || phase_dirs.par_iter().map(listed).collect())
        } else {
            (place_all(), phase_dirs.iter().map(listed).collect())
        };
        let mut names = Vec::with_capacity(listings.len());
        let mut verified = Vec::with_capacity(listings.len());
        for (n, v) in listings {
            names.push(n);
            verified.push(v);
        }

        let mut ws = Workspace {
            root: root.to_path_buf(),
            planning: planning.clone(),
            workstream: workstream.map(str::to_owned),
            project: None,
            roadmap: None,
            state: None,
            requirements: None,
            config: None,
            config_doc: None,
            phases: Vec::new(),
            loose_plans: Vec::new(),
            other: Vec::new(),
            skipped: Vec::new(),
        };
        let mut contents: Vec<PhaseContents> = phase_dirs
            .iter()
            .map(|_| PhaseContents::default())
            .collect();
        // Each folder's vectors sized once: a plan is ~900 bytes inline, and
        // growing by doubling left a third of every folder's unused (tens of
        // MB at 10,000 phases).
        let mut sizes = vec![[0usize; 3]; contents.len()];
        for item in &placed {
            match &item.file {
                Parsed::PhasePlan(i, _) => sizes[*i][0] += 1,
                Parsed::PhaseSummary(i, _) => sizes[*i][1] += 1,
                Parsed::PhaseOther(i, _) => sizes[*i][2] += 1,
                _ => {}
            }
        }
        for (c, passed) in contents.iter_mut().zip(verified) {
            c.verified = passed;
        }
        for (c, [plans, summaries, others]) in contents.iter_mut().zip(sizes) {
            c.plans.reserve_exact(plans);
            c.summaries.reserve_exact(summaries);
            c.other_docs.reserve_exact(others);
        }
        for item in placed {
            if let Some((i, name, nested)) = item.listed {
                names[i].push((name, nested));
            }
            match item.file {
                Parsed::Skipped(s) => ws.skipped.push(s),
                Parsed::Project(p) => ws.project = Some(*p),
                Parsed::Roadmap(r) => ws.roadmap = Some(*r),
                Parsed::State(s) => ws.state = Some(*s),
                Parsed::Requirements(r) => ws.requirements = Some(*r),
                Parsed::Config(config, doc) => {
                    ws.config = Some(config);
                    ws.config_doc = Some(*doc);
                }
                Parsed::PhasePlan(i, plan) => contents[i].plans.push(*plan),
                Parsed::PhaseSummary(i, summary) => contents[i].summaries.push(*summary),
                Parsed::PhaseOther(i, doc) => contents[i].other_docs.push(*doc),
                Parsed::LoosePlan(plan) => ws.loose_plans.push(*plan),
                Parsed::Other(doc) => ws.other.push(*doc),
            }
        }
        ws.phases = phase_dirs
            .into_iter()
            .zip(names)
            .zip(contents)
            .map(|(((dir, location), names), contents)| build_phase(dir, location, names, contents))
            .collect();
        ws.phases.sort_by(|a, b| {
            let loc = |p: &Phase| match &p.location {
                PhaseLocation::Current => (0, String::new()),
                PhaseLocation::Archived(v) => (1, v.clone()),
            };
            loc(a).cmp(&loc(b)).then_with(|| match (&a.id, &b.id) {
                (Some(x), Some(y)) => x.cmp(y).then_with(|| a.dir_name.cmp(&b.dir_name)),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => a.dir_name.cmp(&b.dir_name),
            })
        });
        ws.other.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
        Ok(ws)
    }

    /// The phase folders `range` of [`Workspace::phases`] read and parsed
    /// whole, as `Scope::Full` reads them. Lint loads a `Scope::Skeleton`
    /// and then its phase folders a few at a time through this, dropping
    /// each batch once its rules have run: memory stays that of the
    /// skeleton and a batch, whatever the size of the tree.
    pub fn load_phases(&self, range: std::ops::Range<usize>) -> PhaseBatch {
        let base = self
            .planning
            .strip_prefix(&self.root)
            .unwrap_or(&self.planning)
            .to_path_buf();
        let dirs = &self.phases[range];
        let dir_index: HashMap<PathBuf, usize> = dirs
            .iter()
            .enumerate()
            .map(|(i, p)| (p.dir.clone(), i))
            .collect();
        let mut contents: Vec<PhaseContents> =
            dirs.iter().map(|_| PhaseContents::default()).collect();
        let mut names: Vec<Vec<(String, Nest)>> = vec![Vec::new(); dirs.len()];
        let mut skipped = Vec::new();
        let mut files = Vec::new();
        for ph in dirs {
            files.clear();
            walk(&self.root.join(&ph.dir), &mut files);
            for f in &files {
                let placed = place_file(&self.root, f, &base, &dir_index);
                if let Some((i, name, nested)) = placed.listed {
                    names[i].push((name, nested));
                }
                match placed.file {
                    Parsed::Skipped(s) => skipped.push(s),
                    Parsed::PhasePlan(i, plan) => contents[i].plans.push(*plan),
                    Parsed::PhaseSummary(i, summary) => contents[i].summaries.push(*summary),
                    Parsed::PhaseOther(i, doc) => contents[i].other_docs.push(*doc),
                    // Every file under a phase folder is the phase's (its
                    // role comes from the same path): nothing else occurs.
                    _ => {}
                }
            }
        }
        let phases = dirs
            .iter()
            .zip(names)
            .zip(contents)
            .map(|((ph, names), c)| build_phase(ph.dir.clone(), ph.location.clone(), names, c))
            .collect();
        PhaseBatch { phases, skipped }
    }

    /// Phases in `phases/` (not archived).
    pub fn current_phases(&self) -> impl Iterator<Item = &Phase> {
        self.phases
            .iter()
            .filter(|p| p.location == PhaseLocation::Current)
    }

    /// Find a current phase by ID (padding-insensitive), else an archived one.
    pub fn phase(&self, id: &PhaseId) -> Option<&Phase> {
        let matches = |p: &&Phase| p.id.as_ref().is_some_and(|i| i.same(id));
        self.current_phases()
            .find(matches)
            .or_else(|| self.phases.iter().find(matches))
    }

    /// The requirements of shipped milestones, archived by GSD's
    /// complete-milestone as `milestones/vX.Y-REQUIREMENTS.md`: their IDs
    /// stay valid for the plans that name them.
    pub fn archived_requirements(&self) -> Vec<Requirements> {
        let archive = self.planning.join("milestones");
        self.other
            .iter()
            .filter(|d| {
                d.path().parent() == Some(archive.as_path())
                    && d.file_name().ends_with("REQUIREMENTS.md")
            })
            .map(|d| Requirements::parse(d.clone()))
            .collect()
    }

    /// Every plan: in phases (current, then archived), then loose ones.
    pub fn all_plans(&self) -> impl Iterator<Item = &Plan> {
        self.phases
            .iter()
            .flat_map(|p| p.plans.iter())
            .chain(self.loose_plans.iter())
    }

    /// Every text document in the tree.
    pub fn documents(&self) -> Vec<&Document> {
        let mut v: Vec<&Document> = Vec::new();
        v.extend(self.project.as_ref().map(|p| &p.doc));
        v.extend(self.roadmap.as_ref().map(|p| &p.doc));
        v.extend(self.state.as_ref().map(|p| &p.doc));
        v.extend(self.requirements.as_ref().map(|p| &p.doc));
        v.extend(self.config_doc.as_ref());
        for ph in &self.phases {
            v.extend(ph.plans.iter().map(|p| &p.doc));
            v.extend(ph.summaries.iter().map(|s| &s.doc));
            v.extend(ph.other_docs.iter());
        }
        v.extend(self.loose_plans.iter().map(|p| &p.doc));
        v.extend(self.other.iter());
        v
    }

    pub fn config(&self) -> Config {
        match &self.config {
            Some(Ok(c)) => c.clone(),
            _ => Config::empty(),
        }
    }

    /// A path relative to the project root, for display.
    pub fn rel<'a>(&self, p: &'a Path) -> &'a Path {
        p.strip_prefix(&self.root).unwrap_or(p)
    }
}

fn phase_folders(root: &Path, base: &Path) -> Vec<(PathBuf, PhaseLocation)> {
    let mut out = Vec::new();
    let list = |dir: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .map(|rd| {
                rd.flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                    .filter_map(|e| e.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    for name in list(&root.join(base).join("phases")) {
        out.push((base.join("phases").join(name), PhaseLocation::Current));
    }
    let milestones = base.join("milestones");
    for ms in list(&root.join(&milestones)) {
        if let Some(version) = ms.strip_suffix("-phases") {
            for name in list(&root.join(&milestones).join(&ms)) {
                out.push((
                    milestones.join(&ms).join(name),
                    PhaseLocation::Archived(version.to_owned()),
                ));
            }
        }
    }
    out
}

/// A summary of the whole phase rather than of one plan: `SUMMARY.md`,
/// the phase's own number (`39-SUMMARY.md`, the older one-per-phase form)
/// or so named (`39-PHASE-SUMMARY.md`).
pub(crate) fn phase_level_summary(file: &str, id: &PhaseId) -> bool {
    let Some(stem) = file.strip_suffix("SUMMARY.md") else {
        return false;
    };
    let stem = stem.trim_end_matches('-');
    // `03-PHASE-SUMMARY.md`: the phase's summary named as such (batch 32,
    // ja3ooni+ethos-os).
    let stem = match stem.len().checked_sub(5) {
        Some(at) if stem.is_char_boundary(at) && stem[at..].eq_ignore_ascii_case("phase") => {
            stem[..at].trim_end_matches('-')
        }
        _ => stem,
    };
    stem.is_empty() || PhaseId::parse(stem).is_some_and(|p| p.same(id))
}

/// Whether one of `files` is named for plan `id` (`03-02-…`).
fn names_plan(files: &[String], id: &PlanId) -> bool {
    files
        .iter()
        .any(|f| PlanId::parse(f).is_some_and(|p| p.same(id)))
}

/// Whether the summary file `summary` reports the plan file `plan_file`,
/// by the same pairing the plan counts use.
pub fn summary_is_for(summary: &str, plan_file: &str) -> bool {
    summary_matches(&[summary.to_owned()], plan_file)
}

/// Whether `summaries` hold one for the plan file `plan_file`: same stem,
/// or same canonical plan ID (`03-01-auth-PLAN.md` ↔ `03-01-SUMMARY.md`).
fn summary_matches(summaries: &[String], plan_file: &str) -> bool {
    // `01-PLAN-foundation.md` ↔ `01-PLAN-foundation-SUMMARY.md`.
    let own = format!("{}-", plan_file.strip_suffix(".md").unwrap_or(plan_file));
    let stem = plan_file.strip_suffix("PLAN.md").unwrap_or(&own);
    let id = PlanId::parse(plan_file);
    summaries.iter().any(|s| {
        // `02-SUMMARY-02.md` (or `SUMMARY-02.md`) ↔ `02-PLAN-02.md`, the
        // older form's summary; `01-A-SUMMARY.md` ↔ `01-PLAN-A-scaffold.md`.
        s.replacen("-SUMMARY-", "-PLAN-", 1) == plan_file
            || older_form_summaries(plan_file).iter().any(|o| o == s)
            || slugged_summary_id(s).is_some_and(|a| id.as_ref().is_some_and(|b| a.same(b)))
            || s.strip_prefix("SUMMARY-")
                .is_some_and(|n| plan_file.ends_with(&format!("-PLAN-{n}")))
            || s.strip_suffix("SUMMARY.md").unwrap_or(s) == stem
            || matches!((PlanId::parse(s), &id), (Some(a), Some(b)) if a.same(b))
    })
}

/// The plan a summary named with its phase folder's slug between the
/// numbers belongs to: `01-backend-foundation-auth-01-SUMMARY.md` is plan
/// 01-01's (the phase number first, the plan number last, words between).
fn slugged_summary_id(summary: &str) -> Option<PlanId> {
    let stem = summary.strip_suffix("-SUMMARY.md")?;
    let (phase, rest) = stem.split_once('-')?;
    let (middle, plan) = rest.rsplit_once('-')?;
    let numeric = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    (numeric(phase) && numeric(plan) && !middle.is_empty() && !numeric(middle))
        .then(|| PlanId::parse(&format!("{phase}-{plan}-PLAN.md")))
        .flatten()
}

/// Where a file sits in its phase folder. GSD's plan scan reads the
/// folder and its `plans/` subfolder; a `features/x/FEATURE-PLAN.md`
/// deeper down is a note about the work, not one of the phase's plans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Nest {
    Root,
    Plans,
    Deeper,
}

impl Nest {
    /// Where `file` sits under the phase folder `dir`.
    fn of(file: &Path, dir: &Path) -> Nest {
        match file.parent() {
            Some(p) if p == dir => Nest::Root,
            Some(p) if p.parent() == Some(dir) && p.file_name() == Some("plans".as_ref()) => {
                Nest::Plans
            }
            // A folder of one plan's own (`04-04-cli-package/04-04-SUMMARY.md`):
            // the summary named for that plan, of this phase, is the phase's
            // (batch 30, vole). A plan kept there is an old copy, a note.
            Some(p)
                if p.parent() == Some(dir)
                    && plan_folder_prefix(p, dir).is_some_and(|pre| {
                        file.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n == format!("{pre}-SUMMARY.md"))
                    }) =>
            {
                Nest::Plans
            }
            _ => Nest::Deeper,
        }
    }
}

/// The plan ID a subfolder of the phase folder `dir` is named for (`04-04`
/// of `04-04-cli-package` in `04-http-tunnel`): its phase number is the
/// folder's.
fn plan_folder_prefix(folder: &Path, dir: &Path) -> Option<String> {
    let name = folder.file_name()?.to_str()?;
    let mut parts = name.splitn(3, '-');
    let (phase, plan) = (parts.next()?, parts.next()?);
    let (own, _) = PhaseId::from_dir_name(dir.file_name()?.to_str()?)?;
    let same = PhaseId::parse(phase).is_some_and(|p| p.same(&own));
    (same && plan.len() >= 2 && plan.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{phase}-{plan}"))
}

/// What a file in a phase folder is, from its name and place.
fn phase_file_kind(name: &str, nest: Nest, beside: impl Fn(&str) -> bool) -> PhaseFileKind {
    if nest == Nest::Deeper {
        PhaseFileKind::Other
    } else if (name.ends_with("SUMMARY.md")
        && (name.ends_with("-SUMMARY.md") || name == "SUMMARY.md" || nest == Nest::Plans))
        || is_numbered_summary_name(name)
    {
        PhaseFileKind::Summary
    } else if is_plan_name(name) || is_summarised_plan_name(name, beside) {
        PhaseFileKind::Plan
    } else {
        PhaseFileKind::Other
    }
}

/// The summary of an `NN-PLAN-MM.md` plan in the same older form:
/// `02-SUMMARY-02.md`, `SUMMARY-04.md` — the word with only numbers after it.
fn is_numbered_summary_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".md") else {
        return false;
    };
    let parts: Vec<&str> = stem.split('-').collect();
    let Some(at) = parts.iter().position(|p| *p == "SUMMARY") else {
        return false;
    };
    at + 1 < parts.len()
        && parts
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != at)
            .all(|(_, p)| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

/// A plan named `NN-PLAN-<slug>.md` (`01-PLAN-foundation.md`) whose summary
/// sits beside it under its own name (`01-PLAN-foundation-SUMMARY.md`): the
/// pair says it is a plan that ran, though GSD's name patterns miss it. A
/// `01-PLAN-OUTLINE.md` with no such summary stays a note.
fn is_summarised_plan_name(name: &str, beside: impl Fn(&str) -> bool) -> bool {
    older_form_summaries(name).iter().any(|s| beside(s))
}

/// The names a summary of an `NN-PLAN-<token>[-slug].md` plan takes:
/// `<stem>-SUMMARY.md` (`01-PLAN-foundation-SUMMARY.md`), or the phase
/// number and the plan's token (`01-PLAN-A-scaffold.md` ↔ `01-A-SUMMARY.md`).
/// Empty for any other name.
fn older_form_summaries(name: &str) -> Vec<String> {
    let Some(stem) = name.strip_suffix(".md") else {
        return Vec::new();
    };
    let Some((number, rest)) = stem.split_once("-PLAN-") else {
        return Vec::new();
    };
    if number.is_empty()
        || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || rest.is_empty()
        || stem.contains(".pre-bounce")
    {
        return Vec::new();
    }
    let token = rest.split('-').next().unwrap_or(rest);
    vec![
        format!("{stem}-SUMMARY.md"),
        format!("{number}-{token}-SUMMARY.md"),
    ]
}

#[derive(PartialEq, Eq)]
enum PhaseFileKind {
    Plan,
    Summary,
    Other,
}

/// The parsed files of one phase folder, in walk order.
#[derive(Default)]
struct PhaseContents {
    plans: Vec<Plan>,
    summaries: Vec<Summary>,
    other_docs: Vec<Document>,
    /// A VERIFICATION.md that was read only to see whether it passed.
    verified: bool,
}

fn build_phase(
    dir: PathBuf,
    location: PhaseLocation,
    names: Vec<(String, Nest)>,
    contents: PhaseContents,
) -> Phase {
    let dir_name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_owned();
    let (id, slug) = match PhaseId::from_dir_name(&dir_name) {
        Some((id, slug)) => (Some(id), slug),
        None => (None, dir_name.clone()),
    };
    let mut plan_files = Vec::new();
    let mut summary_files = Vec::new();
    let mut other_files = Vec::new();
    // Asked only of the rare `NN-PLAN-<slug>.md` name: a scan is enough.
    let listed: Vec<(String, Nest)> = names.clone();
    for (name, nested) in names {
        // The same file at the folder's root and in a subfolder: the root's.
        if nested != Nest::Root && listed.iter().any(|(m, at)| *m == name && *at == Nest::Root) {
            other_files.push(name);
            continue;
        }
        let beside = |n: &str| listed.iter().any(|(m, at)| m == n && *at == nested);
        match phase_file_kind(&name, nested, beside) {
            PhaseFileKind::Plan => plan_files.push(name),
            PhaseFileKind::Summary => summary_files.push(name),
            PhaseFileKind::Other => other_files.push(name),
        }
    }
    let mut plan_done: Vec<bool> = plan_files
        .iter()
        .map(|p| summary_matches(&summary_files, p))
        .collect();
    // One plan and one summary that pair with nothing by name (`01-PLAN.md`
    // beside `01-01-SUMMARY.md`): the phase's only summary is its only
    // plan's.
    // (Only where the plan's name gives no plan number: `09-03-PLAN.md`
    // beside `09-01-SUMMARY.md` are two different plans.)
    if let ([plan], [only]) = (plan_files.as_slice(), summary_files.as_slice())
        && !plan_done[0]
        && PlanId::parse(plan).is_none()
        && !id.as_ref().is_some_and(|id| phase_level_summary(only, id))
        && only != "SUMMARY.md"
    {
        plan_done[0] = true;
    }
    let PhaseContents {
        mut plans,
        mut summaries,
        other_docs,
        verified,
    } = contents;
    let verified = verified
        || other_docs
            .iter()
            .any(|d| d.file_name().ends_with("VERIFICATION.md") && super::verification::passed(d));
    plans.sort_by(|a, b| match (&a.id, &b.id) {
        (Some(x), Some(y)) => x
            .cmp(y)
            .then_with(|| a.doc.file_name().cmp(b.doc.file_name())),
        _ => a.doc.file_name().cmp(b.doc.file_name()),
    });
    summaries.sort_by(|a, b| a.doc.file_name().cmp(b.doc.file_name()));
    Phase {
        dir,
        dir_name,
        id,
        slug,
        location,
        plan_files,
        plan_done,
        summary_files,
        other_files,
        plans,
        summaries,
        other_docs,
        verified,
    }
}

#[cfg(test)]
mod tests {
    use super::is_plan_name;

    #[test]
    fn plan_names_are_the_ones_gsd_runs() {
        for yes in [
            "PLAN.md",
            "01-02-PLAN.md",
            "03-01-auth-PLAN.md",
            "01-PLAN-01.md",
            "PLAN-001.md",
            "05-GEMINI-IMAGE-INTEGRATION-PLAN.md",
        ] {
            assert!(is_plan_name(yes), "{yes}");
        }
        for no in [
            "PLAN-CHECK.md",
            "PLAN-REVIEW.md",
            "UAT-PLAN-TEMPLATE.md",
            "PHASE22-DIAGNOSIS-AND-PLANS.md",
            "01-02-PLAN.pre-bounce.md",
            "01-PLAN-OUTLINE.md",
            "notes-PLAN-draft.md",
            "01-02-PLAN.txt",
        ] {
            assert!(!is_plan_name(no), "{no}");
        }
    }
}
