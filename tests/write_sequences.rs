//! Property: any sequence of gsd's write commands on a lint-clean tree
//! leaves it lint-clean, and no command panics. gsd's own edits must keep
//! the tree consistent with itself (roadmap checklist, details, progress
//! table, phase folders, STATE.md's position), so the next `gsd lint` has
//! nothing to say about a tree only gsd touched.
//!
//! STATE.md's position is checked too (its phase exists, with its roadmap
//! name, and `Current focus` names it), which lint leaves to the user.
//!
//! Lint-clean means no error and no warning, with one rule set aside:
//! `plan-skeleton-unfilled`, which reports the TODO(gsd) text a new plan is
//! *meant* to carry until a person fills it in.

mod common;

use std::path::Path;

use proptest::prelude::*;

use common::{git, gsd, stderr, stdout};

#[derive(Debug, Clone)]
enum Step {
    PhaseAdd(u8),
    PhaseInsert(u8),
    PhaseRemove(u8),
    PhaseComplete(u8),
    PlanNew(u8),
    StateSetStatus(u8),
    StateSetPhase(u8),
    StateAdvance,
    UpdateProgress,
}

impl Step {
    fn args(&self) -> Vec<String> {
        let v = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        match self {
            Step::PhaseAdd(n) => v(&["phase", "add", &format!("Added {n}")]),
            Step::PhaseInsert(k) => v(&["phase", "insert", &k.to_string(), "Urgent fix"]),
            Step::PhaseRemove(k) => v(&["phase", "remove", &k.to_string(), "--force"]),
            Step::PhaseComplete(k) => v(&["phase", "complete", &k.to_string()]),
            Step::PlanNew(k) => v(&["plan", "new", &k.to_string(), "--name", "Do a thing"]),
            Step::StateSetStatus(i) => v(&[
                "state",
                "set",
                "status",
                ["Executing", "Ready to plan", "Blocked"][*i as usize % 3],
            ]),
            Step::StateSetPhase(k) => v(&["state", "set", "currentPhase", &k.to_string()]),
            Step::StateAdvance => v(&["state", "advance"]),
            Step::UpdateProgress => v(&["roadmap", "update-progress"]),
        }
    }
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0u8..100).prop_map(Step::PhaseAdd),
        (1u8..5).prop_map(Step::PhaseInsert),
        (1u8..6).prop_map(Step::PhaseRemove),
        (1u8..5).prop_map(Step::PhaseComplete),
        (1u8..5).prop_map(Step::PlanNew),
        (0u8..3).prop_map(Step::StateSetStatus),
        (1u8..5).prop_map(Step::StateSetPhase),
        Just(Step::StateAdvance),
        Just(Step::UpdateProgress),
    ]
}

/// `gsd init` with three phases, in a fresh repository.
fn fresh() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    git(t.path(), &["init", "-q", "-b", "main"]);
    git(t.path(), &["config", "user.email", "test@example.com"]);
    git(t.path(), &["config", "user.name", "Test"]);
    let o = gsd(
        t.path(),
        &[
            "init",
            "--yes",
            "--name",
            "Demo",
            "--phase",
            "Core",
            "--phase",
            "API",
            "--phase",
            "UI",
            "--requirement",
            "CORE-01: the core works",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    t
}

/// Where STATE.md's position disagrees with the roadmap (lint does not
/// judge STATE's prose, so the property checks it here): the current phase
/// exists, carries its roadmap name, and `Current focus` names it.
fn state_drift(dir: &Path) -> Vec<String> {
    let st: serde_json::Value =
        serde_json::from_slice(&gsd(dir, &["state", "--json"]).stdout).unwrap();
    let rm: serde_json::Value =
        serde_json::from_slice(&gsd(dir, &["roadmap", "--json"]).stdout).unwrap();
    let Some(cur) = st["current_phase"].as_object() else {
        return Vec::new();
    };
    let number = cur["phase"].as_str().unwrap_or("");
    let phases = rm["phases"].as_array().unwrap();
    let Some(phase) = phases.iter().find(|p| p["id"] == number) else {
        return vec![format!(
            "STATE's current phase {number} is not in the roadmap"
        )];
    };
    let mut out = Vec::new();
    if let Some(name) = cur.get("name").and_then(|n| n.as_str())
        && phase["name"] != name
    {
        out.push(format!(
            "STATE names phase {number} `{name}`, the roadmap `{}`",
            phase["name"]
        ));
    }
    let focus = st["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["label"] == "Current focus")
        .and_then(|f| f["value"].as_str())
        .unwrap_or("");
    if !focus.starts_with(&format!(
        "Phase {} ",
        phase["number"].as_str().unwrap_or("")
    )) {
        out.push(format!(
            "Current focus `{focus}` is not phase {}",
            phase["number"]
        ));
    }
    out
}

/// Lint findings other than unfilled skeletons, as `code: message`.
fn findings(dir: &Path) -> Vec<String> {
    let o = gsd(
        dir,
        &[
            "lint",
            "--format",
            "json",
            "--disable",
            "plan-skeleton-unfilled",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("lint JSON ({e}): {}", stdout(&o)));
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] != "info")
        .map(|d| format!("{}: {}", d["code"], d["message"]))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("GSD_SEQ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48),
        ..ProptestConfig::default()
    })]

    #[test]
    fn write_sequences_keep_the_tree_lint_clean(steps in prop::collection::vec(step(), 1..7)) {
        let t = fresh();
        prop_assert!(findings(t.path()).is_empty(), "gsd init is not lint-clean");
        for (i, s) in steps.iter().enumerate() {
            let args = s.args();
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let head = git(t.path(), &["rev-parse", "HEAD"]);
            let o = gsd(t.path(), &argv);
            let code = o.status.code();
            prop_assert!(code == Some(0) || code == Some(2), "{argv:?} exited {code:?}: {}", stderr(&o));
            // These always apply on a tree gsd keeps consistent.
            if matches!(s, Step::PhaseAdd(_) | Step::StateSetStatus(_) | Step::UpdateProgress) {
                prop_assert_eq!(code, Some(0), "{:?}: {}", argv, stderr(&o));
            }
            if code == Some(2) {
                // A refusal changes nothing.
                prop_assert_eq!(git(t.path(), &["rev-parse", "HEAD"]), head);
            }
            prop_assert_eq!(git(t.path(), &["status", "--porcelain"]), "", "{:?} left the tree dirty", argv);
            let mut f = findings(t.path());
            f.extend(state_drift(t.path()));
            prop_assert!(f.is_empty(), "after step {} {:?} of {:?}: {:#?}", i + 1, argv, steps, f);
        }
    }
}
