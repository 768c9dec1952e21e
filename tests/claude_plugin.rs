//! The gsd Claude Code plugin (`.claude-plugin/marketplace.json` and
//! `plugin/`), added and installed through the real Claude Code CLI from
//! this repository folder, then driven against the scripted mock model.
//!
//! With the hooks coming only from the plugin, a false promise is refused
//! with the failing check's output and the next turn completes, exactly as
//! with `ralph install-hooks`, and no settings file of the user's or the
//! project's gets a hook. Installed both ways, each stop is judged once.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use common::claude_cli::{claude_bin, js_numbers};
use common::mock_model::{MockModel, Reply, assistant_turns, first_user_text, last_user_text};
use common::*;
use serde_json::Value;

const LIMIT: Duration = Duration::from_secs(180);

/// A project, a HOME for Claude Code and gsd, and a PATH whose `gsd` is the
/// binary under test (the plugin's hooks run `gsd` from PATH).
struct Setup {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
    _bin_dir: tempfile::TempDir,
    path: String,
}

impl Setup {
    fn new() -> Self {
        let bin_dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_gsd"), bin_dir.path().join("gsd")).unwrap();
        let path = format!(
            "{}:{}",
            bin_dir.path().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Setup {
            project: step_project(),
            home: tempfile::tempdir().unwrap(),
            _bin_dir: bin_dir,
            path,
        }
    }

    fn gsd(&self, args: &[&str]) -> Output {
        gsd_cmd(self.project.path(), args)
            .env("HOME", self.home.path())
            .env("PATH", &self.path)
            .output()
            .unwrap()
    }

    /// `claude plugin …` with this HOME (no model needed).
    fn plugin(&self, claude: &Path, args: &[&str]) {
        let o = common::claude_cli::claude_command(
            claude,
            self.project.path(),
            self.home.path(),
            "http://127.0.0.1:9",
        )
        .env("PATH", &self.path)
        .arg("plugin")
        .args(args)
        .output()
        .unwrap();
        assert!(
            o.status.success(),
            "claude plugin {args:?}: {}{}",
            stdout(&o),
            stderr(&o)
        );
    }

    fn install_plugin(&self, claude: &Path) {
        let repo = env!("CARGO_MANIFEST_DIR");
        self.plugin(claude, &["validate", &format!("{repo}/plugin")]);
        self.plugin(claude, &["marketplace", "add", repo]);
        self.plugin(claude, &["install", "gsd@gsd"]);
        let user = read_json(&self.home.path().join(".claude/settings.json"));
        assert_eq!(user["enabledPlugins"]["gsd@gsd"], true, "{user}");
    }

    fn start_loop(&self) -> String {
        let o = self.gsd(&["plan", "02-02", "--start-ralph", "--max-iterations", "10"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    }

    fn run_false_promise(&self, claude: &Path) -> Vec<Value> {
        let p = self.project.path();
        let (s1, s2) = (p.join("work/step1.txt"), p.join("work/step2.txt"));
        let mock = MockModel::start(move |req| match assistant_turns(req) {
            0 => Reply::text("All done! <promise>DONE</promise>"),
            1 => Reply::write(&s1, "one\n"),
            2 => Reply::write(&s2, "two\n"),
            _ => Reply::text("Now it is really done. <promise>DONE</promise>"),
        });
        let prompt = stdout(&self.gsd(&["ralph", "prompt"]));
        let mut c = common::claude_cli::claude_command(claude, p, self.home.path(), &mock.url);
        c.env("PATH", &self.path);
        let o = common::claude_cli::run_prompt(c, &prompt, LIMIT);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        mock.requests()
    }

    fn loop_state(&self) -> Value {
        json(&self.gsd(&["ralph", "status", "--json"]))["loop"].clone()
    }

    fn results(&self) -> Vec<String> {
        self.loop_state()["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|it| it["result"].as_str().unwrap().to_owned())
            .collect()
    }
}

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .unwrap()
}

/// Each request's Stop-hook text, where there is one.
fn refusals(reqs: &[Value]) -> Vec<String> {
    reqs.iter()
        .map(last_user_text)
        .filter(|t| t.contains("Stop hook"))
        .collect()
}

fn assert_refused_once_then_completed(s: &Setup, reqs: &[Value]) {
    assert_eq!(reqs.len(), 4, "one request per scripted turn");
    let r = refusals(reqs);
    assert_eq!(r.len(), 1, "{r:#?}");
    assert!(
        r[0].contains("cat: work/step2.txt: No such file or directory"),
        "{}",
        r[0]
    );
    assert_eq!(
        r[0].matches("these failed").count(),
        1,
        "the stop was judged once: {}",
        r[0]
    );
    assert_eq!(s.loop_state()["status"], "complete");
    assert_eq!(s.results(), ["promise refused", "complete"]);
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn the_plugin_alone_refuses_a_false_promise_and_completes() {
    let claude = claude_bin();
    let s = Setup::new();
    s.install_plugin(&claude);
    let user_before = std::fs::read(s.home.path().join(".claude/settings.json")).unwrap();

    let started = s.start_loop();
    assert!(
        started.contains("hooks: the gsd plugin (gsd@gsd"),
        "{started}"
    );
    assert!(
        !s.project.path().join(".claude").exists(),
        "no project settings written"
    );

    let doctor = s.gsd(&["ralph", "doctor", "--json"]);
    assert_eq!(doctor.status.code(), Some(0), "{}", stdout(&doctor));
    let d = json(&doctor);
    let sources: Vec<&str> = d["registrations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["plugin", "plugin", "plugin"]);

    let reqs = s.run_false_promise(&claude);
    assert_refused_once_then_completed(&s, &reqs);
    assert_eq!(
        std::fs::read(s.home.path().join(".claude/settings.json")).unwrap(),
        user_before,
        "the user's settings are as the plugin install left them"
    );
    assert!(!s.project.path().join(".claude").exists());
}

#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn installed_both_ways_each_stop_is_judged_once() {
    let claude = claude_bin();
    let s = Setup::new();
    // Settings hooks first (the PATH's gsd is this binary, so they name `gsd`)...
    let o = s.gsd(&["ralph", "install-hooks"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "no warning for a gsd found on PATH");
    let settings = s.project.path().join(".claude/settings.json");
    let installed = read_json(&settings);
    assert_eq!(installed["hooks"]["Stop"][0]["hooks"][0]["command"], "gsd");
    // ...then the plugin.
    s.install_plugin(&claude);
    // Installing again now defers to the plugin and leaves the file alone.
    let before = std::fs::read(&settings).unwrap();
    let o = s.gsd(&["ralph", "install-hooks"]);
    assert!(
        stdout(&o).contains("already registers gsd's hooks"),
        "{}",
        stdout(&o)
    );
    assert_eq!(std::fs::read(&settings).unwrap(), before);

    let started = s.start_loop();
    assert!(started.contains("hooks: the gsd plugin"), "{started}");
    let doctor = s.gsd(&["ralph", "doctor"]);
    assert_eq!(doctor.status.code(), Some(0), "{}", stdout(&doctor));

    let reqs = s.run_false_promise(&claude);
    assert_refused_once_then_completed(&s, &reqs);
}

/// The plugin's slash commands: `/gsd:ralph-start` starts the loop (its
/// output and the loop prompt reach the model) and the loop completes;
/// `/gsd:ralph-status` shows the finished loop and the doctor's verdict.
#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn the_plugin_commands_start_a_loop_and_show_its_status() {
    let claude = claude_bin();
    let s = Setup::new();
    s.install_plugin(&claude);
    let p = s.project.path();
    let (s1, s2) = (p.join("work/step1.txt"), p.join("work/step2.txt"));
    let mock = MockModel::start(move |req| match assistant_turns(req) {
        0 => Reply::write(&s1, "one\n"),
        1 => Reply::write(&s2, "two\n"),
        _ => Reply::text("Done. <promise>DONE</promise>"),
    });
    let mut c = common::claude_cli::claude_command(&claude, p, s.home.path(), &mock.url);
    c.env("PATH", &s.path);
    let o = common::claude_cli::run_prompt(c, "/gsd:ralph-start 02-02 --max-iterations 5", LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let reqs = mock.requests();
    assert!(
        !reqs.is_empty(),
        "the model was never asked:\n{}\n{}",
        stdout(&o),
        stderr(&o)
    );
    let first = first_user_text(&reqs[0]);
    assert!(
        first.contains("Ralph loop started on plan 02-02"),
        "{first}"
    );
    assert!(first.contains("hooks: the gsd plugin"), "{first}");
    assert!(
        first.contains("# Ralph loop: plan 02-02"),
        "the loop prompt: {first}"
    );
    assert_eq!(s.loop_state()["status"], "complete");
    assert_eq!(s.results(), ["complete"]);

    let mock = MockModel::start(|_| Reply::text("The loop on 02-02 is complete."));
    let mut c = common::claude_cli::claude_command(&claude, p, s.home.path(), &mock.url);
    c.env("PATH", &s.path);
    let o = common::claude_cli::run_prompt(c, "/gsd:ralph-status", LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        !mock.requests().is_empty(),
        "the model was never asked:\n{}\n{}",
        stdout(&o),
        stderr(&o)
    );
    let shown = first_user_text(&mock.requests()[0]);
    assert!(
        shown.contains("02-02") && shown.contains("complete"),
        "{shown}"
    );
    assert!(
        shown.contains("hooks: 3 gsd handler(s), each runs this gsd"),
        "{shown}"
    );
}

/// The plugin's version is gsd's version (doctor compares them).
#[test]
fn the_plugin_manifest_matches_the_crate() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let plugin = read_json(&root.join("plugin/.claude-plugin/plugin.json"));
    assert_eq!(plugin["version"], env!("CARGO_PKG_VERSION"));
    let market = read_json(&root.join(".claude-plugin/marketplace.json"));
    assert_eq!(market["plugins"][0]["source"], "./plugin");
    let hooks = read_json(&root.join("plugin/hooks/hooks.json"));
    for (event, sub) in [
        ("Stop", "stop"),
        ("SubagentStop", "subagent-stop"),
        ("SessionStart", "session-start"),
    ] {
        let h = &hooks["hooks"][event][0]["hooks"][0];
        assert_eq!(h["command"], "gsd");
        assert_eq!(
            h["args"],
            serde_json::json!(["ralph", "hook", sub, "--via", "plugin"])
        );
    }
    // The guard, for the same tools `ralph install-hooks --guard` covers.
    let g = &hooks["hooks"]["PreToolUse"][0];
    assert_eq!(g["matcher"], gsd::ralph::settings::GUARD_MATCHER);
    assert_eq!(g["hooks"][0]["args"], serde_json::json!(["ralph", "guard"]));
}

/// Installed as a plugin, the guard stands in front of every session: the
/// scripted model's `sudo` is denied and Claude sees why.
#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn the_plugin_guard_denies_sudo_and_claude_sees_why() {
    let claude = claude_bin();
    let s = Setup::new();
    s.install_plugin(&claude);
    let mock = MockModel::start(|req| match assistant_turns(req) {
        0 => Reply::bash("cd /tmp && sudo rm -rf /var/cache/app"),
        _ => Reply::text("The guard refused sudo, so I stopped."),
    });
    let mut c =
        common::claude_cli::claude_command(&claude, s.project.path(), s.home.path(), &mock.url);
    c.env("PATH", &s.path);
    let o = common::claude_cli::run_prompt(c, "Clean the app cache.", LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let reqs = mock.requests();
    assert_eq!(reqs.len(), 2, "one turn for the call, one after the denial");
    let result = last_user_text(&reqs[1]);
    assert!(
        result.contains("gsd guard: `sudo` escalates privileges"),
        "{result}"
    );
    assert!(
        !s.project.path().join(".claude").exists(),
        "no project settings written"
    );
}

/// The plugin starts `gsd mcp` (its `mcpServers` in plugin.json): once
/// installed, Claude Code connects the server in the project and the model
/// reads STATE.md through it, the answer being `gsd state --json`.
#[test]
#[cfg_attr(
    not(gsd_claude),
    ignore = "needs the Claude Code CLI in GSD_CLAUDE (bash .ci/test installs it)"
)]
fn the_plugin_starts_the_gsd_mcp_server() {
    let claude = claude_bin();
    let s = Setup::new();
    s.install_plugin(&claude);
    let p = s.project.path();
    let run = |mock: &MockModel| {
        let mut c = common::claude_cli::claude_command(&claude, p, s.home.path(), &mock.url);
        c.env("PATH", &s.path);
        let o = common::claude_cli::run_prompt(c, "Where does the work stand?", LIMIT);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        o
    };
    // The session's init event: the plugin's server connected, its tools
    // offered under Claude Code's names for a plugin's MCP tools.
    let mock = MockModel::start(|_| Reply::text("Nothing to do."));
    let o = run(&mock);
    let init: Value = stdout(&o)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|e| e["type"] == "system" && e["subtype"] == "init")
        .unwrap_or_else(|| panic!("no init event: {}", stdout(&o)));
    let servers = init["mcp_servers"].as_array().unwrap();
    assert!(
        servers
            .iter()
            .any(|m| m["name"].as_str().is_some_and(|n| n.contains("gsd"))
                && m["status"] == "connected"),
        "{init}"
    );
    let tools: Vec<String> = init["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t.as_str())
        .filter(|n| n.starts_with("mcp__") && n.contains("gsd"))
        .map(str::to_owned)
        .collect();
    assert_eq!(tools.len(), 8, "{tools:?}");
    let state_tool = tools
        .iter()
        .find(|n| n.ends_with("__state"))
        .unwrap_or_else(|| panic!("{tools:?}"))
        .clone();

    let name = state_tool.clone();
    let mock = MockModel::start(move |req| match assistant_turns(req) {
        0 => Reply::Tool {
            text: String::new(),
            name: name.clone(),
            input: serde_json::json!({}),
        },
        _ => Reply::text("Read it."),
    });
    // Headless, a tool runs only when allowed: allow this one by name.
    let mut c = common::claude_cli::claude_command(&claude, p, s.home.path(), &mock.url);
    c.env("PATH", &s.path).args(["--allowedTools", &state_tool]);
    let o = common::claude_cli::run_prompt(c, "Where does the work stand?", LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let reqs = mock.requests();
    let answer = reqs
        .iter()
        .filter(|r| assistant_turns(r) == 1)
        .map(last_user_text)
        .next_back()
        .unwrap_or_else(|| panic!("{reqs:#?}"));
    let got: Value = serde_json::from_str(&answer)
        .unwrap_or_else(|e| panic!("the state result is not JSON ({e}): {answer}"));
    assert_eq!(
        js_numbers(&got),
        js_numbers(&json(&s.gsd(&["state", "--json"])))
    );
}
