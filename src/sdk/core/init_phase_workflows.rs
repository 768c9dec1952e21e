//! The small inits of GSD Core 1.14.0's phase workflows (`init review`,
//! `code-review`, `discuss-phase-assumptions`): the phase found as
//! `init.phase-op` finds it (its folder, else its roadmap entry), the few
//! fields each workflow reads, and the facts that choose its optional
//! sections (reviewer instances, the fallow structural pass, auto-advance).

use serde_json::{Map, Value, json};

use super::init_envelope::finish;
use super::init_phase_op::{View, checked_config, lookup, path_text};
use super::init_workflows::{guard_manifest, loaded};
use super::named_args::{self, Named, Spec};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;
use super::phase_id::normalize_phase_name;
use super::section_manifest::{self, Facts};

/// The phase a phase workflow's init names (`N` or `--phase N`), found as
/// `init.phase-op` finds it, with the call's boolean flags.
fn phase_view(call: &CoreCall, flags: &[&str]) -> Result<(View, Named), Refusal> {
    let mut args = call.args.to_vec();
    match args.first().map(String::as_str) {
        Some("--phase") if args.get(1).is_some_and(|n| !n.starts_with("--")) => {
            args.remove(0);
        }
        Some(a) if a.starts_with("--phase=") && a.len() > "--phase=".len() => {
            args[0] = a["--phase=".len()..].to_string();
        }
        _ => {}
    }
    let Some(phase) = args
        .first()
        .filter(|p| !p.is_empty() && !p.starts_with('-'))
    else {
        return Err(hand_on(" without a phase"));
    };
    let phase = phase.clone();
    let named = named_args::parse(
        &args,
        &Spec {
            values: &[],
            booleans: flags,
            positionals: 1,
        },
    )
    .map_err(Refusal::Fail)?;
    guard_manifest()?;
    Ok((lookup(call, &phase)?, named))
}

/// The phase's folder, number, name and padded number as the phase inits
/// report them.
fn phase_fields(v: &View) -> Result<(Value, Value, Value, Value), Refusal> {
    let dir = match &v.dir {
        Some(d) => json!(path_text(d)?),
        None => Value::Null,
    };
    let number = match v.number.as_str() {
        Some(n) if !n.is_empty() => json!(n),
        _ => Value::Null,
    };
    let padded = json!(number.as_str().map(normalize_phase_name));
    let name = json!(v.name.as_deref().filter(|n| !n.is_empty()));
    Ok((dir, number, name, padded))
}

/// `init review N`.
pub fn review(call: &CoreCall) -> Result<Out, Refusal> {
    let (v, _) = phase_view(call, &[])?;
    let config = checked_config(call)?;
    let (dir, number, _, padded) = phase_fields(&v)?;
    let facts = Facts {
        reviewer_instances_configured: matches!(
            section_manifest::config_value(call.project, &["review", "reviewer_instances"]),
            Some(Value::Object(m)) if !m.is_empty()
        ),
        ..Facts::default()
    };
    let mut r = Map::new();
    r.insert("phase_dir".into(), dir);
    r.insert("phase_number".into(), number);
    r.insert("padded_phase".into(), padded);
    r.insert(
        "section_manifest".into(),
        section_manifest::field("review", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `init code-review N [--fix]`.
pub fn code_review(call: &CoreCall) -> Result<Out, Refusal> {
    let (v, named) = phase_view(call, &["fix"])?;
    let config = checked_config(call)?;
    let (dir, number, name, padded) = phase_fields(&v)?;
    let fallow =
        |key: &str| section_manifest::config_value(call.project, &["code_quality", "fallow", key]);
    let enabled = fallow("enabled") == Some(Value::Bool(true));
    let text_or = |key: &str, default: &str| match fallow(key) {
        Some(Value::String(s)) if !s.is_empty() => s,
        _ => default.to_string(),
    };
    let profile = text_or("profile", "standard");
    let max_crap = match profile.as_str() {
        "minimal" => 50,
        "strict" => 15,
        _ => 30,
    };
    let mut facts = Facts {
        fallow_enabled: enabled,
        ..Facts::default()
    };
    if named.flag("fix") {
        facts.flags.insert("--fix".into());
    }
    let mut r = Map::new();
    r.insert("commit_docs".into(), loaded(call, "commit_docs")?);
    r.insert("phase_found".into(), json!(v.found));
    r.insert("phase_dir".into(), dir);
    r.insert("phase_number".into(), number);
    r.insert("phase_name".into(), name);
    r.insert("padded_phase".into(), padded);
    r.insert("fallow_enabled".into(), json!(enabled));
    r.insert("fallow_scope".into(), json!(text_or("scope", "phase")));
    r.insert("fallow_profile".into(), json!(profile));
    r.insert(
        "fallow_mcp".into(),
        json!(fallow("mcp") == Some(Value::Bool(true))),
    );
    r.insert("fallow_max_crap".into(), json!(max_crap));
    r.insert(
        "section_manifest".into(),
        section_manifest::field("code-review", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `init discuss-phase-assumptions N [--auto]`.
pub fn discuss_phase_assumptions(call: &CoreCall) -> Result<Out, Refusal> {
    let (v, named) = phase_view(call, &["auto"])?;
    let config = checked_config(call)?;
    let (dir, number, name, padded) = phase_fields(&v)?;
    let auto = named.flag("auto");
    let mut facts = Facts {
        auto_advance_active: auto
            || section_manifest::config_true(call.project, &["workflow", "_auto_chain_active"])
            || section_manifest::config_true(call.project, &["workflow", "auto_advance"]),
        ..Facts::default()
    };
    if auto {
        facts.flags.insert("--auto".into());
    }
    let planning = call.project.join(".planning");
    let mut r = Map::new();
    r.insert("commit_docs".into(), loaded(call, "commit_docs")?);
    r.insert("phase_found".into(), json!(v.found));
    r.insert("phase_dir".into(), dir);
    r.insert("phase_number".into(), number);
    r.insert("phase_name".into(), name.clone());
    r.insert(
        "phase_slug".into(),
        json!(
            name.as_str()
                .and_then(|n| super::slug::slug(n, None))
                .filter(|s| !s.is_empty())
        ),
    );
    r.insert("padded_phase".into(), padded);
    r.insert("has_research".into(), json!(v.research.is_some()));
    r.insert("has_context".into(), json!(v.context.is_some()));
    r.insert("has_plans".into(), json!(v.plan_count > 0));
    r.insert("has_verification".into(), json!(v.has_verification));
    r.insert("plan_count".into(), json!(v.plan_count));
    r.insert(
        "roadmap_exists".into(),
        json!(planning.join("ROADMAP.md").exists()),
    );
    r.insert("planning_exists".into(), json!(planning.exists()));
    r.insert(
        "section_manifest".into(),
        section_manifest::field("discuss-phase-assumptions", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}
