//! `gsd fm set|merge|validate` from the CLI.

mod common;

use common::*;

const PLAN: &str = ".planning/phases/01-foundation/01-01-PLAN.md";

fn read(t: &tempfile::TempDir, rel: &str) -> String {
    std::fs::read_to_string(t.path().join(rel)).unwrap()
}

#[test]
fn set_changes_one_value_and_keeps_must_haves() {
    let t = repo_of("clean");
    let before = read(&t, PLAN);
    let o = gsd(t.path(), &["fm", "set", PLAN, "wave", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = read(&t, PLAN);
    // gsd-tools' `frontmatter set` rewrote must_haves into broken strings; here one line changes.
    assert_eq!(after, before.replace("\nwave: 1\n", "\nwave: 2\n"));
    assert_eq!(
        git(t.path(), &["show", "--name-only", "--format=%s", "HEAD"]).trim(),
        format!("docs(fm): {PLAN} wave = 2\n\n{PLAN}")
    );
    let v = json(&gsd(t.path(), &["fm", "get", PLAN, "--json"]));
    assert_eq!(v["wave"], 2);
    assert_eq!(
        v["must_haves"]["artifacts"][0]["exports"],
        serde_json::json!(["User", "Session"])
    );
}

#[test]
fn dotted_keys_types_and_new_keys() {
    let t = repo_of("clean");
    let run = |args: &[&str]| {
        let o = gsd(t.path(), args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    };
    run(&["fm", "set", PLAN, "must_haves.artifacts.0.min_lines", "20"]);
    run(&["fm", "set", PLAN, "must_haves.truths.1", "User can log out"]);
    run(&["fm", "set", PLAN, "autonomous", "false"]);
    run(&["fm", "set", PLAN, "depends_on", "[\"01-00\"]"]);
    run(&["fm", "set", PLAN, "user_setup.0", "stripe"]);
    run(&["fm", "set", PLAN, "gap_closure", "true"]);
    run(&["fm", "set", PLAN, "note", "a: b # not a comment"]);
    let v = json(&gsd(t.path(), &["fm", "get", PLAN, "--json"]));
    assert_eq!(v["must_haves"]["artifacts"][0]["min_lines"], 20);
    assert_eq!(
        v["must_haves"]["truths"],
        serde_json::json!(["User can sign up", "User can log out"])
    );
    assert_eq!(v["autonomous"], false);
    assert_eq!(v["depends_on"], serde_json::json!(["01-00"]));
    assert_eq!(v["user_setup"], serde_json::json!(["stripe"]));
    assert_eq!(v["gap_closure"], true);
    assert_eq!(v["note"], "a: b # not a comment");
    assert_eq!(v["plan"], "01", "untouched leading zero");
    assert!(
        read(&t, PLAN).contains("      provides: \"User model\"\n"),
        "quoting of other values kept"
    );
}

#[test]
fn merge_and_crlf() {
    let t = repo_of("clean");
    let plan2 = ".planning/phases/01-foundation/01-02-PLAN.md"; // CRLF
    let o = gsd(
        t.path(),
        &[
            "fm",
            "merge",
            plan2,
            r#"{"wave": 3, "requirements": ["AUTH-02"], "title": "Sessions: login"}"#,
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = read(&t, plan2);
    assert!(
        s.contains("wave: 3\r\n")
            && s.contains("requirements: [\"AUTH-02\"]\r\n")
            && s.contains("title: \"Sessions: login\"\r\n"),
        "{s}"
    );
    assert_eq!(s.matches("\r\n").count(), s.matches('\n').count());
    assert_eq!(
        git(t.path(), &["rev-list", "--count", "HEAD"]).trim(),
        "2",
        "one commit"
    );
}

#[test]
fn validate_by_schema() {
    let dir = fixture("clean");
    let o = gsd(
        &dir,
        &["fm", "validate", PLAN, "--schema", "plan", "--json"],
    );
    assert_eq!(
        (o.status.code(), json(&o)["valid"].clone()),
        (Some(0), serde_json::json!(true))
    );
    let o = gsd(
        &dir,
        &["fm", "validate", PLAN, "--schema", "summary", "--json"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        json(&o)["missing"],
        serde_json::json!(["subsystem", "tags", "duration", "completed"])
    );
    let bad = fixture("all-rules");
    let o = gsd(
        &bad,
        &[
            "fm",
            "validate",
            ".planning/phases/01-alpha/01-02-PLAN.md",
            "--schema",
            "plan",
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["missing"], serde_json::json!(["must_haves"]));
    assert!(
        v["type_errors"][0]
            .as_str()
            .unwrap()
            .starts_with("wave should be an integer")
    );
    let o = gsd(
        &bad,
        &[
            "fm",
            "validate",
            ".planning/phases/01-alpha/01-08-PLAN.md",
            "--schema",
            "plan",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("not valid YAML"));
}

#[test]
fn bad_input_changes_nothing() {
    let t = repo_of("clean");
    let before = read(&t, PLAN);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["fm", "merge", PLAN, "{\"a\": 1,\n \"b\" 2}"],
            "line 2, column",
        ),
        (vec!["fm", "merge", PLAN, "[1, 2]"], "takes a JSON object"),
        (
            vec!["fm", "set", PLAN, "must_haves.truths.5", "x"],
            "out of range",
        ),
        (vec!["fm", "set", PLAN, "wave.x", "1"], "single value"),
        (vec!["fm", "set", PLAN, "a..b", "1"], "not a key path"),
        (vec!["fm", "set", "nope.md", "a", "1"], "does not exist"),
    ];
    for (args, needle) in cases {
        let o = gsd(t.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(read(&t, PLAN), before);
    let broken = tree("all-rules");
    let p = ".planning/phases/01-alpha/01-08-PLAN.md";
    let b = read(&broken, p);
    let o = gsd(broken.path(), &["fm", "set", p, "wave", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not valid YAML"));
    assert_eq!(read(&broken, p), b);
}

/// A file outside the repository (absolute, or reached with `../`) may be
/// edited, like any editor would, but is never committed: HEAD, the index
/// and `git status` stay as they were, the output says so, and nothing
/// panics (git2 refuses `..` paths; that once exited 101).
#[test]
fn files_outside_the_repository_are_edited_never_committed() {
    let t = repo_of("clean");
    let outside = tempfile::tempdir().unwrap();
    let abs = outside.path().join("x.md");
    std::fs::write(&abs, "---\nk: 0\n---\nbody\n").unwrap();
    let head = git(t.path(), &["rev-parse", "HEAD"]);
    let o = gsd(t.path(), &["fm", "set", abs.to_str().unwrap(), "k", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("not committed: outside the repository"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&abs).unwrap(),
        "---\nk: 1\n---\nbody\n"
    );
    // The same file through `../`, from a folder inside the repository.
    let sub = t.path().join(".planning/phases");
    let rel = pathdiff(&abs, &sub);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gsd"))
        .current_dir(&sub)
        .args(["fm", "set", rel.to_str().unwrap(), "k", "2"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("outside the repository"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&abs).unwrap(),
        "---\nk: 2\n---\nbody\n"
    );
    assert_eq!(git(t.path(), &["rev-parse", "HEAD"]), head);
    assert_eq!(git(t.path(), &["status", "--porcelain"]).trim(), "");
}

/// `../..` steps from `from` up to the root, then down to `to`.
fn pathdiff(to: &std::path::Path, from: &std::path::Path) -> std::path::PathBuf {
    let mut p = std::path::PathBuf::new();
    for _ in from.components().skip(1) {
        p.push("..");
    }
    p.join(to.strip_prefix("/").unwrap())
}
