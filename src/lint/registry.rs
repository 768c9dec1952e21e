//! Every lint rule, one line each, in a stable order. Codes never change
//! once released; `gsd lint --list-rules` prints this table.

use super::context::{Ctx, Sink};
use super::diagnostic::Severity::{self, Error, Info, Warning};
use super::rules::{config, deps, files, frontmatter, plan, project, roadmap, state};
use Reads::{Files, Tree};

/// What a rule reads, and so when it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// The documents of one pass (`Ctx::view`): run once over the files
    /// outside the phase folders and once per batch of phase folders, with
    /// the tree for lookups. Its findings are in the view's documents.
    Files,
    /// The tree as a whole (its core documents, listings and the facts the
    /// passes gathered): run once, after every pass.
    Tree,
}

pub struct Rule {
    pub code: &'static str,
    pub severity: Severity,
    pub reads: Reads,
    /// One sentence: what the rule finds.
    pub summary: &'static str,
    /// The gsd-tools check it corresponds to, if any.
    pub gsd_tools: &'static str,
    pub check: fn(&Ctx, &mut Sink),
}

macro_rules! rules {
    ($( $code:literal, $sev:ident, $reads:ident, $f:path, $tools:literal, $summary:literal; )*) => {
        pub static RULES: &[Rule] = &[ $( Rule { code: $code, severity: $sev, reads: $reads, summary: $summary, gsd_tools: $tools, check: $f } ),* ];
    };
}

rules! {
    "file-not-utf8", Error, Files, files::file_not_utf8, "", "A planning file is not valid UTF-8, or holds NUL bytes (a part saved as UTF-16); weighed by who reads the file.";
    "binary-file", Info, Files, files::binary_file, "", "A binary file sits inside .planning/ (skipped).";
    "file-too-large", Warning, Files, files::file_too_large, "", "A file is too large to parse.";
    "file-unreadable", Warning, Files, files::file_unreadable, "", "An entry in .planning/ cannot be read: a link to a folder or to nothing, a pipe, a device, or no permission.";
    "merge-conflict-markers", Error, Files, files::merge_conflict_markers, "", "A file holds unresolved git merge-conflict markers; info in a shipped or finished phase's files and in archives.";
    "empty-file", Warning, Files, files::empty_file, "", "A planning file is empty.";
    "unknown-root-file", Info, Files, files::unknown_root_file, "W019", "A markdown file at the .planning/ root is not a GSD root file.";
    "frontmatter-invalid-yaml", Error, Files, frontmatter::frontmatter_invalid_yaml, "", "Frontmatter is not valid YAML (or exceeds alias/nesting limits).";
    "frontmatter-unterminated", Error, Files, frontmatter::frontmatter_unterminated, "", "A --- frontmatter block is never closed.";
    "frontmatter-not-mapping", Error, Files, frontmatter::frontmatter_not_mapping, "", "Frontmatter is YAML but not a key: value mapping.";
    "plan-no-frontmatter", Error, Files, plan::plan_no_frontmatter, "7.1", "A plan has no frontmatter.";
    "plan-missing-field", Error, Files, plan::plan_missing_field, "7.1 / 7.2", "A plan lacks a required frontmatter field (phase, plan, type, wave, depends_on, files_modified, autonomous, must_haves).";
    "plan-field-type", Error, Files, plan::plan_field_type, "", "A plan frontmatter value has the wrong type (wave not an integer, autonomous not a boolean, …).";
    "plan-no-tasks", Warning, Files, plan::plan_no_tasks, "7.1", "A plan has no <task> elements.";
    "plan-noncanonical-name", Warning, Files, plan::plan_noncanonical_name, "7.4", "A plan file is not named NN-MM-PLAN.md (info when it still ends in -PLAN.md, which GSD schedules).";
    "wave-without-dependencies", Warning, Files, plan::wave_without_dependencies, "7.1", "A plan is in wave > 1 but depends on nothing.";
    "checkpoint-not-autonomous", Error, Files, plan::checkpoint_not_autonomous, "7.1", "A plan has checkpoint tasks but is not marked autonomous: false.";
    "must-haves-not-checkable", Warning, Files, plan::must_haves_not_checkable, "", "must_haves has nothing a tool can verify (no map artifacts or key links).";
    "task-unbalanced-tag", Error, Files, plan::task_unbalanced_tag, "", "A <task> (or a task child) is never closed, or a closing tag closes nothing.";
    "task-nested", Error, Files, plan::task_nested, "", "A <task> is opened inside another <task>.";
    "task-missing-required", Error, Files, plan::task_missing_required, "7.1", "A task lacks an element its type requires (auto: name, action; checkpoints per kind).";
    "task-missing-recommended", Warning, Files, plan::task_missing_recommended, "7.1", "A task lacks <files>, <verify> or <done> (or a checkpoint's <resume-signal>).";
    "task-unknown-type", Warning, Files, plan::task_unknown_type, "", "A task's type is not a GSD task type.";
    "plan-skeleton-unfilled", Warning, Files, plan::plan_skeleton_unfilled, "", "A plan still holds TODO(gsd): skeleton text from `gsd plan new`.";
    "unclosed-code-fence", Warning, Files, plan::unclosed_code_fence, "", "A code fence in a plan is never closed.";
    "duplicate-plan-number", Error, Files, deps::duplicate_plan_number, "", "Two plan files in a phase have the same plan number.";
    "depends-on-unknown-plan", Error, Files, deps::depends_on_unknown_plan, "", "depends_on names a plan that does not exist.";
    "dependency-cycle", Error, Files, deps::dependency_cycle, "7.4", "Plans of a phase depend on each other in a cycle.";
    "wave-order", Error, Files, deps::wave_order, "7.4", "A plan's wave is not greater than the wave of a plan it depends on.";
    "files-modified-overlap", Warning, Files, deps::files_modified_overlap, "", "Two plans of the same wave modify the same file.";
    "plan-numbering-gap", Warning, Files, deps::plan_numbering_gap, "7.2", "Plan numbers in a phase skip a number.";
    "orphan-summary", Warning, Files, deps::orphan_summary, "7.2", "A SUMMARY.md has no matching PLAN.md.";
    "plan-without-summary", Info, Files, deps::plan_without_summary, "I001", "A plan of a partly executed phase has no SUMMARY.md.";
    "roadmap-missing", Error, Tree, roadmap::roadmap_missing, "E003", "ROADMAP.md is missing.";
    "roadmap-phase-no-dir", Warning, Tree, roadmap::roadmap_phase_no_dir, "W006", "A started or completed ROADMAP phase has no folder.";
    "phase-dir-not-in-roadmap", Warning, Tree, roadmap::phase_dir_not_in_roadmap, "W007", "A phase folder is not mentioned in ROADMAP.md.";
    "phase-dir-shares-number", Warning, Tree, roadmap::phase_dir_shares_number, "", "A phase folder numbered as a roadmap phase whose folder is another one (a leftover of an earlier plan).";
    "phase-numbering-gap", Warning, Tree, roadmap::phase_numbering_gap, "7.2", "Integer phase folders skip a number.";
    "phase-dir-bad-name", Warning, Tree, roadmap::phase_dir_bad_name, "W005", "A phase folder is not named like NN-slug.";
    "roadmap-checklist-without-details", Warning, Tree, roadmap::roadmap_checklist_without_details, "4.3", "A checklist entry of a phase still to do has no `### Phase N:` detail section (a ticked or finished one: info).";
    "roadmap-plan-count-mismatch", Warning, Tree, roadmap::roadmap_plan_count_mismatch, "", "ROADMAP's **Plans** count differs from the plans on disk.";
    "roadmap-progress-mismatch", Warning, Tree, roadmap::roadmap_progress_mismatch, "", "A progress-table row differs from the plans and summaries on disk.";
    "roadmap-complete-but-unfinished", Warning, Tree, roadmap::roadmap_complete_but_unfinished, "", "A phase is checked complete but has plans without summaries.";
    "state-missing", Error, Tree, state::state_missing, "E004", "STATE.md is missing.";
    "state-unknown-phase", Warning, Tree, state::state_unknown_phase, "W002", "STATE.md's current phase is neither in ROADMAP.md nor on disk.";
    "state-phase-complete-status", Warning, Tree, state::state_phase_complete_status, "W011", "The current phase is complete in ROADMAP.md but STATE.md's status is not.";
    "state-plan-count-mismatch", Warning, Tree, state::state_plan_count_mismatch, "state validate", "STATE.md's `Plan: X of Y` disagrees with the plans on disk.";
    "state-progress-stale", Info, Tree, state::state_progress_stale, "state validate", "STATE.md's progress counters disagree with the plans and summaries of the current milestone.";
    "state-position-stale", Info, Tree, state::state_position_stale, "", "STATE.md's position names a phase that is complete while the work is at a later one.";
    "state-progress-invalid", Warning, Tree, state::state_progress_invalid, "", "STATE.md progress counters are impossible (completed > total, percent out of range).";
    "workstream-pointer-dangling", Warning, Tree, state::workstream_pointer_dangling, "", "`.planning/active-workstream` names a workstream folder that does not exist (warning), or one with no ROADMAP.md or STATE.md while the root has them (error: GSD's tools find nothing there).";
    "project-missing", Error, Tree, project::project_missing, "E002", "PROJECT.md is missing.";
    "project-missing-section", Info, Tree, project::project_missing_section, "W001", "PROJECT.md lacks What This Is, Core Value or Requirements.";
    "requirement-not-covered", Warning, Tree, project::requirement_not_covered, "gap-analysis", "A requirement that a live, planned ROADMAP phase promises is named by none of its plans.";
    "requirement-unknown", Warning, Files, project::requirement_unknown, "", "A plan names a requirement ID that REQUIREMENTS.md does not define.";
    "requirement-untraced", Warning, Tree, project::requirement_untraced, "4.4", "A v1 requirement is missing from the Traceability table.";
    "validation-missing", Warning, Files, project::validation_missing, "W009", "RESEARCH.md has a Validation Architecture section but there is no VALIDATION.md.";
    "milestone-not-in-milestones-md", Warning, Tree, project::milestone_not_in_milestones_md, "W018", "An archived milestone is not listed in MILESTONES.md.";
    "config-missing", Warning, Tree, config::config_missing, "W003", "config.json is missing.";
    "config-invalid-json", Error, Tree, config::config_invalid_json, "E005", "config.json is not valid JSON.";
    "config-invalid-model-profile", Warning, Tree, config::config_invalid_model_profile, "W004", "model_profile is not a profile GSD knows (quality, balanced, budget, inherit, adaptive, …).";
    "config-invalid-value", Warning, Tree, config::config_invalid_value, "W012–W015", "branching_strategy, context_window or a branch template is invalid.";
    "config-invalid-guard", Error, Tree, config::config_invalid_guard, "", "config.json's ralph.guard policy cannot be used (unknown key, wrong type, bad glob).";
    "config-missing-workflow-key", Info, Tree, config::config_missing_workflow_key, "W008 / W016", "workflow.nyquist_validation or workflow.ai_integration_phase is absent.";
}

pub fn find(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code == code)
}
