//! Rules over config.json (gsd-tools health W003–W016).

use crate::doc::Span;
use crate::lint::context::{Ctx, Sink};

pub fn config_missing(cx: &Ctx, s: &mut Sink) {
    if cx.ws.config.is_none() {
        let rel = std::path::PathBuf::from(".planning/config.json");
        let (severity, why, hint) = cx.weigh_missing(s.severity(), &rel);
        s.file_severity(
            severity,
            rel,
            format!("config.json not found{why}"),
            hint.unwrap_or("create it (`gsd init` writes one); defaults apply until then"),
        );
    }
}

pub fn config_invalid_json(cx: &Ctx, s: &mut Sink) {
    if let (Some(Err(e)), Some(doc)) = (&cx.ws.config, &cx.ws.config_doc) {
        let start = doc.source.line_start(e.line) + e.column.saturating_sub(1);
        let start = start.min(doc.source.len());
        s.at(
            doc,
            Span::new(start, start),
            format!("config.json is not valid JSON: {}", e.message),
            "fix the JSON (a trailing comma or a missing quote is the usual cause)",
        );
    }
}

fn value_span(doc: &crate::model::Document, key: &str) -> Span {
    let needle = format!("\"{key}\"");
    match doc.text().find(&needle) {
        Some(i) => Span::new(i, i + needle.len()),
        None => Span::empty(0),
    }
}

/// Every profile some GSD release has accepted: `adaptive` (the planner
/// picks per task), `auto` and `unlimited` came and went beside the
/// classic three and `inherit`; real trees use them.
const MODEL_PROFILES: &[&str] = &[
    "quality",
    "balanced",
    "budget",
    "inherit",
    "adaptive",
    "auto",
    "unlimited",
];

/// gsd-opencode, GSD for OpenCode, names its own profiles in the same key
/// (`/gsd-set-profile simple|smart|genius`, `custom` in some releases):
/// accepted, not offered (batch 25, ragman53+shusei).
const OPENCODE_PROFILES: &[&str] = &["simple", "smart", "genius", "custom"];

pub fn config_invalid_model_profile(cx: &Ctx, s: &mut Sink) {
    let (Some(Ok(c)), Some(doc)) = (&cx.ws.config, &cx.ws.config_doc) else {
        return;
    };
    if let Some(p) = c.str("model_profile")
        && !MODEL_PROFILES.contains(&p)
        && !OPENCODE_PROFILES.contains(&p)
    {
        s.at(
            doc,
            value_span(doc, "model_profile"),
            format!("model_profile `{p}` is not a GSD model profile"),
            format!("pick one of {}", MODEL_PROFILES.join(", ")),
        );
    }
}

pub fn config_invalid_value(cx: &Ctx, s: &mut Sink) {
    let (Some(Ok(c)), Some(doc)) = (&cx.ws.config, &cx.ws.config_doc) else {
        return;
    };
    let strategy = c
        .str("git.branching_strategy")
        .or_else(|| c.str("branching_strategy"));
    if let Some(b) = strategy
        && !["none", "phase", "milestone"].contains(&b)
    {
        s.at(
            doc,
            value_span(doc, "branching_strategy"),
            format!("branching_strategy `{b}` is not none, phase or milestone"),
            "use none, phase or milestone",
        );
    }
    if let Some(v) = c.get("context_window")
        && v.as_u64().is_none_or(|n| n == 0)
    {
        s.at(
            doc,
            value_span(doc, "context_window"),
            format!("context_window `{v}` is not a positive integer"),
            "use a token count such as 200000",
        );
    }
    for (key, placeholder) in [
        ("phase_branch_template", "{phase}"),
        ("milestone_branch_template", "{milestone}"),
    ] {
        let v = c.str(&format!("git.{key}")).or_else(|| c.str(key));
        if let Some(t) = v
            && !t.contains(placeholder)
        {
            s.at(
                doc,
                value_span(doc, key),
                format!("{key} `{t}` does not contain {placeholder}"),
                format!("include {placeholder} so branches differ"),
            );
        }
    }
}

pub fn config_missing_workflow_key(cx: &Ctx, s: &mut Sink) {
    let (Some(Ok(c)), Some(doc)) = (&cx.ws.config, &cx.ws.config_doc) else {
        return;
    };
    for key in ["nyquist_validation", "ai_integration_phase"] {
        if c.get(&format!("workflow.{key}")).is_none() {
            s.at(
                doc,
                Span::empty(0),
                format!("config.json has no workflow.{key}; the default (true) applies"),
                format!("set workflow.{key} explicitly"),
            );
        }
    }
}

/// `ralph.guard` that the guard cannot use: every tool call would be denied
/// (the guard fails closed), which an unattended run finds out too late.
pub fn config_invalid_guard(cx: &Ctx, s: &mut Sink) {
    let (Some(Ok(c)), Some(doc)) = (&cx.ws.config, &cx.ws.config_doc) else {
        return;
    };
    let Some(v) = c.get("ralph.guard") else {
        return;
    };
    if let Err(e) = crate::ralph::guard::Policy::from_json(Some(v)) {
        s.at(
            doc,
            value_span(doc, "guard"),
            format!("the guard policy cannot be used: {e}; `gsd ralph guard` denies every call until it is fixed"),
            "keys: strict (bool), allow_commands, deny_commands, deny_paths, allow_paths (lists of strings; paths are globs)",
        );
    }
}
