//! `graphify status|query`: GSD Core 1.14.0's knowledge-graph capability,
//! which the planner and researcher ask before reading a graph.
//!
//! Where the capability is off (`graphify.enabled`, default false) the
//! answer is 1.14.0's fixed "not enabled" reply — what the planner sees on
//! almost every project; where it is on and no graph has been built, the
//! "no graph" reply. Reading a built graph (its counts, age and the commits
//! since it was built; a query's traversal) is handed on.

use serde_json::{Value, json};

use super::loop_hooks::capability_active_in;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};
use super::verification::resolve_lexically;

fn disabled() -> Out {
    Out::json(&json!({
        "disabled": true,
        "message": "graphify is not enabled. Enable with: gsd-tools config-set graphify.enabled true",
    }))
}

/// `resolveGraphLocation`: `graphify.graph_path` (against the project)
/// where set, else `.planning/graphs/graph.json`; and whether it was set.
fn graph_location(call: &CoreCall) -> (std::path::PathBuf, bool) {
    let planning = call.project.join(".planning");
    let configured = std::fs::read_to_string(planning.join("config.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|c| {
            c.get("graphify")?
                .get("graph_path")?
                .as_str()
                .map(str::to_owned)
        })
        .filter(|p| !super::js::trim(p).is_empty());
    match configured {
        Some(p) => (resolve_lexically(call.project, &p), true),
        None => (planning.join("graphs").join("graph.json"), false),
    }
}

/// The reply where no graph exists, or `None` where one does.
fn missing_graph(call: &CoreCall, build_hint: &str) -> Result<Option<String>, Refusal> {
    let (path, configured) = graph_location(call);
    if path.exists() {
        return Ok(None);
    }
    Ok(Some(if configured {
        let shown = path
            .to_str()
            .ok_or_else(|| hand_on(" for a graph path that is not UTF-8"))?;
        format!(
            "Configured graph not found at {shown}. Set graphify.graph_path or run /gsd:graphify build."
        )
    } else {
        build_hint.to_string()
    }))
}

/// `graphify status`.
pub fn status(call: &CoreCall) -> Result<Out, Refusal> {
    if !capability_active_in(call, "graphify")? {
        return Ok(disabled());
    }
    match missing_graph(
        call,
        "No graph built yet. Run graphify build to create one.",
    )? {
        Some(message) => Ok(Out::json(&json!({"exists": false, "message": message}))),
        None => Err(hand_on(" where a graph has been built")),
    }
}

/// `graphify query TERM [--budget N]`.
pub fn query(call: &CoreCall) -> Result<Out, Refusal> {
    let usage = |m: &str| Refusal::Fail(Failure::new("usage", m));
    if call.args.first().is_none_or(|t| t.is_empty()) {
        return Err(usage("Usage: gsd-tools graphify query <term>"));
    }
    if let Some(i) = call.args.iter().position(|a| a == "--budget")
        && call
            .args
            .get(i + 1)
            .and_then(|b| super::super::compat::js::parse_int(b))
            .is_none()
    {
        return Err(usage(
            "Usage: gsd-tools graphify query <term> [--budget <N>]",
        ));
    }
    if !capability_active_in(call, "graphify")? {
        return Ok(disabled());
    }
    match missing_graph(call, "No graph built yet. Run graphify build first.")? {
        Some(message) => Ok(Out::json(&json!({"error": message}))),
        None => Err(hand_on(" where a graph has been built")),
    }
}
