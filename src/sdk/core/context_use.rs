//! `validate context --tokens-used N --context-window M`: how full the
//! model's context window is, as GSD Core 1.14.0's health workflow asks it
//! (healthy under 60%, a warning under 70%, critical past it — the point
//! where reasoning is said to fracture), with the thread command to move to
//! a fresh window.

use serde_json::{Value, json};

use super::named_args::{self, Spec};
use super::native::{CoreCall, Refusal, claude_runtime, hand_on};
use super::output::{Failure, Out};

const SPEC: Spec = Spec {
    values: &["tokens-used", "context-window"],
    booleans: &["json"],
    positionals: 0,
};

/// `Number(s)` when it is a whole number (`Number.isInteger`).
fn whole(s: &str) -> Option<f64> {
    let n = super::super::compat::js::number_of(s);
    (n.is_finite() && n.fract() == 0.0).then_some(n)
}

/// `validate context`: `{percent, state, recommendation}` with `--json`,
/// else its two lines of text (printed the same with `--raw`).
pub fn validate_context(call: &CoreCall) -> Result<Out, Refusal> {
    let named = named_args::parse(call.args, &SPEC).map_err(Refusal::Fail)?;
    let fail = |m: &str| Refusal::Fail(Failure::new("unknown", m));
    let Some(tokens) = named.value("tokens-used") else {
        return Err(fail(
            "--tokens-used <integer> is required for `validate context`",
        ));
    };
    let Some(window) = named.value("context-window") else {
        return Err(fail(
            "--context-window <integer> is required for `validate context`",
        ));
    };
    if !claude_runtime(call) {
        return Err(hand_on(" for a runtime other than Claude Code"));
    }
    let invalid = |flag: &str| {
        fail(&format!(
            "{flag} must be a non-negative integer (window > 0), got the values supplied"
        ))
    };
    let tokens = whole(tokens)
        .filter(|t| *t >= 0.0)
        .ok_or_else(|| invalid("--tokens-used"))?;
    let window = whole(window)
        .filter(|w| *w > 0.0)
        .ok_or_else(|| invalid("--context-window"))?;
    let ratio = (tokens / window).min(1.0);
    let percent = (ratio * 100.0).round().min(100.0);
    let (state, recommendation) = if ratio < 0.60 {
        ("healthy", None)
    } else if ratio < 0.70 {
        (
            "warning",
            Some(
                "Context is approaching the fracture zone — consider /gsd-thread to continue in a fresh window.",
            ),
        )
    } else {
        (
            "critical",
            Some(
                "Reasoning quality may degrade past 70% utilization (fracture point). Run /gsd-thread now to preserve output quality.",
            ),
        )
    };
    let result = json!({
        "percent": percent as i64,
        "state": state,
        "recommendation": recommendation.map_or(Value::Null, |r| json!(r)),
    });
    if named.flag("json") {
        return Ok(Out::json(&result));
    }
    let mut text = format!("Context utilization: {}% ({state})", percent as i64);
    if let Some(r) = recommendation {
        text.push('\n');
        text.push_str(r);
    }
    Ok(Out::text(text))
}
