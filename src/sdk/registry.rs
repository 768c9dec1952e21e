//! The commands gsd answers itself, by gsd-sdk's canonical name. Anything
//! else resolves to gsd-sdk's registry and goes to the fallback.

use super::commands::{
    audit, commit, config, fm, init, init_overview, init_phase, init_project, init_tasks, intel,
    listing, mvp, phase_edit, phase_find, phases, plans, requirements, roadmap, runtime, snapshot,
    state, state_position, stats, summary, task_structure, text, triage, uat, verify,
};
use super::{Call, Reply, SdkError};

/// A command's implementation.
pub type Handler = fn(&Call) -> Result<Reply, SdkError>;

/// Every covered command, dotted form (the spaced forms resolve to these).
pub const COVERED: &[(&str, Handler)] = &[
    ("config-get", config::get),
    ("config-path", config::path),
    ("config-set", config::set),
    ("config-ensure-section", config::ensure_section),
    ("resolve-model", config::resolve_model),
    ("agent-skills", config::agent_skills),
    ("generate-slug", text::generate_slug),
    ("current-timestamp", text::current_timestamp),
    ("frontmatter.get", fm::get),
    ("frontmatter.set", fm::set),
    ("state.load", state::load),
    ("state.update", state::update),
    ("state.patch", state::patch_cmd),
    ("state.record-session", state::record_session),
    ("state.add-decision", state::add_decision),
    ("state.add-blocker", state::add_blocker),
    ("state.add-roadmap-evolution", state::add_roadmap_evolution),
    ("state.update-progress", state::update_progress),
    ("state.record-metric", state::record_metric),
    ("state.advance-plan", state_position::advance_plan),
    ("state.planned-phase", state_position::planned_phase),
    ("commit", commit::run),
    ("roadmap.get-phase", roadmap::get_phase),
    ("roadmap.analyze", roadmap::analyze),
    (
        "roadmap.update-plan-progress",
        roadmap::update_plan_progress,
    ),
    ("find-phase", phase_find::run),
    ("init.phase-op", init::phase_op),
    ("init.plan-phase", init_phase::plan_phase),
    ("init.execute-phase", init_phase::execute_phase),
    ("init.progress", init_overview::progress),
    ("init.manager", init_overview::manager),
    ("init.quick", init_tasks::quick),
    ("init.resume", init_project::resume),
    ("init.verify-work", init_project::verify_work),
    ("init.new-milestone", init_project::new_milestone),
    ("init.list-workspaces", init_project::list_workspaces),
    ("init.todos", init_tasks::todos),
    ("init.map-codebase", init_tasks::map_codebase),
    ("init.milestone-op", init_tasks::milestone_op),
    ("check.auto-mode", phases::auto_mode),
    ("phases.list", phases::list),
    ("progress.json", phases::progress_json),
    ("progress.bar", phases::progress_bar),
    ("progress", phases::progress_json),
    ("progress.table", phases::progress_table),
    ("stats", stats::stats),
    ("stats.json", stats::stats),
    ("audit-uat", audit::audit_uat),
    ("requirements.mark-complete", requirements::mark_complete),
    ("validate.context", runtime::validate_context),
    ("detect-custom-files", runtime::detect_custom_files),
    ("stats.table", stats::table),
    ("summary-extract", summary::extract),
    ("phase.mvp-mode", mvp::mvp_mode),
    ("task.is-behavior-adding", mvp::is_behavior_adding),
    ("user-story.validate", mvp::user_story),
    ("agent.classify-failure", triage::classify_failure),
    ("todo.match-phase", triage::match_phase),
    ("state-snapshot", snapshot::run),
    ("phase.list-artifacts", listing::artifacts),
    ("workstream.list", listing::workstreams),
    ("websearch", listing::websearch),
    ("intel.patch-meta", intel::patch_meta),
    ("phase.add", phase_edit::add),
    ("phase.insert", phase_edit::insert),
    ("phase.remove", phase_edit::remove),
    ("uat.render-checkpoint", uat::render_checkpoint),
    ("phase.list-plans", plans::list_plans),
    ("phase-plan-index", plans::plan_index),
    ("phase.next-decimal", phase_find::next_decimal),
    ("verify.plan-structure", verify::plan_structure),
    ("plan.task-structure", task_structure::task_structure),
    ("verify.artifacts", verify::artifacts),
    ("verify.key-links", verify::key_links),
];

/// The handler for a canonical command name.
pub fn handler(command: &str) -> Option<Handler> {
    let dotted = command.replace(' ', ".");
    COVERED
        .iter()
        .find(|(name, _)| *name == dotted)
        .map(|(_, h)| *h)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_covered_command_is_one_gsd_sdk_registers() {
        for (name, _) in super::COVERED {
            assert!(
                super::super::resolve::registry().contains(name),
                "{name} is not a gsd-sdk 1.42.3 command"
            );
        }
    }
}
