//! Rules comparing STATE.md with the roadmap and the disk.

use crate::lint::context::{Ctx, Sink};
use crate::model::PhaseId;

pub fn state_missing(cx: &Ctx, s: &mut Sink) {
    if cx.ws.state.is_none() {
        let rel = cx.planning_rel("STATE.md");
        let (severity, why, hint) = cx.weigh_missing(s.severity(), &rel);
        s.file_severity(
            severity,
            rel,
            format!("STATE.md not found{why}"),
            hint.unwrap_or(
                "create it (`gsd init` writes one); agents read the current position from it",
            ),
        );
    }
}

fn known_phase(cx: &Ctx, id: &PhaseId) -> bool {
    cx.phases.folder(id).is_some() || cx.phases.in_roadmap(id) || names_lettered_group(cx, id)
}

/// `Phase: 2 of 4 (2A Backend, 2B Plugin, 2C Assets …)` where the tree
/// splits phase 2 into lettered phases run side by side (`2A`, `2B`, `2C`):
/// the integer names their group, not a missing phase.
fn names_lettered_group(cx: &Ctx, id: &PhaseId) -> bool {
    let lettered = |p: &PhaseId| {
        matches!(p, PhaseId::Numeric { letter: Some(_), decimals, .. } if decimals.is_empty())
            && p.major() == id.major()
    };
    id.is_integer()
        && (cx.reading.phases.iter().any(|r| lettered(&r.phase_id))
            || cx
                .ws
                .current_phases()
                .any(|p| p.id.as_ref().is_some_and(lettered)))
}

pub fn state_unknown_phase(cx: &Ctx, s: &mut Sink) {
    let Some(st) = &cx.ws.state else { return };
    // Only the current position is checked: decision lines such as
    // "[Phase 0]: …" are history, not references (gsd-tools W002 false positive).
    // The body's `Phase:` line, as people read it, says where the work is:
    // `Phase: Milestone v0.5.0 complete` means no phase, whatever a stale
    // frontmatter `current_phase:` still holds.
    if st
        .body_field("currentPhase")
        .is_some_and(|f| crate::model::state::parse_position(&f.value).is_none())
    {
        return;
    }
    let Some(pos) = st.current_phase() else {
        return;
    };
    // `Phase: 0. Pre-planning`, `current_phase: 0`: GSD's numbering starts
    // at 1, so a phase 0 the tree does not have is "no phase yet" (a new
    // milestone being planned), not a reference to a missing phase.
    let none_yet = pos.phase.is_integer() && pos.phase.major() == 0;
    if !known_phase(cx, &pos.phase)
        && !none_yet
        && (cx.ws.roadmap.is_some() || !cx.ws.phases.is_empty())
    {
        let line = st.position_line();
        let known: Vec<String> = cx
            .ws
            .current_phases()
            .filter_map(|p| p.id.as_ref().map(PhaseId::unpadded))
            .collect();
        // Between milestones (every milestone named has shipped) the
        // position is a record of finished work.
        let shipped = |m: &crate::model::reading::MilestoneReading| {
            m.status == crate::model::milestone::MilestoneStatus::Shipped
        };
        let between = cx.reading.current_milestone.is_none()
            && !cx.reading.milestones.is_empty()
            && cx.reading.milestones.iter().all(shipped);
        // Or the position itself says it is finished (`Phase: 04 of 07 —
        // COMPLETE`, `Status: Milestone 2 Complete`) in a tree that has
        // shipped a milestone: the last phase of the one that shipped,
        // its folder archived with it (GSD leaves the line until the next
        // milestone starts).
        let status_done = st.status().is_some_and(|v| {
            let l = v.to_lowercase();
            crate::model::state::status_says_phase_done(&v)
                || (l.contains("milestone")
                    && ["complete", "shipped", "archived", "delivered"]
                        .iter()
                        .any(|w| l.contains(w)))
        });
        // The position line's own last word says so (`… (Wikidata) -
        // COMPLETE`), not a word of the phase's name (`Email Verification`).
        let line_done = st.body_field("currentPhase").is_some_and(|f| {
            let last = f
                .value
                .trim_end_matches(|c: char| !c.is_alphanumeric())
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or_default()
                .to_lowercase();
            matches!(last.as_str(), "complete" | "completed" | "done" | "shipped")
        });
        let finished = (status_done || line_done)
            && (cx.reading.milestones.iter().any(shipped) || cx.shipped.any());
        let between = between || finished;
        s.at_line_severity(
            if between {
                crate::lint::Severity::Info
            } else {
                s.severity()
            },
            &st.doc,
            line,
            format!(
                "STATE.md's current phase {} is neither in ROADMAP.md nor in phases/",
                pos.phase.unpadded()
            ),
            format!(
                "known phases: {}",
                if known.is_empty() {
                    "none".into()
                } else {
                    known.join(", ")
                }
            ),
        );
    }
}

pub fn state_phase_complete_status(cx: &Ctx, s: &mut Sink) {
    let Some(st) = &cx.ws.state else {
        return;
    };
    let Some(pos) = st.current_phase() else {
        return;
    };
    let Some(entry) = cx.phases.checklist(&pos.phase) else {
        return;
    };
    let status = st.status().unwrap_or_default().to_ascii_lowercase();
    // `status: unknown` is the placeholder GSD's tools write when the body
    // has no `Status:` line: no status, so nothing to contradict.
    if matches!(status.trim(), "" | "unknown" | "-" | "tbd" | "n/a" | "none") {
        return;
    }
    // `Phase: 01 (scaffolding) — COMPLETE`: the position line says it.
    let position_says_done = st
        .body_field("phase")
        .is_some_and(|f| f.value.to_ascii_lowercase().contains("complete"));
    // `Ready to plan`: GSD's word once a phase is done and the next is
    // still to be planned.
    if entry.checked
        && !position_says_done
        && !(st.says_phase_done()
            || status.contains("ready to plan")
            || crate::model::state::status_moved_past(&status, &pos.phase))
    {
        let line = st.body_field("status").map_or(1, |f| f.line);
        // About a phase of a shipped milestone: STATE is just stale history.
        let live = cx.reading.phase(&pos.phase).is_some_and(|p| p.active);
        s.at_line_severity(
            if live {
                s.severity()
            } else {
                crate::lint::Severity::Info
            },
            &st.doc,
            line,
            format!(
                "phase {} is checked complete in ROADMAP.md but STATE.md status is \"{}\"",
                pos.phase.unpadded(),
                st.status().unwrap_or_default()
            ),
            "advance STATE.md to the next phase (gsd state advance) or untick the roadmap entry",
        );
    }
}

pub fn state_plan_count_mismatch(cx: &Ctx, s: &mut Sink) {
    let Some(st) = &cx.ws.state else { return };
    let Some(pos) = st.current_phase() else {
        return;
    };
    let Some(ph) = cx
        .ws
        .current_phases()
        .find(|p| p.id.as_ref().is_some_and(|i| i.same(&pos.phase)))
    else {
        return;
    };
    let Some(field) = st.body_field("currentPlan") else {
        return;
    };
    // `Plan: 2 of 4 …`: the count follows the plan's own number. An `of`
    // further on is prose (`06-06 complete … 12 of 39 planned paths`).
    // (`Plan 2 of 4` and `**2** of 4` too.)
    let words: Vec<&str> = field.value.split_whitespace().take(4).collect();
    let Some(total) = (1..words.len().saturating_sub(1))
        .take(2)
        .find(|&i| words[i] == "of" && words[i - 1].chars().any(|c| c.is_ascii_digit()))
        .and_then(|i| {
            words[i + 1]
                .trim_end_matches(|c: char| !c.is_ascii_digit())
                .parse::<usize>()
                .ok()
        })
    else {
        return;
    };
    if total != ph.plan_count() && ph.plan_count() > 0 {
        // A phase the reading finds complete and STATE.md's own status
        // says is done (`Status: Complete`): the counter is bookkeeping of
        // work that is over, and a plan it leaves out was done another way
        // or dropped. A live status (`In progress`, `Executing`) keeps the
        // drift a warning, whatever the roadmap's box says.
        let finished = cx
            .reading
            .phase(&pos.phase)
            .is_some_and(|r| r.status == "complete")
            && st
                .status()
                .is_some_and(|v| crate::model::state::status_says_done(&v));
        let (severity, note) = if finished {
            (
                crate::lint::Severity::Info,
                " (kept as info: the phase is complete)",
            )
        } else {
            (s.severity(), "")
        };
        s.at_line_severity(
            severity,
            &st.doc,
            field.line,
            format!(
                "STATE.md says phase {} has {total} plans; disk has {}{note}",
                pos.phase.unpadded(),
                ph.plan_count()
            ),
            "update the Plan: line (gsd state sync)",
        );
    }
}

pub fn state_progress_invalid(cx: &Ctx, s: &mut Sink) {
    let Some(st) = &cx.ws.state else { return };
    let Some(progress) = st.doc.fm().and_then(|m| m.get("progress")) else {
        return;
    };
    let num = |k: &str| progress.get(k).and_then(|n| n.as_i64());
    let span = progress.span;
    // Counters of a milestone whose work is all done (or shipped) are
    // bookkeeping of history.
    let between = !cx.reading.milestones.is_empty() && cx.reading.current_milestone.is_none();
    let done_work = between
        || (cx.reading.phase_count > 0 && cx.reading.completed_phases == cx.reading.phase_count);
    let sev = if done_work {
        crate::lint::Severity::Info
    } else {
        s.severity()
    };
    if let (Some(done), Some(total)) = (num("completed_plans"), num("total_plans"))
        && done > total
    {
        s.at_severity(
            sev,
            &st.doc,
            span,
            format!("progress says {done} plans completed of {total}"),
            "recompute progress from disk (gsd state sync)",
        );
    }
    if let (Some(done), Some(total)) = (num("completed_phases"), num("total_phases"))
        && done > total
    {
        s.at_severity(
            sev,
            &st.doc,
            span,
            format!("progress says {done} phases completed of {total}"),
            "recompute progress from disk (gsd state sync)",
        );
    }
    if let Some(p) = num("percent")
        && !(0..=100).contains(&p)
    {
        s.at_severity(
            sev,
            &st.doc,
            span,
            format!("progress percent is {p}"),
            "percent must be between 0 and 100",
        );
    }
}

/// `.planning/active-workstream` names a workstream that is not there:
/// GSD's tools then fall back to the root without a word.
pub fn workstream_pointer_dangling(cx: &Ctx, s: &mut Sink) {
    if let Some(p) = crate::model::workstream::dangling_pointer(&cx.ws.root) {
        s.file(
            std::path::PathBuf::from(".planning/active-workstream"),
            format!(
                "active-workstream names `{p}`, which is not a folder in .planning/workstreams/; GSD's tools fall back to the root"
            ),
            format!(
                "write the name of an existing workstream into it ({}), or delete it",
                crate::model::list_or_none(&crate::model::workstream::names(&cx.ws.root))
            ),
        );
    }
    if let Some(p) = crate::model::workstream::hollow_pointer(&cx.ws.root) {
        s.file_severity(
            crate::lint::Severity::Error,
            std::path::PathBuf::from(".planning/active-workstream"),
            format!(
                "active-workstream names `{p}`, which has no ROADMAP.md or STATE.md: GSD's tools read that folder and find no roadmap or state; gsd reads the root .planning/"
            ),
            format!(
                "give workstream `{p}` its ROADMAP.md and STATE.md, point active-workstream at another ({}), or delete it",
                crate::model::list_or_none(&crate::model::workstream::names(&cx.ws.root))
            ),
        );
    }
}

/// STATE.md's `progress:` plan counters (which GSD's tools rewrite on every
/// state update) disagree with the tree: the reading's plans done / total
/// in the current milestone's folders. A note with both figures, so the
/// drift is seen with its evidence; `gsd state sync` rewrites them.
pub fn state_progress_stale(cx: &Ctx, s: &mut Sink) {
    let Some(st) = &cx.ws.state else { return };
    let Some(progress) = st.doc.fm().and_then(|m| m.get("progress")) else {
        return;
    };
    let r = &cx.reading;
    // Between milestones the counters describe the shipped one.
    if r.current_milestone.is_none() && !r.milestones.is_empty() {
        return;
    }
    let num = |k: &str| progress.get(k).and_then(|n| n.as_i64());
    let (Some(done), Some(total)) = (num("completed_plans"), num("total_plans")) else {
        return;
    };
    let (d, t) = (r.total_summaries as i64, r.total_plans as i64);
    if (done, total) != (d, t) {
        let scope = r
            .current_milestone
            .as_deref()
            .map_or("the roadmap's phase folders".to_owned(), |m| {
                format!("the folders of {m}'s phases")
            });
        s.at(
            &st.doc,
            progress.span,
            format!("progress says {done}/{total} plans done; {scope} hold {d}/{t}"),
            "recompute it from disk (`gsd state sync`), or see `gsd roadmap --explain`",
        );
    }
}

/// STATE.md names, as the position, a phase the tree shows complete, while
/// the work is at a later one: the position was not moved on.
pub fn state_position_stale(cx: &Ctx, s: &mut Sink) {
    let Some(st) = &cx.ws.state else { return };
    let Some(pos) = st.current_phase() else {
        return;
    };
    let r = &cx.reading;
    let Some(named) = r
        .phases
        .iter()
        .find(|p| p.active && p.phase_id.same(&pos.phase))
    else {
        return;
    };
    let Some(at) = r.current_phase.as_ref().or(r.next_phase.as_ref()) else {
        return;
    };
    if named.status == "complete" && *at != named.number {
        let line = st.position_line();
        s.at_line(
            &st.doc,
            line,
            format!(
                "STATE.md's position is phase {}, which is complete ({}); the work is at phase {at}",
                named.number, named.because
            ),
            "move it on (`gsd state advance`), or see `gsd roadmap --explain`",
        );
    }
}
