//! The runner's event stream: one JSON object per line with `--headless`
//! (schema in `events.schema.json`, printed by `gsd ralph run --schema`),
//! a live progress display otherwise. Every event also goes to the loop's
//! `events.jsonl` log, whichever way it is shown.

use std::io::Write;
use std::path::PathBuf;

use serde_json::{Map, Value, json};

/// The version of the event format; bumped on any incompatible change.
pub const SCHEMA_VERSION: u64 = 1;

/// The JSON Schema every event line validates against.
pub const SCHEMA: &str = include_str!("events.schema.json");

pub struct Emitter {
    loop_id: String,
    headless: bool,
    log: Option<PathBuf>,
    /// The iteration cap, for the progress display.
    pub max_iterations: u32,
}

impl Emitter {
    pub fn new(loop_id: &str, headless: bool, log: Option<PathBuf>) -> Emitter {
        Emitter {
            loop_id: loop_id.to_owned(),
            headless,
            log,
            max_iterations: 0,
        }
    }

    /// Emit `event` with its fields (an object).
    pub fn emit(&self, event: &str, fields: Value) {
        let mut obj = Map::new();
        obj.insert("schema".into(), json!(SCHEMA_VERSION));
        obj.insert("event".into(), json!(event));
        obj.insert(
            "ts".into(),
            json!(
                jiff::Timestamp::now()
                    .round(jiff::Unit::Millisecond)
                    .unwrap_or_else(|_| jiff::Timestamp::now())
                    .to_string()
            ),
        );
        obj.insert("loop_id".into(), json!(self.loop_id));
        if let Value::Object(f) = fields {
            obj.extend(f);
        }
        let line = Value::Object(obj).to_string();
        if let Some(log) = &self.log
            && let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
        {
            let _ = writeln!(f, "{line}");
        }
        if self.headless {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        } else {
            let v: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
            let text = self.human(event, &v);
            if !text.is_empty() {
                let mut err = std::io::stderr().lock();
                let _ = writeln!(err, "{text}");
            }
        }
    }

    /// The progress display: one short line per event.
    fn human(&self, event: &str, v: &Value) -> String {
        let s = |k: &str| v[k].as_str().unwrap_or("").to_owned();
        let n = v["n"].as_u64().unwrap_or(0);
        let max = self.max_iterations;
        match event {
            "started" => format!(
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
            "iteration" => format!(
                "── iteration {n}/{max}{}",
                v["model"]
                    .as_str()
                    .map(|m| format!(" · {m}"))
                    .unwrap_or_default()
            ),
            "tool" => {
                let what = v["path"].as_str().or(v["command"].as_str()).unwrap_or("");
                let what: String = what.chars().take(100).collect();
                format!("   {:<5} {what}", s("type"))
            }
            "commit" => format!(
                "   commit {} {}",
                &s("hash")[..s("hash").len().min(8)],
                s("message")
            ),
            "task_complete" => format!("   ✓ task {}: {}", v["index"], s("name")),
            "verification" => {
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
            "rate_limited" => format!(
                "   rate limited (HTTP {}); retry {} in {:.1} s",
                v["status"],
                v["attempt"],
                v["delay_ms"].as_f64().unwrap_or(0.0) / 1000.0
            ),
            "iteration_done" => format!(
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
            "stuck" => format!("✗ stuck: {}", s("reason")),
            "complete" => format!(
                "✓ complete after {} iteration(s), ${:.4}",
                v["iterations"],
                v["cost_usd"].as_f64().unwrap_or(0.0)
            ),
            "failed" => {
                let mut t = format!("✗ {}: {}", s("reason"), s("message"));
                for p in v["problems"].as_array().into_iter().flatten() {
                    t.push_str(&format!("\n  - {}", p.as_str().unwrap_or("")));
                }
                t
            }
            _ => String::new(),
        }
    }
}
