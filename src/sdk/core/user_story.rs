//! `gsd_run user-story validate --story "…"`: whether an MVP phase's user
//! story has GSD Core's canonical shape, "As a [role], I want to
//! [capability], so that [outcome]." — with one message per clause that is
//! missing, and the three slots when it has it.
//!
//! The checks are gsd-tools 1.14.0's, in its order: the start, the want
//! clause and the outcome clause (each needing a non-blank first character,
//! any letter case), the final period; only when all four hold, the exact
//! sentence (case as written), whose slots are split lazily (the first `, I
//! want to ` and the first `, so that ` after it).

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Value, json};

/// JavaScript's `.`: any character but a line terminator.
const ANY: &str = r"[^\n\r\u{2028}\u{2029}]";

static START: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^As a \S"));
static WANT: LazyLock<Regex> = LazyLock::new(|| re(r"(?i), I want to \S"));
static OUTCOME: LazyLock<Regex> = LazyLock::new(|| re(r"(?i), so that \S"));
static SENTENCE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^As a (\S{ANY}*?), I want to (\S{ANY}*?), so that (\S{ANY}*?)\.$"
    ))
});

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a valid pattern")
}

const EMPTY: &str =
    "Story is empty. Required format: \"As a [role], I want to [capability], so that [outcome].\"";
const NO_START: &str = "Story must start with \"As a [user role],\" (role must be non-empty).";
const NO_WANT: &str =
    "Story must include \", I want to [capability],\" (capability must be non-empty).";
const NO_OUTCOME: &str = "Story must include \", so that [outcome].\" (outcome must be non-empty).";
const NO_PERIOD: &str = "Story must end with a period (.).";
const NOT_CANONICAL: &str = "Story does not match the canonical format: \"As a [role], I want to [capability], so that [outcome].\"";

/// The verdict on `story`: `{valid, errors, slots}` as gsd-tools prints it.
pub fn validate(story: &str) -> Value {
    let trimmed = super::js::trim(story);
    let mut errors: Vec<&str> = Vec::new();
    let mut slots = Value::Null;
    if trimmed.is_empty() {
        errors.push(EMPTY);
    } else {
        for (check, message) in [
            (&*START, NO_START),
            (&*WANT, NO_WANT),
            (&*OUTCOME, NO_OUTCOME),
        ] {
            if !check.is_match(trimmed) {
                errors.push(message);
            }
        }
        if !trimmed.ends_with('.') {
            errors.push(NO_PERIOD);
        }
        if errors.is_empty() {
            match SENTENCE.captures(trimmed) {
                Some(c) => {
                    slots = json!({"role": &c[1], "capability": &c[2], "outcome": &c[3]});
                }
                None => errors.push(NOT_CANONICAL),
            }
        }
    }
    json!({"valid": errors.is_empty(), "errors": errors, "slots": slots})
}

/// `--story VALUE` from the call's arguments: empty when absent or when the
/// next argument is another flag.
pub fn story_arg(args: &[String]) -> &str {
    super::native::flag_value(args, "--story")
        .filter(|v| !v.is_empty() && !v.starts_with("--"))
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_canonical_story_gives_its_three_slots() {
        let v = validate("  As a nurse, I want to see the queue, so that nobody waits, ever.  ");
        assert_eq!(v["valid"], true);
        assert_eq!(v["slots"]["role"], "nurse");
        assert_eq!(v["slots"]["capability"], "see the queue");
        assert_eq!(v["slots"]["outcome"], "nobody waits, ever");
    }

    #[test]
    fn each_missing_clause_has_its_message() {
        let v = validate("as a user, i want to log in");
        assert_eq!(v["valid"], false);
        assert_eq!(v["errors"], json!([NO_OUTCOME, NO_PERIOD]));
        // The clauses pass in any case; the sentence itself is exact.
        let v = validate("as a user, I want to log in, so that I am known.");
        assert_eq!(v["errors"], json!([NOT_CANONICAL]));
        assert_eq!(validate(" ")["errors"], json!([EMPTY]));
    }
}
