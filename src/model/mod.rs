//! Typed GSD: IDs, plans, tasks, state, roadmap, project, requirements,
//! summaries, config and the workspace that loads them all.
//! Each value remembers the span it came from, so a change is an edit.

pub mod config;
pub mod deps;
pub mod document;
pub mod ids;
pub mod index;
pub mod milestone;
pub mod plan;
pub mod plan_graph;
pub mod plan_ref;
pub mod project;
pub mod quick;
pub mod reading;
pub mod requirements;
pub mod roadmap;
pub mod shipped;
pub mod state;
pub mod summary;
pub mod task;
pub mod verification;
pub mod words;
pub mod workspace;
pub mod workstream;

pub use document::Document;
pub use ids::{PhaseId, PlanId};
pub use index::PhaseIndex;
pub use plan::Plan;
pub use task::Task;
pub use workspace::Workspace;

/// A list for a hint: `a, b, c`, or `none`.
pub fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}
