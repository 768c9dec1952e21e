//! `gsd verify ID`: the plan's own checks decide, with timeouts, patterns
//! and "not found" — a structured result, never a hang.

mod common;

use common::*;

fn plan_with(t: &tempfile::TempDir, body: &str) {
    let p = t.path().join(".planning/phases/02-api/02-01-PLAN.md");
    let text = std::fs::read_to_string(&p).unwrap();
    let head = &text[..text.find("<objective>").unwrap()];
    std::fs::write(&p, format!("{head}{body}")).unwrap();
}

#[test]
fn checks_from_verify_tags_and_verification() {
    let t = tree("clean");
    plan_with(
        &t,
        "<tasks>\n<task type=\"auto\"><name>A</name><action>a</action>\n<verify><automated>true</automated> and <automated expect=\"^ok \\d+\">echo ok 42</automated></verify>\n<done>d</done></task>\n<task type=\"auto\"><name>B</name><action>b</action><verify>run `test -f marker`</verify><done>d</done></task>\n</tasks>\n\n<verification>\n- [ ] `echo all-good`\n</verification>\n",
    );
    let o = gsd(t.path(), &["verify", "02-01", "--json"]);
    assert_eq!(o.status.code(), Some(1), "marker missing");
    let v = json(&o);
    let rows: Vec<(String, String, bool)> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["source"].as_str().unwrap().to_owned(),
                r["command"].as_str().unwrap().to_owned(),
                r["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("task 1".to_owned(), "true".to_owned(), true),
            ("task 1".to_owned(), "echo ok 42".to_owned(), true),
            ("task 2".to_owned(), "test -f marker".to_owned(), false),
            ("verification".to_owned(), "echo all-good".to_owned(), true),
        ]
    );
    assert_eq!(v["results"][2]["reason"], "exit 1");
    // The work gets done: now every check passes.
    std::fs::write(t.path().join("marker"), "").unwrap();
    let o = gsd(t.path(), &["verify", "2-1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("4 check(s), 0 failed"));
}

#[test]
fn timeouts_patterns_missing_commands() {
    let t = tree("clean");
    plan_with(
        &t,
        "<tasks>\n<task type=\"auto\"><name>A</name><action>a</action><verify><automated expect=\"^done$\">echo nope</automated></verify><done>d</done></task>\n</tasks>\n",
    );
    let started = std::time::Instant::now();
    let o = gsd(
        t.path(),
        &[
            "verify",
            "02-01",
            "--json",
            "--timeout",
            "1",
            "--check",
            "sleep 30 & sleep 30",
            "--check",
            "no-such-command-here",
        ],
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "the timed-out group was killed"
    );
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    let reasons: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reason"].as_str().unwrap())
        .collect();
    assert!(
        reasons[0].starts_with("output did not match"),
        "{reasons:?}"
    );
    assert!(reasons[1].starts_with("timeout"), "{reasons:?}");
    assert_eq!(reasons[2], "not found");
}

#[test]
fn no_checks_and_unknown_plans() {
    let t = tree("clean");
    plan_with(
        &t,
        "<tasks>\n<task type=\"auto\"><name>A</name><action>a</action><done>d</done></task>\n</tasks>\n",
    );
    let o = gsd(t.path(), &["verify", "02-01"]);
    assert_eq!(o.status.code(), Some(1), "nothing can prove it done");
    assert!(stdout(&o).contains("declares no checks"));
    let o = gsd(t.path(), &["verify", "07-01"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no plan matches `07-01`"));
}
