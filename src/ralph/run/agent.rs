//! One agent process: the prompt on stdin, stream-json (or plain text) on
//! stdout, a wall-clock limit, Ctrl+C passed on, and everything it printed
//! kept in the iteration's log.
//!
//! The agent runs in its own process group, so a timeout or an interrupt
//! reaches everything it started (RALPH.md §1.14: SIGINT ends a turn
//! cleanly, SIGKILL follows if it does not).

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How the agent reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Claude Code's `--output-format stream-json`: NDJSON with a `result`.
    StreamJson,
    /// Gemini CLI's `--output-format stream-json`: `init`, `message` deltas,
    /// `tool_use`, `tool_result` and a `result` with token stats.
    GeminiStreamJson,
    /// Anything else: stdout is the final text.
    Text,
}

impl OutputFormat {
    /// Whether stdout is JSON lines that must end in a result.
    pub fn is_json(self) -> bool {
        self != OutputFormat::Text
    }

    /// Its name in the loop state.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::StreamJson => "stream-json",
            OutputFormat::GeminiStreamJson => "gemini-stream-json",
            OutputFormat::Text => "text",
        }
    }

    pub fn from_name(name: &str) -> Option<OutputFormat> {
        [
            OutputFormat::StreamJson,
            OutputFormat::GeminiStreamJson,
            OutputFormat::Text,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }
}

/// The command to start, fully built.
#[derive(Debug, Clone)]
pub struct AgentCommand {
    pub program: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub format: OutputFormat,
}

/// A tool call seen in the stream.
#[derive(Debug, Clone)]
pub struct ToolUse {
    /// `read`, `write`, `bash` or `other`.
    pub kind: &'static str,
    pub name: String,
    pub path: Option<String>,
    pub command: Option<String>,
}

/// How one agent process ended.
#[derive(Debug, Default)]
pub struct AgentOutcome {
    /// Set when the process could not be started at all.
    pub spawn_error: Option<String>,
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub interrupted: bool,
    pub final_text: String,
    /// Whether a stream-json `result` line was seen.
    pub has_result: bool,
    pub is_error: bool,
    pub api_error_status: Option<u64>,
    pub rate_limited: bool,
    /// A usage limit (Claude Code's `rate_limit_event` with status
    /// `rejected`): when it resets (Unix seconds) and which limit it is.
    pub usage_limit: Option<UsageLimit>,
    pub cost_usd: f64,
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub json_lines: usize,
    /// The first stdout line that was not JSON (stream-json mode).
    pub first_non_json: Option<String>,
    pub stderr_tail: String,
    pub tool_uses: usize,
    /// The model and session the agent itself reported at start.
    pub reported_model: Option<String>,
    pub reported_session: Option<String>,
}

/// A subscription usage limit the agent hit, and when it resets.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageLimit {
    pub resets_at: i64,
    /// `five_hour`, `seven_day`, … as the CLI names it.
    pub kind: Option<String>,
}

/// Run `cmd` in `cwd` with `prompt` on stdin. Tool calls are passed to
/// `on_tool` as they stream; raw output goes to `log`.
pub fn run(
    cmd: &AgentCommand,
    prompt: &str,
    cwd: &Path,
    limit: Duration,
    interrupt: &AtomicBool,
    log: &Path,
    on_tool: &mut dyn FnMut(ToolUse),
) -> AgentOutcome {
    let mut out = AgentOutcome::default();
    let mut logf = std::fs::File::create(log).ok();
    let mut c = Command::new(&cmd.program);
    c.args(&cmd.args)
        .current_dir(cwd)
        .envs(cmd.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = match c.spawn() {
        Ok(ch) => ch,
        Err(e) => {
            out.spawn_error = Some(format!("cannot start `{}`: {e}", cmd.program));
            return out;
        }
    };
    let pgid = child.id() as i32;
    // If gsd itself is killed, the watcher ends the agent's group.
    let reaper = super::reaper::Reaper::watch(pgid);
    // The prompt goes in on its own thread: a large prompt and an agent that
    // writes before reading must not deadlock.
    let mut stdin = child.stdin.take();
    let prompt = prompt.to_owned();
    std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(prompt.as_bytes());
        }
    });
    let (tx, rx) = mpsc::channel::<Option<String>>();
    let stdout = child.stdout.take().expect("piped");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            match line {
                Ok(l) => {
                    if tx.send(Some(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = tx.send(None);
    });
    let mut stderr = child.stderr.take().expect("piped");
    let (err_tx, err_rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.by_ref().take(4 * 1024 * 1024).read_to_end(&mut buf);
        let _ = err_tx.send(String::from_utf8_lossy(&buf).into_owned());
    });
    let mut limits = Limits {
        pgid,
        start: Instant::now(),
        limit,
        interrupt,
        signalled: None,
    };
    let mut text_out = String::new();
    // When the agent itself has exited, what it left running in its group
    // (a dev server, a `sleep &`) still holds its stdout: the group goes
    // then, so the pipe closes once drained. A process that left the group
    // (setsid) may hold it for ever: two seconds on, gsd stops reading.
    let mut leader_gone: Option<Instant> = None;
    loop {
        match leader_gone {
            None => {
                if let Ok(Some(_)) = child.try_wait() {
                    // SAFETY: killpg on the agent's own group; it may be gone.
                    unsafe { libc::killpg(pgid, libc::SIGKILL) };
                    leader_gone = Some(Instant::now());
                }
            }
            Some(at) if at.elapsed() > DRAIN_AFTER_EXIT => break,
            Some(_) => {}
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(Some(line)) => {
                if let Some(f) = logf.as_mut() {
                    let _ = writeln!(f, "{line}");
                }
                match cmd.format {
                    OutputFormat::Text => {
                        text_out.push_str(&line);
                        text_out.push('\n');
                    }
                    OutputFormat::StreamJson => parse_line(&line, &mut out, on_tool),
                    OutputFormat::GeminiStreamJson => parse_gemini_line(&line, &mut out, on_tool),
                }
            }
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        limits.enforce(&mut out);
    }
    // Stdout is closed; the process may still be running (or ignoring
    // signals): the same limits apply until it is gone.
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Err(_) => break None,
            Ok(None) => {}
        }
        limits.enforce(&mut out);
        std::thread::sleep(Duration::from_millis(20));
    };
    // Whatever it left running in its group goes with it.
    // SAFETY: as above; the group may already be gone.
    unsafe { libc::killpg(pgid, libc::SIGKILL) };
    if let Some(r) = reaper {
        r.release();
    }
    out.exit_code = status.and_then(|s| s.code());
    let err = err_rx.recv_timeout(DRAIN_AFTER_EXIT).unwrap_or_default();
    if let Some(f) = logf.as_mut()
        && !err.is_empty()
    {
        let _ = writeln!(f, "--- stderr ---\n{err}");
    }
    out.stderr_tail = tail_lines(&err, 10);
    if cmd.format == OutputFormat::Text {
        out.final_text = text_out;
    }
    out
}

/// How long gsd goes on reading an agent's output after the agent exited
/// and its group was ended (see [`run`]).
const DRAIN_AFTER_EXIT: Duration = Duration::from_secs(2);

/// The wall-clock limit and Ctrl+C, applied to the agent's process group:
/// SIGINT on an interrupt (ends a turn cleanly), SIGTERM on a timeout, and
/// SIGKILL five seconds later if it is still there.
struct Limits<'a> {
    pgid: i32,
    start: Instant,
    limit: Duration,
    interrupt: &'a AtomicBool,
    signalled: Option<Instant>,
}

impl Limits<'_> {
    fn enforce(&mut self, out: &mut AgentOutcome) {
        let over = self.start.elapsed() > self.limit;
        let stop = self.interrupt.load(Ordering::SeqCst);
        if (over || stop) && self.signalled.is_none() {
            out.timed_out |= over;
            out.interrupted |= stop;
            let sig = if stop { libc::SIGINT } else { libc::SIGTERM };
            // SAFETY: signalling the process group this child leads.
            unsafe { libc::killpg(self.pgid, sig) };
            self.signalled = Some(Instant::now());
        }
        if self
            .signalled
            .is_some_and(|t| t.elapsed() > Duration::from_secs(5))
        {
            // SAFETY: as above.
            unsafe { libc::killpg(self.pgid, libc::SIGKILL) };
        }
    }
}

fn tail_lines(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.trim_end().lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// One line of a JSON stream, counted; a line that is not JSON is kept (the
/// first one) to say what the agent printed instead.
fn json_line(line: &str, out: &mut AgentOutcome) -> Option<Value> {
    if line.trim().is_empty() {
        return None;
    }
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        if out.first_non_json.is_none() {
            out.first_non_json = Some(line.chars().take(200).collect());
        }
        return None;
    };
    out.json_lines += 1;
    Some(v)
}

/// Fold one stream-json line into the outcome.
fn parse_line(line: &str, out: &mut AgentOutcome, on_tool: &mut dyn FnMut(ToolUse)) {
    let Some(v) = json_line(line, out) else {
        return;
    };
    match v["type"].as_str() {
        Some("system") if v["subtype"] == "init" => {
            out.reported_model = v["model"].as_str().map(str::to_owned);
            out.reported_session = v["session_id"].as_str().map(str::to_owned);
        }
        Some("assistant") => {
            if matches!(v["error"].as_str(), Some("rate_limit" | "overloaded")) {
                out.rate_limited = true;
            }
            for block in v["message"]["content"].as_array().into_iter().flatten() {
                if block["type"] == "tool_use" {
                    out.tool_uses += 1;
                    on_tool(tool_use(block));
                }
            }
        }
        // Claude Code's structured word on a usage limit (subscription
        // logins): `rejected` with the reset time; `allowed` and
        // `allowed_warning` are only news.
        Some("rate_limit_event") => {
            let info = &v["rate_limit_info"];
            if info["status"] == "rejected"
                && let Some(at) = info["resetsAt"].as_i64()
            {
                out.rate_limited = true;
                out.usage_limit = Some(UsageLimit {
                    resets_at: at,
                    kind: info["rateLimitType"].as_str().map(str::to_owned),
                });
            }
        }
        Some("result") => {
            out.has_result = true;
            out.final_text = v["result"].as_str().unwrap_or("").to_owned();
            out.is_error = v["is_error"].as_bool().unwrap_or(false);
            out.api_error_status = v["api_error_status"].as_u64();
            if matches!(out.api_error_status, Some(429 | 529)) {
                out.rate_limited = true;
            }
            out.cost_usd = v["total_cost_usd"].as_f64().unwrap_or(0.0);
            let u = &v["usage"];
            out.tokens_in = u["input_tokens"].as_u64().unwrap_or(0)
                + u["cache_read_input_tokens"].as_u64().unwrap_or(0)
                + u["cache_creation_input_tokens"].as_u64().unwrap_or(0);
            out.tokens_out = u["output_tokens"].as_u64().unwrap_or(0);
        }
        _ => {}
    }
}

/// Fold one line of Gemini CLI's stream-json into the outcome. The text
/// comes in `message` deltas; tokens from the `result`'s stats. Gemini CLI
/// reports no cost, so its iterations cost $0 here.
fn parse_gemini_line(line: &str, out: &mut AgentOutcome, on_tool: &mut dyn FnMut(ToolUse)) {
    let Some(v) = json_line(line, out) else {
        return;
    };
    match v["type"].as_str() {
        Some("init") => {
            out.reported_model = v["model"].as_str().map(str::to_owned);
            out.reported_session = v["session_id"].as_str().map(str::to_owned);
        }
        Some("message") if v["role"] == "assistant" => {
            let text = v["content"].as_str().unwrap_or("");
            if v["delta"] == true {
                out.final_text.push_str(text);
            } else {
                out.final_text = text.to_owned();
            }
        }
        Some("tool_use") => {
            out.tool_uses += 1;
            let name = v["tool_name"].as_str().unwrap_or("").to_owned();
            let p = &v["parameters"];
            let s = |k: &str| p[k].as_str().map(str::to_owned);
            let (kind, path, command) = match name.as_str() {
                "run_shell_command" => ("bash", None, s("command")),
                "write_file" | "replace" => ("write", s("file_path"), None),
                "read_file"
                | "read_many_files"
                | "glob"
                | "search_file_content"
                | "list_directory" => ("read", s("file_path").or_else(|| s("path")), None),
                _ => ("other", None, None),
            };
            on_tool(ToolUse {
                kind,
                name,
                path,
                command,
            });
        }
        Some("result") => {
            out.has_result = true;
            out.is_error = v["status"] != "success";
            let st = &v["stats"];
            out.tokens_in = st["input_tokens"].as_u64().unwrap_or(0);
            out.tokens_out = st["output_tokens"].as_u64().unwrap_or(0);
        }
        _ => {}
    }
}

fn tool_use(block: &Value) -> ToolUse {
    let name = block["name"].as_str().unwrap_or("").to_owned();
    let input = &block["input"];
    let s = |k: &str| input[k].as_str().map(str::to_owned);
    let (kind, path, command) = match name.as_str() {
        "Bash" => ("bash", None, s("command")),
        "Read" => ("read", s("file_path"), None),
        "Grep" | "Glob" | "LS" => ("read", s("path").or_else(|| s("pattern")), None),
        "Write" | "Edit" | "MultiEdit" => ("write", s("file_path"), None),
        "NotebookEdit" => ("write", s("notebook_path"), None),
        _ => ("other", None, None),
    };
    ToolUse {
        kind,
        name,
        path,
        command,
    }
}
