//! What a rule sees (the workspace) and where it reports (the sink).

use std::collections::HashMap;
use std::path::PathBuf;

use crate::doc::Span;
use crate::model::ids::PhaseKey;
use crate::model::roadmap::{ChecklistEntry, PhaseDetail, ProgressRow};
use crate::model::workspace::{Phase, PhaseLocation};
use crate::model::{Document, PhaseId, Workspace};

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
        self.out.push(Diagnostic::at(
            self.rule.code,
            self.rule.severity,
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
}

impl<'a> Ctx<'a> {
    pub fn new(ws: &'a Workspace) -> Self {
        Ctx {
            ws,
            phases: PhaseIndex::new(ws),
        }
    }
}

/// Every place a phase ID appears, keyed by [`PhaseId::key`].
///
/// Rules compare ROADMAP.md entries with folders phase by phase; scanning
/// the lists for each lookup made lint quadratic in the number of phases.
/// Each map answers exactly what the matching scan in the model would
/// (`Workspace::phase`, `Roadmap::phase`, …), first match kept.
pub struct PhaseIndex<'a> {
    /// Phase folders, current ones first (the workspace keeps that order).
    folders: HashMap<PhaseKey, &'a Phase>,
    current: HashMap<PhaseKey, &'a Phase>,
    /// Roadmap detail sections and checklist entries, ones outside
    /// `<details>` preferred.
    details: HashMap<PhaseKey, &'a PhaseDetail>,
    checklist: HashMap<PhaseKey, &'a ChecklistEntry>,
    progress: HashMap<PhaseKey, &'a ProgressRow>,
}

impl<'a> PhaseIndex<'a> {
    fn new(ws: &'a Workspace) -> Self {
        let mut folders = HashMap::new();
        let mut current = HashMap::new();
        for ph in &ws.phases {
            let Some(id) = &ph.id else { continue };
            folders.entry(id.key()).or_insert(ph);
            if ph.location == PhaseLocation::Current {
                current.entry(id.key()).or_insert(ph);
            }
        }
        let mut details: HashMap<PhaseKey, &PhaseDetail> = HashMap::new();
        let mut checklist: HashMap<PhaseKey, &ChecklistEntry> = HashMap::new();
        let mut progress = HashMap::new();
        if let Some(rm) = &ws.roadmap {
            for d in &rm.phases {
                let slot = details.entry(d.id.key()).or_insert(d);
                if slot.in_details && !d.in_details {
                    *slot = d;
                }
            }
            for c in &rm.checklist {
                let slot = checklist.entry(c.phase.key()).or_insert(c);
                if slot.in_details && !c.in_details {
                    *slot = c;
                }
            }
            for row in rm.progress.iter().flat_map(|t| &t.rows) {
                if let Some(id) = &row.phase {
                    progress.entry(id.key()).or_insert(row);
                }
            }
        }
        PhaseIndex {
            folders,
            current,
            details,
            checklist,
            progress,
        }
    }

    /// The folder of a phase, current before archived (`Workspace::phase`).
    pub fn folder(&self, id: &PhaseId) -> Option<&'a Phase> {
        self.folders.get(&id.key()).copied()
    }

    /// The folder of a phase in `phases/`.
    pub fn current(&self, id: &PhaseId) -> Option<&'a Phase> {
        self.current.get(&id.key()).copied()
    }

    /// The `### Phase N:` section (`Roadmap::phase`).
    pub fn detail(&self, id: &PhaseId) -> Option<&'a PhaseDetail> {
        self.details.get(&id.key()).copied()
    }

    /// The checklist entry (`Roadmap::checklist_entry`).
    pub fn checklist(&self, id: &PhaseId) -> Option<&'a ChecklistEntry> {
        self.checklist.get(&id.key()).copied()
    }

    /// The progress-table row (`Roadmap::progress_row`).
    pub fn progress(&self, id: &PhaseId) -> Option<&'a ProgressRow> {
        self.progress.get(&id.key()).copied()
    }

    /// Whether ROADMAP.md names the phase anywhere (`Roadmap::all_phase_ids`).
    pub fn in_roadmap(&self, id: &PhaseId) -> bool {
        let k = id.key();
        self.details.contains_key(&k)
            || self.checklist.contains_key(&k)
            || self.progress.contains_key(&k)
    }
}
