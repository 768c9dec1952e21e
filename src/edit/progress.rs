//! Derived values, computed from the roadmap and the disk: plan and phase
//! counts, percent, the progress bar and the progress table's rows. Only
//! explicit commands (`state sync`, `roadmap update-progress`, `phase
//! complete`) write them; nothing recomputes them behind the user's back.

use crate::model::{PhaseId, Workspace};

/// Counts over the active roadmap phases (outside `<details>`, not 999.x).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Progress {
    pub total_phases: usize,
    pub completed_phases: usize,
    pub total_plans: usize,
    pub completed_plans: usize,
    pub percent: usize,
}

/// The phases progress is counted over, in order: the current
/// milestone's, as every read command counts them.
pub fn active_phases(ws: &Workspace) -> Vec<PhaseId> {
    let mut ids: Vec<PhaseId> = match &ws.roadmap {
        Some(_) => crate::model::reading::RoadmapReading::new(ws)
            .phases
            .into_iter()
            .filter(|p| p.active)
            .map(|p| p.phase_id)
            .collect(),
        None => ws.current_phases().filter_map(|p| p.id.clone()).collect(),
    };
    ids.retain(|i| !i.is_backlog());
    ids.sort();
    ids.dedup();
    ids
}

pub fn compute(ws: &Workspace) -> Progress {
    let ids = active_phases(ws);
    let (mut plans, mut done, mut phases_done) = (0, 0, 0);
    for id in &ids {
        if let Some(ph) = ws
            .current_phases()
            .find(|p| p.id.as_ref().is_some_and(|i| i.same(id)))
        {
            plans += ph.plan_count();
            done += ph.completed_plans();
            if ph.plan_count() > 0 && ph.completed_plans() >= ph.plan_count() {
                phases_done += 1;
            }
        }
    }
    let percent = (done * 100).checked_div(plans).unwrap_or(0);
    Progress {
        total_phases: ids.len(),
        completed_phases: phases_done,
        total_plans: plans,
        completed_plans: done,
        percent,
    }
}

/// `[███░░░░░░░] 30%` with 10 cells.
pub fn bar(percent: usize) -> String {
    let filled = (percent.min(100) + 5) / 10;
    format!(
        "[{}{}] {percent}%",
        "█".repeat(filled),
        "░".repeat(10 - filled)
    )
}

/// A phase's status word for the progress table.
pub fn status_word(done: usize, total: usize) -> &'static str {
    if total > 0 && done >= total {
        "Complete"
    } else if done > 0 {
        "In Progress"
    } else if total > 0 {
        "Planned"
    } else {
        "Not started"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars() {
        assert_eq!(bar(0), "[░░░░░░░░░░] 0%");
        assert_eq!(bar(66), "[███████░░░] 66%");
        assert_eq!(bar(100), "[██████████] 100%");
    }
}
