//! Plan identity on the shapes real trees have: fix plans beside their
//! plan, non-numeric plan tokens, bare `PLAN.md`, quick plans, and numbering
//! that restarts per milestone. Every listed ID opens its plan; a query that
//! fits several plans is refused with the candidates; a plan whose tasks
//! cannot all be read says so on stderr and exits 1.

mod common;

use std::path::Path;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const PLAN: &str = "---\nphase: 15-x\nplan: 02\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: []\nautonomous: true\nmust_haves: {}\n---\n<tasks>\n<task type=\"auto\">\n<name>T</name>\n<action>a</action>\n</task>\n</tasks>\n";

fn tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n### Phase 15: X\n**Goal**: g\n",
    );
    write(r, ".planning/phases/15-x/15-02-PLAN.md", PLAN);
    write(r, ".planning/phases/15-x/15-02-FIX2-PLAN.md", PLAN);
    write(
        r,
        ".planning/phases/15-x/15-FIX6-PLAN.md",
        &PLAN.replace("plan: 02", "plan: FIX6"),
    );
    write(
        r,
        ".planning/phases/01-new/01-01-PLAN.md",
        &PLAN
            .replace("phase: 15-x", "phase: 01-new")
            .replace("plan: 02", "plan: 01"),
    );
    write(
        r,
        ".planning/milestones/v1.0-phases/01-old/01-01-PLAN.md",
        &PLAN
            .replace("phase: 15-x", "phase: 01-old")
            .replace("plan: 02", "plan: 01"),
    );
    write(
        r,
        ".planning/milestones/v1.1-phases/01-older/01-01-PLAN.md",
        &PLAN
            .replace("phase: 15-x", "phase: 01-older")
            .replace("plan: 02", "plan: 01"),
    );
    write(
        r,
        ".planning/quick/1-fix-typo/1-PLAN.md",
        "---\nstatus: done\n---\n<task type=\"auto\"><name>q</name><action>a</action></task>\n",
    );
    t
}

fn listed(root: &Path) -> Vec<(String, String)> {
    common::plan_list(root)
}

#[test]
fn every_listed_id_opens_its_plan() {
    let t = tree();
    let plans = listed(t.path());
    assert_eq!(plans.len(), 7);
    let ids: Vec<&str> = plans.iter().map(|(i, _)| i.as_str()).collect();
    for want in ["15-02", "15-02-FIX2", "01-01", "v1.0/01-01", "v1.1/01-01"] {
        assert!(ids.contains(&want), "{want} not in {ids:?}");
    }
    for (id, path) in &plans {
        let o = common::gsd(t.path(), &["plan", "show", id, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{id}: {}", common::stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["path"], path.as_str(), "{id}");
        assert_eq!(v["id"], id.as_str(), "{id}");
    }
}

#[test]
fn plain_number_means_the_live_plan_and_spellings_agree() {
    let t = tree();
    for q in ["01-01", "1-1", "01-01-PLAN.md"] {
        let o = common::gsd(t.path(), &["plan", "show", q, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{q}: {}", common::stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["path"], ".planning/phases/01-new/01-01-PLAN.md", "{q}");
    }
}

#[test]
fn a_query_that_fits_several_plans_lists_them() {
    let t = tree();
    // `15-2` is 15-02-PLAN.md and 15-02-FIX2-PLAN.md alike.
    let o = common::gsd(t.path(), &["plan", "show", "15-2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = common::stderr(&o);
    assert!(err.contains("names several plans"), "{err}");
    assert!(
        err.contains("15-02-FIX2") && err.contains("15-02-PLAN.md"),
        "{err}"
    );
    // Two archived namesakes and no live one: ambiguous too.
    std::fs::remove_dir_all(t.path().join(".planning/phases/01-new")).unwrap();
    let o = common::gsd(t.path(), &["plan", "show", "01-01"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("v1.0/01-01"));
    // A typo is not found, with the nearest listed ID.
    let o = common::gsd(t.path(), &["plan", "show", "15-02-FIX3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("15-02-FIX2"),
        "{}",
        common::stderr(&o)
    );
}

#[test]
fn unreadable_tasks_are_said_not_dropped() {
    let t = tree();
    // A stray fence swallows the first task's </task>: only one of two
    // tasks can be read.
    write(
        t.path(),
        ".planning/phases/15-x/15-03-PLAN.md",
        &PLAN.replace("plan: 02", "plan: 03").replace(
            "<action>a</action>\n</task>\n",
            "<action>a\n```bash\nrun\n</action>\n</task>\n<task type=\"auto\">\n<name>U</name>\n<action>b</action>\n</task>\n```\n",
        ),
    );
    let o = common::gsd(t.path(), &["plan", "show", "15-03", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["complete"], false);
    let err = common::stderr(&o);
    assert!(
        err.contains("inside a code fence") && err.contains("may be incomplete"),
        "{err}"
    );
    // Lint names the fence as the cause, in words.
    let o = common::gsd(t.path(), &["lint", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "task-unbalanced-tag")
        .expect("the unclosed task is reported");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("inside a code fence"),
        "{d}"
    );
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .contains("code fence opened at line"),
        "{d}"
    );
    // A complete plan exits 0 with complete: true.
    let o = common::gsd(t.path(), &["plan", "show", "15-02", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["complete"], true);
}
