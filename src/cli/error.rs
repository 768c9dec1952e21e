//! Errors the CLI reports, each with its exit code (2: usage or input).

use miette::Diagnostic;

use crate::edit::EditError;
use crate::ops::OpError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum CliError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Workspace(#[from] crate::model::workspace::WorkspaceError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Edit(#[from] EditError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Store(#[from] StoreError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Plan(#[from] crate::model::plan_ref::PlanLookupError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Loop(#[from] crate::ralph::lifecycle::LoopError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Phase(#[from] crate::model::plan_ref::PhaseLookupError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Export(crate::export::ExportError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    Shim(#[from] crate::sdk::shim::ShimError),

    #[error(transparent)]
    #[diagnostic(transparent)]
    SdkPackage(#[from] crate::sdk::coverage::NotAPackage),

    #[error("{file} does not exist")]
    #[diagnostic(code(gsd::file_not_found), help("{hint}"))]
    FileNotFound { file: String, hint: String },

    #[error("{what} has no field `{field}`")]
    #[diagnostic(code(gsd::field_not_found), help("{hint}"))]
    FieldNotFound {
        what: String,
        field: String,
        hint: String,
    },

    #[error("{message}")]
    #[diagnostic(code(gsd::bad_input))]
    BadInput {
        message: String,
        #[help]
        help: Option<String>,
        /// The lines around `at` ([`Excerpt`]: a few lines, clipped).
        #[source_code]
        src: Option<crate::doc::excerpt::Excerpt>,
        #[label("here")]
        at: Option<miette::SourceSpan>,
    },
}

impl CliError {
    /// A plain input error: a message and, maybe, a hint.
    pub fn input(message: impl Into<String>, help: Option<String>) -> Self {
        CliError::BadInput {
            message: message.into(),
            help,
            src: None,
            at: None,
        }
    }

    pub fn exit_code(&self) -> i32 {
        2
    }
}

/// "did you mean" from a list of candidates.
pub fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| {
            (
                strsim::jaro_winkler(&input.to_ascii_lowercase(), &c.to_ascii_lowercase()),
                c,
            )
        })
        .filter(|(s, _)| *s > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

impl From<OpError> for CliError {
    fn from(e: OpError) -> Self {
        match e {
            OpError::Workspace(e) => e.into(),
            OpError::Edit(e) => e.into(),
            OpError::Store(e) => e.into(),
            OpError::Render(e) => e.into(),
            OpError::Plan(e) => e.into(),
            OpError::Phase(e) => e.into(),
            OpError::Missing { file, hint } => CliError::FileNotFound { file, hint },
            OpError::Invalid { message, help } => CliError::input(message, help),
        }
    }
}

/// A core file (ROADMAP.md, STATE.md) the planning folder read does not
/// have, with the hint that fits the tree (`view::missing_core_file`).
pub fn missing_core_file(ws: &crate::model::Workspace, name: &str) -> CliError {
    let (file, hint) = crate::view::missing_core_file(ws, name);
    CliError::FileNotFound { file, hint }
}
