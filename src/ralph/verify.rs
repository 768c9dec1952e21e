//! The behavioural verifier (the seed's `BehavioralVerifier`): run each
//! check with a timeout, judge it by exit code and an optional expected-output
//! regex, and always return a structured result — never panic, never hang.
//!
//! Checks come from a plan: each task's `<verify>` (`<automated>` commands,
//! else backticked spans), the plan's `<verification>` (backticked spans),
//! plus any given explicitly. Each is classified when it is read
//! ([`super::checks`]): a command runs under `sh -c` in its own process
//! group, so a timeout kills everything it started; a file or content check
//! whose text names it unambiguously is checked by gsd itself; anything else
//! (prose, identifiers, routes, SQL, placeholders) is not run, and neither
//! passes nor fails — it is the agent's to verify.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::doc::Span;
use crate::doc::elements::{self, Opaque};
use crate::model::Plan;

pub use super::checks::{CheckKind, Probe};
use super::checks::{Env, Found};

/// One check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Check {
    /// The check as the plan writes it: a command for `command` checks.
    pub command: String,
    /// Where it came from (`task 2`, `verification`, `--check`).
    pub source: String,
    /// A regex the output must match, when given (`<automated expect="…">`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<String>,
    /// What it is, decided once when it was read. A loop state written
    /// before checks had kinds has none: its checks are commands, as they
    /// were when that loop started.
    #[serde(default)]
    pub kind: CheckKind,
    /// What gsd checks instead of running the text (`file`, `content`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe: Option<Probe>,
    /// Why it is of its kind (shown when it is not run).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub why: String,
}

impl Check {
    /// A command to run as it is (`--check CMD`, pre-flight's own commands).
    pub fn command(command: impl Into<String>, source: impl Into<String>) -> Check {
        Check {
            command: command.into(),
            source: source.into(),
            expect: None,
            kind: CheckKind::Command,
            probe: None,
            why: String::new(),
        }
    }

    fn found(f: Found, source: &str, expect: Option<String>) -> Check {
        Check {
            command: f.text,
            source: source.to_owned(),
            expect: expect.filter(|_| f.class.kind == CheckKind::Command),
            kind: f.class.kind,
            probe: f.class.probe,
            why: f.class.why,
        }
    }

    /// Whether gsd runs it (as a command or as a probe).
    pub fn runs(&self) -> bool {
        self.kind == CheckKind::Command || self.probe.is_some()
    }

    /// What gsd does with it, in words (for reports).
    pub fn treatment(&self) -> String {
        match (&self.kind, &self.probe) {
            (CheckKind::Command, _) => "gsd runs it".into(),
            (_, Some(p)) => p.describe(),
            (_, None) => format!(
                "not run ({}): left to the agent's own verification",
                self.why
            ),
        }
    }

    /// The check as a shell command someone can run (the command itself, or
    /// a probe's equivalent); none when gsd does not run it.
    pub fn as_shell(&self) -> Option<String> {
        match (&self.kind, &self.probe) {
            (CheckKind::Command, _) => Some(self.command.clone()),
            (_, Some(p)) => Some(p.as_shell()),
            (_, None) => None,
        }
    }
}

/// How a check ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckResult {
    pub command: String,
    pub source: String,
    pub kind: CheckKind,
    /// Whether gsd ran it; one it did not run neither passed nor failed.
    pub ran: bool,
    pub passed: bool,
    /// `ok`, `exit N`, `timeout`, `not found`, `output did not match …`,
    /// `invalid pattern …`, `no such file: …`, `… does not contain …`, or for
    /// a check not run, `not run: …` with the reason.
    pub reason: String,
    pub exit_code: Option<i32>,
    pub duration_ms: u128,
    /// The last part of the output (stdout then stderr), for feeding back to an agent.
    pub output: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    /// Every check gsd ran passed (true when it could run none).
    pub passed: bool,
    /// The checks gsd ran.
    pub results: Vec<CheckResult>,
    /// The checks it did not run (not commands, nothing to check instead).
    pub not_run: Vec<CheckResult>,
}

/// The project a plan belongs to: the folder holding its `.planning/`.
fn project_root(plan: &Plan) -> std::path::PathBuf {
    let path = plan.doc.path();
    path.ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == ".planning"))
        .and_then(Path::parent)
        .or_else(|| path.parent())
        .unwrap_or(Path::new("."))
        .to_path_buf()
}

/// The checks a plan declares, each classified (see [`super::checks`]),
/// with its project's scripts and this process's PATH as evidence.
pub fn plan_checks(plan: &Plan) -> Vec<Check> {
    plan_checks_with(plan, &Env::new(&project_root(plan)))
}

/// [`plan_checks`] with the evidence given (the corpus table uses no PATH,
/// so its figures are the same on every machine).
pub fn plan_checks_with(plan: &Plan, env: &Env) -> Vec<Check> {
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
            for f in super::checks::from_block(&v.content, env) {
                checks.push(Check::found(f, &source, None));
            }
        } else {
            for e in automated {
                let attrs = elements::attributes(e.attr_text(text));
                let expect = attrs
                    .into_iter()
                    .find(|(k, _)| k == "expect")
                    .map(|(_, v)| v);
                let command = e.content.slice(text).trim();
                if command.is_empty() {
                    continue;
                }
                for f in super::checks::from_automated(command, env) {
                    checks.push(Check::found(f, &source, expect.clone()));
                }
            }
        }
    }
    if let Some(v) = plan.section_text("verification") {
        for f in super::checks::from_block(v, env) {
            checks.push(Check::found(f, "verification", None));
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

/// Run one check in `dir` with a timeout: a command under `sh -c`, a probe
/// by gsd itself; any other check is not run.
pub fn run(check: &Check, dir: &Path, timeout: Duration) -> CheckResult {
    if check.kind == CheckKind::Command {
        return run_with_env(check, dir, timeout, &[]);
    }
    let started = Instant::now();
    let done = |ran: bool, passed: bool, reason: String| CheckResult {
        command: check.command.clone(),
        source: check.source.clone(),
        kind: check.kind,
        ran,
        passed,
        reason,
        exit_code: None,
        duration_ms: started.elapsed().as_millis(),
        output: String::new(),
    };
    match &check.probe {
        Some(p) => match p.check(dir) {
            Ok(()) => done(true, true, "ok".into()),
            Err(why) => done(true, false, why),
        },
        None => done(
            false,
            false,
            format!("not run: {} ({})", check.kind, check.why),
        ),
    }
}

/// Run `check` as a shell command, with extra environment variables (how
/// the guidance command gets the error it is asked about).
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
        kind: CheckKind::Command,
        ran: true,
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

/// Run every check gsd can run. A check it cannot run (prose, a route…)
/// neither passes nor fails: with nothing but such checks, the verification
/// passes, so a loop on them ends when the agent claims the promise.
pub fn verify(checks: &[Check], dir: &Path, timeout: Duration) -> Verification {
    let (results, not_run): (Vec<CheckResult>, Vec<CheckResult>) = checks
        .iter()
        .map(|c| run(c, dir, timeout))
        .partition(|r| r.ran);
    Verification {
        passed: results.iter().all(|r| r.passed),
        results,
        not_run,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(cmd: &str, expect: Option<&str>) -> CheckResult {
        run(
            &Check {
                expect: expect.map(str::to_owned),
                ..Check::command(cmd, "t")
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
            &Check::command("sleep 30 & sleep 30; echo never", "t"),
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
