//! generate-slug and current-timestamp: no tree needed.

use serde_json::json;

use super::super::{Call, Reply, SdkError};

/// `generate-slug TEXT`: lower-case, runs of other characters to `-`, 60 at most.
pub fn generate_slug(call: &Call) -> Result<Reply, SdkError> {
    let Some(text) = call.arg(0).filter(|t| !t.is_empty()) else {
        return Err(SdkError::validation("text required for slug generation"));
    };
    Ok(Reply::Json(json!({"slug": slug(text)})))
}

/// The slug of `text` as gsd-sdk makes it: Unicode lower-casing (so `K`
/// KELVIN SIGN counts as `k`), then cut at 60 — after the trim, so a cut
/// can end in `-`, unlike `model::ids::slugify`.
pub fn slug(text: &str) -> String {
    crate::model::ids::dashed(&text.to_lowercase())
        .chars()
        .take(60)
        .collect()
}

/// `current-timestamp [full|date|filename]`, UTC with milliseconds like `toISOString`.
pub fn current_timestamp(call: &Call) -> Result<Reply, SdkError> {
    let now = jiff::Timestamp::now();
    let full = now.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
    let ts = match call.arg(0).unwrap_or("full") {
        "date" => full[..10].to_string(),
        "filename" => full[..19].replace(':', "-"),
        _ => full,
    };
    Ok(Reply::Json(json!({"timestamp": ts})))
}

#[cfg(test)]
mod tests {
    #[test]
    fn slugs_match_gsd_sdk() {
        assert_eq!(super::slug("Hello World"), "hello-world");
        assert_eq!(super::slug("  --Ünïcode & Co. 2!  "), "n-code-co-2");
        assert_eq!(super::slug(&"a ".repeat(40)).len(), 60);
    }
}
