//! `gsd export html OUT/` and `gsd graph`: pictures of the planning tree.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::export::{ExportError, export_html};
use crate::model::Workspace;
use crate::model::plan_graph::{PhaseGraph, phase_graph};
use crate::render::graph;

use super::args::GraphFormat;
use super::error::CliError;
use super::output::Output;

impl From<ExportError> for CliError {
    fn from(e: ExportError) -> Self {
        match e {
            ExportError::Render(r) => r.into(),
            other => CliError::Export(other),
        }
    }
}

/// `gsd export html OUT`.
pub fn html(cwd: &Path, out: PathBuf, json_out: bool) -> Result<Output, CliError> {
    let ws = Workspace::discover(cwd)?;
    // A relative OUT is the user's: relative to where they ran gsd.
    let out = if out.is_absolute() {
        out
    } else {
        cwd.join(out)
    };
    let done = export_html(&ws, &out, &crate::edit::state::today())?;
    if json_out {
        return Ok(Output::json(&serde_json::to_value(&done).expect("json")));
    }
    Ok(Output::ok(format!(
        "exported {} phase pages, {} phases and {} milestones on the index, {} references\nopen {}\n",
        done.phase_pages,
        done.phases_listed,
        done.milestones,
        done.references,
        done.index.display()
    )))
}

/// `gsd graph [--phase N] --format mermaid|dot|json`.
pub fn graph(cwd: &Path, phase: Option<String>, format: GraphFormat) -> Result<Output, CliError> {
    let ws = Workspace::discover(cwd)?;
    let graphs: Vec<PhaseGraph> = match &phase {
        Some(q) => vec![phase_graph(
            &ws,
            crate::model::plan_ref::find_phase(&ws, q)?,
        )],
        None => ws.current_phases().map(|p| phase_graph(&ws, p)).collect(),
    };
    Ok(match format {
        GraphFormat::Mermaid => Output::ok(graph::mermaid(&graphs)),
        GraphFormat::Dot => Output::ok(graph::dot(&graphs)),
        GraphFormat::Json => Output::json(&json!({ "phases": graphs })),
    })
}
