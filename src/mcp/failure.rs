//! A tool that could not do what it was asked: the diagnostic's message and
//! help, sent back as a tool error (`isError: true`) the agent can read and
//! act on, never a crash of the server.

use miette::Diagnostic;
use rmcp::model::{CallToolResult, ContentBlock};

use crate::ops::OpError;

/// Why a tool call failed, for the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The diagnostic's code (`gsd::store::refused`), when it has one.
    pub code: Option<String>,
    pub message: String,
    pub help: Option<String>,
}

impl Failure {
    pub fn new(message: impl Into<String>, help: Option<String>) -> Failure {
        Failure {
            code: None,
            message: message.into(),
            help,
        }
    }

    /// With the code the CLI's diagnostic for the same failure has.
    pub fn with_code(mut self, code: &str) -> Failure {
        self.code = Some(code.to_owned());
        self
    }

    /// A miette diagnostic's code, message and help.
    pub fn diagnostic(d: &dyn Diagnostic) -> Failure {
        Failure {
            code: d.code().map(|c| c.to_string()),
            message: d.to_string(),
            help: d.help().map(|h| h.to_string()),
        }
    }

    /// The text the agent reads: `error[code]: message`, then `help: …`.
    pub fn text(&self) -> String {
        let mut s = match &self.code {
            Some(c) => format!("error[{c}]: {}", self.message),
            None => format!("error: {}", self.message),
        };
        if let Some(h) = &self.help {
            s.push_str("\nhelp: ");
            s.push_str(h);
        }
        s
    }

    /// As an MCP tool error.
    pub fn into_result(self) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text(self.text())])
    }
}

impl From<OpError> for Failure {
    fn from(e: OpError) -> Failure {
        match &e {
            OpError::Workspace(d) => Failure::diagnostic(d),
            OpError::Edit(d) => Failure::diagnostic(d),
            OpError::Store(d) => Failure::diagnostic(d),
            OpError::Plan(d) => Failure::diagnostic(d),
            OpError::Phase(d) => Failure::diagnostic(d),
            OpError::Render(r) => Failure::new(r.to_string(), None),
            OpError::Missing { file, hint } => {
                Failure::new(format!("{file} does not exist"), Some(hint.clone()))
                    .with_code("gsd::file_not_found")
            }
            OpError::Invalid { message, help } => {
                Failure::new(message.clone(), help.clone()).with_code("gsd::bad_input")
            }
        }
    }
}

impl From<crate::model::workspace::WorkspaceError> for Failure {
    fn from(e: crate::model::workspace::WorkspaceError) -> Failure {
        Failure::diagnostic(&e)
    }
}

impl From<crate::model::plan_ref::PlanLookupError> for Failure {
    fn from(e: crate::model::plan_ref::PlanLookupError) -> Failure {
        Failure::diagnostic(&e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_says_code_message_and_help() {
        let f = Failure {
            code: Some("gsd::store::refused".into()),
            message: "STATE.md has uncommitted edits".into(),
            help: Some("commit them first".into()),
        };
        assert_eq!(
            f.text(),
            "error[gsd::store::refused]: STATE.md has uncommitted edits\nhelp: commit them first"
        );
        assert_eq!(Failure::new("no", None).text(), "error: no");
    }
}
