//! How `gsd ralph run` shows its events: the JSONL line with
//! `--headless`, else one short progress line per event on stderr.

use std::io::Write;

use serde_json::Value;

use crate::ralph::run::events::{EventKind, RunEvent, Sink};

/// The printer for a run: JSONL on stdout, or progress lines on stderr.
pub fn sink(headless: bool, max_iterations: u32) -> Sink {
    Box::new(move |ev: &RunEvent| {
        if headless {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", ev.line());
            let _ = out.flush();
        } else {
            let text = human(ev.kind, &ev.fields, max_iterations);
            if !text.is_empty() {
                let _ = writeln!(std::io::stderr().lock(), "{text}");
            }
        }
    })
}

/// The progress display: one short line per event.
fn human(kind: EventKind, v: &Value, max: u32) -> String {
    let s = |k: &str| v[k].as_str().unwrap_or("").to_owned();
    let n = v["n"].as_u64().unwrap_or(0);
    match kind {
        EventKind::Started => format!(
            "gsd ralph run: plan {} ({} tasks, {} checks, at most {} iterations){}",
            s("plan"),
            v["tasks"],
            v["checks"],
            v["max_iterations"],
            if v["resumed"] == true {
                ", resumed"
            } else {
                ""
            }
        ),
        EventKind::Iteration => format!(
            "── iteration {n}/{max}{}",
            v["model"]
                .as_str()
                .map(|m| format!(" · {m}"))
                .unwrap_or_default()
        ),
        EventKind::Tool => {
            let what = v["path"].as_str().or(v["command"].as_str()).unwrap_or("");
            let what: String = what.chars().take(100).collect();
            format!("   {:<5} {what}", s("type"))
        }
        EventKind::Commit => format!(
            "   commit {} {}",
            &s("hash")[..s("hash").len().min(8)],
            s("message")
        ),
        EventKind::TaskComplete => format!("   ✓ task {}: {}", v["index"], s("name")),
        EventKind::Verification => {
            let checks = v["checks"].as_array().cloned().unwrap_or_default();
            let failed: Vec<String> = checks
                .iter()
                .filter(|c| c["passed"] == false)
                .map(|c| {
                    format!(
                        "`{}` ({})",
                        c["command"].as_str().unwrap_or(""),
                        c["reason"].as_str().unwrap_or("")
                    )
                })
                .collect();
            if failed.is_empty() {
                format!("   promise verified: {} check(s) passed", checks.len())
            } else {
                format!("   promise refused: {}", failed.join(", "))
            }
        }
        EventKind::RateLimited => format!(
            "   rate limited (HTTP {}); retry {} in {:.1} s",
            v["status"],
            v["attempt"],
            v["delay_ms"].as_f64().unwrap_or(0.0) / 1000.0
        ),
        EventKind::UsageLimit => format!(
            "   usage limit ({}) reached: waiting {:.0} s until {} to run iteration {} again",
            v["limit"].as_str().unwrap_or("agent"),
            v["wait_ms"].as_f64().unwrap_or(0.0) / 1000.0,
            v["resets_at"].as_str().unwrap_or("?"),
            v["n"]
        ),
        EventKind::IterationDone => format!(
            "   done in {:.1} s, ${:.4}, {} files changed{}",
            v["duration_ms"].as_f64().unwrap_or(0.0) / 1000.0,
            v["cost_usd"].as_f64().unwrap_or(0.0),
            v["changed_files"],
            if v["progress"] == true {
                ""
            } else {
                ", no progress"
            }
        ),
        EventKind::Stuck => format!("✗ stuck: {}", s("reason")),
        EventKind::Complete => format!(
            "✓ complete after {} iteration(s), ${:.4}",
            v["iterations"],
            v["cost_usd"].as_f64().unwrap_or(0.0)
        ),
        EventKind::Failed => {
            let mut t = format!("✗ {}: {}", s("reason"), s("message"));
            for p in v["problems"].as_array().into_iter().flatten() {
                t.push_str(&format!("\n  - {}", p.as_str().unwrap_or("")));
            }
            t
        }
        EventKind::PlanSkipped => format!("- plan {} skipped: {}", s("plan"), s("reason")),
        EventKind::PlanDone => {
            let mut t = match v["result"].as_str() {
                Some("complete") => format!(
                    "✓ plan {} complete{}",
                    s("plan"),
                    v["summary"]
                        .as_str()
                        .map(|p| format!(", summary {p}"))
                        .unwrap_or_default()
                ),
                _ => format!("✗ plan {} failed ({})", s("plan"), s("reason")),
            };
            for w in v["warnings"].as_array().into_iter().flatten() {
                t.push_str(&format!("\n  warning: {}", w.as_str().unwrap_or("")));
            }
            t
        }
        EventKind::PhaseDone => {
            let mut t = format!(
                "phase run: {} plan(s): {} complete, {} already done, {} failed, {} skipped, {} not run",
                v["plans"], v["complete"], v["done"], v["failed"], v["skipped"], v["not_run"]
            );
            for o in v["outcomes"].as_array().into_iter().flatten() {
                t.push_str(&format!(
                    "\n  {:<10} wave {:<3} {}{}",
                    o["plan"].as_str().unwrap_or(""),
                    o["wave"],
                    o["result"].as_str().unwrap_or(""),
                    o["reason"]
                        .as_str()
                        .map(|r| format!(": {r}"))
                        .unwrap_or_default()
                ));
            }
            t
        }
    }
}
