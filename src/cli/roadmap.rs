//! `gsd roadmap`: the shared roadmap reading, and `update-progress`.

use std::path::Path;

use crate::model::Workspace;
use crate::model::reading::RoadmapReading;
use crate::model::workspace::Scope;
use crate::ops;

use super::args::WriteFlags;
use super::error::CliError;
use super::output::{Output, stored};
use super::table;

pub fn show(cwd: &Path, json_out: bool, explain: bool) -> Result<Output, CliError> {
    let ws = Workspace::discover_with(cwd, Scope::Reading)?;
    match &ws.roadmap {
        // GSD removes ROADMAP.md when a milestone ships; until the next one
        // is planned, STATE.md still says where the work stands.
        None if ws.state.is_some() => {}
        None => {
            return Err(super::error::missing_core_file(&ws, "ROADMAP.md"));
        }
        // Undecodable text reads as no roadmap at all: say so, not "0 phases".
        Some(rm) if rm.doc.source.text().is_none() => {
            return Err(CliError::input(
                ".planning/ROADMAP.md is not valid UTF-8",
                Some("convert it to UTF-8; `gsd lint` shows where".into()),
            ));
        }
        Some(_) => {}
    }
    let reading = RoadmapReading::new(&ws);
    if json_out {
        let mut v = serde_json::to_value(&reading).expect("a reading serializes");
        if explain {
            v["explain"] = serde_json::json!(reading.explain);
        }
        return Ok(Output::json(&v));
    }
    let mut text = table::roadmap_text(&reading);
    if explain {
        text.push_str(
            "
why:\n",
        );
        for line in &reading.explain {
            text.push_str(&format!("  {line}\n"));
        }
    }
    Ok(Output::ok(text))
}

/// `gsd roadmap update-progress`.
pub fn update_progress(cwd: &Path, write: &WriteFlags) -> Result<Output, CliError> {
    let o = ops::run(
        cwd,
        write.options(),
        Scope::Index,
        ops::roadmap::update_progress,
    )?;
    Ok(stored(o, write.json))
}
