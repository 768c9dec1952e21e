//! Rules over one PLAN.md (GSD-FORMATS §7.1, validated per task type).

use crate::doc::elements::TagProblem;
use crate::lint::context::{Convention, Ctx, Sink};
use crate::model::document::Frontmatter;
use crate::model::plan::REQUIRED_KEYS;
use crate::model::task::TaskType;

/// A plan with text but no frontmatter.
pub(crate) fn bare(p: &crate::model::Plan) -> bool {
    matches!(p.doc.frontmatter, Frontmatter::Absent) && !p.doc.text().trim().is_empty()
}

pub fn plan_no_frontmatter(cx: &Ctx, s: &mut Sink) {
    // If plans of this project ran without frontmatter (their SUMMARY is on
    // disk), GSD's executor ran that format, so the next plan in it will
    // run too: still worth fixing, not an error ([`Convention`]).
    for plan in cx.view.all_plans().filter(|p| !p.is_quick() && bare(p)) {
        s.file_unless_ran_so(
            Convention::BarePlanRan,
            &plan.doc.rel_path,
            format!("plan {} has no frontmatter", plan.display_id()),
            "start the file with a --- block holding phase, plan, type, wave, depends_on, files_modified, autonomous and must_haves",
        );
    }
}

/// The required keys a plan's frontmatter lacks.
pub(crate) fn missing_keys(plan: &crate::model::Plan) -> Option<Vec<&'static str>> {
    let fm = plan.doc.fm()?;
    Some(
        REQUIRED_KEYS
            .iter()
            .copied()
            .filter(|k| {
                fm.get(k).is_none()
                    && !(*k == "files_modified" && fm.get("files-modified").is_some())
            })
            .collect(),
    )
}

pub fn plan_missing_field(cx: &Ctx, s: &mut Sink) {
    // The keys plans that already ran went without: GSD's executor gives a
    // missing `wave` 1, `autonomous` true and empty lists, so a format the
    // project's plans ran in does not stop the next one. A live plan that
    // lacks only those is a warning; one that lacks more is an error
    // (settled once every plan has been read: [`Convention`]).
    // Quick plans have no phase, wave or dependencies to declare.
    for plan in cx.view.all_plans().filter(|p| !p.is_quick()) {
        let Some(missing) = missing_keys(plan) else {
            continue;
        };
        if !missing.is_empty() {
            let span = plan.key_span("__none__");
            // Within the format the project's plans ran in, a key GSD's
            // executor fills with the value a plan would state anyway
            // (`autonomous` true, `type` execute) is no more.
            let message = format!(
                "plan {} is missing required frontmatter field(s): {}",
                plan.display_id(),
                missing.join(", ")
            );
            s.at_unless_ran_so(
                Convention::KeysRanWithout(missing),
                s.severity(),
                &plan.doc,
                span,
                message,
                "add them; empty lists are fine (`depends_on: []`)",
            );
        }
    }
}

pub fn plan_field_type(cx: &Ctx, s: &mut Sink) {
    // A quick task's plan has no phase-plan schema to break.
    for plan in cx.view.all_plans().filter(|p| !p.is_quick()) {
        for e in &plan.fm.type_errors {
            s.at(
                &plan.doc,
                e.span,
                format!("`{}` should be {}", e.key, e.expected),
                format!("fix the value of `{}`", e.key),
            );
        }
        if let Some(t) = &plan.fm.plan_type
            && t != "execute"
            && t != "tdd"
        {
            // GSD branches on `tdd` alone and runs any other type as
            // `execute`: nothing breaks, so a warning, not an error.
            s.at_severity(
                crate::lint::Severity::Warning,
                &plan.doc,
                plan.key_span("type"),
                format!("plan type `{t}` is neither `execute` nor `tdd`"),
                "use `type: execute` (gap-closure plans are execute too) or `type: tdd`; GSD runs any other type as execute",
            );
        }
    }
}

pub fn plan_no_tasks(cx: &Ctx, s: &mut Sink) {
    for plan in cx.view.all_plans() {
        if plan.tasks.is_empty()
            && plan.feature.is_none()
            && plan.markdown_tasks == 0
            && plan.task_problems.is_empty()
            && !plan.doc.text().trim().is_empty()
        {
            s.file(
                &plan.doc.rel_path,
                format!("plan {} has no <task> elements", plan.display_id()),
                "add <task type=\"auto\"> blocks inside <tasks>",
            );
        }
    }
}

pub fn wave_without_dependencies(cx: &Ctx, s: &mut Sink) {
    for plan in cx.view.all_plans() {
        if plan.fm.wave.is_some_and(|w| w > 1)
            && plan.fm.depends_on.is_empty()
            && plan.doc.fm().and_then(|m| m.get("depends_on")).is_some()
        {
            s.at(
                &plan.doc,
                plan.key_span("wave"),
                format!(
                    "plan {} is in wave {} but depends on nothing",
                    plan.display_id(),
                    plan.fm.wave.unwrap_or(0)
                ),
                "list the plans it waits for in depends_on, or move it to wave 1",
            );
        }
    }
}

pub fn checkpoint_not_autonomous(cx: &Ctx, s: &mut Sink) {
    for plan in cx.view.all_plans() {
        // An absent `autonomous` is already reported by plan-missing-field.
        let stated = plan.doc.fm().and_then(|m| m.get("autonomous")).is_some();
        if plan.has_checkpoints() && stated && plan.fm.autonomous != Some(false) {
            let task = plan
                .tasks
                .iter()
                .find(|t| t.kind.is_checkpoint())
                .expect("has checkpoints");
            s.at(
                &plan.doc,
                task.start_tag,
                format!(
                    "plan {} has checkpoint tasks but is not marked `autonomous: false`",
                    plan.display_id()
                ),
                "set `autonomous: false` in the frontmatter so executors stop for the human",
            );
        }
    }
}

pub fn must_haves_not_checkable(cx: &Ctx, s: &mut Sink) {
    for plan in cx.view.all_plans() {
        let Some(mh) = &plan.fm.must_haves else {
            continue;
        };
        // A plan that only asks a person to verify (every task a
        // checkpoint, no file to modify) builds nothing a tool could check.
        let verification_only = plan.fm.files_modified.is_empty()
            && !plan.tasks.is_empty()
            && plan.tasks.iter().all(|t| t.kind.is_checkpoint());
        if verification_only {
            continue;
        }
        if !mh.is_checkable() {
            let what = if mh.is_empty() {
                "is empty"
            } else {
                "has only truths or plain-string items"
            };
            s.at(&plan.doc, plan.key_span("must_haves"), format!("must_haves of plan {} {what}: nothing a tool can verify", plan.display_id()), "add artifacts as maps (`- path: src/x.rs` with min_lines/exports/contains) or key_links with from/to");
        }
    }
}

pub fn plan_noncanonical_name(cx: &Ctx, s: &mut Sink) {
    for plan in cx.view.all_plans().filter(|p| !p.is_quick()) {
        if !plan.canonical_name {
            // GSD schedules every `*-PLAN.md` (its canonical-name contract,
            // `05-02B-PLAN.md` included); only the loose forms it merely
            // counts (`01-PLAN-01.md`, `plan.md`) go unscheduled.
            let scheduled = plan.doc.file_name().ends_with("-PLAN.md");
            let (sev, help) = if scheduled {
                (
                    crate::lint::Severity::Info,
                    "GSD schedules it; {phase}-{plan}-PLAN.md (e.g. 05-07-PLAN.md) gives it the plan number summaries and depends_on use",
                )
            } else {
                (
                    s.severity(),
                    "rename it to {phase}-{plan}-PLAN.md (e.g. 05-07-PLAN.md): GSD's find-phase and phase-plan-index schedule only *-PLAN.md",
                )
            };
            s.file_severity(
                sev,
                &plan.doc.rel_path,
                format!(
                    "plan file {} does not follow the NN-MM-PLAN.md naming",
                    plan.doc.file_name()
                ),
                help,
            );
        }
    }
}

pub fn task_unbalanced_tag(cx: &Ctx, s: &mut Sink) {
    for plan in cx.view.all_plans() {
        for p in &plan.task_problems {
            let fence_line =
                |f: &Option<crate::doc::Span>| f.map_or(0, |f| plan.doc.line_of(f.start));
            match p {
                TagProblem::Unclosed {
                    name,
                    start_tag,
                    fence: Some(f),
                } => s.at(
                    &plan.doc,
                    *start_tag,
                    p.to_string(),
                    format!(
                        "the code fence opened at line {} runs past </{name}>: close the fence before </{name}>, or remove the stray ``` line",
                        plan.doc.line_of(f.start)
                    ),
                ),
                TagProblem::Unclosed { name, start_tag, .. } => s.at(
                    &plan.doc,
                    *start_tag,
                    p.to_string(),
                    format!("add </{name}> at the end of the task"),
                ),
                TagProblem::StrayClose {
                    end_tag, fence, ..
                } => s.at(
                    &plan.doc,
                    *end_tag,
                    p.to_string(),
                    match fence {
                        Some(_) => format!(
                            "the code fence opened at line {} holds the opening tag: close the fence before it",
                            fence_line(fence)
                        ),
                        None => "remove it, or wrap examples of tags in backticks or a code fence".to_owned(),
                    },
                ),
                TagProblem::Nested { .. } => {}
            }
        }
        let mut opaque = None;
        // Closing tags inside fences, one index per name (a scan of the task
        // per unclosed tag was quadratic in them).
        let mut fenced = std::collections::HashMap::new();
        for t in &plan.tasks {
            for (name, span) in &t.unclosed_children {
                let text = plan.doc.text();
                let opaque = opaque.get_or_insert_with(|| {
                    crate::doc::elements::Opaque::scan(text, plan.doc.body())
                });
                let close = format!("</{name}>");
                let fence = fenced
                    .entry(close)
                    .or_insert_with_key(|c: &String| {
                        crate::doc::elements::FencedHits::new(text, opaque, c)
                    })
                    .first_in(span.end, t.content_span.end);
                let (message, help) = match fence {
                    Some(f) => (
                        format!(
                            "<{name}> in task {} is never closed: its </{name}> is inside a code fence",
                            t.index
                        ),
                        format!(
                            "the code fence opened at line {} runs past </{name}>: close the fence before </{name}>, or remove the stray ``` line",
                            plan.doc.line_of(f.start)
                        ),
                    ),
                    None => (
                        format!("<{name}> in task {} is never closed", t.index),
                        format!("add </{name}>"),
                    ),
                };
                s.at(&plan.doc, *span, message, help);
            }
        }
    }
}

pub fn task_nested(cx: &Ctx, s: &mut Sink) {
    for plan in cx.view.all_plans() {
        for p in &plan.task_problems {
            if let TagProblem::Nested { name, inner, .. } = p {
                s.at(
                    &plan.doc,
                    *inner,
                    format!("<{name}> opened inside another <{name}>"),
                    "close the outer task first, or put the example in backticks or a code fence",
                );
            }
        }
    }
}

/// `<a>, <b>` (or joined by `sep`).
fn tag_list(names: &[&str], sep: &str) -> String {
    names
        .iter()
        .map(|m| format!("<{m}>"))
        .collect::<Vec<_>>()
        .join(sep)
}

/// Each task of the workspace with the children from `wanted` it lacks.
fn tasks_missing<'a>(
    cx: &'a Ctx,
    wanted: fn(&TaskType) -> &'static [&'static str],
) -> impl Iterator<
    Item = (
        &'a crate::model::Plan,
        &'a crate::model::Task,
        Vec<&'static str>,
    ),
> + 'a {
    cx.view.all_plans().flat_map(move |plan| {
        plan.tasks.iter().filter_map(move |t| {
            // A child that is there but never closed is task-unbalanced-tag's
            // finding, not a missing child; and every child after it reads
            // as its content, so none can be called missing until it closes.
            if !t.unclosed_children.is_empty() {
                return None;
            }
            let missing: Vec<&str> = wanted(&t.kind)
                .iter()
                .copied()
                .filter(|c| !t.has(c))
                .collect();
            (!missing.is_empty()).then_some((plan, t, missing))
        })
    })
}

pub fn task_missing_required(cx: &Ctx, s: &mut Sink) {
    // The children the tasks of plans that already ran went without, by
    // task type: the executor ran the project's own task format (`<title>`
    // and `<acceptance_criteria>` for `<name>` and `<done>`), so the next
    // plan in that format will run too. Still worth fixing; not an error.
    // (Which ones is known once every plan has been read: [`Convention`].)
    for (plan, t, missing) in tasks_missing(cx, |k| k.schema().0) {
        let kind = t.kind.as_str();
        // A checkpoint that says what to check in its <action>: the
        // executor still stops there and shows it; the schema is a nit.
        let in_action = t.kind.is_checkpoint() && t.child("action").is_some();
        let message = format!(
            "{kind} task '{}' is missing {}",
            t.label(),
            tag_list(&missing, ", ")
        );
        let help = format!(
            "a {kind} task needs {}",
            tag_list(t.kind.schema().0, " and ")
        );
        if in_action {
            s.at_severity(
                crate::lint::Severity::Info,
                &plan.doc,
                t.start_tag,
                message,
                help,
            );
        } else {
            s.at_unless_ran_so(
                Convention::TaskChildrenRanWithout(kind.to_owned(), missing),
                s.severity(),
                &plan.doc,
                t.start_tag,
                message,
                help,
            );
        }
    }
}

pub fn task_missing_recommended(cx: &Ctx, s: &mut Sink) {
    for (plan, t, missing) in tasks_missing(cx, |k| k.schema().1) {
        // A checkpoint without <resume-signal> still stops the executor.
        s.at_severity(
            if t.kind.is_checkpoint() {
                crate::lint::Severity::Info
            } else {
                s.severity()
            },
            &plan.doc,
            t.start_tag,
            format!(
                "task '{}' has no {}{}",
                t.label(),
                tag_list(&missing, ", "),
                // `<file>` for `<files>`: said, since it reads as there.
                if missing.contains(&"files") && t.has("file") {
                    " (its <file> is not a GSD tag: the executor reads <files>)"
                } else {
                    ""
                }
            ),
            "executors and `gsd verify` rely on <verify> and <done>; <files> drives overlap checks",
        );
    }
}

pub fn task_unknown_type(cx: &Ctx, s: &mut Sink) {
    for plan in cx.view.all_plans() {
        for t in &plan.tasks {
            if !t.kind.is_standard() {
                s.at(&plan.doc, t.start_tag, format!("task type `{}` is not a GSD task type", t.kind.as_str()), "use auto, tracer, checkpoint:human-verify, checkpoint:decision or checkpoint:human-action (tdd=\"true\" marks a TDD task)");
            }
        }
    }
}

pub fn unclosed_code_fence(cx: &Ctx, s: &mut Sink) {
    for plan in cx.view.all_plans() {
        for span in &plan.unclosed_fences {
            s.at(&plan.doc, *span, "code fence is never closed", "close it with a matching ``` line; until then gsd reads what follows as plain text");
        }
    }
}

pub fn plan_skeleton_unfilled(cx: &Ctx, s: &mut Sink) {
    let marker = crate::render::SKELETON;
    for plan in cx.view.all_plans() {
        let text = plan.doc.text();
        let Some(first) = text.find(marker) else {
            continue;
        };
        let count = text.matches(marker).count();
        s.at(
            &plan.doc,
            crate::doc::Span::new(first, first + marker.len()),
            format!(
                "plan {} is a skeleton: {count} place(s) still say {marker}",
                plan.display_id()
            ),
            "write the real text in place of each TODO(gsd): before executing the plan",
        );
    }
}
