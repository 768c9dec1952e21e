//! STATE.md use cases: set and patch fields, advance, record a session,
//! sync, and the Decisions / Blockers lists. Each is one STATE.md change.

use crate::doc::span::Edit;
use crate::edit::{self, EditError, state::FieldChange};
use crate::model::Workspace;
use crate::model::state::State;

use super::{Change, OpError, rel, rewrite};

/// The STATE.md of `ws`, or why there is none.
/// A STATE.md that is not UTF-8 is named, not read as one without fields.
pub fn state_of(ws: &Workspace) -> Result<&State, OpError> {
    let st = ws.state.as_ref().ok_or_else(|| OpError::Missing {
        file: ".planning/STATE.md".into(),
        hint: "create it with `gsd init`".into(),
    })?;
    if st.doc.source.text().is_none() {
        return Err(EditError::NotText {
            file: rel(ws, st.doc.path()).display().to_string(),
        }
        .into());
    }
    Ok(st)
}

fn said(c: &FieldChange) -> String {
    format!("{} {} → {}", c.label, c.before, c.after)
}

/// `said` for a commit subject: long values cut, so the subject stays a
/// line (the summary printed to the user keeps them whole).
fn said_short(c: &FieldChange) -> String {
    fn cut(v: &str) -> String {
        const MAX: usize = 40;
        match v.char_indices().nth(MAX) {
            Some((i, _)) => format!("{}…", &v[..i]),
            None => v.to_owned(),
        }
    }
    format!("{} {} → {}", c.label, cut(&c.before), cut(&c.after))
}

/// A STATE.md change made of `edits`, with one summary line per part.
fn change(
    ws: &Workspace,
    st: &State,
    edits: &[crate::doc::Edit],
    parts: &[String],
    message: String,
) -> Result<Change, OpError> {
    let new = edit::apply(st.doc.text(), edits)?;
    let name = rel(ws, st.doc.path());
    Ok(Change::writes(
        message,
        parts
            .iter()
            .map(|p| format!("{}: {p}", name.display()))
            .collect(),
        vec![rewrite(&st.doc, new)],
    ))
}

/// `state set FIELD VALUE` (also `ralph`'s status line, with its own message).
pub fn set(
    ws: &Workspace,
    field: &str,
    value: &str,
    message: Option<String>,
) -> Result<Change, OpError> {
    let st = state_of(ws)?;
    let ch = edit::state::set_field(ws, st, field, value)?;
    let what = said(&ch);
    change(
        ws,
        st,
        &ch.edits,
        std::slice::from_ref(&what),
        message.unwrap_or_else(|| format!("docs(state): {}", said_short(&ch))),
    )
}

/// `state patch F=V …`: several fields in one change.
pub fn patch(ws: &Workspace, pairs: &[String]) -> Result<Change, OpError> {
    let st = state_of(ws)?;
    let mut edits = Vec::new();
    let mut parts = Vec::new();
    for pair in pairs {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(OpError::invalid(
                format!("`{pair}` is not FIELD=VALUE"),
                Some("write pairs like status=Executing".into()),
            ));
        };
        let ch = edit::state::set_field(ws, st, k.trim(), v)?;
        parts.push(said(&ch));
        edits.extend(ch.edits);
    }
    change(
        ws,
        st,
        &edits,
        &parts,
        format!("docs(state): {}", parts.join(", ")),
    )
}

/// What `patch_shown` did: the change, the fields it set, and the fields
/// STATE.md does not show (left alone, not an error).
#[derive(Debug, Clone)]
pub struct Patched {
    pub change: Change,
    pub updated: Vec<String>,
    pub missing: Vec<String>,
}

/// Set each `(field, value)` STATE.md shows, in one change; fields it
/// does not show are reported, not refused (gsd-sdk's `state.patch`).
pub fn patch_shown(ws: &Workspace, pairs: &[(String, String)]) -> Result<Patched, OpError> {
    let st = state_of(ws)?;
    let mut edits = Vec::new();
    let mut parts = Vec::new();
    let (mut updated, mut missing) = (Vec::new(), Vec::new());
    for (k, v) in pairs {
        match edit::state::set_field(ws, st, k, v) {
            // Two names for one line (`Last session`, `Last Date`): the
            // first sets it, the second finds nothing left of its own.
            Ok(ch)
                if ch
                    .edits
                    .iter()
                    .any(|e| edits.iter().any(|x: &Edit| x.span.overlaps(e.span))) =>
            {
                missing.push(k.clone())
            }
            Ok(ch) => {
                parts.push(said(&ch));
                edits.extend(ch.edits);
                updated.push(k.clone());
            }
            Err(EditError::UnknownField { .. }) => missing.push(k.clone()),
            Err(e) => return Err(e.into()),
        }
    }
    let message = format!("docs(state): {}", parts.join(", "));
    Ok(Patched {
        change: change(ws, st, &edits, &parts, message)?,
        updated,
        missing,
    })
}

/// A state use case made of several field changes (`advance`, `sync`,
/// `record-session`): one change, one commit.
pub fn fields(
    ws: &Workspace,
    what: &str,
    compute: impl FnOnce(&Workspace, &State) -> Result<Vec<FieldChange>, EditError>,
) -> Result<Change, OpError> {
    let st = state_of(ws)?;
    let changes = compute(ws, st)?;
    let edits: Vec<_> = changes
        .iter()
        .flat_map(|c| c.edits.iter().cloned())
        .collect();
    let parts: Vec<String> = changes.iter().map(said).collect();
    let message = format!("docs(state): {what}: {}", parts.join(", "));
    let shown = if parts.is_empty() {
        vec![format!("{what}: nothing to change")]
    } else {
        parts
    };
    change(ws, st, &edits, &shown, message)
}

/// The body's first `Progress:` line set to `bar` (gsd-sdk's
/// `state.update-progress`); `updated` says whether STATE.md shows one.
pub fn set_progress_line(ws: &Workspace, bar: &str) -> Result<(Change, bool), OpError> {
    let st = state_of(ws)?;
    let shown = edit::state::shown_progress(st).next().is_some();
    let change = fields(ws, "progress", |_, st| {
        Ok(edit::state::progress_lines(st, bar, 1))
    })?;
    Ok((change, shown))
}

/// A row added to the Performance Metrics table (gsd-sdk's
/// `state.record-metric`); `added` is false, and nothing changes, when
/// STATE.md has no such table.
pub fn add_metric_row(ws: &Workspace, row: &str) -> Result<(Change, bool), OpError> {
    let st = state_of(ws)?;
    let added = edit::state::add_metric_row(st, row).is_some();
    let change = fields(ws, "metric", |_, st| {
        Ok(edit::state::add_metric_row(st, row).into_iter().collect())
    })?;
    Ok((change, added))
}

/// One of STATE.md's lists: Decisions, Blockers/Concerns, Roadmap Evolution.
#[derive(Debug, Clone, Copy)]
pub enum List {
    Decisions,
    Blockers,
    /// `### Roadmap Evolution`: phases inserted, added, removed, moved.
    RoadmapEvolution,
}

impl List {
    fn singular(self) -> &'static str {
        match self {
            List::Decisions => "decision",
            List::Blockers => "blocker",
            List::RoadmapEvolution => "roadmap evolution entry",
        }
    }

    fn title(self) -> &'static str {
        match self {
            List::Decisions => "Decisions",
            List::Blockers => "Blockers/Concerns",
            List::RoadmapEvolution => "Roadmap Evolution",
        }
    }

    fn section(self) -> fn(&str) -> bool {
        match self {
            List::Decisions => |t| t.contains("decisions"),
            List::Blockers => |t| t.contains("blockers") || t == "concerns",
            List::RoadmapEvolution => |t| t.contains("roadmap evolution"),
        }
    }
}

/// Add an entry; GSD writes decisions as `[Phase N]: text`.
pub fn add_entry(ws: &Workspace, list: List, text: &str) -> Result<Change, OpError> {
    let st = state_of(ws)?;
    let entry = match (list, st.current_phase()) {
        (List::Decisions, Some(p)) if !text.trim_start().starts_with('[') => {
            format!("[Phase {}]: {}", p.phase.unpadded(), text.trim())
        }
        _ => text.trim().to_owned(),
    };
    let edits = edit::state::add_list_entry(st, list.section(), list.title(), &entry)?;
    let s = list.singular();
    change(
        ws,
        st,
        &edits,
        &[format!("{s} added: {entry}")],
        format!("docs(state): add {s}: {entry}"),
    )
}

/// Remove the entry `which` names.
pub fn resolve_entry(ws: &Workspace, list: List, which: &str) -> Result<Change, OpError> {
    let st = state_of(ws)?;
    let (removed, edits) = edit::state::remove_list_entry(st, list.section(), which)?;
    let s = list.singular();
    change(
        ws,
        st,
        &edits,
        &[format!("{s} resolved: {removed}")],
        format!("docs(state): resolve {s}: {removed}"),
    )
}
