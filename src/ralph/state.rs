//! Loop state: versioned JSON in `.gsd/ralph/loop.json` (git-ignored), read
//! and written atomically. One active loop per project.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::verify::Check;

pub const VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Active,
    Complete,
    Stopped,
    Stuck,
    MaxIterations,
    Stale,
    /// A `gsd ralph run` interrupted by Ctrl+C; `--resume` continues it.
    Paused,
    /// A `gsd ralph run` that failed (pre-flight, agent, budget, a question).
    Failed,
}

impl Status {
    /// How `gsd ralph status` says it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Complete => "complete",
            Status::Stopped => "stopped",
            Status::Stuck => "stuck",
            Status::MaxIterations => "max iterations",
            Status::Stale => "stale",
            Status::Paused => "paused",
            Status::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Iteration {
    pub n: u32,
    /// `continued`, `promise refused`, `complete`, `stuck`, `max iterations`.
    pub result: String,
    #[serde(default)]
    pub failed_checks: Vec<String>,
    pub at: String,
    /// A short fingerprint of the final text, for stuck detection.
    #[serde(default)]
    pub text_hash: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LoopState {
    pub version: u32,
    pub loop_id: String,
    pub plan: String,
    pub plan_path: String,
    pub prompt: String,
    pub promise: String,
    pub iteration: u32,
    pub max_iterations: u32,
    pub owner_session: Option<String>,
    pub status: Status,
    pub started_at: String,
    pub heartbeat_at: String,
    pub checks: Vec<Check>,
    pub check_timeout_secs: u64,
    #[serde(default)]
    pub history: Vec<Iteration>,
    #[serde(default)]
    pub guidance_cmd: Option<String>,
    /// Answers of the guidance command, by error fingerprint: an error asked
    /// about once is never asked again (NotebookLM allows ~50 queries a day).
    #[serde(default)]
    pub guidance_cache: std::collections::BTreeMap<String, String>,
    /// The UTC day the counter below is for.
    #[serde(default)]
    pub guidance_day: String,
    #[serde(default)]
    pub guidance_queries_today: u32,
    #[serde(default = "default_guidance_limit")]
    pub guidance_daily_limit: u32,
    /// Same final text or same failing checks this many times in a row ends the loop.
    #[serde(default = "default_stuck")]
    pub stuck_threshold: u32,
    /// Run by `gsd ralph run` (fresh agent processes), not by the Stop hook:
    /// the hook stays silent for it.
    #[serde(default)]
    pub runner: bool,
    /// Runner only: the tasks whose own checks have passed, by index.
    #[serde(default)]
    pub tasks_done: Vec<u32>,
    /// Runner only: dollars spent so far, as reported by the agent.
    #[serde(default)]
    pub cost_usd: f64,
    /// STATE.md's status before the loop set its own: it comes back when
    /// the loop ends (the loop's outcome goes into the history section).
    #[serde(default)]
    pub status_before: Option<crate::edit::state::FieldText>,
    /// The work tree's changes when `gsd ralph run` started this loop: at
    /// completion, everything else the run changed and nobody committed is
    /// committed for the plan (see `ralph::run::settle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dirty_at_start: Option<crate::ralph::run::settle::Baseline>,
    /// The process of the `gsd ralph run` driving this loop: a loop left
    /// "active" by a gsd that is gone (SIGKILL, a crash) can be resumed, and
    /// one whose runner lives is never run twice, `--force` or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    /// The agent the run used, so `--resume` runs the same one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentChoice>,
}

/// The agent options of a `gsd ralph run`, as `--resume` needs them again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentChoice {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_cmd: Option<String>,
    /// `stream-json`, `text` or `gemini-stream-json`.
    pub agent_format: String,
    /// `claude` or `gemini`.
    pub agent: String,
    pub claude_bin: String,
    pub gemini_bin: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// Whether process `pid` exists.
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only asks whether the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

fn default_stuck() -> u32 {
    3
}

pub fn default_guidance_limit() -> u32 {
    20
}

pub fn path(root: &Path) -> PathBuf {
    root.join(".gsd/ralph/loop.json")
}

/// The lock every reader-modifier-writer of the loop state holds: Stop and
/// SubagentStop handlers run in parallel, and two of them counting the same
/// iteration (or one ending the loop while another re-arms it) is exactly the
/// race the reference plugin has.
pub fn lock(
    root: &Path,
    timeout: std::time::Duration,
) -> Result<crate::store::PlanningLock, crate::store::lock::LockError> {
    crate::store::PlanningLock::acquire_named(root, "ralph.lock", timeout)
}

pub fn now() -> String {
    jiff::Timestamp::now().to_string()
}

impl LoopState {
    pub fn load(root: &Path) -> Option<Result<LoopState, serde_json::Error>> {
        let text = std::fs::read_to_string(path(root)).ok()?;
        Some(serde_json::from_str(&text))
    }

    pub fn save(&self, root: &Path) -> std::io::Result<()> {
        crate::store::lock::ensure_gsd_dir(root)?;
        let text = serde_json::to_string_pretty(self).expect("state serializes") + "\n";
        crate::store::atomic::write(&path(root), text.as_bytes())
    }

    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }

    /// An active `gsd ralph run` whose gsd is gone: as good as paused.
    pub fn runner_gone(&self) -> bool {
        self.runner
            && self.status == Status::Active
            && self
                .pid
                .is_some_and(|p| p != std::process::id() && !process_alive(p))
    }

    /// An active `gsd ralph run` whose gsd is running now (another process).
    pub fn runner_alive(&self) -> bool {
        self.runner
            && self.status == Status::Active
            && self
                .pid
                .is_some_and(|p| p != std::process::id() && process_alive(p))
    }
}
