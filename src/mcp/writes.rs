//! The write tools: each runs the CLI command's own use case from
//! `crate::ops` through [`ops::run`] (lock, refusals, journal, one commit)
//! and answers with the commit and the unified diff it made.

use std::path::Path;

use serde_json::{Value, json};

use crate::model::Workspace;
use crate::model::plan_ref;
use crate::model::workspace::Scope;
use crate::ops::{self, Applied, Change, OpError, WriteOptions};

use super::failure::Failure;

/// `gsd state set FIELD VALUE`.
pub fn state_set(project: &Path, field: &str, value: &str) -> Result<Value, Failure> {
    store(project, Scope::Index, |ws| {
        ops::state::set(ws, field, value, None)
    })
}

/// `gsd phase add NAME`.
pub fn phase_add(project: &Path, name: &str) -> Result<Value, Failure> {
    store(project, Scope::Index, |ws| ops::phase::add(ws, name))
}

/// `gsd phase complete PHASE [--force]`: without `force`, a phase whose
/// plans are not all summarised is refused, and the agent is told which.
pub fn phase_complete(project: &Path, phase: &str, force: bool) -> Result<Value, Failure> {
    store(project, Scope::Index, |ws| {
        ops::phase::complete(ws, phase, force)
    })
}

/// `gsd fm set PLAN KEY VALUE`, the plan named by its id.
/// (The full scope: finding a plan by id reads the plans.)
pub fn plan_fm_set(project: &Path, id: &str, key: &str, value: &str) -> Result<Value, Failure> {
    store(project, Scope::Full, |ws| {
        let found = plan_ref::find_plan(ws, project, id)?;
        let path = found.at.plan.doc.path().to_path_buf();
        let shown = ws.rel(&path).to_path_buf();
        ops::fm::set(ws, &path, &shown, key, value)
    })
}

/// Run one use case as the CLI does (default write options: commit, no
/// dirty files swept in) and say what it did. The diff is taken from the
/// change set the use case returned, the very bytes the store wrote.
fn store(
    project: &Path,
    scope: Scope,
    plan: impl FnOnce(&Workspace) -> Result<Change, OpError>,
) -> Result<Value, Failure> {
    let mut made = String::new();
    let outcome = ops::run(project, WriteOptions::default(), scope, |ws| {
        let change = plan(ws)?;
        made = ops::diff(&ws.root, &change.set).1;
        Ok(change)
    })?;
    let recovered = outcome.recovered.as_ref().map(|r| r.describe());
    match outcome.applied {
        Applied::Stored {
            message,
            summary,
            outcome,
        } => Ok(json!({
            "message": message,
            "summary": summary,
            "changed": outcome.changed,
            "commit": outcome.commit.describe(),
            "commit_id": outcome.commit.id(),
            "diff": made,
            "recovered": recovered,
        })),
        // Never asked for: the options above do not say dry run.
        Applied::DryRun { .. } => Err(Failure::new("nothing was written (dry run)", None)),
    }
}
