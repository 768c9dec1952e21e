//! The whole `.planning/` tree, found by walking up like git and loaded in
//! one pass (in parallel): core documents, phases (current and archived in
//! milestones), plans, summaries, quick tasks and every other file.
//!
//! Binary files and files over `MAX_FILE_BYTES` are listed as skipped, never
//! parsed; a file that is not UTF-8 is kept byte for byte and reported.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::doc::Source;

use super::config::{Config, ConfigError};
use super::document::Document;
use super::ids::PhaseId;
use super::plan::Plan;
use super::project::Project;
use super::requirements::Requirements;
use super::roadmap::Roadmap;
use super::state::State;
use super::summary::Summary;

/// Files larger than this are not parsed (planning files are small; a huge
/// one is a mistake, and parsing it must not stall CI).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Why a file was not parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    Binary,
    TooLarge(u64),
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
    pub plans: Vec<Plan>,
    pub summaries: Vec<Summary>,
    /// Names of the other files in the folder (CONTEXT, RESEARCH, …).
    pub other_files: Vec<String>,
    /// Those other files, parsed.
    pub other_docs: Vec<Document>,
}

impl Phase {
    pub fn has_file_ending(&self, suffix: &str) -> bool {
        self.other_files.iter().any(|f| f.ends_with(suffix))
    }

    /// Whether a plan has a summary (matching exact stem or canonical ID).
    pub fn plan_has_summary(&self, plan: &Plan) -> bool {
        let stem = plan.doc.file_name().trim_end_matches("PLAN.md");
        self.summaries.iter().any(|s| {
            let sstem = s.doc.file_name().trim_end_matches("SUMMARY.md");
            sstem == stem || matches!((&s.id, &plan.id), (Some(a), Some(b)) if a.same(b))
        })
    }

    pub fn completed_plans(&self) -> usize {
        self.plans
            .iter()
            .filter(|p| self.plan_has_summary(p))
            .count()
    }

    /// Status from disk (GSD-FORMATS §4.3 `disk_status`).
    pub fn disk_status(&self) -> &'static str {
        let done = self.completed_plans();
        if !self.plans.is_empty() && done >= self.plans.len() {
            "complete"
        } else if done > 0 {
            "partial"
        } else if !self.plans.is_empty() {
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

/// A loaded planning tree.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The project root (the folder holding `.planning/`).
    pub root: PathBuf,
    pub planning: PathBuf,
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

/// Why no workspace could be loaded.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum WorkspaceError {
    #[error("no .planning/ directory in {start} or any parent")]
    #[diagnostic(
        code(gsd::no_planning),
        help("run `gsd init` to create one, or pass -C DIR to point at a project")
    )]
    NotFound { start: String },
    #[error("cannot read {path}: {message}")]
    #[diagnostic(code(gsd::io))]
    Io { path: String, message: String },
}

/// Find the project root: the first of `start` and its parents that holds
/// a `.planning/` folder (or `start` itself when it is a `.planning` folder).
pub fn find_root(start: &Path) -> Result<PathBuf, WorkspaceError> {
    let start = std::path::absolute(start).map_err(|e| WorkspaceError::Io {
        path: start.display().to_string(),
        message: e.to_string(),
    })?;
    if start.file_name().is_some_and(|n| n == ".planning") && start.is_dir() {
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

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            walk(&e.path(), out);
        } else if ft.is_file() || ft.is_symlink() {
            out.push(e.path());
        }
    }
}

fn load_file(root: &Path, path: &Path) -> Loaded {
    let rel = path.strip_prefix(root).unwrap_or(path).to_path_buf();
    let skip = |reason| {
        Loaded::Skipped(Skipped {
            rel_path: rel.clone(),
            reason,
        })
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return skip(SkipReason::Unreadable(e.to_string())),
    };
    if !meta.is_file() {
        return skip(SkipReason::Unreadable("not a regular file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return skip(SkipReason::TooLarge(meta.len()));
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if BINARY_EXTENSIONS.contains(&ext.as_str()) {
        return skip(SkipReason::Binary);
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return skip(SkipReason::Unreadable(e.to_string())),
    };
    if memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some() {
        return skip(SkipReason::Binary);
    }
    let source = Source::from_bytes(path, bytes);
    if ext == "md" || ext == "markdown" {
        Loaded::Text(Box::new(Document::parse(source, rel)))
    } else {
        Loaded::Text(Box::new(Document::plain(source, rel)))
    }
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

fn is_plan_name(name: &str) -> bool {
    if !name.ends_with(".md") {
        return false;
    }
    name == "PLAN.md"
        || name.ends_with("-PLAN.md")
        || (name.contains("PLAN")
            && !name.ends_with("-OUTLINE.md")
            && !name.contains(".pre-bounce"))
}

fn role(rel: &Path) -> Role {
    let parts: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
    match parts.as_slice() {
        [".planning", "PROJECT.md"] => Role::Project,
        [".planning", "ROADMAP.md"] => Role::Roadmap,
        [".planning", "STATE.md"] => Role::State,
        [".planning", "REQUIREMENTS.md"] => Role::Requirements,
        [".planning", "config.json"] => Role::Config,
        [".planning", "phases", dir, _file, ..] => Role::PhaseFile {
            phases_dir: PathBuf::from(".planning").join("phases").join(dir),
            location: PhaseLocation::Current,
        },
        [".planning", "milestones", ms, dir, _file, ..] if ms.ends_with("-phases") => {
            Role::PhaseFile {
                phases_dir: PathBuf::from(".planning")
                    .join("milestones")
                    .join(ms)
                    .join(dir),
                location: PhaseLocation::Archived(ms.trim_end_matches("-phases").to_owned()),
            }
        }
        [".planning", .., name] if is_plan_name(name) && parts.len() > 2 => Role::LoosePlan,
        _ => Role::Other,
    }
}

impl Workspace {
    /// Find and load the workspace containing `start`.
    pub fn discover(start: &Path) -> Result<Workspace, WorkspaceError> {
        let root = find_root(start)?;
        Workspace::load(&root)
    }

    /// Load the `.planning/` tree under the project root `root`.
    pub fn load(root: &Path) -> Result<Workspace, WorkspaceError> {
        let planning = root.join(".planning");
        if !planning.is_dir() {
            return Err(WorkspaceError::NotFound {
                start: root.display().to_string(),
            });
        }
        let mut paths = Vec::new();
        walk(&planning, &mut paths);
        let loaded: Vec<Loaded> = paths.par_iter().map(|p| load_file(root, p)).collect();

        let mut ws = Workspace {
            root: root.to_path_buf(),
            planning: planning.clone(),
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
        // Phase dirs, including empty ones.
        let mut phase_dirs: Vec<(PathBuf, PhaseLocation)> = Vec::new();
        for (dir, location) in phase_folders(root) {
            phase_dirs.push((dir, location));
        }
        let mut by_phase: Vec<Vec<Document>> = vec![Vec::new(); phase_dirs.len()];
        let dir_index: std::collections::HashMap<PathBuf, usize> = phase_dirs
            .iter()
            .enumerate()
            .map(|(i, (d, _))| (d.clone(), i))
            .collect();
        let mut loose = Vec::new();
        for item in loaded {
            let doc = match item {
                Loaded::Text(d) => *d,
                Loaded::Skipped(s) => {
                    ws.skipped.push(s);
                    continue;
                }
            };
            match role(&doc.rel_path) {
                Role::Project => ws.project = Some(Project::parse(doc)),
                Role::Roadmap => ws.roadmap = Some(Roadmap::parse(doc)),
                Role::State => ws.state = Some(State::parse(doc)),
                Role::Requirements => ws.requirements = Some(Requirements::parse(doc)),
                Role::Config => {
                    ws.config = Some(Config::parse(doc.text()));
                    ws.config_doc = Some(doc);
                }
                Role::PhaseFile { phases_dir, .. } => match dir_index.get(&phases_dir) {
                    Some(&i) => by_phase[i].push(doc),
                    None => ws.other.push(doc),
                },
                Role::LoosePlan => loose.push(doc),
                Role::Other => ws.other.push(doc),
            }
        }
        let phases: Vec<Phase> = phase_dirs
            .into_par_iter()
            .zip(by_phase.into_par_iter())
            .map(|((dir, location), docs)| build_phase(dir, location, docs))
            .collect();
        ws.phases = phases;
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
        ws.loose_plans = loose.into_par_iter().map(Plan::parse).collect();
        ws.other.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
        Ok(ws)
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

fn phase_folders(root: &Path) -> Vec<(PathBuf, PhaseLocation)> {
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
    for name in list(&root.join(".planning/phases")) {
        out.push((
            PathBuf::from(".planning").join("phases").join(name),
            PhaseLocation::Current,
        ));
    }
    for ms in list(&root.join(".planning/milestones")) {
        if let Some(version) = ms.strip_suffix("-phases") {
            for name in list(&root.join(".planning/milestones").join(&ms)) {
                out.push((
                    PathBuf::from(".planning")
                        .join("milestones")
                        .join(&ms)
                        .join(name),
                    PhaseLocation::Archived(version.to_owned()),
                ));
            }
        }
    }
    out
}

fn build_phase(dir: PathBuf, location: PhaseLocation, docs: Vec<Document>) -> Phase {
    let dir_name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_owned();
    let (id, slug) = match PhaseId::from_dir_name(&dir_name) {
        Some((id, slug)) => (Some(id), slug),
        None => (None, dir_name.clone()),
    };
    let mut plans = Vec::new();
    let mut summaries = Vec::new();
    let mut other_files = Vec::new();
    let mut other_docs = Vec::new();
    for doc in docs {
        let name = doc.file_name().to_owned();
        let nested = doc.rel_path.parent() != Some(dir.as_path());
        if name.ends_with("SUMMARY.md")
            && (name.ends_with("-SUMMARY.md") || name == "SUMMARY.md" || nested)
        {
            summaries.push(Summary::parse(doc));
        } else if is_plan_name(&name) {
            plans.push(Plan::parse(doc));
        } else {
            other_files.push(name);
            other_docs.push(doc);
        }
    }
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
        plans,
        summaries,
        other_files,
        other_docs,
    }
}
