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

    /// `file` with a severity other than the rule's.
    pub fn file_severity(
        &mut self,
        severity: super::diagnostic::Severity,
        file: impl Into<PathBuf>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.out.push(Diagnostic::file(
            self.rule.code,
            severity,
            file.into(),
            message.into(),
            help.into(),
        ));
    }

    /// `at_line` with a severity other than the rule's.
    pub fn at_line_severity(
        &mut self,
        severity: super::diagnostic::Severity,
        doc: &Document,
        line: usize,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        let span = doc.source.line_span(line);
        self.at_severity(severity, doc, span, message, help);
    }

    /// The rule's own severity.
    pub fn severity(&self) -> super::diagnostic::Severity {
        self.rule.severity
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
        self.file_severity(self.rule.severity, file, message, help);
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
    /// What MILESTONES.md and `milestones/` record as shipped (read once).
    pub shipped: crate::model::shipped::ShippedRecords,
    /// The phase STATE.md's position names first (read once: rules ask
    /// per phase whether the work has moved past it).
    state_phase: Option<crate::model::PhaseId>,
}

impl<'a> Ctx<'a> {
    /// A file of the planning folder read (`.planning/` or the
    /// workstream's), relative to the project root, for findings.
    pub fn planning_rel(&self, name: &str) -> PathBuf {
        self.ws.rel(&self.ws.planning.join(name)).to_path_buf()
    }

    /// GSD's first layout (BRIEF.md, no PROJECT.md): it had no STATE.md or
    /// config.json either, so their absence is a note, not a fault.
    pub fn legacy_layout(&self) -> bool {
        let top = self.ws.root.join(".planning");
        top.join("BRIEF.md").is_file() && !top.join("PROJECT.md").is_file()
    }

    /// A `.planning/` that GSD has only mapped (`/gsd:map-codebase` writes
    /// `codebase/` before `new-project` is run): its map and no core file
    /// or phase yet, so nothing is missing — the project is not started.
    /// (An empty `.planning/` is not this: its core files are missing.)
    pub fn not_started(&self) -> bool {
        let ws = self.ws;
        ws.planning.join("codebase").is_dir()
            && ws.roadmap.is_none()
            && ws.state.is_none()
            && ws.project.is_none()
            && ws.config.is_none()
            && ws.phases.is_empty()
            && ws.workstream.is_none()
    }

    /// A workstream other than the one GSD works on whose every milestone
    /// has shipped (`**Status:** Complete`, an archive): a finished track
    /// kept for its records, not work a missing file could hold up.
    pub fn finished_workstream(&self) -> bool {
        let Some(name) = self.ws.workstream.as_deref() else {
            return false;
        };
        let active = crate::model::workstream::resolve(&self.ws.root)
            .ok()
            .flatten();
        active.as_deref() != Some(name)
            && self.reading.current_milestone.is_none()
            && !self.reading.milestones.is_empty()
            && self
                .reading
                .milestones
                .iter()
                .all(|m| m.status == crate::model::milestone::MilestoneStatus::Shipped)
    }

    /// `rule` unless the tree uses GSD's first layout, or is not started,
    /// or is a finished workstream, where a missing core file is a note.
    pub fn weigh_layout(&self, rule: super::diagnostic::Severity) -> super::diagnostic::Severity {
        if self.legacy_layout() || self.not_started() || self.finished_workstream() {
            super::diagnostic::Severity::Info
        } else {
            rule
        }
    }

    /// Between milestones with the roadmap removed: GSD's complete-milestone
    /// archives ROADMAP.md (`milestones/vX.Y-ROADMAP.md`, a MILESTONES.md
    /// entry) and the next new-milestone writes a fresh one.
    pub fn roadmap_archived(&self) -> bool {
        crate::model::shipped::roadmap_archived(self.ws)
    }

    /// Whether a phase is live work: in the current milestone (or a roadmap
    /// without milestones) and not complete. Findings about any other phase
    /// — shipped, finished, of a later milestone — are history or plans,
    /// kept as info.
    pub fn live(&self, id: &crate::model::PhaseId) -> bool {
        self.reading
            .phase(id)
            .is_some_and(|p| p.active && p.status != "complete")
    }

    /// Whether the work has moved past phase `id`: STATE.md's position is
    /// a later phase, a later live phase has run plans, or every live phase is
    /// complete (the milestone's work is done). What `id`'s records still lack is then history, not drift.
    pub fn moved_past(&self, id: &crate::model::PhaseId) -> bool {
        let live = || {
            self.reading
                .phases
                .iter()
                .filter(|p| p.active && !p.backlog)
        };
        // STATE.md has the work on a later phase of the live milestone:
        // it is there now, whatever summaries were written. (Not the
        // reading's current phase: a tick alone moves that on.)
        let at_later = self
            .state_phase
            .as_ref()
            .is_some_and(|at| at > id && live().any(|p| p.phase_id.same(at)));
        at_later
            || live().any(|p| p.phase_id > *id && p.summaries > 0)
            || (live().next().is_some() && live().all(|p| p.status == "complete"))
    }

    /// Whether phase `id` is finished work: the work has moved past it, or
    /// the tree says its plans ran (its VERIFICATION.md passed, a status
    /// says its code is complete): what its records lack is history, not
    /// the work at hand.
    pub fn finished(&self, id: &crate::model::PhaseId) -> bool {
        self.moved_past(id) || self.reading.phase(id).is_some_and(|p| p.ran.is_some())
    }

    /// The severity for a finding about phase `id`: the rule's own while
    /// the phase is live, else info.
    pub fn weigh(
        &self,
        id: &crate::model::PhaseId,
        rule: super::diagnostic::Severity,
    ) -> super::diagnostic::Severity {
        if self.live(id) {
            rule
        } else {
            super::diagnostic::Severity::Info
        }
    }

    pub fn new(ws: &'a Workspace) -> Self {
        Ctx {
            ws,
            phases: PhaseIndex::new(ws),
            reading: RoadmapReading::new(ws),
            archived_requirements: ws.archived_requirements(),
            shipped: crate::model::shipped::ShippedRecords::of(ws),
            state_phase: ws
                .state
                .as_ref()
                .and_then(|st| st.positions().into_iter().next())
                .map(|pos| pos.phase),
        }
    }
}
