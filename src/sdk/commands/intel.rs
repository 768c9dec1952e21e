//! intel.patch-meta: the intel agent stamps each `.planning/intel/*.json`
//! it refreshed. gsd-sdk re-serialises the whole file; here `_meta`'s two
//! values are the only bytes that change.

use serde_json::json;

use super::super::{Call, Reply, SdkError};
use super::{fm, store};

/// `intel.patch-meta FILE` → `{patched, file, timestamp}`; failures are
/// answered as `{patched: false, error}`, as gsd-sdk answers them.
pub fn patch_meta(call: &Call) -> Result<Reply, SdkError> {
    let failed = |e: String| Ok(Reply::Json(json!({"patched": false, "error": e})));
    let Some(raw) = call.arg(0).filter(|a| !a.is_empty()) else {
        return failed("File not found".into());
    };
    let path = match fm::under_project(call, raw) {
        Ok(p) => p,
        Err(e) => return failed(e["error"].as_str().unwrap_or_default().to_string()),
    };
    if !path.exists() {
        return failed(format!("File not found: {}", path.display()));
    }
    let timestamp = jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string();
    match store(call, |ws| {
        crate::ops::intel::patch_meta(ws, &path, &timestamp).map(|p| p.change)
    }) {
        Ok(_) => Ok(Reply::Json(json!({
            "patched": true,
            "file": path.display().to_string(),
            "timestamp": timestamp,
        }))),
        Err(e) => failed(e.to_string()),
    }
}
