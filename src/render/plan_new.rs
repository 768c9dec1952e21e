//! `gsd plan new PHASE`: a complete plan skeleton — the next free number,
//! the wave from the `depends_on` graph, context and research references,
//! and one task per requirement mapped to the phase. Text the planner must
//! still write carries `TODO(gsd):`.

use serde::Serialize;

use crate::model::workspace::Phase;
use crate::model::{PhaseId, PlanId, Workspace};

use super::{RenderError, Renderer, SKELETON};

#[derive(Debug, Clone)]
pub struct PlanSpec {
    pub name: Option<String>,
    pub depends_on: Vec<String>,
    pub requirements: Option<Vec<String>>,
    pub autonomous: bool,
    pub tdd: bool,
}

/// Why a plan cannot be made.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PlanNewError {
    #[error("phase {0} does not exist")]
    NoPhase(String, Vec<String>),
    #[error("depends_on names {0}, which is not a plan of this phase")]
    UnknownDependency(String, Vec<String>),
    #[error(transparent)]
    Render(#[from] RenderError),
}

#[derive(Serialize)]
struct TaskCtx {
    name: String,
    action: String,
    done: String,
}

/// The plan's path (relative to the root), ID and text.
pub fn render(
    r: &Renderer,
    ws: &Workspace,
    phase: &str,
    spec: &PlanSpec,
) -> Result<(String, String, String), PlanNewError> {
    let known = || {
        ws.current_phases()
            .filter_map(|p| p.id.as_ref().map(PhaseId::unpadded))
            .collect::<Vec<_>>()
    };
    let id =
        PhaseId::parse(phase).ok_or_else(|| PlanNewError::NoPhase(phase.to_owned(), known()))?;
    let ph: &Phase = ws
        .current_phases()
        .find(|p| p.id.as_ref().is_some_and(|i| i.same(&id)))
        .ok_or_else(|| PlanNewError::NoPhase(phase.to_owned(), known()))?;
    let pid = ph.id.clone().expect("found by ID");
    let numbers: Vec<u64> = ph
        .plan_files
        .iter()
        .filter_map(|f| PlanId::parse(f))
        .map(|p| p.number())
        .collect();
    let next = numbers.iter().max().copied().unwrap_or(0) + 1;
    let plan = format!("{next:02}");
    // Wave: one after the latest wave among the dependencies.
    let mut wave = 1;
    let mut deps = Vec::new();
    for d in &spec.depends_on {
        let want = PlanId::parse(d).or_else(|| {
            d.parse::<u64>()
                .ok()
                .and_then(|n| PlanId::parse(&format!("{}-{n:02}", pid.normalized())))
        });
        let found = want.as_ref().and_then(|w| {
            ph.plans
                .iter()
                .find(|p| p.id.as_ref().is_some_and(|i| i.same(w)))
        });
        let Some(dep) = found else {
            let plans = ph
                .plans
                .iter()
                .filter_map(|p| p.id.as_ref().map(PlanId::canonical))
                .collect();
            return Err(PlanNewError::UnknownDependency(d.clone(), plans));
        };
        wave = wave.max(wave_of(ph, dep, 0) + 1);
        deps.push(dep.id.as_ref().map(PlanId::canonical).unwrap_or_default());
    }
    let detail = ws.roadmap.as_ref().and_then(|rm| rm.phase(&pid));
    let requirements = spec
        .requirements
        .clone()
        .unwrap_or_else(|| detail.map(|d| d.requirements.clone()).unwrap_or_default());
    let texts = ws.requirements.as_ref();
    let tasks: Vec<TaskCtx> = if requirements.is_empty() {
        vec![TaskCtx {
            name: format!("{SKELETON} first task"),
            action: "what to build, and how".into(),
            done: format!("{SKELETON} what is true when it is done"),
        }]
    } else {
        requirements
            .iter()
            .map(|r| {
                let text = texts
                    .and_then(|t| t.get(r))
                    .map(|q| q.text.clone())
                    .unwrap_or_default();
                TaskCtx {
                    name: if text.is_empty() {
                        r.clone()
                    } else {
                        format!("{r} {text}")
                    },
                    action: format!("implement {r}"),
                    done: if text.is_empty() {
                        format!("{r} is met")
                    } else {
                        format!("{r}: {text}")
                    },
                }
            })
            .collect()
    };
    // The phase folder where it is (a workstream's phases live under it).
    let dir = ph.dir.to_string_lossy().trim_end_matches('/').to_owned();
    let mut context: Vec<String> = ph
        .other_files
        .iter()
        .filter(|f| f.ends_with("CONTEXT.md") || f.ends_with("RESEARCH.md"))
        .map(|f| format!("{dir}/{f}"))
        .collect();
    context.sort();
    let refs: Vec<_> = super::research::collect(ws)
        .into_iter()
        .filter(|r| {
            r.phases
                .iter()
                .any(|p| PhaseId::parse(p).is_some_and(|i| i.same(&pid)))
        })
        .collect();
    let name = spec
        .name
        .clone()
        .or_else(|| detail.and_then(|d| d.goal.clone()).filter(|g| g != "TBD"))
        .unwrap_or_else(|| format!("{SKELETON} what this plan delivers"));
    // The core files the plan's context names: the workstream's own, and
    // the shared PROJECT.md (templates ejected before these existed fall
    // back to `.planning/…`).
    let rel = |p: std::path::PathBuf| ws.rel(&p).display().to_string();
    let project_file = match &ws.project {
        Some(p) => p.doc.rel_path.display().to_string(),
        None => ".planning/PROJECT.md".to_owned(),
    };
    let ctx = serde_json::json!({
        "phase": { "dir": ph.dir_name, "path": dir, "padded": pid.normalized(), "number": pid.unpadded() },
        "files": {
            "project": project_file,
            "roadmap": rel(ws.planning.join("ROADMAP.md")),
            "state": rel(ws.planning.join("STATE.md")),
        },
        "plan": plan, "type": if spec.tdd { "tdd" } else { "execute" }, "wave": wave, "depends_on": deps,
        "autonomous": spec.autonomous, "requirements": requirements, "name": name, "context": context,
        "references": refs, "tasks": tasks, "skeleton": SKELETON,
    });
    let text = r.render("PLAN.md.j2", ctx)?;
    let id = format!("{}-{plan}", pid.normalized());
    Ok((format!("{dir}/{id}-PLAN.md"), id, text))
}

/// A plan's wave: its own `wave`, else one after its dependencies.
fn wave_of(ph: &Phase, plan: &crate::model::Plan, depth: usize) -> i64 {
    if let Some(w) = plan.fm.wave {
        return w;
    }
    if depth > 64 {
        return 1;
    }
    let mut w = 1;
    for d in &plan.fm.depends_on {
        if let Some(dep) = PlanId::parse(d).and_then(|want| {
            ph.plans
                .iter()
                .find(|p| p.id.as_ref().is_some_and(|i| i.same(&want)))
        }) {
            w = w.max(wave_of(ph, dep, depth + 1) + 1);
        }
    }
    w
}
