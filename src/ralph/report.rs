//! `gsd ralph report`: what the runs cost, per task, plan and phase, read
//! back from the event logs `gsd ralph run` writes
//! (`.gsd/ralph/logs/<loop>/events.jsonl`).
//!
//! The logs are the record: every iteration ends with one `iteration_done`
//! event carrying its duration, tokens and dollars, so every total here is
//! a sum of those events and nothing else. An iteration's cost goes to the
//! tasks that completed in it (split evenly), plus the iterations before it
//! that completed none; iterations after the last completed task stay with
//! the plan as "no task completed".

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::model::PlanId;

/// Iterations, time, tokens and dollars.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq)]
pub struct Cost {
    pub iterations: u64,
    pub duration_ms: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
}

impl Cost {
    fn add(&mut self, o: &Cost) {
        self.iterations += o.iterations;
        self.duration_ms += o.duration_ms;
        self.input_tokens += o.input_tokens;
        self.output_tokens += o.output_tokens;
        self.cost_usd += o.cost_usd;
    }

    /// This cost split `n` ways; the first share takes the remainders.
    fn share(&self, n: u64, first: bool) -> Cost {
        let part = |v: u64| v / n + if first { v % n } else { 0 };
        Cost {
            iterations: part(self.iterations),
            duration_ms: part(self.duration_ms),
            input_tokens: part(self.input_tokens),
            output_tokens: part(self.output_tokens),
            cost_usd: self.cost_usd / n as f64,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct TaskCost {
    pub index: u64,
    pub name: String,
    #[serde(flatten)]
    pub cost: Cost,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlanReport {
    pub plan: String,
    /// Loop runs of this plan (a resumed run is the same loop).
    pub loops: usize,
    /// How the last run ended (`complete`, `failed: budget`, …; `running` when
    /// its log has no end yet).
    pub outcome: String,
    pub tasks: Vec<TaskCost>,
    /// Iterations after the last completed task.
    pub no_task: Cost,
    #[serde(flatten)]
    pub cost: Cost,
}

#[derive(Debug, Clone, Serialize)]
pub struct PhaseReport {
    pub phase: String,
    pub plans: Vec<PlanReport>,
    #[serde(flatten)]
    pub cost: Cost,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub phases: Vec<PhaseReport>,
    pub total: Cost,
    /// Log lines that were not events (a run killed mid-line, say).
    pub unreadable_lines: usize,
}

/// One loop's events, in order.
struct LoopLog {
    events: Vec<Value>,
    /// The file's modification time, to order the runs of one plan.
    modified: std::time::SystemTime,
}

fn num(v: &Value, k: &str) -> u64 {
    v.get(k).and_then(Value::as_u64).unwrap_or(0)
}

/// Read every loop's log under `root`.
fn read_logs(root: &Path, unreadable: &mut usize) -> Vec<LoopLog> {
    let mut logs = Vec::new();
    let Ok(dirs) = std::fs::read_dir(root.join(".gsd/ralph/logs")) else {
        return logs;
    };
    for d in dirs.flatten() {
        let file = d.path().join("events.jsonl");
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let mut events = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            match serde_json::from_str::<Value>(line) {
                Ok(v) if v.get("event").is_some() => events.push(v),
                _ => *unreadable += 1,
            }
        }
        let modified = std::fs::metadata(&file)
            .and_then(|m| m.modified())
            .unwrap_or(std::time::SystemTime::UNIX_EPOCH);
        logs.push(LoopLog { events, modified });
    }
    logs.sort_by_key(|l| l.modified);
    logs
}

/// One loop's plan, cost by task, leftover and outcome.
fn loop_costs(events: &[Value]) -> (Option<String>, Vec<TaskCost>, Cost, Cost, String) {
    let plan = events
        .iter()
        .find(|e| e["event"] == "started")
        .and_then(|e| e["plan"].as_str())
        .map(str::to_owned);
    let mut tasks: Vec<TaskCost> = Vec::new();
    let mut pending = Cost::default();
    let mut total = Cost::default();
    let mut completed_in: BTreeMap<u64, Vec<(u64, String)>> = BTreeMap::new();
    let mut outcome = "running".to_owned();
    for e in events {
        match e["event"].as_str().unwrap_or("") {
            "task_complete" => completed_in
                .entry(num(e, "n"))
                .or_default()
                .push((num(e, "index"), e["name"].as_str().unwrap_or("").to_owned())),
            "iteration_done" => {
                let c = Cost {
                    iterations: 1,
                    duration_ms: num(e, "duration_ms"),
                    input_tokens: num(&e["tokens"], "input"),
                    output_tokens: num(&e["tokens"], "output"),
                    cost_usd: e["cost_usd"].as_f64().unwrap_or(0.0),
                };
                total.add(&c);
                pending.add(&c);
                // task_complete events of an iteration come before its end.
                if let Some(done) = completed_in.remove(&num(e, "n")) {
                    let n = done.len() as u64;
                    for (i, (index, name)) in done.into_iter().enumerate() {
                        tasks.push(TaskCost {
                            index,
                            name,
                            cost: pending.share(n, i == 0),
                        });
                    }
                    pending = Cost::default();
                }
            }
            "complete" => outcome = "complete".into(),
            "stuck" => outcome = "stuck".into(),
            "failed" => {
                outcome = format!("failed: {}", e["reason"].as_str().unwrap_or("?"));
            }
            "started" => outcome = "running".into(),
            _ => {}
        }
    }
    (plan, tasks, pending, total, outcome)
}

/// The report for the project at `root`.
pub fn report(root: &Path) -> Report {
    let mut unreadable = 0;
    let logs = read_logs(root, &mut unreadable);
    let mut plans: BTreeMap<String, PlanReport> = BTreeMap::new();
    for log in &logs {
        let (plan, tasks, no_task, cost, outcome) = loop_costs(&log.events);
        let Some(plan) = plan else { continue };
        let p = plans.entry(plan.clone()).or_insert_with(|| PlanReport {
            plan,
            loops: 0,
            outcome: String::new(),
            tasks: Vec::new(),
            no_task: Cost::default(),
            cost: Cost::default(),
        });
        p.loops += 1;
        p.outcome = outcome;
        p.no_task.add(&no_task);
        p.cost.add(&cost);
        for t in tasks {
            match p.tasks.iter_mut().find(|x| x.index == t.index) {
                Some(x) => x.cost.add(&t.cost),
                None => p.tasks.push(t),
            }
        }
    }
    let mut phases: BTreeMap<String, PhaseReport> = BTreeMap::new();
    let mut total = Cost::default();
    for (_, mut p) in plans {
        p.tasks.sort_by_key(|t| t.index);
        let phase = PlanId::parse(&p.plan)
            .map(|id| id.phase.normalized())
            .unwrap_or_else(|| "?".into());
        total.add(&p.cost);
        let ph = phases.entry(phase.clone()).or_insert_with(|| PhaseReport {
            phase,
            plans: Vec::new(),
            cost: Cost::default(),
        });
        ph.cost.add(&p.cost);
        ph.plans.push(p);
    }
    Report {
        phases: phases.into_values().collect(),
        total,
        unreadable_lines: unreadable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn done(n: u64, ms: u64, usd: f64) -> Value {
        json!({ "event": "iteration_done", "n": n, "duration_ms": ms, "cost_usd": usd, "tokens": { "input": 100 * n, "output": 10 * n } })
    }

    #[test]
    fn an_iteration_goes_to_the_tasks_it_completed_and_the_rest_to_no_task() {
        let events = vec![
            json!({ "event": "started", "plan": "02-02" }),
            done(1, 1000, 0.5),
            json!({ "event": "task_complete", "n": 2, "index": 1, "name": "a" }),
            done(2, 2000, 1.0),
            json!({ "event": "task_complete", "n": 3, "index": 2, "name": "b" }),
            json!({ "event": "task_complete", "n": 3, "index": 3, "name": "c" }),
            done(3, 3001, 0.3),
            done(4, 400, 0.1),
            json!({ "event": "failed", "reason": "budget" }),
        ];
        let (plan, tasks, rest, total, outcome) = loop_costs(&events);
        assert_eq!(plan.as_deref(), Some("02-02"));
        assert_eq!(outcome, "failed: budget");
        assert_eq!(tasks[0].cost.iterations, 2, "iteration 1 completed nothing");
        assert_eq!(tasks[0].cost.duration_ms, 3000);
        assert_eq!(tasks[1].cost.duration_ms + tasks[2].cost.duration_ms, 3001);
        assert_eq!(rest.iterations, 1);
        let mut sum = rest;
        for t in &tasks {
            sum.add(&t.cost);
        }
        assert_eq!(sum.iterations, total.iterations);
        assert_eq!(sum.duration_ms, total.duration_ms);
        assert_eq!(sum.input_tokens, total.input_tokens);
        assert!((sum.cost_usd - total.cost_usd).abs() < 1e-9);
        assert!((total.cost_usd - 1.9).abs() < 1e-9);
    }
}
