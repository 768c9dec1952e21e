//! `init plan-phase N`: the context bundle GSD Core 1.14.0's plan-phase
//! workflow starts from — the models of its three agents, the planning
//! switches, the phase (found on disk or known from the roadmap) with its
//! requirement ids, status and artifacts, the optional workflow sections
//! the call's flags select, and the verify commands earlier phases used.
//!
//! Shares the phase lookup and envelope of `init phase-op`
//! (`init_phase_op::lookup`). Handed on: `--validate` (it compares
//! STATE.md's plan count), `--phase` spellings, flags 1.14.0 refuses, and
//! where the roadmap reading or the lookup hand on.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::compat::js;
use super::super::compat::roadmap_text::{group, re};
use super::init_envelope::with_project_root;
use super::init_phase_op::{View, checked_config, lookup, path_text};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};
use super::phase_id::{extract_phase_token, normalize_phase_name};
use super::slug::slug;
use super::{prior_verify, section_manifest, verification};

/// The options `init plan-phase` takes after its phase.
#[derive(Default)]
struct Options {
    tdd: bool,
    reviews: bool,
    chunked: bool,
    granularity: Option<String>,
    prd: Option<String>,
    ingest: Option<String>,
    research_phase: Option<String>,
}

fn options(args: &[String]) -> Result<(&str, Options), Refusal> {
    let Some((phase, rest)) = args.split_first() else {
        return Err(Refusal::Fail(Failure::new(
            "unknown",
            "phase required for init plan-phase",
        )));
    };
    if phase.is_empty() || phase.starts_with('-') {
        return Err(hand_on(" without a phase in first place"));
    }
    let mut o = Options::default();
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        let mut value = |slot: &mut Option<String>| -> Result<(), Refusal> {
            match it.next() {
                Some(v) if !v.starts_with("--") => {
                    *slot = Some(v.clone());
                    Ok(())
                }
                _ => Err(hand_on(" for a value flag without its value")),
            }
        };
        match a.as_str() {
            "--tdd" => o.tdd = true,
            "--reviews" => o.reviews = true,
            "--chunked" => o.chunked = true,
            "--granularity" => value(&mut o.granularity)?,
            "--prd" => value(&mut o.prd)?,
            "--ingest" => value(&mut o.ingest)?,
            "--research-phase" => value(&mut o.research_phase)?,
            _ => return Err(hand_on(format!(" with the argument `{a}`"))),
        }
    }
    Ok((phase, o))
}

/// `init plan-phase PHASE [flags]`.
pub fn plan_phase(call: &CoreCall) -> Result<Out, Refusal> {
    let (phase, opts) = options(call.args)?;
    if section_manifest::overridden() {
        return Err(hand_on(" with GSD_SECTION_MANIFEST set"));
    }
    const GRANULARITIES: [&str; 3] = ["coarse", "standard", "fine"];
    if let Some(g) = opts.granularity.as_deref().filter(|g| !g.is_empty())
        && !GRANULARITIES.contains(&g)
    {
        return Err(Refusal::Fail(Failure::new(
            "unknown",
            format!("invalid granularity '{g}' (valid: coarse, standard, fine)"),
        )));
    }
    let config = checked_config(call)?;
    let cfg = config.clone().unwrap_or_default();
    let view = lookup(call, phase)?;
    let section = super::roadmap_phase::find(call.project, phase).map(|r| r.section);
    let planning = call.project.join(".planning");
    let flat = |key: &str, nested: Option<(&str, &str)>| flat_get(&cfg, key, nested);
    let or_default = |v: Option<Value>, d: Value| match v {
        None | Some(Value::Null) => d,
        Some(v) => v,
    };
    let mut r = Map::new();
    for (key, agent) in [
        ("researcher_model", "gsd-phase-researcher"),
        ("planner_model", "gsd-planner"),
        ("checker_model", "gsd-plan-checker"),
    ] {
        r.insert(key.into(), json!(model(call, agent)?));
    }
    let tdd = opts.tdd || nested(&cfg, "workflow", "tdd_mode").is_some_and(|v| js::truthy(&v));
    r.insert("tdd_mode".into(), json!(tdd));
    r.insert(
        "granularity".into(),
        granularity(&cfg, opts.granularity.as_deref()),
    );
    r.insert(
        "research_enabled".into(),
        or_default(
            flat("research", Some(("workflow", "research"))),
            json!(true),
        ),
    );
    r.insert(
        "plan_checker_enabled".into(),
        or_default(
            flat("plan_checker", Some(("workflow", "plan_check"))),
            json!(true),
        ),
    );
    r.insert(
        "nyquist_validation_enabled".into(),
        or_default(
            flat(
                "nyquist_validation",
                Some(("workflow", "nyquist_validation")),
            ),
            json!(true),
        ),
    );
    let legacy = super::super::compat::config::legacy(call.project);
    r.insert(
        "commit_docs".into(),
        legacy.get("commit_docs").cloned().unwrap_or(Value::Null),
    );
    r.insert(
        "text_mode".into(),
        or_default(
            flat("text_mode", Some(("workflow", "text_mode"))),
            json!(false),
        ),
    );
    let truthy = |v: Option<Value>| v.is_some_and(|v| js::truthy(&v));
    r.insert(
        "auto_advance".into(),
        json!(truthy(flat(
            "auto_advance",
            Some(("workflow", "auto_advance"))
        ))),
    );
    r.insert(
        "auto_chain_active".into(),
        json!(truthy(flat(
            "_auto_chain_active",
            Some(("workflow", "_auto_chain_active"))
        ))),
    );
    let mode = flat("mode", None)
        .filter(js::truthy)
        .unwrap_or(json!("interactive"));
    r.insert("mode".into(), mode);
    phase_fields(&mut r, &view, section.as_deref())?;
    r.insert("planning_exists".into(), json!(planning.exists()));
    r.insert(
        "roadmap_exists".into(),
        json!(planning.join("ROADMAP.md").exists()),
    );
    for (key, file) in [
        ("state_path", "STATE.md"),
        ("roadmap_path", "ROADMAP.md"),
        ("requirements_path", "REQUIREMENTS.md"),
    ] {
        let p = planning.join(file);
        let v = if p.exists() {
            json!(path_text(&p)?)
        } else {
            Value::Null
        };
        r.insert(key.into(), v);
    }
    r.insert("patterns_path".into(), Value::Null);
    if let Some(dir) = &view.dir {
        for (key, file) in [
            ("context_path", &view.context),
            ("research_path", &view.research),
            ("verification_path", &view.verification),
            ("uat_path", &view.uat),
            ("reviews_path", &view.reviews),
            ("patterns_path", &view.patterns),
        ] {
            if let Some(f) = file {
                r.insert(key.into(), json!(path_text(&dir.join(f))?));
            }
        }
    }
    let mut facts = section_manifest::Facts::default();
    for (flag, on) in [
        ("--tdd", opts.tdd),
        (
            "--granularity",
            opts.granularity.as_deref().is_some_and(|v| !v.is_empty()),
        ),
        ("--prd", opts.prd.as_deref().is_some_and(|v| !v.is_empty())),
        (
            "--ingest",
            opts.ingest.as_deref().is_some_and(|v| !v.is_empty()),
        ),
        (
            "--research-phase",
            opts.research_phase
                .as_deref()
                .is_some_and(|v| !v.is_empty()),
        ),
        ("--reviews", opts.reviews),
        ("--chunked", opts.chunked),
    ] {
        if on {
            facts.flags.insert(flag.to_owned());
        }
    }
    facts.chunked_mode =
        opts.chunked || nested(&cfg, "workflow", "plan_chunked") == Some(json!(true));
    facts.phase_number = view.number.as_str().map(str::to_owned);
    r.insert(
        "section_manifest".into(),
        section_manifest::field("plan-phase", &facts).unwrap_or(Value::Null),
    );
    let prior = match view.number.as_str() {
        Some(n) => prior_verify::harvest(&planning.join("phases"), n)?,
        None => Vec::new(),
    };
    r.insert("prior_verify_commands".into(), Value::Array(prior));
    Ok(Out::json(&Value::Object(with_project_root(
        call,
        config.as_ref(),
        r,
    )?)))
}

/// The phase's own fields, from `phase_found` to `plan_count`.
fn phase_fields(
    r: &mut Map<String, Value>,
    view: &View,
    section: Option<&str>,
) -> Result<(), Refusal> {
    let number = view.number.as_str().filter(|n| !n.is_empty());
    r.insert("phase_found".into(), json!(view.found));
    r.insert(
        "phase_dir".into(),
        match &view.dir {
            Some(d) => json!(path_text(d)?),
            None => Value::Null,
        },
    );
    r.insert(
        "expected_phase_dir".into(),
        match &view.expected {
            Some(d) => json!(path_text(d)?),
            None => Value::Null,
        },
    );
    r.insert("phase_number".into(), json!(number));
    r.insert("phase_name".into(), json!(view.name));
    r.insert(
        "phase_slug".into(),
        json!(
            view.name
                .as_deref()
                .and_then(|n| slug(n, None))
                .filter(|s| !s.is_empty())
        ),
    );
    r.insert(
        "padded_phase".into(),
        json!(number.map(normalize_phase_name)),
    );
    r.insert(
        "phase_req_ids".into(),
        json!(section.and_then(requirement_ids)),
    );
    let status = match &view.dir {
        Some(d) => phase_status(view.plan_count, view.summary_count, d)?,
        None => "Pending".to_owned(),
    };
    r.insert("phase_status".into(), json!(status));
    r.insert("has_research".into(), json!(view.research.is_some()));
    r.insert("has_context".into(), json!(view.context.is_some()));
    r.insert("context_scope".into(), json!("complete"));
    r.insert("has_reviews".into(), json!(view.reviews.is_some()));
    r.insert("has_plans".into(), json!(view.plan_count > 0));
    r.insert("plan_count".into(), json!(view.plan_count));
    Ok(())
}

/// `**Requirements:** A-1, [B-2]` in the section: the ids, comma-joined;
/// `None` where absent, empty or `TBD`.
pub(super) fn requirement_ids(section: &str) -> Option<String> {
    let c = re(r"(?m)^\*\*Requirements:?\*\*[^\S\n]*:?[^\S\n]*([^\n]*)$")
        .captures(section)
        .ok()
        .flatten()?;
    let ids: Vec<String> = group(&c, 1)
        .replace(['[', ']'], "")
        .split(',')
        .map(|s| js::trim(s).to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    let joined = ids.join(", ");
    (!joined.is_empty() && joined != "TBD").then_some(joined)
}

/// `determinePhaseStatus(plans, summaries, dir, 'Pending')`.
pub(super) fn phase_status(plans: u64, summaries: u64, dir: &Path) -> Result<String, Refusal> {
    if plans == 0 {
        return Ok("Pending".into());
    }
    if summaries < plans {
        return Ok(if summaries > 0 {
            "In Progress"
        } else {
            "Planned"
        }
        .into());
    }
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned();
    if let Ok(Some(files)) = super::plan_scan::list(dir)
        && let Some(f) = verification::resolve_artifact(
            &files,
            "VERIFICATION.md",
            &extract_phase_token(&name),
            &name,
        )
    {
        let content = std::fs::read(dir.join(&f))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let fm = super::frontmatter::extract(&content).map_err(|u| hand_on(u.0))?;
        let status = match fm.get("status") {
            Some(Value::String(s)) => super::js::trim(s).to_lowercase(),
            _ => String::new(),
        };
        return Ok(match status.as_str() {
            "passed" => "Complete",
            "human_needed" => "Needs Review",
            _ => "Executed",
        }
        .into());
    }
    Ok("Executed".into())
}

/// `loadConfig`'s `get(key, {section, field})`: the flat key (even
/// `null`), else the nested one.
pub(super) fn flat_get(
    cfg: &Map<String, Value>,
    key: &str,
    nested_key: Option<(&str, &str)>,
) -> Option<Value> {
    if let Some(v) = cfg.get(key) {
        return Some(v.clone());
    }
    let (s, f) = nested_key?;
    nested(cfg, s, f)
}

/// A key of an object section (an array counts, as in JavaScript).
fn nested(cfg: &Map<String, Value>, section: &str, field: &str) -> Option<Value> {
    match cfg.get(section)? {
        Value::Object(m) => m.get(field).cloned(),
        _ => None,
    }
}

/// `resolveGranularityInternal(cwd, 'planning', override)`.
fn granularity(cfg: &Map<String, Value>, over: Option<&str>) -> Value {
    const VALID: [&str; 3] = ["coarse", "standard", "fine"];
    if let Some(o) = over.filter(|o| VALID.contains(o)) {
        return json!(o);
    }
    if let Some(Value::Object(per)) = cfg.get("granularities")
        && let Some(Value::String(p)) = per.get("planning")
        && VALID.contains(&p.as_str())
    {
        return json!(p);
    }
    let set = |v: Option<&Value>| v.filter(|v| !v.is_null() && **v != json!("")).cloned();
    if let Some(g) = set(cfg.get("granularity")) {
        return g;
    }
    let planning = cfg.get("planning").filter(|p| js::truthy(p));
    if let Some(g) = set(planning.and_then(|p| p.get("granularity"))) {
        return g;
    }
    json!("standard")
}

/// `resolveModelInternal(cwd, agent)`: the model `resolve-model` gives.
pub(super) fn model(call: &CoreCall, agent: &str) -> Result<Value, Refusal> {
    let args = [agent.to_owned()];
    let c = CoreCall {
        args: &args,
        ..*call
    };
    let out = super::models::resolve_model(&c)?;
    let v: Value = serde_json::from_str(&out.text)
        .map_err(|_| hand_on(" where a model answer is not JSON"))?;
    Ok(v["model"].clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirement_ids_as_one_line() {
        assert_eq!(
            requirement_ids("### Phase 2\n**Requirements:** [AUTH-01, AUTH-02],, UI-3\n")
                .as_deref(),
            Some("AUTH-01, AUTH-02, UI-3")
        );
        assert_eq!(requirement_ids("**Requirements**: TBD\n"), None);
        assert_eq!(requirement_ids("**Requirements:**\n- A\n"), None);
        assert_eq!(requirement_ids("Requirements: A"), None);
    }

    #[test]
    fn granularity_precedence() {
        let cfg = |v: Value| v.as_object().cloned().unwrap();
        assert_eq!(granularity(&cfg(json!({})), Some("fine")), "fine");
        assert_eq!(
            granularity(&cfg(json!({"granularity": "coarse"})), Some("bogus")),
            "coarse"
        );
        assert_eq!(
            granularity(
                &cfg(json!({"granularities": {"planning": "fine"}, "granularity": "coarse"})),
                None
            ),
            "fine"
        );
        assert_eq!(
            granularity(&cfg(json!({"planning": {"granularity": 3}})), None),
            3
        );
        assert_eq!(
            granularity(&cfg(json!({"granularity": ""})), None),
            "standard"
        );
    }
}
