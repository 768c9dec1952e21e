//! Calls about the agent's runtime rather than the planning tree: how full
//! its context window is (validate.context) and which files a user added
//! to GSD's install directory (detect-custom-files).

use std::path::Path;

use serde_json::{Value, json};

use super::super::compat::js;
use super::super::{Call, Reply, SdkError};

/// `--flag N` as an integer (`Number(v)` that `Number.isInteger` accepts).
fn flag_int(args: &[String], flag: &str) -> Option<f64> {
    let i = args.iter().position(|a| a == flag)?;
    let v = js::number_of(args.get(i + 1)?);
    (v.is_finite() && v.fract() == 0.0).then_some(v)
}

/// `validate.context --tokens-used N --context-window M`: the share of the
/// window used, and whether it is healthy (under 60%), a warning (under
/// 70%) or critical.
pub fn validate_context(call: &Call) -> Result<Reply, SdkError> {
    let used = flag_int(call.args, "--tokens-used").filter(|n| *n >= 0.0);
    let Some(used) = used else {
        return Err(SdkError::validation(
            "--tokens-used <non-negative integer> is required for `validate.context`",
        ));
    };
    let window = flag_int(call.args, "--context-window").filter(|n| *n > 0.0);
    let Some(window) = window else {
        return Err(SdkError::validation(
            "--context-window <positive integer> is required for `validate.context`",
        ));
    };
    let ratio = (used / window).min(1.0);
    let percent = ((ratio * 100.0 + 0.5).floor()).min(100.0);
    let (state, recommendation) = if ratio < 0.60 {
        ("healthy", Value::Null)
    } else if ratio < 0.70 {
        (
            "warning",
            json!(
                "Context is approaching the fracture zone — consider /gsd-thread to continue in a fresh window."
            ),
        )
    } else {
        (
            "critical",
            json!(
                "Reasoning quality may degrade past 70% utilization (fracture point). Run /gsd-thread now to preserve output quality."
            ),
        )
    };
    Ok(Reply::Json(json!({
        "percent": js::number(percent), "state": state, "recommendation": recommendation,
    })))
}

/// The folders of a runtime config directory that GSD's installer owns.
const MANAGED: [&str; 5] = ["get-shit-done", "agents", "commands/gsd", "hooks", "skills"];

/// Every file under `dir` (links not followed), relative to `base`, in
/// directory order.
fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
    for name in super::names_in(dir) {
        let path = dir.join(&name);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => walk(&path, base, out),
            _ => out.push(
                path.strip_prefix(base)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/"),
            ),
        }
    }
}

/// `detect-custom-files --config-dir DIR`: files under GSD's folders of
/// DIR that its `gsd-file-manifest.json` does not list (what an update
/// would otherwise overwrite).
pub fn detect_custom_files(call: &Call) -> Result<Reply, SdkError> {
    let dir = call
        .args
        .iter()
        .position(|a| a == "--config-dir")
        .and_then(|i| call.args.get(i + 1))
        .filter(|d| !d.is_empty());
    let Some(dir) = dir else {
        return Ok(Reply::Json(
            json!({"error": "Usage: detect-custom-files --config-dir <path>"}),
        ));
    };
    // `path.resolve`: against the caller's working directory.
    let config = super::fm::lexical(&call.cwd.join(dir));
    if !config.exists() {
        return Ok(Reply::Json(json!({
            "error": format!("Config directory not found: {}", config.display())
        })));
    }
    let manifest_path = config.join("gsd-file-manifest.json");
    if !manifest_path.exists() {
        return Ok(Reply::Json(
            json!({"custom_files": [], "custom_count": 0, "manifest_found": false}),
        ));
    }
    let manifest = std::fs::read(&manifest_path)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    let Some(manifest) = manifest else {
        return Ok(Reply::Json(json!({
            "custom_files": [], "custom_count": 0, "manifest_found": false,
            "error": "manifest parse error",
        })));
    };
    if manifest.is_null() {
        return Err(SdkError::execution(
            "Cannot read properties of null (reading 'files')",
        ));
    }
    let listed = manifest.get("files").filter(|f| js::truthy(f));
    let listed = |p: &str| {
        listed
            .and_then(Value::as_object)
            .is_some_and(|m| m.contains_key(p))
    };
    let mut files = Vec::new();
    for managed in MANAGED {
        let abs = config.join(managed);
        if abs.exists() {
            let mut found = Vec::new();
            walk(&abs, &config, &mut found);
            files.extend(found.into_iter().filter(|f| !listed(f)));
        }
    }
    Ok(Reply::Json(json!({
        "custom_files": files,
        "custom_count": files.len(),
        "manifest_found": true,
        "manifest_version": manifest.get("version").cloned().unwrap_or(Value::Null),
    })))
}
