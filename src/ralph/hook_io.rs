//! What Claude Code sends a hook and what gsd answers, as types.
//!
//! One input type serves Stop, SubagentStop, SessionStart and PreToolUse
//! (each reads the fields it has; Claude Code adds fields over time, so
//! unknown ones are ignored and missing ones are `None`). One reply type
//! serializes to exactly the JSON shapes RALPH.md §2 documents, and nothing
//! else: a reply is built from a variant, never from a hand-written object.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The hook events gsd handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookEvent {
    Stop,
    SubagentStop,
    SessionStart,
    PreToolUse,
}

impl HookEvent {
    /// The event's name as Claude Code's settings spell it.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::Stop => "Stop",
            HookEvent::SubagentStop => "SubagentStop",
            HookEvent::SessionStart => "SessionStart",
            HookEvent::PreToolUse => "PreToolUse",
        }
    }
}

/// A hook's stdin.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HookInput {
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub transcript_path: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub hook_event_name: Option<String>,
    /// Stop / SubagentStop: the final assistant text (newer Claude Code).
    #[serde(default)]
    pub last_assistant_message: Option<String>,
    /// Stop: true when a Stop hook already blocked once this turn.
    #[serde(default)]
    pub stop_hook_active: Option<bool>,
    /// Stop: tasks still running in the background.
    #[serde(default)]
    pub background_tasks: Option<Vec<Value>>,
    /// SessionStart: `startup`, `resume`, `clear` or `compact`.
    #[serde(default)]
    pub source: Option<String>,
    /// PreToolUse: the tool and its input.
    #[serde(default)]
    pub tool_name: Option<String>,
    #[serde(default)]
    pub tool_input: Option<Value>,
}

impl HookInput {
    /// Parse a hook's stdin; anything that is not a JSON object reads as an
    /// input with no fields (the handler then allows and stays silent).
    pub fn parse(raw: &str) -> Result<HookInput, serde_json::Error> {
        serde_json::from_str(raw)
    }

    /// The session, when it says which it is.
    pub fn session(&self) -> Option<&str> {
        self.session_id.as_deref().filter(|s| !s.trim().is_empty())
    }

    /// Background tasks still run: the turn is not over.
    pub fn background_running(&self) -> bool {
        self.background_tasks
            .as_ref()
            .is_some_and(|t| !t.is_empty())
    }
}

/// gsd's answer to a hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookReply {
    /// Print nothing: Claude Code goes on as it would.
    Silent,
    /// Let the stop happen and tell the user something.
    Notify { message: String },
    /// Stop / SubagentStop: keep working; `reason` is Claude's next prompt.
    Block { reason: String, message: String },
    /// End the session's work for good (`continue: false`).
    End { reason: String },
    /// SessionStart: context added to the session.
    Context { context: String },
    /// PreToolUse: refuse the tool call.
    Deny { reason: String },
}

impl HookReply {
    /// The JSON Claude Code reads on stdout (empty for `Silent`).
    pub fn to_json(&self) -> Option<Value> {
        Some(match self {
            HookReply::Silent => return None,
            HookReply::Notify { message } => json!({ "systemMessage": message }),
            HookReply::Block { reason, message } => {
                json!({ "decision": "block", "reason": reason, "systemMessage": message })
            }
            HookReply::End { reason } => json!({ "continue": false, "stopReason": reason }),
            HookReply::Context { context } => json!({
                "hookSpecificOutput": { "hookEventName": "SessionStart", "additionalContext": context }
            }),
            HookReply::Deny { reason } => json!({ "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }}),
        })
    }

    /// What the handler prints.
    pub fn stdout(&self) -> String {
        self.to_json().map(|v| v.to_string()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_read_what_they_have_and_ignore_the_rest() {
        let i = HookInput::parse(
            r#"{"session_id":"A","last_assistant_message":"hi","background_tasks":[{"id":1}],"new_field":3}"#,
        )
        .unwrap();
        assert_eq!(i.session(), Some("A"));
        assert!(i.background_running());
        assert_eq!(i.last_assistant_message.as_deref(), Some("hi"));
        assert_eq!(
            HookInput::parse(r#"{"session_id":"  "}"#)
                .unwrap()
                .session(),
            None
        );
        assert!(HookInput::parse("[1]").is_err());
    }

    #[test]
    fn replies_have_the_documented_shapes() {
        assert_eq!(HookReply::Silent.stdout(), "");
        assert_eq!(
            HookReply::Block {
                reason: "r".into(),
                message: "m".into()
            }
            .to_json()
            .unwrap(),
            json!({"decision":"block","reason":"r","systemMessage":"m"})
        );
        assert_eq!(
            HookReply::End { reason: "x".into() }.to_json().unwrap(),
            json!({"continue": false, "stopReason": "x"})
        );
        assert_eq!(
            HookReply::Deny {
                reason: "no".into()
            }
            .to_json()
            .unwrap()["hookSpecificOutput"]["permissionDecision"],
            "deny"
        );
    }
}
