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

/// The kinds of event a run emits (the `event` field of each line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Started,
    Iteration,
    Tool,
    Commit,
    TaskComplete,
    Verification,
    RateLimited,
    UsageLimit,
    IterationDone,
    Stuck,
    Complete,
    Failed,
    /// A plan of a phase run that was not run (already done, or a
    /// dependency failed).
    PlanSkipped,
    /// A plan of a phase run ended (and, complete, was recorded).
    PlanDone,
    /// The phase run ended.
    PhaseDone,
}

impl EventKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Started => "started",
            EventKind::Iteration => "iteration",
            EventKind::Tool => "tool",
            EventKind::Commit => "commit",
            EventKind::TaskComplete => "task_complete",
            EventKind::Verification => "verification",
            EventKind::RateLimited => "rate_limited",
            EventKind::UsageLimit => "usage_limit",
            EventKind::IterationDone => "iteration_done",
            EventKind::Stuck => "stuck",
            EventKind::Complete => "complete",
            EventKind::Failed => "failed",
            EventKind::PlanSkipped => "plan_skipped",
            EventKind::PlanDone => "plan_done",
            EventKind::PhaseDone => "phase_done",
        }
    }
}

impl EventKind {
    /// The kind an `event` field names.
    pub fn parse(name: &str) -> Option<EventKind> {
        use EventKind::*;
        [
            Started,
            Iteration,
            Tool,
            Commit,
            TaskComplete,
            Verification,
            RateLimited,
            UsageLimit,
            IterationDone,
            Stuck,
            Complete,
            Failed,
            PlanSkipped,
            PlanDone,
            PhaseDone,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }
}

/// The events of a loop's `events.jsonl` log, skipping lines that are not
/// events (a torn last line after a crash).
pub fn read_log(path: &std::path::Path) -> Vec<RunEvent> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let fields: Value = serde_json::from_str(l).ok()?;
            let kind = EventKind::parse(fields["event"].as_str()?)?;
            Some(RunEvent { kind, fields })
        })
        .collect()
}

/// One event: its kind, and the whole object (schema, timestamp, loop and
/// the event's own fields) as it is logged and streamed.
#[derive(Debug, Clone)]
pub struct RunEvent {
    pub kind: EventKind,
    pub fields: Value,
}

impl RunEvent {
    /// The JSONL line.
    pub fn line(&self) -> String {
        self.fields.to_string()
    }
}

/// Where events go besides the log: the CLI's printer (JSONL or progress
/// lines), a test's collector. Nothing in the library prints.
pub type Sink = Box<dyn Fn(&RunEvent)>;

pub struct Emitter {
    loop_id: String,
    log: Option<PathBuf>,
    sink: Sink,
    /// `--notify CMD`, run on the events a person wants to hear about.
    notify: Option<String>,
}

/// How long a notify command may take before it is killed: the run's end
/// must not hang on a webhook.
const NOTIFY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

impl EventKind {
    /// The events `--notify` runs for: the run ended (complete, failed, which
    /// includes a question for a human) or is stuck.
    pub fn notifies(self) -> bool {
        matches!(
            self,
            EventKind::Complete | EventKind::Failed | EventKind::Stuck | EventKind::PhaseDone
        )
    }
}

/// Run `cmd` through `sh -c` with the event line on stdin and `GSD_EVENT`
/// set to its kind (`question` for a failure that asks a human). Its output
/// goes to the iteration logs' folder, never to the event stream.
fn notify(cmd: &str, event: &RunEvent, log_dir: Option<&std::path::Path>) {
    use std::process::{Command, Stdio};
    let kind = match (event.kind, event.fields["reason"].as_str()) {
        (EventKind::Failed, Some("question")) => "question",
        (k, _) => k.as_str(),
    };
    let out = log_dir
        .and_then(|d| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(d.join("notify.log"))
                .ok()
        })
        .map_or_else(Stdio::null, Stdio::from);
    let Ok(mut child) = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .env("GSD_EVENT", kind)
        .stdin(Stdio::piped())
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
    else {
        return;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = writeln!(stdin, "{}", event.line());
    }
    let until = std::time::Instant::now() + NOTIFY_TIMEOUT;
    while std::time::Instant::now() < until {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

impl Emitter {
    pub fn new(loop_id: &str, log: Option<PathBuf>, sink: Sink) -> Emitter {
        Emitter {
            loop_id: loop_id.to_owned(),
            log,
            sink,
            notify: None,
        }
    }

    /// Also run `cmd` on the events that end or stall the run.
    pub fn with_notify(mut self, cmd: Option<String>) -> Emitter {
        self.notify = cmd;
        self
    }

    /// Emit `kind` with its fields (an object): logged, then handed to the sink.
    pub fn emit(&self, kind: EventKind, fields: Value) {
        let mut obj = Map::new();
        obj.insert("schema".into(), json!(SCHEMA_VERSION));
        obj.insert("event".into(), json!(kind.as_str()));
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
        let event = RunEvent {
            kind,
            fields: Value::Object(obj),
        };
        if let Some(log) = &self.log
            && let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(log)
        {
            let _ = writeln!(f, "{}", event.line());
        }
        (self.sink)(&event);
        if let Some(cmd) = self.notify.as_deref().filter(|_| kind.notifies()) {
            notify(cmd, &event, self.log.as_deref().and_then(|l| l.parent()));
        }
    }
}
