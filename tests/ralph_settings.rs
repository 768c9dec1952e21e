//! `gsd ralph install-hooks|uninstall` and the hook handler's "no loop" path.

mod common;

use common::*;

const FOREIGN: &str = r#"{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test)"] },
    "hooks": {
        "Stop": [ { "hooks": [ { "type": "command", "command": "notify-send done" } ] } ],
        "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] } ]
    },
    "zzz_unknown": { "kept": true }
}
"#;

fn settings(t: &tempfile::TempDir) -> String {
    std::fs::read_to_string(t.path().join(".claude/settings.json")).unwrap()
}

#[test]
fn install_merges_is_idempotent_and_uninstall_restores_bytes() {
    let t = tree("clean");
    std::fs::create_dir_all(t.path().join(".claude")).unwrap();
    std::fs::write(t.path().join(".claude/settings.json"), FOREIGN).unwrap();
    let o = gsd(t.path(), &["ralph", "install-hooks"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&settings(&t)).unwrap();
    // Foreign hooks and unknown keys stay, in their order.
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["model", "permissions", "hooks", "zzz_unknown"]);
    assert_eq!(
        v["hooks"]["Stop"][0]["hooks"][0]["command"],
        "notify-send done"
    );
    assert_eq!(
        v["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "./guard.sh"
    );
    let ours = &v["hooks"]["Stop"][1]["hooks"][0];
    assert!(
        ours["command"].as_str().unwrap().ends_with("/gsd")
            && std::path::Path::new(ours["command"].as_str().unwrap()).is_absolute()
    );
    assert_eq!(ours["args"], serde_json::json!(["ralph", "hook", "stop"]));
    assert_eq!(
        v["hooks"]["SubagentStop"][0]["hooks"][0]["args"],
        serde_json::json!(["ralph", "hook", "subagent-stop"])
    );
    assert_eq!(
        v["hooks"]["SessionStart"][0]["hooks"][0]["args"],
        serde_json::json!(["ralph", "hook", "session-start"])
    );
    // Twice: nothing changes, no duplicates.
    let once = settings(&t);
    let o = gsd(t.path(), &["ralph", "install-hooks"]);
    assert!(stdout(&o).contains("already has"));
    assert_eq!(settings(&t), once);
    // Uninstall gives back the original bytes.
    assert_eq!(
        gsd(t.path(), &["ralph", "uninstall"]).status.code(),
        Some(0)
    );
    assert_eq!(settings(&t), FOREIGN);
}

#[test]
fn uninstall_after_edits_removes_only_ours_and_local_settings() {
    let t = tree("clean");
    assert_eq!(
        gsd(t.path(), &["ralph", "install-hooks", "--local"])
            .status
            .code(),
        Some(0)
    );
    let local = t.path().join(".claude/settings.local.json");
    assert!(local.exists() && !t.path().join(".claude/settings.json").exists());
    // Not there before: uninstalling an untouched file removes it.
    assert_eq!(
        gsd(t.path(), &["ralph", "uninstall", "--local"])
            .status
            .code(),
        Some(0)
    );
    assert!(!local.exists());
    // The user edits the file after installing: only gsd's entries go.
    std::fs::create_dir_all(t.path().join(".claude")).unwrap();
    std::fs::write(t.path().join(".claude/settings.json"), FOREIGN).unwrap();
    gsd(t.path(), &["ralph", "install-hooks"]);
    let mut v: serde_json::Value = serde_json::from_str(&settings(&t)).unwrap();
    v["env"] = serde_json::json!({ "X": "1" });
    std::fs::write(
        t.path().join(".claude/settings.json"),
        serde_json::to_string_pretty(&v).unwrap(),
    )
    .unwrap();
    assert_eq!(
        gsd(t.path(), &["ralph", "uninstall"]).status.code(),
        Some(0)
    );
    let after: serde_json::Value = serde_json::from_str(&settings(&t)).unwrap();
    assert_eq!(after["env"]["X"], "1");
    assert!(after["hooks"].get("SessionStart").is_none());
    assert_eq!(
        after["hooks"]["Stop"].as_array().unwrap().len(),
        1,
        "only the foreign Stop hook is left"
    );
}

#[test]
fn invalid_settings_are_an_error_and_untouched() {
    let t = tree("clean");
    std::fs::create_dir_all(t.path().join(".claude")).unwrap();
    let bad = "{ \"hooks\": { \"Stop\": [ }\n";
    std::fs::write(t.path().join(".claude/settings.json"), bad).unwrap();
    let o = gsd(t.path(), &["ralph", "install-hooks"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not valid JSON") && stderr(&o).contains("left untouched"),
        "{}",
        stderr(&o)
    );
    assert_eq!(settings(&t), bad);
}

#[test]
fn hook_without_a_loop_says_nothing_and_allows() {
    let t = tree("clean");
    for (event, input) in [
        (
            "stop",
            r#"{"session_id":"s1","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done","new_field":{"x":1}}"#,
        ),
        (
            "subagent-stop",
            r#"{"session_id":"s1","hook_event_name":"SubagentStop","agent_type":"Explore"}"#,
        ),
        (
            "session-start",
            r#"{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}"#,
        ),
        ("stop", "not json at all"),
        ("stop", ""),
    ] {
        let o = with_stdin(
            gsd_cmd(t.path(), &["ralph", "hook", event]),
            input.as_bytes(),
        );
        assert_eq!(o.status.code(), Some(0), "{event}: {input}");
        assert!(o.stdout.is_empty(), "{event}: no output without a loop");
    }
}
