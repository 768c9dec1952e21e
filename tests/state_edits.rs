//! `gsd state set` edits one field, predictably: a label shown on several
//! body lines is refused with the lines listed (it is not a field), setting
//! the value `state get` shows changes no byte and commits nothing, and a
//! current-phase change keeps the text after the number.

mod common;

use common::*;

const STATE: &str = "---\nstatus: planning\ncurrent_phase: 06\n---\n# Project State\n\n## Current Position\n\nPhase: 06\nStatus: Ready to plan\n\n## Accumulated Context\n\n### Decisions\n\n- Phase 3: use Postgres\n- Phase 3: keep the API private\n- Phase 4: ship weekly\n";

fn setup() -> tempfile::TempDir {
    let t = tree("clean");
    std::fs::write(t.path().join(".planning/STATE.md"), STATE).unwrap();
    for d in ["04-x", "06-y", "09-z", "16-cleanup"] {
        std::fs::create_dir_all(t.path().join(".planning/phases").join(d)).unwrap();
        std::fs::write(
            t.path().join(".planning/phases").join(d).join(".gitkeep"),
            "",
        )
        .unwrap();
    }
    git(t.path(), &["init", "-q", "-b", "main"]);
    git(t.path(), &["config", "user.email", "test@example.com"]);
    git(t.path(), &["config", "user.name", "Test"]);
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "init"]);
    t
}

fn state(t: &tempfile::TempDir) -> String {
    std::fs::read_to_string(t.path().join(".planning/STATE.md")).unwrap()
}

#[test]
fn a_label_on_several_lines_is_refused_with_the_lines() {
    let t = setup();
    let commits = git(t.path(), &["rev-list", "--count", "HEAD"]);
    let shown = stdout(&gsd(t.path(), &["state", "get", "Phase 3"]));
    let o = gsd(t.path(), &["state", "set", "Phase 3", shown.trim_end()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("names 2 lines") && err.contains("line 16") && err.contains("line 17"),
        "{err}"
    );
    assert_eq!(state(&t), STATE);
    assert_eq!(git(t.path(), &["rev-list", "--count", "HEAD"]), commits);
    // A label on one line is a field.
    let o = gsd(t.path(), &["state", "set", "Phase 4", "ship daily"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(state(&t).contains("- Phase 4: ship daily\n"));
}

#[test]
fn setting_the_shown_value_changes_nothing() {
    let t = setup();
    let commits = git(t.path(), &["rev-list", "--count", "HEAD"]);
    for field in ["Status", "status", "Phase", "current_phase"] {
        let shown = stdout(&gsd(t.path(), &["state", "get", field]));
        let o = gsd(t.path(), &["state", "set", field, shown.trim_end()]);
        assert_eq!(o.status.code(), Some(0), "{field}: {}", stderr(&o));
        assert_eq!(state(&t), STATE, "{field}");
    }
    assert_eq!(git(t.path(), &["rev-list", "--count", "HEAD"]), commits);
    // A real change writes both places, each changed line only.
    let o = gsd(t.path(), &["state", "set", "Status", "Blocked"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = state(&t);
    assert!(after.contains("status: Blocked\n") && after.contains("Status: Blocked\n"));
}

#[test]
fn current_focus_follows_the_current_phase() {
    let t = setup();
    let s = STATE.replace(
        "## Current Position\n",
        "## Project Reference\n\nCurrent focus: Phase 6 — Old name\n\n## Current Position\n",
    );
    std::fs::write(t.path().join(".planning/STATE.md"), &s).unwrap();
    let o = gsd(
        t.path(),
        &["state", "set", "currentPhase", "9", "--no-commit"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = state(&t);
    let line = after
        .lines()
        .find(|l| l.starts_with("Current focus:"))
        .unwrap();
    assert!(line.starts_with("Current focus: Phase 9 — "), "{line}");
    assert!(!line.contains("Old name"), "{line}");
}

#[test]
fn current_phase_keeps_the_text_after_the_number() {
    let t = setup();
    let s = STATE.replace("Phase: 06\n", "Phase: 16 - Cleanup\n");
    std::fs::write(t.path().join(".planning/STATE.md"), &s).unwrap();
    let o = gsd(
        t.path(),
        &["state", "set", "currentPhase", "9", "--no-commit"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = state(&t);
    let line = after.lines().find(|l| l.starts_with("Phase: ")).unwrap();
    assert!(line.starts_with("Phase: 9"), "{line}");
    assert!(
        line.len() > "Phase: 9".len(),
        "the text after the number was dropped: {line}"
    );
    assert!(!line.contains("16"), "{line}");
}

/// A list added to STATE.md goes where GSD keeps lists: after a table the
/// section already holds (a blank line apart, so the table stays a table),
/// or, when the section is new, at the end of `## Accumulated Context`.
#[test]
fn list_entries_go_after_tables_and_new_lists_under_accumulated_context() {
    let t = setup();
    let with_table = "# Project State\n\n## Accumulated Context\n\n### Decisions\n\n| Phase | Decision |\n|---|---|\n| 3 | Postgres |\n\n## Session Continuity\n\nLast session: today\n";
    std::fs::write(t.path().join(".planning/STATE.md"), with_table).unwrap();
    // Committed first: a committing write refuses a file with uncommitted
    // edits of the user's (tests/faults.rs).
    git(t.path(), &["commit", "-qam", "hand edit"]);
    let o = gsd(
        t.path(),
        &["state", "decision", "add", "[Phase 4]: ship weekly"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = gsd(t.path(), &["state", "blocker", "add", "API key missing"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        state(&t),
        "# Project State\n\n## Accumulated Context\n\n### Decisions\n\n| Phase | Decision |\n|---|---|\n| 3 | Postgres |\n\n- [Phase 4]: ship weekly\n\n### Blockers/Concerns\n\n- API key missing\n\n## Session Continuity\n\nLast session: today\n"
    );
}

#[test]
fn a_label_named_as_written_wins_over_its_synonym() {
    // The legacy counter beside the Current Position line: `Current Plan`
    // and `Plan` are one field key, yet each name means its own line.
    let t = setup();
    let legacy = STATE.replace(
        "# Project State\n",
        "# Project State\n\n**Current Plan:** 2\n**Total Plans in Phase:** 3\n",
    );
    let legacy = legacy
        .replace("Phase: 06\n", "Phase: 06\nPlan: 2 of 3 in current phase\n")
        .replace(
            "current_phase: 06\n",
            "current_phase: 06\ncurrent_plan: 2\n",
        );
    std::fs::write(t.path().join(".planning/STATE.md"), &legacy).unwrap();
    // Committed first: a committing write refuses a file with uncommitted
    // edits of the user's (tests/faults.rs).
    git(t.path(), &["commit", "-qam", "hand edit"]);
    let o = gsd(t.path(), &["state", "set", "Current Plan", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = state(&t);
    assert!(after.contains("**Current Plan:** 3\n"), "{after}");
    assert!(after.contains("Plan: 2 of 3 in current phase\n"), "{after}");
    let o = gsd(
        t.path(),
        &["state", "set", "Plan", "3 of 3 in current phase"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = state(&t);
    assert!(after.contains("**Current Plan:** 3\n"), "{after}");
    assert!(after.contains("Plan: 3 of 3 in current phase\n"), "{after}");
    // The frontmatter copy follows the body's text, whatever its type was.
    let o = gsd(t.path(), &["state", "set", "Current Plan", "Not started"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = state(&t);
    assert!(after.contains("current_plan: Not started\n"), "{after}");
    assert!(after.contains("**Current Plan:** Not started\n"), "{after}");
    // The key spelling of a label is that label.
    let o = gsd(t.path(), &["state", "set", "currentPlan", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = state(&t);
    assert!(after.contains("**Current Plan:** 4\n"), "{after}");
    // Text it now is: a number stays text, quoted.
    assert!(after.contains("current_plan: \"4\"\n"), "{after}");
    assert!(after.contains("Plan: 3 of 3 in current phase\n"), "{after}");
}

/// A long value is written whole, and the commit subject stays one short
/// line (the value cut with `…`).
#[test]
fn a_long_value_keeps_the_commit_subject_short() {
    let t = setup();
    let long = "plan 13-01: workstreams, the reading's evidence classes, lint's live scope, labels and judged samples";
    let o = gsd(t.path(), &["state", "set", "Status", long]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(state(&t).contains(&format!("Status: {long}")));
    let subject = git(t.path(), &["log", "-1", "--format=%s"]);
    let subject = subject.trim();
    assert!(
        subject.starts_with("docs(state): status Ready to plan → plan 13-01"),
        "{subject}"
    );
    assert!(
        subject.ends_with('…') && subject.chars().count() < 100,
        "{subject}"
    );
}

/// STATE.md's frontmatter lists, mappings and `|` blocks: the value
/// `state get` shows, passed back through `$(…)` (its last line break
/// gone), changes no byte and commits nothing; a new `progress` given as
/// JSON (what `state get` shows) keeps the block mapping, one line changed.
#[test]
fn frontmatter_collections_and_blocks_set_back_change_nothing() {
    let t = setup();
    let text = "---\nstatus: planning\ncurrent_phase: 06\nprogress:\n  total_phases: 9\n  completed_phases: 2\n  percent: 22\nblockers:\n  - \"waiting: API key\"\n  - design review\nnotes: |\n  first line\n  second line\n---\n# Project State\n\n## Current Position\n\nPhase: 06\n";
    std::fs::write(t.path().join(".planning/STATE.md"), text).unwrap();
    git(t.path(), &["commit", "-qam", "frontmatter"]);
    let commits = git(t.path(), &["rev-list", "--count", "HEAD"]);
    for field in ["progress", "blockers", "notes"] {
        let shown = stdout(&gsd(t.path(), &["state", "get", field]));
        let o = gsd(
            t.path(),
            &["state", "set", field, shown.trim_end_matches('\n')],
        );
        assert_eq!(o.status.code(), Some(0), "{field}: {}", stderr(&o));
        assert_eq!(state(&t), text, "{field}: {shown:?}");
    }
    assert_eq!(git(t.path(), &["rev-list", "--count", "HEAD"]), commits);
    let o = gsd(
        t.path(),
        &[
            "state",
            "set",
            "progress",
            r#"{"total_phases": 9, "completed_phases": 3, "percent": 33}"#,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        state(&t),
        text.replace(
            "completed_phases: 2\n  percent: 22",
            "completed_phases: 3\n  percent: 33"
        )
    );
    let o = gsd(
        t.path(),
        &["state", "set", "notes", "first line\nthird line"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        state(&t).contains("notes: |\n  first line\n  third line\n---\n"),
        "{}",
        state(&t)
    );
}
