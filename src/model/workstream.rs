//! Workstreams as GSD defines them: parallel tracks of work, each a folder
//! `.planning/workstreams/<name>/` with its own ROADMAP.md, STATE.md,
//! REQUIREMENTS.md and `phases/`, beside the shared PROJECT.md and
//! config.json at `.planning/`. Shipped workstreams are archived as
//! `.planning/milestones/ws-<name>-…/` and are history, not live work.
//!
//! Which workstream a command works on is decided the way GSD's tools
//! decide it (get-shit-done-cc 1.42.3 `planning-workspace.cjs`, GSD Core
//! 1.14): `--ws NAME`, else `GSD_WORKSTREAM`, else the name in
//! `.planning/active-workstream` when that folder exists, else — in a tree
//! with no root ROADMAP.md or STATE.md — its only workstream. A pointer to
//! a folder that is not there names none (GSD does the same), and lint says
//! so; a name given with `--ws` that is not there is an error, never a
//! silent fall-back to the root.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Serialize;

/// The track this process works on, set once by the command line before
/// any tree is read (like `-C`, it is a choice about the whole invocation):
/// `Some(name)` from `--ws NAME` or from a workstream file named by path,
/// `None` (the root `.planning/`) from a root file named by path.
static CHOSEN: OnceLock<Option<String>> = OnceLock::new();

/// Record the command line's `--ws NAME`.
pub fn choose(name: &str) {
    let _ = CHOSEN.set(Some(name.to_owned()));
}

/// The workstream named for this process (`--ws`, a file's path, else
/// GSD_WORKSTREAM).
pub fn chosen() -> Option<String> {
    match CHOSEN.get() {
        Some(c) => c.clone(),
        None => std::env::var("GSD_WORKSTREAM").ok(),
    }
    .map(|s| s.trim().to_owned())
    .filter(|s| !s.is_empty())
}

/// The track a planning file sits in: `Some(Some(name))` under
/// `.planning/workstreams/<name>/`, `Some(None)` elsewhere under
/// `.planning/`, `None` when the path is not in a `.planning/` folder.
pub fn track_of(file: &Path) -> Option<Option<String>> {
    let parts: Vec<String> = file
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let at = parts.iter().rposition(|p| p == ".planning")?;
    Some(match &parts[at + 1..] {
        [w, name, _, ..] if w == "workstreams" && valid_name(name) => Some(name.clone()),
        _ => None,
    })
}

/// A plan named on the command line by its path decides the track, when
/// neither `--ws` nor GSD_WORKSTREAM named one: `gsd ralph run
/// .planning/phases/06-x/06-03-PLAN.md` works on the root `.planning/`
/// even where `active-workstream` points elsewhere, because that is where
/// the file is. An ID (`06-03`) decides nothing.
pub fn follow_path(cwd: &Path, query: &str) {
    if CHOSEN.get().is_some() || std::env::var_os("GSD_WORKSTREAM").is_some() {
        return;
    }
    let path = cwd.join(query);
    if !(query.ends_with(".md") && path.is_file()) {
        return;
    }
    let abs = std::path::absolute(&path).unwrap_or(path);
    if let Some(track) = track_of(&abs) {
        let _ = CHOSEN.set(track);
    }
}

/// Why no workstream could be used.
#[derive(Debug, Clone, thiserror::Error, miette::Diagnostic)]
pub enum WorkstreamError {
    #[error("`{name}` is not a valid workstream name")]
    #[diagnostic(
        code(gsd::workstream_name),
        help(
            "a workstream name starts with a letter or digit and holds only letters, digits, `.`, `_` and `-`"
        )
    )]
    InvalidName { name: String },
    #[error("there is no workstream `{name}` in {planning}")]
    #[diagnostic(
        code(gsd::no_such_workstream),
        help("workstreams here: {known} (`gsd workstream list` shows them)")
    )]
    NotFound {
        name: String,
        planning: String,
        known: String,
    },
}

/// GSD's rule for a workstream name (`validateWorkstreamName`).
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    !name.contains("..")
        && chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
}

/// The folder that holds the workstreams of the project at `root`.
pub fn dir(root: &Path) -> PathBuf {
    root.join(".planning").join("workstreams")
}

/// Names of the workstream folders, sorted.
pub fn names(root: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir(root))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    v.sort();
    v
}

/// What `.planning/active-workstream` says, trimmed; None when absent or empty.
pub fn pointer(root: &Path) -> Option<String> {
    std::fs::read_to_string(root.join(".planning").join("active-workstream"))
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// Whether `name` is a valid workstream name with a folder of its own.
fn names_a_folder(root: &Path, name: &str) -> bool {
    valid_name(name) && dir(root).join(name).is_dir()
}

/// The pointer, when it names something that is not a workstream folder.
pub fn dangling_pointer(root: &Path) -> Option<String> {
    pointer(root).filter(|w| !names_a_folder(root, w))
}

/// The workstream a command on the project at `root` works on (see the
/// module doc for the order); None for the root `.planning/`.
pub fn resolve(root: &Path) -> Result<Option<String>, WorkstreamError> {
    if let Some(None) = CHOSEN.get() {
        return Ok(None);
    }
    if let Some(name) = chosen() {
        return named(root, &name).map(Some);
    }
    Ok(implied(root))
}

/// The pointer, when it names a workstream folder with neither a
/// ROADMAP.md nor a STATE.md while the root `.planning/` has one: GSD's
/// tools would read that folder and find nothing; the work the tree
/// describes is the root's.
pub fn hollow_pointer(root: &Path) -> Option<String> {
    let p = pointer(root).filter(|w| names_a_folder(root, w))?;
    let ws = dir(root).join(&p);
    let hollow = !ws.join("ROADMAP.md").exists() && !ws.join("STATE.md").exists();
    (hollow && root_has_core(root)).then_some(p)
}

fn root_has_core(root: &Path) -> bool {
    let planning = root.join(".planning");
    planning.join("ROADMAP.md").exists() || planning.join("STATE.md").exists()
}

/// The workstream the tree itself points at, with no name given. A
/// pointer at a hollow workstream ([`hollow_pointer`]) leaves the root in
/// charge (lint says so).
pub fn implied(root: &Path) -> Option<String> {
    if hollow_pointer(root).is_some() {
        return None;
    }
    implied_as_gsd_tools(root)
}

/// The workstream GSD's own tools work on, with no name given: the one the
/// pointer names whenever its folder exists (hollow or not), else the only
/// one of a tree with no root ROADMAP.md or STATE.md. The `gsd-sdk` and
/// `gsd_run` dialects answer as those tools do.
pub fn implied_as_gsd_tools(root: &Path) -> Option<String> {
    if let Some(p) = pointer(root).filter(|w| names_a_folder(root, w)) {
        return Some(p);
    }
    if root_has_core(root) {
        return None;
    }
    match names(root).as_slice() {
        [only] => Some(only.clone()),
        _ => None,
    }
}

/// A workstream named by the user: it must exist.
pub fn named(root: &Path, name: &str) -> Result<String, WorkstreamError> {
    if !valid_name(name) {
        return Err(WorkstreamError::InvalidName {
            name: name.to_owned(),
        });
    }
    if dir(root).join(name).is_dir() {
        return Ok(name.to_owned());
    }
    Err(WorkstreamError::NotFound {
        name: name.to_owned(),
        planning: root.join(".planning").display().to_string(),
        known: super::list_or_none(&names(root)),
    })
}

/// A workstream as `gsd workstream list` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct WorkstreamSummary {
    pub name: String,
    /// The one commands work on when no `--ws` is given.
    pub active: bool,
    pub has_roadmap: bool,
    pub has_state: bool,
    /// STATE.md's `status:` (frontmatter) or `Status:` line.
    pub status: Option<String>,
    /// The milestone its roadmap reads as current.
    pub current_milestone: Option<String>,
    pub current_phase: Option<String>,
    pub phases: usize,
    pub completed_phases: usize,
    pub total_plans: usize,
    pub total_summaries: usize,
}

/// Every workstream of the project at `root`, read.
pub fn summaries(root: &Path) -> Vec<WorkstreamSummary> {
    let active = implied(root);
    names(root)
        .into_iter()
        .filter_map(|name| {
            let ws = super::Workspace::load_in(
                root,
                super::workspace::Scope::Index,
                Some(name.as_str()),
            )
            .ok()?;
            let r = super::reading::RoadmapReading::new(&ws);
            let status = ws.state.as_ref().and_then(super::state::State::status);
            Some(WorkstreamSummary {
                active: active.as_deref() == Some(name.as_str()),
                has_roadmap: ws.roadmap.is_some(),
                has_state: ws.state.is_some(),
                status,
                current_milestone: r.current_milestone.clone(),
                current_phase: r.current_phase.clone().or(r.next_phase.clone()),
                phases: r.phase_count,
                completed_phases: r.completed_phases,
                total_plans: r.total_plans,
                total_summaries: r.total_summaries,
                name,
            })
        })
        .collect()
}

#[cfg(test)]
mod track_tests {
    use super::track_of;
    use std::path::Path;

    #[test]
    fn a_file_belongs_to_the_track_it_sits_in() {
        let t = |p: &str| track_of(Path::new(p));
        assert_eq!(t("/p/.planning/phases/06-x/06-03-PLAN.md"), Some(None));
        assert_eq!(
            t("/p/.planning/workstreams/api/phases/01-x/01-01-PLAN.md"),
            Some(Some("api".into()))
        );
        // A file directly in workstreams/ is no workstream's.
        assert_eq!(t("/p/.planning/workstreams/NOTES.md"), Some(None));
        assert_eq!(t("/p/.planning/workstreams/../x/PLAN.md"), Some(None));
        assert_eq!(t("/p/docs/PLAN.md"), None);
    }
}
