//! Phase use cases: add, insert, remove (with renumbering) and complete.
//! Each keeps the tree consistent with itself: the roadmap, the phase
//! folders and STATE.md's `Phase: X of N` change together, in one commit.

use std::path::Path;

use crate::edit::{self, EditError};
use crate::model::{PhaseId, Workspace};
use crate::store::FileChange;

use super::roadmap::roadmap_of;
use super::{Change, OpError, rel, rewrite};

fn parse_id(ws: &Workspace, phase: &str) -> Result<PhaseId, OpError> {
    PhaseId::parse(phase).ok_or_else(|| {
        EditError::UnknownPhase {
            value: phase.to_owned(),
            phases: ws
                .roadmap
                .as_ref()
                .map(|rm| rm.all_phase_ids().iter().map(PhaseId::unpadded).collect())
                .unwrap_or_default(),
        }
        .into()
    })
}

/// A phase `add` or `insert` made: the change, its ID and folder.
#[derive(Debug, Clone)]
pub struct Added {
    pub change: Change,
    /// The new phase's ID, unpadded (`7`, `3.1`).
    pub id: String,
    /// Its folder, relative to the project root, with `/`.
    pub dir: String,
}

/// `phase add NAME`: a new last phase of the current milestone.
pub fn add(ws: &Workspace, name: &str) -> Result<Change, OpError> {
    add_shown(ws, name).map(|a| a.change)
}

/// `add`, saying which phase it made.
pub fn add_shown(ws: &Workspace, name: &str) -> Result<Added, OpError> {
    roadmap_of(ws)?;
    let new = edit::roadmap::add_phase(ws, name)?;
    new_phase(ws, new, &format!("docs(roadmap): add phase {{}}: {name}"))
}

/// `phase insert AFTER NAME`: a decimal phase after AFTER.
pub fn insert(ws: &Workspace, after: &str, name: &str) -> Result<Change, OpError> {
    insert_shown(ws, after, name).map(|a| a.change)
}

/// `insert`, saying which phase it made.
pub fn insert_shown(ws: &Workspace, after: &str, name: &str) -> Result<Added, OpError> {
    roadmap_of(ws)?;
    let new = edit::roadmap::insert_phase(ws, after, name)?;
    new_phase(
        ws,
        new,
        &format!("docs(roadmap): insert phase {{}} after {after}: {name}"),
    )
}

fn new_phase(
    ws: &Workspace,
    new: edit::roadmap::NewPhase,
    message: &str,
) -> Result<Added, OpError> {
    let rm = roadmap_of(ws)?;
    if ws.root.join(&new.dir).exists() {
        return Err(OpError::invalid(
            format!("{} already exists", new.dir.display()),
            None,
        ));
    }
    let mut writes = vec![
        rewrite(&rm.doc, edit::apply(rm.doc.text(), &new.edits)?),
        FileChange {
            path: ws.root.join(&new.dir).join(".gitkeep"),
            before: None,
            after: Vec::new(),
        },
    ];
    // `Phase: 1 of 6` counts the phases: one more now (remove lowers it).
    if let Some(st) = &ws.state
        && let Some(e) = edit::state::shift_total(st, 1)
    {
        writes.push(rewrite(&st.doc, edit::apply(st.doc.text(), &[e])?));
    }
    let change = Change::writes(
        message.replace("{}", &new.id.unpadded()),
        vec![format!(
            "phase {} added: {}",
            new.id.unpadded(),
            new.dir.display()
        )],
        writes,
    );
    Ok(Added {
        change,
        id: new.id.unpadded(),
        dir: new.dir.to_string_lossy().replace('\\', "/"),
    })
}

/// `phase remove N`: delete its folder, renumber the later phases (folders,
/// files, references) and lower STATE's total.
pub fn remove(ws: &Workspace, phase: &str, force: bool) -> Result<Change, OpError> {
    roadmap_of(ws)?;
    let id = PhaseId::parse(phase).ok_or_else(|| EditError::UnknownPhase {
        value: phase.to_owned(),
        phases: Vec::new(),
    })?;
    let removal = edit::renumber::remove_phase(ws, &id, force)?;
    let docs = ws.documents();
    let moved = |p: &Path| {
        removal
            .moves
            .iter()
            .find(|(from, _)| from == p)
            .map(|(_, to)| to.clone())
    };
    let mut writes = Vec::new();
    for (path, edits) in &removal.edits {
        let Some(doc) = docs.iter().find(|d| d.path() == path) else {
            continue;
        };
        writes.push(FileChange {
            path: moved(path).unwrap_or_else(|| path.clone()),
            before: Some(doc.source.bytes().to_vec()),
            after: edit::apply(doc.text(), edits)?.into_bytes(),
        });
    }
    let mut change = Change::writes(
        format!("docs(roadmap): remove phase {} and renumber", id.unpadded()),
        removal.summary,
        writes,
    );
    change.set.moves = removal.moves;
    change.set.deletes = removal.deletes;
    Ok(change)
}

/// The roadmap's record of a phase whose plans all have summaries: its
/// checklist entry ticked and dated, its plan entries ticked. Nothing when
/// a plan is still open, and STATE.md is left alone (a phase run has
/// advanced it plan by plan).
pub fn tick_if_done(ws: &Workspace, id: &PhaseId) -> Result<Change, OpError> {
    let rm = roadmap_of(ws)?;
    let open = ws
        .current_phases()
        .find(|p| p.id.as_ref().is_some_and(|i| i.same(id)))
        .is_none_or(|p| {
            p.plan_files.is_empty() || p.plan_files.iter().any(|f| !p.has_summary_for(f))
        });
    let edits = if open {
        Vec::new()
    } else {
        edit::roadmap::complete_phase(ws, id, false)?
    };
    Ok(Change::writes(
        format!("docs(roadmap): complete phase {}", id.unpadded()),
        vec![format!(
            "{}: phase {} complete",
            rel(ws, rm.doc.path()).display(),
            id.unpadded()
        )],
        vec![rewrite(&rm.doc, edit::apply(rm.doc.text(), &edits)?)],
    ))
}

/// `phase complete N`: tick it in the roadmap; STATE moves on when it was
/// at this phase.
pub fn complete(ws: &Workspace, phase: &str, force: bool) -> Result<Change, OpError> {
    let rm = roadmap_of(ws)?;
    let id = parse_id(ws, phase)?;
    let edits = edit::roadmap::complete_phase(ws, &id, force)?;
    let mut writes = vec![rewrite(&rm.doc, edit::apply(rm.doc.text(), &edits)?)];
    let mut summary = vec![format!(
        "{}: phase {} complete",
        rel(ws, rm.doc.path()).display(),
        id.unpadded()
    )];
    if let Some(st) = ws
        .state
        .as_ref()
        .filter(|s| s.current_phase().is_some_and(|p| p.phase.same(&id)))
    {
        let moves = edit::state::advance(ws, st)
            .or_else(|e| if force { Ok(Vec::new()) } else { Err(e) })?;
        let state_edits: Vec<_> = moves.iter().flat_map(|c| c.edits.iter().cloned()).collect();
        writes.push(rewrite(&st.doc, edit::apply(st.doc.text(), &state_edits)?));
        summary.extend(moves.iter().map(|c| {
            format!(
                "{}: {} {} → {}",
                rel(ws, st.doc.path()).display(),
                c.label,
                c.before,
                c.after
            )
        }));
    }
    Ok(Change::writes(
        format!("docs(roadmap): complete phase {}", id.unpadded()),
        summary,
        writes,
    ))
}
