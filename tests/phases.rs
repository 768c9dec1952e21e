//! `gsd phase add|insert|complete|remove`, `gsd roadmap update-progress` and
//! `gsd state advance|record-session|sync` from the CLI, in real repos.

mod common;

use common::*;

fn read(t: &tempfile::TempDir, rel: &str) -> String {
    std::fs::read_to_string(t.path().join(rel)).unwrap()
}

fn ok(t: &tempfile::TempDir, args: &[&str]) -> String {
    let o = gsd(t.path(), args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

const ROADMAP: &str = ".planning/ROADMAP.md";

#[test]
fn add_and_insert_phases() {
    let t = repo_of("clean");
    let before = read(&t, ROADMAP);
    let o = gsd(t.path(), &["phase", "add", "Search", "--dry-run"]);
    assert!(
        stdout(&o).contains("+### Phase 13: Search\n"),
        "{}",
        stdout(&o)
    );
    assert!(
        !t.path().join(".planning/phases/13-search").exists(),
        "dry run creates nothing"
    );
    assert_eq!(read(&t, ROADMAP), before);

    ok(&t, &["phase", "add", "Search & Filters"]);
    assert!(
        t.path()
            .join(".planning/phases/13-search-filters/.gitkeep")
            .exists()
    );
    let r = read(&t, ROADMAP);
    assert!(r.contains("- [ ] **Phase 12A: Variant** - a letter-suffixed phase\n- [ ] **Phase 13: Search & Filters**\n"));
    assert!(
        r.contains("### Phase 13: Search & Filters\n**Goal**: TBD\n**Depends on**: Phase 12A\n")
    );
    assert!(r.contains("| 12A. Variant | 0/0 | Not started | - |\n| 13. Search & Filters | 0/0 | Not started | - |\n"));
    assert!(
        r.find("### Phase 13").unwrap() < r.find("## Backlog").unwrap(),
        "before the backlog"
    );
    let shown = git(t.path(), &["show", "--name-only", "--format=%s", "HEAD"]);
    assert_eq!(
        shown.trim(),
        "docs(roadmap): add phase 13: Search & Filters\n\n.planning/ROADMAP.md\n.planning/STATE.md\n.planning/phases/13-search-filters/.gitkeep"
    );
    // STATE.md's `Phase: X of N` counts the new phase.
    assert!(read(&t, ".planning/STATE.md").contains("Phase: 2 of 5 (API)"));

    ok(&t, &["phase", "insert", "2", "Rate limits"]);
    assert!(
        t.path().join(".planning/phases/02.2-rate-limits").is_dir(),
        "2.1 exists, so 2.2"
    );
    let r = read(&t, ROADMAP);
    assert!(r.contains("- [ ] **Phase 2.1: Hotfix** - urgent (INSERTED)\n- [ ] **Phase 2.2: Rate limits** (INSERTED)\n"));
    assert!(r.contains("**Plans**: TBD\n\n### Phase 2.2: Rate limits (INSERTED)\n**Goal**: TBD\n**Depends on**: Phase 2\n"));
    assert!(r.contains(
        "| 2.1. Hotfix | 0/0 | Not started | - |\n| 2.2. Rate limits | 0/0 | Not started | - |\n"
    ));
    // The result still lints without errors (the fixture jumps from 2 to 12A,
    // so 13 makes the integer folders 1, 2, 13: a true numbering gap), and git
    // agrees nothing is left over.
    let (code, diags) = lint(t.path());
    assert_eq!(
        (code, codes(&diags)),
        (0, vec!["phase-numbering-gap".to_owned()])
    );
    assert_eq!(git(t.path(), &["status", "--porcelain"]).trim(), "");
}

#[test]
fn update_progress_is_deterministic_and_complete_advances_state() {
    let t = repo_of("clean");
    let out = ok(&t, &["roadmap", "update-progress"]);
    assert!(out.contains("nothing changed"), "{out}");
    std::fs::write(
        t.path().join(".planning/phases/02-api/02-01-SUMMARY.md"),
        "---\nphase: 02-api\nplan: 01\ncompleted: 2026-11-20\n---\n# Summary\n",
    )
    .unwrap();
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "summary"]);
    ok(&t, &["roadmap", "update-progress"]);
    let r = read(&t, ROADMAP);
    // The date the summary records, not the day the command ran.
    assert!(
        r.contains("| 2. API | 1/1 | Complete | 2026-11-20 |"),
        "{r}"
    );
    assert!(
        ok(&t, &["roadmap", "update-progress"]).contains("nothing changed"),
        "a rerun changes nothing"
    );

    let v = json(&gsd(t.path(), &["phase", "complete", "2", "--json"]));
    assert_eq!(
        v["changed"],
        serde_json::json!([".planning/ROADMAP.md", ".planning/STATE.md"])
    );
    let r = read(&t, ROADMAP);
    assert!(r.contains("- [x] **Phase 2: API** - endpoints (completed 20"));
    assert!(r.contains("**Plans**: 1/1 plans complete\n\nPlans:\n- [x] 02-01: list endpoint\n"));
    let s = read(&t, ".planning/STATE.md");
    assert!(
        s.contains("Phase: 2.1 of 4 (Hotfix)\n")
            && s.contains("Status: Ready to plan\n")
            && s.contains("Plan: Not started\n"),
        "{s}"
    );
    assert!(s.contains("current_phase: 2.1  # the phase being executed\n"));
}

#[test]
fn state_advance_sync_and_record_session() {
    let t = repo_of("clean");
    // Phase 2 has one plan without a summary: advance points at it.
    let out = ok(&t, &["state", "advance"]);
    assert!(out.contains("last activity"), "{out}");
    assert!(read(&t, ".planning/STATE.md").contains("Plan: 1 of 1 in current phase\n"));
    // sync recomputes the derived values and says what it changed.
    let s = read(&t, ".planning/STATE.md")
        .replace("Progress: [███████░░░] 66%", "Progress: [█░░░░░░░░░] 10%")
        .replace("percent: 66", "percent: 5");
    std::fs::write(t.path().join(".planning/STATE.md"), s).unwrap();
    // Committed first: a committing write refuses a file with uncommitted
    // edits of the user's (tests/faults.rs).
    git(t.path(), &["commit", "-qam", "stale progress"]);
    let out = ok(&t, &["state", "sync"]);
    assert!(
        out.contains("progress [█░░░░░░░░░] 10% → [███████░░░] 66%")
            && out.contains("progress.percent 5 → 66"),
        "{out}"
    );
    assert!(ok(&t, &["state", "sync"]).contains("nothing to change"));
    let out = ok(
        &t,
        &[
            "state",
            "record-session",
            "--stopped-at",
            "02-01 task 2",
            "--resume-file",
            ".planning/phases/02-api/02-01-PLAN.md",
        ],
    );
    assert!(
        out.contains("stopped at Completed 01-02-PLAN.md → 02-01 task 2"),
        "{out}"
    );
    let s = read(&t, ".planning/STATE.md");
    assert!(s.contains("Resume file: .planning/phases/02-api/02-01-PLAN.md\n"));
}

#[test]
fn bad_input() {
    let t = repo_of("clean");
    let before = read(&t, ROADMAP);
    for (args, needle) in [
        (vec!["phase", "insert", "7", "X"], "phase 7 does not exist"),
        (
            vec!["phase", "complete", "2"],
            "plans without a summary: 02-01-PLAN.md",
        ),
        (vec!["phase", "complete", "12A"], "no plans on disk"),
        (vec!["phase", "complete", "42"], "phase 42 does not exist"),
        (vec!["phase", "add", "  "], "cannot name a phase"),
    ] {
        let o = gsd(t.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(read(&t, ROADMAP), before);
    // 2.1 has no plans: advancing from it is refused.
    ok(&t, &["state", "set", "currentPhase", "2.1"]);
    let o = gsd(t.path(), &["state", "advance"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no plans on disk"));
    let missing = tree("missing-core");
    let o = gsd(missing.path(), &["phase", "add", "X"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ROADMAP.md"));
}

/// The clean tree plus a phase 3 whose plan depends on phase 2's plan.
fn tree_with_phase_3() -> tempfile::TempDir {
    let t = tree("clean");
    let dir = t.path().join(".planning/phases/03-ui");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("03-01-PLAN.md"),
        "---\nphase: 03-ui\nplan: 01\ntype: execute\nwave: 1\ndepends_on: [\"02-01\", \"01-02\"]\nfiles_modified: []\nautonomous: true\nmust_haves:\n  artifacts:\n    - path: src/ui.rs\n---\n\n<tasks>\n<task type=\"auto\"><name>T</name><files>x</files><action>a</action><verify>v</verify><done>d</done></task>\n</tasks>\n",
    )
    .unwrap();
    let rm = t.path().join(".planning/ROADMAP.md");
    let r = std::fs::read_to_string(&rm)
        .unwrap()
        .replace("- [ ] **Phase 12A: Variant**", "- [ ] **Phase 3: UI** - screens\n- [ ] **Phase 12A: Variant**")
        .replace("### Phase 12A: Variant", "### Phase 3: UI\n**Goal**: Screens\n**Depends on**: Phase 2\n**Plans**: 1 plan\n\nPlans:\n- [ ] 03-01: screens\n\n### Phase 12A: Variant")
        .replace("| 12A. Variant |", "| 3. UI | 0/1 | Planned | - |\n| 12A. Variant |");
    std::fs::write(&rm, r).unwrap();
    git(t.path(), &["init", "-q", "-b", "main"]);
    git(t.path(), &["config", "user.email", "t@e.com"]);
    git(t.path(), &["config", "user.name", "T"]);
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "init"]);
    t
}

#[test]
fn remove_renumbers_everything_consistently() {
    let t = tree_with_phase_3();
    assert_eq!(lint(t.path()).0, 0);
    let o = gsd(t.path(), &["phase", "remove", "2"]);
    assert_eq!(o.status.code(), Some(2), "the current phase is 2");
    assert!(stderr(&o).contains("current phase is 2"));
    ok(&t, &["state", "set", "currentPhase", "3"]);
    ok(&t, &["phase", "remove", "2"]);
    let dirs: Vec<String> = std::fs::read_dir(t.path().join(".planning/phases"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(
        dirs,
        [
            "01-foundation",
            "01.1-hotfix",
            "02-ui",
            "11A-variant",
            "999.1-someday"
        ],
        "2.1 keeps its place after 1; later phases move down"
    );
    let plan = read(&t, ".planning/phases/02-ui/02-01-PLAN.md");
    assert!(plan.contains("phase: 02-ui\n"));
    assert!(
        plan.contains("depends_on: [\"01-02\"]\n"),
        "the removed phase's plan is no longer a dependency: {plan}"
    );
    let r = read(&t, ROADMAP);
    for want in [
        "- [ ] **Phase 1.1: Hotfix** - urgent (INSERTED)\n- [ ] **Phase 2: UI** - screens\n- [ ] **Phase 11A: Variant**",
        "### Phase 1.1: Hotfix (INSERTED)\n**Goal**: Fix what phase 2 broke\n**Depends on**: Phase 1\n",
        "### Phase 2: UI\n**Goal**: Screens\n**Depends on**: Phase 1\n",
        "- [ ] 02-01: screens\n",
        "### Phase 11A: Variant\n**Goal**: Show letter suffixes\n**Depends on**: Phase 1.1\n",
        "| 1.1. Hotfix | 0/0 | Not started | - |\n| 2. UI | 0/1 | Planned | - |\n| 11A. Variant |",
    ] {
        assert!(r.contains(want), "missing {want:?} in\n{r}");
    }
    assert!(!r.contains("Phase 2: API") && !r.contains("Phase 3"), "{r}");
    assert!(
        read(&t, ".planning/REQUIREMENTS.md")
            .contains("| API-01 | Unassigned (phase 2 removed) | Pending |")
    );
    let s = read(&t, ".planning/STATE.md");
    assert!(
        s.contains("Phase: 2 of 3 (UI)\n") && s.contains("current_phase: 2  #"),
        "{s}"
    );
    // git sees renames and deletions in one commit, and nothing left over.
    let stat = git(t.path(), &["show", "--stat", "--format=%s", "-M", "HEAD"]);
    assert!(stat.starts_with("docs(roadmap): remove phase 2 and renumber"));
    assert!(
        stat.contains("{03-ui/03-01-PLAN.md => 02-ui/02-01-PLAN.md}"),
        "{stat}"
    );
    assert_eq!(git(t.path(), &["status", "--porcelain"]).trim(), "");
    git(t.path(), &["fsck", "--strict"]);
    let (code, diags) = lint(t.path());
    assert_eq!(code, 0, "{diags:#?}");
    assert!(
        !codes(&diags)
            .iter()
            .any(|c| c.starts_with("depends-on") || c == "dependency-cycle")
    );
}

#[test]
fn remove_refuses_to_renumber_executed_work() {
    let t = tree_with_phase_3();
    let before = read(&t, ROADMAP);
    for (args, needle) in [
        (
            vec!["phase", "remove", "1"],
            "executed plans would be renumbered or deleted: 01-foundation",
        ),
        (vec!["phase", "remove", "2.1"], "only integer phases"),
        (vec!["phase", "remove", "9"], "phase 9 does not exist"),
    ] {
        let o = gsd(t.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(read(&t, ROADMAP), before);
    assert!(t.path().join(".planning/phases/01-foundation").is_dir());
}

/// The phase index used by lint and `gsd roadmap` gives the same answers as
/// the model's scans on every fixture (archived phases, `<details>` blocks,
/// checklist-only and folder-only phases among them).
#[test]
fn phase_index_agrees_with_the_model_on_every_fixture() {
    for name in [
        "clean",
        "all-rules",
        "missing-core",
        "bad-config",
        "research",
    ] {
        let ws = gsd::model::Workspace::load(&fixture(name)).unwrap();
        assert_index_agrees(&ws);
    }
}

/// Numbering restarted at a new milestone: phase 1 and 2 appear inside the
/// shipped `<details>` block and again outside it, in folders both archived
/// and current, and padded differently. Lookups must prefer the active
/// entries and the current folders, as the model's scans do.
#[test]
fn phase_index_prefers_active_entries_when_numbers_repeat() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join(".planning");
    for dir in [
        "phases/01-new-core",
        "phases/2-new-api",
        "milestones/v1.0-phases/01-old-core",
        "milestones/v1.0-phases/02-old-api",
        "milestones/v1.0-phases/03-old-docs",
    ] {
        std::fs::create_dir_all(p.join(dir)).unwrap();
    }
    std::fs::write(
        p.join("ROADMAP.md"),
        "# Roadmap\n\n<details>\n<summary>v1.0</summary>\n\n\
         - [x] **Phase 1: Old core**\n- [x] **Phase 02: Old API**\n- [x] **Phase 3: Old docs**\n\n\
         ### Phase 1: Old core\n**Goal**: old\n\n### Phase 02: Old API\n**Goal**: old\n\n\
         ### Phase 3: Old docs\n**Goal**: old\n</details>\n\n\
         - [ ] **Phase 01: New core**\n- [ ] **Phase 2: New API**\n\n\
         ## Phase Details\n\n### Phase 01: New core\n**Goal**: new\n\n### Phase 2: New API\n**Goal**: new\n\n\
         ## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n\
         | 1. New core | 0/0 | Not started | - |\n| 2. New API | 0/0 | Not started | - |\n",
    )
    .unwrap();
    let ws = gsd::model::Workspace::load(t.path()).unwrap();
    assert_index_agrees(&ws);
    let index = gsd::model::PhaseIndex::new(&ws);
    let one = gsd::model::PhaseId::parse("1").unwrap();
    let three = gsd::model::PhaseId::parse("03").unwrap();
    assert_eq!(index.detail(&one).unwrap().name, "New core");
    assert!(!index.checklist(&one).unwrap().archived);
    assert_eq!(index.folder(&one).unwrap().dir_name, "01-new-core");
    assert_eq!(index.folder(&three).unwrap().dir_name, "03-old-docs");
    assert!(index.current(&three).is_none());
}

#[test]
fn removing_the_only_phase_folder_keeps_the_phases_folder() {
    // Emptied by a removal, `phases/` is still the tree's: the next
    // `phase add` (and gsd-sdk's listings) expect it.
    let t = tree_with_phase_3();
    let phases = t.path().join(".planning/phases");
    for d in [
        "01-foundation",
        "02-api",
        "02.1-hotfix",
        "12A-variant",
        "999.1-someday",
    ] {
        std::fs::remove_dir_all(phases.join(d)).unwrap();
    }
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "only phase 3 on disk"]);
    ok(&t, &["phase", "remove", "3"]);
    assert!(!phases.join("03-ui").exists());
    assert!(phases.is_dir(), "phases/ was removed with its last folder");
    assert!(t.path().join(".planning").is_dir());
}

/// A roadmap whose numbering restarted for the milestone under way (v0.1's
/// phases 1–4 shipped and archived, v0.2 numbered 1–3 again): the next phase
/// is 4, after the restarted run, not 5. And a progress table that ends the
/// file without a line break gets its new row on a line of its own.
#[test]
fn add_after_restarted_numbering_and_a_table_at_the_end_of_the_file() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join(".planning/phases/01-board")).unwrap();
    std::fs::write(
        t.path().join(".planning/ROADMAP.md"),
        "# Roadmap\n\n## Milestones\n\n- ✅ v0.1 (shipped)\n- 🚧 v0.2\n\n## Phases\n\n\
         <details><summary>v0.1</summary>\n\n- [x] Phase 1: A\n- [x] Phase 2: B\n- [x] Phase 3: C\n- [x] Phase 4: D\n\n</details>\n\n\
         ### 🚧 v0.2\n\n- [ ] **Phase 1: Board** - x\n- [ ] **Phase 2: Count** - y\n- [ ] **Phase 3: Line** - z\n\n\
         ## Phase Details\n\n### Phase 1: Board\n**Goal**: g\n\n### Phase 2: Count\n**Goal**: g\n\n### Phase 3: Line\n**Goal**: g\n\n\
         ## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n| 1. Board | 0/1 | Not started | - |\n| 2. Count | 0/0 | Not started | - |\n| 3. Line | 0/0 | Not started | - |",
    )
    .unwrap();
    ok(&t, &["phase", "add", "Polish", "--no-commit"]);
    let rm = read(&t, ".planning/ROADMAP.md");
    assert!(rm.contains("- [ ] **Phase 4: Polish**"), "{rm}");
    assert!(rm.contains("### Phase 4: Polish"), "{rm}");
    assert!(!rm.contains("Phase 5"), "{rm}");
    assert!(t.path().join(".planning/phases/04-polish").is_dir());
    assert!(
        rm.ends_with("| 3. Line | 0/0 | Not started | - |\n| 4. Polish | 0/0 | Not started | - |"),
        "{rm}"
    );
    // Decimal phases listed after the last integer one are not a restart.
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join(".planning")).unwrap();
    std::fs::write(
        t.path().join(".planning/ROADMAP.md"),
        "# Roadmap\n\n### Phase 1: A ✅\n\n### Phase 2: B ✅\n\n### Phase 3: C\n\n### Phase 4: D\n\n\
         ## Later\n\n### Phase 2.1: E\n\n### Phase 3.1: F\n",
    )
    .unwrap();
    ok(&t, &["phase", "add", "Next", "--no-commit"]);
    assert!(read(&t, ".planning/ROADMAP.md").contains("### Phase 5: Next"));
}

/// A roadmap between milestones (every milestone shipped and folded into
/// `<details>`, the progress table ending the file): `phase add` puts the
/// new phase's details at the end of `## Phases`, apart from what is around
/// them by blank lines, and its row inside the progress table (it used to
/// glue the details to the table's last row and put the row after them).
#[test]
fn phase_add_between_milestones_keeps_the_progress_table_whole() {
    let t = gsd_init(&["AI"], &[]);
    let roadmap = "# Roadmap: TicTacToe\n\n## Milestones\n\n- ✅ **v1.0** — Phases 1-2 (shipped 2026-06-17)\n\n\
                   ## Phases\n\n<details>\n<summary>✅ v1.0 (Phases 1-2) — SHIPPED 2026-06-17</summary>\n\n\
                   - [x] Phase 1: UI (2/2 plans) — completed 2026-06-17\n- [x] Phase 2: AI (1/1 plan) — completed 2026-06-17\n\n\
                   </details>\n\n## Next Milestone\n\nRun `/gsd-new-milestone` to define v1.1.\n\n## Progress\n\n\
                   | Phase | Plans Complete | Status | Completed |\n|-------|----------------|--------|-----------|\n\
                   | 1. UI | 2/2 | Complete | 2026-06-17 |\n| 2. AI | 1/1 | Complete | 2026-06-17 |\n";
    std::fs::write(t.path().join(ROADMAP), roadmap).unwrap();
    ok(&t, &["phase", "add", "Export reports", "--no-commit"]);
    let r = read(&t, ROADMAP);
    assert!(
        r.contains("</details>\n\n### Phase 3: Export reports\n**Goal**: TBD\n**Depends on**: Phase 2\n**Requirements**: TBD\n**Plans**: TBD\n\n## Next Milestone\n"),
        "{r}"
    );
    assert!(
        r.ends_with("| 2. AI | 1/1 | Complete | 2026-06-17 |\n| 3. Export reports | 0/0 | Not started | - |\n"),
        "{r}"
    );
    // Details appended at the end of a file get a blank line before them.
    let t = gsd_init(&["AI"], &[]);
    std::fs::write(
        t.path().join(ROADMAP),
        "# Roadmap\n\n- [ ] **Phase 1: Core**\n\n### Phase 1: Core\n**Goal**: a\n- [ ] TBD",
    )
    .unwrap();
    ok(&t, &["phase", "add", "Next", "--no-commit"]);
    let r = read(&t, ROADMAP);
    assert!(
        r.contains("- [ ] TBD\n\n### Phase 2: Next\n**Goal**: TBD\n"),
        "{r}"
    );
    // `## Phase Details` over `## Phases` (the checklist's), and never above
    // the document's title when the table sits under a `###` heading.
    let t = gsd_init(&["AI"], &[]);
    std::fs::write(
        t.path().join(ROADMAP),
        "# Roadmap\n\n## Phases\n\n- [x] Phase 1: Core\n\n## Phase Details\n\nDetails follow.\n\n## Notes\n\nx\n",
    )
    .unwrap();
    ok(&t, &["phase", "add", "Next", "--no-commit"]);
    let r = read(&t, ROADMAP);
    assert!(r.contains("Details follow.\n\n### Phase 2: Next\n"), "{r}");
    let t = gsd_init(&["AI"], &[]);
    std::fs::write(
        t.path().join(ROADMAP),
        "# Roadmap: X\n\n### Progress\n\n| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n| 1. Core | 1/1 | Complete | - |\n",
    )
    .unwrap();
    ok(&t, &["phase", "add", "Next", "--no-commit"]);
    let r = read(&t, ROADMAP);
    assert!(r.starts_with("# Roadmap: X\n"), "{r}");
    assert!(r.contains("| 1. Core | 1/1 | Complete | - |\n| 2. Next | 0/0 | Not started | - |\n\n### Phase 2: Next\n"), "{r}");
}

/// A new progress row is written in the table's own layout: the number
/// alone where the rows give it alone, the milestone of the live row it
/// follows, a name column filled with the name, any other column `-`.
#[test]
fn a_new_progress_row_follows_the_tables_own_columns() {
    let t = gsd_init(&["Sync"], &[]);
    std::fs::write(
        t.path().join(ROADMAP),
        "# Roadmap\n\n- 🚧 **v6.5** — Sync (Active)\n\n## Progress\n\n\
         | Phase | Milestone | Plans Complete | Status | Completed |\n|-------|-----------|----------------|--------|-----------|\n\
         | 18 | v6.5 | 1/1 | Complete | 2026-05-04 |\n| 19 | v6.5 | 1/1 | Complete | 2026-05-04 |\n\n\
         ## Phase Details\n\n### Phase 18: Sync\n**Goal**: a\n\n### Phase 19: Fix\n**Goal**: b\n",
    )
    .unwrap();
    ok(&t, &["phase", "add", "Audit", "--no-commit"]);
    let r = read(&t, ROADMAP);
    assert!(
        r.contains(
            "| 19 | v6.5 | 1/1 | Complete | 2026-05-04 |\n| 20 | v6.5 | 0/0 | Not started | - |\n"
        ),
        "{r}"
    );
    let t = gsd_init(&["Sync"], &[]);
    std::fs::write(
        t.path().join(ROADMAP),
        "# Roadmap\n\n## Progress\n\n| Phase | Name | Owner | Plans | Status |\n|---|---|---|---|---|\n\
         | Phase 1 | Sync | ana | 1/1 | Complete |\n\n### Phase 1: Sync\n**Goal**: a\n",
    )
    .unwrap();
    ok(&t, &["phase", "add", "Audit", "--no-commit"]);
    let r = read(&t, ROADMAP);
    assert!(
        r.contains("| Phase 1 | Sync | ana | 1/1 | Complete |\n| Phase 2 | Audit | - | 0/0 | Not started |\n"),
        "{r}"
    );
    // Rows shifted a column left of their header: no plan count is taken
    // for a milestone; names in any script are cut safely (`phase insert`
    // after `1. Préparation` used to panic).
    let t = gsd_init(&["Sync"], &[]);
    std::fs::write(
        t.path().join(ROADMAP),
        "# Roadmap\n\n## Progress\n\n| Phase | Milestone | Plans Complete | Status | Completed |\n|---|---|---|---|---|\n\
         | 1. Préparation | 2/2 | Complete | 2026-05-04 |\n\n### Phase 1: Préparation\n**Goal**: a\n",
    )
    .unwrap();
    ok(&t, &["phase", "insert", "1", "Audit", "--no-commit"]);
    ok(&t, &["phase", "add", "Ship", "--no-commit"]);
    let r = read(&t, ROADMAP);
    assert!(
        r.contains("| 1.1. Audit | - | 0/0 | Not started | - |\n"),
        "{r}"
    );
    assert!(
        r.contains("| 2. Ship | - | 0/0 | Not started | - |\n"),
        "{r}"
    );
}
