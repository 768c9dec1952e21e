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
        Summary {
            doc,
            id,
            requirements_completed,
            one_liner,
        }
    }
}
