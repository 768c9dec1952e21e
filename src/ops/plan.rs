//! `plan new`: a plan skeleton from the template, numbered after the
//! phase's last plan.

use crate::model::Workspace;
use crate::render::Renderer;
use crate::render::plan_new::{PlanNewError, PlanSpec, render};
use crate::store::FileChange;

use super::{Change, OpError};

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

pub fn new(ws: &Workspace, phase: &str, spec: &PlanSpec) -> Result<Change, OpError> {
    let r = Renderer::new(Some(&ws.planning));
    let (rel, id, text) = render(&r, ws, phase, spec).map_err(|e| match e {
        PlanNewError::NoPhase(p, known) => OpError::invalid(
            format!("phase {p} does not exist"),
            Some(format!("phases: {}", known.join(", "))),
        ),
        PlanNewError::UnknownDependency(d, plans) => OpError::invalid(
            format!("depends_on names {d}, which is not a plan of this phase"),
            Some(format!("plans: {}", list(&plans))),
        ),
        PlanNewError::Render(e) => e.into(),
    })?;
    Ok(Change::writes(
        format!("docs({id}): new plan skeleton"),
        vec![format!(
            "plan {id} created: {rel} (fill in the TODO(gsd): parts; gsd lint lists them)"
        )],
        vec![FileChange {
            path: ws.root.join(&rel),
            before: None,
            after: text.into_bytes(),
        }],
    ))
}
