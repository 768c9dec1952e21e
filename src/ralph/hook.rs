//! The hook handler (`gsd ralph hook stop|subagent-stop|session-start`).
//!
//! What exists so far is the first rule of RALPH.md §9: with no active loop
//! in `.gsd/ralph/`, say nothing and let Claude Code go on (exit 0, no
//! output), whatever the input. Loop enforcement comes with
//! `gsd plan ID --start-ralph`. The handler must never trap a user: every
//! error path ends in "allow".

use std::io::Read;
use std::path::Path;

/// What the handler tells Claude Code: stdout text (empty = nothing) and
/// the exit code (always 0: decisions travel in JSON, never in exit 2).
pub struct HookReply {
    pub stdout: String,
    pub code: i32,
}

/// Whether a loop is active for the project at `root`.
pub fn active_loop(root: &Path) -> bool {
    root.join(".gsd/ralph/loop.json").is_file()
}

/// Handle one hook event. `root` is the project root when one was found.
pub fn handle(_event: &str, root: Option<&Path>, stdin: &mut dyn Read) -> HookReply {
    // Read (and ignore) the input so the writer never sees a broken pipe.
    let mut input = String::new();
    let _ = stdin.take(64 * 1024 * 1024).read_to_string(&mut input);
    match root {
        Some(r) if active_loop(r) => HookReply {
            stdout: serde_json::json!({
                "systemMessage": "gsd: a Ralph loop state exists in .gsd/ralph/, but this gsd version does not enforce loops yet; the stop is allowed",
            })
            .to_string(),
            code: 0,
        },
        _ => HookReply { stdout: String::new(), code: 0 },
    }
}
