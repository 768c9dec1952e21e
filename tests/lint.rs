//! `gsd lint` from the CLI: every rule fires on the rule fixtures and stays
//! quiet on the clean tree; formats, exit codes, suppression, config.

mod common;

use std::collections::BTreeSet;

use common::*;

fn all_rule_codes() -> BTreeSet<String> {
    let o = gsd(&fixture("clean"), &["lint", "--list-rules"]);
    stdout(&o)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

#[test]
fn clean_tree_is_clean() {
    let (code, diags) = lint(&fixture("clean"));
    assert_eq!(diags, Vec::<serde_json::Value>::new());
    assert_eq!(code, 0);
}

#[test]
fn every_rule_fires_on_the_rule_fixtures() {
    let mut fired = BTreeSet::new();
    for t in ["all-rules", "missing-core", "bad-config"] {
        let (code, diags) = lint(&fixture(t));
        assert_eq!(code, 1, "{t} has errors");
        fired.extend(codes(&diags));
    }
    // The size limit needs a file over 8 MB: made here, not committed.
    let big = tree("clean");
    std::fs::write(
        big.path().join(".planning/huge.md"),
        "x".repeat(9 * 1024 * 1024),
    )
    .unwrap();
    let (_, diags) = lint(big.path());
    assert_eq!(codes(&diags), ["file-too-large"]);
    fired.extend(codes(&diags));
    // Links are not committed either: one to nothing.
    let linked = tree("clean");
    std::os::unix::fs::symlink("/nonexistent/gsd", linked.path().join(".planning/gone.md"))
        .unwrap();
    let (_, diags) = lint(linked.path());
    assert_eq!(codes(&diags), ["file-unreadable"]);
    fired.extend(codes(&diags));
    // A second folder numbered as phase 2, beside the roadmap's `02-api`:
    // a leftover of an earlier plan, its plan not run.
    let leftover = tree("clean");
    let api = leftover.path().join(".planning/phases/02-api");
    let old = leftover.path().join(".planning/phases/02-endpoints");
    std::fs::create_dir(&old).unwrap();
    for f in std::fs::read_dir(&api).unwrap().flatten() {
        let name = f.file_name().to_string_lossy().into_owned();
        if name.ends_with("-PLAN.md") {
            std::fs::copy(f.path(), old.join(&name)).unwrap();
        }
    }
    let (_, diags) = lint(leftover.path());
    assert_eq!(codes(&diags), ["phase-dir-shares-number"]);
    fired.extend(codes(&diags));
    let missing: Vec<_> = all_rule_codes().difference(&fired).cloned().collect();
    assert!(missing.is_empty(), "rules that never fired: {missing:?}");
}

/// Each rule fires where it should: (code, file suffix, line).
#[test]
fn rules_point_at_the_right_place() {
    let (_, diags) = lint(&fixture("all-rules"));
    let has = |code: &str, file: &str, line: u64| {
        diags.iter().any(|d| {
            d["code"] == code && d["file"].as_str().unwrap().ends_with(file) && d["line"] == line
        })
    };
    let expect = [
        ("merge-conflict-markers", "conflict.md", 3),
        ("frontmatter-invalid-yaml", "01-08-PLAN.md", 5),
        ("task-unbalanced-tag", "01-08-PLAN.md", 7),
        ("task-unbalanced-tag", "01-07-PLAN.md", 22),
        ("task-nested", "01-07-PLAN.md", 18),
        ("task-missing-required", "01-01-PLAN.md", 16),
        ("task-unknown-type", "01-01-PLAN.md", 22),
        ("task-missing-recommended", "01-01-PLAN.md", 22),
        ("checkpoint-not-autonomous", "01-01-PLAN.md", 28),
        ("unclosed-code-fence", "01-01-PLAN.md", 35),
        ("must-haves-not-checkable", "01-01-PLAN.md", 11),
        ("requirement-unknown", "01-01-PLAN.md", 9),
        ("plan-field-type", "01-02-PLAN.md", 5),
        ("depends-on-unknown-plan", "01-02-PLAN.md", 6),
        ("wave-without-dependencies", "01-03-PLAN.md", 5),
        ("dependency-cycle", "01-05-PLAN.md", 6),
        ("wave-order", "01-04-PLAN.md", 5),
        ("files-modified-overlap", "01-05-PLAN.md", 7),
        ("requirement-not-covered", "REQUIREMENTS.md", 6),
        ("requirement-untraced", "REQUIREMENTS.md", 7),
        ("roadmap-phase-no-dir", "ROADMAP.md", 21),
        ("roadmap-complete-but-unfinished", "ROADMAP.md", 6),
        ("roadmap-checklist-without-details", "ROADMAP.md", 8),
        ("roadmap-plan-count-mismatch", "ROADMAP.md", 12),
        ("roadmap-progress-mismatch", "ROADMAP.md", 29),
        ("state-phase-complete-status", "STATE.md", 14),
        ("state-plan-count-mismatch", "STATE.md", 13),
        ("state-progress-invalid", "STATE.md", 3),
        ("frontmatter-unterminated", "01-CONTEXT.md", 1),
        ("frontmatter-not-mapping", "01-UAT.md", 2),
        ("file-not-utf8", "latin1.md", 3),
        ("duplicate-plan-number", "01-07-extra-PLAN.md", 1),
        ("orphan-summary", "01-09-SUMMARY.md", 1),
        ("plan-numbering-gap", "01-07-PLAN.md", 1),
        ("plan-no-frontmatter", "notes-PLAN.md", 1),
        ("plan-noncanonical-name", "notes-PLAN.md", 1),
        ("workstream-pointer-dangling", "active-workstream", 1),
        ("validation-missing", "01-RESEARCH.md", 1),
        ("milestone-not-in-milestones-md", "v0.5-ROADMAP.md", 1),
        ("config-invalid-model-profile", "config.json", 2),
        ("phase-numbering-gap", "07-orphan", 1),
        ("phase-dir-bad-name", "misc-notes", 1),
    ];
    for (code, file, line) in expect {
        assert!(
            has(code, file, line),
            "{code} at {file}:{line} not found in\n{:#?}",
            diags
                .iter()
                .filter(|d| d["code"] == code)
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn output_formats() {
    let dir = fixture("all-rules");
    let (_, diags) = lint(&dir);
    let gh = gsd(&dir, &["lint", "--format", "github"]);
    assert_eq!(gh.status.code(), Some(1));
    let lines: Vec<String> = stdout(&gh).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), diags.len());
    assert!(
        lines
            .iter()
            .any(|l| l
                .starts_with("::error file=.planning/phases/01-alpha/01-08-PLAN.md,line=5,col=")),
        "{lines:#?}"
    );
    assert!(lines.iter().all(|l| l.starts_with("::error ")
        || l.starts_with("::warning ")
        || l.starts_with("::notice ")));

    let sarif = gsd(&dir, &["lint", "--format", "sarif"]);
    let v = json(&sarif);
    assert_eq!(v["version"], "2.1.0");
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), diags.len());
    let rules = v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    for r in results {
        let idx = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[idx]["id"], r["ruleId"]);
        assert!(
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap()
                >= 1
        );
    }

    let human = gsd(&dir, &["lint"]);
    let text = stdout(&human);
    assert!(text.contains("01-08-PLAN.md:5:"), "{text}");
    assert!(text.contains("help:"));
    assert!(text.trim_end().ends_with("info"), "{text}");
}

#[test]
fn exit_codes_and_deny_warnings() {
    let t = tree("clean");
    // A note at the root is info: it never fails a run, even denied.
    std::fs::write(t.path().join(".planning/NOTES.md"), "notes\n").unwrap();
    let (code, diags) = lint(t.path());
    assert_eq!(
        (code, codes(&diags)),
        (0, vec!["unknown-root-file".to_owned()])
    );
    let o = gsd(t.path(), &["lint", "--deny", "warnings"]);
    assert_eq!(o.status.code(), Some(0));
    // A summary with no plan is a warning: exit 0, and 1 when denied.
    std::fs::write(
        t.path().join(".planning/phases/02-api/02-07-SUMMARY.md"),
        "# Summary\n",
    )
    .unwrap();
    let (code, diags) = lint(t.path());
    assert_eq!(code, 0);
    assert!(
        codes(&diags).contains(&"orphan-summary".to_owned()),
        "{diags:?}"
    );
    let o = gsd(t.path(), &["lint", "--deny", "warnings"]);
    assert_eq!(o.status.code(), Some(1));
    let o = gsd(t.path(), &["lint", "--format", "yaml"]);
    assert_eq!(o.status.code(), Some(2));
    let o = gsd(t.path(), &["lint", "--disable", "unknown-root-fil"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean `unknown-root-file`"),
        "{}",
        stderr(&o)
    );
    let o = gsd(
        t.path(),
        &["lint", "--deny", "warnings", "--disable", "orphan-summary"],
    );
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn suppression_by_comment_and_config() {
    let t = tree("clean");
    let plan = t.path().join(".planning/phases/02-api/02-01-PLAN.md");
    // Break the plan: wave 3 without dependencies.
    let text = std::fs::read_to_string(&plan)
        .unwrap()
        .replace("wave: 1", "wave: 3");
    std::fs::write(&plan, &text).unwrap();
    assert_eq!(codes(&lint(t.path()).1), ["wave-without-dependencies"]);
    std::fs::write(
        &plan,
        text.replace("wave: 3", "wave: 3  # gsd-ignore wave-without-dependencies"),
    )
    .unwrap();
    assert_eq!(codes(&lint(t.path()).1), Vec::<String>::new());
    // File-level HTML comment.
    std::fs::write(
        t.path().join(".planning/NOTES.md"),
        "<!-- gsd-ignore-file unknown-root-file -->\n",
    )
    .unwrap();
    assert_eq!(codes(&lint(t.path()).1), Vec::<String>::new());
    // config.json lint.disable.
    std::fs::write(t.path().join(".planning/NOTES.md"), "notes\n").unwrap();
    let cfg = t.path().join(".planning/config.json");
    let c = std::fs::read_to_string(&cfg).unwrap().replacen(
        '{',
        "{ \"lint\": { \"disable\": [\"unknown-root-file\"] },",
        1,
    );
    std::fs::write(&cfg, c).unwrap();
    assert_eq!(codes(&lint(t.path()).1), Vec::<String>::new());
}

#[test]
fn lint_path_argument_and_missing_planning() {
    let (code, _) = lint(&fixture("clean").join(".planning/phases"));
    assert_eq!(code, 0);
    let empty = tempfile::tempdir().unwrap();
    let o = gsd(empty.path(), &["lint"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("gsd init"), "{}", stderr(&o));
}

/// `--min-severity warning` drops info findings from what is shown,
/// `error` drops warnings too; the exit code still counts every finding.
#[test]
fn min_severity_shows_only_what_matters_and_keeps_the_exit_code() {
    let t = tree("all-rules");
    let shown = |level: &str| {
        let o = gsd(
            t.path(),
            &["lint", "--format", "json", "--min-severity", level],
        );
        let v = json(&o);
        let sev: Vec<String> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["severity"].as_str().unwrap().to_owned())
            .collect();
        (o.status.code(), sev)
    };
    let (all_code, all) = shown("info");
    let (warn_code, warn) = shown("warning");
    let (err_code, err) = shown("error");
    assert!(
        all.iter().any(|s| s == "info"),
        "the fixture has info findings"
    );
    assert!(all.iter().any(|s| s == "warning"));
    assert!(!warn.iter().any(|s| s == "info"));
    assert_eq!(
        warn.len(),
        all.iter().filter(|s| *s != "info").count(),
        "every warning and error is still shown"
    );
    assert!(err.iter().all(|s| s == "error") && !err.is_empty());
    assert_eq!((all_code, warn_code, err_code), (Some(1), Some(1), Some(1)));
    // The human summary still counts what it hides, and says so.
    let summary = |args: &[&str]| {
        let o = gsd(t.path(), args);
        stdout(&o).lines().last().unwrap_or_default().to_owned()
    };
    let full = summary(&["lint"]);
    let quiet = summary(&["lint", "--min-severity", "warning"]);
    let infos = all.iter().filter(|s| *s == "info").count();
    assert!(full.ends_with(&format!("{infos} info")), "{full}");
    assert_eq!(
        quiet,
        format!("{full} ({infos} below --min-severity not shown)"),
        "{quiet}"
    );
    let o = gsd(t.path(), &["lint", "--min-severity", "loud"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an unknown level is a usage error"
    );
}
