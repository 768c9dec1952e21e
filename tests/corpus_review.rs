//! Reviewed expectations for every tree of ../shared/corpus (GSD_CORPUS):
//! a snapshot per tree of how gsd reads its roadmap (milestones, current
//! milestone, active phases with status, current and next phase) and of
//! every lint finding. Any change to a reading is a visible diff in review.
//!
//! `tests/corpus-review.md` records, per finding class (code × severity),
//! whether it is a true or false positive and why, and judges a seeded
//! random sample of 100 findings one by one (ranked by a seeded hash of
//! each finding, so the sample is stable as other findings change). The test fails when a class
//! has no review line, when the sample no longer matches the findings
//! (re-review it), or when fewer than 95 of the 100 are judged true.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use gsd::lint;
use gsd::model::Workspace;
use gsd::model::reading::RoadmapReading;

const REVIEW: &str = include_str!("corpus-review.md");
const SEED: u64 = 0x6773_645f_7265_7631; // "gsd_rev1"
const SAMPLE: usize = 100;

/// The corpus trees; every test here is ignored without GSD_CORPUS.
fn trees() -> Vec<PathBuf> {
    common::corpus_trees().expect("GSD_CORPUS is set (this test is ignored without it)")
}

fn name(tree: &std::path::Path) -> String {
    tree.file_name().unwrap().to_string_lossy().into_owned()
}

/// One finding as the review file names it: `tree file:line code`.
fn key(tree: &str, d: &lint::Diagnostic) -> String {
    format!("{tree} {}:{} {}", d.file.display(), d.line, d.code)
}

fn reading_text(r: &RoadmapReading) -> String {
    let mut s = String::from("roadmap\n");
    for m in &r.milestones {
        let _ = writeln!(
            s,
            "  milestone {}: {}{}, {} phases{}",
            m.version.as_deref().unwrap_or("-"),
            serde_json::to_value(m.status).unwrap().as_str().unwrap(),
            if m.current { ", current" } else { "" },
            m.phases,
            m.phase_range
                .as_deref()
                .map(|p| format!(" ({p})"))
                .unwrap_or_default(),
        );
    }
    let _ = writeln!(
        s,
        "  current milestone: {}",
        r.current_milestone.as_deref().unwrap_or("-")
    );
    let archived = r.phases.iter().filter(|p| p.archived).count();
    let backlog = r.phases.iter().filter(|p| p.backlog).count();
    let _ = writeln!(
        s,
        "  phases: {} active, {archived} archived, {backlog} backlog, {} other",
        r.phase_count,
        r.phases.len() - r.phase_count - archived - backlog
    );
    for p in r.phases.iter().filter(|p| p.active) {
        let _ = writeln!(
            s,
            "    {:>6} {:<12} {}/{} {}",
            p.number,
            p.status,
            p.summaries,
            p.plans,
            p.name.as_deref().unwrap_or("-")
        );
    }
    let _ = writeln!(
        s,
        "  current phase: {}, next phase: {}",
        r.current_phase.as_deref().unwrap_or("-"),
        r.next_phase.as_deref().unwrap_or("-")
    );
    let _ = writeln!(
        s,
        "  progress: {}/{} plans, {}/{} phases complete",
        r.total_summaries, r.total_plans, r.completed_phases, r.phase_count
    );
    s
}

fn lint_text(diags: &[lint::Diagnostic]) -> String {
    let (e, w, i) = lint::counts(diags);
    let mut s = format!("lint: {e} errors, {w} warnings, {i} info\n");
    for d in diags {
        let _ = writeln!(
            s,
            "  {:<7} {} {}:{} {}",
            d.severity.as_str(),
            d.code,
            d.file.display(),
            d.line,
            d.message
        );
    }
    s
}

/// A seeded 64-bit hash of a finding's key (FNV-1a, then a xorshift64*
/// finalizer). The sample is the 100 findings with the smallest hash, so a
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

/// The review file's verdicts: `| key | true|false | why |` rows of the
/// sample table, and the `| code | severity |` rows of the class table.
fn review() -> (BTreeMap<String, bool>, BTreeSet<(String, String)>) {
    let mut verdicts = BTreeMap::new();
    let mut classes = BTreeSet::new();
    for line in REVIEW.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 {
            continue;
        }
        match cells[2] {
            "true" | "false" if cells[1].contains(' ') => {
                verdicts.insert(cells[1].trim_matches('`').to_owned(), cells[2] == "true");
            }
            "error" | "warning" | "info" => {
                classes.insert((cells[1].trim_matches('`').to_owned(), cells[2].to_owned()));
            }
            _ => {}
        }
    }
    (verdicts, classes)
}

#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn corpus_readings_and_findings_are_reviewed() {
    let trees = trees();
    let mut all: Vec<String> = Vec::new();
    let mut seen_classes: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut per_tree = String::new();
    for tree in &trees {
        let n = name(tree);
        let ws = Workspace::load(tree).unwrap();
        let reading = RoadmapReading::new(&ws);
        let diags = lint::run(&ws, &lint::Options::default());
        let text = format!("{}{}", reading_text(&reading), lint_text(&diags));
        insta::assert_snapshot!(format!("corpus_{n}"), text);
        let (e, w, i) = lint::counts(&diags);
        let _ = writeln!(per_tree, "{n}: {e} errors, {w} warnings, {i} info");
        for d in &diags {
            all.push(key(&n, d));
            *seen_classes
                .entry((d.code.to_owned(), d.severity.as_str().to_owned()))
                .or_default() += 1;
        }
    }
    println!("{per_tree}");

    let (verdicts, classes) = review();
    let unreviewed: Vec<String> = seen_classes
        .keys()
        .filter(|c| !classes.contains(*c))
        .map(|(c, s)| format!("{c} ({s})"))
        .collect();
    assert!(
        unreviewed.is_empty(),
        "finding classes with no review line in tests/corpus-review.md: {unreviewed:?}"
    );

    // The seeded sample: the findings with the smallest ranks.
    all.sort();
    all.dedup();
    let mut ranked: Vec<&String> = all.iter().collect();
    ranked.sort_by_key(|k| rank(k));
    let sample: Vec<&String> = ranked.into_iter().take(SAMPLE).collect();
    let missing: Vec<&&String> = sample
        .iter()
        .filter(|k| !verdicts.contains_key(**k))
        .collect();
    if !missing.is_empty() {
        let listing: String = sample
            .iter()
            .map(|k| format!("| `{k}` | ? | |\n"))
            .collect();
        panic!(
            "{} sampled findings have no verdict in tests/corpus-review.md; the sample is:\n{listing}",
            missing.len()
        );
    }
    let judged_true = sample.iter().filter(|k| verdicts[**k]).count();
    println!("sample: {judged_true}/{} judged true", sample.len());
    assert!(
        judged_true >= 95,
        "only {judged_true} of 100 sampled findings are true"
    );
}
