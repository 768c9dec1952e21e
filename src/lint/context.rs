//! What a rule sees (the workspace) and where it reports (the sink).

use std::path::PathBuf;

use crate::doc::Span;
use crate::model::reading::RoadmapReading;
use crate::model::requirements::Requirements;
use crate::model::{Document, PhaseIndex, Workspace};

use super::diagnostic::Diagnostic;
use super::registry::Rule;

/// Collects findings for one rule at a time.
pub struct Sink<'a> {
    pub(crate) rule: &'a Rule,
    pub(crate) out: Vec<Diagnostic>,
}

impl Sink<'_> {
    /// Report at a span of a document.
    pub fn at(
        &mut self,
        doc: &Document,
        span: Span,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.at_severity(self.rule.severity, doc, span, message, help);
    }

    /// Report at a span with a severity other than the rule's (a rule whose
    /// finding weighs more in one kind of file than another).
    pub fn at_severity(
        &mut self,
        severity: super::diagnostic::Severity,
        doc: &Document,
        span: Span,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.out.push(Diagnostic::at(
            self.rule.code,
            severity,
            doc,
            span,
            message.into(),
            help.into(),
        ));
    }

    /// Report at a 1-based line of a document.
    pub fn at_line(
        &mut self,
        doc: &Document,
        line: usize,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        let span = doc.source.line_span(line);
        self.at(doc, span, message, help);
    }

    /// Report about a file as a whole (it may not exist).
    pub fn file(
        &mut self,
        file: impl Into<PathBuf>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.out.push(Diagnostic::file(
            self.rule.code,
            self.rule.severity,
            file.into(),
            message.into(),
            help.into(),
        ));
    }
}

/// The input of every rule.
pub struct Ctx<'a> {
    pub ws: &'a Workspace,
    /// Phase lookups by ID, built once for all rules.
    pub phases: PhaseIndex<'a>,
    /// The milestone reading every command shares (current milestone,
    /// archived and active phases).
    pub reading: RoadmapReading,
    /// Requirements of shipped milestones (`milestones/vX.Y-REQUIREMENTS.md`).
    pub archived_requirements: Vec<Requirements>,
}

impl<'a> Ctx<'a> {
    pub fn new(ws: &'a Workspace) -> Self {
        Ctx {
            ws,
            phases: PhaseIndex::new(ws),
            reading: RoadmapReading::new(ws),
            archived_requirements: ws.archived_requirements(),
        }
    }
}
