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
use super::{EXIT_COMPLETE, EXIT_INTERRUPTED, RunInput, RunOptions, prepare, worktree};

/// Which plans to run.
#[derive(Debug, Clone)]
pub enum Selection {
    /// Every plan of a phase (`5`, `05`, a folder name).
    Phase(String),
    /// These plans, in wave order.
    Plans(Vec<String>),
    /// Every phase of the current milestone (as `gsd roadmap` reads it),
    /// in roadmap order, each by waves.
    Milestone,
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
    /// How a plan run in its own worktree came back (`fast-forward`,
    /// `merge-commit`, `up-to-date`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged: Option<&'static str>,
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
    /// At most this many plans of one wave at once, each in its own
    /// worktree (1: one after another, in place).
    pub parallel: usize,
    /// The command that runs this selection again, for messages that say
    /// how to go on (`gsd ralph run --phase 13 --parallel 2`).
    pub rerun: String,
}

/// One plan to run: its file, ID, wave and the files of the selected plans
/// it waits for.
struct Item {
    path: PathBuf,
    id: String,
    wave: u32,
    deps: Vec<PathBuf>,
    /// `files_modified`: plans of one wave that share none may run at once.
    files: Vec<String>,
    /// (phase rank, wave): items of one group may run side by side.
    group: (usize, u32),
}

/// The selected plans in run order (phase order, then wave, then file).
fn select(ws: &Workspace, cwd: &Path, sel: &Selection) -> Result<Vec<Item>, PhaseError> {
    let phases: Vec<&crate::model::workspace::Phase> = match sel {
        Selection::Phase(q) => vec![find_phase(ws, q)?],
        Selection::Milestone => {
            let reading = crate::model::reading::RoadmapReading::new(ws);
            reading
                .phases
                .iter()
                .filter(|p| p.active && !p.backlog)
                .filter_map(|p| p.dir.as_deref())
                .filter_map(|d| ws.phases.iter().find(|ph| ph.dir == d))
                .collect()
        }
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
        Selection::Phase(_) | Selection::Milestone => None,
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
                    files: plan.fm.files_modified.clone(),
                    group: (rank, node.wave),
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
            Selection::Milestone => "the current milestone".into(),
        };
        return Err(PhaseError::Empty(what));
    }
    Ok(selected)
}

/// The plans a phase run would take, in order, with their waves (for a
/// dashboard to list them before they start).
pub fn planned(cwd: &Path, sel: &Selection) -> Result<Vec<(String, u32)>, PhaseError> {
    let ws = Workspace::discover(cwd)?;
    Ok(select(&ws, cwd, sel)?
        .into_iter()
        .map(|it| (it.id, it.wave))
        .collect())
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
    let opts = WriteOptions::recording();
    let date = crate::edit::state::today();
    let summary = ops::run_chosen(root, opts, Scope::Full, |ws| {
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
    if let Err(e) = ops::run_chosen(root, opts, Scope::Full, |ws| {
        ops::state::fields(ws, "advance", crate::edit::state::advance)
    }) {
        out.warnings.push(format!("STATE.md not advanced: {e}"));
    }
    if let Err(e) = ops::run_chosen(root, opts, Scope::Full, ops::roadmap::update_progress) {
        out.warnings
            .push(format!("roadmap progress not updated: {e}"));
    }
    // The phase's last plan: its checklist entry is ticked like `gsd phase
    // complete` ticks it; then STATE.md's progress is what the disk says.
    if let Err(e) = ops::run_chosen(root, opts, Scope::Full, |ws| {
        let id = find(ws, path)
            .and_then(|(ph, _)| ph.id.clone())
            .ok_or_else(|| ops::OpError::invalid(format!("{} is gone", path.display()), None))?;
        ops::phase::tick_if_done(ws, &id)
    }) {
        out.warnings
            .push(format!("roadmap checklist not ticked: {e}"));
    }
    if let Err(e) = ops::run_chosen(root, opts, Scope::Full, |ws| {
        ops::state::fields(ws, "sync", crate::edit::state::sync)
    }) {
        out.warnings
            .push(format!("STATE.md progress not synced: {e}"));
    }
}

/// A fresh outcome for `item`.
fn outcome(item: &Item) -> PlanOutcome {
    PlanOutcome {
        plan: item.id.clone(),
        wave: item.wave,
        result: "not_run",
        exit_code: None,
        reason: None,
        summary: None,
        warnings: Vec::new(),
        merged: None,
    }
}

/// Whether `item` runs: not when its file is gone, it has a summary, or a
/// plan it depends on did not complete (then the outcome says why).
fn gate(
    ws: &Workspace,
    items: &[Item],
    outcomes: &[Option<PlanOutcome>],
    item: &Item,
) -> Option<PlanOutcome> {
    let mut out = outcome(item);
    let Some((phase, plan)) = find(ws, &item.path) else {
        out.result = "skipped";
        out.reason = Some("its plan file is gone".into());
        return Some(out);
    };
    if phase.plan_has_summary(plan) {
        out.result = "done";
        out.reason = Some("it has a summary already".into());
        return Some(out);
    }
    let blocked = item.deps.iter().find_map(|d| {
        let at = items.iter().position(|it| &it.path == d)?;
        let o = outcomes[at].as_ref()?;
        (!matches!(o.result, "complete" | "done")).then(|| (o.plan.clone(), o.result))
    });
    let (dep, how) = blocked?;
    out.result = "skipped";
    out.reason = Some(format!(
        "it depends on {dep}, which {}",
        if how == "failed" {
            "failed"
        } else {
            "did not run"
        }
    ));
    Some(out)
}

/// Plans of one wave in batches that may run at once: at most `n` each,
/// no two sharing a file in `files_modified` (first fit, in order).
fn batches(ready: &[usize], items: &[Item], n: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for &i in ready {
        let fits = |b: &Vec<usize>| {
            b.len() < n.max(1)
                && b.iter()
                    .all(|&j| !items[j].files.iter().any(|f| items[i].files.contains(f)))
        };
        match out.iter_mut().find(|b| fits(b)) {
            Some(b) => b.push(i),
            None => out.push(vec![i]),
        }
    }
    out
}

/// A sink that tags each event with its plan, keeps it, and forwards it.
fn plan_sink(tag: &str, seen: Rc<RefCell<Vec<RunEvent>>>, forward: Rc<Sink>) -> Sink {
    let tag = tag.to_owned();
    Box::new(move |e: &RunEvent| {
        let e = tagged(e, &tag);
        seen.borrow_mut().push(e.clone());
        forward(&e);
    })
}

fn tagged(e: &RunEvent, plan: &str) -> RunEvent {
    let mut e = e.clone();
    if let Some(o) = e.fields.as_object_mut() {
        o.insert("plan".into(), json!(plan));
    }
    e
}

/// The outcome of a finished run: complete (then recorded in `root`) or
/// failed with the reason its last event gave.
fn finish(root: &Path, item: &Item, code: i32, events: &[RunEvent], out: &mut PlanOutcome) {
    out.exit_code = Some(code);
    if code == EXIT_COMPLETE {
        out.result = "complete";
        let mut observed = Observed::from_events(events);
        observed.files = files_of(root, &observed);
        record(root, &item.path, &observed, out);
    } else {
        out.result = "failed";
        out.reason = events.iter().rev().find_map(|e| match e.kind {
            EventKind::Stuck => Some("stuck".to_owned()),
            EventKind::Failed => e.fields["reason"].as_str().map(str::to_owned),
            _ => None,
        });
    }
}

/// The loop state of `root` when it is a `gsd ralph run` of `plan` paused
/// by Ctrl+C, or left active by a gsd that was killed (to resume it).
fn paused_run(root: &Path, plan: &Path) -> Option<crate::ralph::state::LoopState> {
    crate::ralph::state::LoopState::load(root)
        .and_then(Result::ok)
        .filter(|s| {
            s.runner
                && (s.status == crate::ralph::state::Status::Paused || s.runner_gone())
                && root.join(&s.plan_path) == plan
        })
}

/// Run one plan in the project itself.
fn run_in_place(
    req: &PhaseRequest<'_>,
    root: &Path,
    item: &Item,
    shared: &Rc<Sink>,
) -> Result<PlanOutcome, PhaseError> {
    let ws = Workspace::discover(req.cwd)?;
    let (_, plan) = find(&ws, &item.path).expect("gated: the plan exists");
    // A run of this plan paused by Ctrl+C goes on where it stopped.
    let paused = paused_run(root, &item.path);
    let resumed = paused.is_some();
    let (state, problems) = match paused {
        Some(s) => (s, prepare::lint_errors(&ws, ws.rel(&item.path))),
        None => prepare::prepare(&ws, plan, &req.start, req.stuck_threshold)?,
    };
    let seen: Rc<RefCell<Vec<RunEvent>>> = Rc::default();
    let sink = plan_sink(&item.id, seen.clone(), shared.clone());
    let code = super::run(
        RunInput {
            root,
            plan,
            state,
            resumed,
            problems,
        },
        req.opts,
        sink,
    );
    drop(ws);
    let mut out = outcome(item);
    finish(root, item, code, &seen.borrow(), &mut out);
    Ok(out)
}

/// The events of the run that finished plan `id` in its worktree `wt`
/// (whose loop state says it completed), from the run's log in `root`.
fn finished_run(root: &Path, wt: &worktree::Worktree) -> Option<Vec<RunEvent>> {
    let st = crate::ralph::state::LoopState::load(&wt.path)?.ok()?;
    if !(st.runner && st.status == crate::ralph::state::Status::Complete) {
        return None;
    }
    let log = root
        .join(".gsd/ralph/logs")
        .join(&st.loop_id)
        .join("events.jsonl");
    Some(super::events::read_log(&log))
}

/// Merge a completed plan's branch back, record it and remove its
/// worktree; a conflict keeps the branch and the worktree and says how to
/// go on.
fn merge_back(
    req: &PhaseRequest<'_>,
    root: &Path,
    item: &Item,
    wt: &worktree::Worktree,
    events: &[RunEvent],
    out: &mut PlanOutcome,
) {
    match worktree::merge(
        root,
        wt,
        &format!("Merge plan {} (gsd ralph run --parallel)", item.id),
    ) {
        Ok(how) => {
            out.merged = Some(match how {
                worktree::Merged::UpToDate => "up-to-date",
                worktree::Merged::FastForward => "fast-forward",
                worktree::Merged::Commit => "merge-commit",
            });
            if let Err(e) = worktree::remove(root, wt) {
                out.warnings.push(format!("worktree not removed: {e}"));
            }
            finish(root, item, EXIT_COMPLETE, events, out);
        }
        Err(e) => {
            out.exit_code = Some(MERGE_CONFLICT);
            out.result = "failed";
            let wt_rel = wt.path.strip_prefix(root).unwrap_or(&wt.path);
            out.reason = Some(match &e {
                worktree::WorktreeError::Conflict { files, .. } => format!(
                    "its checks passed, but merging it conflicts in {}; the work is kept on branch {} (worktree {}). To go on: `git merge {}`, resolve and commit; then `{}` records the plan without running it again",
                    files.join(", "),
                    wt.branch,
                    wt_rel.display(),
                    wt.branch,
                    req.rerun
                ),
                other => format!(
                    "its checks passed, but the merge failed: {other}; the work is kept on branch {} (worktree {}); `{}` tries the merge again",
                    wt.branch,
                    wt_rel.display(),
                    req.rerun
                ),
            });
        }
    }
}

/// Run a batch side by side, each plan in its own worktree, then merge each
/// completed plan back (in the batch's order) and record it. A plan whose
/// worktree holds a completed run (its merge failed before) is merged, not
/// run again.
fn run_side_by_side(
    req: &PhaseRequest<'_>,
    root: &Path,
    batch: &[&Item],
    shared: &Rc<Sink>,
) -> Vec<PlanOutcome> {
    let mut outs: Vec<PlanOutcome> = batch.iter().map(|it| outcome(it)).collect();
    // The merges land in this work tree: it must hold nothing a merge could
    // overwrite or sweep in (the check a sequential run makes per plan).
    if !req.opts.allow_dirty
        && let Some(problem) = super::preflight::dirty(root)
    {
        for o in &mut outs {
            o.result = "failed";
            o.exit_code = Some(super::EXIT_FATAL);
            o.reason = Some(format!("pre-flight: {problem}"));
        }
        return outs;
    }
    let mut trees: Vec<Option<worktree::Worktree>> = Vec::new();
    let mut done: Vec<Option<Vec<RunEvent>>> = Vec::new();
    for (k, item) in batch.iter().enumerate() {
        let finished = worktree::existing(root, &item.id)
            .and_then(|w| finished_run(root, &w).map(|ev| (w, ev)));
        if let Some((w, ev)) = finished {
            trees.push(Some(w));
            done.push(Some(ev));
            continue;
        }
        done.push(None);
        match worktree::create(root, &item.id) {
            Ok(w) => trees.push(Some(w)),
            Err(e) => {
                outs[k].result = "failed";
                outs[k].exit_code = Some(super::EXIT_FATAL);
                outs[k].reason = Some(format!(
                    "no worktree for it: {e}; nothing was left behind, so `{}` tries again once that is fixed",
                    req.rerun
                ));
                trees.push(None);
            }
        }
    }
    let opts = RunOptions {
        record_history: false,
        log_root: Some(root.to_path_buf()),
        own_worktree: true,
        ..req.opts.clone()
    };
    let (tx, rx) = std::sync::mpsc::channel::<(usize, RunEvent)>();
    let mut seen: Vec<Vec<RunEvent>> = vec![Vec::new(); batch.len()];
    let codes: Vec<Option<i32>> = std::thread::scope(|s| {
        let handles: Vec<_> = batch
            .iter()
            .zip(&trees)
            .zip(&done)
            .enumerate()
            .map(|(k, ((item, wt), finished))| {
                let tx = tx.clone();
                let opts = &opts;
                let wt = wt
                    .as_ref()
                    .filter(|_| finished.is_none())
                    .map(|w| w.path.clone());
                let rel = item
                    .path
                    .strip_prefix(root)
                    .map(Path::to_path_buf)
                    .unwrap_or_default();
                s.spawn(move || -> Option<i32> {
                    let wt = wt?;
                    let ws = Workspace::discover(&wt).ok()?;
                    let (_, plan) = find(&ws, &wt.join(&rel))?;
                    let (state, problems, resumed) = match paused_run(&wt, &wt.join(&rel)) {
                        Some(st) => (st, prepare::lint_errors(&ws, &rel), true),
                        None => {
                            let (st, p) =
                                prepare::prepare(&ws, plan, &req.start, req.stuck_threshold)
                                    .ok()?;
                            (st, p, false)
                        }
                    };
                    let sink: Sink = Box::new(move |e: &RunEvent| {
                        let _ = tx.send((k, e.clone()));
                    });
                    Some(super::run(
                        RunInput {
                            root: &wt,
                            plan,
                            state,
                            resumed,
                            problems,
                        },
                        opts,
                        sink,
                    ))
                })
            })
            .collect();
        drop(tx);
        for (k, e) in rx {
            let e = tagged(&e, &batch[k].id);
            shared(&e);
            seen[k].push(e);
        }
        handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    });
    for (k, item) in batch.iter().enumerate() {
        let Some(wt) = &trees[k] else { continue };
        if let Some(events) = &done[k] {
            merge_back(req, root, item, wt, events, &mut outs[k]);
            continue;
        }
        let Some(code) = codes[k] else {
            outs[k].result = "failed";
            outs[k].reason = Some("the plan could not be prepared in its worktree".into());
            continue;
        };
        if code != EXIT_COMPLETE {
            finish(root, item, code, &seen[k], &mut outs[k]);
            outs[k]
                .warnings
                .push(format!("its worktree is kept at {}", wt.path.display()));
            continue;
        }
        merge_back(req, root, item, wt, &seen[k], &mut outs[k]);
    }
    outs
}

/// The exit code of a plan whose work could not be merged.
pub const MERGE_CONFLICT: i32 = 5;

/// Run the selected plans; returns the exit code and each plan's outcome.
/// Every event goes to `sink` with the plan it belongs to.
pub fn run_phase(req: PhaseRequest<'_>, sink: Sink) -> Result<(i32, Vec<PlanOutcome>), PhaseError> {
    // From here on a stop is gsd's to handle (and to pass to the agents).
    let _ = super::interrupt_flag();
    let ws = Workspace::discover(req.cwd)?;
    let root = ws.root.clone();
    let items = select(&ws, req.cwd, &req.selection)?;
    drop(ws);
    let shared: Rc<Sink> = Rc::new(sink);
    let phase_id = format!("phase-{}", uuid::Uuid::new_v4());
    let forward = shared.clone();
    let em = Emitter::new(&phase_id, None, Box::new(move |e: &RunEvent| forward(e)))
        .with_notify(req.opts.notify.clone());
    let mut outcomes: Vec<Option<PlanOutcome>> = vec![None; items.len()];
    let mut code = EXIT_COMPLETE;
    let mut interrupted = false;
    let mut start = 0;
    while start < items.len() {
        let end = start
            + items[start..]
                .iter()
                .take_while(|it| it.group == items[start].group)
                .count();
        let ws = Workspace::discover(req.cwd)?;
        let mut ready = Vec::new();
        for k in start..end {
            if interrupted {
                outcomes[k] = Some(outcome(&items[k]));
                continue;
            }
            match gate(&ws, &items, &outcomes, &items[k]) {
                Some(o) => {
                    em.emit(
                        EventKind::PlanSkipped,
                        json!({ "plan": o.plan, "reason": o.reason }),
                    );
                    outcomes[k] = Some(o);
                }
                None => ready.push(k),
            }
        }
        drop(ws);
        for batch in batches(&ready, &items, req.parallel.max(1)) {
            let outs = if interrupted {
                batch.iter().map(|&k| outcome(&items[k])).collect()
            } else if batch.len() == 1 && worktree::existing(&root, &items[batch[0]].id).is_none() {
                vec![run_in_place(&req, &root, &items[batch[0]], &shared)?]
            } else {
                let refs: Vec<&Item> = batch.iter().map(|&k| &items[k]).collect();
                run_side_by_side(&req, &root, &refs, &shared)
            };
            for (k, out) in batch.into_iter().zip(outs) {
                if out.result != "not_run" {
                    em.emit(
                        EventKind::PlanDone,
                        serde_json::to_value(&out).expect("json"),
                    );
                }
                if out.result == "failed" {
                    let c = out.exit_code.unwrap_or(super::EXIT_FATAL);
                    if code == EXIT_COMPLETE {
                        code = c;
                    }
                    interrupted |= c == EXIT_INTERRUPTED;
                }
                outcomes[k] = Some(out);
            }
            // A stop that came while a plan's final checks ran let that
            // plan finish; the phase stops here all the same.
            if !interrupted && super::interrupt_flag().load(std::sync::atomic::Ordering::SeqCst) {
                interrupted = true;
                if code == EXIT_COMPLETE {
                    code = EXIT_INTERRUPTED;
                }
            }
        }
        start = end;
    }
    let outcomes: Vec<PlanOutcome> = outcomes.into_iter().flatten().collect();
    let count = |r: &str| outcomes.iter().filter(|o| o.result == r).count();
    em.emit(
        EventKind::PhaseDone,
        json!({
            "plans": outcomes.len(), "complete": count("complete"), "done": count("done"),
            "failed": count("failed"), "skipped": count("skipped"), "not_run": count("not_run"),
            "exit_code": code, "outcomes": outcomes,
            "next": (interrupted && count("not_run") > 0).then(|| format!("`{}` goes on with the plans not run", req.rerun)),
        }),
    );
    Ok((code, outcomes))
}
