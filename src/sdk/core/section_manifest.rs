//! The `section_manifest` field of GSD Core 1.14.0's init answers: which
//! optional steps of a workflow its prompt should include, chosen from the
//! package's `workflows/section-manifest.json` by the call's flags and a few
//! facts about the project.
//!
//! The manifest is package data; the sections of the workflows gsd answers
//! the init for are kept here, as 1.14.0 ships them (a manifest named by
//! `GSD_SECTION_MANIFEST` is read by the real gsd-tools instead).

use std::collections::BTreeSet;

use serde_json::{Value, json};

/// One optional section: its id, the condition that includes it, and the
/// step file a prompt then reads.
struct Section {
    id: &'static str,
    when: &'static str,
    read: &'static str,
}

const PLAN_PHASE: &[Section] = &[
    Section {
        id: "reviews-prerequisite",
        when: "flag:--reviews",
        read: "gsd-core/workflows/plan-phase/steps/reviews-prerequisite.md",
    },
    Section {
        id: "prd-express-gate",
        when: "flag:--prd",
        read: "gsd-core/workflows/plan-phase/steps/prd-express-gate.md",
    },
    Section {
        id: "adr-ingest-express-path",
        when: "flag:--ingest",
        read: "gsd-core/workflows/plan-phase/steps/adr-ingest-express-path.md",
    },
    Section {
        id: "research-only-modifiers",
        when: "flag:--research-phase",
        read: "gsd-core/workflows/plan-phase/steps/research-only-modifiers.md",
    },
    Section {
        id: "research-only-early-exit",
        when: "flag:--research-phase",
        read: "gsd-core/workflows/plan-phase/steps/research-only-early-exit.md",
    },
    Section {
        id: "chunked-planning-mode",
        when: "state:chunked-mode",
        read: "gsd-core/workflows/plan-phase/steps/chunked-planning-mode.md",
    },
];

const EXECUTE_PHASE: &[Section] = &[
    Section {
        id: "partial-wave",
        when: "flag:--wave",
        read: "gsd-core/workflows/execute-phase/steps/partial-wave.md",
    },
    Section {
        id: "gap-closure-artifacts",
        when: "state:gap-closure-phase",
        read: "gsd-core/workflows/execute-phase/steps/gap-closure-artifacts.md",
    },
    Section {
        id: "regression-gate",
        when: "state:has-prior-phases",
        read: "gsd-core/workflows/execute-phase/steps/regression-gate.md",
    },
];

const COMPLETE_MILESTONE: &[Section] = &[Section {
    id: "git-tag",
    when: "state:git-create-tag",
    read: "gsd-core/workflows/complete-milestone/steps/git-tag.md",
}];

const NEW_MILESTONE: &[Section] = &[
    Section {
        id: "project-md-milestone-write",
        when: "state:flat-mode",
        read: "gsd-core/workflows/new-milestone/steps/project-md-milestone-write.md",
    },
    Section {
        id: "reset-phase-safety",
        when: "flag:--reset-phase-numbers",
        read: "gsd-core/workflows/new-milestone/steps/reset-phase-safety.md",
    },
];

const QUICK: &[Section] = &[
    Section {
        id: "discussion-phase",
        when: "flag:--discuss",
        read: "gsd-core/workflows/quick/steps/discussion-phase.md",
    },
    Section {
        id: "research-phase",
        when: "flag:--research",
        read: "gsd-core/workflows/quick/steps/research-phase.md",
    },
    Section {
        id: "plan-checker-loop",
        when: "flag:--validate",
        read: "gsd-core/workflows/quick/steps/plan-checker-loop.md",
    },
    Section {
        id: "worktree-pre-dispatch-commit",
        when: "state:worktrees-enabled",
        read: "gsd-core/workflows/quick/steps/worktree-pre-dispatch-commit.md",
    },
    Section {
        id: "quick-verification",
        when: "flag:--validate",
        read: "gsd-core/workflows/quick/steps/quick-verification.md",
    },
];

const QUICK_BATCH: &[Section] = &[
    Section {
        id: "research-phase",
        when: "flag:--research",
        read: "gsd-core/workflows/quick-batch/steps/research-phase.md",
    },
    Section {
        id: "verification-wave",
        when: "flag:--validate",
        read: "gsd-core/workflows/quick-batch/steps/verification-wave.md",
    },
];

const AUTONOMOUS: &[Section] = &[
    Section {
        id: "converge-fail-fast",
        when: "state:plan-strategy-converge",
        read: "gsd-core/workflows/autonomous/steps/converge-fail-fast.md",
    },
    Section {
        id: "converge-banner",
        when: "state:plan-strategy-converge",
        read: "gsd-core/workflows/autonomous/steps/converge-banner.md",
    },
    Section {
        id: "converge-dispatch-bg",
        when: "state:plan-strategy-converge",
        read: "gsd-core/workflows/autonomous/steps/converge-dispatch-bg.md",
    },
    Section {
        id: "converge-dispatch-inline",
        when: "state:plan-strategy-converge",
        read: "gsd-core/workflows/autonomous/steps/converge-dispatch-inline.md",
    },
    Section {
        id: "converge-loop",
        when: "state:plan-strategy-converge",
        read: "gsd-core/workflows/autonomous/steps/converge-loop.md",
    },
];

const DOCS_UPDATE: &[Section] = &[Section {
    id: "dispatch-monorepo-packages",
    when: "state:is-monorepo",
    read: "gsd-core/workflows/docs-update/steps/dispatch-monorepo-packages.md",
}];

const REVIEW: &[Section] = &[
    Section {
        id: "reviewer-instances-note-1",
        when: "state:reviewer-instances-configured",
        read: "gsd-core/workflows/review/steps/reviewer-instances-note-1.md",
    },
    Section {
        id: "reviewer-instances-note-2",
        when: "state:reviewer-instances-configured",
        read: "gsd-core/workflows/review/steps/reviewer-instances-note-2.md",
    },
];

const CODE_REVIEW: &[Section] = &[
    Section {
        id: "structural-pre-pass",
        when: "state:fallow-enabled",
        read: "gsd-core/workflows/code-review/steps/structural-pre-pass.md",
    },
    Section {
        id: "dispatch-fix",
        when: "flag:--fix",
        read: "gsd-core/workflows/code-review/steps/dispatch-fix.md",
    },
];

const DISCUSS_PHASE_ASSUMPTIONS: &[Section] = &[Section {
    id: "auto-advance-dispatch",
    when: "state:auto-advance-active",
    read: "gsd-core/workflows/discuss-phase-assumptions/steps/auto-advance-dispatch.md",
}];

const NEW_PROJECT: &[Section] = &[
    Section {
        id: "auto-mode-detection",
        when: "flag:--auto",
        read: "gsd-core/workflows/new-project/steps/auto-mode-detection.md",
    },
    Section {
        id: "codebase-map-offer",
        when: "state:needs-codebase-map",
        read: "gsd-core/workflows/new-project/steps/codebase-map-offer.md",
    },
    Section {
        id: "auto-mode-config",
        when: "flag:--auto",
        read: "gsd-core/workflows/new-project/steps/auto-mode-config.md",
    },
];

const TRANSITION: &[Section] = &[Section {
    id: "workstream-collision-check",
    when: "state:workstream-active",
    read: "gsd-core/workflows/transition/steps/workstream-collision-check.md",
}];

/// The facts a section's condition may ask about.
#[derive(Default)]
pub struct Facts {
    /// `--name` for each option the call set (truthy).
    pub flags: BTreeSet<String>,
    pub phase_number: Option<String>,
    pub has_prior_phases: bool,
    pub chunked_mode: bool,
    pub git_create_tag: bool,
    pub flat_mode: bool,
    /// config.json's `workflow.use_worktrees` is `true`.
    pub worktrees_enabled: bool,
    /// `--converge` or its alias `--cross-ai` (autonomous).
    pub plan_strategy_converge: bool,
    /// The project declares monorepo workspaces (docs-update).
    pub is_monorepo: bool,
    /// config.json names reviewer instances (review).
    pub reviewer_instances_configured: bool,
    /// config.json turns the fallow structural pass on (code-review).
    pub fallow_enabled: bool,
    /// `--auto`, or config.json's auto-advance switches (discuss).
    pub auto_advance_active: bool,
    /// A brownfield project without a whole codebase map (new-project).
    pub needs_codebase_map: bool,
    /// A workstream is active (transition).
    pub workstream_active: bool,
}

fn holds(when: &str, f: &Facts) -> bool {
    match when {
        "state:gap-closure-phase" => f.phase_number.as_deref().is_some_and(|n| n.contains('.')),
        "state:has-prior-phases" => f.has_prior_phases,
        "state:chunked-mode" => f.chunked_mode,
        "state:git-create-tag" => f.git_create_tag,
        "state:flat-mode" => f.flat_mode,
        "state:worktrees-enabled" => f.worktrees_enabled,
        "state:plan-strategy-converge" => f.plan_strategy_converge,
        "state:is-monorepo" => f.is_monorepo,
        "state:reviewer-instances-configured" => f.reviewer_instances_configured,
        "state:fallow-enabled" => f.fallow_enabled,
        "state:auto-advance-active" => f.auto_advance_active,
        "state:needs-codebase-map" => f.needs_codebase_map,
        "state:workstream-active" => f.workstream_active,
        _ => when
            .strip_prefix("flag:")
            .is_some_and(|flag| f.flags.contains(flag)),
    }
}

/// The workflows whose sections are kept here.
pub const KEPT: &[&str] = &[
    "plan-phase",
    "execute-phase",
    "complete-milestone",
    "new-milestone",
    "quick",
    "quick-batch",
    "autonomous",
    "docs-update",
    "review",
    "code-review",
    "discuss-phase-assumptions",
    "new-project",
    "transition",
];

/// A kept workflow's sections as `[id, when, read]`, in the manifest's
/// order (checked against the installed package by `tests/sdk_core.rs`).
pub fn sections(workflow: &str) -> Option<Vec<[&'static str; 3]>> {
    Some(
        kept(workflow)?
            .iter()
            .map(|s| [s.id, s.when, s.read])
            .collect(),
    )
}

fn kept(workflow: &str) -> Option<&'static [Section]> {
    Some(match workflow {
        "plan-phase" => PLAN_PHASE,
        "execute-phase" => EXECUTE_PHASE,
        "complete-milestone" => COMPLETE_MILESTONE,
        "new-milestone" => NEW_MILESTONE,
        "quick" => QUICK,
        "quick-batch" => QUICK_BATCH,
        "autonomous" => AUTONOMOUS,
        "docs-update" => DOCS_UPDATE,
        "review" => REVIEW,
        "code-review" => CODE_REVIEW,
        "discuss-phase-assumptions" => DISCUSS_PHASE_ASSUMPTIONS,
        "new-project" => NEW_PROJECT,
        "transition" => TRANSITION,
        _ => return None,
    })
}

/// `buildSectionManifestField(…, workflow)`: `{workflow, included,
/// excluded, read}`, or `None` for a workflow not kept here.
pub fn field(workflow: &str, facts: &Facts) -> Option<Value> {
    let sections = kept(workflow)?;
    let (mut included, mut excluded, mut read) = (Vec::new(), Vec::new(), Vec::new());
    for s in sections {
        if holds(s.when, facts) {
            included.push(s.id);
            read.push(s.read);
        } else {
            excluded.push(s.id);
        }
    }
    Some(json!({"workflow": workflow, "included": included, "excluded": excluded, "read": read}))
}

/// `readConfigJsonBoolean(cwd, path)`: whether config.json, as written,
/// holds `true` at `path` (anything else, or no readable file, is false).
pub fn config_true(project: &std::path::Path, path: &[&str]) -> bool {
    config_value(project, path) == Some(Value::Bool(true))
}

/// `readConfigJsonValue(cwd, path)`: the value config.json holds at
/// `path` as written (None where it is not there or the file is unreadable).
pub fn config_value(project: &std::path::Path, path: &[&str]) -> Option<Value> {
    let text = std::fs::read_to_string(project.join(".planning/config.json")).ok()?;
    let mut cursor = serde_json::from_str::<Value>(&text).ok()?;
    for key in path {
        match cursor {
            Value::Object(mut m) => cursor = m.remove(*key)?,
            _ => return None,
        }
    }
    Some(cursor)
}

/// Whether a manifest other than the package's own is named.
pub fn overridden() -> bool {
    std::env::var_os("GSD_SECTION_MANIFEST").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_facts_choose_sections() {
        let mut f = Facts::default();
        f.flags.insert("--prd".into());
        f.chunked_mode = true;
        let v = field("plan-phase", &f).unwrap();
        assert_eq!(
            v["included"],
            json!(["prd-express-gate", "chunked-planning-mode"])
        );
        assert_eq!(v["excluded"].as_array().unwrap().len(), 4);
        assert_eq!(
            v["read"][0],
            "gsd-core/workflows/plan-phase/steps/prd-express-gate.md"
        );
        f.phase_number = Some("3.1".into());
        let v = field("execute-phase", &f).unwrap();
        assert_eq!(v["included"], json!(["gap-closure-artifacts"]));
        assert!(field("progress", &f).is_none());
    }
}
