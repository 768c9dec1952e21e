//! No agent outlives gsd, and a stopped run resumes. A phase of three
//! plans from `git init` + `gsd init`, with an agent that leaves a
//! background child running and checks that take a while: SIGINT at 20
//! moments spread over the run (during agents, checks and bookkeeping),
//! then SIGHUP, then SIGKILL of gsd. After each, the process table holds
//! nothing the agent started, and running the phase again finishes it.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// Plan `01-NN` writing `work/FILE`; its check takes 0.3 s.
fn plan(n: &str, file: &str) -> String {
    let check = format!("sleep 0.3 && test -s work/{file}");
    work_plan("01-foundation", n, 1, "[]", file, "[]", Some(&check))
}

fn project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["config", "user.email", "user@example.com"]);
    git(d, &["config", "user.name", "User"]);
    assert_eq!(gsd(d, &["init"]).status.code(), Some(0));
    let dir = d.join(".planning/phases/01-foundation");
    for (n, f) in [("01", "a.txt"), ("02", "b.txt"), ("03", "c.txt")] {
        std::fs::write(dir.join(format!("01-{n}-PLAN.md")), plan(n, f)).unwrap();
    }
    std::fs::remove_file(dir.join(".gitkeep")).unwrap();
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "plans"]);
    t
}

/// An agent that starts a background child named by `marker` (so the
/// process table shows whose it is), works for 0.4 s, writes its file and
/// claims the promise, never committing.
fn agent(scratch: &Path, marker: &str) -> String {
    let path = scratch.join("agent.sh");
    std::fs::write(
        &path,
        format!(
            "cat > /dev/null\n\
             sh -c 'sleep 30' {marker} &\n\
             sleep 0.4\n\
             case $GSD_PLAN in 01-01) f=a.txt ;; 01-02) f=b.txt ;; *) f=c.txt ;; esac\n\
             mkdir -p work; echo \"$GSD_PLAN\" > work/$f\n\
             echo '{{\"type\":\"result\",\"result\":\"done <promise>DONE</promise>\",\"total_cost_usd\":0.01}}'\n"
        ),
    )
    .unwrap();
    format!("sh {}", path.display())
}

fn start(dir: &Path, agent: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gsd"))
        .arg("-C")
        .arg(dir)
        .args([
            "ralph",
            "run",
            "--phase",
            "1",
            "--headless",
            "--max-iterations",
            "5",
            "--agent-cmd",
            agent,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Processes whose command line holds `marker`.
fn with_marker(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if cmd.contains(marker) {
            // A zombie still listed is gone for good; only running ones count.
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            if !stat.contains(") Z ") {
                found.push(format!("{}: {cmd}", e.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// No process of the agent's is left (the watcher may need a moment after
/// a SIGKILL).
fn assert_no_orphans(marker: &str, what: &str) {
    let t = Instant::now();
    loop {
        let left = with_marker(marker);
        if left.is_empty() {
            return;
        }
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{what}: the agent's processes outlived gsd: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait(mut c: Child) -> (Option<i32>, String) {
    let t = Instant::now();
    loop {
        if let Some(st) = c.try_wait().unwrap() {
            let mut out = String::new();
            use std::io::Read;
            let _ = c.stdout.take().unwrap().read_to_string(&mut out);
            return (st.code(), out);
        }
        assert!(t.elapsed() < Duration::from_secs(120), "gsd did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn complete(d: &Path) -> bool {
    ["01", "02", "03"].iter().all(|n| {
        d.join(format!(".planning/phases/01-foundation/01-{n}-SUMMARY.md"))
            .is_file()
    })
}

/// Run the phase again until it says it is done; it must get there.
fn resume_to_the_end(d: &Path, agent: &str, marker: &str) {
    for _ in 0..4 {
        let (code, out) = wait(start(d, agent));
        assert_no_orphans(marker, "a resumed run");
        if code == Some(0) {
            assert!(complete(d), "{out}");
            for f in ["a.txt", "b.txt", "c.txt"] {
                assert!(d.join("work").join(f).is_file(), "{f}");
            }
            assert_eq!(git(d, &["status", "--porcelain"]), "");
            return;
        }
    }
    panic!("the phase did not finish after a stop");
}

#[test]
fn sigint_at_twenty_moments_leaves_no_agent_and_the_phase_resumes() {
    let scratch = tempfile::tempdir().unwrap();
    let marker = format!("gsd-agent-child-{}", std::process::id());
    let a = agent(scratch.path(), &marker);
    // Moments spread over a run of ~2.5 s (three plans of a 0.4 s agent,
    // 0.3 s checks and the bookkeeping commits), by a fixed rule.
    let moments: Vec<u64> = (0..20).map(|i| 60 + (i * 137) % 2300).collect();
    let mut t = project();
    let mut interrupted = 0;
    for ms in moments {
        if complete(t.path()) {
            t = project();
        }
        let c = start(t.path(), &a);
        std::thread::sleep(Duration::from_millis(ms));
        // SAFETY: signalling the child we spawned.
        unsafe { libc::kill(c.id() as i32, libc::SIGINT) };
        let (code, out) = wait(c);
        // Killed by the signal itself only before gsd had started anything.
        assert!(
            matches!(code, Some(130) | Some(0)) || (code.is_none() && out.is_empty()),
            "at {ms} ms: exit {code:?}\n{out}"
        );
        if code == Some(130) {
            interrupted += 1;
            let last = out.lines().last().unwrap_or_default();
            assert!(
                last.contains("\"phase_done\"") || last.contains("\"failed\""),
                "at {ms} ms: {last}"
            );
        }
        assert_no_orphans(&marker, &format!("SIGINT at {ms} ms"));
        resume_to_the_end(t.path(), &a, &marker);
    }
    assert!(
        interrupted >= 15,
        "only {interrupted} of 20 stops landed mid-run"
    );
}

#[test]
fn sighup_and_sigkill_leave_no_agent_and_the_phase_resumes() {
    let scratch = tempfile::tempdir().unwrap();
    let marker = format!("gsd-agent-hup-kill-{}", std::process::id());
    let a = agent(scratch.path(), &marker);
    for (sig, name) in [(libc::SIGHUP, "SIGHUP"), (libc::SIGKILL, "SIGKILL")] {
        let t = project();
        let c = start(t.path(), &a);
        // Once an agent runs.
        let t0 = Instant::now();
        while with_marker(&marker).is_empty() {
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "{name}: no agent ran"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: signalling the child we spawned.
        unsafe { libc::kill(c.id() as i32, sig) };
        let (code, _) = wait(c);
        if sig == libc::SIGHUP {
            assert_eq!(code, Some(130), "{name}");
        }
        assert_no_orphans(&marker, name);
        if sig == libc::SIGKILL {
            // The loop gsd left "active" names --resume, and a phase run
            // takes it up.
            let o = gsd(
                t.path(),
                &["ralph", "run", "01-01", "--headless", "--agent-cmd", &a],
            );
            assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
            assert!(
                stdout(&o).contains("left active by a gsd that is gone")
                    && stdout(&o).contains("gsd ralph run --resume"),
                "{}",
                stdout(&o)
            );
        }
        resume_to_the_end(t.path(), &a, &marker);
    }
}
