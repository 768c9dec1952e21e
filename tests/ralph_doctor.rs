//! Hooks that survive: what `ralph install-hooks` writes depending on where
//! gsd is, and `ralph doctor` naming each way installed hooks would fail.

mod common;

use std::path::Path;
use std::process::Output;

use common::*;
use serde_json::{Value, json};

fn run(dir: &Path, home: &Path, path: &str, args: &[&str]) -> Output {
    gsd_cmd(dir, args)
        .env("HOME", home)
        .env("PATH", path)
        .output()
        .unwrap()
}

fn settings(dir: &Path, name: &str) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join(".claude").join(name)).unwrap()).unwrap()
}

fn write_settings(dir: &Path, name: &str, v: &Value) {
    std::fs::create_dir_all(dir.join(".claude")).unwrap();
    std::fs::write(dir.join(".claude").join(name), v.to_string()).unwrap();
}

const SYS_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

#[test]
fn a_gsd_not_on_path_is_written_absolute_with_a_warning_for_target() {
    let t = repo_of("clean");
    let home = tempfile::tempdir().unwrap();
    let o = run(t.path(), home.path(), SYS_PATH, &["ralph", "install-hooks"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_gsd")).unwrap();
    let s = settings(t.path(), "settings.json");
    assert_eq!(
        s["hooks"]["Stop"][0]["hooks"][0]["command"],
        exe.display().to_string()
    );
    assert!(
        stderr(&o).contains("inside a cargo target/ folder")
            && stderr(&o).contains("cargo install"),
        "{}",
        stderr(&o)
    );
    // The doctor agrees: it runs, but it will go stale.
    let d = run(t.path(), home.path(), SYS_PATH, &["ralph", "doctor"]);
    assert_eq!(d.status.code(), Some(1), "{}", stdout(&d));
    assert!(stdout(&d).contains("goes stale"), "{}", stdout(&d));
}

#[test]
fn a_gsd_on_path_is_written_by_name_and_the_doctor_is_content() {
    let t = repo_of("clean");
    let home = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_gsd"), bin.path().join("gsd")).unwrap();
    let path = format!("{}:{SYS_PATH}", bin.path().display());
    let o = run(t.path(), home.path(), &path, &["ralph", "install-hooks"]);
    assert_eq!((o.status.code(), stderr(&o).as_str()), (Some(0), ""));
    let s = settings(t.path(), "settings.json");
    for event in ["Stop", "SubagentStop", "SessionStart"] {
        assert_eq!(s["hooks"][event][0]["hooks"][0]["command"], "gsd");
    }
    let d = run(t.path(), home.path(), &path, &["ralph", "doctor", "--json"]);
    assert_eq!(d.status.code(), Some(0), "{}", stdout(&d));
    let report = json(&d);
    assert_eq!(report["problems"], json!([]));
    assert_eq!(report["registrations"].as_array().unwrap().len(), 3);
    assert_eq!(
        report["registrations"][0]["version"],
        format!("gsd {}", env!("CARGO_PKG_VERSION"))
    );
    // Without gsd on PATH the same hooks cannot run.
    let d = run(t.path(), home.path(), SYS_PATH, &["ralph", "doctor"]);
    assert_eq!(d.status.code(), Some(1));
    assert!(
        stdout(&d).contains("runs `gsd`, which is not there"),
        "{}",
        stdout(&d)
    );
}

fn hook(command: &str, sub: &str) -> Value {
    json!({ "hooks": [ { "type": "command", "command": command, "args": ["ralph", "hook", sub] } ] })
}

fn hooks_of(command: &str) -> Value {
    json!({ "hooks": {
        "Stop": [hook(command, "stop")],
        "SubagentStop": [hook(command, "subagent-stop")],
        "SessionStart": [hook(command, "session-start")],
    } })
}

#[test]
fn the_doctor_names_missing_foreign_version_and_double_hooks() {
    let t = repo_of("clean");
    let home = tempfile::tempdir().unwrap();
    // Nothing installed.
    let d = run(t.path(), home.path(), SYS_PATH, &["ralph", "doctor"]);
    assert_eq!(d.status.code(), Some(1));
    assert!(
        stdout(&d).contains("no gsd Stop hook is installed"),
        "{}",
        stdout(&d)
    );

    // A deleted binary.
    write_settings(t.path(), "settings.json", &hooks_of("/nonexistent/bin/gsd"));
    let d = run(t.path(), home.path(), SYS_PATH, &["ralph", "doctor"]);
    assert_eq!(d.status.code(), Some(1));
    assert!(
        stdout(&d).contains("runs `/nonexistent/bin/gsd`, which is not there"),
        "{}",
        stdout(&d)
    );

    // A gsd of another version.
    let old = tempfile::tempdir().unwrap();
    let fake = old.path().join("gsd");
    std::fs::write(&fake, "#!/bin/sh\necho 'gsd 0.0.9'\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    write_settings(
        t.path(),
        "settings.json",
        &hooks_of(&fake.display().to_string()),
    );
    let d = run(t.path(), home.path(), SYS_PATH, &["ralph", "doctor"]);
    assert_eq!(d.status.code(), Some(1));
    assert!(
        stdout(&d).contains("(gsd 0.0.9), not this gsd"),
        "{}",
        stdout(&d)
    );

    // Installed in both project files: every stop would be judged twice.
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_gsd"), bin.path().join("gsd")).unwrap();
    let path = format!("{}:{SYS_PATH}", bin.path().display());
    write_settings(t.path(), "settings.json", &hooks_of("gsd"));
    write_settings(t.path(), "settings.local.json", &hooks_of("gsd"));
    let d = run(t.path(), home.path(), &path, &["ralph", "doctor"]);
    assert_eq!(d.status.code(), Some(1));
    assert!(
        stdout(&d).contains("gsd's Stop hook is installed 2 times"),
        "{}",
        stdout(&d)
    );
}

/// With the plugin enabled in the user's settings, `install-hooks` installs
/// nothing (tests/claude_plugin.rs shows `--start-ralph` and the plugin's
/// handler stepping aside, through the real CLI).
#[test]
fn an_enabled_plugin_is_not_doubled_by_settings_hooks() {
    let t = repo_of("clean");
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".claude")).unwrap();
    std::fs::write(
        home.path().join(".claude/settings.json"),
        json!({ "enabledPlugins": { "gsd@gsd": true } }).to_string(),
    )
    .unwrap();
    let o = run(t.path(), home.path(), SYS_PATH, &["ralph", "install-hooks"]);
    assert!(
        stdout(&o).contains("the gsd plugin (gsd@gsd"),
        "{}",
        stdout(&o)
    );
    assert!(!t.path().join(".claude").exists());
}
