//! The behavioural verifier (the seed's `BehavioralVerifier`): run each
//! check with a timeout, judge it by exit code and an optional expected-output
//! regex, and always return a structured result — never panic, never hang.
//!
//! Checks come from a plan: each task's `<verify>` (`<automated>` commands,
//! else backticked commands), the plan's `<verification>` (backticked
//! commands), plus any given explicitly. A command runs under `sh -c` in its
//! own process group, so a timeout kills everything it started.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::doc::Span;
use crate::doc::elements::{self, Opaque};
use crate::model::Plan;

/// One check to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Check {
    pub command: String,
    /// Where it came from (`task 2`, `verification`, `--check`).
    pub source: String,
    /// A regex the output must match, when given (`<automated expect="…">`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<String>,
}

/// How a check ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckResult {
    pub command: String,
    pub source: String,
    pub passed: bool,
    /// `ok`, `exit N`, `timeout`, `not found`, `output did not match …`, `invalid pattern …`.
    pub reason: String,
    pub exit_code: Option<i32>,
    pub duration_ms: u128,
    /// The last part of the output (stdout then stderr), for feeding back to an agent.
    pub output: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    pub passed: bool,
    pub results: Vec<CheckResult>,
}

/// The checks a plan declares.
pub fn plan_checks(plan: &Plan) -> Vec<Check> {
    let text = plan.doc.text();
    let mut checks = Vec::new();
    for t in &plan.tasks {
        let Some(v) = t.child("verify") else { continue };
        let source = format!("task {}", t.index);
        let content = v.content_span;
        let opaque = Opaque::scan(text, Span::new(content.start, content.end));
        let tags = elements::tags(text, content, &opaque);
        let (els, _) = elements::children_from_tags(&tags);
        let automated: Vec<_> = els.iter().filter(|e| e.name == "automated").collect();
        if automated.is_empty() {
            for c in crate::model::task::backticked(&v.content) {
                checks.push(Check {
                    command: c,
                    source: source.clone(),
                    expect: None,
                });
            }
        } else {
            for e in automated {
                let attrs = elements::attributes(e.attr_text(text));
                let expect = attrs
                    .into_iter()
                    .find(|(k, _)| k == "expect")
                    .map(|(_, v)| v);
                let command = e.content.slice(text).trim().to_owned();
                if !command.is_empty() {
                    checks.push(Check {
                        command,
                        source: source.clone(),
                        expect,
                    });
                }
            }
        }
    }
    if let Some(v) = plan.section_text("verification") {
        for c in crate::model::task::backticked(v) {
            checks.push(Check {
                command: c,
                source: "verification".into(),
                expect: None,
            });
        }
    }
    checks.retain(|c| !c.command.contains(crate::render::SKELETON));
    checks.dedup_by(|a, b| a.command == b.command);
    checks
}

fn tail(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.len() <= max {
        return s.to_owned();
    }
    let mut start = s.len() - max;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    format!("…{}", &s[start..])
}

/// Run one check in `dir` with a timeout.
pub fn run(check: &Check, dir: &Path, timeout: Duration) -> CheckResult {
    run_with_env(check, dir, timeout, &[])
}

/// `run`, with extra environment variables (how the guidance command gets
/// the error it is asked about).
pub fn run_with_env(
    check: &Check,
    dir: &Path,
    timeout: Duration,
    env: &[(&str, &str)],
) -> CheckResult {
    let started = Instant::now();
    let done = |passed: bool, reason: String, exit_code: Option<i32>, output: String| CheckResult {
        command: check.command.clone(),
        source: check.source.clone(),
        passed,
        reason,
        exit_code,
        duration_ms: started.elapsed().as_millis(),
        output,
    };
    let pattern = match check.expect.as_deref().map(regex::Regex::new).transpose() {
        Ok(p) => p,
        Err(e) => return done(false, format!("invalid pattern: {e}"), None, String::new()),
    };
    let mut child = match Command::new("sh")
        .arg("-c")
        .arg(&check.command)
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return done(false, format!("not found: {e}"), None, String::new()),
    };
    // Drain both pipes on threads so a chatty command cannot block on a full pipe.
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let pgid = child.id() as i32;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if started.elapsed() >= timeout => {
                // SAFETY: killpg on the group we created for this child.
                unsafe {
                    libc::killpg(pgid, libc::SIGKILL);
                }
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    // A killed group closes its pipes; a leftover grandchild holding them
    // was killed with the group.
    let stdout = String::from_utf8_lossy(&out_t.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_t.join().unwrap_or_default()).into_owned();
    let output = tail(&format!("{stdout}\n{stderr}"), 2000);
    let Some(status) = status else {
        return done(
            false,
            format!("timeout after {}s", timeout.as_secs_f32()),
            None,
            output,
        );
    };
    let code = status.code();
    match code {
        Some(0) => match &pattern {
            Some(p) if !p.is_match(&stdout) => done(
                false,
                format!("output did not match /{}/", p.as_str()),
                code,
                output,
            ),
            _ => done(true, "ok".into(), code, output),
        },
        Some(127) => done(false, "not found".into(), code, output),
        Some(n) => done(false, format!("exit {n}"), code, output),
        None => done(false, "killed by a signal".into(), None, output),
    }
}

/// Run every check.
pub fn verify(checks: &[Check], dir: &Path, timeout: Duration) -> Verification {
    let results: Vec<CheckResult> = checks.iter().map(|c| run(c, dir, timeout)).collect();
    Verification {
        passed: results.iter().all(|r| r.passed),
        results,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cmd: &str, expect: Option<&str>) -> CheckResult {
        run(
            &Check {
                command: cmd.into(),
                source: "t".into(),
                expect: expect.map(str::to_owned),
            },
            Path::new("."),
            Duration::from_secs(2),
        )
    }

    #[test]
    fn outcomes() {
        assert_eq!(check("true", None).reason, "ok");
        assert_eq!(check("exit 3", None).reason, "exit 3");
        assert_eq!(
            check("definitely-not-a-command-xyz", None).reason,
            "not found"
        );
        assert!(check("echo hello", Some("^hel+o")).passed);
        assert!(
            check("echo hello", Some("bye"))
                .reason
                .starts_with("output did not match")
        );
        assert!(
            check("true", Some("("))
                .reason
                .starts_with("invalid pattern")
        );
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let started = Instant::now();
        let r = run(
            &Check {
                command: "sleep 30 & sleep 30; echo never".into(),
                source: "t".into(),
                expect: None,
            },
            Path::new("."),
            Duration::from_millis(300),
        );
        assert!(r.reason.starts_with("timeout"), "{r:?}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the background sleep was killed too"
        );
    }

    #[test]
    fn backticks() {
        assert_eq!(
            crate::model::task::backticked("run `cargo test` then `npm run lint`"),
            ["cargo test", "npm run lint"]
        );
    }
}
