//! The real Claude Code CLI, run headless against [`super::mock_model`].
//!
//! `GSD_CLAUDE` names the `claude` binary (`.ci/test` installs the pinned npm
//! package and sets it); without it the end-to-end tests are reported ignored.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// The `claude` binary `GSD_CLAUDE` names. Tests that call this are marked
/// `#[cfg_attr(not(gsd_claude), ignore = …)]` (see build.rs), so they only run
/// when it is set; a name that does not exist is a failure, not a skip.
pub fn claude_bin() -> PathBuf {
    let p = PathBuf::from(
        std::env::var_os("GSD_CLAUDE")
            .expect("GSD_CLAUDE is set (this test is ignored without it)"),
    );
    assert!(p.exists(), "GSD_CLAUDE={} does not exist", p.display());
    p
}

/// A `claude -p` invocation in `dir` against the mock at `url`, with its own
/// HOME so no user configuration or hook leaks in.
pub fn claude_command(bin: &Path, dir: &Path, home: &Path, url: &str) -> Command {
    let mut c = Command::new(bin);
    c.current_dir(dir)
        .env("HOME", home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("ANTHROPIC_AUTH_TOKEN")
        .env("ANTHROPIC_BASE_URL", url)
        .env("ANTHROPIC_API_KEY", "sk-ant-mock")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("DISABLE_TELEMETRY", "1");
    c
}

/// Run `claude -p PROMPT` (stream-json) and wait at most `limit`; a hang
/// kills it and fails the test instead of blocking CI.
pub fn run_claude(
    bin: &Path,
    dir: &Path,
    home: &Path,
    url: &str,
    prompt: &str,
    limit: Duration,
) -> Output {
    run_prompt(claude_command(bin, dir, home, url), prompt, limit)
}

/// `claude -p PROMPT` with stream-json output and edits accepted, on a
/// command already set up (environment, folder), within `limit`.
pub fn run_prompt(mut c: Command, prompt: &str, limit: Duration) -> Output {
    c.args([
        "-p",
        prompt,
        "--output-format",
        "stream-json",
        "--verbose",
        "--permission-mode",
        "acceptEdits",
    ]);
    super::wait_limited(c, limit)
}

/// The environment `gsd ralph run` needs to drive the real CLI against the
/// mock at `url`: its own HOME, no user configuration, no retries of its
/// own (the runner retries), and a git identity for the agent's commits.
pub fn runner_env(c: &mut Command, home: &Path, url: &str) {
    c.env("HOME", home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("ANTHROPIC_BASE_URL", url)
        .env("ANTHROPIC_API_KEY", "sk-ant-mock")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_MAX_RETRIES", "0")
        .env("GIT_AUTHOR_NAME", "agent")
        .env("GIT_AUTHOR_EMAIL", "agent@example.com")
        .env("GIT_COMMITTER_NAME", "agent")
        .env("GIT_COMMITTER_EMAIL", "agent@example.com");
}

/// `v` with its numbers as JavaScript has them: Claude Code passes an MCP
/// tool's structured result to the model re-serialised in JavaScript,
/// where YAML's `1.0` becomes `1`. Compare both sides through this.
pub fn js_numbers(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            _ => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(js_numbers).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, x)| (k.clone(), js_numbers(x))).collect())
        }
        _ => v.clone(),
    }
}
