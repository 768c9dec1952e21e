//! `gsd mcp`: start the MCP server (`crate::mcp`) on the project.

use std::path::{Path, PathBuf};

use super::error::CliError;
use super::output::Output;

/// Serve until the client closes stdin; the answer is empty (stdout was
/// the protocol's).
pub fn serve(cwd: &Path, project: Option<PathBuf>) -> Result<Output, CliError> {
    let project = match project {
        Some(p) if p.is_absolute() => p,
        Some(p) => cwd.join(p),
        None => cwd.to_path_buf(),
    };
    if !project.is_dir() {
        return Err(CliError::FileNotFound {
            file: project.display().to_string(),
            hint: "pass --project a project folder (one with a .planning/ folder)".into(),
        });
    }
    // Fail now, on stderr, rather than answer every tool call with it.
    crate::model::workspace::find_root(&project)?;
    crate::mcp::serve(project).map_err(|e| CliError::input(e.to_string(), None))?;
    Ok(Output::ok(""))
}
