//! SUMMARY.md: the record that a plan was executed.

use super::document::Document;
use super::ids::PlanId;

#[derive(Debug, Clone)]
pub struct Summary {
    pub doc: Document,
    pub id: Option<PlanId>,
    /// `requirements-completed` from the frontmatter.
    pub requirements_completed: Vec<String>,
    pub one_liner: Option<String>,
    /// Its `status:` says the plan stopped before its end (`partial`,
    /// `checkpoint-pending`, `pending-human-checkpoint`, `blocked`): the
    /// executor wrote it at a checkpoint, so the plan has not finished.
    pub stopped: bool,
}

/// Keys `frontmatter validate --schema summary` requires.
pub const SUMMARY_REQUIRED: &[&str] = &[
    "phase",
    "plan",
    "subsystem",
    "tags",
    "duration",
    "completed",
];
/// Keys `frontmatter validate --schema verification` requires.
pub const VERIFICATION_REQUIRED: &[&str] = &["phase", "verified", "status", "score"];

impl Summary {
    pub fn parse(doc: Document) -> Summary {
        let id = PlanId::parse(doc.file_name());
        let fm = doc.fm();
        let requirements_completed = fm
            .and_then(|m| m.get("requirements-completed"))
            .map(|n| n.string_list())
            .unwrap_or_default();
        let one_liner = fm
            .and_then(|m| m.get("one-liner"))
            .and_then(|n| n.as_str())
            .map(str::to_owned);
        let stopped = fm
            .and_then(|m| m.get("status"))
            .and_then(|n| n.as_str())
            .is_some_and(says_stopped);
        Summary {
            doc,
            id,
            requirements_completed,
            one_liner,
            stopped,
        }
    }
}

/// A summary status that opens by saying the plan stopped short.
fn says_stopped(status: &str) -> bool {
    let first = status
        .trim()
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("")
        .to_lowercase();
    matches!(
        first.as_str(),
        "partial" | "checkpoint" | "pending" | "awaiting" | "blocked" | "paused" | "incomplete"
    )
}

#[cfg(test)]
mod tests {
    use super::says_stopped;

    #[test]
    fn stopped_statuses() {
        for s in [
            "partial",
            "checkpoint-pending",
            "pending-human-checkpoint",
            "awaiting-checkpoint",
            "PARTIAL — Task 1 complete; Task 2 awaits the operator",
            "blocked",
        ] {
            assert!(says_stopped(s), "{s}");
        }
        for s in [
            "complete",
            "complete — awaiting the Task-3 approval",
            "done",
            "",
        ] {
            assert!(!says_stopped(s), "{s}");
        }
    }
}
