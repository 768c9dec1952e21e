//! Errors the CLI reports, each with its exit code (2: usage or input).

use miette::Diagnostic;

#[derive(Debug, thiserror::Error, Diagnostic)]
pub enum CliError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Workspace(#[from] crate::model::workspace::WorkspaceError),

    #[error("no plan matches `{id}`")]
    #[diagnostic(code(gsd::plan_not_found), help("{hint}"))]
    PlanNotFound { id: String, hint: String },

    #[error("`{id}` names several plans")]
    #[diagnostic(code(gsd::plan_ambiguous), help("{hint}"))]
    PlanAmbiguous { id: String, hint: String },

    #[error("no phase matches `{id}`")]
    #[diagnostic(code(gsd::phase_not_found), help("{hint}"))]
    PhaseNotFound { id: String, hint: String },

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
        #[source_code]
        src: Option<miette::NamedSource<String>>,
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
