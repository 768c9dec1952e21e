//! `gsd ralph run --phase N` (or several plan IDs): the plans in wave order
//! from their `depends_on` graph, each one loop as `gsd ralph run PLAN`
//! runs it. A completed plan gets its SUMMARY.md written from what the run
//! observed, then STATE advances and the roadmap's progress is updated:
//! three writes through the one write path, one commit each. A plan that
//! fails stops the plans that depend on it; the phase ends saying which
//! ran, which passed and which were skipped.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde::Serialize;
use serde_json::json;

use crate::model::plan_graph::phase_graph;
use crate::model::plan_ref::{PhaseLookupError, PlanLookupError, find_phase, find_plan};
use crate::model::workspace::{Scope, WorkspaceError};
use crate::model::{Plan, Workspace};
use crate::ops::{self, WriteOptions};
use crate::ralph::start::StartOptions;
use crate::render::RenderError;

use super::events::{Emitter, EventKind, RunEvent, Sink};
use super::observed::{Observed, files_changed};
use super::{EXIT_COMPLETE, EXIT_INTERRUPTED, RunInput, RunOptions, prepare};

/// Which plans to run.
#[derive(Debug, Clone)]
pub enum Selection {
    /// Every plan of a phase (`5`, `05`, a folder name).
    Phase(String),
    /// These plans, in wave order.
    Plans(Vec<String>),
}

/// How one plan of the phase ended.
#[derive(Debug, Clone, Serialize)]
pub struct PlanOutcome {
    pub plan: String,
    pub wave: u32,
    /// `complete`, `failed`, `skipped`, `done` (it had a summary already) or
    /// `not_run` (the phase was interrupted first).
    pub result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The summary written, relative to the project.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Records that could not be written (no STATE.md, say); the plan still
    /// completed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum PhaseError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Workspace(#[from] WorkspaceError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Phase(#[from] PhaseLookupError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Plan(#[from] PlanLookupError),
    #[error("no plans to run")]
    #[diagnostic(code(gsd::no_plans), help("plan the phase first: `gsd plan new {0}`"))]
    Empty(String),
    /// Shown with the template's line by the CLI.
    #[error(transparent)]
    Render(#[from] RenderError),
}

/// What the phase run needs besides its selection.
pub struct PhaseRequest<'a> {
    pub cwd: &'a Path,
    pub selection: Selection,
    pub start: StartOptions,
    pub stuck_threshold: u32,
    pub opts: &'a RunOptions,
}

/// One plan to run: its file, ID, wave and the files of the selected plans
/// it waits for.
struct Item {
    path: PathBuf,
    id: String,
    wave: u32,
    deps: Vec<PathBuf>,
}

/// The selected plans in run order (phase order, then wave, then file).
fn select(ws: &Workspace, cwd: &Path, sel: &Selection) -> Result<Vec<Item>, PhaseError> {
    let phases: Vec<&crate::model::workspace::Phase> = match sel {
        Selection::Phase(q) => vec![find_phase(ws, q)?],
        Selection::Plans(ids) => {
            let mut v: Vec<&crate::model::workspace::Phase> = Vec::new();
            for id in ids {
                if let Some(ph) = find_plan(ws, cwd, id)?.at.phase
                    && !v.iter().any(|p| std::ptr::eq(*p, ph))
                {
                    v.push(ph);
                }
            }
            v
        }
    };
    let wanted: Option<Vec<PathBuf>> = match sel {
        Selection::Phase(_) => None,
        Selection::Plans(ids) => Some(
            ids.iter()
                .map(|id| find_plan(ws, cwd, id).map(|f| f.at.plan.doc.path().to_path_buf()))
                .collect::<Result<_, _>>()?,
        ),
    };
    let mut items = Vec::new();
    let mut order: Vec<(usize, u32, usize)> = Vec::new();
    for ph in &phases {
        let g = phase_graph(ws, ph);
        let rank = ws
            .phases
            .iter()
            .position(|p| std::ptr::eq(p, *ph))
            .unwrap_or(0);
        for (i, (plan, node)) in ph.plans.iter().zip(&g.plans).enumerate() {
            let path = plan.doc.path().to_path_buf();
            if wanted.as_ref().is_some_and(|w| !w.contains(&path)) {
                continue;
            }
            order.push((rank, node.wave, items.len()));
            items.push((
                i,
                Item {
                    path,
                    id: node.id.clone(),
                    wave: node.wave,
                    deps: node
                        .depends_on
                        .iter()
                        .map(|&d| ph.plans[d].doc.path().to_path_buf())
                        .collect(),
                },
            ));
        }
    }
    order.sort_by_key(|&(rank, wave, at)| (rank, wave, items[at].0));
    let mut taken: Vec<Option<Item>> = items.into_iter().map(|(_, it)| Some(it)).collect();
    let selected: Vec<Item> = order
        .into_iter()
        .filter_map(|(_, _, at)| taken[at].take())
        .collect();
    if selected.is_empty() {
        let what = match sel {
            Selection::Phase(q) => q.clone(),
            Selection::Plans(ids) => ids.join(" "),
        };
        return Err(PhaseError::Empty(what));
    }
    Ok(selected)
}

fn find<'w>(
    ws: &'w Workspace,
    path: &Path,
) -> Option<(&'w crate::model::workspace::Phase, &'w Plan)> {
    ws.phases.iter().find_map(|ph| {
        ph.plans
            .iter()
            .find(|p| p.doc.path() == path)
            .map(|p| (ph, p))
    })
}

/// Files the agent's commits changed (the loop's own STATE.md history
/// commit is not among them).
fn files_of(root: &Path, observed: &Observed) -> Vec<String> {
    let Ok(repo) = git2::Repository::discover(root) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for c in &observed.commits {
        let parent = git2::Oid::from_str(&c.hash)
            .ok()
            .and_then(|o| repo.find_commit(o).ok())
            .and_then(|c| c.parent_id(0).ok())
            .map(|o| o.to_string());
        files.extend(files_changed(root, parent.as_deref(), Some(&c.hash)));
    }
    files.sort();
    files.dedup();
    files
}

/// Write what a completed plan leaves behind: summary, STATE, roadmap.
fn record(root: &Path, path: &Path, observed: &Observed, out: &mut PlanOutcome) {
    let opts = WriteOptions::default();
    let date = crate::edit::state::today();
    let summary = ops::run_at(root, opts, Scope::Full, |ws| {
        let (_, plan) = find(ws, path)
            .ok_or_else(|| ops::OpError::invalid(format!("{} is gone", path.display()), None))?;
        ops::summary::write(ws, plan, observed, &date)
    });
    match summary {
        Ok(_) => {
            let p = ops::summary::summary_path_of(path);
            out.summary = Some(p.strip_prefix(root).unwrap_or(&p).display().to_string());
        }
        Err(e) => out.warnings.push(format!("summary not written: {e}")),
    }
    if let Err(e) = ops::run_at(root, opts, Scope::Full, |ws| {
        ops::state::fields(ws, "advance", crate::edit::state::advance)
    }) {
        out.warnings.push(format!("STATE.md not advanced: {e}"));
    }
    if let Err(e) = ops::run_at(root, opts, Scope::Full, ops::roadmap::update_progress) {
        out.warnings
            .push(format!("roadmap progress not updated: {e}"));
    }
}

/// Run the selected plans; returns the exit code and each plan's outcome.
/// Every event goes to `sink` with the plan it belongs to.
pub fn run_phase(req: PhaseRequest<'_>, sink: Sink) -> Result<(i32, Vec<PlanOutcome>), PhaseError> {
    let ws = Workspace::discover(req.cwd)?;
    let root = ws.root.clone();
    let items = select(&ws, req.cwd, &req.selection)?;
    drop(ws);
    let shared: Rc<Sink> = Rc::new(sink);
    let phase_id = format!("phase-{}", uuid::Uuid::new_v4());
    let forward = shared.clone();
    let em = Emitter::new(&phase_id, None, Box::new(move |e: &RunEvent| forward(e)))
        .with_notify(req.opts.notify.clone());
    let mut outcomes: Vec<PlanOutcome> = Vec::new();
    let mut code = EXIT_COMPLETE;
    let mut interrupted = false;
    for item in &items {
        let mut out = PlanOutcome {
            plan: item.id.clone(),
            wave: item.wave,
            result: "not_run",
            exit_code: None,
            reason: None,
            summary: None,
            warnings: Vec::new(),
        };
        if interrupted {
            outcomes.push(out);
            continue;
        }
        let ws = Workspace::discover(req.cwd)?;
        let Some((phase, plan)) = find(&ws, &item.path) else {
            out.result = "skipped";
            out.reason = Some("its plan file is gone".into());
            em.emit(
                EventKind::PlanSkipped,
                json!({ "plan": item.id, "reason": out.reason }),
            );
            outcomes.push(out);
            continue;
        };
        if phase.plan_has_summary(plan) {
            out.result = "done";
            out.reason = Some("it has a summary already".into());
            em.emit(
                EventKind::PlanSkipped,
                json!({ "plan": item.id, "reason": out.reason }),
            );
            outcomes.push(out);
            continue;
        }
        let blocked = item.deps.iter().find_map(|d| {
            outcomes
                .iter()
                .zip(&items)
                .find(|(_, it)| &it.path == d)
                .filter(|(o, _)| !matches!(o.result, "complete" | "done"))
                .map(|(o, _)| (o.plan.clone(), o.result))
        });
        if let Some((dep, how)) = blocked {
            out.result = "skipped";
            out.reason = Some(format!(
                "it depends on {dep}, which {}",
                match how {
                    "failed" => "failed",
                    _ => "did not run",
                }
            ));
            em.emit(
                EventKind::PlanSkipped,
                json!({ "plan": item.id, "reason": out.reason }),
            );
            outcomes.push(out);
            continue;
        }
        let (state, problems) = prepare::prepare(&ws, plan, &req.start, req.stuck_threshold)?;
        let events: Rc<RefCell<Vec<RunEvent>>> = Rc::default();
        let (seen, forward, tag) = (events.clone(), shared.clone(), item.id.clone());
        let plan_sink: Sink = Box::new(move |e: &RunEvent| {
            let mut e = e.clone();
            if let Some(o) = e.fields.as_object_mut() {
                o.insert("plan".into(), json!(tag));
            }
            seen.borrow_mut().push(e.clone());
            forward(&e);
        });
        let c = super::run(
            RunInput {
                root: &root,
                plan,
                state,
                resumed: false,
                problems,
            },
            req.opts,
            plan_sink,
        );
        drop(ws);
        out.exit_code = Some(c);
        let evs = events.borrow();
        if c == EXIT_COMPLETE {
            out.result = "complete";
            let mut observed = Observed::from_events(&evs);
            observed.files = files_of(&root, &observed);
            record(&root, &item.path, &observed, &mut out);
        } else {
            out.result = "failed";
            out.reason = evs.iter().rev().find_map(|e| match e.kind {
                EventKind::Stuck => Some("stuck".to_owned()),
                EventKind::Failed => e.fields["reason"].as_str().map(str::to_owned),
                _ => None,
            });
            if code == EXIT_COMPLETE {
                code = c;
            }
            interrupted = c == EXIT_INTERRUPTED;
        }
        em.emit(
            EventKind::PlanDone,
            serde_json::to_value(&out).expect("json"),
        );
        outcomes.push(out);
    }
    let count = |r: &str| outcomes.iter().filter(|o| o.result == r).count();
    em.emit(
        EventKind::PhaseDone,
        json!({
            "plans": outcomes.len(), "complete": count("complete"), "done": count("done"),
            "failed": count("failed"), "skipped": count("skipped"), "not_run": count("not_run"),
            "exit_code": code, "outcomes": outcomes,
        }),
    );
    Ok((code, outcomes))
}
