//! `detect-custom-files --config-dir DIR` as GSD Core 1.14.0 answers it for
//! its update workflow: the files a user added inside the folders GSD owns
//! in a runtime's config folder (all of `gsd-core/` and `commands/gsd/`,
//! and the `gsd-*` entries of `agents/`, the hooks folder and `skills/`),
//! found as those not named in the install manifest — so the update can
//! back them up before it replaces those folders.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::init_phase_op::path_text;
use super::native::{CoreCall, Refusal, flag_value, hand_on};
use super::output::{Failure, Out, pretty};
use super::verification::resolve_lexically;

/// The runtimes whose shared hooks folder is not `hooks`, as 1.14.0's
/// capability registry names them.
const RENAMED_HOOKS: &[(&str, &str)] = &[("pi", "gsd-hooks")];

/// The runtimes 1.14.0's registry knows.
const RUNTIMES: &[&str] = &[
    "antigravity",
    "augment",
    "claude",
    "cline",
    "codebuddy",
    "codex",
    "copilot",
    "cursor",
    "hermes",
    "kilo",
    "kimi",
    "kimi-code",
    "opencode",
    "pi",
    "qwen",
    "trae",
    "vscode",
    "windsurf",
    "zcode",
];

/// The hooks folder names to scan: the installed runtime's (its marker in
/// `gsd-core/.gsd-runtime`), else every name a runtime uses.
fn hooks_folders(config: &Path) -> Vec<&'static str> {
    let marker = std::fs::read_to_string(config.join("gsd-core/.gsd-runtime"))
        .map(|m| super::js::trim(&m).to_string())
        .unwrap_or_default();
    if let Some(id) = RUNTIMES.iter().find(|r| **r == marker) {
        let named = RENAMED_HOOKS.iter().find(|(r, _)| r == id);
        return vec![named.map_or("hooks", |(_, n)| n)];
    }
    let mut all = vec!["hooks"];
    all.extend(RENAMED_HOOKS.iter().map(|(_, n)| *n));
    all
}

/// `readdirSync` names, in libuv's byte order.
fn names(dir: &Path) -> Result<Vec<(String, bool)>, Refusal> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)
        .map_err(|e| hand_on(format!(" where a folder cannot be read ({e})")))?
        .flatten()
    {
        let name = e
            .file_name()
            .into_string()
            .map_err(|_| hand_on(" for a file named in bytes that are not UTF-8"))?;
        // A Dirent's `isDirectory()` does not follow a link.
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        out.push((name, is_dir));
    }
    out.sort_unstable();
    Ok(out)
}

/// `collectCustomFiles`: every file under `path` (or `path` itself) the
/// manifest does not name, relative to `base`.
fn collect(
    path: &Path,
    base: &Path,
    known: &[String],
    out: &mut Vec<String>,
) -> Result<(), Refusal> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    // Relative, with every `\\` made `/` (1.14.0's manifest keys).
    let rel = |p: &Path| -> Result<String, Refusal> {
        Ok(path_text(p.strip_prefix(base).unwrap_or(p))?.replace('\\', "/"))
    };
    if meta.is_file() {
        let r = rel(path)?;
        if !known.contains(&r) {
            out.push(r);
        }
        return Ok(());
    }
    if !meta.is_dir() {
        return Ok(());
    }
    for (name, is_dir) in names(path)? {
        let full = path.join(&name);
        if is_dir {
            collect(&full, base, known, out)?;
            continue;
        }
        let r = rel(&full)?;
        if !known.contains(&r) {
            out.push(r);
        }
    }
    Ok(())
}

/// `Object.keys(manifest.files || {})`.
fn manifest_keys(files: Option<&Value>) -> Result<Vec<String>, Refusal> {
    Ok(match files {
        Some(Value::Object(m)) => m.keys().cloned().collect(),
        Some(Value::Array(a)) => (0..a.len()).map(|i| i.to_string()).collect(),
        Some(Value::String(s)) if s.is_ascii() => (0..s.len()).map(|i| i.to_string()).collect(),
        Some(Value::String(_)) => return Err(hand_on(" for a manifest whose files are text")),
        _ => Vec::new(),
    })
}

/// `detect-custom-files --config-dir DIR`.
pub fn detect_custom_files(call: &CoreCall) -> Result<Out, Refusal> {
    if call.picked {
        return Err(hand_on(" with --pick (1.14.0 prints its answer and fails)"));
    }
    let Some(dir) = flag_value(call.args, "--config-dir").filter(|d| !d.is_empty()) else {
        return Err(Refusal::Fail(Failure::new(
            "usage",
            "Usage: gsd-tools detect-custom-files --config-dir <path>",
        )));
    };
    let config: PathBuf = resolve_lexically(call.cwd, dir);
    if !config.exists() {
        return Err(Refusal::Fail(Failure::new(
            "usage",
            format!("Config directory not found: {}", config.display()),
        )));
    }
    let manifest = config.join("gsd-file-manifest.json");
    if !manifest.exists() {
        return Ok(Out::text(pretty(
            &json!({"custom_files": [], "custom_count": 0, "manifest_found": false}),
        )));
    }
    let text = std::fs::read(&manifest)
        .map_err(|e| hand_on(format!(" where the manifest cannot be read ({e})")))?;
    let parsed = std::str::from_utf8(&text)
        .map_err(|_| hand_on(" for a manifest that is not UTF-8"))
        .map(serde_json::from_str::<Value>)?;
    let manifest = match parsed {
        Ok(v) => v,
        Err(e) if super::js::serde_refuses_valid_json(&e) => {
            return Err(hand_on(" for a manifest only JavaScript reads"));
        }
        Err(_) => {
            return Ok(Out::text(pretty(&json!({
                "custom_files": [], "custom_count": 0, "manifest_found": false,
                "error": "manifest parse error",
            }))));
        }
    };
    if manifest.is_null() {
        return Err(hand_on(
            " for a manifest of `null` (1.14.0 stops with a TypeError)",
        ));
    }
    let known = manifest_keys(manifest.get("files").filter(|f| super::js::truthy(f)))?;
    let mut custom = Vec::new();
    for whole in ["gsd-core", "commands/gsd"] {
        let abs = config.join(whole);
        if abs.exists() {
            collect(&abs, &config, &known, &mut custom)?;
        }
    }
    let mut prefixed = vec!["agents"];
    prefixed.extend(hooks_folders(&config));
    prefixed.push("skills");
    for shared in prefixed {
        let abs = config.join(shared);
        if !abs.exists() {
            continue;
        }
        for (name, _) in names(&abs)? {
            if name.starts_with("gsd-") {
                collect(&abs.join(&name), &config, &known, &mut custom)?;
            }
        }
    }
    let version = manifest
        .get("version")
        .filter(|v| super::js::truthy(v))
        .cloned()
        .unwrap_or(Value::Null);
    let count = custom.len();
    Ok(Out::text(pretty(&json!({
        "custom_files": custom,
        "custom_count": count,
        "manifest_found": true,
        "manifest_version": version,
    }))))
}
