//! `gsd recover [--abandon]`: the explicit step that finishes or undoes a
//! change a killed gsd command left in `.gsd/journal.json` (the library
//! checks and moves the files; this renders what it did).

use std::path::Path;

use crate::model::workspace::find_root;
use crate::store::recover::{self, Recovery};
use crate::store::replay::Direction;

use super::error::CliError;
use super::output::Output;

pub fn run(cwd: &Path, abandon: bool, json_out: bool) -> Result<Output, CliError> {
    let root = find_root(cwd)?;
    let direction = if abandon {
        Direction::Undo
    } else {
        Direction::Finish
    };
    let done = recover::recover(&root, direction)?;
    if json_out {
        return Ok(Output::json(&serde_json::json!({ "recovery": done })));
    }
    Ok(Output::ok(match done.as_ref().map(Recovery::describe) {
        None => "nothing to recover: no change is pending\n".to_owned(),
        Some(line) => format!("{line}\n"),
    }))
}
