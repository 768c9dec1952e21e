//! `gsd_run run-with-timeout SECONDS [--] COMMAND [ARGS…]`: GSD Core's
//! portable wall-clock cap on a command (its workflows' test and audit gates
//! call it instead of GNU `timeout`, which stock macOS lacks).
//!
//! The contract is GNU `timeout`'s, as gsd-tools 1.14.0 keeps it: the
//! command's own exit code; 124 when the budget runs out (the command's
//! process group gets SIGTERM, then SIGKILL 3 s later); 128 + the signal when
//! a signal ended it; 127 / 126 when it cannot be started (not found / not
//! executable), 125 for any other start failure; 2 with a usage message for
//! bad arguments; `0` seconds runs it with no timer. Its stdio is the
//! caller's, so pipes and redirects work, and the command's argv is opaque —
//! `--raw` or `--cwd` after the seconds belong to the command.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The command's canonical name.
pub const COMMAND: &str = "run-with-timeout";

const USAGE: &str = "Usage: gsd_run run-with-timeout <seconds> [--] <command> [args...]";

/// How long a command that ignores SIGTERM has before SIGKILL.
const ESCALATION: Duration = Duration::from_secs(3);

/// How often the clock and the caller's signals are looked at.
const TICK: Duration = Duration::from_millis(10);

/// The longest budget gsd-tools' timer can hold (a 32-bit count of ms).
const LONGEST_MS: u64 = (1 << 31) - 1;

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The command exited with this code.
    Exited(i32),
    /// A signal (this number) ended the command.
    Signalled(i32),
    /// The budget ran out and the command's group was stopped.
    TimedOut,
    /// The command could not be started: gsd-tools' message and exit code.
    NotStarted { message: String, code: i32 },
    /// The arguments are wrong: what is wrong.
    Usage(String),
}

impl Outcome {
    /// The exit code gsd-tools ends with.
    pub fn code(&self) -> i32 {
        match self {
            Outcome::Exited(c) => *c,
            Outcome::Signalled(s) => 128 + s,
            Outcome::TimedOut => 124,
            Outcome::NotStarted { code, .. } => *code,
            Outcome::Usage(_) => 2,
        }
    }

    /// What gsd-tools prints on stderr, if anything.
    pub fn message(&self) -> Option<String> {
        match self {
            Outcome::NotStarted { message, .. } => Some(message.clone()),
            Outcome::Usage(why) => Some(format!("{COMMAND}: {why}\n{USAGE}")),
            _ => None,
        }
    }
}

/// The wrapped argv when `argv` (a `gsd_run` command line) is a
/// run-with-timeout call, which gsd-tools takes before any other global flag:
/// after the first `--json-errors` and every `--exit-contract=…` are taken out
/// of the whole line (even the command's part), and a leading `query`.
/// gsd's own `--no-fallback` is taken out only before the command name.
pub fn intercepted(argv: &[String]) -> Option<Vec<String>> {
    let mut args: Vec<String> = argv.to_vec();
    if let Some(i) = args.iter().position(|a| a == "--json-errors") {
        args.remove(i);
    }
    args.retain(|a| !a.starts_with("--exit-contract="));
    let mut rest: &[String] = &args;
    if rest.first().is_some_and(|a| a == "--no-fallback") {
        rest = &rest[1..];
    }
    if rest.first().is_some_and(|a| a == "query") {
        rest = &rest[1..];
    }
    match rest.split_first() {
        Some((name, wrapped)) if name == COMMAND => Some(wrapped.to_vec()),
        _ => None,
    }
}

/// `SECONDS` as gsd-tools reads it: trimmed, one trailing `s` dropped, then a
/// JavaScript number (so `0x10`, `1e1` and `.5` are numbers); `Ok(None)` for
/// `0` (no timer). Blank, negative, infinite or not a number is a usage error.
pub fn budget(raw: &str) -> Result<Option<Duration>, String> {
    let text = raw.trim();
    let text = text.strip_suffix('s').unwrap_or(text);
    let secs =
        Some(super::js::number(text)).filter(|s| !text.is_empty() && s.is_finite() && *s >= 0.0);
    let Some(secs) = secs else {
        return Err(format!("invalid <seconds>: {raw}"));
    };
    if secs == 0.0 {
        return Ok(None);
    }
    // Node's timer waits at least 1 ms.
    let ms = (secs * 1000.0).round().clamp(1.0, LONGEST_MS as f64) as u64;
    Ok(Some(Duration::from_millis(ms)))
}

/// Run the wrapped argv (`SECONDS [--] COMMAND [ARGS…]`) to its end.
pub fn run(wrapped: &[String]) -> Outcome {
    let Some(raw) = wrapped.first() else {
        return Outcome::Usage("missing <seconds>".into());
    };
    let budget = match budget(raw) {
        Ok(b) => b,
        Err(why) => return Outcome::Usage(why),
    };
    let mut i = 1;
    if wrapped.get(i).is_some_and(|a| a == "--") {
        i += 1;
    }
    let Some(program) = wrapped.get(i) else {
        return Outcome::Usage("missing <command>".into());
    };
    if program.is_empty() {
        // Node's own refusal, before anything is started.
        return Outcome::NotStarted {
            message: format!("{COMMAND}: : The argument 'file' cannot be empty. Received ''"),
            code: 125,
        };
    }
    let args = &wrapped[i + 1..];
    // Its own process group when timed, so the whole tree can be stopped
    // (a test runner's workers, not just the runner).
    let grouped = budget.is_some();
    let command = |program: &str, pre: Option<&Path>| {
        let mut c = Command::new(program);
        c.args(pre).args(args);
        if grouped {
            c.process_group(0);
        }
        c
    };
    // Registered before the spawn, so an interrupt cannot fall between.
    let interrupted = Interrupts::register();
    let spawned = match command(program, None).spawn() {
        // An executable with no `#!` line: run by the shell, as execvp (and
        // so Node) does.
        Err(e) if e.raw_os_error() == Some(libc::ENOEXEC) => match located(program) {
            Some(script) => command("/bin/sh", Some(&script)).spawn(),
            None => Err(e),
        },
        other => other,
    };
    match spawned {
        Ok(child) => supervise(child, grouped, budget, &interrupted),
        Err(e) => not_started(program, &e),
    }
}

/// Where `program` is: itself when it names a path, else the first
/// executable file of that name on PATH.
fn located(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| {
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// gsd-tools' message and code for a command that did not start.
fn not_started(program: &str, e: &std::io::Error) -> Outcome {
    let (name, code) = match e.raw_os_error() {
        Some(libc::ENOENT) => ("ENOENT", 127),
        Some(libc::EACCES) => ("EACCES", 126),
        Some(libc::ENOEXEC) => ("ENOEXEC", 125),
        Some(libc::ENOTDIR) => ("ENOTDIR", 125),
        Some(libc::E2BIG) => ("E2BIG", 125),
        _ => ("UNKNOWN", 125),
    };
    Outcome::NotStarted {
        message: format!("{COMMAND}: {program}: spawn {program} {name}"),
        code,
    }
}

/// SIGINT and SIGTERM to gsd while the command runs: passed on to the
/// command's group (GNU `timeout` forwards them), never left to end gsd
/// and orphan the command.
struct Interrupts {
    got: Vec<(i32, Arc<AtomicBool>)>,
}

impl Interrupts {
    fn register() -> Self {
        let got = [libc::SIGINT, libc::SIGTERM]
            .into_iter()
            .filter_map(|sig| {
                let flag = Arc::new(AtomicBool::new(false));
                signal_hook::flag::register(sig, Arc::clone(&flag))
                    .ok()
                    .map(|_| (sig, flag))
            })
            .collect();
        Interrupts { got }
    }

    /// A signal received since the last call.
    fn take(&self) -> Option<i32> {
        self.got
            .iter()
            .find(|(_, flag)| flag.swap(false, Ordering::SeqCst))
            .map(|(sig, _)| *sig)
    }
}

fn supervise(
    mut child: Child,
    grouped: bool,
    budget: Option<Duration>,
    interrupts: &Interrupts,
) -> Outcome {
    let started = Instant::now();
    let pid = child.id() as i32;
    let signal = |sig: i32| {
        // SAFETY: signals sent to the child we spawned, or to the process
        // group it leads (created for it by `process_group(0)`).
        unsafe {
            if !(grouped && libc::killpg(pid, sig) == 0) {
                libc::kill(pid, sig);
            }
        }
    };
    // Waited for on a thread of its own, so its end is seen at once; the
    // loop below only wakes to keep the clock and pass signals on.
    let (ended, end) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = ended.send(child.wait());
    });
    let mut timed_out = false;
    let mut escalate_at: Option<Instant> = None;
    loop {
        // Woken at the deadline itself, so even a 1 ms budget is kept.
        let wait = match budget {
            Some(b) if !timed_out => b.saturating_sub(started.elapsed()).min(TICK),
            _ => TICK,
        };
        match end.recv_timeout(wait) {
            Ok(Ok(status)) => {
                if timed_out {
                    // A descendant that trapped SIGTERM may still hold the
                    // caller's stdio: stop the whole group before returning.
                    signal(libc::SIGKILL);
                    return Outcome::TimedOut;
                }
                return match (status.code(), status.signal()) {
                    (Some(code), _) => Outcome::Exited(code),
                    (None, Some(sig)) => Outcome::Signalled(sig),
                    (None, None) => Outcome::Exited(1),
                };
            }
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => return Outcome::Exited(1),
            Err(RecvTimeoutError::Timeout) => {}
        }
        let now = Instant::now();
        if !timed_out && budget.is_some_and(|b| now.duration_since(started) >= b) {
            timed_out = true;
            signal(libc::SIGTERM);
            escalate_at.get_or_insert(now + ESCALATION);
        }
        if let Some(sig) = interrupts.take() {
            signal(sig);
            escalate_at.get_or_insert(now + ESCALATION);
        }
        if escalate_at.is_some_and(|at| now >= at) {
            signal(libc::SIGKILL);
            escalate_at = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn seconds_are_read_as_gsd_tools_reads_them() {
        let ms = |raw: &str| budget(raw).map(|b| b.map(|d| d.as_millis()));
        assert_eq!(ms("5"), Ok(Some(5000)));
        assert_eq!(ms(" 2s "), Ok(Some(2000)));
        assert_eq!(ms(".5s"), Ok(Some(500)));
        assert_eq!(ms("1e0"), Ok(Some(1000)));
        assert_eq!(ms("0x2"), Ok(Some(2000)));
        assert_eq!(ms("0"), Ok(None));
        assert_eq!(ms("0.0004"), Ok(Some(1)));
        assert_eq!(ms("-0"), Ok(None));
        assert_eq!(ms("99999999"), Ok(Some(LONGEST_MS as u128)));
        for bad in [
            "", " ", "s", "abc", "-1", "Infinity", "inf", "nan", "5ss", "-0x2", "1_0",
        ] {
            assert_eq!(ms(bad), Err(format!("invalid <seconds>: {bad}")), "{bad:?}");
        }
    }

    #[test]
    fn only_a_leading_run_with_timeout_is_taken() {
        assert_eq!(
            intercepted(&argv(&["query", "run-with-timeout", "1", "echo", "--raw"])),
            Some(argv(&["1", "echo", "--raw"]))
        );
        assert_eq!(
            intercepted(&argv(&[
                "--exit-contract=v2",
                "run-with-timeout",
                "1",
                "echo",
                "--json-errors",
                "x"
            ])),
            Some(argv(&["1", "echo", "x"]))
        );
        assert_eq!(
            intercepted(&argv(&[
                "--no-fallback",
                "run-with-timeout",
                "1",
                "x",
                "--no-fallback"
            ])),
            Some(argv(&["1", "x", "--no-fallback"]))
        );
        assert_eq!(
            intercepted(&argv(&["--raw", "run-with-timeout", "1", "x"])),
            None
        );
        assert_eq!(
            intercepted(&argv(&["config-get", "run-with-timeout"])),
            None
        );
    }

    #[test]
    fn exit_codes_follow_gnu_timeout() {
        let run_ = |s: &[&str]| run(&argv(s));
        assert_eq!(run_(&["5", "sh", "-c", "exit 3"]), Outcome::Exited(3));
        assert_eq!(run_(&["0", "--", "true"]), Outcome::Exited(0));
        assert_eq!(run_(&["0.2", "sleep", "5"]), Outcome::TimedOut);
        assert_eq!(run_(&["5", "sh", "-c", "kill -9 $$"]).code(), 137);
        assert_eq!(run_(&["5", "/nonexistent/gsd-x"]).code(), 127);
        assert_eq!(run_(&["5", "/"]).code(), 126);
        assert_eq!(run_(&["5"]), Outcome::Usage("missing <command>".into()));
        assert_eq!(run_(&["5", "--"]).code(), 2);
        assert_eq!(run_(&[]).code(), 2);
    }
}
