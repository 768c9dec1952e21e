//! Lookups of phases by ID across the folders and ROADMAP.md.

use std::collections::HashMap;

use super::ids::PhaseKey;
use super::roadmap::{ChecklistEntry, PhaseDetail, ProgressRow};
use super::workspace::{Phase, PhaseLocation};
use super::{PhaseId, Workspace};

/// Every place a phase ID appears, keyed by [`PhaseId::key`].
///
/// Lint rules and `gsd roadmap` compare ROADMAP.md entries with folders
/// phase by phase; scanning the lists for each lookup made them quadratic
/// in the number of phases (a third of `gsd roadmap` on 1,000 phases).
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
    pub fn new(ws: &'a Workspace) -> Self {
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
                if slot.archived && !d.archived {
                    *slot = d;
                }
            }
            for c in &rm.checklist {
                let slot = checklist.entry(c.phase.key()).or_insert(c);
                if slot.archived && !c.archived {
                    *slot = c;
                }
            }
            // A goals table's row says nothing of progress (reading.rs).
            for row in rm
                .progress
                .iter()
                .filter(|t| !t.goals_only())
                .flat_map(|t| &t.rows)
            {
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
