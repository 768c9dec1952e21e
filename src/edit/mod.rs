//! Edits: what a change to a typed value means in bytes. Every function
//! here returns `Edit`s (span + replacement) against the file as read and
//! never re-renders a file, so everything it does not name stays byte for
//! byte: CRLF, comments, key order, quoting, blank lines.

pub mod frontmatter;
pub mod json;
pub mod progress;
pub mod renumber;
pub mod roadmap;
pub mod scalar;
pub mod state;
pub mod yaml_value;

use crate::doc::{Edit, apply_edits};

/// Why an edit cannot be made. Each is the user's input problem (exit 2),
/// with a hint that says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum EditError {
    #[error("{file} has no field `{field}`")]
    #[diagnostic(
        code(gsd::edit::unknown_field),
        help("{}", field_hint(suggestion, known))
    )]
    UnknownField {
        file: String,
        field: String,
        suggestion: Option<String>,
        known: Vec<String>,
    },
    #[error("phase {value} does not exist")]
    #[diagnostic(
        code(gsd::edit::unknown_phase),
        help("phases: {}", crate::model::list_or_none(phases))
    )]
    UnknownPhase { value: String, phases: Vec<String> },
    #[error("`{field}` holds {expected}; `{value}` is not one")]
    #[diagnostic(
        code(gsd::edit::wrong_type),
        help("give a value of the same kind as the current one")
    )]
    WrongType {
        field: String,
        expected: &'static str,
        value: String,
    },
    /// A label shown on several body lines (`- Phase 3: …` decisions, two
    /// `See:` lines) is not one field: which line is meant?
    #[error("`{field}` names {} lines of {file}, not one field", candidates.len())]
    #[diagnostic(
        code(gsd::edit::ambiguous_field),
        help(
            "edit the line you mean by hand; the lines are: {}",
            lines_hint(candidates)
        )
    )]
    AmbiguousField {
        file: String,
        field: String,
        /// (line, value) of each.
        candidates: Vec<(usize, String)>,
    },
    #[error("{file} has unresolved merge-conflict markers (line {line})")]
    #[diagnostic(
        code(gsd::edit::conflict_markers),
        help("resolve the conflict first; gsd will not guess which side is right")
    )]
    ConflictMarkers { file: String, line: usize },
    #[error("{file} is not valid UTF-8")]
    #[diagnostic(
        code(gsd::edit::not_text),
        help("gsd edits text; convert the file to UTF-8 (its other bytes would be lost)")
    )]
    NotText { file: String },
    #[error("{0}")]
    #[diagnostic(code(gsd::edit::refused))]
    Other(String),
}

fn field_hint(suggestion: &Option<String>, known: &[String]) -> String {
    match suggestion {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!("fields: {}", known.join(", ")),
    }
}

fn lines_hint(candidates: &[(usize, String)]) -> String {
    candidates
        .iter()
        .map(|(l, v)| format!("line {l}: `{v}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Apply edits, mapping overlap errors (a bug, not user input) to Other.
pub fn apply(text: &str, edits: &[Edit]) -> Result<String, EditError> {
    apply_edits(text, edits).map_err(|e| EditError::Other(format!("internal edit error: {e}")))
}

/// Refuse to edit a file with merge-conflict markers: which side is real?
pub fn check_conflicts(file: &str, text: &str) -> Result<(), EditError> {
    match crate::doc::conflict::first_conflict_line(text.as_bytes()) {
        Some(line) => Err(EditError::ConflictMarkers {
            file: file.to_owned(),
            line,
        }),
        None => Ok(()),
    }
}
