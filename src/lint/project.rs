//! Lint of a whole project: the root `.planning/` and its workstreams.
//!
//! A name given with `--ws` (or GSD_WORKSTREAM) lints that workstream
//! alone. Otherwise every live track is linted: the root when it holds a
//! ROADMAP.md or STATE.md (or there are no workstreams), the workstream the
//! tree points at, and every other workstream with a ROADMAP.md or
//! STATE.md. A tree whose work lives only in workstreams is never told that
//! its root ROADMAP or STATE is missing, but its shared root files (the
//! research, codebase maps, milestone archives every workstream reads) are
//! still checked. Findings on the shared files (PROJECT.md, config.json) are
//! reported once.

use std::path::Path;

use crate::model::workspace::{Scope, WorkspaceError};
use crate::model::{Workspace, workstream};

use super::{Diagnostic, Options};

/// Every finding, sorted, and how many files were checked.
pub struct ProjectLint {
    pub diagnostics: Vec<Diagnostic>,
    files_checked: usize,
}

impl ProjectLint {
    /// How many files were checked: a file several tracks share
    /// (PROJECT.md, config.json) is one file; skipped files count too.
    pub fn files_checked(&self) -> usize {
        self.files_checked
    }
}

/// The files the runs read, counted as [`ProjectLint::files_checked`] says:
/// only files outside phase folders can be shared between tracks.
#[derive(Default)]
struct Counted {
    outside: std::collections::HashSet<std::path::PathBuf>,
    phase_documents: usize,
    skipped: usize,
}

impl Counted {
    fn add(&mut self, run: &super::Linted) {
        self.outside.extend(run.outside.iter().cloned());
        self.phase_documents += run.phase_documents;
        self.skipped += run.skipped;
    }

    fn total(&self) -> usize {
        self.outside.len() + self.phase_documents + self.skipped
    }
}

/// Lint one track: its skeleton loaded, its phase folders read a batch at
/// a time ([`super::run_streaming`]).
fn lint_track(
    root: &Path,
    track: Option<&str>,
    options: &Options,
) -> Result<super::Linted, WorkspaceError> {
    let ws = Workspace::load_in(root, Scope::Skeleton, track)?;
    let run = super::run_streaming(&ws, options);
    // The process ends soon after lint: freeing the skeleton's nodes one by
    // one would only delay it.
    std::mem::forget(ws);
    Ok(run)
}

/// The tracks lint checks for the project at `root` (None: the root).
pub fn targets(root: &Path) -> Result<Vec<Option<String>>, WorkspaceError> {
    let chosen = workstream::resolve(root)?;
    let implied = workstream::implied(root);
    if chosen.is_some() && chosen != implied {
        return Ok(vec![chosen]);
    }
    let planning = root.join(".planning");
    let root_core = planning.join("ROADMAP.md").exists() || planning.join("STATE.md").exists();
    let names = workstream::names(root);
    let mut out = Vec::new();
    if root_core || names.is_empty() {
        out.push(None);
    }
    if let Some(w) = &implied {
        out.push(Some(w.clone()));
    }
    for w in names {
        let dir = workstream::dir(root).join(&w);
        let core = dir.join("ROADMAP.md").exists() || dir.join("STATE.md").exists();
        if core && implied.as_deref() != Some(w.as_str()) {
            out.push(Some(w));
        }
    }
    if out.is_empty() {
        out.push(None);
    }
    Ok(out)
}

/// Lint every track of the project at `root`.
pub fn run_project(root: &Path, options: &Options) -> Result<ProjectLint, WorkspaceError> {
    let mut counted = Counted::default();
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let targets = targets(root)?;
    let root_linted = targets.contains(&None);
    let mut runs = 0;
    for t in targets {
        runs += 1;
        let run = lint_track(root, t.as_deref(), options)?;
        counted.add(&run);
        // Moved, not copied, when it is the only track: a copy of a big
        // tree's findings was the run's peak of memory.
        if diagnostics.is_empty() {
            diagnostics = run.diagnostics;
        } else {
            diagnostics.extend(run.diagnostics);
        }
    }
    // Work only in workstreams: the root is no track of its own, but the
    // files it shares with them are checked. What the root would say about
    // itself as a track (a missing ROADMAP.md, its phase folders, the
    // files it lacks) is not said: only findings in a shared file that is
    // there, outside the root's phases/.
    if !root_linted {
        let run = lint_track(root, None, options)?;
        runs += 1;
        counted.add(&run);
        let phases = Path::new(".planning").join("phases");
        for d in run.diagnostics {
            if !d.file.starts_with(&phases) && root.join(&d.file).is_file() {
                diagnostics.push(d);
            }
        }
    }
    // One run's findings come sorted and one per place; several runs'
    // are merged here. One finding per file, place and code: the first one
    // made (the sort is stable). Done on the sorted list, not with a set of
    // every finding's path: hashing 100,000 paths was a few percent of a
    // big tree's lint.
    if runs > 1 {
        super::sort_by_place(&mut diagnostics);
        diagnostics.dedup_by(|later, first| super::same_place(later, first));
    }
    Ok(ProjectLint {
        diagnostics,
        files_checked: counted.total(),
    })
}
