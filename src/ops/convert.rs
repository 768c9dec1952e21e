//! `convert --into PLAN`: replace a plan's task block with converted tasks.

use std::path::Path;

use crate::convert::{ConvTask, Format, gsd_xml};
use crate::model::plan_ref::find_plan;
use crate::model::{PlanId, Workspace};

use super::{Change, OpError, rewrite};

pub fn into_plan(
    ws: &Workspace,
    cwd: &Path,
    plan_id: &str,
    tasks: &[ConvTask],
    from: Format,
    xml_strict: bool,
) -> Result<Change, OpError> {
    let plan = find_plan(ws, cwd, plan_id)?.at.plan;
    let doc = &plan.doc;
    if doc.source.text().is_none() {
        // Its tasks could not be read, and its other bytes would be lost.
        return Err(crate::edit::EditError::NotText {
            file: ws.rel(doc.path()).display().to_string(),
        }
        .into());
    }
    let old = doc.text();
    let block = gsd_xml::read(old).map_err(|e| {
        OpError::invalid(
            format!("plan {plan_id} has no task block to replace: {e}"),
            Some("add a <tasks> section with one <task> to the plan first".into()),
        )
    })?;
    // The tasks take the plan's line ending: a CRLF plan stays CRLF.
    let mut tasks_text = gsd_xml::write(tasks, xml_strict);
    let nl = doc.source.eol();
    if nl != "\n" {
        tasks_text = tasks_text.replace('\n', nl);
    }
    let new = format!(
        "{}{tasks_text}{}",
        &old[..block.span.start],
        &old[block.span.end..]
    );
    let canonical = PlanId::parse(plan_id).map_or_else(|| plan_id.to_owned(), |p| p.canonical());
    Ok(Change::writes(
        format!("docs({canonical}): tasks from {}", from.name()),
        vec![format!(
            "{}: {} task(s) from {}",
            ws.rel(doc.path()).display(),
            tasks.len(),
            from.name()
        )],
        vec![rewrite(doc, new)],
    ))
}
