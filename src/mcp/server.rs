//! The MCP surface: one method per tool, each a line that calls `reads` or
//! `writes` and turns the answer into a tool result. The descriptions are
//! what the agent reads to choose a tool, so they say what it returns.

use std::path::PathBuf;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde_json::Value;

use super::failure::Failure;
use super::params::{
    LintArgs, Parameters, PhaseAddArgs, PhaseCompleteArgs, PlanArgs, PlanFmSetArgs, StateSetArgs,
};
use super::{reads, writes};

/// The server for one project: the folder it was started in (or
/// `--project`), found again on every call like any gsd command.
#[derive(Clone)]
pub struct GsdServer {
    project: PathBuf,
    tool_router: ToolRouter<GsdServer>,
}

/// Run one tool and give its answer: the JSON as structured content (and
/// as its text), or the failure as a tool error. A bug that panics is a
/// tool error too (the panic message went to stderr): one bad call must
/// not end the agent's session. A write's files are safe either way: the
/// store journals before it writes.
fn answer(tool: impl FnOnce() -> Result<Value, Failure>) -> CallToolResult {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(tool)) {
        Ok(Ok(v)) => CallToolResult::structured(v),
        Ok(Err(f)) => f.into_result(),
        Err(_) => Failure::new(
            "gsd hit a bug answering this call (its message is on the server's stderr)",
            Some(
                "please report it; `gsd recover` finishes or undoes a write it interrupted".into(),
            ),
        )
        .with_code("gsd::mcp::panic")
        .into_result(),
    }
}

#[tool_router]
impl GsdServer {
    pub fn new(project: PathBuf) -> GsdServer {
        GsdServer {
            project,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "The roadmap as JSON (gsd roadmap --json): milestones, phases with status and plan counts, current and next phase.",
        annotations(read_only_hint = true)
    )]
    async fn roadmap(&self) -> CallToolResult {
        answer(|| reads::roadmap(&self.project))
    }

    #[tool(
        description = "STATE.md as JSON (gsd state --json): fields, current phase, status, decisions, blockers.",
        annotations(read_only_hint = true)
    )]
    async fn state(&self) -> CallToolResult {
        answer(|| reads::state(&self.project))
    }

    #[tool(
        description = "One plan as JSON (gsd plan show --json): frontmatter, tasks, must_haves.",
        annotations(read_only_hint = true)
    )]
    async fn plan(&self, Parameters(a): Parameters<PlanArgs>) -> CallToolResult {
        answer(|| reads::plan(&self.project, &a.id))
    }

    #[tool(
        description = "Lint findings as JSON (gsd lint --format json): code, severity, file, line, message, help.",
        annotations(read_only_hint = true)
    )]
    async fn lint(&self, Parameters(a): Parameters<LintArgs>) -> CallToolResult {
        answer(|| reads::lint(&self.project, a.min_severity.unwrap_or_default()))
    }

    #[tool(
        description = "Set a STATE.md field everywhere it is shown (gsd state set). Commits; returns the diff and commit.",
        annotations(read_only_hint = false, destructive_hint = false)
    )]
    async fn state_set(&self, Parameters(a): Parameters<StateSetArgs>) -> CallToolResult {
        answer(|| writes::state_set(&self.project, &a.field, &a.value))
    }

    #[tool(
        description = "Add the next integer phase to the roadmap (gsd phase add). Commits; returns the diff and commit.",
        annotations(read_only_hint = false, destructive_hint = false)
    )]
    async fn phase_add(&self, Parameters(a): Parameters<PhaseAddArgs>) -> CallToolResult {
        answer(|| writes::phase_add(&self.project, &a.name))
    }

    #[tool(
        description = "Mark a phase complete in the roadmap, moving STATE.md on (gsd phase complete). Commits; returns the diff and commit.",
        annotations(read_only_hint = false, destructive_hint = false)
    )]
    async fn phase_complete(&self, Parameters(a): Parameters<PhaseCompleteArgs>) -> CallToolResult {
        let force = a.force.unwrap_or(false);
        answer(|| writes::phase_complete(&self.project, &a.phase, force))
    }

    #[tool(
        description = "Set one frontmatter key of a plan (gsd fm set). Commits; returns the diff and commit.",
        annotations(read_only_hint = false, destructive_hint = false)
    )]
    async fn plan_fm_set(&self, Parameters(a): Parameters<PlanFmSetArgs>) -> CallToolResult {
        answer(|| writes::plan_fm_set(&self.project, &a.id, &a.key, &a.value))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for GsdServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("gsd", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Read and change this project's GSD .planning/ tree. Writes are committed; a refused write changes nothing and says why.",
            )
    }
}
