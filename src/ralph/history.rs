//! The end of a loop, written down: STATE.md's status line and an
//! iteration-history table (iteration, result, failed checks), in one
//! commit of STATE.md alone — the same lock, atomic write and commit policy
//! as every other gsd edit.

use std::path::Path;

use crate::edit::state::{set_field, set_section};
use crate::model::Workspace;
use crate::store::{CommitPolicy, FileChange, PlanningLock, lock::default_timeout};

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

/// Record the ended loop in STATE.md (status line when it has one, history
/// table always) and commit it. Returns what happened, for the user; a tree
/// without STATE.md records nothing.
pub fn record(root: &Path, state: &LoopState, status_line: &str) -> Result<String, String> {
    let _lock = PlanningLock::acquire(root, default_timeout()).map_err(|e| e.to_string())?;
    let ws = Workspace::load(root).map_err(|e| e.to_string())?;
    let Some(st) = ws.state.as_ref() else {
        return Ok(String::new());
    };
    let mut edits = set_section(st, HEADING, &table(state)).map_err(|e| e.to_string())?;
    // A STATE.md without a status line still gets its table.
    if let Ok(ch) = set_field(&ws, st, "status", status_line) {
        edits.extend(ch.edits);
    }
    let new = crate::edit::apply(st.doc.text(), &edits).map_err(|e| e.to_string())?;
    let change = FileChange {
        path: st.doc.path().to_path_buf(),
        before: Some(st.doc.source.bytes().to_vec()),
        after: new.into_bytes(),
    };
    let policy = if ws.config().commit_docs() {
        CommitPolicy::Commit
    } else {
        CommitPolicy::DocsNotCommitted
    };
    let message = format!(
        "docs(state): Ralph loop on {} {} after {} iteration(s)",
        state.plan,
        state.status.as_str(),
        state.history.len()
    );
    let out = crate::store::write_and_commit(root, &[change], &message, policy)
        .map_err(|e| e.to_string())?;
    Ok(format!("STATE.md: {}", out.commit.describe()))
}
