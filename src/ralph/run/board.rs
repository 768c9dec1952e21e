//! The state a phase-run dashboard shows, folded from the run's events:
//! each plan's wave, status, iteration, the tool its agent is using, checks
//! passed, elapsed time and cost. Pure, so the view is a function of the
//! events alone (snapshot-tested), whatever draws it.

use std::path::PathBuf;

use serde_json::Value;

use super::events::{EventKind, RunEvent};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanStatus {
    Waiting,
    Running,
    /// Waiting out a usage limit.
    Limited,
    Complete,
    Failed,
    Skipped,
    Done,
}

impl PlanStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PlanStatus::Waiting => "waiting",
            PlanStatus::Running => "running",
            PlanStatus::Limited => "usage limit",
            PlanStatus::Complete => "complete",
            PlanStatus::Failed => "failed",
            PlanStatus::Skipped => "skipped",
            PlanStatus::Done => "done",
        }
    }
}

#[derive(Debug, Clone)]
pub struct PlanRow {
    pub plan: String,
    pub wave: u32,
    pub status: PlanStatus,
    pub iteration: u64,
    pub max_iterations: u64,
    /// The agent's latest tool (`Bash: cargo test`, `Write: src/x.rs`).
    pub tool: Option<String>,
    pub checks_passed: usize,
    pub checks_total: usize,
    pub cost_usd: f64,
    /// Milliseconds between the plan's first and latest event.
    pub elapsed_ms: i64,
    first_ms: Option<i64>,
    /// The loop's log folder (from its loop id), to show its log.
    pub loop_id: Option<String>,
    /// Why it failed or was skipped.
    pub note: Option<String>,
}

impl PlanRow {
    fn new(plan: &str, wave: u32) -> PlanRow {
        PlanRow {
            plan: plan.to_owned(),
            wave,
            status: PlanStatus::Waiting,
            iteration: 0,
            max_iterations: 0,
            tool: None,
            checks_passed: 0,
            checks_total: 0,
            cost_usd: 0.0,
            elapsed_ms: 0,
            first_ms: None,
            loop_id: None,
            note: None,
        }
    }
}

/// Everything the dashboard shows.
#[derive(Debug, Clone, Default)]
pub struct Board {
    pub title: String,
    pub plans: Vec<PlanRow>,
    /// The phase run's end line, once it ended.
    pub finished: Option<String>,
}

fn ms(v: &Value) -> Option<i64> {
    v["ts"]
        .as_str()?
        .parse::<jiff::Timestamp>()
        .ok()
        .map(|t| t.as_millisecond())
}

impl Board {
    /// A board listing the plans to run, in order, before any event.
    pub fn new(title: &str, plans: &[(String, u32)]) -> Board {
        Board {
            title: title.to_owned(),
            plans: plans.iter().map(|(p, w)| PlanRow::new(p, *w)).collect(),
            finished: None,
        }
    }

    fn row(&mut self, plan: &str) -> &mut PlanRow {
        if let Some(i) = self.plans.iter().position(|r| r.plan == plan) {
            return &mut self.plans[i];
        }
        self.plans.push(PlanRow::new(plan, 0));
        self.plans.last_mut().expect("just pushed")
    }

    /// Fold one event (tagged with its plan) into the board.
    pub fn apply(&mut self, e: &RunEvent) {
        let v = &e.fields;
        if e.kind == EventKind::PhaseDone {
            self.finished = Some(format!(
                "{} complete, {} already done, {} failed, {} skipped, {} not run",
                v["complete"], v["done"], v["failed"], v["skipped"], v["not_run"]
            ));
            return;
        }
        let Some(plan) = v["plan"].as_str() else {
            return;
        };
        let at = ms(v);
        let r = self.row(plan);
        if let Some(t) = at {
            let first = *r.first_ms.get_or_insert(t);
            r.elapsed_ms = t - first;
        }
        match e.kind {
            EventKind::Started => {
                r.status = PlanStatus::Running;
                r.max_iterations = v["max_iterations"].as_u64().unwrap_or(0);
                r.checks_total = v["checks"].as_u64().unwrap_or(0) as usize;
                r.loop_id = v["loop_id"].as_str().map(str::to_owned);
            }
            EventKind::Iteration => {
                r.status = PlanStatus::Running;
                r.iteration = v["n"].as_u64().unwrap_or(r.iteration);
                r.tool = None;
            }
            EventKind::Tool => {
                let name = v["name"].as_str().unwrap_or("");
                let what = v["command"].as_str().or(v["path"].as_str()).unwrap_or("");
                r.tool = Some(if what.is_empty() {
                    name.to_owned()
                } else {
                    format!("{name}: {what}")
                });
            }
            EventKind::UsageLimit => {
                r.status = PlanStatus::Limited;
                r.tool = Some(format!(
                    "waiting until {}",
                    v["resets_at"].as_str().unwrap_or("?")
                ));
            }
            EventKind::IterationDone => {
                r.cost_usd += v["cost_usd"].as_f64().unwrap_or(0.0);
            }
            EventKind::Verification => {
                let checks = v["checks"].as_array().map_or(&[][..], |a| a.as_slice());
                r.checks_total = checks.len();
                r.checks_passed = checks.iter().filter(|c| c["passed"] == true).count();
            }
            EventKind::Complete => {
                r.status = PlanStatus::Complete;
                r.checks_passed = r.checks_total;
                r.tool = None;
            }
            EventKind::Stuck => {
                r.status = PlanStatus::Failed;
                r.note = Some("stuck".into());
            }
            EventKind::Failed => {
                r.status = PlanStatus::Failed;
                r.note = v["reason"].as_str().map(str::to_owned);
            }
            EventKind::PlanSkipped => {
                let reason = v["reason"].as_str().unwrap_or("");
                r.status = if reason.contains("summary") {
                    PlanStatus::Done
                } else {
                    PlanStatus::Skipped
                };
                r.note = Some(reason.to_owned());
            }
            EventKind::PlanDone if v["result"] == "failed" => {
                r.status = PlanStatus::Failed;
                r.note = v["reason"].as_str().map(str::to_owned);
            }
            _ => {}
        }
    }

    /// The log folder of plan `i` under the project.
    pub fn log_dir(&self, root: &std::path::Path, i: usize) -> Option<PathBuf> {
        let id = self.plans.get(i)?.loop_id.as_ref()?;
        Some(root.join(".gsd/ralph/logs").join(id))
    }
}
