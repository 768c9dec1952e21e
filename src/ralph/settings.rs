//! Installing gsd's hooks into `.claude/settings.json` (or
//! `settings.local.json`) by merging, never by overwriting.
//!
//! Handlers are written in exec form (`command` = the absolute path of the
//! gsd binary, `args` = `["ralph", "hook", "stop"]`): no shell, no quoting,
//! no profile noise on stdout. Foreign hooks and unknown keys are kept and
//! key order is preserved (serde_json with `preserve_order`). Installing
//! twice changes nothing. The bytes before the first install are kept in
//! `.gsd/settings-backup/`; uninstalling a file nobody touched since restores
//! them exactly, otherwise only gsd's handlers (and groups left empty) go.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// The events gsd handles, with the handler's subcommand and timeout.
pub const EVENTS: &[(&str, &str, u64)] = &[
    ("Stop", "stop", 600),
    ("SubagentStop", "subagent-stop", 600),
    ("SessionStart", "session-start", 30),
];

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("{path} is not valid JSON ({message}); it was left untouched")]
    Invalid { path: String, message: String },
    #[error("{path}: `hooks` must be an object")]
    Shape { path: String },
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// The tools the PreToolUse guard looks at.
pub const GUARD_MATCHER: &str = "Bash|Read|Edit|MultiEdit|Write|NotebookEdit|Grep|Glob";

/// Whether a handler is gsd's guard.
fn is_guard(handler: &Value) -> bool {
    is_ours(handler)
        && handler
            .get("args")
            .and_then(|a| a.get(1))
            .and_then(Value::as_str)
            == Some("guard")
}

/// Whether `text` already has gsd's guard installed (an install keeps it).
pub fn has_guard(text: &str) -> bool {
    let Ok(Value::Object(root)) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    root.get("hooks")
        .and_then(|h| h.get("PreToolUse"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|g| g.get("hooks").and_then(Value::as_array))
        .flatten()
        .any(is_guard)
}

/// Whether a handler is one of gsd's (any gsd binary path).
pub fn is_ours(handler: &Value) -> bool {
    let args: Vec<&str> = handler
        .get("args")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let cmd = handler.get("command").and_then(Value::as_str).unwrap_or("");
    let bin_is_gsd = Path::new(cmd).file_name().is_some_and(|n| n == "gsd");
    bin_is_gsd
        && args.first() == Some(&"ralph")
        && matches!(args.get(1), Some(&"hook") | Some(&"guard"))
}

fn parse(path: &Path, text: &str) -> Result<Map<String, Value>, SettingsError> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(SettingsError::Invalid {
            path: path.display().to_string(),
            message: "the top level is not an object".into(),
        }),
        Err(e) => Err(SettingsError::Invalid {
            path: path.display().to_string(),
            message: e.to_string(),
        }),
    }
}

/// Remove gsd's handlers (and groups they leave empty) from `hooks`.
fn strip_ours(hooks: &mut Map<String, Value>) {
    for (_, groups) in hooks.iter_mut() {
        let Some(groups) = groups.as_array_mut() else {
            continue;
        };
        for g in groups.iter_mut() {
            if let Some(hs) = g.get_mut("hooks").and_then(Value::as_array_mut) {
                hs.retain(|h| !is_ours(h));
            }
        }
        groups.retain(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|h| !h.is_empty())
        });
    }
    hooks.retain(|_, v| v.as_array().is_none_or(|a| !a.is_empty()));
}

/// The settings text with gsd's hooks merged in (and the PreToolUse guard
/// when `guard` is set).
pub fn merged(
    path: &Path,
    text: &str,
    gsd_bin: &str,
    guard: bool,
) -> Result<String, SettingsError> {
    let mut root = parse(path, text)?;
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(hooks) = hooks.as_object_mut() else {
        return Err(SettingsError::Shape {
            path: path.display().to_string(),
        });
    };
    strip_ours(hooks);
    for (event, sub, timeout) in EVENTS {
        let group = json!({ "hooks": [ { "type": "command", "command": gsd_bin, "args": ["ralph", "hook", sub], "timeout": timeout } ] });
        let list = hooks
            .entry(*event)
            .or_insert_with(|| Value::Array(Vec::new()));
        match list.as_array_mut() {
            Some(a) => a.push(group),
            None => {
                return Err(SettingsError::Shape {
                    path: path.display().to_string(),
                });
            }
        }
    }
    if guard {
        let group = json!({ "matcher": GUARD_MATCHER, "hooks": [ { "type": "command", "command": gsd_bin, "args": ["ralph", "guard"], "timeout": 30 } ] });
        match hooks
            .entry("PreToolUse")
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
        {
            Some(a) => a.push(group),
            None => {
                return Err(SettingsError::Shape {
                    path: path.display().to_string(),
                });
            }
        }
    }
    Ok(serde_json::to_string_pretty(&Value::Object(root)).expect("json") + "\n")
}

/// The settings text without gsd's hooks.
pub fn stripped(path: &Path, text: &str) -> Result<String, SettingsError> {
    let mut root = parse(path, text)?;
    if let Some(hooks) = root.get_mut("hooks").and_then(Value::as_object_mut) {
        strip_ours(hooks);
        if hooks.is_empty() {
            root.remove("hooks");
        }
    }
    Ok(serde_json::to_string_pretty(&Value::Object(root)).expect("json") + "\n")
}

/// Where the pre-install bytes and the installed bytes are kept.
fn backup_paths(root: &Path, settings: &Path) -> (PathBuf, PathBuf) {
    let name = settings
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("settings.json");
    let dir = root.join(".gsd/settings-backup");
    (
        dir.join(format!("{name}.orig")),
        dir.join(format!("{name}.installed")),
    )
}

const ABSENT: &[u8] = b"\0gsd: the file did not exist\0";

fn io(path: &Path, source: std::io::Error) -> SettingsError {
    SettingsError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Install into `settings` (under project `root`); returns whether it
/// changed. The guard is added with `guard`, and kept when it was there.
pub fn install(
    root: &Path,
    settings: &Path,
    gsd_bin: &str,
    guard: bool,
) -> Result<bool, SettingsError> {
    let before = std::fs::read(settings).ok();
    let text = before
        .as_deref()
        .map(String::from_utf8_lossy)
        .unwrap_or_default();
    let new = merged(settings, &text, gsd_bin, guard || has_guard(&text))?;
    if before.as_deref() == Some(new.as_bytes()) {
        return Ok(false);
    }
    crate::store::lock::ensure_gsd_dir(root).map_err(|e| io(root, e))?;
    let (orig, installed) = backup_paths(root, settings);
    if !orig.exists() {
        crate::store::atomic::write(&orig, before.as_deref().unwrap_or(ABSENT))
            .map_err(|e| io(&orig, e))?;
    }
    crate::store::atomic::write(settings, new.as_bytes()).map_err(|e| io(settings, e))?;
    crate::store::atomic::write(&installed, new.as_bytes()).map_err(|e| io(&installed, e))?;
    Ok(true)
}

/// Remove gsd's hooks; returns whether anything changed.
pub fn uninstall(root: &Path, settings: &Path) -> Result<bool, SettingsError> {
    let Ok(current) = std::fs::read(settings) else {
        return Ok(false);
    };
    let (orig, installed) = backup_paths(root, settings);
    let untouched = std::fs::read(&installed).ok().as_deref() == Some(current.as_slice());
    if let (true, Ok(original)) = (untouched, std::fs::read(&orig)) {
        if original == ABSENT {
            std::fs::remove_file(settings).map_err(|e| io(settings, e))?;
        } else {
            crate::store::atomic::write(settings, &original).map_err(|e| io(settings, e))?;
        }
    } else {
        let new = stripped(settings, &String::from_utf8_lossy(&current))?;
        if new.as_bytes() == current.as_slice() {
            return Ok(false);
        }
        crate::store::atomic::write(settings, new.as_bytes()).map_err(|e| io(settings, e))?;
    }
    let _ = std::fs::remove_file(&orig);
    let _ = std::fs::remove_file(&installed);
    Ok(true)
}
