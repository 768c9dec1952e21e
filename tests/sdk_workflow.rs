//! One real GSD workflow step, end to end, answered by gsd, for each of the
//! two GSD packages gsd answers for: the real Claude Code CLI with the
//! package's commands installed by its own installer into a temporary HOME,
//! `/gsd-pause-work` typed as a user would, and the scripted mock model
//! issuing the Bash and Write calls that workflow makes (the timestamp, the
//! handoff files, the commit of exactly those files). `gsd sdk install-shim`
//! puts gsd's `gsd-sdk` (get-shit-done-cc 1.42.3) or `gsd_run` (GSD Core
//! 1.14.0, whose workflows find it on PATH ahead of the installed
//! `gsd-tools.cjs`) first. The mock's request log shows the tool results
//! coming from gsd, and the repository ends with one commit of exactly the
//! two handoff files while the user's own staged file stays staged.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::claude_cli::{claude_bin, claude_command, run_prompt};
use common::git;
use common::mock_model::{MockModel, Reply, assistant_turns, first_user_text, last_user_text};
use serde_json::{Value, json};

/// What the pause-work skill's first message says, in both packages: the
/// main conversation (Claude Code also asks the model for titles).
const PAUSE_WORK: &str = "Create `.continue-here.md` handoff file";

/// A temporary HOME with `package`'s commands installed by its installer
/// for Claude Code, a project in the middle of phase 1 with the user's own
/// work staged, and gsd's links placed in `bin`, first on PATH.
struct Setup {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    bin: PathBuf,
    path: String,
    /// `.planning/phases/<first>/.continue-here.md`.
    continue_here: String,
    /// `gsd sdk install-shim --json`'s answer.
    shim: Value,
    /// More environment for Claude Code and the commands it runs.
    env: Vec<(&'static str, &'static str)>,
}

fn setup(package: &Path, skill: &str) -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&home).unwrap();

    // GSD's commands and agents, as a user installs them.
    let install = Command::new("node")
        .arg(package.join("bin/install.js"))
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
    assert!(
        home.join(format!(".claude/skills/{skill}/SKILL.md"))
            .exists(),
        "the installer wrote GSD's {skill} command"
    );

    // gsd's links, first on PATH.
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
    Setup {
        continue_here: format!(".planning/phases/{phase_dir}/.continue-here.md"),
        _tmp: tmp,
        home,
        project,
        bin,
        path,
        shim,
        env: Vec::new(),
    }
}

/// The handoff file the script writes at turn 2, with the timestamp gsd gave.
fn handoff_json(t: &str) -> String {
    format!("{{\n  \"version\": \"1.0\",\n  \"timestamp\": \"{t}\",\n  \"phase\": \"1\"\n}}\n")
}

const CONTINUE_HERE: &str = "---\nphase: 1\nstatus: paused\n---\n\n<current_state>\nPaused by the end-to-end test.\n</current_state>\n";

/// Run `/gsd-pause-work` with the script; the main conversation's requests.
fn run_pause_work(
    s: &Setup,
    script: impl Fn(&Value) -> Reply + Send + Sync + 'static,
) -> (Vec<Value>, String) {
    let mock = MockModel::start(move |req| {
        if !first_user_text(req).contains(PAUSE_WORK) {
            return Reply::text("ok");
        }
        script(req)
    });
    let mut c = claude_command(&claude_bin(), &s.project, &s.home, &mock.url);
    c.env("PATH", &s.path)
        .envs(s.env.iter().copied())
        .args(["--allowedTools", "Bash"]);
    let out = run_prompt(c, "/gsd-pause-work", Duration::from_secs(180));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "claude failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let main = mock
        .requests()
        .into_iter()
        .filter(|r| first_user_text(r).contains(PAUSE_WORK))
        .collect();
    (main, stdout)
}

/// The tool result the model saw after its `turns`-th turn.
fn result_after(main: &[Value], turns: usize, stdout: &str) -> String {
    main.iter()
        .find(|r| assistant_turns(r) == turns)
        .map(last_user_text)
        .unwrap_or_else(|| panic!("no request after turn {turns}: {stdout}"))
}

/// The repository after the step: one commit of exactly the handoff files
/// with this subject, the user's file still staged, the handoff holding
/// the timestamp gsd gave.
fn assert_one_commit_of_the_handoff(s: &Setup, subject: &str, timestamp: &str) {
    let head = git(&s.project, &["show", "--name-only", "--format=%s", "HEAD"]);
    let mut lines: Vec<&str> = head.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.remove(0), subject);
    lines.sort();
    assert_eq!(lines, handoff_files(s));
    assert_eq!(
        git(&s.project, &["diff", "--cached", "--name-only"]).trim(),
        "notes.txt"
    );
    let handoff = std::fs::read_to_string(s.project.join(".planning/HANDOFF.json")).unwrap();
    assert!(handoff.contains(timestamp), "{handoff}");
    assert!(s.project.join(&s.continue_here).exists());
}

fn handoff_files(s: &Setup) -> Vec<String> {
    let mut want = vec![
        ".planning/HANDOFF.json".to_string(),
        s.continue_here.clone(),
    ];
    want.sort();
    want
}

/// An ISO timestamp as both packages print it (`2026-11-27T21:20:59.536Z`).
fn assert_iso(stamp: &str) {
    assert!(
        stamp.len() == 24 && stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T',
        "an ISO timestamp: {stamp}"
    );
}

fn package(var: &str) -> PathBuf {
    PathBuf::from(std::env::var_os(var).unwrap_or_else(|| panic!("{var}")))
}

#[test]
#[cfg_attr(
    not(all(gsd_claude, gsd_sdk)),
    ignore = "needs the Claude Code CLI (GSD_CLAUDE) and gsd-sdk 1.42.3 (GSD_SDK), from .ci/test"
)]
fn claude_runs_gsd_pause_work_against_gsd() {
    let s = setup(&package("GSD_SDK"), "gsd-pause-work");
    let npm_link = s.home.join(".local/bin/gsd-sdk");
    assert!(npm_link.exists(), "the installer wrote its own gsd-sdk");
    assert_eq!(
        s.shim["npm_gsd_sdk"],
        json!(npm_link.display().to_string()),
        "{}",
        s.shim
    );

    let timestamp = Arc::new(Mutex::new(String::new()));
    let ts = timestamp.clone();
    let (project, continue_here) = (s.project.clone(), s.continue_here.clone());
    let (main, stdout) = run_pause_work(&s, move |req| match assistant_turns(req) {
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
            Reply::write(&project.join(".planning/HANDOFF.json"), &handoff_json(&t))
        }
        3 => Reply::write(&project.join(&continue_here), CONTINUE_HERE),
        4 => Reply::bash(&format!(
            "gsd-sdk query commit \"wip: phase 1 paused at 1/2\" --files {continue_here} .planning/HANDOFF.json"
        )),
        _ => Reply::text("Paused. Resume with /gsd-resume-work."),
    });

    // What the model was told, turn by turn: gsd's answers.
    let which = result_after(&main, 1, &stdout);
    let gsd = std::fs::canonicalize(env!("CARGO_BIN_EXE_gsd")).unwrap();
    assert!(
        which.contains(&s.bin.join("gsd-sdk").display().to_string()),
        "{which}"
    );
    assert!(
        which.contains(&gsd.display().to_string()),
        "gsd-sdk is gsd: {which}"
    );
    let stamp: Value =
        serde_json::from_str(result_after(&main, 2, &stdout).trim()).expect("timestamp JSON");
    let stamp = stamp["timestamp"].as_str().unwrap_or("").to_owned();
    assert_iso(&stamp);
    let committed: Value =
        serde_json::from_str(result_after(&main, 5, &stdout).trim()).expect("commit JSON");
    assert_eq!(committed["committed"], true, "{committed}");
    assert_eq!(committed["files"], json!(handoff_files(&s)), "{committed}");
    eprintln!("gsd-sdk on PATH:\n{which}\ntimestamp: {stamp}\ncommit: {committed}");

    assert_one_commit_of_the_handoff(&s, "wip: phase 1 paused at 1/2", &timestamp.lock().unwrap());
}

/// GSD Core's pause-work step: every Bash call starts with the workflow's
/// own preamble, copied at run time from the installed workflow file (it
/// resolves `gsd_run` — a project copy, else the one on PATH, else the
/// installed `gsd-tools.cjs` — and checks `runtime-identity`), then makes
/// the workflow's calls. GSD_SDK_FALLBACK=off: a call gsd did not answer
/// itself fails instead of reaching the real gsd-tools.
#[test]
#[cfg_attr(
    not(all(gsd_claude, gsd_core)),
    ignore = "needs the Claude Code CLI (GSD_CLAUDE) and GSD Core 1.14.0 (GSD_CORE), from .ci/test"
)]
fn claude_runs_gsd_cores_pause_work_against_gsd() {
    let mut s = setup(&package("GSD_CORE"), "gsd-pause-work");
    let workflow = s.home.join(".claude/gsd-core/workflows/pause-work.md");
    let text = std::fs::read_to_string(&workflow).unwrap();
    let preamble = text
        .lines()
        .find(|l| l.contains("_GSD_SHIM_NAME=") && l.contains("gsd_run()"))
        .expect("the workflow's gsd_run preamble")
        .to_owned();
    assert!(
        text.contains("gsd_run query commit"),
        "the workflow commits with gsd_run"
    );
    let installed = s.home.join(".claude/gsd-core/bin/gsd-tools.cjs");
    assert!(installed.exists(), "the installer wrote its gsd-tools.cjs");
    s.env.push(("GSD_SDK_FALLBACK", "off"));

    let timestamp = Arc::new(Mutex::new(String::new()));
    let ts = timestamp.clone();
    let (project, continue_here) = (s.project.clone(), s.continue_here.clone());
    let p = preamble.clone();
    let (main, stdout) = run_pause_work(&s, move |req| match assistant_turns(req) {
        0 => Reply::bash(&format!(
            "{p}\necho \"GSD_TOOLS=$GSD_TOOLS identity=$GSD_IDENTITY_STATUS\"; readlink -f \"$GSD_TOOLS\""
        )),
        1 => Reply::bash(&format!(
            "{p}\ntimestamp=$(gsd_run query current-timestamp full --raw) && echo \"$timestamp\""
        )),
        2 => {
            // GSD Core prints the bare timestamp with --raw; so does gsd.
            let t = last_user_text(req).trim().to_owned();
            *ts.lock().unwrap() = t.clone();
            Reply::write(&project.join(".planning/HANDOFF.json"), &handoff_json(&t))
        }
        3 => Reply::write(&project.join(&continue_here), CONTINUE_HERE),
        4 => Reply::bash(&format!(
            "{p}\ngsd_run query commit \"wip: phase 1 paused at 1/2\" --files {continue_here} .planning/HANDOFF.json"
        )),
        _ => Reply::text("Paused. Resume with /gsd-resume-work."),
    });

    let which = result_after(&main, 1, &stdout);
    let gsd = std::fs::canonicalize(env!("CARGO_BIN_EXE_gsd")).unwrap();
    assert!(
        which.contains(&format!(
            "GSD_TOOLS={} identity=ok",
            s.bin.join("gsd_run").display()
        )),
        "the preamble took gsd's gsd_run and it proved its identity: {which}"
    );
    assert!(
        which.contains(&gsd.display().to_string()),
        "gsd_run is gsd: {which}"
    );
    let stamp = result_after(&main, 2, &stdout).trim().to_owned();
    assert_iso(&stamp);
    let answer = result_after(&main, 5, &stdout);
    let committed: Value = serde_json::from_str(answer.trim())
        .unwrap_or_else(|e| panic!("commit JSON ({e}): {answer}"));
    assert_eq!(committed["committed"], true, "{committed}");
    eprintln!("gsd_run on PATH:\n{which}\ntimestamp: {stamp}\ncommit: {committed}");

    assert_one_commit_of_the_handoff(&s, "wip: phase 1 paused at 1/2", &timestamp.lock().unwrap());
}
