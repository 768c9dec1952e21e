//! Edits: what a change to a typed value means in bytes. Every function
//! here returns `Edit`s (span + replacement) against the file as read and
//! never re-renders a file, so everything it does not name stays byte for
//! byte: CRLF, comments, key order, quoting, blank lines.

pub mod frontmatter;
pub mod progress;
pub mod renumber;
pub mod roadmap;
pub mod scalar;
pub mod state;

use crate::doc::{Edit, apply_edits};

/// Why an edit cannot be made. Each is the user's input problem (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("{file} has no field `{field}`")]
    UnknownField {
        file: String,
        field: String,
        suggestion: Option<String>,
        known: Vec<String>,
    },
    #[error("phase {value} does not exist")]
    UnknownPhase { value: String, phases: Vec<String> },
    #[error("`{field}` holds {expected}; `{value}` is not one")]
    WrongType {
        field: String,
        expected: &'static str,
        value: String,
    },
    /// A label shown on several body lines (`- Phase 3: …` decisions, two
    /// `See:` lines) is not one field: which line is meant?
    #[error("`{field}` names {} lines of {file}, not one field", candidates.len())]
    AmbiguousField {
        file: String,
        field: String,
        /// (line, value) of each.
        candidates: Vec<(usize, String)>,
    },
    #[error("{file} has unresolved merge-conflict markers (line {line})")]
    ConflictMarkers { file: String, line: usize },
    #[error("{file} is not valid UTF-8")]
    NotText { file: String },
    #[error("{0}")]
    Other(String),
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
