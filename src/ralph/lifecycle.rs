//! Starting and stopping a hook-driven loop, as use cases: what
//! `gsd plan ID --start-ralph` and `gsd ralph stop` do, returning typed
//! outcomes the CLI only renders.
//!
//! Both hold the loop lock (`.gsd/ralph.lock`) while they read and write the
//! loop state, so a Stop hook finishing the old loop cannot interleave, and
//! both write STATE.md only through the one write path (`ops`), so they obey
//! the same refusals as every other write.

use std::path::{Path, PathBuf};

use crate::edit::state::field_text;
use crate::model::Workspace;
use crate::model::plan_ref::{PlanLookupError, find_plan};
use crate::model::workspace::{Scope, WorkspaceError, find_root};
use crate::ops::{self, Applied, WriteOptions};
use crate::render::{RenderError, Renderer};
use crate::store::LockError;

use super::settings;
use super::start::{StartOptions, new_loop};
use super::state::{LoopState, Status, lock, now};

/// Why a loop could not be started or stopped.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum LoopError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Workspace(#[from] WorkspaceError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Plan(#[from] PlanLookupError),
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error("a Ralph loop on {plan} is already active (iteration {iteration}/{max})")]
    #[diagnostic(
        code(gsd::ralph::active),
        help("stop it with `gsd ralph stop`, or pass --force to replace it")
    )]
    Active {
        plan: String,
        iteration: u32,
        max: u32,
    },
    #[error(
        "plan {plan} declares no checks (no commands in <verify> or <verification>), so nothing could prove the loop done"
    )]
    #[diagnostic(
        code(gsd::ralph::no_checks),
        help("add `<automated>CMD</automated>` to a task's <verify>, or pass --check CMD")
    )]
    NoChecks { plan: String },
    #[error("no active Ralph loop in this project")]
    #[diagnostic(
        code(gsd::ralph::no_loop),
        help("`gsd ralph status` shows the last loop")
    )]
    NoActiveLoop,
    #[error("the loop state .gsd/ralph/loop.json cannot be read: {0}")]
    #[diagnostic(
        code(gsd::ralph::state),
        help("start a new loop with `gsd plan ID --start-ralph --force`")
    )]
    BadState(String),
    #[error("cannot write {path}: {message}")]
    #[diagnostic(code(gsd::ralph::write))]
    Write { path: String, message: String },
}

/// What STATE.md got: the commit, or why it was left alone (a tree
/// without STATE.md records nothing; a refused write does not stop a loop).
#[derive(Debug, Clone)]
pub enum StateNote {
    Untouched,
    Recorded(ops::Outcome),
    NotUpdated(String),
}

/// A started loop.
#[derive(Debug)]
pub struct Started {
    pub root: PathBuf,
    pub state: LoopState,
    pub hooks: HooksFrom,
    pub state_md: StateNote,
}

/// Where the loop's hooks come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HooksFrom {
    /// Installed (or already there) in this settings file.
    Settings(PathBuf),
    /// The gsd plugin `id`, enabled in `file`: nothing installed, so the
    /// handlers are not registered twice.
    Plugin { id: String, file: PathBuf },
}

/// How to start a loop.
pub struct StartRequest<'a> {
    pub plan: &'a str,
    pub options: StartOptions,
    /// The settings file the hooks go into.
    pub settings: PathBuf,
    /// What the installed hooks run.
    pub gsd_bin: String,
    /// The user's home (its `.claude/settings.json` may enable the plugin).
    pub home: Option<PathBuf>,
    /// Replace an active loop.
    pub force: bool,
}

/// `gsd plan ID --start-ralph`.
pub fn start(cwd: &Path, req: StartRequest<'_>) -> Result<Started, LoopError> {
    let ws = Workspace::discover(cwd)?;
    let root = ws.root.clone();
    // Held until the new state is saved: a hook finishing an old loop cannot interleave.
    let loop_lock = lock(&root, crate::store::lock::default_timeout())?;
    let existing = LoopState::load(&root).and_then(Result::ok);
    if let Some(e) = existing.as_ref().filter(|e| e.is_active())
        && !req.force
    {
        return Err(LoopError::Active {
            plan: e.plan.clone(),
            iteration: e.iteration,
            max: e.max_iterations,
        });
    }
    let plan = find_plan(&ws, cwd, req.plan)?.at.plan;
    let rel = ws.rel(plan.doc.path()).display().to_string();
    let mut state = new_loop(&Renderer::new(Some(&ws.planning)), plan, &rel, &req.options)?;
    if state.checks.is_empty() {
        return Err(LoopError::NoChecks { plan: state.plan });
    }
    // What the loop's end restores: STATE's status now, unless it is the
    // line an active loop being replaced wrote (then that loop's own).
    let now_text = ws.state.as_ref().and_then(|st| field_text(st, "status"));
    state.status_before = match existing.filter(|e| e.is_active()) {
        Some(e) if e.status_before.is_some() => e.status_before,
        _ => now_text,
    };
    state.save(&root).map_err(|e| LoopError::Write {
        path: ".gsd/ralph/loop.json".into(),
        message: e.to_string(),
    })?;
    let hooks = match super::hook_command::enabled_plugin(&root, req.home.as_deref()) {
        Some((id, file)) => HooksFrom::Plugin { id, file },
        None => {
            settings::install(&root, &req.settings, &req.gsd_bin, false).map_err(|e| {
                LoopError::Write {
                    path: req.settings.display().to_string(),
                    message: e.to_string(),
                }
            })?;
            HooksFrom::Settings(req.settings)
        }
    };
    drop(loop_lock);
    let state_md = if ws.state.is_none() {
        StateNote::Untouched
    } else {
        let status = format!("Ralph loop running on {}", state.plan);
        let message = format!("docs(state): Ralph loop started on {}", state.plan);
        match ops::run_chosen(&root, WriteOptions::recording(), Scope::Index, |ws| {
            ops::state::set(ws, "status", &status, Some(message))
        }) {
            Ok(o) => StateNote::Recorded(o),
            Err(e) => StateNote::NotUpdated(e.to_string()),
        }
    };
    Ok(Started {
        root,
        hooks,
        state,
        state_md,
    })
}

/// A stopped loop.
#[derive(Debug)]
pub struct Stopped {
    pub state: LoopState,
    pub state_md: StateNote,
}

/// `gsd ralph stop`: the loop ends (the next stop is allowed) and STATE.md
/// gets its history, through the one write path.
pub fn stop(cwd: &Path) -> Result<Stopped, LoopError> {
    let root = find_root(cwd)?;
    let loop_lock = lock(&root, crate::store::lock::default_timeout())?;
    let mut st = match LoopState::load(&root) {
        None => return Err(LoopError::NoActiveLoop),
        Some(Err(e)) => return Err(LoopError::BadState(e.to_string())),
        Some(Ok(s)) if !s.is_active() => return Err(LoopError::NoActiveLoop),
        Some(Ok(s)) => s,
    };
    st.status = Status::Stopped;
    st.heartbeat_at = now();
    st.save(&root).map_err(|e| LoopError::Write {
        path: ".gsd/ralph/loop.json".into(),
        message: e.to_string(),
    })?;
    drop(loop_lock);
    let line = format!(
        "Ralph loop stopped on {} at iteration {}",
        st.plan, st.iteration
    );
    let state_md = match ops::run_chosen(&root, WriteOptions::recording(), Scope::Index, |ws| {
        super::history::change(ws, &st, &line)
    }) {
        Ok(o) if matches!(&o.applied, Applied::Stored { outcome, .. } if outcome.changed.is_empty()) => {
            StateNote::Untouched
        }
        Ok(o) => StateNote::Recorded(o),
        Err(e) => StateNote::NotUpdated(e.to_string()),
    };
    Ok(Stopped {
        state: st,
        state_md,
    })
}
