//! No agent outlives gsd. An agent runs in a process group of its own (so a
//! terminal's Ctrl+C reaches gsd, which decides, and a timeout can end
//! everything the agent started); gsd ends that group on every way gsd
//! ends on its own. For the ways it cannot — SIGKILL, a crash, the OOM
//! killer — each group gets a watcher: a small `sh` in a session of its
//! own that reads a pipe only gsd holds. When gsd is gone the pipe closes,
//! and the watcher kills the whole group. When the agent ends normally gsd
//! writes `done` first and the watcher leaves quietly.
//!
//! `PR_SET_PDEATHSIG` alone would not do: it reaches only the direct child,
//! never the test runner or language server the agent started, and it
//! fires when the spawning *thread* exits, not the process.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};

/// The watcher of one process group; [`Reaper::release`] (or dropping it)
/// tells it the group ended normally.
pub struct Reaper {
    child: Child,
    pipe: Option<ChildStdin>,
}

/// The watcher's script: a line `done` releases it; end of input without
/// it means gsd died, and the group goes. `$1` is the group id (no `--`: dash, which is `sh` on Debian, takes `--` for a number).
const SCRIPT: &str = r#"trap '' INT HUP TERM
if IFS= read -r line && [ "$line" = done ]; then exit 0; fi
kill -KILL "-$1" 2>/dev/null
exit 0"#;

impl Reaper {
    /// Watch process group `pgid`. `None` when no watcher could start (no
    /// `sh`): the group is then ended only by gsd's own paths.
    pub fn watch(pgid: i32) -> Option<Reaper> {
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", SCRIPT, "gsd-reaper", &pgid.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: setsid is async-signal-safe; in a session of its own the
        // watcher gets neither the terminal's SIGINT nor its SIGHUP.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
        let mut child = cmd.spawn().ok()?;
        let pipe = child.stdin.take();
        Some(Reaper { child, pipe })
    }

    /// The group ended (or gsd ended it): the watcher leaves without
    /// killing anything.
    pub fn release(mut self) {
        self.finish();
    }

    fn finish(&mut self) {
        if let Some(mut p) = self.pipe.take() {
            let _ = p.write_all(b"done\n");
        }
        let _ = self.child.wait();
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn alive(pid: i32) -> bool {
        // SAFETY: signal 0 only asks whether the process exists.
        unsafe { libc::kill(pid, 0) == 0 }
    }

    fn group_of_sleepers() -> Child {
        let mut c = Command::new("sh");
        c.args(["-c", "sleep 30 & sleep 30; wait"]).process_group(0);
        c.spawn().unwrap()
    }

    #[test]
    fn a_released_watcher_kills_nothing() {
        let mut g = group_of_sleepers();
        let pid = g.id() as i32;
        let r = Reaper::watch(pid).unwrap();
        r.release();
        std::thread::sleep(Duration::from_millis(100));
        assert!(alive(pid));
        // SAFETY: the test's own group.
        unsafe { libc::killpg(pid, libc::SIGKILL) };
        let _ = g.wait();
    }

    #[test]
    fn a_closed_pipe_kills_the_whole_group() {
        let mut g = group_of_sleepers();
        let pid = g.id() as i32;
        let mut r = Reaper::watch(pid).unwrap();
        // gsd dying closes the pipe without `done`.
        drop(r.pipe.take());
        let _ = r.child.wait();
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if g.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(g.try_wait().unwrap().is_some(), "the leader was killed");
        // No member of the group still runs (a killed orphan may linger
        // as a zombie until the machine's init reaps it).
        let t = Instant::now();
        while !running_in_group(pid).is_empty() && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(
            running_in_group(pid),
            Vec::<i32>::new(),
            "no member of the group is left"
        );
    }

    /// The processes of group `pgid` that are not zombies, from /proc.
    fn running_in_group(pgid: i32) -> Vec<i32> {
        let mut out = Vec::new();
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
                continue;
            };
            // After the command's closing parenthesis: state, ppid, pgrp.
            let Some((_, rest)) = stat.rsplit_once(") ") else {
                continue;
            };
            let f: Vec<&str> = rest.split_whitespace().collect();
            if f.len() > 2 && f[0] != "Z" && f[2] == pgid.to_string() {
                out.push(e.file_name().to_string_lossy().parse().unwrap_or(0));
            }
        }
        out
    }
}
