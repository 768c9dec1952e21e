//! One real GSD workflow step, end to end, answered by gsd: the real Claude
//! Code CLI with GSD's own commands installed (get-shit-done-cc 1.42.3's
//! installer, into a temporary HOME), `/gsd-pause-work` typed as a user
//! would, and the scripted mock model issuing the Bash and Write calls that
//! workflow makes (`gsd-sdk query current-timestamp full --raw`, the handoff
//! files, `gsd-sdk query commit … --files …`). `gsd sdk install-shim` puts
//! gsd's `gsd-sdk` ahead of the one the installer wrote. The mock's request
//! log shows the tool results coming from gsd, and the repository ends with
//! one commit of exactly the two handoff files while the user's own staged
//! file stays staged.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::claude_cli::{claude_bin, claude_command, run_prompt};
use common::git;
use common::mock_model::{MockModel, Reply, assistant_turns, first_user_text, last_user_text};
use serde_json::{Value, json};

fn package() -> std::path::PathBuf {
    std::path::PathBuf::from(std::env::var_os("GSD_SDK").expect("GSD_SDK"))
}

#[test]
#[cfg_attr(
    not(all(gsd_claude, gsd_sdk)),
    ignore = "needs the Claude Code CLI (GSD_CLAUDE) and gsd-sdk 1.42.3 (GSD_SDK), from .ci/test"
)]
fn claude_runs_gsd_pause_work_against_gsd() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&home).unwrap();

    // GSD's commands, agents and its own gsd-sdk link, as a user installs them.
    let install = Command::new("node")
        .arg(package().join("bin/install.js"))
        .args(["--claude", "--global"])
        .env("HOME", &home)
        .current_dir(&home)
        .output()
        .unwrap();
    assert!(
        install.status.success(),
        "{}",
        String::from_utf8_lossy(&install.stderr)
    );
    let skill = home.join(".claude/skills/gsd-pause-work/SKILL.md");
    assert!(
        skill.exists(),
        "the installer wrote GSD's pause-work command"
    );
    let npm_link = home.join(".local/bin/gsd-sdk");
    assert!(npm_link.exists(), "the installer wrote its own gsd-sdk");

    // gsd's link, first on PATH.
    let path = format!(
        "{}:{}:{}",
        bin.display(),
        home.join(".local/bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let shim = Command::new(env!("CARGO_BIN_EXE_gsd"))
        .args(["sdk", "install-shim", bin.to_str().unwrap(), "--json"])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        shim.status.success(),
        "{}",
        String::from_utf8_lossy(&shim.stderr)
    );
    let shim: Value = serde_json::from_slice(&shim.stdout).unwrap();
    assert_eq!(shim["active"], true, "{shim}");
    assert_eq!(
        shim["npm_gsd_sdk"],
        json!(npm_link.display().to_string()),
        "{shim}"
    );

    // A project in the middle of phase 1, with the user's own work staged.
    common::copy_dir(&common::fixture("clean"), &project);
    git(&project, &["init", "-q"]);
    git(&project, &["add", "-A"]);
    git(
        &project,
        &[
            "-c",
            "user.name=u",
            "-c",
            "user.email=u@u",
            "commit",
            "-qm",
            "project",
        ],
    );
    std::fs::write(project.join("notes.txt"), "the user's staged work\n").unwrap();
    git(&project, &["add", "notes.txt"]);
    let phase_dir = std::fs::read_dir(project.join(".planning/phases"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .min()
        .unwrap();
    let continue_here = format!(".planning/phases/{phase_dir}/.continue-here.md");

    let timestamp = Arc::new(Mutex::new(String::new()));
    let ts = timestamp.clone();
    let (project_s, continue_s) = (project.clone(), continue_here.clone());
    let mock = MockModel::start(move |req| {
        // Only the main conversation follows the script (Claude Code also
        // asks the model for short titles and summaries).
        if !first_user_text(req).contains("Create `.continue-here.md` handoff file") {
            return Reply::text("ok");
        }
        match assistant_turns(req) {
            0 => Reply::bash("command -v gsd-sdk && readlink -f \"$(command -v gsd-sdk)\""),
            1 => Reply::bash(
                "timestamp=$(gsd-sdk query current-timestamp full --raw) && echo \"$timestamp\"",
            ),
            2 => {
                // gsd-sdk prints `{"timestamp": …}` even with --raw; so does gsd.
                let answer: Value =
                    serde_json::from_str(last_user_text(req).trim()).unwrap_or_default();
                let t = answer["timestamp"].as_str().unwrap_or("").to_string();
                *ts.lock().unwrap() = t.clone();
                Reply::write(
                    &project_s.join(".planning/HANDOFF.json"),
                    &format!(
                        "{{\n  \"version\": \"1.0\",\n  \"timestamp\": \"{t}\",\n  \"phase\": \"1\"\n}}\n"
                    ),
                )
            }
            3 => Reply::write(
                &project_s.join(&continue_s),
                "---\nphase: 1\nstatus: paused\n---\n\n<current_state>\nPaused by the end-to-end test.\n</current_state>\n",
            ),
            4 => Reply::bash(&format!(
                "gsd-sdk query commit \"wip: phase 1 paused at 1/2\" --files {continue_s} .planning/HANDOFF.json"
            )),
            _ => Reply::text("Paused. Resume with /gsd-resume-work."),
        }
    });

    let mut c = claude_command(&claude_bin(), &project, &home, &mock.url);
    c.env("PATH", &path).args(["--allowedTools", "Bash"]);
    let out = run_prompt(c, "/gsd-pause-work", Duration::from_secs(180));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "claude failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // What the model was told, turn by turn: gsd's answers.
    let log = mock.requests();
    let main: Vec<&Value> = log
        .iter()
        .filter(|r| first_user_text(r).contains("Create `.continue-here.md` handoff file"))
        .collect();
    let result_after = |turns: usize| {
        main.iter()
            .find(|r| assistant_turns(r) == turns)
            .map(|r| last_user_text(r))
            .unwrap_or_else(|| panic!("no request after turn {turns}: {stdout}"))
    };
    let which = result_after(1);
    let gsd = std::fs::canonicalize(env!("CARGO_BIN_EXE_gsd")).unwrap();
    assert!(
        which.contains(&bin.join("gsd-sdk").display().to_string()),
        "{which}"
    );
    assert!(
        which.contains(&gsd.display().to_string()),
        "gsd-sdk is gsd: {which}"
    );
    let stamp: Value = serde_json::from_str(result_after(2).trim()).expect("timestamp JSON");
    let stamp = stamp["timestamp"].as_str().unwrap_or("");
    assert!(
        stamp.len() == 24 && stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T',
        "an ISO timestamp, as gsd-sdk prints it: {stamp}"
    );
    let mut want = vec![".planning/HANDOFF.json".to_string(), continue_here.clone()];
    want.sort();
    let committed: Value = serde_json::from_str(result_after(5).trim()).expect("commit JSON");
    assert_eq!(committed["committed"], true, "{committed}");
    assert_eq!(committed["files"], json!(want), "{committed}");

    eprintln!("gsd-sdk on PATH:\n{which}\ntimestamp: {stamp}\ncommit: {committed}");

    // The tree: one commit of exactly the handoff files; the user's file still staged.
    let head = git(&project, &["show", "--name-only", "--format=%s", "HEAD"]);
    let mut lines: Vec<&str> = head.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.remove(0), "wip: phase 1 paused at 1/2");
    lines.sort();
    assert_eq!(lines, want);
    assert_eq!(
        git(&project, &["diff", "--cached", "--name-only"]).trim(),
        "notes.txt"
    );
    let handoff = std::fs::read_to_string(project.join(".planning/HANDOFF.json")).unwrap();
    assert!(handoff.contains(&*timestamp.lock().unwrap()), "{handoff}");
    assert!(Path::new(&project.join(&continue_here)).exists());
}
