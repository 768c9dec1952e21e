//! `phase mvp-mode N [--cli-flag]`: whether GSD Core 1.14.0 plans a phase
//! as a vertical MVP slice — the flag, else the phase's `**Mode:** mvp` in
//! ROADMAP.md, else config.json's `mvp_mode` (top level, else under
//! `workflow`).
//!
//! Which roadmap section holds a phase's mode depends on 1.14.0's
//! current-milestone slicing; gsd answers where the roadmap states no mode
//! at all (almost every roadmap), and hands on where it does.

use serde_json::{Value, json};

use super::super::compat::js::truthy;
use super::native::{CoreCall, Refusal, config_object, hand_on};
use super::output::{Failure, Out};

pub fn mvp_mode(call: &CoreCall) -> Result<Out, Refusal> {
    let Some(_) = call.args.first().filter(|p| !p.is_empty()) else {
        return Err(Refusal::Fail(Failure::new(
            "usage",
            "Usage: phase.mvp-mode <phase-number> [--cli-flag]",
        )));
    };
    let cli_flag = call.args.iter().any(|a| a == "--cli-flag");
    let roadmap = call.project.join(".planning/ROADMAP.md");
    if roadmap.exists() {
        let text =
            std::fs::read(&roadmap).map_err(|_| hand_on(" with a ROADMAP.md gsd cannot read"))?;
        if String::from_utf8_lossy(&text)
            .to_lowercase()
            .contains("**mode")
        {
            return Err(hand_on(" where the roadmap states a phase mode"));
        }
    }
    let config = config_object(call)?;
    let value = config.as_ref().and_then(|c| match c.get("mvp_mode") {
        Some(v) => Some(v.clone()),
        None => c
            .get("workflow")
            .and_then(Value::as_object)
            .and_then(|w| w.get("mvp_mode"))
            .cloned(),
    });
    let config_mvp = value.as_ref().is_some_and(truthy);
    let (active, source) = if cli_flag {
        (true, "cli_flag")
    } else if config_mvp {
        (true, "config")
    } else {
        (false, "none")
    };
    Ok(Out::json(&json!({
        "active": active,
        "source": source,
        "roadmap_mode": null,
        "config_mvp_mode": config_mvp,
        "cli_flag_present": cli_flag,
    })))
}
