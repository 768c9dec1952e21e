//! `plan new`: a plan skeleton from the template, numbered after the
//! phase's last plan.

use crate::model::Workspace;
use crate::render::Renderer;
use crate::render::plan_new::{PlanNewError, PlanSpec, render};
use crate::store::FileChange;

use super::{Change, OpError};

pub fn new(ws: &Workspace, phase: &str, spec: &PlanSpec) -> Result<Change, OpError> {
    let r = Renderer::new(Some(&ws.planning));
    let (rel, id, text) = render(&r, ws, phase, spec).map_err(|e| match e {
        PlanNewError::NoPhase(p, known) => OpError::invalid(
            format!("phase {p} does not exist"),
            Some(format!("phases: {}", known.join(", "))),
        ),
        PlanNewError::UnknownDependency(d, plans) => OpError::invalid(
            format!("depends_on names {d}, which is not a plan of this phase"),
            Some(format!("plans: {}", crate::model::list_or_none(&plans))),
        ),
        PlanNewError::Render(e) => e.into(),
    })?;
    // The roadmap counts and lists the new plan (lint stays as clean as it was).
    let mut writes = vec![FileChange {
        path: ws.root.join(&rel),
        before: None,
        after: text.into_bytes(),
    }];
    if ws.roadmap.is_some()
        && let Some(phase_id) = crate::model::PhaseId::parse(phase)
    {
        let rm = super::roadmap::roadmap_of(ws)?;
        let file = std::path::Path::new(&rel)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let edits = crate::edit::roadmap::plan_added(ws, &phase_id, &file, spec.name.as_deref())?;
        if !edits.is_empty() {
            writes.push(super::rewrite(
                &rm.doc,
                crate::edit::apply(rm.doc.text(), &edits)?,
            ));
        }
    }
    // STATE's `Plan: X of N` counts the current phase's plans: one more.
    if let (Some(st), Some(phase_id)) = (&ws.state, crate::model::PhaseId::parse(phase))
        && st.current_phase().is_some_and(|p| p.phase.same(&phase_id))
        && let Some(edit) = crate::edit::state::shift_of(st, "Plan", 1)
    {
        writes.push(super::rewrite(
            &st.doc,
            crate::edit::apply(st.doc.text(), &[edit])?,
        ));
    }
    Ok(Change::writes(
        format!("docs({id}): new plan skeleton"),
        vec![format!(
            "plan {id} created: {rel} (fill in the TODO(gsd): parts; gsd lint lists them)"
        )],
        writes,
    ))
}
