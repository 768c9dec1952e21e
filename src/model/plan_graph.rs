//! A phase's plans as a dependency graph, by wave: what `gsd graph` prints
//! and the HTML export draws.
//!
//! A plan's wave is its frontmatter `wave` when it gives one (GSD's planner
//! writes it and executors follow it), else one more than the latest wave it
//! depends on, so a tree without waves still lays out in execution order.

use serde::Serialize;

use super::workspace::Phase;
use super::{PhaseId, Workspace};

/// One plan in a phase graph.
#[derive(Debug, Clone, Serialize)]
pub struct PlanNode {
    /// The plan's ID as `gsd plan list` shows it (`05-07`).
    pub id: String,
    pub file: String,
    pub wave: u32,
    /// Whether the wave came from the frontmatter (else it was computed).
    pub wave_declared: bool,
    pub objective: Option<String>,
    pub tasks: usize,
    /// A summary exists.
    pub done: bool,
    /// Indices (in this graph) of the plans it depends on.
    pub depends_on: Vec<usize>,
    /// Dependencies on plans of other phases, by their ID.
    pub external: Vec<String>,
    /// `depends_on` entries that name no plan.
    pub unresolved: Vec<String>,
}

/// One phase's plans and their edges.
#[derive(Debug, Clone, Serialize)]
pub struct PhaseGraph {
    /// The phase folder (`05-auth`).
    pub phase: String,
    /// As the roadmap writes it (`5`), when the folder is numbered.
    pub number: Option<String>,
    pub plans: Vec<PlanNode>,
}

impl PhaseGraph {
    /// Waves in order, each with its plans' indices.
    pub fn waves(&self) -> Vec<(u32, Vec<usize>)> {
        let mut waves: Vec<(u32, Vec<usize>)> = Vec::new();
        let mut order: Vec<usize> = (0..self.plans.len()).collect();
        order.sort_by_key(|&i| (self.plans[i].wave, i));
        for i in order {
            let w = self.plans[i].wave;
            match waves.last_mut() {
                Some((lw, v)) if *lw == w => v.push(i),
                _ => waves.push((w, vec![i])),
            }
        }
        waves
    }

    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.plans
            .iter()
            .enumerate()
            .flat_map(|(to, p)| p.depends_on.iter().map(move |&from| (from, to)))
    }
}

/// The graph of one phase's plans (the workspace must be loaded in full).
pub fn phase_graph(ws: &Workspace, phase: &Phase) -> PhaseGraph {
    let mut plans: Vec<PlanNode> = phase
        .plans
        .iter()
        .map(|plan| {
            let mut node = PlanNode {
                id: plan.display_id(),
                file: plan.doc.file_name().to_owned(),
                wave: 0,
                wave_declared: false,
                objective: plan.objective(),
                tasks: plan.tasks.len(),
                done: phase.plan_has_summary(plan),
                depends_on: Vec::new(),
                external: Vec::new(),
                unresolved: Vec::new(),
            };
            if let Some(w) = plan
                .fm
                .wave
                .filter(|w| (1..=i64::from(u16::MAX)).contains(w))
            {
                node.wave = w as u32;
                node.wave_declared = true;
            }
            for entry in &plan.fm.depends_on {
                match super::deps::resolve(ws, phase, entry) {
                    Some(dep) => match phase.plans.iter().position(|p| std::ptr::eq(p, dep)) {
                        Some(i) if !std::ptr::eq(dep, plan) => node.depends_on.push(i),
                        Some(_) => {}
                        None => node.external.push(dep.display_id()),
                    },
                    None => node.unresolved.push(entry.trim().to_owned()),
                }
            }
            node.depends_on.sort_unstable();
            node.depends_on.dedup();
            node
        })
        .collect();
    compute_waves(&mut plans);
    PhaseGraph {
        phase: phase.dir_name.clone(),
        number: phase.id.as_ref().map(PhaseId::unpadded),
        plans,
    }
}

/// Undeclared waves: one after the latest dependency's, by relaxation (at
/// most one pass per plan, so a dependency cycle cannot loop forever).
fn compute_waves(plans: &mut [PlanNode]) {
    for p in plans.iter_mut().filter(|p| !p.wave_declared) {
        p.wave = 1;
    }
    for _ in 0..plans.len() {
        let mut changed = false;
        for i in 0..plans.len() {
            if plans[i].wave_declared {
                continue;
            }
            let want = plans[i]
                .depends_on
                .iter()
                .map(|&d| plans[d].wave + 1)
                .max()
                .unwrap_or(1);
            if want > plans[i].wave {
                plans[i].wave = want;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}
