//! `todo match-phase N`: the pending todos GSD Core 1.14.0 suggests folding
//! into a phase. gsd answers where there are none (1.14.0's empty answer);
//! scoring real todos reads the phase through 1.14.0's roadmap fallbacks
//! (bullets, tables), so that call is handed on.

use serde_json::json;

use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};

/// `todo match-phase PHASE`.
pub fn match_phase(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(phase) = call.args.first().filter(|p| !p.is_empty()) else {
        return Err(Refusal::Fail(Failure::new(
            "unknown",
            "phase required for todo match-phase",
        )));
    };
    let pending = call.project.join(".planning/todos/pending");
    if let Ok(entries) = std::fs::read_dir(&pending)
        && entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".md"))
    {
        return Err(hand_on(" where todos are pending"));
    }
    Ok(Out::json(
        &json!({"phase": phase, "matches": [], "todo_count": 0}),
    ))
}
