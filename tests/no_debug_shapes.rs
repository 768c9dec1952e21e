//! No output of gsd shows a Rust type: every read command and every lint
//! format, over the fixtures, hostile trees made here, and every corpus tree
//! (when GSD_CORPUS is set), is searched for the shapes `{:?}` prints
//! (`Span {`, `{ name:`, `StrayClose`, …). A user should read words.

mod common;

use std::path::{Path, PathBuf};

/// What `{:?}` of gsd's own types looks like (strings quoted, in JSON
/// escaped). User text can hold `{ name: string }` (TypeScript), so the
/// shapes are the ones only Rust's derive prints.
const DEBUG_SHAPES: &[&str] = &[
    "Span { start:",
    "{ name: \"",
    "StrayClose {",
    "Unclosed {",
    "Nested {",
    "Some(Span",
    "Numeric { prefix:",
    "Custom(\"",
    "MilestoneStatus::",
];

/// Every text file under the tree's `.planning/`, concatenated: output that
/// quotes the user's own text (a task's TypeScript `{ name: "x" }`) is not a
/// debug print.
fn user_text(tree: &Path) -> String {
    fn walk(dir: &Path, out: &mut String) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                walk(&p, out);
            } else if ft.is_file()
                && let Ok(t) = std::fs::read_to_string(&p)
            {
                out.push_str(&t.replace("\r\n", "\n"));
                out.push('\n');
            }
        }
    }
    let mut out = String::new();
    walk(&tree.join(".planning"), &mut out);
    out
}

/// Output as plain lines: JSON answers are flattened to their strings
/// (unescaped), so both kinds compare with the user's text alike.
fn plain(out: &str) -> String {
    fn strings(v: &serde_json::Value, acc: &mut String) {
        match v {
            serde_json::Value::String(s) => {
                acc.push_str(s);
                acc.push('\n');
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, acc)),
            serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, acc)),
            _ => {}
        }
    }
    match serde_json::from_str::<serde_json::Value>(out) {
        Ok(v) => {
            let mut acc = String::new();
            strings(&v, &mut acc);
            acc
        }
        Err(_) => out.to_owned(),
    }
}

/// The shapes in `out` that do not come verbatim from the user's files.
fn shapes_not_from_user(out: &str, user: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in out.lines() {
        for shape in DEBUG_SHAPES {
            let Some(at) = line.find(shape) else { continue };
            let from = line[..at]
                .char_indices()
                .rev()
                .nth(24)
                .map_or(0, |(i, _)| i);
            let end = at + shape.len();
            let to = line[end..]
                .char_indices()
                .nth(24)
                .map_or(line.len(), |(i, _)| end + i);
            let window = line[from..to].trim();
            if !user.contains(window) {
                found.push(format!("`{shape}` in …{window}…"));
            }
        }
    }
    found
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Trees with the markup that once printed debug structs: a stray fence
/// swallowing `</task>`, a stray `</task>`, nested tasks, broken YAML,
/// conflict markers, milestones in every status.
fn hostile() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    write(
        r,
        ".planning/ROADMAP.md",
        "# Roadmap\n\n## Milestones\n- ✅ **v1.0 A** - Phases 1-1 (shipped)\n- 🚧 **v1.1 B** - Phases 2-3 (in progress)\n\n\
         <details open>\n<summary>🚧 v1.1 B</summary>\n\n- [ ] **Phase 2: Two**\n- [ ] **Phase 3: Three**\n</details>\n\n\
         ### Phase 2: Two\n**Goal**: g\n\n### Phase 3: Three\n**Goal**: g\n",
    );
    write(
        r,
        ".planning/STATE.md",
        "---\nmilestone: v1.1\nstatus: executing\n---\n# State\n\nPhase: 2 of 3 (Two)\nStatus: Executing\n",
    );
    let fm = "---\nphase: 02-two\nplan: 0N\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: []\nautonomous: true\nmust_haves: {}\n---\n";
    write(
        r,
        ".planning/phases/02-two/02-01-PLAN.md",
        &(fm.replace("0N", "01")
            + "<tasks>\n<task type=\"auto\">\n<name>A</name>\n<action>x\n```\ncode\n</action>\n</task>\n<task type=\"auto\"><name>B</name><action>y</action></task>\n```\n</tasks>\n"),
    );
    write(
        r,
        ".planning/phases/02-two/02-02-PLAN.md",
        &(fm.replace("0N", "02")
            + "<task type=\"auto\"><name>A</name><action>a</action></task>\n</task>\n<task type=\"auto\"><name>B</name><task type=\"auto\"><name>C</name></task></task>\n"),
    );
    write(
        r,
        ".planning/phases/03-three/03-01-PLAN.md",
        "---\nphase: 03\nplan: \"01\nwave: [1\n---\n<task type=\"auto\"><name>A</name><action>a</action></task>\n",
    );
    write(
        r,
        ".planning/phases/03-three/03-02-PLAN.md",
        "<<<<<<< HEAD\n---\nphase: 03\n=======\n---\nphase: 3\n>>>>>>> b\n---\n<task>\n",
    );
    t
}

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut v: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(".planning").is_dir())
        .collect();
    v.sort();
    v
}

fn corpus() -> Vec<PathBuf> {
    common::corpus_trees().unwrap_or_default()
}

/// Run every read command on `tree`; return the (command, output) pairs
/// that show a debug shape.
fn debug_shapes_in(tree: &Path) -> Vec<String> {
    let user = user_text(tree);
    let mut runs: Vec<Vec<String>> = [
        "lint --format human",
        "lint --format json",
        "lint --format github",
        "lint --format sarif",
        "roadmap",
        "roadmap --json",
        "state",
        "state --json",
        "phase list",
        "phase list --json",
        "plan list",
        "plan list --json",
        "prd",
        "research refs --json",
    ]
    .iter()
    .map(|c| c.split(' ').map(str::to_owned).collect())
    .collect();
    // Every plan of a small tree, three of a large one, shown and converted.
    let o = common::gsd(tree, &["plan", "list", "--json"]);
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&o.stdout) {
        let ids: Vec<String> = v["plans"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["id"].as_str().map(str::to_owned))
            .collect();
        let take = if ids.len() <= 12 { ids.len() } else { 3 };
        for id in ids.into_iter().take(take) {
            runs.push(vec!["plan".into(), "show".into(), id.clone()]);
            runs.push(vec![
                "plan".into(),
                "show".into(),
                id.clone(),
                "--json".into(),
            ]);
            runs.push(vec!["convert".into(), id, "--to".into(), "tasks-md".into()]);
        }
    }
    let mut bad = Vec::new();
    for args in runs {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = common::gsd(tree, &a);
        assert!(
            o.status.code().is_some_and(|c| c != 101),
            "{}: gsd {} panicked: {}",
            tree.display(),
            args.join(" "),
            common::stderr(&o)
        );
        let all = format!("{}\n{}", plain(&common::stdout(&o)), common::stderr(&o));
        for f in shapes_not_from_user(&all, &user) {
            bad.push(format!("{}: gsd {}: {f}", tree.display(), args.join(" ")));
        }
    }
    bad
}

#[test]
fn no_output_shows_a_rust_type() {
    let h = hostile();
    let mut trees = vec![h.path().to_path_buf()];
    trees.extend(fixtures());
    trees.extend(corpus());
    let bad: Vec<String> = std::thread::scope(|s| {
        let chunks: Vec<&[PathBuf]> = trees.chunks(trees.len().div_ceil(2)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|c| {
                s.spawn(move || {
                    c.iter()
                        .flat_map(|t| debug_shapes_in(t))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(
        bad.is_empty(),
        "{} outputs show Rust types:\n{}",
        bad.len(),
        bad.join("\n")
    );
    println!("{} trees checked for debug shapes", trees.len());
}

/// The check itself can fail: a debug print of a task problem is caught.
#[test]
fn the_shapes_match_what_debug_prints() {
    let p = gsd::doc::elements::TagProblem::StrayClose {
        name: "task".into(),
        end_tag: gsd::doc::Span::new(1, 8),
        fence: None,
    };
    let debug = format!("{p:?}");
    assert!(!shapes_not_from_user(&debug, "").is_empty(), "{debug}");
    assert!(shapes_not_from_user(&p.to_string(), "").is_empty(), "{p}");
    // In JSON the same print is found after unescaping.
    let json = serde_json::json!({ "message": debug }).to_string();
    assert!(!shapes_not_from_user(&plain(&json), "").is_empty());
    // Quoted user text is not a finding.
    let user = "const m = { entry: { name: \"Goblin\" } };";
    assert!(shapes_not_from_user(user, user).is_empty());
}
