//! Task interchange: GSD ⇄ MSW round trips on the corpus (byte for byte)
//! and on arbitrary text (property tests).

use gsd::convert::{ConvTask, gsd_xml, msw};
use proptest::prelude::*;

fn plans(root: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(root) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            plans(&p, out);
        } else if p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.contains("PLAN") && n.ends_with(".md"))
        {
            out.push(p);
        }
    }
}

/// GSD → MSW JSON → GSD gives back the tasks block byte for byte.
#[test]
fn corpus_gsd_msw_gsd_is_byte_identical() {
    let mut roots = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
    if let Some(c) = std::env::var_os("GSD_CORPUS") {
        roots.push(c.into());
    }
    let (mut files, mut tasks, mut skipped) = (0, 0, 0);
    for root in roots {
        let mut all = Vec::new();
        plans(&root, &mut all);
        for p in all {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let block = match gsd_xml::read(&text) {
                Ok(b) => b,
                Err(_) => {
                    skipped += 1; // a plan without <task> elements
                    continue;
                }
            };
            let json = msw::write(&block.tasks);
            let back = msw::read(&json).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let xml = gsd_xml::write(&back, false);
            assert!(
                xml == block.span.slice(&text),
                "{}: tasks block differs after GSD → MSW → GSD",
                p.display()
            );
            files += 1;
            tasks += block.tasks.len();
        }
    }
    println!(
        "convert round trip: {files} plans, {tasks} tasks byte-identical ({skipped} plans without tasks skipped)"
    );
    assert!(files > 5);
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[ -~]{0,30}",
        "[a-zé中<>&\"' /\\]\\[;!-]{0,20}",
        prop::sample::select(vec![
            "</task>",
            "</action>",
            "]]>",
            "a < b && c > d",
            "&lt;/x&amp;",
            "line\r\nbreak",
            " padded ",
            "<task type=\"x\">",
            "Vec<String>",
            "&quot;&gt;"
        ])
        .prop_map(str::to_owned),
    ]
}

fn task() -> impl Strategy<Value = ConvTask> {
    (
        (
            "[0-9]{1,3}",
            "[A-Za-z][ -~]{0,20}",
            prop::collection::vec(text(), 0..4),
        ),
        (text(), text(), text()),
        (
            prop::sample::select(vec!["", "auto", "checkpoint:human-verify", "tdd"]),
            prop::collection::vec(("[a-z][a-z_]{0,6}", text()), 0..2),
        ),
        prop::collection::vec(
            (
                prop::sample::select(vec![
                    "behavior",
                    "read_first",
                    "what-built",
                    "resume-signal",
                ]),
                text(),
            ),
            0..2,
        ),
    )
        .prop_map(
            |((id, name, files), (action, verify, done), (kind, attrs), extra)| {
                let mut attributes: Vec<(String, String)> = Vec::new();
                for (k, v) in attrs {
                    if !["type", "id", "gsd-escaped"].contains(&k.as_str())
                        && !attributes.iter().any(|(a, _)| *a == k)
                    {
                        attributes.push((k, v));
                    }
                }
                let extra = extra.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                ConvTask {
                    id,
                    name,
                    files,
                    action,
                    verify,
                    done,
                    kind: kind.to_owned(),
                    attributes,
                    extra,
                    gsd: None,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// MSW → GSD → MSW is the identity, for arbitrary text in every field.
    #[test]
    fn msw_gsd_msw_is_identity(tasks in prop::collection::vec(task(), 1..4), strict in any::<bool>()) {
        let xml = gsd_xml::write(&tasks, strict);
        let block = gsd_xml::read(&xml).map_err(|e| TestCaseError::fail(format!("{e}\n{xml}")))?;
        let back: Vec<ConvTask> = block.tasks.into_iter().map(|mut t| { t.gsd = None; t }).collect();
        prop_assert_eq!(&back, &tasks, "{}", xml);
        // And through JSON too.
        let again = msw::read(&msw::write(&back)).unwrap();
        prop_assert_eq!(again, tasks);
    }
}

// ---------- other formats: identity over the fields each can hold ----------

use gsd::convert::Format;

fn line() -> impl Strategy<Value = String> {
    // One line, no surrounding blanks, no backticks (tasks.md wraps commands in them).
    "[A-Za-z0-9é中<>&\"' /._:;()!?=+-]{0,24}".prop_map(|s| s.trim().to_owned())
}

fn nonempty() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z0-9é中<>&\"' /._:;()!?=+-]{0,20}".prop_map(|s| s.trim().to_owned())
}

fn attrs(pairs: &[(&str, String)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]
    #[test]
    fn feature_list_identity(items in prop::collection::vec((nonempty(), prop::sample::select(vec!["", "setup", "ui"]), prop::sample::select(vec!["", "high", "low"]), prop::sample::select(vec!["", "opus", "sonnet"]), any::<bool>(), prop::option::of(1u32..50), prop::collection::vec(line(), 0..3), line()), 1..4)) {
        let tasks: Vec<ConvTask> = items.into_iter().enumerate().map(|(i, (name, cat, pri, model, passes, ci, steps, notes))| {
            let mut t = ConvTask { id: (i + 1).to_string(), name, ..Default::default() };
            t.attributes = attrs(&[("category", cat.into()), ("priority", pri.into()), ("model", model.into()), ("completed_iteration", ci.map(|c| c.to_string()).unwrap_or_default())]);
            t.attributes.push(("passes".into(), passes.to_string()));
            t.extra = steps.into_iter().map(|s| ("step".to_owned(), s)).collect();
            if !notes.is_empty() { t.extra.push(("notes".into(), notes)); }
            t
        }).collect();
        let back = Format::FeatureList.read(&Format::FeatureList.write(&tasks, false)).unwrap();
        prop_assert_eq!(back, tasks);
    }

    #[test]
    fn prd_json_identity(items in prop::collection::vec((nonempty(), line(), prop::option::of(1u32..9), any::<bool>(), prop::collection::vec(line(), 0..3), line()), 1..4)) {
        let tasks: Vec<ConvTask> = items.into_iter().enumerate().map(|(i, (title, desc, pri, passes, crit, notes))| {
            let mut t = ConvTask { id: format!("US-{:03}", i + 1), name: title, action: desc, ..Default::default() };
            if let Some(p) = pri { t.attributes.push(("priority".into(), p.to_string())); }
            t.attributes.push(("passes".into(), passes.to_string()));
            t.extra = crit.into_iter().map(|c| ("criterion".to_owned(), c)).collect();
            if !notes.is_empty() { t.extra.push(("notes".into(), notes)); }
            t
        }).collect();
        let back = Format::PrdJson.read(&Format::PrdJson.write(&tasks, false)).unwrap();
        prop_assert_eq!(back, tasks);
    }

    #[test]
    fn tasks_md_identity(items in prop::collection::vec((nonempty(), prop::collection::vec(nonempty(), 0..3), prop::collection::vec("[a-z./_-]{1,10}", 0..3), line(), line(), line(), any::<bool>(), any::<bool>(), any::<bool>()), 1..4)) {
        let tasks: Vec<ConvTask> = items.into_iter().enumerate().map(|(i, (name, steps, files, done, verify, commit, checked, par, ver))| {
            let mut t = ConvTask { id: format!("1.{}", i + 1), name, action: steps.join("\n"), files, done, verify, ..Default::default() };
            for (k, on) in [("checked", checked), ("parallel", par), ("verify_task", ver)] {
                if on { t.attributes.push((k.into(), "true".into())); }
            }
            if !commit.is_empty() { t.extra.push(("commit".into(), commit)); }
            t
        }).collect();
        let back = Format::TasksMd.read(&Format::TasksMd.write(&tasks, false)).unwrap();
        prop_assert_eq!(back, tasks);
    }

    #[test]
    fn spec_md_identity(items in prop::collection::vec((nonempty(), any::<bool>()), 1..6)) {
        let tasks: Vec<ConvTask> = items.into_iter().enumerate().map(|(i, (name, checked))| {
            let mut t = ConvTask { id: (i + 1).to_string(), name, ..Default::default() };
            if checked { t.attributes.push(("checked".into(), "true".into())); }
            t
        }).collect();
        let back = Format::SpecMd.read(&Format::SpecMd.write(&tasks, false)).unwrap();
        prop_assert_eq!(back, tasks);
    }
}

// ---------- the CLI ----------

#[path = "common/mod.rs"]
mod common;

fn fixture_file(name: &str) -> String {
    common::fixture("convert").join(name).display().to_string()
}

/// Every pair of formats on the seed-shaped fixtures: the tasks arrive, in
/// order, with their names (the field every format holds).
#[test]
fn every_pair_of_formats() {
    let dir = common::fixture("convert");
    let inputs = [
        "seed-plan-tasks.xml",
        "msw.json",
        "feature_list.json",
        "tasks.md",
        "prd.json",
        "SPEC.md",
    ];
    for input in inputs {
        let src = common::json(&common::gsd(
            &dir,
            &["convert", &fixture_file(input), "--to", "msw-json"],
        ));
        let names: Vec<&str> = src
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert!(!names.is_empty(), "{input}");
        for (to, _) in Format::ALL {
            let o = common::gsd(&dir, &["convert", &fixture_file(input), "--to", to]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{input} → {to}: {}",
                common::stderr(&o)
            );
            let out = tempfile::NamedTempFile::new().unwrap();
            std::fs::write(out.path(), &o.stdout).unwrap();
            let back = common::json(&common::gsd(
                &dir,
                &[
                    "convert",
                    out.path().to_str().unwrap(),
                    "--from",
                    to,
                    "--to",
                    "msw-json",
                ],
            ));
            let got: Vec<&str> = back
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].as_str().unwrap())
                .collect();
            assert_eq!(got, names, "{input} → {to}");
        }
    }
    // Specific fields survive where both formats hold them.
    let v = common::json(&common::gsd(
        &dir,
        &["convert", &fixture_file("tasks.md"), "--to", "msw-json"],
    ));
    assert_eq!(v[0]["id"], "1.1");
    assert_eq!(
        v[0]["files"],
        serde_json::json!(["hooks/stop-hook.sh", "hooks/hooks.json"])
    );
    assert_eq!(v[0]["verify"], "bash -n hooks/stop-hook.sh");
    assert_eq!(
        v[0]["action"],
        "Create hooks/stop-hook.sh\n1. Read the state file\n2. Exit 2 while tasks remain"
    );
    assert_eq!(
        v[1]["attributes"],
        serde_json::json!([["verify_task", "true"]])
    );
    let md = common::stdout(&common::gsd(
        &dir,
        &[
            "convert",
            &fixture_file("feature_list.json"),
            "--to",
            "tasks-md",
        ],
    ));
    assert!(
        md.starts_with("- [ ] 1 Cart persists across reloads\n"),
        "{md}"
    );
    let o = common::gsd(
        &dir,
        &[
            "convert",
            &fixture_file("feature_list.json"),
            "--to",
            "tasks-md",
        ],
    );
    assert!(
        common::stderr(&o).contains("tasks-md cannot carry: task 1: attribute category"),
        "{}",
        common::stderr(&o)
    );
    let xml = common::stdout(&common::gsd(
        &dir,
        &["convert", &fixture_file("msw.json"), "--to", "gsd-xml"],
    ));
    assert!(xml.contains("<action>Create class BehavioralVerifier that runs commands with a timeout. Reject &#96;a < b&#96; &lt;/task> tricks.</action>"), "{xml}");
    let strict = common::stdout(&common::gsd(
        &dir,
        &[
            "convert",
            &fixture_file("msw.json"),
            "--to",
            "gsd-xml",
            "--xml-strict",
        ],
    ));
    assert!(strict.contains("a &lt; b"), "{strict}");
}

#[test]
fn into_replaces_only_the_tasks_block() {
    let t = common::repo_of("clean");
    let plan = t
        .path()
        .join(".planning/phases/01-foundation/01-02-PLAN.md");
    let before = std::fs::read_to_string(&plan).unwrap();
    let o = common::gsd(
        t.path(),
        &[
            "convert",
            &fixture_file("msw.json"),
            "--to",
            "gsd-xml",
            "--into",
            "01-02",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let after = std::fs::read_to_string(&plan).unwrap();
    let start = before.find("<task ").unwrap();
    let end = before.rfind("</task>").unwrap() + "</task>".len();
    assert!(
        after.starts_with(&before[..start]),
        "frontmatter and everything before the tasks kept"
    );
    assert!(
        after.ends_with(&before[end..]),
        "everything after the tasks kept"
    );
    assert!(after.contains("<name>Ralph runner orchestrator</name>"));
    assert_eq!(
        common::git(t.path(), &["show", "--name-only", "--format=%s", "HEAD"]).trim(),
        "docs(01-02): tasks from msw-json\n\n.planning/phases/01-foundation/01-02-PLAN.md"
    );
    // The plan still parses and its tasks read back as the JSON's.
    let v = common::json(&common::gsd(t.path(), &["plan", "show", "01-02", "--json"]));
    assert_eq!(v["tasks"][0]["action"], "Create class BehavioralVerifier that runs commands with a timeout. Reject `a < b` </task> tricks.".replace("</task>", "&lt;/task>").replace('`', "&#96;"));
    let back = common::json(&common::gsd(
        t.path(),
        &["convert", "01-02", "--to", "msw-json"],
    ));
    assert_eq!(
        back[0]["action"],
        "Create class BehavioralVerifier that runs commands with a timeout. Reject `a < b` </task> tricks."
    );
}

#[test]
fn convert_bad_input_exits_2_and_writes_nothing() {
    let t = common::repo_of("clean");
    let plan = t
        .path()
        .join(".planning/phases/01-foundation/01-02-PLAN.md");
    let before = std::fs::read_to_string(&plan).unwrap();
    let bad_json = t.path().join("bad.json");
    std::fs::write(&bad_json, "[\n  {\"name\": \"a\",\n   \"files\": [}\n]").unwrap();
    let no_name = t.path().join("noname.json");
    std::fs::write(&no_name, "[{\"name\": \"a\"}, {\"action\": \"x\"}]").unwrap();
    let empty = t.path().join("empty.json");
    std::fs::write(&empty, "  \n").unwrap();
    let msw_file = fixture_file("msw.json");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "convert",
                bad_json.to_str().unwrap(),
                "--to",
                "gsd-xml",
                "--into",
                "01-02",
            ],
            "line 3 column",
        ),
        (
            vec![
                "convert",
                no_name.to_str().unwrap(),
                "--to",
                "gsd-xml",
                "--into",
                "01-02",
            ],
            "task 2 has no name",
        ),
        (
            vec!["convert", no_name.to_str().unwrap(), "--to", "yaml"],
            "unknown format `yaml`",
        ),
        (
            vec!["convert", empty.to_str().unwrap(), "--to", "gsd-xml"],
            "the input is empty",
        ),
        (
            vec!["convert", "09-09", "--to", "msw-json"],
            "no plan matches `09-09`",
        ),
        (
            vec!["convert", &msw_file, "--to", "gsd-xml", "--into", "09-09"],
            "no plan matches `09-09`",
        ),
        (
            vec!["convert", &msw_file, "--to", "spec-md", "--strict"],
            "spec-md cannot carry",
        ),
    ];
    for (args, needle) in cases {
        let o = common::gsd(t.path(), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            common::stderr(&o).contains(needle),
            "{args:?}: {}",
            common::stderr(&o)
        );
    }
    assert_eq!(std::fs::read_to_string(&plan).unwrap(), before);
    assert_eq!(
        common::git(t.path(), &["rev-list", "--count", "HEAD"]).trim(),
        "1"
    );
}

/// Found by the proptest in CI: text that opens a tag with a quoted
/// attribute (`<a '`) and closes it in a later field (`'>`) must not let
/// the scanner read one tag across the writer's closing and opening tags.
#[test]
fn a_quote_in_a_tag_like_text_does_not_swallow_the_next_field() {
    let tasks = vec![ConvTask {
        id: "0".into(),
        name: "a".into(),
        files: vec![],
        action: String::new(),
        verify: String::new(),
        done: "<a '".into(),
        kind: String::new(),
        attributes: vec![],
        extra: vec![("behavior".into(), "'>".into())],
        gsd: None,
    }];
    for strict in [false, true] {
        let xml = gsd_xml::write(&tasks, strict);
        let back: Vec<ConvTask> = gsd_xml::read(&xml)
            .unwrap()
            .tasks
            .into_iter()
            .map(|mut t| {
                t.gsd = None;
                t
            })
            .collect();
        assert_eq!(back, tasks, "{xml}");
    }
    // Ordinary generics stay readable.
    let (text, changed) = gsd::convert::escape::encode("Vec<String> and <b>bold</b>");
    assert!(!changed || !text.contains("&lt;String"), "{text}");
}

/// A GSD task's files, action, checks and done reach a feature list as
/// steps (no more `"steps": []`) and come back into their fields; tasks.md
/// shows checks as the commands they run, never `<automated>` markup.
#[test]
fn feature_list_and_tasks_md_carry_what_they_can_hold() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("tasks.xml");
    std::fs::write(
        &xml,
        "<task type=\"auto\">\n  <name>Add login</name>\n  <files>src/a.rs, src/b.rs</files>\n  <action>\n  1. Write the form\n  2. Wire the handler\n  </action>\n  <verify><automated>cargo test login</automated><automated expect=\"ok\">./check.sh</automated></verify>\n  <done>Users can log in</done>\n</task>\n",
    )
    .unwrap();
    let x = xml.to_str().unwrap();
    let fl = common::gsd(dir.path(), &["convert", x, "--to", "feature-list"]);
    assert_eq!(fl.status.code(), Some(0), "{}", common::stderr(&fl));
    let v: serde_json::Value = serde_json::from_slice(&fl.stdout).unwrap();
    let steps: Vec<&str> = v["features"][0]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(
        steps,
        [
            "Files: src/a.rs, src/b.rs",
            "Write the form",
            "Wire the handler",
            "Verify: `cargo test login`",
            "Verify: `./check.sh`",
            "Done when: Users can log in",
        ]
    );
    // Nothing but the check's `expect` attribute is reported as dropped.
    let err = common::stderr(&fl);
    assert!(
        !err.contains("task 1: files") && !err.contains("task 1: action"),
        "{err}"
    );
    // Back to MSW JSON: the fields are fields again.
    let out = dir.path().join("fl.json");
    std::fs::write(&out, &fl.stdout).unwrap();
    let back = common::json(&common::gsd(
        dir.path(),
        &[
            "convert",
            out.to_str().unwrap(),
            "--from",
            "feature-list",
            "--to",
            "msw-json",
        ],
    ));
    assert_eq!(
        back[0]["files"],
        serde_json::json!(["src/a.rs", "src/b.rs"])
    );
    assert_eq!(back[0]["action"], "- Write the form\n- Wire the handler");
    assert_eq!(back[0]["done"], "Users can log in");
    assert_eq!(back[0]["verify"], "`cargo test login`\n`./check.sh`");
    // tasks.md: plain commands.
    let md = common::gsd(dir.path(), &["convert", x, "--to", "tasks-md"]);
    let text = common::stdout(&md);
    assert!(
        text.contains("**Verify**: `cargo test login` and `./check.sh`"),
        "{text}"
    );
    assert!(!text.contains("<automated"), "{text}");
}

/// A prose action stays one step; a feature list of plain steps keeps them.
#[test]
fn prose_actions_and_own_steps() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("t.xml");
    std::fs::write(
        &xml,
        "<task type=\"auto\"><name>N</name><action>Refactor the parser so that\n- lists work\nand prose too.</action></task>\n",
    )
    .unwrap();
    let v = common::json(&common::gsd(
        dir.path(),
        &["convert", xml.to_str().unwrap(), "--to", "feature-list"],
    ));
    assert_eq!(
        v["features"][0]["steps"],
        serde_json::json!(["Refactor the parser so that\n- lists work\nand prose too."])
    );
    let fl = dir.path().join("own.json");
    std::fs::write(
        &fl,
        r#"{"features":[{"id":1,"description":"D","steps":["open the app","click"],"passes":false}]}"#,
    )
    .unwrap();
    let v = common::json(&common::gsd(
        dir.path(),
        &["convert", fl.to_str().unwrap(), "--to", "feature-list"],
    ));
    assert_eq!(
        v["features"][0]["steps"],
        serde_json::json!(["open the app", "click"])
    );
}
