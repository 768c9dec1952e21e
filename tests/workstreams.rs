//! Workstreams as GSD defines them, from a user's first steps: `git init`,
//! `gsd init`, `gsd init --ws NAME`, then every read, lint and write
//! command on the active workstream, on `--ws`, on GSD_WORKSTREAM; a
//! dangling pointer, a tree whose only work is one workstream, archived
//! workstreams; and every workstream tree of the corpus.

mod common;

use std::path::Path;

use common::*;

/// A fresh repository with a root plan and a workstream `api`.
fn project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    git(t.path(), &["init", "-q", "-b", "main"]);
    git(t.path(), &["config", "user.email", "t@example.com"]);
    git(t.path(), &["config", "user.name", "T"]);
    let o = gsd(
        t.path(),
        &["init", "-y", "--name", "Demo", "--phase", "Root work"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = gsd(
        t.path(),
        &["init", "-y", "--ws", "api", "--phase", "API base"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    t
}

/// A fresh repository whose only work is the workstream `only` (`gsd init
/// --ws only` with no root plan), nothing committed.
fn solo_workstream_tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    git(d, &["init", "-q", "-b", "main"]);
    let o = gsd(
        d,
        &[
            "init",
            "-y",
            "--name",
            "Solo",
            "--no-commit",
            "--ws",
            "only",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    t
}

fn phase_names(dir: &Path, pre: &[&str]) -> Vec<String> {
    let mut args = pre.to_vec();
    args.extend(["roadmap", "--json"]);
    let v = json(&gsd(dir, &args));
    v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn init_ws_starts_a_workstream_beside_the_root_in_one_commit() {
    let t = project();
    let ws = t.path().join(".planning/workstreams/api");
    for f in ["ROADMAP.md", "STATE.md", "REQUIREMENTS.md"] {
        assert!(ws.join(f).is_file(), "{f}");
    }
    // Shared files stay at the root, written once.
    assert!(!ws.join("PROJECT.md").exists() && !ws.join("config.json").exists());
    let log = git(t.path(), &["log", "--format=%s"]);
    assert!(log.starts_with("docs: start workstream api"), "{log}");
    assert_eq!(git(t.path(), &["status", "--porcelain"]), "");
    // Again: refused, nothing changed.
    let o = gsd(t.path(), &["init", "-y", "--ws", "api"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("already has its planning files"),
        "{}",
        stderr(&o)
    );
    // A bad name is refused with GSD's rule.
    let o = gsd(t.path(), &["init", "-y", "--ws", "../x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a valid workstream name"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_pointer_the_flag_and_the_variable_choose_the_workstream() {
    let t = project();
    let d = t.path();
    // No pointer and a root roadmap: the root.
    assert_eq!(phase_names(d, &[]), ["Root work"]);
    assert_eq!(phase_names(d, &["--ws", "api"]), ["API base"]);
    std::fs::write(d.join(".planning/active-workstream"), "api\n").unwrap();
    assert_eq!(phase_names(d, &[]), ["API base"]);
    // GSD_WORKSTREAM names another; --ws wins over both.
    let o = gsd_cmd(d, &["init", "-y", "--ws", "web", "--phase", "Web shell"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = gsd_cmd(d, &["roadmap", "--json"])
        .env("GSD_WORKSTREAM", "web")
        .output()
        .unwrap();
    assert_eq!(json(&o)["phases"][0]["name"], "Web shell");
    let o = gsd_cmd(d, &["--ws", "api", "roadmap", "--json"])
        .env("GSD_WORKSTREAM", "web")
        .output()
        .unwrap();
    assert_eq!(json(&o)["phases"][0]["name"], "API base");
    // A name that is not there is an error naming the ones that are.
    let o = gsd(d, &["--ws", "nope", "roadmap"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("no workstream `nope`") && err.contains("api, web"),
        "{err}"
    );
    // The list marks the active one.
    let v = json(&gsd(d, &["workstream", "list", "--json"]));
    assert_eq!(v["active"], "api");
    let names: Vec<&str> = v["workstreams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["api", "web"]);
    assert_eq!(v["workstreams"][0]["active"], true);
    assert!(stdout(&gsd(d, &["workstream", "list"])).contains("* api"));
}

#[test]
fn writes_go_to_the_chosen_workstream_and_commit_only_its_files() {
    let t = project();
    let d = t.path();
    std::fs::write(d.join(".planning/active-workstream"), "api\n").unwrap();
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "point at api"]);
    let root_state = std::fs::read(d.join(".planning/STATE.md")).unwrap();
    let o = gsd(d, &["state", "set", "Status", "Building the API"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ws_state = std::fs::read_to_string(d.join(".planning/workstreams/api/STATE.md")).unwrap();
    assert!(ws_state.contains("Building the API"));
    assert_eq!(
        std::fs::read(d.join(".planning/STATE.md")).unwrap(),
        root_state
    );
    let changed = git(d, &["show", "--name-only", "--format=", "HEAD"]);
    assert_eq!(changed.trim(), ".planning/workstreams/api/STATE.md");
    let o = gsd(d, &["state", "get", "Status"]);
    assert_eq!(stdout(&o).trim(), "Building the API");
    // --ws reaches another one without moving the pointer.
    let o = gsd(d, &["init", "-y", "--ws", "web"]);
    assert_eq!(o.status.code(), Some(0));
    let o = gsd(d, &["--ws", "web", "phase", "add", "Web shell"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let roadmap = std::fs::read_to_string(d.join(".planning/workstreams/web/ROADMAP.md")).unwrap();
    assert!(roadmap.contains("Web shell"), "{roadmap}");
    assert!(
        !std::fs::read_to_string(d.join(".planning/workstreams/api/ROADMAP.md"))
            .unwrap()
            .contains("Web shell")
    );
    // New folders and plans land in the workstream, never in the root's
    // phases/, and the plan names the workstream's files.
    assert!(
        d.join(".planning/workstreams/web/phases/02-web-shell")
            .is_dir()
    );
    let o = gsd(d, &["--ws", "web", "phase", "insert", "1", "Mid"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(d.join(".planning/workstreams/web/phases/01.1-mid").is_dir());
    let o = gsd(d, &["--ws", "web", "plan", "new", "1", "--name", "first"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let plan = d.join(".planning/workstreams/web/phases/01-foundation/01-01-PLAN.md");
    let text = std::fs::read_to_string(&plan).unwrap();
    assert!(
        text.contains("@.planning/workstreams/web/ROADMAP.md"),
        "{text}"
    );
    assert!(text.contains("@.planning/PROJECT.md"), "{text}");
    assert!(
        text.contains("`.planning/workstreams/web/phases/01-foundation/01-01-SUMMARY.md`"),
        "{text}"
    );
    let listed = json(&gsd(d, &["--ws", "web", "plan", "list", "--json"]));
    assert_eq!(listed["plans"][0]["id"], "01-01");
    let root_phases: Vec<String> = std::fs::read_dir(d.join(".planning/phases"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(root_phases, ["01-root-work"]);
    // The workstream carries the project's name.
    assert!(
        std::fs::read_to_string(d.join(".planning/workstreams/web/ROADMAP.md"))
            .unwrap()
            .starts_with("# Roadmap: Demo")
    );
}

#[test]
fn a_dangling_pointer_is_a_finding_and_the_root_is_read() {
    let t = project();
    let d = t.path();
    std::fs::write(d.join(".planning/active-workstream"), "gone\n").unwrap();
    assert_eq!(phase_names(d, &[]), ["Root work"]);
    let (_, diags) = lint(d);
    let hit = diags
        .iter()
        .find(|x| x["code"] == "workstream-pointer-dangling")
        .expect("a finding for the dangling pointer");
    assert_eq!(hit["severity"], "warning");
    assert_eq!(hit["file"], ".planning/active-workstream");
    assert!(hit["message"].as_str().unwrap().contains("`gone`"));
    let out = stdout(&gsd(d, &["workstream", "list"]));
    assert!(out.contains("names `gone`"), "{out}");
}

/// A pointer at a workstream folder that holds only phase folders (no
/// ROADMAP.md, no STATE.md) while the root has both: GSD's tools would find
/// nothing there, so the root is read and lint says why, as an error; with
/// `--ws` the user still gets that workstream, and once it has a STATE.md
/// the pointer chooses it again.
#[test]
fn a_pointer_at_a_hollow_workstream_reads_the_root_and_is_an_error() {
    let t = project();
    let d = t.path();
    std::fs::create_dir_all(d.join(".planning/workstreams/migration/phases/37-move")).unwrap();
    std::fs::write(d.join(".planning/active-workstream"), "migration\n").unwrap();
    assert_eq!(phase_names(d, &[]), ["Root work"]);
    let (_, diags) = lint(d);
    let hit = diags
        .iter()
        .find(|x| x["code"] == "workstream-pointer-dangling")
        .expect("a finding for the hollow workstream");
    assert_eq!(hit["severity"], "error");
    assert!(
        hit["message"].as_str().unwrap().contains("`migration`"),
        "{hit}"
    );
    assert!(
        !diags.iter().any(|x| x["code"] == "state-missing"),
        "{diags:?}"
    );
    let o = gsd(d, &["--ws", "migration", "roadmap", "--json"]);
    assert_ne!(o.status.code(), Some(0), "{}", stdout(&o));
    std::fs::write(
        d.join(".planning/workstreams/migration/STATE.md"),
        "# State\n\nPhase: 37\n",
    )
    .unwrap();
    let (_, diags) = lint(d);
    assert!(
        !diags
            .iter()
            .any(|x| x["code"] == "workstream-pointer-dangling"),
        "{diags:?}"
    );
}

#[test]
fn a_tree_whose_only_work_is_one_workstream_reads_it_and_lints_clean_of_root_files() {
    let t = solo_workstream_tree();
    let d = t.path();
    assert!(!d.join(".planning/ROADMAP.md").exists());
    assert!(d.join(".planning/PROJECT.md").is_file());
    assert_eq!(phase_names(d, &[]), ["Foundation"]);
    let (_, diags) = lint(d);
    for code in ["roadmap-missing", "state-missing", "project-missing"] {
        assert!(
            !codes(&diags).iter().any(|c| c == code),
            "{code}: {diags:#?}"
        );
    }
    // Plain `gsd init` says how this tree is organised.
    let o = gsd(d, &["init", "-y"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("keeps its work in workstreams (only)"),
        "{}",
        stderr(&o)
    );
    // A second workstream with its own files: both linted, neither is root.
    let o = gsd(d, &["init", "-y", "--no-commit", "--ws", "other"]);
    assert_eq!(o.status.code(), Some(0));
    // With two and no pointer, reads say where the work is.
    let o = gsd(d, &["roadmap"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("keeps its work in workstreams") && err.contains("--ws"),
        "{err}"
    );
    let (_, diags) = lint(d);
    assert!(
        !codes(&diags)
            .iter()
            .any(|c| c == "roadmap-missing" || c == "state-missing"),
        "{diags:#?}"
    );
}

#[test]
fn archived_workstreams_are_history() {
    let t = project();
    let d = t.path();
    // GSD archives a finished workstream under milestones/ws-NAME-…/.
    let arch = d.join(".planning/milestones/ws-old-2026-01-01/phases/01-x");
    std::fs::create_dir_all(&arch).unwrap();
    std::fs::write(arch.join("01-01-PLAN.md"), "no frontmatter, no tasks\n").unwrap();
    let v = json(&gsd(d, &["workstream", "list", "--json"]));
    let names: Vec<&str> = v["workstreams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["api"]);
    let (_, diags) = lint(d);
    assert!(
        !diags
            .iter()
            .any(|x| x["file"].as_str().unwrap().contains("ws-old") && x["severity"] != "info"),
        "{diags:#?}"
    );
}

/// Every workstream tree of the corpus: read, listed, linted and written
/// (on a copy) on the active workstream and on each one named with --ws.
#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn every_corpus_workstream_tree_works_on_each_workstream() {
    let trees: Vec<_> = corpus_trees()
        .unwrap()
        .into_iter()
        .filter(|t| t.join(".planning/workstreams").is_dir())
        .collect();
    assert!(trees.len() >= 5, "the corpus has workstream trees");
    let mut checked = 0;
    for tree in &trees {
        let o = gsd(tree, &["workstream", "list", "--json"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}: {}",
            tree.display(),
            stderr(&o)
        );
        let o = gsd(tree, &["lint", "--format", "json"]);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{}: {}",
            tree.display(),
            stderr(&o)
        );
        let diags = json(&o);
        for d in diags["diagnostics"].as_array().unwrap() {
            let f = d["file"].as_str().unwrap();
            assert!(
                !((f == ".planning/ROADMAP.md" && d["code"] == "roadmap-missing")
                    || (f == ".planning/STATE.md" && d["code"] == "state-missing"))
                    || gsd::model::workstream::names(tree).is_empty(),
                "{}: a workstream tree told its root file is missing: {d}",
                tree.display()
            );
        }
        for w in gsd::model::workstream::names(tree) {
            let pre = ["--ws", w.as_str()];
            let dir = tree.join(".planning/workstreams").join(&w);
            let has_roadmap = dir.join("ROADMAP.md").is_file();
            let o = gsd(tree, &[&pre[..], &["roadmap", "--json"]].concat());
            assert_eq!(
                o.status.code(),
                Some(if has_roadmap || dir.join("STATE.md").is_file() {
                    0
                } else {
                    2
                }),
                "{} --ws {w} roadmap: {}",
                tree.display(),
                stderr(&o)
            );
            let o = gsd(tree, &[&pre[..], &["plan", "list", "--json"]].concat());
            assert_eq!(
                o.status.code(),
                Some(0),
                "{} --ws {w} plan list: {}",
                tree.display(),
                stderr(&o)
            );
            for p in json(&o)["plans"].as_array().unwrap() {
                let path = p["path"].as_str().unwrap();
                assert!(
                    path.starts_with(&format!(".planning/workstreams/{w}/")),
                    "{}: --ws {w} listed {path}",
                    tree.display()
                );
            }
            if dir.join("STATE.md").is_file() {
                let o = gsd(tree, &[&pre[..], &["state", "--json"]].concat());
                assert_eq!(
                    o.status.code(),
                    Some(0),
                    "{} --ws {w} state: {}",
                    tree.display(),
                    stderr(&o)
                );
                assert_eq!(
                    json(&o)["path"],
                    format!(".planning/workstreams/{w}/STATE.md"),
                    "{}",
                    tree.display()
                );
                // A write on a copy changes that workstream's STATE.md only.
                let c = tempfile::tempdir().unwrap();
                copy_dir(&tree.join(".planning"), &c.path().join(".planning"));
                make_writable(c.path());
                let before_root = std::fs::read(c.path().join(".planning/STATE.md")).ok();
                let o = gsd(
                    c.path(),
                    &[
                        &pre[..],
                        &["state", "set", "--no-commit", "Status", "Checked by gsd"],
                    ]
                    .concat(),
                );
                if o.status.code() == Some(0) {
                    let after = std::fs::read_to_string(
                        c.path()
                            .join(".planning/workstreams")
                            .join(&w)
                            .join("STATE.md"),
                    )
                    .unwrap();
                    assert!(
                        after.contains("Checked by gsd"),
                        "{} --ws {w}",
                        tree.display()
                    );
                    assert_eq!(
                        std::fs::read(c.path().join(".planning/STATE.md")).ok(),
                        before_root,
                        "{} --ws {w}: the root STATE.md changed",
                        tree.display()
                    );
                } else {
                    // Only refusals with a reason: a label on several lines.
                    assert_eq!(
                        o.status.code(),
                        Some(2),
                        "{} --ws {w}: {}",
                        tree.display(),
                        stderr(&o)
                    );
                }
            }
            checked += 1;
        }
    }
    println!("{checked} workstreams in {} corpus trees", trees.len());
}

fn make_writable(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        let mode = if p.is_dir() { 0o755 } else { 0o644 };
        std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
        if p.is_dir() {
            make_writable(&p);
        }
    }
}

/// A workstream GSD created and never started writes `milestone: null`
/// into its STATE.md: `workstream list` shows no milestone for it, not
/// the word `null`.
#[test]
fn a_null_milestone_is_no_milestone() {
    let t = project();
    let d = t.path();
    std::fs::write(
        d.join(".planning/workstreams/api/STATE.md"),
        "---\ngsd_state_version: 1.0\nmilestone: null\nmilestone_name: null\nstatus: created\n---\n\n# Project State — api workstream\n",
    )
    .unwrap();
    std::fs::remove_file(d.join(".planning/workstreams/api/ROADMAP.md")).unwrap();
    let o = gsd(d, &["workstream", "list"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let line = stdout(&o)
        .lines()
        .find(|l| l.contains("api"))
        .unwrap_or_default()
        .to_owned();
    assert!(line.contains("created"), "{line}");
    assert!(!line.contains("null"), "{line}");
    let v = json(&gsd(d, &["workstream", "list", "--json"]));
    let api = v["workstreams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["name"] == "api")
        .cloned()
        .unwrap();
    assert_eq!(api["current_milestone"], serde_json::Value::Null, "{api}");
}

/// A tree whose work lives only in workstreams still has files every
/// workstream shares at its root (research, milestone archives): lint
/// checks them, without telling the root it lacks a ROADMAP.md of its own.
#[test]
fn shared_root_files_of_a_workstream_only_tree_are_linted() {
    let t = solo_workstream_tree();
    let d = t.path();
    let conflict = "# Pitfalls\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n";
    std::fs::create_dir_all(d.join(".planning/research")).unwrap();
    std::fs::write(d.join(".planning/research/PITFALLS.md"), conflict).unwrap();
    let (_, diags) = lint(d);
    let found: Vec<&serde_json::Value> = diags
        .iter()
        .filter(|x| x["code"] == "merge-conflict-markers")
        .collect();
    assert_eq!(found.len(), 1, "{diags:#?}");
    assert_eq!(found[0]["file"], ".planning/research/PITFALLS.md");
    assert!(
        !codes(&diags)
            .iter()
            .any(|c| c == "roadmap-missing" || c == "state-missing"),
        "{diags:#?}"
    );
    // PROJECT.md, read by the workstream and by the root pass, counts once.
    std::fs::write(d.join(".planning/PROJECT.md"), conflict).unwrap();
    let (_, diags) = lint(d);
    let on_project = diags
        .iter()
        .filter(|x| x["code"] == "merge-conflict-markers" && x["file"] == ".planning/PROJECT.md")
        .count();
    assert_eq!(on_project, 1, "{diags:#?}");
}

/// The root PROJECT.md's `## Current Milestone` is the root track's: a
/// workstream that shares the file does not take it as its own milestone,
/// so its shipped work reads the same in `gsd roadmap` and in lint (which
/// reads the shared file): between milestones, its stale progress rows
/// history. A finished workstream that is not the active one lacks its
/// STATE.md as a record, not as an error.
#[test]
fn a_workstream_neither_takes_the_roots_milestone_nor_fails_lint_when_finished() {
    let t = project();
    let d = t.path();
    let project_md = d.join(".planning/PROJECT.md");
    let text = std::fs::read_to_string(&project_md).unwrap();
    std::fs::write(
        &project_md,
        format!("{text}\n## Current Milestone: v7.0 Rename\n\n**Goal:** rename everything\n"),
    )
    .unwrap();
    let ws = d.join(".planning/workstreams/api");
    std::fs::write(
        ws.join("ROADMAP.md"),
        "# Roadmap: API\n\n## Phases\n\n- [x] **Phase 1: Base**\n- [x] **Phase 2: Auth**\n\n## Progress\n\n| Phase | Plans Complete | Status | Completed |\n|-------|----------------|--------|-----------|\n| 1. Base | 1/1 | Complete | 2026-03-22 |\n| 2. Auth | 0/1 | In Progress |  |\n",
    )
    .unwrap();
    std::fs::write(
        ws.join("STATE.md"),
        "---\nmilestone: v1.0\nmilestone_name: milestone\nstatus: Milestone complete\n---\n# State\n\nPhase: 2 of 2 — complete\n",
    )
    .unwrap();
    for (dir, n) in [("01-base", "01"), ("02-auth", "02")] {
        let p = ws.join("phases").join(dir);
        std::fs::create_dir_all(&p).unwrap();
        std::fs::write(
            p.join(format!("{n}-01-PLAN.md")),
            format!("---\nphase: {n}\nplan: 01\n---\n# Plan\n"),
        )
        .unwrap();
        std::fs::write(p.join(format!("{n}-01-SUMMARY.md")), "# Summary\n").unwrap();
    }
    std::fs::create_dir_all(ws.join("milestones")).unwrap();
    std::fs::write(ws.join("milestones/v1.0-ROADMAP.md"), "# v1.0\n").unwrap();
    let v = json(&gsd(d, &["--ws", "api", "roadmap", "--json"]));
    assert_eq!(v["current_milestone"], serde_json::Value::Null, "{v}");
    // Lint (the root track active) reads the workstream the same way: the
    // stale row is history.
    let (_, diags) = lint(d);
    let row = diags
        .iter()
        .find(|x| x["code"] == "roadmap-progress-mismatch" && x["line"] == 13)
        .expect("the stale row is reported");
    assert_eq!(row["severity"], "info", "{row}");
    // Finished and not active: its missing STATE.md is a note; active, an error.
    std::fs::write(
        ws.join("ROADMAP.md"),
        "# Roadmap: API\n\n## Milestone: v1.0 API\n\n**Status:** Complete (2026-04-06)\n\n- [x] **Phase 1: Base**\n- [x] **Phase 2: Auth**\n",
    )
    .unwrap();
    std::fs::remove_file(ws.join("STATE.md")).unwrap();
    let missing = |diags: &[serde_json::Value]| {
        diags
            .iter()
            .find(|x| {
                x["code"] == "state-missing" && x["file"].as_str().unwrap().contains("workstreams")
            })
            .map(|x| x["severity"].as_str().unwrap().to_owned())
    };
    assert_eq!(missing(&lint(d).1).as_deref(), Some("info"));
    std::fs::write(d.join(".planning/active-workstream"), "api\n").unwrap();
    assert_eq!(missing(&lint(d).1).as_deref(), Some("error"));
}

/// A roadmap a write needs and the chosen workstream lacks is named with
/// the workstream's path and a hint that fits (start its milestone, or pick
/// another); with no workstream chosen in a project whose work is in
/// workstreams, the hint names them — never `gsd init`, which refuses such
/// a project.
#[test]
fn a_missing_workstream_roadmap_is_named_with_a_hint_that_works() {
    let t = project();
    let d = t.path();
    std::fs::create_dir_all(d.join(".planning/workstreams/fresh/phases")).unwrap();
    std::fs::write(d.join(".planning/workstreams/fresh/STATE.md"), "# State\n").unwrap();
    let o = common::gsd(d, &["--ws", "fresh", "phase", "add", "New thing"]);
    let err = common::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(".planning/workstreams/fresh/ROADMAP.md does not exist"),
        "{err}"
    );
    assert!(
        err.contains("new-milestone --ws fresh") && !err.contains("gsd init"),
        "{err}"
    );
    for f in ["ROADMAP.md", "STATE.md"] {
        let _ = std::fs::remove_file(d.join(".planning").join(f));
    }
    let o = common::gsd(d, &["phase", "add", "New thing"]);
    let err = common::stderr(&o);
    assert!(
        err.contains("keeps its work in workstreams") && !err.contains("gsd init"),
        "{err}"
    );
}
