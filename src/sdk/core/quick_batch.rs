//! The two pure `gsd_run quick-batch` verbs GSD Core 1.14.0's quick-batch
//! workflow asks before it dispatches anything: `parse-args` (the user's
//! `$ARGUMENTS` read into `{jobs, validate, research, resume}`) and
//! `effective-concurrency` (how many items run at once). The verbs that read
//! or write a batch's manifest go on to gsd-tools.

use serde_json::{Value, json};

use super::js;
use super::native::{CoreCall, Refusal, flag_value, hand_on};
use super::output::{Failure, Out};

/// `quick-batch parse-args --text "$ARGUMENTS"` (or `-- ARGS…`).
pub fn parse_args(call: &CoreCall) -> Result<Out, Refusal> {
    let tokens: Vec<&str> = match flag_value(call.args, "--text") {
        Some(text) => text.split_whitespace().collect(),
        None => match call.args.iter().position(|a| a == "--") {
            Some(i) => call.args[i + 1..].iter().map(String::as_str).collect(),
            None => Vec::new(),
        },
    };
    parsed(&tokens).map(|v| Out::json(&v))
}

/// The batch options in `tokens`, or gsd-tools' refusal of them.
fn parsed(tokens: &[&str]) -> Result<Value, Refusal> {
    let usage = |why: String| Refusal::Fail(Failure::new("usage", why));
    if tokens.contains(&"--discuss") {
        return Err(usage("quick-batch does not support --discuss in v1 — use /gsd:quick --discuss per item instead".into()));
    }
    if tokens.contains(&"--full") {
        return Err(usage("quick-batch does not support --full in v1".into()));
    }
    let after = |flag: &str| {
        tokens
            .iter()
            .position(|t| *t == flag)
            .map(|i| tokens.get(i + 1).copied().filter(|v| !v.starts_with("--")))
    };
    let jobs = match after("--jobs") {
        None => json!("auto"),
        Some(None) => {
            return Err(usage(
                "quick-batch --jobs requires a value (\"auto\" or a positive integer)".into(),
            ));
        }
        Some(Some("auto")) => json!("auto"),
        Some(Some(raw)) => {
            let n = js::number(raw);
            match js::exact_integer(n).filter(|v| v.as_i64().is_some_and(|i| i > 0)) {
                Some(v) => v,
                // A whole number past 2^53: gsd-tools takes it, and prints it
                // in JavaScript's form, which is not reproduced here.
                None if n.is_finite() && n.fract() == 0.0 && n > 0.0 => {
                    return Err(Refusal::HandOn("with a --jobs past 2^53".into()));
                }
                None => {
                    return Err(usage(format!(
                        "quick-batch --jobs must be \"auto\" or a positive integer, got {}",
                        Value::String(raw.to_string())
                    )));
                }
            }
        }
    };
    let resume = match after("--resume") {
        None => Value::Null,
        Some(None) => return Err(usage("quick-batch --resume requires a batch id".into())),
        Some(Some(id)) => json!(id),
    };
    Ok(json!({
        "jobs": jobs,
        "validate": tokens.contains(&"--validate"),
        "research": tokens.contains(&"--research"),
        "resume": resume,
    }))
}

/// `quick-batch effective-concurrency --jobs <auto|N> --task-count N
/// --capacity N --isolation MODE [--mutating]`: `auto` runs as many as the
/// capacity allows, a number at most that many, items and capacity; a
/// mutating wave with no isolation runs one at a time.
pub fn effective_concurrency(call: &CoreCall) -> Result<Out, Refusal> {
    let args = call.args;
    let jobs = flag_value(args, "--jobs");
    let tasks = flag_value(args, "--task-count").map_or(f64::NAN, js::number);
    let capacity = flag_value(args, "--capacity").map_or(f64::NAN, js::number);
    let Some(jobs) = jobs.filter(|_| tasks.is_finite() && capacity.is_finite()) else {
        return Err(hand_on(" without numeric --jobs/--task-count/--capacity"));
    };
    let isolation = flag_value(args, "--isolation").unwrap_or("");
    let mut n = if jobs == "auto" {
        capacity
    } else {
        js_min(&[tasks, js::number(jobs), capacity])
    };
    if isolation == "none" && args.iter().any(|a| a == "--mutating") {
        n = js_min(&[n, 1.0]);
    }
    // Math.max(n, 0): NaN stays NaN, -0 becomes 0.
    let n = if n.is_nan() { n } else { n.max(0.0) };
    let Some(concurrency) = js::exact_integer(n) else {
        return Err(hand_on(" with a fractional or huge count"));
    };
    Ok(Out::json(&json!({ "concurrency": concurrency })))
}

/// `Math.min`: NaN when any is NaN.
fn js_min(xs: &[f64]) -> f64 {
    if xs.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    xs.iter().copied().fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_options_are_read_and_refused_as_gsd_tools_does() {
        assert_eq!(
            parsed(&["--jobs", "3", "--research", "--resume", "b1"]).unwrap(),
            json!({"jobs": 3, "validate": false, "research": true, "resume": "b1"})
        );
        assert_eq!(parsed(&[]).unwrap()["jobs"], "auto");
        let Err(Refusal::Fail(f)) = parsed(&["--jobs", "0"]) else {
            panic!("refused")
        };
        assert!(f.message.ends_with("got \"0\""), "{}", f.message);
        assert!(matches!(
            parsed(&["--jobs", "1e16"]),
            Err(Refusal::HandOn(_))
        ));
        assert!(parsed(&["--jobs", "--validate"]).is_err());
        assert!(parsed(&["--full"]).is_err());
        assert!(parsed(&["--resume"]).is_err());
    }
}
