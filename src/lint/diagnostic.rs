//! A finding is plain data: code, severity, place, message, help.
//! Rendering happens in `lint::output`, never here.

use std::path::PathBuf;

use serde::Serialize;

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

/// One lint finding.
#[derive(Debug, Clone, Serialize)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    /// Path relative to the project root.
    pub file: PathBuf,
    /// 1-based line and column (column counts characters).
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub message: String,
    pub help: String,
    #[serde(skip)]
    pub span: Option<Span>,
}

impl Diagnostic {
    /// A finding at a span of a document.
    pub fn at(
        code: &'static str,
        severity: Severity,
        doc: &Document,
        span: Span,
        message: String,
        help: String,
    ) -> Self {
        let (line, column) = doc.source.line_col(span.start);
        let (end_line, end_column) = doc.source.line_col(span.end);
        Diagnostic {
            code,
            severity,
            file: doc.rel_path.clone(),
            line,
            column,
            end_line,
            end_column,
            message,
            help,
            span: Some(span),
        }
    }

    /// A finding about a whole file (or a missing one).
    pub fn file(
        code: &'static str,
        severity: Severity,
        file: PathBuf,
        message: String,
        help: String,
    ) -> Self {
        Diagnostic {
            code,
            severity,
            file,
            line: 1,
            column: 1,
            end_line: 1,
            end_column: 1,
            message,
            help,
            span: None,
        }
    }
}
