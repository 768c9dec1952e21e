//! A finding is plain data: code, severity, place, message, help.
//! Rendering happens in `lint::output`, never here.

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use serde::ser::SerializeStruct;

use crate::doc::Span;
use crate::model::Document;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(&self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// What a finding's file can be given as: a document's shared path
/// (cloned, not copied), or any path.
pub trait FilePath {
    fn into_file(self) -> Arc<Path>;
}

impl FilePath for &Arc<Path> {
    fn into_file(self) -> Arc<Path> {
        Arc::clone(self)
    }
}

impl FilePath for Arc<Path> {
    fn into_file(self) -> Arc<Path> {
        self
    }
}

impl FilePath for std::path::PathBuf {
    fn into_file(self) -> Arc<Path> {
        self.into()
    }
}

impl FilePath for &std::path::PathBuf {
    fn into_file(self) -> Arc<Path> {
        self.as_path().into()
    }
}

impl FilePath for &Path {
    fn into_file(self) -> Arc<Path> {
        self.into()
    }
}

/// One lint finding.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    /// Path relative to the project root (its document's, shared).
    pub file: Arc<Path>,
    /// 1-based line and column (column counts characters).
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub message: String,
    /// What to do about it: most rules' is a fixed sentence, kept without a
    /// copy per finding (a big tree has a hundred thousand findings).
    pub help: Cow<'static, str>,
    /// The finding is about history (a plan that ran, a shipped phase):
    /// kept as info, and its help says why ([`Diagnostic::help_text`]).
    pub history: bool,
    pub span: Option<Span>,
}

/// What the help of a finding on history adds.
const HISTORY_NOTE: &str = " (kept as info: this plan has run — it has a SUMMARY, its phase is complete or its milestone shipped — or sits where GSD never runs it)";

impl Diagnostic {
    /// The help as shown: with why it is kept as info, for history.
    pub fn help_text(&self) -> Cow<'_, str> {
        if self.history {
            Cow::Owned(format!("{}{HISTORY_NOTE}", self.help))
        } else {
            Cow::Borrowed(&self.help)
        }
    }
}

/// The finding as `gsd lint --format json` writes it (the help as shown).
impl Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Diagnostic", 9)?;
        st.serialize_field("code", self.code)?;
        st.serialize_field("severity", &self.severity)?;
        st.serialize_field("file", &self.file)?;
        st.serialize_field("line", &self.line)?;
        st.serialize_field("column", &self.column)?;
        st.serialize_field("end_line", &self.end_line)?;
        st.serialize_field("end_column", &self.end_column)?;
        st.serialize_field("message", &self.message)?;
        st.serialize_field("help", &self.help_text())?;
        st.end()
    }
}

impl Diagnostic {
    /// A finding at a span of a document.
    pub fn at(
        code: &'static str,
        severity: Severity,
        doc: &Document,
        span: Span,
        message: String,
        help: Cow<'static, str>,
    ) -> Self {
        let (line, column) = doc.source.line_col(span.start);
        let (end_line, end_column) = doc.source.line_col(span.end);
        let small = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Diagnostic {
            code,
            severity,
            file: doc.rel_path.clone(),
            line: small(line),
            column: small(column),
            end_line: small(end_line),
            end_column: small(end_column),
            message,
            help,
            history: false,
            span: Some(span),
        }
    }

    /// A finding about a whole file (or a missing one).
    pub fn file(
        code: &'static str,
        severity: Severity,
        file: impl FilePath,
        message: String,
        help: Cow<'static, str>,
    ) -> Self {
        Diagnostic {
            code,
            severity,
            file: file.into_file(),
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
            message,
            help,
            history: false,
            span: None,
        }
    }
}
