//! The one answer to "where does this project stand": which milestone is
//! current, its phases with their status on disk, the current and next
//! phase, and progress — computed once from ROADMAP.md (milestones, see
//! [`super::milestone`]), STATE.md (`milestone:`) and the phase folders.
//!
//! `gsd roadmap`, `gsd phase list`, `gsd state`, lint and `gsd prd` all
//! answer from this type, so they cannot disagree about the same tree.

use std::collections::HashMap;

use serde::Serialize;

use super::Workspace;
use super::ids::{PhaseId, PhaseKey};
use super::milestone::{Milestone, MilestoneSource, MilestoneStatus, same_version, version_order};
use super::roadmap::{ChecklistEntry, PhaseDetail, ProgressRow};
use super::shipped::ShippedRecords;
use super::workspace::{Phase, PhaseLocation};

/// A phase as the roadmap and the disk together show it.
#[derive(Debug, Clone, Serialize)]
pub struct PhaseReading {
    /// Padded (`05`, `02.1`).
    pub id: String,
    /// As ROADMAP headings write it (`5`, `2.1`).
    pub number: String,
    pub name: Option<String>,
    pub goal: Option<String>,
    pub depends_on: Option<String>,
    pub requirements: Vec<String>,
    /// `complete`, `partial`, `planned`, `researched`, `discussed`, `empty`,
    /// `no_directory` (GSD-FORMATS §4.3 `disk_status`; a ticked checklist
    /// entry makes it `complete`).
    pub status: &'static str,
    pub checked: Option<bool>,
    /// Why the tree says its plans ran though the phase may not be closed
    /// (its VERIFICATION passed; a status says code-complete): lint keeps
    /// what its plans lack as history. `None`: no such word.
    #[serde(skip)]
    pub ran: Option<&'static str>,
    /// What settled its status (`gsd roadmap --explain`).
    #[serde(skip)]
    pub because: String,
    pub plans: usize,
    pub summaries: usize,
    pub has_dir: bool,
    /// The version (or title) of the milestone it belongs to.
    pub milestone: Option<String>,
    /// In a shipped milestone.
    pub archived: bool,
    /// In the current milestone (or in no milestone when the roadmap names
    /// none), and not backlog: what counts toward progress.
    pub active: bool,
    pub backlog: bool,
    /// The phase folder it was matched to (the export links its page).
    #[serde(skip)]
    pub dir: Option<std::path::PathBuf>,
    #[serde(skip)]
    pub phase_id: PhaseId,
    #[serde(skip)]
    pub milestone_index: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MilestoneReading {
    pub version: Option<String>,
    pub title: String,
    pub status: MilestoneStatus,
    pub current: bool,
    pub phase_range: Option<String>,
    /// Phases the roadmap lists for it.
    pub phases: usize,
    /// `milestones/` archive files for it, relative to `.planning/`.
    pub archive: Vec<String>,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct RoadmapReading {
    pub milestones: Vec<MilestoneReading>,
    /// For each milestone, its place when ordered by version.
    #[serde(skip)]
    pub milestone_rank: Vec<usize>,
    pub current_milestone: Option<String>,
    pub phases: Vec<PhaseReading>,
    /// Active phases only (see [`PhaseReading::active`]).
    pub phase_count: usize,
    pub completed_phases: usize,
    pub total_plans: usize,
    pub total_summaries: usize,
    pub progress_percent: usize,
    /// First active phase that is planned or partly done.
    pub current_phase: Option<String>,
    /// First active phase not yet planned (may come before the current one,
    /// as in gsd-tools).
    pub next_phase: Option<String>,
    /// Which evidence settled each answer where sources could disagree
    /// (`gsd roadmap --explain`).
    #[serde(skip)]
    pub explain: Vec<String>,
    /// Positions in `phases` by phase key, built on the first lookup: a
    /// scan per lookup made per-phase questions quadratic in the phases.
    #[serde(skip)]
    index: std::sync::OnceLock<std::collections::HashMap<super::ids::PhaseKey, Vec<usize>>>,
}

impl RoadmapReading {
    pub fn new(ws: &Workspace) -> RoadmapReading {
        let first = RoadmapReading::build(ws, None);
        // STATE.md's position sits in another open milestone that still has
        // work to do: that is where the work is, whatever the roadmap's marks
        // or STATE.md's `milestone:` key (GSD's tools write that key from the
        // roadmap's last version heading, and marks lag behind the work).
        if let Some(m) = first.position_milestone(ws)
            && first.milestones.get(m).is_some_and(|r| !r.current)
        {
            return RoadmapReading::build(ws, Some((m, Forced::Position)));
        }
        // A milestone no mark calls shipped, whose phases are all complete,
        // with an open milestone after it: that work is done, and the next
        // milestone is the one being worked on.
        // Each such milestone in turn: unmarked milestones all of whose
        // phases are ticked lead to the first one with work left (or the
        // last one, all done).
        let mut reading = first;
        for _ in 0..reading.milestones.len() {
            let Some(c) = reading.milestones.iter().position(|m| m.current) else {
                return reading;
            };
            let next = (0..reading.milestones.len())
                .filter(|&i| reading.milestone_rank[i] > reading.milestone_rank[c])
                .filter(|&i| reading.milestones[i].status != MilestoneStatus::Shipped)
                .min_by_key(|&i| reading.milestone_rank[i]);
            // Marked in progress as the next one is too (`## Milestone 3 …
            // (ACTIVE)` over `## Milestone 4 … (ACTIVE)`, batch 32
            // ajamj+ajamj.github.io): a mark left behind when the work moved on.
            let unmarked_or_left = match reading.milestones[c].status {
                MilestoneStatus::Unknown => true,
                MilestoneStatus::InProgress => next
                    .is_some_and(|n| reading.milestones[n].status == MilestoneStatus::InProgress),
                _ => false,
            };
            let done = unmarked_or_left
                && reading.completed_phases == reading.phase_count
                && reading.phase_count > 0;
            match next {
                Some(n) if done => {
                    reading = RoadmapReading::build(ws, Some((n, Forced::PreviousDone)));
                }
                _ => return reading,
            }
        }
        reading
    }

    /// The reading, with the current milestone given (by index into the
    /// roadmap's milestones) or decided from the evidence.
    fn build(ws: &Workspace, forced: Option<(usize, Forced)>) -> RoadmapReading {
        let state_version = ws
            .state
            .as_ref()
            .and_then(|s| s.fm_field("milestone"))
            .filter(|(_, n)| !n.is_null())
            .and_then(|(_, n)| n.as_str().map(str::to_owned));
        let state_name = ws
            .state
            .as_ref()
            .and_then(|s| s.fm_field("milestone_name"))
            .and_then(|(_, n)| n.as_str().map(str::to_owned));
        let mut owned: Vec<Milestone> = ws
            .roadmap
            .as_ref()
            .map(|r| r.milestones.clone())
            .unwrap_or_default();
        // A roadmap that names no milestone works on the one STATE.md names,
        // when it names a real one (not GSD's `v1.0` / `milestone` default).
        // With no ROADMAP.md at all (GSD removes it when a milestone ships,
        // and the next one is still defining requirements) it is the same.
        let from_state = owned.is_empty();
        let from_state = from_state
            .then(|| state_milestone(ws).or_else(|| project_milestone(ws)))
            .flatten()
            .map(|m| {
                owned.push(m);
                owned.len() - 1
            });
        // A milestone the roadmap leaves unmarked (or STATE.md still names)
        // that MILESTONES.md, an archive or STATE.md's table records as
        // shipped has shipped.
        let records = ShippedRecords::of(ws);
        let mut explain: Vec<String> = Vec::new();
        for i in 0..owned.len() {
            let Some(v) = owned[i].version.clone() else {
                continue;
            };
            let unmarked = owned[i].status == MilestoneStatus::Unknown
                || matches!(
                    owned[i].source,
                    MilestoneSource::State | MilestoneSource::Project
                );
            let alone = owned
                .iter()
                .filter(|m| m.version.as_deref().is_some_and(|w| same_version(w, &v)))
                .count()
                == 1;
            let outdated =
                owned[i].status == MilestoneStatus::InProgress && records.shipped_and_archived(&v);
            // The milestone STATE.md names for a roadmap without
            // milestones, whose phases are live in phases/: an archive of
            // some earlier phase folder of its own is no ship record.
            let partly_archived = from_state == Some(i)
                && records.only_phase_folders(&v)
                && roadmap_phase_is_live(ws);
            if partly_archived {
                explain.push(format!(
                    "{} has not shipped: only phase folders are archived (milestones/{v}-phases/); the roadmap's phases are still in phases/",
                    owned[i].label()
                ));
                continue;
            }
            if (unmarked || outdated)
                && alone
                && let Some(why) = records.says_shipped(&v)
            {
                owned[i].status = MilestoneStatus::Shipped;
                let though = if owned[i].source == MilestoneSource::State {
                    "STATE.md still names it"
                } else if owned[i].source == MilestoneSource::Project {
                    "PROJECT.md still names it"
                } else if outdated {
                    "the roadmap's in-progress mark was never updated (its roadmap is archived)"
                } else {
                    "the roadmap does not mark it"
                };
                explain.push(format!("{} has shipped: {why}; {though}", owned[i].label()));
                continue;
            }
            explain.push(why_status(&owned[i]));
        }
        let from_state = from_state.filter(|&i| !owned[i].is_shipped());
        let milestones: &[Milestone] = &owned;
        let current = match from_state.or(forced.map(|(i, _)| i)) {
            Some(i) => Some(i),
            None => super::milestone::current(
                milestones,
                state_version.as_deref(),
                state_name.as_deref(),
            ),
        };
        explain.push(why_current(
            milestones,
            current,
            from_state,
            forced,
            state_version.as_deref(),
        ));
        let folders = Folders::new(ws);

        // Every (milestone, phase) the roadmap names, in file order of first
        // mention; then folders in phases/ that it does not name.
        let mut order: Vec<(Option<usize>, PhaseId)> = Vec::new();
        let mut seen: HashMap<(Option<usize>, PhaseKey), usize> = HashMap::new();
        let mut push = |m: Option<usize>, id: &PhaseId| {
            let m = m.or(from_state);
            if seen.insert((m, id.key()), order.len()).is_none() {
                order.push((m, id.clone()));
            }
        };
        if let Some(rm) = &ws.roadmap {
            for p in &rm.phases {
                push(p.milestone, &p.id);
            }
            for c in &rm.checklist {
                push(c.milestone, &c.phase);
            }
            for r in rm.progress.iter().flat_map(|t| &t.rows) {
                if let Some(id) = &r.phase {
                    push(r.milestone, id);
                }
            }
        }
        let named: std::collections::HashSet<PhaseKey> =
            seen.keys().map(|(_, k)| k.clone()).collect();
        // Folders the roadmap does not name: live work only in a roadmap
        // with no milestones; beside named milestones they are left over
        // from shipped ones (or not planned yet), never the current work.
        // So too beside a roadmap of phases alone once the tree records a
        // shipped milestone: that roadmap is the next milestone's, and the
        // folders it leaves out are the shipped ones' (numbering that
        // restarted leaves two folders per number).
        let mut unnamed: std::collections::HashSet<PhaseKey> = std::collections::HashSet::new();
        for ph in ws.current_phases() {
            if let Some(id) = &ph.id
                && !named.contains(&id.key())
            {
                // A folder the roadmap does not name (the list only gives a
                // range for a collapsed milestone) takes the range's milestone.
                // (A milestone STATE.md names holds the roadmap's phases,
                // not every folder left on disk.)
                let m = ws.roadmap.as_ref().and_then(|r| r.milestone_by_range(id));
                // (Left over: a record names it, or its plans all ran; a folder
                // of new work with plans still to run stays live.)
                let left_over = records.any()
                    && !named.is_empty()
                    && (records.names_shipped_phase(id) || ph.disk_status() == "complete");
                if m.is_none() && (!milestones.is_empty() || left_over) {
                    unnamed.insert(id.key());
                }
                if seen.insert((m, id.key()), order.len()).is_none() {
                    order.push((m, id.clone()));
                }
            }
        }

        // Entries by (milestone, phase), first mention kept: a lookup per
        // phase, not a scan (1,000-phase roadmaps made scans quadratic).
        let mut details: HashMap<(Option<usize>, PhaseKey), &PhaseDetail> = HashMap::new();
        let mut entries: HashMap<(Option<usize>, PhaseKey), &ChecklistEntry> = HashMap::new();
        let mut rows: HashMap<(Option<usize>, PhaseKey), &ProgressRow> = HashMap::new();
        // The phase STATE.md says the work is in now (its first position,
        // with a status that does not say done): its roadmap section's
        // ticked boxes are work under way, not a finished phase.
        // Else, when its status says that phase is done (`Status: Phase
        // complete`, `Phase: 07.1 — SHIPPED`), the phase's plans ran,
        // whatever summary one of them lacks.
        let (state_current, state_done): (Option<PhaseKey>, Option<PhaseKey>) = ws
            .state
            .as_ref()
            .and_then(|st| {
                let pos = st.positions().into_iter().next()?;
                let line = st.body_field("currentPhase");
                let line_done = line.is_some_and(|f| f.value.to_lowercase().contains("complete"));
                // The position line's own status after the phase (`Phase: 12
                // (Dashboard) — COMPLETE`, `Phase: 10 ✓, 10.1 ✓, 11 ready`,
                // batch 31) says that phase is done.
                let phase_done = st
                    .status()
                    .is_some_and(|s| super::state::status_says_phase_done(&s))
                    || line.is_some_and(|f| {
                        super::state::position_says_done(&f.value)
                            && super::state::parse_position(&f.value)
                                .is_some_and(|p| p.phase == pos.phase)
                    });
                Some(if phase_done {
                    (None, Some(pos.phase.key()))
                } else if st.says_phase_done() || line_done {
                    (None, None)
                } else {
                    (Some(pos.phase.key()), None)
                })
            })
            .unwrap_or_default();
        // STATE.md's own per-phase record (a `| Phase | Status |` table,
        // or `### Phase 1: Unpack ✅` headings), first of a phase kept:
        // some trees keep their progress there.
        let mut state_rows: HashMap<PhaseKey, (String, &'static str)> = HashMap::new();
        for r in ws.state.iter().flat_map(|st| st.phase_status_rows()) {
            state_rows
                .entry(r.phase.key())
                .or_insert((r.status, r.source));
        }
        if let Some(rm) = &ws.roadmap {
            // A table of goals (`| Phase | Goal | Requirements |`) says
            // nothing of progress: it does not hide a later table's row
            // (batch 29, molmdl+autoEnsmblDockMD).
            for r in rm
                .progress
                .iter()
                .filter(|t| !t.goals_only())
                .flat_map(|t| &t.rows)
            {
                if let Some(id) = &r.phase {
                    rows.entry((r.milestone, id.key())).or_insert(r);
                }
            }
            for p in &rm.phases {
                details.entry((p.milestone, p.id.key())).or_insert(p);
            }
            for c in &rm.checklist {
                entries.entry((c.milestone, c.phase.key())).or_insert(c);
            }
        }
        // The current milestone's lowest phase: a phase outside every
        // milestone numbered below it is older work; one from it on (a
        // phase `gsd phase add` appended past the listed range) is its.
        let current_first = current.and_then(|c| {
            order
                .iter()
                .filter(|(m, id)| *m == Some(c) && !id.is_backlog())
                .map(|(_, id)| id)
                .min()
                .cloned()
        });
        // A shipped milestone listed after the current one, its phases
        // numbered between the current one's first and `id` (`🚧 v1.19 —
        // Phases 69, 70, 77`, then `✅ v1.20 — Phases 78–86`): a phase
        // outside every milestone past it came after the current
        // milestone's time, not within it. (One listed before it is older
        // work, whatever its numbers: numbering that restarts.)
        let shipped_ids: Vec<PhaseId> = order
            .iter()
            .filter(|(m, _)| {
                m.is_some_and(|i| milestones[i].is_shipped() && current.is_some_and(|c| i > c))
            })
            .map(|(_, id)| id.clone())
            .collect();
        let shipped_between =
            |first: &PhaseId, id: &PhaseId| shipped_ids.iter().any(|o| o > first && o < id);
        // No milestone is current (every one named has shipped), yet the
        // roadmap lists phases outside every milestone with unticked boxes,
        // none inside a shipped milestone's listed range: that list is the
        // work under way, in a milestone the roadmap does not name (`##
        // Previous Milestone` ✅ v1.0, then `## Phases` of the next).
        // (Or the range a shipped MILESTONES.md entry names: `## v1.0 --
        // Core Bot (Phases 1-3, shipped …)`.)
        let in_shipped_range = |id: &PhaseId| {
            ws.roadmap
                .as_ref()
                .and_then(|r| r.milestone_by_range(id))
                .is_some()
                || records.names_shipped_phase(id)
        };
        // A phase never started (no folder, no tick) below the last phase a
        // shipped milestone took: the work went past it.
        let last_shipped = order
            .iter()
            .filter(|(_, id)| in_shipped_range(id))
            .map(|(_, id)| id)
            .max();
        let passed_over = |id: &PhaseId| {
            last_shipped.is_some_and(|last| id < last)
                && folders.find(id, None, false, None).is_none()
        };
        let loose_live = current.is_none()
            && !milestones.is_empty()
            && order.iter().any(|(m, id)| {
                m.is_none()
                    && !id.is_backlog()
                    && !unnamed.contains(&id.key())
                    && !in_shipped_range(id)
                    && !passed_over(id)
                    && entries
                        .get(&(None, id.key()))
                        .is_some_and(|e| !e.checked && !super::milestone::says_dropped(&e.name))
            });
        if loose_live {
            explain.push(
                "no milestone named is current, but the roadmap lists unfinished phases outside every milestone: they are the work under way".to_owned(),
            );
        }
        let mut phases = Vec::new();
        for (m, id) in order {
            // Its own milestone's entry, else one outside every milestone.
            let detail = details
                .get(&(m, id.key()))
                .or_else(|| details.get(&(None, id.key())))
                .copied();
            let entry = entries
                .get(&(m, id.key()))
                .or_else(|| entries.get(&(None, id.key())))
                .copied();
            let row = rows
                .get(&(m, id.key()))
                .or_else(|| rows.get(&(None, id.key())))
                .copied();
            let milestone = m.map(|i| &milestones[i]);
            let archived = milestone.is_some_and(Milestone::is_shipped);
            let backlog = id.is_backlog();
            // `Phase 12: SMS Reminders (REMOVED)`: not part of any plan now.
            let dropped = detail.is_some_and(|d| super::milestone::says_dropped(&d.name))
                || entry.is_some_and(|e| super::milestone::says_dropped(&e.name));
            // The checklist entry's whole line: its description's status
            // suffix (`- [ ] **Phase 9: Telegram** - … (deferred)`) is past
            // the name the entry keeps.
            let entry_line = entry.and_then(|e| {
                let rm = ws.roadmap.as_ref()?;
                Some(rm.doc.source.line_span(e.line).slice(rm.doc.text()))
            });
            let active = !backlog
                && !dropped
                && !archived
                && (m.is_some() || !unnamed.contains(&id.key()))
                && match (m, current) {
                    // Outside every milestone, beside a current one with
                    // phases of its own: its work from its first phase on.
                    // Unless the roadmap puts it off (`| 8. Payments | 0/? |
                    // Deferred |`): parked beside the milestone, not its work.
                    (None, Some(_)) => {
                        current_first
                            .as_ref()
                            .is_none_or(|f| id >= *f && !shipped_between(f, &id))
                            && !put_off(detail, entry, row)
                    }
                    // Milestones named and none current: between
                    // milestones, nothing is live.
                    // (In a roadmap of phases alone, one put off is
                    // parked beside the work, not its next step.)
                    (None, None) => {
                        (milestones.is_empty() && !named_put_off(detail, entry, entry_line))
                            || (loose_live
                                && !unnamed.contains(&id.key())
                                && !in_shipped_range(&id))
                    }
                    // In the current milestone unless put off where its
                    // status is written (`- [ ] **Phase 9: Telegram** - …
                    // (deferred)`, batch 32 iugo-glen+agend-ops): parked in
                    // it, not its work.
                    (Some(i), Some(c)) => i == c && !named_put_off(detail, entry, entry_line),
                    (Some(_), None) => true,
                };
            // Folders are told apart by the heading's words after the
            // number, past the dash its name stops at (`Phase 1: Foundation
            // - Task Orchestration Core` ~ `01-task-orchestration` rather
            // than another numbering's `01-foundation`; batch 30, StoFlow).
            let heading_words = detail.and_then(|d| {
                let rm = ws.roadmap.as_ref()?;
                let line = rm.doc.source.line_span(d.line).slice(rm.doc.text());
                line.find(d.name.as_str()).map(|at| &line[at..])
            });
            let disk = folders.find(
                &id,
                milestone,
                archived,
                heading_words
                    .or_else(|| detail.map(|d| d.name.as_str()))
                    .or_else(|| entry.map(|e| e.name.as_str())),
            );
            let (np, ns) = disk.map_or((0, 0), |d| (d.plan_count(), d.completed_plans()));
            // The tree says the phase is done: a ticked entry, a done
            // status cell, a status in its heading (`✅`, `(Complete)`).
            let ticked = entry.is_some_and(|e| e.checked);
            let row_done = row
                .is_some_and(|r| MilestoneStatus::of_value(&r.status) == MilestoneStatus::Shipped);
            // The heading as written: its name drops a status after a dash
            // (`### Phase 7: Layout Shell — COMPLETE`).
            let heading_done = detail.is_some_and(|d| {
                MilestoneStatus::of_text(&d.name) == MilestoneStatus::Shipped
                    || ws.roadmap.as_ref().is_some_and(|rm| {
                        let line = rm.doc.source.line_span(d.line).slice(rm.doc.text());
                        MilestoneStatus::of_text(line) == MilestoneStatus::Shipped
                    })
            });
            // `**Status:** Complete (2026-02-07)` in its detail section.
            let line_done = detail.is_some_and(|d| {
                d.status_label
                    .as_deref()
                    .is_some_and(|s| MilestoneStatus::of_value(s) == MilestoneStatus::Shipped)
            });
            // Every box in its section is ticked: its `Plans:` list, its
            // criteria or its task list, ticked as the work landed.
            // (Or every plan line is: a box of an outside prerequisite —
            // `- [ ] JWT for the deployment must be provided` — left open
            // does not undo plans that ran.)
            let plans_ticked = state_current.as_ref() != Some(&id.key())
                && detail.is_some_and(|d| {
                    (d.boxes.1 > 0 && d.boxes.0 == d.boxes.1)
                        || (!d.plans.is_empty() && d.plans.iter().all(|p| p.checked == Some(true)))
                });
            let state_row_done = state_rows
                .get(&id.key())
                .filter(|(s, _)| MilestoneStatus::of_value(s) == MilestoneStatus::Shipped)
                .map(|(_, source)| *source);
            let said_done = ticked
                || row_done
                || heading_done
                || line_done
                || plans_ticked
                || state_row_done.is_some();
            // Its code landed, a gate still open (`CODE-COMPLETE`,
            // `[~] … — code-complete, human-verify pending`), or its
            // verification passed: the plans ran.
            let code_complete = entry
                .is_some_and(|e| super::milestone::says_code_complete(&e.name, false))
                || detail.is_some_and(|d| {
                    super::milestone::says_code_complete(&d.name, false)
                        || d.status_label
                            .as_deref()
                            .is_some_and(|s| super::milestone::says_code_complete(s, true))
                })
                || row.is_some_and(|r| super::milestone::says_code_complete(&r.status, true))
                || state_rows
                    .get(&id.key())
                    .is_some_and(|(s, _)| super::milestone::says_code_complete(s, true));
            let ran = if disk.is_some_and(|d| d.verified()) {
                Some("its VERIFICATION passed")
            } else if code_complete {
                Some("a status says its code is complete")
            } else if state_done.as_ref() == Some(&id.key()) {
                Some("STATE.md's position says it is done")
            } else if disk.is_some_and(|d| {
                d.summary_files
                    .iter()
                    .any(|f| super::workspace::phase_level_summary(f, &id))
            }) {
                // One summary for the whole phase (`06-SUMMARY.md` beside
                // `06-01..05-PLAN.md`): its plans ran, recorded together.
                Some("a summary of the whole phase is in its folder")
            } else {
                None
            };
            let said_where = if ticked {
                "its checklist entry is ticked".to_owned()
            } else if plans_ticked {
                "every box in its roadmap section is ticked".to_owned()
            } else if row_done {
                "its progress row's status says done".to_owned()
            } else if line_done {
                "its **Status:** line says done".to_owned()
            } else if let Some(source) = state_row_done {
                format!("{source} says done")
            } else {
                "its heading says done".to_owned()
            };
            let (status, because) = match disk {
                _ if said_done => ("complete", said_where),
                // Summaries and no plan files: it ran (plans since removed).
                Some(d) if d.plan_count() == 0 && !d.summary_files.is_empty() => (
                    "complete",
                    "its folder has summaries and no plan files".to_owned(),
                ),
                // A summary of the whole phase (`SUMMARY.md`, `39-SUMMARY.md`,
                // the older one-per-phase form): it ran.
                Some(d)
                    if d.summary_files
                        .iter()
                        .any(|f| super::workspace::phase_level_summary(f, &id)) =>
                {
                    (
                        "complete",
                        "a summary of the whole phase is in its folder".to_owned(),
                    )
                }
                // Its roadmap section lists a plan, unticked, that no
                // summary names (`- [ ] 22-07: Finish remaining pages`): the
                // plans on disk are not all of its plans. Unless the boxes
                // were never kept — none ticked, though plans they list ran
                // (a roadmap left as written, batch 29 anoop-titus+Projectwise)
                // — and STATE.md's position is not this phase (older GSD
                // wrote a phase's plans one at a time).
                Some(d)
                    if !archived
                        && d.disk_status() == "complete"
                        && let Some(dt) = detail
                        && (state_current.as_ref() == Some(&id.key())
                            || !(dt.plans.iter().all(|p| p.checked != Some(true))
                                && dt.plans.iter().any(|p| d.summary_names(&p.id))))
                        && let Some(open) = dt.plans.iter().find(|p| {
                            // A plan of another phase (a plan list copied
                            // from phase 5 into phase 2's section, batch 31
                            // BueroBauer+taiwan-dashboard) says nothing of
                            // this one.
                            p.checked == Some(false) && p.id.phase == id && !d.summary_names(&p.id)
                        }) =>
                {
                    (
                        "partial",
                        format!(
                            "its roadmap lists plan {} unticked, with no summary on disk",
                            open.id
                        ),
                    )
                }
                Some(d) => (
                    d.disk_status(),
                    format!(
                        "{} of {} plans have a summary on disk",
                        d.completed_plans(),
                        d.plan_count()
                    ),
                ),
                None if archived => ("complete", "its milestone has shipped".to_owned()),
                None => ("no_directory", "it has no folder yet".to_owned()),
            };
            phases.push(PhaseReading {
                id: id.normalized(),
                number: id.unpadded(),
                name: detail
                    .map(|d| d.name.clone())
                    .or_else(|| entry.map(|e| e.name.clone()))
                    .or_else(|| row.and_then(ProgressRow::name))
                    .or_else(|| disk.map(|d| d.slug.replace('-', " "))),
                goal: detail.and_then(|d| d.goal.clone()),
                depends_on: detail.and_then(|d| d.depends_on.clone()),
                requirements: detail.map(|d| d.requirements.clone()).unwrap_or_default(),
                status,
                checked: entry.map(|e| e.checked),
                ran,
                because,
                plans: np,
                summaries: ns,
                has_dir: disk.is_some(),
                milestone: milestone.map(|m| m.version.clone().unwrap_or_else(|| m.title.clone())),
                archived,
                active,
                backlog,
                dir: disk.map(|d| d.dir.clone()),
                phase_id: id,
                milestone_index: m,
            });
        }
        // Shipped milestones first in the order their versions run, then
        // the rest: a stable, readable order whatever the file's order.
        let ranks: Vec<usize> = (0..milestones.len())
            .map(|i| milestone_rank(milestones, i))
            .collect();
        phases.sort_by(|a, b| {
            let rank = |p: &PhaseReading| {
                (
                    p.backlog,
                    !p.archived,
                    p.milestone_index.map_or(usize::MAX, |i| ranks[i]),
                )
            };
            rank(a)
                .cmp(&rank(b))
                .then_with(|| a.phase_id.cmp(&b.phase_id))
        });

        // Every live phase is done and the tree says that work has shipped
        // (STATE.md's status, or a MILESTONES.md entry for it): the project
        // is between milestones, and nothing is live.
        let mut current = current;
        let mut shipped_now = None;
        // A planned milestone with no phase of its own yet (`📋 v0.6.0+ —
        // Future enhancements`), while STATE.md says the last one is done
        // and the next is still to be planned: a placeholder; the project
        // is between milestones.
        // Or its own line says it is still to be planned (`📋 **v1.1** — TBD
        // (planning next)`, `## Next Milestone (v1.1) — To be planned`).
        // A parked milestone (`⏸ **v9.6.0 …** (parked; deferred …)`) that
        // a later milestone has shipped past, while STATE.md says the last
        // one is done: set aside, not the work under way; the project is
        // between milestones.
        let set_aside = current.and_then(|c| {
            let m = &milestones[c];
            let placeholder = matches!(m.status, MilestoneStatus::Planned | MilestoneStatus::Unknown)
                && milestones.iter().any(Milestone::is_shipped)
                && !phases.iter().any(|p| p.milestone_index == Some(c))
                && ((m.status == MilestoneStatus::Planned && state_says_between(ws))
                    || line_says_to_be_planned(ws, m.line));
            let parked = || {
                line_says_parked(ws, m)
                    && milestones.iter().any(|o| {
                        o.is_shipped() && version_order(o, m) == std::cmp::Ordering::Greater
                    })
                    && state_says_between(ws)
            };
            if placeholder {
                Some(format!(
                    "between milestones: {} has no phases yet and is still to be planned (its line or STATE.md says so)",
                    m.label()
                ))
            } else if parked() {
                Some(format!(
                    "between milestones: {} is parked (its line says so), a later milestone has shipped, and STATE.md says that one is done",
                    m.label()
                ))
            } else {
                None
            }
        });
        if let Some(why) = set_aside {
            explain.push(why);
            current = None;
            set_all_inactive(&mut phases);
        }
        if between_milestones(ws, &records, &phases, current.map(|i| &milestones[i])) {
            shipped_now = current.take();
            explain.push(format!(
                "between milestones: every phase of {} is complete and MILESTONES.md or an archive records it",
                shipped_now.map_or("the roadmap".to_owned(), |i| milestones[i].label())
            ));
            set_all_inactive(&mut phases);
        }
        let active: Vec<&PhaseReading> = phases.iter().filter(|p| p.active).collect();
        let total_plans: usize = active.iter().map(|p| p.plans).sum();
        let total_summaries: usize = active.iter().map(|p| p.summaries).sum();
        let completed_phases = active.iter().filter(|p| p.status == "complete").count();
        // STATE.md's position wins when it names an active phase that is
        // not finished; else the first phase planned or under way.
        // Of every place STATE.md names a phase (a stale `Phase:` line may
        // sit beside the current one), the first naming one still to do.
        let state_position = ws
            .state
            .as_ref()
            .map(super::state::State::positions)
            .unwrap_or_default()
            .into_iter()
            .find_map(|pos| {
                active
                    .iter()
                    .find(|p| p.phase_id.same(&pos.phase) && p.status != "complete")
            })
            .map(|p| p.number.clone());
        let first_planned = active
            .iter()
            .find(|p| matches!(p.status, "planned" | "partial"))
            .map(|p| p.number.clone());
        explain.push(match (&state_position, &first_planned) {
            (Some(n), _) => format!("the phase to work on is {n}: STATE.md names it and it is not complete"),
            (None, Some(n)) => format!(
                "the phase to work on is {n}: the first with plans still to run (STATE.md names no unfinished phase of this milestone)"
            ),
            (None, None) => "no phase is under way: none has plans still to run".to_owned(),
        });
        for p in phases.iter().filter(|p| p.active) {
            explain.push(format!("phase {} is {}: {}", p.number, p.status, p.because));
        }
        let current_phase = state_position.or(first_planned);
        let next_phase = active
            .iter()
            .find(|p| {
                matches!(
                    p.status,
                    "empty" | "no_directory" | "discussed" | "researched"
                )
            })
            .map(|p| p.number.clone());
        let phase_count = active.len();

        let archives = &records.archives;
        let milestone_readings = milestones
            .iter()
            .enumerate()
            .map(|(i, m)| MilestoneReading {
                version: m.version.clone(),
                title: m.title.clone(),
                current: current == Some(i),
                status: if shipped_now == Some(i) {
                    MilestoneStatus::Shipped
                } else {
                    m.status
                },
                phase_range: m.phase_range.clone(),
                phases: phases
                    .iter()
                    .filter(|p| p.milestone_index == Some(i))
                    .count(),
                archive: m
                    .version
                    .as_deref()
                    .map(|v| {
                        archives
                            .iter()
                            .filter(|(av, _)| same_version(av, v))
                            .map(|(_, f)| f.clone())
                            .collect()
                    })
                    .unwrap_or_default(),
                line: m.line,
            })
            .collect();
        RoadmapReading {
            milestones: milestone_readings,
            milestone_rank: ranks,
            current_milestone: current.map(|i| milestones[i].label()),
            phase_count,
            completed_phases,
            total_plans,
            total_summaries,
            progress_percent: (total_summaries * 100)
                .checked_div(total_plans)
                .unwrap_or(0),
            current_phase,
            next_phase,
            phases,
            explain,
            index: std::sync::OnceLock::new(),
        }
    }

    /// The open milestone STATE.md's position sits in, when that milestone
    /// still has a phase to finish: the first position that names a phase
    /// the roadmap places decides; a number several open milestones share
    /// (numbering that restarts) decides nothing.
    fn position_milestone(&self, ws: &Workspace) -> Option<usize> {
        let positions = ws.state.as_ref()?.positions();
        let pos = positions.iter().find(|pos| {
            self.phases
                .iter()
                .any(|p| p.phase_id.same(&pos.phase) && p.milestone_index.is_some())
        })?;
        let mut open: Vec<usize> = self
            .phases
            .iter()
            .filter(|p| p.phase_id.same(&pos.phase) && !p.backlog)
            .filter_map(|p| p.milestone_index)
            .filter(|&i| self.milestones[i].status != MilestoneStatus::Shipped)
            .collect();
        open.dedup();
        let [m] = open[..] else {
            return None;
        };
        // The position's phase is finished and STATE.md's `milestone:` key
        // names another milestone the roadmap marks in progress (`🚧 v4.0
        // … (active)` beside a `🚧 Pending milestone` of carried-over
        // phases): the position records the last thing done on the side,
        // and the key says where the work is.
        let position_done = self.phases.iter().any(|p| {
            p.phase_id.same(&pos.phase) && p.milestone_index == Some(m) && p.status == "complete"
        });
        let key = state_milestone(ws).and_then(|k| k.version);
        let key_elsewhere = key.is_some_and(|k| {
            self.milestones.iter().enumerate().any(|(i, r)| {
                i != m
                    && r.status == MilestoneStatus::InProgress
                    && r.version.as_deref().is_some_and(|v| same_version(v, &k))
            })
        });
        if position_done && key_elsewhere {
            return None;
        }
        self.phases
            .iter()
            .any(|p| p.milestone_index == Some(m) && !p.backlog && p.status != "complete")
            .then_some(m)
    }

    /// A phase folder's status as the reading decides it (a ticked entry or
    /// a phase-level summary completes a phase whatever its plan files say),
    /// for the folder the reading read; else what its files show.
    pub fn folder_status(&self, p: &Phase) -> &'static str {
        let read = match (&p.location, &p.id) {
            (PhaseLocation::Current, Some(id)) => self
                .phase(id)
                .filter(|r| r.dir.as_deref() == Some(p.dir.as_path())),
            _ => None,
        };
        read.map_or(p.disk_status(), |r| r.status)
    }

    /// The reading of one phase: the active one when a number is used by
    /// several milestones (numbering that restarts).
    pub fn phase(&self, id: &PhaseId) -> Option<&PhaseReading> {
        let index = self.index.get_or_init(|| {
            let mut index: std::collections::HashMap<_, Vec<usize>> = Default::default();
            for (i, p) in self.phases.iter().enumerate() {
                index.entry(p.phase_id.key()).or_default().push(i);
            }
            index
        });
        let found = index.get(&id.key())?.iter();
        let mut found: Vec<&PhaseReading> = found.map(|&i| &self.phases[i]).collect();
        found.sort_by_key(|p| (!p.active, p.archived));
        found.into_iter().next()
    }
}

/// Why a second reading fixed the current milestone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Forced {
    /// Every phase of the milestone the first reading chose is complete.
    PreviousDone,
    /// STATE.md's position is in this milestone, which has work left.
    Position,
}

/// Why the current milestone is the one it is (or why there is none).
fn why_current(
    ms: &[Milestone],
    current: Option<usize>,
    from_state: Option<usize>,
    forced: Option<(usize, Forced)>,
    state_version: Option<&str>,
) -> String {
    let Some(c) = current else {
        return if ms.is_empty() {
            "no current milestone: the roadmap and STATE.md name none".to_owned()
        } else if ms.iter().all(Milestone::is_shipped) {
            "no current milestone: every milestone named has shipped".to_owned()
        } else {
            let left: Vec<String> = ms
                .iter()
                .filter(|m| !m.is_shipped())
                .map(Milestone::label)
                .collect();
            format!(
                "no current milestone: every milestone named has shipped but {}, which a later shipped milestone went past",
                left.join(", ")
            )
        };
    };
    let m = &ms[c];
    let why = if from_state == Some(c) {
        "STATE.md names it and the roadmap names no milestone of its own"
    } else if forced == Some((c, Forced::PreviousDone)) {
        "every phase of the milestone before it is complete"
    } else if forced == Some((c, Forced::Position)) {
        "STATE.md's position names one of its phases and it has work left"
    } else if state_version
        .is_some_and(|v| m.version.as_deref().is_some_and(|w| same_version(v, w)))
    {
        "STATE.md's `milestone:` names it and it has not shipped"
    } else if m.status == MilestoneStatus::InProgress {
        "the roadmap marks it in progress"
    } else {
        "it is the first milestone not marked shipped"
    };
    let file = source_file(m.source);
    format!(
        "current milestone {} ({file} line {}): {why}",
        m.label(),
        m.line
    )
}

/// The file a milestone was read from.
fn source_file(source: MilestoneSource) -> &'static str {
    match source {
        MilestoneSource::State => "STATE.md",
        MilestoneSource::Project => "PROJECT.md",
        _ => "ROADMAP.md",
    }
}

/// Where a milestone's status was read, for `--explain`.
fn why_status(m: &Milestone) -> String {
    let Some((source, line)) = m.status_from else {
        return format!(
            "{} is not marked shipped, in progress or planned (ROADMAP.md line {})",
            m.label(),
            m.line
        );
    };
    if m.put_off {
        return format!(
            "{} is planned at most: nothing marks it, and its title says its work is put off ({} line {line})",
            m.label(),
            source_file(source)
        );
    }
    let (what, file) = match source {
        MilestoneSource::List => ("its entry in the milestones list", "ROADMAP.md"),
        MilestoneSource::Details => ("its `<details>` summary", "ROADMAP.md"),
        MilestoneSource::Heading if line == m.line => ("its heading", "ROADMAP.md"),
        MilestoneSource::Heading => ("the status line under its heading", "ROADMAP.md"),
        MilestoneSource::State => ("STATE.md names it as the milestone under way", "STATE.md"),
        MilestoneSource::Project => ("PROJECT.md names it the current milestone", "PROJECT.md"),
        MilestoneSource::Progress => ("the Milestone cell of its progress rows", "ROADMAP.md"),
    };
    let says = if matches!(source, MilestoneSource::State | MilestoneSource::Project) {
        ""
    } else {
        " says so"
    };
    format!(
        "{} is {}: {what}{says} ({file} line {line})",
        m.label(),
        m.status.word()
    )
}

/// Whether a line records milestones as done rather than naming the one
/// under way: two or more named, every one said shipped (`M3 COMPLETE, M4
/// COMPLETE`); `v1.3 Reports, continuing from v1.2` names v1.3.
fn records_milestones_done(value: &str) -> bool {
    let parts = super::shipped::milestone_parts(value);
    parts.len() >= 2 && parts.iter().all(|(_, shipped)| *shipped)
}

/// The milestone STATE.md names: its frontmatter (`milestone: v1.0`,
/// `milestone_name: Lançamento público`), unless it is GSD's default
/// (`milestone_name: milestone`, or no name at all); else, in a STATE.md
/// without those keys, a body line that names a version (`Milestone: v4.2
/// Test Framework`).
fn state_milestone(ws: &Workspace) -> Option<Milestone> {
    let st = ws.state.as_ref()?;
    let text = |k: &str| {
        st.fm_field(k)
            .filter(|(_, n)| !n.is_null())
            .and_then(|(_, n)| n.as_str().map(|s| s.trim().to_owned()))
            .filter(|s| !s.is_empty())
    };
    let placeholder = |s: &str| {
        let l = s.to_lowercase();
        l == "milestone" || l == "none" || l.starts_with('(') || l.contains("multiple")
    };
    let (version, name, line) = match st.fm_field("milestone") {
        Some((_, node)) => {
            let version = text("milestone")?;
            let name = text("milestone_name")?;
            // `milestone: v1.0` / `milestone_name: milestone` is GSD's
            // default. A version of the user's own that the roadmap or
            // PROJECT.md also names (`covers the v1.5 polish`) is a milestone
            // with no name, not the default.
            let named_in_docs = || {
                let v = version.to_lowercase();
                let default = super::milestone::same_version(&v, "v1.0");
                let mentioned = |t: &str| {
                    let t = t.to_lowercase();
                    t.match_indices(&v)
                        .any(|(at, _)| !t[at + v.len()..].starts_with(|c: char| c.is_ascii_digit()))
                };
                // A phase's own section lists deliverables, whose versions
                // are libraries' (`l2d-widget v0.1.0`): the roadmap names a
                // milestone outside them (batch 30, merlinalex.me).
                let outside_phases = |r: &super::roadmap::Roadmap| {
                    let text = r.doc.text();
                    let mut spans: Vec<(usize, usize)> = r
                        .phases
                        .iter()
                        .map(|p| (p.section.start, p.section.end))
                        .collect();
                    spans.sort_unstable();
                    let mut at = 0;
                    let mut rest = String::new();
                    for (start, end) in spans {
                        if start > at {
                            rest.push_str(&text[at..start]);
                            rest.push('\n');
                        }
                        at = at.max(end);
                    }
                    rest.push_str(&text[at.min(text.len())..]);
                    mentioned(&rest)
                };
                !default
                    && v.starts_with('v')
                    && (ws.roadmap.as_ref().is_some_and(outside_phases)
                        || ws.project.as_ref().is_some_and(|p| mentioned(p.doc.text())))
            };
            if placeholder(&version) || (placeholder(&name) && !named_in_docs()) {
                return None;
            }
            let version = super::milestone::find_milestone_id(&version).unwrap_or(version);
            (version, name, st.doc.line_of(node.span.start))
        }
        None => {
            let f = st.body_field("milestone")?;
            // `Milestone: M3 COMPLETE, M4 COMPLETE, M5 COMPLETE`: a record
            // of several milestones, not the one under way (batch 31,
            // stimpson-dev+LitVault).
            if records_milestones_done(&f.value) {
                return None;
            }
            // A dotted version (`v1.2`), or a bare one with the milestone's
            // name beside it (`**Milestone:** v2 Events Pivot`); a bare `v1`
            // alone is the default every project starts with.
            let (version, name) = match super::milestone::find_version(&f.value) {
                Some(v) => {
                    let name = name_beside(&f.value, &v);
                    (v, name)
                }
                None => {
                    let v = super::milestone::find_milestone_id(&f.value)?;
                    let name = name_beside(&f.value, &v);
                    if name.trim().is_empty() || name.trim() == v {
                        return None;
                    }
                    (v, name)
                }
            };
            (version, name, f.line)
        }
    };
    Some(named_elsewhere(
        version,
        &name,
        line,
        MilestoneSource::State,
    ))
}

/// The milestone PROJECT.md's `## Current Milestone: v2.0 Name` names.
fn project_milestone(ws: &Workspace) -> Option<Milestone> {
    let project = ws.project.as_ref()?;
    // A workstream reading the shared root PROJECT.md: its `## Current
    // Milestone` is the root track's, not this workstream's (and only a
    // full load reads the shared file, so `gsd roadmap` and lint would
    // disagree).
    if ws.workstream.is_some() && !project.doc.path().starts_with(&ws.planning) {
        return None;
    }
    let (text, line) = project.current_milestone()?;
    let version = super::milestone::find_milestone_id(&text)?;
    let name = name_beside(&text, &version);
    Some(named_elsewhere(
        version,
        &name,
        line,
        MilestoneSource::Project,
    ))
}

/// `v4.2 — Test Framework` less its version: the name beside it.
fn name_beside(text: &str, version: &str) -> String {
    text.replacen(version, "", 1)
        .trim_matches(|c: char| c.is_whitespace() || "-—–:()".contains(c))
        .to_owned()
}

/// A phase the roadmap names has its folder in phases/ (not archived).
fn roadmap_phase_is_live(ws: &Workspace) -> bool {
    let Some(rm) = &ws.roadmap else {
        return false;
    };
    ws.current_phases().any(|ph| {
        ph.id.as_ref().is_some_and(|id| {
            rm.phases.iter().any(|p| p.id.same(id)) || rm.checklist.iter().any(|c| c.phase.same(id))
        })
    })
}

/// A milestone under way that a file other than the roadmap names.
fn named_elsewhere(version: String, name: &str, line: usize, source: MilestoneSource) -> Milestone {
    Milestone {
        title: super::milestone::label(Some(&version), name),
        version: Some(version),
        status: MilestoneStatus::InProgress,
        line,
        source,
        status_from: Some((source, line)),
        put_off: false,
        phase_range: None,
        range: Default::default(),
        name: None,
    }
}

/// Whether a phase is put off where its status is written: its progress
/// row's status cell, its checklist entry's or its heading's status
/// suffix, its `**Status:**` line.
fn put_off(
    detail: Option<&PhaseDetail>,
    entry: Option<&ChecklistEntry>,
    row: Option<&ProgressRow>,
) -> bool {
    use super::milestone::says_put_off;
    row.is_some_and(|r| says_put_off(&r.status, true))
        || name_put_off(detail, entry)
        || detail.is_some_and(|d| {
            d.status_label
                .as_deref()
                .is_some_and(|s| says_put_off(s, true))
        })
}

/// Its heading's or checklist entry's status suffix puts it off.
fn name_put_off(detail: Option<&PhaseDetail>, entry: Option<&ChecklistEntry>) -> bool {
    use super::milestone::says_put_off;
    entry.is_some_and(|e| says_put_off(&e.name, false))
        || detail.is_some_and(|d| says_put_off(&d.name, false))
}

/// Whether a phase of a milestone (or of a roadmap of phases alone) is put
/// off by its own name: its heading's or checklist entry's status suffix,
/// or the checklist line's closing parentheses (`… from phone (deferred)`,
/// `(deferred to v2)`). Not a progress row's status (`Backlog` there is a
/// hand-kept table's "not started"), and not prose in parentheses
/// (`(backlog, sprint, done columns)`, a `[backlog](BACKLOG.md)` link).
fn named_put_off(
    detail: Option<&PhaseDetail>,
    entry: Option<&ChecklistEntry>,
    entry_line: Option<&str>,
) -> bool {
    use super::milestone::says_put_off;
    name_put_off(detail, entry)
        || entry_line.is_some_and(|l| {
            let Some(body) = l.trim_end().strip_suffix(')') else {
                return false;
            };
            let Some(open) = body.rfind('(') else {
                return false;
            };
            if body[..open].ends_with(']') {
                return false; // a link's target
            }
            let inside = body[open + 1..].trim().to_lowercase();
            let mut words = inside.split_whitespace();
            let first = words.next().unwrap_or("");
            let then = words.next();
            says_put_off(first, true)
                && then.is_none_or(|w| ["to", "until", "till", "—", "-", "for"].contains(&w))
        })
}

/// Between milestones nothing is live: every phase leaves the live set.
fn set_all_inactive(phases: &mut [PhaseReading]) {
    for p in phases.iter_mut() {
        p.active = false;
    }
}

/// Whether a milestone's own roadmap line says it is set aside: a `⏸`
/// mark, or a parenthesised status that opens with the word (`(parked;
/// deferred to post-MCP)`, `(paused — closed early)`), not a word inside
/// a description (`(in progress; offline mode deferred)`).
fn line_says_parked(ws: &Workspace, m: &Milestone) -> bool {
    let (Some(rm), MilestoneSource::List | MilestoneSource::Details | MilestoneSource::Heading) =
        (&ws.roadmap, m.source)
    else {
        return false;
    };
    let text = rm
        .doc
        .source
        .line_span(m.line)
        .slice(rm.doc.text())
        .to_lowercase();
    text.contains('⏸')
        || text.split('(').skip(1).any(|inside| {
            let inside = inside.trim_start();
            ["parked", "paused", "on hold", "deferred"]
                .iter()
                .any(|w| inside.starts_with(w))
        })
}

/// ROADMAP.md's line `line` (or the lines right under it) says what it
/// names is still to be planned.
fn line_says_to_be_planned(ws: &Workspace, line: usize) -> bool {
    let Some(rm) = &ws.roadmap else {
        return false;
    };
    // The line and the few after it (`## Next Milestone (v1.1)` then `To be
    // planned with /gsd:new-milestone`), up to the next heading.
    let text = (line..line + 4)
        .map(|l| rm.doc.source.line_span(l).slice(rm.doc.text()))
        .enumerate()
        .take_while(|(i, l)| *i == 0 || !l.starts_with('#'))
        .map(|(_, l)| l.to_lowercase())
        .collect::<Vec<_>>()
        .join("\n");
    let tbd = text
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "tbd");
    tbd || [
        "to be planned",
        "planning next",
        "not yet planned",
        "to be defined",
        "not yet defined",
        "not defined yet",
    ]
    .iter()
    .any(|p| text.contains(p))
}

/// STATE.md says the last milestone is done and the next is not yet
/// planned: its status (`milestone_complete`, `Milestone v0.5.0 complete —
/// archived`) or its focus (`Planning next milestone`, `awaiting next
/// milestone`).
fn state_says_between(ws: &Workspace) -> bool {
    let Some(st) = &ws.state else {
        return false;
    };
    let status = st.status().unwrap_or_default().to_lowercase();
    let status_done = status.contains("milestone")
        && (status.contains("complete")
            || status.contains("shipped")
            || status.contains("archived"));
    // `**Milestone:** v1.0 Stabilization — SHIPPED`, `**Next milestone:** v1.1 (TBD)`.
    let milestone_done = st.body_fields("milestone").any(|f| {
        let v = f.value.to_lowercase();
        v.contains("shipped") || v.contains("complete") || v.contains("archived")
    }) || st.body_fields("nextMilestone").next().is_some();
    let focus = st
        .body_fields("currentFocus")
        .map(|f| f.value.to_lowercase())
        .chain(
            st.body_fields("currentphase")
                .map(|f| f.value.to_lowercase()),
        )
        .any(|v| {
            v.contains("next milestone")
                || (v.contains("milestone") && (v.contains("complete") || v.contains("archived")))
        });
    // Where GSD stopped (`stopped_at: Milestone v1.4.1 complete; ready
    // for /gsd-new-milestone`): a sentence about the milestone itself.
    // The done word follows the milestone's ID (`Milestone v1.4.1
    // complete`), not a phase of it (`Milestone v1.2 phase 3 complete`).
    let stopped = ["stopped_at", "last_activity"].iter().any(|k| {
        st.fm_field(k)
            .and_then(|(_, v)| v.as_str())
            .is_some_and(|v| {
                let v = v
                    .trim_start_matches(|c: char| c.is_ascii_digit() || "-–— ".contains(c))
                    .to_lowercase();
                let mut words = v.split_whitespace();
                words.next() == Some("milestone")
                    && words.next().is_some()
                    && words.next().is_some_and(|w| {
                        ["complete", "shipped", "archived"]
                            .iter()
                            .any(|d| w.starts_with(d))
                    })
            })
    });
    status_done || milestone_done || focus || stopped
}

/// Whether the live work has all shipped: every live phase complete, and
/// MILESTONES.md — which GSD writes when a milestone ships — has an entry
/// for the current milestone (for any, when the roadmap names none), or
/// another record says it shipped. STATE.md saying "complete" is not
/// enough: a finished milestone is still current until it is recorded.
fn between_milestones(
    ws: &Workspace,
    records: &ShippedRecords,
    phases: &[PhaseReading],
    current: Option<&Milestone>,
) -> bool {
    let mut live = phases.iter().filter(|p| p.active).peekable();
    if live.peek().is_none() || !live.all(|p| p.status == "complete") {
        return false;
    }
    match current.and_then(|m| m.version.as_deref()) {
        // An archive of phase folders alone is no ship record.
        Some(v) => records.mentions(v) && !records.only_phase_folders(v),
        // A roadmap that names no milestone: a ship record that names
        // phases is about its work only when it names one of them
        // (`Phases 1–5`), or STATE.md says the milestone is done. A record
        // of an earlier milestone whose numbering the new roadmap
        // restarted (`Phases: 18-21` beside a roadmap of 1-3) is not.
        None => {
            current.is_none()
                && records.any()
                && (records.shipped_phases.is_empty()
                    || state_says_between(ws)
                    || phases
                        .iter()
                        .filter(|p| p.active)
                        .any(|p| records.names_shipped_phase(&p.phase_id)))
        }
    }
}

/// Position of milestone `i` when milestones are ordered by version (the
/// file may list newest first); unversioned ones keep file order after.
fn milestone_rank(ms: &[Milestone], i: usize) -> usize {
    let mut idx: Vec<usize> = (0..ms.len()).collect();
    idx.sort_by(|&a, &b| version_order(&ms[a], &ms[b]).then(a.cmp(&b)));
    idx.iter().position(|&j| j == i).unwrap_or(i)
}

/// Phase folders by key: `phases/` and each `milestones/vX.Y-phases/`.
struct Folders<'a> {
    /// Every folder of a number in `phases/`, in file order: a roadmap
    /// whose numbering restarted leaves two (`01-provider-ui`, `01-template-engine`).
    current: HashMap<PhaseKey, Vec<&'a Phase>>,
    archived: HashMap<(String, PhaseKey), &'a Phase>,
    any: HashMap<PhaseKey, &'a Phase>,
}

impl<'a> Folders<'a> {
    fn new(ws: &'a Workspace) -> Self {
        let mut f = Folders {
            current: HashMap::new(),
            archived: HashMap::new(),
            any: HashMap::new(),
        };
        // A folder with a code before its number (`trainer-01-intake`) is
        // that phase's only where the project names its folders so: the
        // code is config.json's `project_code`, or no folder goes without
        // one. Beside plain `07-…` folders and with no such key, it is a
        // track of its own whose numbers are not the roadmap's.
        let code = ws.config().project_code().map(str::to_ascii_lowercase);
        let plain_folders = ws.phases.iter().any(|ph| {
            matches!(
                &ph.id,
                Some(crate::model::PhaseId::Numeric { prefix: None, .. })
            )
        });
        let own_code = |id: &crate::model::PhaseId| match id {
            crate::model::PhaseId::Numeric {
                prefix: Some(p), ..
            } => !plain_folders || code.as_deref() == Some(p.to_ascii_lowercase().as_str()),
            _ => true,
        };
        for ph in &ws.phases {
            let Some(id) = &ph.id else { continue };
            if !own_code(id) {
                continue;
            }
            f.any.entry(id.key()).or_insert(ph);
            match &ph.location {
                PhaseLocation::Current => {
                    f.current.entry(id.key()).or_default().push(ph);
                }
                PhaseLocation::Archived(v) => {
                    f.archived.entry((v.clone(), id.key())).or_insert(ph);
                }
            }
        }
        f
    }

    /// A shipped phase's folder is in its milestone's archive when there is
    /// one (numbers restart, so `phases/05-…` may be another milestone's),
    /// else still in `phases/`; an active phase's folder is in `phases/`.
    /// Of several folders with its number, the one whose slug shares the
    /// most words with the roadmap's name for it (`name`), else the first.
    fn find(
        &self,
        id: &PhaseId,
        m: Option<&Milestone>,
        archived: bool,
        name: Option<&str>,
    ) -> Option<&'a Phase> {
        let key = id.key();
        if archived && let Some(v) = m.and_then(|m| m.version.as_deref()) {
            let hit = self
                .archived
                .iter()
                .find(|((av, k), _)| k == &key && same_version(av, v))
                .map(|(_, p)| *p);
            if hit.is_some() {
                return hit;
            }
        }
        self.current
            .get(&key)
            .and_then(|all| match (all.as_slice(), name) {
                ([one], _) | ([one, ..], None) => Some(*one),
                (all, Some(name)) => {
                    let words = slug_words(name);
                    // Words shared with the name; between folders that share
                    // as many, one that holds plans or summaries over a
                    // stray one of notes (`07-public-pages-&-marketing**…`
                    // with a RESEARCH.md beside `07-public-pages-marketing`,
                    // batch 26, Chakaitos+animation-labs).
                    let score = |p: &Phase| {
                        let shared = slug_words(&p.slug)
                            .iter()
                            .filter(|w| words.contains(w))
                            .count();
                        (shared, p.plan_count() > 0 || !p.summary_files.is_empty())
                    };
                    // The first of the best: `max_by_key` keeps the last.
                    let best = all.iter().map(|p| score(p)).max()?;
                    all.iter().find(|p| score(p) == best).copied()
                }
                ([], _) => None,
            })
            .or_else(|| (m.is_none()).then(|| self.any.get(&key).copied()).flatten())
    }
}

/// The words of a phase name or folder slug, lower-cased, for matching one
/// to the other (`Template Engine and Code Generation` ~ `template-engine-…`).
pub(crate) fn slug_words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .map(str::to_lowercase)
        .collect()
}
