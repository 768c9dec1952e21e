//! `gsd mcp`: a Model Context Protocol server over stdio, so an agent
//! reads and changes the planning tree through typed tools instead of
//! editing markdown by hand.
//!
//! The tool set is small on purpose (every tool's schema is paid for in
//! the agent's context on every turn): four reads (`roadmap`, `state`,
//! `plan`, `lint`) that answer exactly what the CLI's `--json` answers, and
//! four writes (`state_set`, `phase_add`, `phase_complete`, `plan_fm_set`)
//! that run the same use cases as `gsd state set`, `gsd phase add`,
//! `gsd phase complete` and `gsd fm set` through the one write path (lock,
//! refusals, journal, one commit). A refused write changes nothing and is
//! a tool error that says why.
//!
//! The protocol is rmcp's (the official Rust SDK); this module only maps
//! tools to library calls. Its tokio runtime lives only here, built when
//! `gsd mcp` starts, so no other command pays for it. Nothing here prints:
//! stdout is the protocol's.

mod failure;
mod params;
mod reads;
mod server;
mod writes;

use std::path::PathBuf;

use rmcp::ServiceExt;

pub use server::GsdServer;

/// Why the server could not run (not a tool's failure: those are answers).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ServeError {
    #[error("cannot start the MCP server's runtime: {0}")]
    #[diagnostic(code(gsd::mcp::runtime))]
    Runtime(std::io::Error),
    #[error("the MCP session failed: {0}")]
    #[diagnostic(code(gsd::mcp::session))]
    Session(String),
}

/// Serve the project at `project` on stdin/stdout until the client closes
/// stdin. A single-threaded runtime: requests are answered one at a time,
/// which is what the planning lock would impose on writes anyway.
pub fn serve(project: PathBuf) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let service = GsdServer::new(project)
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| ServeError::Session(e.to_string()))?;
        service
            .waiting()
            .await
            .map_err(|e| ServeError::Session(e.to_string()))?;
        Ok(())
    })
}
