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

/// `s` as `$(…)` hands it on: line breaks at the end removed.
fn as_shell_passes(s: &str) -> &str {
    s.trim_end_matches('\n')
}

/// Every `.md` file under `dir`, sorted.
fn markdown_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The law of issue 28 on every top-level key of every frontmatter of the
/// corpus: `fm set F K "$(fm get F K)"` leaves the file byte for byte, by
/// the library code both commands run (`yaml_value::shown` is what
/// `fm get` prints; `edit::frontmatter::set` with `yaml_text` is `fm set`).
#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn corpus_get_then_set_changes_no_file() {
    use gsd::doc::Source;
    use gsd::model::Document;
    use std::collections::BTreeMap;
    let trees = corpus_trees().expect("GSD_CORPUS is set");
    assert!(!trees.is_empty(), "GSD_CORPUS holds no trees");
    let (mut files, mut tried) = (0usize, 0usize);
    let mut by_key: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_shape: BTreeMap<&str, usize> = BTreeMap::new();
    let mut changed = Vec::new();
    let (mut rewritten_same, mut restyled, mut other_meaning) =
        (0usize, BTreeMap::<&str, usize>::new(), Vec::new());
    for tree in &trees {
        for path in markdown_files(&tree.join(".planning")) {
            let bytes = std::fs::read(&path).unwrap();
            let doc = Document::parse(Source::from_bytes(&path, bytes.clone()), path.clone());
            let Some(map) = doc.fm().and_then(|m| m.as_map()) else {
                continue;
            };
            files += 1;
            let text = doc.text();
            for (k, node) in map {
                let Some(key) = k.as_str() else { continue };
                // `fm get` and `fm set` address keys by dotted path.
                if key.contains('.') || key.is_empty() || doc.fm().unwrap().get(key) != Some(node) {
                    continue;
                }
                tried += 1;
                *by_key.entry(key.to_owned()).or_default() += 1;
                *by_shape.entry(shape(text, node)).or_default() += 1;
                let shown = gsd::edit::yaml_value::shown(text, node);
                let value = as_shell_passes(&shown);
                let edits = gsd::edit::frontmatter::set(&doc, key, &|old| {
                    gsd::edit::frontmatter::yaml_text(&doc, value, old)
                });
                let after = edits.and_then(|e| gsd::edit::apply(text, &e));
                if after.as_deref() != Ok(text) {
                    changed.push(format!("{} {key}: {after:?}", path.display()));
                }
                // Without the no-op rule: the value read as YAML and written
                // in the old one's style means the same, mostly byte for byte.
                let edits = gsd::edit::frontmatter::set(&doc, key, &|old| {
                    gsd::edit::yaml_value::read(value, old, text)
                });
                match edits.and_then(|e| gsd::edit::apply(text, &e)) {
                    Ok(new) if new == text => rewritten_same += 1,
                    Ok(new) => {
                        let back =
                            Document::parse(Source::from_text(&path, new.clone()), path.clone());
                        let same = back.fm().map(|m| m.to_json()) == doc.fm().map(|m| m.to_json());
                        if same {
                            *restyled.entry(shape(text, node)).or_default() += 1;
                        } else {
                            other_meaning.push(format!("{} {key}:\n{new}", path.display()));
                        }
                    }
                    Err(e) => other_meaning.push(format!("{} {key}: {e}", path.display())),
                }
            }
        }
    }
    let mut common: Vec<_> = by_key.iter().collect();
    common.sort_by(|a, b| b.1.cmp(a.1));
    println!(
        "{tried} keys tried on {files} files of {} trees; shapes {by_shape:?}; most common: {:?}",
        trees.len(),
        &common[..common.len().min(15)]
    );
    println!(
        "read back without the no-op rule: {rewritten_same} byte for byte, restyled with the same meaning {restyled:?}"
    );
    assert!(tried > 10_000, "{tried} keys");
    assert!(
        changed.is_empty(),
        "{} changed:\n{}",
        changed.len(),
        changed[..changed.len().min(20)].join("\n")
    );
    assert!(
        other_meaning.is_empty(),
        "{} mean something else:\n{}",
        other_meaning.len(),
        other_meaning[..other_meaning.len().min(10)].join("\n")
    );
}

fn shape(text: &str, node: &gsd::doc::yaml::Node) -> &'static str {
    use gsd::doc::yaml::{Style, Value};
    let flow = gsd::edit::yaml_value::is_flow(text, node);
    match &node.value {
        Value::Seq(_) if flow => "flow list",
        Value::Map(_) if flow => "flow mapping",
        Value::Seq(_) => "block list",
        Value::Map(_) => "block mapping",
        Value::Scalar(s) => match s.style {
            Style::Literal | Style::Folded => "block scalar",
            Style::Plain if s.text.is_empty() => "empty",
            Style::Plain => "plain",
            _ => "quoted",
        },
    }
}

/// The same law through the real binary, on the collections of a sample
/// of corpus files in a git copy of their tree: no file changes, no commit.
#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn corpus_sample_through_the_binary() {
    use gsd::doc::Source;
    use gsd::model::Document;
    let trees = corpus_trees().expect("GSD_CORPUS is set");
    let mut tried = Vec::new();
    // Every 20th tree, its first three files with frontmatter.
    for tree in trees.iter().step_by(20) {
        let t = tempfile::tempdir().unwrap();
        copy_dir(&tree.join(".planning"), &t.path().join(".planning"));
        git(t.path(), &["init", "-q", "-b", "main"]);
        git(t.path(), &["config", "user.email", "test@example.com"]);
        git(t.path(), &["config", "user.name", "Test"]);
        git(t.path(), &["add", "-A"]);
        git(t.path(), &["commit", "-qm", "init"]);
        let head = git(t.path(), &["rev-parse", "HEAD"]);
        let mut n = 0;
        for path in markdown_files(&t.path().join(".planning")) {
            let doc = Document::parse(Source::read(&path).unwrap(), path.clone());
            let Some(map) = doc.fm().and_then(|m| m.as_map()) else {
                continue;
            };
            let rel = path
                .strip_prefix(t.path())
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned();
            let keys: Vec<String> = map
                .iter()
                .filter_map(|(k, _)| k.as_str().map(str::to_owned))
                .filter(|k| !k.contains('.') && !k.is_empty())
                .collect();
            for key in keys {
                let o = gsd(t.path(), &["fm", "get", &rel, &key]);
                assert_eq!(o.status.code(), Some(0), "{rel} {key}: {}", stderr(&o));
                let got = stdout(&o);
                let o = gsd(t.path(), &["fm", "set", &rel, &key, as_shell_passes(&got)]);
                assert_eq!(o.status.code(), Some(0), "{rel} {key}: {}", stderr(&o));
                tried.push(format!("{rel} {key}"));
            }
            n += 1;
            if n == 3 {
                break;
            }
        }
        assert_eq!(
            git(t.path(), &["status", "--porcelain"]).trim(),
            "",
            "{}",
            tree.display()
        );
        assert_eq!(
            git(t.path(), &["rev-parse", "HEAD"]),
            head,
            "{}",
            tree.display()
        );
    }
    println!(
        "{} keys through the binary: {}",
        tried.len(),
        tried.join(", ")
    );
    assert!(tried.len() > 30, "{}", tried.len());
}

/// A plan whose frontmatter has every shape: block and flow collections,
/// comments inside, a `|` block, quoted and empty values.
const SHAPES: &str = "---\nphase: 01-foundation\nplan: \"01\"\nwave: 1 # first\ndepends_on: []\nfiles_modified:\n  - src/a.rs # main\n  - \"src/b c.rs\"\nrequirements: [AUTH-01, AUTH-02]\nmust_haves:\n  truths:\n    - \"User can: sign up\"\n  # artifacts follow\n  artifacts:\n    - path: src/a.rs\n      provides: |\n        the model\n        and more\n  key_links: []\nnotes: >\n  folded\n  text\nempty:\n---\n\n<objective>x</objective>\n";

/// `fm get` prints each shape so that `fm set` of the output, as `$(…)`
/// passes it, writes nothing and commits nothing; a block collection is
/// printed as YAML that parses to the same value as `--json` shows.
#[test]
fn get_then_set_is_a_no_op_for_every_shape() {
    let t = repo_of("clean");
    std::fs::write(t.path().join(PLAN), SHAPES).unwrap();
    git(t.path(), &["commit", "-qam", "shapes"]);
    let head = git(t.path(), &["rev-parse", "HEAD"]);
    let keys = [
        "phase",
        "plan",
        "wave",
        "depends_on",
        "files_modified",
        "requirements",
        "must_haves",
        "must_haves.truths",
        "must_haves.artifacts",
        "must_haves.artifacts.0",
        "must_haves.artifacts.0.provides",
        "notes",
        "empty",
    ];
    for key in keys {
        let got = stdout(&gsd(t.path(), &["fm", "get", PLAN, key]));
        let o = gsd(t.path(), &["fm", "set", PLAN, key, as_shell_passes(&got)]);
        assert_eq!(o.status.code(), Some(0), "{key}: {}", stderr(&o));
        assert_eq!(read(&t, PLAN), SHAPES, "{key}: {got:?}");
    }
    assert_eq!(
        git(t.path(), &["rev-parse", "HEAD"]),
        head,
        "nothing committed"
    );
    let got = stdout(&gsd(t.path(), &["fm", "get", PLAN, "must_haves"]));
    assert_eq!(
        got,
        "truths:\n  - \"User can: sign up\"\n# artifacts follow\nartifacts:\n  - path: src/a.rs\n    provides: |\n      the model\n      and more\nkey_links: []\n"
    );
    assert_eq!(
        stdout(&gsd(t.path(), &["fm", "get", PLAN, "files_modified"])),
        "- src/a.rs # main\n- \"src/b c.rs\"\n"
    );
}

/// A genuine change given as block YAML keeps the block style and the
/// indentation of the list it replaces, and changes only that list's
/// lines; a value starting with `-` is a value, not an option.
#[test]
fn a_block_list_set_as_block_yaml_stays_a_block() {
    let t = repo_of("clean");
    std::fs::write(t.path().join(PLAN), SHAPES).unwrap();
    git(t.path(), &["commit", "-qam", "shapes"]);
    let o = gsd(
        t.path(),
        &[
            "fm",
            "set",
            PLAN,
            "files_modified",
            "- src/a.rs\n- src/c.rs\n- src/d.rs",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        read(&t, PLAN),
        SHAPES.replace(
            "  - src/a.rs # main\n  - \"src/b c.rs\"\n",
            "  - src/a.rs\n  - src/c.rs\n  - src/d.rs\n"
        )
    );
    assert_eq!(
        git(t.path(), &["log", "-1", "--format=%s"]).trim(),
        format!("docs(fm): {PLAN} files_modified = - src/a.rs…")
    );
    let v = json(&gsd(
        t.path(),
        &["fm", "get", PLAN, "files_modified", "--json"],
    ));
    assert_eq!(v, serde_json::json!(["src/a.rs", "src/c.rs", "src/d.rs"]));
    // A flow list replacing a block one is written as a block, too.
    let o = gsd(
        t.path(),
        &[
            "fm",
            "set",
            PLAN,
            "must_haves.truths",
            r#"["User can: sign up", "User can log in"]"#,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        read(&t, PLAN).contains(
            "  truths:\n    - \"User can: sign up\"\n    - User can log in\n  # artifacts"
        ),
        "{}",
        read(&t, PLAN)
    );
    // And a block list in place of a flow one goes below its key.
    let o = gsd(
        t.path(),
        &["fm", "set", PLAN, "requirements", "- AUTH-01\n- AUTH-03"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(read(&t, PLAN).contains("\nrequirements:\n  - AUTH-01\n  - AUTH-03\nmust_haves:\n"));
    // `-1` and `- x` are values.
    let o = gsd(t.path(), &["fm", "set", PLAN, "wave", "-1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(read(&t, PLAN).contains("\nwave: -1 # first\n"));
    let o = gsd(t.path(), &["fm", "set", PLAN, "depends_on", "- 01-00"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        read(&t, PLAN).contains("\ndepends_on:\n  - 01-00\n"),
        "{}",
        read(&t, PLAN)
    );
}
