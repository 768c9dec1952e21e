//! `state get [SECTION]` (`cmdStateGet`): STATE.md whole, or one field or
//! section of it, found the way GSD Core 1.14.0 finds it — a bold
//! `**Field:** value` line, else a plain `Field: value` line, else a
//! `## Section` up to the next `##`, each matched case-blind by GSD's own
//! patterns (translated with JavaScript's line ends and case rules). The
//! new-milestone workflow reads the outgoing milestone this way
//! (`gsd_run query state.get milestone --raw`).

use serde_json::{Map, Value, json};

use super::super::compat::roadmap_text::{escape, group, re};
use super::js;
use super::native::{CoreCall, Refusal};
use super::output::{Failure, Out};

pub fn state_get(call: &CoreCall) -> Result<Out, Refusal> {
    // 1.14.0's router refuses a second word (`unexpected positional
    // argument`) in its own terms: left to it.
    if call.args.len() > 1 {
        return Err(super::native::hand_on(" with more than one argument"));
    }
    let path = call.project.join(".planning/STATE.md");
    let Ok(bytes) = std::fs::read(&path) else {
        return Err(Refusal::Fail(Failure::new("unknown", "STATE.md not found")));
    };
    let content = String::from_utf8_lossy(&bytes).into_owned();
    let Some(section) = call.args.first().filter(|s| !s.is_empty()) else {
        return Ok(Out::with_raw(&json!({ "content": content }), content));
    };
    let field = escape(section);
    let patterns = [
        format!(r"(?im)^[ \t]*\*\*{field}:\*\*[ \t]*(.*)"),
        format!(r"(?im)^{field}:\s*(.*)"),
        format!(r"(?i)##\s*{field}\s*\n([\s\S]*?)(?=\n##|$)"),
    ];
    for p in &patterns {
        if let Some(c) = re(p).captures(&content).ok().flatten() {
            let value = js::trim(group(&c, 1)).to_owned();
            let mut v = Map::new();
            v.insert(section.clone(), json!(value));
            return Ok(Out::with_raw(&Value::Object(v), value));
        }
    }
    let v = json!({ "error": format!("Section or field \"{section}\" not found") });
    Ok(Out::with_raw(&v, ""))
}
