//! `phase tdd-applicable PLAN [--cli-flag]`: whether the TDD RED/GREEN/
//! REFACTOR gate applies to a plan, by 1.14.0's precedence — the flag, then
//! the plan's `type: tdd`, then a non-checkpoint `<task … tdd="true">`, then
//! `workflow.tdd_mode` (its raw value's truthiness, as 1.14.0 reads it).

use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Value, json};

use super::frontmatter;
use super::native::{CoreCall, Refusal, config_object, hand_on};
use super::output::{Failure, Out, js_string};

fn task_opening() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| Regex::new(r"(?i)<task(?:\s[^>]*)?>").expect("valid"))
}

/// `tagAttribute`: a `NAME="…"` or `NAME='…'` attribute of an opening tag,
/// trimmed, `None` where absent or empty (ASCII word boundary, any case).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let re = Regex::new(&format!(
        r#"(?i)(?-u:\b){name}\s*=\s*"([^"]*)"|(?-u:\b){name}\s*=\s*'([^']*)'"#
    ))
    .ok()?;
    let c = re.captures(tag)?;
    let v = c.get(1).or_else(|| c.get(2))?.as_str().trim().to_string();
    (!v.is_empty()).then_some(v)
}

/// Whether a task of the plan carries `tdd="true"` (checkpoint tasks have
/// no such attribute in 1.14.0's reading).
fn task_says_tdd(content: &str) -> bool {
    task_opening().find_iter(content).any(|m| {
        let tag = m.as_str();
        let checkpoint =
            attribute(tag, "type").is_some_and(|t| t.to_lowercase().starts_with("checkpoint"));
        !checkpoint && attribute(tag, "tdd").as_deref() == Some("true")
    })
}

pub fn tdd_applicable(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(plan) = call.args.first().filter(|p| !p.is_empty()) else {
        return Err(Refusal::Fail(Failure::new(
            "usage",
            "Usage: phase.tdd-applicable <plan-file> [--cli-flag]",
        )));
    };
    let path = call.project.join(plan);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Refusal::Fail(Failure::new(
                "phase_not_found",
                format!("Plan file not found: {plan}"),
            )));
        }
        Err(_) => return Err(hand_on(" for a plan gsd cannot read")),
    };
    let Ok(content) = String::from_utf8(bytes) else {
        return Err(hand_on(" for a plan that is not UTF-8"));
    };
    let cli_flag = call.args.iter().any(|a| a == "--cli-flag");
    let fm = frontmatter::extract(&content).map_err(|u| hand_on(u.0))?;
    let plan_type = fm.get("type").map(js_string);
    let config = config_object(call)?;
    let config_tdd = config
        .as_ref()
        .and_then(|m| m.get("workflow")?.as_object()?.get("tdd_mode").cloned())
        .is_some_and(|v| super::js::truthy(&v));
    let (applicable, source) = if cli_flag {
        (true, "cli_flag")
    } else if plan_type.as_deref() == Some("tdd") {
        (true, "plan_frontmatter")
    } else if task_says_tdd(&content) {
        (true, "task_attribute")
    } else if config_tdd {
        (true, "config")
    } else {
        (false, "none")
    };
    Ok(Out::json(&json!({
        "applicable": applicable,
        "source": source,
        "plan_type": plan_type.map_or(Value::Null, Value::String),
        "config_tdd_mode": config_tdd,
        "cli_flag_present": cli_flag,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tasks_tdd_attribute_is_read_as_1_14_0_reads_it() {
        assert!(task_says_tdd("<task type=\"auto\" TDD=\" true \">"));
        assert!(task_says_tdd("<task data-tdd='true'>"));
        assert!(!task_says_tdd(
            "<task type=\"checkpoint:human-verify\" tdd=\"true\">"
        ));
        assert!(!task_says_tdd("<task tdd=\"True\">"));
        assert!(!task_says_tdd("<tasks tdd=\"true\">"));
        assert!(task_says_tdd("<TASK\ntdd=\"true\">"));
        assert!(!task_says_tdd(
            "<task>x</task> <task type=\"checkpoint\" tdd=\"true\">"
        ));
    }
}
