//! What a run of one plan was seen to do: the tasks whose checks came to
//! pass, the commits, the final checks, time, tokens and dollars (all from
//! its events) and the files changed (from git). This, not the model's
//! account, is what the plan's SUMMARY.md says.

use std::path::Path;

use serde::Serialize;

use super::events::{EventKind, RunEvent};

#[derive(Debug, Clone, Serialize)]
pub struct ObservedTask {
    pub index: u64,
    pub name: String,
    /// `Task N: name`, as plans usually name their tasks already.
    pub label: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ObservedCommit {
    pub hash: String,
    pub short: String,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ObservedCheck {
    pub command: String,
    pub source: String,
    pub passed: bool,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Observed {
    pub iterations: u64,
    pub duration_ms: u64,
    pub cost_usd: f64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub tasks: Vec<ObservedTask>,
    pub commits: Vec<ObservedCommit>,
    /// The last verification's checks.
    pub checks: Vec<ObservedCheck>,
    /// Files changed between the run's first and last commit.
    pub files: Vec<String>,
    /// First and last event times (RFC 3339).
    pub started: String,
    pub finished: String,
}

impl Observed {
    /// Fold one plan's events.
    pub fn from_events(events: &[RunEvent]) -> Observed {
        let mut o = Observed::default();
        for e in events {
            let v = &e.fields;
            let ts = v["ts"].as_str().unwrap_or("").to_owned();
            if o.started.is_empty() {
                o.started = ts.clone();
            }
            o.finished = ts;
            match e.kind {
                EventKind::IterationDone => {
                    o.iterations += 1;
                    o.duration_ms += v["duration_ms"].as_u64().unwrap_or(0);
                    o.cost_usd += v["cost_usd"].as_f64().unwrap_or(0.0);
                    o.input_tokens += v["tokens"]["input"].as_u64().unwrap_or(0);
                    o.output_tokens += v["tokens"]["output"].as_u64().unwrap_or(0);
                }
                EventKind::TaskComplete => {
                    let index = v["index"].as_u64().unwrap_or(0);
                    let name = v["name"].as_str().unwrap_or("").to_owned();
                    let label = if name.starts_with("Task ") {
                        name.clone()
                    } else {
                        format!("Task {index}: {name}")
                    };
                    o.tasks.push(ObservedTask { index, name, label });
                }
                EventKind::Commit => {
                    let hash = v["hash"].as_str().unwrap_or("").to_owned();
                    o.commits.push(ObservedCommit {
                        short: hash.chars().take(7).collect(),
                        hash,
                        message: v["message"].as_str().unwrap_or("").to_owned(),
                    });
                }
                EventKind::Verification => {
                    o.checks = v["checks"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|c| ObservedCheck {
                            command: c["command"].as_str().unwrap_or("").to_owned(),
                            source: c["source"].as_str().unwrap_or("").to_owned(),
                            passed: c["passed"].as_bool().unwrap_or(false),
                        })
                        .collect();
                }
                _ => {}
            }
        }
        o
    }

    /// Minutes, as GSD's summaries write durations (`12min`).
    pub fn duration(&self) -> String {
        format!("{}min", self.duration_ms.div_ceil(60_000).max(1))
    }
}

/// Paths changed from commit `from` to `to` (both hex ids), sorted.
pub fn files_changed(root: &Path, from: Option<&str>, to: Option<&str>) -> Vec<String> {
    let Ok(repo) = git2::Repository::discover(root) else {
        return Vec::new();
    };
    let tree = |id: Option<&str>| -> Option<git2::Tree<'_>> {
        let oid = git2::Oid::from_str(id?).ok()?;
        repo.find_commit(oid).ok()?.tree().ok()
    };
    let (Some(new), old) = (tree(to), tree(from)) else {
        return Vec::new();
    };
    let Ok(diff) = repo.diff_tree_to_tree(old.as_ref(), Some(&new), None) else {
        return Vec::new();
    };
    let mut files: Vec<String> = diff
        .deltas()
        .filter_map(|d| d.new_file().path().or_else(|| d.old_file().path()))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    files.dedup();
    files
}
