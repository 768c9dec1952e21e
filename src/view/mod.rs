//! The JSON answers of the read commands, as library functions.
//!
//! `gsd state --json`, `gsd plan show --json` and the MCP server's read
//! tools must say the same thing: each answer is built once, here, from
//! the loaded [`Workspace`](crate::model::Workspace), and the callers only
//! print or send it. Nothing here reads the disk, prints or writes.

pub mod plan;
pub mod state;

/// A core file (ROADMAP.md, STATE.md) the planning folder read does not
/// have: its path, and the hint that fits the tree (start it with
/// `gsd init`, plan the workstream, or pick a workstream where the work
/// lives).
pub fn missing_core_file(ws: &crate::model::Workspace, name: &str) -> (String, String) {
    let names = crate::model::workstream::names(&ws.root);
    let hint = match &ws.workstream {
        Some(w) => {
            format!("workstream `{w}` has no {name} yet; `gsd workstream list` shows the others")
        }
        None if !names.is_empty() => format!(
            "this project keeps its work in workstreams ({}): pass --ws NAME, or name one in .planning/active-workstream",
            names.join(", ")
        ),
        None => "create it with `gsd init`".into(),
    };
    (ws.rel(&ws.planning.join(name)).display().to_string(), hint)
}
