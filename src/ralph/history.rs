//! The end of a loop, written down: an iteration-history section in
//! STATE.md (the outcome, then iteration, result, failed checks) and the
//! status line the loop found, restored — one change of STATE.md alone
//! through the same transaction as every other gsd edit.

use std::path::Path;

use crate::edit::state::{restore_field, set_section};
use crate::model::Workspace;
use crate::model::workspace::Scope;
use crate::ops::{Applied, Change, OpError, WriteOptions};

use super::state::LoopState;

/// The heading gsd owns in STATE.md; the section is rewritten at each loop end.
pub const HEADING: &str = crate::model::state::HISTORY_HEADING;

/// The section body: one line about the loop, then the table.
pub fn table(state: &LoopState) -> String {
    let mut s = format!(
        "Loop {} on plan {}: {} after {} iteration(s) ({} → {}).\n\n| Iteration | Result | Failed checks |\n|---|---|---|\n",
        state.loop_id,
        state.plan,
        state.status.as_str(),
        state.history.len(),
        state.started_at,
        state.heartbeat_at,
    );
    for it in &state.history {
        let failed = if it.failed_checks.is_empty() {
            "-".to_owned()
        } else {
            it.failed_checks
                .iter()
                .map(|c| format!("`{}`", c.replace('|', "\\|").replace('`', "'")))
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.push_str(&format!("| {} | {} | {failed} |\n", it.n, it.result));
    }
    s
}

/// The STATE.md change for an ended loop: the history section (the loop's
/// outcome, then the table) and the status line as it was before the loop.
/// A tree without STATE.md changes nothing.
pub fn change(ws: &Workspace, state: &LoopState, outcome: &str) -> Result<Change, OpError> {
    let Some(st) = ws.state.as_ref() else {
        return Ok(Change::default());
    };
    let mut edits = set_section(st, HEADING, &format!("{outcome}.\n\n{}", table(state)))?;
    // The status before the loop comes back; a STATE.md without a status
    // line (or a loop that never recorded one) keeps its own.
    if let Some(before) = &state.status_before {
        edits.extend(restore_field(st, "status", before)?);
    }
    let message = format!(
        "docs(state): Ralph loop on {} {} after {} iteration(s)",
        state.plan,
        state.status.as_str(),
        state.history.len()
    );
    Ok(Change::writes(
        message,
        vec![format!("STATE.md: Ralph loop history ({outcome})")],
        vec![crate::ops::rewrite(
            &st.doc,
            crate::edit::apply(st.doc.text(), &edits)?,
        )],
    ))
}

/// Record the ended loop in STATE.md through the one write path (lock,
/// refusals, journal, commit). Returns what happened, for the user.
pub fn record(root: &Path, state: &LoopState, outcome: &str) -> Result<String, OpError> {
    let out = crate::ops::run_chosen(root, WriteOptions::recording(), Scope::Index, |ws| {
        change(ws, state, outcome)
    })?;
    Ok(match out.applied {
        Applied::Stored { outcome, .. } if !outcome.changed.is_empty() => {
            format!("STATE.md: {}", outcome.commit.describe())
        }
        _ => String::new(),
    })
}
