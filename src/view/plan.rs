//! Plans as JSON: a row of `gsd plan list --json` and the whole plan of
//! `gsd plan show --json`.

use serde_json::{Value, json};

use crate::model::plan_ref;
use crate::model::workspace::Phase;
use crate::model::{PhaseId, Plan, Task, Workspace};

fn task_json(t: &Task) -> Value {
    json!({
        "index": t.index,
        "type": t.kind.as_str(),
        "name": t.name(),
        "files": t.files(),
        "action": t.text("action"),
        "verify": t.text("verify"),
        "done": t.text("done"),
        "line": t.line,
        "tdd": t.tdd,
        "gate": t.gate,
        "attributes": t.attributes.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
        "children": t.children.iter().map(|c| json!({"name": c.name, "content": c.content})).collect::<Vec<_>>(),
    })
}

/// One plan's row: its id, place, wave, dependencies and task count.
pub fn summary_json(ws: &Workspace, phase: Option<&Phase>, p: &Plan) -> Value {
    json!({
        "id": p.display_id(),
        "path": ws.rel(p.doc.path()).display().to_string(),
        "phase": phase.and_then(|ph| ph.id.as_ref().map(PhaseId::normalized)),
        "wave": p.fm.wave,
        "depends_on": p.fm.depends_on,
        "autonomous": p.autonomous(),
        "tasks": p.tasks.len(),
        // False when some task markup could not be read: `tasks` may be
        // short (`gsd plan show` and `gsd lint` say why).
        "complete": p.task_problems.is_empty(),
        "has_summary": phase.is_some_and(|ph| ph.plan_has_summary(p)),
        "objective": p.objective(),
    })
}

/// A whole plan, and one line per task block that could not be read (the
/// tasks shown may then be incomplete: that is said, never hidden).
pub struct PlanShow {
    pub json: Value,
    pub unreadable: Vec<String>,
}

/// The plan `p` of `phase` as `gsd plan show --json` gives it.
pub fn show(ws: &Workspace, phase: Option<&Phase>, p: &Plan) -> PlanShow {
    let listed = plan_ref::plan_entries(ws)
        .into_iter()
        .find(|e| std::ptr::eq(e.at.plan, p))
        .map(|e| e.id);
    let mut v = summary_json(ws, phase, p);
    if let Some(listed) = listed {
        v["id"] = json!(listed);
    }
    let unreadable: Vec<String> = p
        .task_problems
        .iter()
        .map(|t| {
            let at = match t {
                crate::doc::elements::TagProblem::Unclosed { start_tag: s, .. }
                | crate::doc::elements::TagProblem::StrayClose { end_tag: s, .. }
                | crate::doc::elements::TagProblem::Nested { inner: s, .. } => s.start,
            };
            format!(
                "{}:{}: {t}; the tasks shown may be incomplete (`gsd lint` explains)",
                ws.rel(p.doc.path()).display(),
                p.doc.line_of(at)
            )
        })
        .collect();
    v["complete"] = json!(unreadable.is_empty());
    v["frontmatter"] = p.doc.fm().map_or(Value::Null, |n| n.to_json());
    v["tasks"] = Value::Array(p.tasks.iter().map(task_json).collect());
    v["must_haves"] = serde_json::to_value(&p.fm.must_haves).unwrap_or(Value::Null);
    v["requirements"] = json!(p.fm.requirements);
    v["files_modified"] = json!(p.fm.files_modified);
    PlanShow {
        json: v,
        unreadable,
    }
}
