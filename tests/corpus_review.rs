//! Reviewed expectations for every tree of ../shared/corpus (GSD_CORPUS),
//! made by people (helper agents) who did not write gsd's reading or rules:
//!
//! 1. **The reading, against hand labels.** `tests/reading-labels/` holds,
//!    for every corpus tree, what a careful maintainer says is true of it
//!    (current milestone, its phases and their completion, the phase to
//!    work on, plans done/total), made by reading the files before running
//!    gsd. Every corpus tree must have a label (a new tree is labelled, never
//!    skipped), filed under the part the fixed split puts it in, and the
//!    share of trees gsd reads right on all four must not fall below the
//!    measured figures recorded here, per part.
//! 2. **Lint, judged on held-out trees.** A seeded sample of (up to) 100 error and
//!    warning findings on the held-out part, each judged against its file in
//!    `tests/corpus-review.md`. The test fails when the sample no longer
//!    matches gsd's findings (re-judge it) or when fewer are judged true than
//!    the recorded figure.
//!
//! The split, fixed once: the first hex digit of sha256(folder name), `0`–`9`
//! tune, `a`–`f` held out. `bench/reading-score.py` prints the same reading
//! figures from the binary.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gsd::lint;
use gsd::model::Workspace;
use gsd::model::reading::RoadmapReading;
use gsd::model::workspace::Scope;
use sha2::Digest as _;

const REVIEW: &str = include_str!("corpus-review.md");
const SEED: u64 = 0x6773_645f_7265_7632; // "gsd_rev2"
const SAMPLE: usize = 100;

/// Trees right on all four, measured when these floors were set (gsd at the
/// commit that set them). Raise them as the reading improves; the issue's
/// bar is 95% of each part.
const TUNE_RIGHT_AT_LEAST: usize = 77;
const HOLDOUT_RIGHT_AT_LEAST: usize = 43;
/// Sampled held-out findings judged true, measured when set (43 of 56; the
/// issue's bar is 90%).
const LINT_TRUE_AT_LEAST: usize = 43;

fn trees() -> Vec<PathBuf> {
    common::corpus_trees().expect("GSD_CORPUS is set (this test is ignored without it)")
}

fn name(tree: &Path) -> String {
    tree.file_name().unwrap().to_string_lossy().into_owned()
}

/// The part of the split a tree belongs to.
fn held_out(name: &str) -> bool {
    let h = sha2::Sha256::digest(name.as_bytes());
    (h[0] >> 4) >= 0xa
}

fn labels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reading-labels")
}

/// A phase number as labels and readings compare it (`05` = `5`).
fn num(s: &str) -> String {
    let t = s.trim().to_lowercase();
    let t = t.trim_start_matches('0');
    if t.is_empty() || t.starts_with('.') {
        format!("0{t}")
    } else {
        t.to_owned()
    }
}

/// A milestone identifier as compared (`Milestone 3` = `M3`).
fn ver(s: &str) -> String {
    let l = s.trim().to_lowercase();
    match l.strip_prefix("milestone ") {
        Some(n) => format!("m{n}"),
        None => l,
    }
}

/// What disagrees between a label and gsd's reading (empty: right).
fn score(label: &serde_json::Value, r: Option<&RoadmapReading>) -> Vec<String> {
    let mut wrong = Vec::new();
    let cur = r.and_then(|r| r.milestones.iter().find(|m| m.current));
    match (&label["current_milestone"], cur) {
        (serde_json::Value::Null, None) => {}
        (serde_json::Value::Null, Some(g)) => {
            wrong.push(format!("milestone: gsd {}, label none", g.title))
        }
        (l, None) => wrong.push(format!("milestone: gsd none, label {l}")),
        (l, Some(g)) => {
            let lv = l["version"].as_str();
            let lt = l["title"].as_str().unwrap_or("").to_lowercase();
            let gt = g.title.to_lowercase();
            let same_version =
                lv.is_some_and(|v| g.version.as_deref().is_some_and(|w| ver(v) == ver(w)));
            let same_title = !lt.is_empty() && (gt.contains(&lt) || lt.contains(&gt));
            if !(same_version || (lv.is_none() && same_title)) {
                wrong.push(format!(
                    "milestone: gsd {:?} {}, label {l}",
                    g.version, g.title
                ));
            }
        }
    }
    let mut gp: Vec<(String, bool)> = r
        .map(|r| {
            r.phases
                .iter()
                .filter(|p| p.active && !p.backlog)
                .map(|p| (num(&p.number), p.status == "complete"))
                .collect()
        })
        .unwrap_or_default();
    let mut lp: Vec<(String, bool)> = label["phases"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        num(p["number"].as_str().unwrap_or("")),
                        p["complete"].as_bool().unwrap_or(false),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    gp.sort();
    lp.sort();
    if gp != lp {
        wrong.push(format!("phases: gsd {gp:?}, label {lp:?}"));
    }
    let pos = r.and_then(|r| r.current_phase.clone().or(r.next_phase.clone()));
    let lpos = label["position"].as_str().map(num);
    if pos.as_deref().map(num) != lpos {
        wrong.push(format!("position: gsd {pos:?}, label {lpos:?}"));
    }
    let plans = r.map_or((0, 0), |r| (r.total_summaries, r.total_plans));
    let lplans = (
        label["plans_done"].as_u64().unwrap_or(0) as usize,
        label["plans_total"].as_u64().unwrap_or(0) as usize,
    );
    if plans != lplans {
        wrong.push(format!("plans: gsd {plans:?}, label {lplans:?}"));
    }
    wrong
}

#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn every_tree_is_labelled_and_read_right_at_least_as_often_as_measured() {
    let mut unlabelled = Vec::new();
    let mut figures: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut misses = String::new();
    for tree in trees() {
        let n = name(&tree);
        let part = if held_out(&n) { "holdout" } else { "tune" };
        let path = labels_dir().join(part).join(format!("{n}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            unlabelled.push(format!("{part}/{n}.json"));
            continue;
        };
        let label: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            label["tree"].as_str(),
            Some(n.as_str()),
            "{}",
            path.display()
        );
        assert!(
            label["labelled_by"].is_string() && label["labelled_at"].is_string(),
            "{}: who labelled it and when",
            path.display()
        );
        // The workstream the label read, else the one gsd's commands pick.
        let ws_name = label["workstream"]
            .as_str()
            .map(str::to_owned)
            .or_else(|| gsd::model::workstream::implied(&tree));
        let ws = Workspace::load_in(&tree, Scope::Index, ws_name.as_deref()).unwrap();
        // `gsd roadmap` refuses a tree with neither ROADMAP.md nor STATE.md:
        // an empty reading.
        let reading =
            (ws.roadmap.is_some() || ws.state.is_some()).then(|| RoadmapReading::new(&ws));
        let wrong = score(&label, reading.as_ref());
        let f = figures.entry(part).or_default();
        f.1 += 1;
        if wrong.is_empty() {
            f.0 += 1;
        } else if part == "tune" {
            // Held-out misses are not printed: they are for measuring only.
            misses.push_str(&format!("{n}: {}\n", wrong.join(" | ")));
        }
    }
    assert!(
        unlabelled.is_empty(),
        "corpus trees with no label (label each by reading its files, see tests/reading-labels/README.md): {unlabelled:?}"
    );
    println!("{misses}");
    let (tune, holdout) = (figures["tune"], figures["holdout"]);
    println!(
        "reading right on all four: tune {}/{} ({}%), held out {}/{} ({}%)",
        tune.0,
        tune.1,
        tune.0 * 100 / tune.1.max(1),
        holdout.0,
        holdout.1,
        holdout.0 * 100 / holdout.1.max(1)
    );
    assert!(
        tune.0 >= TUNE_RIGHT_AT_LEAST,
        "the reading got worse on the tuning part: {} < {TUNE_RIGHT_AT_LEAST}",
        tune.0
    );
    assert!(
        holdout.0 >= HOLDOUT_RIGHT_AT_LEAST,
        "the reading got worse on the held-out part: {} < {HOLDOUT_RIGHT_AT_LEAST}",
        holdout.0
    );
}

/// A seeded 64-bit hash of a finding's key (FNV-1a, then a xorshift64*
/// finalizer). The sample is the findings with the smallest hash, so a
/// finding stays in or out of it whatever other findings come and go.
fn rank(key: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ SEED;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 12;
    h ^= h << 25;
    h ^= h >> 27;
    h.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// The review file's verdicts: `| key | true|false | why |` rows.
fn verdicts() -> BTreeMap<String, bool> {
    let mut out = BTreeMap::new();
    for line in REVIEW.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() >= 4 && matches!(cells[2], "true" | "false") && cells[1].contains(' ') {
            out.insert(cells[1].trim_matches('`').to_owned(), cells[2] == "true");
        }
    }
    out
}

#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn held_out_lint_findings_are_judged_true_at_least_as_often_as_measured() {
    let mut findings: Vec<(String, String)> = Vec::new();
    for tree in trees().into_iter().filter(|t| held_out(&name(t))) {
        let n = name(&tree);
        // What `gsd lint` in the tree checks: every live track.
        let project = lint::project::run_project(&tree, &lint::Options::default()).unwrap();
        for d in project.diagnostics {
            if d.severity == lint::Severity::Info {
                continue;
            }
            let key = format!("{n} {}:{} {}", d.file.display(), d.line, d.code);
            findings.push((key, format!("{} {}", d.severity.as_str(), d.message)));
        }
    }
    findings.sort();
    findings.dedup_by(|a, b| a.0 == b.0);
    findings.sort_by_key(|(k, _)| rank(k));
    let sample: Vec<&(String, String)> = findings.iter().take(SAMPLE).collect();
    let verdicts = verdicts();
    let missing: Vec<&&(String, String)> = sample
        .iter()
        .filter(|(k, _)| !verdicts.contains_key(k))
        .collect();
    if !missing.is_empty() {
        let listing: String = sample
            .iter()
            .map(|(k, m)| format!("| `{k}` | ? | {m} |\n"))
            .collect();
        panic!(
            "{} sampled findings have no verdict in tests/corpus-review.md; the sample is:\n{listing}",
            missing.len()
        );
    }
    let judged_true = sample.iter().filter(|(k, _)| verdicts[k]).count();
    // The issue asks for the list of every false one; the class is in the
    // verdict's reason in tests/corpus-review.md.
    for (k, m) in sample.iter().filter(|(k, _)| !verdicts[k]) {
        println!("judged false: {k} — {m}");
    }
    println!(
        "held-out lint sample: {judged_true}/{} judged true ({} error and warning findings on held-out trees)",
        sample.len(),
        findings.len()
    );
    assert!(
        judged_true >= LINT_TRUE_AT_LEAST,
        "only {judged_true} of {} sampled findings are judged true",
        sample.len()
    );
}
