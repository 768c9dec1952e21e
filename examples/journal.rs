//! What the write-ahead journal adds to one write: writing a `state set`
//! sized journal durably (rewritten in place, fdatasync) and emptying it,
//! timed in-process so process start and git do not drown it.
//! `cargo run --release --example journal [runs]`; prints the median and
//! the 90th percentile in milliseconds (bench/run.sh records them).

use gsd::store::CommitPolicy;
use gsd::store::journal::{self, Op, Record};

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    // Under the current folder (the benchmark's disk), not /tmp (often tmpfs).
    let dir = tempfile::tempdir_in(".").expect("a temp folder here");
    // A STATE.md of the usual size, as `state set` journals it.
    let text = "# Project State\n\n## Current Position\n\nPhase: 3 of 8 (API)\nStatus: Executing\n"
        .repeat(40);
    let record = Record {
        version: journal::VERSION,
        message: "docs(state): status Ready → Executing".into(),
        commit: true,
        policy: CommitPolicy::Commit,
        head: Some("0".repeat(40)),
        ops: vec![Op::Write {
            path: ".planning/STATE.md".into(),
            old: Some(text.clone()),
            text,
        }],
    };
    let mut ms: Vec<f64> = (0..runs)
        .map(|_| {
            let t = std::time::Instant::now();
            journal::write(dir.path(), &record).expect("journal written");
            journal::remove(dir.path()).expect("journal removed");
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    println!(
        "journal write + remove ({runs} runs): median {:.3} ms, p90 {:.3} ms",
        ms[runs / 2],
        ms[runs * 9 / 10]
    );
}
