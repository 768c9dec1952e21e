//! `windows status`: GSD Core 1.14.0's broken-windows ledger
//! (`.planning/WINDOWS.md`, the small defects a phase noticed and left),
//! which its progress and ship workflows read for the open count.
//!
//! gsd answers where the project has no ledger yet (1.14.0 then reports an
//! empty one, stamped now). A ledger that exists is parsed by 1.14.0's
//! strict reader (frontmatter, a fenced JSON block and a table that must
//! agree), so that call is handed on.

use serde_json::json;

use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Out, pretty};

/// `windows status [--raw]`: `{ok, ledger}`, written without a final
/// newline in both forms.
pub fn status(call: &CoreCall) -> Result<Out, Refusal> {
    let path = call.project.join(".planning").join("WINDOWS.md");
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        _ => return Err(hand_on(" where a WINDOWS.md ledger exists")),
    }
    let now = jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string();
    let v = json!({
        "ok": true,
        "ledger": {
            "schema_version": 1,
            "open_count": 0,
            "waived_count": 0,
            "fixed_count": 0,
            "total_count": 0,
            "last_updated": now,
            "entries": [],
        },
    });
    let text = pretty(&v);
    Ok(Out {
        raw: Some(text.clone()),
        text,
    })
}
