//! Milestones as real trees write them, read through the CLI: `gsd roadmap
//! --json` (current milestone, its phases, current/next phase, progress)
//! and `gsd lint` on the same tree. Each test is one shape: an in-progress
//! milestone in `<details open>`, shipped ones collapsed in `<details>` or
//! archived in `milestones/`, numbering that restarts, backlog phases, a
//! CRLF roadmap, quick plans, and requirements defined only in an archive.

mod common;

use std::path::Path;

use serde_json::{Value, json};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn plan(phase: &str, n: &str, reqs: &str) -> String {
    format!(
        "---\nphase: {phase}\nplan: {n}\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: [a.txt]\nautonomous: true\nrequirements: [{reqs}]\nmust_haves:\n  artifacts:\n    - path: a.txt\n---\n<tasks>\n<task type=\"auto\">\n<name>T</name>\n<files>a.txt</files>\n<action>a</action>\n<verify>true</verify>\n<done>d</done>\n</task>\n</tasks>\n"
    )
}

/// One plan in each phase folder `(dir, number, ran)`, with its summary
/// where it ran.
fn one_plan_each(root: &Path, folders: &[(&str, &str, bool)]) {
    for &(dir, n, done) in folders {
        write(
            root,
            &format!(".planning/phases/{dir}/{n}-01-PLAN.md"),
            &plan(n, "01", ""),
        );
        if done {
            write(
                root,
                &format!(".planning/phases/{dir}/{n}-01-SUMMARY.md"),
                "# Summary\n",
            );
        }
    }
}

fn roadmap(root: &Path) -> Value {
    let o = common::gsd(root, &["roadmap", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn lint_codes(root: &Path) -> Vec<(String, String, String)> {
    let o = common::gsd(root, &["lint", "--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["severity"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The `phase-dir-not-in-roadmap` findings' messages.
fn dirs_not_in_roadmap(root: &Path) -> Vec<String> {
    lint_codes(root)
        .into_iter()
        .filter(|(c, _, _)| c == "phase-dir-not-in-roadmap")
        .map(|(_, _, m)| m)
        .collect()
}

fn active(v: &Value) -> Vec<String> {
    v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["active"] == true)
        .map(|p| p["number"].as_str().unwrap().to_owned())
        .collect()
}

/// The in-progress milestone wrapped in `<details open>` is current, not
/// archived: all five of its phases count.
#[test]
fn details_open_is_the_current_milestone() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 MVP** - Phases 1-2 (shipped 2026-01-01)\n- 🚧 **v1.1 More** - Phases 3-7\n\n\
         <details>\n<summary>✅ v1.0 MVP (Phases 1-2) - SHIPPED 2026-01-01</summary>\n\n\
         - [x] Phase 1: A\n- [x] Phase 2: B\n\n</details>\n\n\
         <details open>\n<summary>v1.1 More (Phases 3-7)</summary>\n\n\
         - [x] **Phase 3: C**\n- [ ] **Phase 4: D**\n- [ ] **Phase 5: E**\n- [ ] **Phase 6: F**\n- [ ] **Phase 7: G**\n\n</details>\n\n\
         ## Phase Details\n\n### Phase 3: C\n**Goal**: c\n\n### Phase 4: D\n**Goal**: d\n\n### Phase 5: E\n**Goal**: e\n\n\
         ### Phase 6: F\n**Goal**: f\n\n### Phase 7: G\n**Goal**: g\n",
    );
    write(
        r,
        ".planning/phases/03-c/03-01-PLAN.md",
        &plan("03-c", "01", ""),
    );
    write(r, ".planning/phases/03-c/03-01-SUMMARY.md", "# done\n");
    write(
        r,
        ".planning/phases/04-d/04-01-PLAN.md",
        &plan("04-d", "01", ""),
    );
    let v = roadmap(r);
    assert_eq!(v["current_milestone"], "v1.1 More");
    assert_eq!(active(&v), ["3", "4", "5", "6", "7"]);
    assert_eq!(v["phase_count"], 5);
    assert_eq!(v["completed_phases"], 1);
    assert_eq!(v["current_phase"], "4");
    assert_eq!(v["next_phase"], "5");
    let ms = v["milestones"].as_array().unwrap();
    assert_eq!(ms[0]["status"], "shipped");
    assert_eq!(ms[1]["current"], true);
    // The shipped milestone is collapsed to its checklist: no lint about it.
    let lint = lint_codes(r);
    assert!(
        !lint
            .iter()
            .any(|(c, _, _)| c == "roadmap-checklist-without-details"),
        "{lint:?}"
    );
}

/// Shipped phases 1–7 listed outside `<details>` but named shipped by the
/// Milestones list are archived, not active; the next phase is 8.
#[test]
fn milestone_list_ranges_archive_phases_outside_details() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    let mut rm = String::from(
        "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 First** — Phases 1-7 (shipped 2026-02-01)\n- 📋 **v1.1 Next** — Phases 8-9 (planned)\n\n## Phases\n\n",
    );
    for n in 1..=7 {
        rm.push_str(&format!("- [x] **Phase {n}: P{n}**\n"));
    }
    rm.push_str("- [ ] **Phase 8: P8**\n- [ ] **Phase 9: P9**\n\n## Phase Details\n\n");
    for n in 1..=9 {
        rm.push_str(&format!("### Phase {n}: P{n}\n**Goal**: g\n\n"));
    }
    write(r, ".planning/ROADMAP.md", &rm);
    let v = roadmap(r);
    assert_eq!(active(&v), ["8", "9"]);
    assert_eq!(v["next_phase"], "8");
    assert_eq!(v["current_milestone"], "v1.1 Next");
    let archived = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["archived"] == true)
        .count();
    assert_eq!(archived, 7);
}

/// Milestone-grouped roadmap (a heading per milestone, newest first): the
/// current milestone has 7 phases, not the 25 of the whole file.
#[test]
fn milestone_headings_group_phases() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    let mut rm = String::from("# Roadmap\n\n## 🏁 Milestone v3.0 (Scale) - [In Planning]\n\n");
    for n in 19..=25 {
        rm.push_str(&format!("- [ ] **Phase {n}: P{n}**\n"));
    }
    rm.push_str("\n## 🏁 Milestone v2.0 (Grow) - [Complete]\n\n");
    for n in 10..=18 {
        rm.push_str(&format!("- [x] **Phase {n}: P{n}**\n"));
    }
    rm.push_str("\n## 🏁 Milestone v1.0 (Start) - [Complete]\n\n");
    for n in 1..=9 {
        rm.push_str(&format!("- [x] **Phase {n}: P{n}**\n"));
    }
    write(r, ".planning/ROADMAP.md", &rm);
    write(
        r,
        ".planning/STATE.md",
        "---\nmilestone: v3.0\n---\n# State\n",
    );
    let v = roadmap(r);
    assert_eq!(v["phase_count"], 7);
    assert_eq!(active(&v).first().map(String::as_str), Some("19"));
    assert_eq!(v["next_phase"], "19");
    // Human output: shipped milestones one line each, current phases listed.
    let o = common::gsd(r, &["roadmap"]);
    let text = common::stdout(&o);
    assert!(text.contains("0/7 phases complete"), "{text}");
    assert!(
        !text.contains("1 tasks") && !text.contains("1 plans"),
        "{text}"
    );
}

/// Numbering restarts: v1.0's phases 1–3 are archived in
/// `milestones/v1.0-phases/`, v1.1 starts again at 1 in `phases/`. Each
/// phase reads its own folder.
#[test]
fn restarting_numbering_keeps_milestones_apart() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- ✅ [v1.0 Old](milestones/v1.0-ROADMAP.md) (Phases 1-3) — SHIPPED\n- 🚧 **v1.1 New** — Phases 1-2 (in progress)\n\n\
         <details>\n<summary>v1.0 Old (Phases 1-3) — SHIPPED</summary>\n\n- [x] Phase 1: Old one\n- [x] Phase 2: Old two\n- [x] Phase 3: Old three\n</details>\n\n\
         ### 🚧 v1.1 New (In Progress)\n\n- [ ] **Phase 1: New one**\n- [ ] **Phase 2: New two**\n\n\
         ## Phase Details\n\n### Phase 1: New one\n**Goal**: n1\n\n### Phase 2: New two\n**Goal**: n2\n",
    );
    write(r, ".planning/milestones/v1.0-ROADMAP.md", "# v1.0\n");
    for (d, n) in [
        ("01-old-one", "01"),
        ("02-old-two", "02"),
        ("03-old-three", "03"),
    ] {
        write(
            r,
            &format!(".planning/milestones/v1.0-phases/{d}/{n}-01-PLAN.md"),
            &plan(d, "01", ""),
        );
        write(
            r,
            &format!(".planning/milestones/v1.0-phases/{d}/{n}-01-SUMMARY.md"),
            "# s\n",
        );
    }
    write(
        r,
        ".planning/phases/01-new-one/01-01-PLAN.md",
        &plan("01-new-one", "01", ""),
    );
    let v = roadmap(r);
    assert_eq!(v["current_milestone"], "v1.1 New");
    assert_eq!(active(&v), ["1", "2"]);
    let phases = v["phases"].as_array().unwrap();
    let new_one = phases.iter().find(|p| p["name"] == "New one").unwrap();
    assert_eq!(
        (new_one["plans"].as_u64(), new_one["summaries"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(new_one["status"], "planned");
    let old_one = phases.iter().find(|p| p["name"] == "Old one").unwrap();
    assert_eq!(old_one["archived"], true);
    assert_eq!(old_one["summaries"], 1);
    assert_eq!(v["current_phase"], "1");
    assert_eq!(v["next_phase"], "2");
    let ms = v["milestones"].as_array().unwrap();
    assert!(
        ms[0]["archive"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "milestones/v1.0-ROADMAP.md"),
        "{ms:?}"
    );
}

/// Backlog phases (999.x) are listed apart and never current or next.
#[test]
fn backlog_phases_stay_out_of_progress() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n- [ ] **Phase 1: A**\n\n### Phase 1: A\n**Goal**: a\n\n## Backlog\n\n### Phase 999.1: Idea (BACKLOG)\n**Goal**: later\n",
    );
    write(r, ".planning/phases/999.1-idea/.gitkeep", "");
    let v = roadmap(r);
    assert_eq!(active(&v), ["1"]);
    assert_eq!(v["next_phase"], "1");
    let backlog: Vec<&Value> = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["backlog"] == true)
        .collect();
    assert_eq!(backlog.len(), 1);
    assert_eq!(backlog[0]["number"], "999.1");
    let text = common::stdout(&common::gsd(r, &["roadmap"]));
    assert!(text.contains("Backlog"), "{text}");
}

/// A CRLF roadmap with archived milestones reads the same as its LF twin.
#[test]
fn crlf_roadmap_reads_like_lf() {
    let lf = "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 A** - Phases 1-2 (shipped)\n- 🚧 **v1.1 B** - Phases 3-4 (in progress)\n\n\
              <details>\n<summary>✅ v1.0 A (Phases 1-2) - SHIPPED</summary>\n\n### Phase 1: One\n**Goal**: 1\n\n### Phase 2: Two\n**Goal**: 2\n\n</details>\n\n\
              ### 🚧 v1.1 B (In Progress)\n\n#### Phase 3: Three\n**Goal**: 3\n\n#### Phase 4: Four\n**Goal**: 4\n\n\
              ## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n| 3. Three | 0/1 | In Progress | - |\n| 4. Four | 0/0 | Not started | - |\n";
    let read = |text: &str| {
        let t = tempfile::tempdir().unwrap();
        write(t.path(), ".planning/ROADMAP.md", text);
        write(
            t.path(),
            ".planning/phases/03-three/03-01-PLAN.md",
            &plan("03-three", "01", ""),
        );
        roadmap(t.path())
    };
    let a = read(lf);
    let b = read(&lf.replace('\n', "\r\n"));
    assert_eq!(a, b);
    assert_eq!(active(&a), ["3", "4"]);
    assert_eq!(a["current_phase"], "3");
    assert_eq!(a["next_phase"], "4");
}

/// GSD's quick tasks (`quick/1-slug/1-PLAN.md`, `quick/260617-tt4-x/…`)
/// are not badly named phase plans, and have no phase fields to declare.
#[test]
fn quick_plans_follow_gsd_quick_naming() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n### Phase 1: A\n**Goal**: a\n",
    );
    let quick = "---\nstatus: complete\n---\n<tasks>\n<task type=\"auto\"><name>q</name><files>a</files><action>a</action><verify>true</verify><done>d</done></task>\n</tasks>\n";
    write(r, ".planning/quick/1-fix-typo/1-PLAN.md", quick);
    write(
        r,
        ".planning/quick/260617-tt4-tidy/260617-tt4-PLAN.md",
        quick,
    );
    let lint = lint_codes(r);
    for (code, _, msg) in &lint {
        assert!(
            !matches!(
                code.as_str(),
                "plan-noncanonical-name" | "plan-missing-field" | "plan-no-frontmatter"
            ),
            "{code}: {msg}"
        );
    }
    // A real phase plan with the quick naming is still reported.
    write(
        r,
        ".planning/phases/01-a/1-PLAN.md",
        &plan("01-a", "01", ""),
    );
    assert!(
        lint_codes(r)
            .iter()
            .any(|(c, _, _)| c == "plan-noncanonical-name")
    );
    // Quick plans are listed and open by their IDs.
    let o = common::gsd(r, &["plan", "list", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    for p in v["plans"].as_array().unwrap() {
        let id = p["id"].as_str().unwrap();
        let o = common::gsd(r, &["plan", "show", id]);
        assert_eq!(o.status.code(), Some(0), "{id}: {}", common::stderr(&o));
    }
}

/// Requirement IDs defined only in `milestones/v1.0-REQUIREMENTS.md` are
/// known; an ID defined nowhere is still reported.
#[test]
fn requirements_resolve_across_archived_milestones() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n### Phase 1: A\n**Goal**: a\n",
    );
    write(
        r,
        ".planning/REQUIREMENTS.md",
        "# Requirements\n\n## v1.1 Requirements\n\n- [ ] **NEW-01**: new thing\n",
    );
    write(
        r,
        ".planning/milestones/v1.0-REQUIREMENTS.md",
        "# Requirements Archive: v1.0\n\n## v1 Requirements\n\n- [x] **OLD-01**: old thing\n",
    );
    write(
        r,
        ".planning/phases/01-a/01-01-PLAN.md",
        &plan("01-a", "01", "NEW-01, OLD-01, GONE-01"),
    );
    let unknown: Vec<String> = lint_codes(r)
        .into_iter()
        .filter(|(c, _, _)| c == "requirement-unknown")
        .map(|(_, _, m)| m)
        .collect();
    assert_eq!(unknown.len(), 1, "{unknown:?}");
    assert!(unknown[0].contains("GONE-01"));
}

/// `## v2.0 Requirements` is the active milestone's list: the PRD shows it
/// as committed, while the template's bare `## v2 Requirements` is later.
#[test]
fn prd_treats_a_milestone_version_heading_as_committed() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n### Phase 1: A\n**Goal**: a\n",
    );
    write(
        r,
        ".planning/PROJECT.md",
        "# P\n\n## What This Is\n\nx\n\n## Core Value\n\ny\n",
    );
    write(
        r,
        ".planning/REQUIREMENTS.md",
        "# Requirements\n\n## v2.0 Requirements\n\n- [ ] **NOW-01**: now\n\n## v2 Requirements\n\n- **LATER-01**: later\n",
    );
    let o = common::gsd(r, &["prd"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let text = common::stdout(&o);
    let committed = text.find("### Committed").expect("committed section");
    let later = text.find("### Later").expect("later section");
    let now = text.find("NOW-01").unwrap();
    let l = text.find("LATER-01").unwrap();
    assert!(committed < now && now < later && later < l, "{text}");
}

/// `roadmap update-progress` leaves a shipped milestone's rows alone (their
/// folders are archived: the disk would say 0/0) and never invents a date:
/// a completed phase gets the date its checklist or summaries record, and
/// keeps `-` when none is recorded.
#[test]
fn update_progress_keeps_history_and_invents_no_date() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    let roadmap = "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 Old** - Phases 1-1 (shipped)\n- 🚧 **v1.1 New** - Phases 2-3\n\n\
                   <details>\n<summary>✅ v1.0 Old (Phases 1-1) - SHIPPED</summary>\n\n- [x] **Phase 1: Old** (completed 2025-06-01)\n</details>\n\n\
                   - [x] **Phase 2: Two** (completed 2026-01-03)\n- [ ] **Phase 3: Three**\n\n\
                   ### Phase 2: Two\n**Goal**: g\n\n### Phase 3: Three\n**Goal**: g\n\n\
                   ## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n\
                   | 1. Old | 1/1 | Complete | 2025-06-01 |\n| 2. Two | 0/1 | In Progress | - |\n| 3. Three | 0/1 | In Progress | - |\n";
    write(r, ".planning/ROADMAP.md", roadmap);
    write(
        r,
        ".planning/milestones/v1.0-phases/01-old/01-01-PLAN.md",
        &plan("01-old", "01", ""),
    );
    write(
        r,
        ".planning/milestones/v1.0-phases/01-old/01-01-SUMMARY.md",
        "# s\n",
    );
    write(
        r,
        ".planning/phases/02-two/02-01-PLAN.md",
        &plan("02-two", "01", ""),
    );
    write(r, ".planning/phases/02-two/02-01-SUMMARY.md", "# s\n");
    write(
        r,
        ".planning/phases/03-three/03-01-PLAN.md",
        &plan("03-three", "01", ""),
    );
    write(r, ".planning/phases/03-three/03-01-SUMMARY.md", "# s\n");
    let o = common::gsd(r, &["roadmap", "update-progress", "--no-commit"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let after = std::fs::read_to_string(r.join(".planning/ROADMAP.md")).unwrap();
    assert!(
        after.contains("| 1. Old | 1/1 | Complete | 2025-06-01 |"),
        "{after}"
    );
    assert!(
        after.contains("| 2. Two | 1/1 | Complete | 2026-01-03 |"),
        "{after}"
    );
    // Phase 3 ran too, but nothing records when: no date is made up.
    assert!(
        after.contains("| 3. Three | 1/1 | Complete | - |"),
        "{after}"
    );
    // Its summary's `completed:` is a record.
    write(
        r,
        ".planning/phases/03-three/03-01-SUMMARY.md",
        "---\ncompleted: 2026-02-10\n---\n# s\n",
    );
    let o = common::gsd(r, &["roadmap", "update-progress", "--no-commit"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let after = std::fs::read_to_string(r.join(".planning/ROADMAP.md")).unwrap();
    assert!(
        after.contains("| 3. Three | 1/1 | Complete | 2026-02-10 |"),
        "{after}"
    );
}

/// A ROADMAP.md that is not UTF-8 cannot be read: `gsd roadmap` says so
/// (exit 2) instead of answering an empty roadmap.
#[test]
fn a_roadmap_that_is_not_utf8_is_named() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join(".planning")).unwrap();
    std::fs::write(
        t.path().join(".planning/ROADMAP.md"),
        b"# Roadmap\n\n### Phase 1: A \xff\xfe\n",
    )
    .unwrap();
    for args in [&["roadmap"][..], &["roadmap", "--json"][..]] {
        let o = common::gsd(t.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            common::stderr(&o).contains("not valid UTF-8"),
            "{}",
            common::stderr(&o)
        );
    }
}

/// One reading from all the evidence, class by class (issue 26): each case
/// is a small tree in the shape real roadmaps take, and what a maintainer
/// reads from it.
mod evidence {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        for (rel, text) in files {
            write(t.path(), rel, text);
        }
        t
    }

    fn current(v: &Value) -> Option<String> {
        v["milestones"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["current"] == true)
            .map(|m| m["version"].as_str().unwrap_or("").to_owned())
    }

    fn complete(v: &Value, n: &str) -> bool {
        v["phases"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["number"] == n && p["status"] == "complete")
    }

    #[test]
    fn status_only_where_a_status_is_written() {
        let t = tree(&[(
            ".planning/ROADMAP.md",
            "# Roadmap\n\n## Milestone v5.0: Complete Rewrite\n\n### Phase 1: A\n**Goal**: a\n\n## 🔄 v3.1 Phases 43-45 (43 complete, 44 partial)\n\n### Phase 43: B\n**Goal**: b\n",
        )]);
        let v = roadmap(t.path());
        let statuses: Vec<&str> = v["milestones"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["unknown", "in_progress"], "{v}");
    }

    #[test]
    fn milestones_named_m1_or_milestone_3_or_v7_are_milestones() {
        let t = tree(&[(
            ".planning/ROADMAP.md",
            "# Roadmap\n\n## M1: Foundation\n**Status:** Complete ✓\n\n### Phase 1: A\n**Goal**: a\n\n## M2: Engine\n**Status:** Pending\n\n### Phase 2: B\n**Goal**: b\n",
        )]);
        let v = roadmap(t.path());
        assert_eq!(current(&v).as_deref(), Some("M2"), "{v}");
        assert_eq!(active(&v), ["2"]);
        let t = tree(&[(
            ".planning/ROADMAP.md",
            "# Roadmap\n\n## ✅ v6 Old\n\n### Phase 1: A\n**Goal**: a\n\n## 🚧 v7 New\n\n### Phase 2: B\n**Goal**: b\n",
        )]);
        assert_eq!(current(&roadmap(t.path())).as_deref(), Some("v7"));
    }

    /// A `**Status**:` line under the milestone's first phase heading is
    /// that phase's, not the milestone's (the one right under the milestone
    /// heading is, above): every phase complete and no mark leaves the
    /// milestone current.
    #[test]
    fn a_first_phases_status_line_is_not_its_milestones() {
        let t = tree(&[(
            ".planning/ROADMAP.md",
            "# Roadmap\n\n## Milestone 1: Production-Ready v1.0\n\n### Phase 1: A\n**Status**: `completed`\n\n### Phase 2: B\n**Status**: `completed`\n",
        )]);
        let v = roadmap(t.path());
        assert_eq!(current(&v).as_deref(), Some("v1.0"), "{v}");
        assert_eq!(active(&v), ["1", "2"], "{v}");
    }

    #[test]
    fn completion_from_every_mark_and_from_summaries_without_plans() {
        let t = tree(&[
            (
                ".planning/ROADMAP.md",
                "# Roadmap\n\n- [ ] **Phase 1: A**\n- [ ] **Phase 2: B**\n- [ ] **Phase 3: C**\n- [ ] **Phase 4: D**\n\n### Phase 3: C ✅\n**Goal**: c\n\n## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n| 1. A | 1/1 | Done | 2026-01-01 |\n",
            ),
            (".planning/phases/02-b/02-01-SUMMARY.md", "# done\n"),
            (".planning/phases/04-d/04-01-PLAN.md", &plan("04", "01", "")),
        ]);
        let v = roadmap(t.path());
        for n in ["1", "2", "3"] {
            assert!(complete(&v, n), "phase {n}: {v}");
        }
        assert!(!complete(&v, "4"));
        assert_eq!(v["current_phase"], "4");
    }

    #[test]
    fn state_position_wins_when_it_names_an_unfinished_phase() {
        let files = |pos: &str| {
            vec![
                (
                    ".planning/ROADMAP.md".to_owned(),
                    "# Roadmap\n\n- [ ] **Phase 1: A**\n- [ ] **Phase 2: B**\n".to_owned(),
                ),
                (
                    ".planning/phases/01-a/01-01-PLAN.md".to_owned(),
                    plan("01", "01", ""),
                ),
                (
                    ".planning/phases/02-b/02-01-PLAN.md".to_owned(),
                    plan("02", "01", ""),
                ),
                (
                    ".planning/STATE.md".to_owned(),
                    format!("# State\n\nPhase: {pos}\n"),
                ),
            ]
        };
        let t = tempfile::tempdir().unwrap();
        for (rel, text) in files("2 of 2 (B)") {
            write(t.path(), &rel, &text);
        }
        assert_eq!(roadmap(t.path())["current_phase"], "2");
        // A phase that does not exist: the disk decides.
        write(t.path(), ".planning/STATE.md", "# State\n\nPhase: 9\n");
        assert_eq!(roadmap(t.path())["current_phase"], "1");
    }

    #[test]
    fn folders_and_phases_outside_the_current_milestone_are_not_its_work() {
        let t = tree(&[
            (
                ".planning/ROADMAP.md",
                "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 Old** - Phases 1-2 (shipped)\n- 🚧 **v1.1 New** - Phases 5-6 (in progress)\n\n## Phases\n\n- [ ] **Phase 5: E**\n- [ ] **Phase 6: F**\n- [ ] **Phase 7: G** (appended later)\n- [ ] **Phase 4: Removed idea** (REMOVED)\n",
            ),
            // A folder of older work the roadmap no longer names.
            (".planning/phases/03-c/03-01-PLAN.md", &plan("03", "01", "")),
        ]);
        let v = roadmap(t.path());
        assert_eq!(active(&v), ["5", "6", "7"], "{v}");
    }

    #[test]
    fn a_milestone_archived_with_all_its_phases_done_leaves_nothing_live() {
        let t = tree(&[
            (
                ".planning/ROADMAP.md",
                "# Roadmap\n\n- [x] **Phase 1: A**\n- [x] **Phase 2: B**\n",
            ),
            (
                ".planning/MILESTONES.md",
                "# Milestones\n\n## v1.0 MVP (Shipped: 2026-01-01)\n",
            ),
        ]);
        let v = roadmap(t.path());
        assert!(active(&v).is_empty(), "{v}");
        assert_eq!(v["total_plans"], 0);
        // Without the record it is still the whole roadmap, all done.
        std::fs::remove_file(t.path().join(".planning/MILESTONES.md")).unwrap();
        assert_eq!(active(&roadmap(t.path())), ["1", "2"]);
    }

    #[test]
    fn the_milestone_state_names_holds_a_roadmap_without_milestones() {
        let t = tree(&[
            (
                ".planning/ROADMAP.md",
                "# Roadmap\n\n- [x] **Phase 1: A**\n- [ ] **Phase 2: B**\n",
            ),
            (
                ".planning/STATE.md",
                "---\nmilestone: v1.0\nmilestone_name: Lançamento público\n---\n# State\n",
            ),
        ]);
        let v = roadmap(t.path());
        assert_eq!(current(&v).as_deref(), Some("v1.0"), "{v}");
        // GSD's default `milestone_name: milestone` is no milestone.
        write(
            t.path(),
            ".planning/STATE.md",
            "---\nmilestone: v1.0\nmilestone_name: milestone\n---\n# State\n",
        );
        assert_eq!(current(&roadmap(t.path())), None);
    }
}

fn initialised(phases: &[&str]) -> tempfile::TempDir {
    common::gsd_init(phases, &[])
}

fn current(v: &Value) -> Option<String> {
    v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["current"] == true)
        .map(|m| m["version"].as_str().unwrap_or_default().to_owned())
}

/// After a milestone ships GSD removes ROADMAP.md; while the next one
/// defines its requirements, STATE.md says where the work stands. The
/// reading answers from it; with neither file, the command still refuses.
#[test]
fn no_roadmap_reads_the_milestone_state_names() {
    let t = initialised(&["Catalog"]);
    let root = t.path();
    std::fs::remove_file(root.join(".planning/ROADMAP.md")).unwrap();
    write(
        root,
        ".planning/STATE.md",
        "# Project State\n\n## Current Position\n\nMilestone: v4.2 Test Framework\nPhase: Not started (defining requirements)\nStatus: Defining requirements\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v4.2"), "{v}");
    assert!(active(&v).is_empty(), "{v}");
    assert_eq!(v["current_phase"], Value::Null);
    assert_eq!(v["next_phase"], Value::Null);
    // The phase folder `gsd init` made is not this milestone's.
    assert_eq!(v["total_plans"], 0);
    // A write that needs the roadmap says where it went and what to do.
    let o = common::gsd(root, &["phase", "add", "Reports", "--no-commit"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("gsd init"),
        "{}",
        common::stderr(&o)
    );
    write(
        root,
        ".planning/milestones/v4.1-ROADMAP.md",
        "# Roadmap v4.1
",
    );
    let o = common::gsd(root, &["phase", "add", "Reports", "--no-commit"]);
    assert_eq!(o.status.code(), Some(2));
    let err = common::stderr(&o);
    assert!(
        err.contains("new-milestone") && !err.contains("gsd init"),
        "{err}"
    );

    std::fs::remove_file(root.join(".planning/STATE.md")).unwrap();
    let o = common::gsd(root, &["roadmap", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("ROADMAP.md does not exist"));
}

/// A milestone STATE.md still names, that MILESTONES.md records as shipped,
/// is done: the project is between milestones. Without the record the same
/// STATE.md keeps it current.
#[test]
fn a_milestone_milestones_md_records_as_shipped_is_not_current() {
    let t = initialised(&["Catalog"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Shop\n\nShipped as milestone `v1.1` on 2026-04-04.\n",
    );
    write(
        root,
        ".planning/STATE.md",
        "---\nmilestone: v1.1\nmilestone_name: cloud-first\nstatus: archived\n---\n\n# Project State\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.1"), "{v}");
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.1 Cloud-First (Shipped: 2026-04-04)\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    assert_eq!(v["milestones"][0]["status"], "shipped", "{v}");
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    assert!(
        why.contains("has shipped: MILESTONES.md marks it shipped; STATE.md still names it"),
        "{why}"
    );
}

/// STATE.md's table of finished milestones marks the one the roadmap
/// describes (unmarked) as done: between milestones. A row marked in
/// progress, or a table that is not of finished milestones, says nothing.
#[test]
fn a_state_table_of_finished_milestones_ships_an_unmarked_one() {
    let t = initialised(&["Verify UI", "Tour"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap — Shop v1.1 Onboarding\n\n**Milestone:** v1.1 — Onboarding\n\n## Фазы\n\n### Phase 1: Verify UI\n\n### Phase 2: Tour\n",
    );
    let state = |rows: &str, heading: &str| {
        format!("# State\n\n## {heading}\n\n| Milestone | Статус |\n|---|---|\n{rows}\n")
    };
    write(
        root,
        ".planning/STATE.md",
        &state("| v1.1 — Onboarding | 🚧 В работе |", "Milestones"),
    );
    assert_eq!(current(&roadmap(root)).as_deref(), Some("v1.1"));
    write(
        root,
        ".planning/STATE.md",
        &state("| v1.1 — Onboarding | 2026-03-18 |", "Notes"),
    );
    assert_eq!(current(&roadmap(root)).as_deref(), Some("v1.1"));
    write(
        root,
        ".planning/STATE.md",
        &state(
            "| v1.0 — MVP | ✅ Завершён |\n| v1.1 — Onboarding | ✅ Завершён |",
            "Milestones",
        ),
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    assert!(active(&v).is_empty(), "{v}");
    write(
        root,
        ".planning/STATE.md",
        &state("| v1.1 — Onboarding | 2026-03-18 |", "Shipped Milestones"),
    );
    assert_eq!(current(&roadmap(root)), None);
}

/// STATE.md names the position twice — a stale `Phase:` line of a phase
/// that has since finished beside the live one: the reading takes the one
/// still to do, not the first unfinished phase on disk.
#[test]
fn a_stale_position_line_gives_way_to_the_live_one() {
    let t = initialised(&["Foundation", "Discovery", "Scheduling", "Reliability"]);
    let root = t.path();
    let dirs: Vec<String> = std::fs::read_dir(root.join(".planning/phases"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let dir = |n: &str| dirs.iter().find(|d| d.starts_with(n)).unwrap().clone();
    for (phase, plans, done) in [("01", 1, 1), ("02", 2, 1), ("03", 1, 1)] {
        for i in 1..=plans {
            let f = format!(".planning/phases/{}/{phase}-0{i}-PLAN.md", dir(phase));
            write(root, &f, &plan(phase, &format!("0{i}"), "R-1"));
            if i <= done {
                write(root, &f.replace("PLAN", "SUMMARY"), "# done\n");
            }
        }
    }
    let body = "# Project State\n\n**Phase:** 4\n**Status:** Ready to plan\n\n## Current Position\n\nPhase: 03 (scheduling) — EXECUTING\n";
    write(root, ".planning/STATE.md", body);
    let v = roadmap(root);
    assert_eq!(v["current_phase"], "4", "{v}");
    assert!(v.get("explain").is_none(), "explain only when asked: {v}");
    // `--explain` says which source won, in JSON and for people.
    let o = common::gsd(root, &["roadmap", "--json", "--explain"]);
    let why: Vec<String> = serde_json::from_slice::<Value>(&o.stdout).unwrap()["explain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_owned())
        .collect();
    assert!(
        why.iter()
            .any(|l| l == "the phase to work on is 4: STATE.md names it and it is not complete"),
        "{why:?}"
    );
    assert!(
        why.iter()
            .any(|l| l == "phase 2 is partial: 1 of 2 plans have a summary on disk"),
        "{why:?}"
    );
    let o = common::gsd(root, &["roadmap", "--explain"]);
    let text = common::stdout(&o);
    assert!(text.contains("\nwhy:\n  "), "{text}");
    assert!(
        text.contains("phase 3 is complete: 1 of 1 plans have a summary on disk"),
        "{text}"
    );
    // With only the stale line, the first unfinished phase is the position.
    write(
        root,
        ".planning/STATE.md",
        &body.replace("**Phase:** 4\n", ""),
    );
    let v = roadmap(root);
    assert_eq!(v["current_phase"], "2", "{v}");
}

/// A phase's `**Status:**` line in its detail section is a status written
/// where a status is written: `Complete (2026-02-07)` and `Code Complete`
/// finish the phase, `Not Started` does not, and `--explain` names it.
#[test]
fn a_status_line_in_a_phase_section_is_completion_evidence() {
    let t = initialised(&["Catalog", "Cart", "Checkout"]);
    let root = t.path();
    let rm = root.join(".planning/ROADMAP.md");
    let text = std::fs::read_to_string(&rm).unwrap();
    let text = text
        .replacen(
            "**Plans**: TBD",
            "**Plans**: TBD\n**Status:** Complete (2026-02-07)",
            1,
        )
        .replacen(
            "### Phase 2: Cart\n",
            "### Phase 2: Cart\n**Status:** Code Complete 2026-04-20; scope reduced\n",
            1,
        )
        .replacen(
            "### Phase 3: Checkout\n",
            "### Phase 3: Checkout\n**Status:** Not Started\n",
            1,
        );
    std::fs::write(&rm, text).unwrap();
    let v = roadmap(root);
    let status: Vec<(String, String)> = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["number"].as_str().unwrap().to_owned(),
                p["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        status,
        [
            ("1".to_owned(), "complete".to_owned()),
            ("2".to_owned(), "complete".to_owned()),
            ("3".to_owned(), "empty".to_owned())
        ],
        "{v}"
    );
    assert_eq!(v["next_phase"], "3");
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    assert!(
        why.contains("phase 1 is complete: its **Status:** line says done"),
        "{why}"
    );
}

/// STATE.md's position is where the work is: a milestone the roadmap
/// still marks planned is current once the position sits in it, and an
/// unmarked milestone with phases left stays current although STATE.md's
/// `milestone:` key (which GSD's tools write from the last version heading)
/// already names the next one. A position in a milestone with nothing left
/// moves nothing, and neither does a number two open milestones share.
#[test]
fn state_position_names_the_current_milestone() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let roadmap_md = "# Roadmap\n\n## Milestones\n\n- 🚧 **v4.0 Mobile** (Phases 1-2) — IN PROGRESS\n- 📋 **v5.0 Enterprise** (Phases 3-4) — PLANNED\n\n### 🚧 v4.0 Mobile (In Progress)\n\n#### Phase 1: Foundation ✅\n**Goal**: a\n\n#### Phase 2: Secondary (In Progress)\n**Goal**: b\n\n### 📋 v5.0 Enterprise (Planned)\n\n#### Phase 3: Quality ✅\n**Goal**: c\n\n#### Phase 4: Design (In Progress)\n**Goal**: d\n";
    write(root, ".planning/ROADMAP.md", roadmap_md);
    write(root, ".planning/PROJECT.md", "# P\n");
    for (dir, n, done) in [("03-quality", "03", true), ("04-design", "04", false)] {
        write(
            root,
            &format!(".planning/phases/{dir}/{n}-01-PLAN.md"),
            &plan(n, "01", "R-1"),
        );
        if done {
            write(
                root,
                &format!(".planning/phases/{dir}/{n}-01-SUMMARY.md"),
                "# S\n",
            );
        }
    }
    let state = |phase: &str, fm: &str| {
        format!(
            "---\n{fm}---\n# Project State\n\n## Current Position\n\nPhase: {phase}\nPlan: 1 of 1\nStatus: In progress\n"
        )
    };
    // The roadmap's marks say v4.0; the position says v5.0's phase 4.
    write(root, ".planning/STATE.md", &state("4 of 4 (Design)", ""));
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v5.0"), "{v}");
    assert_eq!(v["current_phase"], "4", "{v}");
    assert_eq!(active(&v), ["3", "4"]);
    let o = common::gsd(root, &["roadmap", "--explain"]);
    assert!(
        common::stdout(&o).contains("current milestone v5.0 Enterprise (ROADMAP.md line 6)"),
        "{}",
        common::stdout(&o)
    );
    assert!(
        common::stdout(&o).contains("STATE.md's position names one of its phases"),
        "{}",
        common::stdout(&o)
    );
    // Without a position the roadmap's in-progress mark decides.
    write(root, ".planning/STATE.md", &state("", ""));
    assert_eq!(current(&roadmap(root)).as_deref(), Some("v4.0"));

    // An unmarked milestone with phases left, its last phase done and named
    // by the position; STATE.md's `milestone:` key names the next one.
    let unmarked = "# Roadmap\n\n## Phases\n\n### v1.0 (MVP)\n\n- [x] **Phase 1: A**\n- [ ] **Phase 2: B**\n\n### v1.1 (Post-MVP)\n\n- [ ] **Phase 3: C**\n";
    write(root, ".planning/ROADMAP.md", unmarked);
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/phases/01-a/01-01-PLAN.md",
        &plan("01", "01", "R-1"),
    );
    write(root, ".planning/phases/01-a/01-01-SUMMARY.md", "# S\n");
    write(
        root,
        ".planning/STATE.md",
        &state("1 (A) — COMPLETE", "milestone: v1.1\n"),
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.0"), "{v}");
    assert_eq!(v["next_phase"], "2", "{v}");
    // v1.0 with nothing left: the position moves nothing, the key decides.
    write(
        root,
        ".planning/ROADMAP.md",
        &unmarked.replace("- [ ] **Phase 2", "- [x] **Phase 2"),
    );
    assert_eq!(current(&roadmap(root)).as_deref(), Some("v1.1"));

    // Numbering that restarts: phase 1 in both open milestones decides nothing.
    let restart = "# Roadmap\n\n## Milestones\n\n- 🚧 **v1.0 A** — IN PROGRESS\n- 📋 **v2.0 B** — PLANNED\n\n### 🚧 v1.0 A (In Progress)\n\n- [ ] **Phase 1: A1**\n\n### 📋 v2.0 B (Planned)\n\n- [ ] **Phase 1: B1**\n";
    write(root, ".planning/ROADMAP.md", restart);
    write(
        root,
        ".planning/STATE.md",
        &state("1 of 1", "milestone: v1.0\n"),
    );
    assert_eq!(current(&roadmap(root)).as_deref(), Some("v1.0"));
}

/// A roadmap that names its milestones only in an execution order, one
/// line per milestone (`- v1.0: 1 → 2 (complete)`): the phases each line
/// lists are that milestone's, and its status word is its status.
#[test]
fn execution_order_lines_name_milestones() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let roadmap_md = "# Roadmap\n\n## Phases\n\n- [x] **Phase 1: A**\n- [x] **Phase 2: B**\n- [ ] **Phase 3: C**\n- [ ] **Phase 4: D**\n\n## Progress\n\n**Execution Order:**\n- v1.0: 1 → 2 (complete)\n- v2.0 (Karte): Phases 3 → 4\n";
    write(root, ".planning/ROADMAP.md", roadmap_md);
    write(root, ".planning/PROJECT.md", "# P\n");
    write(
        root,
        ".planning/phases/03-c/03-01-PLAN.md",
        &plan("03", "01", "R-1"),
    );
    write(
        root,
        ".planning/STATE.md",
        "# Project State\n\n## Current Position\n\nPhase: 3 of 4\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v2.0"), "{v}");
    assert_eq!(active(&v), ["3", "4"], "{v}");
    assert_eq!(v["current_phase"], "3");
    let shipped: Vec<&Value> = v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["status"] == "shipped")
        .collect();
    assert_eq!(shipped.len(), 1, "{v}");
    assert_eq!(shipped[0]["version"], "v1.0");
    // Prose after a colon names no milestone.
    write(
        root,
        ".planning/ROADMAP.md",
        &roadmap_md.replace(
            "- v1.0: 1 → 2 (complete)\n- v2.0 (Karte): Phases 3 → 4\n",
            "- v1.0: ships the basics\n",
        ),
    );
    let v = roadmap(root);
    assert!(v["milestones"].as_array().unwrap().is_empty(), "{v}");
    assert_eq!(active(&v), ["1", "2", "3", "4"]);
}

/// The `### Phase Details` form GSD's new-project workflow presents
/// (`**Phase 1: Name**` on a line of its own, then `Goal:` and
/// `Requirements:` lines) names phases like headings do: their names and
/// goals are read, and their folders are in the roadmap.
#[test]
fn bold_phase_lines_are_phase_details() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let roadmap_md = "# Proposed Roadmap\n\n**Phase Numbering:**\n- Integer phases (1, 2, 3): planned work\n\n**2 phases** | **2 requirements mapped** | All covered ✓\n\n| # | Phase | Goal | Requirements | Success Criteria |\n|---|-------|------|--------------|------------------|\n| 1 | Engine Fixes | Fix the engine | ED-01 | 1 |\n| 2 | UI Overhaul | Resizable panes | ED-02 | 1 |\n\n### Phase Details\n\n**Phase 1: Engine Fixes**\nGoal: Fix the engine\nRequirements: ED-01\nSuccess criteria:\n1. It runs.\n\n**Phase 2: UI Overhaul**\nGoal: Resizable panes\nRequirements: ED-02\nSuccess criteria:\n1. Panes resize.\n";
    write(root, ".planning/ROADMAP.md", roadmap_md);
    write(root, ".planning/PROJECT.md", "# P\n");
    write(
        root,
        ".planning/STATE.md",
        "# Project State\n\n## Current Position\n\nPhase: 2 of 2\n",
    );
    write(
        root,
        ".planning/phases/01-engine-fixes/01-01-PLAN.md",
        &plan("01", "01", "ED-01"),
    );
    write(
        root,
        ".planning/phases/01-engine-fixes/01-01-SUMMARY.md",
        "# S\n",
    );
    write(
        root,
        ".planning/phases/02-ui-overhaul/02-01-PLAN.md",
        &plan("02", "01", "ED-02"),
    );
    let v = roadmap(root);
    let phases = v["phases"].as_array().unwrap();
    let names: Vec<&str> = phases.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Engine Fixes", "UI Overhaul"], "{v}");
    assert_eq!(phases[1]["goal"], "Resizable panes", "{v}");
    assert_eq!(v["current_phase"], "2");
    assert_eq!(dirs_not_in_roadmap(root), Vec::<String>::new());
    // A bold phase name inside a sentence is no phase.
    write(
        root,
        ".planning/ROADMAP.md",
        // (The `| # | Phase | Goal |` table defines phase 2 too: its row
        // goes, so only the sentence names it.)
        &roadmap_md
            .replace(
                "**Phase 2: UI Overhaul**\n",
                "Then **Phase 2: UI Overhaul** follows.\n",
            )
            .replace("| 2 | UI Overhaul | Resizable panes | ED-02 | 1 |\n", ""),
    );
    let dirs = dirs_not_in_roadmap(root);
    assert!(
        dirs.iter().any(|m| m.contains("02-ui-overhaul")),
        "{dirs:?}"
    );
}

/// `gsd phase list` reads a folder's status from the same reading as
/// `gsd roadmap`: a phase the roadmap ticks, whose folder holds only a
/// context file, is complete in both; its files' own status stays in
/// `disk_status`.
#[test]
fn phase_list_status_is_the_readings() {
    let t = initialised(&["Catalog", "Cart"]);
    let root = t.path();
    let rm = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap();
    let ticked = rm.replacen("- [ ] **Phase 1", "- [x] **Phase 1", 1);
    assert_ne!(rm, ticked, "gsd init writes a checklist");
    write(root, ".planning/ROADMAP.md", &ticked);
    let dir = std::fs::read_dir(root.join(".planning/phases"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("01"))
        .unwrap();
    write(
        root,
        &format!(".planning/phases/{dir}/01-CONTEXT.md"),
        "# Context\n",
    );
    let r = roadmap(root);
    assert_eq!(r["phases"][0]["status"], "complete", "{r}");
    let o = common::gsd(root, &["phase", "list", "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["phases"][0]["status"], "complete", "{v}");
    assert_ne!(v["phases"][0]["disk_status"], "complete", "{v}");
    let o = common::gsd(root, &["phase", "list"]);
    let first = common::stdout(&o)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    assert!(first.ends_with("complete"), "{first}");
}

/// Roadmaps in Chinese write `Phase 1：名称` with a full-width colon, and a
/// phase whose `Plans:` list is all ticked is complete even before its
/// folder holds summaries (the list is the roadmap's record of its plans).
#[test]
fn full_width_colons_and_ticked_plan_lists() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let roadmap_md = "# 路线图\n\n## 阶段列表\n\n- [ ] **Phase 1：信息架构** - 固化模块结构\n- [ ] **Phase 2：素材替换** - 可控\n\n## 阶段详情\n\n### Phase 1：信息架构\n**目标**：一致\n\nPlans:\n- [x] 01-01：核对锚点\n- [x] 01-02：优化断点\n\n### Phase 2：素材替换\n**目标**：替换\n\nPlans:\n- [x] 02-01：映射层\n- [ ] 02-02：说明\n";
    write(root, ".planning/ROADMAP.md", roadmap_md);
    write(root, ".planning/PROJECT.md", "# P\n");
    for n in ["01", "02"] {
        write(
            root,
            &format!(".planning/phases/{n}-x/{n}-01-PLAN.md"),
            &plan(n, "01", "R-1"),
        );
    }
    let v = roadmap(root);
    let phases = v["phases"].as_array().unwrap();
    let names: Vec<&str> = phases.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["信息架构", "素材替换"], "{v}");
    assert_eq!(phases[0]["status"], "complete", "{v}");
    assert_ne!(phases[1]["status"], "complete", "{v}");
    assert_eq!(v["current_phase"], "2", "{v}");
}

/// Each phase's status in `gsd roadmap --json`, in order.
fn phase_statuses(r: &Value) -> Vec<String> {
    r["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["status"].as_str().unwrap().to_owned())
        .collect()
}

/// A phase table in STATE.md (`| Phase | Status | Evidence |`, where some
/// trees keep their progress) says which phases are done; a table with no
/// status column (GSD's `| Phase | Plans | Total |` metrics) says nothing.
#[test]
fn state_phase_tables_with_a_status_column_say_which_phases_are_done() {
    let t = initialised(&["Catalog", "Cart", "Checkout"]);
    let root = t.path();
    let state = std::fs::read_to_string(root.join(".planning/STATE.md")).unwrap();
    let metrics = "\n## Metrics\n\n| Phase | Plans | Total |\n|---|---|---|\n| 1 | 2 | 10 min |\n| 2 | 1 | 5 min |\n";
    write(root, ".planning/STATE.md", &format!("{state}{metrics}"));
    let r = roadmap(root);
    let statuses = phase_statuses(&r);
    assert!(!statuses.iter().any(|s| s == "complete"), "{r}");
    let progress = "\n## Progress\n\n| Phase | Status | Evidence |\n|-------|--------|----------|\n| 1 | Complete | audit done |\n| 2 | Complete | API verified |\n| 3 | In progress | |\n";
    write(
        root,
        ".planning/STATE.md",
        &format!("{state}{metrics}{progress}"),
    );
    let r = roadmap(root);
    let statuses = phase_statuses(&r);
    assert_eq!(statuses[..2], ["complete", "complete"], "{r}");
    assert_ne!(statuses[2], "complete", "{r}");
    assert_eq!(r["next_phase"], "3", "{r}");
    let o = common::gsd(root, &["roadmap", "--explain"]);
    assert!(
        common::stdout(&o).contains("STATE.md's phase table says done"),
        "{}",
        common::stdout(&o)
    );
    // The number in a `#` column of its own, the name in the phase column.
    let numbered = "\n## Roadmap\n\n| # | Phase | Goal | Status |\n|---|---|---|---|\n| 1 | Catalog | c | shipped |\n| 2 | Cart | c | shipped |\n| 3 | Checkout | c | planned |\n";
    write(
        root,
        ".planning/STATE.md",
        &format!("{state}{metrics}{numbered}"),
    );
    let r = roadmap(root);
    let statuses = phase_statuses(&r);
    assert_eq!(statuses[..2], ["complete", "complete"], "{r}");
    assert_ne!(statuses[2], "complete", "{r}");
}

/// Every plan box in a phase's roadmap section ticked completes the phase —
/// unless STATE.md says the work is in that phase now with a status that
/// does not say done (its plans ran; its closeout is under way).
#[test]
fn ticked_plan_boxes_of_the_phase_state_names_as_under_way_are_work_in_progress() {
    let t = initialised(&["Catalog", "Cart"]);
    let root = t.path();
    let rm = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap();
    let with_plans = rm.replacen(
        "### Phase 2: Cart\n",
        "### Phase 2: Cart\n\nPlans:\n- [x] 02-01: cart model\n- [x] 02-02: checkout button\n",
        1,
    );
    assert_ne!(rm, with_plans, "gsd init writes phase sections");
    let ticked_one = with_plans.replacen("- [ ] **Phase 1", "- [x] **Phase 1", 1);
    write(root, ".planning/ROADMAP.md", &ticked_one);
    let state = std::fs::read_to_string(root.join(".planning/STATE.md")).unwrap();
    let phase_line = state
        .lines()
        .find(|l| l.starts_with("Phase:"))
        .unwrap()
        .to_owned();
    let status_line = state
        .lines()
        .find(|l| l.starts_with("Status:"))
        .unwrap()
        .to_owned();
    let at_two = state
        .replacen(&phase_line, "Phase: 2 of 2 (Cart)", 1)
        .replacen(&status_line, "Status: Executing", 1);
    write(root, ".planning/STATE.md", &at_two);
    let r = roadmap(root);
    assert_ne!(r["phases"][1]["status"], "complete", "{r}");
    assert_eq!(r["current_phase"], "2", "{r}");
    // STATE.md says the phase is done: the ticked boxes complete it.
    write(
        root,
        ".planning/STATE.md",
        &at_two.replacen("Status: Executing", "Status: Phase complete", 1),
    );
    let r = roadmap(root);
    assert_eq!(r["phases"][1]["status"], "complete", "{r}");
}

/// `--explain` names where each milestone's status was read: the list
/// entry, the `<details>` summary, the heading, the `**Status:**` line
/// under it; and says so when nothing marks one.
#[test]
fn explain_names_where_each_milestone_status_was_read() {
    let t = initialised(&["Foundation"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 MVP** - Phases 1-2 (shipped 2026-01-01)\n\n\
         <details>\n<summary>v1.1 Polish (Phase 3) - SHIPPED 2026-02-01</summary>\n\n\
         - [x] **Phase 3: Polish**\n\n</details>\n\n\
         ## v2.0 Growth\n\n**Status:** In progress\n\n- [ ] **Phase 4: Growth**\n\n\
         ## v3.0 Later\n\n- [ ] **Phase 5: Later**\n",
    );
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    for line in [
        "v1.0 MVP is shipped: its entry in the milestones list says so (ROADMAP.md line 5)",
        "v1.1 Polish is shipped: its `<details>` summary says so (ROADMAP.md line 7)",
        "v2.0 Growth is in progress: the status line under its heading says so (ROADMAP.md line 16)",
        "v3.0 Later is planned at most: nothing marks it, and its title says its work is put off (ROADMAP.md line 20)",
    ] {
        assert!(why.contains(line), "{line}\n{why}");
    }
    // A title that puts nothing off: unmarked.
    let text = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        &text.replace("## v3.0 Later", "## v3.0 Scale"),
    );
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    let line = "v3.0 Scale is not marked shipped, in progress or planned (ROADMAP.md line 20)";
    assert!(why.contains(line), "{line}\n{why}");
}

/// `## Previous Milestone` lists the shipped v1.0 and `## Phases` lists the
/// next milestone's phases without naming it: those phases are the work
/// under way. All of them ticked, the tree is between milestones; an
/// The numbers of the phases `gsd roadmap --json` marks active.
/// The numbers of every phase the reading lists.
fn phase_numbers(v: &Value) -> Vec<&str> {
    v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["number"].as_str().unwrap())
        .collect()
}

fn active_phases(v: &Value) -> Vec<&str> {
    v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["active"] == true)
        .map(|p| p["number"].as_str().unwrap())
        .collect()
}

/// unticked box inside the shipped milestone's listed range is its history.
#[test]
fn unfinished_phases_outside_every_milestone_are_the_work_when_all_named_shipped() {
    let t = initialised(&["Fixes", "Statement"]);
    let root = t.path();
    let text = |second: &str, range: &str| {
        format!(
            "# Roadmap: Feature Completeness\n\n## Previous Milestone\n\n\
             - [x] **v1.0: Technical Debt**{range} — auth, email (2026-04-21)\n\n\
             ## Phases\n\n- [x] **Phase 1: Fixes** — compliance fixes\n\
             - [{second}] **Phase 2: Statement** — the generator\n"
        )
    };
    write(root, ".planning/ROADMAP.md", &text(" ", ""));
    let v = roadmap(root);
    assert_eq!(active_phases(&v), ["1", "2"], "{v}");
    assert_eq!(v["current_milestone"], Value::Null, "{v}");
    let position = v["current_phase"].as_str().or(v["next_phase"].as_str());
    assert_eq!(position, Some("2"), "{v}");
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    assert!(
        why.contains("unfinished phases outside every milestone"),
        "{why}"
    );

    // Every loose phase ticked: nothing is under way.
    write(root, ".planning/ROADMAP.md", &text("x", ""));
    let v = roadmap(root);
    assert_eq!(active_phases(&v), Vec::<&str>::new(), "{v}");
    // The unticked phase lies in the shipped milestone's range: history.
    write(root, ".planning/ROADMAP.md", &text(" ", " (Phases 1-2)"));
    let v = roadmap(root);
    assert_eq!(active_phases(&v), Vec::<&str>::new(), "{v}");
}

/// A roadmap that lists its phases as plain bullets (`- **Phase 2**:
/// TaskBox`, goal and plans indented under each) names them: their folders
/// are in the roadmap, their names are read, and a phase whose plan boxes
/// are all ticked is complete.
#[test]
fn phases_listed_as_plain_bullets_are_named() {
    let t = initialised(&["Persistence", "TaskBox"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "## ROADMAP.md draft\n\
         - **Phase 1**: Persistence Foundation (resources and saving).\n  \
           **Goal:** Build the data layer.\n  Plans:\n  - [x] 01-01 — data model\n\
         - **Phase 2**: TaskBox (visual editor).\n  **Goal:** A node dashboard.\n  Plans:\n  - [ ] 02-01 — scenes\n\
         - **Phase 3**: BlogBox (rich text).\n",
    );
    write(
        root,
        ".planning/STATE.md",
        "# Project State\n\n## Current Position\n\nPhase: 2 of 3 (TaskBox)\n",
    );
    let v = roadmap(root);
    let phases = v["phases"].as_array().unwrap();
    let named: Vec<(&str, &str, &str)> = phases
        .iter()
        .map(|p| {
            (
                p["number"].as_str().unwrap(),
                p["name"].as_str().unwrap_or(""),
                p["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(named[0].0, "1", "{v}");
    assert!(named[0].1.starts_with("Persistence Foundation"), "{v}");
    assert_eq!(named[0].2, "complete", "{v}");
    assert_eq!((named[1].0, named[2].0), ("2", "3"), "{v}");
    assert_eq!(dirs_not_in_roadmap(root), Vec::<String>::new());
    // A folder the list does not name is still reported.
    std::fs::create_dir_all(root.join(".planning/phases/04-extra")).unwrap();
    let dirs = dirs_not_in_roadmap(root);
    assert!(dirs.iter().any(|m| m.contains("04-extra")), "{dirs:?}");
}

/// A roadmap's own box for work under way (`- [~] **Phase 2: …**`) is an
/// unticked phase entry, and a list entry that mentions a version deep in
/// its description (`**Incorporated:** upstream's v0.19.0-beta`, `PRD
/// (v3.0)`) names no milestone: only the entry's head does.
#[test]
fn under_way_boxes_are_phases_and_versions_in_descriptions_are_no_milestones() {
    let t = initialised(&["Merge", "Polish"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Phases\n\n\
         - [x] **Phase 1: Merge** - merge upstream's `v0.19.0-beta` into the fork\n\
         - [~] **Phase 2: Polish** - the UI pass after the v0.19.0 UAT, deployed, testing outstanding\n\n\
         ## Notes\n\n- **Incorporated:** upstream's **`v0.19.0-beta`** (PR #468), deployed\n",
    );
    let v = roadmap(root);
    assert_eq!(v["milestones"], json!([]), "{v}");
    let phases: Vec<(&str, &str, Value)> = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["number"].as_str().unwrap(),
                p["status"].as_str().unwrap(),
                p["checked"].clone(),
            )
        })
        .collect();
    assert_eq!(phases[0].0, "1", "{v}");
    assert_eq!(phases[0].1, "complete", "{v}");
    assert_eq!((phases[1].0, &phases[1].2), ("2", &json!(false)), "{v}");
    assert_ne!(phases[1].1, "complete", "{v}");
}

/// A roadmap that names no milestone, and a STATE.md that names none but
/// GSD's default: PROJECT.md's `## Current Milestone: v2.0 Analytics`
/// (what GSD's new-milestone writes) names the work under way, until
/// MILESTONES.md records it shipped.
#[test]
fn project_md_names_the_current_milestone_when_nothing_else_does() {
    let t = initialised(&["Events", "Charts"]);
    let root = t.path();
    write(
        root,
        ".planning/STATE.md",
        "---\nmilestone: v1.0\nmilestone_name: milestone\n---\n# Project State\n",
    );
    let project = std::fs::read_to_string(root.join(".planning/PROJECT.md")).unwrap();
    write(
        root,
        ".planning/PROJECT.md",
        &format!("{project}\n## Current Milestone: v2.0 Analytics\n\nEvents and charts.\n"),
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], "v2.0 Analytics", "{v}");
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    assert!(
        why.contains("v2.0 Analytics is in progress: PROJECT.md names it the current milestone (PROJECT.md line"),
        "{why}"
    );
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v2.0 Analytics (Shipped: 2026-05-01)\n",
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], Value::Null, "{v}");
}

/// A roadmap about one milestone names it in its head, in a bold field
/// (`**Milestone:** v1 — AI-First Positioning`) and nowhere else: the
/// whole roadmap is that milestone's. A plain `milestone: v1.1` line copied
/// from frontmatter names none (STATE.md speaks for the milestone then).
#[test]
fn a_roadmap_head_field_names_its_one_milestone() {
    let t = common::gsd_init(&["Copy", "Polish"], &[]);
    let root = t.path();
    let rm = root.join(".planning/ROADMAP.md");
    let text = std::fs::read_to_string(&rm).unwrap();
    let (title, rest) = text.split_once('\n').unwrap();
    std::fs::write(
        &rm,
        format!("{title}\n\n**Milestone:** v1 — AI-First Positioning\n**Phases:** 2\n{rest}"),
    )
    .unwrap();
    let v = roadmap(root);
    let current: Vec<&Value> = v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["current"] == json!(true))
        .collect();
    assert_eq!(current.len(), 1, "{v}");
    assert_eq!(current[0]["version"], json!("v1"));
    assert_eq!(active(&v), ["1", "2"]);
    std::fs::write(
        &rm,
        format!("{title}\n\nmilestone: v1.1 Old header\n{rest}"),
    )
    .unwrap();
    let v = roadmap(root);
    assert!(
        v["milestones"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["version"] != json!("v1.1")),
        "{v}"
    );
}

/// config.json's `project_code` makes GSD name phase folders
/// `codenexus-04-parity`: the phase is 4, its plans count, and the folder
/// is not misnamed.
#[test]
fn project_code_folders_are_their_phases() {
    let t = common::gsd_init(&["Design", "Parity"], &[]);
    let root = t.path();
    for (dir, phase, ran) in [
        ("codenexus-01-design", "01", true),
        ("codenexus-02-parity", "02", false),
    ] {
        std::fs::remove_dir_all(
            root.join(".planning/phases")
                .join(&dir["codenexus-".len()..]),
        )
        .unwrap();
        write(
            root,
            &format!(".planning/phases/{dir}/{phase}-01-PLAN.md"),
            &plan(phase, "01", ""),
        );
        if ran {
            write(
                root,
                &format!(".planning/phases/{dir}/{phase}-01-SUMMARY.md"),
                "# Summary\n",
            );
        }
    }
    let v = roadmap(root);
    assert_eq!(v["total_plans"], json!(2), "{v}");
    assert_eq!(v["total_summaries"], json!(1), "{v}");
    let codes: Vec<String> = lint_codes(root).into_iter().map(|(c, _, _)| c).collect();
    assert!(
        !codes.iter().any(|c| c == "phase-dir-bad-name"),
        "{codes:?}"
    );
    assert!(
        !codes.iter().any(|c| c == "phase-dir-not-in-roadmap"),
        "{codes:?}"
    );
}

/// A roadmap in another language names its milestones, phases and table
/// columns in its own words (`## 里程碑 2：…`, `#### 阶段 2：…`, `| 阶段 |
/// … | 状态 |`, `## Fase 3: …`): the same reading as in English, from the
/// table of words, and a word inside a longer one (`Emphase`) names nothing.
#[test]
fn roadmaps_in_other_languages_name_milestones_and_phases() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# 路线图\n\n## 里程碑 1：MVP\n\n| 阶段 | 名称 | 状态 |\n|------|------|------|\n| 1 | form | 已完成 |\n\n#### 阶段 1：form\n\n**目标**：表单\n\n## 里程碑 2：重构\n\n| 阶段 | 名称 | 状态 |\n|------|------|------|\n| 2 | refactor | 待规划 |\n\n#### 阶段 2：refactor\n\n**目标**：重构\n",
    );
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/phases/02-refactor/02-01-PLAN.md",
        &plan("02", "01", ""),
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("里程碑 2"), "{v}");
    assert_eq!(active(&v), ["2"], "{v}");
    let done: Vec<&str> = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["status"] == "complete")
        .map(|p| p["number"].as_str().unwrap())
        .collect();
    assert_eq!(done, ["1"], "{v}");
    assert_eq!(
        v["current_phase"].as_str().or(v["next_phase"].as_str()),
        Some("2"),
        "{v}"
    );

    write(
        root,
        ".planning/ROADMAP.md",
        "# Hoja de ruta\n\n## Fases\n\n### Fase 1: Base\n\n**Objetivo**: base\n\n### Fase 2: Pagos\n\n**Objetivo**: pagos\n\n### Emphase 3: nada\n",
    );
    let v = roadmap(root);
    let numbers = phase_numbers(&v);
    assert_eq!(numbers, ["1", "2"], "{v}");
}

/// A milestone the roadmap still marks 🚧 in progress has shipped when both
/// records `complete-milestone` writes say so — MILESTONES.md's shipped entry
/// and the archived roadmap; either alone does not outweigh the mark.
#[test]
fn shipped_entry_and_archive_outweigh_a_stale_in_progress_mark() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0** — Phases 1–4 (shipped)\n- 🚧 **v1.1** — Phases 5–6 (in progress)\n\n### Phase 5: Email\n\n**Goal**: e\n\n### Phase 6: Templates\n\n**Goal**: t\n",
    );
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.1 Growth (Shipped: 2026-03-24)\n\n## v1.0 MVP (Shipped: 2026-03-22)\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.1"), "entry alone: {v}");
    write(root, ".planning/milestones/v1.1-ROADMAP.md", "# v1.1\n");
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    assert!(why.contains("in-progress mark was never updated"), "{why}");
    std::fs::write(root.join(".planning/MILESTONES.md"), "# Milestones\n").unwrap();
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.1"), "archive alone: {v}");
}

/// A milestone left unmarked between shipped ones (`🚢 v2.9 … complete
/// locally` before `✅ v3.0 … shipped`) is history, not the current work;
/// one marked paused is parked work and still current.
#[test]
fn an_unmarked_milestone_the_project_went_past_is_not_current() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    let list = |mark: &str| {
        format!(
            "# Roadmap\n\n## Milestones\n\n- ✅ **v2.8 Clear** — Phase 56 (shipped 2026-05-18)\n- {mark}\n- ✅ **v3.0 Fields** — Phase 58 (shipped 2026-06-07)\n\n### Phase 57: Dedup\n\n**Goal**: d\n"
        )
    };
    write(
        root,
        ".planning/ROADMAP.md",
        &list("🚢 **v2.9 Dedup** — Phase 57 (phase complete locally 2026-06-02)"),
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    assert!(
        why.contains("which a later shipped milestone went past"),
        "{why}"
    );
    // Planned but put off behind later shipped work: not current either.
    write(
        root,
        ".planning/ROADMAP.md",
        &list("📋 **v2.9 Dedup** — deferred to Backlog"),
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    write(
        root,
        ".planning/ROADMAP.md",
        &list("[ ] **v2.9 Dedup** — Phase 57 (paused)"),
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v2.9"), "{v}");
    // Planned after the last shipped one: the next milestone.
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- ✅ **v3.0 Fields** — Phase 58 (shipped)\n- 📋 **v3.1 Sync** — Phase 59 (planned)\n\n### Phase 59: Sync\n\n**Goal**: s\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v3.1"), "{v}");
}

/// GSD's plan scan reads a phase folder and its `plans/` subfolder: a
/// `features/x/FEATURE-PLAN.md` deeper down is a note, not a plan (it
/// neither counts nor leaves the phase unfinished), and `plans/02-01-PLAN.md`
/// is one.
#[test]
fn only_the_phase_folder_and_its_plans_folder_hold_plans() {
    let t = initialised(&["Core"]);
    let root = t.path();
    write(
        root,
        ".planning/phases/01-core/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    write(
        root,
        ".planning/phases/01-core/01-01-SUMMARY.md",
        "# Summary\n",
    );
    write(
        root,
        ".planning/phases/01-core/features/parser/FEATURE-PLAN.md",
        "# Feature plan\n\nNotes.\n",
    );
    write(
        root,
        ".planning/phases/01-core/archived/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    let v = roadmap(root);
    assert_eq!(
        (v["total_summaries"].clone(), v["total_plans"].clone()),
        (json!(1), json!(1)),
        "{v}"
    );
    write(
        root,
        ".planning/phases/01-core/plans/01-02-PLAN.md",
        &plan("01", "02", ""),
    );
    let v = roadmap(root);
    assert_eq!(v["total_plans"], json!(2), "{v}");
    assert!(
        !lint_codes(root)
            .iter()
            .any(|(c, _, _)| c == "duplicate-plan-number"),
        "{:?}",
        lint_codes(root)
    );
}

/// A MILESTONES.md entry that states a status of its own (`- Status:
/// \`Initialized\``, written when the milestone was set up) does not say
/// the milestone shipped; a roadmap head naming it in a code span
/// (`**Milestone:** \`v0.2 portfolio expansion\``) names it without the
/// backticks. With every phase done, it stays current until it ships.
#[test]
fn a_milestones_entry_that_says_initialized_is_not_a_ship_record() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# ROADMAP\n\n**Milestone:** `v0.2 portfolio expansion`\n\n## Phases\n\n- [x] **Phase 1: Seam** - s\n\n### Phase 1: Seam\n\n**Goal:** g\n",
    );
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/phases/01-seam/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    write(root, ".planning/phases/01-seam/01-01-SUMMARY.md", "# S\n");
    let entry = |status: &str| {
        format!(
            "# MILESTONES\n\n## v0.2 portfolio expansion\n\n- Status: `{status}`\n- Date: `2026-04-06`\n"
        )
    };
    write(root, ".planning/MILESTONES.md", &entry("Initialized"));
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v0.2"), "{v}");
    let m = &v["milestones"][0];
    assert_eq!(m["title"], json!("v0.2 portfolio expansion"), "{v}");
    assert_eq!(
        (v["total_summaries"].clone(), v["total_plans"].clone()),
        (json!(1), json!(1)),
        "{v}"
    );
    // The same entry saying it shipped: between milestones.
    write(root, ".planning/MILESTONES.md", &entry("Shipped"));
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
}

/// `v1 requirements total: 59` counts requirements; `## v2 Requirements`
/// heads a section of them: neither is a milestone of the roadmap.
#[test]
fn a_version_that_scopes_requirements_is_not_a_milestone() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n### Phase 1: Data\n\n**Goal:** d\n\n## Coverage Summary\n\n- **v1 requirements total:** 59\n- **Mapped to phases:** 59\n\n## v2 Requirements\n\n- later things\n",
    );
    let v = roadmap(root);
    assert_eq!(v["milestones"], json!([]), "{v}");
    assert_eq!(v["phases"].as_array().unwrap().len(), 1, "{v}");
    // A milestone heading is still one.
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## v1.0 MVP\n\n### Phase 1: Data\n\n**Goal:** d\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.0"), "{v}");
}

/// Plans and summaries in the older numbered forms pair up:
/// `01-PLAN-foundation.md` with `01-PLAN-foundation-SUMMARY.md`,
/// `02-PLAN-02.md` with `02-SUMMARY-02.md` or `SUMMARY-02.md`; a
/// `01-PLAN-OUTLINE.md` with no summary of its own stays a note, and a
/// `depends_on: 02-PLAN-01` names the plan by its stem.
#[test]
fn plans_and_summaries_of_the_older_numbered_forms_pair_up() {
    let t = initialised(&["Maze", "Towers"]);
    let root = t.path();
    let d1 = ".planning/phases/01-maze";
    let _ = std::fs::remove_file(root.join(d1).join("01-01-PLAN.md"));
    write(
        root,
        &format!("{d1}/01-PLAN-foundation.md"),
        &plan("01", "01", ""),
    );
    write(
        root,
        &format!("{d1}/01-PLAN-foundation-SUMMARY.md"),
        "# S\n",
    );
    write(root, &format!("{d1}/01-PLAN-OUTLINE.md"), "# Outline\n");
    let d2 = ".planning/phases/02-towers";
    write(root, &format!("{d2}/02-PLAN-01.md"), &plan("02", "01", ""));
    write(
        root,
        &format!("{d2}/02-PLAN-02.md"),
        &plan("02", "02", "").replace("depends_on: []", "depends_on: [02-PLAN-01]"),
    );
    write(root, &format!("{d2}/02-SUMMARY-01.md"), "# S\n");
    write(root, &format!("{d2}/SUMMARY-02.md"), "# S\n");
    // `02-PLAN-C-setup.md` ↔ `02-C-SUMMARY.md`: the phase and the plan's token.
    write(
        root,
        &format!("{d2}/02-PLAN-C-setup.md"),
        &plan("02", "03", ""),
    );
    write(root, &format!("{d2}/02-C-SUMMARY.md"), "# S\n");
    let v = roadmap(root);
    let phases = v["phases"].as_array().unwrap();
    let counts: Vec<(Value, Value, Value)> = phases
        .iter()
        .map(|p| {
            (
                p["plans"].clone(),
                p["summaries"].clone(),
                p["status"].clone(),
            )
        })
        .collect();
    assert_eq!(
        counts,
        vec![
            (json!(1), json!(1), json!("complete")),
            (json!(3), json!(3), json!("complete"))
        ],
        "{v}"
    );
    let codes = lint_codes(root);
    assert!(
        !codes
            .iter()
            .any(|(c, _, _)| c == "depends-on-unknown-plan" || c == "plan-without-summary"),
        "{codes:?}"
    );
}

/// A phase folder with a code before its number (`trainer-01-intake`)
/// beside plain `07-…` folders, and no `project_code` in config.json, is a
/// track of its own: it is not phase 1's folder. With the code set, it is.
#[test]
fn a_code_prefixed_folder_of_another_track_is_not_the_phase() {
    let t = initialised(&["Foundations", "Seeder"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n- [x] **Phase 1: Foundations** — f\n- [ ] **Phase 2: Seeder** — s\n\n### Phase 1: Foundations\n\n**Goal:** f\n\n### Phase 2: Seeder\n\n**Goal:** s\n",
    );
    write(
        root,
        ".planning/phases/02-seeder/02-01-PLAN.md",
        &plan("02", "01", ""),
    );
    write(
        root,
        ".planning/phases/trainer-01-intake/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    let phase1 = |v: &Value| {
        v["phases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["number"] == json!("1"))
            .map(|p| (p["plans"].clone(), p["has_dir"].clone()))
    };
    let v = roadmap(root);
    assert_eq!(phase1(&v), Some((json!(0), json!(false))), "{v}");
    assert_eq!(v["total_plans"], json!(1), "{v}");
    let cfg = std::fs::read_to_string(root.join(".planning/config.json")).unwrap();
    let mut c: Value = serde_json::from_str(&cfg).unwrap();
    c["project_code"] = json!("trainer");
    write(root, ".planning/config.json", &c.to_string());
    let v = roadmap(root);
    assert_eq!(phase1(&v), Some((json!(1), json!(true))), "{v}");
}

/// `**Milestone:** 1 — MVP` in a roadmap's head names milestone 1, and a
/// summary named with the phase folder's slug between the numbers
/// (`01-backend-auth-01-SUMMARY.md`) is plan 01-01's.
#[test]
fn a_numbered_head_milestone_and_a_slugged_summary_are_read() {
    let t = initialised(&["Backend Auth", "Logging"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n**Milestone:** 1 — MVP\n\n- [ ] **Phase 1: Backend Auth** - a\n- [ ] **Phase 2: Logging** - l\n\n### Phase 1: Backend Auth\n\n**Goal:** a\n\n### Phase 2: Logging\n\n**Goal:** l\n",
    );
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    let d = ".planning/phases/01-backend-auth";
    write(root, &format!("{d}/01-01-PLAN.md"), &plan("01", "01", ""));
    write(root, &format!("{d}/01-02-PLAN.md"), &plan("01", "02", ""));
    write(root, &format!("{d}/01-backend-auth-01-SUMMARY.md"), "# S\n");
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("Milestone 1"), "{v}");
    assert_eq!(
        (v["total_summaries"].clone(), v["total_plans"].clone()),
        (json!(1), json!(2)),
        "{v}"
    );
}

/// A heading that names a version only as a point of reference (`## Phases
/// (Continuous Numbering from v1.0)`) is no milestone heading: the list's
/// 🚧 v1.1 stays the current milestone.
#[test]
fn a_version_named_as_a_reference_heads_no_milestone() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- 🚧 **v1.1: Redesign** — Phases 1-2 (in progress)\n- 📋 **v1.2: Polish** — Phase 3 (planned)\n\n## Phases (Continuous Numbering from v1.0)\n\n### Phase 1: Scene\n\n**Goal**: s\n\n### Phase 2: Hero\n\n**Goal**: h\n\n### Phase 3: Polish\n\n**Goal**: p\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.1"), "{v}");
    assert!(
        !v["milestones"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["version"] == json!("v1.0")),
        "{v}"
    );
}

/// Unmarked milestones whose phases are all ticked lead, one after the
/// other, to the first with work left — or to the last, all done.
#[test]
fn unmarked_finished_milestones_lead_to_the_first_with_work_left() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    let rm = |last: &str| {
        format!(
            "# Roadmap\n\n## Milestone 1: Base\n- [x] **Fase 1**: a\n\n## Milestone 2: Engines\n- [x] **Fase 2**: b\n\n## Milestone 3: Memory\n- [x] **Fase 3**: c\n\n## Milestone 4: Delivery\n- [{last}] **Fase 4**: d\n"
        )
    };
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(root, ".planning/ROADMAP.md", &rm(" "));
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("Milestone 4"), "{v}");
    assert_eq!(v["next_phase"], json!("4"), "{v}");
    write(root, ".planning/ROADMAP.md", &rm("x"));
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("Milestone 4"), "{v}");
    assert_eq!(
        (v["current_phase"].clone(), v["next_phase"].clone()),
        (json!(null), json!(null)),
        "{v}"
    );
}

/// STATE.md's `milestone: v1.5` with the default name `milestone` is a
/// milestone without a name when the roadmap names that version too (`This
/// roadmap covers the v1.5 polish`); GSD's own default (`v1.0`) stays a
/// placeholder.
#[test]
fn a_state_milestone_the_roadmap_also_names_is_no_placeholder() {
    let t = initialised(&["Security", "Reader"]);
    let root = t.path();
    let rm = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap();
    let state = std::fs::read_to_string(root.join(".planning/STATE.md")).unwrap();
    let with_fm = |v: &str| {
        format!(
            "---\ngsd_state_version: 1.0\nmilestone: {v}\nmilestone_name: milestone\nstatus: executing\n---\n{state}"
        )
    };
    write(
        root,
        ".planning/ROADMAP.md",
        &rm.replacen("\n", "\n\nThis roadmap covers the v1.5 polish.\n", 1),
    );
    write(root, ".planning/STATE.md", &with_fm("v1.5"));
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.5"), "{v}");
    write(root, ".planning/STATE.md", &with_fm("v1.0"));
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
}

/// STATE.md with no `Phase:` line but GSD's `**Current focus:** Phase 2
/// (Cart)` names the phase the work is on.
#[test]
fn state_current_focus_names_the_position_when_no_phase_line_does() {
    let t = initialised(&["Catalog", "Cart", "Checkout"]);
    let root = t.path();
    write(
        root,
        ".planning/STATE.md",
        "# Project State\n\n**Current focus:** Phase 2 (Cart)\n\n- Phase 1 is complete.\n",
    );
    let v = roadmap(root);
    assert_eq!(v["current_phase"], json!("2"), "{v}");
}

/// A planned milestone with no phase of its own yet (`📋 v0.6.0+ — Future
/// enhancements`) after the shipped one, while STATE.md says that milestone
/// is done and the next is to be planned, is a placeholder: the project is
/// between milestones. With STATE.md at work, it is the next milestone.
#[test]
fn a_planned_placeholder_after_a_shipped_milestone_is_between_milestones() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- ✅ **v0.5.0 Maintenance** — Phases 1-2 (shipped 2026-04-27)\n- 📋 **v0.6.0+** — Future enhancements (planned)\n\n### Phase 1: Fixes\n\n**Goal**: f\n\n### Phase 2: Automation\n\n**Goal**: a\n",
    );
    let state = |focus: &str| {
        format!("# Project State\n\n## Current Position\n\n**Current focus:** {focus}\n")
    };
    write(
        root,
        ".planning/STATE.md",
        &state("Planning next milestone (v0.5.0 complete, archived)"),
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    write(root, ".planning/STATE.md", &state("Defining requirements"));
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v0.6.0"), "{v}");
}

/// A milestone its line marks dormant (`💤`) or whose status says it waits
/// on something (`— conditional, only if the demand gate triggers`) is
/// planned, not begun: after a shipped one, with STATE.md planning the next
/// milestone, the project is between milestones (batch 15, szTheory+rendro).
/// With STATE.md at work on it, it is the milestone.
#[test]
fn a_dormant_or_conditional_milestone_is_planned_not_begun() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    let state = |focus: &str| {
        format!("# Project State\n\n## Current Position\n\n**Current focus:** {focus}\n")
    };
    for next in [
        "- 💤 **v2.7 Text Shaping** — only if the demand gate triggers",
        "- **v2.7 Text Shaping** — conditional, only if the demand gate triggers",
        "- **v2.7 Text Shaping** (Dormant)",
    ] {
        write(
            root,
            ".planning/ROADMAP.md",
            &format!(
                "# Roadmap\n\n## Milestones\n\n- ✅ **v2.6 Launch** — Phases 1-2 (shipped 2026-06-13)\n{next}\n\n### Phase 1: Docs\n\n**Goal**: d\n\n### Phase 2: Site\n\n**Goal**: s\n"
            ),
        );
        write(
            root,
            ".planning/STATE.md",
            &state("Planning next milestone"),
        );
        let v = roadmap(root);
        assert_eq!(current(&v), None, "{next}: {v}");
        write(root, ".planning/STATE.md", &state("Defining requirements"));
        let v = roadmap(root);
        assert_eq!(current(&v).as_deref(), Some("v2.7"), "{next}: {v}");
    }
}

/// A phase heading that ends in its status after a dash (`### Phase 1:
/// Layout Shell — COMPLETE`) says the phase is done, folder or not (the
/// name drops the status, the reading must not); a description after the
/// dash (`— Containerization`) says nothing (batch 15, Ayy-man+PGL-main).
#[test]
fn a_status_after_a_dash_in_a_phase_heading_completes_it() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    let rm = |one: &str| {
        format!(
            "# Roadmap\n\n## Phases\n\n### Phase 1: Layout Shell — {one}\n\n**Goal:** shell\n\n### Phase 2: Search\n\n**Goal:** search\n"
        )
    };
    write(root, ".planning/ROADMAP.md", &rm("COMPLETE"));
    let v = roadmap(root);
    assert_eq!(phase_statuses(&v), ["complete", "no_directory"], "{v}");
    assert_eq!(v["phases"][0]["name"], "Layout Shell", "{v}");
    write(root, ".planning/ROADMAP.md", &rm("Containerization"));
    let v = roadmap(root);
    assert_eq!(phase_statuses(&v), ["no_directory", "no_directory"], "{v}");
}

/// STATE.md's `**Milestone:** v2 Events Pivot` (no frontmatter) names the
/// milestone of a roadmap that names none; a bare `**Milestone:** v1` is
/// the default every project starts with.
#[test]
fn a_state_body_milestone_with_a_name_is_the_milestone() {
    let t = initialised(&["Site", "Admin"]);
    let root = t.path();
    write(
        root,
        ".planning/STATE.md",
        "# State\n\n**Milestone:** v2 Events Pivot (events front door)\n\n## Current position\n\nPhase: 1 of 2\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v2"), "{v}");
    write(
        root,
        ".planning/STATE.md",
        "# State\n\n**Milestone:** v1\n\n## Current position\n\nPhase: 1 of 2\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
}

/// `**Milestone:** Polish & Filter` in a roadmap's head names a milestone
/// by its title alone; a phase's only plan and only summary pair though
/// their names do not (`01-PLAN.md`, `01-01-SUMMARY.md`), but not two
/// plans' numbers that differ (`02-03-PLAN.md`, `02-01-SUMMARY.md`).
#[test]
fn a_title_only_head_milestone_and_a_phases_only_plan_and_summary() {
    let t = initialised(&["Filter", "Polish"]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n**Milestone:** Polish & Filter\n\n- [ ] **Phase 1: Filter** - f\n- [ ] **Phase 2: Polish** - p\n\n### Phase 1: Filter\n\n**Goal:** f\n\n### Phase 2: Polish\n\n**Goal:** p\n",
    );
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/phases/01-filter/01-PLAN.md",
        &plan("01", "01", ""),
    );
    write(root, ".planning/phases/01-filter/01-01-SUMMARY.md", "# S\n");
    write(
        root,
        ".planning/phases/02-polish/02-03-PLAN.md",
        &plan("02", "03", ""),
    );
    write(root, ".planning/phases/02-polish/02-01-SUMMARY.md", "# S\n");
    let v = roadmap(root);
    let m = v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["current"] == true)
        .cloned()
        .unwrap_or_default();
    assert_eq!(m["title"], json!("Polish & Filter"), "{v}");
    assert_eq!(
        (v["total_summaries"].clone(), v["total_plans"].clone()),
        (json!(1), json!(2)),
        "{v}"
    );
}

/// A milestone after the shipped one whose own lines say it is still to be
/// planned (`## Next Milestone (v1.1)` then `To be planned with
/// /gsd:new-milestone`; `📋 **v1.1** — TBD`) and that has no phases is a
/// placeholder, whatever a stale STATE.md says.
#[test]
fn a_next_milestone_still_to_be_planned_is_a_placeholder() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    let rm = |next: &str| {
        format!(
            "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 MVP** — Phases 1-2 (shipped 2026-03-25)\n\n## Completed Phases (v1.0)\n\n### Phase 1: Cards\n\n**Goal**: c\n\n### Phase 2: Calls\n\n**Goal**: c\n\n{next}\n"
        )
    };
    write(
        root,
        ".planning/ROADMAP.md",
        &rm("## Next Milestone (v1.1)\n\nTo be planned with `/gsd:new-milestone`\n"),
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    write(
        root,
        ".planning/ROADMAP.md",
        &rm("## Next Milestone (v1.1)\n\nSearch and filters for the history page.\n"),
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.1"), "{v}");
}

/// The milestone STATE.md names for a roadmap with no milestones of its
/// own, its phases live in phases/, and one earlier phase folder of it
/// moved to `milestones/vX.Y-phases/`: no MILESTONES.md entry and no
/// archived roadmap, so it has not shipped. The same milestone with GSD's
/// ship records has.
#[test]
fn an_archive_of_some_phase_folders_is_no_ship_record() {
    let t = initialised(&["Security", "Reader"]);
    let root = t.path();
    let state = std::fs::read_to_string(root.join(".planning/STATE.md")).unwrap();
    write(
        root,
        ".planning/STATE.md",
        &format!(
            "---\ngsd_state_version: 1.0\nmilestone: v1.2\nmilestone_name: Reader\nstatus: executing\n---\n{state}"
        ),
    );
    write(
        root,
        ".planning/phases/01-security/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    write(
        root,
        ".planning/milestones/v1.2-phases/00-setup/00-01-PLAN.md",
        &plan("00", "01", ""),
    );
    write(
        root,
        ".planning/milestones/v1.2-phases/00-setup/00-01-SUMMARY.md",
        "# Done\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.2"), "{v}");
    assert_eq!(active(&v), ["1", "2"], "{v}");
    // GSD's complete-milestone records: the roadmap archived and an entry.
    write(
        root,
        ".planning/milestones/v1.2-ROADMAP.md",
        "# Roadmap v1.2\n",
    );
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.2 Reader (Shipped: 2026-05-01)\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
}

/// A MILESTONES.md section that mentions a later version (`### Issues
/// Deferred to v1.3+` inside the v1.2 entry) is no entry for it: the
/// roadmap's 🔄 v1.3, all its phases done, is still the current milestone.
#[test]
fn a_version_mentioned_in_a_milestones_section_heading_is_no_entry() {
    let t = initialised(&["Security", "Reader"]);
    let root = t.path();
    let rm = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        &rm.replacen(
            "## Phases\n",
            "## Milestones\n\n- ✅ **v1.2 — Admin** — Phase 0 (shipped 2026-05-14)\n- 🔄 **v1.3 — Hygiene** — Phases 1–2 (in progress)\n\n## Phases\n",
            1,
        )
        .replace("- [ ] **Phase", "- [x] **Phase"),
    );
    for n in ["01-security", "02-reader"] {
        let p = &n[..2];
        write(
            root,
            &format!(".planning/phases/{n}/{p}-01-PLAN.md"),
            &plan(p, "01", ""),
        );
        write(
            root,
            &format!(".planning/phases/{n}/{p}-01-SUMMARY.md"),
            "# Done\n",
        );
    }
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.2 — Admin (Shipped: 2026-05-14)\n\n### Issues Deferred to v1.3+\n\n- tidy up\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.3"), "{v}");
    // The entry GSD writes when v1.3 ships settles it.
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.3 — Hygiene (Shipped: 2026-06-01)\n\n## v1.2 — Admin (Shipped: 2026-05-14)\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
}

/// Where a line sits says whose phase it is only when the line does not:
/// a progress row's Milestone cell (`| 8. Checkout | v0.8 | …`) names its
/// milestone, and a detail section kept under the live milestone's heading
/// (`### Archived Phase References`) whose checklist line, by the same
/// name, and listed range are a shipped milestone's is that milestone's.
/// A detail of another name is a phase of the live milestone (numbering
/// restarted), whatever range it falls in.
#[test]
fn a_line_that_names_its_milestone_outweighs_where_it_sits() {
    let t = initialised(&["Security"]);
    let root = t.path();
    let roadmap_text = |archived_name: &str| {
        format!(
            "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 Foundation** — Phases 1-2 (shipped 2026-04-01)\n- 🚧 **v2.0 Field Ready** — in progress\n\n## Phases\n\n<details>\n<summary>✅ v1.0 Foundation (Phases 1-2) — SHIPPED 2026-04-01</summary>\n\n- [x] Phase 1: Chat Agent (1/1 plans)\n- [x] Phase 2: Intelligence (1/1 plans)\n\n</details>\n\n## v2.0 Field Ready\n\n### Phase 3: Security Hardening\n**Goal**: audit\n**Depends on**: None\n\n### Archived Phase References\n\n### Phase 1: {archived_name}\n**Status**: ✅ Complete (2026-03-31)\n\n### Phase 2: Intelligence\n**Status**: ✅ Complete (2026-04-01)\n\n## Progress\n\n| Phase | Milestone | Plans Complete | Status | Completed |\n|-------|-----------|----------------|--------|-----------|\n| 1. Chat Agent | v1.0 | 1/1 | Complete | 2026-03-31 |\n| 2. Intelligence | v1.0 | 1/1 | Complete | 2026-04-01 |\n| 3. Security Hardening | v2.0 | 0/1 | Not started | - |\n"
        )
    };
    write(root, ".planning/ROADMAP.md", &roadmap_text("Chat Agent"));
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v2.0"), "{v}");
    assert_eq!(active(&v), ["3"], "{v}");
    // Another name: phase 1 of v2.0 after a restart of the numbering.
    write(
        root,
        ".planning/ROADMAP.md",
        &roadmap_text("Board Foundation"),
    );
    let v = roadmap(root);
    assert_eq!(active(&v), ["1", "3"], "{v}");
}

/// A progress row one cell short in a table with a Milestone column lacks
/// that cell (an inserted phase's row, `| 2.1. Hotfix | 1/2 | Complete |
/// … |`): its status is still read from its Status cell.
#[test]
fn a_progress_row_without_its_milestone_cell_keeps_its_status() {
    let t = initialised(&["Security", "Reader"]);
    let root = t.path();
    let rm = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap();
    let rm = rm
        .replace(
            "| Phase | Plans Complete | Status | Completed |\n|-------|----------------|--------|-----------|",
            "| Phase | Milestone | Plans Complete | Status | Completed |\n|---|---|---|---|---|",
        )
        .replace("| 1. Security | 0/0 |", "| 1. Security | v1.0 | 0/0 |")
        .replace("| 2. Reader | 0/0 |", "| 2. Reader | v1.0 | 0/0 |");
    let rm = rm.replace(
        "| 2. Reader | v1.0 | 0/0 | Not started | - |\n",
        "| 2. Reader | v1.0 | 0/0 | Not started | - |\n| 2.1. Hotfix | 1/2 | Complete | 2026-03-22 |\n",
    );
    assert!(rm.contains("| 2.1. Hotfix |"), "{rm}");
    write(root, ".planning/ROADMAP.md", &rm);
    let d = ".planning/phases/02.1-hotfix";
    write(
        root,
        &format!("{d}/02.1-01-PLAN.md"),
        &plan("02.1", "01", ""),
    );
    write(root, &format!("{d}/02.1-01-SUMMARY.md"), "# Done\n");
    write(
        root,
        &format!("{d}/02.1-02-PLAN.md"),
        &plan("02.1", "02", ""),
    );
    let v = roadmap(root);
    let hotfix = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["number"] == "2.1")
        .cloned()
        .unwrap_or_default();
    assert_eq!(hotfix["status"], "complete", "{v}");
}

/// A heading that parks ideas for a later version (`## Deferred Features
/// (v3.0)`, a list with no phases) names no work under way: with every
/// milestone before it shipped and STATE.md saying so, the tree is between
/// milestones. The same list opened as the next milestone's work (a phase
/// of its own) is current.
#[test]
fn a_parking_heading_for_a_later_version_is_not_the_current_milestone() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Shop\n\n## Milestones\n\n- ✅ **v1.0 MVP** — Phases 1-2 (shipped 2026-02-15)\n\n## Phases\n\n### Phase 1: Core\n**Goal**: core\n\n### Phase 2: More\n**Goal**: more\n\n## Deferred Features (v2.0)\n\n- Email notifications\n- Bulk operations\n",
    );
    write(
        root,
        ".planning/STATE.md",
        "# Project State\n\n## Current Position\n\nMilestone: v1.0 MVP — COMPLETE\nStatus: Phase 2 complete\n",
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], Value::Null, "{v}");
    // Opened as the next milestone's work: current.
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Shop\n\n## Milestones\n\n- ✅ **v1.0 MVP** — Phases 1-2 (shipped 2026-02-15)\n\n## Phases\n\n### Phase 1: Core\n**Goal**: core\n\n### Phase 2: More\n**Goal**: more\n\n## Email (v2.0)\n\n### Phase 3: Email\n**Goal**: mail\n",
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], "v2.0 Email", "{v}");
}

/// A milestone heading that says it was opened (`- OPENED 2026-05-15`) or
/// proposed is open, whatever a `milestones/vX.Y-ROADMAP.md` beside it
/// holds (some trees keep the open milestone's scope there): an archive
/// settles only a milestone the roadmap leaves unmarked.
#[test]
fn an_opened_milestone_is_open_though_a_scope_file_sits_in_milestones() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    let text = "# Roadmap: Shop\n\n## Milestones\n\n- ✅ **v1.0 MVP** — Phases 1-2 (shipped 2026-02-15)\n\n### v2.0 Growth (Phases 3-4) - OPENED 2026-05-15\n\n- [ ] **Phase 3: Email**\n- [ ] **Phase 4: Search**\n\n### v2.1 Scale (Phases 5-6) - PROPOSED 2026-05-15\n\n- [ ] **Phase 5: Cache**\n";
    write(root, ".planning/ROADMAP.md", text);
    for v in ["v2.0", "v2.1"] {
        write(
            root,
            &format!(".planning/milestones/{v}-ROADMAP.md"),
            "# Scope\n\nThe whole scope of this milestone.\n",
        );
    }
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], "v2.0 Growth", "{v}");
    assert_eq!(
        milestone_status(&v, "v2.0").as_deref(),
        Some("in_progress"),
        "{v}"
    );
    assert_eq!(
        milestone_status(&v, "v2.1").as_deref(),
        Some("planned"),
        "{v}"
    );
    // Unmarked, the same archive says it shipped.
    write(
        root,
        ".planning/ROADMAP.md",
        &text
            .replace(" - OPENED 2026-05-15", "")
            .replace(" - PROPOSED 2026-05-15", ""),
    );
    let v = roadmap(root);
    assert_ne!(v["current_milestone"], "v2.0 Growth", "{v}");
}

/// The status `gsd roadmap --json` gives the milestone of version `ver`.
fn milestone_status(v: &Value, ver: &str) -> Option<String> {
    v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["version"] == ver)
        .map(|m| m["status"].as_str().unwrap().to_owned())
}

fn numbers_where(v: &Value, key: &str) -> Vec<String> {
    v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p[key] == true)
        .map(|p| p["number"].as_str().unwrap().to_owned())
        .collect()
}

/// Phases outside every milestone that the roadmap puts off (`Deferred`
/// in the progress row's status, `(Parked)` on the entry) are parked
/// beside the current milestone, not its work: they count neither in its
/// progress nor as the phase to work on. Unmarked, they are its work.
#[test]
fn a_deferred_phase_outside_every_milestone_is_not_the_current_work() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    let text = "# Roadmap: Shop\n\n## Phases\n\n- [x] **Phase 1: Core**\n- [x] **Phase 2: Admin**\n- [ ] **Phase 3: Growth**\n- [ ] **Phase 4: Search**\n- [ ] **Phase 5: Billing**\n- [ ] **Phase 6: Loyalty**\n\n## Progress\n\n**Execution Order:**\n- v1.0: 1 → 2 (complete)\n- v2.0: 3 → 4\n\n| Phase | Plans Complete | Status | Completed |\n|-------|----------------|--------|-----------|\n| 1. Core | 1/1 | Complete | 2026-01-01 |\n| 2. Admin | 1/1 | Complete | 2026-01-02 |\n| 3. Growth | 0/1 | Not started | - |\n| 4. Search | 0/? | Not started | - |\n| 5. Billing | 0/1 | Deferred | - |\n| 6. Loyalty | 0/? | Deferred | - |\n";
    write(root, ".planning/ROADMAP.md", text);
    for (dir, n) in [("03-growth", "03"), ("05-billing", "05")] {
        write(
            root,
            &format!(".planning/phases/{dir}/{n}-01-PLAN.md"),
            &plan(n, "01", ""),
        );
    }
    let v = roadmap(root);
    assert_eq!(active(&v), ["3", "4"], "{v}");
    assert_eq!(v["current_phase"], "3", "{v}");
    assert_eq!(v["total_plans"], 1, "{v}");
    // The same rows without the word: phases 5 and 6 are its work too.
    write(
        root,
        ".planning/ROADMAP.md",
        &text.replace("Deferred", "Not started"),
    );
    let v = roadmap(root);
    assert_eq!(active(&v), ["3", "4", "5", "6"], "{v}");
    assert_eq!(v["total_plans"], 2, "{v}");
}

/// A MILESTONES.md entry written ahead by hand (`## v6.0 Dashboard
/// (Planned: TBD)`) records nothing shipped: with every phase of v6.0
/// done, v6.0 is still the current milestone, not shipped work.
#[test]
fn a_planned_milestones_md_entry_is_no_ship_record() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Shop\n\n## Milestone: v6.0 Dashboard\n\n### Phases\n\n- [x] **Phase 1: Core** (COMPLETE)\n- [x] **Phase 2: Views** (COMPLETE)\n",
    );
    write(
        root,
        ".planning/STATE.md",
        "---\nmilestone: v6.0\n---\n# State\n\n## Current Position\n\nPhase: 2 — COMPLETE\n",
    );
    let entry = |status: &str| {
        format!("# Milestones\n\n## v6.0 Dashboard ({status})\n\n**Phases completed:** TBD\n")
    };
    write(root, ".planning/MILESTONES.md", &entry("Planned: TBD"));
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], "Milestone: v6.0 Dashboard", "{v}");
    // Marked shipped, the same entry closes it.
    write(
        root,
        ".planning/MILESTONES.md",
        &entry("Shipped: 2026-04-08"),
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], Value::Null, "{v}");
}

/// A roadmap that lists its phases outside every milestone while
/// MILESTONES.md keeps the history: the phases a shipped entry's heading
/// names (`## v1.0 -- Core (Phases 1-3, shipped …)`) are that milestone's,
/// and a phase below them that never started (no folder) was passed over.
/// With later phases shipped too, nothing is under way.
#[test]
fn phases_a_shipped_milestones_md_heading_names_are_not_the_work() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Bot\n\n## Phases\n\n- [x] **Phase 1: Bridge**\n- [ ] **Phase 2: Agent**\n- [ ] **Phase 3: Hardening**\n- [x] **Phase 4: Timing**\n\n## Milestones\n\n- ✅ **v1.1 Timing** — Phase 4 (shipped 2026-03-24)\n",
    );
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.0 -- Core Bot (Phases 1-2, shipped 2026-03-20)\n\n**Shipped:** the bridge\n\n## v1.1 -- Timing (Phase 4, shipped 2026-03-24)\n",
    );
    for (dir, n) in [("01-bridge", "01"), ("02-agent", "02"), ("04-timing", "04")] {
        write(
            root,
            &format!(".planning/phases/{dir}/{n}-01-PLAN.md"),
            &plan(n, "01", ""),
        );
        write(
            root,
            &format!(".planning/phases/{dir}/{n}-01-SUMMARY.md"),
            "# Summary\n",
        );
    }
    write(
        root,
        ".planning/phases/02-agent/02-02-PLAN.md",
        &plan("02", "02", ""),
    );
    let v = roadmap(root);
    assert_eq!(active(&v), Vec::<String>::new(), "{v}");
    assert_eq!(v["current_phase"], Value::Null, "{v}");
    assert_eq!(v["next_phase"], Value::Null, "{v}");
    // Without the entry's range in its heading, phase 2 is unfinished
    // work outside every milestone, and so the work under way.
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.0 -- Core Bot (shipped 2026-03-20)\n\n## v1.1 -- Timing (Phase 4, shipped 2026-03-24)\n",
    );
    let v = roadmap(root);
    assert_eq!(v["current_phase"], "2", "{v}");
}

/// A checkbox whose sentence mentions a phase (`- [x] Harden the Phase 38
/// proof`) is not that phase's checklist entry; and one progress table of
/// every milestone's rows, sitting in the live milestone's part of the
/// file, does not move a phase the checklist and range give to a shipped
/// milestone.
#[test]
fn a_sentence_naming_a_phase_and_a_shared_progress_row_keep_it_in_its_milestone() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Shop\n\n## Milestones\n\n- [x] **v1.7 Spike** — Phase 8 (shipped 2026-06-12)\n- 🚧 **v1.8 Cutover** — Phases 9-10 (active)\n\n<details>\n<summary>v1.7 Spike (Phase 8) — SHIPPED 2026-06-12</summary>\n\n- [x] Phase 8: Storage spike (completed 2026-06-12)\n\n</details>\n\n## v1.8 Cutover (Phases 9-10) — ACTIVE\n\n### Phase 9: Migration\n\n**Goal:** Convert the Phase 8 proof into migration code.\n\n- [x] Harden the Phase 8 proof into production code.\n\n### Phase 10: Removal\n\n**Goal:** Remove the old stack.\n\n## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|-------|----------------|--------|-----------|\n| 8. Storage spike | 1/1 | Complete | 2026-06-12 |\n| 9. Migration | 1/1 | Complete | 2026-06-20 |\n| 10. Removal | 0/1 | Not started | - |\n",
    );
    one_plan_each(
        root,
        &[
            ("08-storage-spike", "08", true),
            ("09-migration", "09", true),
            ("10-removal", "10", false),
        ],
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], "v1.8 Cutover", "{v}");
    assert_eq!(active(&v), ["9", "10"], "{v}");
    assert_eq!(v["total_plans"], 2, "{v}");
    assert!(
        numbers_where(&v, "archived").contains(&"8".to_owned()),
        "{v}"
    );
    assert_eq!(v["current_phase"], "10", "{v}");
}

/// A heading that names the milestone's place in the work says its status
/// when nothing else marks it: `## Current Milestone: v1.5 — …` is in
/// progress and `## Next Milestone: v2.0 — …` planned, whatever a file in
/// `milestones/` whose name starts with `v2.0-` holds (there, a plan for
/// later). Unmarked `## v1.5 — …` / `## v2.0 — …` leave the archive to
/// decide.
#[test]
fn current_and_next_milestone_headings_say_their_status() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    let text = "# Roadmap\n\n<details>\n<summary>## [✓] Milestone v1.4: Search (Phases 18-20)</summary>\n\n**Status**: Archived\n\n</details>\n\n## Current Milestone: v1.5 — Hardening\n- **Phase 21**: Security — JWT handshake.\n\n## Next Milestone: v2.0 — Scaling\n- **Phase 22**: Mobile App — native.\n- **Phase 23**: GraphQL API — external.\n";
    write(root, ".planning/ROADMAP.md", text);
    write(
        root,
        ".planning/milestones/v2.0-COMPLETION-ROADMAP.md",
        "# Milestone v2.0 — Proposal Completion\n\n**Goal:** close every gap.\n",
    );
    write(root, ".planning/milestones/v1.4-ROADMAP.md", "# v1.4\n");
    write(
        root,
        ".planning/phases/21-security/21-01-PLAN.md",
        &plan("21", "01", ""),
    );
    let v = roadmap(root);
    assert_eq!(
        milestone_status(&v, "v1.5").as_deref(),
        Some("in_progress"),
        "{v}"
    );
    assert_eq!(
        milestone_status(&v, "v2.0").as_deref(),
        Some("planned"),
        "{v}"
    );
    assert!(
        v["current_milestone"].as_str().unwrap().contains("v1.5"),
        "{v}"
    );
    assert_eq!(v["current_phase"], "21", "{v}");
    // Without the words, the file in milestones/ says v2.0 shipped.
    write(
        root,
        ".planning/ROADMAP.md",
        &text
            .replace("## Current Milestone: v1.5", "## v1.5")
            .replace("## Next Milestone: v2.0", "## v2.0"),
    );
    let v = roadmap(root);
    assert_eq!(
        milestone_status(&v, "v2.0").as_deref(),
        Some("shipped"),
        "{v}"
    );
}

/// A shipped milestone's list line that leaves phases out of its range and
/// defers them (`✅ v1.17 — Phases 67–68 (69, 70 deferred to v1.19)`), and
/// the open milestone whose range names them (`🚧 v1.19 — Phases 69, 70,
/// 77`): the phases are the open milestone's, though their detail sections
/// still sit in v1.17's part of the file. Phases outside every milestone
/// numbered past a shipped milestone listed after the current one (`✅ v1.20
/// — Phases 78-80`, then `Phase 87`) came after the current milestone's
/// time: not its work (batch 17, micahbank2+room-cad-renderer).
#[test]
fn phases_deferred_to_an_open_milestone_are_its_work() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: CAD\n\n## Milestones\n\n- ✅ **v1.17 Library** — Phases 67–68 (partial-shipped 2026-05-07; Phases 69 + 70 deferred to v1.19)\n- 🚧 **v1.19 Linking** — Phases 69, 70, 77 (in progress)\n- ✅ **v1.20 Depth** — Phases 78–80 (shipped 2026-05-15)\n\n## v1.17 Library\n\n- [x] **Phase 67: Foundation**\n- [x] **Phase 68: Apply**\n- [ ] **Phase 69: Linking**\n- [ ] **Phase 70: Rebuild**\n\n### Phase 67: Foundation\n\n**Goal:** f\n\n### Phase 68: Apply\n\n**Goal:** a\n\n### Phase 69: Linking — v1.19 ACTIVE\n\n**Goal:** l\n\n### Phase 70: Rebuild — v1.19 ACTIVE\n\n**Goal:** r\n\n### Phase 77: Cleanup — v1.19 ACTIVE\n\n**Goal:** c\n\n## v1.20 Depth\n\n- [x] **Phase 78: Maps**\n- [x] **Phase 79: Presets**\n- [x] **Phase 80: Controls**\n\n## Polish Phases\n\n- 🚧 **Phase 87 — Theme toggle** (in progress)\n\n## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|-------|----------------|--------|-----------|\n| 69. Linking | 1/1 | Complete | 2026-05-08 |\n| 70. Rebuild | 0/1 | In progress | - |\n| 87. Theme toggle | 1/1 | Complete | 2026-05-20 |\n",
    );
    one_plan_each(
        root,
        &[
            ("69-linking", "69", true),
            ("70-rebuild", "70", false),
            ("77-cleanup", "77", false),
            ("87-theme-toggle", "87", true),
        ],
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], "v1.19 Linking", "{v}");
    assert_eq!(active(&v), ["69", "70", "77"], "{v}");
    assert_eq!(
        (v["total_plans"].clone(), v["total_summaries"].clone()),
        (json!(3), json!(1)),
        "{v}"
    );
    assert_eq!(v["current_phase"], "70", "{v}");
}

/// A `<details>` folding a milestone's phases away, whose summary names no
/// milestone (`<summary>展开 Phase 9-12</summary>` under `### ✅ v1.3 …`),
/// is that milestone's: its phases are v1.3's, and no milestone named
/// after the summary appears (batch 17, coderstory+vibe_coding). A summary
/// that names a version is a milestone of its own, as before.
#[test]
fn a_details_block_without_a_version_under_a_milestone_heading_is_its() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Phases\n\n### ✅ v1.3 Queues (2026-04-03 → 2026-04-29)\n\n<details>\n<summary>展开 Phase 9-10</summary>\n\n- [x] **Phase 9: Topics** — completed 2026-04-20\n- [x] **Phase 10: Consumers** — completed 2026-04-28\n\n</details>\n\n<details>\n<summary>✅ v1.2 Users — SHIPPED 2026-04-18</summary>\n\n- [x] **Phase 8: Users** — completed 2026-04-18\n\n</details>\n\n### 🚧 v1.4 Next\n\n- [ ] **Phase 11**: Monitoring\n",
    );
    let v = roadmap(root);
    let titles: Vec<&str> = v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["title"].as_str().unwrap())
        .collect();
    assert!(!titles.iter().any(|t| t.contains("展开")), "{titles:?}");
    assert!(titles.iter().any(|t| t.contains("v1.2")), "{titles:?}");
    let of = |n: &str| {
        v["phases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["number"] == n)
            .map(|p| p["milestone"].clone())
    };
    assert_eq!(of("9"), Some(json!("v1.3")), "{v}");
    assert_eq!(of("10"), Some(json!("v1.3")), "{v}");
    assert_eq!(v["current_milestone"], "v1.4 Next", "{v}");
}

/// A roadmap keeps one progress table per milestone: `## Progress` for the
/// shipped ones, another under the open milestone's heading. Phases named
/// only by the second table's rows (no `### Phase` section) are the open
/// milestone's, and `roadmap update-progress` edits that table and adds the
/// rows it lacks to it, not to the shipped one (batch 19,
/// theaspect+obsidian-toggl).
#[test]
fn every_progress_table_is_read_and_the_live_one_takes_new_rows() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Toggl\n\n## Milestones\n\n- ✅ **v1.0 MVP** — Phases 1-2 (shipped 2026-04-13)\n\n## Phases\n\n<details>\n<summary>✅ v1.0 MVP (Phases 1-2) — SHIPPED 2026-04-13</summary>\n\n- [x] Phase 1: Scaffolding (1/1 plans)\n- [x] Phase 2: Settings (1/1 plans)\n\n</details>\n\n## Progress\n\n| Phase | Milestone | Plans Complete | Status | Completed |\n|-------|-----------|----------------|--------|-----------|\n| 1. Scaffolding | v1.0 | 1/1 | Complete | 2026-04-09 |\n| 2. Settings | v1.0 | 1/1 | Complete | 2026-04-10 |\n\n## v1.1 Polish\n\n| Phase | Milestone | Plans Complete | Status | Completed |\n|-------|-----------|----------------|--------|-----------|\n| 3. CI Fixes | v1.1 | 0/1 | Not started | - |\n| 4. Security | v1.1 | 1/1 | Complete | 2026-04-15 |\n\n### Phase 5: Import\n**Goal**: sort entries\n**Plans:** 1 plan\n\nPlans:\n- [ ] 05-01-PLAN.md — sort\n",
    );
    one_plan_each(
        root,
        &[
            ("03-ci-fixes", "03", true),
            ("04-security", "04", true),
            ("05-import", "05", false),
        ],
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], "v1.1 Polish", "{v}");
    assert_eq!(active(&v), ["3", "4", "5"], "{v}");
    assert_eq!(
        v["current_phase"].as_str().or(v["next_phase"].as_str()),
        Some("5"),
        "{v}"
    );
    assert_eq!(
        (v["total_plans"].clone(), v["total_summaries"].clone()),
        (json!(3), json!(2)),
        "{v}"
    );
    // The stale row of the live table is drift; the shipped table is not read for it.
    let stale: Vec<_> = lint_codes(root)
        .into_iter()
        .filter(|(c, _, _)| c == "roadmap-progress-mismatch")
        .collect();
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert!(stale[0].2.contains("phase 3 says 0/1"), "{stale:?}");
    assert_eq!(stale[0].1, "warning", "{stale:?}");

    let o = common::gsd(root, &["roadmap", "update-progress", "--no-commit"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let text = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap();
    let live = &text[text.find("## v1.1 Polish").unwrap()..];
    let shipped = &text[text.find("## Progress").unwrap()..text.find("## v1.1 Polish").unwrap()];
    assert!(
        live.contains("| 3. CI Fixes | v1.1 | 1/1 | Complete |"),
        "{text}"
    );
    assert!(live.contains("| 5. Import | v1.1 | 0/1 |"), "{text}");
    assert!(!shipped.contains("Import"), "{text}");
    assert_eq!(shipped.matches("\n|").count(), 4, "{text}");
}

/// A bullet whose bold head names a version only after other words is not
/// a milestone entry: `**\`inbound\` (v0.5+) is intentionally absent.**`
/// in a rationale section, `**Phase 7: v2.1 — …**` (batch 19,
/// szTheory+mailglass). The head field `**Milestone:** v0.1` names the
/// milestone; entries that open with a status word (`Complete **v1.4 …**`)
/// still name theirs.
#[test]
fn a_version_inside_a_bullets_sentence_is_not_a_milestone() {
    let t = common::gsd_init(&["Core"], &[]);
    let root = t.path();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: mail\n\n**Milestone:** v0.1 (validation release)\n\n## Phases\n\n- [x] **Phase 1: Foundation** - zero-dep modules\n- [ ] **Phase 2: Preview** - dev preview\n\n## Phase Details\n\n### Phase 1: Foundation\n**Goal**: render\n\n### Phase 2: Preview\n**Goal**: preview\n\n## Phase Ordering Rationale\n\n- **Preview (Phase 2) follows Foundation.**\n- **`mail_inbound` (v0.5+) is intentionally absent.** It shares plumbing with v0.5 work.\n",
    );
    let v = roadmap(root);
    let versions: Vec<&str> = v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["version"].as_str())
        .collect();
    assert_eq!(versions, ["v0.1"], "{v}");
    assert_eq!(v["current_milestone"], "v0.1", "{v}");

    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- Active **v1.5 Redesign** — started 2026-05-27\n- Complete **v1.4 Search** — Phases 1-2 shipped 2026-05-26\n\n## Phases\n\n- [x] **Phase 1: A**\n- [x] **Phase 2: B**\n- [ ] **Phase 3: C**\n",
    );
    let v = roadmap(root);
    let named: Vec<(String, String)> = v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["version"].as_str().unwrap_or("").to_owned(),
                m["status"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let versions: Vec<&str> = named.iter().map(|(v, _)| v.as_str()).collect();
    assert_eq!(versions, ["v1.5", "v1.4"], "{v}");
    assert_eq!(v["current_milestone"], "v1.5 Redesign", "{v}");
}

/// A roadmap of phases alone (no milestone named) whose numbering
/// restarted after an earlier milestone shipped: MILESTONES.md records
/// that milestone (`Phases: 18-21`), the older folders stay in `phases/`,
/// two of them sharing numbers with the new roadmap's phases. The new
/// roadmap's phases are the live work — its own folders, matched by
/// name — and the older folders are shipped, not live; the project is
/// between milestones only once a record names the new phases or STATE.md
/// says the milestone is done. (Batch 20: hmseeb+gooseclaw.)
#[test]
fn a_restarted_roadmap_is_live_beside_an_earlier_milestones_record() {
    let t = initialised(&["Template Engine", "Extension Registration"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[
            ("01-provider-ui-expansion", "01", true),
            ("02-validation-and-env-plumbing", "02", true),
            ("07-channel-plugin-parity", "07", true),
            ("01-template-engine", "01", true),
            ("02-extension-registration", "02", true),
        ],
    );
    // The new phase 1 ran two plans: its folder, not the older one, counts.
    write(
        root,
        ".planning/phases/01-template-engine/01-02-PLAN.md",
        &plan("01", "02", ""),
    );
    write(
        root,
        ".planning/phases/01-template-engine/01-02-SUMMARY.md",
        "# Summary\n",
    );
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v4.0 Production Hardening (Shipped: 2026-03-16)\n\n**Phases:** 18-21 (4 phases, 12 plans)\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    assert_eq!(active(&v), ["1", "2"], "{v}");
    assert_eq!(
        (v["total_summaries"].clone(), v["total_plans"].clone()),
        (json!(3), json!(3)),
        "{v}"
    );

    // A record that names the new phases: they shipped with it.
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v5.0 — 2026-04-01\n\n### What landed\n- Template engine and registration (Phases 1–2)\n\n## v4.0 Production Hardening (Shipped: 2026-03-16)\n\n**Phases:** 18-21\n",
    );
    let v = roadmap(root);
    assert!(active(&v).is_empty(), "{v}");
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    assert!(why.contains("between milestones"), "{why}");
}

/// The last milestone listed as shipped, the next ones planned with no
/// phases yet, and STATE.md's frontmatter saying where GSD stopped
/// (`stopped_at: Milestone v1.4.1 complete; ready for /gsd-new-milestone`):
/// between milestones, not in the first planned one. A stale body
/// position of the shipped milestone's last phase does not change that.
/// (Batch 20: HelloThisIsFlo+omnifocus-operator.)
#[test]
fn state_stopped_at_a_finished_milestone_is_between_milestones() {
    let t = initialised(&["Catalog"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Shop\n\n## Milestones\n\n- ✅ **v1.4.1 Subtree Retrieval** — Phases 56-57 (shipped 2026-04-24) — [archive](milestones/v1.4.1-ROADMAP.md)\n- 📋 **v1.5 Project Writes** — see [MILESTONE-v1.5.md](../spec/MILESTONE-v1.5.md)\n- 📋 **v1.6 UI** — see [MILESTONE-v1.6.md](../spec/MILESTONE-v1.6.md)\n\n## Phases\n",
    );
    let state = "---\nmilestone: v1.4.1\nstatus: complete\nstopped_at: Milestone v1.4.1 complete; ready for /gsd-new-milestone to start v1.5\n---\n\n# Project State\n\n## Current Position\n\nPhase: 57 (Parent Filter) — EXECUTING\nStatus: Executing Phase 57\n";
    write(root, ".planning/STATE.md", state);
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    // Where GSD stopped mid-milestone says nothing of the kind.
    write(
        root,
        ".planning/STATE.md",
        &state.replace(
            "Milestone v1.4.1 complete; ready for /gsd-new-milestone to start v1.5",
            "Completed 57-01-PLAN.md",
        ),
    );
    assert_eq!(current(&roadmap(root)).as_deref(), Some("v1.5"));
}

/// Two milestones marked in progress: a `🚧 Pending milestone` of phases
/// carried over from the backlog (two still to do) and `🚧 v4.0 … (active)`.
/// STATE.md's position names the last carried phase and says it is
/// COMPLETE, and its `milestone:` key names v4.0: the position records
/// what was finished on the side; v4.0 is current. While the position's
/// phase is still under way, the position decides. (Batch 21:
/// HanSur94+FastSense.)
#[test]
fn a_finished_side_position_yields_to_the_milestone_state_names() {
    let t = initialised(&["Catalog"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Shop\n\n## Milestones\n\n- ✅ **v3.0 Companion** — Phases 18-23 (shipped 2026-04-30)\n- 🚧 **Pending milestone** — Phases 25-28 (promoted from backlog, awaiting scoping)\n- 🚧 **v4.0 Multi-User** — Phases 29-30 (active, started 2026-05-13)\n\n## Phases\n\n<details open>\n<summary>🚧 v4.0 Multi-User (Phases 29-30) — ACTIVE</summary>\n\n- [ ] **Phase 29: Locks**\n- [ ] **Phase 30: Writer**\n\n</details>\n\n<details>\n<summary>🚧 Pending milestone (Phases 25-28) — promoted from backlog</summary>\n\n- [ ] **Phase 25: Tags**\n- [ ] **Phase 26: Filters**\n- [x] **Phase 28: Perf**\n\n</details>\n",
    );
    one_plan_each(
        root,
        &[("29-locks", "29", true), ("30-writer", "30", false)],
    );
    let state = |phase: &str| {
        format!(
            "---\nmilestone: v4.0\nmilestone_name: Multi-User\nstatus: executing\n---\n\n# Project State\n\n## Current Position\n\nPhase: {phase}\nStatus: Executing\n"
        )
    };
    write(root, ".planning/STATE.md", &state("28 (Perf) — COMPLETE"));
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v4.0"), "{v}");
    assert_eq!(active(&v), ["29", "30"], "{v}");
    // The position's phase still under way: that milestone is where the work is.
    write(root, ".planning/STATE.md", &state("26 (Filters)"));
    let v = roadmap(root);
    assert_eq!(active(&v), ["25", "26", "28"], "{v}");
}

/// A progress row of a phase with no plan on disk keeps the count the
/// planner left open (`0/TBD`, `0/?`): GSD's own update-plan-progress
/// leaves such rows alone, and `0/0` would lose what was written. A phase
/// with plans gets its count from the disk as before.
#[test]
fn update_progress_keeps_an_open_plan_count() {
    let t = initialised(&["Core", "Billing"]);
    let root = t.path();
    let rm = root.join(".planning/ROADMAP.md");
    let text = std::fs::read_to_string(&rm).unwrap();
    let text = text
        .replace("| 1. Core | 0/0 |", "| 1. Core | 0/TBD |")
        .replace("| 2. Billing | 0/0 |", "| 2. Billing | 0/? |");
    std::fs::write(&rm, &text).unwrap();
    common::git(root, &["add", "-A"]);
    common::git(root, &["commit", "-qm", "open counts"]);
    one_plan_each(root, &[("01-core", "01", true)]);
    let o = common::gsd(root, &["roadmap", "update-progress", "--no-commit"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let after = std::fs::read_to_string(&rm).unwrap();
    assert!(after.contains("| 1. Core | 1/1 | Complete |"), "{after}");
    assert!(
        after.contains("| 2. Billing | 0/? | Not started |"),
        "{after}"
    );
}

/// A parked milestone (`⏸ … (parked; deferred …)`) that later milestones
/// shipped past, with STATE.md saying the last one is done: between
/// milestones, not the parked one. While STATE.md says work goes on, or
/// when no later milestone has shipped, the parked one stays current.
/// (Batch 22: SpillwaveSolutions+agent-brain; batch 19's
/// vinux31+PortalHC_KPB is the same class.)
#[test]
fn a_parked_milestone_passed_by_shipped_ones_is_not_current() {
    let t = initialised(&["Catalog"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    let roadmap_text = "# Roadmap: Shop\n\n**Active milestone:** none — planning next\n\n## Milestones\n\n- ✅ **v9.5 Search** — Phases 40-45 (shipped 2026-05-01)\n- ⏸ **v9.6.0 Runtime Parity** — Phases 46-49 (parked; deferred to post-MCP)\n- ✅ **v10.4 MCP v4** — Phases 64-70 (shipped 2026-06-22)\n";
    write(root, ".planning/ROADMAP.md", roadmap_text);
    let state = |status: &str| {
        format!(
            "# Project State\n\n**Current Milestone:** none — v10.4 shipped, planning next\n**Status:** {status}\n"
        )
    };
    write(
        root,
        ".planning/STATE.md",
        &state("v10.4 milestone complete — archived and tagged"),
    );
    assert_eq!(current(&roadmap(root)), None);
    let why = common::stdout(&common::gsd(root, &["roadmap", "--explain"]));
    assert!(why.contains("is parked"), "{why}");
    // STATE.md has the work going on: the parked milestone is back.
    write(root, ".planning/STATE.md", &state("Executing phase 47"));
    assert_eq!(current(&roadmap(root)).as_deref(), Some("v9.6.0"));
    // No later milestone shipped past it: it is the open one.
    write(
        root,
        ".planning/ROADMAP.md",
        &roadmap_text.replace(
            "- ✅ **v10.4 MCP v4** — Phases 64-70 (shipped 2026-06-22)\n",
            "",
        ),
    );
    write(
        root,
        ".planning/STATE.md",
        &state("v9.5 milestone complete — archived"),
    );
    assert_eq!(current(&roadmap(root)).as_deref(), Some("v9.6.0"));
}

/// Two headings opening with one version and naming different milestones
/// (`## v0.16.0 — CAS Convergence`, later `## v0.16.0 — Share Snapshots`)
/// are two milestones: STATE.md's `milestone_name:` says which is current,
/// and the phases under the second heading (and under its `## v0.16.0
/// Phases` section) are its own. A heading that only refers to the
/// version (`## Out of v0.16.0 scope`) or a section of it (`## v0.16.0
/// Progress`) names no other milestone. (Batch 23: marmos91+dittofs.)
#[test]
fn two_headings_of_one_version_with_different_names_are_two_milestones() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    let text = "# Roadmap: Store\n\n## v0.16.0 — CAS Convergence\n\n- [x] **Phase 16: Cache RAM-only** — done\n- [x] **Phase 17: Unified interface** — done\n\n## Out of v0.16.0 scope\n\n- sharding\n\n## v0.16.0 — Share Snapshots\n\n## v0.16.0 Phases\n\n### Phase 20: Backup interface\n\n**Goal:** backups\n\n### Phase 21: Restore flow\n\n**Goal:** restore\n\n## v0.16.0 Progress\n\n| Phase | Plans | Status |\n|---|---|---|\n| 20. Backup interface | 1/1 | Complete |\n| 21. Restore flow | 0/1 | In progress |\n";
    write(root, ".planning/ROADMAP.md", text);
    one_plan_each(
        root,
        &[
            ("16-cache", "16", true),
            ("17-unified", "17", true),
            ("20-backup", "20", true),
            ("21-restore", "21", false),
        ],
    );
    let state = |name: &str| {
        format!(
            "---\ngsd_state_version: 1.0\nmilestone: v0.16.0\nmilestone_name: {name}\nstatus: executing\n---\n\n# State\n"
        )
    };
    write(root, ".planning/STATE.md", &state("Share Snapshots"));
    let v = roadmap(root);
    let titles: Vec<&str> = v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        ["v0.16.0 CAS Convergence", "v0.16.0 Share Snapshots"],
        "{v}"
    );
    assert_eq!(v["current_milestone"], "v0.16.0 Share Snapshots", "{v}");
    assert_eq!(active_phases(&v), ["20", "21"], "{v}");
    assert_eq!(v["current_phase"], "21", "{v}");
    // STATE.md naming the first, whose phase 17 is still open: it is
    // current, with its own phases.
    write(root, ".planning/STATE.md", &state("CAS Convergence"));
    write(
        root,
        ".planning/ROADMAP.md",
        &text.replace("- [x] **Phase 17", "- [ ] **Phase 17"),
    );
    std::fs::remove_file(root.join(".planning/phases/17-unified/17-01-SUMMARY.md")).unwrap();
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], "v0.16.0 CAS Convergence", "{v}");
    assert_eq!(active_phases(&v), ["16", "17"], "{v}");
    // One name, two headings (`## v0.16.0 — Share Snapshots` and `## v0.16.0
    // — Share Snapshots (in progress)`): one milestone.
    write(
        root,
        ".planning/ROADMAP.md",
        &text.replace(
            "## v0.16.0 — CAS Convergence",
            "## v0.16.0 — Share Snapshots (in progress)",
        ),
    );
    let v = roadmap(root);
    assert_eq!(v["milestones"].as_array().unwrap().len(), 1, "{v}");
    // Words run on from the version (`## v1.0 Stretch Goals`, `## v1.0
    // Release Notes`) are sections of that milestone, whatever STATE.md
    // names: phase 3 stays the MVP's.
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## v1.0 — MVP\n\n### Phase 1: One\n\n**Goal:** a\n\n### Phase 2: Two\n\n**Goal:** b\n\n## v1.0 Stretch Goals\n\n### Phase 3: Three\n\n**Goal:** c\n\n## v1.0 Release Notes\n\n- none yet\n",
    );
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[
            ("01-one", "01", true),
            ("02-two", "02", false),
            ("03-three", "03", false),
        ],
    );
    write(
        root,
        ".planning/STATE.md",
        &state("MVP").replace("v0.16.0", "v1.0"),
    );
    let v = roadmap(root);
    assert_eq!(v["milestones"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(active_phases(&v), ["1", "2", "3"], "{v}");
}

/// Batch 24's reading classes, each on a tree of its own shape:
/// - phases defined only in a `| Phase | Goal |` table, with two
///   `<details>` notes (`<summary>Phase 1</summary>` over a staffing
///   list, `<summary>Roadmap Review</summary>` over approvals) that name no
///   milestone;
/// - a `**Phase 22 Status:**` label under the progress table, which names
///   no phase, and a phase whose plan list still has an unticked plan that
///   no summary names (all the plans on disk ran, the phase did not);
/// - the current milestone given as a version in code type
///   (`` - `v1.6 Async Jobs` - active ``), its phases headed above it.
#[test]
fn goal_tables_notes_labels_and_listed_plans_read_as_a_maintainer_reads_them() {
    // Goal table and notes.
    let t = initialised(&["Unused"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: Charger tool\n\n## Phase Structure\n| Phase | Goal | Requirements |\n|-------|------|--------------|\n| Phase 1: Authentication | Key exchange | AUTH-01 |\n| Phase 2: Block Transfer | Firmware | BLOCK-01 |\n| Phase 3: Error Handling | Retries | ERR-01 |\n\n## Resource Allocation\n<details>\n<summary>Phase 1</summary>\n<ul>\n    <li>1 Engineer</li>\n</ul>\n</details>\n\n## Approval Status\n<details>\n<summary>Roadmap Review</summary>\n  <table><tr><td>Auth</td><td>pending</td></tr></table>\n</details>\n",
    );
    one_plan_each(
        root,
        &[
            ("01-authentication", "01", true),
            ("02-block-transfer", "02", true),
        ],
    );
    let v = roadmap(root);
    assert_eq!(v["milestones"], json!([]), "{v}");
    assert_eq!(active_phases(&v), ["1", "2", "3"], "{v}");
    assert_eq!(v["next_phase"], "3", "{v}");
    // Beside milestones, a table of goals is an overview: it defines no
    // phase (here it restates a shipped milestone's).
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 Base** — Phases 1-2 (shipped)\n- 🚧 **v2.0 Next** — Phases 3-4 (in progress)\n\n## What v1.0 delivered\n\n| Phase | Goal |\n|---|---|\n| 1 | Key exchange |\n| 2 | Firmware |\n\n## Phases\n\n### Phase 3: Errors\n**Goal**: retries\n\n### Phase 4: Tests\n**Goal**: tests\n",
    );
    let v = roadmap(root);
    assert_eq!(active_phases(&v), ["3", "4"], "{v}");
    assert_eq!(v["next_phase"], "3", "{v}");

    // A status label and a plan the roadmap lists that has not run.
    let t = initialised(&["Unused"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- 🚧 **v1.2 Workspace MVP** - Phases 21-23 (in progress)\n\n### Phase 21: Testing\n**Plans**: 1 plan\n\nPlans:\n- [x] 21-01: Verification\n\n### Phase 22: Fix All Bugs\n**Plans**: 3 plans\n\nPlans:\n- [x] 22-01: P0 bugs\n- [🔄] 22-02: UX redesign (in progress)\n- [ ] 22-03: Remaining pages\n\n### Phase 23: Ship\n**Plans**: TBD\n\n## Progress\n\n| Phase | Plans | Status |\n|---|---|---|\n| 21. Testing | 1/1 | Complete |\n| 22. Fix All Bugs | 1/3 | 🔄 In Progress |\n| 23. Ship | 0/1 | Not started |\n\n**Phase 22 Status:**\n- 22-01: ✅ Complete\n- 22-02: 🔄 In Progress\n",
    );
    one_plan_each(
        root,
        &[("21-testing", "21", true), ("22-fix-all-bugs", "22", true)],
    );
    write(
        root,
        ".planning/phases/22-fix-all-bugs/22-02-SUMMARY.md",
        "---\nstatus: in-progress\n---\n# Summary\n",
    );
    let v = roadmap(root);
    let numbers = phase_numbers(&v);
    assert_eq!(
        numbers,
        ["21", "22", "23"],
        "no phase is read from the label: {v}"
    );
    let p22 = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["number"] == "22")
        .unwrap();
    assert_eq!(p22["status"], "partial", "{v}");
    assert_eq!(v["current_phase"], "22", "{v}");
    // Its boxes still open, a summary now names every listed plan: all ran.
    write(
        root,
        ".planning/phases/22-fix-all-bugs/22-03-SUMMARY.md",
        "# Summary\n",
    );
    let v = roadmap(root);
    let p22 = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["number"] == "22")
        .unwrap();
    assert_eq!(p22["status"], "complete", "{v}");

    // The current milestone in code type.
    let t = initialised(&["Unused"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap: CurrIA\n\n## Phases\n\n### Phase 37: Job contracts\n**Goal**: contracts\n\n### Phase 38: Orchestrator\n**Goal**: split\n\n## Current Milestone\n\n- `v1.6 Async Jobs` - active\n\n## Notes\n\n- `.planning/v4.0-VISION.md` - a design note\n",
    );
    write(
        root,
        ".planning/MILESTONES.md",
        "# Milestones\n\n## v1.5 Verification Closure (Shipped: 2026-04-01)\n\n- done\n",
    );
    one_plan_each(root, &[("37-job-contracts", "37", true)]);
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.6"), "{v}");
    assert_eq!(v["current_milestone"], "v1.6 Async Jobs", "{v}");
    assert!(
        !v["milestones"].to_string().contains("v4.0"),
        "a path in code type names no milestone: {v}"
    );
    assert_eq!(active_phases(&v), ["37", "38"], "{v}");
    assert_eq!(v["next_phase"], "38", "{v}");
}

/// A milestone closed without shipping (`🔄 v1.1 … (in progress —
/// superseded by v1.2 tokens)`, `🗃️ … (superseded: paused at 1/9 phases)`)
/// is over, not the work under way: with every other milestone shipped the
/// tree is between milestones, and beside a live one the live one is
/// current. (`brandonwunder1994+phuglee`, batch 24;
/// `gesmith0606+nfl_data_engineering`, batch 23.)
#[test]
fn a_superseded_milestone_is_not_the_current_one() {
    let t = initialised(&["Unused"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    let text = "# Roadmap: Phuglee\n\n## Milestones\n\n- ✅ **v1.0 Shell** — Phases 1–2 (shipped 2026-07-01)\n- 🔄 **v1.1 Unified Heat** — Phases 3–4 (in progress — superseded by v1.2 tokens)\n- ✅ **v1.2 Brand** — Phases 5–6 (shipped 2026-07-06)\n- 🗃️ **v1.3 Sentiment** — Phases 7–8 (superseded: paused at 1/2 phases)\n";
    write(root, ".planning/ROADMAP.md", text);
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    // Beside a live milestone, the live one is current.
    write(
        root,
        ".planning/ROADMAP.md",
        &format!(
            "{text}- 🚧 **v1.4 Territory** — Phases 9–10 (in progress)\n\n### Phase 9: Map\n**Goal**: map\n\n### Phase 10: Theater\n**Goal**: show\n"
        ),
    );
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.4"), "{v}");
    assert_eq!(v["next_phase"], "9", "{v}");
}

/// Two folders for one phase whose slugs share as many words with the
/// roadmap's name: the one that holds plans is the phase's, not a stray
/// folder of notes that sorts first (`07-public-pages-&-marketing**…` with
/// only a RESEARCH.md beside `07-public-pages-marketing`; batch 26,
/// Chakaitos+animation-labs). With no plans in either, the first stays.
#[test]
fn of_two_folders_for_a_phase_the_one_with_plans_is_read() {
    let t = initialised(&["Setup", "Public Pages & Marketing"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(root, &[("01-setup", "01", true)]);
    write(
        root,
        ".planning/phases/02-public-pages-&-marketing**---landing/02-RESEARCH.md",
        "# Research\n",
    );
    let v = roadmap(root);
    assert_eq!(v["total_plans"], 1, "{v}");
    one_plan_each(root, &[("02-public-pages-marketing", "02", false)]);
    let v = roadmap(root);
    assert_eq!(v["total_plans"], 2, "{v}");
    assert_eq!(v["total_summaries"], 1, "{v}");
    assert_eq!(v["current_phase"], "2", "{v}");
}

/// A status table numbered in a column of its own (`| # | Phase |
/// Requirements | Status |`) marks phases done like a progress table: a
/// phase whose last plan has no summary but whose row says Complete, with
/// later phases run, is done (batch 27, balazsbohonyi+riftle). A `#` that
/// counts rows gives way to a phase cell that opens with its number.
#[test]
fn a_status_table_numbered_in_its_own_column_marks_phases_done() {
    let t = initialised(&["Setup", "Gates", "Polish"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[
            ("01-setup", "01", true),
            ("02-gates", "02", true),
            ("03-polish", "03", true),
        ],
    );
    write(
        root,
        ".planning/phases/02-gates/02-02-PLAN.md",
        &plan("02", "02", ""),
    );
    write(
        root,
        ".planning/phases/03-polish/03-02-PLAN.md",
        &plan("03", "02", ""),
    );
    let v = roadmap(root);
    assert_eq!(v["current_phase"], "2", "{v}");
    let roadmap_path = root.join(".planning/ROADMAP.md");
    let text = "# Roadmap\n\n## Phase 1: Setup\n\n**Goal**: setup\n\n## Phase 2: Gates\n\n**Goal**: gates\n\n\
                ## Phase 3: Polish\n\n**Goal**: polish\n";
    std::fs::write(&roadmap_path, text).unwrap();
    assert_eq!(roadmap(root)["current_phase"], "2");
    let table = "\n## Summary\n\n| # | Phase | Requirements | Status |\n|---|---|---|---|\n\
                 | 1 | Setup | SET-01 | Complete |\n| 2 | Gates | GATE-01 | Complete |\n\
                 | 3 | Polish | POL-01 | Complete |\n";
    std::fs::write(&roadmap_path, format!("{text}{table}")).unwrap();
    let v = roadmap(root);
    assert_eq!(v["current_phase"], Value::Null, "{v}");
    assert_eq!(v["completed_phases"], 3, "{v}");
    // The `#` counts rows; the phase cell names phase 3 as `Phase 3: Polish`.
    let table = "\n## Summary\n\n| # | Phase | Status |\n|---|---|---|\n\
                 | 1 | Phase 1: Setup | Complete |\n| 2 | Phase 3: Polish | Complete |\n";
    std::fs::write(&roadmap_path, format!("{text}{table}")).unwrap();
    let v = roadmap(root);
    assert_eq!(v["current_phase"], "2", "{v}");
    assert_eq!(v["completed_phases"], 2, "{v}");
    // A name that opens with a digit (`2FA Gates`) or a count (`1/2`) in
    // the phase cell is no phase number: the `#` column's stands.
    let table = "\n## Summary\n\n| # | Phase | Status |\n|---|---|---|\n\
                 | 2 | 2FA Gates | Complete |\n| 3 | 1/2 | Complete |\n";
    std::fs::write(&roadmap_path, format!("{text}{table}")).unwrap();
    let v = roadmap(root);
    assert_eq!(v["current_phase"], Value::Null, "{v}");
    assert_eq!(v["completed_phases"], 3, "{v}");
}

/// `## v2.0 — Not yet defined` with "run /gsd:new-milestone" under it is
/// a placeholder for the next cycle, not the milestone under way: the tree
/// is between milestones (batch 27, marcusschimizzi+horizons).
#[test]
fn a_next_milestone_not_yet_defined_is_not_current() {
    let t = initialised(&["Foundation"]);
    let root = t.path();
    one_plan_each(root, &[("01-foundation", "01", true)]);
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## v1.0 MVP — ✅ SHIPPED 2026-02-28\n\n- [x] Phase 1: Foundation\n\n---\n\n\
         ## v2.0 — Not yet defined\n\nRun `/gsd:new-milestone` to start the next milestone cycle.\n",
    );
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    assert_eq!(v["current_milestone"], Value::Null, "{v}");
}

/// A phase added after every listed milestone shipped, whose progress row
/// GSD gave the next version (`| 14. Layouts | v1.2 | 0/4 | Planning |`),
/// belongs to that milestone, and it is the current one (batch 27,
/// decodedcorp+editorial-ai-worker). The template's `v1.0` cell in a
/// roadmap that lists no milestone names none.
#[test]
fn a_version_only_progress_rows_name_is_the_next_milestone() {
    let t = initialised(&["Core", "Layouts"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(root, &[("01-core", "01", true), ("02-layouts", "02", true)]);
    let rows = "## Progress\n\n| Phase | Milestone | Plans Complete | Status | Completed |\n\
                |---|---|---|---|---|\n| 1. Core | v1.0 | 1/1 | Complete | 2026-01-01 |\n\
                | 2. Layouts | v1.1 | 0/1 | Planning | - |\n";
    write(
        root,
        ".planning/ROADMAP.md",
        &format!(
            "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 MVP** — Phase 1 (shipped 2026-01-01)\n\n\
             ## Phases\n\n<details>\n<summary>✅ v1.0 MVP (Phase 1) — SHIPPED 2026-01-01</summary>\n\n\
             - [x] Phase 1: Core\n\n</details>\n\n### Phase 2: Layouts\n\n**Goal:** layouts\n\n{rows}"
        ),
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], "v1.1", "{v}");
    assert_eq!(v["total_plans"], 1, "{v}");
    assert_eq!(v["total_summaries"], 1, "{v}");
    // Under a listed milestone still open, a later version in a cell is a
    // slip of the pen: no milestone of its own.
    let text = std::fs::read_to_string(root.join(".planning/ROADMAP.md")).unwrap();
    let open = text.replace(
        "- ✅ **v1.0 MVP** — Phase 1 (shipped 2026-01-01)",
        "- 🚧 **v1.0 MVP** — Phases 1-2 (in progress)",
    );
    write(root, ".planning/ROADMAP.md", &open);
    assert_eq!(roadmap(root)["current_milestone"], "v1.0 MVP");
    // No milestone listed: the cell is the template's, and names none.
    write(
        root,
        ".planning/ROADMAP.md",
        &format!("# Roadmap\n\n## Phases\n\n- [x] Phase 1: Core\n- [ ] Phase 2: Layouts\n\n{rows}"),
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], Value::Null, "{v}");
}

/// A hand-kept STATE.md whose `milestone:` says the version shipped
/// (`v1.1 shipped — now maintenance`) is a record that it shipped, for a
/// milestone the roadmap names without a mark (batch 27,
/// eyalfuks51+Recipes-App).
#[test]
fn state_saying_its_milestone_shipped_is_a_ship_record() {
    let t = initialised(&["Core", "Layouts"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(root, &[("01-core", "01", true), ("02-layouts", "02", true)]);
    write(
        root,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 MVP** — Phase 1 (shipped 2026-01-01)\n\n\
         ## Progress\n\n| Phase | Milestone | Plans Complete | Status | Completed |\n\
         |---|---|---|---|---|\n| 1. Core | v1.0 | 1/1 | Complete | 2026-01-01 |\n\
         | 2. Layouts | v1.1 | 1/1 | Complete | 2026-02-01 |\n",
    );
    write(
        root,
        ".planning/STATE.md",
        "---\nmilestone: v1.1 in progress\n---\n\n# Project State\n",
    );
    assert_eq!(roadmap(root)["current_milestone"], "v1.1");
    // A title that opens with a status word is a title.
    write(
        root,
        ".planning/STATE.md",
        "---\nmilestone: v1.1 Complete Rewrite\n---\n\n# Project State\n",
    );
    assert_eq!(roadmap(root)["current_milestone"], "v1.1");
    write(
        root,
        ".planning/STATE.md",
        "---\nmilestone: v1.1 shipped — now maintenance / hardening\n---\n\n# Project State\n",
    );
    let v = roadmap(root);
    assert_eq!(v["current_milestone"], Value::Null, "{v}");
}

/// STATE.md's body can keep the per-phase record in headings instead of a
/// table (`### Phase 1: Unpack ✅`, `### Phase 4: Test 🔄 in progress`):
/// a heading whose name states done marks the phase done, as a table row
/// would, and the findings on its plans are history (batch 28,
/// TATboy210+demo_flutter_fullscreen). A word of the name (`Complete
/// Rewrite`) states nothing.
#[test]
fn state_phase_headings_with_a_status_mark_phases_done() {
    let t = initialised(&["Unpack", "Learn", "Modify", "Test"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[
            ("01-unpack", "01", false),
            ("02-learn", "02", false),
            ("03-modify", "03", false),
            ("04-test", "04", false),
        ],
    );
    // A plan of phase 1 that names a requirement nothing defines.
    write(
        root,
        ".planning/phases/01-unpack/01-02-PLAN.md",
        &plan("01", "02", "CTRL-01"),
    );
    let state_path = root.join(".planning/STATE.md");
    let state = std::fs::read_to_string(&state_path).unwrap();
    let v = roadmap(root);
    assert_eq!(v["completed_phases"], 0, "{v}");
    let unknown = |root: &Path| {
        lint_codes(root)
            .into_iter()
            .filter(|(code, ..)| code == "requirement-unknown")
            .map(|(_, sev, _)| sev)
            .collect::<Vec<_>>()
    };
    assert_eq!(unknown(root), ["warning"]);
    let record = "\n## Summary\n\n### Phase 1: Unpack ✅\n\nDone.\n\n### ✅ Phase 2: Learn\n\n\
                  ### Phase 3: Modify — COMPLETE\n\n### Phase 4: Test 🔄 in progress\n";
    std::fs::write(&state_path, format!("{state}{record}")).unwrap();
    let v = roadmap(root);
    assert_eq!(v["completed_phases"], 3, "{v}");
    assert_eq!(v["current_phase"], "4", "{v}");
    assert_eq!(unknown(root), ["info"]);
    // A heading about a part of the phase (a plan, its UAT) is not the
    // phase's record.
    let record = "\n## Summary\n\n### Phase 1 Plan 2: Complete\n\n### Phase 2 UAT ✅\n\n\
                  ### Phase 3 Verification: passed ✓\n";
    std::fs::write(&state_path, format!("{state}{record}")).unwrap();
    assert_eq!(roadmap(root)["completed_phases"], 0);
    // A status word inside the phase's name is its title, not a status.
    let record = "\n## Summary\n\n### Phase 1: Complete Rewrite\n\n### Phase 2: Done Right\n";
    std::fs::write(&state_path, format!("{state}{record}")).unwrap();
    let v = roadmap(root);
    assert_eq!(v["completed_phases"], 0, "{v}");
    assert_eq!(unknown(root), ["warning"]);
}

/// A folder numbered as a roadmap phase whose folder is another one
/// (`01-core` beside `01-unpack` for `Phase 1: Unpack`) is a leftover of
/// an earlier plan: a warning while its plans have not run (GSD's tools
/// find a phase's folder by its number), info once they have; the phase's
/// own folder, and a phase with only one folder, are not flagged (batch 28,
/// TATboy210+demo_flutter_fullscreen).
#[test]
fn a_second_folder_numbered_as_a_roadmap_phase_is_a_leftover() {
    let t = initialised(&["Unpack", "Learn"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[("01-unpack", "01", true), ("02-learn", "02", false)],
    );
    let shared = |root: &Path| {
        lint_codes(root)
            .into_iter()
            .filter(|(code, ..)| code == "phase-dir-shares-number")
            .map(|(_, sev, msg)| (sev, msg))
            .collect::<Vec<_>>()
    };
    assert_eq!(shared(root), []);
    one_plan_each(root, &[("01-core", "01", false)]);
    let found = shared(root);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "warning");
    assert!(
        found[0].1.contains("01-core") && found[0].1.contains("01-unpack"),
        "{found:?}"
    );
    // Its plan ran: history.
    write(
        root,
        ".planning/phases/01-core/01-01-SUMMARY.md",
        "# Summary\n",
    );
    assert_eq!(shared(root)[0].0, "info");
    // Beside a phase of a shipped milestone, an unrun leftover is history.
    std::fs::remove_file(root.join(".planning/phases/01-core/01-01-SUMMARY.md")).unwrap();
    assert_eq!(shared(root)[0].0, "warning");
    let roadmap_path = root.join(".planning/ROADMAP.md");
    let live = std::fs::read_to_string(&roadmap_path).unwrap();
    std::fs::write(
        &roadmap_path,
        "# Roadmap\n\n## Milestones\n\n- ✅ **v1.0 MVP** - Phase 1 (shipped 2026-01-01)\n         - 🚧 **v1.1 Next** - Phase 2 (in progress)\n\n## Phases\n\n         ### ✅ v1.0 MVP (Shipped)\n\n- [x] **Phase 1: Unpack** - first\n\n         ### 🚧 v1.1 Next (In Progress)\n\n- [ ] **Phase 2: Learn** - second\n\n         ## Phase Details\n\n### Phase 1: Unpack\n\n**Goal**: a\n\n### Phase 2: Learn\n\n**Goal**: b\n",
    )
    .unwrap();
    assert_eq!(shared(root)[0].0, "info");
    std::fs::write(&roadmap_path, live).unwrap();
    // The only folder of phase 1 is the phase's, whatever its name.
    std::fs::remove_dir_all(root.join(".planning/phases/01-unpack")).unwrap();
    std::fs::remove_dir_all(root.join(".planning/phases/01-core/")).unwrap();
    one_plan_each(root, &[("01-core", "01", false)]);
    assert_eq!(shared(root), []);
}

/// A roadmap whose plan boxes were never kept (none ticked, though plans
/// they list ran) says nothing by an unticked line: a phase whose plans on
/// disk all ran is done though the roadmap lists one never written. With
/// one box ticked the boxes are kept, and the unticked, unwritten plan
/// keeps the phase open (batch 29, anoop-titus+Projectwise).
#[test]
fn unkept_plan_boxes_do_not_hold_a_phase_open() {
    let t = initialised(&["Registry", "Selector"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[("01-registry", "01", true), ("02-selector", "02", true)],
    );
    let roadmap_path = root.join(".planning/ROADMAP.md");
    let text = |tick: &str| {
        format!(
            "# Roadmap\n\n## Phases\n\n- [ ] **Phase 1: Registry**\n- [ ] **Phase 2: Selector**\n\n\
             ## Phase Details\n\n### Phase 1: Registry\n**Plans**: 2 plans\n\nPlans:\n\
             - [{tick}] 01-01: Schema\n- [ ] 01-02: Scan\n\n### Phase 2: Selector\n**Plans**: 1 plan\n\n\
             Plans:\n- [ ] 02-01: Picker\n"
        )
    };
    std::fs::write(&roadmap_path, text(" ")).unwrap();
    // STATE.md's position (phase 1, as `gsd init` left it): its plans are
    // being written one at a time, and the unticked one is still to come.
    let v = roadmap(root);
    assert_eq!(v["phases"][0]["status"], "partial", "{v}");
    // STATE.md has moved on: the boxes were never kept.
    let o = common::gsd(root, &["state", "set", "currentPhase", "2", "--no-commit"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let v = roadmap(root);
    assert_eq!(v["completed_phases"], 2, "{v}");
    assert_eq!(v["current_phase"], Value::Null, "{v}");
    std::fs::write(&roadmap_path, text("x")).unwrap();
    let v = roadmap(root);
    assert_eq!(v["phases"][0]["status"], "partial", "{v}");
    assert_eq!(v["current_phase"], "1", "{v}");
}

/// A table of goals (`| Phase | Goal | Requirements |`) ahead of the
/// progress table says nothing of progress: the progress table's `Complete
/// ✓` row marks the phase done though one of its plans never ran (batch
/// 29, molmdl+autoEnsmblDockMD).
#[test]
fn a_goals_table_does_not_hide_the_progress_row_after_it() {
    let t = initialised(&["Polish", "Execute"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[("01-polish", "01", true), ("02-execute", "02", false)],
    );
    write(
        root,
        ".planning/phases/01-polish/01-02-PLAN.md",
        &plan("01", "02", ""),
    );
    let goals = "# Roadmap\n\n## Phase Structure\n\n| Phase | Goal | Requirements |\n|---|---|---|\n\
                 | **1 - Polish** | polish | DOC-01 |\n| **2 - Execute** | run it | RUN-01 |\n\n\
                 ### Phase 1: Polish\n\n**Goal**: polish\n\n### Phase 2: Execute\n\n**Goal**: run it\n";
    std::fs::write(root.join(".planning/ROADMAP.md"), goals).unwrap();
    let v = roadmap(root);
    assert_eq!(v["current_phase"], "1", "{v}");
    let progress = "\n## Progress Table\n\n| Phase | Name | Status |\n|---|---|---|\n\
                    | 1 | Polish | Complete ✓ |\n| 2 | Execute | Not Started |\n";
    std::fs::write(
        root.join(".planning/ROADMAP.md"),
        format!("{goals}{progress}"),
    )
    .unwrap();
    let v = roadmap(root);
    assert_eq!(v["phases"][0]["status"], "complete", "{v}");
    assert_eq!(v["current_phase"], "2", "{v}");
}

/// STATE.md's checklist of phases (`- [x] Phase 1: … completed.`, or
/// `- ✅ Phase 3: … (1/3 plans)`) is the tree's per-phase record, as a
/// table would be: ticked phases read as done and the findings on their
/// plans are history. One such line alone is a to-do, and an unticked box
/// (or a `⏸️` mark) says nothing (batch 30, ParthSolank+moneyflow…,
/// mekkamagnus+ai-image-generator).
#[test]
fn state_checklist_of_phases_marks_phases_done() {
    let t = initialised(&["Foundation", "Auth", "Ledger"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[
            ("01-foundation", "01", false),
            ("02-auth", "02", false),
            ("03-ledger", "03", false),
        ],
    );
    write(
        root,
        ".planning/phases/01-foundation/01-02-PLAN.md",
        &plan("01", "02", "CTRL-01"),
    );
    let unknown = |root: &Path| {
        lint_codes(root)
            .into_iter()
            .filter(|(code, ..)| code == "requirement-unknown")
            .map(|(_, sev, _)| sev)
            .collect::<Vec<_>>()
    };
    assert_eq!(unknown(root), ["warning"]);
    let state_path = root.join(".planning/STATE.md");
    let state = std::fs::read_to_string(&state_path).unwrap();
    let with = |record: &str| {
        std::fs::write(&state_path, format!("{state}\n{record}")).unwrap();
        roadmap(root)
    };
    let v = with(
        "- [x] Phase 1: Foundation completed.\n- [x] Phase 2: Auth completed.\n- [ ] Phase 3: Ledger\n",
    );
    assert_eq!(v["completed_phases"], 2, "{v}");
    assert_eq!(v["current_phase"], "3", "{v}");
    assert_eq!(unknown(root), ["info"]);
    let o = common::gsd(root, &["roadmap", "--explain"]);
    assert!(
        common::stdout(&o).contains("STATE.md's checklist of phases says done"),
        "{}",
        common::stdout(&o)
    );
    let v =
        with("**Status:**\n- ✅ Phase 1: Foundation (1/3 plans)\n- ⏸️ Phase 2: Auth (0/3 plans)\n");
    assert_eq!(v["completed_phases"], 1, "{v}");
    assert_eq!(v["current_phase"], "2", "{v}");
    // One ticked line naming a phase is a to-do, not a record; so are
    // several under a heading of to-dos or decisions, or among other tasks.
    let v = with("## Todos\n\n- [x] Phase 1: decide on hosting\n");
    assert_eq!(v["completed_phases"], 0, "{v}");
    let v = with(
        "### Pending Todos\n\n- [x] Phase 1: ask for the logo\n- [x] Phase 2: book the review\n",
    );
    assert_eq!(v["completed_phases"], 0, "{v}");
    let v = with("### Decisions\n\n- ✅ Phase 1: chose Postgres\n- ✅ Phase 2: chose JWT\n");
    assert_eq!(v["completed_phases"], 0, "{v}");
    let v = with(
        "## Work\n\n- [x] Phase 1: ask for the logo\n- [x] Phase 2: book the review\n- [x] renew the domain\n",
    );
    assert_eq!(v["completed_phases"], 0, "{v}");
    // Lines about a part of a phase are not the phase's record.
    let v = with("- [x] Phase 1 Plan 2: done\n- [x] Phase 2 UAT: passed\n");
    assert_eq!(v["completed_phases"], 0, "{v}");
}

/// A STATE.md `Plan:` line counts its plans right after the plan's own
/// number (`Plan: 2 of 4`); an `of` further along is prose (`06-06 complete
/// … 12 of 39 planned paths`) and no count to check (batch 30,
/// rahulmehta25+sleepwalker).
#[test]
fn a_plan_count_is_read_only_where_the_plan_line_gives_one() {
    let t = initialised(&["Polish"]);
    let root = t.path();
    one_plan_each(root, &[("01-polish", "01", false)]);
    let state_path = root.join(".planning/STATE.md");
    let state = std::fs::read_to_string(&state_path).unwrap();
    let plan_line = state
        .lines()
        .find(|l| l.starts_with("Plan:"))
        .expect("gsd init writes a Plan: line")
        .to_owned();
    let count = |line: &str| {
        std::fs::write(&state_path, state.replace(&plan_line, line)).unwrap();
        lint_codes(root)
            .into_iter()
            .filter(|(code, ..)| code == "state-plan-count-mismatch")
            .map(|(_, _, msg)| msg)
            .collect::<Vec<_>>()
    };
    assert_eq!(count("Plan: 1 of 3 in current phase").len(), 1);
    assert_eq!(count("Plan: Plan 1 of 3").len(), 1);
    assert_eq!(count("Plan: 1 of 1 in current phase"), Vec::<String>::new());
    assert_eq!(
        count("Plan: 01-01 complete (a gate: 12 of 39 planned paths had drifted)"),
        Vec::<String>::new()
    );
}

/// A phase folder numbered as a roadmap phase beside the phase's own is a
/// stray copy (a warning while unrun); three numbers or more with such a
/// folder are a whole earlier numbering kept beside the roadmap's, history
/// (batch 30, matthiasrib29+StoFlow).
#[test]
fn an_earlier_numbering_kept_beside_the_roadmaps_is_history() {
    let t = initialised(&["Handlers", "Orchestration", "Adapters", "Cleanup"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[
            ("01-handlers", "01", true),
            ("02-orchestration", "02", true),
            ("03-adapters", "03", true),
            ("04-cleanup", "04", false),
            ("02-returns-core", "02", false),
        ],
    );
    let shared = |root: &Path| {
        lint_codes(root)
            .into_iter()
            .filter(|(code, ..)| code == "phase-dir-shares-number")
            .map(|(_, sev, _)| sev)
            .collect::<Vec<_>>()
    };
    assert_eq!(shared(root), ["warning"]);
    one_plan_each(root, &[("03-returns-api", "03", false)]);
    assert_eq!(shared(root), ["warning", "warning"]);
    one_plan_each(root, &[("04-returns-ui", "04", false)]);
    assert_eq!(shared(root), ["info", "info", "info"]);
    // Two that ran beside one unrun stray copy are no series.
    for dir in ["02-returns-core", "03-returns-api"] {
        write(
            root,
            &format!(".planning/phases/{dir}/{}-01-SUMMARY.md", &dir[..2]),
            "# S\n",
        );
    }
    assert_eq!(shared(root), ["info", "info", "warning"]);
}

/// A version that only a phase's own section names (`l2d-widget v0.1.0`, a
/// library's) does not make STATE.md's `milestone: v0.1.0` /
/// `milestone_name: milestone` — GSD's placeholder — a milestone; the
/// roadmap's overview naming it does (batch 30, merlinalex1028+merlinalex.me).
#[test]
fn a_library_version_in_a_phase_section_names_no_milestone() {
    let t = initialised(&["Atmosphere"]);
    let root = t.path();
    let state_path = root.join(".planning/STATE.md");
    let state = std::fs::read_to_string(&state_path).unwrap();
    let body = state
        .strip_prefix("---\n")
        .and_then(|s| s.split_once("\n---\n"))
        .map_or(state.as_str(), |(_, b)| b);
    std::fs::write(
        &state_path,
        format!("---\nmilestone: v0.1.0\nmilestone_name: milestone\n---\n{body}"),
    )
    .unwrap();
    let roadmap_path = root.join(".planning/ROADMAP.md");
    let text = |overview: &str| {
        format!(
            "# Roadmap\n\n{overview}\n## Phases\n\n- [ ] **Phase 1: Atmosphere**\n\n## Phase Details\n\n\
             ### Phase 1: Atmosphere\n**Goal**: mood\n**Plans**: 1 plan\n\nPlans:\n\
             - [ ] 01-01: Live2D mascot (l2d-widget v0.1.0)\n"
        )
    };
    std::fs::write(&roadmap_path, text("")).unwrap();
    let v = roadmap(t.path());
    assert_eq!(current(&v), None, "{v}");
    std::fs::write(&roadmap_path, text("This roadmap covers v0.1.0.\n")).unwrap();
    let v = roadmap(t.path());
    assert_eq!(current(&v).as_deref(), Some("v0.1.0"), "{v}");
}

/// The roadmap's own table of milestones (`| v1.6 | 6 | 6 | Shipped … |`)
/// records a milestone's ship as MILESTONES.md would: with every phase of
/// it done, the project is between milestones though its heading still
/// says `## Current Milestone` (batch 30, rafreid+gsdview).
#[test]
fn the_roadmaps_table_of_milestones_records_a_ship() {
    let t = initialised(&["Live", "Heatmap"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(root, &[("01-live", "01", true), ("02-heatmap", "02", true)]);
    let roadmap_path = root.join(".planning/ROADMAP.md");
    let text = |status: &str| {
        format!(
            "# Roadmap\n\n## Current Milestone: v1.6 Live Activity\n\n### Phase 1: Live\n**Goal**: a\n\n\
             ### Phase 2: Heatmap\n**Goal**: b\n\n## Progress Summary\n\n\
             | Milestone | Phases | Plans | Status |\n|---|---|---|---|\n| v1.5 | 6 | 14 | Shipped 2026-01-20 |\n\
             | v1.6 | 2 | 2 | {status} |\n"
        )
    };
    std::fs::write(&roadmap_path, text("In progress")).unwrap();
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.6"), "{v}");
    std::fs::write(&roadmap_path, text("Shipped 2026-01-28")).unwrap();
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    // A table of phases by milestone: one row done is not the milestone.
    std::fs::write(
        &roadmap_path,
        text("In progress").replace(
            "| v1.6 | 2 | 2 | In progress |\n",
            "| v1.6 | 1 | 1 | Complete |\n| v1.6 | 2 | 1 | Not started |\n",
        ),
    )
    .unwrap();
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("v1.6"), "{v}");
}

/// A summary filed in a folder of its plan's own (`04-04-cli-package/
/// 04-04-SUMMARY.md`) is that plan's: the plan ran (batch 30,
/// NaumovOleg+vole). A note deeper in another subfolder is not a summary.
#[test]
fn a_summary_in_its_plans_own_folder_counts() {
    let t = initialised(&["Tunnel"]);
    let root = t.path();
    one_plan_each(root, &[("01-tunnel", "01", false)]);
    let dir = root.join(".planning/phases/01-tunnel");
    write(
        root,
        ".planning/phases/01-tunnel/notes/01-01-SUMMARY.md",
        "# Summary\n",
    );
    let v = roadmap(root);
    assert_eq!(v["total_summaries"], 0, "{v}");
    std::fs::remove_dir_all(dir.join("notes")).unwrap();
    write(
        root,
        ".planning/phases/01-tunnel/01-01-cli-package/01-01-SUMMARY.md",
        "# Summary\n",
    );
    let v = roadmap(root);
    assert_eq!(v["total_summaries"], 1, "{v}");
    assert_eq!(v["phases"][0]["status"], "complete", "{v}");
    // A copy of a plan kept in such a folder is not a second plan, and a
    // folder named for another phase's plan is not this phase's.
    write(
        root,
        ".planning/phases/01-tunnel/01-01-cli-package/01-01-PLAN.md",
        &plan("01", "01", ""),
    );
    write(
        root,
        ".planning/phases/01-tunnel/02-01-old/02-01-SUMMARY.md",
        "# Summary\n",
    );
    let v = roadmap(root);
    assert_eq!(v["total_plans"], 1, "{v}");
    assert_eq!(v["total_summaries"], 1, "{v}");
}

/// Of two folders of one number, the phase's is the one its heading's
/// words name, past the dash its name stops at (`Phase 1: Foundation - Task
/// Orchestration Core` is `01-task-orchestration`, not another numbering's
/// `01-foundation`; batch 30, matthiasrib29+StoFlow).
#[test]
fn a_phases_folder_is_picked_by_its_whole_heading() {
    let t = initialised(&["Foundation"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[
            ("01-foundation", "01", false),
            ("01-task-orchestration", "01", true),
        ],
    );
    std::fs::write(
        root.join(".planning/ROADMAP.md"),
        "# Roadmap\n\n## Phases\n\n### Phase 1: Foundation - Task Orchestration Core\n**Goal**: a\n",
    )
    .unwrap();
    let v = roadmap(root);
    assert_eq!(v["total_summaries"], 1, "{v}");
    assert_eq!(v["phases"][0]["status"], "complete", "{v}");
}

/// A plan list in a phase's section that names another phase's plans (a
/// copy of phase 5's list under phase 2, batch 31 BueroBauer+taiwan-dashboard)
/// says nothing of the phase: its own plans on disk, all summarised, make
/// it done.
#[test]
fn a_plan_of_another_phase_in_a_section_says_nothing_of_it() {
    let t = initialised(&["Foundation", "Auth", "Ledger"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[("01-foundation", "01", true), ("02-auth", "02", true)],
    );
    let roadmap_path = root.join(".planning/ROADMAP.md");
    let text = std::fs::read_to_string(&roadmap_path).unwrap();
    let listed = |plan: &str| {
        let t = text.replacen(
            "**Depends on**: Phase 1\n**Requirements**: TBD\n**Plans**: TBD\n",
            &format!("**Depends on**: Phase 1\n**Requirements**: TBD\n**Plans**: 2 plans\n\nPlans:\n- [x] 02-01-PLAN.md — API\n- [ ] {plan}-PLAN.md — More\n"),
            1,
        );
        std::fs::write(&roadmap_path, t).unwrap();
        let v = roadmap(root);
        v["phases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["number"] == "2")
            .map(|p| p["status"].as_str().unwrap().to_owned())
            .unwrap()
    };
    // Its own second plan, never written: the phase is not done.
    assert_eq!(listed("02-02"), "partial");
    // Phase 3's plan, copied into its section: it is.
    assert_eq!(listed("03-01"), "complete");
}

/// STATE.md's list of phases each stating its status after its name
/// (`- Phase 9: App Shell — COMPLETE`, `- **Phase 10: Deploy** ✓`) is a
/// per-phase record as its checklist is; one such line alone, or lines
/// under a heading of decisions, are not (batch 31, stimpson-dev+LitVault,
/// abouchard11+CatWeightLoss).
#[test]
fn a_state_list_of_phases_stating_their_status_marks_them() {
    let t = initialised(&["Foundation", "Auth", "Ledger"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[
            ("01-foundation", "01", false),
            ("02-auth", "02", false),
            ("03-ledger", "03", false),
        ],
    );
    let state_path = root.join(".planning/STATE.md");
    let state = std::fs::read_to_string(&state_path).unwrap();
    let with = |record: &str| {
        std::fs::write(&state_path, format!("{state}\n{record}")).unwrap();
        roadmap(root)
    };
    let v = with(
        "## Phases\n- Phase 1: Foundation — COMPLETE\n  - 01-01: models\n- Phase 2: Auth — COMPLETE\n- Phase 3: Ledger\n",
    );
    assert_eq!(v["completed_phases"], 2, "{v}");
    assert_eq!(v["current_phase"], "3", "{v}");
    let v = with("## Done\n- **Phase 1: Foundation** ✓\n- **Phase 2: Auth** ✓\n");
    assert_eq!(v["completed_phases"], 2, "{v}");
    // A word of the name is no status; one line alone is no record.
    let v = with("## Phases\n- Phase 1: Complete Rewrite\n- Phase 2: Auth — in progress\n");
    assert_eq!(v["completed_phases"], 0, "{v}");
    let v = with("## Progress\n- Phase 1: Foundation — COMPLETE\n");
    assert_eq!(v["completed_phases"], 0, "{v}");
    let v = with("### Decisions\n- Phase 1: Foundation — done\n- Phase 2: Auth — done\n");
    assert_eq!(v["completed_phases"], 0, "{v}");
}

/// A position line that lists phases with their statuses (`Phase: 1 ✓, 3
/// blocked, 2 ready`) records each, and `Current focus:` names the phase
/// the work is on when the line's own phase is done (batch 31,
/// abouchard11+CatWeightLoss); `Phase: 2 (Auth) — COMPLETE` says its
/// phase is done.
#[test]
fn a_position_line_listing_phases_records_each() {
    let t = initialised(&["Foundation", "Auth", "Ledger"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    let state_path = root.join(".planning/STATE.md");
    let state = std::fs::read_to_string(&state_path).unwrap();
    let with = |line: &str, focus: &str| {
        let s = state
            .replace("Phase: 1 of 3 (Foundation)", line)
            .replace("**Current focus:** Phase 1 — Foundation", focus);
        std::fs::write(&state_path, s).unwrap();
        roadmap(root)
    };
    let v = with(
        "Phase: 1 ✓, 3 blocked (waiting on a vendor), 2 ready",
        "**Current focus:** Phase 2 — Auth (ready to execute)",
    );
    let done: Vec<&str> = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["status"] == "complete")
        .map(|p| p["number"].as_str().unwrap())
        .collect();
    assert_eq!(done, ["1"], "{v}");
    assert_eq!(v["current_phase"], "2", "{v}");
    // One phase with its name: the focus line waits while it is under way.
    let v = with(
        "Phase: 1 of 3 (Foundation)",
        "**Current focus:** Phase 2 — Auth",
    );
    assert_eq!(v["current_phase"], "1", "{v}");
    // `— COMPLETE` after the phase says it is done; a name that opens with
    // a done word (`Closed Captions`) does not.
    let v = with(
        "Phase: 1 (Foundation) — COMPLETE",
        "**Current focus:** Phase 2 — Auth",
    );
    assert_eq!(v["phases"][0]["status"], "complete", "{v}");
    assert_eq!(v["current_phase"], "2", "{v}");
    let v = with(
        "Phase: 1 — Closed Captions",
        "**Current focus:** Phase 2 — Auth",
    );
    assert_ne!(v["phases"][0]["status"], "complete", "{v}");
    assert_eq!(v["current_phase"], "1", "{v}");
}

/// A roadmap's table of milestones with their phase ranges (`| **M1:
/// Backend** | 1-2 |`) defines them, and STATE.md's `Milestone:` line that
/// records several as complete (`M1 COMPLETE, M2 COMPLETE`) is no
/// milestone under way but their ship record (batch 31, stimpson-dev+LitVault).
#[test]
fn a_table_of_milestones_with_phase_ranges_defines_them() {
    let t = initialised(&["Foundation", "Auth", "Ledger"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[
            ("01-foundation", "01", true),
            ("02-auth", "02", true),
            ("03-ledger", "03", false),
        ],
    );
    let roadmap_path = root.join(".planning/ROADMAP.md");
    let text = std::fs::read_to_string(&roadmap_path).unwrap();
    std::fs::write(
        &roadmap_path,
        format!(
            "{text}\n## Milestones\n\n| Milestone | Phases | Description |\n|---|---|---|\n\
             | **M1: Backend** | 1-2 | the core |\n| **M2: Ledger** | 3 | money |\n"
        ),
    )
    .unwrap();
    let v = roadmap(root);
    assert_eq!(current(&v).as_deref(), Some("M2"), "{v}");
    let state_path = root.join(".planning/STATE.md");
    let state = std::fs::read_to_string(&state_path).unwrap();
    std::fs::write(
        &state_path,
        state.replace(
            "Status: Ready to plan",
            "Status: Ready to plan\n**Milestone**: M1 COMPLETE, M2 COMPLETE (all phases done)",
        ),
    )
    .unwrap();
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
    // A column of single numbers is a count of phases, not their range.
    std::fs::write(
        &roadmap_path,
        format!(
            "{text}\n## Milestones\n\n| Milestone | Phases | Description |\n|---|---|---|\n\
             | v1.0 | 2 | the core |\n| v1.1 | 1 | money |\n"
        ),
    )
    .unwrap();
    std::fs::write(&state_path, &state).unwrap();
    let v = roadmap(root);
    assert_eq!(current(&v), None, "{v}");
}

/// A phase its entry puts off (`- [ ] **Phase 3: Ledger** - … (deferred)`)
/// is parked in the current milestone, not its work: not the phase to work
/// on (batch 32, iugo-glen+agend-ops).
#[test]
fn a_deferred_phase_in_the_current_milestone_is_not_its_work() {
    let t = initialised(&["Foundation", "Auth", "Ledger"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[("01-foundation", "01", true), ("02-auth", "02", true)],
    );
    let roadmap_path = root.join(".planning/ROADMAP.md");
    let text = std::fs::read_to_string(&roadmap_path).unwrap().replace(
        "## Phases\n",
        "## Milestones\n\n- 🚧 **v1.0 Core** - Phases 1-3 (in progress)\n\n## Phases\n",
    );
    let state_path = root.join(".planning/STATE.md");
    let state = std::fs::read_to_string(&state_path).unwrap();
    std::fs::write(
        &state_path,
        state.replace("Phase: 1 of 3 (Foundation)", "Phase: 2 of 3 (Auth)"),
    )
    .unwrap();
    std::fs::write(&roadmap_path, &text).unwrap();
    let v = roadmap(root);
    assert_eq!(v["next_phase"], "3", "{v}");
    std::fs::write(
        &roadmap_path,
        text.replace(
            "- [ ] **Phase 3: Ledger**",
            "- [ ] **Phase 3: Ledger** - money (deferred)",
        ),
    )
    .unwrap();
    let v = roadmap(root);
    assert_eq!(v["next_phase"], Value::Null, "{v}");
    assert_eq!(v["phases"][2]["active"], false, "{v}");
    // A description that opens with the word is prose, not a status
    // (`- Backlog prioritized and assigned`, corpus tomkyser+my-cc-setup).
    std::fs::write(
        &roadmap_path,
        text.replace(
            "- [ ] **Phase 3: Ledger**",
            "- [ ] **Phase 3: Ledger** - Backlog prioritized and assigned",
        ),
    )
    .unwrap();
    let v = roadmap(root);
    assert_eq!(v["next_phase"], "3", "{v}");
    // Prose in the closing parentheses, or a link to a backlog, is no status.
    for line in [
        "- [ ] **Phase 3: Ledger** - a board (backlog, sprint, done columns)",
        "- [ ] **Phase 3: Ledger** - see the [backlog](BACKLOG.md)",
        "- [ ] **Phase 3: Ledger** - (deferred payments)",
    ] {
        std::fs::write(
            &roadmap_path,
            text.replace("- [ ] **Phase 3: Ledger**", line),
        )
        .unwrap();
        let v = roadmap(root);
        assert_eq!(v["next_phase"], "3", "{line}: {v}");
    }
    // `(Deferred to v2)` is.
    std::fs::write(
        &roadmap_path,
        text.replace(
            "- [ ] **Phase 3: Ledger**",
            "- [ ] **Phase 3: Ledger** - money (Deferred to v2)",
        ),
    )
    .unwrap();
    let v = roadmap(root);
    assert_eq!(v["next_phase"], Value::Null, "{v}");
}

/// `03-PHASE-SUMMARY.md` is the summary of the whole phase, as
/// `03-SUMMARY.md` is: its plans ran (batch 32, ja3ooni+ethos-os).
#[test]
fn a_phase_summary_named_as_such_completes_the_phase() {
    let t = initialised(&["Foundation", "Auth"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[("01-foundation", "01", false), ("02-auth", "02", false)],
    );
    let v = roadmap(root);
    assert_eq!(v["completed_phases"], 0, "{v}");
    write(
        root,
        ".planning/phases/01-foundation/01-PHASE-SUMMARY.md",
        "# Phase 1\n\nAll plans ✅ Complete.\n",
    );
    let v = roadmap(root);
    assert_eq!(v["completed_phases"], 1, "{v}");
    // A note of another name is no summary of the phase.
    write(
        root,
        ".planning/phases/02-auth/02-PHASES-SUMMARY.md",
        "# notes\n",
    );
    let v = roadmap(root);
    assert_eq!(v["completed_phases"], 1, "{v}");
}

/// Of two milestones marked in progress, one whose phases are all complete
/// is a mark left behind: the next, with work left, is current (batch 32,
/// ajamj+ajamj.github.io: `## Milestone 3 … (ACTIVE)` then `## Milestone 4
/// … (ACTIVE)`).
#[test]
fn a_finished_milestone_still_marked_active_gives_way_to_the_next() {
    let t = initialised(&["Foundation", "Auth", "Ledger"]);
    let root = t.path();
    std::fs::remove_dir_all(root.join(".planning/phases")).unwrap();
    one_plan_each(
        root,
        &[("01-foundation", "01", true), ("02-auth", "02", true)],
    );
    let roadmap_path = root.join(".planning/ROADMAP.md");
    let text = std::fs::read_to_string(&roadmap_path).unwrap();
    let with = |second: &str| {
        let t = text
            .replace(
                "### Phase 1: Foundation",
                "## Milestone 1: Core (ACTIVE)\n\n### Phase 1: Foundation",
            )
            .replace(
                "### Phase 3: Ledger",
                &format!("## Milestone 2: Money ({second})\n\n### Phase 3: Ledger"),
            )
            .replace(
                "- [ ] **Phase 1: Foundation**",
                "- [x] **Phase 1: Foundation**",
            )
            .replace("- [ ] **Phase 2: Auth**", "- [x] **Phase 2: Auth**");
        std::fs::write(&roadmap_path, t).unwrap();
        roadmap(root)
    };
    let v = with("ACTIVE");
    assert_eq!(current(&v).as_deref(), Some("Milestone 2"), "{v}");
    // The next one planned, not marked under way: the marked one stays.
    let v = with("PLANNED");
    assert_eq!(current(&v).as_deref(), Some("Milestone 1"), "{v}");
}
