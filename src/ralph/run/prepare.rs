//! A plan made ready for `gsd ralph run`: its loop state (prompt, checks)
//! and the problems that must stop it before any agent runs (no checks, the
//! plan does not lint). One plan or a phase of them, the same way.

use crate::model::{Plan, Workspace};
use crate::ralph::start::{StartOptions, new_loop};
use crate::ralph::state::LoopState;
use crate::render::{RenderError, Renderer};

/// The loop state for `plan` and the problems found with it.
pub fn prepare(
    ws: &Workspace,
    plan: &Plan,
    opts: &StartOptions,
    stuck_threshold: u32,
) -> Result<(LoopState, Vec<String>), RenderError> {
    let rel = ws.rel(plan.doc.path()).to_path_buf();
    let r = Renderer::new(Some(&ws.planning));
    let mut state = new_loop(&r, plan, &rel.display().to_string(), opts)?;
    state.stuck_threshold = stuck_threshold;
    let mut problems = Vec::new();
    if state.checks.is_empty() {
        problems.push(format!(
            "plan {} declares no checks (no commands in <verify> or <verification>), so nothing could prove the loop done; add `<automated>CMD</automated>` to a task's <verify>, or pass --check CMD",
            state.plan
        ));
    }
    problems.extend(lint_errors(ws, &rel));
    Ok((state, problems))
}

/// The plan's own lint errors, one line each.
pub fn lint_errors(ws: &Workspace, rel: &std::path::Path) -> Vec<String> {
    crate::lint::run(ws, &crate::lint::Options::default())
        .iter()
        .filter(|d| &*d.file == rel && d.severity == crate::lint::Severity::Error)
        .map(|d| {
            format!(
                "the plan does not lint: {}:{} {} {}",
                d.file.display(),
                d.line,
                d.code,
                d.message
            )
        })
        .collect()
}
