//! Findings about how a plan *executes* matter only while it can still be
//! executed. A plan that has its SUMMARY, sits in a phase the roadmap marks
//! complete, or belongs to a shipped milestone (collapsed in `<details>` or
//! archived under `milestones/`) is history: GSD never runs it again and no
//! maintainer rewrites it, so such findings are kept as info, never as
//! errors a CI would fail on. Real trees are full of plans written for an
//! older GSD format that executed fine at the time. Plans kept in archive
//! folders of other schemes (`archive/`, `history/`, `phases-archive/`)
//! are history too.

use std::collections::HashSet;
use std::path::Path;

use crate::model::reading::RoadmapReading;
use crate::model::workspace::PhaseLocation;
use crate::model::workspace::is_archive_folder;
use crate::model::{Workspace, quick};

use super::context::View;
use super::{Diagnostic, Severity};

/// Rules about a plan's structure, frontmatter and dependencies, and about
/// the records a phase keeps while it runs.
const EXECUTION_RULES: &[&str] = &[
    "frontmatter-invalid-yaml",
    "frontmatter-unterminated",
    "frontmatter-not-mapping",
    "plan-no-frontmatter",
    "plan-missing-field",
    "plan-field-type",
    "plan-no-tasks",
    "plan-noncanonical-name",
    "wave-without-dependencies",
    "checkpoint-not-autonomous",
    "must-haves-not-checkable",
    "task-unbalanced-tag",
    "task-nested",
    "task-missing-required",
    "task-missing-recommended",
    "task-unknown-type",
    "plan-skeleton-unfilled",
    "unclosed-code-fence",
    "duplicate-plan-number",
    "depends-on-unknown-plan",
    "dependency-cycle",
    "wave-order",
    "files-modified-overlap",
    "plan-numbering-gap",
    "requirement-unknown",
    // Phase-level records: a shipped phase's research and summaries.
    "validation-missing",
    "orphan-summary",
    // An empty placeholder (`33-VALIDATION.md`) a finished phase left.
    "empty-file",
];

/// The plans STATE.md records as executed, though their SUMMARY is not on
/// disk: a row of GSD's performance-metrics table (`| Phase 06 P01 | 6min |
/// 4 tasks | 5 files |`, written when a plan's execution ends) or its
/// `Completed 06-02-PLAN.md` stop line. The executor wrote them after the
/// plan ran, so its format and markup no longer matter.
fn state_recorded_plans(ws: &Workspace) -> Vec<crate::model::PlanId> {
    let Some(state) = &ws.state else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in state.doc.text().lines() {
        let t = line.trim();
        if let Some(row) = t.strip_prefix('|') {
            let cell = row.split('|').next().unwrap_or("").trim();
            let mut words = cell.split_whitespace();
            if let (Some(w), Some(phase), Some(plan), None) =
                (words.next(), words.next(), words.next(), words.next())
                && w.eq_ignore_ascii_case("phase")
                && let Some(n) = plan.strip_prefix(['P', 'p'])
                && !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit())
                && let Some(id) = crate::model::PlanId::parse(&format!("{phase}-{n}-PLAN.md"))
            {
                out.push(id);
            }
            continue;
        }
        let mut rest = t;
        while let Some(at) = rest.find("Completed ") {
            rest = &rest[at + "Completed ".len()..];
            let name = rest.split_whitespace().next().unwrap_or("");
            let name = name.trim_end_matches(['.', ',', ';', ')', '`']);
            if name.ends_with("-PLAN.md")
                && let Some(id) = crate::model::PlanId::parse(name)
            {
                out.push(id);
            }
        }
    }
    out
}

/// The files whose execution findings are history (borrowed from the
/// pass's documents: a copy of every path of a big tree was most of the
/// time this took).
pub struct History<'v> {
    files: HashSet<&'v Path>,
}

/// What the history of every pass reads from the whole tree, read once
/// (each of a big tree's hundreds of passes scanned every phase of the
/// reading and every line of STATE.md again).
pub struct TreeHistory {
    /// The last live phase that has run: a phase before it is overtaken.
    last_run: Option<crate::model::PhaseId>,
    /// The plans STATE.md records as executed.
    recorded_run: Vec<crate::model::PlanId>,
}

impl TreeHistory {
    pub fn of(ws: &Workspace, reading: &RoadmapReading) -> TreeHistory {
        TreeHistory {
            last_run: reading
                .phases
                .iter()
                .filter(|r| r.active && r.summaries > 0 && !r.phase_id.is_backlog())
                .map(|r| &r.phase_id)
                .max()
                .cloned(),
            recorded_run: state_recorded_plans(ws),
        }
    }
}

impl<'v> History<'v> {
    /// The history among the documents of `view`, read against the tree `ws`.
    pub fn new(
        ws: &Workspace,
        view: &View<'v>,
        reading: &RoadmapReading,
        shipped: &crate::model::shipped::ShippedRecords,
        tree: &TreeHistory,
    ) -> History<'v> {
        let mut files = HashSet::new();
        let last_run = tree.last_run.as_ref();
        let recorded_run = &tree.recorded_run;
        for ph in view.phases {
            let shipped = match &ph.location {
                PhaseLocation::Archived(_) => true,
                // Shipped, complete by any evidence, or outside the live
                // milestone: not work GSD will execute next.
                PhaseLocation::Current => ph.id.as_ref().is_some_and(|id| {
                    reading.phase(id).is_some_and(|r| {
                        r.archived || r.checked == Some(true) || r.status == "complete" || !r.active
                    })
                }),
            };
            // A later live phase has already run: GSD works through phases
            // in order, so what this one left unrun was done another way,
            // folded into later work, or dropped — not what runs next.
            let overtaken = ph
                .id
                .as_ref()
                .is_some_and(|id| last_run.is_some_and(|last| last > id));
            // A phase folder kept under `phases/_archived/` (or any archive
            // folder) was put aside, whatever its number says.
            let put_aside = ph
                .dir
                .strip_prefix(&ws.planning)
                .unwrap_or(&ph.dir)
                .components()
                .any(|c| is_archive_folder(&c.as_os_str().to_string_lossy()));
            // The tree says its plans ran (its verification passed, a
            // status says its code is complete), whatever summaries were
            // written: the reading's one answer, shared with the rules.
            let ran = ph
                .id
                .as_ref()
                .and_then(|id| reading.phase(id))
                .is_some_and(|r| r.ran.is_some())
                || ph.verified();
            let shipped = shipped || overtaken || put_aside || ran;
            // Every numbered plan ran: the rest of the folder (a bare
            // `PLAN.md` overview, a `-FIX` variant) belongs to finished work.
            let numbered: Vec<&crate::model::Plan> =
                ph.plans.iter().filter(|p| p.id.is_some()).collect();
            let all_ran = !numbered.is_empty() && numbered.iter().all(|p| ph.plan_has_summary(p));
            for plan in &ph.plans {
                // `phases/02-x/archive/02-04-PLAN.md`: a plan put aside
                // inside its phase's folder (replaced by the live ones).
                let aside_inside = plan
                    .doc
                    .rel_path
                    .strip_prefix(&ph.dir)
                    .ok()
                    .and_then(|p| p.parent())
                    .is_some_and(|p| {
                        p.components()
                            .any(|c| is_archive_folder(&c.as_os_str().to_string_lossy()))
                    });
                let state_says_ran = plan
                    .id
                    .as_ref()
                    .is_some_and(|id| recorded_run.iter().any(|r| r.same(id)));
                if shipped || all_ran || aside_inside || state_says_ran || ph.plan_has_summary(plan)
                {
                    files.insert(&*plan.doc.rel_path);
                }
            }
            if shipped {
                files.extend(ph.summaries.iter().map(|s| &*s.doc.rel_path));
                files.extend(ph.other_docs.iter().map(|d| &*d.rel_path));
            }
        }
        // Every other file kept in an archive folder (`archive/v1-phases/
        // 01-x/01-01-PLAN.md`, read as a note): put aside by where it sits.
        for doc in view.other {
            if doc
                .rel_path
                .components()
                .any(|c| is_archive_folder(&c.as_os_str().to_string_lossy()))
            {
                files.insert(&*doc.rel_path);
            }
        }
        // Archives in schemes of their own (`archive/v1.1/phases/…`,
        // `history/`, `phases-archive/`): history by where they sit.
        for plan in view.loose_plans {
            let archived = plan
                .doc
                .rel_path
                .components()
                .any(|c| is_archive_folder(&c.as_os_str().to_string_lossy()));
            if archived {
                files.insert(&*plan.doc.rel_path);
            }
        }
        // A `*-PLAN.md` lying loose in `phases/` is never executed: GSD only
        // runs plans inside phase folders (plan-noncanonical-name says so).
        let phases_dir = ws.planning.join("phases");
        for plan in view.loose_plans {
            if plan.doc.path().parent() == Some(phases_dir.as_path()) {
                files.insert(&*plan.doc.rel_path);
            }
        }
        // Quick tasks: done once their folder holds a SUMMARY, or STATE.md's
        // quick-task table (which GSD fills when one completes) names it.
        // One dated (`260415-nx9`) before the last milestone shipped is
        // history either way: `/gsd:quick` runs a task as it plans it, so
        // one left from before a ship is never run now.
        // One a later quick task has overtaken (a later one has its
        // SUMMARY) is history too, as a phase a later phase has overtaken.
        let state_text = ws.state.as_ref().map(|s| s.doc.text()).unwrap_or("");
        let last_ship = shipped.last_shipped_on.clone();
        let quick_dir_order = |p: &Path| -> Option<(u8, u64)> {
            let dir = p.parent()?;
            let in_quick = dir.parent()?.file_name()? == "quick";
            in_quick
                .then(|| quick::order(dir.file_name()?.to_str()?))
                .flatten()
        };
        let last_quick_run = view
            .other
            .iter()
            .filter(|d| d.file_name().ends_with("SUMMARY.md"))
            .filter_map(|d| quick_dir_order(d.path()))
            .max();
        for plan in view.loose_plans {
            let overtaken = quick_dir_order(plan.doc.path())
                .zip(last_quick_run)
                .is_some_and(|(this, last)| this < last);
            if overtaken {
                files.insert(&*plan.doc.rel_path);
                continue;
            }
            let dir = plan.doc.path().parent();
            let task_id = dir
                .and_then(|d| d.file_name())
                .and_then(|n| n.to_str())
                .and_then(|n| {
                    let mut parts = n.splitn(3, '-');
                    match (parts.next(), parts.next()) {
                        (Some(a), Some(b)) if a.len() >= 3 => Some(format!("{a}-{b}")),
                        _ => None,
                    }
                });
            let before_ship = task_id
                .as_deref()
                .and_then(quick::date)
                .zip(last_ship.as_deref())
                .is_some_and(|(made, shipped)| made.as_str() < shipped);
            let recorded = before_ship || task_id.is_some_and(|id| state_text.contains(&id));
            let done = recorded
                || view
                    .other
                    .iter()
                    .any(|d| d.path().parent() == dir && d.file_name().ends_with("SUMMARY.md"));
            if done {
                files.insert(&*plan.doc.rel_path);
            }
        }
        History { files }
    }

    pub fn contains(&self, file: &Path) -> bool {
        self.files.contains(file)
    }

    /// Turn execution findings on history into info, saying why.
    pub fn apply(&self, d: &mut Diagnostic) {
        if d.severity != Severity::Info
            && EXECUTION_RULES.contains(&d.code)
            && self.contains(&d.file)
        {
            d.severity = Severity::Info;
            d.history = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EXECUTION_RULES;
    use crate::lint::{RULES, Reads};

    /// History is applied to the findings of the file rules, pass by pass
    /// (`lint::Linter::check`); a tree rule's findings never get it. So
    /// every rule whose findings can be history must be a file rule.
    #[test]
    fn every_rule_history_applies_to_reads_files() {
        for code in EXECUTION_RULES {
            let rule = RULES
                .iter()
                .find(|r| r.code == *code)
                .unwrap_or_else(|| panic!("{code} is no rule"));
            assert_eq!(rule.reads, Reads::Files, "{code}");
        }
    }
}
