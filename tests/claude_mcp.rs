//! `gsd mcp` under the real Claude Code CLI: `claude -p` starts the server
//! from an `--mcp-config` file (as `claude mcp add gsd -- gsd mcp` would
//! configure it) and the scripted mock model calls its tools by the names
//! Claude Code gives MCP tools, `mcp__gsd__<tool>`. The mock's request log
//! shows the tool results that reached the model; git shows what was
//! written.
//!
//! Runs when `GSD_CLAUDE` names a `claude` binary (`.ci/run` installs it).

mod common;

use std::path::Path;
use std::time::Duration;

use common::claude_cli::{claude_bin, claude_command, js_numbers, run_prompt};
use common::mock_model::{MockModel, Reply, assistant_turns, last_user_text};
use common::*;
use serde_json::{Value, json};

const LIMIT: Duration = Duration::from_secs(180);

fn commits(dir: &Path) -> usize {
    git(dir, &["rev-list", "--count", "HEAD"])
        .trim()
        .parse()
        .unwrap()
}

/// The tool results of each request, by the assistant turns before it.
fn result_after(reqs: &[Value], turns: usize) -> String {
    reqs.iter()
        .filter(|r| assistant_turns(r) == turns)
        .map(last_user_text)
        .next_back()
        .unwrap_or_else(|| panic!("no request after turn {turns}: {reqs:#?}"))
}

#[test]
#[cfg_attr(not(gsd_claude), ignore = "needs GSD_CLAUDE (the Claude Code CLI)")]
fn claude_code_reads_and_writes_through_gsd_mcp() {
    let claude = claude_bin();
    let project = gsd_init(&["Core", "API"], &["CORE-01: a cart"]);
    let dir = project.path();
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("mcp.json");
    std::fs::write(
        &config,
        json!({"mcpServers": {"gsd": {
            "type": "stdio",
            "command": env!("CARGO_BIN_EXE_gsd"),
            "args": ["mcp"],
        }}})
        .to_string(),
    )
    .unwrap();
    let state = dir.join(".planning/STATE.md");
    let old_state = std::fs::read_to_string(&state).unwrap();
    let before = commits(dir);

    let locked = state.clone();
    let mock = MockModel::start(move |req| match assistant_turns(req) {
        0 => Reply::Tool {
            text: "Reading the roadmap.".into(),
            name: "mcp__gsd__roadmap".into(),
            input: json!({}),
        },
        1 => Reply::Tool {
            text: "Recording the status.".into(),
            name: "mcp__gsd__state_set".into(),
            input: json!({"field": "status", "value": "Building the cart"}),
        },
        2 => {
            // The user makes STATE.md read-only before the next write.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
            Reply::Tool {
                text: "Recording it again.".into(),
                name: "mcp__gsd__state_set".into(),
                input: json!({"field": "status", "value": "Refused"}),
            }
        }
        _ => Reply::text("Done."),
    });
    let mut c = claude_command(&claude, dir, home.path(), &mock.url);
    c.arg("--mcp-config")
        .arg(&config)
        .arg("--strict-mcp-config")
        .args(["--allowedTools", "mcp__gsd__roadmap,mcp__gsd__state_set"]);
    let o = run_prompt(c, "Read the roadmap, then set the status.", LIMIT);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let reqs = mock.requests();
    // Claude Code connected the server and offers its tools under its
    // names for MCP tools (this version defers them behind ToolSearch, so
    // the session's init event lists them, not the first request).
    let init: Value = stdout(&o)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|e| e["type"] == "system" && e["subtype"] == "init")
        .unwrap_or_else(|| panic!("no init event: {}", stdout(&o)));
    assert_eq!(
        init["mcp_servers"],
        json!([{"name": "gsd", "status": "connected", "source": "dynamic"}]),
        "{init}"
    );
    let mut offered: Vec<&str> = init["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t.as_str())
        .filter(|n| n.starts_with("mcp__gsd__"))
        .collect();
    offered.sort_unstable();
    assert_eq!(
        offered,
        [
            "mcp__gsd__lint",
            "mcp__gsd__phase_add",
            "mcp__gsd__phase_complete",
            "mcp__gsd__plan",
            "mcp__gsd__plan_fm_set",
            "mcp__gsd__roadmap",
            "mcp__gsd__state",
            "mcp__gsd__state_set"
        ]
    );

    // (a) The roadmap tool's result is `gsd roadmap --json`.
    let roadmap = result_after(&reqs, 1);
    let got: Value = serde_json::from_str(&roadmap)
        .unwrap_or_else(|e| panic!("the roadmap result is not JSON ({e}): {roadmap}"));
    assert_eq!(
        js_numbers(&got),
        js_numbers(&json(&gsd(dir, &["roadmap", "--json"])))
    );

    // (b) state_set: one line of STATE.md in one commit, diff in the result.
    let set = result_after(&reqs, 2);
    assert!(set.contains("+Status: Building the cart"), "{set}");
    assert_eq!(commits(dir), before + 1, "{set}");
    let head = git(dir, &["rev-parse", "HEAD"]);
    assert!(set.contains(head.trim()), "{set}");
    assert_eq!(
        git(dir, &["show", "--stat", "--format=", "HEAD"]).trim(),
        ".planning/STATE.md | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)"
    );
    let new_state = std::fs::read_to_string(&state).unwrap();
    let changed: Vec<(&str, &str)> = old_state
        .lines()
        .zip(new_state.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(old_state.lines().count(), new_state.lines().count());
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0].1, "Status: Building the cart");

    // (c) The refused write: the model is told why; nothing changed.
    let refused = result_after(&reqs, 3);
    assert!(
        refused.contains("error[gsd::store::refused]")
            && refused.contains(".planning/STATE.md is read-only")
            && refused.contains("help: make it writable"),
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&state).unwrap(), new_state);
    assert_eq!(commits(dir), before + 1);
    assert_eq!(git(dir, &["rev-parse", "HEAD"]), head);
    assert_eq!(git(dir, &["status", "--porcelain"]), "");
}
