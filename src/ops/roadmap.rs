//! ROADMAP.md use cases: the progress table from what is on disk.

use crate::edit;
use crate::model::Workspace;
use crate::model::roadmap::Roadmap;

use super::{Change, OpError, rel, rewrite};

/// The roadmap of `ws`, when it can be edited.
pub fn roadmap_of(ws: &Workspace) -> Result<&Roadmap, OpError> {
    if ws.roadmap.is_none() {
        return Err(OpError::Missing {
            file: ".planning/ROADMAP.md".into(),
            hint: "create it with `gsd init`".into(),
        });
    }
    Ok(edit::roadmap::editable(ws)?)
}

/// `roadmap update-progress`.
pub fn update_progress(ws: &Workspace) -> Result<Change, OpError> {
    let rm = roadmap_of(ws)?;
    let edits = edit::roadmap::update_progress(ws)?;
    Ok(Change::writes(
        "docs(roadmap): update progress table from disk".into(),
        vec![format!(
            "{}: {} progress cell(s) updated",
            rel(ws, rm.doc.path()).display(),
            edits.len()
        )],
        vec![rewrite(&rm.doc, edit::apply(rm.doc.text(), &edits)?)],
    ))
}
