//! The read tools' answers: the same JSON as `gsd roadmap --json`,
//! `gsd state --json`, `gsd plan show ID --json` and
//! `gsd lint --format json`, built by the same library code. Each call
//! loads the tree afresh: the files change between calls.

use std::path::Path;

use serde_json::Value;

use crate::lint::{self, Options, Severity};
use crate::model::Workspace;
use crate::model::plan_ref;
use crate::model::reading::RoadmapReading;
use crate::model::workspace::{Scope, find_root};

use super::failure::Failure;
use super::params::MinSeverity;

/// `gsd roadmap --json`.
pub fn roadmap(project: &Path) -> Result<Value, Failure> {
    let ws = Workspace::discover_with(project, Scope::Index)?;
    match &ws.roadmap {
        // GSD removes ROADMAP.md when a milestone ships; until the next one
        // is planned, STATE.md still says where the work stands.
        None if ws.state.is_some() => {}
        None => return Err(missing(&ws, "ROADMAP.md")),
        Some(rm) if rm.doc.source.text().is_none() => {
            return Err(Failure::new(
                ".planning/ROADMAP.md is not valid UTF-8",
                Some("convert it to UTF-8; `gsd lint` shows where".into()),
            ));
        }
        Some(_) => {}
    }
    let reading = RoadmapReading::new(&ws);
    serde_json::to_value(&reading).map_err(|e| Failure::new(e.to_string(), None))
}

/// `gsd state --json`.
pub fn state(project: &Path) -> Result<Value, Failure> {
    let ws = Workspace::discover_with(project, Scope::Index)?;
    let Some(st) = &ws.state else {
        return Err(missing(&ws, "STATE.md"));
    };
    Ok(crate::view::state::json(&ws, st, &RoadmapReading::new(&ws)))
}

/// `gsd plan show ID --json`; task blocks that could not be read are said
/// in `unreadable` (the CLI prints them as warnings).
pub fn plan(project: &Path, id: &str) -> Result<Value, Failure> {
    let ws = Workspace::discover(project)?;
    let found = plan_ref::find_plan(&ws, project, id)?;
    let shown = crate::view::plan::show(&ws, found.at.phase, found.at.plan);
    let mut v = shown.json;
    if !shown.unreadable.is_empty() {
        v["unreadable"] = serde_json::json!(shown.unreadable);
    }
    Ok(v)
}

/// `gsd lint --format json --min-severity LEAST`: the versioned report.
pub fn lint(project: &Path, least: MinSeverity) -> Result<Value, Failure> {
    let root = find_root(project)?;
    let report = lint::project::run_project(&root, &Options::default())?;
    let files = report.files_checked();
    let least = match least {
        MinSeverity::Info => Severity::Info,
        MinSeverity::Warning => Severity::Warning,
        MinSeverity::Error => Severity::Error,
    };
    let shown: Vec<_> = report
        .diagnostics
        .into_iter()
        .filter(|d| d.severity <= least)
        .collect();
    let text = lint::output::json::render(&shown, files);
    serde_json::from_str(&text).map_err(|e| Failure::new(e.to_string(), None))
}

/// A core file the tree does not have, said as the CLI says it.
fn missing(ws: &Workspace, name: &str) -> Failure {
    let (file, hint) = crate::view::missing_core_file(ws, name);
    Failure::new(format!("{file} does not exist"), Some(hint)).with_code("gsd::file_not_found")
}
