//! Rules over PROJECT.md, REQUIREMENTS.md, research and milestones.

use std::collections::HashSet;

use crate::lint::context::{Ctx, Sink};
use crate::model::project::REQUIRED_SECTIONS;
use crate::model::requirements::{Scope, is_req_id};

pub fn project_missing(cx: &Ctx, s: &mut Sink) {
    if cx.ws.project.is_none() {
        // GSD's first layout kept the project brief in BRIEF.md: the tree
        // has its project file, in the older name.
        if cx.ws.root.join(".planning/BRIEF.md").is_file() {
            s.file_severity(
                crate::lint::Severity::Info,
                std::path::PathBuf::from(".planning/PROJECT.md"),
                "PROJECT.md not found; this tree keeps its brief in BRIEF.md (GSD's older layout)",
                "GSD's current commands read PROJECT.md: move BRIEF.md's content there when you next start a milestone",
            );
            return;
        }
        // Shared by every workstream: reported where it belongs, once.
        let rel = std::path::PathBuf::from(".planning/PROJECT.md");
        let (severity, why, hint) = cx.weigh_missing(s.severity(), &rel);
        s.file_severity(
            severity,
            rel,
            format!("PROJECT.md not found{why}"),
            hint.unwrap_or(
                "create it (`gsd init` writes one) with What This Is, Core Value and Requirements",
            ),
        );
    }
}

pub fn project_missing_section(cx: &Ctx, s: &mut Sink) {
    let Some(p) = &cx.ws.project else { return };
    // A `**Core Value:**` line says it as well as a heading; requirements
    // kept in REQUIREMENTS.md need no section here.
    let lower = p.doc.text().to_lowercase();
    let missing: Vec<&str> = REQUIRED_SECTIONS
        .iter()
        .copied()
        .filter(|t| !p.has_section(t))
        .filter(|t| !lower.contains(&format!("**{}", t.to_lowercase())))
        .filter(|t| {
            !(*t == "Requirements"
                && (cx.ws.requirements.is_some()
                    || cx.ws.root.join(".planning/REQUIREMENTS.md").is_file()))
        })
        .collect();
    if !missing.is_empty() && !p.doc.text().trim().is_empty() {
        s.file(
            &p.doc.rel_path,
            format!(
                "PROJECT.md has no {} section(s)",
                missing
                    .iter()
                    .map(|m| format!("`## {m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "agents read these sections by their exact titles",
        );
    }
}

/// Requirement IDs that the plans of `view` name, added to `out`: their
/// `requirements:` list, and any ID written anywhere in a plan — GSD's own
/// gap analysis counts a requirement covered when a plan's text names it
/// (`\bID\b`), as a success criterion `- RESP-02: …` does in a plan with
/// no `requirements:` key (batch 31, Consultates+consultates-rebuild).
/// Returns whether some plan traces requirements as GSD's planner writes
/// them (a `requirements:` list, or in plans of the older markdown format a
/// `**Requirements:**` line or `## Requirements` section): an ID in a
/// plan's prose alone does not make a tree one that traces them (batch 31,
/// Ayy-man+toiture-main). (Gathered in every pass as facts, for
/// `requirement_not_covered`.)
pub(crate) fn referenced(view: &crate::lint::context::View, out: &mut HashSet<String>) -> bool {
    let mut traced = false;
    for p in view.all_plans() {
        // Most plans name the IDs the others do: copy each one once.
        for r in &p.fm.requirements {
            if !out.contains(r) {
                out.insert(r.clone());
            }
        }
        traced = traced || !p.fm.requirements.is_empty() || traces_in_text(p.doc.text());
        ids_anywhere(p.doc.text(), out);
    }
    traced
}

/// `Requirements: A-1, A-2` on a line, or a `## Requirements` section
/// listing them, in a plan's first 60 lines (a plan written without
/// frontmatter).
fn traces_in_text(text: &str) -> bool {
    let mut in_section = false;
    for line in text.lines().take(60) {
        if let Some(h) = line
            .strip_prefix('#')
            .map(|h| h.trim_start_matches(['#', ' ']))
        {
            in_section = opens_with_requirements(h);
            if in_section && !crate::model::requirements::find_req_ids(h).is_empty() {
                return true; // `## Requirements: CAT-01, CAT-02`
            }
            continue;
        }
        let l = line.trim_start_matches(['*', '-', ' ']);
        if (in_section || opens_with_requirements(l))
            && !crate::model::requirements::find_req_ids(l).is_empty()
        {
            return true;
        }
    }
    false
}

/// Whether a line opens with the word `Requirements` (compared in place:
/// lowercasing a copy of every line of every plan was most of this rule's
/// time on a big tree).
fn opens_with_requirements(l: &str) -> bool {
    l.as_bytes()
        .get(..12)
        .is_some_and(|head| head.eq_ignore_ascii_case(b"requirements"))
}

/// Every requirement-ID-shaped word of `text` (`AUTH-01`, `TOOL-DET-01`),
/// found from its dashes: a word is letters, digits, `_` and `-`, as
/// [`crate::model::requirements::find_req_ids`] splits them, and holds a
/// dash followed by a digit. Found without splitting the whole text: this
/// runs over every plan of a tree.
fn ids_anywhere(text: &str, out: &mut HashSet<String>) {
    let b = text.as_bytes();
    let in_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    // The end of the last word read: a dash before it is of that word.
    let mut read_to = 0;
    for at in memchr::memchr_iter(b'-', b) {
        if at < read_to || !b.get(at + 1).is_some_and(u8::is_ascii_digit) {
            continue;
        }
        let mut start = at;
        while start > 0 && in_word(b[start - 1]) {
            start -= 1;
        }
        let mut end = at + 1;
        while end < b.len() && in_word(b[end]) {
            end += 1;
        }
        read_to = end;
        let word = text[start..end].trim_matches('-');
        if crate::model::requirements::is_req_id(word) && !out.contains(word) {
            out.insert(word.to_owned());
        }
    }
}

pub fn requirement_not_covered(cx: &Ctx, s: &mut Sink) {
    let Some(req) = &cx.ws.requirements else {
        return;
    };
    let used = &cx.facts.requirements_named;
    if !cx.facts.requirements_traced {
        return; // no plan traces requirement IDs yet: nothing to compare
    }
    // A gap is a requirement that a live, planned phase of the roadmap
    // promises to deliver while none of that phase's plans names it. One no
    // live phase promises is untraced (another rule), deferred, or of
    // another milestone; one whose phase has no plans yet is only not
    // planned yet.
    // The phase STATE.md says is being planned has not all its plans yet:
    // coverage is checked once planning is done.
    let planning_now = cx
        .ws
        .state
        .as_ref()
        .filter(|st| {
            // `status: planning`, `Status: Ready to plan` — in the body or
            // the frontmatter, which GSD's tools keep apart.
            let body = st.body_field("status").map(|f| f.value.to_lowercase());
            let fm = st
                .fm_field("status")
                .and_then(|(_, n)| n.as_str().map(str::to_lowercase));
            [body, fm]
                .into_iter()
                .flatten()
                .any(|s| s.contains("planning") || s.contains("to plan"))
        })
        .and_then(|st| st.current_phase());
    // A phase is planned when it has plans and every plan its roadmap
    // section lists and has not ticked has its PLAN file (or a summary):
    // a listed plan still to be written (`- [ ] 22-07: …`) may be the one
    // that covers it. Once the work has moved past the phase, a listed
    // plan nobody wrote is abandoned, and the gap is one.
    let planned = |p: &crate::model::roadmap::PhaseDetail| {
        cx.phases.folder(&p.id).is_some_and(|d| {
            d.plan_count() > 0
                && (cx.moved_past(&p.id)
                    || p.plans
                        .iter()
                        .filter(|e| e.checked != Some(true))
                        .all(|e| d.has_plan(&e.id) || d.summary_names(&e.id)))
        })
    };
    let promised_by_planned_phase = |id: &str| {
        cx.ws.roadmap.as_ref().is_some_and(|rm| {
            rm.phases.iter().any(|p| {
                p.requirements.iter().any(|r| r == id)
                    && cx.live(&p.id)
                    && planned(p)
                    && !planning_now
                        .as_ref()
                        .is_some_and(|pos| pos.phase.same(&p.id))
            })
        })
    };
    for r in req
        .items
        .iter()
        .filter(|r| r.scope == Scope::V1 && r.checked.is_some())
    {
        if !used.contains(&r.id) && promised_by_planned_phase(&r.id) {
            s.at_line(
                &req.doc,
                r.line,
                format!("requirement {} is not covered by any plan", r.id),
                "add it to the `requirements:` list of the plan that delivers it",
            );
        }
    }
}

pub fn requirement_unknown(cx: &Ctx, s: &mut Sink) {
    let Some(req) = &cx.ws.requirements else {
        return;
    };
    // Archived milestones keep their own vX.Y-REQUIREMENTS.md: only current plans are checked.
    for plan in cx.view.current_phases().flat_map(|p| p.plans.iter()) {
        let Some(node) = plan.doc.fm().and_then(|m| m.get("requirements")) else {
            continue;
        };
        let items = node.scalar_items();
        for (id, span) in items {
            let archived = || cx.archived_requirements.iter().any(|r| r.contains(&id));
            // A phase's `**Requirements**:` line in ROADMAP.md defines the
            // IDs of phases added after REQUIREMENTS.md was written.
            let in_roadmap = || {
                cx.ws
                    .roadmap
                    .as_ref()
                    .is_some_and(|rm| rm.phases.iter().any(|p| p.requirements.contains(&id)))
            };
            if is_req_id(&id) && !req.contains(&id) && !archived() && !in_roadmap() {
                s.at(
                    &plan.doc,
                    span,
                    format!(
                        "plan {} names requirement {id}, which neither REQUIREMENTS.md, an archived milestone nor a ROADMAP phase defines",
                        plan.display_id()
                    ),
                    "fix the ID or add the requirement to REQUIREMENTS.md",
                );
            }
        }
    }
}

pub fn requirement_untraced(cx: &Ctx, s: &mut Sink) {
    let Some(req) = &cx.ws.requirements else {
        return;
    };
    if req.traceability.is_empty() {
        return;
    }
    // A ticked requirement is delivered: tracing it now is history. So is
    // one a complete phase's `**Requirements**:` line names.
    let delivered: HashSet<&str> = cx
        .reading
        .phases
        .iter()
        .filter(|p| p.status == "complete")
        .flat_map(|p| p.requirements.iter().map(String::as_str))
        .collect();
    for r in req.items.iter().filter(|r| {
        r.scope == Scope::V1 && r.checked != Some(true) && !delivered.contains(r.id.as_str())
    }) {
        if !req.traceability.iter().any(|t| t.id == r.id) {
            // A shipped milestone's archived requirements hold it (the
            // file was left as that milestone had it): history.
            let shipped = cx
                .archived_requirements
                .iter()
                .any(|a| a.get(&r.id).is_some());
            s.at_line_severity(
                if shipped {
                    crate::lint::Severity::Info
                } else {
                    s.severity()
                },
                &req.doc,
                r.line,
                format!(
                    "requirement {} is missing from the Traceability table",
                    r.id
                ),
                "add a `| ID | Phase N | Pending |` row",
            );
        }
    }
}

pub fn validation_missing(cx: &Ctx, s: &mut Sink) {
    // `workflow.nyquist_validation: false` turns VALIDATION.md off.
    let off = cx
        .ws
        .config_doc
        .as_ref()
        .is_some_and(|d| d.text().contains("\"nyquist_validation\": false"));
    if off {
        return;
    }
    for ph in cx.view.current_phases() {
        if !ph.id.as_ref().is_some_and(|id| cx.live(id)) {
            continue;
        }
        let research = ph
            .other_docs
            .iter()
            .find(|d| d.file_name().ends_with("RESEARCH.md"));
        let Some(doc) = research else { continue };
        if doc.text().contains("## Validation Architecture") && !ph.has_file_ending("VALIDATION.md")
        {
            s.file(
                &doc.rel_path,
                format!(
                    "{} has a Validation Architecture section but the phase has no VALIDATION.md",
                    doc.file_name()
                ),
                "write the phase's NN-VALIDATION.md (or drop the section)",
            );
        }
    }
}

pub fn milestone_not_in_milestones_md(cx: &Ctx, s: &mut Sink) {
    let ms_file = cx.planning_rel("MILESTONES.md");
    let ms_dir = cx.planning_rel("milestones");
    let milestones = cx.ws.other.iter().find(|d| *d.rel_path == *ms_file);
    for doc in &cx.ws.other {
        let name = doc.file_name();
        let in_ms = doc.rel_path.parent() == Some(ms_dir.as_path());
        let Some(version) = name.strip_suffix("-ROADMAP.md").filter(|_| in_ms) else {
            continue;
        };
        let listed = milestones.is_some_and(|m| m.text().contains(version));
        // A record of shipped work: worth knowing, never worth failing on.
        if !listed {
            s.file_severity(
                crate::lint::Severity::Info,
                &doc.rel_path,
                if milestones.is_some() {
                    format!("milestone {version} is archived but MILESTONES.md does not mention it")
                } else {
                    format!("milestone {version} is archived but there is no MILESTONES.md")
                },
                format!("add a `## {version} …` entry to MILESTONES.md"),
            );
        }
    }
}
