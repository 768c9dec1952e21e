//! The JSON answers of the read commands, as library functions.
//!
//! `gsd state --json`, `gsd plan show --json` and the MCP server's read
//! tools must say the same thing: each answer is built once, here, from
//! the loaded [`Workspace`](crate::model::Workspace), and the callers only
//! print or send it. Nothing here reads the disk, prints or writes.

pub mod plan;
pub mod state;
