//! What a command prints: its text, exit code and stderr notes, and how a
//! write's outcome is shown (shared by every command that writes).

use std::fmt::Write as _;

use serde_json::json;

use crate::ops::{Applied, Outcome};

/// What a command prints and its exit code.
pub struct Output {
    pub text: String,
    pub code: i32,
    /// Warnings for stderr (the answer stays parseable on stdout).
    pub warnings: Vec<String>,
    /// Notes for stderr that are not warnings (an interrupted change finished).
    pub notes: Vec<String>,
}

impl Output {
    pub fn ok(text: impl Into<String>) -> Self {
        Output {
            text: text.into(),
            code: 0,
            warnings: Vec::new(),
            notes: Vec::new(),
        }
    }

    pub fn json(v: &serde_json::Value) -> Self {
        Output::ok(serde_json::to_string_pretty(v).expect("json") + "\n")
    }

    pub fn with_code(mut self, code: i32) -> Self {
        self.code = code;
        self
    }
}

/// A write's outcome: the diff for `--dry-run`, else one line per effect
/// and the commit (or the same as JSON).
pub fn stored(outcome: Outcome, json_out: bool) -> Output {
    let mut out = match outcome.applied {
        Applied::DryRun {
            message,
            files,
            diff,
        } => {
            if json_out {
                Output::json(
                    &json!({ "dry_run": true, "changed": files, "diff": diff, "message": message }),
                )
            } else {
                Output::ok(diff)
            }
        }
        Applied::Stored {
            message,
            summary,
            outcome,
        } => {
            if json_out {
                Output::json(&json!({
                    "changed": outcome.changed,
                    "commit": outcome.commit,
                    "commit_id": outcome.commit.id(),
                    "message": message,
                }))
            } else {
                let mut s = String::new();
                for line in &summary {
                    let _ = writeln!(s, "{line}");
                }
                let _ = writeln!(s, "{}", outcome.commit.describe());
                Output::ok(s)
            }
        }
    };
    out.notes
        .extend(outcome.recovered.iter().map(|r| r.describe()));
    out
}
