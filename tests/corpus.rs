//! Corpus test: runs when GSD_CORPUS names a folder of real `.planning/`
//! trees (`.ci/run` sets it to ../shared/corpus). Every tree loads and lints
//! without a panic, every text file reassembles byte for byte from its
//! parsed parts, and the binary exits 0 or 1 on each. Prints totals.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use gsd::lint;
use gsd::model::Workspace;

/// The corpus trees; every test here is ignored without GSD_CORPUS.
fn trees() -> Vec<PathBuf> {
    common::corpus_trees().expect("GSD_CORPUS is set (this test is ignored without it)")
}

#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn corpus_loads_lints_and_round_trips() {
    let trees = trees();
    assert!(!trees.is_empty(), "GSD_CORPUS holds no trees");
    let (mut files, mut plans, mut tasks, mut skipped) = (0, 0, 0, 0);
    let mut by_code: BTreeMap<&'static str, usize> = BTreeMap::new();
    for tree in &trees {
        let ws = Workspace::load(tree).unwrap_or_else(|e| panic!("{}: {e}", tree.display()));
        for doc in ws.documents() {
            let disk = std::fs::read(doc.path()).unwrap();
            assert_eq!(
                doc.source.bytes(),
                disk.as_slice(),
                "{}",
                doc.path().display()
            );
            assert!(
                doc.reassemble() == disk,
                "reassembly differs: {}",
                doc.path().display()
            );
            files += 1;
        }
        skipped += ws.skipped.len();
        common::assert_index_agrees(&ws);
        // The index scope (read commands) sees the same phases and counts.
        let index = Workspace::load_with(tree, gsd::model::workspace::Scope::Index).unwrap();
        let counts = |w: &Workspace| -> Vec<(String, usize, usize, &'static str)> {
            w.phases
                .iter()
                .map(|p| {
                    (
                        p.dir_name.clone(),
                        p.plan_count(),
                        p.completed_plans(),
                        p.disk_status(),
                    )
                })
                .collect()
        };
        assert_eq!(counts(&index), counts(&ws), "{}", tree.display());
        for ph in &ws.phases {
            assert_eq!(
                ph.plans.len(),
                ph.plan_count(),
                "{}: every listed plan is parsed",
                ph.dir.display()
            );
        }
        for p in ws.all_plans() {
            plans += 1;
            tasks += p.tasks.len();
            // Every task's spans lie inside the file and nest properly.
            for t in &p.tasks {
                assert!(t.span.covers(t.content_span));
                for c in &t.children {
                    assert!(t.content_span.covers(c.span), "{}", p.doc.path().display());
                    assert_eq!(c.content_span.slice(p.doc.text()), c.content);
                }
            }
        }
        let whole = lint::run(&ws, &lint::Options::default());
        // Lint as the command runs it (a skeleton, its phase folders read a
        // batch at a time and dropped) finds exactly what a run over the
        // tree read whole finds, and the skeleton reads the same phases.
        let skeleton = Workspace::load_with(tree, gsd::model::workspace::Scope::Skeleton).unwrap();
        assert_eq!(counts(&skeleton), counts(&ws), "{}", tree.display());
        let verified = |w: &Workspace| w.phases.iter().map(|p| p.verified()).collect::<Vec<_>>();
        assert_eq!(verified(&skeleton), verified(&ws), "{}", tree.display());
        let streamed = lint::run_streaming(&skeleton, &lint::Options::default());
        assert_eq!(
            serde_json::to_string_pretty(&streamed.diagnostics).unwrap(),
            serde_json::to_string_pretty(&whole).unwrap(),
            "{}: streamed lint differs from the whole-tree lint",
            tree.display()
        );
        assert_eq!(
            streamed.outside.len() + streamed.phase_documents,
            ws.documents().len(),
            "{}",
            tree.display()
        );
        assert_eq!(streamed.skipped, ws.skipped.len(), "{}", tree.display());
        for d in whole {
            *by_code.entry(d.code).or_default() += 1;
        }
        let o = common::gsd(tree, &["lint", "--format", "json"]);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{}: {}",
            tree.display(),
            common::stderr(&o)
        );
    }
    let total: usize = by_code.values().sum();
    println!(
        "corpus: {} trees, {files} text files (+{skipped} skipped), {plans} plans, {tasks} tasks, {total} diagnostics",
        trees.len()
    );
    for (code, n) in &by_code {
        println!("  {code:<36} {n}");
    }
}

/// `gsd state set` on a copy of every corpus tree changes exactly the lines
/// that show the field, in LF and in CRLF copies alike.
#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn corpus_state_set_changes_only_the_field_lines() {
    let trees = trees();
    let mut edited = 0;
    for tree in &trees {
        for (pre, rel) in common::state_files(tree) {
            let state_path = tree.join(&rel);
            let Ok(original) = std::fs::read_to_string(&state_path) else {
                continue;
            };
            for crlf in [false, true] {
                let t = tempfile::tempdir().unwrap();
                common::copy_dir(&tree.join(".planning"), &t.path().join(".planning"));
                let text = if crlf {
                    original.replace("\r\n", "\n").replace('\n', "\r\n")
                } else {
                    original.clone()
                };
                let p = t.path().join(&rel);
                // The corpus is read-only; the copy must not be.
                std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o644))
                    .unwrap();
                std::fs::write(&p, &text).unwrap();
                let doc = gsd::model::Document::parse(
                    gsd::doc::Source::from_text(&p, text.clone()),
                    rel.clone(),
                );
                let st = gsd::model::state::State::parse(doc);
                // The field to set: Status when shown, else the first body field.
                let Some(field) = st
                    .body_field("status")
                    .or_else(|| st.fields.first())
                    .map(|f| f.label.clone())
                else {
                    continue;
                };
                let mut expected: Vec<usize> = st.body_fields(&field).map(|f| f.line).collect();
                if let Some((_, node)) = st.fm_field(&field) {
                    expected.push(st.doc.line_of(node.span.start));
                }
                expected.sort();
                let o = common::gsd_in(
                    t.path(),
                    &pre,
                    &["state", "set", &field, "Corpus check value", "--no-commit"],
                );
                let after = std::fs::read_to_string(&p).unwrap();
                // A label on several body lines is not one field: refused, and
                // the file is untouched.
                if o.status.code() == Some(2) && common::stderr(&o).contains("not one field") {
                    assert_eq!(after, text, "{}", tree.display());
                    continue;
                }
                if text.contains("\n<<<<<<< ") || text.starts_with("<<<<<<< ") {
                    assert_eq!(
                        o.status.code(),
                        Some(2),
                        "{}: conflict markers must refuse",
                        tree.display()
                    );
                    assert_eq!(after, text);
                    continue;
                }
                assert_eq!(
                    o.status.code(),
                    Some(0),
                    "{}: {}",
                    tree.display(),
                    common::stderr(&o)
                );
                let changed: Vec<usize> = text
                    .split('\n')
                    .zip(after.split('\n'))
                    .enumerate()
                    .filter(|(_, (a, b))| a != b)
                    .map(|(i, _)| i + 1)
                    .collect();
                assert_eq!(
                    changed,
                    expected,
                    "{} ({}): changed lines",
                    tree.display(),
                    if crlf { "CRLF" } else { "LF" }
                );
                assert_eq!(text.split('\n').count(), after.split('\n').count());
                if crlf {
                    assert_eq!(
                        after.matches("\r\n").count(),
                        after.matches('\n').count(),
                        "{} stays CRLF",
                        tree.display()
                    );
                }
                edited += 1;
            }
        }
    }
    println!("state set checked on {edited} STATE.md copies");
    assert!(edited > 0);
}

/// Every plan `gsd plan list --json` shows is found again by the ID it
/// shows: through the library for every plan of every tree, and through
/// the binary for every ID that is not a plain `NN-MM` (fix plans, stems,
/// milestone-qualified IDs) plus the first and last plan of each tree.
#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn corpus_every_listed_plan_id_finds_that_plan() {
    let trees = trees();
    let (mut checked, mut via_cli) = (0, 0);
    for tree in &trees {
        let listed = common::plan_list(tree);
        // The workstream the binary reads, as it resolves it.
        let ws = Workspace::load_chosen(tree, gsd::model::workspace::Scope::Full).unwrap();
        let mut ids = std::collections::HashSet::new();
        for (id, path) in &listed {
            assert!(ids.insert(id), "{}: `{id}` listed twice", tree.display());
            let found = gsd::model::plan_ref::find_plan(&ws, tree, id)
                .unwrap_or_else(|e| panic!("{}: `{id}`: {e:?}", tree.display()));
            assert_eq!(
                ws.rel(found.at.plan.doc.path()).display().to_string(),
                *path,
                "{}: `{id}`",
                tree.display()
            );
            checked += 1;
        }
        let plain = |id: &str| gsd::model::PlanId::parse(id).is_some_and(|p| p.canonical() == id);
        let mut sample: Vec<&(String, String)> = listed
            .iter()
            .filter(|(id, _)| !plain(id))
            .take(20)
            .collect();
        sample.extend(listed.first());
        sample.extend(listed.last());
        for (id, path) in sample {
            let o = common::gsd(tree, &["plan", "show", id, "--json"]);
            assert!(
                matches!(o.status.code(), Some(0 | 1)),
                "{}: plan show {id}: {}",
                tree.display(),
                common::stderr(&o)
            );
            let shown: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(shown["path"], path.as_str(), "{}: {id}", tree.display());
            assert_eq!(shown["id"], id.as_str(), "{}: {id}", tree.display());
            // Exit 1 exactly when some task could not be read.
            assert_eq!(
                o.status.code() == Some(1),
                shown["complete"] == false,
                "{}: {id}",
                tree.display()
            );
            via_cli += 1;
        }
    }
    println!("plan IDs: {checked} found by the library, {via_cli} through `gsd plan show`");
    assert!(checked > 1000, "the corpus holds more plans than {checked}");
}

/// For every STATE.md of the corpus and every field `gsd state --json`
/// lists: `gsd state set F "$(gsd state get F)"` changes no byte, or is
/// refused (exit 2, file untouched) because the label names several lines,
/// with those lines listed, or because the file holds merge-conflict markers.
#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn corpus_state_set_of_the_shown_value_changes_no_byte() {
    let trees = trees();
    let with_state: Vec<(&PathBuf, Vec<String>, PathBuf)> = trees
        .iter()
        .flat_map(|t| {
            common::state_files(t)
                .into_iter()
                .map(move |(pre, rel)| (t, pre, rel))
        })
        .collect();
    let results: Vec<(usize, usize)> = std::thread::scope(|s| {
        with_state
            .chunks(with_state.len().div_ceil(2).max(1))
            .map(|chunk| {
                s.spawn(move || {
                    let (mut same, mut refused) = (0, 0);
                    for (tree, pre, rel) in chunk {
                        let t = tempfile::tempdir().unwrap();
                        common::copy_dir(&tree.join(".planning"), &t.path().join(".planning"));
                        let p = t.path().join(rel);
                        std::fs::set_permissions(
                            &p,
                            std::os::unix::fs::PermissionsExt::from_mode(0o644),
                        )
                        .unwrap();
                        let before = std::fs::read(&p).unwrap();
                        let v: serde_json::Value = serde_json::from_slice(
                            &common::gsd_in(t.path(), pre, &["state", "--json"]).stdout,
                        )
                        .unwrap();
                        let mut labels: Vec<String> = v["fields"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|f| f["label"].as_str().unwrap().to_owned())
                            .collect();
                        labels.dedup();
                        for label in labels {
                            let got = common::gsd_in(t.path(), pre, &["state", "get", &label]);
                            if got.status.code() == Some(2) {
                                // A label on several lines (entries of a list
                                // such as `- **[Pivot M07]**: …`) has no one
                                // value to show: `get` says so, with the lines.
                                let err = flat(&common::stderr(&got));
                                assert!(
                                    err.contains("not one field") && err.contains("line "),
                                    "{}: get {label}: {err}",
                                    tree.display()
                                );
                                let o = common::gsd_in(
                                    t.path(),
                                    pre,
                                    &["state", "set", "--no-commit", "--", &label, "x"],
                                );
                                assert_eq!(o.status.code(), Some(2), "{}: {label}", tree.display());
                                assert!(std::fs::read(&p).unwrap() == before, "{}", tree.display());
                                refused += 1;
                                continue;
                            }
                            assert_eq!(
                                got.status.code(),
                                Some(0),
                                "{}: get {label}: {}",
                                tree.display(),
                                common::stderr(&got)
                            );
                            let shown = common::stdout(&got);
                            let shown = shown.strip_suffix('\n').unwrap_or(&shown);
                            // `--`: values such as `- ` are not flags.
                            let o = common::gsd_in(
                                t.path(),
                                pre,
                                &["state", "set", "--no-commit", "--", &label, shown],
                            );
                            let after = std::fs::read(&p).unwrap();
                            assert!(
                                after == before,
                                "{}: state set {label} to its own value changed STATE.md",
                                tree.display()
                            );
                            match o.status.code() {
                                Some(0) => same += 1,
                                Some(2) => {
                                    // miette wraps long messages: read them as one line.
                                    let err = flat(&common::stderr(&o));
                                    assert!(
                                        (err.contains("not one field") && err.contains("line "))
                                            || err.contains("merge-conflict markers"),
                                        "{}: {label}: {err}",
                                        tree.display()
                                    );
                                    refused += 1;
                                }
                                other => panic!("{}: {label}: exit {other:?}", tree.display()),
                            }
                        }
                    }
                    (same, refused)
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect()
    });
    let (same, refused) = results.iter().fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
    println!(
        "state set of the shown value: {same} unchanged, {refused} refused (a label on several lines, or conflict markers)"
    );
    assert!(same > 500, "only {same} fields checked");
}

/// A diagnostic as one line: miette's wrapping (`│` gutters, line breaks) undone.
fn flat(err: &str) -> String {
    err.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `gsd phase add`, then `gsd phase insert` after the first live phase, on
/// every corpus tree (and each workstream): the roadmap
/// keeps every line it had, in order; the new details heading stands after
/// a blank line; the new progress row sits inside its table with as many
/// cells as the table's header. (Before: on 30 of 83 trees the details were
/// glued to the line before, and where the progress table ended the file the
/// row landed after the details, outside the table.) A tree gsd cannot add
/// to (no roadmap, custom phase naming) is refused with exit 2 and changes
/// nothing.
#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn corpus_phase_add_keeps_the_roadmaps_shape() {
    let trees = trees();
    let jobs: Vec<(&PathBuf, Vec<String>, PathBuf)> = trees
        .iter()
        .flat_map(|t| {
            common::state_files(t)
                .into_iter()
                .map(move |(pre, state)| (t, pre, state.with_file_name("ROADMAP.md")))
        })
        .collect();
    let results: Vec<(usize, usize, Vec<String>)> = std::thread::scope(|s| {
        jobs.chunks(jobs.len().div_ceil(2).max(1))
            .map(|chunk| {
                s.spawn(move || {
                    let (mut added, mut refused, mut bad) = (0, 0, Vec::new());
                    for (tree, pre, rel) in chunk {
                        let t = tempfile::tempdir().unwrap();
                        common::copy_dir(&tree.join(".planning"), &t.path().join(".planning"));
                        // A user's own files are writable (the corpus is not).
                        writable(&t.path().join(".planning"));
                        let p = t.path().join(rel);
                        let before = std::fs::read_to_string(&p).unwrap_or_default();
                        let o = common::gsd_in(
                            t.path(),
                            pre,
                            &["phase", "add", "Corpus probe", "--no-commit"],
                        );
                        let after = std::fs::read_to_string(&p).unwrap_or_default();
                        let name = tree.file_name().unwrap().to_string_lossy();
                        match o.status.code() {
                            Some(2) => {
                                assert_eq!(after, before, "{name}: a refusal changed the roadmap");
                                refused += 1;
                                continue;
                            }
                            Some(0) => added += 1,
                            other => panic!("{name}: exit {other:?}: {}", common::stderr(&o)),
                        }
                        // Then a decimal phase after the roadmap's first live one.
                        let v: serde_json::Value = serde_json::from_slice(
                            &common::gsd_in(t.path(), pre, &["roadmap", "--json"]).stdout,
                        )
                        .unwrap_or_default();
                        let first = v["phases"].as_array().and_then(|ps| {
                            ps.iter()
                                .find(|p| p["archived"] != true && p["backlog"] != true)
                                .and_then(|p| p["number"].as_str().map(str::to_owned))
                        });
                        let mut last = after.clone();
                        if let Some(n) = first {
                            let o = common::gsd_in(
                                t.path(),
                                pre,
                                &["phase", "insert", &n, "Corpus insert", "--no-commit"],
                            );
                            assert!(
                                matches!(o.status.code(), Some(0 | 2)),
                                "{name}: insert {n}: exit {:?}: {}",
                                o.status.code(),
                                common::stderr(&o)
                            );
                            last = std::fs::read_to_string(&p).unwrap_or_default();
                        }
                        bad.extend(
                            shape_problems(&before, &last)
                                .into_iter()
                                .map(|why| format!("{name} {}: {why}", rel.display())),
                        );
                    }
                    (added, refused, bad)
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect()
    });
    let added: usize = results.iter().map(|r| r.0).sum();
    let refused: usize = results.iter().map(|r| r.1).sum();
    let bad: Vec<String> = results.into_iter().flat_map(|r| r.2).collect();
    println!("phase add: {added} roadmaps added to, {refused} refused");
    assert!(added > 100, "only {added} roadmaps added to");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn writable(dir: &std::path::Path) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.file_type().unwrap().is_dir() {
            writable(&e.path());
        } else {
            std::fs::set_permissions(
                e.path(),
                std::os::unix::fs::PermissionsExt::from_mode(0o644),
            )
            .unwrap();
        }
    }
}

/// What is wrong with a roadmap after `phase add "Corpus probe"` (and
/// `phase insert … "Corpus insert"`).
fn shape_problems(before: &str, after: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = after.lines().collect();
    // Every old line, in order.
    let mut rest = lines.iter();
    for old in before.lines() {
        if !rest.any(|l| *l == old) {
            out.push(format!("lost or moved the line `{old}`"));
            break;
        }
    }
    let cells = |l: &str| l.trim().trim_matches('|').split('|').count();
    for (i, l) in lines.iter().enumerate() {
        if !l.contains("Corpus probe") && !l.contains("Corpus insert") {
            continue;
        }
        if l.starts_with('#') && i > 0 && !lines[i - 1].trim().is_empty() {
            out.push(format!(
                "line {}: heading glued to `{}`",
                i + 1,
                lines[i - 1]
            ));
        }
        if l.trim_start().starts_with('|') {
            let header = lines[..i]
                .iter()
                .rev()
                .take_while(|p| p.trim_start().starts_with('|'))
                .last();
            match header {
                None => out.push(format!("line {}: row outside a table", i + 1)),
                Some(h) if cells(h) != cells(l) => out.push(format!(
                    "line {}: row of {} cells in a table of {}",
                    i + 1,
                    cells(l),
                    cells(h)
                )),
                _ => {}
            }
        }
    }
    out
}
