//! What each rule may flag: live work, at the severity the finding earns.
//! Each test starts from what a user has (`git init`, `gsd init`), makes
//! one shape real trees hold, and shows the rule still firing on live work
//! and saying only info (or nothing) about finished, archived or deferred
//! work, or a tree GSD has not started yet.

mod common;

use std::path::Path;

use common::gsd;
use serde_json::Value;

fn project(phases: &[&str], reqs: &[&str]) -> tempfile::TempDir {
    common::gsd_init(phases, reqs)
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn edit(root: &Path, rel: &str, from: &str, to: &str) {
    let p = root.join(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{rel} has no {from:?}");
    std::fs::write(p, text.replacen(from, to, 1)).unwrap();
}

/// A plan in GSD's current format (`reqs` its requirement IDs).
fn plan(phase: &str, n: &str, reqs: &str) -> String {
    format!(
        "---\nphase: {phase}\nplan: {n}\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: [src/{phase}-{n}.txt]\nautonomous: true\nrequirements: [{reqs}]\nmust_haves:\n  artifacts:\n    - path: src/{phase}-{n}.txt\n---\n<tasks>\n<task type=\"auto\">\n<name>T</name>\n<files>src/{phase}-{n}.txt</files>\n<action>a</action>\n<verify>true</verify>\n<done>d</done>\n</task>\n</tasks>\n"
    )
}

/// Plans `NN-01..NN-count` in the phase folder, the first `ran` of them
/// with a SUMMARY.
fn plans(root: &Path, dir: &str, count: usize, ran: usize, reqs: &str) {
    let phase = &dir[..2];
    for i in 1..=count {
        let f = format!(".planning/phases/{dir}/{phase}-0{i}-PLAN.md");
        write(root, &f, &plan(phase, &format!("0{i}"), reqs));
        if i <= ran {
            write(root, &f.replace("PLAN", "SUMMARY"), "# Summary\n\nDone.\n");
        }
    }
}

/// The findings of `code` that `gsd lint --format json` reports.
fn findings(root: &Path, code: &str) -> Vec<Value> {
    let o = gsd(root, &["lint", "--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout).expect("lint --format json");
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .cloned()
        .collect()
}

/// Severities of the findings of `code` (errors and warnings fail CI).
fn severities(root: &Path, code: &str) -> Vec<String> {
    findings(root, code)
        .iter()
        .map(|d| d["severity"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn plans_put_aside_under_phases_archived_are_history() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let old = "---\nphase: 19-polish\nplan: 01\ntype: execute\n---\n<tasks>\n<task type=\"auto\"><name>T</name><action>a</action><verify>v</verify><done>d</done></task>\n</tasks>\n";
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        &old.replace("19-polish", "01-catalog"),
    );
    assert_eq!(severities(root, "plan-missing-field"), ["error"]);
    std::fs::remove_file(root.join(".planning/phases/01-catalog/01-01-PLAN.md")).unwrap();
    write(
        root,
        ".planning/phases/_archived/19-polish/19-01-PLAN.md",
        old,
    );
    // GSD's plan scan reads a phase folder and its `plans/` only: a plan
    // put aside deeper is no plan of the live work, so nothing is said.
    assert!(severities(root, "plan-missing-field").is_empty());
}

#[test]
fn a_numbering_gap_before_finished_work_is_settled() {
    let t = project(&["Catalog", "Cart", "Checkout"], &[]);
    let root = t.path();
    let from = ".planning/phases/03-checkout";
    std::fs::rename(root.join(from), root.join(".planning/phases/05-checkout")).unwrap();
    edit(
        root,
        ".planning/ROADMAP.md",
        "Phase 3: Checkout**",
        "Phase 5: Checkout**",
    );
    edit(
        root,
        ".planning/ROADMAP.md",
        "### Phase 3: Checkout",
        "### Phase 5: Checkout",
    );
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 3. Checkout |",
        "| 5. Checkout |",
    );
    // Phase 5 is live work: renumbering it is still cheap.
    assert_eq!(severities(root, "phase-numbering-gap"), ["warning"]);
    plans(root, "05-checkout", 1, 1, "");
    assert_eq!(severities(root, "phase-numbering-gap"), ["info"]);
}

#[test]
fn a_box_ticked_early_is_drift_until_later_work_has_run() {
    let t = project(&["Catalog", "Cart", "Checkout"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 2, 1, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1",
        "- [x] **Phase 1",
    );
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["warning"]
    );
    plans(root, "02-cart", 1, 1, "");
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["info"]
    );
}

#[test]
fn a_progress_row_lagging_the_disk_is_drift_and_one_ahead_of_finished_work_is_not() {
    let t = project(&["Catalog", "Cart", "Checkout"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 2, 2, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 1. Catalog | 0/0 |",
        "| 1. Catalog | 0/2 |",
    );
    // The row says nothing ran; both plans did: `update-progress` fixes it.
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["warning"]);
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 1. Catalog | 0/2 |",
        "| 1. Catalog | 2/2 |",
    );
    std::fs::remove_file(root.join(".planning/phases/01-catalog/01-02-SUMMARY.md")).unwrap();
    // Ahead of the disk while phase 1 is the work at hand: drift.
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["warning"]);
    plans(root, "02-cart", 1, 1, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 2. Cart | 0/0 |",
        "| 2. Cart | 1/1 |",
    );
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["info"]);
}

#[test]
fn requirements_deferred_to_a_later_version_or_delivered_need_no_trace() {
    let t = project(&["Catalog", "Cart"], &["CAT-01: list", "CART-01: add"]);
    let root = t.path();
    edit(
        root,
        ".planning/REQUIREMENTS.md",
        "## v2 Requirements\n\nNone yet.",
        "## v12+ Requirements — 다음 마일스톤으로 미루기\n\n- [ ] **EXUI-02**: later\n\n## v2 Requirements\n\nNone yet.",
    );
    edit(
        root,
        ".planning/REQUIREMENTS.md",
        "| CAT-01 | TBD | Pending |\n",
        "",
    );
    // CAT-01 is live and untraced; EXUI-02 is deferred.
    assert_eq!(severities(root, "requirement-untraced"), ["warning"]);
    // Phase 1 delivers CAT-01 and is complete: tracing it now is history.
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Requirements**: TBD",
        "**Requirements**: CAT-01",
    );
    plans(root, "01-catalog", 1, 1, "CAT-01");
    assert!(severities(root, "requirement-untraced").is_empty());
}

#[test]
fn coverage_waits_until_the_phase_is_planned() {
    let t = project(&["Catalog"], &["CAT-01: list", "CAT-02: search"]);
    let root = t.path();
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Requirements**: TBD",
        "**Requirements**: CAT-01, CAT-02",
    );
    plans(root, "01-catalog", 1, 0, "CAT-01");
    // `gsd init` leaves STATE.md at "Ready to plan": plans are still coming.
    assert!(severities(root, "requirement-not-covered").is_empty());
    edit(
        root,
        ".planning/STATE.md",
        "Status: Ready to plan",
        "Status: Ready to execute",
    );
    assert_eq!(severities(root, "requirement-not-covered"), ["warning"]);
}

#[test]
fn fix_plans_are_not_counted_against_the_roadmap_plan_count() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Plans**: TBD",
        "**Plans**: 1 plans",
    );
    plans(root, "01-catalog", 1, 1, "");
    write(
        root,
        ".planning/phases/01-catalog/01-01-FIX-PLAN.md",
        &plan("01", "01", "").replace("type: execute", "type: fix"),
    );
    assert!(severities(root, "roadmap-plan-count-mismatch").is_empty());
    plans(root, "01-catalog", 2, 1, "");
    assert_eq!(severities(root, "roadmap-plan-count-mismatch"), ["warning"]);
}

#[test]
fn depends_on_a_whole_earlier_phase_by_its_folder_resolves() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 1, 1, "");
    plans(root, "02-cart", 1, 0, "");
    let f = ".planning/phases/02-cart/02-01-PLAN.md";
    edit(root, f, "depends_on: []", "depends_on: [01-catalog]");
    assert!(severities(root, "depends-on-unknown-plan").is_empty());
    edit(
        root,
        f,
        "depends_on: [01-catalog]",
        "depends_on: [01-catalogue]",
    );
    assert_eq!(severities(root, "depends-on-unknown-plan"), ["error"]);
}

#[test]
fn a_planning_folder_gsd_has_only_mapped_is_not_missing_files() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    common::git(root, &["init", "-q", "-b", "main"]);
    write(root, ".planning/codebase/STACK.md", "# Stack\n\nRust.\n");
    let o = gsd(root, &["lint", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stdout(&o));
    for code in ["project-missing", "config-missing"] {
        assert_eq!(severities(root, code), ["info"], "{code}");
    }
    // Once a phase exists the project has started: PROJECT.md is missing.
    write(
        root,
        ".planning/phases/01-core/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    assert_eq!(severities(root, "project-missing"), ["error"]);
}

#[test]
fn a_finished_phase_folder_with_a_bare_number_is_history() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    std::fs::rename(
        root.join(".planning/phases/02-cart"),
        root.join(".planning/phases/2"),
    )
    .unwrap();
    assert_eq!(severities(root, "phase-dir-bad-name"), ["warning"]);
    write(
        root,
        ".planning/phases/2/2-01-PLAN.md",
        &plan("2", "01", ""),
    );
    write(root, ".planning/phases/2/2-01-SUMMARY.md", "# Summary\n");
    assert_eq!(severities(root, "phase-dir-bad-name"), ["info"]);
}

#[test]
fn a_stale_position_between_milestones_is_a_record() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    edit(
        root,
        ".planning/STATE.md",
        "Phase: 1 of 1 (Catalog)",
        "Phase: 12 of 12 (Admin)",
    );
    assert_eq!(severities(root, "state-unknown-phase"), ["warning"]);
    edit(
        root,
        ".planning/ROADMAP.md",
        "## Phases\n",
        "## Milestones\n\n- ✅ **v1.0 Shop** - Phase 1 (shipped 2026-11-01)\n\n## Phases\n",
    );
    plans(root, "01-catalog", 1, 1, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1",
        "- [x] **Phase 1",
    );
    assert_eq!(severities(root, "state-unknown-phase"), ["info"]);
}

/// The drift between STATE.md and the tree is reported with both sides
/// (info: GSD's tools rewrite these on their next state update), and not
/// when they agree.
#[test]
fn state_drift_is_a_note_with_its_evidence() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 1, 1, "");
    let state = root.join(".planning/STATE.md");
    let body = std::fs::read_to_string(&state).unwrap();
    std::fs::write(
        &state,
        format!("---\nprogress:\n  total_plans: 1\n  completed_plans: 1\n---\n{body}"),
    )
    .unwrap();
    assert!(severities(root, "state-progress-stale").is_empty());
    // Phase 1 ran; STATE.md still names it, and the work is at phase 2.
    let stale = findings(root, "state-position-stale");
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert_eq!(stale[0]["severity"], "info");
    assert!(
        stale[0]["message"]
            .as_str()
            .unwrap()
            .contains("phase 1, which is complete (1 of 1 plans have a summary on disk); the work is at phase 2"),
        "{}",
        stale[0]["message"]
    );
    plans(root, "02-cart", 2, 0, "");
    let msgs: Vec<String> = findings(root, "state-progress-stale")
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        msgs,
        ["progress says 1/1 plans done; the roadmap's phase folders hold 1/3"]
    );
}

/// A fence inside `<action>` that swallows its `</action>` (a README example
/// nesting ```` ```bash ```` inside ```` ```markdown ````, which GSD's reader,
/// blind to fences, reads fine): one finding names the fence; the task's
/// `<verify>` and `<done>` after it are not called missing. A task that
/// really lacks them, fences closed, is still told.
#[test]
fn a_fence_that_hides_a_closing_tag_is_one_finding() {
    let t = project(&["Extract"], &[]);
    let root = t.path();
    let dir = std::fs::read_dir(root.join(".planning/phases"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("01"))
        .unwrap();
    let f = format!(".planning/phases/{dir}/01-01-PLAN.md");
    let nested = "<action>Write the README:\n```markdown\n# Tool\n```bash\nrun it\n```\nMore.\n```\n</action>\n<verify>\n```bash\ntrue\n```\n</verify>\n<done>d</done>";
    write(
        root,
        &f,
        &plan("01", "01", "R-1").replace(
            "<action>a</action>\n<verify>true</verify>\n<done>d</done>",
            nested,
        ),
    );
    assert_eq!(findings(root, "task-unbalanced-tag").len(), 1);
    assert!(findings(root, "task-missing-recommended").is_empty());
    assert!(findings(root, "task-missing-required").is_empty());
    // Fences closed, children really missing: still reported.
    write(
        root,
        &f,
        &plan("01", "01", "R-1").replace("<verify>true</verify>\n<done>d</done>\n", ""),
    );
    assert!(findings(root, "task-unbalanced-tag").is_empty());
    assert_eq!(findings(root, "task-missing-recommended").len(), 1);
}

/// `Phase: 0. Pre-planning` (or `current_phase: 0`) while the next
/// milestone is planned names no phase: GSD numbers from 1. A phase 0 the
/// roadmap does have is checked like any other, and a missing phase 3 is
/// still reported.
#[test]
fn phase_zero_before_planning_is_no_phase() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    edit(
        root,
        ".planning/STATE.md",
        "Phase: 1 of 1 (Catalog)",
        "Phase: 0. Pre-planning",
    );
    assert!(severities(root, "state-unknown-phase").is_empty());
    edit(
        root,
        ".planning/STATE.md",
        "Phase: 0. Pre-planning",
        "Phase: 3 of 3",
    );
    assert_eq!(severities(root, "state-unknown-phase"), ["warning"]);
}

/// A live plan in the format the project's plans already ran in (only
/// `phase`, `plan`, `type`: GSD's executor defaults `wave` to 1 and the
/// lists to empty) is a warning; a live plan that lacks a key every plan
/// that ran had is still an error.
#[test]
fn missing_keys_the_project_ran_without_are_a_warning() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    let old = "---\nphase: NN\nplan: 01\ntype: execute\n---\n<tasks>\n<task type=\"auto\"><name>T</name><files>a.txt</files><action>a</action><verify>v</verify><done>d</done></task>\n</tasks>\n";
    write(
        root,
        ".planning/phases/02-cart/02-01-PLAN.md",
        &old.replace("NN", "02"),
    );
    // No plan has run: nothing says the format works here.
    assert_eq!(severities(root, "plan-missing-field"), ["error"]);
    // Phase 1's plan ran in the same format.
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        &old.replace("NN", "01"),
    );
    write(
        root,
        ".planning/phases/01-catalog/01-01-SUMMARY.md",
        "# Summary\n",
    );
    assert_eq!(severities(root, "plan-missing-field"), ["info", "warning"]);
    // The plan that ran had a `wave:`; the live one lacks that too.
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        &old.replace("NN", "01")
            .replace("type: execute\n", "type: execute\nwave: 1\n"),
    );
    assert_eq!(severities(root, "plan-missing-field"), ["info", "error"]);
}

/// A traceability row that covers a range (`UXP-01 to UXP-03 | Phase 1`)
/// traces every requirement in it; one the range leaves out is still
/// reported. A plan put aside in an `archive/` folder inside its phase
/// folder is history.
#[test]
fn trace_ranges_and_plans_put_aside_inside_a_phase() {
    let t = project(
        &["Catalog"],
        &["UXP-01: a", "UXP-02: b", "UXP-03: c", "UXP-04: d"],
    );
    let root = t.path();
    let req = std::fs::read_to_string(root.join(".planning/REQUIREMENTS.md")).unwrap();
    let (head, _) = req
        .split_once("## Traceability")
        .expect("gsd init writes a Traceability table");
    write(
        root,
        ".planning/REQUIREMENTS.md",
        &format!(
            "{head}## Traceability\n\n| Requirement | Phase | Status |\n|---|---|---|\n| UXP-01 to UXP-03 | Phase 1 | Pending |\n"
        ),
    );
    let untraced: Vec<String> = findings(root, "requirement-untraced")
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(untraced.len(), 1, "{untraced:?}");
    assert!(untraced[0].contains("UXP-04"), "{untraced:?}");

    let bad = "---\nphase: 01\nplan: 04\n---\nno tasks\n";
    write(
        root,
        ".planning/phases/01-catalog/archive/01-04-PLAN.md",
        bad,
    );
    // Put aside in a subfolder GSD's plan scan does not read: no plan.
    assert!(severities(root, "plan-no-tasks").is_empty());
    write(root, ".planning/phases/01-catalog/01-04-PLAN.md", bad);
    assert!(severities(root, "plan-no-tasks").contains(&"warning".to_owned()));
}

/// `### Phase C — Name`: a letter (or capitals) ID before a dash heads the
/// phase's details as `### Phase C: Name` does; the checklist entry has its
/// section and the reading finds the phase's name there.
#[test]
fn letter_phase_ids_before_a_dash_head_their_details() {
    let t = project(&["Setup"], &[]);
    let d = t.path();
    edit(
        d,
        ".planning/ROADMAP.md",
        "## Phase Details",
        "- [ ] **Phase A: Mobile scaffold** — native app\n- [ ] **Phase B: Parity** — port the rest\n\n## Phase Details\n\n### Phase A — Mobile scaffold\n\n**Goal:** an app\n\n### Phase B – Parity\n\n**Goal:** the rest\n",
    );
    assert_eq!(
        findings(d, "roadmap-checklist-without-details"),
        Vec::<Value>::new()
    );
    // Without the dash sections, each entry is reported: the rule still fires.
    edit(
        d,
        ".planning/ROADMAP.md",
        "### Phase A — Mobile scaffold",
        "### Mobile scaffold",
    );
    edit(
        d,
        ".planning/ROADMAP.md",
        "### Phase B – Parity",
        "### Parity",
    );
    let lines: Vec<String> = findings(d, "roadmap-checklist-without-details")
        .iter()
        .map(|f| f["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].contains("phase A") && lines[1].contains("phase B"),
        "{lines:?}"
    );
    assert_eq!(
        severities(d, "roadmap-checklist-without-details"),
        ["warning", "warning"]
    );
    // A ticked phase has run: its missing section is a record, info.
    edit(
        d,
        ".planning/ROADMAP.md",
        "- [ ] **Phase A: Mobile scaffold**",
        "- [x] **Phase A: Mobile scaffold**",
    );
    assert_eq!(
        severities(d, "roadmap-checklist-without-details"),
        ["info", "warning"]
    );
}

/// A progress row and the disk that both say a phase is done, for a phase
/// the work has moved past, differ only in a finished phase's count: info.
/// While the phase is the work at hand, the same difference is drift.
#[test]
fn a_finished_phase_whose_row_and_disk_both_say_done_differs_only_in_history() {
    let t = project(&["Catalog", "Cart", "Checkout"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 3, 3, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 1. Catalog | 0/0 |",
        "| 1. Catalog | 2/2 |",
    );
    // Phase 1 is still the work at hand: the row lags the disk.
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["warning"]);
    plans(root, "02-cart", 1, 1, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 2. Cart | 0/0 |",
        "| 2. Cart | 1/1 |",
    );
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["info"]);
}

/// `status: unknown` (GSD's placeholder when the body has no `Status:`
/// line) and a position line that itself says `COMPLETE` contradict no
/// ticked roadmap entry; a status that says work is under way does.
#[test]
fn a_placeholder_status_or_a_complete_position_contradicts_no_ticked_phase() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 1, 1, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1",
        "- [x] **Phase 1",
    );
    let state = std::fs::read_to_string(root.join(".planning/STATE.md")).unwrap();
    let status_line = state
        .lines()
        .find(|l| l.starts_with("Status:"))
        .expect("a Status: line")
        .to_owned();
    edit(
        root,
        ".planning/STATE.md",
        &status_line,
        "Status: Executing",
    );
    assert_eq!(severities(root, "state-phase-complete-status"), ["warning"]);
    // `CLOSED — human-approved`, `Abgeschlossen`: complete in other words.
    for done in ["CLOSED — human-approved 2026-05-07", "Abgeschlossen"] {
        edit(
            root,
            ".planning/STATE.md",
            "Status: Executing",
            &format!("Status: {done}"),
        );
        assert_eq!(
            severities(root, "state-phase-complete-status"),
            Vec::<String>::new(),
            "{done}"
        );
        edit(
            root,
            ".planning/STATE.md",
            &format!("Status: {done}"),
            "Status: Executing",
        );
    }
    let phase_line = state
        .lines()
        .find(|l| l.starts_with("Phase:"))
        .expect("a Phase: line")
        .to_owned();
    edit(
        root,
        ".planning/STATE.md",
        &phase_line,
        "Phase: 1 of 2 (Catalog) — COMPLETE",
    );
    assert_eq!(
        severities(root, "state-phase-complete-status"),
        Vec::<String>::new()
    );
    edit(
        root,
        ".planning/STATE.md",
        "Phase: 1 of 2 (Catalog) — COMPLETE",
        &phase_line,
    );
    edit(root, ".planning/STATE.md", "Status: Executing", "");
    edit(
        root,
        ".planning/STATE.md",
        "# Project State",
        "---\nstatus: unknown\n---\n# Project State",
    );
    assert_eq!(
        severities(root, "state-phase-complete-status"),
        Vec::<String>::new()
    );
}

/// GSD schedules every `*-PLAN.md` (`05-02B-PLAN.md` too): a name that is
/// not NN-MM but still ends in `-PLAN.md` is a note, info. A loose name
/// GSD only counts (`01-PLAN-02.md`) is still a warning.
#[test]
fn plan_names_gsd_schedules_are_info_and_loose_ones_warnings() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/phases/01-catalog/01-02B-PLAN.md",
        &plan("01", "02B", ""),
    );
    assert_eq!(severities(root, "plan-noncanonical-name"), ["info"]);
    std::fs::remove_file(root.join(".planning/phases/01-catalog/01-02B-PLAN.md")).unwrap();
    write(
        root,
        ".planning/phases/01-catalog/01-PLAN-02.md",
        &plan("01", "02", ""),
    );
    assert_eq!(severities(root, "plan-noncanonical-name"), ["warning"]);
}

/// A checklist entry without a detail section: a warning while the phase
/// is still to do; info once every plan of it has run, ticked or not (a
/// `[~]` box a roadmap keeps open for outstanding browser tests).
#[test]
fn a_finished_phase_without_a_detail_section_is_history() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    edit(
        root,
        ".planning/ROADMAP.md",
        "## Phase Details",
        "- [~] **Phase 3: Media** — lightbox\n\n## Phase Details",
    );
    plans(root, "03-media", 2, 1, "");
    assert_eq!(
        severities(root, "roadmap-checklist-without-details"),
        ["warning"]
    );
    plans(root, "03-media", 2, 2, "");
    assert_eq!(
        severities(root, "roadmap-checklist-without-details"),
        ["info"]
    );
}

/// A project whose plans ran without some schema keys: a live plan that
/// also leaves out one GSD's executor fills with the value plans state
/// anyway (`autonomous: true`) is a warning; one that leaves out `wave`
/// (plans of later waves say theirs) is still an error.
#[test]
fn executor_defaults_beyond_the_projects_format_are_a_warning() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    let ran = "---\nphase: 01\nwave: 1\ndepends_on: []\nfiles_modified: [a.txt]\nautonomous: true\n---\n<tasks>\n<task type=\"auto\"><name>T</name><files>a.txt</files><action>a</action><verify>v</verify><done>d</done></task>\n</tasks>\n";
    write(root, ".planning/phases/01-catalog/01-01-PLAN.md", ran);
    write(
        root,
        ".planning/phases/01-catalog/01-01-SUMMARY.md",
        "# Summary\n",
    );
    let live = ran
        .replace("phase: 01", "phase: 02")
        .replace("autonomous: true\n", "");
    write(root, ".planning/phases/02-cart/02-01-PLAN.md", &live);
    assert_eq!(severities(root, "plan-missing-field"), ["info", "warning"]);
    write(
        root,
        ".planning/phases/02-cart/02-01-PLAN.md",
        &live.replace("wave: 1\n", ""),
    );
    assert_eq!(severities(root, "plan-missing-field"), ["info", "error"]);
}

/// `05-DISCUSS-SUMMARY.md` sums up a phase's discussion, not a plan: it
/// needs no PLAN.md. A summary that names a plan nobody wrote still does.
#[test]
fn a_phase_report_summary_is_no_orphan() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 1, 0, "");
    write(
        root,
        ".planning/phases/01-catalog/01-DISCUSS-SUMMARY.md",
        "---\ntitle: Discuss-phase synthesis\n---\n# Synthesis\n",
    );
    assert!(findings(root, "orphan-summary").is_empty());
    write(
        root,
        ".planning/phases/01-catalog/01-07-SUMMARY.md",
        "# Summary\n",
    );
    assert_eq!(severities(root, "orphan-summary"), ["warning"]);
}

/// Requirements kept in a section of another milestone (`## Parked
/// Milestone v1.18 requirements` in v1.20's file) or a backlog are not this
/// milestone's to trace; the file's own version's section still is.
#[test]
fn requirements_parked_for_another_milestone_need_no_trace() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/REQUIREMENTS.md",
        "# Requirements: Shop — Milestone v1.20\n\n## v1.20 Requirements\n\n- [ ] **CAT-01**: list\n- [ ] **CAT-02**: search\n\n## Parked Milestone v1.18 requirements (not v1.20 scope)\n\n- [ ] **MT5-07**: oracle\n\n## Backlog\n\n- [ ] **IDEA-01**: later\n\n## Traceability\n\n| Requirement | Phase | Status |\n|---|---|---|\n| CAT-01 | Phase 1 | Pending |\n",
    );
    let f = findings(root, "requirement-untraced");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0]["message"].as_str().unwrap().contains("CAT-02"));
}

/// `**Plans**: TBD (likely 2-3 plans)` is an estimate made before planning,
/// not a count to hold the disk to; `**Plans**: 3 plans` is.
#[test]
fn a_plan_estimate_is_no_count() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 1, 0, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Plans**: TBD",
        "**Plans**: TBD (likely 2-3 plans)",
    );
    assert!(findings(root, "roadmap-plan-count-mismatch").is_empty());
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Plans**: TBD (likely 2-3 plans)",
        "**Plans**: 3 plans",
    );
    assert_eq!(severities(root, "roadmap-plan-count-mismatch"), ["warning"]);
}

/// A phase ticked without its summaries is drift while it is the work at
/// hand; once STATE.md has the work on a later phase (whose plans have not
/// run yet), the missing summaries are a finished phase's record.
#[test]
fn a_box_ticked_early_is_history_once_state_is_on_a_later_phase() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 2, 0, "");
    plans(root, "02-cart", 1, 0, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1",
        "- [x] **Phase 1",
    );
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["warning"]
    );
    let o = gsd(root, &["state", "set", "currentPhase", "2", "--no-commit"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["info"]
    );
}

/// A file that is not UTF-8 weighs by who reads it: a live plan is an error
/// (GSD's tools cannot read it), a live phase's notes a warning (its agents
/// read them), a retrospective or an archived plan info.
#[test]
fn a_file_not_utf8_weighs_by_who_reads_it() {
    let t = project(&["Core", "Next"], &[]);
    let root = t.path();
    plans(root, "01-core", 1, 0, "");
    let latin1 = |rel: &str, head: &str| {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let mut bytes = head.as_bytes().to_vec();
        bytes.extend_from_slice(b"\nCaf\xe9 notes\n");
        std::fs::write(p, bytes).unwrap();
    };
    latin1(
        ".planning/phases/01-core/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    latin1(".planning/phases/01-core/01-CONTEXT.md", "# Context");
    latin1(".planning/RETROSPECTIVE.md", "# Retrospective");
    latin1(
        ".planning/milestones/v0.9-phases/01-old/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    let by_file: Vec<(String, String)> = findings(root, "file-not-utf8")
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_owned(),
                d["severity"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let of = |suffix: &str| {
        by_file
            .iter()
            .find(|(f, _)| f.ends_with(suffix))
            .map(|(_, s)| s.as_str())
    };
    assert_eq!(
        of("phases/01-core/01-01-PLAN.md"),
        Some("error"),
        "{by_file:?}"
    );
    assert_eq!(of("01-CONTEXT.md"), Some("warning"), "{by_file:?}");
    assert_eq!(of("RETROSPECTIVE.md"), Some("info"), "{by_file:?}");
    assert_eq!(of("01-old/01-01-PLAN.md"), Some("info"), "{by_file:?}");
    // A phase appended in UTF-16 is valid UTF-8 full of NULs: named too.
    let rm = root.join(".planning/ROADMAP.md");
    let mut bytes = std::fs::read(&rm).unwrap();
    for c in "### Phase 9: Late\n".encode_utf16() {
        bytes.extend_from_slice(&c.to_le_bytes());
    }
    std::fs::write(&rm, bytes).unwrap();
    let roadmap: Vec<Value> = findings(root, "file-not-utf8")
        .into_iter()
        .filter(|d| d["file"] == ".planning/ROADMAP.md")
        .collect();
    assert_eq!(roadmap.len(), 1, "{roadmap:?}");
    assert_eq!(roadmap[0]["severity"], "error");
    assert!(
        roadmap[0]["message"].as_str().unwrap().contains("NUL"),
        "{roadmap:?}"
    );
}

/// A folder named by its phase's name alone (`form-modeler` for `Phase 1:
/// form-modeler`) is not NN-slug: a warning while that phase is live, info
/// once the roadmap marks it complete.
#[test]
fn a_folder_named_for_a_finished_phase_is_history() {
    let t = project(&["Form modeler", "Refactor"], &[]);
    let root = t.path();
    std::fs::rename(
        root.join(".planning/phases/01-form-modeler"),
        root.join(".planning/phases/form-modeler"),
    )
    .unwrap();
    assert_eq!(severities(root, "phase-dir-bad-name"), ["warning"]);
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1: Form modeler**",
        "- [x] **Phase 1: Form modeler**",
    );
    assert_eq!(severities(root, "phase-dir-bad-name"), ["info"]);
}

/// A live task in the task format the project's plans already ran in
/// (`<title>`, `<acceptance_criteria>` for `<name>`, `<done>`) is a
/// warning, not an error: the executor ran it. A child no task that ran
/// went without is still an error.
#[test]
fn task_children_the_project_ran_without_are_a_warning() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    let own = |phase: &str, body: &str| {
        plan(phase, "01", "").replace(
            "<task type=\"auto\">\n<name>T</name>\n<files>src/NN-01.txt</files>\n<action>a</action>\n<verify>true</verify>\n<done>d</done>\n</task>".replace("NN", phase).as_str(),
            &format!("<task type=\"auto\" id=\"1\">\n<title>T</title>\n<files>src/{phase}-01.txt</files>\n{body}<verify>true</verify>\n<acceptance_criteria>ok</acceptance_criteria>\n</task>"),
        )
    };
    write(
        root,
        ".planning/phases/02-cart/02-01-PLAN.md",
        &own("02", "<action>a</action>\n"),
    );
    assert_eq!(severities(root, "task-missing-required"), ["error"]);
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        &own("01", "<action>a</action>\n"),
    );
    write(
        root,
        ".planning/phases/01-catalog/01-01-SUMMARY.md",
        "# S\n",
    );
    assert_eq!(
        severities(root, "task-missing-required"),
        ["info", "warning"]
    );
    // The live task also lacks <action>, which the task that ran had.
    write(
        root,
        ".planning/phases/02-cart/02-01-PLAN.md",
        &own("02", ""),
    );
    assert_eq!(severities(root, "task-missing-required"), ["info", "error"]);
}

/// A plan STATE.md records as executed — a row of GSD's performance
/// metrics table (`| Phase 02 P01 | 6min | 4 tasks | 5 files |`) or its
/// `Completed 02-01-PLAN.md` stop line — has run, though its SUMMARY was
/// never written: findings about its markup are history.
#[test]
fn a_plan_state_records_as_executed_is_history() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 1, 1, "");
    write(
        root,
        ".planning/phases/02-cart/02-01-PLAN.md",
        &plan("02", "01", "").replace("<done>d</done>\n", ""),
    );
    assert_eq!(severities(root, "task-missing-recommended"), ["warning"]);
    let state = std::fs::read_to_string(root.join(".planning/STATE.md")).unwrap();
    write(
        root,
        ".planning/STATE.md",
        &format!(
            "{state}\n## Performance Metrics\n\n| Plan | Duration | Tasks | Files |\n|---|---|---|---|\n| Phase 02 P01 | 6min | 4 tasks | 5 files |\n"
        ),
    );
    assert_eq!(severities(root, "task-missing-recommended"), ["info"]);
    write(
        root,
        ".planning/STATE.md",
        &format!("{state}\nStopped at: Completed 02-01-PLAN.md\n"),
    );
    assert_eq!(severities(root, "task-missing-recommended"), ["info"]);
    // Another plan's row says nothing about this one.
    write(
        root,
        ".planning/STATE.md",
        &format!("{state}\n| Phase 02 P02 | 6min | 4 tasks | 5 files |\n"),
    );
    assert_eq!(severities(root, "task-missing-recommended"), ["warning"]);
}

/// `wave: 2a` is a type error, and GSD's executor runs the plan in wave 2
/// (parseInt): the overlap rule compares it with wave 2, not wave 1.
#[test]
fn a_wave_written_with_a_suffix_runs_in_its_number() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let f = |n: &str, wave: &str| {
        plan("01", n, "")
            .replace("wave: 1", &format!("wave: {wave}"))
            .replace(
                &format!("files_modified: [src/01-{n}.txt]"),
                "files_modified: [src/shared.txt]",
            )
    };
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        &f("01", "1"),
    );
    write(
        root,
        ".planning/phases/01-catalog/01-02-PLAN.md",
        &f("02", "2a"),
    );
    assert_eq!(severities(root, "plan-field-type"), ["error"]);
    assert!(severities(root, "files-modified-overlap").is_empty());
    // Another wave-1 plan on the same file still overlaps.
    write(
        root,
        ".planning/phases/01-catalog/01-03-PLAN.md",
        &f("03", "1"),
    );
    assert_eq!(severities(root, "files-modified-overlap"), ["warning"]);
    // Unless it depends on the other: then the wave is wrong (wave-order's
    // error), and the overlap is not said twice.
    write(
        root,
        ".planning/phases/01-catalog/01-03-PLAN.md",
        &f("03", "1").replace("depends_on: []", "depends_on: [01-01]"),
    );
    assert!(severities(root, "files-modified-overlap").is_empty());
    assert_eq!(severities(root, "wave-order"), ["error"]);
}

/// A live plan without frontmatter, where plans of the project ran
/// without it too, is a warning (the executor ran that format); with no
/// such plan that ran, an error.
#[test]
fn a_plan_without_frontmatter_in_the_projects_own_format_is_a_warning() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    let bare = "# Plan\n\n<tasks>\n<task type=\"auto\"><name>T</name><files>a.txt</files><action>a</action><verify>v</verify><done>d</done></task>\n</tasks>\n";
    write(root, ".planning/phases/02-cart/02-01-PLAN.md", bare);
    assert_eq!(severities(root, "plan-no-frontmatter"), ["error"]);
    write(root, ".planning/phases/01-catalog/01-01-PLAN.md", bare);
    write(
        root,
        ".planning/phases/01-catalog/01-01-SUMMARY.md",
        "# S\n",
    );
    assert_eq!(severities(root, "plan-no-frontmatter"), ["info", "warning"]);
}

/// A plan in the same wave as a plan it depends on is an error while both
/// are still to run; once the dependency has run, the order cannot go
/// wrong any more: info.
#[test]
fn wave_order_after_the_dependency_ran_is_info() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 2, 0, "");
    edit(
        root,
        ".planning/phases/01-catalog/01-02-PLAN.md",
        "depends_on: []",
        "depends_on: [01-01]",
    );
    assert_eq!(severities(root, "wave-order"), ["error"]);
    write(
        root,
        ".planning/phases/01-catalog/01-01-SUMMARY.md",
        "# Summary\n",
    );
    assert_eq!(severities(root, "wave-order"), ["info"]);
}

/// A backlog phase folder (`999.1-…`) that the roadmap names in a plain
/// line of its backlog list (`- Phase 999.1: CI hardening`) is in the
/// roadmap.
#[test]
fn a_backlog_folder_named_in_the_backlog_list_is_in_the_roadmap() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/phases/999.1-ci-hardening/999.1-CONTEXT.md",
        "# Context\n",
    );
    assert_eq!(severities(root, "phase-dir-not-in-roadmap").len(), 1);
    let rm = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        &format!("{rm}\n## Backlog\n\n- Phase 999.1: CI hardening (deferred)\n"),
    );
    assert!(severities(root, "phase-dir-not-in-roadmap").is_empty());
    // Phase 999.10 is not 999.1.
    write(
        root,
        ".planning/ROADMAP.md",
        &format!("{rm}\n## Backlog\n\n- Phase 999.10: CI hardening (deferred)\n"),
    );
    assert_eq!(severities(root, "phase-dir-not-in-roadmap").len(), 1);
}

/// A folder that holds only the summaries of finished work, whatever its
/// name (`m2s2-celery/`), is a record: `phase-dir-bad-name` says info. One
/// with a plan still to run (no summary pairs with it) is a warning.
#[test]
fn a_badly_named_folder_of_summaries_only_is_a_record() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/phases/m2s2-celery/SUMMARY.md",
        "# Summary\n",
    );
    assert_eq!(severities(root, "phase-dir-bad-name"), ["info"]);
    write(
        root,
        ".planning/phases/m2s2-celery/02-01-PLAN.md",
        &plan("02", "01", ""),
    );
    assert_eq!(severities(root, "phase-dir-bad-name"), ["warning"]);
}

/// A phase ticked complete whose progress row also says complete, with no
/// SUMMARY ever written: the work was done outside GSD's records, so the
/// missing summaries (and the row's count against the disk) are info. A
/// row that says the phase is still in progress keeps the warning.
#[test]
fn a_phase_marked_complete_twice_without_any_summary_is_history() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 2, 0, "");
    let with = |status: &str| {
        format!(
            "# Roadmap\n\n## Phases\n\n- [x] **Phase 1: Catalog**\n- [ ] **Phase 2: Cart**\n\n## Phase Details\n\n### Phase 1: Catalog\n**Goal**: c\n\n### Phase 2: Cart\n**Goal**: c\n\n## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n| 1. Catalog | 2/2 | {status} | 2026-05-02 |\n| 2. Cart | 0/0 | Not started | - |\n"
        )
    };
    write(root, ".planning/ROADMAP.md", &with("Complete"));
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["info"]
    );
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["info"]);
    write(root, ".planning/ROADMAP.md", &with("In Progress"));
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["warning"]
    );
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["warning"]);
    // A completion date on the ticked line says it a second time.
    write(
        root,
        ".planning/ROADMAP.md",
        &with("Planned").replace(
            "- [x] **Phase 1: Catalog**",
            "- [x] **Phase 1: Catalog** - c (Completed March 31, 2026)",
        ),
    );
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["info"]
    );
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["info"]);
}

/// A plan that only asks a person to verify (every task a checkpoint, no
/// file modified) has nothing a tool could check: its empty artifacts are
/// not a finding.
#[test]
fn a_verification_only_plan_needs_no_checkable_must_haves() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let checkpoint = "---\nphase: 01\nplan: 01\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: []\nautonomous: false\nmust_haves:\n  truths:\n    - the page looks right\n  artifacts: []\n---\n<tasks>\n<task type=\"checkpoint:human-verify\">\n<name>Look</name>\n<what-built>page</what-built>\n<how-to-verify>open it</how-to-verify>\n<resume-signal>approved</resume-signal>\n</task>\n</tasks>\n";
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        checkpoint,
    );
    assert!(severities(root, "must-haves-not-checkable").is_empty());
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        &checkpoint.replace("files_modified: []", "files_modified: [src/page.tsx]"),
    );
    assert_eq!(severities(root, "must-haves-not-checkable"), ["warning"]);
}

/// Files kept in an archive folder of their own scheme (`archive/v1-phases/
/// 01-x/01-01-PLAN.md`, read as notes) are put aside: their broken YAML is
/// info, and so is a broken link there.
#[test]
fn files_in_an_archive_folder_are_put_aside() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let bad = "---\nphase: 01\nplan: \"unterminated\n---\n# Plan\n";
    write(root, ".planning/notes/01-01-PLAN.md", bad);
    assert_eq!(severities(root, "frontmatter-invalid-yaml"), ["error"]);
    std::fs::remove_file(root.join(".planning/notes/01-01-PLAN.md")).unwrap();
    write(root, ".planning/archive/v1-phases/01-x/01-01-PLAN.md", bad);
    assert_eq!(severities(root, "frontmatter-invalid-yaml"), ["info"]);
    std::os::unix::fs::symlink(
        "/nowhere/at/all",
        root.join(".planning/archive/legacy-tooling"),
    )
    .unwrap();
    assert_eq!(severities(root, "file-unreadable"), ["info"]);
    std::os::unix::fs::symlink("/nowhere/at/all", root.join(".planning/tooling")).unwrap();
    assert_eq!(severities(root, "file-unreadable"), ["info", "warning"]);
}

/// A phase whose VERIFICATION.md says it passed (`**Status:** passed — …`
/// or `status: passed`) has run, though no SUMMARY was written: findings
/// about its plan's markup are history.
#[test]
fn a_phase_whose_verification_passed_has_run() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    let bare = "# Plan\n\nDo the thing.\n";
    write(root, ".planning/phases/01-catalog/01-PLAN.md", bare);
    assert_eq!(severities(root, "plan-no-frontmatter"), ["error"]);
    write(
        root,
        ".planning/phases/01-catalog/01-VERIFICATION.md",
        "# Phase 1: Verification\n\n**Status:** passed — local tests and UAT\n",
    );
    assert_eq!(severities(root, "plan-no-frontmatter"), ["info"]);
    write(
        root,
        ".planning/phases/01-catalog/01-VERIFICATION.md",
        "---\nstatus: gaps_found\n---\n# Verification\n",
    );
    assert_eq!(severities(root, "plan-no-frontmatter"), ["error"]);
    // GSD's template, its choice not made yet, says nothing.
    write(
        root,
        ".planning/phases/01-catalog/01-VERIFICATION.md",
        "---\nstatus: passed | gaps_found | human_needed\n---\n**Status:** {passed | gaps_found | human_needed}\n",
    );
    assert_eq!(severities(root, "plan-no-frontmatter"), ["error"]);
}

/// A phase whose roadmap status says its code landed (`CODE-COMPLETE`)
/// while the phase stays open (`🔄 In progress`, a human check pending)
/// has run: its plans' markup is history, and the reading still says it is
/// unfinished. A title that merely holds the words settles nothing.
#[test]
fn a_phase_whose_status_says_code_complete_has_run() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/phases/01-catalog/PLAN.md",
        "# Phase 1 plan\n\n1.1 Catalog model\n1.2 Catalog API\n",
    );
    assert_eq!(severities(root, "plan-no-frontmatter"), ["error"]);
    // Its name holds the words, no status does: still live work.
    edit(
        root,
        ".planning/ROADMAP.md",
        "### Phase 1: Catalog\n",
        "### Phase 1: Catalog code complete rewrite\n",
    );
    assert_eq!(severities(root, "plan-no-frontmatter"), ["error"]);
    // Its status line says the code is complete.
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Plans**: TBD\n\n### Phase 2",
        "**Plans**: TBD\n**Status:** 🔄 In progress — CODE-COMPLETE, UAT pending\n\n### Phase 2",
    );
    assert_eq!(severities(root, "plan-no-frontmatter"), ["info"]);
    assert_eq!(severities(root, "plan-no-tasks"), ["info"]);
    // The reading still says what is written: in progress, not complete.
    let o = gsd(root, &["roadmap", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_ne!(v["phases"][0]["status"], "complete", "{v}");
    // Or its progress row's status cell says so.
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/phases/01-catalog/PLAN.md",
        "# Phase 1 plan\n\n1.1 Catalog model\n",
    );
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 1. Catalog | 0/0 | Not started |",
        "| 1. Catalog | 0/1 | 🔄 Code-complete, human-verify pending |",
    );
    assert_eq!(severities(root, "plan-no-frontmatter"), ["info"]);
}

#[test]
fn a_verified_phase_missing_summaries_is_finished_work() {
    let t = project(&["Catalog", "Cart", "Checkout"], &[]);
    let root = t.path();
    // Phase 1 ticked, its row says complete, two of three plans without a
    // SUMMARY, and STATE.md still at phase 1: drift while nothing says it
    // ran to its end.
    plans(root, "01-catalog", 3, 1, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1",
        "- [x] **Phase 1",
    );
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 1. Catalog | 0/0 | Not started |",
        "| 1. Catalog | 3/3 | Complete |",
    );
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["warning"]
    );
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["warning"]);
    // A template's VERIFICATION.md (no outcome chosen) settles nothing.
    let v = ".planning/phases/01-catalog/01-VERIFICATION.md";
    write(
        root,
        v,
        "---\nphase: 1\nstatus: passed | gaps_found | human_needed\n---\n# V\n",
    );
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["warning"]
    );
    // Its verification passed (`verdict: PASS`, a form real trees write):
    // the phase ran to its end, and its missing summaries are records.
    write(
        root,
        v,
        "---\nphase: 1\nverdict: PASS\n---\n# Phase 1 Verification\n",
    );
    assert_eq!(
        severities(root, "roadmap-complete-but-unfinished"),
        ["info"]
    );
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["info"]);
    // A row behind the disk is still drift: the verifier does not fix it.
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 1. Catalog | 3/3 | Complete |",
        "| 1. Catalog | 0/3 | Planned |",
    );
    plans(root, "01-catalog", 3, 3, "");
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["warning"]);
}

#[test]
fn a_later_milestone_needs_no_detail_sections_yet() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    edit(
        root,
        ".planning/ROADMAP.md",
        "## Phases\n\n",
        "## Phases\n\n### 🚧 v1.0 Launch (In Progress)\n\n",
    );
    // A checklist entry of the live milestone without its section: a warning.
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 2: Cart**\n",
        "- [ ] **Phase 2: Cart**\n- [ ] **Phase 3: Checkout**\n",
    );
    assert_eq!(
        severities(root, "roadmap-checklist-without-details"),
        ["warning"]
    );
    // The entry under a later, planned milestone instead: its sections are
    // written when that milestone is planned, so a note.
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 3: Checkout**\n",
        "\n### 📋 v2.0 Growth (Planned)\n\n- [ ] **Phase 3: Referrals**\n- [ ] **Phase 4: Insights**\n",
    );
    assert_eq!(
        severities(root, "roadmap-checklist-without-details"),
        ["info", "info"]
    );
}

/// A quick task GSD's `/gsd:quick` planned but whose run left no record:
/// live while no milestone has shipped since; dated (`260415-nx9`) before
/// the last ship, it is history.
#[test]
fn a_quick_task_from_before_the_last_ship_is_history() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let quick = "---\nphase: quick-260415-nx9\nplan: 01\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: [a.txt]\nautonomous: true\n---\n<tasks>\n<task type=\"checkpoint:human-verify\" gate=\"blocking\">\n<what-built>a</what-built>\n<how-to-verify>look</how-to-verify>\n<resume-signal>approved</resume-signal>\n</task>\n</tasks>\n";
    write(
        root,
        ".planning/quick/260415-nx9-dist-eval/260415-nx9-PLAN.md",
        quick,
    );
    assert_eq!(severities(root, "checkpoint-not-autonomous"), ["error"]);
    // A milestone shipped the day before: the task is still the live one.
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.0 MVP (Shipped: 2026-04-14)\n",
    );
    assert_eq!(severities(root, "checkpoint-not-autonomous"), ["error"]);
    // One shipped after it: the task is from before the ship, history.
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.1 Parity (Shipped: 2026-04-29)\n\n## v1.0 MVP (Shipped: 2026-04-14)\n",
    );
    assert_eq!(severities(root, "checkpoint-not-autonomous"), ["info"]);
}

/// Sub-waves split from one plan (`30-01a` … `30-01d`): `depends_on: [01d]`
/// names one of them, and they fill plan 1's place in the numbering.
#[test]
fn lettered_sub_plans_are_plans_of_their_number() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let dir = ".planning/phases/01-catalog";
    write(root, &format!("{dir}/01-00-PLAN.md"), &plan("01", "00", ""));
    for sub in ["01a", "01b"] {
        write(
            root,
            &format!("{dir}/01-{sub}-PLAN.md"),
            &plan("01", sub, ""),
        );
    }
    let last =
        plan("01", "02", "").replace("wave: 1\ndepends_on: []", "wave: 2\ndepends_on: [01b]");
    write(root, &format!("{dir}/01-02-PLAN.md"), &last);
    assert!(findings(root, "depends-on-unknown-plan").is_empty());
    assert!(findings(root, "plan-numbering-gap").is_empty());
    // A sub-plan that does not exist is still unknown.
    write(
        root,
        &format!("{dir}/01-02-PLAN.md"),
        &last.replace("[01b]", "[01c]"),
    );
    assert_eq!(severities(root, "depends-on-unknown-plan"), ["error"]);
}

/// A task named by an attribute (`name="…"`, or `title="…"` in hand-written
/// plans) has its name: only what is really missing is reported, by name.
#[test]
fn a_task_named_by_an_attribute_lacks_only_what_it_lacks() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let f = ".planning/phases/01-catalog/01-01-PLAN.md";
    let with_task = |task: &str| {
        let p = plan("01", "01", "");
        let start = p.find("<task").unwrap();
        let end = p.find("</task>").unwrap() + "</task>".len();
        format!("{}{task}{}", &p[..start], &p[end..])
    };
    write(
        root,
        f,
        &with_task("<task id=\"1\" title=\"Chapter 2: Functions\">\n### What\nWrite it.\n</task>"),
    );
    let msgs: Vec<String> = findings(root, "task-missing-required")
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        msgs,
        ["auto task 'Chapter 2: Functions' is missing <action>"]
    );
    write(
        root,
        f,
        &with_task("<task type=\"auto\">\n### What\nWrite it.\n</task>"),
    );
    let msgs: Vec<String> = findings(root, "task-missing-required")
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(msgs, ["auto task 'Task 1' is missing <name>, <action>"]);
}

/// A file that adds a milestone's requirements adds its own traceability
/// table (`## v3.0 Traceability`): a requirement traced there is traced.
#[test]
fn every_traceability_table_traces() {
    let t = project(&["Catalog"], &["CAT-01: list"]);
    let root = t.path();
    let req = std::fs::read_to_string(root.join(".planning/REQUIREMENTS.md")).unwrap();
    write(
        root,
        ".planning/REQUIREMENTS.md",
        &format!("{req}\n## v3.0 Requirements\n\n- [ ] **LSRCH-01**: search later\n"),
    );
    assert_eq!(severities(root, "requirement-untraced"), ["warning"]);
    write(
        root,
        ".planning/REQUIREMENTS.md",
        &format!(
            "{req}\n## v3.0 Requirements\n\n- [ ] **LSRCH-01**: search later\n\n## v3.0 Traceability\n\n| Requirement | Phase | Status |\n|---|---|---|\n| LSRCH-01 | Phase 1 | Pending |\n"
        ),
    );
    assert!(severities(root, "requirement-untraced").is_empty());
}

/// Quick tasks run as they are planned: one without a SUMMARY that a later
/// quick task has overtaken (a later one ran) is history; the newest is not.
#[test]
fn a_quick_task_a_later_one_overtook_is_history() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let quick = "---\nphase: quick\nplan: 01\ntype: execute\n---\n# Automate publishing\n\nSteps in prose.\n";
    write(
        root,
        ".planning/quick/9-automate-publishing/9-PLAN.md",
        quick,
    );
    assert_eq!(severities(root, "plan-no-tasks"), ["warning"]);
    // An earlier task ran: task 9 is still the newest, still live.
    write(root, ".planning/quick/8-fix-docs/8-SUMMARY.md", "# Done\n");
    assert_eq!(severities(root, "plan-no-tasks"), ["warning"]);
    // A later one (numbered, then dated) ran: task 9 was overtaken.
    write(
        root,
        ".planning/quick/14-fix-release/14-SUMMARY.md",
        "# Done\n",
    );
    assert_eq!(severities(root, "plan-no-tasks"), ["info"]);
    std::fs::remove_dir_all(root.join(".planning/quick/14-fix-release")).unwrap();
    write(
        root,
        ".planning/quick/260329-oqw-return-undefined/260329-oqw-SUMMARY.md",
        "# Done\n",
    );
    assert_eq!(severities(root, "plan-no-tasks"), ["info"]);
}

/// A roadmap restarted its numbering for the live milestone; the folders of
/// shipped milestones stay in `phases/`. A folder that MILESTONES.md lists
/// under a shipped milestone, that an archived roadmap names, or whose
/// VERIFICATION passed holds shipped work: not live drift. One nothing
/// accounts for, with a plan still to run, is.
#[test]
fn folders_of_shipped_milestones_left_in_phases_are_history() {
    let t = project(&["Fixes", "Safety"], &[]);
    let root = t.path();
    plans(root, "01-fixes", 1, 0, "");
    let folder = |n: &str| {
        write(
            root,
            &format!(".planning/phases/{n}-old-work/{n}-01-PLAN.md"),
            &plan(n, "01", ""),
        );
    };
    for n in ["14", "15", "16", "17"] {
        folder(n);
    }
    assert_eq!(
        severities(root, "phase-dir-not-in-roadmap"),
        ["warning", "warning", "warning", "warning"]
    );
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.3 Collectives (Shipped: 2026-04-24)\n\n**Phases completed:** 2 phases, 6 plans\n\n- **Phase 14: Core Collectives** - all-reduce\n- **Phase 15: Extended Collectives** - gather\n",
    );
    write(
        root,
        ".planning/milestones/v1.4-ROADMAP.md",
        "# Roadmap v1.4\n\n### Phase 16: Multi-node\n\n**Goal**: nodes\n",
    );
    write(
        root,
        ".planning/phases/17-old-work/17-VERIFICATION.md",
        "# Phase 17: Verification\n\n## Status: ✅ Complete\n",
    );
    assert_eq!(
        severities(root, "phase-dir-not-in-roadmap"),
        ["info", "info", "info", "info"]
    );
    // One nothing accounts for, its plan still to run: live drift.
    folder("18");
    assert_eq!(
        severities(root, "phase-dir-not-in-roadmap"),
        ["info", "info", "info", "info", "warning"]
    );
    // A backlog folder the roadmap's backlog omits: parked, a note.
    folder("999.5");
    assert_eq!(
        severities(root, "phase-dir-not-in-roadmap"),
        ["info", "info", "info", "info", "warning", "info"]
    );
}

/// Phase numbers whose folders were put away in an archive folder of any
/// scheme (`phases-archive/phase-25-…/`, `milestones/v2.13-name/103-…/`)
/// or that MILESTONES.md lists as shipped are no gap; a number nothing
/// accounts for still is.
#[test]
fn numbers_put_away_in_archive_folders_are_no_gap() {
    let t = project(&["A", "B"], &[]);
    let root = t.path();
    for (n, dir) in [("01", "01-a"), ("05", "05-e"), ("09", "09-i")] {
        write(
            root,
            &format!(".planning/phases/{dir}/{n}-01-PLAN.md"),
            &plan(n, "01", ""),
        );
        write(
            root,
            &format!(".planning/phases/{dir}/{n}-01-SUMMARY.md"),
            "# S\n",
        );
    }
    let gaps = |root: &Path| {
        findings(root, "phase-numbering-gap")
            .iter()
            .map(|d| d["message"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(gaps(root).len(), 2, "{:?}", gaps(root));
    for n in ["2", "3"] {
        write(
            root,
            &format!(".planning/phases-archive/phase-{n}-old/{n}-SUMMARY.md"),
            "# S\n",
        );
    }
    write(
        root,
        ".planning/milestones/v2.13-transformer/04-kv-cache/04-01-SUMMARY.md",
        "# S\n",
    );
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.1 Later (Shipped: 2026-04-24)\n\n- **Phase 6: Six** - six\n- **Phase 7: Seven** - seven\n",
    );
    // 8 is still a gap: nothing accounts for it.
    assert_eq!(
        gaps(root),
        ["gap in phase numbering: 5 → 9; phase 8 is neither a folder nor in ROADMAP.md"]
    );
}

/// `phase_14/` names its phase after the word: when that phase is ticked
/// in a shipped milestone, the folder's name is history (info); a live
/// one's is still worth fixing.
#[test]
fn a_badly_named_folder_of_a_shipped_phase_is_history() {
    let t = project(&["Alpha", "Beta"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/phases/phase_1/PLAN.md",
        &plan("01", "01", ""),
    );
    write(
        root,
        ".planning/phases/phase_2/PLAN.md",
        &plan("02", "01", ""),
    );
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1: Alpha**",
        "- [x] **Phase 1: Alpha**",
    );
    let bad = findings(root, "phase-dir-bad-name");
    let sev = |name: &str| {
        bad.iter()
            .find(|d| d["message"].as_str().unwrap().contains(name))
            .map(|d| d["severity"].as_str().unwrap().to_owned())
    };
    assert_eq!(sev("`phase_1`").as_deref(), Some("info"), "{bad:?}");
    assert_eq!(sev("`phase_2`").as_deref(), Some("warning"), "{bad:?}");
}

/// A traceability row's ID cell in emphasis with a mark (`**CORE-03** ★`)
/// traces it; a requirement a shipped milestone's archived requirements
/// hold (the file left as that milestone had it) is history.
#[test]
fn marked_trace_cells_trace_and_archived_requirements_are_history() {
    let t = project(
        &["Core"],
        &["CORE-01: one", "CORE-02: two", "CORE-03: three"],
    );
    let root = t.path();
    let req = root.join(".planning/REQUIREMENTS.md");
    let text = std::fs::read_to_string(&req).unwrap();
    let traced: Vec<&str> = text.lines().filter(|l| l.starts_with("| CORE-")).collect();
    assert_eq!(traced.len(), 3, "{text}");
    // Drop the rows of 02 and 03, then trace 02 in a marked cell.
    let text = text
        .lines()
        .filter(|l| !l.starts_with("| CORE-02") && !l.starts_with("| CORE-03"))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    let text = text.replacen(
        "| CORE-01 |",
        "| **CORE-02** ★ | Phase 1 | Pending |\n| CORE-01 |",
        1,
    );
    std::fs::write(&req, &text).unwrap();
    assert_eq!(severities(root, "requirement-untraced"), ["warning"]);
    write(
        root,
        ".planning/milestones/v1.0-REQUIREMENTS.md",
        "# Requirements v1.0\n\n- [ ] **CORE-03**: the third\n",
    );
    assert_eq!(severities(root, "requirement-untraced"), ["info"]);
}

/// A SUMMARY whose `status:` says its plan stopped at a checkpoint
/// (`checkpoint-pending`, `partial`) is not a finished plan: a progress row
/// that leaves it out is right. A row lagging further is still drift.
#[test]
fn a_row_leaving_out_a_plan_stopped_at_a_checkpoint_is_right() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 3, 3, "");
    write(
        root,
        ".planning/phases/01-catalog/01-03-SUMMARY.md",
        "---\nphase: 01-catalog\nplan: 03\nstatus: checkpoint-pending\n---\n# Summary\n\nTask 1 done; Task 2 waits for a human check.\n",
    );
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 1. Catalog | 0/0 | Not started |",
        "| 1. Catalog | 2/3 | In progress |",
    );
    assert_eq!(
        severities(root, "roadmap-progress-mismatch"),
        Vec::<String>::new()
    );
    edit(root, ".planning/ROADMAP.md", "| 2/3 |", "| 1/3 |");
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["warning"]);
    // Its status says it finished: the row lags.
    edit(
        root,
        ".planning/phases/01-catalog/01-03-SUMMARY.md",
        "status: checkpoint-pending",
        "status: complete",
    );
    edit(root, ".planning/ROADMAP.md", "| 1/3 |", "| 2/3 |");
    assert_eq!(severities(root, "roadmap-progress-mismatch"), ["warning"]);
}

/// A plan type GSD does not name (`type: implementation`) is reported, as
/// a warning: GSD branches on `tdd` alone and runs any other type as
/// `execute`, so nothing breaks. A wrongly typed value (`wave: 2a`) stays
/// an error.
#[test]
fn an_unknown_plan_type_is_a_warning_not_an_error() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        &plan("01", "01", "").replace("type: execute", "type: implementation"),
    );
    assert_eq!(severities(root, "plan-field-type"), ["warning"]);
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    assert!(severities(root, "plan-field-type").is_empty());
}

/// `depends_on: [1]` in phase 2 names the earlier phase by its number:
/// work that exists, and GSD ignores dependencies outside the phase, so
/// it is not an unknown plan. A number naming no phase still is.
#[test]
fn depends_on_naming_another_phase_by_number_is_no_unknown_plan() {
    let t = project(&["Catalog", "Cart", "Checkout"], &[]);
    let root = t.path();
    let with_dep =
        |dep: &str| plan("03", "01", "").replace("depends_on: []", &format!("depends_on: [{dep}]"));
    write(
        root,
        ".planning/phases/02-cart/02-01-PLAN.md",
        &plan("02", "01", ""),
    );
    write(
        root,
        ".planning/phases/03-checkout/03-01-PLAN.md",
        &with_dep("2"),
    );
    assert!(findings(root, "depends-on-unknown-plan").is_empty());
    write(
        root,
        ".planning/phases/03-checkout/03-01-PLAN.md",
        &with_dep("7"),
    );
    assert_eq!(severities(root, "depends-on-unknown-plan"), ["error"]);
}

/// Lint reads a tree's phase folders a batch at a time and drops each once
/// checked; what one batch tells about another still counts. On a
/// 40-phase tree (several batches): a plan that ran without frontmatter in
/// phase 1 makes a bare plan in phase 40 a warning, not an error; and a
/// `depends_on` naming a plan of phase 1 from phase 40 names a plan, while
/// one naming a plan no phase has is reported.
#[test]
fn what_one_batch_of_phases_tells_reaches_the_others() {
    let names: Vec<String> = (1..=40).map(|n| format!("P{n}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let t = project(&names, &[]);
    let root = t.path();
    let bare = "# Plan\n\n<tasks>\n<task type=\"auto\"><name>T</name><files>a.txt</files><action>a</action><verify>v</verify><done>d</done></task>\n</tasks>\n";
    write(root, ".planning/phases/01-p1/01-01-PLAN.md", bare);
    write(root, ".planning/phases/40-p40/40-01-PLAN.md", bare);
    // Neither has run: a plan without frontmatter is an error.
    assert_eq!(severities(root, "plan-no-frontmatter"), ["error", "error"]);
    write(
        root,
        ".planning/phases/01-p1/01-01-SUMMARY.md",
        "# Summary\n",
    );
    // Phase 1's ran (history: info); phase 40's is in a format that ran.
    assert_eq!(severities(root, "plan-no-frontmatter"), ["info", "warning"]);

    let deps = plan("40", "02", "").replace("depends_on: []", "depends_on: [01-01, 07-03]");
    write(root, ".planning/phases/40-p40/40-02-PLAN.md", &deps);
    let unknown: Vec<String> = findings(root, "depends-on-unknown-plan")
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(unknown.len(), 1, "{unknown:?}");
    assert!(unknown[0].contains("`07-03`"), "{unknown:?}");
}

/// STATE.md's `Plan: 2 of 2` against a phase folder of three plans is drift
/// while the phase is live — even with its box ticked, while STATE.md says
/// it is executing; once STATE.md too says the phase is complete, the
/// counter is bookkeeping of finished work (a plan done another way):
/// info, saying why (batch 15, AhsanAyaz+catsot).
#[test]
fn a_plan_counter_of_a_finished_phase_is_info() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 3, 2, "");
    edit(
        root,
        ".planning/STATE.md",
        "Plan: Not started\nStatus: Ready to plan",
        "Plan: 2 of 2 completed\nStatus: Executing",
    );
    assert_eq!(severities(root, "state-plan-count-mismatch"), ["warning"]);
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1",
        "- [x] **Phase 1",
    );
    assert_eq!(severities(root, "state-plan-count-mismatch"), ["warning"]);
    edit(
        root,
        ".planning/STATE.md",
        "Status: Executing",
        "Status: Complete",
    );
    let found = findings(root, "state-plan-count-mismatch");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["severity"], "info", "{found:?}");
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .contains("the phase is complete"),
        "{found:?}"
    );
}

/// An empty file in a live phase folder is worth a warning; the same empty
/// placeholder (`33-VALIDATION.md`) in a phase whose plans have all run is
/// a record of finished work: info (batch 15, Ayy-man+PGL-main).
#[test]
fn an_empty_placeholder_of_a_finished_phase_is_history() {
    let t = project(&["Catalog", "Cart"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 2, 1, "");
    write(root, ".planning/phases/01-catalog/01-VALIDATION.md", "");
    assert_eq!(severities(root, "empty-file"), ["warning"]);
    plans(root, "01-catalog", 2, 2, "");
    assert_eq!(severities(root, "empty-file"), ["info"]);
    write(root, ".planning/phases/02-cart/02-RESEARCH.md", "");
    let mut live = severities(root, "empty-file");
    live.sort();
    assert_eq!(live, ["info", "warning"]);
}

/// An empty note of the user's own at the root (`PROJECT-FRONTEND.md`)
/// breaks nothing GSD reads: info. An empty GSD file there (REQUIREMENTS.md)
/// or a note in a folder keeps the warning (batch 24,
/// Ryz3nPlayZ+researchstaging).
#[test]
fn an_empty_note_of_the_users_own_at_the_root_is_info() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    write(root, ".planning/PROJECT-FRONTEND.md", "");
    assert_eq!(severities(root, "empty-file"), ["info"]);
    write(root, ".planning/REQUIREMENTS.md", "\n");
    let mut both = severities(root, "empty-file");
    both.sort();
    assert_eq!(both, ["info", "warning"]);
    std::fs::remove_file(root.join(".planning/REQUIREMENTS.md")).unwrap();
    write(root, ".planning/research/NOTES.md", "");
    let mut both = severities(root, "empty-file");
    both.sort();
    assert_eq!(both, ["info", "warning"]);
}

/// STATE.md's `Phase: 2 of 3 (2A Backend, 2B Plugin …)` where the roadmap
/// splits phase 2 into lettered phases run side by side names their group,
/// not a missing phase; a number nothing has stays a finding (batch 16,
/// atarazavi+Hackathon-ASW).
#[test]
fn a_position_naming_a_group_of_lettered_phases_is_known() {
    let t = project(&["Setup"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Phases\n\n- [x] **Phase 1: Setup** - scaffold\n- [x] **Phase 2A: Backend** - api\n- [ ] **Phase 2B: Plugin** - ui\n- [ ] **Phase 3: Integration** - glue\n\n### Phase 1: Setup\n\n**Goal:** s\n\n### Phase 2A: Backend\n\n**Goal:** b\n\n### Phase 2B: Plugin\n\n**Goal:** p\n\n### Phase 3: Integration\n\n**Goal:** i\n",
    );
    plans(root, "01-setup", 1, 1, "");
    write(
        root,
        ".planning/phases/2A-backend/2A-01-PLAN.md",
        &plan("2A", "01", ""),
    );
    write(
        root,
        ".planning/phases/2B-plugin/2B-01-PLAN.md",
        &plan("2B", "01", ""),
    );
    edit(
        root,
        ".planning/STATE.md",
        "Phase: 1 of 1 (Setup)",
        "Phase: 2 of 3 (2A Backend done, 2B Plugin under way)",
    );
    assert_eq!(
        severities(root, "state-unknown-phase"),
        Vec::<String>::new()
    );
    edit(root, ".planning/STATE.md", "Phase: 2 of 3", "Phase: 5 of 3");
    assert_eq!(severities(root, "state-unknown-phase"), ["warning"]);
}

/// A phase section that lists its requirements under the label
/// (`**Requirements:**` then `- [ ] **SETUP-01**: …`) defines those IDs as
/// its `**Requirements**: SETUP-01` line would: a plan naming one is no
/// unknown requirement; an ID nothing defines still is (batch 17,
/// huidadao+study-projects-management).
#[test]
fn requirements_listed_under_a_phase_are_defined() {
    let t = project(&["Setup", "Catalog"], &["CAT-01: list items"]);
    let root = t.path();
    write(
        root,
        ".planning/phases/01-setup/01-01-PLAN.md",
        &plan("01", "01", "SETUP-01, SETUP-02"),
    );
    assert_eq!(
        severities(root, "requirement-unknown"),
        ["warning", "warning"]
    );
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Requirements**: TBD\n**Plans**: TBD\n\n### Phase 2",
        "**Requirements:**\n\n- [ ] **SETUP-01**: Initialize the backend\n- [x] SETUP-09 (folded into 01)\n\n**Plans**: TBD\n\n### Phase 2",
    );
    let left = findings(root, "requirement-unknown");
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(
        left[0]["message"].as_str().unwrap().contains("SETUP-02"),
        "{left:?}"
    );
    let o = gsd(root, &["roadmap", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["phases"][0]["requirements"],
        serde_json::json!(["SETUP-01", "SETUP-09"])
    );
}

/// A gap in the phase folders' numbers with phases after it that have run
/// is settled numbering (`6 → 8` in folders an earlier milestone left,
/// with 9 run since): info. With nothing run after it, a warning (batch
/// 17, coderstory+vibe_coding).
#[test]
fn a_gap_with_work_run_after_it_is_settled() {
    let t = project(&["Catalog", "Cart", "Checkout"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 1, 1, "");
    plans(root, "02-cart", 1, 1, "");
    plans(root, "03-checkout", 1, 1, "");
    // A folder past the roadmap, its plan still to run: 4 is missing.
    plans(root, "05-extras", 1, 0, "");
    assert_eq!(severities(root, "phase-numbering-gap"), ["warning"]);
    // Phase 6 has run since: the numbers after the gap are in use.
    plans(root, "06-polish", 1, 1, "");
    assert_eq!(severities(root, "phase-numbering-gap"), ["info"]);
}

/// One summary for a whole phase (`06-SUMMARY.md` beside five plans, the
/// older one-per-phase record) says its plans ran: a progress row that
/// counts them done is no stale row while the phase is live, and a row
/// with no summary of any kind still is (batch 17, samitugal+data-cataloger).
#[test]
fn a_phase_summary_records_its_plans_as_run() {
    let t = project(&["Catalog", "Cart", "Checkout"], &[]);
    let root = t.path();
    plans(root, "01-catalog", 1, 1, "");
    plans(root, "02-cart", 2, 0, "");
    plans(root, "03-checkout", 1, 0, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "| 2. Cart | 0/0 | Not started | - |",
        "| 2. Cart | 2/2 | Complete | 2026-02-26 |",
    );
    let phase_2 = |root: &Path| -> Vec<String> {
        findings(root, "roadmap-progress-mismatch")
            .iter()
            .filter(|d| d["message"].as_str().unwrap().contains("phase 2 "))
            .map(|d| d["severity"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(phase_2(root), ["warning"]);
    write(
        root,
        ".planning/phases/02-cart/02-SUMMARY.md",
        "# Phase 2: Cart - Summary\n\n**Status:** Complete\n\n## Plan 02-01\n- done\n\n## Plan 02-02\n- done\n",
    );
    assert_eq!(phase_2(root), ["info"]);
}

/// A phase folder not named `NN-slug` is worth a warning while its plans
/// are to run; once every plan in it has its summary it is a record of
/// finished work: info (batch 18, aanthonyle28+AvisLoop `QA-AUDIT-…`).
#[test]
fn an_oddly_named_folder_whose_plans_all_ran_is_history() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let dir = ".planning/phases/QA-AUDIT-dashboard-audit";
    write(
        root,
        &format!("{dir}/QA-AUDIT-01-PLAN.md"),
        &plan("QA-AUDIT", "01", ""),
    );
    write(
        root,
        &format!("{dir}/QA-AUDIT-02-PLAN.md"),
        &plan("QA-AUDIT", "02", ""),
    );
    write(
        root,
        &format!("{dir}/QA-AUDIT-01-SUMMARY.md"),
        "# Summary\n\nDone.\n",
    );
    assert_eq!(severities(root, "phase-dir-bad-name"), ["warning"]);
    write(
        root,
        &format!("{dir}/QA-AUDIT-02-SUMMARY.md"),
        "# Summary\n\nDone.\n",
    );
    assert_eq!(severities(root, "phase-dir-bad-name"), ["info"]);
}

/// STATE.md's position naming a phase whose status says it is done
/// (`Status: Phase complete`, `Phase: 2 — SHIPPED`) says that phase's
/// plans ran, whatever summary one of them lacks: what its plans' markup
/// lacks is history (info), not an error on work to execute. With a
/// status of work under way the same finding is an error (batch 19,
/// szTheory+mailglass: six `task-missing-required` on a shipped release
/// checklist).
#[test]
fn a_phase_state_md_says_is_done_has_run_its_plans() {
    let t = project(&["Core", "Release"], &[]);
    let root = t.path();
    plans(root, "01-core", 1, 1, "");
    plans(root, "02-release", 2, 1, "");
    edit(
        root,
        ".planning/phases/02-release/02-02-PLAN.md",
        "<task type=\"auto\">\n<name>T</name>\n<files>src/02-02.txt</files>\n<action>a</action>",
        "<task type=\"checkpoint:human-action\">\n<name>Approve the release</name>\n<files>src/02-02.txt</files>",
    );
    edit(
        root,
        ".planning/STATE.md",
        "Phase: 1 of 2 (Core)",
        "Phase: 2 of 2 (Release)",
    );
    edit(
        root,
        ".planning/STATE.md",
        "Status: Ready to plan",
        "Status: Executing",
    );
    let live = findings(root, "task-missing-required");
    assert_eq!(live.len(), 1, "{live:?}");
    assert_eq!(live[0]["severity"], "error", "{live:?}");

    for (from, to) in [
        ("Status: Executing", "Status: Phase complete"),
        ("Status: Phase complete", "Status: shipped (v0.1.1)"),
    ] {
        edit(root, ".planning/STATE.md", from, to);
        let done = findings(root, "task-missing-required");
        assert_eq!(done.len(), 1, "{to}: {done:?}");
        assert_eq!(done[0]["severity"], "info", "{to}: {done:?}");
    }
}

/// A core file the repository's `.gitignore` keeps out of git is missing
/// from every clone by the project's choice (`.planning/*` with only the
/// roadmap and state un-ignored; a config.json holding local secrets): a
/// note. The same file missing and not ignored is still the finding GSD's
/// health check makes (a warning for config.json, an error for the rest).
/// (Batch 20, judged false: norcalcoop+torch-secret, shai-kappel+sonic-graph,
/// creatlyre+dobryplan.)
#[test]
fn a_core_file_git_ignores_is_a_note_when_missing() {
    let t = project(&["Core"], &[]);
    let root = t.path();
    std::fs::remove_file(root.join(".planning/config.json")).unwrap();
    std::fs::remove_file(root.join(".planning/PROJECT.md")).unwrap();
    let config = findings(root, "config-missing");
    let project = findings(root, "project-missing");
    assert_eq!(config.len(), 1, "{config:?}");
    assert_eq!(config[0]["severity"], "warning", "{config:?}");
    assert_eq!(project.len(), 1, "{project:?}");
    assert_eq!(project[0]["severity"], "error", "{project:?}");

    write(
        root,
        ".gitignore",
        ".planning/*\n!.planning/ROADMAP.md\n!.planning/STATE.md\n!.planning/phases/\n",
    );
    for code in ["config-missing", "project-missing"] {
        let found = findings(root, code);
        assert_eq!(found.len(), 1, "{code}: {found:?}");
        assert_eq!(found[0]["severity"], "info", "{code}: {found:?}");
        let message = found[0]["message"].as_str().unwrap();
        assert!(
            message.contains(".gitignore keeps it out of git"),
            "{message}"
        );
    }
    // Un-ignored again (`!.planning/PROJECT.md`): a clone has it, so its
    // absence is a fault again; config.json stays a note.
    write(
        root,
        ".gitignore",
        ".planning/*\n!.planning/ROADMAP.md\n!.planning/STATE.md\n!.planning/PROJECT.md\n",
    );
    assert_eq!(findings(root, "project-missing")[0]["severity"], "error");
    assert_eq!(findings(root, "config-missing")[0]["severity"], "info");
    // A lint run from inside the planning folder reads the same repository.
    let inner = common::gsd(&root.join(".planning"), &["lint", "--format", "json"]);
    let v: Value = serde_json::from_slice(&inner.stdout).unwrap();
    let sev = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "config-missing")
        .map(|d| d["severity"].clone());
    assert_eq!(sev, Some(Value::from("info")));
    // The whole planning folder ignored and nothing of it tracked (GSD's
    // `commit_docs: false`): the checkout is the only copy, and a missing
    // file is missing.
    write(root, ".gitignore", ".planning/\n");
    common::git(root, &["rm", "-r", "-q", "--cached", ".planning"]);
    assert_eq!(findings(root, "config-missing")[0]["severity"], "warning");
    assert_eq!(findings(root, "project-missing")[0]["severity"], "error");
    // A selection of it force-added (`git add -f`): published by choice.
    common::git(root, &["add", "-f", ".planning/ROADMAP.md"]);
    assert_eq!(findings(root, "config-missing")[0]["severity"], "info");
    write(
        root,
        ".gitignore",
        ".planning/*\n!.planning/ROADMAP.md\n!.planning/STATE.md\n!.planning/PROJECT.md\n",
    );
    // The tree copied out of its repository, `.gitignore` beside it: the
    // project's own rules still say the file is kept out; a planning
    // folder's own `.gitignore` is read too, `!` re-including.
    std::fs::remove_dir_all(root.join(".git")).unwrap();
    assert_eq!(findings(root, "config-missing")[0]["severity"], "info");
    assert_eq!(findings(root, "project-missing")[0]["severity"], "error");
    write(root, ".planning/.gitignore", "!config.json\nPROJECT.md\n");
    assert_eq!(findings(root, "config-missing")[0]["severity"], "warning");
    assert_eq!(findings(root, "project-missing")[0]["severity"], "info");
}

/// STATE.md still names the last phase of the milestone that shipped, and
/// says it is finished (`Phase: 04 of 07 (…) - COMPLETE`, `Status:
/// Milestone 2 Complete`), its folder archived with it: a record of
/// finished work, a note. The same position without a done word is a
/// reference to a phase nobody has: a warning. (Batch 20, judged false:
/// shai-kappel+sonic-graph.)
#[test]
fn a_finished_position_of_a_shipped_milestone_is_a_note() {
    let t = project(&["Core"], &[]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Shop\n\n- **[Milestone 1: Foundation](milestones/v1-ROADMAP.md)** - Completed 2026-03-30.\n- **[Milestone 2: Data](milestones/v2.0-ROADMAP.md)** - Completed 2026-04-04.\n\n## Milestone 3: Sharing (Phase 5-6)\n\n### Phase 5: Firebase\n- [ ] Set up auth.\n\n### Phase 6: Links\n- [ ] Share links.\n",
    );
    let state = |position: &str, status: &str| {
        format!(
            "# Project State\n\n**Current focus:** Milestone 3 (Sharing)\n\n## Current Position\n\nPhase: {position}\nStatus: {status}\nLast activity: 2026-04-04\n"
        )
    };
    write(
        root,
        ".planning/STATE.md",
        &state("04 of 07 (Wikidata) - COMPLETE", "Milestone 2 Complete"),
    );
    let found = findings(root, "state-unknown-phase");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["severity"], "info", "{found:?}");
    write(
        root,
        ".planning/STATE.md",
        &state("04 of 07 (Wikidata)", "Executing"),
    );
    let found = findings(root, "state-unknown-phase");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["severity"], "warning", "{found:?}");
}

/// Sections that put requirements after the current work are recognised
/// in the languages trees are written in: `## Requirements Futuros (M9+)`,
/// `## Zukünftige Anforderungen`, `## 后续需求` hold no requirement this
/// milestone must trace; a section of this milestone still does. (Batch
/// 21, judged false: fercosnt+SistemaRecrutamento, four
/// `requirement-untraced`.)
#[test]
fn later_sections_in_other_languages_need_no_trace() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    for later in [
        "## Requirements Futuros (M9+)\n\n### Compliance (não puxado)",
        "## Zukünftige Anforderungen",
        "## 后续需求",
    ] {
        write(
            root,
            ".planning/REQUIREMENTS.md",
            &format!(
                "# Requisitos\n\n## v8.0 Requirements\n\n- [ ] **CAT-01**: lista\n- [ ] **CAT-02**: busca\n\n{later}\n\n- [ ] **DPO-01**: encarregado\n\n## Traceability\n\n| Requirement | Phase | Status |\n|---|---|---|\n| CAT-01 | Phase 1 | Pending |\n"
            ),
        );
        let f = findings(root, "requirement-untraced");
        let ids: Vec<&str> = f.iter().map(|d| d["message"].as_str().unwrap()).collect();
        assert_eq!(f.len(), 1, "{later}: {ids:?}");
        assert!(ids[0].contains("CAT-02"), "{later}: {ids:?}");
    }
}

/// Merge-conflict markers left in a shipped or finished phase's file are
/// damage to history no tool reads for the work: a note. In a live phase's
/// file, or a root document, they break the next reader: an error.
/// (Batch 21, judged false: six in Gilmore3088+feeschedule-hub's shipped
/// `23-VALIDATION.md`.)
#[test]
fn conflict_markers_in_finished_phases_are_notes() {
    let t = project(&["Core", "Billing"], &[]);
    let root = t.path();
    plans(root, "01-core", 1, 1, "");
    plans(root, "02-billing", 1, 0, "");
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1",
        "- [x] **Phase 1",
    );
    let conflict = "# Validation\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> worktree-agent\n";
    write(root, ".planning/phases/01-core/01-VALIDATION.md", conflict);
    assert_eq!(severities(root, "merge-conflict-markers"), ["info"]);
    write(
        root,
        ".planning/phases/02-billing/02-VALIDATION.md",
        conflict,
    );
    let mut both = severities(root, "merge-conflict-markers");
    both.sort();
    assert_eq!(both, ["error", "info"]);
    write(
        root,
        ".planning/milestones/v0.9-phases/00-old/00-CONTEXT.md",
        conflict,
    );
    let mut all = severities(root, "merge-conflict-markers");
    all.sort();
    assert_eq!(all, ["error", "info", "info"]);
}

/// A requirements section whose own first line puts it off (`## v1.8
/// Requirements` then `Deferred to future release. Tracked but not in
/// current roadmap.`, the sentence of GSD's template under a version of
/// the user's own) holds nothing this milestone must trace; the same
/// section without that line still does. (Batch 22, judged false:
/// jiang925+where-is-my-shit, six `requirement-untraced`.)
#[test]
fn a_section_its_first_line_defers_needs_no_trace() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let reqs = |intro: &str| {
        format!(
            "# Requirements: Shop\n\n## v1.7 Requirements\n\n- [ ] **CAT-01**: list\n\n## v1.8 Requirements\n\n{intro}\n\n### Signing\n- **SIGN-01**: sign the daemon\n\n## Traceability\n\n| Requirement | Phase | Status |\n|---|---|---|\n| CAT-01 | Phase 1 | Pending |\n"
        )
    };
    write(
        root,
        ".planning/REQUIREMENTS.md",
        &reqs("Deferred to future release. Tracked but not in current roadmap."),
    );
    assert!(findings(root, "requirement-untraced").is_empty());
    write(
        root,
        ".planning/REQUIREMENTS.md",
        &reqs("Requirements for the signing milestone."),
    );
    let f = findings(root, "requirement-untraced");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0]["message"].as_str().unwrap().contains("SIGN-01"));
}

/// A folder in phases/ not named NN-slug is a warning where it is meant as
/// a phase GSD cannot find: it holds plans, summaries, a context or a
/// research file, a roadmap phase is named like it, or its name is a tool's
/// output pasted in (`{  slug …}`). A folder of notes, reviews or UAT
/// records and nothing a phase is made of is kept beside the phases: a
/// note. (Batch 23: 11 of 11 such warnings judged false, on folders of
/// experiment notes, a milestone review and hotfix UAT records.)
#[test]
fn a_folder_of_notes_in_phases_is_a_note_not_a_misnamed_phase() {
    let t = project(&["Core"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/phases/v4.1-experiments/RIDGE_SWEEP.md",
        "# Ridge sweep\n\nresults\n",
    );
    write(
        root,
        ".planning/phases/hotfix-banners/hotfix-UAT.md",
        "# UAT\n\npassed\n",
    );
    write(
        root,
        ".planning/phases/side-track/W7-01-PLAN.md",
        &plan("W7", "01", ""),
    );
    write(
        root,
        ".planning/phases/spike-auth/CONTEXT.md",
        "# Context\n",
    );
    write(root, ".planning/phases/{  slug  idea}/.gitkeep", "");
    let found = findings(root, "phase-dir-bad-name");
    let by_dir = |name: &str| {
        found
            .iter()
            .find(|f| f["file"].as_str().unwrap().ends_with(name))
            .map(|f| f["severity"].as_str().unwrap().to_owned())
    };
    assert_eq!(
        by_dir("v4.1-experiments").as_deref(),
        Some("info"),
        "{found:?}"
    );
    assert_eq!(
        by_dir("hotfix-banners").as_deref(),
        Some("info"),
        "{found:?}"
    );
    assert_eq!(
        by_dir("side-track").as_deref(),
        Some("warning"),
        "{found:?}"
    );
    assert_eq!(
        by_dir("spike-auth").as_deref(),
        Some("warning"),
        "{found:?}"
    );
    assert_eq!(
        by_dir("{  slug  idea}").as_deref(),
        Some("warning"),
        "{found:?}"
    );
    // A roadmap phase named like the notes folder: it is that phase's.
    edit(
        root,
        ".planning/ROADMAP.md",
        "## Phase Details",
        "## Phase Details\n\n### Phase 2: Hotfix Banners\n\n**Goal:** fix the banners\n",
    );
    let found = findings(root, "phase-dir-bad-name");
    let hotfix = found
        .iter()
        .find(|f| f["file"].as_str().unwrap().ends_with("hotfix-banners"))
        .unwrap();
    assert_eq!(hotfix["severity"], "warning", "{found:?}");
}

/// A plan written without frontmatter that lists its requirements in a
/// `## Requirements` section covers them: the missing frontmatter is its
/// own finding, not also a coverage gap for every ID it names. (Batch 23:
/// danisolation+holo, UX-04 named by `111-01-PLAN.md`'s section.)
#[test]
fn a_requirements_section_in_a_plan_without_frontmatter_covers_its_ids() {
    let t = project(&["Catalog"], &["CAT-01: list", "CAT-02: search"]);
    let root = t.path();
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Requirements**: TBD",
        "**Requirements**: CAT-01, CAT-02",
    );
    edit(
        root,
        ".planning/STATE.md",
        "Status: Ready to plan",
        "Status: Ready to execute",
    );
    plans(root, "01-catalog", 1, 0, "CAT-01");
    let bare = "# Plan 01-02: Search\n\n## Goal\nSearch the catalog.\n\n## Requirements\n- CAT-02: search by name\n\n## Tasks\n\n### Task 1: index\n";
    write(root, ".planning/phases/01-catalog/01-02-PLAN.md", bare);
    assert!(severities(root, "requirement-not-covered").is_empty());
    assert!(!severities(root, "plan-no-frontmatter").is_empty());
    // The same plan naming it anywhere else covers it too, as GSD's own gap
    // analysis counts coverage (`\bID\b` in a plan's text; batch 31,
    // Consultates+consultates-rebuild's success criteria); a plan that
    // never names it does not.
    write(
        root,
        ".planning/phases/01-catalog/01-02-PLAN.md",
        &bare.replace(
            "## Requirements\n- CAT-02: search by name\n",
            "## Success criteria\n- CAT-02: search by name works\n",
        ),
    );
    assert!(severities(root, "requirement-not-covered").is_empty());
    write(
        root,
        ".planning/phases/01-catalog/01-02-PLAN.md",
        &bare.replace(
            "## Requirements\n- CAT-02: search by name\n",
            "## Notes\n- search comes later (CAT-021 is another)\n",
        ),
    );
    assert_eq!(severities(root, "requirement-not-covered"), ["warning"]);
    // The IDs on the heading's own line (`## Requirements: CAT-02`).
    write(
        root,
        ".planning/phases/01-catalog/01-02-PLAN.md",
        &bare.replace(
            "## Requirements\n- CAT-02: search by name\n",
            "## Requirements: CAT-02\n",
        ),
    );
    assert!(severities(root, "requirement-not-covered").is_empty());
}

/// A phase whose roadmap section lists a plan not yet written (`- [ ]
/// 01-03: …` with no 01-03-PLAN.md) is still being planned: that plan may
/// be the one that covers a requirement, so no gap is reported until it is
/// written. Ticked plans do not count (batch 24, Ryz3nPlayZ+researchstaging:
/// 22-06 and 22-07 listed, five PLAN files on disk).
#[test]
fn a_phase_with_listed_plans_still_to_write_has_no_coverage_gap_yet() {
    let t = project(&["Catalog"], &["CAT-01: list", "CAT-02: search"]);
    let root = t.path();
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Requirements**: TBD",
        "**Requirements**: CAT-01, CAT-02\n\nPlans:\n- [x] 01-01: list\n- [ ] 01-02: search",
    );
    edit(
        root,
        ".planning/STATE.md",
        "Status: Ready to plan",
        "Status: Ready to execute",
    );
    plans(root, "01-catalog", 1, 1, "CAT-01");
    assert!(severities(root, "requirement-not-covered").is_empty());
    // Written without naming CAT-02: now a gap.
    plans(root, "01-catalog", 2, 1, "CAT-01");
    assert_eq!(severities(root, "requirement-not-covered"), ["warning"]);
    // A ticked entry with no PLAN file is not a plan still to write (the
    // phase is still live: 01-03 has not run).
    std::fs::remove_file(root.join(".planning/phases/01-catalog/01-02-PLAN.md")).unwrap();
    edit(root, ".planning/ROADMAP.md", "- [ ] 01-02", "- [x] 01-02");
    write(
        root,
        ".planning/phases/01-catalog/01-03-PLAN.md",
        &plan("01", "03", "CAT-01"),
    );
    assert_eq!(severities(root, "requirement-not-covered"), ["warning"]);
}

/// A listed plan nobody wrote stops covering for a gap once the work has
/// moved past its phase: then it was abandoned (review of session 58).
#[test]
fn a_listed_plan_left_unwritten_behind_the_work_is_no_excuse() {
    let t = project(&["Catalog", "Cart"], &["CAT-01: list", "CAT-02: search"]);
    let root = t.path();
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Requirements**: TBD",
        "**Requirements**: CAT-01, CAT-02\n\nPlans:\n- [x] 01-01: list\n- [ ] 01-02: search",
    );
    edit(
        root,
        ".planning/STATE.md",
        "Status: Ready to plan",
        "Status: Ready to execute",
    );
    plans(root, "01-catalog", 1, 1, "CAT-01");
    assert!(severities(root, "requirement-not-covered").is_empty());
    plans(root, "02-cart", 1, 1, "");
    assert_eq!(severities(root, "requirement-not-covered"), ["warning"]);
}

/// Batch 24's lint classes:
/// - a traceability row that gives a range with a note after it (`BUG-01
///   through BUG-03 (3 P0 blockers)`) traces every ID it spans, lettered
///   ones slotted in between (`BUG-02A`) and a lettered end (`BUG-03A`);
///   an ID past its end (`BUG-05`) is still untraced;
/// - requirements under `## v3 Requirements (Milestone 3)` — the template's
///   later versions, continued — wait for their milestone;
/// - a STATE.md status that has moved past a finished phase (`Between
///   phases. Next is Phase 2`) does not contradict its ticked box; one that
///   is still on it does.
#[test]
fn ranges_later_versions_and_a_moved_on_status_are_not_drift() {
    let t = project(&["Fixes", "Ship"], &["BUG-01: a", "BUG-02: b", "BUG-03: c"]);
    let root = t.path();
    edit(
        root,
        ".planning/REQUIREMENTS.md",
        "- [ ] **BUG-03**: c\n",
        "- [ ] **BUG-02A**: slotted in\n- [ ] **BUG-03**: c\n- [ ] **BUG-03A**: lettered end\n- [ ] **BUG-04**: its own row\n- [ ] **BUG-05**: past the range\n",
    );
    edit(
        root,
        ".planning/REQUIREMENTS.md",
        "| BUG-01 | TBD | Pending |\n| BUG-02 | TBD | Pending |\n| BUG-03 | TBD | Pending |\n",
        "| BUG-01 through BUG-03A (3 P0 blockers) | Phase 1 | Pending |\n| BUG-04 | Phase 2 | Pending |\n",
    );
    edit(
        root,
        ".planning/REQUIREMENTS.md",
        "## v2 Requirements\n\nNone yet.",
        "## v2 Requirements\n\nNone yet.\n\n## v3 Requirements (Milestone 3 — Content Depth)\n\n- **VID-01**: a video per lesson",
    );
    let untraced: Vec<String> = findings(root, "requirement-untraced")
        .iter()
        .filter(|d| d["severity"] != "info")
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        untraced,
        ["requirement BUG-05 is missing from the Traceability table"],
        "{untraced:?}"
    );

    // Phase 1 done and ticked; STATE.md has moved on to phase 2's turn.
    plans(root, "01-fixes", 1, 1, "BUG-01");
    edit(
        root,
        ".planning/ROADMAP.md",
        "- [ ] **Phase 1: Fixes**",
        "- [x] **Phase 1: Fixes**",
    );
    edit(
        root,
        ".planning/STATE.md",
        "Status: Ready to plan",
        "Status: Between phases. Next is Phase 2 (Ship); 2 remains.",
    );
    assert!(
        severities(root, "state-phase-complete-status").is_empty(),
        "{:?}",
        findings(root, "state-phase-complete-status")
    );
    edit(
        root,
        ".planning/STATE.md",
        "Status: Between phases. Next is Phase 2 (Ship); 2 remains.",
        "Status: Executing Phase 1",
    );
    assert_eq!(severities(root, "state-phase-complete-status"), ["warning"]);

    // `## v3 Requirements` as the file's first version is the current one.
    let t = project(&["Fixes"], &["BUG-01: a", "BUG-02: b"]);
    let root = t.path();
    edit(
        root,
        ".planning/REQUIREMENTS.md",
        "## v1 Requirements",
        "## v3 Requirements",
    );
    edit(
        root,
        ".planning/REQUIREMENTS.md",
        "| BUG-02 | TBD | Pending |\n",
        "",
    );
    assert_eq!(severities(root, "requirement-untraced"), ["warning"]);
}

/// Batch 25's lint classes:
/// - numbers missing between phase folders that a plan in a bordering
///   folder heads (`### Phase 4: …` inside `03-polish/v0.10-PLAN.md`, one
///   plan for several phases), a versioned roadmap beside ROADMAP.md
///   (`ROADMAP-v0.42.md`) or STATE.md's history names are not a gap; a
///   number none of them names still is (bibondz+crushcode);
/// - a phase folder the roadmap lacks that holds research but never got a
///   plan, while a later phase's plans have run, is an idea passed over:
///   info; an empty one (a phase just made) is not (wobyjs+wui);
/// - `model_profile: smart` is gsd-opencode's profile, not a mistake; a
///   name neither knows is (ragman53+shusei).
#[test]
fn plan_headings_passed_over_research_and_opencode_profiles_are_not_drift() {
    let t = project(&["Setup", "Core", "Polish"], &[]);
    let root = t.path();
    plans(root, "01-setup", 1, 1, "");
    plans(root, "02-core", 1, 1, "");
    write(
        root,
        ".planning/phases/03-polish/v0.10-PLAN.md",
        "# v0.10 plan\n\n### Phase 3: Truncation\n\nDo it.\n\n### Phase 4: Validation\n\nDo it.\n",
    );
    write(
        root,
        ".planning/phases/06-docs/06-01-PLAN.md",
        &plan("06", "01", ""),
    );
    // 5 is named nowhere yet.
    let gap = findings(root, "phase-numbering-gap");
    assert_eq!(gap.len(), 1, "{gap:?}");
    assert!(
        gap[0]["message"].as_str().unwrap().contains("phase 5 is"),
        "{gap:?}"
    );
    write(
        root,
        ".planning/ROADMAP-v0.11.md",
        "# Roadmap v0.11\n\n- Phase 5: Packaging\n",
    );
    assert!(findings(root, "phase-numbering-gap").is_empty());
    std::fs::remove_file(root.join(".planning/ROADMAP-v0.11.md")).unwrap();
    // STATE.md's counts and prose name no phase (`total_phases: 5`).
    edit(
        root,
        ".planning/STATE.md",
        "## Current Position",
        "total_phases: 5\nWe may do phase 5 later.\n\n## Current Position",
    );
    assert_eq!(findings(root, "phase-numbering-gap").len(), 1);
    // A heading that only mentions phase 4, or one in a code fence, is no
    // title: 4 is missing again, beside 5.
    write(
        root,
        ".planning/phases/03-polish/v0.10-PLAN.md",
        "# v0.10 plan\n\n### Phase 3: Truncation\n\n## Builds on Phase 4 outputs\n\n```bash\n# Phase 4: migrate\n```\n",
    );
    let gap = findings(root, "phase-numbering-gap");
    assert_eq!(gap.len(), 1, "{gap:?}");
    assert!(
        gap[0]["message"]
            .as_str()
            .unwrap()
            .contains("phases 4–5 are"),
        "{gap:?}"
    );

    // A research-only folder the roadmap lacks, numbered before phases
    // whose plans ran.
    let widgets = |root: &Path| -> Vec<String> {
        findings(root, "phase-dir-not-in-roadmap")
            .iter()
            .filter(|f| f["file"].as_str().unwrap().contains("01.5-widgets"))
            .map(|f| f["severity"].as_str().unwrap().to_owned())
            .collect()
    };
    write(
        root,
        ".planning/phases/01.5-widgets/01.5-RESEARCH.md",
        "# Research\n",
    );
    assert_eq!(widgets(root), ["info"]);
    std::fs::remove_file(root.join(".planning/phases/01.5-widgets/01.5-RESEARCH.md")).unwrap();
    assert_eq!(widgets(root), ["warning"]);
    // `phase add` leaves a `.gitkeep`: still a phase just made.
    write(root, ".planning/phases/01.5-widgets/.gitkeep", "");
    assert_eq!(widgets(root), ["warning"]);

    let config = root.join(".planning/config.json");
    let text = std::fs::read_to_string(&config).unwrap();
    let set = |profile: &str| {
        let mut v: Value = serde_json::from_str(&text).unwrap();
        v["model_profile"] = Value::from(profile);
        std::fs::write(&config, v.to_string()).unwrap();
    };
    set("smart");
    assert!(findings(root, "config-invalid-model-profile").is_empty());
    set("smartest");
    assert_eq!(findings(root, "config-invalid-model-profile").len(), 1);

    // A task that names its file in `<file>`: the finding says why <files>
    // is missing (juwelthomasanil+FlightAgent, sixteen tasks).
    let singular = plan("02", "02", "")
        .replace("<files>src/02-02.txt</files>", "<file>src/02-02.txt</file>")
        .replace("<done>d</done>\n", "");
    write(root, ".planning/phases/02-core/02-02-PLAN.md", &singular);
    let found = findings(root, "task-missing-recommended");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]["message"].as_str().unwrap().ends_with(
            "has no <files>, <done> (its <file> is not a GSD tag: the executor reads <files>)"
        ),
        "{found:?}"
    );
}

/// A requirement defined by a heading of its own in REQUIREMENTS.md
/// (`#### RISK-01: Position Size Limits`, its story below), or only in a
/// roadmap phase's `**Requirements Mapped:**` list, is defined: a plan that
/// names it names no unknown requirement (batch 27, MateDominguez+LockIn,
/// 13 findings). An ID defined nowhere still is one.
#[test]
fn requirements_defined_by_headings_or_a_mapped_list_are_known() {
    let t = project(&["Risk"], &[]);
    let root = t.path();
    plans(
        root,
        "01-risk",
        1,
        0,
        "RISK-01, PORTFOLIO-01, NOPE-01, API-01",
    );
    let unknown = |root: &Path| -> Vec<String> {
        let mut ids: Vec<String> = findings(root, "requirement-unknown")
            .iter()
            .map(|d| {
                d["message"]
                    .as_str()
                    .unwrap()
                    .split_whitespace()
                    .nth(4)
                    .unwrap()
                    .to_owned()
            })
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(
        unknown(root),
        ["API-01,", "NOPE-01,", "PORTFOLIO-01,", "RISK-01,"]
    );
    // No traceability row names RISK-01: only its heading defines it. A
    // heading naming a range (`API-01 through API-05`) defines none.
    write(
        root,
        ".planning/REQUIREMENTS.md",
        "# Requirements\n\n## v1 Requirements\n\n### RISK: Risk Management\n\n\
         #### RISK-01: Position Size Limits\n**User Story:** as a risk manager …\n\n\
         ### API-01 through API-05\n\nThe public API, specified later.\n",
    );
    assert_eq!(unknown(root), ["API-01,", "NOPE-01,", "PORTFOLIO-01,"]);
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Requirements**: TBD",
        "**Requirements Mapped:**\n- RISK-01: Position sizing\n- PORTFOLIO-01: Sector diversification\n",
    );
    assert_eq!(unknown(root), ["API-01,", "NOPE-01,"]);
}

/// A tree whose plans name requirement IDs only in their prose (`DASH-04`
/// in a task) does not trace requirements as GSD's planner writes them: no
/// requirement is a coverage gap there (batch 31, Ayy-man+toiture-main).
#[test]
fn ids_only_in_plan_prose_do_not_make_a_tree_trace_requirements() {
    let t = project(&["Catalog", "Deploy"], &["CAT-01: list", "DEP-01: ship"]);
    let root = t.path();
    edit(
        root,
        ".planning/ROADMAP.md",
        "**Requirements**: TBD",
        "**Requirements**: CAT-01, DEP-01",
    );
    edit(
        root,
        ".planning/STATE.md",
        "Status: Ready to plan",
        "Status: Ready to execute",
    );
    let bare = "# Plan 01-01: List\n\n## Tasks\n\n### Task 1: list the catalog (CAT-01)\n";
    write(root, ".planning/phases/01-catalog/01-01-PLAN.md", bare);
    assert!(severities(root, "requirement-not-covered").is_empty());
    // Once a plan traces them (`requirements:` in its frontmatter), the
    // one no plan names is a gap.
    plans(root, "01-catalog", 1, 0, "CAT-01");
    write(root, ".planning/phases/01-catalog/01-02-PLAN.md", bare);
    assert_eq!(severities(root, "requirement-not-covered"), ["warning"]);
}

/// `<task type="code">` is what GSD's own `template fill plan` writes (1.42.3
/// and GSD Core 1.14.0): no unknown task type (batch 32,
/// anshu018+Polymarket); another made-up type still is.
#[test]
fn the_task_type_gsds_plan_template_writes_is_known() {
    let t = project(&["Catalog"], &[]);
    let root = t.path();
    let p = plan("01", "01", "").replace("<task type=\"auto\">", "<task type=\"code\">");
    write(root, ".planning/phases/01-catalog/01-01-PLAN.md", &p);
    assert!(severities(root, "task-unknown-type").is_empty());
    write(
        root,
        ".planning/phases/01-catalog/01-01-PLAN.md",
        &p.replace("type=\"code\"", "type=\"feature\""),
    );
    assert_eq!(severities(root, "task-unknown-type").len(), 1);
}
